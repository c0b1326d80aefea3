//! Giving orders and acting on them (pages 16-21): the command hierarchy, the order
//! roll, successive orders, the failed CinC, the Huzzah! automatic order; the advance
//! (straight ahead, the 5 cm drift), the retire (straight back, half the move) and the
//! Waver Test; officers displaced or captured by moving units.
//!
//! Rulings (docs/rulings.md, Huzzah): an officer orders one group at a time; his
//! successive orders to it take −1 each, and once he orders another group the first is
//! closed, as are its units for his later groups; a group's units that another officer
//! has ordered this turn, that route, that charged, reserve artillery that fired, or
//! that have another officer attached, are left out of it. Charges: [`plan_charge`].
//! The deploy order is in [`crate::huzzah::deploy`], the manoeuvre (its rules are
//! missing) in [`crate::huzzah::manoeuvre`].

use crate::error::{refuse, RuleError};
use crate::huzzah::engine::{m, Ctx};
use crate::huzzah::event::{Event, Modifier};
use crate::huzzah::firing::on_table;
use crate::huzzah::geometry::{self, Len, Point, Polygon, Shape};
use crate::huzzah::morale::{advance_of, huzzah_bonus, rout, within_one_move};
use crate::huzzah::orders::{command_modifiers, OrderKind};
use crate::huzzah::scenario::{CommandGroup, OfficerIx, OfficerRank, Scenario, UnitIx};
use crate::huzzah::state::{ActiveOrder, GroupRef, Pending, State, Status};
use crate::ids::Side;

/// The drift allowed at the end of an advance (page 19).
pub const DRIFT: Len = Len::cm(5);

/// Every unit of a group, whatever its state.
fn members(sc: &Scenario, g: GroupRef) -> Vec<UnitIx> {
    match g {
        GroupRef::Unit(u) => vec![u],
        GroupRef::Division(d) => sc.division(d).units.clone(),
        GroupRef::Corps(c) => sc
            .corps(c)
            .divisions
            .iter()
            .flat_map(|d| sc.division(*d).units.clone())
            .collect(),
    }
}

/// Why [`group_units`] leaves `u` out of an order by `officer`, in words and by the
/// rule; `None` if it is in.
fn why_left_out(sc: &Scenario, s: &State, officer: OfficerIx, u: UnitIx) -> Option<RuleError> {
    let id = &sc.unit(u).id;
    let st = s.unit(u);
    let (page, why) = if !on_table(s, u) {
        ("p17", format!("{id} is not on the table"))
    } else if st.status == Status::Routing {
        (
            "p17",
            format!("{id} is routing, and routing units cannot be given orders"),
        )
    } else if sc.unit(u).arm == crate::huzzah::scenario::Arm::Artillery && st.fired {
        (
            "p17",
            format!("{id} is reserve artillery that fired this turn: grand batteries and single bases of reserve artillery cannot move if they fire"),
        )
    } else if st.charger {
        (
            "p19",
            format!("{id} charged this turn: it is in contact with the enemy, and no order breaks contact (pages 19-22)"),
        )
    } else if s.attached_officer(u).is_some_and(|x| x != officer.index()) {
        (
            "p17",
            format!("{id} has another officer attached and acts only on his orders"),
        )
    } else if s
        .orders
        .ordered
        .iter()
        .any(|(x, o)| *x == u && *o != officer)
    {
        (
            "p16",
            format!("{id} was ordered by another officer this turn"),
        )
    } else {
        return None;
    };
    Some(RuleError::new(page, why))
}

/// Why `u` may not act on the order in hand: not in its group, left out of it, or done.
fn why_not_acting(sc: &Scenario, s: &State, active: &ActiveOrder, u: UnitIx) -> RuleError {
    let id = &sc.unit(u).id;
    if !members(sc, active.group).contains(&u) {
        let officer = &sc.officer(active.officer).id;
        return RuleError::new("p17", format!("{id} is not in the group {officer} ordered"));
    }
    why_left_out(sc, s, active.officer, u)
        .unwrap_or_else(|| RuleError::new("p19", format!("{id} has already acted on this order")))
}

/// The units of a group, as an order to it would move them: on the table, not routing,
/// without another officer attached, not ordered by another officer this turn.
pub fn group_units(sc: &Scenario, s: &State, officer: OfficerIx, g: GroupRef) -> Vec<UnitIx> {
    // Units already ordered this turn act again only on further orders to the same
    // group by the same officer (page 16: no return to units already ordered).
    let current = match (s.orders.officer, s.orders.group) {
        (Some(o), Some((x, _))) if o == officer => Some(x),
        _ => None,
    };
    members(sc, g)
        .into_iter()
        .filter(|u| {
            on_table(s, *u)
                && s.unit(*u).status != Status::Routing
                && !s.unit(*u).charger
                // Page 17: reserve artillery that fired cannot move.
                && !(sc.unit(*u).arm == crate::huzzah::scenario::Arm::Artillery && s.unit(*u).fired)
                && s.attached_officer(*u)
                    .map_or(true, |x| x == officer.index())
                && !s
                    .orders
                    .ordered
                    .iter()
                    .any(|(x, o)| x == u && (*o != officer || current != Some(g)))
        })
        .collect()
}

/// Whether `officer` has authority over group `g` (pages 16-17): the CinC over any unit,
/// division or corps; a corps officer over his corps and what is in it; a division
/// officer over his division and its units; an attached officer over his unit only.
pub fn may_order(sc: &Scenario, s: &State, officer: OfficerIx, g: GroupRef) -> bool {
    let def = sc.officer(officer);
    let side_of = |g: GroupRef| match g {
        GroupRef::Unit(u) => sc.unit(u).side,
        GroupRef::Division(d) => sc.division(d).side,
        GroupRef::Corps(c) => sc.corps(c).side,
    };
    if side_of(g) != def.side {
        return false;
    }
    if let Some(u) = s.officers[officer.index()].attached {
        return g == GroupRef::Unit(u);
    }
    let division_of = |u: UnitIx| sc.unit(u).division;
    match (def.rank, def.commands) {
        (OfficerRank::Cinc, _) => true,
        (_, Some(CommandGroup::Army)) => true,
        (_, Some(CommandGroup::Corps(c))) => match g {
            GroupRef::Corps(x) => x == c,
            GroupRef::Division(d) => sc.division(d).corps == Some(c),
            GroupRef::Unit(u) => sc.division(division_of(u)).corps == Some(c),
        },
        (_, Some(CommandGroup::Division(d))) => match g {
            GroupRef::Division(x) => x == d,
            GroupRef::Unit(u) => division_of(u) == d,
            GroupRef::Corps(_) => false,
        },
        (_, None) => false,
    }
}

/// The groups `officer` may order now, each with its units.
pub fn orderable(sc: &Scenario, s: &State, officer: OfficerIx) -> Vec<(GroupRef, Vec<UnitIx>)> {
    let st = &s.officers[officer.index()];
    if st.lost || st.at.is_none() || s.orders.done.contains(&officer) {
        return Vec::new();
    }
    let side = sc.officer(officer).side;
    let mut groups: Vec<GroupRef> = sc.unit_ixs(side).map(GroupRef::Unit).collect();
    groups.extend(
        sc.divisions()
            .iter()
            .filter(|d| d.side == side)
            .map(|d| GroupRef::Division(d.ix)),
    );
    groups.extend(
        sc.corps_list()
            .iter()
            .filter(|c| c.side == side)
            .map(|c| GroupRef::Corps(c.ix)),
    );
    groups
        .into_iter()
        .filter(|g| may_order(sc, s, officer, *g) && !s.orders.closed.contains(g))
        .filter_map(|g| {
            let u = group_units(sc, s, officer, g);
            (!u.is_empty()).then_some((g, u))
        })
        .collect()
}

/// The rate a group moves at: its slowest unit's move (page 19).
pub fn group_rate(sc: &Scenario, s: &State, units: &[UnitIx]) -> Len {
    units
        .iter()
        .map(|u| advance_of(sc, s, *u))
        .min()
        .unwrap_or(Len::ZERO)
}

/// How many orders `officer` has given group `g` so far this turn.
pub fn successive(s: &State, officer: OfficerIx, g: GroupRef) -> u8 {
    match (s.orders.officer, s.orders.group) {
        (Some(o), Some((x, n))) if o == officer && x == g => n,
        _ => 0,
    }
}

/// Whether `officer`'s next order to group `g` is the automatic one a roll of Huzzah!
/// earned (page 17: it needs no roll).
pub fn automatic(s: &State, officer: OfficerIx, g: GroupRef) -> bool {
    s.orders.free
        && s.orders.group.is_some_and(|(x, _)| x == g)
        && s.orders.officer == Some(officer)
}

/// Gives an order (pages 16-18).
pub(crate) fn give(
    ctx: &mut Ctx,
    side: Side,
    officer: OfficerIx,
    g: GroupRef,
    kind: OrderKind,
) -> Result<(), RuleError> {
    let sc = ctx.sc;
    let def = sc.officer(officer);
    if def.side != side {
        return refuse(
            "p16",
            format!("{} is not an officer of side {side}", def.id),
        );
    }
    let st = &ctx.s.officers[officer.index()];
    if st.lost || st.at.is_none() {
        return refuse("p16", format!("{} is not on the table", def.id));
    }
    if ctx.s.orders.done.contains(&officer) {
        return refuse(
            "p16",
            format!(
                "{} can give no more orders this turn (a failed order, or the player has moved on to another officer)",
                def.id
            ),
        );
    }
    if !may_order(sc, &ctx.s, officer, g) {
        return refuse(
            "p17",
            format!("{} has no authority to order that group", def.id),
        );
    }
    if ctx.s.orders.closed.contains(&g) {
        return refuse(
            "p16",
            "that group has had its orders this turn (another officer's, or left for another group)",
        );
    }
    let units = group_units(sc, &ctx.s, officer, g);
    if units.is_empty() {
        // The reason of each unit, so that the player sees which rule keeps it out.
        let whys: Vec<RuleError> = members(sc, g)
            .into_iter()
            .filter_map(|u| why_left_out(sc, &ctx.s, officer, u))
            .collect();
        return Err(match &whys[..] {
            [one] => one.clone(),
            _ => RuleError::new(
                "p17",
                format!(
                    "no unit of that group can act on an order: {}",
                    whys.iter()
                        .map(|e| format!("{} ({})", e.message, e.rule))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ),
        });
    }
    let rate = group_rate(sc, &ctx.s, &units);
    let free = automatic(&ctx.s, officer, g);
    let (test, passed) = if free {
        (None, true)
    } else {
        let n = successive(&ctx.s, officer, g);
        let mods = command_modifiers(sc, &ctx.s, officer, &units, kind, n);
        let cf = ctx.s.officer_quality(sc, officer.index()).command_factor();
        crate::chance::roll_for(2, || {
            crate::chance::ChanceRoll::new("order", "2d6")
                .with("officer", sc.officer_id(officer))
                .with("group", sc.group_arg(g))
                .with("order", kind)
        });
        let t = ctx.test(cf as i8, mods, true);
        let p = t.passed;
        (Some(t), p)
    };
    let huzzah = test.as_ref().is_some_and(|t| t.dice.huzzah());
    ctx.emit(Event::OrderGiven {
        officer: ctx.sc.officer_id(officer),
        group: ctx.sc.group_arg(g),
        order: kind,
        units: ctx.sc.unit_ids(&units),
        test,
        automatic: free,
        huzzah,
        rate_mm: rate,
    });
    if !passed && def.rank == OfficerRank::Cinc {
        // Page 16: the side's Orders phase ends at once if the CinC fails.
        ctx.emit(Event::OrdersEnded {
            side,
            why: "p16: the CinC failed an order".into(),
        });
        let player1 = ctx.s.player1.unwrap_or(side);
        let next = crate::huzzah::engine::next_phase(ctx.s.phase, player1);
        ctx.emit(Event::PhaseStarted { phase: next });
    }
    Ok(())
}

/// The unit's shape after an advance of `d` with a drift of `drift` to its right.
pub fn advanced(s: &State, u: UnitIx, d: Len, drift: Len) -> Shape {
    s.unit(u).shape.translated(d, drift)
}

pub(crate) fn off_table(sc: &Scenario, sh: &Shape) -> bool {
    let (w, d) = sc.table_size();
    sh.footprint_corners()
        .iter()
        .any(|p| p.x < Len::ZERO || p.y < Len::ZERO || p.x > w || p.y > d)
}

pub(crate) fn enemies_on_table(sc: &Scenario, s: &State, u: UnitIx) -> Vec<UnitIx> {
    sc.unit_ixs(sc.unit(u).side.other())
        .filter(|e| on_table(s, *e))
        .collect()
}

pub(crate) fn touches_any(s: &State, sh: &Shape, others: &[UnitIx]) -> Option<UnitIx> {
    let b = sh.aabb();
    others
        .iter()
        .copied()
        .find(|e| geometry::touches_boxed(sh, b, &s.unit(*e).shape))
}

/// Those of `others` whose footprints come within [`geometry::CONTACT_TOLERANCE`] of
/// the box `b` (in their order): the only ones a shape inside `b` may touch.
fn near_box(s: &State, b: [i64; 4], others: &[UnitIx]) -> Vec<UnitIx> {
    others
        .iter()
        .copied()
        .filter(|e| {
            !geometry::boxes_beyond(b, s.unit(*e).shape.aabb(), geometry::CONTACT_TOLERANCE)
        })
        .collect()
}

pub(crate) fn dense_polygons(sc: &Scenario) -> Vec<Polygon> {
    sc.terrain()
        .iter()
        .filter(|t| t.kind.is_dense())
        .map(|t| Polygon(t.polygon.clone()))
        .collect()
}

/// The active order, if `u` is one of its units still to act and it is of `kind`
/// (page 18: "Units that have been given an order to advance … can only advance").
pub(crate) fn on_order<'a>(
    sc: &Scenario,
    s: &'a State,
    u: UnitIx,
    kind: OrderKind,
    page: &str,
) -> Result<&'a ActiveOrder, RuleError> {
    let id = &sc.unit(u).id;
    let Some(active) = &s.orders.active else {
        return refuse(page, "no order is being acted on");
    };
    if active.kind != kind {
        return refuse(
            "p18",
            format!(
                "{id} was ordered to {}: it can only do that",
                active.kind.name()
            ),
        );
    }
    if !active.units.contains(&u) {
        return Err(why_not_acting(sc, s, active, u));
    }
    Ok(active)
}

/// [`on_order`], for a move: squares cannot move (page 22).
fn acting<'a>(
    sc: &Scenario,
    s: &'a State,
    u: UnitIx,
    kind: OrderKind,
    page: &str,
) -> Result<&'a ActiveOrder, RuleError> {
    let active = on_order(sc, s, u, kind, page)?;
    if s.unit(u).shape.square {
        return refuse(
            "p22",
            format!("{} is in square: squares cannot move", sc.unit(u).id),
        );
    }
    Ok(active)
}

/// Checks an advance (page 19).
///
/// # Errors
/// The rule it breaks.
pub fn check_advance(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    d: Len,
    drift: Len,
) -> Result<Shape, RuleError> {
    let id = &sc.unit(u).id;
    let active = acting(sc, s, u, OrderKind::Advance, "p19")?;
    if d <= Len::ZERO || d > active.rate {
        return refuse(
            "p19",
            format!(
                "an advance is 0 to {} ({id}'s group's move), not {d}",
                active.rate
            ),
        );
    }
    if drift.0.abs() > DRIFT.0 {
        return refuse("p19", format!("the drift is at most 5 cm, not {drift}"));
    }
    let enemies = enemies_on_table(sc, s, u);
    if let Some(e) = touches_any(s, &s.unit(u).shape, &enemies) {
        return refuse(
            "p19",
            format!(
                "{id} is in contact with {}: an advance never breaks contact",
                sc.unit(e).id
            ),
        );
    }
    if s.unit(u).sector.is_some() {
        return refuse(
            "p19",
            format!("{id} is in dense terrain: leaving it needs a deploy order"),
        );
    }
    let straight = advanced(s, u, d, Len::ZERO);
    let end = advanced(s, u, d, drift);
    if off_table(sc, &end) {
        return refuse("p19", format!("{id} would leave the table"));
    }
    let sweep = geometry::swept_back(&straight, d);
    // Every position on the way lies in the box round the start and the two ends (the
    // drifts lie between the straight end and the drifted one): enemies beyond it can
    // be neither swept into nor reached.
    let sweep_box = geometry::box_union(
        geometry::box_union(s.unit(u).shape.aabb(), straight.aabb()),
        end.aabb(),
    );
    let enemies = near_box(s, sweep_box, &enemies);
    let hits_enemy = |sh: &Shape| touches_any(s, sh, &enemies);
    let swept_into = enemies.iter().find(|e| {
        s.unit(**e)
            .shape
            .bases()
            .iter()
            .any(|q| sweep.intersects_quad(q))
    });
    // The last drift step (k = 10) is `end` itself.
    let drift_into = (0..=10).find_map(|k| hits_enemy(&advanced(s, u, d, Len(drift.0 * k / 10))));
    if let Some(e) = swept_into.copied().or(drift_into) {
        return refuse(
            "p20",
            format!(
                "{id} would reach {}: an advance into contact is a charge (the charge command, with no drift)",
                sc.unit(e).id
            ),
        );
    }
    // Page 19: an advance neither enters nor leaves dense terrain, unless a road column
    // passes through it.
    let dense = dense_polygons(sc);
    let column = s.unit(u).column;
    for p in &dense {
        if !geometry::boxes_meet(sweep_box, p.aabb()) {
            continue;
        }
        let ends_in = end.bases().iter().any(|q| p.intersects_quad(q));
        let crosses = (0..=10).any(|k| {
            advanced(s, u, Len(d.0 * k / 10), Len::ZERO)
                .bases()
                .iter()
                .any(|q| p.intersects_quad(q))
        });
        if ends_in || (crosses && !column) {
            return refuse(
                "p19",
                format!("{id} would enter dense terrain: that needs a deploy order (a road column may pass through)"),
            );
        }
    }
    Ok(end)
}

/// Checks a retire (page 20).
///
/// # Errors
/// The rule it breaks.
pub fn check_retire(sc: &Scenario, s: &State, u: UnitIx, d: Len) -> Result<Shape, RuleError> {
    let id = &sc.unit(u).id;
    let active = acting(sc, s, u, OrderKind::Retire, "p20")?;
    let max = Len(active.rate.0 / 2);
    if d <= Len::ZERO || d > max {
        return refuse(
            "p20",
            format!("a retire is 0 to {max} (half the group's move), not {d}"),
        );
    }
    let enemies = enemies_on_table(sc, s, u);
    if let Some(e) = touches_any(s, &s.unit(u).shape, &enemies) {
        return refuse(
            "p20",
            format!(
                "{id} is engaged with {}: a retire never breaks an engagement",
                sc.unit(e).id
            ),
        );
    }
    if s.unit(u).sector.is_some() {
        return refuse(
            "p20",
            format!("{id} is in dense terrain: leaving it needs a deploy order"),
        );
    }
    let end = s.unit(u).shape.translated(Len(-d.0), Len::ZERO);
    if off_table(sc, &end) {
        return refuse("p20", format!("{id} would leave the table"));
    }
    let sweep = geometry::swept_back(&s.unit(u).shape, d);
    if let Some(e) = enemies
        .iter()
        .find(|e| {
            s.unit(**e)
                .shape
                .bases()
                .iter()
                .any(|q| sweep.intersects_quad(q))
        })
        .copied()
        .or(touches_any(s, &end, &enemies))
    {
        return refuse(
            "p20",
            format!(
                "{id} would reach {}: a retire never brings a unit into contact",
                sc.unit(e).id
            ),
        );
    }
    let dense = dense_polygons(sc);
    if dense
        .iter()
        .any(|p| end.bases().iter().any(|q| p.intersects_quad(q)))
    {
        return refuse(
            "p20",
            format!("{id} would enter dense terrain: that needs a deploy order"),
        );
    }
    Ok(end)
}

/// Moves a unit that acts on its order to `end`: attached officers go with it, friendly
/// officers it ends on are displaced, enemy officers it reaches are captured or attach
/// (page 18), and friends it overlaps are disordered with it (page 20).
pub(crate) fn move_to(ctx: &mut Ctx, u: UnitIx, end: Shape, distance: Len, why: &str) {
    move_to_with(ctx, u, end, distance, why, None, &[]);
}

/// [`move_to`], ending in `sector` (or none), with `exempt` friends not disordered by
/// an overlap (page 20: a passage of lines).
pub(crate) fn move_to_with(
    ctx: &mut Ctx,
    u: UnitIx,
    end: Shape,
    distance: Len,
    why: &str,
    sector: Option<crate::huzzah::scenario::SectorRef>,
    exempt: &[UnitIx],
) {
    let sc = ctx.sc;
    let side = sc.unit(u).side;
    let start = ctx.s.unit(u).shape.clone();
    ctx.emit(Event::UnitMoved {
        unit: ctx.sc.unit_id(u),
        shape: end.clone(),
        sector: sector.map(|s| sc.sector_name(s)),
        distance_mm: distance,
        why: why.to_string(),
    });
    let shift = Point::new(
        Len(end.anchor.x.0 - start.anchor.x.0),
        Len(end.anchor.y.0 - start.anchor.y.0),
    );
    for o in 0..ctx.s.officers.len() {
        let os = ctx.s.officers[o].clone();
        let Some(at) = os.at else { continue };
        if os.lost {
            continue;
        }
        let oix = OfficerIx(o as u16);
        if os.attached == Some(u) {
            let to = Point::new(Len(at.x.0 + shift.x.0), Len(at.y.0 + shift.y.0));
            ctx.emit(Event::OfficerMoved {
                officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                at: to,
                attached: Some(ctx.sc.unit_id(u)),
                why: "moves with his unit".into(),
            });
            continue;
        }
        if os.attached.is_some() || !end.bases().iter().any(|q| q.contains(at)) {
            continue;
        }
        if sc.officer(oix).side == side {
            // Just out of contact with and behind the centre of the unit.
            let rear = end.face(geometry::Face::Rear).mid();
            let to = geometry::rotate(rear, end.facing, Len::ZERO, Len::cm(-1));
            ctx.emit(Event::OfficerMoved {
                officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                at: to,
                attached: None,
                why: "p18: displaced by a friendly unit".into(),
            });
        } else {
            let r = ctx.s.officer_quality(sc, o).radius();
            let nearest = sc
                .unit_ixs(sc.officer(oix).side)
                .filter(|f| on_table(&ctx.s, *f) && ctx.s.unit(*f).status != Status::Routing)
                .map(|f| (geometry::dist(at, ctx.s.unit(f).shape.centre()), f))
                .filter(|(d, _)| *d <= r)
                .min();
            match nearest {
                Some((_, f)) => {
                    let fs = &ctx.s.unit(f).shape;
                    let to = geometry::rotate(
                        fs.face(geometry::Face::Rear).mid(),
                        fs.facing,
                        Len::ZERO,
                        Len::cm(-1),
                    );
                    ctx.emit(Event::OfficerMoved {
                        officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                        at: to,
                        attached: Some(ctx.sc.unit_id(f)),
                        why: "p18: reached by an enemy unit, he joins the nearest friendly unit in his command radius".into(),
                    });
                }
                None => ctx.emit(Event::OfficerCaptured {
                    officer: ctx.sc.officer_id(OfficerIx(o as u16)),
                    by: ctx.sc.unit_id(u),
                }),
            }
        }
    }
    let friends: Vec<UnitIx> = sc
        .unit_ixs(side)
        .filter(|f| {
            *f != u
                && !exempt.contains(f)
                && on_table(&ctx.s, *f)
                && geometry::overlaps(&end, &ctx.s.unit(*f).shape)
        })
        .collect();
    for f in friends {
        for x in [u, f] {
            if ctx.s.unit(x).status == Status::Formed {
                ctx.emit(Event::StatusChanged {
                    unit: ctx.sc.unit_id(x),
                    status: Status::Disordered,
                    why: "p20: friendly units overlap".into(),
                });
            }
        }
    }
}

/// The Waver Test's modifiers (page 21).
pub fn waver_modifiers(sc: &Scenario, s: &State, u: UnitIx) -> Vec<Modifier> {
    let st = s.unit(u);
    let def = sc.unit(u);
    let mut mods = Vec::new();
    if st.status == Status::Disordered {
        mods.push(m("disordered", -1));
    }
    if sc.unit_ixs(def.side).any(|f| {
        f != u
            && on_table(s, f)
            && s.unit(f).status == Status::Routing
            && within_one_move(sc, s, u, f)
    }) {
        mods.push(m("friendly routing unit within one move", -1));
    }
    if def.flags.hesitant {
        mods.push(m("hesitant", -1));
    }
    if def.flags.impulsive {
        mods.push(m("impulsive", -1));
    }
    if let Some(o) = s.attached_officer(u) {
        mods.push(m("leader attached", 1));
        if s.officer_inspirational(sc, o) {
            mods.push(m("inspirational leader attached", 1));
        }
    }
    if st.disciplined {
        mods.push(m("disciplined", 1));
    }
    mods
}

/// A retire within one move of an enemy is followed by a Waver Test (page 21).
pub(crate) fn waver(ctx: &mut Ctx, u: UnitIx) {
    let q = crate::huzzah::firing::ensure_quality(ctx, u);
    let mods = waver_modifiers(ctx.sc, &ctx.s, u);
    let sc = ctx.sc;
    crate::chance::roll_for(2, || {
        crate::chance::ChanceRoll::new("waver", "2d6").with("unit", sc.unit_id(u))
    });
    let test = ctx.test(q.morale_factor() as i8, mods, true);
    let (passed, huzzah) = (test.passed, test.dice.huzzah());
    ctx.emit(Event::WaverTested {
        unit: ctx.sc.unit_id(u),
        test,
    });
    if passed {
        if huzzah {
            huzzah_bonus(ctx, u);
        }
    } else if ctx.s.unit(u).status == Status::Disordered {
        rout(
            ctx,
            u,
            Len::ZERO,
            "p21: a disordered unit that fails a waver test routs",
        );
    } else {
        ctx.emit(Event::StatusChanged {
            unit: ctx.sc.unit_id(u),
            status: Status::Disordered,
            why: "p21: failed a waver test".into(),
        });
    }
}

/// The pending decision of the Orders phase now.
pub(crate) fn pending(sc: &Scenario, s: &State, side: Side) -> Pending {
    match &s.orders.active {
        Some(a) if !a.units.is_empty() => Pending::Act {
            side,
            order: a.kind,
            units: sc.unit_ids(&a.units),
        },
        _ => Pending::Orders { side },
    }
}

/// An active order with nothing left to act is done.
pub(crate) fn settle(ctx: &mut Ctx) {
    if ctx
        .s
        .orders
        .active
        .as_ref()
        .is_some_and(|a| a.units.is_empty())
    {
        ctx.emit(Event::OrderDone);
    }
}

/// The order in force, for the fold.
pub(crate) fn activate(
    s: &mut State,
    officer: OfficerIx,
    group: GroupRef,
    kind: OrderKind,
    units: &[UnitIx],
    rate: Len,
) {
    s.orders.active = Some(ActiveOrder {
        officer,
        group,
        kind,
        units: units.to_vec(),
        rate,
    });
}

/// How a charge comes out (page 20).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChargePlan {
    /// The straight-ahead distance to the first contact.
    pub reach: Len,
    /// The charger's shape after squaring up (or after falling back 5 cm).
    pub end: Shape,
    /// The target's face charged (its real side, for a square too).
    pub face: geometry::Face,
    /// The contact was not by the charger's front face: disordered, moved back 5 cm.
    pub bad_contact: bool,
}

fn face_normal(target: &Shape, f: geometry::Face) -> geometry::Facing {
    match f {
        geometry::Face::Front => target.facing,
        geometry::Face::Right => target.facing.turned(90),
        geometry::Face::Rear => target.facing.turned(180),
        geometry::Face::Left => target.facing.turned(270),
    }
}

fn real_face(target: &Shape, seg: geometry::Seg) -> geometry::Face {
    geometry::Face::ALL
        .into_iter()
        .find(|f| target.face(*f) == seg)
        .unwrap_or(geometry::Face::Front)
}

/// The contact distance of `sh` moving straight ahead into `target`, up to `max`.
fn contact_distance(sh: &Shape, target: &Shape, max: Len) -> Option<Len> {
    // Every position on the way lies in the box round the start and the end: a target
    // beyond it is never met, whatever the steps.
    let way = geometry::box_union(sh.aabb(), sh.translated(max, Len::ZERO).aabb());
    if geometry::boxes_beyond(way, target.aabb(), geometry::CONTACT_TOLERANCE) {
        return None;
    }
    crate::huzzah::morale::first_distance(max, |x| {
        geometry::touches(&sh.translated(x, Len::ZERO), target)
    })
}

/// Plans a charge of `u` at `target` (page 20): straight ahead, no drift, up to the
/// group's move; squared up on the target's front if most of the charger's front would
/// meet it, else on the face its closer front corner meets; touching as much of that
/// face as it can, at `offset` along the face (the owner's choice; `None`: as near its
/// line of advance as allowed).
///
/// # Errors
/// The rule the charge breaks.
pub fn plan_charge(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    target: UnitIx,
    offset: Option<Len>,
) -> Result<ChargePlan, RuleError> {
    let id = &sc.unit(u).id;
    let Some(active) = &s.orders.active else {
        return refuse("p20", "no order is being acted on");
    };
    if active.kind != OrderKind::Advance || !active.units.contains(&u) {
        return refuse(
            "p20",
            format!("{id} is not acting on an advance order: only an advance charges"),
        );
    }
    plan_charge_within(sc, s, u, target, offset, active.rate)
}

/// The enemies `u` could charge at all moving up to `rate`: those it would meet first
/// straight ahead (any other is "met first" by one of these), in scenario order. One
/// contact search per enemy, each bounded by the best so far, so that listing charges
/// costs one pass rather than one plan per enemy.
pub fn first_met(sc: &Scenario, s: &State, u: UnitIx, rate: Len) -> Vec<UnitIx> {
    let sh = &s.unit(u).shape;
    let mut best: Option<Len> = None;
    let mut out: Vec<UnitIx> = Vec::new();
    for e in enemies_on_table(sc, s, u) {
        let Some(d) = contact_distance(sh, &s.unit(e).shape, best.unwrap_or(rate)) else {
            continue;
        };
        match best {
            Some(b) if d > b => {}
            Some(b) if d == b => out.push(e),
            _ => {
                best = Some(d);
                out = vec![e];
            }
        }
    }
    out
}

/// [`plan_charge`] for a unit moving up to `rate` (its group's move, or its own for an
/// impulsive charge without orders).
///
/// # Errors
/// The rule the charge breaks.
pub fn plan_charge_within(
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    target: UnitIx,
    offset: Option<Len>,
    rate: Len,
) -> Result<ChargePlan, RuleError> {
    let id = &sc.unit(u).id;
    if s.unit(u).shape.square {
        return refuse("p22", format!("{id} is in square: squares cannot move"));
    }
    if sc.unit(target).side == sc.unit(u).side || !on_table(s, target) {
        return refuse(
            "p20",
            format!("{} is not an enemy unit on the table", sc.unit(target).id),
        );
    }
    let enemies = enemies_on_table(sc, s, u);
    let sh = &s.unit(u).shape;
    if let Some(e) = touches_any(s, sh, &enemies) {
        return refuse(
            "p19",
            format!(
                "{id} is in contact with {}: an advance never breaks contact",
                sc.unit(e).id
            ),
        );
    }
    if s.unit(u).sector.is_some() {
        return refuse(
            "p19",
            format!("{id} is in dense terrain: from there a sector is entered by deploy order"),
        );
    }
    let ts = &s.unit(target).shape;
    let Some(reach) = contact_distance(sh, ts, rate) else {
        return refuse(
            "p19",
            format!(
                "{} is not within {id}'s move straight ahead ({})",
                sc.unit(target).id,
                rate
            ),
        );
    };
    // Another enemy met first would be the one charged.
    if let Some(e) = enemies.iter().copied().find(|e| {
        *e != target && contact_distance(sh, &s.unit(*e).shape, reach).is_some_and(|d| d < reach)
    }) {
        return refuse("p20", format!("{id} would meet {} first", sc.unit(e).id));
    }
    let at = sh.translated(reach, Len::ZERO);
    if off_table(sc, &at) {
        return refuse("p19", format!("{id} would leave the table"));
    }
    for p in dense_polygons(sc) {
        let crosses = (0..=10).any(|k| {
            sh.translated(Len(reach.0 * k / 10), Len::ZERO)
                .bases()
                .iter()
                .any(|q| p.intersects_quad(q))
        });
        if crosses {
            return refuse(
                "p19",
                format!("{id} would enter dense terrain on the way: that needs a deploy order"),
            );
        }
    }
    // Which part of the charger makes contact.
    let front = at.face(geometry::Face::Front);
    let front_touch = ts.bases().iter().any(|q| {
        q.edges()
            .iter()
            .any(|e| geometry::dist_seg_seg(front, *e) <= geometry::CONTACT_TOLERANCE)
    });
    if !front_touch {
        let end = at.translated(Len::cm(-5), Len::ZERO);
        let face = geometry::closest_visible_face(ts, at.centre())
            .map_or(geometry::Face::Front, |(_, seg)| real_face(ts, seg));
        return Ok(ChargePlan {
            reach,
            end,
            face,
            bad_contact: true,
        });
    }
    // "Most of a charger would contact the front": most of eleven points along its
    // front, carried straight ahead, meet the target's front face first.
    let (fsin, fcos) = geometry::sin_cos(sh.facing);
    let far = Len(rate.0 + sh.width().0 + ts.width().0 + ts.depth().0);
    let ahead = |p: Point| {
        Point::new(
            Len(p.x.0 + (far.0 as i128 * fsin as i128 / geometry::TRIG_ONE as i128) as i64),
            Len(p.y.0 + (far.0 as i128 * fcos as i128 / geometry::TRIG_ONE as i128) as i64),
        )
    };
    let sfront = sh.face(geometry::Face::Front);
    let mut on_front = 0;
    let mut hits = 0;
    for k in 0..=10i64 {
        let p = Point::new(
            Len(sfront.a.x.0 + (sfront.b.x.0 - sfront.a.x.0) * k / 10),
            Len(sfront.a.y.0 + (sfront.b.y.0 - sfront.a.y.0) * k / 10),
        );
        let ray = geometry::Seg::new(p, ahead(p));
        let first = geometry::Face::ALL
            .into_iter()
            .filter(|f| geometry::segs_intersect(ray, ts.face(*f)))
            .min_by_key(|f| geometry::dist_point_seg(p, ts.face(*f)));
        if let Some(f) = first {
            hits += 1;
            if f == geometry::Face::Front {
                on_front += 1;
            }
        }
    }
    let face = if !ts.square && hits > 0 && on_front * 2 > hits {
        geometry::Face::Front
    } else {
        let (l, r) = (sfront.a, sfront.b);
        let dl = ts
            .bases()
            .iter()
            .map(|q| {
                q.edges()
                    .iter()
                    .map(|e| geometry::dist_point_seg(l, *e))
                    .min()
                    .unwrap_or(Len::ZERO)
            })
            .min()
            .unwrap_or(Len::ZERO);
        let dr = ts
            .bases()
            .iter()
            .map(|q| {
                q.edges()
                    .iter()
                    .map(|e| geometry::dist_point_seg(r, *e))
                    .min()
                    .unwrap_or(Len::ZERO)
            })
            .min()
            .unwrap_or(Len::ZERO);
        let corner = if dr < dl { r } else { l };
        geometry::closest_visible_face(ts, corner)
            .map_or(geometry::Face::Front, |(_, seg)| real_face(ts, seg))
    };
    let seg = ts.face(face);
    let facing = face_normal(ts, face).opposite();
    let mid = seg.mid();
    let w = Len(sh.ranks.first().copied().unwrap_or(1) as i64 * sh.base.0);
    let half = Len((w.0 - seg.len().0).abs() / 2);
    let (csin, ccos) = geometry::sin_cos(facing);
    // Where the charger's own line of advance puts it along the face.
    let natural = {
        let dx = (at.anchor.x.0 - mid.x.0) as i128;
        let dy = (at.anchor.y.0 - mid.y.0) as i128;
        ((dx * ccos as i128 - dy * csin as i128) / geometry::TRIG_ONE as i128) as i64
    };
    let off = match offset {
        Some(o) if o.0.abs() > half.0 => {
            return refuse(
                "p20",
                format!(
                "the overlap may be placed {half} either way of the face's centre at most, not {o}"
            ),
            )
        }
        Some(o) => o.0,
        None => natural.clamp(-half.0, half.0),
    };
    let anchor = geometry::rotate(mid, facing, Len(off), Len::ZERO);
    let end = Shape {
        anchor,
        facing,
        ..sh.clone()
    };
    if off_table(sc, &end) {
        return refuse("p20", format!("squared up, {id} would leave the table"));
    }
    Ok(ChargePlan {
        reach,
        end,
        face,
        bad_contact: false,
    })
}

/// Carries out a charge.
pub(crate) fn charge(ctx: &mut Ctx, u: UnitIx, target: UnitIx, plan: ChargePlan) {
    move_to(ctx, u, plan.end.clone(), plan.reach, "p20: charges");
    if plan.bad_contact {
        if ctx.s.unit(u).status == Status::Formed {
            ctx.emit(Event::StatusChanged {
                unit: ctx.sc.unit_id(u),
                status: Status::Disordered,
                why: "p20: contact by a face other than its front: disordered and moved back 5cm"
                    .into(),
            });
        }
    } else {
        ctx.emit(Event::Charged {
            unit: ctx.sc.unit_id(u),
            target: ctx.sc.unit_id(target),
            face: plan.face,
        });
    }
    ctx.emit(Event::Acted {
        unit: ctx.sc.unit_id(u),
    });
}

/// Page 20: "Impulsive units that are within one advance move of the enemy at the start
/// of their Orders and Movement phase must always charge that enemy. They do not
/// require orders." Each such unit of `side` (formed or disordered, not in contact)
/// charges the enemy it would reach first straight ahead within its own move (ruling
/// R-HZ-20b); the check is made once, as the phase starts.
pub(crate) fn impulsive_charges(ctx: &mut Ctx, side: Side) {
    let sc = ctx.sc;
    let units: Vec<UnitIx> = sc
        .unit_ixs(side)
        .filter(|u| sc.unit(*u).flags.impulsive)
        .collect();
    if units.is_empty() || ctx.s.orders.impulsive_checked {
        return;
    }
    let mut charges = Vec::new();
    for u in units {
        if !on_table(&ctx.s, u) || ctx.s.unit(u).status == Status::Routing || ctx.s.unit(u).charger
        {
            continue;
        }
        let rate = advance_of(sc, &ctx.s, u);
        let best = first_met(sc, &ctx.s, u, rate)
            .into_iter()
            .filter_map(|e| {
                plan_charge_within(sc, &ctx.s, u, e, None, rate)
                    .ok()
                    .map(|p| (p.reach, e, p))
            })
            .min_by_key(|(r, e, _)| (*r, *e));
        if let Some((_, e, plan)) = best {
            charges.push((u, e));
            charge(ctx, u, e, plan);
        }
    }
    let charges = charges
        .into_iter()
        .map(|(u, e)| (ctx.sc.unit_id(u), ctx.sc.unit_id(e)))
        .collect();
    ctx.emit(Event::ImpulsiveCharges { side, charges });
}
