//! Meuse Argonne: The Final Offensive — exclusive rules 10.0-19.0 (parameters).
//!
//! Side `a` is the Allies, side `b` the Germans. Covered here: 11.3/11.6 replacements,
//! 13.1-13.2 three-step divisions, brigade chits and their stacking, 14.2 German works
//! (CRT lines for German defenders only, Allied ZOC blocked, breaches), 14.3 Allied
//! fortification cost, 16.0/17.1-17.7 artillery bombardment (observation, aircraft,
//! gas, modifiers, hits, breaching, the one-hex retreat), 18.1 the Lost Battalion and
//! 18.2 German combat experience. The core calls the hooks below where the system
//! rules leave room for exclusive rules; the scenario data (set-up zones, start in the
//! bombardment/combat of turn 1, Sedan as an instant-win hex) covers 11.1-11.2, 11.4-11.7,
//! 12.1, 15.1-15.2 and 19.0.

use crate::error::{refuse, RuleError};
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{Phase, RuleSet, Scenario, ScenarioError};
use crate::fm::state::{CombatKind, CombatStage, Location, State};
use crate::ids::{Side, SidePair, UnitId};
use crate::query::GameLength;
use serde::{Deserialize, Serialize};

/// A terrain-dependent bombardment die modifier (Artillery Bombardment Modifiers).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainModifier {
    /// Hex terrain id.
    pub terrain: String,
    /// Die modifier (the highest one in the hex applies).
    pub modifier: i8,
}

/// Parameters of the Meuse Argonne exclusive rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeuseArgonneParams {
    /// 17.1 Artillery Track: bombardment markers for the Allies (`a`) and Germans (`b`)
    /// on each turn, in turn order.
    pub artillery: Vec<SidePair<u8>>,
    /// What of the artillery track is printed ("8/4" on turn 1) and what is stand-in.
    pub artillery_provenance: String,
    /// 11.1: bombardment markers in the counter mix (12).
    pub bombardment_markers: u8,
    /// 11.1, 17.3: US aircraft markers.
    pub aircraft: u8,
    /// 13.1: the three-step US divisions (4th, 32nd, 33rd, 79th).
    pub three_step_divisions: Vec<UnitId>,
    /// 13.1-13.2: the US brigade chits of the counter mix, as units (start off map).
    pub brigades: Vec<UnitId>,
    /// Why the brigade chit count is what it is (the counter sheet is not in our text).
    pub brigade_provenance: String,
    /// 12.1: Sedan.
    pub sedan: Hex,
    /// 11.2: the southernmost Stellung line hexes, dividing the set-up areas.
    pub stellung_line: Vec<Hex>,
    /// 11.3: map-edge hexes south and/or west of the southernmost Stellung line.
    pub allied_replacement_entry: Vec<Hex>,
    /// 11.6: northern and eastern map-edge hexes.
    pub german_replacement_entry: Vec<Hex>,
    /// 17.4-17.5 WWI Bombardment Results Table: a modified roll at or below this hits.
    pub bombardment_hit_max: i8,
    /// Artillery Bombardment Modifiers by terrain (highest applies).
    pub bombardment_modifiers: Vec<TerrainModifier>,
    /// 14.2: the trench-type hex terrains (Stellung, 2nd Tier Trench, Fortifications).
    pub trench_terrains: Vec<String>,
    /// 14.3: the Fortification terrain (+1 MP for Allied units).
    pub fortification_terrain: String,
    /// 14.2 note: fortress terrains, which cannot be breached.
    pub fortress_terrains: Vec<String>,
    /// 11.3, 11.6: terrains counted as forest for rebuilding.
    pub forest_terrains: Vec<String>,
    /// 18.1: the woods terrain and the "Woods (Lost Battalion)" CRT line id.
    pub woods_terrain: String,
    /// 18.1: CRT line forced by the Lost Battalion.
    pub lost_battalion_line: String,
}

/// The Allied side.
pub const ALLIES: Side = Side::A;
/// The German side.
pub const GERMANS: Side = Side::B;

/// The Meuse Argonne parameters, if the scenario uses those rules.
pub fn params(sc: &Scenario) -> Option<&MeuseArgonneParams> {
    match &sc.data.rules {
        RuleSet::MeuseArgonne(p) => Some(p),
        _ => None,
    }
}

/// Checks every hex, unit, terrain and CRT line the parameters name, with the JSON
/// path of the first that does not fit (as Vimy Ridge's and Suez 1916's checks do).
pub(crate) fn validate(sc: &Scenario, p: &MeuseArgonneParams) -> Result<(), ScenarioError> {
    let at = |name: &str| format!("rules.meuse-argonne.{name}");
    let fail = |path: String, message: String| Err(ScenarioError { path, message });
    sc.check_param_hex(&at("sedan"), p.sedan)?;
    sc.check_param_hexes(&at("stellung_line"), &p.stellung_line)?;
    sc.check_param_hexes(&at("allied_replacement_entry"), &p.allied_replacement_entry)?;
    sc.check_param_hexes(&at("german_replacement_entry"), &p.german_replacement_entry)?;
    // 13.1: the three-step divisions are four US divisions.
    for (j, id) in p.three_step_divisions.iter().enumerate() {
        let path = at(&format!("three_step_divisions[{j}]"));
        sc.check_param_unit(&path, id, ALLIES)?;
        if p.three_step_divisions[..j].contains(id) {
            return fail(path, format!("'{id}' is listed twice"));
        }
    }
    // 13.1-13.2: brigade chits are US units and never a division themselves; one
    // listed twice would be handed out twice by a breakdown.
    for (j, id) in p.brigades.iter().enumerate() {
        let path = at(&format!("brigades[{j}]"));
        sc.check_param_unit(&path, id, ALLIES)?;
        if p.brigades[..j].contains(id) {
            return fail(path, format!("'{id}' is listed twice"));
        }
        if p.three_step_divisions.contains(id) {
            return fail(path, format!("'{id}' is also a three-step division"));
        }
    }
    for (j, m) in p.bombardment_modifiers.iter().enumerate() {
        let path = at(&format!("bombardment_modifiers[{j}].terrain"));
        sc.check_param_terrain(&path, &m.terrain, false)?;
    }
    let lists = [
        ("trench_terrains", &p.trench_terrains),
        ("fortress_terrains", &p.fortress_terrains),
        ("forest_terrains", &p.forest_terrains),
    ];
    for (name, ids) in lists {
        for (j, id) in ids.iter().enumerate() {
            sc.check_param_terrain(&at(&format!("{name}[{j}]")), id, false)?;
        }
    }
    sc.check_param_terrain(
        &at("fortification_terrain"),
        &p.fortification_terrain,
        false,
    )?;
    sc.check_param_terrain(&at("woods_terrain"), &p.woods_terrain, false)?;
    if sc.crt.line_index(&p.lost_battalion_line).is_none() {
        return fail(
            at("lost_battalion_line"),
            format!("unknown CRT line '{}'", p.lost_battalion_line),
        );
    }
    if p.artillery.len() > sc.data.turns.len() {
        return fail(
            at("artillery"),
            format!(
                "{} entries for {} turns",
                p.artillery.len(),
                sc.data.turns.len()
            ),
        );
    }
    Ok(())
}

/// Whether a hex carries unbreached German works (14.2, 17.6).
pub fn works_intact(sc: &Scenario, s: &State, hex: u16) -> bool {
    // The works mask is empty unless the scenario uses these rules.
    sc.hexes[hex as usize].terrain & sc.masks.works != 0 && !s.ex.breached.contains(&sc.hex_at(hex))
}

/// 14.2: Allied ZOC does not extend into an unbreached Stellung, 2nd Tier Trench or
/// Fortifications hex.
pub(crate) fn zoc_blocked_into(sc: &Scenario, s: &State, zoc_side: Side, hex: u16) -> bool {
    zoc_side == ALLIES && works_intact(sc, s, hex)
}

/// 14.3: Allied units pay +1 MP to enter a Fortification hex.
pub(crate) fn extra_enter_cost(sc: &Scenario, side: Side, to: u16) -> Mp {
    match params(sc) {
        Some(_) if side == ALLIES => {
            if sc.hexes[to as usize].terrain & sc.masks.allied_plus_one != 0 {
                Mp::whole(1)
            } else {
                Mp::ZERO
            }
        }
        _ => Mp::ZERO,
    }
}

/// 14.2: whether in-hex terrain `t` of `hex` counts for a defender of `side`: the
/// works count only for German defenders and only while unbreached.
pub(crate) fn terrain_counts(sc: &Scenario, s: &State, hex: u16, t: usize, side: Side) -> bool {
    if params(sc).is_none() {
        return true;
    }
    if sc.masks.works & (1 << t) == 0 {
        return true;
    }
    side == GERMANS && !s.ex.breached.contains(&sc.hex_at(hex))
}

fn is_brigade(sc: &Scenario, unit: usize) -> bool {
    params(sc).is_some_and(|p| p.brigades.contains(&sc.units[unit].data.id))
}

/// 13.2: two or three brigades may share a hex (never with a division).
pub(crate) fn may_stack(sc: &Scenario, s: &State, unit: usize, hex: crate::fm::hex::Hex) -> bool {
    if !is_brigade(sc, unit) {
        return false;
    }
    let others: Vec<usize> = s.units_at(hex).into_iter().filter(|&o| o != unit).collect();
    !others.is_empty()
        && others.len() < 3
        && others
            .iter()
            .all(|&o| is_brigade(sc, o) && sc.units[o].data.side == sc.units[unit].data.side)
}

fn free_brigades(sc: &Scenario, s: &State) -> Vec<usize> {
    let Some(p) = params(sc) else {
        return Vec::new();
    };
    p.brigades
        .iter()
        .filter_map(|b| sc.unit_index(b).map(|i| i as usize))
        .filter(|&i| matches!(s.units[i].loc, Location::OffMap | Location::Eliminated))
        .collect()
}

/// 13.1: an eliminated three-step division leaves a brigade chit in its hex.
pub(crate) fn after_elimination(ctx: &mut Ctx, unit: usize, hex: Option<Hex>) {
    let Some(p) = params(ctx.sc) else { return };
    let Some(hex) = hex else { return };
    if !p.three_step_divisions.contains(&ctx.sc.units[unit].data.id) {
        return;
    }
    if let Some(&b) = free_brigades(ctx.sc, &ctx.s).first() {
        let id = ctx.s.units.id(b).clone();
        ctx.emit(Event::BrigadePlaced { unit: id, hex });
    }
}

/// Phase start: 11.3 the Allied replacement of each Allied movement phase.
pub(crate) fn on_phase_start(ctx: &mut Ctx, side: Side, phase: Phase) {
    if params(ctx.sc).is_some() && side == ALLIES && phase == Phase::Movement {
        ctx.emit(Event::ReplacementAvailable { side });
    }
}

fn require(ctx: &Ctx, rule: &str, what: &str) -> Result<(), RuleError> {
    if params(ctx.sc).is_none() {
        return refuse(
            rule,
            format!("{what} exists only under the Meuse Argonne rules"),
        );
    }
    Ok(())
}

fn movement_phase(ctx: &Ctx, rule: &str) -> Result<(), RuleError> {
    if ctx.s.phase != Phase::Movement {
        return refuse(
            rule,
            format!(
                "only in the owner's Movement Phase, not the {}",
                ctx.s.phase
            ),
        );
    }
    Ok(())
}

fn in_forest(sc: &Scenario, hex: Hex) -> bool {
    sc.hex_index(hex)
        .is_some_and(|h| sc.hexes[h as usize].terrain & sc.masks.forest != 0)
}

/// 11.3 / 11.6: which hexes a replacement of `side` may arrive on now.
pub(crate) fn replacement_hexes(sc: &Scenario, s: &State, side: Side) -> Vec<Hex> {
    let Some(p) = params(sc) else {
        return Vec::new();
    };
    let entry = if side == ALLIES {
        &p.allied_replacement_entry
    } else {
        &p.german_replacement_entry
    };
    let allied_zoc = if side == GERMANS {
        crate::fm::zoc::ezoc_map(sc, s, GERMANS)
    } else {
        Vec::new()
    };
    entry
        .iter()
        .copied()
        .filter(|h| s.units_at(*h).is_empty())
        .filter(|h| side == ALLIES || sc.hex_index(*h).is_some_and(|i| !allied_zoc[i as usize]))
        .filter(|h| {
            sc.hex_index(*h)
                .is_some_and(|i| crate::fm::movement::enter_cost(sc, 0, 0, i).is_some())
        })
        .collect()
}

/// 11.3 / 11.6: units that a replacement may bring back.
pub(crate) fn replaceable(sc: &Scenario, s: &State, side: Side) -> Vec<usize> {
    let Some(p) = params(sc) else {
        return Vec::new();
    };
    let chits_off = free_brigades(sc, s).len();
    (0..s.units.len())
        .filter(|&i| {
            let d = &sc.units[i].data;
            d.side == side
                && s.units[i].loc == Location::Eliminated
                && !p.brigades.contains(&d.id)
                && (!s.ex.broken_down.contains(&d.id) || chits_off >= 3)
        })
        .collect()
}

fn replacement_open(ctx: &Ctx, side: Side) -> Result<(), RuleError> {
    let rule = if side == ALLIES { "11.3" } else { "11.6" };
    if *ctx.s.ex.replacement_used.get(side) {
        return refuse(
            rule,
            if side == ALLIES {
                "the Allied replacement of this movement phase is spent"
            } else {
                "the single German replacement has been used"
            },
        );
    }
    Ok(())
}

/// 11.3 / 11.6: bring an eliminated unit back.
pub(crate) fn replace(ctx: &mut Ctx, unit: &UnitId, hex: Hex) -> Result<(), RuleError> {
    require(ctx, "11.3", "replacement")?;
    let side = ctx.s.active;
    let rule = if side == ALLIES { "11.3" } else { "11.6" };
    movement_phase(ctx, rule)?;
    replacement_open(ctx, side)?;
    let i = ctx.unit(unit)?;
    let p = params(ctx.sc).expect("meuse");
    if ctx.sc.units[i].data.side != side {
        return refuse(rule, format!("{unit} belongs to the other side"));
    }
    if p.brigades.contains(unit) {
        return refuse("11.3", "brigade chits are never received as replacements");
    }
    if ctx.s.units[i].loc != Location::Eliminated {
        return refuse(rule, format!("{unit} is not eliminated"));
    }
    if !replaceable(ctx.sc, &ctx.s, side).contains(&i) {
        return refuse(
            "13.2",
            format!("{unit} was broken down: it returns only with three brigade chits off the map"),
        );
    }
    if !replacement_hexes(ctx.sc, &ctx.s, side).contains(&hex) {
        return refuse(
            rule,
            if side == ALLIES {
                format!("{hex} is not a vacant map-edge hex south or west of the southernmost Stellung line")
            } else {
                format!("{hex} is not a vacant north or east edge hex free of Allied units and ZOC")
            },
        );
    }
    let max = ctx.sc.units[i].max_steps();
    let steps = if side == GERMANS || p.three_step_divisions.contains(unit) {
        max.saturating_sub(1).max(1)
    } else {
        max
    };
    ctx.emit(Event::UnitReplaced {
        unit: unit.clone(),
        hex,
        steps,
    });
    Ok(())
}

/// 11.3 / 11.6: rebuild depleted units.
pub(crate) fn rebuild(ctx: &mut Ctx, units: &[UnitId]) -> Result<(), RuleError> {
    require(ctx, "11.3", "rebuilding")?;
    let side = ctx.s.active;
    let rule = if side == ALLIES { "11.3" } else { "11.6" };
    movement_phase(ctx, rule)?;
    replacement_open(ctx, side)?;
    let max_units = if side == ALLIES { 2 } else { 1 };
    if units.is_empty() || units.len() > max_units {
        return refuse(
            rule,
            format!(
                "a replacement rebuilds 1 to {max_units} depleted unit(s), not {}",
                units.len()
            ),
        );
    }
    crate::fm::combat::rebuild_units(ctx, units, rule, |ctx, i, h| {
        if in_forest(ctx.sc, h) {
            return refuse(
                rule,
                format!(
                    "{} is in a forest hex ({h}) and cannot be rebuilt there",
                    ctx.s.units.id(i)
                ),
            );
        }
        Ok(())
    })
}

/// 13.2 "at the beginning of any US movement phase" (R-MA-13.2a): the first Allied
/// unit that has already moved this phase, if any. A move, a reinforcement's entry (its
/// first move) and a replacement's arrival (it counts as having moved, R-MA-11.3a) all
/// mark a unit as moved; a rebuild, an aircraft placement or another breakdown do not.
/// The movement phase opens the player turn, so a `moved` mark is from this phase.
fn allied_unit_moved(sc: &Scenario, s: &State) -> Option<UnitId> {
    s.units
        .iter()
        .enumerate()
        .find(|(i, u)| sc.units[*i].data.side == ALLIES && u.moved)
        .map(|(i, _)| s.units.id(i).clone())
}

/// 13.2: voluntary breakdown of a three-step division.
pub(crate) fn break_down(ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
    require(ctx, "13.2", "brigade breakdown")?;
    let p = params(ctx.sc).expect("meuse");
    movement_phase(ctx, "13.2")?;
    let i = ctx.unit(unit)?;
    if ctx.s.active != ALLIES || ctx.sc.units[i].data.side != ALLIES {
        return refuse(
            "13.2",
            "only the Allied player breaks down divisions, in his movement phase",
        );
    }
    if !p.three_step_divisions.contains(unit) {
        return refuse("13.2", format!("{unit} is not a three-step division"));
    }
    // "(including the phase of arrival)": a division due as a reinforcement may break
    // down at the beginning of the phase, before it enters (its entry is a move); its
    // brigades then enter in its place (R-MA-13.2a).
    let hex = match ctx.s.units[i].loc {
        Location::Map(h) => Some(h),
        Location::Arriving => None,
        _ => {
            return refuse(
                "13.2",
                format!("{unit} is neither on the map nor arriving as a reinforcement"),
            )
        }
    };
    if let Some(m) = allied_unit_moved(ctx.sc, &ctx.s) {
        return refuse(
            "13.2",
            format!("{m} has already moved this phase: breakdown happens at the beginning of the movement phase, before any Allied unit moves"),
        );
    }
    let want = if ctx.s.units[i].steps >= ctx.sc.units[i].max_steps() {
        3
    } else {
        2
    };
    let free = free_brigades(ctx.sc, &ctx.s);
    if free.is_empty() {
        return refuse("13.2", "no brigade chit is available");
    }
    let brigades: Vec<UnitId> = free
        .iter()
        .take(want)
        .map(|&b| ctx.s.units.id(b).clone())
        .collect();
    ctx.emit(Event::DivisionBrokenDown {
        unit: unit.clone(),
        hex,
        brigades,
    });
    Ok(())
}

/// 13.2: the unit whose reinforcement entry hexes `unit` uses: for a brigade of a
/// division broken down before it entered, that division; otherwise `unit` itself.
pub(crate) fn enters_as(sc: &Scenario, s: &State, unit: usize) -> usize {
    s.ex.arriving_brigades
        .get(s.units.id(unit))
        .and_then(|d| sc.unit_index(d))
        .map_or(unit, |d| d as usize)
}

/// 17.3: whether the phasing side observes `hex`.
pub fn observed(sc: &Scenario, s: &State, side: Side, hex: Hex) -> bool {
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
    side == ALLIES
        && s.ex
            .aircraft
            .iter()
            .any(|a| *a == hex || l.adjacent(*a, hex))
        && own.iter().any(|h| l.distance(*h, hex) <= 3)
}

/// Artillery Bombardment Modifiers: the highest terrain modifier of a hex (breached
/// works no longer count).
fn terrain_modifier(sc: &Scenario, s: &State, hex: u16) -> i8 {
    let p = params(sc).expect("meuse");
    let works = sc.masks.works;
    let breached = s.ex.breached.contains(&sc.hex_at(hex));
    let mask = sc.hexes[hex as usize].terrain;
    sc.data
        .terrain
        .hex
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .filter(|(i, _)| !(breached && works & (1 << i) != 0))
        .filter_map(|(_, t)| {
            p.bombardment_modifiers
                .iter()
                .find(|m| m.terrain == t.id)
                .map(|m| m.modifier)
        })
        .max()
        .unwrap_or(0)
        .max(0)
}

/// The modifier of one bombardment die on `hex` by the phasing side (Artillery
/// Bombardment Modifiers): terrain, gas −1, an Allied aircraft on the hex −1, German
/// fire +1.
pub(crate) fn bombardment_modifier(sc: &Scenario, s: &State, hex: u16, gas: bool) -> i8 {
    let mut m = terrain_modifier(sc, s, hex);
    if gas {
        m -= 1;
    }
    if s.active == ALLIES && s.ex.aircraft.contains(&sc.hex_at(hex)) {
        m -= 1;
    }
    if s.active == GERMANS {
        m += 1;
    }
    m
}

/// 18.1: whether to offer the Lost Battalion before this attack's roll.
pub(crate) fn offer_lost_battalion(ctx: &mut Ctx) -> bool {
    if params(ctx.sc).is_none() {
        return false;
    }
    let Some(c) = &ctx.s.combat else { return false };
    if c.kind != CombatKind::Ground
        || c.lost_battalion.is_some()
        || ctx.s.ex.lost_battalion_used
        || ctx.s.active != ALLIES
    {
        return false;
    }
    let Some(hi) = ctx.sc.hex_index(c.hex) else {
        return false;
    };
    if ctx.sc.hexes[hi as usize].terrain & ctx.sc.masks.woods == 0 {
        return false;
    }
    ctx.emit(Event::LostBattalionOffered);
    true
}

/// 18.1: the German decision.
pub(crate) fn lost_battalion(ctx: &mut Ctx, declare: bool) -> Result<(), RuleError> {
    match ctx.s.combat.as_ref().map(|c| &c.stage) {
        Some(CombatStage::LostBattalion) => {}
        _ => return refuse("18.1", "the Lost Battalion may be declared only after an Allied attack on a woods hex, before the roll"),
    }
    ctx.emit(Event::LostBattalionDeclared { declared: declare });
    crate::fm::combat::proceed(ctx);
    Ok(())
}

/// 18.1: the line forced on this combat, if any.
pub(crate) fn forced_line(sc: &Scenario, s: &State) -> Option<usize> {
    let p = params(sc)?;
    if s.combat.as_ref()?.lost_battalion != Some(true) {
        return None;
    }
    sc.crt
        .lines
        .iter()
        .position(|l| l.id == p.lost_battalion_line)
}

/// 18.2: German defenders may retreat one hex instead of two or three.
pub(crate) fn may_downgrade(sc: &Scenario, s: &State, unit: usize, hexes: u8) -> bool {
    params(sc).is_some()
        && hexes >= 2
        && sc.units[unit].data.side == GERMANS
        && s.active == ALLIES
        && s.combat
            .as_ref()
            .is_some_and(|c| c.kind == CombatKind::Ground)
}

/// 19.5: German reserves may not be placed next to any unit.
pub(crate) fn check_placement(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
) -> Result<(), RuleError> {
    if params(sc).is_none() {
        return Ok(());
    }
    if matches!(&sc.units[unit].data.start, crate::fm::scenario::StartData::Zone(z) if z == "german-reserve")
    {
        let l = sc.layout();
        if s.units
            .iter()
            .any(|u| u.hex().is_some_and(|h| l.adjacent(h, hex)))
        {
            return refuse(
                "19.5",
                format!("German reserves may not be placed adjacent to any unit ({hex})"),
            );
        }
    }
    Ok(())
}

/// Commands besides moves the phasing side can give in its movement phase.
pub(crate) fn movement_extras(sc: &Scenario, s: &State) -> Vec<crate::fm::command::Command> {
    use crate::fm::command::Command;
    let mut out = Vec::new();
    let Some(p) = params(sc) else { return out };
    let side = s.active;
    if s.phase != Phase::Movement {
        return out;
    }
    if !*s.ex.replacement_used.get(side) {
        let units = replaceable(sc, s, side);
        // The hexes only when someone can come back: they need the enemy ZOC map.
        let hexes = if units.is_empty() {
            Vec::new()
        } else {
            replacement_hexes(sc, s, side)
        };
        for i in units {
            for h in &hexes {
                out.push(Command::Replace {
                    unit: s.units.id(i).clone(),
                    hex: *h,
                    full: false,
                });
            }
        }
        let depleted: Vec<usize> = (0..s.units.len())
            .filter(|&i| {
                sc.units[i].data.side == side
                    && s.units[i].hex().is_some_and(|h| !in_forest(sc, h))
                    && s.units[i].steps < sc.units[i].max_steps()
            })
            .collect();
        for (k, &a) in depleted.iter().enumerate() {
            out.push(Command::Rebuild {
                units: vec![s.units.id(a).clone()],
            });
            if side == ALLIES {
                for &b in &depleted[k + 1..] {
                    out.push(Command::Rebuild {
                        units: vec![s.units.id(a).clone(), s.units.id(b).clone()],
                    });
                }
            }
        }
    }
    if side == ALLIES && !free_brigades(sc, s).is_empty() && allied_unit_moved(sc, s).is_none() {
        for d in &p.three_step_divisions {
            if let Some(i) = sc.unit_index(d) {
                if matches!(
                    s.units[i as usize].loc,
                    Location::Map(_) | Location::Arriving
                ) {
                    out.push(Command::BreakDown { unit: d.clone() });
                }
            }
        }
    }
    out
}

/// What Meuse Argonne's own rules add to game turn `turn` (`fm::length`): the
/// artillery, its aircraft and its retreats (16.0, 17.1-17.5, `artillery`); 11.3 the
/// Allied replacement of the Allied movement phase (one `replace` or `rebuild`); 13.2
/// at most one breakdown of each three-step division in that phase (a division broken
/// down is eliminated, and one back as a replacement has moved, which ends the
/// breakdowns of the phase); 18.1 one Lost Battalion decision before each Allied
/// ground combat, at most one for each Allied unit (8.2).
pub(crate) fn turn_length(sc: &Scenario, turn: u16) -> GameLength {
    let Some(p) = params(sc) else {
        return GameLength::ZERO;
    };
    let allies = crate::fm::length::units(sc, ALLIES);
    let own = 1 + p.three_step_divisions.len() as u64 + allies;
    crate::fm::games::artillery::turn_length(sc, turn) + GameLength::commands(own)
}

/// Meuse Argonne's exclusive rules behind [`crate::fm::exclusive::ExclusiveRules`]: the
/// system rules except where 10.0-19.0 change them (works, replacements, brigades, the
/// Lost Battalion, German combat experience, and the WWI artillery of `artillery`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeuseArgonne;

impl crate::fm::exclusive::ExclusiveRules for MeuseArgonne {
    fn prepare(&self, sc: &mut Scenario) -> Result<(), ScenarioError> {
        let RuleSet::MeuseArgonne(p) = &sc.data.rules else {
            return Ok(());
        };
        let p = p.clone();
        sc.masks.works = sc.hex_terrain_mask(&p.trench_terrains);
        sc.masks.fortress = sc.hex_terrain_mask(&p.fortress_terrains);
        sc.masks.forest = sc.hex_terrain_mask(&p.forest_terrains);
        sc.masks.woods = sc.hex_terrain_mask(std::slice::from_ref(&p.woods_terrain));
        sc.masks.allied_plus_one =
            sc.hex_terrain_mask(std::slice::from_ref(&p.fortification_terrain));
        validate(sc, &p)
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
    fn may_stack(&self, sc: &Scenario, s: &State, i: usize, hex: Hex) -> bool {
        may_stack(sc, s, i, hex)
    }
    fn enter_extra(&self, sc: &Scenario, side: Side, to: u16) -> Mp {
        extra_enter_cost(sc, side, to)
    }
    fn enters_as(&self, sc: &Scenario, s: &State, i: usize) -> usize {
        enters_as(sc, s, i)
    }
    fn zoc_blocked_into(&self, sc: &Scenario, s: &State, zoc_side: Side, hex: u16) -> bool {
        zoc_blocked_into(sc, s, zoc_side, hex)
    }
    fn terrain_counts(&self, sc: &Scenario, s: &State, hex: u16, t: usize, side: Side) -> bool {
        terrain_counts(sc, s, hex, t, side)
    }
    fn forced_line(&self, sc: &Scenario, s: &State) -> Option<usize> {
        forced_line(sc, s)
    }
    fn before_roll(&self, ctx: &mut Ctx) -> bool {
        offer_lost_battalion(ctx)
    }
    fn after_elimination(&self, ctx: &mut Ctx, i: usize, hex: Option<Hex>) {
        after_elimination(ctx, i, hex)
    }
    fn artillery_replaces_bombardment(&self) -> bool {
        true
    }
    fn may_downgrade(&self, sc: &Scenario, s: &State, i: usize, hexes: u8) -> bool {
        may_downgrade(sc, s, i, hexes)
    }
    fn on_turn_start(&self, ctx: &mut Ctx) {
        crate::fm::games::artillery::on_turn_start(ctx)
    }
    fn turn_length(&self, sc: &Scenario, turn: u16) -> GameLength {
        turn_length(sc, turn)
    }
    fn game_length(&self, sc: &Scenario) -> GameLength {
        // 11.6: the single German replacement of the game (`replace` or `rebuild`).
        GameLength::commands(u64::from(params(sc).is_some()))
    }
    fn on_phase_start(&self, ctx: &mut Ctx, side: Side, phase: Phase) {
        on_phase_start(ctx, side, phase)
    }
    fn fire_artillery(&self, ctx: &mut Ctx) -> bool {
        crate::fm::games::artillery::fire(ctx)
    }
    fn phase_commands(&self, sc: &Scenario, s: &State) -> Vec<crate::fm::command::Command> {
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
    fn phase_command(
        &self,
        sc: &Scenario,
        s: &State,
        k: usize,
    ) -> Option<crate::fm::command::Command> {
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
    fn lost_battalion(&self, ctx: &mut Ctx, declare: bool) -> Result<(), RuleError> {
        lost_battalion(ctx, declare)
    }
    fn replace(&self, ctx: &mut Ctx, unit: &UnitId, hex: Hex, full: bool) -> Result<(), RuleError> {
        if full {
            return refuse(
                "11.3",
                "replacements arrive at the strength the rules fix (no `full` choice)",
            );
        }
        replace(ctx, unit, hex)
    }
    fn rebuild(&self, ctx: &mut Ctx, units: &[UnitId]) -> Result<(), RuleError> {
        rebuild(ctx, units)
    }
    fn break_down(&self, ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
        break_down(ctx, unit)
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
}
