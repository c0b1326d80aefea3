//! Fire & Movement's pending decision (`fm.Pending`) and log entries (`fm.LogEntry`).

use super::commands::command_obj;
use super::events::events_list;
use super::field::field;
use crate::convert::to_py;
use crate::errors::protocol_error;
use crate::typed::{cached, hash_of, pending_repr};
use fm_core::Pending;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::OnceLock;

/// The decision the game waits for: `kind` (`"setup"`, `"phase"`, `"support_fire"`,
/// `"choose_loss"`, `"retreat"`, `"advance"`, `"fire_support"`, `"game_over"`, ...),
/// `side`, and the kind's other fields as attributes.
#[pyclass(module = "fm", name = "Pending", frozen)]
pub struct PyPending {
    pub p: Pending,
    cache: OnceLock<Py<PyDict>>,
}

impl PyPending {
    pub fn new(p: Pending) -> PyPending {
        PyPending {
            p,
            cache: OnceLock::new(),
        }
    }
}

#[pymethods]
impl PyPending {
    /// The kind of decision.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.p)?;
        d.get_item("kind")?
            .ok_or_else(|| PyAttributeError::new_err("kind"))
    }

    /// Whose decision it is (`"a"` or `"b"`), `None` once the game is over.
    #[getter]
    fn side(&self) -> Option<String> {
        self.p.side().map(|s| s.to_string())
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.p)?;
        field(py, &d, "Pending", name)
    }

    /// The documented JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.p)?.copy()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        pending_repr(&cached(py, &self.cache, &self.p)?)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPending>() {
            Ok(o) => o.get().p == self.p,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.p)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_pending_from_json")?;
        let json = serde_json::to_string(&self.p).expect("a pending decision serializes");
        PyTuple::new(py, [f, PyTuple::new(py, [json])?.into_any()])
    }
}

/// One applied command, its events and the state hash after them. Immutable (a copy of
/// the match's record): entries compare equal when command, events and hash are equal,
/// and are hashable.
#[pyclass(module = "fm", name = "LogEntry", frozen)]
pub struct PyLogEntry {
    pub entry: fm_core::LogEntry,
}

#[pymethods]
impl PyLogEntry {
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

    /// `State.hash()` after the events.
    #[getter]
    fn hash(&self) -> u64 {
        self.entry.hash
    }

    /// `{"command", "events", "hash"}` as in a save file.
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
        match other.cast::<PyLogEntry>() {
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

#[pyfunction]
pub fn _pending_from_json(json: &str) -> PyResult<PyPending> {
    let p: fm_core::Pending = serde_json::from_value(super::strict_json(json, "pending JSON")?)
        .map_err(|e| protocol_error(format!("invalid pending JSON: {e}")))?;
    Ok(PyPending::new(p))
}
