//! Shared by the tests that drive the `serve` binary as a subprocess
//! (`tests/serve.rs`, `fm-ffi/tests/parity.rs`).

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The path of the `serve` binary: Cargo builds it for the tests that run it, with
/// their profile and features, and names it here (no second build from inside a test).
pub fn serve_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_serve"))
}

/// Starts `serve --listen 127.0.0.1:0` with `args` after it, its stderr to `stderr`;
/// returns the process, its address and its first line (the tokens).
pub fn start_listening<I, S>(args: I, stderr: Stdio) -> (Child, std::net::SocketAddr, Value)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut child = Command::new(serve_binary())
        .args(["--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start serve --listen");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let hello: Value = serde_json::from_str(&first).expect("the first line is JSON");
    let addr = hello["listening"].as_str().unwrap().parse().unwrap();
    (child, addr, hello)
}

/// A running `serve` process.
pub struct Serve {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Serve {
    /// Starts the server.
    pub fn start() -> Serve {
        let mut child = Command::new(serve_binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start serve");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Serve {
            child,
            stdin,
            stdout,
        }
    }

    /// The process id of the server.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends raw bytes (a line, or garbage) without waiting for a reply.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to serve");
        stdin.flush().expect("flush serve stdin");
    }

    /// Reads one reply line as text, without its LF.
    pub fn read_line(&mut self) -> String {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).expect("read from serve");
        assert!(n > 0, "serve closed its output");
        assert!(line.ends_with('\n'), "a reply is one full line: {line:?}");
        line.pop();
        line
    }

    /// Reads one reply line, parsed as JSON.
    pub fn read_reply(&mut self) -> Value {
        let line = self.read_line();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("reply is not JSON ({e}): {line}"))
    }

    /// Sends one line and reads its reply.
    pub fn ask(&mut self, line: &str) -> Value {
        self.send_raw(line.as_bytes());
        self.send_raw(b"\n");
        self.read_reply()
    }

    /// Sends a request given as JSON and reads its reply.
    pub fn request(&mut self, req: &Value) -> Value {
        self.ask(&req.to_string())
    }

    /// Closes stdin and waits for the process; returns its exit status code.
    pub fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut self.stdout, &mut rest);
        assert!(
            rest.is_empty(),
            "unexpected output after the last reply: {rest}"
        );
        self.child.wait().expect("wait for serve").code()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// FNV-1a, 64-bit: the event-log hash the parity test compares.
pub fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds one batch of events (a JSON array) into an event-log hash. The events are
/// normalised through `serde_json::Value` (sorted keys), so the hash does not depend on
/// how an interface orders the fields.
pub fn fold_events(h: u64, events: &Value) -> u64 {
    assert!(events.is_array(), "events are a JSON array: {events}");
    let h = fnv1a(events.to_string().as_bytes(), h);
    fnv1a(b"\n", h)
}
