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
//! [`sample_consistent`] draws a full state from a side's view alone: what a search
//! over that side's information set (ISMCTS) determinizes with.
//!
//! [`resample_hidden`] draws a state the asking side cannot tell from the real one,
//! with every hidden value redrawn from what that side knows (each consistent
//! assignment weighted as the rules' random draws make it). The no-leak tests use it:
//! every query a side can reach must give the same answer on the resampled state.
//! Search over information sets (ISMCTS) uses it the same way.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::Scenario;
use crate::fm::state::{Shared, State, SupportState};
use crate::fm::view::View;
use crate::ids::{Side, SidePair};
use rand_core::RngCore;

fn shuffle(v: &mut [u8], rng: &mut dyn RngCore) {
    for i in (1..v.len()).rev() {
        let j = crate::chance::uniform(rng, i + 1);
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

/// A full state consistent with what one side knows, drawn from its [`View`] alone:
/// everything the view shows, and every hidden value (the opponent's face-down and
/// unused support fire markers, 7.2 / Vimy Ridge 16.0; Suez 1916's pools, reserves and
/// face-down fire support, 18.3) drawn with the probabilities the rules' random draws
/// give them, given what the view shows. It is [`resample_hidden`] of a state built
/// from the view, so `view(sc, &sample_consistent(sc, &v, rng), v.side) == v` for
/// every view `v` of a state of `sc`. A search over a side's information set
/// (determinized ISMCTS) plays its simulations from such states. From a spectator's
/// view ([`crate::Viewer::Spectator`]) both sides' hidden values are drawn, each as the
/// other side's resampling draws it.
///
/// ```
/// use fm_core::{new_game, rng_from_seed, sample_consistent, view, Scenario, Side};
/// let sc = Scenario::builtin("vimy-ridge").unwrap();
/// let (s, _) = new_game(&sc, &mut rng_from_seed(3));
/// let v = view(&sc, &s, Side::A);
/// let t = sample_consistent(&sc, &v, &mut rng_from_seed(9));
/// assert_eq!(view(&sc, &t, Side::A), v);
/// ```
pub fn sample_consistent(sc: &Scenario, v: &View, rng: &mut dyn RngCore) -> State {
    let mut combat = v.combat.clone();
    let mut support = SidePair::<SupportState>::default();
    for who in Side::BOTH {
        let sv = v.support.get(who);
        if v.side.is(who) {
            *support.get_mut(who) = SupportState {
                available: sv.available.clone().unwrap_or_default(),
                used: sv.used.clone(),
            };
            continue;
        }
        // The values the view does not show, filled from the multisets it does show
        // (any assignment: `resample_hidden` redraws them all).
        let mut known = sv.unrevealed.clone().into_iter();
        if let Some(c) = combat.as_mut() {
            for m in c.markers.iter_mut() {
                if m.side == who && !m.revealed && m.value.is_none() {
                    m.value = Some(known.next().unwrap_or(1));
                }
            }
        }
        let mut available: Vec<u8> = (0..sv.available_count)
            .map(|_| known.next().unwrap_or(1))
            .collect();
        available.sort_unstable();
        *support.get_mut(who) = SupportState {
            available,
            used: sv.used.clone(),
        };
    }
    let mut ex = v.ex.clone();
    if let Some(pools) = &v.pools {
        for who in Side::BOTH {
            let pv = pools.get(who);
            let mut left = pv.unrevealed.clone().into_iter();
            for m in ex.fire_plan.iter_mut() {
                if m.side == who && !m.air && m.value.is_none() {
                    m.value = Some(left.next().unwrap_or(1));
                }
            }
            let pool: Vec<u8> = left.by_ref().take(pv.pool as usize).collect();
            let reserve: Vec<u8> = left.take(pv.reserve as usize).collect();
            *ex.pool.get_mut(who) = pool;
            *ex.reserve.get_mut(who) = reserve;
        }
    }
    let t = State {
        turn: v.turn,
        phase: v.phase,
        active: v.active,
        units: v.units.clone(),
        support: Shared::new(support),
        bombarded: v.bombarded.clone(),
        control: v.control.clone(),
        combat,
        outcome: v.outcome.clone(),
        ex: Shared::new(ex),
    };
    match v.side.side() {
        Some(side) => resample_hidden(sc, &t, side, rng),
        // A's resampling redraws B's values, then B's A's.
        None => {
            let t = resample_hidden(sc, &t, Side::A, rng);
            resample_hidden(sc, &t, Side::B, rng)
        }
    }
}
