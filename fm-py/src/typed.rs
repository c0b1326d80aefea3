//! What the typed Python objects of every system share (commands, events, pending
//! decisions, log entries: `crate::fm`'s and `crate::huzzah`'s): each wraps the fm-core
//! value, its attributes read the value's JSON form, converted to a dict on first
//! access and cached ([`cached`]; [`cached_typed`] with a system's typed objects for the
//! values inside it); `repr` and `fields()` name the fields as attributes (`from` as
//! `from_`).

use crate::convert::{to_py, to_py_typed, Typed};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::OnceLock;

/// `snake_case` → `CamelCase`.
fn camel(tag: &str) -> String {
    tag.split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// The cached dict of a wrapped value.
pub fn cached<'py, T: serde::Serialize>(
    py: Python<'py>,
    cache: &OnceLock<Py<PyDict>>,
    v: &T,
) -> PyResult<Bound<'py, PyDict>> {
    if let Some(d) = cache.get() {
        return Ok(d.bind(py).clone());
    }
    let d = to_py(py, v)?.cast_into::<PyDict>()?;
    let _ = cache.set(d.clone().unbind());
    Ok(d)
}

/// The cached dict of a wrapped value's fields as its attributes: [`cached`], with the
/// system's typed objects for the values inside it ([`to_py_typed`]).
pub fn cached_typed<'py, T: serde::Serialize>(
    py: Python<'py>,
    cache: &OnceLock<Py<PyDict>>,
    v: &T,
    typed: &'static dyn Typed,
) -> PyResult<Bound<'py, PyDict>> {
    if let Some(d) = cache.get() {
        return Ok(d.bind(py).clone());
    }
    let d = to_py_typed(py, v, typed)?.cast_into::<PyDict>()?;
    let _ = cache.set(d.clone().unbind());
    Ok(d)
}

/// The JSON form of a wrapped value, as a new dict (`to_dict()`).
pub fn plain_dict<'py, T: serde::Serialize>(
    py: Python<'py>,
    v: &T,
) -> PyResult<Bound<'py, PyDict>> {
    Ok(to_py(py, v)?.cast_into::<PyDict>()?)
}

/// `Name(a=…, b=…)` from a dict, skipping the tag.
pub fn repr_of(d: &Bound<'_, PyDict>, tag_key: &str) -> PyResult<String> {
    let tag: String = match d.get_item(tag_key)? {
        Some(t) => t.extract()?,
        None => String::new(),
    };
    let mut parts = Vec::new();
    for (k, v) in d.iter() {
        let k: String = k.extract()?;
        if k == tag_key {
            continue;
        }
        let name = if is_py_keyword(&k) {
            format!("{k}_")
        } else {
            k
        };
        parts.push(format!("{name}={}", v.repr()?.to_str()?));
    }
    Ok(format!("{}({})", camel(&tag), parts.join(", ")))
}

/// A JSON field name that is a Python keyword (or shadows `type`): its attribute and
/// keyword argument take a trailing underscore (`from_`, `with_`).
pub fn is_py_keyword(k: &str) -> bool {
    matches!(k, "from" | "type" | "in" | "is" | "with")
}

/// The attribute names of a value's fields (the tag left out, `from` as `from_`).
pub fn attr_names(d: &Bound<'_, PyDict>, tag_key: &str) -> PyResult<Vec<String>> {
    let mut out = Vec::new();
    for k in d.keys() {
        let k: String = k.extract()?;
        if k != tag_key {
            out.push(if is_py_keyword(&k) {
                format!("{k}_")
            } else {
                k
            });
        }
    }
    Ok(out)
}

/// `repr` of a pending decision: `Pending(kind=…, side=…, …)`, every field of its dict.
pub fn pending_repr(d: &Bound<'_, PyDict>) -> PyResult<String> {
    let mut parts = Vec::new();
    for (k, v) in d.iter() {
        parts.push(format!(
            "{}={}",
            k.extract::<String>()?,
            v.repr()?.to_str()?
        ));
    }
    Ok(format!("Pending({})", parts.join(", ")))
}

/// The hash of a value, for `__hash__` (std's `DefaultHasher`, as `hash()` of equal
/// values must agree within a process only).
pub fn hash_of<T: std::hash::Hash + ?Sized>(v: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}
