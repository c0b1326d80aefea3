//! Support fire markers (rules 7.0-7.2 and the commitment sequence of 8.2.1(b)).
//!
//! Each game turn every marker returns to its side's pool and the side is allotted the
//! number printed on the turn track, lowest values first (7.1). Committing a marker
//! draws one at random from the side's allotment and places it face down (7.2); the
//! value is hidden from the opponent until 8.2.1(b)'s reveal.

use crate::error::{refuse, RuleError};
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::Scenario;
use crate::fm::state::{CombatStage, State};
use crate::ids::Side;

/// The first commitment step at or after `from` whose side still has a marker to
/// place and may place it (Vimy Ridge 18.2: no Allied support fire in La Folie Woods);
/// 4 when none does (the markers are then revealed).
pub fn next_step(sc: &Scenario, s: &State, from: u8) -> u8 {
    (from..4)
        .find(|step| {
            let side = if step % 2 == 0 {
                s.active
            } else {
                s.active.other()
            };
            !s.support.get(side).available.is_empty() && !sc.rules().support_barred(sc, s, side)
        })
        .unwrap_or(4)
}

/// 7.1: allot each side its markers for the turn that has just started.
pub(crate) fn allot(ctx: &mut Ctx) {
    let sc = ctx.sc;
    // Exclusive rules may replace the allotment (Suez 1916 18.0: daily pools).
    if sc.rules().replaces_allotment() {
        return;
    }
    let turn = &sc.data.turns[(ctx.s.turn - 1) as usize];
    for side in Side::BOTH {
        let mut pool = sc.data.support_markers.get(side).clone();
        pool.sort_unstable();
        let n = (*turn.support.get(side) as usize).min(pool.len());
        if sc.rules().random_allotment(sc, ctx.s.turn, side) {
            // Vimy Ridge 16.0: a short allotment is drawn at random, not lowest first.
            let mut drawn = Vec::with_capacity(n);
            for _ in 0..n {
                crate::chance::roll_for(1, || {
                    crate::chance::ChanceRoll::new("marker_allotment", "draw")
                        .with("side", side)
                        .with("from", &pool)
                });
                let k = ctx.roll_index(pool.len());
                drawn.push(pool.remove(k));
            }
            drawn.sort_unstable();
            pool = drawn;
        }
        pool.truncate(n);
        ctx.emit(Event::SupportAllotted {
            side,
            count: n as u8,
            values: Some(pool),
        });
    }
}

/// Draws one marker uniformly at random from `side`'s allotment.
pub(crate) fn draw(ctx: &mut Ctx, side: Side) -> u8 {
    let avail = &ctx.s.support.get(side).available;
    crate::chance::roll_for(1, || {
        crate::chance::ChanceRoll::new("marker_draw", "draw")
            .with("side", side)
            .with("from", avail)
    });
    let k = ctx.roll_index(avail.len());
    ctx.s.support.get(side).available[k]
}

/// 8.2.1(b): the deciding side commits a marker or passes at the current step.
pub(crate) fn decide(ctx: &mut Ctx, commit: bool) -> Result<(), RuleError> {
    let Some(c) = &ctx.s.combat else {
        return refuse("8.2.1(b)", "no combat is waiting for support fire");
    };
    let CombatStage::Support { step } = c.stage else {
        return refuse(
            "8.2.1(b)",
            "support fire markers are placed only before the die roll",
        );
    };
    if step >= 4 {
        return refuse("8.2.1(b)", "all commitment steps are over");
    }
    let side = if step % 2 == 0 {
        ctx.s.active
    } else {
        ctx.s.active.other()
    };
    if commit {
        if ctx.sc.rules().support_barred(ctx.sc, &ctx.s, side) {
            return refuse(
                "18.2",
                format!("no Allied support fire in La Folie Woods ({})", c.hex),
            );
        }
        if ctx.s.support.get(side).available.is_empty() {
            return refuse("7.2", "no support fire markers left this game turn");
        }
        let v = draw(ctx, side);
        ctx.emit(Event::SupportCommitted {
            side,
            step: Some(step),
            value: Some(v),
        });
    } else {
        ctx.emit(Event::SupportPassed { side, step });
    }
    Ok(())
}
