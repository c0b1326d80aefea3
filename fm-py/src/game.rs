//! `fm.Scenario` and `fm.Match`.

use crate::args::{
    as_int, describe, int_text, markers_arg, not_an_int, opt_str_list, os_error, read_text_file,
    seed_arg, str_list, ReadError,
};
use crate::convert::{check_text_size, strip_bom, to_json_value, to_py, type_name};
use crate::errors::{match_error, protocol_error, rule_error, scenario_error};
use crate::objects::{command_from_py, command_obj, events_list, PyCommand, PyLogEntry, PyPending};
use fm_core::{Hex, MapMarker, RenderOptions, Scenario, Side, UnitId};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

/// What a side argument accepts, for messages.
const SIDE_FORMS: &str = "\"a\" or \"b\", 0 or 1, or a side's name in the scenario";

/// `"a"` / `"b"` (either case).
pub fn side_arg(s: &str) -> PyResult<Side> {
    match s {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(PyValueError::new_err(format!(
            "a side is \"a\" or \"b\", not {s:?}"
        ))),
    }
}

/// Reads a side: a str (`"a"`, `"b"`, or with a scenario a side's name, any case) or an
/// int (`0`, `1`; also a numpy integer). A bool (`True` is an int in Python, and would
/// silently mean side b) or any other type is a `TypeError` naming the accepted forms.
pub fn side_from_py(sc: Option<&Scenario>, obj: &Bound<'_, PyAny>) -> PyResult<Side> {
    let forms = if sc.is_some() {
        SIDE_FORMS
    } else {
        "\"a\" or \"b\", or 0 or 1"
    };
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        if let Ok(side) = side_arg(s) {
            return Ok(side);
        }
        if let Some(sc) = sc {
            for side in Side::BOTH {
                if sc.side_name(side).eq_ignore_ascii_case(s) {
                    return Ok(side);
                }
            }
            return Err(PyValueError::new_err(format!(
                "unknown side {s:?} (sides: \"a\" = {}, \"b\" = {})",
                sc.side_name(Side::A),
                sc.side_name(Side::B)
            )));
        }
        return Err(PyValueError::new_err(format!(
            "unknown side {s:?} (a side is {forms})"
        )));
    }
    let Some(i) = as_int(obj) else {
        return Err(PyTypeError::new_err(format!(
            "a side is {forms}, not {}",
            describe(obj)
        )));
    };
    match i.extract::<i64>() {
        Ok(0) => Ok(Side::A),
        Ok(1) => Ok(Side::B),
        _ => Err(PyValueError::new_err(format!(
            "side index {} is not 0 or 1",
            int_text(&i)
        ))),
    }
}

/// A scenario error about the whole input (no JSON path).
fn whole_scenario_error(message: String) -> PyErr {
    scenario_error(&fm_core::ScenarioError {
        path: String::new(),
        message,
    })
}

/// Parses scenario JSON text (at most `MAX_INPUT_BYTES`, a leading byte-order mark
/// ignored).
fn scenario_from_text(text: &str) -> PyResult<Arc<Scenario>> {
    check_text_size(text.len(), "scenario JSON").map_err(whole_scenario_error)?;
    Scenario::from_json(strip_bom(text))
        .map(Arc::new)
        .map_err(|e| scenario_error(&e))
}

/// Loads a scenario from a built-in name, a path, or JSON text.
pub fn load_scenario(source: &Bound<'_, PyAny>) -> PyResult<Arc<Scenario>> {
    if let Ok(s) = source.cast::<PyScenario>() {
        return Ok(s.get().sc.clone());
    }
    if let Ok(d) = source.cast::<PyDict>() {
        let v = to_json_value(d.as_any(), "scenario").map_err(protocol_error)?;
        let data = fm_core::ScenarioData::from_value(v).map_err(|e| scenario_error(&e))?;
        return Scenario::from_data(data)
            .map(Arc::new)
            .map_err(|e| scenario_error(&e));
    }
    let text: String = if let Ok(s) = source.cast::<PyString>() {
        s.to_str()?.to_string()
    } else if source.hasattr("__fspath__")? {
        let p: std::path::PathBuf = source.extract()?;
        return read_scenario_file(&p);
    } else {
        return Err(protocol_error(format!(
            "a scenario is a built-in name, a path, JSON text, a dict or an fm.Scenario, not a {}",
            type_name(source)
        )));
    };
    if strip_bom(&text).trim_start().starts_with('{') {
        return scenario_from_text(&text);
    }
    if Scenario::builtin_names().contains(&text.as_str()) {
        return Scenario::builtin(&text)
            .map(Arc::new)
            .map_err(|e| scenario_error(&e));
    }
    let p = std::path::Path::new(&text);
    if p.is_file() {
        return read_scenario_file(p);
    }
    Err(whole_scenario_error(format!(
        "'{}' is neither a built-in scenario ({}) nor a file",
        text.chars().take(200).collect::<String>(),
        Scenario::builtin_names().join(", ")
    )))
}

/// Reads a scenario file: at most `MAX_INPUT_BYTES` (so an endless file is refused,
/// not read until memory runs out).
fn read_scenario_file(p: &std::path::Path) -> PyResult<Arc<Scenario>> {
    let text = read_text_file(p).map_err(|e| whole_scenario_error(e.message(p)))?;
    Scenario::from_json(&text)
        .map(Arc::new)
        .map_err(|e| scenario_error(&e))
}

// ---------------------------------------------------------------- Scenario

/// A validated, immutable scenario: the map, terrain, CRT, order of battle and turn
/// track. Shared cheaply between matches (`fm.Match(scenario, seed)`).
#[pyclass(module = "fm", name = "Scenario", frozen)]
pub struct PyScenario {
    pub sc: Arc<Scenario>,
}

#[pymethods]
impl PyScenario {
    /// Loads a scenario: a built-in name (`fm.scenarios()`), a path to a JSON file, JSON
    /// text, or a dict of scenario data.
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyScenario {
            sc: load_scenario(source)?,
        })
    }

    /// Short id (`"system-demo"`).
    #[getter]
    fn id(&self) -> String {
        self.sc.data.id.clone()
    }

    /// Title.
    #[getter]
    fn name(&self) -> String {
        self.sc.data.name.clone()
    }

    /// Side names: `{"a": "Blue", "b": "Red"}`.
    #[getter]
    fn sides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in Side::BOTH {
            d.set_item(s.to_string(), self.sc.side_name(s))?;
        }
        Ok(d)
    }

    /// Unit ids in scenario order (the order of the action encoding).
    #[getter]
    fn unit_ids(&self) -> Vec<String> {
        self.sc
            .units
            .iter()
            .map(|u| u.data.id.as_str().to_string())
            .collect()
    }

    /// Hex ids in scenario order (the order of the action encoding).
    #[getter]
    fn hexes(&self) -> Vec<String> {
        self.sc.hexes.iter().map(|h| h.hex.to_string()).collect()
    }

    /// Number of turns on the turn track.
    #[getter]
    fn turn_count(&self) -> u16 {
        self.sc.turn_count()
    }

    /// Size of the fixed integer action space (`fm_core::action_space_size`).
    #[getter]
    fn action_space_size(&self) -> usize {
        fm_core::action_space_size(&self.sc)
    }

    /// The scenario data as a dict (the scenario file's JSON form).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.sc.data)
    }

    /// The scenario file's JSON text.
    fn to_json(&self) -> String {
        self.sc.to_json()
    }

    /// The shape of the board planes of an observation: `(channels, rows, columns)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let m = crate::obs::Meta::new(&self.sc);
        (m.channels, m.rows, m.cols)
    }

    /// Names of the board channels of an observation.
    #[getter]
    fn observation_channels(&self) -> Vec<String> {
        crate::obs::Meta::new(&self.sc).channel_names
    }

    /// Names of the entries of an observation's feature vector.
    #[getter]
    fn feature_names(&self) -> Vec<String> {
        crate::obs::feature_names()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let q = |s: &str| -> PyResult<String> { Ok(PyString::new(py, s).repr()?.to_string()) };
        Ok(format!(
            "Scenario(id={}, name={}, hexes={}, units={}, turns={})",
            q(&self.sc.data.id)?,
            q(&self.sc.data.name)?,
            self.sc.hexes.len(),
            self.sc.units.len(),
            self.sc.turn_count()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyScenario>() {
            Ok(o) => Arc::ptr_eq(&o.get().sc, &self.sc) || o.get().sc.data == self.sc.data,
            Err(_) => false,
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let cls = py.import("fm._fm")?.getattr("Scenario")?;
        PyTuple::new(py, [cls, PyTuple::new(py, [self.sc.to_json()])?.into_any()])
    }
}

// ---------------------------------------------------------------- Match

/// A running game: scenario, state, seeded generator (xoshiro256++) and the log.
#[pyclass(module = "fm", name = "Match")]
pub struct PyMatch {
    pub m: fm_core::Match,
    /// Nanoseconds spent inside `fm_core::Match::apply` by the last `_apply_timed`.
    last_apply_ns: u64,
}

impl PyMatch {
    fn scenario(&self) -> &Scenario {
        self.m.scenario()
    }
}

/// The bounds of `svg(hex_size=...)`: the renderer's own (`fm_core::render`), which
/// would otherwise clamp a value outside them silently (and let NaN through).
const HEX_SIZE_RANGE: (f64, f64) = (fm_core::render::MIN_HEX_SIZE, fm_core::render::MAX_HEX_SIZE);

fn render_options(
    hex_size: f64,
    hex_ids: bool,
    panel: bool,
    highlight: Option<&Bound<'_, PyAny>>,
    markers: Option<&Bound<'_, PyAny>>,
    title: Option<String>,
) -> PyResult<RenderOptions> {
    let (lo, hi) = HEX_SIZE_RANGE;
    if !(lo..=hi).contains(&hex_size) {
        return Err(PyValueError::new_err(format!(
            "hex_size must be a number of pixels from {lo} to {hi}, not {hex_size}"
        )));
    }
    let hex =
        |s: &str| -> PyResult<Hex> { s.parse::<Hex>().map_err(|e| protocol_error(e.to_string())) };
    let mut marks = Vec::new();
    if let Some(ms) = markers.filter(|m| !m.is_none()) {
        let wanted = "markers must be a list of (hex, kind, label) tuples of str";
        if ms.is_instance_of::<PyString>() || ms.is_instance_of::<PyDict>() {
            return Err(PyTypeError::new_err(format!(
                "{wanted}, not a {}",
                type_name(ms)
            )));
        }
        let items: Vec<Bound<'_, PyAny>> = ms
            .try_iter()
            .map_err(|_| PyTypeError::new_err(format!("{wanted}, not a {}", type_name(ms))))?
            .collect::<PyResult<_>>()?;
        for (i, m) in items.iter().enumerate() {
            let parts = str_list(m, &format!("markers[{i}]"), "str")
                .ok()
                .filter(|p| p.len() == 3)
                .ok_or_else(|| {
                    PyTypeError::new_err(format!(
                        "markers[{i}] must be a (hex, kind, label) tuple of three str, not {}",
                        m.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
            let [h, kind, label]: [String; 3] = parts
                .try_into()
                .map_err(|_| PyTypeError::new_err(format!("markers[{i}] must have three items")))?;
            marks.push(MapMarker {
                hex: hex(&h)?,
                kind,
                label,
            });
        }
    }
    Ok(RenderOptions {
        hex_size,
        hex_ids,
        panel,
        title,
        highlight: opt_str_list(highlight, "highlight", "hex id")?
            .iter()
            .map(|s| hex(s))
            .collect::<PyResult<_>>()?,
        markers: marks,
    })
}

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

/// An action index: an int (or numpy integer), not a bool. `Ok(None)` for an int
/// outside the action space's type (negative, or past 2**64), which no command has.
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<(Option<usize>, String)> {
    let i = as_int(action).ok_or_else(|| not_an_int(action, "an action index"))?;
    let text = int_text(&i);
    Ok((i.extract::<usize>().ok(), text))
}

#[pymethods]
impl PyMatch {
    /// Starts a match. `scenario`: a built-in name (`fm.scenarios()`), a path to a
    /// scenario file, scenario JSON text, a dict, or an `fm.Scenario`.
    #[new]
    /// `seed`: an int in 0..2**64-1 (`ValueError` outside it).
    #[pyo3(signature = (scenario = None, seed = None), text_signature = "(scenario=None, seed=0)")]
    fn new(scenario: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed_arg(seed, 0)?;
        let sc = match scenario {
            Some(s) => load_scenario(s)?,
            None => Arc::new(Scenario::builtin("system-demo").map_err(|e| scenario_error(&e))?),
        };
        Ok(PyMatch {
            m: fm_core::Match::new(sc, seed),
            last_apply_ns: 0,
        })
    }

    /// The scenario.
    #[getter(scenario)]
    fn scenario_obj(&self) -> PyScenario {
        PyScenario {
            sc: self.m.scenario_arc(),
        }
    }

    /// The seed of the match's generator.
    #[getter]
    fn seed(&self) -> u64 {
        self.m.seed()
    }

    /// The decision the game waits for.
    #[getter]
    fn pending(&self) -> PyPending {
        PyPending::new(self.m.pending())
    }

    /// Game turn (1-based).
    #[getter]
    fn turn(&self) -> u16 {
        self.m.state().turn
    }

    /// Current phase (`"movement"`, ...).
    #[getter]
    fn phase(&self) -> String {
        serde_json::to_value(self.m.state().phase)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The phasing side (`"a"` or `"b"`).
    #[getter]
    fn active(&self) -> String {
        self.m.state().active.to_string()
    }

    /// The side whose decision it is, `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.m.pending().side().map(|s| s.to_string())
    }

    /// Every legal command now, typed, in a stable order (`done` first where legal).
    fn legal_commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cmds = self.m.legal_commands();
        let mut v = Vec::with_capacity(cmds.len());
        for c in &cmds {
            v.push(command_obj(py, c)?);
        }
        PyList::new(py, v)
    }

    /// The legal commands that concern one unit. Raises `fm.RuleError` (rule
    /// `"input"`) for a unit the scenario does not have.
    fn legal_commands_for<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyList>> {
        let id = check_unit(self.scenario(), unit)?;
        let cmds = fm_core::legal_commands_for(self.scenario(), self.m.state(), &id);
        let mut v = Vec::with_capacity(cmds.len());
        for c in &cmds {
            v.push(command_obj(py, c)?);
        }
        PyList::new(py, v)
    }

    /// Applies a command (an `fm.Command`, a dict in the documented JSON form, or JSON
    /// text) and returns its events. Raises `fm.RuleError` (nothing changes) if the
    /// rules refuse it, `fm.ProtocolError` if it is malformed.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let r = if let Ok(c) = command.cast::<PyCommand>() {
            self.m.apply(&c.get().cmd)
        } else {
            let c = command_from_py(command)?;
            self.m.apply(&c)
        };
        match r {
            Ok(events) => events_list(py, events),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// Benchmark helper: `apply`, also recording in `_last_apply_ns` the time spent in
    /// the Rust call itself, so that the bindings' overhead can be measured call by
    /// call (`benches/python/bench_bindings.py`).
    fn _apply_timed<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let r = if let Ok(c) = command.cast::<PyCommand>() {
            let t = std::time::Instant::now();
            let r = self.m.apply(&c.get().cmd).map(|e| e.len());
            self.last_apply_ns = t.elapsed().as_nanos() as u64;
            r
        } else {
            let c = command_from_py(command)?;
            let t = std::time::Instant::now();
            let r = self.m.apply(&c).map(|e| e.len());
            self.last_apply_ns = t.elapsed().as_nanos() as u64;
            r
        };
        match r {
            Ok(n) => events_list(py, &self.m.log()[self.m.log().len() - 1].events[..n]),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// Nanoseconds spent in the Rust call by the last `_apply_timed`.
    #[getter]
    fn _last_apply_ns(&self) -> u64 {
        self.last_apply_ns
    }

    /// Applies the command with this action index (see `legal_actions`). Raises
    /// `fm.RuleError` (rule `"input"`) for any int that is no command here, negative
    /// or huge included; `TypeError` for a bool or a non-int.
    fn apply_action<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (index, text) = action_arg(action)?;
        let Some(action) = index else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("action index {text} has no command here"),
            )));
        };
        match self.m.apply_index(action) {
            Ok(events) => events_list(py, events),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// The indices of the legal commands in the fixed action space, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        fm_core::legal_indices(self.scenario(), self.m.state())
    }

    /// The legal actions as a mask: bytes of length `scenario.action_space_size`, 1 for
    /// legal.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let n = fm_core::action_space_size(self.scenario());
        let mut mask = vec![0u8; n];
        for i in fm_core::legal_indices(self.scenario(), self.m.state()) {
            mask[i] = 1;
        }
        PyBytes::new(py, &mask)
    }

    /// The action index of a command, or `None` if it names unknown units or hexes.
    fn action_of(&self, command: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let c = command_from_py(command)?;
        Ok(fm_core::command_to_index(
            self.scenario(),
            self.m.state(),
            &c,
        ))
    }

    /// The command an action index stands for here, or `None` (for any int that is no
    /// command here, negative or huge included; `TypeError` for a bool or a non-int).
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let (Some(action), _) = action_arg(action)? else {
            return Ok(None);
        };
        match fm_core::index_to_command(self.scenario(), self.m.state(), action) {
            Some(c) => Ok(Some(command_obj(py, &c)?)),
            None => Ok(None),
        }
    }

    /// Why the rules would refuse a command (an `fm.RuleError`, not raised), or `None`
    /// if it is legal.
    fn explain<'py>(
        &self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let c = command_from_py(command)?;
        Ok(fm_core::explain(self.scenario(), self.m.state(), &c)
            .map(|e| rule_error(&e).into_value(py).into_any()))
    }

    /// Where a unit can move this phase: `[{"hex", "cost", "path", "stop", "occupied"}]`.
    /// Raises `fm.RuleError` (rule `"input"`) for a unit the scenario does not have.
    fn reachable<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyAny>> {
        let id = check_unit(self.scenario(), unit)?;
        let r = fm_core::reachable(self.scenario(), self.m.state(), &id);
        to_py(py, &r)
    }

    /// Exact probabilities of every result of a proposed attack (`units` non-empty) or
    /// bombardment (`units` empty), as `side` (default: the side to move) knows them.
    #[pyo3(
        signature = (hex, units = None, attacker_markers = None, defender_markers = None, side = None),
        text_signature = "($self, hex, units=None, attacker_markers=0, defender_markers=0, side=None)"
    )]
    fn odds<'py>(
        &self,
        py: Python<'py>,
        hex: &str,
        units: Option<&Bound<'py, PyAny>>,
        attacker_markers: Option<&Bound<'py, PyAny>>,
        defender_markers: Option<&Bound<'py, PyAny>>,
        side: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let units = opt_str_list(units, "units", "unit id")?;
        let attacker_markers = match attacker_markers {
            Some(m) => markers_arg(m, "attacker_markers")?,
            None => 0,
        };
        let defender_markers = match defender_markers {
            Some(m) => markers_arg(m, "defender_markers")?,
            None => 0,
        };
        let side = match side {
            Some(s) if !s.is_none() => side_from_py(Some(self.scenario()), s)?,
            _ => self.m.pending().side().unwrap_or(self.m.state().active),
        };
        let p = fm_core::AttackProposal {
            hex: hex
                .parse()
                .map_err(|e: fm_core::HexParseError| protocol_error(e.to_string()))?,
            units: units.iter().map(|u| UnitId::new(u)).collect(),
            attacker_markers,
            defender_markers,
        };
        match fm_core::combat_odds(self.scenario(), self.m.state(), side, &p) {
            Ok(o) => to_py(py, &o),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// The full state as a dict (the documented JSON form; carries hidden information:
    /// give players `view(side)`).
    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.m.state())
    }

    /// The state as one side may see it (face-down markers of the other side hidden).
    fn view<'py>(&self, py: Python<'py>, side: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let s = side_from_py(Some(self.scenario()), side)?;
        to_py(py, &self.m.view(s))
    }

    /// `State.hash()`: a 64-bit hash of the whole state, the same on every platform.
    /// Referee material: it covers every hidden value, so a player who sees it can test
    /// guesses of them; show a player `view_hash(side)`.
    #[getter]
    fn hash(&self) -> u64 {
        self.m.state().hash()
    }

    /// The 64-bit hash of one side's view: the same for every state that side cannot
    /// tell apart; the hash to show a player.
    fn view_hash(&self, side: &Bound<'_, PyAny>) -> PyResult<u64> {
        let s = side_from_py(Some(self.scenario()), side)?;
        Ok(self.m.view_hash(s))
    }

    /// The match as one side may know it, as a dict (no seed, no hidden value: the
    /// scenario, every command with its events redacted for the side and the side's
    /// view hash after it, and its current view). Give this, not `save()`, to a player.
    fn export<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = side_from_py(Some(self.scenario()), side)?;
        to_py(py, &self.m.export(s))
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// The winner (`"a"` or `"b"`), `None` while playing or for a draw.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.m.winner().map(|s| s.to_string())
    }

    /// `None` while playing; then `{"winner": "a" | "b" | None, "reason": str}`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.m.state().outcome)
    }

    /// The score of each side: `{"a": 1, "b": -1}` for a win by a, zeros for a draw or
    /// while playing.
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in Side::BOTH {
            let r = match self.m.winner() {
                Some(w) if w == s => 1,
                Some(_) => -1,
                None => 0,
            };
            d.set_item(s.to_string(), r)?;
        }
        Ok(d)
    }

    /// Commands and events so far.
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut v = Vec::with_capacity(self.m.log().len());
        for e in self.m.log() {
            v.push(Bound::new(py, PyLogEntry { entry: e.clone() })?);
        }
        PyList::new(py, v)
    }

    /// The events that opened the game.
    #[getter]
    fn opening_events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        events_list(py, self.m.opening_events())
    }

    /// Every event so far: the opening, then each command's.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let all: Vec<fm_core::Event> = self
            .m
            .opening_events()
            .iter()
            .chain(self.m.log().iter().flat_map(|e| e.events.iter()))
            .cloned()
            .collect();
        events_list(py, &all)
    }

    /// An independent copy (same state, generator and log).
    #[pyo3(name = "clone")]
    fn clone_match(&self) -> PyMatch {
        PyMatch {
            m: self.m.clone(),
            last_apply_ns: 0,
        }
    }

    fn __copy__(&self) -> PyMatch {
        self.clone_match()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        self.clone_match()
    }

    /// Takes back the last command. Returns False if there was nothing to undo.
    fn undo(&mut self) -> bool {
        self.m.undo()
    }

    /// The match as JSON (scenario, seed and log); also written to `path` if given (an
    /// `OSError` naming the path if it cannot be written).
    #[pyo3(signature = (path = None))]
    fn save(&self, path: Option<std::path::PathBuf>) -> PyResult<String> {
        let s = self.m.save();
        if let Some(p) = path {
            std::fs::write(&p, &s).map_err(|e| os_error(&e, &p))?;
        }
        Ok(s)
    }

    /// Loads a saved match from JSON text (a str starting with `{`, or bytes; a
    /// leading UTF-8 byte-order mark is ignored) or a path (str or `os.PathLike`),
    /// replaying and verifying every command. Raises `fm.SaveError` naming the first
    /// command that diverges (or a seed that does not match its check),
    /// `fm.ProtocolError` for malformed JSON, a save not exactly in the form `save`
    /// writes (format 2, no unknown or duplicate key) or larger than fm-core's 4 MiB
    /// save limit (a file is read no further than 64 MiB), `fm.ScenarioError` for a
    /// scenario that is invalid or claims a built-in id with other data, `OSError`
    /// naming the path of a file that cannot be read.
    #[staticmethod]
    fn load(source: &Bound<'_, PyAny>) -> PyResult<PyMatch> {
        let read = |p: &std::path::Path| -> PyResult<String> {
            read_text_file(p).map_err(|e| match &e {
                ReadError::Io(io) => os_error(io, p),
                other => protocol_error(format!("save file: {}", other.message(p))),
            })
        };
        let text: String = if let Ok(s) = source.cast::<PyString>() {
            let s = s.to_str()?;
            let body = strip_bom(s);
            if body.trim_start().starts_with('{') {
                check_text_size(body.len(), "save file").map_err(protocol_error)?;
                body.to_string()
            } else {
                read(std::path::Path::new(s))?
            }
        } else if let Ok(b) = source.cast::<PyBytes>() {
            let b = b.as_bytes();
            check_text_size(b.len(), "save file").map_err(protocol_error)?;
            let b = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
            String::from_utf8(b.to_vec()).map_err(|e| protocol_error(format!("save file: {e}")))?
        } else if source.hasattr("__fspath__")? {
            let p: std::path::PathBuf = source.extract()?;
            read(&p)?
        } else {
            return Err(PyTypeError::new_err(format!(
                "Match.load takes save JSON text (str or bytes) or a path (str or os.PathLike), not {}",
                type_name(source)
            )));
        };
        let m = fm_core::Match::load(&text).map_err(|e| match_error(&e))?;
        Ok(PyMatch {
            m,
            last_apply_ns: 0,
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("Match")?.getattr("load")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.m.save()])?.into_any()])
    }

    /// The board as SVG: the full state, or `side`'s view of it.
    /// `hex_size`: pixels from a hex's centre to a corner, 10 to 200 (`ValueError`
    /// outside, NaN included); `highlight`: a list of hex ids; `markers`: a list of
    /// `(hex, kind, label)` tuples.
    #[pyo3(signature = (side = None, *, hex_size = 40.0, hex_ids = true, panel = true, highlight = None, markers = None, title = None))]
    #[allow(clippy::too_many_arguments)]
    fn svg(
        &self,
        side: Option<&Bound<'_, PyAny>>,
        hex_size: f64,
        hex_ids: bool,
        panel: bool,
        highlight: Option<&Bound<'_, PyAny>>,
        markers: Option<&Bound<'_, PyAny>>,
        title: Option<String>,
    ) -> PyResult<String> {
        let opts = render_options(hex_size, hex_ids, panel, highlight, markers, title)?;
        Ok(match side.filter(|s| !s.is_none()) {
            Some(s) => {
                let v = self.m.view(side_from_py(Some(self.scenario()), s)?);
                fm_core::render_svg(self.scenario(), &v, &opts)
            }
            None => fm_core::render_svg(self.scenario(), self.m.state(), &opts),
        })
    }

    /// Jupyter shows the board inline.
    fn _repr_svg_(&self) -> String {
        fm_core::render_svg(self.scenario(), self.m.state(), &RenderOptions::default())
    }

    /// The observation of `side` for learning agents, as raw little-endian float32
    /// bytes: `(board, features)`, board shaped `scenario.observation_shape`. Computed
    /// from `side`'s view, so it holds no hidden information. `fm.env` wraps this.
    fn observation_bytes<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let s = side_from_py(Some(self.scenario()), side)?;
        let (board, feats) = crate::obs::encode(self.scenario(), &self.m.view(s));
        let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|f| f.to_le_bytes()).collect() };
        Ok((
            PyBytes::new(py, &bytes(&board)),
            PyBytes::new(py, &bytes(&feats)),
        ))
    }

    fn __repr__(&self) -> String {
        let status = if self.m.is_over() {
            match self.m.winner() {
                Some(w) => format!("over, {} won", self.scenario().side_name(w)),
                None => "over, a draw".to_string(),
            }
        } else {
            let p = self.m.pending();
            let kind = serde_json::to_value(&p)
                .ok()
                .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
                .unwrap_or_default();
            format!(
                "turn {}, {}, waiting for {} ({kind})",
                self.m.state().turn,
                self.phase(),
                p.side()
                    .map(|s| self.scenario().side_name(s))
                    .unwrap_or("nobody")
            )
        };
        format!(
            "<fm.Match {} seed={}: {status}; {} command(s)>",
            self.scenario().data.id,
            self.m.seed(),
            self.m.log().len()
        )
    }
}
