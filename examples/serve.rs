//! The fm engine as a process: newline-delimited JSON on stdin and stdout, in the
//! spirit of UCI for chess engines. One request per line, one reply per line; the
//! protocol is specified in `docs/serve.md`.
//!
//! ```text
//! cargo run --release --example serve
//! {"cmd":"new","scenario":"system-demo","seed":1}
//! {"cmd":"apply","command":{"type":"done"}}
//! {"cmd":"quit"}
//! ```
//!
//! Blank lines are ignored; every other line gets exactly one reply, an error object
//! for anything malformed. The process exits after `quit` or at the end of input.
//! Diagnostics (none in normal operation) go to stderr, never to stdout.

use fm::protocol::Server;
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut server = Server::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("serve: cannot read stdin: {e}");
                std::process::exit(1);
            }
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        let Some(reply) = server.handle_bytes(&line) else {
            continue;
        };
        let written = writeln!(out, "{}", reply.line).and_then(|()| out.flush());
        if written.is_err() {
            // The reader went away: nothing more to say.
            break;
        }
        if reply.quit {
            break;
        }
    }
}
