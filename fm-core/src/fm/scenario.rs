//! Scenarios: everything static about a game (rules 2.0, 3.0 and each game's
//! exclusive set-up, turn-track and victory sections).
//!
//! JSON is read into [`ScenarioData`] (plain serde types, not necessarily valid) and
//! becomes a [`Scenario`] only through [`Scenario::from_data`], which checks every
//! cross-reference and names the JSON path of the first problem it finds.

use crate::fm::crt::{ColumnLabel, Crt, CrtLine, CrtResult};
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::{Hex, Layout};
use crate::fm::mp::Mp;
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

// The layer's scenario error (a JSON path and a message) is F&M's too: every F&M
// scenario error is a path and a message.
pub use crate::error::ScenarioError;

fn err<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        path: path.into(),
        message: message.into(),
    })
}

/// Movement cost of a terrain type (5.4): a cost, an additive "+N", or prohibited.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveCost {
    /// Costs this many MP to enter (the highest such cost in a hex applies).
    Cost(Mp),
    /// Adds this many MP to the other terrain's cost ("+1").
    Plus(Mp),
    /// Cannot be entered or crossed ("P").
    Prohibited,
}

impl Serialize for MoveCost {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MoveCost::Cost(m) => s.collect_str(m),
            MoveCost::Plus(m) => s.collect_str(&format_args!("+{m}")),
            MoveCost::Prohibited => s.serialize_str("P"),
        }
    }
}

impl<'de> Deserialize<'de> for MoveCost {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<MoveCost, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) if n <= 1000 => Ok(MoveCost::Cost(Mp::whole(n))),
            Raw::N(n) => Err(serde::de::Error::custom(format!(
                "move cost {n} is too large"
            ))),
            Raw::S(s) => {
                let t = s.trim();
                if t == "P" {
                    Ok(MoveCost::Prohibited)
                } else if let Some(rest) = t.strip_prefix('+') {
                    rest.parse()
                        .map(MoveCost::Plus)
                        .map_err(serde::de::Error::custom)
                } else {
                    t.parse()
                        .map(MoveCost::Cost)
                        .map_err(serde::de::Error::custom)
                }
            }
        }
    }
}

/// A kind of in-hex terrain.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexTerrain {
    /// Id used by hexes (`"woods"`).
    pub id: String,
    /// Printed name.
    pub name: String,
    /// MP cost to enter (5.4).
    #[serde(rename = "move")]
    pub cost: MoveCost,
    /// CRT line a defender in this terrain may use (8.2.2); `None` for features with
    /// no combat effect (roads, villages that only add MP).
    #[serde(default)]
    pub crt_line: Option<String>,
    /// A fortification (8.2.3): defense doubled, attacker's support halved, no EZOC-to-EZOC
    /// entry (6.1).
    #[serde(default)]
    pub fortification: bool,
    /// Zones of control do not extend into hexes with this terrain (6.0 exception).
    #[serde(default)]
    pub blocks_zoc: bool,
}

/// A kind of hexside feature.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideTerrain {
    /// Id used by hexsides (`"river"`).
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Extra MP to cross (5.4), or `"P"`: no crossing, no attack across (5.2(e), 8.2).
    #[serde(rename = "move", default = "zero_plus")]
    pub cost: MoveCost,
    /// A road or trail: moving across it costs exactly this, whatever else is in the hex
    /// or on the hexside (5.4.1, 5.4.2).
    #[serde(default)]
    pub road: Option<Mp>,
    /// Road cost for units carrying a tag (Suez tracks: ⅓ MP for British infantry).
    #[serde(default)]
    pub road_for_tags: BTreeMap<String, Mp>,
    /// CRT line a defender may use when attacked across this hexside (8.2.2).
    #[serde(default)]
    pub crt_line: Option<String>,
    /// The line applies only when every attacker crosses such a hexside (rivers, ditches).
    #[serde(default)]
    pub all_attackers: bool,
    /// A bridge names the feature it crosses: it counts as that feature for the
    /// every-attacker test, and its own line wins if any attacker uses it (8.2.2).
    #[serde(default)]
    pub bridge_over: Option<String>,
    /// Zones of control do not extend across it (6.0 exception).
    #[serde(default)]
    pub blocks_zoc: bool,
    /// A minefield: no EZOC-to-EZOC move across it (6.1 exception).
    #[serde(default)]
    pub minefield: bool,
}

fn zero_plus() -> MoveCost {
    MoveCost::Plus(Mp::ZERO)
}

/// Terrain effects chart.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    /// In-hex terrain types.
    pub hex: Vec<HexTerrain>,
    /// Hexside feature types.
    #[serde(default)]
    pub hexside: Vec<HexsideTerrain>,
}

/// One hex of the map as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexData {
    /// Hex id.
    pub id: Hex,
    /// Terrain types present (5.4: a hex may show several).
    pub terrain: Vec<String>,
    /// Printed name, if any ("Sedan").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A hexside between two adjacent hexes and its features.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideData {
    /// The two hexes it separates.
    pub hexes: [Hex; 2],
    /// Feature ids.
    pub features: Vec<String>,
}

/// The map as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapData {
    /// Which columns are shifted down.
    #[serde(default)]
    pub layout: Layout,
    /// Where the map comes from ("printed", or "stand-in: …").
    #[serde(default)]
    pub provenance: String,
    /// Every hex on the map.
    pub hexes: Vec<HexData>,
    /// Hexsides that carry features.
    #[serde(default)]
    pub hexsides: Vec<HexsideData>,
    /// Each side's friendly map edge, as the hexes along it (8.3 retreat preference).
    #[serde(default)]
    pub friendly_edges: SidePair<Vec<Hex>>,
}

/// The CRT as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtData {
    /// Provenance of the values.
    #[serde(default = "unspecified")]
    pub provenance: String,
    /// Six die rows of results, each with one cell per grid column.
    pub grid: Vec<Vec<CrtResult>>,
    /// Terrain lines.
    pub lines: Vec<CrtLineData>,
}

/// A terrain line of the CRT as written in JSON: its labels read the grid from the
/// left, starting over grid column `first_column` (see [`crate::fm::crt`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrtLineData {
    /// Id used by terrain types (`"woods"`).
    pub id: String,
    /// Printed label (`"Woods, Bridge, Canal, Ditch"`).
    pub name: String,
    /// The differential printed over the line's first column.
    pub first_differential: i32,
    /// The grid column (1-based) the first label stands over; 1 unless a printed
    /// table offsets the line.
    #[serde(
        default = "first_grid_column",
        skip_serializing_if = "is_first_grid_column"
    )]
    pub first_column: u32,
    /// The line's column labels as printed (`["-1", "0", "+1", "+2,+3", …]`); when
    /// absent they are the F&M standard from `first_differential` (singles up to +1,
    /// the pairs, then +10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// Where this line's values come from, when they differ from the CRT's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

fn first_grid_column() -> u32 {
    1
}

fn is_first_grid_column(c: &u32) -> bool {
    *c == 1
}

/// Default provenance of hand-written data.
pub(crate) fn unspecified() -> String {
    "unspecified".to_string()
}

/// Leg or mobile (2.3.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Moves only in the Movement Phase; stops on entering EZOC.
    Leg,
    /// May move and attack in the mobile phases; pays half MA to enter EZOC.
    Mobile,
}

/// Printed values of one step (side) of a counter. In JSON always an object,
/// `{"attack": 4, "defense": 4, "move": 10}`: the positional form serde would accept
/// (`[4, 4, 10]`) is refused, since the order of a counter's values is easy to get wrong.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
pub struct StepValues {
    /// Attack strength.
    pub attack: u8,
    /// Defense strength.
    pub defense: u8,
    /// Movement allowance.
    #[serde(rename = "move")]
    pub movement: u8,
}

impl<'de> Deserialize<'de> for StepValues {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Named {
            attack: u8,
            defense: u8,
            #[serde(rename = "move")]
            movement: u8,
        }
        struct ObjectOnly;
        impl<'de> serde::de::Visitor<'de> for ObjectOnly {
            type Value = StepValues;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"a step as an object {"attack", "defense", "move"}"#)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<StepValues, A::Error> {
                let n = Named::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(StepValues {
                    attack: n.attack,
                    defense: n.defense,
                    movement: n.movement,
                })
            }
        }
        d.deserialize_map(ObjectOnly)
    }
}

/// Where a unit starts.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartData {
    /// On this hex.
    Hex(Hex),
    /// Placed by its owner in a set-up zone during the set-up phase.
    Zone(String),
    /// Arrives as a reinforcement.
    Reinforcement {
        /// Turn number (1-based) it becomes available.
        turn: u16,
        /// Hexes it may enter by.
        entry: Vec<Hex>,
    },
    /// Not in play at the start (eliminated or held off map).
    OffMap,
}

/// A unit of the order of battle.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    /// Unique id.
    pub id: UnitId,
    /// Owning side.
    pub side: Side,
    /// Printed identifier ("4/47").
    pub name: String,
    /// Parent formation ("1st Division").
    #[serde(default)]
    pub formation: String,
    /// Unit size symbol ("II", "XX").
    #[serde(default)]
    pub size: String,
    /// Unit type ("infantry", "armor").
    #[serde(default, rename = "type")]
    pub unit_type: String,
    /// Leg or mobile.
    pub kind: UnitKind,
    /// Exerts a ZOC (5.4: units without the black hexagon).
    #[serde(default = "yes")]
    pub zoc: bool,
    /// Extra tags used by terrain and exclusive rules (`"commando"`, `"british-infantry"`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Values of each step, full strength first (1 to 3 entries).
    pub steps: Vec<StepValues>,
    /// Steps lost at the start ("set up depleted").
    #[serde(default)]
    pub start_depleted: u8,
    /// Where it starts.
    pub start: StartData,
    /// Where its values come from, when not printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

fn yes() -> bool {
    true
}

/// One box of the turn record track.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnData {
    /// Printed name ("Sep 26/27").
    pub name: String,
    /// Support fire markers allotted to each side this turn (7.1).
    #[serde(default)]
    pub support: SidePair<u8>,
    /// A night turn (flag for exclusive rules).
    #[serde(default)]
    pub night: bool,
}

/// Phases of the sequence of play (4.1).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Set-up before the first turn (3.0).
    Setup,
    /// Support Fire Marker Phase (7.1).
    SupportFire,
    /// Movement Phase (5.0).
    Movement,
    /// Bombardment Phase (8.1).
    Bombardment,
    /// Combat Phase (8.2).
    Combat,
    /// Mobile Movement Phase (5.5).
    MobileMovement,
    /// Mobile Combat Phase.
    MobileCombat,
    /// Game Turn End Phase.
    TurnEnd,
}

impl Phase {
    /// The five phases of a player turn, in order.
    pub const PLAYER_TURN: [Phase; 5] = [
        Phase::Movement,
        Phase::Bombardment,
        Phase::Combat,
        Phase::MobileMovement,
        Phase::MobileCombat,
    ];
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Setup => "set-up",
            Phase::SupportFire => "support fire marker phase",
            Phase::Movement => "movement phase",
            Phase::Bombardment => "bombardment phase",
            Phase::Combat => "combat phase",
            Phase::MobileMovement => "mobile movement phase",
            Phase::MobileCombat => "mobile combat phase",
            Phase::TurnEnd => "game turn end phase",
        })
    }
}

/// Where play begins (3.0, exclusive rules such as "the Allied combat phase of turn 1").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartPoint {
    /// Turn number, 1-based.
    pub turn: u16,
    /// First phase played by the first player.
    pub phase: Phase,
}

/// Set-up order and zones (3.0).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SetupData {
    /// Which side places first.
    #[serde(default)]
    pub order: Vec<Side>,
    /// Named zones of hexes.
    #[serde(default)]
    pub zones: BTreeMap<String, Vec<Hex>>,
}

/// A victory condition.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum VictoryCondition {
    /// `side` wins at the end of the last turn if it was the last to occupy at least
    /// `count` of `hexes`.
    HoldAtEnd {
        /// Who wins.
        side: Side,
        /// The objective hexes.
        hexes: Vec<Hex>,
        /// How many must be held.
        count: u16,
    },
    /// `side` wins the moment one of its units enters any of `hexes`.
    EnterHex {
        /// Who wins.
        side: Side,
        /// The hexes.
        hexes: Vec<Hex>,
    },
    /// `side` wins the moment the opponent has no units left on the map or to come.
    Annihilation {
        /// Who wins.
        side: Side,
    },
}

/// Victory conditions, checked in order; if none is met at the end, `otherwise` wins
/// (`null`: a draw).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryData {
    /// Conditions.
    pub conditions: Vec<VictoryCondition>,
    /// Winner when no condition is met at the end.
    #[serde(default)]
    pub otherwise: Option<Side>,
}

pub use crate::fm::games::RuleSet;

/// Names of the two sides.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideInfo {
    /// Display name ("Allies").
    pub name: String,
}

/// A scenario exactly as written in JSON: plain data, not yet checked.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioData {
    /// Short id (`"system-demo"`).
    pub id: String,
    /// Title.
    pub name: String,
    /// What is printed and what is stand-in, in words ("unspecified" when left out;
    /// the built-in scenarios always say).
    #[serde(default = "unspecified")]
    pub provenance: String,
    /// Exclusive-rule set.
    #[serde(default)]
    pub rules: RuleSet,
    /// Side names.
    pub sides: SidePair<SideInfo>,
    /// The map.
    pub map: MapData,
    /// Terrain effects.
    pub terrain: TerrainData,
    /// Combat results table.
    pub crt: CrtData,
    /// Order of battle.
    pub units: Vec<UnitData>,
    /// Set-up zones and order.
    #[serde(default)]
    pub setup: SetupData,
    /// Turn record track.
    pub turns: Vec<TurnData>,
    /// Support fire marker mix per side (their "+" values).
    #[serde(default)]
    pub support_markers: SidePair<Vec<u8>>,
    /// Provenance of the turn track and marker mix.
    #[serde(default)]
    pub support_provenance: String,
    /// First player (3.0(a)).
    pub first_player: Side,
    /// Where play begins.
    pub start: StartPoint,
    /// Phases the exclusive rules remove (e.g. Suez: no mobile phases).
    #[serde(default)]
    pub skip_phases: Vec<Phase>,
    /// Victory conditions.
    pub victory: VictoryData,
}

/// Most columns a CRT grid may have (the printed tables have 12).
const MAX_CRT_COLUMNS: usize = 64;

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

fn over_limit<T>(
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
fn check_limits(data: &ScenarioData) -> Result<(), ScenarioError> {
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

/// Checks the grid's shape and derives each line's labels, naming a line that runs
/// off the grid.
fn validate_crt(c: &CrtData) -> Result<Vec<CrtLine>, ScenarioError> {
    if c.grid.len() != 6 {
        return err("crt.grid", format!("{} die rows, expected 6", c.grid.len()));
    }
    let width = c.grid[0].len();
    if width == 0 || width > MAX_CRT_COLUMNS {
        return err(
            "crt.grid[0]",
            format!("{width} cells, expected 1 to {MAX_CRT_COLUMNS}"),
        );
    }
    for (i, row) in c.grid.iter().enumerate() {
        if row.len() != width {
            return err(
                format!("crt.grid[{i}]"),
                format!("{} cells, expected {width} (as row 1)", row.len()),
            );
        }
    }
    if c.lines.is_empty() {
        return err("crt.lines", "no terrain lines");
    }
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(c.lines.len());
    for (i, l) in c.lines.iter().enumerate() {
        if !seen.insert(l.id.as_str()) {
            return err(
                format!("crt.lines[{i}].id"),
                format!("duplicate line id '{}'", l.id),
            );
        }
        let labels = match &l.labels {
            None => ColumnLabel::standard(l.first_differential).ok_or_else(|| ScenarioError {
                path: format!("crt.lines[{i}].first_differential"),
                message: format!(
                    "{} is not the first differential of a standard line (-50 to +1, or \
                     +2, +4, +6, +8, +10); write the line's labels out",
                    l.first_differential
                ),
            })?,
            Some(ls) => {
                if ls.is_empty() || ls.len() > MAX_CRT_COLUMNS {
                    return err(
                        format!("crt.lines[{i}].labels"),
                        format!("{} labels, expected 1 to {MAX_CRT_COLUMNS}", ls.len()),
                    );
                }
                let mut v: Vec<ColumnLabel> = Vec::with_capacity(ls.len());
                for (k, t) in ls.iter().enumerate() {
                    let Some(lab) = ColumnLabel::parse(t) else {
                        return err(
                            format!("crt.lines[{i}].labels[{k}]"),
                            format!("'{t}' is not a column label (\"-3\", \"+1\", \"+2,+3\")"),
                        );
                    };
                    if let Some(prev) = v.last() {
                        if prev.hi.checked_add(1) != Some(lab.lo) {
                            return err(
                                format!("crt.lines[{i}].labels[{k}]"),
                                format!("'{t}' does not follow '{prev}': labels must be contiguous and ascending"),
                            );
                        }
                    }
                    v.push(lab);
                }
                if v[0].lo != l.first_differential {
                    return err(
                        format!("crt.lines[{i}].first_differential"),
                        format!(
                            "{} differs from the first label '{}'",
                            l.first_differential, v[0]
                        ),
                    );
                }
                v
            }
        };
        if l.first_column == 0 {
            return err(
                format!("crt.lines[{i}].first_column"),
                "grid columns are numbered from 1",
            );
        }
        let first = l.first_column as usize - 1;
        if first.saturating_add(labels.len()) > width {
            return err(
                format!("crt.lines[{i}]"),
                format!(
                    "line '{}' runs off the grid: {} labels from column {} need {} columns, the grid has {width}",
                    l.id,
                    labels.len(),
                    l.first_column,
                    first.saturating_add(labels.len())
                ),
            );
        }
        out.push(CrtLine {
            id: l.id.clone(),
            name: l.name.clone(),
            first_column: first,
            labels,
        });
    }
    Ok(out)
}

/// 3.0(a): the exclusive rules say who sets up first. When units set up in zones,
/// `setup.order` lists every side that has such units, each once; a side with none may
/// be listed too (it is skipped). Without zone units the order is not used.
fn check_setup_order(data: &ScenarioData) -> Result<(), ScenarioError> {
    let order = &data.setup.order;
    for (i, side) in order.iter().enumerate() {
        if order[..i].contains(side) {
            return err(
                format!("setup.order[{i}]"),
                format!("side {side} is listed twice"),
            );
        }
    }
    for side in Side::BOTH {
        let first = data
            .units
            .iter()
            .position(|u| u.side == side && matches!(u.start, StartData::Zone(_)));
        if let (Some(k), false) = (first, order.contains(&side)) {
            return err(
                "setup.order",
                format!(
                    "side {side} has units to set up (units[{k}], '{}') but is not in the \
                     set-up order (3.0(a))",
                    data.units[k].id
                ),
            );
        }
    }
    Ok(())
}

impl ScenarioData {
    /// Parses scenario JSON (not yet validated: see [`Scenario::from_data`]). Every
    /// error names the JSON path where it arose, whatever the layout of the text:
    /// `units[3].provenance: missing field` rather than a column of a one-line file.
    ///
    /// ```
    /// use fm_core::ScenarioData;
    /// let e = ScenarioData::from_json(r#"{"id": "x", "name": 5}"#).unwrap_err();
    /// assert_eq!(e.path, "name");
    /// ```
    ///
    /// # Errors
    /// A [`ScenarioError`] with the JSON path and serde's message (which, for
    /// malformed JSON, gives the line and column).
    pub fn from_json(json: &str) -> Result<ScenarioData, ScenarioError> {
        let mut de = serde_json::Deserializer::from_str(json);
        let data: ScenarioData = serde_path_to_error::deserialize(&mut de).map_err(path_error)?;
        de.end().map_err(|e| ScenarioError {
            path: String::new(),
            message: e.to_string(),
        })?;
        Ok(data)
    }

    /// Checks that data claiming the id of a built-in scenario is that scenario: equal,
    /// once parsed, to the built-in data (so layout, key order and accepted alternative
    /// spellings such as `"5/2"` for `"2 1/2"` do not matter). A modified scenario must
    /// have an id of its own, so that a save or a record naming `"system-demo"` always
    /// means the scenario that ships under that name. Other ids pass.
    ///
    /// ```
    /// use fm_core::Scenario;
    /// let mut data = Scenario::builtin("system-demo").unwrap().data;
    /// assert!(data.check_builtin_id().is_ok());
    /// data.units[0].name = "Heroes".into();
    /// let e = data.check_builtin_id().unwrap_err();
    /// assert_eq!(e.path, "id");
    /// assert!(e.message.contains("units[0].name"), "{e}");
    /// data.id = "my-demo".into();
    /// assert!(data.check_builtin_id().is_ok());
    /// ```
    ///
    /// # Errors
    /// A [`ScenarioError`] at path `id` naming the first value that differs.
    pub fn check_builtin_id(&self) -> Result<(), ScenarioError> {
        let Some((_, json)) = BUILTIN.iter().find(|(n, _)| *n == self.id) else {
            return Ok(());
        };
        let builtin = ScenarioData::from_json(json)?;
        if *self == builtin {
            return Ok(());
        }
        let (Ok(expected), Ok(given)) =
            (serde_json::to_value(&builtin), serde_json::to_value(self))
        else {
            return err("id", "the data differs from the built-in scenario's");
        };
        let at = crate::json::first_difference(&expected, &given, "")
            .unwrap_or_else(|| "somewhere".to_string());
        err(
            "id",
            format!(
                "'{}' is a built-in scenario's id, but this data differs from the built-in \
                 ({at}); a modified scenario must have an id of its own",
                self.id
            ),
        )
    }

    /// [`ScenarioData::from_json`] for an already parsed JSON value.
    ///
    /// # Errors
    /// A [`ScenarioError`] with the JSON path of the value that does not fit.
    pub fn from_value(value: serde_json::Value) -> Result<ScenarioData, ScenarioError> {
        serde_path_to_error::deserialize(value).map_err(path_error)
    }
}

/// A serde error with its path; a missing field's path ends in the field's name.
fn path_error<E: fmt::Display>(e: serde_path_to_error::Error<E>) -> ScenarioError {
    let mut path = e.path().to_string();
    // An unknown segment ("?", e.g. where malformed JSON stopped the parser) ends what
    // is known of the path; serde's message then gives the line and column.
    if let Some(q) = path.find('?') {
        path.truncate(q);
    }
    while path.ends_with('.') {
        path.pop();
    }
    let message = e.inner().to_string();
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.split('`').next())
    {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(field);
    }
    ScenarioError { path, message }
}

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
    max_path: usize,
    /// Every step's movement cost, precomputed.
    pub(crate) move_table: crate::fm::movement::MoveTable,
    /// Each zone's hexes sorted, for [`Scenario::in_zone`].
    zone_sorted: BTreeMap<String, Vec<u16>>,
    /// Per hex, the set-up zones holding it as bits (bit k: the k-th zone in name
    /// order); empty when a scenario has more than 64 zones.
    hex_zones: Vec<u64>,
    /// Per unit, the bit of its set-up zone (0: none, or more than 64 zones).
    unit_zone: Vec<u64>,
    /// What each hex sees, filled on first use (`los::SightCache`).
    pub(crate) sight: crate::fm::los::SightCache,
    grid: Vec<u16>,
    objectives: Vec<Hex>,
    /// The exclusive rules `data.rules` selects (the system rules by default).
    rules: crate::fm::games::Rules,
    unit_ids: HashMap<UnitId, u16>,
    /// The units' ids in order, shared by every [`State`](crate::fm::state::State).
    id_list: crate::fm::state::UnitIds,
}

/// The built-in scenarios, by id.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "system-demo",
        include_str!("../../scenarios/system-demo.json"),
    ),
    (
        "meuse-argonne",
        include_str!("../../scenarios/meuse-argonne.json"),
    ),
    (
        "vimy-ridge",
        include_str!("../../scenarios/vimy-ridge.json"),
    ),
    ("suez-1916", include_str!("../../scenarios/suez-1916.json")),
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

    /// Validates scenario data.
    ///
    /// # Errors
    /// A [`ScenarioError`] naming the JSON path of the first invalid value.
    pub fn from_data(data: ScenarioData) -> Result<Scenario, ScenarioError> {
        check_limits(&data)?;
        let t = &data.terrain;
        // CRT.
        let c = &data.crt;
        let crt_lines = validate_crt(c)?;
        let line_idx: HashMap<&str, usize> = c
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| (l.id.as_str(), i))
            .collect();
        let lookup_line =
            |path: String, l: &Option<String>| -> Result<Option<usize>, ScenarioError> {
                match l {
                    None => Ok(None),
                    Some(id) => match line_idx.get(id.as_str()) {
                        Some(i) => Ok(Some(*i)),
                        None => err(path, format!("unknown CRT line '{id}'")),
                    },
                }
            };
        let mut hex_line = Vec::new();
        let mut hex_terrain_idx = HashMap::new();
        for (i, h) in t.hex.iter().enumerate() {
            if hex_terrain_idx.insert(h.id.as_str(), i).is_some() {
                return err(
                    format!("terrain.hex[{i}].id"),
                    format!("duplicate terrain '{}'", h.id),
                );
            }
            // 5.4: a base cost of 0 would let a unit enter hex after hex for nothing,
            // without end; additive features write "+0".
            if h.cost == MoveCost::Cost(Mp::ZERO) {
                return err(
                    format!("terrain.hex[{i}].move"),
                    "a hex costs at least some MP to enter (5.4): a cost of 0 would let \
                     a unit move without limit (an additive feature writes \"+0\")",
                );
            }
            hex_line.push(lookup_line(
                format!("terrain.hex[{i}].crt_line"),
                &h.crt_line,
            )?);
        }
        let mut side_line = Vec::new();
        let mut side_idx = HashMap::new();
        for (i, h) in t.hexside.iter().enumerate() {
            if side_idx.insert(h.id.as_str(), i).is_some() {
                return err(
                    format!("terrain.hexside[{i}].id"),
                    format!("duplicate hexside feature '{}'", h.id),
                );
            }
            side_line.push(lookup_line(
                format!("terrain.hexside[{i}].crt_line"),
                &h.crt_line,
            )?);
            // 5.4.1: a road replaces every other cost, so a road of 0 MP would be
            // free movement without end.
            if h.road == Some(Mp::ZERO) {
                return err(
                    format!("terrain.hexside[{i}].road"),
                    "a road costs at least some MP to cross (5.4.1): 0 would let a unit \
                     move without limit",
                );
            }
            if let Some((tag, _)) = h.road_for_tags.iter().find(|(_, c)| **c == Mp::ZERO) {
                return err(
                    format!("terrain.hexside[{i}].road_for_tags.{tag}"),
                    "a road costs at least some MP to cross (5.4.1): 0 would let a unit \
                     move without limit",
                );
            }
        }
        // 8.2.2: a bridge counts as the river-type feature it crosses. One level only:
        // a bridge over itself, over another bridge, or over a feature with no
        // every-attacker test would never apply as the rules mean.
        let mut bridge_of = Vec::new();
        for (i, h) in t.hexside.iter().enumerate() {
            let Some(b) = &h.bridge_over else {
                bridge_of.push(None);
                continue;
            };
            let path = format!("terrain.hexside[{i}].bridge_over");
            let Some(&j) = side_idx.get(b.as_str()) else {
                return err(path, format!("unknown hexside feature '{b}'"));
            };
            if j == i {
                return err(path, format!("'{b}' cannot bridge itself"));
            }
            if t.hexside[j].bridge_over.is_some() {
                return err(
                    path,
                    format!("'{b}' is itself a bridge: a bridge crosses a river-type feature, not another bridge (8.2.2)"),
                );
            }
            if !t.hexside[j].all_attackers {
                return err(
                    path,
                    format!("'{b}' is not a river-type feature (`all_attackers`): a bridge crosses a river or ditch (8.2.2)"),
                );
            }
            bridge_of.push(Some(j));
        }
        // Tags.
        let mut tag_names: Vec<String> = Vec::new();
        let tag_bit = |name: &str, tag_names: &mut Vec<String>| -> Option<usize> {
            if let Some(p) = tag_names.iter().position(|t| t == name) {
                return Some(p);
            }
            if tag_names.len() >= 64 {
                return None;
            }
            tag_names.push(name.to_string());
            Some(tag_names.len() - 1)
        };
        let mut road_tag_costs = Vec::new();
        for (i, h) in t.hexside.iter().enumerate() {
            for (tag, cost) in &h.road_for_tags {
                let Some(b) = tag_bit(tag, &mut tag_names) else {
                    return err(
                        format!("terrain.hexside[{i}].road_for_tags"),
                        "more than 64 tags",
                    );
                };
                road_tag_costs.push((i, b, *cost));
            }
        }
        // Map.
        let m = &data.map;
        let layout = m.layout;
        let mut grid = vec![NO_HEX; 100 * 100];
        if m.hexes.len() >= NO_HEX as usize {
            return err("map.hexes", "too many hexes");
        }
        let mut hexes = Vec::with_capacity(m.hexes.len());
        for (i, h) in m.hexes.iter().enumerate() {
            let g = &mut grid[h.id.col as usize * 100 + h.id.row as usize];
            if *g != NO_HEX {
                return err(
                    format!("map.hexes[{i}].id"),
                    format!("duplicate hex {}", h.id),
                );
            }
            *g = i as u16;
            if h.terrain.is_empty() {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "a hex needs at least one terrain type",
                );
            }
            let mut mask = 0u64;
            let (mut has_cost, mut has_line) = (false, false);
            for name in h.terrain.iter() {
                match hex_terrain_idx.get(name.as_str()) {
                    Some(k) => {
                        mask |= 1 << k;
                        has_cost |= !matches!(t.hex[*k].cost, MoveCost::Plus(_));
                        has_line |= hex_line[*k].is_some();
                    }
                    None => {
                        return err(
                            format!("map.hexes[{i}].terrain"),
                            format!("unknown terrain '{name}'"),
                        );
                    }
                }
            }
            if !has_cost {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "only additive (\"+N\") terrain: a hex needs a base terrain (5.4)",
                );
            }
            if !has_line {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "no terrain with a CRT line (8.2.2)",
                );
            }
            hexes.push(HexInfo {
                hex: h.id,
                terrain: mask,
                neighbors: [NO_HEX; 6],
                sides: [0; 6],
                name: h.name.clone(),
            });
        }
        let idx_of = |h: Hex| -> u16 { grid[h.col as usize * 100 + h.row as usize] };
        for hi in hexes.iter_mut() {
            for (d, n) in layout.neighbors(hi.hex).iter().enumerate() {
                if let Some(n) = n {
                    hi.neighbors[d] = idx_of(*n);
                }
            }
        }
        for (i, s) in m.hexsides.iter().enumerate() {
            let [a, b] = s.hexes;
            let (ia, ib) = (idx_of(a), idx_of(b));
            if ia == NO_HEX || ib == NO_HEX {
                let missing = if ia == NO_HEX { a } else { b };
                return err(
                    format!("map.hexsides[{i}].hexes"),
                    format!("hex {missing} is not on the map"),
                );
            }
            let Some(da) = layout.neighbors(a).iter().position(|n| *n == Some(b)) else {
                return err(
                    format!("map.hexsides[{i}].hexes"),
                    format!("{a} and {b} are not adjacent"),
                );
            };
            let db = layout
                .neighbors(b)
                .iter()
                .position(|n| *n == Some(a))
                .unwrap_or(0);
            let mut mask = 0u64;
            for (j, f) in s.features.iter().enumerate() {
                match side_idx.get(f.as_str()) {
                    Some(k) => mask |= 1 << k,
                    None => {
                        return err(
                            format!("map.hexsides[{i}].features[{j}]"),
                            format!("unknown hexside feature '{f}'"),
                        )
                    }
                }
            }
            hexes[ia as usize].sides[da] |= mask;
            hexes[ib as usize].sides[db] |= mask;
        }
        let mut edge_distance = SidePair::new(Vec::new(), Vec::new());
        for side in Side::BOTH {
            let edge = m.friendly_edges.get(side);
            for (j, h) in edge.iter().enumerate() {
                if idx_of(*h) == NO_HEX {
                    return err(
                        format!("map.friendly_edges.{side}[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
            }
            let d: Vec<u32> = hexes
                .iter()
                .map(|hi| {
                    edge.iter()
                        .map(|e| layout.distance(hi.hex, *e))
                        .min()
                        .unwrap_or(0)
                })
                .collect();
            *edge_distance.get_mut(side) = d;
        }
        // Set-up zones.
        let mut zones = BTreeMap::new();
        for (name, hs) in &data.setup.zones {
            // 3.0(b): units are placed in a zone's hexes, so an empty zone, or one
            // that lists a hex twice (counting it twice in `playable`'s room check),
            // is a mistake.
            if hs.is_empty() {
                return err(format!("setup.zones.{name}"), "the zone has no hexes");
            }
            let mut v = Vec::new();
            let mut listed = HashSet::new();
            for (j, h) in hs.iter().enumerate() {
                let i = idx_of(*h);
                if i == NO_HEX {
                    return err(
                        format!("setup.zones.{name}[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
                if !listed.insert(i) {
                    return err(
                        format!("setup.zones.{name}[{j}]"),
                        format!("hex {h} is listed twice"),
                    );
                }
                v.push(i);
            }
            zones.insert(name.clone(), v);
        }
        // Units.
        let mut unit_ids = HashMap::new();
        let mut units = Vec::new();
        if data.units.len() >= u16::MAX as usize {
            return err("units", "too many units");
        }
        let mut placed: HashMap<Hex, usize> = HashMap::new();
        for (i, u) in data.units.iter().enumerate() {
            let p = format!("units[{i}]");
            if u.id.as_str().is_empty() {
                return err(format!("{p}.id"), "empty id");
            }
            if unit_ids.insert(u.id.clone(), i as u16).is_some() {
                return err(format!("{p}.id"), format!("duplicate unit id '{}'", u.id));
            }
            if u.steps.is_empty() || u.steps.len() > 3 {
                return err(
                    format!("{p}.steps"),
                    format!("{} steps; a unit has 1 to 3", u.steps.len()),
                );
            }
            if u.start_depleted as usize >= u.steps.len() {
                return err(
                    format!("{p}.start_depleted"),
                    format!(
                        "{} steps lost leaves nothing of a {}-step unit",
                        u.start_depleted,
                        u.steps.len()
                    ),
                );
            }
            let mut tags = 0u64;
            for (j, tg) in u.tags.iter().enumerate() {
                match tag_bit(tg, &mut tag_names) {
                    Some(b) => tags |= 1 << b,
                    None => return err(format!("{p}.tags[{j}]"), "more than 64 distinct tags"),
                }
            }
            match &u.start {
                StartData::Hex(h) => {
                    if idx_of(*h) == NO_HEX {
                        return err(
                            format!("{p}.start.hex"),
                            format!("hex {h} is not on the map"),
                        );
                    }
                    // Suez 1916 17.1: friendly stacks (the limits bind at the end of
                    // each phase of play).
                    let stacks = matches!(data.rules, RuleSet::Suez1916(_));
                    if let Some(o) = placed
                        .insert(*h, i)
                        .filter(|&o| !stacks || data.units[o].side != u.side)
                    {
                        return err(
                            format!("{p}.start.hex"),
                            format!(
                                "hex {h} already holds '{}' (5.3: units cannot stack)",
                                data.units[o].id
                            ),
                        );
                    }
                }
                StartData::Zone(z) => {
                    if !zones.contains_key(z) {
                        return err(
                            format!("{p}.start.zone"),
                            format!("unknown set-up zone '{z}'"),
                        );
                    }
                }
                StartData::Reinforcement { turn, entry } => {
                    if *turn == 0 || *turn as usize > data.turns.len() {
                        return err(
                            format!("{p}.start.reinforcement.turn"),
                            format!("turn {turn} is not on the turn track"),
                        );
                    }
                    if entry.is_empty() {
                        return err(format!("{p}.start.reinforcement.entry"), "no entry hexes");
                    }
                    for (j, h) in entry.iter().enumerate() {
                        if idx_of(*h) == NO_HEX {
                            return err(
                                format!("{p}.start.reinforcement.entry[{j}]"),
                                format!("hex {h} is not on the map"),
                            );
                        }
                    }
                }
                StartData::OffMap => {}
            }
            let commando = u.tags.iter().any(|t| t == "commando");
            units.push(UnitDef {
                data: u.clone(),
                tags,
                commando,
            });
        }
        check_setup_order(&data)?;
        // Turn track and start.
        if data.turns.is_empty() {
            return err("turns", "the turn track is empty");
        }
        if data.start.turn == 0 || data.start.turn as usize > data.turns.len() {
            return err(
                "start.turn",
                format!("turn {} is not on the turn track", data.start.turn),
            );
        }
        if !Phase::PLAYER_TURN.contains(&data.start.phase) {
            return err(
                "start.phase",
                format!("play cannot start in the {}", data.start.phase),
            );
        }
        for (i, p) in data.skip_phases.iter().enumerate() {
            if !Phase::PLAYER_TURN.contains(p) || *p == Phase::Movement {
                return err(
                    format!("skip_phases[{i}]"),
                    format!("the {p} cannot be skipped"),
                );
            }
        }
        for (i, cnd) in data.victory.conditions.iter().enumerate() {
            let hs: &[Hex] = match cnd {
                VictoryCondition::HoldAtEnd { hexes, count, .. } => {
                    if *count as usize > hexes.len() || *count == 0 {
                        return err(
                            format!("victory.conditions[{i}].count"),
                            format!("{count} of {} hexes", hexes.len()),
                        );
                    }
                    hexes
                }
                VictoryCondition::EnterHex { hexes, .. } => hexes,
                VictoryCondition::Annihilation { .. } => &[],
            };
            for (j, h) in hs.iter().enumerate() {
                if idx_of(*h) == NO_HEX {
                    return err(
                        format!("victory.conditions[{i}].hexes[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
            }
        }
        let crt = Crt {
            provenance: c.provenance.clone(),
            grid: c.grid.clone(),
            lines: crt_lines,
        };
        let id_list = units.iter().map(|u| u.data.id.clone()).collect();
        let mut sc = Scenario {
            hexes,
            units,
            crt,
            hex_line,
            side_line,
            bridge_of,
            tag_names,
            road_tag_costs,
            edge_distance,
            zones,
            grid,
            id_list,
            unit_ids,
            data,
            objectives: Vec::new(),
            rules: crate::fm::games::Rules::System(crate::fm::exclusive::SystemRules),
            masks: TerrainMasks::default(),
            max_path: 0,
            move_table: Default::default(),
            zone_sorted: BTreeMap::new(),
            hex_zones: Vec::new(),
            unit_zone: Vec::new(),
            sight: Default::default(),
        };
        let bits = |f: &dyn Fn(usize) -> bool, n: usize| {
            (0..n).filter(|i| f(*i)).fold(0u64, |m, i| m | 1 << i)
        };
        let th = &sc.data.terrain.hex;
        let ts = &sc.data.terrain.hexside;
        sc.masks = TerrainMasks {
            fortification: bits(&|i| th[i].fortification, th.len()),
            zoc_block_hex: bits(&|i| th[i].blocks_zoc, th.len()),
            zoc_block_side: bits(&|i| ts[i].blocks_zoc, ts.len()),
            minefield: bits(&|i| ts[i].minefield, ts.len()),
            ..TerrainMasks::default()
        };
        // The game's exclusive rules: their parameters and terrain sets.
        sc.rules = crate::fm::games::rules_for(&sc.data.rules);
        let rules = sc.rules;
        rules.prepare(&mut sc)?;
        sc.objectives = sc.objective_hexes();
        sc.max_path = sc.longest_move();
        sc.move_table = crate::fm::movement::MoveTable::build(&sc);
        sc.sight = crate::fm::los::SightCache::new(sc.hexes.len());
        sc.zone_sorted = sc
            .zones
            .iter()
            .map(|(z, v)| {
                let mut v = v.clone();
                v.sort_unstable();
                (z.clone(), v)
            })
            .collect();
        if sc.zones.len() <= 64 {
            let mut hz = vec![0u64; sc.hexes.len()];
            for (k, hexes) in sc.zones.values().enumerate() {
                for &h in hexes {
                    hz[h as usize] |= 1 << k;
                }
            }
            sc.hex_zones = hz;
            let bits: BTreeMap<&str, u64> = sc
                .zones
                .keys()
                .enumerate()
                .map(|(k, z)| (z.as_str(), 1u64 << k))
                .collect();
            sc.unit_zone = sc
                .units
                .iter()
                .map(|u| match &u.data.start {
                    StartData::Zone(z) => bits.get(z.as_str()).copied().unwrap_or(0),
                    _ => 0,
                })
                .collect();
        }
        crate::fm::playable::check(&sc)?;
        Ok(sc)
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
    fn longest_move(&self) -> usize {
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
