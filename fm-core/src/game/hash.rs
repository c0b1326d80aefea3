//! [`WordHasher`]: the word-at-a-time state hash that the systems' `State::hash` (save
//! format 4 on) is built on, in the neutral layer so that every system can use it.

use std::hash::Hasher;

/// A word-at-a-time hash: every value `Hash` writes is folded in as one little-endian
/// 64-bit word (byte strings 8 bytes a word), each by a xor, an odd multiply and a
/// rotation (each a bijection of the lane it goes into). The values `Hash` writes go
/// alternately into two lanes, so that consecutive words do not wait on each other, and
/// four more lanes are there for a caller's own values: Fire & Movement's `State::hash`
/// folds its units into them, four at a time. The lanes and the word count are mixed at
/// the end by the murmur3 finaliser. The same value on every platform and build.
pub(crate) struct WordHasher {
    pub(crate) lanes: [u64; 4],
    x: u64,
    y: u64,
    pub(crate) words: u64,
}

pub(crate) const WORD_K: u64 = 0x9e37_79b9_7f4a_7c15;

#[inline]
pub(crate) fn word_mix(lane: u64, w: u64) -> u64 {
    (lane ^ w).wrapping_mul(WORD_K).rotate_left(29)
}

impl WordHasher {
    pub(crate) fn new() -> WordHasher {
        WordHasher {
            lanes: [
                0x243f_6a88_85a3_08d3,
                0x1319_8a2e_0370_7344,
                0xa409_3822_299f_31d0,
                0x082e_fa98_ec4e_6c89,
            ],
            x: 0x4528_21e6_38d0_1377,
            y: 0xbe54_66cf_34e9_0c6c,
            words: 0,
        }
    }

    /// Folds `w` into unit lane `k` (0-3).
    #[inline]
    pub(crate) fn lane(&mut self, k: usize, w: u64) {
        self.lanes[k & 3] = word_mix(self.lanes[k & 3], w);
        self.words += 1;
    }

    /// Folds `w` into the lanes of the other values, alternately.
    #[inline]
    fn word(&mut self, w: u64) {
        let next = word_mix(self.x, w);
        self.x = self.y;
        self.y = next;
        self.words += 1;
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        let mut h = self.words;
        for (k, l) in self.lanes.iter().enumerate() {
            h = word_mix(h, l.rotate_left(16 * k as u32));
        }
        h = word_mix(h, self.x);
        h = word_mix(h, self.y.rotate_left(32));
        // murmur3's fmix64.
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            // The length marks the padding.
            self.word(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    fn write_i32(&mut self, i: i32) {
        self.word(i as i64 as u64);
    }
    fn write_i64(&mut self, i: i64) {
        self.word(i as u64);
    }
    fn write_isize(&mut self, i: isize) {
        self.word(i as i64 as u64);
    }
}
