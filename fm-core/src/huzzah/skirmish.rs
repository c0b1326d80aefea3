//! The two common phases at the start of each turn: skirmisher superiority (page 9) and
//! artillery effectiveness (page 10).
//!
//! Neither test is clamped (the text gives no limits for them); both keep the universal
//! rules of page 1 (11 and 12 always fail, a Huzzah! always succeeds). Rulings: "won
//! the previous superiority test" is winning the skirmisher war, "failed" is failing the
//! roll; a side wins when it alone succeeds, or both succeed and its margin (factor
//! minus total) is larger; equal margins give nobody superiority; a skirmish line of no
//! bases is never reinforced.

use crate::huzzah::engine::{m, Ctx};
use crate::huzzah::event::{Event, Modifier};
use crate::huzzah::scenario::{Ground, Scenario};
use crate::huzzah::state::State;
use crate::ids::Side;

/// The modifiers of `side`'s skirmisher superiority test this turn (page 9).
pub fn skirmish_modifiers(sc: &Scenario, s: &State, side: Side) -> Vec<Modifier> {
    let a = s.armies.get(side);
    let e = s.armies.get(side.other());
    let mut mods = Vec::new();
    if sc.conditions_on(s.turn.max(1)).1.is_foul() {
        mods.push(m("foul weather", -1));
    }
    if a.skirmish_passed == Some(false) {
        mods.push(m("failed previous superiority test", -1));
    }
    if a.skirmish_won {
        mods.push(m("won previous superiority test", 1));
    }
    if a.skirmish_line > 0 && a.skirmish_line >= 2 * e.skirmish_line {
        mods.push(m("skirmish line is reinforced", 1));
    }
    mods
}

/// Phase 1: both sides test; the larger margin wins; a Huzzah! permanently lowers the
/// enemy's Skirmish Factor.
pub(crate) fn superiority(ctx: &mut Ctx) {
    let first = ctx.s.player1.unwrap_or(Side::A);
    let order = [first, first.other()];
    let mods: Vec<Vec<Modifier>> = order
        .iter()
        .map(|s| skirmish_modifiers(ctx.sc, &ctx.s, *s))
        .collect();
    let mut results = Vec::new();
    for (side, mods) in order.into_iter().zip(mods) {
        let base = ctx.s.armies.get(side).skirmish_factor;
        crate::chance::roll_for(2, || {
            crate::chance::ChanceRoll::new("skirmish_superiority", "2d6").with("side", side)
        });
        let test = ctx.test(base, mods, false);
        results.push((side, test.clone()));
        ctx.emit(Event::SkirmishTested { side, test });
    }
    for (side, test) in &results {
        if test.dice.huzzah() {
            let to = ctx.s.armies.get(side.other()).skirmish_factor - 1;
            ctx.emit(Event::SkirmishFactorReduced {
                side: side.other(),
                to,
            });
        }
    }
    let margin = |t: &crate::huzzah::event::Test| t.factor as i32 - t.dice.total() as i32;
    let winner = match (&results[0], &results[1]) {
        ((a, ta), (_, tb)) if ta.passed && !tb.passed => Some(*a),
        ((_, ta), (b, tb)) if !ta.passed && tb.passed => Some(*b),
        ((a, ta), (b, tb)) if ta.passed && tb.passed => match margin(ta).cmp(&margin(tb)) {
            std::cmp::Ordering::Greater => Some(*a),
            std::cmp::Ordering::Less => Some(*b),
            std::cmp::Ordering::Equal => None,
        },
        _ => None,
    };
    ctx.emit(Event::SkirmisherWar { winner });
}

/// The modifiers of `side`'s artillery effectiveness test this turn (page 10).
pub fn artillery_modifiers(sc: &Scenario, s: &State, side: Side) -> Vec<Modifier> {
    let a = s.armies.get(side);
    let (ground, weather) = sc.conditions_on(s.turn.max(1));
    let mut mods = Vec::new();
    if a.artillery_passed == Some(false) {
        mods.push(m("failed previous test", -1));
    }
    if s.superiority == Some(side.other()) {
        mods.push(m("enemy has skirmisher superiority", -1));
    }
    if ground == Ground::Soft {
        mods.push(m("soft ground", -1));
    }
    if weather.is_foul() {
        mods.push(m("foul weather", -1));
    }
    if ground == Ground::Hard {
        mods.push(m("hard ground", 1));
    }
    if a.artillery_passed == Some(true) {
        mods.push(m("passed previous test", 1));
    }
    mods
}

/// Phase 2: each side tests once; a Huzzah! permanently lowers the enemy's Artillery
/// Factor, at most once against an army in a turn.
pub(crate) fn artillery(ctx: &mut Ctx) {
    let first = ctx.s.player1.unwrap_or(Side::A);
    let order = [first, first.other()];
    let mods: Vec<Vec<Modifier>> = order
        .iter()
        .map(|s| artillery_modifiers(ctx.sc, &ctx.s, *s))
        .collect();
    let mut huzzahs = Vec::new();
    for (side, mods) in order.into_iter().zip(mods) {
        let base = ctx.s.armies.get(side).artillery_factor;
        crate::chance::roll_for(2, || {
            crate::chance::ChanceRoll::new("artillery_effectiveness", "2d6").with("side", side)
        });
        let test = ctx.test(base, mods, false);
        if test.dice.huzzah() {
            huzzahs.push(side);
        }
        ctx.emit(Event::ArtilleryTested { side, test });
    }
    for side in huzzahs {
        let enemy = side.other();
        if !*ctx.s.artillery_huzzah_against.get(enemy) {
            let to = ctx.s.armies.get(enemy).artillery_factor - 1;
            ctx.emit(Event::ArtilleryFactorReduced { side: enemy, to });
        }
    }
}
