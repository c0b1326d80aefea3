//! Hex grid geometry (rule 2.1): four-digit hex ids, offset layouts, adjacency and distance.
//!
//! Hex ids are printed column-then-row ("0239" = column 02, row 39). Maps use a
//! vertical-column offset layout; which columns sit half a hex lower is part of the
//! scenario (`Layout`). All geometry is done in cube coordinates so distance is exact.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A hex on the map, by printed column and row (both 0-99).
///
/// ```
/// use fm_core::Hex;
/// let h: Hex = "0239".parse().unwrap();
/// assert_eq!((h.col, h.row), (2, 39));
/// assert_eq!(h.to_string(), "0239");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Hex {
    /// Printed column number.
    pub col: u8,
    /// Printed row number.
    pub row: u8,
}

impl Hex {
    /// Builds a hex from column and row; both must be below 100 to print as four digits.
    pub const fn new(col: u8, row: u8) -> Hex {
        Hex { col, row }
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

/// Error for a hex id that is not four decimal digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a four-digit hex id (column then row, e.g. \"0239\")")]
pub struct HexParseError(pub String);

impl FromStr for Hex {
    type Err = HexParseError;
    fn from_str(s: &str) -> Result<Hex, HexParseError> {
        let b = s.as_bytes();
        if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
            return Err(HexParseError(s.to_string()));
        }
        let col = (b[0] - b'0') * 10 + (b[1] - b'0');
        let row = (b[2] - b'0') * 10 + (b[3] - b'0');
        Ok(Hex { col, row })
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Which columns of a vertical-column offset grid are shifted half a hex down.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, Hash, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// Odd-numbered columns sit half a hex lower than even ones.
    #[default]
    OddColumnsDown,
    /// Even-numbered columns sit half a hex lower than odd ones.
    EvenColumnsDown,
}

impl Layout {
    pub(crate) fn shifted(self, col: i32) -> bool {
        match self {
            Layout::OddColumnsDown => col.rem_euclid(2) == 1,
            Layout::EvenColumnsDown => col.rem_euclid(2) == 0,
        }
    }

    /// Cube coordinates (q, r, s) of a hex.
    pub fn cube(self, h: Hex) -> (i32, i32, i32) {
        let q = h.col as i32;
        let row = h.row as i32;
        // Offset column to axial: a shifted column's rows sit half a hex lower.
        let r = match self {
            Layout::OddColumnsDown => row - (q - (q & 1)) / 2,
            Layout::EvenColumnsDown => row - (q + (q & 1)) / 2,
        };
        (q, r, -q - r)
    }

    /// Hex distance between two hexes.
    ///
    /// ```
    /// use fm_core::{Hex, Layout};
    /// let l = Layout::OddColumnsDown;
    /// assert_eq!(l.distance(Hex::new(1, 1), Hex::new(1, 4)), 3);
    /// assert_eq!(l.distance(Hex::new(1, 1), Hex::new(2, 1)), 1);
    /// ```
    pub fn distance(self, a: Hex, b: Hex) -> u32 {
        let (aq, ar, as_) = self.cube(a);
        let (bq, br, bs) = self.cube(b);
        ((aq - bq).abs().max((ar - br).abs()).max((as_ - bs).abs())) as u32
    }

    /// The six neighbours in a fixed order (north, north-east, south-east, south,
    /// south-west, north-west); entries outside 00-99 are `None`.
    #[inline]
    pub fn neighbors(self, h: Hex) -> [Option<Hex>; 6] {
        let c = h.col as i32;
        let r = h.row as i32;
        let down = self.shifted(c);
        // For a shifted (lower) column, the side neighbours are at rows r and r+1;
        // otherwise at r-1 and r.
        let (up_side, low_side) = if down { (r, r + 1) } else { (r - 1, r) };
        let cand = [
            (c, r - 1),
            (c + 1, up_side),
            (c + 1, low_side),
            (c, r + 1),
            (c - 1, low_side),
            (c - 1, up_side),
        ];
        cand.map(|(c, r)| {
            if (0..100).contains(&c) && (0..100).contains(&r) {
                Some(Hex::new(c as u8, r as u8))
            } else {
                None
            }
        })
    }

    /// Whether two hexes share a hexside.
    #[inline]
    pub fn adjacent(self, a: Hex, b: Hex) -> bool {
        self.neighbors(a).contains(&Some(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_at_distance_one_both_layouts() {
        for layout in [Layout::OddColumnsDown, Layout::EvenColumnsDown] {
            for c in 1..8 {
                for r in 1..8 {
                    let h = Hex::new(c, r);
                    for n in layout.neighbors(h).into_iter().flatten() {
                        assert_eq!(layout.distance(h, n), 1, "{layout:?} {h} {n}");
                        assert!(layout.adjacent(n, h), "{layout:?} {h} {n} symmetric");
                    }
                }
            }
        }
    }

    #[test]
    fn distance_examples() {
        let l = Layout::OddColumnsDown;
        assert_eq!(l.distance(Hex::new(1, 1), Hex::new(4, 1)), 3);
        assert_eq!(l.distance(Hex::new(2, 2), Hex::new(2, 2)), 0);
        assert!("12a4".parse::<Hex>().is_err());
        assert!("123".parse::<Hex>().is_err());
    }
}
