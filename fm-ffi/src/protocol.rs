//! The JSON-lines engine protocol (`docs/serve.md`), in the spirit of UCI: one JSON
//! request per line in, one JSON reply per line out. [`Server`] holds at most one
//! match and answers requests; `examples/serve.rs` connects it to stdin and stdout.
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

/// A protocol session: at most one match at a time.
#[derive(Default)]
pub struct Server {
    game: Option<Match>,
}

/// Fields each request may carry besides `cmd` and `id`.
fn allowed_fields(cmd: &str) -> Option<&'static [&'static str]> {
    Some(match cmd {
        "new" => &["scenario", "scenario_json", "seed"],
        "apply" => &["command"],
        "view" => &["side"],
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
                 state, view, save, load, undo, quit)"
            )));
        };
        for k in obj.keys() {
            if k != "cmd" && k != "id" && !allowed.contains(&k.as_str()) {
                return Err(ProtoError::protocol(format!(
                    "unknown field '{k}' for cmd '{cmd}'"
                )));
            }
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
                let side = match obj.get("side") {
                    Some(Value::String(s)) if s == "a" => Side::A,
                    Some(Value::String(s)) if s == "b" => Side::B,
                    _ => return Err(ProtoError::protocol("view needs \"side\": \"a\" or \"b\"")),
                };
                Body::new().with("view", &self.current()?.view(side))?
            }
            "save" => Body::new().with_raw("save", self.current()?.save()),
            "load" => {
                let save = obj
                    .get("save")
                    .ok_or_else(|| ProtoError::protocol("load needs \"save\""))?;
                let text = json_or_string(save)?;
                let m = Match::load(&text)?;
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
        let body = Body::new()
            .with("events", m.opening_events())?
            .with("pending", &m.pending())?
            .with("hash", &hash_hex(m.state().hash()))?;
        self.game = Some(m);
        Ok(body)
    }

    fn apply(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        let v = obj
            .get("command")
            .ok_or_else(|| ProtoError::protocol("apply needs \"command\""))?;
        let cmd: Command = match v {
            Value::String(s) => serde_json::from_str(s),
            other => Command::deserialize(other),
        }
        .map_err(|e| ProtoError::new("input", format!("command JSON: {e}")))?;
        let events = serde_json::to_string(g.apply(&cmd)?)
            .map_err(|e| ProtoError::new("internal", format!("cannot serialize: {e}")))?;
        Body::new()
            .with_raw("events", events)
            .with("pending", &g.pending())?
            .with("hash", &hash_hex(g.state().hash()))
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
}
