//! The pure entry points of Huzzah! ([`new_game`], [`apply`]), the turn sequence of
//! page 7 and the set-up of pages 7-8.
//!
//! `apply` works on a private copy of the state: it validates the command for the
//! pending decision, emits events (folding each into the copy at once, so later checks
//! see it), then runs the battle forward — the automatic phases, the rolls — until a
//! player must decide, and records that decision in an `awaiting` event. The caller's
//! state is never touched.

use crate::error::{refuse, RuleError};
use crate::huzzah::command::Command;
use crate::huzzah::command::GroupArg;
use crate::huzzah::event::{Event, Modifier, Test};
use crate::huzzah::geometry::{self, Len, Point};
use crate::huzzah::scenario::MissingRules;
use crate::huzzah::scenario::{OfficerIx, Scenario, UnitIx};
use crate::huzzah::state::GroupRef;
use crate::huzzah::state::{Dice, Outcome, Pending, Phase, State, Whereabouts};
use crate::huzzah::{chargers, deploy, firing, manoeuvre, missing, morale, movement, skirmish};
use crate::ids::{Side, UnitId};
use rand_core::RngCore;

pub(crate) struct Ctx<'a> {
    pub sc: &'a Scenario,
    pub s: State,
    pub events: Vec<Event>,
    pub rng: &'a mut dyn RngCore,
}

use crate::chance::{roll_for, ChanceRoll};

impl<'a> Ctx<'a> {
    pub(crate) fn emit(&mut self, e: Event) {
        self.s.apply_event(self.sc, &e);
        self.events.push(e);
    }

    /// One six-sided die, by rejection so every platform agrees.
    pub(crate) fn d6(&mut self) -> u8 {
        d6(self.rng)
    }

    /// Two dice.
    pub(crate) fn roll(&mut self) -> Dice {
        Dice(self.d6(), self.d6())
    }

    /// A test against `base` with `modifiers`: clamped to 2..10 when `clamp`; passed on
    /// a total at most the factor, never on 11 or 12, always on a Huzzah! (page 1).
    pub(crate) fn test(&mut self, base: i8, modifiers: Vec<Modifier>, clamp: bool) -> Test {
        let dice = self.roll();
        make_test(base, modifiers, clamp, dice)
    }
}

/// One die from the generator.
pub(crate) fn d6(rng: &mut dyn RngCore) -> u8 {
    // The one draw of every system: explicit chance mode scripts it.
    crate::chance::roll_index(rng, 6) as u8 + 1
}

/// The modified factor of a test.
pub(crate) fn modified(base: i8, modifiers: &[Modifier], clamp: bool) -> i8 {
    let f = base as i32 + modifiers.iter().map(|m| m.by as i32).sum::<i32>();
    if clamp {
        f.clamp(2, 10) as i8
    } else {
        f.clamp(-99, 99) as i8
    }
}

/// Whether a total passes a factor: the universal rules of page 1.
pub fn passes(factor: i8, dice: Dice) -> bool {
    dice.huzzah() || (dice.total() < 11 && dice.total() as i8 <= factor)
}

pub(crate) fn make_test(base: i8, modifiers: Vec<Modifier>, clamp: bool, dice: Dice) -> Test {
    let factor = modified(base, &modifiers, clamp);
    Test {
        base,
        passed: passes(factor, dice),
        modifiers,
        factor,
        dice,
    }
}

pub(crate) fn m(why: &str, by: i8) -> Modifier {
    Modifier {
        why: why.to_string(),
        by,
    }
}

/// Starts a battle: its state after the opening events (the roll-off, the first
/// decision of the set-up; for a battle that starts mid-way, its first phase), and
/// those events.
///
/// ```
/// use fm_core::huzzah::{engine, scenario::Scenario};
/// let sc = Scenario::builtin("huzzah-firefight").unwrap();
/// let mut rng = fm_core::rng_from_seed(1);
/// let (state, events) = engine::new_game(&sc, &mut rng);
/// assert!(!events.is_empty());
/// assert!(state.pending.side().is_some());
/// ```
pub fn new_game(sc: &Scenario, rng: &mut dyn RngCore) -> (State, Vec<Event>) {
    let mut ctx = Ctx {
        sc,
        s: State::initial(sc),
        events: Vec::new(),
        rng,
    };
    // A battle that starts mid-way (the scenario's `start`): its turn, or its phase,
    // begins.
    if let Some(start) = sc.start() {
        match start.phase {
            Phase::SkirmisherSuperiority => start_turn(&mut ctx, start.turn),
            phase => ctx.emit(Event::PhaseStarted { phase }),
        }
    }
    advance(&mut ctx);
    (ctx.s, ctx.events)
}

/// Applies a command for the side whose decision is pending, returning the events it
/// causes (every die roll among them). Pure: `state` is not modified.
///
/// # Errors
/// A [`RuleError`] naming the rule (`"p11"`: page 11) the command breaks, or
/// `"input"` for an unknown id; nothing is changed.
pub fn apply(
    sc: &Scenario,
    state: &State,
    cmd: &Command,
    rng: &mut dyn RngCore,
) -> Result<Vec<Event>, RuleError> {
    apply_with_state(sc, state, cmd, rng).map(|(events, _)| events)
}

/// [`apply`], also returning the state after the events (the fold of `state` with
/// them, built on the way): what the match layer keeps, so that it folds nothing twice.
///
/// # Errors
/// As [`apply`].
pub fn apply_with_state(
    sc: &Scenario,
    state: &State,
    cmd: &Command,
    rng: &mut dyn RngCore,
) -> Result<(Vec<Event>, State), RuleError> {
    let mut ctx = Ctx {
        sc,
        s: state.clone(),
        events: Vec::new(),
        rng,
    };
    match (&state.pending, cmd) {
        (Pending::GameOver { .. }, _) => return refuse("p7", "the battle is over"),
        (Pending::Opening, _) => {
            return refuse(
                "p7",
                "the battle has not opened: its opening rolls wait for their outcomes",
            )
        }
        (Pending::PlaceUnits { side, .. }, Command::PlaceUnit { unit }) => {
            let u = unit_ix(sc, unit)?;
            check_place_unit(sc, state, *side, u)?;
            ctx.emit(Event::UnitPlaced {
                unit: sc.unit_id(u),
            });
        }
        (
            Pending::PlaceUnits {
                side, min, placed, ..
            },
            Command::EndPlacement,
        ) => {
            if placed < min {
                return refuse(
                    "p7",
                    format!("the low die requires {min} units this roll; {placed} placed"),
                );
            }
            ctx.emit(Event::PlacementEnded { side: *side });
        }
        (Pending::PlaceOfficer { side }, Command::PlaceOfficer { officer, at }) => {
            let o = officer_ix(sc, officer)?;
            let at = match at {
                // Bounded, so that no input overflows the geometry.
                Some([x, y]) if x.0.abs() <= 1_000_000_000 && y.0.abs() <= 1_000_000_000 => {
                    Point::new(*x, *y)
                }
                Some([x, y]) => {
                    return refuse(
                        "input",
                        format!("[{}, {}] mm is off the table", x.as_mm(), y.as_mm()),
                    )
                }
                None => default_officer_position(sc, state, o),
            };
            check_place_officer(sc, state, *side, o, at)?;
            ctx.emit(Event::OfficerPlaced {
                officer: sc.officer_id(OfficerIx(o)),
                at,
            });
        }
        (
            Pending::DeclareFire { side, units },
            Command::Fire {
                unit,
                target,
                bases,
            },
        ) => {
            let u = unit_ix(sc, unit)?;
            let t = unit_ix(sc, target)?;
            if !units.iter().any(|x| x.as_str() == unit) {
                return Err(firing::why_not_declare(sc, state, *side, u));
            }
            if bases.as_ref().is_some_and(|b| b.len() > 64) {
                return refuse("input", "at most 64 bases");
            }
            let choice = firing::check_target_with(sc, state, u, t, bases.as_deref())?;
            ctx.emit(Event::FireDeclared {
                unit: sc.unit_id(u),
                target: sc.unit_id(t),
                range_mm: choice.range,
                short: choice.short,
                bases: bases.clone(),
            });
        }
        (Pending::DeclareFire { side, units }, Command::HoldFire { unit }) => {
            let u = unit_ix(sc, unit)?;
            if !units.iter().any(|x| x.as_str() == unit) {
                return Err(firing::why_not_declare(sc, state, *side, u));
            }
            ctx.emit(Event::FireHeld {
                unit: sc.unit_id(u),
            });
        }
        (
            Pending::RemoveBase { unit, .. },
            Command::RemoveBase {
                unit: id,
                rank,
                kind,
            },
        ) => {
            let u = unit_ix(sc, id)?;
            if id != unit.as_str() {
                return refuse(
                    "p12",
                    format!("the base to remove is from {unit}, not {id}"),
                );
            }
            let cands = firing::removal_candidates(sc, state, u);
            let Some(c) = cands.iter().find(|c| c.rank == *rank && c.kind == *kind) else {
                return refuse(
                    "p12",
                    format!(
                        "{id} cannot lose a {} base from rank {rank} now (marker bases stay while others can go; the choices: {})",
                        kind.name(),
                        cands
                            .iter()
                            .map(|c| format!("{} from rank {}", c.kind.name(), c.rank))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            };
            let c = *c;
            firing::remove_base(&mut ctx, u, c);
        }
        (
            Pending::FireAtCharger { unit, .. },
            Command::Fire {
                unit: id,
                target,
                bases: None,
            },
        ) => {
            let u = unit_ix(sc, id)?;
            let t = unit_ix(sc, target)?;
            if id != unit.as_str() {
                return refuse("p13", format!("{unit} chooses its charger now, not {id}"));
            }
            chargers::check_charger(sc, state, u, t)?;
            chargers::declare(&mut ctx, u, t);
        }
        (
            Pending::Orders { side },
            Command::Order {
                officer,
                group,
                order,
            },
        ) => {
            let o = OfficerIx(officer_ix(sc, officer)?);
            let g = group_ref(sc, group)?;
            movement::give(&mut ctx, *side, o, g, *order)?;
        }
        (
            Pending::Act { .. },
            Command::Advance {
                unit,
                distance_mm,
                drift_mm,
            },
        ) => {
            let u = unit_ix(sc, unit)?;
            let (d, drift) = (bounded_mm(*distance_mm)?, bounded_mm(*drift_mm)?);
            let end = movement::check_advance(sc, state, u, d, drift)?;
            movement::move_to(&mut ctx, u, end, d, "p19: advances");
            ctx.emit(Event::Acted {
                unit: sc.unit_id(u),
            });
        }
        (Pending::Act { .. }, Command::Retire { unit, distance_mm }) => {
            let u = unit_ix(sc, unit)?;
            let d = bounded_mm(*distance_mm)?;
            let end = movement::check_retire(sc, state, u, d)?;
            let near = sc
                .unit_ixs(sc.unit(u).side.other())
                .any(|e| firing::on_table(state, e) && morale::within_one_move(sc, state, u, e));
            movement::move_to(&mut ctx, u, end, d, "p20: retires");
            ctx.emit(Event::Acted {
                unit: sc.unit_id(u),
            });
            if near {
                movement::waver(&mut ctx, u);
            }
        }
        (
            Pending::Act { .. },
            Command::Charge {
                unit,
                target,
                offset_mm,
            },
        ) => {
            let u = unit_ix(sc, unit)?;
            let t = unit_ix(sc, target)?;
            let offset = offset_mm.map(bounded_mm).transpose()?;
            let plan = movement::plan_charge(sc, state, u, t, offset)?;
            movement::charge(&mut ctx, u, t, plan);
        }
        (
            Pending::Act { .. },
            Command::Deploy {
                unit,
                formation,
                ranks,
                anchor,
                anchor_to,
            },
        ) => {
            let u = unit_ix(sc, unit)?;
            let end = deploy::check_deploy(sc, state, u, *formation, ranks, *anchor, *anchor_to)?;
            deploy::deploy(
                &mut ctx,
                u,
                end,
                *formation == deploy::FormationKind::Column,
            );
        }
        (Pending::Act { .. }, Command::SkirmishLine { unit, bases }) => {
            let u = unit_ix(sc, unit)?;
            deploy::check_skirmish_line(sc, state, u, *bases)?;
            deploy::skirmish_line(&mut ctx, u, *bases);
        }
        (
            Pending::Act { .. },
            Command::JoinBattery {
                unit,
                battery,
                left,
            },
        ) => {
            let (u, b) = (unit_ix(sc, unit)?, unit_ix(sc, battery)?);
            let end = deploy::check_join_battery(sc, state, u, b, *left)?;
            deploy::join_battery(&mut ctx, u, b, *left, end);
        }
        (Pending::Act { .. }, Command::EnterSector { unit, sector, at }) => {
            let u = unit_ix(sc, unit)?;
            let sec = sector_ix(sc, sector)?;
            let at = at
                .map(|[x, y]| Ok::<_, RuleError>(Point::new(bounded_mm(x)?, bounded_mm(y)?)))
                .transpose()?;
            let end = deploy::check_enter_sector(sc, state, u, sec, at)?;
            deploy::into_sector(&mut ctx, u, sec, end, "p22: deploys into dense terrain");
        }
        (Pending::Act { .. }, Command::LeaveSector { unit, direction }) => {
            let u = unit_ix(sc, unit)?;
            let end = deploy::check_leave_sector(sc, state, u, *direction)?;
            deploy::leave_sector(&mut ctx, u, end);
        }
        (Pending::Act { .. }, Command::AdvanceSector { unit, sector }) => {
            let u = unit_ix(sc, unit)?;
            let sec = sector_ix(sc, sector)?;
            let how = deploy::check_advance_sector(sc, state, u, sec)?;
            deploy::advance_sector(&mut ctx, u, sec, how);
        }
        (Pending::Act { .. }, Command::PassageOfLines { unit, with }) => {
            let (u, w) = (unit_ix(sc, unit)?, unit_ix(sc, with)?);
            let ends = deploy::check_passage(sc, state, u, w)?;
            deploy::passage(&mut ctx, u, w, ends);
        }
        (
            Pending::Act { .. },
            Command::Manoeuvre {
                unit,
                anchor: [x, y],
                facing,
            },
        ) => {
            let u = unit_ix(sc, unit)?;
            if *facing >= 360 {
                return refuse(
                    "input",
                    format!("a facing is 0 to 359 degrees, not {facing}"),
                );
            }
            let end = state
                .unit(u)
                .shape
                .with_anchor(Point::new(bounded_mm(*x)?, bounded_mm(*y)?))
                .with_facing(geometry::Facing(*facing));
            manoeuvre::check_manoeuvre(sc, state, u, &end)?;
            manoeuvre::manoeuvre(&mut ctx, u, end);
        }
        (Pending::Act { .. }, Command::EndOrder) => ctx.emit(Event::OrderDone),
        (
            Pending::Melee { a, b, .. },
            Command::MeleeResult {
                a: ia,
                b: ib,
                winner,
                hits_a,
                hits_b,
                loser_falls_back_mm,
                loser_routs,
            },
        ) => {
            let wrong = || refuse("p13", format!("the melee to resolve is {a} against {b}"));
            let ua = unit_ix(sc, ia)?;
            if ia != a.as_str() {
                return wrong();
            }
            let ub = unit_ix(sc, ib)?;
            if ib != b.as_str() {
                return wrong();
            }
            let o = missing::MeleeOutcome {
                winner: *winner,
                hits: (*hits_a, *hits_b),
                fall_back: bounded_mm(*loser_falls_back_mm)?,
                routs: *loser_routs,
            };
            missing::check_outcome(&o)?;
            missing::resolve(&mut ctx, ua, ub, o, None);
        }
        (Pending::Rally { units, .. }, Command::Rally { unit, rallies }) => {
            let u = unit_ix(sc, unit)?;
            if !units.iter().any(|x| x.as_str() == unit) {
                return refuse("p7", format!("{unit} has no rally to decide now"));
            }
            let st = state.unit(u).status;
            ctx.emit(Event::RallyDecided {
                unit: sc.unit_id(u),
                to: if *rallies { missing::rallied(st) } else { st },
                test: None,
                stand_in: false,
            });
        }
        (
            Pending::MoveOfficers { side },
            Command::MoveOfficer {
                officer,
                at: [x, y],
                attach,
            },
        ) => {
            let o = officer_ix(sc, officer)? as usize;
            let at = Point::new(bounded_mm(*x)?, bounded_mm(*y)?);
            let attach = attach.as_deref().map(|id| unit_ix(sc, id)).transpose()?;
            missing::check_officer_move(sc, state, *side, o, at, attach)?;
            ctx.emit(Event::OfficerMoved {
                officer: sc.officer_id(OfficerIx(o as u16)),
                at,
                attached: attach.map(|u| sc.unit_id(u)),
                why: "moves in the Move Officers phase".into(),
            });
        }
        (Pending::Rally { side, .. } | Pending::MoveOfficers { side }, Command::EndPhase) => {
            let next = next_phase(state.phase, state.player1.unwrap_or(*side));
            if let Phase::Rally { .. } = state.phase {
                morale::end_of_rally(&mut ctx);
            }
            ctx.emit(Event::PhaseStarted { phase: next });
        }
        (
            Pending::Orders { side },
            Command::Appoint {
                officer,
                quality,
                inspirational,
                at,
            },
        ) => {
            let o = officer_ix(sc, officer)? as usize;
            let at = at
                .map(|[x, y]| Ok::<_, RuleError>(Point::new(bounded_mm(x)?, bounded_mm(y)?)))
                .transpose()?;
            let a = missing::check_appoint(sc, state, *side, o, *quality, *inspirational, at)?;
            missing::appoint(&mut ctx, a);
        }
        (Pending::Orders { side }, Command::EndPhase) => {
            let next = next_phase(state.phase, state.player1.unwrap_or(*side));
            ctx.emit(Event::PhaseStarted { phase: next });
        }
        (Pending::FireAtCharger { unit, .. }, Command::HoldFire { .. }) => {
            return refuse(
                "p13",
                format!("{unit} is charged and must fire at a charger: an infantry or artillery unit that is charged cannot choose not to fire"),
            );
        }
        (p, c) => {
            let (page, waits) = p.describe();
            return refuse(
                page,
                format!("{} does not answer the decision now: {waits}", c.name()),
            );
        }
    }
    advance(&mut ctx);
    Ok((ctx.events, ctx.s))
}

pub(crate) fn unit_ix(sc: &Scenario, id: &str) -> Result<UnitIx, RuleError> {
    sc.unit_index(id)
        .ok_or_else(|| RuleError::new("input", format!("unknown unit '{id}'")))
}

/// A sector by name, `"<terrain id>/<n>"`.
pub(crate) fn sector_ix(
    sc: &Scenario,
    name: &str,
) -> Result<crate::huzzah::scenario::SectorRef, RuleError> {
    sc.sector_of(name).ok_or_else(|| {
        RuleError::new(
            "input",
            format!("unknown sector '{name}' (\"<terrain id>/<n>\")"),
        )
    })
}

/// A length from a command, bounded (at most 1,000 m either way) so that no input
/// overflows the geometry.
fn bounded_mm(v: Len) -> Result<Len, RuleError> {
    if v.0.abs() > 10_000_000 {
        return refuse("input", format!("{} mm is more than the table", v.as_mm()));
    }
    Ok(v)
}

fn group_ref(sc: &Scenario, g: &GroupArg) -> Result<GroupRef, RuleError> {
    sc.group_of(g).ok_or_else(|| {
        let (what, id) = match g {
            GroupArg::Unit(id) => ("unit", id),
            GroupArg::Division(id) => ("division", id),
            GroupArg::Corps(id) => ("corps", id),
        };
        RuleError::new("input", format!("unknown {what} '{id}'"))
    })
}

fn officer_ix(sc: &Scenario, id: &str) -> Result<u16, RuleError> {
    sc.officer_index(id)
        .map(|o| o.0)
        .ok_or_else(|| RuleError::new("input", format!("unknown officer '{id}'")))
}

/// The phase after `p` in page 7's sequence (`TurnEnds` is last).
pub fn next_phase(p: Phase, player1: Side) -> Phase {
    let p2 = player1.other();
    match p {
        Phase::Setup | Phase::TurnEnds => Phase::SkirmisherSuperiority,
        Phase::SkirmisherSuperiority => Phase::ArtilleryEffectiveness,
        Phase::ArtilleryEffectiveness => Phase::Firing { side: player1 },
        Phase::Firing { side } => Phase::Orders { side },
        Phase::Orders { side } => Phase::FireAtChargers { side: side.other() },
        Phase::FireAtChargers { side } => Phase::Combat { side: side.other() },
        Phase::Combat { side } => Phase::MoveOfficers { side },
        Phase::MoveOfficers { side } => Phase::Rally { side },
        Phase::Rally { side } if side == player1 => Phase::Firing { side: p2 },
        Phase::Rally { .. } => Phase::TurnEnds,
    }
}

/// Runs the battle forward until a player must decide; records that decision.
pub(crate) fn advance(ctx: &mut Ctx) {
    for _ in 0..100_000 {
        if ctx.s.outcome.is_some() {
            return;
        }
        // Hits waiting to become lost bases come first: the owner may have to choose.
        if let Some(u) = (0..ctx.s.units.len()).find(|i| ctx.s.units[*i].removing) {
            let u = UnitIx(u as u16);
            if let Some(p) = firing::removal_step(ctx, u) {
                await_decision(ctx, p);
                return;
            }
            continue;
        }
        let player1 = ctx.s.player1.unwrap_or(Side::A);
        match ctx.s.phase {
            Phase::Setup => {
                if let Some(p) = setup_step(ctx) {
                    await_decision(ctx, p);
                    return;
                }
            }
            Phase::SkirmisherSuperiority => {
                skirmish::superiority(ctx);
                next(ctx, player1);
            }
            Phase::ArtilleryEffectiveness => {
                skirmish::artillery(ctx);
                next(ctx, player1);
            }
            Phase::Firing { side } => match firing::step(ctx, side) {
                firing::Step::Wait(p) => {
                    await_decision(ctx, p);
                    return;
                }
                firing::Step::Again => {}
                firing::Step::Done => next(ctx, player1),
            },
            Phase::Orders { side } => {
                movement::impulsive_charges(ctx, side);
                movement::settle(ctx);
                let p = movement::pending(ctx.sc, &ctx.s, side);
                await_decision(ctx, p);
                return;
            }
            Phase::FireAtChargers { side } => match chargers::step(ctx, side) {
                firing::Step::Wait(p) => {
                    await_decision(ctx, p);
                    return;
                }
                firing::Step::Again => {}
                firing::Step::Done => next(ctx, player1),
            },
            // Combat, officer movement and rally: their rules are on the missing pages,
            // asked as decisions or answered by the stand-ins (docs/huzzah.md).
            Phase::Combat { side } => match missing::combat_step(ctx, side) {
                Some(p) => {
                    await_decision(ctx, p);
                    return;
                }
                None if ctx.s.units.iter().any(|u| u.removing) => {}
                None => next(ctx, player1),
            },
            Phase::MoveOfficers { side } => {
                let movable = ctx.sc.missing_rules() == MissingRules::Decide
                    && (0..ctx.s.officers.len()).any(|o| {
                        ctx.sc.officers()[o].side == side
                            && ctx.s.officers[o].at.is_some()
                            && !ctx.s.officers[o].lost
                            && !ctx.s.officers_moved.contains(&(o as u16))
                    });
                if movable {
                    await_decision(ctx, Pending::MoveOfficers { side });
                    return;
                }
                next(ctx, player1);
            }
            Phase::Rally { side } => {
                if let Some(p) = missing::rally_step(ctx, side) {
                    await_decision(ctx, p);
                    return;
                }
                morale::end_of_rally(ctx);
                next(ctx, player1);
            }
            Phase::TurnEnds => {
                let turn = ctx.s.turn;
                ctx.emit(Event::TurnEnded { turn });
                if let Some(outcome) = end_of_battle(ctx.sc, &ctx.s, true) {
                    ctx.emit(Event::GameEnded { outcome });
                    return;
                }
                start_turn(ctx, turn + 1);
            }
        }
        if let Some(outcome) = end_of_battle(ctx.sc, &ctx.s, false) {
            ctx.emit(Event::GameEnded { outcome });
            return;
        }
    }
}

fn await_decision(ctx: &mut Ctx, p: Pending) {
    ctx.emit(Event::Awaiting { decision: p });
}

fn next(ctx: &mut Ctx, player1: Side) {
    let phase = next_phase(ctx.s.phase, player1);
    ctx.emit(Event::PhaseStarted { phase });
}

fn start_turn(ctx: &mut Ctx, turn: u16) {
    let (ground, weather) = ctx.sc.conditions_on(turn);
    ctx.emit(Event::TurnStarted {
        turn,
        ground,
        weather,
    });
    let sc = ctx.sc;
    let pairs: Vec<(UnitId, UnitId)> = sc
        .unit_ixs(Side::A)
        .flat_map(|a| sc.unit_ixs(Side::B).map(move |b| (a, b)))
        .filter(|(a, b)| {
            firing::on_table(&ctx.s, *a)
                && firing::on_table(&ctx.s, *b)
                && geometry::in_contact(&ctx.s.unit(*a).shape, &ctx.s.unit(*b).shape)
        })
        .map(|(a, b)| (sc.unit_id(a), sc.unit_id(b)))
        .collect();
    if !pairs.is_empty() {
        ctx.emit(Event::InCombat { pairs });
    }
    ctx.emit(Event::PhaseStarted {
        phase: Phase::SkirmisherSuperiority,
    });
}

/// The battle's end. STAND-IN (docs/huzzah.md): our copy has no victory rules (they
/// belong to scenarios and objectives): an army with no unit left on the table loses
/// at once; after the last turn, the side that lost fewer bases (destroyed, captured
/// or on the Rout Table) wins, equal losses a draw.
pub fn end_of_battle(sc: &Scenario, s: &State, last_turn_ended: bool) -> Option<Outcome> {
    if s.phase == Phase::Setup {
        return None;
    }
    // Each army by its name and side, so that a result reads without the scenario.
    let name = |side: Side| format!("{} ({side})", sc.side(side).name);
    let on_table = |side: Side| {
        sc.unit_ixs(side)
            .any(|u| s.unit(u).at == Whereabouts::Table)
    };
    match (on_table(Side::A), on_table(Side::B)) {
        (false, false) => {
            return Some(Outcome {
                winner: None,
                reason: format!(
                    "stand-in victory terms: a draw, neither {} nor {} has a unit on the table",
                    name(Side::A),
                    name(Side::B)
                ),
            })
        }
        (true, false) | (false, true) => {
            let w = if on_table(Side::A) { Side::A } else { Side::B };
            return Some(Outcome {
                winner: Some(w),
                reason: format!(
                    "stand-in victory: {} wins, {} has no unit left on the table",
                    name(w),
                    name(w.other())
                ),
            });
        }
        _ => {}
    }
    if !last_turn_ended || s.turn < sc.turns() {
        return None;
    }
    // The result in words: who won (or a draw, naming both) and the tallies.
    let verdict = |winner: Option<Side>, what: &str, a: u32, b: u32, why: &str| {
        let tally = format!(
            "{what} {} {a}, {} {b} ({why})",
            name(Side::A),
            name(Side::B)
        );
        match winner {
            Some(w) => format!(
                "stand-in victory after turn {}: {} wins; {tally}",
                s.turn,
                name(w)
            ),
            None => format!(
                "stand-in victory terms after turn {}: a draw between {} and {}; {tally}",
                s.turn,
                name(Side::A),
                name(Side::B)
            ),
        }
    };
    if let Some(v) = sc.victory() {
        let score = |side: Side| {
            let held: u32 = if v.objective_points {
                sc.objectives()
                    .iter()
                    .filter(|o| {
                        holds(sc, s, side, o.at, o.radius)
                            && !holds(sc, s, side.other(), o.at, o.radius)
                    })
                    .map(|o| o.points as u32)
                    .sum()
            } else {
                0
            };
            held + v.base_points as u32 * bases_lost(sc, s, side.other()) as u32
        };
        let (a, b) = (score(Side::A), score(Side::B));
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        };
        return Some(Outcome {
            winner,
            reason: verdict(winner, "points", a, b, "objectives held, enemy bases lost"),
        });
    }
    let lost = |side: Side| bases_lost(sc, s, side) as u32;
    let (a, b) = (lost(Side::A), lost(Side::B));
    let winner = match a.cmp(&b) {
        std::cmp::Ordering::Less => Some(Side::A),
        std::cmp::Ordering::Greater => Some(Side::B),
        std::cmp::Ordering::Equal => None,
    };
    Some(Outcome {
        winner,
        reason: verdict(
            winner,
            "bases lost",
            a,
            b,
            "destroyed, captured or on the Rout Table",
        ),
    })
}

/// Whether `side` has a unit, formed or disordered, with a base within `r` of `at`
/// (docs/huzzah.md, "Objectives and victory").
pub fn holds(sc: &Scenario, s: &State, side: Side, at: Point, r: Len) -> bool {
    sc.unit_ixs(side).any(|u| {
        let st = s.unit(u);
        st.at == Whereabouts::Table
            && st.status != crate::huzzah::state::Status::Routing
            && st.shape.bases().iter().any(|q| {
                q.contains(at)
                    || q.edges()
                        .iter()
                        .any(|e| geometry::dist_point_seg(at, *e) <= r)
            })
    })
}

/// Bases a side has lost: destroyed, captured, on the Rout Table, or removed by hits.
/// Bases deployed into the skirmish line are not lost (page 22), and a grand battery's
/// joined bases count where they went.
pub fn bases_lost(sc: &Scenario, s: &State, side: Side) -> usize {
    sc.unit_ixs(side)
        .map(|u| {
            let st = s.unit(u);
            let had = sc.unit(u).bases.len()
                + st.joined
                    .iter()
                    .map(|j| s.unit(*j).bases.len())
                    .sum::<usize>();
            let kept = usize::from(st.skirmished)
                + match st.at {
                    Whereabouts::Table | Whereabouts::Unplaced | Whereabouts::Joined => {
                        st.bases.len()
                    }
                    Whereabouts::SkirmishLine => 0,
                    Whereabouts::RoutTable | Whereabouts::Destroyed | Whereabouts::Captured => 0,
                };
            had.saturating_sub(kept)
        })
        .sum()
}

// ---------------------------------------------------------------- set-up (pages 7-8)

fn setup_step(ctx: &mut Ctx) -> Option<Pending> {
    let sc = ctx.sc;
    // Who places (and acts) first.
    let Some(first) = ctx.s.placement.first else {
        match sc.first() {
            Some(side) => ctx.emit(Event::FirstDecided {
                side,
                by: "scenario".into(),
            }),
            None => loop {
                roll_for(2, || {
                    ChanceRoll::new("roll_off", "2d6").with("side", Side::A)
                });
                let a = ctx.roll();
                roll_for(2, || {
                    ChanceRoll::new("roll_off", "2d6").with("side", Side::B)
                });
                let b = ctx.roll();
                // Page 7: for an alternate set-up the highest roll places first; for a
                // placed one, "roll the dice to determine who goes first (lowest wins)".
                let first = match a.total().cmp(&b.total()) {
                    std::cmp::Ordering::Equal => None,
                    o => {
                        let a_high = o == std::cmp::Ordering::Greater;
                        Some(if a_high == sc.alternate_setup() {
                            Side::A
                        } else {
                            Side::B
                        })
                    }
                };
                ctx.emit(Event::RolledOff { a, b, first });
                if let Some(side) = first {
                    ctx.emit(Event::FirstDecided {
                        side,
                        by: "roll-off".into(),
                    });
                    break;
                }
            },
        }
        return None;
    };
    if !ctx.s.placement.officers {
        if !sc.alternate_setup() {
            ctx.emit(Event::OfficersToPlace);
            return None;
        }
        let left = |s: &State, side: Side| {
            sc.unit_ixs(side)
                .filter(|u| s.unit(*u).at == Whereabouts::Unplaced)
                .count()
        };
        // A side that has placed everything: the first to do so is Player 2.
        if ctx.s.player1.is_none() {
            for side in [first, first.other()] {
                if left(&ctx.s, side) == 0 {
                    ctx.emit(Event::PlayersDecided {
                        player1: side.other(),
                    });
                    break;
                }
            }
        }
        if left(&ctx.s, Side::A) + left(&ctx.s, Side::B) == 0 {
            ctx.emit(Event::OfficersToPlace);
            return None;
        }
        let p = &ctx.s.placement;
        match p.side {
            Some(side) if p.placed >= p.max || left(&ctx.s, side) == 0 => {
                ctx.emit(Event::PlacementEnded { side });
                None
            }
            Some(side) => Some(Pending::PlaceUnits {
                side,
                min: p.min,
                max: p.max,
                placed: p.placed,
            }),
            None => {
                // Alternate rolls, starting with the first placer; a side with nothing
                // left to place is skipped.
                let last = ctx.s.placement.last;
                let mut side = match last {
                    None => first,
                    Some(l) => l.other(),
                };
                if left(&ctx.s, side) == 0 {
                    side = side.other();
                }
                roll_for(2, || ChanceRoll::new("placement", "2d6").with("side", side));
                let dice = ctx.roll();
                let n = left(&ctx.s, side).min(255) as u8;
                ctx.emit(Event::PlacementRolled {
                    side,
                    dice,
                    min: dice.low().min(n),
                    max: dice.high().min(n),
                });
                None
            }
        }
    } else {
        // Officers: Player 2's, then Player 1's (page 8).
        let player1 = ctx.s.player1.unwrap_or(first);
        for side in [player1.other(), player1] {
            if officers_to_place(sc, &ctx.s, side).next().is_some() {
                return Some(Pending::PlaceOfficer { side });
            }
        }
        start_turn(ctx, 1);
        None
    }
}

/// A side's officers not yet placed (alive).
pub(crate) fn officers_to_place<'a>(
    sc: &'a Scenario,
    s: &'a State,
    side: Side,
) -> impl Iterator<Item = u16> + 'a {
    (0..sc.officers().len() as u16).filter(move |o| {
        let def = &sc.officers()[*o as usize];
        def.side == side && s.officers[*o as usize].at.is_none() && !s.officers[*o as usize].lost
    })
}

fn check_place_unit(sc: &Scenario, s: &State, side: Side, u: UnitIx) -> Result<(), RuleError> {
    let def = sc.unit(u);
    if def.side != side {
        return refuse("p7", format!("{} is not a unit of side {side}", def.id));
    }
    if s.unit(u).at != Whereabouts::Unplaced {
        return refuse("p7", format!("{} is already placed", def.id));
    }
    Ok(())
}

fn check_place_officer(
    sc: &Scenario,
    s: &State,
    side: Side,
    o: u16,
    at: Point,
) -> Result<(), RuleError> {
    let def = &sc.officers()[o as usize];
    if def.side != side {
        return refuse(
            "p8",
            format!(
                "{} is not an officer of side {side} (Player 2 places first)",
                def.id
            ),
        );
    }
    if s.officers[o as usize].at.is_some() {
        return refuse("p8", format!("{} is already placed", def.id));
    }
    let (w, d) = sc.table_size();
    if at.x < Len::ZERO || at.y < Len::ZERO || at.x > w || at.y > d {
        return refuse("input", format!("({}, {}) is off the table", at.x, at.y));
    }
    Ok(())
}

/// Where an officer is placed when the command names no position: the scenario's, or
/// 5 cm behind the centre of the rear face of the first unit he commands.
pub fn default_officer_position(sc: &Scenario, s: &State, o: u16) -> Point {
    let def = &sc.officers()[o as usize];
    if let Some(p) = def.position {
        return p;
    }
    let Some(u) = sc
        .unit_ixs(def.side)
        .find(|u| sc.commands(OfficerIx(o), *u))
        .or_else(|| sc.unit_ixs(def.side).next())
    else {
        let (w, d) = sc.table_size();
        return Point::new(Len(w.0 / 2), Len(d.0 / 2));
    };
    let shape = &s.unit(u).shape;
    let rear = shape.face(geometry::Face::Rear).mid();
    let p = geometry::rotate(rear, shape.facing, Len::ZERO, Len::cm(-5));
    let (w, d) = sc.table_size();
    Point::new(Len(p.x.0.clamp(0, w.0)), Len(p.y.0.clamp(0, d.0)))
}
