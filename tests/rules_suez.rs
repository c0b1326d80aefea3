//! Rule-numbered tests for the Suez 1916 exclusive rules (10.0-17.0 and 19.0 of
//! `../shared/rules/suez-1916.txt`), except combat results, Kress and fire support
//! (10.3's A3/D3 and advance limits, 13.1, 14.2's combat half, 15.1's column shift,
//! 18.0), which `tests/rules_suez_combat.rs` covers.
//!
//! Every test builds a tiny map with the Suez 1916 Terrain Effects Chart, CRT and
//! exclusive-rule parameters (`common::suez`) and compares the exact events `apply`
//! returns, or for a refusal the exact rule number and the unchanged state. Side `a` is
//! the Central Powers (first player), side `b` the British; west is column 01 (the
//! canal side). The builder's Pelusium Station is 0101, so British units set up in
//! column 01 start un-activated (11.3): the tests keep British units east of it unless
//! they test activation. By day the Central Powers air unit (18.5) makes every combat
//! phase open with a fire support step; `until` passes it with `done`. A phase in
//! which the active side has nothing left to do passes at once (its events follow the
//! last command's), so most maps carry a spare unit (`c9`, `b9`) that keeps the phase
//! open. Rulings: `docs/rulings.md` (R-SU-…).
//!
//! Hex ids are column then row, odd columns sit half a hex lower: an even column
//! (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),(c-1,r),(c-1,r-1); an odd column
//! (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
use crate::common;
use common::suez::*;
use common::*;
use fm_core::suez_1916::{Regiment, VictoryHex};
use fm_core::*;

use Side::{A, B};

fn no_rng() -> Script {
    Script::new(&[])
}

fn phase(side: Side, phase: Phase) -> Event {
    Event::PhaseStarted { side, phase }
}

fn mp(s: &str) -> Mp {
    s.parse().unwrap()
}

fn moved(unit: &str, from: &str, path: &[&str], mp: Mp) -> Event {
    Event::UnitMoved {
        unit: u(unit),
        from: Some(h(from)),
        path: path.iter().map(|x| h(x)).collect(),
        mp,
    }
}

fn loc_of(s: &State, unit: &str) -> Location {
    s.units.by_id(&u(unit)).expect("unit").loc
}

fn steps_of(s: &State, unit: &str) -> u8 {
    s.units.by_id(&u(unit)).expect("unit").steps
}

fn ids(v: &[&str]) -> Vec<UnitId> {
    v.iter().map(|x| u(x)).collect()
}

fn done(sc: &Scenario, s: &mut State) -> Vec<Event> {
    play(sc, s, Command::Done, &mut no_rng())
}

/// Plays `done` until `side`'s `phase` is pending, with one generator for every die;
/// returns all the events.
fn until(sc: &Scenario, s: &mut State, side: Side, ph: Phase, rng: &mut Script) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..50 {
        if s.pending() == (Pending::Phase { side, phase: ph }) {
            return all;
        }
        all.extend(play(sc, s, Command::Done, rng));
    }
    panic!("{side:?} {ph:?} never came: {:?}", s.pending());
}

/// The opening events of a game that starts with the Central Powers movement phase of
/// turn `turn` (no support allotment in Suez: both sides get none).
fn opening(turn: u16) -> Vec<Event> {
    // 18.0 replaces the system allotment (7.1): no `support_allotted`.
    vec![Event::TurnStarted { turn }]
}

fn moves_of(legal: &[Command], unit: &str) -> Vec<Vec<Hex>> {
    legal
        .iter()
        .filter_map(|c| match c {
            Command::Move { unit: x, path } if *x == u(unit) => Some(path.clone()),
            _ => None,
        })
        .collect()
}

/// Sets every step's movement factor of the last unit added.
fn ma(b: Suez, m: u8) -> Suez {
    b.with_last(|d| d.steps.iter_mut().for_each(|x| x.movement = m))
}

/// Makes the last unit added set up in `zone`.
fn zoned(b: Suez, zone: &str) -> Suez {
    let z = zone.to_string();
    b.with_last(|d| d.start = StartData::Zone(z))
}

fn place(unit: &str, hex: &str) -> Command {
    Command::Place {
        unit: u(unit),
        hex: h(hex),
    }
}

fn game_over(ev: &[Event]) -> (Option<Side>, String) {
    match ev.last() {
        Some(Event::GameOver { winner, reason }) => (*winner, reason.clone()),
        e => panic!("the game is not over: {e:?} in {ev:?}"),
    }
}

// ---------------------------------------------------------------------------------
// 10.3 the turn sequence.

/// 10.3: no mobile movement or mobile combat phases (and, with 18.0, no system
/// bombardment phase): each player turn is a movement phase then a combat phase.
#[test]
fn rule_10_3_player_turn_is_movement_then_combat() {
    let builtin = Scenario::builtin("suez-1916").unwrap();
    assert_eq!(
        builtin.data.skip_phases,
        vec![
            Phase::Bombardment,
            Phase::MobileMovement,
            Phase::MobileCombat
        ]
    );
    let sc = suez(6, 4)
        .cp("c1", "0604")
        .br("b1", "52nd Division", "0301")
        .build();
    let (mut s, open) = new_game(&sc, &mut no_rng());
    let mut ev = open;
    ev.extend(until(&sc, &mut s, A, Phase::Movement, &mut no_rng()));
    assert_eq!(s.turn, 1);
    ev.extend(done(&sc, &mut s));
    ev.extend(until(&sc, &mut s, A, Phase::Movement, &mut no_rng()));
    assert_eq!(s.turn, 2);
    let seq: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::PhaseStarted { .. } | Event::TurnStarted { .. }))
        .collect();
    assert_eq!(
        seq,
        vec![
            &Event::TurnStarted { turn: 1 },
            &phase(A, Phase::Movement),
            &phase(A, Phase::Combat),
            &phase(B, Phase::Movement),
            &phase(B, Phase::Combat),
            &Event::TurnStarted { turn: 2 },
            &phase(A, Phase::Movement),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 11.3 British activation.

/// 11.3: British units set up on or west of Pelusium Station (here 0302: columns 01-03)
/// start un-activated and may not move; those east of it may.
#[test]
fn rule_11_3_units_on_and_west_of_pelusium_start_inactive() {
    let sc = suez(6, 4)
        .params(|p| p.pelusium_station = h("0302"))
        .br("b1", "52nd Division", "0304")
        .br("b2", "52nd Division", "0201")
        .br("b3", "52nd Division", "0403")
        .br("b4", "52nd Division", "0501")
        .cp("c1", "0604")
        .build();
    let (mut s, ev) = new_game(&sc, &mut no_rng());
    let mut want = opening(1);
    want.extend([
        Event::UnitsInactive {
            units: ids(&["b1", "b2"]),
        },
        phase(A, Phase::Movement),
    ]);
    assert_eq!(ev, want);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("b1", &["0303"])).rule, "11.3");
    assert_eq!(refused(&sc, &s, mv("b2", &["0202"])).rule, "11.3");
    let legal = legal_commands(&sc, &s);
    assert!(moves_of(&legal, "b1").is_empty());
    assert!(moves_of(&legal, "b2").is_empty());
    let ev = play(&sc, &mut s, mv("b3", &["0402"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b3", "0403", &["0402"], Mp::whole(1))]);
}

/// 11.3: no activation roll in the Zero Hour turn (turn 1); from 4 August Morning (turn
/// 2), each un-activated unit rolls at the start of the British movement phase: 1-2
/// activates it, 3-6 leaves it inactive (it rolls again next turn).
#[test]
fn rule_11_3_activation_rolls_from_turn_2() {
    let sc = suez(6, 4)
        .br("b1", "52nd Division", "0102")
        .br("b2", "52nd Division", "0104")
        .br("b3", "52nd Division", "0304")
        .cp("c1", "0604")
        .build();
    let mut s = start(&sc);
    let ev = until(&sc, &mut s, B, Phase::Movement, &mut Script::dice(&[1, 1]));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::ActivationRolled { .. })),
        "{ev:?}"
    );
    assert_eq!(refused(&sc, &s, mv("b1", &["0202"])).rule, "11.3");
    // Turn 2.
    done(&sc, &mut s);
    let ev = until(&sc, &mut s, B, Phase::Movement, &mut Script::dice(&[2, 3]));
    assert_eq!(
        ev.iter()
            .skip_while(|e| **e != phase(B, Phase::Movement))
            .cloned()
            .collect::<Vec<_>>(),
        vec![
            phase(B, Phase::Movement),
            Event::ActivationRolled {
                unit: u("b1"),
                die: 2,
                activated: true
            },
            Event::ActivationRolled {
                unit: u("b2"),
                die: 3,
                activated: false
            },
        ]
    );
    assert_eq!(refused(&sc, &s, mv("b2", &["0204"])).rule, "11.3");
    let ev = play(&sc, &mut s, mv("b1", &["0202"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0102", &["0202"], Mp::whole(1))]);
    // Turn 3: only b2 rolls again.
    done(&sc, &mut s);
    let ev = until(&sc, &mut s, B, Phase::Movement, &mut Script::dice(&[1]));
    let rolls: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::ActivationRolled { .. }))
        .collect();
    assert_eq!(
        rolls,
        vec![&Event::ActivationRolled {
            unit: u("b2"),
            die: 1,
            activated: true
        }]
    );
    assert!(s.ex.inactive.is_empty());
}

/// 11.3 (as implemented: the un-activated units roll in the order of their ids, the
/// order of `ExclusiveState::inactive`), whatever the order of the scenario's units.
#[test]
fn rule_11_3_activation_rolls_in_unit_id_order() {
    let sc = suez(6, 4)
        .start_turn(2)
        .br("b9", "52nd Division", "0102")
        .br("b1", "52nd Division", "0104")
        .cp("c1", "0604")
        .build();
    let mut s = start(&sc);
    let ev = until(&sc, &mut s, B, Phase::Movement, &mut Script::dice(&[1, 6]));
    let rolls: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::ActivationRolled { .. }))
        .collect();
    assert_eq!(
        rolls,
        vec![
            &Event::ActivationRolled {
                unit: u("b1"),
                die: 1,
                activated: true
            },
            &Event::ActivationRolled {
                unit: u("b9"),
                die: 6,
                activated: false
            },
        ]
    );
}

/// 11.3 Additional Fire Support: a 42nd Division unit that activates on its roll adds
/// one set-aside marker, drawn at random, to the British pool; other divisions add none;
/// once the set-aside markers are all in the pool, activations add nothing.
#[test]
fn rule_11_3_activating_42nd_division_adds_a_set_aside_marker() {
    let sc = suez(6, 6)
        .start_turn(2)
        .params(|p| p.british_set_aside = vec![marker(3), marker(2)])
        .br("b1", "42nd Division", "0102")
        .br("b2", "52nd Division", "0104")
        .br("b3", "42nd Division", "0106")
        .br("b4", "42nd Division", "0101")
        .cp("c1", "0606")
        .build();
    let mut s = start(&sc);
    assert_eq!(s.ex.reserve.b, vec![2, 3]);
    assert_eq!(s.ex.pool.b, Vec::<u8>::new());
    // Die 1 (b1) and marker index 1 (the +3), die 1 (b2), die 1 (b3) and the last
    // marker (index 0 of one), die 6 (b4 stays).
    let ev = until(
        &sc,
        &mut s,
        B,
        Phase::Movement,
        &mut Script::new(&[0, 1, 0, 0, 0, 5]),
    );
    assert_eq!(
        ev.iter()
            .skip_while(|e| **e != phase(B, Phase::Movement))
            .cloned()
            .collect::<Vec<_>>(),
        vec![
            phase(B, Phase::Movement),
            Event::ActivationRolled {
                unit: u("b1"),
                die: 1,
                activated: true
            },
            Event::FireSupportAdded {
                side: B,
                count: 1,
                values: Some(vec![3])
            },
            Event::ActivationRolled {
                unit: u("b2"),
                die: 1,
                activated: true
            },
            Event::ActivationRolled {
                unit: u("b3"),
                die: 1,
                activated: true
            },
            Event::FireSupportAdded {
                side: B,
                count: 1,
                values: Some(vec![2])
            },
            Event::ActivationRolled {
                unit: u("b4"),
                die: 6,
                activated: false
            },
        ]
    );
    assert_eq!(s.ex.pool.b, vec![2, 3]);
    assert_eq!(s.ex.reserve.b, Vec::<u8>::new());
}

/// 11.3 Automatic Activation: a Central Powers unit moving within four hexes (three
/// intervening hexes) of an un-activated unit activates it at once; five hexes away
/// does not. Entering such a hex on the way counts.
#[test]
fn rule_11_3_central_powers_moving_within_four_hexes_activates() {
    let sc = suez(9, 4)
        .br("b1", "52nd Division", "0101")
        .cp("c1", "0801")
        .cp("c2", "0802")
        .cp("c3", "0701")
        .cp("c9", "0904")
        .br("b9", "52nd Division", "0902")
        .build();
    let mut s = start(&sc);
    assert_eq!(s.ex.inactive, [u("b1")].into_iter().collect());
    // 0601 is five hexes from 0101.
    let ev = play(&sc, &mut s, mv("c1", &["0701", "0601"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![moved("c1", "0801", &["0701", "0601"], Mp::whole(2))]
    );
    // 0501 is four hexes from 0101: passing it activates b1 although c3 ends in 0602,
    // five hexes away.
    let ev = play(
        &sc,
        &mut s,
        mv("c3", &["0601", "0501", "0602"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            moved("c3", "0701", &["0601", "0501", "0602"], Mp::whole(3)),
            Event::UnitActivated { unit: u("b1") },
        ]
    );
    assert!(s.ex.inactive.is_empty());
    // Nothing more to activate.
    let ev = play(
        &sc,
        &mut s,
        mv("c2", &["0702", "0602", "0502"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![moved("c2", "0802", &["0702", "0602", "0502"], Mp::whole(3))]
    );
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(&sc, &mut s, mv("b1", &["0201"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0101", &["0201"], Mp::whole(1))]);
}

/// 11.3: a 42nd Division unit activated automatically adds a set-aside marker too.
#[test]
fn rule_11_3_automatic_activation_of_42nd_division_adds_a_marker() {
    let sc = suez(9, 4)
        .params(|p| p.british_set_aside = vec![marker(2), marker(3)])
        .br("b1", "42nd Division", "0101")
        .cp("c1", "0601")
        .cp("c9", "0904")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0501"]), &mut Script::new(&[1]));
    assert_eq!(
        ev,
        vec![
            moved("c1", "0601", &["0501"], Mp::whole(1)),
            Event::UnitActivated { unit: u("b1") },
            Event::FireSupportAdded {
                side: B,
                count: 1,
                values: Some(vec![3])
            },
        ]
    );
    assert_eq!(s.ex.pool.b, vec![3]);
    assert_eq!(s.ex.reserve.b, vec![2]);
}

/// 11.3: a Central Powers retreat into range activates too (here c1, hit by a D2 in
/// 0601, retreats through 0501, four hexes from b1).
#[test]
fn rule_11_3_central_powers_retreating_within_four_hexes_activates() {
    let sc = suez(7, 1)
        .br("b1", "52nd Division", "0101")
        .cp("c1", "0601")
        .br("b2", "52nd Division", "0701")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Combat, &mut no_rng());
    // 6 against 3 in the open: +3; a 1 reads D2.
    let ev = play(
        &sc,
        &mut s,
        Command::Attack {
            hex: h("0601"),
            units: ids(&["b2"]),
        },
        &mut Script::dice(&[1]),
    );
    assert!(
        ev.contains(&Event::RetreatRequired {
            side: A,
            units: ids(&["c1"]),
            hexes: 2
        }),
        "{ev:?}"
    );
    let ev = play(
        &sc,
        &mut s,
        Command::Retreat {
            unit: u("c1"),
            path: vec![h("0501"), h("0401")],
            displace: vec![],
        },
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            Event::UnitRetreated {
                unit: u("c1"),
                from: h("0601"),
                path: vec![h("0501"), h("0401")]
            },
            Event::AdvanceOffered {
                path: vec![h("0601"), h("0501")],
                units: ids(&["b2"])
            },
            Event::UnitActivated { unit: u("b1") },
        ]
    );
    assert!(s.ex.inactive.is_empty());
}

// ---------------------------------------------------------------------------------
// 11.5 Central Powers reinforcements.

/// A reinforcement map: the railroad 0202-0302 with a village on 0202, a regiment of
/// three battalions (r1-r3, off the map) entering on the east edge (column 06), and
/// three German markers in the Reinforcements box.
fn reinforcement_map() -> Suez {
    suez(6, 3)
        .rail(&["0202", "0302"])
        .terrain("0202", &["village"])
        .terrain("0603", &["sand"])
        .params(|p| {
            p.reinforcement_regiments = vec![
                Regiment {
                    name: "79th Regiment".into(),
                    units: ids(&["r1", "r2", "r3"]),
                },
                Regiment {
                    name: "80th Regiment".into(),
                    units: ids(&["r4"]),
                },
            ];
            p.reinforcement_entry = vec![h("0601"), h("0602"), h("0603")];
            p.central_powers_reinforcement_markers = vec![marker(5), marker(5), marker(4)];
        })
        .br("b1", "52nd Division", "0201")
        .cp("r1", "0601")
        .with_last(|d| d.start = StartData::OffMap)
        .cp("r2", "0601")
        .with_last(|d| d.start = StartData::OffMap)
        .cp("r3", "0601")
        .with_last(|d| d.start = StartData::OffMap)
        .cp("r4", "0601")
        .with_last(|d| d.start = StartData::OffMap)
}

/// 11.5: with a Central Powers unit on a railroad village on or west of the 20xx
/// column, a roll of 1-3 at the start of the Central Powers turn brings the next
/// regiment and two markers drawn at random from the Reinforcements box.
#[test]
fn rule_11_5_regiment_arrives_on_a_roll_of_1_to_3() {
    let sc = reinforcement_map().cp("c1", "0202").build();
    // Die 3; then marker indices 0 of [4, 5, 5] and 1 of [5, 5].
    let (mut s, ev) = new_game(&sc, &mut Script::new(&[2, 0, 1]));
    let mut want = opening(1);
    want.extend([
        phase(A, Phase::Movement),
        Event::ReinforcementRolled {
            die: 3,
            regiment: Some("79th Regiment".into()),
        },
        Event::ReinforcementsArrived {
            side: A,
            units: ids(&["r1", "r2", "r3"]),
        },
        Event::FireSupportAdded {
            side: A,
            count: 2,
            values: Some(vec![4, 5]),
        },
    ]);
    assert_eq!(ev, want);
    assert_eq!(s.ex.pool.a, vec![4, 5]);
    assert_eq!(s.ex.reserve.a, vec![5]);
    assert_eq!(s.ex.regiments, 1);
    assert_eq!(loc_of(&s, "r4"), Location::OffMap);
    // Each battalion pays the entry hex's cost (sand: 2) and moves on normally.
    let legal = legal_commands(&sc, &s);
    assert!(legal.contains(&mv("r3", &["0601"])));
    let ev = play(&sc, &mut s, mv("r1", &["0602", "0502"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitMoved {
            unit: u("r1"),
            from: None,
            path: vec![h("0602"), h("0502")],
            mp: Mp::whole(2)
        }]
    );
    let ev = play(&sc, &mut s, mv("r2", &["0603"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitMoved {
            unit: u("r2"),
            from: None,
            path: vec![h("0603")],
            mp: Mp::whole(2)
        }]
    );
    assert_eq!(refused(&sc, &s, mv("r3", &["0502"])).rule, "3.0(c)");
}

/// 11.5: a roll of 4-6 brings nothing; the roll is made again next turn, and the
/// regiments come in order.
#[test]
fn rule_11_5_no_regiment_on_4_to_6_and_regiments_in_order() {
    let sc = reinforcement_map().cp("c1", "0202").build();
    let (mut s, ev) = new_game(&sc, &mut Script::dice(&[4]));
    assert_eq!(
        ev.last(),
        Some(&Event::ReinforcementRolled {
            die: 4,
            regiment: None
        })
    );
    assert_eq!(loc_of(&s, "r1"), Location::OffMap);
    assert_eq!(s.ex.regiments, 0);
    // Turn 2: die 1, the 79th; turn 3: die 2, the 80th.
    done(&sc, &mut s);
    let ev = until(
        &sc,
        &mut s,
        A,
        Phase::Movement,
        &mut Script::new(&[0, 0, 0]),
    );
    assert!(ev.contains(&Event::ReinforcementRolled {
        die: 1,
        regiment: Some("79th Regiment".into())
    }));
    done(&sc, &mut s);
    let ev = until(
        &sc,
        &mut s,
        A,
        Phase::Movement,
        &mut Script::new(&[1, 0, 0]),
    );
    let tail: Vec<Event> = ev
        .iter()
        .skip_while(|e| **e != phase(A, Phase::Movement))
        .cloned()
        .collect();
    assert_eq!(
        tail,
        vec![
            phase(A, Phase::Movement),
            Event::ReinforcementRolled {
                die: 2,
                regiment: Some("80th Regiment".into())
            },
            Event::ReinforcementsArrived {
                side: A,
                units: ids(&["r4"])
            },
            Event::FireSupportAdded {
                side: A,
                count: 1,
                values: Some(vec![5])
            },
        ]
    );
    // Every regiment has come: no more rolls.
    done(&sc, &mut s);
    let ev = until(&sc, &mut s, A, Phase::Movement, &mut no_rng());
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::ReinforcementRolled { .. })));
}

/// 11.5: no roll unless a Central Powers unit holds a railroad hex that is a town or
/// village, on or west of the 20xx column.
#[test]
fn rule_11_5_no_roll_without_a_railroad_town_or_village_held() {
    let rolls = |sc: &Scenario| {
        new_game(sc, &mut no_rng())
            .1
            .iter()
            .filter(|e| matches!(e, Event::ReinforcementRolled { .. }))
            .count()
    };
    // On the railroad, not a village.
    assert_eq!(rolls(&reinforcement_map().cp("c1", "0302").build()), 0);
    // A village off the railroad.
    let sc = reinforcement_map()
        .terrain("0303", &["village"])
        .cp("c1", "0303")
        .build();
    assert_eq!(rolls(&sc), 0);
    // A railroad town.
    let sc = reinforcement_map()
        .terrain("0302", &["town"])
        .cp("c1", "0302")
        .build();
    assert_eq!(rolls(&sc), 1);
    // East of the reinforcement column (here 01): no roll; on it (02): a roll.
    let sc = reinforcement_map()
        .params(|p| p.reinforcement_column = 1)
        .cp("c1", "0202")
        .build();
    assert_eq!(rolls(&sc), 0);
    let sc = reinforcement_map()
        .params(|p| p.reinforcement_column = 2)
        .cp("c1", "0202")
        .build();
    assert_eq!(rolls(&sc), 1);
    // Two eligible hexes held: still one roll.
    let sc = reinforcement_map()
        .terrain("0302", &["town"])
        .cp("c1", "0202")
        .cp("c2", "0302")
        .build();
    assert_eq!(rolls(&sc), 1);
}

// ---------------------------------------------------------------------------------
// 12.0 victory.

/// 12.1: an engineer next to the Suez Canal at the end of a British player turn wins
/// for the Central Powers (not at the end of the Central Powers turn).
#[test]
fn rule_12_1_engineer_next_to_the_canal_wins_at_the_end_of_the_british_turn() {
    let sc = suez(5, 3)
        .side("0102", "0202", &["canal"])
        .engineer("e1", "0202")
        .br("b1", "52nd Division", "0503")
        .build();
    let mut s = start(&sc);
    let ev = until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    let ev = done(&sc, &mut s);
    assert_eq!(
        ev,
        vec![
            phase(B, Phase::Combat),
            Event::FireSupportPlanning { side: A }
        ]
    );
    let ev = done(&sc, &mut s);
    assert_eq!(
        ev[..ev.len() - 1],
        [Event::FireSupportRevealed { markers: vec![] }]
    );
    let (winner, reason) = game_over(&ev);
    assert_eq!(winner, Some(A));
    assert!(reason.starts_with("12.1"), "{reason}");
}

/// 12.1: only an engineer counts.
#[test]
fn rule_12_1_other_units_next_to_the_canal_do_not_win() {
    let sc = suez(5, 3)
        .side("0102", "0202", &["canal"])
        .cp("c1", "0202")
        .engineer("e1", "0303")
        .br("b1", "52nd Division", "0503")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = until(&sc, &mut s, A, Phase::Movement, &mut no_rng());
    assert!(!ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    assert_eq!(s.turn, 2);
}

/// 12.2: the British win the instant no Central Powers unit is on the map (here from
/// the start: the only Central Powers unit is an off-map regiment).
#[test]
fn rule_12_2_no_central_powers_unit_on_the_map_at_the_start() {
    let sc = suez(5, 3)
        .br("b1", "52nd Division", "0503")
        .cp("r1", "0101")
        .with_last(|d| d.start = StartData::OffMap)
        .build();
    let (s, ev) = new_game(&sc, &mut no_rng());
    let (winner, reason) = game_over(&ev);
    assert_eq!(winner, Some(B));
    assert!(reason.starts_with("12.2"), "{reason}");
    assert_eq!(s.pending(), Pending::GameOver { winner: Some(B) });
}

/// 12.2: the British win the moment the last Central Powers unit is eliminated.
#[test]
fn rule_12_2_last_central_powers_unit_eliminated() {
    let sc = suez(5, 3)
        .br("b1", "52nd Division", "0202")
        .br("b2", "52nd Division", "0403")
        .cp("c1", "0302")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Combat, &mut no_rng());
    // 12 against 3 in the open: +9, the "+8,+9" column; a 1 is De.
    let ev = play(
        &sc,
        &mut s,
        Command::Attack {
            hex: h("0302"),
            units: ids(&["b1", "b2"]),
        },
        &mut Script::dice(&[1]),
    );
    let (winner, reason) = game_over(&ev);
    assert_eq!(winner, Some(B));
    assert!(reason.starts_with("12.2"), "{reason}");
    assert_eq!(
        ev[ev.len() - 3..ev.len() - 1],
        [
            Event::UnitEliminated { unit: u("c1") },
            Event::CombatEnded { hex: h("0302") }
        ],
        "{ev:?}"
    );
}

/// Two victory hexes and a one-turn game: 0302 (6 VP) and 0602 (2 VP).
fn victory_map(first: Side, second: Side) -> Suez {
    let mut b = suez(6, 5).params(|p| {
        p.victory_hexes = vec![
            VictoryHex {
                hex: h("0302"),
                name: "Romani".into(),
                vp: 6,
                start_control: first,
            },
            VictoryHex {
                hex: h("0602"),
                name: "Katia".into(),
                vp: 2,
                start_control: second,
            },
        ]
    });
    b.tiny.data.turns.truncate(1);
    b
}

/// 12.3, 12.4: a Central Powers unit moving through a British-held victory hex takes
/// control of it; at the end of the last turn the Central Powers' VP decide (8: a
/// draw).
#[test]
fn rule_12_4_moving_through_a_victory_hex_takes_control() {
    let sc = victory_map(B, A)
        .cp("c1", "0402")
        .br("b1", "52nd Division", "0605")
        .build();
    let mut s = start(&sc);
    assert_eq!(s.control.get(&h("0302")), Some(&B));
    assert_eq!(s.control.get(&h("0602")), Some(&A));
    assert_eq!(fm_core::suez_1916::victory_points(&sc, &s), 2);
    play(&sc, &mut s, mv("c1", &["0302", "0202"]), &mut no_rng());
    assert_eq!(s.control.get(&h("0302")), Some(&A));
    assert_eq!(fm_core::suez_1916::victory_points(&sc, &s), 8);
    let mut ev = Vec::new();
    while s.outcome.is_none() {
        ev.extend(done(&sc, &mut s));
    }
    let (winner, reason) = game_over(&ev);
    assert_eq!(winner, None);
    assert!(reason.starts_with("12.3"), "{reason}");
    assert!(reason.contains("Draw"), "{reason}");
}

/// 12.3, 12.4: the British retake a victory hex by moving through it; 2 VP is a
/// British operational victory (1-3).
#[test]
fn rule_12_3_british_retake_a_victory_hex() {
    let sc = victory_map(A, A)
        .cp("c1", "0605")
        .br("b1", "52nd Division", "0203")
        .build();
    let mut s = start(&sc);
    assert_eq!(fm_core::suez_1916::victory_points(&sc, &s), 8);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    play(&sc, &mut s, mv("b1", &["0302", "0402"]), &mut no_rng());
    assert_eq!(s.control.get(&h("0302")), Some(&B));
    assert_eq!(fm_core::suez_1916::victory_points(&sc, &s), 2);
    let mut ev = Vec::new();
    while s.outcome.is_none() {
        ev.extend(done(&sc, &mut s));
    }
    let (winner, reason) = game_over(&ev);
    assert_eq!(winner, Some(B));
    assert!(reason.starts_with("12.3"), "{reason}");
    assert!(reason.contains("British operational victory"), "{reason}");
}

/// 12.3: the result levels of the printed table, at their bounds.
#[test]
fn rule_12_3_result_levels() {
    let sc = Scenario::builtin("suez-1916").unwrap();
    let RuleSet::Suez1916(p) = &sc.data.rules else {
        unreachable!()
    };
    let level = |vp: u8| {
        p.result_levels
            .iter()
            .find(|l| vp >= l.min_vp && l.max_vp.is_none_or(|m| vp <= m))
            .map(|l| (l.winner, l.result.as_str()))
            .unwrap()
    };
    assert_eq!(level(0), (Some(B), "British decisive victory"));
    assert_eq!(level(3), (Some(B), "British operational victory"));
    assert_eq!(level(4), (Some(B), "British tactical victory"));
    assert_eq!(level(7), (None, "Draw"));
    assert_eq!(level(9), (None, "Draw"));
    assert_eq!(level(10), (Some(A), "Central Powers tactical victory"));
    assert_eq!(level(15), (Some(A), "Central Powers operational victory"));
    assert_eq!(level(25), (Some(A), "Central Powers decisive victory"));
}

// ---------------------------------------------------------------------------------
// 13.2 three-step brigade groups, 13.3 the armored train.

/// 13.2: a brigade group defends at 6, then 4, then 2 (the reduction counter), and
/// its third step loss eliminates it. Here three Central Powers battalions (9),
/// stacked in 0302, attack it three turns running and it holds each time (stiff
/// resistance on a D2).
#[test]
fn rule_13_2_brigade_group_loses_three_steps() {
    let sc = suez(5, 4)
        .cp("c1", "0302")
        .cp("c2", "0202")
        .cp("c3", "0301")
        .br("b1", "52nd Division", "0402")
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, mv("c2", &["0302"]), &mut no_rng());
    play(&sc, &mut s, mv("c3", &["0302"]), &mut no_rng());
    // Defense 6, 4, 2: differentials +3, +5, +7; dice 1, 1, 2 read D2 each time.
    for (turn, (defense, die, left)) in [(6, 1, 2u8), (4, 1, 1), (2, 2, 0)].into_iter().enumerate()
    {
        until(&sc, &mut s, A, Phase::Combat, &mut no_rng());
        assert_eq!(s.turn as usize, turn + 1);
        let ev = play(
            &sc,
            &mut s,
            Command::Attack {
                hex: h("0402"),
                units: ids(&["c1", "c2", "c3"]),
            },
            &mut Script::dice(&[die]),
        );
        let resolved = ev
            .iter()
            .find_map(|e| match e {
                Event::CombatResolved {
                    attack,
                    defense,
                    result,
                    ..
                } => Some((*attack, *defense, *result)),
                _ => None,
            })
            .expect("resolved");
        assert_eq!(resolved, (9, defense, CrtResult::D2), "{ev:?}");
        let ev = play(
            &sc,
            &mut s,
            Command::StiffResistance { unit: u("b1") },
            &mut no_rng(),
        );
        let want = if left > 0 {
            Event::StepLost {
                unit: u("b1"),
                steps: left,
            }
        } else {
            Event::UnitEliminated { unit: u("b1") }
        };
        assert_eq!(
            ev[..2],
            [
                Event::StiffResistance {
                    unit: u("b1"),
                    held: vec![]
                },
                want
            ]
        );
        if left > 0 {
            assert_eq!(steps_of(&s, "b1"), left);
            until(&sc, &mut s, B, Phase::Combat, &mut no_rng());
            done(&sc, &mut s);
        }
    }
    assert_eq!(loc_of(&s, "b1"), Location::Eliminated);
}

/// 13.3: the armored train moves only along railroad hexsides (½ MP each); its moves
/// are not the 16.0 rail move.
#[test]
fn rule_13_3_armored_train_moves_only_by_rail() {
    let sc = suez(7, 5)
        .rail(&["0202", "0302", "0402", "0502", "0602"])
        .train("t1", "0202")
        .br("b9", "52nd Division", "0205")
        .cp("c1", "0705")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("t1", &["0203"])).rule, "13.3");
    assert_eq!(refused(&sc, &s, mv("t1", &["0302", "0303"])).rule, "13.3");
    let legal = legal_commands(&sc, &s);
    let ends: Vec<Hex> = moves_of(&legal, "t1")
        .iter()
        .map(|p| *p.last().unwrap())
        .collect();
    let rail: Vec<Hex> = ["0302", "0402", "0502", "0602"]
        .iter()
        .map(|x| h(x))
        .collect();
    assert_eq!(ends, rail, "the train reaches the railroad hexes only");
    let ev = play(
        &sc,
        &mut s,
        mv("t1", &["0302", "0402", "0502"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![moved("t1", "0202", &["0302", "0402", "0502"], mp("1 1/2"))]
    );
    assert_eq!(
        s.ex.rail_moves, 0,
        "the train's move is not the 16.0 rail move"
    );
}

/// 13.3: the armored train "may enter and exit enemy ZOCs freely": it runs through
/// 0302, 0402 and 0502, all in the ZOC of the Central Powers unit in 0403, without
/// stopping.
#[test]
fn rule_13_3_armored_train_enters_and_exits_ezoc_freely() {
    let sc = suez(7, 5)
        .rail(&["0202", "0302", "0402", "0502", "0602"])
        .train("t1", "0202")
        .br("b9", "52nd Division", "0205")
        .cp("c1", "0403")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let path = ["0302", "0402", "0502", "0602"];
    let legal = legal_commands(&sc, &s);
    assert!(
        legal.contains(&mv("t1", &path)),
        "{:?}",
        moves_of(&legal, "t1")
    );
    let ev = play(&sc, &mut s, mv("t1", &path), &mut no_rng());
    assert_eq!(ev, vec![moved("t1", "0202", &path, Mp::whole(2))]);
}

// ---------------------------------------------------------------------------------
// 14.1 the Suez Canal.

/// A 6 x 5 map with the canal between columns 02 and 03 on every row (02 is the west
/// bank) and the crossing at 0201-0301, east of the builder's Pelusium Station column
/// so that units on both banks are active; the Central Powers unit far east.
fn canal_map() -> Suez {
    let mut b = suez(6, 5).params(|p| p.canal_crossing = [h("0201"), h("0301")]);
    for r in 1..=5u8 {
        b = b.side(&format!("02{r:02}"), &format!("03{r:02}"), &["canal"]);
        if r > 1 {
            b = b.side(&format!("02{r:02}"), &format!("03{:02}", r - 1), &["canal"]);
        }
    }
    b.cp("c1", "0605")
}

/// 14.1: a British unit crosses the canal at the crossing as its whole move, spending
/// its entire movement allowance, either way.
#[test]
fn rule_14_1_canal_crossing_spends_whole_ma() {
    let sc = canal_map()
        .br("b1", "52nd Division", "0301")
        .horse("m1", "52nd Division", "0201")
        .br("b9", "52nd Division", "0403")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let legal = legal_commands(&sc, &s);
    assert!(legal.contains(&mv("b1", &["0201"])));
    assert!(legal.contains(&mv("m1", &["0301"])));
    let ev = play(&sc, &mut s, mv("b1", &["0201"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0301", &["0201"], Mp::whole(5))]);
    let ev = play(&sc, &mut s, mv("m1", &["0301"]), &mut no_rng());
    assert_eq!(ev, vec![moved("m1", "0201", &["0301"], Mp::whole(8))]);
}

/// 14.1: the crossing must start in one crossing hex and end in the other: no move on
/// after crossing, no crossing after moving to the crossing hex.
#[test]
fn rule_14_1_canal_crossing_is_the_whole_move() {
    let sc = canal_map()
        .br("b1", "52nd Division", "0301")
        .br("b2", "52nd Division", "0302")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("b2", &["0301", "0201"])).rule, "14.1");
    let legal = legal_commands(&sc, &s);
    let west = |p: &Vec<Hex>| p.iter().any(|x| x.col <= 2);
    assert!(!moves_of(&legal, "b2").iter().any(west));
    assert_eq!(
        moves_of(&legal, "b1")
            .into_iter()
            .filter(west)
            .collect::<Vec<_>>(),
        vec![vec![h("0201")]]
    );
    assert_eq!(refused(&sc, &s, mv("b1", &["0201", "0202"])).rule, "14.1");
}

/// 14.1: no unit crosses the canal elsewhere, and the Central Powers never cross it,
/// not even at the crossing.
#[test]
fn rule_14_1_no_other_canal_crossing() {
    let sc = canal_map()
        .cp("c2", "0301")
        .br("b1", "52nd Division", "0302")
        .build();
    let mut s = start(&sc);
    assert_eq!(refused(&sc, &s, mv("c2", &["0201"])).rule, "14.1");
    let west = |p: &Vec<Hex>| p.iter().any(|x| x.col <= 2);
    assert!(!moves_of(&legal_commands(&sc, &s), "c2").iter().any(west));
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("b1", &["0202"])).rule, "14.1");
    assert!(!moves_of(&legal_commands(&sc, &s), "b1").iter().any(west));
}

/// 14.1: ZOC do not extend across canal hexsides: a British unit passes 0302 and 0301,
/// across the canal from the Central Powers unit in 0202, without stopping.
#[test]
fn rule_14_1_no_zoc_across_the_canal() {
    let sc = canal_map()
        .cp("c2", "0202")
        .br("b1", "52nd Division", "0303")
        .br("b9", "52nd Division", "0404")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(
        &sc,
        &mut s,
        mv("b1", &["0302", "0301", "0401"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![moved("b1", "0303", &["0302", "0301", "0401"], Mp::whole(3))]
    );
}

// ---------------------------------------------------------------------------------
// 14.2 trench hexsides (movement).

/// 14.2: crossing a trench hexside costs one more MP, in either direction, for either
/// side.
#[test]
fn rule_14_2_trench_hexside_costs_one_more_mp() {
    let sc = suez(6, 5)
        .side("0202", "0302", &["trench"])
        .side("0204", "0304", &["trench"])
        .cp("c1", "0202")
        .cp("c2", "0304")
        .cp("c9", "0601")
        .br("b1", "52nd Division", "0504")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0202", &["0302"], Mp::whole(2))]);
    let ev = play(&sc, &mut s, mv("c2", &["0204"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c2", "0304", &["0204"], Mp::whole(2))]);
}

/// 14.2 (with the Terrain Effects Chart): a track crossing a trench hexside costs the
/// track's ½ (⅓ for British infantry) plus the trench's 1.
#[test]
fn rule_14_2_trench_adds_to_a_track() {
    let sc = suez(6, 5)
        .side("0202", "0302", &["track", "trench"])
        .side("0203", "0303", &["track"])
        .side("0404", "0504", &["track", "trench"])
        .side("0405", "0505", &["track"])
        .cp("c1", "0202")
        .cp("c2", "0203")
        .br("b1", "52nd Division", "0504")
        .br("b2", "52nd Division", "0505")
        .br("b9", "52nd Division", "0601")
        .cp("c9", "0101")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0202", &["0302"], mp("1 1/2"))]);
    let ev = play(&sc, &mut s, mv("c2", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c2", "0203", &["0303"], mp("1/2"))]);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(&sc, &mut s, mv("b1", &["0404"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0504", &["0404"], mp("1 1/3"))]);
    let ev = play(&sc, &mut s, mv("b2", &["0405"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b2", "0505", &["0405"], mp("1/3"))]);
}

// ---------------------------------------------------------------------------------
// 15.0 surprise.

/// A 9 x 2 map of sand (2 MP a hex).
fn sand_row() -> Suez {
    let mut b = suez(9, 2);
    for c in 1..=9 {
        for r in 1..=2 {
            b = b.terrain(&format!("{c:02}{r:02}"), &["sand"]);
        }
    }
    b
}

/// 15.1: Central Powers movement factors are doubled in the Zero Hour turn (6 → 12).
#[test]
fn rule_15_1_central_powers_movement_doubled_at_zero_hour() {
    let sc = sand_row()
        .zero_hour()
        .cp("c1", "0101")
        .cp("c2", "0102")
        .br("b1", "52nd Division", "0902")
        .build();
    let mut s = start(&sc);
    let six = ["0201", "0301", "0401", "0501", "0601", "0701"];
    let seven = ["0202", "0302", "0402", "0502", "0602", "0702", "0802"];
    assert_eq!(refused(&sc, &s, mv("c2", &seven)).rule, "5.2(c)");
    let ev = play(&sc, &mut s, mv("c1", &six), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0101", &six, Mp::whole(12))]);
}

/// 15.1: only in the Zero Hour turn: by turn 2 (and without Zero Hour) the movement
/// factor is the printed 6.
#[test]
fn rule_15_1_printed_movement_after_zero_hour() {
    for sc in [
        sand_row()
            .zero_hour()
            .start_turn(2)
            .cp("c1", "0101")
            .cp("c9", "0102")
            .br("b1", "52nd Division", "0902")
            .build(),
        sand_row()
            .cp("c1", "0101")
            .cp("c9", "0102")
            .br("b1", "52nd Division", "0902")
            .build(),
    ] {
        let mut s = start(&sc);
        let e = refused(&sc, &s, mv("c1", &["0201", "0301", "0401", "0501"]));
        assert_eq!(e.rule, "5.2(c)");
        let ev = play(
            &sc,
            &mut s,
            mv("c1", &["0201", "0301", "0401"]),
            &mut no_rng(),
        );
        assert_eq!(
            ev,
            vec![moved("c1", "0101", &["0201", "0301", "0401"], Mp::whole(6))]
        );
    }
}

/// 15.2: no British unit moves in the Zero Hour turn: the British movement phase has
/// nothing to do and passes at once; a move there is refused under 15.2.
#[test]
fn rule_15_2_no_british_movement_at_zero_hour() {
    let sc = suez(6, 4)
        .zero_hour()
        .cp("c1", "0604")
        .br("b1", "52nd Division", "0301")
        .br("b9", "52nd Division", "0304")
        .build();
    let mut s = start(&sc);
    let ev = done(&sc, &mut s);
    // Night (19.0): no air unit, so no fire support step; the British movement phase
    // is passed, and so is their combat phase, to turn 2.
    assert_eq!(
        ev[..4],
        [
            phase(A, Phase::Combat),
            phase(B, Phase::Movement),
            phase(B, Phase::Combat),
            Event::TurnStarted { turn: 2 },
        ]
    );
    // The same position in the British movement phase of turn 1.
    let mut s = start(&sc);
    s.active = B;
    s.phase = Phase::Movement;
    assert_eq!(refused(&sc, &s, mv("b1", &["0302"])).rule, "15.2");
    assert!(moves_of(&legal_commands(&sc, &s), "b1").is_empty());
    // Turn 2: it moves.
    s.turn = 2;
    let ev = play(&sc, &mut s, mv("b1", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0301", &["0302"], Mp::whole(1))]);
}

// ---------------------------------------------------------------------------------
// 16.0 British rail movement.

/// A railroad 0202-0702 along row 2; b1 (movement factor 1) on 0202, b2 (1) on 0302;
/// the Central Powers unit far away.
fn rail_map() -> Suez {
    let b = suez(8, 5)
        .rail(&["0202", "0302", "0402", "0502", "0602", "0702"])
        .br("b1", "52nd Division", "0202");
    let b = ma(b, 1).br("b2", "52nd Division", "0302");
    ma(b, 1).br("b9", "52nd Division", "0505")
}

const RAIL: [&str; 5] = ["0302", "0402", "0502", "0602", "0702"];

/// 16.0: a British unit on a railroad hex moves any distance along the railroad (here
/// five hexes with a movement factor of 1); legal_commands lists the rail move.
#[test]
fn rule_16_0_rail_movement_any_distance() {
    let sc = rail_map().cp("c1", "0805").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let legal = legal_commands(&sc, &s);
    assert!(
        legal.contains(&mv("b1", &RAIL)),
        "{:?}",
        moves_of(&legal, "b1")
    );
    let ev = play(&sc, &mut s, mv("b1", &RAIL), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            Event::RailMovement { unit: u("b1") },
            moved("b1", "0202", &RAIL, Mp::ZERO),
        ]
    );
    assert_eq!(loc_of(&s, "b1"), Location::Map(h("0702")));
    // 16.0: no other movement in the same phase.
    assert!(moves_of(&legal_commands(&sc, &s), "b1").is_empty());
    assert!(refused(&sc, &s, mv("b1", &["0703"])).rule.starts_with('5'));
}

/// 16.0: one unit per British movement phase; the next phase another may go.
#[test]
fn rule_16_0_one_rail_move_per_phase() {
    let sc = rail_map().cp("c1", "0805").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    play(&sc, &mut s, mv("b1", &RAIL), &mut no_rng());
    // Refused: a path wholly along the railroad that is no legal normal move is read
    // as a rail move, and this phase's rail move is gone.
    let e = refused(&sc, &s, mv("b2", &["0402", "0502", "0602"]));
    assert_eq!(e.rule, "16.0", "{e}");
    assert!(e.message.contains("already moved a unit by rail"), "{e}");
    let far: Vec<Vec<Hex>> = moves_of(&legal_commands(&sc, &s), "b2")
        .into_iter()
        .filter(|p| p.len() > 2)
        .collect();
    assert!(far.is_empty(), "{far:?}");
    done(&sc, &mut s);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(
        &sc,
        &mut s,
        mv("b2", &["0402", "0502", "0602"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            Event::RailMovement { unit: u("b2") },
            moved("b2", "0302", &["0402", "0502", "0602"], Mp::ZERO),
        ]
    );
}

/// 16.0 "contiguous rail hexes": a rail path may not come back to a hex (one bouncing
/// between two rail hexes was accepted at 0 MP, however long). A path longer than any
/// move in the scenario can be (here the 40 hexes of the map, each entered once) is
/// refused before it is walked, citing 5.2(c).
#[test]
fn rule_16_0_a_rail_path_does_not_revisit_a_hex() {
    let sc = rail_map().cp("c1", "0805").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let e = refused(&sc, &s, mv("b1", &["0302", "0402", "0302", "0402"]));
    assert_eq!(
        e.to_string(),
        "16.0: b1 enters 0302 twice: a rail move follows contiguous rail hexes without coming back"
    );
    assert_eq!(sc.max_path(), 40);
    let bounce: Vec<&str> = ["0302", "0402"].repeat(500_000);
    let t = std::time::Instant::now();
    let e = refused(&sc, &s, mv("b1", &bounce));
    assert_eq!(
        e.to_string(),
        "5.2(c): a path of 1000000 hexes is longer than any move in this scenario can be (at \
         most 40: the largest movement allowance over the cheapest step cost, or each hex once \
         by rail, 16.0)"
    );
    assert!(t.elapsed().as_millis() < 500, "{:?}", t.elapsed());
    // Just over the bound the walk stops at the first revisit.
    let e = refused(&sc, &s, mv("b1", &bounce[..41]));
    assert_eq!(e.rule, "5.2(c)", "{e}");
    let e = refused(&sc, &s, mv("b1", &bounce[..40]));
    assert_eq!(e.rule, "16.0", "{e}");
    // The listing never offers a revisiting path, and the rail move itself still works.
    for p in moves_of(&legal_commands(&sc, &s), "b1") {
        let mut seen = p.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), p.len(), "{p:?}");
    }
    play(&sc, &mut s, mv("b1", &RAIL), &mut no_rng());
}

/// 16.0: a path that is also a legal normal move is a normal move (it pays its MP and
/// leaves the rail move to another unit); the armored train's moves do not count.
#[test]
fn rule_16_0_normal_moves_along_the_railroad_are_not_rail_moves() {
    let sc = rail_map().train("t1", "0702").cp("c1", "0805").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(&sc, &mut s, mv("b2", &["0402", "0502"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![moved("b2", "0302", &["0402", "0502"], Mp::whole(1))]
    );
    let ev = play(&sc, &mut s, mv("t1", &["0602"]), &mut no_rng());
    assert_eq!(ev, vec![moved("t1", "0702", &["0602"], mp("1/2"))]);
    assert_eq!(s.ex.rail_moves, 0);
    let ev = play(
        &sc,
        &mut s,
        mv("b1", &["0302", "0402", "0502"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            Event::RailMovement { unit: u("b1") },
            moved("b1", "0202", &["0302", "0402", "0502"], Mp::ZERO),
        ]
    );
}

/// 16.0: the rail move may not enter an enemy ZOC (0502, next to 0503) nor start in
/// one; the Central Powers have no rail movement.
#[test]
fn rule_16_0_no_rail_move_into_or_out_of_an_enemy_zoc() {
    let sc = rail_map().cp("c1", "0503").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    // Refused as a rail move: 0502 is in an enemy ZOC.
    let e = refused(&sc, &s, mv("b1", &RAIL));
    assert_eq!(e.rule, "16.0", "{e}");
    assert!(e.message.contains("0502 is in an enemy ZOC"), "{e}");
    let legal = legal_commands(&sc, &s);
    assert!(!moves_of(&legal, "b1")
        .iter()
        .any(|p| p.contains(&h("0602"))));
    // Starting in an EZOC.
    let sc = rail_map().cp("c1", "0203").cp("c2", "0805").build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let e = refused(&sc, &s, mv("b1", &["0302", "0402", "0502"]));
    assert_eq!(e.rule, "16.0", "{e}");
    assert!(e.message.contains("starts in an enemy ZOC"), "{e}");
    assert!(!moves_of(&legal_commands(&sc, &s), "b1")
        .iter()
        .any(|p| p.len() > 1));
    // The Central Powers on the railroad (here with a movement factor of 1) move
    // normally only.
    let sc = ma(rail_map().cp("c1", "0702"), 1).cp("c2", "0805").build();
    let s = start(&sc);
    let e = refused(&sc, &s, mv("c1", &["0602", "0502", "0402"]));
    assert_eq!(e.rule, "5.2(c)", "{e}");
    assert!(!moves_of(&legal_commands(&sc, &s), "c1")
        .iter()
        .any(|p| p.len() > 2));
}

// ---------------------------------------------------------------------------------
// 17.0 stacking.

/// 17.1: up to three Central Powers units of any formation; a fourth may pass through
/// but not stay.
#[test]
fn rule_17_1_central_powers_stack_three_of_any_formation() {
    let sc = suez(6, 5)
        .cp("c1", "0302")
        .cp("c2", "0402")
        .engineer("e1", "0303")
        .cp("c4", "0304")
        .cp("c9", "0101")
        .br("b1", "52nd Division", "0605")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c2", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c2", "0402", &["0302"], Mp::whole(1))]);
    let ev = play(&sc, &mut s, mv("e1", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("e1", "0303", &["0302"], Mp::whole(1))]);
    assert_eq!(refused(&sc, &s, mv("c4", &["0303", "0302"])).rule, "17.1");
    assert!(!moves_of(&legal_commands(&sc, &s), "c4")
        .iter()
        .any(|p| p.last() == Some(&h("0302"))));
    let ev = play(
        &sc,
        &mut s,
        mv("c4", &["0303", "0302", "0202"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![moved("c4", "0304", &["0303", "0302", "0202"], Mp::whole(3))]
    );
}

/// 17.1: two British units of one division, or two of the Reserve; never a third, nor
/// two divisions, nor a Reserve unit with a division.
#[test]
fn rule_17_1_british_stack_two_of_one_division_or_the_reserve() {
    // 0303 touches 0302, 0403, 0404, 0304, 0204 and 0203.
    let sc = suez(6, 6)
        .br("b1", "52nd Division", "0303")
        .br("b2", "52nd Division", "0302")
        .br("b3", "52nd Division", "0403")
        .br("b4", "53rd Division", "0404")
        .br("r1", "Reserve", "0304")
        .br("r2", "Reserve", "0204")
        .cp("c1", "0606")
        .build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("b4", &["0303"])).rule, "17.1");
    assert_eq!(refused(&sc, &s, mv("r1", &["0303"])).rule, "17.1");
    let ev = play(&sc, &mut s, mv("b2", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b2", "0302", &["0303"], Mp::whole(1))]);
    assert_eq!(refused(&sc, &s, mv("b3", &["0303"])).rule, "17.1");
    let ev = play(&sc, &mut s, mv("r1", &["0204"]), &mut no_rng());
    assert_eq!(ev, vec![moved("r1", "0304", &["0204"], Mp::whole(1))]);
}

/// 17.1: no stacking in marsh (moving through is allowed).
#[test]
fn rule_17_1_no_stacking_in_marsh() {
    let sc = suez(6, 5)
        .terrain("0302", &["marsh"])
        .cp("c1", "0302")
        .cp("c2", "0303")
        .br("b1", "52nd Division", "0605")
        .build();
    let mut s = start(&sc);
    assert_eq!(refused(&sc, &s, mv("c2", &["0302"])).rule, "17.1");
    let ev = play(&sc, &mut s, mv("c2", &["0302", "0202"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![moved("c2", "0303", &["0302", "0202"], Mp::whole(4))]
    );
}

/// 17.1, 13.3: set-up placements keep the stacking limits (three Central Powers, two
/// British of one division, one unit in marsh), and the armored train sets up on the
/// railroad.
#[test]
fn rule_17_1_set_up_placements_keep_the_limits() {
    let mut b = suez(6, 4)
        .terrain("0203", &["marsh"])
        .terrain("0503", &["marsh"])
        .rail(&["0202", "0302"]);
    b.tiny.data.setup = SetupData {
        order: vec![B, A],
        zones: [
            (
                "br".to_string(),
                vec![h("0201"), h("0202"), h("0203"), h("0204")],
            ),
            ("cp".to_string(), vec![h("0501"), h("0502"), h("0503")]),
        ]
        .into_iter()
        .collect(),
    };
    let b = zoned(b.train("t1", "0202"), "br");
    let b = zoned(b.br("b1", "52nd Division", "0201"), "br");
    let b = zoned(b.br("b2", "52nd Division", "0201"), "br");
    let b = zoned(b.br("b3", "52nd Division", "0201"), "br");
    let b = zoned(b.br("b4", "53rd Division", "0201"), "br");
    let mut b = b;
    for c in ["c1", "c2", "c3", "c4", "c5"] {
        b = zoned(b.cp(c, "0501"), "cp");
    }
    let sc = b.build();
    let mut s = start(&sc);
    assert_eq!(s.pending(), Pending::Setup { side: B });
    assert_eq!(refused(&sc, &s, place("t1", "0201")).rule, "13.3");
    play(&sc, &mut s, place("t1", "0202"), &mut no_rng());
    play(&sc, &mut s, place("b1", "0201"), &mut no_rng());
    assert_eq!(refused(&sc, &s, place("b4", "0201")).rule, "17.1");
    assert_eq!(refused(&sc, &s, place("b4", "0202")).rule, "17.1");
    play(&sc, &mut s, place("b2", "0201"), &mut no_rng());
    assert_eq!(refused(&sc, &s, place("b3", "0201")).rule, "17.1");
    assert!(!legal_commands(&sc, &s).contains(&place("b3", "0201")));
    assert!(legal_commands(&sc, &s).contains(&place("b3", "0203")));
    play(&sc, &mut s, place("b3", "0203"), &mut no_rng());
    let ev = play(&sc, &mut s, place("b4", "0204"), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            Event::UnitPlaced {
                unit: u("b4"),
                hex: h("0204")
            },
            phase(A, Phase::Setup)
        ]
    );
    for c in ["c1", "c2", "c3"] {
        play(&sc, &mut s, place(c, "0501"), &mut no_rng());
    }
    assert_eq!(refused(&sc, &s, place("c4", "0501")).rule, "17.1");
    play(&sc, &mut s, place("c4", "0503"), &mut no_rng());
    assert_eq!(refused(&sc, &s, place("c5", "0503")).rule, "17.1");
    assert!(!legal_commands(&sc, &s).contains(&place("c5", "0503")));
    play(&sc, &mut s, place("c5", "0502"), &mut no_rng());
    assert_eq!(s.units_at(h("0501")).len(), 3);
}

/// A line of hexes along row 1 (each touches the next), set up by placement (17.1
/// stacks): b1 and b2 in 0201 attack c1 in 0301; 0401 holds three Central Powers units;
/// 0501 holds `in_0501`; 0601 and 0701 are empty.
fn retreat_line(in_0501: usize) -> (Scenario, State) {
    let mut b = suez(7, 1);
    // The sides' set-up zones are apart (validation): the British west of 0301.
    b.tiny.data.setup = SetupData {
        order: vec![B, A],
        zones: [
            ("br".to_string(), (1..=2).map(|c| Hex::new(c, 1)).collect()),
            ("cp".to_string(), (3..=7).map(|c| Hex::new(c, 1)).collect()),
        ]
        .into_iter()
        .collect(),
    };
    let mut placements = vec![("b1", "0201"), ("b2", "0201"), ("c1", "0301")];
    placements.extend([("f1", "0401"), ("f2", "0401"), ("f3", "0401")]);
    placements.extend([("g1", "0501"), ("g2", "0501"), ("g3", "0501")][..in_0501].iter());
    for (unit, hex) in &placements {
        b = if unit.starts_with('b') {
            zoned(b.br(unit, "52nd Division", hex), "br")
        } else {
            zoned(b.cp(unit, hex), "cp")
        };
    }
    let sc = b.build();
    let mut s = start(&sc);
    for (unit, hex) in placements {
        play(&sc, &mut s, place(unit, hex), &mut no_rng());
    }
    assert_eq!(s.units_at(h("0401")).len(), 3);
    (sc, s)
}

/// Plays to the British attack on 0301 with a D2 (12 against 3: +9; a 3 reads D2).
fn d2_on_c1(sc: &Scenario, mut s: State) -> State {
    until(sc, &mut s, B, Phase::Combat, &mut no_rng());
    let ev = play(
        sc,
        &mut s,
        Command::Attack {
            hex: h("0301"),
            units: ids(&["b1", "b2"]),
        },
        &mut Script::dice(&[3]),
    );
    assert!(
        ev.contains(&Event::RetreatRequired {
            side: A,
            units: ids(&["c1"]),
            hexes: 2
        }),
        "{ev:?}"
    );
    s
}

/// 17.1: a retreat may end in a friendly hex with room (here 0501 with two units),
/// without displacing anyone.
#[test]
fn rule_17_1_retreat_may_end_in_a_stack_with_room() {
    let (sc, s) = retreat_line(2);
    let mut s = d2_on_c1(&sc, s);
    let legal = legal_commands(&sc, &s);
    let r = Command::Retreat {
        unit: u("c1"),
        path: vec![h("0401"), h("0501")],
        displace: vec![],
    };
    assert!(legal.contains(&r), "{legal:?}");
    let ev = play(&sc, &mut s, r, &mut no_rng());
    assert_eq!(
        ev[0],
        Event::UnitRetreated {
            unit: u("c1"),
            from: h("0301"),
            path: vec![h("0401"), h("0501")]
        }
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::UnitDisplaced { .. })));
    assert_eq!(s.units_at(h("0501")).len(), 3);
}

/// 17.1: a retreat ending in a full hex displaces a unit there to restore the limit.
#[test]
fn rule_17_1_retreat_into_a_full_hex_displaces() {
    let (sc, s) = retreat_line(3);
    let mut s = d2_on_c1(&sc, s);
    let legal = legal_commands(&sc, &s);
    let retreats: Vec<&Command> = legal
        .iter()
        .filter(|c| matches!(c, Command::Retreat { .. }))
        .collect();
    let r = Command::Retreat {
        unit: u("c1"),
        path: vec![h("0401"), h("0501")],
        displace: vec![h("0601")],
    };
    assert!(legal.contains(&r), "{retreats:?}");
    let ev = play(&sc, &mut s, r, &mut no_rng());
    let displaced: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::UnitDisplaced { .. } | Event::UnitRetreated { .. }))
        .collect();
    assert_eq!(displaced.len(), 2, "{ev:?}");
    assert!(
        matches!(displaced[0], Event::UnitDisplaced { from, to, .. } if *from == h("0501") && *to == h("0601")),
        "{ev:?}"
    );
    assert_eq!(s.units_at(h("0501")).len(), 3);
    assert_eq!(s.units_at(h("0601")).len(), 1);
    assert_eq!(loc_of(&s, "c1"), Location::Map(h("0501")));
}

/// 17.2: stacked units move one at a time: moving one leaves the rest of the stack.
#[test]
fn rule_17_2_stacked_units_move_individually() {
    let sc = suez(6, 5)
        .cp("c1", "0302")
        .cp("c2", "0402")
        .cp("c9", "0101")
        .br("b1", "52nd Division", "0605")
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, mv("c2", &["0302"]), &mut no_rng());
    done(&sc, &mut s);
    until(&sc, &mut s, A, Phase::Movement, &mut no_rng());
    let ev = play(&sc, &mut s, mv("c1", &["0402"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0302", &["0402"], Mp::whole(1))]);
    assert_eq!(loc_of(&s, "c2"), Location::Map(h("0302")));
    let ev = play(&sc, &mut s, mv("c2", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c2", "0302", &["0303"], Mp::whole(1))]);
}

// ---------------------------------------------------------------------------------
// 19.0 night.

/// b1 in 0403 (its ZOC: 0402, 0502, 0503, 0404, 0303, 0302); c1 in 0302 and c2 in
/// 0402, both in its ZOC.
fn disengage_map() -> Suez {
    suez(7, 5)
        .br("b1", "52nd Division", "0403")
        .br("b9", "52nd Division", "0705")
        .cp("c1", "0302")
        .cp("c2", "0402")
        .cp("c9", "0101")
}

/// 19.0 Disengagement, R-SU-19.0: at night a Central Powers leg unit leaves an EZOC
/// for another for the terrain cost alone (it still stops on entering it).
#[test]
fn rule_19_0_central_powers_disengage_at_night() {
    let sc = disengage_map().night(1).build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0302", &["0303"], Mp::whole(1))]);
    assert_eq!(refused(&sc, &s, mv("c2", &["0502", "0602"])).rule, "6.1");
    let ev = play(&sc, &mut s, mv("c2", &["0502"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c2", "0402", &["0502"], Mp::whole(1))]);
}

/// 19.0 (by contrast, 6.1): by day the same move costs the whole movement allowance.
#[test]
fn rule_19_0_by_day_ezoc_to_ezoc_costs_the_whole_ma() {
    let sc = disengage_map().build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("c1", "0302", &["0303"], Mp::whole(6))]);
}

/// b1 in 0403 (its ZOC: 0402, 0502, 0503, 0404, 0303, 0302); Central Powers cavalry
/// (movement allowance 10) k1 in 0302, in that ZOC, and k2 in 0203, outside it.
fn mobile_disengage_map() -> Suez {
    suez(7, 5)
        .br("b1", "52nd Division", "0403")
        .br("b9", "52nd Division", "0705")
        .cp_cavalry("k1", "0302")
        .cp_cavalry("k2", "0203")
        .cp("c9", "0101")
}

/// 19.0 Disengagement, R-SU-19.0: "Central Powers units (only)", mobile ones too. At
/// night k1 leaves b1's ZOC hex 0302 for its ZOC hex 0303 without the half movement
/// allowance 6.1 charges a mobile unit for entering an EZOC (1 for the clear hex),
/// and goes on out of it (1): 2 in all. Entering the EZOC from outside is no exit: k2,
/// from 0203 into 0303's neighbour 0302 (now empty), still pays 1 + 5.
#[test]
fn rule_19_0_central_powers_mobile_unit_disengages_at_night() {
    let sc = mobile_disengage_map().night(1).build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("k1", &["0303", "0304"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![moved("k1", "0302", &["0303", "0304"], Mp::whole(2))]
    );
    let ev = play(&sc, &mut s, mv("k2", &["0302"]), &mut no_rng());
    assert_eq!(ev, vec![moved("k2", "0203", &["0302"], Mp::whole(6))]);
}

/// 19.0 (by contrast, 6.1): by day the same cavalry move pays half its movement
/// allowance (5) on entering 0303 from 0302: 1 + 5 + 1.
#[test]
fn rule_19_0_by_day_a_mobile_unit_pays_half_its_ma_ezoc_to_ezoc() {
    let sc = mobile_disengage_map().build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("k1", &["0303", "0304"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![moved("k1", "0302", &["0303", "0304"], Mp::whole(7))]
    );
}

/// 19.0: "Central Powers units (only)": at night a British unit moving from an EZOC
/// into another (0303, next to c1) still spends its whole movement allowance.
#[test]
fn rule_19_0_british_do_not_disengage_at_night() {
    let sc = disengage_map().night(1).build();
    let mut s = start(&sc);
    until(&sc, &mut s, B, Phase::Movement, &mut no_rng());
    let ev = play(&sc, &mut s, mv("b1", &["0303"]), &mut no_rng());
    assert_eq!(ev, vec![moved("b1", "0403", &["0303"], Mp::whole(5))]);
}

// ---------------------------------------------------------------------------------
// Whole games.

/// Random games of the built-in scenario keep the exclusive rules at every step: no
/// hex holds both sides, stacks keep 17.1 (Central Powers three, British two of one
/// formation, one unit in marsh), the train stays on the railroad, a command is always
/// available until the game is over (set-up included), and the match's state is the
/// replay of its log.
#[test]
fn suez_random_games_keep_the_exclusive_rules() {
    let sc = std::sync::Arc::new(Scenario::builtin("suez-1916").unwrap());
    let RuleSet::Suez1916(p) = &sc.data.rules else {
        unreachable!()
    };
    let marsh = |x: Hex| {
        sc.data
            .map
            .hexes
            .iter()
            .any(|d| d.id == x && d.terrain.contains(&p.marsh_terrain))
    };
    for seed in 1..=5u64 {
        let mut m = Match::new(sc.clone(), seed);
        let mut rng = rng_from_seed(200 + seed);
        let mut commands = 0;
        while !m.is_over() {
            let s = m.state().clone();
            let cmd = agents::random(&sc, &s, &mut rng)
                .unwrap_or_else(|| panic!("seed {seed}: no legal command in {:?}", s.pending()));
            m.apply(&cmd)
                .unwrap_or_else(|e| panic!("seed {seed}: listed {cmd:?} refused: {e}"));
            commands += 1;
            assert!(commands < 100_000, "seed {seed}: the game does not end");
            let s = m.state();
            let mut hexes: std::collections::BTreeMap<Hex, Vec<usize>> = Default::default();
            for (i, x) in s.units.iter().enumerate() {
                if let Some(hex) = x.hex() {
                    hexes.entry(hex).or_default().push(i);
                }
            }
            let d = |i: usize| &sc.units[i].data;
            for (hex, here) in &hexes {
                let side = d(here[0]).side;
                assert!(
                    here.iter().all(|&i| d(i).side == side),
                    "seed {seed}: both sides in {hex}"
                );
                if here.len() > 1 {
                    assert!(!marsh(*hex), "seed {seed}: a stack in marsh {hex}");
                    assert!(
                        here.len() <= *p.stacking_limit.get(side) as usize,
                        "seed {seed}: {} units in {hex}",
                        here.len()
                    );
                    if side == B {
                        assert!(
                            here.iter().all(|&i| d(i).formation == d(here[0]).formation),
                            "seed {seed}: two British formations in {hex}"
                        );
                    }
                }
                for &i in here {
                    if d(i).tags.contains(&p.armored_train_tag) {
                        assert!(
                            p.rail_hexes.contains(hex),
                            "seed {seed}: train off the railroad in {hex}"
                        );
                    }
                }
            }
            if !m.is_over() {
                assert!(
                    !m.legal_commands().is_empty(),
                    "seed {seed}: nothing legal in {:?}",
                    s.pending()
                );
            }
        }
        assert!(m.state().turn <= sc.turn_count(), "seed {seed}");
        // The state is the fold of the log, and a replay of its commands.
        let (mut fold, _) = new_game(&sc, &mut rng_from_seed(seed));
        for entry in m.log() {
            fold.apply_events(&sc, &entry.events);
        }
        assert_eq!(fold.hash(), m.state().hash(), "seed {seed}");
        let mut replay = Match::new(sc.clone(), seed);
        for entry in m.log() {
            let events = replay.apply(&entry.command).expect("replayed command");
            assert_eq!(events, &entry.events[..], "seed {seed}");
        }
        assert_eq!(replay.state().hash(), m.state().hash(), "seed {seed}");
    }
}
