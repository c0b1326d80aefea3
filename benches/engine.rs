//! Engine benchmarks on the built-in scenarios, through the public API only (the
//! `Game` trait, `Match`, and the exported free functions), so they measure the same
//! operations before and after the engine's internals change.
//!
//! ```text
//! cargo bench --bench engine                    # measure (a few minutes after the build)
//! cargo bench --bench engine -- --test          # run each benchmark once (the test suite)
//! FM_BENCH_QUICK=1 cargo bench --bench engine   # short measurements (rough figures)
//! cargo bench --bench engine -- legal/          # only the benchmarks matching a filter
//! ./scripts/bench.sh [--quick]                  # all of them, then the table of targets
//! ```
//!
//! The performance issue's rows (`scripts/bench.sh` prints them next to their targets):
//!
//! - `game/<scenario>`: a whole seeded random game, from `Match::new` (seed 1) to game
//!   over, both sides played by the built-in random agent (`Match::random_command`,
//!   agent seed 1000: a uniform draw among the legal commands, counted and built alone,
//!   the choices of `agents::random`). `system-demo`, `meuse-argonne`, `vimy-ridge`,
//!   `suez-1916`, `huzzah-encounter`.
//! - `game_listing/<scenario>`: the same game, each command drawn from the whole
//!   `Match::legal_commands` list (what an agent that looks at every command pays).
//! - `legal/meuse_movement_start`: `Fm::legal_commands` at the first Movement Phase of
//!   that Meuse Argonne game, before any move.
//! - `legal/meuse_after_one_move`: `Match::legal_commands` on that match after it has
//!   listed its commands once and applied one move (the longest move listed), in the
//!   same phase: what an agent asks for next. Each call runs on a fresh copy (the copy
//!   and the move are not timed), so a cache kept by the match counts only if it
//!   survives a move.
//! - `legal/meuse_indices_after_one_move`: `Match::legal_indices` in the same position
//!   (the action indices, what a search or RL mask needs).
//! - `legal/meuse_one_unit`: `legal_commands_for` one unit at that movement start; each
//!   call takes the next unit (round robin) among the units that have a move, so the
//!   median is the mean over them.
//! - `legal/huzzah_encounter`: `Huzzah::legal_commands` at the decision of the seeded
//!   random huzzah-encounter game with the most legal commands (the first such).
//! - `apply/meuse_move_midgame`: `Fm::apply` of the longest legal move at mid-game: the
//!   first Movement Phase with a move after 735 commands or more of the Meuse game (the
//!   pure function: it returns the events and leaves the state alone, so nothing is
//!   cloned in the loop). "Mid-game" is that match everywhere below.
//! - `match_apply/meuse_move_midgame`: `Match::apply` of the same move (apply, fold,
//!   state hash, log entry), each call on a fresh copy of the match (copy not timed).
//! - `apply/vimy_done_movement`: `Fm::apply` of `done` at the Allies' first Movement
//!   Phase of the seeded random Vimy Ridge game (the phase passing that follows).
//! - `state/clone_meuse`, `state/hash_meuse`: `State::clone`, `State::hash` of the
//!   Meuse state at mid-game.
//! - `match/clone_meuse_midgame`: `Match::clone` of the Meuse match at mid-game.
//! - `match/index_to_command_midgame`: `Match::index_to_command` of that longest
//!   move's index at mid-game, the match having listed once (`apply_action`'s decoding).
//! - `match/undo_meuse_end`: `Match::undo` of the last command of the finished Meuse
//!   game (each call on a fresh copy; copy not timed).
//! - `match/load_meuse_finished`: `Match::load` of that finished game's save.
//!
//! Earlier rows, on system-demo after set-up (its units placed with the first legal
//! `place` each time): turn 1, side A's Movement Phase:
//!
//! - `apply/move`: one `apply` of the longest move of blue-1-armor-bde.
//! - `reachable/ma4`, `reachable/ma8`: every reachable hex of blue-1-inf-div (MA 4) and
//!   blue-1-armor-bde (MA 8).
//! - `legal_commands/movement_start`: every legal command.
//! - `observed/vimy-ridge`: every observation check (lines of sight) the Allies make
//!   listing their artillery targets in the turn-1 bombardment phase.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use fm_core::huzzah::Huzzah;
use fm_core::*;
use rand_core::RngCore;
use std::hint::black_box;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// `FM_BENCH_QUICK` set: short measurements (`scripts/bench.sh --quick`).
fn quick() -> bool {
    std::env::var_os("FM_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0")
}

/// A measurement time, shortened in quick mode.
fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(if quick() { (s / 6.0).max(0.3) } else { s })
}

/// The next command of a seeded agent that draws from the whole list.
fn listed_command<G: Game>(m: &GameMatch<G>, rng: &mut dyn RngCore) -> G::Command {
    let mut cmds = m.legal_commands();
    assert!(!cmds.is_empty(), "a game not over has a legal command");
    // The draw of `agents::random`.
    let k = fm_core::any::uniform_index(rng, cmds.len());
    cmds.swap_remove(k)
}

/// The next command of the seeded random agent.
fn random_command<G: Game>(m: &GameMatch<G>, rng: &mut dyn RngCore) -> G::Command {
    m.random_command(rng)
        .expect("a game not over has a legal command")
}

/// A whole seeded random game (commands drawn by `next`); returns its number of
/// commands.
fn self_play<G: Game>(
    sc: &Arc<G::Scenario>,
    next: fn(&GameMatch<G>, &mut dyn RngCore) -> G::Command,
) -> usize {
    let mut m = GameMatch::<G>::new(sc.clone(), 1);
    let mut rng = rng_from_seed(1000);
    while !m.is_over() {
        let cmd = next(&m, &mut rng);
        m.apply(&cmd).expect("legal command accepted");
    }
    m.log().len()
}

/// Every match of a seeded random game, one after each command (the first: none yet).
fn random_game<G: Game>(name: &str) -> Vec<GameMatch<G>> {
    let mut m = GameMatch::<G>::new_builtin(name, 1).expect("built-in scenario");
    let mut rng = rng_from_seed(1000);
    let mut all = vec![m.clone()];
    while !m.is_over() {
        let cmd = random_command(&m, &mut rng);
        m.apply(&cmd).expect("legal command accepted");
        all.push(m.clone());
    }
    all
}

fn is_movement(p: &Pending) -> bool {
    matches!(
        p,
        Pending::Phase {
            phase: Phase::Movement,
            ..
        }
    )
}

/// The longest move among the legal commands.
fn longest_move(cmds: &[Command]) -> Option<Command> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::Move { path, .. } => Some((path.len(), c)),
            _ => None,
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, c)| c.clone())
}

/// Mid-game: the performance issue's Match::clone row was a match of 735 commands.
const MID_GAME: usize = 735;

/// The seeded random Meuse Argonne game, at the points the benchmarks use.
struct Meuse {
    /// The first Movement Phase, before any move.
    start: Match,
    /// The first Movement Phase with a move after `MID_GAME` commands or more.
    mid: Match,
    /// The finished game.
    end: Match,
}

fn meuse() -> &'static Meuse {
    static M: OnceLock<Meuse> = OnceLock::new();
    M.get_or_init(|| {
        let all = random_game::<Fm>("meuse-argonne");
        let at = |from: usize| {
            all[from..]
                .iter()
                .find(|m| is_movement(&m.pending()) && longest_move(&m.legal_commands()).is_some())
                .expect("a movement phase with a move")
                .clone()
        };
        Meuse {
            start: at(0),
            mid: at(MID_GAME),
            end: all.last().expect("a game").clone(),
        }
    })
}

fn bench_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("game");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(secs(1.0))
        .measurement_time(secs(6.0));
    let fm_names = ["system-demo", "meuse-argonne", "vimy-ridge", "suez-1916"];
    for name in fm_names {
        let sc = Arc::new(<Fm as Game>::builtin(name).expect("built-in scenario"));
        // The two agents draw the same commands: the same game.
        assert_eq!(
            self_play::<Fm>(&sc, random_command),
            self_play::<Fm>(&sc, listed_command),
            "{name}: the random agent draws as the listing agent does"
        );
        g.bench_function(name, |b| {
            b.iter(|| self_play::<Fm>(black_box(&sc), random_command))
        });
    }
    let name = "huzzah-encounter";
    let sc = Arc::new(<Huzzah as Game>::builtin(name).expect("built-in scenario"));
    g.bench_function(name, |b| {
        b.iter(|| self_play::<Huzzah>(black_box(&sc), random_command))
    });
    g.finish();
    let mut g = c.benchmark_group("game_listing");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(secs(1.0))
        .measurement_time(secs(6.0));
    for name in fm_names {
        let sc = Arc::new(<Fm as Game>::builtin(name).expect("built-in scenario"));
        g.bench_function(name, |b| {
            b.iter(|| self_play::<Fm>(black_box(&sc), listed_command))
        });
    }
    g.finish();
}

fn bench_meuse_legal(c: &mut Criterion) {
    let m = meuse();
    let (sc, s) = (m.start.scenario(), m.start.state());
    let mut g = c.benchmark_group("legal");
    g.bench_function("meuse_movement_start", |b| {
        b.iter(|| Fm::legal_commands(sc, black_box(s)))
    });
    // The match has listed its commands once (a cache would be warm), then one move.
    let listed = m.start.legal_commands();
    let mv = longest_move(&listed).expect("a move");
    let mut after = m.start.clone();
    after.apply(&mv).expect("legal move");
    assert!(is_movement(&after.pending()), "still the Movement Phase");
    g.measurement_time(secs(2.0));
    g.bench_function("meuse_after_one_move", |b| {
        b.iter_batched_ref(
            || {
                let mut x = m.start.clone();
                let _ = x.legal_commands();
                x.apply(&mv).expect("legal move");
                x
            },
            |x| x.legal_commands(),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("meuse_indices_after_one_move", |b| {
        b.iter_batched_ref(
            || {
                let mut x = m.start.clone();
                let _ = x.legal_commands();
                x.apply(&mv).expect("legal move");
                x
            },
            |x| x.legal_indices(),
            BatchSize::SmallInput,
        )
    });
    let mut units: Vec<UnitId> = listed
        .iter()
        .filter_map(|c| match c {
            Command::Move { unit, .. } => Some(unit.clone()),
            _ => None,
        })
        .collect();
    units.dedup();
    assert!(!units.is_empty(), "units that can move");
    let mut next = 0;
    g.measurement_time(secs(3.0));
    g.bench_function("meuse_one_unit", |b| {
        b.iter(|| {
            next = (next + 1) % units.len();
            legal_commands_for(sc, black_box(s), &units[next])
        })
    });
    // Huzzah!: the decision with the longest menu of the seeded random game (the
    // first of them).
    let hz = random_game::<Huzzah>("huzzah-encounter");
    let h = hz
        .iter()
        .rev()
        .max_by_key(|m| m.legal_commands().len())
        .expect("a game");
    g.bench_function("huzzah_encounter", |b| {
        b.iter(|| Huzzah::legal_commands(h.scenario(), black_box(h.state())))
    });
    g.finish();
}

/// Vimy Ridge's first Movement Phase in the seeded random game.
fn vimy_movement() -> Match {
    random_game::<Fm>("vimy-ridge")
        .into_iter()
        .find(|m| is_movement(&m.pending()))
        .expect("a movement phase")
}

fn bench_meuse_apply(c: &mut Criterion) {
    let m = &meuse().mid;
    let mv = longest_move(&m.legal_commands()).expect("a move");
    let mut g = c.benchmark_group("apply");
    let mut rng = rng_from_seed(7);
    g.bench_function("meuse_move_midgame", |b| {
        b.iter(|| Fm::apply(m.scenario(), black_box(m.state()), &mv, &mut rng).expect("legal"))
    });
    let v = vimy_movement();
    assert!(v.legal_commands().contains(&Command::Done));
    g.bench_function("vimy_done_movement", |b| {
        b.iter(|| {
            Fm::apply(v.scenario(), black_box(v.state()), &Command::Done, &mut rng).expect("legal")
        })
    });
    g.finish();
    let mut g = c.benchmark_group("match_apply");
    g.measurement_time(secs(1.0));
    g.bench_function("meuse_move_midgame", |b| {
        b.iter_batched_ref(
            || m.clone(),
            |x| x.apply(&mv).map(|e| e.len()).expect("legal"),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn bench_meuse_state(c: &mut Criterion) {
    let m = meuse();
    let s = m.mid.state();
    let mut g = c.benchmark_group("state");
    g.bench_function("clone_meuse", |b| b.iter(|| black_box(s).clone()));
    g.bench_function("hash_meuse", |b| b.iter(|| black_box(s).hash()));
    g.finish();
    let mut g = c.benchmark_group("match");
    g.bench_function("clone_meuse_midgame", |b| {
        b.iter(|| black_box(&m.mid).clone())
    });
    let mv = longest_move(&m.mid.legal_commands()).expect("a move");
    let idx = Fm::command_to_index(m.mid.scenario(), m.mid.state(), &mv).expect("an index");
    assert_eq!(m.mid.index_to_command(idx).as_ref(), Some(&mv));
    g.bench_function("index_to_command_midgame", |b| {
        b.iter(|| black_box(&m.mid).index_to_command(black_box(idx)))
    });
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(secs(4.0));
    g.bench_function("undo_meuse_end", |b| {
        b.iter_batched_ref(|| m.end.clone(), |x| x.undo(), BatchSize::PerIteration)
    });
    let saved = m.end.save();
    g.bench_function("load_meuse_finished", |b| {
        b.iter(|| Match::load(black_box(&saved)).expect("a valid save"))
    });
    g.finish();
}

/// system-demo at turn 1, side A's Movement Phase.
fn opening() -> (Arc<Scenario>, State) {
    let sc = Arc::new(Scenario::builtin("system-demo").expect("built-in scenario"));
    let (mut s, _) = new_game(&sc, &mut rng_from_seed(1));
    let mut guard = 0;
    while matches!(s.pending(), Pending::Setup { .. }) {
        let cmd = legal_commands(&sc, &s)
            .into_iter()
            .next()
            .expect("a set-up command");
        let ev = apply(&sc, &s, &cmd, &mut rng_from_seed(1)).expect("legal set-up command");
        s.apply_events(&sc, &ev);
        guard += 1;
        assert!(guard < 1000, "set-up does not end");
    }
    assert!(
        matches!(
            s.pending(),
            Pending::Phase {
                phase: Phase::Movement,
                ..
            }
        ),
        "expected a Movement Phase after set-up, got {:?}",
        s.pending()
    );
    (sc, s)
}

fn bench_apply(c: &mut Criterion) {
    let (sc, s) = opening();
    // The longest move of the armor brigade: the most hexes to validate.
    let armor = UnitId::new("blue-1-armor-bde");
    let cmd = legal_commands_for(&sc, &s, &armor)
        .into_iter()
        .max_by_key(|c| match c {
            Command::Move { path, .. } => path.len(),
            _ => 0,
        })
        .expect("a move of blue-1-armor-bde");
    assert!(matches!(cmd, Command::Move { .. }));
    let mut rng = rng_from_seed(7);
    c.bench_function("apply/move", |b| {
        b.iter(|| apply(&sc, black_box(&s), black_box(&cmd), &mut rng).expect("legal move"))
    });
}

fn bench_reachable(c: &mut Criterion) {
    let (sc, s) = opening();
    let mut g = c.benchmark_group("reachable");
    for (name, id) in [("ma4", "blue-1-inf-div"), ("ma8", "blue-1-armor-bde")] {
        let id = UnitId::new(id);
        assert!(!reachable(&sc, &s, &id).is_empty(), "{id} can move");
        g.bench_function(name, |b| b.iter(|| reachable(&sc, black_box(&s), &id)));
    }
    g.finish();
}

fn bench_legal(c: &mut Criterion) {
    let (sc, s) = opening();
    c.bench_function("legal_commands/movement_start", |b| {
        b.iter(|| legal_commands(&sc, black_box(&s)))
    });
}

/// Vimy Ridge after a seeded random set-up: the Allied turn-1 bombardment phase.
fn vimy_barrage() -> (Arc<Scenario>, State) {
    let sc = Arc::new(Scenario::builtin("vimy-ridge").expect("built-in scenario"));
    let mut rng = rng_from_seed(1);
    let (mut s, _) = new_game(&sc, &mut rng);
    while let Pending::Setup { .. } = s.pending() {
        let cmd = agents::random(&sc, &s, &mut rng).expect("a placement");
        let ev = apply(&sc, &s, &cmd, &mut rng).expect("legal placement");
        s.apply_events(&sc, &ev);
    }
    (sc, s)
}

fn bench_observation(c: &mut Criterion) {
    let (sc, s) = vimy_barrage();
    let targets: Vec<Hex> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side == Side::B)
        .filter_map(|(_, u)| u.hex())
        .collect();
    let mut g = c.benchmark_group("observed");
    g.bench_function("vimy-ridge", |b| {
        b.iter(|| {
            targets
                .iter()
                .filter(|h| observed(&sc, black_box(&s), Side::A, **h))
                .count()
        })
    });
    g.finish();
}

fn config() -> Criterion {
    let c = Criterion::default().sample_size(30);
    if quick() {
        c.warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(700))
            .sample_size(10)
    } else {
        c.warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_games, bench_meuse_legal, bench_meuse_apply, bench_meuse_state,
        bench_apply, bench_reachable, bench_legal, bench_observation
}
criterion_main!(benches);
