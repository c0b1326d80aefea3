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
//! [`Len`]: crate::huzzah::geometry::Len
//! [`Point`]: crate::huzzah::geometry::Point
//! [`Facing`]: crate::huzzah::geometry::Facing
//!
//! ```
//! use fm_core::huzzah::scenario::{from_json_value, validate, Arm};
//! use fm_core::Side;
//! let mut v: serde_json::Value =
//!     serde_json::from_str(include_str!("../../../scenarios/huzzah-firefight.json")).unwrap();
//! v.as_object_mut().unwrap().remove("system"); // what the match layer does
//! let sc = validate(from_json_value(v).unwrap()).unwrap();
//! let gun = sc.unit(sc.unit_index("fr-guns").unwrap());
//! assert_eq!((gun.side, gun.arm), (Side::A, Arm::Artillery));
//! ```
//!
//! One file per concern:
//!
//! | file | pages | what it holds |
//! |---|---|---|
//! | `limits.rs` | 8 | the size limits a scenario is held to and the ranges of its values |
//! | `kinds.rs` | 2-3, 6, 11-12, 14, 16, 19-22 | the kinds of base, unit, officer and terrain, and what the printed rules make of them (hits, arms, weapon ranges, cover, Command Factor and radius) |
//! | `format.rs` | 2-22 | the JSON form: [`ScenarioData`] and its parts, [`from_json_value`] and its JSON-path errors |
//! | `standin.rs` | 20, 23 on | stand-ins for what our copy lacks: the movement table, [`MissingRules`] |
//! | `model.rs` | 3, 6-7, 10-12, 16, 20 | the validated [`Scenario`], its flat tables and indices, and its accessors |
//! | `validation.rs` | 2, 7-10, 16, 20 | [`validate`]: the checks in order, the movement table, objectives and victory, the command hierarchy |
//! | `unit_checks.rs` | 3, 5-6, 9, 17, 20-22 | one unit's checks: composition, troop type, ranks and formation, traits, sector |
//! | `geometry_checks.rs` | 7, 19, 22 | where things lie: points and polygons on the table, terrain sectors, the units' footprints and the set-up distance |
//! | `start.rs` | 7-22 | a battle that starts mid-way: the `start` section ([`StartData`]), its checks and the [`Start`] it places in the initial state |
//! | `builtin.rs` | — | the built-in scenarios: [`BUILTIN`], [`Scenario::builtin`], [`check_builtin_id`] |
//! | `tests.rs` | — | tests of whole scenarios, read and validated |

mod builtin;
mod format;
mod geometry_checks;
mod kinds;
mod limits;
mod model;
mod standin;
mod start;
#[cfg(test)]
mod tests;
mod unit_checks;
mod validation;

pub use builtin::{check_builtin_id, BUILTIN};
pub use format::{
    from_json_value, BaseData, BattleKind, ConditionsData, CorpsData, DivisionData, Ground,
    MmPoint, MovementData, ObjectiveData, OfficerData, RatesData, ScenarioData, Setup, SideData,
    TableData, TerrainData, UnitData, VictoryData, Weather,
};
pub use kinds::{
    Arm, BaseKind, Cover, Formation, MoveArm, MoveFormation, OfficerQuality, OfficerRank,
    TerrainKind, UnitOrder, FIELD_ARTILLERY_RANGE, HEAVY_ARTILLERY_RANGE, INFANTRY_RANGE,
};
pub use limits::{
    ARMY_FACTOR, BASE_MM, BASE_POINTS, MAX_BASES_PER_UNIT, MAX_OBJECTIVES, MAX_OFFICERS_PER_SIDE,
    MAX_POLYGON_POINTS, MAX_SECTORS, MAX_TERRAIN, MAX_UNITS_PER_SIDE, MOVE_RATE_MM,
    OBJECTIVE_POINTS, OBJECTIVE_RADIUS_MM, TABLE_MM, TURNS,
};
pub use model::{
    Base, Battle, CommandGroup, CorpsDef, CorpsIx, DivisionDef, DivisionIx, MovementTable,
    Objective, OfficerDef, OfficerIx, Scenario, SectorRef, SideDef, TableSize, Terrain, TerrainIx,
    UnitDef, UnitFlags, UnitIx,
};
pub use standin::MissingRules;
pub use start::{
    ArmiesStartData, ArmyStart, ArmyStartData, OfficerStart, OfficerStartData, Start, StartData,
    UnitStart, UnitStartData,
};
pub use validation::validate;
