//! The built-in Huzzah! scenarios (`fm-core/scenarios/huzzah-*.json`), by name, and the
//! check that keeps a save from passing off an edited battle as a built-in one.

use super::format::{from_json_value, ScenarioData};
use super::model::Scenario;
use super::validation::validate;
use crate::error::ScenarioError;

/// The built-in Huzzah! scenarios.
pub const BUILTIN: [&str; 2] = ["huzzah-encounter", "huzzah-firefight"];

fn builtin_text(name: &str) -> Option<&'static str> {
    match name {
        "huzzah-encounter" => Some(include_str!("../../../scenarios/huzzah-encounter.json")),
        "huzzah-firefight" => Some(include_str!("../../../scenarios/huzzah-firefight.json")),
        _ => None,
    }
}

fn builtin_data(name: &str) -> Option<Result<ScenarioData, ScenarioError>> {
    let text = builtin_text(name)?;
    Some(
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| ScenarioError {
                path: String::new(),
                message: e.to_string(),
            })
            .and_then(|mut v| {
                if let Some(o) = v.as_object_mut() {
                    o.remove("system");
                }
                from_json_value(v)
            }),
    )
}

/// Refuses scenario data that claims a built-in scenario's id but differs from it (a
/// save must not pass off an edited battle as the built-in one).
///
/// # Errors
/// The mismatch, at `id`.
pub fn check_builtin_id(data: &ScenarioData) -> Result<(), ScenarioError> {
    match builtin_data(&data.id) {
        Some(Ok(b)) if b != *data => Err(ScenarioError {
            path: "id".into(),
            message: format!(
                "'{}' is a built-in scenario's id, and this data differs from it",
                data.id
            ),
        }),
        _ => Ok(()),
    }
}

impl Scenario {
    /// A built-in scenario by name.
    ///
    /// # Errors
    /// An unknown name.
    ///
    /// ```
    /// let sc = fm_core::huzzah::scenario::Scenario::builtin("huzzah-firefight").unwrap();
    /// assert_eq!(sc.turns(), sc.data().turns);
    /// ```
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        match builtin_data(name) {
            Some(d) => validate(d?),
            None => Err(ScenarioError {
                path: String::new(),
                message: format!(
                    "unknown Huzzah! scenario '{name}' (built in: {})",
                    BUILTIN.join(", ")
                ),
            }),
        }
    }
}
