//! The dynamic state of a Huzzah! battle (pages 7-15): the turn and phase, where each
//! unit's bases stand and what they have suffered, the officers, and each army's
//! skirmish and artillery standing. A state is exactly the fold of its initial state
//! with its events ([`State::apply_event`]); every decision is made in
//! [`crate::huzzah::engine::apply`].

use crate::huzzah::geometry::{Point, Shape};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::quality::Quality;
use crate::huzzah::scenario::{BaseKind, OfficerIx, Scenario, SectorRef, UnitIx};
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};

/// Two six-sided dice as rolled, written `[3, 5]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Dice(pub u8, pub u8);

impl Dice {
    /// The total.
    pub fn total(self) -> u8 {
        self.0 + self.1
    }
    /// A double one: a Huzzah! result (page 1).
    pub fn huzzah(self) -> bool {
        self.0 == 1 && self.1 == 1
    }
    /// The low die.
    pub fn low(self) -> u8 {
        self.0.min(self.1)
    }
    /// The high die.
    pub fn high(self) -> u8 {
        self.0.max(self.1)
    }
}

/// The fifteen phases of a turn (page 7), and the set-up before the first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Before the first turn: the roll-off, placement rolls, officers (pages 7-8).
    Setup,
    /// 1. Skirmisher superiority (page 9).
    SkirmisherSuperiority,
    /// 2. Artillery effectiveness (page 10).
    ArtilleryEffectiveness,
    /// 3 and 9. The phasing player's firing (pages 11-15).
    Firing {
        /// The phasing player.
        side: Side,
    },
    /// 4 and 10. Orders and movement (pages 16-22).
    Orders {
        /// The phasing player.
        side: Side,
    },
    /// 5 and 11. Fire at chargers, by the other player (page 13).
    FireAtChargers {
        /// The player whose units fire (the non-phasing player).
        side: Side,
    },
    /// 6 and 12. Combat.
    Combat {
        /// The phasing player.
        side: Side,
    },
    /// 7 and 13. Move officers.
    MoveOfficers {
        /// The phasing player.
        side: Side,
    },
    /// 8 and 14. Rally.
    Rally {
        /// The phasing player.
        side: Side,
    },
    /// 15. Turn ends.
    TurnEnds,
}

impl Phase {
    /// The phase's name, as its JSON's `phase` gives it (`"firing"`, `"setup"`).
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::SkirmisherSuperiority => "skirmisher_superiority",
            Phase::ArtilleryEffectiveness => "artillery_effectiveness",
            Phase::Firing { .. } => "firing",
            Phase::Orders { .. } => "orders",
            Phase::FireAtChargers { .. } => "fire_at_chargers",
            Phase::Combat { .. } => "combat",
            Phase::MoveOfficers { .. } => "move_officers",
            Phase::Rally { .. } => "rally",
            Phase::TurnEnds => "turn_ends",
        }
    }

    /// The phasing side: the player whose half of the turn this phase is (page 7),
    /// the phasing player of Fire at Chargers too, though the other side fires in it.
    /// `None` for the set-up and the phases of both players (1, 2 and 15).
    ///
    /// ```
    /// use fm_core::huzzah::state::Phase;
    /// use fm_core::Side;
    /// assert_eq!(Phase::Orders { side: Side::B }.phasing(), Some(Side::B));
    /// assert_eq!(Phase::FireAtChargers { side: Side::A }.phasing(), Some(Side::B));
    /// assert_eq!(Phase::TurnEnds.phasing(), None);
    /// ```
    pub fn phasing(self) -> Option<Side> {
        match self {
            Phase::Firing { side }
            | Phase::Orders { side }
            | Phase::Combat { side }
            | Phase::MoveOfficers { side }
            | Phase::Rally { side } => Some(side),
            Phase::FireAtChargers { side } => Some(side.other()),
            Phase::Setup
            | Phase::SkirmisherSuperiority
            | Phase::ArtilleryEffectiveness
            | Phase::TurnEnds => None,
        }
    }

    /// The phase's number on page 7 (0 for the set-up); `player1` is Player 1.
    pub fn number(self, player1: Side) -> u8 {
        let p2 = |s: Side| if s == player1 { 0 } else { 6 };
        match self {
            Phase::Setup => 0,
            Phase::SkirmisherSuperiority => 1,
            Phase::ArtilleryEffectiveness => 2,
            Phase::Firing { side } => 3 + p2(side),
            Phase::Orders { side } => 4 + p2(side),
            Phase::FireAtChargers { side } => 5 + p2(side.other()),
            Phase::Combat { side } => 6 + p2(side),
            Phase::MoveOfficers { side } => 7 + p2(side),
            Phase::Rally { side } => 8 + p2(side),
            Phase::TurnEnds => 15,
        }
    }
}

/// A unit's order on the field (pages 13-15).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Neither disordered nor routing: a formed unit (page 18).
    Formed,
    /// Disordered (page 18: after a failed test, a lost combat, or routers passing).
    Disordered,
    /// Routing.
    Routing,
}

/// Where a unit is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whereabouts {
    /// Not yet placed (alternate set-up, page 7).
    Unplaced,
    /// On the table.
    Table,
    /// Routed or fell back off the table: on the Rout Table (page 15).
    RoutTable,
    /// Every base lost.
    Destroyed,
    /// Routed into an enemy-held sector of dense terrain (page 14), or otherwise taken.
    Captured,
    /// Every base deployed into the skirmish line (page 22): removed from play, not
    /// lost.
    SkirmishLine,
    /// Joined a grand battery (page 22): its bases are the battery's now.
    Joined,
}

/// A unit's dynamic state.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is.
    pub at: Whereabouts,
    /// Its geometry: anchor, facing, bases per rank.
    pub shape: Shape,
    /// Its bases, rank by rank, left to right (the marker bases among them).
    pub bases: Vec<BaseKind>,
    /// A road column (page 20).
    pub column: bool,
    /// Formed, disordered or routing.
    pub status: Status,
    /// Hits not yet turned into lost bases (odd hits stay until the end of the Rally
    /// phase, page 12).
    pub hits: u8,
    /// Bases lost this turn (the morale test's −1 each, page 14).
    pub lost_this_turn: u8,
    /// Its actual quality, once rolled (page 4).
    pub quality: Option<Quality>,
    /// The Grognards ability (pages 4, 14).
    pub grognards: bool,
    /// The Disciplined ability (pages 5, 14).
    pub disciplined: bool,
    /// Still has the Skirmish (Limited) ability (its marker base not lost, page 12).
    pub skirmish_limited: bool,
    /// Fired this turn, in any phase: reserve artillery that fired cannot move (page 17).
    pub fired: bool,
    /// Fired during this turn's Firing phase, whether or not it hit: "fired at the enemy"
    /// of the order modifier (page 18). Fire at chargers does not count (ruling R-HZ-18b).
    #[serde(default)]
    pub fired_at_enemy: bool,
    /// Advanced into contact this turn: a charger (page 20).
    pub charger: bool,
    /// Deployed in a sector of dense terrain.
    pub sector: Option<SectorRef>,
    /// Disordered by units falling back or routing through it this phase (page 14:
    /// only once a phase).
    pub passed_through: bool,
    /// Hits waiting to be turned into lost bases (the owner chooses which).
    pub removing: bool,
    /// Bases deployed into the skirmish line (page 22: removed, not lost).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skirmished: u8,
    /// Reserve artillery that joined this grand battery (page 22), in order; their
    /// bases, as they were when they joined, are among this unit's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<UnitIx>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// An officer's dynamic state.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct OfficerState {
    /// Where the officer's base stands (`None` until placed).
    pub at: Option<Point>,
    /// The unit he is attached to.
    pub attached: Option<UnitIx>,
    /// Killed or captured.
    pub lost: bool,
    /// His next saving throw succeeds (a Huzzah! on the last, page 15).
    pub charmed: bool,
    /// Killed this turn while attached to this unit (the morale test's −1/−2, page 14).
    pub killed_with: Option<UnitIx>,
    /// The turn he was lost (killed, captured or removed), for the CinC's appointment of
    /// a successor in a later turn (page 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_turn: Option<u16>,
    /// A successor the CinC appointed in his place (page 16), with the quality and trait
    /// the appointment gave; `None`: the scenario's officer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub appointed: Option<Appointed>,
}

/// An officer appointed by the CinC (page 16; what he is like is on the missing pages:
/// the appointment states it, or the stand-in gives it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Appointed {
    /// His quality.
    pub quality: crate::huzzah::scenario::OfficerQuality,
    /// He is inspirational.
    pub inspirational: bool,
}

/// An army's standing in the two common phases (pages 9-10).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct ArmyState {
    /// The Skirmish Factor after permanent Huzzah! reductions by the enemy.
    pub skirmish_factor: i8,
    /// Succeeded in the previous skirmisher superiority test.
    pub skirmish_passed: Option<bool>,
    /// Won the previous skirmisher war.
    pub skirmish_won: bool,
    /// Bases deployed into the skirmish line (page 9).
    pub skirmish_line: u16,
    /// The Artillery Factor after permanent Huzzah! reductions by the enemy.
    pub artillery_factor: i8,
    /// Passed the previous artillery effectiveness test.
    pub artillery_passed: Option<bool>,
    /// The guns are effective this turn.
    pub artillery_effective: bool,
}

/// A firing declaration (page 11).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Declaration {
    /// The firing unit.
    pub unit: UnitIx,
    /// Its target, or `None` if it holds its fire.
    pub target: Option<UnitIx>,
    /// The bases that fire, when fewer than the unit's (page 12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bases: Option<Vec<u8>>,
}

/// How far the resolution of fire at one target has gone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetStage {
    /// Fire rolled, hits not yet applied.
    Rolled,
    /// Hits applied; bases being removed.
    Removing,
    /// Bases removed: the officer's saving throw and the morale test follow.
    Removed,
}

/// A unit under fire this phase, in the order it was first declared a target.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Target {
    /// The unit.
    pub unit: UnitIx,
    /// Where its resolution is.
    pub stage: TargetStage,
    /// Hits from all fire at it this phase.
    pub hits: u8,
    /// Some fire at it succeeded (a test is forced even at 0 hits, page 12).
    pub hit: bool,
    /// Bases lost to this fire.
    pub lost: u8,
    /// Its ranks before removing losses (the support-rank bonus, page 14).
    pub ranks_before: Vec<u8>,
    /// It is charging (no force back, page 13).
    pub charger: bool,
}

/// The firing phase in progress.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Firing {
    /// Declarations so far, in order.
    pub declarations: Vec<Declaration>,
    /// All targets declared; fire is being resolved.
    pub resolving: bool,
    /// Targets still to resolve.
    pub targets: Vec<Target>,
    /// Units whose fire at chargers failed: each takes a morale test (page 13).
    pub failed: Vec<UnitIx>,
}

/// What an order is given to (page 16): a unit, a division or a corps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupRef {
    /// One unit.
    Unit(UnitIx),
    /// A division.
    Division(crate::huzzah::scenario::DivisionIx),
    /// A corps.
    Corps(crate::huzzah::scenario::CorpsIx),
}

/// A successful order whose units are acting on it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ActiveOrder {
    /// The officer.
    pub officer: OfficerIx,
    /// The group.
    pub group: GroupRef,
    /// The order.
    pub kind: OrderKind,
    /// The group's units that may still act on it.
    pub units: Vec<UnitIx>,
    /// The rate the group moves at (its slowest unit's, page 19).
    pub rate: crate::huzzah::geometry::Len,
}

/// The Orders and Movement phase in progress (pages 16-22).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Orders {
    /// The officer giving orders now.
    pub officer: Option<OfficerIx>,
    /// The group he is ordering now, and the orders he has given it.
    pub group: Option<(GroupRef, u8)>,
    /// Officers who may give no more orders this turn (failed, or left for another).
    pub done: Vec<OfficerIx>,
    /// Groups closed to further orders (another officer's, or left behind).
    pub closed: Vec<GroupRef>,
    /// Units given orders this turn, by which officer (page 16: not by another).
    pub ordered: Vec<(UnitIx, OfficerIx)>,
    /// A Huzzah! gave the current group one automatic order (page 18).
    pub free: bool,
    /// The order being acted on.
    pub active: Option<ActiveOrder>,
    /// The impulsive units' compulsory charges were made (page 20).
    #[serde(default)]
    pub impulsive_checked: bool,
}

/// The alternate placement of page 7, in progress.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Placement {
    /// The side that places first.
    pub first: Option<Side>,
    /// Who is placing on the current roll.
    pub side: Option<Side>,
    /// The side whose placement roll was last.
    pub last: Option<Side>,
    /// The fewest units the current roll requires.
    pub min: u8,
    /// The most it allows.
    pub max: u8,
    /// Placed on the current roll.
    pub placed: u8,
    /// Units are all placed; officers are being placed.
    pub officers: bool,
}

/// How the battle ended.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: String,
}

/// The decision the battle waits for, recorded by the engine's `awaiting` event. JSON:
/// `{"kind": "declare_fire", "side": "a", "units": ["fr-1", "fr-2"]}`, units by scenario
/// id (the state keeps it as the `awaiting` event gave it).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// Page 7: place from `min` to `max` units on this placement roll.
    PlaceUnits {
        /// The placing side.
        side: Side,
        /// The fewest units this roll requires (less those placed).
        min: u8,
        /// The most it allows.
        max: u8,
        /// Placed so far on this roll.
        placed: u8,
    },
    /// Page 8: place an officer (Player 2's first, then Player 1's).
    PlaceOfficer {
        /// The side placing.
        side: Side,
    },
    /// Page 11: declare a target (or hold fire) for each unit that can fire.
    DeclareFire {
        /// The phasing side.
        side: Side,
        /// The units still to declare.
        units: Vec<UnitId>,
    },
    /// Page 12: the owner chooses which base to remove.
    RemoveBase {
        /// The owner.
        side: Side,
        /// The unit.
        unit: UnitId,
        /// Hits on it.
        hits: u8,
    },
    /// Page 13: a unit charged by several units chooses the one it fires at.
    FireAtCharger {
        /// The firing side (not the phasing side).
        side: Side,
        /// The charged unit.
        unit: UnitId,
        /// Its chargers.
        chargers: Vec<UnitId>,
    },
    /// Pages 16-18: the phasing player gives an order, or ends the phase.
    Orders {
        /// The phasing side.
        side: Side,
    },
    /// Pages 19-21: the units of a successful order act on it, one at a time.
    Act {
        /// The phasing side.
        side: Side,
        /// The order.
        order: OrderKind,
        /// The units that may still act.
        units: Vec<UnitId>,
    },
    /// A melee to resolve (the rules are missing: the outcome is given by command).
    Melee {
        /// The phasing side (who enters the agreed or umpired outcome).
        side: Side,
        /// Side A's unit.
        a: UnitId,
        /// Side B's unit.
        b: UnitId,
    },
    /// The Rally phase (its rules are missing): which units rally.
    Rally {
        /// The phasing side.
        side: Side,
        /// Disordered or routing units still to decide.
        units: Vec<UnitId>,
    },
    /// The Move Officers phase (its rules are missing, bar the 60 cm move).
    MoveOfficers {
        /// The phasing side.
        side: Side,
    },
    /// The battle has not opened yet: the opening's rolls (page 7's roll-off for
    /// Player 1 and the first placement roll) wait for their outcomes. Seen only in
    /// explicit chance mode, before the last of them is given; no side decides.
    Opening,
    /// The battle is over.
    GameOver {
        /// The winner, `None` for a draw.
        winner: Option<Side>,
    },
}

impl Pending {
    /// The page that sets this decision and what it waits for, in words with the
    /// commands that answer it: what a refusal of a command that does not answer it says.
    ///
    /// ```
    /// use fm_core::huzzah::state::Pending;
    /// use fm_core::Side;
    /// let p = Pending::Orders { side: Side::A };
    /// assert_eq!(p.describe(), ("p16", "side a gives orders (order, appoint) or ends its Orders phase (end_phase)".to_string()));
    /// ```
    pub fn describe(&self) -> (&'static str, String) {
        let list = |us: &[UnitId]| us.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ");
        match self {
            Pending::PlaceUnits { side, .. } => (
                "p7",
                format!("side {side} places its units (place_unit, or end_placement once the low die's count is placed)"),
            ),
            Pending::PlaceOfficer { side } => {
                ("p8", format!("side {side} places an officer (place_officer)"))
            }
            Pending::DeclareFire { side, units } => (
                "p11",
                format!("side {side}'s units {} declare their fire (fire, or hold_fire)", list(units)),
            ),
            Pending::RemoveBase { unit, .. } => (
                "p12",
                format!("the owner of {unit} chooses the base it loses (remove_base)"),
            ),
            Pending::FireAtCharger { unit, chargers, .. } => (
                "p13",
                format!("{unit}, charged by {}, fires at one of them (fire; it cannot choose not to fire)", list(chargers)),
            ),
            Pending::Orders { side } => (
                "p16",
                format!("side {side} gives orders (order, appoint) or ends its Orders phase (end_phase)"),
            ),
            Pending::Act { side, order, units } => (
                "p19",
                format!(
                    "side {side}'s {} order is acted on by its units {} (a command of that order for one of them, or end_order)",
                    order.name(),
                    list(units)
                ),
            ),
            Pending::Melee { a, b, .. } => (
                "p7",
                format!("the melee of {a} and {b} is resolved (melee_result)"),
            ),
            Pending::Rally { side, units } => (
                "p7",
                format!("side {side} decides which of {} rally (rally, or end_phase)", list(units)),
            ),
            Pending::MoveOfficers { side } => (
                "p7",
                format!("side {side} moves its officers (move_officer, or end_phase)"),
            ),
            Pending::Opening => (
                "p7",
                "the opening's rolls (the roll-off for Player 1, the first placement roll): \
                 chance outcomes (apply_chance)"
                    .to_string(),
            ),
            Pending::GameOver { .. } => ("p7", "nothing: the battle is over".to_string()),
        }
    }

    /// Whose decision it is (`None` once the battle is over, and before it opens).
    pub fn side(&self) -> Option<Side> {
        match self {
            Pending::PlaceUnits { side, .. }
            | Pending::PlaceOfficer { side }
            | Pending::DeclareFire { side, .. }
            | Pending::FireAtCharger { side, .. }
            | Pending::RemoveBase { side, .. }
            | Pending::Orders { side }
            | Pending::Act { side, .. }
            | Pending::Melee { side, .. }
            | Pending::Rally { side, .. }
            | Pending::MoveOfficers { side } => Some(*side),
            Pending::Opening | Pending::GameOver { .. } => None,
        }
    }
}

/// The state of a battle.
///
/// Its JSON is the referee's bookkeeping, kept as the engine keeps it: `units` and
/// `officers` in scenario order, and every other reference to a unit or an officer (an
/// officer's `attached`, the firing and Orders phases' tables, the pairs in contact) a
/// position in those arrays; only `pending` names units by id, as events do
/// (docs/protocol.md, "Huzzah! the state"). Lengths are millimetres, as everywhere.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct State {
    /// The turn, from 1 (0 during the set-up).
    pub turn: u16,
    /// The phase.
    pub phase: Phase,
    /// Player 1, who is phasing first each turn (decided at set-up).
    pub player1: Option<Side>,
    /// The placement in progress (set-up only).
    pub placement: Placement,
    /// Each unit, in the scenario's order.
    pub units: Vec<UnitState>,
    /// Each officer, in the scenario's order.
    pub officers: Vec<OfficerState>,
    /// Each army's standing.
    pub armies: SidePair<ArmyState>,
    /// The side whose skirmishers won the skirmisher war this turn (page 9).
    pub superiority: Option<Side>,
    /// Artillery Huzzah! results already counted against each side this turn (page 10:
    /// only one counts).
    pub artillery_huzzah_against: SidePair<bool>,
    /// The firing phase in progress.
    pub firing: Firing,
    /// The Orders phase in progress.
    #[serde(default)]
    pub orders: Orders,
    /// Melees resolved this phase.
    #[serde(default)]
    pub combat_done: Vec<(UnitIx, UnitIx)>,
    /// Units decided this phase (rally).
    #[serde(default)]
    pub done_in_phase: Vec<UnitIx>,
    /// Officers moved this phase.
    #[serde(default)]
    pub officers_moved: Vec<u16>,
    /// Pairs of enemy units in contact at the start of the turn (page 13: they do not
    /// fire at each other in any phase of the turn; ruling R-HZ-13b).
    pub in_combat: Vec<(UnitIx, UnitIx)>,
    /// Engagements in dense terrain (pages 19 and 22: a unit entering a sector next to
    /// an enemy-held one, or advancing on one, engages it without touching it): side
    /// A's unit first. Each lasts while both stay in their sectors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sector_engaged: Vec<(UnitIx, UnitIx)>,
    /// The decision it waits for.
    pub pending: Pending,
    /// Set once the battle is over.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The state before the opening events: units at their scenario positions (or
    /// unplaced, for an alternate set-up), officers unplaced; or, for a battle that
    /// starts mid-way, as the scenario's `start` has it.
    pub fn initial(sc: &Scenario) -> State {
        let alternate = sc.alternate_setup();
        let units = sc
            .units()
            .iter()
            .map(|u| UnitState {
                at: if alternate {
                    Whereabouts::Unplaced
                } else {
                    Whereabouts::Table
                },
                shape: u.shape(sc.base()),
                bases: u.bases.iter().map(|b| b.kind).collect(),
                column: u.is_column(),
                status: Status::Formed,
                hits: 0,
                lost_this_turn: 0,
                quality: u.quality,
                grognards: u.flags.grognards,
                disciplined: u.flags.disciplined,
                skirmish_limited: u.is_skirmish_limited(),
                fired: false,
                fired_at_enemy: false,
                charger: false,
                sector: u.sector,
                passed_through: false,
                removing: false,
                skirmished: 0,
                joined: Vec::new(),
            })
            .collect();
        let officers = sc
            .officers()
            .iter()
            .map(|o| OfficerState {
                at: None,
                attached: None,
                lost: false,
                charmed: o.charmed,
                killed_with: None,
                lost_turn: None,
                appointed: None,
            })
            .collect();
        let army = |s: Side| ArmyState {
            skirmish_factor: sc.side(s).skirmish_factor as i8,
            artillery_factor: sc.side(s).artillery_factor as i8,
            ..ArmyState::default()
        };
        let mut s = State {
            turn: 0,
            phase: Phase::Setup,
            player1: None,
            placement: Placement::default(),
            units,
            officers,
            armies: SidePair::new(army(Side::A), army(Side::B)),
            superiority: None,
            artillery_huzzah_against: SidePair::default(),
            firing: Firing::default(),
            in_combat: Vec::new(),
            sector_engaged: Vec::new(),
            orders: Orders::default(),
            combat_done: Vec::new(),
            done_in_phase: Vec::new(),
            officers_moved: Vec::new(),
            // What the opening's events replace; seen only while they wait for their
            // dice (explicit chance mode).
            pending: Pending::Opening,
            outcome: None,
        };
        // A battle that starts mid-way (the scenario's `start`).
        if let Some(start) = sc.start() {
            start.place(sc, &mut s);
        }
        s
    }

    /// A unit's state.
    pub fn unit(&self, u: UnitIx) -> &UnitState {
        &self.units[u.0 as usize]
    }

    /// A unit's state, mutably.
    pub fn unit_mut(&mut self, u: UnitIx) -> &mut UnitState {
        &mut self.units[u.0 as usize]
    }

    /// The battle is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// An officer's quality: his own, or his appointed successor's (page 16).
    pub fn officer_quality(
        &self,
        sc: &Scenario,
        o: usize,
    ) -> crate::huzzah::scenario::OfficerQuality {
        self.officers[o]
            .appointed
            .map_or(sc.officers()[o].quality, |a| a.quality)
    }

    /// An officer is inspirational: he, or his appointed successor (page 16).
    pub fn officer_inspirational(&self, sc: &Scenario, o: usize) -> bool {
        self.officers[o]
            .appointed
            .map_or(sc.officers()[o].inspirational, |a| a.inspirational)
    }

    /// Whether `a` and `b` were in combat (in contact) as the turn began: page 13, "Units
    /// that begin the turn in combat cannot fire at each other".
    pub fn began_in_combat(&self, a: UnitIx, b: UnitIx) -> bool {
        self.in_combat
            .iter()
            .any(|(x, y)| (*x == a && *y == b) || (*x == b && *y == a))
    }

    /// The officer attached to a unit, if any.
    pub fn attached_officer(&self, u: UnitIx) -> Option<usize> {
        self.officers
            .iter()
            .position(|o| !o.lost && o.attached == Some(u))
    }

    /// A platform-independent hash of the whole state: every value its `Hash` writes,
    /// folded a word at a time (the hash of save format 5 on; about 0.6 µs a state of
    /// huzzah-encounter, twenty times less than [`State::json_hash`], which formats 2-4
    /// recorded).
    pub fn hash(&self) -> u64 {
        let mut h = crate::game::hash::WordHasher::new();
        std::hash::Hash::hash(self, &mut h);
        std::hash::Hasher::finish(&h)
    }

    /// The state hash of save formats 2 to 4: FNV-1a over the state's canonical JSON.
    /// Loading such a save verifies its recorded hashes with it.
    pub fn json_hash(&self) -> u64 {
        // The JSON is fed to the hash as it is written, never held.
        let mut h = Fnv(FNV_OFFSET);
        match serde_json::to_writer(&mut h, self) {
            Ok(()) => h.0,
            // `to_vec` gave an empty buffer on error: the hash of no bytes. A state
            // always serializes (no map has non-string keys), so this is never reached.
            Err(_) => FNV_OFFSET,
        }
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a as an `io::Write` sink.
struct Fnv(u64);

impl std::io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = bytes.iter().fold(self.0, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
        });
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::huzzah::Huzzah;

    /// FNV-1a, 64 bits, over a whole buffer: what `State::hash` was before it streamed.
    fn fnv(bytes: &[u8]) -> u64 {
        bytes.iter().fold(FNV_OFFSET, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
        })
    }

    #[test]
    fn the_json_hash_is_fnv_of_the_json() {
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = Huzzah::builtin(name).expect("built-in scenario");
            let mut rng = crate::rng::rng_from_seed(3);
            let (mut s, _) = Huzzah::new_game(&sc, &mut rng);
            for _ in 0..120 {
                let json = serde_json::to_vec(&s).expect("a state serializes");
                assert_eq!(s.json_hash(), fnv(&json), "{name}");
                let cmds = Huzzah::legal_commands(&sc, &s);
                if cmds.is_empty() {
                    break;
                }
                let c = &cmds[crate::dynmatch::uniform_index(&mut rng, cmds.len())];
                s = Huzzah::apply_with_state(&sc, &s, c, &mut rng)
                    .expect("a listed command is legal")
                    .1;
            }
        }
    }
}
