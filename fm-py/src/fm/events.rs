//! Fire & Movement's typed events (`fm.events.Event` and one subclass per variant:
//! `fm.events.UnitMoved`, ...), built from the engine's `fm_core::Event`.

use super::field::field;
use crate::args::side_from_py;
use crate::convert::{check_text_size, strip_bom, to_json_value};
use crate::errors::protocol_error;
use crate::typed::{attr_names, cached, hash_of, repr_of};
use fm_core::Event;
use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::PyClassInitializer;
use std::sync::OnceLock;

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
        hash_of(&self.ev)
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

#[pyfunction]
pub fn _event_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let e: Event = serde_json::from_value(super::strict_json(json, "event JSON")?)
        .map_err(|e| protocol_error(format!("invalid event JSON: {e}")))?;
    event_obj(py, &e)
}
