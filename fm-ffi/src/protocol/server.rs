//! [`Server`]: the protocol on one byte stream, stdin and stdout (`bin/serve.rs`), one
//! reply line for each request line; and the bounded line reader ([`read_line`]) that it
//! shares with the socket mode (`crate::listen`), which never holds more than
//! [`MAX_LINE_BYTES`] of a line.

use super::dispatch::Core;
use super::reply::{not_utf8, too_long, Reply};
use super::session::Session;
use fm_core::any::DynMatch;
use std::io::{self, BufRead, Write};

/// The longest request line the server reads, in bytes, not counting its line end:
/// 8 MiB. The longest legitimate request we know of is a `load` of the save of a whole
/// random game of Meuse Argonne (1,662 commands) sent as a string: about 620 KB (510 KB
/// as an object; the largest `new`, Meuse Argonne's scenario as a pretty-printed
/// string, is under 400 KB). The limit is thirteen times that, and twice fm-core's
/// `MAX_SAVE_BYTES`, so every save the engine loads fits in one line, as an object or
/// as a string. A longer line is read to its end in bounded chunks and discarded,
/// never held whole ([`read_line`]), and gets one error reply.
pub const MAX_LINE_BYTES: usize = 8 << 20;

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer without its line end (LF or CRLF; the last line of the
    /// input may have none).
    Line,
    /// A line longer than the limit. It was read to its end (its LF, or the end of the
    /// input) and thrown away; the buffer is empty. `len` is its length in bytes.
    TooLong {
        /// Length of the line in bytes, without its LF.
        len: u64,
    },
    /// The end of the input: nothing more to read.
    Eof,
}

/// Reads one line into `buf` (cleared first), never holding more than `limit` + 1
/// bytes of it: a line longer than `limit` bytes (not counting its LF or CRLF) is
/// consumed in the reader's own chunks up to its LF and discarded, so the next call
/// starts at the next line.
///
/// ```
/// use fm::protocol::{read_line, LineRead};
/// let mut input = &b"short\r\nmuch too long\nnext"[..];
/// let mut buf = Vec::new();
/// assert_eq!(read_line(&mut input, &mut buf, 8).unwrap(), LineRead::Line);
/// assert_eq!(buf, b"short");
/// assert_eq!(read_line(&mut input, &mut buf, 8).unwrap(), LineRead::TooLong { len: 13 });
/// assert_eq!(read_line(&mut input, &mut buf, 8).unwrap(), LineRead::Line);
/// assert_eq!(buf, b"next");
/// assert_eq!(read_line(&mut input, &mut buf, 8).unwrap(), LineRead::Eof);
/// ```
///
/// # Errors
/// A read error of `input` (`Interrupted` is retried).
pub fn read_line<R: BufRead + ?Sized>(
    input: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<LineRead> {
    buf.clear();
    // One byte more than the limit may be kept: the CR of a CRLF line end.
    let keep = limit.saturating_add(1);
    let mut len: u64 = 0;
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        len += part.len() as u64;
        if !too_long {
            let need = buf.len() + part.len();
            if need <= keep {
                if need > buf.capacity() {
                    // Grow as Vec would, but never past what may be kept.
                    let target = need.max(buf.capacity().saturating_mul(2)).min(keep);
                    buf.reserve_exact(target - buf.len());
                }
                buf.extend_from_slice(part);
            } else {
                too_long = true;
                buf.clear();
                // Give back a large buffer: the next line is most likely short.
                buf.shrink_to(64 << 10);
            }
        }
        let used = part.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !read_any {
        return Ok(LineRead::Eof);
    }
    if !too_long && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if too_long || buf.len() > limit {
        buf.clear();
        return Ok(LineRead::TooLong { len });
    }
    Ok(LineRead::Line)
}

/// How [`Server::serve`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServeEnd {
    /// A `quit` request was answered.
    Quit,
    /// The input ended.
    EndOfInput,
    /// A reply could not be written (the reader went away).
    OutputClosed,
}

/// A protocol session on stdin and stdout: one client, the owner, who may also speak
/// for seats with a `"seat"` field per request. It is a [`Core`] (the match) with one
/// [`Session`] (the client's own memory); the socket mode (`crate::listen`) shares one
/// `Core` between many sessions.
#[derive(Default)]
pub struct Server {
    core: Core,
    session: Session,
}

impl Server {
    /// A server with no match.
    pub fn new() -> Server {
        Server::default()
    }

    /// The current match, if any.
    pub fn game(&self) -> Option<&dyn DynMatch> {
        self.core.game()
    }

    /// Bounds its `think`s ([`Core::limit_thinks`]; `serve`'s flags on stdin).
    pub fn limit_thinks(&mut self, limits: super::ThinkLimits) {
        self.core.limit_thinks(limits);
    }

    /// Reads requests from `input` and writes one reply line to `output` for each line
    /// that is not blank, until `quit`, the end of the input or a closed output. A line
    /// longer than [`MAX_LINE_BYTES`] is skipped without being held in memory and gets
    /// an error reply. `fm-ffi/src/bin/serve.rs` runs this on stdin and stdout.
    ///
    /// # Errors
    /// A read error of `input`. (A write error ends the session as
    /// [`ServeEnd::OutputClosed`].)
    pub fn serve<R: BufRead, W: Write>(&mut self, input: R, output: W) -> io::Result<ServeEnd> {
        self.serve_with_limit(input, output, MAX_LINE_BYTES)
    }

    /// [`Server::serve`] with another line-length limit (for tests).
    ///
    /// # Errors
    /// As [`Server::serve`].
    pub fn serve_with_limit<R: BufRead, W: Write>(
        &mut self,
        mut input: R,
        mut output: W,
        limit: usize,
    ) -> io::Result<ServeEnd> {
        let mut line = Vec::new();
        loop {
            let reply = match read_line(&mut input, &mut line, limit)? {
                LineRead::Eof => return Ok(ServeEnd::EndOfInput),
                LineRead::TooLong { len } => too_long(len, limit),
                LineRead::Line => match self.handle_bytes(&line) {
                    Some(r) => r,
                    None => continue,
                },
            };
            if writeln!(output, "{}", reply.line)
                .and_then(|()| output.flush())
                .is_err()
            {
                return Ok(ServeEnd::OutputClosed);
            }
            if reply.quit {
                return Ok(ServeEnd::Quit);
            }
        }
    }

    /// Answers one input line given as bytes (invalid UTF-8 gets an error reply).
    /// Returns `None` for a blank line, which is ignored.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<Reply> {
        match std::str::from_utf8(line) {
            Ok(s) => self.handle_line(s),
            Err(e) if line.len() <= MAX_LINE_BYTES => Some(not_utf8(e)),
            Err(_) => Some(too_long(line.len() as u64, MAX_LINE_BYTES)),
        }
    }

    /// Answers one input line (without its newline). Returns `None` for a blank line,
    /// which is ignored. Never panics: an internal error is reported as
    /// `{"error":{"rule":"panic",…}}` and discards the match.
    pub fn handle_line(&mut self, line: &str) -> Option<Reply> {
        self.core.handle(&mut self.session, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A reader of `n` bytes of `x` followed by `tail`, made up as it is read: an
    /// over-long line without allocating it.
    struct Generated {
        left: u64,
        tail: std::io::Cursor<Vec<u8>>,
    }

    impl std::io::Read for Generated {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return self.tail.read(out);
            }
            let n = (out.len() as u64).min(self.left) as usize;
            out[..n].fill(b'x');
            self.left -= n as u64;
            Ok(n)
        }
    }

    fn lines(out: &[u8]) -> Vec<Value> {
        std::str::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Finding 7c: a 100 MB line gets one error reply and is never held whole; the next
    /// line is answered normally.
    #[test]
    fn an_over_long_line_is_skipped_and_the_next_one_answered() {
        let input = Generated {
            left: 100_000_000,
            tail: std::io::Cursor::new(b"\n{\"cmd\":\"hello\",\"id\":2}\n".to_vec()),
        };
        let mut out = Vec::new();
        let end = Server::new()
            .serve(std::io::BufReader::with_capacity(64 << 10, input), &mut out)
            .unwrap();
        assert_eq!(end, ServeEnd::EndOfInput);
        let replies = lines(&out);
        assert_eq!(replies.len(), 2, "{replies:?}");
        assert_eq!(replies[0]["error"]["rule"], "protocol");
        let m = replies[0]["error"]["message"].as_str().unwrap();
        assert!(
            m.contains("100000000 bytes") && m.contains("8388608"),
            "{m}"
        );
        assert_eq!(replies[1]["id"], 2);
        assert_eq!(replies[1]["engine"], "fm");
    }

    /// The reader keeps at most limit + 1 bytes, whatever the chunking, and one reply
    /// comes for every line that is not blank.
    #[test]
    fn the_line_reader_is_bounded_for_any_chunk_size() {
        let text = b"{\"cmd\":\"hello\"}\r\n\n   \nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\
                     {\"cmd\":\"scenarios\"}\n{\"cmd\":\"hello\"}";
        for cap in [1, 2, 3, 7, 16, 64, 4096] {
            let mut r = std::io::BufReader::with_capacity(cap, &text[..]);
            let mut buf = Vec::new();
            let mut got = Vec::new();
            loop {
                let l = read_line(&mut r, &mut buf, 20).unwrap();
                assert!(buf.capacity() <= 64 << 10 && buf.len() <= 21);
                match l {
                    LineRead::Eof => break,
                    LineRead::Line => got.push(String::from_utf8(buf.clone()).unwrap()),
                    LineRead::TooLong { len } => got.push(format!("too long {len}")),
                }
            }
            assert_eq!(
                got,
                [
                    "{\"cmd\":\"hello\"}",
                    "",
                    "   ",
                    "too long 42",
                    "{\"cmd\":\"scenarios\"}",
                    "{\"cmd\":\"hello\"}"
                ],
                "chunk size {cap}"
            );
            let mut out = Vec::new();
            let mut s = Server::new();
            let r = std::io::BufReader::with_capacity(cap, &text[..]);
            assert_eq!(
                s.serve_with_limit(r, &mut out, 20).unwrap(),
                ServeEnd::EndOfInput
            );
            let replies = lines(&out);
            assert_eq!(replies.len(), 4, "chunk size {cap}: {replies:?}");
            assert!(replies[1]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("42 bytes"));
        }
        // A line of exactly the limit is read, and so is one with a CR after it.
        let mut r = &b"12345\n12345\r\n123456\n"[..];
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(read_line(&mut r, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"12345");
        assert_eq!(
            read_line(&mut r, &mut buf, 5).unwrap(),
            LineRead::TooLong { len: 6 }
        );
    }
}
