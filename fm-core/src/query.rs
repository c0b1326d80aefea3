//! The queries every binding asks of a match beyond playing it, in a form that does not
//! depend on the rules system: how a game stands ([`MatchResult`]), the shape of the
//! learning observation ([`ObservationSpec`]), the bound on a game's length
//! ([`GameLength`]), and the strict reading of a query's JSON argument. Each query is a
//! [`crate::Game`] method with a default (a system that does not answer it says so with
//! [`MatchError::Unsupported`], or `None` for the length) and a
//! [`crate::dynmatch::DynMatch`] method.

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
/// ([`crate::dynmatch::command_from_json`]): serde's reading, then no member that `T` does not
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
    if let Some(path) = crate::dynmatch::unknown_field(&expected, v, "") {
        return Err(MatchError::Input(format!("{what}: unknown field {path}")));
    }
    Ok(t)
}

/// Reads a system's picture options (its `RenderOptions`) from JSON, before the
/// system checks them against its scenario: `null` is the defaults; anything but an
/// object is refused, as is an array where a member wants an object (serde would read
/// a struct from an array, by position); serde's errors name the field.
///
/// # Errors
/// A [`RuleError`] (rule `"input"`): `render options at hex_size: …`.
pub(crate) fn render_options_from_json<T: DeserializeOwned + Serialize + Default>(
    v: &Value,
) -> Result<T, crate::error::RuleError> {
    let input = |m: String| crate::error::RuleError::new("input", format!("render options{m}"));
    if v.is_null() {
        return Ok(T::default());
    }
    if !v.is_object() {
        return Err(input(format!(": an object expected, not {v}")));
    }
    let o: T = serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!(" at {path}")
        };
        input(format!("{at}: {}", e.inner()))
    })?;
    let read = serde_json::to_value(&o).expect("render options serialize");
    if let Some(path) = crate::dynmatch::array_for_object(&read, v, "") {
        return Err(input(format!(
            " at {path}: an object expected, not an array"
        )));
    }
    Ok(o)
}

/// An upper bound on the length of every game of a scenario
/// ([`crate::Game::max_game_length`]): the most commands (decisions, by either side)
/// and the most chance outcomes (the draws a match in explicit chance mode,
/// [`crate::chance::ChanceMode::Explicit`], stops at) a game can have from its first decision
/// to its end. OpenSpiel counts both as moves: [`GameLength::total`]. The draws of the
/// opening, made when a match is created, come from its seed and are no chance
/// outcomes (a bound may still count some of them).
///
/// The arithmetic saturates at `u64::MAX`, so that no scenario overflows it (the
/// scenario limits keep every built-in bound far below).
///
/// JSON: `{"commands": 1200, "chance": 300, "total": 1500}`.
///
/// ```
/// use fm_core::GameLength;
/// let turn = GameLength::new(10, 4);
/// assert_eq!((turn * 3 + GameLength::new(2, 0)).total(), 44);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GameLength {
    /// The most commands a game can have.
    pub commands: u64,
    /// The most chance outcomes a game can have.
    pub chance: u64,
}

impl GameLength {
    /// Nothing: no command, no draw.
    pub const ZERO: GameLength = GameLength {
        commands: 0,
        chance: 0,
    };

    /// A length of `commands` commands and `chance` chance outcomes.
    pub const fn new(commands: u64, chance: u64) -> GameLength {
        GameLength { commands, chance }
    }

    /// Commands only.
    pub const fn commands(n: u64) -> GameLength {
        GameLength::new(n, 0)
    }

    /// Chance outcomes only.
    pub const fn chance(n: u64) -> GameLength {
        GameLength::new(0, n)
    }

    /// Commands and chance outcomes together: the moves OpenSpiel counts.
    pub const fn total(self) -> u64 {
        self.commands.saturating_add(self.chance)
    }
}

impl std::ops::Add for GameLength {
    type Output = GameLength;
    fn add(self, o: GameLength) -> GameLength {
        GameLength::new(
            self.commands.saturating_add(o.commands),
            self.chance.saturating_add(o.chance),
        )
    }
}

impl std::ops::AddAssign for GameLength {
    fn add_assign(&mut self, o: GameLength) {
        *self = *self + o;
    }
}

/// `k` times a length: a term that recurs `k` times (each unit, each turn).
impl std::ops::Mul<u64> for GameLength {
    type Output = GameLength;
    fn mul(self, k: u64) -> GameLength {
        GameLength::new(
            self.commands.saturating_mul(k),
            self.chance.saturating_mul(k),
        )
    }
}

impl std::iter::Sum for GameLength {
    fn sum<I: Iterator<Item = GameLength>>(it: I) -> GameLength {
        it.fold(GameLength::ZERO, |a, b| a + b)
    }
}

impl Serialize for GameLength {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("GameLength", 3)?;
        st.serialize_field("commands", &self.commands)?;
        st.serialize_field("chance", &self.chance)?;
        st.serialize_field("total", &self.total())?;
        st.end()
    }
}
