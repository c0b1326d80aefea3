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
//! for anything malformed (a line longer than 8 MiB included). The process exits after
//! `quit` or at the end of input.
//! Diagnostics (none in normal operation) go to stderr, never to stdout.

use fm::protocol::Server;

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    // Lines are read in the standard library's 8 KiB chunks: a line longer than
    // fm::protocol::MAX_LINE_BYTES is skipped, never held whole, and gets an error reply.
    let out = std::io::BufWriter::new(stdout.lock());
    if let Err(e) = Server::new().serve(stdin.lock(), out) {
        eprintln!("serve: cannot read stdin: {e}");
        std::process::exit(1);
    }
}
