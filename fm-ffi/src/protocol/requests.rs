//! The requests: which there are and the fields each may carry; the strict parsing of a
//! request line (no key twice, a bounded tree, the `id` kept as the very text it was
//! sent as, even when the rest is refused); and the readers of the fields that several
//! requests share.

use super::reply::{ProtoError, Result};
use fm_core::json::{parse_strict, Budget, StrictValue, MAX_JSON_COST};
use fm_core::Side;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The requests, in the order the unknown-cmd error lists them.
pub(super) const KNOWN: &str = "hello, scenarios, new, scenario, apply, legal, pending, \
                                state, view, svg, reachable, odds, explain, seat, bind, \
                                export, log, save, load, undo, think, chance, \
                                apply_chance, quit";

/// Fields each request may carry besides `cmd`, `id` and `seat`.
pub(super) fn allowed_fields(cmd: &str) -> Option<&'static [&'static str]> {
    Some(match cmd {
        "new" => &["scenario", "scenario_json", "seed", "chance_mode"],
        "apply_chance" => &["outcome"],
        "apply" => &["command", "index"],
        "legal" => &["form", "unit", "delta"],
        "view" => &["side", "delta"],
        "state" => &["delta"],
        "seat" | "export" => &["side"],
        "bind" => &["token", "notify"],
        "log" => &["since", "words"],
        "load" => &["save"],
        "think" => &["time_ms", "config"],
        "svg" => &["side", "options"],
        "reachable" => &["unit"],
        "odds" => &["side", "proposal"],
        "explain" => &["command"],
        "hello" | "scenarios" | "scenario" | "pending" | "save" | "undo" | "chance" | "seats"
        | "quit" => &[],
        _ => return None,
    })
}

/// A request parsed strictly: its fields but `id` (`None`: JSON, but not an object),
/// and the `id` as compact JSON text.
pub(super) type Parsed = (Option<Map<String, Value>>, Option<String>);

/// Parses a request line: no key twice in any object, a parsed tree within
/// `MAX_JSON_COST`, 128 levels of nesting (serde_json's limit). On failure, the error and the
/// request's `id` if one can still be read (a valid JSON object with one `id` whose
/// text is itself valid), so that even a refused request's reply can carry it.
pub(super) fn parse_request(
    line: &str,
) -> std::result::Result<Parsed, (Option<String>, ProtoError)> {
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

/// An optional boolean field (false when absent).
pub(super) fn flag(obj: &Map<String, Value>, key: &str) -> Result<bool> {
    match obj.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ProtoError::protocol(format!(
            "\"{key}\" must be true or false"
        ))),
    }
}

pub(super) fn side_field(obj: &Map<String, Value>, cmd: &str) -> Result<Side> {
    match obj.get("side") {
        Some(Value::String(s)) if s == "a" => Ok(Side::A),
        Some(Value::String(s)) if s == "b" => Ok(Side::B),
        _ => Err(ProtoError::protocol(format!(
            "{cmd} needs \"side\": \"a\" or \"b\""
        ))),
    }
}

/// The `since` field of `log`: a command index, 0 to the log's length.
pub(super) fn since(obj: &Map<String, Value>, len: usize) -> Result<usize> {
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
pub(super) fn parse_command(obj: &Map<String, Value>) -> Result<Value> {
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

/// A JSON value given either as JSON or as a string holding JSON.
pub(super) fn json_or_string(v: &Value) -> Result<std::borrow::Cow<'_, str>> {
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

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, Server};
    use serde_json::Value;

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
}
