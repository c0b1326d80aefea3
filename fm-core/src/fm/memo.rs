//! A match's memory of its units' movement searches (rules 5.0-5.5, 6.1, as
//! [`crate::fm::movement`] prices them), kept between listings so that a listing after
//! one move re-searches only what that move changed.
//!
//! A unit's search reads the scenario, the hexes holding enemy units (5.2(d)), the
//! active side's enemy zones of control (6.1, with every game's ZOC rules: Vimy Ridge
//! 14.2 reads who holds a hex across a trench hexside, so a friendly move can change
//! them), and the unit's own inputs: where it starts (or its entry hexes, 3.0(c)), its
//! steps (its movement allowance) and the game's movement rules for it (Suez 1916 13.3,
//! 14.1, 15.1, 19.0). The memo keeps the first three per listing and drops every
//! search when any of them changed; each unit's search is kept with its own inputs and
//! redone when they differ. Which reached hexes a unit may end on (5.3, stacking) is
//! kept with its search until a unit enters or leaves one of them, since it depends on
//! who stands there alone; the zones of control are kept while the enemy units and the
//! exclusive rules' bookkeeping are unchanged. Whether a unit may move at all (5.2,
//! 5.5, 8.5, the games' refusals) and the Suez rail moves (16.0) are decided afresh at
//! every listing, as the from-scratch listing does.
//!
//! The memo changes no result: `tests/properties.rs` compares the memo's listing, its
//! indices and its random draw with the from-scratch ones after every command of random
//! games of every built-in scenario.

use crate::fm::agents::random_from;
use crate::fm::command::Command;
use crate::fm::encoding::{index_to_command_from, legal_indices_from};
use crate::fm::exclusive::{ExclusiveRules, MovementRules};
use crate::fm::hex::Hex;
use crate::fm::legal::{legal_commands_from, one_step_end, MoveSource};
use crate::fm::movement::{entry_hexes, may_stack, movable, with_search, Board};
use crate::fm::scenario::Scenario;
use crate::fm::state::{ExclusiveState, Location, Shared, State};
use crate::ids::Side;
use rand_core::RngCore;
use std::sync::Arc;

/// What [`crate::Match`] remembers between listings (see the module documentation).
/// Cloning shares the searches (each is an `Arc`).
#[derive(Clone, Debug, Default)]
pub struct ListingMemo {
    board: Option<BoardKey>,
    units: Vec<Option<Arc<Searched>>>,
    /// Per unit: the hexes of its kept search it may end its move on, if known.
    ends: Vec<Option<Arc<[u16]>>>,
    /// Per unit: how many those hexes are, if known ([`NO_COUNT`] if not): the random
    /// agent counts every unit's moves at every command, and needs no list.
    counts: Vec<u32>,
    /// Each unit's location at the last listing: the hexes whose occupants changed
    /// since are those of the units whose location differs.
    locs: Vec<Location>,
}

/// The inputs every search of a listing shares.
#[derive(Clone, Debug)]
struct BoardKey {
    side: Side,
    /// Per unit in scenario order: the hex index of each enemy unit on the map, or
    /// `u16::MAX`.
    enemy: Vec<u16>,
    /// The active side's enemy zones of control.
    ezoc: Vec<bool>,
    /// The exclusive rules' bookkeeping the zones of control were made with (Meuse
    /// Argonne 14.2 reads the breached works).
    ex: Shared<ExclusiveState>,
}

/// One unit's inputs.
#[derive(Clone, Debug)]
struct UnitKey {
    loc: Location,
    steps: u8,
    rules: Option<MovementRules>,
    /// The entry hexes of a reinforcement (empty on the map).
    entry: Vec<u16>,
}

impl PartialEq for UnitKey {
    fn eq(&self, o: &UnitKey) -> bool {
        // The entry hexes are compared only when there are some: a slice comparison
        // calls `memcmp` even when empty, and glibc's AVX-512 `memcmp` then loads from
        // the empty vector's dangling pointer under a mask, a microcode assist that
        // took 11% of a random Meuse Argonne game.
        self.loc == o.loc
            && self.steps == o.steps
            && self.rules == o.rules
            && self.entry.len() == o.entry.len()
            && (self.entry.is_empty() || self.entry == o.entry)
    }
}

/// A move-end count not known.
const NO_COUNT: u32 = u32::MAX;

/// One unit's search: the hexes reached, in hex order without the start, and for
/// each the position (in `hexes`) of the hex before it on the cheapest path, or
/// `u16::MAX` where the path begins.
#[derive(Debug)]
struct Searched {
    key: UnitKey,
    hexes: Vec<u16>,
    prev: Vec<u16>,
}

impl Searched {
    /// The path to `hexes[k]`: the hexes entered.
    fn path(&self, sc: &Scenario, k: usize) -> Vec<Hex> {
        let mut n = 1;
        let mut p = self.prev[k];
        while p != u16::MAX {
            n += 1;
            p = self.prev[p as usize];
        }
        let mut path = vec![sc.hex_at(self.hexes[k]); n];
        let mut p = self.prev[k];
        let mut at = n - 1;
        while p != u16::MAX {
            at -= 1;
            path[at] = sc.hex_at(self.hexes[p as usize]);
            p = self.prev[p as usize];
        }
        path
    }
}

/// The board of one listing and the memo's searches, brought up to date with it.
struct Listing<'a> {
    sc: &'a Scenario,
    s: &'a State,
    board: Board,
    memo: &'a mut ListingMemo,
}

impl<'a> Listing<'a> {
    fn new(sc: &'a Scenario, s: &'a State, memo: &'a mut ListingMemo) -> Listing<'a> {
        let board = Board::new(sc, s);
        let side = s.active;
        let enemy = s
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| match u.loc {
                Location::Map(h) if sc.units[i].data.side != side => {
                    sc.hex_index(h).unwrap_or(u16::MAX)
                }
                _ => u16::MAX,
            })
            .collect();
        let n = s.units.len();
        // The zones of control read the enemy units' hexes, the exclusive rules'
        // bookkeeping and, in a game whose ZOC needs them (Vimy Ridge 14.2), who holds
        // each hex: when none of these changed, they are the memo's.
        let same_zoc = memo.board.as_ref().is_some_and(|k| {
            k.side == side
                && k.enemy == enemy
                && k.ex == s.ex
                && (!sc.rules().zoc_needs_holders()
                    || memo.locs.iter().eq(s.units.iter().map(|u| &u.loc)))
        });
        if same_zoc && memo.units.len() == n && memo.locs.len() == n {
            let k = memo.board.as_ref().expect("compared above");
            board.set_ezoc(side, k.ezoc.clone());
            memo.forget_ends_on_changed_hexes(sc, s);
            return Listing { sc, s, board, memo };
        }
        let key = BoardKey {
            side,
            enemy,
            ezoc: board.ezoc(sc, s, side).to_vec(),
            ex: s.ex.clone(),
        };
        // The searches hold while the enemy units and zones of control are the same
        // (the bookkeeping itself is not a search input).
        let same = memo
            .board
            .as_ref()
            .is_some_and(|k| k.side == key.side && k.enemy == key.enemy && k.ezoc == key.ezoc);
        memo.board = Some(key);
        if !same || memo.units.len() != n || memo.locs.len() != n {
            memo.units.clear();
            memo.units.resize(n, None);
            memo.ends.clear();
            memo.ends.resize(n, None);
            memo.counts.clear();
            memo.counts.resize(n, NO_COUNT);
            memo.locs.clear();
            memo.locs.extend(s.units.iter().map(|u| u.loc));
        } else {
            memo.forget_ends_on_changed_hexes(sc, s);
        }
        Listing { sc, s, board, memo }
    }

    /// Unit `i`'s search, from the memo or done now; `None` if it may not move.
    fn searched(&mut self, i: usize) -> Option<Arc<Searched>> {
        let (sc, s) = (self.sc, self.s);
        if s.combat.is_some() || s.outcome.is_some() || !movable(sc, s, i) {
            return None;
        }
        let key = self.key(i);
        if let Some(x) = self.kept(i, &key) {
            return Some(x);
        }
        let found = with_search(sc, s, i, &self.board, |_, found| {
            let hexes: Vec<u16> = found.hexes().collect();
            let prev = hexes
                .iter()
                .map(|&v| {
                    found
                        .previous(v)
                        .and_then(|p| hexes.binary_search(&p).ok())
                        .map_or(u16::MAX, |k| k as u16)
                })
                .collect();
            Arc::new(Searched { key, hexes, prev })
        })?;
        self.memo.units[i] = Some(found.clone());
        self.memo.ends[i] = None;
        self.memo.counts[i] = NO_COUNT;
        Some(found)
    }

    /// Unit `i`'s search inputs now.
    fn key(&self, i: usize) -> UnitKey {
        let (sc, s) = (self.sc, self.s);
        let u = &s.units[i];
        UnitKey {
            loc: u.loc,
            steps: u.steps,
            rules: sc.rules().movement(sc, s, i),
            entry: match u.loc {
                Location::Arriving => entry_hexes(sc, s, i),
                _ => Vec::new(),
            },
        }
    }

    /// Unit `i`'s search kept by the memo, if it was made with inputs `key`.
    fn kept(&self, i: usize, key: &UnitKey) -> Option<Arc<Searched>> {
        self.memo.units[i]
            .as_ref()
            .filter(|x| x.key == *key)
            .cloned()
    }

    /// The hexes unit `i` may end its move on, in hex order: kept, or found from its
    /// search now; `None` if it may not move.
    fn ends(&mut self, i: usize) -> Option<Arc<[u16]>> {
        let x = self.searched(i)?;
        if let Some(e) = &self.memo.ends[i] {
            return Some(e.clone());
        }
        let e: Arc<[u16]> = x
            .hexes
            .iter()
            .copied()
            .filter(|&v| self.endable(i, v))
            .collect();
        self.memo.ends[i] = Some(e.clone());
        Some(e)
    }

    /// Whether unit `i` may end its move on reached hex `v` (5.3).
    fn endable(&self, i: usize, v: u16) -> bool {
        !self.board.occupied(v) || may_stack(self.sc, self.s, i, self.sc.hex_at(v))
    }
}

impl MoveSource for Listing<'_> {
    fn normal_moves(&mut self, i: usize, out: &mut Vec<Command>) {
        if let Some(x) = self.searched(i) {
            let id = self.s.units.id(i);
            for (k, &v) in x.hexes.iter().enumerate() {
                if self.endable(i, v) {
                    out.push(Command::Move {
                        unit: id.clone(),
                        path: x.path(self.sc, k),
                    });
                }
            }
        }
    }
    fn normal_ends(&mut self, _: &Scenario, i: usize, ends: &mut Vec<u16>) {
        if let Some(e) = self.ends(i) {
            ends.extend_from_slice(&e);
        }
    }
    fn normal_count(&mut self, _: &Scenario, i: usize) -> usize {
        let Some(x) = self.searched(i) else { return 0 };
        if self.memo.counts[i] == NO_COUNT {
            let n = match &self.memo.ends[i] {
                Some(e) => e.len(),
                None => x.hexes.iter().filter(|&&v| self.endable(i, v)).count(),
            };
            self.memo.counts[i] = n as u32;
        }
        self.memo.counts[i] as usize
    }
    fn normal_move_to(&mut self, sc: &Scenario, i: usize, h: u16) -> Option<Vec<Hex>> {
        let x = self.searched(i)?;
        let k = x.hexes.binary_search(&h).ok()?;
        self.endable(i, h).then(|| x.path(sc, k))
    }
    fn has_normal_end(&mut self, sc: &Scenario, i: usize) -> bool {
        let s = self.s;
        if s.combat.is_some() || s.outcome.is_some() || !movable(sc, s, i) {
            return false;
        }
        // A move of one hex answers without a search (every search reaches it); else
        // the unit's search, kept or made now.
        if one_step_end(sc, s, i, &self.board) {
            return true;
        }
        self.searched(i)
            .is_some_and(|x| x.hexes.iter().any(|&v| self.endable(i, v)))
    }
}

impl ListingMemo {
    /// Forgets the move ends that the units moved since the last listing may have
    /// changed: those of the searches reaching a hex a unit left or entered.
    /// Where a unit may end its move depends on who stands on the hex alone (5.3, and
    /// every game's `may_stack`: Meuse Argonne 13.2, Suez 1916 17.1 read the units on
    /// the hex), so a unit's ends whose hexes kept their occupants hold.
    fn forget_ends_on_changed_hexes(&mut self, sc: &Scenario, s: &State) {
        let mut changed: Vec<u16> = Vec::new();
        for (was, u) in self.locs.iter_mut().zip(s.units.iter()) {
            if *was != u.loc {
                for loc in [*was, u.loc] {
                    if let Location::Map(h) = loc {
                        changed.extend(sc.hex_index(h));
                    }
                }
                *was = u.loc;
            }
        }
        if changed.is_empty() {
            return;
        }
        for ((ends, count), x) in self.ends.iter_mut().zip(&mut self.counts).zip(&self.units) {
            let Some(x) = x else { continue };
            if (ends.is_some() || *count != NO_COUNT)
                && changed.iter().any(|h| x.hexes.binary_search(h).is_ok())
            {
                *ends = None;
                *count = NO_COUNT;
            }
        }
    }

    /// [`crate::legal_commands`], reusing the searches that still hold.
    pub fn legal_commands(&mut self, sc: &Scenario, s: &State) -> Vec<Command> {
        legal_commands_from(sc, s, || Listing::new(sc, s, self))
    }

    /// [`crate::fm::encoding::legal_indices`], reusing the searches that still hold.
    pub fn legal_indices(&mut self, sc: &Scenario, s: &State) -> Vec<usize> {
        legal_indices_from(sc, s, || Listing::new(sc, s, self))
    }

    /// [`crate::fm::encoding::index_to_command`], a move built from the unit's
    /// search if it still holds.
    pub fn index_to_command(&mut self, sc: &Scenario, s: &State, idx: usize) -> Option<Command> {
        index_to_command_from(sc, s, idx, || Listing::new(sc, s, self))
    }

    /// [`crate::factored_options`], a unit's destinations from its search if it still
    /// holds.
    ///
    /// # Errors
    /// As [`crate::factored_options`].
    pub fn factored_options(
        &mut self,
        sc: &Scenario,
        s: &State,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        crate::fm::factored::options_from(sc, s, prefix, || Listing::new(sc, s, self))
    }

    /// The command [`crate::agents::random`] draws with `rng`, reusing the searches
    /// that still hold (the same draws, the same command).
    pub fn random_command(
        &mut self,
        sc: &Scenario,
        s: &State,
        rng: &mut dyn RngCore,
    ) -> Option<Command> {
        random_from(sc, s, rng, || Listing::new(sc, s, self))
    }
}
