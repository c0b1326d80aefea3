//! `fm._fm`: the native module of the `fm` Python package (Python bindings of
//! `fm-core`, the Fire & Movement rules engine). The public API is the pure-Python
//! package `fm` (fm-py/python/fm), which re-exports these names; this crate holds no
//! rules logic.
//!
//! - `fm.Match` is a match of any registered rules system, through the
//!   system-agnostic layer `fm_core::any` (a second system needs no new class); the
//!   Fire & Movement extras downcast to `fm_core::Match` and raise
//!   `fm.UnsupportedError` for another system.
//! - Commands in: typed `fm.Command` objects are borrowed as they are; dicts in the
//!   documented JSON form are read by direct extraction (no JSON text), with serde as
//!   the fallback that reports malformed input as `fm.ProtocolError`. JSON text is read
//!   strictly (`fm_core::json::parse_strict`: no duplicate key, bounded size).
//! - Events out: one light native object per event, its fields converted to Python
//!   only when first read (another system's: dicts).
//! - Errors: `fm.RuleError`, `fm.ScenarioError`, `fm.ProtocolError`, `fm.SaveError`,
//!   `fm.UnsupportedError` (defined in `fm/_errors.py`); a Rust panic surfaces as
//!   pyo3's `PanicException`, never as a crash.
//! - Pictures as pixels (`picture`): `fm.svg_to_png`, `fm.svg_to_rgb` draw SVG text with
//!   resvg and the system's fonts, for the environment's `rgb_array` mode.
//! - Feature `toy-system` compiles in the toy second rules system of the Rust tests
//!   (`tests/support/race.rs`, scenario `race-to-10`) and registers it, so that the
//!   Python suite can prove the bindings generic (`scripts/test_py.sh` builds with it).

mod args;
mod convert;
mod errors;
mod game;
mod huzzah;
mod objects;
mod picture;
#[cfg(feature = "toy-system")]
#[path = "../../tests/support/race.rs"]
mod race;

use convert::{canonical_json, Fnv};
use fm_core::{Event, Scenario, Side};
use game::{source_from_py, PyMatch, PyScenario, Source};
use objects::{command_from_py, command_obj, event_obj, PyCommand, PyLogEntry, PyPending};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;
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
        return Err(errors::protocol_error(format!(
            "system: unknown rules system {system:?} (known: {})",
            fm_core::any::systems().join(", ")
        )));
    }
    let fm = Scenario::builtin_names();
    if system == <fm_core::Fm as fm_core::Game>::NAME {
        return Ok(fm);
    }
    // The layer does not list a system's own built-ins: a match of each other one
    // names its system (cheap next to a Fire & Movement scenario, which needs none).
    Ok(all
        .into_iter()
        .filter(|n| !fm.contains(n))
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
        Some(g) => args::count_arg(g, "games", u64::MAX)?,
        None => 1,
    };
    let seed = args::seed_arg(seed, 0)?;
    let threads = match threads {
        Some(t) => args::count_arg(t, "threads", u64::MAX)?,
        None => 1,
    };
    let src = match scenario {
        Some(s) => source_from_py(s)?,
        None => Source::Fm(Arc::new(
            Scenario::builtin("system-demo").map_err(|e| errors::scenario_error(&e))?,
        )),
    };
    // Another system's scenario is validated by opening it once here, so that an invalid
    // one raises its own exception rather than a RuntimeError from inside a game.
    if !matches!(src, Source::Fm(_)) {
        src.open(seed).map_err(|e| errors::match_error(&e))?;
    }
    let threads = threads.clamp(1, 64);
    type GameResult = Result<(Option<Side>, u64), String>;
    let run = move || -> Result<(Vec<Option<Side>>, u64, f64), String> {
        let start = Instant::now();
        let play = |g: u64| -> GameResult {
            let s = seed.wrapping_add(g);
            let mut rng = fm_core::rng_from_seed(s ^ 0x9e37_79b9_7f4a_7c15);
            let Source::Fm(sc) = &src else {
                // Another system: the layer's uniformly random play-out.
                let mut m = src.open(s).map_err(|e| format!("game {g}: {e}"))?;
                let n = m.playout(&mut rng, usize::MAX);
                if !m.is_over() {
                    return Err(format!("game {g}: no legal command before the end"));
                }
                return Ok((m.outcome().and_then(|o| o.0), n as u64));
            };
            // Fire & Movement: the `play` example's agent, so that the games are the same.
            let mut m = fm_core::Match::new(sc.clone(), s);
            let mut n = 0u64;
            while !m.is_over() {
                let c = fm_core::agents::random(m.scenario(), m.state(), &mut rng)
                    .ok_or_else(|| format!("game {g}: no legal command before the end"))?;
                m.apply(&c)
                    .map_err(|e| format!("game {g}: a legal command was refused: {e}"))?;
                n += 1;
            }
            Ok((m.winner(), n))
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
fn hash_event_value(h: &mut Fnv, v: &serde_json::Value) {
    let mut s = String::new();
    canonical_json(v, &mut s);
    h.write(s.as_bytes());
    h.write(b"\n");
}

/// [`hash_event_value`] of a Fire & Movement event.
fn hash_event(h: &mut Fnv, e: &Event) {
    hash_event_value(h, &serde_json::to_value(e).expect("an event serializes"));
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
    let seed = args::seed_arg(Some(seed), 0)?;
    let steps = args::count_arg(steps, "steps", usize::MAX as u64)? as usize;
    let no_command = |k: usize| {
        pyo3::exceptions::PyRuntimeError::new_err(format!(
            "step {k}: no legal command although the game is not over"
        ))
    };
    let src = source_from_py(scenario)?;
    let Source::Fm(sc) = src else {
        // Another system: the same playthrough through the match layer's JSON forms.
        let mut m = src.open(seed).map_err(|e| errors::match_error(&e))?;
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
                .map_err(|e| errors::match_error(&e))?;
            if let serde_json::Value::Array(events) = events {
                events.iter().for_each(|e| hash_event_value(&mut h, e));
            }
            k += 1;
        }
        return Ok((h.0, k, m.state_hash()));
    };
    let mut m = fm_core::Match::new(sc, seed);
    let mut h = Fnv::new();
    for e in m.opening_events() {
        hash_event(&mut h, e);
    }
    let mut k = 0;
    while k < steps && !m.is_over() {
        let cmds = m.legal_commands();
        if cmds.is_empty() {
            return Err(no_command(k));
        }
        let c = cmds[(k * 7) % cmds.len()].clone();
        let events = m.apply(&c).map_err(|e| errors::rule_error(&e))?;
        for e in events {
            hash_event(&mut h, e);
        }
        k += 1;
    }
    Ok((h.0, k, m.state().hash()))
}

/// The Fire & Movement match of a benchmark helper's argument.
fn bench_match(match_: &Bound<'_, PyMatch>, what: &str) -> PyResult<fm_core::Match> {
    match_.borrow().fm_or(what).cloned()
}

/// Benchmark helper: times `Match.apply(command)` in Rust `reps` times, each on a fresh
/// clone of `match_` (cloning untimed), and returns the per-call times in nanoseconds
/// (Fire & Movement matches only).
#[pyfunction]
fn _bench_rust_apply(
    match_: &Bound<'_, PyMatch>,
    command: &Bound<'_, PyAny>,
    reps: usize,
) -> PyResult<Vec<u64>> {
    let c = command_from_py(command)?;
    let base = bench_match(match_, "_bench_rust_apply")?;
    let mut out = Vec::with_capacity(reps);
    for _ in 0..reps {
        let mut m = base.clone();
        let t = Instant::now();
        let r = m.apply(&c).map(|e| e.len());
        let dt = t.elapsed().as_nanos() as u64;
        std::hint::black_box(&r);
        if let Err(e) = r {
            return Err(errors::rule_error(&e));
        }
        out.push(dt);
    }
    Ok(out)
}

/// Benchmark helper: times `legal_commands` and `legal_indices` in Rust `reps` times
/// each on `match_`'s state; returns the two lists of per-call nanoseconds (Fire &
/// Movement matches only).
#[pyfunction]
fn _bench_rust_legal(match_: &Bound<'_, PyMatch>, reps: usize) -> PyResult<(Vec<u64>, Vec<u64>)> {
    let m = bench_match(match_, "_bench_rust_legal")?;
    let (sc, s) = (m.scenario(), m.state());
    let time = |f: &dyn Fn() -> usize| -> Vec<u64> {
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed().as_nanos() as u64
            })
            .collect()
    };
    Ok((
        time(&|| fm_core::legal_commands(sc, s).len()),
        time(&|| fm_core::legal_indices(sc, s).len()),
    ))
}

/// JSON text given to Python, read strictly (duplicate keys refused, size bounded).
fn strict_json(json: &str, what: &str) -> PyResult<serde_json::Value> {
    convert::check_text_size(json.len(), what).map_err(errors::protocol_error)?;
    fm_core::json::parse_strict(json)
        .map_err(|e| errors::protocol_error(format!("invalid {what}: {e}")))
}

#[pyfunction]
fn _command_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let v = strict_json(json, "command JSON")?;
    command_obj(
        py,
        &objects::parse_command_value(v, "invalid command JSON")?,
    )
}

#[pyfunction]
fn _event_from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let e: Event = serde_json::from_value(strict_json(json, "event JSON")?)
        .map_err(|e| errors::protocol_error(format!("invalid event JSON: {e}")))?;
    event_obj(py, &e)
}

#[pyfunction]
fn _pending_from_json(json: &str) -> PyResult<PyPending> {
    let p: fm_core::Pending = serde_json::from_value(strict_json(json, "pending JSON")?)
        .map_err(|e| errors::protocol_error(format!("invalid pending JSON: {e}")))?;
    Ok(PyPending::new(p))
}

/// Parses a command (a dict in the documented JSON form, JSON text, or an
/// `fm.Command`) into a typed command object.
#[pyfunction]
fn command<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    command_obj(py, &command_from_py(data)?)
}

#[pymodule]
fn _fm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The toy system registers itself with the match layer (idempotent), so that
    // `fm.Match("race-to-10")` finds it like any registered system.
    #[cfg(feature = "toy-system")]
    race::register();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_JSON_DEPTH", convert::MAX_JSON_DEPTH)?;
    m.add("MAX_INPUT_BYTES", convert::MAX_INPUT_BYTES)?;
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(information_state_tensor_size, m)?)?;
    m.add_function(wrap_pyfunction!(systems, m)?)?;
    m.add_function(wrap_pyfunction!(play_random, m)?)?;
    m.add_function(wrap_pyfunction!(rust_playthrough_hash, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_rust_apply, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_rust_legal, m)?)?;
    m.add_function(wrap_pyfunction!(_command_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_event_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_pending_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add_function(wrap_pyfunction!(picture::svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(picture::svg_to_rgb, m)?)?;
    m.add_function(wrap_pyfunction!(picture::render_fonts, m)?)?;
    m.add_class::<PyScenario>()?;
    m.add_class::<PyMatch>()?;
    m.add_class::<PyPending>()?;
    m.add_class::<PyLogEntry>()?;
    m.add_class::<PyCommand>()?;
    m.add_class::<objects::Place>()?;
    m.add_class::<objects::Move>()?;
    m.add_class::<objects::Bombard>()?;
    m.add_class::<objects::Attack>()?;
    m.add_class::<objects::SupportFire>()?;
    m.add_class::<objects::ChooseLoss>()?;
    m.add_class::<objects::Retreat>()?;
    m.add_class::<objects::StiffResistance>()?;
    m.add_class::<objects::Advance>()?;
    m.add_class::<objects::Replace>()?;
    m.add_class::<objects::Rebuild>()?;
    m.add_class::<objects::BreakDown>()?;
    m.add_class::<objects::PlaceAircraft>()?;
    m.add_class::<objects::Artillery>()?;
    m.add_class::<objects::LostBattalion>()?;
    m.add_class::<objects::AirUnit>()?;
    m.add_class::<objects::Kress>()?;
    m.add_class::<objects::Done>()?;
    let events = PyModule::new(py, "events")?;
    objects::add_event_classes(&events)?;
    m.add("events", events)?;
    m.add("huzzah", huzzah::module(py)?)?;
    m.add_function(wrap_pyfunction!(huzzah::_hz_command_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(huzzah::_hz_event_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(huzzah::_hz_pending_from_json, m)?)?;
    let names = PyList::new(py, fm_core::observation::feature_names())?;
    m.add("FEATURE_NAMES", names)?;
    Ok(())
}
