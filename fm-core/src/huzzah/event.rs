//! What happens in a Huzzah! battle, as events (every die roll among them), and the
//! fold that records them into the state. The fold decides nothing: each event carries
//! the outcome [`crate::huzzah::engine::apply`] computed.
//!
//! Events name units and officers by their scenario ids, as commands do, and give
//! lengths and positions in millimetres (one decimal at most: the engine's exact unit is
//! a tenth of a millimetre, [`Len`]); the fold resolves the ids to the state's indices
//! ([`crate::huzzah::names`]).

use crate::huzzah::command::GroupArg;
use crate::huzzah::geometry::{Len, Point, Shape};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::quality::Quality;
use crate::huzzah::scenario::{BaseKind, Ground, OfficerIx, Scenario, UnitIx, Weather};
use crate::huzzah::state::{
    Declaration, Dice, GroupRef, Outcome, Pending, Phase, State, Status, Target, TargetStage,
    Whereabouts,
};
use crate::ids::{OfficerId, Side, UnitId};
use serde::{Deserialize, Serialize};

/// One term of a modified factor: why, and by how much (`"short range"`, `+1`).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Modifier {
    /// The rule's wording, shortened.
    pub why: String,
    /// The change.
    pub by: i8,
}

/// A roll against a factor: the factor, its modifiers, the factor used (clamped where
/// the rule clamps it), the dice and the result.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Test {
    /// The unmodified factor.
    pub base: i8,
    /// The modifiers applied.
    pub modifiers: Vec<Modifier>,
    /// The modified factor, clamped to 2..10 where the rule says so.
    pub factor: i8,
    /// The dice.
    pub dice: Dice,
    /// Passed: a total at most the factor, never 11 or 12, always on a Huzzah!.
    pub passed: bool,
}

/// An ability a Huzzah! gave a unit (pages 4-5, 14).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Grognards.
    Grognards,
    /// Disciplined.
    Disciplined,
}

/// An event. JSON: `{"type": "fire_resolved", "unit": "fr-1", …}`: units and officers
/// by scenario id, lengths in millimetres.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Page 7: both players roll; the highest places first (re-rolled on a tie).
    RolledOff {
        /// Side A's dice.
        a: Dice,
        /// Side B's dice.
        b: Dice,
        /// The side that places first, if this roll decided it.
        first: Option<Side>,
    },
    /// Page 7: who places first (and, for placed set-ups, is Player 1).
    FirstDecided {
        /// The side.
        side: Side,
        /// Why: `"scenario"` or `"roll-off"`.
        by: String,
    },
    /// Page 7: a placement roll, the low die the fewest units, the high die the most.
    PlacementRolled {
        /// The placing side.
        side: Side,
        /// The dice.
        dice: Dice,
        /// The fewest units to place (capped at the units left).
        min: u8,
        /// The most.
        max: u8,
    },
    /// A unit placed on the table.
    UnitPlaced {
        /// The unit.
        unit: UnitId,
    },
    /// A side ended its placement for this roll.
    PlacementEnded {
        /// The side.
        side: Side,
    },
    /// Page 7: the player to finish placing first becomes Player 2, the other Player 1.
    PlayersDecided {
        /// Player 1.
        player1: Side,
    },
    /// Page 8: all units placed; Player 2 and then Player 1 place officers.
    OfficersToPlace,
    /// An officer placed (never attached at the start, page 8).
    OfficerPlaced {
        /// The officer.
        officer: OfficerId,
        /// Where, in millimetres.
        at: Point,
    },
    /// A turn begins, with the scenario's conditions for it (page 10).
    TurnStarted {
        /// The turn.
        turn: u16,
        /// The ground.
        ground: Ground,
        /// The weather.
        weather: Weather,
    },
    /// Page 13: enemy units in contact as the turn begins (they do not fire at each
    /// other as chargers this turn).
    InCombat {
        /// The pairs, side A's unit first.
        pairs: Vec<(UnitId, UnitId)>,
    },
    /// A phase begins.
    PhaseStarted {
        /// The phase.
        phase: Phase,
    },
    /// Page 9: a side's skirmisher superiority test.
    SkirmishTested {
        /// The side.
        side: Side,
        /// The test (no clamp: the text gives none).
        test: Test,
    },
    /// Page 9: a Huzzah! permanently reduces the enemy's Skirmish Factor by one.
    SkirmishFactorReduced {
        /// The side whose factor falls.
        side: Side,
        /// Its new factor.
        to: i8,
    },
    /// Page 9: who won the skirmisher war (`None`: nobody succeeded by more).
    SkirmisherWar {
        /// The winner.
        winner: Option<Side>,
    },
    /// Page 10: a side's artillery effectiveness test.
    ArtilleryTested {
        /// The side.
        side: Side,
        /// The test.
        test: Test,
    },
    /// Page 10: a Huzzah! permanently reduces the enemy's Artillery Factor by one.
    ArtilleryFactorReduced {
        /// The side whose factor falls.
        side: Side,
        /// Its new factor.
        to: i8,
    },
    /// Page 11: a firing declaration.
    FireDeclared {
        /// The firing unit.
        unit: UnitId,
        /// Its target.
        target: UnitId,
        /// The range (centre of the firer to the centre of the target's closest
        /// visible face), in millimetres.
        range_mm: Len,
        /// Under half range.
        short: bool,
        /// The bases that fire, when fewer than the unit's (page 12).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bases: Option<Vec<u8>>,
    },
    /// A unit that could fire holds its fire.
    FireHeld {
        /// The unit.
        unit: UnitId,
    },
    /// Page 4: a unit's actual quality rolled, the first time it matters.
    QualityDetermined {
        /// The unit.
        unit: UnitId,
        /// Every roll, in order (a Huzzah! is re-rolled).
        rolls: Vec<Dice>,
        /// The quality.
        quality: Quality,
        /// Abilities the Huzzah! results gave.
        gained: Vec<Ability>,
    },
    /// Pages 11-12: one unit's fire resolved.
    FireResolved {
        /// The firing unit.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The bases that fired (those with a clear line of sight).
        bases: u8,
        /// The test against the Fire Factor.
        test: Test,
        /// Hits: the margin, plus one on a Huzzah!.
        hits: u8,
    },
    /// All fire at a unit resolved: its hits (with any left from earlier this turn)
    /// are turned into lost bases.
    HitsApplied {
        /// The unit.
        unit: UnitId,
        /// Hits from this phase's fire.
        hits: u8,
    },
    /// A base removed (page 12, the owner's choice; marker bases last).
    BaseRemoved {
        /// The unit.
        unit: UnitId,
        /// The rank it came from (0 = front).
        rank: u8,
        /// Its kind.
        kind: BaseKind,
        /// The hits it took.
        hits: u8,
        /// The unit's geometry afterwards (lengths in millimetres).
        shape: Shape,
    },
    /// Page 12: a marker base was lost, and with it the ability it marked.
    AbilityLost {
        /// The unit.
        unit: UnitId,
        /// `"divisional artillery"` or `"skirmish (limited)"`.
        ability: String,
    },
    /// No more bases can be removed: the odd hits stay until the end of the Rally
    /// phase (page 12).
    RemovalDone {
        /// The unit.
        unit: UnitId,
        /// Hits left on it.
        odd_hits: u8,
    },
    /// Every base lost.
    UnitDestroyed {
        /// The unit.
        unit: UnitId,
    },
    /// Page 15: an attached officer's saving throw.
    OfficerSave {
        /// The officer.
        officer: OfficerId,
        /// 12 minus the hits; he survives on a roll at most this.
        needs: i8,
        /// The dice (none when his charmed life made it succeed).
        dice: Option<Dice>,
        /// He survived.
        survived: bool,
        /// A Huzzah!: his next saving throw succeeds too.
        charmed: bool,
    },
    /// An officer killed (page 15), or lost with his unit.
    OfficerKilled {
        /// The officer.
        officer: OfficerId,
        /// The unit he was attached to.
        unit: UnitId,
    },
    /// Pages 13-14: a morale test.
    MoraleTested {
        /// The unit.
        unit: UnitId,
        /// The test (clamped to 2..10).
        test: Test,
    },
    /// Page 14: a Huzzah! on a morale test: Grognards, then Disciplined.
    AbilityGained {
        /// The unit.
        unit: UnitId,
        /// The ability.
        ability: Ability,
    },
    /// Page 14: a Huzzah! for a Disciplined unit: its quality improves by one.
    QualityImproved {
        /// The unit.
        unit: UnitId,
        /// The new quality.
        to: Quality,
    },
    /// A unit's status changed (disordered, routing).
    StatusChanged {
        /// The unit.
        unit: UnitId,
        /// The new status.
        status: Status,
        /// Why (the rule).
        why: String,
    },
    /// A unit moved on the table (fell back, routed).
    UnitMoved {
        /// The unit.
        unit: UnitId,
        /// Its geometry afterwards (lengths in millimetres).
        shape: Shape,
        /// Its sector of dense terrain afterwards, `"<terrain id>/<n>"`.
        sector: Option<String>,
        /// How far it moved, in millimetres.
        distance_mm: Len,
        /// Why.
        why: String,
    },
    /// Page 14: a unit that fell back or routed through a friend takes a hit; the
    /// friend is disordered (once a phase).
    ExtraHit {
        /// The unit.
        unit: UnitId,
        /// Why.
        why: String,
    },
    /// Page 14: a friendly unit passed through (disordered, once a phase).
    PassedThrough {
        /// The unit passed through.
        unit: UnitId,
        /// The unit that passed.
        by: UnitId,
    },
    /// Page 15: a unit that fell back or routed off the table goes to the Rout Table.
    ToRoutTable {
        /// The unit.
        unit: UnitId,
    },
    /// Page 14: a router entering an enemy-held sector of dense terrain is captured.
    UnitCaptured {
        /// The unit.
        unit: UnitId,
    },
    /// A target's resolution finished.
    TargetResolved {
        /// The unit.
        unit: UnitId,
    },
    /// Page 12: odd hits removed at the end of the Rally phase.
    OddHitsRemoved {
        /// The units that had them.
        units: Vec<UnitId>,
    },
    /// Page 7, phase 15: the turn ends (smoke and this turn's losses cleared).
    TurnEnded {
        /// The turn.
        turn: u16,
    },
    /// Pages 16-18: an order, its Command Factor roll (none for the automatic order a
    /// Huzzah! gives) and whether it succeeded.
    OrderGiven {
        /// The officer.
        officer: OfficerId,
        /// The group ordered, by id: `{"unit": id}`, `{"division": id}` or
        /// `{"corps": id}`.
        group: GroupArg,
        /// The order.
        order: OrderKind,
        /// The group's units that act on it.
        units: Vec<UnitId>,
        /// The roll (clamped to 2..10); `None` for an automatic order.
        test: Option<Test>,
        /// The automatic second order of a Huzzah! (page 18).
        automatic: bool,
        /// The roll was a Huzzah!: one more order to this group succeeds automatically.
        huzzah: bool,
        /// The group's move (its slowest unit's), in millimetres.
        rate_mm: Len,
    },
    /// Page 16: a failed CinC ends the side's Orders phase at once.
    OrdersEnded {
        /// The side.
        side: Side,
        /// Why.
        why: String,
    },
    /// A unit has acted on the order (moved, or was passed over).
    Acted {
        /// The unit.
        unit: UnitId,
    },
    /// The order's units have all acted, or the player ended it.
    OrderDone,
    /// Page 20: a charger squared up in contact with the face of the target it
    /// charged; it acts on no further orders this phase.
    Charged {
        /// The charger.
        unit: UnitId,
        /// The unit charged.
        target: UnitId,
        /// The face charged.
        face: crate::huzzah::geometry::Face,
    },
    /// Page 20: impulsive units within one advance of the enemy charged without orders
    /// as the Orders phase began (the charges' own events come first).
    ImpulsiveCharges {
        /// The phasing side.
        side: Side,
        /// The charges made: (charger, target).
        charges: Vec<(UnitId, UnitId)>,
    },
    /// Page 21: a change of formation on a deploy order.
    UnitDeployed {
        /// The unit.
        unit: UnitId,
        /// Its geometry afterwards (lengths in millimetres).
        shape: Shape,
        /// It is in road column.
        column: bool,
    },
    /// Page 21: the Waver Test after a retire within one move of an enemy.
    WaverTested {
        /// The unit.
        unit: UnitId,
        /// The test (clamped to 2..10).
        test: Test,
    },
    /// An officer moved: with his unit, displaced by a friendly one, or joining a unit.
    OfficerMoved {
        /// The officer.
        officer: OfficerId,
        /// Where he is now, in millimetres.
        at: Point,
        /// The unit he is attached to now.
        attached: Option<UnitId>,
        /// Why.
        why: String,
    },
    /// Page 18: an enemy unit reached an officer with no friendly unit in his radius.
    OfficerCaptured {
        /// The officer.
        officer: OfficerId,
        /// The unit that took him.
        by: UnitId,
    },
    /// A melee's outcome (the rules are missing: given by command, or by the labelled
    /// stand-in, whose two tests are then shown).
    MeleeResolved {
        /// Side A's unit.
        a: UnitId,
        /// Side B's unit.
        b: UnitId,
        /// The winner's side, `None` for a draw.
        winner: Option<Side>,
        /// Hits on side A's unit and on side B's.
        hits: (u8, u8),
        /// The stand-in's tests (side A's, side B's).
        tests: Option<(Test, Test)>,
        /// Decided by the stand-in rules.
        stand_in: bool,
    },
    /// A unit's rally decided (the rules are missing): its status now.
    RallyDecided {
        /// The unit.
        unit: UnitId,
        /// Its status.
        to: Status,
        /// The stand-in's morale test, if one was taken.
        test: Option<Test>,
        /// Decided by the stand-in rules.
        stand_in: bool,
    },
    /// Page 22: bases of a unit with a Skirmish ability deployed into its army's
    /// skirmish line: removed from play, not lost. Its last infantry bases go (the
    /// rear rank's first).
    SkirmishersDeployed {
        /// The unit.
        unit: UnitId,
        /// How many bases.
        bases: u8,
        /// The unit's geometry afterwards (lengths in millimetres); `None` if every
        /// base went.
        shape: Option<Shape>,
        /// The army's bases in the skirmish line now.
        line: u16,
    },
    /// Page 22: an officer removed from play (a division officer whose only unit went
    /// whole into the skirmish line).
    OfficerRemoved {
        /// The officer.
        officer: OfficerId,
        /// Why.
        why: String,
    },
    /// Page 22: reserve artillery joined a grand battery on a deploy order; its bases
    /// extend the battery's front rank at one end (ruling R-HZ-22c) and the battery's
    /// quality is the lower of the two (page 6).
    BatteryJoined {
        /// The reserve artillery that joined.
        unit: UnitId,
        /// The battery it joined.
        battery: UnitId,
        /// At the battery's left end (else its right).
        left: bool,
        /// The battery's geometry afterwards (lengths in millimetres).
        shape: Shape,
        /// The battery's quality afterwards (`None`: neither was rolled yet).
        quality: Option<Quality>,
        /// The battery keeps Grognards (both had it).
        grognards: bool,
        /// The battery keeps Disciplined (both had it).
        disciplined: bool,
    },
    /// Pages 19 and 22: units engaged in dense terrain without touching (a unit that
    /// entered a sector next to an enemy-held one, or advanced on an enemy-held
    /// sector).
    Engaged {
        /// Side A's unit.
        a: UnitId,
        /// Side B's unit.
        b: UnitId,
        /// Why.
        why: String,
    },
    /// Page 22: two units exchanged places in a passage of lines (their moves follow);
    /// neither is disordered by the other.
    LinesPassed {
        /// The unit ordered.
        unit: UnitId,
        /// The unit it exchanged places with.
        with: UnitId,
    },
    /// Page 16: the CinC appointed a new officer to a command group that lost its
    /// officer in a previous turn; what he is like is on the missing pages (stated by
    /// the command, or the stand-in's).
    OfficerAppointed {
        /// The officer replaced (his successor takes his place and id).
        officer: OfficerId,
        /// The new officer's quality.
        quality: crate::huzzah::scenario::OfficerQuality,
        /// He is inspirational.
        inspirational: bool,
        /// Where he is placed, in millimetres.
        at: Point,
        /// Given by the stand-in rules.
        stand_in: bool,
    },
    /// The engine waits for this decision.
    Awaiting {
        /// The decision.
        decision: Pending,
    },
    /// The battle is over.
    GameEnded {
        /// The outcome.
        outcome: Outcome,
    },
}

impl State {
    /// Folds one event into the state. The event names units, officers, sectors and
    /// groups by id; each is resolved to the state's index here. An event naming one the
    /// scenario lacks (never one the engine emitted for it) changes nothing.
    pub fn apply_event(&mut self, sc: &Scenario, e: &Event) {
        let _ = self.fold(sc, e);
    }

    /// [`State::apply_event`]; `None` (and nothing changed) for an id the scenario
    /// lacks. Every id of an event is resolved before the state changes.
    fn fold(&mut self, sc: &Scenario, e: &Event) -> Option<()> {
        let ux = |id: &UnitId| sc.unit_ix_of(id);
        let ox = |id: &OfficerId| sc.officer_ix_of(id);
        let uxs = |ids: &[UnitId]| ids.iter().map(ux).collect::<Option<Vec<UnitIx>>>();
        let pairs = |ps: &[(UnitId, UnitId)]| {
            ps.iter()
                .map(|(a, b)| Some((ux(a)?, ux(b)?)))
                .collect::<Option<Vec<(UnitIx, UnitIx)>>>()
        };
        match e {
            Event::RolledOff { .. } => {}
            Event::PlacementEnded { side } => {
                self.placement.side = None;
                self.placement.last = Some(*side);
            }
            Event::FirstDecided { side, .. } => {
                self.placement.first = Some(*side);
                if !sc.alternate_setup() {
                    self.player1 = Some(*side);
                }
            }
            Event::PlacementRolled { side, min, max, .. } => {
                self.placement.side = Some(*side);
                self.placement.min = *min;
                self.placement.max = *max;
                self.placement.placed = 0;
            }
            Event::UnitPlaced { unit } => {
                let u = ux(unit)?;
                self.unit_mut(u).at = Whereabouts::Table;
                self.placement.placed += 1;
            }
            Event::PlayersDecided { player1 } => {
                self.player1 = Some(*player1);
            }
            Event::OfficersToPlace => self.placement.officers = true,
            Event::OfficerPlaced { officer, at } => {
                let o = ox(officer)?;
                self.officers[o.index()].at = Some(*at);
            }
            Event::InCombat { pairs: ps } => self.in_combat = pairs(ps)?,
            Event::TurnStarted { turn, .. } => {
                self.turn = *turn;
                self.in_combat.clear();
                self.superiority = None;
                self.artillery_huzzah_against = Default::default();
            }
            Event::PhaseStarted { phase } => {
                self.phase = *phase;
                self.firing = Default::default();
                self.orders = Default::default();
                self.combat_done.clear();
                self.done_in_phase.clear();
                self.officers_moved.clear();
                for u in &mut self.units {
                    u.passed_through = false;
                }
            }
            Event::SkirmishTested { side, test } => {
                self.armies.get_mut(*side).skirmish_passed = Some(test.passed);
            }
            Event::SkirmishFactorReduced { side, to } => {
                self.armies.get_mut(*side).skirmish_factor = *to;
            }
            Event::SkirmisherWar { winner } => {
                self.superiority = *winner;
                for s in Side::BOTH {
                    self.armies.get_mut(s).skirmish_won = *winner == Some(s);
                }
            }
            Event::ArtilleryTested { side, test } => {
                let a = self.armies.get_mut(*side);
                a.artillery_passed = Some(test.passed);
                a.artillery_effective = test.passed;
            }
            Event::ArtilleryFactorReduced { side, to } => {
                self.armies.get_mut(*side).artillery_factor = *to;
                *self.artillery_huzzah_against.get_mut(*side) = true;
            }
            Event::FireDeclared {
                unit,
                target,
                bases,
                ..
            } => {
                let (unit, target) = (ux(unit)?, ux(target)?);
                self.firing.declarations.push(Declaration {
                    unit,
                    target: Some(target),
                    bases: bases.clone(),
                });
                if !self.firing.targets.iter().any(|t| t.unit == target) {
                    let charger = self.unit(target).charger;
                    self.firing.targets.push(Target {
                        unit: target,
                        stage: TargetStage::Rolled,
                        hits: 0,
                        hit: false,
                        lost: 0,
                        ranks_before: Vec::new(),
                        charger,
                    });
                }
            }
            Event::FireHeld { unit } => {
                let unit = ux(unit)?;
                self.firing.declarations.push(Declaration {
                    unit,
                    target: None,
                    bases: None,
                })
            }
            Event::QualityDetermined {
                unit,
                quality,
                gained,
                ..
            } => {
                let u = self.unit_mut(ux(unit)?);
                u.quality = Some(*quality);
                for a in gained {
                    match a {
                        Ability::Grognards => u.grognards = true,
                        Ability::Disciplined => u.disciplined = true,
                    }
                }
            }
            Event::FireResolved {
                unit,
                target,
                test,
                hits,
                ..
            } => {
                let (unit, target) = (ux(unit)?, ux(target)?);
                self.firing.resolving = true;
                self.unit_mut(unit).fired = true;
                if matches!(self.phase, Phase::Firing { .. }) {
                    self.unit_mut(unit).fired_at_enemy = true;
                }
                if matches!(self.phase, Phase::FireAtChargers { .. }) && !test.passed {
                    self.firing.failed.push(unit);
                }
                if let Some(t) = self.firing.targets.iter_mut().find(|t| t.unit == target) {
                    t.hits = t.hits.saturating_add(*hits);
                    t.hit |= test.passed;
                }
            }
            Event::HitsApplied { unit, hits } => {
                let unit = ux(unit)?;
                let ranks = self.unit(unit).shape.ranks.clone();
                let u = self.unit_mut(unit);
                u.hits = u.hits.saturating_add(*hits);
                u.removing = true;
                if let Some(t) = self.firing.targets.iter_mut().find(|t| t.unit == unit) {
                    t.stage = TargetStage::Removing;
                    t.ranks_before = ranks;
                }
            }
            Event::BaseRemoved {
                unit,
                rank,
                kind,
                hits,
                shape,
            } => {
                let unit = ux(unit)?;
                let u = self.unit_mut(unit);
                let start: usize = u
                    .shape
                    .ranks
                    .iter()
                    .take(*rank as usize)
                    .map(|n| *n as usize)
                    .sum();
                let len = u.shape.ranks.get(*rank as usize).copied().unwrap_or(0) as usize;
                if let Some(i) = (start..start + len).find(|i| u.bases.get(*i) == Some(kind)) {
                    u.bases.remove(i);
                }
                u.shape = shape.clone();
                u.hits = u.hits.saturating_sub(*hits);
                u.lost_this_turn += 1;
                if let Some(t) = self.firing.targets.iter_mut().find(|t| t.unit == unit) {
                    t.lost += 1;
                }
            }
            Event::AbilityLost { unit, ability } => {
                let unit = ux(unit)?;
                if ability == "skirmish (limited)" {
                    self.unit_mut(unit).skirmish_limited = false;
                }
            }
            Event::RemovalDone { unit, odd_hits } => {
                let unit = ux(unit)?;
                let u = self.unit_mut(unit);
                u.hits = *odd_hits;
                u.removing = false;
                if let Some(t) = self.firing.targets.iter_mut().find(|t| t.unit == unit) {
                    t.stage = TargetStage::Removed;
                }
            }
            Event::UnitDestroyed { unit } => {
                let u = self.unit_mut(ux(unit)?);
                u.at = Whereabouts::Destroyed;
                u.removing = false;
                u.hits = 0;
                u.sector = None;
            }
            Event::OfficerSave {
                officer,
                charmed,
                dice,
                ..
            } => {
                let o = &mut self.officers[ox(officer)?.index()];
                if dice.is_none() {
                    o.charmed = false;
                }
                if *charmed {
                    o.charmed = true;
                }
            }
            Event::OfficerKilled { officer, unit } => {
                let (o, unit) = (ox(officer)?.index(), ux(unit)?);
                self.lose_officer(o);
                self.officers[o].killed_with = Some(unit);
            }
            Event::MoraleTested { .. } => {}
            Event::AbilityGained { unit, ability } => {
                let u = self.unit_mut(ux(unit)?);
                match ability {
                    Ability::Grognards => u.grognards = true,
                    Ability::Disciplined => u.disciplined = true,
                }
            }
            Event::QualityImproved { unit, to } => self.unit_mut(ux(unit)?).quality = Some(*to),
            Event::StatusChanged { unit, status, .. } => self.unit_mut(ux(unit)?).status = *status,
            Event::UnitMoved {
                unit,
                shape,
                sector,
                ..
            } => {
                let unit = ux(unit)?;
                let sector = match sector {
                    Some(name) => Some(sc.sector_of(name)?),
                    None => None,
                };
                let u = self.unit_mut(unit);
                u.shape = shape.clone();
                let left = u.sector != sector;
                u.sector = sector;
                if left {
                    self.sector_engaged
                        .retain(|(a, b)| *a != unit && *b != unit);
                }
            }
            Event::ExtraHit { unit, .. } => {
                let u = self.unit_mut(ux(unit)?);
                u.hits = u.hits.saturating_add(1);
                u.removing = true;
            }
            Event::PassedThrough { unit, .. } => {
                self.unit_mut(ux(unit)?).passed_through = true;
            }
            Event::ToRoutTable { unit } => {
                let u = self.unit_mut(ux(unit)?);
                u.at = Whereabouts::RoutTable;
                u.status = Status::Routing;
                u.sector = None;
                u.removing = false;
            }
            Event::UnitCaptured { unit } => {
                let u = self.unit_mut(ux(unit)?);
                u.at = Whereabouts::Captured;
                u.sector = None;
                u.removing = false;
            }
            Event::TargetResolved { unit } => {
                let unit = ux(unit)?;
                self.firing.targets.retain(|t| t.unit != unit);
                self.firing.failed.retain(|u| *u != unit);
            }
            Event::OddHitsRemoved { units } => {
                for u in uxs(units)? {
                    self.unit_mut(u).hits = 0;
                }
            }
            Event::TurnEnded { .. } => {
                for u in &mut self.units {
                    u.fired = false;
                    u.fired_at_enemy = false;
                    u.charger = false;
                    u.lost_this_turn = 0;
                }
                for o in &mut self.officers {
                    o.killed_with = None;
                }
            }
            Event::OrderGiven {
                officer,
                group,
                order,
                units,
                test,
                automatic,
                huzzah,
                rate_mm,
            } => {
                let (officer, group, units) = (ox(officer)?, sc.group_of(group)?, uxs(units)?);
                self.order_given(officer, group, &units);
                let o = &mut self.orders;
                let passed = *automatic || test.as_ref().is_some_and(|t| t.passed);
                if *automatic {
                    o.free = false;
                    if !o.closed.contains(&group) {
                        o.closed.push(group);
                    }
                } else if *huzzah {
                    o.free = true;
                }
                if passed {
                    crate::huzzah::movement::activate(
                        self, officer, group, *order, &units, *rate_mm,
                    );
                } else {
                    let o = &mut self.orders;
                    if !o.done.contains(&officer) {
                        o.done.push(officer);
                    }
                    o.officer = None;
                    o.group = None;
                    o.free = false;
                }
            }
            Event::OrdersEnded { .. } | Event::WaverTested { .. } => {}
            Event::Acted { unit } => {
                let unit = ux(unit)?;
                if let Some(a) = &mut self.orders.active {
                    a.units.retain(|u| *u != unit);
                }
            }
            Event::OrderDone => self.orders.active = None,
            Event::ImpulsiveCharges { .. } => self.orders.impulsive_checked = true,
            Event::UnitDeployed {
                unit,
                shape,
                column,
            } => {
                let st = self.unit_mut(ux(unit)?);
                st.shape = shape.clone();
                st.column = *column;
            }
            Event::Charged { unit, .. } => self.unit_mut(ux(unit)?).charger = true,
            Event::MeleeResolved { a, b, hits, .. } => {
                let (a, b) = (ux(a)?, ux(b)?);
                self.combat_done.push((a, b));
                for (u, h) in [(a, hits.0), (b, hits.1)] {
                    if h > 0 {
                        let st = self.unit_mut(u);
                        st.hits = st.hits.saturating_add(h);
                        st.removing = true;
                    }
                }
            }
            Event::RallyDecided { unit, to, .. } => {
                let unit = ux(unit)?;
                self.done_in_phase.push(unit);
                self.unit_mut(unit).status = *to;
            }
            Event::OfficerMoved {
                officer,
                at,
                attached,
                ..
            } => {
                let o = ox(officer)?;
                let attached = match attached {
                    Some(u) => Some(ux(u)?),
                    None => None,
                };
                if matches!(self.phase, Phase::MoveOfficers { .. }) {
                    self.officers_moved.push(o.0);
                }
                let st = &mut self.officers[o.index()];
                st.at = Some(*at);
                st.attached = attached;
            }
            Event::OfficerCaptured { officer, .. } => {
                self.lose_officer(ox(officer)?.index());
            }
            Event::SkirmishersDeployed {
                unit,
                bases,
                shape,
                line,
            } => {
                let unit = ux(unit)?;
                let side = sc.unit(unit).side;
                let u = self.unit_mut(unit);
                for _ in 0..*bases {
                    if let Some(i) = u.bases.iter().rposition(|b| b.is_infantry_base()) {
                        u.bases.remove(i);
                    }
                }
                u.skirmished = u.skirmished.saturating_add(*bases);
                match shape {
                    Some(sh) => u.shape = sh.clone(),
                    None => {
                        u.at = Whereabouts::SkirmishLine;
                        u.sector = None;
                    }
                }
                self.armies.get_mut(side).skirmish_line = *line;
            }
            Event::OfficerRemoved { officer, .. } => {
                self.lose_officer(ox(officer)?.index());
            }
            Event::BatteryJoined {
                unit,
                battery,
                left,
                shape,
                quality,
                grognards,
                disciplined,
            } => {
                let (unit, battery) = (ux(unit)?, ux(battery)?);
                let moved = self.unit(unit).bases.clone();
                self.unit_mut(unit).at = Whereabouts::Joined;
                let b = self.unit_mut(battery);
                if *left {
                    b.bases.splice(0..0, moved);
                } else {
                    let front = usize::from(b.shape.ranks.first().copied().unwrap_or(0));
                    b.bases.splice(front..front, moved);
                }
                b.shape = shape.clone();
                b.quality = *quality;
                b.grognards = *grognards;
                b.disciplined = *disciplined;
                b.joined.push(unit);
            }
            Event::Engaged { a, b, .. } => {
                let pair = (ux(a)?, ux(b)?);
                if !self.sector_engaged.contains(&pair) {
                    self.sector_engaged.push(pair);
                }
            }
            Event::LinesPassed { .. } => {}
            Event::OfficerAppointed {
                officer,
                quality,
                inspirational,
                at,
                ..
            } => {
                let o = &mut self.officers[ox(officer)?.index()];
                o.lost = false;
                o.lost_turn = None;
                o.at = Some(*at);
                o.attached = None;
                o.charmed = false;
                o.appointed = Some(crate::huzzah::state::Appointed {
                    quality: *quality,
                    inspirational: *inspirational,
                });
            }
            Event::Awaiting { decision } => self.pending = decision.clone(),
            Event::GameEnded { outcome } => {
                self.outcome = Some(outcome.clone());
                self.pending = Pending::GameOver {
                    winner: outcome.winner,
                };
            }
        }
        Some(())
    }

    /// The bookkeeping of an order given (pages 16-18), before its outcome: the
    /// officer giving orders now, the group and how many orders it has had, the groups
    /// left behind and the units ordered.
    fn order_given(&mut self, officer: OfficerIx, group: GroupRef, units: &[UnitIx]) {
        let o = &mut self.orders;
        if let Some(prev) = o.officer {
            if prev != officer && !o.done.contains(&prev) {
                o.done.push(prev);
            }
        }
        let same = o.officer == Some(officer) && o.group.is_some_and(|(g, _)| g == group);
        if !same {
            if let Some((g, _)) = o.group {
                if !o.closed.contains(&g) {
                    o.closed.push(g);
                }
            }
            o.free = false;
        }
        let n = if same {
            o.group.map_or(0, |(_, n)| n)
        } else {
            0
        };
        o.officer = Some(officer);
        o.group = Some((group, n.saturating_add(1)));
        for u in units {
            if !o.ordered.iter().any(|(x, _)| x == u) {
                o.ordered.push((*u, officer));
            }
        }
    }

    /// An officer killed, captured or removed: off the table from this turn.
    fn lose_officer(&mut self, officer: usize) {
        let turn = self.turn;
        let o = &mut self.officers[officer];
        o.lost = true;
        o.lost_turn = Some(turn);
        o.at = None;
        o.attached = None;
    }

    /// Folds events in order.
    pub fn apply_events(&mut self, sc: &Scenario, events: &[Event]) {
        for e in events {
            self.apply_event(sc, e);
        }
    }
}
