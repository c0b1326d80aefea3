//! Typed Python objects for commands, events, pending decisions and log entries.
//!
//! Each wraps the fm-core value; attributes are its JSON fields (computed on first
//! access and cached), `to_dict()` is its documented JSON form, `repr` is readable.
//! Commands and events have one Python subclass per variant (`fm.Move`,
//! `fm.events.UnitMoved`), so `isinstance` works; a variant these bindings do not know
//! yet (a newer engine's exclusive rules) comes back as the base class.

use crate::args::{markers_arg, str_list};
use crate::convert::{check_text_size, strip_bom, to_json_value, to_py, type_name};
use crate::errors::protocol_error;
use crate::game::side_from_py;
use fm_core::{Command, Event, Hex, Pending, UnitId};
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::{intern, PyClassInitializer};
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
pub(crate) fn cached<'py, T: serde::Serialize>(
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

/// A field by attribute name: `from_` reads `from`.
fn field<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    owner: &str,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let key = name.strip_suffix('_').unwrap_or(name);
    if key != "type" {
        if let Some(v) = d.get_item(key)? {
            return Ok(v);
        }
    }
    // A retreat's empty displacement chain is left out of its JSON.
    if key == "displace"
        && d.get_item("type")?
            .is_some_and(|t| t.eq("retreat").unwrap_or(false))
    {
        return Ok(PyList::empty(py).into_any());
    }
    // A combat result's column shift (Suez 1916) is left out of its JSON when zero.
    if key == "shift"
        && d.get_item("type")?
            .is_some_and(|t| t.eq("combat_resolved").unwrap_or(false))
    {
        return Ok(0i8.into_pyobject(py)?.into_any());
    }
    let tagged = |tag: &str, value: &str| -> PyResult<bool> {
        Ok(d.get_item(tag)?
            .is_some_and(|t| t.eq(value).unwrap_or(false)))
    };
    // Lists left out of the JSON when empty: the units a Suez 1916 stiff resistance
    // also holds, the other brigades of a Meuse Argonne 17.5 target.
    if (key == "held" && tagged("type", "stiff_resistance")?)
        || (key == "stacked"
            && (tagged("type", "artillery_retreat_offered")?
                || tagged("kind", "artillery_retreat")?))
    {
        return Ok(PyList::empty(py).into_any());
    }
    // A Meuse Argonne 13.2 breakdown of a division not yet on the map has no hex.
    if key == "hex" && tagged("type", "division_broken_down")? {
        return Ok(py.None().into_bound(py));
    }
    // A move's destination is the last hex of its path: derived, so that the event's
    // JSON (a stable protocol, docs/protocol.md) stays as it is. The engine's moves
    // always enter a hex; only a hand-built event can have an empty path.
    if key == "to" && tagged("type", "unit_moved")? {
        if let Some(last) = d
            .get_item("path")?
            .and_then(|p| p.cast_into::<PyList>().ok())
            .and_then(|p| p.iter().last())
        {
            return Ok(last);
        }
        return Err(PyAttributeError::new_err(
            "this UnitMoved has an empty path: it has no destination 'to'",
        ));
    }
    Err(PyAttributeError::new_err(format!(
        "'{owner}' object has no attribute '{name}'"
    )))
}

/// `Name(a=…, b=…)` from a dict, skipping the tag.
pub(crate) fn repr_of(d: &Bound<'_, PyDict>, tag_key: &str) -> PyResult<String> {
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
fn is_py_keyword(k: &str) -> bool {
    matches!(k, "from" | "type" | "in" | "is" | "with")
}

/// The attribute names of a value's fields (the tag left out, `from` as `from_`).
pub(crate) fn attr_names(d: &Bound<'_, PyDict>, tag_key: &str) -> PyResult<Vec<String>> {
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

// ---------------------------------------------------------------- commands

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
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.cmd.hash(&mut h);
        h.finish()
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

// ---------------------------------------------------------------- events

/// Something that happened (base class of the classes in `fm.events`). Attributes are
/// the event's JSON fields (`from` is also `from_`); `to_dict()` is its JSON form.
#[pyclass(module = "fm.events", name = "Event", subclass, frozen)]
pub struct PyEvent {
    pub ev: Event,
    cache: OnceLock<Py<PyDict>>,
}

#[pymethods]
impl PyEvent {
    /// Reads an event from its JSON form (a dict or JSON text).
    #[staticmethod]
    fn from_dict<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let ev: Event = if let Ok(s) = data.cast::<PyString>() {
            let s = s.to_str()?;
            check_text_size(s.len(), "event JSON").map_err(protocol_error)?;
            let v = fm_core::json::parse_strict(strip_bom(s))
                .map_err(|e| protocol_error(format!("invalid event JSON: {e}")))?;
            serde_json::from_value(v)
                .map_err(|e| protocol_error(format!("invalid event JSON: {e}")))?
        } else {
            let v = to_json_value(data, "event").map_err(protocol_error)?;
            serde_json::from_value(v).map_err(|e| protocol_error(format!("invalid event: {e}")))?
        };
        event_obj(py, &ev)
    }

    /// The event's `type` (`"unit_moved"`, ...).
    #[getter]
    fn r#type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.ev)?;
        d.get_item("type")?
            .ok_or_else(|| PyAttributeError::new_err("type"))
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.ev)?;
        field(py, &d, "Event", name)
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The documented JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.ev)?.copy()
    }

    /// The documented JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.ev).expect("an event serializes")
    }

    /// The names of the event's fields (`from` as `from_`).
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached(py, &self.cache, &self.ev)?, "type")
    }

    /// This event as `side` (`"a"` or `"b"`, or `0` or `1`) may see it: the other
    /// side's face-down marker values and allotments removed.
    fn redacted_for<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        event_obj(py, &self.ev.redacted_for(side_from_py(None, side)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_of(&cached(py, &self.cache, &self.ev)?, "type")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyEvent>() {
            Ok(o) => o.get().ev == self.ev,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.ev.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_event_from_json")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_json()])?.into_any()])
    }
}

macro_rules! event_classes {
    ($( $variant:ident => $class:ident, $name:literal, $doc:literal; )*) => {
        $(
            #[doc = $doc]
            #[pyclass(module = "fm.events", name = $name, extends = PyEvent, frozen)]
            pub struct $class;
        )*

        /// A typed event object.
        pub fn event_obj<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyAny>> {
            let base = PyClassInitializer::from(PyEvent { ev: e.clone(), cache: OnceLock::new() });
            #[allow(unreachable_patterns)]
            let obj = match e {
                $( Event::$variant { .. } => Bound::new(py, base.add_subclass($class))?.into_any(), )*
                _ => Bound::new(py, base)?.into_any(),
            };
            Ok(obj)
        }

        /// Adds the event classes to a module.
        pub fn add_event_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add_class::<PyEvent>()?;
            $( m.add_class::<$class>()?; )*
            Ok(())
        }
    };
}

event_classes! {
    TurnStarted => EvTurnStarted, "TurnStarted", "`turn_started`: a game turn begins (4.1).";
    SupportAllotted => EvSupportAllotted, "SupportAllotted", "`support_allotted`: a side receives its support fire markers (7.1).";
    PhaseStarted => EvPhaseStarted, "PhaseStarted", "`phase_started`: a phase begins (4.1).";
    UnitPlaced => EvUnitPlaced, "UnitPlaced", "`unit_placed`: a unit is placed during set-up (3.0).";
    ReinforcementsArrived => EvReinforcementsArrived, "ReinforcementsArrived", "`reinforcements_arrived`: reinforcements may enter (3.0(c)).";
    UnitMoved => EvUnitMoved, "UnitMoved", "`unit_moved`: a unit moved (5.0).";
    BombardmentDeclared => EvBombardmentDeclared, "BombardmentDeclared", "`bombardment_declared` (8.1.2).";
    AttackDeclared => EvAttackDeclared, "AttackDeclared", "`attack_declared` (8.2.1(a)).";
    SupportCommitted => EvSupportCommitted, "SupportCommitted", "`support_committed`: a marker is drawn and placed (7.2, 8.2.1(b)).";
    SupportPassed => EvSupportPassed, "SupportPassed", "`support_passed` (8.2.1(b)).";
    SupportRevealed => EvSupportRevealed, "SupportRevealed", "`support_revealed`: all markers turned face up.";
    CombatResolved => EvCombatResolved, "CombatResolved", "`combat_resolved`: totals, differential, line, column, die and result.";
    StepLost => EvStepLost, "StepLost", "`step_lost`: a unit loses a step.";
    UnitEliminated => EvUnitEliminated, "UnitEliminated", "`unit_eliminated`.";
    LossRequired => EvLossRequired, "LossRequired", "`loss_required`: the owner must choose which unit loses a step.";
    RetreatRequired => EvRetreatRequired, "RetreatRequired", "`retreat_required`: units must retreat or hold.";
    StiffResistance => EvStiffResistance, "StiffResistance", "`stiff_resistance`: a unit holds and loses a step (8.4).";
    UnitDisplaced => EvUnitDisplaced, "UnitDisplaced", "`unit_displaced` (8.3.1).";
    UnitRetreated => EvUnitRetreated, "UnitRetreated", "`unit_retreated` (8.3).";
    AdvanceOffered => EvAdvanceOffered, "AdvanceOffered", "`advance_offered` (8.5).";
    UnitAdvanced => EvUnitAdvanced, "UnitAdvanced", "`unit_advanced` (8.5).";
    CombatEnded => EvCombatEnded, "CombatEnded", "`combat_ended`.";
    ArtilleryAllotted => EvArtilleryAllotted, "ArtilleryAllotted", "`artillery_allotted`: a side's artillery markers this turn (Meuse Argonne 17.1).";
    AircraftPlaced => EvAircraftPlaced, "AircraftPlaced", "`aircraft_placed`: an aircraft observes a hex (Meuse Argonne 17.3).";
    ArtilleryFiring => EvArtilleryFiring, "ArtilleryFiring", "`artillery_firing`: placed markers are about to be rolled (Meuse Argonne 17.2).";
    ArtilleryDeclared => EvArtilleryDeclared, "ArtilleryDeclared", "`artillery_declared`: markers placed on an observed unit (Meuse Argonne 17.2).";
    ArtilleryFired => EvArtilleryFired, "ArtilleryFired", "`artillery_fired`: one marker's die roll (Meuse Argonne 17.4-17.6).";
    HexBreached => EvHexBreached, "HexBreached", "`hex_breached`: trench works breached (Meuse Argonne 17.6).";
    ArtilleryRetreatOffered => EvArtilleryRetreatOffered, "ArtilleryRetreatOffered", "`artillery_retreat_offered` (Meuse Argonne 17.5).";
    LostBattalionOffered => EvLostBattalionOffered, "LostBattalionOffered", "`lost_battalion_offered` (Meuse Argonne 18.1).";
    LostBattalionDeclared => EvLostBattalionDeclared, "LostBattalionDeclared", "`lost_battalion_declared` (Meuse Argonne 18.1).";
    ReplacementsReceived => EvReplacementsReceived, "ReplacementsReceived", "`replacements_received`: a side's replacements this night turn (Vimy Ridge 11.3, 11.6).";
    AircraftLost => EvAircraftLost, "AircraftLost", "`aircraft_lost`: the Red Baron downs an Allied aircraft (Vimy Ridge 18.1).";
    ReplacementAvailable => EvReplacementAvailable, "ReplacementAvailable", "`replacement_available` (Meuse Argonne 11.3, 11.6).";
    UnitReplaced => EvUnitReplaced, "UnitReplaced", "`unit_replaced`: an eliminated unit returns (Meuse Argonne 11.3, 11.6).";
    UnitRebuilt => EvUnitRebuilt, "UnitRebuilt", "`unit_rebuilt`: a depleted unit regains a step (Meuse Argonne 11.3, 11.6).";
    DivisionBrokenDown => EvDivisionBrokenDown, "DivisionBrokenDown", "`division_broken_down` (Meuse Argonne 13.2).";
    BrigadePlaced => EvBrigadePlaced, "BrigadePlaced", "`brigade_placed` (Meuse Argonne 13.1).";
    UnitsInactive => EvUnitsInactive, "UnitsInactive", "`units_inactive`: British units that start un-activated (Suez 1916 11.3).";
    ActivationRolled => EvActivationRolled, "ActivationRolled", "`activation_rolled`: an un-activated British unit's activation roll (Suez 1916 11.3).";
    UnitActivated => EvUnitActivated, "UnitActivated", "`unit_activated`: automatic activation (Suez 1916 11.3).";
    FireSupportAdded => EvFireSupportAdded, "FireSupportAdded", "`fire_support_added`: markers join a side's pool; `values` is None in both sides' streams (Suez 1916 11.3, 11.5, 18.3).";
    FireSupportReturned => EvFireSupportReturned, "FireSupportReturned", "`fire_support_returned`: yesterday's markers return to the pool (Suez 1916 18.3).";
    ReinforcementRolled => EvReinforcementRolled, "ReinforcementRolled", "`reinforcement_rolled`: the 27th Division reinforcement roll (Suez 1916 11.5).";
    KressAssigned => EvKressAssigned, "KressAssigned", "`kress_assigned`: Kress assists the attack on a hex (Suez 1916 13.1).";
    RailMovement => EvRailMovement, "RailMovement", "`rail_movement`: a British unit moves by rail (Suez 1916 16.0).";
    FireSupportPlanning => EvFireSupportPlanning, "FireSupportPlanning", "`fire_support_planning`: a side places its fire support markers (Suez 1916 18.1).";
    FireSupportPlaced => EvFireSupportPlaced, "FireSupportPlaced", "`fire_support_placed`: a marker placed face down; `value` is None in both sides' streams (Suez 1916 18.1, 18.3).";
    AirUnitPlaced => EvAirUnitPlaced, "AirUnitPlaced", "`air_unit_placed`: the air unit bombards or observes (Suez 1916 18.5).";
    AttackAnnounced => EvAttackAnnounced, "AttackAnnounced", "`attack_announced`: an attack on a bombarded hex, made after the markers (Suez 1916 18.1).";
    FireSupportRevealed => EvFireSupportRevealed, "FireSupportRevealed", "`fire_support_revealed`: every placed marker turned face up (Suez 1916 18.1).";
    FireSupportResolved => EvFireSupportResolved, "FireSupportResolved", "`fire_support_resolved`: a bombardment resolved against one unit (Suez 1916 18.4).";
    AttackCancelled => EvAttackCancelled, "AttackCancelled", "`attack_cancelled`: an announced attack is not made (Suez 1916 18.1).";
    GameOver => EvGameOver, "GameOver", "`game_over`.";
}

/// A list of typed event objects.
pub fn events_list<'py>(py: Python<'py>, events: &[Event]) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(events.len());
    for e in events {
        v.push(event_obj(py, e)?);
    }
    PyList::new(py, v)
}

// ---------------------------------------------------------------- pending

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
        let d = cached(py, &self.cache, &self.p)?;
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

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPending>() {
            Ok(o) => o.get().p == self.p,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.p.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_pending_from_json")?;
        let json = serde_json::to_string(&self.p).expect("a pending decision serializes");
        PyTuple::new(py, [f, PyTuple::new(py, [json])?.into_any()])
    }
}

// ---------------------------------------------------------------- log entries

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
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.entry.command.hash(&mut h);
        self.entry.events.hash(&mut h);
        self.entry.hash.hash(&mut h);
        h.finish()
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
