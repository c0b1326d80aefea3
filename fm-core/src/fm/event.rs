//! Events: everything that happens, as data. The state changes only by folding events
//! ([`State::apply_event`]); `apply` decides, the fold records. Per-side streams come
//! from [`Event::redacted_for`], which hides the opponent's face-down marker values
//! (rule 7.2: markers are placed face down), and a spectator's both sides'.

use crate::fm::crt::CrtResult;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{Phase, Scenario};
use crate::fm::state::{
    Combat, CombatKind, CombatStage, CommittedMarker, Location, LossReason, Outcome, State,
};
use crate::ids::{Side, UnitId, Viewer};
use serde::{Deserialize, Serialize};

/// Something that happened. Tagged JSON: `{"type": "unit_moved", …}`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A game turn begins.
    TurnStarted {
        /// Turn number.
        turn: u16,
    },
    /// 7.1: a side's markers for this game turn (the lowest values of its pool). The
    /// values are hidden from the opponent in a per-side stream.
    SupportAllotted {
        /// Whose markers.
        side: Side,
        /// How many.
        count: u8,
        /// Their values; `None` in the opponent's stream.
        values: Option<Vec<u8>>,
    },
    /// A phase begins (phases with nothing to do are started and passed at once).
    PhaseStarted {
        /// Active side.
        side: Side,
        /// Phase.
        phase: Phase,
    },
    /// 3.0: a unit is placed during set-up.
    UnitPlaced {
        /// The unit.
        unit: UnitId,
        /// Where.
        hex: Hex,
    },
    /// 3.0(c): reinforcements may now enter.
    ReinforcementsArrived {
        /// Owner.
        side: Side,
        /// Units.
        units: Vec<UnitId>,
    },
    /// 5.0: a unit moved (or entered the map when `from` is `None`).
    UnitMoved {
        /// The unit.
        unit: UnitId,
        /// Start hex; `None` for a reinforcement entering.
        from: Option<Hex>,
        /// Hexes entered, in order.
        path: Vec<Hex>,
        /// MP spent.
        mp: Mp,
    },
    /// 8.1.2: a bombardment is declared.
    BombardmentDeclared {
        /// Target hex.
        hex: Hex,
        /// Units in it.
        defenders: Vec<UnitId>,
        /// Markers used (1 or 2).
        markers: u8,
    },
    /// 8.2.1(a): a ground attack is declared.
    AttackDeclared {
        /// Defending hex.
        hex: Hex,
        /// Defending units.
        defenders: Vec<UnitId>,
        /// Attacking units.
        attackers: Vec<UnitId>,
    },
    /// 7.2 / 8.2.1(b): a marker is drawn at random from the side's allotment and placed
    /// face down. `value` is `None` in the opponent's stream.
    SupportCommitted {
        /// Whose marker.
        side: Side,
        /// Commitment step (0-3), `None` for bombardment.
        step: Option<u8>,
        /// The drawn value.
        value: Option<u8>,
    },
    /// 8.2.1(b): a side declines to place a marker at this step.
    SupportPassed {
        /// Who passed.
        side: Side,
        /// Step 0-3.
        step: u8,
    },
    /// 8.2.1(b) last step: all markers of this combat are turned face up.
    SupportRevealed {
        /// Attacker's values.
        attacker: Vec<u8>,
        /// Defender's values.
        defender: Vec<u8>,
    },
    /// 8.1.2 / 8.2.1(c-d): totals, differential, CRT line and column, the die roll and
    /// the result.
    CombatResolved {
        /// Bombardment or ground.
        kind: CombatKind,
        /// Attack total (units + markers, after 8.2.3 halving).
        attack: i32,
        /// Defense total (after 8.2.3 doubling).
        defense: i32,
        /// attack - defense.
        differential: i32,
        /// CRT line id.
        line: String,
        /// Column label as printed ("+2, +3").
        column: String,
        /// The die roll (1-6).
        die: u8,
        /// The result read from the table.
        result: CrtResult,
        /// False when a rule voids the result: in a bombardment, the results 8.1.3
        /// ignores and (A) with no bombarding-side unit adjacent. A "•" applies (as no effect).
        applies: bool,
        /// Columns shifted (right positive) after reading the differential: Suez 1916
        /// 13.1 Kress, 15.1 surprise, 19.0 night. Omitted when zero.
        #[serde(default, skip_serializing_if = "is_zero_i8")]
        shift: i8,
    },
    /// A unit loses a step (flips to its reduced side).
    StepLost {
        /// The unit.
        unit: UnitId,
        /// Steps left.
        steps: u8,
    },
    /// A unit is eliminated.
    UnitEliminated {
        /// The unit.
        unit: UnitId,
    },
    /// The owner must choose which unit loses a step.
    LossRequired {
        /// Who chooses.
        side: Side,
        /// Candidates.
        candidates: Vec<UnitId>,
        /// Why.
        reason: LossReason,
    },
    /// Units must retreat or declare stiff resistance.
    RetreatRequired {
        /// Owner.
        side: Side,
        /// Units.
        units: Vec<UnitId>,
        /// Hexes.
        hexes: u8,
    },
    /// 8.4: the unit holds and loses a step instead of retreating.
    StiffResistance {
        /// The unit.
        unit: UnitId,
        /// Suez 1916 CRT key (D2, A1, A2 "or deplete one unit … instead"): the other
        /// units struck by the result, whose retreat this one step also satisfies; they
        /// stay where they are. Omitted when empty (always, under the system rules).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held: Vec<UnitId>,
    },
    /// 8.3.1: a friendly unit is pushed one hex to make room for a retreating unit.
    UnitDisplaced {
        /// The displaced unit.
        unit: UnitId,
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// 8.3: a unit retreated along `path` (hexes entered; may be shorter than required).
    UnitRetreated {
        /// The unit.
        unit: UnitId,
        /// Start hex.
        from: Hex,
        /// Hexes entered.
        path: Vec<Hex>,
    },
    /// 8.5: attackers may advance along the path of retreat.
    AdvanceOffered {
        /// Path of retreat, combat hex first.
        path: Vec<Hex>,
        /// Eligible units.
        units: Vec<UnitId>,
    },
    /// 8.5: a unit advanced after combat.
    UnitAdvanced {
        /// The unit.
        unit: UnitId,
        /// Start hex.
        from: Hex,
        /// Hexes entered.
        path: Vec<Hex>,
    },
    /// The bombardment or combat is over; its markers are spent for this game turn.
    CombatEnded {
        /// The defending hex.
        hex: Hex,
    },
    /// Meuse Argonne 17.1: a side's artillery bombardment markers for this game turn.
    ArtilleryAllotted {
        /// Whose markers.
        side: Side,
        /// How many.
        count: u8,
    },
    /// Meuse Argonne 17.3: an Allied aircraft observes this hex and its neighbours.
    AircraftPlaced {
        /// Where.
        hex: Hex,
    },
    /// Meuse Argonne 17.2: the placed markers on a hex are about to be rolled.
    ArtilleryFiring {
        /// Target hex.
        hex: Hex,
        /// Units in it now.
        defenders: Vec<UnitId>,
        /// Markers.
        markers: u8,
        /// 17.7: gas.
        gas: bool,
    },
    /// Meuse Argonne 17.2: artillery markers are placed on an observed enemy unit (they
    /// are rolled when the player is done placing).
    ArtilleryDeclared {
        /// Target hex.
        hex: Hex,
        /// Units in it.
        defenders: Vec<UnitId>,
        /// Markers placed (1 or 2).
        markers: u8,
        /// 17.7: gas used (turn 1, Allies).
        gas: bool,
    },
    /// Meuse Argonne 17.4-17.6: one artillery marker's die roll.
    ArtilleryFired {
        /// Target hex.
        hex: Hex,
        /// The die.
        die: u8,
        /// Total modifier (gas, aircraft, German, terrain).
        modifier: i8,
        /// Modified roll.
        total: i8,
        /// A hit (the table's 1-3).
        hit: bool,
    },
    /// Meuse Argonne 17.6: the trench works of a hex are breached for the rest of the game.
    HexBreached {
        /// The hex.
        hex: Hex,
    },
    /// Meuse Argonne 17.5: the hit unit may retreat one hex instead of taking its hits.
    ArtilleryRetreatOffered {
        /// The unit (of a brigade stack, its first brigade, which names the stack).
        unit: UnitId,
        /// Hits scored.
        hits: u8,
        /// Meuse Argonne 13.2: the other brigades stacked with `unit`; the stack
        /// retreats together or takes the hits. Omitted for a lone unit.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        stacked: Vec<UnitId>,
    },
    /// Meuse Argonne 18.1: the German player may now declare the Lost Battalion.
    LostBattalionOffered,
    /// Meuse Argonne 18.1: the German player's decision.
    LostBattalionDeclared {
        /// Declared (the Woods (Lost Battalion) line is forced) or passed.
        declared: bool,
    },
    /// Vimy Ridge 11.3, 11.6: a side's replacements for this night movement phase.
    ReplacementsReceived {
        /// The side.
        side: Side,
        /// How many (two).
        count: u8,
    },
    /// Vimy Ridge 18.1: the Red Baron downs an Allied aircraft marker for good.
    AircraftLost {
        /// Aircraft markers the Allies have left.
        remaining: u8,
    },
    /// Meuse Argonne 11.3, 11.6: this side's replacement is available again.
    ReplacementAvailable {
        /// The side.
        side: Side,
    },
    /// Meuse Argonne 11.3, 11.6: an eliminated unit returns on an edge hex.
    UnitReplaced {
        /// The unit.
        unit: UnitId,
        /// Where it arrives.
        hex: Hex,
        /// Its steps.
        steps: u8,
    },
    /// Meuse Argonne 11.3, 11.6: a depleted unit regains a step.
    UnitRebuilt {
        /// The unit.
        unit: UnitId,
        /// Its steps now.
        steps: u8,
    },
    /// Meuse Argonne 13.2: a three-step division breaks down into brigades.
    DivisionBrokenDown {
        /// The division.
        unit: UnitId,
        /// Its hex; `None` (omitted) for a division due as a reinforcement that breaks
        /// down before it enters ("including the phase of arrival"): its brigades are
        /// then reinforcements in its place, entering on its entry hexes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hex: Option<Hex>,
        /// The brigade chits placed there (or now arriving).
        brigades: Vec<UnitId>,
    },
    /// Meuse Argonne 13.1: the third step of an eliminated three-step division.
    BrigadePlaced {
        /// The brigade chit.
        unit: UnitId,
        /// Where.
        hex: Hex,
    },
    /// Suez 1916 11.3: British units set up on or west of Pelusium Station start
    /// un-activated (they may not move).
    UnitsInactive {
        /// The units.
        units: Vec<UnitId>,
    },
    /// Suez 1916 11.3: an un-activated British unit's activation roll.
    ActivationRolled {
        /// The unit.
        unit: UnitId,
        /// The die.
        die: u8,
        /// It activated (1-2).
        activated: bool,
    },
    /// Suez 1916 11.3: automatic activation (a Central Powers unit moved within four
    /// hexes, or a Central Powers marker bombards the unit).
    UnitActivated {
        /// The unit.
        unit: UnitId,
    },
    /// Suez 1916 11.3, 11.5: markers drawn at random from the set-aside markers (or the
    /// Reinforcements box) into a side's pool. Nobody knows which (18.3): `values` is
    /// `None` in both sides' streams.
    FireSupportAdded {
        /// Whose pool.
        side: Side,
        /// How many.
        count: u8,
        /// Their strengths; `None` in a per-side stream.
        values: Option<Vec<u8>>,
    },
    /// Suez 1916 18.3: the markers used during the previous day return to the pool
    /// on the morning turn.
    FireSupportReturned {
        /// Whose markers.
        side: Side,
        /// Their strengths (revealed when used).
        values: Vec<u8>,
    },
    /// Suez 1916 11.5: the Central Powers reinforcement roll.
    ReinforcementRolled {
        /// The die.
        die: u8,
        /// The 27th Division regiment that arrives (1-3), if any.
        regiment: Option<String>,
    },
    /// Suez 1916 13.1: Kress assists the attack on this hex, this combat phase.
    KressAssigned {
        /// The defending hex.
        hex: Hex,
    },
    /// Suez 1916 16.0: the next move of this British unit is by rail.
    RailMovement {
        /// The unit.
        unit: UnitId,
    },
    /// Suez 1916 18.1: `side` now places its fire support markers for this combat
    /// phase (the phasing side first, then the defending side).
    FireSupportPlanning {
        /// Who places.
        side: Side,
    },
    /// Suez 1916 18.1, 18.3: a marker drawn at random from the pool and placed face down
    /// on a hex. Nobody knows its strength until all are placed: `value` is `None` in
    /// both sides' streams.
    FireSupportPlaced {
        /// Whose marker.
        side: Side,
        /// The bombarded hex.
        hex: Hex,
        /// Its strength; `None` in a per-side stream.
        value: Option<u8>,
    },
    /// Suez 1916 18.5: the air unit is placed, to bombard (its strength is public) or
    /// flipped to observe the hex and its neighbours.
    AirUnitPlaced {
        /// Where.
        hex: Hex,
        /// Observing instead of bombarding.
        observe: bool,
        /// Its strength.
        strength: u8,
    },
    /// Suez 1916 18.1: units that will attack a bombarded hex once the markers are
    /// resolved.
    AttackAnnounced {
        /// The target hex.
        hex: Hex,
        /// The attacking units.
        units: Vec<UnitId>,
    },
    /// Suez 1916 18.1: every marker placed this combat phase is turned face up.
    FireSupportRevealed {
        /// The markers, in the order placed.
        markers: Vec<crate::fm::state::FirePlacement>,
    },
    /// Suez 1916 18.4: a bombardment resolved against one unit of the hex: the markers'
    /// strength on the hex's terrain line, one die per unit; D2, D3 and De cost a step.
    FireSupportResolved {
        /// The bombarding side.
        side: Side,
        /// The hex.
        hex: Hex,
        /// The unit.
        unit: UnitId,
        /// Total strength of the markers on the hex.
        strength: i32,
        /// CRT line id.
        line: String,
        /// Column label.
        column: String,
        /// The die.
        die: u8,
        /// The result read.
        result: CrtResult,
        /// The unit loses a step.
        hit: bool,
    },
    /// Suez 1916 18.1: an announced attack is not made (no attacker or target left).
    AttackCancelled {
        /// The target hex.
        hex: Hex,
    },
    /// The game is over.
    GameOver {
        /// Winner, `None` for a draw.
        winner: Option<Side>,
        /// Why.
        reason: String,
    },
}

fn is_zero_i8(n: &i8) -> bool {
    *n == 0
}

impl Event {
    /// This event as `viewer` may see it: the opponent's face-down marker values and
    /// allotted values are removed (for a spectator, [`Viewer::Spectator`], both
    /// sides'). Everything else is public.
    pub fn redacted_for(&self, viewer: impl Into<Viewer>) -> Event {
        let viewer: Viewer = viewer.into();
        match self {
            Event::SupportAllotted { side, count, .. } if !viewer.is(*side) => {
                Event::SupportAllotted {
                    side: *side,
                    count: *count,
                    values: None,
                }
            }
            Event::SupportCommitted { side, step, .. } if !viewer.is(*side) && step.is_some() => {
                Event::SupportCommitted {
                    side: *side,
                    step: *step,
                    value: None,
                }
            }
            // Suez 1916 18.3: face down to both players.
            Event::FireSupportAdded { side, count, .. } => Event::FireSupportAdded {
                side: *side,
                count: *count,
                values: None,
            },
            Event::FireSupportPlaced { side, hex, .. } => Event::FireSupportPlaced {
                side: *side,
                hex: *hex,
                value: None,
            },
            e => e.clone(),
        }
    }
}

fn remove_one(v: &mut Vec<u8>, x: u8) {
    if let Some(p) = v.iter().position(|y| *y == x) {
        v.remove(p);
    }
}

impl State {
    fn idx(&self, sc: &Scenario, id: &UnitId) -> usize {
        sc.unit_index(id).map(|i| i as usize).unwrap_or_else(|| {
            self.units
                .ids
                .iter()
                .position(|u| u == id)
                .expect("event names a unit of this scenario")
        })
    }

    fn set_control(&mut self, sc: &Scenario, h: Hex, side: Side) {
        if sc.is_objective(h) {
            self.control.insert(h, side);
        }
    }

    /// Folds one event into the state. Events come from [`crate::apply`] on this same
    /// state; folding anything else is a logic error and may panic.
    pub fn apply_event(&mut self, sc: &Scenario, e: &Event) {
        match e {
            Event::TurnStarted { turn } => {
                self.turn = *turn;
                self.phase = Phase::SupportFire;
                self.ex.air_used = false;
                for s in Side::BOTH {
                    let sup = self.support.get_mut(s);
                    sup.available.clear();
                    sup.used.clear();
                }
            }
            Event::SupportAllotted { side, values, .. } => {
                let mut v = values.clone().unwrap_or_default();
                v.sort_unstable();
                self.support.get_mut(*side).available = v;
            }
            Event::PhaseStarted { side, phase } => {
                let new_player_turn = *side != self.active || *phase == Phase::Movement;
                self.active = *side;
                self.phase = *phase;
                if new_player_turn {
                    self.bombarded.clear();
                    self.ex.artillery_on.clear();
                    self.ex.aircraft.clear();
                }
                // Vimy Ridge 11.3: replacements may not be saved for a later phase.
                self.ex.replacements = crate::ids::SidePair::new(0, 0);
                self.ex.attacked_by.clear();
                self.ex.kress = None;
                self.ex.air_observe = None;
                self.ex.rail_moves = 0;
                self.ex.fire_stage = None;
                self.ex.announced.clear();
                for u in self.units.iter_mut() {
                    u.attacked = false;
                    u.defended = false;
                    if new_player_turn {
                        u.moved = false;
                        u.mp_spent = Mp::ZERO;
                        u.attacked_this_turn = false;
                        u.advanced = false;
                        u.displaced = false;
                    }
                }
            }
            Event::UnitPlaced { unit, hex } => {
                let i = self.idx(sc, unit);
                self.units[i].loc = Location::Map(*hex);
                let side = sc.units[i].data.side;
                self.set_control(sc, *hex, side);
            }
            Event::ReinforcementsArrived { units, .. } => {
                for u in units {
                    let i = self.idx(sc, u);
                    self.units[i].loc = Location::Arriving;
                }
            }
            Event::UnitMoved { unit, path, mp, .. } => {
                // Meuse Argonne 13.2: an arriving brigade has entered the map.
                self.ex.arriving_brigades.remove(unit);
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                let u = &mut self.units[i];
                u.loc = Location::Map(*path.last().expect("a move enters at least one hex"));
                u.moved = true;
                u.mp_spent += *mp;
                for h in path {
                    self.set_control(sc, *h, side);
                }
            }
            Event::BombardmentDeclared {
                hex,
                defenders,
                markers,
            } => {
                *self.bombarded.entry(*hex).or_insert(0) += markers;
                for d in defenders {
                    let i = self.idx(sc, d);
                    self.units[i].defended = true;
                }
                self.combat = Some(Combat::bombardment(*hex, defenders.clone()));
            }
            Event::AttackDeclared {
                hex,
                defenders,
                attackers,
            } => {
                for d in defenders {
                    let i = self.idx(sc, d);
                    self.units[i].defended = true;
                }
                if sc.rules().records_attacking_formation() {
                    // 18.3: remember which division attacked, for a second attack.
                    if let Some(i) = attackers.first().and_then(|a| sc.unit_index(a)) {
                        let div = &sc.units[i as usize].data.formation;
                        for d in defenders {
                            self.ex
                                .attacked_by
                                .entry(d.clone())
                                .or_default()
                                .insert(div.clone());
                        }
                    }
                }
                self.ex.announced.retain(|a| a.hex != *hex);
                let in_combat_phase = self.phase == Phase::Combat;
                for a in attackers {
                    let i = self.idx(sc, a);
                    self.units[i].attacked = true;
                    if in_combat_phase {
                        self.units[i].attacked_this_turn = true;
                    }
                }
                let c = Combat {
                    kind: CombatKind::Ground,
                    hex: *hex,
                    attackers: attackers.clone(),
                    defenders: defenders.clone(),
                    markers: Vec::new(),
                    result: None,
                    retreat_path: Vec::new(),
                    stage: CombatStage::Support { step: 0 },
                    lost_battalion: None,
                };
                self.combat = Some(c);
                let n = crate::fm::support_fire::next_step(sc, self, 0);
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::Support { step: n };
                }
            }
            Event::SupportCommitted { side, step, value } => {
                let v = value.expect("full event stream carries marker values");
                remove_one(&mut self.support.get_mut(*side).available, v);
                let next = step.map(|s| crate::fm::support_fire::next_step(sc, self, s + 1));
                let c = self.combat.as_mut().expect("marker committed to a combat");
                c.markers.push(CommittedMarker {
                    side: *side,
                    value: Some(v),
                    revealed: false,
                });
                if let Some(n) = next {
                    c.stage = CombatStage::Support { step: n };
                }
            }
            Event::SupportPassed { step, .. } => {
                let n = crate::fm::support_fire::next_step(sc, self, step + 1);
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::Support { step: n };
                }
            }
            Event::SupportRevealed { .. } => {
                if let Some(c) = self.combat.as_mut() {
                    for m in &mut c.markers {
                        m.revealed = true;
                    }
                }
            }
            Event::CombatResolved { result, .. } => {
                if let Some(c) = self.combat.as_mut() {
                    c.result = Some(*result);
                    if c.kind == CombatKind::Ground {
                        c.retreat_path.clear();
                    }
                }
            }
            Event::StepLost { unit, steps } => {
                let i = self.idx(sc, unit);
                self.units[i].steps = *steps;
            }
            Event::UnitEliminated { unit } => {
                let i = self.idx(sc, unit);
                self.units[i].loc = Location::Eliminated;
                self.units[i].steps = 0;
                if let Some(c) = self.combat.as_mut() {
                    strip(&mut c.stage, unit);
                }
            }
            Event::LossRequired {
                side,
                candidates,
                reason,
            } => {
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::ChooseLoss {
                        side: *side,
                        candidates: candidates.clone(),
                        reason: *reason,
                    };
                }
            }
            Event::RetreatRequired { side, units, hexes } => {
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::Retreat {
                        side: *side,
                        units: units.clone(),
                        hexes: *hexes,
                    };
                }
            }
            Event::StiffResistance { unit, held } => {
                if let Some(c) = self.combat.as_mut() {
                    strip(&mut c.stage, unit);
                    for u in held {
                        strip(&mut c.stage, u);
                    }
                }
            }
            Event::UnitDisplaced { unit, to, .. } => {
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                self.units[i].loc = Location::Map(*to);
                if side == self.active {
                    self.units[i].displaced = true;
                }
                self.set_control(sc, *to, side);
            }
            Event::UnitRetreated { unit, from, path } => {
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                if let Some(last) = path.last() {
                    self.units[i].loc = Location::Map(*last);
                }
                for h in path {
                    self.set_control(sc, *h, side);
                }
                if let Some(c) = self.combat.as_mut() {
                    if c.defenders.contains(unit) && c.kind == CombatKind::Ground {
                        c.retreat_path =
                            std::iter::once(*from).chain(path.iter().copied()).collect();
                    }
                    strip(&mut c.stage, unit);
                }
            }
            Event::AdvanceOffered { path, units } => {
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::Advance {
                        path: path.clone(),
                        units: units.clone(),
                    };
                }
            }
            Event::UnitAdvanced { unit, path, .. } => {
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                if let Some(last) = path.last() {
                    self.units[i].loc = Location::Map(*last);
                }
                self.units[i].advanced = true;
                for h in path {
                    self.set_control(sc, *h, side);
                }
                if let Some(c) = self.combat.as_mut() {
                    strip(&mut c.stage, unit);
                }
            }
            Event::CombatEnded { .. } => {
                if let Some(c) = self.combat.take() {
                    for m in c.markers {
                        if let Some(v) = m.value {
                            self.support.get_mut(m.side).used.push(v);
                        }
                    }
                }
            }
            Event::ArtilleryAllotted { side, count } => {
                *self.ex.artillery.get_mut(*side) = *count;
            }
            Event::AircraftPlaced { hex } => self.ex.aircraft.push(*hex),
            Event::ArtilleryDeclared {
                hex,
                defenders,
                markers,
                gas,
            } => {
                let side = self.active;
                let left = self.ex.artillery.get_mut(side);
                *left = left.saturating_sub(*markers);
                for d in defenders {
                    *self.ex.artillery_on.entry(d.clone()).or_insert(0) += markers;
                }
                match self.ex.artillery_plan.iter_mut().find(|p| p.hex == *hex) {
                    Some(p) => {
                        p.markers += markers;
                        p.gas |= gas;
                    }
                    None => self
                        .ex
                        .artillery_plan
                        .push(crate::fm::state::ArtilleryPlan {
                            hex: *hex,
                            markers: *markers,
                            gas: *gas,
                        }),
                }
            }
            Event::ArtilleryFiring { hex, defenders, .. } => {
                self.ex.artillery_plan.retain(|p| p.hex != *hex);
                self.combat = Some(Combat::bombardment(*hex, defenders.clone()));
            }
            Event::ArtilleryFired { .. } => {}
            Event::HexBreached { hex } => {
                self.ex.breached.insert(*hex);
            }
            Event::ArtilleryRetreatOffered {
                unit,
                hits,
                stacked,
            } => {
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::ArtilleryRetreat {
                        unit: unit.clone(),
                        hits: *hits,
                        stacked: stacked.clone(),
                    };
                }
            }
            Event::LostBattalionOffered => {
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::LostBattalion;
                }
            }
            Event::LostBattalionDeclared { declared } => {
                if *declared {
                    self.ex.lost_battalion_used = true;
                }
                if let Some(c) = self.combat.as_mut() {
                    c.stage = CombatStage::Support { step: 4 };
                    c.lost_battalion = Some(*declared);
                }
            }
            Event::ReplacementsReceived { side, count } => {
                *self.ex.replacements.get_mut(*side) = *count;
            }
            Event::AircraftLost { .. } => {
                self.ex.aircraft_lost = self.ex.aircraft_lost.saturating_add(1);
            }
            Event::ReplacementAvailable { side } => {
                *self.ex.replacement_used.get_mut(*side) = false;
            }
            Event::UnitReplaced { unit, hex, steps } => {
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                let u = &mut self.units[i];
                u.loc = Location::Map(*hex);
                u.steps = *steps;
                u.moved = true;
                *self.ex.replacement_used.get_mut(side) = true;
                self.ex.broken_down.remove(unit);
                // Vimy Ridge 11.3: one replacement per step brought on.
                let left = self.ex.replacements.get_mut(side);
                *left = left.saturating_sub(*steps);
                self.set_control(sc, *hex, side);
            }
            Event::UnitRebuilt { unit, steps } => {
                let i = self.idx(sc, unit);
                let side = sc.units[i].data.side;
                self.units[i].steps = *steps;
                *self.ex.replacement_used.get_mut(side) = true;
                let left = self.ex.replacements.get_mut(side);
                *left = left.saturating_sub(1);
            }
            Event::DivisionBrokenDown {
                unit,
                hex,
                brigades,
            } => {
                let i = self.idx(sc, unit);
                self.units[i].loc = Location::Eliminated;
                self.units[i].steps = 0;
                self.ex.broken_down.insert(unit.clone());
                for b in brigades {
                    let j = self.idx(sc, b);
                    self.units[j].steps = 1;
                    match hex {
                        Some(h) => self.units[j].loc = Location::Map(*h),
                        None => {
                            self.units[j].loc = Location::Arriving;
                            self.ex.arriving_brigades.insert(b.clone(), unit.clone());
                        }
                    }
                }
            }
            Event::BrigadePlaced { unit, hex } => {
                let j = self.idx(sc, unit);
                self.units[j].loc = Location::Map(*hex);
                self.units[j].steps = 1;
                self.units[j].moved = true;
            }
            Event::UnitsInactive { units } => {
                self.ex.inactive.extend(units.iter().cloned());
            }
            Event::ActivationRolled {
                unit, activated, ..
            } => {
                if *activated {
                    self.ex.inactive.remove(unit);
                }
            }
            Event::UnitActivated { unit } => {
                self.ex.inactive.remove(unit);
            }
            Event::FireSupportAdded { side, values, .. } => {
                let values = values.as_ref().expect("full event stream carries values");
                for v in values {
                    remove_one(self.ex.reserve.get_mut(*side), *v);
                    self.ex.pool.get_mut(*side).push(*v);
                }
                self.ex.pool.get_mut(*side).sort_unstable();
            }
            Event::FireSupportReturned { side, values } => {
                for v in values {
                    remove_one(self.ex.spent.get_mut(*side), *v);
                    self.ex.pool.get_mut(*side).push(*v);
                }
                self.ex.pool.get_mut(*side).sort_unstable();
            }
            Event::ReinforcementRolled { regiment, .. } => {
                if regiment.is_some() {
                    self.ex.regiments += 1;
                }
            }
            Event::KressAssigned { hex } => self.ex.kress = Some(*hex),
            Event::RailMovement { .. } => self.ex.rail_moves += 1,
            Event::FireSupportPlanning { side } => self.ex.fire_stage = Some(*side),
            Event::FireSupportPlaced { side, hex, value } => {
                let v = value.expect("full event stream carries marker values");
                remove_one(self.ex.pool.get_mut(*side), v);
                if *side == self.active {
                    *self.bombarded.entry(*hex).or_insert(0) += 1;
                }
                self.ex.fire_plan.push(crate::fm::state::FirePlacement {
                    side: *side,
                    hex: *hex,
                    value: Some(v),
                    air: false,
                });
            }
            Event::AirUnitPlaced {
                hex,
                observe,
                strength,
            } => {
                self.ex.air_used = true;
                if *observe {
                    self.ex.air_observe = Some(*hex);
                } else {
                    let side = sc.rules().air_unit_side();
                    if side == self.active {
                        *self.bombarded.entry(*hex).or_insert(0) += 1;
                    }
                    self.ex.fire_plan.push(crate::fm::state::FirePlacement {
                        side,
                        hex: *hex,
                        value: Some(*strength),
                        air: true,
                    });
                }
            }
            Event::AttackAnnounced { hex, units } => {
                self.ex.announced.push(crate::fm::state::AnnouncedAttack {
                    hex: *hex,
                    units: units.clone(),
                });
            }
            Event::FireSupportRevealed { markers } => {
                self.ex.fire_stage = None;
                self.ex.fire_plan.clear();
                for m in markers {
                    if let (false, Some(v)) = (m.air, m.value) {
                        self.ex.spent.get_mut(m.side).push(v);
                    }
                }
                for side in Side::BOTH {
                    self.ex.spent.get_mut(side).sort_unstable();
                }
            }
            Event::FireSupportResolved { .. } => {}
            Event::AttackCancelled { hex } => {
                self.ex.announced.retain(|a| a.hex != *hex);
            }
            Event::GameOver { winner, reason } => {
                self.outcome = Some(Outcome {
                    winner: *winner,
                    reason: reason.clone(),
                });
            }
        }
    }
}

impl Combat {
    /// A bombardment (system 8.1 or Meuse Argonne artillery) of `hex`: no attacking
    /// units and no commitment steps.
    fn bombardment(hex: Hex, defenders: Vec<UnitId>) -> Combat {
        Combat {
            kind: CombatKind::Bombardment,
            hex,
            attackers: Vec::new(),
            defenders,
            markers: Vec::new(),
            result: None,
            retreat_path: Vec::new(),
            stage: CombatStage::Support { step: 4 },
            lost_battalion: None,
        }
    }
}

/// Removes a unit from the list of units a combat stage still waits on.
fn strip(stage: &mut CombatStage, unit: &UnitId) {
    match stage {
        CombatStage::Retreat { units, .. } | CombatStage::Advance { units, .. } => {
            units.retain(|u| u != unit)
        }
        CombatStage::ChooseLoss { candidates, .. } => candidates.retain(|u| u != unit),
        CombatStage::Support { .. }
        | CombatStage::LostBattalion
        | CombatStage::ArtilleryRetreat { .. } => {}
    }
}
