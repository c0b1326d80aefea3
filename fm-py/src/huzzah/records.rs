//! Huzzah!'s pending decision (`fm.huzzah.Pending`) and log entries
//! (`fm.huzzah.LogEntry`).

use super::commands::command_obj;
use super::events::events_list;
use super::{field, strict_text, HzMatch};
use crate::convert::to_py;
use crate::errors::protocol_error;
use crate::typed::{attr_names, cached, hash_of, pending_repr};
use fm_core::huzzah::state::Pending;
use fm_core::huzzah::Huzzah;
use fm_core::LogEntryOf;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::OnceLock;

/// The decision a Huzzah! battle waits for: `kind` (`"place_units"`, `"place_officer"`,
/// `"declare_fire"`, `"fire_at_charger"`, `"remove_base"`, `"orders"`, `"act"`,
/// `"melee"`, `"rally"`, `"move_officers"`, `"game_over"`), `side`, and the kind's other
/// fields as attributes (units by index in the scenario).
#[pyclass(module = "fm.huzzah", name = "Pending", frozen)]
pub struct PyHzPending {
    pub p: Pending,
    cache: OnceLock<Py<PyDict>>,
}

impl PyHzPending {
    pub fn new(p: Pending) -> PyHzPending {
        PyHzPending {
            p,
            cache: OnceLock::new(),
        }
    }
}

#[pymethods]
impl PyHzPending {
    /// The kind of decision.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.p)?;
        d.get_item("kind")?
            .ok_or_else(|| PyAttributeError::new_err("kind"))
    }

    /// Whose decision it is (`"a"` or `"b"`), `None` once the battle is over.
    #[getter]
    fn side(&self) -> Option<String> {
        self.p.side().map(|s| s.to_string())
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.p)?;
        field(py, &d, "kind", &[], "Pending", name)
    }

    /// The JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.p)?.copy()
    }

    /// The names of the kind's fields (`kind` left out).
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached(py, &self.cache, &self.p)?, "kind")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        pending_repr(&cached(py, &self.cache, &self.p)?)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHzPending>() {
            Ok(o) => o.get().p == self.p,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.p)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_hz_pending_from_json")?;
        let json = serde_json::to_string(&self.p).expect("a pending decision serializes");
        PyTuple::new(py, [f, PyTuple::new(py, [json])?.into_any()])
    }
}

/// One applied Huzzah! command, its events and the state hash after them. Immutable (a
/// copy of the match's record): entries compare equal when command, events and hash are
/// equal, and are hashable.
#[pyclass(module = "fm.huzzah", name = "LogEntry", frozen)]
pub struct PyHzLogEntry {
    pub entry: LogEntryOf<Huzzah>,
}

#[pymethods]
impl PyHzLogEntry {
    /// The command.
    #[getter]
    fn command<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        command_obj(py, &self.entry.command)
    }

    /// Its events.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        events_list(py, &self.entry.events)
    }

    /// The state hash after the events.
    #[getter]
    fn hash(&self) -> u64 {
        self.entry.hash
    }

    /// `{"command", "events", "hash"}` as in a save file (the hash as 16 hex digits).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.entry)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let c = command_obj(py, &self.entry.command)?;
        Ok(format!(
            "LogEntry(command={}, events={}, hash='{:016x}')",
            c.repr()?.to_str()?,
            self.entry.events.len(),
            self.entry.hash
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHzLogEntry>() {
            Ok(o) => o.get().entry == self.entry,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&(&self.entry.command, &self.entry.events, self.entry.hash))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = PyTuple::new(
            py,
            [
                command_obj(py, &self.entry.command)?,
                events_list(py, &self.entry.events)?.into_any(),
            ],
        )?;
        t.try_iter().map(|i| i.into_any())
    }
}

/// The log of a huzzah match as `fm.huzzah.LogEntry`s.
pub fn log_list<'py>(py: Python<'py>, m: &HzMatch) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(m.log().len());
    for e in m.log() {
        v.push(Bound::new(py, PyHzLogEntry { entry: e.clone() })?);
    }
    PyList::new(py, v)
}

#[pyfunction]
pub fn _hz_pending_from_json(json: &str) -> PyResult<PyHzPending> {
    let p: Pending = serde_json::from_value(strict_text(json, "pending JSON")?)
        .map_err(|e| protocol_error(format!("invalid pending JSON: {e}")))?;
    Ok(PyHzPending::new(p))
}
