//! The fm engine as a process: newline-delimited JSON on stdin and stdout, in the
//! spirit of UCI for chess engines, or on a socket for many clients at once. One
//! request per line (or WebSocket message), one reply per line; the protocol is
//! specified in `docs/serve.md`.
//!
//! ```text
//! cargo run --release --bin serve
//! {"cmd":"new","scenario":"system-demo","seed":1}
//! {"cmd":"apply","command":{"type":"done"}}
//! {"cmd":"quit"}
//!
//! cargo run --release --bin serve -- --listen 127.0.0.1:0 --scenario system-demo --seed 1
//! {"listening":"127.0.0.1:40123","owner":"owner-…","page":"http://127.0.0.1:40123/?owner=owner-…","seats":{"a":"a-…","b":"b-…"},"links":{"a":"http://127.0.0.1:40123/?seat=a-…","b":"http://127.0.0.1:40123/?seat=b-…"}}
//! ```
//!
//! On stdin: blank lines are ignored; every other line gets exactly one reply, an error
//! object for anything malformed (a line longer than 8 MiB included). The process exits
//! after `quit` or at the end of input.
//!
//! With `--listen ADDR`: TCP JSON lines, WebSocket and the reference page
//! (`examples/web/index.html` on `GET /`) on one port. The first line on stdout gives
//! the address, the owner's token and, with `--scenario`, the match's two seat tokens;
//! its `page` is the owner's lobby on the reference page (`/?owner=TOKEN`: the match,
//! each seat's link, spectator links, the referee's board) and its `links` each seat's
//! page (`/?seat=TOKEN`). The process exits when the owner sends `quit`. Options:
//! `--max-clients N` (16), `--first-request-ms MS` (10000: how long a connection's
//! first request, a JSON line or an HTTP head, may take to arrive whole),
//! `--allow-origin ORIGIN` (repeatable; the web origins whose pages may connect, by
//! default the server's own address),
//! `--max-queued-bytes N` (16 MiB: the replies queued for a client that does not
//! read before it is dropped), `--think-memory BYTES` (256M: the memory of the search
//! trees of all the `think`s running at once, shared out equally), `--max-thinks N`
//! (2: the `think`s running at once), `--max-think-ms MS` (60000: the longest `think`
//! a request may ask for), `--journal FILE` (every change written to FILE and flushed
//! to disk before its reply; a FILE that exists is resumed), `--scenario NAME`,
//! `--seed N` (0), `--page FILE` (serve FILE's HTML on `GET /` instead of the built-in
//! page, read once at start: for working on a page without rebuilding). On stdin,
//! `--think-memory` and `--max-think-ms` bound each `think` too (nothing by default).
//!
//! Diagnostics (none in normal operation) go to stderr, never to stdout.

use fm::listen::{self, Options};
use fm::protocol::{Core, Server, Session, ThinkLimits};
use std::io::Write;

/// The reference client for tabletop tools, served on `GET /` in socket mode.
const PAGE: &str = include_str!("../../../examples/web/index.html");

fn fail(message: &str) -> ! {
    eprintln!("serve: {message}");
    eprintln!(
        "usage: serve [--think-memory BYTES] [--max-think-ms MS] [--listen ADDR [--max-clients N] [--first-request-ms MS] [--allow-origin ORIGIN]... [--max-queued-bytes N] [--max-thinks N] [--journal FILE] [--page FILE] [--scenario NAME [--seed N]]]"
    );
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut addr, mut scenario, mut seed, mut opts) = (None, None, 0u64, Options::default());
    let (mut think_memory, mut max_thinks, mut max_think_ms) = (None, None, None);
    let (mut journal, mut page) = (None, None);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| fail(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--listen" => addr = Some(value()),
            "--scenario" => scenario = Some(value()),
            "--seed" => seed = value().parse().unwrap_or_else(|_| fail("bad --seed")),
            "--max-clients" => {
                opts.max_clients = match value().parse() {
                    Ok(n) if n > 0 => n,
                    _ => fail("--max-clients needs a positive number"),
                }
            }
            "--max-queued-bytes" => {
                opts.max_queued_bytes = match value().parse::<usize>() {
                    Ok(n) if (65_536..=1 << 32).contains(&n) => n,
                    _ => {
                        fail("--max-queued-bytes needs a number of bytes from 65536 to 4294967296")
                    }
                }
            }
            "--allow-origin" => {
                let o = value();
                if !(o.starts_with("http://") || o.starts_with("https://")) || o.len() > 255 {
                    fail("--allow-origin needs an origin such as http://host:port");
                }
                opts.allowed_origins.push(o);
            }
            "--journal" => journal = Some(std::path::PathBuf::from(value())),
            "--page" => {
                let file = value();
                page = Some(
                    std::fs::read_to_string(&file)
                        .unwrap_or_else(|e| fail(&format!("cannot read --page {file}: {e}"))),
                );
            }
            "--first-request-ms" => {
                opts.first_request = match value().parse::<u64>() {
                    Ok(n) if (1..=3_600_000).contains(&n) => std::time::Duration::from_millis(n),
                    _ => {
                        fail("--first-request-ms needs a number of milliseconds from 1 to 3600000")
                    }
                }
            }
            "--think-memory" => {
                think_memory = match fm::protocol::parse_bytes(&value()) {
                    Some(n) if (1 << 20..=1 << 40).contains(&n) => Some(n),
                    _ => fail("--think-memory needs a number of bytes from 1M to 1T (such as 268435456, 256M or 1G)"),
                }
            }
            "--max-thinks" => {
                max_thinks = match value().parse::<usize>() {
                    Ok(n) if (1..=256).contains(&n) => Some(n),
                    _ => fail("--max-thinks needs a number from 1 to 256"),
                }
            }
            "--max-think-ms" => {
                max_think_ms = match value().parse::<u64>() {
                    Ok(n) if (1..=600_000).contains(&n) => Some(n),
                    _ => fail("--max-think-ms needs a number of milliseconds from 1 to 600000"),
                }
            }
            other => fail(&format!("unknown argument {other}")),
        }
    }
    // On stdin one think runs at a time.
    let thinks = match (&addr, max_thinks) {
        (_, Some(n)) => n,
        (Some(_), None) => listen::MAX_THINKS,
        (None, None) => 1,
    };
    if think_memory.unwrap_or(listen::THINK_MEMORY) / (thinks as u64) < 1 << 20 {
        fail("--think-memory must give each of the --max-thinks thinks 1M at least");
    }
    let Some(addr) = addr else {
        if scenario.is_some() {
            fail("--scenario is for --listen (on stdin, send a \"new\" request)");
        }
        if journal.is_some() {
            fail("--journal is for --listen");
        }
        if page.is_some() {
            fail("--page is for --listen");
        }
        if max_thinks.is_some() {
            fail("--max-thinks is for --listen (on stdin one think runs at a time)");
        }
        let mut server = Server::new();
        if think_memory.is_some() || max_think_ms.is_some() {
            server.limit_thinks(ThinkLimits {
                max_ms: max_think_ms.unwrap_or(ThinkLimits::default().max_ms),
                memory: think_memory,
                max_thinks: 1,
            });
        }
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        // Lines are read in the standard library's 8 KiB chunks: a line longer than
        // fm::protocol::MAX_LINE_BYTES is skipped, never held whole, and gets an error
        // reply.
        let out = std::io::BufWriter::new(stdout.lock());
        if let Err(e) = server.serve(stdin.lock(), out) {
            eprintln!("serve: cannot read stdin: {e}");
            std::process::exit(1);
        }
        return;
    };
    opts.think_memory = think_memory.unwrap_or(opts.think_memory);
    opts.max_thinks = thinks;
    if let Some(ms) = max_think_ms {
        opts.max_think = std::time::Duration::from_millis(ms);
    }
    let listener = std::net::TcpListener::bind(&addr)
        .unwrap_or_else(|e| fail(&format!("cannot listen on {addr}: {e}")));
    let local = listener
        .local_addr()
        .unwrap_or_else(|e| fail(&format!("no local address: {e}")));
    let mut core = Core::socket();
    let mut journal_line = None;
    if let Some(path) = &journal {
        let resumed = core
            .open_journal(path)
            .unwrap_or_else(|e| fail(&format!("cannot use the journal: {e}")));
        let mut line = serde_json::json!({"path": path.display().to_string()});
        if let Some(r) = &resumed {
            if r.dropped_bytes > 0 {
                eprintln!(
                    "serve: journal {}: the last record was cut short ({} bytes, never \
                     answered): dropped",
                    path.display(),
                    r.dropped_bytes
                );
                line["dropped_bytes"] = r.dropped_bytes.into();
            }
            if r.records > 0 {
                line["resumed"] = serde_json::json!({"records": r.records, "commands": r.commands});
                if scenario.take().is_some() {
                    eprintln!(
                        "serve: journal {}: resuming its match; --scenario and --seed are \
                         ignored",
                        path.display()
                    );
                }
            }
        }
        journal_line = Some(line);
    }
    let owner = core.owner_token().unwrap_or_default().to_string();
    // The launching program sets up the match through the protocol itself, as the owner.
    let mut seats = serde_json::Map::new();
    if core.game().is_some() {
        // Resumed: the first seat of each side the journal holds.
        for (token, side) in core.seat_tokens() {
            seats.entry(side.to_string()).or_insert(token.into());
        }
    }
    if let Some(name) = scenario {
        let mut me = Session::default();
        let new = serde_json::json!({"cmd":"new","scenario":name,"seed":seed}).to_string();
        let reply = core.handle(&mut me, &new).expect("a reply");
        if reply.line.starts_with(r#"{"error""#) {
            fail(&reply.line);
        }
        for side in ["a", "b"] {
            let line = format!(r#"{{"cmd":"seat","side":"{side}"}}"#);
            let reply = core.handle(&mut me, &line).expect("a reply");
            let v: serde_json::Value = serde_json::from_str(&reply.line).expect("JSON");
            seats.insert(side.into(), v["seat"].clone());
        }
    }
    opts.page = Some(page.unwrap_or_else(|| PAGE.to_string()));
    // The owner's lobby, and each seat's page: the tokens are URL-safe (letters, digits
    // and '-').
    let mut hello = serde_json::json!({
        "listening": local.to_string(),
        "owner": owner,
        "page": format!("http://{local}/?owner={owner}"),
    });
    if !seats.is_empty() {
        let links: serde_json::Map<_, _> = seats
            .iter()
            .map(|(side, token)| {
                let url = format!(
                    "http://{local}/?seat={}",
                    token.as_str().unwrap_or_default()
                );
                (side.clone(), serde_json::Value::from(url))
            })
            .collect();
        hello["seats"] = serde_json::Value::Object(seats);
        hello["links"] = serde_json::Value::Object(links);
    }
    if let Some(line) = journal_line {
        hello["journal"] = line;
    }
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{hello}").and_then(|()| out.flush());
    if let Err(e) = listen::run(listener, core, opts) {
        eprintln!("serve: {e}");
        std::process::exit(1);
    }
}
