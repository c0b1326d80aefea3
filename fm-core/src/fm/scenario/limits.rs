//! The size limits a scenario is held to, checked before anything is built, so that
//! no scenario JSON can make validation or play take unbounded time or memory.

use super::*;
use crate::ids::Side;

/// Most columns a CRT grid may have (the printed tables have 12).
pub(super) const MAX_CRT_COLUMNS: usize = 64;

// Size limits. Every query's cost grows with the scenario (a move listing is one
// cheapest-path search per unit over the map, a set-up listing one check per unit and
// hex of its zone), so a scenario is refused beyond these. Each sits comfortably above
// the largest built-in scenario (in brackets) and keeps the worst-case listing at the
// limit within a fraction of a second (`tests/scenario_validation.rs`
// `scenarios_at_the_limits_load_and_list_quickly`).

/// Most hexes a map may have [1656: Suez 1916, 36 x 46]: 50 x 50.
pub const MAX_HEXES: usize = 2500;
/// Most hexsides carrying features [581: Meuse Argonne]: a map of [`MAX_HEXES`] has
/// fewer than three hexsides a hex.
pub const MAX_HEXSIDES: usize = 3 * MAX_HEXES;
/// Most units in the order of battle [77: Meuse Argonne].
pub const MAX_UNITS: usize = 250;
/// Most turns on the turn track [24: Meuse Argonne]. Phases with nothing to do pass by
/// themselves, so a whole game of them stays well within the sequence's pass limit.
pub const MAX_TURNS: usize = 100;
/// Most hex terrain types, and most hexside feature types [14 and 9: system-demo]:
/// terrain is held as 64-bit sets.
pub const MAX_TERRAIN_TYPES: usize = 64;
/// Most terrain lines on the CRT [14: Meuse Argonne].
pub const MAX_CRT_LINES: usize = 64;
/// Most set-up zones [9: Suez 1916].
pub const MAX_ZONES: usize = 64;
/// Most set-up placements to choose from: the sum over the units that set up in a zone
/// of the hexes of their zone, which bounds a set-up listing [34,791: Vimy Ridge, whose
/// first German listing has 23,715 commands].
pub const MAX_SETUP_CHOICES: usize = 100_000;
/// Most markers in a side's support fire mix, and in each exclusive-rule marker list
/// (Suez 1916 pools) [11: the Suez Central Powers pool].
pub const MAX_MARKERS: usize = 64;
/// Most victory conditions [3: system-demo].
pub const MAX_VICTORY_CONDITIONS: usize = 64;
/// Most tags a unit may carry (tags are held as a 64-bit set) [2: Suez 1916].
pub const MAX_UNIT_TAGS: usize = 64;

pub(super) fn over_limit<T>(
    path: impl Into<String>,
    n: usize,
    what: &str,
    max: usize,
    of: &str,
) -> Result<T, ScenarioError> {
    err(
        path,
        format!("{n} {what}, more than the {max} {of} may have"),
    )
}

/// Refuses a scenario beyond the size limits before any table is built, so that the
/// cost of loading, and of every later query, stays bounded.
pub(super) fn check_limits(data: &ScenarioData) -> Result<(), ScenarioError> {
    let sc = "a scenario";
    let m = &data.map;
    if m.hexes.len() > MAX_HEXES {
        return over_limit("map.hexes", m.hexes.len(), "hexes", MAX_HEXES, sc);
    }
    if m.hexsides.len() > MAX_HEXSIDES {
        return over_limit(
            "map.hexsides",
            m.hexsides.len(),
            "hexsides",
            MAX_HEXSIDES,
            sc,
        );
    }
    for (i, h) in m.hexes.iter().enumerate() {
        if h.terrain.len() > MAX_TERRAIN_TYPES {
            let p = format!("map.hexes[{i}].terrain");
            return over_limit(
                p,
                h.terrain.len(),
                "terrain types",
                MAX_TERRAIN_TYPES,
                "a hex",
            );
        }
    }
    for (i, s) in m.hexsides.iter().enumerate() {
        if s.features.len() > MAX_TERRAIN_TYPES {
            let p = format!("map.hexsides[{i}].features");
            return over_limit(
                p,
                s.features.len(),
                "features",
                MAX_TERRAIN_TYPES,
                "a hexside",
            );
        }
    }
    for side in Side::BOTH {
        let e = m.friendly_edges.get(side);
        if e.len() > MAX_HEXES {
            let p = format!("map.friendly_edges.{side}");
            return over_limit(p, e.len(), "hexes", MAX_HEXES, "a list of hexes");
        }
        let mk = data.support_markers.get(side);
        if mk.len() > MAX_MARKERS {
            let p = format!("support_markers.{side}");
            return over_limit(p, mk.len(), "markers", MAX_MARKERS, "a side");
        }
    }
    let t = &data.terrain;
    if t.hex.len() > MAX_TERRAIN_TYPES {
        return over_limit(
            "terrain.hex",
            t.hex.len(),
            "terrain types",
            MAX_TERRAIN_TYPES,
            sc,
        );
    }
    if t.hexside.len() > MAX_TERRAIN_TYPES {
        let n = t.hexside.len();
        return over_limit(
            "terrain.hexside",
            n,
            "hexside features",
            MAX_TERRAIN_TYPES,
            sc,
        );
    }
    if data.crt.lines.len() > MAX_CRT_LINES {
        return over_limit(
            "crt.lines",
            data.crt.lines.len(),
            "lines",
            MAX_CRT_LINES,
            "a CRT",
        );
    }
    if data.units.len() > MAX_UNITS {
        return over_limit("units", data.units.len(), "units", MAX_UNITS, sc);
    }
    for (i, u) in data.units.iter().enumerate() {
        if u.tags.len() > MAX_UNIT_TAGS {
            let p = format!("units[{i}].tags");
            return over_limit(p, u.tags.len(), "tags", MAX_UNIT_TAGS, "a unit");
        }
        if let StartData::Reinforcement { entry, .. } = &u.start {
            if entry.len() > MAX_HEXES {
                let p = format!("units[{i}].start.reinforcement.entry");
                return over_limit(p, entry.len(), "hexes", MAX_HEXES, "a list of hexes");
            }
        }
    }
    if data.turns.len() > MAX_TURNS {
        return over_limit("turns", data.turns.len(), "turns", MAX_TURNS, sc);
    }
    let z = &data.setup.zones;
    if z.len() > MAX_ZONES {
        return over_limit("setup.zones", z.len(), "set-up zones", MAX_ZONES, sc);
    }
    for (name, hs) in z {
        if hs.len() > MAX_HEXES {
            let p = format!("setup.zones.{name}");
            return over_limit(p, hs.len(), "hexes", MAX_HEXES, "a list of hexes");
        }
    }
    let choices: usize = data
        .units
        .iter()
        .filter_map(|u| match &u.start {
            StartData::Zone(name) => z.get(name).map(Vec::len),
            _ => None,
        })
        .sum();
    if choices > MAX_SETUP_CHOICES {
        return err(
            "setup.zones",
            format!(
                "{choices} set-up placements (each unit that sets up in a zone times the \
                 hexes of its zone), more than the {MAX_SETUP_CHOICES} a scenario may have"
            ),
        );
    }
    let v = &data.victory.conditions;
    if v.len() > MAX_VICTORY_CONDITIONS {
        let n = v.len();
        return over_limit(
            "victory.conditions",
            n,
            "conditions",
            MAX_VICTORY_CONDITIONS,
            sc,
        );
    }
    for (i, c) in v.iter().enumerate() {
        if let VictoryCondition::HoldAtEnd { hexes, .. }
        | VictoryCondition::EnterHex { hexes, .. } = c
        {
            if hexes.len() > MAX_HEXES {
                let p = format!("victory.conditions[{i}].hexes");
                return over_limit(p, hexes.len(), "hexes", MAX_HEXES, "a list of hexes");
            }
        }
    }
    Ok(())
}
