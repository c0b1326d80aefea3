//! The legal commands of the pending decision, and their stable integer encoding (for
//! search and learning: a flat action space whose size depends only on the scenario).
//!
//! Two kinds of legal command have no index: an officer placed at a position of the
//! player's choosing (the table is continuous: the listing offers each officer at his
//! default position, which has one), and a fire with fewer bases (page 12: the listing
//! offers each contiguous run of the front rank that brings a target into range or
//! close range that the whole unit does not reach so).

use crate::huzzah::command::Command;
use crate::huzzah::engine::officers_to_place;
use crate::huzzah::firing::{group_options, removal_candidates, targets};
use crate::huzzah::scenario::{BaseKind, Scenario, UnitIx};
use crate::huzzah::state::{Pending, State, Whereabouts};

/// The most ranks a unit can have (its most bases).
pub const MAX_RANKS: usize = 24;

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
    match &s.pending {
        Pending::GameOver { .. } => Vec::new(),
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
            for u in units {
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
        Pending::RemoveBase { unit, .. } => removal_candidates(sc, s, *unit)
            .into_iter()
            .map(|c| Command::RemoveBase {
                unit: id(*unit),
                rank: c.rank,
                kind: c.kind,
            })
            .collect(),
        Pending::FireAtCharger { unit, chargers, .. } => chargers
            .iter()
            .map(|c| Command::Fire {
                unit: id(*unit),
                target: id(*c),
                bases: None,
            })
            .collect(),
        Pending::Orders { .. } => vec![Command::EndPhase],
    }
}

struct Blocks {
    n: usize,
    o: usize,
}

impl Blocks {
    fn of(sc: &Scenario) -> Blocks {
        Blocks {
            n: sc.units().len(),
            o: sc.officers().len(),
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
        self.remove() + self.n * MAX_RANKS * KINDS.len()
    }
    fn size(&self) -> usize {
        self.end_phase() + 1
    }
}

/// The size of the action space.
pub fn action_space_size(sc: &Scenario) -> usize {
    Blocks::of(sc).size()
}

/// The stable index of a command (`None` for an officer placed at a chosen position,
/// or an unknown id).
pub fn command_to_index(sc: &Scenario, c: &Command) -> Option<usize> {
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
        Command::Fire { .. } => return None,
        Command::HoldFire { unit } => b.hold() + u(unit)?,
        Command::RemoveBase { unit, rank, kind } => {
            let k = KINDS.iter().position(|x| x == kind)?;
            if *rank as usize >= MAX_RANKS {
                return None;
            }
            b.remove() + (u(unit)? * MAX_RANKS + *rank as usize) * KINDS.len() + k
        }
        Command::EndPhase => b.end_phase(),
    })
}

/// The command an index stands for (whether or not it is legal now).
pub fn index_to_command(sc: &Scenario, i: usize) -> Option<Command> {
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
            unit: id(rest / MAX_RANKS)?,
            rank: (rest % MAX_RANKS) as u8,
            kind,
        }
    } else {
        Command::EndPhase
    })
}
