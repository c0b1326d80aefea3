//! A side's perfect-recall information state as a fixed-size tensor (OpenSpiel's
//! `InformationStateTensor`), beside the text form [`GameMatch::information_state`].
//!
//! The tensor encodes exactly the side's record, the one the text form prints: the
//! opening's events and every command with its events, each as the side sees them
//! ([`Game::redacted`]), and, for a match determinized for the other side, the hash of
//! the drawn view. So two histories the side cannot tell apart give the same tensor,
//! and two it can tell apart give different ones (up to a 64-bit hash collision).
//!
//! Layout, `information_state_tensor_size(n)` floats for a record of at most `n`
//! commands:
//!
//! | floats | what |
//! |---|---|
//! | 0, 1 | 1.0 for the side the tensor is for (`a`, then `b`) |
//! | 2 | 1.0 when the record opens on a drawn view (a determinized match, other side) |
//! | 3-5 | the drawn view's hash, else 0 |
//! | 6-8 | the digest of the opening's events as the side sees them |
//! | 9 + 4k | 1.0 when the record has a `k`-th command (0-based), 0.5 when that is the command waiting for its draws, else 0 |
//! | 10-12 + 4k | the digest of that command and its events as the side sees them (of a waiting command: the command and the dice thrown so far, as the information state's `"pending"`) |
//!
//! A 64-bit hash or digest is written as three floats in `[0, 1)`, its bits 0-21, 22-42
//! and 43-63 each divided by 2^22 (exact in `f32`). Digests are FNV-1a over the compact
//! JSON of the command and events, the same on every platform. They make the tensor
//! perfect-recall, but carry no meaning a network can learn from: a learner wants the
//! side's observation beside it (`fm.openspiel` puts Fire & Movement's observation
//! tensor first).

use crate::error::RuleError;
use crate::game::{Game, GameMatch};
use crate::ids::Side;

/// Floats before the first command's slot.
pub const INFO_TENSOR_HEADER: usize = 9;
/// Floats per command.
pub const INFO_TENSOR_SLOT: usize = 4;

/// The length of an information-state tensor with room for `max_commands` commands.
///
/// ```
/// assert_eq!(fm_core::information_state_tensor_size(0), 9);
/// assert_eq!(fm_core::information_state_tensor_size(100), 409);
/// ```
pub const fn information_state_tensor_size(max_commands: usize) -> usize {
    INFO_TENSOR_HEADER + INFO_TENSOR_SLOT * max_commands
}

/// FNV-1a (64 bits) over bytes fed to it as an `io::Write`, so JSON is hashed as it
/// is written, without a buffer.
struct Fnv(u64);

impl std::io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn digest<T: serde::Serialize + ?Sized>(parts: &[&T]) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for p in parts {
        serde_json::to_writer(&mut h, p).expect("engine values serialize");
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        h.0 = (h.0 ^ 0x1e).wrapping_mul(0x0100_0000_01b3);
    }
    h.0
}

/// Writes a 64-bit value as three exact floats in `[0, 1)`.
fn put_u64(out: &mut [f32], v: u64) {
    const SCALE: f32 = 1.0 / (1u32 << 22) as f32;
    out[0] = (v & 0x3f_ffff) as f32 * SCALE;
    out[1] = ((v >> 22) & 0x1f_ffff) as f32 * SCALE;
    out[2] = (v >> 43) as f32 * SCALE;
}

impl<G: Game> GameMatch<G> {
    /// Fills `out` with `side`'s perfect-recall information state as a tensor (the
    /// layout is the module's, [`crate::infostate`]); `out.len()` decides how many
    /// commands it has room for, and must be
    /// [`information_state_tensor_size`]`(n)` for some `n`. Every float is written.
    ///
    /// # Errors
    /// Rule `"input"` when `out` has no such length, or the record holds more commands
    /// than it has room for; `out` is then left as it was.
    ///
    /// ```
    /// use fm_core::{information_state_tensor_size, Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let mut before = vec![0.0; information_state_tensor_size(10)];
    /// m.information_state_tensor(Side::A, &mut before).unwrap();
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// let mut after = before.clone();
    /// m.information_state_tensor(Side::A, &mut after).unwrap();
    /// assert_eq!(after[9], 1.0); // a first command is recorded
    /// assert_eq!(before[..9], after[..9]); // the same opening
    /// ```
    pub fn information_state_tensor(&self, side: Side, out: &mut [f32]) -> Result<(), RuleError> {
        let room = out
            .len()
            .checked_sub(INFO_TENSOR_HEADER)
            .filter(|n| n % INFO_TENSOR_SLOT == 0)
            .map(|n| n / INFO_TENSOR_SLOT)
            .ok_or_else(|| {
                RuleError::new(
                    "input",
                    format!(
                        "an information-state tensor has {INFO_TENSOR_HEADER} + \
                         {INFO_TENSOR_SLOT} × n floats, not {}",
                        out.len()
                    ),
                )
            })?;
        let (drawn, opening, log) = self.information_record(side);
        let pending = self.pending_seen();
        let used = log.len() + usize::from(pending.is_some());
        if used > room {
            return Err(RuleError::new(
                "input",
                format!(
                    "the record of side {side} holds {used} commands, but the tensor has room for {room}",
                ),
            ));
        }
        out.fill(0.0);
        out[0] = f32::from(u8::from(side == Side::A));
        out[1] = f32::from(u8::from(side == Side::B));
        if let Some(h) = drawn {
            out[2] = 1.0;
            put_u64(&mut out[3..6], h);
        }
        put_u64(&mut out[6..9], digest(&[&opening]));
        for (k, e) in log.iter().enumerate() {
            let slot = &mut out[INFO_TENSOR_HEADER + INFO_TENSOR_SLOT * k..][..INFO_TENSOR_SLOT];
            slot[0] = 1.0;
            put_u64(&mut slot[1..], digest(&[e]));
        }
        if let Some(p) = pending {
            let k = log.len();
            let slot = &mut out[INFO_TENSOR_HEADER + INFO_TENSOR_SLOT * k..][..INFO_TENSOR_SLOT];
            slot[0] = 0.5;
            put_u64(&mut slot[1..], digest(&[&p]));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_u64_is_written_exactly() {
        for v in [
            0,
            1,
            u64::MAX,
            0x0123_4567_89ab_cdef,
            1 << 22,
            (1 << 43) - 1,
        ] {
            let mut out = [0.0f32; 3];
            put_u64(&mut out, v);
            assert!(out.iter().all(|x| (0.0..1.0).contains(x)), "{out:?}");
            let back = (out[0] * 4_194_304.0) as u64
                | ((out[1] * 4_194_304.0) as u64) << 22
                | ((out[2] * 4_194_304.0) as u64) << 43;
            assert_eq!(back, v);
        }
    }

    #[test]
    fn digests_separate_their_parts() {
        assert_ne!(digest(&["ab", "c"]), digest(&["a", "bc"]));
        assert_eq!(digest(&["ab", "c"]), digest(&["ab", "c"]));
    }
}
