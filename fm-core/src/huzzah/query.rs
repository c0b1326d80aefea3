//! Huzzah!'s answers to the match layer's queries (`crate::query`, reached through
//! [`crate::Game`] by every binding): the table picture from JSON options, the exact
//! odds of a fire or a morale test ([`super::odds`]) and the learning observation
//! ([`super::observation`]). Huzzah! has no `reachable` (a unit moves on an open
//! table, not between hexes): that stays the trait's `Unsupported` default.

use crate::error::RuleError;
use crate::game::MatchError;
use crate::huzzah::command::GroupArg;
use crate::huzzah::movement::{automatic, group_units, successive};
use crate::huzzah::odds::{fire_odds_with, morale_odds, Chance};
use crate::huzzah::orders::{order_odds, OrderKind};
use crate::huzzah::render::RenderOptions;
use crate::huzzah::scenario::{Scenario, UnitIx};
use crate::huzzah::state::{Pending, State};
use crate::ids::Side;
use crate::query::{strict_from_value, ObservationSpec};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `kind` of a pending decision, as its JSON names it.
pub(crate) fn pending_kind(p: &Pending) -> &'static str {
    match p {
        Pending::PlaceUnits { .. } => "place_units",
        Pending::PlaceOfficer { .. } => "place_officer",
        Pending::DeclareFire { .. } => "declare_fire",
        Pending::RemoveBase { .. } => "remove_base",
        Pending::FireAtCharger { .. } => "fire_at_charger",
        Pending::Orders { .. } => "orders",
        Pending::Act { .. } => "act",
        Pending::Melee { .. } => "melee",
        Pending::Rally { .. } => "rally",
        Pending::MoveOfficers { .. } => "move_officers",
        Pending::Opening => "opening",
        Pending::GameOver { .. } => "game_over",
    }
}

/// What to ask the odds of (`Game::odds`; JSON `{"fire": {"unit", "target"}}`, with
/// `"bases"` for a fire by some of the unit's bases, `{"morale": {"unit"}}`, or
/// `{"order": {"officer", "group", "order"}}`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OddsRequest {
    /// `unit`'s fire at `target` now ([`fire_odds_with`], pages 11-12).
    Fire {
        /// The firing unit's id.
        unit: String,
        /// The target's id.
        target: String,
        /// Page 12: only these bases fire (indices rank by rank from the front, left to
        /// right); absent, the whole unit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bases: Option<Vec<u8>>,
    },
    /// A morale test `unit` would take now ([`morale_odds`], page 14).
    Morale {
        /// The unit's id.
        unit: String,
    },
    /// The roll of `officer`'s order to `group` now, as `Command::Order` would make it
    /// ([`order_odds`], pages 16-17): the units an order would move, the successive
    /// orders so far; an order a roll of Huzzah! made automatic passes for certain
    /// (`"automatic": true`).
    Order {
        /// The officer's id.
        officer: String,
        /// The group.
        group: GroupArg,
        /// The order.
        order: OrderKind,
    },
}

fn unit_ix(sc: &Scenario, id: &str) -> Result<UnitIx, MatchError> {
    sc.unit_index(id)
        .ok_or_else(|| MatchError::Rule(RuleError::new("input", format!("unknown unit '{id}'"))))
}

/// The exact odds of a fire or a morale test, from `side`'s view (Huzzah! hides
/// nothing: every side's view is the whole state, so the answer is the same for both).
pub(crate) fn odds(
    sc: &Scenario,
    s: &State,
    side: Side,
    request: &Value,
) -> Result<Value, MatchError> {
    let r: OddsRequest = strict_from_value(request, "odds JSON")?;
    let v = <crate::huzzah::Huzzah as crate::game::Game>::view(sc, s, side);
    let out = match r {
        OddsRequest::Fire {
            unit,
            target,
            bases,
        } => {
            let (u, t) = (unit_ix(sc, &unit)?, unit_ix(sc, &target)?);
            serde_json::to_value(fire_odds_with(sc, &v, u, t, bases.as_deref())?)
        }
        OddsRequest::Morale { unit } => {
            serde_json::to_value(morale_odds(sc, &v, unit_ix(sc, &unit)?))
        }
        OddsRequest::Order {
            officer,
            group,
            order,
        } => return order_roll(sc, &v, &officer, &group, order),
    };
    Ok(out.expect("odds serialize"))
}

/// The odds of an order's roll ([`OddsRequest::Order`]).
fn order_roll(
    sc: &Scenario,
    s: &State,
    officer: &str,
    group: &GroupArg,
    kind: OrderKind,
) -> Result<Value, MatchError> {
    let input = |m: String| MatchError::Rule(RuleError::new("input", m));
    let o = sc
        .officer_index(officer)
        .ok_or_else(|| input(format!("unknown officer '{officer}'")))?;
    let g = sc
        .group_of(group)
        .ok_or_else(|| input(format!("unknown group {}", serde_json::json!(group))))?;
    let units = group_units(sc, s, o, g);
    if units.is_empty() {
        return Err(input(format!(
            "no unit of the group {} can act on an order by {officer} now",
            serde_json::json!(group)
        )));
    }
    let mut odds = order_odds(sc, s, o, &units, kind, successive(s, o, g))?;
    let automatic = automatic(s, o, g);
    if automatic {
        odds.pass = Chance::new(1, 1);
    }
    let mut v = serde_json::to_value(odds).expect("odds serialize");
    v["automatic"] = Value::Bool(automatic);
    Ok(v)
}

/// The table as SVG: of `side`'s view (the whole state: Huzzah! hides nothing), or of
/// the state.
pub(crate) fn svg(
    sc: &Scenario,
    s: &State,
    side: Option<Side>,
    options: &Value,
) -> Result<String, MatchError> {
    let opts = RenderOptions::from_json(sc, options).map_err(|e| MatchError::Input(e.message))?;
    let render = crate::huzzah::render::render_svg;
    Ok(match side {
        Some(side) => render(
            sc,
            &<crate::huzzah::Huzzah as crate::game::Game>::view(sc, s, side),
            &opts,
        ),
        None => render(sc, s, &opts),
    })
}

/// The observation's layout for a scenario ([`super::observation::spec`]).
pub(crate) fn observation_spec(sc: &Scenario) -> ObservationSpec {
    crate::huzzah::observation::spec(sc)
}

/// Writes `side`'s observation (planes, then features) into `out`, from its view alone.
pub(crate) fn observation(sc: &Scenario, s: &State, side: Side, out: &mut [f32]) {
    let v = <crate::huzzah::Huzzah as crate::game::Game>::view(sc, s, side);
    crate::huzzah::observation::write(sc, &v, side, out);
}
