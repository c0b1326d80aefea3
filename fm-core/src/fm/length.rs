//! The longest a game of a scenario can be ([`crate::Game::max_game_length`]): a bound
//! on the commands and on the chance outcomes of every game, whatever its commands and
//! its dice, proved term by term from the rules the engine implements. Each term below
//! names its rule; the engine enforces each (the mark, flag or count named beside it).
//!
//! - **Turn record and sequence of play (4.0, 4.1).** A game is the game turns of the
//!   track from the start point to the last (the Game Turn End Phase of the last turn
//!   ends it: `sequence::next_phase`), each one Support Fire Marker Phase and two
//!   player turns of the five phases (those the scenario does not skip). A phase ends
//!   with at most one `done` (a phase with nothing to do passes by itself). A start in
//!   the middle of a turn is counted as the whole turn.
//! - **Set-up (3.0).** One `place` per unit that sets up in a zone: a placed unit is on
//!   the map and never waits to be placed again. Set-up draws nothing.
//! - **Movement (5.1, 5.2, 5.5).** A unit moves at most once in a player turn: a move
//!   marks it moved (`UnitState::moved`), and only the next player turn clears the
//!   mark; a mobile unit that moved in the Movement Phase may not move in the Mobile
//!   Movement Phase. So at most one `move` per unit of the phasing side.
//! - **Support fire (7.1, 7.2).** A side receives the markers of the turn track's box
//!   (at most its whole mix) at the start of the game turn, and each commitment or
//!   bombardment draws one of them at random and spends it for the rest of the turn:
//!   at most the allotment of both sides in draws. A short allotment drawn at random
//!   (an exclusive rule, `ExclusiveRules::random_allotment`) is one more draw per
//!   marker.
//! - **Combat (8.0, 8.2, 8.2.1, 8.2.4).** A unit attacks at most once in a player turn:
//!   once in a phase (`UnitState::attacked`), and a unit that attacked in the Combat
//!   Phase not again in the Mobile Combat Phase (`attacked_this_turn`); every attack
//!   needs a unit that has not attacked, so a player turn has at most as many ground
//!   combats as the phasing side has units, and their attacking units are distinct. A
//!   unit is attacked at most once a phase (`UnitState::defended`; a game may allow
//!   more, `ExclusiveRules::attacks_on_one_unit`). Each combat is one `attack`, at
//!   most four commitment steps (8.2.1(b); a side has a step only while it holds a
//!   marker), one die (8.2.4) and what its result asks for.
//! - **Results: retreat, stiff resistance, advance, losses (8.2.4, 8.3, 8.4, 8.5).**
//!   Each `retreat` or `stiff_resistance` settles at least one of the units the result
//!   struck (defenders or attackers: at most the units of the combat); an advance
//!   after combat settles one of the attackers of that combat, and `done` ends it; the
//!   owner's choice of the unit that loses a step (Ex, (A), and the exclusive rules'
//!   defender's Ex and step after a long retreat) is at most two commands a combat.
//!   Displacement (8.3.1) is part of a retreat command.
//! - **Bombardment (8.0, 8.1).** Each bombardment spends one or two markers, so a game
//!   turn has at most the allotment of both sides in bombardments, each one command,
//!   one die and at most one loss choice ((A)); a unit is bombarded at most once a
//!   phase, so the retreats of one Bombardment Phase are at most the units of the
//!   other side. A game whose artillery replaces the system bombardment
//!   (`ExclusiveRules::artillery_replaces_bombardment`) has none.
//! - **Exclusive rules.** Each game adds its own decisions and draws through
//!   `ExclusiveRules::turn_length` (per game turn) and
//!   `ExclusiveRules::game_length` (once a game), each term with its rule in the
//!   game's module; the system rules add nothing.
//!
//! The bound is a sum of these terms, so it is a true upper bound (every game of the
//! built-in scenarios stays within it: `tests/length.rs`), and a loose one: a random
//! game is a small fraction of it (the table of docs/learning.md, "Length of a game").

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::{Phase, Scenario, StartData};
use crate::ids::Side;
use crate::query::GameLength;

/// The longest game of `sc`: [`setup`], every game turn from the start point to the
/// last ([`game_turn`]), and what the game's exclusive rules add once ([`once`]).
///
/// ```
/// use fm_core::{fm::length, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let bound = length::max_game_length(&sc);
/// let turns: fm_core::GameLength = (1..=sc.turn_count()).map(|t| length::game_turn(&sc, t)).sum();
/// assert_eq!(bound, length::setup(&sc) + turns);
/// ```
pub fn max_game_length(sc: &Scenario) -> GameLength {
    let turns: GameLength = (sc.data.start.turn..=sc.turn_count())
        .map(|t| game_turn(sc, t))
        .sum();
    setup(sc) + turns + once(sc)
}

/// What the game's exclusive rules add once in a whole game
/// (`ExclusiveRules::game_length`; nothing under the system rules).
pub fn once(sc: &Scenario) -> GameLength {
    sc.rules().game_length(sc)
}

/// 3.0: the set-up, one `place` per unit that sets up in a zone, no draw.
pub fn setup(sc: &Scenario) -> GameLength {
    let zoned = sc
        .units
        .iter()
        .filter(|u| matches!(u.data.start, StartData::Zone(_)))
        .count();
    GameLength::commands(zoned as u64)
}

/// The units of `side` in the order of battle: everything a side can ever have on the
/// map (reinforcements, replacements and a game's extra chits are units of the order
/// of battle too).
pub fn units(sc: &Scenario, side: Side) -> u64 {
    sc.units.iter().filter(|u| u.data.side == side).count() as u64
}

/// 7.1: the support fire markers `side` receives at the start of game turn `turn`: the
/// number in the turn's box, at most its whole mix; none when the game replaces the
/// allotment (`ExclusiveRules::replaces_allotment`).
pub fn allotment(sc: &Scenario, turn: u16, side: Side) -> u64 {
    if sc.rules().replaces_allotment() {
        return 0;
    }
    let Some(t) = sc.data.turns.get((turn as usize).wrapping_sub(1)) else {
        return 0;
    };
    let mix = sc.data.support_markers.get(side).len();
    (*t.support.get(side) as usize).min(mix) as u64
}

/// 8.0: the most attacks one unit may receive in one phase from units of `attacker`:
/// one, unless the game's exclusive rules allow more
/// (`ExclusiveRules::attacks_on_one_unit`).
pub fn attacks_on_one_unit(sc: &Scenario, attacker: Side) -> u64 {
    sc.rules().attacks_on_one_unit(sc, attacker)
}

/// The phases of a player turn the scenario plays (4.1, without `skip_phases`).
fn played(sc: &Scenario, p: Phase) -> bool {
    !sc.data.skip_phases.contains(&p)
}

/// Game turn `turn` (4.1): the Support Fire Marker Phase (7.1, random allotments), the
/// markers drawn in the turn (7.2), the bombardments (8.1), both player turns
/// ([`player_turn`]) and the game's own terms (`ExclusiveRules::turn_length`).
pub fn game_turn(sc: &Scenario, turn: u16) -> GameLength {
    let rules = sc.rules();
    let mut l = GameLength::ZERO;
    let markers: u64 = Side::BOTH.iter().map(|s| allotment(sc, turn, *s)).sum();
    for side in Side::BOTH {
        // 7.1 (exclusive): a short allotment drawn marker by marker.
        if rules.random_allotment(sc, turn, side) {
            l += GameLength::chance(allotment(sc, turn, side));
        }
    }
    // 7.2: every commitment and bombardment draws one allotted marker.
    l += GameLength::chance(markers);
    if !rules.artillery_replaces_bombardment() && played(sc, Phase::Bombardment) {
        // 8.1: each bombardment spends at least one marker: its `bombard`, its loss
        // choice ((A), 8.1.3) and its die.
        l += GameLength::new(2, 1) * markers;
        // 8.0, 8.3: a unit is bombarded once a phase, so one Bombardment Phase has at
        // most the other side's units in retreat commands.
        l += GameLength::commands(units(sc, Side::A) + units(sc, Side::B));
    }
    for side in Side::BOTH {
        l += player_turn(sc, turn, side);
    }
    l + rules.turn_length(sc, turn)
}

/// 8.2.1(b): the commitment steps of one ground combat in game turn `turn`: the
/// attacker's two and the defender's two, each side's only when it holds a marker
/// (`support_fire::next_step` passes the steps of a side without one), so none for a
/// side allotted none this turn.
pub fn commitment_steps(sc: &Scenario, turn: u16) -> u64 {
    Side::BOTH
        .iter()
        .map(|s| if allotment(sc, turn, *s) > 0 { 2 } else { 0 })
        .sum()
}

/// One ground combat, without its units' retreats and advances (which [`player_turn`]
/// counts by unit): its `attack` (8.2.1(a)), its commitment steps
/// ([`commitment_steps`]), at most two loss choices (8.2.4 Ex and (A); an exclusive
/// rule's defender's Ex or step after a long retreat), and its die (8.2.4).
pub fn ground_combat(sc: &Scenario, turn: u16) -> GameLength {
    GameLength::new(1 + commitment_steps(sc, turn) + 2, 1)
}

/// The player turn of `side` in game turn `turn` (4.1): a `done` for each phase
/// played, a move for each of its units (5.2, 5.5), and, when a combat phase is
/// played, a ground combat for each of its units ([`ground_combat`], 8.2), whose
/// attackers are distinct (each retreats or advances at most once, 8.3, 8.5) and whose
/// defenders are the other side's units, each attacked at most
/// `ExclusiveRules::attacks_on_one_unit` times a combat phase (8.0).
pub fn player_turn(sc: &Scenario, turn: u16, side: Side) -> GameLength {
    let own = units(sc, side);
    let other = units(sc, side.other());
    let phases = Phase::PLAYER_TURN
        .iter()
        .filter(|p| played(sc, **p))
        .count() as u64;
    let combat_phases = [Phase::Combat, Phase::MobileCombat]
        .iter()
        .filter(|p| played(sc, **p))
        .count() as u64;
    let moves = if played(sc, Phase::Movement) || played(sc, Phase::MobileMovement) {
        own
    } else {
        0
    };
    let mut l = GameLength::commands(phases + moves);
    if combat_phases > 0 {
        l += ground_combat(sc, turn) * own;
        // 8.3, 8.5: each attacker retreats or advances once; 8.3, 8.4: each defender
        // retreats or resists once an attack on it.
        let defences = other.saturating_mul(attacks_on_one_unit(sc, side));
        l += GameLength::commands(own + defences.saturating_mul(combat_phases));
    }
    l
}
