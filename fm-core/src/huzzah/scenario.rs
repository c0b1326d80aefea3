//! Forces, officers, terrain and conditions (pages 2-22), validated at load.
//!
//! Scenario JSON (the match layer removes its `"system": "huzzah"` first) is read into
//! [`ScenarioData`] by [`from_json_value`]: plain serde types, every object refusing
//! unknown fields, lengths in whole millimetres, points `[x_mm, y_mm]`. It becomes a
//! [`Scenario`] only through [`validate`], which checks the rules listed in
//! docs/huzzah.md ("Scenario format") and names the JSON path of the first problem
//! (`sides.b.units[0].bases[2]`), the offending value and the page of the rules.
//!
//! A [`Scenario`] holds lengths as [`Len`] (tenths of a millimetre), positions as
//! [`Point`] and facings as [`Facing`]; its officers, corps, divisions and units are
//! flat tables (side A's first) indexed by [`OfficerIx`], [`CorpsIx`], [`DivisionIx`]
//! and [`UnitIx`], each entry keeping its string id for JSON and events.
//!
//! ```
//! use fm_core::huzzah::scenario::{from_json_value, validate, Arm};
//! use fm_core::Side;
//! let mut v: serde_json::Value =
//!     serde_json::from_str(include_str!("../../scenarios/huzzah-firefight.json")).unwrap();
//! v.as_object_mut().unwrap().remove("system"); // what the match layer does
//! let sc = validate(from_json_value(v).unwrap()).unwrap();
//! let gun = sc.unit(sc.unit_index("fr-guns").unwrap());
//! assert_eq!((gun.side, gun.arm), (Side::A, Arm::Artillery));
//! ```

use super::geometry::{Facing, Len, Point};
use super::quality::{ExpectedQuality, FireArm, Quality, QualityTable, QualityTableData};
use crate::error::ScenarioError;
use crate::ids::{Side, SidePair, UnitId};
use serde::de::IntoDeserializer;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::RangeInclusive;

// ---------------------------------------------------------------------------------------
// Limits. Every query's cost grows with the scenario; these sit well above any
// historical Huzzah! battle (page 8 suggests about 12 units a player).

/// Most units a side may have.
pub const MAX_UNITS_PER_SIDE: usize = 200;
/// Most officers a side may have (also bounds its corps and divisions: each has its own
/// officer).
pub const MAX_OFFICERS_PER_SIDE: usize = 100;
/// Most bases a unit may have.
pub const MAX_BASES_PER_UNIT: usize = 24;
/// Most terrain pieces on the table.
pub const MAX_TERRAIN: usize = 200;
/// Most points in a polygon (a terrain piece's outline, or one of its sectors).
pub const MAX_POLYGON_POINTS: usize = 256;
/// Most sectors a dense terrain piece may have.
pub const MAX_SECTORS: usize = 64;
/// The table's width and depth, in mm.
pub const TABLE_MM: RangeInclusive<u32> = 100..=10_000;
/// A base's side, in mm (page 2 recommends 40 mm for 15mm figures).
pub const BASE_MM: RangeInclusive<u32> = 10..=100;
/// The number of turns a scenario may have.
pub const TURNS: RangeInclusive<u16> = 1..=100;
/// A movement rate, in mm per move.
pub const MOVE_RATE_MM: RangeInclusive<u32> = 10..=2000;
/// A Skirmish Factor (page 9) or Artillery Factor (page 10).
pub const ARMY_FACTOR: RangeInclusive<u8> = 6..=10;
/// Most objectives a scenario may have.
pub const MAX_OBJECTIVES: usize = 32;
/// An objective's radius, in mm.
pub const OBJECTIVE_RADIUS_MM: RangeInclusive<u32> = 10..=1000;
/// The points an objective scores.
pub const OBJECTIVE_POINTS: RangeInclusive<u8> = 1..=20;
/// The points the stand-in victory scores for each enemy base lost.
pub const BASE_POINTS: RangeInclusive<u8> = 0..=20;

/// The infantry's weapon range (page 11), also for infantry with divisional artillery.
pub const INFANTRY_RANGE: Len = Len::cm(20);
/// Reserve foot and reserve horse artillery's range (page 11).
pub const FIELD_ARTILLERY_RANGE: Len = Len::cm(60);
/// Reserve heavy artillery's range (page 11; also "out of range", page 19).
pub const HEAVY_ARTILLERY_RANGE: Len = Len::cm(80);

// ---------------------------------------------------------------------------------------
// The JSON form.

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

/// The stand-in movement table's JSON (docs/huzzah.md prints it).
const MOVEMENT_STAND_IN_JSON: &str = include_str!("movement_table.json");

impl MovementData {
    /// The stand-in movement table used when a scenario gives none: the printed table
    /// lost its numbers in our copy; infantry in line 20 cm follows from page 19,
    /// officers 60 cm is printed, the rest are invented (see its provenance).
    pub fn stand_in() -> MovementData {
        serde_json::from_str(MOVEMENT_STAND_IN_JSON)
            .expect("the shipped stand-in movement table parses (tested)")
    }

    fn validate(&self, path: &str) -> Result<MovementTable, ScenarioError> {
        nonempty(&self.provenance, format!("{path}.provenance"))?;
        let rows = [
            ("infantry", self.infantry),
            ("cavalry", self.cavalry),
            ("reserve_artillery", self.reserve_artillery),
            ("reserve_heavy_artillery", self.reserve_heavy_artillery),
            ("reserve_horse_artillery", self.reserve_horse_artillery),
        ];
        let mut rates = [[Len::ZERO; 3]; 5];
        for (i, (name, r)) in rows.iter().enumerate() {
            for (j, (col, v)) in [("line", r.line), ("open", r.open), ("column", r.column)]
                .into_iter()
                .enumerate()
            {
                rates[i][j] = move_rate(v, format!("{path}.{name}.{col}"))?;
            }
        }
        Ok(MovementTable {
            rates,
            officers: move_rate(self.officers, format!("{path}.officers"))?,
            provenance: self.provenance.clone(),
        })
    }
}

fn move_rate(v: u32, path: String) -> Result<Len, ScenarioError> {
    if !MOVE_RATE_MM.contains(&v) {
        return err(
            path,
            format!(
                "{v} mm: a movement rate is {} to {} mm a move",
                MOVE_RATE_MM.start(),
                MOVE_RATE_MM.end()
            ),
        );
    }
    Ok(Len::mm(i64::from(v)))
}

/// A kind of terrain piece (pages 12, 14, 19).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// Woods: dense, soft cover.
    Woods,
    /// Buildings: dense, hard cover.
    Buildings,
    /// A hedge: soft cover.
    Hedge,
    /// An orchard: soft cover.
    Orchard,
    /// A wall: hard cover.
    Wall,
    /// A strongpoint (page 14's force-back reduction).
    Strongpoint,
}

/// Cover a terrain piece gives (pages 12 and 14).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// Hedges, orchards, woods.
    Soft,
    /// Walls, buildings.
    Hard,
    /// A strongpoint.
    Strongpoint,
}

impl Cover {
    /// How much a force back is reduced (page 14): 5 cm in soft cover, 10 cm in hard
    /// cover, 15 cm in a strongpoint.
    pub const fn force_back_reduction(self) -> Len {
        match self {
            Cover::Soft => Len::cm(5),
            Cover::Hard => Len::cm(10),
            Cover::Strongpoint => Len::cm(15),
        }
    }
}

impl TerrainKind {
    /// Dense terrain (page 19: "Woods and buildings are dense terrain"): held in sectors,
    /// one unit a sector (page 22).
    pub const fn is_dense(self) -> bool {
        matches!(self, TerrainKind::Woods | TerrainKind::Buildings)
    }

    /// The cover it gives (pages 12, 14, 19): woods, hedges and orchards soft; buildings
    /// and walls hard; a strongpoint its own. `Option` for the kinds the missing
    /// terrain pages may add (every present kind gives cover).
    pub const fn cover(self) -> Option<Cover> {
        Some(match self {
            TerrainKind::Woods | TerrainKind::Hedge | TerrainKind::Orchard => Cover::Soft,
            TerrainKind::Buildings | TerrainKind::Wall => Cover::Hard,
            TerrainKind::Strongpoint => Cover::Strongpoint,
        })
    }
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

/// An officer's rank (page 16).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfficerRank {
    /// The army's commander-in-chief.
    Cinc,
    /// A corps officer (armies of two or more corps).
    Corps,
    /// A division officer.
    Division,
}

/// An officer's quality (page 16).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfficerQuality {
    /// Command Factor 10, radius 60 cm.
    Excellent,
    /// Command Factor 9, radius 50 cm.
    Skilful,
    /// Command Factor 8, radius 40 cm.
    Average,
    /// Command Factor 7, radius 30 cm.
    Poor,
    /// Command Factor 6, radius 20 cm.
    Abysmal,
}

impl OfficerQuality {
    /// The Command Factor (page 16): 10, 9, 8, 7, 6 from Excellent to Abysmal.
    pub const fn command_factor(self) -> u8 {
        match self {
            OfficerQuality::Excellent => 10,
            OfficerQuality::Skilful => 9,
            OfficerQuality::Average => 8,
            OfficerQuality::Poor => 7,
            OfficerQuality::Abysmal => 6,
        }
    }

    /// The command radius (page 16): 60, 50, 40, 30, 20 cm from Excellent to Abysmal,
    /// measured from the centre of the officer's base (page 19).
    pub const fn radius(self) -> Len {
        Len::cm(match self {
            OfficerQuality::Excellent => 60,
            OfficerQuality::Skilful => 50,
            OfficerQuality::Average => 40,
            OfficerQuality::Poor => 30,
            OfficerQuality::Abysmal => 20,
        })
    }
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

/// A kind of base (page 2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseKind {
    /// Infantry: 3 hits.
    Infantry,
    /// Irregular infantry (Ottoman infantry): 2 hits.
    IrregularInfantry,
    /// Battle cavalry: 3 hits.
    BattleCavalry,
    /// Other cavalry (Cossacks among them): 2 hits.
    OtherCavalry,
    /// Divisional artillery, attached to an infantry unit: 3 hits.
    DivisionalArtillery,
    /// Reserve foot artillery: 4 hits, 60 cm range.
    FootArtillery,
    /// Reserve horse artillery: 4 hits, 60 cm range.
    HorseArtillery,
    /// Reserve heavy artillery: 4 hits, 80 cm range.
    HeavyArtillery,
}

impl BaseKind {
    /// Hits per base (page 2): infantry 3, irregular infantry 2, battle cavalry 3, other
    /// cavalry 2, (reserve) artillery 4, divisional artillery 3.
    pub const fn hits(self) -> u8 {
        match self {
            BaseKind::Infantry | BaseKind::BattleCavalry | BaseKind::DivisionalArtillery => 3,
            BaseKind::IrregularInfantry | BaseKind::OtherCavalry => 2,
            BaseKind::FootArtillery | BaseKind::HorseArtillery | BaseKind::HeavyArtillery => 4,
        }
    }

    /// The arm of a unit made of such bases; divisional artillery belongs to an
    /// infantry unit (page 3).
    pub const fn arm(self) -> Arm {
        match self {
            BaseKind::Infantry | BaseKind::IrregularInfantry | BaseKind::DivisionalArtillery => {
                Arm::Infantry
            }
            BaseKind::BattleCavalry | BaseKind::OtherCavalry => Arm::Cavalry,
            BaseKind::FootArtillery | BaseKind::HorseArtillery | BaseKind::HeavyArtillery => {
                Arm::Artillery
            }
        }
    }

    /// A base of infantry (not its divisional artillery): what a skirmish line takes
    /// (page 22).
    pub const fn is_infantry_base(self) -> bool {
        matches!(self, BaseKind::Infantry | BaseKind::IrregularInfantry)
    }

    /// Reserve artillery (foot, horse or heavy): the only artillery that fires and forms
    /// grand batteries (page 3).
    pub const fn is_reserve_artillery(self) -> bool {
        matches!(
            self,
            BaseKind::FootArtillery | BaseKind::HorseArtillery | BaseKind::HeavyArtillery
        )
    }

    /// The range of a reserve artillery base (page 11): foot and horse 60 cm, heavy
    /// 80 cm; `None` for other bases.
    pub const fn reserve_range(self) -> Option<Len> {
        match self {
            BaseKind::FootArtillery | BaseKind::HorseArtillery => Some(FIELD_ARTILLERY_RANGE),
            BaseKind::HeavyArtillery => Some(HEAVY_ARTILLERY_RANGE),
            _ => None,
        }
    }

    /// The row of the movement table the base moves by; divisional artillery moves with
    /// its infantry.
    pub const fn move_arm(self) -> MoveArm {
        match self {
            BaseKind::Infantry | BaseKind::IrregularInfantry | BaseKind::DivisionalArtillery => {
                MoveArm::Infantry
            }
            BaseKind::BattleCavalry | BaseKind::OtherCavalry => MoveArm::Cavalry,
            BaseKind::FootArtillery => MoveArm::ReserveArtillery,
            BaseKind::HeavyArtillery => MoveArm::ReserveHeavyArtillery,
            BaseKind::HorseArtillery => MoveArm::ReserveHorseArtillery,
        }
    }
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

/// A unit's troop type for the benefits of its type (page 6; pages 9 and 22 for the
/// skirmish abilities).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitOrder {
    /// Close order, the default (page 6).
    #[default]
    Close,
    /// Irregular troops (Cossacks, Ottoman infantry): always in open order (page 20).
    Irregular,
    /// Skirmish infantry: may deploy any of its bases into the skirmish line (page 22).
    Skirmish,
    /// Skirmish (Limited): may deploy one base into the skirmish line (page 22).
    SkirmishLimited,
}

/// A unit's formation (pages 20-22).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Line of battle, in one or more ranks.
    Line,
    /// Road column: one base wide.
    Column,
    /// Square (infantry only; cannot move).
    Square,
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

// ---------------------------------------------------------------------------------------
// The validated form.

/// A unit's index in [`Scenario::units`] (side A's units first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitIx(pub u16);

/// An officer's index in [`Scenario::officers`] (side A's first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OfficerIx(pub u16);

/// A division's index in [`Scenario::divisions`] (side A's first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DivisionIx(pub u16);

/// A corps' index in [`Scenario::corps_list`] (side A's first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CorpsIx(pub u16);

/// A terrain piece's index in [`Scenario::terrain`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TerrainIx(pub u16);

macro_rules! index_of {
    ($($t:ty),*) => {$(
        impl $t {
            /// The index as a `usize`.
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}
index_of!(UnitIx, OfficerIx, DivisionIx, CorpsIx, TerrainIx);

/// One sector of a dense terrain piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct SectorRef {
    /// The piece.
    pub terrain: TerrainIx,
    /// The sector's index in the piece's [`Terrain::sectors`].
    pub sector: u16,
}

/// The kind of battle, with its defender (page 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Battle {
    /// An encounter.
    Encounter,
    /// A battle with a designated defender.
    Defended {
        /// The defender.
        defender: Side,
    },
}

impl Battle {
    /// How close the armies may set up (page 7): 80 cm for an encounter, 60 cm with a
    /// designated defender.
    pub const fn min_setup_distance(self) -> Len {
        match self {
            Battle::Encounter => Len::cm(80),
            Battle::Defended { .. } => Len::cm(60),
        }
    }
}

/// The table's size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct TableSize {
    /// Along side A's edge (x from 0 to this).
    pub width: Len,
    /// From side A's edge to side B's (y from 0 to this).
    pub depth: Len,
}

/// A unit's arm (page 3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Infantry, with or without one base of divisional artillery.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Reserve artillery: a single base, or a grand battery of two or more.
    Artillery,
}

impl Arm {
    /// Which fire factor the arm uses (page 11); `None` for cavalry, which cannot fire.
    pub const fn fire_arm(self) -> Option<FireArm> {
        match self {
            Arm::Infantry => Some(FireArm::Infantry),
            Arm::Artillery => Some(FireArm::Artillery),
            Arm::Cavalry => None,
        }
    }
}

/// A row of the movement table (page 20).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveArm {
    /// Infantry.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Reserve (foot) artillery.
    ReserveArtillery,
    /// Reserve heavy artillery.
    ReserveHeavyArtillery,
    /// Reserve horse artillery.
    ReserveHorseArtillery,
}

/// A column of the movement table (page 20).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveFormation {
    /// Line of battle.
    Line,
    /// Open order (irregular troops are always in open order, page 20).
    Open,
    /// Road column.
    Column,
}

/// The validated movement table.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MovementTable {
    rates: [[Len; 3]; 5],
    officers: Len,
    provenance: String,
}

impl MovementTable {
    /// The rate of one arm in one formation.
    pub fn rate(&self, arm: MoveArm, f: MoveFormation) -> Len {
        self.rates[arm as usize][f as usize]
    }

    /// Officers' movement (page 20: 60 cm printed).
    pub fn officers(&self) -> Len {
        self.officers
    }

    /// Where the values come from.
    pub fn provenance(&self) -> &str {
        &self.provenance
    }
}

/// A validated terrain piece.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Terrain {
    /// Its index.
    pub ix: TerrainIx,
    /// Its id.
    pub id: String,
    /// Its kind.
    pub kind: TerrainKind,
    /// Its outline.
    pub polygon: Vec<Point>,
    /// Its sectors (dense kinds: at least one; other kinds: none).
    pub sectors: Vec<Vec<Point>>,
}

/// A validated objective (see [`ObjectiveData`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Objective {
    /// Its id, unique among objectives.
    pub id: String,
    /// Display name.
    pub name: Option<String>,
    /// Its centre, on the table.
    pub at: Point,
    /// Its radius (10 to 100 cm).
    pub radius: Len,
    /// The points it scores (1 to 20).
    pub points: u8,
}

/// One base of a validated unit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Base {
    /// Its kind.
    pub kind: BaseKind,
    /// Its own expected quality, if it differs from the unit's (reserve artillery only).
    pub expected: Option<ExpectedQuality>,
}

/// A unit's abilities and traits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct UnitFlags {
    /// Renowned.
    pub renowned: bool,
    /// Hesitant (never also impulsive).
    pub hesitant: bool,
    /// Impulsive (never also hesitant).
    pub impulsive: bool,
    /// Grognards.
    pub grognards: bool,
    /// Disciplined (only with Grognards).
    pub disciplined: bool,
}

/// A validated unit.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct UnitDef {
    /// Its index in [`Scenario::units`].
    pub ix: UnitIx,
    /// Its side.
    pub side: Side,
    /// Its id.
    pub id: UnitId,
    /// Display name.
    pub name: Option<String>,
    /// Its division.
    pub division: DivisionIx,
    /// Its arm, from its bases.
    pub arm: Arm,
    /// Its bases (at least one).
    pub bases: Vec<Base>,
    /// Its expected quality.
    pub expected: ExpectedQuality,
    /// Its quality, if the scenario fixes it.
    pub quality: Option<Quality>,
    /// Troop type.
    pub order: UnitOrder,
    /// Abilities and traits.
    pub flags: UnitFlags,
    /// Formation.
    pub formation: Formation,
    /// Bases per rank, front first (each at least 1, summing to the bases).
    pub ranks: Vec<u8>,
    /// Its anchor (centre of the front edge of the front rank).
    pub position: Point,
    /// Its facing.
    pub facing: Facing,
    /// The dense terrain sector it is deployed in.
    pub sector: Option<SectorRef>,
}

impl UnitDef {
    /// Reserve artillery of two or more bases (page 3: a single base is not a grand
    /// battery).
    pub fn is_grand_battery(&self) -> bool {
        self.arm == Arm::Artillery && self.bases.len() >= 2
    }

    /// An infantry unit with its (one) base of divisional artillery.
    pub fn has_divisional_artillery(&self) -> bool {
        self.bases
            .iter()
            .any(|b| b.kind == BaseKind::DivisionalArtillery)
    }

    /// Has a grand battery heavy artillery (page 12's +1).
    pub fn has_heavy_artillery(&self) -> bool {
        self.bases
            .iter()
            .any(|b| b.kind == BaseKind::HeavyArtillery)
    }

    /// A reserve artillery unit's range (page 11): 60 cm for foot or horse, 80 cm for
    /// heavy; a grand battery uses the shortest range of its batteries. `None` for
    /// infantry and cavalry.
    pub fn reserve_artillery_range(&self) -> Option<Len> {
        self.bases
            .iter()
            .filter_map(|b| b.kind.reserve_range())
            .min()
    }

    /// The unit's weapon range (page 11): infantry (with or without divisional
    /// artillery) 20 cm, reserve artillery as [`UnitDef::reserve_artillery_range`];
    /// `None` for cavalry, which cannot fire.
    pub fn fire_range(&self) -> Option<Len> {
        match self.arm {
            Arm::Infantry => Some(INFANTRY_RANGE),
            Arm::Artillery => self.reserve_artillery_range(),
            Arm::Cavalry => None,
        }
    }

    /// The expected quality of base `i`: its own, or the unit's.
    ///
    /// # Panics
    /// If the unit has no base `i`.
    pub fn base_expected(&self, i: usize) -> ExpectedQuality {
        self.bases[i].expected.unwrap_or(self.expected)
    }

    /// The expected quality the unit rolls with (page 6: the lowest of its bases'; for
    /// a unit without per-base qualities, its own).
    pub fn effective_expected(&self) -> ExpectedQuality {
        (0..self.bases.len())
            .map(|i| self.base_expected(i))
            .max()
            .unwrap_or(self.expected)
    }

    /// Irregular troops (page 6): always in open order, -1 to fire at them (page 12).
    pub fn is_irregular(&self) -> bool {
        self.order == UnitOrder::Irregular
    }

    /// Bases in the front rank.
    pub fn front_rank(&self) -> u8 {
        self.ranks.first().copied().unwrap_or(0)
    }
}

/// What an officer commands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommandGroup {
    /// The whole army (the CinC).
    Army,
    /// A corps.
    Corps(CorpsIx),
    /// A division.
    Division(DivisionIx),
}

/// A validated officer.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct OfficerDef {
    /// Its index in [`Scenario::officers`].
    pub ix: OfficerIx,
    /// Its side.
    pub side: Side,
    /// Its id.
    pub id: String,
    /// Display name.
    pub name: Option<String>,
    /// Rank.
    pub rank: OfficerRank,
    /// Quality.
    pub quality: OfficerQuality,
    /// Inspirational.
    pub inspirational: bool,
    /// Starts leading a charmed life (page 15).
    pub charmed: bool,
    /// Where he starts; `None`: placed at set-up.
    pub position: Option<Point>,
    /// What he commands at the start; `None` for a spare officer.
    pub commands: Option<CommandGroup>,
}

/// A validated corps.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CorpsDef {
    /// Its index in [`Scenario::corps_list`].
    pub ix: CorpsIx,
    /// Its side.
    pub side: Side,
    /// Its id.
    pub id: String,
    /// Its officer.
    pub officer: OfficerIx,
    /// Its divisions, in scenario order.
    pub divisions: Vec<DivisionIx>,
}

/// A validated division.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DivisionDef {
    /// Its index in [`Scenario::divisions`].
    pub ix: DivisionIx,
    /// Its side.
    pub side: Side,
    /// Its id.
    pub id: String,
    /// Its officer.
    pub officer: OfficerIx,
    /// Its corps; `None` in an army of a single corps.
    pub corps: Option<CorpsIx>,
    /// Its units, in scenario order.
    pub units: Vec<UnitIx>,
}

/// A validated army.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SideDef {
    /// Display name.
    pub name: String,
    /// Skirmish Factor at the start (page 9).
    pub skirmish_factor: u8,
    /// Artillery Factor at the start (page 10).
    pub artillery_factor: u8,
    /// The CinC.
    pub cinc: OfficerIx,
}

/// A validated Huzzah! scenario: everything static about a game.
#[derive(Clone, Debug)]
pub struct Scenario {
    data: ScenarioData,
    table: TableSize,
    base: Len,
    turns: u16,
    battle: Battle,
    setup: Setup,
    first: Option<Side>,
    conditions: Vec<ConditionsData>,
    movement: MovementTable,
    quality_table: QualityTable,
    terrain: Vec<Terrain>,
    objectives: Vec<Objective>,
    sides: SidePair<SideDef>,
    officers: Vec<OfficerDef>,
    corps: Vec<CorpsDef>,
    divisions: Vec<DivisionDef>,
    units: Vec<UnitDef>,
    unit_ids: BTreeMap<String, UnitIx>,
    officer_ids: BTreeMap<String, OfficerIx>,
    /// Side A's units are `units[..a_units]`.
    a_units: usize,
    /// Side A's officers are `officers[..a_officers]`.
    a_officers: usize,
}

impl Scenario {
    /// The data it was validated from.
    pub fn data(&self) -> &ScenarioData {
        &self.data
    }
    /// The table's size.
    pub fn table(&self) -> TableSize {
        self.table
    }
    /// A base's side.
    pub fn base(&self) -> Len {
        self.base
    }
    /// Number of turns.
    pub fn turns(&self) -> u16 {
        self.turns
    }
    /// The kind of battle and its defender.
    pub fn battle(&self) -> Battle {
        self.battle
    }
    /// How units are placed.
    pub fn setup(&self) -> Setup {
        self.setup
    }
    /// The side that places first and acts first; `None`: a roll-off (page 7).
    pub fn first(&self) -> Option<Side> {
        self.first
    }

    /// Ground and weather on `turn` (1-based): those of the last `conditions` entry from
    /// `turn` or before; normal and fair if none.
    pub fn conditions_on(&self, turn: u16) -> (Ground, Weather) {
        self.conditions
            .iter()
            .take_while(|c| c.turn <= turn)
            .last()
            .map_or((Ground::Normal, Weather::Fair), |c| (c.ground, c.weather))
    }

    /// The movement table.
    pub fn movement(&self) -> &MovementTable {
        &self.movement
    }
    /// A movement rate from the table.
    pub fn move_rate(&self, arm: MoveArm, f: MoveFormation) -> Len {
        self.movement.rate(arm, f)
    }
    /// Officers' movement.
    pub fn officer_move(&self) -> Len {
        self.movement.officers()
    }
    /// A unit's rate in a formation: the slowest of its bases' rows (a grand battery
    /// with heavy guns moves at the heavy artillery's rate).
    pub fn unit_move_rate(&self, ix: UnitIx, f: MoveFormation) -> Len {
        self.unit(ix)
            .bases
            .iter()
            .map(|b| self.move_rate(b.kind.move_arm(), f))
            .min()
            .unwrap_or(Len::ZERO)
    }

    /// The Unit Quality Table (the scenario's, or the stand-in).
    pub fn quality_table(&self) -> &QualityTable {
        &self.quality_table
    }

    /// Terrain pieces, in scenario order.
    pub fn terrain(&self) -> &[Terrain] {
        &self.terrain
    }
    /// One terrain piece.
    ///
    /// # Panics
    /// If `ix` is not an index of this scenario.
    pub fn terrain_piece(&self, ix: TerrainIx) -> &Terrain {
        &self.terrain[ix.index()]
    }
    /// A sector's polygon.
    ///
    /// # Panics
    /// If `s` is not a sector of this scenario.
    pub fn sector(&self, s: SectorRef) -> &[Point] {
        &self.terrain[s.terrain.index()].sectors[usize::from(s.sector)]
    }

    /// The objectives, in scenario order (empty if the scenario has none).
    pub fn objectives(&self) -> &[Objective] {
        &self.objectives
    }
    /// The scenario's stand-in victory conditions; `None`: the engine's own stand-in
    /// (docs/rulings.md, R-HZ-vic).
    pub fn victory(&self) -> Option<&VictoryData> {
        self.data.victory.as_ref()
    }

    /// An army.
    pub fn side(&self, side: Side) -> &SideDef {
        self.sides.get(side)
    }
    /// An army's CinC.
    pub fn cinc(&self, side: Side) -> OfficerIx {
        self.sides.get(side).cinc
    }

    /// Every officer, side A's first.
    pub fn officers(&self) -> &[OfficerDef] {
        &self.officers
    }
    /// One side's officers.
    pub fn officers_of(&self, side: Side) -> &[OfficerDef] {
        match side {
            Side::A => &self.officers[..self.a_officers],
            Side::B => &self.officers[self.a_officers..],
        }
    }
    /// One officer.
    ///
    /// # Panics
    /// If `ix` is not an index of this scenario.
    pub fn officer(&self, ix: OfficerIx) -> &OfficerDef {
        &self.officers[ix.index()]
    }
    /// The officer with this id.
    pub fn officer_index(&self, id: &str) -> Option<OfficerIx> {
        self.officer_ids.get(id).copied()
    }

    /// Every corps, side A's first (empty for armies of a single corps).
    pub fn corps_list(&self) -> &[CorpsDef] {
        &self.corps
    }
    /// One corps.
    ///
    /// # Panics
    /// If `ix` is not an index of this scenario.
    pub fn corps(&self, ix: CorpsIx) -> &CorpsDef {
        &self.corps[ix.index()]
    }
    /// Every division, side A's first.
    pub fn divisions(&self) -> &[DivisionDef] {
        &self.divisions
    }
    /// One division.
    ///
    /// # Panics
    /// If `ix` is not an index of this scenario.
    pub fn division(&self, ix: DivisionIx) -> &DivisionDef {
        &self.divisions[ix.index()]
    }
    /// The officer commanding a division's corps: its corps officer, or in an army of a
    /// single corps the CinC (page 16).
    pub fn corps_officer(&self, d: DivisionIx) -> OfficerIx {
        let div = self.division(d);
        match div.corps {
            Some(c) => self.corps(c).officer,
            None => self.cinc(div.side),
        }
    }

    /// Every unit, side A's first.
    pub fn units(&self) -> &[UnitDef] {
        &self.units
    }
    /// One side's units.
    pub fn units_of(&self, side: Side) -> &[UnitDef] {
        match side {
            Side::A => &self.units[..self.a_units],
            Side::B => &self.units[self.a_units..],
        }
    }
    /// One unit.
    ///
    /// # Panics
    /// If `ix` is not an index of this scenario.
    pub fn unit(&self, ix: UnitIx) -> &UnitDef {
        &self.units[ix.index()]
    }
    /// The unit with this id.
    pub fn unit_index(&self, id: &str) -> Option<UnitIx> {
        self.unit_ids.get(id).copied()
    }
}

// ---------------------------------------------------------------------------------------
// Validation.

fn err<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        path: path.into(),
        message: message.into(),
    })
}

fn nonempty(s: &str, path: impl Into<String>) -> Result<(), ScenarioError> {
    if s.trim().is_empty() {
        return err(path, "an empty string");
    }
    Ok(())
}

/// The JSON name of a serializable enum value (for messages).
fn json_name<T: Serialize>(t: &T) -> String {
    match serde_json::to_value(t) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => "?".to_string(),
    }
}

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

/// Refuses a scenario beyond the size limits before anything else is checked.
fn check_limits(d: &ScenarioData) -> Result<(), ScenarioError> {
    if d.terrain.len() > MAX_TERRAIN {
        return over_limit(
            "terrain",
            d.terrain.len(),
            "terrain pieces",
            MAX_TERRAIN,
            "a scenario",
        );
    }
    for (i, t) in d.terrain.iter().enumerate() {
        if t.polygon.len() > MAX_POLYGON_POINTS {
            let p = format!("terrain[{i}].polygon");
            return over_limit(
                p,
                t.polygon.len(),
                "points",
                MAX_POLYGON_POINTS,
                "a polygon",
            );
        }
        let sectors = t.sectors.as_deref().unwrap_or(&[]);
        if sectors.len() > MAX_SECTORS {
            let p = format!("terrain[{i}].sectors");
            return over_limit(p, sectors.len(), "sectors", MAX_SECTORS, "a terrain piece");
        }
        for (k, s) in sectors.iter().enumerate() {
            if s.len() > MAX_POLYGON_POINTS {
                let p = format!("terrain[{i}].sectors[{k}]");
                return over_limit(p, s.len(), "points", MAX_POLYGON_POINTS, "a polygon");
            }
        }
    }
    if d.objectives.len() > MAX_OBJECTIVES {
        let n = d.objectives.len();
        return over_limit("objectives", n, "objectives", MAX_OBJECTIVES, "a scenario");
    }
    if d.conditions.len() > usize::from(*TURNS.end()) {
        let n = d.conditions.len();
        return over_limit(
            "conditions",
            n,
            "entries",
            usize::from(*TURNS.end()),
            "a scenario",
        );
    }
    for side in Side::BOTH {
        let s = d.sides.get(side);
        let sp = format!("sides.{side}");
        let m = MAX_OFFICERS_PER_SIDE;
        if s.officers.len() > m {
            return over_limit(
                format!("{sp}.officers"),
                s.officers.len(),
                "officers",
                m,
                "a side",
            );
        }
        if s.corps.len() > m {
            return over_limit(format!("{sp}.corps"), s.corps.len(), "corps", m, "a side");
        }
        if s.divisions.len() > m {
            return over_limit(
                format!("{sp}.divisions"),
                s.divisions.len(),
                "divisions",
                m,
                "a side",
            );
        }
        if s.units.len() > MAX_UNITS_PER_SIDE {
            let n = s.units.len();
            return over_limit(
                format!("{sp}.units"),
                n,
                "units",
                MAX_UNITS_PER_SIDE,
                "a side",
            );
        }
        for (i, u) in s.units.iter().enumerate() {
            let up = format!("{sp}.units[{i}]");
            let b = MAX_BASES_PER_UNIT;
            if u.bases.len() > b {
                return over_limit(format!("{up}.bases"), u.bases.len(), "bases", b, "a unit");
            }
            if u.ranks.len() > b {
                return over_limit(format!("{up}.ranks"), u.ranks.len(), "ranks", b, "a unit");
            }
        }
    }
    Ok(())
}

/// A point checked to be on the table, in mm.
fn table_point(
    p: MmPoint,
    t: &TableData,
    path: impl Into<String>,
) -> Result<[i64; 2], ScenarioError> {
    let (x, y) = (i64::from(p[0]), i64::from(p[1]));
    let (w, d) = (i64::from(t.width_mm), i64::from(t.depth_mm));
    if !(0..=w).contains(&x) || !(0..=d).contains(&y) {
        return err(
            path,
            format!("[{x}, {y}] is off the table: x runs from 0 to {w} mm and y from 0 to {d} mm"),
        );
    }
    Ok([x, y])
}

fn to_point(p: [i64; 2]) -> Point {
    Point {
        x: Len::mm(p[0]),
        y: Len::mm(p[1]),
    }
}

/// A polygon checked: at least 3 points, all on the table, non-zero area. In mm.
fn table_polygon(
    ps: &[MmPoint],
    t: &TableData,
    path: &str,
) -> Result<Vec<[i64; 2]>, ScenarioError> {
    if ps.len() < 3 {
        return err(
            path,
            format!("{} points: a polygon has at least 3", ps.len()),
        );
    }
    let mut out = Vec::with_capacity(ps.len());
    for (k, p) in ps.iter().enumerate() {
        out.push(table_point(*p, t, format!("{path}[{k}]"))?);
    }
    if twice_area(&out) == 0 {
        return err(
            path,
            "a polygon of zero area (its points are collinear, or it folds back over itself)",
        );
    }
    Ok(out)
}

// Small exact plane helpers for validation, in whole millimetres with i64 arithmetic
// (coordinates are at most 10,000, so every product fits with room to spare). The
// engine's geometry module (`super::geometry`) has the general versions.

/// Twice the signed area of a polygon (shoelace formula).
fn twice_area(ps: &[[i64; 2]]) -> i64 {
    let n = ps.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ps[i], ps[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// The cross product of `a - o` and `b - o`: positive if `o, a, b` turn left.
fn cross(o: [i64; 2], a: [i64; 2], b: [i64; 2]) -> i64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// `p` lies on the closed segment `a`-`b`.
fn on_segment(p: [i64; 2], a: [i64; 2], b: [i64; 2]) -> bool {
    cross(a, b, p) == 0
        && p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// `p` lies inside the polygon or on its boundary (even-odd rule, exact).
fn inside_or_on(p: [i64; 2], poly: &[[i64; 2]]) -> bool {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if on_segment(p, a, b) {
            return true;
        }
        if (a[1] > p[1]) != (b[1] > p[1]) {
            // Does the edge cross the ray from p towards +x? Compare p's x with the
            // crossing's, multiplied through by (b.y - a.y) and its sign.
            let lhs = (p[0] - a[0]) * (b[1] - a[1]);
            let rhs = (p[1] - a[1]) * (b[0] - a[0]);
            if (b[1] > a[1] && lhs < rhs) || (b[1] < a[1] && lhs > rhs) {
                inside = !inside;
            }
        }
    }
    inside
}

/// The segments `p1`-`p2` and `q1`-`q2` cross at a point interior to both.
fn properly_cross(p1: [i64; 2], p2: [i64; 2], q1: [i64; 2], q2: [i64; 2]) -> bool {
    let d1 = cross(q1, q2, p1).signum();
    let d2 = cross(q1, q2, p2).signum();
    let d3 = cross(p1, p2, q1).signum();
    let d4 = cross(p1, p2, q2).signum();
    d1 * d2 < 0 && d3 * d4 < 0
}

fn fmt_point(p: [i64; 2]) -> String {
    format!("[{}, {}]", p[0], p[1])
}

fn validate_terrain(
    d: &ScenarioData,
) -> Result<(Vec<Terrain>, BTreeMap<String, TerrainIx>), ScenarioError> {
    let mut out = Vec::with_capacity(d.terrain.len());
    let mut ids = BTreeMap::new();
    for (i, t) in d.terrain.iter().enumerate() {
        let tp = format!("terrain[{i}]");
        nonempty(&t.id, format!("{tp}.id"))?;
        if t.id.contains('/') {
            return err(
                format!("{tp}.id"),
                format!("'{}' contains '/', which separates a terrain id from a sector number (\"w1/0\")", t.id),
            );
        }
        let ix = TerrainIx(i as u16);
        if ids.insert(t.id.clone(), ix).is_some() {
            return err(
                format!("{tp}.id"),
                format!("duplicate terrain id '{}'", t.id),
            );
        }
        let kind = json_name(&t.kind);
        let polygon = table_polygon(&t.polygon, &d.table, &format!("{tp}.polygon"))?;
        let sectors = match &t.sectors {
            None if t.kind.is_dense() => vec![polygon.clone()],
            None => Vec::new(),
            Some(_) if !t.kind.is_dense() => {
                return err(
                    format!("{tp}.sectors"),
                    format!("sectors on {kind} '{}': only dense terrain (woods and buildings, page 19) is held in sectors", t.id),
                );
            }
            Some(s) if s.is_empty() => {
                return err(
                    format!("{tp}.sectors"),
                    "no sectors: dense terrain has at least one (leave sectors out for a single sector, the whole outline)",
                );
            }
            Some(s) => {
                let mut v = Vec::with_capacity(s.len());
                for (k, sec) in s.iter().enumerate() {
                    let sp = format!("{tp}.sectors[{k}]");
                    let sq = table_polygon(sec, &d.table, &sp)?;
                    check_sector_inside(&sq, &polygon, &sp, &t.id)?;
                    v.push(sq);
                }
                v
            }
        };
        out.push(Terrain {
            ix,
            id: t.id.clone(),
            kind: t.kind,
            polygon: polygon.iter().copied().map(to_point).collect(),
            sectors: sectors
                .iter()
                .map(|s| s.iter().copied().map(to_point).collect())
                .collect(),
        });
    }
    Ok((out, ids))
}

/// A sector lies inside its piece: every vertex inside or on the outline, and no edge
/// crossing an edge of the outline.
fn check_sector_inside(
    sq: &[[i64; 2]],
    poly: &[[i64; 2]],
    sp: &str,
    id: &str,
) -> Result<(), ScenarioError> {
    for (m, &p) in sq.iter().enumerate() {
        if !inside_or_on(p, poly) {
            return err(
                format!("{sp}[{m}]"),
                format!(
                    "{} is outside the outline of '{id}': a sector lies inside its terrain piece",
                    fmt_point(p)
                ),
            );
        }
    }
    let (n, k) = (sq.len(), poly.len());
    for m in 0..n {
        let (a, b) = (sq[m], sq[(m + 1) % n]);
        for j in 0..k {
            let (c, e) = (poly[j], poly[(j + 1) % k]);
            if properly_cross(a, b, c, e) {
                return err(
                    format!("{sp}[{m}]"),
                    format!(
                        "the sector's edge from {} to {} crosses the outline of '{id}' (its edge from {} to {}): a sector lies inside its terrain piece",
                        fmt_point(a),
                        fmt_point(b),
                        fmt_point(c),
                        fmt_point(e)
                    ),
                );
            }
        }
    }
    Ok(())
}

/// The objectives: ids unique and without `/`, centres on the table, radius and points
/// in range.
fn validate_objectives(d: &ScenarioData) -> Result<Vec<Objective>, ScenarioError> {
    let mut out: Vec<Objective> = Vec::with_capacity(d.objectives.len());
    for (i, o) in d.objectives.iter().enumerate() {
        let op = format!("objectives[{i}]");
        nonempty(&o.id, format!("{op}.id"))?;
        if o.id.contains('/') {
            return err(
                format!("{op}.id"),
                format!("'{}' contains '/': an objective's id is a plain name", o.id),
            );
        }
        if let Some(j) = out.iter().position(|p| p.id == o.id) {
            return err(
                format!("{op}.id"),
                format!("duplicate objective id '{}' (objectives[{j}] has it)", o.id),
            );
        }
        if let Some(name) = &o.name {
            nonempty(name, format!("{op}.name"))?;
        }
        let at = to_point(table_point(o.at, &d.table, format!("{op}.at"))?);
        if !OBJECTIVE_RADIUS_MM.contains(&o.radius_mm) {
            return err(
                format!("{op}.radius_mm"),
                format!(
                    "{} mm: an objective's radius is {} to {} mm",
                    o.radius_mm,
                    OBJECTIVE_RADIUS_MM.start(),
                    OBJECTIVE_RADIUS_MM.end()
                ),
            );
        }
        if !OBJECTIVE_POINTS.contains(&o.points) {
            return err(
                format!("{op}.points"),
                format!(
                    "{} points: an objective scores {} to {} points",
                    o.points,
                    OBJECTIVE_POINTS.start(),
                    OBJECTIVE_POINTS.end()
                ),
            );
        }
        out.push(Objective {
            id: o.id.clone(),
            name: o.name.clone(),
            at,
            radius: Len::mm(i64::from(o.radius_mm)),
            points: o.points,
        });
    }
    Ok(out)
}

/// The stand-in victory: a provenance, a base score in range, and something to score.
fn validate_victory(d: &ScenarioData) -> Result<(), ScenarioError> {
    let Some(v) = &d.victory else {
        return Ok(());
    };
    if v.provenance.trim().is_empty() {
        return err(
            "victory.provenance",
            "an empty provenance: pages 1-22 print no victory rules, so say what is invented (\"stand-in: …\") and what the printed scenario would replace",
        );
    }
    if !BASE_POINTS.contains(&v.base_points) {
        return err(
            "victory.base_points",
            format!(
                "{} points: a lost base scores {} to {} points",
                v.base_points,
                BASE_POINTS.start(),
                BASE_POINTS.end()
            ),
        );
    }
    if v.objective_points && d.objectives.is_empty() {
        return err(
            "victory.objective_points",
            "true, but the scenario has no objectives to score",
        );
    }
    if !v.objective_points && v.base_points == 0 {
        return err(
            "victory",
            "nothing scores: objective_points is false and base_points is 0",
        );
    }
    Ok(())
}

/// Context for validating units.
struct UnitCtx<'a> {
    table: &'a TableData,
    terrain: &'a [Terrain],
    terrain_ids: &'a BTreeMap<String, TerrainIx>,
}

/// A base's class for the composition rules (page 3).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Infantry,
    DivisionalArtillery,
    Cavalry,
    ReserveArtillery,
}

fn class(k: BaseKind) -> Class {
    match k {
        BaseKind::Infantry | BaseKind::IrregularInfantry => Class::Infantry,
        BaseKind::DivisionalArtillery => Class::DivisionalArtillery,
        BaseKind::BattleCavalry | BaseKind::OtherCavalry => Class::Cavalry,
        _ => Class::ReserveArtillery,
    }
}

/// The composition rules of page 3 (and page 6 for irregular troops): the unit's arm.
fn unit_arm(u: &UnitData, up: &str) -> Result<Arm, ScenarioError> {
    if u.bases.is_empty() {
        return err(
            format!("{up}.bases"),
            "no bases: a unit is one or more bases (page 2)",
        );
    }
    let Some(lead) = u
        .bases
        .iter()
        .position(|b| b.kind != BaseKind::DivisionalArtillery)
    else {
        return err(
            format!("{up}.bases[0]"),
            "divisional_artillery with no infantry: divisional artillery is always attached to a unit of infantry (page 3)",
        );
    };
    let lead_kind = u.bases[lead].kind;
    let arm = lead_kind.arm();
    let lead_name = json_name(&lead_kind);
    let mut divisional = 0;
    for (i, b) in u.bases.iter().enumerate() {
        let bp = format!("{up}.bases[{i}]");
        let kind = json_name(&b.kind);
        let why = match (arm, class(b.kind)) {
            (Arm::Infantry, Class::Infantry)
            | (Arm::Cavalry, Class::Cavalry)
            | (Arm::Artillery, Class::ReserveArtillery) => None,
            (Arm::Infantry, Class::DivisionalArtillery) => {
                divisional += 1;
                (divisional > 1).then_some(
                    "a unit can include a maximum of one base of divisional artillery (page 3)",
                )
            }
            (Arm::Infantry, Class::Cavalry) | (Arm::Cavalry, Class::Infantry) => {
                Some("infantry and cavalry cannot be brigaded together in the same unit (page 3)")
            }
            (Arm::Cavalry, Class::DivisionalArtillery | Class::ReserveArtillery)
            | (Arm::Artillery, Class::Cavalry) => {
                Some("cavalry and artillery cannot be brigaded together in the same unit (page 3)")
            }
            (Arm::Infantry, Class::ReserveArtillery) => Some(
                "reserve artillery can attach only to other reserve artillery (page 3); guns attached to infantry are divisional_artillery",
            ),
            (Arm::Artillery, Class::Infantry) => {
                Some("reserve artillery can attach only to other reserve artillery (page 3)")
            }
            (Arm::Artillery, Class::DivisionalArtillery) => Some(
                "divisional artillery is attached only to infantry (page 3); reserve guns are foot_artillery, horse_artillery or heavy_artillery",
            ),
        };
        if let Some(why) = why {
            return err(
                bp,
                format!("{kind} in a unit whose bases[{lead}] is {lead_name}: {why}"),
            );
        }
        if b.expected.is_some() && !b.kind.is_reserve_artillery() {
            return err(
                format!("{bp}.expected"),
                format!("a per-base expected quality on a {kind} base: only reserve artillery bases carry their own (grand batteries of mixed quality, page 6)"),
            );
        }
    }
    // Irregular infantry: the whole unit (page 6).
    if let Some(irr) = u
        .bases
        .iter()
        .position(|b| b.kind == BaseKind::IrregularInfantry)
    {
        if let Some(reg) = u.bases.iter().position(|b| b.kind == BaseKind::Infantry) {
            return err(
                format!("{up}.bases[{reg}]"),
                format!("infantry in a unit with irregular_infantry (bases[{irr}]): a unit consists entirely of irregular troops to be irregular (page 6)"),
            );
        }
        if u.order != UnitOrder::Irregular {
            return err(
                format!("{up}.order"),
                format!("order {} for a unit of irregular_infantry: irregular troops are always in open order (order irregular; pages 6 and 20)", json_name(&u.order)),
            );
        }
    }
    match u.order {
        UnitOrder::Close => {}
        UnitOrder::Irregular => {
            let fits = |k: BaseKind| match arm {
                Arm::Infantry => {
                    k == BaseKind::IrregularInfantry || k == BaseKind::DivisionalArtillery
                }
                Arm::Cavalry => k == BaseKind::OtherCavalry,
                Arm::Artillery => false,
            };
            if let Some(i) = u.bases.iter().position(|b| !fits(b.kind)) {
                return err(
                    format!("{up}.order"),
                    format!(
                        "order irregular, but bases[{i}] is {}: irregular troops (Cossacks and Ottoman infantry, page 20) are units entirely of irregular_infantry or other_cavalry (page 6)",
                        json_name(&u.bases[i].kind)
                    ),
                );
            }
        }
        UnitOrder::Skirmish | UnitOrder::SkirmishLimited => {
            if arm != Arm::Infantry {
                return err(
                    format!("{up}.order"),
                    format!(
                        "order {} for a unit of {lead_name}: the skirmish abilities are for infantry (pages 6, 9 and 22)",
                        json_name(&u.order)
                    ),
                );
            }
        }
    }
    Ok(arm)
}

fn check_formation(u: &UnitData, up: &str, arm: Arm) -> Result<(), ScenarioError> {
    if u.ranks.is_empty() {
        return err(
            format!("{up}.ranks"),
            "no ranks: list the bases in each rank, front rank first",
        );
    }
    for (k, &r) in u.ranks.iter().enumerate() {
        if r == 0 {
            return err(
                format!("{up}.ranks[{k}]"),
                "a rank of 0 bases: every rank holds at least one",
            );
        }
    }
    let sum: usize = u.ranks.iter().map(|&r| usize::from(r)).sum();
    if sum != u.bases.len() {
        return err(
            format!("{up}.ranks"),
            format!(
                "the ranks {:?} hold {sum} bases, but the unit has {}",
                u.ranks,
                u.bases.len()
            ),
        );
    }
    match u.formation {
        Formation::Line => {}
        Formation::Column => {
            if let Some(k) = u.ranks.iter().position(|&r| r != 1) {
                return err(
                    format!("{up}.ranks[{k}]"),
                    format!("a rank of {} bases in road column: a column is one base wide (page 21: road columns never have the two-base front rank of a support rank)", u.ranks[k]),
                );
            }
        }
        Formation::Square => {
            if arm != Arm::Infantry {
                return err(
                    format!("{up}.formation"),
                    format!("square for a unit of {}: only infantry, with or without divisional artillery, can form square (page 22)", json_name(&arm)),
                );
            }
            if u.ranks.len() < 2 {
                return err(
                    format!("{up}.ranks"),
                    format!("a square in {} rank: a square has at least two ranks, alternate bases facing the rear (page 22)", u.ranks.len()),
                );
            }
        }
    }
    Ok(())
}

fn parse_sector(
    u: &UnitData,
    up: &str,
    arm: Arm,
    ctx: &UnitCtx<'_>,
) -> Result<Option<SectorRef>, ScenarioError> {
    let Some(s) = &u.sector else {
        return Ok(None);
    };
    let sp = format!("{up}.sector");
    let Some((tid, n)) = s.rsplit_once('/') else {
        return err(
            sp,
            format!("'{s}': a sector is named \"<terrain id>/<sector number>\" (\"w1/0\")"),
        );
    };
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
        return err(
            sp,
            format!("'{s}': the sector number '{n}' is not a whole number"),
        );
    }
    let Some(&ix) = ctx.terrain_ids.get(tid) else {
        return err(sp, format!("'{s}': no terrain piece '{tid}'"));
    };
    let t = &ctx.terrain[ix.index()];
    if !t.kind.is_dense() {
        return err(
            sp,
            format!("'{s}': '{tid}' is {}, not dense terrain (woods or buildings, page 19), and has no sectors", json_name(&t.kind)),
        );
    }
    let k = n.parse::<usize>().ok().filter(|&k| k < t.sectors.len());
    let Some(k) = k else {
        return err(
            sp,
            format!(
                "'{s}': '{tid}' has {} sectors, numbered from 0",
                t.sectors.len()
            ),
        );
    };
    let eligible = arm == Arm::Infantry || (arm == Arm::Cavalry && u.order == UnitOrder::Irregular);
    if !eligible {
        let what = if arm == Arm::Cavalry {
            "cavalry that is not irregular".to_string()
        } else {
            json_name(&arm)
        };
        return err(
            sp,
            format!("'{s}' for a unit of {what}: only infantry, infantry with divisional artillery and irregular cavalry deploy in dense terrain (page 22)"),
        );
    }
    Ok(Some(SectorRef {
        terrain: ix,
        sector: k as u16,
    }))
}

fn validate_unit(
    u: &UnitData,
    up: &str,
    ix: UnitIx,
    side: Side,
    division: DivisionIx,
    ctx: &UnitCtx<'_>,
) -> Result<UnitDef, ScenarioError> {
    let arm = unit_arm(u, up)?;
    check_formation(u, up, arm)?;
    if u.hesitant && u.impulsive {
        return err(
            format!("{up}.impulsive"),
            "impulsive and also hesitant: a unit has at most one of the two traits (impulsive units charge without orders, page 20; hesitant ones are slow to order near the enemy, page 17)",
        );
    }
    if u.disciplined && !u.grognards {
        return err(
            format!("{up}.disciplined"),
            "disciplined without grognards: a unit gains Disciplined only once it has Grognards (pages 5, 14 and 21)",
        );
    }
    let position = to_point(table_point(
        u.position,
        ctx.table,
        format!("{up}.position"),
    )?);
    if u.facing > 359 {
        return err(
            format!("{up}.facing"),
            format!("{}: a facing is 0 to 359 degrees", u.facing),
        );
    }
    let sector = parse_sector(u, up, arm, ctx)?;
    Ok(UnitDef {
        ix,
        side,
        id: u.id.clone(),
        name: u.name.clone(),
        division,
        arm,
        bases: u
            .bases
            .iter()
            .map(|b| Base {
                kind: b.kind,
                expected: b.expected,
            })
            .collect(),
        expected: u.expected,
        quality: u.quality,
        order: u.order,
        flags: UnitFlags {
            renowned: u.renowned,
            hesitant: u.hesitant,
            impulsive: u.impulsive,
            grognards: u.grognards,
            disciplined: u.disciplined,
        },
        formation: u.formation,
        ranks: u.ranks.clone(),
        position,
        facing: Facing(u.facing),
        sector,
    })
}

/// Looks up the officer commanding a corps or division.
fn commander(
    id: &str,
    path: String,
    side: Side,
    rank: OfficerRank,
    group: &str,
    ids: &BTreeMap<String, OfficerIx>,
    officers: &[OfficerDef],
) -> Result<OfficerIx, ScenarioError> {
    let Some(&ix) = ids.get(id) else {
        return err(path, format!("unknown officer '{id}'"));
    };
    let o = &officers[ix.index()];
    if o.side != side {
        return err(
            path,
            format!("officer '{id}' is side {}'s, not side {side}'s", o.side),
        );
    }
    if o.rank != rank {
        return err(
            path,
            format!(
                "officer '{id}' is of rank {}: a {group} is commanded by an officer of rank {} (page 16)",
                json_name(&o.rank),
                json_name(&rank)
            ),
        );
    }
    if let Some(c) = o.commands {
        let what = match c {
            CommandGroup::Army => "the army".to_string(),
            CommandGroup::Corps(_) => "another corps".to_string(),
            CommandGroup::Division(_) => "another division".to_string(),
        };
        return err(path, format!("officer '{id}' already commands {what}: an officer commands one command group (page 16)"));
    }
    Ok(ix)
}

/// Validates scenario data into a [`Scenario`]. docs/huzzah.md lists every check.
///
/// # Errors
/// A [`ScenarioError`] naming the JSON path of the first invalid value, the value and
/// the rule it breaks.
pub fn validate(data: ScenarioData) -> Result<Scenario, ScenarioError> {
    check_limits(&data)?;
    nonempty(&data.id, "id")?;
    nonempty(&data.name, "name")?;
    if data.provenance.trim().is_empty() {
        return err(
            "provenance",
            "an empty provenance: say what is invented and what the printed game would replace",
        );
    }
    let t = data.table;
    for (v, p) in [
        (t.width_mm, "table.width_mm"),
        (t.depth_mm, "table.depth_mm"),
    ] {
        if !TABLE_MM.contains(&v) {
            return err(
                p,
                format!(
                    "{v} mm: a table is {} to {} mm each way",
                    TABLE_MM.start(),
                    TABLE_MM.end()
                ),
            );
        }
    }
    if !BASE_MM.contains(&data.base_mm) {
        return err(
            "base_mm",
            format!(
                "{} mm: a base's side is {} to {} mm (page 2 recommends 40 mm for 15mm figures)",
                data.base_mm,
                BASE_MM.start(),
                BASE_MM.end()
            ),
        );
    }
    if !TURNS.contains(&data.turns) {
        return err(
            "turns",
            format!(
                "{}: a scenario has {} to {} turns",
                data.turns,
                TURNS.start(),
                TURNS.end()
            ),
        );
    }
    let battle = match (data.battle, data.defender) {
        (BattleKind::Encounter, None) => Battle::Encounter,
        (BattleKind::Defended, Some(defender)) => Battle::Defended { defender },
        (BattleKind::Encounter, Some(s)) => {
            return err(
                "defender",
                format!("defender \"{s}\" in an encounter: only a battle with a designated defender names one (page 7)"),
            );
        }
        (BattleKind::Defended, None) => {
            return err(
                "defender",
                "a defended battle names its defender, \"a\" or \"b\" (page 7)",
            );
        }
    };
    let mut last = 0;
    for (i, c) in data.conditions.iter().enumerate() {
        let p = format!("conditions[{i}].turn");
        if i == 0 && c.turn != 1 {
            return err(
                p,
                format!("turn {}: the first conditions hold from turn 1", c.turn),
            );
        }
        if i > 0 && c.turn <= last {
            return err(
                p,
                format!(
                    "turn {} after turn {last}: conditions are listed by strictly increasing turn",
                    c.turn
                ),
            );
        }
        if c.turn > data.turns {
            return err(
                p,
                format!("turn {}, but the scenario has {} turns", c.turn, data.turns),
            );
        }
        last = c.turn;
    }
    let movement = match &data.movement {
        Some(m) => m.validate("movement")?,
        None => MovementData::stand_in().validate("movement")?,
    };
    let quality_table = match &data.quality_table {
        Some(q) => q.validate("quality_table")?,
        None => QualityTable::stand_in(),
    };
    let (terrain, terrain_ids) = validate_terrain(&data)?;
    let objectives = validate_objectives(&data)?;
    validate_victory(&data)?;

    // Officers (both sides first: their ids are unique across the two).
    let mut officers: Vec<OfficerDef> = Vec::new();
    let mut officer_ids: BTreeMap<String, OfficerIx> = BTreeMap::new();
    let mut cincs = [OfficerIx(0); 2];
    let mut a_officers = 0;
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        nonempty(&sd.name, format!("{sp}.name"))?;
        if !ARMY_FACTOR.contains(&sd.skirmish_factor) {
            return err(
                format!("{sp}.skirmish_factor"),
                format!(
                    "{}: a Skirmish Factor is 6 to 10 (page 9)",
                    sd.skirmish_factor
                ),
            );
        }
        if !ARMY_FACTOR.contains(&sd.artillery_factor) {
            return err(
                format!("{sp}.artillery_factor"),
                format!(
                    "{}: an Artillery Factor is 6 to 10 (page 10)",
                    sd.artillery_factor
                ),
            );
        }
        let mut cinc: Option<(usize, OfficerIx)> = None;
        for (i, o) in sd.officers.iter().enumerate() {
            let op = format!("{sp}.officers[{i}]");
            nonempty(&o.id, format!("{op}.id"))?;
            let ix = OfficerIx(officers.len() as u16);
            if officer_ids.insert(o.id.clone(), ix).is_some() {
                return err(
                    format!("{op}.id"),
                    format!(
                        "duplicate officer id '{}': officer ids are unique across both sides",
                        o.id
                    ),
                );
            }
            let position = match o.position {
                Some(p) => Some(to_point(table_point(
                    p,
                    &data.table,
                    format!("{op}.position"),
                )?)),
                None => None,
            };
            if o.rank == OfficerRank::Cinc {
                if let Some((j, _)) = cinc {
                    return err(
                        format!("{op}.rank"),
                        format!("'{}' is a second cinc (officers[{j}] is the first): an army has exactly one CinC (page 16)", o.id),
                    );
                }
                cinc = Some((i, ix));
            }
            officers.push(OfficerDef {
                ix,
                side,
                id: o.id.clone(),
                name: o.name.clone(),
                rank: o.rank,
                quality: o.quality,
                inspirational: o.inspirational,
                charmed: o.charmed,
                position,
                commands: (o.rank == OfficerRank::Cinc).then_some(CommandGroup::Army),
            });
        }
        let Some((_, cinc)) = cinc else {
            return err(
                format!("{sp}.officers"),
                "no officer of rank cinc: an army has exactly one CinC (page 16)",
            );
        };
        cincs[side.index()] = cinc;
        if side == Side::A {
            a_officers = officers.len();
        }
    }

    // Corps and divisions.
    let mut corps: Vec<CorpsDef> = Vec::new();
    let mut corps_ids: BTreeMap<String, CorpsIx> = BTreeMap::new();
    let mut divisions: Vec<DivisionDef> = Vec::new();
    let mut division_ids: BTreeMap<String, DivisionIx> = BTreeMap::new();
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        if sd.corps.len() == 1 {
            return err(
                format!("{sp}.corps"),
                format!("a single corps ('{}'): in an army of one corps the CinC is in effect its corps officer and no separate corps officer is used (page 16); leave corps out", sd.corps[0].id),
            );
        }
        let multi = !sd.corps.is_empty();
        if !multi {
            if let Some(i) = sd
                .officers
                .iter()
                .position(|o| o.rank == OfficerRank::Corps)
            {
                return err(
                    format!("{sp}.officers[{i}].rank"),
                    format!("'{}' is of rank corps in an army of a single corps: the CinC is in effect the corps officer, a separate one is not used (page 16)", sd.officers[i].id),
                );
            }
        }
        for (i, c) in sd.corps.iter().enumerate() {
            let cp = format!("{sp}.corps[{i}]");
            nonempty(&c.id, format!("{cp}.id"))?;
            let ix = CorpsIx(corps.len() as u16);
            if corps_ids.insert(c.id.clone(), ix).is_some() {
                return err(
                    format!("{cp}.id"),
                    format!(
                        "duplicate corps id '{}': corps ids are unique across both sides",
                        c.id
                    ),
                );
            }
            let officer = commander(
                &c.officer,
                format!("{cp}.officer"),
                side,
                OfficerRank::Corps,
                "corps",
                &officer_ids,
                &officers,
            )?;
            officers[officer.index()].commands = Some(CommandGroup::Corps(ix));
            corps.push(CorpsDef {
                ix,
                side,
                id: c.id.clone(),
                officer,
                divisions: Vec::new(),
            });
        }
        for (i, d) in sd.divisions.iter().enumerate() {
            let dp = format!("{sp}.divisions[{i}]");
            nonempty(&d.id, format!("{dp}.id"))?;
            let ix = DivisionIx(divisions.len() as u16);
            if division_ids.insert(d.id.clone(), ix).is_some() {
                return err(
                    format!("{dp}.id"),
                    format!(
                        "duplicate division id '{}': division ids are unique across both sides",
                        d.id
                    ),
                );
            }
            let officer = commander(
                &d.officer,
                format!("{dp}.officer"),
                side,
                OfficerRank::Division,
                "division",
                &officer_ids,
                &officers,
            )?;
            officers[officer.index()].commands = Some(CommandGroup::Division(ix));
            let corps_ix = match (&d.corps, multi) {
                (None, false) => None,
                (Some(c), false) => {
                    return err(
                        format!("{dp}.corps"),
                        format!("corps '{c}', but side {side} lists no corps: an army of a single corps needs none (page 16)"),
                    );
                }
                (None, true) => {
                    return err(
                        format!("{dp}.corps"),
                        format!("division '{}' names no corps: in an army of several corps every division belongs to one (page 16)", d.id),
                    );
                }
                (Some(c), true) => match corps_ids.get(c) {
                    Some(&cx) if corps[cx.index()].side == side => Some(cx),
                    Some(_) => {
                        return err(
                            format!("{dp}.corps"),
                            format!("corps '{c}' is the other side's"),
                        );
                    }
                    None => return err(format!("{dp}.corps"), format!("unknown corps '{c}'")),
                },
            };
            if let Some(cx) = corps_ix {
                corps[cx.index()].divisions.push(ix);
            }
            divisions.push(DivisionDef {
                ix,
                side,
                id: d.id.clone(),
                officer,
                corps: corps_ix,
                units: Vec::new(),
            });
        }
    }

    // Units.
    let ctx = UnitCtx {
        table: &data.table,
        terrain: &terrain,
        terrain_ids: &terrain_ids,
    };
    let mut units: Vec<UnitDef> = Vec::new();
    let mut unit_ids: BTreeMap<String, UnitIx> = BTreeMap::new();
    let mut unit_paths: Vec<String> = Vec::new();
    let mut sectors: BTreeMap<SectorRef, UnitIx> = BTreeMap::new();
    let mut a_units = 0;
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        for (i, u) in sd.units.iter().enumerate() {
            let up = format!("{sp}.units[{i}]");
            nonempty(u.id.as_str(), format!("{up}.id"))?;
            let ix = UnitIx(units.len() as u16);
            if unit_ids.insert(u.id.as_str().to_string(), ix).is_some() {
                return err(
                    format!("{up}.id"),
                    format!(
                        "duplicate unit id '{}': unit ids are unique across both sides",
                        u.id
                    ),
                );
            }
            let division = match division_ids.get(&u.division) {
                Some(&dx) if divisions[dx.index()].side == side => dx,
                Some(_) => {
                    return err(
                        format!("{up}.division"),
                        format!("division '{}' is the other side's", u.division),
                    );
                }
                None => {
                    return err(
                        format!("{up}.division"),
                        format!("unknown division '{}'", u.division),
                    )
                }
            };
            let def = validate_unit(u, &up, ix, side, division, &ctx)?;
            if let Some(s) = def.sector {
                if let Some(other) = sectors.insert(s, ix) {
                    return err(
                        format!("{up}.sector"),
                        format!(
                            "'{}' is already held by '{}': a sector of dense terrain can contain only one unit (page 22)",
                            u.sector.as_deref().unwrap_or_default(),
                            units[other.index()].id
                        ),
                    );
                }
            }
            divisions[division.index()].units.push(ix);
            units.push(def);
            unit_paths.push(up);
        }
        if side == Side::A {
            a_units = units.len();
        }
    }

    // The units' footprints: on the table, not on top of one another, and for the
    // placement rolls the armies' set-up distance (page 7; a placed scenario's
    // positions are the designer's, "A scenario should specify …").
    {
        use crate::huzzah::geometry::{min_distance, overlaps};
        let base = Len::mm(i64::from(data.base_mm));
        let (w, d) = (
            Len::mm(i64::from(t.width_mm)),
            Len::mm(i64::from(t.depth_mm)),
        );
        let shapes: Vec<_> = units.iter().map(|u| u.shape(base)).collect();
        for (u, sh) in units.iter().zip(&shapes) {
            if let Some(p) = sh
                .footprint_corners()
                .into_iter()
                .find(|p| p.x < Len::ZERO || p.y < Len::ZERO || p.x > w || p.y > d)
            {
                return err(
                    format!("{}.position", unit_paths[u.ix.index()]),
                    format!(
                        "'{}' does not fit on the table: a corner of its bases is at {} (the table is {} by {} mm)",
                        u.id,
                        fmt_point([p.x.0 / 10, p.y.0 / 10]),
                        t.width_mm,
                        t.depth_mm
                    ),
                );
            }
        }
        for i in 0..units.len() {
            for j in 0..i {
                if overlaps(&shapes[i], &shapes[j]) {
                    return err(
                        format!("{}.position", unit_paths[i]),
                        format!(
                            "'{}' overlaps '{}': two units cannot stand on the same ground",
                            units[i].id, units[j].id
                        ),
                    );
                }
            }
        }
        if data.setup == Setup::Alternate {
            let min = battle.min_setup_distance();
            for ib in a_units..units.len() {
                for ia in 0..a_units {
                    let gap = min_distance(&shapes[ib], &shapes[ia]);
                    if gap < min {
                        return err(
                            format!("{}.position", unit_paths[ib]),
                            format!(
                                "'{}' stands {} mm from side a's '{}': in {} the armies set up no closer than {} mm (page 7; nearest bases)",
                                units[ib].id,
                                gap.0 / 10,
                                units[ia].id,
                                match battle {
                                    Battle::Encounter => "an encounter",
                                    Battle::Defended { .. } => "a battle with a designated defender",
                                },
                                min.0 / 10
                            ),
                        );
                    }
                }
            }
        }
    }

    let side_def = |side: Side| {
        let sd = data.sides.get(side);
        SideDef {
            name: sd.name.clone(),
            skirmish_factor: sd.skirmish_factor,
            artillery_factor: sd.artillery_factor,
            cinc: cincs[side.index()],
        }
    };
    let sides = SidePair::new(side_def(Side::A), side_def(Side::B));
    Ok(Scenario {
        table: TableSize {
            width: Len::mm(i64::from(t.width_mm)),
            depth: Len::mm(i64::from(t.depth_mm)),
        },
        base: Len::mm(i64::from(data.base_mm)),
        turns: data.turns,
        battle,
        setup: data.setup,
        first: data.first,
        conditions: data.conditions.clone(),
        movement,
        quality_table,
        terrain,
        objectives,
        sides,
        officers,
        corps,
        divisions,
        units,
        unit_ids,
        officer_ids,
        a_units,
        a_officers,
        data,
    })
}

/// How the rules missing from our copy (pages 23 on: melee, rally, officer movement)
/// are answered.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingRules {
    /// Each outcome is an explicit decision: a command from the players or an umpire.
    #[default]
    Decide,
    /// The engine's stand-in rules answer them (docs/huzzah.md; labelled in events).
    StandIn,
}

impl MissingRules {
    /// The default.
    pub fn is_decide(&self) -> bool {
        *self == MissingRules::Decide
    }
}

/// The built-in Huzzah! scenarios.
pub const BUILTIN: [&str; 2] = ["huzzah-encounter", "huzzah-firefight"];

fn builtin_text(name: &str) -> Option<&'static str> {
    match name {
        "huzzah-encounter" => Some(include_str!("../../scenarios/huzzah-encounter.json")),
        "huzzah-firefight" => Some(include_str!("../../scenarios/huzzah-firefight.json")),
        _ => None,
    }
}

fn builtin_data(name: &str) -> Option<Result<ScenarioData, ScenarioError>> {
    let text = builtin_text(name)?;
    Some(
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| ScenarioError {
                path: String::new(),
                message: e.to_string(),
            })
            .and_then(|mut v| {
                if let Some(o) = v.as_object_mut() {
                    o.remove("system");
                }
                from_json_value(v)
            }),
    )
}

/// Refuses scenario data that claims a built-in scenario's id but differs from it (a
/// save must not pass off an edited battle as the built-in one).
///
/// # Errors
/// The mismatch, at `id`.
pub fn check_builtin_id(data: &ScenarioData) -> Result<(), ScenarioError> {
    match builtin_data(&data.id) {
        Some(Ok(b)) if b != *data => Err(ScenarioError {
            path: "id".into(),
            message: format!(
                "'{}' is a built-in scenario's id, and this data differs from it",
                data.id
            ),
        }),
        _ => Ok(()),
    }
}

impl Scenario {
    /// A built-in scenario by name.
    ///
    /// # Errors
    /// An unknown name.
    ///
    /// ```
    /// let sc = fm_core::huzzah::scenario::Scenario::builtin("huzzah-firefight").unwrap();
    /// assert_eq!(sc.turns(), sc.data().turns);
    /// ```
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        match builtin_data(name) {
            Some(d) => validate(d?),
            None => Err(ScenarioError {
                path: String::new(),
                message: format!(
                    "unknown Huzzah! scenario '{name}' (built in: {})",
                    BUILTIN.join(", ")
                ),
            }),
        }
    }

    /// How the missing rules are answered.
    pub fn missing_rules(&self) -> MissingRules {
        self.data().missing_rules
    }

    /// The units are placed by the page 7 placement rolls.
    pub fn alternate_setup(&self) -> bool {
        self.setup() == Setup::Alternate
    }

    /// The table's width and depth.
    pub fn table_size(&self) -> (Len, Len) {
        (self.table().width, self.table().depth)
    }

    /// A side's units, as indices.
    pub fn unit_ixs(&self, side: Side) -> impl Iterator<Item = UnitIx> + '_ {
        self.units_of(side).iter().map(|u| u.ix)
    }

    /// Whether officer `o` commands unit `u` at the start: his division, his corps'
    /// divisions, or (the CinC) the whole army.
    pub fn commands(&self, o: OfficerIx, u: UnitIx) -> bool {
        let def = self.officer(o);
        let unit = self.unit(u);
        if unit.side != def.side {
            return false;
        }
        match def.commands {
            Some(CommandGroup::Army) => true,
            Some(CommandGroup::Division(d)) => unit.division == d,
            Some(CommandGroup::Corps(c)) => self.division(unit.division).corps == Some(c),
            None => false,
        }
    }
}

impl UnitDef {
    /// The unit's geometry at its scenario position.
    pub fn shape(&self, base: Len) -> crate::huzzah::geometry::Shape {
        crate::huzzah::geometry::Shape {
            anchor: self.position,
            facing: self.facing,
            ranks: self.ranks.clone(),
            base,
            square: self.formation == Formation::Square,
        }
    }

    /// In road column.
    pub fn is_column(&self) -> bool {
        self.formation == Formation::Column
    }

    /// Has the Skirmish (Limited) ability at the start.
    pub fn is_skirmish_limited(&self) -> bool {
        self.order == UnitOrder::SkirmishLimited
    }
}

impl Weather {
    /// Foul weather.
    pub fn is_foul(self) -> bool {
        self == Weather::Foul
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn inf(id: &str, division: &str, x: i32, y: i32, facing: u16) -> Value {
        json!({
            "id": id, "division": division,
            "bases": ["infantry", "infantry", "infantry", "infantry"],
            "expected": "regulars_b", "formation": "line", "ranks": [4],
            "position": [x, y], "facing": facing
        })
    }

    fn side(p: &str, y: i32, facing: u16) -> Value {
        json!({
            "name": p, "skirmish_factor": 8, "artillery_factor": 8,
            "officers": [
                {"id": format!("{p}-cinc"), "rank": "cinc", "quality": "average"},
                {"id": format!("{p}-gen"), "rank": "division", "quality": "poor"}
            ],
            "divisions": [{"id": format!("{p}-d"), "officer": format!("{p}-gen")}],
            "units": [inf(&format!("{p}-1"), &format!("{p}-d"), 900, y, facing)]
        })
    }

    /// A valid minimal scenario: one division and one infantry unit a side, 800 mm apart.
    fn minimal() -> Value {
        json!({
            "id": "test", "name": "Test", "provenance": "stand-in: a test",
            "table": {"width_mm": 1800, "depth_mm": 1200},
            "base_mm": 40, "turns": 6, "battle": "encounter", "setup": "placed",
            "first": "a",
            "conditions": [{"turn": 1, "ground": "normal", "weather": "fair"}],
            "sides": {"a": side("fr", 200, 0), "b": side("br", 1000, 180)}
        })
    }

    fn woods() -> Value {
        json!({
            "id": "w1", "kind": "woods",
            "polygon": [[100, 100], [500, 100], [500, 400], [100, 400]],
            "sectors": [
                [[100, 100], [300, 100], [300, 400], [100, 400]],
                [[300, 100], [500, 100], [500, 400], [300, 400]]
            ]
        })
    }

    fn load(v: Value) -> Result<Scenario, ScenarioError> {
        validate(from_json_value(v)?)
    }

    #[track_caller]
    fn refused(v: Value, path: &str, needles: &[&str]) {
        let e = match load(v) {
            Ok(_) => panic!("accepted; expected an error at {path}"),
            Err(e) => e,
        };
        assert_eq!(e.path, path, "{e}");
        for n in needles {
            assert!(e.message.contains(n), "the message lacks {n:?}: {e}");
        }
    }

    fn example() -> Value {
        let mut v: Value =
            serde_json::from_str(include_str!("../../scenarios/huzzah-firefight.json")).unwrap();
        let system = v.as_object_mut().unwrap().remove("system");
        assert_eq!(system, Some(json!("huzzah")));
        v
    }

    fn units<'a>(v: &'a mut Value, side: &str) -> &'a mut Vec<Value> {
        v["sides"][side]["units"].as_array_mut().unwrap()
    }

    #[test]
    fn minimal_scenario_loads() {
        let sc = load(minimal()).unwrap();
        assert_eq!(sc.data().id, "test");
        assert_eq!(
            sc.table(),
            TableSize {
                width: Len(18_000),
                depth: Len(12_000)
            }
        );
        assert_eq!(sc.base(), Len::mm(40));
        assert_eq!(sc.turns(), 6);
        assert_eq!(sc.battle(), Battle::Encounter);
        assert_eq!(sc.battle().min_setup_distance(), Len::cm(80));
        assert_eq!(sc.setup(), Setup::Placed);
        assert_eq!(sc.first(), Some(Side::A));
        assert_eq!(sc.units().len(), 2);
        let a = sc.unit_index("fr-1").unwrap();
        let b = sc.unit_index("br-1").unwrap();
        assert_eq!((a, b), (UnitIx(0), UnitIx(1)));
        assert_eq!(sc.unit_index("nobody"), None);
        assert_eq!(sc.units_of(Side::A).len(), 1);
        assert_eq!(sc.units_of(Side::B)[0].ix, b);
        let u = sc.unit(b);
        assert_eq!(u.side, Side::B);
        assert_eq!(u.id.as_str(), "br-1");
        assert_eq!(u.arm, Arm::Infantry);
        assert_eq!(
            u.position,
            Point {
                x: Len(9000),
                y: Len(10_000)
            }
        );
        assert_eq!(u.facing, Facing(180));
        assert_eq!((u.formation, u.front_rank()), (Formation::Line, 4));
        assert_eq!(u.fire_range(), Some(INFANTRY_RANGE));
        assert_eq!(u.reserve_artillery_range(), None);
        assert_eq!(u.effective_expected(), ExpectedQuality::RegularsB);
        let d = sc.division(u.division);
        assert_eq!((d.id.as_str(), d.units.as_slice()), ("br-d", &[b][..]));
        let cinc = sc.cinc(Side::B);
        assert_eq!(sc.officer(cinc).id, "br-cinc");
        assert_eq!(sc.officer(cinc).commands, Some(CommandGroup::Army));
        assert_eq!(sc.corps_officer(u.division), cinc);
        let gen = sc.officer_index("br-gen").unwrap();
        assert_eq!(d.officer, gen);
        assert_eq!(
            sc.officer(gen).commands,
            Some(CommandGroup::Division(u.division))
        );
        assert_eq!(sc.officers_of(Side::B).len(), 2);
        assert_eq!(sc.officers_of(Side::A)[0].id, "fr-cinc");
        assert_eq!(sc.side(Side::A).name, "fr");
        assert!(sc.corps_list().is_empty());
        assert_eq!(sc.quality_table(), &QualityTable::stand_in());
        assert!(sc.movement().provenance().starts_with("stand-in:"));
    }

    #[test]
    fn example_scenario_loads() {
        let sc = load(example()).unwrap();
        assert_eq!(sc.data().id, "huzzah-firefight");
        assert!(sc.data().provenance.starts_with("stand-in:"));
        assert_eq!((sc.turns(), sc.base()), (6, Len::cm(4)));
        assert_eq!(sc.units_of(Side::A).len(), 4);
        assert_eq!(sc.units_of(Side::B).len(), 3);
        let u = |id: &str| sc.unit(sc.unit_index(id).unwrap());
        assert!(u("fr-1").has_divisional_artillery());
        assert_eq!(u("fr-2").order, UnitOrder::Skirmish);
        let guns = u("fr-guns");
        assert_eq!(guns.arm, Arm::Artillery);
        assert!(!guns.is_grand_battery());
        assert_eq!(guns.fire_range(), Some(Len::cm(60)));
        assert!(u("br-1").flags.renowned);
        assert_eq!(u("br-2").ranks, vec![2, 2]);
        // The lines face each other 150 mm apart, inside infantry range.
        let gap = u("br-2").position.y.0 - u("fr-2").position.y.0;
        assert_eq!(Len(gap), Len::mm(150));
        assert!(Len(gap) < INFANTRY_RANGE);
        assert_eq!(u("fr-1").facing, Facing(0));
        assert_eq!(u("br-1").facing, Facing(180));
        for side in Side::BOTH {
            for x in sc.units_of(side) {
                assert_eq!(sc.division(x.division).side, side);
            }
        }
    }

    #[test]
    fn data_round_trips_through_json() {
        for v in [minimal(), example()] {
            let data = from_json_value(v).unwrap();
            let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
            assert_eq!(data, again);
        }
        let mut v = minimal();
        v["terrain"] = json!([woods()]);
        units(&mut v, "a")[0]["bases"] = json!([
            "foot_artillery",
            {"kind": "heavy_artillery", "expected": "elites_d"}
        ]);
        units(&mut v, "a")[0]["ranks"] = json!([2]);
        let data = from_json_value(v).unwrap();
        let text = serde_json::to_value(&data).unwrap();
        assert_eq!(
            text["sides"]["a"]["units"][0]["bases"],
            json!(["foot_artillery", {"kind": "heavy_artillery", "expected": "elites_d"}])
        );
        assert_eq!(from_json_value(text).unwrap(), data);
    }

    #[test]
    fn validation_is_deterministic() {
        let a = load(example()).unwrap();
        let b = load(example()).unwrap();
        assert_eq!(a.units(), b.units());
        assert_eq!(a.officers(), b.officers());
        assert_eq!(a.divisions(), b.divisions());
    }

    #[test]
    fn unknown_fields_refused_with_path() {
        let cases: [(&[&str], &str); 6] = [
            (&[], "colour"),
            (&["sides", "a", "units", "0"], "sides.a.units[0].colour"),
            (
                &["sides", "b", "units", "0", "bases", "1"],
                "sides.b.units[0].bases[1].colour",
            ),
            (&["table"], "table.colour"),
            (
                &["sides", "a", "officers", "0"],
                "sides.a.officers[0].colour",
            ),
            (&["terrain", "0"], "terrain[0].colour"),
        ];
        for (at, path) in cases {
            let mut v = minimal();
            v["terrain"] = json!([woods()]);
            units(&mut v, "b")[0]["bases"][1] = json!({"kind": "infantry"});
            let mut obj = &mut v;
            for k in at {
                obj = match k.parse::<usize>() {
                    Ok(i) => &mut obj[i],
                    Err(_) => &mut obj[*k],
                };
            }
            obj["colour"] = json!("blue");
            let e = from_json_value(v).unwrap_err();
            assert_eq!(e.path, path, "{e}");
            assert!(e.message.contains("unknown field `colour`"), "{e}");
        }
        let mut v = minimal();
        v["sides"]["c"] = json!({});
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "sides.c", "{e}");
        assert!(e.message.contains("unknown field `c`"), "{e}");
    }

    #[test]
    fn deserialize_errors_have_paths() {
        let mut v = minimal();
        v["base_mm"] = json!("40");
        assert_eq!(from_json_value(v).unwrap_err().path, "base_mm");
        let mut v = minimal();
        units(&mut v, "a")[0]["expected"] = json!("regulars_e");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "sides.a.units[0].expected");
        assert!(e.message.contains("regulars_e"), "{e}");
        let mut v = minimal();
        units(&mut v, "b")[0]
            .as_object_mut()
            .unwrap()
            .remove("facing");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "sides.b.units[0].facing");
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"][2] = json!("dragoons");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "sides.b.units[0].bases[2]");
        assert!(e.message.contains("dragoons"), "{e}");
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"][2] = json!({"kind": "dragoons"});
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "sides.b.units[0].bases[2].kind");
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"][2] = json!(7);
        assert_eq!(
            from_json_value(v).unwrap_err().path,
            "sides.b.units[0].bases[2]"
        );
        let mut v = minimal();
        units(&mut v, "a")[0]["position"] = json!([1, 2, 3]);
        assert_eq!(
            from_json_value(v).unwrap_err().path,
            "sides.a.units[0].position"
        );
        let mut v = minimal();
        let mut q = serde_json::to_value(QualityTable::stand_in_data()).unwrap();
        q["rows"]["militia_a"].as_array_mut().unwrap().pop();
        v["quality_table"] = q;
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "quality_table.rows.militia_a", "{e}");
        let mut v = minimal();
        v["quality_table"] = json!({"provenance": "x", "rows": {}});
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "quality_table.rows.elites_a", "{e}");
    }

    #[test]
    fn stand_in_movement_table() {
        let m = MovementData::stand_in().validate("movement").unwrap();
        let r = |a, f| m.rate(a, f).0 / 10;
        use MoveArm as A;
        use MoveFormation as F;
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::Infantry, f)),
            [200, 250, 300]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::Cavalry, f)),
            [400, 450, 500]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveArtillery, f)),
            [200, 200, 300]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveHeavyArtillery, f)),
            [150, 150, 200]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveHorseArtillery, f)),
            [400, 400, 500]
        );
        // Printed: officers 60 cm (page 20), infantry 20 cm (page 19).
        assert_eq!(m.officers(), Len::cm(60));
        assert_eq!(m.rate(A::Infantry, F::Line), Len::cm(20));
        assert!(m.provenance().starts_with("stand-in:"));
    }

    #[test]
    fn docs_print_the_stand_in_movement_table() {
        let doc = include_str!("../../../docs/huzzah.md");
        let m = MovementData::stand_in();
        let rows = [
            ("Infantry", m.infantry),
            ("Cavalry", m.cavalry),
            ("Reserve artillery", m.reserve_artillery),
            ("Reserve heavy artillery", m.reserve_heavy_artillery),
            ("Reserve horse artillery", m.reserve_horse_artillery),
        ];
        for (name, r) in rows {
            let line = format!("| {name} | {} | {} | {} |", r.line, r.open, r.column);
            assert!(doc.contains(&line), "docs/huzzah.md lacks {line}");
        }
        assert!(doc.contains(&format!("| Officers | {} | | |", m.officers)));
        assert!(doc.replace('\n', " ").contains(&m.provenance));
    }

    #[test]
    fn movement_override_and_its_limits() {
        let mut v = minimal();
        let mut m = serde_json::to_value(MovementData::stand_in()).unwrap();
        m["provenance"] = json!("printed");
        m["cavalry"]["open"] = json!(470);
        v["movement"] = m.clone();
        let sc = load(v).unwrap();
        assert_eq!(
            sc.move_rate(MoveArm::Cavalry, MoveFormation::Open),
            Len::mm(470)
        );
        assert_eq!(sc.officer_move(), Len::cm(60));
        let mut v = minimal();
        m["cavalry"]["open"] = json!(5);
        v["movement"] = m.clone();
        refused(v, "movement.cavalry.open", &["5 mm", "10 to 2000"]);
        let mut v = minimal();
        m["cavalry"]["open"] = json!(450);
        m["officers"] = json!(3000);
        v["movement"] = m.clone();
        refused(v, "movement.officers", &["3000 mm"]);
        let mut v = minimal();
        m["officers"] = json!(600);
        m["provenance"] = json!("");
        v["movement"] = m;
        refused(v, "movement.provenance", &["empty"]);
    }

    #[test]
    fn quality_table_override() {
        let mut v = minimal();
        let mut q = QualityTable::stand_in_data();
        q.provenance = "printed".into();
        q.rows.regulars_b[10] = Quality::Raw;
        v["quality_table"] = serde_json::to_value(&q).unwrap();
        let sc = load(v).unwrap();
        assert_eq!(
            sc.quality_table().result(ExpectedQuality::RegularsB, 12),
            Quality::Raw
        );
        assert_eq!(sc.quality_table().provenance(), "printed");
        let mut v = minimal();
        q.rows.elites_a[4] = Quality::Unreliable;
        v["quality_table"] = serde_json::to_value(&q).unwrap();
        refused(
            v,
            "quality_table.rows.elites_a[5]",
            &["experienced", "page 1"],
        );
    }

    #[test]
    fn top_level_values_checked() {
        let mut v = minimal();
        v["id"] = json!(" ");
        refused(v, "id", &["empty"]);
        let mut v = minimal();
        v["provenance"] = json!("");
        refused(v, "provenance", &["provenance"]);
        let mut v = minimal();
        v["table"]["width_mm"] = json!(50);
        refused(v, "table.width_mm", &["50 mm", "100 to 10000"]);
        let mut v = minimal();
        v["table"]["depth_mm"] = json!(20_000);
        refused(v, "table.depth_mm", &["20000 mm"]);
        let mut v = minimal();
        v["base_mm"] = json!(5);
        refused(v, "base_mm", &["5 mm", "page 2"]);
        let mut v = minimal();
        v["turns"] = json!(0);
        refused(v, "turns", &["0"]);
        let mut v = minimal();
        v["turns"] = json!(101);
        refused(v, "turns", &["101"]);
    }

    #[test]
    fn battle_and_defender_agree() {
        let mut v = minimal();
        v["battle"] = json!("defended");
        refused(v, "defender", &["page 7"]);
        let mut v = minimal();
        v["defender"] = json!("b");
        refused(v, "defender", &["\"b\"", "encounter", "page 7"]);
        let mut v = minimal();
        v["battle"] = json!("defended");
        v["defender"] = json!("b");
        let sc = load(v).unwrap();
        assert_eq!(sc.battle(), Battle::Defended { defender: Side::B });
        assert_eq!(sc.battle().min_setup_distance(), Len::cm(60));
    }

    #[test]
    fn conditions_from_turn_one_strictly_increasing() {
        let mut v = minimal();
        v["conditions"] = json!([
            {"turn": 1, "ground": "soft", "weather": "foul"},
            {"turn": 4, "ground": "soft", "weather": "fair"},
            {"turn": 6, "ground": "hard", "weather": "fair"}
        ]);
        let sc = load(v.clone()).unwrap();
        assert_eq!(sc.conditions_on(1), (Ground::Soft, Weather::Foul));
        assert_eq!(sc.conditions_on(3), (Ground::Soft, Weather::Foul));
        assert_eq!(sc.conditions_on(4), (Ground::Soft, Weather::Fair));
        assert_eq!(sc.conditions_on(6), (Ground::Hard, Weather::Fair));
        v["conditions"][0]["turn"] = json!(2);
        refused(v.clone(), "conditions[0].turn", &["turn 2", "turn 1"]);
        v["conditions"][0]["turn"] = json!(1);
        v["conditions"][2]["turn"] = json!(4);
        refused(v.clone(), "conditions[2].turn", &["turn 4 after turn 4"]);
        v["conditions"][2]["turn"] = json!(7);
        refused(v, "conditions[2].turn", &["turn 7", "6 turns"]);
        let mut v = minimal();
        v.as_object_mut().unwrap().remove("conditions");
        let sc = load(v).unwrap();
        assert_eq!(sc.conditions_on(3), (Ground::Normal, Weather::Fair));
    }

    #[test]
    fn terrain_checked() {
        let mut v = minimal();
        v["terrain"] = json!([woods(), {"id": "h1", "kind": "hedge", "polygon": [[600, 600], [900, 600], [900, 620]]}]);
        let sc = load(v.clone()).unwrap();
        let w = &sc.terrain()[0];
        assert_eq!(w.sectors.len(), 2);
        assert_eq!(
            w.polygon[1],
            Point {
                x: Len(5000),
                y: Len(1000)
            }
        );
        assert!(sc.terrain()[1].sectors.is_empty());
        assert_eq!(
            sc.sector(SectorRef {
                terrain: TerrainIx(0),
                sector: 1
            })[0],
            Point {
                x: Len(3000),
                y: Len(1000)
            }
        );
        assert_eq!(sc.terrain_piece(TerrainIx(1)).kind, TerrainKind::Hedge);

        let mut d = v.clone();
        d["terrain"][1]["id"] = json!("w1");
        refused(d, "terrain[1].id", &["duplicate", "'w1'"]);
        let mut d = v.clone();
        d["terrain"][1]["id"] = json!("h/1");
        refused(d, "terrain[1].id", &["'h/1'", "'/'"]);
        let mut d = v.clone();
        d["terrain"][1]["polygon"] = json!([[600, 600], [900, 600]]);
        refused(d, "terrain[1].polygon", &["2 points", "at least 3"]);
        let mut d = v.clone();
        d["terrain"][1]["polygon"] = json!([[600, 600], [700, 600], [900, 600]]);
        refused(d, "terrain[1].polygon", &["zero area"]);
        let mut d = v.clone();
        d["terrain"][1]["polygon"][1] = json!([1900, 600]);
        refused(
            d,
            "terrain[1].polygon[1]",
            &["[1900, 600]", "off the table"],
        );
        let mut d = v.clone();
        d["terrain"][1]["sectors"] = json!([[[600, 600], [900, 600], [900, 620]]]);
        refused(d, "terrain[1].sectors", &["hedge", "page 19"]);
        let mut d = v.clone();
        d["terrain"][0]["sectors"] = json!([]);
        refused(d, "terrain[0].sectors", &["no sectors"]);
        let mut d = v.clone();
        d["terrain"][0]["sectors"][1][2] = json!([600, 400]);
        refused(
            d,
            "terrain[0].sectors[1][2]",
            &["[600, 400]", "outside", "'w1'"],
        );
        // Buildings without sectors: one sector, the outline.
        let mut d = v.clone();
        d["terrain"][0]["kind"] = json!("buildings");
        d["terrain"][0].as_object_mut().unwrap().remove("sectors");
        let sc = load(d).unwrap();
        assert_eq!(
            sc.terrain()[0].sectors,
            vec![sc.terrain()[0].polygon.clone()]
        );
    }

    #[test]
    fn a_sector_crossing_a_notch_of_its_piece_is_refused() {
        // A U-shaped wood; the sector's vertices are all inside, but its edges cross
        // the notch.
        let mut v = minimal();
        v["terrain"] = json!([{
            "id": "u", "kind": "woods",
            "polygon": [[0, 0], [300, 0], [300, 300], [200, 300], [200, 100], [100, 100], [100, 300], [0, 300]],
            "sectors": [[[50, 250], [250, 250], [250, 280], [50, 280]]]
        }]);
        refused(
            v.clone(),
            "terrain[0].sectors[0][0]",
            &["[50, 250]", "[250, 250]", "crosses"],
        );
        v["terrain"][0]["sectors"] = json!([[[0, 0], [300, 0], [300, 100], [0, 100]]]);
        load(v).unwrap();
    }

    #[test]
    fn size_limits() {
        let mut v = minimal();
        let u = units(&mut v, "a")[0].clone();
        *units(&mut v, "a") = (0..201)
            .map(|i| {
                let mut x = u.clone();
                x["id"] = json!(format!("u{i}"));
                x
            })
            .collect();
        refused(v, "sides.a.units", &["201 units", "200"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(vec!["infantry"; 25]);
        refused(v, "sides.b.units[0].bases", &["25 bases", "24"]);
        let mut v = minimal();
        v["terrain"] = json!(vec![woods(); 201]);
        refused(v, "terrain", &["201 terrain pieces"]);
        let mut v = minimal();
        let mut w = woods();
        w["polygon"] = json!(vec![[1, 1]; 257]);
        v["terrain"] = json!([w]);
        refused(v, "terrain[0].polygon", &["257 points", "256"]);
        let mut v = minimal();
        let o = v["sides"]["a"]["officers"][1].clone();
        let list = v["sides"]["a"]["officers"].as_array_mut().unwrap();
        for i in 0..100 {
            let mut x = o.clone();
            x["id"] = json!(format!("o{i}"));
            list.push(x);
        }
        refused(v, "sides.a.officers", &["102 officers", "100"]);
    }

    #[test]
    fn army_factors() {
        let mut v = minimal();
        v["sides"]["a"]["skirmish_factor"] = json!(5);
        refused(v, "sides.a.skirmish_factor", &["5", "6 to 10", "page 9"]);
        let mut v = minimal();
        v["sides"]["b"]["artillery_factor"] = json!(11);
        refused(v, "sides.b.artillery_factor", &["11", "page 10"]);
    }

    #[test]
    fn officers_checked() {
        let mut v = minimal();
        v["sides"]["b"]["officers"][1]["id"] = json!("fr-gen");
        refused(v, "sides.b.officers[1].id", &["duplicate", "'fr-gen'"]);
        let mut v = minimal();
        v["sides"]["a"]["officers"][0]["rank"] = json!("division");
        refused(
            v,
            "sides.a.officers",
            &["no officer of rank cinc", "page 16"],
        );
        let mut v = minimal();
        v["sides"]["a"]["officers"][1]["rank"] = json!("cinc");
        refused(
            v,
            "sides.a.officers[1].rank",
            &["'fr-gen'", "second cinc", "page 16"],
        );
        let mut v = minimal();
        v["sides"]["a"]["officers"][1]["position"] = json!([100, 1300]);
        refused(
            v,
            "sides.a.officers[1].position",
            &["[100, 1300]", "off the table"],
        );
        let mut v = minimal();
        v["sides"]["a"]["officers"][1]["position"] = json!([100, 300]);
        v["sides"]["a"]["officers"][1]["inspirational"] = json!(true);
        v["sides"]["a"]["officers"][1]["charmed"] = json!(true);
        let sc = load(v).unwrap();
        let o = sc.officer(sc.officer_index("fr-gen").unwrap());
        assert!(o.inspirational && o.charmed);
        assert_eq!(o.quality.command_factor(), 7);
        assert_eq!(o.quality.radius(), Len::cm(30));
        assert_eq!(
            o.position,
            Some(Point {
                x: Len(1000),
                y: Len(3000)
            })
        );
    }

    #[test]
    fn officer_quality_as_printed() {
        use OfficerQuality as Q;
        let all = [Q::Excellent, Q::Skilful, Q::Average, Q::Poor, Q::Abysmal];
        assert_eq!(all.map(Q::command_factor), [10, 9, 8, 7, 6]);
        assert_eq!(all.map(|q| q.radius().0 / 100), [60, 50, 40, 30, 20]);
    }

    #[test]
    fn divisions_checked() {
        let mut v = minimal();
        v["sides"]["a"]["divisions"][0]["officer"] = json!("fr-nobody");
        refused(
            v,
            "sides.a.divisions[0].officer",
            &["unknown officer 'fr-nobody'"],
        );
        let mut v = minimal();
        v["sides"]["a"]["divisions"][0]["officer"] = json!("br-gen");
        refused(v, "sides.a.divisions[0].officer", &["'br-gen'", "side b"]);
        let mut v = minimal();
        v["sides"]["a"]["divisions"][0]["officer"] = json!("fr-cinc");
        refused(
            v,
            "sides.a.divisions[0].officer",
            &["'fr-cinc'", "rank cinc", "page 16"],
        );
        let mut v = minimal();
        v["sides"]["a"]["divisions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "fr-d2", "officer": "fr-gen"}));
        refused(
            v,
            "sides.a.divisions[1].officer",
            &["'fr-gen'", "already commands", "page 16"],
        );
        let mut v = minimal();
        v["sides"]["b"]["divisions"][0]["id"] = json!("fr-d");
        units(&mut v, "b")[0]["division"] = json!("fr-d");
        refused(v, "sides.b.divisions[0].id", &["duplicate", "'fr-d'"]);
        let mut v = minimal();
        v["sides"]["a"]["divisions"][0]["corps"] = json!("c1");
        refused(
            v,
            "sides.a.divisions[0].corps",
            &["'c1'", "no corps", "page 16"],
        );
    }

    /// Side a with two corps of one division each.
    fn two_corps() -> Value {
        let mut v = minimal();
        let a = &mut v["sides"]["a"];
        a["officers"] = json!([
            {"id": "fr-cinc", "rank": "cinc", "quality": "excellent"},
            {"id": "fr-c1-gen", "rank": "corps", "quality": "skilful"},
            {"id": "fr-c2-gen", "rank": "corps", "quality": "average"},
            {"id": "fr-gen", "rank": "division", "quality": "poor"},
            {"id": "fr-gen2", "rank": "division", "quality": "abysmal"}
        ]);
        a["corps"] = json!([
            {"id": "fr-c1", "officer": "fr-c1-gen"},
            {"id": "fr-c2", "officer": "fr-c2-gen"}
        ]);
        a["divisions"] = json!([
            {"id": "fr-d", "officer": "fr-gen", "corps": "fr-c1"},
            {"id": "fr-d2", "officer": "fr-gen2", "corps": "fr-c2"}
        ]);
        units(&mut v, "a").push(inf("fr-2", "fr-d2", 400, 200, 0));
        v
    }

    #[test]
    fn corps_checked() {
        let sc = load(two_corps()).unwrap();
        assert_eq!(sc.corps_list().len(), 2);
        let u = sc.unit(sc.unit_index("fr-2").unwrap());
        let c2 = sc.corps(CorpsIx(1));
        assert_eq!(
            (c2.id.as_str(), c2.divisions.as_slice()),
            ("fr-c2", &[u.division][..])
        );
        assert_eq!(
            sc.corps_officer(u.division),
            sc.officer_index("fr-c2-gen").unwrap()
        );
        assert_eq!(
            sc.officer(c2.officer).commands,
            Some(CommandGroup::Corps(CorpsIx(1)))
        );
        assert_eq!(sc.division(u.division).corps, Some(CorpsIx(1)));

        let mut v = two_corps();
        v["sides"]["a"]["corps"].as_array_mut().unwrap().pop();
        refused(v, "sides.a.corps", &["single corps ('fr-c1')", "page 16"]);
        let mut v = minimal();
        v["sides"]["a"]["officers"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "fr-spare", "rank": "corps", "quality": "poor"}));
        refused(
            v,
            "sides.a.officers[2].rank",
            &["'fr-spare'", "single corps", "page 16"],
        );
        let mut v = two_corps();
        v["sides"]["a"]["corps"][1]["officer"] = json!("fr-gen2");
        refused(
            v,
            "sides.a.corps[1].officer",
            &["'fr-gen2'", "rank division"],
        );
        let mut v = two_corps();
        v["sides"]["a"]["corps"][1]["officer"] = json!("fr-c1-gen");
        refused(v, "sides.a.corps[1].officer", &["already commands"]);
        let mut v = two_corps();
        v["sides"]["a"]["corps"][1]["id"] = json!("fr-c1");
        refused(v, "sides.a.corps[1].id", &["duplicate", "'fr-c1'"]);
        let mut v = two_corps();
        v["sides"]["a"]["divisions"][1]
            .as_object_mut()
            .unwrap()
            .remove("corps");
        refused(
            v,
            "sides.a.divisions[1].corps",
            &["'fr-d2'", "names no corps"],
        );
        let mut v = two_corps();
        v["sides"]["a"]["divisions"][1]["corps"] = json!("fr-c9");
        refused(v, "sides.a.divisions[1].corps", &["unknown corps 'fr-c9'"]);
    }

    #[test]
    fn units_checked() {
        let mut v = minimal();
        units(&mut v, "b")[0]["id"] = json!("fr-1");
        refused(v, "sides.b.units[0].id", &["duplicate", "'fr-1'"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["division"] = json!("br-x");
        refused(v, "sides.b.units[0].division", &["unknown division 'br-x'"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["division"] = json!("fr-d");
        refused(v, "sides.b.units[0].division", &["'fr-d'", "other side"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["position"] = json!([-1, 200]);
        refused(
            v,
            "sides.a.units[0].position",
            &["[-1, 200]", "off the table"],
        );
        let mut v = minimal();
        units(&mut v, "a")[0]["facing"] = json!(360);
        refused(v, "sides.a.units[0].facing", &["360", "0 to 359"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["bases"] = json!([]);
        units(&mut v, "a")[0]["ranks"] = json!([]);
        refused(v, "sides.a.units[0].bases", &["no bases"]);
    }

    #[track_caller]
    fn refused_bases(bases: Value, path: &str, needles: &[&str]) {
        let mut v = minimal();
        let n = bases.as_array().unwrap().len();
        units(&mut v, "b")[0]["bases"] = bases;
        units(&mut v, "b")[0]["ranks"] = json!([n]);
        refused(v, path, needles);
    }

    #[test]
    fn composition_page_3() {
        refused_bases(
            json!(["infantry", "infantry", "battle_cavalry"]),
            "sides.b.units[0].bases[2]",
            &["battle_cavalry", "infantry and cavalry", "page 3"],
        );
        refused_bases(
            json!(["other_cavalry", "infantry"]),
            "sides.b.units[0].bases[1]",
            &["infantry", "infantry and cavalry", "page 3"],
        );
        refused_bases(
            json!(["battle_cavalry", "horse_artillery"]),
            "sides.b.units[0].bases[1]",
            &["horse_artillery", "cavalry and artillery", "page 3"],
        );
        refused_bases(
            json!(["foot_artillery", "battle_cavalry"]),
            "sides.b.units[0].bases[1]",
            &["battle_cavalry", "cavalry and artillery"],
        );
        refused_bases(
            json!(["divisional_artillery", "battle_cavalry"]),
            "sides.b.units[0].bases[0]",
            &["divisional_artillery", "cavalry and artillery"],
        );
        refused_bases(
            json!(["infantry", "divisional_artillery", "divisional_artillery"]),
            "sides.b.units[0].bases[2]",
            &["divisional_artillery", "maximum of one", "page 3"],
        );
        refused_bases(
            json!(["divisional_artillery"]),
            "sides.b.units[0].bases[0]",
            &["divisional_artillery", "page 3"],
        );
        refused_bases(
            json!(["foot_artillery", "divisional_artillery"]),
            "sides.b.units[0].bases[1]",
            &["divisional_artillery", "only to infantry", "page 3"],
        );
        refused_bases(
            json!(["infantry", "foot_artillery"]),
            "sides.b.units[0].bases[1]",
            &[
                "foot_artillery",
                "only to other reserve artillery",
                "page 3",
            ],
        );
        refused_bases(
            json!(["heavy_artillery", "infantry"]),
            "sides.b.units[0].bases[1]",
            &["infantry", "only to other reserve artillery"],
        );
        refused_bases(
            json!(["infantry", {"kind": "infantry", "expected": "elites_a"}]),
            "sides.b.units[0].bases[1].expected",
            &["infantry", "reserve artillery", "page 6"],
        );
    }

    #[test]
    fn unit_kinds_that_load() {
        let mut v = minimal();
        let us = units(&mut v, "a");
        us[0]["bases"] = json!(["divisional_artillery", "infantry", "infantry"]);
        us[0]["ranks"] = json!([3]);
        let mut bat = inf("fr-gb", "fr-d", 1500, 100, 0);
        bat["bases"] = json!([
            {"kind": "foot_artillery", "expected": "elites_d"},
            "heavy_artillery",
            {"kind": "horse_artillery"}
        ]);
        bat["ranks"] = json!([3]);
        us.push(bat);
        let mut cav = inf("fr-cav", "fr-d", 300, 100, 0);
        cav["bases"] = json!(["battle_cavalry", "other_cavalry"]);
        cav["ranks"] = json!([2]);
        us.push(cav);
        let mut cossacks = inf("fr-cos", "fr-d", 100, 100, 0);
        cossacks["bases"] = json!(["other_cavalry", "other_cavalry"]);
        cossacks["ranks"] = json!([1, 1]);
        cossacks["formation"] = json!("column");
        cossacks["order"] = json!("irregular");
        us.push(cossacks);
        let mut ottomans = inf("fr-ott", "fr-d", 100, 500, 0);
        ottomans["bases"] = json!([
            "irregular_infantry",
            "irregular_infantry",
            "divisional_artillery"
        ]);
        ottomans["ranks"] = json!([3]);
        ottomans["order"] = json!("irregular");
        us.push(ottomans);
        let mut square = inf("fr-sq", "fr-d", 1700, 500, 90);
        square["formation"] = json!("square");
        square["ranks"] = json!([2, 2]);
        square["order"] = json!("skirmish_limited");
        square["grognards"] = json!(true);
        square["disciplined"] = json!(true);
        square["quality"] = json!("veteran");
        us.push(square);
        let sc = load(v).unwrap();
        let u = |id: &str| sc.unit(sc.unit_index(id).unwrap());
        assert!(u("fr-1").has_divisional_artillery());
        assert_eq!(u("fr-1").arm, Arm::Infantry);
        assert_eq!(u("fr-1").fire_range(), Some(Len::cm(20)));
        let gb = u("fr-gb");
        assert!(gb.is_grand_battery() && gb.has_heavy_artillery());
        assert_eq!(gb.arm, Arm::Artillery);
        assert_eq!(gb.arm.fire_arm(), Some(FireArm::Artillery));
        // The shortest range of its batteries (page 11).
        assert_eq!(gb.reserve_artillery_range(), Some(Len::cm(60)));
        assert_eq!(gb.base_expected(0), ExpectedQuality::ElitesD);
        assert_eq!(gb.base_expected(1), ExpectedQuality::RegularsB);
        assert_eq!(gb.effective_expected(), ExpectedQuality::RegularsB);
        // The slowest of its guns: heavy artillery.
        assert_eq!(
            sc.unit_move_rate(gb.ix, MoveFormation::Column),
            Len::mm(200)
        );
        let cav = u("fr-cav");
        assert_eq!((cav.arm, cav.fire_range()), (Arm::Cavalry, None));
        assert_eq!(cav.arm.fire_arm(), None);
        assert_eq!(sc.unit_move_rate(cav.ix, MoveFormation::Line), Len::cm(40));
        assert!(u("fr-cos").is_irregular());
        assert_eq!(u("fr-ott").arm, Arm::Infantry);
        let sq = u("fr-sq");
        assert_eq!(sq.formation, Formation::Square);
        assert!(sq.flags.grognards && sq.flags.disciplined);
        assert_eq!(sq.quality, Some(Quality::Veteran));
        assert_eq!(sq.facing, Facing(90));
        assert_eq!(sc.division(DivisionIx(0)).units.len(), 6);
    }

    #[test]
    fn single_reserve_artillery_base_ranges() {
        let mut v = minimal();
        units(&mut v, "a")[0]["bases"] = json!(["heavy_artillery"]);
        units(&mut v, "a")[0]["ranks"] = json!([1]);
        let sc = load(v).unwrap();
        let u = sc.unit(UnitIx(0));
        assert!(!u.is_grand_battery());
        assert_eq!(u.fire_range(), Some(Len::cm(80)));
    }

    #[test]
    fn base_hits_as_printed() {
        use BaseKind as B;
        let hits = [
            (B::Infantry, 3),
            (B::IrregularInfantry, 2),
            (B::BattleCavalry, 3),
            (B::OtherCavalry, 2),
            (B::DivisionalArtillery, 3),
            (B::FootArtillery, 4),
            (B::HorseArtillery, 4),
            (B::HeavyArtillery, 4),
        ];
        for (k, h) in hits {
            assert_eq!(k.hits(), h, "{k:?}");
        }
    }

    #[test]
    fn irregular_and_skirmish_orders() {
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(["irregular_infantry", "infantry"]);
        units(&mut v, "b")[0]["ranks"] = json!([2]);
        units(&mut v, "b")[0]["order"] = json!("irregular");
        refused(
            v,
            "sides.b.units[0].bases[1]",
            &["infantry", "irregular", "page 6"],
        );
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(["irregular_infantry", "irregular_infantry"]);
        units(&mut v, "b")[0]["ranks"] = json!([2]);
        refused(
            v.clone(),
            "sides.b.units[0].order",
            &["order close", "irregular_infantry", "pages 6"],
        );
        units(&mut v, "b")[0]["order"] = json!("skirmish");
        refused(v, "sides.b.units[0].order", &["order skirmish"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["order"] = json!("irregular");
        refused(
            v,
            "sides.b.units[0].order",
            &["order irregular", "bases[0] is infantry", "page 6"],
        );
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(["other_cavalry", "battle_cavalry"]);
        units(&mut v, "b")[0]["ranks"] = json!([2]);
        units(&mut v, "b")[0]["order"] = json!("irregular");
        refused(v, "sides.b.units[0].order", &["bases[1] is battle_cavalry"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(["foot_artillery"]);
        units(&mut v, "b")[0]["ranks"] = json!([1]);
        units(&mut v, "b")[0]["order"] = json!("irregular");
        refused(v, "sides.b.units[0].order", &["foot_artillery"]);
        let mut v = minimal();
        units(&mut v, "b")[0]["bases"] = json!(["battle_cavalry"]);
        units(&mut v, "b")[0]["ranks"] = json!([1]);
        units(&mut v, "b")[0]["order"] = json!("skirmish_limited");
        refused(
            v,
            "sides.b.units[0].order",
            &["order skirmish_limited", "battle_cavalry", "infantry"],
        );
    }

    #[test]
    fn formations_checked() {
        let mut v = minimal();
        units(&mut v, "a")[0]["ranks"] = json!([2, 1]);
        refused(v, "sides.a.units[0].ranks", &["[2, 1]", "3 bases", "has 4"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["ranks"] = json!([4, 0]);
        refused(v, "sides.a.units[0].ranks[1]", &["0 bases"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["ranks"] = json!([]);
        refused(v, "sides.a.units[0].ranks", &["no ranks"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["formation"] = json!("column");
        units(&mut v, "a")[0]["ranks"] = json!([1, 1, 2]);
        refused(
            v,
            "sides.a.units[0].ranks[2]",
            &["2 bases", "road column", "page 21"],
        );
        let mut v = minimal();
        units(&mut v, "a")[0]["formation"] = json!("square");
        refused(v, "sides.a.units[0].ranks", &["1 rank", "page 22"]);
        let mut v = minimal();
        units(&mut v, "a")[0]["bases"] = json!(["battle_cavalry", "battle_cavalry"]);
        units(&mut v, "a")[0]["formation"] = json!("square");
        units(&mut v, "a")[0]["ranks"] = json!([1, 1]);
        refused(v, "sides.a.units[0].formation", &["cavalry", "page 22"]);
    }

    #[test]
    fn traits_checked() {
        let mut v = minimal();
        units(&mut v, "a")[0]["hesitant"] = json!(true);
        units(&mut v, "a")[0]["impulsive"] = json!(true);
        refused(
            v,
            "sides.a.units[0].impulsive",
            &["impulsive and also hesitant"],
        );
        let mut v = minimal();
        units(&mut v, "a")[0]["disciplined"] = json!(true);
        refused(
            v,
            "sides.a.units[0].disciplined",
            &["without grognards", "pages 5"],
        );
    }

    #[test]
    fn sectors_checked() {
        let mut v = minimal();
        v["terrain"] = json!([woods(), {"id": "h1", "kind": "hedge", "polygon": [[600, 600], [900, 600], [900, 620]]}]);
        units(&mut v, "a")[0]["sector"] = json!("w1/1");
        let mut cos = inf("fr-cos", "fr-d", 200, 150, 0);
        cos["bases"] = json!(["other_cavalry", "other_cavalry"]);
        cos["ranks"] = json!([2]);
        cos["order"] = json!("irregular");
        cos["sector"] = json!("w1/0");
        units(&mut v, "a").push(cos);
        let sc = load(v.clone()).unwrap();
        assert_eq!(
            sc.unit(UnitIx(0)).sector,
            Some(SectorRef {
                terrain: TerrainIx(0),
                sector: 1
            })
        );
        let cases = [
            ("w1/0", "already held by 'fr-cos'"),
            ("w1/2", "2 sectors"),
            ("h1/0", "hedge"),
            ("zz/0", "no terrain piece 'zz'"),
            ("w1", "\"<terrain id>/<sector number>\""),
            ("w1/+1", "not a whole number"),
        ];
        for (s, needle) in cases {
            let mut d = v.clone();
            // The second unit holds w1/0 and comes first in the sector check order.
            let us = units(&mut d, "a");
            us.swap(0, 1);
            us[1]["sector"] = json!(s);
            refused(d, "sides.a.units[1].sector", &[&format!("'{s}'"), needle]);
        }
        let mut d = v.clone();
        units(&mut d, "a")[1]["order"] = json!("close");
        refused(
            d,
            "sides.a.units[1].sector",
            &["'w1/0'", "not irregular", "page 22"],
        );
        let mut d = v;
        units(&mut d, "a")[0]["bases"] = json!(["foot_artillery"]);
        units(&mut d, "a")[0]["ranks"] = json!([1]);
        refused(
            d,
            "sides.a.units[0].sector",
            &["'w1/1'", "artillery", "page 22"],
        );
    }

    #[test]
    fn helpers_for_point_in_polygon() {
        let sq = [[0, 0], [10, 0], [10, 10], [0, 10]];
        assert!(inside_or_on([5, 5], &sq));
        assert!(inside_or_on([0, 5], &sq));
        assert!(inside_or_on([10, 10], &sq));
        assert!(!inside_or_on([11, 5], &sq));
        assert!(!inside_or_on([5, -1], &sq));
        let tri = [[0, 0], [10, 0], [0, 10]];
        assert!(inside_or_on([5, 5], &tri));
        assert!(!inside_or_on([6, 5], &tri));
        assert!(properly_cross([0, 0], [10, 10], [0, 10], [10, 0]));
        assert!(!properly_cross([0, 0], [10, 0], [5, 0], [15, 0]));
        assert!(!properly_cross([0, 0], [10, 0], [10, 0], [10, 10]));
        assert_eq!(twice_area(&sq), 200);
    }

    #[test]
    fn setup_distance_for_the_placement_rolls() {
        let mut v = minimal();
        v["setup"] = json!("alternate");
        load(v.clone()).unwrap(); // exactly 800 mm
        units(&mut v, "b")[0]["position"] = json!([900, 900]);
        refused(
            v.clone(),
            "sides.b.units[0].position",
            &[
                "'br-1'",
                "700 mm",
                "'fr-1'",
                "800 mm",
                "page 7",
                "nearest bases",
            ],
        );
        v["battle"] = json!("defended");
        v["defender"] = json!("a");
        load(v.clone()).unwrap(); // 700 >= 600
        units(&mut v, "b")[0]["position"] = json!([1300, 500]);
        refused(
            v.clone(),
            "sides.b.units[0].position",
            &["384 mm", "600 mm"],
        );
        // A placed scenario's positions are the designer's.
        v["setup"] = json!("placed");
        load(v).unwrap();
    }

    fn objective(id: &str, x: i32, y: i32) -> Value {
        json!({"id": id, "name": "A place", "at": [x, y], "radius_mm": 100, "points": 2})
    }

    fn with_objectives() -> Value {
        let mut v = minimal();
        v["objectives"] = json!([objective("village", 900, 600), objective("hill", 300, 600)]);
        v["victory"] = json!({
            "provenance": "stand-in: a test", "objective_points": true, "base_points": 1
        });
        v
    }

    #[test]
    fn objectives_and_victory_load() {
        let sc = load(with_objectives()).unwrap();
        let o = sc.objectives();
        assert_eq!(o.len(), 2);
        assert_eq!(
            o[0],
            Objective {
                id: "village".into(),
                name: Some("A place".into()),
                at: Point {
                    x: Len::mm(900),
                    y: Len::mm(600)
                },
                radius: Len::cm(10),
                points: 2,
            }
        );
        assert_eq!(o[1].id, "hill");
        let vic = sc.victory().unwrap();
        assert!(vic.objective_points);
        assert_eq!(vic.base_points, 1);
        assert_eq!(vic.provenance, "stand-in: a test");
        // Both are optional; a name is too.
        let sc = load(minimal()).unwrap();
        assert!(sc.objectives().is_empty() && sc.victory().is_none());
        let mut v = with_objectives();
        v["objectives"][0].as_object_mut().unwrap().remove("name");
        v.as_object_mut().unwrap().remove("victory");
        let sc = load(v).unwrap();
        assert_eq!(sc.objectives()[0].name, None);
        assert!(sc.victory().is_none());
        // The limits of the ranges load.
        let mut v = with_objectives();
        v["objectives"][0]["radius_mm"] = json!(10);
        v["objectives"][0]["points"] = json!(1);
        v["objectives"][1]["radius_mm"] = json!(1000);
        v["objectives"][1]["points"] = json!(20);
        v["objectives"][1]["at"] = json!([1800, 0]);
        v["victory"]["base_points"] = json!(0);
        load(v).unwrap();
        // Round trip.
        let data = from_json_value(with_objectives()).unwrap();
        let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
        assert_eq!(data, again);
    }

    #[test]
    fn objectives_checked() {
        let set = |k: usize, field: &str, x: Value| {
            let mut v = with_objectives();
            v["objectives"][k][field] = x;
            v
        };
        refused(set(0, "id", json!("")), "objectives[0].id", &["empty"]);
        refused(
            set(1, "id", json!("a/b")),
            "objectives[1].id",
            &["'a/b'", "'/'"],
        );
        refused(
            set(1, "id", json!("village")),
            "objectives[1].id",
            &["duplicate objective id 'village'", "objectives[0]"],
        );
        refused(set(0, "name", json!(" ")), "objectives[0].name", &["empty"]);
        refused(
            set(0, "at", json!([1801, 600])),
            "objectives[0].at",
            &["[1801, 600]", "off the table"],
        );
        refused(
            set(1, "at", json!([10, -1])),
            "objectives[1].at",
            &["[10, -1]", "off the table"],
        );
        refused(
            set(0, "radius_mm", json!(9)),
            "objectives[0].radius_mm",
            &["9 mm", "10 to 1000"],
        );
        refused(
            set(1, "radius_mm", json!(1001)),
            "objectives[1].radius_mm",
            &["1001 mm", "10 to 1000"],
        );
        refused(
            set(0, "points", json!(0)),
            "objectives[0].points",
            &["0 points", "1 to 20"],
        );
        refused(
            set(1, "points", json!(21)),
            "objectives[1].points",
            &["21 points", "1 to 20"],
        );
        // At most 32.
        let mut v = with_objectives();
        v["objectives"] = Value::Array(
            (0..=MAX_OBJECTIVES)
                .map(|i| objective(&format!("o{i}"), 10 + i as i32, 600))
                .collect(),
        );
        refused(v.clone(), "objectives", &["33 objectives", "32"]);
        v["objectives"].as_array_mut().unwrap().pop();
        assert_eq!(load(v).unwrap().objectives().len(), MAX_OBJECTIVES);
        // Unknown and missing fields, and types, name their paths.
        let e = from_json_value(set(1, "colour", json!("red"))).unwrap_err();
        assert_eq!(e.path, "objectives[1].colour", "{e}");
        let mut v = with_objectives();
        v["objectives"][0]
            .as_object_mut()
            .unwrap()
            .remove("radius_mm");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "objectives[0].radius_mm", "{e}");
        let e = from_json_value(set(0, "points", json!(300))).unwrap_err();
        assert_eq!(e.path, "objectives[0].points", "{e}");
    }

    #[test]
    fn victory_checked() {
        let set = |field: &str, x: Value| {
            let mut v = with_objectives();
            v["victory"][field] = x;
            v
        };
        refused(
            set("provenance", json!(" ")),
            "victory.provenance",
            &["empty provenance", "stand-in"],
        );
        refused(
            set("base_points", json!(21)),
            "victory.base_points",
            &["21 points", "0 to 20"],
        );
        let mut v = set("objective_points", json!(true));
        v.as_object_mut().unwrap().remove("objectives");
        refused(v, "victory.objective_points", &["no objectives"]);
        let mut v = set("objective_points", json!(false));
        v["victory"]["base_points"] = json!(0);
        refused(v.clone(), "victory", &["nothing scores"]);
        // Scoring lost bases alone, without objectives, is allowed.
        v["victory"]["base_points"] = json!(2);
        v.as_object_mut().unwrap().remove("objectives");
        assert_eq!(load(v).unwrap().victory().unwrap().base_points, 2);
        let e = from_json_value(set("colour", json!(1))).unwrap_err();
        assert_eq!(e.path, "victory.colour", "{e}");
        let mut v = with_objectives();
        v["victory"].as_object_mut().unwrap().remove("base_points");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, "victory.base_points", "{e}");
    }

    fn encounter() -> Value {
        let mut v: Value =
            serde_json::from_str(include_str!("../../scenarios/huzzah-encounter.json")).unwrap();
        let system = v.as_object_mut().unwrap().remove("system");
        assert_eq!(system, Some(json!("huzzah")));
        v
    }

    #[test]
    fn encounter_scenario_loads() {
        use crate::huzzah::geometry::{dist_point_seg, min_distance};
        let sc = load(encounter()).unwrap();
        assert_eq!(sc.data().id, "huzzah-encounter");
        assert!(sc.data().name.contains("stand-in"));
        let prov = &sc.data().provenance;
        assert!(prov.starts_with("stand-in:"), "{prov}");
        assert!(prov.contains("Army Lists") && prov.contains("scenario book"));
        assert_eq!(
            sc.table(),
            TableSize {
                width: Len::cm(180),
                depth: Len::cm(120)
            }
        );
        assert_eq!(sc.base(), Len::cm(4));
        assert_eq!(sc.turns(), 8);
        assert_eq!(sc.battle(), Battle::Encounter);
        assert_eq!(sc.setup(), Setup::Alternate);
        assert_eq!(sc.first(), None);
        // Morning fog lifting on turn 3.
        assert_eq!(sc.conditions_on(1), (Ground::Normal, Weather::Foul));
        assert_eq!(sc.conditions_on(2), (Ground::Normal, Weather::Foul));
        assert_eq!(sc.conditions_on(3), (Ground::Normal, Weather::Fair));
        assert_eq!(sc.conditions_on(8), (Ground::Normal, Weather::Fair));

        // Terrain: a wood of two or three sectors, a village of two, hedges, an orchard.
        let kinds = |k: TerrainKind| sc.terrain().iter().filter(|t| t.kind == k).count();
        assert_eq!(kinds(TerrainKind::Woods), 1);
        assert_eq!(kinds(TerrainKind::Buildings), 1);
        assert_eq!(kinds(TerrainKind::Orchard), 1);
        assert!((2..=3).contains(&kinds(TerrainKind::Hedge)));
        let piece = |k: TerrainKind| sc.terrain().iter().find(|t| t.kind == k).unwrap();
        assert!((2..=3).contains(&piece(TerrainKind::Woods).sectors.len()));
        assert_eq!(piece(TerrainKind::Buildings).sectors.len(), 2);
        // The wood left of centre, the village right of it.
        let mid_x = |t: &Terrain| {
            let xs = t.polygon.iter().map(|p| p.x.0);
            (xs.clone().min().unwrap() + xs.max().unwrap()) / 2
        };
        assert!(mid_x(piece(TerrainKind::Woods)) < sc.table().width.0 / 2);
        assert!(mid_x(piece(TerrainKind::Buildings)) > sc.table().width.0 / 2);

        // Two objectives of 2 points: the village and the crossroads.
        let obj: Vec<_> = sc
            .objectives()
            .iter()
            .map(|o| (o.id.as_str(), o.points))
            .collect();
        assert_eq!(obj, [("village", 2), ("crossroads", 2)]);
        let village =
            crate::huzzah::geometry::Polygon(piece(TerrainKind::Buildings).polygon.clone());
        assert!(village.contains(sc.objectives()[0].at));
        let vic = sc.victory().unwrap();
        assert!(vic.provenance.starts_with("stand-in:") && vic.provenance.contains("page 7"));
        assert!(vic.objective_points);
        assert_eq!(vic.base_points, 1);

        for side in Side::BOTH {
            let us = sc.units_of(side);
            assert_eq!(us.len(), 10, "side {side}");
            let count = |f: &dyn Fn(&UnitDef) -> bool| us.iter().filter(|u| f(u)).count();
            // Six infantry units of 3-4 bases: two with divisional artillery, one
            // skirmish, one skirmish (limited).
            assert_eq!(count(&|u| u.arm == Arm::Infantry), 6);
            assert!(us
                .iter()
                .filter(|u| u.arm == Arm::Infantry)
                .all(|u| (3..=4).contains(&u.bases.len())));
            assert_eq!(count(&|u| u.has_divisional_artillery()), 2);
            assert_eq!(count(&|u| u.order == UnitOrder::Skirmish), 1);
            assert_eq!(count(&|u| u.order == UnitOrder::SkirmishLimited), 1);
            // Two cavalry units of 2-3 bases, battle and other cavalry.
            let cav: Vec<_> = us.iter().filter(|u| u.arm == Arm::Cavalry).collect();
            assert_eq!(cav.len(), 2);
            assert!(cav.iter().all(|u| (2..=3).contains(&u.bases.len())));
            for k in [BaseKind::BattleCavalry, BaseKind::OtherCavalry] {
                assert_eq!(count(&|u| u.bases.iter().all(|b| b.kind == k)), 1);
            }
            // One single reserve foot battery and a grand battery of 2-3 bases.
            let art: Vec<_> = us.iter().filter(|u| u.arm == Arm::Artillery).collect();
            assert_eq!(art.len(), 2);
            let single: Vec<_> = art.iter().filter(|u| !u.is_grand_battery()).collect();
            assert_eq!(single.len(), 1);
            assert_eq!(single[0].bases[0].kind, BaseKind::FootArtillery);
            let gb: Vec<_> = art.iter().filter(|u| u.is_grand_battery()).collect();
            assert_eq!(gb.len(), 1);
            assert!((2..=3).contains(&gb[0].bases.len()));
            // Heavy guns in the French grand battery only.
            assert_eq!(gb[0].has_heavy_artillery(), side == Side::A);
            assert_eq!(
                gb[0].fire_range(),
                Some(Len::cm(60)),
                "the shortest range of its batteries"
            );
            // Traits: one renowned, one hesitant, one impulsive.
            assert_eq!(count(&|u| u.flags.renowned), 1);
            assert_eq!(count(&|u| u.flags.hesitant), 1);
            assert_eq!(count(&|u| u.flags.impulsive), 1);
            // Elites, regulars and militia.
            let grade = |q: ExpectedQuality| json_name(&q)[..3].to_string();
            for g in ["eli", "reg", "mil"] {
                assert!(
                    us.iter().any(|u| grade(u.effective_expected()) == g),
                    "side {side} has no {g}"
                );
            }
            let sd = sc.side(side);
            assert!(ARMY_FACTOR.contains(&sd.skirmish_factor));
            assert!(ARMY_FACTOR.contains(&sd.artillery_factor));
            // A CinC and two division officers of different qualities, one of them
            // inspirational; two divisions.
            let os = sc.officers_of(side);
            assert_eq!(os.len(), 3);
            assert_eq!(sc.officer(sc.cinc(side)).rank, OfficerRank::Cinc);
            let gens: Vec<_> = os
                .iter()
                .filter(|o| o.rank == OfficerRank::Division)
                .collect();
            assert_eq!(gens.len(), 2);
            assert_ne!(gens[0].quality, gens[1].quality);
            assert_eq!(gens.iter().filter(|o| o.inspirational).count(), 1);
            let divs: Vec<_> = sc.divisions().iter().filter(|d| d.side == side).collect();
            assert_eq!(divs.len(), 2);
            // Facing the enemy; every officer placed behind the army, each division
            // officer behind his own division's rearmost base.
            let forward = if side == Side::A { 1 } else { -1 };
            let facing = if side == Side::A { 0 } else { 180 };
            assert!(us.iter().all(|u| u.facing == Facing(facing)));
            let rear_of = |units: &mut dyn Iterator<Item = &UnitDef>| {
                units
                    .flat_map(|u| u.shape(sc.base()).footprint_corners())
                    .map(|p| p.y.0 * forward)
                    .min()
                    .unwrap()
            };
            for d in &divs {
                let rear = rear_of(&mut d.units.iter().map(|&u| sc.unit(u)));
                let at = sc.officer(d.officer).position.unwrap();
                assert!(at.y.0 * forward < rear, "{}", sc.officer(d.officer).id);
            }
            let rear = rear_of(&mut us.iter());
            assert!(os.iter().all(|o| o.position.unwrap().y.0 * forward < rear));
        }

        let base = sc.base();
        let (w, d) = sc.table_size();
        let shapes: Vec<_> = sc.units().iter().map(|u| u.shape(base)).collect();
        for (u, sh) in sc.units().iter().zip(&shapes) {
            // On the table (validate checks it too).
            assert!(sh
                .footprint_corners()
                .iter()
                .all(|p| p.x >= Len::ZERO && p.y >= Len::ZERO && p.x <= w && p.y <= d));
            // Out of every terrain piece at the start.
            assert_eq!(u.sector, None);
            for t in sc.terrain() {
                let poly = crate::huzzah::geometry::Polygon(t.polygon.clone());
                assert!(
                    sh.bases().iter().all(|q| !poly.intersects_quad(q)),
                    "'{}' stands in '{}'",
                    u.id,
                    t.id
                );
            }
            // Nobody holds an objective at the start.
            for o in sc.objectives() {
                for q in sh.bases() {
                    assert!(!q.contains(o.at));
                    let near = q.edges().iter().map(|e| dist_point_seg(o.at, *e)).min();
                    assert!(near.unwrap() > o.radius, "'{}' is at '{}'", u.id, o.id);
                }
            }
        }
        // The armies' nearest bases: at least 80 cm apart (page 7, an encounter).
        let a = sc.units_of(Side::A).len();
        let nearest = (0..a)
            .flat_map(|i| (a..shapes.len()).map(move |j| (i, j)))
            .map(|(i, j)| min_distance(&shapes[i], &shapes[j]))
            .min()
            .unwrap();
        assert!(nearest >= Len::cm(80), "{nearest:?}");
        assert_eq!(nearest, Len::mm(810));

        // The built-in is the file, and every binding lists it.
        assert!(BUILTIN.contains(&"huzzah-encounter"));
        let b = Scenario::builtin("huzzah-encounter").unwrap();
        assert_eq!(b.data(), sc.data());
        check_builtin_id(sc.data()).unwrap();
        let mut edited = sc.data().clone();
        edited.turns = 9;
        assert_eq!(check_builtin_id(&edited).unwrap_err().path, "id");
        let data = from_json_value(encounter()).unwrap();
        let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
        assert_eq!(data, again);
    }

    #[test]
    fn every_builtin_loads() {
        for name in BUILTIN {
            let sc = Scenario::builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(sc.data().id, name);
            assert!(sc.data().provenance.starts_with("stand-in:"), "{name}");
        }
        let e = Scenario::builtin("huzzah-nothing").unwrap_err();
        assert!(
            e.message.contains("huzzah-encounter, huzzah-firefight"),
            "{e}"
        );
    }
}
