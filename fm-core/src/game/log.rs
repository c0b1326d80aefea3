//! The log of a match: [`LogEntryOf`] (a command, its events and the state hash after
//! them) and [`MatchLog`], a persistent list of them that clones of a match share,
//! keeping with each command the generator before it and, every `SNAPSHOT_EVERY`-th, the
//! state after it (what undo needs). Also the JSON form of hashes (16 hex digits).

use super::Game;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::sync::Arc;

/// One applied command, the events it caused (die rolls and draws included) and the
/// state hash after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct LogEntryOf<G: Game> {
    /// The command.
    pub command: G::Command,
    /// Its events.
    pub events: Vec<G::Event>,
    /// [`Game::state_hash`] after the events, written in JSON as 16 hex digits (a
    /// string, so that double-precision JSON parsers keep it exact).
    #[serde(with = "hex_u64")]
    pub hash: u64,
    /// In explicit chance mode ([`ChanceMode::Explicit`]), the outcome chosen at each
    /// of the command's draws, in order (absent for a command that drew nothing, and
    /// for every command whose draws came from the generator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<Vec<u32>>,
}

/// A state snapshot is kept after every `SNAPSHOT_EVERY`-th command, so that
/// [`GameMatch::undo`] folds at most `SNAPSHOT_EVERY - 1` commands' events. A fold is
/// a fraction of a microsecond and a Meuse Argonne state some 4 KiB, so 64 keeps an
/// undo within microseconds at about 70 bytes of snapshot per command (16 cost 280).
pub(super) const SNAPSHOT_EVERY: usize = 64;

/// The log of a [`GameMatch`]: its [`LogEntryOf`]s in order, as a persistent list that
/// clones of the match share (cloning it, pushing onto it and popping from it are O(1)
/// and never copy an entry). [`MatchLog::last`] and [`MatchLog::len`] are O(1);
/// [`MatchLog::get`] (and indexing) walks back from the end, O(len − index);
/// [`MatchLog::iter`] is O(len).
pub struct MatchLog<G: Game> {
    pub(super) tip: Option<Arc<LogNode<G>>>,
}

/// One command of a [`MatchLog`], with what undoing it needs: the generator before it,
/// and every [`SNAPSHOT_EVERY`]-th command the state after it.
pub(super) struct LogNode<G: Game> {
    pub(super) entry: LogEntryOf<G>,
    pub(super) prev: Option<Arc<LogNode<G>>>,
    pub(super) len: usize,
    pub(super) rng_before: Xoshiro256PlusPlus,
    pub(super) snapshot: Option<Box<G::State>>,
}

impl<G: Game> Drop for LogNode<G> {
    // Unlinks the list iteratively: a recursive drop of 50,000 nodes would overflow
    // the stack.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(node) = next {
            match Arc::into_inner(node) {
                Some(mut n) => next = n.prev.take(),
                None => break,
            }
        }
    }
}

impl<G: Game> Clone for MatchLog<G> {
    fn clone(&self) -> Self {
        MatchLog {
            tip: self.tip.clone(),
        }
    }
}

impl<G: Game> Default for MatchLog<G> {
    fn default() -> Self {
        MatchLog { tip: None }
    }
}

impl<G: Game> MatchLog<G> {
    /// The number of commands.
    pub fn len(&self) -> usize {
        self.tip.as_ref().map_or(0, |n| n.len)
    }
    /// Whether no command was applied.
    pub fn is_empty(&self) -> bool {
        self.tip.is_none()
    }
    /// The last entry, O(1).
    pub fn last(&self) -> Option<&LogEntryOf<G>> {
        self.tip.as_deref().map(|n| &n.entry)
    }
    /// Entry `i` (from 0), O(len − i).
    pub fn get(&self, i: usize) -> Option<&LogEntryOf<G>> {
        let mut node = self.tip.as_deref()?;
        if i >= node.len {
            return None;
        }
        while node.len > i + 1 {
            node = node.prev.as_deref().expect("a node before");
        }
        Some(&node.entry)
    }
    /// The entries in order.
    pub fn iter(&self) -> std::vec::IntoIter<&LogEntryOf<G>> {
        let mut v: Vec<&LogEntryOf<G>> = self.nodes_back().map(|n| &n.entry).collect();
        v.reverse();
        v.into_iter()
    }
    /// The entries from `from` on, in order (O(len − from)).
    pub fn iter_from(&self, from: usize) -> std::vec::IntoIter<&LogEntryOf<G>> {
        let n = self.len().saturating_sub(from);
        let mut v: Vec<&LogEntryOf<G>> = self.nodes_back().take(n).map(|n| &n.entry).collect();
        v.reverse();
        v.into_iter()
    }
    /// A copy of the entries, in order.
    pub fn to_vec(&self) -> Vec<LogEntryOf<G>> {
        self.iter().cloned().collect()
    }
    /// The nodes from the last back.
    pub(super) fn nodes_back(&self) -> impl Iterator<Item = &LogNode<G>> {
        std::iter::successors(self.tip.as_deref(), |n| n.prev.as_deref())
    }
    pub(super) fn push(
        &mut self,
        entry: LogEntryOf<G>,
        rng_before: Xoshiro256PlusPlus,
        state: &G::State,
    ) {
        let len = self.len() + 1;
        let snapshot = (len % SNAPSHOT_EVERY == 0).then(|| Box::new(state.clone()));
        self.tip = Some(Arc::new(LogNode {
            entry,
            prev: self.tip.take(),
            len,
            rng_before,
            snapshot,
        }));
    }
}

impl<G: Game> std::ops::Index<usize> for MatchLog<G> {
    type Output = LogEntryOf<G>;
    fn index(&self, i: usize) -> &LogEntryOf<G> {
        match self.get(i) {
            Some(e) => e,
            None => panic!("log index {i} out of range (length {})", self.len()),
        }
    }
}

impl<'a, G: Game> IntoIterator for &'a MatchLog<G> {
    type Item = &'a LogEntryOf<G>;
    type IntoIter = std::vec::IntoIter<&'a LogEntryOf<G>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<G: Game> PartialEq for MatchLog<G> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<G: Game> PartialEq<[LogEntryOf<G>]> for MatchLog<G> {
    fn eq(&self, other: &[LogEntryOf<G>]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<G: Game> Debug for MatchLog<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<G: Game> Serialize for MatchLog<G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Serde helper: a `u64` as a 16-digit lowercase hex string. Reading accepts exactly
/// that form (not uppercase, a sign, or fewer or more digits), so that a hash has one
/// spelling.
pub(super) mod hex_u64 {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:016x}"))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        let lower_hex = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
        if s.len() != 16 || !s.bytes().all(|b| lower_hex(&b)) {
            let shown: String = s.chars().take(24).collect();
            let more = if shown.len() < s.len() { "…" } else { "" };
            return Err(serde::de::Error::custom(format!(
                "{}{more} is not a hash: 16 lowercase hex digits expected",
                serde_json::Value::String(shown)
            )));
        }
        u64::from_str_radix(&s, 16).map_err(serde::de::Error::custom)
    }
}

/// [`hex_u64`] for an optional value.
pub(super) mod hex_u64_opt {
    use serde::{Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::hex_u64::serialize(v, s),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        super::hex_u64::deserialize(d).map(Some)
    }
}
