//! Rule-numbered tests: set-up, sequence of play, movement, ZOC, support fire.
//!
//! Every test builds a tiny map by hand. Hex ids are column then row, odd columns sit
//! half a hex lower: an even column (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),
//! (c-1,r),(c-1,r-1); an odd column (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
//!
//! Most ZOC tests use an enemy `b1` in 0403, whose ZOC covers 0402, 0502, 0503, 0404,
//! 0303 and 0302; its neighbours 0301, 0202, 0203 and 0304 are outside it.
//!
//! Readings of ambiguous rule text taken here (to be recorded in docs/rulings.md):
//! - 6.1 commandos "never pay additional movement costs to enter or exit an EZOC": a
//!   commando leg unit moving EZOC to EZOC pays terrain only (not its whole MA) and
//!   still stops; a commando mobile unit pays no half MA.
//! - 6.1 "printed MA" of a depleted unit is the MA printed on its reduced side.
//! - 6.1 the half-MA cost applies to every EZOC hex a mobile unit enters, including
//!   EZOC to EZOC; the minefield / fortification exception ("a unit") binds mobile
//!   units too.
//! - 6.1 a leg unit moving EZOC to EZOC without MA for the terrain is refused under 6.1.
//! - 6.0 a friendly unit in an EZOC hex does not negate it: a leg unit cannot pass
//!   through that hex (it must stop there, and cannot end on the friend, 5.3).
//! - 7.1 an allotment larger than the pool gives the whole pool.
//! - 5.5 a mobile unit that moved in the Movement Phase is refused under 5.5 (the
//!   specific rule), not only the general 5.2 "completed its movement".
use crate::common;
use common::*;
use fm_core::*;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn ps(side: Side, phase: Phase) -> Event {
    Event::PhaseStarted { side, phase }
}

fn mp(s: &str) -> Mp {
    s.parse().unwrap()
}

fn moved(unit: &str, from: &str, path: &[&str], cost: Mp) -> Event {
    Event::UnitMoved {
        unit: u(unit),
        from: Some(h(from)),
        path: path.iter().map(|x| h(x)).collect(),
        mp: cost,
    }
}

fn allotted(side: Side, values: &[u8]) -> Event {
    Event::SupportAllotted {
        side,
        count: values.len() as u8,
        values: Some(values.to_vec()),
    }
}

/// The opening events of a turn with no support fire.
fn turn_start(turn: u16) -> Vec<Event> {
    vec![
        Event::TurnStarted { turn },
        allotted(Side::A, &[]),
        allotted(Side::B, &[]),
    ]
}

/// A 6x5 board with a spare side-A leg unit in 0105, so side A always has a unit
/// left to move and the Movement Phase is not passed automatically after a move.
fn board() -> Tiny {
    Tiny::new(6, 5).leg("spare", Side::A, 1, 1, 1, "0105")
}

/// `board()` with the enemy leg unit `b1` in 0403.
fn zoc_board() -> Tiny {
    board().leg("b1", Side::B, 1, 1, 1, "0403")
}

fn place(unit: &str, hex: &str) -> Command {
    Command::Place {
        unit: u(unit),
        hex: h(hex),
    }
}

fn in_zone(zone: &str) -> impl FnOnce(&mut UnitData) + '_ {
    move |d: &mut UnitData| d.start = StartData::Zone(zone.to_string())
}

fn reinforcement(turn: u16, entry: &[&str]) -> impl FnOnce(&mut UnitData) {
    let entry: Vec<Hex> = entry.iter().map(|x| h(x)).collect();
    move |d: &mut UnitData| d.start = StartData::Reinforcement { turn, entry }
}

fn done(sc: &Scenario, s: &mut State) -> Vec<Event> {
    play(sc, s, Command::Done, &mut Script::new(&[]))
}

fn go(sc: &Scenario, s: &mut State, cmd: Command) -> Vec<Event> {
    play(sc, s, cmd, &mut Script::new(&[]))
}

fn rule_of(sc: &Scenario, s: &State, cmd: Command) -> String {
    refused(sc, s, cmd).rule
}

fn sorted_reach(sc: &Scenario, s: &State, unit: &str) -> Vec<Reach> {
    let mut r = reachable(sc, s, &u(unit));
    r.sort_by_key(|x| x.hex);
    r
}

fn reach(hex: &str, cost: Mp, path: &[&str], stop: Option<StopReason>, occupied: bool) -> Reach {
    Reach {
        hex: h(hex),
        cost,
        path: path.iter().map(|x| h(x)).collect(),
        stop,
        occupied,
    }
}

// ---------------------------------------------------------------------------
// 3.0 Setting up the game
// ---------------------------------------------------------------------------

/// Side B sets up first in zone "east"; side A has two units for zone "west".
fn setup_scenario() -> Scenario {
    let mut t = Tiny::new(4, 2)
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .with_last(in_zone("west"))
        .leg("a2", Side::A, 1, 1, 1, "0101")
        .with_last(in_zone("west"))
        .leg("b1", Side::B, 1, 1, 1, "0401")
        .with_last(in_zone("east"));
    t.data.setup.order = vec![Side::B, Side::A];
    t.data
        .setup
        .zones
        .insert("west".into(), vec![h("0101"), h("0102")]);
    t.data
        .setup
        .zones
        .insert("east".into(), vec![h("0401"), h("0402")]);
    t.build()
}

#[test]
fn rule_3_0_a_sides_set_up_in_setup_order_then_play_begins() {
    let sc = setup_scenario();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    assert_eq!(ev, vec![ps(Side::B, Phase::Setup)]);
    assert_eq!(s.pending(), Pending::Setup { side: Side::B });
    // Side A may not place while B is setting up.
    assert_eq!(rule_of(&sc, &s, place("a1", "0101")), "3.0");
    let ev = go(&sc, &mut s, place("b1", "0401"));
    assert_eq!(
        ev,
        vec![
            Event::UnitPlaced {
                unit: u("b1"),
                hex: h("0401")
            },
            ps(Side::A, Phase::Setup)
        ]
    );
    let ev = go(&sc, &mut s, place("a1", "0101"));
    assert_eq!(
        ev,
        vec![Event::UnitPlaced {
            unit: u("a1"),
            hex: h("0101")
        }]
    );
    let ev = go(&sc, &mut s, place("a2", "0102"));
    let mut want = vec![Event::UnitPlaced {
        unit: u("a2"),
        hex: h("0102"),
    }];
    want.extend(turn_start(1));
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(ev, want);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: Side::A,
            phase: Phase::Movement
        }
    );
}

#[test]
fn rule_3_0_b_placement_outside_setup_zone_refused() {
    let sc = setup_scenario();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, place("b1", "0101")), "3.0(b)");
    assert_eq!(rule_of(&sc, &s, place("b1", "0302")), "3.0(b)");
}

#[test]
fn rule_3_0_placement_on_occupied_hex_refused() {
    let sc = setup_scenario();
    let mut s = start(&sc);
    go(&sc, &mut s, place("b1", "0401"));
    go(&sc, &mut s, place("a1", "0101"));
    assert_eq!(rule_of(&sc, &s, place("a2", "0101")), "5.3");
}

#[test]
fn rule_3_0_play_begins_only_when_all_units_are_placed() {
    let sc = setup_scenario();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, Command::Done), "3.0");
    go(&sc, &mut s, place("b1", "0402"));
    go(&sc, &mut s, place("a1", "0102"));
    assert_eq!(rule_of(&sc, &s, Command::Done), "3.0");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0202"])), "4.1");
    assert_eq!(s.pending(), Pending::Setup { side: Side::A });
}

/// 3.0(b): zones of one side may share hexes, and a placement that would leave a unit
/// still to be placed without room is refused (set-up never dead-ends): here "wide"
/// (0101, 0102) and "narrow" (0101) share 0101, which only the "narrow" unit needs.
#[test]
fn rule_3_0_b_placement_leaving_another_unit_no_room_refused() {
    let mut t = Tiny::new(4, 2)
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .with_last(in_zone("wide"))
        .leg("a2", Side::A, 1, 1, 1, "0101")
        .with_last(in_zone("narrow"));
    t.data.setup.order = vec![Side::A];
    t.data
        .setup
        .zones
        .insert("wide".into(), vec![h("0101"), h("0102")]);
    t.data.setup.zones.insert("narrow".into(), vec![h("0101")]);
    let sc = t.build();
    let mut s = start(&sc);
    let e = refused(&sc, &s, place("a1", "0101"));
    assert_eq!(
        e.to_string(),
        "3.0(b): placing a1 in 0101 would leave 1 unit of zone 'narrow' without room"
    );
    assert_eq!(
        legal_commands(&sc, &s),
        vec![place("a1", "0102"), place("a2", "0101")]
    );
    go(&sc, &mut s, place("a2", "0101"));
    go(&sc, &mut s, place("a1", "0102"));
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: Side::A,
            phase: Phase::Movement
        }
    );
}

#[test]
fn rule_3_0_placement_on_prohibited_terrain_refused() {
    let mut t = Tiny::new(4, 2)
        .terrain("0102", &["sea"])
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .with_last(in_zone("west"));
    t.data.setup.order = vec![Side::A];
    t.data
        .setup
        .zones
        .insert("west".into(), vec![h("0101"), h("0102")]);
    let sc = t.build();
    let mut s = start(&sc);
    assert_eq!(s.pending(), Pending::Setup { side: Side::A });
    assert_eq!(rule_of(&sc, &s, place("a1", "0102")), "5.2(e)");
    let mut want = vec![Event::UnitPlaced {
        unit: u("a1"),
        hex: h("0101"),
    }];
    want.extend(turn_start(1));
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(go(&sc, &mut s, place("a1", "0101")), want);
}

// ---------------------------------------------------------------------------
// 4.1 Sequence of play
// ---------------------------------------------------------------------------

/// Two adjacent mobile units with one support marker each: every phase of both
/// player turns has something to do, so nothing is passed automatically.
fn busy_scenario() -> Tiny {
    Tiny::new(4, 4)
        .mobile("ma", Side::A, 2, 2, 4, "0202")
        .mobile("mb", Side::B, 2, 2, 4, "0302")
        .support(&[1], &[1], 1, 1)
}

#[test]
fn rule_4_1_phase_order_first_player_then_second_then_next_turn() {
    let sc = busy_scenario().build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            Event::TurnStarted { turn: 1 },
            allotted(Side::A, &[1]),
            allotted(Side::B, &[1]),
            ps(Side::A, Phase::Movement)
        ]
    );
    let order = [
        Phase::Bombardment,
        Phase::Combat,
        Phase::MobileMovement,
        Phase::MobileCombat,
    ];
    for p in order {
        assert_eq!(done(&sc, &mut s), vec![ps(Side::A, p)]);
    }
    assert_eq!(done(&sc, &mut s), vec![ps(Side::B, Phase::Movement)]);
    for p in order {
        assert_eq!(done(&sc, &mut s), vec![ps(Side::B, p)]);
    }
    assert_eq!(
        done(&sc, &mut s),
        vec![
            Event::TurnStarted { turn: 2 },
            allotted(Side::A, &[1]),
            allotted(Side::B, &[1]),
            ps(Side::A, Phase::Movement)
        ]
    );
    assert_eq!(s.turn, 2);
}

#[test]
fn rule_4_1_phase_order_with_side_b_as_first_player() {
    let mut t = busy_scenario();
    t.data.first_player = Side::B;
    let sc = t.build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    assert_eq!(ev.last(), Some(&ps(Side::B, Phase::Movement)));
    for _ in 0..4 {
        done(&sc, &mut s);
    }
    assert_eq!(done(&sc, &mut s), vec![ps(Side::A, Phase::Movement)]);
    for _ in 0..4 {
        done(&sc, &mut s);
    }
    assert_eq!(
        done(&sc, &mut s),
        vec![
            Event::TurnStarted { turn: 2 },
            allotted(Side::A, &[1]),
            allotted(Side::B, &[1]),
            ps(Side::B, Phase::Movement)
        ]
    );
}

#[test]
fn rule_4_1_phases_with_nothing_to_do_are_started_and_passed() {
    // Two leg units far apart, no markers: only the Movement Phases need a decision.
    let sc = Tiny::new(6, 2)
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .leg("b1", Side::B, 1, 1, 1, "0601")
        .build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    let mut want = turn_start(1);
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(ev, want);
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::Bombardment),
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
        ]
    );
    let mut want = vec![
        ps(Side::B, Phase::Bombardment),
        ps(Side::B, Phase::Combat),
        ps(Side::B, Phase::MobileMovement),
        ps(Side::B, Phase::MobileCombat),
    ];
    want.extend(turn_start(2));
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(done(&sc, &mut s), want);
}

#[test]
fn rule_4_1_skip_phases_removes_phases_from_the_sequence() {
    let mut t = busy_scenario().support(&[], &[], 0, 0);
    t.data.skip_phases = vec![Phase::MobileMovement, Phase::MobileCombat];
    let sc = t.build();
    let mut s = start(&sc);
    assert_eq!(
        done(&sc, &mut s),
        vec![ps(Side::A, Phase::Bombardment), ps(Side::A, Phase::Combat)]
    );
    assert_eq!(done(&sc, &mut s), vec![ps(Side::B, Phase::Movement)]);
    assert_eq!(
        done(&sc, &mut s),
        vec![ps(Side::B, Phase::Bombardment), ps(Side::B, Phase::Combat)]
    );
    let mut want = turn_start(2);
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(done(&sc, &mut s), want);
}

#[test]
fn rule_4_1_scenario_start_can_begin_mid_turn() {
    // "Play begins with the Combat Phase of turn 1": adjacent legs, so it has an action.
    let sc = Tiny::new(4, 4)
        .leg("a1", Side::A, 2, 2, 2, "0202")
        .leg("b1", Side::B, 2, 2, 2, "0302")
        .start(Phase::Combat)
        .build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    let mut want = turn_start(1);
    want.push(ps(Side::A, Phase::Combat));
    assert_eq!(ev, want);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0201"])), "5.2");
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::MobileMovement),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
        ]
    );
}

#[test]
fn rule_4_1_game_ends_after_the_last_turn() {
    let mut t =
        Tiny::new(6, 2)
            .leg("a1", Side::A, 1, 1, 1, "0101")
            .leg("b1", Side::B, 1, 1, 1, "0601");
    t.data.turns.truncate(1);
    let sc = t.build();
    let mut s = start(&sc);
    done(&sc, &mut s);
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::B, Phase::Bombardment),
            ps(Side::B, Phase::Combat),
            ps(Side::B, Phase::MobileMovement),
            ps(Side::B, Phase::MobileCombat),
            Event::GameOver {
                winner: None,
                reason: "no victory condition met: a draw".into()
            },
        ]
    );
    assert_eq!(s.pending(), Pending::GameOver { winner: None });
    assert_eq!(rule_of(&sc, &s, Command::Done), "4.1");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0201"])), "4.1");
}

#[test]
fn rule_4_1_reinforcements_arrive_at_start_of_own_movement_phase() {
    let sc = Tiny::new(6, 3)
        .terrain("0101", &["woods"])
        .leg("a1", Side::A, 1, 1, 1, "0103")
        .leg("b1", Side::B, 1, 1, 1, "0603")
        .leg("ra", Side::A, 1, 1, 4, "0101")
        .with_last(reinforcement(2, &["0101"]))
        .leg("rb", Side::B, 1, 1, 2, "0601")
        .with_last(reinforcement(1, &["0601"]))
        .build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    let mut want = turn_start(1);
    want.push(ps(Side::A, Phase::Movement));
    assert_eq!(ev, want);
    // Not due yet.
    assert_eq!(rule_of(&sc, &s, mv("ra", &["0101"])), "3.0");
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::Bombardment),
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
            Event::ReinforcementsArrived {
                side: Side::B,
                units: vec![u("rb")]
            },
        ]
    );
    let mut want = vec![
        ps(Side::B, Phase::Bombardment),
        ps(Side::B, Phase::Combat),
        ps(Side::B, Phase::MobileMovement),
        ps(Side::B, Phase::MobileCombat),
    ];
    want.extend(turn_start(2));
    want.push(ps(Side::A, Phase::Movement));
    want.push(Event::ReinforcementsArrived {
        side: Side::A,
        units: vec![u("ra")],
    });
    assert_eq!(done(&sc, &mut s), want);
    // Enters by its entry hex (woods, 2) then clear (1).
    assert_eq!(
        go(&sc, &mut s, mv("ra", &["0101", "0201"])),
        vec![Event::UnitMoved {
            unit: u("ra"),
            from: None,
            path: vec![h("0101"), h("0201")],
            mp: Mp::whole(3)
        }]
    );
}

#[test]
fn rule_3_0_c_reinforcement_enters_by_entry_hex_paying_its_cost() {
    let sc = board()
        .terrain("0101", &["marsh"])
        .leg("r1", Side::A, 1, 1, 4, "0101")
        .with_last(reinforcement(1, &["0101"]))
        .build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    let mut want = turn_start(1);
    want.push(ps(Side::A, Phase::Movement));
    want.push(Event::ReinforcementsArrived {
        side: Side::A,
        units: vec![u("r1")],
    });
    assert_eq!(ev, want);
    assert_eq!(rule_of(&sc, &s, mv("r1", &["0102"])), "3.0(c)");
    // Marsh entry hex 3 + clear 1 + clear 1 = 5 > MA 4.
    assert_eq!(
        rule_of(&sc, &s, mv("r1", &["0101", "0102", "0103"])),
        "5.2(c)"
    );
    assert_eq!(
        go(&sc, &mut s, mv("r1", &["0101", "0102"])),
        vec![Event::UnitMoved {
            unit: u("r1"),
            from: None,
            path: vec![h("0101"), h("0102")],
            mp: Mp::whole(4)
        }]
    );
    assert_eq!(s.units[1].loc, Location::Map(h("0102")));
}

// ---------------------------------------------------------------------------
// 5.1-5.5 Movement
// ---------------------------------------------------------------------------

#[test]
fn rule_5_1_path_must_be_contiguous() {
    let sc = board().leg("a1", Side::A, 1, 1, 4, "0202").build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0204"])), "5.1");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0203", "0205"])), "5.1");
    assert_eq!(rule_of(&sc, &s, mv("a1", &[])), "5.1");
}

#[test]
fn rule_5_1_move_one_hex_at_a_time_paying_each_hex() {
    let sc = board().leg("a1", Side::A, 1, 1, 4, "0202").build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0203", "0303", "0403", "0404"])),
        vec![moved(
            "a1",
            "0202",
            &["0203", "0303", "0403", "0404"],
            Mp::whole(4)
        )]
    );
    assert_eq!(s.units[1].loc, Location::Map(h("0404")));
}

#[test]
fn rule_5_4_example_river_village_clear_costs_three() {
    // 5.4 example: clear (1) + village (+1) + river hexside (+1) = 3 MP.
    let sc = Tiny::new(4, 4)
        .terrain("0202", &["clear", "village"])
        .side("0201", "0202", &["river"])
        .leg("a1", Side::A, 1, 1, 3, "0201")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("a1", &["0202"]), &mut Script::new(&[]));
    assert_eq!(
        ev[0],
        Event::UnitMoved {
            unit: u("a1"),
            from: Some(h("0201")),
            path: vec![h("0202")],
            mp: Mp::whole(3)
        }
    );
}

#[test]
fn rule_5_4_several_terrains_in_hex_use_the_highest_cost() {
    // Clear 1, woods 2, marsh 3 in one hex: 3, not their sum.
    let sc = board()
        .terrain("0301", &["clear", "woods", "marsh"])
        .leg("a1", Side::A, 1, 1, 3, "0201")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301"])),
        vec![moved("a1", "0201", &["0301"], Mp::whole(3))]
    );
}

#[test]
fn rule_5_4_plus_terrain_adds_to_the_hex_cost() {
    // Woods 2 + village (+1) + fortification (+1) = 4.
    let sc = board()
        .terrain("0301", &["woods", "village", "fortification"])
        .leg("a1", Side::A, 1, 1, 4, "0201")
        .leg("a2", Side::A, 1, 1, 3, "0302")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a2", &["0301"])), "5.2(c)");
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301"])),
        vec![moved("a1", "0201", &["0301"], Mp::whole(4))]
    );
}

#[test]
fn rule_5_4_hexside_cost_is_added_to_the_hex_cost() {
    // Canal (+2) into woods (2) = 4; river and stream on one hexside add up too.
    let sc = board()
        .terrain("0301", &["woods"])
        .side("0201", "0301", &["canal"])
        .side("0202", "0302", &["river", "stream"])
        .leg("a1", Side::A, 1, 1, 4, "0201")
        .leg("a2", Side::A, 1, 1, 3, "0202")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301"])),
        vec![moved("a1", "0201", &["0301"], Mp::whole(4))]
    );
    assert_eq!(
        go(&sc, &mut s, mv("a2", &["0302"])),
        vec![moved("a2", "0202", &["0302"], Mp::whole(3))]
    );
}

#[test]
fn rule_5_4_1_road_costs_half_regardless_of_other_terrain() {
    // A road hexside that also carries a river, into marsh: ½ MP.
    let sc = board()
        .terrain("0301", &["marsh", "village"])
        .side("0201", "0301", &["river", "bridge", "road"])
        .leg("a1", Side::A, 1, 1, 1, "0201")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301"])),
        vec![moved("a1", "0201", &["0301"], mp("1/2"))]
    );
}

#[test]
fn rule_5_4_1_two_road_hexes_cost_exactly_one_mp() {
    let sc = board()
        .side("0101", "0201", &["road"])
        .side("0201", "0301", &["road"])
        .side("0301", "0401", &["road"])
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .build();
    let mut s = start(&sc);
    // A third road hex would make 1 1/2 MP.
    assert_eq!(
        rule_of(&sc, &s, mv("a1", &["0201", "0301", "0401"])),
        "5.2(c)"
    );
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0201", "0301"])),
        vec![moved("a1", "0101", &["0201", "0301"], Mp::whole(1))]
    );
    assert_eq!(s.units[1].mp_spent, Mp::whole(1));
}

#[test]
fn rule_5_4_1_road_rate_only_across_a_road_hexside() {
    // 0201 and 0301 are both road hexes, but the road does not run between them.
    let sc = board()
        .terrain("0301", &["woods"])
        .side("0101", "0201", &["road"])
        .side("0301", "0401", &["road"])
        .leg("a1", Side::A, 1, 1, 4, "0201")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301", "0401"])),
        vec![moved("a1", "0201", &["0301", "0401"], mp("2 1/2"))]
    );
}

#[test]
fn rule_5_4_1_leaving_the_road_pays_full_terrain() {
    // Road 0101-0201-0301, then off the road into woods 0302: ½ + ½ + 2.
    let sc = board()
        .terrain("0302", &["woods"])
        .side("0101", "0201", &["road"])
        .side("0201", "0301", &["road"])
        .leg("a1", Side::A, 1, 1, 3, "0101")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0201", "0301", "0302"])),
        vec![moved("a1", "0101", &["0201", "0301", "0302"], Mp::whole(3))]
    );
}

#[test]
fn rule_5_4_2_trail_costs_one_regardless_of_other_terrain() {
    // A trail across a stream into marsh: 1 MP (not 3 + 1).
    let sc = board()
        .terrain("0301", &["marsh"])
        .terrain("0401", &["woods"])
        .side("0201", "0301", &["trail", "stream"])
        .side("0301", "0401", &["trail"])
        .leg("a1", Side::A, 1, 1, 2, "0201")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301", "0401"])),
        vec![moved("a1", "0201", &["0301", "0401"], Mp::whole(2))]
    );
}

#[test]
fn rule_5_2_c_cannot_enter_hex_without_enough_mp() {
    let sc = board()
        .terrain("0301", &["marsh"])
        .terrain("0302", &["woods"])
        .leg("a1", Side::A, 1, 1, 2, "0201")
        .leg("a2", Side::A, 1, 1, 2, "0102")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0301"])), "5.2(c)");
    // 1 (0202) + 2 (woods) = 3 > 2.
    assert_eq!(rule_of(&sc, &s, mv("a2", &["0202", "0302"])), "5.2(c)");
}

#[test]
fn rule_5_2_c_no_minimum_move_a_unit_may_be_unable_to_move() {
    // Every neighbour of 0101 is woods; MA 1 cannot pay 2.
    let sc = Tiny::new(4, 4)
        .terrain("0201", &["woods"])
        .terrain("0202", &["woods"])
        .terrain("0102", &["woods"])
        .leg("a1", Side::A, 1, 1, 1, "0101")
        .leg("spare", Side::A, 1, 1, 1, "0404")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0201"])), "5.2(c)");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0102"])), "5.2(c)");
    assert_eq!(reachable(&sc, &s, &u("a1")), Vec::new());
    assert_eq!(legal_commands_for(&sc, &s, &u("a1")), Vec::new());
}

#[test]
fn rule_5_2_d_cannot_enter_enemy_hex() {
    // Even an enemy that exerts no ZOC cannot be entered or moved through.
    let sc = board()
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .leg("b1", Side::B, 1, 1, 1, "0302")
        .with_last(|d| d.zoc = false)
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302"])), "5.2(d)");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302", "0402"])), "5.2(d)");
}

#[test]
fn rule_5_2_e_cannot_enter_prohibited_hex() {
    let sc = board()
        .terrain("0302", &["sea"])
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302"])), "5.2(e)");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302", "0402"])), "5.2(e)");
}

#[test]
fn rule_5_2_e_cannot_cross_prohibited_hexside() {
    let sc = board()
        .side("0202", "0302", &["water"])
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302"])), "5.2(e)");
    // The hex itself can still be entered round the water, by 0201 and 0301.
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0201", "0301", "0302"])),
        vec![moved("a1", "0202", &["0201", "0301", "0302"], Mp::whole(3))]
    );
}

#[test]
fn rule_5_2_f_cannot_exit_the_map() {
    let sc = board().leg("a1", Side::A, 1, 1, 4, "0101").build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0100"])), "5.2(f)");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0100", "0201"])), "5.2(f)");
}

#[test]
fn rule_5_3_may_move_through_friendly_units_at_no_extra_cost() {
    let sc = board()
        .leg("a1", Side::A, 1, 1, 2, "0102")
        .leg("a2", Side::A, 1, 1, 1, "0202")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0202", "0302"])),
        vec![moved("a1", "0102", &["0202", "0302"], Mp::whole(2))]
    );
}

#[test]
fn rule_5_3_cannot_end_move_on_a_friendly_unit() {
    let sc = board()
        .leg("a1", Side::A, 1, 1, 2, "0102")
        .leg("a2", Side::A, 1, 1, 1, "0202")
        .leg("a3", Side::A, 1, 1, 1, "0302")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0202"])), "5.3");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0202", "0302"])), "5.3");
}

#[test]
fn rule_5_2_unit_cannot_move_twice_in_a_player_turn() {
    let sc = board().leg("a1", Side::A, 1, 1, 4, "0102").build();
    let mut s = start(&sc);
    go(&sc, &mut s, mv("a1", &["0202"]));
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302"])), "5.2");
    assert_eq!(reachable(&sc, &s, &u("a1")), Vec::new());
    assert_eq!(legal_commands_for(&sc, &s, &u("a1")), Vec::new());
}

#[test]
fn rule_5_2_only_the_active_player_moves() {
    let sc = board()
        .leg("a1", Side::A, 1, 1, 4, "0102")
        .leg("b1", Side::B, 1, 1, 4, "0602")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("b1", &["0502"])), "5.2");
    assert_eq!(reachable(&sc, &s, &u("b1")), Vec::new());
}

#[test]
fn rule_5_2_b_unused_mp_are_not_carried_to_the_next_turn() {
    // a1 spends 1 of 3 in turn 1; in turn 2 it has its printed 3 again, no more.
    let sc = Tiny::new(8, 2)
        .leg("a1", Side::A, 1, 1, 3, "0101")
        .leg("spare", Side::A, 1, 1, 1, "0102")
        .leg("b1", Side::B, 1, 1, 1, "0802")
        .build();
    let mut s = start(&sc);
    go(&sc, &mut s, mv("a1", &["0201"]));
    done(&sc, &mut s);
    go(&sc, &mut s, mv("b1", &["0801"]));
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: Side::A,
            phase: Phase::Movement
        }
    );
    assert_eq!(s.turn, 2);
    assert_eq!(
        rule_of(&sc, &s, mv("a1", &["0301", "0401", "0501", "0502"])),
        "5.2(c)"
    );
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301", "0401", "0501"])),
        vec![moved("a1", "0201", &["0301", "0401", "0501"], Mp::whole(3))]
    );
}

#[test]
fn rule_5_5_leg_units_cannot_move_in_mobile_movement_phase() {
    let sc = Tiny::new(6, 3)
        .leg("a1", Side::A, 1, 1, 4, "0101")
        .mobile("m1", Side::A, 1, 1, 4, "0103")
        .leg("b1", Side::B, 1, 1, 1, "0601")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::Bombardment),
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
        ]
    );
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0201"])), "5.5");
    assert_eq!(reachable(&sc, &s, &u("a1")), Vec::new());
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0203"])),
        vec![
            moved("m1", "0103", &["0203"], Mp::whole(1)),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
        ]
    );
}

#[test]
fn rule_5_5_mobile_unit_that_moved_in_movement_phase_cannot_move_again() {
    let sc = Tiny::new(8, 3)
        .mobile("m1", Side::A, 1, 1, 4, "0103")
        .mobile("m2", Side::A, 1, 1, 4, "0102")
        .leg("b1", Side::B, 1, 1, 1, "0801")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0203"])),
        vec![moved("m1", "0103", &["0203"], Mp::whole(1))]
    );
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::Bombardment),
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
        ]
    );
    assert_eq!(rule_of(&sc, &s, mv("m1", &["0303"])), "5.5");
    assert_eq!(reachable(&sc, &s, &u("m1")), Vec::new());
    // m2 did not move in the Movement Phase: its full MA in the Mobile Movement Phase.
    assert_eq!(
        go(&sc, &mut s, mv("m2", &["0202", "0302", "0402", "0502"])),
        vec![
            moved(
                "m2",
                "0102",
                &["0202", "0302", "0402", "0502"],
                Mp::whole(4)
            ),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
        ]
    );
}

#[test]
fn rule_5_5_mobile_movement_phase_passed_when_every_mobile_unit_moved() {
    let sc = Tiny::new(6, 3)
        .mobile("m1", Side::A, 1, 1, 4, "0103")
        .leg("b1", Side::B, 1, 1, 1, "0601")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0203"])),
        vec![
            moved("m1", "0103", &["0203"], Mp::whole(1)),
            ps(Side::A, Phase::Bombardment),
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
        ]
    );
}

// ---------------------------------------------------------------------------
// 6.0-6.2 Zones of control
// ---------------------------------------------------------------------------

#[test]
fn rule_6_1_leg_unit_stops_on_entering_ezoc() {
    let sc = zoc_board().leg("a1", Side::A, 1, 1, 6, "0102").build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0202", "0302", "0301"])), "6.1");
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0202", "0302"])),
        vec![moved("a1", "0102", &["0202", "0302"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_1_leg_unit_ezoc_to_ezoc_spends_its_whole_printed_ma() {
    let sc = zoc_board().leg("a1", Side::A, 1, 1, 4, "0302").build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0303"])),
        vec![moved("a1", "0302", &["0303"], Mp::whole(4))]
    );
    assert_eq!(s.units[2].mp_spent, Mp::whole(4));
}

#[test]
fn rule_6_1_leg_unit_ezoc_to_ezoc_ends_its_move() {
    // The EZOC-to-EZOC step is the whole move: it cannot go on, even out of the EZOC.
    let sc = zoc_board().leg("a1", Side::A, 1, 1, 6, "0302").build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0303", "0304"])), "6.1");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0303", "0404"])), "6.1");
}

#[test]
fn rule_6_1_leg_unit_ezoc_to_ezoc_needs_ma_for_the_terrain() {
    // MA 1 cannot pay woods (2) even by spending its whole MA.
    let sc = zoc_board()
        .terrain("0303", &["woods"])
        .leg("a1", Side::A, 1, 1, 1, "0302")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0303"])), "6.1");
}

#[test]
fn rule_6_1_leaving_ezoc_costs_normal_mp_and_movement_continues() {
    let sc = zoc_board().leg("a1", Side::A, 1, 1, 4, "0302").build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0202", "0201", "0101"])),
        vec![moved("a1", "0302", &["0202", "0201", "0101"], Mp::whole(3))]
    );
}

#[test]
fn rule_6_1_leg_unit_halts_when_it_later_enters_an_ezoc() {
    // Out of the EZOC to 0301, then into the EZOC at 0402: normal cost, and stop.
    let sc = zoc_board().leg("a1", Side::A, 1, 1, 4, "0302").build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0301", "0402", "0401"])), "6.1");
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301", "0402"])),
        vec![moved("a1", "0302", &["0301", "0402"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_1_mobile_unit_pays_half_ma_plus_terrain_to_enter_ezoc_and_continues() {
    // MA 7: entering the woods EZOC hex 0302 costs 3 (7/2 rounded down) + 2.
    // 1 + 5 + 1 = 7.
    let sc = zoc_board()
        .terrain("0302", &["woods"])
        .mobile("m1", Side::A, 1, 1, 7, "0102")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0202", "0302", "0301"])),
        vec![moved("m1", "0102", &["0202", "0302", "0301"], Mp::whole(7))]
    );
}

#[test]
fn rule_6_1_mobile_unit_ezoc_cost_counts_against_its_ma() {
    // MA 4: 1 + (2 + 2) = 5 > 4.
    let sc = zoc_board()
        .terrain("0302", &["woods"])
        .mobile("m1", Side::A, 1, 1, 4, "0102")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("m1", &["0202", "0302"])), "5.2(c)");
}

#[test]
fn rule_6_1_mobile_unit_pays_half_ma_for_each_ezoc_hex_entered() {
    // MA 6 starting in EZOC 0302: 0303 (EZOC) costs 3 + 1, then 0304 (free) 1 = 5.
    let sc = zoc_board()
        .mobile("m1", Side::A, 1, 1, 6, "0302")
        .mobile("m2", Side::A, 1, 1, 6, "0202")
        .build();
    let mut s = start(&sc);
    // m2: 0302 (3 + 1) then 0303 (3 + 1) = 8 > 6.
    assert_eq!(rule_of(&sc, &s, mv("m2", &["0302", "0303"])), "5.2(c)");
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0303", "0304"])),
        vec![moved("m1", "0302", &["0303", "0304"], Mp::whole(5))]
    );
}

#[test]
fn rule_6_1_depleted_mobile_unit_pays_half_its_reduced_ma() {
    // Full side MA 8, reduced side MA 5: entering the EZOC costs 5/2 = 2 (round down)
    // + 1. 1 + 3 + 1 = 5.
    let sc = zoc_board()
        .unit(
            "m1",
            Side::A,
            UnitKind::Mobile,
            &[(4, 4, 8), (2, 2, 5)],
            "0102",
        )
        .with_last(|d| d.start_depleted = 1)
        .build();
    let mut s = start(&sc);
    assert_eq!(
        rule_of(&sc, &s, mv("m1", &["0202", "0302", "0301", "0201"])),
        "5.2(c)"
    );
    assert_eq!(
        go(&sc, &mut s, mv("m1", &["0202", "0302", "0301"])),
        vec![moved("m1", "0102", &["0202", "0302", "0301"], Mp::whole(5))]
    );
}

#[test]
fn rule_6_0_zoc_extends_into_any_terrain_and_across_any_hexside() {
    // A river hexside and woods do not stop b1's ZOC reaching 0302.
    let sc = zoc_board()
        .terrain("0302", &["woods"])
        .side("0403", "0302", &["river"])
        .leg("a1", Side::A, 1, 1, 6, "0202")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302", "0301"])), "6.1");
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0302"])),
        vec![moved("a1", "0202", &["0302"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_0_unit_without_zoc_exerts_none() {
    let sc = board()
        .leg("b1", Side::B, 1, 1, 1, "0403")
        .with_last(|d| d.zoc = false)
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0302", "0402", "0502"])),
        vec![moved("a1", "0202", &["0302", "0402", "0502"], Mp::whole(3))]
    );
}

#[test]
fn rule_6_0_water_hexside_blocks_zoc() {
    // b1's ZOC does not reach 0302 across the water hexside.
    let sc = zoc_board()
        .side("0403", "0302", &["water"])
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .build();
    let mut s = start(&sc);
    let ezoc = zoc::ezoc_map(&sc, &s, Side::A);
    let at = |x: &str| ezoc[sc.hex_index(h(x)).unwrap() as usize];
    assert!(!at("0302"));
    assert!(at("0303"));
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0302", "0301"])),
        vec![moved("a1", "0202", &["0302", "0301"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_0_sea_hex_blocks_zoc() {
    let sc = zoc_board().terrain("0303", &["sea"]).build();
    let s = start(&sc);
    let ezoc = zoc::ezoc_map(&sc, &s, Side::A);
    let want: Vec<bool> = sc
        .hexes
        .iter()
        .map(|x| ["0402", "0502", "0503", "0404", "0302"].contains(&x.hex.to_string().as_str()))
        .collect();
    assert_eq!(ezoc, want);
}

#[test]
fn rule_6_1_no_ezoc_to_ezoc_across_a_minefield_hexside() {
    let sc = zoc_board()
        .side("0302", "0303", &["minefield"])
        .side("0203", "0303", &["minefield"])
        .leg("a1", Side::A, 1, 1, 4, "0302")
        .leg("a2", Side::A, 1, 1, 4, "0203")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0303"])), "6.1");
    // Into the EZOC across a minefield from outside it is allowed: 1 + 1.
    assert_eq!(
        go(&sc, &mut s, mv("a2", &["0303"])),
        vec![moved("a2", "0203", &["0303"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_1_mobile_unit_no_ezoc_to_ezoc_across_a_minefield_hexside() {
    let sc = zoc_board()
        .side("0302", "0303", &["minefield"])
        .mobile("m1", Side::A, 1, 1, 8, "0302")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("m1", &["0303"])), "6.1");
}

#[test]
fn rule_6_1_no_ezoc_to_ezoc_into_a_fortification_hex() {
    let sc = zoc_board()
        .terrain("0303", &["clear", "fortification"])
        .leg("a1", Side::A, 1, 1, 4, "0302")
        .mobile("m1", Side::A, 1, 1, 8, "0404")
        .leg("a2", Side::A, 1, 1, 4, "0203")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0303"])), "6.1");
    assert_eq!(rule_of(&sc, &s, mv("m1", &["0303"])), "6.1");
    // From outside the EZOC the fortification hex may be entered: 1 + 1.
    assert_eq!(
        go(&sc, &mut s, mv("a2", &["0303"])),
        vec![moved("a2", "0203", &["0303"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_1_commando_leg_unit_exempt_from_minefield_fortification_and_ezoc_costs() {
    // EZOC to EZOC across a minefield into a fortification: terrain only,
    // 1 + 1 (fortification) + 1 (minefield) = 3, not the whole MA of 4. It still stops.
    let sc = zoc_board()
        .terrain("0303", &["clear", "fortification"])
        .side("0302", "0303", &["minefield"])
        .leg("c1", Side::A, 1, 1, 4, "0302")
        .with_last(|d| d.tags = vec!["commando".into()])
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("c1", &["0303", "0304"])), "6.1");
    assert_eq!(
        go(&sc, &mut s, mv("c1", &["0303"])),
        vec![moved("c1", "0302", &["0303"], Mp::whole(3))]
    );
}

#[test]
fn rule_6_1_commando_mobile_unit_pays_no_extra_to_enter_ezoc() {
    // MA 6 commando: 0202 (1), 0302 EZOC (1, no half MA), 0303 EZOC across a
    // minefield into a fortification (1 + 1 + 1), 0304 (1) = 6.
    let sc = zoc_board()
        .terrain("0303", &["clear", "fortification"])
        .side("0302", "0303", &["minefield"])
        .mobile("c1", Side::A, 1, 1, 6, "0102")
        .with_last(|d| d.tags = vec!["commando".into()])
        .build();
    let mut s = start(&sc);
    assert_eq!(
        go(&sc, &mut s, mv("c1", &["0202", "0302", "0303", "0304"])),
        vec![moved(
            "c1",
            "0102",
            &["0202", "0302", "0303", "0304"],
            Mp::whole(6)
        )]
    );
}

#[test]
fn rule_6_0_friendly_unit_in_hex_does_not_negate_ezoc() {
    // a2 stands in the EZOC hex 0302: a1 entering it must still stop, so it can
    // neither pass through nor end there.
    let sc = zoc_board()
        .leg("a1", Side::A, 1, 1, 4, "0202")
        .leg("a2", Side::A, 1, 1, 4, "0302")
        .build();
    let s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302", "0301"])), "6.1");
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0302"])), "5.3");
    let r = reachable(&sc, &s, &u("a1"));
    let at = r.iter().find(|x| x.hex == h("0302")).unwrap();
    assert_eq!(
        *at,
        reach(
            "0302",
            Mp::whole(1),
            &["0302"],
            Some(StopReason::Ezoc),
            true
        )
    );
}

#[test]
fn rule_6_0_friendly_zoc_does_not_cancel_enemy_zoc() {
    // a2 in 0401 projects a friendly ZOC into 0402, which is also in b1's ZOC.
    let sc = zoc_board()
        .leg("a1", Side::A, 1, 1, 4, "0201")
        .leg("a2", Side::A, 1, 1, 4, "0401")
        .build();
    let mut s = start(&sc);
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0301", "0402", "0502"])), "6.1");
    assert_eq!(
        go(&sc, &mut s, mv("a1", &["0301", "0402"])),
        vec![moved("a1", "0201", &["0301", "0402"], Mp::whole(2))]
    );
}

#[test]
fn rule_6_0_zoc_applies_in_every_phase_and_player_turn() {
    // Side B's own leg unit b2 is stopped by side A's ZOC in B's Movement Phase.
    let sc = Tiny::new(6, 5)
        .leg("a1", Side::A, 1, 1, 1, "0403")
        .leg("b2", Side::B, 1, 1, 4, "0602")
        .build();
    let mut s = start(&sc);
    done(&sc, &mut s);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: Side::B,
            phase: Phase::Movement
        }
    );
    assert_eq!(rule_of(&sc, &s, mv("b2", &["0502", "0402", "0401"])), "6.1");
}

// ---------------------------------------------------------------------------
// 7.1-7.2 Support fire markers
// ---------------------------------------------------------------------------

/// Units that cannot move (MA 0) and are not adjacent: only the Bombardment Phases
/// can need a decision.
fn still(cols: u8) -> Tiny {
    Tiny::new(cols, 3)
        .leg("a1", Side::A, 1, 1, 0, "0101")
        .leg("b1", Side::B, 1, 1, 0, &format!("{cols:02}01"))
        .leg("b2", Side::B, 1, 1, 0, &format!("{cols:02}03"))
}

/// The events from the end of side A's Bombardment Phase to side A's Bombardment
/// Phase of `next_turn`, when nobody else has anything to do.
fn rest_of_turn(next_turn: u16, a: &[u8], b: &[u8]) -> Vec<Event> {
    vec![
        ps(Side::A, Phase::Combat),
        ps(Side::A, Phase::MobileMovement),
        ps(Side::A, Phase::MobileCombat),
        ps(Side::B, Phase::Movement),
        ps(Side::B, Phase::Bombardment),
        ps(Side::B, Phase::Combat),
        ps(Side::B, Phase::MobileMovement),
        ps(Side::B, Phase::MobileCombat),
        Event::TurnStarted { turn: next_turn },
        allotted(Side::A, a),
        allotted(Side::B, b),
        ps(Side::A, Phase::Movement),
        ps(Side::A, Phase::Bombardment),
    ]
}

#[test]
fn rule_7_1_allotment_is_the_lowest_markers_of_the_pool() {
    let mut t = still(6).support(&[3, 1, 4, 1, 2], &[5, 2, 6], 3, 2);
    // Turn 2: A gets 1; B is allotted 5 but its pool holds only 3 markers.
    t.data.turns[1].support = SidePair::new(1, 5);
    let sc = t.build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            Event::TurnStarted { turn: 1 },
            allotted(Side::A, &[1, 1, 2]),
            allotted(Side::B, &[2, 5]),
            ps(Side::A, Phase::Movement),
            ps(Side::A, Phase::Bombardment),
        ]
    );
    assert_eq!(s.support.a.available, vec![1, 1, 2]);
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::A, Phase::Combat),
            ps(Side::A, Phase::MobileMovement),
            ps(Side::A, Phase::MobileCombat),
            ps(Side::B, Phase::Movement),
            ps(Side::B, Phase::Bombardment),
        ]
    );
    assert_eq!(
        done(&sc, &mut s),
        vec![
            ps(Side::B, Phase::Combat),
            ps(Side::B, Phase::MobileMovement),
            ps(Side::B, Phase::MobileCombat),
            Event::TurnStarted { turn: 2 },
            allotted(Side::A, &[1]),
            allotted(Side::B, &[2, 5, 6]),
            ps(Side::A, Phase::Movement),
            ps(Side::A, Phase::Bombardment),
        ]
    );
}

#[test]
fn rule_7_2_unused_markers_are_not_carried_over() {
    let sc = still(6).support(&[1, 1, 2, 2], &[], 2, 0).build();
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[]));
    assert_eq!(
        ev,
        vec![
            Event::TurnStarted { turn: 1 },
            allotted(Side::A, &[1, 1]),
            allotted(Side::B, &[]),
            ps(Side::A, Phase::Movement),
            ps(Side::A, Phase::Bombardment),
        ]
    );
    assert_eq!(done(&sc, &mut s), rest_of_turn(2, &[1, 1], &[]));
    assert_eq!(
        s.support.a,
        SupportState {
            available: vec![1, 1],
            used: Vec::new()
        }
    );
}

#[test]
fn rule_7_2_used_markers_unavailable_for_the_turn_and_return_next_turn() {
    let sc = still(6).support(&[2, 1], &[], 2, 0).build();
    let mut s = start(&sc);
    assert_eq!(s.support.a.available, vec![1, 2]);
    // Draw the second marker (+2) against b1 (defense 1): +1 column, die 2: Ex, which
    // has no effect in a bombardment.
    let ev = play(
        &sc,
        &mut s,
        Command::Bombard {
            hex: h("0601"),
            markers: 1,
        },
        &mut Script::new(&[1, 1]),
    );
    assert_eq!(
        ev,
        vec![
            Event::BombardmentDeclared {
                hex: h("0601"),
                defenders: vec![u("b1")],
                markers: 1
            },
            Event::SupportCommitted {
                side: Side::A,
                step: None,
                value: Some(2)
            },
            Event::SupportRevealed {
                attacker: vec![2],
                defender: vec![]
            },
            Event::CombatResolved {
                kind: CombatKind::Bombardment,
                attack: 2,
                defense: 1,
                differential: 1,
                line: "clear-desert-stream".into(),
                column: "+1".into(),
                die: 2,
                result: CrtResult::Ex,
                applies: false,
                shift: 0,
            },
            Event::CombatEnded { hex: h("0601") },
        ]
    );
    assert_eq!(
        s.support.a,
        SupportState {
            available: vec![1],
            used: vec![2]
        }
    );
    // The +2 is spent: only one marker is left this game turn.
    assert_eq!(
        rule_of(
            &sc,
            &s,
            Command::Bombard {
                hex: h("0603"),
                markers: 2
            }
        ),
        "7.2"
    );
    // Whatever the draw, the only marker left is the +1. Die 4 at 0: A2, no effect.
    let ev = play(
        &sc,
        &mut s,
        Command::Bombard {
            hex: h("0603"),
            markers: 1,
        },
        &mut Script::new(&[1, 3]),
    );
    let mut want = vec![
        Event::BombardmentDeclared {
            hex: h("0603"),
            defenders: vec![u("b2")],
            markers: 1,
        },
        Event::SupportCommitted {
            side: Side::A,
            step: None,
            value: Some(1),
        },
        Event::SupportRevealed {
            attacker: vec![1],
            defender: vec![],
        },
        Event::CombatResolved {
            kind: CombatKind::Bombardment,
            attack: 1,
            defense: 1,
            differential: 0,
            line: "clear-desert-stream".into(),
            column: "0".into(),
            die: 4,
            result: CrtResult::A2,
            applies: false,
            shift: 0,
        },
        Event::CombatEnded { hex: h("0603") },
    ];
    // No markers left: the rest of the turn passes; next turn both markers are back.
    want.extend(rest_of_turn(2, &[1, 2], &[]));
    assert_eq!(ev, want);
    assert_eq!(
        s.support.a,
        SupportState {
            available: vec![1, 2],
            used: Vec::new()
        }
    );
}

// ---------------------------------------------------------------------------
// reachable and legal_commands_for
// ---------------------------------------------------------------------------

#[test]
fn reachable_lists_destinations_costs_paths_and_occupied_hexes() {
    // 3x2 map; a1 (MA 2) in 0101, friend a2 in 0202, woods in 0201.
    let sc = Tiny::new(3, 2)
        .terrain("0201", &["woods"])
        .leg("a1", Side::A, 1, 1, 2, "0101")
        .leg("a2", Side::A, 1, 1, 2, "0202")
        .build();
    let s = start(&sc);
    assert_eq!(
        sorted_reach(&sc, &s, "a1"),
        vec![
            reach("0102", Mp::whole(1), &["0102"], None, false),
            reach(
                "0201",
                Mp::whole(2),
                &["0201"],
                Some(StopReason::NoMp),
                false
            ),
            reach("0202", Mp::whole(1), &["0202"], None, true),
            reach(
                "0301",
                Mp::whole(2),
                &["0202", "0301"],
                Some(StopReason::NoMp),
                false
            ),
            reach(
                "0302",
                Mp::whole(2),
                &["0202", "0302"],
                Some(StopReason::NoMp),
                false
            ),
        ]
    );
}

#[test]
fn reachable_marks_ezoc_stops() {
    // 3x2 map; a1 (MA 3) in 0101, enemy b1 in 0302 (ZOC: 0202, 0301).
    let sc = Tiny::new(3, 2)
        .leg("a1", Side::A, 1, 1, 3, "0101")
        .leg("b1", Side::B, 1, 1, 1, "0302")
        .build();
    let s = start(&sc);
    assert_eq!(
        sorted_reach(&sc, &s, "a1"),
        vec![
            reach("0102", Mp::whole(1), &["0102"], None, false),
            reach("0201", Mp::whole(1), &["0201"], None, false),
            reach(
                "0202",
                Mp::whole(1),
                &["0202"],
                Some(StopReason::Ezoc),
                false
            ),
            reach(
                "0301",
                Mp::whole(2),
                &["0201", "0301"],
                Some(StopReason::Ezoc),
                false
            ),
        ]
    );
}

#[test]
fn reachable_finds_the_cheapest_path() {
    // From 0102 to 0302: through the woods (0202 or 0203) costs 2 + 1 = 3; round by
    // the road 0101-0201-0301-0302 costs 4 x 1/2 = 2.
    let sc = board()
        .terrain("0202", &["woods"])
        .terrain("0203", &["woods"])
        .side("0102", "0101", &["road"])
        .side("0101", "0201", &["road"])
        .side("0201", "0301", &["road"])
        .side("0301", "0302", &["road"])
        .leg("a1", Side::A, 1, 1, 3, "0102")
        .build();
    let s = start(&sc);
    let r = reachable(&sc, &s, &u("a1"));
    let at = r.iter().find(|x| x.hex == h("0302")).unwrap();
    assert_eq!(
        *at,
        reach(
            "0302",
            Mp::whole(2),
            &["0101", "0201", "0301", "0302"],
            None,
            false
        )
    );
}

#[test]
fn reachable_leg_unit_in_ezoc_reaches_adjacent_ezoc_for_whole_ma() {
    // a1 (MA 3) in the EZOC hex 0302; its free neighbours are marsh (3), so no detour
    // is cheaper than moving EZOC to EZOC for the whole MA.
    let sc = zoc_board()
        .terrain("0301", &["marsh"])
        .terrain("0203", &["marsh"])
        .terrain("0202", &["marsh"])
        .leg("a1", Side::A, 1, 1, 3, "0302")
        .build();
    let s = start(&sc);
    let no_mp = Some(StopReason::NoMp);
    let ezoc = Some(StopReason::Ezoc);
    assert_eq!(
        sorted_reach(&sc, &s, "a1"),
        vec![
            reach("0202", Mp::whole(3), &["0202"], no_mp, false),
            reach("0203", Mp::whole(3), &["0203"], no_mp, false),
            reach("0301", Mp::whole(3), &["0301"], no_mp, false),
            reach("0303", Mp::whole(3), &["0303"], ezoc, false),
            reach("0402", Mp::whole(3), &["0402"], ezoc, false),
        ]
    );
}

#[test]
fn reachable_reinforcement_starts_from_its_entry_hexes() {
    // Entry hexes 0101 (woods) and 0102; the spare unit in 0105 can be passed through.
    let sc = board()
        .terrain("0101", &["woods"])
        .leg("r1", Side::A, 1, 1, 4, "0101")
        .with_last(reinforcement(1, &["0101", "0102"]))
        .build();
    let s = start(&sc);
    let r = sorted_reach(&sc, &s, "r1");
    let at = |x: &str| r.iter().find(|y| y.hex == h(x)).unwrap().clone();
    assert_eq!(
        at("0101"),
        reach("0101", Mp::whole(2), &["0101"], None, false)
    );
    assert_eq!(
        at("0102"),
        reach("0102", Mp::whole(1), &["0102"], None, false)
    );
    assert_eq!(
        at("0202"),
        reach("0202", Mp::whole(2), &["0102", "0202"], None, false)
    );
    assert_eq!(
        at("0105"),
        reach(
            "0105",
            Mp::whole(4),
            &["0102", "0103", "0104", "0105"],
            Some(StopReason::NoMp),
            true
        )
    );
}

/// A board with terrain, roads, an enemy and friends, for agreement checks.
fn mixed_board() -> Scenario {
    zoc_board()
        .terrain("0202", &["woods"])
        .terrain("0203", &["marsh", "village"])
        .terrain("0304", &["sea"])
        .side("0101", "0201", &["road"])
        .side("0201", "0301", &["road"])
        .side("0102", "0202", &["river"])
        .side("0103", "0203", &["water"])
        .leg("a1", Side::A, 1, 1, 4, "0102")
        .leg("a2", Side::A, 1, 1, 4, "0201")
        .mobile("m1", Side::A, 1, 1, 7, "0103")
        .build()
}

#[test]
fn legal_commands_for_agrees_with_reachable() {
    let sc = mixed_board();
    let s = start(&sc);
    for unit in ["a1", "a2", "m1", "spare"] {
        let r = reachable(&sc, &s, &u(unit));
        assert!(!r.is_empty(), "{unit} can move");
        let mut want: Vec<Command> = r
            .iter()
            .filter(|x| !x.occupied)
            .map(|x| Command::Move {
                unit: u(unit),
                path: x.path.clone(),
            })
            .collect();
        let mut got = legal_commands_for(&sc, &s, &u(unit));
        want.sort_by_key(|c| format!("{c:?}"));
        got.sort_by_key(|c| format!("{c:?}"));
        assert_eq!(got, want, "{unit}");
    }
    // b1 belongs to the side not moving.
    assert_eq!(reachable(&sc, &s, &u("b1")), Vec::new());
    assert_eq!(legal_commands_for(&sc, &s, &u("b1")), Vec::new());
}

#[test]
fn reachable_paths_are_accepted_by_apply_at_their_cost() {
    let sc = mixed_board();
    let s = start(&sc);
    for unit in ["a1", "a2", "m1"] {
        let from = s.units[sc.unit_index(&u(unit)).unwrap() as usize]
            .hex()
            .unwrap();
        for r in reachable(&sc, &s, &u(unit)) {
            let cmd = Command::Move {
                unit: u(unit),
                path: r.path.clone(),
            };
            if r.occupied {
                assert_eq!(refused(&sc, &s, cmd).rule, "5.3", "{unit} to {}", r.hex);
                continue;
            }
            let ev = apply(&sc, &s, &cmd, &mut Script::new(&[])).unwrap();
            assert_eq!(
                ev,
                vec![Event::UnitMoved {
                    unit: u(unit),
                    from: Some(from),
                    path: r.path.clone(),
                    mp: r.cost
                }],
                "{unit} to {}",
                r.hex
            );
        }
    }
}

/// 5.1-5.4: every step of a move costs at least the cheapest terrain or road cost, so
/// no move is longer than the largest MA over it (here 3 MP at ½ MP a road hexside: 6
/// hexes). A longer path is refused before it is walked; so are the other lists a
/// command carries beyond what the scenario allows (retreats farther than the map,
/// more displacements or listed units than there are units), whatever is pending.
#[test]
fn rule_5_1_over_long_command_lists_are_refused_first() {
    let sc = board().leg("a1", Side::A, 1, 1, 3, "0101").build();
    assert_eq!(sc.max_path(), 6);
    let s = start(&sc);
    let e = refused(&sc, &s, mv("a1", &["0102"; 7]));
    assert_eq!(
        e.to_string(),
        "5.2(c): a path of 7 hexes is longer than any move in this scenario can be (at most 6: \
         the largest movement allowance over the cheapest step cost)"
    );
    // Within the bound the move is priced step by step as before.
    assert_eq!(rule_of(&sc, &s, mv("a1", &["0102"; 6])), "5.1");
    let e = refused(
        &sc,
        &s,
        Command::Retreat {
            unit: u("a1"),
            path: vec![h("0102"); 31],
            displace: Vec::new(),
        },
    );
    assert_eq!(
        e.to_string(),
        "8.3: a retreat of 31 hexes is longer than the map: each hex of a retreat is farther \
         from the combat"
    );
    let e = refused(
        &sc,
        &s,
        Command::Retreat {
            unit: u("a1"),
            path: vec![h("0102")],
            displace: vec![h("0103"); 3],
        },
    );
    assert_eq!(
        e.to_string(),
        "8.3.1: 3 displacements but the scenario has 2 units: each displaces one unit"
    );
    for cmd in [
        Command::Attack {
            hex: h("0102"),
            units: vec![u("a1"); 3],
        },
        Command::Rebuild {
            units: vec![u("a1"); 3],
        },
    ] {
        assert_eq!(
            refused(&sc, &s, cmd).to_string(),
            "input: 3 units listed but the scenario has 2: a unit is listed twice"
        );
    }
}
