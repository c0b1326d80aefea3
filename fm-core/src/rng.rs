//! The state of a match's generator (xoshiro256++), readable and settable, so that a
//! search can give each simulated future its own dice ([`crate::GameMatch::reseed`],
//! [`crate::GameMatch::clone_with_seed`]) and a host that keeps generator states
//! (OpenSpiel's `GetRNGState`/`SetRNGState`) can read and restore one
//! ([`crate::GameMatch::rng_state`], [`crate::GameMatch::set_rng_state`]).

use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A seeded generator of the kind [`crate::GameMatch`] uses (xoshiro256++).
pub fn rng_from_seed(seed: u64) -> rand_xoshiro::Xoshiro256PlusPlus {
    <rand_xoshiro::Xoshiro256PlusPlus as rand_core::SeedableRng>::seed_from_u64(seed)
}

/// The whole state of a match's generator: its four 64-bit words. Its text form (and
/// JSON form) is 64 lowercase hex digits, the words in order. The all-zero state is not
/// one: xoshiro never leaves it, so no generator has it.
///
/// ```
/// use fm_core::RngState;
/// let s = RngState::of_seed(7);
/// let text = s.to_string();
/// assert_eq!(text.len(), 64);
/// assert_eq!(text.parse::<RngState>().unwrap(), s);
/// assert!("00".repeat(32).parse::<RngState>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RngState([u64; 4]);

/// Why text is not an [`RngState`].
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RngStateError {
    /// Not 64 lowercase hex digits.
    #[error("{0:?} is not a generator state: 64 lowercase hex digits expected")]
    Malformed(String),
    /// All zero.
    #[error("the all-zero generator state is not a state of xoshiro256++")]
    Zero,
}

/// The generator's words, as rand_xoshiro serializes them.
#[derive(Deserialize)]
struct Words {
    s: [u64; 4],
}

impl RngState {
    /// The state of a generator seeded with `seed` ([`crate::rng::rng_from_seed`]).
    pub fn of_seed(seed: u64) -> RngState {
        RngState::of(&crate::rng::rng_from_seed(seed))
    }

    /// The state of a generator.
    pub fn of(rng: &Xoshiro256PlusPlus) -> RngState {
        // rand_xoshiro shows the words only through serde.
        let w: Words = serde_json::to_value(rng)
            .and_then(serde_json::from_value)
            .expect("xoshiro256++ serializes as its four words");
        RngState(w.s)
    }

    /// A state from its four words.
    ///
    /// # Errors
    /// [`RngStateError::Zero`] for four zeros.
    pub fn from_words(words: [u64; 4]) -> Result<RngState, RngStateError> {
        if words == [0; 4] {
            return Err(RngStateError::Zero);
        }
        Ok(RngState(words))
    }

    /// The four words.
    pub fn words(self) -> [u64; 4] {
        self.0
    }

    /// A generator in this state.
    pub fn generator(self) -> Xoshiro256PlusPlus {
        // xoshiro256++'s seed is its state, the words little-endian (never all zero).
        let mut seed = [0u8; 32];
        for (chunk, w) in seed.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        <Xoshiro256PlusPlus as rand_core::SeedableRng>::from_seed(seed)
    }
}

impl fmt::Display for RngState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for w in self.0 {
            write!(f, "{w:016x}")?;
        }
        Ok(())
    }
}

impl FromStr for RngState {
    type Err = RngStateError;
    fn from_str(s: &str) -> Result<RngState, RngStateError> {
        let malformed = || {
            let shown: String = s.chars().take(80).collect();
            RngStateError::Malformed(shown)
        };
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if s.len() != 64 || !s.bytes().all(hex) {
            return Err(malformed());
        }
        let mut words = [0u64; 4];
        for (k, w) in words.iter_mut().enumerate() {
            *w = u64::from_str_radix(&s[16 * k..16 * (k + 1)], 16).map_err(|_| malformed())?;
        }
        RngState::from_words(words)
    }
}

impl Serialize for RngState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RngState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RngState, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A change of a match's generator between two commands, as a save records it: after
/// `at` commands, the generator was set to `state` (by [`crate::GameMatch::reseed`] or
/// [`crate::GameMatch::set_rng_state`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RngReset {
    /// The number of commands before it.
    pub at: usize,
    /// The generator's state from then on.
    pub state: RngState,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn a_state_gives_back_the_generator_it_was_read_from() {
        let mut g = crate::rng::rng_from_seed(42);
        g.next_u64();
        let s = RngState::of(&g);
        let mut h = s.generator();
        for _ in 0..10 {
            assert_eq!(g.next_u64(), h.next_u64());
        }
    }

    #[test]
    fn malformed_states_are_refused() {
        for bad in ["", "xyz", &"A".repeat(64), &"0".repeat(63), &"0".repeat(65)] {
            assert!(matches!(
                bad.parse::<RngState>(),
                Err(RngStateError::Malformed(_))
            ));
        }
        assert_eq!("0".repeat(64).parse::<RngState>(), Err(RngStateError::Zero));
        assert!(RngState::from_words([0, 0, 0, 1]).is_ok());
    }
}
