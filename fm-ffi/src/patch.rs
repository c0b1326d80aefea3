//! JSON Patch (RFC 6902) between two JSON values: the deltas of `serve`'s compact
//! replies (`docs/serve.md`, "Deltas"). [`diff`] writes the operations that turn one
//! value into another, using only `add`, `remove` and `replace`, so any RFC 6902
//! library (JavaScript's `fast-json-patch`, Java's `json-patch`, Python's `jsonpatch`)
//! rebuilds the new value from the old; [`apply`] is the same operations in Rust.
//!
//! Objects are compared key by key and arrays element by element after their common
//! first and last elements (an element added or removed in the middle of a list costs
//! that element, not the rest of the list).
//!
//! ```
//! use serde_json::json;
//! let old = json!({"turn":1,"units":[{"id":"x","hex":"0101"},{"id":"y","hex":"0202"}]});
//! let new = json!({"turn":2,"units":[{"id":"x","hex":"0102"},{"id":"y","hex":"0202"}]});
//! let ops = fm::patch::diff(&old, &new);
//! assert_eq!(ops, json!([
//!     {"op":"replace","path":"/turn","value":2},
//!     {"op":"replace","path":"/units/0/hex","value":"0102"},
//! ]));
//! let mut doc = old.clone();
//! fm::patch::apply(&mut doc, &ops).unwrap();
//! assert_eq!(doc, new);
//! ```

use serde_json::{json, Map, Value};

/// The RFC 6902 operations (an array) that turn `old` into `new`.
pub fn diff(old: &Value, new: &Value) -> Value {
    let mut ops = Vec::new();
    let mut path = String::new();
    diff_into(old, new, &mut path, &mut ops);
    Value::Array(ops)
}

/// Appends `/token` to a JSON Pointer (RFC 6901: `~` is `~0`, `/` is `~1`).
fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

fn diff_into(old: &Value, new: &Value, path: &mut String, ops: &mut Vec<Value>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let len = path.len();
            for (k, va) in a {
                push_token(path, k);
                match b.get(k) {
                    Some(vb) => diff_into(va, vb, path, ops),
                    None => ops.push(json!({"op":"remove","path":path.as_str()})),
                }
                path.truncate(len);
            }
            for (k, vb) in b {
                if !a.contains_key(k) {
                    push_token(path, k);
                    ops.push(json!({"op":"add","path":path.as_str(),"value":vb}));
                    path.truncate(len);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => diff_arrays(a, b, path, ops),
        _ if old == new => {}
        _ => ops.push(json!({"op":"replace","path":path.as_str(),"value":new})),
    }
}

fn diff_arrays(a: &[Value], b: &[Value], path: &mut String, ops: &mut Vec<Value>) {
    let len = path.len();
    // The common first and last elements stay; what lies between them changes.
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let common = mid_a.len().min(mid_b.len());
    // Element by element where both have one; whole elements where only one does.
    for (i, (x, y)) in mid_a.iter().zip(mid_b).enumerate() {
        push_token(path, &(head + i).to_string());
        diff_into(x, y, path, ops);
        path.truncate(len);
    }
    // Removed from the highest index down, so every index is valid when it is removed.
    for i in (head + common..head + mid_a.len()).rev() {
        push_token(path, &i.to_string());
        ops.push(json!({"op":"remove","path":path.as_str()}));
        path.truncate(len);
    }
    for (i, y) in mid_b.iter().enumerate().skip(common) {
        push_token(path, &(head + i).to_string());
        ops.push(json!({"op":"add","path":path.as_str(),"value":y}));
        path.truncate(len);
    }
}

/// Applies RFC 6902 `add`, `remove` and `replace` operations to `doc` in order.
///
/// # Errors
/// An operation that is not an object of those three kinds, a path that is not a JSON
/// Pointer into `doc`, or an array index out of range. `doc` may then be partly patched.
pub fn apply(doc: &mut Value, ops: &Value) -> Result<(), String> {
    let ops = ops.as_array().ok_or("a patch is an array of operations")?;
    for (n, op) in ops.iter().enumerate() {
        apply_one(doc, op).map_err(|e| format!("operation {n}: {e}"))?;
    }
    Ok(())
}

fn apply_one(doc: &mut Value, op: &Value) -> Result<(), String> {
    let kind = op["op"].as_str().ok_or("no \"op\"")?;
    let path = op["path"].as_str().ok_or("no \"path\"")?;
    let value = op.get("value");
    if path.is_empty() {
        return match (kind, value) {
            ("replace" | "add", Some(v)) => {
                *doc = v.clone();
                Ok(())
            }
            _ => Err(format!("cannot {kind} the whole document")),
        };
    }
    let tokens: Vec<String> = path
        .strip_prefix('/')
        .ok_or("a path starts with '/'")?
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let (last, parents) = tokens.split_last().ok_or("an empty path")?;
    let mut at = doc;
    for t in parents {
        at = match at {
            Value::Object(m) => m.get_mut(t).ok_or_else(|| format!("no member {t}"))?,
            Value::Array(a) => {
                let i = index(t, a.len())?;
                &mut a[i]
            }
            _ => return Err(format!("{t}: not a container")),
        };
    }
    match (kind, at) {
        ("add" | "replace", Value::Object(m)) => {
            let v = value.ok_or("no \"value\"")?.clone();
            if kind == "replace" && !m.contains_key(last) {
                return Err(format!("no member {last} to replace"));
            }
            insert(m, last, v);
        }
        ("remove", Value::Object(m)) => {
            m.shift_remove(last)
                .ok_or_else(|| format!("no member {last}"))?;
        }
        ("add", Value::Array(a)) => {
            let v = value.ok_or("no \"value\"")?.clone();
            let i = if last == "-" {
                a.len()
            } else {
                index(last, a.len() + 1)?
            };
            a.insert(i, v);
        }
        ("replace", Value::Array(a)) => {
            let i = index(last, a.len())?;
            a[i] = value.ok_or("no \"value\"")?.clone();
        }
        ("remove", Value::Array(a)) => {
            let i = index(last, a.len())?;
            a.remove(i);
        }
        (k, _) => return Err(format!("unsupported operation {k} here")),
    }
    Ok(())
}

/// Sets a member, keeping its place when it exists (a new one goes last).
fn insert(m: &mut Map<String, Value>, k: &str, v: Value) {
    match m.get_mut(k) {
        Some(slot) => *slot = v,
        None => {
            m.insert(k.to_string(), v);
        }
    }
}

fn index(t: &str, bound: usize) -> Result<usize, String> {
    match t.parse::<usize>() {
        Ok(i) if i < bound && (t == "0" || !t.starts_with('0')) => Ok(i),
        _ => Err(format!("{t}: not an index below {bound}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(a: Value, b: Value) -> Value {
        let ops = diff(&a, &b);
        let mut doc = a;
        apply(&mut doc, &ops).unwrap_or_else(|e| panic!("{e}: {ops}"));
        assert_eq!(doc, b, "{ops}");
        ops
    }

    #[test]
    fn diffs_rebuild_the_new_value() {
        assert_eq!(round_trip(json!(1), json!(1)), json!([]));
        assert_eq!(
            round_trip(json!(1), json!("x")),
            json!([{"op":"replace","path":"","value":"x"}])
        );
        round_trip(json!({"a/b":1,"c~d":[1]}), json!({"a/b":2,"c~d":[1,2]}));
        round_trip(json!([1, 2, 3, 4, 5]), json!([1, 9, 9, 9, 5]));
        round_trip(json!([1, 2, 3, 4, 5]), json!([1, 5]));
        round_trip(json!([1, 5]), json!([1, 2, 3, 4, 5]));
        round_trip(json!([]), json!([[], {}, null]));
        round_trip(json!([1, 2, 1]), json!([1]));
        round_trip(
            json!({"a":{"b":[{"c":1}]}}),
            json!({"a":{"b":[{"c":2,"d":3}]}}),
        );
        round_trip(json!({"a":1,"b":null}), json!({"b":null,"x":{}}));
        round_trip(json!([[1, 2], [3]]), json!([[3], [1, 2]]));
    }

    /// A unit removed from the middle of a list costs one operation.
    #[test]
    fn a_removal_in_the_middle_is_one_operation() {
        let a: Vec<Value> = (0..100).map(|i| json!({"id": i})).collect();
        let mut b = a.clone();
        b.remove(40);
        let ops = round_trip(Value::Array(a.clone()), Value::Array(b));
        assert_eq!(ops, json!([{"op":"remove","path":"/40"}]));
        let mut c = a.clone();
        c.insert(7, json!("new"));
        let ops = round_trip(Value::Array(a), Value::Array(c));
        assert_eq!(ops, json!([{"op":"add","path":"/7","value":"new"}]));
    }

    #[test]
    fn bad_patches_are_errors() {
        let mut doc = json!({"a":[1]});
        for bad in [
            json!({}),
            json!([{"op":"move","path":"/a"}]),
            json!([{"op":"remove","path":"/b"}]),
            json!([{"op":"replace","path":"/a/1","value":0}]),
            json!([{"op":"replace","path":"/a/01","value":0}]),
            json!([{"op":"add","path":"a","value":0}]),
            json!([{"op":"add","path":"/a/0/x","value":0}]),
            json!([{"op":"add","path":"/a"}]),
        ] {
            assert!(apply(&mut doc.clone(), &bad).is_err(), "{bad}");
        }
        apply(&mut doc, &json!([{"op":"add","path":"/a/-","value":2}])).unwrap();
        assert_eq!(doc, json!({"a":[1,2]}));
    }
}
