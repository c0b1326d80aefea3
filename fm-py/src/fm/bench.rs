//! Benchmark helpers of Fire & Movement matches (`benches/python/bench_bindings.py`):
//! `fm._fm._bench_rust_apply` and `_bench_rust_legal` time the engine's own calls in
//! Rust, so that the bindings' overhead can be told from the engine's.

use super::commands::command_from_py;
use super::fm_match;
use crate::errors::{fm_only, rule_error};
use crate::match_::PyMatch;
use pyo3::prelude::*;
use std::time::Instant;

/// The Fire & Movement match of a benchmark helper's argument.
fn bench_match(match_: &Bound<'_, PyMatch>, what: &str) -> PyResult<fm_core::Match> {
    let b = match_.borrow();
    fm_match(&*b.m)
        .cloned()
        .ok_or_else(|| fm_only(what, b.m.system()))
}

/// Benchmark helper: times `Match.apply(command)` in Rust `reps` times, each on a fresh
/// clone of `match_` (cloning untimed), and returns the per-call times in nanoseconds
/// (Fire & Movement matches only).
#[pyfunction]
pub fn _bench_rust_apply(
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
            return Err(rule_error(&e));
        }
        out.push(dt);
    }
    Ok(out)
}

/// Benchmark helper: times `legal_commands` and `legal_indices` in Rust `reps` times
/// each on `match_`'s state; returns the two lists of per-call nanoseconds (Fire &
/// Movement matches only).
#[pyfunction]
pub fn _bench_rust_legal(
    match_: &Bound<'_, PyMatch>,
    reps: usize,
) -> PyResult<(Vec<u64>, Vec<u64>)> {
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
