//! Lengths, points and facings on the table: [`Len`] in whole tenths of a millimetre,
//! [`Point`] with x along side A's edge and y away from it, [`Facing`] in whole degrees
//! clockwise from +y.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A length on the table, in tenths of a millimetre (1 cm = 100).
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
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

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: Len, y: Len) -> Point {
        Point { x, y }
    }

    /// The point `(x, y)` given in whole centimetres.
    ///
    /// ```
    /// use fm_core::huzzah::geometry::{Len, Point};
    /// assert_eq!(Point::cm(3, -2), Point::new(Len(300), Len(-200)));
    /// assert_eq!(Point::mm(3, -2), Point::new(Len(30), Len(-20)));
    /// ```
    pub const fn cm(x: i64, y: i64) -> Point {
        Point::new(Len(x.saturating_mul(100)), Len(y.saturating_mul(100)))
    }

    /// The point `(x, y)` given in whole millimetres.
    pub const fn mm(x: i64, y: i64) -> Point {
        Point::new(Len(x.saturating_mul(10)), Len(y.saturating_mul(10)))
    }
}

/// A facing in whole degrees, 0 to 359, clockwise from +y.
///
/// Build facings with [`Facing::new`], which normalises; a raw `Facing(n)` with `n >= 360`
/// is read modulo 360 everywhere in this module.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Facing(pub u16);

impl Facing {
    /// The facing `deg` degrees clockwise from +y, normalised into 0..360.
    ///
    /// ```
    /// use fm_core::huzzah::geometry::Facing;
    /// assert_eq!(Facing::new(-90), Facing(270));
    /// assert_eq!(Facing::new(720 + 45), Facing(45));
    /// assert_eq!(Facing(350).turned(20), Facing(10));
    /// assert_eq!(Facing(90).opposite(), Facing(270));
    /// ```
    pub fn new(deg: i32) -> Facing {
        Facing(i64::from(deg).rem_euclid(360) as u16)
    }

    /// This facing turned `deg` degrees clockwise (negative: anticlockwise).
    pub fn turned(self, deg: i32) -> Facing {
        Facing((i64::from(self.0) + i64::from(deg)).rem_euclid(360) as u16)
    }

    /// The facing 180 degrees round.
    pub fn opposite(self) -> Facing {
        self.turned(180)
    }

    /// The facing in degrees, 0 to 359.
    pub fn degrees(self) -> u16 {
        self.0 % 360
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facings_normalise() {
        assert_eq!(Facing::new(360), Facing(0));
        assert_eq!(Facing::new(-1), Facing(359));
        assert_eq!(
            Facing::new(i32::MIN),
            Facing((i64::from(i32::MIN)).rem_euclid(360) as u16)
        );
        assert_eq!(Facing(10).turned(-20), Facing(350));
        assert_eq!(
            Facing(0).turned(i32::MAX),
            Facing((i64::from(i32::MAX) % 360) as u16)
        );
        assert_eq!(Facing(270).opposite(), Facing(90));
        assert_eq!(Facing(725).degrees(), 5);
    }
}
