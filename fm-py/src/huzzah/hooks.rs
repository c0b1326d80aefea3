//! Huzzah!'s implementation of [`PySystem`]: each hook downcasts the `DynMatch` to
//! `GameMatch<Huzzah>` ([`HzMatch`]) and gives the typed objects (`fm.huzzah`) and the
//! table picture; the rest of `fm.Match` is the match layer's JSON forms.

use super::commands::{command_from_py, command_obj, PyHzCommand};
use super::events::events_list;
use super::records::{log_list, pending_obj};
use super::{picture, HzMatch};
use crate::errors::rule_error;
use crate::system::{Play, PySystem, Records, SvgArgs};
use fm_core::any::DynMatch;
use fm_core::huzzah::Huzzah;
use fm_core::Game;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// The bindings of Huzzah! Glorious Empires.
pub struct HuzzahSystem;

/// Huzzah!'s bindings, as the crate root installs them.
pub static SYSTEM: HuzzahSystem = HuzzahSystem;

/// The Huzzah! match behind a `DynMatch`, if it is one.
fn hz_match(m: &dyn DynMatch) -> Option<&HzMatch> {
    m.as_any().downcast_ref::<HzMatch>()
}

/// Applies a command given as Python gave it: a typed `fm.huzzah.Command` as it is,
/// anything else read by [`command_from_py`].
fn apply<'py>(
    py: Python<'py>,
    m: &mut HzMatch,
    command: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let r = if let Ok(c) = command.cast::<PyHzCommand>() {
        m.apply(&c.get().cmd)
    } else {
        m.apply(&command_from_py(command)?)
    };
    match r {
        Ok(events) => Ok(events_list(py, events)?.into_any()),
        Err(e) => Err(rule_error(&e)),
    }
}

/// The typed log, opening events or every event.
fn records<'py>(py: Python<'py>, m: &HzMatch, which: Records) -> PyResult<Bound<'py, PyList>> {
    match which {
        Records::Log => log_list(py, m),
        Records::Opening => events_list(py, m.opening_events()),
        Records::All => {
            let all: Vec<fm_core::huzzah::event::Event> = m
                .opening_events()
                .iter()
                .chain(m.log().iter().flat_map(|e| e.events.iter()))
                .cloned()
                .collect();
            events_list(py, &all)
        }
    }
}

impl PySystem for HuzzahSystem {
    fn name(&self) -> &'static str {
        <Huzzah as Game>::NAME
    }
    fn title(&self) -> &'static str {
        "Huzzah!"
    }
    fn module(&self) -> &'static str {
        "fm.huzzah"
    }

    fn has_turns(&self) -> bool {
        true
    }
    fn turn(&self, m: &dyn DynMatch) -> Option<u16> {
        Some(hz_match(m)?.state().turn)
    }
    fn phase(&self, m: &dyn DynMatch) -> Option<String> {
        Some(hz_match(m)?.state().phase.name().to_string())
    }
    fn active(&self, m: &dyn DynMatch) -> Option<Option<String>> {
        Some(hz_match(m)?.state().phase.phasing().map(|s| s.to_string()))
    }

    fn command_json(&self, obj: &Bound<'_, PyAny>) -> Option<serde_json::Value> {
        let c = obj.cast::<PyHzCommand>().ok()?;
        Some(serde_json::to_value(&c.get().cmd).expect("a command serializes"))
    }

    fn pending<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        Some(pending_obj(py, &hz_match(m)?.pending()))
    }
    fn legal_commands<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        let m = hz_match(m)?;
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
        let m = m.as_any_mut().downcast_mut::<HzMatch>()?;
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
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        index: usize,
    ) -> Option<PyResult<Option<Bound<'py, PyAny>>>> {
        let m = hz_match(m)?;
        Some(
            <Huzzah as Game>::index_to_command(m.scenario(), m.state(), index)
                .map(|c| command_obj(py, &c))
                .transpose(),
        )
    }
    fn records<'py>(
        &self,
        py: Python<'py>,
        m: &dyn DynMatch,
        which: Records,
    ) -> Option<PyResult<Bound<'py, PyList>>> {
        Some(records(py, hz_match(m)?, which))
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
        Some(picture::svg(py, hz_match(m)?, args))
    }
    fn repr_svg(&self, m: &dyn DynMatch) -> Option<String> {
        Some(picture::repr_svg(hz_match(m)?))
    }
}
