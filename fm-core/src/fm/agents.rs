//! Simple agents for tests, benchmarks and examples.

use crate::fm::command::Command;
use crate::fm::legal::legal_commands;
use crate::fm::scenario::Scenario;
use crate::fm::state::State;
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
    let mut cmds = legal_commands(sc, s);
    if cmds.is_empty() {
        return None;
    }
    let n = cmds.len() as u64;
    let zone = u64::MAX - (u64::MAX % n);
    let k = loop {
        let x = rng.next_u64();
        if x < zone {
            break (x % n) as usize;
        }
    };
    Some(cmds.swap_remove(k))
}
