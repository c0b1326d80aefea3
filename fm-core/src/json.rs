//! Strict JSON for untrusted input (save files, and the bindings' requests): every
//! object is checked for duplicate keys and the whole document for the memory its
//! parsed tree would take.
//!
//! `serde_json` keeps the last of two equal keys (`{"seed":1,"seed":2}` reads as
//! seed 2) and builds a tree of any size the text allows: 8 MB of `{"a":[]},` becomes
//! 900,000 objects, some 600 MB of memory. Both are refused here with an error naming
//! the problem. Nesting stays limited to serde_json's 128 levels.
//!
//! ```
//! use fm_core::json::parse_strict;
//! assert!(parse_strict(r#"{"a":[1,{"b":2}]}"#).is_ok());
//! let e = parse_strict(r#"{"a":1,"a":2}"#).unwrap_err();
//! assert!(e.to_string().starts_with("duplicate key \"a\""), "{e}");
//! ```

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// The largest cost of a strictly parsed document ([`Budget`]): 2,000,000 units of 32
/// bytes, about 64 MB of parsed tree. The largest legitimate input, the save of a whole
/// random game of Meuse Argonne (1,581 to 1,662 commands, ~500 KB), costs about
/// 223,000 (its ~44,000 values are mostly small objects); the largest built-in
/// scenario about 63,000. The limit is nine times the former, and a save of
/// `MAX_SAVE_BYTES` (4 MiB) of such content fits it.
pub const MAX_JSON_COST: usize = 2_000_000;

/// Parses JSON text strictly: duplicate keys in any object are refused, and so is a
/// document costing more than [`MAX_JSON_COST`] or nested deeper than 128 levels.
///
/// # Errors
/// serde_json's error (with line and column) for malformed JSON, a duplicate key or
/// too large a document.
pub fn parse_strict(text: &str) -> Result<Value, serde_json::Error> {
    let budget = Budget::new(MAX_JSON_COST);
    let mut de = serde_json::Deserializer::from_str(text);
    let v = StrictValue::new(&budget).deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// What a parse may still allocate, shared by every [`StrictValue`] seed of one
/// document, in units of 32 bytes (the size of a `serde_json::Value`): each value costs
/// 1, each string and key 1 more per 32 bytes, and each object 20 more per eleven
/// members (a `BTreeMap` node is some 630 bytes even for one member), so the cost
/// follows the memory of the tree rather than the length of the text.
#[derive(Debug)]
pub struct Budget(Cell<usize>);

/// Cost of one `BTreeMap` node (up to eleven members).
const NODE_COST: usize = 20;

impl Budget {
    /// A budget of `max` units.
    pub fn new(max: usize) -> Budget {
        Budget(Cell::new(max))
    }

    /// Takes `cost` units from the budget.
    fn take<E: de::Error>(&self, cost: usize) -> Result<(), E> {
        match self.0.get().checked_sub(cost) {
            Some(left) => {
                self.0.set(left);
                Ok(())
            }
            None => Err(E::custom(format_args!(
                "the JSON document is too large once parsed (more than {MAX_JSON_COST} \
                 units of 32 bytes)"
            ))),
        }
    }

    /// A value and its text of `len` bytes (strings, keys).
    fn take_text<E: de::Error>(&self, len: usize) -> Result<(), E> {
        self.take(1 + len / 32)
    }
}

/// A [`DeserializeSeed`] that reads any JSON value as a [`serde_json::Value`], refusing
/// duplicate keys and counting values against a [`Budget`]. Use it inside a custom
/// visitor that needs other fields of the same document in another form (the serve
/// protocol reads the request `id` as raw text and the rest through this).
#[derive(Clone, Copy, Debug)]
pub struct StrictValue<'a> {
    budget: &'a Budget,
}

impl<'a> StrictValue<'a> {
    /// A seed drawing on `budget`.
    pub fn new(budget: &'a Budget) -> StrictValue<'a> {
        StrictValue { budget }
    }
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.budget.take(1)?;
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.budget.take(1)?;
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.budget.take(1)?;
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.budget.take(1)?;
        // serde_json never yields a non-finite number from text; a NaN from another
        // deserializer becomes null, as `Value::from(f64)` does.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.budget.take_text(v.len())?;
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.take_text(v.len())?;
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.budget.take(1)?;
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.budget.take(1)?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.budget.take(1)?;
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if out.len() % 11 == 0 {
                self.budget.take(NODE_COST)?;
            }
            self.budget.take_text(k.len())?;
            if out.contains_key(&k) {
                return Err(de::Error::custom(format_args!(
                    "duplicate key {}",
                    Value::String(k)
                )));
            }
            let v = map.next_value_seed(self)?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// Where `given` first differs from `expected` (the form the engine writes), as a
/// JSON path (`log[3].events[1].mp`) and what differs: an unknown or missing field, a
/// different number of elements or another value. `None` if they are equal.
pub(crate) fn first_difference(expected: &Value, given: &Value, path: &str) -> Option<String> {
    // Equal values (a whole saved log, usually) are compared without a path built for
    // every field.
    if expected == given {
        return None;
    }
    fn short(v: &Value) -> String {
        let s = v.to_string();
        match s.char_indices().nth(60) {
            Some((i, _)) => format!("{}…", &s[..i]),
            None => s,
        }
    }
    let at = |p: &str| {
        if p.is_empty() {
            "the top level".to_string()
        } else {
            p.to_string()
        }
    };
    match (expected, given) {
        (Value::Object(e), Value::Object(g)) => {
            if let Some(k) = g.keys().find(|k| !e.contains_key(*k)) {
                return Some(format!(
                    "{}: unknown field {}",
                    at(path),
                    Value::String(k.clone())
                ));
            }
            for (k, ev) in e {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match g.get(k) {
                    None => {
                        return Some(format!(
                            "{}: missing field {}",
                            at(path),
                            Value::String(k.clone())
                        ))
                    }
                    Some(gv) => {
                        if let Some(d) = first_difference(ev, gv, &sub) {
                            return Some(d);
                        }
                    }
                }
            }
            None
        }
        (Value::Array(e), Value::Array(g)) => {
            for (i, (ev, gv)) in e.iter().zip(g).enumerate() {
                if let Some(d) = first_difference(ev, gv, &format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            let n = |k: usize| format!("{k} element{}", if k == 1 { "" } else { "s" });
            (e.len() != g.len())
                .then(|| format!("{}: {} where {} expected", at(path), n(g.len()), n(e.len())))
        }
        _ if expected == given => None,
        _ => Some(format!(
            "{}: {} where {} is expected",
            at(path),
            short(given),
            short(expected)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_anywhere_are_refused() {
        for text in [
            r#"{"a":1,"a":1}"#,
            r#"{"x":[{"b":1,"b":2}]}"#,
            r#"{"\u0061":1,"a":2}"#,
            r#"[[{"k":{},"k":{}}]]"#,
        ] {
            let e = parse_strict(text).unwrap_err();
            assert!(e.to_string().contains("duplicate key"), "{text}: {e}");
        }
        assert_eq!(
            parse_strict(r#"{"a":{"a":1},"b":[1,1]}"#).unwrap(),
            serde_json::json!({"a":{"a":1},"b":[1,1]})
        );
    }

    #[test]
    fn the_value_budget_and_the_nesting_limit_hold() {
        let many = format!("[{}0]", "0,".repeat(MAX_JSON_COST));
        let e = parse_strict(&many).unwrap_err();
        assert!(e.to_string().contains("too large once parsed"), "{e}");
        let just = format!("[{}0]", "0,".repeat(MAX_JSON_COST - 2));
        assert!(parse_strict(&just).is_ok());
        // Small objects cost what their nodes take: 23 units each here (the object, its
        // node, its key and its value).
        let n = (MAX_JSON_COST - 2) / 23;
        let objects = format!("[{}0]", r#"{"a":0},"#.repeat(n));
        assert!(parse_strict(&objects).is_ok());
        let objects = format!("[{}0]", r#"{"a":0},"#.repeat(n + 1));
        assert!(parse_strict(&objects).is_err());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let e = parse_strict(&deep).unwrap_err();
        assert!(e.to_string().contains("recursion limit"), "{e}");
    }

    #[test]
    fn it_reads_what_serde_json_reads() {
        let text = r#"{"n":-1,"u":18446744073709551615,"f":1.5,"s":"é\n","t":true,"z":null}"#;
        let lax: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parse_strict(text).unwrap(), lax);
        assert!(parse_strict("{} x").is_err());
    }

    #[test]
    fn differences_are_located() {
        let e = serde_json::json!({"a":[1,{"b":"2 1/2"}],"c":null});
        assert_eq!(first_difference(&e, &e, ""), None);
        let d = |g: Value| first_difference(&e, &g, "save").unwrap();
        assert_eq!(
            d(serde_json::json!({"a":[1,{"b":"5/2"}],"c":null})),
            "save.a[1].b: \"5/2\" where \"2 1/2\" is expected"
        );
        assert_eq!(
            d(serde_json::json!({"a":[1,{"b":"2 1/2","x":0}],"c":null})),
            "save.a[1]: unknown field \"x\""
        );
        assert_eq!(
            d(serde_json::json!({"a":[1],"c":null})),
            "save.a: 1 element where 2 elements expected"
        );
        assert_eq!(
            d(serde_json::json!({"a":[1,{"b":"2 1/2"}]})),
            "save: missing field \"c\""
        );
    }
}
