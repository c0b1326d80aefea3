//! Huzzah! Glorious Empires rules, each test named after its page (`rule_p12_…`), on
//! small hand-built tables, with loaded dice so each asserts the exact events.
//!
//! Tables: side A faces 0 (towards +y) from low y, side B faces 180 from higher y;
//! positions in the helpers are millimetres (the JSON's unit), positions and lengths
//! in events tenths of a millimetre. Bases are 40 mm. A unit's anchor is the centre of
//! its front edge, its bases behind it, so a one-rank unit of side A anchored at
//! y = 500 has its centre at y = 480, and a unit of side B anchored at y = 560 is 8 cm
//! from it: short range for infantry (under 10 cm).
//!
//! Where a test needs a situation no command can bring about yet (a charge, an
//! attached officer, odd hits from an earlier fire at chargers), it sets a plain state
//! field before the turn starts, and says why.

use fm_core::huzzah::command::Command;
use fm_core::huzzah::engine;
use fm_core::huzzah::event::{Ability, Event, Modifier, Test};
use fm_core::huzzah::firing;
use fm_core::huzzah::geometry::{self, Facing, Len, Point, Shape};
use fm_core::huzzah::legal;
use fm_core::huzzah::odds::{self, Chance};
use fm_core::huzzah::quality::Quality;
use fm_core::huzzah::scenario::{self, BaseKind, Ground, Scenario, UnitIx, Weather};
use fm_core::huzzah::state::{Dice, Pending, Phase, State, Status, Whereabouts};
use fm_core::{OfficerId, Side, UnitId};
use rand_core::{RngCore, SeedableRng};
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

/// The worked example's firer (page 12): three bases of infantry and one of
/// divisional artillery in one line, trained.
fn brigade_with_guns(id: &str, side: Side, at: [i64; 2]) -> Value {
    unit(
        id,
        side,
        &["infantry", "infantry", "infantry", "divisional_artillery"],
        &[4],
        at,
    )
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

/// Ends the phase, then passes the missing rules' decisions that follow (officer
/// moves, rallies: none taken) until another decision; `dice` are for whichever of
/// those commands rolls (the next turn's opening rolls). All the events, in order.
fn pass(sc: &Scenario, s: &mut State, dice: &[u8]) -> Vec<Event> {
    let mut rest = dice.to_vec();
    let mut out = Vec::new();
    loop {
        let mut rng = Loaded::new(&rest);
        let ev = engine::apply(sc, s, &Command::EndPhase, &mut rng).expect("end phase");
        s.apply_events(sc, &ev);
        rest = rng.0.iter().copied().collect();
        out.extend(ev);
        if !matches!(
            s.pending,
            Pending::MoveOfficers { .. } | Pending::Rally { .. }
        ) {
            assert!(rest.is_empty(), "dice left over: {rest:?}");
            return out;
        }
    }
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

fn tests_of(ev: &[Event]) -> Vec<Test> {
    ev.iter()
        .filter_map(|e| match e {
            Event::FireResolved { test, .. } | Event::MoraleTested { test, .. } => {
                Some(test.clone())
            }
            _ => None,
        })
        .collect()
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
/// The same, but side A's guns effective (3-3 against 8).
const A_GUNS: [u8; 8] = [6, 6, 6, 6, 3, 3, 6, 6];

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

/// From Player 1's (side a's) Orders phase to the next turn's first decision: side b
/// holds all its fire; `turn_dice` are the next turn's opening rolls.
fn next_turn(sc: &Scenario, s: &mut State, turn_dice: &[u8]) -> Vec<Event> {
    assert_eq!(s.pending, Pending::Orders { side: Side::A });
    play(sc, s, Command::EndPhase, &[]);
    loop {
        match s.pending.clone() {
            Pending::DeclareFire {
                side: Side::B,
                units,
            } => {
                let id = units[0].to_string();
                play(sc, s, hold_cmd(&id), &[]);
            }
            // The missing rules' decisions (officer moves, rallies): none taken.
            Pending::MoveOfficers { side: Side::A } | Pending::Rally { side: Side::A, .. } => {
                play(sc, s, Command::EndPhase, &[]);
            }
            Pending::Orders { side: Side::B } => {
                play(sc, s, Command::EndPhase, &[]);
                // Side b's officers and rallies, then the next turn's opening rolls
                // (rolled by whichever command starts the turn).
                let mut rest = turn_dice.to_vec();
                loop {
                    match s.pending.clone() {
                        Pending::MoveOfficers { side: Side::B }
                        | Pending::Rally { side: Side::B, .. } => {
                            let mut rng = Loaded::new(&rest);
                            let ev = engine::apply(sc, s, &Command::EndPhase, &mut rng)
                                .expect("end phase");
                            s.apply_events(sc, &ev);
                            rest = rng.0.iter().copied().collect();
                            if !matches!(
                                s.pending,
                                Pending::MoveOfficers { .. } | Pending::Rally { .. }
                            ) {
                                assert!(rest.is_empty(), "dice left over: {rest:?}");
                                return ev;
                            }
                        }
                        p => panic!("unexpected decision {p:?}"),
                    }
                }
            }
            p => panic!("unexpected decision {p:?}"),
        }
    }
}

/// The events from the first `fire_resolved` on.
fn from_resolution(ev: &[Event]) -> Vec<Event> {
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::FireResolved { .. }))
        .expect("fire resolved");
    ev[i..].to_vec()
}

/// The tail of the firing phase when it ends with Player 1's Orders phase.
fn to_orders_a() -> Vec<Event> {
    vec![
        Event::PhaseStarted {
            phase: Phase::Orders { side: Side::A },
        },
        Event::Awaiting {
            decision: Pending::Orders { side: Side::A },
        },
    ]
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
const FALLS_BACK: &str = "p14: falls back 5cm for each base lost";
const ROUTS: &str = "p14: routs its road-column move or its force back";

// ------------------------------------------------------------------------- page 7

#[test]
fn rule_p7_placed_setup_roll_off_lowest_wins_ties_reroll() {
    // (dice, who goes first): a tie is rolled again; the lowest total goes first and is
    // Player 1, so the other side (Player 2) places its officers first.
    for (dice, first) in [
        ([3, 3, 2, 4, 2, 5, 4, 4], Side::A),
        ([3, 3, 2, 4, 4, 4, 2, 5], Side::B),
    ] {
        let mut v = table(
            vec![line("a1", Side::A, 2, [600, 200])],
            vec![line("b1", Side::B, 2, [600, 1000])],
        );
        v["first"] = Value::Null;
        let sc = load(v);
        let (s, ev) = engine::new_game(&sc, &mut Loaded::new(&dice));
        let d = |i: usize| Dice(dice[i], dice[i + 1]);
        assert_eq!(
            ev,
            vec![
                Event::RolledOff {
                    a: d(0),
                    b: d(2),
                    first: None
                },
                Event::RolledOff {
                    a: d(4),
                    b: d(6),
                    first: Some(first)
                },
                Event::FirstDecided {
                    side: first,
                    by: "roll-off".into()
                },
                Event::OfficersToPlace,
                Event::Awaiting {
                    decision: Pending::PlaceOfficer {
                        side: first.other()
                    }
                },
            ]
        );
        assert_eq!(s.player1, Some(first));
    }
}

#[test]
fn rule_p7_alternate_setup_placement_rolls_and_players() {
    let a: Vec<Value> = (0..4)
        .map(|i| line(&format!("a{i}"), Side::A, 2, [150 + 300 * i, 200]))
        .collect();
    let b: Vec<Value> = (0..3)
        .map(|i| line(&format!("b{i}"), Side::B, 2, [150 + 300 * i, 1010]))
        .collect();
    let mut v = table(a, b);
    v["setup"] = json!("alternate");
    v["first"] = Value::Null;
    let sc = load(v);
    let place = |id: &str| Command::PlaceUnit { unit: id.into() };
    let placed = |id: &str| Event::UnitPlaced { unit: uid(id) };
    let rolled = |side, d: (u8, u8), min, max| Event::PlacementRolled {
        side,
        dice: Dice(d.0, d.1),
        min,
        max,
    };
    let awaiting = |side, min, max, placed| Event::Awaiting {
        decision: Pending::PlaceUnits {
            side,
            min,
            max,
            placed,
        },
    };
    // The roll-off: the highest places first (10 against 3: side a).
    let (mut s, ev) = engine::new_game(&sc, &mut Loaded::new(&[5, 5, 1, 2, 4, 2]));
    assert_eq!(
        ev,
        vec![
            Event::RolledOff {
                a: Dice(5, 5),
                b: Dice(1, 2),
                first: Some(Side::A)
            },
            Event::FirstDecided {
                side: Side::A,
                by: "roll-off".into()
            },
            // 4 and 2: from two (the low die) to four (the high die) units.
            rolled(Side::A, (4, 2), 2, 4),
            awaiting(Side::A, 2, 4, 0),
        ]
    );
    assert_eq!(s.player1, None);
    assert_eq!(
        legal::legal_commands(&sc, &s),
        vec![place("a0"), place("a1"), place("a2"), place("a3")]
    );
    assert_eq!(
        play(&sc, &mut s, place("a0"), &[]),
        vec![placed("a0"), awaiting(Side::A, 2, 4, 1)]
    );
    // One placed, two required: ending is refused.
    assert_eq!(refused(&sc, &s, Command::EndPlacement).rule, "p7");
    assert!(!legal::legal_commands(&sc, &s).contains(&Command::EndPlacement));
    // Side b's units are not side a's to place.
    assert_eq!(refused(&sc, &s, place("b0")).rule, "p7");
    play(&sc, &mut s, place("a1"), &[]);
    assert!(legal::legal_commands(&sc, &s).contains(&Command::EndPlacement));
    // The sides alternate: side b rolls 1 and 3 (at most its 3 units).
    assert_eq!(
        play(&sc, &mut s, Command::EndPlacement, &[1, 3]),
        vec![
            Event::PlacementEnded { side: Side::A },
            rolled(Side::B, (1, 3), 1, 3),
            awaiting(Side::B, 1, 3, 0),
        ]
    );
    play(&sc, &mut s, place("b0"), &[]);
    assert_eq!(
        play(&sc, &mut s, Command::EndPlacement, &[1, 1]),
        vec![
            Event::PlacementEnded { side: Side::B },
            rolled(Side::A, (1, 1), 1, 1),
            awaiting(Side::A, 1, 1, 0),
        ]
    );
    // At the high die the placing ends by itself; b's 6 and 5 are capped at its 2 left.
    assert_eq!(
        play(&sc, &mut s, place("a2"), &[6, 5]),
        vec![
            placed("a2"),
            Event::PlacementEnded { side: Side::A },
            rolled(Side::B, (6, 5), 2, 2),
            awaiting(Side::B, 2, 2, 0),
        ]
    );
    play(&sc, &mut s, place("b1"), &[]);
    // Side b finishes placing first: it is Player 2, side a Player 1.
    assert_eq!(
        play(&sc, &mut s, place("b2"), &[2, 3]),
        vec![
            placed("b2"),
            Event::PlayersDecided { player1: Side::A },
            Event::PlacementEnded { side: Side::B },
            rolled(Side::A, (2, 3), 1, 1),
            awaiting(Side::A, 1, 1, 0),
        ]
    );
    assert_eq!(s.player1, Some(Side::A));
    // All placed: Player 2 (side b) places officers, then Player 1.
    assert_eq!(
        play(&sc, &mut s, place("a3"), &[]),
        vec![
            placed("a3"),
            Event::OfficersToPlace,
            Event::Awaiting {
                decision: Pending::PlaceOfficer { side: Side::B }
            },
        ]
    );
    let officer = |id: &str| Command::PlaceOfficer {
        officer: id.into(),
        at: None,
    };
    assert_eq!(refused(&sc, &s, officer("a-cinc")).rule, "p8");
    play(&sc, &mut s, officer("b-cinc"), &[]);
    play(&sc, &mut s, officer("b-d1"), &[]);
    assert_eq!(s.pending, Pending::PlaceOfficer { side: Side::A });
    play(&sc, &mut s, officer("a-cinc"), &[]);
    let ev = play(&sc, &mut s, officer("a-d1"), &QUIET);
    // Player 1 (side a) rolls first in the common phases.
    let first_test = ev.iter().find_map(|e| match e {
        Event::SkirmishTested { side, .. } => Some(*side),
        _ => None,
    });
    assert_eq!(first_test, Some(Side::A));
    assert_eq!(s.turn, 1);
}

#[test]
fn rule_p7_the_fifteen_phases_in_order() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1000])],
    ));
    let (mut s, mut ev) = begin(&sc, &QUIET);
    ev.extend(pass(&sc, &mut s, &[]));
    ev.extend(pass(&sc, &mut s, &QUIET));
    let phases: Vec<Phase> = ev
        .iter()
        .filter_map(|e| match e {
            Event::PhaseStarted { phase } => Some(*phase),
            _ => None,
        })
        .collect();
    use Side::{A, B};
    let turn = vec![
        Phase::SkirmisherSuperiority,
        Phase::ArtilleryEffectiveness,
        Phase::Firing { side: A },
        Phase::Orders { side: A },
        Phase::FireAtChargers { side: B },
        Phase::Combat { side: A },
        Phase::MoveOfficers { side: A },
        Phase::Rally { side: A },
        Phase::Firing { side: B },
        Phase::Orders { side: B },
        Phase::FireAtChargers { side: A },
        Phase::Combat { side: B },
        Phase::MoveOfficers { side: B },
        Phase::Rally { side: B },
        Phase::TurnEnds,
    ];
    assert_eq!(phases[..15], turn[..]);
    let numbers: Vec<u8> = turn.iter().map(|p| p.number(A)).collect();
    assert_eq!(numbers, (1..=15).collect::<Vec<u8>>());
    // Turn 2 starts after "turn ends".
    assert_eq!(
        phases[15..],
        [
            Phase::SkirmisherSuperiority,
            Phase::ArtilleryEffectiveness,
            Phase::Firing { side: A },
            Phase::Orders { side: A }
        ]
    );
    let turn_events: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::TurnStarted { .. } | Event::TurnEnded { .. }))
        .collect();
    assert_eq!(
        turn_events,
        vec![
            &Event::TurnStarted {
                turn: 1,
                ground: Ground::Normal,
                weather: Weather::Fair
            },
            &Event::TurnEnded { turn: 1 },
            &Event::TurnStarted {
                turn: 2,
                ground: Ground::Normal,
                weather: Weather::Fair
            },
        ]
    );
    // Fire at chargers is the other player's.
    assert_eq!(
        engine::next_phase(Phase::Orders { side: B }, A),
        Phase::FireAtChargers { side: A }
    );
}

// ------------------------------------------------------------------------- page 9

fn far_apart() -> Value {
    table(
        vec![line("a1", Side::A, 2, [600, 200])],
        vec![line("b1", Side::B, 2, [600, 1010])],
    )
}

fn skirmish_tests(ev: &[Event]) -> Vec<(Side, Test)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::SkirmishTested { side, test } => Some((*side, test.clone())),
            _ => None,
        })
        .collect()
}

fn artillery_tests(ev: &[Event]) -> Vec<(Side, Test)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::ArtilleryTested { side, test } => Some((*side, test.clone())),
            _ => None,
        })
        .collect()
}

fn war(ev: &[Event]) -> Option<Side> {
    ev.iter()
        .find_map(|e| match e {
            Event::SkirmisherWar { winner } => Some(*winner),
            _ => None,
        })
        .expect("a skirmisher war")
}

#[test]
fn rule_p9_modifiers_foul_weather_failed_and_won_previous() {
    let mut v = far_apart();
    v["conditions"] = json!([{"turn": 1, "ground": "normal", "weather": "foul"}]);
    let sc = load(v);
    let (mut s, ev) = begin(&sc, &[6, 6, 2, 3, 6, 6, 6, 6]);
    let foul = md("foul weather", -1);
    assert_eq!(
        skirmish_tests(&ev),
        vec![
            (Side::A, test(8, vec![foul.clone()], 7, (6, 6), false)),
            (Side::B, test(8, vec![foul.clone()], 7, (2, 3), true)),
        ]
    );
    assert_eq!(war(&ev), Some(Side::B));
    let ev = next_turn(&sc, &mut s, &[3, 3, 3, 3, 6, 6, 6, 6]);
    assert_eq!(
        skirmish_tests(&ev),
        vec![
            (
                Side::A,
                test(
                    8,
                    vec![foul.clone(), md("failed previous superiority test", -1)],
                    6,
                    (3, 3),
                    true
                )
            ),
            (
                Side::B,
                test(
                    8,
                    vec![foul, md("won previous superiority test", 1)],
                    8,
                    (3, 3),
                    true
                )
            ),
        ]
    );
    // Margins 0 and 2: side b keeps the upper hand.
    assert_eq!(war(&ev), Some(Side::B));
}

#[test]
fn rule_p9_larger_margin_wins_equal_margins_nobody_only_one_succeeds() {
    for (dice, winner) in [
        // Both succeed: margins 5 and 3.
        ([1, 2, 2, 3], Some(Side::A)),
        ([2, 3, 1, 2], Some(Side::B)),
        // Equal margins (3 and 3): nobody.
        ([2, 3, 1, 4], None),
        // Only one succeeds, even by nothing (8 against 8).
        ([4, 5, 4, 4], Some(Side::B)),
        ([4, 4, 6, 6], Some(Side::A)),
        // Neither.
        ([4, 5, 5, 6], None),
    ] {
        let sc = load(far_apart());
        let mut turn = dice.to_vec();
        turn.extend([6, 6, 6, 6]);
        let (s, ev) = begin(&sc, &turn);
        assert_eq!(war(&ev), winner, "dice {dice:?}");
        assert_eq!(s.superiority, winner);
    }
}

#[test]
fn rule_p9_huzzah_reduces_the_enemy_skirmish_factor_permanently() {
    let sc = load(far_apart());
    let (mut s, ev) = begin(&sc, &[1, 1, 2, 2, 6, 6, 6, 6]);
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::SkirmishTested { .. }))
        .unwrap();
    assert_eq!(
        ev[i..i + 4],
        [
            Event::SkirmishTested {
                side: Side::A,
                test: test(8, vec![], 8, (1, 1), true)
            },
            Event::SkirmishTested {
                side: Side::B,
                test: test(8, vec![], 8, (2, 2), true)
            },
            Event::SkirmishFactorReduced {
                side: Side::B,
                to: 7
            },
            Event::SkirmisherWar {
                winner: Some(Side::A)
            },
        ]
    );
    // The next turns' tests use the reduced factor.
    let ev = next_turn(&sc, &mut s, &[6, 6, 2, 2, 6, 6, 6, 6]);
    assert_eq!(
        skirmish_tests(&ev)[1],
        (Side::B, test(7, vec![], 7, (2, 2), true))
    );
    let ev = next_turn(&sc, &mut s, &[6, 6, 2, 2, 6, 6, 6, 6]);
    assert_eq!(
        skirmish_tests(&ev)[1],
        (
            Side::B,
            test(
                7,
                vec![md("won previous superiority test", 1)],
                8,
                (2, 2),
                true
            )
        )
    );
}

#[test]
fn rule_p9_a_reinforced_skirmish_line() {
    // (bases deployed by a, by b, a reinforced): at least twice the enemy's, and some.
    for (a, b, reinforced) in [(2, 1, true), (1, 0, true), (3, 2, false), (0, 0, false)] {
        let sc = load(far_apart());
        let (_, ev) = begin_with(&sc, &QUIET, |s| {
            // No command deploys skirmishers yet (orders, page 9's deployment).
            s.armies.a.skirmish_line = a;
            s.armies.b.skirmish_line = b;
        });
        let mods = if reinforced {
            vec![md("skirmish line is reinforced", 1)]
        } else {
            vec![]
        };
        let f = 8 + mods.len() as i8;
        assert_eq!(
            skirmish_tests(&ev),
            vec![
                (Side::A, test(8, mods, f, (6, 6), false)),
                (Side::B, test(8, vec![], 8, (6, 6), false)),
            ],
            "{a} against {b}"
        );
    }
}

#[test]
fn rule_p9_superiority_gives_minus_one_to_fire_at_that_side() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![line("b1", Side::B, 2, [600, 560])],
    ));
    // Side b wins the skirmisher war.
    let (mut s, ev) = begin(&sc, &[6, 6, 1, 2, 6, 6, 6, 6]);
    assert_eq!(war(&ev), Some(Side::B));
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[3, 3, 2, 2]);
    assert_eq!(
        tests_of(&ev)[0],
        test(
            6,
            vec![
                md("target has skirmisher superiority", -1),
                md("every two bases in the front line", 1),
                md("target at short range", 1),
            ],
            7,
            (3, 3),
            true
        )
    );
    // Side a's units have no such protection when side b fires.
    pass(&sc, &mut s, &[]);
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::B,
            units: vec![uid("b1")]
        }
    );
    let ev = play(&sc, &mut s, fire_cmd("b1", "a1"), &[3, 3, 2, 2]);
    assert_eq!(
        tests_of(&ev)[0],
        test(
            6,
            vec![
                md("every two bases in the front line", 1),
                md("target at short range", 1),
            ],
            8,
            (3, 3),
            true
        )
    );
}

// ------------------------------------------------------------------------- page 10

#[test]
fn rule_p10_artillery_modifiers() {
    let mut v = far_apart();
    v["conditions"] = json!([
        {"turn": 1, "ground": "soft", "weather": "foul"},
        {"turn": 2, "ground": "hard", "weather": "fair"}
    ]);
    let sc = load(v);
    // Side b wins the skirmisher war; side a's guns fail, side b's pass.
    let (mut s, ev) = begin(&sc, &[6, 6, 1, 2, 6, 6, 2, 2]);
    assert_eq!(
        artillery_tests(&ev),
        vec![
            (
                Side::A,
                test(
                    8,
                    vec![
                        md("enemy has skirmisher superiority", -1),
                        md("soft ground", -1),
                        md("foul weather", -1),
                    ],
                    5,
                    (6, 6),
                    false
                )
            ),
            (
                Side::B,
                test(
                    8,
                    vec![md("soft ground", -1), md("foul weather", -1)],
                    6,
                    (2, 2),
                    true
                )
            ),
        ]
    );
    assert!(!s.armies.a.artillery_effective && s.armies.b.artillery_effective);
    let ev = next_turn(&sc, &mut s, &[6, 6, 6, 6, 3, 3, 5, 5]);
    assert_eq!(
        artillery_tests(&ev),
        vec![
            (
                Side::A,
                test(
                    8,
                    vec![md("failed previous test", -1), md("hard ground", 1)],
                    8,
                    (3, 3),
                    true
                )
            ),
            (
                Side::B,
                test(
                    8,
                    vec![md("hard ground", 1), md("passed previous test", 1)],
                    10,
                    (5, 5),
                    true
                )
            ),
        ]
    );
    assert!(s.armies.a.artillery_effective && s.armies.b.artillery_effective);
}

#[test]
fn rule_p10_huzzah_reduces_the_enemy_artillery_factor_once() {
    let sc = load(far_apart());
    let (mut s, ev) = begin(&sc, &[6, 6, 6, 6, 1, 1, 6, 6]);
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::ArtilleryTested { .. }))
        .unwrap();
    assert_eq!(
        ev[i..i + 4],
        [
            Event::ArtilleryTested {
                side: Side::A,
                test: test(8, vec![], 8, (1, 1), true)
            },
            Event::ArtilleryTested {
                side: Side::B,
                test: test(8, vec![], 8, (6, 6), false)
            },
            Event::ArtilleryFactorReduced {
                side: Side::B,
                to: 7
            },
            Event::PhaseStarted {
                phase: Phase::Firing { side: Side::A }
            },
        ]
    );
    assert_eq!(
        (s.armies.a.artillery_factor, s.armies.b.artillery_factor),
        (8, 7)
    );
    // Next turn: side b tests against 7; no Huzzah!, no further reduction.
    let ev = next_turn(&sc, &mut s, &[6, 6, 6, 6, 2, 3, 2, 3]);
    assert_eq!(
        artillery_tests(&ev)[1],
        (
            Side::B,
            test(7, vec![md("failed previous test", -1)], 6, (2, 3), true)
        )
    );
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::ArtilleryFactorReduced { .. })));
    assert_eq!(
        (s.armies.a.artillery_factor, s.armies.b.artillery_factor),
        (8, 7)
    );
}

// ------------------------------------------------------------------------- page 11

#[test]
fn rule_p11_cavalry_road_columns_routers_and_chargers_are_not_offered() {
    let cav = unit(
        "a-cav",
        Side::A,
        &["battle_cavalry", "battle_cavalry"],
        &[2],
        [400, 500],
    );
    let col = with(
        unit(
            "a-col",
            Side::A,
            &["infantry", "infantry", "infantry"],
            &[1, 1, 1],
            [600, 500],
        ),
        "formation",
        json!("column"),
    );
    let sc = load(table(
        vec![
            line("a-inf", Side::A, 2, [200, 500]),
            cav,
            col,
            line("a-rout", Side::A, 2, [800, 500]),
            line("a-chg", Side::A, 2, [1000, 500]),
        ],
        vec![
            line("b1", Side::B, 2, [200, 560]),
            line("b2", Side::B, 2, [400, 560]),
            line("b3", Side::B, 2, [600, 560]),
            line("b4", Side::B, 2, [800, 560]),
            line("b5", Side::B, 2, [1000, 560]),
        ],
    ));
    let (s, _) = begin_with(&sc, &QUIET, |s| {
        // A router and a charger: routs and charges come from earlier turns' morale and
        // orders, set directly here.
        s.units[3].status = Status::Routing;
        s.units[4].charger = true;
    });
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: vec![uid("a-inf")]
        }
    );
    // Each refusal names its own rule and page, in words.
    for (u, t, page, why) in [
        (
            "a-cav",
            "b2",
            "p11",
            "a-cav is cavalry, and cavalry units cannot fire",
        ),
        (
            "a-col",
            "b3",
            "p12",
            "a-col is in road column, and units in road column cannot fire",
        ),
        (
            "a-rout",
            "b4",
            "p11",
            "a-rout is routing, and routers cannot fire",
        ),
        (
            "a-chg",
            "b5",
            "p11",
            "a-chg charged this turn, and chargers cannot fire",
        ),
    ] {
        for cmd in [fire_cmd(u, t), hold_cmd(u)] {
            let e = refused(&sc, &s, cmd);
            assert_eq!((e.rule.as_str(), e.message.as_str()), (page, why), "{u}");
        }
        assert!(!firing::may_fire(&sc, &s, ix(&sc, u)), "{u}");
    }
    let e = refused(&sc, &s, fire_cmd("b1", "a-inf"));
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("p11", "b1 is side b's, and side a's units fire now")
    );
    let e = refused(&sc, &s, Command::EndPhase);
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        (
            "p11",
            "end_phase does not answer the decision now: side a's units a-inf declare their fire (fire, or hold_fire)"
        )
    );
    assert_eq!(
        legal::legal_commands(&sc, &s),
        vec![fire_cmd("a-inf", "b1"), hold_cmd("a-inf")]
    );
}

/// One base of side a at (600, 500); `b` its possible targets.
fn one_firer(b: Vec<Value>, more_a: Vec<Value>) -> Scenario {
    let mut a = vec![line("a1", Side::A, 1, [600, 500])];
    a.extend(more_a);
    load(table(a, b))
}

#[test]
fn rule_p11_a_target_at_short_range_must_be_chosen() {
    let sc = one_firer(
        vec![
            line("b-near", Side::B, 1, [600, 560]),
            line("b-far", Side::B, 1, [720, 620]),
        ],
        vec![],
    );
    let (mut s, _) = begin(&sc, &QUIET);
    // Both could be chosen but for the short-range rule: 8 cm (short) and 18.43 cm.
    let all: Vec<(UnitIx, i64, bool)> = firing::candidates(&sc, &s, ix(&sc, "a1"))
        .iter()
        .map(|c| (c.target, c.range.0, c.short))
        .collect();
    assert_eq!(
        all,
        vec![
            (ix(&sc, "b-near"), 800, true),
            (ix(&sc, "b-far"), 1843, false)
        ]
    );
    let e = refused(&sc, &s, fire_cmd("a1", "b-far"));
    assert_eq!(e.rule, "p11");
    assert!(e.message.contains("short range"), "{}", e.message);
    assert_eq!(
        legal::legal_commands(&sc, &s),
        vec![fire_cmd("a1", "b-near"), hold_cmd("a1")]
    );
    let ev = play(&sc, &mut s, fire_cmd("a1", "b-near"), &[6, 6]);
    let mut want = vec![
        Event::FireDeclared {
            unit: uid("a1"),
            target: uid("b-near"),
            range_mm: Len(800),
            short: true,
            bases: None,
        },
        fire_resolved(
            "a1",
            "b-near",
            1,
            test(6, vec![md("target at short range", 1)], 7, (6, 6), false),
            0,
        ),
        hits_applied("b-near", 0),
        removal_done("b-near", 0),
        resolved("b-near"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
}

#[test]
fn rule_p11_a_target_outside_the_arc_is_refused() {
    let sc = one_firer(
        vec![
            line("b-near", Side::B, 1, [600, 560]),
            line("b-wide", Side::B, 1, [760, 520]),
        ],
        vec![],
    );
    let (s, _) = begin(&sc, &QUIET);
    let (f, w) = (
        &s.unit(ix(&sc, "a1")).shape,
        &s.unit(ix(&sc, "b-wide")).shape,
    );
    // Within range (15.2 cm), but not within 45 degrees of the front.
    assert!(geometry::fire_range(f, w).unwrap() <= Len::cm(20));
    assert!(!geometry::in_arc(f, w));
    let e = refused(&sc, &s, fire_cmd("a1", "b-wide"));
    assert_eq!(e.rule, "p11");
    assert!(e.message.contains("arc"), "{}", e.message);
}

#[test]
fn rule_p11_a_target_blocked_by_another_unit_is_refused() {
    // A friendly unit stands partly in the lane from a1 to b-behind (not on the line of
    // sight of a1's base); b-side is clear.
    let sc = one_firer(
        vec![
            line("b-behind", Side::B, 1, [600, 660]),
            line("b-side", Side::B, 1, [720, 620]),
        ],
        vec![line("a-block", Side::A, 1, [565, 580])],
    );
    let (s, _) = begin(&sc, &QUIET);
    let shape_of = |id: &str| &s.unit(ix(&sc, id)).shape;
    assert!(geometry::blocks(
        shape_of("a1"),
        shape_of("b-behind"),
        shape_of("a-block")
    ));
    assert!(geometry::fire_range(shape_of("a1"), shape_of("b-behind")).unwrap() <= Len::cm(20));
    assert!(geometry::in_arc(shape_of("a1"), shape_of("b-behind")));
    let e = refused(&sc, &s, fire_cmd("a1", "b-behind"));
    assert_eq!(e.rule, "p11");
    assert!(e.message.contains("blocked"), "{}", e.message);
    let offered: Vec<Command> = legal::legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Fire { unit, .. } if unit == "a1"))
        .collect();
    assert_eq!(offered, vec![fire_cmd("a1", "b-side")]);
}

/// A 2×2 brigade and a line of four, each facing a line of side b.
fn deep_and_wide() -> Scenario {
    load(table(
        vec![
            unit("a-deep", Side::A, &["infantry"; 4], &[2, 2], [300, 500]),
            line("a-line", Side::A, 4, [900, 500]),
        ],
        vec![
            line("b1", Side::B, 2, [300, 560]),
            line("b2", Side::B, 4, [900, 560]),
        ],
    ))
}

#[test]
fn rule_p11_the_rear_rank_of_a_two_by_two_does_not_fire() {
    let sc = deep_and_wide();
    let (mut s, _) = begin(&sc, &QUIET);
    play(&sc, &mut s, fire_cmd("a-deep", "b1"), &[]);
    let ev = play(
        &sc,
        &mut s,
        fire_cmd("a-line", "b2"),
        &[3, 3, 3, 3, 2, 2, 2, 2],
    );
    let fired: Vec<Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::FireResolved { .. }))
        .cloned()
        .collect();
    assert_eq!(
        fired,
        vec![
            // Two bases see the target; the 2×2's centre is 10 cm away: not short.
            fire_resolved(
                "a-deep",
                "b1",
                2,
                test(
                    6,
                    vec![md("every two bases in the front line", 1)],
                    7,
                    (3, 3),
                    true
                ),
                1
            ),
            fire_resolved(
                "a-line",
                "b2",
                4,
                test(
                    6,
                    vec![
                        md("every two bases in the front line", 2),
                        md("target at short range", 1)
                    ],
                    9,
                    (3, 3),
                    true
                ),
                3
            ),
        ]
    );
}

#[test]
fn rule_p11_all_targets_declared_before_any_fire_is_resolved() {
    let sc = deep_and_wide();
    let (mut s, _) = begin(&sc, &QUIET);
    assert_eq!(
        s.pending,
        Pending::DeclareFire {
            side: Side::A,
            units: vec![uid("a-deep"), uid("a-line")]
        }
    );
    // No die rolled for the first declaration.
    assert_eq!(
        play(&sc, &mut s, fire_cmd("a-deep", "b1"), &[]),
        vec![
            Event::FireDeclared {
                unit: uid("a-deep"),
                target: uid("b1"),
                range_mm: Len(1000),
                short: false,
                bases: None,
            },
            Event::Awaiting {
                decision: Pending::DeclareFire {
                    side: Side::A,
                    units: vec![uid("a-line")]
                }
            },
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        fire_cmd("a-line", "b2"),
        &[3, 3, 3, 3, 2, 2, 2, 2],
    );
    let kinds: Vec<&str> = ev
        .iter()
        .map(|e| match e {
            Event::FireDeclared { .. } => "declared",
            Event::FireResolved { .. } => "resolved",
            Event::HitsApplied { .. } => "hits",
            Event::BaseRemoved { .. } => "removed",
            Event::RemovalDone { .. } => "done",
            Event::MoraleTested { .. } => "morale",
            Event::TargetResolved { .. } => "target",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "declared", "resolved", "resolved", "hits", "done", "morale", "target", "hits",
            "removed", "done", "morale", "target", "other", "other"
        ]
    );
}

// ------------------------------------------------------------------------- page 12

/// The worked example: trained British infantry, three bases and one of divisional
/// artillery in one line, at short range of a French brigade of four bases.
fn worked_example() -> Scenario {
    load(table(
        vec![brigade_with_guns("british", Side::A, [600, 500])],
        vec![
            line("french", Side::B, 4, [600, 560]),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    ))
}

#[test]
fn rule_p12_worked_example() {
    let sc = worked_example();
    // The British guns are effective (6 against 8); the French guns are not.
    let (mut s, ev) = begin(&sc, &A_GUNS);
    assert_eq!(
        artillery_tests(&ev)[0],
        (Side::A, test(8, vec![], 8, (3, 3), true))
    );
    // Fire: 6 +2 +1 +1 = 10, rolls 6: four hits. The French lose one base (three hits
    // a base), one hit left over. Page 15: trained, 8 -1 = 7; a roll of 8 disorders
    // it and it falls back 5 cm.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[2, 4, 4, 4]);
    let mut want = vec![
        Event::FireDeclared {
            unit: uid("british"),
            target: uid("french"),
            range_mm: Len(800),
            short: true,
            bases: None,
        },
        fire_resolved(
            "british",
            "french",
            4,
            test(
                6,
                vec![
                    md("every two bases in the front line", 2),
                    md("target at short range", 1),
                    md("divisional artillery attached (effective)", 1),
                ],
                10,
                (2, 4),
                true,
            ),
            4,
        ),
        hits_applied("french", 4),
        base_removed("french", 0, BaseKind::Infantry, shape(600, 560, 180, &[3])),
        removal_done("french", 1),
        morale(
            "french",
            test(
                8,
                vec![md("each base lost this turn", -1)],
                7,
                (4, 4),
                false,
            ),
        ),
        status("french", Status::Disordered, FAILED),
        Event::UnitMoved {
            unit: uid("french"),
            // Straight back (+y for a unit facing 180), facing kept: 5 cm = 500.
            shape: shape(600, 610, 180, &[3]),
            sector: None,
            distance_mm: Len(500),
            why: FALLS_BACK.into(),
        },
        resolved("french"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
    let f = s.unit(ix(&sc, "french"));
    assert_eq!(
        (f.hits, f.lost_this_turn, f.status),
        (1, 1, Status::Disordered)
    );
    // The odd hit stays until the end of the Rally phase.
    let ev = play(&sc, &mut s, Command::EndPhase, &[]);
    use Side::{A, B};
    let phase = |phase| Event::PhaseStarted { phase };
    assert_eq!(
        ev,
        vec![
            phase(Phase::FireAtChargers { side: B }),
            phase(Phase::Combat { side: A }),
            phase(Phase::MoveOfficers { side: A }),
            // The Move Officers phase's rules are missing: where officers go is asked.
            Event::Awaiting {
                decision: Pending::MoveOfficers { side: A }
            },
        ]
    );
    assert_eq!(s.unit(ix(&sc, "french")).hits, 1);
    let ev = play(&sc, &mut s, Command::EndPhase, &[]);
    assert_eq!(
        ev,
        vec![
            phase(Phase::Rally { side: A }),
            Event::OddHitsRemoved {
                units: vec![uid("french")]
            },
            phase(Phase::Firing { side: B }),
            Event::Awaiting {
                decision: Pending::DeclareFire {
                    side: B,
                    units: vec![uid("french")]
                }
            },
        ]
    );
    assert_eq!(s.unit(ix(&sc, "french")).hits, 0);
}

#[test]
fn rule_p12_eleven_and_twelve_always_fail_even_at_the_clamped_ten() {
    // Veterans: 7 +2 +1 +1 = 11, held to 10; an 11 would otherwise succeed.
    for dice in [(5, 6), (6, 6)] {
        let sc = load(table(
            vec![with(
                brigade_with_guns("british", Side::A, [600, 500]),
                "quality",
                json!("veteran"),
            )],
            vec![line("french", Side::B, 4, [600, 560])],
        ));
        let (mut s, _) = begin(&sc, &A_GUNS);
        let ev = play(
            &sc,
            &mut s,
            fire_cmd("british", "french"),
            &[dice.0, dice.1],
        );
        let mut want = vec![
            fire_resolved(
                "british",
                "french",
                4,
                test(
                    7,
                    vec![
                        md("every two bases in the front line", 2),
                        md("target at short range", 1),
                        md("divisional artillery attached (effective)", 1),
                    ],
                    10,
                    dice,
                    false,
                ),
                0,
            ),
            hits_applied("french", 0),
            removal_done("french", 0),
            resolved("french"),
        ];
        want.extend(to_orders_a());
        assert_eq!(from_resolution(&ev), want);
    }
}

#[test]
fn rule_p12_fire_factor_clamped_to_ten() {
    let sc = load(table(
        vec![with(
            brigade_with_guns("british", Side::A, [600, 500]),
            "quality",
            json!("veteran"),
        )],
        vec![line("french", Side::B, 4, [600, 560])],
    ));
    let (mut s, _) = begin(&sc, &A_GUNS);
    // 11 held to 10; a 7 gives three hits, not four.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[3, 4, 2, 2]);
    assert_eq!(
        from_resolution(&ev)[0],
        fire_resolved(
            "british",
            "french",
            4,
            test(
                7,
                vec![
                    md("every two bases in the front line", 2),
                    md("target at short range", 1),
                    md("divisional artillery attached (effective)", 1),
                ],
                10,
                (3, 4),
                true,
            ),
            3,
        )
    );
}

#[test]
fn rule_p12_a_two_always_succeeds_with_an_extra_hit_at_the_clamped_two() {
    // Raw (5), -1 skirmisher superiority, -1 Irregular, -1 foul weather, -2 hard cover:
    // 0, held to 2. A Huzzah! (the only 2) succeeds with no margin and one extra hit; a
    // 3 fails.
    for (dice, passed, hits) in [((1, 1), true, 1), ((1, 2), false, 0)] {
        let irregulars = with(
            unit(
                "b-irr",
                Side::B,
                &["irregular_infantry", "irregular_infantry"],
                &[2],
                [600, 620],
            ),
            "order",
            json!("irregular"),
        );
        let mut v = table(
            vec![with(
                line("a1", Side::A, 1, [600, 500]),
                "quality",
                json!("raw"),
            )],
            vec![irregulars],
        );
        v["conditions"] = json!([{"turn": 1, "ground": "normal", "weather": "foul"}]);
        v["terrain"] = json!([{"id": "wall", "kind": "wall",
            "polygon": [[560, 625], [640, 625], [640, 635], [560, 635]]}]);
        let sc = load(v);
        // Side b wins the skirmisher war (3 against 7).
        let (mut s, _) = begin(&sc, &[6, 6, 1, 2, 6, 6, 6, 6]);
        let mut dice_all = vec![dice.0, dice.1];
        if passed {
            dice_all.extend([3, 3]);
        }
        let ev = play(&sc, &mut s, fire_cmd("a1", "b-irr"), &dice_all);
        let mut want = vec![
            fire_resolved(
                "a1",
                "b-irr",
                1,
                test(
                    5,
                    vec![
                        md("target has skirmisher superiority", -1),
                        md("target is Irregular troops", -1),
                        md("foul weather", -1),
                        md("target is in hard cover", -2),
                    ],
                    2,
                    dice,
                    passed,
                ),
                hits,
            ),
            hits_applied("b-irr", hits),
            // Irregulars take two hits a base: one is an odd hit.
            removal_done("b-irr", hits),
        ];
        if passed {
            want.push(morale("b-irr", test(8, vec![], 8, (3, 3), true)));
        }
        want.push(resolved("b-irr"));
        want.extend(to_orders_a());
        assert_eq!(from_resolution(&ev), want, "dice {dice:?}");
    }
}

fn pair() -> Scenario {
    load(table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![
            line("b1", Side::B, 2, [600, 560]),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    ))
}

/// a1 fires at b1 (6 +1 +1 = 8) rolling exactly 8: a success with no hits.
fn zero_hits() -> Event {
    fire_resolved(
        "a1",
        "b1",
        2,
        test(
            6,
            vec![
                md("every two bases in the front line", 1),
                md("target at short range", 1),
            ],
            8,
            (4, 4),
            true,
        ),
        0,
    )
}

#[test]
fn rule_p12_rolling_the_factor_is_zero_hits_and_still_a_morale_test() {
    let sc = pair();
    let (mut s, _) = begin(&sc, &QUIET);
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[4, 4, 2, 3]);
    let mut want = vec![
        zero_hits(),
        hits_applied("b1", 0),
        removal_done("b1", 0),
        morale("b1", test(8, vec![], 8, (2, 3), true)),
        resolved("b1"),
    ];
    want.extend(to_orders_a());
    assert_eq!(from_resolution(&ev), want);
}

#[test]
fn rule_p12_bases_removed_only_after_all_fire_at_a_unit() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [540, 500]),
            line("a2", Side::A, 2, [660, 500]),
        ],
        vec![line("b1", Side::B, 4, [600, 550])],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    play(&sc, &mut s, fire_cmd("a1", "b1"), &[]);
    let ev = play(&sc, &mut s, fire_cmd("a2", "b1"), &[2, 3, 3, 3, 2, 2]);
    let t = |d| {
        test(
            6,
            vec![
                md("every two bases in the front line", 1),
                md("target at short range", 1),
            ],
            8,
            d,
            true,
        )
    };
    let mut want = vec![
        Event::FireDeclared {
            unit: uid("a2"),
            target: uid("b1"),
            range_mm: Len(921),
            short: true,
            bases: None,
        },
        fire_resolved("a1", "b1", 2, t((2, 3)), 3),
        fire_resolved("a2", "b1", 2, t((3, 3)), 2),
        // Three and two hits, summed: one base and two odd hits.
        hits_applied("b1", 5),
        base_removed("b1", 0, BaseKind::Infantry, shape(600, 550, 180, &[3])),
        removal_done("b1", 2),
        morale(
            "b1",
            test(8, vec![md("each base lost this turn", -1)], 7, (2, 2), true),
        ),
        resolved("b1"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
}

#[test]
fn rule_p12_the_owner_chooses_the_base_marker_bases_stay() {
    let sc = load(table(
        vec![line("a1", Side::A, 4, [600, 500])],
        vec![unit(
            "b-deep",
            Side::B,
            &["infantry", "divisional_artillery", "infantry", "infantry"],
            &[2, 2],
            [600, 560],
        )],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    // 6 +2 +1 = 9, a 6: three hits, one base for side b to choose.
    let ev = play(&sc, &mut s, fire_cmd("a1", "b-deep"), &[3, 3]);
    let b = ix(&sc, "b-deep");
    assert_eq!(
        from_resolution(&ev)[1..],
        [
            hits_applied("b-deep", 3),
            Event::Awaiting {
                decision: Pending::RemoveBase {
                    side: Side::B,
                    unit: sc.unit_id(b),
                    hits: 3
                }
            },
        ]
    );
    let remove = |unit: &str, rank, kind| Command::RemoveBase {
        unit: unit.into(),
        rank,
        kind,
    };
    // An infantry base from either rank; the divisional artillery marker stays while
    // two or more other bases remain.
    assert_eq!(
        legal::legal_commands(&sc, &s),
        vec![
            remove("b-deep", 0, BaseKind::Infantry),
            remove("b-deep", 1, BaseKind::Infantry)
        ]
    );
    for bad in [
        remove("b-deep", 0, BaseKind::DivisionalArtillery),
        remove("b-deep", 2, BaseKind::Infantry),
        remove("b-deep", 0, BaseKind::BattleCavalry),
        remove("a1", 0, BaseKind::Infantry),
    ] {
        assert_eq!(refused(&sc, &s, bad.clone()).rule, "p12", "{bad:?}");
    }
    // From the support rank: the support rank still counts (before removing losses).
    let ev = play(
        &sc,
        &mut s,
        remove("b-deep", 1, BaseKind::Infantry),
        &[2, 2],
    );
    let mut want = vec![
        base_removed(
            "b-deep",
            1,
            BaseKind::Infantry,
            shape(600, 560, 180, &[2, 1]),
        ),
        removal_done("b-deep", 0),
        morale(
            "b-deep",
            test(
                8,
                vec![
                    md("each base lost this turn", -1),
                    md("each complete support rank in good order", 1),
                ],
                8,
                (2, 2),
                true,
            ),
        ),
        resolved("b-deep"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
    assert_eq!(
        s.unit(b).bases,
        vec![
            BaseKind::Infantry,
            BaseKind::DivisionalArtillery,
            BaseKind::Infantry
        ]
    );
}

#[test]
fn rule_p12_the_marker_base_goes_first_when_one_other_base_would_remain() {
    let sc = load(table(
        vec![brigade_with_guns("british", Side::A, [600, 500])],
        vec![brigade_with_guns("french", Side::B, [600, 560])],
    ));
    let (mut s, _) = begin(&sc, &A_GUNS);
    // A Huzzah! at 10: 8 + 1 = 9 hits, three bases.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[1, 1, 2, 2]);
    let mut want = vec![
        hits_applied("french", 9),
        base_removed("french", 0, BaseKind::Infantry, shape(600, 560, 180, &[3])),
        base_removed("french", 0, BaseKind::Infantry, shape(600, 560, 180, &[2])),
        // Infantry and the guns left: the marker goes, not the base that shows the type.
        base_removed(
            "french",
            0,
            BaseKind::DivisionalArtillery,
            shape(600, 560, 180, &[1]),
        ),
        Event::AbilityLost {
            unit: uid("french"),
            ability: "divisional artillery".into(),
        },
        removal_done("french", 0),
        morale(
            "french",
            test(8, vec![md("each base lost this turn", -3)], 5, (2, 2), true),
        ),
        resolved("french"),
    ];
    want.extend(to_orders_a());
    assert_eq!(from_resolution(&ev)[1..], want[..]);
    assert_eq!(s.unit(ix(&sc, "french")).bases, vec![BaseKind::Infantry]);
}

#[test]
fn rule_p12_the_skirmish_limited_marker_goes_before_the_last_base() {
    let sc = load(table(
        vec![brigade_with_guns("british", Side::A, [600, 500])],
        vec![
            with(
                line("b-sk", Side::B, 3, [600, 560]),
                "order",
                json!("skirmish_limited"),
            ),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    ));
    let (mut s, _) = begin(&sc, &A_GUNS);
    assert!(s.unit(ix(&sc, "b-sk")).skirmish_limited);
    let ev = play(&sc, &mut s, fire_cmd("british", "b-sk"), &[1, 1]);
    let empty = Shape {
        ranks: vec![],
        ..shape(600, 560, 180, &[1])
    };
    let mut want = vec![
        hits_applied("b-sk", 9),
        base_removed("b-sk", 0, BaseKind::Infantry, shape(600, 560, 180, &[2])),
        base_removed("b-sk", 0, BaseKind::Infantry, shape(600, 560, 180, &[1])),
        Event::AbilityLost {
            unit: uid("b-sk"),
            ability: "skirmish (limited)".into(),
        },
        base_removed("b-sk", 0, BaseKind::Infantry, empty),
        Event::UnitDestroyed { unit: uid("b-sk") },
        resolved("b-sk"),
    ];
    want.extend(to_orders_a());
    assert_eq!(from_resolution(&ev)[1..], want[..]);
    assert_eq!(s.unit(ix(&sc, "b-sk")).at, Whereabouts::Destroyed);
}

#[test]
fn rule_p12_odd_hits_are_added_to_later_hits() {
    let sc = pair();
    let (mut s, _) = begin_with(&sc, &QUIET, |s| {
        // Two odd hits from earlier this turn (fire at chargers and combat, which would
        // bring them, are not built yet).
        s.units[1].hits = 2;
    });
    // 8 against 7: one hit, three with the two already there.
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[3, 4, 2, 2]);
    assert_eq!(
        from_resolution(&ev)[1..4],
        [
            hits_applied("b1", 1),
            base_removed("b1", 0, BaseKind::Infantry, shape(600, 560, 180, &[1])),
            removal_done("b1", 0),
        ]
    );
}

#[test]
fn rule_p12_fire_modifiers_disordered_firer_flank_and_square() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [300, 500]),
            line("a2", Side::A, 2, [900, 500]),
            line("a3", Side::A, 2, [600, 500]),
        ],
        vec![
            line("b1", Side::B, 2, [300, 560]),
            // Side on to a2: its front edge runs along y at x = 920.
            with(line("b2", Side::B, 2, [920, 570]), "facing", json!(90)),
            with(
                unit("b3", Side::B, &["infantry"; 4], &[2, 2], [600, 560]),
                "formation",
                json!("square"),
            ),
        ],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    // Turn 1: side a holds; side b's b1 disorders a1 (no hits, a failed test).
    for id in ["a1", "a2", "a3"] {
        play(&sc, &mut s, hold_cmd(id), &[]);
    }
    pass(&sc, &mut s, &[]);
    let b1 = ix(&sc, "b1");
    let mut b1_fired = false;
    while let Pending::DeclareFire { units, .. } = s.pending.clone() {
        let last = units.len() == 1;
        let dice: &[u8] = if last { &[4, 4, 5, 5] } else { &[] };
        let cmd = if !b1_fired && units.contains(&sc.unit_id(b1)) {
            b1_fired = true;
            fire_cmd("b1", "a1")
        } else {
            hold_cmd(units[0].as_str())
        };
        play(&sc, &mut s, cmd, dice);
    }
    assert!(b1_fired);
    assert_eq!(s.unit(ix(&sc, "a1")).status, Status::Disordered);
    pass(&sc, &mut s, &QUIET);
    // Turn 2.
    play(&sc, &mut s, fire_cmd("a1", "b1"), &[]);
    play(&sc, &mut s, fire_cmd("a2", "b2"), &[]);
    let ev = play(&sc, &mut s, fire_cmd("a3", "b3"), &[6, 6, 6, 6, 6, 6]);
    let two = md("every two bases in the front line", 1);
    let short = md("target at short range", 1);
    assert_eq!(
        tests_of(&ev),
        vec![
            test(
                6,
                vec![md("firer is disordered", -1), two.clone(), short.clone()],
                7,
                (6, 6),
                false
            ),
            test(
                6,
                vec![
                    two.clone(),
                    short.clone(),
                    md("firing on the target's flank or rear", 1)
                ],
                9,
                (6, 6),
                false
            ),
            // A square has no flank; firing at it is +1.
            test(
                6,
                vec![two, short, md("target is in square", 1)],
                9,
                (6, 6),
                false
            ),
        ]
    );
}

#[test]
fn rule_p12_every_three_bases_in_dense_terrain() {
    let mut v = table(
        vec![with(
            line("a-wood", Side::A, 3, [600, 500]),
            "sector",
            json!("w/0"),
        )],
        vec![line("b1", Side::B, 2, [600, 560])],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[520, 450], [680, 450], [680, 510], [520, 510]]}]);
    let sc = load(v);
    let (mut s, _) = begin(&sc, &QUIET);
    let ev = play(&sc, &mut s, fire_cmd("a-wood", "b1"), &[6, 6]);
    assert_eq!(
        from_resolution(&ev)[0],
        fire_resolved(
            "a-wood",
            "b1",
            3,
            test(
                6,
                vec![
                    md("every three bases in dense terrain", 1),
                    md("target at short range", 1)
                ],
                8,
                (6, 6),
                false
            ),
            0
        )
    );
}

#[test]
fn rule_p12_grand_battery_modifiers_need_effective_guns() {
    for (dice, effective) in [(A_GUNS, true), (QUIET, false)] {
        let sc = load(table(
            vec![unit(
                "a-gb",
                Side::A,
                &["foot_artillery", "heavy_artillery"],
                &[2],
                [600, 500],
            )],
            vec![unit(
                "b-deep",
                Side::B,
                &["infantry"; 4],
                &[2, 2],
                [600, 900],
            )],
        ));
        let (mut s, _) = begin(&sc, &dice);
        // 42 cm: within the foot artillery's 60 cm (the shorter), not short (30 cm).
        let ev = play(&sc, &mut s, fire_cmd("a-gb", "b-deep"), &[6, 6]);
        let mut mods = vec![md("every two bases in the front line", 1)];
        if effective {
            mods.extend([
                md("grand battery at a target more than one base deep", 1),
                md("grand battery with heavy artillery", 1),
            ]);
        }
        let f = 7 + mods.iter().map(|m| m.by).sum::<i8>();
        assert_eq!(
            ev[0],
            Event::FireDeclared {
                unit: uid("a-gb"),
                target: uid("b-deep"),
                range_mm: Len(4200),
                short: false,
                bases: None,
            }
        );
        assert_eq!(tests_of(&ev), vec![test(7, mods, f, (6, 6), false)]);
    }
}

// ------------------------------------------------------------------------- pages 13-14

/// a1 fires at b1 for no hits (rolling the factor of 8), then b1 tests with `dice`:
/// the morale test.
fn zero_hit_morale(sc: &Scenario, s: &mut State, dice: (u8, u8)) -> Vec<Event> {
    let ev = play(sc, s, fire_cmd("a1", "b1"), &[4, 4, dice.0, dice.1]);
    let r = from_resolution(&ev);
    assert_eq!(r[0].clone(), zero_hits());
    r
}

fn morale_test_of(ev: &[Event]) -> Test {
    ev.iter()
        .find_map(|e| match e {
            Event::MoraleTested { test, .. } => Some(test.clone()),
            _ => None,
        })
        .expect("a morale test")
}

#[test]
fn rule_p14_zero_hits_can_only_disorder() {
    let sc = pair();
    let (mut s, _) = begin(&sc, &QUIET);
    let ev = zero_hit_morale(&sc, &mut s, (5, 5));
    let mut want = vec![
        zero_hits(),
        hits_applied("b1", 0),
        removal_done("b1", 0),
        morale("b1", test(8, vec![], 8, (5, 5), false)),
        status("b1", Status::Disordered, FAILED),
        resolved("b1"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
}

#[test]
fn rule_p14_friendly_routing_unit_within_20cm() {
    // A router 14 cm from b1 counts; one 24 cm away does not.
    for (x, counts) in [(800, true), (900, false)] {
        let sc = load(table(
            vec![line("a1", Side::A, 2, [600, 500])],
            vec![
                line("b1", Side::B, 2, [600, 560]),
                line("b-rout", Side::B, 1, [x, 560]),
            ],
        ));
        let (mut s, _) = begin_with(&sc, &QUIET, |s| {
            // Routing since an earlier turn.
            s.units[2].status = Status::Routing;
        });
        let mods = if counts {
            vec![md("friendly routing unit within 20cm", -1)]
        } else {
            vec![]
        };
        let f = 8 + mods.iter().map(|m| m.by).sum::<i8>();
        let ev = zero_hit_morale(&sc, &mut s, (2, 2));
        assert_eq!(morale_test_of(&ev), test(8, mods, f, (2, 2), true));
    }
}

#[test]
fn rule_p14_support_rank_only_in_good_order() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![unit("b1", Side::B, &["infantry"; 4], &[2, 2], [600, 560])],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    let support = md("each complete support rank in good order", 1);
    let ev = zero_hit_morale(&sc, &mut s, (5, 5));
    assert_eq!(
        morale_test_of(&ev),
        test(8, vec![support], 9, (5, 5), false)
    );
    assert_eq!(s.unit(ix(&sc, "b1")).status, Status::Disordered);
    // Disordered next turn: no bonus.
    next_turn(&sc, &mut s, &QUIET);
    let ev = zero_hit_morale(&sc, &mut s, (2, 2));
    assert_eq!(morale_test_of(&ev), test(8, vec![], 8, (2, 2), true));
}

#[test]
fn rule_p14_attached_officer_and_inspirational_officer() {
    for (inspirational, mods) in [
        (false, vec![md("officer attached", 1)]),
        (
            true,
            vec![
                md("officer attached", 1),
                md("inspirational officer attached", 1),
            ],
        ),
    ] {
        let mut v = table(
            vec![line("a1", Side::A, 2, [600, 500])],
            vec![line("b1", Side::B, 2, [600, 560])],
        );
        v["sides"]["b"]["officers"][1]["inspirational"] = json!(inspirational);
        let sc = load(v);
        let (mut s, _) = begin_with(&sc, &QUIET, |s| {
            // No command attaches an officer yet (orders and officer movement).
            s.officers[B_D1 as usize].attached = Some(UnitIx(1));
        });
        let f = 8 + mods.iter().map(|m| m.by).sum::<i8>();
        // No hits: no saving throw.
        let ev = zero_hit_morale(&sc, &mut s, (2, 2));
        assert!(!ev.iter().any(|e| matches!(e, Event::OfficerSave { .. })));
        assert_eq!(morale_test_of(&ev), test(8, mods, f, (2, 2), true));
    }
}

#[test]
fn rule_p14_killed_attached_officer() {
    for (inspirational, m) in [
        (false, md("attached officer killed this turn", -1)),
        (
            true,
            md("attached inspirational officer killed this turn", -2),
        ),
    ] {
        let mut v = table(
            vec![line("a1", Side::A, 2, [600, 500])],
            vec![line("b1", Side::B, 2, [600, 560])],
        );
        v["sides"]["b"]["officers"][1]["inspirational"] = json!(inspirational);
        let sc = load(v);
        let (mut s, _) = begin_with(&sc, &QUIET, |s| {
            // No command attaches an officer yet.
            s.officers[B_D1 as usize].attached = Some(UnitIx(1));
        });
        // One hit (7 against 8): he needs 11 or less, and 11 always fails.
        let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[3, 4, 5, 6, 2, 2]);
        let f = 8 + m.by;
        let mut want = vec![
            hits_applied("b1", 1),
            removal_done("b1", 1),
            Event::OfficerSave {
                officer: OfficerId::from("b-d1"),
                needs: 11,
                dice: Some(Dice(5, 6)),
                survived: false,
                charmed: false,
            },
            Event::OfficerKilled {
                officer: OfficerId::from("b-d1"),
                unit: uid("b1"),
            },
            morale("b1", test(8, vec![m], f, (2, 2), true)),
            resolved("b1"),
        ];
        want.extend(to_orders_a());
        assert_eq!(from_resolution(&ev)[1..], want[..]);
        assert!(s.officers[B_D1 as usize].lost);
    }
}

#[test]
fn rule_p14_facing_a_renowned_unit() {
    // Renowned cavalry on b1's flank, within one move but outside its arc, does not
    // count; the renowned firer in front of it does.
    let flank = with(
        with(
            unit("a-cav", Side::A, &["battle_cavalry"; 2], &[2], [700, 620]),
            "facing",
            json!(270),
        ),
        "renowned",
        json!(true),
    );
    for (renowned, mods) in [
        (true, vec![md("facing a renowned unit", -1)]),
        (false, vec![]),
    ] {
        let sc = load(table(
            vec![
                with(
                    line("a1", Side::A, 2, [600, 500]),
                    "renowned",
                    json!(renowned),
                ),
                flank.clone(),
            ],
            vec![line("b1", Side::B, 2, [600, 560])],
        ));
        let (b1, cav) = (ix(&sc, "b1"), ix(&sc, "a-cav"));
        let s0 = State::initial(&sc);
        assert!(fm_core::huzzah::morale::within_one_move(&sc, &s0, b1, cav));
        assert!(!geometry::in_arc(&s0.unit(b1).shape, &s0.unit(cav).shape));
        let (mut s, _) = begin(&sc, &QUIET);
        let f = 8 + mods.iter().map(|m| m.by).sum::<i8>();
        let ev = zero_hit_morale(&sc, &mut s, (2, 2));
        assert_eq!(morale_test_of(&ev), test(8, mods, f, (2, 2), true));
    }
}

#[test]
fn rule_p14_morale_factor_clamped_to_ten_and_eleven_fails() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![with(
            unit("b1", Side::B, &["infantry"; 4], &[2, 2], [600, 560]),
            "quality",
            json!("veteran"),
        )],
    );
    v["sides"]["b"]["officers"][1]["inspirational"] = json!(true);
    let sc = load(v);
    let (mut s, _) = begin_with(&sc, &QUIET, |s| {
        // No command attaches an officer yet.
        s.officers[B_D1 as usize].attached = Some(UnitIx(1));
    });
    // 10 +1 +1 +1 = 13, held to 10; 11 fails.
    let ev = zero_hit_morale(&sc, &mut s, (5, 6));
    assert_eq!(
        morale_test_of(&ev),
        test(
            10,
            vec![
                md("each complete support rank in good order", 1),
                md("officer attached", 1),
                md("inspirational officer attached", 1),
            ],
            10,
            (5, 6),
            false
        )
    );
    assert_eq!(s.unit(ix(&sc, "b1")).status, Status::Disordered);
}

#[test]
fn rule_p14_morale_factor_clamped_to_two_and_a_huzzah_passes() {
    let sc = load(table(
        vec![with(
            brigade_with_guns("british", Side::A, [600, 500]),
            "renowned",
            json!(true),
        )],
        vec![with(
            line("french", Side::B, 4, [600, 560]),
            "quality",
            json!("unreliable"),
        )],
    ));
    let (mut s, _) = begin(&sc, &A_GUNS);
    // Nine hits, three bases: 5 -3 -1 = 1, held to 2.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[1, 1, 1, 1]);
    let r = from_resolution(&ev);
    let i = r
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        r[i..i + 2],
        [
            morale(
                "french",
                test(
                    5,
                    vec![
                        md("each base lost this turn", -3),
                        md("facing a renowned unit", -1)
                    ],
                    2,
                    (1, 1),
                    true
                )
            ),
            Event::AbilityGained {
                unit: uid("french"),
                ability: Ability::Grognards
            },
        ]
    );
}

#[test]
fn rule_p14_morale_huzzah_grognards_then_disciplined_then_quality() {
    let cases: [(bool, bool, Event); 3] = [
        (
            false,
            false,
            Event::AbilityGained {
                unit: uid("b1"),
                ability: Ability::Grognards,
            },
        ),
        (
            true,
            false,
            Event::AbilityGained {
                unit: uid("b1"),
                ability: Ability::Disciplined,
            },
        ),
        (
            true,
            true,
            Event::QualityImproved {
                unit: uid("b1"),
                to: Quality::Experienced,
            },
        ),
    ];
    for (grognards, disciplined, gained) in cases {
        let b1 = with(
            with(
                line("b1", Side::B, 2, [600, 560]),
                "grognards",
                json!(grognards),
            ),
            "disciplined",
            json!(disciplined),
        );
        let sc = load(table(vec![line("a1", Side::A, 2, [600, 500])], vec![b1]));
        assert_eq!(ix(&sc, "b1"), UnitIx(1));
        let (mut s, _) = begin(&sc, &QUIET);
        let ev = zero_hit_morale(&sc, &mut s, (1, 1));
        let mut want = vec![
            zero_hits(),
            hits_applied("b1", 0),
            removal_done("b1", 0),
            morale("b1", test(8, vec![], 8, (1, 1), true)),
            gained,
            resolved("b1"),
        ];
        want.extend(to_orders_a());
        assert_eq!(ev, want);
        let u = s.unit(UnitIx(1));
        assert!(u.grognards);
        assert_eq!(u.disciplined, grognards);
        let q = if disciplined {
            Quality::Experienced
        } else {
            Quality::Trained
        };
        assert_eq!(u.quality, Some(q));
    }
}

#[test]
fn rule_p14_a_disordered_unit_that_fails_routs() {
    let sc = pair();
    let (mut s, _) = begin(&sc, &QUIET);
    zero_hit_morale(&sc, &mut s, (5, 5));
    assert_eq!(s.unit(ix(&sc, "b1")).status, Status::Disordered);
    next_turn(&sc, &mut s, &QUIET);
    let ev = zero_hit_morale(&sc, &mut s, (5, 5));
    let mut want = vec![
        zero_hits(),
        hits_applied("b1", 0),
        removal_done("b1", 0),
        morale("b1", test(8, vec![], 8, (5, 5), false)),
        status(
            "b1",
            Status::Routing,
            "p14: a disordered unit that fails a morale test routs",
        ),
        Event::UnitMoved {
            unit: uid("b1"),
            // Turned about (now facing 0, anchored on its old rear edge) and moved its
            // road-column move (30 cm, the stand-in table) away from the enemy.
            shape: shape(600, 900, 0, &[2]),
            sector: None,
            distance_mm: Len(3000),
            why: ROUTS.into(),
        },
        resolved("b1"),
    ];
    want.extend(to_orders_a());
    assert_eq!(ev, want);
}

#[test]
fn rule_p14_forced_back_more_than_15cm_routs() {
    let mut v = table(
        vec![
            with(
                brigade_with_guns("a1", Side::A, [510, 500]),
                "quality",
                json!("veteran"),
            ),
            with(
                brigade_with_guns("a2", Side::A, [690, 500]),
                "quality",
                json!("veteran"),
            ),
        ],
        vec![
            line("b5", Side::B, 5, [600, 560]),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    );
    // A slow road column (10 cm), so the router moves its force back, the greater.
    let mut movement: Value =
        serde_json::from_str(include_str!("../fm-core/src/huzzah/movement_table.json")).unwrap();
    movement["infantry"]["column"] = json!(100);
    v["movement"] = movement;
    let sc = load(v);
    let (mut s, _) = begin(&sc, &A_GUNS);
    play(&sc, &mut s, fire_cmd("a1", "b5"), &[]);
    // 7 +2 +1 = 10 each (12 cm: not short): nine hits and three, four bases.
    let ev = play(&sc, &mut s, fire_cmd("a2", "b5"), &[1, 1, 3, 4, 3, 3]);
    let r = from_resolution(&ev);
    let t = |d, passed| {
        test(
            7,
            vec![
                md("every two bases in the front line", 2),
                md("divisional artillery attached (effective)", 1),
            ],
            10,
            d,
            passed,
        )
    };
    let mut want = vec![
        fire_resolved("a1", "b5", 4, t((1, 1), true), 9),
        fire_resolved("a2", "b5", 4, t((3, 4), true), 3),
        hits_applied("b5", 12),
    ];
    for n in [4, 3, 2, 1] {
        want.push(base_removed(
            "b5",
            0,
            BaseKind::Infantry,
            shape(600, 560, 180, &[n]),
        ));
    }
    want.extend([
        removal_done("b5", 0),
        morale(
            "b5",
            test(
                8,
                vec![md("each base lost this turn", -4)],
                4,
                (3, 3),
                false,
            ),
        ),
        status("b5", Status::Disordered, FAILED),
        status("b5", Status::Routing, "p14: forced back more than 15cm"),
        Event::UnitMoved {
            unit: uid("b5"),
            shape: shape(600, 800, 0, &[1]),
            sector: None,
            distance_mm: Len(2000),
            why: ROUTS.into(),
        },
        resolved("b5"),
    ]);
    want.extend(to_orders_a());
    assert_eq!(r, want);
}

#[test]
fn rule_p14_falling_back_exactly_15cm_does_not_rout() {
    let sc = worked_example();
    let (mut s, _) = begin(&sc, &A_GUNS);
    // Nine hits, three bases: 15 cm, not more than 15 cm.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[1, 1, 4, 4]);
    let r = from_resolution(&ev);
    let i = r
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        r[i..i + 3],
        [
            morale(
                "french",
                test(
                    8,
                    vec![md("each base lost this turn", -3)],
                    5,
                    (4, 4),
                    false
                )
            ),
            status("french", Status::Disordered, FAILED),
            Event::UnitMoved {
                unit: uid("french"),
                shape: shape(600, 710, 180, &[1]),
                sector: None,
                distance_mm: Len(1500),
                why: FALLS_BACK.into(),
            },
        ]
    );
}

#[test]
fn rule_p14_forced_out_of_dense_terrain() {
    let mut v = table(
        vec![brigade_with_guns("british", Side::A, [600, 500])],
        vec![with(
            line("french", Side::B, 4, [600, 560]),
            "sector",
            json!("w/0"),
        )],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[500, 550], [700, 550], [700, 620], [500, 620]]}]);
    let sc = load(v);
    let (mut s, _) = begin(&sc, &A_GUNS);
    // Woods are soft cover: 10 -1 = 9; a Huzzah!: eight hits, two bases; 10 cm less
    // 5 cm for the cover: forced out of the woods and placed 5 cm beyond their edge.
    let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[1, 1, 4, 4]);
    let r = from_resolution(&ev);
    assert_eq!(
        tests_of(&r)[0].modifiers[0],
        md("target is in soft cover", -1)
    );
    let i = r
        .iter()
        .position(|e| matches!(e, Event::StatusChanged { .. }))
        .unwrap();
    assert_eq!(
        r[i + 1],
        Event::UnitMoved {
            unit: uid("french"),
            shape: shape(600, 670, 180, &[2]),
            sector: None,
            distance_mm: Len(1100),
            why: FALLS_BACK.into(),
        }
    );
    assert_eq!(s.unit(ix(&sc, "french")).sector, None);
}

#[test]
fn rule_p14_a_router_into_a_friend_held_wood_is_placed_beyond_it() {
    let mut v = table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![
            line("b1", Side::B, 2, [600, 560]),
            with(line("b-w", Side::B, 2, [600, 670]), "sector", json!("w/0")),
        ],
    );
    v["terrain"] = json!([{"id": "w", "kind": "woods",
        "polygon": [[540, 650], [660, 650], [660, 750], [540, 750]]}]);
    let sc = load(v);
    let (mut s, _) = begin(&sc, &QUIET);
    // Disordered on turn 1, routs on turn 2: 30 cm, meeting the wood after 5 cm.
    zero_hit_morale(&sc, &mut s, (5, 5));
    next_turn(&sc, &mut s, &QUIET);
    let ev = zero_hit_morale(&sc, &mut s, (5, 5));
    let i = ev
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        ev[i + 1..i + 7],
        [
            status(
                "b1",
                Status::Routing,
                "p14: a disordered unit that fails a morale test routs"
            ),
            status(
                "b-w",
                Status::Disordered,
                "p14: a unit fell back or routed through it"
            ),
            Event::PassedThrough {
                unit: uid("b-w"),
                by: uid("b1")
            },
            // Its remaining 25 cm beyond the wood's far edge (y 750): its rear at y 1000.
            Event::UnitMoved {
                unit: uid("b1"),
                shape: shape(600, 1040, 0, &[2]),
                sector: None,
                distance_mm: Len(4400),
                why: ROUTS.into(),
            },
            Event::ExtraHit {
                unit: uid("b1"),
                why: "p14: routed into an occupied sector of dense terrain".into()
            },
            Event::ExtraHit {
                unit: uid("b1"),
                why: "p14: fell back or routed through b-w".into()
            },
        ]
    );
}

#[test]
fn rule_p14_cover_reduces_the_force_back() {
    // (terrain, fire modifier, hits, bases lost, fall back): a Huzzah! at 10 less the
    // cover gives its margin +1.
    for (kind, cover, hits, lost, back) in [
        ("hedge", Some(md("target is in soft cover", -1)), 8, 2, 500),
        ("wall", Some(md("target is in hard cover", -2)), 7, 2, 0),
        ("strongpoint", None, 9, 3, 0),
    ] {
        let mut v = table(
            vec![brigade_with_guns("british", Side::A, [600, 500])],
            vec![line("french", Side::B, 4, [600, 560])],
        );
        v["terrain"] = json!([{"id": "cover", "kind": kind,
            "polygon": [[560, 570], [640, 570], [640, 580], [560, 580]]}]);
        let sc = load(v);
        let (mut s, _) = begin(&sc, &A_GUNS);
        let ev = play(&sc, &mut s, fire_cmd("british", "french"), &[1, 1, 4, 4]);
        let r = from_resolution(&ev);
        let mut mods = vec![];
        mods.extend(cover.clone());
        mods.extend([
            md("every two bases in the front line", 2),
            md("target at short range", 1),
            md("divisional artillery attached (effective)", 1),
        ]);
        let f = 6 + mods.iter().map(|m| m.by).sum::<i8>();
        assert_eq!(
            r[0],
            fire_resolved("british", "french", 4, test(6, mods, f, (1, 1), true), hits),
            "{kind}"
        );
        let i = r
            .iter()
            .position(|e| matches!(e, Event::MoraleTested { .. }))
            .unwrap();
        let mut want = vec![
            morale(
                "french",
                test(
                    8,
                    vec![md("each base lost this turn", -(lost as i8))],
                    8 - lost as i8,
                    (4, 4),
                    false,
                ),
            ),
            status("french", Status::Disordered, FAILED),
        ];
        if back > 0 {
            want.push(Event::UnitMoved {
                unit: uid("french"),
                shape: shape(600, 560 + back / 10, 180, &[4 - lost]),
                sector: None,
                distance_mm: Len(back),
                why: FALLS_BACK.into(),
            });
        }
        want.push(resolved("french"));
        want.extend(to_orders_a());
        assert_eq!(r[i..], want[..], "{kind}");
    }
}

#[test]
fn rule_p14_falling_back_through_a_friend() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![
            line("b1", Side::B, 2, [600, 560]),
            line("b-f", Side::B, 2, [600, 620]),
        ],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    // Three hits: a base; the test fails; 5 cm back runs into b-f.
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[2, 3, 4, 4]);
    let r = from_resolution(&ev);
    let i = r
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        r[i + 1..],
        [
            status("b1", Status::Disordered, FAILED),
            status(
                "b-f",
                Status::Disordered,
                "p14: a unit fell back or routed through it"
            ),
            Event::PassedThrough {
                unit: uid("b-f"),
                by: uid("b1")
            },
            // Placed beyond b-f: its front on b-f's rear edge (y 660), 10 cm back.
            Event::UnitMoved {
                unit: uid("b1"),
                shape: shape(600, 660, 180, &[1]),
                sector: None,
                distance_mm: Len(1000),
                why: FALLS_BACK.into(),
            },
            Event::ExtraHit {
                unit: uid("b1"),
                why: "p14: fell back or routed through b-f".into()
            },
            resolved("b1"),
            Event::PhaseStarted {
                phase: Phase::Orders { side: Side::A }
            },
            // The extra hit: an odd hit (a base takes three).
            removal_done("b1", 1),
            Event::Awaiting {
                decision: Pending::Orders { side: Side::A }
            },
        ]
    );
    assert!(!geometry::overlaps(
        &s.unit(ix(&sc, "b1")).shape,
        &s.unit(ix(&sc, "b-f")).shape
    ));
}

#[test]
fn rule_p14_a_friend_passed_through_twice_is_disordered_once() {
    let sc = load(table(
        vec![
            line("a1", Side::A, 2, [520, 500]),
            line("a2", Side::A, 2, [680, 500]),
        ],
        vec![
            line("b1", Side::B, 2, [520, 560]),
            line("b2", Side::B, 2, [680, 560]),
            line("b-f", Side::B, 6, [600, 620]),
        ],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    play(&sc, &mut s, fire_cmd("a1", "b1"), &[]);
    let ev = play(&sc, &mut s, fire_cmd("a2", "b2"), &[2, 3, 2, 3, 4, 4, 4, 4]);
    let f = ix(&sc, "b-f");
    let about_f: Vec<Event> = ev
        .iter()
        .filter(|e| match e {
            Event::StatusChanged { unit, .. } => *unit == sc.unit_id(f),
            Event::PassedThrough { .. } | Event::ExtraHit { .. } => true,
            _ => false,
        })
        .cloned()
        .collect();
    assert_eq!(
        about_f,
        vec![
            status(
                "b-f",
                Status::Disordered,
                "p14: a unit fell back or routed through it"
            ),
            Event::PassedThrough {
                unit: sc.unit_id(f),
                by: uid("b1")
            },
            Event::ExtraHit {
                unit: uid("b1"),
                why: "p14: fell back or routed through b-f".into()
            },
            Event::PassedThrough {
                unit: sc.unit_id(f),
                by: uid("b2")
            },
            Event::ExtraHit {
                unit: uid("b2"),
                why: "p14: fell back or routed through b-f".into()
            },
        ]
    );
    for (id, x) in [("b1", 520), ("b2", 680)] {
        assert_eq!(s.unit(ix(&sc, id)).shape, shape(x, 660, 180, &[1]), "{id}");
    }
    assert_eq!(s.unit(f).status, Status::Disordered);
}

#[test]
fn rule_p15_falling_back_or_routing_off_the_table_goes_to_the_rout_table() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 1090])],
        vec![
            line("b1", Side::B, 2, [600, 1150]),
            line("b-far", Side::B, 1, [100, 1150]),
        ],
    ));
    // Falls back 5 cm over the table's edge (y 1200).
    let (mut s, _) = begin(&sc, &QUIET);
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[2, 3, 4, 4]);
    let r = from_resolution(&ev);
    let i = r
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        r[i + 1..i + 4],
        [
            status("b1", Status::Disordered, FAILED),
            Event::ToRoutTable { unit: uid("b1") },
            resolved("b1"),
        ]
    );
    let u = s.unit(ix(&sc, "b1"));
    assert_eq!((u.at, u.status), (Whereabouts::RoutTable, Status::Routing));
    // Routs off it: disordered on turn 1, fails again on turn 2.
    let (mut s, _) = begin(&sc, &QUIET);
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[4, 4, 5, 5]);
    assert_eq!(morale_test_of(&ev), test(8, vec![], 8, (5, 5), false));
    next_turn(&sc, &mut s, &QUIET);
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[4, 4, 5, 5]);
    let r = from_resolution(&ev);
    let i = r
        .iter()
        .position(|e| matches!(e, Event::MoraleTested { .. }))
        .unwrap();
    assert_eq!(
        r[i + 1..i + 4],
        [
            status(
                "b1",
                Status::Routing,
                "p14: a disordered unit that fails a morale test routs"
            ),
            Event::ToRoutTable { unit: uid("b1") },
            resolved("b1"),
        ]
    );
    assert_eq!(s.unit(ix(&sc, "b1")).at, Whereabouts::RoutTable);
}

// ------------------------------------------------------------------------- page 15

/// a1 (four bases, 9 at short range) and b1 (two bases) with b's division officer
/// attached; `officer` edits him in the JSON.
fn officer_table(officer: impl FnOnce(&mut Value)) -> (Scenario, State) {
    let mut v = table(
        vec![line("a1", Side::A, 4, [600, 500])],
        vec![
            line("b1", Side::B, 2, [600, 560]),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    );
    officer(&mut v["sides"]["b"]["officers"][1]);
    let sc = load(v);
    let (s, _) = begin_with(&sc, &QUIET, |s| {
        // No command attaches an officer yet (orders and officer movement).
        s.officers[B_D1 as usize].attached = Some(UnitIx(1));
    });
    (sc, s)
}

fn save(needs: i8, dice: Option<(u8, u8)>, survived: bool, charmed: bool) -> Event {
    Event::OfficerSave {
        officer: OfficerId::from("b-d1"),
        needs,
        dice: dice.map(|d| Dice(d.0, d.1)),
        survived,
        charmed,
    }
}

#[test]
fn rule_p15_officer_saving_throw_is_twelve_minus_the_hits() {
    // Four hits (9 against 5): he survives on 8 or less.
    for (dice, survived) in [((4, 4), true), ((4, 5), false)] {
        let (sc, mut s) = officer_table(|_| {});
        let ev = play(
            &sc,
            &mut s,
            fire_cmd("a1", "b1"),
            &[2, 3, dice.0, dice.1, 2, 2],
        );
        let r = from_resolution(&ev);
        let mut want = vec![
            hits_applied("b1", 4),
            base_removed("b1", 0, BaseKind::Infantry, shape(600, 560, 180, &[1])),
            removal_done("b1", 1),
            save(8, Some(dice), survived, false),
        ];
        let lost = md("each base lost this turn", -1);
        if survived {
            want.push(morale(
                "b1",
                test(8, vec![lost, md("officer attached", 1)], 8, (2, 2), true),
            ));
        } else {
            want.push(Event::OfficerKilled {
                officer: OfficerId::from("b-d1"),
                unit: uid("b1"),
            });
            want.push(morale(
                "b1",
                test(
                    8,
                    vec![lost, md("attached officer killed this turn", -1)],
                    6,
                    (2, 2),
                    true,
                ),
            ));
        }
        want.push(resolved("b1"));
        want.extend(to_orders_a());
        assert_eq!(r[1..], want[..], "dice {dice:?}");
    }
}

#[test]
fn rule_p15_eleven_or_twelve_always_fails_the_saving_throw() {
    // One hit (9 against 8): he needs 11, but 11 and 12 always fail.
    for dice in [(5, 6), (6, 6)] {
        let (sc, mut s) = officer_table(|_| {});
        let ev = play(
            &sc,
            &mut s,
            fire_cmd("a1", "b1"),
            &[4, 4, dice.0, dice.1, 2, 2],
        );
        let r = from_resolution(&ev);
        assert_eq!(
            r[3..5],
            [
                save(11, Some(dice), false, false),
                Event::OfficerKilled {
                    officer: OfficerId::from("b-d1"),
                    unit: uid("b1")
                },
            ],
            "dice {dice:?}"
        );
    }
}

#[test]
fn rule_p15_a_huzzah_gives_a_charmed_life_and_the_next_throw_succeeds() {
    let (sc, mut s) = officer_table(|_| {});
    // One hit (9 against 8): he needs 11 or less, and rolls a Huzzah!.
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[4, 4, 1, 1, 2, 2]);
    assert_eq!(from_resolution(&ev)[3], save(11, Some((1, 1)), true, true));
    assert!(s.officers[B_D1 as usize].charmed);
    next_turn(&sc, &mut s, &QUIET);
    // Next turn: four hits, no dice for the throw; the charm is spent.
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[2, 3, 2, 2]);
    let r = from_resolution(&ev);
    assert_eq!(r[4], save(8, None, true, false));
    assert_eq!(
        morale_test_of(&r),
        test(
            8,
            vec![
                md("each base lost this turn", -1),
                md("officer attached", 1)
            ],
            8,
            (2, 2),
            true
        )
    );
    assert!(!s.officers[B_D1 as usize].charmed);
    assert!(!s.officers[B_D1 as usize].lost);
}

#[test]
fn rule_p15_an_officer_dies_with_his_destroyed_unit_without_a_throw() {
    let sc = load(table(
        vec![line("a1", Side::A, 2, [600, 500])],
        vec![
            line("b1", Side::B, 1, [600, 560]),
            line("b-far", Side::B, 1, [100, 1100]),
        ],
    ));
    let (mut s, _) = begin_with(&sc, &QUIET, |s| {
        // No command attaches an officer yet.
        s.officers[B_D1 as usize].attached = Some(UnitIx(1));
    });
    // 8 against 4: four hits; the only base goes (three hits a base).
    let ev = play(&sc, &mut s, fire_cmd("a1", "b1"), &[2, 2]);
    let empty = Shape {
        ranks: vec![],
        ..shape(600, 560, 180, &[1])
    };
    let mut want = vec![
        fire_resolved(
            "a1",
            "b1",
            2,
            test(
                6,
                vec![
                    md("every two bases in the front line", 1),
                    md("target at short range", 1),
                ],
                8,
                (2, 2),
                true,
            ),
            4,
        ),
        hits_applied("b1", 4),
        base_removed("b1", 0, BaseKind::Infantry, empty),
        Event::OfficerKilled {
            officer: OfficerId::from("b-d1"),
            unit: uid("b1"),
        },
        Event::UnitDestroyed { unit: uid("b1") },
        resolved("b1"),
    ];
    want.extend(to_orders_a());
    assert_eq!(from_resolution(&ev), want);
    assert!(s.officers[B_D1 as usize].lost);
}

// ------------------------------------------------------------------------- odds

/// The 36 outcomes of 2D6.
fn all_dice() -> Vec<(u8, u8)> {
    (1..=6u8)
        .flat_map(|a| (1..=6u8).map(move |b| (a, b)))
        .collect()
}

/// Brute force over 2D6: how many outcomes give each number of hits at `factor`
/// (already clamped), and how many succeed. Written from pages 11-12 alone.
fn brute_fire(factor: i8) -> (Vec<u64>, u64) {
    let mut hits = vec![0u64; 16];
    let mut pass = 0;
    for (a, b) in all_dice() {
        let t = (a + b) as i8;
        let huzzah = a == 1 && b == 1;
        let ok = huzzah || (t <= 10 && t <= factor);
        let h = if ok {
            (factor - t).max(0) + i8::from(huzzah)
        } else {
            0
        };
        hits[h as usize] += 1;
        if ok {
            pass += 1;
        }
    }
    (hits, pass)
}

fn chances(counts: &[u64], den: u64) -> Vec<Chance> {
    let mut c: Vec<u64> = counts.to_vec();
    while c.len() > 1 && c.last() == Some(&0) {
        c.pop();
    }
    c.iter().map(|n| Chance::new(*n, den)).collect()
}

fn sums_to_one(cs: &[Chance]) -> bool {
    // Every denominator divides 1296 × 36.
    let den = 1296u64 * 36;
    cs.iter().map(|c| c.num * (den / c.den)).sum::<u64>() == den
}

#[test]
fn rule_odds_fire_odds_match_a_brute_force_count() {
    // (scenario, firer, target, dice for the opening, factor)
    let cases: Vec<(Scenario, &str, &str, [u8; 8], i8)> = vec![
        (pair(), "a1", "b1", QUIET, 8),
        (worked_example(), "british", "french", A_GUNS, 10),
        (deep_and_wide(), "a-deep", "b1", QUIET, 7),
    ];
    for (sc, f, t, dice, factor) in cases {
        let (s, _) = begin(&sc, &dice);
        let o = odds::fire_odds(&sc, &s, ix(&sc, f), ix(&sc, t)).unwrap();
        assert_eq!(
            o.factors,
            vec![(Quality::Trained, factor, Chance::new(1, 1))]
        );
        assert_eq!(
            o.modifiers,
            firing::fire_modifiers(&sc, &s, ix(&sc, f), ix(&sc, t))
        );
        let (hits, pass) = brute_fire(factor);
        assert_eq!(o.hits, chances(&hits, 36), "{f}");
        assert_eq!(o.test_forced, Chance::new(pass, 36));
        assert!(sums_to_one(&o.hits));
    }
    // Not a target it may choose: the page-11 rule.
    let sc = pair();
    let (s, _) = begin(&sc, &QUIET);
    assert_eq!(
        odds::fire_odds(&sc, &s, ix(&sc, "a1"), ix(&sc, "b-far"))
            .unwrap_err()
            .rule,
        "p11"
    );
}

/// The chances out of 1,296 of each quality of an unrolled Regulars B unit without
/// abilities, from the stand-in table (docs/huzzah.md): V E E E T T T G G G G for
/// totals 2-12, a first Huzzah! re-rolled (Raw and Unreliable read as Green, which
/// this row never gives; a second Huzzah! read as 2).
fn regulars_b_weights() -> Vec<(Quality, u64)> {
    let row = |t: u8| match t {
        2 => Quality::Veteran,
        3..=5 => Quality::Experienced,
        6..=8 => Quality::Trained,
        _ => Quality::Green,
    };
    let mut w: Vec<(Quality, u64)> = Vec::new();
    let mut add = |q: Quality, n: u64| match w.iter_mut().find(|(x, _)| *x == q) {
        Some(e) => e.1 += n,
        None => w.push((q, n)),
    };
    for (a, b) in all_dice() {
        if (a, b) == (1, 1) {
            for (c, d) in all_dice() {
                add(row(c + d), 1);
            }
        } else {
            add(row(a + b), 36);
        }
    }
    w.sort();
    w
}

#[test]
fn rule_odds_fire_odds_weight_an_unrolled_quality() {
    let mut a1 = line("a1", Side::A, 2, [600, 500]);
    a1.as_object_mut().unwrap().remove("quality");
    let sc = load(table(vec![a1], vec![line("b1", Side::B, 2, [600, 560])]));
    let (s, _) = begin(&sc, &QUIET);
    let o = odds::fire_odds(&sc, &s, ix(&sc, "a1"), ix(&sc, "b1")).unwrap();
    let w = regulars_b_weights();
    assert_eq!(
        w,
        vec![
            (Quality::Veteran, 1),
            (Quality::Experienced, 333),
            (Quality::Trained, 592),
            (Quality::Green, 370)
        ]
    );
    // Veterans fire at 7, the others at 6; +2 here.
    let factor = |q: Quality| if q == Quality::Veteran { 9 } else { 8 };
    assert_eq!(
        o.factors,
        w.iter()
            .map(|(q, n)| (*q, factor(*q), Chance::new(*n, 1296)))
            .collect::<Vec<_>>()
    );
    let mut hits = vec![0u64; 16];
    let mut pass = 0;
    for (q, n) in &w {
        let (h, p) = brute_fire(factor(*q));
        for (k, c) in h.iter().enumerate() {
            hits[k] += c * n;
        }
        pass += p * n;
    }
    assert_eq!(o.hits, chances(&hits, 1296 * 36));
    assert_eq!(o.test_forced, Chance::new(pass, 1296 * 36));
    assert!(sums_to_one(&o.hits));
}

#[test]
fn rule_odds_morale_odds_count_the_passing_totals() {
    let passing = |f: i8| {
        all_dice()
            .into_iter()
            .filter(|(a, b)| (*a, *b) == (1, 1) || (a + b <= 10 && (a + b) as i8 <= f))
            .count() as u64
    };
    // Trained, no modifiers: 8.
    let sc = pair();
    let (s, _) = begin(&sc, &QUIET);
    let o = odds::morale_odds(&sc, &s, ix(&sc, "b1"));
    assert_eq!(o.factors, vec![(Quality::Trained, 8, Chance::new(1, 1))]);
    assert_eq!(o.pass, Chance::new(passing(8), 36));
    assert_eq!(o.pass, Chance::new(26, 36));
    // Trained with an officer attached: 9.
    let (sc, s) = officer_table(|o| o["inspirational"] = json!(false));
    let o = odds::morale_odds(&sc, &s, ix(&sc, "b1"));
    assert_eq!(o.modifiers, vec![md("officer attached", 1)]);
    assert_eq!(o.pass, Chance::new(passing(9), 36));
    // An unrolled quality: weighted.
    let mut b1 = line("b1", Side::B, 2, [600, 560]);
    b1.as_object_mut().unwrap().remove("quality");
    let sc = load(table(vec![line("a1", Side::A, 2, [600, 500])], vec![b1]));
    let (s, _) = begin(&sc, &QUIET);
    let o = odds::morale_odds(&sc, &s, ix(&sc, "b1"));
    let mf = |q: Quality| q.morale_factor() as i8;
    let w = regulars_b_weights();
    let pass: u64 = w.iter().map(|(q, n)| n * passing(mf(*q))).sum();
    assert_eq!(o.pass, Chance::new(pass, 1296 * 36));
    assert_eq!(
        o.factors,
        w.iter()
            .map(|(q, n)| (*q, mf(*q), Chance::new(*n, 1296)))
            .collect::<Vec<_>>()
    );
}

// ------------------------------------------------------------------------- invariants

/// States along random battles (random legal commands, random dice) of the built-in
/// firefight, a close-range table and an alternate set-up.
fn random_states() -> Vec<(Scenario, State)> {
    let close = load(table(
        vec![
            brigade_with_guns("a1", Side::A, [400, 500]),
            unit("a2", Side::A, &["infantry"; 4], &[2, 2], [700, 500]),
        ],
        vec![
            unit(
                "b1",
                Side::B,
                &["infantry", "divisional_artillery", "infantry", "infantry"],
                &[2, 2],
                [450, 560],
            ),
            line("b2", Side::B, 3, [700, 600]),
            line("b3", Side::B, 2, [700, 660]),
        ],
    ));
    let mut alt = far_apart();
    alt["setup"] = json!("alternate");
    alt["first"] = Value::Null;
    let scenarios = vec![
        Scenario::builtin("huzzah-firefight").unwrap(),
        close,
        load(alt),
    ];
    let mut out = Vec::new();
    for (k, sc) in scenarios.into_iter().enumerate() {
        for seed in 0..4u64 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed * 10 + k as u64);
            let (mut s, _) = engine::new_game(&sc, &mut rng);
            for _ in 0..60 {
                if s.is_over() {
                    break;
                }
                out.push((sc.clone(), s.clone()));
                let legal = legal::legal_commands(&sc, &s);
                let c = legal[(rng.next_u32() as usize) % legal.len()].clone();
                let ev = engine::apply(&sc, &s, &c, &mut rng).unwrap();
                s.apply_events(&sc, &ev);
            }
        }
    }
    out
}

#[test]
fn rule_invariant_every_legal_command_is_accepted() {
    let states = random_states();
    // The states cover every kind of decision.
    let mut kinds: Vec<&str> = states
        .iter()
        .map(|(_, s)| match s.pending {
            Pending::PlaceUnits { .. } => "place units",
            Pending::PlaceOfficer { .. } => "place officer",
            Pending::DeclareFire { .. } => "declare fire",
            Pending::RemoveBase { .. } => "remove base",
            Pending::Orders { .. } => "orders",
            Pending::Act { .. } => "act",
            Pending::FireAtCharger { .. } => "fire at charger",
            Pending::Melee { .. } => "melee",
            Pending::Rally { .. } => "rally",
            Pending::MoveOfficers { .. } => "move officers",
            Pending::Opening => "opening",
            Pending::GameOver { .. } => "game over",
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    for k in [
        "act",
        "declare fire",
        "orders",
        "place officer",
        "place units",
        "remove base",
    ] {
        assert!(kinds.contains(&k), "no {k} among {kinds:?}");
    }
    for (n, (sc, s)) in states.iter().enumerate() {
        let legal = legal::legal_commands(sc, s);
        assert!(!legal.is_empty(), "{:?}", s.pending);
        for c in legal {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let r = engine::apply(sc, s, &c, &mut rng);
            assert!(r.is_ok(), "{c:?} at {:?}: {r:?}", s.pending);
        }
    }
}

#[test]
fn rule_invariant_refused_commands_change_nothing() {
    for (sc, s) in random_states().iter().step_by(3) {
        let legal = legal::legal_commands(sc, s);
        // Every encoded command not in the listing is refused, rolling no die and
        // leaving the state as it was.
        for i in 0..legal::action_space_size(sc) {
            // Menu slots (moves, melee outcomes) stand for a command only when legal.
            let Some(c) = legal::index_to_command(sc, s, i) else {
                continue;
            };
            if legal.contains(&c) {
                continue;
            }
            let before = s.clone();
            let r = engine::apply(sc, s, &c, &mut Loaded::new(&[]));
            assert!(r.is_err(), "{c:?} accepted at {:?}", s.pending);
            assert_eq!(*s, before);
        }
        for c in [
            fire_cmd("nobody", "b1"),
            Command::PlaceOfficer {
                officer: "nobody".into(),
                at: None,
            },
        ] {
            let before = s.clone();
            assert!(engine::apply(sc, s, &c, &mut Loaded::new(&[])).is_err());
            assert_eq!(*s, before);
        }
    }
    // Through the match layer: a refused command leaves the match as it was.
    use fm_core::huzzah::Huzzah;
    use fm_core::GameMatch;
    let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 7).unwrap();
    let (state, log) = (m.state().clone(), m.log().len());
    assert!(m.apply(&fire_cmd("fr-1", "br-1")).is_err());
    assert_eq!((m.state().clone(), m.log().len()), (state, log));
}

#[test]
fn rule_invariant_command_index_round_trip() {
    for (sc, s) in random_states() {
        for c in legal::legal_commands(&sc, &s) {
            // Every listed command, a fire with fewer bases too (issue 30).
            let i = legal::command_to_index(&sc, &s, &c).expect("an index");
            assert!(i < legal::action_space_size(&sc));
            assert_eq!(legal::index_to_command(&sc, &s, i), Some(c));
        }
    }
}

// ------------------------------------------------------------------------- smoke

#[test]
fn the_built_in_firefight_plays_to_the_end() {
    use fm_core::huzzah::Huzzah;
    use fm_core::{Game, GameMatch};
    for seed in 0..20 {
        let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", seed).unwrap();
        let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed + 100);
        let mut n = 0;
        while !m.state().is_over() {
            let legal = Huzzah::legal_commands(m.scenario(), m.state());
            assert!(
                !legal.is_empty(),
                "seed {seed}: no legal command at {:?}",
                m.state().pending
            );
            let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
            m.apply(&c)
                .unwrap_or_else(|e| panic!("seed {seed}: {c:?} refused: {e}"));
            n += 1;
            assert!(n < 5000, "seed {seed}: too long");
        }
        let _ = m.state().outcome.clone().unwrap();
    }
}

#[test]
#[ignore]
fn show_a_game() {
    use fm_core::huzzah::Huzzah;
    use fm_core::{Game, GameMatch};
    let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 3).unwrap();
    let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    while !m.state().is_over() {
        let legal = Huzzah::legal_commands(m.scenario(), m.state());
        let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
        println!("> {}", serde_json::to_string(&c).unwrap());
        for e in m.apply(&c).unwrap() {
            let t = serde_json::to_string(&e).unwrap();
            if !t.contains("\"awaiting\"") && !t.contains("phase_started") {
                println!("  {}", &t[..t.len().min(300)]);
            }
        }
    }
}

#[test]
fn rule_vic_a_result_names_the_sides_and_says_draw() {
    // STAND-IN victory (R-HZ-vic): without `victory` terms, the side that lost fewer
    // bases wins after the last turn; equal is a draw, said in words with both armies.
    let sc = load(table(
        vec![line("a1", Side::A, 2, [200, 300])],
        vec![line("b1", Side::B, 2, [200, 900])],
    ));
    let (mut s, _) = begin(&sc, &QUIET);
    assert_eq!(engine::end_of_battle(&sc, &s, true), None, "turn 1 of 3");
    s.turn = 3;
    let o = engine::end_of_battle(&sc, &s, true).unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(
        o.reason,
        "stand-in victory terms after turn 3: a draw between First (a) and Second (b); \
         bases lost First (a) 0, Second (b) 0 (destroyed, captured or on the Rout Table)"
    );
    s.unit_mut(ix(&sc, "b1")).at = fm_core::huzzah::state::Whereabouts::RoutTable;
    let o = engine::end_of_battle(&sc, &s, true).unwrap();
    assert_eq!(o.winner, Some(Side::A));
    assert_eq!(
        o.reason,
        "stand-in victory: First (a) wins, Second (b) has no unit left on the table"
    );
}
