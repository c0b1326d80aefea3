//! The deploy order (pages 21-22): changes of formation round a stationary base,
//! support ranks and squares; skirmish bases into the skirmish line; reserve artillery
//! joining a grand battery; entering and leaving sectors of dense terrain (and the
//! advance from one sector into the next, page 19); the passage of lines.
//!
//! Rulings (docs/rulings.md, Huzzah): R-HZ-22b (which bases go to the skirmish line),
//! R-HZ-22c (where a battery's new bases stand; its quality and abilities), R-HZ-22d
//! (where a unit stands in a sector; what contests a sector; leaving one), R-HZ-22e
//! (the passage of lines: both units on the order, measured between front faces).

use crate::error::{refuse, RuleError};
use crate::huzzah::command::Direction;
use crate::huzzah::engine::Ctx;
use crate::huzzah::event::Event;
use crate::huzzah::firing::{ensure_quality, on_table};
use crate::huzzah::geometry::{self, Len, Point, Polygon, Shape};
use crate::huzzah::morale::{first_distance, rate, support_ranks};
use crate::huzzah::movement::{
    dense_polygons, enemies_on_table, move_to_with, off_table, on_order, touches_any,
};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::scenario::{Arm, OfficerIx, Scenario, SectorRef, TerrainIx, UnitIx, UnitOrder};
use crate::huzzah::state::{State, Status};
use crate::ids::Side;

/// The formations a deploy order forms (page 21).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormationKind {
    /// Line of battle, in one or more ranks.
    Line,
    /// Road column: one base wide.
    Column,
    /// Square (infantry only).
    Square,
}

/// Checks a change of formation on a deploy order (page 21): one base (`anchor`, its
/// index now) stays where it is and becomes base `anchor_to` of the new formation; the
/// facing is kept; the bases are rearranged into `ranks`. Infantry forms line, road
/// column or square; cavalry line or column; reserve artillery does not change
/// formation. A deploy never engages the enemy in the open nor breaks off an
/// engagement.
///
/// # Errors
/// The rule it breaks.
pub fn check_deploy(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    formation: FormationKind,
    ranks: &[u8],
    anchor: u8,
    anchor_to: u8,
) -> Result<Shape, RuleError> {
    let id = &sc.unit(u).id;
    let Some(active) = &s.orders.active else {
        return refuse("p21", "no order is being acted on");
    };
    if active.kind != OrderKind::Deploy || !active.units.contains(&u) {
        return refuse("p21", format!("{id} is not acting on a deploy order"));
    }
    let st = s.unit(u);
    let n = st.bases.len();
    if ranks.is_empty() || ranks.len() > 24 || ranks.contains(&0) {
        return refuse("input", "ranks: 1 to 24 ranks of at least one base");
    }
    if ranks.iter().map(|r| *r as usize).sum::<usize>() != n {
        return refuse(
            "p21",
            format!("{id} has {n} bases; the ranks hold a different number"),
        );
    }
    if anchor as usize >= n || anchor_to as usize >= n {
        return refuse("input", format!("{id}'s bases are numbered 0 to {}", n - 1));
    }
    let arm = sc.unit(u).arm;
    match (arm, formation) {
        (crate::huzzah::scenario::Arm::Artillery, _) => {
            return refuse(
                "p21",
                "reserve artillery does not change formation (it joins a grand battery)",
            )
        }
        (crate::huzzah::scenario::Arm::Cavalry, FormationKind::Square) => {
            return refuse("p22", "only infantry forms square")
        }
        _ => {}
    }
    if formation == FormationKind::Column && ranks.iter().any(|r| *r != 1) {
        return refuse("p21", "a road column is one base wide");
    }
    if formation == FormationKind::Square && ranks.len() < 2 {
        return refuse("p22", "a square has at least two ranks");
    }
    if st.sector.is_some() {
        return refuse(
            "p22",
            format!("{id} is in dense terrain: it changes formation outside it"),
        );
    }
    let enemies = enemies_on_table(sc, s, u);
    if let Some(e) = touches_any(s, &st.shape, &enemies) {
        return refuse(
            "p22",
            format!(
                "{id} is engaged with {}: a deploy never breaks off an engagement",
                sc.unit(e).id
            ),
        );
    }
    // The anchor base's centre stays put.
    let old = st.shape.bases();
    let keep = old[anchor as usize].centre();
    let probe = Shape {
        anchor: st.shape.anchor,
        facing: st.shape.facing,
        ranks: ranks.to_vec(),
        base: st.shape.base,
        square: formation == FormationKind::Square,
    };
    let now = probe.bases()[anchor_to as usize].centre();
    let end = Shape {
        anchor: Point::new(
            Len(st.shape.anchor.x.0 + keep.x.0 - now.x.0),
            Len(st.shape.anchor.y.0 + keep.y.0 - now.y.0),
        ),
        ..probe
    };
    if off_table(sc, &end) {
        return refuse("p21", format!("{id} would leave the table"));
    }
    if let Some(e) = touches_any(s, &end, &enemies) {
        return refuse(
            "p22",
            format!(
                "{id} would touch {}: a deploy never engages the enemy in the open",
                sc.unit(e).id
            ),
        );
    }
    if dense_polygons(sc)
        .iter()
        .any(|p| end.bases().iter().any(|q| p.intersects_quad(q)))
    {
        return refuse(
            "p22",
            format!("{id} would enter dense terrain: deploying into a sector is its own move"),
        );
    }
    Ok(end)
}

/// Carries out a change of formation; friends it ends touching are disordered with it
/// (page 22).
pub(crate) fn deploy(ctx: &mut Ctx, u: UnitIx, end: Shape, column: bool) {
    ctx.emit(Event::UnitDeployed {
        unit: ctx.sc.unit_id(u),
        shape: end.clone(),
        column,
    });
    touching_friends_disordered(ctx, u, &end, &[]);
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

const NEVER_ENGAGES: &str = "a deploy never engages the enemy in the open";

/// Page 22: where a deploy puts `u` (`end`, outside dense terrain) is on the table,
/// touches no enemy (`why` says which rule) and meets no dense terrain.
fn clear_end(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    end: &Shape,
    who: impl std::fmt::Display,
    why: &str,
) -> Result<(), RuleError> {
    if off_table(sc, end) {
        return refuse("p22", format!("{who} would leave the table"));
    }
    if let Some(e) = touches_any(s, end, &enemies_on_table(sc, s, u)) {
        return refuse("p22", format!("{who} would touch {}: {why}", sc.unit(e).id));
    }
    if dense_polygons(sc)
        .iter()
        .any(|p| end.bases().iter().any(|q| p.interior_meets_quad(q)))
    {
        return refuse("p22", format!("{who} would be in dense terrain"));
    }
    Ok(())
}

/// Refuses (rule `page`, `why` the rule's words) if `u` is engaged with an enemy.
fn not_engaged(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    page: &str,
    why: &str,
) -> Result<(), RuleError> {
    match engaged_with(sc, s, u) {
        Some(e) => refuse(
            page,
            format!("{} is engaged with {}: {why}", sc.unit(u).id, sc.unit(e).id),
        ),
        None => Ok(()),
    }
}

/// The enemy `u` is engaged with: in contact, or in a dense-terrain engagement.
pub fn engaged_with(sc: &Scenario, s: &State, u: UnitIx) -> Option<UnitIx> {
    let enemies = enemies_on_table(sc, s, u);
    touches_any(s, &s.unit(u).shape, &enemies).or_else(|| {
        s.sector_engaged.iter().find_map(|(a, b)| {
            let other = if *a == u {
                *b
            } else if *b == u {
                *a
            } else {
                return None;
            };
            (on_table(s, other) && on_table(s, u)).then_some(other)
        })
    })
}

// ------------------------------------------------------------------ skirmish line

/// How many bases `u` may deploy into the skirmish line now (page 22): any of a
/// Skirmish unit's infantry bases (all of them only if no marker base would be left
/// alone, page 12), one for Skirmish (Limited) while it lasts; none if disordered.
pub fn skirmish_bases(sc: &Scenario, s: &State, u: UnitIx) -> u8 {
    let st = s.unit(u);
    if st.status != Status::Formed || !on_table(s, u) {
        return 0;
    }
    let infantry = st.bases.iter().filter(|b| b.is_infantry_base()).count() as u8;
    match sc.unit(u).order {
        UnitOrder::Skirmish => {
            let markers = st.bases.len() as u8 - infantry;
            if markers > 0 {
                infantry.saturating_sub(1)
            } else {
                infantry
            }
        }
        UnitOrder::SkirmishLimited if st.skirmish_limited && infantry >= 2 => 1,
        _ => 0,
    }
}

/// The unit's shape once its last `n` infantry bases are gone (the rear rank's first,
/// ruling R-HZ-22b): `None` if none is left.
fn shape_after_skirmishers(s: &State, u: UnitIx, n: u8) -> Option<Shape> {
    let st = s.unit(u);
    let mut shape = st.shape.clone();
    let mut bases = st.bases.clone();
    for _ in 0..n {
        let i = bases.iter().rposition(|b| b.is_infantry_base())?;
        bases.remove(i);
        // The rank that base stood in.
        let mut start = 0usize;
        let mut rank = 0usize;
        for (r, k) in shape.ranks.iter().enumerate() {
            if i < start + *k as usize {
                rank = r;
                break;
            }
            start += *k as usize;
        }
        shape = crate::huzzah::firing::shape_without(&shape, rank as u8);
    }
    (!bases.is_empty()).then_some(shape)
}

/// Checks a deployment into the skirmish line (page 22).
///
/// # Errors
/// The rule it breaks.
pub fn check_skirmish_line(sc: &Scenario, s: &State, u: UnitIx, n: u8) -> Result<(), RuleError> {
    on_order(sc, s, u, OrderKind::Deploy, "p22")?;
    let id = &sc.unit(u).id;
    let def = sc.unit(u);
    if !matches!(def.order, UnitOrder::Skirmish | UnitOrder::SkirmishLimited)
        || (def.order == UnitOrder::SkirmishLimited && !s.unit(u).skirmish_limited)
    {
        return refuse("p22", format!("{id} has no Skirmish ability"));
    }
    if s.unit(u).status != Status::Formed {
        return refuse(
            "p22",
            format!("{id} is disordered: it cannot deploy skirmishers"),
        );
    }
    let max = skirmish_bases(sc, s, u);
    if n == 0 || n > max {
        return refuse(
            "p22",
            format!("{id} can deploy 1 to {max} bases into the skirmish line, not {n}"),
        );
    }
    Ok(())
}

/// Deploys `n` bases of `u` into its army's skirmish line: removed from play, not lost;
/// a Skirmish (Limited) unit loses the ability; a division officer whose only unit went
/// whole is removed from play (page 22).
pub(crate) fn skirmish_line(ctx: &mut Ctx, u: UnitIx, n: u8) {
    let sc = ctx.sc;
    let side = sc.unit(u).side;
    let shape = shape_after_skirmishers(&ctx.s, u, n);
    let line = ctx
        .s
        .armies
        .get(side)
        .skirmish_line
        .saturating_add(u16::from(n));
    let whole = shape.is_none();
    ctx.emit(Event::SkirmishersDeployed {
        unit: ctx.sc.unit_id(u),
        bases: n,
        shape,
        line,
    });
    if sc.unit(u).order == UnitOrder::SkirmishLimited {
        ctx.emit(Event::AbilityLost {
            unit: ctx.sc.unit_id(u),
            ability: "skirmish (limited)".into(),
        });
    }
    if whole {
        if let Some(o) = ctx.s.attached_officer(u) {
            // Attached to a unit that left play, he stands where it stood.
            let at = ctx.s.unit(u).shape.centre();
            ctx.emit(Event::OfficerMoved {
                officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                at,
                attached: None,
                why: "p22: his unit went into the skirmish line".into(),
            });
        }
        let div = sc.division(sc.unit(u).division);
        let others = div.units.iter().any(|x| *x != u && on_table(&ctx.s, *x));
        let o = div.officer;
        if !others && !ctx.s.officers[o.index()].lost {
            ctx.emit(Event::OfficerRemoved {
                officer: ctx.sc.officer_id(OfficerIx(o.0)),
                why: "p22: the division's only unit went whole into the skirmish line".into(),
            });
        }
    }
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

// ------------------------------------------------------------------ grand batteries

/// The reserve artillery `u` could join on its deploy order: reserve artillery of the
/// same division on the table, within one advance move of it for each type (page 22:
/// the closest bases of the two at most the shorter of their moves apart).
pub fn batteries_in_reach(sc: &Scenario, s: &State, u: UnitIx) -> Vec<UnitIx> {
    let def = sc.unit(u);
    if def.arm != Arm::Artillery || !on_table(s, u) {
        return Vec::new();
    }
    sc.unit_ixs(def.side)
        .filter(|b| {
            *b != u
                && sc.unit(*b).arm == Arm::Artillery
                && sc.unit(*b).division == def.division
                && on_table(s, *b)
                && s.unit(*b).status != Status::Routing
                && geometry::within(
                    &s.unit(u).shape,
                    &s.unit(*b).shape,
                    rate(sc, s, u, false).min(rate(sc, s, *b, false)),
                )
        })
        .collect()
}

/// The battery's shape with `m` more bases at its left or right end of the front rank,
/// its own bases staying where they are.
fn battery_shape(b: &Shape, m: u8, left: bool) -> Shape {
    let mut out = b.clone();
    out.ranks[0] += m;
    let half = Len(b.base.0 * i64::from(m) / 2);
    let shift = if left { Len(-half.0) } else { half };
    out.anchor = geometry::rotate(b.anchor, b.facing, shift, Len::ZERO);
    out
}

/// Checks reserve artillery joining a grand battery (pages 3, 6, 22).
///
/// # Errors
/// The rule it breaks.
pub fn check_join_battery(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    battery: UnitIx,
    left: bool,
) -> Result<Shape, RuleError> {
    on_order(sc, s, u, OrderKind::Deploy, "p22")?;
    let (id, bid) = (&sc.unit(u).id, &sc.unit(battery).id);
    if sc.unit(u).arm != Arm::Artillery || sc.unit(battery).arm != Arm::Artillery {
        return refuse(
            "p3",
            "only reserve artillery joins reserve artillery to form a grand battery",
        );
    }
    if sc.unit(u).division != sc.unit(battery).division {
        return refuse(
            "p6",
            format!("{id} and {bid} are in different divisions: a grand battery forms within one"),
        );
    }
    if !batteries_in_reach(sc, s, u).contains(&battery) {
        return refuse(
            "p22",
            format!("{bid} is not within one advance move of {id} (for each type of artillery)"),
        );
    }
    if s.unit(u).shape.ranks.len() != 1 {
        return refuse("p22", format!("{id} joins from a single rank"));
    }
    let m = s.unit(u).bases.len() as u8;
    let end = battery_shape(&s.unit(battery).shape, m, left);
    clear_end(sc, s, u, &end, bid, NEVER_ENGAGES)?;
    Ok(end)
}

/// Joins `u` to `battery`: an unrolled side is rolled first if the other is known
/// (page 6; ruling R-HZ-22c), and the lower quality decides.
pub(crate) fn join_battery(ctx: &mut Ctx, u: UnitIx, battery: UnitIx, left: bool, end: Shape) {
    let (qu, qb) = (ctx.s.unit(u).quality, ctx.s.unit(battery).quality);
    let quality = match (qu, qb) {
        (None, None) => None,
        (Some(a), None) => Some(a.lowest(ensure_quality(ctx, battery))),
        (None, Some(b)) => Some(ensure_quality(ctx, u).lowest(b)),
        (Some(a), Some(b)) => Some(a.lowest(b)),
    };
    let (su, sb) = (ctx.s.unit(u), ctx.s.unit(battery));
    let grognards = su.grognards && sb.grognards;
    let disciplined = su.disciplined && sb.disciplined;
    // Officers attached to the joining guns go with the battery.
    if let Some(o) = ctx.s.attached_officer(u) {
        let at = ctx.s.officers[o].at.unwrap_or(end.centre());
        ctx.emit(Event::OfficerMoved {
            officer: ctx.sc.officer_id(OfficerIx(o as u16)),
            at,
            attached: ctx
                .s
                .attached_officer(battery)
                .is_none()
                .then_some(ctx.sc.unit_id(battery)),
            why: "p22: his guns joined a grand battery".into(),
        });
    }
    ctx.emit(Event::BatteryJoined {
        unit: ctx.sc.unit_id(u),
        battery: ctx.sc.unit_id(battery),
        left,
        shape: end.clone(),
        quality,
        grognards,
        disciplined,
    });
    touching_friends_disordered(ctx, battery, &end, &[u]);
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

/// Page 22: "Friendly units that end up touching or that touch while changing
/// formation are disordered."
fn touching_friends_disordered(ctx: &mut Ctx, u: UnitIx, end: &Shape, exempt: &[UnitIx]) {
    let sc = ctx.sc;
    let side = sc.unit(u).side;
    let friends: Vec<UnitIx> = sc
        .unit_ixs(side)
        .filter(|f| {
            *f != u
                && !exempt.contains(f)
                && on_table(&ctx.s, *f)
                && (geometry::overlaps(end, &ctx.s.unit(*f).shape)
                    || geometry::in_contact(end, &ctx.s.unit(*f).shape))
        })
        .collect();
    for f in friends {
        for x in [u, f] {
            if ctx.s.unit(x).status == Status::Formed {
                ctx.emit(Event::StatusChanged {
                    unit: ctx.sc.unit_id(x),
                    status: Status::Disordered,
                    why: "p22: friendly units touching after a change of formation".into(),
                });
            }
        }
    }
}

// ------------------------------------------------------------------ dense terrain

/// Infantry (with or without divisional artillery) and Irregular cavalry hold sectors
/// of dense terrain (pages 19, 22).
pub fn may_hold_sectors(sc: &Scenario, u: UnitIx) -> bool {
    let def = sc.unit(u);
    def.arm == Arm::Infantry || (def.arm == Arm::Cavalry && def.order == UnitOrder::Irregular)
}

/// The unit deployed in a sector, if any.
pub fn occupant(sc: &Scenario, s: &State, sec: SectorRef) -> Option<UnitIx> {
    (0..sc.units().len() as u16)
        .map(UnitIx)
        .find(|u| on_table(s, *u) && s.unit(*u).sector == Some(sec))
}

/// Every sector of every dense piece, in scenario order.
pub fn all_sectors(sc: &Scenario) -> Vec<SectorRef> {
    sc.terrain()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.kind.is_dense())
        .flat_map(|(ti, t)| {
            (0..t.sectors.len()).map(move |k| SectorRef {
                terrain: TerrainIx(ti as u16),
                sector: k as u16,
            })
        })
        .collect()
}

fn poly(sc: &Scenario, sec: SectorRef) -> Polygon {
    Polygon(sc.sector(sec).to_vec())
}

/// Two sectors are adjacent when their outlines meet (within the contact tolerance).
pub fn adjacent(sc: &Scenario, a: SectorRef, b: SectorRef) -> bool {
    if a == b {
        return false;
    }
    let (pa, pb) = (poly(sc, a), poly(sc, b));
    pa.edges().iter().any(|e| {
        pb.edges()
            .iter()
            .any(|f| geometry::dist_seg_seg(*e, *f) <= geometry::CONTACT_TOLERANCE)
    })
}

/// A unit touches a sector: a base meets it or lies within the contact tolerance.
pub fn touches_sector(sc: &Scenario, sh: &Shape, sec: SectorRef) -> bool {
    // The footprint's box farther from the sector's corners' box than the tolerance
    // (by a whole unit: distances are rounded down): nothing of it can touch. Most
    // sectors of a table are ruled out so, before any base is rotated.
    let pts = sc.sector(sec);
    if !pts.is_empty()
        && geometry::boxes_beyond(
            sh.aabb(),
            geometry::points_box(pts),
            geometry::CONTACT_TOLERANCE,
        )
    {
        return false;
    }
    let p = poly(sc, sec);
    sh.bases().iter().any(|q| {
        p.intersects_quad(q)
            || q.edges().iter().any(|e| {
                p.edges()
                    .iter()
                    .any(|f| geometry::dist_seg_seg(*e, *f) <= geometry::CONTACT_TOLERANCE)
            })
    })
}

/// The centre a unit is placed on in a sector by default: the mean of its corners
/// (ruling R-HZ-22d).
pub fn sector_centre(sc: &Scenario, sec: SectorRef) -> Point {
    let pts = sc.sector(sec);
    let n = pts.len().max(1) as i64;
    let (x, y) = pts
        .iter()
        .fold((0i64, 0i64), |(x, y), p| (x + p.x.0, y + p.y.0));
    Point::new(Len(x / n), Len(y / n))
}

/// `shape` moved so its centre is at `c`.
fn centred_on(shape: &Shape, c: Point) -> Shape {
    let now = shape.centre();
    shape.with_anchor(Point::new(
        Len(shape.anchor.x.0 + c.x.0 - now.x.0),
        Len(shape.anchor.y.0 + c.y.0 - now.y.0),
    ))
}

/// The enemy units a unit in `sec` engages (ruling R-HZ-22d: dense terrain is
/// contested by an enemy holding a sector of it, or of a piece touching it; a unit
/// entering a sector engages each enemy holding a sector adjacent to it).
pub fn contesting(sc: &Scenario, s: &State, side: Side, sec: SectorRef) -> Vec<UnitIx> {
    all_sectors(sc)
        .into_iter()
        .filter(|o| adjacent(sc, sec, *o))
        .filter_map(|o| occupant(sc, s, o))
        .filter(|e| sc.unit(*e).side != side)
        .collect()
}

/// Where a unit stands in a sector it deploys or advances into (`at`: its centre; by
/// default the sector's), refusing what the rules forbid.
fn placed_in(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    sec: SectorRef,
    at: Option<Point>,
    page: &str,
) -> Result<Shape, RuleError> {
    let id = &sc.unit(u).id;
    let p = poly(sc, sec);
    let c = at.unwrap_or_else(|| sector_centre(sc, sec));
    if !p.contains(c) {
        return refuse(
            page,
            format!("{id}'s centre would be outside the sector (name a point inside it)"),
        );
    }
    let end = centred_on(&s.unit(u).shape, c);
    if off_table(sc, &end) {
        return refuse(page, format!("{id} would leave the table"));
    }
    let enemies = enemies_on_table(sc, s, u);
    if let Some(e) = touches_any(s, &end, &enemies) {
        return refuse(
            page,
            format!(
                "{id} would touch {} in the open: in dense terrain the enemy is engaged by sector",
                sc.unit(e).id
            ),
        );
    }
    Ok(end)
}

/// A sector's name, `"<terrain id>/<n>"`.
pub fn sector_name(sc: &Scenario, sec: SectorRef) -> String {
    format!("{}/{}", sc.terrain()[sec.terrain.index()].id, sec.sector)
}

/// Checks a deploy into a sector of dense terrain (page 22).
///
/// # Errors
/// The rule it breaks.
pub fn check_enter_sector(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    sec: SectorRef,
    at: Option<Point>,
) -> Result<Shape, RuleError> {
    on_order(sc, s, u, OrderKind::Deploy, "p22")?;
    let id = &sc.unit(u).id;
    let name = sector_name(sc, sec);
    if !may_hold_sectors(sc, u) {
        return refuse(
            "p22",
            format!("{id}: only infantry and Irregular cavalry deploy into dense terrain"),
        );
    }
    if s.unit(u).sector.is_some() {
        return refuse(
            "p19",
            format!("{id} is in dense terrain: it advances into an adjacent sector, or deploys out first"),
        );
    }
    if s.unit(u).shape.square {
        return refuse("p22", format!("{id} is in square: squares cannot move"));
    }
    not_engaged(sc, s, u, "p22", "a deploy never breaks off an engagement")?;
    if let Some(o) = occupant(sc, s, sec) {
        return refuse(
            "p22",
            format!(
                "{name} is held by {}: a sector of dense terrain can contain only one unit",
                sc.unit(o).id
            ),
        );
    }
    if !touches_sector(sc, &s.unit(u).shape, sec) {
        return refuse("p22", format!("{id} is not touching {name}"));
    }
    placed_in(sc, s, u, sec, at, "p22")
}

/// Deploys or advances a unit into a sector; it engages the enemies contesting it.
pub(crate) fn into_sector(ctx: &mut Ctx, u: UnitIx, sec: SectorRef, end: Shape, why: &str) {
    let sc = ctx.sc;
    let d = geometry::dist(ctx.s.unit(u).shape.centre(), end.centre());
    move_to_with(ctx, u, end.clone(), d, why, Some(sec), &[]);
    touching_friends_disordered(ctx, u, &end, &[]);
    let side = sc.unit(u).side;
    for e in contesting(sc, &ctx.s, side, sec) {
        let (a, b) = if side == Side::A { (u, e) } else { (e, u) };
        ctx.emit(Event::Engaged {
            a: ctx.sc.unit_id(a),
            b: ctx.sc.unit_id(b),
            why: format!(
                "p22: entered {} next to {}'s sector",
                sector_name(sc, sec),
                sc.unit(e).id
            ),
        });
    }
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

/// The shape `u` leaves its sector with, moving `dir` (facing kept) just clear of the
/// whole piece of dense terrain (ruling R-HZ-22d).
fn left_shape(sc: &Scenario, s: &State, u: UnitIx, dir: Direction) -> Option<Shape> {
    let sec = s.unit(u).sector?;
    let piece = Polygon(sc.terrain()[sec.terrain.index()].polygon.clone());
    let sh = s.unit(u).shape.clone();
    let moved = |d: Len| match dir {
        Direction::Ahead => sh.translated(d, Len::ZERO),
        Direction::Back => sh.translated(Len(-d.0), Len::ZERO),
        Direction::Left => sh.translated(Len::ZERO, Len(-d.0)),
        Direction::Right => sh.translated(Len::ZERO, d),
    };
    let clear = first_distance(Len::cm(500), |d| {
        !moved(d)
            .bases()
            .iter()
            .any(|q| piece.interior_meets_quad(q))
    })?;
    Some(moved(Len(clear.0 + geometry::CONTACT_TOLERANCE.0)))
}

/// Checks a deploy out of a sector of dense terrain (page 22).
///
/// # Errors
/// The rule it breaks.
pub fn check_leave_sector(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    dir: Direction,
) -> Result<Shape, RuleError> {
    on_order(sc, s, u, OrderKind::Deploy, "p22")?;
    let id = &sc.unit(u).id;
    if s.unit(u).sector.is_none() {
        return refuse("p22", format!("{id} is not deployed in dense terrain"));
    }
    not_engaged(sc, s, u, "p22", "a deploy never breaks off an engagement")?;
    let Some(end) = left_shape(sc, s, u, dir) else {
        return refuse("p22", format!("{id} finds no clear ground that way"));
    };
    clear_end(
        sc,
        s,
        u,
        &end,
        id,
        "a unit cannot deploy out of dense terrain into contact (it must advance after)",
    )?;
    Ok(end)
}

/// Deploys a unit out of its sector.
pub(crate) fn leave_sector(ctx: &mut Ctx, u: UnitIx, end: Shape) {
    let d = geometry::dist(ctx.s.unit(u).shape.centre(), end.centre());
    move_to_with(
        ctx,
        u,
        end.clone(),
        d,
        "p22: deploys out of dense terrain",
        None,
        &[],
    );
    touching_friends_disordered(ctx, u, &end, &[]);
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

/// What an advance from one sector into an adjacent one comes to (page 19).
pub enum SectorAdvance {
    /// It moves into the unoccupied sector, standing there so.
    Into(Shape),
    /// The sector is held by this enemy: it engages it, staying where it is.
    Engage(UnitIx),
}

/// Checks an advance from a sector of dense terrain into an adjacent one (page 19).
///
/// # Errors
/// The rule it breaks.
pub fn check_advance_sector(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    to: SectorRef,
) -> Result<SectorAdvance, RuleError> {
    on_order(sc, s, u, OrderKind::Advance, "p19")?;
    let id = &sc.unit(u).id;
    let name = sector_name(sc, to);
    let Some(from) = s.unit(u).sector else {
        return refuse("p19", format!("{id} is not deployed in dense terrain"));
    };
    if !may_hold_sectors(sc, u) {
        return refuse(
            "p19",
            format!("{id}: only infantry and Irregular cavalry advance from sector to sector"),
        );
    }
    if !adjacent(sc, from, to) {
        return refuse("p19", format!("{name} is not adjacent to {id}'s sector"));
    }
    not_engaged(sc, s, u, "p19", "an advance never breaks contact")?;
    match occupant(sc, s, to) {
        Some(o) if sc.unit(o).side == sc.unit(u).side => refuse(
            "p22",
            format!(
                "{name} is held by {}: a sector of dense terrain can contain only one unit",
                sc.unit(o).id
            ),
        ),
        Some(e) => Ok(SectorAdvance::Engage(e)),
        None => placed_in(sc, s, u, to, None, "p19").map(SectorAdvance::Into),
    }
}

/// Carries out an advance from sector to sector.
pub(crate) fn advance_sector(ctx: &mut Ctx, u: UnitIx, to: SectorRef, how: SectorAdvance) {
    match how {
        SectorAdvance::Into(end) => {
            into_sector(ctx, u, to, end, "p19: advances into the adjacent sector")
        }
        SectorAdvance::Engage(e) => {
            let side = ctx.sc.unit(u).side;
            let (a, b) = if side == Side::A { (u, e) } else { (e, u) };
            ctx.emit(Event::Engaged {
                a: ctx.sc.unit_id(a),
                b: ctx.sc.unit_id(b),
                why: format!(
                    "p19: advanced on {} in the adjacent sector",
                    ctx.sc.unit(e).id
                ),
            });
            ctx.emit(Event::Acted {
                unit: ctx.sc.unit_id(u),
            });
        }
    }
}

// ------------------------------------------------------------------ passage of lines

/// Checks a passage of lines (page 22): two units of the same arm on this deploy order,
/// both in line of battle without support ranks, facing exactly the same way, neither
/// disordered, their front faces at most one advance move apart (the shorter of their
/// moves, between the faces' nearest points; ruling R-HZ-22e).
///
/// # Errors
/// The rule it breaks.
pub fn check_passage(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    w: UnitIx,
) -> Result<(Shape, Shape), RuleError> {
    on_order(sc, s, u, OrderKind::Deploy, "p22")?;
    let (id, wid) = (&sc.unit(u).id, &sc.unit(w).id);
    if u == w {
        return refuse("input", "a passage of lines needs two units");
    }
    let active = s
        .orders
        .active
        .as_ref()
        .map(|a| a.units.clone())
        .unwrap_or_default();
    if !active.contains(&w) {
        return refuse(
            "p22",
            format!("{wid} is not on this order still to act: both units of a passage of lines are ordered"),
        );
    }
    let arm = sc.unit(u).arm;
    if arm == Arm::Artillery || sc.unit(w).arm != arm {
        return refuse(
            "p22",
            "a passage of lines is between two units of infantry, or two of cavalry",
        );
    }
    for x in [u, w] {
        let st = s.unit(x);
        let xid = &sc.unit(x).id;
        if st.status != Status::Formed {
            return refuse("p22", format!("{xid} is in disorder: no passage of lines"));
        }
        if st.column || st.shape.square {
            return refuse("p22", format!("{xid} is not in line of battle"));
        }
        if support_ranks(&st.shape.ranks) > 0 {
            return refuse("p22", format!("{xid} has support ranks"));
        }
        if st.sector.is_some() {
            return refuse("p22", format!("{xid} is in dense terrain"));
        }
        not_engaged(sc, s, x, "p22", "a deploy never breaks off an engagement")?;
    }
    let (a, b) = (&s.unit(u).shape, &s.unit(w).shape);
    if a.facing != b.facing {
        return refuse(
            "p22",
            format!("{id} and {wid} do not face exactly the same direction"),
        );
    }
    let gap = geometry::dist_seg_seg(a.face(geometry::Face::Front), b.face(geometry::Face::Front));
    let reach = rate(sc, s, u, false).min(rate(sc, s, w, false));
    if gap > reach {
        return refuse(
            "p22",
            format!("the front faces of {id} and {wid} are {gap} apart, more than one advance move ({reach})"),
        );
    }
    // Each takes the other's place (its front face centred where the other's was),
    // keeping its own arrangement of bases.
    let ue = a.with_anchor(b.anchor);
    let we = b.with_anchor(a.anchor);
    for (x, end) in [(u, &ue), (w, &we)] {
        clear_end(sc, s, x, end, &sc.unit(x).id, NEVER_ENGAGES)?;
    }
    Ok((ue, we))
}

/// Carries out a passage of lines: the two exchange places, neither disordered by the
/// other (page 22); both have acted.
pub(crate) fn passage(ctx: &mut Ctx, u: UnitIx, w: UnitIx, ends: (Shape, Shape)) {
    ctx.emit(Event::LinesPassed {
        unit: ctx.sc.unit_id(u),
        with: ctx.sc.unit_id(w),
    });
    let (ue, we) = ends;
    for (x, end, other) in [(u, ue, w), (w, we, u)] {
        let d = geometry::dist(ctx.s.unit(x).shape.anchor, end.anchor);
        move_to_with(
            ctx,
            x,
            end.clone(),
            d,
            "p22: passage of lines",
            None,
            &[other],
        );
        touching_friends_disordered(ctx, x, &end, &[other]);
    }
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(w),
    });
}
