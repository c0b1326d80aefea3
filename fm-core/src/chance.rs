//! Chance made explicit. Every die roll and random draw of every rules system is one
//! call of [`roll_index`]: a uniform choice among `n` outcomes. Normally it draws from
//! the generator passed to `apply` (by rejection, so every platform agrees). A match in
//! explicit chance mode ([`crate::GameMatch::set_chance_mode`]) instead runs the
//! command with a script of outcomes chosen so far: where the script runs out, the
//! command stops counting and the match reports a chance node with the number of
//! outcomes of the next draw, each of probability `1/n`; a chance command picks one
//! and the command runs again with the longer script. `apply` stays a pure function
//! of the state, the command and its dice: the engine never knows which mode it is in.
//!
//! The script is installed for one `apply` on the calling thread ([`with_script`]) and
//! removed when it returns (or unwinds).

use rand_core::RngCore;
use std::cell::RefCell;

/// A chance node: the next draw has `outcomes` equally likely outcomes `0..outcomes`.
///
/// ```
/// use fm_core::{ChanceMode, ChanceNode, Command, Match};
/// let mut m = Match::new_builtin("system-demo", 1).unwrap();
/// m.set_chance_mode(ChanceMode::Explicit);
/// assert_eq!(m.chance_node(), None);
/// let _ = ChanceNode { outcomes: 6 }.probability();
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChanceNode {
    /// How many outcomes the draw has (each as likely).
    pub outcomes: u32,
}

impl ChanceNode {
    /// The probability of each outcome.
    pub fn probability(self) -> f64 {
        1.0 / f64::from(self.outcomes.max(1))
    }
}

/// How a match resolves chance.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ChanceMode {
    /// Draws come from the match's seeded generator (the default).
    #[default]
    Sampled,
    /// Each draw is a chance node a chance command resolves.
    Explicit,
}

#[derive(Default)]
struct Script {
    given: Vec<u32>,
    used: usize,
    /// The first draw past the script: its number of outcomes.
    missing: Option<u32>,
    /// A scripted outcome out of range: (draw index, outcome, outcomes).
    bad: Option<(usize, u32, u32)>,
}

thread_local! {
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

/// What a scripted run of one command found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Scripted {
    /// Every draw came from the script, which was used up exactly.
    Complete,
    /// The script ran out: the next draw has this many outcomes.
    Needs(u32),
    /// The script has more outcomes than the command drew.
    Unused,
    /// Scripted outcome `1` of draw `0` is not below its number of outcomes `2`.
    OutOfRange(usize, u32, u32),
}

/// Runs `f` with every draw on this thread taken from `given` in order.
pub(crate) fn with_script<T>(given: &[u32], f: impl FnOnce() -> T) -> (T, Scripted) {
    struct Remove;
    impl Drop for Remove {
        fn drop(&mut self) {
            SCRIPT.with(|s| s.borrow_mut().take());
        }
    }
    SCRIPT.with(|s| {
        *s.borrow_mut() = Some(Script {
            given: given.to_vec(),
            ..Script::default()
        })
    });
    let guard = Remove;
    let out = f();
    let script = SCRIPT.with(|s| s.borrow_mut().take()).unwrap_or_default();
    drop(guard);
    let found = match (script.bad, script.missing) {
        (Some((k, o, n)), _) => Scripted::OutOfRange(k, o, n),
        (None, Some(n)) => Scripted::Needs(n),
        (None, None) if script.used < script.given.len() => Scripted::Unused,
        (None, None) => Scripted::Complete,
    };
    (out, found)
}

/// A uniform index in `0..n` (n ≥ 1): the script's next outcome when one is installed,
/// else from `rng` by rejection (no modulo bias, the same on every platform).
pub(crate) fn roll_index(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u32;
    let scripted = SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        let sc = s.as_mut()?;
        let k = sc.used;
        if let Some(&o) = sc.given.get(k) {
            sc.used += 1;
            if o >= n && sc.bad.is_none() {
                sc.bad = Some((k, o, n));
            }
            Some(o.min(n - 1))
        } else {
            // Past the script: the rest of this run is discarded; draw anything.
            sc.missing.get_or_insert(n);
            Some(0)
        }
    });
    match scripted {
        Some(k) => k as usize,
        None => uniform(rng, n as usize),
    }
}

/// A uniform index in `0..n` (n ≥ 1) from `rng`, by rejection (no modulo bias, the same
/// on every platform): the generator's half of [`roll_index`], for draws no script
/// resolves (resampling hidden values).
pub(crate) fn uniform(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u32;
    let zone = u32::MAX - (u32::MAX % n);
    loop {
        let x = rng.next_u32();
        if x < zone {
            return (x % n) as usize;
        }
    }
}
