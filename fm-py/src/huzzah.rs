//! Typed Python objects of Huzzah! Glorious Empires (`fm.huzzah`, `fm.huzzah.events`):
//! commands, events, the pending decision and log entries of a huzzah match, built as
//! the Fire & Movement ones in `objects.rs` are. Each wraps the fm-core value
//! (`fm_core::huzzah::command::Command`, `event::Event`, `state::Pending`); attributes
//! are its JSON fields (computed on first access and cached), `to_dict()` is its JSON
//! form, `repr` is readable, and equality and hashing are the Rust values'.
//!
//! One Python class per variant, named by the variant (`Command::Fire` →
//! `fm.huzzah.Fire`, JSON `"fire"`), so `isinstance` works. A variant these bindings have
//! no class for yet comes back as the base class (`fm.huzzah.Command`,
//! `fm.huzzah.events.Event`) with all its fields: **a new variant needs one line** in
//! [`command_classes!`] or [`event_classes!`] below (and its stub in
//! `python/fm/huzzah/*.pyi`); `fm-py/tests/test_huzzah.py` lists the engine's variants
//! (`_variant_tags`) and names any without a class. Command constructors take the JSON
//! fields as keyword arguments, read by the match layer's own strict reader
//! (`fm_core::any::command_from_json`), so a new variant's constructor needs no code.

use crate::convert::{check_text_size, strip_bom, to_json_value, to_py, type_name};
use crate::errors::protocol_error;
use crate::game::side_from_py;
use crate::objects::{attr_names, cached, repr_of};
use fm_core::huzzah::command::Command;
use fm_core::huzzah::event::Event;
use fm_core::huzzah::state::Pending;
use fm_core::huzzah::Huzzah;
use fm_core::{Game, GameMatch, LogEntryOf, MatchError};
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::PyClassInitializer;
use std::sync::OnceLock;

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

fn hash_of<T: std::hash::Hash>(v: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
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

// ---------------------------------------------------------------- commands

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
    if obj.is_instance_of::<crate::objects::PyCommand>() {
        return Err(protocol_error(format!(
            "fm.{} is a command of the \"fm\" rules system (Fire & Movement); this match \
             is of \"huzzah\"",
            type_name(obj)
        )));
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

// ---------------------------------------------------------------- events

/// Something that happened in a Huzzah! battle (base class of the classes in
/// `fm.huzzah.events`). Attributes are the event's JSON fields: units and officers by
/// their index in the scenario, lengths and positions in tenths of a millimetre.
#[pyclass(module = "fm.huzzah.events", name = "Event", subclass, frozen)]
pub struct PyHzEvent {
    pub ev: Event,
    cache: OnceLock<Py<PyDict>>,
}

#[pymethods]
impl PyHzEvent {
    /// Reads an event from its JSON form (a dict or JSON text).
    #[staticmethod]
    fn from_dict<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let v = match data.cast::<PyString>() {
            Ok(s) => strict_text(s.to_str()?, "event JSON")?,
            Err(_) => to_json_value(data, "event").map_err(protocol_error)?,
        };
        let ev: Event =
            serde_json::from_value(v).map_err(|e| protocol_error(format!("invalid event: {e}")))?;
        event_obj(py, &ev)
    }

    /// The event's `type` (`"fire_resolved"`, ...).
    #[getter]
    fn r#type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.ev)?;
        d.get_item("type")?
            .ok_or_else(|| PyAttributeError::new_err("type"))
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached(py, &self.cache, &self.ev)?;
        field(py, &d, "type", event_optional(&self.ev), "Event", name)
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached(py, &self.cache, &self.ev)?.copy()
    }

    /// The JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.ev).expect("an event serializes")
    }

    /// The names of the fields the JSON form holds.
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached(py, &self.cache, &self.ev)?, "type")
    }

    /// This event as `side` (`"a"` or `"b"`, or `0` or `1`) may see it (Huzzah! hides
    /// nothing in pages 1-22: the same event).
    fn redacted_for<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        event_obj(
            py,
            &<Huzzah as Game>::redacted(&self.ev, side_from_py(None, side)?),
        )
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        repr_of(&cached(py, &self.cache, &self.ev)?, "type")
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHzEvent>() {
            Ok(o) => o.get().ev == self.ev,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.ev)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_hz_event_from_json")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.to_json()])?.into_any()])
    }
}

/// The event classes, in their own Rust module (an event and a command may share a
/// name one day).
pub mod events {
    use super::PyHzEvent;
    use fm_core::huzzah::event::Event;
    use pyo3::prelude::*;
    use pyo3::PyClassInitializer;
    use std::sync::OnceLock;

    /// One class per `Event` variant: `Variant [optional fields] "doc";`, as for
    /// commands (no constructor: events come from the engine, or `Event.from_dict`).
    macro_rules! event_classes {
        ($( $v:ident [$($opt:ident),*] $doc:literal; )*) => {
            $(
                #[doc = $doc]
                #[pyclass(module = "fm.huzzah.events", extends = PyHzEvent, frozen)]
                pub struct $v;
            )*

            /// A typed event object (the base class for a variant without a class).
            pub fn event_obj<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyAny>> {
                let base = PyClassInitializer::from(PyHzEvent { ev: e.clone(), cache: OnceLock::new() });
                #[allow(unreachable_patterns)]
                let obj = match e {
                    $( Event::$v { .. } => Bound::new(py, base.add_subclass($v))?.into_any(), )*
                    _ => Bound::new(py, base)?.into_any(),
                };
                Ok(obj)
            }

            /// The fields of an event that its JSON leaves out when they have no value.
            pub(super) fn event_optional(e: &Event) -> &'static [&'static str] {
                #[allow(unreachable_patterns)]
                match e {
                    $( Event::$v { .. } => &[$(stringify!($opt)),*], )*
                    _ => &[],
                }
            }

            /// Adds the event classes to a module.
            pub fn add_event_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
                m.add_class::<PyHzEvent>()?;
                $( m.add_class::<$v>()?; )*
                Ok(())
            }
        };
    }

    event_classes! {
        RolledOff [] "`rolled_off`: both players roll `a` and `b`; `first`: the side that places first, if this roll decided it (page 7).";
        FirstDecided [] "`first_decided`: who places first (`by`: `\"scenario\"` or `\"roll-off\"`) (page 7).";
        PlacementRolled [] "`placement_rolled`: a placement roll: place from `min` to `max` units (page 7).";
        UnitPlaced [] "`unit_placed`: a unit placed on the table.";
        PlacementEnded [] "`placement_ended`: a side ended its placement for this roll.";
        PlayersDecided [] "`players_decided`: `player1` is Player 1 (page 7).";
        OfficersToPlace [] "`officers_to_place`: all units placed; officers are placed next (page 8).";
        OfficerPlaced [] "`officer_placed`: an officer placed `at` a point (page 8).";
        TurnStarted [] "`turn_started`: a turn begins, with its `ground` and `weather` (page 10).";
        InCombat [] "`in_combat`: enemy `pairs` in contact as the turn begins (page 13).";
        PhaseStarted [] "`phase_started`: a phase begins.";
        SkirmishTested [] "`skirmish_tested`: a side's skirmisher superiority test (page 9).";
        SkirmishFactorReduced [] "`skirmish_factor_reduced`: a Huzzah! lowers the enemy's Skirmish Factor `to` (page 9).";
        SkirmisherWar [] "`skirmisher_war`: who won the skirmisher war (`winner`, `None`: nobody) (page 9).";
        ArtilleryTested [] "`artillery_tested`: a side's artillery effectiveness test (page 10).";
        ArtilleryFactorReduced [] "`artillery_factor_reduced`: a Huzzah! lowers the enemy's Artillery Factor `to` (page 10).";
        FireDeclared [bases] "`fire_declared`: a firing declaration, with its `range` and whether `short`; `bases` when fewer fire (pages 11-12).";
        FireHeld [] "`fire_held`: a unit that could fire holds its fire.";
        QualityDetermined [] "`quality_determined`: a unit's quality rolled the first time it matters (page 4).";
        FireResolved [] "`fire_resolved`: one unit's fire: bases, test and hits (pages 11-12).";
        HitsApplied [] "`hits_applied`: all fire at a unit resolved; its hits become lost bases.";
        BaseRemoved [] "`base_removed`: a base removed (page 12); `shape`: the unit afterwards.";
        AbilityLost [] "`ability_lost`: a marker base lost, and the ability it marked (page 12).";
        RemovalDone [] "`removal_done`: no more bases to remove; `odd_hits` stay (page 12).";
        UnitDestroyed [] "`unit_destroyed`: every base lost.";
        OfficerSave [] "`officer_save`: an attached officer's saving throw (page 15).";
        OfficerKilled [] "`officer_killed`: an officer killed, or lost with his `unit` (page 15).";
        MoraleTested [] "`morale_tested`: a morale test (pages 13-14).";
        AbilityGained [] "`ability_gained`: a Huzzah! on a morale test gives an ability (page 14).";
        QualityImproved [] "`quality_improved`: a Disciplined unit's quality improves `to` (page 14).";
        StatusChanged [] "`status_changed`: a unit's status changed (`why`: the rule).";
        UnitMoved [] "`unit_moved`: a unit moved on the table (fell back, routed).";
        ExtraHit [] "`extra_hit`: a unit that passed through a friend takes a hit (page 14).";
        PassedThrough [] "`passed_through`: a friend passed through `unit` (`by`), disordering it (page 14).";
        ToRoutTable [] "`to_rout_table`: a unit off the table goes to the Rout Table (page 15).";
        UnitCaptured [] "`unit_captured`: a router captured in an enemy-held sector (page 14).";
        TargetResolved [] "`target_resolved`: a target's resolution finished.";
        OddHitsRemoved [] "`odd_hits_removed`: odd hits removed at the end of the Rally phase (page 12).";
        TurnEnded [] "`turn_ended`: the turn ends (page 7, phase 15).";
        OrderGiven [] "`order_given`: an order, its Command Factor `test` (`None` for an automatic order) and its units (pages 16-18).";
        OrdersEnded [] "`orders_ended`: a failed CinC ends the side's Orders phase (page 16).";
        Acted [] "`acted`: a unit has acted on the order.";
        OrderDone [] "`order_done`: the order's units have all acted, or the player ended it.";
        Charged [] "`charged`: a charger squared up in contact with `face` of `target` (page 20).";
        ImpulsiveCharges [] "`impulsive_charges`: impulsive units charged without orders (page 20).";
        UnitDeployed [] "`unit_deployed`: a change of formation on a deploy order (page 21).";
        WaverTested [] "`waver_tested`: the Waver Test after a retire near an enemy (page 21).";
        OfficerMoved [] "`officer_moved`: an officer moved (with his unit, displaced, joining one).";
        OfficerCaptured [] "`officer_captured`: an enemy unit reached an unprotected officer (page 18).";
        MeleeResolved [] "`melee_resolved`: a melee's outcome (given by command, or the labelled stand-in).";
        RallyDecided [] "`rally_decided`: a unit's rally decided (the rules are missing).";
        SkirmishersDeployed [] "`skirmishers_deployed`: `bases` of `unit` into the skirmish line, now `line` bases; `shape` afterwards (`None`: all went) (page 22).";
        OfficerRemoved [] "`officer_removed`: an officer removed from play (page 22).";
        BatteryJoined [] "`battery_joined`: reserve artillery `unit` joined `battery`, whose `shape` and `quality` follow (pages 6, 22).";
        Engaged [] "`engaged`: units engaged in dense terrain without touching (pages 19, 22).";
        LinesPassed [] "`lines_passed`: `unit` and `with` exchanged places in a passage of lines (page 22).";
        OfficerAppointed [] "`officer_appointed`: the CinC's successor to `officer` (page 16), with his `quality`; `stand_in` when the stand-in gave it.";
        Awaiting [] "`awaiting`: the engine waits for `decision` (the pending decision's JSON form).";
        GameEnded [] "`game_ended`: the battle is over (`outcome`).";
    }
}

use events::event_optional;
pub use events::{add_event_classes, event_obj};

/// A list of typed event objects.
pub fn events_list<'py>(py: Python<'py>, events: &[Event]) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(events.len());
    for e in events {
        v.push(event_obj(py, e)?);
    }
    PyList::new(py, v)
}

// ---------------------------------------------------------------- pending

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

// ---------------------------------------------------------------- log entries

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

// ---------------------------------------------------------------- pickling

#[pyfunction]
pub fn _hz_command_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    command_obj(
        py,
        &command_from_value(&strict_text(json, "command JSON")?)?,
    )
}

#[pyfunction]
pub fn _hz_event_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let e: Event = serde_json::from_value(strict_text(json, "event JSON")?)
        .map_err(|e| protocol_error(format!("invalid event JSON: {e}")))?;
    event_obj(py, &e)
}

#[pyfunction]
pub fn _hz_pending_from_json(json: &str) -> PyResult<PyHzPending> {
    let p: Pending = serde_json::from_value(strict_text(json, "pending JSON")?)
        .map_err(|e| protocol_error(format!("invalid pending JSON: {e}")))?;
    Ok(PyHzPending::new(p))
}

/// The `fm._fm.huzzah` module (re-exported by the pure-Python `fm.huzzah`), with its
/// `events` submodule.
pub fn module<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyModule>> {
    let m = PyModule::new(py, "huzzah")?;
    add_command_classes(&m)?;
    m.add_class::<PyHzPending>()?;
    m.add_class::<PyHzLogEntry>()?;
    m.add_function(wrap_pyfunction!(_variant_tags, &m)?)?;
    let ev = PyModule::new(py, "events")?;
    add_event_classes(&ev)?;
    m.add("events", ev)?;
    Ok(m)
}
