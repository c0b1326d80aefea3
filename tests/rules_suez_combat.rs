//! Rule-numbered tests for the Suez 1916 combat rules (`../shared/rules/suez-1916.txt`
//! Part I): the 10.3 changes and the Suez CRT key (Ex losses chosen by their owner, A3
//! and D3 cost a step after the retreat, no stiff resistance on them, on D2 / A1 / A2
//! one unit's step instead of the whole group's retreat, advances of one hex for leg
//! units), 13.1 Kress, 14.1 no combat across the canal, 14.2 the trench line, 15.1-15.2
//! surprise, 17.3 stacks in combat, 18.0 fire support and 19.0 night.
//! Movement, activation, reinforcements, victory and stacking in movement are in
//! `tests/rules_suez.rs`. Rulings: `docs/rulings.md` (R-SU-…).
//!
//! Every test builds a tiny map with the Suez 1916 Terrain Effects Chart, CRT and
//! exclusive-rule parameters (`common::suez`) and compares the exact events `apply`
//! returns, or for a refusal the exact rule number and the unchanged state
//! (`refused`). Side `a` is the Central Powers (first player), side `b` the British.
//! Central Powers units are 3-3-6 / 1-2-6, British brigade groups 6-6-5 / 4-4-5 / 2-2-5,
//! mounted brigades 4-4-8 / 2-2-8. The Central Powers retreat toward column 01, the
//! British toward the last column.
//!
//! Hex ids are column then row, odd columns sit half a hex lower: an even column
//! (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),(c-1,r),(c-1,r-1); an odd column
//! (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
//!
//! The CRT grid (scenario "crt"), by grid column and die. Each terrain line labels the
//! grid from column 1 ("each terrain row below lists its differential columns from the
//! left"): open-sand-marsh -5 to +10 over columns 1-12 (the labels shown),
//! hill-village-oasis -4 over columns 1-11, town-trench -3 over columns 1-10:
//!
//! ```text
//! die  -5   -4   -3   -2   -1    0   +1  +2,3 +4,5 +6,7 +8,9  +10
//!  1   (A)  A3   A2   •    Ex   Ex   D2   D2   D2   D3   De   De
//!  2   (A)  (A)  A3   A2   •    Ex   Ex   Ex   D2   D2   D3   De
//!  3   (A)  (A)  (A)  A3   A2   •    Ex   Ex   Ex   D2   D2   D3
//!  4   (A)  (A)  (A)  (A)  A3   A2   •    Ex   Ex   Ex   D2   D2
//!  5   (A)  (A)  (A)  (A)  (A)  A3   A2   •    Ex   Ex   Ex   D2
//!  6   (A)  (A)  (A)  (A)  (A)  (A)  A3   A2   •    Ex   Ex   Ex
//! ```
//!
//! The scenario validator refuses two units on one start hex (5.3), so stacks are made
//! by moving a unit's location in the fresh state (`put`) before the first command.
//!
//! Fire support steps (18.1) pass by themselves like phases do: once the placing side
//! has nothing left to place, announce or assign, its step ends within the command
//! that used its last option (so a last `bombard` may also reveal and resolve
//! everything, rolling the dice).
use crate::common;
use common::suez::*;
use common::*;
use fm_core::*;

use CrtResult::{AStep, De, Ex, NoEffect, A2, A3, D2, D3};
use Side::{A, B};

const OPEN: &str = "open-sand-marsh";
const HILL: &str = "hill-village-oasis";
const TOWN: &str = "town-trench";

// ---------------------------------------------------------------------------------
// Commands.

fn ids(v: &[&str]) -> Vec<UnitId> {
    v.iter().map(|x| u(x)).collect()
}

fn hexes(v: &[&str]) -> Vec<Hex> {
    v.iter().map(|x| h(x)).collect()
}

fn attack(hex: &str, units: &[&str]) -> Command {
    Command::Attack {
        hex: h(hex),
        units: ids(units),
    }
}

fn bombard(hex: &str, markers: u8) -> Command {
    Command::Bombard {
        hex: h(hex),
        markers,
    }
}

fn air(hex: &str, observe: bool) -> Command {
    Command::AirUnit {
        hex: h(hex),
        observe,
    }
}

fn kress(hex: &str) -> Command {
    Command::Kress { hex: h(hex) }
}

fn choose(unit: &str) -> Command {
    Command::ChooseLoss { unit: u(unit) }
}

fn retreat(unit: &str, path: &[&str]) -> Command {
    Command::Retreat {
        unit: u(unit),
        path: hexes(path),
        displace: Vec::new(),
    }
}

fn stiff(unit: &str) -> Command {
    Command::StiffResistance { unit: u(unit) }
}

fn advance(unit: &str, to: &str) -> Command {
    Command::Advance {
        unit: u(unit),
        to: h(to),
    }
}

// ---------------------------------------------------------------------------------
// Events.

fn phase(side: Side, ph: Phase) -> Event {
    Event::PhaseStarted { side, phase: ph }
}

fn declared(hex: &str, defenders: &[&str], attackers: &[&str]) -> Event {
    Event::AttackDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        attackers: ids(attackers),
    }
}

/// A ground combat's `CombatResolved` (the differential is `attack - defense`).
#[allow(clippy::too_many_arguments)]
fn resolved(
    attack: i32,
    defense: i32,
    line: &str,
    column: &str,
    die: u8,
    result: CrtResult,
    shift: i8,
) -> Event {
    Event::CombatResolved {
        kind: CombatKind::Ground,
        attack,
        defense,
        differential: attack - defense,
        line: line.into(),
        column: column.into(),
        die,
        result,
        applies: true,
        shift,
    }
}

fn step_lost(unit: &str, steps: u8) -> Event {
    Event::StepLost {
        unit: u(unit),
        steps,
    }
}

fn eliminated(unit: &str) -> Event {
    Event::UnitEliminated { unit: u(unit) }
}

fn ended(hex: &str) -> Event {
    Event::CombatEnded { hex: h(hex) }
}

fn loss_required(side: Side, candidates: &[&str], reason: LossReason) -> Event {
    Event::LossRequired {
        side,
        candidates: ids(candidates),
        reason,
    }
}

fn retreat_required(side: Side, units: &[&str], n: u8) -> Event {
    Event::RetreatRequired {
        side,
        units: ids(units),
        hexes: n,
    }
}

fn retreated(unit: &str, from: &str, path: &[&str]) -> Event {
    Event::UnitRetreated {
        unit: u(unit),
        from: h(from),
        path: hexes(path),
    }
}

fn advance_offered(path: &[&str], units: &[&str]) -> Event {
    Event::AdvanceOffered {
        path: hexes(path),
        units: ids(units),
    }
}

fn advanced(unit: &str, from: &str, path: &[&str]) -> Event {
    Event::UnitAdvanced {
        unit: u(unit),
        from: h(from),
        path: hexes(path),
    }
}

fn planning(side: Side) -> Event {
    Event::FireSupportPlanning { side }
}

fn placed(side: Side, hex: &str, value: u8) -> Event {
    Event::FireSupportPlaced {
        side,
        hex: h(hex),
        value: Some(value),
    }
}

fn air_placed(hex: &str, observe: bool) -> Event {
    Event::AirUnitPlaced {
        hex: h(hex),
        observe,
        strength: 2,
    }
}

fn announced(hex: &str, units: &[&str]) -> Event {
    Event::AttackAnnounced {
        hex: h(hex),
        units: ids(units),
    }
}

fn marker_at(side: Side, hex: &str, value: u8) -> FirePlacement {
    FirePlacement {
        side,
        hex: h(hex),
        value: Some(value),
        air: false,
    }
}

fn air_at(hex: &str) -> FirePlacement {
    FirePlacement {
        side: A,
        hex: h(hex),
        value: Some(2),
        air: true,
    }
}

fn revealed(markers: &[FirePlacement]) -> Event {
    Event::FireSupportRevealed {
        markers: markers.to_vec(),
    }
}

/// One bombardment of one unit (18.4): strength alone on the hex's terrain line.
#[allow(clippy::too_many_arguments)]
fn fired(
    side: Side,
    hex: &str,
    unit: &str,
    strength: i32,
    line: &str,
    column: &str,
    die: u8,
    result: CrtResult,
    hit: bool,
) -> Event {
    Event::FireSupportResolved {
        side,
        hex: h(hex),
        unit: u(unit),
        strength,
        line: line.into(),
        column: column.into(),
        die,
        result,
        hit,
    }
}

fn kress_assigned(hex: &str) -> Event {
    Event::KressAssigned { hex: h(hex) }
}

// ---------------------------------------------------------------------------------
// Playing.

fn no_rng() -> Script {
    Script::new(&[])
}

fn idx(sc: &Scenario, unit: &str) -> usize {
    sc.unit_index(&u(unit)).expect("known unit") as usize
}

fn steps_of(sc: &Scenario, s: &State, unit: &str) -> u8 {
    s.units[idx(sc, unit)].steps
}

fn loc_of(sc: &Scenario, s: &State, unit: &str) -> Location {
    s.units[idx(sc, unit)].loc
}

/// Stacks a unit (test set-up: the scenario validator refuses stacked start hexes).
fn put(sc: &Scenario, s: &mut State, unit: &str, hex: &str) {
    let i = idx(sc, unit);
    s.units[i].loc = Location::Map(h(hex));
}

/// Plays `cmd` with exactly these dice: every one rolled, in order, and no more.
fn play_dice(sc: &Scenario, s: &mut State, cmd: Command, dice: &[u8]) -> Vec<Event> {
    let mut rng = Script::dice(dice);
    let ev = play(sc, s, cmd.clone(), &mut rng);
    assert_eq!(
        rng.pos,
        dice.len(),
        "{cmd:?} rolled {} dice, {} scripted",
        rng.pos,
        dice.len()
    );
    ev
}

/// Plays `cmd` drawing exactly these raw values (marker draws take `v % pool size`).
fn play_draws(sc: &Scenario, s: &mut State, cmd: Command, draws: &[u32]) -> Vec<Event> {
    let mut rng = Script::new(draws);
    let ev = play(sc, s, cmd.clone(), &mut rng);
    assert_eq!(rng.pos, draws.len(), "{cmd:?} drew {} values", rng.pos);
    ev
}

/// The opening events of game turn `turn` (no 7.1 support fire in Suez 1916).
fn turn_start(turn: u16) -> Vec<Event> {
    // 18.0 replaces the system allotment (7.1): no `support_allotted`.
    vec![Event::TurnStarted { turn }]
}

fn cat(parts: &[&[Event]]) -> Vec<Event> {
    parts.iter().flat_map(|p| p.iter().cloned()).collect()
}

/// Starts a game and checks its opening events.
fn begin(sc: &Scenario, opening: Vec<Event>) -> State {
    let (s, ev) = new_game(sc, &mut no_rng());
    assert_eq!(ev, opening);
    s
}

/// A game started in the Central Powers combat phase of day turn 1: the fire support
/// step opens (18.1; the air unit can always be placed by day, 18.5).
fn begin_fire(sc: &Scenario) -> State {
    let s = begin(
        sc,
        cat(&[&turn_start(1), &[phase(A, Phase::Combat), planning(A)]]),
    );
    assert_eq!(s.pending(), Pending::FireSupport { side: A });
    s
}

/// As `begin_fire`, then `done` without placing anything: nothing to reveal, and the
/// combat phase proper is pending. With `stacks`, units are stacked first (`put`).
fn begin_combat(sc: &Scenario, stacks: &[(&str, &str)]) -> State {
    let mut s = begin_fire(sc);
    for (unit, hex) in stacks {
        put(sc, &mut s, unit, hex);
    }
    let ev = play_dice(sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![revealed(&[])]);
    assert_pending(&s, A, Phase::Combat);
    s
}

fn assert_pending(s: &State, side: Side, ph: Phase) {
    assert_eq!(s.pending(), Pending::Phase { side, phase: ph });
}

/// Plays `done` (at least once, rolling nothing) until `want` is pending.
fn done_until(sc: &Scenario, s: &mut State, want: Pending) -> Vec<Event> {
    done_until_turn(sc, s, 0, want)
}

/// Plays `done` (at least once, rolling nothing) until `want` is pending in game turn
/// `turn` (any turn if 0).
fn done_until_turn(sc: &Scenario, s: &mut State, turn: u16, want: Pending) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..60 {
        all.extend(play_dice(sc, s, Command::Done, &[]));
        if s.pending() == want && (turn == 0 || s.turn == turn) {
            return all;
        }
    }
    panic!("never reached {want:?} in turn {turn}: {:?}", s.pending());
}

fn british_combat() -> Pending {
    Pending::Phase {
        side: B,
        phase: Phase::Combat,
    }
}

// ---------------------------------------------------------------------------------
// Maps.

/// 10x7 open: the combat hex 0604 (British) with Central Powers hexes 0504, 0503 and
/// 0605 next to it; British retreats run east (0704, 0804, 0904), Central Powers ones
/// west (0404, 0304, 0204). A spare pair far west, c9 (0107) next to b9 (0207), keeps
/// both combat phases pending after the combat under test. Play starts in the Central
/// Powers combat phase of day turn 1.
fn field() -> Suez {
    suez(10, 7)
        .cp("c9", "0107")
        .br("b9", "52nd Division", "0207")
        .start(Phase::Combat)
}

/// `field` with a British brigade group `b1` in 0604 that has lost `lost` steps
/// (defense 6, 4 or 2).
fn field_b1(lost: u8) -> Suez {
    field()
        .br("b1", "52nd Division", "0604")
        .with_last(|d| d.start_depleted = lost)
}

// ---------------------------------------------------------------------------------
// 10.3, Suez CRT key: Ex.

/// Suez CRT key, 10.3: "The owning player always chooses which units will be
/// depleted": on an Ex with several defenders the defending player picks his unit
/// first, then the attacking player picks among his attackers.
#[test]
fn rule_10_3_ex_each_owner_chooses_his_depleted_unit() {
    let sc = field_b1(1)
        .br("b2", "52nd Division", "0704")
        .with_last(|d| d.start_depleted = 1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .cp("c3", "0605")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3"]), &[2]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1", "b2"], &["c1", "c2", "c3"]),
            resolved(9, 8, OPEN, "+1", 2, Ex, 0),
            loss_required(B, &["b1", "b2"], LossReason::ExchangeDefender),
        ]
    );
    assert!(matches!(s.pending(), Pending::ChooseLoss { side: B, .. }));
    assert_eq!(refused(&sc, &s, choose("c1")).rule, "8.2.4");
    let ev = play_dice(&sc, &mut s, choose("b2"), &[]);
    assert_eq!(
        ev,
        vec![
            step_lost("b2", 1),
            loss_required(A, &["c1", "c2", "c3"], LossReason::Exchange),
        ]
    );
    let ev = play_dice(&sc, &mut s, choose("c3"), &[]);
    assert_eq!(ev, vec![step_lost("c3", 1), ended("0604")]);
    assert_eq!(steps_of(&sc, &s, "b1"), 2);
    assert_eq!(steps_of(&sc, &s, "c1"), 2);
    assert_pending(&s, A, Phase::Combat);
}

/// Suez CRT key: the defending player picks among several defenders; a lone attacker
/// then loses its step at once.
#[test]
fn rule_10_3_ex_defender_chooses_then_lone_attacker_loses_at_once() {
    let sc = field_b1(2)
        .br("b2", "52nd Division", "0704")
        .with_last(|d| d.start_depleted = 2)
        .cp("c1", "0504")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1", "b2"], &["c1"]),
            resolved(3, 4, OPEN, "-1", 1, Ex, 0),
            loss_required(B, &["b1", "b2"], LossReason::ExchangeDefender),
        ]
    );
    let ev = play_dice(&sc, &mut s, choose("b1"), &[]);
    assert_eq!(
        ev,
        vec![eliminated("b1"), step_lost("c1", 1), ended("0604")]
    );
    assert_eq!(loc_of(&sc, &s, "b2"), Location::Map(h("0604")));
}

/// Suez CRT key: "Ex = One attacking and one defending unit are depleted": one unit
/// on each side, no choice to make.
#[test]
fn rule_10_3_ex_single_units_each_lose_a_step() {
    let sc = field_b1(1).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 4, OPEN, "-1", 1, Ex, 0),
            step_lost("b1", 1),
            step_lost("c1", 1),
            ended("0604"),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 10.3: A3 and D3.

/// 10.3 (7.6): "A3 & D3 Results inflict a loss in addition to the retreat": a single
/// defender retreats three hexes, then loses a step; the attackers may then advance.
#[test]
fn rule_10_3_d3_defender_retreats_then_loses_a_step() {
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0405")
        .cp("c3", "0404")
        .cp("c4", "0503")
        .build();
    let mut s = begin_combat(&sc, &[("c2", "0504"), ("c3", "0504")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3", "c4"]), &[2]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2", "c3", "c4"]),
            resolved(12, 4, OPEN, "+8,+9", 2, D3, 0),
            retreat_required(B, &["b1"], 3),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("b1", &["0704", "0804", "0904"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0604", &["0704", "0804", "0904"]),
            step_lost("b1", 1),
            advance_offered(&["0604", "0704", "0804"], &["c1", "c2", "c3", "c4"]),
        ]
    );
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0904")));
}

/// 10.3: "Only one step is lost regardless of the number of units involved", and
/// "the owning player always chooses": after both defenders retreat, the British
/// player picks the one that depletes (a one-step unit: eliminated).
#[test]
fn rule_10_3_d3_stack_loses_one_step_chosen_by_its_owner() {
    let sc = field_b1(2)
        .br("b2", "52nd Division", "0703")
        .with_last(|d| d.start_depleted = 2)
        .cp("c1", "0504")
        .cp("c2", "0405")
        .cp("c3", "0404")
        .cp("c4", "0503")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604"), ("c2", "0504"), ("c3", "0504")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3", "c4"]), &[2]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1", "b2"], &["c1", "c2", "c3", "c4"]),
            resolved(12, 4, OPEN, "+8,+9", 2, D3, 0),
            retreat_required(B, &["b1", "b2"], 3),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("b1", &["0704", "0804", "0904"]), &[]);
    assert_eq!(ev, vec![retreated("b1", "0604", &["0704", "0804", "0904"])]);
    let ev = play_dice(&sc, &mut s, retreat("b2", &["0703", "0803", "0903"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("b2", "0604", &["0703", "0803", "0903"]),
            loss_required(B, &["b1", "b2"], LossReason::AfterRetreat),
        ]
    );
    assert!(matches!(s.pending(), Pending::ChooseLoss { side: B, .. }));
    let ev = play_dice(&sc, &mut s, choose("b1"), &[]);
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(ev[0], eliminated("b1"));
    assert!(
        matches!(&ev[1], Event::AdvanceOffered { path, units }
            if path[0] == h("0604") && *units == ids(&["c1", "c2", "c3", "c4"])),
        "{ev:?}"
    );
    assert_eq!(loc_of(&sc, &s, "b2"), Location::Map(h("0903")));
    assert_eq!(steps_of(&sc, &s, "b2"), 1);
}

/// 10.3: A3 is the attackers' D3: all attackers retreat three hexes, then the
/// attacking player depletes one of them; a defender never advances (8.5).
#[test]
fn rule_10_3_a3_attackers_retreat_then_lose_one_step() {
    let sc = field_b1(0).cp("c1", "0504").cp("c2", "0503").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[5]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 6, OPEN, "0", 5, A3, 0),
            retreat_required(A, &["c1", "c2"], 3),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("c1", &["0404", "0304", "0204"]), &[]);
    assert_eq!(ev, vec![retreated("c1", "0504", &["0404", "0304", "0204"])]);
    let ev = play_dice(&sc, &mut s, retreat("c2", &["0403", "0303", "0203"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("c2", "0503", &["0403", "0303", "0203"]),
            loss_required(A, &["c1", "c2"], LossReason::AfterRetreat),
        ]
    );
    let ev = play_dice(&sc, &mut s, choose("c2"), &[]);
    assert_eq!(ev, vec![step_lost("c2", 1), ended("0604")]);
    assert_eq!(steps_of(&sc, &s, "c1"), 2);
    assert_pending(&s, A, Phase::Combat);
}

/// 10.3 (7.6), A3 with one attacker: the step is lost at once.
#[test]
fn rule_10_3_a3_single_attacker_loses_its_step_at_once() {
    let sc = field_b1(2).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[6]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 2, OPEN, "+1", 6, A3, 0),
            retreat_required(A, &["c1"], 3),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("c1", &["0404", "0304", "0204"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("c1", "0504", &["0404", "0304", "0204"]),
            step_lost("c1", 1),
            ended("0604"),
        ]
    );
}

/// 10.3, Suez CRT key: D3 and A3 say "must retreat" with no "or deplete instead":
/// stiff resistance is refused on them and not listed.
#[test]
fn rule_10_3_no_stiff_resistance_on_d3_or_a3() {
    // D3.
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0405")
        .cp("c3", "0404")
        .cp("c4", "0503")
        .build();
    let mut s = begin_combat(&sc, &[("c2", "0504"), ("c3", "0504")]);
    play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3", "c4"]), &[2]);
    assert!(matches!(s.pending(), Pending::Retreat { side: B, .. }));
    assert_eq!(refused(&sc, &s, stiff("b1")).rule, "10.3");
    let listed = legal_commands(&sc, &s);
    assert!(listed.contains(&retreat("b1", &["0704", "0804", "0904"])));
    assert!(!listed
        .iter()
        .any(|c| matches!(c, Command::StiffResistance { .. })));
    // A3.
    let sc = field_b1(2).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    play_dice(&sc, &mut s, attack("0604", &["c1"]), &[6]);
    assert!(matches!(s.pending(), Pending::Retreat { side: A, .. }));
    assert_eq!(refused(&sc, &s, stiff("c1")).rule, "10.3");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::StiffResistance { .. })));
}

/// Suez CRT key: "D2 = All defending units must retreat two hexes (or deplete one unit
/// of the defending player's choice, instead; see 7.8)": stiff resistance stays open.
#[test]
fn rule_10_3_stiff_resistance_allowed_on_d2() {
    let sc = field_b1(1).cp("c1", "0504").cp("c2", "0503").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, OPEN, "+2,+3", 1, D2, 0),
            retreat_required(B, &["b1"], 2),
        ]
    );
    assert!(legal_commands(&sc, &s).contains(&stiff("b1")));
    let ev = play_dice(&sc, &mut s, stiff("b1"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::StiffResistance {
                unit: u("b1"),
                held: vec![]
            },
            step_lost("b1", 1),
            ended("0604"),
        ]
    );
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0604")));
}

/// Suez CRT key: "A2 = All attacking units must retreat two hexes (or deplete one unit
/// of the attacking player's choice, instead)".
#[test]
fn rule_10_3_stiff_resistance_allowed_on_a2() {
    let sc = field_b1(2).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[5]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 2, OPEN, "+1", 5, A2, 0),
            retreat_required(A, &["c1"], 2),
        ]
    );
    assert!(legal_commands(&sc, &s).contains(&stiff("c1")));
    let ev = play_dice(&sc, &mut s, stiff("c1"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::StiffResistance {
                unit: u("c1"),
                held: vec![]
            },
            step_lost("c1", 1),
            ended("0604"),
        ]
    );
}

// ---------------------------------------------------------------------------------
// Suez CRT key: D2, A1, A2 on several units.

/// The stack of `field_b1(1)`'s b1 and b2 (both 52nd Division, 4 defense each) in
/// 0604, attacked by c1, c2 and c3 (9): +1, die 1 reads D2 for both.
fn d2_on_a_stack() -> (Scenario, State) {
    let sc = field_b1(1)
        .br("b2", "52nd Division", "0704")
        .with_last(|d| d.start_depleted = 1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .cp("c3", "0605")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1", "b2"], &["c1", "c2", "c3"]),
            resolved(9, 8, OPEN, "+1", 1, D2, 0),
            retreat_required(B, &["b1", "b2"], 2),
        ]
    );
    (sc, s)
}

fn stiff_listed(sc: &Scenario, s: &State) -> Vec<Command> {
    legal_commands(sc, s)
        .into_iter()
        .filter(|c| matches!(c, Command::StiffResistance { .. }))
        .collect()
}

/// Suez CRT key: "D2 = All defending units must retreat two hexes (or deplete one unit
/// of the defending player's choice, instead; see 7.8)". One step from one unit of the
/// stack, the British player's choice, replaces the retreat of the whole stack: b2
/// depletes (here to its last step) and neither b2 nor b1 retreats. Either unit may be
/// the one; there is nothing to advance into.
#[test]
fn rule_su_crt_key_d2_one_step_satisfies_the_stack() {
    let (sc, mut s) = d2_on_a_stack();
    assert_eq!(stiff_listed(&sc, &s), vec![stiff("b1"), stiff("b2")]);
    let ev = play_dice(&sc, &mut s, stiff("b2"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::StiffResistance {
                unit: u("b2"),
                held: ids(&["b1"]),
            },
            step_lost("b2", 1),
            ended("0604"),
        ]
    );
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0604")));
    assert_eq!(loc_of(&sc, &s, "b2"), Location::Map(h("0604")));
    assert_eq!(steps_of(&sc, &s, "b1"), 2);
    assert_eq!(steps_of(&sc, &s, "b2"), 1);
    assert_pending(&s, A, Phase::Combat);
}

/// Suez CRT key: the depletion is "instead" of the stack's retreat, not of one unit's:
/// once b1 has retreated the British player has chosen the retreat, so b2 may not hold
/// (refused under the key, no longer listed) and must retreat too; b1, having
/// retreated, is no longer asked (8.4).
#[test]
fn rule_su_crt_key_d2_no_depletion_once_a_unit_has_retreated() {
    let (sc, mut s) = d2_on_a_stack();
    let ev = play_dice(&sc, &mut s, retreat("b1", &["0703", "0804"]), &[]);
    assert_eq!(ev, vec![retreated("b1", "0604", &["0703", "0804"])]);
    assert_eq!(refused(&sc, &s, stiff("b2")).rule, "CRT key");
    assert_eq!(refused(&sc, &s, stiff("b1")).rule, "8.4");
    assert_eq!(stiff_listed(&sc, &s), vec![]);
    let ev = play_dice(&sc, &mut s, retreat("b2", &["0703", "0803"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("b2", "0604", &["0703", "0803"]),
            advance_offered(&["0604", "0703"], &["c1", "c2", "c3"]),
        ]
    );
    assert_eq!(steps_of(&sc, &s, "b1"), 2);
    assert_eq!(steps_of(&sc, &s, "b2"), 2);
}

/// Suez CRT key: "A2 = All attacking units must retreat two hexes (or deplete one unit
/// of the attacking player's choice, instead)": c1 (0504) depletes and c2 (0503), in
/// another hex, stays too.
#[test]
fn rule_su_crt_key_a2_one_step_satisfies_every_attacker() {
    let sc = field_b1(0).cp("c1", "0504").cp("c2", "0503").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 6, OPEN, "0", 4, A2, 0),
            retreat_required(A, &["c1", "c2"], 2),
        ]
    );
    assert_eq!(stiff_listed(&sc, &s), vec![stiff("c1"), stiff("c2")]);
    let ev = play_dice(&sc, &mut s, stiff("c1"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::StiffResistance {
                unit: u("c1"),
                held: ids(&["c2"]),
            },
            step_lost("c1", 1),
            ended("0604"),
        ]
    );
    assert_eq!(loc_of(&sc, &s, "c2"), Location::Map(h("0503")));
    assert_eq!(steps_of(&sc, &s, "c2"), 2);
    assert_pending(&s, A, Phase::Combat);
}

/// Suez CRT key with 8.4: a one-step unit may be the one that depletes; it is
/// eliminated and the rest of the stack still holds (no retreat, so no advance).
#[test]
fn rule_su_crt_key_d2_one_step_unit_eliminated_for_the_stack() {
    let sc = field_b1(1)
        .br("b2", "52nd Division", "0704")
        .with_last(|d| d.start_depleted = 2)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .cp("c3", "0605")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604")]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3"]), &[1]);
    assert_eq!(
        ev[1..],
        [
            resolved(9, 6, OPEN, "+2,+3", 1, D2, 0),
            retreat_required(B, &["b1", "b2"], 2),
        ]
    );
    let ev = play_dice(&sc, &mut s, stiff("b2"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::StiffResistance {
                unit: u("b2"),
                held: ids(&["b1"]),
            },
            eliminated("b2"),
            ended("0604"),
        ]
    );
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0604")));
    assert_eq!(steps_of(&sc, &s, "b1"), 2);
}

// ---------------------------------------------------------------------------------
// 10.3 (7.9): advance after combat.

/// 10.3 (7.9): units without a circled movement factor advance "a maximum length of one
/// hex (the one originally occupied by the retreated/eliminated defender)".
#[test]
fn rule_10_3_leg_units_advance_into_the_combat_hex_only() {
    let sc = field_b1(2).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 2, OPEN, "+1", 1, D2, 0),
            retreat_required(B, &["b1"], 2),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("b1", &["0704", "0804"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0604", &["0704", "0804"]),
            advance_offered(&["0604", "0704"], &["c1"]),
        ]
    );
    let mut listed = legal_commands(&sc, &s);
    listed.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(listed, vec![advance("c1", "0604"), Command::Done]);
    assert_eq!(refused(&sc, &s, advance("c1", "0704")).rule, "10.3");
    let ev = play_dice(&sc, &mut s, advance("c1", "0604"), &[]);
    assert_eq!(ev, vec![advanced("c1", "0504", &["0604"]), ended("0604")]);
}

/// 10.3 (7.9): "Mobile units (those with circled movement factors) may advance after
/// combat per rule 7.9": along the path of retreat up to the retreated unit (here two
/// hexes); a leg unit of the same attack still stops in the combat hex.
#[test]
fn rule_10_3_mobile_units_advance_along_the_whole_path() {
    let sc = field()
        .cp("c1", "0504")
        .horse("h1", "ANZ Mounted Division", "0604")
        .br("b1", "52nd Division", "0605")
        .with_last(|d| d.start_depleted = 2)
        .build();
    let mut s = begin_fire(&sc);
    done_until(&sc, &mut s, british_combat());
    let ev = play_dice(&sc, &mut s, attack("0504", &["h1", "b1"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0504", &["c1"], &["h1", "b1"]),
            resolved(6, 3, OPEN, "+2,+3", 1, D2, 0),
            retreat_required(A, &["c1"], 2),
        ]
    );
    let ev = play_dice(&sc, &mut s, retreat("c1", &["0404", "0304"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("c1", "0504", &["0404", "0304"]),
            advance_offered(&["0504", "0404"], &["h1", "b1"]),
        ]
    );
    let mut listed: Vec<Command> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Advance { .. }))
        .collect();
    listed.sort_by_key(|c| format!("{c:?}"));
    // c1 holds 0304, the end of the path.
    assert_eq!(
        listed,
        vec![
            advance("b1", "0504"),
            advance("h1", "0404"),
            advance("h1", "0504"),
        ]
    );
    let ev = play_dice(&sc, &mut s, advance("h1", "0404"), &[]);
    assert_eq!(ev, vec![advanced("h1", "0604", &["0504", "0404"])]);
    assert_eq!(refused(&sc, &s, advance("b1", "0404")).rule, "10.3");
    let ev = play_dice(&sc, &mut s, advance("b1", "0504"), &[]);
    assert_eq!(ev, vec![advanced("b1", "0605", &["0504"]), ended("0504")]);
}

// ---------------------------------------------------------------------------------
// 13.1 Kress von Kressenstein.

/// 13.1: "Kress can be used to assist one attack per Central Powers combat phase.
/// Shift that attack one column to the right."
#[test]
fn rule_13_1_kress_shifts_the_attack_one_column_right() {
    let sc = field_b1(1).cp("c1", "0504").cp("c2", "0503").build();
    let mut s = begin_combat(&sc, &[]);
    assert!(legal_commands(&sc, &s).contains(&kress("0604")));
    let ev = play_dice(&sc, &mut s, kress("0604"), &[]);
    assert_eq!(ev, vec![kress_assigned("0604")]);
    assert_pending(&s, A, Phase::Combat);
    // +2 reads "+2,+3" (die 2: Ex); Kress reads "+4,+5" (D2).
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[2]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, OPEN, "+4,+5", 2, D2, 1),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

/// 13.1: one attack per combat phase: a second Kress is refused, and not listed; the
/// other attacks of the phase are not shifted.
#[test]
fn rule_13_1_kress_assists_one_attack_per_phase() {
    let sc = field_b1(1).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    play_dice(&sc, &mut s, kress("0604"), &[]);
    assert_eq!(refused(&sc, &s, kress("0207")).rule, "13.1");
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Kress { .. })));
    // c9 (3) against b9 (6): -3, not shifted.
    let ev = play_dice(&sc, &mut s, attack("0207", &["c9"]), &[6]);
    assert_eq!(
        ev,
        vec![
            declared("0207", &["b9"], &["c9"]),
            resolved(3, 6, OPEN, "-3", 6, AStep, 0),
            step_lost("c9", 1),
            ended("0207"),
        ]
    );
}

/// 13.1: "Kress may not be used on the defensive": in the British combat phase he is
/// refused.
#[test]
fn rule_13_1_kress_never_on_the_defensive() {
    let sc = field_b1(0).cp("c1", "0504").build();
    let mut s = begin_fire(&sc);
    done_until(&sc, &mut s, british_combat());
    assert_eq!(refused(&sc, &s, kress("0504")).rule, "13.1");
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Kress { .. })));
}

/// 13.1: Kress assists an attack: a hex no Central Powers attack can reach (no enemy,
/// no adjacent Central Powers unit, already attacked) is refused.
#[test]
fn rule_13_1_kress_only_for_a_possible_attack() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .br("b2", "52nd Division", "0907")
        .build();
    let mut s = begin_combat(&sc, &[]);
    assert_eq!(refused(&sc, &s, kress("0907")).rule, "13.1");
    assert_eq!(refused(&sc, &s, kress("0704")).rule, "13.1");
    assert_eq!(refused(&sc, &s, kress("0504")).rule, "13.1");
    play_dice(&sc, &mut s, attack("0604", &["c1"]), &[4]);
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
    let mut listed: Vec<Command> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Kress { .. }))
        .collect();
    listed.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(listed, vec![kress("0207")]);
}

/// 13.1: "The counter ... may be reused each turn."
#[test]
fn rule_13_1_kress_reused_next_turn() {
    let sc = field_b1(0).cp("c1", "0504").build();
    let mut s = begin_combat(&sc, &[]);
    play_dice(&sc, &mut s, kress("0207"), &[]);
    play_dice(&sc, &mut s, attack("0207", &["c9"]), &[4]);
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
    done_until(
        &sc,
        &mut s,
        Pending::Phase {
            side: A,
            phase: Phase::Combat,
        },
    );
    assert_eq!(s.turn, 2);
    let ev = play_dice(&sc, &mut s, kress("0604"), &[]);
    assert_eq!(ev, vec![kress_assigned("0604")]);
}

/// 13.1 with 18.1: Kress may be given while the markers are placed; the announced
/// attack, made after the bombardment, is shifted.
#[test]
fn rule_13_1_kress_for_an_announced_attack() {
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .pools(&[4], &[])
        .build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[]);
    let ev = play_dice(&sc, &mut s, kress("0604"), &[]);
    assert_eq!(ev, vec![kress_assigned("0604")]);
    assert_eq!(s.pending(), Pending::FireSupport { side: A });
    // Marker +4: "+4,+5", die 6 "•". Ground +2 shifted to "+4,+5", die 2: D2.
    let ev = play_dice(&sc, &mut s, Command::Done, &[6, 2]);
    assert_eq!(
        ev,
        vec![
            revealed(&[marker_at(A, "0604", 4)]),
            fired(A, "0604", "b1", 4, OPEN, "+4,+5", 6, NoEffect, false),
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, OPEN, "+4,+5", 2, D2, 1),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 15.0 Surprise, 19.0 Night.

/// 15.1: "All Central Powers ground units during the zero hour combat phase are
/// shifted one differential column to the right".
#[test]
fn rule_15_1_zero_hour_attacks_shift_one_column_right() {
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .zero_hour()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    assert_pending(&s, A, Phase::Combat);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[2]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, OPEN, "+4,+5", 2, D2, 1),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

/// 15.1: "this can be cumulative with the Kress bonus (13.1)": two columns.
#[test]
fn rule_15_1_zero_hour_shift_adds_to_kress() {
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .zero_hour()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    play_dice(&sc, &mut s, kress("0604"), &[]);
    // +2: "+2,+3" shifted two columns to "+6,+7"; die 1: D3.
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, OPEN, "+6,+7", 1, D3, 2),
            retreat_required(B, &["b1"], 3),
        ]
    );
}

/// 15.1 "Central Powers ... during the zero hour combat phase": the British attacks of
/// that turn are not shifted right (only left, for the night, 19.0).
#[test]
fn rule_15_1_no_surprise_shift_for_british_attacks() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .zero_hour()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    done_until(&sc, &mut s, british_combat());
    let ev = play_dice(&sc, &mut s, attack("0504", &["b1"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0504", &["c1"], &["b1"]),
            resolved(6, 3, OPEN, "+1", 4, NoEffect, -1),
            ended("0504"),
        ]
    );
}

/// 15.2: "No British support fire may be used during the zero hour turn": neither
/// as the defender in the Central Powers combat phase nor in their own. (Zero Hour
/// on a day turn here, so that 19.0 is not what forbids it.)
#[test]
fn rule_15_2_no_british_fire_support_in_the_zero_hour_turn() {
    let map = || {
        field_b1(0)
            .cp("c1", "0504")
            .pools(&[], &[3, 4])
            .start(Phase::Combat)
    };
    // Without surprise, the British place after the Central Powers.
    let sc = map().build();
    let mut s = begin_fire(&sc);
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![planning(B)]);
    // In the Zero Hour turn they may not.
    let sc = map().params(|p| p.zero_hour_turn = 1).build();
    let mut s = begin_fire(&sc);
    play_dice(&sc, &mut s, air("0101", true), &[]);
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![revealed(&[])]);
    assert_pending(&s, A, Phase::Combat);
    let ev = done_until(&sc, &mut s, british_combat());
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::FireSupportPlanning { .. })),
        "{ev:?}"
    );
    assert_eq!(s.ex.pool.b, vec![3, 4]);
    assert!(apply(&sc, &s, &bombard("0504", 1), &mut Script::new(&[0])).is_err());
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Bombard { .. })));
}

/// 15.2: a British `bombard` in the Zero Hour turn is refused under the rule that
/// forbids it.
#[test]
fn rule_15_2_zero_hour_bombard_refused_under_15_2() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[], &[3, 4])
        .params(|p| p.zero_hour_turn = 1)
        .build();
    let mut s = begin_fire(&sc);
    play_dice(&sc, &mut s, air("0101", true), &[]);
    done_until(&sc, &mut s, british_combat());
    assert_eq!(refused(&sc, &s, bombard("0504", 1)).rule, "15.2");
}

/// 19.0: "British attacks shift one column left" on the night turns; Central Powers
/// attacks are not shifted.
#[test]
fn rule_19_0_british_attacks_shift_one_column_left_at_night() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .night(1)
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    // Central Powers: c9 (3) against b9 (6), -3, not shifted.
    let ev = play_dice(&sc, &mut s, attack("0207", &["c9"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0207", &["b9"], &["c9"]),
            resolved(3, 6, OPEN, "-3", 4, AStep, 0),
            step_lost("c9", 1),
            ended("0207"),
        ]
    );
    done_until(&sc, &mut s, british_combat());
    // British: +3 reads "+2,+3" (die 4: Ex), shifted left to "+1" (•).
    let ev = play_dice(&sc, &mut s, attack("0504", &["b1"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0504", &["c1"], &["b1"]),
            resolved(6, 3, OPEN, "+1", 4, NoEffect, -1),
            ended("0504"),
        ]
    );
}

/// 19.0: "No bombardments may be conducted. The air unit may not be used." No fire
/// support step opens at night, and placing is refused.
#[test]
fn rule_19_0_no_bombardment_and_no_air_unit_at_night() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[4, 6], &[3])
        .night(1)
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    assert_pending(&s, A, Phase::Combat);
    let placing = |s: &State| {
        legal_commands(&sc, s)
            .into_iter()
            .filter(|c| matches!(c, Command::Bombard { .. } | Command::AirUnit { .. }))
            .collect::<Vec<_>>()
    };
    assert!(placing(&s).is_empty());
    assert!(apply(&sc, &s, &bombard("0604", 1), &mut Script::new(&[0])).is_err());
    assert!(apply(&sc, &s, &air("0604", false), &mut no_rng()).is_err());
    let ev = done_until(&sc, &mut s, british_combat());
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::FireSupportPlanning { .. })),
        "{ev:?}"
    );
    assert!(placing(&s).is_empty());
    assert!(apply(&sc, &s, &bombard("0504", 1), &mut Script::new(&[0])).is_err());
    assert_eq!(s.ex.pool, SidePair::new(vec![4, 6], vec![3]));
}

/// 19.0: `bombard` and `air_unit` on a night turn are refused under the rule that
/// forbids them.
#[test]
fn rule_19_0_night_bombard_and_air_unit_refused_under_19_0() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[4, 6], &[3])
        .night(1)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    assert_eq!(refused(&sc, &s, bombard("0604", 1)).rule, "19.0");
    assert_eq!(refused(&sc, &s, air("0604", false)).rule, "19.0");
    done_until(&sc, &mut s, british_combat());
    assert_eq!(refused(&sc, &s, bombard("0504", 1)).rule, "19.0");
}

// ---------------------------------------------------------------------------------
// 14.0 Terrain.

/// 14.1: "Combat may not take place across a canal hexside."
#[test]
fn rule_14_1_no_attack_across_a_canal_hexside() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .side("0504", "0604", &["canal"])
        .build();
    let s = begin_combat(&sc, &[]);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1"])).rule, "8.2");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Attack { hex, .. } if *hex == h("0604"))));
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
}

/// 14.2: "If all attacking units are attacking across trench hexsides, the defender
/// uses the trench defense line" (Town, Trench): +2 reads grid column 6 (die 4: A2),
/// where the Open line would read grid 8 (Ex).
#[test]
fn rule_14_2_trench_line_when_every_attacker_crosses_a_trench() {
    let sc = field_b1(1)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .side("0504", "0604", &["trench"])
        .side("0503", "0604", &["trench"])
        .build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, TOWN, "+2,+3", 4, A2, 0),
            retreat_required(A, &["c1", "c2"], 2),
        ]
    );
}

/// 14.2: "If units are attacking a defender across a combination of trench and
/// non-trench hexsides, use the line for the other terrain in the hex": the village's
/// Hill, Village, Oasis line, +2 over grid column 7 (die 4: no effect), not the trench
/// line's grid 6 (A2).
#[test]
fn rule_14_2_trench_and_open_hexsides_use_the_hex_terrain() {
    let sc = field_b1(1)
        .terrain("0604", &["village"])
        .cp("c1", "0504")
        .cp("c2", "0503")
        .side("0504", "0604", &["trench"])
        .build();
    let mut s = begin_combat(&sc, &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 4, HILL, "+2,+3", 4, NoEffect, 0),
            ended("0604"),
        ]
    );
}

/// 14.2: "Trenches benefit only units of the owning side": a Central Powers unit
/// behind a (British) trench hexside defends on its hex terrain line (hill: +3 over
/// grid column 7, die 4: no effect; the trench line would read grid 6, A2).
#[test]
fn rule_14_2_trench_benefits_only_the_british() {
    let sc = field()
        .terrain("0504", &["hill"])
        .cp("c1", "0504")
        .br("b1", "52nd Division", "0604")
        .side("0504", "0604", &["trench"])
        .build();
    let mut s = begin_fire(&sc);
    done_until(&sc, &mut s, british_combat());
    let ev = play_dice(&sc, &mut s, attack("0504", &["b1"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0504", &["c1"], &["b1"]),
            resolved(6, 3, HILL, "+2,+3", 4, NoEffect, 0),
            ended("0504"),
        ]
    );
}

/// 13.1 and 15.1 shift within the line: a Town defender's line ends at its "+10",
/// grid column 10, so Kress and surprise cannot push a +10 attack past it (the Open
/// line would reach grid 12). 12 against 2: die 1 reads D3, not De.
#[test]
fn rule_13_1_15_1_shifts_stop_at_the_lines_plus_10() {
    let sc = field_b1(2)
        .terrain("0604", &["town"])
        .cp("c1", "0504")
        .cp("c2", "0503")
        .cp("c3", "0605")
        .cp("c4", "0603")
        .zero_hour()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Combat)]]));
    play_dice(&sc, &mut s, kress("0604"), &[]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2", "c3", "c4"]), &[1]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2", "c3", "c4"]),
            resolved(12, 2, TOWN, "+10", 1, D3, 2),
            retreat_required(B, &["b1"], 3),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 17.3 Stacks in combat.

/// 17.3: "Stacked units must ... attack together in a single combat": an attack
/// naming part of a stack is refused, and every listed attack names the whole stack.
#[test]
fn rule_17_3_stacked_units_attack_together() {
    let sc = field_b1(0).cp("c1", "0504").cp("c2", "0404").build();
    let mut s = begin_combat(&sc, &[("c2", "0504")]);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1"])).rule, "17.3");
    assert_eq!(refused(&sc, &s, attack("0604", &["c2"])).rule, "17.3");
    let on_b1: Vec<Command> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Attack { hex, .. } if *hex == h("0604")))
        .collect();
    assert_eq!(on_b1, vec![attack("0604", &["c1", "c2"])]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[4]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1"], &["c1", "c2"]),
            resolved(6, 6, OPEN, "0", 4, A2, 0),
            retreat_required(A, &["c1", "c2"], 2),
        ]
    );
}

/// 17.3: "Stacked units must defend ... together in a single combat": every unit of
/// the hex is a defender, their strengths added.
#[test]
fn rule_17_3_stacked_units_defend_together() {
    let sc = field_b1(0)
        .br("b2", "52nd Division", "0704")
        .with_last(|d| d.start_depleted = 2)
        .cp("c1", "0504")
        .build();
    let mut s = begin_combat(&sc, &[("b2", "0604")]);
    // 3 - (6 + 2) = -5; die 3: (A).
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[3]);
    assert_eq!(
        ev,
        vec![
            declared("0604", &["b1", "b2"], &["c1"]),
            resolved(3, 8, OPEN, "-5", 3, AStep, 0),
            step_lost("c1", 1),
            ended("0604"),
        ]
    );
    assert!(s.units[idx(&sc, "b1")].defended && s.units[idx(&sc, "b2")].defended);
}

// ---------------------------------------------------------------------------------
// 18.1 Fire support procedure.

/// 18.1: "At the beginning of a combat phase, the active player must place all fire
/// support markers": a fire support step opens the day combat phase.
#[test]
fn rule_18_1_fire_support_step_opens_the_combat_phase() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[4, 6], &[])
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, cat(&[&turn_start(1), &[phase(A, Phase::Movement)]]));
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![phase(A, Phase::Combat), planning(A)]);
    assert_eq!(s.pending(), Pending::FireSupport { side: A });
    assert_eq!(s.ex.fire_stage, Some(A));
}

/// 18.1, 18.3: markers are drawn at random from the pool and placed face down; the
/// pool loses them.
#[test]
fn rule_18_3_markers_drawn_at_random_from_the_pool() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[6, 3, 4], &[]).build();
    let mut s = begin_fire(&sc);
    assert_eq!(s.ex.pool.a, vec![3, 4, 6]);
    // Draws: 2 % 3 = index 2 of [3, 4, 6], then 2 % 2 = index 0 of [3, 4].
    let ev = play_draws(&sc, &mut s, bombard("0604", 2), &[2, 2]);
    assert_eq!(ev, vec![placed(A, "0604", 6), placed(A, "0604", 3)]);
    assert_eq!(s.ex.pool.a, vec![4]);
    assert_eq!(
        s.ex.fire_plan,
        vec![marker_at(A, "0604", 6), marker_at(A, "0604", 3)]
    );
}

/// 18.1: "The Central Powers player may use one or two support fire markers per hex
/// bombarded"; 18.5 the air unit "does count toward the Central Powers' fire support
/// limit".
#[test]
fn rule_18_1_central_powers_two_markers_per_hex_air_unit_included() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[3, 4, 6], &[]).build();
    let mut s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, bombard("0604", 3)).rule, "18.1");
    assert_eq!(refused(&sc, &s, bombard("0604", 0)).rule, "18.1");
    let ev = play_dice(&sc, &mut s, air("0604", false), &[]);
    assert_eq!(ev, vec![air_placed("0604", false)]);
    assert_eq!(refused(&sc, &s, bombard("0604", 2)).rule, "18.1");
    let ev = play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    assert_eq!(ev, vec![placed(A, "0604", 3)]);
    assert_eq!(refused(&sc, &s, bombard("0604", 1)).rule, "18.1");
    // Another hex takes two.
    let ev = play_draws(&sc, &mut s, bombard("0207", 2), &[0, 0]);
    assert_eq!(ev, vec![placed(A, "0207", 4), placed(A, "0207", 6)]);
}

/// 18.1: "The British player may use only one support fire marker per hex bombarded."
#[test]
fn rule_18_1_british_one_marker_per_hex() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[], &[3, 4]).build();
    let mut s = begin_fire(&sc);
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![planning(B)]);
    assert_eq!(s.pending(), Pending::FireSupport { side: B });
    assert_eq!(refused(&sc, &s, bombard("0504", 2)).rule, "18.1");
    let ev = play_draws(&sc, &mut s, bombard("0504", 1), &[1]);
    assert_eq!(ev, vec![placed(B, "0504", 4)]);
    assert_eq!(refused(&sc, &s, bombard("0504", 1)).rule, "18.1");
}

/// 18.3: a side places only markers its pool still holds.
#[test]
fn rule_18_3_pool_too_small_refused() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[4], &[]).build();
    let mut s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, bombard("0604", 2)).rule, "18.3");
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    assert_eq!(refused(&sc, &s, bombard("0207", 1)).rule, "18.3");
}

/// 18.1: markers bombard a target hex of enemy units: an empty hex or a friendly hex
/// is refused.
#[test]
fn rule_18_1_only_hexes_holding_enemy_units() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[4], &[]).build();
    let s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, bombard("0704", 1)).rule, "18.1");
    assert_eq!(refused(&sc, &s, bombard("0504", 1)).rule, "18.1");
}

/// 18.1: the phasing player "must announce which if any adjacent units will attack
/// that target hex": only a hex he puts a marker on, once per hex.
#[test]
fn rule_18_1_attacks_announced_only_on_bombarded_hexes() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .pools(&[4], &[])
        .build();
    let mut s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1"])).rule, "18.1");
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1", "c9"])).rule, "8.2");
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[]);
    assert_eq!(ev, vec![announced("0604", &["c1", "c2"])]);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1", "c2"])).rule, "18.1");
    assert_eq!(s.pending(), Pending::FireSupport { side: A });
}

/// 18.1: an attack is announced with its markers or not at all: a hex bombarded this
/// phase may not be attacked afterwards by unannounced units.
#[test]
fn rule_18_1_bombarded_hex_not_attacked_by_unannounced_units() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[4], &[]).build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    let ev = play_dice(&sc, &mut s, Command::Done, &[6]);
    assert_eq!(
        ev,
        vec![
            revealed(&[marker_at(A, "0604", 4)]),
            fired(A, "0604", "b1", 4, OPEN, "+4,+5", 6, NoEffect, false),
        ]
    );
    assert_pending(&s, A, Phase::Combat);
    assert_eq!(refused(&sc, &s, attack("0604", &["c1"])).rule, "18.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Attack { hex, .. } if *hex == h("0604"))));
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
}

/// 18.1: "After all attacking markers are placed, the defending player places any
/// markers desired" (on observed enemy hexes; he announces no attack). 18.4: all
/// markers are revealed, the attacker's bombardments and then the defender's are
/// resolved before the announced attack is made.
#[test]
fn rule_18_1_18_4_defender_places_then_all_resolve_before_the_attack() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[4, 6], &[3]).build();
    let mut s = begin_fire(&sc);
    let ev = play_draws(&sc, &mut s, bombard("0604", 1), &[1]);
    assert_eq!(ev, vec![placed(A, "0604", 6)]);
    let ev = play_dice(&sc, &mut s, attack("0604", &["c1"]), &[]);
    assert_eq!(ev, vec![announced("0604", &["c1"])]);
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![planning(B)]);
    assert_eq!(s.pending(), Pending::FireSupport { side: B });
    assert_eq!(refused(&sc, &s, attack("0504", &["b1"])).rule, "18.1");
    // The British marker is drawn (index 0: +3); with nothing left to place, the step
    // ends by itself (automatic passing). +6: "+6,+7" die 2 D2, a hit; +3: "+2,+3"
    // die 2 Ex, ignored. Then c1 (3) against the depleted b1 (4): -1, die 2 "•".
    let ev = play_draws(&sc, &mut s, bombard("0504", 1), &[0, 1, 1, 1]);
    assert_eq!(
        ev,
        vec![
            placed(B, "0504", 3),
            revealed(&[marker_at(A, "0604", 6), marker_at(B, "0504", 3)]),
            fired(A, "0604", "b1", 6, OPEN, "+6,+7", 2, D2, true),
            step_lost("b1", 2),
            fired(B, "0504", "c1", 3, OPEN, "+2,+3", 2, Ex, false),
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 4, OPEN, "-1", 2, NoEffect, 0),
            ended("0604"),
        ]
    );
    assert_pending(&s, A, Phase::Combat);
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0604")));
    assert_eq!(s.ex.pool, SidePair::new(vec![4], vec![]));
    assert_eq!(s.ex.spent, SidePair::new(vec![6], vec![3]));
    assert!(s.ex.fire_plan.is_empty());
}

/// 18.1 in the British combat phase: the British place first (one marker a hex) and
/// announce, the Central Powers then place as the defender; the British bombardment
/// is resolved first.
#[test]
fn rule_18_1_british_combat_phase_british_place_first() {
    let sc = field_b1(0).cp("c1", "0504").pools(&[4], &[3]).build();
    let mut s = begin_fire(&sc);
    play_dice(&sc, &mut s, air("0101", true), &[]);
    // The British may place as the defender; they pass.
    assert_eq!(
        play_dice(&sc, &mut s, Command::Done, &[]),
        vec![planning(B)]
    );
    assert_eq!(
        play_dice(&sc, &mut s, Command::Done, &[]),
        vec![revealed(&[])]
    );
    let ev = done_until(&sc, &mut s, Pending::FireSupport { side: B });
    assert_eq!(ev[ev.len() - 2..], [phase(B, Phase::Combat), planning(B)]);
    play_draws(&sc, &mut s, bombard("0504", 1), &[0]);
    // Nothing left for the British to place or announce: their step ends by itself.
    let ev = play_dice(&sc, &mut s, attack("0504", &["b1"]), &[]);
    assert_eq!(ev, vec![announced("0504", &["b1"]), planning(A)]);
    assert_eq!(s.pending(), Pending::FireSupport { side: A });
    assert_eq!(refused(&sc, &s, attack("0604", &["c1"])).rule, "18.1");
    assert_eq!(refused(&sc, &s, kress("0604")).rule, "13.1");
    // The Central Powers marker (+4), then the step ends by itself again. British
    // +3: "+2,+3" die 5 "•"; Central Powers +4: "+4,+5" die 6 "•"; then b1 (6)
    // against c1 (3), +3, die 4: Ex.
    let ev = play_draws(&sc, &mut s, bombard("0604", 1), &[0, 4, 5, 3]);
    assert_eq!(
        ev,
        vec![
            placed(A, "0604", 4),
            revealed(&[marker_at(B, "0504", 3), marker_at(A, "0604", 4)]),
            fired(B, "0504", "c1", 3, OPEN, "+2,+3", 5, NoEffect, false),
            fired(A, "0604", "b1", 4, OPEN, "+4,+5", 6, NoEffect, false),
            declared("0504", &["c1"], &["b1"]),
            resolved(6, 3, OPEN, "+2,+3", 4, Ex, 0),
            step_lost("c1", 1),
            step_lost("b1", 2),
            ended("0504"),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 18.2 Observation.

/// 18.2: "Central Powers Observation Range: four hexes, six hexes if the observing unit
/// is in a hill hex", counting the target hex; "it is not blocked by any terrain".
#[test]
fn rule_18_2_central_powers_observe_four_hexes_six_from_a_hill() {
    let map = || {
        suez(12, 3)
            .terrain("0302", &["hill"])
            .terrain("0402", &["town"])
            .cp("c1", "0102")
            .br("b4", "52nd Division", "0502")
            .br("b5", "52nd Division", "0602")
            .br("b6", "53rd Division", "0702")
            .br("b7", "53rd Division", "0802")
            .pools(&[4, 4, 4, 4], &[])
            .start(Phase::Combat)
    };
    let sc = map().build();
    let s = begin_fire(&sc);
    assert!(apply(&sc, &s, &bombard("0502", 1), &mut Script::new(&[0])).is_ok());
    assert_eq!(refused(&sc, &s, bombard("0602", 1)).rule, "18.2");
    let sc = map().terrain("0102", &["hill"]).build();
    let s = begin_fire(&sc);
    assert!(apply(&sc, &s, &bombard("0702", 1), &mut Script::new(&[0])).is_ok());
    assert_eq!(refused(&sc, &s, bombard("0802", 1)).rule, "18.2");
}

/// 18.2: "British Observation Range: five hexes, seven hexes if the observing unit is
/// in a hill hex."
#[test]
fn rule_18_2_british_observe_five_hexes_seven_from_a_hill() {
    let map = || {
        suez(12, 3)
            .br("b1", "52nd Division", "1102")
            .cp("c2", "0302")
            .cp("c3", "0402")
            .cp("c4", "0502")
            .cp("c5", "0602")
            .cp("c6", "0702")
            .pools(&[], &[3])
            .start(Phase::Combat)
    };
    let sc = map().build();
    let mut s = begin_fire(&sc);
    assert_eq!(
        play_dice(&sc, &mut s, Command::Done, &[]),
        vec![planning(B)]
    );
    assert!(apply(&sc, &s, &bombard("0602", 1), &mut Script::new(&[0])).is_ok());
    assert_eq!(refused(&sc, &s, bombard("0502", 1)).rule, "18.2");
    let sc = map().terrain("1102", &["ridge"]).build();
    let mut s = begin_fire(&sc);
    assert_eq!(
        play_dice(&sc, &mut s, Command::Done, &[]),
        vec![planning(B)]
    );
    assert!(apply(&sc, &s, &bombard("0402", 1), &mut Script::new(&[0])).is_ok());
    assert_eq!(refused(&sc, &s, bombard("0302", 1)).rule, "18.2");
}

/// 18.2: "Only observed hexes may be bombarded"; a defender with markers but no
/// observed enemy hex gets no fire support step.
#[test]
fn rule_18_2_no_step_for_a_defender_that_observes_nothing() {
    let sc = suez(12, 3)
        .cp("c1", "0102")
        .br("b1", "52nd Division", "1102")
        .pools(&[4], &[3])
        .start(Phase::Combat)
        .build();
    let mut s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, bombard("1102", 1)).rule, "18.2");
    // No British step; nothing to attack: on to the British movement phase.
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![revealed(&[]), phase(B, Phase::Movement)]);
}

// ---------------------------------------------------------------------------------
// 18.4 Bombardment resolution.

/// 18.4: "find the strength of the artillery marker(s) on the appropriate terrain line
/// of the CRT. Do not consider the strength of the target unit." The line is the
/// hex's terrain (8.1.2: no hexside terrain).
#[test]
fn rule_18_4_strength_alone_on_the_hex_terrain_line() {
    let sc = field_b1(0)
        .terrain("0604", &["village"])
        .side("0504", "0604", &["trench"])
        .cp("c1", "0504")
        .pools(&[4], &[])
        .build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    // +4 against a 6 defense would be -2; by strength alone it reads "+4,+5": die 1 D2.
    let ev = play_dice(&sc, &mut s, Command::Done, &[1]);
    assert_eq!(
        ev,
        vec![
            revealed(&[marker_at(A, "0604", 4)]),
            fired(A, "0604", "b1", 4, HILL, "+4,+5", 1, D2, true),
            step_lost("b1", 2),
        ]
    );
}

/// 18.4 "Bombarding Stacks. ... resolve the bombardment against each unit separately
/// (but it still counts as a single bombardment)", and "After a D2, D3, or De result,
/// the target unit must take a one-step loss. ... Retreat is not allowed": De and D3
/// each cost one step, nothing retreats.
#[test]
fn rule_18_4_stack_bombarded_unit_by_unit_one_step_each_no_retreat() {
    let sc = field_b1(0)
        .br("b2", "52nd Division", "0704")
        .cp("c1", "0504")
        .pools(&[4, 6], &[])
        .build();
    let mut s = begin_fire(&sc);
    put(&sc, &mut s, "b2", "0604");
    let ev = play_draws(&sc, &mut s, bombard("0604", 2), &[1, 0]);
    assert_eq!(ev, vec![placed(A, "0604", 6), placed(A, "0604", 4)]);
    // +10: die 1 De, die 3 D3: one step each.
    let ev = play_dice(&sc, &mut s, Command::Done, &[1, 3]);
    assert_eq!(
        ev,
        vec![
            revealed(&[marker_at(A, "0604", 6), marker_at(A, "0604", 4)]),
            fired(A, "0604", "b1", 10, OPEN, "+10", 1, De, true),
            step_lost("b1", 2),
            fired(A, "0604", "b2", 10, OPEN, "+10", 3, D3, true),
            step_lost("b2", 2),
        ]
    );
    assert_pending(&s, A, Phase::Combat);
    assert_eq!(loc_of(&sc, &s, "b1"), Location::Map(h("0604")));
    assert_eq!(loc_of(&sc, &s, "b2"), Location::Map(h("0604")));
}

/// 18.4: "Ignore "Ex," "No Effect," and all "A" results."
#[test]
fn rule_18_4_ex_and_attacker_results_ignored() {
    let sc = field_b1(0)
        .br("b2", "52nd Division", "0704")
        .cp("c1", "0504")
        .build();
    let mut s = begin_fire(&sc);
    put(&sc, &mut s, "b2", "0604");
    play_dice(&sc, &mut s, air("0604", false), &[]);
    // The air unit +2: "+2,+3", die 6 A2 and die 3 Ex: no effect.
    let ev = play_dice(&sc, &mut s, Command::Done, &[6, 3]);
    assert_eq!(
        ev,
        vec![
            revealed(&[air_at("0604")]),
            fired(A, "0604", "b1", 2, OPEN, "+2,+3", 6, A2, false),
            fired(A, "0604", "b2", 2, OPEN, "+2,+3", 3, Ex, false),
        ]
    );
    assert_eq!(steps_of(&sc, &s, "c1"), 2);
    assert_eq!(steps_of(&sc, &s, "b1"), 3);
    assert_pending(&s, A, Phase::Combat);
}

/// 18.4: "If a defender's hex is emptied by bombardment and an attack was declared
/// against the hex, the attacking units may advance."
#[test]
fn rule_18_4_hex_emptied_by_bombardment_attackers_may_advance() {
    let sc = field_b1(2).cp("c1", "0504").pools(&[6], &[]).build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    play_dice(&sc, &mut s, attack("0604", &["c1"]), &[]);
    let ev = play_dice(&sc, &mut s, Command::Done, &[2]);
    assert_eq!(
        ev,
        vec![
            revealed(&[marker_at(A, "0604", 6)]),
            fired(A, "0604", "b1", 6, OPEN, "+6,+7", 2, D2, true),
            eliminated("b1"),
            declared("0604", &[], &["c1"]),
            advance_offered(&["0604"], &["c1"]),
        ]
    );
    let ev = play_dice(&sc, &mut s, advance("c1", "0604"), &[]);
    assert_eq!(ev, vec![advanced("c1", "0504", &["0604"]), ended("0604")]);
}

/// 18.1, 18.4: the announced attacks are made once every bombardment is resolved, in
/// the order announced, each by its announced units still able to attack (here c2 is
/// eliminated by the British marker).
#[test]
fn rule_18_4_announced_attacks_made_in_order_by_their_survivors() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .with_last(|d| d.start_depleted = 1)
        .pools(&[4, 4], &[6])
        .build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0207", 1), &[0]);
    play_dice(&sc, &mut s, attack("0207", &["c9"]), &[]);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    play_dice(&sc, &mut s, attack("0604", &["c1", "c2"]), &[]);
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![planning(B)]);
    // The British +6 (their last marker: the step ends by itself). Dice: 0207 +4
    // "+4,+5" 6 "•"; 0604 +4 6 "•"; 0503 +6 "+6,+7" 2 D2, c2 eliminated. Then c9 (3)
    // against b9 (6): -3, 4 (A); c1 (3) against b1 (6): -3, 4 (A).
    let ev = play_draws(&sc, &mut s, bombard("0503", 1), &[0, 5, 5, 1, 3, 3]);
    assert_eq!(
        ev,
        vec![
            placed(B, "0503", 6),
            revealed(&[
                marker_at(A, "0207", 4),
                marker_at(A, "0604", 4),
                marker_at(B, "0503", 6),
            ]),
            fired(A, "0207", "b9", 4, OPEN, "+4,+5", 6, NoEffect, false),
            fired(A, "0604", "b1", 4, OPEN, "+4,+5", 6, NoEffect, false),
            fired(B, "0503", "c2", 6, OPEN, "+6,+7", 2, D2, true),
            eliminated("c2"),
            declared("0207", &["b9"], &["c9"]),
            resolved(3, 6, OPEN, "-3", 4, AStep, 0),
            step_lost("c9", 1),
            ended("0207"),
            declared("0604", &["b1"], &["c1"]),
            resolved(3, 6, OPEN, "-3", 4, AStep, 0),
            step_lost("c1", 1),
            ended("0604"),
            phase(B, Phase::Movement),
        ]
    );
}

/// 18.1: an announced attack whose every attacker was eliminated by the defender's
/// markers is not made.
#[test]
fn rule_18_4_announced_attack_without_attackers_is_not_made() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .with_last(|d| d.start_depleted = 1)
        .pools(&[4], &[6])
        .build();
    let mut s = begin_fire(&sc);
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    play_dice(&sc, &mut s, attack("0604", &["c1"]), &[]);
    assert_eq!(
        play_dice(&sc, &mut s, Command::Done, &[]),
        vec![planning(B)]
    );
    // +4 on b1: 6 "•"; +6 on c1: 1 D3, c1 eliminated.
    let ev = play_draws(&sc, &mut s, bombard("0504", 1), &[0, 5, 0]);
    assert_eq!(
        ev,
        vec![
            placed(B, "0504", 6),
            revealed(&[marker_at(A, "0604", 4), marker_at(B, "0504", 6)]),
            fired(A, "0604", "b1", 4, OPEN, "+4,+5", 6, NoEffect, false),
            fired(B, "0504", "c1", 6, OPEN, "+6,+7", 1, D3, true),
            eliminated("c1"),
            Event::AttackCancelled { hex: h("0604") },
        ]
    );
    assert_pending(&s, A, Phase::Combat);
    assert!(s.ex.announced.is_empty());
}

// ---------------------------------------------------------------------------------
// 18.5 Air unit.

/// 18.5: "It may be placed anywhere on the map, regardless of the proximity of friendly
/// units", "the strength is known to both players", and it is used once a game turn.
#[test]
fn rule_18_5_air_unit_bombards_anywhere_once_a_turn() {
    // b3 next to c1 keeps the step open (Kress could still be given).
    let sc = suez(12, 3)
        .cp("c1", "0102")
        .br("b1", "52nd Division", "1102")
        .br("b2", "52nd Division", "1002")
        .br("b3", "52nd Division", "0202")
        .start(Phase::Combat)
        .build();
    let mut s = begin_fire(&sc);
    let ev = play_dice(&sc, &mut s, air("1102", false), &[]);
    assert_eq!(ev, vec![air_placed("1102", false)]);
    assert_eq!(refused(&sc, &s, air("1002", false)).rule, "18.5");
    assert_eq!(refused(&sc, &s, air("1002", true)).rule, "18.5");
    // +2: die 1 D2.
    let ev = play_dice(&sc, &mut s, Command::Done, &[1]);
    assert_eq!(
        ev,
        vec![
            revealed(&[air_at("1102")]),
            fired(A, "1102", "b1", 2, OPEN, "+2,+3", 1, D2, true),
            step_lost("b1", 2),
        ]
    );
    assert_eq!(s.ex.spent, SidePair::new(vec![], vec![]));
    // Used for this game turn: the Central Powers have nothing to place as the
    // defender in the British combat phase.
    let ev = done_until(&sc, &mut s, british_combat());
    assert!(!ev.contains(&planning(A)), "{ev:?}");
}

/// 18.5: "Rather than bombarding, it may be flipped to its observation side. The
/// placement hex and all six adjacent hexes are now considered observed."
#[test]
fn rule_18_5_air_unit_observes_its_hex_and_six_neighbours() {
    let sc = suez(12, 5)
        .cp("c1", "0103")
        .br("b1", "52nd Division", "0903")
        .br("b2", "52nd Division", "1102")
        .br("b3", "52nd Division", "1203")
        .br("b4", "53rd Division", "1103")
        .pools(&[4, 4, 4, 4], &[])
        .start(Phase::Combat)
        .build();
    let mut s = begin_fire(&sc);
    assert_eq!(refused(&sc, &s, bombard("1102", 1)).rule, "18.2");
    let ev = play_dice(&sc, &mut s, air("1103", true), &[]);
    assert_eq!(ev, vec![air_placed("1103", true)]);
    assert_eq!(s.ex.air_observe, Some(h("1103")));
    assert_eq!(refused(&sc, &s, bombard("0903", 1)).rule, "18.2");
    let ev = play_draws(&sc, &mut s, bombard("1103", 1), &[0]);
    assert_eq!(ev, vec![placed(A, "1103", 4)]);
    let ev = play_draws(&sc, &mut s, bombard("1102", 1), &[0]);
    assert_eq!(ev, vec![placed(A, "1102", 4)]);
    let ev = play_draws(&sc, &mut s, bombard("1203", 1), &[0]);
    assert_eq!(ev, vec![placed(A, "1203", 4)]);
}

// ---------------------------------------------------------------------------------
// 18.3 Markers once a day; hidden values.

/// 18.3: "Each marker may be drawn once per three-turn day; once used, set it aside
/// until the morning turn of the following day": used on turn 2 (a morning), it is
/// back on turn 5, not before.
#[test]
fn rule_18_3_used_marker_returns_on_the_next_morning() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[4], &[])
        .start_turn(2)
        .start(Phase::Combat)
        .build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(2), &[phase(A, Phase::Combat), planning(A)]]),
    );
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    play_dice(&sc, &mut s, Command::Done, &[6]);
    assert_eq!(s.ex.pool.a, Vec::<u8>::new());
    assert_eq!(s.ex.spent.a, vec![4]);
    // The Central Powers' own fire support step of each turn (the air unit is there).
    let fire = Pending::FireSupport { side: A };
    for turn in [3, 4] {
        done_until_turn(&sc, &mut s, turn, fire.clone());
        assert_eq!(s.active, A);
        assert_eq!(refused(&sc, &s, bombard("0604", 1)).rule, "18.3");
    }
    let ev = done_until_turn(&sc, &mut s, 5, fire);
    assert_eq!(s.active, A);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 5 })
        .expect("turn 5 started");
    assert_eq!(
        ev[k..k + 2],
        cat(&[
            &turn_start(5),
            &[Event::FireSupportReturned {
                side: A,
                values: vec![4]
            }]
        ])[..]
    );
    assert_eq!(s.ex.pool.a, vec![4]);
    assert!(s.ex.spent.a.is_empty());
    let ev = play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    assert_eq!(ev, vec![placed(A, "0604", 4)]);
}

/// 18.3: "When a marker is drawn, keep it face down so neither player knows the actual
/// fire strength": both sides' streams and views hide placed and pooled values; the
/// air unit's strength is public (18.5).
#[test]
fn rule_18_3_drawn_markers_hidden_from_both_players() {
    let sc = field_b1(0)
        .cp("c1", "0504")
        .pools(&[4, 6], &[3])
        .params(|p| p.central_powers_reinforcement_markers = vec![marker(5)])
        .build();
    let mut s = begin_fire(&sc);
    let ev = play_draws(&sc, &mut s, bombard("0604", 1), &[1]);
    assert_eq!(ev, vec![placed(A, "0604", 6)]);
    play_dice(&sc, &mut s, air("0207", false), &[]);
    for side in [A, B] {
        assert_eq!(
            ev[0].redacted_for(side),
            Event::FireSupportPlaced {
                side: A,
                hex: h("0604"),
                value: None
            }
        );
        let added = Event::FireSupportAdded {
            side: A,
            count: 1,
            values: Some(vec![5]),
        };
        assert_eq!(
            added.redacted_for(side),
            Event::FireSupportAdded {
                side: A,
                count: 1,
                values: None
            }
        );
        let v = view(&sc, &s, side);
        assert!(v.ex.pool.a.is_empty() && v.ex.pool.b.is_empty());
        assert!(v.ex.reserve.a.is_empty() && v.ex.reserve.b.is_empty());
        assert_eq!(
            v.ex.fire_plan,
            vec![
                FirePlacement {
                    side: A,
                    hex: h("0604"),
                    value: None,
                    air: false
                },
                air_at("0207"),
            ]
        );
        assert_eq!(
            v.pools,
            Some(SidePair::new(
                PoolView {
                    pool: 1,
                    reserve: 1,
                    unrevealed: vec![4, 5, 6],
                },
                PoolView {
                    pool: 1,
                    reserve: 0,
                    unrevealed: vec![3],
                },
            ))
        );
    }
}

// ---------------------------------------------------------------------------------
// Legal listing while placing.

/// `legal_commands` in a fire support step lists exactly what `apply` accepts: every
/// listed command is accepted; of the candidate bombardments of every hex holding a
/// unit, exactly the listed ones are accepted.
#[test]
fn rule_18_1_legal_listing_matches_apply_while_placing() {
    let sc = suez(12, 5)
        .cp("c1", "0504")
        .cp("c2", "0503")
        .br("b1", "52nd Division", "0604")
        .br("b2", "52nd Division", "1103")
        .pools(&[3, 4], &[2])
        .start(Phase::Combat)
        .build();
    let mut s = begin_fire(&sc);
    let check = |s: &State| {
        let listed = legal_commands(&sc, s);
        for c in &listed {
            if let Err(e) = apply(&sc, s, c, &mut Script::new(&[0, 0])) {
                panic!("listed {c:?} refused: {e}");
            }
        }
        for hx in ["0504", "0503", "0604", "1103", "0704"] {
            for n in 1..=3 {
                let c = bombard(hx, n);
                let ok = apply(&sc, s, &c, &mut Script::new(&[0, 0])).is_ok();
                assert_eq!(listed.contains(&c), ok, "{c:?}: listed vs accepted");
            }
            for observe in [false, true] {
                let c = air(hx, observe);
                let ok = apply(&sc, s, &c, &mut no_rng()).is_ok();
                assert_eq!(listed.contains(&c), ok, "{c:?}: listed vs accepted");
            }
        }
        listed
    };
    let listed = check(&s);
    assert!(listed.contains(&bombard("0604", 2)));
    assert!(!listed.contains(&bombard("1103", 1)));
    assert_eq!(refused(&sc, &s, bombard("1103", 1)).rule, "18.2");
    assert!(!listed.iter().any(|c| matches!(c, Command::Attack { .. })));
    play_draws(&sc, &mut s, bombard("0604", 1), &[0]);
    let listed = check(&s);
    assert!(listed.contains(&attack("0604", &["c1", "c2"])));
    assert!(!listed.contains(&bombard("0604", 2)));
    play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(s.pending(), Pending::FireSupport { side: B });
    let listed = check(&s);
    assert!(listed.contains(&bombard("0504", 1)));
    assert!(!listed.iter().any(|c| matches!(
        c,
        Command::Attack { .. } | Command::Kress { .. } | Command::AirUnit { .. }
    )));
}
