//! The JSON form of a scenario (pages 2-22): [`ScenarioData`] and its parts, plain serde
//! types in which every object refuses unknown fields, lengths are whole millimetres and
//! points `[x_mm, y_mm]`; and [`from_json_value`], whose errors name the JSON path.
//! docs/huzzah.md ("Scenario format") documents every field.

use super::kinds::{BaseKind, Formation, OfficerQuality, OfficerRank, TerrainKind, UnitOrder};
use super::standin::MissingRules;
use crate::error::ScenarioError;
use crate::huzzah::quality::{ExpectedQuality, Quality, QualityTableData};
use crate::ids::{Side, SidePair, UnitId};
use serde::de::IntoDeserializer;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A point on the table as written in JSON: `[x_mm, y_mm]`.
pub type MmPoint = [i32; 2];

/// A Huzzah! scenario as written in JSON (without its `"system"`), not yet validated.
/// docs/huzzah.md documents every field.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioData {
    /// Unique id (`"huzzah-firefight"`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// What is invented and what the printed game would replace.
    pub provenance: String,
    /// The table's size.
    pub table: TableData,
    /// A base's side in mm, 10 to 100 (page 2: 40 for 15mm figures).
    pub base_mm: u32,
    /// Number of turns, 1 to 100.
    pub turns: u16,
    /// Encounter, or a battle with a designated defender (page 7).
    pub battle: BattleKind,
    /// The defender: required for a defended battle, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender: Option<Side>,
    /// How units are placed (page 7).
    pub setup: Setup,
    /// The side that places first and acts first; `None` (null or absent): a roll-off
    /// (page 7).
    #[serde(default)]
    pub first: Option<Side>,
    /// Ground and weather from given turns on (page 10); empty: normal and fair.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionsData>,
    /// Movement rates; absent: the stand-in table ([`MovementData::stand_in`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MovementData>,
    /// A Unit Quality Table replacing the stand-in ([`QualityTable::stand_in`]).
    ///
    /// [`QualityTable::stand_in`]: crate::huzzah::quality::QualityTable::stand_in
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality_table: Option<QualityTableData>,
    /// How the rules our copy lacks (melee, rally, officer movement) are answered:
    /// `"decide"` (default: the players or an umpire give each outcome as a command) or
    /// `"stand_in"` (the engine's labelled stand-in rules answer them).
    #[serde(default, skip_serializing_if = "MissingRules::is_decide")]
    pub missing_rules: MissingRules,
    /// Terrain pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainData>,
    /// Objectives (page 7: "Scenarios will also have specific objectives"); at most 32.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<ObjectiveData>,
    /// How the battle is won: a STAND-IN (pages 1-22 print no victory rules); absent:
    /// the engine's own stand-in (docs/rulings.md, R-HZ-vic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<VictoryData>,
    /// The two armies, `{"a": …, "b": …}`.
    #[serde(deserialize_with = "strict_pair")]
    pub sides: SidePair<SideData>,
    /// Where a battle that starts mid-way begins (turn, phase, and what the order of
    /// battle cannot say); absent: at the set-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<super::start::StartData>,
}

/// [`SidePair`] read refusing any key but `a` and `b`.
fn strict_pair<'de, D, T>(d: D) -> Result<SidePair<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Pair<T> {
        a: T,
        b: T,
    }
    let p = Pair::<T>::deserialize(d)?;
    Ok(SidePair::new(p.a, p.b))
}

/// The table's size in mm, each way 100 to 10,000.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableData {
    /// Along side A's edge (x).
    pub width_mm: u32,
    /// From side A's edge to side B's (y).
    pub depth_mm: u32,
}

/// The kind of battle (page 7), which sets the armies' minimum distance at set-up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    /// An encounter: set up no closer than 80 cm.
    Encounter,
    /// A battle with a designated defender: set up no closer than 60 cm.
    Defended,
}

/// How the armies are placed (page 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setup {
    /// Units start at their given positions.
    Placed,
    /// The page 7 placement rolls: players place units a few at a time; each unit still
    /// carries the position it will be placed at.
    Alternate,
}

/// Ground conditions (page 10).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    /// Neither soft nor hard.
    Normal,
    /// Mud or heavy snow: -1 to the Artillery Factor.
    Soft,
    /// Sun-baked earth: +1 to the Artillery Factor.
    Hard,
}

/// Weather (page 10).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    /// Not foul.
    Fair,
    /// Dense fog, heavy snow or heavy rain.
    Foul,
}

impl Weather {
    /// Foul weather.
    pub fn is_foul(self) -> bool {
        self == Weather::Foul
    }
}

/// Ground and weather from a turn on (page 10: "weather conditions change after a
/// certain number of turns").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionsData {
    /// The first turn these conditions hold.
    pub turn: u16,
    /// Ground conditions.
    pub ground: Ground,
    /// Weather.
    pub weather: Weather,
}

/// One row of the movement table (page 20), mm per move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatesData {
    /// In line of battle.
    pub line: u32,
    /// In open order.
    pub open: u32,
    /// In road column.
    pub column: u32,
}

/// The movement table (page 20) as written in JSON, every rate in mm per move.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementData {
    /// Where the values come from ("printed", or "stand-in: …").
    pub provenance: String,
    /// Infantry (also infantry with divisional artillery).
    pub infantry: RatesData,
    /// Cavalry.
    pub cavalry: RatesData,
    /// Reserve (foot) artillery.
    pub reserve_artillery: RatesData,
    /// Reserve heavy artillery.
    pub reserve_heavy_artillery: RatesData,
    /// Reserve horse artillery.
    pub reserve_horse_artillery: RatesData,
    /// Officers (60 cm is printed).
    pub officers: u32,
}

/// A terrain piece as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    /// Unique id among terrain pieces; no `/` (sectors are named `"<id>/<n>"`).
    pub id: String,
    /// Its kind.
    pub kind: TerrainKind,
    /// Its outline, at least 3 points, non-zero area.
    pub polygon: Vec<MmPoint>,
    /// Dense kinds only: the sectors (page 22), each a polygon inside the outline;
    /// absent: one sector, the whole outline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sectors: Option<Vec<Vec<MmPoint>>>,
}

/// An objective as written in JSON: a point of the table that scores for the side
/// holding it. Pages 1-22 say only that "Scenarios will also have specific objectives"
/// (page 7) and that pick-up maps contain "objectives that score points" (page 8); how
/// one is held is the stand-in reading of docs/huzzah.md ("Objectives and victory").
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveData {
    /// Unique id among objectives; no `/`.
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its centre, `[x_mm, y_mm]`, on the table.
    pub at: MmPoint,
    /// Its radius in mm, 10 to 1,000.
    pub radius_mm: u32,
    /// The points it scores, 1 to 20.
    pub points: u8,
}

/// The scenario's victory conditions: a STAND-IN, since pages 1-22 leave victory to
/// scenarios and do not say how. To be scored as docs/huzzah.md ("Objectives and
/// victory") describes: after the last turn each side scores the points of the
/// objectives it holds (if `objective_points`) plus `base_points` for each enemy base
/// lost.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryData {
    /// What is invented and what the printed game would replace ("stand-in: …").
    pub provenance: String,
    /// Each side scores the points of the objectives it holds at the end.
    pub objective_points: bool,
    /// Points a side scores for each enemy base lost, 0 to 20.
    pub base_points: u8,
}

/// An officer as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfficerData {
    /// Unique id across both sides.
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Rank.
    pub rank: OfficerRank,
    /// Quality (Command Factor and radius).
    pub quality: OfficerQuality,
    /// Inspirational (pages 14, 17, 21).
    #[serde(default, skip_serializing_if = "is_false")]
    pub inspirational: bool,
    /// Starts leading a charmed life: his next saving throw succeeds (page 15).
    #[serde(default, skip_serializing_if = "is_false")]
    pub charmed: bool,
    /// Where the officer stands; absent: placed at set-up (page 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<MmPoint>,
}

/// A corps as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsData {
    /// Unique id across both sides.
    pub id: String,
    /// Its officer, of rank corps.
    pub officer: String,
}

/// A division as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DivisionData {
    /// Unique id across both sides.
    pub id: String,
    /// Its officer, of rank division.
    pub officer: String,
    /// Its corps: required if the side lists corps, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corps: Option<String>,
}

/// An army as written in JSON.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideData {
    /// Display name ("French").
    pub name: String,
    /// Skirmish Factor, 6 to 10 (page 9).
    pub skirmish_factor: u8,
    /// Artillery Factor, 6 to 10 (page 10).
    pub artillery_factor: u8,
    /// Officers: exactly one CinC, then corps and division officers.
    pub officers: Vec<OfficerData>,
    /// Corps; empty (or absent): a single corps commanded by the CinC (page 16).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corps: Vec<CorpsData>,
    /// Divisions.
    pub divisions: Vec<DivisionData>,
    /// Units.
    pub units: Vec<UnitData>,
}

/// One base of a unit. In JSON either the kind alone (`"infantry"`) or an object
/// `{"kind": "foot_artillery", "expected": "elites_d"}` (a per-base expected quality,
/// reserve artillery only: grand batteries of mixed quality, page 6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BaseData {
    /// The kind.
    pub kind: BaseKind,
    /// This base's expected quality, when it differs from its unit's.
    pub expected: Option<ExpectedQuality>,
}

impl Serialize for BaseData {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Named {
            kind: BaseKind,
            expected: ExpectedQuality,
        }
        match self.expected {
            None => self.kind.serialize(s),
            Some(expected) => Named {
                kind: self.kind,
                expected,
            }
            .serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for BaseData {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Named {
            kind: BaseKind,
            #[serde(default)]
            expected: Option<ExpectedQuality>,
        }
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = BaseData;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"a base kind ("infantry") or an object {"kind", "expected"}"#)
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<BaseData, E> {
                let kind = BaseKind::deserialize(s.into_deserializer())?;
                Ok(BaseData {
                    kind,
                    expected: None,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<BaseData, A::Error> {
                let n = Named::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(BaseData {
                    kind: n.kind,
                    expected: n.expected,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// A unit as written in JSON.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitData {
    /// Unique id across both sides.
    pub id: UnitId,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its division (of its side).
    pub division: String,
    /// Its bases, 1 to 24 (page 3's composition rules).
    pub bases: Vec<BaseData>,
    /// Its expected quality (page 4).
    pub expected: ExpectedQuality,
    /// Its quality, when fixed by the scenario; absent: rolled when first needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<Quality>,
    /// Troop type; default close.
    #[serde(default, skip_serializing_if = "is_close")]
    pub order: UnitOrder,
    /// Renowned (Army Lists; pages 14, 17, 19).
    #[serde(default, skip_serializing_if = "is_false")]
    pub renowned: bool,
    /// Hesitant (pages 17, 21).
    #[serde(default, skip_serializing_if = "is_false")]
    pub hesitant: bool,
    /// Impulsive (pages 20, 21).
    #[serde(default, skip_serializing_if = "is_false")]
    pub impulsive: bool,
    /// Has the Grognards ability (page 4).
    #[serde(default, skip_serializing_if = "is_false")]
    pub grognards: bool,
    /// Has the Disciplined ability (page 5; needs Grognards).
    #[serde(default, skip_serializing_if = "is_false")]
    pub disciplined: bool,
    /// Formation.
    pub formation: Formation,
    /// Bases per rank, front rank first; they sum to the number of bases.
    pub ranks: Vec<u8>,
    /// The anchor: centre of the front edge of the front rank, `[x_mm, y_mm]`.
    pub position: MmPoint,
    /// Facing in degrees clockwise from +y, 0 to 359.
    pub facing: u16,
    /// The dense terrain sector it is deployed in, `"<terrain id>/<sector index>"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sector: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_close(o: &UnitOrder) -> bool {
    *o == UnitOrder::Close
}

/// Parses scenario JSON (already a value, without its `"system"`) into
/// [`ScenarioData`], not yet validated (see [`validate`]). Errors name the JSON path:
/// `sides.a.units[3].facing: missing field` rather than a column of a one-line file.
///
/// # Errors
/// A [`ScenarioError`] with the JSON path and serde's message.
///
/// [`validate`]: super::validate
pub fn from_json_value(v: serde_json::Value) -> Result<ScenarioData, ScenarioError> {
    serde_path_to_error::deserialize(v).map_err(path_error)
}

/// A serde error with its path; a missing field's path ends in the field's name.
fn path_error<E: fmt::Display>(e: serde_path_to_error::Error<E>) -> ScenarioError {
    let mut path = e.path().to_string();
    if let Some(q) = path.find('?') {
        path.truncate(q);
    }
    while path.ends_with('.') {
        path.pop();
    }
    if path == "." {
        path.clear();
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
