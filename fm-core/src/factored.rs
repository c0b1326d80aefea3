//! Factored action spaces (issue 18): a decision taken in a few small steps instead of
//! one choice among the whole flat action space.
//!
//! A rules system's flat action space ([`crate::Game::action_space_size`]) numbers
//! every command a scenario can have; Fire & Movement's has about 480,000 indices in
//! each real game. A *factored* action space takes the same decision as a short
//! sequence of choices, each among a fixed, small number of values per step
//! ([`crate::Game::factored_sizes`]): Fire & Movement asks for the command's kind and
//! unit first, then its hex, then (for a few kinds) one last argument. The sequences
//! are a relabelling of the flat indices:
//!
//! - every complete sequence stands for exactly one flat index
//!   ([`crate::Game::factored_to_flat`]) and every flat index that stands for a command
//!   for exactly one sequence ([`crate::Game::flat_to_factored`]); both depend on the
//!   scenario alone, never on the state;
//! - whether a sequence is complete depends on it alone
//!   ([`crate::Game::factored_complete`]);
//! - the options after a prefix ([`crate::GameMatch::factored_options`]) are exactly
//!   the values that continue it towards at least one legal command now: walking every
//!   option of every step reaches the legal flat indices, each once, and nothing else
//!   (no dead ends).
//!
//! Every system gets a factorization by default: the flat index written in two digits
//! of a mixed radix ([`radix`]), its options found among the legal flat indices. A
//! system may replace it with a semantic one whose steps it can list more cheaply than
//! the whole flat listing (Fire & Movement does: `fm::factored`).

/// Why a factored sequence, prefix or flat index was refused. Every variant names the
/// problem; none is a panic, in Rust or across a binding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FactoredError {
    /// A value that is no option of its step (out of the step's size, or of the range
    /// its prefix allows).
    #[error("factored step {step}: {value} {why}")]
    Invalid {
        /// The step (from 0).
        step: usize,
        /// The value given.
        value: usize,
        /// What it should have been.
        why: String,
    },
    /// A sequence that needs more steps before it stands for a command.
    #[error(
        "the factored sequence {seq:?} is incomplete: a command of its kind takes {needed} steps"
    )]
    Incomplete {
        /// The sequence given.
        seq: Vec<usize>,
        /// The number of steps its first values call for.
        needed: usize,
    },
    /// A prefix that is already a whole command (it has no next step), or a sequence
    /// longer than its command.
    #[error("the factored sequence {seq:?} is complete after {len} steps: it has no step {next}")]
    Complete {
        /// The sequence given.
        seq: Vec<usize>,
        /// The steps its command takes.
        len: usize,
        /// The step asked for (or given) past its end.
        next: usize,
    },
    /// A flat action index outside the action space, or one that stands for no
    /// command.
    #[error("action index {index} {why}")]
    Index {
        /// The index given.
        index: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A well-formed prefix that no legal command starts with now.
    #[error("no legal command starts with the factored prefix {prefix:?} now")]
    NotLegal {
        /// The prefix given.
        prefix: Vec<usize>,
    },
}

impl FactoredError {
    /// The error as a refused command: rule `"input"`, as an action index that means
    /// nothing here is refused.
    pub fn to_rule_error(&self) -> crate::error::RuleError {
        crate::error::RuleError::new("input", self.to_string())
    }
}

/// The default factorization of a flat action space of `n` indices: index `i` as the
/// two digits `[i / r, i % r]` with radix `r = ⌈√n⌉` (at least 1), so both steps have
/// about `√n` values (sizes `[⌈n / r⌉, r]`). Honest and small-masked; its options are
/// found among the legal flat indices, so listing them costs a flat listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Radix {
    /// The flat action space's size.
    pub n: usize,
    /// The radix: the second step's size.
    pub r: usize,
}

/// The default factorization of a flat space of `n` indices ([`Radix`]).
pub fn radix(n: usize) -> Radix {
    let mut r = (n as f64).sqrt() as usize;
    while r * r < n {
        r += 1;
    }
    while r > 1 && (r - 1) * (r - 1) >= n {
        r -= 1;
    }
    Radix { n, r: r.max(1) }
}

impl Radix {
    /// The step sizes: `[⌈n / r⌉, r]`.
    pub fn sizes(&self) -> Vec<usize> {
        vec![self.n.div_ceil(self.r).max(1), self.r]
    }

    /// The sequence of flat index `index`.
    ///
    /// # Errors
    /// [`FactoredError::Index`] for an index not below `n`.
    pub fn to_factored(&self, index: usize) -> Result<Vec<usize>, FactoredError> {
        if index >= self.n {
            return Err(out_of_space(index, self.n));
        }
        Ok(vec![index / self.r, index % self.r])
    }

    /// Whether `seq` is complete (two values) or a proper prefix (fewer).
    ///
    /// # Errors
    /// A value out of its step, or more than two values.
    pub fn complete(&self, seq: &[usize]) -> Result<bool, FactoredError> {
        let sizes = self.sizes();
        if seq.len() > 2 {
            return Err(FactoredError::Complete {
                seq: seq.to_vec(),
                len: 2,
                next: 2,
            });
        }
        for (step, (&v, &size)) in seq.iter().zip(&sizes).enumerate() {
            if v >= size {
                return Err(below(step, v, size));
            }
        }
        if let [a, b] = seq {
            if a * self.r + b >= self.n {
                return Err(FactoredError::Invalid {
                    step: 1,
                    value: *b,
                    why: format!(
                        "after {a} is past the action space's end ({} indices)",
                        self.n
                    ),
                });
            }
        }
        Ok(seq.len() == 2)
    }

    /// The flat index of a complete sequence.
    ///
    /// # Errors
    /// As [`Radix::complete`], and [`FactoredError::Incomplete`] for fewer than two
    /// values.
    pub fn to_flat(&self, seq: &[usize]) -> Result<usize, FactoredError> {
        if !self.complete(seq)? {
            return Err(FactoredError::Incomplete {
                seq: seq.to_vec(),
                needed: 2,
            });
        }
        Ok(seq[0] * self.r + seq[1])
    }
}

/// [`FactoredError::Invalid`] for a value not below its step's size.
pub(crate) fn below(step: usize, value: usize, size: usize) -> FactoredError {
    FactoredError::Invalid {
        step,
        value,
        why: format!("is not below the step's size {size}"),
    }
}

/// [`FactoredError::Index`] for an index outside the action space.
pub(crate) fn out_of_space(index: usize, size: usize) -> FactoredError {
    FactoredError::Index {
        index,
        why: format!("is not below the action space size {size}"),
    }
}

/// The options after `prefix` among the legal flat indices `legal`: the value at step
/// `prefix.len()` of every legal index's sequence that starts with `prefix`, ascending
/// and without duplicates. `to_factored` gives an index's sequence (`None`: none).
pub fn options_among(
    legal: &[usize],
    prefix: &[usize],
    to_factored: impl Fn(usize) -> Option<Vec<usize>>,
) -> Vec<usize> {
    let k = prefix.len();
    let mut out: Vec<usize> = legal
        .iter()
        .filter_map(|&i| {
            let seq = to_factored(i)?;
            (seq.len() > k && seq[..k] == *prefix).then(|| seq[k])
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Checks that `prefix` may be continued (well formed and not complete), by
/// `complete` (a system's [`crate::Game::factored_complete`]).
///
/// # Errors
/// The error `complete` gives, or [`FactoredError::Complete`].
pub(crate) fn proper_prefix(
    prefix: &[usize],
    complete: impl FnOnce(&[usize]) -> Result<bool, FactoredError>,
) -> Result<(), FactoredError> {
    if complete(prefix)? {
        return Err(FactoredError::Complete {
            seq: prefix.to_vec(),
            len: prefix.len(),
            next: prefix.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_is_a_bijection_with_small_steps() {
        for n in [1usize, 2, 3, 4, 5, 15, 16, 17, 99, 100, 101, 15_857] {
            let r = radix(n);
            let sizes = r.sizes();
            assert!(sizes[0] * sizes[1] >= n, "{n}: {sizes:?}");
            assert!(sizes[0] <= r.r + 1 && r.r * r.r >= n, "{n}: {sizes:?}");
            for i in 0..n {
                let seq = r.to_factored(i).unwrap();
                assert!(seq[0] < sizes[0] && seq[1] < sizes[1]);
                assert_eq!(r.to_flat(&seq), Ok(i));
                assert_eq!(r.complete(&seq[..1]), Ok(false));
            }
            assert!(matches!(
                r.to_factored(n),
                Err(FactoredError::Index { index, .. }) if index == n
            ));
            assert!(matches!(
                r.to_flat(&[0]),
                Err(FactoredError::Incomplete { needed: 2, .. })
            ));
            assert!(r.complete(&[sizes[0]]).is_err());
            assert!(r.complete(&[0, 0, 0]).is_err());
        }
        // Past the end within the last row.
        let r = radix(5); // r = 3, sizes [2, 3]: indices 0..5, [1, 2] would be 5
        assert_eq!(r.sizes(), vec![2, 3]);
        assert!(matches!(
            r.to_flat(&[1, 2]),
            Err(FactoredError::Invalid { step: 1, .. })
        ));
    }

    #[test]
    fn options_among_reads_the_next_step() {
        let r = radix(100); // r = 10
        let legal = [3, 17, 18, 55, 59];
        let f = |i| r.to_factored(i).ok();
        assert_eq!(options_among(&legal, &[], f), vec![0, 1, 5]);
        assert_eq!(options_among(&legal, &[1], f), vec![7, 8]);
        assert_eq!(options_among(&legal, &[2], f), Vec::<usize>::new());
    }
}
