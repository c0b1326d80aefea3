//! Huzzah!'s typed commands (`fm.huzzah.Command` and one subclass per variant:
//! `fm.huzzah.Fire`, ...) and how a command for a huzzah match is read from Python: a
//! typed command, a dict in its JSON form or JSON text, read by the match layer's own
//! strict reader.

use super::{field, snake, strict_text};
use crate::convert::{to_json_value, type_name};
use crate::errors::protocol_error;
use crate::system::foreign_command;
use crate::typed::{attr_names, cached, hash_of, repr_of};
use fm_core::huzzah::command::Command;
use fm_core::huzzah::Huzzah;
use fm_core::MatchError;
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3::PyClassInitializer;
use std::sync::OnceLock;

/// Reads a Huzzah! command's JSON value exactly as the match layer does.
pub fn command_from_value(v: &serde_json::Value) -> PyResult<Command> {
    fm_core::any::command_from_json::<Huzzah>(v).map_err(|e| match e {
        MatchError::Input(m) => protocol_error(m),
        other => protocol_error(other.to_string()),
    })
}

/// Reads a command for a huzzah match: an `fm.huzzah.Command`, a dict in the JSON form
/// or JSON text (a Fire & Movement `fm.Command` is refused, naming its system).
pub fn command_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Command> {
    if let Ok(c) = obj.cast::<PyHzCommand>() {
        return Ok(c.get().cmd.clone());
    }
    if let Some(e) = foreign_command(obj, &super::hooks::SYSTEM) {
        return Err(e);
    }
    if obj.is_instance_of::<PyDict>() {
        return command_from_value(&to_json_value(obj, "command").map_err(protocol_error)?);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return command_from_value(&strict_text(s.to_str()?, "command JSON")?);
    }
    Err(protocol_error(format!(
        "a Huzzah! command is an fm.huzzah.Command, a dict in its JSON form or JSON text, \
         not a {}",
        type_name(obj)
    )))
}

/// A command from a class's keyword arguments: `{"type": <tag>, **fields}`, `None`
/// values left out (an absent optional field). `TypeError` for a missing, unknown or
/// mistyped field, as Python gives for a call's arguments; `fm.ProtocolError` for a
/// value the field does not take.
fn command_from_kwargs(class: &str, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Command> {
    let mut m = serde_json::Map::new();
    m.insert("type".into(), snake(class).into());
    for (k, v) in fields.into_iter().flat_map(|f| f.iter()) {
        let k: String = k.extract()?;
        if k == "type" {
            return Err(PyTypeError::new_err(format!(
                "fm.huzzah.{class}() got an unexpected keyword argument 'type' (the class \
                 is the type)"
            )));
        }
        if v.is_none() {
            continue;
        }
        // A field named by a Python keyword takes a trailing underscore (`with_`).
        let k = k.strip_suffix('_').map(str::to_string).unwrap_or(k);
        let value = to_json_value(&v, &k).map_err(protocol_error)?;
        m.insert(k, value);
    }
    fm_core::any::command_from_json::<Huzzah>(&serde_json::Value::Object(m)).map_err(|e| {
        let msg = match e {
            MatchError::Input(m) => m,
            other => other.to_string(),
        };
        let msg = msg
            .strip_prefix("command JSON: ")
            .unwrap_or(&msg)
            .to_string();
        let argument = ["missing field", "unknown field", "invalid type"]
            .iter()
            .any(|p| msg.starts_with(p));
        if argument {
            PyTypeError::new_err(format!("fm.huzzah.{class}(): {msg}"))
        } else {
            protocol_error(format!("fm.huzzah.{class}(): {msg}"))
        }
    })
}

/// A Huzzah! player's decision (base class of `fm.huzzah.Fire`, `fm.huzzah.Advance`,
/// ...). Build one with a subclass and the JSON fields as keyword arguments
/// (`fm.huzzah.Fire(unit="fr-1", target="br-1")`) or from its JSON form
/// (`fm.huzzah.Command.from_dict({"type": "end_phase"})`). Attributes are the JSON
/// fields (an optional field left out of the JSON reads `None`).
#[pyclass(module = "fm.huzzah", name = "Command", subclass, frozen)]
pub struct PyHzCommand {
    pub cmd: Command,
    cache: OnceLock<Py<PyDict>>,
}

impl PyHzCommand {
    pub fn new(cmd: Command) -> PyHzCommand {
        PyHzCommand {
            cmd,
            cache: OnceLock::new(),
        }
    }
}

#[pymethods]
impl PyHzCommand {
    /// Parses a command from its JSON form: a dict, or JSON text.
    #[staticmethod]
    fn from_dict<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        command_obj(py, &command_from_py(data)?)
    }

    /// The command's `type` (`"fire"`, `"advance"`, ...).
    #[getter]
    fn r#type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.cmd)?;
        d.get_item("type")?
            .ok_or_else(|| PyAttributeError::new_err("type"))
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.cmd)?;
        field(py, &d, "type", command_optional(&self.cmd), "Command", name)
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.cmd)?.copy()
    }

    /// The JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.cmd).expect("a command serializes")
    }

    /// The names of the fields the JSON form holds.
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached(py, &self.cache, &self.cmd)?, "type")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_of(&cached(py, &self.cache, &self.cmd)?, "type")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHzCommand>() {
            Ok(o) => o.get().cmd == self.cmd,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.cmd)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_hz_command_from_json")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_json()])?.into_any()])
    }
}

/// One class per `Command` variant: `Variant [optional fields] "signature" "doc";`. The
/// class is named by the variant, its JSON tag is the name in snake case; the optional
/// fields are those the JSON leaves out when they have no value (they read `None`). The
/// constructor takes the JSON fields as keyword arguments (`**fields`, read by serde);
/// the signature, what `inspect` and `help()` show, names them as the stubs do
/// (`tests/test_packaging.py` checks the two agree).
macro_rules! command_classes {
    ($( $v:ident [$($opt:ident),*] $sig:literal $doc:literal; )*) => {
        $(
            #[doc = $doc]
            #[pyclass(module = "fm.huzzah", extends = PyHzCommand, frozen)]
            pub struct $v;
            #[pymethods]
            impl $v {
                #[new]
                #[pyo3(signature = (**fields), text_signature = $sig)]
                fn new(fields: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
                    let c = command_from_kwargs(stringify!($v), fields)?;
                    Ok(PyClassInitializer::from(PyHzCommand::new(c)).add_subclass($v))
                }
            }
        )*

        /// A typed command object (the base class for a variant without a class).
        pub fn command_obj<'py>(py: Python<'py>, c: &Command) -> PyResult<Bound<'py, PyAny>> {
            let base = PyClassInitializer::from(PyHzCommand::new(c.clone()));
            #[allow(unreachable_patterns)]
            let obj = match c {
                $( Command::$v { .. } => Bound::new(py, base.add_subclass($v))?.into_any(), )*
                _ => Bound::new(py, base)?.into_any(),
            };
            Ok(obj)
        }

        /// The fields of a command that its JSON leaves out when they have no value.
        fn command_optional(c: &Command) -> &'static [&'static str] {
            #[allow(unreachable_patterns)]
            match c {
                $( Command::$v { .. } => &[$(stringify!($opt)),*], )*
                _ => &[],
            }
        }

        /// Adds the command classes to a module.
        pub fn add_command_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add_class::<PyHzCommand>()?;
            $( m.add_class::<$v>()?; )*
            Ok(())
        }
    };
}

command_classes! {
    PlaceUnit [] "(*, unit)" "`place_unit`: place a unit, at its scenario position (page 7).";
    EndPlacement [] "()" "`end_placement`: end this placement roll's placing (page 7).";
    PlaceOfficer [at] "(*, officer, at=None)" "`place_officer`: place an officer at `at` (`[x_mm, y_mm]`; absent: his scenario or default position) (page 8).";
    Fire [bases] "(*, unit, target, bases=None)" "`fire`: declare a unit's target; `bases`: fire with only these (indices rank by rank from the front, left to right) (pages 11-12).";
    HoldFire [] "(*, unit)" "`hold_fire`: a unit that could fire does not (page 11).";
    RemoveBase [] "(*, unit, rank, kind)" "`remove_base`: remove a base of `kind` from `rank` (0 = front) (page 12).";
    Order [] "(*, officer, group, order)" "`order`: an officer orders a group (`{\"unit\": id}`, `{\"division\": id}` or `{\"corps\": id}`) to `advance`, `retire`, `deploy` or manoeuvre (pages 16-18).";
    Advance [] "(*, unit, distance_mm, drift_mm=0)" "`advance`: a unit of the order advances `distance_mm` straight ahead, then drifts `drift_mm` to its right (negative: left) (page 19).";
    Charge [offset_mm] "(*, unit, target, offset_mm=None)" "`charge`: a unit of an advance order charges `target`; `offset_mm`: where the overlap goes along the face charged (page 20).";
    Deploy [] "(*, unit, formation, ranks, anchor=0, anchor_to=0)" "`deploy`: a unit of a deploy order changes `formation` to `ranks`; base `anchor` stays and becomes base `anchor_to` (page 21).";
    Retire [] "(*, unit, distance_mm)" "`retire`: a unit of the order retires `distance_mm` straight back (page 20).";
    MeleeResult [] "(*, a, b, winner=None, hits_a, hits_b, loser_falls_back_mm=0, loser_routs=False)" "`melee_result`: a melee's outcome, given because the rules are missing: `winner` (`None`: drawn), `hits_a`, `hits_b`, `loser_falls_back_mm`, `loser_routs`.";
    Rally [] "(*, unit, rallies)" "`rally`: whether a disordered or routing unit rallies one step (the rules are missing).";
    MoveOfficer [attach] "(*, officer, at, attach=None)" "`move_officer`: an officer moves to `at` (`[x_mm, y_mm]`), up to his move, and may `attach` to a unit he ends touching.";
    SkirmishLine [] "(*, unit, bases)" "`skirmish_line`: a unit with a Skirmish ability deploys `bases` into the skirmish line (page 22).";
    JoinBattery [] "(*, unit, battery, left=False)" "`join_battery`: reserve artillery joins `battery`, at its `left` end or its right (page 22).";
    EnterSector [at] "(*, unit, sector, at=None)" "`enter_sector`: a unit deploys into a sector of dense terrain it touches (`\"<terrain id>/<n>\"`), its centre at `at` or the sector's centre (page 22).";
    LeaveSector [] "(*, unit, direction)" "`leave_sector`: a unit deploys out of its sector, `direction` ahead, back, left or right (page 22).";
    AdvanceSector [] "(*, unit, sector)" "`advance_sector`: a unit in dense terrain advances into an adjacent sector, or engages its enemy holder (page 19).";
    PassageOfLines [] "(*, unit, with_)" "`passage_of_lines`: `unit` and `with`, on one deploy order, exchange places (page 22).";
    Manoeuvre [] "(*, unit, anchor, facing)" "`manoeuvre`: a unit's new `anchor` and `facing`, formation kept (the rules are missing; the written limits apply).";
    Appoint [quality, at] "(*, officer, quality=None, inspirational=False, at=None)" "`appoint`: the CinC appoints a successor to `officer`, lost in an earlier turn; `quality` and `inspirational` as stated (decide) or the stand-in's (page 16).";
    EndOrder [] "()" "`end_order`: end the order being acted on; units that have not acted stay.";
    EndPhase [] "()" "`end_phase`: end the phase (Orders, Rally, Move Officers).";
}

#[pyfunction]
pub fn _hz_command_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    command_obj(
        py,
        &command_from_value(&strict_text(json, "command JSON")?)?,
    )
}
