//! Fire & Movement's typed commands (`fm.Command` and one subclass per variant:
//! `fm.Move`, `fm.Attack`, ...) and how a command for a Fire & Movement match is read
//! from Python: a typed command, a dict in the documented JSON form (a fast path by
//! direct extraction, serde as the fallback that reports malformed input), or JSON text.

use super::field::field;
use super::markers_arg;
use crate::args::str_list;
use crate::convert::{check_text_size, strip_bom, to_json_value, type_name};
use crate::errors::protocol_error;
use crate::system::foreign_command;
use crate::typed::{attr_names, cached, hash_of, repr_of};
use fm_core::{Command, Hex, UnitId};
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::{intern, PyClassInitializer};
use std::sync::OnceLock;

/// A player's decision (base class of `fm.Move`, `fm.Attack`, ...).
///
/// Build one with a subclass (`fm.Move("blue-1", ["0203", "0204"])`) or from its JSON
/// form (`fm.Command.from_dict({"type": "done"})`). Attributes are the JSON fields.
#[pyclass(module = "fm", name = "Command", subclass, frozen)]
pub struct PyCommand {
    pub cmd: Command,
    cache: OnceLock<Py<PyDict>>,
}

impl PyCommand {
    pub fn new(cmd: Command) -> PyCommand {
        PyCommand {
            cmd,
            cache: OnceLock::new(),
        }
    }
}

#[pymethods]
impl PyCommand {
    /// Parses a command from its JSON form: a dict, or JSON text.
    #[staticmethod]
    fn from_dict<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let c = command_from_py(data)?;
        command_obj(py, &c)
    }

    /// The command's `type` (`"move"`, `"attack"`, ...).
    #[getter]
    fn r#type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.cmd)?;
        d.get_item("type")?
            .ok_or_else(|| PyAttributeError::new_err("type"))
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.cmd)?;
        field(py, &d, "Command", name)
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The documented JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.cmd)?.copy()
    }

    /// The documented JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.cmd).expect("a command serializes")
    }

    /// The names of the command's fields.
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached(py, &self.cache, &self.cmd)?, "type")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_of(&cached(py, &self.cache, &self.cmd)?, "type")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyCommand>() {
            Ok(o) => o.get().cmd == self.cmd,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.cmd)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_command_from_json")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_json()])?.into_any()])
    }
}

fn hex_arg(s: &str, what: &str) -> PyResult<Hex> {
    s.parse()
        .map_err(|e: fm_core::HexParseError| protocol_error(format!("{what}: {e}")))
}

/// A list of hex ids (`TypeError` for a bare str, which would be a list of
/// characters, or anything but a list or tuple of str; `fm.ProtocolError` for a
/// malformed id).
fn hexes_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Hex>> {
    str_list(obj, what, "hex id")?
        .iter()
        .map(|s| hex_arg(s, what))
        .collect()
}

/// A list of unit ids (`TypeError` for a bare str or anything but a list or tuple of
/// str).
fn units_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<UnitId>> {
    Ok(str_list(obj, what, "unit id")?
        .iter()
        .map(|u| UnitId::new(u))
        .collect())
}

/// `place`: put a unit in its set-up zone (3.0).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Place;
#[pymethods]
impl Place {
    #[new]
    fn new(unit: &str, hex: &str) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Place {
            unit: UnitId::new(unit),
            hex: hex_arg(hex, "hex")?,
        }))
        .add_subclass(Place))
    }
}

/// `move`: move a unit along a path of hexes entered (5.0).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Move;
#[pymethods]
impl Move {
    #[new]
    fn new(unit: &str, path: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Move {
            unit: UnitId::new(unit),
            path: hexes_arg(path, "Move() path")?,
        }))
        .add_subclass(Move))
    }
}

/// `bombard`: bombard the enemy unit in a hex with 1 or 2 markers (8.1.2).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Bombard;
#[pymethods]
impl Bombard {
    #[new]
    fn new(hex: &str, markers: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Bombard {
            hex: hex_arg(hex, "hex")?,
            markers: markers_arg(markers, "markers")?,
        }))
        .add_subclass(Bombard))
    }
}

/// `attack`: attack the enemy unit in a hex with adjacent units (8.2.1(a)).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Attack;
#[pymethods]
impl Attack {
    #[new]
    fn new(hex: &str, units: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Attack {
            hex: hex_arg(hex, "hex")?,
            units: units_arg(units, "Attack() units")?,
        }))
        .add_subclass(Attack))
    }
}

/// `support_fire`: commit a marker (True) or pass (False) at this step (8.2.1(b)).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct SupportFire;
#[pymethods]
impl SupportFire {
    #[new]
    fn new(commit: bool) -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::SupportFire { commit }))
            .add_subclass(SupportFire)
    }
}

/// `choose_loss`: the unit that takes a step loss (8.2.4).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct ChooseLoss;
#[pymethods]
impl ChooseLoss {
    #[new]
    fn new(unit: &str) -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::ChooseLoss {
            unit: UnitId::new(unit),
        }))
        .add_subclass(ChooseLoss)
    }
}

/// `retreat`: retreat a unit along a path, displacing friendly units (8.3).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Retreat;
#[pymethods]
impl Retreat {
    #[new]
    #[pyo3(signature = (unit, path, displace = None))]
    fn new(
        unit: &str,
        path: &Bound<'_, PyAny>,
        displace: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Retreat {
            unit: UnitId::new(unit),
            path: hexes_arg(path, "Retreat() path")?,
            displace: match displace {
                Some(d) if !d.is_none() => hexes_arg(d, "Retreat() displace")?,
                _ => Vec::new(),
            },
        }))
        .add_subclass(Retreat))
    }
}

/// `stiff_resistance`: hold and lose a step instead of retreating (8.4).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct StiffResistance;
#[pymethods]
impl StiffResistance {
    #[new]
    fn new(unit: &str) -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::StiffResistance {
            unit: UnitId::new(unit),
        }))
        .add_subclass(StiffResistance)
    }
}

/// `advance`: advance a unit along the path of retreat to a hex (8.5).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Advance;
#[pymethods]
impl Advance {
    #[new]
    fn new(unit: &str, to: &str) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Advance {
            unit: UnitId::new(unit),
            to: hex_arg(to, "to")?,
        }))
        .add_subclass(Advance))
    }
}

/// `replace`: bring an eliminated unit back (Meuse Argonne 11.3, 11.6; Vimy Ridge 11.3,
/// 11.6, where `full` brings it at full strength for two replacements).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Replace;
#[pymethods]
impl Replace {
    #[new]
    #[pyo3(signature = (unit, hex, full = false))]
    fn new(unit: &str, hex: &str, full: bool) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Replace {
            unit: UnitId::new(unit),
            hex: hex_arg(hex, "hex")?,
            full,
        }))
        .add_subclass(Replace))
    }
}

/// `rebuild`: restore a step to depleted units (Meuse Argonne 11.3, 11.6).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Rebuild;
#[pymethods]
impl Rebuild {
    #[new]
    fn new(units: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Rebuild {
            units: units_arg(units, "Rebuild() units")?,
        }))
        .add_subclass(Rebuild))
    }
}

/// `break_down`: break a three-step division into brigades (Meuse Argonne 13.2).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct BreakDown;
#[pymethods]
impl BreakDown {
    #[new]
    fn new(unit: &str) -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::BreakDown {
            unit: UnitId::new(unit),
        }))
        .add_subclass(BreakDown)
    }
}

/// `place_aircraft`: an aircraft marker observes a hex (Meuse Argonne 17.3).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct PlaceAircraft;
#[pymethods]
impl PlaceAircraft {
    #[new]
    fn new(hex: &str) -> PyResult<PyClassInitializer<Self>> {
        Ok(
            PyClassInitializer::from(PyCommand::new(Command::PlaceAircraft {
                hex: hex_arg(hex, "hex")?,
            }))
            .add_subclass(PlaceAircraft),
        )
    }
}

/// `artillery`: artillery bombardment of a hex with 1 or 2 markers, optionally gas
/// (Meuse Argonne 17.2-17.7).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Artillery;
#[pymethods]
impl Artillery {
    #[new]
    #[pyo3(signature = (hex, markers, gas = false))]
    fn new(hex: &str, markers: &Bound<'_, PyAny>, gas: bool) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Artillery {
            hex: hex_arg(hex, "hex")?,
            markers: markers_arg(markers, "markers")?,
            gas,
        }))
        .add_subclass(Artillery))
    }
}

/// `lost_battalion`: declare the Lost Battalion (or not) before the roll (Meuse
/// Argonne 18.1).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct LostBattalion;
#[pymethods]
impl LostBattalion {
    #[new]
    fn new(declare: bool) -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::LostBattalion { declare }))
            .add_subclass(LostBattalion)
    }
}

/// `air_unit`: place the air unit on a hex, to bombard it or (`observe`) to observe it
/// and its neighbours (Suez 1916 18.5).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct AirUnit;
#[pymethods]
impl AirUnit {
    #[new]
    #[pyo3(signature = (hex, observe = false))]
    fn new(hex: &str, observe: bool) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::AirUnit {
            hex: hex_arg(hex, "hex")?,
            observe,
        }))
        .add_subclass(AirUnit))
    }
}

/// `kress`: Kress von Kressenstein assists the attack on a hex this combat phase (Suez
/// 1916 13.1).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Kress;
#[pymethods]
impl Kress {
    #[new]
    fn new(hex: &str) -> PyResult<PyClassInitializer<Self>> {
        Ok(PyClassInitializer::from(PyCommand::new(Command::Kress {
            hex: hex_arg(hex, "hex")?,
        }))
        .add_subclass(Kress))
    }
}

/// `done`: end the phase, or stop advancing (4.1, 8.5).
#[pyclass(module = "fm", extends = PyCommand, frozen)]
pub struct Done;
#[pymethods]
impl Done {
    #[new]
    fn new() -> PyClassInitializer<Self> {
        PyClassInitializer::from(PyCommand::new(Command::Done)).add_subclass(Done)
    }
}

/// A typed command object.
pub fn command_obj<'py>(py: Python<'py>, c: &Command) -> PyResult<Bound<'py, PyAny>> {
    let base = PyClassInitializer::from(PyCommand::new(c.clone()));
    #[allow(unreachable_patterns)]
    let obj = match c {
        Command::Place { .. } => Bound::new(py, base.add_subclass(Place))?.into_any(),
        Command::Move { .. } => Bound::new(py, base.add_subclass(Move))?.into_any(),
        Command::Bombard { .. } => Bound::new(py, base.add_subclass(Bombard))?.into_any(),
        Command::Attack { .. } => Bound::new(py, base.add_subclass(Attack))?.into_any(),
        Command::SupportFire { .. } => Bound::new(py, base.add_subclass(SupportFire))?.into_any(),
        Command::ChooseLoss { .. } => Bound::new(py, base.add_subclass(ChooseLoss))?.into_any(),
        Command::Retreat { .. } => Bound::new(py, base.add_subclass(Retreat))?.into_any(),
        Command::StiffResistance { .. } => {
            Bound::new(py, base.add_subclass(StiffResistance))?.into_any()
        }
        Command::Advance { .. } => Bound::new(py, base.add_subclass(Advance))?.into_any(),
        Command::Replace { .. } => Bound::new(py, base.add_subclass(Replace))?.into_any(),
        Command::Rebuild { .. } => Bound::new(py, base.add_subclass(Rebuild))?.into_any(),
        Command::BreakDown { .. } => Bound::new(py, base.add_subclass(BreakDown))?.into_any(),
        Command::PlaceAircraft { .. } => {
            Bound::new(py, base.add_subclass(PlaceAircraft))?.into_any()
        }
        Command::Artillery { .. } => Bound::new(py, base.add_subclass(Artillery))?.into_any(),
        Command::LostBattalion { .. } => {
            Bound::new(py, base.add_subclass(LostBattalion))?.into_any()
        }
        Command::AirUnit { .. } => Bound::new(py, base.add_subclass(AirUnit))?.into_any(),
        Command::Kress { .. } => Bound::new(py, base.add_subclass(Kress))?.into_any(),
        Command::Done => Bound::new(py, base.add_subclass(Done))?.into_any(),
        _ => Bound::new(py, base)?.into_any(),
    };
    Ok(obj)
}

fn get_str<'py>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyString>) -> Option<String> {
    let v = d.get_item(key).ok()??;
    Some(v.cast::<PyString>().ok()?.to_str().ok()?.to_string())
}

fn get_hex<'py>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyString>) -> Option<Hex> {
    let v = d.get_item(key).ok()??;
    v.cast::<PyString>().ok()?.to_str().ok()?.parse().ok()
}

fn get_hexes<'py>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyString>) -> Option<Vec<Hex>> {
    let v = d.get_item(key).ok()??;
    let l = v.cast::<PyList>().ok()?;
    let mut out = Vec::with_capacity(l.len());
    for x in l.iter() {
        out.push(x.cast::<PyString>().ok()?.to_str().ok()?.parse().ok()?);
    }
    Some(out)
}

/// The fast path for a dict in the documented JSON form: direct extraction, no JSON.
/// `None` for anything unusual (the slow path then reports the exact problem).
fn fast_dict(d: &Bound<'_, PyDict>) -> Option<Command> {
    let py = d.py();
    let ty = d.get_item(intern!(py, "type")).ok()??;
    let ty = ty.cast::<PyString>().ok()?;
    let n = d.len();
    let unit = intern!(py, "unit");
    let hex = intern!(py, "hex");
    let path = intern!(py, "path");
    Some(match ty.to_str().ok()? {
        "move" if n == 3 => Command::Move {
            unit: UnitId::new(&get_str(d, unit)?),
            path: get_hexes(d, path)?,
        },
        "done" if n == 1 => Command::Done,
        "place" if n == 3 => Command::Place {
            unit: UnitId::new(&get_str(d, unit)?),
            hex: get_hex(d, hex)?,
        },
        "support_fire" if n == 2 => {
            let v = d.get_item(intern!(py, "commit")).ok()??;
            Command::SupportFire {
                commit: v.cast::<pyo3::types::PyBool>().ok()?.is_true(),
            }
        }
        "choose_loss" if n == 2 => Command::ChooseLoss {
            unit: UnitId::new(&get_str(d, unit)?),
        },
        "stiff_resistance" if n == 2 => Command::StiffResistance {
            unit: UnitId::new(&get_str(d, unit)?),
        },
        "advance" if n == 3 => Command::Advance {
            unit: UnitId::new(&get_str(d, unit)?),
            to: get_hex(d, intern!(py, "to"))?,
        },
        _ => return None,
    })
}

/// Parses a command's JSON value strictly: serde's `deny_unknown_fields` lets unknown
/// keys through on a field-less variant (`{"type": "done", "x": 1}`), so the keys are
/// checked against the command's own fields as well.
pub fn parse_command_value(v: serde_json::Value, what: &str) -> PyResult<Command> {
    let keys: Vec<String> = match &v {
        serde_json::Value::Object(m) => m.keys().cloned().collect(),
        _ => Vec::new(),
    };
    let c =
        serde_json::from_value::<Command>(v).map_err(|e| protocol_error(format!("{what}: {e}")))?;
    let back = serde_json::to_value(&c).expect("a command serializes");
    for k in keys {
        if back.get(&k).is_none() && k != "displace" {
            return Err(protocol_error(format!("{what}: unknown field `{k}`")));
        }
    }
    Ok(c)
}

/// Reads a command: a typed `fm.Command`, a dict in the JSON form, or JSON text.
pub fn command_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Command> {
    if let Ok(c) = obj.cast::<PyCommand>() {
        return Ok(c.get().cmd.clone());
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        if let Some(c) = fast_dict(d) {
            return Ok(c);
        }
        let v = to_json_value(obj, "command").map_err(protocol_error)?;
        return parse_command_value(v, "invalid command");
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        check_text_size(s.len(), "command JSON").map_err(protocol_error)?;
        // Strictly: `{"type": "move", "unit": "a", "unit": "b"}` is refused, not read
        // as the last unit.
        let v = fm_core::json::parse_strict(strip_bom(s))
            .map_err(|e| protocol_error(format!("invalid command JSON: {e}")))?;
        return parse_command_value(v, "invalid command JSON");
    }
    Err(protocol_error(format!(
        "a command is an fm.Command, a dict in the documented JSON form or JSON text, not a {}",
        type_name(obj)
    )))
}

/// A command for a Fire & Movement match ([`command_from_py`]), naming the mistake
/// when it is another system's typed command.
pub fn fm_command(obj: &Bound<'_, PyAny>) -> PyResult<Command> {
    if let Some(e) = foreign_command(obj, &super::hooks::SYSTEM) {
        return Err(e);
    }
    command_from_py(obj)
}

#[pyfunction]
pub fn _command_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let v = super::strict_json(json, "command JSON")?;
    command_obj(py, &parse_command_value(v, "invalid command JSON")?)
}

/// Parses a command (a dict in the documented JSON form, JSON text, or an
/// `fm.Command`) into a typed command object.
#[pyfunction]
pub fn command<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    command_obj(py, &command_from_py(data)?)
}

/// Adds the command classes to the module.
pub fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCommand>()?;
    m.add_class::<Place>()?;
    m.add_class::<Move>()?;
    m.add_class::<Bombard>()?;
    m.add_class::<Attack>()?;
    m.add_class::<SupportFire>()?;
    m.add_class::<ChooseLoss>()?;
    m.add_class::<Retreat>()?;
    m.add_class::<StiffResistance>()?;
    m.add_class::<Advance>()?;
    m.add_class::<Replace>()?;
    m.add_class::<Rebuild>()?;
    m.add_class::<BreakDown>()?;
    m.add_class::<PlaceAircraft>()?;
    m.add_class::<Artillery>()?;
    m.add_class::<LostBattalion>()?;
    m.add_class::<AirUnit>()?;
    m.add_class::<Kress>()?;
    m.add_class::<Done>()?;
    Ok(())
}
