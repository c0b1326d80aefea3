//! The module's functions for every system: `fm.scenarios`, `fm.systems`,
//! `fm.information_state_tensor_size`, and the whole games played in Rust,
//! `fm.play_random` and the parity reference `fm.rust_playthrough_hash` (each system's
//! bindings may play them through its typed values: the `random_game` and
//! `playthrough_hash` hooks of [`PySystem`](crate::system::PySystem)).

use crate::args::{count_arg, seed_arg};
use crate::convert::{canonical_json, Fnv};
use crate::errors::{match_error, protocol_error};
use crate::source::{default_source, source_from_py};
use crate::system::{self, GameResult, Source};
use fm_core::Side;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Instant;

/// The length of an information-state tensor with room for `max_commands` commands
/// (`Match.information_state_tensor`): 9 + 4 per command.
#[pyfunction]
fn information_state_tensor_size(max_commands: usize) -> PyResult<usize> {
    max_commands
        .checked_mul(fm_core::infostate::INFO_TENSOR_SLOT)
        .and_then(|n| n.checked_add(fm_core::infostate::INFO_TENSOR_HEADER))
        .ok_or_else(|| {
            pyo3::exceptions::PyOverflowError::new_err(format!(
                "max_commands {max_commands} is too large"
            ))
        })
}

/// Ids of the built-in scenarios of every registered rules system (Fire & Movement's
/// first), or of one system (`system="fm"`: Fire & Movement's). `fm.ProtocolError`
/// for a system that is not registered.
#[pyfunction]
#[pyo3(signature = (system = None))]
fn scenarios(system: Option<&str>) -> PyResult<Vec<&'static str>> {
    let all = fm_core::any::builtin_scenarios();
    let Some(system) = system else {
        return Ok(all);
    };
    if !fm_core::any::systems().contains(&system) {
        return Err(protocol_error(format!(
            "system: unknown rules system {system:?} (known: {})",
            fm_core::any::systems().join(", ")
        )));
    }
    if let Some(own) = system::named(system).builtin_names() {
        return Ok(own);
    }
    // The layer does not list a system's own built-ins: a match of each other one
    // names its system (cheap next to a Fire & Movement scenario, which needs none).
    let listed: Vec<&str> = system::all()
        .iter()
        .filter_map(|s| s.builtin_names())
        .flatten()
        .collect();
    Ok(all
        .into_iter()
        .filter(|n| !listed.contains(n))
        .filter(|n| fm_core::any::new_match(n, 0).is_ok_and(|m| m.system() == system))
        .collect())
}

/// Names of the registered rules systems (`"fm"`, Fire & Movement, first).
#[pyfunction]
fn systems() -> Vec<&'static str> {
    fm_core::any::systems()
}

/// Plays `games` whole games of random legal commands in Rust with the GIL released
/// and returns `{"games", "wins": {"a", "b", "draw"}, "commands", "seconds",
/// "winners"}`. Game `g` uses match seed `seed + g` and agent seed
/// `(seed + g) ^ 0x9e3779b97f4a7c15`, as the `play` example does, so the results equal
/// `cargo run --example play -- --seed SEED --games GAMES`; a scenario of another rules
/// system is played with the match layer's uniformly random play-out (the same seeds).
/// `threads` > 1 splits the
/// games over that many threads (same results; at most 64, 0 is 1). `seed` is an int
/// in 0..2**64-1, `games` and `threads` non-negative ints (`ValueError` otherwise).
#[pyfunction]
// `None` also means the default; the signature shows the defaults themselves.
#[pyo3(
    signature = (scenario = None, games = None, seed = None, threads = None),
    text_signature = "(scenario=None, games=1, seed=0, threads=1)"
)]
fn play_random<'py>(
    py: Python<'py>,
    scenario: Option<&Bound<'py, PyAny>>,
    games: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let games = match games {
        Some(g) => count_arg(g, "games", u64::MAX)?,
        None => 1,
    };
    let seed = seed_arg(seed, 0)?;
    let threads = match threads {
        Some(t) => count_arg(t, "threads", u64::MAX)?,
        None => 1,
    };
    let src = match scenario {
        Some(s) => source_from_py(s)?,
        None => default_source()?,
    };
    // A scenario the layer reads is validated by opening it once here, so that an
    // invalid one raises its own exception rather than a RuntimeError from inside a game.
    if !matches!(src, Source::Read(_)) {
        src.open(seed).map_err(|e| match_error(&e))?;
    }
    let threads = threads.clamp(1, 64);
    let run = move || -> Result<(Vec<Option<Side>>, u64, f64), String> {
        let start = Instant::now();
        let play = |g: u64| -> GameResult {
            let s = seed.wrapping_add(g);
            let mut rng = fm_core::rng_from_seed(s ^ 0x9e37_79b9_7f4a_7c15);
            let mut m = src.open(s).map_err(|e| format!("game {g}: {e}"))?;
            // The system's own agent (Fire & Movement: the `play` example's, so that the
            // games are the same).
            if let Some(r) = system::of(&*m).random_game(&mut *m, &mut rng) {
                return r.map_err(|e| format!("game {g}: {e}"));
            }
            // Another system: the layer's uniformly random play-out.
            let n = m.playout(&mut rng, usize::MAX);
            if !m.is_over() {
                return Err(format!("game {g}: no legal command before the end"));
            }
            Ok((m.outcome().and_then(|o| o.0), n as u64))
        };
        // Each thread plays a contiguous range of games and collects its own results
        // (nothing is allocated up front for `games`, which may be huge).
        let results: Vec<GameResult> = if threads == 1 {
            (0..games).map(play).collect()
        } else {
            let per = games.div_ceil(threads).max(1);
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|k| {
                        let play = &play;
                        let start = k.saturating_mul(per).min(games);
                        let end = start.saturating_add(per).min(games);
                        s.spawn(move || (start..end).map(play).collect::<Vec<GameResult>>())
                    })
                    .collect();
                let mut out = Vec::new();
                for h in handles {
                    match h.join() {
                        Ok(v) => out.extend(v),
                        Err(_) => out.push(Err("a game thread panicked".to_string())),
                    }
                }
                out
            })
        };
        let mut winners = Vec::with_capacity(results.len());
        let mut commands = 0;
        for r in results {
            let (w, n) = r?;
            winners.push(w);
            commands += n;
        }
        Ok((winners, commands, start.elapsed().as_secs_f64()))
    };
    let (winners, commands, secs) = py
        .detach(run)
        .map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    let d = PyDict::new(py);
    let wins = PyDict::new(py);
    let count = |w: Option<Side>| winners.iter().filter(|x| **x == w).count();
    wins.set_item("a", count(Some(Side::A)))?;
    wins.set_item("b", count(Some(Side::B)))?;
    wins.set_item("draw", count(None))?;
    d.set_item("games", games)?;
    d.set_item("wins", wins)?;
    d.set_item("commands", commands)?;
    d.set_item("seconds", secs)?;
    d.set_item(
        "winners",
        winners
            .iter()
            .map(|w| w.map(|s| s.to_string()))
            .collect::<Vec<_>>(),
    )?;
    Ok(d)
}

/// Adds an event's canonical JSON (sorted keys, compact) and a newline to a hash.
pub fn hash_event_value(h: &mut Fnv, v: &serde_json::Value) {
    let mut s = String::new();
    canonical_json(v, &mut s);
    h.write(s.as_bytes());
    h.write(b"\n");
}

/// The `RuntimeError` of a playthrough at step `k` with no legal command although the
/// game is not over.
pub fn no_command(k: usize) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(format!(
        "step {k}: no legal command although the game is not over"
    ))
}

/// The parity reference, computed in Rust: starts a match with `seed`, then for step
/// k = 0, 1, ... up to `steps` (or the end) applies the legal command at index
/// `(k * 7) % n` of `n` legal commands. Returns `(event_hash, steps_played,
/// state_hash)`, `event_hash` being FNV-1a 64 over every event's canonical JSON (keys
/// sorted, compact, UTF-8) followed by a newline, opening events first: the same as
/// `json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False)` in Python (Fire & Movement and Huzzah! events; for another rules
/// system's events, which are dicts, `json.dumps(e, ...)`).
#[pyfunction]
fn rust_playthrough_hash(
    scenario: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    steps: &Bound<'_, PyAny>,
) -> PyResult<(u64, usize, u64)> {
    let seed = seed_arg(Some(seed), 0)?;
    let steps = count_arg(steps, "steps", usize::MAX as u64)? as usize;
    let src = source_from_py(scenario)?;
    let mut m = src.open(seed).map_err(|e| match_error(&e))?;
    if let Some(r) = system::of(&*m).playthrough_hash(&mut *m, steps) {
        return r;
    }
    // Through the match layer's JSON forms.
    let mut h = Fnv::new();
    if let serde_json::Value::Array(events) = m.opening_events_json() {
        events.iter().for_each(|e| hash_event_value(&mut h, e));
    }
    let mut k = 0;
    while k < steps && !m.is_over() {
        let cmds = m.legal_json();
        if cmds.is_empty() {
            return Err(no_command(k));
        }
        let events = m
            .apply_json(&cmds[(k * 7) % cmds.len()])
            .map_err(|e| match_error(&e))?;
        if let serde_json::Value::Array(events) = events {
            events.iter().for_each(|e| hash_event_value(&mut h, e));
        }
        k += 1;
    }
    Ok((h.0, k, m.state_hash()))
}

/// Adds the functions to the module.
pub fn add_to(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(information_state_tensor_size, m)?)?;
    m.add_function(wrap_pyfunction!(systems, m)?)?;
    m.add_function(wrap_pyfunction!(play_random, m)?)?;
    m.add_function(wrap_pyfunction!(rust_playthrough_hash, m)?)?;
    Ok(())
}
