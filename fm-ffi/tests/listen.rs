//! `serve --listen` (docs/serve.md, "Socket mode"): real sockets over loopback.
//!
//! - Two clients bound to the two seats of one Vimy Ridge match in a `serve` process
//!   play it to its end (or a bound), each told of the other's moves by notifications;
//!   every reply and notification each receives is exactly what an in-process match
//!   gives that side (view hashes, redacted events), and none holds the other side's
//!   secret allotment (VR 16.0) or face-down markers (7.2), nor the referee's hash.
//! - WebSocket: the handshake, requests and notifications as text messages, framing
//!   errors closed with their status, an over-long message answered and survived, an
//!   abrupt disconnect mid-frame harmless to others; the page over HTTP; the bound on
//!   connections; the owner's `quit` stopping the server.

use crate::support;

use fm::listen::{self, Options};
use fm::protocol::Core;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A JSON-lines client on a socket: requests carry increasing ids; lines that arrive
/// before a request's reply are notifications, kept in order.
struct Client {
    r: BufReader<TcpStream>,
    w: TcpStream,
    next: u64,
    notes: std::collections::VecDeque<Value>,
    /// Every line received, for the leak checks.
    seen: Vec<Value>,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let w = TcpStream::connect(addr).expect("connect");
        w.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        Client {
            r: BufReader::new(w.try_clone().unwrap()),
            w,
            next: 1,
            notes: Default::default(),
            seen: Vec::new(),
        }
    }

    fn line(&mut self) -> Value {
        let mut s = String::new();
        let n = self.r.read_line(&mut s).expect("read a line");
        assert!(n > 0, "the server closed the connection");
        let v: Value = serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"));
        self.seen.push(v.clone());
        v
    }

    fn ask(&mut self, mut req: Value) -> Value {
        let id = self.next;
        self.next += 1;
        req["id"] = json!(id);
        writeln!(self.w, "{req}").unwrap();
        loop {
            let v = self.line();
            if v["id"] == json!(id) {
                return v;
            }
            assert!(
                v.get("notify").is_some(),
                "neither reply nor notification: {v}"
            );
            self.notes.push_back(v);
        }
    }

    fn note(&mut self) -> Value {
        match self.notes.pop_front() {
            Some(n) => n,
            None => {
                let v = self.line();
                assert!(v.get("notify").is_some(), "{v}");
                v
            }
        }
    }
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

/// The events of `support_allotted` / `support_committed` of the other side carry no
/// values (VR 16.0, rule 7.2), anywhere in `v`.
fn no_secrets_of(v: &Value, other: &str) {
    match v {
        Value::Object(o) => {
            let t = o.get("type").and_then(Value::as_str);
            if o.get("side").and_then(Value::as_str) == Some(other) {
                if t == Some("support_allotted") {
                    assert!(o.get("values").map_or(true, Value::is_null), "{v}");
                }
                if t == Some("support_committed") {
                    assert!(o.get("value").map_or(true, Value::is_null), "{v}");
                }
            }
            o.values().for_each(|x| no_secrets_of(x, other));
        }
        Value::Array(a) => a.iter().for_each(|x| no_secrets_of(x, other)),
        _ => {}
    }
}

/// Counts the other side's allotments and commitments a message mentions (to show the
/// check above had something to check).
fn secrets_mentioned(v: &Value) -> usize {
    match v {
        Value::Object(o) => {
            let t = o.get("type").and_then(Value::as_str);
            usize::from(matches!(t, Some("support_allotted" | "support_committed")))
                + o.values().map(secrets_mentioned).sum::<usize>()
        }
        Value::Array(a) => a.iter().map(secrets_mentioned).sum(),
        _ => 0,
    }
}

/// Starts `serve --listen 127.0.0.1:0` with a match; returns the process, its address
/// and its first line (the tokens).
fn start_process(scenario: &str, seed: u64) -> (std::process::Child, SocketAddr, Value) {
    let seed = seed.to_string();
    support::start_listening(["--scenario", scenario, "--seed", &seed], Stdio::inherit())
}

/// Two seats in two connections play one Vimy Ridge match in a `serve` process; each
/// sees exactly its side's knowledge, as an in-process match gives it.
#[test]
fn two_seats_play_one_match_over_loopback_each_seeing_only_its_side() {
    let seed = 11;
    let (mut child, addr, hello) = start_process("vimy-ridge", seed);
    let mut reference = fm_core::any::new_match("vimy-ridge", seed).unwrap();
    let token = |s: &str| hello["seats"][s].as_str().unwrap().to_string();
    let mut a = Client::connect(addr);
    let mut b = Client::connect(addr);
    let mut owner = Client::connect(addr);
    // Unbound, a connection may only say hello and bind.
    let e = a.ask(json!({"cmd":"view"}));
    assert_eq!(e["error"]["rule"], "seat", "{e}");
    assert_eq!(
        a.ask(json!({"cmd":"bind","token":token("a"),"notify":true})),
        json!({"id":2,"bound":"a","notify":true})
    );
    assert_eq!(
        b.ask(json!({"cmd":"bind","token":token("b"),"notify":true}))["bound"],
        "b"
    );
    let e = owner.ask(json!({"cmd":"bind","token":"owner-0"}));
    assert_eq!(e["error"]["rule"], "seat", "{e}");
    let bound = owner.ask(json!({"cmd":"bind","token":hello["owner"],"notify":true}));
    assert_eq!(bound["bound"], "owner");
    // Each seat's own view, as the reference gives it.
    for (c, side) in [(&mut a, fm_core::Side::A), (&mut b, fm_core::Side::B)] {
        let v = c.ask(json!({"cmd":"view"}));
        assert_eq!(v["view"], reference.view_json(side));
        assert_eq!(v["hash"], hex(reference.view_hash(side)));
    }
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut commands = 0;
    while let Some(side) = reference.decider() {
        if commands == 120 {
            break;
        }
        let (me, other) = match side {
            fm_core::Side::A => (&mut a, &mut b),
            fm_core::Side::B => (&mut b, &mut a),
        };
        // The other seat's listing is empty; the decider's is the reference's.
        assert_eq!(
            other.ask(json!({"cmd":"legal","form":"indices"}))["legal"],
            json!([])
        );
        let legal = me.ask(json!({"cmd":"legal","form":"indices"}));
        let want: Vec<Value> = reference
            .legal_indices()
            .into_iter()
            .map(Value::from)
            .collect();
        assert_eq!(legal["legal"], Value::Array(want.clone()));
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let index = want[(rng % want.len() as u64) as usize].as_u64().unwrap();
        let reply = me.ask(json!({"cmd":"apply","index":index}));
        let cmd = reference.command_at(index as usize).unwrap();
        reference.apply_json(&cmd).unwrap();
        assert_eq!(reply["hash"], hex(reference.view_hash(side)), "{reply}");
        assert_eq!(reply["events"], reference.last_events_json(Some(side)));
        // The other seat and the owner are told, each as it may know it.
        let n = other.note();
        assert_eq!(n["notify"]["change"], "apply");
        assert_eq!(n["notify"]["count"], reference.log_len());
        assert_eq!(n["notify"]["hash"], hex(reference.view_hash(side.other())));
        assert_eq!(
            n["notify"]["events"],
            reference.last_events_json(Some(side.other()))
        );
        let n = owner.note();
        assert_eq!(n["notify"]["hash"], hex(reference.state_hash()));
        commands += 1;
    }
    assert!(commands >= 50, "{commands} commands");
    // Both seats end on the reference's view hashes, by `view` and by `log`.
    for (c, side) in [(&mut a, fm_core::Side::A), (&mut b, fm_core::Side::B)] {
        let v = c.ask(json!({"cmd":"view"}));
        assert_eq!(v["hash"], hex(reference.view_hash(side)));
        let log = c.ask(json!({"cmd":"log"}));
        assert_eq!(log["log"], reference.side_log_json(side, 0));
    }
    // Nothing either seat received holds the other's secrets or the referee's hash.
    let referee = hex(reference.state_hash());
    let mut mentioned = 0;
    for (c, other) in [(&a, "b"), (&b, "a")] {
        for v in &c.seen {
            no_secrets_of(v, other);
            mentioned += secrets_mentioned(v);
            assert!(!v.to_string().contains(&referee), "{v}");
        }
    }
    assert!(mentioned > 0, "the game had support fire to hide");
    // A seat cannot stop the server; the owner can.
    assert_eq!(a.ask(json!({"cmd":"quit"}))["error"]["rule"], "seat");
    assert_eq!(owner.ask(json!({"cmd":"quit"}))["bye"], true);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// Commands two client processes play before stopping (a whole game if it ends first).
const PROCESS_GAME_COMMANDS: u64 = 200;

/// Two client processes, one per seat, play one match in a `serve --listen` process
/// over loopback: each is this test binary run again as [`seat_client_process`], sees
/// only its side, and plays its own decisions from the pushed notifications. The
/// referee's save then replays to the view hashes each client ended on.
#[test]
fn two_client_processes_play_one_match() {
    let (mut server, addr, hello) = start_process("vimy-ridge", 5);
    let clients: Vec<_> = ["a", "b"]
        .iter()
        .map(|side| {
            Command::new(std::env::current_exe().unwrap())
                .args([
                    "--ignored",
                    "--exact",
                    "listen::seat_client_process",
                    "--nocapture",
                ])
                .env("FM_SEAT_ADDR", addr.to_string())
                .env("FM_SEAT_SIDE", side)
                .env("FM_SEAT_TOKEN", hello["seats"][side].as_str().unwrap())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("start a client process")
        })
        .collect();
    let mut results = Vec::new();
    for c in clients {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "a client failed: {}", out.status);
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("SEAT-RESULT "))
            .unwrap_or_else(|| panic!("no result from the client: {text}"));
        results.push(serde_json::from_str::<Value>(line).unwrap());
    }
    let mut owner = Client::connect(addr);
    owner.ask(json!({"cmd":"bind","token":hello["owner"]}));
    let save = owner.ask(json!({"cmd":"save"}))["save"].to_string();
    let replayed = fm_core::any::load_match(&save).unwrap();
    let log = replayed.log_len() as u64;
    assert!(log == PROCESS_GAME_COMMANDS || replayed.is_over(), "{log}");
    let mut applied = 0;
    for (r, side) in results.iter().zip([fm_core::Side::A, fm_core::Side::B]) {
        assert_eq!(r["count"], log, "{r}");
        assert_eq!(r["view_hash"], hex(replayed.view_hash(side)), "{r}");
        assert!(r["applied"].as_u64().unwrap() > 0, "{r}");
        applied += r["applied"].as_u64().unwrap();
    }
    // Every logged command came from one of the two processes.
    assert_eq!(applied, log);
    assert_eq!(owner.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(server.wait().unwrap().success());
}

/// One seat's client, run as its own process by [`two_client_processes_play_one_match`]
/// (ignored in a normal run; without its `FM_SEAT_*` variables it does nothing). It
/// binds to its seat with notifications, plays a pseudo-random legal index whenever the
/// decision is its side's, follows the other's moves from notifications, checks that
/// nothing it received holds the other side's secrets, and prints `SEAT-RESULT {...}`.
#[test]
#[ignore = "a client process of two_client_processes_play_one_match"]
fn seat_client_process() {
    let (Ok(addr), Ok(side), Ok(token)) = (
        std::env::var("FM_SEAT_ADDR"),
        std::env::var("FM_SEAT_SIDE"),
        std::env::var("FM_SEAT_TOKEN"),
    ) else {
        return;
    };
    let mut c = Client::connect(addr.parse().unwrap());
    let bound = c.ask(json!({"cmd":"bind","token":token,"notify":true}));
    assert_eq!(bound["bound"], side.as_str(), "{bound}");
    let mut rng: u64 = if side == "a" {
        0x9e37_79b9_7f4a_7c15
    } else {
        0xd1b5_4a32_d192_ed03
    };
    let (mut count, mut applied) = (0u64, 0u64);
    while count < PROCESS_GAME_COMMANDS {
        while let Some(n) = c.notes.pop_front() {
            count = n["notify"]["count"].as_u64().unwrap();
        }
        if count >= PROCESS_GAME_COMMANDS {
            break;
        }
        let p = c.ask(json!({"cmd":"pending"}));
        if p["pending"]["kind"] == "game_over" {
            break;
        }
        if !c.notes.is_empty() {
            continue; // the other side moved meanwhile: read it first
        }
        if p["pending"]["side"] != side.as_str() {
            let n = c.note();
            count = n["notify"]["count"].as_u64().unwrap();
            continue;
        }
        let legal = c.ask(json!({"cmd":"legal","form":"indices"}))["legal"].clone();
        let legal = legal.as_array().unwrap();
        assert!(!legal.is_empty(), "my decision, and nothing legal");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let index = &legal[(rng % legal.len() as u64) as usize];
        let reply = c.ask(json!({"cmd":"apply","index":index}));
        assert!(reply["events"].is_array(), "{reply}");
        applied += 1;
        count += 1;
    }
    let other = if side == "a" { "b" } else { "a" };
    for v in &c.seen {
        no_secrets_of(v, other);
    }
    let view = c.ask(json!({"cmd":"view"}));
    println!(
        "SEAT-RESULT {}",
        json!({"side": side, "count": count, "applied": applied, "view_hash": view["hash"]})
    );
}

// ---------------------------------------------------------------------------------------
// WebSocket, in-process (real sockets, a server thread)

fn start_thread(opts: Options) -> (SocketAddr, String, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let core = Core::socket();
    let owner = core.owner_token().unwrap().to_string();
    let t = std::thread::spawn(move || listen::run(listener, core, opts).unwrap());
    (addr, owner, t)
}

/// A minimal WebSocket client: masked frames out, frames in.
pub(crate) struct Ws {
    s: TcpStream,
    r: BufReader<TcpStream>,
}

impl Ws {
    /// Connects, waiting while the server is full: a connection that just ended frees
    /// its slot when the server's thread for it finishes, a moment after the socket
    /// closes. Bounded: 200 tries, 50 ms apart.
    pub(crate) fn connect(addr: SocketAddr) -> Ws {
        for _ in 0..200 {
            match Ws::try_connect(addr) {
                Ok(ws) => return ws,
                Err(full) if full.contains("too many connections") => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(other) => panic!("{other}"),
            }
        }
        panic!("the server stayed full");
    }

    fn try_connect(addr: SocketAddr) -> Result<Ws, String> {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.set_nodelay(true).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut r = BufReader::new(s.try_clone().unwrap());
        let mut head = String::new();
        loop {
            let mut l = String::new();
            r.read_line(&mut l).unwrap();
            if l == "\r\n" || l.is_empty() {
                break;
            }
            head.push_str(&l);
        }
        if !head.starts_with("HTTP/1.1 101") {
            let mut rest = String::new();
            let _ = r.read_to_string(&mut rest);
            return Err(format!("{head}{rest}"));
        }
        assert!(
            head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
            "{head}"
        );
        Ok(Ws { s, r })
    }

    fn send_frame(&mut self, fin: bool, opcode: u8, payload: &[u8]) {
        self.s.write_all(&masked(fin, opcode, payload)).unwrap();
    }

    /// The next frame: (opcode, payload); `None` when the connection closed.
    pub(crate) fn frame(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut h = [0u8; 2];
        self.r.read_exact(&mut h).ok()?;
        assert_eq!(h[1] & 0x80, 0, "a server's frames are not masked");
        let len = match h[1] & 0x7f {
            126 => {
                let mut x = [0u8; 2];
                self.r.read_exact(&mut x).unwrap();
                u16::from_be_bytes(x) as usize
            }
            127 => {
                let mut x = [0u8; 8];
                self.r.read_exact(&mut x).unwrap();
                u64::from_be_bytes(x) as usize
            }
            n => n as usize,
        };
        let mut p = vec![0; len];
        self.r.read_exact(&mut p).unwrap();
        Some((h[0] & 0x0f, p))
    }

    fn text(&mut self) -> Value {
        let (op, p) = self.frame().expect("a frame");
        assert_eq!(op, 1, "a text frame");
        serde_json::from_slice(&p).unwrap()
    }

    pub(crate) fn ask(&mut self, req: Value) -> Value {
        self.send_frame(true, 1, req.to_string().as_bytes());
        self.text()
    }

    pub(crate) fn send(&mut self, req: &Value) {
        self.send_frame(true, 1, req.to_string().as_bytes());
    }
}

fn masked(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x11, 0x22, 0x33, 0x44];
    let mut f = vec![if fin { 0x80 } else { 0 } | opcode];
    match payload.len() {
        n if n < 126 => f.push(0x80 | n as u8),
        n if n <= 0xffff => {
            f.push(0x80 | 126);
            f.extend((n as u16).to_be_bytes());
        }
        n => {
            f.push(0x80 | 127);
            f.extend((n as u64).to_be_bytes());
        }
    }
    f.extend(mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

fn http_get(addr: SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn websocket_requests_notifications_and_framing_errors() {
    let opts = Options {
        max_clients: 4,
        limit: 4096,
        page: Some("<!doctype html><p>page</p>".into()),
        ..Options::default()
    };
    let (addr, owner_token, server) = start_thread(opts);
    // The page and a 404, over plain HTTP on the same port.
    let page = http_get(addr, "/?seat=x");
    assert!(
        page.starts_with("HTTP/1.1 200 OK") && page.ends_with("<p>page</p>"),
        "{page}"
    );
    assert!(http_get(addr, "/other").starts_with("HTTP/1.1 404"));
    let mut owner = Ws::connect(addr);
    let v = owner.ask(json!({"cmd":"bind","token":owner_token}));
    assert_eq!(v["bound"], "owner");
    assert!(owner.ask(json!({"cmd":"new","scenario":"system-demo","seed":3}))["events"].is_array());
    let tb = owner.ask(json!({"cmd":"seat","side":"b"}))["seat"].clone();
    // A seat over WebSocket, with notifications; fragments and pings on the way.
    let mut b = Ws::connect(addr);
    b.send_frame(false, 1, br#"{"cmd":"bind","#);
    b.send_frame(true, 9, b"ping");
    assert_eq!(b.frame().unwrap(), (0xA, b"ping".to_vec()));
    b.send_frame(
        true,
        0,
        format!(r#""token":{tb},"notify":true}}"#).as_bytes(),
    );
    assert_eq!(b.text(), json!({"bound":"b","notify":true}));
    let legal = owner.ask(json!({"cmd":"legal"}));
    let first = legal["legal"][0].clone();
    let applied = owner.ask(json!({"cmd":"apply","command":first}));
    assert!(applied["events"].is_array());
    let n = b.text();
    assert_eq!(n["notify"]["change"], "apply", "{n}");
    assert_eq!(n["notify"]["count"], 1);
    // An over-long message is answered and the connection goes on.
    let big = format!(r#"{{"cmd":"hello","pad":"{}"}}"#, "x".repeat(5000));
    let e = b.ask(serde_json::from_str(&big).unwrap());
    assert_eq!(e["error"]["rule"], "protocol");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("4096"),
        "{e}"
    );
    assert_eq!(b.ask(json!({"cmd":"pending"}))["pending"]["kind"], "setup");
    // A binary message gets an error reply too.
    b.send_frame(true, 2, b"{}");
    assert_eq!(b.text()["error"]["rule"], "protocol");
    // Framing errors end the connection with their close status.
    for (bytes, code) in [
        (b"\x81\x02hi".to_vec(), 1002u16),    // unmasked
        (masked(true, 1, b"\xff\xfe"), 1007), // not UTF-8
        (masked(true, 0, b"x"), 1002),        // a continuation of nothing
        (masked(true, 3, b""), 1002),         // an unknown opcode
        (masked(true, 9, &[0u8; 126]), 1002), // a long ping
        // Issue 33, finding 7: a close frame's body is a status code and a reason.
        (masked(true, 8, b"\x03"), 1002),                // one byte
        (masked(true, 8, &1005u16.to_be_bytes()), 1002), // a code never sent
        (masked(true, 8, &999u16.to_be_bytes()), 1002),  // below the range
        (masked(true, 8, b"\x03\xe8\xff"), 1007),        // a reason not UTF-8
    ] {
        let mut c = Ws::connect(addr);
        c.s.write_all(&bytes).unwrap();
        let (op, p) = c.frame().expect("a close frame");
        assert_eq!(op, 8);
        assert_eq!(u16::from_be_bytes([p[0], p[1]]), code);
        assert!(c.frame().is_none(), "then the connection ends");
    }
    // An abrupt disconnect mid-frame, and one right after a request, harm no one.
    let mut c = Ws::connect(addr);
    c.s.write_all(&masked(true, 1, br#"{"cmd":"hello"}"#)[..5])
        .unwrap();
    drop(c);
    let mut c = Ws::connect(addr);
    c.send_frame(true, 1, br#"{"cmd":"scenarios"}"#);
    drop(c);
    // A closing handshake is echoed.
    let mut c = Ws::connect(addr);
    c.send_frame(true, 8, &1000u16.to_be_bytes());
    assert_eq!(c.frame().unwrap(), (8, 1000u16.to_be_bytes().to_vec()));
    assert!(c.frame().is_none());
    drop(c);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        owner.ask(json!({"cmd":"pending"}))["pending"]["kind"],
        "setup"
    );
    // At most four connections: a fifth is told so and closed (these two bind: an
    // unbound one would end the oldest unbound instead, RESERVED_SLOTS).
    let mut _c = Ws::connect(addr);
    _c.ask(json!({"cmd":"bind","token":owner_token}));
    let mut _d = Ws::connect(addr);
    _d.ask(json!({"cmd":"bind","token":owner_token}));
    let mut extra = TcpStream::connect(addr).unwrap();
    let mut line = String::new();
    extra.read_to_string(&mut line).unwrap();
    assert!(line.contains("too many connections"), "{line}");
    // The owner's quit stops the server; the others' connections end.
    assert_eq!(owner.ask(json!({"cmd":"quit"})), json!({"bye":true}));
    server.join().unwrap();
    let mut gone = false;
    while let Some((op, _)) = b.frame() {
        gone |= op == 8;
    }
    assert!(gone || b.frame().is_none());
}

/// A `think` runs without the lock: another client is answered meanwhile. Checked by
/// order, not by a clock: the other client's answer comes while the think is still
/// unanswered (a think holding the lock would answer first).
#[test]
fn a_long_think_does_not_block_the_others() {
    let (addr, owner_token, server) = start_thread(Options::default());
    let mut o = Client::connect(addr);
    o.ask(json!({"cmd":"bind","token":owner_token}));
    o.ask(json!({"cmd":"new","scenario":"system-demo","seed":1}));
    let mut p = Client::connect(addr);
    p.ask(json!({"cmd":"bind","token":owner_token}));
    writeln!(o.w, r#"{{"cmd":"think","time_ms":4000,"id":"t"}}"#).unwrap();
    // The think is read before the other request: o's connection carries nothing else.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(p.ask(json!({"cmd":"pending"}))["pending"]["kind"], "setup");
    o.w.set_nonblocking(true).unwrap();
    let mut peek = [0u8; 1];
    let waiting =
        matches!(o.w.peek(&mut peek), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    o.w.set_nonblocking(false).unwrap();
    assert!(
        waiting && o.r.buffer().is_empty(),
        "the think answered before the other client"
    );
    let t = o.line();
    assert_eq!(t["id"], "t");
    assert!(t["think"]["command"].is_object(), "{t}");
    p.ask(json!({"cmd":"quit"}));
    server.join().unwrap();
}

// ---------------------------------------------------------------------------------------
// Issue 33: limits (findings 1 and 2)

/// Waits until the server thread returns; false if it is still running after `within`
/// (a bound far above what the server should need, not a timing measurement).
fn ends_within(t: &std::thread::JoinHandle<()>, within: Duration) -> bool {
    let began = std::time::Instant::now();
    while !t.is_finished() {
        if began.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Connections that send nothing, or a first request that never ends, are closed at
/// the first-request deadline (a JSON-lines client told why), so they cannot keep the
/// slots from the owner; an HTTP head trickling in a byte at a time gets 408 at the
/// deadline of the head as a whole, not a timeout per byte.
#[test]
fn issue_33_silent_and_slow_first_requests_are_closed_at_the_deadline() {
    let (addr, owner, t) = start_thread(Options {
        max_clients: 4 + listen::RESERVED_SLOTS,
        first_request: Duration::from_millis(300),
        ..Options::default()
    });
    let read_all = |mut s: TcpStream| {
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        String::from_utf8_lossy(&got).into_owned()
    };
    // Four silent connections fill every slot they may, then are closed and told why.
    let silent: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    for s in silent {
        let text = read_all(s);
        assert!(
            text.contains("no whole request within 300 ms of connecting"),
            "{text}"
        );
    }
    // A JSON line that never ends is cut at the deadline too.
    let mut half = TcpStream::connect(addr).unwrap();
    half.write_all(br#"{"cmd":"hel"#).unwrap();
    let text = read_all(half.try_clone().unwrap());
    assert!(text.contains("no whole request within 300 ms"), "{text}");
    drop(half);
    // A head sent a byte every 50 ms: 408 once the whole head's 300 ms are up, long
    // before its 200 bytes are in (each byte would reset a per-read timeout).
    let mut slow = TcpStream::connect(addr).unwrap();
    let head = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Pad: {}\r\n\r\n",
        "p".repeat(150)
    );
    for b in head.as_bytes() {
        if slow.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = read_all(slow);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    // Every slot is free again: the owner gets in and is answered.
    let mut c = Client::connect(addr);
    assert_eq!(c.ask(json!({"cmd":"bind","token":owner}))["bound"], "owner");
    // A request that arrives in time is served as before, and the connection may then
    // stay idle past the deadline.
    std::thread::sleep(Duration::from_millis(400));
    assert!(c.ask(json!({"cmd":"scenarios"})).get("scenarios").is_some());
    assert_eq!(c.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// `quit` ends the server at once whatever the other clients do: a connection that
/// never sent a byte, one that sent half of `GET `, one that stopped reading its
/// replies, and a `think` of a minute running on another connection (stopped; its
/// client gets the search's answer so far).
#[test]
fn issue_33_quit_ends_the_server_whatever_the_clients_do() {
    let (addr, owner, t) = start_thread(Options {
        first_request: Duration::from_secs(600),
        ..Options::default()
    });
    let _silent = TcpStream::connect(addr).unwrap();
    let mut ge = TcpStream::connect(addr).unwrap();
    ge.write_all(b"GE").unwrap();
    let mut thinker = Client::connect(addr);
    thinker.ask(json!({"cmd":"bind","token":owner}));
    thinker.ask(json!({"cmd":"new","scenario":"meuse-argonne","seed":1}));
    // A client that asks for large replies and never reads them.
    let mut deaf = TcpStream::connect(addr).unwrap();
    writeln!(deaf, "{}", json!({"cmd":"bind","token":owner})).unwrap();
    for _ in 0..200 {
        if writeln!(deaf, "{}", json!({"cmd":"legal"})).is_err() {
            break;
        }
    }
    let think = json!({"cmd":"think","time_ms":60000,"id":99});
    writeln!(thinker.w, "{think}").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut owner_c = Client::connect(addr);
    owner_c.ask(json!({"cmd":"bind","token":owner}));
    assert_eq!(owner_c.ask(json!({"cmd":"quit"}))["bye"], true);
    // Far less than the minute of the think, the 30 s write timeout or any client.
    assert!(
        ends_within(&t, Duration::from_secs(5)),
        "the server is still running after quit"
    );
    let reply = thinker.line();
    assert_eq!(reply["id"], 99, "{reply}");
    assert!(reply["think"]["iterations"].as_u64().is_some(), "{reply}");
}

/// An HTTP request whose `Origin` or `Host` is not the server's (or one
/// `--allow-origin` lists) is refused with 403, the WebSocket upgrade and the page
/// alike; the server's own origin, `localhost` on a loopback address, and clients
/// that send no `Origin` (not browsers) are served (issue 33, finding 6).
#[test]
fn issue_33_origins_and_hosts_not_allowed_are_refused() {
    let (addr, owner, t) = start_thread(Options {
        page: Some("<p>page</p>".into()),
        ..Options::default()
    });
    let ask = |head: &str| {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "{head}\r\n").unwrap();
        // The status line, and for a 403 the reason (the server then closes).
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        while !(got.starts_with(b"HTTP/1.1 101") && got.ends_with(b"\r\n\r\n")) {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8_lossy(&got).into_owned()
    };
    let ws = "Upgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    let port = addr.port();
    for (origin, host, status) in [
        ("Origin: http://evil.example\r\n", format!("{addr}"), "403"),
        ("Origin: null\r\n", format!("{addr}"), "403"),
        ("", "evil.example".to_string(), "403"), // DNS rebinding: a name not ours
        (
            &format!("Origin: http://{addr}\r\n"),
            format!("{addr}"),
            "101",
        ),
        (
            &format!("Origin: http://localhost:{port}/\r\n"),
            format!("localhost:{port}"),
            "101",
        ),
        ("", format!("{addr}"), "101"), // no Origin: not a browser
    ] {
        let head = format!("GET / HTTP/1.1\r\nHost: {host}\r\n{origin}{ws}");
        let got = ask(&head);
        assert!(
            got.starts_with(&format!("HTTP/1.1 {status}")),
            "{head}\n{got}"
        );
        if status == "403" {
            assert!(got.contains("--allow-origin"), "{got}");
        }
    }
    // The page too.
    let evil = ask(&format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\n"
    ));
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    assert!(http_get(addr, "/").starts_with("HTTP/1.1 200"));
    let mut c = Client::connect(addr);
    c.ask(json!({"cmd":"bind","token":owner}));
    c.ask(json!({"cmd":"quit"}));
    assert!(ends_within(&t, Duration::from_secs(20)));
    // --allow-origin replaces the default: the listed origin (and its host) only.
    let (addr, owner, t) = start_thread(Options {
        allowed_origins: vec!["https://Table.Example:8443/".into()],
        ..Options::default()
    });
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: table.example:8443\r\nOrigin: https://table.example:8443\r\n{ws}\r\n"
    )
    .unwrap();
    let mut got = [0u8; 12];
    s.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"HTTP/1.1 101");
    let own = http_get(addr, "/");
    assert!(own.starts_with("HTTP/1.1 403"), "{own}");
    let mut c = Client::connect(addr);
    c.ask(json!({"cmd":"bind","token":owner}));
    c.ask(json!({"cmd":"quit"}));
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// Connections not yet bound may never take the owner's and the seats' slots: past
/// `max_clients - RESERVED_SLOTS` of them, each new connection ends the oldest (a
/// JSON-lines one told why), so the owner and both seats always get in, however many
/// connections others hold open after their first request (issue 33, finding 1).
#[test]
fn issue_33_unbound_connections_never_take_the_owners_and_seats_slots() {
    let max = 2 + listen::RESERVED_SLOTS;
    let (addr, owner, t) = start_thread(Options {
        max_clients: max,
        ..Options::default()
    });
    // Ten clients that say hello and never bind.
    let mut idle: Vec<Client> = (0..10)
        .map(|_| {
            let mut c = Client::connect(addr);
            assert!(c.ask(json!({"cmd":"hello"})).get("error").is_none());
            c
        })
        .collect();
    // All but the last two were ended, each told why.
    for c in idle.iter_mut().take(8) {
        let mut line = String::new();
        let _ = c.r.read_line(&mut line);
        assert!(line.contains("kept for the owner and the seats"), "{line}");
        line.clear();
        assert_eq!(c.r.read_line(&mut line).unwrap_or(0), 0, "then closed");
    }
    // The owner and both seats get in, bind and play.
    let mut o = Client::connect(addr);
    assert_eq!(o.ask(json!({"cmd":"bind","token":owner}))["bound"], "owner");
    o.ask(json!({"cmd":"new","scenario":"system-demo","seed":1}));
    let mut seats = Vec::new();
    for side in ["a", "b"] {
        let token = o.ask(json!({"cmd":"seat","side":side}))["seat"].clone();
        let mut c = Client::connect(addr);
        assert_eq!(c.ask(json!({"cmd":"bind","token":token}))["bound"], side);
        seats.push(c);
    }
    // (Each of those three connections arrived unbound, and ended the oldest unbound
    // one: the last two idle clients.)
    drop(idle);
    assert!(seats[1].ask(json!({"cmd":"view"})).get("view").is_some());
    assert_eq!(o.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// A client that asks for large replies and never reads them is dropped as soon as
/// what is queued for it would pass `max_queued_bytes`, not after the write timeout,
/// and the others go on (issue 33, finding 4).
#[test]
fn issue_33_a_client_that_does_not_read_is_dropped_at_its_byte_bound() {
    let (addr, owner, t) = start_thread(Options {
        max_queued_bytes: 4 << 20,
        ..Options::default()
    });
    let mut o = Client::connect(addr);
    o.ask(json!({"cmd":"bind","token":owner}));
    o.ask(json!({"cmd":"new","scenario":"vimy-ridge","seed":1}));
    let size = o.ask(json!({"cmd":"legal"})).to_string().len();
    assert!(size > 1 << 20, "a Vimy set-up listing is large: {size}");
    let mut deaf = TcpStream::connect(addr).unwrap();
    writeln!(deaf, "{}", json!({"cmd":"bind","token":owner})).unwrap();
    for i in 0..60 {
        if writeln!(deaf, "{}", json!({"cmd":"legal","id":i})).is_err() {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    // What reaches the client before the server drops it: far less than its 60
    // replies (more than 60 MB, which a server writing on would send as it reads).
    deaf.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match deaf.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
        assert!(
            got.len() < 16 << 20,
            "the server wrote on to a client over its bound"
        );
    }
    let replies = got.iter().filter(|b| **b == b'\n').count();
    assert!(replies < 10, "{replies} replies");
    // The owner is served as before.
    assert_eq!(o.ask(json!({"cmd":"pending"}))["pending"]["kind"], "setup");
    assert_eq!(o.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

// ---------------------------------------------------------------------------------------
// Issue 33, finding 3: `think` bounded in memory and in time

/// A think's search tree holds at most its share of `--think-memory`
/// (`think_memory / max_thinks`): a minute's think on Meuse Argonne's set-up (which
/// held 1.3 GB in 40 s, unbounded) stops when its tree is full, and its reply says so.
#[test]
fn issue_33_think_memory_is_bounded() {
    let (addr, owner, t) = start_thread(Options {
        think_memory: 4 << 20,
        max_thinks: 2,
        ..Options::default()
    });
    let mut o = Client::connect(addr);
    o.ask(json!({"cmd":"bind","token":owner}));
    o.ask(json!({"cmd":"new","scenario":"meuse-argonne","seed":1}));
    let r = o.ask(json!({"cmd":"think","time_ms":60000}));
    let think = &r["think"];
    assert_eq!(think["stopped"], "memory", "{r}");
    let held = think["tree_bytes"].as_u64().unwrap();
    assert!(held <= 2 << 20 && held > 1 << 20, "{r}");
    assert!(think["iterations"].as_u64().unwrap() > 0, "{r}");
    let legal = o.ask(json!({"cmd":"legal"}))["legal"].clone();
    assert!(legal.as_array().unwrap().contains(&think["command"]), "{r}");
    // A request may ask for less than its share, not for more.
    let cfg = json!({"iterations":10_000_000,"max_tree_bytes":1u64 << 40});
    let r = o.ask(json!({"cmd":"think","time_ms":60000,"config":cfg}));
    assert_eq!(r["think"]["stopped"], "memory", "{r}");
    assert!(r["think"]["tree_bytes"].as_u64().unwrap() <= 2 << 20, "{r}");
    assert_eq!(o.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// At most `max_thinks` thinks run at once, each with its share of the think memory:
/// one more is refused at once (rule "limit", saying why and to retry), and is served
/// once one has answered.
#[test]
fn issue_33_thinks_past_the_most_at_once_are_refused() {
    let (addr, owner, t) = start_thread(Options {
        max_thinks: 2,
        ..Options::default()
    });
    let mut thinkers: Vec<Client> = (0..3).map(|_| Client::connect(addr)).collect();
    for c in &mut thinkers {
        c.ask(json!({"cmd":"bind","token":owner}));
    }
    thinkers[0].ask(json!({"cmd":"new","scenario":"system-demo","seed":1}));
    for (i, c) in thinkers[..2].iter_mut().enumerate() {
        writeln!(c.w, "{}", json!({"cmd":"think","time_ms":2000,"id":i})).unwrap();
    }
    // Both thinks are read and running long before their 2 s are up.
    std::thread::sleep(Duration::from_millis(300));
    let refused = thinkers[2].ask(json!({"cmd":"think","time_ms":100}));
    assert_eq!(refused["error"]["rule"], "limit", "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("think memory is in use") && message.contains("try again"),
        "{message}"
    );
    for (i, c) in thinkers[..2].iter_mut().enumerate() {
        let r = c.line();
        assert_eq!(r["id"], i, "{r}");
        assert_eq!(r["think"]["stopped"], "time", "{r}");
        assert!(
            r["think"]["tree_bytes"].as_u64().unwrap() <= 128 << 20,
            "{r}"
        );
    }
    let r = thinkers[2].ask(json!({"cmd":"think","time_ms":100}));
    assert!(r["think"]["command"].is_object(), "{r}");
    assert_eq!(thinkers[2].ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// A `time_ms` above `--max-think-ms` is refused, naming the bound; one within it is
/// served and its reply says time stopped it.
#[test]
fn issue_33_think_time_is_capped() {
    let (addr, owner, t) = start_thread(Options {
        max_think: Duration::from_millis(1500),
        ..Options::default()
    });
    let mut o = Client::connect(addr);
    o.ask(json!({"cmd":"bind","token":owner}));
    o.ask(json!({"cmd":"new","scenario":"system-demo","seed":1}));
    let e = o.ask(json!({"cmd":"think","time_ms":1501}));
    assert_eq!(e["error"]["rule"], "limit", "{e}");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(message.contains("1500 ms (--max-think-ms)"), "{message}");
    let r = o.ask(json!({"cmd":"think","time_ms":100}));
    assert_eq!(r["think"]["stopped"], "time", "{r}");
    // The default bound: a minute.
    assert_eq!(listen::MAX_THINK, Duration::from_secs(60));
    assert_eq!(o.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}

/// Spectators take at most the slots unbound connections may (`max_clients` less the
/// three kept for the owner and the seats), counted with them: a spectators' link
/// opened by everyone cannot keep a seat from connecting (issue 33, spectators).
#[test]
fn issue_33_spectators_never_take_the_owners_and_seats_slots() {
    let (addr, owner, t) = start_thread(Options {
        max_clients: 6,
        ..Options::default()
    });
    let mut o = Client::connect(addr);
    o.ask(json!({"cmd":"bind","token":owner}));
    o.ask(json!({"cmd":"new","scenario":"system-demo","seed":1}));
    let token = o.ask(json!({"cmd":"seat","side":"spectator"}))["seat"].clone();
    let mut watchers = Vec::new();
    for _ in 0..3 {
        let mut w = Client::connect(addr);
        let bound = w.ask(json!({"cmd":"bind","token":token,"notify":true}));
        assert_eq!(bound["bound"], "spectator", "{bound}");
        watchers.push(w);
    }
    let mut fourth = Client::connect(addr);
    let refused = fourth.ask(json!({"cmd":"bind","token":token}));
    assert_eq!(refused["error"]["rule"], "limit", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("3 spectators' connections, the most it takes"),
        "{refused}"
    );
    // A spectator binding again on its connection is not refused.
    let again = watchers[0].ask(json!({"cmd":"bind","token":token,"notify":true}));
    assert_eq!(again["bound"], "spectator", "{again}");
    // Both seats still get in.
    let mut seats = Vec::new();
    for side in ["a", "b"] {
        let seat = o.ask(json!({"cmd":"seat","side":side}))["seat"].clone();
        let mut c = Client::connect(addr);
        assert_eq!(c.ask(json!({"cmd":"bind","token":seat}))["bound"], side);
        seats.push(c);
    }
    // The second seat found the server full (six connections) and ended the unbound
    // fourth one to get in.
    let mut gone = String::new();
    fourth.r.read_line(&mut gone).unwrap();
    assert!(gone.contains("kept for the owner and the seats"), "{gone}");
    assert!(seats[1].ask(json!({"cmd":"view"})).get("view").is_some());
    assert_eq!(o.ask(json!({"cmd":"quit"}))["bye"], true);
    assert!(ends_within(&t, Duration::from_secs(20)));
}
