//! Fire & Movement's own features of `fm.Match` (the others raise
//! `fm.UnsupportedError`): `turn`, `phase`, `active`, `legal_commands_for()`,
//! `explain()`, `reachable()`, `odds()` of an attack or bombardment, and the learning
//! agents' observations (`observation_bytes()`, `observation()`).

use super::commands::{command_obj, fm_command};
use super::{markers_arg, side_names};
use crate::args::{opt_str_list, side_from_py};
use crate::convert::to_py;
use crate::errors::{protocol_error, rule_error};
use crate::system::OddsArgs;
use fm_core::{Scenario, UnitId};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// The `fm.RuleError` for a query naming a unit the scenario does not have (the same
/// rule and message as a command naming it).
fn check_unit(sc: &Scenario, unit: &str) -> PyResult<UnitId> {
    let id = UnitId::new(unit);
    if sc.unit_index(&id).is_none() {
        return Err(rule_error(&fm_core::RuleError::new(
            "input",
            format!("unknown unit '{unit}'"),
        )));
    }
    Ok(id)
}

/// `Match.phase`: the current phase's JSON name (`"movement"`, ...).
pub fn phase(m: &fm_core::Match) -> String {
    serde_json::to_value(m.state().phase)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `Match.legal_commands_for(unit)`.
pub fn legal_commands_for<'py>(
    py: Python<'py>,
    m: &fm_core::Match,
    unit: &str,
) -> PyResult<Bound<'py, PyList>> {
    let id = check_unit(m.scenario(), unit)?;
    let cmds = fm_core::legal_commands_for(m.scenario(), m.state(), &id);
    let mut v = Vec::with_capacity(cmds.len());
    for c in &cmds {
        v.push(command_obj(py, c)?);
    }
    PyList::new(py, v)
}

/// `Match.explain(command)`: the `fm.RuleError` the rules would raise, not raised.
pub fn explain<'py>(
    py: Python<'py>,
    m: &fm_core::Match,
    command: &Bound<'py, PyAny>,
) -> PyResult<Option<Py<PyAny>>> {
    let c = fm_command(command)?;
    // The rules' checks without the GIL (a move's is a search).
    let refusal = py.detach(|| fm_core::explain(m.scenario(), m.state(), &c));
    Ok(refusal.map(|e| rule_error(&e).into_value(py).into_any()))
}

/// `Match.reachable(unit)`.
pub fn reachable<'py>(
    py: Python<'py>,
    m: &fm_core::Match,
    unit: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let id = check_unit(m.scenario(), unit)?;
    let r = py.detach(|| fm_core::reachable(m.scenario(), m.state(), &id));
    to_py(py, &r)
}

/// `Match.odds(hex, units, attacker_markers, defender_markers, side)`: an attack on
/// `hex` by `units`, or a bombardment (`units` empty).
pub fn odds<'py>(
    py: Python<'py>,
    m: &fm_core::Match,
    args: OddsArgs<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let units = opt_str_list(args.units, "units", "unit id")?;
    let attacker_markers = match args.attacker_markers {
        Some(m) => markers_arg(m, "attacker_markers")?,
        None => 0,
    };
    let defender_markers = match args.defender_markers {
        Some(m) => markers_arg(m, "defender_markers")?,
        None => 0,
    };
    let side = match args.side {
        Some(s) if !s.is_none() => side_from_py(Some(side_names(m.scenario())), s)?,
        _ => m.pending().side().unwrap_or(m.state().active),
    };
    let p = fm_core::AttackProposal {
        hex: args
            .hex
            .parse()
            .map_err(|e: fm_core::HexParseError| protocol_error(e.to_string()))?,
        units: units.iter().map(|u| UnitId::new(u)).collect(),
        attacker_markers,
        defender_markers,
    };
    match py.detach(|| fm_core::combat_odds(m.scenario(), m.state(), side, &p)) {
        Ok(o) => to_py(py, &o),
        Err(e) => Err(rule_error(&e)),
    }
}
