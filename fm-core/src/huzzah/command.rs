//! What a player may tell the engine in a Huzzah! battle. JSON: `{"type": "fire",
//! "unit": "fr-1e", "target": "br-95"}`. Units and officers are named by their
//! scenario ids; lengths and positions in millimetres, as in scenario files, each a
//! whole number or with one decimal (the engine's resolution, [`Len`]).

use crate::huzzah::geometry::Len;
use crate::huzzah::orders::OrderKind;
use crate::huzzah::scenario::BaseKind;
use serde::{Deserialize, Serialize};

/// Reading a command's lengths: each names its field when it refuses a value (a length
/// with more than one decimal, or not a number), which serde's reading of a tagged enum
/// would not.
mod mm {
    use crate::huzzah::geometry::Len;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer};

    fn named<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
        field: &str,
    ) -> Result<T, D::Error> {
        T::deserialize(d).map_err(|e| D::Error::custom(format_args!("`{field}`: {e}")))
    }

    macro_rules! fields {
        ($($f:ident($name:literal): $t:ty;)*) => {$(
            pub(super) fn $f<'de, D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                named(d, $name)
            }
        )*};
    }

    fields! {
        distance_mm("distance_mm"): Len;
        drift_mm("drift_mm"): Len;
        offset_mm("offset_mm"): Option<Len>;
        loser_falls_back_mm("loser_falls_back_mm"): Len;
        at("at"): [Len; 2];
        at_opt("at"): Option<[Len; 2]>;
        anchor("anchor"): [Len; 2];
    }
}

/// The group an order names, by id: `{"unit": "fr-1"}`, `{"division": "fr-div"}`,
/// `{"corps": "c1"}`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GroupArg {
    /// A unit, by its id.
    Unit(String),
    /// A division, by its id.
    Division(String),
    /// A corps, by its id.
    Corps(String),
}

/// A command.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Page 7: place a unit, at its scenario position.
    PlaceUnit {
        /// The unit.
        unit: String,
    },
    /// Page 7: end this placement roll's placing (at least the low die's count placed).
    EndPlacement,
    /// Page 8: place an officer, at `at` (`[x_mm, y_mm]`) or his scenario position.
    PlaceOfficer {
        /// The officer.
        officer: String,
        /// Where, `[x, y]` in millimetres; `None` for his default position.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "mm::at_opt"
        )]
        at: Option<[Len; 2]>,
    },
    /// Page 11: declare a unit's target.
    Fire {
        /// The firing unit.
        unit: String,
        /// The target.
        target: String,
        /// Page 12: fire with only these bases (indices rank by rank from the front,
        /// left to right), to bring a target into range or close range.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bases: Option<Vec<u8>>,
    },
    /// Page 11: a unit that could fire does not.
    HoldFire {
        /// The unit.
        unit: String,
    },
    /// Page 12: remove a base of this kind from this rank (0 = front).
    RemoveBase {
        /// The unit.
        unit: String,
        /// The rank.
        rank: u8,
        /// The kind of base.
        kind: BaseKind,
    },
    /// Pages 16-18: an officer orders a group (`{"unit": id}`, `{"division": id}` or
    /// `{"corps": id}`) to advance, retire, deploy or manoeuvre; the type is stated
    /// before the roll.
    Order {
        /// The officer.
        officer: String,
        /// The group.
        group: GroupArg,
        /// The order.
        order: OrderKind,
    },
    /// Page 19: a unit of the order advances `distance_mm` straight ahead, then drifts
    /// `drift_mm` to its right (negative: left), at most 50.
    Advance {
        /// The unit.
        unit: String,
        /// How far, measured from the front face, in millimetres.
        #[serde(deserialize_with = "mm::distance_mm")]
        distance_mm: Len,
        /// The sideways drift at the end, in millimetres (positive: to the right).
        #[serde(default, deserialize_with = "mm::drift_mm")]
        drift_mm: Len,
    },
    /// Page 20: a unit of an advance order charges `target`: straight ahead into
    /// contact, squared up on the face the rules give, the overlap `offset_mm` along that
    /// face from its centre (the owner's choice; absent: as near its line of advance as
    /// allowed).
    Charge {
        /// The charger.
        unit: String,
        /// The unit charged.
        target: String,
        /// Where the overlap goes, in millimetres along the face from its centre.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "mm::offset_mm"
        )]
        offset_mm: Option<Len>,
    },
    /// Page 21: a unit of a deploy order changes formation: base `anchor` (its index
    /// now, rank by rank from the front, left to right) stays where it is and becomes base
    /// `anchor_to` of the new formation of `ranks`; facing kept.
    Deploy {
        /// The unit.
        unit: String,
        /// Line, column or square.
        formation: crate::huzzah::deploy::FormationKind,
        /// Bases per rank, front first.
        ranks: Vec<u8>,
        /// The stationary base, as numbered now.
        #[serde(default)]
        anchor: u8,
        /// Its number in the new formation.
        #[serde(default)]
        anchor_to: u8,
    },
    /// Page 20: a unit of the order retires `distance_mm` straight back.
    Retire {
        /// The unit.
        unit: String,
        /// How far, measured from the rear face, in millimetres.
        #[serde(deserialize_with = "mm::distance_mm")]
        distance_mm: Len,
    },
    /// A melee's outcome (the rules are missing), for the pending pair: the winner's
    /// side (`null`: drawn), the hits on side A's and side B's unit, how far the loser
    /// falls back and whether it routs.
    MeleeResult {
        /// Side A's unit.
        a: String,
        /// Side B's unit.
        b: String,
        /// The winner's side, or `null` for a draw.
        winner: Option<crate::ids::Side>,
        /// Hits on side A's unit.
        hits_a: u8,
        /// Hits on side B's unit.
        hits_b: u8,
        /// The loser's fall back, in millimetres.
        #[serde(default, deserialize_with = "mm::loser_falls_back_mm")]
        loser_falls_back_mm: Len,
        /// The loser routs.
        #[serde(default)]
        loser_routs: bool,
    },
    /// Whether a disordered or routing unit rallies one step (the rules are missing).
    Rally {
        /// The unit.
        unit: String,
        /// It rallies (routing → disordered, disordered → formed).
        rallies: bool,
    },
    /// The Move Officers phase: an officer moves up to his move (60 cm), and may attach
    /// to a friendly unit he ends touching.
    MoveOfficer {
        /// The officer.
        officer: String,
        /// Where, `[x, y]` in millimetres.
        #[serde(deserialize_with = "mm::at")]
        at: [Len; 2],
        /// The unit he attaches to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attach: Option<String>,
    },
    /// Page 22: a unit with a Skirmish ability, on a deploy order, deploys `bases` of
    /// its infantry bases into its army's skirmish line (removed from play, not lost;
    /// Skirmish (Limited): its one base, and the ability goes).
    SkirmishLine {
        /// The unit.
        unit: String,
        /// How many bases.
        bases: u8,
    },
    /// Page 22: reserve artillery on a deploy order joins `battery` (reserve artillery
    /// of its division within one advance move), its bases extending the battery's
    /// front rank at the left end (`left`) or the right.
    JoinBattery {
        /// The joining reserve artillery.
        unit: String,
        /// The battery (or single base) it joins.
        battery: String,
        /// At the battery's left end.
        #[serde(default)]
        left: bool,
    },
    /// Page 22: a unit on a deploy order deploys into a sector of dense terrain it
    /// touches, `"<terrain id>/<n>"`, formation and facing kept, its centre at `at`
    /// (`[x_mm, y_mm]`, inside the sector) or the sector's centre.
    EnterSector {
        /// The unit.
        unit: String,
        /// The sector.
        sector: String,
        /// Where its centre goes, `[x, y]` in millimetres; `None` for the sector's
        /// centre.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "mm::at_opt"
        )]
        at: Option<[Len; 2]>,
    },
    /// Page 22: a unit on a deploy order deploys out of its sector of dense terrain,
    /// moving `direction` (facing kept) until just clear of the terrain piece.
    LeaveSector {
        /// The unit.
        unit: String,
        /// Ahead, back, left or right.
        direction: Direction,
    },
    /// Page 19: a unit deployed in dense terrain, on an advance order, advances into an
    /// adjacent sector; into an enemy-held one it engages the enemy instead.
    AdvanceSector {
        /// The unit.
        unit: String,
        /// The sector, `"<terrain id>/<n>"`.
        sector: String,
    },
    /// Page 22: a passage of lines: `unit` and `with`, both on this deploy order,
    /// exchange places.
    PassageOfLines {
        /// The unit.
        unit: String,
        /// The unit it exchanges places with.
        with: String,
    },
    /// A manoeuvre (its rules are missing): the unit's new anchor (`[x_mm, y_mm]`, the
    /// centre of its front edge) and facing (degrees), formation kept, held to the
    /// written limits (and the stand-in one under `"stand_in"`).
    Manoeuvre {
        /// The unit.
        unit: String,
        /// Its new anchor, `[x, y]` in millimetres.
        #[serde(deserialize_with = "mm::anchor")]
        anchor: [Len; 2],
        /// Its new facing, 0 to 359.
        facing: u16,
    },
    /// Page 16: the CinC appoints a new officer in place of `officer`, a division or
    /// corps officer lost in a previous turn. What the new man is like is on the missing
    /// pages: under `"decide"` the command states his `quality` (and whether he is
    /// `inspirational`); under `"stand_in"` both are left out and the stand-in gives
    /// them. He is placed at `at` (`[x_mm, y_mm]`) or beside the CinC.
    Appoint {
        /// The lost officer.
        officer: String,
        /// The new officer's quality.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quality: Option<crate::huzzah::scenario::OfficerQuality>,
        /// He is inspirational.
        #[serde(default)]
        inspirational: bool,
        /// Where he is placed, `[x, y]` in millimetres; `None` for beside the CinC.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "mm::at_opt"
        )]
        at: Option<[Len; 2]>,
    },
    /// Ends the order being acted on: units that have not acted stay where they are.
    EndOrder,
    /// Ends the phase: no more orders (Orders), no more rallies (Rally: the rest stay
    /// as they are), no more officer moves (Move Officers).
    EndPhase,
}

impl Command {
    /// Its `type`, as the JSON writes it (`"hold_fire"`): how a refusal names it.
    pub fn name(&self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.get("type")?.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// Which way a unit deploys out of dense terrain, facing kept.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Straight ahead.
    Ahead,
    /// Straight back.
    Back,
    /// To its left.
    Left,
    /// To its right.
    Right,
}

impl Direction {
    /// All four, in encoding order.
    pub const ALL: [Direction; 4] = [
        Direction::Ahead,
        Direction::Back,
        Direction::Left,
        Direction::Right,
    ];
}
