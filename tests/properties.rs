//! Property tests: invariants over random games of the built-in `system-demo`
//! scenario, driven by [`fm_core::agents::random`] with seeds chosen by proptest.
//!
//! Every property plays whole games (a game is ~120 commands), so the case counts are
//! modest. By default the proptest generator is seeded with a fixed value so CI runs
//! are reproducible; explore further with e.g.
//!
//! ```text
//! PROPTEST_RNG_SEED=12345 PROPTEST_CASES=200 cargo test --release -p fm-core --test suite properties::
//! ```
//!
//! A failing case names the game seed and the agent seed; every assertion message
//! also names the command index and the command, so the failure can be replayed with
//! `Match::new(scenario, seed)` and `agents::random` on `rng_from_seed(agent_seed)`.

use fm_core::*;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use rand_core::RngCore;
use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, OnceLock};

/// Upper bound on the length of a game; the demo ends after six turns (~120 commands).
const MAX_COMMANDS: usize = 5_000;

/// Off the map of every scenario (columns and rows are printed with two digits).
const OFF_MAP: Hex = Hex::new(99, 99);

fn demo() -> Arc<Scenario> {
    static DEMO: OnceLock<Arc<Scenario>> = OnceLock::new();
    DEMO.get_or_init(|| Arc::new(Scenario::builtin("system-demo").expect("built-in scenario")))
        .clone()
}

/// `cases` unless `PROPTEST_CASES` says otherwise; a fixed generator seed unless
/// `PROPTEST_RNG_SEED` is set; no regression files (pin a failing game as an explicit
/// test below instead); bounded shrinking, since shrinking a seed gives no simpler
/// game, only another one.
fn config(cases: u32) -> ProptestConfig {
    let base = ProptestConfig::default();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let rng_seed = match base.rng_seed {
        RngSeed::Random if std::env::var_os("PROPTEST_RNG_SEED").is_none() => {
            RngSeed::Fixed(0x00f1_2e00_0000_0001)
        }
        s => s,
    };
    ProptestConfig {
        cases,
        rng_seed,
        failure_persistence: None,
        max_shrink_iters: 16,
        ..base
    }
}

/// A finished random game: the match (with its log) and the state before each command
/// (`states[k]` is the state command `k` was applied to; the last is the final state).
struct Game {
    seed: u64,
    agent_seed: u64,
    m: Match,
    states: Vec<State>,
}

impl Game {
    fn commands(&self) -> Vec<Command> {
        self.m.log().iter().map(|e| e.command.clone()).collect()
    }

    /// Context for assertion messages.
    fn at(&self, k: usize) -> String {
        let cmd = self
            .m
            .log()
            .get(k)
            .map(|e| serde_json::to_string(&e.command).unwrap())
            .unwrap_or_else(|| "(end of game)".into());
        format!(
            "game seed {} agent seed {} before command #{k} {cmd}",
            self.seed, self.agent_seed
        )
    }
}

/// Plays `system-demo` with match seed `seed`, both sides driven by the random agent on
/// `rng_from_seed(agent_seed)`, to the end.
fn random_game(seed: u64, agent_seed: u64) -> Game {
    let mut m = Match::new(demo(), seed);
    let mut rng = rng_from_seed(agent_seed);
    let mut states = vec![m.state().clone()];
    while !m.is_over() {
        assert!(
            m.log().len() < MAX_COMMANDS,
            "game seed {seed} agent seed {agent_seed}: no end after {MAX_COMMANDS} commands"
        );
        let cmd = agents::random(m.scenario(), m.state(), &mut rng).unwrap_or_else(|| {
            panic!(
                "game seed {seed} agent seed {agent_seed}: no legal command at #{} ({:?})",
                m.log().len(),
                m.pending()
            )
        });
        if let Err(e) = m.apply(&cmd) {
            panic!(
                "game seed {seed} agent seed {agent_seed}: listed command #{} {cmd:?} refused: {e}",
                m.log().len()
            );
        }
        states.push(m.state().clone());
    }
    Game {
        seed,
        agent_seed,
        m,
        states,
    }
}

fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).expect("serializes")
}

fn unit_hexes(s: &State) -> Vec<Hex> {
    s.units.iter().filter_map(|u| u.hex()).collect()
}

// ---------------------------------------------------------------------------------
// State invariants.

/// 5.3: at most one unit per hex.
fn check_no_stacking(s: &State, ctx: &str) {
    let mut seen = BTreeSet::new();
    for u in &s.units {
        if let Some(h) = u.hex() {
            assert!(
                seen.insert(h),
                "{ctx}: two units on {h} ({:?}) at {:?}",
                s.units
                    .iter()
                    .zip(s.units.ids.iter())
                    .filter(|(v, _)| v.hex() == Some(h))
                    .map(|(_, id)| id.to_string())
                    .collect::<Vec<_>>(),
                s.pending()
            );
        }
    }
}

/// 5.2: no unit has spent more MP than the printed MA of its current step.
fn check_mp(sc: &Scenario, s: &State, ctx: &str) {
    for (i, u) in s.units.iter().enumerate() {
        if u.steps == 0 {
            continue;
        }
        let ma = Mp::whole(sc.units[i].values(u.steps).movement as u32);
        assert!(
            u.mp_spent <= ma,
            "{ctx}: {} spent {} MP with MA {ma} ({} steps)",
            s.units.id(i),
            u.mp_spent,
            u.steps
        );
    }
}

/// The roster is the scenario's, every unit is somewhere, and where it is agrees with
/// its step count.
fn check_locations(sc: &Scenario, s: &State, ctx: &str) {
    assert_eq!(s.units.len(), sc.units.len(), "{ctx}: roster size");
    let mut counts = [0usize; 6];
    for (i, u) in s.units.iter().enumerate() {
        assert_eq!(s.units.id(i), &sc.units[i].data.id, "{ctx}: roster order");
        let max = sc.units[i].max_steps();
        let slot = match u.loc {
            Location::Map(h) => {
                assert!(
                    sc.hex_index(h).is_some(),
                    "{ctx}: {} is on {h}, which is not a hex of the map",
                    s.units.id(i)
                );
                0
            }
            Location::ToPlace => 1,
            Location::Scheduled => 2,
            Location::Arriving => 3,
            Location::Eliminated => 4,
            Location::OffMap => 5,
        };
        counts[slot] += 1;
        if u.loc == Location::Eliminated {
            assert_eq!(
                u.steps,
                0,
                "{ctx}: eliminated {} has steps left",
                s.units.id(i)
            );
        } else {
            assert!(
                (1..=max).contains(&u.steps),
                "{ctx}: {} ({:?}) has {} steps, outside 1..={max}",
                s.units.id(i),
                u.loc,
                u.steps
            );
        }
    }
    assert_eq!(
        counts.iter().sum::<usize>(),
        sc.units.len(),
        "{ctx}: units lost or duplicated"
    );
}

// ---------------------------------------------------------------------------------
// Command mutation.

fn pick<'a, T>(rng: &mut impl RngCore, v: &'a [T]) -> Option<&'a T> {
    if v.is_empty() {
        None
    } else {
        Some(&v[(rng.next_u64() % v.len() as u64) as usize])
    }
}

fn random_hex(sc: &Scenario, rng: &mut impl RngCore) -> Hex {
    sc.hex_at((rng.next_u64() % sc.hexes.len() as u64) as u16)
}

fn random_unit(s: &State, rng: &mut impl RngCore) -> UnitId {
    pick(rng, &s.units.ids).expect("units").clone()
}

fn enemy_hexes(sc: &Scenario, s: &State, side: Side) -> Vec<Hex> {
    s.units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side != side)
        .filter_map(|(_, u)| u.hex())
        .collect()
}

fn empty_hexes(sc: &Scenario, s: &State) -> Vec<Hex> {
    let occ: BTreeSet<Hex> = unit_hexes(s).into_iter().collect();
    sc.hexes
        .iter()
        .map(|h| h.hex)
        .filter(|h| !occ.contains(h))
        .collect()
}

/// The side whose decision is pending, if any.
fn deciding(s: &State) -> Option<Side> {
    s.pending().side()
}

/// A few legal commands to mutate: the first of each kind, and some at random.
fn sample_basis(legal: &[Command], rng: &mut impl RngCore) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    for c in legal {
        let kind = std::mem::discriminant(c);
        if !out.iter().any(|o| std::mem::discriminant(o) == kind) {
            out.push(c.clone());
        }
    }
    for _ in 0..4 {
        if let Some(c) = pick(rng, legal) {
            out.push(c.clone());
        }
    }
    out
}

/// Commands that no rule allows in `s`, built from the state and from mutations of
/// `basis` (some of the legal commands `legal`): out-of-sequence commands, unknown
/// units, off-map hexes, the other side's units, paths through enemy units, attacks
/// and bombardments of empty hexes, and so on.
fn certainly_illegal(
    sc: &Scenario,
    s: &State,
    legal: &[Command],
    basis: &[Command],
) -> Vec<Command> {
    let mut out = Vec::new();
    let nobody = UnitId::new("nobody");
    let some_unit = s.units.id(0).clone();
    // Unknown unit and off-map hex, in every command shape.
    out.push(Command::Move {
        unit: nobody.clone(),
        path: vec![sc.hex_at(0)],
    });
    out.push(Command::Place {
        unit: nobody.clone(),
        hex: sc.hex_at(0),
    });
    out.push(Command::ChooseLoss {
        unit: nobody.clone(),
    });
    out.push(Command::StiffResistance {
        unit: nobody.clone(),
    });
    out.push(Command::Advance {
        unit: nobody.clone(),
        to: sc.hex_at(0),
    });
    out.push(Command::Retreat {
        unit: nobody.clone(),
        path: vec![],
        displace: vec![],
    });
    out.push(Command::Attack {
        hex: OFF_MAP,
        units: vec![some_unit.clone()],
    });
    out.push(Command::Bombard {
        hex: OFF_MAP,
        markers: 1,
    });
    for markers in [0, 3, 255] {
        out.push(Command::Bombard {
            hex: sc.hex_at(0),
            markers,
        });
    }
    let Some(side) = deciding(s) else {
        // Game over: everything is refused.
        out.push(Command::Done);
        out.push(Command::SupportFire { commit: false });
        return out;
    };
    let pending = s.pending();
    let enemies = enemy_hexes(sc, s, side);
    let empties = empty_hexes(sc, s);
    let own_hexes: Vec<Hex> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side == side)
        .filter_map(|(_, u)| u.hex())
        .collect();
    let other_units: Vec<UnitId> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side != side)
        .map(|(i, _)| s.units.id(i).clone())
        .collect();

    // Out of sequence: every command shape the pending decision does not take.
    // (Only for the decisions of the system rules: exclusive rules may add decisions
    // that take some of these shapes.)
    let known = matches!(
        pending,
        Pending::Setup { .. }
            | Pending::Phase { .. }
            | Pending::SupportFire { .. }
            | Pending::ChooseLoss { .. }
            | Pending::Retreat { .. }
            | Pending::Advance { .. }
    );
    if known {
        let is_phase = matches!(pending, Pending::Phase { .. });
        let phase = s.phase;
        if !matches!(pending, Pending::SupportFire { .. }) {
            out.push(Command::SupportFire { commit: true });
            out.push(Command::SupportFire { commit: false });
        }
        if !matches!(pending, Pending::Setup { .. }) {
            for id in s.units.ids.iter().take(3) {
                if let Some(h) = empties.first() {
                    out.push(Command::Place {
                        unit: id.clone(),
                        hex: *h,
                    });
                }
            }
        }
        if !matches!(pending, Pending::ChooseLoss { .. }) {
            out.push(Command::ChooseLoss {
                unit: some_unit.clone(),
            });
        }
        if !matches!(pending, Pending::Retreat { .. }) {
            out.push(Command::StiffResistance {
                unit: some_unit.clone(),
            });
            out.push(Command::Retreat {
                unit: some_unit.clone(),
                path: vec![],
                displace: vec![],
            });
        }
        if !matches!(pending, Pending::Advance { .. }) {
            if let Some(h) = empties.first() {
                out.push(Command::Advance {
                    unit: some_unit.clone(),
                    to: *h,
                });
            }
        }
        if !matches!(pending, Pending::Phase { .. } | Pending::Advance { .. }) {
            out.push(Command::Done);
        }
        let movement = is_phase && matches!(phase, Phase::Movement | Phase::MobileMovement);
        let combat_phase = is_phase && matches!(phase, Phase::Combat | Phase::MobileCombat);
        let bombard_phase = is_phase && phase == Phase::Bombardment;
        if !movement {
            if let Some(h) = empties.first() {
                out.push(Command::Move {
                    unit: some_unit.clone(),
                    path: vec![*h],
                });
            }
        }
        if !combat_phase {
            if let Some(h) = enemies.first() {
                out.push(Command::Attack {
                    hex: *h,
                    units: vec![some_unit.clone()],
                });
            }
        }
        if !bombard_phase {
            if let Some(h) = enemies.first() {
                out.push(Command::Bombard {
                    hex: *h,
                    markers: 1,
                });
            }
        }
    }
    if let Pending::SupportFire { side, .. } = pending {
        if s.support.get(side).available.is_empty() {
            out.push(Command::SupportFire { commit: true });
        }
    }

    // Mutations of legal commands into ones no rule allows.
    for c in basis {
        match c {
            Command::Move { unit, path } => {
                // The other side's units may not move.
                if let Some(o) = other_units.first() {
                    out.push(Command::Move {
                        unit: o.clone(),
                        path: path.clone(),
                    });
                }
                // An empty path, and a path leaving the map.
                out.push(Command::Move {
                    unit: unit.clone(),
                    path: vec![],
                });
                let mut p = path.clone();
                p.push(OFF_MAP);
                out.push(Command::Move {
                    unit: unit.clone(),
                    path: p,
                });
                // Into (or through) a hex held by an enemy.
                for e in enemies.iter().take(2) {
                    let mut p = path.clone();
                    p.push(*e);
                    out.push(Command::Move {
                        unit: unit.clone(),
                        path: p,
                    });
                    let mut p = path.clone();
                    let k = p.len() - 1;
                    p.insert(k, *e);
                    out.push(Command::Move {
                        unit: unit.clone(),
                        path: p,
                    });
                }
                // Ending on a friendly unit.
                for o in own_hexes.iter().take(2) {
                    let mut p = path.clone();
                    p.push(*o);
                    out.push(Command::Move {
                        unit: unit.clone(),
                        path: p,
                    });
                }
            }
            Command::Attack { hex, units } => {
                for e in empties.iter().take(2) {
                    out.push(Command::Attack {
                        hex: *e,
                        units: units.clone(),
                    });
                }
                for o in own_hexes.iter().take(2) {
                    out.push(Command::Attack {
                        hex: *o,
                        units: units.clone(),
                    });
                }
                out.push(Command::Attack {
                    hex: *hex,
                    units: vec![],
                });
                let mut dup = units.clone();
                dup.push(units[0].clone());
                out.push(Command::Attack {
                    hex: *hex,
                    units: dup,
                });
                if let Some(o) = other_units.first() {
                    out.push(Command::Attack {
                        hex: *hex,
                        units: vec![o.clone()],
                    });
                }
            }
            Command::Bombard { hex, .. } => {
                for e in empties.iter().take(2) {
                    out.push(Command::Bombard {
                        hex: *e,
                        markers: 1,
                    });
                }
                for o in own_hexes.iter().take(2) {
                    out.push(Command::Bombard {
                        hex: *o,
                        markers: 1,
                    });
                }
                out.push(Command::Bombard {
                    hex: *hex,
                    markers: 3,
                });
            }
            Command::Place { unit, .. } => {
                out.push(Command::Place {
                    unit: unit.clone(),
                    hex: OFF_MAP,
                });
                for h in unit_hexes(s).iter().take(2) {
                    out.push(Command::Place {
                        unit: unit.clone(),
                        hex: *h,
                    });
                }
                if let Some(o) = other_units.first() {
                    out.push(Command::Place {
                        unit: o.clone(),
                        hex: sc.hex_at(0),
                    });
                }
            }
            Command::ChooseLoss { .. } => {
                if let Pending::ChooseLoss { candidates, .. } = &pending {
                    for id in s
                        .units
                        .ids
                        .iter()
                        .filter(|id| !candidates.contains(id))
                        .take(3)
                    {
                        out.push(Command::ChooseLoss { unit: id.clone() });
                    }
                }
            }
            Command::Retreat { unit, path, .. } => {
                let mut p = path.clone();
                p.push(OFF_MAP);
                out.push(Command::Retreat {
                    unit: unit.clone(),
                    path: p,
                    displace: vec![],
                });
                if let Pending::Retreat { units, .. } = &pending {
                    for id in s.units.ids.iter().filter(|id| !units.contains(id)).take(3) {
                        out.push(Command::Retreat {
                            unit: id.clone(),
                            path: path.clone(),
                            displace: vec![],
                        });
                        out.push(Command::StiffResistance { unit: id.clone() });
                    }
                }
            }
            Command::Advance { unit, .. } => {
                out.push(Command::Advance {
                    unit: unit.clone(),
                    to: OFF_MAP,
                });
                for e in enemies.iter().take(2) {
                    out.push(Command::Advance {
                        unit: unit.clone(),
                        to: *e,
                    });
                }
                if let Pending::Advance { units, .. } = &pending {
                    for id in s.units.ids.iter().filter(|id| !units.contains(id)).take(3) {
                        if let Command::Advance { to, .. } = c {
                            out.push(Command::Advance {
                                unit: id.clone(),
                                to: *to,
                            });
                        }
                    }
                }
            }
            // Nothing certain to build from `done`, support fire, stiff resistance (or
            // the commands of exclusive rules).
            _ => {}
        }
    }
    out.retain(|c| !legal.contains(c));
    out
}

/// Random variations of a legal command, legal or not: another unit, a shorter or
/// longer path, another hex, another marker count, another command shape.
fn mutate(sc: &Scenario, s: &State, c: &Command, rng: &mut impl RngCore) -> Command {
    let r = rng.next_u64() % 4;
    let unit = random_unit(s, rng);
    let hex = random_hex(sc, rng);
    match c.clone() {
        Command::Move { unit: u, mut path } => match r {
            0 => Command::Move { unit, path },
            1 => {
                let k = (rng.next_u64() % path.len() as u64) as usize;
                path.truncate(k);
                Command::Move { unit: u, path }
            }
            2 => {
                let last = *path.last().expect("non-empty path");
                let n = sc.layout().neighbors(last);
                if let Some(Some(h)) = pick(rng, &n) {
                    path.push(*h);
                }
                Command::Move { unit: u, path }
            }
            _ => {
                let k = (rng.next_u64() % path.len() as u64) as usize;
                path[k] = hex;
                Command::Move { unit: u, path }
            }
        },
        Command::Attack { hex: h, mut units } => match r {
            0 => Command::Attack { hex, units },
            1 => {
                units.push(unit);
                Command::Attack { hex: h, units }
            }
            2 => {
                units.pop();
                Command::Attack { hex: h, units }
            }
            _ => Command::Attack {
                hex: h,
                units: vec![unit],
            },
        },
        Command::Bombard { hex: h, markers } => match r {
            0 => Command::Bombard { hex, markers },
            _ => Command::Bombard {
                hex: h,
                markers: (markers + 1 + (rng.next_u64() % 3) as u8) % 4,
            },
        },
        Command::Place { unit: u, hex: h } => match r {
            0 | 1 => Command::Place { unit: u, hex },
            _ => Command::Place { unit, hex: h },
        },
        Command::Retreat {
            unit: u,
            mut path,
            mut displace,
        } => match r {
            0 => Command::Retreat {
                unit,
                path,
                displace,
            },
            1 => {
                path.pop();
                Command::Retreat {
                    unit: u,
                    path,
                    displace,
                }
            }
            2 => {
                displace.clear();
                path.push(hex);
                Command::Retreat {
                    unit: u,
                    path,
                    displace,
                }
            }
            _ => Command::Retreat {
                unit: u,
                path: vec![hex],
                displace: vec![],
            },
        },
        Command::Advance { unit: u, to } => match r {
            0 | 1 => Command::Advance { unit: u, to: hex },
            _ => Command::Advance { unit, to },
        },
        Command::ChooseLoss { .. } => Command::ChooseLoss { unit },
        Command::StiffResistance { .. } => Command::StiffResistance { unit },
        Command::SupportFire { commit } => match r {
            0 | 1 => Command::SupportFire { commit: !commit },
            _ => Command::Done,
        },
        // `done` (and the commands of exclusive rules): another shape.
        _ => match r {
            0 => Command::SupportFire { commit: true },
            1 => Command::Move {
                unit,
                path: vec![hex],
            },
            2 => Command::Bombard { hex, markers: 1 },
            _ => Command::ChooseLoss { unit },
        },
    }
}

/// The state before a batch of commands that must not change it. Each command is
/// checked with `==` and the hash; [`Snapshot::verify`] then compares the JSON bytes
/// once for the whole batch (serializing per command is too slow in debug builds).
struct Snapshot<'a> {
    state: &'a State,
    copy: State,
    json: String,
    hash: u64,
}

impl<'a> Snapshot<'a> {
    fn of(state: &'a State) -> Snapshot<'a> {
        Snapshot {
            state,
            copy: state.clone(),
            json: json(state),
            hash: state.hash(),
        }
    }

    fn same(&self, cmd: &Command, ctx: &str) {
        assert!(
            *self.state == self.copy,
            "{ctx}: apply of {cmd:?} changed its input"
        );
        assert_eq!(
            self.state.hash(),
            self.hash,
            "{ctx}: {cmd:?} changed the hash"
        );
    }

    fn verify(&self, ctx: &str) {
        assert_eq!(json(self.state), self.json, "{ctx}: state bytes changed");
    }

    /// Applies `cmd` expecting a refusal (and `explain` to agree).
    fn refused(&self, sc: &Scenario, cmd: &Command, rng_seed: u64, ctx: &str) {
        let r = apply(sc, self.state, cmd, &mut rng_from_seed(rng_seed));
        assert!(
            r.is_err(),
            "{ctx}: {} accepted, but no rule allows it (pending {:?}); events {:?}",
            json(cmd),
            self.state.pending(),
            r.ok()
        );
        self.same(cmd, ctx);
        assert!(
            explain(sc, self.state, cmd).is_some(),
            "{ctx}: explain accepts refused {cmd:?}"
        );
    }

    /// Applies `cmd`, legal or not; returns whether it was accepted.
    fn tried(&self, sc: &Scenario, cmd: &Command, ctx: &str) -> bool {
        let r = apply(sc, self.state, cmd, &mut rng_from_seed(0));
        self.same(cmd, ctx);
        r.is_ok()
    }
}

// ---------------------------------------------------------------------------------
// Hidden information (7.2).

/// Every way to swap a face-down committed marker with a different value from its
/// owner's unused allotment: (owner, marker index, value to swap in).
fn face_down_swaps(s: &State) -> Vec<(Side, usize, u8)> {
    let Some(c) = &s.combat else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, m) in c.markers.iter().enumerate() {
        if m.revealed {
            continue;
        }
        let v = m.value.expect("the full state carries marker values");
        let mut others: Vec<u8> = s
            .support
            .get(m.side)
            .available
            .iter()
            .copied()
            .filter(|w| *w != v)
            .collect();
        others.dedup();
        for w in others {
            out.push((m.side, k, w));
        }
    }
    out
}

/// `s` with face-down marker `k` (of `side`) worth `w`, and the `w` it replaces in the
/// allotment worth the marker's old value: the multiset of `side`'s unrevealed
/// markers is unchanged.
fn swapped(s: &State, side: Side, k: usize, w: u8) -> State {
    let mut t = s.clone();
    let c = t.combat.as_mut().expect("combat");
    let v = c.markers[k].value.replace(w).expect("value");
    let avail = &mut t.support.get_mut(side).available;
    let p = avail.iter().position(|x| *x == w).expect("w available");
    avail[p] = v;
    avail.sort_unstable();
    t
}

/// The events as `viewer` sees them, up to (not including) the reveal of the markers.
fn redacted_until_reveal(events: &[Event], viewer: Side) -> (Vec<Event>, bool) {
    let mut out = Vec::new();
    for e in events {
        if matches!(e, Event::SupportRevealed { .. }) {
            return (out, true);
        }
        out.push(e.redacted_for(viewer));
    }
    (out, false)
}

fn check_no_leak_at(g: &Game, k: usize, rng_seed: u64) -> usize {
    let sc = demo();
    let s1 = &g.states[k];
    let mut checked = 0;
    for (owner, marker, w) in face_down_swaps(s1) {
        let viewer = owner.other();
        let ctx = format!("{}: marker {marker} of {owner} swapped with {w}", g.at(k));
        let s2 = swapped(s1, owner, marker, w);
        assert_ne!(s1, &s2);
        assert_eq!(
            view(&sc, s1, viewer),
            view(&sc, &s2, viewer),
            "{ctx}: {viewer}'s view depends on the opponent's face-down value"
        );
        assert_ne!(
            view(&sc, s1, owner),
            view(&sc, &s2, owner),
            "{ctx}: the owner's view should show its own marker"
        );
        // Continue both states with the game's next commands and the same generator
        // until the markers are revealed: the viewer's stream must be the same.
        let mut a = s1.clone();
        let mut b = s2;
        let mut rng_a = rng_from_seed(rng_seed);
        let mut rng_b = rng_from_seed(rng_seed);
        for (j, entry) in g.m.log().iter().enumerate().skip(k) {
            if deciding(&a) == Some(viewer) {
                assert_eq!(
                    legal_commands(&sc, &a),
                    legal_commands(&sc, &b),
                    "{ctx}: {viewer}'s choices depend on the hidden value (at #{j})"
                );
            }
            let ea = apply(&sc, &a, &entry.command, &mut rng_a);
            let eb = apply(&sc, &b, &entry.command, &mut rng_b);
            let (Ok(ea), Ok(eb)) = (ea, eb) else {
                panic!("{ctx}: #{j} {:?} accepted in one state only", entry.command);
            };
            let (ra, reveal_a) = redacted_until_reveal(&ea, viewer);
            let (rb, reveal_b) = redacted_until_reveal(&eb, viewer);
            assert_eq!(
                ra, rb,
                "{ctx}: {viewer}'s event stream at #{j} depends on the hidden value"
            );
            assert_eq!(
                reveal_a, reveal_b,
                "{ctx}: reveal at #{j} in one state only"
            );
            if reveal_a {
                break;
            }
            a.apply_events(&sc, &ea);
            b.apply_events(&sc, &eb);
            assert_eq!(
                view(&sc, &a, viewer),
                view(&sc, &b, viewer),
                "{ctx}: {viewer}'s view after #{j} depends on the hidden value"
            );
        }
        checked += 1;
    }
    checked
}

/// Redacting an opponent's marker (or allotment) hides its value entirely.
fn check_redaction(e: &Event) {
    match e {
        Event::SupportCommitted {
            side,
            step: Some(step),
            value: Some(v),
        } => {
            for w in 0..=9u8 {
                let f = Event::SupportCommitted {
                    side: *side,
                    step: Some(*step),
                    value: Some(w),
                };
                assert_eq!(
                    e.redacted_for(side.other()),
                    f.redacted_for(side.other()),
                    "{e:?} leaks its value"
                );
                if w != *v {
                    assert_ne!(e.redacted_for(*side), f.redacted_for(*side));
                }
            }
            assert_eq!(e.redacted_for(*side), *e, "the owner sees its marker");
        }
        Event::SupportAllotted {
            side,
            count,
            values: Some(vs),
        } => {
            let mut other = vs.clone();
            for x in other.iter_mut() {
                *x = x.wrapping_add(1);
            }
            let f = Event::SupportAllotted {
                side: *side,
                count: *count,
                values: Some(other),
            };
            assert_eq!(e.redacted_for(side.other()), f.redacted_for(side.other()));
            assert_eq!(e.redacted_for(*side), *e);
        }
        other => {
            // Everything else is public.
            assert_eq!(other.redacted_for(Side::A), *other);
            assert_eq!(other.redacted_for(Side::B), *other);
        }
    }
}

// ---------------------------------------------------------------------------------
// The properties.

proptest! {
    #![proptest_config(config(24))]

    /// 5.3 at every phase decision; MP and roster/location consistency after every
    /// command.
    #[test]
    fn state_invariants_hold(seed in any::<u64>(), agent_seed in any::<u64>()) {
        let g = random_game(seed, agent_seed);
        let sc = demo();
        for (k, s) in g.states.iter().enumerate() {
            let ctx = format!("{} (state after #{})", g.at(k), k as i64 - 1);
            if matches!(s.pending(), Pending::Phase { .. }) {
                check_no_stacking(s, &ctx);
            }
            check_mp(&sc, s, &ctx);
            check_locations(&sc, s, &ctx);
        }
    }

    /// Replaying the seed and the commands gives the same events and states.
    #[test]
    fn replay_is_deterministic(seed in any::<u64>(), agent_seed in any::<u64>()) {
        let g = random_game(seed, agent_seed);
        let mut r = Match::new(demo(), seed);
        prop_assert_eq!(r.opening_events(), g.m.opening_events());
        for (k, e) in g.m.log().iter().enumerate() {
            prop_assert_eq!(r.state(), &g.states[k]);
            let events = r.apply(&e.command).map(|ev| ev.to_vec());
            prop_assert_eq!(events.as_deref(), Ok(e.events.as_slice()), "{}", g.at(k));
        }
        prop_assert_eq!(r.log(), g.m.log());
        prop_assert_eq!(r.state(), g.m.state());
        prop_assert_eq!(r.state().hash(), g.m.state().hash());
    }

    /// Saving mid-game, loading, and continuing with the same commands gives the same
    /// events as the uninterrupted game.
    #[test]
    fn save_load_mid_game_continues_identically(
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
        cut in 0.0f64..=1.0,
    ) {
        let g = random_game(seed, agent_seed);
        let cmds = g.commands();
        let k = ((cmds.len() as f64) * cut) as usize;
        let mut first = Match::new(demo(), seed);
        for c in &cmds[..k] {
            first.apply(c).expect("replays");
        }
        let saved = first.save();
        let mut loaded = Match::load(&saved)
            .unwrap_or_else(|e| panic!("{}: load after {k} commands: {e}", g.at(k)));
        prop_assert_eq!(loaded.state(), &g.states[k]);
        prop_assert_eq!(loaded.log().to_vec(), g.m.log().to_vec()[..k].to_vec());
        prop_assert_eq!(loaded.save(), saved);
        for c in &cmds[k..] {
            loaded.apply(c).expect("replays after load");
        }
        prop_assert_eq!(loaded.log(), g.m.log(), "{}", g.at(k));
        prop_assert_eq!(loaded.state(), g.m.state());
    }

    /// Refused commands (mutations of legal ones) leave the state byte-identical.
    #[test]
    fn rejected_commands_change_nothing(
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
        mut_seed in any::<u64>(),
    ) {
        let g = random_game(seed, agent_seed);
        let sc = demo();
        let mut rng = rng_from_seed(mut_seed);
        for (k, s) in g.states.iter().enumerate() {
            let ctx = g.at(k);
            let legal = legal_commands(&sc, s);
            let snap = Snapshot::of(s);
            let basis = sample_basis(&legal, &mut rng);
            for bad in certainly_illegal(&sc, s, &legal, &basis) {
                snap.refused(&sc, &bad, rng.next_u64(), &ctx);
            }
            for _ in 0..16 {
                if let Some(c) = pick(&mut rng, &legal) {
                    let m = mutate(&sc, s, c, &mut rng);
                    snap.tried(&sc, &m, &ctx);
                }
            }
            snap.verify(&ctx);
        }
    }

    /// No leaks: at every state with a face-down marker whose owner still holds a
    /// marker of another value, swapping the two changes neither the opponent's view
    /// nor its event stream until the reveal.
    #[test]
    fn hidden_markers_do_not_leak(
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
        rng_seed in any::<u64>(),
    ) {
        let g = random_game(seed, agent_seed);
        for k in 0..g.states.len() {
            check_no_leak_at(&g, k, rng_seed);
        }
        for e in g.m.opening_events().iter().chain(g.m.log().iter().flat_map(|l| &l.events)) {
            check_redaction(e);
        }
    }

    /// Equal states hash equally; different consecutive states (in particular after a
    /// move) hash differently.
    #[test]
    fn state_hash_is_consistent(seed in any::<u64>(), agent_seed in any::<u64>()) {
        let g = random_game(seed, agent_seed);
        for (k, w) in g.states.windows(2).enumerate() {
            let (s, t) = (&w[0], &w[1]);
            let rt: State = serde_json::from_str(&json(s)).expect("state JSON");
            prop_assert_eq!(&rt, s);
            prop_assert_eq!(rt.hash(), s.hash(), "{}", g.at(k));
            prop_assert_eq!(s.clone().hash(), s.hash());
            if matches!(g.m.log()[k].command, Command::Move { .. }) {
                prop_assert_ne!(s, t);
            }
            if s != t {
                prop_assert_ne!(s.hash(), t.hash(), "{}: hash unchanged", g.at(k));
            }
        }
    }
}

proptest! {
    // Applies every legal command at every decision: ~1 s per game in debug.
    #![proptest_config(config(12))]

    /// `legal_commands` agrees with `apply`, and the index encoding round-trips.
    #[test]
    fn legal_commands_agree_with_apply(
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
        probe_seed in any::<u64>(),
    ) {
        let g = random_game(seed, agent_seed);
        let mut rng = rng_from_seed(probe_seed);
        for k in 0..g.states.len() {
            check_legal_agrees(&g, k, &mut rng);
        }
    }
}

fn check_legal_agrees(g: &Game, k: usize, rng: &mut impl RngCore) {
    let sc = demo();
    let s = &g.states[k];
    let ctx = g.at(k);
    let legal = legal_commands(&sc, s);
    let indices = legal_indices(&sc, s);
    assert_eq!(
        legal.is_empty(),
        s.is_over(),
        "{ctx}: legal commands empty iff the game is over ({:?})",
        s.pending()
    );
    assert_eq!(legal.is_empty(), indices.is_empty(), "{ctx}");
    let set: BTreeSet<usize> = indices.iter().copied().collect();
    assert_eq!(set.len(), indices.len(), "{ctx}: duplicate indices");
    let n = action_space_size(&sc);
    // Every listed command is accepted and has a legal index. Its index round-trips to
    // a listed command with the same index: checked for every command but moves, and
    // for a sample of the moves (decoding a move index searches the unit's reachable
    // hexes, too slow in debug builds for every move of every state).
    let listed: HashSet<&Command> = legal.iter().collect();
    assert_eq!(
        listed.len(),
        legal.len(),
        "{ctx}: a command is listed twice"
    );
    let mut round_trip: Vec<(usize, &Command)> = Vec::new();
    for c in &legal {
        if let Err(e) = apply(&sc, s, c, &mut rng_from_seed(rng.next_u64())) {
            panic!("{ctx}: listed {} refused: {e}", json(c));
        }
        let i = command_to_index(&sc, s, c)
            .unwrap_or_else(|| panic!("{ctx}: listed {c:?} has no index"));
        assert!(i < n, "{ctx}: index {i} of {c:?} outside the action space");
        assert!(
            set.contains(&i),
            "{ctx}: index {i} of {c:?} not in legal_indices"
        );
        if !matches!(c, Command::Move { .. }) || rng.next_u64() % 8 == 0 {
            round_trip.push((i, c));
        }
    }
    for (i, c) in round_trip {
        let back = index_to_command(&sc, s, i)
            .unwrap_or_else(|| panic!("{ctx}: index {i} of {c:?} decodes to nothing"));
        assert!(
            listed.contains(&back),
            "{ctx}: {c:?} -> {i} -> {back:?}, which is not listed"
        );
        assert_eq!(command_to_index(&sc, s, &back), Some(i), "{ctx}: {back:?}");
    }
    // Unlisted commands are refused: commands whose index is not legal (or that have
    // no index) from mutation, and the commands of sampled illegal indices.
    let unlisted_index = |c: &Command| match command_to_index(&sc, s, c) {
        Some(i) => !set.contains(&i),
        None => true,
    };
    let snap = Snapshot::of(s);
    let basis = sample_basis(&legal, rng);
    for bad in certainly_illegal(&sc, s, &legal, &basis) {
        snap.refused(&sc, &bad, rng.next_u64(), &ctx);
    }
    for _ in 0..16 {
        let Some(c) = pick(rng, &legal) else { break };
        let m = mutate(&sc, s, c, rng);
        if unlisted_index(&m) {
            snap.refused(&sc, &m, rng.next_u64(), &format!("{ctx} (mutated {c:?})"));
        } else if listed.contains(&m) {
            assert!(snap.tried(&sc, &m, &ctx), "{ctx}: listed {m:?} refused");
        }
    }
    let h = sc.hexes.len() as u64;
    let mut probes: Vec<usize> = (0..24)
        .map(|_| (rng.next_u64() % n as u64) as usize)
        .collect();
    for _ in 0..8 {
        if let Some(&i) = pick(rng, &indices) {
            let d = match rng.next_u64() % 4 {
                0 => 1,
                1 => 2,
                2 => h,
                _ => 64,
            } as usize;
            probes.push(i + d);
            probes.push(i.saturating_sub(d));
        }
    }
    for i in probes {
        if set.contains(&i) {
            continue;
        }
        if let Some(c) = index_to_command(&sc, s, i) {
            assert!(
                !listed.contains(&c),
                "{ctx}: unlisted index {i} decodes to listed {c:?}"
            );
            snap.refused(&sc, &c, rng.next_u64(), &format!("{ctx} (index {i})"));
        }
    }
    snap.verify(&ctx);
}

// ---------------------------------------------------------------------------------
// Deterministic companions.

/// The no-leak property is not vacuous: random games do reach states with a face-down
/// marker whose owner holds another value.
#[test]
fn hidden_marker_states_occur() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let g = random_game(seed, seed + 1000);
        for k in 0..g.states.len() {
            checked += check_no_leak_at(&g, k, seed);
        }
        if checked >= 10 {
            return;
        }
    }
    panic!("only {checked} face-down marker swaps in 40 games");
}

/// The hash sanity check on a hand-picked move from the opening.
#[test]
fn hash_changes_after_a_move() {
    let sc = demo();
    let mut m = Match::new(sc.clone(), 1);
    let mut rng = rng_from_seed(2);
    while !matches!(
        m.pending(),
        Pending::Phase {
            phase: Phase::Movement,
            ..
        }
    ) {
        let c = agents::random(&sc, m.state(), &mut rng).expect("set-up command");
        m.apply(&c).expect("legal");
    }
    let s = m.state().clone();
    assert_eq!(s.hash(), s.clone().hash());
    let mv = legal_commands(&sc, &s)
        .into_iter()
        .find(|c| matches!(c, Command::Move { .. }))
        .expect("a move at the opening");
    let ev = apply(&sc, &s, &mv, &mut rng_from_seed(0)).expect("legal move");
    let mut t = s.clone();
    t.apply_events(&sc, &ev);
    assert_ne!(s.hash(), t.hash());
    let mut back = t.clone();
    let i = back.units.iter().position(|u| u.moved).expect("moved unit");
    back.units[i] = s.units[i];
    back.control = s.control.clone();
    assert_eq!(back, s);
    assert_eq!(back.hash(), s.hash());
}

/// Built-in F&M scenario number `which` (of four), a match of it with `seed` and the
/// agent's generator.
fn builtin_game(
    which: usize,
    seed: u64,
    agent_seed: u64,
) -> (
    &'static str,
    Arc<Scenario>,
    Match,
    rand_xoshiro::Xoshiro256PlusPlus,
) {
    let name = ["system-demo", "meuse-argonne", "vimy-ridge", "suez-1916"][which];
    let sc = Arc::new(Scenario::builtin(name).expect("built-in scenario"));
    let m = Match::new(sc.clone(), seed);
    (name, sc, m, rng_from_seed(agent_seed))
}

proptest! {
    // Whole random games of every built-in F&M scenario, the reference listing at every
    // command: a few seconds a game.
    #![proptest_config(config(8))]

    /// After every command, the fast move listing (shared occupancy and ZOC maps,
    /// precomputed step costs, paths built only for what is returned), the index
    /// encoding, the random agent's count-and-build draw and the automatic passing of
    /// phases agree with the straightforward reference search
    /// (`fm_core::fm::reference`).
    #[test]
    fn fast_listing_matches_reference(
        which in 0usize..4,
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
    ) {
        let (name, sc, mut m, mut rng) = builtin_game(which, seed, agent_seed);
        for k in 0..MAX_COMMANDS {
            if let Err(e) = fm_core::fm::reference::check(&sc, m.state()) {
                panic!("{name} seed {seed} agent {agent_seed}, before command #{k}: {e}");
            }
            let Some(c) = agents::random(&sc, m.state(), &mut rng) else { break };
            m.apply(&c).unwrap_or_else(|e| panic!("{name} #{k} {c:?}: {e}"));
        }
    }
}

proptest! {
    // Whole random games of every built-in F&M scenario, two full listings at every
    // command: a second or two a game.
    #![proptest_config(config(8))]

    /// After every command, the match's listing, indices, commands of indices and
    /// random draw (which reuse the units' searches still valid, `fm_core::fm::memo`)
    /// equal the from-scratch
    /// `legal_commands`, `legal_indices` and `agents::random` of its state; the match
    /// is also cloned and commands are taken back along the way, so the memo meets
    /// states it did not list last.
    #[test]
    fn memo_listing_matches_from_scratch(
        which in 0usize..4,
        seed in any::<u64>(),
        agent_seed in any::<u64>(),
    ) {
        let (name, sc, mut m, mut rng) = builtin_game(which, seed, agent_seed);
        for k in 0..MAX_COMMANDS {
            let s = m.state();
            let at = || format!("{name} seed {seed} agent {agent_seed}, before command #{k}");
            prop_assert_eq!(m.legal_commands(), legal_commands(&sc, s), "{}", at());
            let idx = m.legal_indices();
            prop_assert_eq!(&idx, &legal_indices(&sc, s), "{}", at());
            for &i in idx.iter().step_by((idx.len() / 16).max(1)) {
                prop_assert_eq!(m.index_to_command(i), index_to_command(&sc, s, i), "{} index {}", at(), i);
            }
            let mut r2 = rng.clone();
            let fresh = agents::random(&sc, s, &mut r2);
            let Some(c) = m.random_command(&mut rng) else {
                prop_assert!(fresh.is_none(), "{}", at());
                break;
            };
            prop_assert_eq!(Some(&c), fresh.as_ref(), "{}", at());
            prop_assert_eq!(rng.next_u64(), r2.next_u64(), "{}: the same draws", at());
            m.apply(&c).unwrap_or_else(|e| panic!("{} {c:?}: {e}", at()));
            if k % 61 == 60 {
                m = m.clone();
            }
            if k % 97 == 96 {
                m.undo();
            }
        }
    }
}
