//! `fm.Scenario` (Fire & Movement scenarios) and `fm.Match` (a match of any registered
//! rules system, through `fm_core::any`), and how a scenario argument of any system is
//! resolved ([`Source`]).

use crate::args::{
    as_int, count_arg, describe, int_text, markers_arg, not_an_int, opt_str_list, os_error,
    read_text_file, seed_arg, str_list, ReadError,
};
use crate::convert::{check_text_size, strip_bom, to_json_value, to_py, type_name};
use crate::errors::{
    fm_only, match_error, protocol_error, rule_error, scenario_error, systems_only,
    unsupported_error,
};
use crate::huzzah::{self as hz, HzMatch, PyHzCommand, PyHzPending};
use crate::objects::{command_from_py, command_obj, events_list, PyCommand, PyLogEntry, PyPending};
use fm_core::any::{self, DynMatch};
use fm_core::{Game, Hex, MapMarker, RenderOptions, Scenario, Side, UnitId};
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

/// A scenario of any registered rules system, resolved from a Python argument, from
/// which matches are opened (`fm.Match`, `fm.play_random`).
pub enum Source {
    /// A Fire & Movement scenario, validated and shared between matches.
    Fm(Arc<Scenario>),
    /// A built-in scenario of another system, by name.
    Builtin(String),
    /// Scenario JSON naming another system in `"system"` (validated when a match is
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
            // The Fire & Movement match is itself a `DynMatch`; opening it directly keeps
            // the scenario shared (`fm.Match(scenario)` does not copy it).
            Source::Fm(sc) => Ok(Box::new(fm_core::Match::new(sc.clone(), seed))),
            Source::Builtin(name) => any::new_match(name, seed),
            Source::Value(v) => any::new_match_value(v.clone(), seed),
        }
    }
}

/// A Fire & Movement scenario from scenario data (a dict, or JSON without `"system"`).
fn fm_from_value(v: serde_json::Value) -> PyResult<Source> {
    let data = fm_core::ScenarioData::from_value(v).map_err(|e| scenario_error(&e))?;
    Scenario::from_data(data)
        .map(|sc| Source::Fm(Arc::new(sc)))
        .map_err(|e| scenario_error(&e))
}

/// Scenario data of any system: Fire & Movement when it names no `"system"` (or
/// `"fm"`), another system's otherwise.
fn source_from_value(mut v: serde_json::Value) -> PyResult<Source> {
    let fm = match v.get("system") {
        None => true,
        Some(serde_json::Value::String(s)) if s == fm_core::Fm::NAME => {
            if let Some(obj) = v.as_object_mut() {
                obj.remove("system");
            }
            true
        }
        // Another system, or a malformed `"system"` that the layer reports.
        Some(_) => false,
    };
    if fm {
        fm_from_value(v)
    } else {
        Ok(Source::Value(v))
    }
}

/// Scenario JSON text (at most `MAX_INPUT_BYTES`, a leading byte-order mark ignored),
/// read strictly: a duplicate key or a document too large once parsed is refused.
fn source_from_text(text: &str) -> PyResult<Source> {
    check_text_size(text.len(), "scenario JSON").map_err(whole_scenario_error)?;
    let body = strip_bom(text);
    let v = match fm_core::json::parse_strict(body) {
        Ok(v) => v,
        Err(e) => {
            use serde_json::error::Category;
            return Err(match e.classify() {
                // Not JSON: which system it is for is unknown. Text that names none is
                // Fire & Movement's, whose parser gives the JSON path where the text
                // stops making sense (the error it gave before the match layer); text
                // that names one gets the syntax error, not a Fire & Movement field error.
                Category::Syntax | Category::Eof if !body.contains("\"system\"") => {
                    match Scenario::from_json(body) {
                        Err(se) => scenario_error(&se),
                        Ok(_) => whole_scenario_error(format!("scenario JSON: {e}")),
                    }
                }
                // JSON the strict reader refuses: a duplicate key, or too large.
                _ => whole_scenario_error(format!("scenario JSON: {e}")),
            });
        }
    };
    if v.get("system").is_none() {
        // Fire & Movement from its text, whose errors keep their line and column (the
        // same messages as before the match layer).
        drop(v);
        return Scenario::from_json(body)
            .map(|sc| Source::Fm(Arc::new(sc)))
            .map_err(|e| scenario_error(&e));
    }
    source_from_value(v)
}

/// Resolves a scenario of any registered system: a built-in name (`fm.scenarios()`), a
/// path to a scenario file, scenario JSON text, a dict, or an `fm.Scenario`. Scenario
/// JSON names its system in `"system"` (Fire & Movement when absent).
pub fn source_from_py(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(s) = source.cast::<PyScenario>() {
        return Ok(Source::Fm(s.get().sc.clone()));
    }
    if let Ok(d) = source.cast::<PyDict>() {
        let v = to_json_value(d.as_any(), "scenario").map_err(protocol_error)?;
        return source_from_value(v);
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
        return source_from_text(&text);
    }
    if Scenario::builtin_names().contains(&text.as_str()) {
        return Scenario::builtin(&text)
            .map(|sc| Source::Fm(Arc::new(sc)))
            .map_err(|e| scenario_error(&e));
    }
    let builtins = any::builtin_scenarios();
    if builtins.contains(&text.as_str()) {
        return Ok(Source::Builtin(text));
    }
    let p = std::path::Path::new(&text);
    if p.is_file() {
        return read_scenario_file(p);
    }
    Err(whole_scenario_error(format!(
        "'{}' is neither a built-in scenario ({}) nor a file",
        text.chars().take(200).collect::<String>(),
        builtins.join(", ")
    )))
}

/// Loads a Fire & Movement scenario (`fm.Scenario`, `fm.env`): as [`source_from_py`],
/// and `fm.UnsupportedError` for a valid scenario of another system.
pub fn load_scenario(source: &Bound<'_, PyAny>) -> PyResult<Arc<Scenario>> {
    let src = source_from_py(source)?;
    if let Source::Fm(sc) = src {
        return Ok(sc);
    }
    // Opening a match validates the scenario and names its system (an invalid scenario
    // or an unknown system gets the layer's error instead).
    let m = src.open(0).map_err(|e| match_error(&e))?;
    Err(unsupported_error(
        format!(
            "fm.Scenario holds Fire & Movement scenarios; this one is of the {:?} rules \
             system (open it with fm.Match)",
            m.system()
        ),
        m.system(),
    ))
}

/// Reads a scenario file: at most `MAX_INPUT_BYTES` (so an endless file is refused,
/// not read until memory runs out).
fn read_scenario_file(p: &std::path::Path) -> PyResult<Source> {
    let text = read_text_file(p).map_err(|e| whole_scenario_error(e.message(p)))?;
    source_from_text(&text)
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
        let m = fm_core::observation::Meta::new(&self.sc);
        (m.channels, m.rows, m.cols)
    }

    /// The length of a flat observation (`Match.observation`): the board planes'
    /// `channels * rows * columns` plus the number of features.
    #[getter]
    fn observation_size(&self) -> usize {
        let m = fm_core::observation::Meta::new(&self.sc);
        m.channels * m.rows * m.cols + fm_core::observation::feature_names().len()
    }

    /// Names of the board channels of an observation.
    #[getter]
    fn observation_channels(&self) -> Vec<String> {
        fm_core::observation::Meta::new(&self.sc).channel_names
    }

    /// Names of the entries of an observation's feature vector.
    #[getter]
    fn feature_names(&self) -> Vec<String> {
        fm_core::observation::feature_names()
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

// The match is a `fm_core::any::DynMatch`: the generic methods go through it, the Fire &
// Movement extras downcast it to `fm_core::Match` (and take the typed fast paths), and
// Huzzah!'s typed objects and picture downcast it to `GameMatch<Huzzah>` (`HzMatch`).
/// A running game of any registered rules system (`fm.systems()`): scenario, state,
/// seeded generator (xoshiro256++) and the log.
///
/// Every system: `system`, `scenario_data`, `seed`, `pending`, `to_move`,
/// `legal_commands()`, `apply()`, `legal_actions()`, `apply_action()`,
/// `legal_action_mask()`, `action_space_size`, `action_of()`, `command_of()`, the
/// factored action space (`factored_sizes`, `factored_options()`, `factored_mask()`,
/// `factored_complete()`, `factored_to_action()`, `action_to_factored()`,
/// `apply_factored()`), `state`,
/// `view()`, `hash`, `view_hash()`, `export()`, `is_over`, `winner`, `result`,
/// `returns()`, `max_game_length()`, `log`, `opening_events`, `events()`, `playout()`,
/// `clone()` (copy and pickle), `undo()`, `save()`, `load()`. Commands, events, the
/// pending decision and log
/// entries are typed for Fire & Movement (`fm.Move`, `fm.events.UnitMoved`,
/// `fm.Pending`, `fm.LogEntry`) and Huzzah! (`fm.huzzah.Fire`,
/// `fm.huzzah.events.FireResolved`, `fm.huzzah.Pending`, `fm.huzzah.LogEntry`), dicts in
/// the system's JSON form for another; commands may always be given as dicts or JSON
/// text.
///
/// Fire & Movement and Huzzah!: `svg()`, `_repr_svg_()`. Fire & Movement only
/// (`fm.UnsupportedError` for another system): `scenario` (an `fm.Scenario`), `turn`,
/// `phase`, `active`, `legal_commands_for()`, `explain()`, `reachable()`, `odds()`,
/// `observation_bytes()`.
#[pyclass(module = "fm", name = "Match")]
pub struct PyMatch {
    pub m: Box<dyn DynMatch>,
    /// Nanoseconds spent inside the Rust `apply` by the last `_apply_timed`.
    last_apply_ns: u64,
}

impl PyMatch {
    fn new_boxed(m: Box<dyn DynMatch>) -> PyMatch {
        PyMatch {
            m,
            last_apply_ns: 0,
        }
    }

    /// The Fire & Movement match, if this is one.
    pub fn fm(&self) -> Option<&fm_core::Match> {
        self.m.as_any().downcast_ref::<fm_core::Match>()
    }

    /// The Fire & Movement match, or `fm.UnsupportedError` naming `what` (the method).
    pub fn fm_or(&self, what: &str) -> PyResult<&fm_core::Match> {
        self.fm().ok_or_else(|| fm_only(what, self.m.system()))
    }

    /// The Huzzah! match, if this is one (for its typed objects and its picture).
    pub fn hz(&self) -> Option<&HzMatch> {
        self.m.as_any().downcast_ref::<HzMatch>()
    }

    /// A side argument: with a Fire & Movement scenario also a side's name.
    fn side(&self, obj: &Bound<'_, PyAny>) -> PyResult<Side> {
        side_from_py(self.fm().map(|m| m.scenario()), obj)
    }

    /// The generic apply: a command as JSON data, its events as dicts.
    fn apply_generic<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = command_value(command)?;
        let events = self.m.apply_json(&v).map_err(|e| match_error(&e))?;
        to_py(py, &events)
    }
}

/// A command for a match of any system, as JSON data: a dict, JSON text (read
/// strictly), or a typed `fm.Command` (its JSON form, which another system refuses).
fn command_value(obj: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    if let Ok(c) = obj.cast::<PyCommand>() {
        return Ok(serde_json::to_value(&c.get().cmd).expect("a command serializes"));
    }
    if let Ok(c) = obj.cast::<PyHzCommand>() {
        return Ok(serde_json::to_value(&c.get().cmd).expect("a command serializes"));
    }
    if obj.is_instance_of::<PyDict>() {
        return to_json_value(obj, "command").map_err(protocol_error);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        check_text_size(s.len(), "command JSON").map_err(protocol_error)?;
        return fm_core::json::parse_strict(strip_bom(s))
            .map_err(|e| protocol_error(format!("invalid command JSON: {e}")));
    }
    Err(protocol_error(format!(
        "a command is a dict in the rules system's JSON form or JSON text, not a {}",
        type_name(obj)
    )))
}

/// A command for a Fire & Movement match (`objects::command_from_py`), naming the
/// mistake when it is a Huzzah! command.
fn fm_command(obj: &Bound<'_, PyAny>) -> PyResult<fm_core::Command> {
    if obj.is_instance_of::<PyHzCommand>() {
        return Err(protocol_error(format!(
            "fm.huzzah.{} is a command of the \"huzzah\" rules system; this match is of \
             \"fm\" (Fire & Movement)",
            type_name(obj)
        )));
    }
    command_from_py(obj)
}

/// A side as Python shows it: `"a"` or `"b"`.
fn side_text(s: Side) -> String {
    s.to_string()
}

/// The largest information-state tensor Python may ask for (floats): 64 Mi, 256 MiB,
/// so a typo in `max_commands` is an error rather than an allocation failure.
const MAX_INFO_TENSOR: usize = 64 << 20;

/// The bounds of `svg(hex_size=...)`: the renderer's own (`fm_core::render`), which
/// would otherwise clamp a value outside them silently (and let NaN through).
const HEX_SIZE_RANGE: (f64, f64) = (fm_core::render::MIN_HEX_SIZE, fm_core::render::MAX_HEX_SIZE);

/// The F&M picture's options beyond the first six: the region, the counters' labels
/// and the charts below the map.
struct FmExtras<'a, 'py> {
    region: Option<&'a Bound<'py, PyAny>>,
    unit_labels: Option<String>,
    crt: Option<bool>,
    terrain_chart: Option<bool>,
    turn_track: Option<bool>,
    boxes: Option<bool>,
}

/// A `region=` value read as the JSON options read it (`RenderOptions::from_json` or
/// its Huzzah! twin), so that Python, C and serve accept the same regions with the
/// same messages: `fm.RuleError` (rule `"input"`) for a region off the map or table.
fn region_json(region: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let v = crate::convert::to_json_value(region, "region").map_err(PyTypeError::new_err)?;
    Ok(serde_json::json!({ "region": v }))
}

#[allow(clippy::too_many_arguments)]
fn render_options(
    sc: &Scenario,
    hex_size: f64,
    hex_ids: bool,
    panel: bool,
    highlight: Option<&Bound<'_, PyAny>>,
    markers: Option<&Bound<'_, PyAny>>,
    title: Option<String>,
    extras: FmExtras<'_, '_>,
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
    let region = match extras.region.filter(|r| !r.is_none()) {
        Some(r) => {
            RenderOptions::from_json(sc, &region_json(r)?)
                .map_err(|e| rule_error(&e))?
                .region
        }
        None => None,
    };
    let unit_labels = match extras.unit_labels.as_deref() {
        None | Some("name") => fm_core::UnitLabels::Name,
        Some("id") => fm_core::UnitLabels::Id,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unit_labels must be \"name\" or \"id\", not {other:?}"
            )))
        }
    };
    let d = RenderOptions::default();
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
        region,
        unit_labels,
        crt: extras.crt.unwrap_or(d.crt),
        terrain_chart: extras.terrain_chart.unwrap_or(d.terrain_chart),
        turn_track: extras.turn_track.unwrap_or(d.turn_track),
        boxes: extras.boxes.unwrap_or(d.boxes),
    })
}

/// `Match.svg`'s options for each system, for messages.
const FM_SVG_OPTIONS: &str = "side, hex_size, hex_ids, panel, highlight, markers, title, \
                              region, unit_labels, crt, terrain_chart, turn_track, boxes";
const HZ_SVG_OPTIONS: &str = "side, arc_of, radii, scale, labels, region";

/// The `TypeError` for `Match.svg` options given that are the other system's.
fn wrong_options(given: &[String], of: &str, system: &str, options: &str) -> PyResult<()> {
    if given.is_empty() {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "Match.svg: {} {} {of} option{}; this match is of the {system:?} rules system \
         (its options: {options})",
        given.join(", "),
        if given.len() == 1 { "is a" } else { "are" },
        if given.len() == 1 { "" } else { "s" },
    )))
}

/// The Huzzah! picture's options: `arc_of` a unit id of the scenario (`fm.RuleError`,
/// rule `"input"`, otherwise), `scale` an int from 1 to 100 (`ValueError` outside,
/// `TypeError` for a bool or a non-int).
fn hz_render_options(
    m: &HzMatch,
    arc_of: Option<String>,
    radii: Option<bool>,
    scale: Option<&Bound<'_, PyAny>>,
    labels: Option<bool>,
    region: Option<&Bound<'_, PyAny>>,
) -> PyResult<fm_core::huzzah::render::RenderOptions> {
    if let Some(id) = &arc_of {
        if m.scenario().unit_index(id).is_none() {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("unknown unit '{id}'"),
            )));
        }
    }
    let region = match region.filter(|r| !r.is_none()) {
        Some(r) => {
            fm_core::huzzah::render::RenderOptions::from_json(m.scenario(), &region_json(r)?)
                .map_err(|e| rule_error(&e))?
                .region
        }
        None => None,
    };
    let scale = match scale.filter(|s| !s.is_none()) {
        Some(s) => {
            let i = as_int(s).ok_or_else(|| not_an_int(s, "scale"))?;
            match i.extract::<u32>() {
                Ok(n) if (1..=100).contains(&n) => n,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "scale must be a number of pixels per centimetre from 1 to 100, not {}",
                        int_text(&i)
                    )))
                }
            }
        }
        None => fm_core::huzzah::render::RenderOptions::default().scale_px_per_cm,
    };
    Ok(fm_core::huzzah::render::RenderOptions {
        radii: radii.unwrap_or(false),
        arc_of,
        scale_px_per_cm: scale,
        labels: labels.unwrap_or(true),
        region,
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

/// A factored sequence or prefix: a list, tuple or other iterable of ints (numpy
/// integers and arrays too), not a `str` or bytes. At most `steps` values are read: a
/// longer sequence, and a negative or huge value, raise `fm.RuleError` (rule
/// `"input"`), as a value out of its step does.
fn factored_arg(obj: &Bound<'_, PyAny>, steps: usize) -> PyResult<Vec<usize>> {
    let not_a_sequence = || {
        PyTypeError::new_err(format!(
            "a factored sequence must be a list of ints, not {}",
            describe(obj)
        ))
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<pyo3::types::PyByteArray>()
    {
        return Err(not_a_sequence());
    }
    let input = |message: String| rule_error(&fm_core::RuleError::new("input", message));
    let mut out = Vec::new();
    for (k, v) in obj.try_iter().map_err(|_| not_a_sequence())?.enumerate() {
        let v = v?;
        if k >= steps {
            return Err(input(format!(
                "the factored sequence has more than {steps} values: a sequence has at most \
                 {steps} steps"
            )));
        }
        let i = as_int(&v).ok_or_else(|| not_an_int(&v, &format!("factored step {k}")))?;
        match i.extract::<usize>() {
            Ok(x) => out.push(x),
            Err(_) => {
                return Err(input(format!(
                    "factored step {k}: {} is no value of a step (they are 0 to 2**64-1)",
                    int_text(&i)
                )))
            }
        }
    }
    Ok(out)
}

/// A factored sequence refused by the engine, as `fm.RuleError` (rule `"input"`).
fn factored_error(e: &fm_core::FactoredError) -> PyErr {
    rule_error(&e.to_rule_error())
}

impl PyMatch {
    /// Applies the command with a stable action index; its events as `apply_action`
    /// returns them.
    fn apply_flat<'py>(&mut self, py: Python<'py>, action: usize) -> PyResult<Bound<'py, PyAny>> {
        if let Some(m) = self.m.as_any_mut().downcast_mut::<HzMatch>() {
            return match m.apply_index(action) {
                Ok(events) => Ok(hz::events_list(py, events)?.into_any()),
                Err(e) => Err(rule_error(&e)),
            };
        }
        let Some(m) = self.m.as_any_mut().downcast_mut::<fm_core::Match>() else {
            self.m.apply_index(action).map_err(|e| rule_error(&e))?;
            return to_py(py, &self.m.last_events_json(None));
        };
        match m.apply_index(action) {
            Ok(events) => Ok(events_list(py, events)?.into_any()),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// A factored prefix or sequence argument of this match (`None`: empty).
    fn factored_of(&self, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
        match obj.filter(|o| !o.is_none()) {
            Some(o) => factored_arg(o, self.m.factored_sizes().len()),
            None => Ok(Vec::new()),
        }
    }
}

#[pymethods]
impl PyMatch {
    /// Starts a match of any registered rules system. `scenario`: a built-in name
    /// (`fm.scenarios()`, every system's), a path to a scenario file, scenario JSON
    /// text, a dict (JSON naming its system in `"system"`; Fire & Movement when absent),
    /// or an `fm.Scenario`. `seed`: an int in 0..2**64-1 (`ValueError` outside it).
    #[new]
    #[pyo3(signature = (scenario = None, seed = None), text_signature = "(scenario=None, seed=0)")]
    fn new(scenario: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed_arg(seed, 0)?;
        let src = match scenario {
            Some(s) => source_from_py(s)?,
            None => Source::Fm(Arc::new(
                Scenario::builtin("system-demo").map_err(|e| scenario_error(&e))?,
            )),
        };
        Ok(PyMatch::new_boxed(
            src.open(seed).map_err(|e| match_error(&e))?,
        ))
    }

    /// The rules system: `"fm"` (Fire & Movement) or another registered one
    /// (`fm.systems()`).
    #[getter]
    fn system(&self) -> &'static str {
        self.m.system()
    }

    /// The scenario (Fire & Movement only: `fm.UnsupportedError` for another system;
    /// `scenario_data` works for every system).
    #[getter(scenario)]
    fn scenario_obj(&self) -> PyResult<PyScenario> {
        Ok(PyScenario {
            sc: self.fm_or("Match.scenario")?.scenario_arc(),
        })
    }

    /// The scenario's data as a dict (its JSON form; any system).
    #[getter]
    fn scenario_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.fm() {
            // The typed data keeps the scenario file's key order.
            Some(m) => to_py(py, &m.scenario().data),
            None => to_py(py, &self.m.scenario_json()),
        }
    }

    /// The seed of the match's generator.
    #[getter]
    fn seed(&self) -> u64 {
        self.m.seed()
    }

    /// The decision the game waits for: an `fm.Pending` (Fire & Movement), an
    /// `fm.huzzah.Pending` (Huzzah!), or the system's JSON form as a dict.
    #[getter]
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(m) = self.hz() {
            return Ok(Bound::new(py, PyHzPending::new(m.pending()))?.into_any());
        }
        match self.fm() {
            Some(m) => Ok(Bound::new(py, PyPending::new(m.pending()))?.into_any()),
            None => to_py(py, &self.m.pending_json()),
        }
    }

    /// Game turn (1-based; Fire & Movement only).
    #[getter]
    fn turn(&self) -> PyResult<u16> {
        Ok(self.fm_or("Match.turn")?.state().turn)
    }

    /// Current phase (`"movement"`, ...; Fire & Movement only).
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let m = self.fm_or("Match.phase")?;
        Ok(serde_json::to_value(m.state().phase)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default())
    }

    /// The phasing side (`"a"` or `"b"`; Fire & Movement only).
    #[getter]
    fn active(&self) -> PyResult<String> {
        Ok(self.fm_or("Match.active")?.state().active.to_string())
    }

    /// The side whose decision it is, `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.m.decider().map(side_text)
    }

    /// Every legal command now, in the system's stable order: typed `fm.Command`s
    /// (Fire & Movement, `done` first where legal), `fm.huzzah.Command`s (Huzzah!), or
    /// dicts in the system's JSON form.
    fn legal_commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(m) = self.hz() {
            let cmds = m.legal_commands();
            let mut v = Vec::with_capacity(cmds.len());
            for c in &cmds {
                v.push(hz::command_obj(py, c)?);
            }
            return PyList::new(py, v);
        }
        let Some(m) = self.fm() else {
            return PyList::new(
                py,
                self.m
                    .legal_json()
                    .iter()
                    .map(|c| to_py(py, c))
                    .collect::<PyResult<Vec<_>>>()?,
            );
        };
        // The listing without the GIL; the Python objects with it.
        let cmds = py.detach(|| m.legal_commands());
        let mut v = Vec::with_capacity(cmds.len());
        for c in &cmds {
            v.push(command_obj(py, c)?);
        }
        PyList::new(py, v)
    }

    /// The legal commands that concern one unit (Fire & Movement only). Raises
    /// `fm.RuleError` (rule `"input"`) for a unit the scenario does not have.
    fn legal_commands_for<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyList>> {
        let m = self.fm_or("Match.legal_commands_for")?;
        let id = check_unit(m.scenario(), unit)?;
        let cmds = fm_core::legal_commands_for(m.scenario(), m.state(), &id);
        let mut v = Vec::with_capacity(cmds.len());
        for c in &cmds {
            v.push(command_obj(py, c)?);
        }
        PyList::new(py, v)
    }

    /// Applies a command and returns its events. Fire & Movement: an `fm.Command`, a
    /// dict in the documented JSON form, or JSON text; typed events. Huzzah!: an
    /// `fm.huzzah.Command`, a dict or JSON text; `fm.huzzah.events` objects. Another
    /// system: a dict or JSON text in its JSON form; events as dicts. Raises
    /// `fm.RuleError` (nothing changes) if the rules refuse it, `fm.ProtocolError` if it
    /// is malformed (an unknown field included).
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(m) = self.m.as_any_mut().downcast_mut::<HzMatch>() {
            let r = if let Ok(c) = command.cast::<PyHzCommand>() {
                m.apply(&c.get().cmd)
            } else {
                m.apply(&hz::command_from_py(command)?)
            };
            return match r {
                Ok(events) => Ok(hz::events_list(py, events)?.into_any()),
                Err(e) => Err(rule_error(&e)),
            };
        }
        let Some(m) = self.m.as_any_mut().downcast_mut::<fm_core::Match>() else {
            return self.apply_generic(py, command);
        };
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

    /// Benchmark helper: `apply`, also recording in `_last_apply_ns` the time spent in
    /// the Rust call itself, so that the bindings' overhead can be measured call by
    /// call (`benches/python/bench_bindings.py`).
    fn _apply_timed<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let Some(m) = self.m.as_any_mut().downcast_mut::<fm_core::Match>() else {
            let v = command_value(command)?;
            let t = std::time::Instant::now();
            let r = self.m.apply_json(&v);
            self.last_apply_ns = t.elapsed().as_nanos() as u64;
            return to_py(py, &r.map_err(|e| match_error(&e))?);
        };
        let (r, ns) = if let Ok(c) = command.cast::<PyCommand>() {
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
        self.last_apply_ns = ns;
        r
    }

    /// Nanoseconds spent in the Rust call by the last `_apply_timed`.
    #[getter]
    fn _last_apply_ns(&self) -> u64 {
        self.last_apply_ns
    }

    /// Applies the command with this action index (see `legal_actions`) and returns its
    /// events (typed for Fire & Movement and Huzzah!, dicts otherwise). Raises
    /// `fm.RuleError` (rule `"input"`) for any int that is no command here, negative or
    /// huge included; `TypeError` for a bool or a non-int.
    fn apply_action<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (index, text) = action_arg(action)?;
        let Some(action) = index else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("action index {text} has no command here"),
            )));
        };
        self.apply_flat(py, action)
    }

    /// The indices of the legal commands in the fixed action space, ascending (the GIL
    /// is released while they are listed).
    fn legal_actions(&self, py: Python<'_>) -> Vec<usize> {
        let m = &self.m;
        py.detach(|| m.legal_indices())
    }

    /// The legal actions as a mask of length `action_space_size`, 1 for legal, 0 for
    /// not. Without `out`, a new `bytes`. With `out`, a writable C-contiguous buffer of
    /// that many bytes (a `numpy.uint8` or `int8` array, a `bytearray`): it is filled in
    /// place and returned, so a training loop reuses one array and nothing is
    /// allocated per step. The GIL is released while the legal actions are listed.
    #[pyo3(signature = (out = None))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.m.action_space_size();
        let m = &self.m;
        let legal = py.detach(|| m.legal_indices());
        let Some(out) = out.filter(|o| !o.is_none()) else {
            let mut mask = vec![0u8; n];
            for &i in &legal {
                if let Some(b) = mask.get_mut(i) {
                    *b = 1;
                }
            }
            return Ok(PyBytes::new(py, &mask).into_any());
        };
        // One-byte items, unsigned (numpy uint8, bytearray) or signed (numpy int8).
        let not_bytes = || {
            PyTypeError::new_err(format!(
                "out must be a writable buffer of bytes (a numpy uint8 or int8 array, a bytearray), not {}",
                type_name(&out)
            ))
        };
        if let Ok(buf) = pyo3::buffer::PyBuffer::<u8>::get(&out) {
            fill_mask(&buf, n, &legal)?;
        } else if let Ok(buf) = pyo3::buffer::PyBuffer::<i8>::get(&out) {
            fill_mask(&buf, n, &legal)?;
        } else {
            return Err(not_bytes());
        }
        Ok(out)
    }

    /// The action index of the built-in random agent's choice: a uniformly random
    /// legal command drawn from a generator seeded with `seed` (the draw of
    /// `playout` and `fm_core::agents::random`; the same state and seed give the same
    /// action), counted without listing every command. `None` once no command is
    /// legal.
    #[pyo3(signature = (seed = None), text_signature = "($self, seed=0)")]
    fn sample_legal_action(
        &self,
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<usize>> {
        let mut rng = fm_core::rng_from_seed(seed_arg(seed, 0)?);
        let m = &self.m;
        Ok(py.detach(move || m.random_action(&mut rng)))
    }

    /// The size of the fixed integer action space (any system; for Fire & Movement also
    /// `scenario.action_space_size`).
    #[getter]
    fn action_space_size(&self) -> usize {
        self.m.action_space_size()
    }

    /// The action index of a command, or `None` if it has none here (Fire & Movement:
    /// it names unknown units or hexes; another system: it is not one of its commands).
    fn action_of(&self, command: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        match self.fm() {
            Some(m) => {
                let c = fm_command(command)?;
                Ok(fm_core::command_to_index(m.scenario(), m.state(), &c))
            }
            None => Ok(self.m.index_of(&command_value(command)?)),
        }
    }

    /// The command an action index stands for here (typed for Fire & Movement and
    /// Huzzah!, a dict otherwise), or `None` (for any int that is no command here,
    /// negative or huge included; `TypeError` for a bool or a non-int).
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let (Some(action), _) = action_arg(action)? else {
            return Ok(None);
        };
        if let Some(m) = self.hz() {
            return <fm_core::huzzah::Huzzah as Game>::index_to_command(
                m.scenario(),
                m.state(),
                action,
            )
            .map(|c| hz::command_obj(py, &c))
            .transpose();
        }
        match self.fm() {
            Some(m) => match fm_core::index_to_command(m.scenario(), m.state(), action) {
                Some(c) => Ok(Some(command_obj(py, &c)?)),
                None => Ok(None),
            },
            None => match self.m.command_at(action) {
                Some(c) => Ok(Some(to_py(py, &c)?)),
                None => Ok(None),
            },
        }
    }

    // --- The factored action space (fm_core::factored): a command in a few small
    // steps; the flat action indices are kept.

    /// The number of values of each step of the factored action space, fixed for the
    /// scenario (a policy's heads): Fire & Movement `(11 + 8U, max(H, U), 64)` for `U`
    /// units and `H` hexes, another system two steps of about √`action_space_size`.
    #[getter]
    fn factored_sizes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.m.factored_sizes())
    }

    /// The options of the next step after `prefix` (a list of ints; default: none, the
    /// first step), ascending: exactly the values that continue it towards at least
    /// one legal command (walking them all reaches `legal_actions()`). Empty for the
    /// empty prefix when no command is legal. Raises `fm.RuleError` (rule `"input"`)
    /// for a value that is no option of its step, a complete sequence, or a prefix no
    /// legal command starts with. The GIL is released while they are listed.
    #[pyo3(signature = (prefix = None))]
    fn factored_options(
        &self,
        py: Python<'_>,
        prefix: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<usize>> {
        let prefix = self.factored_of(prefix)?;
        let m = &self.m;
        py.detach(|| m.factored_options(&prefix))
            .map_err(|e| factored_error(&e))
    }

    /// `factored_options(prefix)` as a mask of the step's size
    /// (`factored_sizes[len(prefix)]`): 1 for an option, 0 for every other value.
    /// Without `out`, a new `bytes`; with `out`, a writable C-contiguous buffer of
    /// that many bytes (a `numpy.uint8` or `int8` array, a `bytearray`), filled in
    /// place and returned (one array per step, reused every decision). Errors as
    /// `factored_options`. The GIL is released while the options are listed.
    #[pyo3(signature = (prefix = None, out = None))]
    fn factored_mask<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let prefix = self.factored_of(prefix)?;
        let m = &self.m;
        let opts = py
            .detach(|| m.factored_options(&prefix))
            .map_err(|e| factored_error(&e))?;
        let n = self
            .m
            .factored_sizes()
            .get(prefix.len())
            .copied()
            .unwrap_or(0);
        let what = format!("factored_sizes[{}] = {n}", prefix.len());
        let Some(out) = out.filter(|o| !o.is_none()) else {
            let mut mask = vec![0u8; n];
            for &i in &opts {
                if let Some(b) = mask.get_mut(i) {
                    *b = 1;
                }
            }
            return Ok(PyBytes::new(py, &mask).into_any());
        };
        if let Ok(buf) = pyo3::buffer::PyBuffer::<u8>::get(&out) {
            fill_mask_of(&buf, n, &opts, &what)?;
        } else if let Ok(buf) = pyo3::buffer::PyBuffer::<i8>::get(&out) {
            fill_mask_of(&buf, n, &opts, &what)?;
        } else {
            return Err(PyTypeError::new_err(format!(
                "out must be a writable buffer of bytes (a numpy uint8 or int8 array, a bytearray), not {}",
                type_name(&out)
            )));
        }
        Ok(out)
    }

    /// Whether a factored sequence is complete: it stands for a command (convert it
    /// with `factored_to_action`, play it with `apply_factored`); `False` for a proper
    /// prefix. Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for a
    /// value that is no option of its step or a sequence longer than its command.
    fn factored_complete(&self, seq: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seq = self.factored_of(Some(seq))?;
        self.m
            .factored_complete(&seq)
            .map_err(|e| factored_error(&e))
    }

    /// The action index (`legal_actions`, `apply_action`) of a complete factored
    /// sequence. Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for a
    /// malformed or incomplete sequence.
    fn factored_to_action(&self, seq: &Bound<'_, PyAny>) -> PyResult<usize> {
        let seq = self.factored_of(Some(seq))?;
        self.m
            .factored_to_flat(&seq)
            .map_err(|e| factored_error(&e))
    }

    /// The factored sequence of an action index (the inverse of `factored_to_action`).
    /// Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for any int that
    /// is no command's index (negative or huge too); `TypeError` for a non-int.
    fn action_to_factored(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let (index, text) = action_arg(action)?;
        let Some(index) = index else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("action index {text} has no command"),
            )));
        };
        self.m
            .flat_to_factored(index)
            .map_err(|e| factored_error(&e))
    }

    /// Applies the command of a complete factored sequence and returns its events (as
    /// `apply_action`). `fm.RuleError`: rule `"input"` for a malformed or incomplete
    /// sequence, else the rule the command breaks.
    fn apply_factored<'py>(
        &mut self,
        py: Python<'py>,
        seq: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seq = self.factored_of(Some(seq))?;
        let flat = self
            .m
            .factored_to_flat(&seq)
            .map_err(|e| factored_error(&e))?;
        self.apply_flat(py, flat)
    }

    /// Why the rules would refuse a command (an `fm.RuleError`, not raised), or `None`
    /// if it is legal (Fire & Movement only).
    fn explain<'py>(
        &self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let m = self.fm_or("Match.explain")?;
        let c = fm_command(command)?;
        Ok(fm_core::explain(m.scenario(), m.state(), &c)
            .map(|e| rule_error(&e).into_value(py).into_any()))
    }

    /// Where a unit can move this phase: `[{"hex", "cost", "path", "stop", "occupied"}]`
    /// (Fire & Movement only). Raises `fm.RuleError` (rule `"input"`) for a unit the
    /// scenario does not have.
    fn reachable<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyAny>> {
        let m = self.fm_or("Match.reachable")?;
        let id = check_unit(m.scenario(), unit)?;
        let r = fm_core::reachable(m.scenario(), m.state(), &id);
        to_py(py, &r)
    }

    /// Exact probabilities of what a proposal may give, as `side` (default: the side to
    /// decide) knows them. Fire & Movement: an attack on `hex` by `units` (non-empty) or a
    /// bombardment (`units` empty) with the given markers. Any system: the proposal as a
    /// dict, the JSON of the match layer's `odds` (Fire & Movement `{"hex", "units",
    /// "attacker_markers", "defender_markers"}`; Huzzah! `{"fire": {"unit", "target",
    /// "bases"?}}` or `{"morale": {"unit"}}`), then no other argument but `side`.
    /// Raises `fm.RuleError` for a proposal the rules refuse (an unknown unit, rule
    /// `"input"`), `fm.ProtocolError` for a malformed one, `fm.UnsupportedError` for a
    /// system without odds.
    #[pyo3(
        signature = (hex, units = None, attacker_markers = None, defender_markers = None, side = None),
        text_signature = "($self, hex, units=None, attacker_markers=0, defender_markers=0, side=None)"
    )]
    fn odds<'py>(
        &self,
        py: Python<'py>,
        hex: &Bound<'py, PyAny>,
        units: Option<&Bound<'py, PyAny>>,
        attacker_markers: Option<&Bound<'py, PyAny>>,
        defender_markers: Option<&Bound<'py, PyAny>>,
        side: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if hex.is_instance_of::<PyDict>() {
            if units.is_some() || attacker_markers.is_some() || defender_markers.is_some() {
                return Err(PyTypeError::new_err(
                    "odds: with a proposal dict, pass no units or markers (they are in the dict)",
                ));
            }
            let proposal = to_json_value(hex, "proposal").map_err(protocol_error)?;
            let side = match side {
                Some(s) if !s.is_none() => self.side(s)?,
                _ => self.m.decider().unwrap_or(Side::A),
            };
            let v = self.m.odds(side, &proposal).map_err(|e| match_error(&e))?;
            return to_py(py, &v);
        }
        let hex: &str = &hex.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!(
                "odds: hex must be a hex id (str) or a proposal dict, not {}",
                type_name(hex)
            ))
        })?;
        let m = self.fm_or("Match.odds")?;
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
            Some(s) if !s.is_none() => side_from_py(Some(m.scenario()), s)?,
            _ => m.pending().side().unwrap_or(m.state().active),
        };
        let p = fm_core::AttackProposal {
            hex: hex
                .parse()
                .map_err(|e: fm_core::HexParseError| protocol_error(e.to_string()))?,
            units: units.iter().map(|u| UnitId::new(u)).collect(),
            attacker_markers,
            defender_markers,
        };
        match fm_core::combat_odds(m.scenario(), m.state(), side, &p) {
            Ok(o) => to_py(py, &o),
            Err(e) => Err(rule_error(&e)),
        }
    }

    /// The full state as a dict (the documented JSON form; carries hidden information:
    /// give players `view(side)`).
    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.fm() {
            Some(m) => to_py(py, m.state()),
            None => to_py(py, &self.m.state_json()),
        }
    }

    /// The state as one side may see it, as a dict (Fire & Movement: face-down markers
    /// of the other side hidden).
    fn view<'py>(&self, py: Python<'py>, side: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.side(side)?;
        match self.fm() {
            Some(m) => to_py(py, &m.view(s)),
            None => to_py(py, &self.m.view_json(s)),
        }
    }

    /// A 64-bit hash of the whole state, the same on every platform (Fire & Movement:
    /// `State.hash()`). Referee material: it covers every hidden value, so a player who
    /// sees it can test guesses of them; show a player `view_hash(side)`.
    #[getter]
    fn hash(&self) -> u64 {
        self.m.state_hash()
    }

    /// The 64-bit hash of one side's view: the same for every state that side cannot
    /// tell apart; the hash to show a player.
    fn view_hash(&self, side: &Bound<'_, PyAny>) -> PyResult<u64> {
        let s = self.side(side)?;
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
        let s = self.side(side)?;
        match self.fm() {
            Some(m) => to_py(py, &m.export(s)),
            None => to_py(py, &self.m.export_json(s)),
        }
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// The winner (`"a"` or `"b"`), `None` while playing or for a draw.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.m.outcome().and_then(|o| o.0).map(side_text)
    }

    /// `None` while playing; then `{"winner": "a" | "b" | None, "reason": str}`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(m) = self.fm() {
            return to_py(py, &m.state().outcome);
        }
        match self.m.outcome() {
            None => Ok(py.None().into_bound(py)),
            Some((winner, reason)) => {
                let d = PyDict::new(py);
                d.set_item("winner", winner.map(side_text))?;
                d.set_item("reason", reason)?;
                Ok(d.into_any())
            }
        }
    }

    /// The score of each side: `{"a": 1, "b": -1}` for a win by a, zeros for a draw or
    /// while playing.
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let winner = self.m.outcome().and_then(|o| o.0);
        for s in Side::BOTH {
            let r = match winner {
                Some(w) if w == s => 1,
                Some(_) => -1,
                None => 0,
            };
            d.set_item(s.to_string(), r)?;
        }
        Ok(d)
    }

    /// Commands and events so far: `fm.LogEntry`s (Fire & Movement),
    /// `fm.huzzah.LogEntry`s (Huzzah!), or dicts `{"command", "events", "hash"}` as in a
    /// save file (the hash as 16 hex digits).
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(m) = self.hz() {
            return hz::log_list(py, m);
        }
        let Some(m) = self.fm() else {
            return Ok(to_py(py, &self.m.log_json(0))?.cast_into::<PyList>()?);
        };
        let mut v = Vec::with_capacity(m.log().len());
        for e in m.log() {
            v.push(Bound::new(py, PyLogEntry { entry: e.clone() })?);
        }
        PyList::new(py, v)
    }

    /// The events that opened the game (typed for Fire & Movement and Huzzah!, dicts
    /// otherwise).
    #[getter]
    fn opening_events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(m) = self.hz() {
            return hz::events_list(py, m.opening_events());
        }
        match self.fm() {
            Some(m) => events_list(py, m.opening_events()),
            None => Ok(to_py(py, &self.m.opening_events_json())?.cast_into::<PyList>()?),
        }
    }

    /// Every event so far: the opening, then each command's (typed for Fire & Movement
    /// and Huzzah!, dicts otherwise).
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if let Some(m) = self.hz() {
            let all: Vec<fm_core::huzzah::event::Event> = m
                .opening_events()
                .iter()
                .chain(m.log().iter().flat_map(|e| e.events.iter()))
                .cloned()
                .collect();
            return hz::events_list(py, &all);
        }
        let Some(m) = self.fm() else {
            let mut all: Vec<serde_json::Value> = match self.m.opening_events_json() {
                serde_json::Value::Array(a) => a,
                _ => Vec::new(),
            };
            if let serde_json::Value::Array(log) = self.m.log_json(0) {
                for mut entry in log {
                    if let Some(serde_json::Value::Array(ev)) =
                        entry.get_mut("events").map(std::mem::take)
                    {
                        all.extend(ev);
                    }
                }
            }
            return Ok(to_py(py, &all)?.cast_into::<PyList>()?);
        };
        let all: Vec<fm_core::Event> = m
            .opening_events()
            .iter()
            .chain(m.log().iter().flat_map(|e| e.events.iter()))
            .cloned()
            .collect();
        events_list(py, &all)
    }

    /// Plays uniformly random legal commands, drawn from a generator seeded with `seed`,
    /// until the game ends or `max_commands` were applied (any system; the GIL is
    /// released meanwhile). Returns how many were applied.
    #[pyo3(signature = (max_commands = None, seed = None), text_signature = "($self, max_commands=None, seed=0)")]
    fn playout(
        &mut self,
        py: Python<'_>,
        max_commands: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let max = match max_commands {
            Some(n) if !n.is_none() => count_arg(n, "max_commands", usize::MAX as u64)? as usize,
            _ => usize::MAX,
        };
        let mut rng = fm_core::rng_from_seed(seed_arg(seed, 0)?);
        let m = &mut self.m;
        Ok(py.detach(move || m.playout(&mut rng, max)))
    }

    /// An independent copy (same state, generator and log). With `seed`, the copy's
    /// generator is re-seeded (`reseed`): it rolls its own dice from now on, as each
    /// simulated future of a search should (a plain copy rolls the real future's dice).
    #[pyo3(name = "clone", signature = (seed = None))]
    fn clone_match(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyMatch> {
        Ok(match seed.filter(|s| !s.is_none()) {
            None => PyMatch::new_boxed(self.m.clone_box()),
            Some(s) => PyMatch::new_boxed(self.m.clone_with_seed(seed_arg(Some(s), 0)?)),
        })
    }

    /// How the match resolves die rolls and random draws: `"sampled"` (from its seeded
    /// generator, the default) or `"explicit"` (each draw a chance node that
    /// `apply_chance` resolves).
    #[getter]
    fn chance_mode(&self) -> &'static str {
        match self.m.chance_mode() {
            fm_core::ChanceMode::Sampled => "sampled",
            fm_core::ChanceMode::Explicit => "explicit",
        }
    }

    /// Sets `chance_mode` (`"sampled"` or `"explicit"`; `ValueError` otherwise;
    /// `fm.RuleError` while a chance outcome is pending).
    fn set_chance_mode(&mut self, mode: &str) -> PyResult<()> {
        let mode = match mode {
            "sampled" => fm_core::ChanceMode::Sampled,
            "explicit" => fm_core::ChanceMode::Explicit,
            other => {
                return Err(PyValueError::new_err(format!(
                    "chance mode must be 'sampled' or 'explicit', not {other:?}"
                )))
            }
        };
        self.m.set_chance_mode(mode).map_err(|e| rule_error(&e))
    }

    /// `side`'s perfect-recall information state, as compact JSON text: the opening's
    /// events and every command with its events as that side sees them, nothing else
    /// (OpenSpiel's `information_state_string`).
    fn information_state_string(&self, side: &Bound<'_, PyAny>) -> PyResult<String> {
        let side = self.side(side)?;
        Ok(self.m.information_state(side))
    }

    /// `side`'s perfect-recall information state as a float32 tensor (OpenSpiel's
    /// `information_state_tensor`) with room for `max_commands` commands:
    /// `fm.information_state_tensor_size(max_commands)` values (9 + 4 per command; the
    /// layout is fm-core's `infostate` module's: which side, a drawn view's hash, then a
    /// digest of the opening and of each command with its events as the side saw them).
    /// Equal exactly when `information_state_string` is. Without `out`, little-endian
    /// float32 `bytes`; with `out`, a writable float32 buffer of that size, filled in
    /// place and returned. `fm.RuleError` (rule `"input"`) when the record holds more
    /// commands than `max_commands`.
    #[pyo3(signature = (side, max_commands, out = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
        max_commands: usize,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let side = self.side(side)?;
        let size = max_commands
            .checked_mul(fm_core::infostate::INFO_TENSOR_SLOT)
            .and_then(|n| n.checked_add(fm_core::infostate::INFO_TENSOR_HEADER))
            .filter(|&n| n <= MAX_INFO_TENSOR)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "max_commands must be at most {}, not {max_commands}",
                    (MAX_INFO_TENSOR - fm_core::infostate::INFO_TENSOR_HEADER)
                        / fm_core::infostate::INFO_TENSOR_SLOT
                ))
            })?;
        let out = out.filter(|o| !o.is_none());
        let buf = out
            .as_ref()
            .map(|o| {
                pyo3::buffer::PyBuffer::<f32>::get(o).map_err(|_| {
                    PyTypeError::new_err(format!(
                        "out must be a writable buffer of float32 (a numpy float32 array), not {}",
                        type_name(o)
                    ))
                })
            })
            .transpose()?;
        if let Some(buf) = &buf {
            if buf.item_count() != size {
                return Err(PyValueError::new_err(format!(
                    "out holds {} items; the tensor for {max_commands} commands has {size}",
                    buf.item_count()
                )));
            }
            if buf.readonly() {
                return Err(PyValueError::new_err("out must be writable"));
            }
        }
        let mut t = vec![0.0f32; size];
        self.m
            .information_state_tensor(side, &mut t)
            .map_err(|e| rule_error(&e))?;
        let (Some(out), Some(buf)) = (out, buf) else {
            let bytes: Vec<u8> = t.iter().flat_map(|f| f.to_le_bytes()).collect();
            return Ok(PyBytes::new(py, &bytes).into_any());
        };
        buf.copy_from_slice(py, &t)?;
        Ok(out)
    }

    /// A new match drawn from `side`'s view of this one (OpenSpiel's
    /// `resample_from_infostate`): everything `side` may not know drawn anew from what
    /// it knows alone, with its own generator seeded with `seed`; an empty log, this
    /// match's chance mode, and `side`'s `information_state_string` continued. Its save
    /// records this match's save and `side`, and `load` verifies it by drawing again.
    /// `fm.RuleError` (rule `"chance"`) while a chance outcome is pending, (rule
    /// `"input"`) for a match already 8 determinizations deep.
    #[pyo3(signature = (side, seed = None), text_signature = "($self, side, seed=0)")]
    fn determinized(
        &self,
        side: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMatch> {
        let side = self.side(side)?;
        let seed = seed_arg(seed, 0)?;
        let m = self
            .m
            .determinized(side, seed)
            .map_err(|e| rule_error(&e))?;
        Ok(PyMatch::new_boxed(m))
    }

    /// The built-in AI's choice for the pending decision: information-set Monte Carlo
    /// tree search from the deciding side's knowledge alone (each iteration a
    /// determinization of its view; it never reads what that side may not know), with
    /// its own dice (`seed`), so the match is unchanged. Returns a dict:
    /// ``{"command": {...}, "index": int, "side": "a", "iterations": int, "value":
    /// float, "candidates": [{"index", "visits", "value", "prior"}, ...]}`` (at most
    /// ``max_candidates``, most visited first); apply ``command`` with ``apply`` or
    /// ``index`` with ``apply_action``.
    ///
    /// ``iterations`` bounds the work (1 to 10,000,000); ``time_budget`` (seconds) also
    /// stops it after that long (the result then depends on the machine's speed;
    /// without it the same arguments give the same choice everywhere). The other
    /// settings are the search's (docs/protocol.md, "Search"). Raises
    /// ``fm.ProtocolError`` for a setting out of range and ``fm.RuleError`` (rule
    /// ``"search"``) when there is no decision (the game is over, or a chance outcome
    /// is pending). The GIL is released while it searches.
    #[pyo3(signature = (*, iterations = 200, seed = 0, time_budget = None, exploration = 0.4, rollout = 0, widening = 2.0, max_priors = 400, max_candidates = 16))]
    #[allow(clippy::too_many_arguments)]
    fn think<'py>(
        &self,
        py: Python<'py>,
        iterations: u32,
        seed: u64,
        time_budget: Option<f64>,
        exploration: f64,
        rollout: u32,
        widening: f64,
        max_priors: u32,
        max_candidates: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cfg = fm_core::search::SearchConfig {
            iterations,
            seed,
            exploration,
            rollout,
            widening,
            max_priors,
        };
        cfg.validate().map_err(|e| protocol_error(e.to_string()))?;
        let budget = match time_budget {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => {
                Some(std::time::Duration::from_secs_f64(t))
            }
            Some(t) => {
                return Err(protocol_error(format!(
                    "time_budget = {t} is out of range (more than 0 and at most 86400 seconds)"
                )))
            }
        };
        let m = &self.m;
        let r = py.detach(move || {
            let began = std::time::Instant::now();
            let mut stop = || budget.is_some_and(|b| began.elapsed() >= b);
            m.think(&cfg, &mut stop, max_candidates)
        });
        match r {
            Ok(v) => to_py(py, &v),
            Err(e @ fm_core::search::SearchError::Config { .. })
            | Err(e @ fm_core::search::SearchError::Json(_)) => Err(protocol_error(e.to_string())),
            Err(e) => Err(rule_error(&fm_core::RuleError::new(
                "search",
                e.to_string(),
            ))),
        }
    }

    /// Whether a command waits for a chance outcome (explicit chance mode).
    #[getter]
    fn is_chance_node(&self) -> bool {
        self.m.chance_node().is_some()
    }

    /// The outcomes of the pending draw with their probabilities, `[(outcome, p), ...]`
    /// (OpenSpiel's `chance_outcomes()`); empty when no draw is pending.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        match self.m.chance_node() {
            Some(node) => (0..node.outcomes)
                .map(|k| (k, node.probability()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The bound on the length of every game of this match's scenario, derived from its
    /// rules: an `fm.GameLength` (`commands`, `chance` outcomes, and `total`, their sum:
    /// the moves OpenSpiel counts), or `None` for a rules system that cannot bound its
    /// games.
    fn max_game_length<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(l) = self.m.max_game_length() else {
            return Ok(None);
        };
        let cls = py.import("fm._length")?.getattr("GameLength")?;
        cls.call1((l.commands, l.chance)).map(Some)
    }

    /// Resolves the pending draw with `outcome` (one of `chance_outcomes()`); returns
    /// the command's events once its last draw is resolved (an empty list before).
    /// Raises `fm.RuleError` (rule `"chance"` with no draw pending, `"input"` for an
    /// outcome out of range; nothing changes).
    fn apply_chance<'py>(
        &mut self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (index, text) = action_arg(outcome)?;
        let Some(k) = index.and_then(|i| u32::try_from(i).ok()) else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("{text} is not a chance outcome here"),
            )));
        };
        if let Some(m) = self.m.as_any_mut().downcast_mut::<HzMatch>() {
            return match m.apply_chance(k) {
                Ok(events) => Ok(hz::events_list(py, events)?.into_any()),
                Err(e) => Err(rule_error(&e)),
            };
        }
        if let Some(m) = self.m.as_any_mut().downcast_mut::<fm_core::Match>() {
            return match m.apply_chance(k) {
                Ok(events) => Ok(events_list(py, events)?.into_any()),
                Err(e) => Err(rule_error(&e)),
            };
        }
        let events = self.m.apply_chance(k).map_err(|e| rule_error(&e))?;
        to_py(py, &events)
    }

    /// Re-seeds the generator: the dice from now on are those of a generator seeded
    /// with `seed`. The match records it, so a save replays it and an undo of the
    /// commands before it takes it back.
    fn reseed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = seed_arg(Some(seed), 0)?;
        self.m.reseed(seed);
        Ok(())
    }

    /// The generator's state now, 64 lowercase hex digits (the referee's: it gives
    /// every future roll); `set_rng_state` restores it.
    #[getter]
    fn rng_state(&self) -> String {
        self.m.rng_state().to_string()
    }

    /// Sets the generator to a state `rng_state` gave (`ValueError` for anything else;
    /// the match is then unchanged). Recorded as `reseed` is.
    fn set_rng_state(&mut self, state: &str) -> PyResult<()> {
        let st: fm_core::RngState = state
            .parse()
            .map_err(|e: fm_core::RngStateError| PyValueError::new_err(e.to_string()))?;
        self.m.set_rng_state(st);
        Ok(())
    }

    fn __copy__(&self) -> PyMatch {
        PyMatch::new_boxed(self.m.clone_box())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        PyMatch::new_boxed(self.m.clone_box())
    }

    /// Takes back the last command. Returns False if there was nothing to undo.
    fn undo(&mut self) -> bool {
        self.m.undo()
    }

    /// The match as JSON (scenario, seed and log; another system's save names it in
    /// `"system"`); also written to `path` if given (an `OSError` naming the path if it
    /// cannot be written).
    #[pyo3(signature = (path = None))]
    fn save(&self, py: Python<'_>, path: Option<std::path::PathBuf>) -> PyResult<String> {
        let m = &self.m;
        let s = py.detach(|| m.save());
        if let Some(p) = path {
            std::fs::write(&p, &s).map_err(|e| os_error(&e, &p))?;
        }
        Ok(s)
    }

    /// Loads a saved match of any registered system (named by the save's `"system"`,
    /// Fire & Movement when absent) from JSON text (a str starting with `{`, or bytes;
    /// a leading UTF-8 byte-order mark is ignored) or a path (str or `os.PathLike`),
    /// replaying and verifying every command. Raises `fm.SaveError` naming the first
    /// command that diverges (or a seed that does not match its check),
    /// `fm.ProtocolError` for malformed JSON, a save not exactly in the form `save`
    /// writes (format 2, no unknown or duplicate key), of an unknown system, or larger
    /// than fm-core's 4 MiB save limit (a file is read no further than 64 MiB),
    /// `fm.ScenarioError` for a scenario that is invalid or claims a built-in id with
    /// other data, `OSError` naming the path of a file that cannot be read.
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
        // The replay that verifies the save runs without the GIL.
        let m = source
            .py()
            .detach(|| any::load_match(&text))
            .map_err(|e| match &e {
                // An unknown or malformed `"system"`: a save-file problem like the others.
                fm_core::MatchError::Input(m) => protocol_error(format!("save file: {m}")),
                other => match_error(other),
            })?;
        Ok(PyMatch::new_boxed(m))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("Match")?.getattr("load")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.m.save()])?.into_any()])
    }

    /// The board (Fire & Movement) or the table (Huzzah!) as SVG: the full state, or
    /// `side`'s view of it. Each system takes its own options (`TypeError` for the
    /// other's); defaults in brackets.
    ///
    /// Fire & Movement: `hex_size` pixels from a hex's centre to a corner, 10 to 200
    /// (`ValueError` outside, NaN included) [40]; `hex_ids` [True]; `panel` [True];
    /// `highlight`: a list of hex ids; `markers`: a list of `(hex, kind, label)` tuples;
    /// `title`; `region`: the part of the map drawn, `{"from": "0101", "to": "1010"}`
    /// or a list of hex ids whose bounding rectangle is drawn (`fm.RuleError`, rule
    /// `"input"`, for a hex off the map) [the whole map]; `unit_labels`: what counters
    /// print, `"name"` or `"id"` (the name commands use) ["name"]; `crt`: the Combat
    /// Results Table below the map, the attack in progress's line and column
    /// highlighted [True]; `terrain_chart`: the terrain effects chart [True];
    /// `turn_track` [True]; `boxes`: each side's reinforcement and eliminated boxes
    /// [True].
    ///
    /// Huzzah!: `arc_of`: a unit id, whose arc of fire, weapon range and short range are
    /// drawn (nothing for a unit off the table; `fm.RuleError`, rule `"input"`, for an
    /// id the scenario does not have); `radii`: the officers' command radii [False];
    /// `scale`: pixels per centimetre of table, an int from 1 to 100 [5]; `labels`:
    /// unit and terrain ids [True]; `region`: the rectangle of table drawn,
    /// `{"from": [x, y], "to": [x, y]}` in cm from side A's left corner (`fm.RuleError`
    /// for a corner off the table) [the whole table].
    // `None` is every option's default: each system's own is in brackets above.
    #[pyo3(signature = (side = None, *, hex_size = None, hex_ids = None, panel = None, highlight = None, markers = None, title = None, arc_of = None, radii = None, scale = None, labels = None, region = None, unit_labels = None, crt = None, terrain_chart = None, turn_track = None, boxes = None))]
    #[allow(clippy::too_many_arguments)]
    fn svg(
        &self,
        py: Python<'_>,
        side: Option<&Bound<'_, PyAny>>,
        hex_size: Option<f64>,
        hex_ids: Option<bool>,
        panel: Option<bool>,
        highlight: Option<&Bound<'_, PyAny>>,
        markers: Option<&Bound<'_, PyAny>>,
        title: Option<String>,
        arc_of: Option<String>,
        radii: Option<bool>,
        scale: Option<&Bound<'_, PyAny>>,
        labels: Option<bool>,
        region: Option<&Bound<'_, PyAny>>,
        unit_labels: Option<String>,
        crt: Option<bool>,
        terrain_chart: Option<bool>,
        turn_track: Option<bool>,
        boxes: Option<bool>,
    ) -> PyResult<String> {
        let given = |v: bool, name: &str, names: &mut Vec<String>| {
            if v {
                names.push(name.to_string());
            }
        };
        let present = |o: Option<&Bound<'_, PyAny>>| o.is_some_and(|x| !x.is_none());
        let side = side.filter(|s| !s.is_none());
        if let Some(m) = self.hz() {
            let mut other = Vec::new();
            given(hex_size.is_some(), "hex_size", &mut other);
            given(hex_ids.is_some(), "hex_ids", &mut other);
            given(panel.is_some(), "panel", &mut other);
            given(present(highlight), "highlight", &mut other);
            given(present(markers), "markers", &mut other);
            given(title.is_some(), "title", &mut other);
            given(unit_labels.is_some(), "unit_labels", &mut other);
            given(crt.is_some(), "crt", &mut other);
            given(terrain_chart.is_some(), "terrain_chart", &mut other);
            given(turn_track.is_some(), "turn_track", &mut other);
            given(boxes.is_some(), "boxes", &mut other);
            wrong_options(&other, "Fire & Movement", "huzzah", HZ_SVG_OPTIONS)?;
            let opts = hz_render_options(m, arc_of, radii, scale, labels, region)?;
            let render = fm_core::huzzah::render::render_svg;
            let side = side.map(|s| side_from_py(None, s)).transpose()?;
            return Ok(py.detach(|| match side {
                Some(s) => render(m.scenario(), &m.view(s), &opts),
                None => render(m.scenario(), m.state(), &opts),
            }));
        }
        let Some(m) = self.fm() else {
            return Err(systems_only(
                "Match.svg",
                "a Fire & Movement and Huzzah! feature",
                self.m.system(),
            ));
        };
        let mut other = Vec::new();
        given(arc_of.is_some(), "arc_of", &mut other);
        given(radii.is_some(), "radii", &mut other);
        given(present(scale), "scale", &mut other);
        given(labels.is_some(), "labels", &mut other);
        wrong_options(&other, "Huzzah!", "fm", FM_SVG_OPTIONS)?;
        let opts = render_options(
            m.scenario(),
            hex_size.unwrap_or(40.0),
            hex_ids.unwrap_or(true),
            panel.unwrap_or(true),
            highlight,
            markers,
            title,
            FmExtras {
                region,
                unit_labels,
                crt,
                terrain_chart,
                turn_track,
                boxes,
            },
        )?;
        let side = side
            .map(|s| side_from_py(Some(m.scenario()), s))
            .transpose()?;
        // A board picture takes milliseconds: drawn without the GIL.
        Ok(py.detach(|| match side {
            Some(s) => fm_core::render_svg(m.scenario(), &m.view(s), &opts),
            None => fm_core::render_svg(m.scenario(), m.state(), &opts),
        }))
    }

    /// Jupyter shows the board (Fire & Movement) or the table (Huzzah!) inline with the
    /// default options (for another system the `fm.UnsupportedError`, a
    /// `NotImplementedError`, tells Jupyter to show the repr).
    fn _repr_svg_(&self) -> PyResult<String> {
        if let Some(m) = self.hz() {
            return Ok(fm_core::huzzah::render::render_svg(
                m.scenario(),
                m.state(),
                &fm_core::huzzah::render::RenderOptions::default(),
            ));
        }
        let m = self.fm().ok_or_else(|| {
            systems_only(
                "Match._repr_svg_",
                "a Fire & Movement and Huzzah! feature",
                self.m.system(),
            )
        })?;
        Ok(fm_core::render_svg(
            m.scenario(),
            m.state(),
            &RenderOptions::default(),
        ))
    }

    /// The observation of `side` for learning agents, as raw little-endian float32
    /// bytes: `(board, features)`, board shaped `scenario.observation_shape`. Computed
    /// from `side`'s view, so it holds no hidden information. `fm.env` wraps this
    /// (Fire & Movement only).
    fn observation_bytes<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let m = self.fm_or("Match.observation_bytes")?;
        let s = side_from_py(Some(m.scenario()), side)?;
        let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|f| f.to_le_bytes()).collect() };
        // The view and its tensors without the GIL.
        let (board, feats) = py.detach(|| {
            let (board, feats) = fm_core::observation::encode(m.scenario(), &m.view(s));
            (bytes(&board), bytes(&feats))
        });
        Ok((PyBytes::new(py, &board), PyBytes::new(py, &feats)))
    }

    /// The observation of `side` as one flat float32 vector: the board planes
    /// (`scenario.observation_shape`, C order) then the features
    /// (`scenario.feature_names`), `scenario.observation_size` values in all, computed
    /// from `side`'s view (so it holds no hidden information). Without `out`, little-
    /// endian float32 `bytes`. With `out`, a writable buffer of that many float32 items
    /// (a `numpy.float32` array, an `array.array("f")`): it is filled in place and
    /// returned, with no bytes object. The GIL is released while it is computed. Fire &
    /// Movement only; `fm.env` serves it.
    #[pyo3(signature = (side, out = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let m = self.fm_or("Match.observation")?;
        let s = side_from_py(Some(m.scenario()), side)?;
        // The buffer is checked before the observation is computed.
        let out = out.filter(|o| !o.is_none());
        let buf = out
            .as_ref()
            .map(|o| {
                pyo3::buffer::PyBuffer::<f32>::get(o).map_err(|_| {
                    PyTypeError::new_err(format!(
                        "out must be a writable buffer of float32 (a numpy float32 array), not {}",
                        type_name(o)
                    ))
                })
            })
            .transpose()?;
        let flat = py.detach(|| {
            let (mut board, feats) = fm_core::observation::encode(m.scenario(), &m.view(s));
            board.extend_from_slice(&feats);
            board
        });
        let (Some(out), Some(buf)) = (out, buf) else {
            let bytes: Vec<u8> = flat.iter().flat_map(|f| f.to_le_bytes()).collect();
            return Ok(PyBytes::new(py, &bytes).into_any());
        };
        if buf.item_count() != flat.len() {
            return Err(PyValueError::new_err(format!(
                "out holds {} items; the observation has scenario.observation_size = {}",
                buf.item_count(),
                flat.len()
            )));
        }
        if buf.readonly() {
            return Err(PyValueError::new_err("out must be writable"));
        }
        buf.copy_from_slice(py, &flat)?;
        Ok(out)
    }

    fn __repr__(&self) -> String {
        let Some(m) = self.fm() else {
            // Another system: what the layer knows (its scenario's id, if it has one).
            let sc = self.m.scenario_json();
            let id = sc.get("id").and_then(|v| v.as_str()).unwrap_or("?");
            let status = match self.m.outcome() {
                Some((Some(w), _)) => format!("over, {w} won"),
                Some((None, _)) => "over, a draw".to_string(),
                None => match self.m.decider() {
                    Some(s) => format!("waiting for {s}"),
                    None => "waiting".to_string(),
                },
            };
            return format!(
                "<fm.Match {id} ({}) seed={}: {status}; {} command(s)>",
                self.m.system(),
                self.m.seed(),
                self.m.log_len()
            );
        };
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
            let phase = serde_json::to_value(m.state().phase)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            format!(
                "turn {}, {phase}, waiting for {} ({kind})",
                m.state().turn,
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
}

/// Fills `buf` (one-byte items) with the mask of `legal`: 1 at each legal index, 0
/// elsewhere.
fn fill_mask<T: pyo3::buffer::Element>(
    buf: &pyo3::buffer::PyBuffer<T>,
    n: usize,
    legal: &[usize],
) -> PyResult<()> {
    fill_mask_of(buf, n, legal, &format!("action_space_size = {n}"))
}

/// [`fill_mask`] of a mask whose size `n` is `what` (for the message).
fn fill_mask_of<T: pyo3::buffer::Element>(
    buf: &pyo3::buffer::PyBuffer<T>,
    n: usize,
    legal: &[usize],
    what: &str,
) -> PyResult<()> {
    if buf.item_count() != n || buf.item_size() != 1 {
        return Err(PyValueError::new_err(format!(
            "out holds {} items; the mask has {what}",
            buf.item_count()
        )));
    }
    if buf.readonly() || !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(
            "out must be writable and C-contiguous",
        ));
    }
    // SAFETY: `buf` holds the exporter's buffer in place while it lives; it is
    // writable and C-contiguous with `n` items of one byte (checked above), and with
    // the GIL held nothing else reads or writes it meanwhile.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<u8>(), n) };
    bytes.fill(0);
    for &i in legal {
        if let Some(b) = bytes.get_mut(i) {
            *b = 1;
        }
    }
    Ok(())
}
