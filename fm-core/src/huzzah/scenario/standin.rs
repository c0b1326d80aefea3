//! Stand-ins for what our copy of the rules lacks: the movement table, whose printed
//! numbers are lost (page 20; `movement_table.json`, which docs/huzzah.md prints), and
//! [`MissingRules`], whether the rules of the missing pages (23 on) are decided by the
//! players or answered by the engine's labelled stand-ins.

use super::format::MovementData;
use serde::{Deserialize, Serialize};

/// The stand-in movement table's JSON (docs/huzzah.md prints it).
const MOVEMENT_STAND_IN_JSON: &str = include_str!("../movement_table.json");

impl MovementData {
    /// The stand-in movement table used when a scenario gives none: the printed table
    /// lost its numbers in our copy; infantry in line 20 cm follows from page 19,
    /// officers 60 cm is printed, the rest are invented (see its provenance).
    pub fn stand_in() -> MovementData {
        serde_json::from_str(MOVEMENT_STAND_IN_JSON)
            .expect("the shipped stand-in movement table parses (tested)")
    }
}

/// How the rules missing from our copy (pages 23 on: melee, rally, officer movement)
/// are answered.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingRules {
    /// Each outcome is an explicit decision: a command from the players or an umpire.
    #[default]
    Decide,
    /// The engine's stand-in rules answer them (docs/huzzah.md; labelled in events).
    StandIn,
}

impl MissingRules {
    /// The default.
    pub fn is_decide(&self) -> bool {
        *self == MissingRules::Decide
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::Len;
    use crate::huzzah::scenario::{MoveArm, MoveFormation};

    #[test]
    fn stand_in_movement_table() {
        let m = MovementData::stand_in().validate("movement").unwrap();
        let r = |a, f| m.rate(a, f).0 / 10;
        use MoveArm as A;
        use MoveFormation as F;
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::Infantry, f)),
            [200, 250, 300]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::Cavalry, f)),
            [400, 450, 500]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveArtillery, f)),
            [200, 200, 300]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveHeavyArtillery, f)),
            [150, 150, 200]
        );
        assert_eq!(
            [F::Line, F::Open, F::Column].map(|f| r(A::ReserveHorseArtillery, f)),
            [400, 400, 500]
        );
        // Printed: officers 60 cm (page 20), infantry 20 cm (page 19).
        assert_eq!(m.officers(), Len::cm(60));
        assert_eq!(m.rate(A::Infantry, F::Line), Len::cm(20));
        assert!(m.provenance().starts_with("stand-in:"));
    }

    #[test]
    fn docs_print_the_stand_in_movement_table() {
        let doc = include_str!("../../../../docs/huzzah.md");
        let m = MovementData::stand_in();
        let rows = [
            ("Infantry", m.infantry),
            ("Cavalry", m.cavalry),
            ("Reserve artillery", m.reserve_artillery),
            ("Reserve heavy artillery", m.reserve_heavy_artillery),
            ("Reserve horse artillery", m.reserve_horse_artillery),
        ];
        for (name, r) in rows {
            let line = format!("| {name} | {} | {} | {} |", r.line, r.open, r.column);
            assert!(doc.contains(&line), "docs/huzzah.md lacks {line}");
        }
        assert!(doc.contains(&format!("| Officers | {} | | |", m.officers)));
        assert!(doc.replace('\n', " ").contains(&m.provenance));
    }
}
