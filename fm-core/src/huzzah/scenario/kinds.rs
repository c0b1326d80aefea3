//! The kinds a scenario names, shared by its JSON form and its validated form, and
//! what the printed rules make of them: bases and their hits (page 2), arms (page 3),
//! troop types (page 6), weapon ranges (page 11), terrain and its cover (pages 12, 14,
//! 19), officers' ranks and qualities (page 16), formations (pages 20-22) and the rows
//! and columns of the movement table (page 20).

use crate::huzzah::geometry::Len;
use crate::huzzah::quality::FireArm;
use serde::{Deserialize, Serialize};

/// The infantry's weapon range (page 11), also for infantry with divisional artillery.
pub const INFANTRY_RANGE: Len = Len::cm(20);
/// Reserve foot and reserve horse artillery's range (page 11).
pub const FIELD_ARTILLERY_RANGE: Len = Len::cm(60);
/// Reserve heavy artillery's range (page 11; also "out of range", page 19).
pub const HEAVY_ARTILLERY_RANGE: Len = Len::cm(80);

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
    /// Its name, as the JSON writes it (`"foot_artillery"`).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn officer_quality_as_printed() {
        use OfficerQuality as Q;
        let all = [Q::Excellent, Q::Skilful, Q::Average, Q::Poor, Q::Abysmal];
        assert_eq!(all.map(Q::command_factor), [10, 9, 8, 7, 6]);
        assert_eq!(all.map(|q| q.radius().0 / 100), [60, 50, 40, 30, 20]);
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
}
