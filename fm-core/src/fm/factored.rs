//! Fire & Movement's factored action space (issue 18; the contract is
//! [`crate::factored`]): a command in at most three steps, each small, beside the flat
//! encoding of [`crate::fm::encoding`], whose indices it keeps.
//!
//! With `U` units and `H` hexes (scenario order), the steps are:
//!
//! | step | size | values |
//! |---|---|---|
//! | 0, the head | `11 + 8U` | the command's kind, and its unit for the kinds with one |
//! | 1 | `max(H, U)` | a hex (or, for `rebuild`, a second unit) |
//! | 2 | 64 | a last argument: the markers of a bombardment, an attack's directions, ... |
//!
//! | head | command | step 1 | step 2 | flat index |
//! |---|---|---|---|---|
//! | 0 | `done` | | | 0 |
//! | 1, 2 | `support_fire` commit, pass | | | 1, 2 |
//! | 3, 4 | `lost_battalion` decline, declare | | | LB + d |
//! | 5 | `bombard` | hex h | k = markers − 1 (0, 1) | B + 2h + k |
//! | 6 | `attack` | hex h | direction set m (1-63) | A + 64h + m |
//! | 7 | `place_aircraft` | hex h | | AC + h |
//! | 8 | `artillery` | hex h | 2(markers − 1) + gas (0-3) | AR + 4h + … |
//! | 9 | `air_unit` | hex h | observe (0, 1) | AU + 2h + o |
//! | 10 | `kress` | hex h | | KR + h |
//! | 11 + u | unit u to hex h: `place`, `move`, `advance` | hex h | | 3 + u·H + h |
//! | 11 + U + u | `retreat` of u ending on h | hex h | | R + u·H + h |
//! | 11 + 2U + u | `stiff_resistance` of u | | | S + u |
//! | 11 + 3U + u | `choose_loss` of u | | | L + u |
//! | 11 + 4U + u | `replace` u on h | hex h | | X + u·H + h |
//! | 11 + 5U + u | `replace` u on h at full strength | hex h | | RF + u·H + h |
//! | 11 + 6U + u | `rebuild` of u (v = u) or of u and v (v > u) | unit v | | RB + … |
//! | 11 + 7U + u | `break_down` of u | | | BD + u |
//!
//! The head decides how many steps a command takes (1, 2 or 3). Each step's options
//! are listed from the per-unit and per-target checks where that is cheaper than the
//! flat listing: at set-up, the units with a placement (each stops at its first
//! placeable hex), then one unit's hexes; in a movement phase the units with a move
//! (a one-hex move settles most without a search), then one unit's destinations
//! (its search alone, kept by the match's memo); in a combat phase the targets with
//! an attack, then one target's attacking sets. Every other decision filters its flat
//! listing, which is short.

use crate::factored::{below, out_of_space, FactoredError};
use crate::fm::command::Command;
use crate::fm::encoding::{command_to_index, layout, legal_indices_from, Layout};
use crate::fm::exclusive::{ExclusiveRules, PlacementCache};
use crate::fm::legal::{
    any_attack, attack_sets, attack_targets, has_attack_set, may_place, unit_ends, Fresh,
    MoveSource,
};
use crate::fm::scenario::{Phase, Scenario, StartData};
use crate::fm::state::{Location, Pending, State};
use crate::ids::Side;

const DONE: usize = 0;
const SF_COMMIT: usize = 1;
const SF_PASS: usize = 2;
const LB_DECLINE: usize = 3;
const LB_DECLARE: usize = 4;
const BOMBARD: usize = 5;
const ATTACK: usize = 6;
const AIRCRAFT: usize = 7;
const ARTILLERY: usize = 8;
const AIR_UNIT: usize = 9;
const KRESS: usize = 10;
/// The number of heads without a unit.
const UNITLESS: usize = 11;
/// The most values of the last step (an attack's direction sets).
const LAST: usize = 64;

/// The kinds of command with a unit, in head order (head `11 + k·U + u`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum UnitKind {
    ToHex,
    Retreat,
    Stiff,
    Loss,
    Replace,
    ReplaceFull,
    Rebuild,
    BreakDown,
}

const UNIT_KINDS: [UnitKind; 8] = [
    UnitKind::ToHex,
    UnitKind::Retreat,
    UnitKind::Stiff,
    UnitKind::Loss,
    UnitKind::Replace,
    UnitKind::ReplaceFull,
    UnitKind::Rebuild,
    UnitKind::BreakDown,
];

/// A head: a unit-less kind (its head value) or a kind and its unit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Head {
    Plain(usize),
    Unit(UnitKind, usize),
}

/// The numbers of units and hexes the steps are sized by.
#[derive(Clone, Copy)]
struct Shape {
    u: usize,
    h: usize,
}

impl Shape {
    fn of(sc: &Scenario) -> Shape {
        Shape {
            u: sc.units.len(),
            h: sc.hexes.len(),
        }
    }

    fn sizes(self) -> [usize; 3] {
        [
            UNITLESS + UNIT_KINDS.len() * self.u,
            self.h.max(self.u),
            LAST,
        ]
    }

    fn head(self, v: usize) -> Option<Head> {
        if v < UNITLESS {
            return Some(Head::Plain(v));
        }
        let k = v - UNITLESS;
        let kind = *UNIT_KINDS.get(k / self.u.max(1))?;
        Some(Head::Unit(kind, k % self.u.max(1)))
    }

    fn value(self, head: Head) -> usize {
        match head {
            Head::Plain(v) => v,
            Head::Unit(kind, u) => {
                let k = UNIT_KINDS.iter().position(|&x| x == kind).unwrap_or(0);
                UNITLESS + k * self.u + u
            }
        }
    }

    /// The steps a command of `head` takes.
    fn len(self, head: Head) -> usize {
        match head {
            Head::Plain(BOMBARD | ATTACK | ARTILLERY | AIR_UNIT) => 3,
            Head::Plain(AIRCRAFT | KRESS) => 2,
            Head::Plain(_) => 1,
            Head::Unit(UnitKind::Stiff | UnitKind::Loss | UnitKind::BreakDown, _) => 1,
            Head::Unit(..) => 2,
        }
    }

    /// The values step `step` (1 or 2) takes after `head`, and what they are.
    fn range(self, head: Head, step: usize) -> (usize, &'static str) {
        match (head, step) {
            (Head::Unit(UnitKind::Rebuild, _), 1) => (self.u, "unit"),
            (_, 1) => (self.h, "hex"),
            (Head::Plain(BOMBARD), _) => (2, "marker choice (markers − 1)"),
            (Head::Plain(ATTACK), _) => (LAST, "direction set"),
            (Head::Plain(ARTILLERY), _) => (4, "choice 2·(markers − 1) + gas"),
            (Head::Plain(AIR_UNIT), _) => (2, "observe choice"),
            _ => (0, "value"),
        }
    }
}

/// The name of a head's command, for messages.
fn head_name(head: Head) -> String {
    match head {
        Head::Plain(v) => [
            "done",
            "support_fire (commit)",
            "support_fire (pass)",
            "lost_battalion (decline)",
            "lost_battalion (declare)",
            "bombard",
            "attack",
            "place_aircraft",
            "artillery",
            "air_unit",
            "kress",
        ]
        .get(v)
        .copied()
        .unwrap_or("?")
        .to_string(),
        Head::Unit(kind, u) => {
            let k = match kind {
                UnitKind::ToHex => "place/move/advance",
                UnitKind::Retreat => "retreat",
                UnitKind::Stiff => "stiff_resistance",
                UnitKind::Loss => "choose_loss",
                UnitKind::Replace => "replace",
                UnitKind::ReplaceFull => "replace (full)",
                UnitKind::Rebuild => "rebuild",
                UnitKind::BreakDown => "break_down",
            };
            format!("{k} of unit {u}")
        }
    }
}

/// The step sizes of a scenario's factored action space: `[11 + 8U, max(H, U), 64]`.
pub fn factored_sizes(sc: &Scenario) -> Vec<usize> {
    Shape::of(sc).sizes().to_vec()
}

/// Checks a sequence: each value an option of its step, no value past the command's
/// end. Returns its head (`None` for the empty sequence) and whether it is complete.
fn check(sc: &Scenario, seq: &[usize]) -> Result<(Option<Head>, bool), FactoredError> {
    let shape = Shape::of(sc);
    let Some(&first) = seq.first() else {
        return Ok((None, false));
    };
    let size0 = shape.sizes()[0];
    let head = shape
        .head(first)
        .filter(|_| first < size0)
        .ok_or_else(|| below(0, first, size0))?;
    let n = shape.len(head);
    if seq.len() > n {
        return Err(FactoredError::Complete {
            seq: seq.to_vec(),
            len: n,
            next: n,
        });
    }
    for (step, &v) in seq.iter().enumerate().skip(1) {
        let (range, what) = shape.range(head, step);
        let invalid = |why: String| FactoredError::Invalid {
            step,
            value: v,
            why,
        };
        if v >= range {
            return Err(invalid(format!(
                "is not a {what} of `{}` (0 to {})",
                head_name(head),
                range - 1
            )));
        }
        match (head, step) {
            (Head::Plain(ATTACK), 2) if v == 0 => {
                return Err(invalid(
                    "is no attack: a direction set has at least one direction (1 to 63)".into(),
                ))
            }
            (Head::Unit(UnitKind::Rebuild, u), 1) if v < u => {
                return Err(invalid(format!(
                "is listed before unit {u}: two units rebuild as [head of the first, the second]"
            )))
            }
            _ => {}
        }
    }
    Ok((Some(head), seq.len() == n))
}

/// Whether a well-formed sequence is complete ([`crate::Game::factored_complete`]).
///
/// # Errors
/// A value that is no option of its step, or one past the command's end.
pub fn factored_complete(sc: &Scenario, seq: &[usize]) -> Result<bool, FactoredError> {
    check(sc, seq).map(|(_, complete)| complete)
}

/// The flat action index ([`crate::command_to_index`]) of a complete sequence.
///
/// ```
/// use fm_core::{factored_to_flat, flat_to_factored, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let h = sc.hexes.len();
/// // Unit 2 to hex 7: flat index 3 + 2·H + 7.
/// let head = 11 + 2;
/// assert_eq!(factored_to_flat(&sc, &[head, 7]), Ok(3 + 2 * h + 7));
/// assert_eq!(flat_to_factored(&sc, 3 + 2 * h + 7), Ok(vec![head, 7]));
/// assert!(factored_to_flat(&sc, &[head]).is_err()); // the hex is missing
/// ```
///
/// # Errors
/// As [`factored_complete`], and [`FactoredError::Incomplete`].
pub fn factored_to_flat(sc: &Scenario, seq: &[usize]) -> Result<usize, FactoredError> {
    let shape = Shape::of(sc);
    let (head, complete) = check(sc, seq)?;
    let Some(head) = head.filter(|_| complete) else {
        return Err(FactoredError::Incomplete {
            seq: seq.to_vec(),
            needed: head.map_or(1, |h| shape.len(h)),
        });
    };
    let l = layout(sc);
    let a = |k: usize| seq.get(k).copied().unwrap_or(0);
    Ok(match head {
        Head::Plain(DONE) => 0,
        Head::Plain(SF_COMMIT) => 1,
        Head::Plain(SF_PASS) => 2,
        Head::Plain(LB_DECLINE) => l.lb,
        Head::Plain(LB_DECLARE) => l.lb + 1,
        Head::Plain(BOMBARD) => l.b + 2 * a(1) + a(2),
        Head::Plain(ATTACK) => l.a + 64 * a(1) + a(2),
        Head::Plain(AIRCRAFT) => l.ac + a(1),
        Head::Plain(ARTILLERY) => l.ar + 4 * a(1) + a(2),
        Head::Plain(AIR_UNIT) => l.au + 2 * a(1) + a(2),
        Head::Plain(_) => l.kr + a(1),
        Head::Unit(kind, u) => match kind {
            UnitKind::ToHex => 3 + u * l.h + a(1),
            UnitKind::Retreat => l.r + u * l.h + a(1),
            UnitKind::Stiff => l.s + u,
            UnitKind::Loss => l.l + u,
            UnitKind::Replace => l.x + u * l.h + a(1),
            UnitKind::ReplaceFull => l.rf + u * l.h + a(1),
            UnitKind::Rebuild if a(1) == u => l.rb + u,
            UnitKind::Rebuild => l.rb + l.u + u * l.u + a(1),
            UnitKind::BreakDown => l.bd + u,
        },
    })
}

/// A factored sequence of at most three values, made without allocating.
#[derive(Clone, Copy)]
struct Seq {
    v: [usize; 3],
    len: usize,
}

impl Seq {
    fn of(values: &[usize]) -> Seq {
        let mut v = [0; 3];
        v[..values.len()].copy_from_slice(values);
        Seq {
            v,
            len: values.len(),
        }
    }

    fn as_slice(&self) -> &[usize] {
        &self.v[..self.len]
    }
}

/// The factored sequence of a flat action index.
///
/// # Errors
/// [`FactoredError::Index`] for an index outside the action space, or one that stands
/// for no command (an attack with no direction, two rebuilt units out of order).
pub fn flat_to_factored(sc: &Scenario, index: usize) -> Result<Vec<usize>, FactoredError> {
    seq_of(Shape::of(sc), &layout(sc), index).map(|s| s.as_slice().to_vec())
}

/// [`flat_to_factored`] with the scenario's shape and flat layout at hand.
fn seq_of(shape: Shape, l: &Layout, index: usize) -> Result<Seq, FactoredError> {
    if index >= l.end {
        return Err(out_of_space(index, l.end));
    }
    seq_at(shape, l, index).ok_or_else(|| FactoredError::Index {
        index,
        why: if index < l.x {
            "stands for no command (an attack from no direction)".into()
        } else {
            "stands for no command (a rebuild of two units listed out of order)".into()
        },
    })
}

/// The sequence of flat index `index` (below the space's end), `None` where it stands
/// for no command: small enough to return in registers, for the listings that convert
/// every legal index.
// Always inlined: a call returns the sequence through memory, and reading it back
// whole from its piecewise stores stalls the loop that converts every listed index.
#[inline(always)]
fn seq_at(shape: Shape, l: &Layout, index: usize) -> Option<Seq> {
    let unit = |kind: UnitKind, u: usize| shape.value(Head::Unit(kind, u));
    let seq = match index {
        0 => Seq::of(&[DONE]),
        1 => Seq::of(&[SF_COMMIT]),
        2 => Seq::of(&[SF_PASS]),
        i if i < l.r => Seq::of(&[unit(UnitKind::ToHex, (i - 3) / l.h), (i - 3) % l.h]),
        i if i < l.s => Seq::of(&[unit(UnitKind::Retreat, (i - l.r) / l.h), (i - l.r) % l.h]),
        i if i < l.l => Seq::of(&[unit(UnitKind::Stiff, i - l.s)]),
        i if i < l.b => Seq::of(&[unit(UnitKind::Loss, i - l.l)]),
        i if i < l.a => Seq::of(&[BOMBARD, (i - l.b) / 2, (i - l.b) % 2]),
        i if i < l.x => {
            let k = i - l.a;
            if k % 64 == 0 {
                return None;
            }
            Seq::of(&[ATTACK, k / 64, k % 64])
        }
        i if i < l.rb => Seq::of(&[unit(UnitKind::Replace, (i - l.x) / l.h), (i - l.x) % l.h]),
        i if i < l.bd => {
            let k = i - l.rb;
            if k < l.u {
                Seq::of(&[unit(UnitKind::Rebuild, k), k])
            } else {
                let (a, b) = ((k - l.u) / l.u, (k - l.u) % l.u);
                if a >= b {
                    return None;
                }
                Seq::of(&[unit(UnitKind::Rebuild, a), b])
            }
        }
        i if i < l.ac => Seq::of(&[unit(UnitKind::BreakDown, i - l.bd)]),
        i if i < l.ar => Seq::of(&[AIRCRAFT, i - l.ac]),
        i if i < l.lb => Seq::of(&[ARTILLERY, (i - l.ar) / 4, (i - l.ar) % 4]),
        i if i < l.rf => Seq::of(&[LB_DECLINE + (i - l.lb)]),
        i if i < l.au => Seq::of(&[
            unit(UnitKind::ReplaceFull, (i - l.rf) / l.h),
            (i - l.rf) % l.h,
        ]),
        i if i < l.kr => Seq::of(&[AIR_UNIT, (i - l.au) / 2, (i - l.au) % 2]),
        i => Seq::of(&[KRESS, i - l.kr]),
    };
    Some(seq)
}

/// The options of step `prefix.len()` after `prefix` in this state, ascending: the
/// values that continue it towards at least one legal command (see the module
/// documentation for what each decision lists).
///
/// ```
/// use fm_core::{factored_options, factored_to_flat, legal_indices, new_game, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, _) = new_game(&sc, &mut fm_core::rng_from_seed(1));
/// // Set-up: the units that can be placed, then one unit's hexes.
/// let heads = factored_options(&sc, &state, &[]).unwrap();
/// let hexes = factored_options(&sc, &state, &[heads[0]]).unwrap();
/// let flat = factored_to_flat(&sc, &[heads[0], hexes[0]]).unwrap();
/// assert!(legal_indices(&sc, &state).contains(&flat));
/// ```
///
/// # Errors
/// A malformed or complete prefix, or one no legal command starts with
/// ([`FactoredError`]).
pub fn factored_options(
    sc: &Scenario,
    s: &State,
    prefix: &[usize],
) -> Result<Vec<usize>, FactoredError> {
    options_from(sc, s, prefix, || Fresh::new(sc, s))
}

/// [`factored_options`], the moves from the [`MoveSource`] `source` makes.
pub(crate) fn options_from<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    prefix: &[usize],
    source: impl FnOnce() -> S,
) -> Result<Vec<usize>, FactoredError> {
    let (head, complete) = check(sc, prefix)?;
    if complete {
        return Err(FactoredError::Complete {
            seq: prefix.to_vec(),
            len: prefix.len(),
            next: prefix.len(),
        });
    }
    let mut out = match s.pending() {
        Pending::Setup { side } => setup_options(sc, s, side, head),
        Pending::Phase {
            phase: Phase::Movement | Phase::MobileMovement,
            ..
        } => movement_options(sc, s, prefix, head, source),
        Pending::Phase {
            side,
            phase: Phase::Combat | Phase::MobileCombat,
        } => combat_options(sc, s, side, prefix, head),
        _ => among(sc, &legal_indices_from(sc, s, source), prefix),
    };
    out.sort_unstable();
    out.dedup();
    if out.is_empty() && !prefix.is_empty() {
        return Err(FactoredError::NotLegal {
            prefix: prefix.to_vec(),
        });
    }
    Ok(out)
}

/// The options after `prefix` among the flat indices `flat` (unsorted: the caller
/// sorts).
fn among(sc: &Scenario, flat: &[usize], prefix: &[usize]) -> Vec<usize> {
    let (shape, l, k) = (Shape::of(sc), layout(sc), prefix.len());
    let mut out = Vec::new();
    for &i in flat {
        if i >= l.end {
            continue;
        }
        let Some(seq) = seq_at(shape, &l, i) else {
            continue;
        };
        // The prefix compared value by value (a slice comparison calls `memcmp`,
        // dearer than the two values at most); a run of one block of the flat
        // encoding gives one value again and again, kept once.
        if seq.len > k
            && prefix.iter().zip(&seq.v).all(|(a, b)| a == b)
            && out.last() != Some(&seq.v[k])
        {
            out.push(seq.v[k]);
        }
    }
    out
}

/// The options after `prefix` among the game's phase commands
/// ([`ExclusiveRules::phase_command_indices`]).
fn phase_options(sc: &Scenario, s: &State, prefix: &[usize]) -> Vec<usize> {
    let mut flat = Vec::new();
    sc.rules().phase_command_indices(sc, s, &mut flat);
    among(sc, &flat, prefix)
}

/// Set-up (3.0): only placements are legal.
fn setup_options(sc: &Scenario, s: &State, side: Side, head: Option<Head>) -> Vec<usize> {
    let mut cache = PlacementCache::default();
    let zone = |i: usize| {
        let d = &sc.units[i].data;
        match &d.start {
            StartData::Zone(z) if s.units[i].loc == Location::ToPlace && d.side == side => {
                Some(&sc.zones[z])
            }
            _ => None,
        }
    };
    match head {
        None => (0..s.units.len())
            .filter(|&i| {
                zone(i)
                    .is_some_and(|hexes| hexes.iter().any(|&h| may_place(sc, s, i, h, &mut cache)))
            })
            .map(|i| Shape::of(sc).value(Head::Unit(UnitKind::ToHex, i)))
            .collect(),
        Some(Head::Unit(UnitKind::ToHex, i)) => zone(i)
            .map(|hexes| {
                hexes
                    .iter()
                    .copied()
                    .filter(|&h| may_place(sc, s, i, h, &mut cache))
                    .map(usize::from)
                    .collect()
            })
            .unwrap_or_default(),
        Some(_) => Vec::new(),
    }
}

/// A movement phase: `done`, the game's phase commands, each unit's moves.
fn movement_options<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    prefix: &[usize],
    head: Option<Head>,
    source: impl FnOnce() -> S,
) -> Vec<usize> {
    let shape = Shape::of(sc);
    match head {
        None => {
            let mut out = phase_options(sc, s, prefix);
            out.push(DONE);
            let mut src = source();
            for i in 0..s.units.len() {
                let rail = || {
                    sc.rules()
                        .extra_moves(sc, s, i)
                        .iter()
                        .any(|(h, _)| sc.hex_index(*h).is_some())
                };
                if src.has_normal_end(sc, i) || rail() {
                    out.push(shape.value(Head::Unit(UnitKind::ToHex, i)));
                }
            }
            out
        }
        // A unit's moves alone: no phase command is a move
        // (`ExclusiveRules::phase_commands`).
        Some(Head::Unit(UnitKind::ToHex, i)) => {
            let mut ends = Vec::new();
            unit_ends(sc, s, &mut source(), i, &mut ends);
            ends.into_iter().map(usize::from).collect()
        }
        Some(_) => phase_options(sc, s, prefix),
    }
}

/// A combat phase: `done`, the game's phase commands, the attacks.
fn combat_options(
    sc: &Scenario,
    s: &State,
    side: Side,
    prefix: &[usize],
    head: Option<Head>,
) -> Vec<usize> {
    let mut out = phase_options(sc, s, prefix);
    match (head, prefix) {
        (None, _) => {
            out.push(DONE);
            if any_attack(sc, s, side) {
                out.push(ATTACK);
            }
        }
        (Some(Head::Plain(ATTACK)), [_]) => out.extend(
            attack_targets(sc, s, side)
                .filter(|&h| has_attack_set(sc, s, side, h))
                .filter_map(|h| sc.hex_index(h).map(usize::from)),
        ),
        (Some(Head::Plain(ATTACK)), &[_, h]) => {
            let hex = sc.hex_at(h as u16);
            if attack_targets(sc, s, side).any(|t| t == hex) {
                let base = layout(sc).a + 64 * h;
                out.extend(
                    attack_sets(sc, s, side, hex)
                        .into_iter()
                        .filter_map(|units| {
                            command_to_index(sc, s, &Command::Attack { hex, units })
                                .and_then(|i| i.checked_sub(base))
                        }),
                );
            }
        }
        _ => {}
    }
    out
}
