//! Rule-numbered tests for the Vimy Ridge artillery (`../shared/rules/vimy-ridge.txt`):
//! 16.0 (no bombardment retreat), 17.1-17.6 (allotment, placing, observation, the
//! Artillery Bombardment Modifiers and the World War One Bombardment Results Table,
//! gas), 18.1 the Red Baron and La Folie Woods (17.2: no bombardment there by either
//! side; 18.2 defines the hexes).
//!
//! Every test builds a tiny map with the Vimy Ridge terrain chart and exclusive-rule
//! parameters (`common::vimy`) and compares the exact events `apply` returns, or for a
//! refusal the exact rule number and the unchanged state (`refused`). Side `a` is the
//! Allies, side `b` the Germans. North is row 01. Rulings: `docs/rulings.md` (R-VR-17.2,
//! R-VR-17.3a-c, R-VR-17.4, R-VR-18.1, R-VR-18.2, R-VR-16.0b).
//!
//! Hex ids are column then row, odd columns sit half a hex lower: an even column
//! (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),(c-1,r),(c-1,r-1); an odd column
//! (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
//!
//! Lines of sight run corner to corner (R-VR-17.3a), and a line is blocked by every
//! blocking hex it meets between its ends, a grazed corner or hexside included: a hex
//! in line blocks, one beside the line does not. The wall used here: observer 0402,
//! target 0406 (same column, four hexes apart), wall 0304-0404-0504.
use crate::common;
use common::vimy::*;
use common::*;
use fm_core::*;

use Side::{A, B};

// ---------------------------------------------------------------------------------
// Events and commands.

fn declared(hex: &str, defenders: &[&str], markers: u8, gas: bool) -> Event {
    Event::ArtilleryDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        markers,
        gas,
    }
}

fn firing(hex: &str, defenders: &[&str], markers: u8, gas: bool) -> Event {
    Event::ArtilleryFiring {
        hex: h(hex),
        defenders: ids(defenders),
        markers,
        gas,
    }
}

/// One bombardment die: `hit` is spelled out in each test (the Results Table: a
/// modified 2 or less, or a natural 1, hits).
fn fired(hex: &str, die: u8, modifier: i8, hit: bool) -> Event {
    Event::ArtilleryFired {
        hex: h(hex),
        die,
        modifier,
        total: die as i8 + modifier,
        hit,
    }
}

fn ended(hex: &str) -> Event {
    Event::CombatEnded { hex: h(hex) }
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

fn aircraft(hex: &str) -> Command {
    Command::PlaceAircraft { hex: h(hex) }
}

/// The events that open game turn `turn`: no support fire on the tiny map, then the
/// Artillery Track's `a`/`b` markers (17.1).
fn turn_start(turn: u16, a: u8, b: u8) -> Vec<Event> {
    vec![
        Event::TurnStarted { turn },
        Event::SupportAllotted {
            side: A,
            count: 0,
            values: Some(vec![]),
        },
        Event::SupportAllotted {
            side: B,
            count: 0,
            values: Some(vec![]),
        },
        Event::ArtilleryAllotted { side: A, count: a },
        Event::ArtilleryAllotted { side: B, count: b },
    ]
}

fn cat(parts: &[&[Event]]) -> Vec<Event> {
    parts.iter().flat_map(|p| p.iter().cloned()).collect()
}

fn no_rng() -> Script {
    Script::new(&[])
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

/// 17.2: places artillery markers; placing rolls no dice.
fn place(sc: &Scenario, s: &mut State, hex: &str, markers: u8, gas: bool) -> Vec<Event> {
    play_dice(sc, s, artillery(hex, markers, gas), &[])
}

/// 17.2: `done` in the Bombardment Phase rolls the placed markers with exactly `dice`.
fn fire(sc: &Scenario, s: &mut State, dice: &[u8]) -> Vec<Event> {
    play_dice(sc, s, Command::Done, dice)
}

fn assert_pending(s: &State, side: Side, ph: Phase) {
    assert_eq!(s.pending(), Pending::Phase { side, phase: ph });
}

/// Plays `done` (at least once, rolling nothing) until the game waits for `side` in
/// `ph`. Returns the events.
fn done_until(sc: &Scenario, s: &mut State, side: Side, ph: Phase) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..40 {
        all.extend(play_dice(sc, s, Command::Done, &[]));
        if s.pending() == (Pending::Phase { side, phase: ph }) {
            return all;
        }
    }
    panic!("never reached {side} {ph}: {:?}", s.pending());
}

/// Starts a game, checks its opening events.
fn begin(sc: &Scenario, opening: Vec<Event>) -> State {
    let (s, ev) = new_game(sc, &mut no_rng());
    assert_eq!(ev, opening);
    s
}

/// A game started in the Allied Bombardment Phase of turn 1 (a day turn, 8/5).
fn begin_bombardment(v: Vimy) -> (Scenario, State) {
    let sc = v.start(Phase::Bombardment).build();
    let s = begin(
        &sc,
        cat(&[&turn_start(1, 8, 5), &[phase(A, Phase::Bombardment)]]),
    );
    assert_pending(&s, A, Phase::Bombardment);
    (sc, s)
}

/// A game started in the Allied Movement Phase of turn 1 (a day turn, 8/5).
fn begin_movement(v: Vimy) -> (Scenario, State) {
    let sc = v.start(Phase::Movement).build();
    let s = begin(
        &sc,
        cat(&[&turn_start(1, 8, 5), &[phase(A, Phase::Movement)]]),
    );
    assert_pending(&s, A, Phase::Movement);
    (sc, s)
}

/// After the Allied markers of a night turn are fired: no attack at night (13.1), so
/// the Allied combat and mobile phases pass and the Germans get their night
/// replacements (11.6). With a depleted German unit to rebuild (`rebuild`) they wait in
/// their Movement Phase, else in their Bombardment Phase.
fn night_tail(rebuild: bool) -> Vec<Event> {
    let mut v = vec![
        phase(A, Phase::Combat),
        phase(A, Phase::MobileMovement),
        phase(A, Phase::MobileCombat),
        phase(B, Phase::Movement),
        Event::ReplacementsReceived { side: B, count: 2 },
    ];
    if !rebuild {
        v.push(phase(B, Phase::Bombardment));
    }
    v
}

/// The hexes of the `Artillery` commands `legal_commands` lists now, sorted.
fn listed_targets(sc: &Scenario, s: &State) -> Vec<Hex> {
    let mut v: Vec<Hex> = legal_commands(sc, s)
        .into_iter()
        .filter_map(|c| match c {
            Command::Artillery { hex, .. } => Some(hex),
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Legal listing against `apply`: every listed `Artillery` command is accepted, every
/// hex holding an enemy of the phasing side is listed exactly when one marker may be
/// placed on it, and the listed hexes are `want`.
fn check_listing(sc: &Scenario, s: &State, want: &[&str]) {
    let listed: Vec<Command> = legal_commands(sc, s)
        .into_iter()
        .filter(|c| matches!(c, Command::Artillery { .. }))
        .collect();
    for c in &listed {
        if let Err(e) = apply(sc, s, c, &mut no_rng()) {
            panic!("listed {c:?} refused: {e}");
        }
    }
    let targets = listed_targets(sc, s);
    let mut enemy: Vec<Hex> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side != s.active)
        .filter_map(|(_, x)| x.hex())
        .collect();
    enemy.sort();
    enemy.dedup();
    for hx in enemy {
        let ok = apply(
            sc,
            s,
            &Command::Artillery {
                hex: hx,
                markers: 1,
                gas: false,
            },
            &mut no_rng(),
        )
        .is_ok();
        assert_eq!(targets.contains(&hx), ok, "{hx}: listed vs accepted");
    }
    let mut want: Vec<Hex> = want.iter().map(|x| h(x)).collect();
    want.sort();
    assert_eq!(targets, want);
}

// ---------------------------------------------------------------------------------
// Maps.

/// 7x7 clear: c1 (0404) next to g1 (0403), and a spare adjacent pair c9 (0206) / g9
/// (0207) so that the Combat Phase after the bombardment is really pending.
fn art() -> Vimy {
    vimy(7, 7)
        .cdn("c1", 1, "0404")
        .ger("g1", 79, "0403")
        .cdn("c9", 2, "0206")
        .ger("g9", 79, "0207")
}

/// 26x9 clear, for lines of sight: the spare pair c9 (2501) / g9 (2601) far east, more
/// than ten hexes from every hex of columns 01-13.
fn los_map() -> Vimy {
    vimy(26, 9).cdn("c9", 2, "2501").ger("g9", 79, "2601")
}

/// The column line: observer c1 in 0402, target g1 in 0406, four hexes south.
fn column_line() -> Vimy {
    los_map().cdn("c1", 1, "0402").ger("g1", 79, "0406")
}

/// A wall of `terrain` across the column line.
fn walled(v: Vimy, terrain: &str) -> Vimy {
    v.terrain("0304", &[terrain])
        .terrain("0404", &[terrain])
        .terrain("0504", &[terrain])
}

// ---------------------------------------------------------------------------------
// 17.1 Artillery Bombardment Limitations.

/// 17.1: at the beginning of each game turn both sides receive the markers the
/// Artillery Track prints for it ("8/5": eight Allied, five German).
#[test]
fn rule_17_1_markers_allotted_to_both_sides_at_turn_start() {
    let sc = art()
        .params(|p| {
            p.artillery = vec![
                SidePair::new(6, 4),
                SidePair::new(3, 2),
                SidePair::new(8, 5),
            ]
        })
        .start(Phase::Bombardment)
        .build();
    let s = begin(
        &sc,
        cat(&[&turn_start(1, 6, 4), &[phase(A, Phase::Bombardment)]]),
    );
    assert_eq!(s.ex.artillery, SidePair::new(6, 4));
    assert_pending(&s, A, Phase::Bombardment);
}

/// 17.1-17.2: markers not played may not be saved for a later game turn: the next
/// turn's allotment replaces what either side has left.
#[test]
fn rule_17_1_unused_markers_not_carried_over_to_the_next_turn() {
    let (sc, mut s) = begin_bombardment(art().params(|p| {
        p.artillery = vec![
            SidePair::new(8, 5),
            SidePair::new(3, 2),
            SidePair::new(8, 5),
        ]
    }));
    place(&sc, &mut s, "0403", 1, false);
    assert_eq!(s.ex.artillery, SidePair::new(7, 5));
    fire(&sc, &mut s, &[6]);
    done_until(&sc, &mut s, B, Phase::Bombardment);
    place(&sc, &mut s, "0404", 1, false);
    assert_eq!(s.ex.artillery, SidePair::new(7, 4));
    fire(&sc, &mut s, &[6]);
    let ev = done_until(&sc, &mut s, A, Phase::Bombardment);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 2 })
        .expect("turn 2 started");
    assert_eq!(
        ev[k..],
        cat(&[
            &turn_start(2, 3, 2),
            &[phase(A, Phase::Movement), phase(A, Phase::Bombardment)]
        ])[..]
    );
    assert_eq!(s.ex.artillery, SidePair::new(3, 2));
}

/// 17.1: a side places no more markers than it has left this game turn.
#[test]
fn rule_17_1_asking_more_markers_than_left_refused() {
    let sc = art()
        .params(|p| p.artillery[0] = SidePair::new(1, 5))
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(1, 1, 5), &[phase(A, Phase::Bombardment)]]),
    );
    assert_pending(&s, A, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, artillery("0403", 2, false)).rule, "17.1");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
    assert_eq!(s.ex.artillery.a, 0);
    assert_eq!(refused(&sc, &s, artillery("0207", 1, false)).rule, "17.1");
    assert_eq!(listed_targets(&sc, &s), Vec::<Hex>::new());
}

/// 17.1: "to be used by the German player during his turn only": in the Allied
/// Bombardment Phase only the Allied markers count, the German ones wait untouched for
/// the German turn.
#[test]
fn rule_17_1_german_markers_usable_only_in_the_german_turn() {
    let sc = art()
        .params(|p| p.artillery[0] = SidePair::new(1, 5))
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(1, 1, 5), &[phase(A, Phase::Bombardment)]]),
    );
    place(&sc, &mut s, "0403", 1, false);
    assert_eq!(refused(&sc, &s, artillery("0207", 1, false)).rule, "17.1");
    assert_eq!(s.ex.artillery, SidePair::new(0, 5));
    fire(&sc, &mut s, &[6]);
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert_eq!(s.ex.artillery, SidePair::new(0, 5));
    let ev = place(&sc, &mut s, "0404", 2, false);
    assert_eq!(ev, vec![declared("0404", &["c1"], 2, false)]);
    let ev = place(&sc, &mut s, "0206", 2, false);
    assert_eq!(ev, vec![declared("0206", &["c9"], 2, false)]);
    assert_eq!(s.ex.artillery, SidePair::new(0, 1));
}

/// 17.1, R-VR-16.0b: the artillery replaces the system bombardment: `bombard` is
/// refused even with support fire markers in hand, none is listed, and artillery
/// draws no support fire from either side (17.2: "the enemy player cannot place his
/// own bombardment marker ... in response").
#[test]
fn rule_17_1_system_bombardment_replaced_by_artillery() {
    let sc = art()
        .support(&[1, 2], &[1, 2], 2, 2)
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        vec![
            Event::TurnStarted { turn: 1 },
            Event::SupportAllotted {
                side: A,
                count: 2,
                values: Some(vec![1, 2]),
            },
            Event::SupportAllotted {
                side: B,
                count: 2,
                values: Some(vec![1, 2]),
            },
            Event::ArtilleryAllotted { side: A, count: 8 },
            Event::ArtilleryAllotted { side: B, count: 5 },
            phase(A, Phase::Bombardment),
        ],
    );
    assert_pending(&s, A, Phase::Bombardment);
    let bombard = Command::Bombard {
        hex: h("0403"),
        markers: 1,
    };
    assert_eq!(refused(&sc, &s, bombard).rule, "17.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Bombard { .. })));
    let support = s.support.clone();
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 1, false),
            fired("0403", 6, 0, false),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.support, support);
}

// ---------------------------------------------------------------------------------
// 17.2 Utilizing Bombardment Markers.

/// 17.2: "no more than two bombardment markers per enemy unit" (and at least one).
#[test]
fn rule_17_2_two_markers_at_most_per_unit() {
    let (sc, mut s) = begin_bombardment(art());
    assert_eq!(refused(&sc, &s, artillery("0403", 3, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0403", 0, false)).rule, "17.2");
    let ev = place(&sc, &mut s, "0403", 2, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 2, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    assert_eq!(s.ex.artillery.a, 6);
    assert_eq!(listed_targets(&sc, &s), vec![h("0207")]);
}

/// 17.2: the two-marker limit holds across commands: one, then one more, then a third
/// is refused. The two placements are one bombardment of the hex, two dice.
#[test]
fn rule_17_2_two_markers_per_unit_across_two_commands() {
    let (sc, mut s) = begin_bombardment(art());
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 2, false)).rule, "17.2");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    assert_eq!(s.ex.artillery.a, 6);
    let ev = fire(&sc, &mut s, &[6, 5]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 2, false),
            fired("0403", 6, 0, false),
            fired("0403", 5, 0, false),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.2: markers go "on any enemy units": an empty hex or a hex of one's own is no
/// target.
#[test]
fn rule_17_2_only_enemy_occupied_hexes() {
    let (sc, s) = begin_bombardment(art());
    assert_eq!(refused(&sc, &s, artillery("0503", 1, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0404", 1, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0206", 1, false)).rule, "17.2");
    assert_eq!(listed_targets(&sc, &s), vec![h("0207"), h("0403")]);
}

/// 17.2: "bombardment can only ever occur at the end of a player's movement phase,
/// before his combat phase begins": the Bombardment Phase only.
#[test]
fn rule_17_2_only_in_the_bombardment_phase() {
    let (sc, mut s) = begin_movement(art());
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![phase(A, Phase::Bombardment)]);
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
    fire(&sc, &mut s, &[6]);
    assert_pending(&s, A, Phase::Combat);
    assert_eq!(refused(&sc, &s, artillery("0207", 1, false)).rule, "17.2");
    assert!(listed_targets(&sc, &s).is_empty());
}

/// 17.2: the markers are placed first ("immediately after all desired markers have
/// been played"): placing rolls nothing, `done` then rolls one die per marker, hex by
/// hex in the order the hexes were first given a marker.
#[test]
fn rule_17_2_placing_rolls_nothing_and_done_fires_hex_by_hex_in_order() {
    let (sc, mut s) = begin_bombardment(art());
    assert_eq!(
        place(&sc, &mut s, "0207", 1, false),
        vec![declared("0207", &["g9"], 1, false)]
    );
    assert_eq!(
        place(&sc, &mut s, "0403", 2, false),
        vec![declared("0403", &["g1"], 2, false)]
    );
    assert_eq!(
        place(&sc, &mut s, "0207", 1, false),
        vec![declared("0207", &["g9"], 1, false)]
    );
    assert_eq!(s.ex.artillery.a, 4);
    assert_eq!(s.units[idx(&s, "g1")].steps, 2);
    assert_pending(&s, A, Phase::Bombardment);
    let ev = fire(&sc, &mut s, &[6, 5, 4, 3]);
    assert_eq!(
        ev,
        vec![
            firing("0207", &["g9"], 2, false),
            fired("0207", 6, 0, false),
            fired("0207", 5, 0, false),
            ended("0207"),
            firing("0403", &["g1"], 2, false),
            fired("0403", 4, 0, false),
            fired("0403", 3, 0, false),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert!(s.ex.artillery_plan.is_empty());
    assert_eq!(s.ex.artillery.a, 4);
}

/// 17.2 note, R-VR-17.2: "a unit can only ever suffer one hit from a bombardment, even
/// if two bombardment markers are placed upon the same enemy unit": both dice are
/// rolled and logged, the unit loses one step.
#[test]
fn rule_17_2_unit_hit_by_both_markers_loses_one_step() {
    let (sc, mut s) = begin_bombardment(art());
    place(&sc, &mut s, "0403", 2, false);
    let ev = fire(&sc, &mut s, &[1, 2]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 2, false),
            fired("0403", 1, 0, true),
            fired("0403", 2, 0, true),
            step_lost("g1", 1),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.units[idx(&s, "g1")].steps, 1);
}

/// 17.5: a hit depletes the unit, "or eliminated if it was already depleted" (here a
/// unit set up depleted; both markers hit, it is eliminated once).
#[test]
fn rule_17_5_hit_on_depleted_unit_eliminates_it() {
    let (sc, mut s) = begin_bombardment(art().with_last(|d| d.start_depleted = 1));
    assert_eq!(s.units[idx(&s, "g9")].steps, 1);
    place(&sc, &mut s, "0207", 2, false);
    let ev = fire(&sc, &mut s, &[2, 1]);
    assert_eq!(
        ev,
        vec![
            firing("0207", &["g9"], 2, false),
            fired("0207", 2, 0, true),
            fired("0207", 1, 0, true),
            eliminated("g9"),
            ended("0207"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.units[idx(&s, "g9")].loc, Location::Eliminated);
}

/// 17.5, 16.0 (7.7.1), R-VR-16.0b: "retreat is never permitted after any bombardment":
/// a hit unit takes its step loss at once, the next hex is fired in the same `done`,
/// and what is pending afterwards is the Combat Phase, never a retreat.
#[test]
fn rule_17_5_no_retreat_is_ever_offered_after_a_hit() {
    let (sc, mut s) = begin_bombardment(art());
    place(&sc, &mut s, "0403", 1, false);
    place(&sc, &mut s, "0207", 1, false);
    let ev = fire(&sc, &mut s, &[1, 2]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 1, false),
            fired("0403", 1, 0, true),
            step_lost("g1", 1),
            ended("0403"),
            firing("0207", &["g9"], 1, false),
            fired("0207", 2, 0, true),
            step_lost("g9", 1),
            ended("0207"),
            phase(A, Phase::Combat),
        ]
    );
    assert_pending(&s, A, Phase::Combat);
    assert!(s.combat.is_none());
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Retreat { .. } | Command::StiffResistance { .. })));
    let retreat = Command::Retreat {
        unit: u("g1"),
        path: vec![h("0402")],
        displace: Vec::new(),
    };
    assert!(apply(&sc, &s, &retreat, &mut no_rng()).is_err());
}

// ---------------------------------------------------------------------------------
// 17.3 Observation.

/// 17.3: a unit adjacent to an observing unit of the other side is observed, whatever
/// the terrain (here everything around is woods, the target too).
#[test]
fn rule_17_3_adjacent_target_observed_whatever_the_terrain() {
    let mut v = los_map().cdn("c1", 1, "0404").ger("g1", 79, "0403");
    for hx in [
        "0402", "0403", "0404", "0405", "0302", "0303", "0304", "0502", "0503", "0504",
    ] {
        v = v.terrain(hx, &["woods"]);
    }
    let (sc, mut s) = begin_bombardment(v);
    assert!(observed(&sc, &s, A, h("0403")));
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
}

/// 17.3: a line of sight of at most 10 hexes over clear terrain observes; 11 hexes do
/// not.
#[test]
fn rule_17_3_line_of_sight_up_to_10_hexes_observes_beyond_not() {
    let (sc, mut s) = begin_bombardment(
        los_map()
            .cdn("c1", 1, "0105")
            .ger("g1", 79, "1105")
            .ger("g2", 79, "1205"),
    );
    let l = sc.layout();
    assert_eq!(l.distance(h("0105"), h("1105")), 10);
    assert_eq!(l.distance(h("0105"), h("1205")), 11);
    assert!(l.distance(h("2501"), h("1205")) > 10);
    assert!(observed(&sc, &s, A, h("1105")));
    assert!(!observed(&sc, &s, A, h("1205")));
    assert_eq!(refused(&sc, &s, artillery("1205", 1, false)).rule, "17.3");
    let ev = place(&sc, &mut s, "1105", 1, false);
    assert_eq!(ev, vec![declared("1105", &["g1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[3]);
    assert_eq!(
        ev,
        vec![
            firing("1105", &["g1"], 1, false),
            fired("1105", 3, 0, false),
            ended("1105"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.3: a wall of woods across the line blocks it: the target is not observed.
#[test]
fn rule_17_3_woods_wall_blocks_the_line() {
    let (sc, s) = begin_bombardment(walled(column_line(), "woods"));
    assert!(!observed(&sc, &s, A, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
    assert_eq!(listed_targets(&sc, &s), vec![h("2601")]);
}

/// 17.3, R-VR-17.3b: every non-clear hex terrain blocks — town, hill, No Man's Land
/// ("not considered a clear terrain hex") and peak — for an observer not on a peak;
/// a wall of clear hexes does not.
#[test]
fn rule_17_3_wall_of_any_non_clear_terrain_blocks() {
    for t in ["town", "hill", "no-mans-land", "peak", "woods"] {
        let (sc, s) = begin_bombardment(walled(column_line(), t));
        assert!(!observed(&sc, &s, A, h("0406")), "{t}");
        assert_eq!(
            refused(&sc, &s, artillery("0406", 1, false)).rule,
            "17.3",
            "{t}"
        );
    }
    let (sc, mut s) = begin_bombardment(walled(column_line(), "clear"));
    let ev = place(&sc, &mut s, "0406", 1, false);
    assert_eq!(ev, vec![declared("0406", &["g1"], 1, false)]);
}

/// 17.3's example, R-VR-17.3a: "a unit on a hill hex that is not a peak cannot observe
/// past any woods hex". A hill observer in 1004 and a target in 1009, down the same
/// column, with one woods hex in 1006 between them: not observed, and no bombardment.
/// Every corner-to-corner line meets 1006 (the outermost graze its corners).
#[test]
fn rule_17_3_single_woods_hex_in_line_blocks_a_hill_observer() {
    let v = los_map()
        .cdn("c1", 1, "1004")
        .ger("g1", 79, "1009")
        .terrain("1004", &["hill"])
        .terrain("1006", &["woods"]);
    let (sc, s) = begin_bombardment(v);
    assert!(!observed(&sc, &s, A, h("1009")));
    assert_eq!(refused(&sc, &s, artillery("1009", 1, false)).rule, "17.3");
    assert_eq!(listed_targets(&sc, &s), vec![h("2601")]);
    // The same woods hex one column aside leaves the lines on the other side clear.
    let v = los_map()
        .cdn("c1", 1, "1004")
        .ger("g1", 79, "1009")
        .terrain("1004", &["hill"])
        .terrain("1106", &["woods"]);
    let (sc, mut s) = begin_bombardment(v);
    assert!(observed(&sc, &s, A, h("1009")));
    let ev = place(&sc, &mut s, "1009", 1, false);
    assert_eq!(ev, vec![declared("1009", &["g1"], 1, false)]);
}

/// 17.3, R-VR-17.3a: any woods hex in line blocks the column line, whichever of the
/// three between; a wall across it with a gap in line (0404 clear, 0304 and 0504 woods)
/// leaves a corner line through the gap.
#[test]
fn rule_17_3_woods_in_line_blocks_and_a_gap_in_line_does_not() {
    for between in ["0403", "0404", "0405"] {
        let (sc, s) = begin_bombardment(column_line().terrain(between, &["woods"]));
        assert!(!observed(&sc, &s, A, h("0406")), "{between}");
        assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
    }
    let v = column_line()
        .terrain("0304", &["woods"])
        .terrain("0504", &["woods"]);
    let (sc, mut s) = begin_bombardment(v);
    assert!(observed(&sc, &s, A, h("0406")));
    let ev = place(&sc, &mut s, "0406", 2, false);
    assert_eq!(ev, vec![declared("0406", &["g1"], 2, false)]);
}

/// 17.3: "an observing unit that occupies a peak ... ignores all intervening terrain,
/// except another peak hex".
#[test]
fn rule_17_3_peak_observer_sees_over_a_woods_wall() {
    for t in ["woods", "town", "hill", "no-mans-land"] {
        let v = walled(column_line(), t).terrain("0402", &["peak"]);
        let (sc, mut s) = begin_bombardment(v);
        assert!(observed(&sc, &s, A, h("0406")), "{t}");
        let ev = place(&sc, &mut s, "0406", 1, false);
        assert_eq!(ev, vec![declared("0406", &["g1"], 1, false)], "{t}");
    }
}

/// 17.3: a peak observer is still blocked by a wall of other peaks.
#[test]
fn rule_17_3_peak_observer_blocked_by_a_wall_of_peaks() {
    let v = walled(column_line(), "peak").terrain("0402", &["peak"]);
    let (sc, s) = begin_bombardment(v);
    assert!(!observed(&sc, &s, A, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
}

/// 17.3: "a unit on a hill hex that is not a peak cannot observe past any woods hex".
#[test]
fn rule_17_3_hill_observer_blocked_by_a_woods_wall() {
    let v = walled(column_line(), "woods").terrain("0402", &["hill"]);
    let (sc, s) = begin_bombardment(v);
    assert!(!observed(&sc, &s, A, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
}

/// 17.3 "disregarding the terrain in the observer's hex", R-VR-17.3a: neither the
/// observer's nor the target's hex blocks. Everything is woods but the corridor
/// 0403-0405 between them: still observed; close the corridor and it is not.
#[test]
fn rule_17_3_observer_and_target_hex_terrain_never_block() {
    let all_woods = |v: Vimy, open: &[&str]| {
        let mut v = v;
        for c in 1..=13u8 {
            for r in 1..=9u8 {
                let hx = Hex::new(c, r).to_string();
                if !open.contains(&hx.as_str()) {
                    v = v.terrain(&hx, &["woods"]);
                }
            }
        }
        v
    };
    let (sc, mut s) = begin_bombardment(all_woods(column_line(), &["0403", "0404", "0405"]));
    assert!(observed(&sc, &s, A, h("0406")));
    let ev = place(&sc, &mut s, "0406", 1, false);
    assert_eq!(ev, vec![declared("0406", &["g1"], 1, false)]);
    let (sc, s) = begin_bombardment(all_woods(column_line(), &["0403", "0405"]));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
}

/// 17.3: "except rivers and trench lines": hexsides never block, even all round the
/// wall hexes.
#[test]
fn rule_17_3_trench_and_river_hexsides_never_block() {
    let mut v = column_line();
    for (k, w) in ["0304", "0404", "0504"].into_iter().enumerate() {
        for n in Layout::OddColumnsDown.neighbors(h(w)).into_iter().flatten() {
            let n = n.to_string();
            if k == 1 {
                v.tiny = v.tiny.side(w, &n, &["river"]);
            } else if n != "0404" || (w != "0304" && w != "0504") {
                v = v.trench(w, &n);
            }
        }
    }
    let (sc, mut s) = begin_bombardment(v);
    for w in ["0304", "0504"] {
        assert!(
            vimy_ridge::trench_hex(&sc, sc.hex_index(h(w)).unwrap()),
            "{w}"
        );
    }
    assert!(observed(&sc, &s, A, h("0406")));
    let ev = place(&sc, &mut s, "0406", 1, false);
    assert_eq!(ev, vec![declared("0406", &["g1"], 1, false)]);
}

/// 17.3 "no LOS exists beyond an adjacent hex during any night game turn": a clear
/// line does not observe at night; an adjacent unit still does.
#[test]
fn rule_17_3_at_night_only_adjacent_units_observe() {
    let sc = column_line()
        .ger("g2", 79, "0403")
        .night(1)
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Bombardment),
            ],
        ]),
    );
    assert_pending(&s, A, Phase::Bombardment);
    assert!(!observed(&sc, &s, A, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
    assert_eq!(listed_targets(&sc, &s), vec![h("0403"), h("2601")]);
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g2"], 1, false)]);
    // Not even from a peak.
    let sc = column_line()
        .terrain("0402", &["peak"])
        .ger("g2", 79, "0403")
        .night(1)
        .start(Phase::Bombardment)
        .build();
    let (s, _) = new_game(&sc, &mut no_rng());
    assert_pending(&s, A, Phase::Bombardment);
    assert!(!observed(&sc, &s, A, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
}

/// 17.3 applies to both sides: a German unit observes an Allied one by a clear line of
/// sight (within 10 hexes), not through a wall of woods, and not at all at night.
#[test]
fn rule_17_3_german_observation_by_line_of_sight() {
    let german_line = || {
        los_map()
            .ger("g1", 79, "0402")
            .cdn("c1", 1, "0406")
            .start(Phase::Bombardment)
    };
    let sc = german_line().build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(1, 8, 5), &[phase(A, Phase::Bombardment)]]),
    );
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert!(observed(&sc, &s, B, h("0406")));
    let ev = place(&sc, &mut s, "0406", 1, false);
    assert_eq!(ev, vec![declared("0406", &["c1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[3]);
    assert_eq!(
        ev,
        vec![
            firing("0406", &["c1"], 1, false),
            fired("0406", 3, -1, true),
            step_lost("c1", 1),
            ended("0406"),
            phase(B, Phase::Combat),
        ]
    );
    let sc = walled(german_line(), "woods").build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(1, 8, 5), &[phase(A, Phase::Bombardment)]]),
    );
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert!(!observed(&sc, &s, B, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
    let sc = german_line().night(1).build();
    let (mut s, _) = new_game(&sc, &mut no_rng());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert!(!observed(&sc, &s, B, h("0406")));
    assert_eq!(refused(&sc, &s, artillery("0406", 1, false)).rule, "17.3");
}

/// The aircraft map: c1 (0105) sees nothing it is not near; g1 (1205) and g2 (1405)
/// are more than ten hexes from every Allied unit.
fn air_map() -> Vimy {
    los_map()
        .cdn("c1", 1, "0105")
        .ger("g1", 79, "1205")
        .ger("g2", 79, "1405")
}

/// 17.3, R-VR-17.3c: an Allied aircraft placed in the Allied Movement Phase makes its
/// hex and the six around it observed, anywhere on the map; a unit two hexes from it
/// is not.
#[test]
fn rule_17_3_aircraft_observe_their_hex_and_neighbours_anywhere() {
    let (sc, mut s) = begin_movement(air_map());
    let l = sc.layout();
    for c in ["0105", "2501"] {
        assert!(l.distance(h(c), h("1205")) > 10);
        assert!(l.distance(h(c), h("1405")) > 10);
    }
    assert!(!observed(&sc, &s, A, h("1205")));
    let ev = play_dice(&sc, &mut s, aircraft("1206"), &[]);
    assert_eq!(ev, vec![Event::AircraftPlaced { hex: h("1206") }]);
    assert!(observed(&sc, &s, A, h("1205")));
    assert!(!observed(&sc, &s, A, h("1405")));
    let ev = play_dice(&sc, &mut s, Command::Done, &[]);
    assert_eq!(ev, vec![phase(A, Phase::Bombardment)]);
    assert_eq!(refused(&sc, &s, artillery("1405", 1, false)).rule, "17.3");
    assert_eq!(listed_targets(&sc, &s), vec![h("1205"), h("2601")]);
    let ev = place(&sc, &mut s, "1205", 1, false);
    assert_eq!(ev, vec![declared("1205", &["g1"], 1, false)]);
    // An aircraft next to the bombarded hex only observes: no -1.
    let ev = fire(&sc, &mut s, &[3]);
    assert_eq!(
        ev,
        vec![
            firing("1205", &["g1"], 1, false),
            fired("1205", 3, 0, false),
            ended("1205"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.3, R-VR-17.3c: aircraft observe by night too ("regardless of terrain"; night
/// limits only lines of sight), and a woods wall does not matter to them.
#[test]
fn rule_17_3_aircraft_observe_at_night() {
    let sc = air_map()
        .terrain("1105", &["woods"])
        .terrain("1204", &["woods"])
        .terrain("1305", &["woods"])
        .night(1)
        .start(Phase::Movement)
        .build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Movement),
                Event::ReplacementsReceived { side: A, count: 2 },
            ],
        ]),
    );
    assert_pending(&s, A, Phase::Movement);
    // The last aircraft placed, nothing is left to do at night: the phase passes.
    let ev = play_dice(&sc, &mut s, aircraft("1305"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::AircraftPlaced { hex: h("1305") },
            phase(A, Phase::Bombardment)
        ]
    );
    assert!(observed(&sc, &s, A, h("1205")));
    assert!(observed(&sc, &s, A, h("1405")));
    let ev = place(&sc, &mut s, "1405", 1, false);
    assert_eq!(ev, vec![declared("1405", &["g2"], 1, false)]);
    // Night +1, no aircraft on 1405 itself.
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        cat(&[
            &[
                firing("1405", &["g2"], 1, false),
                fired("1405", 1, 1, true),
                step_lost("g2", 1),
                ended("1405"),
            ],
            &night_tail(true),
        ])
    );
    assert_pending(&s, B, Phase::Movement);
}

/// 17.3: only the Allied player has aircraft, placed in his own movement phase.
#[test]
fn rule_17_3_german_side_has_no_aircraft() {
    let (sc, mut s) = begin_movement(air_map());
    play_dice(&sc, &mut s, Command::Done, &[]);
    assert_pending(&s, A, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, aircraft("1206")).rule, "17.3");
    done_until(&sc, &mut s, B, Phase::Movement);
    assert_eq!(refused(&sc, &s, aircraft("0106")).rule, "17.3");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::PlaceAircraft { .. })));
}

/// 17.3: no more aircraft than the Allies have markers (here two), one per hex.
#[test]
fn rule_17_3_aircraft_limited_to_the_markers() {
    let (sc, mut s) = begin_movement(air_map());
    play_dice(&sc, &mut s, aircraft("1206"), &[]);
    assert_eq!(refused(&sc, &s, aircraft("1206")).rule, "17.3");
    play_dice(&sc, &mut s, aircraft("1406"), &[]);
    assert_eq!(refused(&sc, &s, aircraft("0801")).rule, "17.3");
    assert_eq!(s.ex.aircraft, vec![h("1206"), h("1406")]);
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::PlaceAircraft { .. })));
}

/// 17.3: the aircraft observe for the Allied player turn they are placed in: gone at
/// its end; on the next turn the target they observed is unobserved again.
#[test]
fn rule_17_3_aircraft_cleared_at_end_of_allied_player_turn() {
    let (sc, mut s) = begin_movement(air_map());
    play_dice(&sc, &mut s, aircraft("1205"), &[]);
    done_until(&sc, &mut s, A, Phase::Combat);
    assert_eq!(s.ex.aircraft, vec![h("1205")]);
    done_until(&sc, &mut s, B, Phase::Movement);
    assert!(s.ex.aircraft.is_empty());
    assert!(!observed(&sc, &s, A, h("1205")));
    done_until(&sc, &mut s, A, Phase::Movement);
    assert_eq!(s.turn, 2);
    play_dice(&sc, &mut s, Command::Done, &[]);
    assert_pending(&s, A, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, artillery("1205", 1, false)).rule, "17.3");
}

// ---------------------------------------------------------------------------------
// Artillery Bombardment Modifiers (R-VR-17.4), Bombardment Results Table.

/// Fires one Allied marker on g1 (0403) of `art()` with a 6 and returns the modifier.
fn one_die_modifier(v: Vimy) -> i8 {
    let (sc, mut s) = begin_bombardment(v);
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[6]);
    match &ev[1] {
        Event::ArtilleryFired { modifier, .. } => {
            assert_eq!(
                ev,
                vec![
                    firing("0403", &["g1"], 1, false),
                    fired("0403", 6, *modifier, false),
                    ended("0403"),
                    phase(A, Phase::Combat),
                ]
            );
            *modifier
        }
        e => panic!("not a die: {e:?}"),
    }
}

/// Modifiers chart: clear 0, No Man's Land +1, town +2, woods +2 (hill and peak are
/// not on the chart: 0), and only the highest terrain counts.
#[test]
fn rule_17_4_terrain_modifiers() {
    let cases: &[(&[&str], i8)] = &[
        (&["clear"], 0),
        (&["no-mans-land"], 1),
        (&["town"], 2),
        (&["woods"], 2),
        (&["hill"], 0),
        (&["peak"], 0),
        (&["town", "woods"], 2),
        (&["no-mans-land", "woods"], 2),
    ];
    for (t, m) in cases {
        assert_eq!(one_die_modifier(art().terrain("0403", t)), *m, "{t:?}");
    }
}

/// Modifiers chart: a trench hex (a hex with a trench hexside) is +3, "not cumulative
/// with any other terrain": woods or town with a trench hexside is +3, not +5.
#[test]
fn rule_17_4_trench_hex_plus_three_not_cumulative() {
    assert_eq!(one_die_modifier(art().trench("0403", "0402")), 3);
    // The trench hexside may face anywhere, the friendly observer's hex included.
    assert_eq!(one_die_modifier(art().trench("0403", "0404")), 3);
    for t in ["woods", "town"] {
        let v = art().terrain("0403", &[t]).trench("0403", "0402");
        assert_eq!(one_die_modifier(v), 3, "{t}");
    }
}

/// R-VR-17.4 (14.1): a No Man's Land hex is never a trench hex: +1 even with a trench
/// hexside.
#[test]
fn rule_17_4_no_mans_land_with_trench_hexside_is_plus_one() {
    let v = art()
        .terrain("0403", &["no-mans-land"])
        .trench("0403", "0402");
    assert_eq!(one_die_modifier(v), 1);
    // Its neighbour across the trench is a trench hex all the same.
    let (sc, mut s) = begin_bombardment(
        art()
            .terrain("0402", &["no-mans-land"])
            .trench("0403", "0402"),
    );
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(ev[1], fired("0403", 6, 3, false));
}

/// Modifiers chart: +1 during any night game turn.
#[test]
fn rule_17_4_night_plus_one() {
    let sc = art().night(1).start(Phase::Bombardment).build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Bombardment),
            ],
        ]),
    );
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[2]);
    assert_eq!(
        ev,
        cat(&[
            &[
                firing("0403", &["g1"], 1, false),
                fired("0403", 2, 1, false),
                ended("0403"),
            ],
            &night_tail(false),
        ])
    );
    assert_pending(&s, B, Phase::Bombardment);
}

/// 17.6: on the first game turn the Allies may use gas: -2 on every die in the hex,
/// cumulative with the terrain.
#[test]
fn rule_17_6_gas_minus_two_on_turn_one() {
    let (sc, mut s) = begin_bombardment(art().terrain("0207", &["woods"]));
    let ev = place(&sc, &mut s, "0403", 1, true);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, true)]);
    let ev = place(&sc, &mut s, "0207", 2, true);
    assert_eq!(ev, vec![declared("0207", &["g9"], 2, true)]);
    let ev = fire(&sc, &mut s, &[4, 5, 4]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 1, true),
            fired("0403", 4, -2, true),
            step_lost("g1", 1),
            ended("0403"),
            firing("0207", &["g9"], 2, true),
            fired("0207", 5, 0, false),
            fired("0207", 4, 0, false),
            ended("0207"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.6: gas applies "to each bombardment marker's die roll occurring in each
/// targeted hex": one gas placement on a hex gasses both its markers.
#[test]
fn rule_17_6_gas_applies_to_every_marker_in_the_hex() {
    let (sc, mut s) = begin_bombardment(art());
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
    let ev = place(&sc, &mut s, "0403", 1, true);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, true)]);
    let ev = fire(&sc, &mut s, &[5, 6]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 2, true),
            fired("0403", 5, -2, false),
            fired("0403", 6, -2, false),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.6: gas is an Allied option of the first game turn only: refused on turn 2 and
/// to the Germans.
#[test]
fn rule_17_6_gas_refused_on_turn_two_and_for_the_germans() {
    let (sc, mut s) = begin_bombardment(art());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, artillery("0404", 1, true)).rule, "17.6");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Artillery { gas: true, .. })));
    let sc = art().start(Phase::Bombardment).start_turn(2).build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(2, 8, 5), &[phase(A, Phase::Bombardment)]]),
    );
    assert_eq!(refused(&sc, &s, artillery("0403", 1, true)).rule, "17.6");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Artillery { gas: true, .. })));
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![declared("0403", &["g1"], 1, false)]);
}

/// Modifiers chart, R-VR-17.3c: -1 for an Allied aircraft on the bombarded hex (one
/// aircraft per hex); one on a neighbouring hex gives nothing (see
/// `rule_17_3_aircraft_observe_their_hex_and_neighbours_anywhere`).
#[test]
fn rule_17_4_aircraft_on_target_hex_minus_one() {
    let (sc, mut s) = begin_movement(air_map());
    play_dice(&sc, &mut s, aircraft("1205"), &[]);
    play_dice(&sc, &mut s, aircraft("1305"), &[]);
    play_dice(&sc, &mut s, Command::Done, &[]);
    assert_pending(&s, A, Phase::Bombardment);
    place(&sc, &mut s, "1205", 2, false);
    place(&sc, &mut s, "1405", 1, false);
    let ev = fire(&sc, &mut s, &[4, 3, 3]);
    assert_eq!(
        ev,
        vec![
            firing("1205", &["g1"], 2, false),
            fired("1205", 4, -1, false),
            fired("1205", 3, -1, true),
            step_lost("g1", 1),
            ended("1205"),
            firing("1405", &["g2"], 1, false),
            fired("1405", 3, 0, false),
            ended("1405"),
            phase(A, Phase::Combat),
        ]
    );
}

/// Modifiers chart: -1 when an Allied unit is the target (German bombardment),
/// cumulative with the terrain.
#[test]
fn rule_17_4_allied_target_minus_one() {
    let (sc, mut s) = begin_bombardment(art().terrain("0206", &["woods"]));
    done_until(&sc, &mut s, B, Phase::Bombardment);
    let ev = place(&sc, &mut s, "0404", 1, false);
    assert_eq!(ev, vec![declared("0404", &["c1"], 1, false)]);
    let ev = place(&sc, &mut s, "0206", 1, false);
    assert_eq!(ev, vec![declared("0206", &["c9"], 1, false)]);
    let ev = fire(&sc, &mut s, &[3, 3]);
    assert_eq!(
        ev,
        vec![
            firing("0404", &["c1"], 1, false),
            fired("0404", 3, -1, true),
            step_lost("c1", 1),
            ended("0404"),
            firing("0206", &["c9"], 1, false),
            fired("0206", 3, 1, false),
            ended("0206"),
            phase(B, Phase::Combat),
        ]
    );
}

/// Modifiers chart: everything adds up. Allied fire at night on woods with gas and an
/// aircraft on the hex: +2 +1 -2 -1 = 0.
#[test]
fn rule_17_4_combined_allied_modifiers() {
    let sc = art()
        .terrain("0403", &["woods"])
        .night(1)
        .start(Phase::Movement)
        .build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Movement),
                Event::ReplacementsReceived { side: A, count: 2 },
            ],
        ]),
    );
    let ev = play_dice(&sc, &mut s, aircraft("0403"), &[]);
    assert_eq!(
        ev,
        vec![
            Event::AircraftPlaced { hex: h("0403") },
            phase(A, Phase::Bombardment)
        ]
    );
    place(&sc, &mut s, "0403", 2, true);
    let ev = fire(&sc, &mut s, &[3, 2]);
    assert_eq!(
        ev,
        cat(&[
            &[
                firing("0403", &["g1"], 2, true),
                fired("0403", 3, 0, false),
                fired("0403", 2, 0, true),
                step_lost("g1", 1),
                ended("0403"),
            ],
            &night_tail(true),
        ])
    );
    assert_pending(&s, B, Phase::Movement);
}

/// Modifiers chart: German fire at night on an Allied unit in a trench hex:
/// +3 -1 +1 = +3; a natural 1 still hits (total 4).
#[test]
fn rule_17_4_combined_german_modifiers() {
    let sc = art()
        .trench("0404", "0405")
        .night(1)
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Bombardment),
            ],
        ]),
    );
    fire(&sc, &mut s, &[]);
    assert_pending(&s, B, Phase::Bombardment);
    place(&sc, &mut s, "0404", 2, false);
    let ev = fire(&sc, &mut s, &[2, 1]);
    // No attack at night: the German combat and mobile phases pass, turn 2 (a day
    // turn) begins, and the Allies may move.
    assert_eq!(
        ev,
        cat(&[
            &[
                firing("0404", &["c1"], 2, false),
                fired("0404", 2, 3, false),
                fired("0404", 1, 3, true),
                step_lost("c1", 1),
                ended("0404"),
                phase(B, Phase::Combat),
                phase(B, Phase::MobileMovement),
                phase(B, Phase::MobileCombat),
            ],
            &turn_start(2, 8, 5),
            &[phase(A, Phase::Movement)],
        ])
    );
}

/// Results Table: a modified 2 or less is a hit, a modified 3 is not.
#[test]
fn rule_17_5_modified_two_hits_three_misses() {
    let (sc, mut s) = begin_bombardment(art());
    place(&sc, &mut s, "0403", 1, false);
    place(&sc, &mut s, "0207", 1, false);
    let ev = fire(&sc, &mut s, &[3, 2]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 1, false),
            fired("0403", 3, 0, false),
            ended("0403"),
            firing("0207", &["g9"], 1, false),
            fired("0207", 2, 0, true),
            step_lost("g9", 1),
            ended("0207"),
            phase(A, Phase::Combat),
        ]
    );
}

/// "Automatic Hit: any roll of 1, regardless of modifiers": a 1 on a trench hex (+3,
/// total 4) hits.
#[test]
fn rule_17_5_natural_one_always_hits() {
    let (sc, mut s) = begin_bombardment(art().trench("0403", "0402"));
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 1, false),
            fired("0403", 1, 3, true),
            step_lost("g1", 1),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// Results Table: a 2 with +1 (No Man's Land) totals 3: no hit — only the natural 1
/// is automatic.
#[test]
fn rule_17_5_two_with_plus_one_misses() {
    let (sc, mut s) = begin_bombardment(art().terrain("0403", &["no-mans-land"]));
    place(&sc, &mut s, "0403", 2, false);
    let ev = fire(&sc, &mut s, &[2, 2]);
    assert_eq!(
        ev,
        vec![
            firing("0403", &["g1"], 2, false),
            fired("0403", 2, 1, false),
            fired("0403", 2, 1, false),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.units[idx(&s, "g1")].steps, 2);
}

// ---------------------------------------------------------------------------------
// 18.1 The Red Baron.

/// 18.1, R-VR-18.1: at the start of a night turn the Allies lose an aircraft marker
/// for good (right after the turn's allotments); they then have fewer to place.
#[test]
fn rule_18_1_red_baron_downs_an_aircraft_each_night() {
    let sc = air_map().night(1).start(Phase::Movement).build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Movement),
                Event::ReplacementsReceived { side: A, count: 2 },
            ],
        ]),
    );
    assert_eq!(s.ex.aircraft_lost, 1);
    play_dice(&sc, &mut s, aircraft("1206"), &[]);
    assert_eq!(refused(&sc, &s, aircraft("1406")).rule, "17.3");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::PlaceAircraft { .. })));
}

/// 18.1: no aircraft is lost on day turns; the next night one is.
#[test]
fn rule_18_1_no_loss_on_day_turns() {
    let (sc, mut s) = begin_bombardment(art().night(3));
    let ev = done_until(&sc, &mut s, A, Phase::Movement);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 2 })
        .expect("turn 2");
    assert_eq!(
        ev[k..],
        cat(&[&turn_start(2, 8, 5), &[phase(A, Phase::Movement)]])[..]
    );
    assert_eq!(s.ex.aircraft_lost, 0);
    let ev = done_until(&sc, &mut s, A, Phase::Movement);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 3 })
        .expect("turn 3");
    assert_eq!(
        ev[k..],
        cat(&[
            &turn_start(3, 8, 5),
            &[
                Event::AircraftLost { remaining: 1 },
                phase(A, Phase::Movement),
                Event::ReplacementsReceived { side: A, count: 2 },
            ],
        ])[..]
    );
}

/// 18.1: with no aircraft marker left, a night costs nothing more.
#[test]
fn rule_18_1_none_lost_when_none_left() {
    let sc = art()
        .params(|p| p.aircraft = 1)
        .night(1)
        .night(2)
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[
            &turn_start(1, 8, 5),
            &[
                Event::AircraftLost { remaining: 0 },
                phase(A, Phase::Bombardment),
            ],
        ]),
    );
    let ev = done_until(&sc, &mut s, A, Phase::Bombardment);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 2 })
        .expect("turn 2");
    // No aircraft to place and no movement at night: the movement phase passes.
    assert_eq!(
        ev[k..],
        cat(&[
            &turn_start(2, 8, 5),
            &[
                phase(A, Phase::Movement),
                Event::ReplacementsReceived { side: A, count: 2 },
                phase(A, Phase::Bombardment),
            ],
        ])[..]
    );
    assert_eq!(s.ex.aircraft_lost, 1);
}

// ---------------------------------------------------------------------------------
// 17.2, 18.2 La Folie Woods.

/// 9x9, La Folie range 7, Petit Vimy 0909/0908. c1 (0107) watches g1 in woods 0208
/// (seven hexes from Petit Vimy: La Folie) and g2 in woods 0108 (eight: not); c2 in
/// woods 0706 (La Folie) faces g3 in clear 0707 (two hexes from Petit Vimy).
fn folie() -> Vimy {
    vimy(9, 9)
        .params(|p| p.la_folie_range = 7)
        .terrain("0208", &["woods"])
        .terrain("0108", &["woods"])
        .terrain("0706", &["woods"])
        .cdn("c1", 1, "0107")
        .ger("g1", 79, "0208")
        .ger("g2", 79, "0108")
        .cdn("c2", 2, "0706")
        .ger("g3", 79, "0707")
}

fn folie_distances(sc: &Scenario) {
    let l = sc.layout();
    let near = |x: &str| {
        ["0909", "0908"]
            .iter()
            .map(|p| l.distance(h(p), h(x)))
            .min()
            .unwrap()
    };
    assert_eq!(near("0208"), 7);
    assert_eq!(near("0108"), 8);
    assert!(near("0706") <= 7);
    assert!(near("0707") <= 7);
}

/// 17.2: "No bombardment is ever possible in any 'La Folie Woods' hex" (a woods hex
/// within seven hexes of Petit Vimy, 18.2): Allied artillery is refused there under
/// 17.2, even on an adjacent, observed unit.
#[test]
fn rule_17_2_allied_artillery_refused_on_la_folie_woods() {
    let (sc, s) = begin_bombardment(folie());
    folie_distances(&sc);
    assert!(observed(&sc, &s, A, h("0208")));
    assert_eq!(refused(&sc, &s, artillery("0208", 1, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0208", 1, true)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0208", 2, false)).rule, "17.2");
}

/// 17.2 is unconditional ("no bombardment is ever possible"); 18.2 only explains it
/// and adds the Allied-only ban on support fire. So German artillery may not bombard
/// the Allied unit c2 in the La Folie woods hex 0706 either, observed and adjacent
/// though it is: refused under 17.2 and not listed. The German guns may still fire on
/// c1 in the clear hex 0107 (Allied target -1).
#[test]
fn rule_17_2_german_artillery_refused_on_la_folie_woods() {
    let (sc, mut s) = begin_bombardment(folie());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert!(vimy_ridge::la_folie(&sc, h("0706")));
    assert!(observed(&sc, &s, B, h("0706")));
    assert_eq!(refused(&sc, &s, artillery("0706", 1, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0706", 2, false)).rule, "17.2");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Artillery { hex, .. } if *hex == h("0706"))));
    let ev = place(&sc, &mut s, "0107", 1, false);
    assert_eq!(ev, vec![declared("0107", &["c1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            firing("0107", &["c1"], 1, false),
            fired("0107", 6, -1, false),
            ended("0107"),
            phase(B, Phase::Combat),
        ]
    );
}

/// 18.2 "does not apply to woods hexes elsewhere on the map": a woods hex eight hexes
/// from Petit Vimy may be bombarded.
#[test]
fn rule_18_2_woods_beyond_the_range_is_not_la_folie() {
    let (sc, mut s) = begin_bombardment(folie());
    assert!(!vimy_ridge::la_folie(&sc, h("0108")));
    let ev = place(&sc, &mut s, "0108", 2, false);
    assert_eq!(ev, vec![declared("0108", &["g2"], 2, false)]);
    let ev = fire(&sc, &mut s, &[1, 6]);
    assert_eq!(
        ev,
        vec![
            firing("0108", &["g2"], 2, false),
            fired("0108", 1, 2, true),
            fired("0108", 6, 2, false),
            step_lost("g2", 1),
            ended("0108"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 18.2: La Folie Woods are woods hexes: a clear (or town) hex next to Petit Vimy may be
/// bombarded.
#[test]
fn rule_18_2_non_woods_hex_near_petit_vimy_is_not_la_folie() {
    let (sc, mut s) = begin_bombardment(folie());
    assert!(!vimy_ridge::la_folie(&sc, h("0707")));
    let ev = place(&sc, &mut s, "0707", 1, false);
    assert_eq!(ev, vec![declared("0707", &["g3"], 1, false)]);
    let (sc, mut s) = begin_bombardment(folie().terrain("0707", &["town"]));
    assert!(!vimy_ridge::la_folie(&sc, h("0707")));
    let ev = place(&sc, &mut s, "0707", 1, false);
    assert_eq!(ev, vec![declared("0707", &["g3"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            firing("0707", &["g3"], 1, false),
            fired("0707", 6, 2, false),
            ended("0707"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.2: `legal_commands` offers no Allied artillery on a La Folie hex, and does offer
/// it on the others (with and without gas on turn 1).
#[test]
fn rule_17_2_legal_commands_list_no_allied_artillery_on_la_folie() {
    let (sc, s) = begin_bombardment(folie());
    check_listing(&sc, &s, &["0108", "0707"]);
    let mut arts: Vec<String> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Artillery { .. }))
        .map(|c| format!("{c:?}"))
        .collect();
    arts.sort();
    let mut want: Vec<String> = ["0108", "0707"]
        .iter()
        .flat_map(|x| {
            [(1, false), (1, true), (2, false), (2, true)]
                .map(|(m, g)| format!("{:?}", artillery(x, m, g)))
        })
        .collect();
    want.sort();
    assert_eq!(arts, want);
}

// ---------------------------------------------------------------------------------
// Legal listing.

/// 17.1-17.3: in several states the listed `Artillery` commands are exactly the
/// accepted ones: walls, range, aircraft, markers and two-per-unit limits, the German
/// turn (no German artillery on the Allied unit in La Folie Woods, 17.2).
#[test]
fn rule_17_2_legal_artillery_commands_agree_with_apply() {
    // Walls and range: g1 behind a woods wall, g2 more than ten hexes from every
    // Allied unit, g3 in the open.
    let v = walled(column_line(), "woods")
        .ger("g2", 79, "1409")
        .ger("g3", 79, "0705");
    let (sc, mut s) = begin_bombardment(v);
    assert!(sc.layout().distance(h("0402"), h("1409")) > 10);
    assert!(sc.layout().distance(h("2501"), h("1409")) > 10);
    check_listing(&sc, &s, &["0705", "2601"]);
    place(&sc, &mut s, "0705", 2, false);
    check_listing(&sc, &s, &["2601"]);
    // Markers left: one, so only one-marker commands.
    let sc = art()
        .params(|p| p.artillery[0] = SidePair::new(3, 5))
        .start(Phase::Bombardment)
        .build();
    let mut s = begin(
        &sc,
        cat(&[&turn_start(1, 3, 5), &[phase(A, Phase::Bombardment)]]),
    );
    place(&sc, &mut s, "0403", 2, false);
    check_listing(&sc, &s, &["0207"]);
    assert!(legal_commands(&sc, &s)
        .iter()
        .all(|c| !matches!(c, Command::Artillery { markers: 2, .. })));
    place(&sc, &mut s, "0207", 1, false);
    check_listing(&sc, &s, &[]);
    // Aircraft: g1 observed only through one.
    let (sc, mut s) = begin_movement(air_map());
    play_dice(&sc, &mut s, aircraft("1305"), &[]);
    play_dice(&sc, &mut s, Command::Done, &[]);
    check_listing(&sc, &s, &["1205", "1405", "2601"]);
    // The German turn: German observers, no gas listed.
    let (sc, mut s) = begin_bombardment(folie());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    check_listing(&sc, &s, &["0107"]);
}
