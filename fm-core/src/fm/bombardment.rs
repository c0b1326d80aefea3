//! Bombardment (rules 8.1-8.1.5): support fire markers only, anywhere on the map, at
//! most two markers per hex per player turn, the defender's in-hex terrain line (no
//! hexsides), the 8.1.3 results that do nothing, friendly fire on (A), and
//! bombardment retreat (8.1.5, in `retreat`).

use crate::error::{refuse, RuleError};
use crate::fm::combat::{attacker_loss, end, reveal};
use crate::fm::crt::CrtResult;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::Phase;
use crate::fm::state::{CombatKind, Location, LossReason};
use crate::ids::UnitId;

/// Markers that may still bombard `hex` this player turn (8.1: at most two).
pub(crate) fn room(ctx_bombarded: Option<&u8>) -> u8 {
    2u8.saturating_sub(ctx_bombarded.copied().unwrap_or(0))
}

/// 8.1.2: declare a bombardment of the enemy unit in `hex` with `markers` markers.
pub(crate) fn declare(ctx: &mut Ctx, hex: Hex, markers: u8) -> Result<(), RuleError> {
    let sc = ctx.sc;
    if let Some(e) = sc.rules().bombard_refusal(sc, &ctx.s) {
        return Err(e);
    }
    if sc.rules().artillery_replaces_bombardment() {
        return refuse(
            "17.1",
            "artillery bombardment (command `artillery`) replaces the system bombardment",
        );
    }
    if ctx.s.phase != Phase::Bombardment {
        return refuse(
            "8.1",
            format!(
                "bombardment is made in the Bombardment Phase, not the {}",
                ctx.s.phase
            ),
        );
    }
    if sc.hex_index(hex).is_none() {
        return refuse("input", format!("{hex} is off the map"));
    }
    if !(1..=2).contains(&markers) {
        return refuse(
            "8.1.2",
            format!("a bombardment uses one or two markers, not {markers}"),
        );
    }
    let side = ctx.s.active;
    let avail = ctx.s.support.get(side).available.len();
    if avail < markers as usize {
        return refuse(
            "7.2",
            format!("{markers} markers asked, {avail} left this game turn"),
        );
    }
    let defenders: Vec<usize> = (0..ctx.s.units.len())
        .filter(|&i| ctx.s.units[i].loc == Location::Map(hex))
        .collect();
    if defenders.is_empty() || defenders.iter().any(|&d| sc.units[d].data.side == side) {
        return refuse("8.1.2", format!("{hex} holds no enemy unit"));
    }
    let left = room(ctx.s.bombarded.get(&hex));
    if markers > left {
        return refuse(
            "8.1",
            format!("{hex} may take {left} more marker(s) this player turn (two at most)"),
        );
    }
    for &d in &defenders {
        if ctx.s.units[d].defended {
            return refuse(
                "8.0",
                format!(
                    "{} has already been bombarded this phase",
                    ctx.s.units.id(d)
                ),
            );
        }
    }
    ctx.emit(Event::BombardmentDeclared {
        hex,
        defenders: defenders
            .iter()
            .map(|&d| ctx.s.units.id(d).clone())
            .collect(),
        markers,
    });
    for _ in 0..markers {
        let v = crate::fm::support_fire::draw(ctx, side);
        ctx.emit(Event::SupportCommitted {
            side,
            step: None,
            value: Some(v),
        });
    }
    resolve(ctx);
    Ok(())
}

/// Rolls and applies a bombardment's result.
pub(crate) fn resolve(ctx: &mut Ctx) {
    reveal(ctx);
    let sc = ctx.sc;
    let c = ctx.s.combat.clone().expect("combat");
    let hi = sc.hex_index(c.hex).expect("on map");
    let fort = sc.is_fortification(hi);
    let a: i32 = c
        .markers
        .iter()
        .filter_map(|m| m.value)
        .map(|v| if fort { v as i32 / 2 } else { v as i32 })
        .sum();
    let d: i32 = c
        .defenders
        .iter()
        .filter_map(|u| sc.unit_index(u))
        .map(|i| {
            sc.units[i as usize]
                .values(ctx.s.units[i as usize].steps)
                .defense as i32
                * if fort { 2 } else { 1 }
        })
        .sum();
    let diff = a - d;
    let (line, col) = crate::fm::combat::crt_reading(sc, &ctx.s, hi, None, diff, 0);
    crate::chance::roll_for(1, || {
        crate::chance::ChanceRoll::new("bombardment", "1d6")
            .with("hex", c.hex)
            .with("defenders", &c.defenders)
    });
    let die = ctx.d6();
    let result = sc.crt.result(col, die);
    let side = ctx.s.active;
    // (A) is friendly fire: it needs a bombarding-side unit next to the target.
    let adjacent: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| {
            sc.units[*i].data.side == side
                && matches!(u.loc, Location::Map(h) if sc.layout().adjacent(h, c.hex))
        })
        .map(|(i, _)| ctx.s.units.id(i).clone())
        .collect();
    let applies = match result {
        r if r.ignored_in_bombardment() => false,
        CrtResult::AStep => !adjacent.is_empty(),
        _ => true,
    };
    ctx.emit(Event::CombatResolved {
        kind: CombatKind::Bombardment,
        attack: a,
        defense: d,
        differential: diff,
        line: sc.crt.lines[line].id.clone(),
        column: sc.crt.column_label(line, col),
        die,
        result,
        applies,
        shift: 0,
    });
    if !applies {
        end(ctx);
        return;
    }
    match result {
        CrtResult::De => {
            for u in &c.defenders {
                crate::fm::combat::eliminate(ctx, u);
            }
            end(ctx);
        }
        CrtResult::D1 | CrtResult::D2 | CrtResult::D3 => ctx.emit(Event::RetreatRequired {
            side: side.other(),
            units: c.defenders.clone(),
            hexes: result.defender_retreat().unwrap_or(1),
        }),
        CrtResult::AStep => attacker_loss(ctx, adjacent, LossReason::AttackerStep),
        _ => end(ctx),
    }
}
