//! Fire & Movement's bindings: the typed objects of `fm` (`fm.Scenario`, `fm.Command`
//! and its subclasses, `fm.events`, `fm.Pending`, `fm.LogEntry`), the extras of
//! `fm.Match` for a Fire & Movement match ([`SYSTEM`], the
//! [`PySystem`](crate::system::PySystem) hooks: the typed fast paths, the board picture,
//! odds, observations...), and the module's Fire & Movement functions (`fm.command`,
//! the pickling helpers, the benchmark helpers).
//!
//! It reaches the match through the neutral layer's interface (`crate::system`), and
//! names no other system.

mod bench;
mod commands;
mod events;
mod field;
mod hooks;
mod picture;
mod queries;
mod records;
mod scenario;

pub use hooks::SYSTEM;

use crate::args::{as_int, int_text, not_an_int};
use crate::convert::check_text_size;
use crate::errors::protocol_error;
use fm_core::any::DynMatch;
use fm_core::{Scenario, Side};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// The Fire & Movement match behind a `DynMatch`, if it is one.
fn fm_match(m: &dyn DynMatch) -> Option<&fm_core::Match> {
    m.as_any().downcast_ref::<fm_core::Match>()
}

/// [`fm_match`], mutable.
fn fm_match_mut(m: &mut dyn DynMatch) -> Option<&mut fm_core::Match> {
    m.as_any_mut().downcast_mut::<fm_core::Match>()
}

/// The scenario's names of sides a and b, which side arguments may also give.
fn side_names(sc: &Scenario) -> [&str; 2] {
    [sc.side_name(Side::A), sc.side_name(Side::B)]
}

/// JSON text given to Python, read strictly (duplicate keys refused, size bounded).
fn strict_json(json: &str, what: &str) -> PyResult<serde_json::Value> {
    check_text_size(json.len(), what).map_err(protocol_error)?;
    fm_core::json::parse_strict(json).map_err(|e| protocol_error(format!("invalid {what}: {e}")))
}

/// A marker count, 0 to 255 (`fm.ProtocolError` outside, as for a command's dict form;
/// the rules decide which counts are legal).
fn markers_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    let i = as_int(obj).ok_or_else(|| not_an_int(obj, what))?;
    i.extract::<u8>().map_err(|_| {
        protocol_error(format!(
            "{what}: {} is not a marker count (0 to 255)",
            int_text(&i)
        ))
    })
}

/// Adds Fire & Movement's classes, functions, `events` submodule and `FEATURE_NAMES`
/// to the module.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(bench::_bench_rust_apply, m)?)?;
    m.add_function(wrap_pyfunction!(bench::_bench_rust_legal, m)?)?;
    m.add_function(wrap_pyfunction!(commands::_command_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(events::_event_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(records::_pending_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(commands::command, m)?)?;
    m.add_class::<scenario::PyScenario>()?;
    m.add_class::<records::PyPending>()?;
    m.add_class::<records::PyLogEntry>()?;
    commands::add_classes(m)?;
    let ev = PyModule::new(py, "events")?;
    events::add_event_classes(&ev)?;
    m.add("events", ev)?;
    let names = PyList::new(py, fm_core::observation::feature_names())?;
    m.add("FEATURE_NAMES", names)?;
    Ok(())
}
