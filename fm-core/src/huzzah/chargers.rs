//! Fire at chargers (page 13, phases 5 and 11): an infantry or artillery unit that is
//! charged must fire at the unit charging it, at short range, at one charger of its
//! choice if several; units that began the turn in combat do not fire at each other. A
//! firer whose roll fails takes a morale test (it can only be disordered, or rout if
//! already disordered); chargers that are hit test as chargers (no force back).
//!
//! Rulings (docs/rulings.md, Huzzah): the compulsory fire needs no arc or line of sight
//! (the charger is in contact); the bases counted are those that see it, and "calculated
//! at short range" gives the short-range +1 whatever the measured range.

use crate::error::RuleError;
use crate::huzzah::engine::Ctx;
use crate::huzzah::event::Event;
use crate::huzzah::firing::{
    ensure_quality, on_table, resolve_targets, roll_fire, weapon_range, Step,
};
use crate::huzzah::geometry;
use crate::huzzah::morale::{failed, morale_modifiers};
use crate::huzzah::scenario::{Arm, Scenario, UnitIx};
use crate::huzzah::state::{Pending, State, Status};
use crate::ids::Side;

/// The enemy chargers in contact with `u` that it must fire at: units that advanced
/// into contact this turn, other than those it was in combat with as the turn began.
pub fn chargers_of(sc: &Scenario, s: &State, u: UnitIx) -> Vec<UnitIx> {
    let side = sc.unit(u).side;
    sc.unit_ixs(side.other())
        .filter(|c| {
            on_table(s, *c)
                && s.unit(*c).charger
                && geometry::in_contact(&s.unit(u).shape, &s.unit(*c).shape)
                && !s.began_in_combat(u, *c)
        })
        .collect()
}

/// Whether `u` must fire at chargers now: infantry or artillery, on the table, neither
/// routing nor in road column nor a charger itself, charged, not yet declared.
fn must_fire(sc: &Scenario, s: &State, u: UnitIx) -> bool {
    let st = s.unit(u);
    matches!(sc.unit(u).arm, Arm::Infantry | Arm::Artillery)
        && on_table(s, u)
        && st.status != Status::Routing
        && !st.column
        && !st.charger
        && weapon_range(sc, s, u).is_some()
        && !s.firing.declarations.iter().any(|d| d.unit == u)
        && !chargers_of(sc, s, u).is_empty()
}

/// Checks a charged unit's choice of target.
///
/// # Errors
/// Page 13's rule if `target` is not one of its chargers.
pub fn check_charger(sc: &Scenario, s: &State, u: UnitIx, target: UnitIx) -> Result<(), RuleError> {
    if chargers_of(sc, s, u).contains(&target) {
        Ok(())
    } else {
        Err(RuleError::new(
            "p13",
            format!(
                "{} must fire at one of the units charging it, and {} is not one",
                sc.unit(u).id,
                sc.unit(target).id
            ),
        ))
    }
}

pub(crate) fn declare(ctx: &mut Ctx, u: UnitIx, target: UnitIx) {
    let range = geometry::fire_range(&ctx.s.unit(u).shape, &ctx.s.unit(target).shape)
        .unwrap_or(geometry::Len::ZERO);
    ctx.emit(Event::FireDeclared {
        unit: ctx.sc.unit_id(u),
        target: ctx.sc.unit_id(target),
        range_mm: range,
        short: true,
        bases: None,
    });
}

/// One step of a Fire at Chargers phase (`side` fires).
pub(crate) fn step(ctx: &mut Ctx, side: Side) -> Step {
    let sc = ctx.sc;
    if !ctx.s.firing.resolving {
        let firers: Vec<UnitIx> = sc
            .unit_ixs(side)
            .filter(|u| must_fire(sc, &ctx.s, *u))
            .collect();
        for u in firers {
            let chargers = chargers_of(sc, &ctx.s, u);
            if chargers.len() == 1 {
                declare(ctx, u, chargers[0]);
            } else {
                return Step::Wait(Pending::FireAtCharger {
                    side,
                    unit: ctx.sc.unit_id(u),
                    chargers: ctx.sc.unit_ids(&chargers),
                });
            }
        }
        let decls: Vec<(UnitIx, UnitIx)> = ctx
            .s
            .firing
            .declarations
            .iter()
            .filter_map(|d| d.target.map(|t| (d.unit, t)))
            .collect();
        if decls.is_empty() {
            return Step::Done;
        }
        for (f, t) in decls {
            roll_fire(ctx, f, t, None, true);
        }
    }
    match resolve_targets(ctx) {
        Step::Done => {}
        other => return other,
    }
    // Firers whose roll failed test their morale: disorder only (no force back).
    while let Some(u) = ctx.s.firing.failed.first().copied() {
        if on_table(&ctx.s, u) {
            let q = ensure_quality(ctx, u);
            let ranks = ctx.s.unit(u).shape.ranks.clone();
            let mods = morale_modifiers(sc, &ctx.s, u, &ranks);
            crate::chance::roll_for(2, || {
                crate::chance::ChanceRoll::new("morale", "2d6").with("unit", sc.unit_id(u))
            });
            let test = ctx.test(q.morale_factor() as i8, mods, true);
            let (passed, huzzah) = (test.passed, test.dice.huzzah());
            ctx.emit(Event::MoraleTested {
                unit: ctx.sc.unit_id(u),
                test,
            });
            if passed && huzzah {
                crate::huzzah::morale::huzzah_bonus(ctx, u);
            } else if !passed {
                failed(ctx, u, 0, true);
            }
        }
        ctx.emit(Event::TargetResolved {
            unit: ctx.sc.unit_id(u),
        });
    }
    Step::Done
}
