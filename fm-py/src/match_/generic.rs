//! The match layer's JSON forms as Python values: what `fm.Match` gives for a system
//! whose bindings have no typed form of a thing (commands in as dicts, JSON text or any
//! system's typed command; events, results, records and the repr from the layer's
//! JSON).

use crate::convert::{check_text_size, strip_bom, to_json_value, to_py, type_name};
use crate::errors::{match_error, protocol_error, rule_error};
use crate::system::{self, Records};
use fm_core::any::DynMatch;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// A command for a match of any system, as JSON data: a dict, JSON text (read
/// strictly), or a typed command of any system (its JSON form, which another system
/// refuses).
pub fn command_value(obj: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    if let Some(v) = system::all().iter().find_map(|s| s.command_json(obj)) {
        return Ok(v);
    }
    if obj.is_instance_of::<PyDict>() {
        return to_json_value(obj, "command").map_err(protocol_error);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        check_text_size(s.len(), "command JSON").map_err(protocol_error)?;
        return fm_core::json::parse_strict(strip_bom(s))
            .map_err(|e| protocol_error(format!("invalid command JSON: {e}")));
    }
    Err(protocol_error(format!(
        "a command is a dict in the rules system's JSON form or JSON text, not a {}",
        type_name(obj)
    )))
}

/// Applies a command given as JSON data; its events as dicts.
pub fn apply<'py>(
    py: Python<'py>,
    m: &mut dyn DynMatch,
    command: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = command_value(command)?;
    let events = m.apply_json(&v).map_err(|e| match_error(&e))?;
    to_py(py, &events)
}

/// Applies the command with an action index; its events as dicts.
pub fn apply_index<'py>(
    py: Python<'py>,
    m: &mut dyn DynMatch,
    index: usize,
) -> PyResult<Bound<'py, PyAny>> {
    m.apply_index(index).map_err(|e| rule_error(&e))?;
    to_py(py, &m.last_events_json(None))
}

/// Resolves the pending draw; the events as dicts.
pub fn apply_chance<'py>(
    py: Python<'py>,
    m: &mut dyn DynMatch,
    outcome: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let events = m.apply_chance(outcome).map_err(|e| rule_error(&e))?;
    to_py(py, &events)
}

/// `None` while playing; then `{"winner": "a" | "b" | None, "reason": str}`.
pub fn result<'py>(py: Python<'py>, m: &dyn DynMatch) -> PyResult<Bound<'py, PyAny>> {
    match m.outcome() {
        None => Ok(py.None().into_bound(py)),
        Some((winner, reason)) => {
            let d = PyDict::new(py);
            d.set_item("winner", winner.map(|s| s.to_string()))?;
            d.set_item("reason", reason)?;
            Ok(d.into_any())
        }
    }
}

/// The log (dicts `{"command", "events", "hash"}` as in a save file), the opening
/// events, or every event so far, as dicts.
pub fn records<'py>(
    py: Python<'py>,
    m: &dyn DynMatch,
    which: Records,
) -> PyResult<Bound<'py, PyList>> {
    match which {
        Records::Log => Ok(to_py(py, &m.log_json(0))?.cast_into::<PyList>()?),
        Records::Opening => Ok(to_py(py, &m.opening_events_json())?.cast_into::<PyList>()?),
        Records::All => {
            let mut all: Vec<serde_json::Value> = match m.opening_events_json() {
                serde_json::Value::Array(a) => a,
                _ => Vec::new(),
            };
            if let serde_json::Value::Array(log) = m.log_json(0) {
                for mut entry in log {
                    if let Some(serde_json::Value::Array(ev)) =
                        entry.get_mut("events").map(std::mem::take)
                    {
                        all.extend(ev);
                    }
                }
            }
            Ok(to_py(py, &all)?.cast_into::<PyList>()?)
        }
    }
}

/// `repr(match)` from what the layer knows (its scenario's id, if it has one).
pub fn repr(m: &dyn DynMatch) -> String {
    let sc = m.scenario_json();
    let id = sc.get("id").and_then(|v| v.as_str()).unwrap_or("?");
    let status = match m.outcome() {
        Some((Some(w), _)) => format!("over, {w} won"),
        Some((None, _)) => "over, a draw".to_string(),
        None => match m.decider() {
            Some(s) => format!("waiting for {s}"),
            None => "waiting".to_string(),
        },
    };
    format!(
        "<fm.Match {id} ({}) seed={}: {status}; {} command(s)>",
        m.system(),
        m.seed(),
        m.log_len()
    )
}
