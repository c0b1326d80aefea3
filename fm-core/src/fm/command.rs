//! Commands: what a player (or agent) asks the engine to do. Tagged JSON:
//! `{"type":"move","unit":"blue-1","path":["0203","0204"]}`.

use crate::fm::hex::Hex;
use crate::ids::UnitId;
use serde::{Deserialize, Serialize};

/// A player's decision. Which commands are accepted depends on [`crate::Pending`].
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// 3.0: place a unit in its set-up zone.
    Place {
        /// The unit.
        unit: UnitId,
        /// Where.
        hex: Hex,
    },
    /// 5.1: move a unit along `path`, the hexes it enters in order (not its start hex).
    /// A reinforcement's path starts with its entry hex.
    Move {
        /// The unit.
        unit: UnitId,
        /// Hexes entered.
        path: Vec<Hex>,
    },
    /// 8.1.2: bombard the enemy unit in `hex` with 1 or 2 markers drawn at random.
    /// Suez 1916 18.1: place that many markers from the pool on `hex`, face down.
    Bombard {
        /// Target hex.
        hex: Hex,
        /// Number of markers (1 or 2).
        markers: u8,
    },
    /// 8.2.1(a): attack the enemy unit in `hex` with `units`. Suez 1916 18.1: while
    /// placing fire support, announce that `units` will attack the bombarded `hex`.
    Attack {
        /// Defending hex.
        hex: Hex,
        /// Attacking units.
        units: Vec<UnitId>,
    },
    /// 8.2.1(b): at this step, place a marker (drawn at random, face down) or pass.
    SupportFire {
        /// Place a marker (`true`) or pass (`false`).
        commit: bool,
    },
    /// 8.2.4 Ex / (A): the unit that takes the step loss.
    ChooseLoss {
        /// The unit.
        unit: UnitId,
    },
    /// 8.3: retreat `unit` along `path` (hexes entered). An empty path accepts
    /// elimination when no retreat is possible. `displace` gives, for a path ending on a
    /// friendly unit, where that unit is displaced to, then where the unit there goes,
    /// and so on (8.3.1).
    Retreat {
        /// The unit.
        unit: UnitId,
        /// Hexes entered.
        path: Vec<Hex>,
        /// Displacement chain.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        displace: Vec<Hex>,
    },
    /// 8.4: hold and lose a step instead of retreating.
    StiffResistance {
        /// The unit.
        unit: UnitId,
    },
    /// 8.5: advance `unit` along the path of retreat, stopping in `to`.
    Advance {
        /// The unit.
        unit: UnitId,
        /// Last hex of the advance.
        to: Hex,
    },
    /// Meuse Argonne 11.3 / 11.6, Vimy Ridge 11.3 / 11.6: bring an eliminated unit back.
    Replace {
        /// The unit.
        unit: UnitId,
        /// Arrival hex.
        hex: Hex,
        /// Vimy Ridge: arrive at full strength for two replacements instead of
        /// depleted for one (Meuse Argonne fixes the strength: always false there).
        #[serde(default)]
        full: bool,
    },
    /// Meuse Argonne 11.3 / 11.6: restore a step to depleted units (Allies: one or
    /// two units; Germans: one).
    Rebuild {
        /// The units.
        units: Vec<UnitId>,
    },
    /// Meuse Argonne 13.2: break a three-step US division down into brigades.
    BreakDown {
        /// The division.
        unit: UnitId,
    },
    /// Meuse Argonne 17.3: place an Allied aircraft marker to observe a hex.
    PlaceAircraft {
        /// Where.
        hex: Hex,
    },
    /// Meuse Argonne 17.2-17.7: artillery bombardment of the enemy unit in `hex` with
    /// one or two markers, optionally with gas (Allies, turn 1).
    Artillery {
        /// Target hex.
        hex: Hex,
        /// Markers (1 or 2).
        markers: u8,
        /// 17.7: use gas.
        #[serde(default)]
        gas: bool,
    },
    /// Meuse Argonne 18.1: declare (or not) the Lost Battalion before the roll.
    LostBattalion {
        /// Declare it.
        declare: bool,
    },
    /// Suez 1916 18.5: place the Central Powers air unit on `hex`, to bombard the enemy
    /// there (`observe: false`) or flipped to observe it and its six neighbours.
    AirUnit {
        /// Where.
        hex: Hex,
        /// Flip it to its observation side instead of bombarding.
        #[serde(default)]
        observe: bool,
    },
    /// Suez 1916 13.1: Kress von Kressenstein assists the Central Powers attack on `hex`
    /// this combat phase (one column right).
    Kress {
        /// The defending hex of the assisted attack.
        hex: Hex,
    },
    /// End the current phase (or set-up, or advancing after combat).
    Done,
}
