//! What goes back: [`Reply`], the line written for a request; [`Body`], a reply's fields
//! in a fixed order, each serialized straight from the engine's types; and the error
//! replies, from a refused request's [`ProtoError`] to those the socket mode sends on
//! its own (a request that is not UTF-8 or is too long).

use fm_core::RuleError;
use serde::Serialize;

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
pub(super) struct ProtoError {
    rule: String,
    message: String,
}

impl ProtoError {
    pub(super) fn new(rule: &str, message: impl Into<String>) -> ProtoError {
        ProtoError {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
    pub(super) fn protocol(message: impl Into<String>) -> ProtoError {
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

pub(super) type Result<T> = std::result::Result<T, ProtoError>;

pub(super) fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// A reply object, its fields in a fixed order and each value serialized straight
/// from the engine's types (so events keep fm-core's field order: `type` first).
#[derive(Default)]
pub(super) struct Body(Vec<(&'static str, String)>);

impl Body {
    pub(super) fn new() -> Body {
        Body::default()
    }

    /// Adds a field serialized from a value.
    pub(super) fn with<T: Serialize + ?Sized>(mut self, key: &'static str, v: &T) -> Result<Body> {
        let text = serde_json::to_string(v)
            .map_err(|e| ProtoError::new("internal", format!("cannot serialize: {e}")))?;
        self.0.push((key, text));
        Ok(self)
    }

    /// Adds a field whose value is already JSON text.
    pub(super) fn with_raw(mut self, key: &'static str, json: String) -> Body {
        self.0.push((key, json));
        self
    }

    /// The reply line: `id` first when the request had one, as the JSON text it was
    /// sent as.
    pub(super) fn render(self, id: Option<&str>) -> String {
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

pub(super) fn reply_error(id: Option<&str>, e: &ProtoError) -> Reply {
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

fn scenario_error(e: fm_core::ScenarioError) -> ProtoError {
    ProtoError::new(
        "scenario",
        format!("scenario: {}", crate::matches::scenario_error_text(&e)),
    )
}

pub(super) fn no_match() -> ProtoError {
    ProtoError::protocol("no match: send \"new\" or \"load\" first")
}

/// The reply to a request that is not UTF-8.
pub(crate) fn not_utf8(e: std::str::Utf8Error) -> Reply {
    reply_error(
        None,
        &ProtoError::protocol(format!("the request is not valid UTF-8 ({e})")),
    )
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
pub(super) fn too_long(len: u64, limit: usize) -> Reply {
    reply_error(
        None,
        &ProtoError::protocol(format!(
            "the request line is {len} bytes long; the limit is {limit} bytes: it was \
             skipped to its end"
        )),
    )
}
