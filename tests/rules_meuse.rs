//! Rule-numbered tests for the Meuse Argonne exclusive rules (10.0-19.0 of
//! `../shared/rules/meuse-argonne.txt`): replacements (11.3, 11.6), Sedan (12.1),
//! three-step divisions and brigades (13.1, 13.2), rises and German works (14.1-14.3),
//! H-Hour (15.2), artillery bombardment (16.0, 17.1-17.7), the Lost Battalion (18.1)
//! and German combat experience (18.2).
//!
//! Every test builds a tiny map with the Meuse Argonne terrain chart, Integrated CRT
//! and exclusive-rule parameters, and compares the exact events `apply` returns, or
//! for a refusal the exact rule number and the unchanged state. Side `a` is the
//! Allies, side `b` the Germans. North is row 01, south the last row.
//!
//! Hex ids are column then row, odd columns sit half a hex lower: an even column
//! (c,r) touches (c,r-1),(c+1,r-1),(c+1,r),(c,r+1),(c-1,r),(c-1,r-1); an odd column
//! (c,r-1),(c+1,r),(c+1,r+1),(c,r+1),(c-1,r+1),(c-1,r).
//!
//! Readings of ambiguous rule text taken here:
//! - 12.1 "enters the Sedan city hex, even if only temporarily": a unit moving through
//!   Sedan has entered it, as has one advancing into it after combat.
//! - 14.2 "must be resolved via the appropriate terrain line": the works' line is used
//!   for a German defender even where the hex's other terrain would be better.
//! - 13.2 "at the beginning of any US movement phase": before any Allied unit has moved
//!   (a replacement's arrival and a reinforcement's entry count); a reinforcement may
//!   break down before it enters, its brigades entering in its place (R-MA-13.2a).
//! - 16.0 (7.7.1, no bombardment retreat) against 17.5 (retreat one hex instead of the
//!   hits): 17.5, the specific artillery rule, applies; the retreat cancels every hit
//!   scored on the hex.
//! - 17.2 "immediately after all desired markers have been played": `artillery` only
//!   places markers; `done` rolls them hex by hex in the order placed (two placements
//!   on one hex are one bombardment of it) and ends the phase (R-MA-17.2).
//! - 17.5 with 13.2: a brigade stack is "the targeted unit": it retreats whole into one
//!   vacant hex or takes its hits (R-MA-17.5).
//! - 17.6 "ensuing bombardment": a later marker on the same hex already sees the
//!   breach.
//! - 17.6 note: an Allied unit in a works hex is bombarded with the works' modifier and
//!   a German hit breaches the hex instead of hurting the unit.
//! - 18.1: only a declared Lost Battalion is spent; passing keeps it.
//! - 18.2: a German unit that could retreat only one hex of a D2/D3 takes it as a D1,
//!   with no step loss.
use crate::common;
use common::*;
use fm_core::meuse_argonne::MeuseArgonneParams;
use fm_core::*;

use Side::{A, B};

// ---------------------------------------------------------------------------------
// The tiny Meuse map.

/// A tiny Meuse Argonne scenario under construction: a `Tiny` map with the built-in
/// scenario's terrain chart, CRT and parameters, every hex clear, Sedan (a fortress)
/// in 0101 as the Allied instant-win hex, the Allied replacement edge along the south
/// row and the lower west column, the German one along the north row and the east
/// column, the Allied friendly edge south and the German one north.
struct Meuse {
    tiny: Tiny,
    p: MeuseArgonneParams,
}

const SEDAN: &str = "0101";

fn meuse(cols: u8, rows: u8) -> Meuse {
    let builtin = Scenario::builtin("meuse-argonne").unwrap().data;
    let mut tiny = Tiny::new(cols, rows);
    tiny.data.terrain = builtin.terrain.clone();
    tiny.data.crt = builtin.crt.clone();
    for x in &mut tiny.data.map.hexes {
        x.terrain = vec!["clear".into()];
    }
    tiny.data.map.friendly_edges = SidePair::new(
        (1..=cols).map(|c| Hex::new(c, rows)).collect(),
        (1..=cols).map(|c| Hex::new(c, 1)).collect(),
    );
    tiny.data.victory = VictoryData {
        conditions: vec![VictoryCondition::EnterHex {
            side: A,
            hexes: vec![h(SEDAN)],
        }],
        otherwise: Some(B),
    };
    let RuleSet::MeuseArgonne(p) = builtin.rules else {
        panic!("the built-in scenario uses the Meuse Argonne rules")
    };
    let mut p = *p;
    p.artillery = vec![
        SidePair::new(8, 4),
        SidePair::new(6, 3),
        SidePair::new(6, 3),
    ];
    p.aircraft = 2;
    p.three_step_divisions = Vec::new();
    p.brigades = Vec::new();
    p.sedan = h(SEDAN);
    let mid = rows / 2;
    p.stellung_line = (1..=cols).map(|c| Hex::new(c, mid)).collect();
    p.allied_replacement_entry = (1..=cols)
        .map(|c| Hex::new(c, rows))
        .chain((mid + 1..rows).map(|r| Hex::new(1, r)))
        .collect();
    p.german_replacement_entry = (1..=cols)
        .map(|c| Hex::new(c, 1))
        .chain((2..=rows).map(|r| Hex::new(cols, r)))
        .collect();
    let m = Meuse { tiny, p };
    m.terrain(SEDAN, &["fortress"])
}

impl Meuse {
    fn terrain(mut self, hex: &str, terrain: &[&str]) -> Meuse {
        self.tiny = self.tiny.terrain(hex, terrain);
        self
    }

    /// A two-step division: Allied 8-8-4 / 4-4-4, German 6-6-4 / 3-3-4.
    fn div(mut self, id: &str, side: Side, hex: &str) -> Meuse {
        let steps: &[(u8, u8, u8)] = if side == A {
            &[(8, 8, 4), (4, 4, 4)]
        } else {
            &[(6, 6, 4), (3, 3, 4)]
        };
        self.tiny = self.tiny.unit(id, side, UnitKind::Leg, steps, hex);
        self
    }

    /// A unit with explicit steps (attack, defense, move), full strength first.
    fn unit(mut self, id: &str, side: Side, steps: &[(u8, u8, u8)], hex: &str) -> Meuse {
        self.tiny = self.tiny.unit(id, side, UnitKind::Leg, steps, hex);
        self
    }

    /// A US three-step division (13.1): 8-8-4 / 5-5-4 on its counter, the third step a
    /// brigade chit.
    fn three_step(mut self, id: &str, hex: &str) -> Meuse {
        self.tiny = self
            .tiny
            .unit(id, A, UnitKind::Leg, &[(8, 8, 4), (5, 5, 4)], hex);
        self.p.three_step_divisions.push(u(id));
        self
    }

    /// `n` more US brigade chits 3-3-4 off the map, numbered on from the chits
    /// already added: bde-1, bde-2, ...
    fn brigades(mut self, n: usize) -> Meuse {
        for _ in 0..n {
            let id = format!("bde-{}", self.p.brigades.len() + 1);
            self = self.brigade_at(&id, "0101");
            self.tiny = self.tiny.with_last(|d| d.start = StartData::OffMap);
        }
        self
    }

    /// A US brigade chit 3-3-4 starting on the map.
    fn brigade_at(mut self, id: &str, hex: &str) -> Meuse {
        self.tiny = self
            .tiny
            .unit(id, A, UnitKind::Leg, &[(3, 3, 4)], hex)
            .with_last(|d| d.tags = vec!["brigade".into()]);
        self.p.brigades.push(u(id));
        self
    }

    /// A spare 1-1-1 pair, us-9 in 0107 and g-9 in 0106, adjacent to each other, so
    /// that both sides always have something to do in every phase (no phase passes
    /// by itself after the command under test).
    fn spare(self) -> Meuse {
        self.unit("us-9", A, &[(1, 1, 1)], "0107")
            .unit("g-9", B, &[(1, 1, 1)], "0106")
    }

    /// Makes the last unit added a reinforcement due on `turn`, entering on `entry`.
    fn reinforcement(mut self, turn: u16, entry: &[&str]) -> Meuse {
        let entry: Vec<Hex> = entry.iter().map(|x| h(x)).collect();
        self.tiny = self
            .tiny
            .with_last(|d| d.start = StartData::Reinforcement { turn, entry });
        self
    }

    fn start(mut self, phase: Phase) -> Meuse {
        self.tiny = self.tiny.start(phase);
        self
    }

    fn support(mut self, a: &[u8], b: &[u8]) -> Meuse {
        self.tiny = self.tiny.support(a, b, a.len() as u8, b.len() as u8);
        self
    }

    fn params(mut self, f: impl FnOnce(&mut MeuseArgonneParams)) -> Meuse {
        f(&mut self.p);
        self
    }

    fn build(self) -> Scenario {
        let mut data = self.tiny.data;
        data.rules = RuleSet::MeuseArgonne(Box::new(self.p));
        Scenario::from_data(data).expect("valid tiny Meuse scenario")
    }
}

// ---------------------------------------------------------------------------------
// Helpers: state edits, commands and events.

fn idx(s: &State, unit: &str) -> usize {
    s.units.ids.iter().position(|x| *x == u(unit)).unwrap()
}

fn steps_of(s: &State, unit: &str) -> u8 {
    s.units[idx(s, unit)].steps
}

fn loc_of(s: &State, unit: &str) -> Location {
    s.units[idx(s, unit)].loc
}

/// Takes a unit off the map as eliminated (as a combat would have).
fn kill(s: &mut State, unit: &str) {
    let i = idx(s, unit);
    s.units[i].loc = Location::Eliminated;
    s.units[i].steps = 0;
}

/// Removes one step from a unit (as a combat would have).
fn hurt(s: &mut State, unit: &str) {
    let i = idx(s, unit);
    s.units[i].steps -= 1;
}

fn ids(v: &[&str]) -> Vec<UnitId> {
    v.iter().map(|x| u(x)).collect()
}

fn hexes(v: &[&str]) -> Vec<Hex> {
    v.iter().map(|x| h(x)).collect()
}

fn phase(side: Side, phase: Phase) -> Event {
    Event::PhaseStarted { side, phase }
}

fn replace(unit: &str, hex: &str) -> Command {
    Command::Replace {
        unit: u(unit),
        hex: h(hex),
        full: false,
    }
}

fn replaced(unit: &str, hex: &str, steps: u8) -> Event {
    Event::UnitReplaced {
        unit: u(unit),
        hex: h(hex),
        steps,
    }
}

fn rebuild(units: &[&str]) -> Command {
    Command::Rebuild { units: ids(units) }
}

fn rebuilt(unit: &str, steps: u8) -> Event {
    Event::UnitRebuilt {
        unit: u(unit),
        steps,
    }
}

fn break_down(unit: &str) -> Command {
    Command::BreakDown { unit: u(unit) }
}

fn broken_down(unit: &str, hex: &str, brigades: &[&str]) -> Event {
    Event::DivisionBrokenDown {
        unit: u(unit),
        hex: Some(h(hex)),
        brigades: ids(brigades),
    }
}

fn brigade_placed(unit: &str, hex: &str) -> Event {
    Event::BrigadePlaced {
        unit: u(unit),
        hex: h(hex),
    }
}

fn aircraft(hex: &str) -> Command {
    Command::PlaceAircraft { hex: h(hex) }
}

fn artillery(hex: &str, markers: u8, gas: bool) -> Command {
    Command::Artillery {
        hex: h(hex),
        markers,
        gas,
    }
}

fn art_declared(hex: &str, defenders: &[&str], markers: u8, gas: bool) -> Event {
    Event::ArtilleryDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        markers,
        gas,
    }
}

fn fired(hex: &str, die: u8, modifier: i8) -> Event {
    let total = die as i8 + modifier;
    Event::ArtilleryFired {
        hex: h(hex),
        die,
        modifier,
        total,
        hit: total <= 3,
    }
}

fn breached(hex: &str) -> Event {
    Event::HexBreached { hex: h(hex) }
}

fn retreat_offered(unit: &str, hits: u8) -> Event {
    stack_retreat_offered(unit, hits, &[])
}

/// 17.5 with 13.2: the retreat offered to a target named by `unit`, with the other
/// brigades of its stack.
fn stack_retreat_offered(unit: &str, hits: u8, stacked: &[&str]) -> Event {
    Event::ArtilleryRetreatOffered {
        unit: u(unit),
        hits,
        stacked: ids(stacked),
    }
}

fn attack(hex: &str, units: &[&str]) -> Command {
    Command::Attack {
        hex: h(hex),
        units: ids(units),
    }
}

fn declared(hex: &str, defenders: &[&str], attackers: &[&str]) -> Event {
    Event::AttackDeclared {
        hex: h(hex),
        defenders: ids(defenders),
        attackers: ids(attackers),
    }
}

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

fn retreated(unit: &str, from: &str, path: &[&str]) -> Event {
    Event::UnitRetreated {
        unit: u(unit),
        from: h(from),
        path: hexes(path),
    }
}

fn retreat_required(side: Side, units: &[&str], n: u8) -> Event {
    Event::RetreatRequired {
        side,
        units: ids(units),
        hexes: n,
    }
}

fn advance_offered(path: &[&str], units: &[&str]) -> Event {
    Event::AdvanceOffered {
        path: hexes(path),
        units: ids(units),
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

fn moved(unit: &str, from: &str, path: &[&str], mp: &str) -> Event {
    Event::UnitMoved {
        unit: u(unit),
        from: Some(h(from)),
        path: hexes(path),
        mp: mp.parse().unwrap(),
    }
}

fn no_rng() -> Script {
    Script::new(&[])
}

/// Plays `done` (at least once) until the game waits for `side` in `phase` (phases
/// with nothing to do pass by themselves). Returns the events.
fn done_until(sc: &Scenario, s: &mut State, side: Side, ph: Phase) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..40 {
        all.extend(play(sc, s, Command::Done, &mut no_rng()));
        if s.pending() == (Pending::Phase { side, phase: ph }) {
            return all;
        }
    }
    panic!("never reached {side} {ph}: {:?}", s.pending());
}

/// The opening events of a game started in `side`'s `ph` of turn 1 with no support
/// fire and the tiny map's artillery (8 Allied, 4 German markers).
fn opening(ph: Phase) -> Vec<Event> {
    let mut v = vec![
        Event::TurnStarted { turn: 1 },
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
        Event::ArtilleryAllotted { side: A, count: 8 },
        Event::ArtilleryAllotted { side: B, count: 4 },
        phase(A, ph),
    ];
    if ph == Phase::Movement {
        v.push(Event::ReplacementAvailable { side: A });
    }
    v
}

/// Starts a game and checks its opening events.
fn begin(sc: &Scenario, ph: Phase) -> State {
    let (s, ev) = new_game(sc, &mut no_rng());
    assert_eq!(ev, opening(ph));
    s
}

// ---------------------------------------------------------------------------------
// 11.3 Allied replacements.

/// us-1 (to be eliminated) in 0404, a spare Allied unit in 0205, a German unit in 0402.
fn allied_replacement_map() -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0404")
        .div("us-2", A, "0205")
        .div("g-1", B, "0402")
        .start(Phase::Movement)
}

/// 11.3: in his movement phase the Allied player brings an eliminated unit back at
/// full strength on a map-edge hex south or west of the Stellung line; "must be
/// deployed immediately": it does not move further that phase.
#[test]
fn rule_11_3_eliminated_unit_returns_full_strength_on_replacement_edge() {
    let sc = allied_replacement_map().build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-1");
    let ev = play(&sc, &mut s, replace("us-1", "0407"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-1", "0407", 2)]);
    assert_eq!(loc_of(&s, "us-1"), Location::Map(h("0407")));
    assert_eq!(steps_of(&s, "us-1"), 2);
    assert_eq!(refused(&sc, &s, mv("us-1", &["0406"])).rule, "5.2");
}

/// 11.3: the arrival hex is a vacant hex of the Allied replacement edge (south edge,
/// west edge below the Stellung line), not the interior, not the German north edge.
#[test]
fn rule_11_3_replacement_arrives_only_on_allied_replacement_edge() {
    let sc = allied_replacement_map().div("us-3", A, "0507").build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-1");
    for hex in ["0404", "0401", "0102", "0507"] {
        assert_eq!(refused(&sc, &s, replace("us-1", hex)).rule, "11.3", "{hex}");
    }
    let ev = play(&sc, &mut s, replace("us-1", "0105"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-1", "0105", 2)]);
}

/// 11.3: an eliminated three-step division comes back as a depleted division.
#[test]
fn rule_11_3_three_step_division_returns_depleted() {
    let sc = allied_replacement_map()
        .three_step("us-4", "0604")
        .brigades(3)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-4");
    let ev = play(&sc, &mut s, replace("us-4", "0707"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-4", "0707", 1)]);
}

/// 11.3 exception: brigade chits are never received as replacements.
#[test]
fn rule_11_3_brigades_never_replaced() {
    let sc = allied_replacement_map().brigades(2).build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "bde-1");
    assert_eq!(refused(&sc, &s, replace("bde-1", "0407")).rule, "11.3");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Replace { .. })));
}

/// 11.3: one replacement rebuilds two depleted units, even in an enemy ZOC.
#[test]
fn rule_11_3_rebuild_two_depleted_units_even_in_enemy_zoc() {
    let sc = allied_replacement_map().div("g-2", B, "0403").build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "us-1");
    hurt(&mut s, "us-2");
    let hi = sc.hex_index(h("0404")).unwrap() as usize;
    assert!(zoc::ezoc_map(&sc, &s, A)[hi], "us-1 is in the ZOC of g-2");
    let ev = play(&sc, &mut s, rebuild(&["us-1", "us-2"]), &mut no_rng());
    assert_eq!(ev, vec![rebuilt("us-1", 2), rebuilt("us-2", 2)]);
}

/// 11.3: no rebuilding of a unit in a forest (woods) hex, alone or with another.
#[test]
fn rule_11_3_no_rebuild_in_woods_hex() {
    let sc = allied_replacement_map().terrain("0404", &["woods"]).build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "us-1");
    hurt(&mut s, "us-2");
    assert_eq!(refused(&sc, &s, rebuild(&["us-1"])).rule, "11.3");
    assert_eq!(refused(&sc, &s, rebuild(&["us-2", "us-1"])).rule, "11.3");
    let ev = play(&sc, &mut s, rebuild(&["us-2"]), &mut no_rng());
    assert_eq!(ev, vec![rebuilt("us-2", 2)]);
}

/// 11.3: one replacement per Allied movement phase, not saved up; the next one comes
/// with the next Allied movement phase.
#[test]
fn rule_11_3_one_replacement_per_allied_movement_phase() {
    let sc = allied_replacement_map().div("us-3", A, "0606").build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-1");
    kill(&mut s, "us-3");
    hurt(&mut s, "us-2");
    play(&sc, &mut s, replace("us-1", "0407"), &mut no_rng());
    assert_eq!(refused(&sc, &s, replace("us-3", "0507")).rule, "11.3");
    assert_eq!(refused(&sc, &s, rebuild(&["us-2"])).rule, "11.3");
    let ev = done_until(&sc, &mut s, A, Phase::Movement);
    assert_eq!(s.turn, 2);
    assert_eq!(
        ev[ev.len() - 2..],
        [
            phase(A, Phase::Movement),
            Event::ReplacementAvailable { side: A }
        ]
    );
    let ev = play(&sc, &mut s, replace("us-3", "0507"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-3", "0507", 2)]);
    assert_eq!(refused(&sc, &s, rebuild(&["us-2"])).rule, "11.3");
}

/// 11.3: replacements are received during the Allied movement phase only.
#[test]
fn rule_11_3_replacement_only_in_allied_movement_phase() {
    let sc = allied_replacement_map().div("g-2", B, "0403").build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-2");
    hurt(&mut s, "us-1");
    play(&sc, &mut s, Command::Done, &mut no_rng());
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Bombardment
        }
    );
    assert_eq!(refused(&sc, &s, replace("us-2", "0407")).rule, "11.3");
    assert_eq!(refused(&sc, &s, rebuild(&["us-1"])).rule, "11.3");
}

// ---------------------------------------------------------------------------------
// 11.6 German replacements.

/// us-1 in 0302 (its ZOC reaches the north-edge hex 0301), us-2 on the north-edge hex
/// 0601 (its ZOC reaches 0501 and 0701); g-1 (to be eliminated) in 0404, g-2 in 0504,
/// g-3 in the woods of 0505.
fn german_replacement_map() -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0302")
        .div("us-2", A, "0601")
        .div("g-1", B, "0404")
        .div("g-2", B, "0504")
        .div("g-3", B, "0505")
        .terrain("0505", &["woods"])
        .start(Phase::Movement)
}

/// 11.6: the German replacement brings an eliminated unit back depleted on a north or
/// east edge hex not occupied by an Allied unit and not in an Allied ZOC.
#[test]
fn rule_11_6_eliminated_german_unit_returns_depleted_on_free_north_or_east_edge() {
    let sc = german_replacement_map().build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "g-1");
    let ev = done_until(&sc, &mut s, B, Phase::Movement);
    assert!(!ev.contains(&Event::ReplacementAvailable { side: B }));
    // Allied ZOC, Allied unit, Allied ZOC, interior, the Allied edge.
    for hex in ["0301", "0601", "0501", "0404", "0407"] {
        assert_eq!(refused(&sc, &s, replace("g-1", hex)).rule, "11.6", "{hex}");
    }
    let ev = play(&sc, &mut s, replace("g-1", "0401"), &mut no_rng());
    assert_eq!(ev, vec![replaced("g-1", "0401", 1)]);
    assert_eq!(steps_of(&s, "g-1"), 1);
}

/// 11.6: or it rebuilds one depleted unit (not two, not in a forest hex).
#[test]
fn rule_11_6_rebuilds_one_depleted_german_unit() {
    let sc = german_replacement_map().build();
    let mut s = begin(&sc, Phase::Movement);
    for g in ["g-1", "g-2", "g-3"] {
        hurt(&mut s, g);
    }
    done_until(&sc, &mut s, B, Phase::Movement);
    assert_eq!(refused(&sc, &s, rebuild(&["g-1", "g-2"])).rule, "11.6");
    assert_eq!(refused(&sc, &s, rebuild(&["g-3"])).rule, "11.6");
    let ev = play(&sc, &mut s, rebuild(&["g-1"]), &mut no_rng());
    assert_eq!(ev, vec![rebuilt("g-1", 2)]);
}

/// 11.6: once per game: after it is used, no German replacement in a later turn.
#[test]
fn rule_11_6_german_replacement_once_per_game() {
    let sc = german_replacement_map().build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "g-1");
    hurt(&mut s, "g-2");
    done_until(&sc, &mut s, B, Phase::Movement);
    play(&sc, &mut s, rebuild(&["g-1"]), &mut no_rng());
    done_until(&sc, &mut s, B, Phase::Movement);
    assert_eq!(s.turn, 2);
    assert_eq!(refused(&sc, &s, rebuild(&["g-2"])).rule, "11.6");
    kill(&mut s, "g-3");
    assert_eq!(refused(&sc, &s, replace("g-3", "0401")).rule, "11.6");
}

/// 11.6: the German player need not use his replacement in any particular turn; an
/// unused one is still there in a later turn.
#[test]
fn rule_11_6_german_replacement_may_wait_for_a_later_turn() {
    let sc = german_replacement_map().build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "g-2");
    done_until(&sc, &mut s, B, Phase::Movement);
    done_until(&sc, &mut s, A, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Movement);
    assert_eq!(s.turn, 2);
    let ev = play(&sc, &mut s, rebuild(&["g-2"]), &mut no_rng());
    assert_eq!(ev, vec![rebuilt("g-2", 2)]);
}

// ---------------------------------------------------------------------------------
// 12.1 Allied victory.

fn sedan_map() -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0103")
        .div("us-2", A, "0506")
        .div("g-1", B, "0606")
}

fn allied_win(unit: &str) -> Event {
    Event::GameOver {
        winner: Some(A),
        reason: format!("{unit} entered {SEDAN}"),
    }
}

/// 12.1: the Allies win the moment an Allied unit enters Sedan.
#[test]
fn rule_12_1_allied_unit_entering_sedan_wins_instantly() {
    let sc = sedan_map().start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    let ev = play(&sc, &mut s, mv("us-1", &["0102", "0101"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            moved("us-1", "0103", &["0102", "0101"], "2"),
            allied_win("us-1")
        ]
    );
    assert_eq!(s.pending(), Pending::GameOver { winner: Some(A) });
    assert_eq!(refused(&sc, &s, Command::Done).rule, "4.1");
}

/// 12.1: "even if only temporarily": a unit that moves through Sedan has entered it.
#[test]
fn rule_12_1_allied_unit_passing_through_sedan_wins() {
    let sc = sedan_map().start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    let ev = play(
        &sc,
        &mut s,
        mv("us-1", &["0102", "0101", "0201"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            moved("us-1", "0103", &["0102", "0101", "0201"], "3"),
            allied_win("us-1")
        ]
    );
}

/// 12.1: entering Sedan by advance after combat wins too.
#[test]
fn rule_12_1_allied_advance_into_sedan_wins() {
    let sc = meuse(7, 7)
        .unit("us-1", A, &[(16, 8, 4), (8, 4, 4)], "0102")
        .unit("g-1", B, &[(6, 7, 4), (3, 3, 4)], SEDAN)
        .div("us-2", A, "0506")
        .div("g-2", B, "0505")
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack(SEDAN, &["us-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared(SEDAN, &["g-1"], &["us-1"]),
            // 16 - 7 = +9: the Fortress line's "+8,+9" stands over grid column 7.
            ground(16, 7, "fortress", "+8,+9", 1, CrtResult::D2),
            retreat_required(B, &["g-1"], 2),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        retreat("g-1", &["0201", "0301"]),
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            retreated("g-1", SEDAN, &["0201", "0301"]),
            advance_offered(&[SEDAN, "0201"], &["us-1"]),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        Command::Advance {
            unit: u("us-1"),
            to: h(SEDAN),
        },
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            Event::UnitAdvanced {
                unit: u("us-1"),
                from: h("0102"),
                path: hexes(&[SEDAN]),
            },
            ended(SEDAN),
            allied_win("us-1"),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 13.1 Three-step divisions and brigades.

/// 13.1 note: a De on a three-step division eliminates the divisional counter only;
/// its third step, a brigade chit, is placed in the same hex at once.
#[test]
fn rule_13_1_de_on_three_step_division_leaves_brigade_in_its_hex() {
    let sc = meuse(7, 7)
        .three_step("us-4", "0404")
        .unit("g-1", B, &[(16, 6, 4), (8, 3, 4)], "0403")
        .brigades(2)
        .spare()
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Combat);
    // 16 - 8 = +8 on the clear line, die 1: De.
    let ev = play(
        &sc,
        &mut s,
        attack("0404", &["g-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0404", &["us-4"], &["g-1"]),
            ground(16, 8, "clear", "+8,+9", 1, CrtResult::De),
            eliminated("us-4"),
            brigade_placed("bde-1", "0404"),
            ended("0404"),
        ]
    );
    assert_eq!(loc_of(&s, "bde-1"), Location::Map(h("0404")));
    assert_eq!(steps_of(&s, "bde-1"), 1);
}

/// 13.1: a depleted three-step division that loses its last counter step is removed
/// and replaced by a brigade chit in its hex.
#[test]
fn rule_13_1_three_step_division_losing_last_counter_step_leaves_brigade() {
    let sc = meuse(7, 7)
        .three_step("us-4", "0404")
        .unit("g-1", B, &[(5, 5, 4), (2, 2, 4)], "0403")
        .brigades(2)
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    hurt(&mut s, "us-4");
    // 5 - 5 = 0 on the clear line, die 1: Ex.
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-4"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-4"]),
            ground(5, 5, "clear", "0", 1, CrtResult::Ex),
            step_lost("g-1", 1),
            eliminated("us-4"),
            brigade_placed("bde-1", "0404"),
            ended("0403"),
        ]
    );
}

/// 13.1: a brigade that is reduced is eliminated, and no other brigade replaces it.
#[test]
fn rule_13_1_brigade_losing_a_step_is_eliminated_without_replacement() {
    let sc = meuse(7, 7)
        .brigade_at("bde-1", "0404")
        .brigades(1)
        .unit("g-1", B, &[(3, 3, 4), (2, 2, 4)], "0403")
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["bde-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["bde-1"]),
            ground(3, 3, "clear", "0", 1, CrtResult::Ex),
            step_lost("g-1", 1),
            eliminated("bde-1"),
            ended("0403"),
        ]
    );
    assert_eq!(loc_of(&s, "bde-2"), Location::OffMap);
}

/// 13.1 with 13.2: with no brigade chit left off the map, an eliminated three-step
/// division leaves nothing behind.
#[test]
fn rule_13_1_no_free_brigade_chit_nothing_placed() {
    let sc = meuse(7, 7)
        .three_step("us-4", "0404")
        .brigade_at("bde-1", "0606")
        .unit("g-1", B, &[(5, 5, 4), (2, 2, 4)], "0403")
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    hurt(&mut s, "us-4");
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-4"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-4"]),
            ground(5, 5, "clear", "0", 1, CrtResult::Ex),
            step_lost("g-1", 1),
            eliminated("us-4"),
            ended("0403"),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 13.2 Voluntary brigade breakdown.

/// us-4 (three-step) in 0404, the ordinary division us-1 in 0304, g-1 in 0402.
fn breakdown_map(chits: usize) -> Meuse {
    meuse(7, 7)
        .three_step("us-4", "0404")
        .div("us-1", A, "0304")
        .div("g-1", B, "0402")
        .brigades(chits)
        .start(Phase::Movement)
}

/// 13.2: a full-strength three-step division breaks down into three brigades in its
/// hex; the divisional counter leaves the map.
#[test]
fn rule_13_2_full_division_breaks_down_into_three_brigades() {
    let sc = breakdown_map(4).build();
    let mut s = begin(&sc, Phase::Movement);
    let ev = play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(
        ev,
        vec![broken_down("us-4", "0404", &["bde-1", "bde-2", "bde-3"])]
    );
    assert_eq!(s.units[idx(&s, "us-4")].hex(), None);
    assert_eq!(s.units_at(h("0404")).len(), 3);
    assert_eq!(loc_of(&s, "bde-4"), Location::OffMap);
}

/// 13.2: a depleted three-step division breaks down into two brigades.
#[test]
fn rule_13_2_depleted_division_breaks_down_into_two_brigades() {
    let sc = breakdown_map(4).build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "us-4");
    let ev = play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(ev, vec![broken_down("us-4", "0404", &["bde-1", "bde-2"])]);
}

/// 13.2: only as many brigades as the counter mix has left are placed; with none
/// left there is no breakdown.
#[test]
fn rule_13_2_breakdown_limited_by_brigade_chits_available() {
    let sc = breakdown_map(2).three_step("us-32", "0606").build();
    let mut s = begin(&sc, Phase::Movement);
    let ev = play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(ev, vec![broken_down("us-4", "0404", &["bde-1", "bde-2"])]);
    assert_eq!(refused(&sc, &s, break_down("us-32")).rule, "13.2");
}

/// 13.2: breakdown happens at the beginning of the Allied movement phase: not once a
/// unit (here the division itself) has moved, not by an ordinary division, not in
/// another phase.
#[test]
fn rule_13_2_only_unmoved_three_step_division_in_allied_movement_phase() {
    let sc = breakdown_map(4).three_step("us-32", "0606").spare().build();
    let mut s = begin(&sc, Phase::Movement);
    assert_eq!(refused(&sc, &s, break_down("us-1")).rule, "13.2");
    play(&sc, &mut s, mv("us-4", &["0405"]), &mut no_rng());
    assert_eq!(refused(&sc, &s, break_down("us-4")).rule, "13.2");
    done_until(&sc, &mut s, A, Phase::Combat);
    assert_eq!(refused(&sc, &s, break_down("us-32")).rule, "13.2");
}

fn breakdowns_listed(sc: &Scenario, s: &State) -> Vec<Command> {
    legal_commands(sc, s)
        .into_iter()
        .filter(|c| matches!(c, Command::BreakDown { .. }))
        .collect()
}

/// 13.2 "at the beginning of any US movement phase" (R-MA-13.2a): once any Allied unit
/// has moved in the phase, no division may break down, not only the one that moved:
/// us-1 (an ordinary division) moves, and us-4, which has not, is refused and no longer
/// listed.
#[test]
fn rule_13_2_no_breakdown_once_any_allied_unit_has_moved() {
    let sc = breakdown_map(4).three_step("us-32", "0606").spare().build();
    let mut s = begin(&sc, Phase::Movement);
    assert_eq!(
        breakdowns_listed(&sc, &s),
        vec![break_down("us-4"), break_down("us-32")]
    );
    let ev = play(&sc, &mut s, mv("us-1", &["0305"]), &mut no_rng());
    assert_eq!(ev, vec![moved("us-1", "0304", &["0305"], "1")]);
    let err = refused(&sc, &s, break_down("us-4"));
    assert_eq!(err.rule, "13.2");
    assert!(err.message.contains("us-1"), "{}", err.message);
    assert_eq!(refused(&sc, &s, break_down("us-32")).rule, "13.2");
    assert_eq!(breakdowns_listed(&sc, &s), vec![]);
}

/// 13.2 with 11.3 (R-MA-13.2a, R-MA-11.3a): a replacement "arrives" and counts as
/// having moved, so placing one ends the beginning of the phase: no breakdown after it.
#[test]
fn rule_13_2_no_breakdown_after_a_replacement_arrives() {
    let sc = breakdown_map(4).spare().build();
    let mut s = begin(&sc, Phase::Movement);
    kill(&mut s, "us-1");
    let ev = play(&sc, &mut s, replace("us-1", "0407"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-1", "0407", 2)]);
    assert_eq!(refused(&sc, &s, break_down("us-4")).rule, "13.2");
    assert_eq!(breakdowns_listed(&sc, &s), vec![]);
}

/// 13.2 with 3.0(c) (R-MA-13.2a): a reinforcement enters the map with a move, so once
/// one has entered no division may break down.
#[test]
fn rule_13_2_no_breakdown_after_a_reinforcement_enters() {
    let sc = breakdown_map(4)
        .div("us-5", A, "0707")
        .reinforcement(2, &["0207"])
        .spare()
        .build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, A, Phase::Movement);
    assert_eq!(s.turn, 2);
    assert_eq!(loc_of(&s, "us-5"), Location::Arriving);
    assert_eq!(breakdowns_listed(&sc, &s), vec![break_down("us-4")]);
    let ev = play(&sc, &mut s, mv("us-5", &["0207"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::UnitMoved {
            unit: u("us-5"),
            from: None,
            path: hexes(&["0207"]),
            mp: "1".parse().unwrap(),
        }]
    );
    assert_eq!(refused(&sc, &s, break_down("us-4")).rule, "13.2");
    assert_eq!(breakdowns_listed(&sc, &s), vec![]);
}

/// 13.2 "(including the phase of arrival)" (R-MA-13.2a): a three-step division due
/// as a reinforcement may break down at the beginning of the movement phase, before it
/// enters (entering is a move): its brigades arrive in its place, enter on its entry
/// hexes with normal moves (3.0(c)) and may stack as they enter.
#[test]
fn rule_13_2_arriving_division_breaks_down_before_it_enters() {
    let sc = meuse(7, 7)
        .three_step("us-79", "0707")
        .reinforcement(2, &["0507", "0607"])
        .div("g-1", B, "0402")
        .brigades(4)
        .spare()
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    assert_eq!(breakdowns_listed(&sc, &s), vec![]);
    done_until(&sc, &mut s, A, Phase::Movement);
    assert_eq!(loc_of(&s, "us-79"), Location::Arriving);
    assert_eq!(breakdowns_listed(&sc, &s), vec![break_down("us-79")]);
    let ev = play(&sc, &mut s, break_down("us-79"), &mut no_rng());
    assert_eq!(
        ev,
        vec![Event::DivisionBrokenDown {
            unit: u("us-79"),
            hex: None,
            brigades: ids(&["bde-1", "bde-2", "bde-3"]),
        }]
    );
    assert_eq!(loc_of(&s, "us-79"), Location::Eliminated);
    for b in ["bde-1", "bde-2", "bde-3"] {
        assert_eq!(loc_of(&s, b), Location::Arriving, "{b}");
    }
    assert_eq!(loc_of(&s, "bde-4"), Location::OffMap);
    assert_eq!(refused(&sc, &s, mv("bde-1", &["0407"])).rule, "3.0(c)");
    let entered = |unit: &str, path: &[&str], mp: &str| Event::UnitMoved {
        unit: u(unit),
        from: None,
        path: hexes(path),
        mp: mp.parse().unwrap(),
    };
    let ev = play(&sc, &mut s, mv("bde-1", &["0507", "0506"]), &mut no_rng());
    assert_eq!(ev, vec![entered("bde-1", &["0507", "0506"], "2")]);
    let ev = play(&sc, &mut s, mv("bde-2", &["0507", "0506"]), &mut no_rng());
    assert_eq!(ev, vec![entered("bde-2", &["0507", "0506"], "2")]);
    let ev = play(&sc, &mut s, mv("bde-3", &["0607"]), &mut no_rng());
    assert_eq!(ev, vec![entered("bde-3", &["0607"], "1")]);
    assert_eq!(s.units_at(h("0506")).len(), 2);
    assert!(s.ex.arriving_brigades.is_empty());
}

/// 13.2 (R-MA-13.2a): what is not a move does not end the beginning of the phase: a
/// rebuild, an aircraft placement and another breakdown may come first. The brigades
/// so placed may still move, but once one has, the next breakdown is refused.
#[test]
fn rule_13_2_breakdowns_may_follow_rebuilds_aircraft_and_each_other() {
    let sc = breakdown_map(6).three_step("us-32", "0606").spare().build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "us-1");
    let ev = play(&sc, &mut s, rebuild(&["us-1"]), &mut no_rng());
    assert_eq!(ev, vec![rebuilt("us-1", 2)]);
    let ev = play(&sc, &mut s, aircraft("0402"), &mut no_rng());
    assert_eq!(ev, vec![Event::AircraftPlaced { hex: h("0402") }]);
    let ev = play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(
        ev,
        vec![broken_down("us-4", "0404", &["bde-1", "bde-2", "bde-3"])]
    );
    assert_eq!(breakdowns_listed(&sc, &s), vec![break_down("us-32")]);
    let ev = play(&sc, &mut s, mv("bde-1", &["0405"]), &mut no_rng());
    assert_eq!(ev, vec![moved("bde-1", "0404", &["0405"], "1")]);
    assert_eq!(refused(&sc, &s, break_down("us-32")).rule, "13.2");
    assert_eq!(breakdowns_listed(&sc, &s), vec![]);
}

/// 13.2: two or three brigades may stack (never four); they move separately and may
/// come together again in another hex.
#[test]
fn rule_13_2_brigades_stack_up_to_three_move_separately_and_restack() {
    let sc = breakdown_map(3).brigade_at("bde-4", "0406").build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    let ev = play(&sc, &mut s, mv("bde-1", &["0405"]), &mut no_rng());
    assert_eq!(ev, vec![moved("bde-1", "0404", &["0405"], "1")]);
    let ev = play(&sc, &mut s, mv("bde-2", &["0405"]), &mut no_rng());
    assert_eq!(ev, vec![moved("bde-2", "0404", &["0405"], "1")]);
    let ev = play(&sc, &mut s, mv("bde-4", &["0405"]), &mut no_rng());
    assert_eq!(ev, vec![moved("bde-4", "0406", &["0405"], "1")]);
    assert_eq!(s.units_at(h("0405")).len(), 3);
    assert_eq!(refused(&sc, &s, mv("bde-3", &["0405"])).rule, "5.3");
    let ev = play(&sc, &mut s, mv("bde-3", &["0504"]), &mut no_rng());
    assert_eq!(ev, vec![moved("bde-3", "0404", &["0504"], "1")]);
}

/// 13.2: brigades never stack with a division, either way round.
#[test]
fn rule_13_2_brigades_never_stack_with_a_division() {
    let sc = breakdown_map(3).build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(refused(&sc, &s, mv("us-1", &["0404"])).rule, "5.3");
    assert_eq!(refused(&sc, &s, mv("bde-1", &["0304"])).rule, "5.3");
}

/// 13.2: stacked brigades function as a single divisional unit: the stack attacks
/// together or not at all.
#[test]
fn rule_13_2_stacked_brigades_attack_as_one_unit() {
    let sc = breakdown_map(3).div("g-2", B, "0403").spare().build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    done_until(&sc, &mut s, A, Phase::Combat);
    assert_eq!(refused(&sc, &s, attack("0403", &["bde-1"])).rule, "13.2");
    assert_eq!(
        refused(&sc, &s, attack("0403", &["bde-1", "bde-2"])).rule,
        "13.2"
    );
    let listed: Vec<Command> = legal_commands(&sc, &s)
        .into_iter()
        .filter(|c| matches!(c, Command::Attack { hex, .. } if *hex == h("0403")))
        .collect();
    assert_eq!(listed, vec![attack("0403", &["bde-1", "bde-2", "bde-3"])]);
    // 9 - 6 = +3 on the clear line, die 5: no effect.
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["bde-1", "bde-2", "bde-3"]),
        &mut Script::dice(&[5]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-2"], &["bde-1", "bde-2", "bde-3"]),
            ground(9, 6, "clear", "+2,+3", 5, CrtResult::NoEffect),
            ended("0403"),
        ]
    );
}

/// 13.2: a broken-down division comes back as a replacement only while at least three
/// brigade chits are off the map.
#[test]
fn rule_13_2_broken_down_division_replaced_only_with_three_chits_off_map() {
    // Five chits: three go on the map, two stay off.
    let sc = breakdown_map(5).build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    assert_eq!(refused(&sc, &s, replace("us-4", "0407")).rule, "13.2");
    // Six chits: three stay off.
    let sc = breakdown_map(6).build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    let ev = play(&sc, &mut s, replace("us-4", "0407"), &mut no_rng());
    assert_eq!(ev, vec![replaced("us-4", "0407", 1)]);
}

// ---------------------------------------------------------------------------------
// 14.1 Rises, 14.2 German works, 14.3 fortification movement.

/// 14.1: any attack against a rise hex uses the Rise line, whoever attacks.
#[test]
fn rule_14_1_attack_on_rise_uses_rise_line() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .terrain("0403", &["rise"])
        .terrain("0404", &["rise"])
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[4]),
    );
    // +2 on the Rise line (-4) is its seventh column; die 4: no effect (the Clear
    // line's "+2,+3" would be grid column 8, Ex).
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 6, "rise", "+2,+3", 4, CrtResult::NoEffect),
            ended("0403"),
        ]
    );
    done_until(&sc, &mut s, B, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0404", &["g-1"]),
        &mut Script::dice(&[1]),
    );
    // -2 on the Rise line: grid column 3; die 1: A2.
    assert_eq!(
        ev,
        vec![
            declared("0404", &["us-1"], &["g-1"]),
            ground(6, 8, "rise", "-2", 1, CrtResult::A2),
            retreat_required(B, &["g-1"], 2),
        ]
    );
}

/// 14.2: an Allied attack on a German unit in an unbreached Stellung, 2nd Tier Trench
/// or Fortifications hex "must be resolved via the appropriate terrain line", even from
/// another works hex: each works line reads a different column at +2 (Stellung -3:
/// grid 6; 2nd Tier -4: grid 7; Fortification -2: grid 5), all left of the Clear line's
/// (grid 8, no effect on a 5).
#[test]
fn rule_14_2_works_line_for_german_defender_attacked_by_allies() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .terrain("0403", &["clear", "stellung"])
        .terrain("0404", &["clear", "stellung"])
        .div("us-2", A, "0604")
        .div("g-2", B, "0603")
        .terrain("0603", &["clear", "second-tier"])
        .div("us-3", A, "0204")
        .div("g-3", B, "0203")
        .terrain("0203", &["clear", "fortification"])
        .div("us-4", A, "0706")
        .div("g-4", B, "0705")
        .spare()
        .start(Phase::Combat)
        .build();
    let s = begin(&sc, Phase::Combat);
    for (hex, g, us, line, result, then) in [
        (
            "0403",
            "g-1",
            "us-1",
            "stellung",
            CrtResult::A3,
            retreat_required(A, &["us-1"], 3),
        ),
        (
            "0603",
            "g-2",
            "us-2",
            "second-tier",
            CrtResult::A2,
            retreat_required(A, &["us-2"], 2),
        ),
        (
            "0203",
            "g-3",
            "us-3",
            "fortification",
            CrtResult::AStep,
            step_lost("us-3", 1),
        ),
        (
            "0705",
            "g-4",
            "us-4",
            "clear",
            CrtResult::NoEffect,
            ended("0705"),
        ),
    ] {
        let mut s2 = s.clone();
        let ev = play(&sc, &mut s2, attack(hex, &[us]), &mut Script::dice(&[5]));
        assert_eq!(
            ev[..3],
            [
                declared(hex, &[g], &[us]),
                ground(8, 6, line, "+2,+3", 5, result),
                then,
            ],
            "{line}"
        );
    }
}

/// 14.2 with 8.2.2 Important (R-MA-14.2c): the works' line joins the hex's other
/// terrain, and the defender uses the most beneficial of them. A town behind a 2nd
/// Tier Trench: at 0 Town (-3) reads grid column 4 (no effect on a 1), 2nd Tier (-4)
/// grid 5 (Ex), so the town's line; in the open the 2nd Tier line beats Clear.
#[test]
fn rule_14_2_works_and_other_terrain_use_the_line_best_for_the_defender() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .unit("g-1", B, &[(6, 8, 4), (3, 4, 4)], "0403")
        .terrain("0403", &["town", "second-tier"])
        .div("us-2", A, "0604")
        .unit("g-2", B, &[(6, 8, 4), (3, 4, 4)], "0603")
        .terrain("0603", &["clear", "second-tier"])
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 8, "town", "0", 1, CrtResult::NoEffect),
            ended("0403"),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        attack("0603", &["us-2"]),
        &mut Script::dice(&[4]),
    );
    // 2nd Tier at 0: grid column 5; die 4: A3 (Clear's 0, grid 6, would be A2).
    assert_eq!(
        ev,
        vec![
            declared("0603", &["g-2"], &["us-2"]),
            ground(8, 8, "second-tier", "0", 4, CrtResult::A3),
            retreat_required(A, &["us-2"], 3),
        ]
    );
}

/// 14.2: an Allied unit in a works hex never benefits from it: a German attack uses
/// the line of the other terrain in its hex. At -2 the Woods line reads grid column 2
/// (A3 on a 1) and Clear grid 4 (no effect), where Fortification (-2) would read grid 1.
#[test]
fn rule_14_2_works_never_used_for_allied_defender() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .terrain("0404", &["woods", "stellung"])
        .div("us-2", A, "0604")
        .div("g-2", B, "0603")
        .terrain("0604", &["clear", "fortification"])
        .spare()
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0604", &["g-2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0604", &["us-2"], &["g-2"]),
            ground(6, 8, "clear", "-2", 1, CrtResult::NoEffect),
            ended("0604"),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        attack("0404", &["g-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0404", &["us-1"], &["g-1"]),
            ground(6, 8, "woods", "-2", 1, CrtResult::A3),
            retreat_required(B, &["g-1"], 3),
        ]
    );
}

/// g-1 in the Stellung hex 0403, next to us-1 (0404); 0503, also next to us-1, is a
/// Stellung hex too.
fn works_zoc_map(works: bool) -> Meuse {
    let m = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .spare();
    if works {
        m.terrain("0403", &["clear", "stellung"])
            .terrain("0503", &["clear", "stellung"])
    } else {
        m
    }
}

fn in_ezoc(sc: &Scenario, s: &State, of: Side, hex: &str) -> bool {
    zoc::ezoc_map(sc, s, of)[sc.hex_index(h(hex)).unwrap() as usize]
}

/// 14.2: Allied ZOC does not extend into an unbreached works hex (German ZOC does):
/// g-1 leaves its Stellung hex next to us-1 through another one as if no Allied unit
/// were there. Without the works the same move stops at the first hex (6.1).
#[test]
fn rule_14_2_allied_zoc_does_not_extend_into_unbreached_works() {
    let sc = works_zoc_map(true).start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Movement);
    assert!(!in_ezoc(&sc, &s, B, "0403"));
    assert!(!in_ezoc(&sc, &s, B, "0503"));
    assert!(in_ezoc(&sc, &s, B, "0303"));
    assert!(
        in_ezoc(&sc, &s, A, "0503"),
        "German ZOC reaches works hexes"
    );
    let ev = play(&sc, &mut s, mv("g-1", &["0503", "0502"]), &mut no_rng());
    assert_eq!(ev, vec![moved("g-1", "0403", &["0503", "0502"], "2")]);

    let sc = works_zoc_map(false).start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Movement);
    assert!(in_ezoc(&sc, &s, B, "0403"));
    assert_eq!(refused(&sc, &s, mv("g-1", &["0503", "0502"])).rule, "6.1");
}

/// 14.2: once the works are breached (17.6), Allied ZOC extends into the hex. Placing
/// the marker breaches nothing; the roll at `done` does.
#[test]
fn rule_14_2_allied_zoc_extends_into_breached_works() {
    let sc = works_zoc_map(true).start(Phase::Bombardment).build();
    let mut s = begin(&sc, Phase::Bombardment);
    assert!(!in_ezoc(&sc, &s, B, "0403"));
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    assert!(!in_ezoc(&sc, &s, B, "0403"));
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 1, 2),
            breached("0403"),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert!(in_ezoc(&sc, &s, B, "0403"));
    assert!(!in_ezoc(&sc, &s, B, "0503"));
}

/// 14.2 with 17.6: a breached works hex gives no defensive benefit: the other
/// terrain's line applies.
#[test]
fn rule_14_2_breached_works_give_no_benefit() {
    let sc = works_zoc_map(true).start(Phase::Bombardment).build();
    let mut s = begin(&sc, Phase::Bombardment);
    place(&sc, &mut s, "0403", 1, false);
    fire(&sc, &mut s, &[1]);
    assert!(s.ex.breached.contains(&h("0403")));
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Combat
        }
    );
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[5]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 6, "clear", "+2,+3", 5, CrtResult::NoEffect),
            ended("0403"),
        ]
    );
}

/// 14.3: Allied units pay +1 MP to enter a Fortification hex; German units do not.
#[test]
fn rule_14_3_allied_units_pay_one_more_mp_into_fortification() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0405")
        .unit("us-2", A, &[(4, 4, 2)], "0206")
        .div("g-1", B, "0702")
        .terrain("0404", &["clear", "fortification"])
        .terrain("0205", &["clear", "fortification"])
        .terrain("0602", &["clear", "fortification"])
        .spare()
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    let ev = play(&sc, &mut s, mv("us-1", &["0404"]), &mut no_rng());
    assert_eq!(ev, vec![moved("us-1", "0405", &["0404"], "2")]);
    // 2 MP into the fortification, 1 more for the clear hex beyond: 3 > 2.
    assert_eq!(
        refused(&sc, &s, mv("us-2", &["0205", "0204"])).rule,
        "5.2(c)"
    );
    done_until(&sc, &mut s, B, Phase::Movement);
    let ev = play(&sc, &mut s, mv("g-1", &["0602"]), &mut no_rng());
    assert_eq!(ev, vec![moved("g-1", "0702", &["0602"], "1")]);
}

// ---------------------------------------------------------------------------------
// 15.2 H-Hour.

/// 15.2 (R-4.1b): the built-in scenario starts on turn 1 (Sep 26/27) right after
/// set-up with the Allied artillery bombardment, then the Allied combat phase: there
/// is no Allied movement phase on turn 1.
#[test]
fn rule_15_2_builtin_scenario_begins_with_allied_bombardment_then_combat() {
    let sc = Scenario::builtin("meuse-argonne").unwrap();
    assert_eq!(
        sc.data.start,
        StartPoint {
            turn: 1,
            phase: Phase::Bombardment
        }
    );
    assert_eq!(sc.data.first_player, A);
    let (mut s, _) = new_game(&sc, &mut no_rng());
    let mut last = Vec::new();
    while let Pending::Setup { .. } = s.pending() {
        let c = legal_commands(&sc, &s)[0].clone();
        last = play(&sc, &mut s, c, &mut no_rng());
    }
    assert!(matches!(last[0], Event::UnitPlaced { .. }));
    assert_eq!(
        last[1..7],
        [
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
            Event::ArtilleryAllotted { side: B, count: 4 },
            phase(A, Phase::Bombardment),
        ]
    );
    let mut rest = last[7..].to_vec();
    if s.pending()
        == (Pending::Phase {
            side: A,
            phase: Phase::Bombardment,
        })
    {
        rest = play(&sc, &mut s, Command::Done, &mut no_rng());
    }
    assert_eq!(rest.first(), Some(&phase(A, Phase::Combat)));
    assert_eq!(s.turn, 1);
}

// ---------------------------------------------------------------------------------
// 16.0, 17.1-17.7 Artillery bombardment.

/// us-1 in 0404 observes g-1 in 0403; the spare pair (us-9 observes g-9).
fn art_map() -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .spare()
}

fn begin_bombardment(m: Meuse) -> (Scenario, State) {
    let sc = m.start(Phase::Bombardment).build();
    let s = begin(&sc, Phase::Bombardment);
    (sc, s)
}

fn art_firing(hex: &str, defenders: &[&str], markers: u8, gas: bool) -> Event {
    Event::ArtilleryFiring {
        hex: h(hex),
        defenders: ids(defenders),
        markers,
        gas,
    }
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

/// 17.1: artillery bombardment replaces the system bombardment: `bombard` is refused
/// even with support fire markers in hand.
#[test]
fn rule_17_1_system_bombardment_command_refused() {
    let sc = art_map()
        .support(&[1, 2], &[1, 2])
        .start(Phase::Bombardment)
        .build();
    let s = start(&sc);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Bombardment
        }
    );
    let cmd = Command::Bombard {
        hex: h("0403"),
        markers: 1,
    };
    assert_eq!(refused(&sc, &s, cmd).rule, "17.1");
    assert!(!legal_commands(&sc, &s)
        .iter()
        .any(|c| matches!(c, Command::Bombard { .. })));
}

/// 17.2: artillery fires at the end of the movement phase, before combat: in the
/// Bombardment Phase only.
#[test]
fn rule_17_2_artillery_only_in_bombardment_phase() {
    let sc = art_map().start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    done_until(&sc, &mut s, A, Phase::Combat);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
}

/// 17.2: the enemy places nothing in response, and no support fire is involved: the
/// placed markers are rolled as soon as the player is done placing.
#[test]
fn rule_17_2_artillery_draws_no_support_fire_from_either_side() {
    let sc = art_map()
        .support(&[1, 2], &[1, 2])
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    let support = s.support.clone();
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 6, 0),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.support, support);
    assert_eq!(s.ex.artillery, SidePair::new(7, 4));
}

/// 17.3: only an enemy unit adjacent to an observing unit may be bombarded.
#[test]
fn rule_17_3_only_observed_units_may_be_bombarded() {
    let (sc, s) = begin_bombardment(art_map().div("g-2", B, "0401"));
    assert_eq!(refused(&sc, &s, artillery("0401", 1, false)).rule, "17.3");
    assert!(explain(&sc, &s, &artillery("0403", 1, false)).is_none());
}

/// 17.3: an Allied aircraft observes its hex and the adjacent hexes, for targets no
/// more than three hexes from an Allied unit. An aircraft next to the target hex
/// gives no modifier.
#[test]
fn rule_17_3_aircraft_observes_its_hex_and_neighbours_within_three_hexes() {
    // g-2 (0601) is 4 hexes from us-1, g-3 (0702) 3 hexes; both touch 0602.
    let sc = art_map()
        .div("g-2", B, "0601")
        .div("g-3", B, "0702")
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    assert!(!meuse_argonne::observed(&sc, &s, A, h("0702")));
    let ev = play(&sc, &mut s, aircraft("0602"), &mut no_rng());
    assert_eq!(ev, vec![Event::AircraftPlaced { hex: h("0602") }]);
    assert!(meuse_argonne::observed(&sc, &s, A, h("0702")));
    done_until(&sc, &mut s, A, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, artillery("0601", 1, false)).rule, "17.3");
    let ev = place(&sc, &mut s, "0702", 1, false);
    assert_eq!(ev, vec![art_declared("0702", &["g-3"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0702", &["g-3"], 1, false),
            fired("0702", 6, 0),
            ended("0702"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.3: aircraft markers are placed by the Allied player in his own movement phase,
/// as many as there are markers, one per hex.
#[test]
fn rule_17_3_aircraft_placed_only_by_allies_in_their_movement_phase() {
    let sc = art_map().start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, aircraft("0403"), &mut no_rng());
    assert_eq!(refused(&sc, &s, aircraft("0403")).rule, "17.3");
    play(&sc, &mut s, aircraft("0106"), &mut no_rng());
    assert_eq!(refused(&sc, &s, aircraft("0502")).rule, "17.3");
    done_until(&sc, &mut s, A, Phase::Bombardment);
    assert_eq!(s.ex.aircraft, hexes(&["0403", "0106"]));
    assert_eq!(refused(&sc, &s, aircraft("0502")).rule, "17.3");
    done_until(&sc, &mut s, B, Phase::Movement);
    assert!(s.ex.aircraft.is_empty());
    assert_eq!(refused(&sc, &s, aircraft("0502")).rule, "17.3");
}

/// 17.3 / Modifiers: an Allied aircraft in the bombarded hex gives -1.
#[test]
fn rule_17_3_aircraft_in_target_hex_gives_minus_one() {
    let sc = art_map().start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, aircraft("0403"), &mut no_rng());
    done_until(&sc, &mut s, A, Phase::Bombardment);
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 6, -1),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.2: no more than two markers per enemy unit (per turn), whether placed together
/// or one at a time; two placements on one hex are one bombardment of it.
#[test]
fn rule_17_2_at_most_two_markers_per_enemy_unit_per_turn() {
    let (sc, mut s) = begin_bombardment(art_map());
    assert_eq!(refused(&sc, &s, artillery("0403", 3, false)).rule, "17.2");
    assert_eq!(refused(&sc, &s, artillery("0403", 0, false)).rule, "17.2");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 2, false)).rule, "17.2");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    assert_eq!(s.ex.artillery.a, 6);
    let ev = fire(&sc, &mut s, &[6, 6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 2, false),
            fired("0403", 6, 0),
            fired("0403", 6, 0),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(s.ex.artillery.a, 6);
}

/// 17.2: every marker is placed before any is rolled: the enemy units "become
/// bombarded by each placed marker, one at a time, immediately after all desired
/// markers have been played". Placing rolls nothing; `done` rolls hex by hex in the
/// order placed, each hex's retreat decision (17.5) coming before the next hex's
/// roll, with no placing in between; then the phase is over and no marker can be
/// added after seeing a roll.
#[test]
fn rule_17_2_all_markers_placed_before_any_roll() {
    let (sc, mut s) = begin_bombardment(art_map());
    let ev = place(&sc, &mut s, "0403", 2, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 2, false)]);
    let ev = place(&sc, &mut s, "0106", 1, false);
    assert_eq!(ev, vec![art_declared("0106", &["g-9"], 1, false)]);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, false)).rule, "17.2");
    assert_eq!(s.ex.artillery.a, 5);
    assert_eq!(steps_of(&s, "g-1"), 2);
    assert_eq!(
        s.pending(),
        Pending::Phase {
            side: A,
            phase: Phase::Bombardment
        }
    );
    let ev = fire(&sc, &mut s, &[1, 6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 2, false),
            fired("0403", 1, 0),
            fired("0403", 6, 0),
            retreat_offered("g-1", 1),
        ]
    );
    // Between two hexes' rolls nothing more is placed.
    assert_eq!(refused(&sc, &s, artillery("0106", 1, false)).rule, "4.1");
    let ev = play_dice(&sc, &mut s, stiff("g-1"), &[6]);
    assert_eq!(
        ev,
        vec![
            step_lost("g-1", 1),
            ended("0403"),
            art_firing("0106", &["g-9"], 1, false),
            fired("0106", 6, 0),
            ended("0106"),
            phase(A, Phase::Combat),
        ]
    );
    assert!(s.ex.artillery_plan.is_empty());
    assert_eq!(s.ex.artillery.a, 5);
    assert_eq!(refused(&sc, &s, artillery("0106", 1, false)).rule, "17.2");
}

/// 17.1: a side places no more markers than the Artillery Track gives it this turn.
#[test]
fn rule_17_1_markers_limited_to_this_turns_allotment() {
    let sc = art_map()
        .params(|p| p.artillery[0] = SidePair::new(1, 4))
        .start(Phase::Bombardment)
        .build();
    let mut s = start(&sc);
    assert_eq!(s.ex.artillery, SidePair::new(1, 4));
    assert_eq!(refused(&sc, &s, artillery("0403", 2, false)).rule, "17.1");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    assert_eq!(s.ex.artillery.a, 0);
    assert_eq!(refused(&sc, &s, artillery("0106", 1, false)).rule, "17.1");
}

/// 17.1-17.2: markers not used in a turn are lost: the next turn's allotment replaces
/// what is left.
#[test]
fn rule_17_1_unused_markers_lost_at_next_allotment() {
    let (sc, mut s) = begin_bombardment(art_map());
    place(&sc, &mut s, "0403", 1, false);
    assert_eq!(s.ex.artillery, SidePair::new(7, 4));
    fire(&sc, &mut s, &[6]);
    assert_eq!(s.ex.artillery, SidePair::new(7, 4));
    let ev = done_until(&sc, &mut s, A, Phase::Movement);
    let k = ev
        .iter()
        .position(|e| *e == Event::TurnStarted { turn: 2 })
        .unwrap();
    assert_eq!(
        ev[k + 3..k + 5],
        [
            Event::ArtilleryAllotted { side: A, count: 6 },
            Event::ArtilleryAllotted { side: B, count: 3 },
        ]
    );
    assert_eq!(s.ex.artillery, SidePair::new(6, 3));
}

/// Artillery Bombardment Modifiers: the terrain modifier is the highest of the hex's
/// terrains (+1 woods, rise, 2nd Tier; +2 town, Stellung; +3 Fortifications,
/// fortress; 0 clear), not cumulative.
#[test]
fn rule_17_5_terrain_modifier_is_the_highest_in_the_hex() {
    let cases: &[(&[&str], i8)] = &[
        (&["clear"], 0),
        (&["woods"], 1),
        (&["rise"], 1),
        (&["clear", "second-tier"], 1),
        (&["town"], 2),
        (&["clear", "stellung"], 2),
        (&["clear", "fortification"], 3),
        (&["fortress"], 3),
        (&["town", "woods"], 2),
        (&["woods", "stellung"], 2),
        (&["rise", "second-tier"], 1),
        (&["town", "fortification"], 3),
    ];
    for (terrain, m) in cases {
        let (sc, mut s) = begin_bombardment(art_map().terrain("0403", terrain));
        let ev = place(&sc, &mut s, "0403", 1, false);
        assert_eq!(
            ev,
            vec![art_declared("0403", &["g-1"], 1, false)],
            "{terrain:?}"
        );
        let ev = fire(&sc, &mut s, &[6]);
        assert_eq!(
            ev,
            vec![
                art_firing("0403", &["g-1"], 1, false),
                fired("0403", 6, *m),
                ended("0403"),
                phase(A, Phase::Combat),
            ],
            "{terrain:?}"
        );
    }
}

/// 17.7: on the first game turn the Allies may use gas: -1 on each marker's roll.
#[test]
fn rule_17_7_gas_gives_minus_one_on_turn_1() {
    let (sc, mut s) = begin_bombardment(art_map().terrain("0106", &["woods"]));
    let ev = place(&sc, &mut s, "0403", 1, true);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, true)]);
    let ev = place(&sc, &mut s, "0106", 1, true);
    assert_eq!(ev, vec![art_declared("0106", &["g-9"], 1, true)]);
    // Clear: 4 - 1 = 3, a hit.
    let ev = fire(&sc, &mut s, &[4]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, true),
            fired("0403", 4, -1),
            retreat_offered("g-1", 1),
        ]
    );
    // Cumulative with the terrain: woods +1, gas -1.
    let ev = play_dice(&sc, &mut s, stiff("g-1"), &[6]);
    assert_eq!(
        ev,
        vec![
            step_lost("g-1", 1),
            ended("0403"),
            art_firing("0106", &["g-9"], 1, true),
            fired("0106", 6, 0),
            ended("0106"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.7: gas is an Allied option of the first game turn only.
#[test]
fn rule_17_7_gas_only_allied_and_only_on_turn_1() {
    let (sc, mut s) = begin_bombardment(art_map());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    assert_eq!(refused(&sc, &s, artillery("0404", 1, true)).rule, "17.7");
    done_until(&sc, &mut s, A, Phase::Bombardment);
    assert_eq!(s.turn, 2);
    assert_eq!(refused(&sc, &s, artillery("0403", 1, true)).rule, "17.7");
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 6, 0),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// Modifiers: +1 to any German bombardment.
#[test]
fn rule_17_5_german_bombardment_plus_one() {
    let (sc, mut s) = begin_bombardment(art_map());
    done_until(&sc, &mut s, B, Phase::Bombardment);
    let ev = place(&sc, &mut s, "0404", 1, false);
    assert_eq!(ev, vec![art_declared("0404", &["us-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[6]);
    assert_eq!(
        ev,
        vec![
            art_firing("0404", &["us-1"], 1, false),
            fired("0404", 6, 1),
            ended("0404"),
            phase(B, Phase::Combat),
        ]
    );
}

/// 17.5 / Bombardment Results Table: a modified roll of 1-3 is a hit, 4-6 nothing.
#[test]
fn rule_17_5_modified_roll_of_1_to_3_hits() {
    let (sc, mut s) = begin_bombardment(art_map());
    let ev = place(&sc, &mut s, "0403", 2, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 2, false)]);
    let ev = fire(&sc, &mut s, &[4, 3]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 2, false),
            fired("0403", 4, 0),
            fired("0403", 3, 0),
            retreat_offered("g-1", 1),
        ]
    );
}

/// 17.5: a hit depletes the unit, or eliminates it if already depleted (here it has
/// nowhere to retreat: every neighbour is an Allied unit or in an Allied ZOC). The
/// depleted unit is bombarded again the next game turn.
#[test]
fn rule_17_5_hit_depletes_or_eliminates() {
    let (sc, mut s) = begin_bombardment(art_map().div("us-2", A, "0402"));
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[3]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 3, 0),
            step_lost("g-1", 1),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    done_until(&sc, &mut s, A, Phase::Bombardment);
    assert_eq!(s.turn, 2);
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 1, 0),
            eliminated("g-1"),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// 17.5: after a hit a lone unit may retreat one hex (only) instead, by the
/// bombardment retreat rule (away from the nearest enemy), and loses nothing.
#[test]
fn rule_17_5_lone_hit_unit_may_retreat_one_hex_instead() {
    let (sc, mut s) = begin_bombardment(art_map());
    place(&sc, &mut s, "0403", 1, false);
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 1, 0),
            retreat_offered("g-1", 1),
        ]
    );
    assert_eq!(
        s.pending(),
        Pending::ArtilleryRetreat {
            side: B,
            unit: u("g-1"),
            hits: 1,
            stacked: vec![],
        }
    );
    let mut listed = legal_commands(&sc, &s);
    listed.sort_by_key(|c| format!("{c:?}"));
    let mut want = vec![
        retreat("g-1", &["0302"]),
        retreat("g-1", &["0402"]),
        retreat("g-1", &["0502"]),
        stiff("g-1"),
    ];
    want.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(listed, want);
    assert_eq!(
        refused(&sc, &s, retreat("g-1", &["0402", "0401"])).rule,
        "17.5"
    );
    assert_eq!(refused(&sc, &s, retreat("g-1", &["0303"])).rule, "17.5");
    let ev = play_dice(&sc, &mut s, retreat("g-1", &["0402"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("g-1", "0403", &["0402"]),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(steps_of(&s, "g-1"), 2);
}

/// 17.5: the retreat choice comes after all the markers on the hex are resolved; a
/// unit that stays takes every hit.
#[test]
fn rule_17_5_all_markers_resolved_before_the_retreat_choice() {
    let (sc, mut s) = begin_bombardment(art_map());
    let ev = place(&sc, &mut s, "0403", 2, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 2, false)]);
    let ev = fire(&sc, &mut s, &[1, 2]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 2, false),
            fired("0403", 1, 0),
            fired("0403", 2, 0),
            retreat_offered("g-1", 2),
        ]
    );
    let ev = play_dice(&sc, &mut s, stiff("g-1"), &[]);
    assert_eq!(
        ev,
        vec![
            step_lost("g-1", 1),
            eliminated("g-1"),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
}

/// Brigades bde-1 .. bde-`n` stacked in 0404 (moved there in the fresh state: the
/// validator refuses stacked start hexes), the German g-1 next to them in 0403, the
/// spare pair; `extra` adds to the map. Played to the German Bombardment Phase. The
/// legal one-hex retreats from 0404 are 0304, 0405 and 0504: 0403 holds g-1, 0303 and
/// 0503 are in its ZOC.
fn brigade_stack_under_fire(n: usize, extra: impl FnOnce(Meuse) -> Meuse) -> (Scenario, State) {
    let mut m = meuse(7, 7);
    let spots = ["0404", "0205", "0206"];
    for (k, at) in spots.iter().enumerate().take(n) {
        m = m.brigade_at(&format!("bde-{}", k + 1), at);
    }
    let sc = extra(m.div("g-1", B, "0403").spare())
        .start(Phase::Movement)
        .build();
    let (mut s, ev) = new_game(&sc, &mut no_rng());
    assert_eq!(ev, opening(Phase::Movement));
    for k in 1..n {
        let i = idx(&s, &format!("bde-{}", k + 1));
        s.units[i].loc = Location::Map(h("0404"));
    }
    done_until(&sc, &mut s, B, Phase::Bombardment);
    (sc, s)
}

/// 17.5 with 13.2: stacked brigades "function as if a single divisional unit": the
/// retreat "instead" of the hits is offered once, to the stack, named by its first
/// brigade. The stack retreats whole, by 8.3 with 8.1.5's direction, along one path
/// into one vacant hex and keeps together; no brigade loses anything. Another brigade
/// of the stack may not answer for it.
#[test]
fn rule_17_5_brigade_stack_retreats_one_hex_as_one_unit() {
    let (sc, mut s) = brigade_stack_under_fire(2, |m| m);
    let ev = place(&sc, &mut s, "0404", 1, false);
    assert_eq!(
        ev,
        vec![art_declared("0404", &["bde-1", "bde-2"], 1, false)]
    );
    // German fire +1: die 1 is a modified 2, a hit.
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0404", &["bde-1", "bde-2"], 1, false),
            fired("0404", 1, 1),
            stack_retreat_offered("bde-1", 1, &["bde-2"]),
        ]
    );
    assert_eq!(
        s.pending(),
        Pending::ArtilleryRetreat {
            side: A,
            unit: u("bde-1"),
            hits: 1,
            stacked: ids(&["bde-2"]),
        }
    );
    let listed = legal_commands(&sc, &s);
    assert_eq!(
        listed,
        vec![
            retreat("bde-1", &["0304"]),
            retreat("bde-1", &["0405"]),
            retreat("bde-1", &["0504"]),
            stiff("bde-1"),
        ]
    );
    for c in &listed {
        let i = command_to_index(&sc, &s, c).expect("an index");
        assert_eq!(index_to_command(&sc, &s, i).as_ref(), Some(c));
    }
    assert_eq!(refused(&sc, &s, retreat("bde-2", &["0405"])).rule, "17.5");
    assert_eq!(refused(&sc, &s, stiff("bde-2")).rule, "17.5");
    assert_eq!(refused(&sc, &s, retreat("bde-1", &["0303"])).rule, "17.5");
    assert_eq!(
        refused(&sc, &s, retreat("bde-1", &["0405", "0406"])).rule,
        "17.5"
    );
    let ev = play_dice(&sc, &mut s, retreat("bde-1", &["0405"]), &[]);
    assert_eq!(
        ev,
        vec![
            retreated("bde-1", "0404", &["0405"]),
            retreated("bde-2", "0404", &["0405"]),
            ended("0404"),
            phase(B, Phase::Combat),
        ]
    );
    assert_eq!(s.units_at(h("0405")).len(), 2);
    assert_eq!(steps_of(&s, "bde-1"), 1);
    assert_eq!(steps_of(&s, "bde-2"), 1);
}

/// 17.5 with 13.2: a stack that stays takes every hit, one brigade per hit (each
/// brigade is one step, 13.1); the rest of the stack remains.
#[test]
fn rule_17_5_brigade_stack_that_stays_takes_its_hits() {
    let (sc, mut s) = brigade_stack_under_fire(3, |m| m);
    place(&sc, &mut s, "0404", 2, false);
    let ev = fire(&sc, &mut s, &[1, 2]);
    assert_eq!(
        ev,
        vec![
            art_firing("0404", &["bde-1", "bde-2", "bde-3"], 2, false),
            fired("0404", 1, 1),
            fired("0404", 2, 1),
            stack_retreat_offered("bde-1", 2, &["bde-2", "bde-3"]),
        ]
    );
    let ev = play_dice(&sc, &mut s, stiff("bde-1"), &[]);
    assert_eq!(
        ev,
        vec![
            eliminated("bde-1"),
            eliminated("bde-3"),
            ended("0404"),
            phase(B, Phase::Combat),
        ]
    );
    assert_eq!(loc_of(&s, "bde-2"), Location::Map(h("0404")));
}

/// 17.5 with 8.3 (R-MA-17.5): the stack retreats only into a vacant hex (brigades do
/// not stack by retreat, and a stack never displaces): with a brigade on 0405 and
/// divisions on 0304 and 0504, its open hexes, no retreat is offered and the stack
/// takes its hit at once.
#[test]
fn rule_17_5_brigade_stack_with_no_vacant_hex_takes_its_hits() {
    let (sc, mut s) = brigade_stack_under_fire(2, |m| {
        m.brigade_at("bde-3", "0405")
            .div("us-1", A, "0304")
            .div("us-2", A, "0504")
    });
    place(&sc, &mut s, "0404", 1, false);
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0404", &["bde-1", "bde-2"], 1, false),
            fired("0404", 1, 1),
            eliminated("bde-1"),
            ended("0404"),
            phase(B, Phase::Combat),
        ]
    );
    assert_eq!(loc_of(&s, "bde-2"), Location::Map(h("0404")));
}

/// 17.6: a hit on a unit in an intact Stellung hex breaches the hex instead of
/// hurting the unit.
#[test]
fn rule_17_6_hit_on_stellung_breaches_without_step_loss() {
    let (sc, mut s) = begin_bombardment(art_map().terrain("0403", &["clear", "stellung"]));
    let ev = place(&sc, &mut s, "0403", 1, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, false)]);
    assert!(s.ex.breached.is_empty());
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, false),
            fired("0403", 1, 2),
            breached("0403"),
            ended("0403"),
            phase(A, Phase::Combat),
        ]
    );
    assert_eq!(steps_of(&s, "g-1"), 2);
    assert!(s.ex.breached.contains(&h("0403")));
}

/// 17.6: once breached, the works are ignored by "any ensuing bombardment": the next
/// marker on the hex uses its other terrain (clear, 0) and its hit counts.
#[test]
fn rule_17_6_markers_after_the_breach_use_the_other_terrain() {
    let (sc, mut s) = begin_bombardment(art_map().terrain("0403", &["clear", "stellung"]));
    let ev = place(&sc, &mut s, "0403", 2, false);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 2, false)]);
    let ev = fire(&sc, &mut s, &[1, 3]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 2, false),
            fired("0403", 1, 2),
            breached("0403"),
            fired("0403", 3, 0),
            retreat_offered("g-1", 1),
        ]
    );
}

/// 14.2 note / 17.6: fortress hexes are never breached; a hit there depletes. (+3
/// fortress, -1 gas, -1 aircraft: die 2 is a modified 3.)
#[test]
fn rule_17_6_fortress_hex_never_breached() {
    let sc = art_map()
        .terrain("0403", &["fortress", "fortification"])
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    play(&sc, &mut s, aircraft("0403"), &mut no_rng());
    done_until(&sc, &mut s, A, Phase::Bombardment);
    let ev = place(&sc, &mut s, "0403", 1, true);
    assert_eq!(ev, vec![art_declared("0403", &["g-1"], 1, true)]);
    let ev = fire(&sc, &mut s, &[2]);
    assert_eq!(
        ev,
        vec![
            art_firing("0403", &["g-1"], 1, true),
            fired("0403", 2, 1),
            retreat_offered("g-1", 1),
        ]
    );
    let ev = play_dice(&sc, &mut s, stiff("g-1"), &[]);
    assert_eq!(
        ev,
        vec![step_lost("g-1", 1), ended("0403"), phase(A, Phase::Combat)]
    );
    assert!(s.ex.breached.is_empty());
}

/// 17.6 note: a German bombardment of an Allied unit in a works hex can breach it
/// too. (2nd Tier +1, German +1: die 1 is a modified 3.)
#[test]
fn rule_17_6_german_hit_on_allied_unit_in_works_breaches() {
    let (sc, mut s) = begin_bombardment(art_map().terrain("0404", &["clear", "second-tier"]));
    done_until(&sc, &mut s, B, Phase::Bombardment);
    let ev = place(&sc, &mut s, "0404", 1, false);
    assert_eq!(ev, vec![art_declared("0404", &["us-1"], 1, false)]);
    let ev = fire(&sc, &mut s, &[1]);
    assert_eq!(
        ev,
        vec![
            art_firing("0404", &["us-1"], 1, false),
            fired("0404", 1, 2),
            breached("0404"),
            ended("0404"),
            phase(B, Phase::Combat),
        ]
    );
    assert_eq!(steps_of(&s, "us-1"), 2);
}

// ---------------------------------------------------------------------------------
// 18.1 The Lost Battalion.

fn lost_battalion(declare: bool) -> Command {
    Command::LostBattalion { declare }
}

/// us-1 (0404) next to g-1 in the woods of 0403, us-2 (0604) next to g-2 in the
/// woods of 0603; both German units 6-10-4.
fn woods_map() -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0404")
        .unit("g-1", B, &[(6, 10, 4), (3, 5, 4)], "0403")
        .terrain("0403", &["woods"])
        .div("us-2", A, "0604")
        .unit("g-2", B, &[(6, 10, 4), (3, 5, 4)], "0603")
        .terrain("0603", &["woods"])
        .spare()
}

/// 18.1: after an Allied attack on a woods hex is declared and support fire placed,
/// before the roll, the German player may declare the Lost Battalion; the attack then
/// uses the Woods (Lost Battalion) line whatever the differential.
#[test]
fn rule_18_1_lost_battalion_offered_after_support_fire_before_the_roll() {
    let sc = woods_map().support(&[1], &[1]).start(Phase::Combat).build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, attack("0403", &["us-1"]), &mut no_rng());
    assert_eq!(ev, vec![declared("0403", &["g-1"], &["us-1"])]);
    let ev = play(
        &sc,
        &mut s,
        Command::SupportFire { commit: false },
        &mut no_rng(),
    );
    assert_eq!(ev, vec![Event::SupportPassed { side: A, step: 0 }]);
    let ev = play(
        &sc,
        &mut s,
        Command::SupportFire { commit: true },
        &mut Script::new(&[0]),
    );
    assert_eq!(
        ev,
        vec![Event::SupportCommitted {
            side: B,
            step: Some(1),
            value: Some(1)
        }]
    );
    let ev = play(
        &sc,
        &mut s,
        Command::SupportFire { commit: false },
        &mut no_rng(),
    );
    assert_eq!(
        ev,
        vec![
            Event::SupportPassed { side: A, step: 2 },
            Event::LostBattalionOffered
        ]
    );
    assert_eq!(s.pending(), Pending::LostBattalion { side: B });
    assert_eq!(
        legal_commands(&sc, &s),
        vec![lost_battalion(false), lost_battalion(true)]
    );
    // 8 - 11 = -3: below the Lost Battalion line's first differential, -1 (grid
    // column 1); die 2: (A).
    let ev = play(&sc, &mut s, lost_battalion(true), &mut Script::dice(&[2]));
    assert_eq!(
        ev,
        vec![
            Event::LostBattalionDeclared { declared: true },
            Event::SupportRevealed {
                attacker: vec![],
                defender: vec![1]
            },
            ground(8, 11, "woods-lost-battalion", "-1", 2, CrtResult::AStep),
            step_lost("us-1", 1),
            ended("0403"),
        ]
    );
    assert!(s.ex.lost_battalion_used);
}

/// 18.1: once declared, the Lost Battalion is never offered again.
#[test]
fn rule_18_1_lost_battalion_once_per_game() {
    let sc = woods_map().start(Phase::Combat).build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(&sc, &mut s, attack("0403", &["us-1"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            Event::LostBattalionOffered
        ]
    );
    let ev = play(&sc, &mut s, lost_battalion(true), &mut Script::dice(&[2]));
    assert_eq!(
        ev,
        vec![
            Event::LostBattalionDeclared { declared: true },
            ground(8, 10, "woods-lost-battalion", "-1", 2, CrtResult::AStep),
            step_lost("us-1", 1),
            ended("0403"),
        ]
    );
    let ev = play(
        &sc,
        &mut s,
        attack("0603", &["us-2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0603", &["g-2"], &["us-2"]),
            ground(8, 10, "woods", "-2", 1, CrtResult::A3),
            retreat_required(A, &["us-2"], 3),
        ]
    );
}

/// 18.1: the rule is spent only when declared: passing keeps it for a later attack.
#[test]
fn rule_18_1_declining_keeps_the_lost_battalion_for_later() {
    let sc = woods_map().start(Phase::Combat).build();
    let mut s = begin(&sc, Phase::Combat);
    play(&sc, &mut s, attack("0403", &["us-1"]), &mut no_rng());
    let ev = play(&sc, &mut s, lost_battalion(false), &mut Script::dice(&[2]));
    assert_eq!(
        ev,
        vec![
            Event::LostBattalionDeclared { declared: false },
            ground(8, 10, "woods", "-2", 2, CrtResult::AStep),
            step_lost("us-1", 1),
            ended("0403"),
        ]
    );
    let ev = play(&sc, &mut s, attack("0603", &["us-2"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            declared("0603", &["g-2"], &["us-2"]),
            Event::LostBattalionOffered
        ]
    );
}

/// 18.1: the Lost Battalion is "penalized": the Woods (Lost Battalion) line (-1) reads
/// every differential at or above -1 two columns further left than the Woods line (-3).
/// At 0 Woods reads grid column 4 (no effect on a 1); declared, the attack reads grid
/// column 2 (A3).
#[test]
fn rule_18_1_lost_battalion_line_is_a_penalty_on_the_attacker() {
    for (declare, line, result) in [
        (false, "woods", CrtResult::NoEffect),
        (true, "woods-lost-battalion", CrtResult::A3),
    ] {
        let sc = meuse(7, 7)
            .div("us-1", A, "0404")
            .unit("g-1", B, &[(6, 8, 4), (3, 4, 4)], "0403")
            .terrain("0403", &["woods"])
            .spare()
            .start(Phase::Combat)
            .build();
        let mut s = begin(&sc, Phase::Combat);
        play(&sc, &mut s, attack("0403", &["us-1"]), &mut no_rng());
        let ev = play(
            &sc,
            &mut s,
            lost_battalion(declare),
            &mut Script::dice(&[1]),
        );
        assert_eq!(ev[0], Event::LostBattalionDeclared { declared: declare });
        assert_eq!(ev[1], ground(8, 8, line, "0", 1, result));
    }
}

/// 18.1: only Allied ground attacks into a woods hex: not a clear hex, not a German
/// attack on Allied units in the woods.
#[test]
fn rule_18_1_not_offered_for_non_woods_hex_or_german_attack() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("g-1", B, "0403")
        .div("us-2", A, "0604")
        .div("g-2", B, "0603")
        .terrain("0604", &["woods"])
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[5]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 6, "clear", "+2,+3", 5, CrtResult::NoEffect),
            ended("0403"),
        ]
    );
    done_until(&sc, &mut s, B, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0604", &["g-2"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0604", &["us-2"], &["g-2"]),
            ground(6, 8, "woods", "-2", 1, CrtResult::A3),
            retreat_required(B, &["g-2"], 3),
        ]
    );
}

// ---------------------------------------------------------------------------------
// 18.2 German combat experience.

fn one_hex_retreats(sc: &Scenario, s: &State, unit: &str) -> Vec<Command> {
    legal_commands(sc, s)
        .into_iter()
        .filter(|c| {
            matches!(c, Command::Retreat { unit: x, path, .. } if *x == u(unit) && path.len() == 1)
        })
        .collect()
}

fn experience_map(g1: (u8, u8, u8)) -> Meuse {
    meuse(7, 7)
        .div("us-1", A, "0404")
        .unit("g-1", B, &[g1, (3, 3, 4)], "0403")
        .spare()
}

/// 18.2: a German unit given a D2 may retreat just one hex, with no step loss.
#[test]
fn rule_18_2_german_d2_may_be_taken_as_one_hex_retreat() {
    let sc = experience_map((6, 7, 4)).start(Phase::Combat).build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 7, "clear", "+1", 1, CrtResult::D2),
            retreat_required(B, &["g-1"], 2),
        ]
    );
    assert_eq!(
        one_hex_retreats(&sc, &s, "g-1"),
        vec![
            retreat("g-1", &["0302"]),
            retreat("g-1", &["0402"]),
            retreat("g-1", &["0502"]),
        ]
    );
    let ev = play(&sc, &mut s, retreat("g-1", &["0402"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            retreated("g-1", "0403", &["0402"]),
            advance_offered(&["0403"], &["us-1"]),
        ]
    );
    assert_eq!(steps_of(&s, "g-1"), 2);
}

/// 18.2: likewise a D3.
#[test]
fn rule_18_2_german_d3_may_be_taken_as_one_hex_retreat() {
    let sc = experience_map((6, 2, 4)).start(Phase::Combat).build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0403", &["us-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0403", &["g-1"], &["us-1"]),
            ground(8, 2, "clear", "+6,+7", 1, CrtResult::D3),
            retreat_required(B, &["g-1"], 3),
        ]
    );
    let ev = play(&sc, &mut s, retreat("g-1", &["0302"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            retreated("g-1", "0403", &["0302"]),
            advance_offered(&["0403"], &["us-1"]),
        ]
    );
    assert_eq!(steps_of(&s, "g-1"), 2);
}

/// 18.2: a German unit given a D2 that could retreat only one hex takes it as a D1:
/// one hex and no step loss (without 18.2 it would lose a step there, 8.3).
#[test]
fn rule_18_2_german_unit_blocked_after_one_hex_retreats_without_step_loss() {
    // us-2 (0201) and us-3 (0701) cover every hex two hexes from 0402 beyond 0401
    // and 0501 with their ZOC.
    let sc = meuse(7, 7)
        .div("us-1", A, "0403")
        .unit("g-1", B, &[(6, 7, 4), (3, 3, 4)], "0402")
        .div("us-2", A, "0201")
        .div("us-3", A, "0701")
        .spare()
        .start(Phase::Combat)
        .build();
    let mut s = begin(&sc, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0402", &["us-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0402", &["g-1"], &["us-1"]),
            ground(8, 7, "clear", "+1", 1, CrtResult::D2),
            retreat_required(B, &["g-1"], 2),
        ]
    );
    assert!(
        retreat_options(&sc, &s, idx(&s, "g-1"), 2, CombatKind::Ground)
            .iter()
            .all(|o| o.path.len() == 1 && o.loses_step)
    );
    let ev = play(&sc, &mut s, retreat("g-1", &["0401"]), &mut no_rng());
    assert_eq!(
        ev,
        vec![
            retreated("g-1", "0402", &["0401"]),
            advance_offered(&["0402"], &["us-1"]),
        ]
    );
    assert_eq!(steps_of(&s, "g-1"), 2);
}

/// 18.2: German units only: an Allied unit given a D2 retreats the full two hexes.
#[test]
fn rule_18_2_allied_units_cannot_shorten_their_retreat() {
    let sc = experience_map((9, 6, 4)).start(Phase::Movement).build();
    let mut s = begin(&sc, Phase::Movement);
    done_until(&sc, &mut s, B, Phase::Combat);
    let ev = play(
        &sc,
        &mut s,
        attack("0404", &["g-1"]),
        &mut Script::dice(&[1]),
    );
    assert_eq!(
        ev,
        vec![
            declared("0404", &["us-1"], &["g-1"]),
            ground(9, 8, "clear", "+1", 1, CrtResult::D2),
            retreat_required(A, &["us-1"], 2),
        ]
    );
    assert_eq!(one_hex_retreats(&sc, &s, "us-1"), vec![]);
    assert_eq!(refused(&sc, &s, retreat("us-1", &["0405"])).rule, "8.3");
    let ev = play(
        &sc,
        &mut s,
        retreat("us-1", &["0405", "0406"]),
        &mut no_rng(),
    );
    assert_eq!(ev[0], retreated("us-1", "0404", &["0405", "0406"]));
}

// ---------------------------------------------------------------------------------
// legal_commands and apply agree on the Meuse Argonne commands.

fn is_meuse_command(c: &Command) -> bool {
    matches!(
        c,
        Command::Replace { .. }
            | Command::Rebuild { .. }
            | Command::BreakDown { .. }
            | Command::PlaceAircraft { .. }
            | Command::Artillery { .. }
    )
}

/// Every listed Meuse command is accepted on a copy of the state; Replace, Rebuild,
/// BreakDown and Artillery commands are accepted exactly when listed.
fn check_agreement(sc: &Scenario, s: &State) -> usize {
    let listed: Vec<Command> = legal_commands(sc, s)
        .into_iter()
        .filter(is_meuse_command)
        .collect();
    for c in &listed {
        let copy = s.clone();
        let r = apply(sc, &copy, c, &mut Script::dice(&[6, 6]));
        assert!(r.is_ok(), "{c:?} listed but refused: {:?}", r.err());
    }
    let all_hexes: Vec<Hex> = sc.hexes.iter().map(|x| x.hex).collect();
    let units: Vec<UnitId> = s.units.ids.to_vec();
    let mut candidates = Vec::new();
    for unit in &units {
        candidates.push(Command::BreakDown { unit: unit.clone() });
        candidates.push(Command::Rebuild {
            units: vec![unit.clone()],
        });
        for other in &units {
            if other > unit {
                candidates.push(Command::Rebuild {
                    units: vec![unit.clone(), other.clone()],
                });
            }
        }
        for hex in &all_hexes {
            candidates.push(Command::Replace {
                unit: unit.clone(),
                hex: *hex,
                full: false,
            });
        }
    }
    for hex in &all_hexes {
        for markers in 0..=3 {
            for gas in [false, true] {
                candidates.push(Command::Artillery {
                    hex: *hex,
                    markers,
                    gas,
                });
            }
        }
    }
    for c in &candidates {
        let ok = apply(sc, s, c, &mut Script::dice(&[6, 6])).is_ok();
        let on_list = listed.iter().any(|l| match (l, c) {
            (Command::Rebuild { units: a }, Command::Rebuild { units: b }) => {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.sort();
                b.sort();
                a == b
            }
            _ => l == c,
        });
        assert_eq!(ok, on_list, "{c:?}: accepted {ok}, listed {on_list}");
    }
    listed.len()
}

#[test]
fn legal_commands_agree_with_apply_for_meuse_commands() {
    let sc = meuse(7, 7)
        .div("us-1", A, "0404")
        .div("us-2", A, "0205")
        .terrain("0205", &["woods"])
        .div("us-3", A, "0606")
        .three_step("us-4", "0304")
        .three_step("us-32", "0506")
        .brigades(4)
        .div("g-1", B, "0403")
        .div("g-2", B, "0702")
        .div("g-3", B, "0601")
        .spare()
        .start(Phase::Movement)
        .build();
    let mut s = begin(&sc, Phase::Movement);
    hurt(&mut s, "us-1");
    hurt(&mut s, "us-2");
    hurt(&mut s, "us-32");
    kill(&mut s, "us-3");
    hurt(&mut s, "g-2");
    kill(&mut s, "g-3");
    let mut total = check_agreement(&sc, &s);
    play(&sc, &mut s, break_down("us-4"), &mut no_rng());
    play(&sc, &mut s, aircraft("0702"), &mut no_rng());
    total += check_agreement(&sc, &s);
    play(&sc, &mut s, rebuild(&["us-1", "us-32"]), &mut no_rng());
    total += check_agreement(&sc, &s);
    done_until(&sc, &mut s, A, Phase::Bombardment);
    total += check_agreement(&sc, &s);
    place(&sc, &mut s, "0403", 1, true);
    total += check_agreement(&sc, &s);
    fire(&sc, &mut s, &[6]);
    done_until(&sc, &mut s, B, Phase::Movement);
    total += check_agreement(&sc, &s);
    done_until(&sc, &mut s, B, Phase::Bombardment);
    total += check_agreement(&sc, &s);
    assert!(total > 40, "only {total} Meuse commands listed");
}
