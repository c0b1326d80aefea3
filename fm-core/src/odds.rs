//! Combat odds: the exact probability of every result of a proposed bombardment or
//! ground attack (rules 7.2, 8.1.2, 8.2.1), over the die and over the support fire
//! draws the asking side cannot know: its own future draws, and the opponent's
//! face-down and future draws (the opponent's unknown markers are the multiset of its
//! allotment not yet revealed, which 7.1's lowest-first allotment makes public).

use crate::combat::{crt_reading, ground_totals};
use crate::crt::CrtResult;
use crate::error::{refuse, RuleError};
use crate::hex::Hex;
use crate::ids::{Side, UnitId};
use crate::scenario::Scenario;
use crate::state::{CombatKind, Location, State};
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

/// Distribution of the sum of `k` values drawn without replacement from `pool`, after
/// `f` is applied to each value: sum → number of equally likely draws.
fn draws(pool: &[u8], k: usize, f: &dyn Fn(u8) -> i32) -> BTreeMap<i32, u64> {
    fn rec(
        pool: &[u8],
        start: usize,
        k: usize,
        acc: i32,
        f: &dyn Fn(u8) -> i32,
        out: &mut BTreeMap<i32, u64>,
    ) {
        if k == 0 {
            *out.entry(acc).or_insert(0) += 1;
            return;
        }
        for i in start..pool.len() {
            rec(pool, i + 1, k - 1, acc + f(pool[i]), f, out);
        }
    }
    let mut out = BTreeMap::new();
    rec(pool, 0, k.min(pool.len()), 0, f, &mut out);
    out
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
    // Markers already on this combat.
    let current = s
        .combat
        .as_ref()
        .filter(|c| c.hex == p.hex && (c.kind == CombatKind::Bombardment) == bombard);
    let mut known = [0i32; 2]; // attacker, defender fixed sums
    let mut hidden = [0usize; 2];
    let mut hidden_vals: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let att_f = move |v: u8| if fort { v as i32 / 2 } else { v as i32 };
    let def_f = |v: u8| v as i32;
    if let Some(c) = current {
        for m in &c.markers {
            let role = if m.side == att_side { 0 } else { 1 };
            let v = m.value.unwrap_or(0);
            if m.revealed || m.side == asking {
                known[role] += if role == 0 { att_f(v) } else { def_f(v) };
            } else {
                hidden[role] += 1;
                hidden_vals[role].push(v);
            }
        }
    }
    let dist_for = |side: Side, role: usize, extra: u8| -> BTreeMap<i32, u64> {
        let f: &dyn Fn(u8) -> i32 = if role == 0 { &att_f } else { &def_f };
        let avail = &s.support.get(side).available;
        if side == asking {
            draws(avail, extra as usize, f)
        } else {
            let mut pool = avail.clone();
            pool.extend(hidden_vals[role].iter().copied());
            draws(&pool, extra as usize + hidden[role], f)
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
                crate::suez_1916::column_shift(sc, s, p.hex)
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
