//! Huzzah! Glorious Empires' bindings: the typed objects of `fm.huzzah` (commands,
//! events, the pending decision and log entries of a huzzah match, built as the Fire &
//! Movement ones in `crate::fm` are), the extras of `fm.Match` for a huzzah match
//! ([`SYSTEM`], the [`PySystem`](crate::system::PySystem) hooks: the typed objects and
//! the table picture), and the pickling helpers. It reaches the match through the
//! neutral layer's interface (`crate::system`), and names no other system.
//!
//! Each object wraps the fm-core value (`fm_core::huzzah::command::Command`,
//! `event::Event`, `state::Pending`); attributes are its JSON fields (computed on first
//! access and cached; in events and decisions the values inside are typed objects too,
//! `values.rs`: a point, a shape, a test, the decision of an `awaiting`), `to_dict()` is
//! its JSON form, `repr` is readable, and equality and hashing are the Rust values'.
//!
//! One Python class per variant, named by the variant (`Command::Fire` →
//! `fm.huzzah.Fire`, JSON `"fire"`), so `isinstance` works. A variant these bindings have
//! no class for yet comes back as the base class (`fm.huzzah.Command`,
//! `fm.huzzah.events.Event`) with all its fields: **a new variant needs one line** in
//! `command_classes!` (`commands.rs`) or `event_classes!` (`events.rs`) (and its stub in
//! `python/fm/huzzah/*.pyi`); `fm-py/tests/test_huzzah.py` lists the engine's variants
//! (`_variant_tags`) and names any without a class. Command constructors take the JSON
//! fields as keyword arguments, read by the match layer's own strict reader
//! (`fm_core::any::command_from_json`), so a new variant's constructor needs no code.

mod commands;
mod events;
mod hooks;
mod picture;
mod records;
mod values;

pub use hooks::SYSTEM;

use crate::convert::{check_text_size, strip_bom};
use crate::errors::protocol_error;
use fm_core::huzzah::command::Command;
use fm_core::huzzah::event::Event;
use fm_core::huzzah::state::Pending;
use fm_core::huzzah::Huzzah;
use fm_core::GameMatch;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A match of Huzzah!, as the match layer holds it.
pub type HzMatch = GameMatch<Huzzah>;

/// `CamelCase` → `snake_case`: a class's JSON tag.
fn snake(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

/// A field by attribute name (`x_` reads `x`); `None` for a field in `optional` that the
/// JSON leaves out when it has no value.
fn field<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    tag_key: &str,
    optional: &[&str],
    owner: &str,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let key = name.strip_suffix('_').unwrap_or(name);
    if key != tag_key {
        if let Some(v) = d.get_item(key)? {
            return Ok(v);
        }
        if optional.contains(&key) {
            return Ok(py.None().into_bound(py));
        }
    }
    Err(PyAttributeError::new_err(format!(
        "'{owner}' object has no attribute '{name}'"
    )))
}

/// JSON text read strictly (duplicate keys refused, size bounded).
fn strict_text(s: &str, what: &str) -> PyResult<serde_json::Value> {
    check_text_size(s.len(), what).map_err(protocol_error)?;
    fm_core::json::parse_strict(strip_bom(s))
        .map_err(|e| protocol_error(format!("invalid {what}: {e}")))
}

/// The names of an enum's variants (their JSON tags), from serde's refusal of an
/// unknown one ("unknown variant `…`, expected one of `a`, `b`"). For the test that
/// every variant has a class; empty if serde ever words it otherwise.
fn variant_tags<T: serde::de::DeserializeOwned>(tag_key: &str) -> Vec<String> {
    let mut probe = serde_json::Map::new();
    probe.insert(tag_key.into(), "\u{1}".into());
    let Err(e) = serde_json::from_value::<T>(serde_json::Value::Object(probe)) else {
        return Vec::new();
    };
    let msg = e.to_string();
    let Some((_, list)) = msg.split_once("expected ") else {
        return Vec::new();
    };
    let list = list.strip_prefix("one of ").unwrap_or(list);
    list.split(", ")
        .filter_map(|t| t.strip_prefix('`')?.strip_suffix('`').map(str::to_string))
        .collect()
}

/// The JSON tags of every Huzzah! command, event and pending decision the engine has:
/// `{"commands": [...], "events": [...], "pending": [...]}` (for tests: each should have a
/// class).
#[pyfunction]
pub fn _variant_tags<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("commands", variant_tags::<Command>("type"))?;
    d.set_item("events", variant_tags::<Event>("type"))?;
    d.set_item("pending", variant_tags::<Pending>("kind"))?;
    Ok(d)
}

/// The `fm._fm.huzzah` module (re-exported by the pure-Python `fm.huzzah`), with its
/// `events` (events and the values inside them) and `pending` (one class a kind of
/// decision) submodules.
fn module<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyModule>> {
    let m = PyModule::new(py, "huzzah")?;
    commands::add_command_classes(&m)?;
    m.add_class::<records::PyHzPending>()?;
    m.add_class::<records::PyHzLogEntry>()?;
    m.add_function(wrap_pyfunction!(_variant_tags, &m)?)?;
    let ev = PyModule::new(py, "events")?;
    events::add_event_classes(&ev)?;
    values::add_value_classes(&ev)?;
    m.add("events", ev)?;
    let pending = PyModule::new(py, "pending")?;
    records::add_pending_classes(&pending)?;
    m.add("pending", pending)?;
    Ok(m)
}

/// Adds the `huzzah` submodule and Huzzah!'s pickling helpers to the module.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("huzzah", module(m.py())?)?;
    m.add_function(wrap_pyfunction!(commands::_hz_command_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(events::_hz_event_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(records::_hz_pending_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(values::_hz_value_from_json, m)?)?;
    Ok(())
}
