//! Huzzah!'s typed events (`fm.huzzah.events.Event` and one subclass per variant:
//! `fm.huzzah.events.FireResolved`, ...), in a Rust module of their own (an event and
//! a command may share a name one day).

use super::values::TYPED;
use super::{field, strict_text};
use crate::args::side_from_py;
use crate::convert::to_json_value;
use crate::errors::protocol_error;
use crate::typed::{attr_names, cached_typed, hash_of, plain_dict, repr_of};
use fm_core::huzzah::event::Event;
use fm_core::huzzah::Huzzah;
use fm_core::Game;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::PyClassInitializer;
use std::sync::OnceLock;

/// Something that happened in a Huzzah! battle (base class of the classes in
/// `fm.huzzah.events`). Attributes are the event's JSON fields, the values inside typed
/// (a point, a shape, a test: `fm.huzzah.events.Point`, ...; pairs as tuples): units and
/// officers by their scenario ids, lengths and positions in millimetres.
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
        let d = cached_typed(py, &self.cache, &self.ev, &TYPED)?;
        d.get_item("type")?
            .ok_or_else(|| PyAttributeError::new_err("type"))
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let d = cached_typed(py, &self.cache, &self.ev, &TYPED)?;
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
        plain_dict(py, &self.ev)
    }

    /// The JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.ev).expect("an event serializes")
    }

    /// The names of the fields the JSON form holds.
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        attr_names(&cached_typed(py, &self.cache, &self.ev, &TYPED)?, "type")
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
        repr_of(&cached_typed(py, &self.cache, &self.ev, &TYPED)?, "type")
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
        fn event_optional(e: &Event) -> &'static [&'static str] {
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
    Awaiting [] "`awaiting`: the engine waits for `decision` (a typed `fm.huzzah.Pending`).";
    GameEnded [] "`game_ended`: the battle is over (`outcome`).";
}

/// A list of typed event objects.
pub fn events_list<'py>(py: Python<'py>, events: &[Event]) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(events.len());
    for e in events {
        v.push(event_obj(py, e)?);
    }
    PyList::new(py, v)
}

#[pyfunction]
pub fn _hz_event_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let e: Event = serde_json::from_value(strict_text(json, "event JSON")?)
        .map_err(|e| protocol_error(format!("invalid event JSON: {e}")))?;
    event_obj(py, &e)
}
