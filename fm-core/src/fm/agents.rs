//! Simple agents for tests, benchmarks and examples.

use crate::fm::command::Command;
use crate::fm::legal::{legal_commands, nth_movement_command};
use crate::fm::scenario::{Phase, Scenario};
use crate::fm::state::{Pending, State};
use rand_core::RngCore;

/// A uniformly random legal command, or `None` when the game is over.
///
/// ```
/// use fm_core::{agents, new_game, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let mut rng = fm_core::rng_from_seed(3);
/// let (state, _) = new_game(&sc, &mut rng);
/// assert!(agents::random(&sc, &state, &mut rng).is_some());
/// ```
pub fn random(sc: &Scenario, s: &State, rng: &mut dyn RngCore) -> Option<Command> {
    // A movement phase: count the moves, build only the one drawn.
    if let Pending::Phase {
        phase: Phase::Movement | Phase::MobileMovement,
        ..
    } = s.pending()
    {
        return Some(nth_movement_command(sc, s, |n| uniform(rng, n)));
    }
    let mut cmds = legal_commands(sc, s);
    if cmds.is_empty() {
        return None;
    }
    let k = uniform(rng, cmds.len());
    Some(cmds.swap_remove(k))
}

/// A uniform draw from `0..n` (`n` > 0), by rejection.
pub(crate) fn uniform(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            break (x % n) as usize;
        }
    }
}
