//! Huzzah!'s pending decision (`fm.huzzah.Pending`, one subclass per kind in
//! `fm.huzzah.pending`) and log entries (`fm.huzzah.LogEntry`).

use super::commands::command_obj;
use super::events::events_list;
use super::values::TYPED;
use super::{field, strict_text, HzMatch};
use crate::convert::to_py;
use crate::errors::protocol_error;
use crate::typed::{attr_names, cached_typed, hash_of, pending_repr, plain_dict};
use fm_core::huzzah::state::Pending;
use fm_core::huzzah::Huzzah;
use fm_core::LogEntryOf;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::PyClassInitializer;
use std::sync::OnceLock;

/// The decision a Huzzah! battle waits for (base class of the classes in
/// `fm.huzzah.pending`, one a kind): `kind` (`"place_units"`, `"place_officer"`,
/// `"declare_fire"`, `"fire_at_charger"`, `"remove_base"`, `"orders"`, `"act"`,
/// `"melee"`, `"rally"`, `"move_officers"`, `"game_over"`), `side`, and the kind's other
/// fields as attributes (units by their scenario ids).
#[pyclass(module = "fm.huzzah", name = "Pending", subclass, frozen)]
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
        let d = cached_typed(py, &self.cache, &self.p, &TYPED)?;
        d.get_item("kind")?
            .ok_or_else(|| PyAttributeError::new_err("kind"))
    }

    /// Whose decision it is (`"a"` or `"b"`), `None` once the battle is over.
    #[getter]
    fn side(&self) -> Option<String> {
        self.p.side().map(|s| s.to_string())
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached_typed(py, &self.cache, &self.p, &TYPED)?;
        field(py, &d, "kind", &[], "Pending", name)
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        plain_dict(py, &self.p)
    }

    /// The JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.p).expect("a pending decision serializes")
    }

    /// The names of the kind's fields (`kind` left out).
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached_typed(py, &self.cache, &self.p, &TYPED)?, "kind")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        pending_repr(&cached_typed(py, &self.cache, &self.p, &TYPED)?)
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
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_json()])?.into_any()])
    }
}

/// One class per `Pending` variant, in `fm.huzzah.pending`: `Variant "doc";`, named by
/// the variant (its `kind` in snake case). No constructor: decisions come from the
/// engine, or `_hz_pending_from_json`.
macro_rules! pending_classes {
    ($( $v:ident $doc:literal; )*) => {
        $(
            #[doc = $doc]
            #[pyclass(module = "fm.huzzah.pending", extends = PyHzPending, frozen)]
            pub struct $v;
        )*

        /// A typed pending decision.
        pub fn pending_obj<'py>(py: Python<'py>, p: &Pending) -> PyResult<Bound<'py, PyAny>> {
            let base = PyClassInitializer::from(PyHzPending::new(p.clone()));
            Ok(match p {
                $( Pending::$v { .. } => Bound::new(py, base.add_subclass($v))?.into_any(), )*
            })
        }

        /// Adds the pending classes to a module.
        pub fn add_pending_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_class::<$v>()?; )*
            Ok(())
        }
    };
}

pending_classes! {
    PlaceUnits "`place_units`: `side` places from `min` to `max` units on this placement roll, `placed` so far (page 7).";
    PlaceOfficer "`place_officer`: `side` places an officer (page 8).";
    DeclareFire "`declare_fire`: `side` declares a target, or holds fire, for each of `units` (page 11).";
    RemoveBase "`remove_base`: `side` chooses which base `unit` loses to its `hits` (page 12).";
    FireAtCharger "`fire_at_charger`: `unit`, charged by several `chargers`, chooses the one it fires at (page 13).";
    Orders "`orders`: the phasing `side` gives an order or ends the phase (pages 16-18).";
    Act "`act`: `units` act on the successful `order`, one at a time (pages 19-22).";
    Melee "`melee`: the melee of `a` (side A's) and `b` (side B's) to resolve, the rules being missing.";
    Rally "`rally`: which of `units` rally, the rules being missing.";
    MoveOfficers "`move_officers`: `side` moves its officers, the rules being missing (bar the 60 cm move).";
    Opening "`opening`: the battle has not opened; its opening rolls (page 7) wait for their chance outcomes (explicit chance mode only).";
    GameOver "`game_over`: the battle is over; `winner` (`None`: a draw).";
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
pub fn _hz_pending_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let p: Pending = serde_json::from_value(strict_text(json, "pending JSON")?)
        .map_err(|e| protocol_error(format!("invalid pending JSON: {e}")))?;
    pending_obj(py, &p)
}
