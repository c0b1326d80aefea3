//! The bound on a game's length (`Game::max_game_length`; `fm_core::fm::length`,
//! `fm_core::huzzah::length`): random games of every built-in scenario, in both chance
//! modes, never exceed it, turn by turn (the commands and the chance outcomes up to
//! each game turn stay within the bound's terms up to that turn); and the terms that
//! are rules, each named after its rule, hold on small scenarios and in play.
//!
//! Chance outcomes are counted as explicit chance mode stops at them (one per draw),
//! and in sampled mode as the generator's steps over the command (one per draw, and a
//! rare extra one where a draw rejects a value: never fewer than the draws, so a
//! sampled game within the bound is a proof that its draws are).
//!
//! Two players: the uniformly random agent, and a "busy" one that never ends a phase,
//! an order or a placement while anything else is legal, to stretch every term.

use crate::common;

use common::{h, Tiny};
use fm_core::fm::length as fm_length;
use fm_core::huzzah::length as hz_length;
use fm_core::huzzah::Huzzah;
use fm_core::{
    any, ChanceMode, Command, Event, Fm, Game, GameLength, GameMatch, Pending, Phase, RngState,
    Scenario, Side, StartData,
};
use rand_core::RngCore;
use std::collections::HashMap;

/// Games per built-in scenario and chance mode with the random agent.
const GAMES: u64 = 30;
/// Games per built-in scenario and chance mode with the busy agent.
const BUSY_GAMES: u64 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Agent {
    Random,
    Busy,
}

/// How many generator steps lead from `before` to `after` (at most `limit`).
fn steps(before: RngState, after: RngState, limit: u64) -> u64 {
    let mut g = before.generator();
    for n in 0..=limit {
        if RngState::of(&g) == after {
            return n;
        }
        g.next_u64();
    }
    panic!("more than {limit} draws in one command: beyond the bound");
}

/// A watcher of each command: the state before it, the command, its events.
type Observer<'a, G> =
    dyn FnMut(&<G as Game>::State, &<G as Game>::Command, &[<G as Game>::Event]) + 'a;

/// What one command did, for a system's own checks.
struct Step<'a, G: Game> {
    sc: &'a G::Scenario,
    before: &'a G::State,
    command: &'a G::Command,
    events: &'a [G::Event],
}

/// One system's side of the harness.
trait System: Game {
    /// The turn a state is in (0 before the first, when a system has a turn 0).
    fn turn(s: &Self::State) -> u16;
    /// The bound's terms up to and including `turn`.
    fn bound_through(sc: &Self::Scenario, turn: u16) -> GameLength;
    /// Whether a command ends something (a phase, an order, a placement).
    fn ends(c: &Self::Command) -> bool;
    /// The system's checks of each command against the terms of its rules.
    fn check(_step: &Step<'_, Self>, _seen: &mut Seen) {}
}

/// Counters the checks keep over a game.
#[derive(Default)]
struct Seen {
    counts: HashMap<String, u64>,
}

impl Seen {
    /// Adds `n` to counter `key` and returns the total.
    fn add(&mut self, key: String, n: u64) -> u64 {
        let c = self.counts.entry(key).or_default();
        *c += n;
        *c
    }
    fn reset(&mut self, key: &str) {
        self.counts.remove(key);
    }
}

impl System for Fm {
    fn turn(s: &fm_core::State) -> u16 {
        s.turn
    }
    fn bound_through(sc: &Scenario, turn: u16) -> GameLength {
        let turns: GameLength = (sc.data.start.turn..=turn)
            .map(|t| fm_length::game_turn(sc, t))
            .sum();
        fm_length::setup(sc) + turns + fm_length::once(sc)
    }
    fn ends(c: &Command) -> bool {
        *c == Command::Done
    }
    fn check(step: &Step<'_, Fm>, seen: &mut Seen) {
        let (sc, s) = (step.sc, step.before);
        let Pending::Phase { side, .. } = s.pending() else {
            return check_combat(step, seen);
        };
        let units = fm_length::units(sc, side);
        if matches!(step.command, Command::Move { .. }) {
            let moves = seen.add(format!("moves {} {side}", s.turn), 1);
            assert!(
                moves <= units,
                "5.2: {moves} moves by {units} units of {side}"
            );
        }
        check_combat(step, seen);
    }
}

/// 8.1, 8.2-8.5: attacks a player turn; in each combat, its commitment steps and its
/// other decisions (losses, retreats, advances: by the units of the combat); the
/// games' artillery and fire support within their markers.
fn check_combat(step: &Step<'_, Fm>, seen: &mut Seen) {
    let (sc, s) = (step.sc, step.before);
    match step.command {
        Command::SupportFire { .. } => {
            let n = seen.add("steps".into(), 1);
            let most = fm_length::commitment_steps(sc, s.turn);
            assert!(n <= most, "8.2.1(b): {n} commitment steps, at most {most}");
        }
        // Meuse Argonne 18.1: one a combat, counted by the game's own term.
        Command::LostBattalion { .. } => {}
        _ if s.combat.is_some() => {
            let n = seen.add("decisions".into(), 1);
            let most = seen.counts.get("most").copied().unwrap_or(0);
            assert!(
                n <= most,
                "8.2.4-8.5: {n} decisions in one combat, at most {most}"
            );
        }
        Command::Artillery { markers, .. } => {
            let n = seen.add(format!("artillery {}", s.turn), u64::from(*markers));
            let most = artillery_markers(sc, s.turn);
            assert!(
                n <= most,
                "17.1: {n} artillery markers placed, {most} on the track"
            );
        }
        Command::Bombard { markers, .. } if matches!(s.pending(), Pending::FireSupport { .. }) => {
            let n = seen.add(format!("fire support {}", s.turn), u64::from(*markers));
            let p = fm_core::suez_1916::params(sc).expect("Suez 1916 rules");
            let most = (p.central_powers_pool.len()
                + p.central_powers_reinforcement_markers.len()
                + p.british_pool.len()
                + p.british_set_aside.len()) as u64;
            assert!(n <= most, "18.3: {n} markers placed, {most} in the game");
        }
        _ => {}
    }
    for e in step.events {
        let most = match e {
            Event::AttackDeclared {
                attackers,
                defenders,
                ..
            } => {
                let units = fm_length::units(sc, s.active);
                let attacks = seen.add(format!("attacks {} {}", s.turn, s.active), 1);
                assert!(
                    attacks <= units,
                    "8.2: {attacks} attacks by {units} units of {}",
                    s.active
                );
                // Two loss choices, a decision for each unit of the combat.
                2 + (attackers.len() + defenders.len()) as u64
            }
            // 8.1.3 (A), and a decision for each unit bombarded.
            Event::BombardmentDeclared { defenders, .. } => 1 + defenders.len() as u64,
            // Meuse Argonne 17.5: the retreat decision.
            Event::ArtilleryFiring { .. } => 1,
            _ => continue,
        };
        for k in ["steps", "decisions"] {
            seen.reset(k);
        }
        seen.counts.insert("most".into(), most);
    }
}

/// 17.1: the artillery markers of both sides on game turn `turn`'s box of the
/// Artillery Track, each at most the counter mix.
fn artillery_markers(sc: &Scenario, turn: u16) -> u64 {
    let (track, total) = if let Some(p) = fm_core::meuse_argonne::params(sc) {
        (&p.artillery, p.bombardment_markers)
    } else if let Some(p) = fm_core::vimy_ridge::params(sc) {
        (&p.artillery, p.bombardment_markers)
    } else {
        panic!("an artillery command without artillery rules");
    };
    let box_ = track.get(turn as usize - 1).cloned().unwrap_or_default();
    u64::from(box_.a.min(total)) + u64::from(box_.b.min(total))
}

impl System for Huzzah {
    fn turn(s: &fm_core::huzzah::state::State) -> u16 {
        s.turn
    }
    fn bound_through(sc: &fm_core::huzzah::scenario::Scenario, turn: u16) -> GameLength {
        hz_length::setup(sc) + hz_length::turn(sc) * u64::from(turn) + hz_length::battle(sc)
    }
    fn ends(c: &fm_core::huzzah::command::Command) -> bool {
        use fm_core::huzzah::command::Command as C;
        matches!(c, C::EndPhase | C::EndOrder | C::EndPlacement)
    }
    fn check(step: &Step<'_, Huzzah>, seen: &mut Seen) {
        use fm_core::huzzah::event::Event as E;
        use fm_core::huzzah::state::Phase as P;
        let (sc, s) = (step.sc, step.before);
        if let P::Orders { side } = s.phase {
            let n = seen.add(format!("orders phase {} {side}", s.turn), 1);
            let most = hz_length::orders(sc, side).commands;
            assert!(
                n <= most,
                "p16-21: {n} commands in an Orders phase, at most {most}"
            );
        }
        for e in step.events {
            if let E::OrderGiven {
                officer,
                group,
                test,
                ..
            } = e
            {
                let side = sc
                    .officer(sc.officer_ix_of(officer).expect("an officer"))
                    .side;
                let chain = seen.add(format!("chain {} {officer:?} {group:?}", s.turn), 1);
                let most = hz_length::order_chain(sc, side);
                assert!(
                    chain <= most,
                    "p16-18: a chain of {chain} orders, at most {most}"
                );
                if let Some(t) = test {
                    let bonus: i32 = t
                        .modifiers
                        .iter()
                        .filter(|m| m.by > 0)
                        .map(|m| i32::from(m.by))
                        .sum();
                    assert!(
                        bonus <= i32::from(fm_core::huzzah::orders::MAX_ORDER_BONUS),
                        "p17: modifiers {:?} above MAX_ORDER_BONUS",
                        t.modifiers
                    );
                }
            }
        }
    }
}

/// Plays one game of `m` to its end; checks every command against the bound's terms up
/// to its turn; returns the commands and chance outcomes played.
fn play_game<G: System>(
    mut m: GameMatch<G>,
    agent: Agent,
    rng: &mut dyn RngCore,
    observe: &mut Observer<'_, G>,
) -> GameLength {
    let bound = m.max_game_length().expect("a bound");
    let sc = m.scenario_arc();
    let explicit = m.chance_mode() == ChanceMode::Explicit;
    let mut played = GameLength::ZERO;
    let mut seen = Seen::default();
    while !m.is_over() {
        let cmd = match agent {
            Agent::Random => m.random_command(rng),
            Agent::Busy => {
                let all = m.legal_commands();
                let busy: Vec<G::Command> = all.iter().filter(|c| !G::ends(c)).cloned().collect();
                let from = if busy.is_empty() { all } else { busy };
                (!from.is_empty()).then(|| from[any::uniform_index(rng, from.len())].clone())
            }
        };
        let Some(cmd) = cmd else { break };
        let before = m.state().clone();
        let rng_before = m.rng_state();
        m.apply(&cmd).expect("a legal command");
        let mut draws = 0;
        while let Some(node) = m.chance_node() {
            let k = any::uniform_index(rng, node.outcomes as usize) as u32;
            m.apply_chance(k).expect("an outcome in range");
            draws += 1;
        }
        if !explicit {
            draws = steps(rng_before, m.rng_state(), bound.chance);
        }
        played += GameLength::new(1, draws);
        let events = m.log().last().expect("logged").events.clone();
        observe(&before, &cmd, &events);
        G::check(
            &Step {
                sc: &sc,
                before: &before,
                command: &cmd,
                events: &events,
            },
            &mut seen,
        );
        let (t0, t1) = (G::turn(&before), G::turn(m.state()));
        let so_far = G::bound_through(&sc, t0);
        assert!(
            played.commands <= so_far.commands,
            "{} commands by turn {t0}, beyond the bound's {}",
            played.commands,
            so_far.commands
        );
        let so_far = G::bound_through(&sc, t1);
        assert!(
            played.chance <= so_far.chance,
            "{} chance outcomes by turn {t1}, beyond the bound's {}",
            played.chance,
            so_far.chance
        );
    }
    assert!(
        played.commands <= bound.commands && played.chance <= bound.chance,
        "{played:?} beyond {bound:?}"
    );
    played
}

/// Every built-in scenario of `G`: `GAMES` random and `BUSY_GAMES` busy games in each
/// chance mode; returns the longest (commands plus chance outcomes) of each scenario.
fn builtin_games<G: System>() -> Vec<(&'static str, GameLength, GameLength)> {
    let mut out = Vec::new();
    for name in G::builtin_names() {
        let mut longest = GameLength::ZERO;
        let mut bound = GameLength::ZERO;
        for mode in [ChanceMode::Sampled, ChanceMode::Explicit] {
            for (agent, games) in [(Agent::Random, GAMES), (Agent::Busy, BUSY_GAMES)] {
                for seed in 0..games {
                    let mut m = GameMatch::<G>::new_builtin(name, seed).expect("built in");
                    bound = m.max_game_length().expect("a bound");
                    m.set_chance_mode(mode).expect("no draw pending");
                    let mut rng = fm_core::rng_from_seed(seed ^ 0x5eed);
                    let played = play_game(m, agent, &mut rng, &mut |_, _, _| {});
                    if played.total() > longest.total() {
                        longest = played;
                    }
                }
            }
        }
        out.push((name, bound, longest));
    }
    out
}

#[test]
fn every_builtin_game_stays_within_its_bound() {
    let mut rows = builtin_games::<Fm>();
    rows.extend(builtin_games::<Huzzah>());
    // Every built-in scenario, of every system, is bounded and was played.
    let names: Vec<&str> = rows.iter().map(|r| r.0).collect();
    assert_eq!(names, crate::builtin_scenarios());
    for (name, bound, longest) in rows {
        assert_eq!(any::max_game_length(name).unwrap(), Some(bound));
        assert!(longest.total() > 0, "{name}: nothing played");
        println!("{name}: bound {bound:?}, longest game {longest:?}");
    }
}

// ------------------------------------------------------------------- the toy system

use crate::race;

#[test]
fn a_system_without_a_bound_says_so() {
    let m = GameMatch::<race::Race>::new_builtin("race-to-10", 1).unwrap();
    assert_eq!(m.max_game_length(), None);
}

// ------------------------------------------------ Fire & Movement, term by term

/// A 6 × 5 clear board: side A's mobile a1, a2 and leg a3, a4 (two steps each) in
/// columns 2-3, side B's leg b1, b2 and mobile b3 in column 4, in contact; support
/// marker mixes of three and two, allotted `allot` each turn; three turns.
fn skirmish(allot: (u8, u8)) -> Tiny {
    let two = |a: u8, d: u8, m: u8| [(a, d, m), (a / 2, d / 2, m)];
    Tiny::new(6, 5)
        .unit(
            "a1",
            Side::A,
            fm_core::UnitKind::Mobile,
            &two(4, 2, 6),
            "0302",
        )
        .unit(
            "a2",
            Side::A,
            fm_core::UnitKind::Mobile,
            &two(4, 2, 6),
            "0303",
        )
        .unit("a3", Side::A, fm_core::UnitKind::Leg, &two(3, 3, 3), "0304")
        .unit("a4", Side::A, fm_core::UnitKind::Leg, &two(3, 3, 3), "0202")
        .unit("b1", Side::B, fm_core::UnitKind::Leg, &two(2, 4, 3), "0402")
        .unit("b2", Side::B, fm_core::UnitKind::Leg, &two(2, 4, 3), "0403")
        .unit(
            "b3",
            Side::B,
            fm_core::UnitKind::Mobile,
            &two(3, 2, 6),
            "0404",
        )
        .support(&[1, 2, 3], &[2, 4], allot.0, allot.1)
}

/// Plays `sc` with `agent` (match seed `seed`, sampled dice), every command checked by
/// the harness, and each handed to `observe`.
fn game_of(
    sc: Scenario,
    seed: u64,
    agent: Agent,
    observe: &mut dyn FnMut(&fm_core::State, &Command, &[Event]),
) -> GameLength {
    let m = GameMatch::<Fm>::new(std::sync::Arc::new(sc), seed);
    play_game(
        m,
        agent,
        &mut fm_core::rng_from_seed(seed ^ 0x5eed),
        observe,
    )
}

#[test]
fn rule_3_0_setup_one_command_per_unit() {
    let mut t = Tiny::new(4, 2);
    for (id, side, zone) in [
        ("a1", Side::A, "west"),
        ("a2", Side::A, "west"),
        ("b1", Side::B, "east"),
    ] {
        t = t
            .leg(id, side, 1, 1, 1, "0101")
            .with_last(|d| d.start = StartData::Zone(zone.into()));
    }
    t.data.setup.order = vec![Side::B, Side::A];
    t.data
        .setup
        .zones
        .insert("west".into(), vec![h("0101"), h("0102")]);
    t.data
        .setup
        .zones
        .insert("east".into(), vec![h("0401"), h("0402")]);
    let sc = t.build();
    assert_eq!(fm_length::setup(&sc), GameLength::commands(3));
    for agent in [Agent::Random, Agent::Busy] {
        let mut placed = 0;
        game_of(sc.clone(), 1, agent, &mut |s, c, _| {
            if let Pending::Setup { .. } = s.pending() {
                assert!(matches!(c, Command::Place { .. }), "3.0: {c:?} in set-up");
                placed += 1;
            }
        });
        assert_eq!(placed, 3, "3.0(b): one placement a unit");
    }
}

#[test]
fn rule_4_1_a_game_is_its_game_turns() {
    let sc = skirmish((3, 2)).build();
    let turn = |sc: &Scenario, t| fm_length::game_turn(sc, t);
    let three: GameLength = (1..=3).map(|t| turn(&sc, t)).sum();
    assert_eq!(fm_length::max_game_length(&sc), three);
    // Each turn of the track adds its game turn; a start on turn 2 drops turn 1.
    let mut five = skirmish((3, 2));
    five.data.turns.extend(five.data.turns[..2].to_vec());
    let five = five.build();
    assert_eq!(
        fm_length::max_game_length(&five),
        three + turn(&five, 4) + turn(&five, 5)
    );
    let mut late = skirmish((3, 2));
    late.data.start.turn = 2;
    let late = late.build();
    assert_eq!(
        fm_length::max_game_length(&late),
        turn(&late, 2) + turn(&late, 3)
    );
    // 4.1: a game turn is its Support Fire Marker Phase, its bombardments and its two
    // player turns.
    let markers = 3 + 2;
    let units = 4 + 3;
    let player_turns =
        fm_length::player_turn(&sc, 1, Side::A) + fm_length::player_turn(&sc, 1, Side::B);
    assert_eq!(
        turn(&sc, 1),
        player_turns + GameLength::new(2 * markers + units, markers + markers)
    );
    for seed in 0..10 {
        for agent in [Agent::Random, Agent::Busy] {
            game_of(sc.clone(), seed, agent, &mut |_, _, _| {});
        }
    }
}

#[test]
fn rule_5_2_5_5_a_unit_moves_once_a_player_turn() {
    let sc = skirmish((0, 0)).build();
    for seed in 0..10 {
        let mut moves: HashMap<(u16, Side), u64> = HashMap::new();
        game_of(sc.clone(), seed, Agent::Busy, &mut |s, c, _| {
            if let Command::Move { unit, .. } = c {
                let side = if unit.as_str().starts_with('a') {
                    Side::A
                } else {
                    Side::B
                };
                assert_eq!(side, s.active, "5.2: only the phasing side moves");
                *moves.entry((s.turn, side)).or_default() += 1;
            }
        });
        for ((turn, side), n) in moves {
            let units = fm_length::units(&sc, side);
            assert!(
                n <= units,
                "turn {turn}: {n} moves by {units} units of {side}"
            );
        }
    }
    // The player turn's moves: one a unit, beside a `done` a phase and the combats.
    let a = fm_length::player_turn(&sc, 1, Side::A);
    let combats = fm_length::ground_combat(&sc, 1) * 4;
    assert_eq!(a, GameLength::commands(5 + 4 + 4 + 2 * 3) + combats);
}

#[test]
fn rule_8_2_a_unit_attacks_once_a_player_turn() {
    let mut t = skirmish((0, 0));
    t.data.start.phase = Phase::Combat;
    let sc = t.build();
    let mut most = 0;
    for seed in 0..10 {
        let mut attacks: HashMap<(u16, Side), u64> = HashMap::new();
        game_of(sc.clone(), seed, Agent::Busy, &mut |s, _, events| {
            for e in events {
                if let Event::AttackDeclared { attackers, .. } = e {
                    assert!(!attackers.is_empty());
                    *attacks.entry((s.turn, s.active)).or_default() += 1;
                }
            }
        });
        for ((_, side), n) in attacks {
            assert!(
                n <= fm_length::units(&sc, side),
                "8.2: {n} attacks by side {side}"
            );
            most = most.max(n);
        }
    }
    assert!(most > 1, "busy games attack more than once a player turn");
}

#[test]
fn rule_8_2_1_b_commitment_steps_need_markers() {
    for (allot, steps) in [((3, 2), 4), ((3, 0), 2), ((0, 2), 2), ((0, 0), 0)] {
        let sc = skirmish(allot).build();
        assert_eq!(fm_length::commitment_steps(&sc, 1), steps, "{allot:?}");
        assert_eq!(
            fm_length::ground_combat(&sc, 1),
            GameLength::new(1 + steps + 2, 1)
        );
    }
    let mut t = skirmish((3, 2));
    t.data.start.phase = Phase::Combat;
    let sc = t.build();
    let mut longest = 0;
    for seed in 0..10 {
        let mut steps = 0;
        game_of(sc.clone(), seed, Agent::Busy, &mut |_, c, events| {
            if events
                .iter()
                .any(|e| matches!(e, Event::AttackDeclared { .. }))
            {
                steps = 0;
            }
            if matches!(c, Command::SupportFire { .. }) {
                steps += 1;
                longest = longest.max(steps);
            }
        });
    }
    assert_eq!(longest, 4, "both sides with markers: four steps");
}

#[test]
fn rule_7_2_8_1_draws_and_bombardments_within_the_allotment() {
    let mut t = skirmish((3, 2));
    t.data.start.phase = Phase::Bombardment;
    let sc = t.build();
    for seed in 0..10 {
        let mut drawn: HashMap<u16, u64> = HashMap::new();
        let mut bombard: HashMap<(u16, Side), u64> = HashMap::new();
        game_of(sc.clone(), seed, Agent::Busy, &mut |s, c, events| {
            if let Command::Bombard { markers, .. } = c {
                *bombard.entry((s.turn, s.active)).or_default() += u64::from(*markers);
            }
            let n = events
                .iter()
                .filter(|e| matches!(e, Event::SupportCommitted { .. }))
                .count();
            *drawn.entry(s.turn).or_default() += n as u64;
        });
        for (turn, n) in drawn {
            assert!(n <= 5, "7.2: {n} markers drawn on turn {turn}, 5 allotted");
        }
        for ((_, side), n) in bombard {
            let allotted = fm_length::allotment(&sc, 1, side);
            assert!(
                n <= allotted,
                "8.1: {n} markers bombard, {allotted} allotted"
            );
        }
    }
}

#[test]
fn rule_8_3_to_8_5_a_combat_decides_by_its_units_tiny_games() {
    // The harness checks each combat's decisions against its units (8.2.4 losses, 8.3
    // retreats, 8.4 stiff resistance, 8.5 advances) and every term turn by turn.
    for allot in [(3, 2), (0, 0)] {
        let sc = skirmish(allot).build();
        for seed in 0..20 {
            for agent in [Agent::Random, Agent::Busy] {
                game_of(sc.clone(), seed, agent, &mut |_, _, _| {});
            }
        }
    }
}

#[test]
fn rule_8_0_a_unit_is_attacked_once_a_phase_unless_the_game_says_more() {
    let sc = skirmish((0, 0)).build();
    assert_eq!(fm_length::attacks_on_one_unit(&sc, Side::A), 1);
    // Vimy Ridge 18.3: once by each division of the attacker.
    let vimy = Scenario::builtin("vimy-ridge").unwrap();
    for side in Side::BOTH {
        let mut divisions: Vec<&str> = vimy
            .units
            .iter()
            .filter(|x| x.data.side == side)
            .map(|x| x.data.formation.as_str())
            .collect();
        divisions.sort_unstable();
        divisions.dedup();
        assert_eq!(
            fm_length::attacks_on_one_unit(&vimy, side),
            divisions.len() as u64
        );
        assert!(divisions.len() > 1);
    }
}

#[test]
fn each_games_own_terms_are_in_the_bound() {
    // The system rules add nothing; each game adds its own (their rules are checked in
    // play by the harness: artillery and fire support within their markers).
    let demo = Scenario::builtin("system-demo").unwrap();
    assert_eq!(fm_length::once(&demo), GameLength::ZERO);
    for name in ["meuse-argonne", "vimy-ridge", "suez-1916"] {
        let sc = Scenario::builtin(name).unwrap();
        let system: GameLength = (sc.data.start.turn..=sc.turn_count())
            .map(|t| {
                fm_length::player_turn(&sc, t, Side::A) + fm_length::player_turn(&sc, t, Side::B)
            })
            .sum();
        assert!(
            fm_length::max_game_length(&sc).total() > system.total(),
            "{name}"
        );
    }
    // Meuse Argonne 11.6: the single German replacement; Suez 1916 11.3, 11.5: the
    // markers drawn from the reserves.
    let meuse = Scenario::builtin("meuse-argonne").unwrap();
    assert_eq!(fm_length::once(&meuse), GameLength::commands(1));
    let suez = Scenario::builtin("suez-1916").unwrap();
    let p = fm_core::suez_1916::params(&suez).unwrap();
    let reserves = p.british_set_aside.len() + p.central_powers_reinforcement_markers.len();
    assert_eq!(fm_length::once(&suez), GameLength::chance(reserves as u64));
}

// ---------------------------------------------------------- Huzzah!, term by term

#[test]
fn rule_p7_p8_setup_places_each_unit_and_officer_once() {
    let sc = fm_core::huzzah::scenario::Scenario::builtin("huzzah-encounter").unwrap();
    assert!(sc.alternate_setup());
    let units = hz_length::units(&sc, Side::A) + hz_length::units(&sc, Side::B);
    let officers = hz_length::officers(&sc, Side::A) + hz_length::officers(&sc, Side::B);
    assert_eq!(
        hz_length::setup(&sc),
        GameLength::new(2 * units + officers, 2 * units)
    );
    for seed in 0..10 {
        let m = GameMatch::<Huzzah>::new_builtin("huzzah-encounter", seed).unwrap();
        let mut setup = 0;
        play_game(
            m,
            Agent::Random,
            &mut fm_core::rng_from_seed(seed),
            &mut |s, _, _| {
                if s.phase == fm_core::huzzah::state::Phase::Setup {
                    setup += 1;
                }
            },
        );
        assert!(setup <= hz_length::setup(&sc).commands);
        assert!(
            setup >= units + officers,
            "a placement a unit and an officer"
        );
    }
    // A placed set-up places only the officers.
    let placed = fm_core::huzzah::scenario::Scenario::builtin("huzzah-firefight").unwrap();
    assert!(!placed.alternate_setup());
    let officers = hz_length::officers(&placed, Side::A) + hz_length::officers(&placed, Side::B);
    assert_eq!(hz_length::setup(&placed), GameLength::commands(officers));
}

#[test]
fn rule_p12_a_removal_removes_a_base_of_the_order_of_battle() {
    for name in fm_core::huzzah::scenario::BUILTIN {
        let sc = fm_core::huzzah::scenario::Scenario::builtin(name).unwrap();
        let bases: usize = sc.units().iter().map(|x| x.bases.len()).sum();
        let units = hz_length::units(&sc, Side::A) + hz_length::units(&sc, Side::B);
        // Each quality roll (page 4) is two dice, twice at most, once a unit.
        assert_eq!(
            hz_length::battle(&sc),
            GameLength::new(bases as u64, 4 * units)
        );
    }
}

/// Dice that come up as scripted (1-6 each), then panic.
struct Loaded(std::collections::VecDeque<u8>);

impl RngCore for Loaded {
    fn next_u32(&mut self) -> u32 {
        let d = self.0.pop_front().expect("fewer dice scripted than rolled");
        u32::from(d - 1)
    }
    fn next_u64(&mut self) -> u64 {
        u64::from(self.next_u32())
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

#[test]
fn rule_p16_p18_a_chain_of_orders_ends_within_factor_plus_bonus() {
    use fm_core::huzzah::command::{Command as C, GroupArg};
    use fm_core::huzzah::event::Event as E;
    use fm_core::huzzah::orders::OrderKind;
    use fm_core::huzzah::state::{GroupRef, Pending as P};
    use fm_core::huzzah::{engine, legal, movement, orders, scenario};
    use serde_json::json;
    // Side a's division officer (Average: Command Factor 8) and one unit far from the
    // enemy (out of range: +1), outside his radius; a placed set-up, a first.
    let unit = |id: &str, division: &str, at: [i64; 2], facing: u16| {
        json!({"id": id, "division": division, "bases": ["infantry", "infantry"],
               "expected": "regulars_b", "quality": "trained", "formation": "line",
               "ranks": [2], "position": at, "facing": facing})
    };
    let side = |p: &str, u: serde_json::Value| {
        json!({"name": p, "skirmish_factor": 8, "artillery_factor": 8,
               "officers": [
                   {"id": format!("{p}-cinc"), "rank": "cinc", "quality": "average", "position": [100, 100]},
                   {"id": format!("{p}-d1"), "rank": "division", "quality": "average", "position": [200, 100]}],
               "divisions": [{"id": format!("{p}-div"), "officer": format!("{p}-d1")}],
               "units": [u]})
    };
    let v = json!({
        "id": "chain", "name": "chain", "provenance": "stand-in: a test table",
        "table": {"width_mm": 1200, "depth_mm": 1200}, "base_mm": 40, "turns": 1,
        "battle": "encounter", "setup": "placed", "first": "a",
        "conditions": [{"turn": 1, "ground": "normal", "weather": "fair"}],
        "terrain": [],
        "sides": {"a": side("a", unit("a1", "a-div", [600, 200], 0)),
                  "b": side("b", unit("b1", "b-div", [600, 1100], 180))}
    });
    let sc = scenario::validate(scenario::from_json_value(v).unwrap()).unwrap();
    let play = |s: &mut fm_core::huzzah::state::State, c: C, dice: &[u8]| {
        let mut rng = Loaded(dice.iter().copied().collect());
        let ev = engine::apply(&sc, s, &c, &mut rng).unwrap_or_else(|e| panic!("{c:?}: {e:?}"));
        s.apply_events(&sc, &ev);
        assert!(rng.0.is_empty(), "dice left over");
        ev
    };
    let (mut s, _) = engine::new_game(&sc, &mut Loaded(Default::default()));
    // The officers, then the turn's four tests of the common phases (all failed).
    while let P::PlaceOfficer { .. } = s.pending {
        let c = legal::legal_commands(&sc, &s)[0].clone();
        let last = s.officers.iter().filter(|o| o.at.is_none()).count() == 1;
        play(&mut s, c, if last { &[6; 8] } else { &[] });
    }
    assert!(
        matches!(s.pending, P::Orders { side: Side::A }),
        "{:?}",
        s.pending
    );
    let officer = sc.officer_index("a-d1").unwrap();
    let a1 = sc.unit_index("a1").unwrap();
    let group = GroupRef::Unit(a1);
    let order = C::Order {
        officer: "a-d1".into(),
        group: GroupArg::Unit("a1".into()),
        order: OrderKind::Retire,
    };
    // Each order passes when it can: a 3 (no Huzzah!) while the factor allows it, then
    // a Huzzah! (double one), then the automatic order it gives.
    let mut given = 0u64;
    let mut first_factor = None;
    loop {
        if <Huzzah as Game>::explain(&sc, &s, &order).is_some() {
            break;
        }
        let dice: &[u8] = if s.orders.free {
            &[]
        } else {
            let units = movement::group_units(&sc, &s, officer, group);
            let k = movement::successive(&s, officer, group);
            let odds = orders::order_odds(&sc, &s, officer, &units, OrderKind::Retire, k).unwrap();
            first_factor.get_or_insert(odds.factor);
            if odds.factor >= 3 {
                &[1, 2]
            } else {
                &[1, 1]
            }
        };
        let ev = play(&mut s, order.clone(), dice);
        assert!(ev.iter().any(|e| matches!(e, E::OrderGiven { .. })));
        given += 1;
        if let P::Act { .. } = s.pending {
            play(&mut s, C::EndOrder, &[]);
        }
    }
    // Average (8) and out of range (+1): orders pass on a 3 at a factor of 9 down to 3,
    // then one on a Huzzah!, then the automatic one: 9 orders.
    assert_eq!(first_factor, Some(9));
    assert_eq!(given, 9);
    assert!(given <= hz_length::order_chain(&sc, Side::A));
    assert_eq!(
        hz_length::order_chain(&sc, Side::A),
        10 + 4,
        "\"decide\": any successor"
    );
}
