//! The manoeuvre order. Page 17 lists it among the orders and page 21 says what needs
//! it ("No change of facing is permitted for infantry or cavalry: this requires a
//! manoeuvre order"); what a manoeuvre allows is on the missing pages. So the player
//! (or umpire) states the unit's new position and facing as the outcome, formation
//! kept, and the engine holds it to the limits the text does give:
//!
//! * only a unit of a successful manoeuvre order, once (pages 18, 20);
//! * squares cannot move (pages 20, 22); reserve artillery that fired cannot move
//!   (page 3: left out of the order);
//! * it never makes contact with an enemy in the open (page 19: the advance is the only
//!   order that can) and never breaks contact (as no order may: pages 19, 20, 22);
//! * it neither enters nor leaves dense terrain (page 19: that needs a deploy order);
//! * it stays on the table; friends it ends overlapping are disordered (page 20).
//!
//! Ruling R-HZ-17c. STAND-IN (a scenario with `"missing_rules": "stand_in"`, docs/huzzah.md): in
//! addition, no corner of the unit's footprint moves further than the group's move.
//! With `"decide"` the players answer for that limit themselves.

use crate::error::{refuse, RuleError};
use crate::huzzah::engine::Ctx;
use crate::huzzah::event::Event;
use crate::huzzah::geometry::{self, Facing, Len, Point, Shape};
use crate::huzzah::movement::{
    dense_polygons, enemies_on_table, move_to, off_table, on_order, touches_any,
};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::scenario::{MissingRules, Scenario, UnitIx};
use crate::huzzah::state::State;

/// The furthest any corner of the footprint moves from `a` to `b` (same formation).
pub fn corner_travel(a: &Shape, b: &Shape) -> Len {
    a.footprint_corners()
        .iter()
        .zip(b.footprint_corners())
        .map(|(p, q)| geometry::dist(*p, q))
        .max()
        .unwrap_or(Len::ZERO)
}

/// The unit's shape turned `deg` degrees clockwise about its centre.
pub fn turned_in_place(shape: &Shape, deg: i32) -> Shape {
    let c = shape.centre();
    let t = shape.with_facing(Facing::new(i32::from(shape.facing.0) + deg));
    let now = t.centre();
    t.with_anchor(Point::new(
        Len(t.anchor.x.0 + c.x.0 - now.x.0),
        Len(t.anchor.y.0 + c.y.0 - now.y.0),
    ))
}

/// Checks a manoeuvre to `end` (the unit's formation at a new anchor and facing).
///
/// # Errors
/// The rule it breaks (`"stand-in"` for the stand-in distance limit).
pub fn check_manoeuvre(sc: &Scenario, s: &State, u: UnitIx, end: &Shape) -> Result<(), RuleError> {
    let id = &sc.unit(u).id;
    let active = on_order(sc, s, u, OrderKind::Manoeuvre, "p17")?;
    let st = s.unit(u);
    if st.shape.square {
        return refuse("p22", format!("{id} is in square: squares cannot move"));
    }
    if st.sector.is_some() {
        return refuse(
            "p19",
            format!("{id} is in dense terrain: leaving it needs a deploy order"),
        );
    }
    let enemies = enemies_on_table(sc, s, u);
    if let Some(e) = crate::huzzah::deploy::engaged_with(sc, s, u) {
        return refuse(
            "p19",
            format!(
                "{id} is engaged with {}: no order breaks contact",
                sc.unit(e).id
            ),
        );
    }
    if off_table(sc, end) {
        return refuse("p17", format!("{id} would leave the table"));
    }
    if let Some(e) = touches_any(s, end, &enemies) {
        return refuse(
            "p19",
            format!(
                "{id} would touch {}: only an advance makes contact with an enemy in the open",
                sc.unit(e).id
            ),
        );
    }
    if dense_polygons(sc)
        .iter()
        .any(|p| end.bases().iter().any(|q| p.intersects_quad(q)))
    {
        return refuse(
            "p19",
            format!("{id} would enter dense terrain: that needs a deploy order"),
        );
    }
    if sc.missing_rules() == MissingRules::StandIn {
        let travel = corner_travel(&st.shape, end);
        if travel > active.rate {
            return refuse(
                "stand-in",
                format!(
                    "stand-in manoeuvre: a corner of {id} would move {travel}, more than the group's move {}",
                    active.rate
                ),
            );
        }
    }
    Ok(())
}

/// Carries out a manoeuvre.
pub(crate) fn manoeuvre(ctx: &mut Ctx, u: UnitIx, end: Shape) {
    let travel = corner_travel(&ctx.s.unit(u).shape, &end);
    let why = match ctx.sc.missing_rules() {
        MissingRules::StandIn => {
            "stand-in manoeuvre (its rules are missing): new position and facing, no corner moving more than the group's move"
        }
        MissingRules::Decide => {
            "manoeuvre (its rules are missing): new position and facing as the player decided, within the written limits"
        }
    };
    move_to(ctx, u, end, travel, why);
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}
