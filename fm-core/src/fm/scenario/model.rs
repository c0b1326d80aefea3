//! The validated [`Scenario`]: hex, unit and terrain tables, terrain and zone masks, the
//! exclusive rules it selects, and its accessors; the built-in scenarios by id.

use super::*;
use crate::fm::crt::Crt;
use crate::fm::hex::{Hex, Layout};
use crate::fm::mp::Mp;
use crate::ids::{Side, SidePair, UnitId};
use std::collections::{BTreeMap, HashMap};

/// Sentinel for "no hex" in the dense neighbour tables.
pub const NO_HEX: u16 = u16::MAX;

/// A validated hex with precomputed adjacency.
#[derive(Clone, Debug)]
pub struct HexInfo {
    /// Hex id.
    pub hex: Hex,
    /// Bit set of terrain-type indices.
    pub terrain: u64,
    /// Neighbour indices in [`Layout::neighbors`] order, `NO_HEX` off the map.
    pub neighbors: [u16; 6],
    /// Bit set of hexside-feature indices on each of the six sides.
    pub sides: [u64; 6],
    /// Printed name.
    pub name: Option<String>,
}

/// A validated unit definition.
#[derive(Clone, Debug)]
pub struct UnitDef {
    /// The JSON data.
    pub data: UnitData,
    /// Bit set of tag indices.
    pub tags: u64,
    /// Is a commando (6.1 exception).
    pub commando: bool,
}

impl UnitDef {
    /// Number of steps (1-3).
    pub fn max_steps(&self) -> u8 {
        self.data.steps.len() as u8
    }
    /// Printed values with `steps` steps remaining.
    pub fn values(&self, steps: u8) -> StepValues {
        let n = self.data.steps.len();
        let lost = n.saturating_sub(steps as usize).min(n - 1);
        self.data.steps[lost]
    }
}

/// Bit sets (over terrain-type indices) of the terrain types with special effects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TerrainMasks {
    /// Hex terrains that are fortifications (8.2.3).
    pub fortification: u64,
    /// Hex terrains ZOC does not extend into.
    pub zoc_block_hex: u64,
    /// Hexside features ZOC does not extend across.
    pub zoc_block_side: u64,
    /// Minefield hexside features (6.1).
    pub minefield: u64,
    /// Meuse Argonne 14.2: Stellung, 2nd Tier Trench and Fortifications terrains.
    pub works: u64,
    /// Meuse Argonne 14.2 note: fortress terrains (never breached).
    pub fortress: u64,
    /// Meuse Argonne 11.3: forest terrains (no rebuilding).
    pub forest: u64,
    /// Meuse Argonne 18.1: woods terrain.
    pub woods: u64,
    /// Meuse Argonne 14.3: terrains costing Allied units +1 MP.
    pub allied_plus_one: u64,
    /// Vimy Ridge 14.1: No Man's Land.
    pub no_mans_land: u64,
    /// Vimy Ridge 17.3: peaks.
    pub peak: u64,
    /// Vimy Ridge 17.3: terrains that block a line of sight.
    pub los_block: u64,
    /// Vimy Ridge 14.2, Suez 1916 14.2: trench hexside features.
    pub trench_side: u64,
    /// Suez 1916 14.1: the Suez Canal hexside feature.
    pub canal_side: u64,
    /// Suez 1916 13.3, 16.0: the railroad hexside feature.
    pub rail_side: u64,
    /// Suez 1916 17.1: marsh (no stacking).
    pub marsh: u64,
    /// Suez 1916 18.2: hill and ridge hexes (longer observation).
    pub hill: u64,
    /// Suez 1916 11.5, 12.4: towns and villages.
    pub town_village: u64,
}

/// A validated, immutable scenario. Build with [`Scenario::from_json`],
/// [`Scenario::from_data`] or [`Scenario::builtin`].
///
/// ```
/// use fm_core::Scenario;
/// let s = Scenario::builtin("system-demo").unwrap();
/// assert_eq!(s.data.id, "system-demo");
/// let bad = r#"{"id": 1}"#;
/// assert!(Scenario::from_json(bad).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The data it was built from.
    pub data: ScenarioData,
    /// Hexes, in the order of `data.map.hexes`.
    pub hexes: Vec<HexInfo>,
    /// Units, in the order of `data.units`.
    pub units: Vec<UnitDef>,
    /// The CRT.
    pub crt: Crt,
    /// CRT line index of each hex terrain type.
    pub hex_line: Vec<Option<usize>>,
    /// CRT line index of each hexside feature type.
    pub side_line: Vec<Option<usize>>,
    /// For each hexside feature, the feature index it bridges.
    pub bridge_of: Vec<Option<usize>>,
    /// Tag names, by bit.
    pub tag_names: Vec<String>,
    /// Road cost of each hexside feature by tag bit (feature, tag bit, cost).
    pub road_tag_costs: Vec<(usize, usize, Mp)>,
    /// Friendly-edge distance per side and hex index (8.3).
    pub edge_distance: SidePair<Vec<u32>>,
    /// Set-up zones by name.
    pub zones: BTreeMap<String, Vec<u16>>,
    /// Bit sets of terrain types with special effects, precomputed.
    pub masks: TerrainMasks,
    /// The most hexes a legal `move` path can have here (see [`Scenario::max_path`]).
    pub(super) max_path: usize,
    /// Every step's movement cost, precomputed.
    pub(crate) move_table: crate::fm::movement::MoveTable,
    /// Each zone's hexes sorted, for [`Scenario::in_zone`].
    pub(super) zone_sorted: BTreeMap<String, Vec<u16>>,
    /// Per hex, the set-up zones holding it as bits (bit k: the k-th zone in name
    /// order); empty when a scenario has more than 64 zones.
    pub(super) hex_zones: Vec<u64>,
    /// Per unit, the bit of its set-up zone (0: none, or more than 64 zones).
    pub(super) unit_zone: Vec<u64>,
    /// What each hex sees, filled on first use (`los::SightCache`).
    pub(crate) sight: crate::fm::los::SightCache,
    /// The observation's layout and its map planes, made on first use
    /// (`observation::Static`).
    pub(crate) observation: std::sync::OnceLock<std::sync::Arc<crate::fm::observation::Static>>,
    pub(super) grid: Vec<u16>,
    pub(super) objectives: Vec<Hex>,
    /// The exclusive rules `data.rules` selects (the system rules by default).
    pub(super) rules: crate::fm::games::Rules,
    pub(super) unit_ids: HashMap<UnitId, u16>,
    /// The units' ids in order, shared by every [`State`](crate::fm::state::State).
    pub(super) id_list: crate::fm::state::UnitIds,
}

/// The built-in scenarios, by id.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "system-demo",
        include_str!("../../../scenarios/system-demo.json"),
    ),
    (
        "meuse-argonne",
        include_str!("../../../scenarios/meuse-argonne.json"),
    ),
    (
        "vimy-ridge",
        include_str!("../../../scenarios/vimy-ridge.json"),
    ),
    (
        "suez-1916",
        include_str!("../../../scenarios/suez-1916.json"),
    ),
];

impl Scenario {
    /// The exclusive rules of this scenario's game (the system rules when it has none):
    /// the one way the system-rule modules reach a game.
    pub(crate) fn rules(&self) -> crate::fm::games::Rules {
        self.rules
    }

    /// Ids of the built-in scenarios.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(n, _)| *n).collect()
    }

    /// Loads a built-in scenario by id.
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        match BUILTIN.iter().find(|(n, _)| *n == name) {
            Some((_, json)) => Scenario::from_json(json),
            None => err(
                "",
                format!(
                    "unknown scenario '{name}' (built in: {})",
                    Scenario::builtin_names().join(", ")
                ),
            ),
        }
    }

    /// Parses and validates scenario JSON.
    ///
    /// # Errors
    /// A [`ScenarioError`] naming the JSON path (or line and column for malformed JSON).
    pub fn from_json(json: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_data(ScenarioData::from_json(json)?)
    }

    /// The set-up zones holding hex index `hex`, as bits (bit k: the k-th zone in name
    /// order), and the bit of unit `unit`'s own zone; `None` for a scenario with more
    /// than 64 zones (ask [`Scenario::in_zone`]).
    pub(crate) fn zone_bits(&self, unit: usize, hex: u16) -> Option<(u64, u64)> {
        Some((
            *self.hex_zones.get(hex as usize)?,
            *self.unit_zone.get(unit)?,
        ))
    }

    /// The bit of unit `unit`'s set-up zone in [`Scenario::zone_bits`] (0 without one,
    /// or without zone bits).
    pub(crate) fn unit_zone_bit(&self, unit: usize) -> u64 {
        self.unit_zone.get(unit).copied().unwrap_or(0)
    }

    /// An upper bound on the hexes of a legal `move` path, so that an over-long one is
    /// refused before it is walked: every step of a normal move costs at least the
    /// cheapest terrain or road cost (none is 0, 5.4), so no move is longer than the
    /// largest movement allowance (Suez 1916 15.1: doubled at Zero Hour) over that cost;
    /// a Suez 1916 rail move (16.0) enters each hex at most once.
    pub(super) fn longest_move(&self) -> usize {
        let t = &self.data.terrain;
        let cheapest = t
            .hex
            .iter()
            .filter_map(|h| match h.cost {
                MoveCost::Cost(c) => Some(c),
                _ => None,
            })
            .chain(t.hexside.iter().filter_map(|f| f.road))
            .chain(
                t.hexside
                    .iter()
                    .flat_map(|f| f.road_for_tags.values().copied()),
            )
            // A fold over plain integers, not `min()` over `Option<Mp>`: release builds
            // of the latter read the empty option's payload before its tag, which
            // valgrind's memcheck (scripts/test_ffi.sh) reports as a use of an
            // uninitialised value.
            .fold(u32::MAX, |acc, m| acc.min(m.sixths()));
        let cheapest = if cheapest == u32::MAX { 0 } else { cheapest };
        let factor = match &self.data.rules {
            RuleSet::Suez1916(p) => p.surprise_movement_factor.max(1) as u32,
            _ => 1,
        };
        let ma = self
            .units
            .iter()
            .flat_map(|u| u.data.steps.iter().map(|v| v.movement as u32))
            .max()
            .unwrap_or(0);
        // No positive cost at all (every terrain prohibited): no normal move.
        let normal = Mp::whole(ma * factor)
            .sixths()
            .checked_div(cheapest)
            .unwrap_or(0) as usize;
        let rail = match &self.data.rules {
            RuleSet::Suez1916(_) => self.hexes.len(),
            _ => 0,
        };
        normal.max(rail)
    }

    /// Whether hex index `hex` is in set-up zone `zone` (a binary search: set-up
    /// checks ask this for every unit and hex of a listing).
    pub fn in_zone(&self, zone: &str, hex: u16) -> bool {
        self.zone_sorted
            .get(zone)
            .is_some_and(|v| v.binary_search(&hex).is_ok())
    }

    /// The most hexes a legal `move` path can have in this scenario: the largest
    /// movement allowance over the cheapest step cost, or, under Suez 1916 rail
    /// movement (16.0), every hex once. `apply` refuses a longer path (5.2(c)) before
    /// walking it.
    pub fn max_path(&self) -> usize {
        self.max_path
    }

    /// Serializes the scenario back to JSON (the data it was loaded from).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.data).expect("scenario data serializes")
    }

    /// The hex layout.
    pub fn layout(&self) -> Layout {
        self.data.map.layout
    }

    /// Index of a hex on the map, or `None` if it is off the map.
    #[inline]
    pub fn hex_index(&self, h: Hex) -> Option<u16> {
        let i = self.grid[h.col as usize * 100 + h.row as usize];
        (i != NO_HEX).then_some(i)
    }

    /// The hex at an index.
    #[inline]
    pub fn hex_at(&self, i: u16) -> Hex {
        self.hexes[i as usize].hex
    }

    /// Index of a unit by id.
    pub fn unit_index(&self, id: &UnitId) -> Option<u16> {
        self.unit_ids.get(id).copied()
    }

    /// The units' ids in scenario order, the list every state of this scenario shares.
    pub fn unit_ids(&self) -> crate::fm::state::UnitIds {
        self.id_list.clone()
    }

    /// A unit's definition by index.
    pub fn unit(&self, i: u16) -> &UnitDef {
        &self.units[i as usize]
    }

    /// Number of turns on the track.
    pub fn turn_count(&self) -> u16 {
        self.data.turns.len() as u16
    }

    /// The bit set of the hex terrains named in `ids` (bit i: `terrain.hex[i]`), for a
    /// game's terrain masks.
    pub fn hex_terrain_mask(&self, ids: &[String]) -> u64 {
        let th = &self.data.terrain.hex;
        (0..th.len())
            .filter(|&i| ids.contains(&th[i].id))
            .fold(0, |m, i| m | 1 << i)
    }

    /// The bit set of the hexside terrain `id` (bit i: `terrain.hexside[i]`).
    pub fn hexside_mask(&self, id: &str) -> u64 {
        let ts = &self.data.terrain.hexside;
        (0..ts.len())
            .filter(|&i| ts[i].id == id)
            .fold(0, |m, i| m | 1 << i)
    }

    /// Whether game turn `turn` (1-based) is marked a night turn on the track.
    pub fn is_night_turn(&self, turn: u16) -> bool {
        self.data
            .turns
            .get((turn as usize).saturating_sub(1))
            .is_some_and(|t| t.night)
    }

    /// Checks that every hex of an exclusive-rule parameter is on the map; `path` names
    /// the parameter in errors ("rules.suez-1916.rail_hexes[3]").
    pub(crate) fn check_param_hexes(&self, path: &str, hexes: &[Hex]) -> Result<(), ScenarioError> {
        // Listings scan these lists, so they are bounded like the scenario's own.
        if hexes.len() > MAX_HEXES {
            return over_limit(path, hexes.len(), "hexes", MAX_HEXES, "a list of hexes");
        }
        match hexes
            .iter()
            .enumerate()
            .find(|(_, h)| self.hex_index(**h).is_none())
        {
            Some((j, h)) => err(format!("{path}[{j}]"), format!("hex {h} is not on the map")),
            None => Ok(()),
        }
    }

    /// Checks that a one-hex exclusive-rule parameter is on the map.
    pub(crate) fn check_param_hex(&self, path: &str, hex: Hex) -> Result<(), ScenarioError> {
        match self.hex_index(hex) {
            Some(_) => Ok(()),
            None => err(path, format!("hex {hex} is not on the map")),
        }
    }

    /// Checks that an exclusive-rule parameter names a unit of the scenario owned by
    /// `side`; returns its index.
    pub(crate) fn check_param_unit(
        &self,
        path: &str,
        id: &UnitId,
        side: Side,
    ) -> Result<usize, ScenarioError> {
        match self.unit_index(id) {
            None => err(path, format!("unknown unit '{id}'")),
            Some(i) if self.units[i as usize].data.side != side => err(
                path,
                format!("'{id}' is a side {} unit, not side {side}", side.other()),
            ),
            Some(i) => Ok(i as usize),
        }
    }

    /// Checks that an exclusive-rule parameter names a hex terrain (`hexside` false) or a
    /// hexside feature (`hexside` true) of the terrain chart.
    pub(crate) fn check_param_terrain(
        &self,
        path: &str,
        id: &str,
        hexside: bool,
    ) -> Result<(), ScenarioError> {
        let t = &self.data.terrain;
        if hexside {
            if !t.hexside.iter().any(|f| f.id == id) {
                return err(path, format!("unknown hexside feature '{id}'"));
            }
        } else if !t.hex.iter().any(|f| f.id == id) {
            return err(path, format!("unknown terrain '{id}'"));
        }
        Ok(())
    }

    /// Direction (0-5) from hex `a` to adjacent hex `b`.
    pub fn direction(&self, a: u16, b: u16) -> Option<usize> {
        self.hexes[a as usize]
            .neighbors
            .iter()
            .position(|n| *n == b)
    }

    /// Distance between two hex indices.
    pub fn distance(&self, a: u16, b: u16) -> u32 {
        self.layout().distance(self.hex_at(a), self.hex_at(b))
    }

    /// Name of a side.
    pub fn side_name(&self, s: Side) -> &str {
        &self.data.sides.get(s).name
    }

    /// Hexes named by hold-at-end victory conditions; the state tracks their last occupant.
    pub fn objective_hexes(&self) -> Vec<Hex> {
        // Vimy Ridge 12.1: the peaks and the supply hex count by their last occupant.
        let vimy: Vec<Hex> = match &self.data.rules {
            RuleSet::VimyRidge(p) => p.peaks.iter().copied().chain([p.supply_hex]).collect(),
            // Suez 1916 12.4: the victory hexes count by who last entered or passed them.
            RuleSet::Suez1916(p) => p.victory_hexes.iter().map(|v| v.hex).collect(),
            _ => Vec::new(),
        };
        let mut v: Vec<Hex> = self
            .data
            .victory
            .conditions
            .iter()
            .flat_map(|c| match c {
                VictoryCondition::HoldAtEnd { hexes, .. } => hexes.clone(),
                _ => Vec::new(),
            })
            .chain(vimy)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Whether a hex is an objective whose last occupant the state tracks.
    pub fn is_objective(&self, h: Hex) -> bool {
        self.objectives.binary_search(&h).is_ok()
    }

    /// Whether a hex terrain bit set includes a fortification.
    pub fn is_fortification(&self, hex: u16) -> bool {
        self.hexes[hex as usize].terrain & self.masks.fortification != 0
    }
}
