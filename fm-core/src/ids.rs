//! Identifiers: sides, units, officers, and the `SidePair` helper used for per-side data.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// One of the two sides of a game. Scenarios name them (`sides.a.name`); the engine
/// only needs to tell them apart.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The side listed first in the scenario.
    A,
    /// The side listed second in the scenario.
    B,
}

impl Side {
    /// Both sides, `A` first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];
    /// The opposing side.
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    /// 0 for `A`, 1 for `B`.
    pub const fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "a",
            Side::B => "b",
        })
    }
}

/// Who a view or a redacted event is for: one side, or a spectator, who may know only
/// what both sides may know (every secret of either side hidden). Written in JSON as
/// `"a"`, `"b"` or `"spectator"`. A side's viewer hashes exactly as the [`Side`] does,
/// so that a view naming its viewer hashes as when it named its side.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// Side A's player.
    A,
    /// Side B's player.
    B,
    /// A spectator: what both sides may know.
    Spectator,
}

impl Viewer {
    /// The side this viewer plays (`None` for a spectator).
    pub const fn side(self) -> Option<Side> {
        match self {
            Viewer::A => Some(Side::A),
            Viewer::B => Some(Side::B),
            Viewer::Spectator => None,
        }
    }
    /// Whether this viewer is `side`'s player: whether it may know what only `side`
    /// may know (its own face-down values, its secret allotment).
    pub fn is(self, side: Side) -> bool {
        self.side() == Some(side)
    }
}

impl From<Side> for Viewer {
    fn from(side: Side) -> Viewer {
        match side {
            Side::A => Viewer::A,
            Side::B => Viewer::B,
        }
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side() {
            Some(s) => s.fmt(f),
            None => f.write_str("spectator"),
        }
    }
}

/// A value for each side, written in JSON as `{"a": …, "b": …}`.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
pub struct SidePair<T> {
    /// Side A's value.
    pub a: T,
    /// Side B's value.
    pub b: T,
}

impl<T> SidePair<T> {
    /// Builds a pair.
    pub fn new(a: T, b: T) -> Self {
        SidePair { a, b }
    }
    /// The value of one side.
    pub fn get(&self, s: Side) -> &T {
        match s {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }
    /// The value of one side, mutably.
    pub fn get_mut(&mut self, s: Side) -> &mut T {
        match s {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }
}

/// A unit's id as written in the scenario (`"blue-1-inf"`). Cheap to clone.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub Arc<str>);

impl UnitId {
    /// Makes an id from a string.
    pub fn new(s: &str) -> UnitId {
        UnitId(Arc::from(s))
    }
    /// The id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for UnitId {
    fn from(s: &str) -> UnitId {
        UnitId::new(s)
    }
}

/// An officer's id as written in the scenario (Huzzah!'s `"fr-cinc"`): how events and
/// pending decisions name an officer, as commands do. Cheap to clone.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OfficerId(pub Arc<str>);

impl OfficerId {
    /// Makes an id from a string.
    pub fn new(s: &str) -> OfficerId {
        OfficerId(Arc::from(s))
    }
    /// The id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OfficerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for OfficerId {
    fn from(s: &str) -> OfficerId {
        OfficerId::new(s)
    }
}
