//! Rule errors: why a command was refused, naming the rule it breaks.

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
