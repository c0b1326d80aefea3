//! Lengths, points and facings on the table: [`Len`] in whole tenths of a millimetre
//! (millimetres in JSON), [`Point`] with x along side A's edge and y away from it,
//! [`Facing`] in whole degrees clockwise from +y.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A length on the table, in tenths of a millimetre (1 cm = 100): the engine's exact
/// unit, so that the same commands give the same positions on every platform.
///
/// JSON writes it in **millimetres**, the unit of scenario files and commands: a whole
/// number of millimetres as an integer (`Len(500)` is `50`), any other length with one
/// decimal (`Len(503)` is `50.3`). Reading accepts an integer or a number with at most
/// one decimal, so every length written reads back exactly; a finer or non-finite value
/// is refused (0.1 mm is the engine's resolution, and rounding would make a save's
/// replay differ from its play).
///
/// ```
/// use fm_core::huzzah::geometry::Len;
/// assert_eq!(serde_json::to_string(&Len(503)).unwrap(), "50.3");
/// assert_eq!(serde_json::to_string(&Len(-500)).unwrap(), "-50");
/// assert_eq!(serde_json::from_str::<Len>("50.3").unwrap(), Len(503));
/// assert_eq!(serde_json::from_str::<Len>("50").unwrap(), Len(500));
/// assert!(serde_json::from_str::<Len>("50.25").is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Len(pub i64);

/// Tenths of a millimetre as an `f64` are exact, and their shortest decimal form has at
/// most one decimal, below this magnitude (2^52 / 10, with room to spare); beyond it a
/// length is written as whole millimetres, truncated (no engine length comes near it).
const EXACT_TENTHS: i64 = 1 << 48;

impl Serialize for Len {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v % 10 == 0 || v.unsigned_abs() >= EXACT_TENTHS as u64 {
            s.serialize_i64(v / 10)
        } else {
            s.serialize_f64(v as f64 / 10.0)
        }
    }
}

impl Len {
    /// A length read from millimetres given as a float: exact to the tenth, or an error
    /// that names the value.
    fn from_mm_f64(mm: f64) -> Result<Len, String> {
        if !mm.is_finite() {
            return Err(format!("{mm} is not a length in millimetres"));
        }
        let tenths = mm * 10.0;
        let whole = tenths.round();
        // The float's own error in `mm * 10`, never a tenth's worth of it.
        let tolerance = 1e-6_f64.max(tenths.abs() * 1e-15);
        if (tenths - whole).abs() > tolerance {
            return Err(format!(
                "{mm} mm has more than one decimal (lengths are in millimetres, to 0.1 mm)"
            ));
        }
        // Saturating, as whole millimetres saturate: the rules refuse such a length.
        Ok(Len(whole.clamp(i64::MIN as f64, i64::MAX as f64) as i64))
    }
}

impl<'de> Deserialize<'de> for Len {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Len, D::Error> {
        struct Mm;
        impl de::Visitor<'_> for Mm {
            type Value = Len;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a length in millimetres (a number with at most one decimal)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Len, E> {
                Ok(Len(v.saturating_mul(10)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Len, E> {
                Ok(Len(i64::try_from(v).unwrap_or(i64::MAX).saturating_mul(10)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Len, E> {
                Len::from_mm_f64(v).map_err(E::custom)
            }
        }
        d.deserialize_any(Mm)
    }
}

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
    /// The length in millimetres, as JSON writes it (for messages: `50.3`, `50`).
    pub fn as_mm(self) -> f64 {
        self.0 as f64 / 10.0
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

/// A point on the table. JSON: `{"x": 870, "y": 92.5}`, in millimetres.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Point {
    /// Along side A's edge, from its left end (millimetres).
    pub x: Len,
    /// Away from side A's edge, towards side B (millimetres).
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
