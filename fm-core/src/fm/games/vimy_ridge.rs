//! Vimy Ridge: Arras Diversion — exclusive rules 10.0-21.0.
//!
//! Side `a` is the Allies (the Canadian Corps), side `b` the Germans. Covered here:
//! 11.3/11.6/13.1 night turns and replacements, 12.1-12.2 victory points and the instant
//! wins, 14.1 No Man's Land, 14.2 trench hexsides (their CRT line is scenario data; here
//! the ZOC and No Man's Land effects), 16.0 random support fire allotment, 17.1-17.6
//! observation and the modifier chart (the artillery machinery is shared, in
//! `artillery`), 18.1 the Red Baron, 17.2 / 18.2 La Folie Woods, 18.3 divisional
//! integrity, 19.1 the German set-up order. The scenario data covers 11.1-11.2, 11.5, 15.1-15.2,
//! 19.2, 20.1-20.3 (set-up zones and order, start, no reinforcements).

use crate::error::{refuse, RuleError};
use crate::fm::command::Command;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::games::meuse_argonne::TerrainModifier;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Phase, RuleSet, Scenario, ScenarioError, StartData};
use crate::fm::state::{Location, State};
use crate::ids::{Side, SidePair, UnitId};
use crate::query::GameLength;
use serde::{Deserialize, Serialize};

/// A division of either side, with the colour that marks it on the counters (18.3).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Division {
    /// The `formation` string its units carry ("1st Canadian Division").
    pub formation: String,
    /// Owning side.
    pub side: Side,
    /// Counter colour (18.3 "identified by a unique color").
    pub colour: String,
}

/// Parameters of the Vimy Ridge exclusive rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VimyRidgeParams {
    /// 17.1 Artillery Track: bombardment markers for the Allies (`a`) and Germans (`b`)
    /// on each turn, in turn order.
    pub artillery: Vec<SidePair<u8>>,
    /// What of the artillery track is printed ("8/5" on turn 2) and what is stand-in.
    pub artillery_provenance: String,
    /// 11.1: the bombardment markers shared by both sides (13).
    pub bombardment_markers: u8,
    /// 11.1, 17.3: Allied aircraft markers at the start.
    pub aircraft: u8,
    /// Why the aircraft count is what it is (not printed).
    pub aircraft_provenance: String,
    /// 18.3: the divisions of both sides and their colours.
    pub divisions: Vec<Division>,
    /// 19.1: German divisions from north to south.
    pub german_setup_order: Vec<String>,
    /// 12.1: the 13 peak hexes.
    pub peaks: Vec<Hex>,
    /// 12.1: the two town hexes of Petit Vimy.
    pub petit_vimy: Vec<Hex>,
    /// 12.1: the German supply hex in Petit Vimy (1534).
    pub supply_hex: Hex,
    /// 12.1: the 12 Vimy town hexes.
    pub vimy: Vec<Hex>,
    /// 11.3: the Allied trench hexes where Allied replacements arrive.
    pub allied_trench_hexes: Vec<Hex>,
    /// 14.1: the No Man's Land hex terrain id.
    pub no_mans_land_terrain: String,
    /// 18.2: the woods hex terrain id.
    pub woods_terrain: String,
    /// 17.3: the peak hex terrain id.
    pub peak_terrain: String,
    /// 14.2: the trench hexside feature id.
    pub trench_hexside: String,
    /// 17.3: hex terrains that block a line of sight (every non-clear terrain).
    pub los_blocking_terrains: Vec<String>,
    /// 17.3: longest line of sight, in hexes (10).
    pub observation_range: u8,
    /// 18.2: La Folie Woods are the woods within this many hexes of Petit Vimy (7).
    pub la_folie_range: u8,
    /// WWI Bombardment Results Table: a modified roll at or below this hits (2).
    pub bombardment_hit_max: i8,
    /// Artillery Bombardment Modifiers by hex terrain (the highest applies).
    pub bombardment_modifiers: Vec<TerrainModifier>,
    /// Artillery Bombardment Modifiers: a trench hex (+3).
    pub trench_modifier: i8,
    /// 11.3, 11.6: replacements per side per night turn (2).
    pub replacements_per_night: u8,
    /// 12.1: victory points the Allies need (2).
    pub victory_points_to_win: u8,
    /// 12.1: Canadian units of one division needed on the easternmost column (3).
    pub easternmost_units: u8,
}

/// The Allied side.
pub const ALLIES: Side = Side::A;
/// The German side.
pub const GERMANS: Side = Side::B;

/// The Vimy Ridge parameters, if the scenario uses those rules.
pub fn params(sc: &Scenario) -> Option<&VimyRidgeParams> {
    match &sc.data.rules {
        RuleSet::VimyRidge(p) => Some(p),
        _ => None,
    }
}

/// Whether the current turn is a night (moon) turn (13.1).
pub fn is_night(sc: &Scenario, s: &State) -> bool {
    params(sc).is_some() && sc.is_night_turn(s.turn)
}

/// 13.1: no movement or attack by either side during a night turn.
pub(crate) fn night_refusal(sc: &Scenario, s: &State, what: &str) -> Result<(), RuleError> {
    if is_night(sc, s) {
        return refuse(
            "13.1",
            format!("no {what} during a night turn (turn {})", s.turn),
        );
    }
    Ok(())
}

fn has_terrain(sc: &Scenario, hex: u16, mask: u64) -> bool {
    sc.hexes[hex as usize].terrain & mask != 0
}

/// 14.1: whether a hex is No Man's Land.
pub fn no_mans_land(sc: &Scenario, hex: u16) -> bool {
    params(sc).is_some() && has_terrain(sc, hex, sc.masks.no_mans_land)
}

/// 18.2: whether a hex is La Folie Woods: a woods hex within `la_folie_range` hexes of
/// Petit Vimy. No bombardment by either side is ever possible there (17.2); no Allied
/// support fire either (18.2).
pub fn la_folie(sc: &Scenario, hex: Hex) -> bool {
    let Some(p) = params(sc) else { return false };
    let Some(hi) = sc.hex_index(hex) else {
        return false;
    };
    has_terrain(sc, hi, sc.masks.woods)
        && p.petit_vimy
            .iter()
            .any(|pv| sc.layout().distance(*pv, hex) <= p.la_folie_range as u32)
}

/// Artillery Bombardment Modifiers chart: "trench hex" is a hex bordered by a trench
/// hexside that is not No Man's Land (14.1: nothing in No Man's Land is ever advantaged
/// by a trench line).
pub fn trench_hex(sc: &Scenario, hex: u16) -> bool {
    params(sc).is_some()
        && !no_mans_land(sc, hex)
        && sc.hexes[hex as usize]
            .sides
            .iter()
            .any(|m| m & sc.masks.trench_side != 0)
}

/// The modifier of one bombardment die on `hex` by the phasing side (Artillery
/// Bombardment Modifiers): the highest terrain modifier (No Man's Land +1, town or woods
/// +2, trench +3, clear 0), gas −2, an Allied aircraft on the hex −1, an Allied target
/// −1, night +1.
pub(crate) fn bombardment_modifier(sc: &Scenario, s: &State, hex: u16, gas: bool) -> i8 {
    let p = params(sc).expect("vimy");
    let mask = sc.hexes[hex as usize].terrain;
    let mut terrain = sc
        .data
        .terrain
        .hex
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .filter_map(|(_, t)| {
            p.bombardment_modifiers
                .iter()
                .find(|m| m.terrain == t.id)
                .map(|m| m.modifier)
        })
        .max()
        .unwrap_or(0)
        .max(0);
    if trench_hex(sc, hex) {
        terrain = terrain.max(p.trench_modifier);
    }
    let mut m = terrain;
    if gas {
        m -= 2;
    }
    let firing = s.active;
    if firing == ALLIES && s.ex.aircraft.contains(&sc.hex_at(hex)) {
        m -= 1;
    }
    if firing == GERMANS {
        m -= 1;
    }
    if is_night(sc, s) {
        m += 1;
    }
    m
}

/// 17.3: whether `side` observes the enemy unit in `hex`: a unit of `side` adjacent to
/// it, an Allied aircraft on it or next to it, or (by day) a line of sight of at most
/// `observation_range` hexes from a unit of `side`, blocked by intervening non-clear
/// terrain; an observer on a peak is blocked only by peaks.
pub fn observed(sc: &Scenario, s: &State, side: Side, hex: Hex) -> bool {
    let Some(p) = params(sc) else { return false };
    let l = sc.layout();
    let own: Vec<Hex> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side == side)
        .filter_map(|(_, u)| u.hex())
        .collect();
    if own.iter().any(|h| l.adjacent(*h, hex)) {
        return true;
    }
    if side == ALLIES
        && s.ex
            .aircraft
            .iter()
            .any(|a| *a == hex || l.adjacent(*a, hex))
    {
        return true;
    }
    if is_night(sc, s) {
        return false;
    }
    let range = p.observation_range as u32;
    let Some(t) = sc.hex_index(hex) else {
        return false;
    };
    own.iter()
        .filter(|o| l.distance(**o, hex) <= range)
        .any(|&o| {
            let Some(oi) = sc.hex_index(o) else {
                return sees(sc, o, hex);
            };
            // The map alone decides a line: what `o` sees within range is kept.
            sc.sight
                .sees(oi, t, || {
                    let mut bits = vec![0u64; sc.hexes.len().div_ceil(64)];
                    for (k, info) in sc.hexes.iter().enumerate() {
                        if l.distance(o, info.hex) <= range && sees(sc, o, info.hex) {
                            bits[k / 64] |= 1 << (k % 64);
                        }
                    }
                    bits
                })
                .unwrap_or(false)
        })
}

/// 17.3: whether a unit in `o` has a line of sight to `hex` (from a peak, only other
/// peaks block it; otherwise every blocking terrain does).
fn sees(sc: &Scenario, o: Hex, hex: Hex) -> bool {
    let l = sc.layout();
    let exists = |h: Hex| sc.hex_index(h).is_some();
    let terrain = |h: Hex, m: u64| sc.hex_index(h).is_some_and(|i| has_terrain(sc, i, m));
    if terrain(o, sc.masks.peak) {
        crate::fm::los::line_of_sight(l, o, hex, &exists, &|h| terrain(h, sc.masks.peak))
    } else {
        crate::fm::los::line_of_sight(l, o, hex, &exists, &|h| terrain(h, sc.masks.los_block))
    }
}

/// 18.1 The Red Baron: each night turn the Allies lose one aircraft marker for good.
pub(crate) fn red_baron(ctx: &mut Ctx) {
    let Some(p) = params(ctx.sc) else { return };
    if !is_night(ctx.sc, &ctx.s) {
        return;
    }
    let left = p.aircraft.saturating_sub(ctx.s.ex.aircraft_lost);
    if left > 0 {
        ctx.emit(Event::AircraftLost {
            remaining: left - 1,
        });
    }
}

/// 11.3, 11.6: each side's replacements arrive at the start of its night movement phase.
pub(crate) fn on_phase_start(ctx: &mut Ctx, side: Side, phase: Phase) {
    let Some(p) = params(ctx.sc) else { return };
    if phase == Phase::Movement && is_night(ctx.sc, &ctx.s) {
        ctx.emit(Event::ReplacementsReceived {
            side,
            count: p.replacements_per_night,
        });
    }
}

fn rule_for(side: Side) -> &'static str {
    if side == ALLIES {
        "11.3"
    } else {
        "11.6"
    }
}

/// 11.3, 11.6: the hexes where a replacement of `side` may arrive now. Allies: a vacant
/// Allied trench hex free of German ZOC. Germans: a vacant hex of the easternmost column,
/// or one next to a trench hexside neither of whose hexes is No Man's Land, free of
/// Allied ZOC (ruling R-VR-11.6).
pub fn replacement_hexes(sc: &Scenario, s: &State, side: Side) -> Vec<Hex> {
    let Some(p) = params(sc) else {
        return Vec::new();
    };
    let ezoc = crate::fm::zoc::ezoc_map(sc, s, side);
    let occ = crate::fm::zoc::occupancy(sc, s);
    let ok = |i: u16| {
        occ[i as usize] == u16::MAX
            && !ezoc[i as usize]
            && crate::fm::movement::enter_cost(sc, 0, 0, i).is_some()
    };
    if side == ALLIES {
        return p
            .allied_trench_hexes
            .iter()
            .copied()
            .filter(|h| sc.hex_index(*h).is_some_and(ok))
            .collect();
    }
    let east = easternmost_column(sc);
    (0..sc.hexes.len() as u16)
        .filter(|&i| ok(i))
        .filter(|&i| {
            let info = &sc.hexes[i as usize];
            info.hex.col == east
                || (0..6).any(|d| {
                    let n = info.neighbors[d];
                    info.sides[d] & sc.masks.trench_side != 0
                        && !no_mans_land(sc, i)
                        && (n == crate::fm::scenario::NO_HEX || !no_mans_land(sc, n))
                })
        })
        .map(|i| sc.hex_at(i))
        .collect()
}

/// 11.6, 12.1: the easternmost map column.
pub fn easternmost_column(sc: &Scenario) -> u8 {
    sc.hexes.iter().map(|h| h.hex.col).max().unwrap_or(0)
}

fn night_movement(ctx: &Ctx, rule: &str) -> Result<(), RuleError> {
    if ctx.s.phase != Phase::Movement || !is_night(ctx.sc, &ctx.s) {
        return refuse(
            rule,
            "replacements are received and deployed in the owner's movement phase of a night turn",
        );
    }
    Ok(())
}

/// 11.3, 11.6: bring an eliminated unit onto the map, depleted for one replacement or
/// at full strength (`full`) for two.
pub(crate) fn replace(ctx: &mut Ctx, unit: &UnitId, hex: Hex, full: bool) -> Result<(), RuleError> {
    let side = ctx.s.active;
    let rule = rule_for(side);
    night_movement(ctx, rule)?;
    let i = ctx.unit(unit)?;
    if ctx.sc.units[i].data.side != side {
        return refuse(rule, format!("{unit} belongs to the other side"));
    }
    if ctx.s.units[i].loc != Location::Eliminated {
        return refuse(rule, format!("{unit} is not eliminated"));
    }
    let max = ctx.sc.units[i].max_steps();
    let steps = if full {
        max
    } else {
        max.saturating_sub(1).max(1)
    };
    let left = *ctx.s.ex.replacements.get(side);
    if steps > left {
        return refuse(
            rule,
            format!("{steps} replacement(s) needed, {left} left this night turn"),
        );
    }
    if !replacement_hexes(ctx.sc, &ctx.s, side).contains(&hex) {
        return refuse(
            rule,
            if side == ALLIES {
                format!("{hex} is not a vacant Allied trench hex free of enemy ZOC")
            } else {
                format!("{hex} is not a vacant easternmost-column hex or hex next to a trench hexside away from No Man's Land, free of enemy ZOC")
            },
        );
    }
    ctx.emit(Event::UnitReplaced {
        unit: unit.clone(),
        hex,
        steps,
    });
    Ok(())
}

/// 11.3, 11.6: rebuild one or two depleted units on the map (even in an enemy ZOC), one
/// replacement each; never a unit that moved this night turn (an arrival).
pub(crate) fn rebuild(ctx: &mut Ctx, units: &[UnitId]) -> Result<(), RuleError> {
    let side = ctx.s.active;
    let rule = rule_for(side);
    night_movement(ctx, rule)?;
    let left = *ctx.s.ex.replacements.get(side);
    if units.is_empty() || units.len() > left as usize {
        return refuse(
            rule,
            format!(
                "{} unit(s) to rebuild with {left} replacement(s) left",
                units.len()
            ),
        );
    }
    crate::fm::combat::rebuild_units(ctx, units, rule, |ctx, i, _| {
        if ctx.s.units[i].moved {
            return refuse(
                rule,
                format!(
                    "{} moved this night turn and may not be rebuilt",
                    ctx.s.units.id(i)
                ),
            );
        }
        Ok(())
    })
}

/// Replacement commands the phasing side can give now.
pub(crate) fn movement_extras(sc: &Scenario, s: &State) -> Vec<Command> {
    let mut out = Vec::new();
    if params(sc).is_none() || s.phase != Phase::Movement || !is_night(sc, s) {
        return out;
    }
    let side = s.active;
    let left = *s.ex.replacements.get(side);
    if left == 0 {
        return out;
    }
    let eliminated: Vec<usize> = (0..s.units.len())
        .filter(|&i| sc.units[i].data.side == side && s.units[i].loc == Location::Eliminated)
        .collect();
    if !eliminated.is_empty() {
        let hexes = replacement_hexes(sc, s, side);
        for &i in &eliminated {
            let max = sc.units[i].max_steps();
            for h in &hexes {
                out.push(Command::Replace {
                    unit: s.units.id(i).clone(),
                    hex: *h,
                    full: false,
                });
                if max > 1 && max <= left {
                    out.push(Command::Replace {
                        unit: s.units.id(i).clone(),
                        hex: *h,
                        full: true,
                    });
                }
            }
        }
    }
    let depleted: Vec<usize> = (0..s.units.len())
        .filter(|&i| {
            let u = &s.units[i];
            sc.units[i].data.side == side
                && u.hex().is_some()
                && !u.moved
                && u.steps < sc.units[i].max_steps()
        })
        .collect();
    for (k, &a) in depleted.iter().enumerate() {
        out.push(Command::Rebuild {
            units: vec![s.units.id(a).clone()],
        });
        if left >= 2 {
            for &b in &depleted[k + 1..] {
                out.push(Command::Rebuild {
                    units: vec![s.units.id(a).clone(), s.units.id(b).clone()],
                });
            }
        }
    }
    out
}

/// Vertical position of a hex centre in half-rows (south is larger), for 19.1's
/// "north of" / "south of".
fn y2(sc: &Scenario, h: Hex) -> i32 {
    2 * h.row as i32 + i32::from(sc.layout().shifted(h.col as i32))
}

/// Index in the north→south German set-up order of a unit's division.
fn band(p: &VimyRidgeParams, sc: &Scenario, unit: usize) -> Option<usize> {
    let d = &sc.units[unit].data;
    if d.side != GERMANS {
        return None;
    }
    p.german_setup_order.iter().position(|f| *f == d.formation)
}

/// The German set-up as it stands, for 19.1: the heights of each division's placed units,
/// how many of each wait to be placed, and the free heights of their zone (sorted).
struct Setup {
    placed: Vec<Vec<i32>>,
    waiting: Vec<usize>,
    free: Vec<i32>,
}

impl Setup {
    fn new(sc: &Scenario, s: &State, p: &VimyRidgeParams) -> Setup {
        let n = p.german_setup_order.len();
        let mut placed: Vec<Vec<i32>> = vec![Vec::new(); n];
        let mut waiting = vec![0usize; n];
        let mut zone: Option<&str> = None;
        for i in 0..s.units.len() {
            let Some(b) = band(p, sc, i) else { continue };
            match s.units[i].loc {
                Location::Map(h) => placed[b].push(y2(sc, h)),
                Location::ToPlace => {
                    waiting[b] += 1;
                    if let StartData::Zone(z) = &sc.units[i].data.start {
                        zone = Some(z);
                    }
                }
                _ => {}
            }
        }
        let occ = crate::fm::zoc::occupancy(sc, s);
        let mut free: Vec<i32> = match zone {
            Some(z) => sc.zones[z]
                .iter()
                .filter(|&&hi| occ[hi as usize] == u16::MAX)
                .filter(|&&hi| crate::fm::movement::enter_cost(sc, 0, 0, hi).is_some())
                .map(|&hi| y2(sc, sc.hex_at(hi)))
                .collect(),
            None => Vec::new(),
        };
        free.sort_unstable();
        Setup {
            placed,
            waiting,
            free,
        }
    }

    /// Whether a waiting unit of division `b` may go to a free hex at height `y`: the
    /// order holds against every placed unit, and the rest can still be placed in order
    /// (greedy from the north: each division takes the northernmost free heights below
    /// the one before, which leaves the most room to those further south).
    fn allows(&self, b: usize, y: i32) -> bool {
        let n = self.placed.len();
        for (ob, ys) in self.placed.iter().enumerate() {
            if (ob < b && ys.iter().any(|oy| *oy >= y)) || (ob > b && ys.iter().any(|oy| *oy <= y))
            {
                return false;
            }
        }
        let mut taken = false;
        let mut floor = i32::MIN;
        let mut next = 0usize;
        for d in 0..n {
            let ceiling = self.placed[d + 1..]
                .iter()
                .flatten()
                .copied()
                .chain((d < b).then_some(y))
                .min()
                .unwrap_or(i32::MAX);
            let mut top = self.placed[d]
                .iter()
                .copied()
                .chain((d == b).then_some(y))
                .max()
                .unwrap_or(floor);
            let need = self.waiting[d] - usize::from(d == b);
            let mut got = 0;
            while got < need {
                let Some(&fy) = self.free.get(next) else {
                    return false;
                };
                next += 1;
                if fy == y && !taken {
                    // The hex `y` stands for is no longer free.
                    taken = true;
                    continue;
                }
                if fy <= floor {
                    continue;
                }
                if fy >= ceiling {
                    return false;
                }
                top = top.max(fy);
                got += 1;
            }
            floor = top;
        }
        true
    }
}

/// 19.1: German divisions set up north to south (16th Bavarian, 79th Reserve, 1st
/// Bavarian Reserve): a placement is refused if it breaks the order or leaves no way to
/// place the rest in order.
pub(crate) fn check_placement(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
) -> Result<(), RuleError> {
    let Some(p) = params(sc) else { return Ok(()) };
    let Some(b) = band(p, sc, unit) else {
        return Ok(());
    };
    let y = y2(sc, hex);
    for (i, u) in s.units.iter().enumerate() {
        let Some(ob) = band(p, sc, i) else { continue };
        let Some(h) = u.hex() else { continue };
        let oy = y2(sc, h);
        if (ob < b && oy >= y) || (ob > b && oy <= y) {
            return refuse(
                "19.1",
                format!(
                    "{hex} is not {} {} at {h}: the {} sets up {} of the {}",
                    if ob < b { "south of" } else { "north of" },
                    s.units.id(i),
                    p.german_setup_order[b],
                    if ob < b { "south" } else { "north" },
                    p.german_setup_order[ob],
                ),
            );
        }
    }
    if !Setup::new(sc, s, p).allows(b, y) {
        return refuse(
            "19.1",
            format!(
                "placing {} at {hex} leaves no room to set up the other German divisions north to south",
                s.units.id(unit)
            ),
        );
    }
    Ok(())
}

/// 19.1 for legal listings: the heights a waiting German unit of each division may take,
/// computed once per listing.
#[derive(Default)]
pub(crate) struct PlacementCache {
    by_band: Vec<Option<Vec<i32>>>,
    setup: Option<Setup>,
}

/// Whether 19.1 lets `unit` be placed on the free hex `hex` (other rules aside).
pub(crate) fn placement_allowed(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
    cache: &mut PlacementCache,
) -> bool {
    let Some(p) = params(sc) else { return true };
    let Some(b) = band(p, sc, unit) else {
        return true;
    };
    let setup = cache.setup.get_or_insert_with(|| Setup::new(sc, s, p));
    if cache.by_band.len() <= b {
        cache.by_band.resize(b + 1, None);
    }
    let ok = cache.by_band[b].get_or_insert_with(|| {
        let mut ys = setup.free.clone();
        ys.dedup();
        ys.into_iter().filter(|y| setup.allows(b, *y)).collect()
    });
    ok.binary_search(&y2(sc, hex)).is_ok()
}

/// 14.1: a defender's defense factor, halved (rounded down) in No Man's Land.
pub(crate) fn defense(sc: &Scenario, hex: u16, printed: i32) -> i32 {
    if no_mans_land(sc, hex) {
        printed / 2
    } else {
        printed
    }
}

/// 14.1: a unit attacked in No Man's Land is never advantaged by a trench line.
pub(crate) fn hexside_line_denied(sc: &Scenario, hex: u16, feature: usize) -> bool {
    no_mans_land(sc, hex) && sc.masks.trench_side & (1 << feature) != 0
}

/// 14.2: a trench hexside stops a unit's ZOC from crossing it into a hex held by an
/// opposing unit. `occ_side` gives the side holding each hex, if any.
pub(crate) fn trench_blocks_zoc(
    sc: &Scenario,
    zoc_side: Side,
    side_mask: u64,
    occupant: Option<Side>,
) -> bool {
    params(sc).is_some()
        && side_mask & sc.masks.trench_side != 0
        && occupant.is_some_and(|o| o != zoc_side)
}

/// 18.3: the units of one attack belong to one division, and a unit already attacked
/// this phase may be attacked again only by another division.
pub(crate) fn check_attack(
    sc: &Scenario,
    s: &State,
    defenders: &[usize],
    attackers: &[usize],
) -> Result<(), RuleError> {
    if params(sc).is_none() {
        return Ok(());
    }
    let Some(&first) = attackers.first() else {
        return Ok(());
    };
    let div = &sc.units[first].data.formation;
    if let Some(&o) = attackers
        .iter()
        .find(|&&a| sc.units[a].data.formation != *div)
    {
        return refuse(
            "18.3",
            format!(
                "{} ({}) and {} ({}) are of different divisions and may not attack together",
                s.units.id(first),
                div,
                s.units.id(o),
                sc.units[o].data.formation
            ),
        );
    }
    for &d in defenders {
        let id = s.units.id(d);
        if s.ex.attacked_by.get(id).is_some_and(|f| f.contains(div)) {
            return refuse(
                "8.0",
                format!("{id} has already been attacked by the {div} this phase"),
            );
        }
    }
    Ok(())
}

/// 18.3: the most attacks one unit may receive in a phase from `attacker`: one from
/// each of its divisions (the attacking units of an attack are of one division, and a
/// division attacks a unit once a phase).
pub(crate) fn attacks_on_one_unit(sc: &Scenario, attacker: Side) -> u64 {
    let mut divisions: Vec<&str> = sc
        .units
        .iter()
        .filter(|u| u.data.side == attacker)
        .map(|u| u.data.formation.as_str())
        .collect();
    divisions.sort_unstable();
    divisions.dedup();
    divisions.len() as u64
}

/// What Vimy Ridge's own rules add to game turn `turn` (`fm::length`): the artillery
/// and its aircraft (16.0, 17.1-17.4, `artillery`); on a night turn, 11.3 and 11.6 each
/// side's replacements of its night movement phase, each `replace` or `rebuild`
/// spending at least one.
pub(crate) fn turn_length(sc: &Scenario, turn: u16) -> GameLength {
    let Some(p) = params(sc) else {
        return GameLength::ZERO;
    };
    let replacements = if sc.is_night_turn(turn) {
        2 * u64::from(p.replacements_per_night)
    } else {
        0
    };
    crate::fm::games::artillery::turn_length(sc, turn) + GameLength::commands(replacements)
}

/// 16.0: whether `side`'s support fire allotment for `turn` was drawn at random (its
/// allotment is smaller than its marker mix), so that its values are secret.
pub(crate) fn random_allotment(sc: &Scenario, turn: u16, side: Side) -> bool {
    params(sc).is_some()
        && sc
            .data
            .turns
            .get((turn as usize).wrapping_sub(1))
            .is_some_and(|t| {
                (*t.support.get(side) as usize) < sc.data.support_markers.get(side).len()
            })
}

/// 18.2: no Allied support fire in a combat in a La Folie Woods hex.
pub(crate) fn support_barred(sc: &Scenario, s: &State, side: Side) -> bool {
    side == ALLIES && s.combat.as_ref().is_some_and(|c| la_folie(sc, c.hex))
}

/// 12.1: the Allied victory points as things stand: (all 13 peaks last occupied by the
/// Allies, Petit Vimy 1534 last occupied by the Allies, three units of one Canadian
/// division on the easternmost column).
pub fn victory_points(sc: &Scenario, s: &State) -> Option<(bool, bool, bool)> {
    let p = params(sc)?;
    let peaks = !p.peaks.is_empty() && p.peaks.iter().all(|h| s.control.get(h) == Some(&ALLIES));
    let supply = s.control.get(&p.supply_hex) == Some(&ALLIES);
    let east = easternmost_column(sc);
    let mut count: std::collections::BTreeMap<&str, u8> = std::collections::BTreeMap::new();
    for (i, u) in s.units.iter().enumerate() {
        let d = &sc.units[i].data;
        if d.side == ALLIES && u.hex().is_some_and(|h| h.col == east) {
            *count.entry(d.formation.as_str()).or_insert(0) += 1;
        }
    }
    let column = count.values().any(|n| *n >= p.easternmost_units);
    Some((peaks, supply, column))
}

/// 12.1-12.2: the result at the end of the last turn: the Allies win with two victory
/// points, else the Germans.
pub(crate) fn final_result(sc: &Scenario, s: &State) -> Option<(Option<Side>, String)> {
    let p = params(sc)?;
    let (peaks, supply, column) = victory_points(sc, s)?;
    let vp = u8::from(peaks) + u8::from(supply) + u8::from(column);
    let mut why = Vec::new();
    if peaks {
        why.push("all peaks");
    }
    if supply {
        why.push("Petit Vimy supply hex");
    }
    if column {
        why.push("three units of one division on the easternmost column");
    }
    let detail = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    Some(if vp >= p.victory_points_to_win {
        (Some(ALLIES), format!("the Allies hold {vp} VP{detail}"))
    } else {
        (
            Some(GERMANS),
            format!(
                "the Allies hold {vp} VP{detail}, fewer than {}",
                p.victory_points_to_win
            ),
        )
    })
}

/// 12.1: the Allies win the moment one of their units enters a Vimy town hex (even in
/// passing) while no German unit holds either Petit Vimy hex.
pub(crate) fn instant(sc: &Scenario, s: &State, events: &[Event]) -> Option<(Side, String)> {
    let p = params(sc)?;
    let held = p.petit_vimy.iter().any(|h| {
        s.units_at(*h)
            .iter()
            .any(|&i| sc.units[i].data.side == GERMANS)
    });
    if held {
        return None;
    }
    let (unit, h) = crate::fm::victory::entered(sc, events, ALLIES, &p.vimy)?;
    Some((
        ALLIES,
        format!("{unit} entered Vimy ({h}) with Petit Vimy free of Germans"),
    ))
}

/// Checks the parameters against the rest of the scenario (hexes on the map, terrain
/// and division names that exist).
pub(crate) fn validate(sc: &Scenario, p: &VimyRidgeParams) -> Result<(), ScenarioError> {
    let fail = |path: &str, message: String| {
        Err(ScenarioError {
            path: format!("rules.vimy-ridge.{path}"),
            message,
        })
    };
    let at = |name: &str| format!("rules.vimy-ridge.{name}");
    sc.check_param_hexes(&at("peaks"), &p.peaks)?;
    sc.check_param_hexes(&at("petit_vimy"), &p.petit_vimy)?;
    sc.check_param_hexes(&at("vimy"), &p.vimy)?;
    sc.check_param_hexes(&at("allied_trench_hexes"), &p.allied_trench_hexes)?;
    sc.check_param_hex(&at("supply_hex"), p.supply_hex)?;
    if !p.petit_vimy.contains(&p.supply_hex) {
        return fail(
            "supply_hex",
            format!("{} is not one of the Petit Vimy hexes", p.supply_hex),
        );
    }
    sc.check_param_terrain(&at("no_mans_land_terrain"), &p.no_mans_land_terrain, false)?;
    sc.check_param_terrain(&at("woods_terrain"), &p.woods_terrain, false)?;
    sc.check_param_terrain(&at("peak_terrain"), &p.peak_terrain, false)?;
    for (j, id) in p.los_blocking_terrains.iter().enumerate() {
        sc.check_param_terrain(&at(&format!("los_blocking_terrains[{j}]")), id, false)?;
    }
    for (j, m) in p.bombardment_modifiers.iter().enumerate() {
        sc.check_param_terrain(
            &at(&format!("bombardment_modifiers[{j}].terrain")),
            &m.terrain,
            false,
        )?;
    }
    sc.check_param_terrain(&at("trench_hexside"), &p.trench_hexside, true)?;
    for (j, f) in p.german_setup_order.iter().enumerate() {
        if !p
            .divisions
            .iter()
            .any(|d| d.formation == *f && d.side == GERMANS)
        {
            return fail(
                &format!("german_setup_order[{j}]"),
                format!("'{f}' is not a German division of `divisions`"),
            );
        }
    }
    if p.artillery.len() > sc.data.turns.len() {
        return fail(
            "artillery",
            format!(
                "{} entries for {} turns",
                p.artillery.len(),
                sc.data.turns.len()
            ),
        );
    }
    Ok(())
}

/// Vimy Ridge's exclusive rules behind [`crate::fm::exclusive::ExclusiveRules`]: the system
/// rules except where 10.0-21.0 change them (night turns, replacements, No Man's Land,
/// trench hexsides, the random allotment, La Folie Woods, divisional integrity, the
/// German set-up order, and the WWI artillery of `artillery`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct VimyRidge;

impl crate::fm::exclusive::ExclusiveRules for VimyRidge {
    fn prepare(&self, sc: &mut Scenario) -> Result<(), ScenarioError> {
        let RuleSet::VimyRidge(p) = &sc.data.rules else {
            return Ok(());
        };
        let p = p.clone();
        validate(sc, &p)?;
        let side_bits = sc.hexside_mask(&p.trench_hexside);
        sc.masks.no_mans_land = sc.hex_terrain_mask(std::slice::from_ref(&p.no_mans_land_terrain));
        sc.masks.peak = sc.hex_terrain_mask(std::slice::from_ref(&p.peak_terrain));
        sc.masks.woods = sc.hex_terrain_mask(std::slice::from_ref(&p.woods_terrain));
        sc.masks.los_block = sc.hex_terrain_mask(&p.los_blocking_terrains);
        sc.masks.trench_side = side_bits;
        Ok(())
    }
    fn check_placement(
        &self,
        sc: &Scenario,
        s: &State,
        i: usize,
        hex: Hex,
    ) -> Result<(), RuleError> {
        check_placement(sc, s, i, hex)
    }
    fn placement_listed(
        &self,
        sc: &Scenario,
        s: &State,
        i: usize,
        hex: Hex,
        cache: &mut crate::fm::exclusive::PlacementCache,
    ) -> bool {
        placement_allowed(sc, s, i, hex, cache.game_scratch())
    }
    fn move_refusal(&self, sc: &Scenario, s: &State, _i: usize) -> Result<(), RuleError> {
        if s.phase == Phase::Movement {
            night_refusal(sc, s, "movement")?;
        }
        Ok(())
    }
    fn activity_refusal(&self, sc: &Scenario, s: &State, what: &str) -> Result<(), RuleError> {
        night_refusal(sc, s, what)
    }
    fn zoc_needs_holders(&self) -> bool {
        true
    }
    fn zoc_blocked_across(
        &self,
        sc: &Scenario,
        zoc_side: Side,
        side_mask: u64,
        occupant: Option<Side>,
    ) -> bool {
        trench_blocks_zoc(sc, zoc_side, side_mask, occupant)
    }
    fn hexside_line_denied(
        &self,
        sc: &Scenario,
        hex: u16,
        feature: usize,
        _defender: Side,
    ) -> bool {
        hexside_line_denied(sc, hex, feature)
    }
    fn defense(&self, sc: &Scenario, hex: u16, printed: i32) -> i32 {
        defense(sc, hex, printed)
    }
    fn repeat_attacks(&self) -> bool {
        true
    }
    fn attacks_on_one_unit(&self, sc: &Scenario, attacker: Side) -> u64 {
        attacks_on_one_unit(sc, attacker)
    }
    fn turn_length(&self, sc: &Scenario, turn: u16) -> GameLength {
        turn_length(sc, turn)
    }
    fn check_attack(
        &self,
        sc: &Scenario,
        s: &State,
        defenders: &[usize],
        attackers: &[usize],
    ) -> Result<(), RuleError> {
        check_attack(sc, s, defenders, attackers)
    }
    fn records_attacking_formation(&self) -> bool {
        true
    }
    fn artillery_replaces_bombardment(&self) -> bool {
        true
    }
    fn random_allotment(&self, sc: &Scenario, turn: u16, side: Side) -> bool {
        random_allotment(sc, turn, side)
    }
    fn support_barred(&self, sc: &Scenario, s: &State, side: Side) -> bool {
        support_barred(sc, s, side)
    }
    fn on_turn_start(&self, ctx: &mut Ctx) {
        crate::fm::games::artillery::on_turn_start(ctx)
    }
    fn on_phase_start(&self, ctx: &mut Ctx, side: Side, phase: Phase) {
        on_phase_start(ctx, side, phase)
    }
    fn fire_artillery(&self, ctx: &mut Ctx) -> bool {
        crate::fm::games::artillery::fire(ctx)
    }
    fn phase_commands(&self, sc: &Scenario, s: &State) -> Vec<Command> {
        let mut out = movement_extras(sc, s);
        out.extend(crate::fm::games::artillery::aircraft_commands(sc, s));
        out.extend(crate::fm::games::artillery::artillery_commands(sc, s));
        out
    }
    fn has_phase_commands(&self, sc: &Scenario, s: &State) -> bool {
        crate::fm::games::artillery::has_phase_commands(sc, s, &movement_extras(sc, s))
    }
    fn phase_command_count(&self, sc: &Scenario, s: &State) -> usize {
        crate::fm::games::artillery::phase_command_count(sc, s, &movement_extras(sc, s))
    }
    fn phase_command(&self, sc: &Scenario, s: &State, k: usize) -> Option<Command> {
        crate::fm::games::artillery::phase_command(sc, s, movement_extras(sc, s), k)
    }
    fn phase_command_indices(&self, sc: &Scenario, s: &State, out: &mut Vec<usize>) {
        crate::fm::games::artillery::phase_command_indices(sc, s, &movement_extras(sc, s), out)
    }
    fn artillery_retreat_hexes(
        &self,
        sc: &Scenario,
        s: &State,
        unit: &UnitId,
        stacked: &[UnitId],
    ) -> Vec<Hex> {
        let target = crate::fm::games::artillery::retreat_target(sc, unit, stacked);
        crate::fm::games::artillery::retreat_hexes(sc, s, &target)
    }
    fn replace(&self, ctx: &mut Ctx, unit: &UnitId, hex: Hex, full: bool) -> Result<(), RuleError> {
        replace(ctx, unit, hex, full)
    }
    fn rebuild(&self, ctx: &mut Ctx, units: &[UnitId]) -> Result<(), RuleError> {
        rebuild(ctx, units)
    }
    fn place_aircraft(&self, ctx: &mut Ctx, hex: Hex) -> Result<(), RuleError> {
        crate::fm::games::artillery::place_aircraft(ctx, hex)
    }
    fn artillery(&self, ctx: &mut Ctx, hex: Hex, markers: u8, gas: bool) -> Result<(), RuleError> {
        crate::fm::games::artillery::artillery(ctx, hex, markers, gas)
    }
    fn artillery_retreat(
        &self,
        ctx: &mut Ctx,
        unit: &UnitId,
        path: &[Hex],
    ) -> Result<(), RuleError> {
        crate::fm::games::artillery::artillery_retreat(ctx, unit, path)
    }
    fn accept_hits(&self, ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
        crate::fm::games::artillery::accept_hits(ctx, unit)
    }
    fn instant(&self, sc: &Scenario, s: &State, events: &[Event]) -> Option<(Side, String)> {
        instant(sc, s, events)
    }
    fn final_result(&self, sc: &Scenario, s: &State) -> Option<(Option<Side>, String)> {
        final_result(sc, s)
    }
    fn objectives(&self, sc: &Scenario) -> Vec<crate::fm::ai::Objective> {
        objectives(sc)
    }
}

/// What the AI plays for in 12.1-12.2: the peaks (all of them), the Petit Vimy supply
/// hex and Vimy itself (any hex: the instant win) for the Allies, denied by the Germans.
fn objectives(sc: &Scenario) -> Vec<crate::fm::ai::Objective> {
    use crate::fm::ai::Objective;
    let Some(p) = params(sc) else {
        return crate::fm::ai::scenario_objectives(sc);
    };
    let mut v = vec![
        Objective {
            side: ALLIES,
            hexes: vec![p.supply_hex],
            need: 1,
            weight: 1.0,
        },
        Objective {
            side: ALLIES,
            hexes: p.vimy.clone(),
            need: 1,
            weight: 1.0,
        },
    ];
    if !p.peaks.is_empty() {
        v.push(Objective {
            side: ALLIES,
            hexes: p.peaks.clone(),
            need: p.peaks.len(),
            weight: 1.0,
        });
    }
    v
}
