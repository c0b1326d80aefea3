//! The JSON-lines engine protocol (`docs/serve.md`), in the spirit of UCI: one JSON
//! request per line in, one JSON reply per line out. [`Server`] holds at most one
//! match and answers requests; `fm-ffi/src/bin/serve.rs` connects it to stdin and stdout.
//!
//! Two kinds of client: the **owner** (requests without `"seat"`), the referee, who
//! sees everything (full state, saves, state hashes); and **seats**, each bound to one
//! side by a token the owner asks for (`{"cmd":"seat","side":"a"}`). A request that
//! carries `"seat"` is answered only with what that side may know: its own view, its
//! redacted events, view hashes, and commands only when the decision is its own.
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

use fm_core::any::{self, DynMatch};
use fm_core::json::{parse_strict, Budget, StrictValue, MAX_JSON_COST};
use fm_core::{RuleError, Side};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Version of the protocol, reported by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

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

/// One reply: the JSON line to write (without the newline), and whether the server
/// should stop after writing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The reply, one line of JSON.
    pub line: String,
    /// True after `quit`.
    pub quit: bool,
}

/// An error reply: `{"error":{"rule":…,"message":…}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ProtoError {
    rule: String,
    message: String,
}

impl ProtoError {
    fn new(rule: &str, message: impl Into<String>) -> ProtoError {
        ProtoError {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
    fn protocol(message: impl Into<String>) -> ProtoError {
        ProtoError::new("protocol", message)
    }
}

impl From<RuleError> for ProtoError {
    fn from(e: RuleError) -> Self {
        ProtoError {
            message: e.to_string(),
            rule: e.rule,
        }
    }
}

impl From<fm_core::MatchError> for ProtoError {
    fn from(e: fm_core::MatchError) -> Self {
        use fm_core::MatchError as E;
        match &e {
            E::Rule(r) => r.clone().into(),
            E::Scenario(s) => scenario_error(s.clone()),
            E::Json(_) | E::Diverged { .. } => ProtoError::new("save", e.to_string()),
            E::Input(_) => ProtoError::new("input", e.to_string()),
            E::Unsupported { .. } => ProtoError::new("unsupported", e.to_string()),
            E::ScenarioJson(s) => ProtoError::new(
                "scenario",
                format!("scenario JSON: {}", crate::matches::scenario_error_text(s)),
            ),
        }
    }
}

type Result<T> = std::result::Result<T, ProtoError>;

/// A protocol session on stdin and stdout: one client, the owner, who may also speak
/// for seats with a `"seat"` field per request. It is a [`Core`] (the match) with one
/// [`Session`] (the client's own memory); the socket mode (`crate::listen`) shares one
/// `Core` between many sessions.
#[derive(Default)]
pub struct Server {
    core: Core,
    session: Session,
}

/// What every client of one server shares: at most one match, the seats bound to its
/// sides, and in socket mode the owner's token.
#[derive(Default)]
pub struct Core {
    game: Option<Box<dyn DynMatch>>,
    /// Seat tokens of the current match and the side each is bound to.
    seats: Vec<(String, Side)>,
    /// Tokens handed out so far (feeds the token generator).
    issued: u64,
    /// The owner's token (socket mode: a connection binds with it to act as the owner).
    owner_token: Option<String>,
}

/// The most delta bases one session keeps (the least recently used goes first): more
/// than the kinds there are (the owner's two views, state and three listings, each
/// seat's view and three listings), so that none is forgotten in practice.
const MAX_BASES: usize = 16;

/// One client's own part of a session: what its connection is bound to, whether it
/// wants notifications, and the last value of each kind of reply it was sent (the
/// bases of its deltas, `docs/serve.md` "Deltas").
#[derive(Default)]
pub struct Session {
    socket: bool,
    bound: Option<Binding>,
    notify: bool,
    /// (who asked, what) → the value last sent; most recently used last.
    bases: Vec<(String, Value)>,
}

/// Who a socket connection speaks for once it has sent `bind`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Binding {
    /// The owner (the referee).
    Owner,
    /// The seat with this token.
    Seat(String),
}

/// What a request changed in the match, for the notifications of the other clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A command was applied.
    Apply,
    /// The last command was undone.
    Undo,
    /// A new match was started (every seat of the previous one ended).
    New,
    /// A saved match was loaded (every seat of the previous one ended).
    Load,
}

impl Change {
    fn name(self) -> &'static str {
        match self {
            Change::Apply => "apply",
            Change::Undo => "undo",
            Change::New => "new",
            Change::Load => "load",
        }
    }
}

impl Session {
    /// The session of a socket connection: unbound until it sends `bind`.
    pub fn socket() -> Session {
        Session {
            socket: true,
            ..Session::default()
        }
    }

    /// What the connection is bound to, if it wants notifications of other clients'
    /// changes (`bind` with `"notify": true`).
    pub fn notified(&self) -> Option<&Binding> {
        if self.notify {
            self.bound.as_ref()
        } else {
            None
        }
    }

    /// The reply field of a value that deltas may abbreviate: the value itself under
    /// `field`, or under `"patch"` the RFC 6902 operations from the value this session
    /// was last sent under the same key (when `delta` is asked and there is one).
    fn deltable(
        &mut self,
        body: Body,
        key: String,
        field: &'static str,
        value: Value,
        delta: bool,
    ) -> Result<Body> {
        let old = self
            .bases
            .iter()
            .position(|(k, _)| *k == key)
            .map(|i| self.bases.remove(i).1);
        let body = match old {
            Some(old) if delta => body.with("patch", &crate::patch::diff(&old, &value))?,
            _ => body.with(field, &value)?,
        };
        if self.bases.len() >= MAX_BASES {
            self.bases.remove(0);
        }
        self.bases.push((key, value));
        Ok(body)
    }
}

/// Who is asking: the owner (the referee), the seat of one side, or a socket
/// connection not bound yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Asker {
    Owner,
    Seat(Side),
    Unbound,
}

impl Asker {
    /// The key of this asker's delta bases.
    fn key(self) -> &'static str {
        match self {
            Asker::Owner | Asker::Unbound => "owner",
            Asker::Seat(Side::A) => "a",
            Asker::Seat(Side::B) => "b",
        }
    }
}

/// The requests, in the order the unknown-cmd error lists them.
const KNOWN: &str = "hello, scenarios, new, scenario, apply, legal, pending, state, view, \
                     svg, reachable, odds, explain, seat, bind, export, log, save, load, \
                     undo, think, quit";

/// Fields each request may carry besides `cmd`, `id` and `seat`.
fn allowed_fields(cmd: &str) -> Option<&'static [&'static str]> {
    Some(match cmd {
        "new" => &["scenario", "scenario_json", "seed"],
        "apply" => &["command", "index"],
        "legal" => &["form", "unit", "delta"],
        "view" => &["side", "delta"],
        "state" => &["delta"],
        "seat" | "export" => &["side"],
        "bind" => &["token", "notify"],
        "log" => &["since"],
        "load" => &["save"],
        "think" => &["time_ms", "config"],
        "svg" => &["side", "options"],
        "reachable" => &["unit"],
        "odds" => &["side", "proposal"],
        "explain" => &["command"],
        "hello" | "scenarios" | "scenario" | "pending" | "save" | "undo" | "quit" => &[],
        _ => return None,
    })
}

/// What one request came to: a reply now, or a search to run first (`think`, which a
/// socket server runs without holding the match's lock).
pub enum Step {
    /// The reply, and what the request changed in the match.
    Done(Reply, Option<Change>),
    /// A search on a copy of the match; [`ThinkJob::run`] gives the reply.
    Think(ThinkJob),
}

/// A `think` request, checked and ready: a copy of the match and the search settings.
pub struct ThinkJob {
    game: Box<dyn DynMatch>,
    cfg: fm_core::search::SearchConfig,
    ms: u64,
    id: Option<String>,
}

impl ThinkJob {
    /// Runs the search (up to its time budget) and gives the reply.
    pub fn run(self) -> Reply {
        let id = self.id.as_deref();
        let began = std::time::Instant::now();
        let budget = std::time::Duration::from_millis(self.ms);
        let mut stop = || began.elapsed() >= budget;
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.game.think(&self.cfg, &mut stop, 16)
        }));
        let body = match result {
            Ok(Ok(r)) => Body::new().with("think", &r),
            Ok(Err(e)) => Err(match e {
                fm_core::search::SearchError::Config { .. }
                | fm_core::search::SearchError::Json(_) => ProtoError::protocol(e.to_string()),
                other => ProtoError::new("search", other.to_string()),
            }),
            Err(_) => Err(ProtoError::new(
                "panic",
                "internal error (panic in the search); the match is unchanged",
            )),
        };
        match body {
            Ok(b) => Reply {
                line: b.render(id),
                quit: false,
            },
            Err(e) => reply_error(id, &e),
        }
    }
}

fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// A JSON value given either as JSON or as a string holding JSON.
fn json_or_string(v: &Value) -> Result<std::borrow::Cow<'_, str>> {
    Ok(match v {
        Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
        Value::Object(_) => std::borrow::Cow::Owned(v.to_string()),
        _ => {
            return Err(ProtoError::protocol(
                "expected a JSON object (or a string holding one)",
            ))
        }
    })
}

/// A reply object, its fields in a fixed order and each value serialized straight
/// from the engine's types (so events keep fm-core's field order: `type` first).
#[derive(Default)]
struct Body(Vec<(&'static str, String)>);

impl Body {
    fn new() -> Body {
        Body::default()
    }

    /// Adds a field serialized from a value.
    fn with<T: Serialize + ?Sized>(mut self, key: &'static str, v: &T) -> Result<Body> {
        let text = serde_json::to_string(v)
            .map_err(|e| ProtoError::new("internal", format!("cannot serialize: {e}")))?;
        self.0.push((key, text));
        Ok(self)
    }

    /// Adds a field whose value is already JSON text.
    fn with_raw(mut self, key: &'static str, json: String) -> Body {
        self.0.push((key, json));
        self
    }

    /// The reply line: `id` first when the request had one, as the JSON text it was
    /// sent as.
    fn render(self, id: Option<&str>) -> String {
        let mut out = String::from("{");
        let mut first = true;
        let mut field = |out: &mut String, key: &str, value: &str| {
            if !first {
                out.push(',');
            }
            first = false;
            out.push('"');
            out.push_str(key);
            out.push_str("\":");
            out.push_str(value);
        };
        if let Some(id) = id {
            field(&mut out, "id", id);
        }
        for (k, v) in &self.0 {
            field(&mut out, k, v);
        }
        out.push('}');
        out
    }
}

/// The error object of a reply.
#[derive(Serialize)]
struct ErrorBody<'a> {
    rule: &'a str,
    message: &'a str,
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

/// The reply to a request that is not UTF-8.
pub(crate) fn not_utf8(e: std::str::Utf8Error) -> Reply {
    reply_error(
        None,
        &ProtoError::protocol(format!("the request is not valid UTF-8 ({e})")),
    )
}

impl Core {
    /// A core with no match, for the sessions of a socket server: a connection acts
    /// as the owner after `{"cmd":"bind","token":owner_token}`.
    pub fn with_owner_token(owner_token: String) -> Core {
        Core {
            owner_token: Some(owner_token),
            ..Core::default()
        }
    }

    /// A core with no match and a new random owner's token, for a socket server.
    pub fn socket() -> Core {
        let mut core = Core::default();
        core.owner_token = Some(core.random_token("owner"));
        core
    }

    /// The owner's token (socket mode), if any.
    pub fn owner_token(&self) -> Option<&str> {
        self.owner_token.as_deref()
    }

    /// The current match, if any.
    pub fn game(&self) -> Option<&dyn DynMatch> {
        self.game.as_deref()
    }

    /// Answers one line of `session`'s, running a `think` at once.
    pub fn handle(&mut self, session: &mut Session, line: &str) -> Option<Reply> {
        Some(match self.handle_deferred(session, line)? {
            Step::Done(r, _) => r,
            Step::Think(job) => job.run(),
        })
    }

    /// Answers one line of `session`'s (`None` for a blank line), except that a
    /// `think` comes back as a job to run on a copy of the match, so that a server
    /// shared by many clients need not hold its lock during the search. Never panics.
    pub fn handle_deferred(&mut self, session: &mut Session, line: &str) -> Option<Step> {
        if line.len() > MAX_LINE_BYTES {
            return Some(Step::Done(
                too_long(line.len() as u64, MAX_LINE_BYTES),
                None,
            ));
        }
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        let (req, id) = match parse_request(line) {
            Ok(r) => r,
            Err((id, e)) => return Some(Step::Done(reply_error(id.as_deref(), &e), None)),
        };
        let idr = id.as_deref();
        Some(
            match catch_unwind(AssertUnwindSafe(|| self.dispatch(session, &req))) {
                Ok(Ok(Done::Reply(body, quit, change))) => Step::Done(
                    Reply {
                        line: body.render(idr),
                        quit,
                    },
                    change,
                ),
                Ok(Ok(Done::Think(mut job))) => {
                    job.id = id;
                    Step::Think(job)
                }
                Ok(Err(e)) => Step::Done(reply_error(idr, &e), None),
                Err(_) => {
                    self.game = None;
                    self.seats.clear();
                    let e = ProtoError::new(
                        "panic",
                        "internal error (panic in fm); the match was discarded",
                    );
                    Step::Done(reply_error(idr, &e), Some(Change::New))
                }
            },
        )
    }

    /// The line that tells a client bound as `binding` of a change another client
    /// made: `{"notify":{"change":…,"count":…,"pending":…,"hash":…}}`, with the
    /// command's `events` after an `apply`, all as that client may know them (a
    /// seat's redacted events and view hash). A seat that a `new` or `load` ended
    /// is told so (`"seat":"ended"`).
    pub fn notification(&self, binding: &Binding, change: Change) -> String {
        let side = match binding {
            Binding::Owner => None,
            Binding::Seat(t) => match self.seat_side(t) {
                Some(s) => Some(s),
                None => {
                    return format!(
                        r#"{{"notify":{{"change":"{}","seat":"ended"}}}}"#,
                        change.name()
                    )
                }
            },
        };
        let body = (|| -> Result<Body> {
            let mut b = Body::new().with("change", change.name())?;
            let Some(g) = self.game() else {
                return Ok(b);
            };
            b = b
                .with("count", &g.log_len())?
                .with("pending", &g.pending_json())?;
            b = match side {
                Some(s) => b.with("hash", &hash_hex(g.view_hash(s)))?,
                None => b.with("hash", &hash_hex(g.state_hash()))?,
            };
            if change == Change::Apply {
                b = b.with("events", &g.last_events_json(side))?;
            }
            Ok(b)
        })();
        match body {
            Ok(b) => Body::new().with_raw("notify", b.render(None)).render(None),
            Err(_) => format!(r#"{{"notify":{{"change":"{}"}}}}"#, change.name()),
        }
    }

    fn seat_side(&self, token: &str) -> Option<Side> {
        self.seats.iter().find(|(t, _)| t == token).map(|(_, s)| *s)
    }

    fn current(&self) -> Result<&dyn DynMatch> {
        self.game.as_deref().ok_or_else(no_match)
    }

    fn dispatch(
        &mut self,
        session: &mut Session,
        req: &Option<Map<String, Value>>,
    ) -> Result<Done> {
        let Some(obj) = req else {
            return Err(ProtoError::protocol(
                "a request is a JSON object with a \"cmd\" field",
            ));
        };
        let cmd = match obj.get("cmd") {
            Some(Value::String(c)) => c.as_str(),
            Some(_) => return Err(ProtoError::protocol("\"cmd\" must be a string")),
            None => {
                return Err(ProtoError::protocol(
                    "a request is a JSON object with a \"cmd\" field",
                ))
            }
        };
        let Some(allowed) = allowed_fields(cmd) else {
            return Err(ProtoError::protocol(format!(
                "unknown cmd '{cmd}' (known: {KNOWN})"
            )));
        };
        for k in obj.keys() {
            if k != "cmd" && k != "id" && k != "seat" && !allowed.contains(&k.as_str()) {
                return Err(ProtoError::protocol(format!(
                    "unknown field '{k}' for cmd '{cmd}'"
                )));
            }
        }
        let unknown_token = || {
            ProtoError::new(
                "seat",
                "unknown seat token (seats end when the owner starts or loads a match)",
            )
        };
        let asker = match (obj.get("seat"), &session.bound) {
            (Some(Value::String(t)), _) => {
                Asker::Seat(self.seat_side(t).ok_or_else(unknown_token)?)
            }
            (Some(_), _) => return Err(ProtoError::protocol("\"seat\" must be a string")),
            (None, Some(Binding::Owner)) => Asker::Owner,
            (None, Some(Binding::Seat(t))) => {
                Asker::Seat(self.seat_side(t).ok_or_else(unknown_token)?)
            }
            (None, None) if session.socket => Asker::Unbound,
            (None, None) => Asker::Owner,
        };
        let reply = |b: Body| Ok(Done::Reply(b, false, None));
        let changed = |b: Body, c: Change| Ok(Done::Reply(b, false, Some(c)));
        if asker == Asker::Unbound && !matches!(cmd, "hello" | "scenarios" | "bind") {
            return Err(ProtoError::new(
                "seat",
                "this connection is not bound: send {\"cmd\":\"bind\",\"token\":…} with the \
                 owner's token or a seat's first",
            ));
        }
        let seat = match asker {
            Asker::Seat(s) => Some(s),
            _ => None,
        };
        if seat.is_some() {
            let what = match cmd {
                "new" | "load" => "start or load a match",
                "state" => "see the full state",
                "save" => "save (a save holds the seed and every hidden value)",
                "undo" => "undo",
                "seat" => "hand out seats",
                "quit" => "stop the server",
                _ => "",
            };
            if !what.is_empty() {
                return Err(ProtoError::new(
                    "seat",
                    format!("a seat may not {what}: that is the owner's (the referee's) request"),
                ));
            }
        }
        match cmd {
            "hello" => reply(
                Body::new()
                    .with("engine", "fm")?
                    .with("version", env!("CARGO_PKG_VERSION"))?
                    .with("protocol", &PROTOCOL_VERSION)?,
            ),
            "scenarios" => reply(Body::new().with("scenarios", &any::builtin_scenarios())?),
            "bind" => reply(self.bind(session, obj)?),
            "new" => changed(self.new_match(obj)?, Change::New),
            "apply" => changed(self.apply(obj, seat)?, Change::Apply),
            "legal" => reply(self.legal(session, obj, asker)?),
            "pending" => reply(Body::new().with("pending", &self.current()?.pending_json())?),
            "scenario" => {
                // The scenario is what both players have in the box: the map, its
                // terrain, the units, the tracks and the rules' parameters. No value
                // drawn in play is in it.
                let g = self.current()?;
                reply(
                    Body::new()
                        .with("system", g.system())?
                        .with("scenario", &g.scenario_json())?,
                )
            }
            "state" => {
                let g = self.current()?;
                let hash = hash_hex(g.state_hash());
                let key = format!("{}/state", asker.key());
                let delta = flag(obj, "delta")?;
                let b = session.deltable(Body::new(), key, "state", g.state_json(), delta)?;
                reply(b.with("hash", &hash)?)
            }
            "view" => {
                let side = match (seat, obj.get("side")) {
                    (Some(s), None) => s,
                    (Some(s), Some(v)) => {
                        if side_field(obj, "view")? != s {
                            return Err(ProtoError::new(
                                "seat",
                                format!("this seat is side {s}'s; it may not view {v}"),
                            ));
                        }
                        s
                    }
                    (None, _) => side_field(obj, "view")?,
                };
                let g = self.current()?;
                let hash = hash_hex(g.view_hash(side));
                let key = format!("{}/view/{side}", asker.key());
                let delta = flag(obj, "delta")?;
                let b = session.deltable(Body::new(), key, "view", g.view_json(side), delta)?;
                reply(b.with("hash", &hash)?)
            }
            "svg" => {
                let g = self.current()?;
                let options = match obj.get("options") {
                    None => json!({}),
                    Some(v @ Value::Object(_)) => v.clone(),
                    Some(_) => {
                        return Err(ProtoError::protocol(
                            "\"options\" must be an object of drawing options",
                        ))
                    }
                };
                // A seat draws its own side's view; the owner any side's, or the whole
                // state (no `side`).
                let side = match seat {
                    Some(s) => {
                        own_side(obj, s, "draw")?;
                        Some(s)
                    }
                    None if obj.contains_key("side") => Some(side_field(obj, "svg")?),
                    None => None,
                };
                reply(Body::new().with("svg", &g.svg(side, &options)?)?)
            }
            "reachable" => {
                let unit = match obj.get("unit") {
                    Some(Value::String(u)) => u.as_str(),
                    _ => {
                        return Err(ProtoError::protocol(
                            "reachable needs \"unit\": a unit's id",
                        ))
                    }
                };
                let g = self.current()?;
                let found = match seat {
                    Some(s) => as_seat(g, s)?.reachable(unit)?,
                    None => g.reachable(unit)?,
                };
                reply(Body::new().with("reachable", &found)?)
            }
            "odds" => {
                let proposal = match obj.get("proposal") {
                    Some(v @ Value::Object(_)) => v,
                    _ => {
                        return Err(ProtoError::protocol(
                            "odds needs \"proposal\": an object (docs/serve.md)",
                        ))
                    }
                };
                let g = self.current()?;
                let side = match seat {
                    Some(s) => {
                        own_side(obj, s, "ask odds for")?;
                        s
                    }
                    None if obj.contains_key("side") => side_field(obj, "odds")?,
                    None => g.decider().ok_or_else(|| {
                        ProtoError::protocol("odds needs \"side\" once the game is over")
                    })?,
                };
                reply(Body::new().with("odds", &g.odds(side, proposal)?)?)
            }
            "explain" => {
                let g = self.current()?;
                let command = parse_command(obj)?;
                let why = match seat {
                    Some(s) => as_seat(g, s)?.explain(&command)?,
                    None => g.explain(&command)?,
                };
                let why = why.map(|e| json!({"rule": e.rule, "message": e.to_string()}));
                reply(Body::new().with("explain", &why)?)
            }
            "seat" => {
                let side = side_field(obj, "seat")?;
                self.current()?;
                let token = self.new_token(side);
                self.seats.push((token.clone(), side));
                reply(Body::new().with("seat", &token)?.with("side", &side)?)
            }
            "export" => {
                let side = match seat {
                    Some(s) => {
                        if obj.get("side").is_some() && side_field(obj, "export")? != s {
                            return Err(ProtoError::new(
                                "seat",
                                format!(
                                    "this seat is side {s}'s; it may export only its own record"
                                ),
                            ));
                        }
                        s
                    }
                    None => side_field(obj, "export")?,
                };
                reply(Body::new().with("export", &self.current()?.export_json(side))?)
            }
            "log" => {
                let g = self.current()?;
                let from = since(obj, g.log_len())?;
                let log = match seat {
                    Some(s) => g.side_log_json(s, from),
                    None => g.log_json(from),
                };
                reply(Body::new().with("log", &log)?.with("count", &g.log_len())?)
            }
            "save" => reply(Body::new().with_raw("save", self.current()?.save())),
            "load" => {
                let save = obj
                    .get("save")
                    .ok_or_else(|| ProtoError::protocol("load needs \"save\""))?;
                let text = json_or_string(save)?;
                let m = any::load_match(&text)?;
                self.seats.clear();
                let body = Body::new()
                    .with("loaded", &m.log_len())?
                    .with("pending", &m.pending_json())?
                    .with("hash", &hash_hex(m.state_hash()))?;
                self.game = Some(m);
                changed(body, Change::Load)
            }
            "undo" => {
                let g = self.game.as_mut().ok_or_else(no_match)?;
                let undone = g.undo();
                let body = Body::new()
                    .with("undone", &undone)?
                    .with("pending", &g.pending_json())?
                    .with("hash", &hash_hex(g.state_hash()))?;
                if undone {
                    changed(body, Change::Undo)
                } else {
                    reply(body)
                }
            }
            "think" => {
                let g = self.current()?;
                if let Some(s) = seat {
                    if g.decider() != Some(s) {
                        return Err(ProtoError::new(
                            "seat",
                            format!("a seat thinks only about its own decisions (side {s}'s)"),
                        ));
                    }
                }
                Ok(Done::Think(think_job(g, obj)?))
            }
            "quit" => Ok(Done::Reply(Body::new().with("bye", &true)?, true, None)),
            _ => unreachable!("allowed_fields knows every cmd"),
        }
    }

    /// `bind`: a socket connection speaks for the owner or a seat from now on.
    fn bind(&self, session: &mut Session, obj: &Map<String, Value>) -> Result<Body> {
        if !session.socket {
            return Err(ProtoError::protocol(
                "bind is for socket connections (serve --listen); on stdin the client is the \
                 owner and speaks for a seat with \"seat\" in a request",
            ));
        }
        let Some(Value::String(token)) = obj.get("token") else {
            return Err(ProtoError::protocol("bind needs \"token\": a token string"));
        };
        let notify = flag(obj, "notify")?;
        let (binding, who) = if self.owner_token.as_deref() == Some(token.as_str()) {
            (Binding::Owner, "owner".to_string())
        } else if let Some(side) = self.seat_side(token) {
            (Binding::Seat(token.clone()), side.to_string())
        } else {
            return Err(ProtoError::new(
                "seat",
                "unknown token: neither the owner's nor a seat's of the current match",
            ));
        };
        session.bound = Some(binding);
        session.notify = notify;
        Body::new().with("bound", &who)?.with("notify", &notify)
    }

    fn new_match(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let bad_seed = || ProtoError::protocol("\"seed\" must be an integer from 0 to 2^64-1");
        let seed = match obj.get("seed") {
            None => 0,
            Some(Value::Number(n)) => n.as_u64().ok_or_else(bad_seed)?,
            Some(Value::String(s)) => s.parse::<u64>().map_err(|_| bad_seed())?,
            Some(_) => return Err(bad_seed()),
        };
        let m = match (obj.get("scenario"), obj.get("scenario_json")) {
            (Some(Value::String(name)), None) => {
                let names = any::builtin_scenarios();
                if !names.contains(&name.as_str()) {
                    return Err(ProtoError::new(
                        "scenario",
                        format!("unknown scenario '{name}' (built in: {})", names.join(", ")),
                    ));
                }
                any::new_match(name, seed)?
            }
            (None, Some(v)) => {
                let value = match v {
                    // A scenario inside a string is read as strictly as the request.
                    Value::String(s) => parse_strict(s)
                        .map_err(|e| ProtoError::new("scenario", format!("scenario JSON: {e}")))?,
                    Value::Object(_) => v.clone(),
                    _ => {
                        return Err(ProtoError::protocol(
                            "expected a JSON object (or a string holding one)",
                        ))
                    }
                };
                any::new_match_value(value, seed)?
            }
            _ => {
                return Err(ProtoError::protocol(
                    "new needs either \"scenario\": a built-in name, or \"scenario_json\": \
                     a scenario",
                ))
            }
        };
        self.seats.clear();
        let body = Body::new()
            .with("events", &m.opening_events_json())?
            .with("pending", &m.pending_json())?
            .with("hash", &hash_hex(m.state_hash()))?;
        self.game = Some(m);
        Ok(body)
    }

    /// `apply`, of a `command` or of an action `index`; a seat's only on its own
    /// decision, answered with its redacted events and its view hash.
    fn apply(&mut self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        if let Some(side) = seat {
            let deciding_side = g.decider();
            if deciding_side != Some(side) {
                return Err(ProtoError::new(
                    "seat",
                    match deciding_side {
                        Some(o) => format!("it is side {o}'s decision, not side {side}'s"),
                        None => "the game is over".to_string(),
                    },
                ));
            }
        }
        let cmd = match (obj.get("command"), obj.get("index")) {
            (Some(_), None) => parse_command(obj)?,
            (None, Some(v)) => {
                let size = g.action_space_size();
                let i = v.as_u64().filter(|&i| i < size as u64).ok_or_else(|| {
                    ProtoError::new(
                        "input",
                        format!("\"index\" must be an action index from 0 to {}", size - 1),
                    )
                })?;
                g.command_at(i as usize).ok_or_else(|| {
                    ProtoError::new("input", format!("action {i} names no command here"))
                })?
            }
            _ => {
                return Err(ProtoError::protocol(
                    "apply needs either \"command\" or \"index\"",
                ))
            }
        };
        let events = g.apply_json(&cmd)?;
        match seat {
            Some(side) => Body::new()
                .with("events", &g.last_events_json(Some(side)))?
                .with("pending", &g.pending_json())?
                .with("hash", &hash_hex(g.view_hash(side))),
            None => Body::new()
                .with("events", &events)?
                .with("pending", &g.pending_json())?
                .with("hash", &hash_hex(g.state_hash())),
        }
    }

    /// `legal` in its forms (`docs/serve.md`, "Compact forms"): the commands, their
    /// action indices, or the commands grouped by unit; all, or one unit's; whole, or
    /// as a patch of the last such reply. A seat gets them only on its own decision.
    fn legal(&self, session: &mut Session, obj: &Map<String, Value>, asker: Asker) -> Result<Body> {
        let g = self.current()?;
        let form = match obj.get("form") {
            None => "full",
            Some(Value::String(f)) if matches!(f.as_str(), "full" | "indices" | "by_unit") => {
                f.as_str()
            }
            Some(_) => {
                return Err(ProtoError::protocol(
                    "\"form\" must be \"full\", \"indices\" or \"by_unit\"",
                ))
            }
        };
        let unit = match obj.get("unit") {
            None => None,
            Some(Value::String(u)) => Some(u.as_str()),
            Some(_) => return Err(ProtoError::protocol("\"unit\" must be a unit's id")),
        };
        let delta = flag(obj, "delta")?;
        if unit.is_some() && obj.contains_key("delta") {
            return Err(ProtoError::protocol(
                "\"delta\" is for whole listings; one unit's listing is always whole",
            ));
        }
        let visible = match asker {
            Asker::Seat(s) => g.decider() == Some(s),
            _ => true,
        };
        let of_unit = |c: &Value| match unit {
            None => true,
            Some(u) => c.get("unit").and_then(Value::as_str) == Some(u),
        };
        let value = match form {
            _ if !visible && form == "by_unit" => json!({"units":{},"other":[]}),
            _ if !visible => json!([]),
            "indices" => Value::Array(
                g.legal_indices()
                    .into_iter()
                    .filter(|&i| unit.is_none() || g.command_at(i).is_some_and(|c| of_unit(&c)))
                    .map(Value::from)
                    .collect(),
            ),
            "by_unit" => {
                let (mut units, mut other) = (Map::new(), Vec::new());
                for mut c in g.legal_json().into_iter().filter(|c| of_unit(c)) {
                    let id = match c.as_object_mut().and_then(|o| o.shift_remove("unit")) {
                        Some(Value::String(id)) => id,
                        Some(v) => {
                            // A "unit" that is not an id stays in its command.
                            if let Some(o) = c.as_object_mut() {
                                o.insert("unit".into(), v);
                            }
                            other.push(c);
                            continue;
                        }
                        None => {
                            other.push(c);
                            continue;
                        }
                    };
                    match units.entry(id).or_insert_with(|| Value::Array(Vec::new())) {
                        Value::Array(list) => list.push(c),
                        _ => unreachable!("every group is an array"),
                    }
                }
                json!({"units": units, "other": other})
            }
            _ => Value::Array(g.legal_json().into_iter().filter(|c| of_unit(c)).collect()),
        };
        let body = match unit {
            // One unit's listing is small: never a base, always whole.
            Some(_) => Body::new().with("legal", &value)?,
            None => {
                let key = format!("{}/legal/{form}", asker.key());
                session.deltable(Body::new(), key, "legal", value, delta)?
            }
        };
        if form == "indices" {
            body.with("size", &g.action_space_size())
        } else {
            Ok(body)
        }
    }
}

/// What [`Core::dispatch`] came to.
enum Done {
    /// The reply's body, whether to quit, what changed.
    Reply(Body, bool, Option<Change>),
    /// A search to run.
    Think(ThinkJob),
}

impl Core {
    /// A token: 128 bits from the process's hash keys (randomly keyed by the
    /// standard library) and a counter, so tokens cannot be guessed from one another.
    pub fn random_token(&mut self, prefix: &str) -> String {
        use std::hash::{BuildHasher, Hasher};
        self.issued += 1;
        let word = |salt: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(self.issued);
            h.write_u64(salt);
            h.finish()
        };
        let (x, y) = (word(1), word(2));
        format!("{prefix}-{x:016x}{y:016x}")
    }

    fn new_token(&mut self, side: Side) -> String {
        self.random_token(&side.to_string())
    }
}

/// A seat's request names no side but its own (`side` may be left out).
fn own_side(obj: &Map<String, Value>, seat: Side, what: &str) -> Result<()> {
    match obj.get("side") {
        Some(v) if side_field(obj, what)? != seat => Err(ProtoError::new(
            "seat",
            format!("this seat is side {seat}'s; it may not {what} {v}"),
        )),
        _ => Ok(()),
    }
}

/// The match as a seat of `side` may know it: one drawn from that side's view alone
/// (`DynMatch::determinized`, a fixed seed so that the answer is repeatable), for the
/// queries that read a state (`reachable`, `explain`). Whatever the side cannot know is
/// made up there, so no answer can carry it; what it can know is exactly as in the
/// match.
fn as_seat(g: &dyn DynMatch, side: Side) -> Result<Box<dyn DynMatch>> {
    Ok(g.determinized(side, 0)?)
}

/// An optional boolean field (false when absent).
fn flag(obj: &Map<String, Value>, key: &str) -> Result<bool> {
    match obj.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ProtoError::protocol(format!(
            "\"{key}\" must be true or false"
        ))),
    }
}

/// The longest `think` a request may ask for.
const MAX_THINK_MS: u64 = 600_000;

/// `think`: the built-in AI's choice for the pending decision, within `time_ms`
/// (default 1000) and the `config`'s iterations, checked now and run later on a copy
/// of the match. The search reads only the deciding side's view, so a seat may ask it
/// about its own decision.
fn think_job(g: &dyn DynMatch, obj: &Map<String, Value>) -> Result<ThinkJob> {
    let ms = match obj.get("time_ms") {
        None => 1000,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_THINK_MS).contains(&n) => n,
            _ => {
                return Err(ProtoError::protocol(format!(
                    "\"time_ms\" must be an integer from 1 to {MAX_THINK_MS}"
                )))
            }
        },
    };
    let cfg = match obj.get("config") {
        None => fm_core::search::SearchConfig {
            // A time budget alone: iterations are not the limit.
            iterations: fm_core::search::SearchConfig::MAX_ITERATIONS,
            ..Default::default()
        },
        Some(v @ Value::Object(_)) => fm_core::search::SearchConfig::from_json(&v.to_string())
            .map_err(|e| ProtoError::protocol(e.to_string()))?,
        Some(_) => {
            return Err(ProtoError::protocol(
                "\"config\" must be an object of search settings",
            ))
        }
    };
    Ok(ThinkJob {
        game: g.clone_box(),
        cfg,
        ms,
        id: None,
    })
}

fn side_field(obj: &Map<String, Value>, cmd: &str) -> Result<Side> {
    match obj.get("side") {
        Some(Value::String(s)) if s == "a" => Ok(Side::A),
        Some(Value::String(s)) if s == "b" => Ok(Side::B),
        _ => Err(ProtoError::protocol(format!(
            "{cmd} needs \"side\": \"a\" or \"b\""
        ))),
    }
}

/// The `since` field of `log`: a command index, 0 to the log's length.
fn since(obj: &Map<String, Value>, len: usize) -> Result<usize> {
    match obj.get("since") {
        None => Ok(0),
        Some(v) => match v.as_u64() {
            Some(n) if n as usize <= len => Ok(n as usize),
            _ => Err(ProtoError::protocol(format!(
                "\"since\" must be a command index from 0 to {len}"
            ))),
        },
    }
}

/// The `command` of a request, as JSON (its shape is the rules system's, checked when
/// it is applied).
fn parse_command(obj: &Map<String, Value>) -> Result<Value> {
    let v = obj
        .get("command")
        .ok_or_else(|| ProtoError::protocol("apply needs \"command\""))?;
    match v {
        // A command inside a string is read as strictly as the request.
        Value::String(s) => {
            parse_strict(s).map_err(|e| ProtoError::new("input", format!("command JSON: {e}")))
        }
        other => Ok(other.clone()),
    }
}

fn scenario_error(e: fm_core::ScenarioError) -> ProtoError {
    ProtoError::new(
        "scenario",
        format!("scenario: {}", crate::matches::scenario_error_text(&e)),
    )
}

fn no_match() -> ProtoError {
    ProtoError::protocol("no match: send \"new\" or \"load\" first")
}

/// An error reply without an `id`.
pub(crate) fn error_reply(rule: &str, message: &str) -> Reply {
    reply_error(None, &ProtoError::new(rule, message))
}

/// The reply to a line longer than the limit.
pub(crate) fn too_long_reply(len: u64, limit: usize) -> Reply {
    too_long(len, limit)
}

/// The reply to a line longer than the limit.
fn too_long(len: u64, limit: usize) -> Reply {
    reply_error(
        None,
        &ProtoError::protocol(format!(
            "the request line is {len} bytes long; the limit is {limit} bytes: it was \
             skipped to its end"
        )),
    )
}

/// A request parsed strictly: its fields but `id` (`None`: JSON, but not an object),
/// and the `id` as compact JSON text.
type Parsed = (Option<Map<String, Value>>, Option<String>);

/// Parses a request line: no key twice in any object, a parsed tree within
/// `MAX_JSON_COST`, 128 levels of nesting (serde_json's limit). On failure, the error and the
/// request's `id` if one can still be read (a valid JSON object with one `id` whose
/// text is itself valid), so that even a refused request's reply can carry it.
fn parse_request(line: &str) -> std::result::Result<Parsed, (Option<String>, ProtoError)> {
    let budget = Budget::new(MAX_JSON_COST);
    let mut de = serde_json::Deserializer::from_str(line);
    let parsed = serde::Deserializer::deserialize_any(&mut de, RequestVisitor { budget: &budget })
        .and_then(|p| de.end().map(|()| p));
    match parsed {
        Ok((fields, id)) => Ok((fields, id.map(|r| compact(r.get())))),
        Err(e) => {
            let message = match e.classify() {
                serde_json::error::Category::Data => format!("the request is refused: {e}"),
                _ => format!("the request is not JSON ({e})"),
            };
            Err((lax_id(line), ProtoError::protocol(message)))
        }
    }
}

/// Reads a request's top level: the `id` as raw text (checked strictly as well), every
/// other member through [`StrictValue`]. A non-object gives no fields.
struct RequestVisitor<'a> {
    budget: &'a Budget,
}

impl<'de> Visitor<'de> for RequestVisitor<'_> {
    type Value = (Option<Map<String, Value>>, Option<&'de RawValue>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut fields = Map::new();
        let mut id: Option<&'de RawValue> = None;
        while let Some(k) = map.next_key::<String>()? {
            if fields.contains_key(&k) || (k == "id" && id.is_some()) {
                return Err(de::Error::custom(format_args!(
                    "duplicate key {}",
                    Value::String(k)
                )));
            }
            if k == "id" {
                let raw: &'de RawValue = map.next_value()?;
                // serde_json skips a raw value without counting its depth: check the id
                // on its own, one level down as in the request (and in the reply, which
                // must parse wherever the request did).
                let nested = format!("[{}]", raw.get());
                let mut inner = serde_json::Deserializer::from_str(&nested);
                StrictValue::new(self.budget)
                    .deserialize(&mut inner)
                    .map_err(|e| de::Error::custom(format_args!("in \"id\": {e}")))?;
                id = Some(raw);
            } else {
                let v = map.next_value_seed(StrictValue::new(self.budget))?;
                fields.insert(k, v);
            }
        }
        Ok((Some(fields), id))
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok((None, None))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
        Ok((None, None))
    }
}

/// The `id` of a request that failed strict parsing, if it has exactly one and that one
/// is valid on its own.
fn lax_id(line: &str) -> Option<String> {
    struct Lax;
    impl<'de> Visitor<'de> for Lax {
        type Value = Option<&'de RawValue>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a request object")
        }
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let (mut id, mut twice) = (None, false);
            while let Some(k) = map.next_key::<String>()? {
                if k == "id" {
                    twice |= id.is_some();
                    id = Some(map.next_value::<&'de RawValue>()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(if twice { None } else { id })
        }
    }
    let mut de = serde_json::Deserializer::from_str(line);
    let id = serde::Deserializer::deserialize_map(&mut de, Lax).ok()??;
    de.end().ok()?;
    parse_strict(&format!("[{}]", id.get())).ok()?;
    Some(compact(id.get()))
}

/// JSON text without the whitespace outside its strings: the `id` as sent, digit for
/// digit, but on one line (a CR inside a request's `id` must not split the reply line).
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

fn reply_error(id: Option<&str>, e: &ProtoError) -> Reply {
    let body = ErrorBody {
        rule: &e.rule,
        message: &e.message,
    };
    let line = match Body::new().with("error", &body) {
        Ok(b) => b.render(id),
        Err(_) => r#"{"error":{"rule":"internal","message":"cannot serialize an error"}}"#.into(),
    };
    Reply { line, quit: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    /// The server's match, as the Fire & Movement match it is.
    fn fm_match_of(s: &Server) -> fm_core::Match {
        s.game()
            .and_then(|g| g.as_any().downcast_ref::<fm_core::Match>())
            .expect("an F&M match")
            .clone()
    }

    fn ask(s: &mut Server, line: &str) -> Value {
        serde_json::from_str(&s.handle_line(line).expect("a reply").line).expect("JSON reply")
    }

    #[test]
    fn garbage_gets_errors_not_panics() {
        let mut s = Server::new();
        for bad in [
            "garbage",
            "[]",
            "42",
            "{}",
            r#"{"cmd":7}"#,
            r#"{"cmd":"fly"}"#,
            r#"{"cmd":"apply","command":{"type":"done"}}"#,
            r#"{"cmd":"new","scenario":"nowhere"}"#,
            r#"{"cmd":"new","scenario":"system-demo","seed":-1}"#,
            r#"{"cmd":"new","scenario_json":{"id":1}}"#,
            r#"{"cmd":"load","save":"{"}"#,
            r#"{"cmd":"legal","extra":1}"#,
        ] {
            let v = ask(&mut s, bad);
            assert!(v["error"]["rule"].is_string(), "{bad} -> {v}");
            assert!(v["error"]["message"].is_string(), "{bad} -> {v}");
        }
        assert!(s.handle_line("   ").is_none());
        let r = s.handle_bytes(b"\xff\xfe").expect("reply");
        assert!(r.line.contains("UTF-8"));
    }

    #[test]
    fn think_chooses_for_the_decider_and_a_seat_only_for_its_own_side() {
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":3}"#);
        let hash = ask(&mut s, r#"{"cmd":"state"}"#)["hash"].clone();
        let cfg = r#""config":{"iterations":20,"seed":2,"max_priors":30}"#;
        let v = ask(
            &mut s,
            &format!(r#"{{"cmd":"think","time_ms":60000,{cfg}}}"#),
        );
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#)["legal"].clone();
        assert!(
            legal.as_array().unwrap().contains(&v["think"]["command"]),
            "{v}"
        );
        assert_eq!(v["think"]["iterations"], 20);
        assert_eq!(
            ask(&mut s, r#"{"cmd":"state"}"#)["hash"],
            hash,
            "think changes nothing"
        );
        // A seat of the deciding side (Red sets up first) may think; the other may not.
        let a = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"].clone();
        let b = ask(&mut s, r#"{"cmd":"seat","side":"b"}"#)["seat"].clone();
        let vb = ask(&mut s, &format!(r#"{{"cmd":"think","seat":{b},{cfg}}}"#));
        assert_eq!(
            vb["think"], v["think"],
            "the search reads only side b's view"
        );
        let va = ask(&mut s, &format!(r#"{{"cmd":"think","seat":{a}}}"#));
        assert_eq!(va["error"]["rule"], "seat", "{va}");
        // A time budget alone bounds it; bad budgets and settings are refused.
        let t = ask(&mut s, r#"{"cmd":"think","time_ms":30}"#);
        assert!(t["think"]["index"].is_u64(), "{t}");
        for bad in [
            r#"{"cmd":"think","time_ms":0}"#,
            r#"{"cmd":"think","time_ms":"1"}"#,
            r#"{"cmd":"think","time_ms":600001}"#,
            r#"{"cmd":"think","config":{"iterations":0}}"#,
            r#"{"cmd":"think","config":{"depth":3}}"#,
            r#"{"cmd":"think","config":[1]}"#,
            r#"{"cmd":"think","budget":3}"#,
        ] {
            let e = ask(&mut s, bad);
            assert_eq!(e["error"]["rule"], "protocol", "{bad} -> {e}");
        }
    }

    #[test]
    fn a_short_session() {
        let mut s = Server::new();
        let v = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"system-demo","seed":3,"id":"n1"}"#,
        );
        assert_eq!(v["id"], "n1");
        assert!(v["events"].as_array().is_some_and(|e| !e.is_empty()));
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#);
        let first = legal["legal"][0].clone();
        let v = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"id":2}).to_string(),
        );
        assert_eq!(v["id"], 2);
        assert!(v["events"].is_array(), "{v}");
        let bad = ask(
            &mut s,
            r#"{"cmd":"apply","command":{"type":"move","unit":"nobody","path":[]}}"#,
        );
        assert_eq!(bad["error"]["rule"], "input");
        let save = ask(&mut s, r#"{"cmd":"save"}"#);
        let v = ask(
            &mut s,
            &json!({"cmd":"load","save":save["save"]}).to_string(),
        );
        assert_eq!(v["loaded"], 1);
        let v = ask(&mut s, r#"{"cmd":"undo"}"#);
        assert_eq!(v["undone"], true);
        let v = ask(&mut s, r#"{"cmd":"view","side":"b"}"#);
        assert_eq!(v["view"]["side"], "b");
        let r = s.handle_line(r#"{"cmd":"quit"}"#).expect("reply");
        assert!(r.quit);
    }

    /// Seats (issue 13: hidden information): a seat sees only its side's view, its
    /// redacted events and view hashes, and may act only on its own decisions.
    #[test]
    fn seats_see_only_their_side() {
        let mut s = Server::new();
        let owner = ask(&mut s, r#"{"cmd":"new","scenario":"vimy-ridge","seed":5}"#);
        let owner_hash = owner["hash"].as_str().unwrap().to_string();
        let a = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"]
            .as_str()
            .unwrap()
            .to_string();
        let b = ask(&mut s, r#"{"cmd":"seat","side":"b"}"#)["seat"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(a.starts_with("a-") && b.starts_with("b-") && a != b);
        let g = fm_match_of(&s);
        // Views and hashes: the seat's own, never the referee's.
        let va = ask(&mut s, &json!({"cmd":"view","seat":a}).to_string());
        assert_eq!(va["view"], serde_json::to_value(g.view(Side::A)).unwrap());
        assert_eq!(va["hash"], format!("{:016x}", g.view_hash(Side::A)));
        assert_ne!(va["hash"], owner_hash);
        let e = ask(
            &mut s,
            &json!({"cmd":"view","side":"b","seat":a}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        for cmd in ["state", "save", "undo", "quit"] {
            let e = ask(&mut s, &json!({"cmd":cmd,"seat":a}).to_string());
            assert_eq!(e["error"]["rule"], "seat", "{cmd}: {e}");
        }
        let e = ask(
            &mut s,
            &json!({"cmd":"seat","side":"b","seat":a}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let e = ask(&mut s, r#"{"cmd":"view","seat":"b-0000"}"#);
        assert_eq!(e["error"]["rule"], "seat");
        // The opening allotments: each seat's log shows only its own values.
        let pending = g.pending();
        let (mine, theirs) = match pending.side() {
            Some(Side::A) => (a.clone(), b.clone()),
            _ => (b.clone(), a.clone()),
        };
        let l = ask(&mut s, &json!({"cmd":"legal","seat":theirs}).to_string());
        assert_eq!(l["legal"], json!([]));
        let l = ask(&mut s, &json!({"cmd":"legal","seat":mine}).to_string());
        let first = l["legal"][0].clone();
        let e = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"seat":theirs}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let v = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"seat":mine}).to_string(),
        );
        let side = if mine == a { Side::A } else { Side::B };
        let g = fm_match_of(&s);
        assert_eq!(v["hash"], format!("{:016x}", g.view_hash(side)));
        let redacted: Vec<fm_core::Event> = g.log()[0]
            .events
            .iter()
            .map(|e| e.redacted_for(side))
            .collect();
        assert_eq!(v["events"], serde_json::to_value(&redacted).unwrap());
        let log = ask(
            &mut s,
            &json!({"cmd":"log","since":0,"seat":theirs}).to_string(),
        );
        assert_eq!(log["count"], 1);
        let other = side.other();
        assert_eq!(
            log["log"],
            serde_json::to_value(&g.export(other).log).unwrap()
        );
        let ex = ask(&mut s, &json!({"cmd":"export","seat":theirs}).to_string());
        assert_eq!(ex["export"], serde_json::to_value(g.export(other)).unwrap());
        assert!(!ex.to_string().contains("\"seed\""));
        // A new match ends the seats.
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo"}"#);
        let e = ask(&mut s, &json!({"cmd":"pending","seat":a}).to_string());
        assert_eq!(e["error"]["rule"], "seat");
    }

    /// The queries (issue 19): a seat's answers come from its side's knowledge alone.
    /// A second server loads a match drawn from side a's view (its hidden values made
    /// up anew: another referee's state); side a's seat gets the same svg, odds,
    /// reachable hexes and explanations from both, and the owner's answers are the
    /// layer's own.
    #[test]
    fn queries_answer_a_seat_from_its_side_knowledge_alone() {
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"vimy-ridge","seed":5}"#);
        let mut rng = 99u64;
        for _ in 0..150 {
            let legal = ask(&mut s, r#"{"cmd":"legal","form":"indices"}"#)["legal"].clone();
            let list = legal.as_array().unwrap();
            if list.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let i = &list[(rng % list.len() as u64) as usize];
            ask(&mut s, &json!({"cmd":"apply","index":i}).to_string());
        }
        let g = s.game().unwrap().clone_box();
        let drawn = g.determinized(Side::A, 1234).unwrap();
        assert_ne!(
            drawn.state_hash(),
            g.state_hash(),
            "another referee's state"
        );
        assert_eq!(drawn.view_hash(Side::A), g.view_hash(Side::A));
        let mut t = Server::new();
        let loaded = ask(
            &mut t,
            &json!({"cmd":"load","save":drawn.save()}).to_string(),
        );
        assert!(loaded.get("error").is_none(), "{loaded}");
        let seat_a = |s: &mut Server| ask(s, r#"{"cmd":"seat","side":"a"}"#)["seat"].clone();
        let (sa, ta) = (seat_a(&mut s), seat_a(&mut t));
        // Hexes with units on them, and the units, from side a's view.
        let view = ask(&mut s, &json!({"cmd":"view","seat":sa}).to_string())["view"].clone();
        let units: Vec<(String, String)> = view["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|u| Some((u["id"].as_str()?.into(), u["loc"]["map"].as_str()?.into())))
            .collect();
        assert!(units.len() > 5);
        let both = |s: &mut Server, t: &mut Server, req: Value| {
            let mut r1 = req.clone();
            r1["seat"] = sa.clone();
            let mut r2 = req;
            r2["seat"] = ta.clone();
            let (x, y) = (ask(s, &r1.to_string()), ask(t, &r2.to_string()));
            assert_eq!(x, y, "{r1}");
            x
        };
        let pic = both(
            &mut s,
            &mut t,
            json!({"cmd":"svg","options":{"hex_size":20}}),
        );
        let opts = json!({"hex_size":20});
        assert_eq!(
            pic["svg"],
            g.svg(Some(Side::A), &opts).unwrap(),
            "the layer's picture"
        );
        let e = ask(
            &mut s,
            &json!({"cmd":"svg","side":"b","seat":sa}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let referee = ask(&mut s, r#"{"cmd":"svg"}"#);
        assert_eq!(referee["svg"], g.svg(None, &json!({})).unwrap());
        let bad = ask(&mut s, r#"{"cmd":"svg","options":{"hex_size":"big"}}"#);
        assert_eq!(bad["error"]["rule"], "input", "{bad}");
        let mut odds_seen = 0;
        for (unit, hex) in &units {
            let r = both(&mut s, &mut t, json!({"cmd":"reachable","unit":unit}));
            assert!(r["reachable"].is_array() || r["error"].is_object(), "{r}");
            let proposal = json!({"hex":hex,"units":[]});
            let o = both(&mut s, &mut t, json!({"cmd":"odds","proposal":proposal}));
            if o["odds"].is_object() {
                odds_seen += 1;
                assert_eq!(o["odds"], g.odds(Side::A, &proposal).unwrap());
            }
            let cmd = json!({"type":"move","unit":unit,"path":[hex]});
            let x = both(&mut s, &mut t, json!({"cmd":"explain","command":cmd}));
            assert!(
                x["explain"]["rule"].is_string(),
                "moving onto its own hex: {x}"
            );
        }
        assert!(odds_seen > 0, "some bombardment odds were asked");
        // The owner's answers are the match's own; a legal command explains as null.
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#)["legal"].clone();
        if let Some(c) = legal.as_array().unwrap().first() {
            let x = ask(&mut s, &json!({"cmd":"explain","command":c}).to_string());
            assert_eq!(x, json!({"explain":null}));
        }
        let (unit, _) = &units[0];
        let r = ask(&mut s, &json!({"cmd":"reachable","unit":unit}).to_string());
        if let Ok(want) = g.reachable(unit) {
            assert_eq!(r["reachable"], want);
        }
        for bad in [
            r#"{"cmd":"reachable"}"#,
            r#"{"cmd":"odds","proposal":[1]}"#,
            r#"{"cmd":"explain"}"#,
            r#"{"cmd":"svg","options":3}"#,
        ] {
            assert_eq!(ask(&mut s, bad)["error"]["rule"], "protocol", "{bad}");
        }
        let x = ask(&mut s, r#"{"cmd":"explain","command":{"type":"fly"}}"#);
        assert_eq!(x["error"]["rule"], "input", "{x}");
        let r = ask(&mut s, r#"{"cmd":"reachable","unit":"nobody"}"#);
        assert!(r["error"]["rule"].is_string(), "{r}");
    }

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

    /// Finding 9: the id comes back as the very text it was sent as.
    #[test]
    fn the_id_is_echoed_verbatim() {
        let mut s = Server::new();
        for (id, back) in [
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
            ("1.0", "1.0"),
            ("-0", "-0"),
            ("1E+2", "1E+2"),
            ("18446744073709551616", "18446744073709551616"),
            ("\"x\"", "\"x\""),
            ("\"\\u00e9 \\\" \"", "\"\\u00e9 \\\" \""),
            ("[1, 2,\t{\"a b\" : \" c \"}]", "[1,2,{\"a b\":\" c \"}]"),
            ("[1,\r2]", "[1,2]"),
            ("null", "null"),
        ] {
            for line in [
                format!("{{\"cmd\":\"hello\",\"id\": {id} }}"),
                format!("{{\"id\":{id},\"cmd\":\"fly\"}}"),
            ] {
                let r = s.handle_line(&line).unwrap().line;
                assert!(r.starts_with(&format!("{{\"id\":{back},")), "{line} -> {r}");
                assert!(!r.contains(['\n', '\r']), "{r}");
                let v: Value = serde_json::from_str(&r).unwrap();
                assert!(v.get("engine").is_some() || v.get("error").is_some());
            }
        }
    }

    /// The id is held to the nesting limit of the request it is in, so that the reply
    /// (which nests it as deep) parses wherever the request did. Found by the fuzz
    /// harness: a raw value is skipped without counting its depth.
    #[test]
    fn a_deep_id_is_held_to_the_nesting_limit() {
        let mut s = Server::new();
        for depth in [126usize, 127, 128, 5000] {
            let id = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let line = format!("{{\"cmd\":\"hello\",\"id\":{id}}}");
            let reply = s.handle_line(&line).unwrap().line;
            let request_parses = serde_json::from_str::<Value>(&line).is_ok();
            let v: Value = serde_json::from_str(&reply)
                .unwrap_or_else(|e| panic!("depth {depth}: the reply does not parse ({e})"));
            assert_eq!(
                v.get("engine").is_some(),
                request_parses,
                "depth {depth}: {v}"
            );
        }
    }

    /// Finding 9: a key given twice is refused, wherever it is; the reply still carries
    /// the id when there is exactly one.
    #[test]
    fn duplicate_keys_are_refused() {
        let mut s = Server::new();
        let r = s.handle_line(r#"{"cmd":"hello","cmd":"quit"}"#).unwrap();
        assert!(!r.quit);
        let v: Value = serde_json::from_str(&r.line).unwrap();
        assert_eq!(v["error"]["rule"], "protocol");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("duplicate key \"cmd\""),
            "{v}"
        );
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":1}"#);
        let before = s.game().unwrap().state_hash();
        for (line, rule) in [
            (r#"{"id":7,"cmd":"legal","cmd":"state"}"#, "protocol"),
            (
                r#"{"cmd":"apply","id":7,"command":{"type":"place","type":"done"}}"#,
                "protocol",
            ),
            (
                r#"{"cmd":"apply","command":{"type":"place","unit":"red-militia-bn","hex":"1104","hex":"1105"},"id":7}"#,
                "protocol",
            ),
            (
                r#"{"cmd":"apply","id":7,"command":"{\"type\":\"done\",\"type\":\"done\"}"}"#,
                "input",
            ),
            (
                r#"{"cmd":"new","id":7,"scenario_json":"{\"id\":\"x\",\"id\":\"y\"}"}"#,
                "scenario",
            ),
            (
                r#"{"cmd":"load","id":7,"save":"{\"format\":2,\"format\":2}"}"#,
                "save",
            ),
            (r#"{"cmd":"hello","id":{"a":1,"a":2}}"#, "protocol"),
            (r#"{"cmd":"hello","id":1,"id":2}"#, "protocol"),
        ] {
            let v = ask(&mut s, line);
            assert_eq!(v["error"]["rule"], rule, "{line} -> {v}");
            assert!(
                v["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("duplicate key"),
                "{line} -> {v}"
            );
            let with_id = !line.contains(r#""id":{"#) && !line.contains(r#""id":2"#);
            assert_eq!(v.get("id").is_some(), with_id, "{line} -> {v}");
            if with_id {
                assert_eq!(v["id"], 7, "{line} -> {v}");
            }
        }
        assert_eq!(s.game().unwrap().state_hash(), before, "nothing changed");
    }

    /// Finding 8, through serve: a scenario that claims a built-in id must be it.
    #[test]
    fn a_builtin_id_needs_the_builtin_data() {
        let mut s = Server::new();
        let mut data =
            serde_json::to_value(&fm_core::Scenario::builtin("system-demo").unwrap().data).unwrap();
        let ok = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert!(ok.get("events").is_some(), "{ok}");
        data["units"][0]["steps"][0] = json!({"attack":99,"defense":99,"move":20});
        let e = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "scenario", "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("an id of its own"),
            "{e}"
        );
        data["id"] = json!("demo-99");
        let ok = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert!(ok.get("events").is_some(), "{ok}");
    }
}
