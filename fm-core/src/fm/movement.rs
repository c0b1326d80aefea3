//! Movement (rules 5.0-5.5) and its interaction with zones of control (6.1):
//! terrain costs, roads and trails, prohibited terrain, no entering enemy hexes,
//! passing through but never ending on friendly units, EZOC stops and costs, and the
//! cheapest-path search behind `reachable` and legal move listing.

use crate::error::{refuse, RuleError};
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{MoveCost, Phase, Scenario, UnitKind, NO_HEX};
use crate::fm::state::{Location, State};
use crate::fm::zoc::{ezoc_map_with, occupancy};
use crate::ids::{Side, UnitId};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// MP to enter hex `to`, crossing hexside `side_mask` (0 when entering from off the
/// map), for a unit with tag bits `tags`. `None` when prohibited (5.2(e)).
///
/// 5.4: the highest in-hex cost, plus every "+N" feature, plus hexside costs; 5.4.1-2:
/// a road or trail hexside replaces all of that with its own cost (Suez 1916 14.2: a
/// trench hexside still adds its +1).
pub fn enter_cost(sc: &Scenario, tags: u64, side_mask: u64, to: u16) -> Option<Mp> {
    let t = &sc.data.terrain;
    let info = &sc.hexes[to as usize];
    let mut base = Mp::ZERO;
    let mut plus = Mp::ZERO;
    let mut hex_prohibited = false;
    let mut m = info.terrain;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        match t.hex[i].cost {
            MoveCost::Cost(c) => base = base.max(c),
            MoveCost::Plus(c) => plus += c,
            MoveCost::Prohibited => hex_prohibited = true,
        }
    }
    if hex_prohibited {
        return None;
    }
    let mut side_cost = Mp::ZERO;
    let mut road: Option<Mp> = None;
    let mut m = side_mask;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = &t.hexside[i];
        match f.cost {
            MoveCost::Cost(c) | MoveCost::Plus(c) => side_cost += c,
            MoveCost::Prohibited => return None,
        }
        if let Some(r) = f.road {
            let mut r = r;
            for &(fi, bit, c) in &sc.road_tag_costs {
                if fi == i && tags & (1 << bit) != 0 {
                    r = r.min(c);
                }
            }
            road = Some(road.map_or(r, |x: Mp| x.min(r)));
        }
    }
    if let Some(r) = road {
        return Some(r + sc.rules().hexside_extra(sc, side_mask));
    }
    Some(base + plus + side_cost)
}

/// Why a unit must stop in a hex.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// 6.1: a leg unit entering an enemy ZOC stops.
    Ezoc,
    /// 5.2(c): not enough MP left to enter any adjacent hex.
    NoMp,
}

/// A hex a unit can reach this phase.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Reach {
    /// Destination.
    pub hex: Hex,
    /// MP spent on the cheapest legal path.
    pub cost: Mp,
    /// That path (hexes entered).
    pub path: Vec<Hex>,
    /// Whether and why the unit could go no further from here.
    pub stop: Option<StopReason>,
    /// The hex holds a friendly unit: it can be passed through but not ended in (5.3).
    pub occupied: bool,
}

/// Edge value: the step is prohibited (5.2(e)).
const EDGE_PROHIBITED: u32 = u32::MAX;
/// Edge value: a road whose cost depends on the unit's tags; priced by [`enter_cost`].
const EDGE_TAGGED: u32 = u32::MAX - 1;

/// [`enter_cost`] of every step, precomputed at scenario load: it depends only on the
/// scenario, except for roads whose cost depends on a unit's tags (those edges are
/// marked and priced per unit). Values in sixths of an MP.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoveTable {
    /// Per hex and direction: entering the neighbour across that hexside.
    edge: Vec<[u32; 6]>,
    /// Per hex: entering it from off the map.
    enter: Vec<u32>,
    /// Per side and hex: the game's extra cost of entering it (Meuse Argonne 14.3).
    extra: [Vec<u32>; 2],
}

fn sixths(c: Option<Mp>) -> u32 {
    c.map_or(EDGE_PROHIBITED, |m| m.0)
}

impl MoveTable {
    /// Whether a unit may enter hex `h` from off the map (`enter_cost(sc, tags, 0, h)`
    /// is some, whatever the tags: no hexside is crossed, so no road prices it).
    pub(crate) fn enterable(&self, h: u16) -> bool {
        self.enter
            .get(h as usize)
            .is_some_and(|&c| c != EDGE_PROHIBITED)
    }

    /// Prices every step of a validated scenario (its exclusive rules selected).
    pub(crate) fn build(sc: &Scenario) -> MoveTable {
        let tagged_roads = sc
            .road_tag_costs
            .iter()
            .fold(0u64, |m, &(f, _, _)| m | 1 << f);
        let edge = sc
            .hexes
            .iter()
            .map(|info| {
                let mut e = [EDGE_PROHIBITED; 6];
                for (d, e) in e.iter_mut().enumerate() {
                    let n = info.neighbors[d];
                    if n == NO_HEX {
                        continue;
                    }
                    let mask = info.sides[d];
                    let roads = (0..64).filter(|i| mask & (1 << i) != 0).fold(0u64, |m, i| {
                        if sc.data.terrain.hexside[i].road.is_some() {
                            m | 1 << i
                        } else {
                            m
                        }
                    });
                    *e = if roads & tagged_roads != 0 {
                        EDGE_TAGGED
                    } else {
                        sixths(enter_cost(sc, 0, mask, n))
                    };
                }
                e
            })
            .collect();
        let n = sc.hexes.len() as u16;
        let enter = (0..n).map(|h| sixths(enter_cost(sc, 0, 0, h))).collect();
        let extra = Side::BOTH.map(|side| {
            (0..n)
                .map(|h| sc.rules().enter_extra(sc, side, h).0)
                .collect()
        });
        MoveTable { edge, enter, extra }
    }
}

/// What every unit's search in one listing shares: who stands where, and each side's
/// enemy zones of control (built when first asked for).
pub(crate) struct Board {
    occ: Vec<u16>,
    ezoc: [std::cell::OnceCell<Vec<bool>>; 2],
}

impl Board {
    pub(crate) fn new(sc: &Scenario, s: &State) -> Board {
        Board {
            occ: occupancy(sc, s),
            ezoc: Default::default(),
        }
    }

    /// The enemy zones of control for units of `side` (6.1).
    pub(crate) fn ezoc(&self, sc: &Scenario, s: &State, side: Side) -> &[bool] {
        self.ezoc[side.index()].get_or_init(|| ezoc_map_with(sc, s, side, &self.occ))
    }

    /// Gives the enemy zones of control for units of `side`, made before for the same
    /// units and bookkeeping (the listing memo keeps them).
    pub(crate) fn set_ezoc(&self, side: Side, ezoc: Vec<bool>) {
        let _ = self.ezoc[side.index()].set(ezoc);
    }

    /// Whether hex `h` holds a unit.
    pub(crate) fn occupied(&self, h: u16) -> bool {
        self.occ[h as usize] != u16::MAX
    }
}

/// Everything needed to price one unit's steps.
pub(crate) struct Mover<'a> {
    sc: &'a Scenario,
    side: Side,
    kind: UnitKind,
    commando: bool,
    tags: u64,
    ma: Mp,
    occ: &'a [u16],
    ezoc: &'a [bool],
    extra: &'a [u32],
    suez: Option<crate::fm::exclusive::MovementRules>,
}

/// Why a step is refused; formatted into a message only when reported.
pub(crate) enum StepErr {
    Enemy(u16),
    NotAdjacent(u16, u16),
    Prohibited(u16),
    MinefieldEzoc(u16),
    FortEzoc(u16),
    EzocNotFirst(u16),
    OverPrintedMa(u16, Mp, Mp),
    NoMp(u16, Mp, Mp),
    OffRail(u16),
    Canal(u16),
}

impl StepErr {
    pub(crate) fn report(&self, sc: &Scenario) -> RuleError {
        let h = |x: &u16| sc.hex_at(*x);
        match self {
            StepErr::Enemy(t) => RuleError::new("5.2(d)", format!("{} holds an enemy unit", h(t))),
            StepErr::NotAdjacent(f, t) => {
                RuleError::new("5.1", format!("{} is not adjacent to {}", h(f), h(t)))
            }
            StepErr::Prohibited(t) => RuleError::new(
                "5.2(e)",
                format!("{} cannot be entered: prohibited terrain or hexside", h(t)),
            ),
            StepErr::MinefieldEzoc(t) => RuleError::new(
                "6.1",
                format!(
                    "no move from EZOC to EZOC across a minefield hexside into {}",
                    h(t)
                ),
            ),
            StepErr::FortEzoc(t) => RuleError::new(
                "6.1",
                format!(
                    "no move from EZOC to EZOC into the fortification at {}",
                    h(t)
                ),
            ),
            StepErr::EzocNotFirst(t) => RuleError::new(
                "6.1",
                format!(
                    "a leg unit moves from EZOC to EZOC ({}) only as its whole move",
                    h(t)
                ),
            ),
            StepErr::OverPrintedMa(t, cost, ma) => RuleError::new(
                "6.1",
                format!(
                    "entering {} costs {cost}, more than the printed MA {ma}",
                    h(t)
                ),
            ),
            StepErr::NoMp(t, need, left) => RuleError::new(
                "5.2(c)",
                format!("entering {} costs {need}, only {left} MP left", h(t)),
            ),
            StepErr::OffRail(t) => RuleError::new(
                "13.3",
                format!(
                    "the armored train moves only along the railroad, not into {}",
                    h(t)
                ),
            ),
            StepErr::Canal(t) => RuleError::new(
                "14.1",
                format!(
                    "the canal is crossed into {} only at 0139-0239, by a British unit spending its whole movement allowance",
                    h(t)
                ),
            ),
        }
    }
}

impl<'a> Mover<'a> {
    pub(crate) fn new(sc: &'a Scenario, s: &'a State, unit: usize, board: &'a Board) -> Mover<'a> {
        let def = &sc.units[unit];
        let side = def.data.side;
        let suez = sc.rules().movement(sc, s, unit);
        let factor = suez.as_ref().map_or(1, |z| z.factor);
        Mover {
            sc,
            side,
            kind: def.data.kind,
            // Suez 1916 13.3: the armored train enters and exits EZOC freely.
            commando: def.commando || suez.as_ref().is_some_and(|z| z.train),
            tags: def.tags,
            ma: Mp::whole(def.values(s.units[unit].steps).movement as u32 * factor),
            occ: &board.occ,
            ezoc: board.ezoc(sc, s, side),
            extra: &sc.move_table.extra[side.index()],
            suez,
        }
    }

    fn enemy_at(&self, s: &State, h: u16) -> bool {
        let o = self.occ[h as usize];
        o != u16::MAX
            && self.sc.units[o as usize].data.side != self.side
            && s.units[o as usize].loc != Location::Eliminated
    }

    /// Prices entering `to` from `from` (`None`: from off the map) having spent `spent`.
    /// `first` is the unit's first step from its starting hex. Returns the new total
    /// spent and whether the unit must stop there.
    pub(crate) fn step(
        &self,
        s: &State,
        from: Option<u16>,
        to: u16,
        spent: Mp,
        first: bool,
    ) -> Result<(Mp, bool), StepErr> {
        // An enemy hex is refused before adjacency is looked at (5.2(d) names it).
        if self.enemy_at(s, to) {
            return Err(StepErr::Enemy(to));
        }
        let from = match from {
            Some(f) => Some((
                f,
                self.sc
                    .direction(f, to)
                    .ok_or(StepErr::NotAdjacent(f, to))?,
            )),
            None => None,
        };
        self.step_in(from, to, spent, first)
    }

    /// [`Mover::step`] into neighbour `d` of `from`.
    #[inline]
    fn step_dir(
        &self,
        s: &State,
        from: u16,
        d: usize,
        to: u16,
        spent: Mp,
        first: bool,
    ) -> Result<(Mp, bool), StepErr> {
        if self.enemy_at(s, to) {
            return Err(StepErr::Enemy(to));
        }
        self.step_in(Some((from, d)), to, spent, first)
    }

    /// The step after the enemy check, `from` with the direction of `to` from it.
    #[inline]
    fn step_in(
        &self,
        from: Option<(u16, usize)>,
        to: u16,
        spent: Mp,
        first: bool,
    ) -> Result<(Mp, bool), StepErr> {
        let sc = self.sc;
        let t = &sc.move_table;
        let (side_mask, edge) = match from {
            Some((f, d)) => (sc.hexes[f as usize].sides[d], t.edge[f as usize][d]),
            None => (0, t.enter[to as usize]),
        };
        let from = from.map(|(f, _)| f);
        if let Some(z) = &self.suez {
            if side_mask & sc.masks.canal_side != 0 {
                // 14.1: the whole movement allowance, from one crossing hex to the other.
                let crossing = z
                    .crossing
                    .zip(from)
                    .is_some_and(|(c, f)| (c[0] == f && c[1] == to) || (c[1] == f && c[0] == to));
                if crossing && first && spent == Mp::ZERO {
                    return Ok((self.ma, true));
                }
                return Err(StepErr::Canal(to));
            }
            if z.train && side_mask & sc.masks.rail_side == 0 {
                return Err(StepErr::OffRail(to));
            }
        }
        let cost = match edge {
            EDGE_PROHIBITED => return Err(StepErr::Prohibited(to)),
            EDGE_TAGGED => match enter_cost(sc, self.tags, side_mask, to) {
                Some(c) => c,
                None => return Err(StepErr::Prohibited(to)),
            },
            c => Mp(c),
        };
        let cost = cost + Mp(self.extra[to as usize]);
        let from_ezoc = from.is_some_and(|f| self.ezoc[f as usize]);
        // Suez 1916 13.3: the armored train enters and exits EZOC freely.
        let free = self.suez.as_ref().is_some_and(|z| z.train);
        let to_ezoc = self.ezoc[to as usize] && !free;
        let mut terminal = false;
        let new = if to_ezoc {
            if from_ezoc && !self.commando {
                if side_mask & sc.masks.minefield != 0 {
                    return Err(StepErr::MinefieldEzoc(to));
                }
                if sc.is_fortification(to) {
                    return Err(StepErr::FortEzoc(to));
                }
            }
            match self.kind {
                UnitKind::Leg => {
                    terminal = true;
                    // Suez 1916 19.0: Central Powers disengage at night for the
                    // terrain cost alone.
                    let disengage = self.suez.as_ref().is_some_and(|z| z.disengage);
                    if from_ezoc && !self.commando && !disengage {
                        if !first {
                            return Err(StepErr::EzocNotFirst(to));
                        }
                        if cost > self.ma {
                            return Err(StepErr::OverPrintedMa(to, cost, self.ma));
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
            return Err(StepErr::NoMp(
                to,
                new - spent,
                self.ma.saturating_sub(spent),
            ));
        }
        Ok((new, terminal))
    }

    /// Dijkstra over hexes from `start` (or the entry hexes), cheapest path first;
    /// ties break on hex order so results are deterministic. `f` reads the result
    /// ([`Found`]) before the search buffers are reused; nothing is allocated unless
    /// `f` builds paths.
    pub(crate) fn search<R>(
        &self,
        s: &State,
        start: Option<u16>,
        entry: &[u16],
        f: impl FnOnce(&Found) -> R,
    ) -> R {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut g) => {
                g.begin(self.sc.hexes.len());
                self.search_in(&mut g, s, start, entry);
                let g = &*g;
                f(&Found { g, start })
            }
            // A search while another one's result is read: fresh buffers.
            Err(_) => {
                let mut g = Scratch::EMPTY;
                g.begin(self.sc.hexes.len());
                self.search_in(&mut g, s, start, entry);
                f(&Found { g: &g, start })
            }
        })
    }

    fn search_in(&self, g: &mut Scratch, s: &State, start: Option<u16>, entry: &[u16]) {
        let sc = self.sc;
        let mut heap = std::mem::take(&mut g.heap);
        heap.clear();
        match start {
            Some(st) => {
                g.set(st, 0, NO_HEX, false);
                heap.push(Reverse((0u32, st)));
            }
            None => {
                for &e in entry {
                    if let Ok((c, t)) = self.step(s, None, e, Mp::ZERO, true) {
                        if c.0 < g.dist(e) {
                            if g.dist(e) == u32::MAX {
                                g.visited.push(e);
                            }
                            g.set(e, c.0, NO_HEX, t);
                            heap.push(Reverse((c.0, e)));
                        }
                    }
                }
            }
        }
        while let Some(Reverse((c, u))) = heap.pop() {
            if c != g.dist(u) || g.terminal[u as usize] {
                continue;
            }
            let first = Some(u) == start;
            let neighbors = sc.hexes[u as usize].neighbors;
            for (d, &v) in neighbors.iter().enumerate() {
                if v == NO_HEX || Some(v) == start {
                    continue;
                }
                if let Ok((nc, t)) = self.step_dir(s, u, d, v, Mp(c), first) {
                    let old = g.dist(v);
                    if nc.0 < old {
                        if old == u32::MAX {
                            g.visited.push(v);
                        }
                        g.set(v, nc.0, u, t);
                        heap.push(Reverse((nc.0, v)));
                    }
                }
            }
        }
        g.heap = heap;
        g.visited.sort_unstable();
    }

    /// Whether the unit must stop in `v` for lack of MP (5.2(c)) having spent `cost`.
    fn out_of_mp(&self, s: &State, start: Option<u16>, v: u16, cost: Mp) -> bool {
        let neighbors = self.sc.hexes[v as usize].neighbors;
        !neighbors.iter().enumerate().any(|(d, &w)| {
            w != NO_HEX && Some(w) != start && self.step_dir(s, v, d, w, cost, false).is_ok()
        })
    }
}

/// A finished search: the hexes reached, their costs and cheapest paths.
pub(crate) struct Found<'g> {
    g: &'g Scratch,
    start: Option<u16>,
}

impl Found<'_> {
    /// The hexes reached, in hex order, without the starting hex.
    pub(crate) fn hexes(&self) -> impl Iterator<Item = u16> + '_ {
        let start = self.start;
        self.g
            .visited
            .iter()
            .copied()
            .filter(move |&v| Some(v) != start)
    }

    /// Whether `v` was reached (not the starting hex).
    pub(crate) fn reached(&self, v: u16) -> bool {
        Some(v) != self.start && self.g.dist(v) != u32::MAX
    }

    /// MP spent on the cheapest path to `v` (reached).
    pub(crate) fn cost(&self, v: u16) -> Mp {
        Mp(self.g.dist[v as usize])
    }

    /// Whether the unit entered an enemy ZOC at `v` and stops there.
    pub(crate) fn terminal(&self, v: u16) -> bool {
        self.g.terminal[v as usize]
    }

    /// The hex before `v` (reached) on its cheapest path; `None` where the path
    /// begins.
    pub(crate) fn previous(&self, v: u16) -> Option<u16> {
        let p = self.g.prev[v as usize];
        (p != NO_HEX && Some(p) != self.start).then_some(p)
    }

    /// The cheapest path to `v` (reached): the hexes entered.
    pub(crate) fn path(&self, sc: &Scenario, v: u16) -> Vec<Hex> {
        let prev = &self.g.prev;
        let mut n = 1;
        let mut p = prev[v as usize];
        while p != NO_HEX && Some(p) != self.start {
            n += 1;
            p = prev[p as usize];
        }
        let mut path = vec![sc.hex_at(v); n];
        let mut p = prev[v as usize];
        let mut k = n - 1;
        while p != NO_HEX && Some(p) != self.start {
            k -= 1;
            path[k] = sc.hex_at(p);
            p = prev[p as usize];
        }
        path
    }
}

/// Reusable search buffers: entries are valid only when stamped with the current
/// generation, so a search costs what it visits, not the size of the map.
struct Scratch {
    generation: u32,
    stamp: Vec<u32>,
    dist: Vec<u32>,
    prev: Vec<u16>,
    terminal: Vec<bool>,
    visited: Vec<u16>,
    heap: BinaryHeap<Reverse<(u32, u16)>>,
}

impl Scratch {
    const EMPTY: Scratch = Scratch {
        generation: 0,
        stamp: Vec::new(),
        dist: Vec::new(),
        prev: Vec::new(),
        terminal: Vec::new(),
        visited: Vec::new(),
        heap: BinaryHeap::new(),
    };

    fn begin(&mut self, n: usize) {
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
            self.dist.resize(n, u32::MAX);
            self.prev.resize(n, NO_HEX);
            self.terminal.resize(n, false);
        }
        self.visited.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.generation = 1;
        }
    }
    #[inline]
    fn dist(&self, v: u16) -> u32 {
        if self.stamp[v as usize] == self.generation {
            self.dist[v as usize]
        } else {
            u32::MAX
        }
    }
    #[inline]
    fn set(&mut self, v: u16, d: u32, p: u16, t: bool) {
        let i = v as usize;
        self.stamp[i] = self.generation;
        self.dist[i] = d;
        self.prev[i] = p;
        self.terminal[i] = t;
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = const { std::cell::RefCell::new(Scratch::EMPTY) };
}

/// Why the system rules stop a unit moving now (5.2, 5.5, 8.5), found without words:
/// listings ask this of every unit at every command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveBlock {
    /// 5.2: the unit belongs to the side not moving.
    OtherSide,
    /// 5.5: a leg unit in the Mobile Movement Phase.
    LegInMobile,
    /// 5.5: moved in the Movement Phase.
    MovedBefore,
    /// 5.2: not a movement phase.
    NotMovementPhase(Phase),
    /// 5.2: already moved this player turn.
    Moved,
    /// 8.5: advanced after combat.
    Advanced,
    /// 3.0: not on the map nor arriving.
    NotInPlay,
}

impl MoveBlock {
    /// The system rules' first objection, in the order the refusals are reported.
    #[inline]
    fn of(sc: &Scenario, s: &State, unit: usize) -> Option<MoveBlock> {
        let def = &sc.units[unit];
        let u = &s.units[unit];
        if def.data.side != s.active {
            return Some(MoveBlock::OtherSide);
        }
        match s.phase {
            Phase::Movement => {}
            Phase::MobileMovement => {
                if def.data.kind != UnitKind::Mobile {
                    return Some(MoveBlock::LegInMobile);
                }
                if u.moved {
                    return Some(MoveBlock::MovedBefore);
                }
            }
            p => return Some(MoveBlock::NotMovementPhase(p)),
        }
        if u.moved {
            return Some(MoveBlock::Moved);
        }
        if u.advanced {
            return Some(MoveBlock::Advanced);
        }
        match u.loc {
            Location::Map(_) | Location::Arriving => None,
            _ => Some(MoveBlock::NotInPlay),
        }
    }

    fn refusal(self, s: &State, unit: usize) -> Result<(), RuleError> {
        let id = s.units.id(unit);
        match self {
            MoveBlock::OtherSide => refuse("5.2", format!("{id} belongs to the side not moving")),
            MoveBlock::LegInMobile => refuse(
                "5.5",
                format!("{id} is a leg unit and cannot move in the Mobile Movement Phase"),
            ),
            MoveBlock::MovedBefore => refuse(
                "5.5",
                format!("{id} moved in the Movement Phase and cannot move again this player turn"),
            ),
            MoveBlock::NotMovementPhase(p) => refuse(
                "5.2",
                format!("units move only in a movement phase, not the {p}"),
            ),
            MoveBlock::Moved => refuse("5.2", format!("{id} has already moved this player turn")),
            MoveBlock::Advanced => refuse(
                "8.5",
                format!("{id} advanced after combat and may do nothing else this player turn"),
            ),
            MoveBlock::NotInPlay => refuse("3.0", format!("{id} is not in play")),
        }
    }
}

/// Whether a unit may move at all this phase: [`may_move`] without the words of its
/// refusal (the system rules first, then the game's).
#[inline]
pub(crate) fn movable(sc: &Scenario, s: &State, unit: usize) -> bool {
    MoveBlock::of(sc, s, unit).is_none() && sc.rules().move_refusal(sc, s, unit).is_ok()
}

/// Why a unit may not move at all this phase, if it may not: the side first, then the
/// game's exclusive rules, then the rest of the system rules.
pub(crate) fn may_move(sc: &Scenario, s: &State, unit: usize) -> Result<(), RuleError> {
    let block = MoveBlock::of(sc, s, unit);
    if let Some(b @ MoveBlock::OtherSide) = block {
        return b.refusal(s, unit);
    }
    sc.rules().move_refusal(sc, s, unit)?;
    block.map_or(Ok(()), |b| b.refusal(s, unit))
}

pub(crate) fn entry_hexes(sc: &Scenario, s: &State, unit: usize) -> Vec<u16> {
    // Meuse Argonne 13.2: brigades of a division broken down before it entered use its
    // entry hexes.
    let as_unit = sc.rules().enters_as(sc, s, unit);
    match &sc.units[as_unit].data.start {
        crate::fm::scenario::StartData::Reinforcement { entry, .. } => {
            entry.iter().filter_map(|h| sc.hex_index(*h)).collect()
        }
        // Suez 1916 11.5: the 27th Division enters on the east edge.
        _ => sc.rules().entry_hexes(sc, unit),
    }
}

/// Every hex `unit` can reach in the current movement phase, with the cheapest legal
/// path, its cost, and where it must stop. Hexes holding friendly units are listed
/// (`occupied`) since they can be passed through, but cannot be destinations.
/// Empty if the unit may not move now.
pub fn reachable(sc: &Scenario, s: &State, unit: &UnitId) -> Vec<Reach> {
    let Some(i) = sc.unit_index(unit) else {
        return Vec::new();
    };
    reachable_with(sc, s, i as usize, true)
}

fn reachable_with(sc: &Scenario, s: &State, i: usize, with_stop: bool) -> Vec<Reach> {
    let board = Board::new(sc, s);
    with_search(sc, s, i, &board, |m, found| {
        found
            .hexes()
            .map(|v| {
                let cost = found.cost(v);
                let stop = if found.terminal(v) {
                    Some(StopReason::Ezoc)
                } else if with_stop && m.out_of_mp(s, found.start, v, cost) {
                    Some(StopReason::NoMp)
                } else {
                    None
                };
                Reach {
                    hex: sc.hex_at(v),
                    cost,
                    path: found.path(sc, v),
                    stop,
                    occupied: board.occupied(v),
                }
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Runs `unit`'s search for the current movement phase and hands its result to `f`;
/// `None` (and `f` not called) if the unit may not move now.
pub(crate) fn with_search<R>(
    sc: &Scenario,
    s: &State,
    i: usize,
    board: &Board,
    f: impl FnOnce(&Mover, &Found) -> R,
) -> Option<R> {
    if s.combat.is_some() || s.outcome.is_some() || !movable(sc, s, i) {
        return None;
    }
    let m = Mover::new(sc, s, i, board);
    match s.units[i].loc {
        Location::Map(h) => Some(m.search(s, sc.hex_index(h), &[], |found| f(&m, found))),
        Location::Arriving => {
            let entry = entry_hexes(sc, s, i);
            Some(m.search(s, None, &entry, |found| f(&m, found)))
        }
        _ => None,
    }
}

/// Validates and performs a move (5.1-5.4, 6.1; Suez 1916 16.0 rail movement when the
/// path is not a legal normal move).
pub(crate) fn apply_move(ctx: &mut Ctx, unit: &UnitId, path: &[Hex]) -> Result<(), RuleError> {
    match normal_move(ctx, unit, path) {
        Ok(e) => {
            ctx.emit(e);
            Ok(())
        }
        Err(e) => {
            let i = ctx.unit(unit)?;
            ctx.sc.rules().other_move(ctx, i, unit, path, e)
        }
    }
}

fn normal_move(ctx: &mut Ctx, unit: &UnitId, path: &[Hex]) -> Result<Event, RuleError> {
    let sc = ctx.sc;
    let i = ctx.unit(unit)?;
    may_move(sc, &ctx.s, i)?;
    if path.is_empty() {
        return refuse("5.1", "a move must enter at least one hex");
    }
    let board = Board::new(sc, &ctx.s);
    let m = Mover::new(sc, &ctx.s, i, &board);
    let (mut cur, from) = match ctx.s.units[i].loc {
        Location::Map(h) => (sc.hex_index(h), Some(h)),
        _ => (None, None),
    };
    if cur.is_none() {
        let entry = entry_hexes(sc, &ctx.s, i);
        match sc.hex_index(path[0]) {
            Some(e) if entry.contains(&e) => {}
            _ => {
                return refuse(
                    "3.0(c)",
                    format!("{} is not an entry hex for reinforcement {unit}", path[0]),
                )
            }
        }
    }
    let mut spent = Mp::ZERO;
    let mut stopped: Option<Hex> = None;
    let mut crossed_canal = false;
    for (k, h) in path.iter().enumerate() {
        if crossed_canal {
            return refuse(
                "14.1",
                format!("crossing the canal is {unit}'s whole move: it may not go on into {h}"),
            );
        }
        if let Some(at) = stopped {
            return refuse(
                "6.1",
                format!("{unit} entered an enemy ZOC at {at} and must stop there"),
            );
        }
        let Some(to) = sc.hex_index(*h) else {
            return refuse("5.2(f)", format!("{h} is off the map"));
        };
        if from.is_some() && Some(to) == sc.hex_index(from.unwrap_or(*h)) {
            return refuse("5.1", format!("{unit} re-enters its starting hex {h}"));
        }
        match m.step(&ctx.s, cur, to, spent, k == 0) {
            Ok((s2, t)) => {
                spent = s2;
                if t {
                    stopped = Some(*h);
                }
            }
            Err(e) => return Err(e.report(sc)),
        }
        crossed_canal = cur
            .and_then(|c| sc.direction(c, to).map(|d| sc.hexes[c as usize].sides[d]))
            .is_some_and(|m| m & sc.masks.canal_side != 0);
        cur = Some(to);
    }
    let last = *path.last().expect("non-empty");
    if let Some(o) = ctx.s.unit_at(last) {
        if o != i && !may_stack(sc, &ctx.s, i, last) {
            return refuse(
                stacking_rule(sc),
                format!(
                    "{unit} cannot end its move stacked with {} in {last}",
                    ctx.s.units.id(o)
                ),
            );
        }
    }
    Ok(Event::UnitMoved {
        unit: unit.clone(),
        from,
        path: path.to_vec(),
        mp: spent,
    })
}

/// The rule a refused stack breaks: 5.3, or Suez 1916 17.1 which replaces it.
pub(crate) fn stacking_rule(sc: &Scenario) -> &'static str {
    sc.rules().stacking_rule()
}

/// Whether unit `unit` may end a move stacked with the friendly units in `hex`
/// (exclusive rules only: Meuse Argonne 13.2 brigades, Suez 1916 17.1).
pub(crate) fn may_stack(sc: &Scenario, s: &State, unit: usize, hex: Hex) -> bool {
    sc.rules().may_stack(sc, s, unit, hex)
}
