//! Huzzah! battles that start mid-way (issue 30, item 7): the scenario's `start`
//! section (docs/huzzah.md, "Starting mid-battle"). Rules by page on small tables
//! whose battle begins in a later turn and phase, with disordered and routing units,
//! lost bases, odd hits, this turn's markers and attached or lost officers, then plays
//! on; the checks that refuse a start no battle could reach, each with its JSON path;
//! and saves of such a battle, loaded and played on.
//!
//! Tables as in `huzzah_rules`: 1200 × 1200 mm, 40 mm bases, side A facing 0 (towards
//! +y) from low y, side B facing 180; a unit of side A anchored at y = 500 and one of
//! side B at y = 560 are 6 cm apart (short range), at y = 500 in contact. Dice are
//! loaded where a test states the rolls.

use fm_core::huzzah::command::{Command, GroupArg};
use fm_core::huzzah::engine;
use fm_core::huzzah::event::{Event, Modifier};
use fm_core::huzzah::legal;
use fm_core::huzzah::orders::OrderKind;
use fm_core::huzzah::scenario::{self, Scenario, UnitIx};
use fm_core::huzzah::state::{Pending, Phase, State, Status, Whereabouts};
use fm_core::huzzah::Huzzah;
use fm_core::{Game, GameMatch, OfficerId, Side, UnitId};
use rand_core::RngCore;
use serde_json::{json, Value};
use std::sync::Arc;

// ------------------------------------------------------------------------- helpers

/// Dice that come up as scripted (each 1-6), then panic.
struct Loaded(std::collections::VecDeque<u8>);

impl RngCore for Loaded {
    fn next_u32(&mut self) -> u32 {
        u32::from(self.0.pop_front().expect("fewer dice scripted than rolled") - 1)
    }
    fn next_u64(&mut self) -> u64 {
        u64::from(self.next_u32())
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.iter_mut().for_each(|b| *b = self.next_u32() as u8);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

fn dice(d: &[u8]) -> Loaded {
    Loaded(d.iter().copied().collect())
}

/// A trained unit of side `side` with these bases in these ranks, anchored at `at`.
fn unit(id: &str, side: Side, bases: &[&str], ranks: &[u8], at: [i64; 2]) -> Value {
    let (division, facing) = match side {
        Side::A => ("a-div", 0),
        Side::B => ("b-div", 180),
    };
    json!({
        "id": id, "division": division, "bases": bases, "expected": "regulars_b",
        "quality": "trained", "formation": "line", "ranks": ranks, "position": at,
        "facing": facing
    })
}

/// A trained line of `n` infantry bases.
fn line(id: &str, side: Side, n: usize, at: [i64; 2]) -> Value {
    unit(id, side, &vec!["infantry"; n], &[n as u8], at)
}

/// A side with a CinC and a division officer, both placed far from the fighting.
fn side(prefix: &str, y: i64, units: Vec<Value>) -> Value {
    json!({
        "name": prefix, "skirmish_factor": 8, "artillery_factor": 8,
        "officers": [
            {"id": format!("{prefix}-cinc"), "rank": "cinc", "quality": "average", "position": [100, y]},
            {"id": format!("{prefix}-d1"), "rank": "division", "quality": "average", "position": [200, y]}
        ],
        "divisions": [{"id": format!("{prefix}-div"), "officer": format!("{prefix}-d1")}],
        "units": units
    })
}

/// A table whose battle starts with `start`; side a is Player 1 (`first`).
fn battle(a: Vec<Value>, b: Vec<Value>, start: Value) -> Value {
    json!({
        "id": "mid-battle", "name": "test", "provenance": "stand-in: a test table",
        "table": {"width_mm": 1200, "depth_mm": 1200}, "base_mm": 40, "turns": 5,
        "battle": "encounter", "setup": "placed", "first": "a",
        "sides": {"a": side("a", 100, a), "b": side("b", 1100, b)},
        "start": start
    })
}

/// Both armies' tests of this turn passed, as a start after phase 2 must say.
fn tested() -> Value {
    let t = json!({"skirmish_passed": true, "artillery_passed": true});
    json!({"a": t, "b": t})
}

fn load(v: Value) -> Scenario {
    scenario::validate(scenario::from_json_value(v).expect("parses")).expect("valid")
}

fn ix(sc: &Scenario, id: &str) -> UnitIx {
    sc.unit_index(id).expect("unit")
}

/// A unit's id, as events and pending decisions name it.
fn uid(id: &str) -> UnitId {
    UnitId::from(id)
}

/// The battle's opening, its dice loaded.
fn open(sc: &Scenario, d: &[u8]) -> (State, Vec<Event>) {
    let mut rng = dice(d);
    let (s, ev) = engine::new_game(sc, &mut rng);
    assert!(rng.0.is_empty(), "dice left over: {:?}", rng.0);
    (s, ev)
}

fn play(sc: &Scenario, s: &mut State, cmd: Command, d: &[u8]) -> Vec<Event> {
    let mut rng = dice(d);
    let ev = engine::apply(sc, s, &cmd, &mut rng).unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    s.apply_events(sc, &ev);
    assert!(rng.0.is_empty(), "dice left over: {:?}", rng.0);
    ev
}

/// Two dice (no Huzzah!) totalling `firer`'s fire factor at `target` less `hits`: a
/// fire that passes with exactly `hits` hits.
fn hitting(sc: &Scenario, s: &State, firer: &str, target: &str, hits: i8) -> [u8; 2] {
    let (f, t) = (ix(sc, firer), ix(sc, target));
    let q = s.unit(f).quality.expect("a trained unit");
    let mods = fm_core::huzzah::firing::fire_modifiers(sc, s, f, t);
    let factor =
        fm_core::huzzah::firing::fire_factor(sc, f, q) + mods.iter().map(|m| m.by).sum::<i8>();
    let total = factor.clamp(2, 10) - hits;
    assert!((3..=12).contains(&total), "factor {factor}");
    [(total / 2) as u8, (total - total / 2) as u8]
}

fn md(why: &str, by: i8) -> Modifier {
    Modifier {
        why: why.to_string(),
        by,
    }
}

fn fire(unit: &str, target: &str) -> Command {
    Command::Fire {
        unit: unit.into(),
        target: target.into(),
        bases: None,
    }
}

fn order(officer: &str, unit: &str, order: OrderKind) -> Command {
    Command::Order {
        officer: officer.into(),
        group: GroupArg::Unit(unit.into()),
        order,
    }
}

// ------------------------------------------------------------ the turn and phase

#[test]
fn rule_p7_play_begins_in_the_start_turn_and_phase_and_goes_on() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 300])],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({"turn": 3, "phase": {"phase": "orders", "side": "b"}, "armies": tested()}),
    ));
    let (mut s, ev) = open(&sc, &[]);
    assert_eq!(
        ev[0],
        Event::PhaseStarted {
            phase: Phase::Orders { side: Side::B }
        }
    );
    assert_eq!(
        (s.turn, s.phase, s.player1),
        (3, Phase::Orders { side: Side::B }, Some(Side::A))
    );
    assert_eq!(s.pending, Pending::Orders { side: Side::B });
    // The rest of turn 3 (no charge to fire at, no melee; side b's officers may move),
    // then turn 4 opens with its two common phases (8 dice) and side a's Firing
    // (nothing in range).
    let ev = play(&sc, &mut s, Command::EndPhase, &[]);
    assert!(ev.contains(&Event::PhaseStarted {
        phase: Phase::Combat { side: Side::B }
    }));
    assert_eq!(s.pending, Pending::MoveOfficers { side: Side::B });
    let ev = play(&sc, &mut s, Command::EndPhase, &[3, 3, 3, 3, 3, 3, 3, 3]);
    assert!(ev.contains(&Event::TurnEnded { turn: 3 }), "{ev:?}");
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::TurnStarted { turn: 4, .. })));
    assert_eq!(
        (s.turn, s.pending.clone()),
        (4, Pending::Orders { side: Side::A })
    );
}

#[test]
fn rule_p9_p10_a_start_at_the_turns_beginning_keeps_the_previous_tests() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 300])],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "skirmisher_superiority"},
            "armies": {
                "a": {"skirmish_passed": true, "skirmish_won": true, "artillery_passed": false},
                "b": {"skirmish_passed": false, "artillery_passed": true, "skirmish_factor": 7}
            }
        }),
    ));
    // Skirmish tests (a, b), artillery tests (a, b): 8 dice; then side a's Firing has
    // nothing in range and its Orders phase waits.
    let (s, ev) = open(&sc, &[5, 5, 2, 3, 5, 5, 3, 3]);
    assert!(
        matches!(ev[0], Event::TurnStarted { turn: 2, .. }),
        "{ev:?}"
    );
    let tests: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::SkirmishTested { side, test } | Event::ArtilleryTested { side, test } => {
                Some((*side, test.base, test.modifiers.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        tests,
        vec![
            (Side::A, 8, vec![md("won previous superiority test", 1)]),
            (Side::B, 7, vec![md("failed previous superiority test", -1)]),
            // b won this turn's skirmisher war (a failed on 10, b passed on 5).
            (
                Side::A,
                8,
                vec![
                    md("failed previous test", -1),
                    md("enemy has skirmisher superiority", -1)
                ]
            ),
            (Side::B, 8, vec![md("passed previous test", 1)]),
        ]
    );
    assert_eq!(s.pending, Pending::Orders { side: Side::A });
}

// ------------------------------------------------------------ disorder and rout

#[test]
fn rule_p12_a_disordered_unit_fires_at_minus_one() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 560])],
        json!({
            "turn": 2, "phase": {"phase": "firing", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "disordered"}]
        }),
    ));
    let (mut s, _) = open(&sc, &[]);
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: vec![uid("a1")]
        }
    );
    // The fire misses (12); nobody tests.
    let ev = play(&sc, &mut s, fire("a1", "b1"), &[6, 6]);
    let test = ev
        .iter()
        .find_map(|e| match e {
            Event::FireResolved { test, .. } => Some(test.clone()),
            _ => None,
        })
        .expect("fire");
    assert!(
        test.modifiers.contains(&md("firer is disordered", -1)),
        "{test:?}"
    );
}

#[test]
fn rule_p12_a_routing_unit_cannot_fire() {
    let sc = load(battle(
        vec![
            line("a1", Side::A, 3, [400, 500]),
            line("a2", Side::A, 3, [800, 500]),
        ],
        vec![
            line("b1", Side::B, 3, [400, 560]),
            line("b2", Side::B, 3, [800, 560]),
        ],
        json!({
            "turn": 2, "phase": {"phase": "firing", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "routing"}]
        }),
    ));
    let (s, _) = open(&sc, &[]);
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: vec![uid("a2")]
        }
    );
}

#[test]
fn rule_p14_a_disordered_unit_that_fails_its_morale_test_routs() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 560])],
        json!({
            "turn": 2, "phase": {"phase": "firing", "side": "b"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "disordered"}]
        }),
    ));
    let (mut s, _) = open(&sc, &[]);
    // A pass with 0 hits forces a test, which fails on 12.
    let [d1, d2] = hitting(&sc, &s, "b1", "a1", 0);
    let ev = play(&sc, &mut s, fire("b1", "a1"), &[d1, d2, 6, 6]);
    assert!(
        ev.contains(&Event::StatusChanged {
            unit: uid("a1"),
            status: Status::Routing,
            why: "p14: a disordered unit that fails a morale test routs".into()
        }),
        "{ev:?}"
    );
    assert_eq!(s.unit(ix(&sc, "a1")).status, Status::Routing);
}

#[test]
fn rule_p14_bases_lost_earlier_this_turn_lower_the_morale_test() {
    let sc = load(battle(
        vec![line("a1", Side::A, 4, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 560])],
        json!({
            "turn": 2, "phase": {"phase": "firing", "side": "b"}, "armies": tested(),
            "units": [{"unit": "a1", "lost": [3], "lost_this_turn": 1, "ranks": [3]}]
        }),
    ));
    let (mut s, _) = open(&sc, &[]);
    let a1 = ix(&sc, "a1");
    assert_eq!((s.unit(a1).bases.len(), s.unit(a1).lost_this_turn), (3, 1));
    // A pass with 0 hits forces a test, which passes on 2, 2.
    let [d1, d2] = hitting(&sc, &s, "b1", "a1", 0);
    let ev = play(&sc, &mut s, fire("b1", "a1"), &[d1, d2, 2, 2]);
    let morale = ev
        .iter()
        .find_map(|e| match e {
            Event::MoraleTested { test, .. } => Some(test.clone()),
            _ => None,
        })
        .expect("a morale test");
    assert!(
        morale
            .modifiers
            .contains(&md("each base lost this turn", -1)),
        "{morale:?}"
    );
}

#[test]
fn rule_p12_odd_hits_stay_until_the_end_of_the_rally_phase() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 300])],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "rally", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "hits": 2}, {"unit": "b1", "hits": 1}]
        }),
    ));
    let (s, ev) = open(&sc, &[]);
    assert!(
        ev.contains(&Event::OddHitsRemoved {
            units: vec![uid("a1"), uid("b1")]
        }),
        "{ev:?}"
    );
    assert!(s.units.iter().all(|u| u.hits == 0));
}

#[test]
fn rule_p13_a_unit_charged_this_turn_fires_at_its_charger() {
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 500])],
        json!({
            "turn": 2, "phase": {"phase": "fire_at_chargers", "side": "b"}, "armies": tested(),
            "units": [{"unit": "a1", "charger": true}]
        }),
    ));
    // In contact, but not in combat since the turn began: a1 advanced into contact.
    assert!(State::initial(&sc).in_combat.is_empty());
    let mut rng = fm_core::rng_from_seed(1);
    let (_, ev) = engine::new_game(&sc, &mut rng);
    assert!(
        ev.iter().any(|e| matches!(e,
            Event::FireDeclared { unit, target, short: true, .. }
                if *unit == uid("b1") && *target == uid("a1"))),
        "{ev:?}"
    );
    // Without the charger marker the two were in combat as the turn began: no fire.
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 500])],
        json!({"turn": 2, "phase": {"phase": "fire_at_chargers", "side": "b"}, "armies": tested()}),
    ));
    assert_eq!(
        State::initial(&sc).in_combat,
        vec![(ix(&sc, "a1"), ix(&sc, "b1"))]
    );
    let (_, ev) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
    assert!(!ev.iter().any(|e| matches!(e, Event::FireDeclared { .. })));
}

#[test]
fn rule_p14_p15_an_attached_officer_lifts_morale_and_must_save() {
    // The officer must stand touching a1: 5 cm behind it is.
    let mut v = battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 560])],
        json!({
            "turn": 2, "phase": {"phase": "firing", "side": "b"}, "armies": tested(),
            "officers": [{"officer": "a-d1", "attached": "a1"}]
        }),
    );
    v["sides"]["a"]["officers"][1]["position"] = json!([400, 420]);
    let sc = load(v);
    let (mut s, _) = open(&sc, &[]);
    assert_eq!(s.officers[1].attached, Some(ix(&sc, "a1")));
    // One hit (no base lost): the officer saves on 3, 3 (needs 11); the test passes
    // on 2, 2.
    let [d1, d2] = hitting(&sc, &s, "b1", "a1", 1);
    let ev = play(&sc, &mut s, fire("b1", "a1"), &[d1, d2, 3, 3, 2, 2]);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::OfficerSave {
                officer,
                survived: true,
                ..
            } if *officer == OfficerId::from("a-d1")
        )),
        "{ev:?}"
    );
    let morale = ev
        .iter()
        .find_map(|e| match e {
            Event::MoraleTested { test, .. } => Some(test.clone()),
            _ => None,
        })
        .expect("a morale test");
    assert!(
        morale.modifiers.contains(&md("officer attached", 1)),
        "{morale:?}"
    );
}

// ------------------------------------------------------------ orders

#[test]
fn rule_p17_a_disordered_unit_is_harder_to_order_and_a_routing_one_cannot_be() {
    let sc = load(battle(
        vec![
            line("a1", Side::A, 3, [400, 300]),
            line("a2", Side::A, 3, [800, 300]),
        ],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "orders", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "disordered"}, {"unit": "a2", "status": "routing"}]
        }),
    ));
    let (mut s, _) = open(&sc, &[]);
    let legal = legal::legal_commands(&sc, &s);
    assert!(legal.contains(&order("a-d1", "a1", OrderKind::Advance)));
    assert!(!legal.contains(&order("a-d1", "a2", OrderKind::Advance)));
    let e = engine::apply(
        &sc,
        &s,
        &order("a-d1", "a2", OrderKind::Advance),
        &mut dice(&[]),
    )
    .expect_err("a routing unit is not ordered");
    assert_eq!(e.rule, "p17", "{e}");
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", "a1", OrderKind::Advance),
        &[6, 6],
    );
    let given = ev
        .iter()
        .find_map(|e| match e {
            Event::OrderGiven { test: Some(t), .. } => Some(t.clone()),
            _ => None,
        })
        .expect("an order roll");
    assert!(
        given
            .modifiers
            .contains(&md("a unit ordered is in disorder", -1)),
        "{given:?}"
    );
}

#[test]
fn rule_p3_p17_reserve_artillery_that_fired_this_turn_cannot_move() {
    let guns = unit("a-guns", Side::A, &["foot_artillery"], &[1], [700, 300]);
    let sc = load(battle(
        vec![line("a1", Side::A, 3, [400, 300]), guns],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "orders", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a-guns", "fired": true}]
        }),
    ));
    let (s, _) = open(&sc, &[]);
    let legal = legal::legal_commands(&sc, &s);
    assert!(legal.contains(&order("a-d1", "a1", OrderKind::Advance)));
    assert!(!legal
        .iter()
        .any(|c| matches!(c, Command::Order { group: GroupArg::Unit(u), .. } if u == "a-guns")));
}

#[test]
fn rule_p16_the_cinc_appoints_a_successor_to_an_officer_lost_before_play_began() {
    let mut v = battle(
        vec![line("a1", Side::A, 3, [400, 300])],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 3, "phase": {"phase": "orders", "side": "a"}, "armies": tested(),
            "officers": [{"officer": "a-d1", "lost_turn": 2}]
        }),
    );
    v["sides"]["a"]["officers"][1]
        .as_object_mut()
        .unwrap()
        .remove("position");
    let sc = load(v);
    let (s, _) = open(&sc, &[]);
    assert!(s.officers[1].lost && s.officers[1].at.is_none());
    assert!(legal::legal_commands(&sc, &s).contains(&legal::appoint_command(&sc, 1)));
}

// ------------------------------------------------------------ the rally (missing rules)

#[test]
fn rule_p7_disordered_and_routing_units_must_rally() {
    let sc = load(battle(
        vec![
            line("a1", Side::A, 3, [400, 300]),
            line("a2", Side::A, 3, [800, 300]),
        ],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "rally", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "disordered"}, {"unit": "a2", "status": "routing"}]
        }),
    ));
    let (s, _) = open(&sc, &[]);
    assert_eq!(
        s.pending,
        Pending::Rally {
            side: Side::A,
            units: vec![uid("a1"), uid("a2")]
        }
    );
}

#[test]
fn rule_p15_a_routing_unit_near_a_formed_enemy_goes_on_routing_stand_in() {
    let mut v = battle(
        vec![line("a1", Side::A, 3, [400, 500])],
        vec![line("b1", Side::B, 3, [400, 700])],
        json!({
            "turn": 2, "phase": {"phase": "rally", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "routing"}]
        }),
    );
    v["missing_rules"] = json!("stand_in");
    let sc = load(v);
    let (s, ev) = open(&sc, &[]);
    assert!(
        ev.contains(&Event::RallyDecided {
            unit: uid("a1"),
            to: Status::Routing,
            test: None,
            stand_in: true
        }),
        "{ev:?}"
    );
    assert_eq!(s.unit(ix(&sc, "a1")).status, Status::Routing);
}

#[test]
fn units_off_the_table_when_play_begins() {
    let sc = load(battle(
        vec![
            line("a1", Side::A, 3, [400, 300]),
            line("a2", Side::A, 3, [400, 300]),
            line("a3", Side::A, 2, [800, 300]),
        ],
        vec![line("b1", Side::B, 3, [400, 900])],
        json!({
            "turn": 2, "phase": {"phase": "orders", "side": "a"}, "armies": tested(),
            "units": [
                {"unit": "a2", "at": "destroyed"},
                {"unit": "a3", "at": "rout_table", "lost": [1], "ranks": [1]}
            ]
        }),
    ));
    let s = State::initial(&sc);
    let (a2, a3) = (ix(&sc, "a2"), ix(&sc, "a3"));
    assert_eq!(s.unit(a2).at, Whereabouts::Destroyed);
    assert!(s.unit(a2).bases.is_empty());
    assert_eq!(
        (s.unit(a3).at, s.unit(a3).status),
        (Whereabouts::RoutTable, Status::Routing)
    );
    // Lost: a2's three bases, a3's two (on the Rout Table).
    assert_eq!(engine::bases_lost(&sc, &s, Side::A), 5);
}

// ------------------------------------------------------------ refused starts

/// A battle valid as it is, which each case below breaks in one place.
fn valid() -> Value {
    let mut v = battle(
        vec![
            line("a1", Side::A, 4, [400, 500]),
            unit(
                "a2",
                Side::A,
                &["infantry", "divisional_artillery"],
                &[2],
                [800, 500],
            ),
            unit("a-sq", Side::A, &["infantry"; 4], &[2, 2], [600, 300]),
            unit(
                "a-hussars",
                Side::A,
                &["other_cavalry"; 2],
                &[2],
                [1000, 300],
            ),
        ],
        vec![
            line("b1", Side::B, 3, [400, 560]),
            line("b2", Side::B, 3, [800, 560]),
        ],
        json!({
            "turn": 2, "phase": {"phase": "orders", "side": "a"}, "armies": tested(),
            "units": [{"unit": "a1", "status": "disordered", "lost": [3], "ranks": [3], "hits": 2}],
            "officers": [{"officer": "a-d1", "attached": "a1"}]
        }),
    );
    v["sides"]["a"]["units"][2]["formation"] = json!("square");
    v["sides"]["a"]["officers"][1]["position"] = json!([400, 440]);
    v
}

#[test]
fn a_valid_start_loads() {
    let sc = load(valid());
    let s = State::initial(&sc);
    let a1 = ix(&sc, "a1");
    assert_eq!(s.unit(a1).status, Status::Disordered);
    assert_eq!(
        (s.unit(a1).hits, s.unit(a1).shape.ranks.clone()),
        (2, vec![3])
    );
}

#[test]
fn refused_starts_name_their_path() {
    type Edit = fn(&mut Value);
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "setup",
            |v| v["setup"] = json!("alternate"),
            "skips the set-up",
        ),
        ("start.turn", |v| v["start"]["turn"] = json!(6), "turn 6"),
        ("start.turn", |v| v["start"]["turn"] = json!(0), "turn 0"),
        (
            "start.phase",
            |v| v["start"]["phase"] = json!({"phase": "setup"}),
            "not the set-up",
        ),
        (
            "start.phase",
            |v| v["start"]["phase"] = json!({"phase": "turn_ends"}),
            "end of a turn",
        ),
        ("start.player1", |v| v["first"] = Value::Null, "no roll-off"),
        (
            "start.player1",
            |v| v["start"]["player1"] = json!("b"),
            "first is \"a\"",
        ),
        (
            "start.units[0].unit",
            |v| v["start"]["units"][0]["unit"] = json!("zz"),
            "unknown unit 'zz'",
        ),
        (
            "start.units[1].unit",
            |v| push_unit(v, json!({"unit": "a1"})),
            "listed twice",
        ),
        (
            "start.units[1].at",
            |v| push_unit(v, json!({"unit": "b2", "at": "joined"})),
            "joined",
        ),
        (
            "start.units[1].status",
            |v| push_unit(v, json!({"unit": "a-sq", "status": "routing"})),
            "in square",
        ),
        (
            "start.units[1].status",
            |v| {
                push_unit(
                    v,
                    json!({"unit": "b2", "at": "rout_table", "status": "formed"}),
                )
            },
            "Rout Table",
        ),
        (
            "start.units[1].hits",
            |v| push_unit(v, json!({"unit": "b2", "at": "rout_table", "hits": 1})),
            "not on the table",
        ),
        (
            "start.units[0].hits",
            |v| v["start"]["units"][0]["hits"] = json!(3),
            "would remove a base of 'a1' at once (infantry: 3 hits a base)",
        ),
        (
            "start.units[0].hits",
            |v| v["start"]["phase"] = json!({"phase": "firing", "side": "b"}),
            "end of every Rally phase",
        ),
        (
            "start.units[0].lost[0]",
            |v| v["start"]["units"][0]["lost"] = json!([4]),
            "base 4",
        ),
        (
            "start.units[0].lost[1]",
            |v| v["start"]["units"][0]["lost"] = json!([3, 3]),
            "twice",
        ),
        (
            "start.units[0].lost",
            |v| {
                v["start"]["units"][0]["lost"] = json!([0, 1, 2, 3]);
            },
            "destroyed",
        ),
        (
            "start.units[1].lost",
            |v| push_unit(v, json!({"unit": "a2", "lost": [0], "ranks": [1]})),
            "only marker bases",
        ),
        (
            "start.units[0].ranks",
            |v| {
                v["start"]["units"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("ranks");
            },
            "give their ranks",
        ),
        (
            "start.units[0].ranks",
            |v| v["start"]["units"][0]["ranks"] = json!([2, 2]),
            "hold 4 bases",
        ),
        (
            "start.units[1].ranks",
            |v| push_unit(v, json!({"unit": "a-sq", "lost": [0, 1], "ranks": [2]})),
            "square in one rank",
        ),
        (
            "start.units[0].lost_this_turn",
            |v| v["start"]["units"][0]["lost_this_turn"] = json!(2),
            "lists 1 lost",
        ),
        (
            "start.units[1].lost_this_turn",
            |v| {
                v["start"]["phase"] = json!({"phase": "artillery_effectiveness"});
                v["start"]["units"][0]["hits"] = json!(0);
                push_unit(
                    v,
                    json!({"unit": "b1", "lost": [0], "ranks": [2], "lost_this_turn": 1}),
                );
            },
            "before the turn's first firing",
        ),
        (
            "start.units[1].fired",
            |v| push_unit(v, json!({"unit": "b1", "fired": true})),
            "side b has had a phase to fire",
        ),
        (
            "start.units[1].fired",
            |v| push_unit(v, json!({"unit": "a-hussars", "fired": true})),
            "cavalry",
        ),
        (
            "start.units[1].charger",
            |v| push_unit(v, json!({"unit": "a-hussars", "charger": true})),
            "Orders phase",
        ),
        (
            "start.officers[0].attached",
            |v| v["start"]["officers"][0]["attached"] = json!("b1"),
            "his own side",
        ),
        (
            "start.officers[0].attached",
            |v| v["sides"]["a"]["officers"][1]["position"] = json!([400, 300]),
            "not touching",
        ),
        (
            "start.officers[0].attached",
            |v| {
                push_unit(v, json!({"unit": "a-sq", "at": "destroyed"}));
                v["start"]["officers"][0]["attached"] = json!("a-sq");
            },
            "not on the table",
        ),
        (
            "sides.b.officers[1].position",
            |v| {
                v["sides"]["b"]["officers"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("position");
            },
            "must stand on the table",
        ),
        (
            "sides.a.officers[1].position",
            |v| {
                v["start"]["officers"][0] = json!({"officer": "a-d1", "lost_turn": 1});
            },
            "is lost",
        ),
        (
            "start.officers[0].attached",
            |v| v["start"]["officers"][0]["lost_turn"] = json!(1),
            "a lost officer",
        ),
        (
            "start.officers[0].lost_turn",
            |v| {
                v["start"]["officers"][0] = json!({"officer": "a-d1", "lost_turn": 3});
            },
            "turn 3",
        ),
        (
            "start.armies.a.skirmish_factor",
            |v| v["start"]["armies"]["a"]["skirmish_factor"] = json!(9),
            "above the side's 8",
        ),
        (
            "start.armies.b.skirmish_passed",
            |v| {
                v["start"]["armies"]["b"]
                    .as_object_mut()
                    .unwrap()
                    .remove("skirmish_passed");
            },
            "both armies tested",
        ),
        (
            "start.armies.a.artillery_passed",
            |v| {
                v["start"]["armies"]["a"]
                    .as_object_mut()
                    .unwrap()
                    .remove("artillery_passed");
            },
            "both armies tested",
        ),
        (
            "start.armies.a.skirmish_won",
            |v| {
                v["start"]["armies"]["a"]["skirmish_won"] = json!(true);
                v["start"]["armies"]["a"]["skirmish_passed"] = json!(false);
            },
            "only by passing",
        ),
        (
            "start.armies.b.skirmish_won",
            |v| {
                v["start"]["armies"]["a"]["skirmish_won"] = json!(true);
                v["start"]["armies"]["b"]["skirmish_won"] = json!(true);
            },
            "one side at most",
        ),
        (
            "start.armies.a.skirmish_passed",
            |v| {
                v["start"]["turn"] = json!(1);
                v["start"]["phase"] = json!({"phase": "skirmisher_superiority"});
                v["start"]["units"][0]["hits"] = json!(0);
            },
            "no earlier test",
        ),
        (
            "start.units",
            |v| {
                push_unit(v, json!({"unit": "b1", "at": "destroyed"}));
                push_unit(v, json!({"unit": "b2", "at": "captured"}));
            },
            "side b has no unit on the table",
        ),
        (
            "sides.b.units[1].position",
            |v| v["sides"]["b"]["units"][1]["position"] = json!([800, 480]),
            "overlaps",
        ),
        (
            "start.units[1].status",
            |v| push_unit(v, json!({"unit": "b2", "status": "shaken"})),
            "unknown variant `shaken`",
        ),
        (
            "start.units[0].hits",
            |v| v["start"]["units"][0]["hits"] = json!(-1),
            "invalid value",
        ),
        (
            "start.officers[0].officer",
            |v| v["start"]["officers"][0]["officer"] = json!("nobody"),
            "unknown officer 'nobody'",
        ),
        (
            "start.units[0].bases_left",
            |v| v["start"]["units"][0]["bases_left"] = json!(3),
            "unknown field",
        ),
    ];
    for (path, edit, words) in cases {
        let mut v = valid();
        edit(&mut v);
        let e = match scenario::from_json_value(v) {
            Err(e) => e,
            Ok(d) => match scenario::validate(d) {
                Err(e) => e,
                Ok(_) => panic!("{path} ({words}): accepted"),
            },
        };
        assert_eq!(e.path, path, "{path}: {e}");
        assert!(
            e.message.contains(words),
            "{path}: '{}' lacks '{words}'",
            e.message
        );
    }
}

fn push_unit(v: &mut Value, entry: Value) {
    v["start"]["units"].as_array_mut().unwrap().push(entry);
}

#[test]
fn a_unit_off_the_table_may_stand_where_another_stands() {
    let mut v = valid();
    // b2 was destroyed where a unit of side a now stands: not an overlap.
    v["sides"]["b"]["units"][1]["position"] = json!([800, 480]);
    push_unit(&mut v, json!({"unit": "b2", "at": "destroyed"}));
    let sc = load(v);
    assert_eq!(
        State::initial(&sc).unit(ix(&sc, "b2")).at,
        Whereabouts::Destroyed
    );
}

// ------------------------------------------------------------ saves

#[test]
fn a_battle_started_mid_way_saves_and_loads() {
    let sc = Arc::new(load(valid()));
    let mut m = GameMatch::<Huzzah>::new(sc.clone(), 7);
    assert_eq!(m.state().turn, 2);
    let mut rng = fm_core::rng_from_seed(7);
    for _ in 0..40 {
        let Some(c) = m.random_command(&mut rng) else {
            break;
        };
        m.apply(&c).expect("legal");
    }
    let saved = m.save();
    let mut back = GameMatch::<Huzzah>::load(&saved).expect("loads");
    assert_eq!(back.state(), m.state());
    assert_eq!(back.log(), m.log());
    assert_eq!(back.save(), saved);
    // Both play on alike to the end.
    let mut r1 = fm_core::rng_from_seed(8);
    let mut r2 = fm_core::rng_from_seed(8);
    while let Some(c) = m.random_command(&mut r1) {
        assert_eq!(back.random_command(&mut r2).as_ref(), Some(&c));
        let a = m.apply(&c).expect("legal").to_vec();
        assert_eq!(back.apply(&c).expect("legal"), a.as_slice());
    }
    assert!(m.is_over() && back.is_over());
    assert_eq!(
        Huzzah::state_hash(m.state()),
        Huzzah::state_hash(back.state())
    );

    // Through the system-neutral layer too: scenario JSON naming its system.
    let mut v = valid();
    v["system"] = json!("huzzah");
    let mut d = fm_core::any::new_match_value(v, 3).expect("a match");
    let mut rng = fm_core::rng_from_seed(3);
    for _ in 0..25 {
        let Some(i) = d.random_action(&mut rng) else {
            break;
        };
        d.apply_index(i).expect("legal");
    }
    let again = fm_core::any::load_match(&d.save()).expect("loads");
    assert_eq!(again.state_hash(), d.state_hash());
    assert_eq!(again.state_json(), d.state_json());
}

/// The example of docs/huzzah.md ("Starting mid-battle") loads on the firefight, as the
/// text says.
#[test]
fn the_documented_start_is_valid() {
    let doc = include_str!("../docs/huzzah.md");
    let at = doc.find("### Starting mid-battle").expect("the section");
    let block = &doc[at..];
    let from = block.find("```json\n").expect("its example") + "```json\n".len();
    let to = from + block[from..].find("```").expect("its end");
    let example: Value = serde_json::from_str(&block[from..to]).expect("JSON");
    let mut v: Value =
        serde_json::from_str(include_str!("../fm-core/scenarios/huzzah-firefight.json")).unwrap();
    v.as_object_mut().unwrap().remove("system");
    v["id"] = json!("firefight-mid-battle");
    v["sides"]["a"]["officers"][1]["position"] = json!([800, 460]);
    v["sides"]["b"]["officers"][1]
        .as_object_mut()
        .unwrap()
        .remove("position");
    v["start"] = example["start"].clone();
    let sc = load(v);
    let s = State::initial(&sc);
    assert_eq!((s.turn, s.phase), (3, Phase::Orders { side: Side::B }));
    assert_eq!(s.superiority, Some(Side::A));
    assert!(s.armies.a.artillery_effective && !s.armies.b.artillery_effective);
    assert_eq!(s.unit(ix(&sc, "br-3")).at, Whereabouts::RoutTable);
    let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
    assert_eq!(s.pending, Pending::Orders { side: Side::B });
}
