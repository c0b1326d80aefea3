//! Fire & Movement's answers to the match layer's queries (`crate::query`, reached
//! through [`crate::Game`] by every binding): the board picture from JSON options, a
//! unit's reachable hexes, the odds of a proposed attack as the asking side knows them,
//! and the learning observation, each from the functions of its own module
//! ([`super::render`], [`super::movement`], [`super::odds`], [`super::observation`]).

use crate::fm::hex::Hex;
use crate::fm::odds::AttackProposal;
use crate::fm::render::{MapMarker, RenderOptions, MAX_HEX_SIZE, MIN_HEX_SIZE};
use crate::fm::scenario::Scenario;
use crate::fm::state::{Pending, State};
use crate::fm::view::view;
use crate::game::MatchError;
use crate::ids::{Side, UnitId};
use crate::query::{opt_bool, opt_str, options_object, strict_from_value, unknown_option};
use crate::{ObservationSpec, RuleError};
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

/// The options `svg` takes, for messages.
const SVG_OPTIONS: &str = "hex_size, hex_ids, panel, title, highlight, markers";

/// Reads the board picture's options from a JSON object: `hex_size` (pixels from a
/// hex's centre to a corner, 10 to 200; 40), `hex_ids` (true), `panel` (true), `title`
/// (the scenario's name), `highlight` (hex ids), `markers` (`{"hex", "kind", "label"}`
/// objects). Strict: an unknown member or a bad value is an error, never ignored.
// One small function, so that the picture's own JSON reader can replace it.
fn svg_options(options: &Value) -> Result<RenderOptions, MatchError> {
    const WHAT: &str = "svg options";
    let hex = |key: &str, v: &Value| -> Result<Hex, MatchError> {
        opt_str(WHAT, key, v)?
            .parse::<Hex>()
            .map_err(|e| MatchError::Input(format!("{WHAT}: {key}: {e}")))
    };
    let list = |key: &str, v: &Value| -> Result<Vec<Value>, MatchError> {
        v.as_array()
            .cloned()
            .ok_or_else(|| MatchError::Input(format!("{WHAT}: {key} must be an array, not {v}")))
    };
    let mut o = RenderOptions::default();
    for (key, v) in options_object(options, WHAT)? {
        match key.as_str() {
            "hex_size" => {
                let x = v
                    .as_f64()
                    .filter(|x| (MIN_HEX_SIZE..=MAX_HEX_SIZE).contains(x));
                o.hex_size = x.ok_or_else(|| {
                    MatchError::Input(format!(
                        "{WHAT}: hex_size must be a number of pixels from {MIN_HEX_SIZE} to \
                         {MAX_HEX_SIZE}, not {v}"
                    ))
                })?;
            }
            "hex_ids" => o.hex_ids = opt_bool(WHAT, key, v)?,
            "panel" => o.panel = opt_bool(WHAT, key, v)?,
            "title" => o.title = Some(opt_str(WHAT, key, v)?.to_string()),
            "highlight" => {
                o.highlight = list(key, v)?
                    .iter()
                    .enumerate()
                    .map(|(i, h)| hex(&format!("highlight[{i}]"), h))
                    .collect::<Result<_, _>>()?;
            }
            "markers" => {
                let mut marks = Vec::new();
                for (i, m) in list(key, v)?.iter().enumerate() {
                    let at = format!("markers[{i}]");
                    let fields = m
                        .as_object()
                        .filter(|f| f.len() == 3 && ["hex", "kind", "label"].iter().all(|k| f.contains_key(*k)))
                        .ok_or_else(|| {
                            MatchError::Input(format!(
                                "{WHAT}: {at} must be an object {{\"hex\", \"kind\", \"label\"}}, not {m}"
                            ))
                        })?;
                    marks.push(MapMarker {
                        hex: hex(&format!("{at}.hex"), &fields["hex"])?,
                        kind: opt_str(WHAT, &format!("{at}.kind"), &fields["kind"])?.to_string(),
                        label: opt_str(WHAT, &format!("{at}.label"), &fields["label"])?.to_string(),
                    });
                }
                o.markers = marks;
            }
            other => return Err(unknown_option(WHAT, other, "fm", SVG_OPTIONS)),
        }
    }
    Ok(o)
}

/// The board as SVG: of `side`'s view, or of the whole state.
pub(crate) fn svg(
    sc: &Scenario,
    s: &State,
    side: Option<Side>,
    options: &Value,
) -> Result<String, MatchError> {
    let opts = svg_options(options)?;
    Ok(match side {
        Some(side) => crate::fm::render::render_svg(sc, &view(sc, s, side), &opts),
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
    let (board, features) = crate::fm::observation::encode(sc, &view(sc, s, side));
    out[..board.len()].copy_from_slice(&board);
    out[board.len()..].copy_from_slice(&features);
}
