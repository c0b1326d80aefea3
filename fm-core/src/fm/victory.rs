//! Victory (the game-turn end of 4.1 and each scenario's victory conditions): instant
//! conditions checked after every command, hold-at-end conditions after the last turn.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Scenario, VictoryCondition};
use crate::fm::state::{Location, State};
use crate::ids::{Side, UnitId};

fn has_forces(sc: &Scenario, s: &State, side: Side) -> bool {
    s.units.iter().enumerate().any(|(i, u)| {
        sc.units[i].data.side == side
            && matches!(
                u.loc,
                Location::Map(_) | Location::ToPlace | Location::Scheduled | Location::Arriving
            )
    })
}

/// An instant win, if one has happened: a unit standing on an enter-hex objective,
/// or having passed through one in `events` (Meuse Argonne 12.1: "even if only
/// temporarily"), or annihilation.
pub fn instant(
    sc: &Scenario,
    s: &State,
    events: &[crate::fm::event::Event],
) -> Option<(Side, String)> {
    if let Some(w) = sc.rules().instant(sc, s, events) {
        return Some(w);
    }
    for c in &sc.data.victory.conditions {
        match c {
            VictoryCondition::EnterHex { side, hexes } => {
                if let Some((unit, h)) = entered(sc, events, *side, hexes) {
                    return Some((*side, format!("{unit} entered {h}")));
                }
                for (i, u) in s.units.iter().enumerate() {
                    if sc.units[i].data.side != *side {
                        continue;
                    }
                    if let Location::Map(h) = u.loc {
                        if hexes.contains(&h) {
                            return Some((*side, format!("{} entered {h}", s.units.id(i))));
                        }
                    }
                }
            }
            VictoryCondition::Annihilation { side } => {
                if !has_forces(sc, s, side.other()) {
                    return Some((*side, format!("side {} has no units left", side.other())));
                }
            }
            VictoryCondition::HoldAtEnd { .. } => {}
        }
    }
    None
}

/// The first unit of `side` whose move, retreat or advance in `events` entered one of
/// `hexes` (even in passing), and that hex.
pub(crate) fn entered<'a>(
    sc: &Scenario,
    events: &'a [crate::fm::event::Event],
    side: Side,
    hexes: &[Hex],
) -> Option<(&'a UnitId, Hex)> {
    use crate::fm::event::Event;
    events.iter().find_map(|e| {
        let (unit, path) = match e {
            Event::UnitMoved { unit, path, .. }
            | Event::UnitRetreated { unit, path, .. }
            | Event::UnitAdvanced { unit, path, .. } => (unit, path),
            _ => return None,
        };
        let i = sc.unit_index(unit)?;
        if sc.units[i as usize].data.side != side {
            return None;
        }
        path.iter().find(|h| hexes.contains(h)).map(|h| (unit, *h))
    })
}

/// The result at the end of the last turn.
pub fn final_result(sc: &Scenario, s: &State) -> (Option<Side>, String) {
    if let Some(r) = sc.rules().final_result(sc, s) {
        return r;
    }
    for c in &sc.data.victory.conditions {
        if let VictoryCondition::HoldAtEnd { side, hexes, count } = c {
            let held = hexes
                .iter()
                .filter(|h| s.control.get(h) == Some(side))
                .count();
            if held >= *count as usize {
                return (
                    Some(*side),
                    format!(
                        "side {side} holds {held} of {} objective hexes",
                        hexes.len()
                    ),
                );
            }
        }
    }
    match sc.data.victory.otherwise {
        Some(w) => (Some(w), format!("no victory condition met: side {w} wins")),
        None => (None, "no victory condition met: a draw".to_string()),
    }
}
