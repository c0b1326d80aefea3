//! Engine benchmarks on the built-in scenarios.
//!
//! ```text
//! cargo bench --bench engine             # measure (~1 minute after the build)
//! cargo bench --bench engine -- --test   # run each benchmark once (CI smoke test)
//! ```
//!
//! - `apply/move`: one `apply` of a move command (apply returns the events and never
//!   touches the input state, so nothing is cloned or folded in the loop).
//! - `reachable/ma4`, `reachable/ma8`: legal destinations of blue-1-inf-div (MA 4) and
//!   blue-1-armor-bde (MA 8) at the opening.
//! - `legal_commands/movement_start`: every legal command at the opening movement phase.
//! - `self_play/system-demo`: a whole game, both sides the random agent (match seed 1,
//!   agent seed 1000), from `Match::new` to game over.
//! - `self_play_meuse/meuse-argonne`: the same for a whole Meuse Argonne game.
//! - `self_play_vimy/vimy-ridge`: the same for a whole Vimy Ridge game (set-up of 75
//!   battalions, 11 turns). Games per second is the inverse of its time.
//! - `self_play_suez/suez-1916`: the same for a whole Suez 1916 game (set-up of 45
//!   units, 9 turns with fire support, activation and reinforcement rolls).
//! - `observed/vimy-ridge`: every observation check (lines of sight) the Allies make
//!   listing their artillery targets in the turn-1 bombardment phase.
//!
//! "The opening" is system-demo after set-up (its zone-placed units placed with the
//! first legal `place` command each time): turn 1, side A's Movement Phase.

use criterion::{criterion_group, criterion_main, Criterion};
use fm_core::*;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

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

fn unit_ma(sc: &Scenario, s: &State, id: &UnitId) -> u8 {
    let i = sc.unit_index(id).expect("unit") as usize;
    sc.units[i].values(s.units[i].steps).movement
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
    for (name, id, ma) in [("ma4", "blue-1-inf-div", 4), ("ma8", "blue-1-armor-bde", 8)] {
        let id = UnitId::new(id);
        assert_eq!(unit_ma(&sc, &s, &id), ma, "{id} MA");
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

fn self_play(sc: &Arc<Scenario>) -> usize {
    let mut m = Match::new(sc.clone(), 1);
    let mut rng = rng_from_seed(1000);
    while !m.is_over() {
        let cmd = agents::random(m.scenario(), m.state(), &mut rng).expect("a legal command");
        m.apply(&cmd).expect("legal command accepted");
    }
    m.log().len()
}

fn bench_self_play(c: &mut Criterion) {
    let sc = Arc::new(Scenario::builtin("system-demo").expect("built-in scenario"));
    let mut g = c.benchmark_group("self_play");
    g.sample_size(10).measurement_time(Duration::from_secs(6));
    g.bench_function("system-demo", |b| b.iter(|| self_play(black_box(&sc))));
    g.finish();
    // A whole 24-turn Meuse Argonne game (77 units, 1,200 hexes): seconds, not ms.
    let ma = Arc::new(Scenario::builtin("meuse-argonne").expect("built-in scenario"));
    let mut g = c.benchmark_group("self_play_meuse");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("meuse-argonne", |b| b.iter(|| self_play(black_box(&ma))));
    g.finish();
    let vr = Arc::new(Scenario::builtin("vimy-ridge").expect("built-in scenario"));
    let mut g = c.benchmark_group("self_play_vimy");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("vimy-ridge", |b| b.iter(|| self_play(black_box(&vr))));
    g.finish();
    let su = Arc::new(Scenario::builtin("suez-1916").expect("built-in scenario"));
    let mut g = c.benchmark_group("self_play_suez");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("suez-1916", |b| b.iter(|| self_play(black_box(&su))));
    g.finish();
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
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_apply, bench_reachable, bench_legal, bench_self_play, bench_observation
}
criterion_main!(benches);
