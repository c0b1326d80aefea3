//! A stable integer encoding of commands, for search and reinforcement learning.
//!
//! The action space of a scenario has a fixed size ([`action_space_size`]); with `U`
//! units and `H` hexes (both in scenario order) it is laid out as:
//!
//! | range | command |
//! |---|---|
//! | 0 | `done` |
//! | 1, 2 | `support_fire` commit, pass |
//! | 3 + u·H + h | unit `u` to hex `h`: `place`, `move` (cheapest path) or `advance`, by the pending decision |
//! | R + u·H + h | `retreat` of unit `u` ending on `h` (its own hex: no retreat possible) |
//! | S + u | `stiff_resistance` of unit `u` |
//! | L + u | `choose_loss` of unit `u` |
//! | B + 2h + k | `bombard` hex `h` with k+1 markers |
//! | A + 64h + m | `attack` hex `h` with the units on the neighbours in bit set `m` (bit d = direction d) |
//! | X + u·H + h | `replace` unit `u` on hex `h` (Meuse Argonne 11.3/11.6; Vimy Ridge depleted) |
//! | RB + u | `rebuild` of unit `u`; RB + U + a·U + b (a < b): of units `a` and `b` |
//! | BD + u | `break_down` of division `u` (13.2) |
//! | AC + h | `place_aircraft` on `h` (17.3) |
//! | AR + 4h + 2(m−1) + g | `artillery` on `h` with m markers, gas g (17.2-17.7) |
//! | LB + d | `lost_battalion` declare d (18.1) |
//! | RF + u·H + h | `replace` unit `u` on hex `h` at full strength (Vimy Ridge 11.3/11.6) |
//! | AU + 2h + o | `air_unit` on `h`, observing if o = 1 (Suez 1916 18.5) |
//! | KR + h | `kress` for the attack on `h` (Suez 1916 13.1) |
//!
//! where R = 3 + U·H, S = R + U·H, L = S + U, B = L + U, A = B + 2H, X = A + 64H,
//! RB = X + U·H, BD = RB + U + U², AC = BD + U, AR = AC + H, LB = AR + 4H, RF = LB + 2,
//! AU = RF + U·H, KR = AU + 2H. Indices
//! depend only on the scenario, never on the state, so they are stable across a game.

use crate::fm::command::Command;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::legal::legal_commands;
use crate::fm::legal::{movement_indices, unit_move_to, Fresh, MoveSource};
use crate::fm::scenario::{Phase, Scenario, NO_HEX};
use crate::fm::state::{Pending, State};

/// The start of each block of the flat encoding (the table above), and the numbers
/// of hexes (`h`) and units (`u`).
pub(crate) struct Layout {
    pub(crate) h: usize,
    pub(crate) r: usize,
    pub(crate) s: usize,
    pub(crate) l: usize,
    pub(crate) b: usize,
    pub(crate) a: usize,
    pub(crate) x: usize,
    pub(crate) rb: usize,
    pub(crate) bd: usize,
    pub(crate) ac: usize,
    pub(crate) ar: usize,
    pub(crate) lb: usize,
    pub(crate) rf: usize,
    pub(crate) au: usize,
    pub(crate) kr: usize,
    pub(crate) u: usize,
    pub(crate) end: usize,
}

/// The flat encoding's [`Layout`] for a scenario.
pub(crate) fn layout(sc: &Scenario) -> Layout {
    let u = sc.units.len();
    let h = sc.hexes.len();
    let r = 3 + u * h;
    let s = r + u * h;
    let l = s + u;
    let b = l + u;
    let a = b + 2 * h;
    Layout {
        h,
        r,
        s,
        l,
        b,
        a,
        x: a + 64 * h,
        rb: a + 64 * h + u * h,
        bd: a + 64 * h + u * h + u + u * u,
        ac: a + 64 * h + u * h + 2 * u + u * u,
        ar: a + 64 * h + u * h + 2 * u + u * u + h,
        lb: a + 64 * h + u * h + 2 * u + u * u + 5 * h,
        rf: a + 64 * h + u * h + 2 * u + u * u + 5 * h + 2,
        au: a + 64 * h + u * h + 2 * u + u * u + 5 * h + 2 + u * h,
        kr: a + 64 * h + u * h + 2 * u + u * u + 5 * h + 2 + u * h + 2 * h,
        u,
        end: a + 64 * h + u * h + 2 * u + u * u + 5 * h + 2 + u * h + 3 * h,
    }
}

/// Number of distinct command indices for a scenario.
pub fn action_space_size(sc: &Scenario) -> usize {
    layout(sc).end
}

/// The index of `place_aircraft` on hex index `h` (AC + h), without building the
/// command.
pub(crate) fn aircraft_index(sc: &Scenario, h: u16) -> usize {
    layout(sc).ac + usize::from(h)
}

/// The index of a command, or `None` if it names unknown units or hexes.
///
/// ```
/// use fm_core::{command_to_index, index_to_command, legal_commands, new_game, Scenario};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, _) = new_game(&sc, &mut fm_core::rng_from_seed(1));
/// for c in legal_commands(&sc, &state) {
///     let i = command_to_index(&sc, &state, &c).unwrap();
///     assert_eq!(index_to_command(&sc, &state, i), Some(c));
/// }
/// ```
pub fn command_to_index(sc: &Scenario, s: &State, cmd: &Command) -> Option<usize> {
    let l = layout(sc);
    let hx = |h: Hex| sc.hex_index(h).map(|x| x as usize);
    let un = |u: &crate::ids::UnitId| sc.unit_index(u).map(|x| x as usize);
    Some(match cmd {
        Command::Done => 0,
        Command::SupportFire { commit } => {
            if *commit {
                1
            } else {
                2
            }
        }
        Command::Place { unit, hex } | Command::Advance { unit, to: hex } => {
            3 + un(unit)? * l.h + hx(*hex)?
        }
        Command::Move { unit, path } => 3 + un(unit)? * l.h + hx(*path.last()?)?,
        Command::Retreat { unit, path, .. } => {
            let u = un(unit)?;
            let end = match path.last() {
                Some(h) => hx(*h)?,
                None => hx(s.units.get(u)?.hex()?)?,
            };
            l.r + u * l.h + end
        }
        Command::StiffResistance { unit } => l.s + un(unit)?,
        Command::ChooseLoss { unit } => l.l + un(unit)?,
        Command::Bombard { hex, markers } => {
            if !(1..=2).contains(markers) {
                return None;
            }
            l.b + 2 * hx(*hex)? + (*markers as usize - 1)
        }
        Command::Attack { hex, units } => {
            let h = hx(*hex)?;
            let mut mask = 0usize;
            for u in units {
                let at = hx(s.units.get(un(u)?)?.hex()?)?;
                let d = sc.direction(h as u16, at as u16)?;
                mask |= 1 << d;
            }
            if mask == 0 {
                return None;
            }
            l.a + 64 * h + mask
        }
        Command::Replace { unit, hex, full } => {
            let base = if *full { l.rf } else { l.x };
            base + un(unit)? * l.h + hx(*hex)?
        }
        Command::Rebuild { units } => match units.as_slice() {
            [a] => l.rb + un(a)?,
            [a, b] => {
                let (a, b) = (un(a)?, un(b)?);
                let (a, b) = (a.min(b), a.max(b));
                if a == b {
                    return None;
                }
                l.rb + l.u + a * l.u + b
            }
            _ => return None,
        },
        Command::BreakDown { unit } => l.bd + un(unit)?,
        Command::PlaceAircraft { hex } => l.ac + hx(*hex)?,
        Command::Artillery { hex, markers, gas } => {
            if !(1..=2).contains(markers) {
                return None;
            }
            l.ar + 4 * hx(*hex)? + 2 * (*markers as usize - 1) + usize::from(*gas)
        }
        Command::LostBattalion { declare } => l.lb + usize::from(*declare),
        Command::AirUnit { hex, observe } => l.au + 2 * hx(*hex)? + usize::from(*observe),
        Command::Kress { hex } => l.kr + hx(*hex)?,
    })
}

/// The command an index stands for in this state (moves get the cheapest legal path,
/// retreats the first legal option ending on that hex), or `None` if the index has no
/// meaning here. A command obtained this way may still be illegal; see
/// [`legal_indices`].
pub fn index_to_command(sc: &Scenario, s: &State, idx: usize) -> Option<Command> {
    index_to_command_from(sc, s, idx, || Fresh::new(sc, s))
}

/// [`index_to_command`], a move built by the [`MoveSource`] `source` makes.
pub(crate) fn index_to_command_from<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    idx: usize,
    source: impl FnOnce() -> S,
) -> Option<Command> {
    let l = layout(sc);
    if idx >= l.end {
        return None;
    }
    let unit_id = |u: usize| s.units.id(u).clone();
    Some(match idx {
        0 => Command::Done,
        1 => Command::SupportFire { commit: true },
        2 => Command::SupportFire { commit: false },
        i if i < l.r => {
            let k = i - 3;
            let (u, h) = (k / l.h, k % l.h);
            let hex = sc.hex_at(h as u16);
            match s.pending() {
                Pending::Setup { .. } => Command::Place {
                    unit: unit_id(u),
                    hex,
                },
                Pending::Advance { .. } => Command::Advance {
                    unit: unit_id(u),
                    to: hex,
                },
                Pending::Phase { .. } => Command::Move {
                    unit: unit_id(u),
                    path: unit_move_to(sc, s, &mut source(), u, h as u16)?,
                },
                _ => return None,
            }
        }
        i if i < l.s => {
            let k = i - l.r;
            let (u, h) = (k / l.h, k % l.h);
            let hex = sc.hex_at(h as u16);
            let kind = s.combat.as_ref()?.kind;
            let opts = match s.pending() {
                Pending::Retreat { hexes, .. } => {
                    crate::fm::retreat::retreat_choices(sc, s, u, hexes, kind)
                }
                // Meuse Argonne 17.5: only the unit that names the target (a lone unit
                // or a brigade stack) retreats, into a hex open to the whole target.
                Pending::ArtilleryRetreat { unit, stacked, .. } => {
                    if s.units.id(u) != &unit {
                        return None;
                    }
                    sc.rules()
                        .artillery_retreat_hexes(sc, s, &unit, &stacked)
                        .into_iter()
                        .map(|h| crate::fm::retreat::RetreatOption {
                            path: vec![h],
                            displace: Vec::new(),
                            loses_step: false,
                        })
                        .collect()
                }
                _ => return None,
            };
            if opts.is_empty() && s.units[u].hex() == Some(hex) {
                Command::Retreat {
                    unit: unit_id(u),
                    path: Vec::new(),
                    displace: Vec::new(),
                }
            } else {
                let o = opts
                    .into_iter()
                    .find(|o| o.path.last().copied().or(s.units[u].hex()) == Some(hex))?;
                Command::Retreat {
                    unit: unit_id(u),
                    path: o.path,
                    displace: o.displace,
                }
            }
        }
        i if i < l.l => Command::StiffResistance {
            unit: unit_id(i - l.s),
        },
        i if i < l.b => Command::ChooseLoss {
            unit: unit_id(i - l.l),
        },
        i if i < l.a => {
            let k = i - l.b;
            Command::Bombard {
                hex: sc.hex_at((k / 2) as u16),
                markers: (k % 2) as u8 + 1,
            }
        }
        i if i >= l.x => {
            let sel = |i: usize| unit_id(i);
            if i < l.rb {
                let k = i - l.x;
                Command::Replace {
                    unit: sel(k / l.h),
                    hex: sc.hex_at((k % l.h) as u16),
                    full: false,
                }
            } else if i < l.bd {
                let k = i - l.rb;
                if k < l.u {
                    Command::Rebuild {
                        units: vec![sel(k)],
                    }
                } else {
                    let k = k - l.u;
                    let (a, b) = (k / l.u, k % l.u);
                    if a >= b {
                        return None;
                    }
                    Command::Rebuild {
                        units: vec![sel(a), sel(b)],
                    }
                }
            } else if i < l.ac {
                Command::BreakDown {
                    unit: sel(i - l.bd),
                }
            } else if i < l.ar {
                Command::PlaceAircraft {
                    hex: sc.hex_at((i - l.ac) as u16),
                }
            } else if i < l.lb {
                let k = i - l.ar;
                Command::Artillery {
                    hex: sc.hex_at((k / 4) as u16),
                    markers: ((k % 4) / 2) as u8 + 1,
                    gas: k % 2 == 1,
                }
            } else if i < l.rf {
                Command::LostBattalion {
                    declare: i - l.lb == 1,
                }
            } else if i < l.au {
                let k = i - l.rf;
                Command::Replace {
                    unit: sel(k / l.h),
                    hex: sc.hex_at((k % l.h) as u16),
                    full: true,
                }
            } else if i < l.kr {
                let k = i - l.au;
                Command::AirUnit {
                    hex: sc.hex_at((k / 2) as u16),
                    observe: k % 2 == 1,
                }
            } else {
                Command::Kress {
                    hex: sc.hex_at((i - l.kr) as u16),
                }
            }
        }
        i => {
            let k = i - l.a;
            let (h, mask) = (k / 64, k % 64);
            if mask == 0 {
                return None;
            }
            let mut units = Vec::new();
            for d in 0..6 {
                if mask & (1 << d) == 0 {
                    continue;
                }
                let n = sc.hexes[h].neighbors[d];
                if n == NO_HEX {
                    return None;
                }
                let here = s.units_at(sc.hex_at(n));
                if here.is_empty() {
                    return None;
                }
                units.extend(here.into_iter().map(unit_id));
            }
            Command::Attack {
                hex: sc.hex_at(h as u16),
                units,
            }
        }
    })
}

/// Indices of the legal commands, ascending and without duplicates (two retreats
/// ending on the same hex share an index).
pub fn legal_indices(sc: &Scenario, s: &State) -> Vec<usize> {
    legal_indices_from(sc, s, || Fresh::new(sc, s))
}

/// [`legal_indices`], the moves from the [`MoveSource`] `source` makes.
pub(crate) fn legal_indices_from<S: MoveSource>(
    sc: &Scenario,
    s: &State,
    source: impl FnOnce() -> S,
) -> Vec<usize> {
    if let Pending::Phase {
        phase: Phase::Movement | Phase::MobileMovement,
        ..
    } = s.pending()
    {
        return movement_indices(sc, s, &mut source());
    }
    let mut v: Vec<usize> = legal_commands(sc, s)
        .iter()
        .filter_map(|c| command_to_index(sc, s, c))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
