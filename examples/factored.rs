//! The factored action space (issue 18) measured: each built-in scenario's flat action
//! space and factored step sizes (and the bytes of a decision's masks: the flat mask,
//! against one mask a step of the factored space at most), then the time of one step's
//! options against the flat listing at a Vimy Ridge set-up step and at three Meuse
//! Argonne movement steps.
//!
//! ```text
//! cargo run --release -p fm-core --example factored            # the tables of docs/learning.md
//! cargo run --release -p fm-core --example factored -- --quick  # shorter timings
//! ```
//!
//! Positions: Vimy Ridge's first set-up decision (seed 1); Meuse Argonne's first
//! Movement Phase with a move, the first with aircraft to place (17.3: the Allies may
//! place one on any hex, 1,200 commands of the game's own), and the first after 735
//! commands or more, of the seeded random game (seed 1, agent seed 1000: the first and
//! the last are the "movement start" and "mid-game" of `benches/engine.rs`). Each time is the
//! median over samples of a batch of calls on the same match (its memo warm after the
//! first call, as in an agent's loop), and "cold" the free functions, which keep no
//! memo (every unit search run afresh). A unit's step is the mean over the heads listed
//! at step 0 (round robin).

use fm_core::any;
use fm_core::{Match, Pending, Phase};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median time of one call of each of `fs`, measured in interleaved rounds (each
/// round times a batch of every one in turn, so a machine busy with other work slows
/// them alike): 15 rounds of batches of about `budget / 15`.
fn times(quick: bool, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let budget = Duration::from_millis(if quick { 150 } else { 1500 });
    let iters: Vec<u32> = fs
        .iter_mut()
        .map(|f| {
            f();
            let t = Instant::now();
            f();
            let one = t.elapsed().max(Duration::from_nanos(50));
            ((budget / 15).as_nanos() / one.as_nanos()).clamp(1, 1_000_000) as u32
        })
        .collect();
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); fs.len()];
    for _ in 0..15 {
        for (k, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..iters[k] {
                f();
            }
            samples[k].push(t.elapsed() / iters[k]);
        }
    }
    samples
        .into_iter()
        .map(|mut v| {
            v.sort();
            v[v.len() / 2]
        })
        .collect()
}

fn show(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The seeded random Meuse Argonne game's first Movement Phase with a move after
/// `from` commands or more (and, if `aircraft`, with aircraft to place: 17.3, a
/// placement on every hex).
fn meuse_mid(from: usize, aircraft: bool) -> Match {
    let mut m = Match::new_builtin("meuse-argonne", 1).expect("built-in scenario");
    let mut rng = fm_core::rng_from_seed(1000);
    loop {
        let movement = matches!(
            m.pending(),
            Pending::Phase {
                phase: Phase::Movement,
                ..
            }
        );
        let moves = m
            .legal_commands()
            .iter()
            .any(|c| matches!(c, fm_core::Command::Move { .. }));
        // Head 7: `place_aircraft`.
        let air = || m.factored_options(&[]).is_ok_and(|h| h.contains(&7));
        if m.log().len() >= from && movement && moves && (!aircraft || air()) {
            return m;
        }
        let c = m.random_command(&mut rng).expect("a game not over");
        m.apply(&c).expect("a legal command");
    }
}

/// Times the flat listing and each step at `m` (interleaved); prints the table rows.
fn rows(quick: bool, what: &str, m: &Match) {
    let (sc, s) = (m.scenario(), m.state());
    let legal = m.legal_indices();
    let heads = m.factored_options(&[]).expect("options");
    let longer: Vec<usize> = heads
        .iter()
        .copied()
        .filter(|&h| !m.factored_complete(&[h]).expect("a head"))
        .collect();
    let step1: usize = longer
        .iter()
        .map(|&h| m.factored_options(&[h]).expect("options").len())
        .sum::<usize>()
        / longer.len().max(1);
    let mut k = 0;
    let mut next = || {
        k = (k + 1) % longer.len().max(1);
        longer.get(k).copied().unwrap_or(0)
    };
    let mut k2 = 0;
    let mut next2 = || {
        k2 = (k2 + 1) % longer.len().max(1);
        longer.get(k2).copied().unwrap_or(0)
    };
    let t = times(
        quick,
        &mut [
            &mut || {
                black_box(m.legal_indices());
            },
            &mut || {
                black_box(m.factored_options(&[]).expect("options"));
            },
            &mut || {
                black_box(m.legal_commands());
            },
            &mut || {
                black_box(m.factored_options(&[next()]).expect("options"));
            },
            &mut || {
                black_box(fm_core::legal_indices(sc, s));
            },
            &mut || {
                black_box(fm_core::factored_options(sc, s, &[]).expect("options"));
            },
            &mut || {
                black_box(fm_core::factored_options(sc, s, &[next2()]).expect("options"));
            },
        ],
    );
    let (flat_warm, head_warm, commands_warm, unit_warm) = (t[0], t[1], t[2], t[3]);
    let (flat_cold, head_cold, unit_cold) = (t[4], t[5], t[6]);
    println!(
        "| {what}: flat `legal_commands` ({} commands) | {} | |",
        thousands(m.legal_commands().len()),
        show(commands_warm)
    );
    println!(
        "| {what}: flat `legal_indices` ({} legal) | {} | {} |",
        thousands(legal.len()),
        show(flat_warm),
        show(flat_cold)
    );
    println!(
        "| {what}: step 0, the heads ({} options) | {} | {} |",
        heads.len(),
        show(head_warm),
        show(head_cold)
    );
    println!(
        "| {what}: step 1 after a head ({step1} options on average) | {} | {} |",
        show(unit_warm),
        show(unit_cold)
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!(
        "| scenario | flat action space | factored step sizes | largest step | mask bytes a decision, flat / factored |"
    );
    println!("|---|---|---|---|---|");
    for name in any::builtin_scenarios() {
        let m = any::new_match(name, 1).expect("built-in scenario");
        let sizes = m.factored_sizes();
        let shown: Vec<String> = sizes.iter().map(|&n| thousands(n)).collect();
        println!(
            "| {name} | {} | {} | {} | {} / {} |",
            thousands(m.action_space_size()),
            shown.join(" × "),
            thousands(sizes.iter().copied().max().unwrap_or(0)),
            thousands(m.action_space_size()),
            thousands(sizes.iter().sum())
        );
    }
    println!();
    println!("| position and listing | the match (memo) | cold (free function) |");
    println!("|---|---|---|");
    let vimy = Match::new_builtin("vimy-ridge", 1).expect("built-in scenario");
    assert!(matches!(vimy.pending(), Pending::Setup { .. }));
    rows(quick, "Vimy set-up", &vimy);
    let start = meuse_mid(0, false);
    rows(
        quick,
        &format!("Meuse movement, command {}", start.log().len()),
        &start,
    );
    let air = meuse_mid(0, true);
    rows(
        quick,
        &format!(
            "Meuse movement with aircraft to place, command {}",
            air.log().len()
        ),
        &air,
    );
    let meuse = meuse_mid(735, false);
    rows(
        quick,
        &format!("Meuse movement, command {}", meuse.log().len()),
        &meuse,
    );
}
