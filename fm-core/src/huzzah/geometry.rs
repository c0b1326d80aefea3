//! The table: exact, platform-independent plane geometry for Huzzah! Glorious Empires
//! (pages 2, 11-15, 18-22). Lengths are integers in tenths of a millimetre ([`Len`]),
//! facings whole degrees ([`Facing`]), and every sine and cosine comes from a fixed
//! table ([`sin_cos`]); nothing here uses floating point, so the same scenario and
//! commands give the same positions on every platform.
//!
//! Conventions (docs/huzzah.md): x runs along side A's table edge to the right, y away
//! from it (towards side B). A facing of 0 looks along +y, 90 along +x (clockwise). A
//! unit is placed by its **anchor**, the centre of the front edge of its front rank;
//! its bases stand behind the anchor in ranks, each rank centred on the unit's axis.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A length on the table, in tenths of a millimetre (1 cm = 100).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Len(pub i64);

impl Len {
    /// Zero.
    pub const ZERO: Len = Len(0);
    /// `n` centimetres.
    pub const fn cm(n: i64) -> Len {
        Len(n * 100)
    }
    /// `n` millimetres.
    pub const fn mm(n: i64) -> Len {
        Len(n * 10)
    }
}

impl fmt::Display for Len {
    /// In centimetres with up to three decimals ("12.5 cm").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let (sign, a) = if v < 0 { ("-", -v) } else { ("", v) };
        let (whole, frac) = (a / 100, a % 100);
        if frac == 0 {
            write!(f, "{sign}{whole} cm")
        } else if frac % 10 == 0 {
            write!(f, "{sign}{whole}.{} cm", frac / 10)
        } else {
            write!(f, "{sign}{whole}.{frac:02} cm")
        }
    }
}

/// A point on the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Point {
    /// Along side A's edge.
    pub x: Len,
    /// Away from side A's edge.
    pub y: Len,
}

/// A facing in whole degrees, 0 to 359, clockwise from +y.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Facing(pub u16);
