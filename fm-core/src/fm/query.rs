//! Fire & Movement's answers to the match layer's queries (`crate::query`, reached
//! through [`crate::Game`] by every binding): the board picture from JSON options, a
//! unit's reachable hexes, the odds of a proposed attack as the asking side knows them,
//! and the learning observation, each from the functions of its own module
//! ([`super::render`], [`super::movement`], [`super::odds`], [`super::observation`]).

use crate::error::RuleError;
use crate::fm::odds::AttackProposal;
use crate::fm::render::RenderOptions;
use crate::fm::scenario::Scenario;
use crate::fm::state::{Pending, State};
use crate::fm::view::view;
use crate::game::MatchError;
use crate::ids::{Side, UnitId, Viewer};
use crate::query::strict_from_value;
use crate::query::ObservationSpec;
use serde_json::Value;

/// The `kind` of a pending decision, as its JSON names it.
pub(crate) fn pending_kind(p: &Pending) -> &'static str {
    match p {
        Pending::Setup { .. } => "setup",
        Pending::Phase { .. } => "phase",
        Pending::SupportFire { .. } => "support_fire",
        Pending::ChooseLoss { .. } => "choose_loss",
        Pending::Retreat { .. } => "retreat",
        Pending::LostBattalion { .. } => "lost_battalion",
        Pending::ArtilleryRetreat { .. } => "artillery_retreat",
        Pending::FireSupport { .. } => "fire_support",
        Pending::Advance { .. } => "advance",
        Pending::GameOver { .. } => "game_over",
    }
}

/// The board as SVG: of `viewer`'s view (a side's or a spectator's), or of the whole
/// state.
pub(crate) fn svg(
    sc: &Scenario,
    s: &State,
    viewer: Option<Viewer>,
    options: &Value,
) -> Result<String, MatchError> {
    let opts = RenderOptions::from_json(sc, options).map_err(|e| MatchError::Input(e.message))?;
    Ok(match viewer {
        Some(viewer) => crate::fm::render::render_svg(sc, &view(sc, s, viewer), &opts),
        None => crate::fm::render::render_svg(sc, s, &opts),
    })
}

/// The rule error of a query naming a unit the scenario does not have (the same rule
/// and message as a command naming it).
fn unknown_unit(unit: &str) -> MatchError {
    MatchError::Rule(RuleError::new("input", format!("unknown unit '{unit}'")))
}

/// Where `unit` can move in the current movement phase (`crate::reachable`).
pub(crate) fn reachable(sc: &Scenario, s: &State, unit: &str) -> Result<Value, MatchError> {
    let id = UnitId::new(unit);
    if sc.unit_index(&id).is_none() {
        return Err(unknown_unit(unit));
    }
    Ok(serde_json::to_value(crate::fm::movement::reachable(sc, s, &id)).expect("serializes"))
}

/// The odds of an attack (`{"hex", "units", "attacker_markers", "defender_markers"}`,
/// `units` empty or absent for a bombardment) as `side` knows them
/// (`crate::combat_odds`, which reads only what that side may know).
pub(crate) fn odds(
    sc: &Scenario,
    s: &State,
    side: Side,
    proposal: &Value,
) -> Result<Value, MatchError> {
    let p: AttackProposal = strict_from_value(proposal, "odds JSON")?;
    let o = crate::fm::odds::combat_odds(sc, s, side, &p)?;
    Ok(serde_json::to_value(o).expect("serializes"))
}

/// The observation's layout for a scenario.
pub(crate) fn observation_spec(sc: &Scenario) -> ObservationSpec {
    let m = crate::fm::observation::Meta::new(sc);
    ObservationSpec {
        shape: [m.channels, m.rows, m.cols],
        channels: m.channel_names,
        features: crate::fm::observation::feature_names(),
    }
}

/// Writes `side`'s observation (board planes, then features) into `out`, whose length
/// is the spec's size.
pub(crate) fn observation(sc: &Scenario, s: &State, side: Side, out: &mut [f32]) {
    crate::fm::observation::encode_into(sc, &view(sc, s, side), out);
}
