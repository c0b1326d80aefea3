//! The places where the system rules leave room for a game's exclusive rules, as one
//! trait ([`ExclusiveRules`]). Every method's default is the system rule (v8, 1.0-9.0);
//! a game's module implements the trait and overrides only what its exclusive rules
//! change. The scenario's `rules` picks the implementation once, at load
//! (`crate::fm::games::rules_for`), and the system-rule modules reach it only through
//! [`crate::Scenario::rules`].
//!
//! **Architecture invariant:** no system-rule module names a game module; the games are
//! reached through this trait alone (checked by `tests/architecture.rs`).

use crate::error::{refuse, RuleError};
use crate::fm::command::Command;
use crate::fm::crt::CrtResult;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{Phase, Scenario, ScenarioError};
use crate::fm::state::{CombatKind, ExclusiveState, State};
use crate::ids::{Side, UnitId};
use crate::query::GameLength;
use std::collections::BTreeMap;

/// How a game changes one unit's movement (Suez 1916 13.3, 14.1, 15.1, 19.0): what the
/// step pricing needs to know, computed once per unit and move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MovementRules {
    /// A crossing (hex indices) the unit may take for its whole movement allowance.
    pub crossing: Option<[u16; 2]>,
    /// The unit moves only along railroad hexsides.
    pub train: bool,
    /// The unit may exit an enemy zone of control without its extra cost.
    pub disengage: bool,
    /// The movement allowance multiplier.
    pub factor: u32,
}

/// Scratch space kept across the placements of one set-up listing, where nothing
/// changes between them: the system's (who stands where, the groups of units still
/// waiting) and a game's own (Vimy Ridge 19.1 caches its north-south bands there,
/// Suez 1916 11.2 its waiting units and open hexes).
#[derive(Default)]
pub(crate) struct PlacementCache {
    /// The game's scratch.
    pub(crate) game: Option<Box<dyn std::any::Any>>,
    /// [`crate::fm::zoc::occupancy`] of the listed state.
    pub(crate) occ: Option<Vec<u16>>,
    /// The groups of units waiting to set up (`playable::strands_others`).
    pub(crate) groups: Option<Vec<(u64, bool)>>,
}

impl PlacementCache {
    /// Who stands where in the listed state ([`crate::fm::zoc::occupancy`]).
    pub(crate) fn occupancy(&mut self, sc: &Scenario, s: &State) -> &[u16] {
        self.occ
            .get_or_insert_with(|| crate::fm::zoc::occupancy(sc, s))
    }

    /// The game's scratch of type `T`, made (or remade, if it held another type) on
    /// first use.
    pub(crate) fn game_scratch<T: Default + 'static>(&mut self) -> &mut T {
        scratch_in(&mut self.game)
    }

    /// [`PlacementCache::occupancy`] and [`PlacementCache::game_scratch`] together.
    pub(crate) fn occupancy_and_scratch<T: Default + 'static>(
        &mut self,
        sc: &Scenario,
        s: &State,
    ) -> (&[u16], &mut T) {
        let occ = self
            .occ
            .get_or_insert_with(|| crate::fm::zoc::occupancy(sc, s));
        (occ, scratch_in(&mut self.game))
    }
}

fn scratch_in<T: Default + 'static>(game: &mut Option<Box<dyn std::any::Any>>) -> &mut T {
    if !game.as_ref().is_some_and(|g| g.is::<T>()) {
        *game = Some(Box::new(T::default()));
    }
    game.as_mut()
        .and_then(|g| g.downcast_mut::<T>())
        .expect("just made")
}

/// A game's exclusive rules. See the module documentation.
pub(crate) trait ExclusiveRules: Sync + std::fmt::Debug {
    // -----------------------------------------------------------------------------
    // Loading (2.0, 3.0).

    /// Checks the game's parameters against the scenario and derives its terrain sets
    /// (`sc.masks`). The scenario is otherwise validated.
    fn prepare(&self, _sc: &mut Scenario) -> Result<(), ScenarioError> {
        Ok(())
    }
    /// Adds to the initial state (control of hexes, exclusive bookkeeping).
    fn initial(
        &self,
        _sc: &Scenario,
        _control: &mut BTreeMap<Hex, Side>,
        _ex: &mut ExclusiveState,
    ) {
    }
    /// Units `hex` holds at set-up for `side` (stacking), if not one (5.3).
    fn setup_room(&self, _sc: &Scenario, _side: Side, _hex: u16) -> Option<u8> {
        None
    }
    /// Whether unit `i` keeps to the railroad (moves, retreats, sets up on it).
    fn rail_bound(&self, _sc: &Scenario, _i: usize) -> bool {
        false
    }
    /// Whether a rail-bound unit may set up on `hex` (no hex is, without rail-bound
    /// units).
    fn rail_hex(&self, _sc: &Scenario, _hex: Hex) -> bool {
        false
    }

    // -----------------------------------------------------------------------------
    // Set-up and stacking (3.0, 5.3).

    /// Why unit `i` may not be placed on `hex` at set-up, beyond the system rules.
    fn check_placement(
        &self,
        _sc: &Scenario,
        _s: &State,
        _i: usize,
        _hex: Hex,
    ) -> Result<(), RuleError> {
        Ok(())
    }
    /// [`ExclusiveRules::check_placement`] for listing, with a cache kept across one
    /// listing.
    fn placement_listed(
        &self,
        sc: &Scenario,
        s: &State,
        i: usize,
        hex: Hex,
        _cache: &mut PlacementCache,
    ) -> bool {
        self.check_placement(sc, s, i, hex).is_ok()
    }
    /// Whether unit `i` may end a move, set up or retreat stacked with the friendly
    /// units in `hex` (5.3: never).
    fn may_stack(&self, _sc: &Scenario, _s: &State, _i: usize, _hex: Hex) -> bool {
        false
    }
    /// Whether a retreat may end stacked in a friendly hex with room (8.3: never; the
    /// hex counts as occupied).
    fn stacks_by_retreat(&self) -> bool {
        false
    }
    /// The rule stacking limits come from.
    fn stacking_rule(&self) -> &'static str {
        "5.3"
    }
    /// The rule by which a stack attacks as one unit.
    fn stack_attack_rule(&self) -> &'static str {
        "13.2"
    }

    // -----------------------------------------------------------------------------
    // Movement (5.0-5.5) and zones of control (6.0).

    /// The game's movement rules for unit `i` now, if it has any.
    fn movement(&self, _sc: &Scenario, _s: &State, _i: usize) -> Option<MovementRules> {
        None
    }
    /// MP added for crossing a hexside with features `side_mask`, even where a road
    /// would otherwise set the cost.
    fn hexside_extra(&self, _sc: &Scenario, _side_mask: u64) -> Mp {
        Mp::ZERO
    }
    /// MP added for a unit of `side` entering hex `to`.
    fn enter_extra(&self, _sc: &Scenario, _side: Side, _to: u16) -> Mp {
        Mp::ZERO
    }
    /// Why unit `i` may not move at all now, beyond the system rules.
    fn move_refusal(&self, _sc: &Scenario, _s: &State, _i: usize) -> Result<(), RuleError> {
        Ok(())
    }
    /// Why no unit may `what` ("movement", "attack") now (night turns).
    fn activity_refusal(&self, _sc: &Scenario, _s: &State, _what: &str) -> Result<(), RuleError> {
        Ok(())
    }
    /// The unit whose entry hexes unit `i` uses when it enters as a reinforcement.
    fn enters_as(&self, _sc: &Scenario, _s: &State, i: usize) -> usize {
        i
    }
    /// Entry hexes of a unit that is not a scheduled reinforcement.
    fn entry_hexes(&self, _sc: &Scenario, _i: usize) -> Vec<u16> {
        Vec::new()
    }
    /// The game's own moves besides normal movement (rail movement): destination and
    /// path.
    fn extra_moves(&self, _sc: &Scenario, _s: &State, _i: usize) -> Vec<(Hex, Vec<Hex>)> {
        Vec::new()
    }
    /// A move the system rules refused (`system_error`), tried as the game's own kind
    /// of move (Suez 1916 16.0 rail movement): emits its events, or gives the error to
    /// report (`system_error` when the path was not meant as such a move).
    fn other_move(
        &self,
        _ctx: &mut Ctx,
        _i: usize,
        _unit: &UnitId,
        _path: &[Hex],
        system_error: RuleError,
    ) -> Result<(), RuleError> {
        Err(system_error)
    }
    /// The end of the 5.2(c) message for an over-long path.
    fn path_bound_note(&self) -> &'static str {
        ""
    }
    /// Whether the ZOC map needs to know who holds each hex (ZOC blocked by occupancy).
    fn zoc_needs_holders(&self) -> bool {
        false
    }
    /// Whether a ZOC of `zoc_side` does not extend into hex `hex`.
    fn zoc_blocked_into(&self, _sc: &Scenario, _s: &State, _zoc_side: Side, _hex: u16) -> bool {
        false
    }
    /// Whether a ZOC of `zoc_side` does not cross a hexside with features `side_mask`
    /// into a hex held by `occupant`.
    fn zoc_blocked_across(
        &self,
        _sc: &Scenario,
        _zoc_side: Side,
        _side_mask: u64,
        _occupant: Option<Side>,
    ) -> bool {
        false
    }

    // -----------------------------------------------------------------------------
    // Combat (8.0-8.2.4).

    /// Whether in-hex terrain `t` of `hex` counts for a defender of `side` (8.2.2).
    fn terrain_counts(
        &self,
        _sc: &Scenario,
        _s: &State,
        _hex: u16,
        _t: usize,
        _side: Side,
    ) -> bool {
        true
    }
    /// Whether hexside feature `feature` of `hex` gives a defender of `defender` no line.
    fn hexside_line_denied(
        &self,
        _sc: &Scenario,
        _hex: u16,
        _feature: usize,
        _defender: Side,
    ) -> bool {
        false
    }
    /// A line the game forces on the combat in progress, whatever the terrain.
    fn forced_line(&self, _sc: &Scenario, _s: &State) -> Option<usize> {
        None
    }
    /// Columns an attack on `hex` is shifted (right positive).
    fn column_shift(&self, _sc: &Scenario, _s: &State, _hex: Hex) -> i8 {
        0
    }
    /// A defender's strength in `hex` from its printed defense.
    fn defense(&self, _sc: &Scenario, _hex: u16, printed: i32) -> i32 {
        printed
    }
    /// Whether a unit already attacked this phase may be attacked again (by other units).
    fn repeat_attacks(&self) -> bool {
        false
    }
    /// Why these attackers may not attack these defenders, beyond the system rules.
    fn check_attack(
        &self,
        _sc: &Scenario,
        _s: &State,
        _defenders: &[usize],
        _attackers: &[usize],
    ) -> Result<(), RuleError> {
        Ok(())
    }
    /// Why `hex` may not be attacked freely now.
    fn check_free_attack(&self, _sc: &Scenario, _s: &State, _hex: Hex) -> Result<(), RuleError> {
        Ok(())
    }
    /// Whether the attack's first formation is remembered for later attacks.
    fn records_attacking_formation(&self) -> bool {
        false
    }
    /// Offers the game's decision before the roll; true if one is now pending.
    fn before_roll(&self, _ctx: &mut Ctx) -> bool {
        false
    }
    /// Whether the owning players choose the units an Ex depletes (defender first).
    fn owners_choose_exchange(&self) -> bool {
        false
    }
    /// What follows the elimination of unit `i` from `hex`.
    fn after_elimination(&self, _ctx: &mut Ctx, _i: usize, _hex: Option<Hex>) {}
    /// Why a bombardment may not be declared, before the system's checks.
    fn bombard_refusal(&self, _sc: &Scenario, _s: &State) -> Option<RuleError> {
        None
    }
    /// Whether the game's artillery replaces the system bombardment and support fire
    /// bombardment listing.
    fn artillery_replaces_bombardment(&self) -> bool {
        false
    }

    // -----------------------------------------------------------------------------
    // Support fire (7.0-7.2).

    /// Whether the game replaces the 7.1 allotment altogether.
    fn replaces_allotment(&self) -> bool {
        false
    }
    /// Whether `side`'s allotment for `turn` is drawn at random (and so secret).
    fn random_allotment(&self, _sc: &Scenario, _turn: u16, _side: Side) -> bool {
        false
    }
    /// Whether `side` may not place support fire markers in the combat in progress.
    fn support_barred(&self, _sc: &Scenario, _s: &State, _side: Side) -> bool {
        false
    }

    // -----------------------------------------------------------------------------
    // Retreat and advance (8.3-8.5).

    /// Whether a German-style downgrade lets unit `i` retreat one hex instead of `hexes`.
    fn may_downgrade(&self, _sc: &Scenario, _s: &State, _i: usize, _hexes: u8) -> bool {
        false
    }
    /// Why stiff resistance is not open on this result.
    fn stiff_refusal(&self, _sc: &Scenario, _result: Option<CrtResult>) -> Result<(), RuleError> {
        Ok(())
    }
    /// The units that stay put when `unit` takes a step instead of the retreat of the
    /// units `struck` (`waiting` still to retreat); the system rule: itself alone.
    fn held_by_one_step(
        &self,
        _sc: &Scenario,
        _kind: CombatKind,
        _struck: &[UnitId],
        _waiting: &[UnitId],
        _unit: &UnitId,
    ) -> Result<Vec<UnitId>, RuleError> {
        Ok(Vec::new())
    }
    /// Whether a retreat on this result is followed by one step lost.
    fn retreat_costs_step(&self, _sc: &Scenario, _result: Option<CrtResult>) -> bool {
        false
    }
    /// The last path-of-retreat index unit `i` may advance to.
    fn advance_limit(&self, _sc: &Scenario, _i: usize) -> Option<usize> {
        None
    }

    // -----------------------------------------------------------------------------
    // Sequence of play (3.0, 4.0-4.1).

    /// At the start of play, after the first turn's start and allotment (default: as
    /// any turn start).
    fn on_play_start(&self, ctx: &mut Ctx) {
        self.on_turn_start(ctx)
    }
    /// At the start of each later game turn, after the allotment.
    fn on_turn_start(&self, _ctx: &mut Ctx) {}
    /// At the start of a phase.
    fn on_phase_start(&self, _ctx: &mut Ctx, _side: Side, _phase: Phase) {}
    /// When both players have finished their player turns, before the Game Turn End;
    /// true if the game ended.
    fn after_player_turns(&self, _ctx: &mut Ctx) -> bool {
        false
    }
    /// After every command's events: automatic effects.
    fn after_command(&self, _ctx: &mut Ctx) {}
    /// Starts the game's pending work in a combat phase; true if it started or ended
    /// something.
    fn continue_combat_phase(&self, _ctx: &mut Ctx) -> bool {
        false
    }
    /// `done` during the game's own placement step.
    fn fire_support_done(&self, _ctx: &mut Ctx) -> Result<(), RuleError> {
        refuse(
            "18.1",
            "fire support markers are placed this way only under the Suez 1916 rules",
        )
    }
    /// `done` in a phase: fires what the game placed to be fired then; false when there
    /// was nothing (the phase then ends at once).
    fn fire_artillery(&self, _ctx: &mut Ctx) -> bool {
        false
    }

    // -----------------------------------------------------------------------------
    // Commands of the games' own.

    /// Legal commands of the game's own in the current phase (`Pending::Phase`). Never
    /// a `place`, `move` or `advance`: in a movement phase those are the units' moves
    /// alone, which the factored listing of a unit's destinations relies on
    /// (`fm::factored`; `tests/factored.rs` checks it).
    fn phase_commands(&self, _sc: &Scenario, _s: &State) -> Vec<Command> {
        Vec::new()
    }
    /// How many commands [`ExclusiveRules::phase_commands`] lists, and (below) the
    /// `k`-th of them: a draw among all legal commands counts first and builds only
    /// the one drawn. A game whose list is long overrides both.
    fn phase_command_count(&self, sc: &Scenario, s: &State) -> usize {
        self.phase_commands(sc, s).len()
    }
    /// Whether [`ExclusiveRules::phase_commands`] lists anything ("can the side still
    /// act?" after every command); a game whose list is long answers without it.
    fn has_phase_commands(&self, sc: &Scenario, s: &State) -> bool {
        self.phase_command_count(sc, s) > 0
    }
    /// The `k`-th command of [`ExclusiveRules::phase_commands`] (`k` below
    /// [`ExclusiveRules::phase_command_count`]).
    fn phase_command(&self, sc: &Scenario, s: &State, k: usize) -> Option<Command> {
        let mut v = self.phase_commands(sc, s);
        (k < v.len()).then(|| v.swap_remove(k))
    }
    /// The flat action indices ([`crate::command_to_index`]) of
    /// [`ExclusiveRules::phase_commands`], in any order, added to `out`: the index
    /// listings (the flat one and the factored options) read them without building
    /// every command; a game whose list is long overrides it.
    fn phase_command_indices(&self, sc: &Scenario, s: &State, out: &mut Vec<usize>) {
        out.extend(
            self.phase_commands(sc, s)
                .iter()
                .filter_map(|c| crate::fm::encoding::command_to_index(sc, s, c)),
        );
    }
    /// Legal commands at the game's own placement step (`Pending::FireSupport`).
    fn fire_support_commands(&self, _sc: &Scenario, _s: &State, _side: Side) -> Vec<Command> {
        vec![Command::Done]
    }
    /// The units an artillery retreat decision moves, and the hexes they may enter.
    fn artillery_retreat_hexes(
        &self,
        _sc: &Scenario,
        _s: &State,
        _unit: &UnitId,
        _stacked: &[UnitId],
    ) -> Vec<Hex> {
        Vec::new()
    }
    /// `bombard` at the game's own placement step.
    fn place_fire_support(&self, _ctx: &mut Ctx, _hex: Hex, _markers: u8) -> Result<(), RuleError> {
        self.fire_support_done(_ctx)
    }
    /// `air_unit`.
    fn air_unit(&self, ctx: &mut Ctx, _hex: Hex, _observe: bool) -> Result<(), RuleError> {
        self.fire_support_done(ctx)
    }
    /// `attack` at the game's own placement step (an announcement).
    fn announce_attack(
        &self,
        ctx: &mut Ctx,
        _hex: Hex,
        _units: &[UnitId],
    ) -> Result<(), RuleError> {
        self.fire_support_done(ctx)
    }
    /// The side the air unit belongs to.
    fn air_unit_side(&self) -> Side {
        Side::A
    }
    /// `kress`.
    fn kress(&self, _ctx: &mut Ctx, _hex: Hex) -> Result<(), RuleError> {
        refuse("13.1", "Kress exists only under the Suez 1916 rules")
    }
    /// `lost_battalion`.
    fn lost_battalion(&self, _ctx: &mut Ctx, _declare: bool) -> Result<(), RuleError> {
        refuse(
            "18.1",
            "the Lost Battalion may be declared only after an Allied attack on a woods hex, before the roll",
        )
    }
    /// `replace`.
    fn replace(
        &self,
        _ctx: &mut Ctx,
        _unit: &UnitId,
        _hex: Hex,
        full: bool,
    ) -> Result<(), RuleError> {
        if full {
            return refuse(
                "11.3",
                "replacements arrive at the strength the rules fix (no `full` choice)",
            );
        }
        refuse(
            "11.3",
            "replacement exists only under the Meuse Argonne rules",
        )
    }
    /// `rebuild`.
    fn rebuild(&self, _ctx: &mut Ctx, _units: &[UnitId]) -> Result<(), RuleError> {
        refuse(
            "11.3",
            "rebuilding exists only under the Meuse Argonne rules",
        )
    }
    /// `break_down`.
    fn break_down(&self, _ctx: &mut Ctx, _unit: &UnitId) -> Result<(), RuleError> {
        refuse(
            "13.2",
            "brigade breakdown exists only under the Meuse Argonne rules",
        )
    }
    /// `place_aircraft`.
    fn place_aircraft(&self, _ctx: &mut Ctx, _hex: Hex) -> Result<(), RuleError> {
        refuse(
            "17.3",
            "aircraft exist only under the Meuse Argonne and Vimy Ridge rules",
        )
    }
    /// `artillery`.
    fn artillery(
        &self,
        _ctx: &mut Ctx,
        _hex: Hex,
        _markers: u8,
        _gas: bool,
    ) -> Result<(), RuleError> {
        refuse(
            "17.1",
            "artillery bombardment exists only under the Meuse Argonne and Vimy Ridge rules",
        )
    }
    /// `retreat` at an artillery retreat decision.
    fn artillery_retreat(
        &self,
        _ctx: &mut Ctx,
        _unit: &UnitId,
        _path: &[Hex],
    ) -> Result<(), RuleError> {
        refuse("17.5", "no artillery retreat is pending")
    }
    /// `stiff_resistance` at an artillery retreat decision: take the hits.
    fn accept_hits(&self, _ctx: &mut Ctx, _unit: &UnitId) -> Result<(), RuleError> {
        refuse("17.5", "no artillery retreat is pending")
    }

    // -----------------------------------------------------------------------------
    // Victory.

    /// An instant win after `events`.
    fn instant(&self, _sc: &Scenario, _s: &State, _events: &[Event]) -> Option<(Side, String)> {
        None
    }
    /// The result at the end of the last turn, replacing the scenario's conditions.
    fn final_result(&self, _sc: &Scenario, _s: &State) -> Option<(Option<Side>, String)> {
        None
    }

    // -----------------------------------------------------------------------------
    // The length of a game (`crate::fm::length`): what the game's own rules add to the
    // bound the system rules give. Every default is the system rules' (nothing more,
    // and one attack on a unit a phase).

    /// The most commands and chance outcomes the game's own rules add to game turn
    /// `turn` (both player turns): its own decisions (artillery, replacements, …) and
    /// its own draws (its dice, its pools), beyond the system terms.
    fn turn_length(&self, _sc: &Scenario, _turn: u16) -> GameLength {
        GameLength::ZERO
    }
    /// The most commands and chance outcomes the game's own rules add once in a whole
    /// game, not turn by turn (a single replacement, draws from a reserve that is never
    /// refilled).
    fn game_length(&self, _sc: &Scenario) -> GameLength {
        GameLength::ZERO
    }
    /// The most attacks one unit may receive in one phase from units of `attacker`
    /// (8.0: one). A game that allows repeat attacks
    /// ([`ExclusiveRules::repeat_attacks`]) and says no more is bounded by its attackers:
    /// each attack needs a unit that has not attacked this phase.
    fn attacks_on_one_unit(&self, sc: &Scenario, attacker: Side) -> u64 {
        if self.repeat_attacks() {
            sc.units.iter().filter(|u| u.data.side == attacker).count() as u64
        } else {
            1
        }
    }

    // -----------------------------------------------------------------------------
    // The built-in AI (no rule: what its evaluation, `crate::fm::ai`, plays for).

    /// The hexes each side plays for: by default those of the scenario's victory
    /// conditions; a game whose exclusive rules score other places names them.
    fn objectives(&self, sc: &Scenario) -> Vec<crate::fm::ai::Objective> {
        crate::fm::ai::scenario_objectives(sc)
    }
}

/// The system rules alone (`"rules": "system"`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SystemRules;

impl ExclusiveRules for SystemRules {}
