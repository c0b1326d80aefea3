//! Rule-numbered tests: support fire (7.0-7.2), bombardment and ground combat
//! (8.0-8.2.4), retreat and displacement (8.3, 8.3.1), stiff resistance (8.4),
//! advance after combat (8.5), victory and combat odds.
//!
//! Every test builds a tiny map by hand and compares the exact events `apply`
//! returns, or for a refusal the exact rule number and the unchanged state.
use crate::common;
use common::*;
use fm_core::*;

const CLEAR: &str = "clear-desert-stream";
const WOODS: &str = "woods-bridge-canal-ditch";
const MARSH: &str = "marsh-town-broken";
const CITY: &str = "city-rough-river";
const MOUNTAIN: &str = "mountain";

use Side::{A, B};

// ---------------------------------------------------------------------------------
// Helpers: commands and events.

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

fn commit(yes: bool) -> Command {
    Command::SupportFire { commit: yes }
}

fn retreat(unit: &str, path: &[&str]) -> Command {
    Command::Retreat {
        unit: u(unit),
        path: hexes(path),
        displace: Vec::new(),
    }
}

fn retreat_displacing(unit: &str, path: &[&str], displace: &[&str]) -> Command {
    Command::Retreat {
        unit: u(unit),
        path: hexes(path),
        displace: hexes(displace),
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

fn choose(unit: &str) -> Command {
    Command::ChooseLoss { unit: u(unit) }
}

fn declared(hex: &str, defenders: &[&str], attackers: &[&str]) -> Event {
    Event::AttackDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        attackers: ids(attackers),
    }
}

fn bombardment_declared(hex: &str, defenders: &[&str], markers: u8) -> Event {
    Event::BombardmentDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        markers,
    }
}

/// A ground combat's CombatResolved (ground results always apply).
fn ground(attack: i32, defense: i32, line: &str, column: &str, die: u8, r: CrtResult) -> Event {
    Event::CombatResolved {
        kind: CombatKind::Ground,
        attack,
        defense,
        differential: attack - defense,
        line: line.into(),
        column: column.into(),
        die,
        result: r,
        applies: true,
        shift: 0,
    }
}

/// A bombardment's CombatResolved.
fn bombarded(
    attack: i32,
    defense: i32,
    line: &str,
    column: &str,
    die: u8,
    r: CrtResult,
    applies: bool,
) -> Event {
    Event::CombatResolved {
        kind: CombatKind::Bombardment,
        attack,
        defense,
        differential: attack - defense,
        line: line.into(),
        column: column.into(),
        die,
        result: r,
        applies,
        shift: 0,
    }
}

fn committed(side: Side, step: Option<u8>, value: u8) -> Event {
    Event::SupportCommitted {
        side,
        step,
        value: Some(value),
    }
}

fn passed(side: Side, step: u8) -> Event {
    Event::SupportPassed { side, step }
}

fn revealed(attacker: &[u8], defender: &[u8]) -> Event {
    Event::SupportRevealed {
        attacker: attacker.to_vec(),
        defender: defender.to_vec(),
    }
}

fn ended(hex: &str) -> Event {
    Event::CombatEnded { hex: h(hex) }
}

fn phase(side: Side, phase: Phase) -> Event {
    Event::PhaseStarted { side, phase }
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

fn displaced(unit: &str, from: &str, to: &str) -> Event {
    Event::UnitDisplaced {
        unit: u(unit),
        from: h(from),
        to: h(to),
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

fn step_lost(unit: &str, steps: u8) -> Event {
    Event::StepLost {
        unit: u(unit),
        steps,
    }
}

fn eliminated(unit: &str) -> Event {
    Event::UnitEliminated { unit: u(unit) }
}

fn loss_required(units: &[&str], reason: LossReason) -> Event {
    Event::LossRequired {
        side: A,
        candidates: ids(units),
        reason,
    }
}

fn stiff_event(unit: &str) -> Event {
    Event::StiffResistance {
        unit: u(unit),
        held: vec![],
    }
}

fn steps_of(s: &State, unit: &str) -> u8 {
    s.units.by_id(&u(unit)).unwrap().steps
}

fn loc_of(s: &State, unit: &str) -> Location {
    s.units.by_id(&u(unit)).unwrap().loc
}

/// A 4x4 map starting in side A's Combat Phase. 0202's neighbours include 0201,
/// 0102 and 0101.
fn small() -> Tiny {
    Tiny::new(4, 4).start(Phase::Combat)
}

// ---------------------------------------------------------------------------------
// 7.2 Support fire application.

/// 7.2 example: two 4-4-10 units attack a 2-3-8 unit (8); two "+2" markers make the
/// attack 12, one "+6" marker makes the defense 9.
#[test]
fn rule_7_2_example_two_4_4_10_with_two_plus_2_against_2_3_8_with_plus_6() {
    let sc = small()
        .mobile("a1", A, 4, 4, 10, "0201")
        .mobile("a2", A, 4, 4, 10, "0102")
        .mobile("b1", B, 2, 3, 8, "0202")
        .support(&[1, 2, 2, 3], &[3, 6], 4, 2)
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::new(&[]),
    );
    assert_eq!(ev, vec![declared("0202", &["b1"], &["a1", "a2"])]);
    // Step 1: the attacker draws index 1 of [1, 2, 2, 3]: a "+2".
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[1]));
    assert_eq!(ev, vec![committed(A, Some(0), 2)]);
    // Step 2: the defender draws index 1 of [3, 6]: the "+6".
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[1]));
    assert_eq!(ev, vec![committed(B, Some(1), 6)]);
    // Step 3: the attacker draws index 1 of [1, 2, 3]: the second "+2".
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[1]));
    assert_eq!(ev, vec![committed(A, Some(2), 2)]);
    // Step 4: the defender passes; step 5 reveals; 12 - 9 = +3, die 5.
    let ev = play(&sc, &mut s, commit(false), &mut Script::dice(&[5]));
    assert_eq!(
        ev,
        vec![
            passed(B, 3),
            revealed(&[2, 2], &[6]),
            ground(12, 9, CLEAR, "+2,+3", 5, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
    // Used markers are spent for the rest of the game turn.
    assert_eq!(s.support.a.available, vec![1, 3]);
    assert_eq!(s.support.a.used, vec![2, 2]);
    assert_eq!(s.support.b.available, vec![3]);
    assert_eq!(s.support.b.used, vec![6]);
}

// ---------------------------------------------------------------------------------
// 8.2.1(b) The five-step commitment.

fn one_on_one_with_markers(a: &[u8], b: &[u8]) -> Scenario {
    small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .mobile("b1", B, 1, 3, 6, "0202")
        .support(a, b, a.len() as u8, b.len() as u8)
        .build()
}

/// 8.2.1(b): attacker, defender, attacker, defender, then both reveal; a side may
/// pass at its step.
#[test]
fn rule_8_2_1_b_five_step_commitment_alternates_then_reveals() {
    let sc = one_on_one_with_markers(&[1, 2], &[3, 4]);
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    assert_eq!(s.pending(), Pending::SupportFire { side: A, step: 0 });
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    assert_eq!(ev, vec![committed(A, Some(0), 1)]);
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 1 });
    let ev = play(&sc, &mut s, commit(false), &mut Script::new(&[]));
    assert_eq!(ev, vec![passed(B, 1)]);
    assert_eq!(s.pending(), Pending::SupportFire { side: A, step: 2 });
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    assert_eq!(ev, vec![committed(A, Some(2), 2)]);
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 3 });
    // The defender places a second marker even though it passed before: index 1 of
    // [3, 4]. 4 + 1 + 2 = 7 against 3 + 4 = 7: differential 0, die 3.
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[1, 2]));
    assert_eq!(
        ev,
        vec![
            committed(B, Some(3), 4),
            revealed(&[1, 2], &[4]),
            ground(7, 7, CLEAR, "0", 3, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 7.2 / 8.2.1(b): markers are placed face down. The event carries the value; the
/// opponent's stream and view hide it (and the opponent's unused markers) until the
/// reveal.
#[test]
fn rule_8_2_1_b_face_down_value_hidden_from_opponent_until_revealed() {
    let sc = one_on_one_with_markers(&[1, 2], &[3, 4]);
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    assert_eq!(ev, vec![committed(A, Some(0), 1)]);
    assert_eq!(ev[0].redacted_for(A), committed(A, Some(0), 1));
    assert_eq!(
        ev[0].redacted_for(B),
        Event::SupportCommitted {
            side: A,
            step: Some(0),
            value: None
        }
    );
    let face_down = |value| CommittedMarker {
        side: A,
        value,
        revealed: false,
    };
    let vb = view(&sc, &s, B);
    assert_eq!(vb.combat.as_ref().unwrap().markers, vec![face_down(None)]);
    assert_eq!(vb.support.a.available, None);
    assert_eq!(vb.support.a.available_count, 1);
    assert_eq!(vb.support.b.available, Some(vec![3, 4]));
    let va = view(&sc, &s, A);
    assert_eq!(
        va.combat.as_ref().unwrap().markers,
        vec![face_down(Some(1))]
    );
    assert_eq!(va.support.a.available, Some(vec![2]));
    assert_eq!(va.support.b.available, None);
    assert_eq!(va.support.b.available_count, 2);

    // The defender's marker is hidden from the attacker in turn.
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[1]));
    assert_eq!(ev, vec![committed(B, Some(1), 4)]);
    assert_eq!(
        ev[0].redacted_for(A),
        Event::SupportCommitted {
            side: B,
            step: Some(1),
            value: None
        }
    );
    assert_eq!(ev[0].redacted_for(B), ev[0]);
    assert_eq!(
        view(&sc, &s, A).combat.unwrap().markers,
        vec![
            face_down(Some(1)),
            CommittedMarker {
                side: B,
                value: None,
                revealed: false
            }
        ]
    );

    // Step 3 and 4 passed: the reveal is public in both streams.
    play(&sc, &mut s, commit(false), &mut Script::new(&[]));
    let ev = play(&sc, &mut s, commit(false), &mut Script::dice(&[3]));
    assert_eq!(
        ev,
        vec![
            passed(B, 3),
            revealed(&[1], &[4]),
            ground(5, 7, CLEAR, "-2", 3, CrtResult::A3),
            retreat_required(A, &["a1"], 3),
        ]
    );
    for e in &ev {
        assert_eq!(e.redacted_for(A), *e);
        assert_eq!(e.redacted_for(B), *e);
    }
    let vb = view(&sc, &s, B);
    assert_eq!(
        vb.combat.unwrap().markers,
        vec![
            CommittedMarker {
                side: A,
                value: Some(1),
                revealed: true
            },
            CommittedMarker {
                side: B,
                value: Some(4),
                revealed: true
            }
        ]
    );
}

/// 8.2.1(b): a step whose side has no marker left is skipped automatically.
#[test]
fn rule_8_2_1_b_step_skipped_for_side_without_markers() {
    let sc = one_on_one_with_markers(&[2], &[1, 2]);
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    assert_eq!(ev, vec![committed(A, Some(0), 2)]);
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    assert_eq!(ev, vec![committed(B, Some(1), 1)]);
    // The attacker's second step is skipped: it has no marker left.
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 3 });
    // 4 + 2 = 6 against 3 + 1 + 2 = 6: differential 0, die 3.
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0, 2]));
    assert_eq!(
        ev,
        vec![
            committed(B, Some(3), 2),
            revealed(&[2], &[1, 2]),
            ground(6, 6, CLEAR, "0", 3, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );

    // An attacker without markers: the defender's step comes first.
    let sc = one_on_one_with_markers(&[], &[1]);
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 1 });
}

/// 8.2.1(b): with no markers on either side every step is skipped and the attack is
/// resolved as soon as it is declared (nothing to reveal).
#[test]
fn rule_8_2_1_b_no_markers_resolves_at_declaration() {
    let sc = one_on_one_with_markers(&[], &[]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[4]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(4, 3, CLEAR, "+1", 4, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 8.0 One attack per defender and per attacker, Mobile Combat Phase.

/// a1 (0201) and a2 (0102) are both adjacent to b1 (0202) and b2 (0101).
fn two_on_two() -> Tiny {
    small()
        .mobile("a1", A, 1, 1, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0102")
        .leg("b1", B, 1, 2, 4, "0202")
        .leg("b2", B, 1, 2, 4, "0101")
}

/// a1 attacks b1 at -1; die 2 is no effect.
fn a1_attacks_b1_no_effect(sc: &Scenario, s: &mut State) {
    let ev = play(sc, s, attack("0202", &["a1"]), &mut Script::dice(&[2]));
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(1, 2, CLEAR, "-1", 2, CrtResult::NoEffect),
            ended("0202"),
        ]
    );
}

/// 8.0: a defending unit can only suffer one attack in each phase.
#[test]
fn rule_8_0_defender_attacked_only_once_per_phase() {
    let sc = two_on_two().build();
    let mut s = start(&sc);
    a1_attacks_b1_no_effect(&sc, &mut s);
    assert_eq!(refused(&sc, &s, attack("0202", &["a2"])).rule, "8.0");
}

/// 8.2: a unit's strength is unitary: it attacks at most once per phase.
#[test]
fn rule_8_0_attacker_attacks_only_once_per_phase() {
    let sc = two_on_two().build();
    let mut s = start(&sc);
    a1_attacks_b1_no_effect(&sc, &mut s);
    assert_eq!(refused(&sc, &s, attack("0101", &["a1"])).rule, "8.2");
}

/// 4.1 / 8.2: a mobile unit that attacked in the Combat Phase cannot attack in the
/// Mobile Combat Phase; the defender may be attacked again in that phase (8.0).
#[test]
fn rule_8_0_mobile_unit_that_attacked_in_combat_phase_cannot_attack_in_mobile_combat() {
    let sc = two_on_two().build();
    let mut s = start(&sc);
    a1_attacks_b1_no_effect(&sc, &mut s);
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![phase(A, Phase::MobileMovement)]);
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![phase(A, Phase::MobileCombat)]);
    assert_eq!(refused(&sc, &s, attack("0202", &["a1"])).rule, "8.2");
    assert_eq!(refused(&sc, &s, attack("0202", &["a1", "a2"])).rule, "8.2");
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a2"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a2"]),
            ground(1, 2, CLEAR, "-1", 2, CrtResult::NoEffect),
            ended("0202"),
            phase(B, Phase::Movement),
        ]
    );
}

/// 4.1 / 2.3.2: only mobile units attack in the Mobile Combat Phase.
#[test]
fn rule_4_1_leg_units_cannot_attack_in_mobile_combat_phase() {
    let sc = small()
        .leg("l1", A, 4, 4, 4, "0201")
        .mobile("m1", A, 4, 4, 6, "0102")
        .leg("b1", B, 1, 2, 4, "0202")
        .start(Phase::MobileCombat)
        .build();
    let s = start(&sc);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::MobileCombat
        }
    );
    assert_eq!(refused(&sc, &s, attack("0202", &["l1"])).rule, "4.1");
    assert_eq!(refused(&sc, &s, attack("0202", &["m1", "l1"])).rule, "4.1");
}

/// 8.0: a unit may be the subject of an attack in each of the Bombardment and Combat
/// Phases.
#[test]
fn rule_8_0_bombarded_unit_may_be_attacked_in_combat_phase() {
    let sc = small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0202")
        .support(&[1], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    // 1 - 3 = -2, die 2: A2, which bombardment ignores.
    let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[0, 1]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 1),
            committed(A, None, 1),
            revealed(&[1], &[]),
            bombarded(1, 3, CLEAR, "-2", 2, CrtResult::A2, false),
            ended("0202"),
            phase(A, Phase::Combat),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[4]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(4, 3, CLEAR, "+1", 4, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 8.1 Bombardment.

fn bombard_map(a: &[u8]) -> Tiny {
    small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0202")
        .support(a, &[], a.len() as u8, 0)
}

/// 8.1 / 8.0: bombardment takes place only in the Bombardment Phase.
#[test]
fn rule_8_1_bombardment_only_in_bombardment_phase() {
    let sc = bombard_map(&[2]).start(Phase::Combat).build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, bombard("0202", 1)).rule, "8.1");
}

/// 8.0 / 8.2: ground combat takes place only in the Combat or Mobile Combat Phase.
#[test]
fn rule_8_2_ground_attack_not_in_bombardment_phase() {
    let sc = bombard_map(&[2]).start(Phase::Bombardment).build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, attack("0202", &["a1"])).rule, "8.2");
}

/// 8.1.2: a bombardment uses one or two markers.
#[test]
fn rule_8_1_2_bombardment_uses_one_or_two_markers() {
    let sc = bombard_map(&[1, 2, 3]).start(Phase::Bombardment).build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, bombard("0202", 3)).rule, "8.1.2");
    assert_eq!(refused(&sc, &s, bombard("0202", 0)).rule, "8.1.2");
}

/// 8.1.2: the bombarded hex must hold an enemy unit.
#[test]
fn rule_8_1_2_bombardment_target_must_hold_enemy_unit() {
    let sc = bombard_map(&[1, 2]).start(Phase::Bombardment).build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, bombard("0303", 1)).rule, "8.1.2");
    assert_eq!(refused(&sc, &s, bombard("0201", 1)).rule, "8.1.2");
}

/// 8.1: at most two markers may bombard the same hex during the same player turn.
#[test]
fn rule_8_1_at_most_two_markers_per_hex_per_player_turn() {
    let sc = Tiny::new(4, 4)
        .leg("b1", B, 1, 3, 4, "0202")
        .leg("b2", B, 1, 3, 4, "0404")
        .support(&[1, 2, 3], &[], 3, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    // Draws 1 then 2: 3 - 3 = 0, die 1: Ex, which bombardment ignores.
    let ev = play(
        &sc,
        &mut s,
        bombard("0202", 2),
        &mut Script::new(&[0, 0, 0]),
    );
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 2),
            committed(A, None, 1),
            committed(A, None, 2),
            revealed(&[1, 2], &[]),
            bombarded(3, 3, CLEAR, "0", 1, CrtResult::Ex, false),
            ended("0202"),
        ]
    );
    assert_eq!(s.bombarded.get(&h("0202")), Some(&2));
    assert_eq!(refused(&sc, &s, bombard("0202", 1)).rule, "8.1");
}

/// 8.0: a unit suffers at most one bombardment in the Bombardment Phase.
#[test]
fn rule_8_0_unit_bombarded_at_most_once_per_phase() {
    let sc = Tiny::new(4, 4)
        .leg("b1", B, 1, 3, 4, "0202")
        .leg("b2", B, 1, 3, 4, "0404")
        .support(&[1, 2, 3], &[], 3, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[2, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 1),
            committed(A, None, 3),
            revealed(&[3], &[]),
            bombarded(3, 3, CLEAR, "0", 1, CrtResult::Ex, false),
            ended("0202"),
        ]
    );
    assert_eq!(refused(&sc, &s, bombard("0202", 1)).rule, "8.0");
}

/// 8.1.2: the differential is the markers' total minus the defense strength.
#[test]
fn rule_8_1_2_differential_is_markers_minus_defense() {
    let sc = Tiny::new(6, 5)
        .leg("b1", B, 1, 2, 4, "0303")
        .support(&[3, 4], &[], 2, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    // Draws index 1 of [3, 4] (4), then the 3; 7 - 2 = +5, die 1: D2.
    let ev = play(
        &sc,
        &mut s,
        bombard("0303", 2),
        &mut Script::new(&[1, 0, 0]),
    );
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 2),
            committed(A, None, 4),
            committed(A, None, 3),
            revealed(&[4, 3], &[]),
            bombarded(7, 2, CLEAR, "+4,+5", 1, CrtResult::D2, true),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

/// 8.1.3: Ex is no result in a bombardment (neither the target nor an adjacent
/// bombarding-side unit loses a step).
#[test]
fn rule_8_1_3_ex_has_no_effect_in_bombardment() {
    let sc = small()
        .unit("a1", A, UnitKind::Mobile, &[(4, 4, 6), (2, 2, 6)], "0201")
        .unit("b1", B, UnitKind::Leg, &[(2, 3, 4), (1, 1, 4)], "0202")
        .support(&[3], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 1),
            committed(A, None, 3),
            revealed(&[3], &[]),
            bombarded(3, 3, CLEAR, "0", 1, CrtResult::Ex, false),
            ended("0202"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!((steps_of(&s, "a1"), steps_of(&s, "b1")), (2, 2));
}

/// 8.1.3: A2 and A3 are no result in a bombardment.
#[test]
fn rule_8_1_3_attacker_retreats_have_no_effect_in_bombardment() {
    for (defense, result) in [(4, CrtResult::A2), (5, CrtResult::A3)] {
        let sc = small()
            .mobile("a1", A, 4, 4, 6, "0201")
            .leg("b1", B, 1, defense, 4, "0202")
            .support(&[1], &[], 1, 0)
            .start(Phase::Bombardment)
            .build();
        let mut s = start(&sc);
        let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[0, 0]));
        let column = if defense == 4 { "-3" } else { "-4" };
        assert_eq!(
            ev,
            vec![
                bombardment_declared("0202", &["b1"], 1),
                committed(A, None, 1),
                revealed(&[1], &[]),
                bombarded(1, defense as i32, CLEAR, column, 1, result, false),
                ended("0202"),
                phase(A, Phase::Combat),
            ]
        );
    }
}

/// 8.1.3: Ae and A1 are no result in a bombardment (the system grid prints neither, so
/// the test puts them in the differential-0 column).
#[test]
fn rule_8_1_3_ae_and_a1_have_no_effect_in_bombardment() {
    for (die, result) in [(1, CrtResult::Ae), (2, CrtResult::A1)] {
        let mut t = small()
            .mobile("a1", A, 4, 4, 6, "0201")
            .leg("b1", B, 1, 3, 4, "0202")
            .support(&[3], &[], 1, 0)
            .start(Phase::Bombardment);
        t.data.crt.grid[0][5] = CrtResult::Ae;
        t.data.crt.grid[1][5] = CrtResult::A1;
        let sc = t.build();
        let mut s = start(&sc);
        let ev = play(
            &sc,
            &mut s,
            bombard("0202", 1),
            &mut Script::new(&[0, die - 1]),
        );
        assert_eq!(
            ev,
            vec![
                bombardment_declared("0202", &["b1"], 1),
                committed(A, None, 3),
                revealed(&[3], &[]),
                bombarded(3, 3, CLEAR, "0", die as u8, result, false),
                ended("0202"),
                phase(A, Phase::Combat),
            ]
        );
    }
}

fn attacker_step_map(adjacent: &[&str]) -> Scenario {
    let mut t = Tiny::new(6, 5)
        .leg("b1", B, 1, 6, 4, "0303")
        .support(&[1], &[], 1, 0)
        .start(Phase::Bombardment);
    for (k, hex) in adjacent.iter().enumerate() {
        let id = format!("a{}", k + 1);
        t = if k == 0 {
            t.unit(&id, A, UnitKind::Mobile, &[(2, 2, 6), (1, 1, 6)], hex)
        } else {
            t.mobile(&id, A, 1, 1, 6, hex)
        };
    }
    t.build()
}

/// 8.1.3: (A) applies in a bombardment only if a bombarding-side unit is adjacent to
/// the target.
#[test]
fn rule_8_1_3_attacker_step_ignored_without_adjacent_friendly_unit() {
    // a1 in 0101 is two hexes from 0303.
    let sc = attacker_step_map(&["0101"]);
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0303", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 1),
            committed(A, None, 1),
            revealed(&[1], &[]),
            bombarded(1, 6, CLEAR, "-5", 1, CrtResult::AStep, false),
            ended("0303"),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(steps_of(&s, "a1"), 2);
}

/// 8.1.3 / 8.2.4 (A): with a bombarding-side unit adjacent, that unit loses a step.
#[test]
fn rule_8_1_3_attacker_step_hits_adjacent_friendly_unit() {
    let sc = attacker_step_map(&["0203"]);
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0303", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 1),
            committed(A, None, 1),
            revealed(&[1], &[]),
            bombarded(1, 6, CLEAR, "-5", 1, CrtResult::AStep, true),
            step_lost("a1", 1),
            ended("0303"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 8.1.3 / 8.2.4 (A): with several adjacent units the bombarding player chooses.
#[test]
fn rule_8_1_3_attacker_step_owner_chooses_among_adjacent_units() {
    let sc = attacker_step_map(&["0203", "0204"]);
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0303", 1), &mut Script::new(&[0, 5]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 1),
            committed(A, None, 1),
            revealed(&[1], &[]),
            bombarded(1, 6, CLEAR, "-5", 6, CrtResult::AStep, true),
            loss_required(&["a1", "a2"], LossReason::AttackerStep),
        ]
    );
    assert_eq!(refused(&sc, &s, choose("b1")).rule, "8.2.4");
    let ev = play(&sc, &mut s, choose("a2"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![eliminated("a2"), ended("0303"), phase(A, Phase::Combat)]
    );
}

/// 8.1.2 / 8.1.4: bombardment uses the defender's in-hex terrain line, never hexside
/// terrain (here a river between a Clear target and the adjacent units: the River line
/// would read -2 on its first column, (A) on a 1; the Clear line reads its -2 column).
#[test]
fn rule_8_1_4_bombardment_uses_in_hex_terrain_only() {
    let sc = small()
        .side("0201", "0202", &["river"])
        .side("0102", "0202", &["river"])
        .mobile("a1", A, 1, 1, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0102")
        .leg("b1", B, 1, 3, 4, "0202")
        .support(&[1], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 1),
            committed(A, None, 1),
            revealed(&[1], &[]),
            bombarded(1, 3, CLEAR, "-2", 1, CrtResult::NoEffect, true),
            ended("0202"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 8.1.5: a unit retreating after bombardment must, if possible, end farther from the
/// closest enemy unit (a1, three hexes east, on the side of B's friendly edge).
#[test]
fn rule_8_1_5_bombardment_retreat_farther_from_closest_enemy() {
    let sc = Tiny::new(7, 5)
        .mobile("a1", A, 1, 1, 6, "0603")
        .leg("b1", B, 1, 1, 4, "0303")
        .support(&[5], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0303", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 1),
            committed(A, None, 5),
            revealed(&[5], &[]),
            bombarded(5, 1, CLEAR, "+4,+5", 1, CrtResult::D2, true),
            retreat_required(B, &["b1"], 2),
        ]
    );
    // Toward the friendly edge but closer to a1 (2 hexes), or no farther (3 hexes).
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0404", "0504"])).rule,
        "8.3"
    );
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0304", "0405"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0203", "0103"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0203", "0103"]),
            ended("0303"),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.1.5: with no enemy unit on the map, the unit retreats toward the closest friendly
/// unit (b2, three hexes south).
#[test]
fn rule_8_1_5_no_enemy_on_map_retreat_toward_closest_friend() {
    let sc = Tiny::new(7, 6)
        .leg("b1", B, 1, 1, 4, "0303")
        .leg("b2", B, 1, 1, 4, "0306")
        .support(&[5], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0303", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0303", &["b1"], 1),
            committed(A, None, 5),
            revealed(&[5], &[]),
            bombarded(5, 1, CLEAR, "+4,+5", 1, CrtResult::D2, true),
            retreat_required(B, &["b1"], 2),
        ]
    );
    // Closer to the friendly edge, but away from b2.
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0403", "0502"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0404", "0405"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0404", "0405"]),
            ended("0303"),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
            phase(A, Phase::MobileCombat),
            phase(B, Phase::Movement),
        ]
    );
}

/// A one-row map is a corridor: 0101-0201-0301-… each hex touching only its row
/// neighbours.
fn corridor(cols: u8) -> Tiny {
    Tiny::new(cols, 1)
}

/// 8.5: there is no advance after combat when conducting a bombardment, even with a
/// bombarding-side unit adjacent to the vacated hex.
#[test]
fn rule_8_5_no_advance_after_bombardment() {
    let sc = corridor(6)
        .mobile("a1", A, 1, 1, 6, "0201")
        .leg("b1", B, 1, 1, 4, "0301")
        .support(&[5], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0301", 1), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0301", &["b1"], 1),
            committed(A, None, 5),
            revealed(&[5], &[]),
            bombarded(5, 1, CLEAR, "+4,+5", 1, CrtResult::D2, true),
            retreat_required(B, &["b1"], 2),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0401", "0501"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401", "0501"]),
            ended("0301"),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.4: stiff resistance may be used against bombardment.
#[test]
fn rule_8_4_stiff_resistance_against_bombardment() {
    let sc = corridor(6)
        .mobile("a1", A, 1, 1, 6, "0201")
        .unit("b1", B, UnitKind::Leg, &[(1, 1, 4), (1, 1, 4)], "0301")
        .support(&[5], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, bombard("0301", 1), &mut Script::new(&[0, 0]));
    let ev = play(&sc, &mut s, stiff("b1"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            stiff_event("b1"),
            step_lost("b1", 1),
            ended("0301"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(loc_of(&s, "b1"), Location::Map(h("0301")));
}

// ---------------------------------------------------------------------------------
// 8.2.3 Fortifications.

/// 8.2.3: in a fortification hex the defense is doubled, each of the attacker's
/// markers is halved (rounded down), and the defender's markers are not halved.
#[test]
fn rule_8_2_3_fortification_doubles_defense_halves_attacker_support() {
    let sc = small()
        .terrain("0202", &["clear", "fortification"])
        .mobile("a1", A, 6, 6, 6, "0201")
        .leg("b1", B, 1, 2, 4, "0202")
        .support(&[3, 5], &[3], 2, 1)
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    play(&sc, &mut s, commit(true), &mut Script::new(&[0]));
    // 6 + 3/2 + 5/2 = 6 + 1 + 2 = 9 (not 6 + 8/2 = 10); 2 x 2 + 3 = 7.
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0, 4]));
    assert_eq!(
        ev,
        vec![
            committed(A, Some(2), 5),
            revealed(&[3, 5], &[3]),
            ground(9, 7, CLEAR, "+2,+3", 5, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.3: the fortification applies to any unit in the hex, so also against a
/// bombardment (markers halved, defense doubled).
#[test]
fn rule_8_2_3_fortification_applies_against_bombardment() {
    let sc = Tiny::new(4, 4)
        .terrain("0202", &["clear", "fortification"])
        .mobile("a1", A, 1, 1, 6, "0404")
        .leg("b1", B, 1, 2, 4, "0202")
        .support(&[5], &[], 1, 0)
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, bombard("0202", 1), &mut Script::new(&[0, 1]));
    assert_eq!(
        ev,
        vec![
            bombardment_declared("0202", &["b1"], 1),
            committed(A, None, 5),
            revealed(&[5], &[]),
            bombarded(2, 4, CLEAR, "-2", 2, CrtResult::A2, false),
            ended("0202"),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 8.2 Ground combat, 8.2.2 terrain lines.

/// 8.2: ground combat only between adjacent units.
#[test]
fn rule_8_2_attack_requires_adjacency() {
    let sc = small()
        .mobile("a1", A, 1, 1, 6, "0201")
        .leg("b2", B, 1, 2, 4, "0202")
        .leg("b1", B, 1, 2, 4, "0204")
        .build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, attack("0204", &["a1"])).rule, "8.2");
}

/// 8.2: the target hex must hold an enemy unit.
#[test]
fn rule_8_2_attack_target_must_hold_enemy_unit() {
    let sc = small()
        .mobile("a1", A, 1, 1, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0301")
        .leg("b1", B, 1, 2, 4, "0202")
        .build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, attack("0101", &["a1"])).rule, "8.2");
    assert_eq!(refused(&sc, &s, attack("0301", &["a1"])).rule, "8.2");
}

/// 8.2.1(a): once declared, an attack cannot be called off; the combat must be
/// resolved (support fire, then retreats) before the phase can end.
#[test]
fn rule_8_2_1_a_declared_attack_cannot_be_called_off() {
    let sc = small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0202")
        .support(&[1], &[], 1, 0)
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0202", &["a1"]), &mut Script::new(&[]));
    assert_eq!(refused(&sc, &s, Command::Done).rule, "8.2.1");
    // 4 + 1 - 3 = +2, die 1: D2; the retreat must be carried out too.
    let ev = play(&sc, &mut s, commit(true), &mut Script::new(&[0, 0]));
    assert_eq!(
        ev,
        vec![
            committed(A, Some(0), 1),
            revealed(&[1], &[]),
            ground(5, 3, CLEAR, "+2,+3", 1, CrtResult::D2),
            retreat_required(B, &["b1"], 2),
        ]
    );
    assert_eq!(refused(&sc, &s, Command::Done).rule, "8.2.1");
}

/// 8.2: no attack across a prohibited hexside.
#[test]
fn rule_8_2_no_attack_across_prohibited_hexside() {
    let sc = small()
        .side("0201", "0202", &["water"])
        .mobile("a1", A, 1, 1, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0102")
        .leg("b1", B, 1, 2, 4, "0202")
        .build();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, attack("0202", &["a1"])).rule, "8.2");
    assert_eq!(refused(&sc, &s, attack("0202", &["a2", "a1"])).rule, "8.2");
}

/// 8.2.2: only the defender's terrain counts (a1 stands on a mountain, b1 in woods).
#[test]
fn rule_8_2_2_terrain_line_is_the_defenders_hex() {
    let sc = small()
        .terrain("0201", &["mountain"])
        .terrain("0202", &["woods"])
        .unit("a1", A, UnitKind::Mobile, &[(1, 1, 6), (1, 1, 6)], "0201")
        .leg("b1", B, 1, 7, 4, "0202")
        .build();
    let mut s = start(&sc);
    // 1 - 7 = -6 resolves at the Woods line's first column, -4; die 2: (A).
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(1, 7, WOODS, "-4", 2, CrtResult::AStep),
            step_lost("a1", 1),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// b1 in a Clear hex 0202, attacked by a1 (0201) and a2 (0102) across the given
/// hexsides. At 2 - 4 = -2 and die 1 the lines differ: Clear reads its -2 column
/// (grid 4: •), Woods/Bridge/Canal/Ditch its -2 (grid 3: A2), City/Rough/River its
/// first column (grid 1: (A)).
fn line_case(side1: &[&str], side2: &[&str], defense: u8, die: u8) -> Vec<Event> {
    let mut t = small();
    if !side1.is_empty() {
        t = t.side("0201", "0202", side1);
    }
    if !side2.is_empty() {
        t = t.side("0102", "0202", side2);
    }
    let sc = t
        .mobile("a1", A, 1, 1, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0102")
        .leg("b1", B, 1, defense, 4, "0202")
        .build();
    let mut s = start(&sc);
    play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::dice(&[die]),
    )
}

/// 8.2.2: "Defending units do not benefit from river or ditch hexsides unless all the
/// attacking units are attacking that defending unit across a non-bridged river or
/// ditch hexside": a Clear-hex defender gains the River line only then.
#[test]
fn rule_8_2_2_river_line_only_if_every_attacker_crosses_river() {
    // Both across the river: -2 is the River line's first column; die 1: (A).
    assert_eq!(
        line_case(&["river"], &["river"], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CITY, "-2", 1, CrtResult::AStep),
            loss_required(&["a1", "a2"], LossReason::AttackerStep),
        ]
    );
    // a2 does not cross: the Clear line's -2 column; die 1: no effect.
    assert_eq!(
        line_case(&["river"], &[], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CLEAR, "-2", 1, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.2: "If all units are attacking across a river and at least one of the units is
/// attacking across a bridged hexside, use the bridged line": the Bridge line (-4)
/// replaces the River line (-2), so the defender gains less than across the river
/// alone but more than in the open; a bridge with an attacker not crossing the river
/// is no river attack at all.
#[test]
fn rule_8_2_2_bridge_line_if_all_cross_river_and_one_by_bridge() {
    // -2 on the Bridge line is its third column (grid 3); die 1: A2.
    assert_eq!(
        line_case(&["river", "bridge"], &["river"], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, WOODS, "-2", 1, CrtResult::A2),
            retreat_required(A, &["a1", "a2"], 2),
        ]
    );
    assert_eq!(
        line_case(&["river", "bridge"], &[], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CLEAR, "-2", 1, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.2 / CRT: ditch, canal and stream hexsides (river-like lines) count only if
/// every attacker crosses one. The Stream line is the Clear line, so it changes nothing.
#[test]
fn rule_8_2_2_ditch_canal_stream_lines_only_if_every_attacker_crosses() {
    assert_eq!(
        line_case(&["ditch"], &["ditch"], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, WOODS, "-2", 1, CrtResult::A2),
            retreat_required(A, &["a1", "a2"], 2),
        ]
    );
    assert_eq!(
        line_case(&["stream"], &["stream"], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CLEAR, "-2", 1, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(
        line_case(&["canal"], &[], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CLEAR, "-2", 1, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.2: the defender benefits from river or ditch hexsides when all attackers attack
/// across "a non-bridged river or ditch hexside": a1 across a river and a2 across a
/// ditch qualify (R-8.2.2b), and of the two lines crossed the defender gets the more
/// beneficial: at -2 the River line's first column ((A) on a 1) rather than the Ditch
/// line's third (A2).
#[test]
fn rule_8_2_2_river_and_ditch_mix_counts_as_every_attacker_crossing() {
    assert_eq!(
        line_case(&["river"], &["ditch"], 4, 1),
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 4, CITY, "-2", 1, CrtResult::AStep),
            loss_required(&["a1", "a2"], LossReason::AttackerStep),
        ]
    );
}

/// 8.2.2 Important: several terrains in the hex: "use the terrain most beneficial to
/// the defender" (R-8.2.2a): the line whose column is leftmost at the attack's
/// differential. Rough (-2) and Town (-3): at 0 Rough reads its third column (grid 3,
/// A2 on a 1), Town its fourth (grid 4, no effect), so Rough.
#[test]
fn rule_8_2_2_several_terrains_use_line_most_beneficial_to_defender() {
    let sc = small()
        .terrain("0202", &["town", "rough"])
        .mobile("a1", A, 6, 1, 6, "0201")
        .leg("b1", B, 1, 6, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(6, 6, CITY, "0", 1, CrtResult::A2),
            retreat_required(A, &["a1"], 2),
        ]
    );
}

/// R-8.2.2a tie: where two lines read the same grid column (at -5 both Rough and Town
/// read their first column), the line with the lower cap (Rough: its +10 over grid
/// column 9, Town's over 10) is the more beneficial, whatever the scenario order.
#[test]
fn rule_8_2_2_equal_columns_go_to_the_line_with_the_lower_cap() {
    let sc = small()
        .terrain("0202", &["town", "rough"])
        .mobile("a1", A, 1, 1, 6, "0201")
        .leg("b1", B, 1, 6, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(ev[1], ground(1, 6, CITY, "-2", 3, CrtResult::AStep));
}

/// The CRT as a column-shift table (8.2.1(d), the CRT notes, README "How a terrain line
/// reads the grid"): each system line labels the grid from column 1, so the same
/// differential reads a different column on each line, and a line with a higher first
/// differential caps the best result lower. b1 (defense 8) in a hex of each line's
/// terrain, attacked at -7 (below every line: its first column), 0, +4 and +12 (above
/// +10: the line's "+10"); die 1 each time, the grid's first row
/// (A) A3 A2 • Ex Ex D2 D2 D2 D3 De De.
#[test]
fn rule_8_2_1_d_each_system_line_reads_the_grid_from_the_left() {
    use CrtResult::*;
    type Reads = [(&'static str, CrtResult); 4];
    let cases: [(&str, &str, Reads); 5] = [
        (
            "mountain",
            MOUNTAIN,
            [("0", AStep), ("0", AStep), ("+4,+5", NoEffect), ("+10", D2)],
        ),
        (
            "rough",
            CITY,
            [("-2", AStep), ("0", A2), ("+4,+5", Ex), ("+10", D2)],
        ),
        (
            "marsh",
            MARSH,
            [("-3", AStep), ("0", NoEffect), ("+4,+5", D2), ("+10", D3)],
        ),
        (
            "woods",
            WOODS,
            [("-4", AStep), ("0", Ex), ("+4,+5", D2), ("+10", De)],
        ),
        (
            "clear",
            CLEAR,
            [("-5", AStep), ("0", Ex), ("+4,+5", D2), ("+10", De)],
        ),
    ];
    for (terrain, line, expect) in cases {
        for (attack_strength, (column, result)) in [1u8, 8, 12, 20].into_iter().zip(expect) {
            let sc = small()
                .terrain("0202", &[terrain])
                .mobile("a1", A, attack_strength, 1, 6, "0201")
                .leg("b1", B, 1, 8, 4, "0202")
                .build();
            let mut s = start(&sc);
            let ev = play(
                &sc,
                &mut s,
                attack("0202", &["a1"]),
                &mut Script::dice(&[1]),
            );
            assert_eq!(
                ev[1],
                ground(attack_strength as i32, 8, line, column, 1, result),
                "{terrain} at {}",
                attack_strength as i32 - 8
            );
        }
    }
}

/// CRT: Mountain's first differential 0 stands over grid column 1 (the Suez copy of
/// the table); a scenario may set it over column 2 (`first_column`), the reading the
/// Vimy copy's "no printed entry in the first column" allows. At 0 the line then reads
/// grid column 2 (A3 on a 1) and its "+10" grid column 8 (D2).
#[test]
fn rule_crt_mountain_line_over_column_two_is_data() {
    for (a, column, result) in [(8u8, "0", CrtResult::A3), (20, "+10", CrtResult::D2)] {
        let mut t = small()
            .terrain("0202", &["mountain"])
            .mobile("a1", A, a, 1, 6, "0201")
            .leg("b1", B, 1, 8, 4, "0202");
        let m = t
            .data
            .crt
            .lines
            .iter_mut()
            .find(|l| l.id == MOUNTAIN)
            .unwrap();
        m.first_column = 2;
        let sc = t.build();
        let mut s = start(&sc);
        let ev = play(
            &sc,
            &mut s,
            attack("0202", &["a1"]),
            &mut Script::dice(&[1]),
        );
        assert_eq!(ev[1], ground(a as i32, 8, MOUNTAIN, column, 1, result));
    }
}

/// CRT note: attacks at less than the lowest differential are resolved at the lowest.
#[test]
fn rule_crt_note_below_lowest_differential_resolves_at_first_column() {
    let sc = small()
        .unit("a1", A, UnitKind::Mobile, &[(1, 1, 6), (1, 1, 6)], "0201")
        .leg("b1", B, 1, 9, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(1, 9, CLEAR, "-5", 1, CrtResult::AStep),
            step_lost("a1", 1),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// CRT note: attacks at greater than +10 are resolved as +10 attacks.
#[test]
fn rule_crt_note_above_plus_10_resolves_at_plus_10() {
    let sc = small()
        .mobile("a1", A, 16, 1, 6, "0201")
        .leg("b1", B, 1, 2, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(16, 2, CLEAR, "+10", 3, CrtResult::D3),
            retreat_required(B, &["b1"], 3),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 8.2.4 Combat results.

fn results_map(a1: &[(u8, u8, u8)], a2: Option<u8>, b1: &[(u8, u8, u8)]) -> Scenario {
    let mut t = small().unit("a1", A, UnitKind::Mobile, a1, "0201");
    if let Some(att) = a2 {
        t = t.mobile("a2", A, att, 1, 6, "0102");
    }
    t.unit("b1", B, UnitKind::Leg, b1, "0202").build()
}

/// 8.2.4 De: the defending unit is eliminated, a full-strength two-step unit too (not
/// depleted); no advance after a De (8.5).
#[test]
fn rule_8_2_4_de_eliminates_full_strength_two_step_defender() {
    let sc = results_map(&[(12, 1, 6)], None, &[(2, 2, 4), (1, 1, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(12, 2, CLEAR, "+10", 2, CrtResult::De),
            eliminated("b1"),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(loc_of(&s, "b1"), Location::Eliminated);
}

/// 8.2.4 D2: the defending unit must retreat two hexes.
#[test]
fn rule_8_2_4_d2_defender_retreats_two_hexes() {
    let sc = results_map(&[(4, 1, 6)], None, &[(1, 3, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(4, 3, CLEAR, "+1", 1, CrtResult::D2),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

/// 8.2.4 D3: the defending unit must retreat three hexes.
#[test]
fn rule_8_2_4_d3_defender_retreats_three_hexes() {
    let sc = results_map(&[(9, 1, 6)], None, &[(1, 3, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(9, 3, CLEAR, "+6,+7", 1, CrtResult::D3),
            retreat_required(B, &["b1"], 3),
        ]
    );
}

/// 8.2.4 Ex: the defender and one attacker lose a step; among several attackers the
/// attacker chooses. No advance after an Ex (8.5).
#[test]
fn rule_8_2_4_ex_attacker_chooses_which_attacker_loses_step() {
    let sc = results_map(&[(4, 1, 6)], Some(4), &[(2, 8, 4), (1, 4, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(8, 8, CLEAR, "0", 1, CrtResult::Ex),
            step_lost("b1", 1),
            loss_required(&["a1", "a2"], LossReason::Exchange),
        ]
    );
    assert_eq!(refused(&sc, &s, choose("b1")).rule, "8.2.4");
    let ev = play(&sc, &mut s, choose("a2"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            eliminated("a2"),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.4 Ex with one attacker: both two-step units flip to their reduced side.
#[test]
fn rule_8_2_4_ex_two_step_units_lose_one_step() {
    let sc = results_map(&[(4, 4, 6), (2, 2, 6)], None, &[(4, 4, 4), (2, 2, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(4, 4, CLEAR, "0", 2, CrtResult::Ex),
            step_lost("b1", 1),
            step_lost("a1", 1),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.4 / 8.3 Important: a three-step unit loses one step per loss.
#[test]
fn rule_8_2_4_three_step_unit_loses_one_step_per_loss() {
    let sc = results_map(
        &[(6, 4, 6), (3, 2, 6)],
        None,
        &[(6, 6, 4), (4, 4, 4), (2, 2, 4)],
    );
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(6, 6, CLEAR, "0", 1, CrtResult::Ex),
            step_lost("b1", 2),
            step_lost("a1", 1),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.4 A1: all attacking units retreat one hex (the system grid prints no A1, so
/// the test puts one in the differential-0 column).
#[test]
fn rule_8_2_4_a1_all_attackers_retreat_one_hex() {
    let mut t = small()
        .mobile("a1", A, 2, 1, 6, "0201")
        .mobile("a2", A, 2, 1, 6, "0102")
        .leg("b1", B, 1, 4, 4, "0202");
    t.data.crt.grid[1][5] = CrtResult::A1;
    let sc = t.build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(4, 4, CLEAR, "0", 2, CrtResult::A1),
            retreat_required(A, &["a1", "a2"], 1),
        ]
    );
}

/// 8.2.4 A2 / A3: all attacking units retreat two / three hexes.
#[test]
fn rule_8_2_4_a2_a3_all_attackers_retreat() {
    for (defense, column, result, n) in [(5, "-3", CrtResult::A2, 2), (6, "-4", CrtResult::A3, 3)] {
        let sc = results_map(&[(1, 1, 6)], Some(1), &[(1, defense, 4)]);
        let mut s = start(&sc);
        let ev = play(
            &sc,
            &mut s,
            attack("0202", &["a1", "a2"]),
            &mut Script::dice(&[1]),
        );
        assert_eq!(
            ev,
            vec![
                declared("0202", &["b1"], &["a1", "a2"]),
                ground(2, defense as i32, CLEAR, column, 1, result),
                retreat_required(A, &["a1", "a2"], n),
            ]
        );
    }
}

/// 8.2.4 (A): one attacking unit is reduced; the attacker chooses which.
#[test]
fn rule_8_2_4_attacker_step_attacker_chooses() {
    let sc = results_map(&[(1, 1, 6), (1, 1, 6), (1, 1, 6)], Some(1), &[(1, 7, 4)]);
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::dice(&[4]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(2, 7, CLEAR, "-5", 4, CrtResult::AStep),
            loss_required(&["a1", "a2"], LossReason::AttackerStep),
        ]
    );
    let ev = play(&sc, &mut s, choose("a1"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            step_lost("a1", 2),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.2.4 Ae: all attacking units are eliminated, two-step units included (the system
/// grid prints no Ae, so the test puts one in the differential-0 column).
#[test]
fn rule_8_2_4_ae_eliminates_all_attackers() {
    let mut t = small()
        .unit("a1", A, UnitKind::Mobile, &[(2, 2, 6), (1, 1, 6)], "0201")
        .mobile("a2", A, 2, 1, 6, "0102")
        .leg("b1", B, 1, 4, 4, "0202");
    t.data.crt.grid[0][5] = CrtResult::Ae;
    let sc = t.build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1", "a2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1", "a2"]),
            ground(4, 4, CLEAR, "0", 1, CrtResult::Ae),
            eliminated("a1"),
            eliminated("a2"),
            ended("0202"),
            phase(A, Phase::MobileMovement),
            phase(A, Phase::MobileCombat),
            phase(B, Phase::Movement),
        ]
    );
}

/// 8.2.4 •: no effect.
#[test]
fn rule_8_2_4_no_effect() {
    let sc = results_map(&[(1, 1, 6)], None, &[(1, 3, 4)]);
    let mut s = start(&sc);
    let before = s.units.clone();
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(1, 3, CLEAR, "-2", 1, CrtResult::NoEffect),
            ended("0202"),
            phase(A, Phase::MobileMovement),
        ]
    );
    for (x, y) in before.iter().zip(&s.units) {
        assert_eq!((x.loc, x.steps), (y.loc, y.steps));
    }
}

// ---------------------------------------------------------------------------------
// 8.3 Retreat.

/// 6x5 map: a1 (0203) attacks b1 (0303) at +1; die 1 gives D2. a1's ZOC covers 0302
/// and 0204; B's friendly edge is column 06.
fn retreat_map() -> Tiny {
    Tiny::new(6, 5)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0203")
}

fn d2_on_b1(sc: &Scenario, s: &mut State, hex: &str) {
    let ev = play(sc, s, attack(hex, &["a1"]), &mut Script::dice(&[1]));
    assert_eq!(
        ev,
        vec![
            declared(hex, &["b1"], &["a1"]),
            ground(4, 3, CLEAR, "+1", 1, CrtResult::D2),
            retreat_required(B, &["b1"], 2),
        ]
    );
}

/// 8.3: the unit retreats exactly the number of hexes the result requires.
#[test]
fn rule_8_3_retreat_exact_distance() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(refused(&sc, &s, retreat("b1", &["0403"])).rule, "8.3");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0403", "0503", "0603"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0403", "0503"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0403", "0503"]),
            advance_offered(&["0303", "0403"], &["a1"]),
        ]
    );
}

/// 8.3: each hex of the retreat takes the unit farther from its combat hex.
#[test]
fn rule_8_3_each_retreat_hex_farther_from_combat_hex() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    // 0404 is adjacent to 0303: the second hex is no farther than the first.
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0403", "0404"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0404", "0504"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0404", "0504"]),
            advance_offered(&["0303", "0404"], &["a1"]),
        ]
    );
}

/// 8.3: never into or through an enemy unit's hex or a hex in an EZOC.
#[test]
fn rule_8_3_retreat_never_into_enemy_or_ezoc_hex() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0302", "0402"])).rule,
        "8.3"
    );
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0204", "0205"])).rule,
        "8.3"
    );
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0203", "0103"])).rule,
        "8.3"
    );
}

/// 8.3: never into prohibited terrain; a retreat cut short loses a step in the last
/// hex reached (8.3 partial retreat).
#[test]
fn rule_8_3_retreat_never_into_prohibited_hex() {
    let sc = corridor(5)
        .terrain("0501", &["sea"])
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0301")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0401", "0501"])).rule,
        "8.3"
    );
    let ev = play(&sc, &mut s, retreat("b1", &["0401"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401"]),
            step_lost("b1", 1),
            advance_offered(&["0301"], &["a1"]),
        ]
    );
}

/// 8.3: never off the map.
#[test]
fn rule_8_3_retreat_never_off_map() {
    let sc = corridor(4)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0301")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0401", "0501"])).rule,
        "8.3"
    );
}

/// 8.3: a unit that can retreat at least one hex but not the full distance is
/// depleted in the last hex; a one-step unit is eliminated there.
#[test]
fn rule_8_3_partial_retreat_depletes_in_last_hex() {
    let sc = corridor(4)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0301")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    let ev = play(&sc, &mut s, retreat("b1", &["0401"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401"]),
            eliminated("b1"),
            advance_offered(&["0301", "0401"], &["a1"]),
        ]
    );
}

/// 8.3: a unit that cannot retreat at least one hex is eliminated (an empty retreat);
/// this does not nullify the retreat, so the attacker may advance into the hex.
#[test]
fn rule_8_3_retreat_blocked_eliminates() {
    let sc = corridor(3)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0301")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    assert_eq!(refused(&sc, &s, retreat("b1", &["0401"])).rule, "8.3");
    let ev = play(&sc, &mut s, retreat("b1", &[]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &[]),
            eliminated("b1"),
            advance_offered(&["0301"], &["a1"]),
        ]
    );
}

/// 8.3: a unit that can retreat may not accept elimination instead.
#[test]
fn rule_8_3_possible_retreat_cannot_be_refused() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(refused(&sc, &s, retreat("b1", &[])).rule, "8.3");
}

/// 8.3 / 8.4: a unit with no retreat may declare stiff resistance instead of being
/// eliminated: a two-step unit survives on its reduced side.
#[test]
fn rule_8_4_stiff_resistance_instead_of_blocked_retreat() {
    let sc = corridor(3)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0301")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    let ev = play(&sc, &mut s, stiff("b1"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            stiff_event("b1"),
            step_lost("b1", 1),
            ended("0301"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(loc_of(&s, "b1"), Location::Map(h("0301")));
}

/// 8.3 Important: a friendly unit in a hex does not negate the EZOC there (b2 stands
/// in 0401, in a2's ZOC), so b1 cannot retreat at all and is eliminated.
#[test]
fn rule_8_3_friendly_unit_does_not_negate_ezoc() {
    let sc = corridor(6)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0501")
        .leg("b1", B, 1, 3, 4, "0301")
        .leg("b2", B, 1, 3, 4, "0401")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    assert_eq!(refused(&sc, &s, retreat("b1", &["0401"])).rule, "8.3");
    let ev = play(&sc, &mut s, retreat("b1", &[]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &[]),
            eliminated("b1"),
            advance_offered(&["0301"], &["a1"]),
        ]
    );
}

/// 8.3: if possible, retreat along a path of vacant hexes rather than through a
/// friendly unit (b2 in 0403).
#[test]
fn rule_8_3_prefer_vacant_path_over_friendly_occupied() {
    let sc = retreat_map()
        .leg("b1", B, 1, 3, 4, "0303")
        .leg("b2", B, 1, 3, 4, "0403")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0403", "0502"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0404", "0504"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0404", "0504"]),
            advance_offered(&["0303", "0404"], &["a1"]),
        ]
    );
}

/// 8.3: through a friendly unit's hex when no vacant route exists (no displacement
/// when only passing through, 8.3.1).
#[test]
fn rule_8_3_through_friendly_unit_when_no_vacant_path() {
    let sc = corridor(6)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0301")
        .leg("b2", B, 1, 3, 4, "0401")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0401", "0501"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401", "0501"]),
            // b2 stands in 0401: the path of retreat ends before it (8.5: vacant hexes).
            advance_offered(&["0301"], &["a1"]),
        ]
    );
    assert_eq!(loc_of(&s, "b2"), Location::Map(h("0401")));
    // The advance may not pass the enemy unit still in 0401.
    assert_eq!(refused(&sc, &s, advance("a1", "0501")).rule, "8.5");
}

/// 8.3: a unit should end its retreat closer to its friendly map edge (column 06).
#[test]
fn rule_8_3_prefer_ending_closer_to_friendly_edge() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0304", "0305"])).rule,
        "8.3"
    );
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0304", "0205"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0304", "0405"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0304", "0405"]),
            advance_offered(&["0303", "0304"], &["a1"]),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 8.3.1 Displacement.

/// 8.3.1: when the only final hex holds a friendly unit, that unit is displaced one
/// hex and the retreating unit takes its place.
#[test]
fn rule_8_3_1_displace_when_only_final_hex_holds_friend() {
    let sc = corridor(6)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0301")
        .leg("b2", B, 1, 3, 4, "0501")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    // Units may not end stacked.
    assert_eq!(
        refused(&sc, &s, retreat("b1", &["0401", "0501"])).rule,
        "8.3"
    );
    let ev = play(
        &sc,
        &mut s,
        retreat_displacing("b1", &["0401", "0501"], &["0601"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            displaced("b2", "0501", "0601"),
            retreated("b1", "0301", &["0401", "0501"]),
            // b2 stands in 0401: the path of retreat ends before it (8.5: vacant hexes).
            advance_offered(&["0301", "0401"], &["a1"]),
        ]
    );
}

/// 8.3.1: no displacement while an eligible vacant hex is available.
#[test]
fn rule_8_3_1_no_displacement_when_vacant_hex_available() {
    let sc = retreat_map()
        .leg("b1", B, 1, 3, 4, "0303")
        .leg("b2", B, 1, 3, 4, "0503")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    assert_eq!(
        refused(
            &sc,
            &s,
            retreat_displacing("b1", &["0403", "0503"], &["0603"])
        )
        .rule,
        "8.3"
    );
}

/// 8.3.1: a displaced unit may displace another friendly unit in turn.
#[test]
fn rule_8_3_1_displacement_chains() {
    let sc = corridor(7)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 3, 4, "0301")
        .leg("b2", B, 1, 3, 4, "0501")
        .leg("b3", B, 1, 3, 4, "0601")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    let ev = play(
        &sc,
        &mut s,
        retreat_displacing("b1", &["0401", "0501"], &["0601", "0701"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            displaced("b3", "0601", "0701"),
            displaced("b2", "0501", "0601"),
            retreated("b1", "0301", &["0401", "0501"]),
            // b2 stands in 0401: the path of retreat ends before it (8.5: vacant hexes).
            advance_offered(&["0301", "0401"], &["a1"]),
        ]
    );
}

/// 8.3.1: displacement is voluntary: the retreating unit may deplete instead,
/// stopping in the last hex it can reach.
#[test]
fn rule_8_3_1_deplete_instead_of_displacing() {
    let sc = corridor(6)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0301")
        .leg("b2", B, 1, 3, 4, "0501")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    let ev = play(&sc, &mut s, retreat("b1", &["0401"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401"]),
            step_lost("b1", 1),
            advance_offered(&["0301"], &["a1"]),
        ]
    );
    assert_eq!(loc_of(&s, "b2"), Location::Map(h("0501")));
}

/// 8.3.1: an attacker's displaced unit may not attack during the rest of the turn.
/// 5x2 map, sea in 0302 and 0102: a1's A2 retreat from 0301 can only end in 0101,
/// where a3 stands.
#[test]
fn rule_8_3_1_displaced_attacker_unit_may_not_attack_that_turn() {
    let sc = Tiny::new(5, 2)
        .terrain("0302", &["sea"])
        .terrain("0102", &["sea"])
        .start(Phase::Combat)
        .leg("a1", A, 1, 1, 4, "0301")
        .mobile("a3", A, 1, 1, 6, "0101")
        .mobile("a4", A, 1, 1, 6, "0402")
        .leg("b1", B, 1, 4, 4, "0401")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0401", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0401", &["b1"], &["a1"]),
            ground(1, 4, CLEAR, "-3", 1, CrtResult::A2),
            retreat_required(A, &["a1"], 2),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        retreat_displacing("a1", &["0201", "0101"], &["0202"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            displaced("a3", "0101", "0202"),
            retreated("a1", "0301", &["0201", "0101"]),
            ended("0401"),
            phase(A, Phase::MobileMovement),
        ]
    );
    // a3 moves next to b1 (mobile into EZOC: half of 6 plus 1 for clear).
    let ev = play(&sc, &mut s, mv("a3", &["0301"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![Event::UnitMoved {
            unit: u("a3"),
            from: Some(h("0202")),
            path: vec![h("0301")],
            mp: Mp::whole(4),
        }]
    );
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![phase(A, Phase::MobileCombat)]);
    assert_eq!(refused(&sc, &s, attack("0401", &["a3"])).rule, "8.3.1");
    assert_eq!(
        refused(&sc, &s, attack("0401", &["a4", "a3"])).rule,
        "8.3.1"
    );
}

/// 8.3.1: displacement cannot be into an EZOC (a2's ZOC covers 0601): with no other
/// hex for b2, b1 may only deplete instead.
#[test]
fn rule_8_3_1_no_displacement_into_ezoc() {
    let sc = corridor(7)
        .start(Phase::Combat)
        .mobile("a1", A, 4, 4, 6, "0201")
        .mobile("a2", A, 1, 1, 6, "0701")
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0301")
        .leg("b2", B, 1, 3, 4, "0501")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0301");
    assert_eq!(
        refused(
            &sc,
            &s,
            retreat_displacing("b1", &["0401", "0501"], &["0601"])
        )
        .rule,
        "8.3"
    );
    let ev = play(&sc, &mut s, retreat("b1", &["0401"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0301", &["0401"]),
            step_lost("b1", 1),
            advance_offered(&["0301"], &["a1"]),
        ]
    );
}

/// 8.3.1: deplete instead of displacing also when the retreat is a single hex (A1)
/// and that hex holds a friendly unit: the unit stays and loses a step. 5x2 map, sea
/// in 0102, 0202 and 0302: a1's only retreat hex is 0201, where a3 stands. The engine
/// lists this choice among the legal retreats (an empty path), so it must accept it.
#[test]
fn rule_8_3_1_deplete_instead_of_displacing_on_one_hex_retreat() {
    let mut t = Tiny::new(5, 2)
        .terrain("0102", &["sea"])
        .terrain("0202", &["sea"])
        .terrain("0302", &["sea"])
        .start(Phase::Combat)
        .unit("a1", A, UnitKind::Mobile, &[(2, 2, 6), (1, 1, 6)], "0301")
        .mobile("a3", A, 1, 1, 6, "0201")
        .leg("b1", B, 1, 2, 4, "0401");
    t.data.crt.grid[1][5] = CrtResult::A1;
    let sc = t.build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0401", &["a1"]),
        &mut Script::dice(&[2]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0401", &["b1"], &["a1"]),
            ground(2, 2, CLEAR, "0", 2, CrtResult::A1),
            retreat_required(A, &["a1"], 1),
        ]
    );
    assert!(legal_commands(&sc, &s).contains(&retreat("a1", &[])));
    let ev = play(&sc, &mut s, retreat("a1", &[]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            retreated("a1", "0301", &[]),
            step_lost("a1", 1),
            ended("0401"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(loc_of(&s, "a3"), Location::Map(h("0201")));
}

// ---------------------------------------------------------------------------------
// 8.4 Stiff resistance.

/// 8.4: the defender holds and is depleted instead of retreating; no advance.
#[test]
fn rule_8_4_defender_stiff_resistance_depletes_instead_of_retreat() {
    let sc = retreat_map()
        .unit("b1", B, UnitKind::Leg, &[(1, 3, 4), (1, 1, 4)], "0303")
        .build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    let ev = play(&sc, &mut s, stiff("b1"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            stiff_event("b1"),
            step_lost("b1", 1),
            ended("0303"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(loc_of(&s, "b1"), Location::Map(h("0303")));
}

/// 8.4: a one-step unit may offer stiff resistance: it is eliminated and no advance
/// after combat into its hex is allowed.
#[test]
fn rule_8_4_one_step_stiff_resistance_eliminates_and_prevents_advance() {
    let sc = retreat_map().leg("b1", B, 1, 3, 4, "0303").build();
    let mut s = start(&sc);
    d2_on_b1(&sc, &mut s, "0303");
    let ev = play(&sc, &mut s, stiff("b1"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            stiff_event("b1"),
            eliminated("b1"),
            ended("0303"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.4: when the attacker must retreat, each attacking unit either retreats or holds
/// and is depleted.
#[test]
fn rule_8_4_each_attacking_unit_decides_stiff_resistance() {
    let sc = Tiny::new(6, 5)
        .start(Phase::Combat)
        .unit("a1", A, UnitKind::Mobile, &[(1, 1, 6), (1, 1, 6)], "0203")
        .mobile("a2", A, 1, 1, 6, "0204")
        .leg("b1", B, 1, 5, 4, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["a1", "a2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0303", &["b1"], &["a1", "a2"]),
            ground(2, 5, CLEAR, "-3", 1, CrtResult::A2),
            retreat_required(A, &["a1", "a2"], 2),
        ]
    );
    let ev = play(&sc, &mut s, stiff("a1"), &mut Script::new(&[]));
    assert_eq!(ev, vec![stiff_event("a1"), step_lost("a1", 1)]);
    assert_eq!(
        s.pending(),
        Pending::Retreat {
            side: A,
            units: ids(&["a2"]),
            hexes: 2
        }
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("a2", &["0104", "0105"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("a2", "0204", &["0104", "0105"]),
            ended("0303"),
            phase(A, Phase::MobileMovement),
        ]
    );
    assert_eq!(loc_of(&s, "a1"), Location::Map(h("0203")));
}

// ---------------------------------------------------------------------------------
// 8.5 Advance after combat.

/// 6x5 map: a1 (0203) and a2 (0204) attack b1 (0303) at +1, D2; a3 (0304) is
/// adjacent but does not attack. b1 retreats 0403, 0503. b2 (0404), if present, is
/// adjacent to a3 and to 0403.
fn advance_setup(b2: bool) -> (Scenario, State) {
    let mut t = Tiny::new(6, 5)
        .start(Phase::Combat)
        .mobile("a1", A, 2, 2, 6, "0203")
        .mobile("a2", A, 2, 2, 6, "0204")
        .mobile("a3", A, 1, 1, 6, "0304")
        .leg("b1", B, 1, 3, 4, "0303");
    if b2 {
        t = t.leg("b2", B, 1, 3, 4, "0404");
    }
    let sc = t.build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["a1", "a2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0303", &["b1"], &["a1", "a2"]),
            ground(4, 3, CLEAR, "+1", 1, CrtResult::D2),
            retreat_required(B, &["b1"], 2),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("b1", &["0403", "0503"]),
        &mut Script::new(&[]),
    );
    assert_eq!(
        ev,
        vec![
            retreated("b1", "0303", &["0403", "0503"]),
            advance_offered(&["0303", "0403"], &["a1", "a2"]),
        ]
    );
    (sc, s)
}

/// 8.5: advancing units follow the path of retreat from the combat hex, ignore EZOC
/// (0403 is next to b1), and at most one unit ends in each hex.
#[test]
fn rule_8_5_advance_along_path_of_retreat_one_unit_per_hex() {
    let (sc, mut s) = advance_setup(false);
    let ev = play(&sc, &mut s, advance("a1", "0403"), &mut Script::new(&[]));
    assert_eq!(ev, vec![advanced("a1", "0203", &["0303", "0403"])]);
    assert_eq!(refused(&sc, &s, advance("a2", "0403")).rule, "8.5");
    assert_eq!(refused(&sc, &s, advance("a2", "0503")).rule, "8.5");
    let ev = play(&sc, &mut s, advance("a2", "0303"), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            advanced("a2", "0204", &["0303"]),
            ended("0303"),
            phase(A, Phase::MobileMovement),
        ]
    );
}

/// 8.5: only units that took part in the combat may advance, and only onto the path
/// of retreat.
#[test]
fn rule_8_5_only_participating_attackers_advance_along_path() {
    let (sc, s) = advance_setup(false);
    assert_eq!(refused(&sc, &s, advance("a3", "0303")).rule, "8.5");
    assert_eq!(refused(&sc, &s, advance("a1", "0404")).rule, "8.5");
}

/// 8.5: advance after combat is voluntary.
#[test]
fn rule_8_5_advance_is_voluntary() {
    let (sc, mut s) = advance_setup(false);
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![ended("0303"), phase(A, Phase::MobileMovement)]);
    assert_eq!(loc_of(&s, "a1"), Location::Map(h("0203")));
}

/// 8.5: an advanced unit may not attack again that player turn. (It also attacked
/// this phase, so the engine may name 8.2 or 8.5; it reports the first, 8.2.)
#[test]
fn rule_8_5_advanced_unit_may_not_attack_again() {
    let (sc, mut s) = advance_setup(true);
    let ev = play(&sc, &mut s, advance("a1", "0403"), &mut Script::new(&[]));
    assert_eq!(ev, vec![advanced("a1", "0203", &["0303", "0403"])]);
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![ended("0303")]);
    // a1 in 0403 is next to b2 (0404), which a3 may still attack.
    assert_eq!(refused(&sc, &s, attack("0404", &["a1"])).rule, "8.2");
}

/// 8.5: an advanced unit may not move in the Mobile Movement Phase of that turn.
#[test]
fn rule_8_5_advanced_unit_may_not_move_in_mobile_movement_phase() {
    let (sc, mut s) = advance_setup(false);
    play(&sc, &mut s, advance("a1", "0403"), &mut Script::new(&[]));
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(ev, vec![ended("0303"), phase(A, Phase::MobileMovement)]);
    assert_eq!(refused(&sc, &s, mv("a1", &["0404"])).rule, "8.5");
}

// ---------------------------------------------------------------------------------
// Victory.

fn victory_map(conditions: Vec<VictoryCondition>, otherwise: Option<Side>) -> Tiny {
    let mut t = Tiny::new(4, 4);
    t.data.turns.truncate(1);
    t.data.victory = VictoryData {
        conditions,
        otherwise,
    };
    t
}

/// Hold-at-end: checked at the end of the last game turn; the side that last occupied
/// the objective holds it.
#[test]
fn rule_victory_hold_at_end_of_last_turn() {
    let sc = victory_map(
        vec![VictoryCondition::HoldAtEnd {
            side: A,
            hexes: vec![h("0303")],
            count: 1,
        }],
        Some(B),
    )
    .leg("a1", A, 1, 1, 4, "0302")
    .leg("b1", B, 1, 1, 4, "0101")
    .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("a1", &["0303"]), &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            Event::UnitMoved {
                unit: u("a1"),
                from: Some(h("0302")),
                path: vec![h("0303")],
                mp: Mp::whole(1),
            },
            phase(A, Phase::Bombardment),
            phase(A, Phase::Combat),
            phase(A, Phase::MobileMovement),
            phase(A, Phase::MobileCombat),
            phase(B, Phase::Movement),
        ]
    );
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            phase(B, Phase::Bombardment),
            phase(B, Phase::Combat),
            phase(B, Phase::MobileMovement),
            phase(B, Phase::MobileCombat),
            Event::GameOver {
                winner: Some(A),
                reason: "side a holds 1 of 1 objective hexes".into(),
            },
        ]
    );
    assert!(s.is_over());
}

/// Annihilation: the win is instant, in the middle of a turn.
#[test]
fn rule_victory_annihilation_is_instant() {
    let sc = victory_map(vec![VictoryCondition::Annihilation { side: A }], Some(B))
        .start(Phase::Combat)
        .mobile("a1", A, 12, 1, 6, "0201")
        .leg("b1", B, 1, 2, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0202", &["a1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0202", &["b1"], &["a1"]),
            ground(12, 2, CLEAR, "+10", 1, CrtResult::De),
            eliminated("b1"),
            ended("0202"),
            Event::GameOver {
                winner: Some(A),
                reason: "side b has no units left".into(),
            },
        ]
    );
    assert_eq!(s.pending(), Pending::GameOver { winner: Some(A) });
    assert_eq!(refused(&sc, &s, Command::Done).rule, "4.1");
}

/// Victory `otherwise`: no condition met at the end of the last turn.
#[test]
fn rule_victory_otherwise_winner_when_no_condition_met() {
    let sc = victory_map(
        vec![VictoryCondition::HoldAtEnd {
            side: A,
            hexes: vec![h("0303")],
            count: 1,
        }],
        Some(B),
    )
    .start(Phase::MobileCombat)
    .leg("a1", A, 1, 1, 4, "0302")
    .leg("b1", B, 1, 1, 4, "0101")
    .build();
    let mut s = start(&sc);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: B,
            phase: Phase::Movement
        }
    );
    let ev = play(&sc, &mut s, Command::Done, &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            phase(B, Phase::Bombardment),
            phase(B, Phase::Combat),
            phase(B, Phase::MobileMovement),
            phase(B, Phase::MobileCombat),
            Event::GameOver {
                winner: Some(B),
                reason: "no victory condition met: side b wins".into(),
            },
        ]
    );
}

// ---------------------------------------------------------------------------------
// Combat odds.

fn odds_of(o: &Odds) -> Vec<(CrtResult, u64, u64)> {
    o.results
        .iter()
        .map(|e| (e.result, e.numerator, e.denominator))
        .collect()
}

fn assert_sums_to_one(o: &Odds) {
    let p: f64 = o.results.iter().map(|e| e.probability).sum();
    assert!((p - 1.0).abs() < 1e-12, "probabilities sum to {p}");
    let lcm = o.results.iter().map(|e| e.denominator).max().unwrap();
    let exact: u64 = o
        .results
        .iter()
        .map(|e| {
            assert_eq!(lcm % e.denominator, 0);
            e.numerator * (lcm / e.denominator)
        })
        .sum();
    assert_eq!(exact, lcm);
}

/// Odds with a fixed differential and no markers: each die row has probability 1/6
/// (differential 0 column: Ex, Ex, •, A2, A3, (A)).
#[test]
fn rule_combat_odds_fixed_differential_each_die_row_one_sixth() {
    let sc = small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 4, 4, "0202")
        .build();
    let s = start(&sc);
    let o = combat_odds(
        &sc,
        &s,
        A,
        &AttackProposal {
            hex: h("0202"),
            units: ids(&["a1"]),
            attacker_markers: 0,
            defender_markers: 0,
        },
    )
    .unwrap();
    assert_eq!(o.differential, [0, 0]);
    assert_eq!(
        odds_of(&o),
        vec![
            (CrtResult::Ex, 1, 3),
            (CrtResult::A2, 1, 6),
            (CrtResult::A3, 1, 6),
            (CrtResult::AStep, 1, 6),
            (CrtResult::NoEffect, 1, 6),
        ]
    );
    assert_sums_to_one(&o);
}

/// Odds over the attacker's two random draws from [1, 2, 3] (sums 3, 4, 5 equally
/// likely): differential +1, +2 or +3 against a base of 4 - 6.
/// `combat_odds` asks only what the rules allow: at most two markers a side in a
/// ground combat (8.2.1(b)), no more than the side holds, two on a hex per player turn
/// in a bombardment (8.1). More is refused, never enumerated (issue 13: a 40-marker
/// pool at 10 markers took 19.7 s).
#[test]
fn rule_8_2_1_b_combat_odds_refuses_more_markers_than_the_rules_allow() {
    let big: Vec<u8> = (0..40).map(|i| i % 6 + 1).collect();
    let sc = small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 6, 4, "0202")
        .support(&big, &[1], 40, 1)
        .build();
    let s = start(&sc);
    let ask = |am: u8, dm: u8| {
        combat_odds(
            &sc,
            &s,
            A,
            &AttackProposal {
                hex: h("0202"),
                units: ids(&["a1"]),
                attacker_markers: am,
                defender_markers: dm,
            },
        )
    };
    let e = ask(10, 0).unwrap_err();
    assert_eq!(e.rule, "8.2.1(b)");
    assert!(
        e.message
            .contains("may commit 2 more marker(s) here (0 placed, 40 held), not 10"),
        "{e}"
    );
    assert_eq!(
        ask(0, 2).unwrap_err().rule,
        "8.2.1(b)",
        "the defender holds one"
    );
    assert!(ask(2, 1).is_ok());
    let e = combat_odds(
        &sc,
        &s,
        A,
        &AttackProposal {
            hex: h("0202"),
            units: vec![],
            attacker_markers: 3,
            defender_markers: 0,
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "8.1");
}

#[test]
fn rule_combat_odds_over_marker_draws_match_hand_computation() {
    let sc = small()
        .mobile("a1", A, 4, 4, 6, "0201")
        .leg("b1", B, 1, 6, 4, "0202")
        .support(&[1, 2, 3], &[], 3, 0)
        .build();
    let s = start(&sc);
    let o = combat_odds(
        &sc,
        &s,
        A,
        &AttackProposal {
            hex: h("0202"),
            units: ids(&["a1"]),
            attacker_markers: 2,
            defender_markers: 0,
        },
    )
    .unwrap();
    assert_eq!(o.differential, [1, 3]);
    // +1: D2 Ex Ex • A2 A3; +2/+3 (twice as likely): D2 Ex Ex Ex • A2. In 18ths:
    // D2 3, Ex 2 + 6 = 8, • 1 + 2 = 3, A2 1 + 2 = 3, A3 1.
    assert_eq!(
        odds_of(&o),
        vec![
            (CrtResult::D2, 1, 6),
            (CrtResult::Ex, 4, 9),
            (CrtResult::A2, 1, 6),
            (CrtResult::A3, 1, 18),
            (CrtResult::NoEffect, 1, 6),
        ]
    );
    assert_sums_to_one(&o);
}
