//! The longest a Huzzah! battle can be ([`crate::Game::max_game_length`]): a bound on
//! the commands and on the chance outcomes (each die of 2D6 is one) of every battle,
//! term by term from the rules (pages of the v6.3 text, and the missing pages as the
//! engine asks or stands in for them), each enforced by the engine as noted.
//!
//! - **Turns (page 7).** The battle ends after the scenario's last turn
//!   (`engine::end_of_battle`). Each turn has the two common phases and, for each
//!   player, Firing, Orders and Movement, the other player's Fire at Chargers, Combat,
//!   Move Officers and Rally.
//! - **Set-up (pages 7-8).** Alternate set-up: one `place_unit` per unit, and each
//!   placement roll (2D6) places at least one unit (the low die, at least one, of the
//!   units left) before `end_placement`, so at most one roll and one `end_placement` a
//!   unit. Then one `place_officer` per officer. The roll-off for the first side
//!   re-rolls ties without end, but it is made when the match is created, from its
//!   seed: never a chance outcome.
//! - **Skirmisher superiority and artillery effectiveness (pages 9-10).** One test
//!   (2D6) a side in each, every turn.
//! - **Firing (pages 11-12).** Each unit of the phasing side declares a target or holds
//!   its fire once a phase (the declarations), and each declared fire is one test. Each
//!   target (one entry a unit) gets at most an officer's saving throw (page 15) and a
//!   morale test (page 14). A unit's quality is rolled the first time it matters (page
//!   4: 2D6, once more on a Huzzah!), once a game.
//! - **Removing bases (page 12).** Each `remove_base` removes one base, and no base
//!   ever comes back: at most the bases of the order of battle, in the whole battle.
//! - **Orders (pages 16-18).** An officer's orders to one group are a chain: each
//!   successive order takes −1, the modified Command Factor is at most the best
//!   officer's 10 (or the side's best, when successors are the stand-in's, one grade
//!   lower) plus the positive modifiers of page 17 ([`MAX_ORDER_BONUS`]), and an order
//!   passes without a Huzzah! only on a total of 3 or more. So the chain's orders pass
//!   without a Huzzah! while the penalty leaves a factor of 3; the next passes only on a
//!   Huzzah!, which allows one automatic order that closes the group; a failure ends
//!   the officer. A chain is at most factor + bonus orders ([`order_chain`]). A new
//!   chain needs a unit no order of the phase has named (page 16: no return to units
//!   ordered), and a unit one chain has named no other chain can, so there are at most
//!   as many chains as units and their units are distinct. Each order is one `order`,
//!   one test, at most one action of each of its units (each action marks the unit
//!   acted) and one `end_order`; a retire within one move of the enemy is followed by a
//!   Waver Test (page 21). The CinC appoints at most one successor for each lost
//!   officer (page 16), and `end_phase` ends the phase.
//! - **Fire at chargers (page 13).** Each charged unit fires once (its choice of
//!   charger, a command, when several charge it): one test; each charger it fires at a
//!   target (saving throw, morale test); each firer that fails a morale test.
//! - **Combat, Move Officers, Rally (the missing pages).** Under `"decide"`: one
//!   `melee_result` for each engaged pair, once a Combat phase; one `move_officer` for
//!   each officer and one `rally` for each unit, once a phase, and `end_phase`. Under
//!   `"stand_in"`: a test (2D6) for each side of each pair, and one for each unit that
//!   rallies.
//!
//! The sum is a true upper bound (`tests/length.rs` plays random battles against it) and
//! a loose one: the orders term, a chain of fourteen successive orders for every unit,
//! is far beyond any real battle.

use crate::huzzah::orders::MAX_ORDER_BONUS;
use crate::huzzah::scenario::{MissingRules, OfficerQuality, Scenario};
use crate::ids::Side;
use crate::query::GameLength;

/// The longest battle of `sc`: [`setup`], every turn ([`turn`]), and the base
/// removals and quality rolls of the whole battle ([`battle`]).
///
/// ```
/// use fm_core::huzzah::{length, scenario::Scenario};
/// let sc = Scenario::builtin("huzzah-firefight").unwrap();
/// let bound = length::max_game_length(&sc);
/// assert_eq!(bound, length::setup(&sc) + length::turn(&sc) * 6 + length::battle(&sc));
/// ```
pub fn max_game_length(sc: &Scenario) -> GameLength {
    setup(sc) + turn(sc) * u64::from(sc.turns()) + battle(sc)
}

/// The units of `side`.
pub fn units(sc: &Scenario, side: Side) -> u64 {
    sc.units_of(side).len() as u64
}

/// The officers of `side`, the CinC among them.
pub fn officers(sc: &Scenario, side: Side) -> u64 {
    sc.officers_of(side).len() as u64
}

/// Pages 7-8: the set-up. Alternate: a `place_unit` for each unit, at most one
/// placement roll (two dice) and one `end_placement` for each; then a `place_officer`
/// for each officer.
pub fn setup(sc: &Scenario) -> GameLength {
    let all_units = units(sc, Side::A) + units(sc, Side::B);
    let all_officers = officers(sc, Side::A) + officers(sc, Side::B);
    let placing = if sc.alternate_setup() {
        GameLength::new(2 * all_units, 2 * all_units)
    } else {
        GameLength::ZERO
    };
    placing + GameLength::commands(all_officers)
}

/// The best modified Command Factor an officer of `side` can have before the penalty
/// of successive orders (page 17): the best Command Factor (Excellent's 10, since
/// under `"decide"` the CinC may appoint a successor of any quality; under
/// `"stand_in"` successors are a grade below the officer they replace, so the side's
/// best) plus [`MAX_ORDER_BONUS`].
pub fn best_command_factor(sc: &Scenario, side: Side) -> u64 {
    let best = match sc.missing_rules() {
        MissingRules::Decide => OfficerQuality::Excellent.command_factor(),
        MissingRules::StandIn => sc
            .officers_of(side)
            .iter()
            .map(|o| o.quality.command_factor())
            .max()
            .unwrap_or(0),
    };
    u64::from(best) + MAX_ORDER_BONUS as u64
}

/// Pages 16-18: the most orders one officer gives one group in a phase. With `f` the
/// best modified factor ([`best_command_factor`]), the order after `k` successive
/// orders has a factor of at most `f − k` (held to 2..10); it passes without a Huzzah!
/// only on a total of 3 to its factor, so orders `0..=f−3` may all pass so, order
/// `f−2` passes only on a Huzzah!, and a Huzzah! allows one more, automatic, order
/// that ends the group's orders: `f` orders.
pub fn order_chain(sc: &Scenario, side: Side) -> u64 {
    best_command_factor(sc, side)
}

/// The Orders and Movement phase of `side` (pages 16-21): at most one chain of orders
/// for each unit ([`order_chain`] orders each), each order an `order`, its test (but
/// the automatic one a chain may end with), at most one action and one Waver Test for
/// each unit of the chain, and an `end_order`; the CinC's appointments (at most one
/// for each officer) and `end_phase`.
pub fn orders(sc: &Scenario, side: Side) -> GameLength {
    let u = units(sc, side);
    let chain = order_chain(sc, side);
    // Chains: one `order` and one `end_order` per order, for at most `u` chains; the
    // actions: the chains' units are distinct, so `u` actions per order index.
    let commands = chain * (2 * u + u) + officers(sc, side) + 1;
    // A test for each order but a chain's automatic one, a Waver Test for each action.
    let chance = 2 * chain.saturating_sub(1) * u + 2 * chain * u;
    GameLength::new(commands, chance)
}

/// The Firing phase of `side` (pages 11-12, 14-15): a declaration for each unit, a test
/// for each fire, a saving throw and a morale test for each target (the other side's
/// units).
pub fn firing(sc: &Scenario, side: Side) -> GameLength {
    let own = units(sc, side);
    let other = units(sc, side.other());
    GameLength::new(own, 2 * own + 4 * other)
}

/// The Fire at Chargers phase in which `firer` fires (page 13): a choice of charger for
/// each of its charged units (when several charge it), a test for each, a saving throw
/// and a morale test for each charger hit, a morale test for each firer that failed.
pub fn fire_at_chargers(sc: &Scenario, firer: Side) -> GameLength {
    let own = units(sc, firer);
    let chargers = units(sc, firer.other());
    GameLength::new(own, 2 * own + 4 * chargers + 2 * own)
}

/// The Combat, Move Officers and Rally phases of `side` (the missing pages): under
/// `"decide"` a `melee_result` for each engaged pair of units (each pair once a
/// phase), a `move_officer` for each officer and a `rally` for each unit, each phase
/// ended by `end_phase`; under `"stand_in"` two tests for each pair and a test for each
/// unit that may rally.
pub fn missing(sc: &Scenario, side: Side) -> GameLength {
    let pairs = units(sc, Side::A) * units(sc, Side::B);
    let own = units(sc, side);
    match sc.missing_rules() {
        MissingRules::Decide => GameLength::commands(pairs + officers(sc, side) + 1 + own + 1),
        MissingRules::StandIn => GameLength::chance(4 * pairs + 2 * own),
    }
}

/// One turn (page 7): skirmisher superiority and artillery effectiveness (a test a side
/// each), then each player's Firing, Orders, the other's Fire at Chargers, Combat, Move
/// Officers and Rally.
pub fn turn(sc: &Scenario) -> GameLength {
    let common = GameLength::chance(2 * 2 * 2);
    let halves: GameLength = Side::BOTH
        .iter()
        .map(|&s| firing(sc, s) + orders(sc, s) + fire_at_chargers(sc, s.other()) + missing(sc, s))
        .sum();
    common + halves
}

/// What the whole battle holds at most, not turn by turn: a `remove_base` for each base
/// of the order of battle (page 12), and each unit's quality roll, two dice twice at
/// most (page 4).
pub fn battle(sc: &Scenario) -> GameLength {
    let bases: usize = sc.units().iter().map(|u| u.bases.len()).sum();
    let all_units = units(sc, Side::A) + units(sc, Side::B);
    GameLength::new(bases as u64, 4 * all_units)
}
