//! Legal command listing: every command [`crate::apply`] would accept for the pending
//! decision (moves as destination + cheapest legal path). Property-tested against
//! `apply` in `tests/properties.rs`.

use crate::fm::combat::{can_attack_across, may_attack};
use crate::fm::command::Command;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::movement::{may_stack, movable, with_search, Board, Mover};
use crate::fm::mp::Mp;
use crate::fm::retreat::advance_targets;
use crate::fm::scenario::NO_HEX;
use crate::fm::scenario::{Phase, Scenario, StartData};
use crate::fm::state::{Location, Pending, State};
use crate::ids::{Side, UnitId};
use std::ops::ControlFlow;

/// Every legal command for the pending decision, in a stable order. `done` comes
/// first wherever it is legal. Empty when the game is over.
///
/// ```
/// use fm_core::{legal_commands, new_game, Command, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let mut rng = fm_core::rng_from_seed(1);
/// let (mut state, _) = new_game(&sc, &mut rng);
/// // Play through set-up by taking the first placement offered.
/// while let fm_core::Pending::Setup { .. } = state.pending() {
///     let c = legal_commands(&sc, &state)[0].clone();
///     let ev = fm_core::apply(&sc, &state, &c, &mut rng).unwrap();
///     state.apply_events(&sc, &ev);
/// }
/// let cmds = legal_commands(&sc, &state);
/// assert_eq!(cmds[0], Command::Done);
/// assert!(cmds.iter().any(|c| matches!(c, Command::Move { .. })));
/// ```
pub fn legal_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    legal_commands_from(sc, s, || Fresh::new(sc, s))
}

/// [`legal_commands`], its moves by the reference search of [`crate::fm::reference`].
pub(crate) fn reference_legal_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    legal_commands_from(sc, s, || Reference { sc, s })
}

/// [`legal_commands`], the moves of a movement phase from the [`MoveSource`] `source`
/// makes (made only then).
pub(crate) fn legal_commands_from<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    source: impl FnOnce() -> S,
) -> Vec<Command> {
    let mut out = Vec::new();
    match s.pending() {
        Pending::GameOver { .. } => {}
        Pending::Setup { side } => {
            let mut cache = Default::default();
            for i in 0..s.units.len() {
                setup_for(sc, s, i, side, &mut cache, &mut out);
            }
        }
        Pending::Phase { side, phase } => {
            out.push(Command::Done);
            match phase {
                Phase::Movement | Phase::MobileMovement => {
                    out = movement_commands(sc, s, &mut source());
                }
                Phase::Bombardment => {
                    bombardments(sc, s, side, &mut out);
                    out.extend(sc.rules().phase_commands(sc, s));
                }
                Phase::Combat | Phase::MobileCombat => {
                    out.extend(sc.rules().phase_commands(sc, s));
                    attacks(sc, s, side, &mut out)
                }
                _ => {}
            }
        }
        Pending::FireSupport { side } => out = sc.rules().fire_support_commands(sc, s, side),
        Pending::SupportFire { side, .. } => {
            if !s.support.get(side).available.is_empty() && !sc.rules().support_barred(sc, s, side)
            {
                out.push(Command::SupportFire { commit: true });
            }
            out.push(Command::SupportFire { commit: false });
        }
        Pending::ChooseLoss { candidates, .. } => {
            for u in candidates {
                out.push(Command::ChooseLoss { unit: u });
            }
        }
        Pending::Retreat { units, hexes, .. } => {
            let kind = s.combat.as_ref().map(|c| c.kind).expect("combat");
            for u in units {
                retreats_for(sc, s, &u, hexes, kind, &mut out);
            }
        }
        Pending::LostBattalion { .. } => {
            out.push(Command::LostBattalion { declare: false });
            out.push(Command::LostBattalion { declare: true });
        }
        Pending::ArtilleryRetreat { unit, stacked, .. } => {
            for h in sc.rules().artillery_retreat_hexes(sc, s, &unit, &stacked) {
                out.push(Command::Retreat {
                    unit: unit.clone(),
                    path: vec![h],
                    displace: Vec::new(),
                });
            }
            out.push(Command::StiffResistance { unit });
        }
        Pending::Advance { path, units, .. } => {
            out.push(Command::Done);
            for u in units {
                for h in advance_targets(s, sc, &path, &u) {
                    out.push(Command::Advance {
                        unit: u.clone(),
                        to: h,
                    });
                }
            }
        }
    }
    out
}

/// The legal commands that concern one unit (its moves, placements, retreats, losses
/// or advances). Attacks, listing several units, are included when the unit takes part.
pub fn legal_commands_for(sc: &Scenario, s: &State, unit: &UnitId) -> Vec<Command> {
    let Some(i) = sc.unit_index(unit) else {
        return Vec::new();
    };
    let i = i as usize;
    let mut out = Vec::new();
    match s.pending() {
        Pending::Setup { side } => setup_for(sc, s, i, side, &mut Default::default(), &mut out),
        Pending::Phase {
            phase: Phase::Movement | Phase::MobileMovement,
            ..
        } => unit_moves(sc, s, &mut Fresh::new(sc, s), i, &mut out),
        Pending::Retreat { units, hexes, .. } if units.contains(unit) => {
            let kind = s.combat.as_ref().map(|c| c.kind).expect("combat");
            retreats_for(sc, s, unit, hexes, kind, &mut out);
        }
        _ => {
            out = legal_commands(sc, s)
                .into_iter()
                .filter(|c| match c {
                    Command::Attack { units, .. } => units.contains(unit),
                    Command::ChooseLoss { unit: u } | Command::Advance { unit: u, .. } => u == unit,
                    _ => false,
                })
                .collect();
        }
    }
    out
}

fn setup_for(
    sc: &Scenario,
    s: &State,
    i: usize,
    side: Side,
    cache: &mut crate::fm::exclusive::PlacementCache,
    out: &mut Vec<Command>,
) {
    let u = &s.units[i];
    let d = &sc.units[i];
    if u.loc != Location::ToPlace || d.data.side != side {
        return;
    }
    let StartData::Zone(z) = &d.data.start else {
        return;
    };
    for &h in &sc.zones[z] {
        if may_place(sc, s, i, h, cache) {
            out.push(Command::Place {
                unit: s.units.id(i).clone(),
                hex: sc.hex_at(h),
            });
        }
    }
}

/// Whether `place` would accept unit `i` (waiting, of the side setting up) on hex `h`
/// of its zone.
pub(crate) fn may_place(
    sc: &Scenario,
    s: &State,
    i: usize,
    h: u16,
    cache: &mut crate::fm::exclusive::PlacementCache,
) -> bool {
    let hex = sc.hex_at(h);
    let empty = cache.occupancy(sc, s)[h as usize] == u16::MAX;
    (empty || sc.rules().may_stack(sc, s, i, hex))
        && sc.move_table.enterable(h)
        && sc.rules().placement_listed(sc, s, i, hex, cache)
        && crate::fm::playable::strands_others_listed(sc, s, i, h, cache).is_none()
}

/// Whether [`legal_commands`] would list anything, stopping at the first command found
/// (a set-up listing can run to tens of thousands of placements): scenario validation
/// asks this of every opening.
pub(crate) fn has_legal_command(sc: &Scenario, s: &State) -> bool {
    match s.pending() {
        Pending::GameOver { .. } => false,
        // `done` is always legal in a phase.
        Pending::Phase { .. } => true,
        Pending::Setup { side } => {
            let mut cache = Default::default();
            (0..s.units.len()).any(|i| {
                let d = &sc.units[i].data;
                match &d.start {
                    StartData::Zone(z) if s.units[i].loc == Location::ToPlace && d.side == side => {
                        sc.zones[z]
                            .iter()
                            .any(|&h| may_place(sc, s, i, h, &mut cache))
                    }
                    _ => false,
                }
            })
        }
        _ => !legal_commands(sc, s).is_empty(),
    }
}

/// Where a movement listing's normal moves (5.1-5.4) come from: each unit's search
/// run now ([`Fresh`]), the reference search ([`Reference`]), or the searches a match
/// remembers (`fm::memo`). Whatever the source, the listing around them is the same
/// ([`movement_commands`], [`movement_indices`], [`nth_movement_command`],
/// [`unit_move_to`]): `done`, the game's phase commands, then each unit's normal moves
/// in hex order and its Suez 1916 16.0 rail moves to hexes they do not reach.
pub(crate) trait MoveSource {
    /// Unit `i`'s normal moves: each hex it may end on, in hex order, with the
    /// cheapest path (none if it may not move).
    fn normal_moves(&mut self, i: usize, out: &mut Vec<Command>);
    /// The destinations of [`MoveSource::normal_moves`], in the same order.
    fn normal_ends(&mut self, sc: &Scenario, i: usize, ends: &mut Vec<u16>) {
        let mut moves = Vec::new();
        self.normal_moves(i, &mut moves);
        ends.extend(moves.iter().filter_map(|c| match c {
            Command::Move { path, .. } => path.last().and_then(|h| sc.hex_index(*h)),
            _ => None,
        }));
    }
    /// How many [`MoveSource::normal_ends`] has (what the random agent counts for
    /// every unit at every command).
    fn normal_count(&mut self, sc: &Scenario, i: usize) -> usize {
        let mut ends = Vec::new();
        self.normal_ends(sc, i, &mut ends);
        ends.len()
    }
    /// Whether [`MoveSource::normal_ends`] has any (the factored listing's heads,
    /// `fm::factored`): a source may answer without the unit's whole search.
    fn has_normal_end(&mut self, sc: &Scenario, i: usize) -> bool {
        let mut ends = Vec::new();
        self.normal_ends(sc, i, &mut ends);
        !ends.is_empty()
    }
    /// The normal move to `h`, if one is listed.
    fn normal_move_to(&mut self, sc: &Scenario, i: usize, h: u16) -> Option<Vec<Hex>> {
        let mut moves = Vec::new();
        self.normal_moves(i, &mut moves);
        moves.into_iter().find_map(|c| match c {
            Command::Move { path, .. } if path.last().and_then(|x| sc.hex_index(*x)) == Some(h) => {
                Some(path)
            }
            _ => None,
        })
    }
}

/// Each unit's search run now, over one board shared by the listing.
pub(crate) struct Fresh<'a> {
    sc: &'a Scenario,
    s: &'a State,
    board: Board,
}

impl<'a> Fresh<'a> {
    pub(crate) fn new(sc: &'a Scenario, s: &'a State) -> Fresh<'a> {
        Fresh {
            sc,
            s,
            board: Board::new(sc, s),
        }
    }

    fn endable(&self, i: usize, v: u16) -> bool {
        !self.board.occupied(v) || may_stack(self.sc, self.s, i, self.sc.hex_at(v))
    }
}

impl MoveSource for Fresh<'_> {
    fn normal_moves(&mut self, i: usize, out: &mut Vec<Command>) {
        let (sc, s) = (self.sc, self.s);
        let id = s.units.id(i);
        with_search(sc, s, i, &self.board, |_, found| {
            for v in found.hexes() {
                if self.endable(i, v) {
                    out.push(Command::Move {
                        unit: id.clone(),
                        path: found.path(sc, v),
                    });
                }
            }
        });
    }
    fn normal_ends(&mut self, _: &Scenario, i: usize, ends: &mut Vec<u16>) {
        with_search(self.sc, self.s, i, &self.board, |_, found| {
            ends.extend(found.hexes().filter(|&v| self.endable(i, v)));
        });
    }
    fn normal_move_to(&mut self, sc: &Scenario, i: usize, h: u16) -> Option<Vec<Hex>> {
        with_search(sc, self.s, i, &self.board, |_, found| {
            (found.reached(h) && self.endable(i, h)).then(|| found.path(sc, h))
        })
        .flatten()
    }
    fn has_normal_end(&mut self, sc: &Scenario, i: usize) -> bool {
        can_move(sc, self.s, i, &self.board)
    }
}

/// The straightforward search of [`crate::fm::reference`].
struct Reference<'a> {
    sc: &'a Scenario,
    s: &'a State,
}

impl MoveSource for Reference<'_> {
    fn normal_moves(&mut self, i: usize, out: &mut Vec<Command>) {
        for (_, path) in crate::fm::reference::moves(self.sc, self.s, i) {
            out.push(Command::Move {
                unit: self.s.units.id(i).clone(),
                path,
            });
        }
    }
}

/// Unit `i`'s moves: its normal moves, then its rail moves (Suez 1916 16.0) to hexes
/// they do not end on.
pub(crate) fn unit_moves(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
    i: usize,
    out: &mut Vec<Command>,
) {
    let before = out.len();
    src.normal_moves(i, out);
    let extra = sc.rules().extra_moves(sc, s, i);
    if extra.is_empty() {
        return;
    }
    let ends: Vec<Hex> = out[before..]
        .iter()
        .filter_map(|c| match c {
            Command::Move { path, .. } => path.last().copied(),
            _ => None,
        })
        .collect();
    for (hex, path) in extra {
        if !ends.contains(&hex) {
            out.push(Command::Move {
                unit: s.units.id(i).clone(),
                path,
            });
        }
    }
}

/// The destinations of [`unit_moves`], in its order.
pub(crate) fn unit_ends(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
    i: usize,
    ends: &mut Vec<u16>,
) {
    let extra = sc.rules().extra_moves(sc, s, i);
    ends_with(sc, src, i, extra, ends);
}

/// How many [`unit_ends`] has, `ends` its scratch: the normal ones counted without a
/// list when the unit has no rail moves.
fn unit_end_count(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
    i: usize,
    ends: &mut Vec<u16>,
) -> usize {
    let extra = sc.rules().extra_moves(sc, s, i);
    if extra.is_empty() {
        return src.normal_count(sc, i);
    }
    ends.clear();
    ends_with(sc, src, i, extra, ends);
    ends.len()
}

/// [`unit_ends`] given the unit's rail moves `extra`.
fn ends_with(
    sc: &Scenario,
    src: &mut impl MoveSource,
    i: usize,
    extra: Vec<(Hex, Vec<Hex>)>,
    ends: &mut Vec<u16>,
) {
    let before = ends.len();
    src.normal_ends(sc, i, ends);
    for (hex, _) in extra {
        let Some(h) = sc.hex_index(hex) else { continue };
        if !ends[before..].contains(&h) {
            ends.push(h);
        }
    }
}

/// The cheapest legal move of unit `i` to hex `h` (a normal move, or Suez 1916 16.0
/// a rail move), if [`legal_commands`] lists one.
pub(crate) fn unit_move_to(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
    i: usize,
    h: u16,
) -> Option<Vec<Hex>> {
    src.normal_move_to(sc, i, h).or_else(|| {
        let hex = sc.hex_at(h);
        sc.rules()
            .extra_moves(sc, s, i)
            .into_iter()
            .find(|(x, _)| *x == hex)
            .map(|(_, p)| p)
    })
}

/// A movement phase's legal commands: `done`, the game's phase commands, every unit's
/// moves.
pub(crate) fn movement_commands(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
) -> Vec<Command> {
    let mut out = vec![Command::Done];
    out.extend(sc.rules().phase_commands(sc, s));
    for i in 0..s.units.len() {
        unit_moves(sc, s, src, i, &mut out);
    }
    out
}

/// The action indices of [`movement_commands`], ascending and without duplicates:
/// the moves straight from the searches, with no path built.
pub(crate) fn movement_indices(sc: &Scenario, s: &State, src: &mut impl MoveSource) -> Vec<usize> {
    let h = sc.hexes.len();
    let mut head = vec![0];
    sc.rules().phase_command_indices(sc, s, &mut head);
    head.sort_unstable();
    head.dedup();
    // A unit's move indices lie above the previous unit's and, its ends sorted,
    // ascend: only the phase commands' few need sorting, then a merge.
    let mut moves = Vec::new();
    let mut ends = Vec::new();
    for u in 0..s.units.len() {
        ends.clear();
        unit_ends(sc, s, src, u, &mut ends);
        if !ends.windows(2).all(|w| w[0] <= w[1]) {
            ends.sort_unstable();
        }
        moves.extend(ends.iter().map(|&e| 3 + u * h + e as usize));
    }
    let mut v = Vec::with_capacity(head.len() + moves.len());
    let (mut a, mut b) = (head.into_iter().peekable(), moves.into_iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) if x <= y => a.next(),
            (_, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => break,
        };
        if let Some(x) = next {
            if v.last() != Some(&x) {
                v.push(x);
            }
        }
    }
    v
}

fn bombardments(sc: &Scenario, s: &State, side: Side, out: &mut Vec<Command>) {
    let avail = s.support.get(side).available.len() as u8;
    if avail == 0 || sc.rules().artillery_replaces_bombardment() {
        return;
    }
    for (i, u) in s.units.iter().enumerate() {
        if sc.units[i].data.side == side || u.defended {
            continue;
        }
        let Location::Map(h) = u.loc else { continue };
        let room = crate::fm::bombardment::room(s.bombarded.get(&h)).min(avail);
        for n in 1..=room {
            out.push(Command::Bombard { hex: h, markers: n });
        }
    }
}

/// Whether a unit may end its move on a reached hex (5.3; stacks where exclusive
/// rules allow them).
fn attacks(sc: &Scenario, s: &State, side: Side, out: &mut Vec<Command>) {
    for h in attack_targets(sc, s, side) {
        for units in attack_sets(sc, s, side, h) {
            out.push(Command::Attack { hex: h, units });
        }
    }
}

/// Whether [`attacks`] lists anything, stopping at the first attack found.
pub(crate) fn any_attack(sc: &Scenario, s: &State, side: Side) -> bool {
    attack_targets(sc, s, side).any(|h| has_attack_set(sc, s, side, h))
}

/// The enemy-held hexes `side` may attack (each once, in unit order).
pub(crate) fn attack_targets<'a>(
    sc: &'a Scenario,
    s: &'a State,
    side: Side,
) -> impl Iterator<Item = crate::fm::hex::Hex> + 'a {
    let mut seen = Vec::new();
    s.units.iter().enumerate().filter_map(move |(i, u)| {
        if sc.units[i].data.side == side {
            return None;
        }
        let Location::Map(h) = u.loc else { return None };
        if seen.contains(&h) {
            return None;
        }
        seen.push(h);
        // Suez 1916 18.1: a bombarded hex takes only its announced attack.
        sc.rules().check_free_attack(sc, s, h).is_ok().then_some(h)
    })
}

/// Every set of `side`'s units that may attack the enemy in `h` now: any non-empty
/// union of the adjacent hexes' stacks (a stack attacks as one unit).
pub(crate) fn attack_sets(
    sc: &Scenario,
    s: &State,
    side: Side,
    h: crate::fm::hex::Hex,
) -> Vec<Vec<UnitId>> {
    let mut out = Vec::new();
    let _ = visit_attack_sets(sc, s, side, h, |units| {
        out.push(units);
        ControlFlow::Continue(())
    });
    out
}

/// Whether [`attack_sets`] has any, stopping at the first.
pub(crate) fn has_attack_set(sc: &Scenario, s: &State, side: Side, h: crate::fm::hex::Hex) -> bool {
    visit_attack_sets(sc, s, side, h, |_| ControlFlow::Break(())).is_break()
}

/// Each of [`attack_sets`] in turn, until `f` breaks.
fn visit_attack_sets(
    sc: &Scenario,
    s: &State,
    side: Side,
    h: crate::fm::hex::Hex,
    mut f: impl FnMut(Vec<UnitId>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let defenders = s.units_at(h);
    if defenders.is_empty() || defenders.iter().any(|&d| sc.units[d].data.side == side) {
        return ControlFlow::Continue(());
    }
    // Vimy Ridge 18.3: a unit already attacked may be attacked by another division.
    let again = sc.rules().repeat_attacks();
    if !again && defenders.iter().any(|&d| s.units[d].defended) {
        return ControlFlow::Continue(());
    }
    let Some(hi) = sc.hex_index(h) else {
        return ControlFlow::Continue(());
    };
    // The stacks of the six neighbours, in one pass over the units (in unit order, as
    // `units_at` gives them).
    let around = sc.hexes[hi as usize].neighbors;
    let around_hex = around.map(|n| (n != crate::fm::scenario::NO_HEX).then(|| sc.hex_at(n)));
    let mut stacks: [Vec<usize>; 6] = Default::default();
    for (i, u) in s.units.iter().enumerate() {
        let Location::Map(at) = u.loc else { continue };
        if let Some(d) = around_hex.iter().position(|&x| x == Some(at)) {
            stacks[d].push(i);
        }
    }
    let mut groups: Vec<Vec<UnitId>> = Vec::new();
    for d in 0..6 {
        let n = around[d];
        if n == crate::fm::scenario::NO_HEX {
            continue;
        }
        let here = &stacks[d];
        if here.is_empty()
            || here
                .iter()
                .any(|&a| sc.units[a].data.side != side || may_attack(sc, s, a).is_err())
            || !can_attack_across(sc, n, hi)
        {
            continue;
        }
        groups.push(here.iter().map(|&a| s.units.id(a).clone()).collect());
    }
    let k = groups.len();
    for mask in 1u32..(1 << k) {
        let units: Vec<UnitId> = (0..k)
            .filter(|b| mask & (1 << b) != 0)
            .flat_map(|b| groups[b].iter().cloned())
            .collect();
        if again {
            let idx: Vec<usize> = units
                .iter()
                .filter_map(|u| sc.unit_index(u).map(|i| i as usize))
                .collect();
            if sc.rules().check_attack(sc, s, &defenders, &idx).is_err() {
                continue;
            }
        }
        f(units)?;
    }
    ControlFlow::Continue(())
}

fn retreats_for(
    sc: &Scenario,
    s: &State,
    u: &UnitId,
    hexes: u8,
    kind: crate::fm::state::CombatKind,
    out: &mut Vec<Command>,
) {
    let Some(i) = sc.unit_index(u) else { return };
    let opts = crate::fm::retreat::retreat_choices(sc, s, i as usize, hexes, kind);
    if opts.is_empty() {
        out.push(Command::Retreat {
            unit: u.clone(),
            path: Vec::new(),
            displace: Vec::new(),
        });
    }
    for o in opts {
        out.push(Command::Retreat {
            unit: u.clone(),
            path: o.path,
            displace: o.displace,
        });
    }
    if crate::fm::retreat::stiff_choice(sc, s, u).is_ok() {
        out.push(Command::StiffResistance { unit: u.clone() });
    }
}

/// Whether the active side can do anything in the current phase besides finishing it.
pub(crate) fn has_action(sc: &Scenario, s: &State) -> bool {
    match s.pending() {
        Pending::Phase { side, phase } => match phase {
            Phase::Movement | Phase::MobileMovement => {
                let board = Board::new(sc, s);
                (0..s.units.len()).any(|i| {
                    let d = &sc.units[i].data;
                    d.side == side
                        && crate::fm::movement::movable(sc, s, i)
                        && can_move(sc, s, i, &board)
                }) || sc.rules().has_phase_commands(sc, s)
            }
            Phase::Bombardment => {
                let mut v = Vec::new();
                bombardments(sc, s, side, &mut v);
                !v.is_empty()
                    || !s.ex.artillery_plan.is_empty()
                    || sc.rules().has_phase_commands(sc, s)
            }
            Phase::Combat | Phase::MobileCombat => {
                // Kress (Suez 13.1) is only ever listed next to an attack.
                any_attack(sc, s, side)
            }
            _ => false,
        },
        Pending::FireSupport { side } => sc.rules().fire_support_commands(sc, s, side).len() > 1,
        _ => true,
    }
}

/// Whether unit `i` has a normal move to end (the one-hex moves tried before the
/// whole search, which they usually settle).
fn can_move(sc: &Scenario, s: &State, i: usize, board: &Board) -> bool {
    if s.combat.is_some() || s.outcome.is_some() || !movable(sc, s, i) {
        return false;
    }
    let endable = |v: u16| !board.occupied(v) || may_stack(sc, s, i, sc.hex_at(v));
    one_step_end(sc, s, i, board)
        || with_search(sc, s, i, board, |_, found| found.hexes().any(endable)).unwrap_or(false)
}

/// Whether unit `i`, which may move now ([`movable`], no combat, game not over), has
/// a normal move of one hex to end: a hex every search reaches, so `true` settles
/// [`MoveSource::has_normal_end`] without one.
pub(crate) fn one_step_end(sc: &Scenario, s: &State, i: usize, board: &Board) -> bool {
    let endable = |v: u16| !board.occupied(v) || may_stack(sc, s, i, sc.hex_at(v));
    let m = Mover::new(sc, s, i, board);
    match s.units[i].loc {
        Location::Map(h) => sc.hex_index(h).is_some_and(|st| {
            sc.hexes[st as usize].neighbors.iter().any(|&v| {
                v != NO_HEX && endable(v) && m.step(s, Some(st), v, Mp::ZERO, true).is_ok()
            })
        }),
        Location::Arriving => crate::fm::movement::entry_hexes(sc, s, i)
            .into_iter()
            .any(|e| endable(e) && m.step(s, None, e, Mp::ZERO, true).is_ok()),
        _ => false,
    }
}

/// In a movement phase, command number `pick(n)` of the `n` that [`movement_commands`]
/// lists, built alone: the commands are counted, and only the chosen one is made.
pub(crate) fn nth_movement_command(
    sc: &Scenario,
    s: &State,
    src: &mut impl MoveSource,
    pick: impl FnOnce(usize) -> usize,
) -> Command {
    let extras = sc.rules().phase_command_count(sc, s);
    let mut ends = Vec::new();
    let mut counts = Vec::with_capacity(s.units.len());
    for i in 0..s.units.len() {
        counts.push(unit_end_count(sc, s, src, i, &mut ends));
    }
    let n = 1 + extras + counts.iter().sum::<usize>();
    let mut k = pick(n);
    if k == 0 {
        return Command::Done;
    }
    k -= 1;
    if k < extras {
        return sc
            .rules()
            .phase_command(sc, s, k)
            .expect("k below the count");
    }
    k -= extras;
    for (i, &c) in counts.iter().enumerate() {
        if k < c {
            // Only the move drawn gets its path built.
            ends.clear();
            unit_ends(sc, s, src, i, &mut ends);
            let path = unit_move_to(sc, s, src, i, ends[k]).expect("a listed move end");
            return Command::Move {
                unit: s.units.id(i).clone(),
                path,
            };
        }
        k -= c;
    }
    unreachable!("pick({n}) out of range")
}
