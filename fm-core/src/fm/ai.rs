//! The built-in AI's judgment of a Fire & Movement position: a cheap evaluation the
//! tree search ([`crate::search`]) uses at its leaves and to order its candidates.
//!
//! This is no rule and decides nothing in a game: it is one player's estimate of how
//! well a side stands, from two things the victory conditions make matter — the
//! strength each side still has (attack plus defense of each unit's current step,
//! 2.2, of every unit not eliminated), and how near each side is to the objectives its
//! victory conditions name ([`objectives`]: enter-hex and hold-at-end hexes by
//! default; a game's exclusive rules name its own through
//! [`crate::fm::exclusive::ExclusiveRules::objectives`]). A finished game is worth 1,
//! 0 or ½ by its outcome.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Scenario, VictoryCondition};
use crate::fm::state::{Location, State};
use crate::ids::Side;

/// Hexes a side wants to hold or reach, and how much they are worth to the AI.
#[derive(Clone, PartialEq, Debug)]
pub struct Objective {
    /// The side that wants them; the other side wants to deny them.
    pub side: Side,
    /// The hexes.
    pub hexes: Vec<Hex>,
    /// How many of them the side needs (1: any one; `hexes.len()`: all).
    pub need: usize,
    /// Its weight against the other objectives.
    pub weight: f64,
}

/// The objectives of the scenario's own victory conditions: each enter-hex condition
/// (any one of its hexes) and each hold-at-end condition (its count of hexes), weight 1.
pub fn scenario_objectives(sc: &Scenario) -> Vec<Objective> {
    sc.data
        .victory
        .conditions
        .iter()
        .filter_map(|c| match c {
            VictoryCondition::EnterHex { side, hexes } => Some(Objective {
                side: *side,
                hexes: hexes.clone(),
                need: 1,
                weight: 1.0,
            }),
            VictoryCondition::HoldAtEnd { side, hexes, count } => Some(Objective {
                side: *side,
                hexes: hexes.clone(),
                need: (*count as usize).clamp(1, hexes.len().max(1)),
                weight: 1.0,
            }),
            VictoryCondition::Annihilation { .. } => None,
        })
        .filter(|o| !o.hexes.is_empty())
        .collect()
}

/// The objectives the AI plays for: the game's ([`crate::fm::exclusive::ExclusiveRules::objectives`]).
pub fn objectives(sc: &Scenario) -> Vec<Objective> {
    sc.rules().objectives(sc)
}

/// How well `side` stands, in [0, 1]: 1 or 0 once it has won or lost, ½ for a draw.
///
/// ```
/// use fm_core::{fm::ai, new_game, Scenario, Side};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (s, _) = new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let a = ai::evaluate(&sc, &s, Side::A);
/// assert!((a + ai::evaluate(&sc, &s, Side::B) - 1.0).abs() < 1e-9);
/// ```
pub fn evaluate(sc: &Scenario, s: &State, side: Side) -> f64 {
    evaluate_with(sc, s, side, &objectives(sc))
}

/// [`evaluate`] with the objectives given (a search computes them once).
pub fn evaluate_with(sc: &Scenario, s: &State, side: Side, objectives: &[Objective]) -> f64 {
    let for_a = match &s.outcome {
        Some(o) => match o.winner {
            Some(Side::A) => 1.0,
            Some(Side::B) => 0.0,
            None => 0.5,
        },
        None => value_for_a(sc, s, objectives),
    };
    match side {
        Side::A => for_a,
        Side::B => 1.0 - for_a,
    }
}

fn value_for_a(sc: &Scenario, s: &State, objectives: &[Objective]) -> f64 {
    let mut strength = [0.0f64; 2];
    for (i, u) in s.units.iter().enumerate() {
        if matches!(u.loc, Location::Eliminated | Location::OffMap) {
            continue;
        }
        let d = &sc.units[i];
        let v = d.values(u.steps);
        strength[side_index(d.data.side)] += f64::from(v.attack) + f64::from(v.defense);
    }
    let total = strength[0] + strength[1];
    let material = if total > 0.0 {
        strength[0] / total
    } else {
        0.5
    };
    if objectives.is_empty() {
        return material;
    }
    let (mut got, mut weight) = (0.0, 0.0);
    for o in objectives {
        let p = progress(sc, s, o);
        got += o.weight * if o.side == Side::A { p } else { 1.0 - p };
        weight += o.weight;
    }
    0.5 * material + 0.35 * got / weight + 0.15 * presence(sc, s, objectives)
}

/// Side A's share of the strength near the objectives: each unit on the map counts
/// its strength, scaled down with its distance to the nearest objective hex. The side
/// that wants the objectives has to bring its whole force to them, the other to stand
/// in the way; without this term only the nearest unit of each would matter.
fn presence(sc: &Scenario, s: &State, objectives: &[Objective]) -> f64 {
    let layout = sc.layout();
    let mut near = [0.0f64; 2];
    for (i, u) in s.units.iter().enumerate() {
        let Location::Map(at) = u.loc else { continue };
        let Some(d) = objectives
            .iter()
            .flat_map(|o| o.hexes.iter())
            .map(|&h| layout.distance(at, h))
            .min()
        else {
            continue;
        };
        let def = &sc.units[i];
        let v = def.values(u.steps);
        let strength = f64::from(v.attack) + f64::from(v.defense);
        near[side_index(def.data.side)] += strength / (1.0 + f64::from(d) / 3.0);
    }
    let total = near[0] + near[1];
    if total > 0.0 {
        near[0] / total
    } else {
        0.5
    }
}

fn side_index(s: Side) -> usize {
    match s {
        Side::A => 0,
        Side::B => 1,
    }
}

/// How far `o.side` is towards objective `o`, in [0, 1]: the mean over its `need` best
/// hexes of 1 for a hex it holds (controls or stands on), else a score falling with the
/// distance of its nearest unit on the map.
fn progress(sc: &Scenario, s: &State, o: &Objective) -> f64 {
    let layout = sc.layout();
    let mut scores: Vec<f64> = o
        .hexes
        .iter()
        .map(|&h| {
            if s.control.get(&h) == Some(&o.side) {
                return 1.0;
            }
            let nearest = s
                .units
                .iter()
                .enumerate()
                .filter(|(i, _)| sc.units[*i].data.side == o.side)
                .filter_map(|(_, u)| match u.loc {
                    Location::Map(at) => Some(layout.distance(at, h)),
                    _ => None,
                })
                .min();
            match nearest {
                Some(0) => 1.0,
                Some(d) => 0.8 / (1.0 + f64::from(d) / 2.0),
                None => 0.0,
            }
        })
        .collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    let need = o.need.clamp(1, scores.len().max(1));
    scores.iter().take(need).sum::<f64>() / need as f64
}
