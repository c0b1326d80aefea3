//! The JSON-lines engine protocol (`docs/serve.md`), in the spirit of UCI: one JSON
//! request per line in, one JSON reply per line out. [`Server`] holds at most one
//! match and answers requests; `examples/serve.rs` connects it to stdin and stdout.
//!
//! Two kinds of client: the **owner** (requests without `"seat"`), the referee, who
//! sees everything (full state, saves, state hashes); and **seats**, each bound to one
//! side by a token the owner asks for (`{"cmd":"seat","side":"a"}`). A request that
//! carries `"seat"` is answered only with what that side may know: its own view, its
//! redacted events, view hashes, and commands only when the decision is its own.
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

use fm_core::{Command, Match, RuleError, Scenario, Side};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Version of the protocol, reported by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

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
        }
    }
}

type Result<T> = std::result::Result<T, ProtoError>;

/// A protocol session: at most one match at a time, and the seats bound to its sides.
#[derive(Default)]
pub struct Server {
    game: Option<Match>,
    /// Seat tokens of the current match and the side each is bound to.
    seats: Vec<(String, Side)>,
    /// Tokens handed out so far (feeds the token generator).
    issued: u64,
}

/// Who is asking: the owner (the referee) or the seat of one side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Asker {
    Owner,
    Seat(Side),
}

/// Fields each request may carry besides `cmd` and `id`.
fn allowed_fields(cmd: &str) -> Option<&'static [&'static str]> {
    Some(match cmd {
        "new" => &["scenario", "scenario_json", "seed"],
        "apply" => &["command"],
        "view" | "seat" | "export" => &["side"],
        "log" => &["since"],
        "load" => &["save"],
        "hello" | "scenarios" | "legal" | "pending" | "state" | "save" | "undo" | "quit" => &[],
        _ => return None,
    })
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

    /// The reply line: `id` first when the request had one.
    fn render(self, id: Option<&Value>) -> String {
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
            field(&mut out, "id", &id.to_string());
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
    pub fn game(&self) -> Option<&Match> {
        self.game.as_ref()
    }

    /// Answers one input line given as bytes (invalid UTF-8 gets an error reply).
    /// Returns `None` for a blank line, which is ignored.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<Reply> {
        match std::str::from_utf8(line) {
            Ok(s) => self.handle_line(s),
            Err(e) => Some(reply_error(
                None,
                &ProtoError::protocol(format!("the request is not valid UTF-8 ({e})")),
            )),
        }
    }

    /// Answers one input line (without its newline). Returns `None` for a blank line,
    /// which is ignored. Never panics: an internal error is reported as
    /// `{"error":{"rule":"panic",…}}` and discards the match.
    pub fn handle_line(&mut self, line: &str) -> Option<Reply> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        let req: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return Some(reply_error(
                    None,
                    &ProtoError::protocol(format!("the request is not JSON ({e})")),
                ))
            }
        };
        let id = req.get("id");
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(&req))) {
            Ok(Ok((body, quit))) => Some(Reply {
                line: body.render(id),
                quit,
            }),
            Ok(Err(e)) => Some(reply_error(id, &e)),
            Err(_) => {
                self.game = None;
                let e = ProtoError::new(
                    "panic",
                    "internal error (panic in fm); the match was discarded",
                );
                Some(reply_error(id, &e))
            }
        }
    }

    fn current(&self) -> Result<&Match> {
        self.game.as_ref().ok_or_else(no_match)
    }

    fn dispatch(&mut self, req: &Value) -> Result<(Body, bool)> {
        let Value::Object(obj) = req else {
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
                "unknown cmd '{cmd}' (known: hello, scenarios, new, apply, legal, pending, \
                 state, view, seat, export, log, save, load, undo, quit)"
            )));
        };
        for k in obj.keys() {
            if k != "cmd" && k != "id" && k != "seat" && !allowed.contains(&k.as_str()) {
                return Err(ProtoError::protocol(format!(
                    "unknown field '{k}' for cmd '{cmd}'"
                )));
            }
        }
        let asker = match obj.get("seat") {
            None => Asker::Owner,
            Some(Value::String(t)) => match self.seats.iter().find(|(tok, _)| tok == t) {
                Some((_, side)) => Asker::Seat(*side),
                None => {
                    return Err(ProtoError::new(
                        "seat",
                        "unknown seat token (seats end when the owner starts or loads a match)",
                    ))
                }
            },
            Some(_) => return Err(ProtoError::protocol("\"seat\" must be a string")),
        };
        if let Asker::Seat(side) = asker {
            return self.dispatch_seat(cmd, obj, side).map(|b| (b, false));
        }
        let body = match cmd {
            "hello" => Body::new()
                .with("engine", "fm")?
                .with("version", env!("CARGO_PKG_VERSION"))?
                .with("protocol", &PROTOCOL_VERSION)?,
            "scenarios" => Body::new().with("scenarios", &Scenario::builtin_names())?,
            "new" => self.new_match(obj)?,
            "apply" => self.apply(obj)?,
            "legal" => Body::new().with("legal", &self.current()?.legal_commands())?,
            "pending" => Body::new().with("pending", &self.current()?.pending())?,
            "state" => {
                let g = self.current()?;
                Body::new()
                    .with("state", g.state())?
                    .with("hash", &hash_hex(g.state().hash()))?
            }
            "view" => {
                let side = side_field(obj, "view")?;
                let g = self.current()?;
                Body::new()
                    .with("view", &g.view(side))?
                    .with("hash", &hash_hex(g.view_hash(side)))?
            }
            "seat" => {
                let side = side_field(obj, "seat")?;
                self.current()?;
                let token = self.new_token(side);
                self.seats.push((token.clone(), side));
                Body::new().with("seat", &token)?.with("side", &side)?
            }
            "export" => {
                let side = side_field(obj, "export")?;
                Body::new().with("export", &self.current()?.export(side))?
            }
            "log" => {
                let g = self.current()?;
                let from = since(obj, g.log().len())?;
                Body::new()
                    .with("log", &g.log()[from..])?
                    .with("count", &g.log().len())?
            }
            "save" => Body::new().with_raw("save", self.current()?.save()),
            "load" => {
                let save = obj
                    .get("save")
                    .ok_or_else(|| ProtoError::protocol("load needs \"save\""))?;
                let text = json_or_string(save)?;
                let m = Match::load(&text)?;
                self.seats.clear();
                let body = Body::new()
                    .with("loaded", &m.log().len())?
                    .with("pending", &m.pending())?
                    .with("hash", &hash_hex(m.state().hash()))?;
                self.game = Some(m);
                body
            }
            "undo" => {
                let g = self.game.as_mut().ok_or_else(no_match)?;
                let undone = g.undo();
                Body::new()
                    .with("undone", &undone)?
                    .with("pending", &g.pending())?
                    .with("hash", &hash_hex(g.state().hash()))?
            }
            "quit" => return Ok((Body::new().with("bye", &true)?, true)),
            _ => unreachable!("allowed_fields knows every cmd"),
        };
        Ok((body, false))
    }

    fn new_match(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let bad_seed = || ProtoError::protocol("\"seed\" must be an integer from 0 to 2^64-1");
        let seed = match obj.get("seed") {
            None => 0,
            Some(Value::Number(n)) => n.as_u64().ok_or_else(bad_seed)?,
            Some(Value::String(s)) => s.parse::<u64>().map_err(|_| bad_seed())?,
            Some(_) => return Err(bad_seed()),
        };
        let sc = match (obj.get("scenario"), obj.get("scenario_json")) {
            (Some(Value::String(name)), None) => {
                if !Scenario::builtin_names().contains(&name.as_str()) {
                    return Err(ProtoError::new(
                        "scenario",
                        format!(
                            "unknown scenario '{name}' (built in: {})",
                            Scenario::builtin_names().join(", ")
                        ),
                    ));
                }
                Scenario::builtin(name).map_err(scenario_error)?
            }
            (None, Some(v)) => {
                let text = json_or_string(v)?;
                Scenario::from_json(&text).map_err(scenario_error)?
            }
            _ => {
                return Err(ProtoError::protocol(
                    "new needs either \"scenario\": a built-in name, or \"scenario_json\": \
                     a scenario",
                ))
            }
        };
        let m = Match::new(Arc::new(sc), seed);
        self.seats.clear();
        let body = Body::new()
            .with("events", m.opening_events())?
            .with("pending", &m.pending())?
            .with("hash", &hash_hex(m.state().hash()))?;
        self.game = Some(m);
        Ok(body)
    }

    fn apply(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        let cmd = parse_command(obj)?;
        let events = serde_json::to_string(g.apply(&cmd)?)
            .map_err(|e| ProtoError::new("internal", format!("cannot serialize: {e}")))?;
        Body::new()
            .with_raw("events", events)
            .with("pending", &g.pending())?
            .with("hash", &hash_hex(g.state().hash()))
    }
}

impl Server {
    /// A seat token: 128 bits from the process's hash keys (randomly keyed by the
    /// standard library) and a counter, so tokens cannot be guessed from one another.
    fn new_token(&mut self, side: Side) -> String {
        use std::hash::{BuildHasher, Hasher};
        self.issued += 1;
        let word = |salt: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(self.issued);
            h.write_u64(salt);
            h.finish()
        };
        let (x, y) = (word(1), word(2));
        format!("{side}-{x:016x}{y:016x}")
    }

    /// A request from the seat of `side`: only what `side` may know.
    fn dispatch_seat(&mut self, cmd: &str, obj: &Map<String, Value>, side: Side) -> Result<Body> {
        let refuse = |what: &str| {
            Err(ProtoError::new(
                "seat",
                format!("a seat may not {what}: that is the owner's (the referee's) request"),
            ))
        };
        match cmd {
            "hello" => Body::new()
                .with("engine", "fm")?
                .with("version", env!("CARGO_PKG_VERSION"))?
                .with("protocol", &PROTOCOL_VERSION),
            "scenarios" => Body::new().with("scenarios", &Scenario::builtin_names()),
            "pending" => Body::new().with("pending", &self.current()?.pending()),
            "legal" => {
                let g = self.current()?;
                let mine = deciding(&g.pending()) == Some(side);
                let legal = if mine { g.legal_commands() } else { Vec::new() };
                Body::new().with("legal", &legal)
            }
            "view" => {
                if let Some(v) = obj.get("side") {
                    if side_field(obj, "view")? != side {
                        return Err(ProtoError::new(
                            "seat",
                            format!("this seat is side {side}'s; it may not view {v}"),
                        ));
                    }
                }
                let g = self.current()?;
                Body::new()
                    .with("view", &g.view(side))?
                    .with("hash", &hash_hex(g.view_hash(side)))
            }
            "export" => {
                if obj.get("side").is_some() && side_field(obj, "export")? != side {
                    return Err(ProtoError::new(
                        "seat",
                        format!("this seat is side {side}'s; it may export only its own record"),
                    ));
                }
                Body::new().with("export", &self.current()?.export(side))
            }
            "log" => {
                let g = self.current()?;
                let from = since(obj, g.log().len())?;
                let mut entries = g.export(side).log;
                let tail = entries.split_off(from);
                Body::new()
                    .with("log", &tail)?
                    .with("count", &g.log().len())
            }
            "apply" => {
                let g = self.game.as_mut().ok_or_else(no_match)?;
                let deciding_side = deciding(&g.pending());
                if deciding_side != Some(side) {
                    return Err(ProtoError::new(
                        "seat",
                        match deciding_side {
                            Some(o) => format!("it is side {o}'s decision, not side {side}'s"),
                            None => "the game is over".to_string(),
                        },
                    ));
                }
                let cmd = parse_command(obj)?;
                let events: Vec<fm_core::Event> = g
                    .apply(&cmd)?
                    .iter()
                    .map(|e| e.redacted_for(side))
                    .collect();
                Body::new()
                    .with("events", &events)?
                    .with("pending", &g.pending())?
                    .with("hash", &hash_hex(g.view_hash(side)))
            }
            "new" | "load" => refuse("start or load a match"),
            "state" => refuse("see the full state"),
            "save" => refuse("save (a save holds the seed and every hidden value)"),
            "undo" => refuse("undo"),
            "seat" => refuse("hand out seats"),
            "quit" => refuse("stop the server"),
            _ => unreachable!("allowed_fields knows every cmd"),
        }
    }
}

/// The side whose decision it is, if any.
fn deciding(p: &fm_core::Pending) -> Option<Side> {
    use fm_core::Pending as P;
    match p {
        P::GameOver { .. } => None,
        P::Setup { side }
        | P::Phase { side, .. }
        | P::SupportFire { side, .. }
        | P::ChooseLoss { side, .. }
        | P::Retreat { side, .. }
        | P::LostBattalion { side }
        | P::ArtilleryRetreat { side, .. }
        | P::Advance { side, .. }
        | P::FireSupport { side } => Some(*side),
    }
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

fn parse_command(obj: &Map<String, Value>) -> Result<Command> {
    let v = obj
        .get("command")
        .ok_or_else(|| ProtoError::protocol("apply needs \"command\""))?;
    match v {
        Value::String(s) => serde_json::from_str(s),
        other => Command::deserialize(other),
    }
    .map_err(|e| ProtoError::new("input", format!("command JSON: {e}")))
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

fn reply_error(id: Option<&Value>, e: &ProtoError) -> Reply {
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
        let g = s.game().unwrap().clone();
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
        let (mine, theirs) = match deciding(&pending) {
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
        let g = s.game().unwrap().clone();
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
}
