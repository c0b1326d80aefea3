//! Python exceptions. The classes are defined in Python (`fm/_errors.py`, so that they
//! subclass `ValueError`, carry attributes and pickle normally under the limited API)
//! and raised from here.

use pyo3::prelude::*;

pyo3::import_exception!(fm._errors, RuleError);
pyo3::import_exception!(fm._errors, ScenarioError);
pyo3::import_exception!(fm._errors, ProtocolError);
pyo3::import_exception!(fm._errors, SaveError);
pyo3::import_exception!(fm._errors, UnsupportedError);

/// `fm.RuleError(rule, message)`: the rules refuse a command.
pub fn rule_error(e: &fm_core::RuleError) -> PyErr {
    RuleError::new_err((e.rule.clone(), e.message.clone()))
}

/// `fm.ScenarioError(path, message)`.
pub fn scenario_error(e: &fm_core::ScenarioError) -> PyErr {
    ScenarioError::new_err((e.path.clone(), e.message.clone()))
}

/// `fm.ProtocolError(message)`: malformed input (a command, a save file, an argument).
pub fn protocol_error(message: impl Into<String>) -> PyErr {
    ProtocolError::new_err((message.into(),))
}

/// `fm.SaveError(message, index)`: a save that does not replay as recorded.
pub fn save_error(message: impl Into<String>, index: Option<usize>) -> PyErr {
    SaveError::new_err((message.into(), index))
}

/// `fm.UnsupportedError(message, system)`: a Fire & Movement feature asked of a match
/// (or scenario) of another rules system, which has no such feature.
pub fn unsupported_error(message: impl Into<String>, system: &str) -> PyErr {
    UnsupportedError::new_err((message.into(), system.to_string()))
}

/// The [`unsupported_error`] of a method or property (`what`: `"Match.svg"`) that only
/// Fire & Movement matches have.
pub fn fm_only(what: &str, system: &str) -> PyErr {
    systems_only(what, "a Fire & Movement feature", system)
}

/// The [`unsupported_error`] of a feature (`what`: `"Match.svg"`) that only some systems
/// have (`of`: `"a Fire & Movement and Huzzah! feature"`).
pub fn systems_only(what: &str, of: &str, system: &str) -> PyErr {
    unsupported_error(
        format!(
            "{what} is {of}; this match is of the {system:?} rules system \
             (every system has the generic methods: see help(fm.Match))"
        ),
        system,
    )
}

/// Maps a [`fm_core::MatchError`] to the matching Python exception.
pub fn match_error(e: &fm_core::MatchError) -> PyErr {
    use fm_core::MatchError as E;
    #[allow(unreachable_patterns)]
    match e {
        E::Scenario(s) | E::ScenarioJson(s) => scenario_error(s),
        E::Rule(r) => rule_error(r),
        E::Json(m) => protocol_error(format!("save file: {m}")),
        E::Input(m) => protocol_error(m.clone()),
        E::Diverged { index, .. } => save_error(e.to_string(), *index),
        E::Unsupported { system, .. } => unsupported_error(e.to_string(), system),
        other => protocol_error(other.to_string()),
    }
}
