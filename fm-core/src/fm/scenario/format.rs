//! The JSON form of a scenario: [`ScenarioData`] and its parts, plain serde types that
//! are not necessarily valid (the map and its terrain, 2.0; the CRT, 8.2; units, turns,
//! set-up, 3.0; victory), and their reading with the JSON path of any error.

use super::*;
use crate::fm::crt::CrtResult;
use crate::fm::hex::{Hex, Layout};
use crate::fm::mp::Mp;
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

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
