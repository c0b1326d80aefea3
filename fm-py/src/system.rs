//! The interface between the system-neutral part of the bindings (`fm.Match`, the
//! scenario sources, the module's functions) and each rules system's bindings: the
//! [`PySystem`] trait, the values its hooks take and give ([`Source`], [`ReadScenario`],
//! [`Play`], [`StateOf`], [`Records`], [`SvgArgs`], [`OddsArgs`]), and the table of the
//! installed systems ([`install`], [`of`], [`all`]).
//!
//! A system's bindings (`crate::fm`, `crate::huzzah`) implement [`PySystem`] for their
//! match type: each hook downcasts the `DynMatch` it is given to the system's
//! `GameMatch` and gives the typed Python objects and extras. Every hook is optional: a
//! hook left at its default (`None`) makes the neutral `fm.Match` use the match layer's
//! JSON forms (dicts), or raise `fm.UnsupportedError` for a feature the system lacks;
//! a system with no bindings at all (the toy system of the tests) is [`GENERIC`], all
//! defaults. The crate root, the one place that names the systems, installs them when
//! the module is imported; no neutral module names one, so that the module graph has
//! no circle (`tests/architecture.rs` checks both).

use crate::convert::{to_json_value, type_name};
use crate::errors::protocol_error;
use fm_core::any::DynMatch;
use fm_core::Side;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::any::Any;
use std::sync::{Arc, OnceLock};

/// A scenario of any registered rules system, resolved from a Python argument
/// (`crate::source`), from which matches are opened (`fm.Match`, `fm.play_random`).
pub enum Source {
    /// A scenario its system's bindings read themselves (Fire & Movement's: validated
    /// once and shared between the matches opened from it).
    Read(Arc<dyn ReadScenario>),
    /// A built-in scenario of a system, by name, for the match layer to open.
    Builtin(String),
    /// Scenario JSON naming its system in `"system"` (validated when a match is
    /// opened, by the match layer).
    Value(serde_json::Value),
}

impl Source {
    /// A match of this scenario, through the system-agnostic layer.
    ///
    /// # Errors
    /// The layer's: an invalid scenario or an unknown system.
    pub fn open(&self, seed: u64) -> Result<Box<dyn DynMatch>, fm_core::MatchError> {
        match self {
            Source::Read(sc) => Ok(sc.open(seed)),
            Source::Builtin(name) => fm_core::any::new_match(name, seed),
            Source::Value(v) => fm_core::any::new_match_value(v.clone(), seed),
        }
    }
}

/// A scenario a system's bindings read themselves ([`Source::Read`]).
pub trait ReadScenario: Send + Sync {
    /// A match of it, seeded with `seed` (its system's match is itself a `DynMatch`).
    fn open(&self, seed: u64) -> Box<dyn DynMatch>;
    /// The scenario itself, for its system to downcast (`fm.Scenario` takes it back).
    fn as_any(&self) -> &dyn Any;
}

/// What `Match.apply`, `apply_action` (and `apply_factored`) and `apply_chance` play.
#[derive(Clone, Copy)]
pub enum Play<'a, 'py> {
    /// A command as Python gave it: a typed command, a dict or JSON text.
    Command(&'a Bound<'py, PyAny>),
    /// The command with this action index.
    Index(usize),
    /// This outcome of the pending draw.
    Chance(u32),
}

/// Which state `Match.state`, `view()` and `export()` give.
#[derive(Clone, Copy)]
pub enum StateOf {
    /// The full state (`Match.state`).
    Full,
    /// One side's view (`Match.view`).
    View(Side),
    /// The match as one side may know it (`Match.export`).
    Export(Side),
}

/// Which record `Match.log`, `opening_events` and `events()` give.
#[derive(Clone, Copy)]
pub enum Records {
    /// The log entries (`Match.log`).
    Log,
    /// The events that opened the game (`Match.opening_events`).
    Opening,
    /// Every event so far: the opening, then each command's (`Match.events()`).
    All,
}

/// `Match.svg`'s arguments as Python gave them (each system's options in one
/// signature; a system reads its own, and the neutral `Match.svg` refuses the others).
pub struct SvgArgs<'a, 'py> {
    /// The side whose view is drawn (`None`: the full state; Python's `None` too).
    pub side: Option<&'a Bound<'py, PyAny>>,
    pub hex_size: Option<f64>,
    pub hex_ids: Option<bool>,
    pub panel: Option<bool>,
    pub highlight: Option<&'a Bound<'py, PyAny>>,
    pub markers: Option<&'a Bound<'py, PyAny>>,
    pub title: Option<String>,
    pub arc_of: Option<String>,
    pub radii: Option<bool>,
    pub scale: Option<&'a Bound<'py, PyAny>>,
    pub labels: Option<bool>,
    pub region: Option<&'a Bound<'py, PyAny>>,
    pub unit_labels: Option<String>,
    pub crt: Option<bool>,
    pub terrain_chart: Option<bool>,
    pub turn_track: Option<bool>,
    pub boxes: Option<bool>,
}

impl SvgArgs<'_, '_> {
    /// The options given (not left out, and not Python's `None` where an option takes
    /// any object), in the signature's order (`side` and `region`, which every picture
    /// takes, left out).
    pub fn given(&self) -> Vec<&'static str> {
        let present = |o: Option<&Bound<'_, PyAny>>| o.is_some_and(|x| !x.is_none());
        [
            ("hex_size", self.hex_size.is_some()),
            ("hex_ids", self.hex_ids.is_some()),
            ("panel", self.panel.is_some()),
            ("highlight", present(self.highlight)),
            ("markers", present(self.markers)),
            ("title", self.title.is_some()),
            ("arc_of", self.arc_of.is_some()),
            ("radii", self.radii.is_some()),
            ("scale", present(self.scale)),
            ("labels", self.labels.is_some()),
            ("unit_labels", self.unit_labels.is_some()),
            ("crt", self.crt.is_some()),
            ("terrain_chart", self.terrain_chart.is_some()),
            ("turn_track", self.turn_track.is_some()),
            ("boxes", self.boxes.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// A `region=` value of `Match.svg` read as the JSON options read it (a system's
/// `RenderOptions::from_json`: Fire & Movement's, or its Huzzah! twin), so that Python,
/// C and serve accept the same regions with the same messages: `fm.RuleError` (rule
/// `"input"`) for a region off the map or table.
pub fn region_json(region: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let v = to_json_value(region, "region").map_err(PyTypeError::new_err)?;
    Ok(serde_json::json!({ "region": v }))
}

/// `Match.odds`'s arguments beside a proposal dict: an attack on (or a bombardment of)
/// `hex`.
pub struct OddsArgs<'a, 'py> {
    pub hex: &'a str,
    pub units: Option<&'a Bound<'py, PyAny>>,
    pub attacker_markers: Option<&'a Bound<'py, PyAny>>,
    pub defender_markers: Option<&'a Bound<'py, PyAny>>,
    pub side: Option<&'a Bound<'py, PyAny>>,
}

/// The result of one whole game played by [`PySystem::random_game`]: the winner
/// (`None`: a draw) and the number of commands, or what went wrong.
pub type GameResult = Result<(Option<Side>, u64), String>;

/// A rules system's bindings: its typed Python objects and the extras of `fm.Match`
/// for its matches. `m` is always a match of this system (`DynMatch::system` is
/// [`name`](PySystem::name)); a hook that returns `None` leaves the neutral
/// behaviour: the JSON form (dicts), or `fm.UnsupportedError` for a feature.
#[allow(unused_variables)]
pub trait PySystem: Sync {
    // ---------------------------------------------------------------- identity

    /// The system's name (`Game::NAME`): `"fm"`.
    fn name(&self) -> &'static str;
    /// Its title in messages: `"Fire & Movement"`.
    fn title(&self) -> &'static str;
    /// What follows its quoted name in messages (`"fm" (Fire & Movement)`), if the
    /// name alone does not say it.
    fn gloss(&self) -> &'static str {
        ""
    }
    /// The Python module of its typed commands: `"fm"`, `"fm.huzzah"`.
    fn module(&self) -> &'static str;

    // ---------------------------------------------------------------- scenarios

    /// The scenario `fm.Match()` plays without one (asked of the default system).
    fn default_scenario(&self) -> Option<PyResult<Arc<dyn ReadScenario>>> {
        None
    }
    /// Its built-in scenarios' names, if its bindings list them (the match layer does
    /// not list a system's own).
    fn builtin_names(&self) -> Option<Vec<&'static str>> {
        None
    }
    /// Its built-in scenario `name`, read by its bindings (`None` for a name that is
    /// not one of its own, or a system whose matches the layer opens by name).
    fn builtin(&self, name: &str) -> Option<PyResult<Arc<dyn ReadScenario>>> {
        None
    }
    /// A scenario object of its bindings (`fm.Scenario`).
    fn scenario_object(&self, obj: &Bound<'_, PyAny>) -> Option<Arc<dyn ReadScenario>> {
        None
    }
    /// Scenario data that names no `"system"`, or names this one (asked of the default
    /// system; `"system"` already removed).
    fn scenario_value(&self, v: serde_json::Value) -> PyResult<Source> {
        Ok(Source::Value(v))
    }
    /// Scenario JSON text `body` that names no `"system"` (parsed as `v`; asked of the
    /// default system, whose own parser may report errors by line and column).
    fn scenario_text(&self, body: &str, v: serde_json::Value) -> PyResult<Source> {
        Ok(Source::Value(v))
    }
    /// The error for scenario text `body` that is not JSON and names no system (asked
    /// of the default system; `None`: the JSON syntax error).
    fn scenario_syntax_error(&self, body: &str) -> Option<PyErr> {
        None
    }

    // ---------------------------------------------------------------- commands

    /// A typed command object of this system (`fm.Move`, `fm.huzzah.Fire`), as its JSON
    /// form; `None` for any other object.
    fn command_json(&self, obj: &Bound<'_, PyAny>) -> Option<serde_json::Value> {
        None
    }

    // ---------------------------------------------------------------- the match

    /// The scenario's names of sides a and b, which side arguments may also give.
    fn side_names<'m>(&self, m: &'m dyn DynMatch) -> Option<[&'m str; 2]> {
        None
    }
    /// `Match.scenario_data`.
    fn scenario_data<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.pending`: a typed pending decision.
    fn pending<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.legal_commands()`: typed commands.
    fn legal_commands<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        None
    }
    /// Plays a command, an action index or a chance outcome; the events, typed.
    fn play<'py>(
        &self,
        py: Python<'py>,
        m: &mut dyn DynMatch,
        play: Play<'_, 'py>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match._apply_timed`: plays a command, setting `ns` to the nanoseconds spent in
    /// the Rust call.
    fn apply_timed<'py>(
        &self,
        py: Python<'py>,
        m: &mut dyn DynMatch,
        command: &Bound<'py, PyAny>,
        ns: &mut u64,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.action_of(command)`.
    fn action_of(
        &self,
        m: &dyn DynMatch,
        command: &Bound<'_, PyAny>,
    ) -> Option<PyResult<Option<usize>>> {
        None
    }
    /// `Match.command_of(index)`: a typed command.
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        index: usize,
    ) -> Option<PyResult<Option<Bound<'py, PyAny>>>> {
        None
    }
    /// `Match.state`, `view()`, `export()`.
    fn state<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        of: StateOf,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.result`.
    fn result<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.log`, `opening_events`, `events()`: typed entries and events.
    fn records<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        which: Records,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        None
    }
    /// `repr(match)`.
    fn repr(&self, m: &dyn DynMatch) -> Option<String> {
        None
    }

    // ---------------------------------------------------------------- the picture

    /// The options of `Match.svg` this system takes, `side` first, in the order its
    /// messages list them (`None`: it draws no picture).
    fn svg_options(&self) -> Option<&'static [&'static str]> {
        None
    }
    /// `Match.svg(...)`, another system's options already refused.
    fn svg(
        &self,
        py: Python<'_>,
        m: &dyn DynMatch,
        args: SvgArgs<'_, '_>,
    ) -> Option<PyResult<String>> {
        None
    }
    /// `Match._repr_svg_()`: the picture with the default options.
    fn repr_svg(&self, m: &dyn DynMatch) -> Option<String> {
        None
    }

    // ---------------------------------------------------------------- features of some systems

    /// `Match.scenario`: the scenario object.
    fn scenario<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// Whether the system has turns and phases: `Match.turn`, `phase` and `active`
    /// (for the messages of a system without them).
    fn has_turns(&self) -> bool {
        false
    }
    /// `Match.turn`.
    fn turn(&self, m: &dyn DynMatch) -> Option<u16> {
        None
    }
    /// `Match.phase`.
    fn phase(&self, m: &dyn DynMatch) -> Option<String> {
        None
    }
    /// `Match.active`: the phasing side, `Some(None)` in a phase of both sides.
    fn active(&self, m: &dyn DynMatch) -> Option<Option<String>> {
        None
    }
    /// `Match.legal_commands_for(unit)`.
    fn legal_commands_for<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        unit: &str,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        None
    }
    /// `Match.explain(command)`.
    fn explain<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        command: &Bound<'py, PyAny>,
    ) -> Option<PyResult<Option<Py<PyAny>>>> {
        None
    }
    /// `Match.reachable(unit)`.
    fn reachable<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        unit: &str,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// `Match.odds(hex, ...)` (the proposal dict form is the match layer's).
    fn odds<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        args: OddsArgs<'_, 'py>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        None
    }
    /// Whether `Match.observation(side, out=buffer)` is so short (a few microseconds)
    /// that it keeps the GIL: handing it over and taking it back at every call costs a
    /// second thread more than the call (`benches/python/bench_gil.py`).
    fn observation_keeps_gil(&self) -> bool {
        false
    }

    // ---------------------------------------------------------------- whole games

    /// One game of `fm.play_random` from the new match `m`, with its own agent (`None`:
    /// the match layer's uniformly random play-out).
    fn random_game(
        &self,
        m: &mut dyn DynMatch,
        rng: &mut dyn rand_core::RngCore,
    ) -> Option<GameResult> {
        None
    }
    /// `fm.rust_playthrough_hash` from the new match `m`, through the typed values
    /// (`None`: through the match layer's JSON forms).
    fn playthrough_hash(
        &self,
        m: &mut dyn DynMatch,
        steps: usize,
    ) -> Option<PyResult<(u64, usize, u64)>> {
        None
    }
}

/// A system without bindings of its own: every hook's default.
pub struct Generic;

impl PySystem for Generic {
    fn name(&self) -> &'static str {
        ""
    }
    fn title(&self) -> &'static str {
        ""
    }
    fn module(&self) -> &'static str {
        ""
    }
}

/// The bindings of a system that has none of its own.
pub static GENERIC: Generic = Generic;

/// The installed systems, in the registry's order (Fire & Movement first).
static SYSTEMS: OnceLock<Vec<&'static dyn PySystem>> = OnceLock::new();

/// Installs the systems' bindings (the crate root does, when the module is imported;
/// later calls change nothing).
pub fn install(systems: Vec<&'static dyn PySystem>) {
    let _ = SYSTEMS.set(systems);
}

/// The installed systems' bindings.
pub fn all() -> &'static [&'static dyn PySystem] {
    SYSTEMS.get().map_or(&[], Vec::as_slice)
}

/// The bindings of the system named `name` ([`GENERIC`] if it has none).
pub fn named(name: &str) -> &'static dyn PySystem {
    all()
        .iter()
        .copied()
        .find(|s| s.name() == name)
        .unwrap_or(&GENERIC)
}

/// The bindings of `m`'s system.
pub fn of(m: &dyn DynMatch) -> &'static dyn PySystem {
    named(m.system())
}

/// The bindings of the default system, whose scenario JSON need not name it.
pub fn default() -> &'static dyn PySystem {
    named(fm_core::any::default_system())
}

/// `of` for a feature that some systems have: `"a Fire & Movement and Huzzah!
/// feature"`, naming each installed system whose bindings `has` it.
pub fn feature_of(has: impl Fn(&dyn PySystem) -> bool) -> String {
    let titles: Vec<&str> = all()
        .iter()
        .filter(|s| has(**s))
        .map(|s| s.title())
        .collect();
    format!("a {} feature", titles.join(" and "))
}

/// A typed command of another system than `this` as a command for a match of `this`:
/// the `fm.ProtocolError` that names the command's system (`None` for any other
/// object).
pub fn foreign_command(obj: &Bound<'_, PyAny>, this: &dyn PySystem) -> Option<PyErr> {
    let owner = all()
        .iter()
        .find(|s| s.name() != this.name() && s.command_json(obj).is_some())?;
    Some(protocol_error(format!(
        "{}.{} is a command of the \"{}\" rules system{}; this match is of \"{}\"{}",
        owner.module(),
        type_name(obj),
        owner.name(),
        owner.gloss(),
        this.name(),
        this.gloss()
    )))
}
