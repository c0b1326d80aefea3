//! The Command Factor of an order (pages 16-19): the officer's factor, every modifier of
//! page 17, clamped to 2..10, and the exact chance the order succeeds
//! ([`order_odds`]). Issuing orders and moving units build on this.
//!
//! Rulings (docs/rulings.md, Huzzah): "advance on" a unit is having it ahead, within one
//! move, in the arc of the ordered unit; "out of range of the enemy" is every unit ordered
//! more than 80 cm (footprint to footprint) from every enemy unit on the table.

use crate::error::RuleError;
use crate::huzzah::engine::{m, modified};
use crate::huzzah::event::Modifier;
use crate::huzzah::firing::on_table;
use crate::huzzah::geometry::{self, Len};
use crate::huzzah::morale::within_one_move;
use crate::huzzah::odds::Chance;
use crate::huzzah::scenario::{Arm, OfficerIx, Scenario, UnitIx};
use crate::huzzah::state::{State, Status};
use serde::{Deserialize, Serialize};

/// The four orders (page 17).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderKind {
    /// Straight ahead up to the full move (page 19).
    Advance,
    /// Straight back up to half the move (page 20).
    Retire,
    /// Change formation (page 21).
    Deploy,
    /// Manoeuvre (its rules are on the missing pages).
    Manoeuvre,
}

impl OrderKind {
    /// Its name, as the JSON writes it (`"advance"`).
    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Advance => "advance",
            OrderKind::Retire => "retire",
            OrderKind::Deploy => "deploy",
            OrderKind::Manoeuvre => "manoeuvre",
        }
    }
}

/// The most the positive modifiers of page 17 can add to an officer's Command Factor,
/// all four at once: all units completely within the command radius, out of range of
/// the enemy, an officer attached, an inspirational officer ordering an advance (+1
/// each; [`command_modifiers`]). It bounds a chain of successive orders
/// (`huzzah::length`).
pub const MAX_ORDER_BONUS: i8 = 4;

/// The modifiers of an order by `officer` to `units` (page 17); `successive` is the
/// number of orders this officer has already given the same group this turn.
pub fn command_modifiers(
    sc: &Scenario,
    s: &State,
    officer: OfficerIx,
    units: &[UnitIx],
    kind: OrderKind,
    successive: u8,
) -> Vec<Modifier> {
    let side = sc.officer(officer).side;
    let enemies: Vec<UnitIx> = sc
        .unit_ixs(side.other())
        .filter(|e| on_table(s, *e))
        .collect();
    let mut mods = Vec::new();
    if successive > 0 {
        mods.push(m(
            "each successive order to the same command group or sub-command",
            -(successive.min(20) as i8),
        ));
    }
    // Page 18: "fired during the Firing phase" (fire at chargers does not count).
    if units.iter().any(|u| s.unit(*u).fired_at_enemy) {
        mods.push(m("a unit ordered fired at the enemy", -1));
    }
    if units
        .iter()
        .any(|u| s.unit(*u).status == Status::Disordered)
    {
        mods.push(m("a unit ordered is in disorder", -1));
    }
    if units.iter().any(|u| s.unit(*u).sector.is_some()) {
        mods.push(m("a unit ordered is in dense terrain", -1));
    }
    let formed = |e: &UnitIx| s.unit(*e).status == Status::Formed;
    if units.iter().any(|u| {
        enemies
            .iter()
            .filter(|e| formed(e))
            .any(|e| within_one_move(sc, s, *u, *e))
    }) {
        mods.push(m("units ordered within one move of a formed enemy", -1));
    }
    if units.iter().any(|u| {
        sc.unit(*u).flags.hesitant && enemies.iter().any(|e| within_one_move(sc, s, *u, *e))
    }) {
        mods.push(m("hesitant troops within one move of any enemy", -1));
    }
    if kind == OrderKind::Advance {
        let ahead = |u: &UnitIx, e: &UnitIx| {
            geometry::in_arc(&s.unit(*u).shape, &s.unit(*e).shape) && within_one_move(sc, s, *u, *e)
        };
        if units.iter().any(|u| {
            enemies
                .iter()
                .any(|e| sc.unit(*e).flags.renowned && ahead(u, e))
        }) {
            mods.push(m("a unit ordered to advance on a renowned unit", -1));
        }
        if units.iter().any(|u| {
            sc.unit(*u).arm == Arm::Infantry
                && enemies
                    .iter()
                    .any(|e| sc.unit(*e).arm == Arm::Cavalry && ahead(u, e))
        }) {
            mods.push(m(
                "infantry ordered to advance on cavalry within one move",
                -2,
            ));
        }
    }
    if let Some(at) = s.officers[officer.index()].at {
        let r = s.officer_quality(sc, officer.index()).radius();
        if !units.is_empty()
            && units
                .iter()
                .all(|u| geometry::all_within_radius(at, r, &s.unit(*u).shape))
        {
            mods.push(m(
                "all units ordered completely within the command radius",
                1,
            ));
        }
    }
    let out_of_range = units.iter().all(|u| {
        enemies
            .iter()
            .all(|e| !geometry::within(&s.unit(*u).shape, &s.unit(*e).shape, Len::cm(80)))
    });
    if !units.is_empty() && out_of_range {
        mods.push(m("out of range of the enemy", 1));
    }
    if units
        .iter()
        .any(|u| s.attached_officer(*u) == Some(officer.index()))
    {
        mods.push(m("an officer is attached", 1));
    }
    if kind == OrderKind::Advance && s.officer_inspirational(sc, officer.index()) {
        mods.push(m("inspirational officer ordering an advance", 1));
    }
    mods
}

/// The odds of an order (page 18): the modified Command Factor and the exact chance of
/// success (11-12 always fail, a Huzzah! always succeeds).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct OrderOdds {
    /// The officer's Command Factor.
    pub base: i8,
    /// The modifiers.
    pub modifiers: Vec<Modifier>,
    /// The modified factor, 2 to 10.
    pub factor: i8,
    /// The chance the order succeeds.
    pub pass: Chance,
}

/// The exact odds of an order by `officer` to `units`.
///
/// # Errors
/// `"input"` if the officer is lost or unplaced, or a unit is not on the table or not of
/// his side.
pub fn order_odds(
    sc: &Scenario,
    s: &State,
    officer: OfficerIx,
    units: &[UnitIx],
    kind: OrderKind,
    successive: u8,
) -> Result<OrderOdds, RuleError> {
    let def = sc.officer(officer);
    let st = &s.officers[officer.index()];
    if st.lost || st.at.is_none() {
        return Err(RuleError::new(
            "input",
            format!("officer {} is not on the table", def.id),
        ));
    }
    if let Some(u) = units
        .iter()
        .find(|u| sc.unit(**u).side != def.side || !on_table(s, **u))
    {
        return Err(RuleError::new(
            "input",
            format!(
                "{} is not a unit of {}'s side on the table",
                sc.unit(*u).id,
                def.id
            ),
        ));
    }
    let base = s.officer_quality(sc, officer.index()).command_factor() as i8;
    let modifiers = command_modifiers(sc, s, officer, units, kind, successive);
    let factor = modified(base, &modifiers, true);
    let pass = u64::from(crate::huzzah::quality::pass_count(i32::from(factor)));
    Ok(OrderOdds {
        base,
        modifiers,
        factor,
        pass: Chance::new(pass, 36),
    })
}
