//! Hidden information (rules 7.2, Vimy Ridge 16.0, Suez 1916 18.3): what a side cannot
//! know, and states that differ from the real one only in it.
//!
//! What is hidden, from whom:
//! - 7.2: a committed support fire marker is face down to the opponent until 8.2.1(b)'s
//!   reveal. Under 7.1's lowest-first allotment the allotment is public, so the
//!   opponent knows the multiset of the unrevealed markers but not which is where.
//! - Vimy Ridge 16.0 (R-VR-16.0a): a short allotment is a secret random draw; the
//!   opponent knows only the mix, the count and the markers revealed since.
//! - Suez 1916 18.3 (R-SU-18.3): which markers are in each pool, in reserve and face
//!   down on a hex is unknown to both players until the reveal.
//!
//! [`resample_hidden`] draws a state the asking side cannot tell from the real one,
//! with every hidden value redrawn from what that side knows (each consistent
//! assignment weighted as the rules' random draws make it). The no-leak tests use it:
//! every query a side can reach must give the same answer on the resampled state.
//! Search over information sets (ISMCTS) uses it the same way.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::Scenario;
use crate::fm::state::State;
use crate::ids::Side;
use rand_core::RngCore;

/// A uniform index below `n` (rejection sampling: no modulo bias).
fn index(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u32;
    let zone = u32::MAX - (u32::MAX % n);
    loop {
        let x = rng.next_u32();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

fn shuffle(v: &mut [u8], rng: &mut dyn RngCore) {
    for i in (1..v.len()).rev() {
        let j = index(rng, i + 1);
        v.swap(i, j);
    }
}

/// A state that `side` cannot tell from `s`, with everything `side` may not know
/// redrawn at random: the opponent's face-down and unused support fire markers (7.2;
/// under Vimy Ridge 16.0 drawn afresh from the opponent's unrevealed mix), and in Suez
/// 1916 every pool, reserve and face-down fire support marker of both sides (18.3).
/// `view(sc, &resample_hidden(sc, s, side, rng), side) == view(sc, s, side)` always.
///
/// ```
/// use fm_core::{new_game, resample_hidden, rng_from_seed, view, Scenario, Side};
/// let sc = Scenario::builtin("vimy-ridge").unwrap();
/// let (s, _) = new_game(&sc, &mut rng_from_seed(3));
/// let t = resample_hidden(&sc, &s, Side::A, &mut rng_from_seed(9));
/// assert_eq!(view(&sc, &t, Side::A), view(&sc, &s, Side::A));
/// ```
pub fn resample_hidden(sc: &Scenario, s: &State, side: Side, rng: &mut dyn RngCore) -> State {
    let mut t = s.clone();
    let o = side.other();
    // 7.2 / 16.0: the opponent's unrevealed support fire markers.
    let face_down: Vec<usize> = t
        .combat
        .as_ref()
        .map(|c| {
            (0..c.markers.len())
                .filter(|&k| {
                    c.markers[k].side == o && !c.markers[k].revealed && c.markers[k].value.is_some()
                })
                .collect()
        })
        .unwrap_or_default();
    let held = t.support.get(o).available.len() + face_down.len();
    let mut values: Vec<u8> = if sc.rules().random_allotment(sc, t.turn, o) {
        let mut pool = sc.data.support_markers.get(o).clone();
        let mut revealed: Vec<u8> = t.support.get(o).used.clone();
        if let Some(c) = &t.combat {
            revealed.extend(
                c.markers
                    .iter()
                    .filter(|m| m.side == o && m.revealed)
                    .filter_map(|m| m.value),
            );
        }
        for v in revealed {
            if let Some(p) = pool.iter().position(|x| *x == v) {
                pool.swap_remove(p);
            }
        }
        pool.sort_unstable();
        shuffle(&mut pool, rng);
        pool.truncate(held);
        pool
    } else {
        let mut v = t.support.get(o).available.clone();
        if let Some(c) = &t.combat {
            v.extend(face_down.iter().filter_map(|&k| c.markers[k].value));
        }
        shuffle(&mut v, rng);
        v
    };
    if values.len() == held {
        if let Some(c) = t.combat.as_mut() {
            for &k in &face_down {
                c.markers[k].value = values.pop();
            }
        }
        values.sort_unstable();
        t.support.get_mut(o).available = values;
    }
    // Suez 1916 18.3: pools, reserves and face-down placements of both sides.
    for who in Side::BOTH {
        let slots: Vec<usize> = (0..t.ex.fire_plan.len())
            .filter(|&k| {
                let m = &t.ex.fire_plan[k];
                m.side == who && !m.air && m.value.is_some()
            })
            .collect();
        let pool_n = t.ex.pool.get(who).len();
        let mut all: Vec<u8> = t.ex.pool.get(who).clone();
        all.extend(t.ex.reserve.get(who));
        all.extend(slots.iter().filter_map(|&k| t.ex.fire_plan[k].value));
        if all.is_empty() {
            continue;
        }
        shuffle(&mut all, rng);
        for &k in &slots {
            t.ex.fire_plan[k].value = all.pop();
        }
        let mut pool: Vec<u8> = all.drain(..pool_n).collect();
        pool.sort_unstable();
        all.sort_unstable();
        *t.ex.pool.get_mut(who) = pool;
        *t.ex.reserve.get_mut(who) = all;
    }
    t
}
