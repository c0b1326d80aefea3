//! The server side of WebSocket (RFC 6455), as much as `serve --listen` needs: the
//! opening handshake's accept key, and frames read and written on a blocking stream.
//! A message is one request or one reply (a text message); pings are answered, a
//! close is echoed. Reading is bounded: a message longer than the limit is read to
//! its end in bounded chunks and thrown away, as the JSON-lines reader does with an
//! over-long line.

use std::io::{self, Read, Write};

/// The GUID of RFC 6455 section 1.3, appended to the client's key.
const GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`.
///
/// ```
/// // RFC 6455, section 1.3.
/// assert_eq!(fm::ws::accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
/// ```
pub fn accept_key(key: &str) -> String {
    base64(&sha1(format!("{}{GUID}", key.trim()).as_bytes()))
}

/// SHA-1 (FIPS 180-4). Only for the handshake, where RFC 6455 prescribes it; it
/// protects nothing here.
fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (i, x) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}

/// Standard base64 with padding (RFC 4648).
fn base64(data: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What [`read_message`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Message {
    /// A text message (UTF-8 checked).
    Text(String),
    /// A binary message (the protocol is text: it gets an error reply).
    Binary,
    /// A message longer than the limit, read to its end and thrown away.
    TooLong {
        /// Its length in bytes.
        len: u64,
    },
    /// A close frame, already answered with a close frame; the connection ends.
    Close,
}

/// Why the connection must end: the close status to send (RFC 6455 section 7.4.1:
/// 1002 protocol error, 1007 text that is not UTF-8), or the stream's error.
#[derive(Debug)]
pub enum Failure {
    /// The peer broke the protocol; send a close frame with this status and end.
    Protocol(u16, &'static str),
    /// The stream failed or ended.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

/// A frame's header.
struct Header {
    fin: bool,
    opcode: u8,
    mask: [u8; 4],
    len: u64,
}

fn read_header<R: Read>(r: &mut R) -> Result<Header, Failure> {
    let mut b = [0u8; 2];
    r.read_exact(&mut b)?;
    if b[0] & 0x70 != 0 {
        return Err(Failure::Protocol(
            1002,
            "reserved bits set (no extension was agreed)",
        ));
    }
    if b[1] & 0x80 == 0 {
        return Err(Failure::Protocol(1002, "a client's frame must be masked"));
    }
    let len = match b[1] & 0x7f {
        126 => {
            let mut x = [0u8; 2];
            r.read_exact(&mut x)?;
            u64::from(u16::from_be_bytes(x))
        }
        127 => {
            let mut x = [0u8; 8];
            r.read_exact(&mut x)?;
            let n = u64::from_be_bytes(x);
            if n >> 63 != 0 {
                return Err(Failure::Protocol(1002, "a frame length's top bit is set"));
            }
            n
        }
        n => u64::from(n),
    };
    let mut mask = [0u8; 4];
    r.read_exact(&mut mask)?;
    Ok(Header {
        fin: b[0] & 0x80 != 0,
        opcode: b[0] & 0x0f,
        mask,
        len,
    })
}

/// Reads a frame's payload, unmasked (each frame's mask starts at its first byte),
/// appending it to `out` (`keep`) or throwing it away in bounded chunks.
fn read_payload<R: Read>(r: &mut R, h: &Header, out: &mut Vec<u8>, keep: bool) -> io::Result<()> {
    let mut left = h.len;
    let mut at = 0u64;
    let mut chunk = [0u8; 8192];
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        r.read_exact(&mut chunk[..n])?;
        if keep {
            for (i, byte) in chunk[..n].iter_mut().enumerate() {
                *byte ^= h.mask[((at + i as u64) % 4) as usize];
            }
            out.extend_from_slice(&chunk[..n]);
        }
        at += n as u64;
        left -= n as u64;
    }
    Ok(())
}

/// Reads one message from a client (its continuation frames joined), answering pings
/// and a close on `w` as it goes. A message longer than `limit` bytes is consumed and
/// thrown away (never held whole) and reported as [`Message::TooLong`].
///
/// # Errors
/// [`Failure::Protocol`] for frames that break RFC 6455 (unmasked, reserved bits, an
/// unknown opcode, a fragmented or long control frame, a continuation of nothing, text
/// that is not UTF-8): the caller sends that close status and ends the connection.
/// [`Failure::Io`] when the stream fails or ends.
pub fn read_message<R: Read, W: Write>(
    r: &mut R,
    w: &mut W,
    limit: usize,
) -> Result<Message, Failure> {
    let mut data = Vec::new();
    let mut kind: Option<u8> = None;
    let mut len: u64 = 0;
    let mut too_long = false;
    loop {
        let h = read_header(r)?;
        match h.opcode {
            0x8..=0xA => {
                if !h.fin || h.len > 125 {
                    return Err(Failure::Protocol(
                        1002,
                        "a control frame is short and whole",
                    ));
                }
                let mut payload = Vec::new();
                read_payload(r, &h, &mut payload, true)?;
                match h.opcode {
                    0x8 => {
                        let code = close_status(&payload)?;
                        // Echo the status code (if any), then the connection ends.
                        let _ = write_frame(w, 0x8, code);
                        return Ok(Message::Close);
                    }
                    0x9 => write_frame(w, 0xA, &payload)?,
                    _ => {}
                }
            }
            0x0..=0x2 => {
                if (h.opcode == 0) == kind.is_none() {
                    return Err(Failure::Protocol(
                        1002,
                        "a continuation frame continues a message, and only one",
                    ));
                }
                if h.opcode != 0 {
                    kind = Some(h.opcode);
                }
                len = len.saturating_add(h.len);
                if !too_long && len > limit as u64 {
                    too_long = true;
                    data = Vec::new();
                }
                read_payload(r, &h, &mut data, !too_long)?;
                if h.fin {
                    break;
                }
            }
            _ => return Err(Failure::Protocol(1002, "an unknown opcode")),
        }
    }
    if too_long {
        return Ok(Message::TooLong { len });
    }
    match kind {
        Some(0x1) => String::from_utf8(data)
            .map(Message::Text)
            .map_err(|_| Failure::Protocol(1007, "a text message that is not UTF-8")),
        _ => Ok(Message::Binary),
    }
}

/// The status code bytes of a client's close frame, to echo (none for an empty body).
///
/// # Errors
/// RFC 6455 section 5.5.1: a body holds a two-byte status code first, then a UTF-8
/// reason; section 7.4: only the codes defined for the wire (1000-1003, 1007-1011)
/// and the registered and private ranges (3000-4999) may be sent. A body of one byte
/// or a code outside those is 1002, a reason that is not UTF-8 is 1007.
fn close_status(payload: &[u8]) -> Result<&[u8], Failure> {
    let Some((code, reason)) = payload.split_first_chunk::<2>() else {
        if payload.is_empty() {
            return Ok(&[]);
        }
        return Err(Failure::Protocol(
            1002,
            "a close frame's body starts with a two-byte status code",
        ));
    };
    match u16::from_be_bytes(*code) {
        1000..=1003 | 1007..=1011 | 3000..=4999 => {}
        _ => {
            return Err(Failure::Protocol(
                1002,
                "a close frame's status code is one a peer may send",
            ))
        }
    }
    if std::str::from_utf8(reason).is_err() {
        return Err(Failure::Protocol(
            1007,
            "a close frame's reason that is not UTF-8",
        ));
    }
    Ok(code)
}

/// The bytes of one unmasked frame (a server's), `fin` set.
pub fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 10);
    out.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => out.push(n as u8),
        n if n <= 0xffff => {
            out.push(126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(payload);
    out
}

/// Writes one unmasked frame.
///
/// # Errors
/// The stream's.
pub fn write_frame<W: Write>(w: &mut W, opcode: u8, payload: &[u8]) -> io::Result<()> {
    w.write_all(&frame(opcode, payload))?;
    w.flush()
}

/// A close frame's bytes with a status code and a reason.
pub fn close_frame(code: u16, reason: &str) -> Vec<u8> {
    let mut p = code.to_be_bytes().to_vec();
    p.extend_from_slice(&reason.as_bytes()[..reason.len().min(120)]);
    frame(0x8, &p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client's frame: masked with a fixed key.
    pub(crate) fn client_frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mask = [0x37, 0xfa, 0x21, 0x3d];
        let mut f = frame(opcode, payload);
        if !fin {
            f[0] &= 0x7f;
        }
        f[1] |= 0x80;
        let at = f.len() - payload.len();
        f.splice(at..at, mask);
        for (i, b) in f[at + 4..].iter_mut().enumerate() {
            *b ^= mask[i % 4];
        }
        f
    }

    #[test]
    fn sha1_and_base64_vectors() {
        let hex = |d: [u8; 20]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(sha1(b"")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            hex(sha1(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        let long = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(hex(sha1(long)), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    fn read(input: &[u8], limit: usize) -> (Result<Message, Failure>, Vec<u8>) {
        let mut out = Vec::new();
        let r = read_message(&mut &input[..], &mut out, limit);
        (r, out)
    }

    #[test]
    fn messages_fragments_pings_and_limits() {
        let text = client_frame(true, 1, "{\"cmd\":\"hello\"}".as_bytes());
        assert_eq!(
            read(&text, 100).0.unwrap(),
            Message::Text("{\"cmd\":\"hello\"}".into())
        );
        // Fragments with a ping between them: joined, the ping answered.
        let mut parts = client_frame(false, 1, b"ab");
        parts.extend(client_frame(true, 9, b"hi"));
        parts.extend(client_frame(true, 0, b"cd"));
        let (m, out) = read(&parts, 100);
        assert_eq!(m.unwrap(), Message::Text("abcd".into()));
        assert_eq!(out, frame(0xA, b"hi"));
        // Too long: thrown away, reported with its length; the next message is read.
        let mut big = client_frame(true, 1, &[b'x'; 70000]);
        big.extend(client_frame(true, 1, b"next"));
        let mut r = &big[..];
        let mut out = Vec::new();
        assert_eq!(
            read_message(&mut r, &mut out, 1000).unwrap(),
            Message::TooLong { len: 70000 }
        );
        assert_eq!(
            read_message(&mut r, &mut out, 1000).unwrap(),
            Message::Text("next".into())
        );
        assert_eq!(
            read(&client_frame(true, 2, b"\x00"), 10).0.unwrap(),
            Message::Binary
        );
        let (m, out) = read(&client_frame(true, 8, &1000u16.to_be_bytes()), 10);
        assert_eq!(m.unwrap(), Message::Close);
        assert_eq!(out, frame(8, &1000u16.to_be_bytes()));
    }

    #[test]
    fn protocol_errors_end_the_connection() {
        let unmasked = frame(1, b"x");
        let mut reserved = client_frame(true, 1, b"x");
        reserved[0] |= 0x40;
        let long_ping = client_frame(true, 9, &[0; 126]);
        let split_ping = client_frame(false, 9, b"");
        let lone_continuation = client_frame(true, 0, b"x");
        let mut interleaved = client_frame(false, 1, b"x");
        interleaved.extend(client_frame(true, 1, b"y"));
        let bad_utf8 = client_frame(true, 1, b"\xff");
        let unknown = client_frame(true, 3, b"");
        for (bad, code) in [
            (unmasked, 1002),
            (reserved, 1002),
            (long_ping, 1002),
            (split_ping, 1002),
            (lone_continuation, 1002),
            (interleaved, 1002),
            (bad_utf8, 1007),
            (unknown, 1002),
        ] {
            match read(&bad, 100).0 {
                Err(Failure::Protocol(c, _)) => assert_eq!(c, code),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        // A frame cut short is an I/O error (the peer went away).
        let cut = &client_frame(true, 1, b"hello")[..5];
        assert!(matches!(read(cut, 100).0, Err(Failure::Io(_))));
    }
}
