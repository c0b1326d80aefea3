//! WWI artillery bombardment, shared by Meuse Argonne (16.0, 17.1-17.7) and Vimy Ridge
//! (16.0, 17.1-17.6, 18.1-18.2): per-side markers from the Artillery Track, at most two
//! per enemy unit, observation, Allied aircraft, gas on turn 1, one die per marker with
//! the game's modifier chart, placed first and rolled when the phasing player is done.
//!
//! What differs between the games — observation (adjacency and aircraft range in Meuse
//! Argonne; lines of sight in Vimy Ridge), the modifier chart, breaching works and the
//! one-hex retreat (Meuse Argonne), one hit at most and no bombardment of La Folie Woods
//! (Vimy Ridge) — is asked of the game modules through [`Game`].

use crate::error::{refuse, RuleError};
use crate::fm::combat::{end, lose_step};
use crate::fm::command::Command;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::games::meuse_argonne::{self as ma, MeuseArgonneParams};
use crate::fm::games::vimy_ridge::{self as vr, VimyRidgeParams};
use crate::fm::hex::Hex;
use crate::fm::scenario::{Phase, RuleSet, Scenario};
use crate::fm::state::{CombatKind, CombatStage, Location, State};
use crate::ids::{Side, SidePair, UnitId};
use crate::query::GameLength;

/// The rule set whose artillery is in play.
#[derive(Clone, Copy)]
pub(crate) enum Game<'a> {
    Meuse(&'a MeuseArgonneParams),
    Vimy(&'a VimyRidgeParams),
}

/// The artillery rules of the scenario, if it has any.
pub(crate) fn game(sc: &Scenario) -> Option<Game<'_>> {
    match &sc.data.rules {
        RuleSet::MeuseArgonne(p) => Some(Game::Meuse(p)),
        RuleSet::VimyRidge(p) => Some(Game::Vimy(p)),
        _ => None,
    }
}

impl Game<'_> {
    fn gas_rule(self) -> &'static str {
        match self {
            Game::Meuse(_) => "17.7",
            Game::Vimy(_) => "17.6",
        }
    }
}

fn allotment(g: Game, turn: u16) -> (SidePair<u8>, u8) {
    let (track, total) = match g {
        Game::Meuse(p) => (&p.artillery, p.bombardment_markers),
        Game::Vimy(p) => (&p.artillery, p.bombardment_markers),
    };
    let t = (turn as usize).saturating_sub(1);
    (track.get(t).cloned().unwrap_or_default(), total)
}

/// The artillery's share of the bound on game turn `turn`'s length (`fm::length`):
/// 17.1 the markers of both sides on the Artillery Track (each at most the counter
/// mix); 17.2 each `artillery` command places at least one marker, so at most one
/// command a marker; 17.4 one die a marker; 17.3 the aircraft placements of the
/// Allied movement phase, at most the Allied aircraft markers; Meuse Argonne 17.5 at
/// most one retreat decision for each bombarded hex, which took at least one marker.
pub(crate) fn turn_length(sc: &Scenario, turn: u16) -> GameLength {
    let Some(g) = game(sc) else {
        return GameLength::ZERO;
    };
    let (track, total) = allotment(g, turn);
    let markers: u64 = Side::BOTH
        .iter()
        .map(|s| u64::from((*track.get(*s)).min(total)))
        .sum();
    let (aircraft, retreats) = match g {
        Game::Meuse(p) => (p.aircraft, markers),
        // VR 17.5: never a retreat.
        Game::Vimy(p) => (p.aircraft, 0),
    };
    GameLength::new(markers + u64::from(aircraft) + retreats, markers)
}

/// Aircraft markers the Allies may still place this player turn.
pub(crate) fn aircraft_left(sc: &Scenario, s: &State) -> u8 {
    let total = match game(sc) {
        Some(Game::Meuse(p)) => p.aircraft,
        Some(Game::Vimy(p)) => p.aircraft.saturating_sub(s.ex.aircraft_lost),
        None => 0,
    };
    total.saturating_sub(s.ex.aircraft.len() as u8)
}

/// Turn start: 17.1 the artillery allotment of both sides (then Vimy Ridge 18.1).
pub(crate) fn on_turn_start(ctx: &mut Ctx) {
    let Some(g) = game(ctx.sc) else { return };
    let (a, total) = allotment(g, ctx.s.turn);
    for side in Side::BOTH {
        let n = (*a.get(side)).min(total);
        ctx.emit(Event::ArtilleryAllotted { side, count: n });
    }
    if let Game::Vimy(_) = g {
        vr::red_baron(ctx);
    }
}

/// 17.3: whether `side` observes the enemy in `hex`.
pub fn observed(sc: &Scenario, s: &State, side: Side, hex: Hex) -> bool {
    match game(sc) {
        Some(Game::Meuse(_)) => ma::observed(sc, s, side, hex),
        Some(Game::Vimy(_)) => vr::observed(sc, s, side, hex),
        None => false,
    }
}

/// 17.3: place an aircraft (Allies, own movement phase, anywhere on the map).
pub(crate) fn place_aircraft(ctx: &mut Ctx, hex: Hex) -> Result<(), RuleError> {
    if game(ctx.sc).is_none() {
        return refuse(
            "17.3",
            "aircraft exist only under the Meuse Argonne and Vimy Ridge rules",
        );
    }
    if ctx.s.phase != Phase::Movement {
        return refuse(
            "17.3",
            format!(
                "aircraft are placed in the owner's movement phase, not the {}",
                ctx.s.phase
            ),
        );
    }
    if ctx.s.active != Side::A {
        return refuse("17.3", "only the Allied player has aircraft");
    }
    if aircraft_left(ctx.sc, &ctx.s) == 0 {
        return refuse("17.3", "no aircraft marker is left to place");
    }
    if ctx.s.ex.aircraft.contains(&hex) {
        return refuse(
            "17.3",
            format!("{hex} already has an aircraft (one per bombardment hex)"),
        );
    }
    ctx.emit(Event::AircraftPlaced { hex });
    Ok(())
}

/// Markers that may still be placed on the units in `hex` this player turn (17.2).
pub(crate) fn room(sc: &Scenario, s: &State, hex: Hex) -> u8 {
    let used = s
        .units_at(hex)
        .iter()
        .map(|&i| {
            s.ex.artillery_on
                .get(&sc.units[i].data.id)
                .copied()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    2u8.saturating_sub(used)
}

/// Why the phasing side may not aim artillery at `hex` at all, if it may not
/// (observation; Vimy Ridge La Folie Woods).
fn target_refusal(sc: &Scenario, s: &State, side: Side, hex: Hex) -> Option<RuleError> {
    // VR 17.2 "No bombardment is ever possible in any 'La Folie Woods' hex" binds both
    // sides; 18.2 only explains it and adds the Allied-only support fire ban.
    if let Some(Game::Vimy(_)) = game(sc) {
        if vr::la_folie(sc, hex) {
            return Some(RuleError {
                rule: "17.2".into(),
                message: format!(
                    "{hex} is a La Folie Woods hex: no bombardment is ever possible there (either side)"
                ),
            });
        }
    }
    if !observed(sc, s, side, hex) {
        return Some(RuleError {
            rule: "17.3".into(),
            message: match game(sc) {
                Some(Game::Vimy(_)) => format!(
                    "{hex} is not observed (no adjacent unit, no line of sight, no aircraft)"
                ),
                _ => format!("{hex} is not observed (no adjacent unit, no aircraft in range)"),
            },
        });
    }
    None
}

/// 17.2: place artillery markers on the enemy unit in `hex` (rolled when the phasing
/// player is done placing, 17.2 "immediately after all desired markers have been played").
pub(crate) fn artillery(ctx: &mut Ctx, hex: Hex, markers: u8, gas: bool) -> Result<(), RuleError> {
    let Some(g) = game(ctx.sc) else {
        return refuse(
            "17.1",
            "artillery bombardment exists only under the Meuse Argonne and Vimy Ridge rules",
        );
    };
    let sc = ctx.sc;
    if ctx.s.phase != Phase::Bombardment {
        return refuse(
            "17.2",
            format!(
                "artillery fires at the end of the movement phase (the Bombardment Phase), not the {}",
                ctx.s.phase
            ),
        );
    }
    let side = ctx.s.active;
    if !(1..=2).contains(&markers) {
        return refuse(
            "17.2",
            format!("one or two markers per enemy unit, not {markers}"),
        );
    }
    let left = *ctx.s.ex.artillery.get(side);
    if markers > left {
        return refuse(
            "17.1",
            format!("{markers} markers asked, {left} left this game turn"),
        );
    }
    let defenders = ctx.s.units_at(hex);
    if defenders.is_empty() || defenders.iter().any(|&d| sc.units[d].data.side == side) {
        return refuse("17.2", format!("{hex} holds no enemy unit"));
    }
    let room = room(sc, &ctx.s, hex);
    if markers > room {
        return refuse(
            "17.2",
            format!("no more than two markers per enemy unit: {room} more on {hex}"),
        );
    }
    if let Some(e) = target_refusal(sc, &ctx.s, side, hex) {
        return Err(e);
    }
    if gas && (side != Side::A || ctx.s.turn != 1) {
        return refuse(
            g.gas_rule(),
            "gas is an Allied option on the first game turn only",
        );
    }
    let ids: Vec<UnitId> = defenders
        .iter()
        .map(|&d| ctx.s.units.id(d).clone())
        .collect();
    ctx.emit(Event::ArtilleryDeclared {
        hex,
        defenders: ids,
        markers,
        gas,
    });
    Ok(())
}

/// 17.2: `done` in the Bombardment Phase rolls the placed markers, hex by hex in the
/// order placed (pausing for a Meuse Argonne 17.5 retreat decision); the phase ends once
/// all are fired. Returns false when there is nothing to fire.
pub(crate) fn fire(ctx: &mut Ctx) -> bool {
    if game(ctx.sc).is_none()
        || ctx.s.phase != Phase::Bombardment
        || ctx.s.ex.artillery_plan.is_empty()
    {
        return false;
    }
    fire_next(ctx);
    true
}

fn fire_next(ctx: &mut Ctx) {
    while ctx.s.combat.is_none() && ctx.s.outcome.is_none() {
        let Some(plan) = ctx.s.ex.artillery_plan.first().cloned() else {
            crate::fm::sequence::next_phase(ctx);
            return;
        };
        fire_hex(ctx, plan.hex, plan.markers, plan.gas);
    }
}

fn fire_hex(ctx: &mut Ctx, hex: Hex, markers: u8, gas: bool) {
    let sc = ctx.sc;
    let g = game(sc).expect("artillery rules");
    let side = ctx.s.active;
    let hi = sc.hex_index(hex).expect("planned hexes are on the map");
    let defenders: Vec<usize> = ctx
        .s
        .units_at(hex)
        .into_iter()
        .filter(|&d| sc.units[d].data.side != side)
        .collect();
    let ids: Vec<UnitId> = defenders
        .iter()
        .map(|&d| ctx.s.units.id(d).clone())
        .collect();
    ctx.emit(Event::ArtilleryFiring {
        hex,
        defenders: ids.clone(),
        markers,
        gas,
    });
    if ids.is_empty() {
        end(ctx);
        return;
    }
    let mut hits = 0u8;
    for k in 0..markers {
        crate::chance::roll_for(1, || {
            crate::chance::ChanceRoll::new("artillery_fire", "1d6")
                .with("hex", hex)
                .with("marker", k + 1)
                .with("defenders", &ids)
        });
        let die = ctx.d6();
        let (modifier, hit) = match g {
            Game::Meuse(p) => {
                let m = ma::bombardment_modifier(sc, &ctx.s, hi, gas);
                (m, die as i8 + m <= p.bombardment_hit_max)
            }
            Game::Vimy(p) => {
                let m = vr::bombardment_modifier(sc, &ctx.s, hi, gas);
                // Automatic Hit: a natural 1 always hits.
                (m, die == 1 || die as i8 + m <= p.bombardment_hit_max)
            }
        };
        ctx.emit(Event::ArtilleryFired {
            hex,
            die,
            modifier,
            total: die as i8 + modifier,
            hit,
        });
        if !hit {
            continue;
        }
        match g {
            // MA 17.6: a hit on intact works breaches them instead of hurting the unit.
            Game::Meuse(_)
                if ma::works_intact(sc, &ctx.s, hi)
                    && sc.hexes[hi as usize].terrain & sc.masks.fortress == 0 =>
            {
                ctx.emit(Event::HexBreached { hex });
            }
            _ => hits += 1,
        }
    }
    if let Game::Vimy(_) = g {
        // VR 17.2 note, 17.5: one hit at most, never a retreat.
        hits = hits.min(1);
    }
    if hits == 0 {
        end(ctx);
        return;
    }
    // MA 17.5: the targeted unit may retreat one hex instead; a brigade stack is the
    // targeted unit as a whole (13.2) and decides once, for all its brigades.
    if let Game::Meuse(_) = g {
        if !retreat_hexes(sc, &ctx.s, &defenders).is_empty() {
            ctx.emit(Event::ArtilleryRetreatOffered {
                unit: ids[0].clone(),
                hits,
                stacked: ids[1..].to_vec(),
            });
            return;
        }
    }
    take_hits(ctx, &ids, hits);
    end(ctx);
}

/// Meuse Argonne 17.5: the hexes the bombarded `units` (scenario indices: a lone unit,
/// or the brigades of one stack) may retreat into instead of taking their hits. One
/// hex, by 8.3 with 8.1.5's direction (away from the nearest enemy), into a vacant
/// hex, never by displacement (R-MA-17.5). A brigade stack "functions as if a single
/// divisional unit" (13.2): it retreats whole along one path into one hex, so only
/// the hexes open to every one of its brigades count (and, being vacant, they keep the
/// stack within the three-brigade limit).
pub(crate) fn retreat_hexes(sc: &Scenario, s: &State, units: &[usize]) -> Vec<Hex> {
    let one_hex = |i: usize| -> Vec<Hex> {
        crate::fm::retreat::retreat_options(sc, s, i, 1, CombatKind::Bombardment)
            .into_iter()
            .filter(|o| o.path.len() == 1 && !o.loses_step && o.displace.is_empty())
            .map(|o| o.path[0])
            .collect()
    };
    let Some((&first, rest)) = units.split_first() else {
        return Vec::new();
    };
    let mut out = one_hex(first);
    for &i in rest {
        let open = one_hex(i);
        out.retain(|h| open.contains(h));
    }
    out
}

/// The bombarded units of a pending 17.5 decision (the named unit first), as
/// scenario indices.
pub(crate) fn retreat_target(sc: &Scenario, unit: &UnitId, stacked: &[UnitId]) -> Vec<usize> {
    std::iter::once(unit)
        .chain(stacked)
        .filter_map(|u| sc.unit_index(u).map(|i| i as usize))
        .collect()
}

fn take_hits(ctx: &mut Ctx, units: &[UnitId], hits: u8) {
    for k in 0..hits as usize {
        let alive: Vec<&UnitId> = units
            .iter()
            .filter(|u| {
                ctx.sc
                    .unit_index(u)
                    .is_some_and(|i| matches!(ctx.s.units[i as usize].loc, Location::Map(_)))
            })
            .collect();
        if alive.is_empty() {
            break;
        }
        let u = alive[k % alive.len()].clone();
        lose_step(ctx, &u);
    }
}

/// The pending 17.5 decision: the named unit, the hits, the other brigades of its
/// stack; or why `unit` may not make it (a stacked brigade other than the one that
/// names the stack, or a unit that was not hit).
fn stage_hits(ctx: &Ctx, unit: &UnitId) -> Result<(u8, Vec<UnitId>), RuleError> {
    let Some(CombatStage::ArtilleryRetreat {
        unit: named,
        hits,
        stacked,
    }) = ctx.s.combat.as_ref().map(|c| &c.stage)
    else {
        return refuse("17.5", "no artillery retreat is pending");
    };
    if unit == named {
        return Ok((*hits, stacked.clone()));
    }
    if stacked.contains(unit) {
        return refuse(
            "17.5",
            format!("{unit} is stacked with {named}: the stack decides as one unit (13.2), named by {named}"),
        );
    }
    refuse("17.5", format!("{unit} was not hit"))
}

/// Meuse Argonne 17.5: retreat one hex instead of taking the hits; a brigade stack
/// retreats whole into the one hex (13.2).
pub(crate) fn artillery_retreat(
    ctx: &mut Ctx,
    unit: &UnitId,
    path: &[Hex],
) -> Result<(), RuleError> {
    let (_, stacked) = stage_hits(ctx, unit)?;
    let members = retreat_target(ctx.sc, unit, &stacked);
    let open = retreat_hexes(ctx.sc, &ctx.s, &members);
    if path.len() != 1 || !open.contains(&path[0]) {
        return refuse(
            "17.5",
            if stacked.is_empty() {
                "the retreat is one hex, by the retreat rules (8.3, 8.1.5), into a vacant hex"
            } else {
                "the stack retreats one hex together, by the retreat rules (8.3, 8.1.5), into one vacant hex"
            },
        );
    }
    for i in members {
        let from = ctx.s.units[i].hex().expect("bombarded unit is on the map");
        let id = ctx.s.units.id(i).clone();
        ctx.emit(Event::UnitRetreated {
            unit: id,
            from,
            path: path.to_vec(),
        });
    }
    end(ctx);
    fire_next(ctx);
    Ok(())
}

/// Meuse Argonne 17.5: stay and take the hits (a brigade stack: one brigade per hit).
pub(crate) fn accept_hits(ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
    let (hits, stacked) = stage_hits(ctx, unit)?;
    let units: Vec<UnitId> = std::iter::once(unit.clone()).chain(stacked).collect();
    take_hits(ctx, &units, hits);
    end(ctx);
    fire_next(ctx);
    Ok(())
}

/// Aircraft placements the phasing side may make now (17.3: "anywhere on the map").
pub(crate) fn aircraft_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    aircraft_hexes(sc, s)
        .map(|hex| Command::PlaceAircraft { hex })
        .collect()
}

/// The hexes [`aircraft_commands`] lists, in map order.
fn aircraft_hexes<'a>(sc: &'a Scenario, s: &'a State) -> impl Iterator<Item = Hex> + 'a {
    let open = game(sc).is_some()
        && s.phase == Phase::Movement
        && s.active == Side::A
        && aircraft_left(sc, s) > 0;
    sc.hexes
        .iter()
        .filter(move |hi| open && !s.ex.aircraft.contains(&hi.hex))
        .map(|hi| hi.hex)
}

/// The phase commands of the games with artillery (Meuse Argonne, Vimy Ridge):
/// `extras` (the game's movement-phase commands), then [`aircraft_commands`], then
/// [`artillery_commands`]; their count and the `k`-th, building the aircraft
/// placements (one per map hex) only when one is asked for.
pub(crate) fn phase_command_count(sc: &Scenario, s: &State, extras: &[Command]) -> usize {
    extras.len() + aircraft_hexes(sc, s).count() + artillery_commands(sc, s).len()
}

/// Whether [`phase_command_count`] is above zero, stopping at the first command
/// found.
pub(crate) fn has_phase_commands(sc: &Scenario, s: &State, extras: &[Command]) -> bool {
    !extras.is_empty()
        || aircraft_hexes(sc, s).next().is_some()
        || artillery_targets(sc, s).next().is_some()
}

/// See [`phase_command_count`].
pub(crate) fn phase_command(
    sc: &Scenario,
    s: &State,
    mut extras: Vec<Command>,
    k: usize,
) -> Option<Command> {
    if k < extras.len() {
        return Some(extras.swap_remove(k));
    }
    let k = k - extras.len();
    let air = aircraft_hexes(sc, s).count();
    if k < air {
        return aircraft_hexes(sc, s)
            .nth(k)
            .map(|hex| Command::PlaceAircraft { hex });
    }
    let mut art = artillery_commands(sc, s);
    (k - air < art.len()).then(|| art.swap_remove(k - air))
}

/// The flat action indices of the phase commands of [`phase_command_count`]: the
/// aircraft placements' straight from their hexes, no command built.
pub(crate) fn phase_command_indices(
    sc: &Scenario,
    s: &State,
    extras: &[Command],
    out: &mut Vec<usize>,
) {
    let index = |c: &Command| crate::fm::encoding::command_to_index(sc, s, c);
    out.extend(extras.iter().filter_map(index));
    let first = crate::fm::encoding::aircraft_index(sc, 0);
    out.extend(
        aircraft_hexes(sc, s)
            .filter_map(|hex| sc.hex_index(hex))
            .map(|h| first + usize::from(h)),
    );
    out.extend(artillery_commands(sc, s).iter().filter_map(index));
}

/// Artillery commands the phasing side can give now.
pub(crate) fn artillery_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    let side = s.active;
    let mut out = Vec::new();
    for (h, room) in artillery_targets(sc, s) {
        for n in 1..=room {
            out.push(Command::Artillery {
                hex: h,
                markers: n,
                gas: false,
            });
            if side == Side::A && s.turn == 1 {
                out.push(Command::Artillery {
                    hex: h,
                    markers: n,
                    gas: true,
                });
            }
        }
    }
    out
}

/// The hexes [`artillery_commands`] targets, each once in unit order, with the most
/// markers each may take (the phasing side's left, and the hex's room).
fn artillery_targets<'a>(sc: &'a Scenario, s: &'a State) -> impl Iterator<Item = (Hex, u8)> + 'a {
    let side = s.active;
    let left = *s.ex.artillery.get(side);
    let open = game(sc).is_some() && s.phase == Phase::Bombardment && left > 0;
    let mut seen = Vec::new();
    s.units
        .iter()
        .enumerate()
        .filter(move |(i, _)| open && sc.units[*i].data.side != side)
        .filter_map(|(_, u)| u.hex())
        .filter(move |h| {
            let first = !seen.contains(h);
            if first {
                seen.push(*h);
            }
            first
        })
        .filter_map(move |h| {
            let room = room(sc, s, h).min(left);
            (room > 0 && target_refusal(sc, s, side, h).is_none()).then_some((h, room))
        })
}
