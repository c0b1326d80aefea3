//! Per-side views: the state as one side may know it. Support fire markers are placed
//! face down (7.2); under 7.1's lowest-first allotment a side's allotment is public, so
//! what the opponent does not know is which of its unrevealed markers is where. Under a
//! random allotment (Vimy Ridge 16.0) the allotment itself is secret: the opponent
//! knows only the mix it was drawn from and the markers revealed since. Suez 1916's
//! pools (18.3) are unknown to both players. A spectator ([`Viewer::Spectator`]) may
//! know what both sides may know: every secret of either side is hidden from it.
//!
//! **Invariant:** every per-side query (`combat_odds`, observations, the view hash) is
//! computed from a [`View`], never from the hidden parts of a [`State`]; the no-leak
//! property tests resample everything a side cannot know ([`crate::resample_hidden`])
//! and check that nothing it can reach changes.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Phase, Scenario};
use crate::fm::state::{Combat, ExclusiveState, Outcome, Pending, State};
use crate::ids::{Side, SidePair, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A side's support fire markers as seen by the viewer.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct SupportView {
    /// Allotted and unused: values for the viewer's own side, `None` for the opponent
    /// (and for both sides in a spectator's view).
    pub available: Option<Vec<u8>>,
    /// Number allotted and unused.
    pub available_count: u8,
    /// Used this game turn (revealed).
    pub used: Vec<u8>,
    /// Markers of this side not revealed yet: allotted and unused, plus face down on
    /// the combat in progress.
    pub unrevealed_count: u8,
    /// The sorted multiset this side's unrevealed markers are drawn from, as the viewer
    /// knows it. For the viewer's own side and for an opponent allotted lowest first
    /// (7.1), exactly those markers (`unrevealed_count` of them; which is where stays
    /// hidden). For an opponent whose allotment was drawn at random (Vimy Ridge 16.0),
    /// every marker of its mix not revealed this game turn: its unrevealed markers are
    /// `unrevealed_count` of these, each subset equally likely. A spectator sees every
    /// side as an opponent.
    pub unrevealed: Vec<u8>,
}

/// Suez 1916 18.3: a side's fire support markers as either player may see them. Nobody
/// knows which markers are in the pool and which still set aside (they join at random),
/// nor the strength of a face-down marker; the multiset they all come from is public.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PoolView {
    /// Markers in the pool.
    pub pool: u8,
    /// Markers not in the pool yet (British set aside, Central Powers Reinforcements box).
    pub reserve: u8,
    /// The sorted strengths of every marker not revealed yet: pool, reserve and face-down
    /// placed markers together.
    pub unrevealed: Vec<u8>,
}

/// The state as one side (or a spectator) may see it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct View {
    /// The viewer: `"a"`, `"b"` or `"spectator"` (a side's view hashes as when this
    /// was its [`Side`]).
    pub side: Viewer,
    /// Turn.
    pub turn: u16,
    /// Phase.
    pub phase: Phase,
    /// Active side.
    pub active: Side,
    /// Units (all public: F&M has no hidden units).
    pub units: crate::fm::state::UnitList,
    /// Support fire markers.
    pub support: SidePair<SupportView>,
    /// Markers spent per hex this player turn.
    pub bombarded: BTreeMap<Hex, u8>,
    /// Objective control.
    pub control: BTreeMap<Hex, Side>,
    /// The combat in progress, the opponent's face-down values removed (a spectator's:
    /// both sides').
    pub combat: Option<Combat>,
    /// Outcome.
    pub outcome: Option<Outcome>,
    /// Exclusive-rule bookkeeping (breaches, aircraft, artillery placed...). Suez 1916
    /// pools, reserves and face-down placed markers are emptied or blanked: see `pools`.
    #[serde(default, skip_serializing_if = "ExclusiveState::is_empty")]
    pub ex: ExclusiveState,
    /// Suez 1916 18.3: the fire support markers, as far as anyone knows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pools: Option<SidePair<PoolView>>,
    /// Pending decision.
    pub pending: Pending,
}

/// The state as `viewer` may see it: a side ([`Side`]), or a spectator
/// ([`Viewer::Spectator`]), who may know what both sides may know: no face-down value
/// and no allotted unused value of either side, a secret random allotment (Vimy Ridge
/// 16.0) of either side only as its mix less the markers revealed.
///
/// ```
/// use fm_core::{new_game, view, Scenario, Side, Viewer};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, _) = new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let v = view(&sc, &state, Side::A);
/// assert!(v.support.b.available.is_none());
/// assert!(v.support.a.available.is_some());
/// // What `a` may know, hashed: equal for every state `a` cannot tell apart.
/// let _ = v.hash();
/// // A spectator's: neither side's allotted values.
/// let w = view(&sc, &state, Viewer::Spectator);
/// assert!(w.support.a.available.is_none() && w.support.b.available.is_none());
/// ```
pub fn view(sc: &Scenario, s: &State, viewer: impl Into<Viewer>) -> View {
    let viewer: Viewer = viewer.into();
    let mut combat = s.combat.clone();
    if let Some(c) = combat.as_mut() {
        for m in &mut c.markers {
            if !viewer.is(m.side) && !m.revealed {
                m.value = None;
            }
        }
    }
    let sv = |who: Side| {
        let sup = s.support.get(who);
        let mut unrevealed = sup.available.clone();
        let mut revealed_now: Vec<u8> = Vec::new();
        if let Some(c) = &s.combat {
            for m in c.markers.iter().filter(|m| m.side == who) {
                match (m.revealed, m.value) {
                    (false, Some(v)) => unrevealed.push(v),
                    (true, Some(v)) => revealed_now.push(v),
                    _ => {}
                }
            }
        }
        let count = unrevealed.len() as u8;
        if !viewer.is(who) && sc.rules().random_allotment(sc, s.turn, who) {
            // 16.0: the allotment is a secret random draw from the mix; what the viewer
            // knows is the mix less every marker revealed this game turn.
            let mut pool = sc.data.support_markers.get(who).clone();
            for v in sup.used.iter().chain(&revealed_now) {
                if let Some(p) = pool.iter().position(|x| x == v) {
                    pool.swap_remove(p);
                }
            }
            unrevealed = pool;
        }
        unrevealed.sort_unstable();
        SupportView {
            available: viewer.is(who).then(|| sup.available.clone()),
            available_count: sup.available.len() as u8,
            used: sup.used.clone(),
            unrevealed_count: count,
            unrevealed,
        }
    };
    let mut ex = ExclusiveState::clone(&s.ex);
    let markers = [&s.ex.pool, &s.ex.reserve, &s.ex.spent];
    let pools = (markers.iter().any(|p| !p.a.is_empty() || !p.b.is_empty())
        || !s.ex.fire_plan.is_empty())
    .then(|| {
        let pv = |who: Side| {
            let mut unrevealed: Vec<u8> = s.ex.pool.get(who).clone();
            unrevealed.extend(s.ex.reserve.get(who));
            unrevealed.extend(
                s.ex.fire_plan
                    .iter()
                    .filter(|m| m.side == who && !m.air)
                    .filter_map(|m| m.value),
            );
            unrevealed.sort_unstable();
            PoolView {
                pool: s.ex.pool.get(who).len() as u8,
                reserve: s.ex.reserve.get(who).len() as u8,
                unrevealed,
            }
        };
        SidePair::new(pv(Side::A), pv(Side::B))
    });
    ex.pool = SidePair::default();
    ex.reserve = SidePair::default();
    for m in &mut ex.fire_plan {
        if !m.air {
            m.value = None;
        }
    }
    View {
        side: viewer,
        turn: s.turn,
        phase: s.phase,
        active: s.active,
        units: s.units.clone(),
        support: SidePair::new(sv(Side::A), sv(Side::B)),
        bombarded: s.bombarded.clone(),
        control: s.control.clone(),
        combat,
        outcome: s.outcome.clone(),
        ex,
        pools,
        pending: s.pending(),
    }
}

impl View {
    /// A 64-bit hash of this view, identical on every platform and build: what a side
    /// may know, hashed. Two states a side cannot tell apart give it the same view hash
    /// (the no-leak tests check it); [`State::hash`] is the referee's, covering hidden
    /// values too, and must not reach a player.
    pub fn hash(&self) -> u64 {
        let mut h = crate::fm::state::StableHasher::new();
        std::hash::Hash::hash(self, &mut h);
        std::hash::Hasher::finish(&h)
    }
}
