//! Huzzah! Glorious Empires orders and movement (pages 12-13 and 16-21), each test named
//! after its page (`rule_p17_…`), on small hand-built tables, with loaded dice so each
//! asserts the exact events; and the missing rules' decisions (melee, rally, officer
//! moves) as the engine asks for them.
//!
//! Tables: side A faces 0 (towards +y) from low y, side B faces 180 from higher y;
//! positions in the helpers are millimetres (the JSON's unit), lengths given to
//! `moved_tenths` tenths of a millimetre (`Len`'s unit). Bases are 40 mm. A unit's anchor is the centre of
//! its front edge, its bases behind it.
//!
//! The scaffolding is copied from `tests/huzzah_rules.rs`. Where a test needs a
//! situation no command brings about (an attached officer, a unit that fired), it sets a
//! plain state field before the turn starts, and says why.

use fm_core::huzzah::command::{Command, GroupArg};
use fm_core::huzzah::engine;
use fm_core::huzzah::event::{Event, Modifier, Test};
use fm_core::huzzah::firing;
use fm_core::huzzah::geometry::{self, Facing, Len, Point, Shape};
use fm_core::huzzah::legal;
use fm_core::huzzah::movement;
use fm_core::huzzah::odds::Chance;
use fm_core::huzzah::orders::{self, OrderKind};
use fm_core::huzzah::scenario::{self, BaseKind, DivisionIx, OfficerIx, Scenario, UnitIx};
use fm_core::huzzah::state::GroupRef;
use fm_core::huzzah::state::{Dice, Pending, Phase, State, Status};
use fm_core::{Side, UnitId};
use rand_core::RngCore;
use serde_json::{json, Value};

// ------------------------------------------------------------------------- helpers

/// Dice that come up as scripted (each value 1-6), then panic: a test states every
/// roll it expects.
struct Loaded(std::collections::VecDeque<u8>);

impl Loaded {
    fn new(dice: &[u8]) -> Loaded {
        Loaded(dice.iter().copied().collect())
    }
}

impl RngCore for Loaded {
    fn next_u32(&mut self) -> u32 {
        let d = self
            .0
            .pop_front()
            .expect("the test scripted fewer dice than rolled");
        (d - 1) as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.next_u32() as u64
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next_u32() as u8;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// A trained unit of `bases` in `ranks`, anchored at `at` (mm), facing its side's way.
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

/// A trained unit of `n` infantry bases in one line.
fn line(id: &str, side: Side, n: usize, at: [i64; 2]) -> Value {
    unit(id, side, &vec!["infantry"; n], &[n as u8], at)
}

/// `v` with `key` set to `val`.
fn with(mut v: Value, key: &str, val: Value) -> Value {
    v[key] = val;
    v
}

fn side(name: &str, prefix: &str, units: Vec<Value>) -> Value {
    json!({
        "name": name, "skirmish_factor": 8, "artillery_factor": 8,
        "officers": [
            {"id": format!("{prefix}-cinc"), "rank": "cinc", "quality": "average", "position": [100, 100]},
            {"id": format!("{prefix}-d1"), "rank": "division", "quality": "average", "position": [200, 100]}
        ],
        "divisions": [{"id": format!("{prefix}-div"), "officer": format!("{prefix}-d1")}],
        "units": units
    })
}

/// Officers in scenario order: a-cinc, a-d1, b-cinc, b-d1.
const B_D1: u16 = 3;

/// A 1200 × 1200 mm table, 40 mm bases, fair weather, placed set-up, side a first.
fn table(a: Vec<Value>, b: Vec<Value>) -> Value {
    json!({
        "id": "test-table", "name": "test", "provenance": "stand-in: a test table",
        "table": {"width_mm": 1200, "depth_mm": 1200}, "base_mm": 40, "turns": 3,
        "battle": "encounter", "setup": "placed", "first": "a",
        "conditions": [{"turn": 1, "ground": "normal", "weather": "fair"}],
        "terrain": [],
        "sides": {"a": side("First", "a", a), "b": side("Second", "b", b)}
    })
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

fn play(sc: &Scenario, s: &mut State, cmd: Command, dice: &[u8]) -> Vec<Event> {
    let mut rng = Loaded::new(dice);
    let ev =
        engine::apply(sc, s, &cmd, &mut rng).unwrap_or_else(|e| panic!("{cmd:?} refused: {e:?}"));
    s.apply_events(sc, &ev);
    assert!(rng.0.is_empty(), "dice left over: {:?}", rng.0);
    ev
}

/// Applies a command that must be refused, without rolling a die or changing the
/// state; returns the rule it broke.
fn refused(sc: &Scenario, s: &State, cmd: Command) -> fm_core::RuleError {
    let before = s.clone();
    let e = engine::apply(sc, s, &cmd, &mut Loaded::new(&[]))
        .expect_err("the command should be refused");
    assert_eq!(*s, before);
    e
}

fn md(why: &str, by: i8) -> Modifier {
    Modifier {
        why: why.to_string(),
        by,
    }
}

/// A test as the engine records it (the factor given, as clamped).
fn test(base: i8, modifiers: Vec<Modifier>, factor: i8, dice: (u8, u8), passed: bool) -> Test {
    Test {
        base,
        modifiers,
        factor,
        dice: Dice(dice.0, dice.1),
        passed,
    }
}

/// A unit's expected shape: anchor in mm, facing, ranks, 40 mm bases.
fn shape(x: i64, y: i64, facing: u16, ranks: &[u8]) -> Shape {
    Shape::new(Point::mm(x, y), Facing(facing), ranks.to_vec(), Len::mm(40))
}

fn fire_cmd(unit: &str, target: &str) -> Command {
    Command::Fire {
        unit: unit.into(),
        target: target.into(),
        bases: None,
    }
}

fn hold_cmd(unit: &str) -> Command {
    Command::HoldFire { unit: unit.into() }
}

/// The four tests of the two common phases all failing (6-6): nobody has skirmisher
/// superiority, no army's guns are effective.
const QUIET: [u8; 8] = [6, 6, 6, 6, 6, 6, 6, 6];
/// A new battle of a placed set-up (side a first, no roll-off): the officers placed
/// (Player 2's, then Player 1's), `prep` applied just before the last, and the first
/// turn's opening rolls (`turn_dice`). Returns the state and the last command's events.
fn begin_with(
    sc: &Scenario,
    turn_dice: &[u8],
    prep: impl FnOnce(&mut State),
) -> (State, Vec<Event>) {
    let (mut s, _) = engine::new_game(sc, &mut Loaded::new(&[]));
    let mut prep = Some(prep);
    loop {
        assert!(
            matches!(s.pending, Pending::PlaceOfficer { .. }),
            "{:?}",
            s.pending
        );
        let cmd = legal::legal_commands(sc, &s)[0].clone();
        if s.officers.iter().filter(|o| o.at.is_none()).count() == 1 {
            (prep.take().unwrap())(&mut s);
            let ev = play(sc, &mut s, cmd, turn_dice);
            return (s, ev);
        }
        play(sc, &mut s, cmd, &[]);
    }
}

fn begin(sc: &Scenario, turn_dice: &[u8]) -> (State, Vec<Event>) {
    begin_with(sc, turn_dice, |_| {})
}

fn fire_resolved(unit: &str, target: &str, bases: u8, t: Test, hits: u8) -> Event {
    Event::FireResolved {
        unit: uid(unit),
        target: uid(target),
        bases,
        test: t,
        hits,
    }
}

fn hits_applied(unit: &str, hits: u8) -> Event {
    Event::HitsApplied {
        unit: uid(unit),
        hits,
    }
}

fn removal_done(unit: &str, odd_hits: u8) -> Event {
    Event::RemovalDone {
        unit: uid(unit),
        odd_hits,
    }
}

fn base_removed(unit: &str, rank: u8, kind: BaseKind, shape: Shape) -> Event {
    Event::BaseRemoved {
        unit: uid(unit),
        rank,
        kind,
        hits: kind.hits(),
        shape,
    }
}

fn morale(unit: &str, t: Test) -> Event {
    Event::MoraleTested {
        unit: uid(unit),
        test: t,
    }
}

fn status(unit: &str, st: Status, why: &str) -> Event {
    Event::StatusChanged {
        unit: uid(unit),
        status: st,
        why: why.into(),
    }
}

fn resolved(unit: &str) -> Event {
    Event::TargetResolved { unit: uid(unit) }
}

const FAILED: &str = "p14: failed a morale test";
// ------------------------------------------------------------------------- orders helpers

const A_CINC: OfficerIx = OfficerIx(0);
const A_D1: OfficerIx = OfficerIx(1);
/// The second division's officer, in tables built by [`two_divisions`].
const A_D2: OfficerIx = OfficerIx(2);

fn div(sc: &Scenario, id: &str) -> DivisionIx {
    sc.divisions()
        .iter()
        .find(|d| d.id == id)
        .expect("division")
        .ix
}

fn order(officer: &str, group: GroupArg, kind: OrderKind) -> Command {
    Command::Order {
        officer: officer.into(),
        group,
        order: kind,
    }
}

fn u_arg(id: &str) -> GroupArg {
    GroupArg::Unit(id.into())
}

fn d_arg(id: &str) -> GroupArg {
    GroupArg::Division(id.into())
}

fn advance_cmd(unit: &str, distance_mm: i64, drift_mm: i64) -> Command {
    Command::Advance {
        unit: unit.into(),
        distance_mm: Len::mm(distance_mm),
        drift_mm: Len::mm(drift_mm),
    }
}

fn retire_cmd(unit: &str, distance_mm: i64) -> Command {
    Command::Retire {
        unit: unit.into(),
        distance_mm: Len::mm(distance_mm),
    }
}

fn charge_cmd(unit: &str, target: &str, offset_mm: Option<i64>) -> Command {
    Command::Charge {
        unit: unit.into(),
        target: target.into(),
        offset_mm: offset_mm.map(Len::mm),
    }
}

#[allow(clippy::too_many_arguments)]
fn given(
    sc: &Scenario,
    officer: OfficerIx,
    group: GroupRef,
    kind: OrderKind,
    units: Vec<UnitIx>,
    test: Option<Test>,
    automatic: bool,
    huzzah: bool,
    rate_mm: i64,
) -> Event {
    Event::OrderGiven {
        officer: sc.officer_id(officer),
        group: sc.group_arg(group),
        order: kind,
        units: sc.unit_ids(&units),
        test,
        automatic,
        huzzah,
        rate_mm: Len(rate_mm * 10),
    }
}

fn act(sc: &Scenario, units: Vec<UnitIx>, kind: OrderKind) -> Event {
    Event::Awaiting {
        decision: Pending::Act {
            side: Side::A,
            order: kind,
            units: sc.unit_ids(&units),
        },
    }
}

fn awaiting_orders() -> Event {
    Event::Awaiting {
        decision: Pending::Orders { side: Side::A },
    }
}

/// Holds every fire of side A's firing phase, to reach its Orders phase.
fn to_orders(sc: &Scenario, s: &mut State) {
    loop {
        match s.pending.clone() {
            Pending::DeclareFire {
                side: Side::A,
                units,
            } => {
                let id = units[0].to_string();
                play(sc, s, hold_cmd(&id), &[]);
            }
            Pending::Orders { side: Side::A } => return,
            p => panic!("unexpected decision {p:?}"),
        }
    }
}

/// Side A's Orders phase of turn 1, `prep` applied before the turn starts.
fn orders_with(sc: &Scenario, prep: impl FnOnce(&mut State)) -> State {
    let (mut s, _) = begin_with(sc, &QUIET, prep);
    to_orders(sc, &mut s);
    s
}

fn orders_phase(sc: &Scenario) -> State {
    orders_with(sc, |_| {})
}

const OUT_OF_RANGE: &str = "out of range of the enemy";
const RADIUS: &str = "all units ordered completely within the command radius";
const SUCCESSIVE: &str = "each successive order to the same command group or sub-command";

/// Two divisions on side a: a1 (and a3) in a-div under a-d1, a2 in a-div2 under a-d2;
/// b1 far away (more than 80 cm: "out of range of the enemy").
fn two_divisions() -> Scenario {
    let mut v = table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            with(
                line("a2", Side::A, 2, [300, 200]),
                "division",
                json!("a-div2"),
            ),
            line("a3", Side::A, 2, [900, 200]),
        ],
        vec![line("b1", Side::B, 2, [600, 1010])],
    );
    v["sides"]["a"]["officers"].as_array_mut().unwrap().push(
        json!({"id": "a-d2", "rank": "division", "quality": "average", "position": [300, 100]}),
    );
    v["sides"]["a"]["divisions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "a-div2", "officer": "a-d2"}));
    load(v)
}

// ------------------------------------------------------------------------- pages 16-17

#[test]
fn rule_p17_a_division_officer_orders_his_division_and_a_unit_of_it() {
    let sc = two_divisions();
    let (a1, a3) = (ix(&sc, "a1"), ix(&sc, "a3"));
    let mut s = orders_phase(&sc);
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", d_arg("a-div"), OrderKind::Advance),
        &[3, 4],
    );
    assert_eq!(
        ev,
        vec![
            given(
                &sc,
                A_D1,
                GroupRef::Division(div(&sc, "a-div")),
                OrderKind::Advance,
                vec![a1, a3],
                Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (3, 4), true)),
                false,
                false,
                200
            ),
            act(&sc, vec![a1, a3], OrderKind::Advance),
        ]
    );
    // A unit of his division, on a fresh turn.
    let mut s = orders_phase(&sc);
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a3"), OrderKind::Retire),
        &[5, 4],
    );
    assert_eq!(
        ev,
        vec![
            given(
                &sc,
                A_D1,
                GroupRef::Unit(a3),
                OrderKind::Retire,
                vec![a3],
                Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (5, 4), true)),
                false,
                false,
                200
            ),
            act(&sc, vec![a3], OrderKind::Retire),
        ]
    );
}

#[test]
fn rule_p17_no_authority_over_another_divisions_unit_the_cinc_orders_any() {
    let sc = two_divisions();
    let a2 = ix(&sc, "a2");
    let mut s = orders_phase(&sc);
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a2"), OrderKind::Advance)).rule,
        "p17"
    );
    assert_eq!(
        refused(&sc, &s, order("a-d1", d_arg("a-div2"), OrderKind::Advance)).rule,
        "p17"
    );
    assert!(!movement::may_order(&sc, &s, A_D1, GroupRef::Unit(a2)));
    assert!(movement::may_order(&sc, &s, A_D2, GroupRef::Unit(a2)));
    assert!(movement::may_order(&sc, &s, A_CINC, GroupRef::Unit(a2)));
    // a-d2's orderable groups: his unit and his division.
    assert_eq!(
        movement::orderable(&sc, &s, A_D2),
        vec![
            (GroupRef::Unit(a2), vec![a2]),
            (GroupRef::Division(div(&sc, "a-div2")), vec![a2])
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("a2"), OrderKind::Advance),
        &[2, 2],
    );
    assert_eq!(
        ev[0],
        given(
            &sc,
            A_CINC,
            GroupRef::Unit(a2),
            OrderKind::Advance,
            vec![a2],
            Some(test(
                8,
                vec![md(RADIUS, 1), md(OUT_OF_RANGE, 1)],
                10,
                (2, 2),
                true
            )),
            false,
            false,
            200
        )
    );
}

#[test]
fn rule_p16_an_attached_officer_orders_only_his_unit_and_a_unit_with_another_attached_is_left_out()
{
    let sc = two_divisions();
    let (a1, a3) = (ix(&sc, "a1"), ix(&sc, "a3"));
    // No command attaches an officer during the Orders phase yet: the CinC is attached
    // to a3 as the turn starts.
    let mut s = orders_with(&sc, |s| s.officers[0].attached = Some(a3));
    assert!(movement::may_order(&sc, &s, A_CINC, GroupRef::Unit(a3)));
    assert!(!movement::may_order(&sc, &s, A_CINC, GroupRef::Unit(a1)));
    assert_eq!(
        refused(&sc, &s, order("a-cinc", u_arg("a1"), OrderKind::Advance)).rule,
        "p17"
    );
    // a-d1's division leaves a3 out: another officer is attached to it.
    assert_eq!(
        movement::group_units(&sc, &s, A_D1, GroupRef::Division(div(&sc, "a-div"))),
        vec![a1]
    );
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", d_arg("a-div"), OrderKind::Advance),
        &[1, 2],
    );
    assert_eq!(
        ev[0],
        given(
            &sc,
            A_D1,
            GroupRef::Division(div(&sc, "a-div")),
            OrderKind::Advance,
            vec![a1],
            Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (1, 2), true)),
            false,
            false,
            200
        )
    );
}

#[test]
fn rule_p16_a_failed_order_ends_that_officers_orders() {
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Advance),
        &[5, 5],
    );
    assert_eq!(
        ev,
        vec![
            given(
                &sc,
                A_D1,
                GroupRef::Unit(a1),
                OrderKind::Advance,
                vec![a1],
                Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (5, 5), false)),
                false,
                false,
                200
            ),
            awaiting_orders(),
        ]
    );
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a3"), OrderKind::Advance)).rule,
        "p16"
    );
    assert!(movement::orderable(&sc, &s, A_D1).is_empty());
    // Another officer still may.
    play(
        &sc,
        &mut s,
        order("a-d2", u_arg("a2"), OrderKind::Advance),
        &[1, 1],
    );
}

#[test]
fn rule_p16_a_failed_cinc_ends_the_orders_phase_at_once() {
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    let ev = play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("a1"), OrderKind::Advance),
        &[6, 5],
    );
    assert_eq!(
        ev[..3],
        [
            given(
                &sc,
                A_CINC,
                GroupRef::Unit(a1),
                OrderKind::Advance,
                vec![a1],
                Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (6, 5), false)),
                false,
                false,
                200
            ),
            Event::OrdersEnded {
                side: Side::A,
                why: "p16: the CinC failed an order".into()
            },
            Event::PhaseStarted {
                phase: Phase::FireAtChargers { side: Side::B }
            },
        ]
    );
    assert!(!matches!(s.pending, Pending::Orders { .. }));
}

#[test]
fn rule_p16_ordering_with_another_officer_leaves_the_first_done() {
    let sc = two_divisions();
    let mut s = orders_phase(&sc);
    play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Advance),
        &[2, 3],
    );
    play(&sc, &mut s, Command::EndOrder, &[]);
    play(
        &sc,
        &mut s,
        order("a-d2", u_arg("a2"), OrderKind::Advance),
        &[2, 3],
    );
    play(&sc, &mut s, Command::EndOrder, &[]);
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a3"), OrderKind::Advance)).rule,
        "p16"
    );
    assert!(s.orders.done.contains(&A_D1));
}

#[test]
fn rule_p16_successive_orders_take_minus_one_each_and_another_group_closes_the_first() {
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    let g = GroupRef::Unit(a1);
    let mut mods = vec![md(OUT_OF_RANGE, 1)];
    for (n, dice) in [(0, (1, 2)), (1, (2, 2)), (2, (3, 2))] {
        let ev = play(
            &sc,
            &mut s,
            order("a-d1", u_arg("a1"), OrderKind::Advance),
            &[dice.0, dice.1],
        );
        let mut want = mods.clone();
        if n > 0 {
            want = vec![md(SUCCESSIVE, -n), md(OUT_OF_RANGE, 1)];
        }
        assert_eq!(
            ev[0],
            given(
                &sc,
                A_D1,
                g,
                OrderKind::Advance,
                vec![a1],
                Some(test(8, want, 9 - n, dice, true)),
                false,
                false,
                200
            ),
            "order {n}"
        );
        play(&sc, &mut s, Command::EndOrder, &[]);
        mods = vec![md(OUT_OF_RANGE, 1)];
    }
    // Another group: the first is closed to him.
    play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a3"), OrderKind::Advance),
        &[2, 2],
    );
    play(&sc, &mut s, Command::EndOrder, &[]);
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a1"), OrderKind::Advance)).rule,
        "p16"
    );
    // Its units too, in a larger group; and a3, ordered as a group of its own, would
    // only act again on further orders to that group: the division has nobody left.
    assert_eq!(
        movement::group_units(&sc, &s, A_D1, GroupRef::Division(div(&sc, "a-div"))),
        vec![]
    );
}

#[test]
fn rule_p17_routing_units_and_reserve_artillery_that_fired_are_left_out() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            unit("a2", Side::A, &["foot_artillery"], &[1], [300, 200]),
            line("a3", Side::A, 2, [900, 200]),
        ],
        vec![line("b1", Side::B, 2, [600, 1010])],
    ));
    let (a1, a2, a3) = (ix(&sc, "a1"), ix(&sc, "a2"), ix(&sc, "a3"));
    // No fire reaches b1 from here: a2's fire this turn and a1's rout are set directly.
    let mut s = orders_with(&sc, |s| {
        s.unit_mut(a1).status = Status::Routing;
    });
    s.unit_mut(a2).fired = true;
    let g = GroupRef::Division(div(&sc, "a-div"));
    assert_eq!(movement::group_units(&sc, &s, A_D1, g), vec![a3]);
    let e = refused(&sc, &s, order("a-d1", u_arg("a1"), OrderKind::Retire));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        (
            "p17",
            "a1 is routing, and routing units cannot be given orders"
        )
    );
    const BATTERY: &str = "a2 is reserve artillery that fired this turn: grand batteries and single bases of reserve artillery cannot move if they fire";
    let e = refused(&sc, &s, order("a-d1", u_arg("a2"), OrderKind::Advance));
    assert_eq!((e.rule.as_str(), e.message.as_str()), ("p17", BATTERY));
    // Ordered with its division, the battery is left out, and moving it is refused
    // with the same reason.
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Advance);
    let e = refused(&sc, &s, advance_cmd("a2", 50, 0));
    assert_eq!((e.rule.as_str(), e.message.as_str()), ("p17", BATTERY));
    // a3 acts, and the order is done: what waits now is the next order.
    play(&sc, &mut s, advance_cmd("a3", 50, 0), &[]);
    let e = refused(&sc, &s, advance_cmd("a3", 50, 0));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("p16", "advance does not answer the decision now: side a gives orders (order, appoint) or ends its Orders phase (end_phase)")
    );
}

// ------------------------------------------------------------------------- page 19

/// An order to unit `id` by a-d1 that succeeds (1-2 against 9).
fn ordered(sc: &Scenario, s: &mut State, group: GroupArg, kind: OrderKind) -> Vec<Event> {
    play(sc, s, order("a-d1", group, kind), &[1, 2])
}

fn moved(u: &str, sh: Shape, distance_mm: i64, why: &str) -> Event {
    Event::UnitMoved {
        unit: uid(u),
        shape: sh,
        sector: None,
        distance_mm: Len(distance_mm * 10),
        why: why.into(),
    }
}

/// The reported distance of a charge is the straight-ahead distance to the first
/// contact within the 1 mm contact tolerance (159 mm for a 160 mm gap); the squared-up
/// position is flush.
fn moved_tenths(u: &str, sh: Shape, distance: i64, why: &str) -> Event {
    Event::UnitMoved {
        unit: uid(u),
        shape: sh,
        sector: None,
        distance_mm: Len(distance),
        why: why.into(),
    }
}

const ADVANCES: &str = "p19: advances";

#[test]
fn rule_p19_an_advance_is_straight_ahead_then_a_drift_facing_0_and_180() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            with(line("a4", Side::A, 2, [300, 700]), "facing", json!(180)),
        ],
        vec![line("b1", Side::B, 2, [1000, 1150])],
    ));
    let (a1, a4) = (ix(&sc, "a1"), ix(&sc, "a4"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Advance);
    let ev = play(&sc, &mut s, advance_cmd("a1", 150, 30), &[]);
    assert_eq!(
        ev,
        vec![
            moved("a1", shape(630, 350, 0, &[2]), 150, ADVANCES),
            Event::Acted {
                unit: sc.unit_id(a1)
            },
            act(&sc, vec![a4], OrderKind::Advance),
        ]
    );
    let ev = play(&sc, &mut s, advance_cmd("a4", 100, 20), &[]);
    assert_eq!(
        ev,
        vec![
            moved("a4", shape(280, 600, 180, &[2]), 100, ADVANCES),
            Event::Acted {
                unit: sc.unit_id(a4)
            },
            Event::OrderDone,
            awaiting_orders(),
        ]
    );
}

#[test]
fn rule_p19_advance_limits_rate_drift_table_and_a_square() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            unit(
                "c1",
                Side::A,
                &["battle_cavalry", "battle_cavalry"],
                &[2],
                [300, 200],
            ),
            line("a3", Side::A, 2, [900, 1150]),
        ],
        vec![line("b1", Side::B, 2, [100, 1150])],
    ));
    let c1 = ix(&sc, "c1");
    let mut s = orders_phase(&sc);
    // Infantry with cavalry: the group moves at the infantry's 20 cm.
    let ev = ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Advance);
    let Event::OrderGiven { rate_mm, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(*rate_mm, Len(2000));
    assert_eq!(refused(&sc, &s, advance_cmd("c1", 250, 0)).rule, "p19");
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 201, 0)).rule, "p19");
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 100, 51)).rule, "p19");
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 100, -51)).rule, "p19");
    assert_eq!(refused(&sc, &s, advance_cmd("a3", 60, 0)).rule, "p19");
    play(&sc, &mut s, advance_cmd("c1", 200, -50), &[]);
    // A square cannot move (set directly: no command forms a square yet).
    let mut sq = s.clone();
    sq.unit_mut(ix(&sc, "a1")).shape.square = true;
    assert_eq!(refused(&sc, &sq, advance_cmd("a1", 100, 0)).rule, "p22");
    assert_eq!(s.unit(c1).shape, shape(250, 400, 0, &[2]));
}

fn wood_ahead() -> Scenario {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [100, 1150])],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[520, 260], [680, 260], [680, 320], [520, 320]]}]);
    load(v)
}

#[test]
fn rule_p19_an_advance_does_not_enter_dense_terrain_a_road_column_passes_through() {
    let sc = wood_ahead();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    // Into it, and through it.
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 80, 0)).rule, "p19");
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 170, 0)).rule, "p19");
    // Short of it is fine.
    let mut short = s.clone();
    play(&sc, &mut short, advance_cmd("a1", 50, 0), &[]);
    // A road column passes through (set directly: the deploy order is not built).
    let mut col = orders_with(&sc, |s| s.unit_mut(a1).column = true);
    ordered(&sc, &mut col, u_arg("a1"), OrderKind::Advance);
    let ev = play(&sc, &mut col, advance_cmd("a1", 200, 0), &[]);
    assert_eq!(ev[0], moved("a1", shape(600, 400, 0, &[2]), 200, ADVANCES));
    // But it does not end in it.
    let mut col = orders_with(&sc, |s| s.unit_mut(a1).column = true);
    ordered(&sc, &mut col, u_arg("a1"), OrderKind::Advance);
    assert_eq!(refused(&sc, &col, advance_cmd("a1", 100, 0)).rule, "p19");
}

#[test]
fn rule_p19_friendly_overlap_disorders_both() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            line("a2", Side::A, 2, [650, 380]),
        ],
        vec![line("b1", Side::B, 2, [100, 1150])],
    ));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    let ev = play(&sc, &mut s, advance_cmd("a1", 150, 0), &[]);
    assert_eq!(
        ev[..3],
        [
            moved("a1", shape(600, 350, 0, &[2]), 150, ADVANCES),
            status("a1", Status::Disordered, "p20: friendly units overlap"),
            status("a2", Status::Disordered, "p20: friendly units overlap"),
        ]
    );
}

#[test]
fn rule_p18_an_attached_officer_moves_with_his_unit_a_friend_under_it_is_displaced() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [100, 1150])],
    );
    v["sides"]["a"]["officers"][1]["position"] = json!([600, 330]);
    let sc = load(v);
    let a1 = ix(&sc, "a1");
    // No Orders-phase command attaches an officer: a-cinc is attached as the turn starts.
    let mut s = orders_with(&sc, |s| {
        s.officers[0].attached = Some(a1);
        s.officers[0].at = Some(Point::mm(600, 150));
    });
    play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("a1"), OrderKind::Advance),
        &[1, 2],
    );
    let ev = play(&sc, &mut s, advance_cmd("a1", 150, 0), &[]);
    assert_eq!(
        ev[..3],
        [
            moved("a1", shape(600, 350, 0, &[2]), 150, ADVANCES),
            Event::OfficerMoved {
                officer: sc.officer_id(OfficerIx(0)),
                at: Point::mm(600, 300),
                attached: Some(sc.unit_id(a1)),
                why: "moves with his unit".into()
            },
            Event::OfficerMoved {
                officer: sc.officer_id(OfficerIx(1)),
                at: Point::mm(600, 300),
                attached: None,
                why: "p18: displaced by a friendly unit".into()
            },
        ]
    );
}

#[test]
fn rule_p18_an_enemy_officer_reached_is_captured_or_joins_a_friend_in_his_radius() {
    for join in [false, true] {
        let mut b = vec![line("b1", Side::B, 2, [100, 1150])];
        if join {
            b.push(line("b2", Side::B, 2, [900, 400]));
        }
        let mut v = table(vec![line("a1", Side::A, 2, [600, 200])], b);
        v["sides"]["b"]["officers"][1]["position"] = json!([600, 330]);
        let sc = load(v);
        let a1 = ix(&sc, "a1");
        let mut s = orders_phase(&sc);
        ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
        let ev = play(&sc, &mut s, advance_cmd("a1", 150, 0), &[]);
        let want = if join {
            Event::OfficerMoved {
                officer: sc.officer_id(OfficerIx(B_D1)),
                at: Point::mm(900, 450),
                attached: Some(uid("b2")),
                why: "p18: reached by an enemy unit, he joins the nearest friendly unit in his command radius".into(),
            }
        } else {
            Event::OfficerCaptured {
                officer: sc.officer_id(OfficerIx(B_D1)),
                by: sc.unit_id(a1),
            }
        };
        assert_eq!(
            ev[..2],
            [moved("a1", shape(600, 350, 0, &[2]), 150, ADVANCES), want],
            "join {join}"
        );
    }
}

// ------------------------------------------------------------------------- pages 20-21: retire

const RETIRES: &str = "p20: retires";

/// a1 16 cm from b1's front: within one move of a formed enemy.
fn close_pair(a1: Value) -> Scenario {
    load(table(vec![a1], vec![line("b1", Side::B, 2, [600, 560])]))
}

#[test]
fn rule_p20_a_retire_is_half_the_move_straight_back_and_waver_tests_near_an_enemy() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let a1 = ix(&sc, "a1");
    for (dice, passed) in [((4, 4), true), ((5, 4), false)] {
        let mut s = orders_phase(&sc);
        ordered(&sc, &mut s, u_arg("a1"), OrderKind::Retire);
        assert_eq!(refused(&sc, &s, retire_cmd("a1", 101)).rule, "p20");
        let ev = play(&sc, &mut s, retire_cmd("a1", 100), &[dice.0, dice.1]);
        let mut want = vec![
            moved("a1", shape(600, 300, 0, &[2]), 100, RETIRES),
            Event::Acted {
                unit: sc.unit_id(a1),
            },
            Event::WaverTested {
                unit: sc.unit_id(a1),
                test: test(8, vec![], 8, dice, passed),
            },
        ];
        if !passed {
            want.push(status("a1", Status::Disordered, "p21: failed a waver test"));
        }
        want.extend([Event::OrderDone, awaiting_orders()]);
        assert_eq!(ev, want, "{dice:?}");
    }
}

#[test]
fn rule_p21_waver_test_modifiers_and_a_disordered_unit_that_fails_routs() {
    // A unit is hesitant or impulsive, not both: impulsive on its own table.
    let imp = close_pair(with(
        line("a1", Side::A, 2, [600, 400]),
        "impulsive",
        json!(true),
    ));
    let s = orders_phase(&imp);
    assert_eq!(
        movement::waver_modifiers(&imp, &s, ix(&imp, "a1")),
        vec![md("impulsive", -1)]
    );
    let a1 = with(line("a1", Side::A, 2, [600, 400]), "hesitant", json!(true));
    let mut v = table(vec![a1], vec![line("b1", Side::B, 2, [600, 560])]);
    v["sides"]["a"]["officers"][0]["inspirational"] = json!(true);
    let sc = load(v);
    let a1 = ix(&sc, "a1");
    let mut s = orders_with(&sc, |s| {
        s.unit_mut(a1).status = Status::Disordered;
        s.unit_mut(a1).disciplined = true;
        s.officers[0].attached = Some(a1);
        s.officers[0].at = Some(Point::mm(600, 350));
    });
    assert_eq!(
        movement::waver_modifiers(&sc, &s, a1),
        vec![
            md("disordered", -1),
            md("hesitant", -1),
            md("leader attached", 1),
            md("inspirational leader attached", 1),
            md("disciplined", 1),
        ]
    );
    play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("a1"), OrderKind::Retire),
        &[1, 2],
    );
    let ev = play(&sc, &mut s, retire_cmd("a1", 100), &[5, 5]);
    // Moved, the attached officer with it, acted, then the test.
    assert_eq!(
        ev[3],
        Event::WaverTested {
            unit: sc.unit_id(a1),
            test: test(
                8,
                vec![
                    md("disordered", -1),
                    md("hesitant", -1),
                    md("leader attached", 1),
                    md("inspirational leader attached", 1),
                    md("disciplined", 1),
                ],
                9,
                (5, 5),
                false
            ),
        }
    );
    assert_eq!(s.unit(a1).status, Status::Routing);
}

#[test]
fn rule_p20_a_retire_never_breaks_contact_nor_reaches_an_enemy() {
    // a1 in contact with b1 (its front on b1's front).
    let sc = close_pair(line("a1", Side::A, 2, [600, 560]));
    let s = orders_phase(&sc);
    let mut s2 = s.clone();
    ordered(&sc, &mut s2, u_arg("a1"), OrderKind::Retire);
    assert_eq!(refused(&sc, &s2, retire_cmd("a1", 50)).rule, "p20");
    // An enemy behind: retiring into it is refused.
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![
            line("b1", Side::B, 2, [100, 1150]),
            with(line("b2", Side::B, 2, [600, 300]), "facing", json!(0)),
        ],
    ));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Retire);
    assert_eq!(refused(&sc, &s, retire_cmd("a1", 80)).rule, "p20");
    let _ = s2;
}

// ------------------------------------------------------------------------- page 20: charge

const CHARGES: &str = "p20: charges";

#[test]
fn rule_p20_a_charge_straight_ahead_into_the_front_squares_up_flush() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    // An advance that would touch is a charge.
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 170, 0)).rule, "p20");
    let ev = play(&sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    assert_eq!(
        ev,
        vec![
            moved_tenths("a1", shape(600, 560, 0, &[2]), 1590, CHARGES),
            Event::Charged {
                unit: sc.unit_id(a1),
                target: sc.unit_id(b1),
                face: geometry::Face::Front
            },
            Event::Acted {
                unit: sc.unit_id(a1)
            },
            Event::OrderDone,
            awaiting_orders(),
        ]
    );
    // A charger acts on no more orders.
    let e = refused(&sc, &s, order("a-cinc", u_arg("a1"), OrderKind::Advance));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("p19", "a1 charged this turn: it is in contact with the enemy, and no order breaks contact (pages 19-22)")
    );
}

#[test]
fn rule_p20_a_charge_out_of_reach_is_refused() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![line("b1", Side::B, 2, [600, 610])],
    ));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    assert_eq!(refused(&sc, &s, charge_cmd("a1", "b1", None)).rule, "p19");
}

#[test]
fn rule_p20_the_owner_places_the_overlap_within_the_face() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let sc4 = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![line("b1", Side::B, 4, [600, 560])],
    ));
    let _ = sc;
    let mut s = orders_phase(&sc4);
    ordered(&sc4, &mut s, u_arg("a1"), OrderKind::Advance);
    assert_eq!(
        refused(&sc4, &s, charge_cmd("a1", "b1", Some(41))).rule,
        "p20"
    );
    let ev = play(&sc4, &mut s, charge_cmd("a1", "b1", Some(40)), &[]);
    assert_eq!(
        ev[0],
        moved_tenths("a1", shape(640, 560, 0, &[2]), 1590, CHARGES)
    );
}

// ------------------------------------------------------------------------- page 13

/// a1 charges b1 (16 cm straight ahead) and the Orders phase ends: the Fire at
/// Chargers phase follows with `dice`.
fn charged(sc: &Scenario, dice: &[u8]) -> (State, Vec<Event>) {
    let mut s = orders_phase(sc);
    ordered(sc, &mut s, u_arg("a1"), OrderKind::Advance);
    play(sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    let ev = play(sc, &mut s, Command::EndPhase, dice);
    (s, ev)
}

fn short_fire(dice: (u8, u8), passed: bool, hits: u8) -> Event {
    fire_resolved(
        "b1",
        "a1",
        2,
        test(
            6,
            vec![
                md("every two bases in the front line", 1),
                md("target at short range", 1),
            ],
            8,
            dice,
            passed,
        ),
        hits,
    )
}

#[test]
fn rule_p13_the_charged_unit_fires_at_short_range_a_failed_firer_only_disorders() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let (s, ev) = charged(&sc, &[6, 6, 6, 5]);
    assert_eq!(
        ev[..10],
        [
            Event::PhaseStarted {
                phase: Phase::FireAtChargers { side: Side::B }
            },
            // Range: from b1's centre to a1's front face, 2 cm.
            Event::FireDeclared {
                unit: sc.unit_id(b1),
                target: sc.unit_id(a1),
                range_mm: Len(200),
                short: true,
                bases: None
            },
            short_fire((6, 6), false, 0),
            hits_applied("a1", 0),
            removal_done("a1", 0),
            resolved("a1"),
            morale("b1", test(8, vec![], 8, (6, 5), false)),
            status("b1", Status::Disordered, FAILED),
            resolved("b1"),
            Event::PhaseStarted {
                phase: Phase::Combat { side: Side::A }
            },
        ]
    );
    // Disordered, not forced back.
    assert_eq!(s.unit(b1).shape, shape(600, 560, 180, &[2]));
    assert_eq!(
        s.pending,
        Pending::Melee {
            side: Side::A,
            a: sc.unit_id(a1),
            b: sc.unit_id(b1)
        }
    );
}

#[test]
fn rule_p13_a_unit_charged_by_two_chooses_its_target() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [560, 400]),
            line("a2", Side::A, 2, [640, 400]),
        ],
        vec![line("b1", Side::B, 4, [600, 560])],
    ));
    let (a1, a2, b1) = (ix(&sc, "a1"), ix(&sc, "a2"), ix(&sc, "b1"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Advance);
    play(&sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    play(&sc, &mut s, charge_cmd("a2", "b1", None), &[]);
    assert_eq!(s.unit(a1).shape, shape(560, 560, 0, &[2]));
    assert_eq!(s.unit(a2).shape, shape(640, 560, 0, &[2]));
    play(&sc, &mut s, Command::EndPhase, &[]);
    assert_eq!(
        s.pending,
        Pending::FireAtCharger {
            side: Side::B,
            unit: sc.unit_id(b1),
            chargers: sc.unit_ids(&[a1, a2])
        }
    );
    let ev = play(&sc, &mut s, fire_cmd("b1", "a2"), &[6, 6, 3, 3]);
    assert!(matches!(
        &ev[0],
        Event::FireDeclared { unit, target, short: true, .. } if *unit == sc.unit_id(b1) && *target == sc.unit_id(a2)
    ));
}

#[test]
fn rule_p13_units_in_combat_as_the_turn_began_do_not_fire_at_each_other() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 560]));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let (mut s, ev) = begin(&sc, &QUIET);
    assert!(ev.contains(&Event::InCombat {
        pairs: vec![(sc.unit_id(a1), sc.unit_id(b1))]
    }));
    to_orders(&sc, &mut s);
    // a1 is marked a charger (as if it had charged b1): still no fire at it.
    s.unit_mut(a1).charger = true;
    let ev = play(&sc, &mut s, Command::EndPhase, &[]);
    assert_eq!(
        ev,
        vec![
            Event::PhaseStarted {
                phase: Phase::FireAtChargers { side: Side::B }
            },
            Event::PhaseStarted {
                phase: Phase::Combat { side: Side::A }
            },
            Event::Awaiting {
                decision: Pending::Melee {
                    side: Side::A,
                    a: sc.unit_id(a1),
                    b: sc.unit_id(b1)
                }
            },
        ]
    );
}

#[test]
fn rule_p13_units_in_combat_as_the_turn_began_do_not_fire_at_each_other_in_the_firing_phase() {
    // Page 13: "Units that begin the turn in combat cannot fire at each other", in any
    // phase of that turn (ruling R-HZ-13b): a1 and b1 touch as turn 1 begins, so a1,
    // with nothing else in range, has no fire to declare in its Firing phase, and a
    // declaration at b1 is refused under page 13.
    let sc = close_pair(line("a1", Side::A, 2, [600, 560]));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let (s, ev) = begin(&sc, &QUIET);
    assert!(ev.contains(&Event::InCombat {
        pairs: vec![(sc.unit_id(a1), sc.unit_id(b1))]
    }));
    assert!(fm_core::huzzah::firing::targets(&sc, &s, a1).is_empty());
    assert!(fm_core::huzzah::firing::targets(&sc, &s, b1).is_empty());
    assert_eq!(s.pending, Pending::Orders { side: Side::A });
    let mut firing = s.clone();
    firing.pending = Pending::DeclareFire {
        side: Side::A,
        units: sc.unit_ids(&[a1]),
    };
    let e = refused(&sc, &firing, fire_cmd("a1", "b1"));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        (
            "p13",
            "a1 and b1 began the turn in combat, and units that begin the turn in combat cannot fire at each other"
        )
    );
}

#[test]
fn rule_p13_a_pair_that_parted_still_may_not_fire_at_each_other_that_turn() {
    // The pair of the turn's start holds for the whole turn, even once the units no
    // longer touch: b1 steps back 4 cm (set directly), still in a1's arc and range.
    let sc = close_pair(line("a1", Side::A, 2, [600, 560]));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let (mut s, _) = begin(&sc, &QUIET);
    s.unit_mut(b1).shape = shape(600, 600, 180, &[2]);
    assert!(fm_core::huzzah::firing::targets(&sc, &s, a1).is_empty());
    // Without the turn's pair, the same table offers b1 at short range.
    s.in_combat.clear();
    let t = fm_core::huzzah::firing::targets(&sc, &s, a1);
    assert_eq!(t.iter().map(|c| c.target).collect::<Vec<_>>(), vec![b1]);
    assert!(t[0].short);
}

#[test]
fn rule_p13_a_charged_unit_may_not_hold_its_fire() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    play(&sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    // A second charger makes the fire a decision (page 13: one of them, the firer's
    // choice); set directly.
    let mut p = s.clone();
    p.pending = Pending::FireAtCharger {
        side: Side::B,
        unit: sc.unit_id(ix(&sc, "b1")),
        chargers: sc.unit_ids(&[a1]),
    };
    let e = refused(&sc, &p, hold_cmd("b1"));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        (
            "p13",
            "b1 is charged and must fire at a charger: an infantry or artillery unit that is charged cannot choose not to fire"
        )
    );
    let e = refused(&sc, &p, Command::EndPhase);
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        (
            "p13",
            "end_phase does not answer the decision now: b1, charged by a1, fires at one of them (fire; it cannot choose not to fire)"
        )
    );
}

#[test]
fn rule_p18_fire_at_chargers_is_not_fire_at_the_enemy() {
    // Page 18: "A unit has fired at the enemy if it fired during the Firing phase". b1's
    // fire at the charger a1 fails; it has fired (page 17: a battery so placed could not
    // move), but its orders carry no "fired at the enemy".
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let b1 = ix(&sc, "b1");
    let (s, _) = charged(&sc, &[6, 6, 6, 5]);
    assert!(s.unit(b1).fired);
    assert!(!s.unit(b1).fired_at_enemy);
    let o = odds_of(&sc, &s, OfficerIx(B_D1), &["b1"], OrderKind::Retire, 0);
    assert!(
        !o.modifiers
            .contains(&md("a unit ordered fired at the enemy", -1)),
        "{:?}",
        o.modifiers
    );
}

#[test]
fn rule_p18_a_unit_that_fired_in_the_firing_phase_and_missed_fired_at_the_enemy() {
    // "… whether or not it inflicted hits": a1's fire in its Firing phase fails (6-6),
    // and ordering it takes the -1.
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let a1 = ix(&sc, "a1");
    let (mut s, _) = begin(&sc, &QUIET);
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: sc.unit_ids(&[a1])
        }
    );
    play(&sc, &mut s, fire_cmd("a1", "b1"), &[6, 6]);
    assert_eq!(s.pending, Pending::Orders { side: Side::A });
    assert!(s.unit(a1).fired && s.unit(a1).fired_at_enemy);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Retire, 0);
    assert!(o
        .modifiers
        .contains(&md("a unit ordered fired at the enemy", -1)));
}

// ------------------------------------------------------------------------- missing rules

fn melee(winner: Option<Side>, hits_a: u8, hits_b: u8, back: i64) -> Command {
    Command::MeleeResult {
        a: "a1".into(),
        b: "b1".into(),
        winner,
        hits_a,
        hits_b,
        loser_falls_back_mm: Len::mm(back),
        loser_routs: false,
    }
}

const DECIDED: &str = "the melee's loser, as decided";
const LOST_COMBAT: &str = "p18: lost a combat";

#[test]
fn rule_missing_a_melee_result_applies_hits_disorders_and_moves_the_loser_back() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    let (mut s, _) = charged(&sc, &[6, 6, 3, 3]);
    // A drawn melee has nobody to fall back.
    assert_eq!(refused(&sc, &s, melee(None, 1, 1, 20)).rule, "p13");
    let ev = play(&sc, &mut s, melee(Some(Side::A), 0, 3, 30), &[]);
    assert_eq!(
        ev[..5],
        [
            Event::MeleeResolved {
                a: uid("a1"),
                b: uid("b1"),
                winner: Some(Side::A),
                hits: (0, 3),
                tests: None,
                stand_in: false
            },
            status("b1", Status::Disordered, LOST_COMBAT),
            moved("b1", shape(600, 590, 180, &[2]), 30, DECIDED),
            base_removed("b1", 0, BaseKind::Infantry, shape(600, 590, 180, &[1])),
            removal_done("b1", 0),
        ]
    );
}

#[test]
fn rule_missing_a_losing_charger_falls_back_5cm_more_a_base_it_lost_this_turn() {
    let sc = close_pair(line("a1", Side::A, 2, [600, 400]));
    // b1's fire at its charger: 1-2 against 8, five hits, one base of a1.
    let (mut s, ev) = charged(&sc, &[1, 2, 3, 3]);
    assert_eq!(ev[2], short_fire((1, 2), true, 5));
    let ev = play(&sc, &mut s, melee(Some(Side::B), 0, 0, 20), &[]);
    assert_eq!(
        ev[..3],
        [
            Event::MeleeResolved {
                a: uid("a1"),
                b: uid("b1"),
                winner: Some(Side::B),
                hits: (0, 0),
                tests: None,
                stand_in: false
            },
            status("a1", Status::Disordered, LOST_COMBAT),
            // 2 cm as decided and 5 cm for the base lost.
            moved("a1", shape(600, 490, 0, &[1]), 70, DECIDED),
        ]
    );
}

#[test]
fn rule_missing_the_stand_in_melee_shows_its_two_tests() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![line("b1", Side::B, 2, [600, 560])],
    );
    v["missing_rules"] = json!("stand_in");
    let sc = load(v);
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    play(&sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    let mut rng = Loaded::new(&[6, 6, 3, 3, 2, 3, 4, 4]);
    let ev = engine::apply(&sc, &s, &Command::EndPhase, &mut rng).expect("end phase");
    let m = ev
        .iter()
        .find(|e| matches!(e, Event::MeleeResolved { .. }))
        .expect("a melee");
    assert_eq!(
        *m,
        Event::MeleeResolved {
            a: uid("a1"),
            b: uid("b1"),
            winner: Some(Side::A),
            hits: (0, 4),
            tests: Some((
                test(8, vec![md("stand-in: charging", 1)], 9, (2, 3), true),
                test(8, vec![], 8, (4, 4), true)
            )),
            stand_in: true
        }
    );
}

#[test]
fn rule_missing_rally_asks_per_unit_and_officers_move_at_most_60cm() {
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    let mut s = orders_with(&sc, |s| s.unit_mut(a1).status = Status::Disordered);
    play(&sc, &mut s, Command::EndPhase, &[]);
    assert_eq!(s.pending, Pending::MoveOfficers { side: Side::A });
    let mv = |[x, y]: [i64; 2]| Command::MoveOfficer {
        officer: "a-cinc".into(),
        at: [Len::mm(x), Len::mm(y)],
        attach: None,
    };
    assert_eq!(refused(&sc, &s, mv([100, 701])).rule, "p20");
    let ev = play(&sc, &mut s, mv([100, 700]), &[]);
    assert_eq!(
        ev[0],
        Event::OfficerMoved {
            officer: sc.officer_id(OfficerIx(0)),
            at: Point::mm(100, 700),
            attached: None,
            why: "moves in the Move Officers phase".into()
        }
    );
    play(&sc, &mut s, Command::EndPhase, &[]);
    assert_eq!(
        s.pending,
        Pending::Rally {
            side: Side::A,
            units: vec![sc.unit_id(a1)]
        }
    );
    let ev = play(
        &sc,
        &mut s,
        Command::Rally {
            unit: "a1".into(),
            rallies: true,
        },
        &[],
    );
    assert_eq!(
        ev[0],
        Event::RallyDecided {
            unit: sc.unit_id(a1),
            to: Status::Formed,
            test: None,
            stand_in: false
        }
    );
}

// ------------------------------------------------------------------------- page 12

#[test]
fn rule_p12_a_unit_fires_with_fewer_bases_to_bring_a_target_into_range() {
    // b1 is out of a1's range measured from a1's centre, but in range of its right-hand
    // bases.
    let sc = load(table(
        vec![line("a1", Side::A, 6, [600, 500])],
        vec![line("b1", Side::B, 2, [800, 640])],
    ));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let (mut s, _) = begin(&sc, &QUIET);
    assert!(firing::targets(&sc, &s, a1).is_empty());
    assert_eq!(
        firing::group_options(&sc, &s, a1),
        vec![(b1, vec![5]), (b1, vec![4, 5])]
    );
    // Page 12: the unit is offered its fire (the engine skipped it: fixed).
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: vec![sc.unit_id(a1)]
        }
    );
    // The whole unit cannot, nor a group that leaves it out of range.
    assert_eq!(refused(&sc, &s, fire_cmd("a1", "b1")).rule, "p11");
    let with_bases = |b: Vec<u8>| Command::Fire {
        unit: "a1".into(),
        target: "b1".into(),
        bases: Some(b),
    };
    assert!(engine::apply(&sc, &s, &with_bases(vec![0, 1]), &mut Loaded::new(&[])).is_err());
    let ev = play(&sc, &mut s, with_bases(vec![4, 5]), &[6, 6]);
    assert!(
        matches!(&ev[0], Event::FireDeclared { unit, target, bases: Some(b), .. }
            if *unit == sc.unit_id(a1) && *target == sc.unit_id(b1) && *b == vec![4, 5]),
        "{ev:?}"
    );
    // Only the two bases named count: one "every two bases in the front line" (and from
    // there b1 is seen from beyond its front's edge: its flank).
    let Some(Event::FireResolved { bases, test, .. }) =
        ev.iter().find(|e| matches!(e, Event::FireResolved { .. }))
    else {
        panic!("{ev:?}")
    };
    assert_eq!(*bases, 2);
    assert_eq!(
        test.modifiers,
        vec![
            md("every two bases in the front line", 1),
            md("firing on the target's flank or rear", 1)
        ]
    );
}

// ------------------------------------------------------------------------- page 17: modifiers

fn odds_of(
    sc: &Scenario,
    s: &State,
    officer: OfficerIx,
    units: &[&str],
    kind: OrderKind,
    successive: u8,
) -> orders::OrderOdds {
    let units: Vec<UnitIx> = units.iter().map(|u| ix(sc, u)).collect();
    orders::order_odds(sc, s, officer, &units, kind, successive).expect("odds")
}

#[test]
fn rule_p17_order_odds_out_of_range_and_the_clamp_to_two() {
    let sc = two_divisions();
    let s = orders_phase(&sc);
    assert_eq!(
        odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 0),
        orders::OrderOdds {
            base: 8,
            modifiers: vec![md(OUT_OF_RANGE, 1)],
            factor: 9,
            pass: Chance::new(30, 36)
        }
    );
    // Ten successive orders: clamped to 2, which only a double one passes.
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 10);
    assert_eq!(o.modifiers, vec![md(SUCCESSIVE, -10), md(OUT_OF_RANGE, 1)]);
    assert_eq!((o.factor, o.pass), (2, Chance::new(1, 36)));
}

#[test]
fn rule_p17_fired_disordered_and_dense_terrain() {
    let mut v = table(
        vec![with(
            line("a1", Side::A, 2, [600, 200]),
            "sector",
            json!("w/0"),
        )],
        vec![line("b1", Side::B, 2, [600, 1010])],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[540, 140], [660, 140], [660, 220], [540, 220]]}]);
    let sc = load(v);
    let a1 = ix(&sc, "a1");
    // Its fire and disorder are set directly (nothing is in range to fire at).
    let mut s = orders_phase(&sc);
    s.unit_mut(a1).fired_at_enemy = true;
    s.unit_mut(a1).status = Status::Disordered;
    let want = vec![
        md("a unit ordered fired at the enemy", -1),
        md("a unit ordered is in disorder", -1),
        md("a unit ordered is in dense terrain", -1),
        md(OUT_OF_RANGE, 1),
    ];
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Retire, 0);
    assert_eq!((o.modifiers.clone(), o.factor), (want.clone(), 6));
    // The same modifiers on the roll itself.
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Retire),
        &[3, 3],
    );
    assert_eq!(
        ev[0],
        given(
            &sc,
            A_D1,
            GroupRef::Unit(a1),
            OrderKind::Retire,
            vec![a1],
            Some(test(8, want, 6, (3, 3), true)),
            false,
            false,
            200
        )
    );
}

#[test]
fn rule_p17_near_the_enemy_hesitant_renowned_and_cavalry() {
    let formed = md("units ordered within one move of a formed enemy", -1);
    let hesitant = md("hesitant troops within one move of any enemy", -1);
    let renowned = md("a unit ordered to advance on a renowned unit", -1);
    let cavalry = md("infantry ordered to advance on cavalry within one move", -2);
    // Hesitant a1 16 cm from b1.
    let sc = close_pair(with(
        line("a1", Side::A, 2, [600, 400]),
        "hesitant",
        json!(true),
    ));
    let mut s = orders_phase(&sc);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 0);
    assert_eq!(o.modifiers, vec![formed.clone(), hesitant.clone()]);
    assert_eq!((o.factor, o.pass), (6, Chance::new(15, 36)));
    // A disordered enemy is not formed; hesitant still counts.
    s.unit_mut(ix(&sc, "b1")).status = Status::Disordered;
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 0);
    assert_eq!(o.modifiers, vec![hesitant]);
    // A renowned enemy ahead: only for an advance.
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![with(
            line("b1", Side::B, 2, [600, 560]),
            "renowned",
            json!(true),
        )],
    ));
    let s = orders_phase(&sc);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 0);
    assert_eq!(o.modifiers, vec![formed.clone(), renowned]);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Retire, 0);
    assert_eq!(o.modifiers, vec![formed.clone()]);
    // Infantry advancing on cavalry within one move.
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![unit(
            "b1",
            Side::B,
            &["battle_cavalry", "battle_cavalry"],
            &[2],
            [600, 560],
        )],
    ));
    let s = orders_phase(&sc);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Advance, 0);
    assert_eq!(o.modifiers, vec![formed.clone(), cavalry]);
    assert_eq!(o.factor, 5);
    let o = odds_of(&sc, &s, A_D1, &["a1"], OrderKind::Retire, 0);
    assert_eq!(o.modifiers, vec![formed]);
}

#[test]
fn rule_p17_attached_inspirational_clamped_to_ten_and_eleven_fails() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1010])],
    );
    v["sides"]["a"]["officers"][0]["inspirational"] = json!(true);
    let sc = load(v);
    let a1 = ix(&sc, "a1");
    let mut s = orders_with(&sc, |s| {
        s.officers[0].attached = Some(a1);
        s.officers[0].at = Some(Point::mm(600, 150));
    });
    let mods = vec![
        md(RADIUS, 1),
        md(OUT_OF_RANGE, 1),
        md("an officer is attached", 1),
        md("inspirational officer ordering an advance", 1),
    ];
    let o = odds_of(&sc, &s, A_CINC, &["a1"], OrderKind::Advance, 0);
    assert_eq!(
        o,
        orders::OrderOdds {
            base: 8,
            modifiers: mods.clone(),
            factor: 10,
            pass: Chance::new(33, 36)
        }
    );
    let ev = play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("a1"), OrderKind::Advance),
        &[5, 6],
    );
    assert_eq!(
        ev[..2],
        [
            given(
                &sc,
                A_CINC,
                GroupRef::Unit(a1),
                OrderKind::Advance,
                vec![a1],
                Some(test(8, mods, 10, (5, 6), false)),
                false,
                false,
                200
            ),
            Event::OrdersEnded {
                side: Side::A,
                why: "p16: the CinC failed an order".into()
            }
        ]
    );
}

#[test]
fn rule_p18_a_double_one_makes_the_next_order_to_the_group_automatic() {
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Advance),
        &[1, 1],
    );
    assert_eq!(
        ev[0],
        given(
            &sc,
            A_D1,
            GroupRef::Unit(a1),
            OrderKind::Advance,
            vec![a1],
            Some(test(8, vec![md(OUT_OF_RANGE, 1)], 9, (1, 1), true)),
            false,
            true,
            200
        )
    );
    play(&sc, &mut s, advance_cmd("a1", 100, 0), &[]);
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Advance),
        &[],
    );
    assert_eq!(
        ev,
        vec![
            given(
                &sc,
                A_D1,
                GroupRef::Unit(a1),
                OrderKind::Advance,
                vec![a1],
                None,
                true,
                false,
                200
            ),
            act(&sc, vec![a1], OrderKind::Advance),
        ]
    );
    play(&sc, &mut s, advance_cmd("a1", 100, 0), &[]);
    // The group is closed now.
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a1"), OrderKind::Advance)).rule,
        "p16"
    );
}

#[test]
fn rule_p20_an_oblique_charge_the_closer_corner_decides_a_flank() {
    // b1 faces 270 (towards -x): its left flank is its face towards -y, which a1's
    // right-hand corner meets.
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 400])],
        vec![with(
            line("b1", Side::B, 2, [620, 600]),
            "facing",
            json!(270),
        )],
    ));
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    let ev = play(&sc, &mut s, charge_cmd("a1", "b1", None), &[]);
    assert_eq!(
        ev[..2],
        [
            moved_tenths("a1", shape(620, 560, 0, &[2]), 1590, CHARGES),
            Event::Charged {
                unit: sc.unit_id(a1),
                target: sc.unit_id(b1),
                face: geometry::Face::Left
            },
        ]
    );
}

#[test]
fn rule_p19_an_advance_never_breaks_contact() {
    // a1's front on b1's front as the turn begins.
    let sc = close_pair(line("a1", Side::A, 2, [600, 560]));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 50, 0)).rule, "p19");
    assert_eq!(refused(&sc, &s, charge_cmd("a1", "b1", None)).rule, "p19");
}

// ------------------------------------------------------------------------- page 22, manoeuvre

const MANOEUVRE_DECIDED: &str = "manoeuvre (its rules are missing): new position and facing as the player decided, within the written limits";
const MANOEUVRE_STAND_IN: &str = "stand-in manoeuvre (its rules are missing): new position and facing, no corner moving more than the group's move";

fn manoeuvre_cmd(unit: &str, [x, y]: [i64; 2], facing: u16) -> Command {
    Command::Manoeuvre {
        unit: unit.into(),
        anchor: [Len::mm(x), Len::mm(y)],
        facing,
    }
}

#[test]
fn rule_p17_a_manoeuvre_turns_a_unit_as_decided_within_the_written_limits() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ));
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    let ev = ordered(&sc, &mut s, u_arg("a1"), OrderKind::Manoeuvre);
    assert!(matches!(
        ev[0],
        Event::OrderGiven {
            order: OrderKind::Manoeuvre,
            ..
        }
    ));
    assert_eq!(ev.last(), Some(&act(&sc, vec![a1], OrderKind::Manoeuvre)));
    // The menu turns it in place: 90° right about its centre (600, 180) puts its front
    // edge's centre 20 mm to the east of the centre.
    let right = manoeuvre_cmd("a1", [620, 180], 90);
    assert!(legal::legal_commands(&sc, &s).contains(&right));
    // It cannot advance or deploy on a manoeuvre order (page 18).
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 100, 0)).rule, "p18");
    assert_eq!(refused(&sc, &s, skirmish_cmd("a1", 1)).rule, "p18");
    let ev = play(&sc, &mut s, right, &[]);
    // The far corner moves from (560, 200) to (620, 220): 63.2 mm.
    assert_eq!(
        ev,
        vec![
            moved_tenths("a1", shape(620, 180, 90, &[2]), 632, MANOEUVRE_DECIDED),
            Event::Acted {
                unit: sc.unit_id(a1)
            },
            Event::OrderDone,
            awaiting_orders(),
        ]
    );
    // In "decide" mode the distance is the players' to agree: a long move is accepted.
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Manoeuvre);
    play(&sc, &mut s, manoeuvre_cmd("a1", [200, 600], 45), &[]);
    assert_eq!(s.unit(a1).shape.facing, Facing(45));
}

#[test]
fn rule_p19_a_manoeuvre_never_makes_or_breaks_contact_nor_enters_dense_terrain() {
    let mut v = table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            line("a2", Side::A, 2, [200, 800]),
        ],
        vec![
            line("b1", Side::B, 2, [600, 400]),
            line("b2", Side::B, 2, [200, 800]),
        ],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[900, 100], [1100, 100], [1100, 300], [900, 300]]}]);
    let sc = load(v);
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Manoeuvre);
    // Into contact with b1 (its front edge at y = 400): only an advance does that.
    let e = refused(&sc, &s, manoeuvre_cmd("a1", [600, 400], 0));
    assert_eq!(e.rule, "p19");
    assert!(e.message.contains("only an advance"), "{e:?}");
    // a2 touches b2 (front to front): no order breaks contact.
    assert_eq!(
        refused(&sc, &s, manoeuvre_cmd("a2", [200, 700], 0)).rule,
        "p19"
    );
    // Into the wood: a deploy order's work.
    assert_eq!(
        refused(&sc, &s, manoeuvre_cmd("a1", [1000, 250], 0)).rule,
        "p19"
    );
    // Off the table, and a facing out of range.
    assert_eq!(
        refused(&sc, &s, manoeuvre_cmd("a1", [10, 200], 0)).rule,
        "p17"
    );
    assert_eq!(
        refused(&sc, &s, manoeuvre_cmd("a1", [600, 200], 360)).rule,
        "input"
    );
}

#[test]
fn rule_p22_squares_cannot_manoeuvre() {
    let sc = load(table(
        vec![with(
            unit("a1", Side::A, &["infantry"; 4], &[2, 2], [600, 200]),
            "formation",
            json!("square"),
        )],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Manoeuvre);
    assert_eq!(
        refused(&sc, &s, manoeuvre_cmd("a1", [620, 180], 90)).rule,
        "p22"
    );
    assert!(legal::legal_commands(&sc, &s)
        .iter()
        .all(|c| !matches!(c, Command::Manoeuvre { .. })));
}

#[test]
fn rule_p17_stand_in_manoeuvre_limits_each_corner_to_the_groups_move() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1150])],
    );
    v["missing_rules"] = json!("stand_in");
    let sc = load(v);
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Manoeuvre);
    // 20 cm is infantry's move in line: 201 mm sideways is too far.
    let e = refused(&sc, &s, manoeuvre_cmd("a1", [801, 200], 0));
    assert_eq!(e.rule, "stand-in");
    let ev = play(&sc, &mut s, manoeuvre_cmd("a1", [800, 200], 0), &[]);
    assert_eq!(
        ev[0],
        moved("a1", shape(800, 200, 0, &[2]), 200, MANOEUVRE_STAND_IN)
    );
}

// Skirmishers.

fn skirmishers() -> Scenario {
    load(table(
        vec![
            with(
                line("a1", Side::A, 3, [600, 200]),
                "order",
                json!("skirmish"),
            ),
            with(
                line("a2", Side::A, 3, [300, 200]),
                "order",
                json!("skirmish_limited"),
            ),
        ],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ))
}

fn skirmish_cmd(unit: &str, bases: u8) -> Command {
    Command::SkirmishLine {
        unit: unit.into(),
        bases,
    }
}

#[test]
fn rule_p22_skirmish_bases_go_into_the_skirmish_line_removed_not_lost() {
    let sc = skirmishers();
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    let menu = legal::legal_commands(&sc, &s);
    assert!(menu.contains(&skirmish_cmd("a1", 1)) && menu.contains(&skirmish_cmd("a1", 3)));
    assert_eq!(refused(&sc, &s, skirmish_cmd("a1", 4)).rule, "p22");
    let ev = play(&sc, &mut s, skirmish_cmd("a1", 2), &[]);
    // Its last two bases go; the rank closes up on its axis (as after losses, page 12).
    assert_eq!(
        ev[..2],
        [
            Event::SkirmishersDeployed {
                unit: sc.unit_id(a1),
                bases: 2,
                shape: Some(shape(600, 200, 0, &[1])),
                line: 2,
            },
            Event::Acted {
                unit: sc.unit_id(a1)
            },
        ]
    );
    assert_eq!(s.unit(a1).bases.len(), 1);
    assert_eq!(s.armies.get(Side::A).skirmish_line, 2);
    assert_eq!(engine::bases_lost(&sc, &s, Side::A), 0);
    // Twice the enemy's (none): the skirmish line is reinforced (page 9).
    assert!(
        fm_core::huzzah::skirmish::skirmish_modifiers(&sc, &s, Side::A)
            .contains(&md("skirmish line is reinforced", 1))
    );
}

#[test]
fn rule_p22_skirmish_limited_deploys_one_base_and_loses_the_ability_disordered_units_none() {
    let sc = skirmishers();
    let (a1, a2) = (ix(&sc, "a1"), ix(&sc, "a2"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a2"), OrderKind::Deploy);
    assert_eq!(refused(&sc, &s, skirmish_cmd("a2", 2)).rule, "p22");
    let ev = play(&sc, &mut s, skirmish_cmd("a2", 1), &[]);
    assert_eq!(
        ev[..3],
        [
            Event::SkirmishersDeployed {
                unit: sc.unit_id(a2),
                bases: 1,
                shape: Some(shape(300, 200, 0, &[2])),
                line: 1,
            },
            Event::AbilityLost {
                unit: sc.unit_id(a2),
                ability: "skirmish (limited)".into()
            },
            Event::Acted {
                unit: sc.unit_id(a2)
            },
        ]
    );
    assert!(!s.unit(a2).skirmish_limited);
    // Disordered: no skirmishers (set as the turn starts: no fire reaches it here).
    let mut s = orders_with(&sc, |s| s.unit_mut(a1).status = Status::Disordered);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    let e = refused(&sc, &s, skirmish_cmd("a1", 1));
    assert!(e.rule == "p22" && e.message.contains("disordered"), "{e:?}");
}

#[test]
fn rule_p22_a_divisions_only_unit_gone_whole_into_the_skirmish_line_removes_its_officer() {
    let sc = load(table(
        vec![with(
            line("a1", Side::A, 3, [600, 200]),
            "order",
            json!("skirmish"),
        )],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ));
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    let ev = play(&sc, &mut s, skirmish_cmd("a1", 3), &[]);
    assert_eq!(
        ev[..3],
        [
            Event::SkirmishersDeployed {
                unit: sc.unit_id(a1),
                bases: 3,
                shape: None,
                line: 3,
            },
            Event::OfficerRemoved {
                officer: sc.officer_id(OfficerIx(A_D1.0)),
                why: "p22: the division's only unit went whole into the skirmish line".into()
            },
            Event::Acted {
                unit: sc.unit_id(a1)
            },
        ]
    );
    assert_eq!(
        s.unit(a1).at,
        fm_core::huzzah::state::Whereabouts::SkirmishLine
    );
    assert!(s.officers[A_D1.index()].lost);
    assert_eq!(engine::bases_lost(&sc, &s, Side::A), 0);
}

// Grand batteries.

fn guns(id: &str, kind: &str, at: [i64; 2]) -> Value {
    let mut u = unit(id, Side::A, &[kind], &[1], at);
    u.as_object_mut().unwrap().remove("quality");
    u
}

fn join_cmd(unit: &str, battery: &str, left: bool) -> Command {
    Command::JoinBattery {
        unit: unit.into(),
        battery: battery.into(),
        left,
    }
}

#[test]
fn rule_p22_reserve_artillery_joins_a_grand_battery_within_one_advance_move() {
    let mut g2 = guns("g2", "foot_artillery", [800, 200]);
    g2["quality"] = json!("experienced");
    let sc = load(table(
        vec![
            guns("g1", "foot_artillery", [600, 200]),
            g2,
            guns("g3", "foot_artillery", [1100, 200]),
            line("a1", Side::A, 2, [300, 200]),
        ],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ));
    let (g1, g2, g3) = (ix(&sc, "g1"), ix(&sc, "g2"), ix(&sc, "g3"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("g1"), OrderKind::Deploy);
    // g2 is 160 mm away (reserve artillery moves 200); g3 460 mm; a1 is infantry.
    assert_eq!(refused(&sc, &s, join_cmd("g1", "g3", false)).rule, "p22");
    assert_eq!(refused(&sc, &s, join_cmd("g1", "a1", false)).rule, "p3");
    let menu = legal::legal_commands(&sc, &s);
    assert!(
        menu.contains(&join_cmd("g1", "g2", true)) && menu.contains(&join_cmd("g1", "g2", false))
    );
    // g2's quality is known (experienced), g1's is not: g1 rolls now (page 6), 4+4 on
    // the stand-in table for Regulars B, and the lower decides.
    let ev = play(&sc, &mut s, join_cmd("g1", "g2", true), &[4, 4]);
    let Event::QualityDetermined {
        unit, quality: q1, ..
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!(*unit, sc.unit_id(g1));
    let q = q1.lowest(fm_core::huzzah::quality::Quality::Experienced);
    assert_eq!(
        ev[1..3],
        [
            Event::BatteryJoined {
                unit: sc.unit_id(g1),
                battery: sc.unit_id(g2),
                left: true,
                shape: shape(780, 200, 0, &[2]),
                quality: Some(q),
                grognards: false,
                disciplined: false,
            },
            Event::Acted {
                unit: sc.unit_id(g1)
            },
        ]
    );
    assert_eq!(s.unit(g2).bases.len(), 2);
    assert_eq!(s.unit(g1).at, fm_core::huzzah::state::Whereabouts::Joined);
    assert_eq!(engine::bases_lost(&sc, &s, Side::A), 0);
    assert_eq!(s.unit(g2).quality, Some(q));
    let _ = g3;
}

#[test]
fn rule_p6_a_grand_battery_forms_within_one_division_and_unrolled_bases_stay_unrolled() {
    let mut v = table(
        vec![
            guns("g1", "foot_artillery", [600, 200]),
            guns("g2", "heavy_artillery", [700, 200]),
            with(
                guns("g3", "foot_artillery", [500, 200]),
                "division",
                json!("a-div2"),
            ),
        ],
        vec![line("b1", Side::B, 2, [600, 1150])],
    );
    v["sides"]["a"]["officers"].as_array_mut().unwrap().push(
        json!({"id": "a-d2", "rank": "division", "quality": "average", "position": [300, 100]}),
    );
    v["sides"]["a"]["divisions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "a-div2", "officer": "a-d2"}));
    let sc = load(v);
    let (g1, g2) = (ix(&sc, "g1"), ix(&sc, "g2"));
    let mut s = orders_phase(&sc);
    play(
        &sc,
        &mut s,
        order("a-cinc", u_arg("g1"), OrderKind::Deploy),
        &[1, 2],
    );
    assert_eq!(refused(&sc, &s, join_cmd("g1", "g3", false)).rule, "p6");
    // Neither was rolled: nothing is rolled now. A grand battery uses the shortest of
    // its ranges (page 11): the foot gun's 60 cm, not the heavy's 80.
    let ev = play(&sc, &mut s, join_cmd("g1", "g2", false), &[]);
    assert!(matches!(ev[0], Event::BatteryJoined { quality: None, .. }));
    assert_eq!(
        s.unit(g2).bases,
        vec![BaseKind::HeavyArtillery, BaseKind::FootArtillery]
    );
    assert_eq!(firing::weapon_range(&sc, &s, g2), Some(Len::cm(60)));
    let _ = g1;
}

// Dense terrain sectors.

const WOOD: &str = "w";

fn wooded(a: Vec<Value>, b: Vec<Value>) -> Scenario {
    let mut v = table(a, b);
    v["terrain"] = json!([{"id": WOOD, "kind": "woods",
    "polygon": [[400, 300], [800, 300], [800, 500], [400, 500]],
    "sectors": [
        [[400, 300], [600, 300], [600, 500], [400, 500]],
        [[600, 300], [800, 300], [800, 500], [600, 500]]
    ]}]);
    load(v)
}

fn enter_cmd(unit: &str, sector: &str) -> Command {
    Command::EnterSector {
        unit: unit.into(),
        sector: sector.into(),
        at: None,
    }
}

fn sec(sc: &Scenario, k: u16) -> fm_core::huzzah::scenario::SectorRef {
    let _ = sc;
    fm_core::huzzah::scenario::SectorRef {
        terrain: fm_core::huzzah::scenario::TerrainIx(0),
        sector: k,
    }
}

#[test]
fn rule_p22_a_unit_touching_an_unoccupied_sector_deploys_into_it() {
    // a1's front edge touches the wood's south edge (y = 300) under the west sector.
    let sc = wooded(
        vec![
            line("a1", Side::A, 2, [500, 300]),
            with(
                line("c1", Side::A, 2, [700, 100]),
                "bases",
                json!(["battle_cavalry", "battle_cavalry"]),
            ),
        ],
        vec![line("b1", Side::B, 2, [600, 1150])],
    );
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Deploy);
    assert!(legal::legal_commands(&sc, &s).contains(&enter_cmd("a1", "w/0")));
    // Not touching the east sector; cavalry (not Irregular) holds no sector.
    assert_eq!(refused(&sc, &s, enter_cmd("a1", "w/1")).rule, "p22");
    assert_eq!(refused(&sc, &s, enter_cmd("c1", "w/1")).rule, "p22");
    assert_eq!(refused(&sc, &s, enter_cmd("a1", "w/7")).rule, "input");
    let ev = play(&sc, &mut s, enter_cmd("a1", "w/0"), &[]);
    // Its centre goes to the sector's centre (500, 400); facing and formation kept.
    assert_eq!(
        ev[..2],
        [
            Event::UnitMoved {
                unit: sc.unit_id(a1),
                shape: shape(500, 420, 0, &[2]),
                sector: Some("w/0".into()),
                distance_mm: Len(1200),
                why: "p22: deploys into dense terrain".into(),
            },
            Event::Acted {
                unit: sc.unit_id(a1)
            },
        ]
    );
    assert_eq!(s.unit(a1).sector, Some(sec(&sc, 0)));
}

#[test]
fn rule_p22_entering_a_sector_of_contested_dense_terrain_engages_the_enemy() {
    let mut b1 = line("b1", Side::B, 2, [700, 380]);
    b1["sector"] = json!("w/1");
    let sc = wooded(
        vec![line("a1", Side::A, 2, [500, 300])],
        vec![b1, line("b2", Side::B, 2, [100, 1150])],
    );
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    let ev = play(&sc, &mut s, enter_cmd("a1", "w/0"), &[]);
    assert_eq!(
        ev[1],
        Event::Engaged {
            a: sc.unit_id(a1),
            b: sc.unit_id(b1),
            why: "p22: entered w/0 next to b1's sector".into()
        }
    );
    assert_eq!(s.sector_engaged, vec![(a1, b1)]);
    // The engagement is fought in the Combat phase like a contact.
    assert_eq!(
        fm_core::huzzah::missing::engagements(&sc, &s),
        vec![(a1, b1)]
    );
}

#[test]
fn rule_p19_from_a_sector_a_unit_advances_into_the_adjacent_one_or_engages_its_holder() {
    let mut a1 = line("a1", Side::A, 2, [500, 420]);
    a1["sector"] = json!("w/0");
    let sc = wooded(vec![a1], vec![line("b1", Side::B, 2, [600, 1150])]);
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    // From dense terrain an advance order moves it only sector to sector.
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    assert_eq!(refused(&sc, &s, advance_cmd("a1", 100, 0)).rule, "p19");
    let adv = Command::AdvanceSector {
        unit: "a1".into(),
        sector: "w/1".into(),
    };
    assert!(legal::legal_commands(&sc, &s).contains(&adv));
    let ev = play(&sc, &mut s, adv, &[]);
    assert_eq!(
        ev[0],
        Event::UnitMoved {
            unit: sc.unit_id(a1),
            shape: shape(700, 420, 0, &[2]),
            sector: Some("w/1".into()),
            distance_mm: Len(2000),
            why: "p19: advances into the adjacent sector".into(),
        }
    );
    // Into an enemy-held sector it engages the holder, staying put.
    let mut a1d = line("a1", Side::A, 2, [500, 420]);
    a1d["sector"] = json!("w/0");
    let mut b1 = line("b1", Side::B, 2, [700, 380]);
    b1["sector"] = json!("w/1");
    let sc = wooded(vec![a1d], vec![b1, line("b2", Side::B, 2, [100, 1150])]);
    let (a1, b1) = (ix(&sc, "a1"), ix(&sc, "b1"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Advance);
    let ev = play(
        &sc,
        &mut s,
        Command::AdvanceSector {
            unit: "a1".into(),
            sector: "w/1".into(),
        },
        &[],
    );
    assert_eq!(
        ev[..2],
        [
            Event::Engaged {
                a: sc.unit_id(a1),
                b: sc.unit_id(b1),
                why: "p19: advanced on b1 in the adjacent sector".into()
            },
            Event::Acted {
                unit: sc.unit_id(a1)
            },
        ]
    );
}

#[test]
fn rule_p22_a_unit_deploys_out_of_its_sector_but_never_into_contact() {
    let mut a1 = line("a1", Side::A, 2, [500, 420]);
    a1["sector"] = json!("w/0");
    let sc = wooded(vec![a1], vec![line("b1", Side::B, 2, [500, 540])]);
    let a1 = ix(&sc, "a1");
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    let out = |d: fm_core::huzzah::command::Direction| Command::LeaveSector {
        unit: "a1".into(),
        direction: d,
    };
    use fm_core::huzzah::command::Direction;
    // Ahead it would meet b1 (its front at y = 540).
    let e = refused(&sc, &s, out(Direction::Ahead));
    assert!(
        e.rule == "p22" && e.message.contains("into contact"),
        "{e:?}"
    );
    let ev = play(&sc, &mut s, out(Direction::Back), &[]);
    // Back until its front edge is just clear of the wood's south edge (y = 300).
    assert_eq!(
        ev[..2],
        [
            moved_tenths(
                "a1",
                Shape::new(
                    Point::new(Len(5000), Len(2990)),
                    Facing(0),
                    vec![2],
                    Len::mm(40)
                ),
                1210,
                "p22: deploys out of dense terrain"
            ),
            Event::Acted {
                unit: sc.unit_id(a1)
            },
        ]
    );
    assert_eq!(s.unit(a1).sector, None);
}

// Passage of lines.

fn passage_cmd(unit: &str, with: &str) -> Command {
    Command::PassageOfLines {
        unit: unit.into(),
        with: with.into(),
    }
}

#[test]
fn rule_p22_a_passage_of_lines_exchanges_two_lines_without_disorder() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [600, 200]),
            line("a2", Side::A, 3, [620, 300]),
        ],
        vec![line("b1", Side::B, 2, [600, 1150])],
    ));
    let (a1, a2) = (ix(&sc, "a1"), ix(&sc, "a2"));
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Deploy);
    assert!(legal::legal_commands(&sc, &s).contains(&passage_cmd("a1", "a2")));
    let ev = play(&sc, &mut s, passage_cmd("a1", "a2"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::LinesPassed {
                unit: sc.unit_id(a1),
                with: sc.unit_id(a2)
            },
            moved_tenths(
                "a1",
                shape(620, 300, 0, &[2]),
                1019,
                "p22: passage of lines"
            ),
            moved_tenths(
                "a2",
                shape(600, 200, 0, &[3]),
                1019,
                "p22: passage of lines"
            ),
            Event::Acted {
                unit: sc.unit_id(a1)
            },
            Event::Acted {
                unit: sc.unit_id(a2)
            },
            Event::OrderDone,
            awaiting_orders(),
        ]
    );
    assert_eq!(s.unit(a1).status, Status::Formed);
}

#[test]
fn rule_p22_passage_of_lines_conditions() {
    let build = |a2: Value| {
        load(table(
            vec![line("a1", Side::A, 2, [600, 200]), a2],
            vec![line("b1", Side::B, 2, [600, 1150])],
        ))
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            unit("a2", Side::A, &["infantry"; 4], &[2, 2], [600, 300]),
            "support ranks",
        ),
        (
            with(line("a2", Side::A, 2, [600, 300]), "facing", json!(10)),
            "same direction",
        ),
        (line("a2", Side::A, 2, [600, 450]), "one advance move"),
        (
            with(
                line("a2", Side::A, 2, [600, 300]),
                "bases",
                json!(["battle_cavalry", "battle_cavalry"]),
            ),
            "two units of infantry",
        ),
        (
            with(
                line("a2", Side::A, 2, [600, 300]),
                "formation",
                json!("column"),
            ),
            "line of battle",
        ),
    ];
    for (a2, why) in cases {
        let mut a2 = a2;
        if a2["formation"] == json!("column") {
            a2["ranks"] = json!([1, 1]);
        }
        let sc = build(a2);
        let mut s = orders_phase(&sc);
        ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Deploy);
        let e = refused(&sc, &s, passage_cmd("a1", "a2"));
        assert!(e.rule == "p22" && e.message.contains(why), "{why}: {e:?}");
    }
    // In disorder: neither executes one nor has one executed on it.
    let sc = build(line("a2", Side::A, 2, [600, 300]));
    let a2 = ix(&sc, "a2");
    let mut s = orders_with(&sc, |s| s.unit_mut(a2).status = Status::Disordered);
    ordered(&sc, &mut s, d_arg("a-div"), OrderKind::Deploy);
    let e = refused(&sc, &s, passage_cmd("a1", "a2"));
    assert!(e.message.contains("disorder"), "{e:?}");
    // Both must be on the order.
    let mut s = orders_phase(&sc);
    ordered(&sc, &mut s, u_arg("a1"), OrderKind::Deploy);
    assert!(refused(&sc, &s, passage_cmd("a1", "a2"))
        .message
        .contains("both units"));
}

// The CinC's appointments (page 16).

fn appoint_cmd(
    officer: &str,
    quality: Option<scenario::OfficerQuality>,
    inspirational: bool,
) -> Command {
    Command::Appoint {
        officer: officer.into(),
        quality,
        inspirational,
        at: None,
    }
}

#[test]
fn rule_p16_the_cinc_appoints_a_new_officer_to_a_group_that_lost_its_own_in_a_previous_turn() {
    use scenario::OfficerQuality as Q;
    let sc = two_divisions();
    let a1 = ix(&sc, "a1");
    // a-d1 was lost before this turn (set as the turn starts: a loss needs a fight).
    let lost_before = |s: &mut State| {
        s.officers[A_D1.index()].lost = true;
        s.officers[A_D1.index()].at = None;
        s.officers[A_D1.index()].lost_turn = Some(0);
    };
    let mut s = orders_with(&sc, lost_before);
    // His division cannot be ordered by him meanwhile.
    assert_eq!(
        refused(&sc, &s, order("a-d1", u_arg("a1"), OrderKind::Advance)).rule,
        "p16"
    );
    // The menu offers a successor like him; the command may state another.
    assert!(legal::legal_commands(&sc, &s).contains(&appoint_cmd("a-d1", Some(Q::Average), false)));
    assert_eq!(
        refused(&sc, &s, appoint_cmd("a-d1", None, false)).rule,
        "input"
    );
    assert_eq!(
        refused(&sc, &s, appoint_cmd("a-cinc", Some(Q::Poor), false)).rule,
        "p16"
    );
    assert_eq!(
        refused(&sc, &s, appoint_cmd("a-d2", Some(Q::Poor), false)).rule,
        "p16"
    );
    let ev = play(
        &sc,
        &mut s,
        appoint_cmd("a-d1", Some(Q::Excellent), true),
        &[],
    );
    // Beside the CinC (at 100, 100 mm).
    assert_eq!(
        ev,
        vec![
            Event::OfficerAppointed {
                officer: sc.officer_id(OfficerIx(A_D1.0)),
                quality: Q::Excellent,
                inspirational: true,
                at: Point::mm(130, 100),
                stand_in: false,
            },
            awaiting_orders(),
        ]
    );
    assert!(legal::legal_commands(&sc, &s)
        .iter()
        .all(|c| !matches!(c, Command::Appoint { .. })));
    // He orders at his own Command Factor, 10.
    let ev = play(
        &sc,
        &mut s,
        order("a-d1", u_arg("a1"), OrderKind::Advance),
        &[1, 2],
    );
    let Event::OrderGiven {
        test: Some(t),
        units,
        ..
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!((t.base, units.clone()), (10, sc.unit_ids(&[a1])));
    assert!(t
        .modifiers
        .contains(&md("inspirational officer ordering an advance", 1)));
    // Lost this turn: not yet.
    let s = orders_with(&sc, |s| {
        lost_before(s);
        s.officers[A_D1.index()].lost_turn = Some(1);
    });
    assert_eq!(
        refused(&sc, &s, appoint_cmd("a-d1", Some(Q::Poor), false)).rule,
        "p16"
    );
}

#[test]
fn rule_p16_stand_in_successor_is_one_grade_below_the_officer_lost() {
    use scenario::OfficerQuality as Q;
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1150])],
    );
    v["missing_rules"] = json!("stand_in");
    let sc = load(v);
    let mut s = orders_with(&sc, |s| {
        s.officers[A_D1.index()].lost = true;
        s.officers[A_D1.index()].at = None;
        s.officers[A_D1.index()].lost_turn = Some(0);
    });
    assert_eq!(
        refused(&sc, &s, appoint_cmd("a-d1", Some(Q::Excellent), false)).rule,
        "input"
    );
    let menu = legal::legal_commands(&sc, &s);
    assert!(menu.contains(&appoint_cmd("a-d1", None, false)));
    let ev = play(&sc, &mut s, appoint_cmd("a-d1", None, false), &[]);
    assert_eq!(
        ev[0],
        Event::OfficerAppointed {
            officer: sc.officer_id(OfficerIx(A_D1.0)),
            quality: Q::Poor,
            inspirational: false,
            at: Point::mm(130, 100),
            stand_in: true,
        }
    );
    assert_eq!(s.officer_quality(&sc, A_D1.index()), Q::Poor);
}
