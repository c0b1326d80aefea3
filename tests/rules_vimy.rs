//! Rule-numbered tests for the Vimy Ridge exclusive rules (10.0-21.0 of
//! `../shared/rules/vimy-ridge.txt`), except the artillery (17.0, 18.1, 18.2's
//! bombardment half), which `tests/rules_vimy_artillery.rs` covers.
//!
//! Every test builds a tiny map with the Vimy Ridge terrain chart, Integrated CRT and
//! exclusive-rule parameters (`common::vimy`) and compares the exact events `apply`
//! returns, or for a refusal the exact rule number and the unchanged state. Side `a` is
//! the Allies, side `b` the Germans. North is row 01. Rulings: `docs/rulings.md`
//! (R-VR-…).
//!
//! Hex ids are column then row, odd columns sit half a hex lower: an even column
//! (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),(c-1,r),(c-1,r-1); an odd column
//! (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
use crate::common;
use common::vimy::*;
use common::*;
use fm_core::*;

use Side::{A, B};

fn no_rng() -> Script {
    Script::new(&[])
}

fn replace(unit: &str, hex: &str, full: bool) -> Command {
    Command::Replace {
        unit: u(unit),
        hex: h(hex),
        full,
    }
}

fn rebuild(units: &[&str]) -> Command {
    Command::Rebuild { units: ids(units) }
}

fn steps_of(s: &State, unit: &str) -> u8 {
    s.units[idx(s, unit)].steps
}

fn loc_of(s: &State, unit: &str) -> Location {
    s.units[idx(s, unit)].loc
}

fn resolved(ev: &[Event]) -> (i32, i32, String) {
    ev.iter()
        .find_map(|e| match e {
            Event::CombatResolved {
                attack,
                defense,
                line,
                ..
            } => Some((*attack, *defense, line.clone())),
            _ => None,
        })
        .expect("a combat was resolved")
}

// ---------------------------------------------------------------------------------
// 11.1, 19.1, 20.2 set-up.

/// A set-up map: 8 columns x 12 rows; the German zone is columns 05-08, the Allied zone
/// columns 01-03 (the Allied trench line between 03 and 04), rows 02-12 (row 01 lies
/// north of the river).
fn setup_map() -> Vimy {
    let mut v = vimy(8, 12);
    let zone = |cols: std::ops::RangeInclusive<u8>| -> Vec<Hex> {
        cols.flat_map(|c| (2..=12).map(move |r| Hex::new(c, r)))
            .collect()
    };
    v.tiny.data.setup = SetupData {
        order: vec![B, A],
        zones: [
            ("german".to_string(), zone(5..=8)),
            ("allied".to_string(), zone(1..=3)),
        ]
        .into_iter()
        .collect(),
    };
    v
}

impl Zoned for Vimy {
    fn zoned(self, zone: &str) -> Vimy {
        let z = zone.to_string();
        self.with_last(|d| d.start = StartData::Zone(z))
    }
}

trait Zoned {
    fn zoned(self, zone: &str) -> Self;
}

fn place(unit: &str, hex: &str) -> Command {
    Command::Place {
        unit: u(unit),
        hex: h(hex),
    }
}

/// 11.1, 19.1: the Germans set up first, then the Allies.
#[test]
fn rule_11_1_germans_set_up_first_then_allies() {
    let sc = setup_map()
        .cdn("c1", 1, "0101")
        .zoned("allied")
        .ger("g1", 16, "0101")
        .zoned("german")
        .build();
    let mut s = start(&sc);
    assert_eq!(s.pending(), Pending::Setup { side: B });
    assert_eq!(refused(&sc, &s, place("c1", "0202")).rule, "3.0");
    let ev = play(&sc, &mut s, place("g1", "0605"), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            Event::UnitPlaced {
                unit: u("g1"),
                hex: h("0605")
            },
            phase(A, Phase::Setup)
        ]
    );
}

/// 11.2, 11.5, 19.1, 20.2: each side sets up on its own side of the Allied trench line,
/// south of the river; one unit per hex.
#[test]
fn rule_19_1_20_2_set_up_zones_and_one_unit_per_hex() {
    let sc = setup_map()
        .ger("g1", 16, "0101")
        .zoned("german")
        .ger("g2", 16, "0101")
        .zoned("german")
        .cdn("c1", 1, "0101")
        .zoned("allied")
        .build();
    let mut s = start(&sc);
    // West of the Allied trench line, or north of the river: refused.
    assert_eq!(refused(&sc, &s, place("g1", "0305")).rule, "3.0(b)");
    assert_eq!(refused(&sc, &s, place("g1", "0601")).rule, "3.0(b)");
    play(&sc, &mut s, place("g1", "0605"), &mut no_rng());
    assert_eq!(refused(&sc, &s, place("g2", "0605")).rule, "5.3");
    play(&sc, &mut s, place("g2", "0606"), &mut no_rng());
    assert_eq!(refused(&sc, &s, place("c1", "0505")).rule, "3.0(b)");
    assert_eq!(refused(&sc, &s, place("c1", "0201")).rule, "3.0(b)");
    play(&sc, &mut s, place("c1", "0305"), &mut no_rng());
}

/// 19.1: the 79th Reserve sets up south of every 16th Bavarian unit and north of every
/// 1st Bavarian Reserve unit.
#[test]
fn rule_19_1_division_order_north_to_south() {
    let sc = setup_map()
        .ger("b16", 16, "0101")
        .zoned("german")
        .ger("r79", 79, "0101")
        .zoned("german")
        .ger("b1", 1, "0101")
        .zoned("german")
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, place("r79", "0606"), &mut no_rng());
    // A 16th Bavarian unit level with or south of the 79th: refused.
    for hex in ["0506", "0807", "0610"] {
        let e = refused(&sc, &s, place("b16", hex));
        assert_eq!(e.rule, "19.1", "{hex}: {e}");
    }
    // A 1st Bavarian Reserve unit level with or north of it: refused.
    for hex in ["0806", "0602", "0705"] {
        assert_eq!(refused(&sc, &s, place("b1", hex)).rule, "19.1", "{hex}");
    }
    // Half a row matters: 0706 (odd column, lower) lies south of 0606.
    play(&sc, &mut s, place("b1", "0706"), &mut no_rng());
    play(&sc, &mut s, place("b16", "0805"), &mut no_rng());
}

/// 19.1: a placement that would leave no room to place the remaining divisions in
/// order is refused, and legal_commands never offers one (set-up cannot dead-end).
#[test]
fn rule_19_1_placement_must_leave_room_for_the_divisions_to_the_south() {
    let sc = setup_map()
        .ger("b16", 16, "0101")
        .zoned("german")
        .ger("b1", 1, "0101")
        .zoned("german")
        .build();
    let mut s = start(&sc);
    // The southernmost heights of the zone: row 12 of the odd (lower) columns.
    assert_eq!(refused(&sc, &s, place("b16", "0712")).rule, "19.1");
    assert!(!legal_commands(&sc, &s).contains(&place("b16", "0712")));
    assert!(legal_commands(&sc, &s).contains(&place("b16", "0812")));
    play(&sc, &mut s, place("b16", "0812"), &mut no_rng());
    let legal: Vec<Command> = legal_commands(&sc, &s);
    assert_eq!(
        legal,
        vec![place("b1", "0512"), place("b1", "0712")],
        "only the two hexes south of 0812 remain"
    );
}

// ---------------------------------------------------------------------------------
// 15.1-15.2 Zero Hour.

/// 15.1-15.2 (R-VR-15.2): the Allies play first, from their turn-1 Bombardment Phase
/// (the barrage at the end of the notional movement phase), then their combat phase.
#[test]
fn rule_15_2_play_starts_with_the_allied_bombardment_then_combat() {
    let sc = Scenario::builtin("vimy-ridge").unwrap();
    assert_eq!(sc.data.first_player, A);
    assert_eq!(sc.data.start.turn, 1);
    assert_eq!(sc.data.start.phase, Phase::Bombardment);
    let mut rng = rng_from_seed(3);
    let (mut s, _) = new_game(&sc, &mut rng);
    while let Pending::Setup { .. } = s.pending() {
        let c = legal_commands(&sc, &s)[0].clone();
        let ev = apply(&sc, &s, &c, &mut rng).unwrap();
        s.apply_events(&sc, &ev);
    }
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Bombardment
        }
    );
    assert_eq!(s.turn, 1);
    assert_eq!(s.ex.artillery, SidePair::new(10, 3));
    let ev = apply(&sc, &s, &Command::Done, &mut rng).unwrap();
    assert!(ev.contains(&phase(A, Phase::Combat)), "{ev:?}");
    assert!(!ev.contains(&phase(A, Phase::Movement)));
}

// ---------------------------------------------------------------------------------
// 18.3 divisional integrity.

/// 18.3: units of different divisions may not attack together.
#[test]
fn rule_18_3_units_of_two_divisions_may_not_attack_together() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .cdn("c2", 2, "0403")
        .ger("g1", 79, "0303")
        .build();
    let s = start(&sc);
    let e = refused(&sc, &s, attack("0303", &["c1", "c2"]));
    assert_eq!(e.rule, "18.3");
}

/// 18.3: units of one division attack together.
#[test]
fn rule_18_3_units_of_one_division_attack_together() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .cdn("c2", 1, "0403")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1", "c2"]),
        &mut Script::dice(&[6]),
    );
    assert_eq!(resolved(&ev), (6, 3, "clear".to_string()));
}

/// 18.3 (R-VR-18.3): another division may attack the same unit separately in the same
/// phase; the same division may not attack it twice.
#[test]
fn rule_18_3_another_division_may_attack_the_same_unit_again() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .cdn("c2", 1, "0403")
        .cdn("c3", 2, "0304")
        .cdn("c4", 3, "0204")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    // 3 against 3 on the clear line is column 6; a 3 there is no effect.
    play(
        &sc,
        &mut s,
        attack("0303", &["c1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(s.combat, None, "{:?}", s.pending());
    assert_eq!(loc_of(&s, "g1"), Location::Map(h("0303")));
    assert_eq!(refused(&sc, &s, attack("0303", &["c2"])).rule, "8.0");
    let legal = legal_commands(&sc, &s);
    assert!(legal.contains(&attack("0303", &["c3"])));
    assert!(!legal
        .iter()
        .any(|c| matches!(c, Command::Attack { units, .. } if units.contains(&u("c2")))));
    play(
        &sc,
        &mut s,
        attack("0303", &["c3"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(refused(&sc, &s, attack("0303", &["c2"])).rule, "8.0");
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c4"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (3, 3, "clear".to_string()));
}

/// 18.3 applies to the Germans too.
#[test]
fn rule_18_3_german_divisions_attack_separately() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .params(|_| {})
        .ger("g1", 16, "0302")
        .ger("g2", 79, "0403")
        .cdn("c1", 1, "0303")
        .build();
    let mut sc = sc;
    sc.data.first_player = B;
    let sc = Scenario::from_data(sc.data).unwrap();
    let s = start(&sc);
    assert_eq!(refused(&sc, &s, attack("0303", &["g1", "g2"])).rule, "18.3");
}

// ---------------------------------------------------------------------------------
// 13.1 night, 11.3 and 11.6 replacements.

/// A night-turn map: turn 1 is a night turn; Allied trench hexes 0103-0105 on the west
/// edge; c1 (1st Div) in 0203, c2 and c3 further south; the German g1 in 0505.
fn night_map() -> Vimy {
    vimy(6, 6)
        .night(1)
        .params(|p| p.allied_trench_hexes = vec![h("0103"), h("0104"), h("0105")])
        .cdn("c1", 1, "0203")
        .cdn("c2", 1, "0206")
        .cdn("c3", 2, "0306")
        .ger("g1", 79, "0505")
}

/// 13.1: no movement during a night turn (only arriving replacements "move").
#[test]
fn rule_13_1_no_movement_at_night() {
    let sc = night_map().build();
    let s = start(&sc);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Movement
        }
    );
    let e = refused(&sc, &s, mv("c1", &["0303"]));
    assert_eq!(e.rule, "13.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Move { .. })));
}

/// 13.1: no attack during a night turn.
#[test]
fn rule_13_1_no_attack_at_night() {
    let sc = vimy(6, 6)
        .night(2)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    assert!(legal_commands(&sc, &s).contains(&attack("0303", &["c1"])));
    // The same position on the night turn.
    s.turn = 2;
    assert_eq!(refused(&sc, &s, attack("0303", &["c1"])).rule, "13.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Attack { .. })));
}

/// 11.3: the Allies receive two replacements at the start of their night movement
/// phase; none by day.
#[test]
fn rule_11_3_two_replacements_each_night_movement_phase() {
    let sc = night_map().build();
    let (s, ev) = new_game(&sc, &mut no_rng());
    assert!(ev.contains(&Event::ReplacementsReceived { side: A, count: 2 }));
    assert_eq!(s.ex.replacements, SidePair::new(2, 0));
    let day = vimy(6, 6)
        .cdn("c1", 1, "0203")
        .ger("g1", 79, "0505")
        .build();
    let (s, ev) = new_game(&day, &mut no_rng());
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::ReplacementsReceived { .. })));
    assert_eq!(s.ex.replacements, SidePair::new(0, 0));
}

/// 11.3 (R-VR-11.3a/b): one replacement brings an eliminated unit back depleted on a
/// vacant Allied trench hex; it has "moved" and may not move on.
#[test]
fn rule_11_3_eliminated_unit_returns_depleted_for_one_replacement() {
    let sc = night_map().build();
    let mut s = start(&sc);
    kill(&mut s, "c1");
    let ev = play(&sc, &mut s, replace("c1", "0104", false), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitReplaced {
            unit: u("c1"),
            hex: h("0104"),
            steps: 1
        }]
    );
    assert_eq!(s.ex.replacements.a, 1);
    assert_eq!(loc_of(&s, "c1"), Location::Map(h("0104")));
    assert!(s.units[idx(&s, "c1")].moved);
}

/// 11.3: both replacements bring an eliminated unit back at full strength; a second
/// one then has nothing left.
#[test]
fn rule_11_3_full_strength_return_spends_both_replacements() {
    let sc = night_map().build();
    let mut s = start(&sc);
    kill(&mut s, "c1");
    kill(&mut s, "c2");
    let ev = play(&sc, &mut s, replace("c1", "0103", true), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitReplaced {
            unit: u("c1"),
            hex: h("0103"),
            steps: 2
        }]
    );
    assert_eq!(s.ex.replacements.a, 0);
    assert_eq!(refused(&sc, &s, replace("c2", "0105", false)).rule, "11.3");
}

/// 11.3: two eliminated units may each come back depleted; full strength needs both
/// replacements.
#[test]
fn rule_11_3_two_depleted_units_onto_the_map() {
    let sc = night_map().build();
    let mut s = start(&sc);
    kill(&mut s, "c1");
    kill(&mut s, "c2");
    play(&sc, &mut s, replace("c1", "0103", false), &mut no_rng());
    assert_eq!(refused(&sc, &s, replace("c2", "0105", true)).rule, "11.3");
    assert!(!legal_commands(&sc, &s).contains(&replace("c2", "0105", true)));
    play(&sc, &mut s, replace("c2", "0105", false), &mut no_rng());
    assert_eq!((steps_of(&s, "c1"), steps_of(&s, "c2")), (1, 1));
    assert_eq!(s.ex.replacements.a, 0);
}

/// 11.3: arrivals only on a vacant Allied trench hex not in an enemy ZOC.
#[test]
fn rule_11_3_arrival_on_a_vacant_allied_trench_hex_free_of_enemy_zoc() {
    let sc = night_map()
        .params(|p| p.allied_trench_hexes.push(h("0405")))
        .build();
    let mut s = start(&sc);
    kill(&mut s, "c2");
    // 0202: not a trench hex; 0405: next to g1 (in its ZOC).
    for hex in ["0202", "0405"] {
        assert_eq!(
            refused(&sc, &s, replace("c2", hex, false)).rule,
            "11.3",
            "{hex}"
        );
    }
    // An occupied trench hex.
    let i = idx(&s, "c3");
    s.units[i].loc = Location::Map(h("0105"));
    assert_eq!(refused(&sc, &s, replace("c2", "0105", false)).rule, "11.3");
    let legal: Vec<Command> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Replace { .. }))
        .collect();
    assert_eq!(
        legal,
        vec![
            replace("c2", "0103", false),
            replace("c2", "0103", true),
            replace("c2", "0104", false),
            replace("c2", "0104", true),
        ]
    );
}

/// 11.3: two depleted units on the map are rebuilt, even in an enemy ZOC.
#[test]
fn rule_11_3_rebuild_two_depleted_units_even_in_enemy_zoc() {
    let sc = night_map().ger("g2", 79, "0406").build();
    let mut s = start(&sc);
    hurt(&mut s, "c2");
    hurt(&mut s, "c3");
    let hi = sc.hex_index(h("0306")).unwrap() as usize;
    assert!(zoc::ezoc_map(&sc, &s, A)[hi], "c3 is in the ZOC of g2");
    let ev = play(&sc, &mut s, rebuild(&["c2", "c3"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            Event::UnitRebuilt {
                unit: u("c2"),
                steps: 2
            },
            Event::UnitRebuilt {
                unit: u("c3"),
                steps: 2
            }
        ]
    );
    assert_eq!(s.ex.replacements.a, 0);
    hurt(&mut s, "c1");
    assert_eq!(refused(&sc, &s, rebuild(&["c1"])).rule, "11.3");
}

/// 11.3: a unit that moved this night (an arrival) may not be rebuilt; one
/// replacement may bring a unit on and the other rebuild another.
#[test]
fn rule_11_3_an_arrival_may_not_be_rebuilt() {
    let sc = night_map().build();
    let mut s = start(&sc);
    kill(&mut s, "c1");
    hurt(&mut s, "c2");
    play(&sc, &mut s, replace("c1", "0104", false), &mut no_rng());
    let e = refused(&sc, &s, rebuild(&["c1"]));
    assert_eq!(e.rule, "11.3");
    assert!(e.message.contains("moved"), "{e}");
    assert!(!legal_commands(&sc, &s).contains(&rebuild(&["c1"])));
    play(&sc, &mut s, rebuild(&["c2"]), &mut no_rng());
    assert_eq!(steps_of(&s, "c2"), 2);
}

/// 11.3: replacements are only for night turns.
#[test]
fn rule_11_3_no_replacements_by_day() {
    let sc = vimy(6, 6)
        .params(|p| p.allied_trench_hexes = vec![h("0103")])
        .cdn("c1", 1, "0203")
        .cdn("c2", 1, "0206")
        .ger("g1", 79, "0505")
        .build();
    let mut s = start(&sc);
    kill(&mut s, "c1");
    hurt(&mut s, "c2");
    assert_eq!(refused(&sc, &s, replace("c1", "0103", false)).rule, "11.3");
    assert_eq!(refused(&sc, &s, rebuild(&["c2"])).rule, "11.3");
}

/// 11.3: a replacement may not be saved: what is unused is lost when the phase ends.
#[test]
fn rule_11_3_unused_replacements_are_lost_at_the_end_of_the_phase() {
    let sc = night_map().build();
    let mut s = start(&sc);
    assert_eq!(s.ex.replacements.a, 2);
    play(&sc, &mut s, Command::Done, &mut no_rng());
    assert_eq!(s.ex.replacements.a, 0);
}

/// A night map whose German movement phase is pending: the Allied turn-1 combat phase
/// passes (no attacks at night) and a depleted German spare gives the Germans
/// something to do. A trench hexside 0304|0404 lies away from No Man's Land; another,
/// 0302|0402, borders No Man's Land (0302).
fn german_night_map() -> Vimy {
    vimy(6, 6)
        .night(1)
        .start(Phase::Combat)
        .terrain("0302", &["no-mans-land"])
        .trench("0304", "0404")
        .trench("0302", "0402")
        .cdn("c1", 1, "0102")
        .ger("g1", 79, "0505")
        .ger("g2", 79, "0506")
        .with_last(|d| d.start_depleted = 1)
}

/// 11.6: the Germans receive two replacements in their night movement phase.
#[test]
fn rule_11_6_german_replacements_at_night() {
    let sc = german_night_map().build();
    let (s, ev) = new_game(&sc, &mut no_rng());
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: B,
            phase: Phase::Movement
        }
    );
    assert!(ev.contains(&Event::ReplacementsReceived { side: B, count: 2 }));
    assert_eq!(s.ex.replacements, SidePair::new(0, 2));
}

/// 11.6 (R-VR-11.6): German arrivals on a vacant easternmost-column hex, or next to a
/// trench hexside neither of whose hexes is No Man's Land, never in an Allied ZOC.
#[test]
fn rule_11_6_german_arrival_hexes() {
    let sc = german_night_map().build();
    let mut s = start(&sc);
    kill(&mut s, "g1");
    for ok in ["0601", "0603", "0304", "0404"] {
        assert!(
            apply(&sc, &s, &replace("g1", ok, false), &mut no_rng()).is_ok(),
            "{ok}"
        );
    }
    // Interior hex; next to a trench bordering No Man's Land; in the Allied ZOC (0202 is
    // next to c1 and to the 0302|0402 trench); the east edge hex holding g2.
    for bad in ["0303", "0402", "0302", "0202", "0506"] {
        assert_eq!(
            refused(&sc, &s, replace("g1", bad, false)).rule,
            "11.6",
            "{bad}"
        );
    }
    let ev = play(&sc, &mut s, replace("g1", "0304", true), &mut no_rng());
    assert_eq!(
        ev[0],
        Event::UnitReplaced {
            unit: u("g1"),
            hex: h("0304"),
            steps: 2
        }
    );
    // Both replacements spent: the phase passes by itself.
    assert_eq!(ev[1], phase(B, Phase::Bombardment));
}

// ---------------------------------------------------------------------------------
// 12.1-12.2 victory.

/// A one-turn game starting in the German combat phase (so `done` ends it): the peak
/// 0101, Petit Vimy 0606 (supply) and 0605, Vimy 0506, the easternmost column 06.
fn last_turn() -> Vimy {
    let mut v = vimy(6, 6);
    v.tiny.data.turns.truncate(1);
    v.p.artillery.truncate(1);
    v.tiny.data.first_player = A;
    v.start(Phase::Combat)
}

fn end_game(sc: &Scenario, s: &mut State) -> Event {
    // Pass every remaining phase.
    for _ in 0..20 {
        if s.outcome.is_some() {
            break;
        }
        play(sc, s, Command::Done, &mut no_rng());
    }
    let o = s.outcome.clone().expect("game over");
    Event::GameOver {
        winner: o.winner,
        reason: o.reason,
    }
}

/// 12.1 (R-VR-12.1a): two VP at the end win: all peaks and the Petit Vimy supply hex last
/// occupied by Canadian units.
#[test]
fn rule_12_1_two_victory_points_win_at_the_end() {
    let sc = last_turn()
        .cdn("c1", 1, "0101")
        .cdn("c2", 1, "0606")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        fm_core::vimy_ridge::victory_points(&sc, &s),
        Some((true, true, false))
    );
    assert_eq!(
        end_game(&sc, &mut s),
        Event::GameOver {
            winner: Some(A),
            reason: "the Allies hold 2 VP (all peaks, Petit Vimy supply hex)".into()
        }
    );
}

/// 12.2: fewer than two VP: the Germans win.
#[test]
fn rule_12_2_one_victory_point_is_a_german_win() {
    let sc = last_turn()
        .cdn("c1", 1, "0101")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    assert_eq!(
        end_game(&sc, &mut s),
        Event::GameOver {
            winner: Some(B),
            reason: "the Allies hold 1 VP (all peaks), fewer than 2".into()
        }
    );
}

/// 12.1: "last to have occupied": a Canadian unit that passes over a peak takes it,
/// and the point holds after it leaves; a German unit taking it back cancels it.
#[test]
fn rule_12_1_peaks_count_by_last_occupant() {
    let sc = vimy(6, 6)
        .params(|p| p.peaks = vec![h("0303"), h("0505")])
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0505")
        .ger("g2", 79, "0606")
        .build();
    let mut s = start(&sc);
    assert_eq!(s.control.get(&h("0505")), Some(&B));
    play(&sc, &mut s, mv("c1", &["0303", "0304"]), &mut no_rng());
    assert_eq!(s.control.get(&h("0303")), Some(&A));
    assert_eq!(
        fm_core::vimy_ridge::victory_points(&sc, &s),
        Some((false, false, false))
    );
    let mut t = s.clone();
    let i = idx(&t, "g1");
    t.units[i].loc = Location::Eliminated;
    t.control.insert(h("0505"), A);
    assert_eq!(
        fm_core::vimy_ridge::victory_points(&sc, &t),
        Some((true, false, false))
    );
}

/// 12.1: three Canadian units of one division on the easternmost column are a VP;
/// three of mixed divisions are not.
#[test]
fn rule_12_1_three_units_of_one_division_on_the_easternmost_column() {
    let base = || {
        last_turn()
            .cdn("c1", 1, "0101")
            .cdn("e1", 2, "0602")
            .cdn("e2", 2, "0603")
            .ger("g1", 79, "0303")
    };
    let sc = base().cdn("e3", 2, "0604").build();
    let mut s = start(&sc);
    assert_eq!(
        fm_core::vimy_ridge::victory_points(&sc, &s),
        Some((true, false, true))
    );
    assert_eq!(end_game(&sc, &mut s).clone(), Event::GameOver {
        winner: Some(A),
        reason: "the Allies hold 2 VP (all peaks, three units of one division on the easternmost column)".into()
    });
    let sc = base().cdn("e3", 3, "0604").build();
    let s = start(&sc);
    assert_eq!(
        fm_core::vimy_ridge::victory_points(&sc, &s),
        Some((true, false, false))
    );
}

/// 12.1 (R-VR-12.1b): an Allied unit entering a Vimy town hex wins at once while no
/// German unit holds Petit Vimy.
#[test]
fn rule_12_1_entering_vimy_wins_while_petit_vimy_is_free() {
    let sc = vimy(6, 6)
        .cdn("c1", 1, "0505")
        .ger("g1", 79, "0202")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0506"]), &mut no_rng());
    assert_eq!(
        ev.last().unwrap(),
        &Event::GameOver {
            winner: Some(A),
            reason: "c1 entered Vimy (0506) with Petit Vimy free of Germans".into()
        }
    );
}

/// 12.1: with a German unit in either Petit Vimy hex, entering Vimy wins nothing.
#[test]
fn rule_12_1_entering_vimy_wins_nothing_while_germans_hold_petit_vimy() {
    let sc = vimy(6, 6)
        .cdn("c1", 1, "0505")
        .ger("g1", 79, "0606")
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, mv("c1", &["0506"]), &mut no_rng());
    assert_eq!(s.outcome, None);
}

/// 12.1 "even if only temporarily": passing through a Vimy hex wins.
#[test]
fn rule_12_1_passing_through_vimy_wins() {
    let sc = vimy(6, 6)
        .cdn("c1", 1, "0505")
        .ger("g1", 79, "0202")
        .build();
    let mut s = start(&sc);
    play(&sc, &mut s, mv("c1", &["0506", "0406"]), &mut no_rng());
    assert_eq!(s.outcome.as_ref().and_then(|o| o.winner), Some(A));
}

/// 12.1: the Allies win the instant every German unit is eliminated.
#[test]
fn rule_12_1_all_germans_eliminated_is_an_allied_win() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .cdn("c2", 1, "0403")
        .cdn("c3", 1, "0304")
        .cdn("c4", 1, "0203")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    // 12 against 3 on the clear line: +9, column 11; a 1 is De.
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1", "c2", "c3", "c4"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev.last().unwrap(),
        &Event::GameOver {
            winner: Some(A),
            reason: "side b has no units left".into()
        }
    );
}

// ---------------------------------------------------------------------------------
// 14.1 No Man's Land, 14.2-14.3 trench lines.

/// 14.1: a defender in No Man's Land has its defense halved, rounded down.
#[test]
fn rule_14_1_no_mans_land_halves_defense() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .terrain("0303", &["no-mans-land"])
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (3, 1, "clear".to_string()));
}

/// 14.1: a unit attacked in No Man's Land never gets a trench line.
#[test]
fn rule_14_1_no_trench_benefit_in_no_mans_land() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .terrain("0303", &["no-mans-land"])
        .trench("0302", "0303")
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (3, 1, "clear".to_string()));
}

/// 14.2: attacked across a trench hexside, the defender uses the trench line.
#[test]
fn rule_14_2_attack_across_a_trench_hexside_uses_the_trench_line() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .trench("0302", "0303")
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (3, 3, "trench-woods".to_string()));
}

/// 14.2: whichever side of the trench the attack comes from, and whoever attacks.
#[test]
fn rule_14_2_trench_line_for_either_side_from_either_side() {
    let mut sc = vimy(6, 6)
        .start(Phase::Combat)
        .trench("0302", "0303")
        .ger("g1", 79, "0302")
        .cdn("c1", 1, "0303")
        .build();
    sc.data.first_player = B;
    let sc = Scenario::from_data(sc.data).unwrap();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["g1"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (2, 2, "trench-woods".to_string()));
}

/// 14.2 (R-VR-14.2a): an attack that also comes from a flank, not across the trench,
/// uses the hex's own terrain.
#[test]
fn rule_14_2_flank_attack_uses_the_hex_terrain() {
    let sc = vimy(6, 6)
        .start(Phase::Combat)
        .trench("0302", "0303")
        .cdn("c1", 1, "0302")
        .cdn("c2", 1, "0403")
        .ger("g1", 79, "0303")
        .build();
    let mut s = start(&sc);
    let ev = play(
        &sc,
        &mut s,
        attack("0303", &["c1", "c2"]),
        &mut Script::dice(&[3]),
    );
    assert_eq!(resolved(&ev), (6, 3, "clear".to_string()));
}

/// 14.2 with 8.2.2 Important (R-VR-14.2b): attacked across a trench, the trench line
/// ("Trench hexside, Woods", -2) is in force, and the defender uses it or a better line
/// of its hex. At 0: on a peak (-1) the Peak line reads grid column 2, the trench line
/// grid 3, so the peak; in a town (-3, grid 4) the trench line.
#[test]
fn rule_14_2_trench_line_or_a_better_hex_line() {
    for (terrain, line, column) in [("peak", "peak", "0"), ("town", "trench-woods", "0")] {
        let sc = vimy(6, 6)
            .start(Phase::Combat)
            .terrain("0303", &[terrain])
            .trench("0302", "0303")
            .cdn("c1", 1, "0302")
            .ger("g1", 79, "0303")
            .build();
        let mut s = start(&sc);
        let ev = play(
            &sc,
            &mut s,
            attack("0303", &["c1"]),
            &mut Script::dice(&[3]),
        );
        assert_eq!(resolved(&ev), (3, 3, line.to_string()), "{terrain}");
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::CombatResolved { column: c, .. } if c == column)),
            "{terrain}: {ev:?}"
        );
    }
}

/// 14.2 (R-VR-14.2c): a trench hexside stops a ZOC into a hex held by an opposing unit,
/// not into an empty hex.
#[test]
fn rule_14_2_trench_blocks_zoc_into_an_enemy_held_hex() {
    let sc = vimy(6, 6)
        .trench("0302", "0303")
        .trench("0302", "0402")
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let s = start(&sc);
    let at = |x: &str| sc.hex_index(h(x)).unwrap() as usize;
    let allied_zoc = zoc::ezoc_map(&sc, &s, B);
    assert!(
        !allied_zoc[at("0303")],
        "c1's ZOC stops at the trench into g1's hex"
    );
    assert!(
        allied_zoc[at("0402")],
        "but crosses the trench into an empty hex"
    );
    let german_zoc = zoc::ezoc_map(&sc, &s, A);
    assert!(
        !german_zoc[at("0302")],
        "g1's ZOC stops at the trench into c1's hex"
    );
    // Without the trench both ZOCs reach.
    let open = vimy(6, 6)
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let s = start(&open);
    assert!(zoc::ezoc_map(&open, &s, B)[at("0303")]);
}

/// 14.3: a trench hexside costs nothing to cross.
#[test]
fn rule_14_3_trench_hexside_has_no_movement_effect() {
    let sc = vimy(6, 6)
        .trench("0302", "0303")
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0606")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("c1", &["0303", "0304"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitMoved {
            unit: u("c1"),
            from: Some(h("0302")),
            path: vec![h("0303"), h("0304")],
            mp: Mp::whole(2)
        }]
    );
}

// ---------------------------------------------------------------------------------
// 16.0 standard rules modifications, 18.2 support fire.

/// 16.0 (R-VR-16.0a): a short allotment is drawn at random from the marker mix (not
/// the lowest values); a full one draws nothing.
#[test]
fn rule_16_0_short_support_allotment_is_drawn_at_random() {
    let sc = vimy(6, 6)
        .support(&[1, 2, 3, 4], &[1, 2], 2, 2)
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0606")
        .build();
    // First draw: index 3 of [1,2,3,4] (the 4); second: index 0 of [1,2,3] (the 1).
    let (s, ev) = new_game(&sc, &mut Script::new(&[3, 0]));
    assert!(ev.contains(&Event::SupportAllotted {
        side: A,
        count: 2,
        values: Some(vec![1, 4])
    }));
    assert!(ev.contains(&Event::SupportAllotted {
        side: B,
        count: 2,
        values: Some(vec![1, 2])
    }));
    assert_eq!(s.support.a.available, vec![1, 4]);
}

/// 16.0 (R-VR-16.0b): the artillery replaces the system bombardment.
#[test]
fn rule_16_0_system_bombardment_is_replaced_by_artillery() {
    let sc = vimy(6, 6)
        .start(Phase::Bombardment)
        .support(&[2], &[2], 1, 1)
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .build();
    let s = start(&sc);
    let e = refused(
        &sc,
        &s,
        Command::Bombard {
            hex: h("0303"),
            markers: 1,
        },
    );
    assert_eq!(e.rule, "17.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Bombard { .. })));
}

/// A combat on woods 0404, three hexes from Petit Vimy (0606, 0605), each side with one
/// support marker.
fn folie(range: u8) -> Scenario {
    vimy(6, 6)
        .start(Phase::Combat)
        .params(|p| p.la_folie_range = range)
        .terrain("0404", &["woods"])
        .support(&[2], &[1], 1, 1)
        .cdn("c1", 1, "0304")
        .ger("g1", 79, "0404")
        .build()
}

/// 18.2: no Allied support fire in a combat in La Folie Woods: the Allied commitment
/// steps are skipped and a commit is refused.
#[test]
fn rule_18_2_no_allied_support_fire_in_la_folie_woods() {
    let sc = folie(7);
    assert!(fm_core::vimy_ridge::la_folie(&sc, h("0404")));
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0404", &["c1"]), &mut no_rng());
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 1 });
    // Elsewhere the attacker commits first.
    let sc = folie(0);
    assert!(!fm_core::vimy_ridge::la_folie(&sc, h("0404")));
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0404", &["c1"]), &mut no_rng());
    assert_eq!(s.pending(), Pending::SupportFire { side: A, step: 0 });
}

/// 18.2: an Allied defender in La Folie Woods gets no support fire either.
#[test]
fn rule_18_2_no_allied_defensive_support_fire_in_la_folie_woods() {
    let mut sc = vimy(6, 6)
        .start(Phase::Combat)
        .params(|p| p.la_folie_range = 7)
        .terrain("0404", &["woods"])
        .support(&[2], &[1], 1, 1)
        .cdn("c1", 1, "0404")
        .ger("g1", 79, "0304")
        .build();
    sc.data.first_player = B;
    let sc = Scenario::from_data(sc.data).unwrap();
    let mut s = start(&sc);
    play(&sc, &mut s, attack("0404", &["g1"]), &mut no_rng());
    assert_eq!(s.pending(), Pending::SupportFire { side: B, step: 0 });
    let ev = play(
        &sc,
        &mut s,
        Command::SupportFire { commit: true },
        &mut no_rng(),
    );
    // The Allied steps (1, 3) are skipped: the markers are revealed and rolled.
    assert!(
        ev.contains(&Event::SupportRevealed {
            attacker: vec![1],
            defender: vec![]
        }),
        "{ev:?}"
    );
    assert_eq!(
        s.support.a.available,
        vec![2],
        "the Allied marker was never placed"
    );
}

// ---------------------------------------------------------------------------------
// Whole games.

/// Random games of the built-in scenario keep the exclusive rules at every step (the
/// conformance suite checks the engine-wide contract; `play --games 1000` the rest):
/// one unit per hex, the German set-up order, nothing moves or attacks at night, one
/// division per attack, no artillery of either side into La Folie Woods and none on an
/// unobserved unit, at most two replacements, aircraft only ever lost, a result after
/// at most 11 turns.
#[test]
fn vimy_random_games_keep_the_exclusive_rules() {
    let sc = std::sync::Arc::new(Scenario::builtin("vimy-ridge").unwrap());
    let p = match &sc.data.rules {
        RuleSet::VimyRidge(p) => p.clone(),
        _ => unreachable!(),
    };
    let y = |x: Hex| 2 * x.row as i32 + (x.col % 2) as i32;
    for seed in 1..=3u64 {
        let mut m = Match::new(sc.clone(), seed);
        let mut rng = rng_from_seed(100 + seed);
        let mut setup_checked = false;
        let mut lost = 0;
        while !m.is_over() {
            let s = m.state().clone();
            if !setup_checked && !matches!(s.pending(), Pending::Setup { .. }) {
                setup_checked = true;
                let band = |f: &str| -> Vec<i32> {
                    s.units
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| sc.units[*i].data.formation == f)
                        .filter_map(|(_, u)| u.hex().map(y))
                        .collect()
                };
                let o = &p.german_setup_order;
                for w in o.windows(2) {
                    let (n, so) = (band(&w[0]), band(&w[1]));
                    assert!(
                        n.iter().max() < so.iter().min(),
                        "seed {seed}: {} not north of {}",
                        w[0],
                        w[1]
                    );
                }
            }
            let cmd = agents::random(&sc, &s, &mut rng).expect("a legal command");
            if let Command::Artillery { hex, .. } = &cmd {
                assert!(observed(&sc, &s, s.active, *hex), "seed {seed}: {cmd:?}");
                assert!(
                    !fm_core::vimy_ridge::la_folie(&sc, *hex),
                    "seed {seed}: {cmd:?}"
                );
            }
            let night = fm_core::vimy_ridge::is_night(&sc, &s);
            let events = m.apply(&cmd).expect("listed command accepted").to_vec();
            for e in &events {
                match e {
                    Event::UnitMoved { .. } | Event::AttackDeclared { .. } if night => {
                        panic!("seed {seed}: {e:?} at night")
                    }
                    Event::AttackDeclared { attackers, .. } => {
                        let divs: std::collections::BTreeSet<&str> = attackers
                            .iter()
                            .map(|a| {
                                sc.units[sc.unit_index(a).unwrap() as usize]
                                    .data
                                    .formation
                                    .as_str()
                            })
                            .collect();
                        assert_eq!(divs.len(), 1, "seed {seed}: {e:?}");
                    }
                    Event::AircraftLost { remaining } => {
                        lost += 1;
                        assert_eq!(*remaining, p.aircraft - lost);
                    }
                    _ => {}
                }
            }
            let s = m.state();
            let mut seen = std::collections::HashSet::new();
            for u in &s.units {
                if let Some(x) = u.hex() {
                    assert!(seen.insert(x), "seed {seed}: two units in {x}");
                }
            }
            assert!(s.ex.replacements.a <= 2 && s.ex.replacements.b <= 2);
            assert!(s.turn <= 11);
        }
        let nights = (1..=m.state().turn as usize)
            .filter(|t| sc.data.turns[t - 1].night)
            .count() as u8;
        assert_eq!(
            lost,
            nights.min(p.aircraft),
            "seed {seed}: one aircraft lost each night"
        );
    }
}
