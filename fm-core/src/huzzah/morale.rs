//! Morale, force backs and routs (pages 13-15), the officers' saving throws (page 15),
//! and the removal of odd hits at the end of the Rally phase (page 12).
//!
//! Rulings (docs/rulings.md, Huzzah): a renowned unit is "faced" when it is within one
//! move of the tester and in the tester's arc; "in good order" is a formed (not
//! disordered) tester; an attached officer's saving throw uses the hits of this phase's
//! fire, and is taken only when there was at least one; a unit falling back or routing
//! through friends takes one hit for each friendly unit it passes; a router whose path
//! meets an unoccupied sector of dense terrain stops at its edge, one meeting a
//! friend-held sector is placed its remaining distance beyond it, and one meeting an
//! enemy-held sector is captured.

use crate::huzzah::engine::{m, Ctx};
use crate::huzzah::event::{Ability, Event, Modifier};
use crate::huzzah::firing::{cover, ensure_quality, on_table};
use crate::huzzah::geometry::{self, Len, Polygon, Shape};
use crate::huzzah::scenario::{
    Cover, MoveFormation, OfficerIx, Scenario, SectorRef, TerrainIx, UnitIx,
};
use crate::huzzah::state::{State, Status, Target};

/// How far a unit could advance on an order (squares cannot move): its move in its
/// formation.
pub fn advance_of(sc: &Scenario, s: &State, u: UnitIx) -> Len {
    let st = s.unit(u);
    if st.shape.square {
        return Len::ZERO;
    }
    rate(sc, s, u, st.column)
}

/// A unit's move in line (or open order, for Irregulars) or in road column.
pub fn rate(sc: &Scenario, _s: &State, u: UnitIx, column: bool) -> Len {
    let f = if column {
        MoveFormation::Column
    } else if sc.unit(u).is_irregular() {
        MoveFormation::Open
    } else {
        MoveFormation::Line
    };
    sc.unit_move_rate(u, f)
}

/// The drift allowed at the end of an advance (page 19).
pub const DRIFT: Len = Len::cm(5);

/// Page 18: either unit could reach the other on an advance order.
pub fn within_one_move(sc: &Scenario, s: &State, a: UnitIx, b: UnitIx) -> bool {
    geometry::within_one_move(
        &s.unit(a).shape,
        advance_of(sc, s, a),
        &s.unit(b).shape,
        advance_of(sc, s, b),
        DRIFT,
    )
}

/// The complete support ranks of a formation (page 21: a rank at least as wide as the
/// front rank, with at least two bases in front).
pub fn support_ranks(ranks: &[u8]) -> usize {
    match ranks.first() {
        Some(front) if *front >= 2 => ranks[1..].iter().filter(|r| **r >= *front).count(),
        _ => 0,
    }
}

/// The modifiers of `u`'s morale test now (page 14); `ranks_before` is its formation
/// before this fire's losses.
pub fn morale_modifiers(sc: &Scenario, s: &State, u: UnitIx, ranks_before: &[u8]) -> Vec<Modifier> {
    let st = s.unit(u);
    let side = sc.unit(u).side;
    let mut mods = Vec::new();
    if st.lost_this_turn > 0 {
        mods.push(m(
            "each base lost this turn",
            -(st.lost_this_turn.min(20) as i8),
        ));
    }
    let renowned = sc.unit_ixs(side.other()).any(|e| {
        sc.unit(e).flags.renowned
            && on_table(s, e)
            && geometry::in_arc(&st.shape, &s.unit(e).shape)
            && within_one_move(sc, s, u, e)
    });
    if renowned {
        mods.push(m("facing a renowned unit", -1));
    }
    let routing_friend = sc.unit_ixs(side).any(|f| {
        f != u
            && on_table(s, f)
            && s.unit(f).status == Status::Routing
            && geometry::within(&st.shape, &s.unit(f).shape, Len::cm(20))
    });
    if routing_friend {
        mods.push(m("friendly routing unit within 20cm", -1));
    }
    for (o, os) in s.officers.iter().enumerate() {
        if os.killed_with == Some(u) {
            if s.officer_inspirational(sc, o) {
                mods.push(m("attached inspirational officer killed this turn", -2));
            } else {
                mods.push(m("attached officer killed this turn", -1));
            }
        }
    }
    let support = support_ranks(ranks_before);
    if support > 0 && st.status == Status::Formed {
        mods.push(m("each complete support rank in good order", support as i8));
    }
    if let Some(o) = s.attached_officer(u) {
        mods.push(m("officer attached", 1));
        if s.officer_inspirational(sc, o) {
            mods.push(m("inspirational officer attached", 1));
        }
    }
    mods
}

/// The force-back reduction of the cover a unit is in (page 14).
pub fn cover_reduction(c: Option<Cover>) -> Len {
    match c {
        None => Len::ZERO,
        Some(Cover::Soft) => Len::cm(5),
        Some(Cover::Hard) => Len::cm(10),
        Some(Cover::Strongpoint) => Len::cm(15),
    }
}

/// After all fire at a target: the attached officer's saving throw, then the morale
/// test and what follows (pages 13-15).
pub(crate) fn after_fire(ctx: &mut Ctx, t: &Target) {
    let u = t.unit;
    if t.hits > 0 {
        officer_save(ctx, u, t.hits);
    }
    if !t.hit || !on_table(&ctx.s, u) {
        return;
    }
    let q = ensure_quality(ctx, u);
    let mods = morale_modifiers(ctx.sc, &ctx.s, u, &t.ranks_before);
    let sc = ctx.sc;
    crate::chance::roll_for(2, || {
        crate::chance::ChanceRoll::new("morale", "2d6").with("unit", sc.unit_id(u))
    });
    let test = ctx.test(q.morale_factor() as i8, mods, true);
    let (passed, huzzah) = (test.passed, test.dice.huzzah());
    ctx.emit(Event::MoraleTested {
        unit: ctx.sc.unit_id(u),
        test,
    });
    if passed {
        if huzzah {
            huzzah_bonus(ctx, u);
        }
        return;
    }
    failed(ctx, u, t.lost, t.charger);
}

/// Page 14: a Huzzah! on a morale (or waver) test.
pub(crate) fn huzzah_bonus(ctx: &mut Ctx, u: UnitIx) {
    let st = ctx.s.unit(u);
    if !st.grognards {
        ctx.emit(Event::AbilityGained {
            unit: ctx.sc.unit_id(u),
            ability: Ability::Grognards,
        });
    } else if !st.disciplined {
        ctx.emit(Event::AbilityGained {
            unit: ctx.sc.unit_id(u),
            ability: Ability::Disciplined,
        });
    } else if let Some(q) = st.quality {
        ctx.emit(Event::QualityImproved {
            unit: ctx.sc.unit_id(u),
            to: q.improved(),
        });
    }
}

/// A failed morale test after fire: disorder, or rout if already disordered; a
/// non-charger that lost bases falls back, and routs beyond 15 cm.
pub(crate) fn failed(ctx: &mut Ctx, u: UnitIx, lost: u8, charger: bool) {
    let status = ctx.s.unit(u).status;
    if status == Status::Routing {
        return;
    }
    let d = if charger {
        Len::ZERO
    } else {
        let raw = Len::cm(5 * lost as i64);
        let c = cover(ctx.sc, &ctx.s, u);
        Len((raw.0 - cover_reduction(c).0).max(0))
    };
    if status == Status::Disordered {
        rout(
            ctx,
            u,
            d,
            "p14: a disordered unit that fails a morale test routs",
        );
        return;
    }
    ctx.emit(Event::StatusChanged {
        unit: ctx.sc.unit_id(u),
        status: Status::Disordered,
        why: "p14: failed a morale test".into(),
    });
    if d > Len::cm(15) {
        rout(ctx, u, d, "p14: forced back more than 15cm");
    } else if d > Len::ZERO {
        retreat(ctx, u, d, false, "p14: falls back 5cm for each base lost");
    }
}

/// The unit routs: it turns to face away from the enemy and moves the greater of its
/// road-column move and the force-back distance (page 14).
pub(crate) fn rout(ctx: &mut Ctx, u: UnitIx, force_back: Len, why: &str) {
    ctx.emit(Event::StatusChanged {
        unit: ctx.sc.unit_id(u),
        status: Status::Routing,
        why: why.to_string(),
    });
    let d = force_back.max(rate(ctx.sc, &ctx.s, u, true));
    retreat(
        ctx,
        u,
        d,
        true,
        "p14: routs its road-column move or its force back",
    );
}

/// The shape after moving `d` straight back (falling back: facing kept) or, for a
/// router already turned about, straight ahead.
fn moved(start: &Shape, d: Len, routing: bool) -> Shape {
    if routing {
        start.translated(d, Len::ZERO)
    } else {
        start.translated(Len(-d.0), Len::ZERO)
    }
}

/// The shortest distance in `0..=max` at which `hit` holds, to 0.1 mm, searching in
/// 5 mm steps then halving (`None` if it never does).
pub(crate) fn first_distance(max: Len, hit: impl Fn(Len) -> bool) -> Option<Len> {
    let step = 50;
    let mut prev = 0;
    let mut d = 0;
    loop {
        if hit(Len(d)) {
            if d == 0 {
                return Some(Len::ZERO);
            }
            let (mut lo, mut hi) = (prev, d);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if hit(Len(mid)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(Len(hi));
        }
        if d >= max.0 {
            return None;
        }
        prev = d;
        d = (d + step).min(max.0);
    }
}

/// Moves a unit falling back or routing (page 14), with what it meets on its way:
/// friends it passes through, dense terrain, the table's edge.
pub(crate) fn retreat(ctx: &mut Ctx, u: UnitIx, d: Len, routing: bool, why: &str) {
    let sc = ctx.sc;
    let side = sc.unit(u).side;
    let mut start = ctx.s.unit(u).shape.clone();
    if routing {
        start = start.turned_about();
    }
    let mut dist = d;
    let mut sector: Option<SectorRef> = None;
    let own = ctx.s.unit(u).sector;
    // Forced out of dense terrain: placed the force-back distance beyond it (clear of
    // it once no base is inside it; touching its edge is out).
    if let Some(sec) = own {
        let poly = Polygon(sc.sector(sec).to_vec());
        let clear = first_distance(Len::cm(500), |x| {
            !moved(&start, x, routing)
                .bases()
                .iter()
                .any(|q| poly.interior_meets_quad(q))
        });
        if let Some(c) = clear {
            dist = Len(c.0 + d.0);
        }
    }
    // Dense terrain on the way (other than the sector it leaves).
    let occupant = |s: &State, t: usize, k: usize| {
        (0..s.units.len() as u16).map(UnitIx).find(|x| {
            *x != u
                && on_table(s, *x)
                && s.unit(*x)
                    .sector
                    .is_some_and(|q| q.terrain.index() == t && q.sector as usize == k)
        })
    };
    let mut meets: Option<(Len, usize, usize)> = None;
    for (ti, t) in sc.terrain().iter().enumerate() {
        if !t.kind.is_dense() {
            continue;
        }
        for (si, poly) in t.sectors.iter().enumerate() {
            if own.is_some_and(|o| o.terrain.index() == ti && o.sector as usize == si) {
                continue;
            }
            let poly = Polygon(poly.clone());
            let hit = first_distance(dist, |x| {
                moved(&start, x, routing)
                    .bases()
                    .iter()
                    .any(|q| poly.intersects_quad(q))
            });
            if let Some(h) = hit {
                if meets.map_or(true, |m| h < m.0) {
                    meets = Some((h, ti, si));
                }
            }
        }
    }
    let mut extra_hits: Vec<String> = Vec::new();
    if let Some((h, ti, si)) = meets {
        let poly = Polygon(sc.terrain()[ti].sectors[si].clone());
        match (routing, occupant(&ctx.s, ti, si)) {
            (true, Some(o)) if sc.unit(o).side != side => {
                ctx.emit(Event::UnitCaptured {
                    unit: ctx.sc.unit_id(u),
                });
                return;
            }
            (true, Some(_)) => {
                extra_hits.push("p14: routed into an occupied sector of dense terrain".into());
                // At `h` it only touches the sector: clear means through and out.
                let clear = first_distance(Len::cm(500), |x| {
                    let sh = moved(&start, Len(h.0 + x.0), routing);
                    x.0 > 0 && !sh.bases().iter().any(|q| poly.interior_meets_quad(q))
                })
                .unwrap_or(Len::ZERO);
                dist = Len(h.0 + clear.0 + (dist.0 - h.0));
            }
            (true, None) => {
                extra_hits.push("p14: routed into an unoccupied sector of dense terrain".into());
                dist = Len((h.0 - geometry::CONTACT_TOLERANCE.0).max(0));
            }
            (false, None) if own.is_some() => {
                // Page 14: forced out into another unoccupied sector, it deploys there.
                sector = Some(SectorRef {
                    terrain: TerrainIx(ti as u16),
                    sector: si as u16,
                });
            }
            (false, _) => {}
        }
    }
    // Friends passed through: one hit each, each disordered once a phase; the unit is
    // placed on their far side.
    let friends: Vec<UnitIx> = sc
        .unit_ixs(side)
        .filter(|f| *f != u && on_table(&ctx.s, *f))
        .collect();
    let mut passed: Vec<UnitIx> = Vec::new();
    for _ in 0..=friends.len() {
        let region = if routing {
            geometry::swept_back(&start.turned_about(), dist)
        } else {
            geometry::swept_back(&start, dist)
        };
        let end = moved(&start, dist, routing);
        let mut changed = false;
        for f in &friends {
            let fs = &ctx.s.unit(*f).shape;
            let crossed = fs.bases().iter().any(|q| region.intersects_quad(q));
            if crossed && !passed.contains(f) {
                passed.push(*f);
                changed = true;
            }
            if geometry::overlaps(&end, fs) {
                // Beyond it: move on until clear.
                if let Some(c) = first_distance(Len::cm(500), |x| {
                    !geometry::overlaps(&moved(&start, Len(dist.0 + x.0), routing), fs)
                }) {
                    dist = Len(dist.0 + c.0 + geometry::CONTACT_TOLERANCE.0);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let end = moved(&start, dist, routing);
    let (w, dpt) = sc.table_size();
    let off = end
        .footprint_corners()
        .iter()
        .any(|p| p.x < Len::ZERO || p.y < Len::ZERO || p.x > w || p.y > dpt);
    for f in &passed {
        if !ctx.s.unit(*f).passed_through && ctx.s.unit(*f).status == Status::Formed {
            ctx.emit(Event::StatusChanged {
                unit: ctx.sc.unit_id(*f),
                status: Status::Disordered,
                why: "p14: a unit fell back or routed through it".into(),
            });
        }
        ctx.emit(Event::PassedThrough {
            unit: ctx.sc.unit_id(*f),
            by: ctx.sc.unit_id(u),
        });
        extra_hits.push(format!(
            "p14: fell back or routed through {}",
            sc.unit(*f).id
        ));
    }
    if off {
        ctx.emit(Event::ToRoutTable {
            unit: ctx.sc.unit_id(u),
        });
        return;
    }
    ctx.emit(Event::UnitMoved {
        unit: ctx.sc.unit_id(u),
        shape: end,
        sector: sector.map(|s| ctx.sc.sector_name(s)),
        distance_mm: dist,
        why: why.to_string(),
    });
    for why in extra_hits {
        ctx.emit(Event::ExtraHit {
            unit: ctx.sc.unit_id(u),
            why,
        });
    }
}

/// Page 15: an attached officer's saving throw (12 minus the hits; 11-12 fail; a
/// Huzzah! gives a charmed life for the next).
pub(crate) fn officer_save(ctx: &mut Ctx, u: UnitIx, hits: u8) {
    let Some(o) = ctx.s.attached_officer(u) else {
        return;
    };
    let needs = 12 - hits.min(20) as i8;
    if ctx.s.officers[o].charmed {
        ctx.emit(Event::OfficerSave {
            officer: ctx.sc.officer_id(OfficerIx(o as u16)),
            needs,
            dice: None,
            survived: true,
            charmed: false,
        });
        return;
    }
    let sc = ctx.sc;
    crate::chance::roll_for(2, || {
        crate::chance::ChanceRoll::new("officer_saving_throw", "2d6")
            .with("officer", sc.officer_id(OfficerIx(o as u16)))
            .with("unit", sc.unit_id(u))
    });
    let dice = ctx.roll();
    let survived = crate::huzzah::engine::passes(needs, dice);
    ctx.emit(Event::OfficerSave {
        officer: ctx.sc.officer_id(OfficerIx(o as u16)),
        needs,
        dice: Some(dice),
        survived,
        charmed: dice.huzzah(),
    });
    if !survived {
        ctx.emit(Event::OfficerKilled {
            officer: ctx.sc.officer_id(OfficerIx(o as u16)),
            unit: ctx.sc.unit_id(u),
        });
    }
}

/// Page 12: odd hits stay on a unit until the end of the Rally phase.
pub(crate) fn end_of_rally(ctx: &mut Ctx) {
    let units: Vec<UnitIx> = (0..ctx.s.units.len() as u16)
        .map(UnitIx)
        .filter(|u| ctx.s.unit(*u).hits > 0 && !ctx.s.unit(*u).removing)
        .collect();
    if !units.is_empty() {
        ctx.emit(Event::OddHitsRemoved {
            units: ctx.sc.unit_ids(&units),
        });
    }
}
