//! Firing (pages 11-13): who may fire, at what, the Fire Factor and its modifiers, hits,
//! and the removal of bases (the owner's choice, marker bases last).
//!
//! Rulings (docs/rulings.md, Huzzah): range is measured from the firer's centre to the
//! centre of the target's closest visible face (page 11); only enemy units in the arc
//! of fire, not blocked by another unit, within range and seen by at least one base can
//! be chosen; a target at short range must be chosen when there is one; the "front
//! line" of the +1 for every two bases is the firer's front-rank bases that can see
//! the target. A target is in cover when it is deployed in dense terrain (woods soft,
//! buildings hard) or its footprint touches a hedge or orchard (soft) or a wall (hard);
//! the page 12 list gives strongpoints no fire modifier.

use crate::error::RuleError;
use crate::huzzah::engine::{m, Ctx};
use crate::huzzah::event::{Event, Modifier};
use crate::huzzah::geometry::{self, Face, Len, Point, Polygon, Shape};
use crate::huzzah::quality::{self, Quality};
use crate::huzzah::scenario::{Arm, BaseKind, Cover, OfficerIx, Scenario, UnitIx};
use crate::huzzah::state::{Pending, State, Status, TargetStage, Whereabouts};
use crate::ids::Side;

/// A unit on the table.
pub fn on_table(s: &State, u: UnitIx) -> bool {
    s.unit(u).at == Whereabouts::Table
}

/// The range of a unit's weapons (page 11): infantry 20 cm, reserve foot and horse
/// artillery 60 cm, heavy 80 cm (a grand battery uses its shortest); `None` for
/// cavalry.
pub fn weapon_range(sc: &Scenario, s: &State, u: UnitIx) -> Option<Len> {
    match sc.unit(u).arm {
        Arm::Cavalry => None,
        Arm::Infantry => Some(Len::cm(20)),
        Arm::Artillery => s
            .unit(u)
            .bases
            .iter()
            .map(|b| match b {
                BaseKind::HeavyArtillery => Len::cm(80),
                _ => Len::cm(60),
            })
            .min(),
    }
}

/// Page 11: chargers, routers, cavalry and units in road column cannot fire.
pub fn may_fire(sc: &Scenario, s: &State, u: UnitIx) -> bool {
    let st = s.unit(u);
    on_table(s, u)
        && st.status != Status::Routing
        && !st.charger
        && !st.column
        && weapon_range(sc, s, u).is_some()
}

/// Why `u` may not fire at all, by the rule it breaks (`None` if it may): pages 11-12,
/// "Chargers, routers, and cavalry units cannot fire", "Units in road column cannot
/// fire".
pub fn why_not_fire(sc: &Scenario, s: &State, u: UnitIx) -> Option<RuleError> {
    let st = s.unit(u);
    let id = &sc.unit(u).id;
    let (page, why) = if !on_table(s, u) {
        ("p11", format!("{id} is not on the table"))
    } else if sc.unit(u).arm == Arm::Cavalry {
        (
            "p11",
            format!("{id} is cavalry, and cavalry units cannot fire"),
        )
    } else if st.status == Status::Routing {
        ("p11", format!("{id} is routing, and routers cannot fire"))
    } else if st.charger {
        (
            "p11",
            format!("{id} charged this turn, and chargers cannot fire"),
        )
    } else if st.column {
        (
            "p12",
            format!("{id} is in road column, and units in road column cannot fire"),
        )
    } else {
        return None;
    };
    Some(RuleError::new(page, why))
}

/// Why `u` is not among the units of `side` that declare fire now (page 11: "Any of
/// the phasing army's units or grand batteries that can see an enemy unit can fire at
/// it"): the first reason that applies, in words.
pub fn why_not_declare(sc: &Scenario, s: &State, side: Side, u: UnitIx) -> RuleError {
    let id = &sc.unit(u).id;
    if sc.unit(u).side != side {
        return RuleError::new(
            "p11",
            format!(
                "{id} is side {}'s, and side {side}'s units fire now",
                sc.unit(u).side
            ),
        );
    }
    if s.firing.declarations.iter().any(|d| d.unit == u) {
        return RuleError::new(
            "p11",
            format!("{id} has already declared its fire this phase"),
        );
    }
    if let Some(e) = why_not_fire(sc, s, u) {
        return e;
    }
    if let Some(t) = sc
        .unit_ixs(side.other())
        .find(|t| on_table(s, *t) && s.began_in_combat(u, *t))
    {
        return began_in_combat(id, &sc.unit(t).id);
    }
    RuleError::new(
        "p11",
        format!("{id} has no target: no enemy unit is in its arc of fire and range, unblocked by another unit, and in a base's line of sight"),
    )
}

/// A possible target, as the rules measure it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TargetChoice {
    /// The target.
    pub target: UnitIx,
    /// The range.
    pub range: Len,
    /// Under half range.
    pub short: bool,
    /// Bases of the firer that see it.
    pub bases: u8,
}

/// The dense-terrain polygons that block a line of sight between two units: every
/// sector that neither of them is deployed in.
fn dense_blockers(sc: &Scenario, s: &State, a: UnitIx, b: UnitIx) -> Vec<Polygon> {
    let skip = [s.unit(a).sector, s.unit(b).sector];
    let mut out = Vec::new();
    for (ti, t) in sc.terrain().iter().enumerate() {
        if !t.kind.is_dense() {
            continue;
        }
        for (si, sector) in t.sectors.iter().enumerate() {
            let here = skip
                .iter()
                .any(|x| x.is_some_and(|x| x.terrain.index() == ti && x.sector as usize == si));
            if !here {
                out.push(Polygon(sector.clone()));
            }
        }
    }
    out
}

/// The bases of `firer` with a clear line of sight to `target` (page 11).
pub fn seeing_bases(sc: &Scenario, s: &State, firer: UnitIx, target: UnitIx) -> Vec<usize> {
    seeing_bases_with(sc, s, firer, target, None)
}

/// The bases that fire: all of the unit's, or those a declaration names (page 12: "A
/// unit can fire with fewer bases to bring a target into range or into close range").
/// Base indices count rank by rank from the front, left to right.
pub type Group<'a> = Option<&'a [u8]>;

/// The centre the range of a firing group is measured from: the unit's centre, or the
/// centre of the named bases (the mean of their centres; ruling R-HZ-12d).
pub fn group_centre(shape: &Shape, group: Group) -> Point {
    let Some(g) = group else {
        return shape.centre();
    };
    let bases = shape.bases();
    let chosen: Vec<Point> = g
        .iter()
        .filter_map(|i| bases.get(*i as usize))
        .map(|q| q.centre())
        .collect();
    if chosen.is_empty() {
        return shape.centre();
    }
    let n = chosen.len() as i64;
    let (x, y) = chosen
        .iter()
        .fold((0i64, 0i64), |(x, y), p| (x + p.x.0, y + p.y.0));
    Point::new(Len(x.div_euclid(n)), Len(y.div_euclid(n)))
}

/// The range of a firing group to a target: its centre to the centre of the target's
/// closest visible face (page 11).
pub fn group_range(firer: &Shape, group: Group, target: &Shape) -> Option<Len> {
    if group.is_none() {
        return geometry::fire_range(firer, target);
    }
    let c = group_centre(firer, group);
    let (_, face) = geometry::closest_visible_face(target, c)?;
    Some(geometry::dist(c, face.mid()))
}

/// The bases of a firing group that see `target`.
pub fn seeing_bases_with(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
    group: Group,
) -> Vec<usize> {
    let others: Vec<&Shape> = (0..s.units.len() as u16)
        .map(UnitIx)
        .filter(|x| *x != firer && *x != target && on_table(s, *x))
        .map(|x| &s.unit(x).shape)
        .collect();
    let dense_owned = dense_blockers(sc, s, firer, target);
    let dense: Vec<&Polygon> = dense_owned.iter().collect();
    let f = &s.unit(firer).shape;
    let t = &s.unit(target).shape;
    (0..f.ranks.iter().map(|n| *n as usize).sum())
        .filter(|i| group.map_or(true, |g| g.iter().any(|b| *b as usize == *i)))
        .filter(|i| geometry::base_has_los(f, *i, t, &others, &dense))
        .collect()
}

/// Every target `firer` could choose if no short-range rule applied: enemy units on
/// the table in its arc, within range, not blocked by another unit, seen by a base.
pub fn candidates(sc: &Scenario, s: &State, firer: UnitIx) -> Vec<TargetChoice> {
    candidates_with(sc, s, firer, None)
}

/// [`candidates`] for a firing group.
pub fn candidates_with(sc: &Scenario, s: &State, firer: UnitIx, group: Group) -> Vec<TargetChoice> {
    let Some(range) = weapon_range(sc, s, firer) else {
        return Vec::new();
    };
    let side = sc.unit(firer).side;
    let f = &s.unit(firer).shape;
    let from = group_centre(f, group);
    let mut out = Vec::new();
    for t in sc.unit_ixs(side.other()) {
        // Page 13: units that began the turn in combat do not fire at each other, in
        // this turn's Firing phases as in its Fire at Chargers (ruling R-HZ-13b).
        if !on_table(s, t) || s.began_in_combat(firer, t) {
            continue;
        }
        let ts = &s.unit(t).shape;
        if beyond_range(from, ts, range) {
            continue;
        }
        let Some(r) = group_range(f, group, ts) else {
            continue;
        };
        if r > range || !geometry::in_arc(f, ts) {
            continue;
        }
        let blocked = (0..s.units.len() as u16).map(UnitIx).any(|o| {
            o != firer && o != t && on_table(s, o) && geometry::blocks(f, ts, &s.unit(o).shape)
        });
        if blocked {
            continue;
        }
        let bases = seeing_bases_with(sc, s, firer, t, group).len();
        if bases == 0 {
            continue;
        }
        out.push(TargetChoice {
            target: t,
            range: r,
            short: r.0 * 2 < range.0,
            bases: bases as u8,
        });
    }
    out
}

/// Whether `target` is surely out of a weapon's `range` from `from`, judged by the box
/// round its footprint ([`Shape::aabb`]): the range runs to a point of the footprint
/// (a face's centre, page 11, rounded down to whole units), so a target whose box is
/// farther is out of range. Most of the table is ruled out so, before the exact range
/// and the arc.
pub(crate) fn beyond_range(from: Point, target: &Shape, range: Len) -> bool {
    let p = [from.x.0, from.y.0, from.x.0, from.y.0];
    geometry::boxes_beyond(p, target.aabb(), range)
}

/// The targets `firer` may choose (page 11: one at short range when there is one).
pub fn targets(sc: &Scenario, s: &State, firer: UnitIx) -> Vec<TargetChoice> {
    if !may_fire(sc, s, firer) {
        return Vec::new();
    }
    let all = candidates(sc, s, firer);
    if all.iter().any(|c| c.short) {
        all.into_iter().filter(|c| c.short).collect()
    } else {
        all
    }
}

/// Checks a declaration.
///
/// # Errors
/// The page-11 rule it breaks.
pub fn check_target(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
) -> Result<TargetChoice, RuleError> {
    let ok = targets(sc, s, firer);
    if let Some(c) = ok.iter().find(|c| c.target == target) {
        return Ok(*c);
    }
    let (fid, tid) = (&sc.unit(firer).id, &sc.unit(target).id);
    if s.began_in_combat(firer, target) {
        return Err(began_in_combat(fid, tid));
    }
    let why = if sc.unit(target).side == sc.unit(firer).side {
        format!("{tid} is a friendly unit")
    } else if !on_table(s, target) {
        format!("{tid} is not on the table")
    } else if candidates(sc, s, firer).iter().any(|c| c.target == target) {
        format!("{fid} has a target at short range and must shoot at one of those")
    } else {
        let f = &s.unit(firer).shape;
        let t = &s.unit(target).shape;
        if !geometry::in_arc(f, t) {
            format!("{tid} is outside {fid}'s arc of fire (45 degrees either side)")
        } else if geometry::fire_range(f, t).map_or(true, |r| Some(r) > weapon_range(sc, s, firer))
        {
            format!("{tid} is out of {fid}'s range")
        } else if seeing_bases(sc, s, firer, target).is_empty() {
            format!("no base of {fid} has a clear line of sight to {tid}")
        } else {
            format!("{tid} is fully or partly blocked by another unit")
        }
    };
    Err(RuleError::new("p11", why))
}

/// The page-13 refusal of fire between two units that began the turn in combat.
fn began_in_combat(fid: &impl std::fmt::Display, tid: &impl std::fmt::Display) -> RuleError {
    RuleError::new(
        "p13",
        format!(
            "{fid} and {tid} began the turn in combat, and units that begin the turn in combat cannot fire at each other"
        ),
    )
}

/// Checks a firing group: distinct bases of the unit, fewer than all of them.
///
/// # Errors
/// `"input"` for an index the unit does not have or a repeated one; `"p12"` for a
/// group of none or of every base (leave `bases` out to fire with the whole unit).
pub fn check_group(s: &State, firer: UnitIx, group: &[u8]) -> Result<(), RuleError> {
    let n = s.unit(firer).bases.len();
    if let Some(b) = group.iter().find(|b| **b as usize >= n) {
        return Err(RuleError::new(
            "input",
            format!(
                "the unit has {n} bases, numbered 0 to {}; no base {b}",
                n.saturating_sub(1)
            ),
        ));
    }
    let mut seen = group.to_vec();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != group.len() {
        return Err(RuleError::new("input", "a base is named twice"));
    }
    if group.is_empty() || group.len() >= n {
        return Err(RuleError::new(
            "p12",
            "fewer bases means some but not all of the unit's (leave bases out to fire with all)",
        ));
    }
    Ok(())
}

/// Checks a declaration that fires with some of the unit's bases (page 12): the group
/// must have the target in range and in sight, and if the whole unit has a target at
/// short range the group's fire must be at short range.
///
/// # Errors
/// The rule it breaks.
pub fn check_target_with(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
    group: Group,
) -> Result<TargetChoice, RuleError> {
    let Some(g) = group else {
        return check_target(sc, s, firer, target);
    };
    if !may_fire(sc, s, firer) {
        return check_target(sc, s, firer, target);
    }
    check_group(s, firer, g)?;
    let (fid, tid) = (&sc.unit(firer).id, &sc.unit(target).id);
    if s.began_in_combat(firer, target) {
        return Err(began_in_combat(fid, tid));
    }
    let Some(c) = candidates_with(sc, s, firer, group)
        .into_iter()
        .find(|c| c.target == target)
    else {
        return Err(RuleError::new(
            "p11",
            format!("{tid} is not a target the named bases of {fid} can fire at (arc, range, line of sight, blocking)"),
        ));
    };
    if !c.short && targets(sc, s, firer).iter().any(|t| t.short) {
        return Err(RuleError::new(
            "p11",
            format!("{fid} has a target at short range and must shoot at one of those"),
        ));
    }
    Ok(c)
}

/// The fewer-bases fires worth offering (page 12): for each contiguous run of the front
/// rank, each target it brings into range, or into short range, that the whole unit
/// does not reach so.
pub fn group_options(sc: &Scenario, s: &State, firer: UnitIx) -> Vec<(UnitIx, Vec<u8>)> {
    let full = targets(sc, s, firer);
    if !may_fire(sc, s, firer) {
        return Vec::new();
    }
    let front = s.unit(firer).shape.ranks.first().copied().unwrap_or(0);
    let n = s.unit(firer).bases.len();
    let mut out = Vec::new();
    for len in 1..=front {
        for start in 0..=(front - len) {
            let g: Vec<u8> = (start..start + len).collect();
            if g.len() >= n {
                continue;
            }
            for c in candidates_with(sc, s, firer, Some(&g)) {
                let whole = full.iter().find(|f| f.target == c.target);
                let better = match whole {
                    None => true,
                    Some(f) => c.short && !f.short,
                };
                if better && check_target_with(sc, s, firer, c.target, Some(&g)).is_ok() {
                    out.push((c.target, g.clone()));
                }
            }
        }
    }
    out
}

/// The units of `side` that can still declare: may fire, have a target (with the whole
/// unit, or with fewer bases: page 12), and have not declared this phase.
pub fn to_declare(sc: &Scenario, s: &State, side: Side) -> Vec<UnitIx> {
    sc.unit_ixs(side)
        .filter(|u| !s.firing.declarations.iter().any(|d| d.unit == *u))
        .filter(|u| !targets(sc, s, *u).is_empty() || !group_options(sc, s, *u).is_empty())
        .collect()
}

/// The cover a unit is in (page 12), for fire; `None` in the open.
pub fn cover(sc: &Scenario, s: &State, u: UnitIx) -> Option<Cover> {
    let st = s.unit(u);
    if let Some(sec) = st.sector {
        return sc.terrain_piece(sec.terrain).kind.cover();
    }
    let bases = st.shape.bases();
    let mut best: Option<Cover> = None;
    for t in sc.terrain() {
        if t.kind.is_dense() {
            continue;
        }
        let Some(c) = t.kind.cover() else { continue };
        let poly = Polygon(t.polygon.clone());
        if bases.iter().any(|q| poly.intersects_quad(q)) {
            best = Some(match (best, c) {
                (Some(Cover::Strongpoint), _) | (_, Cover::Strongpoint) => Cover::Strongpoint,
                (Some(Cover::Hard), _) | (_, Cover::Hard) => Cover::Hard,
                _ => Cover::Soft,
            });
        }
    }
    best
}

/// The Fire Factor of a unit of known quality (page 11).
pub fn fire_factor(sc: &Scenario, u: UnitIx, q: Quality) -> i8 {
    match sc.unit(u).arm.fire_arm() {
        Some(arm) => q.fire_factor(arm) as i8,
        None => 0,
    }
}

/// The modifiers of `firer`'s fire at `target` (page 12), from the state as it is.
pub fn fire_modifiers(sc: &Scenario, s: &State, firer: UnitIx, target: UnitIx) -> Vec<Modifier> {
    fire_modifiers_with(sc, s, firer, target, None)
}

/// [`fire_modifiers`] for a firing group.
pub fn fire_modifiers_with(
    sc: &Scenario,
    s: &State,
    firer: UnitIx,
    target: UnitIx,
    group: Group,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    let f = s.unit(firer);
    let t = s.unit(target);
    let fdef = sc.unit(firer);
    let tdef = sc.unit(target);
    let side = fdef.side;
    if f.status == Status::Disordered {
        mods.push(m("firer is disordered", -1));
    }
    if f.shape.square {
        mods.push(m("firer is in square", -1));
    }
    if s.superiority == Some(tdef.side) {
        mods.push(m("target has skirmisher superiority", -1));
    }
    if tdef.is_irregular() {
        mods.push(m("target is Irregular troops", -1));
    }
    if sc.conditions_on(s.turn.max(1)).1.is_foul() {
        mods.push(m("foul weather", -1));
    }
    match cover(sc, s, target) {
        Some(Cover::Soft) => mods.push(m("target is in soft cover", -1)),
        Some(Cover::Hard) => mods.push(m("target is in hard cover", -2)),
        _ => {}
    }
    let seeing = seeing_bases_with(sc, s, firer, target, group);
    if f.sector.is_some() {
        let n = group.map_or(f.bases.len(), |g| g.len()) / 3;
        if n > 0 {
            mods.push(m("every three bases in dense terrain", n as i8));
        }
    } else {
        let front = f.shape.ranks.first().copied().unwrap_or(0) as usize;
        let n = seeing.iter().filter(|i| **i < front).count() / 2;
        if n > 0 {
            mods.push(m("every two bases in the front line", n as i8));
        }
    }
    if let (Some(range), Some(r)) = (
        weapon_range(sc, s, firer),
        group_range(&f.shape, group, &t.shape),
    ) {
        if r.0 * 2 < range.0 {
            mods.push(m("target at short range", 1));
        }
    }
    if let Some((face, _)) = geometry::closest_visible_face(&t.shape, group_centre(&f.shape, group))
    {
        if face != Face::Front && !t.shape.square {
            mods.push(m("firing on the target's flank or rear", 1));
        }
    }
    if t.shape.square {
        mods.push(m("target is in square", 1));
    }
    if s.armies.get(side).artillery_effective {
        if f.bases.contains(&BaseKind::DivisionalArtillery) {
            mods.push(m("divisional artillery attached (effective)", 1));
        }
        let grand = f.bases.iter().filter(|b| b.is_reserve_artillery()).count() >= 2;
        if grand {
            if t.shape.ranks.len() >= 2 {
                mods.push(m("grand battery at a target more than one base deep", 1));
            }
            if f.bases.contains(&BaseKind::HeavyArtillery) {
                mods.push(m("grand battery with heavy artillery", 1));
            }
            if t.shape.square {
                mods.push(m("grand battery at a square", 1));
            }
        }
    }
    mods
}

/// Hits of a fire test: the margin, plus one on a Huzzah! (page 12); 0 on a failure.
pub fn hits_of(factor: i8, passed: bool, total: u8, huzzah: bool) -> u8 {
    if !passed {
        return 0;
    }
    let margin = (factor as i32 - total as i32).max(0) as u8;
    margin + u8::from(huzzah)
}

/// Rolls a unit's quality if it is not yet known (page 4).
pub(crate) fn ensure_quality(ctx: &mut Ctx, u: UnitIx) -> Quality {
    if let Some(q) = ctx.s.unit(u).quality {
        return q;
    }
    let sc = ctx.sc;
    let expected = quality::unit_expected(sc, &ctx.s, u);
    let st = ctx.s.unit(u);
    let (g, d) = (st.grognards, st.disciplined);
    let rng = &mut *ctx.rng;
    let mut attempt = 0u32;
    let mut roll = || {
        // A Huzzah! on the first roll is rolled again (page 4): attempt 2.
        attempt += 1;
        crate::chance::roll_for(2, || {
            crate::chance::ChanceRoll::new("quality", "2d6")
                .with("unit", sc.unit_id(u))
                .with("attempt", attempt)
        });
        let a = crate::huzzah::engine::d6(rng);
        let b = crate::huzzah::engine::d6(rng);
        (a, b)
    };
    let r = quality::determine(sc.quality_table(), expected, g, d, &mut roll);
    let mut gained = Vec::new();
    if r.gained_grognards {
        gained.push(crate::huzzah::event::Ability::Grognards);
    }
    if r.gained_disciplined {
        gained.push(crate::huzzah::event::Ability::Disciplined);
    }
    ctx.emit(Event::QualityDetermined {
        unit: ctx.sc.unit_id(u),
        rolls: r
            .rolls
            .iter()
            .map(|(a, b)| crate::huzzah::state::Dice(*a, *b))
            .collect(),
        quality: r.quality,
        gained,
    });
    r.quality
}

/// What a step of a phase came to.
pub(crate) enum Step {
    /// A player must decide.
    Wait(Pending),
    /// The phase is over.
    Done,
    /// Run the main loop again (hits are waiting to become lost bases).
    Again,
}

/// One step of the firing phase: declarations, then resolution.
pub(crate) fn step(ctx: &mut Ctx, side: Side) -> Step {
    let sc = ctx.sc;
    if !ctx.s.firing.resolving {
        let units = to_declare(sc, &ctx.s, side);
        if !units.is_empty() {
            return Step::Wait(Pending::DeclareFire {
                side,
                units: ctx.sc.unit_ids(&units),
            });
        }
        // Page 11: all targets are declared before any fire is resolved.
        let decls: Vec<(UnitIx, UnitIx, Option<Vec<u8>>)> = ctx
            .s
            .firing
            .declarations
            .iter()
            .filter_map(|d| d.target.map(|t| (d.unit, t, d.bases.clone())))
            .collect();
        if decls.is_empty() {
            return Step::Done;
        }
        for (f, t, g) in decls {
            roll_fire(ctx, f, t, g.as_deref(), false);
        }
    }
    resolve_targets(ctx)
}

/// Rolls one unit's fire (pages 11-12): its quality if unknown, the Fire Factor and
/// its modifiers, the test, the hits. `at_short` gives the short-range +1 whatever
/// the range (fire at chargers, page 13).
pub(crate) fn roll_fire(ctx: &mut Ctx, f: UnitIx, t: UnitIx, group: Group, at_short: bool) {
    let sc = ctx.sc;
    let q = ensure_quality(ctx, f);
    let base = fire_factor(sc, f, q);
    let mut mods = fire_modifiers_with(sc, &ctx.s, f, t, group);
    if at_short && !mods.iter().any(|x| x.why == "target at short range") {
        mods.push(m("target at short range", 1));
    }
    let bases = seeing_bases_with(sc, &ctx.s, f, t, group).len() as u8;
    crate::chance::roll_for(2, || {
        let name = if at_short { "fire_at_chargers" } else { "fire" };
        crate::chance::ChanceRoll::new(name, "2d6")
            .with("unit", sc.unit_id(f))
            .with("target", sc.unit_id(t))
    });
    let test = ctx.test(base, mods, true);
    let hits = hits_of(
        test.factor,
        test.passed,
        test.dice.total(),
        test.dice.huzzah(),
    );
    ctx.emit(Event::FireResolved {
        unit: ctx.sc.unit_id(f),
        target: ctx.sc.unit_id(t),
        bases,
        test,
        hits,
    });
}

/// Resolves each target in turn: hits into lost bases, the officer's saving throw, the
/// morale test and its consequences.
pub(crate) fn resolve_targets(ctx: &mut Ctx) -> Step {
    while let Some(t) = ctx.s.firing.targets.first().cloned() {
        if !on_table(&ctx.s, t.unit) {
            ctx.emit(Event::TargetResolved {
                unit: ctx.sc.unit_id(t.unit),
            });
            continue;
        }
        match t.stage {
            TargetStage::Rolled => {
                ctx.emit(Event::HitsApplied {
                    unit: ctx.sc.unit_id(t.unit),
                    hits: t.hits,
                });
                // The removal runs from the main loop (the owner may choose).
                return Step::Again;
            }
            TargetStage::Removing => return Step::Again,
            TargetStage::Removed => {
                crate::huzzah::morale::after_fire(ctx, &t);
                ctx.emit(Event::TargetResolved {
                    unit: ctx.sc.unit_id(t.unit),
                });
            }
        }
    }
    Step::Done
}

/// A base that may be removed now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Removal {
    /// Its rank.
    pub rank: u8,
    /// Its kind.
    pub kind: BaseKind,
    /// It is the marker of an ability (divisional artillery, Skirmish (Limited)).
    pub marker: Option<&'static str>,
    /// Hits it takes.
    pub hits: u8,
}

/// The bases the owner may remove next from `u` with its current hits (page 12):
/// non-marker bases while two or more remain; a marker first when the only other base
/// left shows the unit's type; one whose hits are covered.
pub fn removal_candidates(_sc: &Scenario, s: &State, u: UnitIx) -> Vec<Removal> {
    let st = s.unit(u);
    let hits = st.hits;
    // The Skirmish (Limited) marker is one of the infantry bases while the ability
    // lasts (ruling: which one is immaterial, all infantry bases being equal).
    let infantry = st
        .bases
        .iter()
        .filter(|b| **b == BaseKind::Infantry)
        .count();
    let skirm = usize::from(st.skirmish_limited && infantry > 0);
    let markers = st
        .bases
        .iter()
        .filter(|b| **b == BaseKind::DivisionalArtillery)
        .count()
        + skirm;
    let plain = st.bases.len() - markers;
    let take_markers = plain <= 1 && markers > 0;
    let mut out: Vec<Removal> = Vec::new();
    let mut start = 0usize;
    for (r, n) in st.shape.ranks.iter().enumerate() {
        for b in &st.bases[start..start + *n as usize] {
            let marker = if *b == BaseKind::DivisionalArtillery {
                Some("divisional artillery")
            } else if skirm == 1 && *b == BaseKind::Infantry && (take_markers || plain == 0) {
                Some("skirmish (limited)")
            } else {
                None
            };
            if marker.is_some() != take_markers {
                continue;
            }
            let c = Removal {
                rank: r as u8,
                kind: *b,
                marker,
                hits: b.hits(),
            };
            if c.hits <= hits && !out.iter().any(|o| o.rank == c.rank && o.kind == c.kind) {
                out.push(c);
            }
        }
        start += *n as usize;
    }
    out
}

/// The shape of a unit after losing a base from `rank`: the rank closes up on the
/// axis; if the front rank goes, the next becomes the front.
pub fn shape_without(shape: &Shape, rank: u8) -> Shape {
    let mut out = shape.clone();
    let r = rank as usize;
    out.ranks[r] -= 1;
    if out.ranks[r] == 0 {
        out.ranks.remove(r);
        if r == 0 && !out.ranks.is_empty() {
            out.anchor =
                geometry::rotate(shape.anchor, shape.facing, Len::ZERO, Len(-shape.base.0));
        }
    }
    out
}

/// Removes one base (the owner's choice or the only one).
pub(crate) fn remove_base(ctx: &mut Ctx, u: UnitIx, c: Removal) {
    let shape = shape_without(&ctx.s.unit(u).shape, c.rank);
    ctx.emit(Event::BaseRemoved {
        unit: ctx.sc.unit_id(u),
        rank: c.rank,
        kind: c.kind,
        hits: c.hits,
        shape,
    });
    if let Some(ability) = c.marker {
        ctx.emit(Event::AbilityLost {
            unit: ctx.sc.unit_id(u),
            ability: ability.to_string(),
        });
    }
    if ctx.s.unit(u).bases.is_empty() {
        // Page 15: an officer dies with his unit, without a saving throw.
        if let Some(o) = ctx.s.attached_officer(u) {
            ctx.emit(Event::OfficerKilled {
                officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                unit: ctx.sc.unit_id(u),
            });
        }
        ctx.emit(Event::UnitDestroyed {
            unit: ctx.sc.unit_id(u),
        });
    }
}

/// One step of turning a unit's hits into lost bases: `Some` when the owner must
/// choose.
pub(crate) fn removal_step(ctx: &mut Ctx, u: UnitIx) -> Option<Pending> {
    let cands = removal_candidates(ctx.sc, &ctx.s, u);
    match cands.len() {
        0 => {
            let odd_hits = ctx.s.unit(u).hits;
            ctx.emit(Event::RemovalDone {
                unit: ctx.sc.unit_id(u),
                odd_hits,
            });
            None
        }
        1 => {
            remove_base(ctx, u, cands[0]);
            None
        }
        _ => Some(Pending::RemoveBase {
            side: ctx.sc.unit(u).side,
            unit: ctx.sc.unit_id(u),
            hits: ctx.s.unit(u).hits,
        }),
    }
}
