//! The JSON-lines engine protocol (`docs/serve.md`), in the spirit of UCI: one JSON
//! request per line in, one JSON reply per line out. [`Server`] holds at most one
//! match and answers requests; `fm-ffi/src/bin/serve.rs` connects it to stdin and stdout.
//!
//! Two kinds of client: the **owner** (requests without `"seat"`), the referee, who
//! sees everything (full state, saves, state hashes); and **seats**, each bound to one
//! side by a token the owner asks for (`{"cmd":"seat","side":"a"}`). A request that
//! carries `"seat"` is answered only with what that side may know: its own view, its
//! redacted events, view hashes, and commands only when the decision is its own.
//! **Spectators** (`{"cmd":"seat","side":"spectator"}`, any number) only watch: their
//! view, picture and log hold what both sides may know, and they may not act.
//!
//! Input is read strictly: a line longer than [`MAX_LINE_BYTES`] is skipped in bounded
//! chunks ([`read_line`]) and answered with an error, a key given twice anywhere in a
//! request is refused (never "the last one wins"), and the `id` is repeated as the very
//! JSON text it was sent as.
//!
//! ```
//! use fm::protocol::Server;
//! let mut s = Server::new();
//! let r = s.handle_line(r#"{"cmd":"new","scenario":"system-demo","seed":1}"#).unwrap();
//! assert!(r.line.contains("\"events\""));
//! let r = s.handle_line("garbage").unwrap();
//! assert!(r.line.starts_with(r#"{"error":{"#));
//! let r = s.handle_line(r#"{"cmd":"quit"}"#).unwrap();
//! assert!(r.quit);
//! ```
//!
//! What lives where, one concern a file:
//!
//! - `server.rs` — [`Server`] on stdin and stdout; the bounded line reader, [`read_line`].
//! - `requests.rs` — the requests and their fields, parsed strictly (the `id` kept as sent).
//! - `reply.rs` — [`Reply`]; reply bodies, their fields in a fixed order; error replies.
//! - `dispatch.rs` — [`Core`], the match and its seats; one request's way through it.
//! - `session.rs` — [`Session`], one client's binding, notification wish and delta bases.
//! - `seats.rs` — the owner and the seats: who asks, what a seat may do and see, tokens.
//! - `play.rs` — play: apply, legal (in its compact forms), pending, undo.
//! - `queries.rs` — queries: scenario, state, view, svg, reachable, odds, explain, export, log.
//! - `manage.rs` — match management: new, load, save.
//! - `chance.rs` — chance, the owner's: chance, apply_chance; the `chance` field of replies.
//! - `think.rs` — the built-in AI: think, checked at once and run later as a [`ThinkJob`].
//! - `journal.rs` — durable matches: every change written and flushed before its reply;
//!   a journal replayed on start ([`Core::open_journal`]).
//! - `notify.rs` — what a change tells the other clients: [`Change`], [`Core::notification`].

mod chance;
mod dispatch;
mod journal;
mod manage;
mod notify;
mod play;
mod queries;
mod reply;
mod requests;
mod seats;
mod server;
mod session;
mod think;

pub use chance::Resolved;
pub use dispatch::{Core, Step};
pub use journal::{JournalError, Resumed, MAX_JOURNAL_BYTES};
pub use manage::{LoadJob, Loaded};
pub use notify::Change;
pub use reply::Reply;
pub(crate) use reply::{error_reply, not_utf8, too_long_reply};
pub use seats::Binding;
pub use server::{read_line, LineRead, ServeEnd, Server, MAX_LINE_BYTES};
pub use session::Session;
pub use think::{parse_bytes, ThinkJob, ThinkLimits};

/// Version of the protocol, reported by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The reply to `line`, as JSON: how the unit tests of every file ask.
#[cfg(test)]
fn ask(s: &mut Server, line: &str) -> serde_json::Value {
    serde_json::from_str(&s.handle_line(line).expect("a reply").line).expect("JSON reply")
}

/// Applies one of the owner's legal commands, by index, drawn with xorshift from `rng`:
/// how the unit tests play random games; false once nothing is legal.
#[cfg(test)]
fn random_step(s: &mut Server, rng: &mut u64) -> bool {
    let legal = ask(s, r#"{"cmd":"legal","form":"indices"}"#)["legal"].clone();
    let list = legal.as_array().expect("indices");
    if list.is_empty() {
        return false;
    }
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let i = &list[(*rng % list.len() as u64) as usize];
    ask(s, &serde_json::json!({"cmd":"apply","index":i}).to_string());
    true
}
