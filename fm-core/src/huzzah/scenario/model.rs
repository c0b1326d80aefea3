//! The validated form of a scenario: [`Scenario`], everything static about a game, with
//! lengths as [`Len`], positions as [`Point`] and facings as [`Facing`]; its officers,
//! corps, divisions and units in flat tables (side A's first) indexed by [`OfficerIx`],
//! [`CorpsIx`], [`DivisionIx`] and [`UnitIx`]; and the accessors the rules read it by:
//! grand batteries (page 3), the lowest quality among a unit's bases (page 6), the
//! set-up distance (page 7), ground and weather by turn (page 10), weapon ranges (page
//! 11), the command hierarchy (page 16) and movement rates (page 20).

use super::format::{ConditionsData, Ground, ScenarioData, Setup, VictoryData, Weather};
use super::kinds::{
    Arm, BaseKind, Formation, MoveArm, MoveFormation, OfficerQuality, OfficerRank, TerrainKind,
    UnitOrder, INFANTRY_RANGE,
};
use super::standin::MissingRules;
use crate::huzzah::geometry::{Facing, Len, Point};
use crate::huzzah::quality::{ExpectedQuality, Quality, QualityTable};
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// The validated movement table.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MovementTable {
    pub(super) rates: [[Len; 3]; 5],
    pub(super) officers: Len,
    pub(super) provenance: String,
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
///
/// [`ObjectiveData`]: super::ObjectiveData
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
    pub(super) data: ScenarioData,
    pub(super) table: TableSize,
    pub(super) base: Len,
    pub(super) turns: u16,
    pub(super) battle: Battle,
    pub(super) setup: Setup,
    pub(super) first: Option<Side>,
    pub(super) conditions: Vec<ConditionsData>,
    pub(super) movement: MovementTable,
    pub(super) quality_table: QualityTable,
    pub(super) terrain: Vec<Terrain>,
    pub(super) objectives: Vec<Objective>,
    pub(super) sides: SidePair<SideDef>,
    pub(super) officers: Vec<OfficerDef>,
    pub(super) corps: Vec<CorpsDef>,
    pub(super) divisions: Vec<DivisionDef>,
    pub(super) units: Vec<UnitDef>,
    pub(super) unit_ids: BTreeMap<String, UnitIx>,
    pub(super) officer_ids: BTreeMap<String, OfficerIx>,
    /// Side A's units are `units[..a_units]`.
    pub(super) a_units: usize,
    /// Side A's officers are `officers[..a_officers]`.
    pub(super) a_officers: usize,
    pub(super) start: Option<super::start::Start>,
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

impl Scenario {
    /// How the missing rules are answered.
    pub fn missing_rules(&self) -> MissingRules {
        self.data().missing_rules
    }

    /// Where a battle that starts mid-way begins (the scenario's `start`); `None`: at
    /// the set-up.
    pub fn start(&self) -> Option<&super::start::Start> {
        self.start.as_ref()
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
