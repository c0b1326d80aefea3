//! The F&M games fm knows, one module each ([`meuse_argonne`], [`vimy_ridge`],
//! [`suez_1916`], and the WWI artillery the first two share, `artillery`), and which
//! exclusive rules a scenario's `rules` selects.
//!
//! This registry is the one place that names every game: a new game adds its
//! parameters to [`RuleSet`] and its [`ExclusiveRules`] implementation to
//! [`rules_for`] (see `docs/adding-a-game.md`). The system-rule modules reach a game
//! only through [`crate::Scenario::rules`].

pub(crate) mod artillery;
pub mod meuse_argonne;
pub mod suez_1916;
pub mod vimy_ridge;

use crate::error::RuleError;
use crate::fm::command::Command;
use crate::fm::crt::CrtResult;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::{ExclusiveRules, MovementRules, PlacementCache, SystemRules};
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{Phase, Scenario, ScenarioError};
use crate::fm::state::{CombatKind, ExclusiveState, State};
use crate::ids::{Side, UnitId};
use crate::query::GameLength;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which exclusive-rule set applies.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSet {
    /// The system rules 1.0-9.0 only.
    #[default]
    System,
    /// Meuse Argonne exclusive rules 10.0-19.0, with their parameters.
    MeuseArgonne(Box<crate::fm::games::meuse_argonne::MeuseArgonneParams>),
    /// Vimy Ridge exclusive rules 10.0-21.0, with their parameters.
    VimyRidge(Box<crate::fm::games::vimy_ridge::VimyRidgeParams>),
    /// Suez 1916 exclusive rules 10.0-20.0, with their parameters.
    #[serde(rename = "suez-1916")]
    Suez1916(Box<crate::fm::games::suez_1916::Suez1916Params>),
}

/// The exclusive rules a rule set selects (chosen once, when a scenario loads).
pub(crate) fn rules_for(rules: &RuleSet) -> Rules {
    match rules {
        RuleSet::System => Rules::System(SystemRules),
        RuleSet::MeuseArgonne(_) => Rules::MeuseArgonne(meuse_argonne::MeuseArgonne),
        RuleSet::VimyRidge(_) => Rules::VimyRidge(vimy_ridge::VimyRidge),
        RuleSet::Suez1916(_) => Rules::Suez1916(suez_1916::Suez1916),
    }
}

/// The exclusive rules of every game, as one type: `rules_for` picks the variant once per
/// scenario, and each method forwards to the game's implementation by a `match`, which
/// the compiler inlines (a call through `dyn ExclusiveRules` could not be, and the
/// step pricing of movement calls these hooks for every edge).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rules {
    /// The system rules alone.
    System(SystemRules),
    /// Meuse Argonne.
    MeuseArgonne(meuse_argonne::MeuseArgonne),
    /// Vimy Ridge.
    VimyRidge(vimy_ridge::VimyRidge),
    /// Suez 1916.
    Suez1916(suez_1916::Suez1916),
}

macro_rules! forward {
    ($self:ident, $($call:tt)*) => {
        match $self {
            Rules::System(r) => r.$($call)*,
            Rules::MeuseArgonne(r) => r.$($call)*,
            Rules::VimyRidge(r) => r.$($call)*,
            Rules::Suez1916(r) => r.$($call)*,
        }
    };
}

#[allow(clippy::too_many_arguments)]
impl ExclusiveRules for Rules {
    #[inline]
    fn prepare(&self, a0: &mut Scenario) -> Result<(), ScenarioError> {
        forward!(self, prepare(a0))
    }
    #[inline]
    fn initial(&self, a0: &Scenario, a1: &mut BTreeMap<Hex, Side>, a2: &mut ExclusiveState) {
        forward!(self, initial(a0, a1, a2))
    }
    #[inline]
    fn setup_room(&self, a0: &Scenario, a1: Side, a2: u16) -> Option<u8> {
        forward!(self, setup_room(a0, a1, a2))
    }
    #[inline]
    fn rail_bound(&self, a0: &Scenario, a1: usize) -> bool {
        forward!(self, rail_bound(a0, a1))
    }
    #[inline]
    fn rail_hex(&self, a0: &Scenario, a1: Hex) -> bool {
        forward!(self, rail_hex(a0, a1))
    }
    #[inline]
    fn check_placement(
        &self,
        a0: &Scenario,
        a1: &State,
        a2: usize,
        a3: Hex,
    ) -> Result<(), RuleError> {
        forward!(self, check_placement(a0, a1, a2, a3))
    }
    #[inline]
    fn placement_listed(
        &self,
        a0: &Scenario,
        a1: &State,
        a2: usize,
        a3: Hex,
        a4: &mut PlacementCache,
    ) -> bool {
        forward!(self, placement_listed(a0, a1, a2, a3, a4))
    }
    #[inline]
    fn may_stack(&self, a0: &Scenario, a1: &State, a2: usize, a3: Hex) -> bool {
        forward!(self, may_stack(a0, a1, a2, a3))
    }
    #[inline]
    fn stacks_by_retreat(&self) -> bool {
        forward!(self, stacks_by_retreat())
    }
    #[inline]
    fn stacking_rule(&self) -> &'static str {
        forward!(self, stacking_rule())
    }
    #[inline]
    fn stack_attack_rule(&self) -> &'static str {
        forward!(self, stack_attack_rule())
    }
    #[inline]
    fn movement(&self, a0: &Scenario, a1: &State, a2: usize) -> Option<MovementRules> {
        forward!(self, movement(a0, a1, a2))
    }
    #[inline]
    fn hexside_extra(&self, a0: &Scenario, a1: u64) -> Mp {
        forward!(self, hexside_extra(a0, a1))
    }
    #[inline]
    fn enter_extra(&self, a0: &Scenario, a1: Side, a2: u16) -> Mp {
        forward!(self, enter_extra(a0, a1, a2))
    }
    #[inline]
    fn move_refusal(&self, a0: &Scenario, a1: &State, a2: usize) -> Result<(), RuleError> {
        forward!(self, move_refusal(a0, a1, a2))
    }
    #[inline]
    fn activity_refusal(&self, a0: &Scenario, a1: &State, a2: &str) -> Result<(), RuleError> {
        forward!(self, activity_refusal(a0, a1, a2))
    }
    #[inline]
    fn enters_as(&self, a0: &Scenario, a1: &State, a2: usize) -> usize {
        forward!(self, enters_as(a0, a1, a2))
    }
    #[inline]
    fn entry_hexes(&self, a0: &Scenario, a1: usize) -> Vec<u16> {
        forward!(self, entry_hexes(a0, a1))
    }
    #[inline]
    fn extra_moves(&self, a0: &Scenario, a1: &State, a2: usize) -> Vec<(Hex, Vec<Hex>)> {
        forward!(self, extra_moves(a0, a1, a2))
    }
    #[inline]
    fn other_move(
        &self,
        a0: &mut Ctx,
        a1: usize,
        a2: &UnitId,
        a3: &[Hex],
        a4: RuleError,
    ) -> Result<(), RuleError> {
        forward!(self, other_move(a0, a1, a2, a3, a4))
    }
    #[inline]
    fn path_bound_note(&self) -> &'static str {
        forward!(self, path_bound_note())
    }
    #[inline]
    fn zoc_needs_holders(&self) -> bool {
        forward!(self, zoc_needs_holders())
    }
    #[inline]
    fn zoc_blocked_into(&self, a0: &Scenario, a1: &State, a2: Side, a3: u16) -> bool {
        forward!(self, zoc_blocked_into(a0, a1, a2, a3))
    }
    #[inline]
    fn zoc_blocked_across(&self, a0: &Scenario, a1: Side, a2: u64, a3: Option<Side>) -> bool {
        forward!(self, zoc_blocked_across(a0, a1, a2, a3))
    }
    #[inline]
    fn terrain_counts(&self, a0: &Scenario, a1: &State, a2: u16, a3: usize, a4: Side) -> bool {
        forward!(self, terrain_counts(a0, a1, a2, a3, a4))
    }
    #[inline]
    fn hexside_line_denied(&self, a0: &Scenario, a1: u16, a2: usize, a3: Side) -> bool {
        forward!(self, hexside_line_denied(a0, a1, a2, a3))
    }
    #[inline]
    fn forced_line(&self, a0: &Scenario, a1: &State) -> Option<usize> {
        forward!(self, forced_line(a0, a1))
    }
    #[inline]
    fn column_shift(&self, a0: &Scenario, a1: &State, a2: Hex) -> i8 {
        forward!(self, column_shift(a0, a1, a2))
    }
    #[inline]
    fn defense(&self, a0: &Scenario, a1: u16, a2: i32) -> i32 {
        forward!(self, defense(a0, a1, a2))
    }
    #[inline]
    fn repeat_attacks(&self) -> bool {
        forward!(self, repeat_attacks())
    }
    #[inline]
    fn check_attack(
        &self,
        a0: &Scenario,
        a1: &State,
        a2: &[usize],
        a3: &[usize],
    ) -> Result<(), RuleError> {
        forward!(self, check_attack(a0, a1, a2, a3))
    }
    #[inline]
    fn check_free_attack(&self, a0: &Scenario, a1: &State, a2: Hex) -> Result<(), RuleError> {
        forward!(self, check_free_attack(a0, a1, a2))
    }
    #[inline]
    fn records_attacking_formation(&self) -> bool {
        forward!(self, records_attacking_formation())
    }
    #[inline]
    fn before_roll(&self, a0: &mut Ctx) -> bool {
        forward!(self, before_roll(a0))
    }
    #[inline]
    fn owners_choose_exchange(&self) -> bool {
        forward!(self, owners_choose_exchange())
    }
    #[inline]
    fn after_elimination(&self, a0: &mut Ctx, a1: usize, a2: Option<Hex>) {
        forward!(self, after_elimination(a0, a1, a2))
    }
    #[inline]
    fn bombard_refusal(&self, a0: &Scenario, a1: &State) -> Option<RuleError> {
        forward!(self, bombard_refusal(a0, a1))
    }
    #[inline]
    fn artillery_replaces_bombardment(&self) -> bool {
        forward!(self, artillery_replaces_bombardment())
    }
    #[inline]
    fn replaces_allotment(&self) -> bool {
        forward!(self, replaces_allotment())
    }
    #[inline]
    fn random_allotment(&self, a0: &Scenario, a1: u16, a2: Side) -> bool {
        forward!(self, random_allotment(a0, a1, a2))
    }
    #[inline]
    fn support_barred(&self, a0: &Scenario, a1: &State, a2: Side) -> bool {
        forward!(self, support_barred(a0, a1, a2))
    }
    #[inline]
    fn may_downgrade(&self, a0: &Scenario, a1: &State, a2: usize, a3: u8) -> bool {
        forward!(self, may_downgrade(a0, a1, a2, a3))
    }
    #[inline]
    fn stiff_refusal(&self, a0: &Scenario, a1: Option<CrtResult>) -> Result<(), RuleError> {
        forward!(self, stiff_refusal(a0, a1))
    }
    #[inline]
    fn held_by_one_step(
        &self,
        a0: &Scenario,
        a1: CombatKind,
        a2: &[UnitId],
        a3: &[UnitId],
        a4: &UnitId,
    ) -> Result<Vec<UnitId>, RuleError> {
        forward!(self, held_by_one_step(a0, a1, a2, a3, a4))
    }
    #[inline]
    fn retreat_costs_step(&self, a0: &Scenario, a1: Option<CrtResult>) -> bool {
        forward!(self, retreat_costs_step(a0, a1))
    }
    #[inline]
    fn advance_limit(&self, a0: &Scenario, a1: usize) -> Option<usize> {
        forward!(self, advance_limit(a0, a1))
    }
    #[inline]
    fn on_play_start(&self, a0: &mut Ctx) {
        forward!(self, on_play_start(a0))
    }
    #[inline]
    fn on_turn_start(&self, a0: &mut Ctx) {
        forward!(self, on_turn_start(a0))
    }
    #[inline]
    fn on_phase_start(&self, a0: &mut Ctx, a1: Side, a2: Phase) {
        forward!(self, on_phase_start(a0, a1, a2))
    }
    #[inline]
    fn after_player_turns(&self, a0: &mut Ctx) -> bool {
        forward!(self, after_player_turns(a0))
    }
    #[inline]
    fn after_command(&self, a0: &mut Ctx) {
        forward!(self, after_command(a0))
    }
    #[inline]
    fn continue_combat_phase(&self, a0: &mut Ctx) -> bool {
        forward!(self, continue_combat_phase(a0))
    }
    #[inline]
    fn fire_support_done(&self, a0: &mut Ctx) -> Result<(), RuleError> {
        forward!(self, fire_support_done(a0))
    }
    #[inline]
    fn fire_artillery(&self, a0: &mut Ctx) -> bool {
        forward!(self, fire_artillery(a0))
    }
    #[inline]
    fn phase_commands(&self, a0: &Scenario, a1: &State) -> Vec<Command> {
        forward!(self, phase_commands(a0, a1))
    }
    #[inline]
    fn has_phase_commands(&self, a0: &Scenario, a1: &State) -> bool {
        forward!(self, has_phase_commands(a0, a1))
    }
    #[inline]
    fn phase_command_count(&self, a0: &Scenario, a1: &State) -> usize {
        forward!(self, phase_command_count(a0, a1))
    }
    #[inline]
    fn phase_command(&self, a0: &Scenario, a1: &State, a2: usize) -> Option<Command> {
        forward!(self, phase_command(a0, a1, a2))
    }
    #[inline]
    fn phase_command_indices(&self, a0: &Scenario, a1: &State, a2: &mut Vec<usize>) {
        forward!(self, phase_command_indices(a0, a1, a2))
    }
    #[inline]
    fn fire_support_commands(&self, a0: &Scenario, a1: &State, a2: Side) -> Vec<Command> {
        forward!(self, fire_support_commands(a0, a1, a2))
    }
    #[inline]
    fn artillery_retreat_hexes(
        &self,
        a0: &Scenario,
        a1: &State,
        a2: &UnitId,
        a3: &[UnitId],
    ) -> Vec<Hex> {
        forward!(self, artillery_retreat_hexes(a0, a1, a2, a3))
    }
    #[inline]
    fn place_fire_support(&self, a0: &mut Ctx, a1: Hex, a2: u8) -> Result<(), RuleError> {
        forward!(self, place_fire_support(a0, a1, a2))
    }
    #[inline]
    fn air_unit(&self, a0: &mut Ctx, a1: Hex, a2: bool) -> Result<(), RuleError> {
        forward!(self, air_unit(a0, a1, a2))
    }
    #[inline]
    fn announce_attack(&self, a0: &mut Ctx, a1: Hex, a2: &[UnitId]) -> Result<(), RuleError> {
        forward!(self, announce_attack(a0, a1, a2))
    }
    #[inline]
    fn air_unit_side(&self) -> Side {
        forward!(self, air_unit_side())
    }
    #[inline]
    fn kress(&self, a0: &mut Ctx, a1: Hex) -> Result<(), RuleError> {
        forward!(self, kress(a0, a1))
    }
    #[inline]
    fn lost_battalion(&self, a0: &mut Ctx, a1: bool) -> Result<(), RuleError> {
        forward!(self, lost_battalion(a0, a1))
    }
    #[inline]
    fn replace(&self, a0: &mut Ctx, a1: &UnitId, a2: Hex, a3: bool) -> Result<(), RuleError> {
        forward!(self, replace(a0, a1, a2, a3))
    }
    #[inline]
    fn rebuild(&self, a0: &mut Ctx, a1: &[UnitId]) -> Result<(), RuleError> {
        forward!(self, rebuild(a0, a1))
    }
    #[inline]
    fn break_down(&self, a0: &mut Ctx, a1: &UnitId) -> Result<(), RuleError> {
        forward!(self, break_down(a0, a1))
    }
    #[inline]
    fn place_aircraft(&self, a0: &mut Ctx, a1: Hex) -> Result<(), RuleError> {
        forward!(self, place_aircraft(a0, a1))
    }
    #[inline]
    fn artillery(&self, a0: &mut Ctx, a1: Hex, a2: u8, a3: bool) -> Result<(), RuleError> {
        forward!(self, artillery(a0, a1, a2, a3))
    }
    #[inline]
    fn artillery_retreat(&self, a0: &mut Ctx, a1: &UnitId, a2: &[Hex]) -> Result<(), RuleError> {
        forward!(self, artillery_retreat(a0, a1, a2))
    }
    #[inline]
    fn accept_hits(&self, a0: &mut Ctx, a1: &UnitId) -> Result<(), RuleError> {
        forward!(self, accept_hits(a0, a1))
    }
    #[inline]
    fn instant(&self, a0: &Scenario, a1: &State, a2: &[Event]) -> Option<(Side, String)> {
        forward!(self, instant(a0, a1, a2))
    }
    #[inline]
    fn final_result(&self, a0: &Scenario, a1: &State) -> Option<(Option<Side>, String)> {
        forward!(self, final_result(a0, a1))
    }
    #[inline]
    fn turn_length(&self, a0: &Scenario, a1: u16) -> GameLength {
        forward!(self, turn_length(a0, a1))
    }
    #[inline]
    fn game_length(&self, a0: &Scenario) -> GameLength {
        forward!(self, game_length(a0))
    }
    #[inline]
    fn attacks_on_one_unit(&self, a0: &Scenario, a1: Side) -> u64 {
        forward!(self, attacks_on_one_unit(a0, a1))
    }
    #[inline]
    fn objectives(&self, a0: &Scenario) -> Vec<crate::fm::ai::Objective> {
        forward!(self, objectives(a0))
    }
}
