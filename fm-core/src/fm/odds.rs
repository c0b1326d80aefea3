//! Combat odds: the exact probability of every result of a proposed bombardment or
//! ground attack (rules 7.2, 8.1.2, 8.2.1), over the die and over the support fire
//! draws the asking side cannot know: its own future draws, and the opponent's
//! face-down and future draws. Every marker value it uses comes from the asking side's
//! [`crate::View`]: the opponent's unknown markers are a uniform draw from the multiset
//! the view says they come from (its allotment under 7.1, its whole unrevealed mix under
//! Vimy Ridge 16.0's random allotment).

use crate::error::{refuse, RuleError};
use crate::fm::combat::{crt_reading, ground_totals};
use crate::fm::crt::CrtResult;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::Scenario;
use crate::fm::state::{CombatKind, Location, State};
use crate::fm::view::view;
use crate::ids::{Side, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A bombardment (`units` empty) or ground attack to evaluate.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct AttackProposal {
    /// Defending hex.
    pub hex: Hex,
    /// Attacking units; empty for a bombardment.
    #[serde(default)]
    pub units: Vec<UnitId>,
    /// Markers the attacker will (still) commit.
    #[serde(default)]
    pub attacker_markers: u8,
    /// Markers the defender will (still) commit (ignored for bombardment).
    #[serde(default)]
    pub defender_markers: u8,
}

/// Probability of each result, exact (`numerator / denominator`) and as `f64`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Odds {
    /// One entry per possible result, in table-key order.
    pub results: Vec<OddsEntry>,
    /// Lowest and highest possible differential.
    pub differential: [i32; 2],
}

/// One result's probability.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct OddsEntry {
    /// The result (bombardment results 8.1.3 ignores count as no effect).
    pub result: CrtResult,
    /// Numerator.
    pub numerator: u64,
    /// Denominator.
    pub denominator: u64,
    /// As a float.
    pub probability: f64,
}

/// Distribution of the sum of `k` values drawn without replacement from `pool` (each
/// marker equally likely), after `f` is applied to each value: sum → number of equally
/// likely `k`-subsets. Dynamic programming over the distinct values and the sums, so
/// the cost grows with the pool's distinct values times `k` times the sums, never with
/// the number of subsets.
fn draws(pool: &[u8], k: usize, f: &dyn Fn(u8) -> i32) -> BTreeMap<i32, u64> {
    let k = k.min(pool.len());
    let mut counts: BTreeMap<u8, u64> = BTreeMap::new();
    for v in pool {
        *counts.entry(*v).or_insert(0) += 1;
    }
    // dp[j]: sums of j markers chosen so far → number of ways.
    let mut dp: Vec<BTreeMap<i32, u128>> = vec![BTreeMap::new(); k + 1];
    dp[0].insert(0, 1);
    for (&v, &c) in &counts {
        let mut next: Vec<BTreeMap<i32, u128>> = vec![BTreeMap::new(); k + 1];
        for (j, sums) in dp.iter().enumerate() {
            for (&sum, &ways) in sums {
                let mut choose: u128 = 1; // C(c, t)
                for t in 0..=(c as usize).min(k - j) {
                    if t > 0 {
                        choose = choose * (c as u128 - t as u128 + 1) / t as u128;
                    }
                    let s2 = sum + t as i32 * f(v);
                    *next[j + t].entry(s2).or_insert(0) += ways * choose;
                }
            }
        }
        dp = next;
    }
    dp.pop()
        .unwrap_or_default()
        .into_iter()
        .map(|(s, n)| (s, u64::try_from(n).unwrap_or(u64::MAX)))
        .collect()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The exact odds of a proposed attack as `asking` sees them.
///
/// # Errors
/// A [`RuleError`] if the hex holds no unit or a named unit is unknown.
pub fn combat_odds(
    sc: &Scenario,
    s: &State,
    asking: Side,
    p: &AttackProposal,
) -> Result<Odds, RuleError> {
    let Some(hi) = sc.hex_index(p.hex) else {
        return refuse("input", format!("{} is off the map", p.hex));
    };
    let defenders: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].loc == Location::Map(p.hex))
        .collect();
    if defenders.is_empty() {
        return refuse("8.2", format!("{} holds no unit", p.hex));
    }
    let def_side = sc.units[defenders[0]].data.side;
    let att_side = def_side.other();
    let mut attackers = Vec::new();
    for u in &p.units {
        match sc.unit_index(u) {
            Some(i) => attackers.push(i as usize),
            None => return refuse("input", format!("unknown unit '{u}'")),
        }
    }
    let bombard = attackers.is_empty();
    let fort = sc.is_fortification(hi);
    // Everything about markers comes from the asking side's view (what it may know):
    // its own values, the revealed ones, and for the opponent the multiset its
    // unrevealed markers are drawn from.
    let v = view(sc, s, asking);
    let current = v
        .combat
        .as_ref()
        .filter(|c| c.hex == p.hex && (c.kind == CombatKind::Bombardment) == bombard);
    let mut known = [0i32; 2]; // attacker, defender fixed sums
    let mut hidden = [0usize; 2];
    let mut placed = [0usize; 2];
    let att_f = move |v: u8| if fort { v as i32 / 2 } else { v as i32 };
    let def_f = |v: u8| v as i32;
    if let Some(c) = current {
        for m in &c.markers {
            let role = if m.side == att_side { 0 } else { 1 };
            placed[role] += 1;
            match m.value {
                Some(x) => known[role] += if role == 0 { att_f(x) } else { def_f(x) },
                None => hidden[role] += 1,
            }
        }
    }
    // 8.2.1(b): at most two markers a side in a combat; 8.1: at most two on a hex per
    // player turn in bombardment. A side commits only markers it holds.
    let (rule, cap_a) = if bombard {
        let spent = s.bombarded.get(&p.hex).copied().unwrap_or(0) as usize;
        ("8.1", 2usize.saturating_sub(spent.max(placed[0])))
    } else {
        ("8.2.1(b)", 2 - placed[0].min(2))
    };
    let cap_d = 2 - placed[1].min(2);
    for (side, wanted, cap) in [
        (att_side, p.attacker_markers, cap_a),
        (
            def_side,
            if bombard { 0 } else { p.defender_markers },
            cap_d,
        ),
    ] {
        let held = v.support.get(side).available_count as usize;
        if wanted as usize > cap.min(held) {
            return refuse(
                rule,
                format!(
                    "{} may commit {} more marker(s) here ({} placed, {} held), not {wanted}",
                    sc.side_name(side),
                    cap.min(held),
                    if side == att_side {
                        placed[0]
                    } else {
                        placed[1]
                    },
                    held
                ),
            );
        }
    }
    let dist_for = |side: Side, role: usize, extra: u8| -> BTreeMap<i32, u64> {
        let f: &dyn Fn(u8) -> i32 = if role == 0 { &att_f } else { &def_f };
        let sv = v.support.get(side);
        match &sv.available {
            // The asking side's own future draws, from its own markers.
            Some(own) => draws(own, extra as usize, f),
            // The opponent's face-down and future markers: a uniform draw from what
            // the asking side knows they come from.
            None => draws(&sv.unrevealed, extra as usize + hidden[role], f),
        }
    };
    let a_dist = dist_for(att_side, 0, p.attacker_markers);
    let d_dist = if bombard {
        BTreeMap::from([(0, 1)])
    } else {
        dist_for(def_side, 1, p.defender_markers)
    };
    let (base_a, base_d) = if bombard {
        let d: i32 = defenders
            .iter()
            .map(|&i| {
                sc.units[i].values(s.units[i].steps).defense as i32 * if fort { 2 } else { 1 }
            })
            .sum();
        (0, d)
    } else {
        ground_totals(sc, s, hi, &attackers, &defenders, &[], &[])
    };
    let att_hexes: Vec<u16> = attackers
        .iter()
        .filter_map(|&i| s.units[i].hex().and_then(|h| sc.hex_index(h)))
        .collect();
    let adjacent_friend = s.units.iter().enumerate().any(|(i, u)| {
        sc.units[i].data.side == att_side
            && matches!(u.loc, Location::Map(h) if sc.layout().adjacent(h, p.hex))
    });
    let mut counts: BTreeMap<CrtResult, u64> = BTreeMap::new();
    let mut total = 0u64;
    let (mut lo, mut hi_d) = (i32::MAX, i32::MIN);
    for (asum, an) in &a_dist {
        for (dsum, dn) in &d_dist {
            let diff = base_a + known[0] + asum - (base_d + known[1] + dsum);
            lo = lo.min(diff);
            hi_d = hi_d.max(diff);
            // Suez 1916 13.1, 15.1, 19.0: the column shifts of the phasing side's attack.
            let shift = if bombard {
                0
            } else {
                sc.rules().column_shift(sc, s, p.hex)
            };
            let (_, col) =
                crt_reading(sc, s, hi, (!bombard).then_some(&att_hexes[..]), diff, shift);
            for die in 1..=6u8 {
                let mut r = sc.crt.result(col, die);
                if bombard
                    && (r.ignored_in_bombardment() || (r == CrtResult::AStep && !adjacent_friend))
                {
                    r = CrtResult::NoEffect;
                }
                *counts.entry(r).or_insert(0) += an * dn;
                total += an * dn;
            }
        }
    }
    let results = counts
        .into_iter()
        .map(|(result, n)| {
            let g = gcd(n, total).max(1);
            OddsEntry {
                result,
                numerator: n / g,
                denominator: total / g,
                probability: n as f64 / total as f64,
            }
        })
        .collect();
    Ok(Odds {
        results,
        differential: [lo, hi_d],
    })
}

#[cfg(test)]
mod tests {
    use super::draws;
    use std::collections::BTreeMap;

    /// Every k-subset enumerated: the reference the dynamic programme must match.
    fn brute(pool: &[u8], k: usize, f: &dyn Fn(u8) -> i32) -> BTreeMap<i32, u64> {
        let mut out = BTreeMap::new();
        let n = pool.len();
        for mask in 0u32..(1 << n) {
            if mask.count_ones() as usize == k {
                let s: i32 = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| f(pool[i]))
                    .sum();
                *out.entry(s).or_insert(0) += 1;
            }
        }
        out
    }

    #[test]
    fn draws_match_enumeration() {
        let pools: [&[u8]; 5] = [
            &[],
            &[1],
            &[1, 1, 2],
            &[1, 2, 2, 3, 3, 3, 6],
            &[4, 4, 4, 4, 1, 2],
        ];
        for pool in pools {
            for k in 0..=pool.len() {
                let fs: [&dyn Fn(u8) -> i32; 2] = [&|v| v as i32, &|v| v as i32 / 2];
                for f in fs {
                    assert_eq!(draws(pool, k, f), brute(pool, k, f), "{pool:?} k={k}");
                }
            }
        }
        // More draws than markers: all of them.
        assert_eq!(draws(&[1, 2], 5, &|v| v as i32), BTreeMap::from([(3, 1)]));
    }

    /// 40 markers, 10 drawn: C(40, 10) = 847,660,528 subsets, counted without listing
    /// them (issue 13: the enumeration took 19.7 s).
    #[test]
    fn draws_from_a_large_pool_are_cheap() {
        let pool: Vec<u8> = (0..40).map(|i| (i % 7) as u8 + 1).collect();
        let d = draws(&pool, 10, &|v| v as i32);
        assert_eq!(d.values().sum::<u64>(), 847_660_528);
    }
}
