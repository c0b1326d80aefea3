//! The sequence of play (rules 3.0 set-up, 4.0-4.1): set-up order, game turns of two
//! player turns, the Support Fire Marker Phase, the five phases of a player turn, the
//! Game Turn End Phase, reinforcement arrival (3.0(c)), scenario-skipped phases and
//! mid-turn starts. Phases in which the active side has nothing to do but finish are
//! started and passed automatically.

use crate::error::{refuse, RuleError};
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Phase, StartData};
use crate::fm::state::{CombatStage, Location};
use crate::ids::{Side, UnitId};

/// 3.0(a): validation makes the order list every side with units to place, once.
fn setup_order<'a>(ctx: &Ctx<'a>) -> &'a [Side] {
    &ctx.sc.data.setup.order
}

fn has_units_to_place(ctx: &Ctx, side: Side) -> bool {
    ctx.s
        .units
        .iter()
        .enumerate()
        .any(|(i, u)| u.loc == Location::ToPlace && ctx.sc.units[i].data.side == side)
}

/// Emits the opening events: set-up if any unit must be placed, else the start point.
pub(crate) fn begin(ctx: &mut Ctx) {
    let order = setup_order(ctx);
    if let Some(first) = order.iter().copied().find(|s| has_units_to_place(ctx, *s)) {
        ctx.emit(Event::PhaseStarted {
            side: first,
            phase: Phase::Setup,
        });
    } else {
        start_play(ctx);
    }
}

fn start_play(ctx: &mut Ctx) {
    let sc = ctx.sc;
    ctx.emit(Event::TurnStarted {
        turn: sc.data.start.turn,
    });
    crate::fm::support_fire::allot(ctx);
    sc.rules().on_play_start(ctx);
    let phase = first_phase_from(ctx, sc.data.start.phase);
    start_phase(ctx, sc.data.first_player, phase);
}

fn phases(ctx: &Ctx) -> Vec<Phase> {
    Phase::PLAYER_TURN
        .iter()
        .copied()
        .filter(|p| !ctx.sc.data.skip_phases.contains(p))
        .collect()
}

fn first_phase_from(ctx: &Ctx, p: Phase) -> Phase {
    let ps = phases(ctx);
    let pos = Phase::PLAYER_TURN.iter().position(|x| *x == p).unwrap_or(0);
    Phase::PLAYER_TURN[pos..]
        .iter()
        .copied()
        .find(|x| ps.contains(x))
        .unwrap_or(Phase::Movement)
}

fn start_phase(ctx: &mut Ctx, side: Side, phase: Phase) {
    ctx.emit(Event::PhaseStarted { side, phase });
    ctx.sc.rules().on_phase_start(ctx, side, phase);
    if phase == Phase::Movement {
        let turn = ctx.s.turn;
        let arriving: Vec<UnitId> = ctx
            .s
            .units
            .iter()
            .enumerate()
            .filter(|(i, u)| {
                let d = &ctx.sc.units[*i].data;
                u.loc == Location::Scheduled
                    && d.side == side
                    && matches!(d.start, StartData::Reinforcement { turn: t, .. } if t <= turn)
            })
            .map(|(i, _)| ctx.s.units.id(i).clone())
            .collect();
        if !arriving.is_empty() {
            ctx.emit(Event::ReinforcementsArrived {
                side,
                units: arriving,
            });
        }
    }
}

/// Moves on from the current phase to the next one in the sequence.
pub(crate) fn next_phase(ctx: &mut Ctx) {
    let ps = phases(ctx);
    let cur = ctx.s.phase;
    let side = ctx.s.active;
    if let Some(p) = ps.iter().copied().find(|p| *p > cur) {
        start_phase(ctx, side, p);
        return;
    }
    let first = ctx.sc.data.first_player;
    if side == first {
        start_phase(ctx, first.other(), ps[0]);
        return;
    }
    // Exclusive rules checked when both player turns are over (Suez 1916 12.1).
    if ctx.sc.rules().after_player_turns(ctx) {
        return;
    }
    // Game Turn End Phase.
    if ctx.s.turn >= ctx.sc.turn_count() {
        let (winner, reason) = crate::fm::victory::final_result(ctx.sc, &ctx.s);
        ctx.emit(Event::GameOver { winner, reason });
        return;
    }
    let t = ctx.s.turn + 1;
    ctx.emit(Event::TurnStarted { turn: t });
    crate::fm::support_fire::allot(ctx);
    ctx.sc.rules().on_turn_start(ctx);
    start_phase(ctx, first, ps[0]);
}

/// After a command: checks instant victory, and passes phases where the active side
/// has nothing to do, until a real decision is pending or the game is over.
pub(crate) fn settle(ctx: &mut Ctx) {
    ctx.sc.rules().after_command(ctx);
    for _ in 0..10_000 {
        if ctx.s.outcome.is_some() {
            return;
        }
        if let Some((winner, reason)) = crate::fm::victory::instant(ctx.sc, &ctx.s, &ctx.events) {
            ctx.emit(Event::GameOver {
                winner: Some(winner),
                reason,
            });
            return;
        }
        if ctx.s.combat.is_some() {
            return;
        }
        // The game's pending combat work comes first (Suez 1916 18.1: the attacks
        // announced with the bombardments).
        if ctx.sc.rules().continue_combat_phase(ctx) {
            continue;
        }
        if ctx.s.phase == Phase::Setup {
            if has_units_to_place(ctx, ctx.s.active) {
                return;
            }
            let order = setup_order(ctx);
            let pos = order.iter().position(|s| *s == ctx.s.active).unwrap_or(0);
            match order[pos + 1..]
                .iter()
                .copied()
                .find(|s| has_units_to_place(ctx, *s))
            {
                Some(next) => ctx.emit(Event::PhaseStarted {
                    side: next,
                    phase: Phase::Setup,
                }),
                None => start_play(ctx),
            }
            continue;
        }
        if crate::fm::legal::has_action(ctx.sc, &ctx.s) {
            return;
        }
        if ctx.s.ex.fire_stage.is_some() {
            // Nothing left to place: the step ends by itself.
            let _ = ctx.sc.rules().fire_support_done(ctx);
            continue;
        }
        next_phase(ctx);
    }
}

/// `done`: ends set-up (when every unit is placed), the current phase, or advancing.
pub(crate) fn done(ctx: &mut Ctx) -> Result<(), RuleError> {
    if ctx.s.ex.fire_stage.is_some() {
        return ctx.sc.rules().fire_support_done(ctx);
    }
    if let Some(c) = &ctx.s.combat {
        return match c.stage {
            CombatStage::Advance { .. } => {
                let hex = c.hex;
                ctx.emit(Event::CombatEnded { hex });
                Ok(())
            }
            _ => refuse("8.2.1", "finish resolving the combat first"),
        };
    }
    match ctx.s.phase {
        Phase::Setup => refuse(
            "3.0",
            format!("side {} still has units to place", ctx.s.active),
        ),
        _ => {
            // 17.2 (Meuse Argonne, Vimy Ridge): `done` rolls the artillery placed
            // this phase first.
            if !ctx.sc.rules().fire_artillery(ctx) {
                next_phase(ctx);
            }
            Ok(())
        }
    }
}

/// 3.0(b): place a unit in its set-up zone.
pub(crate) fn place(ctx: &mut Ctx, unit: &UnitId, hex: Hex) -> Result<(), RuleError> {
    let i = ctx.unit(unit)?;
    let def = &ctx.sc.units[i].data;
    if def.side != ctx.s.active {
        return refuse("3.0", format!("{unit} belongs to the other side"));
    }
    if ctx.s.units[i].loc != Location::ToPlace {
        return refuse("3.0", format!("{unit} is not waiting to be placed"));
    }
    let StartData::Zone(zone) = &def.start else {
        return refuse("3.0", format!("{unit} has no set-up zone"));
    };
    let Some(hi) = ctx.sc.hex_index(hex) else {
        return refuse("input", format!("{hex} is off the map"));
    };
    if !ctx.sc.in_zone(zone, hi) {
        return refuse(
            "3.0(b)",
            format!("{hex} is outside {unit}'s set-up zone '{zone}'"),
        );
    }
    if let Some(o) = ctx.s.unit_at(hex) {
        if !ctx.sc.rules().may_stack(ctx.sc, &ctx.s, i, hex) {
            return refuse(
                crate::fm::movement::stacking_rule(ctx.sc),
                format!("{hex} already holds {}", ctx.s.units.id(o)),
            );
        }
    }
    if crate::fm::movement::enter_cost(ctx.sc, ctx.sc.units[i].tags, 0, hi).is_none() {
        return refuse("5.2(e)", format!("{hex} is prohibited terrain"));
    }
    ctx.sc.rules().check_placement(ctx.sc, &ctx.s, i, hex)?;
    if let Some(why) = crate::fm::playable::strands_others(ctx.sc, &ctx.s, i, hi) {
        return refuse("3.0(b)", why);
    }
    ctx.emit(Event::UnitPlaced {
        unit: unit.clone(),
        hex,
    });
    Ok(())
}
