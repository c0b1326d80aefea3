//! Scenarios: everything static about a game (rules 2.0, 3.0 and each game's
//! exclusive set-up, turn-track and victory sections).
//!
//! JSON is read into [`ScenarioData`] (plain serde types, not necessarily valid) and
//! becomes a [`Scenario`] only through [`Scenario::from_data`], which checks every
//! cross-reference and names the JSON path of the first problem it finds.
//!
//! What lives where:
//! - `format.rs`: the JSON form, [`ScenarioData`] and its parts (map, terrain, CRT,
//!   units, turns, set-up, victory), read with JSON paths in errors.
//! - `limits.rs`: the size limits a scenario is held to before anything is built.
//! - `validation.rs`: [`Scenario::from_data`], the cross-references checked in order,
//!   the CRT's lines (8.2.1(d), 8.2.4) and the set-up order (3.0).
//! - `model.rs`: the validated [`Scenario`] (hex, unit and terrain tables, masks, zones)
//!   and its accessors; the built-in scenarios.

mod format;
mod limits;
mod model;
mod validation;

// The layer's scenario error (a JSON path and a message) is F&M's too: every F&M
// scenario error is a path and a message.
pub use crate::error::ScenarioError;

pub use format::*;
pub use limits::*;
use limits::{check_limits, over_limit, MAX_CRT_COLUMNS};
pub use model::*;

pub(super) fn err<T>(
    path: impl Into<String>,
    message: impl Into<String>,
) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        path: path.into(),
        message: message.into(),
    })
}
