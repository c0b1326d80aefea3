//! Suez 1916: The Ottomans Strike — exclusive rules 10.0-20.0.
//!
//! Side `a` is the Central Powers (Ottoman, German and Austro-Hungarian units), the first
//! player in each game turn (10.2); side `b` is the British. The parameters are read from
//! `"rules": {"suez-1916": {...}}` in fm-core/scenarios/suez-1916.json (written by
//! scripts/gen_suez_1916.py); the data covers the map and the Terrain Effects Chart, the
//! Suez CRT lines, the orders of battle (20.0), the turn track with its three night turns
//! (10.4, 19.0) and the skipped mobile phases (10.3).
//!
//! The hooks here cover 10.3 and the CRT key (A3/D3 cost a step after the retreat, on
//! D2/A1/A2 one unit's step instead of the whole group's retreat, advances of one hex
//! for leg units, the owner picks Ex losses), 11.3 British activation, 11.5 Central
//! Powers reinforcements, 12.1-12.4 victory, 13.1 Kress, 13.3 the armored train, 14.1 the
//! canal crossing, 14.2 trenches (+1 MP even along a track, owner-only line), 15.0
//! surprise, 16.0 British rail movement, 17.0 stacking, 18.0 fire support (markers from a
//! pool once a day, placed face down at the start of a combat phase with the attacks
//! they support, resolved unit by unit on the CRT by strength alone, the air unit) and
//! 19.0 night. Column shifts (Kress, surprise, night) are applied in `combat`.

use crate::error::{refuse, RuleError};
use crate::fm::command::Command;
use crate::fm::crt::CrtResult;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::hex::Hex;
use crate::fm::scenario::{Phase, RuleSet, Scenario, ScenarioError, StartData, UnitKind, NO_HEX};
use crate::fm::state::{ExclusiveState, Location, State};
use crate::ids::{Side, SidePair, UnitId};
use crate::query::GameLength;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A victory hex of 12.4 and who controls it at the start of the game.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryHex {
    /// The printed hex number (12.4).
    pub hex: Hex,
    /// The printed location ("Romani").
    pub name: String,
    /// Victory points the Central Powers score for it at the end (12.3, 12.4).
    pub vp: u8,
    /// 12.4: controlled at the start by the British if west of Katia (exclusive), by the
    /// Central Powers if east of Katia (inclusive).
    pub start_control: Side,
}

/// One line of the 12.3 victory-on-points table.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultLevel {
    /// Lowest total VP of the line.
    pub min_vp: u8,
    /// Highest total VP of the line; `None` for "16+".
    #[serde(default)]
    pub max_vp: Option<u8>,
    /// The printed result ("Central Powers decisive victory", "Draw").
    pub result: String,
    /// The side that wins at this level; `None` for the draw.
    #[serde(default)]
    pub winner: Option<Side>,
}

/// A fire support marker (11.2, 11.4, 18.3) or the air unit (18.5).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireSupportMarker {
    /// The kind printed in the set-up ("German", "Ottoman", "Austro-Hungarian", "British").
    pub name: String,
    /// Its fire strength (the "+" value, 18.4).
    pub strength: u8,
    /// "printed", or "stand-in: …" when the set-up does not print the value.
    pub provenance: String,
}

/// A regiment of the 27th Division: the battalions that arrive together (11.5).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Regiment {
    /// The regiment ("79th Regiment").
    pub name: String,
    /// Its three battalions (unit ids; they start off the map).
    pub units: Vec<UnitId>,
}

/// Parameters of the Suez 1916 exclusive rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suez1916Params {
    /// 12.4: the victory hexes, their VP and who controls each at the start.
    pub victory_hexes: Vec<VictoryHex>,
    /// 12.3: the victory levels by total Central Powers VP, from the highest.
    pub result_levels: Vec<ResultLevel>,
    /// 12.1: the tag of Central Powers engineer units (Pioneers, Composite Engineers),
    /// whose presence adjacent to the canal at the end of a British turn wins.
    pub engineer_tag: String,
    /// 11.3: Pelusium Station (1532); British units set up on and west of it start
    /// un-activated.
    pub pelusium_station: Hex,
    /// 11.3: the first British turn with activation rolls (turn 2, 4 August Morning).
    pub activation_first_turn: u16,
    /// 11.3: an un-activated unit activates on a die roll up to this (1-2).
    pub activation_roll_max: u8,
    /// 11.3: a Central Powers unit moving within this many hexes (4: three intervening
    /// hexes) activates the unit at once.
    pub automatic_activation_range: u8,
    /// 11.3 Additional Fire Support: each activation of a unit of this formation adds one
    /// set-aside British marker to the pool.
    pub activation_support_formation: String,
    /// 11.5: reinforcements are rolled for while a Central Powers unit holds a railroad
    /// hex with a town or village on or west of this hex column (20).
    pub reinforcement_column: u8,
    /// 11.5: a regiment of the 27th Division arrives on a die roll up to this (1-3).
    pub reinforcement_roll_max: u8,
    /// 11.4, 11.5: the 27th Division's regiments in the Central Powers Reinforcements box.
    pub reinforcement_regiments: Vec<Regiment>,
    /// 11.5: the east map edge hexes where an arriving regiment enters.
    pub reinforcement_entry: Vec<Hex>,
    /// 11.5: fire support markers moved from the Reinforcements box to the pool for each
    /// regiment that arrives (2).
    pub reinforcement_markers_per_regiment: u8,
    /// 11.4: the Central Powers set up on or east of this hex column (26).
    pub central_powers_setup_column: u8,
    /// 13.1: the Kress counter, held off the map (not a unit).
    pub kress: String,
    /// 13.1: Kress shifts one attack per Central Powers combat phase this many columns
    /// right (1).
    pub kress_shift: u8,
    /// 13.2: the tag of the three-step British infantry brigade groups.
    pub brigade_group_tag: String,
    /// 13.2: the reduction counters set aside for the brigade groups (14), one each.
    pub reduction_counters: u8,
    /// 13.3: the tag of the armored train (moves only along contiguous railroad hexes,
    /// enters and exits EZOC freely).
    pub armored_train_tag: String,
    /// 13.3, 16.0: every railroad hex.
    pub rail_hexes: Vec<Hex>,
    /// 13.3, 16.0: the railroad hexside feature id.
    pub railroad_hexside: String,
    /// Terrain Effects Chart: the track hexside feature id (½ MP; ⅓ MP for units with
    /// `british_foot_tag`).
    pub track_hexside: String,
    /// Terrain Effects Chart: the tag of British infantry and machinegun units (⅓ MP
    /// along tracks).
    pub british_foot_tag: String,
    /// 14.1: the Suez Canal hexside feature id (no crossing but at `canal_crossing`, no
    /// ZOC across, no combat across).
    pub canal_hexside: String,
    /// 14.1: the only crossing, 0139-0239: British units only, by spending the entire MA,
    /// starting in one hex and ending in the other.
    pub canal_crossing: [Hex; 2],
    /// Terrain Effects Chart: the All-Sea/-Lake water hexside feature id (no crossing, no
    /// ZOC, no combat across).
    pub water_hexside: String,
    /// 14.2: the British trench hexside feature id (+1 MP to cross; its CRT line only when
    /// every attacker crosses one; a benefit to British units only).
    pub trench_hexside: String,
    /// 14.2: trenches benefit only units of this side (the British).
    pub trench_owner: Side,
    /// 15.1: the Zero Hour turn (1).
    pub zero_hour_turn: u16,
    /// 15.1: Central Powers movement factors are multiplied by this in the Zero Hour turn
    /// (2).
    pub surprise_movement_factor: u8,
    /// 15.1: Central Powers attacks in the Zero Hour combat phase shift this many columns
    /// right (1), cumulative with Kress.
    pub surprise_shift: u8,
    /// 16.0: British units moved by rail per movement phase, besides the armored train
    /// (1).
    pub rail_moves_per_phase: u8,
    /// 17.1: units per hex (Central Powers `a` 3 from any formation; British `b` 2).
    pub stacking_limit: SidePair<u8>,
    /// 17.1: British units stacked together must be of one division or of this formation.
    pub reserve_formation: String,
    /// 17.1: no stacking in marsh: the marsh terrain id.
    pub marsh_terrain: String,
    /// 11.5, 12.4: the town and village terrain ids.
    pub town_village_terrains: Vec<String>,
    /// 18.1: fire support markers per bombarded hex (Central Powers `a` 2, British `b` 1).
    pub markers_per_hex: SidePair<u8>,
    /// 18.2: observation range (Central Powers `a` 4, British `b` 5).
    pub observation_range: SidePair<u8>,
    /// 18.2: observation range from a hill hex (Central Powers `a` 6, British `b` 7).
    pub hill_observation_range: SidePair<u8>,
    /// 18.2: the terrains that are hill hexes for observation (Hill or Ridge, Terrain
    /// Effects Chart "see 18.2").
    pub hill_terrains: Vec<String>,
    /// 11.2, 18.3: the British Fire Support Pool at the start.
    pub british_pool: Vec<FireSupportMarker>,
    /// 11.2, 11.3: the British markers set aside, added one at a time as units of the
    /// 42nd Division activate.
    pub british_set_aside: Vec<FireSupportMarker>,
    /// 11.4, 18.3: the Central Powers Fire Support Pool at the start.
    pub central_powers_pool: Vec<FireSupportMarker>,
    /// 11.4, 11.5: the Central Powers markers in the Reinforcements box.
    pub central_powers_reinforcement_markers: Vec<FireSupportMarker>,
    /// 11.4, 18.5: the German air unit in the Central Powers Air box (a marker usable every
    /// turn, strength known to both players).
    pub air_unit: FireSupportMarker,
    /// 18.3: a used marker is set aside until the morning turn of the following day: the
    /// Morning turns (2, 5, 8), when the set-aside markers return to the pool.
    pub marker_return_turns: Vec<u16>,
    /// 19.0: British attacks on night turns shift this many columns left (1).
    pub night_shift: u8,
    /// 10.3 (7.9): the longest advance after combat of a leg unit (1 hex).
    pub leg_advance_limit: u8,
}

/// The Central Powers side: the first player (10.2).
pub const CENTRAL_POWERS: Side = Side::A;
/// The British side.
pub const BRITISH: Side = Side::B;

/// The Suez 1916 parameters, if the scenario uses those rules.
pub fn params(sc: &Scenario) -> Option<&Suez1916Params> {
    match &sc.data.rules {
        RuleSet::Suez1916(p) => Some(p),
        _ => None,
    }
}

/// Whether the current turn is a night turn (19.0).
pub fn is_night(sc: &Scenario, s: &State) -> bool {
    params(sc).is_some() && sc.is_night_turn(s.turn)
}

fn zero_hour(p: &Suez1916Params, s: &State) -> bool {
    s.turn == p.zero_hour_turn
}

/// 12.4 start control and the 11.2 / 11.4 fire support pools, for the initial state.
pub(crate) fn initial(
    p: &Suez1916Params,
    control: &mut BTreeMap<Hex, Side>,
    ex: &mut ExclusiveState,
) {
    for v in &p.victory_hexes {
        control.insert(v.hex, v.start_control);
    }
    let strengths = |v: &[FireSupportMarker]| {
        let mut out: Vec<u8> = v.iter().map(|m| m.strength).collect();
        out.sort_unstable();
        out
    };
    ex.pool = SidePair::new(
        strengths(&p.central_powers_pool),
        strengths(&p.british_pool),
    );
    ex.reserve = SidePair::new(
        strengths(&p.central_powers_reinforcement_markers),
        strengths(&p.british_set_aside),
    );
}

/// Checks the parameters against the scenario (hexes on the map, known terrain, unit
/// ids of the regiments).
pub(crate) fn validate(sc: &Scenario, p: &Suez1916Params) -> Result<(), ScenarioError> {
    let fail = |path: &str, message: String| {
        Err(ScenarioError {
            path: format!("rules.suez-1916.{path}"),
            message,
        })
    };
    let at = |name: &str| format!("rules.suez-1916.{name}");
    let victory: Vec<Hex> = p.victory_hexes.iter().map(|v| v.hex).collect();
    sc.check_param_hexes(&at("victory_hexes"), &victory)?;
    sc.check_param_hex(&at("pelusium_station"), p.pelusium_station)?;
    sc.check_param_hexes(&at("canal_crossing"), &p.canal_crossing)?;
    sc.check_param_hexes(&at("rail_hexes"), &p.rail_hexes)?;
    sc.check_param_hexes(&at("reinforcement_entry"), &p.reinforcement_entry)?;
    sc.check_param_terrain(&at("marsh_terrain"), &p.marsh_terrain, false)?;
    for t in &p.hill_terrains {
        sc.check_param_terrain(&at("hill_terrains"), t, false)?;
    }
    for t in &p.town_village_terrains {
        sc.check_param_terrain(&at("town_village_terrains"), t, false)?;
    }
    sc.check_param_terrain(&at("canal_hexside"), &p.canal_hexside, true)?;
    sc.check_param_terrain(&at("railroad_hexside"), &p.railroad_hexside, true)?;
    sc.check_param_terrain(&at("trench_hexside"), &p.trench_hexside, true)?;
    for (j, r) in p.reinforcement_regiments.iter().enumerate() {
        for u in &r.units {
            match sc.unit_index(u) {
                Some(i) if sc.units[i as usize].data.side == CENTRAL_POWERS => {}
                _ => {
                    return fail(
                        &format!("reinforcement_regiments[{j}]"),
                        format!("'{u}' is not a Central Powers unit of the scenario"),
                    )
                }
            }
        }
    }
    // 13.3: the armored train moves only along the railroad, so it starts on it.
    for (k, u) in sc.units.iter().enumerate() {
        if !has_tag(sc, k, &p.armored_train_tag) {
            continue;
        }
        match &u.data.start {
            StartData::Hex(h) if !p.rail_hexes.contains(h) => {
                return Err(ScenarioError {
                    path: format!("units[{k}].start.hex"),
                    message: format!(
                        "{h} is not a railroad hex: the armored train starts on the railroad (13.3)"
                    ),
                })
            }
            StartData::Zone(z) if !sc.zones[z].iter().any(|&x| p.rail_hexes.contains(&sc.hex_at(x))) => {
                return Err(ScenarioError {
                    path: format!("units[{k}].start.zone"),
                    message: format!(
                        "zone '{z}' has no railroad hex: the armored train sets up on the railroad (13.3)"
                    ),
                })
            }
            _ => {}
        }
    }
    // Fire support listings and draws scan the pools: bounded like a side's mix.
    let pools = [
        ("british_pool", &p.british_pool),
        ("british_set_aside", &p.british_set_aside),
        ("central_powers_pool", &p.central_powers_pool),
        (
            "central_powers_reinforcement_markers",
            &p.central_powers_reinforcement_markers,
        ),
    ];
    for (name, markers) in pools {
        if markers.len() > crate::fm::scenario::MAX_MARKERS {
            return fail(
                name,
                format!(
                    "{} markers, more than the {} a marker list may have",
                    markers.len(),
                    crate::fm::scenario::MAX_MARKERS
                ),
            );
        }
    }
    if p.result_levels.is_empty() {
        return fail("result_levels", "the 12.3 table is empty".into());
    }
    if p.markers_per_hex.a == 0 || p.markers_per_hex.b == 0 {
        return fail(
            "markers_per_hex",
            "a side must be allowed one marker per hex".into(),
        );
    }
    Ok(())
}

fn has_side(sc: &Scenario, from: u16, d: usize, mask: u64) -> bool {
    sc.hexes[from as usize].sides[d] & mask != 0
}

fn formation(sc: &Scenario, i: usize) -> &str {
    &sc.units[i].data.formation
}

fn has_tag(sc: &Scenario, i: usize, tag: &str) -> bool {
    sc.units[i].data.tags.iter().any(|t| t == tag)
}

/// 13.3: whether unit `i` is the armored train.
pub(crate) fn is_train(sc: &Scenario, i: usize) -> bool {
    params(sc).is_some_and(|p| has_tag(sc, i, &p.armored_train_tag))
}

// ---------------------------------------------------------------------------------
// 17.0 stacking.

/// 17.1: whether unit `unit` may end a phase in `hex` with the friendly units already
/// there: Central Powers three of any formation, British two of one division or of the
/// Reserve, never two units in marsh.
pub(crate) fn may_stack(sc: &Scenario, s: &State, unit: usize, hex: Hex) -> bool {
    let Some(p) = params(sc) else { return false };
    let side = sc.units[unit].data.side;
    let here: Vec<usize> = s.units_at(hex).into_iter().filter(|&o| o != unit).collect();
    if here.is_empty() {
        return true;
    }
    if here.iter().any(|&o| sc.units[o].data.side != side) {
        return false;
    }
    let Some(hi) = sc.hex_index(hex) else {
        return false;
    };
    if sc.hexes[hi as usize].terrain & sc.masks.marsh != 0 {
        return false;
    }
    if here.len() + 1 > *p.stacking_limit.get(side) as usize {
        return false;
    }
    side != BRITISH
        || here
            .iter()
            .all(|&o| formation(sc, o) == formation(sc, unit))
}

/// 17.1 at set-up: how many units of `side` hex `hex` can take at most (`None`
/// outside these rules: one unit a hex). British stacks must also be of one division,
/// which depends on the units and is left to the placement checks.
pub(crate) fn setup_room(sc: &Scenario, side: Side, hex: u16) -> Option<u8> {
    let p = params(sc)?;
    if sc.hexes[hex as usize].terrain & sc.masks.marsh != 0 {
        return Some(1);
    }
    Some((*p.stacking_limit.get(side)).max(1))
}

/// 13.3 at set-up: whether the armored train may be placed on `hex`.
pub(crate) fn train_may_set_up(sc: &Scenario, hex: Hex) -> bool {
    params(sc).is_some_and(|p| p.rail_hexes.contains(&hex))
}

/// Set-up: the armored train is placed on a railroad hex (13.3), and stacks keep 17.1.
/// A placement is also refused when it would leave another unit of the side waiting to
/// be placed with no hex of its zone to go to (single-hex zones such as Dueidar overlap
/// the trench zone), so set-up never dead-ends.
pub(crate) fn check_placement(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
) -> Result<(), RuleError> {
    let occ = crate::fm::zoc::occupancy(sc, s);
    check_placement_with(sc, s, unit, hex, &occ, &mut SetupScratch::default())
}

/// What [`check_placement`] reads of a state that no placement of one listing
/// changes, besides who stands where: the units waiting to set up, and how many open
/// hexes each zone has; each built when first needed.
#[derive(Default)]
pub(crate) struct SetupScratch {
    /// The units of `side` waiting to set up.
    waiting: Option<(Side, Vec<usize>)>,
    /// Per zone: its empty hexes that can be entered from off the map by a unit
    /// without tags.
    open: BTreeMap<String, usize>,
}

/// [`check_placement`] in a listing: `occ` is the state's occupancy
/// ([`crate::fm::zoc::occupancy`]), and `scratch` is kept between its placements.
pub(crate) fn check_placement_with(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
    occ: &[u16],
    scratch: &mut SetupScratch,
) -> Result<(), RuleError> {
    let Some(p) = params(sc) else {
        return Ok(());
    };
    let Some(hi) = sc.hex_index(hex) else {
        return basic_placement(sc, s, unit, hex);
    };
    let held = |x: u16| occ[x as usize] != u16::MAX;
    let occupied = held(hi);
    basic_placement_with(sc, s, unit, hex, occupied)?;
    let side = sc.units[unit].data.side;
    let own_zone = match &sc.units[unit].data.start {
        StartData::Zone(z) => Some(z),
        _ => None,
    };
    if !scratch.waiting.as_ref().is_some_and(|(w, _)| *w == side) {
        let all = (0..s.units.len())
            .filter(|&v| s.units[v].loc == Location::ToPlace && sc.units[v].data.side == side)
            .collect();
        scratch.waiting = Some((side, all));
    }
    let (_, all) = scratch.waiting.as_ref().expect("just set");
    let waiting: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&v| {
            v != unit
                && matches!(&sc.units[v].data.start,
                    StartData::Zone(z) if Some(z) == own_zone || sc.in_zone(z, hi))
        })
        .collect();
    if waiting.is_empty() {
        return Ok(());
    }
    // Listings ask this for every unit and hex of a zone, so the common case is kept
    // cheap: an empty, enterable hex of the zone other than `hex` is open to any
    // waiting unit but the train (entering from off the map, tags change no cost); the
    // zone's open hexes are counted once per listing.
    let enterable = |x: u16| crate::fm::movement::enter_cost(sc, 0, 0, x).is_some();
    let hex_open = !occupied && enterable(hi);
    let open = &mut scratch.open;
    let mut empty_in = |z: &str| {
        let n = match open.get(z) {
            Some(&n) => n,
            None => {
                let n = sc.zones[z]
                    .iter()
                    .filter(|&&x| !held(x) && enterable(x))
                    .count();
                open.insert(z.to_string(), n);
                n
            }
        };
        // The zone's open hexes other than `hex`.
        n > usize::from(hex_open && sc.in_zone(z, hi))
    };
    let train_bit = sc
        .tag_names
        .iter()
        .position(|t| *t == p.armored_train_tag)
        .map_or(0, |b| 1u64 << b);
    // Placing `unit` changes only `hex`: a waiting unit with another open hex of its
    // zone is unaffected, so the state is copied only for one that has none.
    let mut after: Option<State> = None;
    for v in waiting {
        let StartData::Zone(z) = &sc.units[v].data.start else {
            continue;
        };
        if empty_in(z) && sc.units[v].tags & train_bit == 0 {
            continue;
        }
        let open = |st: &State, x: u16| {
            crate::fm::movement::enter_cost(sc, sc.units[v].tags, 0, x).is_some()
                && basic_placement(sc, st, v, sc.hex_at(x)).is_ok()
        };
        if sc.zones[z].iter().any(|&x| x != hi && open(s, x)) {
            continue;
        }
        let after = after.get_or_insert_with(|| {
            let mut a = s.clone();
            a.units[unit].loc = Location::Map(hex);
            a
        });
        if !open(after, hi) {
            return refuse(
                "11.2",
                format!(
                    "placing {} in {hex} would leave {} no hex of its set-up zone",
                    s.units.id(unit),
                    s.units.id(v)
                ),
            );
        }
    }
    Ok(())
}

fn basic_placement(sc: &Scenario, s: &State, unit: usize, hex: Hex) -> Result<(), RuleError> {
    basic_placement_with(sc, s, unit, hex, s.unit_at(hex).is_some())
}

/// [`basic_placement`], knowing whether `hex` holds a unit.
fn basic_placement_with(
    sc: &Scenario,
    s: &State,
    unit: usize,
    hex: Hex,
    occupied: bool,
) -> Result<(), RuleError> {
    let Some(p) = params(sc) else { return Ok(()) };
    if is_train(sc, unit) && !p.rail_hexes.contains(&hex) {
        return refuse(
            "13.3",
            format!("{hex} is not a railroad hex: the armored train moves only by rail"),
        );
    }
    if occupied && !may_stack(sc, s, unit, hex) {
        return refuse(
            "17.1",
            format!(
                "{} may not stack in {hex} (17.1 limits)",
                sc.units[unit].data.id
            ),
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// Movement: 11.3, 13.3, 14.1, 14.2, 15.0, 16.0, 19.0.

/// The movement rules this module computes for a unit.
pub(crate) type Movement = crate::fm::exclusive::MovementRules;

/// The Suez movement rules for unit `i`, if the scenario has them.
pub(crate) fn movement(sc: &Scenario, s: &State, i: usize) -> Option<Movement> {
    let p = params(sc)?;
    let side = sc.units[i].data.side;
    let crossing = match (
        sc.hex_index(p.canal_crossing[0]),
        sc.hex_index(p.canal_crossing[1]),
    ) {
        (Some(a), Some(b)) if side == BRITISH => Some([a, b]),
        _ => None,
    };
    Some(Movement {
        crossing,
        train: is_train(sc, i),
        disengage: side == CENTRAL_POWERS && is_night(sc, s),
        factor: if side == CENTRAL_POWERS && zero_hour(p, s) {
            p.surprise_movement_factor.max(1) as u32
        } else {
            1
        },
    })
}

/// Why unit `i` may not move at all this phase under 11.3 or 15.2, if it may not.
pub(crate) fn move_refusal(sc: &Scenario, s: &State, i: usize) -> Result<(), RuleError> {
    let Some(p) = params(sc) else { return Ok(()) };
    let id = s.units.id(i);
    if sc.units[i].data.side == BRITISH {
        if zero_hour(p, s) {
            return refuse("15.2", "no British unit may move in the Zero Hour turn");
        }
        if s.ex.inactive.contains(id) {
            return refuse("11.3", format!("{id} has not been activated yet"));
        }
    }
    Ok(())
}

/// 11.5: the east-edge entry hexes of the 27th Division's battalions.
pub(crate) fn entry_hexes(sc: &Scenario, i: usize) -> Vec<u16> {
    match params(sc) {
        Some(p)
            if p.reinforcement_regiments
                .iter()
                .any(|r| r.units.contains(&sc.units[i].data.id)) =>
        {
            p.reinforcement_entry
                .iter()
                .filter_map(|h| sc.hex_index(*h))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// 16.0: whether unit `i` may use the rail movement now.
fn may_rail(sc: &Scenario, s: &State, i: usize) -> bool {
    let Some(p) = params(sc) else { return false };
    sc.units[i].data.side == BRITISH
        && s.active == BRITISH
        && s.phase == Phase::Movement
        && !is_train(sc, i)
        && s.ex.rail_moves < p.rail_moves_per_phase
        && crate::fm::movement::movable(sc, s, i)
        && s.units[i].hex().is_some_and(|h| p.rail_hexes.contains(&h))
}

/// 16.0: every hex unit `i` may reach by rail movement, with a shortest rail path.
pub(crate) fn rail_moves(sc: &Scenario, s: &State, i: usize) -> Vec<(Hex, Vec<Hex>)> {
    if !may_rail(sc, s, i) {
        return Vec::new();
    }
    let side = sc.units[i].data.side;
    let start = sc
        .hex_index(s.units[i].hex().expect("on a rail hex"))
        .expect("on map");
    let ezoc = crate::fm::zoc::ezoc_map(sc, s, side);
    if ezoc[start as usize] {
        return Vec::new();
    }
    let occ = crate::fm::zoc::occupancy(sc, s);
    let mut prev = vec![NO_HEX; sc.hexes.len()];
    let mut seen = vec![false; sc.hexes.len()];
    seen[start as usize] = true;
    let mut queue = std::collections::VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(u) = queue.pop_front() {
        for d in 0..6 {
            let v = sc.hexes[u as usize].neighbors[d];
            if v == NO_HEX || seen[v as usize] || !has_side(sc, u, d, sc.masks.rail_side) {
                continue;
            }
            let o = occ[v as usize];
            if ezoc[v as usize] || (o != u16::MAX && sc.units[o as usize].data.side != side) {
                continue;
            }
            seen[v as usize] = true;
            prev[v as usize] = u;
            queue.push_back(v);
            let hex = sc.hex_at(v);
            if may_stack(sc, s, i, hex) {
                let mut path = vec![hex];
                let mut p = u;
                while p != start {
                    path.push(sc.hex_at(p));
                    p = prev[p as usize];
                }
                path.reverse();
                out.push((hex, path));
            }
        }
    }
    out.sort_by_key(|(h, _)| sc.hex_index(*h));
    out
}

/// Whether every step of `path` from unit `i`'s hex follows a railroad hexside, for a
/// British unit other than the train (the path was meant as a 16.0 rail move).
pub(crate) fn along_rail(sc: &Scenario, s: &State, i: usize, path: &[Hex]) -> bool {
    if sc.units[i].data.side != BRITISH || is_train(sc, i) {
        return false;
    }
    let Some(mut cur) = s.units[i].hex().and_then(|h| sc.hex_index(h)) else {
        return false;
    };
    for h in path {
        let Some(to) = sc.hex_index(*h) else {
            return false;
        };
        match sc.direction(cur, to) {
            Some(d) if has_side(sc, cur, d, sc.masks.rail_side) => cur = to,
            _ => return false,
        }
    }
    true
}

/// 16.0: checks `path` as a rail move of unit `i`.
pub(crate) fn check_rail(
    sc: &Scenario,
    s: &State,
    i: usize,
    path: &[Hex],
) -> Result<(), RuleError> {
    let id = s.units.id(i);
    let Some(p) = params(sc) else {
        return refuse(
            "16.0",
            "rail movement exists only under the Suez 1916 rules",
        );
    };
    if sc.units[i].data.side != BRITISH || is_train(sc, i) {
        return refuse(
            "16.0",
            format!("{id} may not use the British rail movement"),
        );
    }
    if s.ex.rail_moves >= p.rail_moves_per_phase {
        return refuse(
            "16.0",
            "the British have already moved a unit by rail this phase",
        );
    }
    crate::fm::movement::may_move(sc, s, i)?;
    let Some(from) = s.units[i].hex() else {
        return refuse("16.0", format!("{id} is not on the map"));
    };
    if !p.rail_hexes.contains(&from) {
        return refuse("16.0", format!("{id} does not start on a railroad hex"));
    }
    let side = sc.units[i].data.side;
    let ezoc = crate::fm::zoc::ezoc_map(sc, s, side);
    let mut cur = sc.hex_index(from).expect("on map");
    if ezoc[cur as usize] {
        return refuse("16.0", format!("{id} starts in an enemy ZOC"));
    }
    // 16.0 "contiguous rail hexes": a path that comes back to a hex is not a path, and
    // refusing it at once bounds the walk by the map, whatever the path's length.
    let mut entered = vec![false; sc.hexes.len()];
    for h in path {
        let Some(to) = sc.hex_index(*h) else {
            return refuse("5.2(f)", format!("{h} is off the map"));
        };
        let Some(d) = sc.direction(cur, to) else {
            return refuse("5.1", format!("{h} is not adjacent to {}", sc.hex_at(cur)));
        };
        if !has_side(sc, cur, d, sc.masks.rail_side) {
            return refuse(
                "16.0",
                format!("{}-{h} is not along the railroad", sc.hex_at(cur)),
            );
        }
        if ezoc[to as usize] {
            return refuse("16.0", format!("{h} is in an enemy ZOC"));
        }
        if s.units_at(*h)
            .iter()
            .any(|&o| sc.units[o].data.side != side)
        {
            return refuse("5.2(d)", format!("{h} holds an enemy unit"));
        }
        if *h == from {
            return refuse("5.1", format!("{id} re-enters its starting hex {h}"));
        }
        if std::mem::replace(&mut entered[to as usize], true) {
            return refuse(
                "16.0",
                format!("{id} enters {h} twice: a rail move follows contiguous rail hexes without coming back"),
            );
        }
        cur = to;
    }
    let last = *path.last().expect("non-empty path");
    if !may_stack(sc, s, i, last) {
        return refuse(
            "17.1",
            format!("{id} may not end its move stacked in {last}"),
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// 11.3 activation, 11.5 reinforcements, 18.3 markers: turn and phase starts.

fn add_markers(ctx: &mut Ctx, side: Side, n: u8) {
    let mut reserve = ctx.s.ex.reserve.get(side).clone();
    let mut drawn = Vec::new();
    for _ in 0..n {
        if reserve.is_empty() {
            break;
        }
        crate::chance::roll_for(1, || {
            crate::chance::ChanceRoll::new("marker_reserve_draw", "draw")
                .with("side", side)
                .with("from", &reserve)
        });
        let k = ctx.roll_index(reserve.len());
        drawn.push(reserve.remove(k));
    }
    if !drawn.is_empty() {
        ctx.emit(Event::FireSupportAdded {
            side,
            count: drawn.len() as u8,
            values: Some(drawn),
        });
    }
}

fn activate(ctx: &mut Ctx, i: usize) {
    let Some(p) = params(ctx.sc) else { return };
    let unit = ctx.s.units.id(i).clone();
    ctx.emit(Event::UnitActivated { unit });
    if formation(ctx.sc, i) == p.activation_support_formation {
        add_markers(ctx, BRITISH, 1);
    }
}

/// 11.3: the British units set up on or west of Pelusium Station start un-activated.
pub(crate) fn on_play_start(ctx: &mut Ctx) {
    let Some(p) = params(ctx.sc) else { return };
    let units: Vec<UnitId> = ctx
        .s
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| {
            ctx.sc.units[*i].data.side == BRITISH
                && u.hex().is_some_and(|h| h.col <= p.pelusium_station.col)
        })
        .map(|(i, _)| ctx.s.units.id(i).clone())
        .collect();
    if !units.is_empty() {
        ctx.emit(Event::UnitsInactive { units });
    }
}

/// 18.3: on a morning turn the markers used the day before return to the pools.
pub(crate) fn on_turn_start(ctx: &mut Ctx) {
    let Some(p) = params(ctx.sc) else { return };
    if !p.marker_return_turns.contains(&ctx.s.turn) {
        return;
    }
    for side in Side::BOTH {
        let values = ctx.s.ex.spent.get(side).clone();
        if !values.is_empty() {
            ctx.emit(Event::FireSupportReturned { side, values });
        }
    }
}

/// Phase starts: 11.3 activation rolls, 11.5 the reinforcement roll, 18.1 fire support.
pub(crate) fn on_phase_start(ctx: &mut Ctx, side: Side, phase: Phase) {
    let Some(p) = params(ctx.sc) else { return };
    let sc = ctx.sc;
    match phase {
        Phase::Movement if side == BRITISH && ctx.s.turn >= p.activation_first_turn => {
            // In unit-id order (R-SU-11.3a).
            let waiting: Vec<usize> = ctx
                .s
                .ex
                .inactive
                .iter()
                .filter_map(|id| sc.unit_index(id).map(|i| i as usize))
                .filter(|&i| matches!(ctx.s.units[i].loc, Location::Map(_)))
                .collect();
            for i in waiting {
                crate::chance::roll_for(1, || {
                    crate::chance::ChanceRoll::new("activation", "1d6")
                        .with("unit", ctx.s.units.id(i))
                });
                let die = ctx.d6();
                let activated = die <= p.activation_roll_max;
                let unit = ctx.s.units.id(i).clone();
                ctx.emit(Event::ActivationRolled {
                    unit,
                    die,
                    activated,
                });
                if activated && formation(sc, i) == p.activation_support_formation {
                    add_markers(ctx, BRITISH, 1);
                }
            }
        }
        Phase::Movement if side == CENTRAL_POWERS => reinforcement_roll(ctx, p),
        Phase::Combat => open_fire_support(ctx),
        _ => {}
    }
}

/// 11.5: whether a Central Powers unit holds a railroad town or village on or west of
/// the 20xx column.
pub fn reinforcements_due(sc: &Scenario, s: &State) -> bool {
    let Some(p) = params(sc) else { return false };
    s.units.iter().enumerate().any(|(i, u)| {
        sc.units[i].data.side == CENTRAL_POWERS
            && u.hex().is_some_and(|h| {
                h.col <= p.reinforcement_column
                    && p.rail_hexes.contains(&h)
                    && sc
                        .hex_index(h)
                        .is_some_and(|x| sc.hexes[x as usize].terrain & sc.masks.town_village != 0)
            })
    })
}

fn reinforcement_roll(ctx: &mut Ctx, p: &Suez1916Params) {
    let next = ctx.s.ex.regiments as usize;
    if next >= p.reinforcement_regiments.len() || !reinforcements_due(ctx.sc, &ctx.s) {
        return;
    }
    crate::chance::roll_for(1, || {
        crate::chance::ChanceRoll::new("reinforcement", "1d6").with("regiment", next + 1)
    });
    let die = ctx.d6();
    let r = &p.reinforcement_regiments[next];
    let arrives = die <= p.reinforcement_roll_max;
    ctx.emit(Event::ReinforcementRolled {
        die,
        regiment: arrives.then(|| r.name.clone()),
    });
    if arrives {
        ctx.emit(Event::ReinforcementsArrived {
            side: CENTRAL_POWERS,
            units: r.units.clone(),
        });
        add_markers(ctx, CENTRAL_POWERS, p.reinforcement_markers_per_regiment);
    }
}

/// 11.3 automatic activation: un-activated British units within range of any hex a
/// Central Powers unit entered in `events` (moving, retreating, advancing) activate.
pub(crate) fn auto_activate(ctx: &mut Ctx) {
    let Some(p) = params(ctx.sc) else { return };
    if ctx.s.ex.inactive.is_empty() {
        return;
    }
    let sc = ctx.sc;
    let mut hexes: Vec<Hex> = Vec::new();
    for e in &ctx.events {
        let (unit, path) = match e {
            Event::UnitMoved { unit, path, .. }
            | Event::UnitRetreated { unit, path, .. }
            | Event::UnitAdvanced { unit, path, .. } => (unit, path.clone()),
            Event::UnitDisplaced { unit, to, .. } => (unit, vec![*to]),
            _ => continue,
        };
        if sc
            .unit_index(unit)
            .is_some_and(|i| sc.units[i as usize].data.side == CENTRAL_POWERS)
        {
            hexes.extend(path);
        }
    }
    if hexes.is_empty() {
        return;
    }
    let layout = sc.layout();
    let range = p.automatic_activation_range as u32;
    let near: Vec<usize> = (0..ctx.s.units.len())
        .filter(|&i| {
            ctx.s.ex.inactive.contains(ctx.s.units.id(i))
                && ctx.s.units[i]
                    .hex()
                    .is_some_and(|h| hexes.iter().any(|x| layout.distance(*x, h) <= range))
        })
        .collect();
    for i in near {
        activate(ctx, i);
    }
}

// ---------------------------------------------------------------------------------
// 18.0 fire support.

/// 18.2: whether `side` observes `hex`: adjacent to one of its units, within its
/// observation range (longer from a hill), or (Central Powers) in or next to the hex
/// the air unit observes. Terrain never blocks observation.
pub fn observed(sc: &Scenario, s: &State, side: Side, hex: Hex) -> bool {
    let Some(p) = params(sc) else { return false };
    let layout = sc.layout();
    if side == CENTRAL_POWERS
        && s.ex
            .air_observe
            .is_some_and(|a| a == hex || layout.adjacent(a, hex))
    {
        return true;
    }
    s.units.iter().enumerate().any(|(i, u)| {
        sc.units[i].data.side == side
            && u.hex().is_some_and(|h| {
                let hill = sc
                    .hex_index(h)
                    .is_some_and(|x| sc.hexes[x as usize].terrain & sc.masks.hill != 0);
                let range = if hill {
                    *p.hill_observation_range.get(side)
                } else {
                    *p.observation_range.get(side)
                };
                layout.distance(h, hex) <= (range as u32).max(1)
            })
    })
}

fn air_available(sc: &Scenario, s: &State, side: Side) -> bool {
    side == CENTRAL_POWERS && !s.ex.air_used && !is_night(sc, s)
}

/// Markers `side` may still place on `hex` this combat phase (18.1, 18.5).
fn room(p: &Suez1916Params, s: &State, side: Side, hex: Hex) -> u8 {
    let placed =
        s.ex.fire_plan
            .iter()
            .filter(|m| m.side == side && m.hex == hex)
            .count();
    p.markers_per_hex.get(side).saturating_sub(placed as u8)
}

fn enemy_hexes(sc: &Scenario, s: &State, side: Side) -> Vec<Hex> {
    let mut v: Vec<Hex> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| sc.units[*i].data.side != side)
        .filter_map(|(_, u)| u.hex())
        .collect();
    v.sort_by_key(|h| sc.hex_index(*h));
    v.dedup();
    v
}

/// Every fire support command `side` may give in its placement step, `done` first.
pub(crate) fn fire_commands(sc: &Scenario, s: &State, side: Side) -> Vec<Command> {
    let mut out = vec![Command::Done];
    let Some(p) = params(sc) else { return out };
    let pool = s.ex.pool.get(side).len() as u8;
    let air = air_available(sc, s, side);
    for h in enemy_hexes(sc, s, side) {
        let room = room(p, s, side, h);
        if pool > 0 && observed(sc, s, side, h) {
            for n in 1..=room.min(pool).min(2) {
                out.push(Command::Bombard { hex: h, markers: n });
            }
        }
        if air && room > 0 {
            out.push(Command::AirUnit {
                hex: h,
                observe: false,
            });
        }
    }
    if air {
        for hi in &sc.hexes {
            out.push(Command::AirUnit {
                hex: hi.hex,
                observe: true,
            });
        }
    }
    if side == s.active {
        let mut targets: Vec<Hex> =
            s.ex.fire_plan
                .iter()
                .filter(|m| m.side == side)
                .map(|m| m.hex)
                .collect();
        targets.sort_by_key(|h| sc.hex_index(*h));
        targets.dedup();
        for h in targets {
            if s.ex.announced.iter().any(|a| a.hex == h) {
                continue;
            }
            for units in crate::fm::legal::attack_sets(sc, s, side, h) {
                if units.iter().all(|u| !announced_unit(s, u)) {
                    out.push(Command::Attack { hex: h, units });
                }
            }
        }
        out.extend(kress_commands(sc, s));
    }
    out
}

fn announced_unit(s: &State, u: &UnitId) -> bool {
    s.ex.announced.iter().any(|a| a.units.contains(u))
}

/// Whether `side` has anything to place in a fire support step.
fn can_place(sc: &Scenario, s: &State, side: Side) -> bool {
    let Some(p) = params(sc) else { return false };
    if is_night(sc, s) || (side == BRITISH && zero_hour(p, s)) {
        return false;
    }
    // An unused air unit can always observe somewhere.
    air_available(sc, s, side)
        || fire_commands(sc, s, side)
            .iter()
            .any(|c| matches!(c, Command::Bombard { .. }))
}

fn open_fire_support(ctx: &mut Ctx) {
    let side = ctx.s.active;
    if can_place(ctx.sc, &ctx.s, side) {
        ctx.emit(Event::FireSupportPlanning { side });
    } else if can_place(ctx.sc, &ctx.s, side.other()) {
        ctx.emit(Event::FireSupportPlanning { side: side.other() });
    }
}

fn stage(ctx: &Ctx) -> Result<Side, RuleError> {
    let Some(p) = params(ctx.sc) else {
        return refuse(
            "18.1",
            "fire support markers are placed this way only under the Suez 1916 rules",
        );
    };
    match ctx.s.ex.fire_stage {
        Some(side) => Ok(side),
        None => Err(no_fire_support(p, ctx.sc, &ctx.s)),
    }
}

/// Why no fire support may be placed now (outside a placement step).
fn no_fire_support(p: &Suez1916Params, sc: &Scenario, s: &State) -> RuleError {
    if is_night(sc, s) {
        RuleError::new("19.0", "no bombardment and no air unit during a night turn")
    } else if zero_hour(p, s) && s.active == BRITISH {
        RuleError::new("15.2", "no British support fire during the Zero Hour turn")
    } else {
        RuleError::new(
            "18.1",
            "fire support markers are placed at the start of the combat phase, before any attack",
        )
    }
}

/// The refusal of a system `bombard` outside a placement step, under these rules.
pub(crate) fn bombard_refusal(sc: &Scenario, s: &State) -> Option<RuleError> {
    params(sc).map(|p| no_fire_support(p, sc, s))
}

/// 18.1: place `markers` markers drawn at random from the pool, face down, on `hex`.
pub(crate) fn place_markers(ctx: &mut Ctx, hex: Hex, markers: u8) -> Result<(), RuleError> {
    let side = stage(ctx)?;
    let sc = ctx.sc;
    let p = params(sc).expect("Suez rules");
    let limit = *p.markers_per_hex.get(side);
    if markers == 0 || markers > limit {
        return refuse(
            "18.1",
            format!("side {side} places one to {limit} marker(s) per hex, not {markers}"),
        );
    }
    let pool = ctx.s.ex.pool.get(side).len();
    if pool < markers as usize {
        return refuse(
            "18.3",
            format!("{markers} marker(s) asked, {pool} left in the pool today"),
        );
    }
    let here = ctx.s.units_at(hex);
    if here.is_empty() || here.iter().any(|&d| sc.units[d].data.side == side) {
        return refuse("18.1", format!("{hex} holds no enemy unit"));
    }
    let room = room(p, &ctx.s, side, hex);
    if markers > room {
        return refuse(
            "18.1",
            format!("{hex} may take {room} more marker(s) of side {side} ({limit} at most)"),
        );
    }
    if !observed(sc, &ctx.s, side, hex) {
        return refuse("18.2", format!("{hex} is not observed by side {side}"));
    }
    for _ in 0..markers {
        let pool = &ctx.s.ex.pool.get(side);
        crate::chance::roll_for(1, || {
            crate::chance::ChanceRoll::new("fire_support_draw", "draw")
                .with("side", side)
                .with("hex", hex)
                .with("from", pool)
        });
        let k = ctx.roll_index(pool.len());
        let value = ctx.s.ex.pool.get(side)[k];
        ctx.emit(Event::FireSupportPlaced {
            side,
            hex,
            value: Some(value),
        });
    }
    Ok(())
}

/// 18.5: place the air unit, to bombard `hex` or to observe it and its neighbours.
pub(crate) fn place_air(ctx: &mut Ctx, hex: Hex, observe: bool) -> Result<(), RuleError> {
    let side = stage(ctx)?;
    let sc = ctx.sc;
    let p = params(sc).expect("Suez rules");
    if side != CENTRAL_POWERS {
        return refuse("18.5", "only the Central Powers have the air unit");
    }
    if !air_available(sc, &ctx.s, side) {
        return refuse("18.5", "the air unit has already been used this turn");
    }
    if !observe {
        let here = ctx.s.units_at(hex);
        if here.is_empty() || here.iter().any(|&d| sc.units[d].data.side == side) {
            return refuse("18.5", format!("{hex} holds no enemy unit to bombard"));
        }
        if room(p, &ctx.s, side, hex) == 0 {
            return refuse(
                "18.1",
                format!("{hex} already has {} Central Powers markers; the air unit counts toward the limit", p.markers_per_hex.a),
            );
        }
    }
    ctx.emit(Event::AirUnitPlaced {
        hex,
        observe,
        strength: p.air_unit.strength,
    });
    Ok(())
}

/// 18.1: announce the units that will attack a hex the phasing side bombards.
pub(crate) fn announce(ctx: &mut Ctx, hex: Hex, units: &[UnitId]) -> Result<(), RuleError> {
    let side = stage(ctx)?;
    if side != ctx.s.active {
        return refuse("18.1", "only the phasing player announces attacks");
    }
    if !ctx
        .s
        .ex
        .fire_plan
        .iter()
        .any(|m| m.side == side && m.hex == hex)
    {
        return refuse(
            "18.1",
            format!("announce an attack only on a hex you bombard; {hex} has no marker of yours"),
        );
    }
    if ctx.s.ex.announced.iter().any(|a| a.hex == hex) {
        return refuse("18.1", format!("an attack on {hex} is already announced"));
    }
    for u in units {
        if announced_unit(&ctx.s, u) {
            return refuse(
                "8.2",
                format!("{u} is already announced to attack another hex"),
            );
        }
    }
    crate::fm::combat::check_attack_units(ctx.sc, &ctx.s, hex, units)?;
    ctx.emit(Event::AttackAnnounced {
        hex,
        units: units.to_vec(),
    });
    Ok(())
}

/// `done` in a fire support step: the defender's turn to place, or reveal and resolve.
pub(crate) fn fire_done(ctx: &mut Ctx) -> Result<(), RuleError> {
    let side = stage(ctx)?;
    let other = ctx.s.active.other();
    if side == ctx.s.active && can_place(ctx.sc, &ctx.s, other) {
        ctx.emit(Event::FireSupportPlanning { side: other });
        return Ok(());
    }
    resolve_fire(ctx);
    Ok(())
}

/// 18.1, 18.4: reveal every marker, then resolve the attacker's bombardments and the
/// defender's, hex by hex in the order placed, unit by unit.
fn resolve_fire(ctx: &mut Ctx) {
    let plan = ctx.s.ex.fire_plan.clone();
    ctx.emit(Event::FireSupportRevealed {
        markers: plan.clone(),
    });
    let active = ctx.s.active;
    for side in [active, active.other()] {
        let mut hexes: Vec<Hex> = Vec::new();
        for m in plan.iter().filter(|m| m.side == side) {
            if !hexes.contains(&m.hex) {
                hexes.push(m.hex);
            }
        }
        for hex in hexes {
            let strength: i32 = plan
                .iter()
                .filter(|m| m.side == side && m.hex == hex)
                .filter_map(|m| m.value)
                .map(i32::from)
                .sum();
            bombard_hex(ctx, side, hex, strength);
        }
    }
}

fn bombard_hex(ctx: &mut Ctx, side: Side, hex: Hex, strength: i32) {
    let sc = ctx.sc;
    let Some(hi) = sc.hex_index(hex) else { return };
    let targets: Vec<usize> = ctx
        .s
        .units_at(hex)
        .into_iter()
        .filter(|&i| sc.units[i].data.side != side)
        .collect();
    for i in targets {
        let unit = ctx.s.units.id(i).clone();
        if side == CENTRAL_POWERS && ctx.s.ex.inactive.contains(&unit) {
            activate(ctx, i);
        }
        // 18.4: the markers' strength is the differential on the hex's terrain line.
        let (line, col) = crate::fm::combat::crt_reading(sc, &ctx.s, hi, None, strength, 0);
        crate::chance::roll_for(1, || {
            crate::chance::ChanceRoll::new("fire_support_attack", "1d6")
                .with("hex", hex)
                .with("unit", &unit)
        });
        let die = ctx.d6();
        let result = sc.crt.result(col, die);
        let hit = matches!(
            result,
            CrtResult::D1 | CrtResult::D2 | CrtResult::D3 | CrtResult::De
        );
        ctx.emit(Event::FireSupportResolved {
            side,
            hex,
            unit: unit.clone(),
            strength,
            line: sc.crt.lines[line].id.clone(),
            column: sc.crt.column_label(line, col),
            die,
            result,
            hit,
        });
        if hit {
            crate::fm::combat::lose_step(ctx, &unit);
        }
    }
}

/// 18.1: once the markers are resolved, the announced attacks are made in the order
/// announced; an attack on a hex the bombardment emptied becomes an advance into it
/// (18.4). Returns true when it started or cancelled one.
pub(crate) fn run_announced(ctx: &mut Ctx) -> bool {
    if params(ctx.sc).is_none()
        || ctx.s.combat.is_some()
        || ctx.s.ex.fire_stage.is_some()
        || ctx.s.phase != Phase::Combat
    {
        return false;
    }
    let Some(a) = ctx.s.ex.announced.first().cloned() else {
        return false;
    };
    let sc = ctx.sc;
    let side = ctx.s.active;
    let alive: Vec<UnitId> = a
        .units
        .iter()
        .filter(|u| {
            sc.unit_index(u).is_some_and(|i| {
                let i = i as usize;
                crate::fm::combat::may_attack(sc, &ctx.s, i).is_ok()
                    && ctx.s.units[i]
                        .hex()
                        .is_some_and(|h| sc.layout().adjacent(h, a.hex))
            })
        })
        .cloned()
        .collect();
    let here = ctx.s.units_at(a.hex);
    let enemy: Vec<UnitId> = here
        .iter()
        .filter(|&&d| sc.units[d].data.side != side)
        .map(|&d| ctx.s.units.id(d).clone())
        .collect();
    if alive.is_empty() || (enemy.is_empty() && !here.is_empty()) {
        ctx.emit(Event::AttackCancelled { hex: a.hex });
        return true;
    }
    ctx.emit(Event::AttackDeclared {
        hex: a.hex,
        defenders: enemy.clone(),
        attackers: alive.clone(),
    });
    if enemy.is_empty() {
        let movers: Vec<UnitId> = alive
            .into_iter()
            .filter(|u| {
                let i = sc.unit_index(u).expect("known unit") as usize;
                crate::fm::retreat::may_advance_to(sc, &ctx.s, i, &[a.hex], 0)
            })
            .collect();
        if movers.is_empty() {
            crate::fm::combat::end(ctx);
        } else {
            ctx.emit(Event::AdvanceOffered {
                path: vec![a.hex],
                units: movers,
            });
        }
    } else {
        crate::fm::combat::proceed(ctx);
    }
    true
}

// ---------------------------------------------------------------------------------
// 13.1 Kress, column shifts.

/// 13.1: the hexes Kress may be assigned to now (an attack on them is possible).
pub(crate) fn kress_commands(sc: &Scenario, s: &State) -> Vec<Command> {
    let Some(_) = params(sc) else {
        return Vec::new();
    };
    if s.active != CENTRAL_POWERS || s.phase != Phase::Combat || s.ex.kress.is_some() {
        return Vec::new();
    }
    enemy_hexes(sc, s, CENTRAL_POWERS)
        .into_iter()
        .filter(|h| kress_target(sc, s, *h))
        .map(|hex| Command::Kress { hex })
        .collect()
}

fn kress_target(sc: &Scenario, s: &State, hex: Hex) -> bool {
    s.ex.announced.iter().any(|a| a.hex == hex)
        || (!s.bombarded.contains_key(&hex)
            && crate::fm::legal::has_attack_set(sc, s, CENTRAL_POWERS, hex))
}

/// 13.1: Kress assists the attack on `hex` this combat phase.
pub(crate) fn assign_kress(ctx: &mut Ctx, hex: Hex) -> Result<(), RuleError> {
    if params(ctx.sc).is_none() {
        return refuse("13.1", "Kress exists only under the Suez 1916 rules");
    }
    let s = &ctx.s;
    if s.active != CENTRAL_POWERS || s.phase != Phase::Combat {
        return refuse(
            "13.1",
            "Kress assists a Central Powers attack in its combat phase",
        );
    }
    if let Some(h) = s.ex.kress {
        return refuse(
            "13.1",
            format!("Kress already assists the attack on {h} this phase"),
        );
    }
    if s.ex.fire_stage.is_some_and(|f| f != s.active) {
        return refuse("4.1", "the British player is placing fire support markers");
    }
    if !kress_target(ctx.sc, s, hex) {
        return refuse(
            "13.1",
            format!("no Central Powers attack on {hex} is possible"),
        );
    }
    ctx.emit(Event::KressAssigned { hex });
    Ok(())
}

/// Columns to shift an attack on `hex` (13.1 Kress, 15.1 surprise, 19.0 night).
pub(crate) fn column_shift(sc: &Scenario, s: &State, hex: Hex) -> i8 {
    let Some(p) = params(sc) else { return 0 };
    if s.active == CENTRAL_POWERS {
        let mut shift = 0;
        if s.ex.kress == Some(hex) {
            shift += p.kress_shift as i8;
        }
        if zero_hour(p, s) {
            shift += p.surprise_shift as i8;
        }
        shift
    } else if is_night(sc, s) {
        -(p.night_shift as i8)
    } else {
        0
    }
}

/// 18.1: a hex the phasing side bombards this phase may be attacked only by the
/// units announced with the bombardment.
pub(crate) fn check_free_attack(sc: &Scenario, s: &State, hex: Hex) -> Result<(), RuleError> {
    if params(sc).is_some() && s.bombarded.contains_key(&hex) {
        return refuse(
            "18.1",
            format!("{hex} was bombarded this phase: only the attack announced with the bombardment is made"),
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// 10.3 combat results.

/// 10.3, Suez CRT key: whether a D3 / A3 retreat is followed by a step loss.
pub(crate) fn retreat_costs_step(sc: &Scenario, result: Option<CrtResult>) -> bool {
    params(sc).is_some() && matches!(result, Some(CrtResult::D3 | CrtResult::A3))
}

/// 10.3: stiff resistance (depleting instead of retreating) is open only on D2, A1 and
/// A2 (the Suez key's "or deplete one unit instead").
pub(crate) fn stiff_refusal(sc: &Scenario, result: Option<CrtResult>) -> Result<(), RuleError> {
    if retreat_costs_step(sc, result) {
        return refuse(
            "10.3",
            "A3 and D3 retreats may not be replaced by a step loss",
        );
    }
    Ok(())
}

/// Suez CRT key: "D2 = All defending units must retreat two hexes (or deplete one unit
/// of the defending player's choice, instead …)", and A1 / A2 alike for the attacking
/// units. The one step replaces the retreat of every unit the result struck (`struck`),
/// so it is chosen instead of retreating them all: once one of them has retreated (is
/// no longer among `waiting`), the others retreat too. Returns the units the step of
/// `unit` holds in place besides itself (none under other rules, where 8.4 is per
/// unit). A3 / D3 are refused before this (`stiff_refusal`).
pub(crate) fn held_by_one_step(
    sc: &Scenario,
    kind: crate::fm::state::CombatKind,
    struck: &[UnitId],
    waiting: &[UnitId],
    unit: &UnitId,
) -> Result<Vec<UnitId>, RuleError> {
    // 18.4: fire support never retreats, so only ground combat reaches a retreat here.
    if params(sc).is_none() || kind != crate::fm::state::CombatKind::Ground {
        return Ok(Vec::new());
    }
    if let Some(gone) = struck.iter().find(|u| !waiting.contains(u)) {
        return refuse(
            "CRT key",
            format!(
                "{gone} has already retreated: depleting one unit is an alternative to the whole retreat, so the other units retreat too"
            ),
        );
    }
    Ok(waiting.iter().filter(|u| *u != unit).cloned().collect())
}

/// 10.3 (7.9): the last index of the path of retreat unit `i` may advance to (leg
/// units one hex, the combat hex; mobile units the whole path); 13.3 the train never
/// leaves the railroad.
pub(crate) fn advance_limit(sc: &Scenario, i: usize) -> Option<usize> {
    let p = params(sc)?;
    if sc.units[i].data.kind == UnitKind::Mobile && !is_train(sc, i) {
        return None;
    }
    Some((p.leg_advance_limit as usize).saturating_sub(1))
}

// ---------------------------------------------------------------------------------
// The length of a game (`fm::length`).

/// Every fire support marker `side` has in the game (11.2, 11.4, 18.3): its pool and
/// its reserve (the British set-aside markers, the Central Powers Reinforcements box).
/// A marker placed leaves the pool until a morning turn (18.3), so a game turn places
/// at most these.
fn markers(p: &Suez1916Params, side: Side) -> u64 {
    let (pool, reserve) = if side == CENTRAL_POWERS {
        (
            &p.central_powers_pool,
            &p.central_powers_reinforcement_markers,
        )
    } else {
        (&p.british_pool, &p.british_set_aside)
    };
    (pool.len() + reserve.len()) as u64
}

/// What Suez 1916's own rules add to game turn `turn` (`fm::length`), both combat
/// phases together: 18.1, 18.3 each `bombard` places at least one marker, drawn at
/// random from the pool, so at most every marker of both sides in commands and in
/// draws; 18.5 the air unit once a turn; 18.1 the phasing side announces each unit at
/// most once a combat phase; 18.1 each side ends its placement once a combat phase
/// (`done`); 13.1 Kress once a Central Powers combat phase; 18.4 one die for each unit
/// in each bombarded hex, the hexes of one side distinct, so at most every unit of
/// the other side, for each side, each combat phase; 11.3 one activation die for each
/// un-activated British unit in the British movement phase (un-activated units are
/// British units set up on or west of Pelusium Station: at most every British unit);
/// 11.5 one reinforcement die in the Central Powers movement phase.
pub(crate) fn turn_length(sc: &Scenario, turn: u16) -> GameLength {
    let Some(p) = params(sc) else {
        return GameLength::ZERO;
    };
    let units = |side| crate::fm::length::units(sc, side);
    let all_units = units(CENTRAL_POWERS) + units(BRITISH);
    let all_markers = markers(p, CENTRAL_POWERS) + markers(p, BRITISH);
    // Two combat phases: the announcements of each phasing side, two `done`s in each.
    let commands = all_markers + 1 + all_units + 2 * 2 + 1;
    let activation = if turn >= p.activation_first_turn {
        units(BRITISH)
    } else {
        0
    };
    let chance = all_markers + 2 * all_units + activation + 1;
    GameLength::new(commands, chance)
}

/// What Suez 1916's own rules add once a game: 11.3, 11.5 each marker moved from a
/// reserve to a pool is drawn at random, and a reserve is never refilled.
pub(crate) fn game_length(sc: &Scenario) -> GameLength {
    let Some(p) = params(sc) else {
        return GameLength::ZERO;
    };
    let reserves = p.british_set_aside.len() + p.central_powers_reinforcement_markers.len();
    GameLength::chance(reserves as u64)
}

// ---------------------------------------------------------------------------------
// 12.0 victory.

/// 12.1: whether a Central Powers engineer stands next to the Suez Canal.
fn engineer_at_canal(sc: &Scenario, s: &State) -> Option<UnitId> {
    let p = params(sc)?;
    s.units.iter().enumerate().find_map(|(i, u)| {
        let h = u.hex()?;
        let hi = sc.hex_index(h)?;
        (sc.units[i].data.side == CENTRAL_POWERS
            && has_tag(sc, i, &p.engineer_tag)
            && (0..6).any(|d| has_side(sc, hi, d, sc.masks.canal_side)))
        .then(|| s.units.id(i).clone())
    })
}

/// 12.1: at the end of a British player turn, an engineer next to the canal wins.
pub(crate) fn end_of_british_turn(ctx: &mut Ctx) -> bool {
    if params(ctx.sc).is_none() || ctx.s.active != BRITISH {
        return false;
    }
    let Some(u) = engineer_at_canal(ctx.sc, &ctx.s) else {
        return false;
    };
    ctx.emit(Event::GameOver {
        winner: Some(CENTRAL_POWERS),
        reason: format!(
            "12.1: engineer {u} is next to the Suez Canal at the end of the British turn"
        ),
    });
    true
}

/// 12.2: the British win the instant no Central Powers unit is on the map.
pub(crate) fn instant(sc: &Scenario, s: &State) -> Option<(Side, String)> {
    params(sc)?;
    if s.phase == Phase::Setup {
        return None;
    }
    let any = s
        .units
        .iter()
        .enumerate()
        .any(|(i, u)| sc.units[i].data.side == CENTRAL_POWERS && u.hex().is_some());
    (!any).then(|| {
        (
            BRITISH,
            "12.2: no Central Powers unit is on the map".to_string(),
        )
    })
}

/// 12.3: the Central Powers' victory points: the 12.4 hexes they control.
pub fn victory_points(sc: &Scenario, s: &State) -> u32 {
    let Some(p) = params(sc) else { return 0 };
    p.victory_hexes
        .iter()
        .filter(|v| s.control.get(&v.hex) == Some(&CENTRAL_POWERS))
        .map(|v| v.vp as u32)
        .sum()
}

/// 12.3: the result at the end of the Afternoon 6 August turn.
pub(crate) fn final_result(sc: &Scenario, s: &State) -> Option<(Option<Side>, String)> {
    let p = params(sc)?;
    let vp = victory_points(sc, s);
    let level = p
        .result_levels
        .iter()
        .find(|l| vp >= l.min_vp as u32 && l.max_vp.map_or(true, |m| vp <= m as u32))
        .or(p.result_levels.last())?;
    Some((level.winner, format!("12.3: {} ({vp} VP)", level.result)))
}

/// 14.2: "trenches benefit only units of the owning side": the trench line is denied
/// to any other defender.
pub(crate) fn hexside_line_denied(sc: &Scenario, feature: usize, defender: Side) -> bool {
    params(sc)
        .is_some_and(|p| sc.masks.trench_side & (1 << feature) != 0 && defender != p.trench_owner)
}

/// 14.2: the trench's +1 MP even where a track or railroad crosses the trench hexside
/// ("regardless of direction"); 0 elsewhere.
pub(crate) fn trench_extra(sc: &Scenario, side_mask: u64) -> crate::fm::mp::Mp {
    let mut extra = crate::fm::mp::Mp::ZERO;
    if side_mask & sc.masks.trench_side == 0 || params(sc).is_none() {
        return extra;
    }
    for (i, f) in sc.data.terrain.hexside.iter().enumerate() {
        if side_mask & sc.masks.trench_side & (1 << i) != 0 {
            if let crate::fm::scenario::MoveCost::Plus(c) | crate::fm::scenario::MoveCost::Cost(c) =
                f.cost
            {
                extra += c;
            }
        }
    }
    extra
}

/// Suez 1916's exclusive rules behind [`crate::fm::exclusive::ExclusiveRules`]: the system
/// rules except where 10.0-20.0 change them (the key's A3/D3 and D2/A1/A2, one-hex
/// advances, activation, reinforcement rolls, victory, Kress, the armored train, the
/// canal, owner-only trenches, surprise, rail movement, stacking, fire support from
/// daily pools, the air unit, night).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Suez1916;

impl crate::fm::exclusive::ExclusiveRules for Suez1916 {
    fn prepare(&self, sc: &mut Scenario) -> Result<(), ScenarioError> {
        let RuleSet::Suez1916(p) = &sc.data.rules else {
            return Ok(());
        };
        let p = p.clone();
        validate(sc, &p)?;
        sc.masks.trench_side = sc.hexside_mask(&p.trench_hexside);
        sc.masks.canal_side = sc.hexside_mask(&p.canal_hexside);
        sc.masks.rail_side = sc.hexside_mask(&p.railroad_hexside);
        sc.masks.marsh = sc.hex_terrain_mask(std::slice::from_ref(&p.marsh_terrain));
        sc.masks.hill = sc.hex_terrain_mask(&p.hill_terrains);
        sc.masks.town_village = sc.hex_terrain_mask(&p.town_village_terrains);
        Ok(())
    }
    fn initial(&self, sc: &Scenario, control: &mut BTreeMap<Hex, Side>, ex: &mut ExclusiveState) {
        if let Some(p) = params(sc) {
            initial(p, control, ex);
        }
    }
    fn setup_room(&self, sc: &Scenario, side: Side, hex: u16) -> Option<u8> {
        setup_room(sc, side, hex)
    }
    fn rail_bound(&self, sc: &Scenario, i: usize) -> bool {
        is_train(sc, i)
    }
    fn rail_hex(&self, sc: &Scenario, hex: Hex) -> bool {
        train_may_set_up(sc, hex)
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
        let (occ, scratch) = cache.occupancy_and_scratch(sc, s);
        check_placement_with(sc, s, i, hex, occ, scratch).is_ok()
    }
    fn may_stack(&self, sc: &Scenario, s: &State, i: usize, hex: Hex) -> bool {
        may_stack(sc, s, i, hex)
    }
    fn stacks_by_retreat(&self) -> bool {
        true
    }
    fn stacking_rule(&self) -> &'static str {
        "17.1"
    }
    fn stack_attack_rule(&self) -> &'static str {
        "17.3"
    }
    fn movement(&self, sc: &Scenario, s: &State, i: usize) -> Option<Movement> {
        movement(sc, s, i)
    }
    fn hexside_extra(&self, sc: &Scenario, side_mask: u64) -> crate::fm::mp::Mp {
        trench_extra(sc, side_mask)
    }
    fn move_refusal(&self, sc: &Scenario, s: &State, i: usize) -> Result<(), RuleError> {
        move_refusal(sc, s, i)
    }
    fn entry_hexes(&self, sc: &Scenario, i: usize) -> Vec<u16> {
        entry_hexes(sc, i)
    }
    fn extra_moves(&self, sc: &Scenario, s: &State, i: usize) -> Vec<(Hex, Vec<Hex>)> {
        rail_moves(sc, s, i)
    }
    fn other_move(
        &self,
        ctx: &mut Ctx,
        i: usize,
        unit: &UnitId,
        path: &[Hex],
        system_error: RuleError,
    ) -> Result<(), RuleError> {
        if path.is_empty() {
            return Err(system_error);
        }
        if let Err(rail) = check_rail(ctx.sc, &ctx.s, i, path) {
            // A path wholly along the railroad was meant as a rail move.
            return Err(if along_rail(ctx.sc, &ctx.s, i, path) {
                rail
            } else {
                system_error
            });
        }
        let from = ctx.s.units[i].hex();
        ctx.emit(Event::RailMovement { unit: unit.clone() });
        ctx.emit(Event::UnitMoved {
            unit: unit.clone(),
            from,
            path: path.to_vec(),
            mp: crate::fm::mp::Mp::ZERO,
        });
        Ok(())
    }
    fn path_bound_note(&self) -> &'static str {
        ", or each hex once by rail, 16.0"
    }
    fn hexside_line_denied(
        &self,
        sc: &Scenario,
        _hex: u16,
        feature: usize,
        defender: Side,
    ) -> bool {
        hexside_line_denied(sc, feature, defender)
    }
    fn column_shift(&self, sc: &Scenario, s: &State, hex: Hex) -> i8 {
        column_shift(sc, s, hex)
    }
    fn check_free_attack(&self, sc: &Scenario, s: &State, hex: Hex) -> Result<(), RuleError> {
        check_free_attack(sc, s, hex)
    }
    fn owners_choose_exchange(&self) -> bool {
        true
    }
    fn bombard_refusal(&self, sc: &Scenario, s: &State) -> Option<RuleError> {
        bombard_refusal(sc, s)
    }
    fn replaces_allotment(&self) -> bool {
        true
    }
    fn stiff_refusal(&self, sc: &Scenario, result: Option<CrtResult>) -> Result<(), RuleError> {
        stiff_refusal(sc, result)
    }
    fn held_by_one_step(
        &self,
        sc: &Scenario,
        kind: crate::fm::state::CombatKind,
        struck: &[UnitId],
        waiting: &[UnitId],
        unit: &UnitId,
    ) -> Result<Vec<UnitId>, RuleError> {
        held_by_one_step(sc, kind, struck, waiting, unit)
    }
    fn retreat_costs_step(&self, sc: &Scenario, result: Option<CrtResult>) -> bool {
        retreat_costs_step(sc, result)
    }
    fn advance_limit(&self, sc: &Scenario, i: usize) -> Option<usize> {
        advance_limit(sc, i)
    }
    fn on_play_start(&self, ctx: &mut Ctx) {
        on_play_start(ctx)
    }
    fn turn_length(&self, sc: &Scenario, turn: u16) -> GameLength {
        turn_length(sc, turn)
    }
    fn game_length(&self, sc: &Scenario) -> GameLength {
        game_length(sc)
    }
    fn on_turn_start(&self, ctx: &mut Ctx) {
        on_turn_start(ctx)
    }
    fn on_phase_start(&self, ctx: &mut Ctx, side: Side, phase: Phase) {
        on_phase_start(ctx, side, phase)
    }
    fn after_player_turns(&self, ctx: &mut Ctx) -> bool {
        end_of_british_turn(ctx)
    }
    fn after_command(&self, ctx: &mut Ctx) {
        auto_activate(ctx)
    }
    fn continue_combat_phase(&self, ctx: &mut Ctx) -> bool {
        run_announced(ctx)
    }
    fn fire_support_done(&self, ctx: &mut Ctx) -> Result<(), RuleError> {
        fire_done(ctx)
    }
    fn phase_commands(&self, sc: &Scenario, s: &State) -> Vec<Command> {
        kress_commands(sc, s)
    }
    fn fire_support_commands(&self, sc: &Scenario, s: &State, side: Side) -> Vec<Command> {
        fire_commands(sc, s, side)
    }
    fn place_fire_support(&self, ctx: &mut Ctx, hex: Hex, markers: u8) -> Result<(), RuleError> {
        place_markers(ctx, hex, markers)
    }
    fn air_unit(&self, ctx: &mut Ctx, hex: Hex, observe: bool) -> Result<(), RuleError> {
        place_air(ctx, hex, observe)
    }
    fn announce_attack(&self, ctx: &mut Ctx, hex: Hex, units: &[UnitId]) -> Result<(), RuleError> {
        announce(ctx, hex, units)
    }
    fn air_unit_side(&self) -> Side {
        CENTRAL_POWERS
    }
    fn kress(&self, ctx: &mut Ctx, hex: Hex) -> Result<(), RuleError> {
        assign_kress(ctx, hex)
    }
    fn instant(&self, sc: &Scenario, s: &State, _events: &[Event]) -> Option<(Side, String)> {
        instant(sc, s)
    }
    fn final_result(&self, sc: &Scenario, s: &State) -> Option<(Option<Side>, String)> {
        final_result(sc, s)
    }
    fn objectives(&self, sc: &Scenario) -> Vec<crate::fm::ai::Objective> {
        objectives(sc)
    }
}

/// What the AI plays for in 12.3-12.4: each victory hex for the Central Powers, weighed
/// by its victory points, denied by the British.
fn objectives(sc: &Scenario) -> Vec<crate::fm::ai::Objective> {
    let Some(p) = params(sc) else {
        return crate::fm::ai::scenario_objectives(sc);
    };
    p.victory_hexes
        .iter()
        .map(|v| crate::fm::ai::Objective {
            side: CENTRAL_POWERS,
            hexes: vec![v.hex],
            need: 1,
            weight: f64::from(v.vp.max(1)),
        })
        .collect()
}
