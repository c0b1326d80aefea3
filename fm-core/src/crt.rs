//! The Combat Results Table (rules 8.1.2, 8.2.1(d), 8.2.4 and the CRT notes).
//!
//! Every F&M CRT is one grid of 6 die rows by N columns; each terrain line uses the
//! rightmost columns and labels them with its own differentials. So a line is just a
//! floor: differentials below the line's first column resolve at that column, above
//! the last (+10) at the last. The grid ships as scenario data with its provenance.

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

/// A terrain line of the CRT: its id, printed label and first differential.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct CrtLine {
    /// Id used by terrain types (`"woods"`).
    pub id: String,
    /// Printed label (`"Woods, Bridge, Canal, Ditch"`).
    pub name: String,
    /// The line's first (lowest) differential.
    pub min_differential: i32,
}

/// The validated CRT: grid, column labels and lines.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Crt {
    /// Where the values come from (printed, or which cells are stand-in).
    pub provenance: String,
    /// Differential range `[low, high]` of each grid column, left to right.
    pub columns: Vec<[i32; 2]>,
    /// Results by die roll (row 0 = die 1) and column.
    pub grid: Vec<Vec<CrtResult>>,
    /// Terrain lines.
    pub lines: Vec<CrtLine>,
}

impl Crt {
    /// The grid column (0-based) an attack at `differential` uses on `line`, after
    /// clamping to the line's first differential and the table's last column.
    pub fn column(&self, line: usize, differential: i32) -> usize {
        let min = self.lines[line].min_differential;
        let last = self.columns.len() - 1;
        let d = differential.max(min).min(self.columns[last][1]);
        self.columns
            .iter()
            .position(|c| c[0] <= d && d <= c[1])
            .unwrap_or(last)
    }

    /// `column` moved `shift` columns (right positive), kept within `line`'s columns
    /// (Suez 1916 13.1, 15.1, 19.0 column shifts).
    pub fn shifted(&self, line: usize, column: usize, shift: i8) -> usize {
        let first = self.column(line, self.lines[line].min_differential);
        let last = self.columns.len() - 1;
        (column as i64 + shift as i64).clamp(first as i64, last as i64) as usize
    }

    /// The result for a die roll (1-6) in a column.
    pub fn result(&self, column: usize, die: u8) -> CrtResult {
        self.grid[(die as usize - 1).min(self.grid.len() - 1)][column]
    }

    /// The label of a column as printed ("+2, +3").
    pub fn column_label(&self, column: usize) -> String {
        let [lo, hi] = self.columns[column];
        let f = |v: i32| {
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        };
        if lo == hi {
            f(lo)
        } else {
            format!("{}, {}", f(lo), f(hi))
        }
    }
}
