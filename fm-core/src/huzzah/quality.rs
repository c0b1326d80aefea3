//! Unit quality (pages 4-6, with the factors of pages 11 and 13).
//!
//! A unit starts with an [`ExpectedQuality`] (Elites A … Militia D, from the Army
//! Lists); its actual [`Quality`] (Veteran … Unreliable) is rolled on the Unit Quality
//! Table the first time the game needs it, and then fixed. [`determine`] is that roll,
//! a pure function over an injected dice source so that the engine can record every
//! die. Our copy of the table lost its numbers: [`QualityTable::stand_in`] is an
//! invented table that fits what the text prints (docs/huzzah.md, "Stand-in values"),
//! and a scenario may replace it (`quality_table`).
//!
//! Every roll in Huzzah! is 2D6 and low is good (page 1). [`pass_count`] counts the
//! outcomes that pass a "roll at most the factor" test under the universal rules.

use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The number of equally likely outcomes of 2D6.
pub const OUTCOMES: u32 = 36;

/// The number of the 36 outcomes of 2D6 that total `total` (0 outside 2..=12).
pub const fn outcomes_of_total(total: u8) -> u32 {
    if total < 2 || total > 12 {
        0
    } else if total <= 7 {
        total as u32 - 1
    } else {
        13 - total as u32
    }
}

/// A unit's expected quality (page 4): three grades (Elites, Regulars, Militia) of four
/// classes (A to D) each. Declared, and ordered, best to worst: a better quality
/// compares less (`ElitesA < MilitiaD`). JSON: `"elites_a"` … `"militia_d"`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedQuality {
    /// Elites A Class, the best.
    ElitesA,
    /// Elites B Class.
    ElitesB,
    /// Elites C Class.
    ElitesC,
    /// Elites D Class.
    ElitesD,
    /// Regulars A Class.
    RegularsA,
    /// Regulars B Class (French infantry of 1815, page 4).
    RegularsB,
    /// Regulars C Class.
    RegularsC,
    /// Regulars D Class.
    RegularsD,
    /// Militia A Class.
    MilitiaA,
    /// Militia B Class.
    MilitiaB,
    /// Militia C Class.
    MilitiaC,
    /// Militia D Class, the worst.
    MilitiaD,
}

impl ExpectedQuality {
    /// All twelve, best to worst (the table's row order).
    pub const ALL: [ExpectedQuality; 12] = [
        ExpectedQuality::ElitesA,
        ExpectedQuality::ElitesB,
        ExpectedQuality::ElitesC,
        ExpectedQuality::ElitesD,
        ExpectedQuality::RegularsA,
        ExpectedQuality::RegularsB,
        ExpectedQuality::RegularsC,
        ExpectedQuality::RegularsD,
        ExpectedQuality::MilitiaA,
        ExpectedQuality::MilitiaB,
        ExpectedQuality::MilitiaC,
        ExpectedQuality::MilitiaD,
    ];

    /// Position in [`ExpectedQuality::ALL`]: 0 for Elites A, 11 for Militia D.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The JSON name (`"regulars_b"`).
    pub const fn json_name(self) -> &'static str {
        match self {
            ExpectedQuality::ElitesA => "elites_a",
            ExpectedQuality::ElitesB => "elites_b",
            ExpectedQuality::ElitesC => "elites_c",
            ExpectedQuality::ElitesD => "elites_d",
            ExpectedQuality::RegularsA => "regulars_a",
            ExpectedQuality::RegularsB => "regulars_b",
            ExpectedQuality::RegularsC => "regulars_c",
            ExpectedQuality::RegularsD => "regulars_d",
            ExpectedQuality::MilitiaA => "militia_a",
            ExpectedQuality::MilitiaB => "militia_b",
            ExpectedQuality::MilitiaC => "militia_c",
            ExpectedQuality::MilitiaD => "militia_d",
        }
    }

    /// The worse of two (the later in [`ExpectedQuality::ALL`]).
    pub fn lowest(self, other: ExpectedQuality) -> ExpectedQuality {
        self.max(other)
    }
}

impl fmt::Display for ExpectedQuality {
    /// As printed: "Regulars B".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.index();
        let grade = ["Elites", "Regulars", "Militia"][i / 4];
        let class = ["A", "B", "C", "D"][i % 4];
        write!(f, "{grade} {class}")
    }
}

/// What a unit's fire factor is read for (page 11): infantry (also infantry with
/// divisional artillery) or reserve artillery. Cavalry cannot fire.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireArm {
    /// Infantry, with or without divisional artillery.
    Infantry,
    /// Reserve artillery: a single base or a grand battery.
    Artillery,
}

/// A unit's actual quality (page 4), declared and ordered best to worst: a better
/// quality compares less (`Veteran < Unreliable`). JSON: `"veteran"` … `"unreliable"`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// Veterans, the best.
    Veteran,
    /// Experienced.
    Experienced,
    /// Trained.
    Trained,
    /// Green.
    Green,
    /// Raw.
    Raw,
    /// Unreliable, the worst.
    Unreliable,
}

impl Quality {
    /// All six, best to worst.
    pub const ALL: [Quality; 6] = [
        Quality::Veteran,
        Quality::Experienced,
        Quality::Trained,
        Quality::Green,
        Quality::Raw,
        Quality::Unreliable,
    ];

    /// The Morale Factor (pages 13 and 21): Veteran 10, Experienced 9, Trained 8,
    /// Green 7, Raw 6, Unreliable 5.
    pub const fn morale_factor(self) -> u8 {
        match self {
            Quality::Veteran => 10,
            Quality::Experienced => 9,
            Quality::Trained => 8,
            Quality::Green => 7,
            Quality::Raw => 6,
            Quality::Unreliable => 5,
        }
    }

    /// The Fire Factor (page 11): infantry 7/6/6/6/5/5 and artillery 8/7/7/7/6/6 from
    /// Veteran to Unreliable.
    pub const fn fire_factor(self, arm: FireArm) -> u8 {
        let infantry = match self {
            Quality::Veteran => 7,
            Quality::Experienced | Quality::Trained | Quality::Green => 6,
            Quality::Raw | Quality::Unreliable => 5,
        };
        match arm {
            FireArm::Infantry => infantry,
            FireArm::Artillery => infantry + 1,
        }
    }

    /// One step better (pages 14 and 21: a Disciplined unit's Huzzah! improves it,
    /// "Trained troops become Experienced"); Veteran stays Veteran.
    pub const fn improved(self) -> Quality {
        match self {
            Quality::Veteran | Quality::Experienced => Quality::Veteran,
            Quality::Trained => Quality::Experienced,
            Quality::Green => Quality::Trained,
            Quality::Raw => Quality::Green,
            Quality::Unreliable => Quality::Raw,
        }
    }

    /// The worse of two (page 6: the lowest rating decides a grand battery). Also
    /// callable as `Quality::lowest(a, b)`.
    pub fn lowest(self, other: Quality) -> Quality {
        self.max(other)
    }

    /// The JSON name (`"trained"`).
    pub const fn json_name(self) -> &'static str {
        match self {
            Quality::Veteran => "veteran",
            Quality::Experienced => "experienced",
            Quality::Trained => "trained",
            Quality::Green => "green",
            Quality::Raw => "raw",
            Quality::Unreliable => "unreliable",
        }
    }
}

impl fmt::Display for Quality {
    /// As printed: "Trained".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.json_name();
        let mut c = s.chars();
        if let Some(first) = c.next() {
            write!(f, "{}{}", first.to_ascii_uppercase(), c.as_str())?;
        }
        Ok(())
    }
}

/// One row of the Unit Quality Table: the result for each 2D6 total, 2 first and 12
/// last.
pub type QualityRow = [Quality; 11];

/// The twelve rows of a Unit Quality Table as written in JSON, one field per expected
/// quality (every field required).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityRows {
    /// Elites A's row.
    pub elites_a: QualityRow,
    /// Elites B's row.
    pub elites_b: QualityRow,
    /// Elites C's row.
    pub elites_c: QualityRow,
    /// Elites D's row.
    pub elites_d: QualityRow,
    /// Regulars A's row.
    pub regulars_a: QualityRow,
    /// Regulars B's row.
    pub regulars_b: QualityRow,
    /// Regulars C's row.
    pub regulars_c: QualityRow,
    /// Regulars D's row.
    pub regulars_d: QualityRow,
    /// Militia A's row.
    pub militia_a: QualityRow,
    /// Militia B's row.
    pub militia_b: QualityRow,
    /// Militia C's row.
    pub militia_c: QualityRow,
    /// Militia D's row.
    pub militia_d: QualityRow,
}

impl QualityRows {
    /// The row of one expected quality.
    pub fn get(&self, e: ExpectedQuality) -> &QualityRow {
        match e {
            ExpectedQuality::ElitesA => &self.elites_a,
            ExpectedQuality::ElitesB => &self.elites_b,
            ExpectedQuality::ElitesC => &self.elites_c,
            ExpectedQuality::ElitesD => &self.elites_d,
            ExpectedQuality::RegularsA => &self.regulars_a,
            ExpectedQuality::RegularsB => &self.regulars_b,
            ExpectedQuality::RegularsC => &self.regulars_c,
            ExpectedQuality::RegularsD => &self.regulars_d,
            ExpectedQuality::MilitiaA => &self.militia_a,
            ExpectedQuality::MilitiaB => &self.militia_b,
            ExpectedQuality::MilitiaC => &self.militia_c,
            ExpectedQuality::MilitiaD => &self.militia_d,
        }
    }
}

/// A Unit Quality Table as written in JSON (a scenario's `quality_table`, and the
/// shipped stand-in `fm-core/src/huzzah/quality_table.json`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityTableData {
    /// Where the values come from ("printed", or "stand-in: …").
    pub provenance: String,
    /// The rows, by expected quality.
    pub rows: QualityRows,
}

/// The stand-in table's JSON (docs/huzzah.md prints it).
const STAND_IN_JSON: &str = include_str!("quality_table.json");

/// A validated Unit Quality Table (page 5): for each expected quality and 2D6 total,
/// the actual quality.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct QualityTable {
    rows: [QualityRow; 12],
    provenance: String,
}

impl QualityTable {
    /// The stand-in table shipped with the engine (our copy of page 5 lost its numbers):
    /// Regulars B is Trained on 6, 7 or 8, Trained is its most common result and Green
    /// its worst (page 4); every row gets no better as the total rises; each expected
    /// quality's row is, total by total, at least as good as the next worse one's.
    pub fn stand_in() -> QualityTable {
        Self::stand_in_data()
            .validate("quality_table")
            .expect("the shipped stand-in quality table is valid (tested)")
    }

    /// The stand-in table as data, in the form a scenario's `quality_table` takes.
    pub fn stand_in_data() -> QualityTableData {
        serde_json::from_str(STAND_IN_JSON)
            .expect("the shipped stand-in quality table parses (tested)")
    }

    /// The result of a 2D6 `total` for a unit of `expected` quality.
    ///
    /// # Panics
    /// If `total` is not in 2..=12.
    pub fn result(&self, expected: ExpectedQuality, total: u8) -> Quality {
        assert!(
            (2..=12).contains(&total),
            "a 2D6 total is 2 to 12, not {total}"
        );
        self.rows[expected.index()][usize::from(total - 2)]
    }

    /// The row of one expected quality (totals 2 to 12).
    pub fn row(&self, expected: ExpectedQuality) -> &QualityRow {
        &self.rows[expected.index()]
    }

    /// How many of the 36 outcomes of a plain roll (no Huzzah! re-roll: a total of 2
    /// counts as 2) give `quality` for `expected`.
    pub fn outcomes(&self, expected: ExpectedQuality, quality: Quality) -> u32 {
        (2..=12u8)
            .filter(|&t| self.result(expected, t) == quality)
            .map(outcomes_of_total)
            .sum()
    }

    /// Where the values come from.
    pub fn provenance(&self) -> &str {
        &self.provenance
    }

    /// The table as data (the form of a scenario's `quality_table`).
    pub fn to_data(&self) -> QualityTableData {
        let r = |e: ExpectedQuality| self.rows[e.index()];
        use ExpectedQuality as E;
        QualityTableData {
            provenance: self.provenance.clone(),
            rows: QualityRows {
                elites_a: r(E::ElitesA),
                elites_b: r(E::ElitesB),
                elites_c: r(E::ElitesC),
                elites_d: r(E::ElitesD),
                regulars_a: r(E::RegularsA),
                regulars_b: r(E::RegularsB),
                regulars_c: r(E::RegularsC),
                regulars_d: r(E::RegularsD),
                militia_a: r(E::MilitiaA),
                militia_b: r(E::MilitiaB),
                militia_c: r(E::MilitiaC),
                militia_d: r(E::MilitiaD),
            },
        }
    }
}

impl QualityTableData {
    /// Checks a table: a provenance is given, and every row gets no better as the
    /// total rises ("rolling low is always good", page 1). `path` is the JSON path of
    /// the table (`quality_table`); errors name the offending cell
    /// (`quality_table.rows.militia_b[3]`).
    ///
    /// # Errors
    /// A [`ScenarioError`] naming the first offending value.
    pub fn validate(&self, path: &str) -> Result<QualityTable, ScenarioError> {
        if self.provenance.trim().is_empty() {
            return Err(ScenarioError {
                path: format!("{path}.provenance"),
                message: "an empty provenance: say where the values come from (\"printed\", \
                          or \"stand-in: …\")"
                    .into(),
            });
        }
        let mut rows = [[Quality::Veteran; 11]; 12];
        for e in ExpectedQuality::ALL {
            let row = self.rows.get(e);
            for k in 1..row.len() {
                if row[k] < row[k - 1] {
                    return Err(ScenarioError {
                        path: format!("{path}.rows.{}[{k}]", e.json_name()),
                        message: format!(
                            "{} on a total of {} is better than {} on {}: rolling low is \
                             always good (page 1), so a row gets no better as the total \
                             rises",
                            row[k].json_name(),
                            k + 2,
                            row[k - 1].json_name(),
                            k + 1
                        ),
                    });
                }
            }
            rows[e.index()] = *row;
        }
        Ok(QualityTable {
            rows,
            provenance: self.provenance.clone(),
        })
    }
}

/// The outcome of [`determine`]: every 2D6 roll made, in order, and what they gave.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct QualityRoll {
    /// The rolls, in order: one, or two after a Huzzah! that gives an ability.
    pub rolls: Vec<(u8, u8)>,
    /// The unit's quality, fixed for the rest of the game (page 4).
    pub quality: Quality,
    /// The first roll was a Huzzah! for a unit without Grognards: it gains Grognards.
    pub gained_grognards: bool,
    /// The first roll was a Huzzah! for a unit with Grognards but not Disciplined: it
    /// gains Disciplined.
    pub gained_disciplined: bool,
}

fn is_huzzah(r: (u8, u8)) -> bool {
    r == (1, 1)
}

fn take(roll: &mut dyn FnMut() -> (u8, u8), rolls: &mut Vec<(u8, u8)>) -> (u8, u8) {
    let r = roll();
    assert!(
        (1..=6).contains(&r.0) && (1..=6).contains(&r.1),
        "a die shows 1 to 6, not {r:?}"
    );
    rolls.push(r);
    r
}

/// Determines a unit's actual quality (pages 4-5): roll 2D6 on the Unit Quality Table
/// for `expected`, calling `roll` for each 2D6 (each die 1 to 6).
///
/// - An ordinary roll: the table's result for the total.
/// - A Huzzah! (double one) for a unit without Grognards: it gains Grognards; roll
///   again, treating a Raw or Unreliable result as Green and another Huzzah! as a total
///   of 2.
/// - A Huzzah! for a unit with Grognards but not Disciplined: it gains Disciplined;
///   roll again, treating a Raw or Unreliable result as Trained (a Green result stays
///   Green: the text names only Raw and Unreliable) and another Huzzah! as a total of 2.
/// - Ruling: a Huzzah! for a unit that already has both abilities reads as a total of
///   2, with no second roll. Page 5 gives a Huzzah! an effect only "for a unit that
///   already has the Grognards ability, that unit gains the Disciplined ability if it
///   does not already have it", and says nothing of a unit with both; a total of 2 is
///   what the re-rolls make of "any subsequent Huzzah!".
///
/// `disciplined` without `grognards` (which a validated scenario refuses) is read as
/// no Grognards: the Huzzah! gives Grognards.
///
/// # Panics
/// If `roll` returns a die outside 1..=6.
///
/// # Examples
/// ```
/// use fm_core::huzzah::quality::{determine, ExpectedQuality, Quality, QualityTable};
/// let table = QualityTable::stand_in();
/// let mut dice = vec![(1, 1), (6, 6)].into_iter();
/// let r = determine(&table, ExpectedQuality::MilitiaD, false, false, &mut || {
///     dice.next().unwrap()
/// });
/// assert!(r.gained_grognards);
/// assert_eq!(r.quality, Quality::Green); // Unreliable on 12, read as Green
/// ```
pub fn determine(
    table: &QualityTable,
    expected: ExpectedQuality,
    grognards: bool,
    disciplined: bool,
    roll: &mut dyn FnMut() -> (u8, u8),
) -> QualityRoll {
    let mut rolls = Vec::with_capacity(2);
    let first = take(roll, &mut rolls);
    let total = |r: (u8, u8)| r.0 + r.1;
    if !is_huzzah(first) {
        return QualityRoll {
            quality: table.result(expected, total(first)),
            rolls,
            gained_grognards: false,
            gained_disciplined: false,
        };
    }
    let (floor, gained_grognards, gained_disciplined) = if !grognards {
        (Quality::Green, true, false)
    } else if !disciplined {
        (Quality::Trained, false, true)
    } else {
        // Ruling: both abilities already held; the Huzzah! is a total of 2.
        return QualityRoll {
            quality: table.result(expected, 2),
            rolls,
            gained_grognards: false,
            gained_disciplined: false,
        };
    };
    let second = take(roll, &mut rolls);
    let t = if is_huzzah(second) { 2 } else { total(second) };
    let q = table.result(expected, t);
    let quality = if q >= Quality::Raw { floor } else { q };
    QualityRoll {
        rolls,
        quality,
        gained_grognards,
        gained_disciplined,
    }
}

/// The expected quality a unit rolls on (page 6): a grand battery's lowest, counting
/// the reserve artillery that joined it.
pub fn unit_expected(
    sc: &crate::huzzah::scenario::Scenario,
    s: &crate::huzzah::state::State,
    u: crate::huzzah::scenario::UnitIx,
) -> ExpectedQuality {
    s.unit(u)
        .joined
        .iter()
        .fold(sc.unit(u).effective_expected(), |e, j| {
            e.lowest(sc.unit(*j).effective_expected())
        })
}

/// The quality of a grand battery from the known (rolled or given) qualities of its
/// bases (page 6): the lowest known rating; `None` if none is known yet.
pub fn grand_battery_quality(known: &[Quality]) -> Option<Quality> {
    known.iter().copied().max()
}

/// The expected quality of a grand battery before anything is rolled (page 6): the
/// lowest expected quality among its bases ("a base of Elites D with a base of Regulars
/// B is treated as a grand battery of two bases rated at Regulars B").
///
/// # Panics
/// If `e` is empty (every unit has at least one base).
pub fn lowest_expected(e: &[ExpectedQuality]) -> ExpectedQuality {
    e.iter()
        .copied()
        .max()
        .expect("a grand battery has at least one base")
}

/// How many of the 36 outcomes of 2D6 pass a test "roll at most the factor" under the
/// universal rules (pages 1, 12, 14, 18, 21): the modified factor is held to 2..=10,
/// a total of 11 or 12 always fails and a Huzzah! (double one, the only total of 2)
/// always succeeds. So 1 for any factor up to 2, 33 for any factor of 10 or more.
///
/// ```
/// use fm_core::huzzah::quality::pass_count;
/// assert_eq!(pass_count(8), 26); // a Trained unit's plain morale test
/// ```
pub fn pass_count(factor: i32) -> u32 {
    let f = factor.clamp(2, 10);
    (2..=12u8)
        .filter(|&t| t == 2 || (t <= 10 && i32::from(t) <= f))
        .map(outcomes_of_total)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExpectedQuality as E;
    use Quality as Q;

    fn dice(seq: &[(u8, u8)]) -> impl FnMut() -> (u8, u8) + '_ {
        let mut it = seq.iter().copied();
        move || it.next().expect("no more dice in the test sequence")
    }

    #[test]
    fn outcomes_of_totals_sum_to_36() {
        let n: u32 = (0..=14).map(outcomes_of_total).sum();
        assert_eq!(n, OUTCOMES);
        assert_eq!(outcomes_of_total(7), 6);
        assert_eq!(outcomes_of_total(2), 1);
        assert_eq!(outcomes_of_total(12), 1);
        assert_eq!(outcomes_of_total(1), 0);
    }

    #[test]
    fn stand_in_table_parses_and_validates() {
        let t = QualityTable::stand_in();
        assert!(
            t.provenance().starts_with("stand-in:"),
            "{}",
            t.provenance()
        );
        assert_eq!(t.to_data(), QualityTable::stand_in_data());
    }

    #[test]
    fn stand_in_regulars_b_is_as_printed_on_page_4() {
        let t = QualityTable::stand_in();
        // Trained on 6, 7 or 8 (and only those).
        for total in 2..=12u8 {
            assert_eq!(
                t.result(E::RegularsB, total) == Q::Trained,
                (6..=8).contains(&total),
                "total {total}"
            );
        }
        // Trained is the most common result.
        let trained = t.outcomes(E::RegularsB, Q::Trained);
        assert_eq!(trained, 16);
        for q in Quality::ALL {
            if q != Q::Trained {
                assert!(t.outcomes(E::RegularsB, q) < trained, "{q}");
            }
        }
        // Green is the worst it can be.
        assert_eq!(t.result(E::RegularsB, 12), Q::Green);
        assert_eq!(t.outcomes(E::RegularsB, Q::Raw), 0);
        assert_eq!(t.outcomes(E::RegularsB, Q::Unreliable), 0);
    }

    #[test]
    fn stand_in_rows_are_monotone_in_the_roll() {
        let t = QualityTable::stand_in();
        for e in ExpectedQuality::ALL {
            let row = t.row(e);
            assert!(row.windows(2).all(|w| w[0] <= w[1]), "{e}: {row:?}");
        }
    }

    /// Outcomes (of 36) giving `q` or better.
    fn at_least(t: &QualityTable, e: ExpectedQuality, q: Quality) -> u32 {
        Quality::ALL
            .iter()
            .filter(|&&x| x <= q)
            .map(|&x| t.outcomes(e, x))
            .sum()
    }

    #[test]
    fn stand_in_better_expected_quality_stochastically_dominates() {
        let t = QualityTable::stand_in();
        for w in ExpectedQuality::ALL.windows(2) {
            let (better, worse) = (w[0], w[1]);
            let mut strictly = false;
            for q in Quality::ALL {
                let (b, c) = (at_least(&t, better, q), at_least(&t, worse, q));
                assert!(b >= c, "{better} vs {worse} at {q}: {b} < {c}");
                strictly |= b > c;
            }
            assert!(strictly, "{better} and {worse} have the same distribution");
        }
        // Each row sums to 36.
        for e in ExpectedQuality::ALL {
            let n: u32 = Quality::ALL.iter().map(|&q| t.outcomes(e, q)).sum();
            assert_eq!(n, OUTCOMES, "{e}");
        }
    }

    #[test]
    fn stand_in_elites_rarely_below_trained_militia_often_raw() {
        let t = QualityTable::stand_in();
        for e in [E::ElitesA, E::ElitesB, E::ElitesC, E::ElitesD] {
            let below = OUTCOMES - at_least(&t, e, Q::Trained);
            assert!(below <= 1, "{e}: {below}/36 below Trained");
            assert_eq!(t.outcomes(e, Q::Raw) + t.outcomes(e, Q::Unreliable), 0);
        }
        for e in [E::RegularsA, E::RegularsB, E::RegularsC, E::RegularsD] {
            assert_eq!(t.outcomes(e, Q::Unreliable), 0, "{e}");
        }
        for e in [E::MilitiaA, E::MilitiaB, E::MilitiaC, E::MilitiaD] {
            let raw = OUTCOMES - at_least(&t, e, Q::Green);
            assert!(raw >= 6, "{e}: only {raw}/36 Raw or Unreliable");
            assert!(t.outcomes(e, Q::Unreliable) >= 1, "{e}");
        }
        // Militia D is more often Raw or Unreliable than not.
        assert!(OUTCOMES - at_least(&t, E::MilitiaD, Q::Green) > 18);
    }

    #[test]
    fn a_table_better_on_a_higher_roll_is_refused() {
        let mut d = QualityTable::stand_in_data();
        d.rows.militia_b[3] = Q::Veteran;
        let e = d.validate("quality_table").unwrap_err();
        assert_eq!(e.path, "quality_table.rows.militia_b[3]");
        assert!(e.message.contains("veteran on a total of 5"), "{e}");
        assert!(e.message.contains("page 1"), "{e}");
        let mut d = QualityTable::stand_in_data();
        d.provenance = " ".into();
        assert_eq!(
            d.validate("quality_table").unwrap_err().path,
            "quality_table.provenance"
        );
    }

    #[test]
    fn docs_print_the_stand_in_table() {
        let doc = include_str!("../../../docs/huzzah.md");
        let t = QualityTable::stand_in();
        let letter = |q: Quality| q.json_name()[..1].to_ascii_uppercase();
        for e in ExpectedQuality::ALL {
            let cells: Vec<String> = t.row(e).iter().map(|&q| letter(q)).collect();
            let counts: Vec<String> = Quality::ALL
                .iter()
                .map(|&q| match t.outcomes(e, q) {
                    0 => "·".to_string(),
                    n => n.to_string(),
                })
                .collect();
            let line = format!("| {e} | {} | {} |", cells.join(" | "), counts.join(" | "));
            assert!(doc.contains(&line), "docs/huzzah.md lacks the row {line}");
        }
        let prov = t.provenance().split(" Each row").next().unwrap();
        assert!(
            doc.replace('\n', " ").contains(prov),
            "docs/huzzah.md lacks the provenance"
        );
    }

    #[test]
    fn factors_as_printed() {
        let morale: Vec<u8> = Quality::ALL.iter().map(|q| q.morale_factor()).collect();
        assert_eq!(morale, [10, 9, 8, 7, 6, 5]);
        let inf: Vec<u8> = Quality::ALL
            .iter()
            .map(|q| q.fire_factor(FireArm::Infantry))
            .collect();
        assert_eq!(inf, [7, 6, 6, 6, 5, 5]);
        let art: Vec<u8> = Quality::ALL
            .iter()
            .map(|q| q.fire_factor(FireArm::Artillery))
            .collect();
        assert_eq!(art, [8, 7, 7, 7, 6, 6]);
    }

    #[test]
    fn improved_and_lowest() {
        assert_eq!(Q::Trained.improved(), Q::Experienced);
        assert_eq!(Q::Unreliable.improved(), Q::Raw);
        assert_eq!(Q::Veteran.improved(), Q::Veteran);
        assert_eq!(Quality::lowest(Q::Experienced, Q::Trained), Q::Trained);
        assert_eq!(Q::Raw.lowest(Q::Green), Q::Raw);
        assert_eq!(E::ElitesD.lowest(E::RegularsB), E::RegularsB);
    }

    #[test]
    fn names_and_display() {
        assert_eq!(E::RegularsB.to_string(), "Regulars B");
        assert_eq!(E::MilitiaD.to_string(), "Militia D");
        assert_eq!(Q::Unreliable.to_string(), "Unreliable");
        for e in ExpectedQuality::ALL {
            assert_eq!(
                serde_json::to_value(e).unwrap(),
                serde_json::json!(e.json_name())
            );
            assert_eq!(ExpectedQuality::ALL[e.index()], e);
        }
        for q in Quality::ALL {
            assert_eq!(
                serde_json::to_value(q).unwrap(),
                serde_json::json!(q.json_name())
            );
        }
        assert!(E::ElitesA < E::MilitiaD && Q::Veteran < Q::Unreliable);
    }

    #[test]
    fn determine_ordinary_roll() {
        let t = QualityTable::stand_in();
        let r = determine(&t, E::RegularsB, false, false, &mut dice(&[(3, 4)]));
        assert_eq!(r.rolls, vec![(3, 4)]);
        assert_eq!(r.quality, Q::Trained);
        assert!(!r.gained_grognards && !r.gained_disciplined);
        let r = determine(&t, E::MilitiaD, false, false, &mut dice(&[(6, 5)]));
        assert_eq!(r.quality, Q::Unreliable);
        // A double that is not a double one is an ordinary total.
        let r = determine(&t, E::RegularsB, false, false, &mut dice(&[(2, 2)]));
        assert_eq!((r.rolls.len(), r.quality), (1, Q::Experienced));
    }

    #[test]
    fn determine_huzzah_gives_grognards_and_rerolls_raw_as_green() {
        let t = QualityTable::stand_in();
        // Militia C: 8 is Raw, read as Green.
        let r = determine(&t, E::MilitiaC, false, false, &mut dice(&[(1, 1), (4, 4)]));
        assert_eq!(r.rolls, vec![(1, 1), (4, 4)]);
        assert!(r.gained_grognards && !r.gained_disciplined);
        assert_eq!(t.result(E::MilitiaC, 8), Q::Raw);
        assert_eq!(r.quality, Q::Green);
        // Unreliable also reads as Green; better results stand.
        let r = determine(&t, E::MilitiaC, false, false, &mut dice(&[(1, 1), (6, 6)]));
        assert_eq!(r.quality, Q::Green);
        let r = determine(&t, E::MilitiaC, false, false, &mut dice(&[(1, 1), (1, 2)]));
        assert_eq!(r.quality, Q::Trained);
    }

    #[test]
    fn determine_grognards_huzzah_gives_disciplined_and_rerolls_raw_as_trained() {
        let t = QualityTable::stand_in();
        let r = determine(&t, E::MilitiaC, true, false, &mut dice(&[(1, 1), (4, 4)]));
        assert!(!r.gained_grognards && r.gained_disciplined);
        assert_eq!(r.quality, Q::Trained); // Raw on 8, read as Trained
        let r = determine(&t, E::MilitiaC, true, false, &mut dice(&[(1, 1), (6, 6)]));
        assert_eq!(r.quality, Q::Trained); // Unreliable, read as Trained
                                           // Green is neither Raw nor Unreliable: it stands.
        let r = determine(&t, E::MilitiaC, true, false, &mut dice(&[(1, 1), (3, 3)]));
        assert_eq!(r.quality, Q::Green);
    }

    #[test]
    fn determine_subsequent_huzzah_reads_as_two() {
        let t = QualityTable::stand_in();
        for grognards in [false, true] {
            let r = determine(
                &t,
                E::RegularsC,
                grognards,
                false,
                &mut dice(&[(1, 1), (1, 1)]),
            );
            assert_eq!(r.rolls.len(), 2, "no third roll");
            assert_eq!(r.quality, t.result(E::RegularsC, 2));
            assert_eq!(r.quality, Q::Experienced);
            assert_eq!(r.gained_grognards, !grognards);
            assert_eq!(r.gained_disciplined, grognards);
        }
    }

    #[test]
    fn determine_huzzah_with_both_abilities_reads_as_two() {
        let t = QualityTable::stand_in();
        let r = determine(&t, E::MilitiaD, true, true, &mut dice(&[(1, 1)]));
        assert_eq!(r.rolls, vec![(1, 1)]);
        assert_eq!(r.quality, t.result(E::MilitiaD, 2));
        assert_eq!(r.quality, Q::Trained);
        assert!(!r.gained_grognards && !r.gained_disciplined);
        // Disciplined without Grognards is read as no Grognards.
        let r = determine(&t, E::MilitiaD, false, true, &mut dice(&[(1, 1), (6, 6)]));
        assert!(r.gained_grognards);
        assert_eq!(r.quality, Q::Green);
    }

    #[test]
    #[should_panic(expected = "a die shows 1 to 6")]
    fn determine_refuses_an_impossible_die() {
        let t = QualityTable::stand_in();
        determine(&t, E::RegularsB, false, false, &mut dice(&[(0, 7)]));
    }

    #[test]
    fn grand_battery_quality_is_the_lowest_known() {
        assert_eq!(grand_battery_quality(&[]), None);
        assert_eq!(
            grand_battery_quality(&[Q::Experienced, Q::Trained]),
            Some(Q::Trained)
        );
        assert_eq!(
            grand_battery_quality(&[Q::Green, Q::Veteran, Q::Experienced]),
            Some(Q::Green)
        );
        // Page 6's examples.
        assert_eq!(lowest_expected(&[E::ElitesD, E::RegularsB]), E::RegularsB);
        assert_eq!(
            lowest_expected(&[E::ElitesD, E::ElitesD, E::RegularsB]),
            E::RegularsB
        );
        assert_eq!(lowest_expected(&[E::ElitesA]), E::ElitesA);
    }

    #[test]
    fn pass_count_exact() {
        assert_eq!(pass_count(i32::MIN), 1);
        assert_eq!(pass_count(1), 1); // held to 2: only the Huzzah!
        assert_eq!(pass_count(2), 1);
        assert_eq!(pass_count(3), 3);
        assert_eq!(pass_count(7), 21);
        assert_eq!(pass_count(8), 26);
        assert_eq!(pass_count(10), 33); // 11 and 12 always fail
        assert_eq!(pass_count(12), 33); // held to 10
        assert_eq!(pass_count(i32::MAX), 33);
    }
}
