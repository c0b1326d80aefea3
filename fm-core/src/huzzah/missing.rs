//! The rules our copy lacks (pages 23 on: melee, rally, officer movement and the
//! appointment of new officers), asked as
//! explicit decisions where the text puts them, never invented inside the written
//! rules. A scenario with `"missing_rules": "stand_in"` has the engine answer them with
//! the simple stand-in rules below, each labelled stand-in in its events
//! (docs/huzzah.md, "The missing rules").
//!
//! What the written rules still govern: losing a combat disorders (page 18: "A unit
//! may be in disorder after … losing a combat"); force backs and routs follow pages
//! 14-15 (through friends, dense terrain, the table edge); "Any casualties caused by
//! firing count for any force back if the chargers lose the melee" (page 13): a losing
//! charger falls back 5 cm more for each base it lost this turn before the melee.

use crate::error::{refuse, RuleError};
use crate::huzzah::engine::{m, Ctx};
use crate::huzzah::event::{Event, Test};
use crate::huzzah::firing::{cover, ensure_quality, on_table};
use crate::huzzah::geometry::{self, Len, Point};
use crate::huzzah::morale::{cover_reduction, retreat, rout, support_ranks, within_one_move};
use crate::huzzah::scenario::{
    MissingRules, OfficerIx, OfficerQuality, OfficerRank, Scenario, UnitIx,
};
use crate::huzzah::state::{Pending, State, Status};
use crate::ids::Side;
use serde::{Deserialize, Serialize};

/// The engagements to resolve this Combat phase: pairs of enemy units in contact or
/// engaged in dense terrain (pages 19, 22), neither routing, side A's unit first, not
/// yet resolved.
pub fn engagements(sc: &Scenario, s: &State) -> Vec<(UnitIx, UnitIx)> {
    let fighting = |u: UnitIx| on_table(s, u) && s.unit(u).status != Status::Routing;
    let mut out = Vec::new();
    for a in sc.unit_ixs(Side::A).filter(|u| fighting(*u)) {
        for b in sc.unit_ixs(Side::B).filter(|u| fighting(*u)) {
            if !s.combat_done.contains(&(a, b))
                && (s.sector_engaged.contains(&(a, b))
                    || geometry::in_contact(&s.unit(a).shape, &s.unit(b).shape))
            {
                out.push((a, b));
            }
        }
    }
    out
}

/// A melee's outcome as a player or umpire gives it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct MeleeOutcome {
    /// The winner's side; `None` for a drawn melee (both stay in contact).
    pub winner: Option<Side>,
    /// Hits on side A's unit and on side B's.
    pub hits: (u8, u8),
    /// How far the loser falls back (before the page-13 fire casualties of a charger).
    pub fall_back: Len,
    /// The loser routs.
    pub routs: bool,
}

/// Checks a melee outcome.
///
/// # Errors
/// `"input"` for values out of range; `"p13"` for a drawn melee with a loser's move.
pub fn check_outcome(o: &MeleeOutcome) -> Result<(), RuleError> {
    if o.hits.0 > 30 || o.hits.1 > 30 {
        return refuse("input", "at most 30 hits a unit in one melee");
    }
    if o.fall_back < Len::ZERO || o.fall_back > Len::cm(100) {
        return refuse(
            "input",
            format!("a fall back of 0 to 100 cm, not {}", o.fall_back),
        );
    }
    if o.winner.is_none() && (o.routs || o.fall_back > Len::ZERO) {
        return refuse("p13", "a drawn melee has no loser to fall back or rout");
    }
    Ok(())
}

/// Applies a melee's outcome: hits, the loser's disorder and retreat.
pub(crate) fn resolve(
    ctx: &mut Ctx,
    a: UnitIx,
    b: UnitIx,
    o: MeleeOutcome,
    tests: Option<(Test, Test)>,
) {
    let stand_in = tests.is_some();
    let loser = o.winner.map(|w| if w == Side::A { b } else { a });
    // Page 13: a losing charger's losses to fire this turn lengthen its fall back.
    let fire_lost = loser
        .filter(|l| ctx.s.unit(*l).charger)
        .map_or(0, |l| ctx.s.unit(l).lost_this_turn);
    ctx.emit(Event::MeleeResolved {
        a: ctx.sc.unit_id(a),
        b: ctx.sc.unit_id(b),
        winner: o.winner,
        hits: o.hits,
        tests,
        stand_in,
    });
    let Some(l) = loser else { return };
    if !on_table(&ctx.s, l) {
        return;
    }
    let d = Len(o.fall_back.0 + Len::cm(5 * fire_lost as i64).0);
    let why = if stand_in {
        "stand-in melee: the loser falls back 5cm a hit (routs beyond 15cm)"
    } else {
        "the melee's loser, as decided"
    };
    if o.routs || ctx.s.unit(l).status == Status::Disordered {
        rout(ctx, l, d, why);
    } else {
        ctx.emit(Event::StatusChanged {
            unit: ctx.sc.unit_id(l),
            status: Status::Disordered,
            why: "p18: lost a combat".into(),
        });
        if d > Len::ZERO {
            retreat(ctx, l, d, false, why);
        }
    }
}

/// STAND-IN melee: each side tests against its Morale Factor, +1 for each complete
/// support rank in good order, −1 if disordered, +1 for a charger (2..10); the larger
/// margin (factor − total; a failed 11 or 12 counts as −12) wins; the loser takes the
/// difference in hits (1 to 6), falls back 5 cm a hit less its cover's reduction, and
/// routs beyond 15 cm or if already disordered; equal margins draw.
pub(crate) fn stand_in_melee(ctx: &mut Ctx, a: UnitIx, b: UnitIx) {
    let mut tests = Vec::new();
    for u in [a, b] {
        let q = ensure_quality(ctx, u);
        let st = ctx.s.unit(u);
        let mut mods = Vec::new();
        let sr = support_ranks(&st.shape.ranks);
        if sr > 0 && st.status == Status::Formed {
            mods.push(m(
                "stand-in: each complete support rank in good order",
                sr as i8,
            ));
        }
        if st.status == Status::Disordered {
            mods.push(m("stand-in: disordered", -1));
        }
        if st.charger {
            mods.push(m("stand-in: charging", 1));
        }
        let sc = ctx.sc;
        crate::chance::roll_for(2, || {
            let other = if u == a { b } else { a };
            crate::chance::ChanceRoll::new("melee_stand_in", "2d6")
                .with("unit", sc.unit_id(u))
                .with("against", sc.unit_id(other))
        });
        tests.push(ctx.test(q.morale_factor() as i8, mods, true));
    }
    let margin = |t: &Test| {
        if t.passed {
            t.factor as i32 - t.dice.total() as i32
        } else if t.dice.total() >= 11 {
            -12
        } else {
            t.factor as i32 - t.dice.total() as i32
        }
    };
    let (ma, mb) = (margin(&tests[0]), margin(&tests[1]));
    let (winner, diff) = match ma.cmp(&mb) {
        std::cmp::Ordering::Greater => (Some(Side::A), ma - mb),
        std::cmp::Ordering::Less => (Some(Side::B), mb - ma),
        std::cmp::Ordering::Equal => (None, 0),
    };
    let hits = diff.clamp(0, 6) as u8;
    let hits = if winner.is_some() { hits.max(1) } else { 0 };
    let loser = winner.map(|w| if w == Side::A { b } else { a });
    let fall_back = loser.map_or(Len::ZERO, |l| {
        let raw = Len::cm(5 * hits as i64);
        Len((raw.0 - cover_reduction(cover(ctx.sc, &ctx.s, l)).0).max(0))
    });
    let o = MeleeOutcome {
        winner,
        hits: match winner {
            Some(Side::A) => (0, hits),
            Some(Side::B) => (hits, 0),
            None => (0, 0),
        },
        fall_back,
        routs: fall_back > Len::cm(15),
    };
    let t1 = tests.pop();
    let t0 = tests.pop();
    resolve(ctx, a, b, o, t0.zip(t1));
}

/// One step of a Combat phase.
pub(crate) fn combat_step(ctx: &mut Ctx, side: Side) -> Option<Pending> {
    while let Some((a, b)) = engagements(ctx.sc, &ctx.s).first().copied() {
        match ctx.sc.missing_rules() {
            MissingRules::Decide => {
                return Some(Pending::Melee {
                    side,
                    a: ctx.sc.unit_id(a),
                    b: ctx.sc.unit_id(b),
                })
            }
            MissingRules::StandIn => stand_in_melee(ctx, a, b),
        }
        if ctx.s.units.iter().any(|u| u.removing) {
            return None;
        }
    }
    None
}

/// The units that may rally in `side`'s Rally phase: disordered or routing, on the
/// table, not yet decided this phase.
pub fn to_rally(sc: &Scenario, s: &State, side: Side) -> Vec<UnitIx> {
    sc.unit_ixs(side)
        .filter(|u| {
            on_table(s, *u) && s.unit(*u).status != Status::Formed && !s.done_in_phase.contains(u)
        })
        .collect()
}

/// The status one step better (routing → disordered → formed).
pub fn rallied(st: Status) -> Status {
    match st {
        Status::Routing => Status::Disordered,
        _ => Status::Formed,
    }
}

/// One step of a Rally phase (before the odd hits go).
pub(crate) fn rally_step(ctx: &mut Ctx, side: Side) -> Option<Pending> {
    let units = to_rally(ctx.sc, &ctx.s, side);
    if units.is_empty() {
        return None;
    }
    match ctx.sc.missing_rules() {
        MissingRules::Decide => Some(Pending::Rally {
            side,
            units: ctx.sc.unit_ids(&units),
        }),
        MissingRules::StandIn => {
            // STAND-IN rally: a unit with no formed enemy within one move tests its
            // morale; a pass rallies it one step.
            for u in units {
                let near = ctx.sc.unit_ixs(side.other()).any(|e| {
                    on_table(&ctx.s, e)
                        && ctx.s.unit(e).status == Status::Formed
                        && within_one_move(ctx.sc, &ctx.s, u, e)
                });
                if near {
                    ctx.emit(Event::RallyDecided {
                        unit: ctx.sc.unit_id(u),
                        to: ctx.s.unit(u).status,
                        test: None,
                        stand_in: true,
                    });
                    continue;
                }
                let q = ensure_quality(ctx, u);
                let ranks = ctx.s.unit(u).shape.ranks.clone();
                let mods = crate::huzzah::morale::morale_modifiers(ctx.sc, &ctx.s, u, &ranks);
                let sc = ctx.sc;
                crate::chance::roll_for(2, || {
                    crate::chance::ChanceRoll::new("rally_stand_in", "2d6")
                        .with("unit", sc.unit_id(u))
                });
                let test = ctx.test(q.morale_factor() as i8, mods, true);
                let to = if test.passed {
                    rallied(ctx.s.unit(u).status)
                } else {
                    ctx.s.unit(u).status
                };
                ctx.emit(Event::RallyDecided {
                    unit: ctx.sc.unit_id(u),
                    to,
                    test: Some(test),
                    stand_in: true,
                });
            }
            None
        }
    }
}

/// Checks an officer's move in the Move Officers phase: his own side's, on the table,
/// not yet moved this phase, at most his move (60 cm printed), the point on the table;
/// `attach` a friendly unit on the table whose footprint he ends within 5 cm of.
///
/// # Errors
/// The rule it breaks.
pub fn check_officer_move(
    sc: &Scenario,
    s: &State,
    side: Side,
    o: usize,
    at: Point,
    attach: Option<UnitIx>,
) -> Result<(), RuleError> {
    let def = &sc.officers()[o];
    let st = &s.officers[o];
    if def.side != side {
        return refuse(
            "p18",
            format!("{} is not an officer of side {side}", def.id),
        );
    }
    let Some(from) = st.at else {
        return refuse("p18", format!("{} is not on the table", def.id));
    };
    if st.lost || s.officers_moved.contains(&(o as u16)) {
        return refuse("p18", format!("{} cannot move now", def.id));
    }
    let (w, d) = sc.table_size();
    if at.x < Len::ZERO || at.y < Len::ZERO || at.x > w || at.y > d {
        return refuse("input", "the point is off the table");
    }
    let dist = geometry::dist(from, at);
    if dist > sc.officer_move() {
        return refuse(
            "p20",
            format!("an officer moves at most {}, not {dist}", sc.officer_move()),
        );
    }
    if let Some(u) = attach {
        if sc.unit(u).side != side || !on_table(s, u) {
            return refuse(
                "p18",
                format!("{} is not a friendly unit on the table", sc.unit(u).id),
            );
        }
        let near = s.unit(u).shape.bases().iter().any(|q| {
            q.contains(at)
                || q.edges()
                    .iter()
                    .any(|e| geometry::dist_point_seg(at, *e) <= Len::cm(5))
        });
        if !near {
            return refuse(
                "p18",
                format!(
                    "to attach to {}, place the officer touching it",
                    sc.unit(u).id
                ),
            );
        }
    }
    Ok(())
}

/// The STAND-IN successor's quality: one grade below the officer he replaces (Abysmal
/// stays Abysmal), never inspirational.
pub fn stand_in_successor(q: OfficerQuality) -> OfficerQuality {
    match q {
        OfficerQuality::Excellent => OfficerQuality::Skilful,
        OfficerQuality::Skilful => OfficerQuality::Average,
        OfficerQuality::Average => OfficerQuality::Poor,
        OfficerQuality::Poor | OfficerQuality::Abysmal => OfficerQuality::Abysmal,
    }
}

/// The officers `side`'s CinC may replace now (page 16: "appoint a new officer to a
/// command group that lost its officer in a previous turn"): corps and division
/// officers lost before this turn, while the CinC is on the table.
pub fn appointable(sc: &Scenario, s: &State, side: Side) -> Vec<usize> {
    let cinc = sc.cinc(side).index();
    if s.officers[cinc].lost || s.officers[cinc].at.is_none() {
        return Vec::new();
    }
    sc.officers()
        .iter()
        .enumerate()
        .filter(|(o, d)| {
            d.side == side
                && d.rank != OfficerRank::Cinc
                && s.officers[*o].lost
                && s.officers[*o].lost_turn.is_some_and(|t| t < s.turn)
        })
        .map(|(o, _)| o)
        .collect()
}

/// An appointment as the engine carries it out.
pub struct Appointment {
    /// The officer replaced.
    pub officer: usize,
    /// The successor's quality.
    pub quality: OfficerQuality,
    /// He is inspirational.
    pub inspirational: bool,
    /// Where he is placed.
    pub at: Point,
    /// The stand-in gave his quality.
    pub stand_in: bool,
}

/// Checks the CinC's appointment of a successor to `o` (page 16).
///
/// # Errors
/// The rule it breaks; `"input"` for a quality missing under `"decide"` or given
/// under `"stand_in"`.
pub fn check_appoint(
    sc: &Scenario,
    s: &State,
    side: Side,
    o: usize,
    quality: Option<OfficerQuality>,
    inspirational: bool,
    at: Option<Point>,
) -> Result<Appointment, RuleError> {
    let def = &sc.officers()[o];
    if def.side != side {
        return refuse(
            "p16",
            format!("{} is not an officer of side {side}", def.id),
        );
    }
    if !appointable(sc, s, side).contains(&o) {
        return refuse(
            "p16",
            format!(
                "the CinC appoints a new officer only to a command group that lost its officer in a previous turn, with the CinC on the table: not in place of {}",
                def.id
            ),
        );
    }
    let (quality, inspirational, stand_in) = match (sc.missing_rules(), quality) {
        (MissingRules::Decide, Some(q)) => (q, inspirational, false),
        (MissingRules::Decide, None) => {
            return refuse(
                "input",
                "state the new officer's quality (the rules for it are on the missing pages)",
            )
        }
        (MissingRules::StandIn, None) if !inspirational => {
            (stand_in_successor(def.quality), false, true)
        }
        (MissingRules::StandIn, _) => {
            return refuse(
                "input",
                "under the stand-in rules the new officer's quality and traits are the stand-in's: leave them out",
            )
        }
    };
    let cinc = sc.cinc(side).index();
    let at = at.unwrap_or_else(|| {
        let c = s.officers[cinc]
            .at
            .unwrap_or(Point::new(Len::ZERO, Len::ZERO));
        // Beside the CinC: 3 cm to the side that stays on the table.
        let (w, _) = sc.table_size();
        let dx = if c.x.0 + 300 <= w.0 { 300 } else { -300 };
        Point::new(Len(c.x.0 + dx), c.y)
    });
    let (w, d) = sc.table_size();
    if at.x < Len::ZERO || at.y < Len::ZERO || at.x > w || at.y > d {
        return refuse("input", "the point is off the table");
    }
    Ok(Appointment {
        officer: o,
        quality,
        inspirational,
        at,
        stand_in,
    })
}

/// Carries out an appointment.
pub(crate) fn appoint(ctx: &mut Ctx, a: Appointment) {
    ctx.emit(Event::OfficerAppointed {
        officer: ctx.sc.officer_id(OfficerIx(a.officer as u16)),
        quality: a.quality,
        inspirational: a.inspirational,
        at: a.at,
        stand_in: a.stand_in,
    });
}
