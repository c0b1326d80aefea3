//! Per-side views (rule 7.2: support fire markers are placed face down). A view is the
//! state as one side may see it: the opponent's allotted-but-unused marker values and
//! its face-down committed markers are hidden; what remains is the multiset of the
//! opponent's unrevealed markers, which the lowest-first allotment (7.1) makes public.

use crate::hex::Hex;
use crate::ids::{Side, SidePair};
use crate::scenario::Phase;
use crate::state::{Combat, ExclusiveState, Outcome, Pending, State, UnitState};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A side's support fire markers as seen by the viewer.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct SupportView {
    /// Allotted and unused: values for the viewer's own side, `None` for the opponent.
    pub available: Option<Vec<u8>>,
    /// Number allotted and unused.
    pub available_count: u8,
    /// Used this game turn (revealed).
    pub used: Vec<u8>,
    /// For the opponent: the sorted multiset its unrevealed markers (allotment plus
    /// face-down ones) come from — public under 7.1's lowest-first allotment, though
    /// not which marker is where. For the viewer's own side: its available markers.
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

/// The state as one side may see it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct View {
    /// The viewer.
    pub side: Side,
    /// Turn.
    pub turn: u16,
    /// Phase.
    pub phase: Phase,
    /// Active side.
    pub active: Side,
    /// Units (all public: F&M has no hidden units).
    pub units: Vec<UnitState>,
    /// Support fire markers.
    pub support: SidePair<SupportView>,
    /// Markers spent per hex this player turn.
    pub bombarded: BTreeMap<Hex, u8>,
    /// Objective control.
    pub control: BTreeMap<Hex, Side>,
    /// The combat in progress, the opponent's face-down values removed.
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

/// The state as `side` may see it.
///
/// ```
/// use fm_core::{new_game, view, Scenario, Side};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, _) = new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let v = view(&state, Side::A);
/// assert!(v.support.b.available.is_none());
/// assert!(v.support.a.available.is_some());
/// ```
pub fn view(s: &State, side: Side) -> View {
    let mut combat = s.combat.clone();
    if let Some(c) = combat.as_mut() {
        for m in &mut c.markers {
            if m.side != side && !m.revealed {
                m.value = None;
            }
        }
    }
    let sv = |who: Side| {
        let sup = s.support.get(who);
        let mut unrevealed = sup.available.clone();
        if let Some(c) = &s.combat {
            for m in &c.markers {
                if m.side == who && !m.revealed {
                    if let Some(v) = m.value {
                        unrevealed.push(v);
                    }
                }
            }
        }
        unrevealed.sort_unstable();
        SupportView {
            available: (who == side).then(|| sup.available.clone()),
            available_count: sup.available.len() as u8,
            used: sup.used.clone(),
            unrevealed: if who == side {
                sup.available.clone()
            } else {
                unrevealed
            },
        }
    };
    let mut ex = s.ex.clone();
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
        side,
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
