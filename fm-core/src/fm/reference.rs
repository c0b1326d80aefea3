//! The straightforward movement search and move listing the fast ones in
//! [`crate::fm::movement`] and [`crate::fm::legal`] replaced, kept as their
//! reference: a fresh occupancy and enemy-ZOC map per unit, every edge priced from
//! scratch ([`crate::enter_cost`], the neighbour's direction found by search), a path
//! built for every hex reached. `tests/properties.rs` checks after every command of
//! random games that both list the same commands in the same order. Not API.

use crate::fm::command::Command;
use crate::fm::exclusive::{ExclusiveRules, MovementRules};
use crate::fm::hex::Hex;
use crate::fm::legal::reference_legal_commands;
use crate::fm::movement::{enter_cost, entry_hexes, may_move, may_stack};
use crate::fm::mp::Mp;
use crate::fm::scenario::{Scenario, UnitKind, NO_HEX};
use crate::fm::state::{Location, State};
use crate::fm::zoc::occupancy;
use crate::ids::Side;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Every legal command, with moves listed by the reference search.
pub fn legal_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    reference_legal_commands(sc, s)
}

/// Whether the active side can act in a movement phase, by the reference search
/// (`None` outside movement phases).
pub fn can_move(sc: &Scenario, s: &State) -> bool {
    (0..s.units.len()).any(|i| {
        sc.units[i].data.side == s.active
            && may_move(sc, s, i).is_ok()
            && !moves(sc, s, i).is_empty()
    })
}

/// One unit's normal moves (no Suez 1916 rail moves), by the reference search: the
/// destinations in hex order, each with its cheapest path.
pub fn moves(sc: &Scenario, s: &State, i: usize) -> Vec<(Hex, Vec<Hex>)> {
    if s.combat.is_some() || s.outcome.is_some() || may_move(sc, s, i).is_err() {
        return Vec::new();
    }
    let m = Mover::new(sc, s, i);
    let found = match s.units[i].loc {
        Location::Map(h) => m.search(s, sc.hex_index(h), &[]),
        Location::Arriving => m.search(s, None, &entry_hexes(sc, s, i)),
        _ => Vec::new(),
    };
    found
        .into_iter()
        .filter(|(h, _, occupied)| !occupied || may_stack(sc, s, i, *h))
        .map(|(h, p, _)| (h, p))
        .collect()
}

struct Mover<'a> {
    sc: &'a Scenario,
    side: Side,
    kind: UnitKind,
    commando: bool,
    tags: u64,
    ma: Mp,
    occ: Vec<u16>,
    ezoc: Vec<bool>,
    suez: Option<MovementRules>,
}

impl<'a> Mover<'a> {
    fn new(sc: &'a Scenario, s: &State, unit: usize) -> Mover<'a> {
        let def = &sc.units[unit];
        let side = def.data.side;
        let suez = sc.rules().movement(sc, s, unit);
        let factor = suez.as_ref().map_or(1, |z| z.factor);
        Mover {
            sc,
            side,
            kind: def.data.kind,
            commando: def.commando || suez.as_ref().is_some_and(|z| z.train),
            tags: def.tags,
            ma: Mp::whole(def.values(s.units[unit].steps).movement as u32 * factor),
            occ: occupancy(sc, s),
            ezoc: crate::fm::zoc::ezoc_map(sc, s, side),
            suez,
        }
    }

    fn enemy_at(&self, s: &State, h: u16) -> bool {
        let o = self.occ[h as usize];
        o != u16::MAX
            && self.sc.units[o as usize].data.side != self.side
            && s.units[o as usize].loc != Location::Eliminated
    }

    fn step(
        &self,
        s: &State,
        from: Option<u16>,
        to: u16,
        spent: Mp,
        first: bool,
    ) -> Option<(Mp, bool)> {
        let sc = self.sc;
        if self.enemy_at(s, to) {
            return None;
        }
        let side_mask = match from {
            Some(f) => sc.hexes[f as usize].sides[sc.direction(f, to)?],
            None => 0,
        };
        if let Some(z) = &self.suez {
            if side_mask & sc.masks.canal_side != 0 {
                let crossing = z
                    .crossing
                    .zip(from)
                    .is_some_and(|(c, f)| (c[0] == f && c[1] == to) || (c[1] == f && c[0] == to));
                if crossing && first && spent == Mp::ZERO {
                    return Some((self.ma, true));
                }
                return None;
            }
            if z.train && side_mask & sc.masks.rail_side == 0 {
                return None;
            }
        }
        let cost = enter_cost(sc, self.tags, side_mask, to)?;
        let cost = cost + sc.rules().enter_extra(sc, self.side, to);
        let from_ezoc = from.is_some_and(|f| self.ezoc[f as usize]);
        let free = self.suez.as_ref().is_some_and(|z| z.train);
        let to_ezoc = self.ezoc[to as usize] && !free;
        let mut terminal = false;
        let new = if to_ezoc {
            if from_ezoc && !self.commando {
                if side_mask & sc.masks.minefield != 0 {
                    return None;
                }
                if sc.is_fortification(to) {
                    return None;
                }
            }
            match self.kind {
                UnitKind::Leg => {
                    terminal = true;
                    let disengage = self.suez.as_ref().is_some_and(|z| z.disengage);
                    if from_ezoc && !self.commando && !disengage {
                        if !first || cost > self.ma {
                            return None;
                        }
                        self.ma
                    } else {
                        spent + cost
                    }
                }
                UnitKind::Mobile => {
                    // Suez 1916 19.0 (R-SU-19.0): a Central Powers mobile unit at night
                    // leaves an EZOC hex for another without the half allowance 6.1
                    // charges for the move; entering from outside still costs it.
                    let disengage = from_ezoc && self.suez.as_ref().is_some_and(|z| z.disengage);
                    let extra = if self.commando || disengage {
                        Mp::ZERO
                    } else {
                        self.ma.half_round_down()
                    };
                    spent + cost + extra
                }
            }
        } else {
            spent + cost
        };
        if new > self.ma {
            return None;
        }
        Some((new, terminal))
    }

    /// Dijkstra over hexes: (hex, cheapest path, holds a friendly unit) in hex order.
    fn search(&self, s: &State, start: Option<u16>, entry: &[u16]) -> Vec<(Hex, Vec<Hex>, bool)> {
        let sc = self.sc;
        let n = sc.hexes.len();
        let mut dist = vec![u32::MAX; n];
        let mut prev = vec![NO_HEX; n];
        let mut terminal = vec![false; n];
        let mut heap = BinaryHeap::new();
        match start {
            Some(st) => {
                dist[st as usize] = 0;
                heap.push(Reverse((0u32, st)));
            }
            None => {
                for &e in entry {
                    if let Some((c, t)) = self.step(s, None, e, Mp::ZERO, true) {
                        if c.0 < dist[e as usize] {
                            dist[e as usize] = c.0;
                            prev[e as usize] = NO_HEX;
                            terminal[e as usize] = t;
                            heap.push(Reverse((c.0, e)));
                        }
                    }
                }
            }
        }
        while let Some(Reverse((c, u))) = heap.pop() {
            if c != dist[u as usize] || terminal[u as usize] {
                continue;
            }
            let first = Some(u) == start;
            for d in 0..6 {
                let v = sc.hexes[u as usize].neighbors[d];
                if v == NO_HEX || Some(v) == start {
                    continue;
                }
                if let Some((nc, t)) = self.step(s, Some(u), v, Mp(c), first) {
                    if nc.0 < dist[v as usize] {
                        dist[v as usize] = nc.0;
                        prev[v as usize] = u;
                        terminal[v as usize] = t;
                        heap.push(Reverse((nc.0, v)));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for v in 0..n as u16 {
            if dist[v as usize] == u32::MAX || Some(v) == start {
                continue;
            }
            let mut path = vec![sc.hex_at(v)];
            let mut p = prev[v as usize];
            while p != NO_HEX && Some(p) != start {
                path.push(sc.hex_at(p));
                p = prev[p as usize];
            }
            path.reverse();
            out.push((sc.hex_at(v), path, self.occ[v as usize] != u16::MAX));
        }
        out
    }
}

/// Compares the fast listing with the reference in state `s`: the legal commands
/// (same commands, same order), the legal indices, the command of every move index,
/// the command the random agent's count-and-build draws for several picks (phase
/// commands counted by the game, moves by the searches), and (in a
/// movement phase) whether the active side can still move. The first difference found.
pub fn check(sc: &Scenario, s: &State) -> Result<(), String> {
    use crate::fm::encoding::{command_to_index, index_to_command, legal_indices};
    use crate::fm::scenario::Phase;
    use crate::fm::state::Pending;
    let want = legal_commands(sc, s);
    let got = crate::fm::legal::legal_commands(sc, s);
    if got != want {
        return Err(format!(
            "legal_commands differ:\n{got:?}\nreference:\n{want:?}"
        ));
    }
    let mut idx: Vec<usize> = want
        .iter()
        .filter_map(|c| command_to_index(sc, s, c))
        .collect();
    idx.sort_unstable();
    idx.dedup();
    let got_idx = legal_indices(sc, s);
    if got_idx != idx {
        return Err(format!("legal_indices differ: {got_idx:?} vs {idx:?}"));
    }
    if let Pending::Phase { .. } = s.pending() {
        let any = sc.rules().has_phase_commands(sc, s);
        let listed = sc.rules().phase_commands(sc, s).len();
        if any != (listed > 0) || sc.rules().phase_command_count(sc, s) != listed {
            return Err(format!(
                "phase commands: has {any}, count {}, listed {listed}",
                sc.rules().phase_command_count(sc, s)
            ));
        }
    }
    if let Pending::Setup { side } = s.pending() {
        // The listing's stranding test (zone bits, the waiting groups kept for the
        // listing) against the straightforward one, for every waiting unit and hex.
        let mut cache = Default::default();
        for (i, u) in s.units.iter().enumerate() {
            let d = &sc.units[i].data;
            let crate::fm::scenario::StartData::Zone(z) = &d.start else {
                continue;
            };
            if u.loc != Location::ToPlace || d.side != side {
                continue;
            }
            for &h in &sc.zones[z] {
                let fast = crate::fm::playable::strands_others_listed(sc, s, i, h, &mut cache);
                let slow = crate::fm::playable::strands_others_reference(sc, s, i, h);
                if fast != slow {
                    return Err(format!(
                        "strands_others({}, {}): {fast:?}, reference {slow:?}",
                        s.units.id(i),
                        sc.hex_at(h)
                    ));
                }
            }
        }
    }
    let Pending::Phase {
        phase: Phase::Movement | Phase::MobileMovement,
        ..
    } = s.pending()
    else {
        return Ok(());
    };
    // Every move's index back to its command (a sample of each unit's, in long lists).
    let stride = (want.len() / 40).max(1);
    for c in want.iter().step_by(stride) {
        if let Command::Move { .. } = c {
            let i = command_to_index(sc, s, c).ok_or("a move without an index")?;
            if index_to_command(sc, s, i).as_ref() != Some(c) {
                return Err(format!("index_to_command({i}) is not {c:?}"));
            }
        }
    }
    let n = want.len();
    // `done`, the game's phase commands (first and last), the first move, and some.
    let e = sc.rules().phase_command_count(sc, s);
    for k in [0, 1, e, e + 1, n / 3, n / 2, n - 1] {
        if k >= n {
            continue;
        }
        let mut asked = 0;
        let mut fresh = crate::fm::legal::Fresh::new(sc, s);
        let c = crate::fm::legal::nth_movement_command(sc, s, &mut fresh, |m| {
            asked = m;
            k
        });
        if asked != n || c != want[k] {
            return Err(format!("command {k} of {n} drawn as {c:?} of {asked}"));
        }
    }
    let fast = crate::fm::legal::has_action(sc, s);
    let slow = can_move(sc, s) || !sc.rules().phase_commands(sc, s).is_empty();
    if fast != slow {
        return Err(format!("has_action {fast}, reference {slow}"));
    }
    Ok(())
}
