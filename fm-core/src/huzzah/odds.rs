//! Exact odds over 2D6, as rationals: a fire's distribution of hits and the chance it
//! forces a morale test ([`fire_odds`]), and the chance a morale test passes
//! ([`morale_odds`]). A unit whose quality is not yet rolled is weighted over the Unit
//! Quality Table, Huzzah! re-rolls included (pages 4-5).

use crate::error::RuleError;
use crate::huzzah::engine::{modified, passes};
use crate::huzzah::event::Modifier;
use crate::huzzah::firing::{check_target_with, fire_factor, fire_modifiers_with, hits_of, Group};
use crate::huzzah::morale::morale_modifiers;
use crate::huzzah::quality::{self, Quality};
use crate::huzzah::scenario::{Scenario, UnitIx};
use crate::huzzah::state::{Dice, State};
use serde::{Deserialize, Serialize};

/// An exact probability, `num / den`, in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Chance {
    /// Numerator.
    pub num: u64,
    /// Denominator.
    pub den: u64,
}

impl Chance {
    /// `num / den` reduced.
    pub fn new(num: u64, den: u64) -> Chance {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let g = gcd(num, den).max(1);
        Chance {
            num: num / g,
            den: den / g,
        }
    }
}

/// The odds of one unit's fire at a target (pages 11-12).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct FireOdds {
    /// The modifiers that apply now.
    pub modifiers: Vec<Modifier>,
    /// The modified Fire Factor for each quality the firer may have, with its chance.
    pub factors: Vec<(Quality, i8, Chance)>,
    /// `hits[k]`: the chance of exactly `k` hits.
    pub hits: Vec<Chance>,
    /// The chance the fire succeeds, forcing a morale test (even at 0 hits).
    pub test_forced: Chance,
}

/// The odds of a morale test taken now (page 14).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MoraleOdds {
    /// The modifiers that apply now.
    pub modifiers: Vec<Modifier>,
    /// The modified Morale Factor for each quality the unit may have, with its chance.
    pub factors: Vec<(Quality, i8, Chance)>,
    /// The chance it passes.
    pub pass: Chance,
}

fn all_dice() -> impl Iterator<Item = Dice> {
    (1..=6u8).flat_map(|a| (1..=6u8).map(move |b| Dice(a, b)))
}

/// The qualities a unit may have, with weights out of 1,296 (two rolls of 2D6).
fn quality_weights(sc: &Scenario, s: &State, u: UnitIx) -> Vec<(Quality, u64)> {
    if let Some(q) = s.unit(u).quality {
        return vec![(q, 1296)];
    }
    let st = s.unit(u);
    let mut out: Vec<(Quality, u64)> = Vec::new();
    for first in all_dice() {
        for second in all_dice() {
            let seq = [(first.0, first.1), (second.0, second.1)];
            let mut k = 0;
            let mut roll = || {
                let r = seq[k.min(1)];
                k += 1;
                r
            };
            let r = quality::determine(
                sc.quality_table(),
                quality::unit_expected(sc, s, u),
                st.grognards,
                st.disciplined,
                &mut roll,
            );
            match out.iter_mut().find(|(q, _)| *q == r.quality) {
                Some(e) => e.1 += 1,
                None => out.push((r.quality, 1)),
            }
        }
    }
    out.sort_by_key(|(q, _)| *q);
    out
}

/// The exact odds of `firer`'s fire at `target` now.
///
/// # Errors
/// The page-11 rule if `target` is not a target `firer` may choose.
pub fn fire_odds(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
) -> Result<FireOdds, RuleError> {
    fire_odds_with(sc, s, firer, target, None)
}

/// [`fire_odds`] for a fire with only some of the unit's bases (page 12).
///
/// # Errors
/// The rule the declaration would break.
pub fn fire_odds_with(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
    group: Group,
) -> Result<FireOdds, RuleError> {
    check_target_with(sc, s, firer, target, group)?;
    let mods = fire_modifiers_with(sc, s, firer, target, group);
    let weights = quality_weights(sc, s, firer);
    let mut hits = vec![0u64; 16];
    let mut forced = 0u64;
    let mut factors = Vec::new();
    for (q, w) in &weights {
        let f = modified(fire_factor(sc, firer, *q), &mods, true);
        factors.push((*q, f, Chance::new(*w, 1296)));
        for d in all_dice() {
            let p = passes(f, d);
            let h = hits_of(f, p, d.total(), d.huzzah()) as usize;
            hits[h.min(15)] += w;
            if p {
                forced += w;
            }
        }
    }
    while hits.len() > 1 && hits.last() == Some(&0) {
        hits.pop();
    }
    let den = 1296 * 36;
    Ok(FireOdds {
        modifiers: mods,
        factors,
        hits: hits.into_iter().map(|n| Chance::new(n, den)).collect(),
        test_forced: Chance::new(forced, den),
    })
}

/// The exact chance that `u` passes a morale test taken now, with its losses this turn
/// as they stand and its formation as it is.
pub fn morale_odds(sc: &Scenario, s: &State, u: UnitIx) -> MoraleOdds {
    let ranks = s.unit(u).shape.ranks.clone();
    let mods = morale_modifiers(sc, s, u, &ranks);
    let mut pass = 0u64;
    let mut factors = Vec::new();
    for (q, w) in quality_weights(sc, s, u) {
        let f = modified(q.morale_factor() as i8, &mods, true);
        factors.push((q, f, Chance::new(w, 1296)));
        pass += w * u64::from(quality::pass_count(i32::from(f)));
    }
    MoraleOdds {
        modifiers: mods,
        factors,
        pass: Chance::new(pass, 1296 * 36),
    }
}
