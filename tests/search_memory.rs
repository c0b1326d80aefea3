//! Issue 33: the memory a search's tree holds is what `SearchResult::tree_bytes`
//! counts and `SearchConfig::max_tree_bytes` bounds. A test binary of its own: it
//! counts the heap with a global allocator (every byte the process holds, so no other
//! test may run beside it).
//!
//! A search's heap is its tree plus what does not grow with it (the determinizations,
//! the legal lists, the movement memo). The peak heap of a search that stops at its
//! bound, less the peak of a short search of the same position, is the tree's share:
//! it must be within the bound (the bound bounds, a vector's growth included, when its
//! old and new buffers are both held), and not far below the estimate the result
//! reports (the estimate is not a guess padded to be safe).

use fm_core::any::{new_match, DynMatch};
use fm_core::search::SearchConfig;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counters only
// add and subtract the sizes it was given.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        // Counted as the system's realloc may hold both blocks for a moment.
        grew(new);
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The search's result and the most heap it held above what was live before it.
fn peak_of(g: &dyn DynMatch, cfg: &SearchConfig) -> (serde_json::Value, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let r = g.think(cfg, &mut || false, 1).expect("a decision");
    (r, PEAK.load(Ordering::Relaxed) - before)
}

#[test]
fn the_tree_holds_what_its_estimate_counts() {
    // Meuse Argonne's set-up (hundreds of placements a node) and a Huzzah! battle
    // (tens of orders a node: there the nodes themselves weigh most).
    for (scenario, budget) in [("meuse-argonne", 24 << 20), ("huzzah-encounter", 4 << 20)] {
        let g = new_match(scenario, 1).unwrap();
        let base = SearchConfig {
            seed: 5,
            max_priors: 40,
            ..SearchConfig::default()
        };
        // The scenario's caches are made on first use: before counting.
        peak_of(
            &*g,
            &SearchConfig {
                iterations: 20,
                ..base
            },
        );
        let (small, small_peak) = peak_of(
            &*g,
            &SearchConfig {
                iterations: 20,
                ..base
            },
        );
        let cfg = SearchConfig {
            iterations: SearchConfig::MAX_ITERATIONS,
            max_tree_bytes: Some(budget),
            ..base
        };
        let (r, peak) = peak_of(&*g, &cfg);
        assert_eq!(r["stopped"], "memory", "{scenario}: {r}");
        let estimate = r["tree_bytes"].as_u64().unwrap() as usize;
        let tree = peak.saturating_sub(small_peak);
        eprintln!(
            "{scenario}: {} iterations, estimate {estimate} B, peak {peak} B \
             (a 20-iteration search's: {small_peak} B, its estimate {}), the tree's share {tree} B",
            r["iterations"], small["tree_bytes"]
        );
        assert!(
            estimate as u64 <= budget,
            "{scenario}: {estimate} > {budget}"
        );
        assert!(
            tree as u64 <= budget,
            "{scenario}: the tree held {tree} B, more than its bound of {budget} B"
        );
        assert!(
            tree >= estimate / 4 * 3,
            "{scenario}: the tree held {tree} B, far less than the {estimate} B counted"
        );
    }
}
