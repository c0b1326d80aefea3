//! Retreat, displacement, stiff resistance and advance after combat (rules 8.1.5,
//! 8.3, 8.3.1, 8.4, 8.5).
//!
//! Legal retreats are computed as a set of options, filtered in the order
//! `docs/rulings.md` records: go the full distance if at all possible; then prefer a
//! path of vacant hexes, then a path through friends ending on a vacant hex, and only
//! then displacement; then prefer ending closer to the friendly map edge (ground
//! combat) or farther from the nearest enemy (bombardment, 8.1.5).

use crate::error::{refuse, RuleError};
use crate::fm::combat::{end, join, lose_step};
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Scenario, NO_HEX};
use crate::fm::state::{CombatKind, CombatStage, Location, State};
use crate::fm::zoc::{ezoc_map, occupancy};
use crate::ids::{Side, UnitId};
use serde::{Deserialize, Serialize};

/// One legal way to carry out a retreat.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RetreatOption {
    /// Hexes entered.
    pub path: Vec<Hex>,
    /// Displacement chain (8.3.1): where each displaced friendly unit goes.
    pub displace: Vec<Hex>,
    /// The unit loses a step at the end (it could not retreat the full distance, or
    /// chose to deplete rather than displace).
    pub loses_step: bool,
}

const MAX_CHAIN: usize = 4;

struct Finder<'a> {
    sc: &'a Scenario,
    occ: Vec<u16>,
    ezoc: Vec<bool>,
    side: Side,
    tags: u64,
    origin: u16,
    /// Suez 1916 17.1: friendly hexes this unit may still stack in (not "occupied"
    /// for the retreat priorities).
    room: Vec<bool>,
    /// Suez 1916 13.3: the armored train keeps to the railroad.
    train: bool,
}

impl Finder<'_> {
    /// Whether a unit of this side may enter `to` from `from` while retreating or
    /// being displaced: on the map, not prohibited, no enemy, not in EZOC (8.3).
    fn open(&self, from: u16, to: u16) -> bool {
        if self.ezoc[to as usize] {
            return false;
        }
        let o = self.occ[to as usize];
        if o != u16::MAX && self.sc.units[o as usize].data.side != self.side {
            return false;
        }
        let d = self.sc.direction(from, to).expect("adjacent");
        if self.train && self.sc.hexes[from as usize].sides[d] & self.sc.masks.rail_side == 0 {
            return false;
        }
        crate::fm::movement::enter_cost(
            self.sc,
            self.tags,
            self.sc.hexes[from as usize].sides[d],
            to,
        )
        .is_some()
    }

    fn friendly(&self, h: u16) -> bool {
        self.occ[h as usize] != u16::MAX && !self.room[h as usize]
    }

    fn paths(&self, n: u8) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        let mut stack: Vec<Vec<u16>> = vec![vec![]];
        while let Some(p) = stack.pop() {
            let cur = *p.last().unwrap_or(&self.origin);
            if !p.is_empty() {
                out.push(p.clone());
            }
            if p.len() == n as usize {
                continue;
            }
            let k = p.len() as u32 + 1;
            for d in 0..6 {
                let v = self.sc.hexes[cur as usize].neighbors[d];
                if v == NO_HEX || self.sc.distance(self.origin, v) != k || !self.open(cur, v) {
                    continue;
                }
                let mut q = p.clone();
                q.push(v);
                stack.push(q);
            }
        }
        out.sort();
        out
    }

    /// Displacement chains for the friendly unit standing on `at` (8.3.1).
    fn chains(&self, at: u16, used: &mut Vec<u16>, depth: usize) -> Vec<Vec<u16>> {
        if depth >= MAX_CHAIN {
            return Vec::new();
        }
        let mut vacant = Vec::new();
        let mut occupied = Vec::new();
        for d in 0..6 {
            let w = self.sc.hexes[at as usize].neighbors[d];
            if w == NO_HEX || w == self.origin || used.contains(&w) || !self.open(at, w) {
                continue;
            }
            if self.friendly(w) {
                occupied.push(w);
            } else {
                vacant.push(vec![w]);
            }
        }
        if !vacant.is_empty() {
            return vacant;
        }
        let mut out = Vec::new();
        for w in occupied {
            used.push(w);
            for mut rest in self.chains(w, used, depth + 1) {
                rest.insert(0, w);
                out.push(rest);
            }
            used.pop();
        }
        out
    }
}

/// Every legal way for unit `unit` to retreat `hexes` hexes in the current combat
/// (`kind` decides 8.1.5 vs the friendly-edge preference). Empty when it cannot retreat
/// even one hex: it is then eliminated unless it declares stiff resistance.
pub fn retreat_options(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hexes: u8,
    kind: CombatKind,
) -> Vec<RetreatOption> {
    let Location::Map(h) = s.units[unit].loc else {
        return Vec::new();
    };
    let side = sc.units[unit].data.side;
    let mut occ = occupancy(sc, s);
    let origin = sc.hex_index(h).expect("on map");
    occ[origin as usize] = u16::MAX;
    let mut room = vec![false; sc.hexes.len()];
    if sc.rules().stacks_by_retreat() {
        for u in &s.units {
            if let Some(x) = u.hex().and_then(|h| sc.hex_index(h)) {
                if x != origin && occ[x as usize] != u16::MAX {
                    room[x as usize] = sc.rules().may_stack(sc, s, unit, sc.hex_at(x));
                }
            }
        }
    }
    let f = Finder {
        sc,
        occ,
        ezoc: ezoc_map(sc, s, side),
        side,
        tags: sc.units[unit].tags,
        origin,
        room,
        train: sc.rules().rail_bound(sc, unit),
    };
    let all = f.paths(hexes);
    let Some(longest) = all.iter().map(|p| p.len()).max() else {
        return Vec::new();
    };
    let full: Vec<&Vec<u16>> = all.iter().filter(|p| p.len() == longest).collect();
    let short = longest < hexes as usize;
    let vacant: Vec<&Vec<u16>> = full
        .iter()
        .copied()
        .filter(|p| p.iter().all(|x| !f.friendly(*x)))
        .collect();
    let through: Vec<&Vec<u16>> = full
        .iter()
        .copied()
        .filter(|p| !f.friendly(*p.last().expect("non-empty")))
        .collect();
    let mut opts: Vec<(Vec<u16>, Vec<u16>)> = Vec::new();
    let mut deplete_instead: Vec<RetreatOption> = Vec::new();
    if !vacant.is_empty() {
        opts = vacant
            .into_iter()
            .map(|p| (p.clone(), Vec::new()))
            .collect();
    } else if !through.is_empty() {
        opts = through
            .into_iter()
            .map(|p| (p.clone(), Vec::new()))
            .collect();
    } else {
        for p in &full {
            let last = *p.last().expect("non-empty");
            let mut used = vec![last];
            used.extend(p.iter().copied());
            for ch in f.chains(last, &mut used, 0) {
                opts.push(((*p).clone(), ch));
            }
            // 8.3.1: deplete instead of displacing, stopping on the last vacant hex.
            let keep = p.iter().rposition(|x| !f.friendly(*x)).map_or(0, |k| k + 1);
            let prefix: Vec<Hex> = p[..keep].iter().map(|x| sc.hex_at(*x)).collect();
            let o = RetreatOption {
                path: prefix,
                displace: Vec::new(),
                loses_step: true,
            };
            if !deplete_instead.contains(&o) {
                deplete_instead.push(o);
            }
        }
    }
    // Direction preference.
    let ends = |o: &(Vec<u16>, Vec<u16>)| *o.0.last().expect("non-empty");
    let better: Vec<(Vec<u16>, Vec<u16>)> = match kind {
        CombatKind::Ground => {
            let ed = sc.edge_distance.get(side);
            let has_edge = !sc.data.map.friendly_edges.get(side).is_empty();
            opts.iter()
                .filter(|o| has_edge && ed[ends(o) as usize] < ed[origin as usize])
                .cloned()
                .collect()
        }
        CombatKind::Bombardment => {
            let hexes_of = |want_enemy: bool| -> Vec<u16> {
                s.units
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != unit && ((sc.units[*i].data.side != side) == want_enemy))
                    .filter_map(|(_, u)| u.hex().and_then(|h| sc.hex_index(h)))
                    .collect()
            };
            let near = |from: u16, set: &[u16]| set.iter().map(|e| sc.distance(from, *e)).min();
            let enemies = hexes_of(true);
            if !enemies.is_empty() {
                let d0 = near(origin, &enemies).unwrap_or(0);
                opts.iter()
                    .filter(|o| near(ends(o), &enemies).unwrap_or(0) > d0)
                    .cloned()
                    .collect()
            } else {
                let friends = hexes_of(false);
                let d0 = near(origin, &friends).unwrap_or(0);
                opts.iter()
                    .filter(|o| near(ends(o), &friends).unwrap_or(0) < d0)
                    .cloned()
                    .collect()
            }
        }
    };
    let chosen = if better.is_empty() { opts } else { better };
    let mut out: Vec<RetreatOption> = chosen
        .into_iter()
        .map(|(p, ch)| RetreatOption {
            path: p.iter().map(|x| sc.hex_at(*x)).collect(),
            displace: ch.iter().map(|x| sc.hex_at(*x)).collect(),
            loses_step: short,
        })
        .collect();
    out.extend(deplete_instead);
    out
}

/// The retreat options open to a unit, with exclusive-rule alternatives (Meuse
/// Argonne 18.2: a German unit may take a D2/D3 as a D1). A one-hex D1 retreat
/// replaces a partial-retreat option along the same hex.
pub(crate) fn retreat_choices(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hexes: u8,
    kind: CombatKind,
) -> Vec<RetreatOption> {
    let opts = retreat_options(sc, s, unit, hexes, kind);
    if !sc.rules().may_downgrade(sc, s, unit, hexes) {
        return opts;
    }
    let d1: Vec<RetreatOption> = retreat_options(sc, s, unit, 1, kind)
        .into_iter()
        .filter(|o| !o.loses_step)
        .collect();
    let mut out: Vec<RetreatOption> = opts
        .into_iter()
        .filter(|o| {
            !d1.iter()
                .any(|d| d.path == o.path && d.displace == o.displace)
        })
        .collect();
    out.extend(d1);
    out
}

fn stage_units(ctx: &Ctx) -> Result<(Side, Vec<UnitId>, u8, CombatKind), RuleError> {
    match &ctx.s.combat {
        Some(c) => match &c.stage {
            CombatStage::Retreat { side, units, hexes } => {
                Ok((*side, units.clone(), *hexes, c.kind))
            }
            _ => refuse("8.3", "no retreat is pending"),
        },
        None => refuse("8.3", "no retreat is pending"),
    }
}

/// 8.3: carry out one unit's retreat.
pub(crate) fn retreat(
    ctx: &mut Ctx,
    unit: &UnitId,
    path: &[Hex],
    displace: &[Hex],
) -> Result<(), RuleError> {
    let (_, units, hexes, kind) = stage_units(ctx)?;
    if !units.contains(unit) {
        return refuse(
            "8.3",
            format!("{unit} is not retreating (retreating: {})", join(&units)),
        );
    }
    let i = ctx.unit(unit)?;
    let from = ctx.s.units[i].hex().expect("retreating unit is on the map");
    let opts = retreat_choices(ctx.sc, &ctx.s, i, hexes, kind);
    let found = opts
        .iter()
        .find(|o| o.path == path && o.displace == displace)
        .cloned();
    if found.is_none() && path.is_empty() && displace.is_empty() {
        if !opts.is_empty() {
            return refuse(
                "8.3",
                format!("{unit} can retreat, so it may not give up the retreat (declare stiff resistance to stay)"),
            );
        }
        // 8.3: cannot retreat at least one hex: eliminated; the retreat still happened.
        ctx.emit(Event::UnitRetreated {
            unit: unit.clone(),
            from,
            path: Vec::new(),
        });
        crate::fm::combat::eliminate(ctx, unit);
        return after_retreat(ctx);
    }
    let Some(opt) = found else {
        return refuse("8.3", explain_path(ctx, i, from, path, &opts));
    };
    // Displace from the far end of the chain back towards the retreat path.
    if !opt.displace.is_empty() {
        let mut holders: Vec<Hex> = vec![*opt.path.last().expect("path")];
        holders.extend(opt.displace[..opt.displace.len() - 1].iter().copied());
        for (k, at) in holders.iter().enumerate().rev() {
            let who = ctx.s.unit_at(*at).expect("displaced unit");
            let id = ctx.s.units.id(who).clone();
            ctx.emit(Event::UnitDisplaced {
                unit: id,
                from: *at,
                to: opt.displace[k],
            });
        }
    }
    ctx.emit(Event::UnitRetreated {
        unit: unit.clone(),
        from,
        path: opt.path.clone(),
    });
    if opt.loses_step {
        lose_step(ctx, unit);
    }
    after_retreat(ctx)
}

fn explain_path(ctx: &Ctx, i: usize, from: Hex, path: &[Hex], opts: &[RetreatOption]) -> String {
    let sc = ctx.sc;
    let side = sc.units[i].data.side;
    let ezoc = ezoc_map(sc, &ctx.s, side);
    let mut prev = from;
    for (k, h) in path.iter().enumerate() {
        let Some(x) = sc.hex_index(*h) else {
            return format!("{h} is off the map: units may not retreat off the map");
        };
        if !sc.layout().adjacent(prev, *h) {
            return format!("{h} is not adjacent to {prev}");
        }
        if sc.layout().distance(from, *h) != k as u32 + 1 {
            return format!("{h} does not take the unit farther from {from}");
        }
        if let Some(o) = ctx.s.unit_at(*h) {
            if sc.units[o].data.side != side {
                return format!("{h} holds an enemy unit");
            }
        }
        if ezoc[x as usize] {
            return format!("{h} is in an enemy zone of control");
        }
        prev = *h;
    }
    let listed: Vec<String> = opts
        .iter()
        .take(6)
        .map(|o| {
            let p: Vec<String> = o.path.iter().map(|h| h.to_string()).collect();
            p.join("-")
        })
        .collect();
    format!(
        "that retreat is not allowed here (8.3 order: full distance, vacant hexes, toward the friendly edge); legal: {}",
        listed.join(", ")
    )
}

/// Whether `unit` may declare stiff resistance in the pending retreat (8.4), and if so
/// the other units its step also holds in place: none under the system rules (8.4 is
/// per unit, R-8.4); under the Suez 1916 CRT key, on D2, A1 and A2, every other unit the
/// result struck (one step from one unit of the owner's choice replaces the whole
/// retreat, R-SU-CRT-key), and on A3 and D3 stiff resistance is refused (10.3).
pub(crate) fn stiff_choice(
    sc: &Scenario,
    s: &State,
    unit: &UnitId,
) -> Result<Vec<UnitId>, RuleError> {
    let Some(c) = &s.combat else {
        return refuse("8.3", "no retreat is pending");
    };
    let CombatStage::Retreat { side, units, .. } = &c.stage else {
        return refuse("8.3", "no retreat is pending");
    };
    if !units.contains(unit) {
        return refuse("8.4", format!("{unit} is not required to retreat"));
    }
    sc.rules().stiff_refusal(sc, c.result)?;
    let struck = if *side == s.active {
        &c.attackers
    } else {
        &c.defenders
    };
    sc.rules().held_by_one_step(sc, c.kind, struck, units, unit)
}

/// 8.4: stiff resistance instead of retreating (Suez 1916 CRT key: for every unit the
/// result struck).
pub(crate) fn stiff_resistance(ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
    let held = stiff_choice(ctx.sc, &ctx.s, unit)?;
    ctx.emit(Event::StiffResistance {
        unit: unit.clone(),
        held,
    });
    lose_step(ctx, unit);
    after_retreat(ctx)
}

fn after_retreat(ctx: &mut Ctx) -> Result<(), RuleError> {
    let c = ctx.s.combat.as_ref().expect("combat");
    let CombatStage::Retreat { side, units, .. } = &c.stage else {
        return Ok(());
    };
    if !units.is_empty() {
        return Ok(());
    }
    // Suez 1916 10.3: after an A3 or D3 retreat the owner depletes one unit.
    if c.kind == CombatKind::Ground && ctx.sc.rules().retreat_costs_step(ctx.sc, c.result) {
        let side = *side;
        let group = if side == ctx.s.active {
            &c.attackers
        } else {
            &c.defenders
        };
        let alive = crate::fm::combat::on_map(ctx.sc, &ctx.s, group);
        match alive.len() {
            0 => {}
            1 => lose_step(ctx, &alive[0]),
            _ => {
                ctx.emit(Event::LossRequired {
                    side,
                    candidates: alive,
                    reason: crate::fm::state::LossReason::AfterRetreat,
                });
                return Ok(());
            }
        }
    }
    finish_retreat(ctx);
    Ok(())
}

/// Once every unit has retreated: the advance after combat (8.5), or the end.
pub(crate) fn finish_retreat(ctx: &mut Ctx) {
    let c = ctx.s.combat.as_ref().expect("combat");
    // 8.5: advance only after a defender's retreat in ground combat.
    let defender_retreated = c
        .defenders
        .first()
        .and_then(|d| ctx.sc.unit_index(d))
        .is_some_and(|i| ctx.sc.units[i as usize].data.side != ctx.s.active);
    let retreat = matches!(c.result, Some(r) if r.defender_retreat().is_some());
    // 8.5: the path of retreat is "a path of vacant hexes": it ends before the first
    // hex a defending-side unit stands in (the retreated unit's own last hex, or a
    // friend it passed), which no attacker could enter or pass.
    let path: Vec<Hex> = c
        .retreat_path
        .iter()
        .copied()
        .take_while(|h| {
            ctx.s
                .units_at(*h)
                .into_iter()
                .all(|o| ctx.sc.units[o].data.side == ctx.s.active)
        })
        .collect();
    if c.kind == CombatKind::Ground && retreat && defender_retreated && !path.is_empty() {
        let eligible: Vec<UnitId> = c
            .attackers
            .iter()
            .filter(|u| {
                ctx.sc.unit_index(u).is_some_and(|i| {
                    matches!(ctx.s.units[i as usize].loc, Location::Map(_))
                        && !free_stops(ctx.sc, &ctx.s, &path, i as usize).is_empty()
                })
            })
            .cloned()
            .collect();
        if !eligible.is_empty() {
            ctx.emit(Event::AdvanceOffered {
                path,
                units: eligible,
            });
            return;
        }
    }
    end(ctx);
}

/// Indices of the path-of-retreat hexes unit `unit` could stop in: vacant ones (or,
/// Suez 1916 17.1, where it may stack), up to the first enemy unit (friends may be
/// passed, 8.5), within its advance limit (Suez 1916 10.3).
fn free_stops(sc: &Scenario, s: &State, path: &[Hex], unit: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let limit = sc.rules().advance_limit(sc, unit).unwrap_or(usize::MAX);
    for (k, h) in path.iter().enumerate() {
        if k > limit {
            break;
        }
        match s.unit_at(*h) {
            Some(o) if sc.units[o].data.side != s.active => break,
            Some(_) => {
                if sc.rules().may_stack(sc, s, unit, *h) {
                    out.push(k);
                }
            }
            None => out.push(k),
        }
    }
    if sc.rules().rail_bound(sc, unit) {
        // 13.3: only along the railroad from the train's hex.
        let mut cur = s.units[unit].hex().and_then(|h| sc.hex_index(h));
        let mut ok = Vec::new();
        for (k, h) in path.iter().enumerate() {
            let (Some(c), Some(x)) = (cur, sc.hex_index(*h)) else {
                break;
            };
            match sc.direction(c, x) {
                Some(d) if sc.hexes[c as usize].sides[d] & sc.masks.rail_side != 0 => {}
                _ => break,
            }
            ok.push(k);
            cur = Some(x);
        }
        out.retain(|k| ok.contains(k));
    }
    out
}

/// Whether unit `i` could advance to `path[k]` now.
pub(crate) fn may_advance_to(sc: &Scenario, s: &State, i: usize, path: &[Hex], k: usize) -> bool {
    free_stops(sc, s, path, i).contains(&k)
}

/// Advance destinations of `unit` for the pending advance: every free hex on the path
/// it may reach.
pub(crate) fn advance_targets(s: &State, sc: &Scenario, path: &[Hex], unit: &UnitId) -> Vec<Hex> {
    let Some(i) = sc.unit_index(unit) else {
        return Vec::new();
    };
    free_stops(sc, s, path, i as usize)
        .into_iter()
        .map(|k| path[k])
        .collect()
}

/// 8.5: advance one unit along the path of retreat.
pub(crate) fn advance(ctx: &mut Ctx, unit: &UnitId, to: Hex) -> Result<(), RuleError> {
    let Some(CombatStage::Advance { path, units }) = ctx.s.combat.as_ref().map(|c| c.stage.clone())
    else {
        return refuse("8.5", "no advance after combat is pending");
    };
    if !units.contains(unit) {
        return refuse(
            "8.5",
            format!("{unit} did not take part in this combat or has already advanced"),
        );
    }
    let Some(k) = path.iter().position(|h| *h == to) else {
        return refuse("8.5", format!("{to} is not on the path of retreat"));
    };
    let i = ctx.unit(unit)?;
    if !free_stops(ctx.sc, &ctx.s, &path, i).contains(&k) {
        if ctx
            .sc
            .rules()
            .advance_limit(ctx.sc, i)
            .is_some_and(|l| k > l)
        {
            return refuse(
                "10.3",
                format!("{unit} is not a mobile unit: it advances one hex at most"),
            );
        }
        return refuse(
            "8.5",
            format!("{to} cannot be reached along the path of retreat or is occupied"),
        );
    }
    let from = ctx.s.units[i].hex().expect("on map");
    ctx.emit(Event::UnitAdvanced {
        unit: unit.clone(),
        from,
        path: path[..=k].to_vec(),
    });
    let more = match &ctx.s.combat.as_ref().expect("combat").stage {
        CombatStage::Advance { units, .. } => units.iter().any(|u| {
            ctx.sc
                .unit_index(u)
                .is_some_and(|j| !free_stops(ctx.sc, &ctx.s, &path, j as usize).is_empty())
        }),
        _ => false,
    };
    if !more {
        end(ctx);
    }
    Ok(())
}
