//! The legal commands of the pending decision, and their stable integer encoding (for
//! search and learning: a flat action space whose size depends only on the scenario).
//!
//! Every command [`legal_commands`] lists has an action index, and the index stands
//! for exactly that command: [`index_to_command`] of [`command_to_index`] of a listed
//! command gives it back, and [`crate::game::Game::legal_indices_memo`]'s indices decode
//! to exactly the listed commands. Commands `apply` accepts beyond the finite menu of
//! the continuous table (an officer placed or moved to a chosen point, a fire with
//! bases that are not one run of the front rank, an advance of another length, a
//! charge with an offset, any other melee outcome) have none.
//!
//! With `N` units, `O` officers, `D` divisions and `C` corps (each in scenario order,
//! side A's first), `G = N + D + C` groups, `K` = 8 base kinds ([`KINDS`]) and `B` the
//! most bases a unit can ever have ([`most_bases`]: its own, or for reserve artillery
//! every reserve artillery base of its side, which may join it in a grand battery),
//! the blocks follow each other in this order:
//!
//! | block | size | command |
//! |---|---|---|
//! | place | `N` | `place_unit` of unit `u` |
//! | end placement | 1 | `end_placement` |
//! | officer | `O` | `place_officer` of officer `o` at his default position |
//! | fire | `N·N` | `fire` of unit `u` at unit `t`, the whole unit: `u·N + t` |
//! | hold | `N` | `hold_fire` of unit `u` |
//! | remove | `N·B·K` | `remove_base` of unit `u`, rank `r`, kind `k`: `(u·B + r)·K + k` |
//! | end phase | 1 | `end_phase` |
//! | order | `O·G·4` | `order` by officer `o` to group `g` (units, then divisions, then corps) of kind `k` ([`KINDS_OF_ORDER`]): `(o·G + g)·4 + k` |
//! | act | `N·15` | unit `u`'s act menu slot ([`ACT_SLOTS`]) |
//! | end order | 1 | `end_order` |
//! | charge | `N·N` | `charge` of unit `u` at unit `t`, no offset: `u·N + t` |
//! | melee | 5 | the pending melee's menu slot ([`MELEE_SLOTS`]) |
//! | rally | `2N` | `rally` of unit `u`: `2u` rallies, `2u + 1` does not |
//! | deploy | `N·18` | unit `u`'s deploy menu slot ([`DEPLOY_SLOTS`]) |
//! | appoint | `O` | `appoint` in place of officer `o` ([`appoint_command`]) |
//! | fire with bases | `N·N·B(B+1)/2` | `fire` of unit `u` at unit `t` with the bases `s..e` (`0 ≤ s < e ≤ B`, numbered rank by rank from the front): `(u·N + t)·B(B+1)/2 + e(e−1)/2 + s` |
//!
//! The last block holds every fire with fewer bases the menu offers (page 12: a run of
//! the front rank, which has at most `B` bases). It, and the act, melee and deploy
//! blocks, are menus read in the state ([`group_options`], [`act_command`],
//! [`deploy_command`]): their indices stand for a command only while the menu offers
//! it, so an index the listing does not hold is refused or means nothing. Every other
//! index stands for one command whatever the state.

use crate::huzzah::command::Direction;
use crate::huzzah::command::{Command, GroupArg};
use crate::huzzah::deploy::{
    self, check_advance_sector, check_deploy, check_enter_sector, check_join_battery,
    check_leave_sector, check_passage, check_skirmish_line, sector_name, FormationKind,
};
use crate::huzzah::engine::officers_to_place;
use crate::huzzah::firing::{group_options, removal_candidates, targets};
use crate::huzzah::geometry::Len;
use crate::huzzah::manoeuvre::{check_manoeuvre, turned_in_place};
use crate::huzzah::movement::{check_advance, check_retire, first_met, orderable, plan_charge};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::scenario::{Arm, BaseKind, Scenario, UnitIx};
use crate::huzzah::state::GroupRef;
use crate::huzzah::state::{Pending, State, Whereabouts};
use crate::ids::{Side, UnitId};

/// The base kinds in encoding order.
pub const KINDS: [BaseKind; 8] = [
    BaseKind::Infantry,
    BaseKind::IrregularInfantry,
    BaseKind::BattleCavalry,
    BaseKind::OtherCavalry,
    BaseKind::DivisionalArtillery,
    BaseKind::FootArtillery,
    BaseKind::HorseArtillery,
    BaseKind::HeavyArtillery,
];

/// The legal commands, in a stable order.
pub fn legal_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    let id = |u: UnitIx| sc.unit(u).id.to_string();
    // The pending decision names units by id; the listing works on indices.
    let ixs =
        |ids: &[UnitId]| -> Vec<UnitIx> { ids.iter().filter_map(|i| sc.unit_ix_of(i)).collect() };
    match &s.pending {
        Pending::Opening | Pending::GameOver { .. } => Vec::new(),
        Pending::PlaceUnits {
            side,
            min,
            max,
            placed,
        } => {
            let mut out = Vec::new();
            if placed < max {
                out.extend(
                    sc.unit_ixs(*side)
                        .filter(|u| s.unit(*u).at == Whereabouts::Unplaced)
                        .map(|u| Command::PlaceUnit { unit: id(u) }),
                );
            }
            if placed >= min {
                out.push(Command::EndPlacement);
            }
            out
        }
        Pending::PlaceOfficer { side } => officers_to_place(sc, s, *side)
            .map(|o| Command::PlaceOfficer {
                officer: sc.officers()[o as usize].id.clone(),
                at: None,
            })
            .collect(),
        Pending::DeclareFire { units, .. } => {
            let mut out = Vec::new();
            for u in &ixs(units) {
                for t in targets(sc, s, *u) {
                    out.push(Command::Fire {
                        unit: id(*u),
                        target: id(t.target),
                        bases: None,
                    });
                }
                for (t, g) in group_options(sc, s, *u) {
                    out.push(Command::Fire {
                        unit: id(*u),
                        target: id(t),
                        bases: Some(g),
                    });
                }
                out.push(Command::HoldFire { unit: id(*u) });
            }
            out
        }
        Pending::RemoveBase { unit, .. } => ixs(std::slice::from_ref(unit))
            .into_iter()
            .flat_map(|unit| {
                removal_candidates(sc, s, unit)
                    .into_iter()
                    .map(move |c| Command::RemoveBase {
                        unit: id(unit),
                        rank: c.rank,
                        kind: c.kind,
                    })
            })
            .collect(),
        Pending::FireAtCharger { unit, chargers, .. } => ixs(chargers)
            .iter()
            .map(|c| Command::Fire {
                unit: unit.to_string(),
                target: id(*c),
                bases: None,
            })
            .collect(),
        Pending::Orders { side } => {
            let mut out = Vec::new();
            for o in sc.officers_of(*side) {
                if crate::huzzah::missing::appointable(sc, s, *side).contains(&o.ix.index()) {
                    out.push(appoint_command(sc, o.ix.index()));
                }
                for (g, _) in orderable(sc, s, o.ix) {
                    for order in KINDS_OF_ORDER {
                        out.push(Command::Order {
                            officer: o.id.clone(),
                            group: group_arg(sc, g),
                            order,
                        });
                    }
                }
            }
            out.push(Command::EndPhase);
            out
        }
        Pending::Melee { a, b, .. } => (0..MELEE_SLOTS)
            .filter_map(|k| melee_command(sc, a, b, k))
            .collect(),
        Pending::Rally { units, .. } => {
            let mut out: Vec<Command> = ixs(units)
                .iter()
                .flat_map(|u| {
                    [true, false].map(|rallies| Command::Rally {
                        unit: id(*u),
                        rallies,
                    })
                })
                .collect();
            out.push(Command::EndPhase);
            out
        }
        Pending::MoveOfficers { .. } => vec![Command::EndPhase],
        Pending::Act { units, order, .. } => {
            let mut out = Vec::new();
            for u in &ixs(units) {
                if let (OrderKind::Advance, Some(a)) = (*order, &s.orders.active) {
                    for t in first_met(sc, s, *u, a.rate) {
                        if plan_charge(sc, s, *u, t, None).is_ok() {
                            out.push(Command::Charge {
                                unit: id(*u),
                                target: id(t),
                                offset_mm: None,
                            });
                        }
                    }
                }
                for slot in 0..ACT_SLOTS {
                    if let Some(c) = act_command(sc, s, *u, slot) {
                        out.push(c);
                    }
                }
                for slot in 0..DEPLOY_SLOTS {
                    if let Some(c) = deploy_command(sc, s, *u, slot) {
                        out.push(c);
                    }
                }
            }
            out.push(Command::EndOrder);
            out
        }
    }
}

/// The menu slots of a unit acting on an order: advance full or half its group's move,
/// each with a drift of −5, 0 or +5 cm; retire the full half-move or half of that;
/// from dense terrain, advance into the first or second adjacent sector it may; a
/// manoeuvre turning in place (about its centre) 45° right or left, 90° right or left,
/// or about.
pub const ACT_SLOTS: usize = 15;

/// The manoeuvre turns of act slots 10 to 14, in degrees clockwise.
const TURNS: [i32; 5] = [45, -45, 90, -90, 180];

fn mm(p: crate::huzzah::geometry::Point) -> [i64; 2] {
    [p.x.0.div_euclid(10), p.y.0.div_euclid(10)]
}

/// The command of a menu slot for a unit acting on the active order, if it is legal.
pub fn act_command(sc: &Scenario, s: &State, u: UnitIx, slot: usize) -> Option<Command> {
    let a = s.orders.active.as_ref()?;
    let mm = a.rate.0 / 10;
    let id = sc.unit(u).id.to_string();
    let c = match (a.kind, slot) {
        (OrderKind::Advance, 0..=5) => {
            let d = if slot < 3 { mm } else { mm / 2 };
            let drift = [-50, 0, 50][slot % 3];
            Command::Advance {
                unit: id,
                distance_mm: Len::mm(d),
                drift_mm: Len::mm(drift),
            }
        }
        (OrderKind::Retire, 6 | 7) => Command::Retire {
            unit: id,
            distance_mm: Len::mm(if slot == 6 { mm / 2 } else { mm / 4 }),
        },
        (OrderKind::Advance, 8 | 9) => {
            s.unit(u).sector?;
            let sec = deploy::all_sectors(sc)
                .into_iter()
                .filter(|x| check_advance_sector(sc, s, u, *x).is_ok())
                .nth(slot - 8)?;
            return Some(Command::AdvanceSector {
                unit: id,
                sector: sector_name(sc, sec),
            });
        }
        (OrderKind::Manoeuvre, 10..=14) => {
            let end = turned_in_place(&s.unit(u).shape, TURNS[slot - 10]);
            // The command is in whole millimetres: check the shape it stands for.
            let anchor = self::mm(end.anchor);
            let end = end.with_anchor(crate::huzzah::geometry::Point::new(
                Len::mm(anchor[0]),
                Len::mm(anchor[1]),
            ));
            check_manoeuvre(sc, s, u, &end).ok()?;
            return Some(Command::Manoeuvre {
                unit: id,
                anchor: [Len::mm(anchor[0]), Len::mm(anchor[1])],
                facing: end.facing.0,
            });
        }
        _ => return None,
    };
    let ok = match &c {
        Command::Advance {
            distance_mm,
            drift_mm,
            ..
        } => check_advance(sc, s, u, *distance_mm, *drift_mm).is_ok(),
        Command::Retire { distance_mm, .. } => check_retire(sc, s, u, *distance_mm).is_ok(),
        _ => false,
    };
    ok.then_some(c)
}

/// The menu of melee outcomes offered for a decided melee: drawn; side A's unit wins
/// with 1 or 3 hits on the loser (falling back 5 cm a hit); side B's the same.
pub const MELEE_SLOTS: usize = 5;

fn melee_command(sc: &Scenario, a: &UnitId, b: &UnitId, k: usize) -> Option<Command> {
    let (a, b) = (sc.unit_ix_of(a)?, sc.unit_ix_of(b)?);
    let (winner, hits) = match k {
        0 => (None, 0u8),
        1 => (Some(Side::A), 1),
        2 => (Some(Side::A), 3),
        3 => (Some(Side::B), 1),
        _ => (Some(Side::B), 3),
    };
    Some(Command::MeleeResult {
        a: sc.unit(a).id.to_string(),
        b: sc.unit(b).id.to_string(),
        winner,
        hits_a: if winner == Some(Side::B) { hits } else { 0 },
        hits_b: if winner == Some(Side::A) { hits } else { 0 },
        loser_falls_back_mm: Len::mm(50 * hits as i64),
        loser_routs: false,
    })
}

/// The deploy menu of a unit on a deploy order: the formations, its front-left base
/// staying put (0 one line, 1 a line with a support rank, 2 a road column, 3 a
/// square); 4 one base or 5 every base it may into the skirmish line; joining the
/// first (6 at its right end, 7 at its left) or second (8, 9) battery in reach; 10
/// entering the first or 11 the second sector it touches; 12-15 leaving its sector
/// ahead, back, left or right; 16, 17 a passage of lines with the first or second
/// unit it may.
pub const DEPLOY_SLOTS: usize = 18;

/// The command of a deploy menu slot, if it is legal (and, for a formation, changes
/// it).
pub fn deploy_command(sc: &Scenario, s: &State, u: UnitIx, slot: usize) -> Option<Command> {
    if slot >= 4 {
        return other_deploy_command(sc, s, u, slot);
    }
    let n = s.unit(u).bases.len() as u8;
    let (formation, ranks) = match slot {
        0 => (FormationKind::Line, vec![n]),
        1 if n >= 4 => (FormationKind::Line, vec![n / 2, n - n / 2]),
        2 => (FormationKind::Column, vec![1; n as usize]),
        3 if n >= 2 => (FormationKind::Square, vec![n / 2, n - n / 2]),
        _ => return None,
    };
    let st = s.unit(u);
    let same = st.shape.ranks == ranks
        && st.shape.square == (formation == FormationKind::Square)
        && st.column == (formation == FormationKind::Column);
    if same {
        return None;
    }
    check_deploy(sc, s, u, formation, &ranks, 0, 0).ok()?;
    Some(Command::Deploy {
        unit: sc.unit(u).id.to_string(),
        formation,
        ranks,
        anchor: 0,
        anchor_to: 0,
    })
}

fn group_arg(sc: &Scenario, g: GroupRef) -> GroupArg {
    match g {
        GroupRef::Unit(u) => GroupArg::Unit(sc.unit(u).id.to_string()),
        GroupRef::Division(d) => GroupArg::Division(sc.division(d).id.clone()),
        GroupRef::Corps(c) => GroupArg::Corps(sc.corps(c).id.clone()),
    }
}

/// The kinds of order in encoding order.
pub const KINDS_OF_ORDER: [OrderKind; 4] = [
    OrderKind::Advance,
    OrderKind::Retire,
    OrderKind::Deploy,
    OrderKind::Manoeuvre,
];

/// The most bases a unit of the scenario can ever have, which bounds its ranks and its
/// front rank: its own bases, or for reserve artillery every reserve artillery base of
/// its side (page 22: batteries join a grand battery, which only grows). At least 1.
pub fn most_bases(sc: &Scenario) -> usize {
    let artillery = |side: Side| -> usize {
        sc.units_of(side)
            .iter()
            .filter(|u| u.arm == Arm::Artillery)
            .map(|u| u.bases.len())
            .sum()
    };
    sc.units()
        .iter()
        .map(|u| match u.arm {
            Arm::Artillery => artillery(u.side),
            _ => u.bases.len(),
        })
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The number of runs `s..e` (`0 ≤ s < e ≤ b`) of `b` bases.
fn runs(b: usize) -> usize {
    b * (b + 1) / 2
}

/// A run's slot: by its end `e`, then its start `s` (`e(e−1)/2 + s`).
fn run_slot(s: usize, e: usize) -> usize {
    e * (e - 1) / 2 + s
}

/// The run `(s, e)` of a slot ([`run_slot`]'s inverse).
fn slot_run(k: usize) -> (usize, usize) {
    let mut e = 1;
    while run_slot(0, e + 1) <= k {
        e += 1;
    }
    (k - run_slot(0, e), e)
}

/// Whether the menu offers unit `u` the fire at `t` with the bases `g` now (page 12,
/// [`group_options`]): the fire-with-bases block is a menu, like the act and deploy
/// slots, whose indices stand for a command only while it is offered.
fn offered_group_fire(sc: &Scenario, s: &State, u: UnitIx, t: UnitIx, g: &[u8]) -> bool {
    matches!(&s.pending, Pending::DeclareFire { units, .. }
        if units.iter().any(|x| sc.unit_ix_of(x) == Some(u)))
        && group_options(sc, s, u)
            .iter()
            .any(|(x, run)| *x == t && run.as_slice() == g)
}

/// The run `s..e` a firing group names, if it is one: consecutive ascending bases.
fn as_run(g: &[u8]) -> Option<(usize, usize)> {
    let s = usize::from(*g.first()?);
    g.iter()
        .enumerate()
        .all(|(i, b)| usize::from(*b) == s + i)
        .then_some((s, s + g.len()))
}

struct Blocks {
    n: usize,
    o: usize,
    d: usize,
    c: usize,
    /// [`most_bases`].
    b: usize,
}

impl Blocks {
    fn of(sc: &Scenario) -> Blocks {
        Blocks {
            n: sc.units().len(),
            o: sc.officers().len(),
            d: sc.divisions().len(),
            c: sc.corps_list().len(),
            b: most_bases(sc),
        }
    }
    fn place(&self) -> usize {
        0
    }
    fn end_placement(&self) -> usize {
        self.n
    }
    fn officer(&self) -> usize {
        self.n + 1
    }
    fn fire(&self) -> usize {
        self.officer() + self.o
    }
    fn hold(&self) -> usize {
        self.fire() + self.n * self.n
    }
    fn remove(&self) -> usize {
        self.hold() + self.n
    }
    fn end_phase(&self) -> usize {
        self.remove() + self.n * self.b * KINDS.len()
    }
    fn groups(&self) -> usize {
        self.n + self.d + self.c
    }
    fn order(&self) -> usize {
        self.end_phase() + 1
    }
    fn act(&self) -> usize {
        self.order() + self.o * self.groups() * KINDS_OF_ORDER.len()
    }
    fn end_order(&self) -> usize {
        self.act() + self.n * ACT_SLOTS
    }
    fn charge(&self) -> usize {
        self.end_order() + 1
    }
    fn melee(&self) -> usize {
        self.charge() + self.n * self.n
    }
    fn rally(&self) -> usize {
        self.melee() + MELEE_SLOTS
    }
    fn deploy(&self) -> usize {
        self.rally() + self.n * 2
    }
    fn appoint(&self) -> usize {
        self.deploy() + self.n * DEPLOY_SLOTS
    }
    fn group_fire(&self) -> usize {
        self.appoint() + self.o
    }
    fn size(&self) -> usize {
        self.group_fire() + self.n * self.n * runs(self.b)
    }
}

/// The size of the action space (the table of the module's documentation).
pub fn action_space_size(sc: &Scenario) -> usize {
    Blocks::of(sc).size()
}

/// The stable index of a command: `Some` for every command [`legal_commands`] lists,
/// `None` for a command beyond the menu (an officer placed at a chosen position, a fire
/// with bases the menu does not offer now, a charge with an offset, an act or deploy
/// command that is no slot of its menu now) or naming an unknown id.
pub fn command_to_index(sc: &Scenario, s: &State, c: &Command) -> Option<usize> {
    let b = Blocks::of(sc);
    let u = |id: &str| sc.unit_index(id).map(|u| u.0 as usize);
    Some(match c {
        Command::PlaceUnit { unit } => b.place() + u(unit)?,
        Command::EndPlacement => b.end_placement(),
        Command::PlaceOfficer { officer, at: None } => {
            b.officer() + sc.officer_index(officer)?.0 as usize
        }
        Command::PlaceOfficer { .. } => return None,
        Command::Fire {
            unit,
            target,
            bases: None,
        } => b.fire() + u(unit)? * b.n + u(target)?,
        Command::Fire {
            unit,
            target,
            bases: Some(g),
        } => {
            let (start, end) = as_run(g)?;
            let (ux, tx) = (sc.unit_index(unit)?, sc.unit_index(target)?);
            if end > b.b || !offered_group_fire(sc, s, ux, tx, g) {
                return None;
            }
            b.group_fire() + (ux.index() * b.n + tx.index()) * runs(b.b) + run_slot(start, end)
        }
        Command::HoldFire { unit } => b.hold() + u(unit)?,
        Command::RemoveBase { unit, rank, kind } => {
            let k = KINDS.iter().position(|x| x == kind)?;
            if *rank as usize >= b.b {
                return None;
            }
            b.remove() + (u(unit)? * b.b + *rank as usize) * KINDS.len() + k
        }
        Command::EndPhase => b.end_phase(),
        Command::Order {
            officer,
            group,
            order,
        } => {
            let o = sc.officer_index(officer)?.0 as usize;
            let g = match group {
                GroupArg::Unit(id) => u(id)?,
                GroupArg::Division(id) => b.n + sc.divisions().iter().position(|d| d.id == *id)?,
                GroupArg::Corps(id) => {
                    b.n + b.d + sc.corps_list().iter().position(|c| c.id == *id)?
                }
            };
            let k = KINDS_OF_ORDER.iter().position(|x| x == order)?;
            b.order() + (o * b.groups() + g) * KINDS_OF_ORDER.len() + k
        }
        Command::Advance { unit, .. }
        | Command::Retire { unit, .. }
        | Command::AdvanceSector { unit, .. }
        | Command::Manoeuvre { unit, .. } => {
            let ux = sc.unit_index(unit)?;
            let slot = (0..ACT_SLOTS).find(|k| act_command(sc, s, ux, *k).as_ref() == Some(c))?;
            b.act() + ux.0 as usize * ACT_SLOTS + slot
        }
        Command::EndOrder => b.end_order(),
        Command::Appoint { officer, .. } => {
            let o = sc.officer_index(officer)?.index();
            if appoint_command(sc, o) != *c {
                return None;
            }
            b.appoint() + o
        }
        Command::Charge {
            unit,
            target,
            offset_mm: None,
        } => b.charge() + u(unit)? * b.n + u(target)?,
        Command::Charge { .. } => return None,
        Command::MeleeResult { .. } => match &s.pending {
            Pending::Melee { a, b: ub, .. } => {
                b.melee()
                    + (0..MELEE_SLOTS).find(|k| melee_command(sc, a, ub, *k).as_ref() == Some(c))?
            }
            _ => return None,
        },
        Command::Rally { unit, rallies } => b.rally() + u(unit)? * 2 + usize::from(!*rallies),
        Command::MoveOfficer { .. } => return None,
        Command::Deploy { unit, .. }
        | Command::SkirmishLine { unit, .. }
        | Command::JoinBattery { unit, .. }
        | Command::EnterSector { unit, .. }
        | Command::LeaveSector { unit, .. }
        | Command::PassageOfLines { unit, .. } => {
            let ux = sc.unit_index(unit)?;
            let slot =
                (0..DEPLOY_SLOTS).find(|k| deploy_command(sc, s, ux, *k).as_ref() == Some(c))?;
            b.deploy() + ux.0 as usize * DEPLOY_SLOTS + slot
        }
    })
}

/// The command an index stands for now: whether or not it is legal for a plain index,
/// only when its menu offers it for a menu slot (act, melee, deploy, fire with bases).
pub fn index_to_command(sc: &Scenario, s: &State, i: usize) -> Option<Command> {
    let b = Blocks::of(sc);
    let id = |k: usize| sc.units().get(k).map(|u| u.id.to_string());
    if i >= b.size() {
        return None;
    }
    Some(if i < b.end_placement() {
        Command::PlaceUnit { unit: id(i)? }
    } else if i == b.end_placement() {
        Command::EndPlacement
    } else if i < b.fire() {
        Command::PlaceOfficer {
            officer: sc.officers().get(i - b.officer())?.id.clone(),
            at: None,
        }
    } else if i < b.hold() {
        let k = i - b.fire();
        Command::Fire {
            unit: id(k / b.n)?,
            target: id(k % b.n)?,
            bases: None,
        }
    } else if i < b.remove() {
        Command::HoldFire {
            unit: id(i - b.hold())?,
        }
    } else if i < b.end_phase() {
        let k = i - b.remove();
        let kind = KINDS[k % KINDS.len()];
        let rest = k / KINDS.len();
        Command::RemoveBase {
            unit: id(rest / b.b)?,
            rank: (rest % b.b) as u8,
            kind,
        }
    } else if i == b.end_phase() {
        Command::EndPhase
    } else if i < b.act() {
        let k = i - b.order();
        let order = KINDS_OF_ORDER[k % KINDS_OF_ORDER.len()];
        let rest = k / KINDS_OF_ORDER.len();
        let (o, g) = (rest / b.groups(), rest % b.groups());
        let group = if g < b.n {
            GroupArg::Unit(id(g)?)
        } else if g < b.n + b.d {
            GroupArg::Division(sc.divisions().get(g - b.n)?.id.clone())
        } else {
            GroupArg::Corps(sc.corps_list().get(g - b.n - b.d)?.id.clone())
        };
        Command::Order {
            officer: sc.officers().get(o)?.id.clone(),
            group,
            order,
        }
    } else if i < b.end_order() {
        let k = i - b.act();
        return act_command(sc, s, UnitIx((k / ACT_SLOTS) as u16), k % ACT_SLOTS);
    } else if i == b.end_order() {
        Command::EndOrder
    } else if i < b.melee() {
        let k = i - b.charge();
        Command::Charge {
            unit: id(k / b.n)?,
            target: id(k % b.n)?,
            offset_mm: None,
        }
    } else if i < b.rally() {
        match &s.pending {
            Pending::Melee { a, b: ub, .. } => melee_command(sc, a, ub, i - b.melee())?,
            _ => return None,
        }
    } else if i < b.deploy() {
        let k = i - b.rally();
        Command::Rally {
            unit: id(k / 2)?,
            rallies: k % 2 == 0,
        }
    } else if i < b.appoint() {
        let k = i - b.deploy();
        return deploy_command(sc, s, UnitIx((k / DEPLOY_SLOTS) as u16), k % DEPLOY_SLOTS);
    } else if i < b.group_fire() {
        appoint_command(sc, i - b.appoint())
    } else {
        let k = i - b.group_fire();
        let (pair, (start, end)) = (k / runs(b.b), slot_run(k % runs(b.b)));
        let (ux, tx) = (UnitIx((pair / b.n) as u16), UnitIx((pair % b.n) as u16));
        let g: Vec<u8> = (start as u8..end as u8).collect();
        if !offered_group_fire(sc, s, ux, tx, &g) {
            return None;
        }
        Command::Fire {
            unit: id(ux.index())?,
            target: id(tx.index())?,
            bases: Some(g),
        }
    })
}

fn other_deploy_command(sc: &Scenario, s: &State, u: UnitIx, slot: usize) -> Option<Command> {
    let id = sc.unit(u).id.to_string();
    match slot {
        4 | 5 => {
            let max = deploy::skirmish_bases(sc, s, u);
            let n = if slot == 4 { 1 } else { max };
            if n == 0 || (slot == 5 && max <= 1) {
                return None;
            }
            check_skirmish_line(sc, s, u, n).ok()?;
            Some(Command::SkirmishLine { unit: id, bases: n })
        }
        6..=9 => {
            let b = *deploy::batteries_in_reach(sc, s, u).get((slot - 6) / 2)?;
            let left = slot % 2 == 1;
            check_join_battery(sc, s, u, b, left).ok()?;
            Some(Command::JoinBattery {
                unit: id,
                battery: sc.unit(b).id.to_string(),
                left,
            })
        }
        10 | 11 => {
            if s.unit(u).sector.is_some() || !deploy::may_hold_sectors(sc, u) {
                return None;
            }
            let sec = deploy::all_sectors(sc)
                .into_iter()
                .filter(|x| check_enter_sector(sc, s, u, *x, None).is_ok())
                .nth(slot - 10)?;
            Some(Command::EnterSector {
                unit: id,
                sector: sector_name(sc, sec),
                at: None,
            })
        }
        12..=15 => {
            s.unit(u).sector?;
            let direction = Direction::ALL[slot - 12];
            check_leave_sector(sc, s, u, direction).ok()?;
            Some(Command::LeaveSector {
                unit: id,
                direction,
            })
        }
        16 | 17 => {
            let units = &s.orders.active.as_ref()?.units;
            let w = *units
                .iter()
                .filter(|w| check_passage(sc, s, u, **w).is_ok())
                .nth(slot - 16)?;
            Some(Command::PassageOfLines {
                unit: id,
                with: sc.unit(w).id.to_string(),
            })
        }
        _ => None,
    }
}

/// The appointment the menu offers in place of officer `o` (page 16): under
/// `"decide"` a successor of the lost officer's own quality and trait (any other is
/// accepted as a command); under `"stand_in"` the stand-in's; beside the CinC.
pub fn appoint_command(sc: &Scenario, o: usize) -> Command {
    let def = &sc.officers()[o];
    let decide = sc.missing_rules() == crate::huzzah::scenario::MissingRules::Decide;
    Command::Appoint {
        officer: def.id.clone(),
        quality: decide.then_some(def.quality),
        inspirational: decide && def.inspirational,
        at: None,
    }
}
