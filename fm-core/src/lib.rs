//! # fm-core
//!
//! A rules engine for the Fire & Movement wargame system (Decision Games, System Rules
//! v8): a pure, deterministic state machine.
//!
//! - [`Scenario`]: everything static (map, terrain, CRT, order of battle, turn track),
//!   loaded from JSON and validated.
//! - [`State`]: everything dynamic; [`State::pending`] says whose decision it is.
//! - [`apply`]`(scenario, state, command, rng) -> Result<Vec<Event>, RuleError>` is
//!   pure; [`State::apply_events`] folds the events into the next state.
//! - [`legal_commands`], [`reachable`], [`combat_odds`], [`explain`]: queries.
//! - [`Match`]: scenario + state + seeded rng + log, with save/load/undo.
//!
//! ```
//! use fm_core::{agents, Match};
//! let mut m = Match::new_builtin("system-demo", 42).unwrap();
//! let mut rng = fm_core::rng_from_seed(7);
//! while !m.state().is_over() {
//!     let cmd = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
//!     m.apply(&cmd).unwrap();
//! }
//! println!("{:?}", m.state().outcome);
//! ```

// The layout: `fm` is the Fire & Movement system (its rule modules, and the games on it
// in `fm::games`); `game` (the match, its log and save format), `error` and `ids` are
// independent of any rules system.
pub mod any;
mod chance;
mod dynmatch;
mod error;
pub mod factored;
pub mod fm;
mod game;
pub mod huzzah;
mod ids;
pub mod infostate;
pub mod json;
pub mod query;
mod rng;
pub mod search;
mod svg;

// The public paths of the crate before the layout (`fm_core::zoc`, `fm_core::suez_1916`,
// …) keep working.
pub use fm::games::{meuse_argonne, suez_1916, vimy_ridge};
pub use fm::{agents, los, observation, render, words, zoc};

pub use chance::{ChanceMode, ChanceModeChange, ChanceNode, ChanceRoll};
pub use error::{RuleError, ScenarioError};
pub use factored::FactoredError;
pub use fm::combat::{combat_reading, defender_line, CrtReading};
pub use fm::command::Command;
pub use fm::crt::{ColumnLabel, Crt, CrtLine, CrtResult};
pub use fm::encoding::{action_space_size, command_to_index, index_to_command, legal_indices};
pub use fm::engine::{apply, explain, new_game};
pub use fm::event::Event;
pub use fm::factored::{
    factored_complete, factored_options, factored_sizes, factored_to_flat, flat_to_factored,
};
pub use fm::games::artillery::observed;
pub use fm::hex::{Hex, HexParseError, Layout};
pub use fm::hidden::{resample_hidden, sample_consistent};
pub use fm::legal::{legal_commands, legal_commands_for};
pub use fm::movement::{enter_cost, reachable, Reach, StopReason};
pub use fm::mp::{Mp, MpParseError};
pub use fm::odds::{combat_odds, AttackProposal, Odds};
pub use fm::render::{render_svg, Board, MapMarker, Region, RenderOptions, UnitLabels};
pub use fm::retreat::{retreat_options, RetreatOption};
pub use fm::scenario::*;
pub use fm::state::*;
pub use fm::support_fire::next_step;
pub use fm::victory::{final_result, instant};
pub use fm::view::{view, PoolView, SupportView, View};
pub use fm::{Fm, LogEntry, Match, SavedMatch, SideEntry, SideRecord};
pub use game::{
    scenario_hash, Game, GameMatch, LogEntryOf, MatchError, MatchLog, SavedChance,
    SavedDeterminized, SavedGame, SavedScenario, SideEntryOf, SideRecordOf, MAX_DETERMINIZED_DEPTH,
    MAX_LOG_ENTRIES, MAX_SAVE_BYTES, SAVE_FORMAT,
};
pub use ids::{OfficerId, Side, SidePair, UnitId, Viewer};
pub use infostate::information_state_tensor_size;
pub use query::{GameLength, MatchResult, ObservationSpec};
pub use rng::{rng_from_seed, RngReset, RngState, RngStateError};

/// The README's Rust examples, compiled and run as doctests so they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The guides' Rust examples (`docs/*.md`), compiled and run as doctests like the
/// README's: the library guide, and search and learning.
#[cfg(doctest)]
#[doc = include_str!("../../docs/rust.md")]
#[doc = include_str!("../../docs/learning.md")]
pub struct GuideDoctests;
