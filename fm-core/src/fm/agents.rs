//! Simple agents for tests, benchmarks and examples.

use crate::dynmatch::uniform_index;
use crate::fm::command::Command;
use crate::fm::legal::{legal_commands, nth_movement_command, Fresh, MoveSource};
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
    random_from(sc, s, rng, || Fresh::new(sc, s))
}

/// [`random`], the moves counted and built by the [`MoveSource`] `source` makes.
pub(crate) fn random_from<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    rng: &mut dyn RngCore,
    source: impl FnOnce() -> S,
) -> Option<Command> {
    // A movement phase: count the moves, build only the one drawn.
    if let Pending::Phase {
        phase: Phase::Movement | Phase::MobileMovement,
        ..
    } = s.pending()
    {
        return Some(nth_movement_command(sc, s, &mut source(), |n| {
            uniform_index(rng, n)
        }));
    }
    let mut cmds = legal_commands(sc, s);
    if cmds.is_empty() {
        return None;
    }
    let k = uniform_index(rng, cmds.len());
    Some(cmds.swap_remove(k))
}
