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

pub mod agents;
mod artillery;
mod bombardment;
mod combat;
mod command;
mod crt;
mod encoding;
mod engine;
mod error;
mod event;
mod game;
mod hex;
mod hidden;
mod ids;
pub mod json;
mod legal;
pub mod los;
pub mod meuse_argonne;
mod movement;
mod mp;
mod odds;
pub mod render;
mod retreat;
mod scenario;
mod sequence;
mod state;
pub mod suez_1916;
mod support_fire;
mod victory;
mod view;
pub mod vimy_ridge;
pub mod zoc;

pub use artillery::observed;
pub use combat::defender_line;
pub use command::Command;
pub use crt::{ColumnLabel, Crt, CrtLine, CrtResult};
pub use encoding::{action_space_size, command_to_index, index_to_command, legal_indices};
pub use engine::{apply, explain, new_game};
pub use error::RuleError;
pub use event::Event;
pub use game::{
    LogEntry, Match, MatchError, SavedMatch, SideEntry, SideRecord, MAX_LOG_ENTRIES,
    MAX_SAVE_BYTES, SAVE_FORMAT,
};
pub use hex::{Hex, HexParseError, Layout};
pub use hidden::resample_hidden;
pub use ids::{Side, SidePair, UnitId};
pub use legal::{legal_commands, legal_commands_for};
pub use movement::{enter_cost, reachable, Reach, StopReason};
pub use mp::{Mp, MpParseError};
pub use odds::{combat_odds, AttackProposal, Odds};
pub use render::{render_svg, Board, MapMarker, RenderOptions};
pub use retreat::{retreat_options, RetreatOption};
pub use scenario::*;
pub use state::*;
pub use support_fire::next_step;
pub use victory::{final_result, instant};
pub use view::{view, PoolView, SupportView, View};

/// A seeded generator of the kind [`Match`] uses (xoshiro256++).
pub fn rng_from_seed(seed: u64) -> rand_xoshiro::Xoshiro256PlusPlus {
    <rand_xoshiro::Xoshiro256PlusPlus as rand_core::SeedableRng>::seed_from_u64(seed)
}

/// The README's Rust examples, compiled and run as doctests so they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
