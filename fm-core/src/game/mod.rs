//! The system-agnostic match layer: the [`Game`] trait a rules system implements, and
//! [`GameMatch`] (a scenario, its state, a seeded generator and the log of commands and
//! events, with JSON save/load that verifies itself on replay, undo, per-side views
//! and records), generic over it. `crate::Match` is the match of the Fire & Movement
//! system (defined by that system). The object-safe JSON layer over it, which every
//! binding uses, is [`crate::dynmatch`], and the registry of systems `crate::any`.
//!
//! What lives where:
//! - `system.rs`: the [`Game`] trait, a rules system's types and pure functions as the
//!   match layer sees them, each query's default.
//! - `matches.rs`: [`GameMatch`] itself: starting a match, applying commands (by value,
//!   index or factored sequence), undo, determinized copies, the generator, listings
//!   through the system's memo, accessors.
//! - `chance_play.rs`: explicit chance mode: a command stopped at its draws, outcomes
//!   chosen one at a time, a record replayed with its outcomes.
//! - `log.rs`: [`LogEntryOf`] and [`MatchLog`], the persistent log clones share, with
//!   the generator before each command and a state snapshot every 64th; the hex form of
//!   hashes in JSON.
//! - `save.rs`: the save format ([`SavedGame`], [`SAVE_FORMAT`] and the limits),
//!   built-in scenarios by id and [`scenario_hash`], writing a save and loading one
//!   (verified by replay).
//! - `hash.rs`: `WordHasher`, the word-at-a-time hash the systems' state hashes
//!   are built on.
//! - `record.rs`: what one side may know of a match: [`SideRecordOf`] (play by e-mail,
//!   a player's client), information states, view hashes.

mod chance_play;
pub(crate) mod hash;
mod log;
mod matches;
mod record;
mod save;
mod system;

use crate::error::{RuleError, ScenarioError};

pub use log::{LogEntryOf, MatchLog};
pub use matches::GameMatch;
pub use record::{SideEntryOf, SideRecordOf};
pub use save::{
    scenario_hash, SavedChance, SavedDeterminized, SavedGame, SavedScenario,
    MAX_DETERMINIZED_DEPTH, MAX_LOG_ENTRIES, MAX_SAVE_BYTES, SAVE_FORMAT,
};
pub use system::Game;

/// Errors from match operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The scenario is invalid.
    #[error("scenario: {0}")]
    Scenario(#[from] ScenarioError),
    /// Scenario JSON that does not have a scenario's shape (the error names the JSON
    /// path).
    #[error("scenario JSON: {0}")]
    ScenarioJson(ScenarioError),
    /// A command was refused.
    #[error("{0}")]
    Rule(#[from] RuleError),
    /// The save is not valid JSON of the expected shape.
    #[error("save file: {0}")]
    Json(String),
    /// A command or scenario given as JSON is malformed (`command JSON: …`), or names
    /// an unknown rules system.
    #[error("{0}")]
    Input(String),
    /// Replaying the save gave different events or state than recorded.
    #[error("replay diverges at {}: {message}", match index { Some(i) => format!("command {i}"), None => "the opening".to_string() })]
    Diverged {
        /// Index of the first command whose replay differs (`None`: the opening).
        index: Option<usize>,
        /// What differs.
        message: String,
    },
    /// A query the match's rules system does not answer (`reachable` of Huzzah!, any
    /// picture of the toy race): the query and the system, by name.
    #[error("{query} is not supported by the {system:?} rules system")]
    Unsupported {
        /// The query (`"reachable"`, `"svg"`, `"odds"`, `"observation"`).
        query: String,
        /// The rules system ([`Game::NAME`]).
        system: String,
    },
}
