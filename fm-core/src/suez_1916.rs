//! Suez 1916: The Ottomans Strike — exclusive rules 10.0-20.0.
//!
//! Side `a` is the Central Powers (Ottoman, German and Austro-Hungarian units), the first
//! player in each game turn (10.2); side `b` is the British. The rules themselves are not
//! implemented yet: this module holds the scenario parameters, read from
//! `"rules": {"suez-1916": {...}}` in fm-core/scenarios/suez-1916.json (written by
//! scripts/gen_suez_1916.py). The scenario data alone covers what the system rules can
//! express: the map and the Terrain Effects Chart (14.0, tracks at ⅓ MP for British
//! infantry and machineguns through a unit tag), the Suez CRT lines, the orders of battle
//! (20.0) with their set-up zones and order (11.1-11.2, 11.4), the turn track with its
//! three night turns (10.4, 19.0), the start in the Central Powers movement phase of the
//! Zero Hour turn (10.2) and the skipped mobile phases (10.3). Everything else the rules
//! need is here: victory hexes and levels (12.0), activation (11.3), reinforcements
//! (11.5), Kress (13.1), surprise (15.0), rail movement (16.0), stacking (17.0), fire
//! support pools, observation and the air unit (18.0), night (19.0). The scenario is not
//! in [`crate::scenario::BUILTIN`]: until these rules are written it must not be played
//! under the system rules by mistake.

use crate::hex::Hex;
use crate::ids::{Side, SidePair, UnitId};
use crate::scenario::{RuleSet, Scenario};
use serde::{Deserialize, Serialize};

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
