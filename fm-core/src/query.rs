//! The queries every binding asks of a match beyond playing it, in a form that does not
//! depend on the rules system: how a game stands ([`MatchResult`]), the shape of the
//! learning observation ([`ObservationSpec`]), and the strict reading of a query's
//! JSON argument. Each query is a [`crate::Game`] method with a default (a system that
//! does not answer it says so with [`MatchError::Unsupported`]) and a
//! [`crate::any::DynMatch`] method taking and giving JSON.

use crate::game::MatchError;
use crate::ids::Side;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a game stands: still going, won by a side, or drawn. (`GameMatch::winner` is
/// `None` both while the game goes on and after a draw; this tells them apart.)
///
/// JSON: `"ongoing"`, `{"won":"a"}`, `"draw"`.
///
/// ```
/// use fm_core::{Match, MatchResult};
/// let m = Match::new_builtin("system-demo", 1).unwrap();
/// assert_eq!(m.result(), MatchResult::Ongoing);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    /// The game goes on.
    Ongoing,
    /// The game is over and this side won.
    Won(Side),
    /// The game is over without a winner.
    Draw,
}

impl MatchResult {
    /// The result of an outcome as [`crate::Game::outcome`] gives it.
    pub fn of_outcome(outcome: Option<&(Option<Side>, String)>) -> MatchResult {
        match outcome {
            None => MatchResult::Ongoing,
            Some((Some(w), _)) => MatchResult::Won(*w),
            Some((None, _)) => MatchResult::Draw,
        }
    }
}

/// The layout of a scenario's learning observation: board planes of `shape`
/// (`channels × rows × columns`, row-major), then `features.len()` features, as one flat
/// vector of [`ObservationSpec::size`] `f32` values.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ObservationSpec {
    /// `[channels, rows, columns]` of the board planes.
    pub shape: [usize; 3],
    /// The name of each board channel (`shape[0]` of them).
    pub channels: Vec<String>,
    /// The name of each feature, in the order they follow the board planes.
    pub features: Vec<String>,
}

impl ObservationSpec {
    /// The number of values of a flat observation: the board planes, then the features.
    pub fn size(&self) -> usize {
        self.shape[0] * self.shape[1] * self.shape[2] + self.features.len()
    }
}

/// The [`MatchError::Unsupported`] of a query (`"svg"`) that `system` does not answer.
pub fn unsupported(query: &str, system: &str) -> MatchError {
    MatchError::Unsupported {
        query: query.to_string(),
        system: system.to_string(),
    }
}

/// Reads a query's JSON argument as strictly as a command is read
/// ([`crate::any::command_from_json`]): serde's reading, then no member that `T` does not
/// have. `what` names the argument in the message (`"odds JSON"`).
///
/// # Errors
/// [`MatchError::Input`] (`what: …`).
pub(crate) fn strict_from_value<T: DeserializeOwned + Serialize>(
    v: &Value,
    what: &str,
) -> Result<T, MatchError> {
    let t: T =
        serde_json::from_value(v.clone()).map_err(|e| MatchError::Input(format!("{what}: {e}")))?;
    let expected = serde_json::to_value(&t).expect("query values serialize");
    if let Some(path) = crate::any::unknown_field(&expected, v, "") {
        return Err(MatchError::Input(format!("{what}: unknown field {path}")));
    }
    Ok(t)
}
