//! Memory of a finished match, through the public API: the heap a match holds once its
//! seeded random game is over (Meuse Argonne and huzzah-encounter, the games of
//! `benches/costs.rs`: match seed 1, agent seed 1000), per command of its log, and the
//! size of its save.
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

use fm_core::{rng_from_seed, Fm, Game, GameMatch};
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
    let m = held_by::<Fm>("meuse-argonne");
    let events: usize = m.log().iter().map(|e| e.events.len()).sum();
    let n = m.log().len();
    println!(
        "  {events} events ({:.1} per command); inline sizes: Event {} B, Command {} B, LogEntry {} B, State {} B",
        events as f64 / n as f64,
        std::mem::size_of::<fm_core::Event>(),
        std::mem::size_of::<fm_core::Command>(),
        std::mem::size_of::<fm_core::LogEntry>(),
        std::mem::size_of::<fm_core::State>(),
    );
    let h = held_by::<fm_core::huzzah::Huzzah>("huzzah-encounter");
    let events: usize = h.log().iter().map(|e| e.events.len()).sum();
    let n = h.log().len();
    println!(
        "  {events} events ({:.1} per command)",
        events as f64 / n as f64
    );
}

/// Plays the seeded random game of built-in `name` (match seed 1, agent seed 1000) and
/// prints the heap the finished match holds and its save's size, per command.
fn held_by<G: Game>(name: &str) -> GameMatch<G> {
    // The built-in scenario, cached per process, before counting.
    drop(GameMatch::<G>::new_builtin(name, 1).expect("built-in scenario"));
    let before = LIVE.load(Ordering::Relaxed);
    let mut m = GameMatch::<G>::new_builtin(name, 1).expect("built-in scenario");
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
    m
}
