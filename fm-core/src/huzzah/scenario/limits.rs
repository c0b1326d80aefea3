//! The size limits a scenario is held to, and the ranges of its values: every query's
//! cost grows with the scenario, and these sit well above any historical Huzzah! battle
//! (page 8 suggests about 12 units a player). [`validate`](super::validate) checks them.

use std::ops::RangeInclusive;

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
