//! Zones of control (rule 6.0): the six hexes around a unit, unless the unit has no
//! ZOC, the hexside blocks it (e.g. Suez water) or the hex's terrain refuses it.
//! Friendly units never negate an enemy ZOC (6.0, 8.3).

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::{Scenario, NO_HEX};
use crate::fm::state::{Location, State};
use crate::ids::Side;

/// Which unit (scenario index) stands on each hex, `u16::MAX` for none.
pub(crate) fn occupancy(sc: &Scenario, s: &State) -> Vec<u16> {
    let mut occ = vec![u16::MAX; sc.hexes.len()];
    for (i, u) in s.units.iter().enumerate() {
        if let Location::Map(h) = u.loc {
            if let Some(hi) = sc.hex_index(h) {
                occ[hi as usize] = i as u16;
            }
        }
    }
    occ
}

/// For every hex, whether it lies in a ZOC of a unit of `enemy_of`'s opponent — that
/// is, in an enemy zone of control for units of side `enemy_of`.
///
/// ```
/// use fm_core::{new_game, Scenario, Side};
/// use rand_xoshiro::{rand_core::SeedableRng, Xoshiro256PlusPlus};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, _) = new_game(&sc, &mut Xoshiro256PlusPlus::seed_from_u64(1));
/// let ezoc = fm_core::zoc::ezoc_map(&sc, &state, Side::A);
/// assert_eq!(ezoc.len(), sc.hexes.len());
/// ```
pub fn ezoc_map(sc: &Scenario, s: &State, enemy_of: Side) -> Vec<bool> {
    ezoc_map_with(sc, s, enemy_of, &occupancy(sc, s))
}

/// [`ezoc_map`] given the state's [`occupancy`].
pub(crate) fn ezoc_map_with(sc: &Scenario, s: &State, enemy_of: Side, occ: &[u16]) -> Vec<bool> {
    let mut z = vec![false; sc.hexes.len()];
    // Vimy Ridge 14.2 needs to know who holds the hex across a trench hexside.
    let rules = sc.rules();
    let held: Vec<Option<Side>> = if rules.zoc_needs_holders() {
        occ.iter()
            .map(|&u| (u != u16::MAX).then(|| sc.units[u as usize].data.side))
            .collect()
    } else {
        Vec::new()
    };
    for (i, u) in s.units.iter().enumerate() {
        let def = &sc.units[i];
        if def.data.side == enemy_of || !def.data.zoc {
            continue;
        }
        let Location::Map(h) = u.loc else { continue };
        let Some(hi) = sc.hex_index(h) else { continue };
        let info = &sc.hexes[hi as usize];
        for d in 0..6 {
            let n = info.neighbors[d];
            if n == NO_HEX || info.sides[d] & sc.masks.zoc_block_side != 0 {
                continue;
            }
            if sc.hexes[n as usize].terrain & sc.masks.zoc_block_hex != 0 {
                continue;
            }
            if rules.zoc_blocked_into(sc, s, def.data.side, n) {
                continue;
            }
            if !held.is_empty()
                && rules.zoc_blocked_across(sc, def.data.side, info.sides[d], held[n as usize])
            {
                continue;
            }
            z[n as usize] = true;
        }
    }
    z
}
