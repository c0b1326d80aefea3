//! The Combat Results Table (rules 8.1.2, 8.2.1(d), 8.2.2, 8.2.4 and the CRT notes).
//!
//! Every F&M CRT is one grid of 6 die rows by (usually) 12 columns, with one row of
//! differential labels per terrain line above it. A line labels the grid's columns from
//! the LEFT: its first differential stands over its first column (grid column 1 unless
//! the data says otherwise), its next label over the next column, and so on to its last
//! label, +10. So the CRT is a column-shift table: a line with a higher first
//! differential reads every attack further toward the attacker's losses and caps the
//! best result lower (Mountain, first differential 0, reads columns 1-7 of the system
//! grid; Clear, -5, all twelve). The CRT notes clamp the ends: "attacks at less than the
//! lowest differential are resolved at the lowest differential", and above +10 "as +10
//! attacks". The grid ships as scenario data with its provenance.
//!
//! ```
//! use fm_core::Scenario;
//!
//! let sc = Scenario::builtin("system-demo").unwrap();
//! let crt = &sc.crt;
//! let mountain = crt.line_index("mountain").unwrap();
//! let clear = crt.line_index("clear-desert-stream").unwrap();
//! // At differential 0 a Mountain defender is read on grid column 1, a Clear one on 6.
//! assert_eq!(crt.column(mountain, 0), 0);
//! assert_eq!(crt.column(clear, 0), 5);
//! assert_eq!(crt.column_label(clear, 5), "0");
//! // At +10 or more Mountain reads column 7 (its "+10"), Clear column 12.
//! assert_eq!(crt.column(mountain, 15), 6);
//! assert_eq!(crt.column(clear, 15), 11);
//! assert_eq!(crt.column_label(mountain, 2), "+2,+3");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// One combat result (8.2.4).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum CrtResult {
    /// Eliminate the defending unit(s).
    De,
    /// Defender retreats three hexes.
    D3,
    /// Defender retreats two hexes.
    D2,
    /// Defender retreats one hex (exclusive rules only, e.g. a downgraded D2).
    D1,
    /// Exchange: one attacker and the defender each lose a step.
    Ex,
    /// Attackers retreat one hex.
    A1,
    /// Attackers retreat two hexes.
    A2,
    /// Attackers retreat three hexes.
    A3,
    /// One attacking (adjacent) unit loses a step.
    #[serde(rename = "(A)")]
    AStep,
    /// Eliminate all attacking units.
    Ae,
    /// No effect.
    #[serde(rename = "•", alias = "-", alias = "NE")]
    NoEffect,
}

impl CrtResult {
    /// Retreat distance this result imposes on the defender, if any.
    pub fn defender_retreat(self) -> Option<u8> {
        match self {
            CrtResult::D3 => Some(3),
            CrtResult::D2 => Some(2),
            CrtResult::D1 => Some(1),
            _ => None,
        }
    }
    /// Retreat distance this result imposes on the attackers, if any.
    pub fn attacker_retreat(self) -> Option<u8> {
        match self {
            CrtResult::A3 => Some(3),
            CrtResult::A2 => Some(2),
            CrtResult::A1 => Some(1),
            _ => None,
        }
    }
    /// The results 8.1.3 treats as no result in a bombardment (the "bold" set).
    pub fn ignored_in_bombardment(self) -> bool {
        matches!(
            self,
            CrtResult::Ae | CrtResult::A1 | CrtResult::A2 | CrtResult::A3 | CrtResult::Ex
        )
    }
    /// All results, in table-key order.
    pub const ALL: [CrtResult; 11] = [
        CrtResult::De,
        CrtResult::D3,
        CrtResult::D2,
        CrtResult::D1,
        CrtResult::Ex,
        CrtResult::A1,
        CrtResult::A2,
        CrtResult::A3,
        CrtResult::AStep,
        CrtResult::Ae,
        CrtResult::NoEffect,
    ];
}

impl fmt::Display for CrtResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CrtResult::De => "De",
            CrtResult::D3 => "D3",
            CrtResult::D2 => "D2",
            CrtResult::D1 => "D1",
            CrtResult::Ex => "Ex",
            CrtResult::A1 => "A1",
            CrtResult::A2 => "A2",
            CrtResult::A3 => "A3",
            CrtResult::AStep => "(A)",
            CrtResult::Ae => "Ae",
            CrtResult::NoEffect => "•",
        })
    }
}

/// One column label of a terrain line: the differentials it covers, `lo..=hi`
/// (`"-3"` is `{-3, -3}`, `"+2,+3"` is `{2, 3}`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ColumnLabel {
    /// Lowest differential of the column.
    pub lo: i32,
    /// Highest differential of the column.
    pub hi: i32,
}

impl ColumnLabel {
    /// The labels the F&M CRTs print for a line whose first label is `first`: single
    /// differentials up to +1, then the pairs "+2,+3" to "+8,+9", then "+10". `None`
    /// when `first` is above +10, below -50, or falls inside a pair (such a line needs
    /// its labels written out).
    ///
    /// ```
    /// use fm_core::ColumnLabel;
    /// let l = ColumnLabel::standard(0).unwrap();
    /// let printed: Vec<String> = l.iter().map(|c| c.to_string()).collect();
    /// assert_eq!(printed, ["0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]);
    /// assert_eq!(ColumnLabel::standard(-5).unwrap().len(), 12);
    /// assert!(ColumnLabel::standard(3).is_none());
    /// ```
    pub fn standard(first: i32) -> Option<Vec<ColumnLabel>> {
        const PAIRS: [i32; 4] = [2, 4, 6, 8];
        if !(-50..=10).contains(&first) || (first > 1 && first % 2 == 1) {
            return None;
        }
        let mut out: Vec<ColumnLabel> = (first..=1).map(|d| ColumnLabel { lo: d, hi: d }).collect();
        out.extend(
            PAIRS
                .iter()
                .filter(|&&p| p >= first)
                .map(|&p| ColumnLabel { lo: p, hi: p + 1 }),
        );
        out.push(ColumnLabel { lo: 10, hi: 10 });
        Some(out)
    }

    /// Parses a printed label: `"-3"`, `"0"`, `"+1"`, `"+2,+3"` (spaces and the
    /// typographic minus `−` allowed).
    ///
    /// ```
    /// use fm_core::ColumnLabel;
    /// assert_eq!(ColumnLabel::parse("+2, +3"), Some(ColumnLabel { lo: 2, hi: 3 }));
    /// assert_eq!(ColumnLabel::parse("−1"), Some(ColumnLabel { lo: -1, hi: -1 }));
    /// assert_eq!(ColumnLabel::parse("+3,+2"), None);
    /// ```
    pub fn parse(s: &str) -> Option<ColumnLabel> {
        let num = |t: &str| -> Option<i32> {
            let t = t.trim().replace('−', "-");
            let t = t.strip_prefix('+').unwrap_or(&t);
            if t.is_empty() || t.len() > 6 {
                return None;
            }
            t.parse().ok()
        };
        let mut parts = s.split(',');
        let lo = num(parts.next()?)?;
        let hi = match parts.next() {
            Some(p) => num(p)?,
            None => lo,
        };
        (parts.next().is_none() && lo <= hi).then_some(ColumnLabel { lo, hi })
    }
}

impl fmt::Display for ColumnLabel {
    /// The printed form: `"-1"`, `"0"`, `"+1"`, `"+2,+3"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = |f: &mut fmt::Formatter<'_>, v: i32| {
            if v > 0 {
                write!(f, "+{v}")
            } else {
                write!(f, "{v}")
            }
        };
        one(f, self.lo)?;
        if self.hi != self.lo {
            f.write_str(",")?;
            one(f, self.hi)?;
        }
        Ok(())
    }
}

/// A validated terrain line of the CRT.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct CrtLine {
    /// Id used by terrain types (`"woods"`).
    pub id: String,
    /// Printed label (`"Woods, Bridge, Canal, Ditch"`).
    pub name: String,
    /// The grid column (0-based) its first label stands over.
    pub first_column: usize,
    /// Its column labels, left to right; label `k` stands over grid column
    /// `first_column + k`.
    pub labels: Vec<ColumnLabel>,
}

impl CrtLine {
    /// The line's first (lowest) differential.
    pub fn first_differential(&self) -> i32 {
        self.labels[0].lo
    }
    /// The grid columns (0-based) the line reads, left to right.
    pub fn columns(&self) -> std::ops::Range<usize> {
        self.first_column..self.first_column + self.labels.len()
    }
}

/// The validated CRT: the grid and its terrain lines.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Crt {
    /// Where the values come from (printed, or which cells are stand-in).
    pub provenance: String,
    /// Results by die roll (row 0 = die 1) and grid column.
    pub grid: Vec<Vec<CrtResult>>,
    /// Terrain lines.
    pub lines: Vec<CrtLine>,
}

impl Crt {
    /// Index of the line with id `id`.
    pub fn line_index(&self, id: &str) -> Option<usize> {
        self.lines.iter().position(|l| l.id == id)
    }

    /// The grid column (0-based) an attack at `differential` reads on `line`: the
    /// column of the label covering it, the line's first column below its first
    /// differential, its last ("+10") above its last label (CRT notes).
    pub fn column(&self, line: usize, differential: i32) -> usize {
        let l = &self.lines[line];
        let k = l
            .labels
            .iter()
            .position(|c| differential <= c.hi)
            .unwrap_or(l.labels.len() - 1);
        l.first_column + k
    }

    /// `column` moved `shift` columns (right positive), kept within `line`'s columns
    /// (Suez 1916 13.1, 15.1, 19.0 column shifts).
    pub fn shifted(&self, line: usize, column: usize, shift: i8) -> usize {
        let r = self.lines[line].columns();
        (column as i64 + shift as i64).clamp(r.start as i64, r.end as i64 - 1) as usize
    }

    /// The result for a die roll (1-6) in a grid column.
    pub fn result(&self, column: usize, die: u8) -> CrtResult {
        self.grid[(die.max(1) as usize - 1).min(self.grid.len() - 1)][column]
    }

    /// The label `line` prints over grid `column`, as printed (`"+2,+3"`). A column
    /// outside the line reads as the nearer end.
    pub fn column_label(&self, line: usize, column: usize) -> String {
        let l = &self.lines[line];
        let k = column
            .saturating_sub(l.first_column)
            .min(l.labels.len() - 1);
        l.labels[k].to_string()
    }
}
