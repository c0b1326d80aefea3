//! The errors every rules system shares: [`RuleError`] (why a command was refused,
//! naming the rule it breaks) and [`ScenarioError`] (why a scenario did not load, naming
//! the JSON path of the offending value).

use serde::{Deserialize, Serialize};

/// A command was refused. `rule` is the rule number it breaks ("5.2(d)", "8.2.1(b)");
/// `"input"` marks malformed input (an unknown unit id, a hex off the grid); a command
/// that does not fit the pending decision cites `"4.1"` (the sequence of play), as do
/// other 4.1 restrictions. The state is unchanged.
///
/// ```
/// use fm_core::RuleError;
/// let e = RuleError::new("5.2(d)", "1107 holds an enemy unit");
/// assert_eq!(e.to_string(), "5.2(d): 1107 holds an enemy unit");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {message}")]
pub struct RuleError {
    /// The rule number.
    pub rule: String,
    /// What is wrong, with the offending values.
    pub message: String,
}

impl RuleError {
    /// Builds an error.
    pub fn new(rule: &str, message: impl Into<String>) -> RuleError {
        RuleError {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

/// Shorthand for returning a [`RuleError`].
pub(crate) fn refuse<T>(rule: &str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}

/// A scenario failed to load. `path` is the JSON path of the offending value
/// (`units[3].provenance`), also for data that does not deserialize.
///
/// Every rules system reports its scenarios' errors in this form (the [`crate::game::Game`]
/// trait's scenario functions return it); a system whose own errors say more converts
/// them into it, keeping the JSON path.
///
/// ```
/// use fm_core::ScenarioError;
/// let e = ScenarioError::new("units[3].provenance", "missing");
/// assert_eq!(e.to_string(), "units[3].provenance: missing");
/// assert_eq!(ScenarioError::new("", "unknown scenario").to_string(), "unknown scenario");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct ScenarioError {
    /// JSON path, e.g. `map.hexes[412].terrain`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl ScenarioError {
    /// Builds an error at a JSON path (empty for the scenario as a whole).
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}
