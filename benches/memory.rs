//! Memory of a finished match, through the public API: the heap a `Match` holds once
//! its seeded random Meuse Argonne game is over (the game of `benches/engine.rs`: match
//! seed 1, agent seed 1000), per command of its log, and the size of its save.
//!
//! ```text
//! cargo bench --bench memory             # prints the figures (a second)
//! ./scripts/bench.sh                     # runs it after the timing benchmarks
//! ```
//!
//! The heap is counted by a global allocator that wraps the system one and keeps the
//! bytes live; a match's share is what stays allocated from before `Match::new` to after
//! the game, with the scenario (shared by every match of it, and cached per process)
//! loaded before counting starts. Nothing here asserts a figure.

use fm_core::{rng_from_seed, Match};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the counter only
// adds and subtracts the sizes it was given.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    // `cargo bench` passes `--bench`; the test suite's `-- --test` just runs it too.
    let name = "meuse-argonne";
    // The built-in scenario, cached per process, before counting.
    drop(Match::new_builtin(name, 1).expect("built-in scenario"));
    let before = LIVE.load(Ordering::Relaxed);
    let mut m = Match::new_builtin(name, 1).expect("built-in scenario");
    let mut rng = rng_from_seed(1000);
    while let Some(c) = m.random_command(&mut rng) {
        m.apply(&c).expect("a legal command");
    }
    let held = LIVE.load(Ordering::Relaxed) - before;
    let n = m.log().len();
    let save = m.save();
    println!("memory/{name}: a finished seeded random game of {n} commands");
    println!(
        "  the match holds {:.1} KiB of heap: {:.0} B per command (log, undo snapshots, opening, listing memo)",
        held as f64 / 1024.0,
        held as f64 / n as f64
    );
    println!(
        "  its save: {:.1} KiB, {:.0} B per command",
        save.len() as f64 / 1024.0,
        save.len() as f64 / n as f64
    );
    let events: usize = m.log().iter().map(|e| e.events.len()).sum();
    println!(
        "  {events} events ({:.1} per command); inline sizes: Event {} B, Command {} B, LogEntry {} B, State {} B",
        events as f64 / n as f64,
        std::mem::size_of::<fm_core::Event>(),
        std::mem::size_of::<fm_core::Command>(),
        std::mem::size_of::<fm_core::LogEntry>(),
        std::mem::size_of::<fm_core::State>(),
    );
}
