//! How a scenario argument of any registered system is resolved into a
//! [`Source`](crate::system::Source) (`fm.Match(scenario)`, `fm.play_random`,
//! `fm.rust_playthrough_hash`, `fm.Scenario`): a built-in name, a path, scenario JSON
//! text, a dict, or a system's scenario object. Scenario JSON names its system in
//! `"system"`; JSON that names none is the default system's, read by its bindings
//! (the `scenario_*` hooks of [`PySystem`](crate::system::PySystem)).

use crate::args::read_text_file;
use crate::convert::{check_text_size, strip_bom, to_json_value, type_name};
use crate::errors::{protocol_error, scenario_error};
use crate::system::{self, Source};
use fm_core::any;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// A scenario error about the whole input (no JSON path).
pub fn whole_scenario_error(message: String) -> PyErr {
    scenario_error(&fm_core::ScenarioError {
        path: String::new(),
        message,
    })
}

/// The scenario of `fm.Match()` and `fm.play_random()` without one: the default
/// system's.
pub fn default_source() -> PyResult<Source> {
    match system::default().default_scenario() {
        Some(sc) => sc.map(Source::Read),
        None => Err(whole_scenario_error(
            "the default rules system has no default scenario".to_string(),
        )),
    }
}

/// Scenario data of any system: the default system's when it names no `"system"` (or
/// names the default one), another system's otherwise.
fn source_from_value(mut v: serde_json::Value) -> PyResult<Source> {
    let default = match v.get("system") {
        None => true,
        Some(serde_json::Value::String(s)) if s == any::default_system() => {
            if let Some(obj) = v.as_object_mut() {
                obj.remove("system");
            }
            true
        }
        // Another system, or a malformed `"system"` that the layer reports.
        Some(_) => false,
    };
    if default {
        system::default().scenario_value(v)
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
                // the default system's, whose parser may say where the text stops
                // making sense (Fire & Movement's gives the JSON path, the error it
                // gave before the match layer); text that names one gets the syntax
                // error, not the default system's field error.
                Category::Syntax | Category::Eof if !body.contains("\"system\"") => {
                    system::default()
                        .scenario_syntax_error(body)
                        .unwrap_or_else(|| whole_scenario_error(format!("scenario JSON: {e}")))
                }
                // JSON the strict reader refuses: a duplicate key, or too large.
                _ => whole_scenario_error(format!("scenario JSON: {e}")),
            });
        }
    };
    if v.get("system").is_none() {
        // The default system from its text, whose errors may keep their line and
        // column (Fire & Movement's: the same messages as before the match layer).
        return system::default().scenario_text(body, v);
    }
    source_from_value(v)
}

/// Resolves a scenario of any registered system: a built-in name (`fm.scenarios()`), a
/// path to a scenario file, scenario JSON text, a dict, or a system's scenario object
/// (`fm.Scenario`). Scenario JSON names its system in `"system"` (the default system,
/// Fire & Movement, when absent).
pub fn source_from_py(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Some(sc) = system::all().iter().find_map(|s| s.scenario_object(source)) {
        return Ok(Source::Read(sc));
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
    if let Some(sc) = system::all().iter().find_map(|s| s.builtin(&text)) {
        return sc.map(Source::Read);
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

/// Reads a scenario file: at most `MAX_INPUT_BYTES` (so an endless file is refused,
/// not read until memory runs out).
fn read_scenario_file(p: &std::path::Path) -> PyResult<Source> {
    let text = read_text_file(p).map_err(|e| whole_scenario_error(e.message(p)))?;
    source_from_text(&text)
}
