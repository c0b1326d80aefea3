//! Fire & Movement's implementation of [`PySystem`]: each hook downcasts the
//! `DynMatch` to `fm_core::Match` and gives the typed objects (with the typed fast
//! paths: commands taken as they are, the legal commands listed without the GIL), the
//! board picture and Fire & Movement's own features; the scenario hooks read Fire &
//! Movement scenarios, the default system's.

use super::commands::{command_obj, fm_command, PyCommand};
use super::events::events_list;
use super::records::{PyLogEntry, PyPending};
use super::scenario::{self, PyScenario};
use super::{fm_match, fm_match_mut, picture, queries, side_names};
use crate::convert::{to_py, Fnv};
use crate::errors::rule_error;
use crate::functions::{hash_event_value, no_command};
use crate::system::{
    GameResult, OddsArgs, Play, PySystem, ReadScenario, Records, Source, StateOf, SvgArgs,
};
use fm_core::any::DynMatch;
use fm_core::Scenario;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::Arc;

/// The bindings of Fire & Movement.
pub struct FmSystem;

/// Fire & Movement's bindings, as the crate root installs them.
pub static SYSTEM: FmSystem = FmSystem;

/// The scenario `fm.Match()` plays without one.
const DEFAULT_SCENARIO: &str = "system-demo";

/// [`hash_event_value`] of a Fire & Movement event.
fn hash_event(h: &mut Fnv, e: &fm_core::Event) {
    hash_event_value(h, &serde_json::to_value(e).expect("an event serializes"));
}

/// Applies a command given as Python gave it: a typed `fm.Command` as it is, anything
/// else read by [`fm_command`].
fn apply<'py>(
    py: Python<'py>,
    m: &mut fm_core::Match,
    command: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = if let Ok(c) = command.cast::<PyCommand>() {
        m.apply(&c.get().cmd)
    } else {
        let c = fm_command(command)?;
        m.apply(&c)
    };
    match r {
        Ok(events) => Ok(events_list(py, events)?.into_any()),
        Err(e) => Err(rule_error(&e)),
    }
}

/// [`apply`], timing the Rust call alone into `ns` (not when the command is malformed).
fn apply_timed<'py>(
    py: Python<'py>,
    m: &mut fm_core::Match,
    command: &Bound<'py, PyAny>,
    ns: &mut u64,
) -> PyResult<Bound<'py, PyAny>> {
    let (r, elapsed) = if let Ok(c) = command.cast::<PyCommand>() {
        let t = std::time::Instant::now();
        let r = m.apply(&c.get().cmd).map(|e| e.len());
        (r, t.elapsed().as_nanos() as u64)
    } else {
        let c = fm_command(command)?;
        let t = std::time::Instant::now();
        let r = m.apply(&c).map(|e| e.len());
        (r, t.elapsed().as_nanos() as u64)
    };
    let r = match r {
        Ok(n) => {
            Ok(events_list(py, &m.log().last().expect("just applied").events[..n])?.into_any())
        }
        Err(e) => Err(rule_error(&e)),
    };
    *ns = elapsed;
    r
}

/// The typed log, opening events or every event.
fn records<'py>(
    py: Python<'py>,
    m: &fm_core::Match,
    which: Records,
) -> PyResult<Bound<'py, PyList>> {
    match which {
        Records::Log => {
            let mut v = Vec::with_capacity(m.log().len());
            for e in m.log() {
                v.push(Bound::new(py, PyLogEntry { entry: e.clone() })?);
            }
            PyList::new(py, v)
        }
        Records::Opening => events_list(py, m.opening_events()),
        Records::All => {
            let all: Vec<fm_core::Event> = m
                .opening_events()
                .iter()
                .chain(m.log().iter().flat_map(|e| e.events.iter()))
                .cloned()
                .collect();
            events_list(py, &all)
        }
    }
}

/// `repr(match)`: scenario, seed, turn, phase and who is to decide (by side name).
fn repr(m: &fm_core::Match) -> String {
    let status = if m.is_over() {
        match m.winner() {
            Some(w) => format!("over, {} won", m.scenario().side_name(w)),
            None => "over, a draw".to_string(),
        }
    } else {
        let p = m.pending();
        let kind = serde_json::to_value(&p)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
            .unwrap_or_default();
        format!(
            "turn {}, {}, waiting for {} ({kind})",
            m.state().turn,
            queries::phase(m),
            p.side()
                .map(|s| m.scenario().side_name(s))
                .unwrap_or("nobody")
        )
    };
    format!(
        "<fm.Match {} seed={}: {status}; {} command(s)>",
        m.scenario().data.id,
        m.seed(),
        m.log().len()
    )
}

/// One game of `fm.play_random`: the `play` example's agent, so that the games are the
/// same.
fn random_game(m: &mut fm_core::Match, rng: &mut dyn rand_core::RngCore) -> GameResult {
    let mut n = 0u64;
    while !m.is_over() {
        let c = fm_core::agents::random(m.scenario(), m.state(), rng)
            .ok_or_else(|| "no legal command before the end".to_string())?;
        m.apply(&c)
            .map_err(|e| format!("a legal command was refused: {e}"))?;
        n += 1;
    }
    Ok((m.winner(), n))
}

/// `fm.rust_playthrough_hash` through the typed commands and events.
fn playthrough_hash(m: &mut fm_core::Match, steps: usize) -> PyResult<(u64, usize, u64)> {
    let mut h = Fnv::new();
    for e in m.opening_events() {
        hash_event(&mut h, e);
    }
    let mut k = 0;
    while k < steps && !m.is_over() {
        let cmds = m.legal_commands();
        if cmds.is_empty() {
            return Err(no_command(k));
        }
        let c = cmds[(k * 7) % cmds.len()].clone();
        let events = m.apply(&c).map_err(|e| rule_error(&e))?;
        for e in events {
            hash_event(&mut h, e);
        }
        k += 1;
    }
    Ok((h.0, k, m.state().hash()))
}

impl PySystem for FmSystem {
    fn name(&self) -> &'static str {
        <fm_core::Fm as fm_core::Game>::NAME
    }
    fn title(&self) -> &'static str {
        "Fire & Movement"
    }
    fn gloss(&self) -> &'static str {
        " (Fire & Movement)"
    }
    fn module(&self) -> &'static str {
        "fm"
    }

    fn default_scenario(&self) -> Option<PyResult<Arc<dyn ReadScenario>>> {
        Some(scenario::builtin(DEFAULT_SCENARIO))
    }
    fn builtin_names(&self) -> Option<Vec<&'static str>> {
        Some(Scenario::builtin_names())
    }
    fn builtin(&self, name: &str) -> Option<PyResult<Arc<dyn ReadScenario>>> {
        Scenario::builtin_names()
            .contains(&name)
            .then(|| scenario::builtin(name))
    }
    fn scenario_object(&self, obj: &Bound<'_, PyAny>) -> Option<Arc<dyn ReadScenario>> {
        let s = obj.cast::<PyScenario>().ok()?;
        Some(scenario::read(s.get().sc.clone()))
    }
    fn scenario_value(&self, v: serde_json::Value) -> PyResult<Source> {
        scenario::from_value(v)
    }
    fn scenario_text(&self, body: &str, v: serde_json::Value) -> PyResult<Source> {
        drop(v);
        scenario::from_text(body)
    }
    fn scenario_syntax_error(&self, body: &str) -> Option<PyErr> {
        scenario::syntax_error(body)
    }

    fn command_json(&self, obj: &Bound<'_, PyAny>) -> Option<serde_json::Value> {
        let c = obj.cast::<PyCommand>().ok()?;
        Some(serde_json::to_value(&c.get().cmd).expect("a command serializes"))
    }

    fn side_names<'m>(&self, m: &'m dyn DynMatch) -> Option<[&'m str; 2]> {
        Some(side_names(fm_match(m)?.scenario()))
    }
    fn scenario_data<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        // The typed data keeps the scenario file's key order.
        Some(to_py(py, &fm_match(m)?.scenario().data))
    }
    fn pending<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let m = fm_match(m)?;
        Some(Bound::new(py, PyPending::new(m.pending())).map(Bound::into_any))
    }
    fn legal_commands<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        let m = fm_match(m)?;
        // The listing without the GIL; the Python objects with it.
        let cmds = py.detach(|| m.legal_commands());
        let v: PyResult<Vec<_>> = cmds.iter().map(|c| command_obj(py, c)).collect();
        Some(v.and_then(|v| PyList::new(py, v)))
    }
    fn play<'py>(
        &self,
        py: Python<'py>,
        m: &mut dyn DynMatch,
        play: Play<'_, 'py>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let m = fm_match_mut(m)?;
        let r = match play {
            Play::Command(c) => return Some(apply(py, m, c)),
            Play::Index(i) => m.apply_index(i),
            Play::Chance(k) => m.apply_chance(k),
        };
        Some(match r {
            Ok(events) => events_list(py, events).map(Bound::into_any),
            Err(e) => Err(rule_error(&e)),
        })
    }
    fn apply_timed<'py>(
        &self,
        py: Python<'py>,
        m: &mut dyn DynMatch,
        command: &Bound<'py, PyAny>,
        ns: &mut u64,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(apply_timed(py, fm_match_mut(m)?, command, ns))
    }
    fn action_of(
        &self,
        m: &dyn DynMatch,
        command: &Bound<'_, PyAny>,
    ) -> Option<PyResult<Option<usize>>> {
        let m = fm_match(m)?;
        Some(fm_command(command).map(|c| fm_core::command_to_index(m.scenario(), m.state(), &c)))
    }
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        index: usize,
    ) -> Option<PyResult<Option<Bound<'py, PyAny>>>> {
        let m = fm_match(m)?;
        Some(
            fm_core::index_to_command(m.scenario(), m.state(), index)
                .map(|c| command_obj(py, &c))
                .transpose(),
        )
    }
    fn state<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        of: StateOf,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let m = fm_match(m)?;
        Some(match of {
            StateOf::Full => to_py(py, m.state()),
            // The view and the export are made without the GIL; the conversion to
            // Python objects needs it.
            StateOf::View(s) => to_py(py, &py.detach(|| m.view(s))),
            StateOf::Export(s) => to_py(py, &py.detach(|| m.export(s))),
        })
    }
    fn result<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(to_py(py, &fm_match(m)?.state().outcome))
    }
    fn records<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        which: Records,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        Some(records(py, fm_match(m)?, which))
    }
    fn repr(&self, m: &dyn DynMatch) -> Option<String> {
        Some(repr(fm_match(m)?))
    }

    fn svg_options(&self) -> Option<&'static [&'static str]> {
        Some(picture::SVG_OPTIONS)
    }
    fn svg(
        &self,
        py: Python<'_>,
        m: &dyn DynMatch,
        args: SvgArgs<'_, '_>,
    ) -> Option<PyResult<String>> {
        Some(picture::svg(py, fm_match(m)?, args))
    }
    fn repr_svg(&self, m: &dyn DynMatch) -> Option<String> {
        Some(picture::repr_svg(fm_match(m)?))
    }

    fn scenario<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let sc = fm_match(m)?.scenario_arc();
        Some(Bound::new(py, PyScenario { sc }).map(Bound::into_any))
    }
    fn has_turns(&self) -> bool {
        true
    }
    fn turn(&self, m: &dyn DynMatch) -> Option<u16> {
        Some(fm_match(m)?.state().turn)
    }
    fn phase(&self, m: &dyn DynMatch) -> Option<String> {
        Some(queries::phase(fm_match(m)?))
    }
    fn active(&self, m: &dyn DynMatch) -> Option<Option<String>> {
        Some(Some(fm_match(m)?.state().active.to_string()))
    }
    fn legal_commands_for<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        unit: &str,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        Some(queries::legal_commands_for(py, fm_match(m)?, unit))
    }
    fn explain<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        command: &Bound<'py, PyAny>,
    ) -> Option<PyResult<Option<Py<PyAny>>>> {
        Some(queries::explain(py, fm_match(m)?, command))
    }
    fn reachable<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        unit: &str,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(queries::reachable(py, fm_match(m)?, unit))
    }
    fn odds<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        args: OddsArgs<'_, 'py>,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(queries::odds(py, fm_match(m)?, args))
    }
    fn observation_keeps_gil(&self) -> bool {
        // 1-14 µs on the built-in maps (the map planes copied, the rest sparse).
        true
    }

    fn random_game(
        &self,
        m: &mut dyn DynMatch,
        rng: &mut dyn rand_core::RngCore,
    ) -> Option<GameResult> {
        Some(random_game(fm_match_mut(m)?, rng))
    }
    fn playthrough_hash(
        &self,
        m: &mut dyn DynMatch,
        steps: usize,
    ) -> Option<PyResult<(u64, usize, u64)>> {
        Some(playthrough_hash(fm_match_mut(m)?, steps))
    }
}
