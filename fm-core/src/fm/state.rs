//! The dynamic game state (everything that changes during play) and the decision it
//! awaits (rules 4.0-4.1 sequence of play; bookkeeping for 5.2, 7.2, 8.0-8.5).
//!
//! `State` is plain data: `Clone + Eq + Serialize + Deserialize`, with a platform-stable
//! [`State::hash`]. It changes only by folding [`Event`](crate::Event)s into it.

use crate::fm::crt::CrtResult;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::fm::scenario::{Phase, Scenario, StartData};
use crate::game::hash::{word_mix, WordHasher};
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

/// Where a unit is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// On the map.
    Map(Hex),
    /// Waiting to be placed during set-up.
    ToPlace,
    /// A reinforcement not yet due.
    Scheduled,
    /// A reinforcement that may enter the map this or a later movement phase.
    Arriving,
    /// Eliminated.
    Eliminated,
    /// Out of play (not on the map, not eliminated).
    OffMap,
}

/// The state of one unit, in scenario order. Plain copyable data: the unit's id is
/// the scenario's ([`State::ids`]), so copying a state copies no strings and touches no
/// reference counts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is.
    pub loc: Location,
    /// Steps remaining (1 = last step).
    pub steps: u8,
    /// Moved this player turn (5.2, 5.5).
    #[serde(default)]
    pub moved: bool,
    /// MP spent this player turn.
    #[serde(default)]
    pub mp_spent: Mp,
    /// Attacked in the current phase (8.2).
    #[serde(default)]
    pub attacked: bool,
    /// Attacked in this player turn's Combat Phase (no Mobile Combat then, 4.1).
    #[serde(default)]
    pub attacked_this_turn: bool,
    /// Was the target of an attack in the current phase (8.0: one attack per phase).
    #[serde(default)]
    pub defended: bool,
    /// Advanced after combat this player turn (8.5: no other activity).
    #[serde(default)]
    pub advanced: bool,
    /// Displaced this player turn (8.3.1: an attacker's displaced unit may not attack).
    #[serde(default)]
    pub displaced: bool,
}

impl UnitState {
    /// The hex the unit is on, if on the map.
    pub fn hex(&self) -> Option<Hex> {
        match self.loc {
            Location::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// One side's support fire markers this game turn (7.0). Markers not listed here are
/// in the pool.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
pub struct SupportState {
    /// Allotted this game turn and not yet used, sorted ascending.
    pub available: Vec<u8>,
    /// Used this game turn (revealed), returned to the pool at the next allotment.
    pub used: Vec<u8>,
}

/// A support fire marker committed to the current bombardment or combat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct CommittedMarker {
    /// Whose marker.
    pub side: Side,
    /// Its "+" value; `None` only in a view where it is face down and not the viewer's.
    pub value: Option<u8>,
    /// Flipped face up (8.2.1(b) last step).
    pub revealed: bool,
}

/// Bombardment or ground combat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    /// 8.1.
    Bombardment,
    /// 8.2.
    Ground,
}

/// Why a unit must lose a step by its owner's choice.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// Ex: one attacking unit depletes (8.2.4).
    Exchange,
    /// (A): one attacking (or, in bombardment, adjacent) unit depletes.
    AttackerStep,
    /// Suez 1916 Ex: the defending player picks which defending unit depletes.
    ExchangeDefender,
    /// Suez 1916 10.3: A3 / D3 deplete one unit at the end of the retreat.
    AfterRetreat,
}

/// What the combat in progress waits for.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum CombatStage {
    /// 8.2.1(b): step 0-3 of the alternating support-fire commitment.
    Support {
        /// 0 attacker, 1 defender, 2 attacker, 3 defender.
        step: u8,
    },
    /// The owner picks which unit loses a step.
    ChooseLoss {
        /// Who chooses.
        side: Side,
        /// Units that may take the loss.
        candidates: Vec<UnitId>,
        /// Why.
        reason: LossReason,
    },
    /// Units that must retreat (or declare stiff resistance), in any order.
    Retreat {
        /// Owner of the retreating units.
        side: Side,
        /// Units still to retreat.
        units: Vec<UnitId>,
        /// Hexes to retreat.
        hexes: u8,
    },
    /// Meuse Argonne 18.1: the German player may declare the Lost Battalion.
    LostBattalion,
    /// Meuse Argonne 17.5: a unit hit by artillery may retreat one hex instead of
    /// taking its hits.
    ArtilleryRetreat {
        /// The hit unit (of a brigade stack, its first brigade, which names the stack).
        unit: UnitId,
        /// Hits scored on it.
        hits: u8,
        /// Meuse Argonne 13.2: the other brigades stacked with `unit`, which retreat
        /// with it or take the hits with it (empty for a lone unit).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        stacked: Vec<UnitId>,
    },
    /// 8.5: the attacker may advance along the path of retreat.
    Advance {
        /// Path of retreat, the combat hex first.
        path: Vec<Hex>,
        /// Units that may still advance.
        units: Vec<UnitId>,
    },
}

/// A bombardment or ground combat being resolved.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Combat {
    /// Bombardment or ground combat.
    pub kind: CombatKind,
    /// The defending hex.
    pub hex: Hex,
    /// Attacking units (empty for bombardment).
    pub attackers: Vec<UnitId>,
    /// Defending units.
    pub defenders: Vec<UnitId>,
    /// Support fire markers committed by both sides.
    pub markers: Vec<CommittedMarker>,
    /// The CRT result once rolled.
    pub result: Option<CrtResult>,
    /// Hexes the defender retreated through (the path of retreat, 8.5), combat hex first.
    pub retreat_path: Vec<Hex>,
    /// What the combat waits for.
    pub stage: CombatStage,
    /// Meuse Argonne 18.1: `None` until asked; then whether the Lost Battalion was
    /// declared for this attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_battalion: Option<bool>,
}

/// State used only by exclusive rules; empty (and omitted from JSON) under the
/// system rules.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
pub struct ExclusiveState {
    /// Meuse Argonne 17.6: hexes whose trench works were breached by bombardment.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub breached: BTreeSet<Hex>,
    /// Meuse Argonne 17.1: artillery bombardment markers left this game turn.
    #[serde(default, skip_serializing_if = "is_zero_pair")]
    pub artillery: SidePair<u8>,
    /// Meuse Argonne 17.2: markers already placed on each enemy unit this player turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub artillery_on: BTreeMap<UnitId, u8>,
    /// Meuse Argonne 17.2: artillery placed this phase and not yet fired, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artillery_plan: Vec<ArtilleryPlan>,
    /// Meuse Argonne 17.3: hexes holding an Allied aircraft this player turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aircraft: Vec<Hex>,
    /// Meuse Argonne 11.3 / 11.6: the replacement is spent (Allies: this movement
    /// phase; Germans: for the game).
    #[serde(default, skip_serializing_if = "is_false_pair")]
    pub replacement_used: SidePair<bool>,
    /// Meuse Argonne 18.1: the Lost Battalion has been declared.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lost_battalion_used: bool,
    /// Meuse Argonne 13.2: three-step divisions broken down into brigades.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub broken_down: BTreeSet<UnitId>,
    /// Meuse Argonne 13.2: brigades of a division broken down before it entered the
    /// map (in its phase of arrival) that have not entered yet, each with that
    /// division, whose entry hexes they use.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub arriving_brigades: BTreeMap<UnitId, UnitId>,
    /// Vimy Ridge 11.3 / 11.6: replacements left this night movement phase.
    #[serde(default, skip_serializing_if = "is_zero_pair")]
    pub replacements: SidePair<u8>,
    /// Vimy Ridge 18.1: Allied aircraft markers lost to the Red Baron.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub aircraft_lost: u8,
    /// Vimy Ridge 18.3: the divisions that have attacked each unit this phase.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attacked_by: BTreeMap<UnitId, BTreeSet<String>>,
    /// Suez 1916 11.3: British units not activated yet.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub inactive: BTreeSet<UnitId>,
    /// Suez 1916 18.3: each side's fire support pool (strengths, sorted). Face down:
    /// per-side views show only its size.
    #[serde(default, skip_serializing_if = "is_empty_pair")]
    pub pool: SidePair<Vec<u8>>,
    /// Suez 1916 18.3: markers used this day (revealed), back in the pool on the
    /// next morning turn.
    #[serde(default, skip_serializing_if = "is_empty_pair")]
    pub spent: SidePair<Vec<u8>>,
    /// Suez 1916 11.2, 11.4: markers not in the pool yet (British set aside, Central
    /// Powers Reinforcements box). Per-side views show only their number.
    #[serde(default, skip_serializing_if = "is_empty_pair")]
    pub reserve: SidePair<Vec<u8>>,
    /// Suez 1916 11.5: regiments of the 27th Division that have arrived.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub regiments: u8,
    /// Suez 1916 18.1: the side placing fire support markers now (the attacker, then
    /// the defender), at the start of a combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_stage: Option<Side>,
    /// Suez 1916 18.1: markers placed this combat phase and not yet revealed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire_plan: Vec<FirePlacement>,
    /// Suez 1916 18.5: the hex the air unit observes this combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub air_observe: Option<Hex>,
    /// Suez 1916 18.5: the air unit has been used this game turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub air_used: bool,
    /// Suez 1916 18.1: ground attacks announced with the bombardment of their hex,
    /// made once the markers are resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub announced: Vec<AnnouncedAttack>,
    /// Suez 1916 13.1: the hex whose attack Kress assists this combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kress: Option<Hex>,
    /// Suez 1916 16.0: British units moved by rail this movement phase.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rail_moves: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_empty_pair(p: &SidePair<Vec<u8>>) -> bool {
    p.a.is_empty() && p.b.is_empty()
}

/// A fire support marker placed on a hex (Suez 1916 18.1).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct FirePlacement {
    /// Whose marker.
    pub side: Side,
    /// The bombarded hex.
    pub hex: Hex,
    /// Its strength; `None` in a per-side view while it is face down.
    pub value: Option<u8>,
    /// The air unit (18.5: its strength is known to both players).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub air: bool,
}

/// A ground attack announced with a bombardment (Suez 1916 18.1).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct AnnouncedAttack {
    /// The target hex.
    pub hex: Hex,
    /// The units that will attack it.
    pub units: Vec<UnitId>,
}

/// Artillery markers placed on a hex, waiting to be rolled (Meuse Argonne 17.2).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ArtilleryPlan {
    /// Target hex.
    pub hex: Hex,
    /// Markers placed (1 or 2).
    pub markers: u8,
    /// 17.7: gas.
    pub gas: bool,
}

fn is_zero_pair(p: &SidePair<u8>) -> bool {
    p.a == 0 && p.b == 0
}

fn is_false_pair(p: &SidePair<bool>) -> bool {
    !p.a && !p.b
}

impl ExclusiveState {
    /// True when no exclusive rule has recorded anything.
    pub fn is_empty(&self) -> bool {
        *self == ExclusiveState::default()
    }
}

/// How the game ended.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// Winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why, in words.
    pub reason: String,
}

/// A part of the state that changes rarely, shared between copies of a state until one
/// of them changes it (copy on write): copying a state costs a reference count for it,
/// and the first change to a shared copy copies it. It reads and writes as the value
/// itself (`s.ex.breached`, `s.support.get_mut(side)`); its JSON form, hash and
/// equality are the value's.
///
/// ```
/// use fm_core::Shared;
/// let a = Shared::new(vec![1u8, 2]);
/// let mut b = a.clone();
/// b.push(3); // b is copied here; a is unchanged
/// assert_eq!(*a, [1, 2]);
/// assert_eq!(*b, [1, 2, 3]);
/// ```
#[derive(Default, PartialEq, Eq, Hash)]
pub struct Shared<T>(std::sync::Arc<T>);

impl<T> Shared<T> {
    /// A value, not shared yet.
    pub fn new(v: T) -> Shared<T> {
        Shared(std::sync::Arc::new(v))
    }
}

impl<T> Clone for Shared<T> {
    #[inline]
    fn clone(&self) -> Shared<T> {
        Shared(self.0.clone())
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(ser)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Shared<T>, D::Error> {
        T::deserialize(de).map(Shared::new)
    }
}

impl<T> From<T> for Shared<T> {
    fn from(v: T) -> Shared<T> {
        Shared::new(v)
    }
}

/// The units' ids of a state, in scenario order, shared.
pub type UnitIds = std::sync::Arc<[UnitId]>;

/// The units of a state or view, in scenario order: their states, plain copyable data,
/// and their ids, one list the scenario's states share. Copying it copies no strings
/// and touches one reference count. It reads as a slice of [`UnitState`] (indexing,
/// `iter`, `len`); its JSON form and its hash carry each unit's id with its state
/// (`[{"id": "US-1", "loc": …}, …]`), as when the ids were in the states.
///
/// ```
/// use fm_core::{Scenario, State};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let s = State::initial(&sc);
/// assert_eq!(s.units.len(), sc.units.len());
/// assert_eq!(s.units.id(0), &sc.units[0].data.id);
/// let json = serde_json::to_value(&s).unwrap();
/// assert_eq!(json["units"][0]["id"], sc.units[0].data.id.to_string());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnitList {
    /// The ids, in the order of `states`.
    pub ids: UnitIds,
    /// The units' states.
    pub states: Vec<UnitState>,
}

impl UnitList {
    /// Units with these ids and states.
    ///
    /// # Panics
    /// If the two differ in length (a programming error: the list is the scenario's).
    pub fn new(ids: UnitIds, states: Vec<UnitState>) -> UnitList {
        assert_eq!(ids.len(), states.len(), "one id per unit state");
        UnitList { ids, states }
    }

    /// Unit `i`'s id.
    #[inline]
    pub fn id(&self, i: usize) -> &UnitId {
        &self.ids[i]
    }

    /// The unit with this id, if any (a linear search: use the scenario's
    /// [`Scenario::unit_index`] where speed matters).
    pub fn by_id(&self, id: &UnitId) -> Option<&UnitState> {
        self.ids
            .iter()
            .position(|x| x == id)
            .map(|i| &self.states[i])
    }
}

impl std::ops::Deref for UnitList {
    type Target = [UnitState];
    #[inline]
    fn deref(&self) -> &[UnitState] {
        &self.states
    }
}

impl std::ops::DerefMut for UnitList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [UnitState] {
        &mut self.states
    }
}

impl<'a> IntoIterator for &'a UnitList {
    type Item = &'a UnitState;
    type IntoIter = std::slice::Iter<'a, UnitState>;
    fn into_iter(self) -> Self::IntoIter {
        self.states.iter()
    }
}

/// Exactly what the derived hash of a `Vec` of units carrying their ids wrote (the
/// legacy state hash of save formats 2-3 depends on it): the length, then each unit's
/// id and state.
impl Hash for UnitList {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_usize(self.states.len());
        for (id, u) in self.ids.iter().zip(&self.states) {
            id.hash(h);
            u.hash(h);
        }
    }
}

/// A unit as JSON writes it: its id, then its state.
#[derive(Serialize)]
struct UnitOut<'a> {
    id: &'a UnitId,
    #[serde(flatten)]
    state: &'a UnitState,
}

/// A unit as JSON reads it.
#[derive(Deserialize)]
struct UnitIn {
    id: UnitId,
    #[serde(flatten)]
    state: UnitState,
}

impl Serialize for UnitList {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = ser.serialize_seq(Some(self.states.len()))?;
        for (id, state) in self.ids.iter().zip(&self.states) {
            seq.serialize_element(&UnitOut { id, state })?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for UnitList {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<UnitList, D::Error> {
        let units = Vec::<UnitIn>::deserialize(de)?;
        let (ids, states): (Vec<UnitId>, Vec<UnitState>) =
            units.into_iter().map(|u| (u.id, u.state)).unzip();
        Ok(UnitList {
            ids: ids.into(),
            states,
        })
    }
}

/// The dynamic state of a game.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct State {
    /// Game turn, 1-based.
    pub turn: u16,
    /// Current phase.
    pub phase: Phase,
    /// The phasing (active) side; during set-up, the side placing units.
    pub active: Side,
    /// Units, in scenario order.
    pub units: UnitList,
    /// Support fire markers (shared between copies until one changes them).
    pub support: Shared<SidePair<SupportState>>,
    /// Markers that bombarded each hex this player turn (8.1: at most two).
    pub bombarded: BTreeMap<Hex, u8>,
    /// Last side to occupy each objective hex.
    pub control: BTreeMap<Hex, Side>,
    /// The bombardment or combat being resolved.
    pub combat: Option<Combat>,
    /// Set when the game is over.
    pub outcome: Option<Outcome>,
    /// Bookkeeping of the exclusive rules (shared between copies until one changes it).
    #[serde(default, skip_serializing_if = "ExclusiveState::is_empty")]
    pub ex: Shared<ExclusiveState>,
}

/// The decision the game waits for.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// Place units during set-up.
    Setup {
        /// Who places.
        side: Side,
    },
    /// The main decision of a phase: move, bombard, attack, or `done`.
    Phase {
        /// The active side.
        side: Side,
        /// The phase.
        phase: Phase,
    },
    /// Commit a support fire marker or pass (8.2.1(b)).
    SupportFire {
        /// Who decides.
        side: Side,
        /// Step 0-3.
        step: u8,
    },
    /// Choose which unit loses a step.
    ChooseLoss {
        /// Who chooses.
        side: Side,
        /// Candidates.
        candidates: Vec<UnitId>,
        /// Why.
        reason: LossReason,
    },
    /// Retreat units or declare stiff resistance (8.3, 8.4).
    Retreat {
        /// Who retreats.
        side: Side,
        /// Units still to retreat.
        units: Vec<UnitId>,
        /// Hexes to retreat.
        hexes: u8,
    },
    /// Meuse Argonne 18.1: declare the Lost Battalion (or not) before the roll.
    LostBattalion {
        /// The German side.
        side: Side,
    },
    /// Meuse Argonne 17.5: retreat one hex (`retreat`) or take the hits
    /// (`stiff_resistance`), both naming `unit`. A brigade stack (13.2) decides as one
    /// unit: it retreats whole into one hex or takes its hits.
    ArtilleryRetreat {
        /// Owner of the hit unit.
        side: Side,
        /// The unit (of a brigade stack, its first brigade, which names the stack).
        unit: UnitId,
        /// Hits scored.
        hits: u8,
        /// Meuse Argonne 13.2: the other brigades of the stack (omitted for a lone
        /// unit).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        stacked: Vec<UnitId>,
    },
    /// Suez 1916 18.1: place fire support markers (`bombard`, `air_unit`), announce the
    /// attacks they support (`attack`, the attacker only), or `done`.
    FireSupport {
        /// Who places: the phasing side first, then the defending side.
        side: Side,
    },
    /// Advance after combat or `done` (8.5).
    Advance {
        /// The attacker.
        side: Side,
        /// Path of retreat.
        path: Vec<Hex>,
        /// Units that may advance.
        units: Vec<UnitId>,
    },
    /// The game is over.
    GameOver {
        /// Winner, `None` for a draw.
        winner: Option<Side>,
    },
}

impl Pending {
    /// The side whose decision it is, if any.
    pub fn side(&self) -> Option<Side> {
        match self {
            Pending::Setup { side }
            | Pending::Phase { side, .. }
            | Pending::SupportFire { side, .. }
            | Pending::ChooseLoss { side, .. }
            | Pending::Retreat { side, .. }
            | Pending::Advance { side, .. }
            | Pending::LostBattalion { side }
            | Pending::FireSupport { side }
            | Pending::ArtilleryRetreat { side, .. } => Some(*side),
            Pending::GameOver { .. } => None,
        }
    }
}

/// FNV-1a over the bytes `Hash` writes (little-endian, `usize` as 64 bits): the same on
/// every platform and build. Views are hashed with it, and so were states up to save
/// format 3 ([`State::legacy_hash`]).
pub(crate) struct StableHasher(u64);

impl StableHasher {
    pub(crate) fn new() -> StableHasher {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write(&[i]);
    }
    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_le_bytes());
    }
    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_le_bytes());
    }
    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }
    fn write_i32(&mut self, i: i32) {
        self.write(&i.to_le_bytes());
    }
    fn write_i64(&mut self, i: i64) {
        self.write(&i.to_le_bytes());
    }
    fn write_isize(&mut self, i: isize) {
        self.write(&(i as i64).to_le_bytes());
    }
}

impl UnitState {
    /// The unit's state as one word for [`State::hash`] (everything but its id), and a
    /// second only for MP spent beyond 31 bits (never in play: MP count in sixths).
    #[inline]
    fn words(&self) -> (u64, Option<u64>) {
        let UnitState {
            loc,
            steps,
            moved,
            mp_spent,
            attacked,
            attacked_this_turn,
            defended,
            advanced,
            displaced,
        } = self;
        let (tag, hex) = match loc {
            Location::Map(h) => (0u64, u64::from(h.col) | u64::from(h.row) << 8),
            Location::ToPlace => (1, 0),
            Location::Scheduled => (2, 0),
            Location::Arriving => (3, 0),
            Location::Eliminated => (4, 0),
            Location::OffMap => (5, 0),
        };
        let flags = u64::from(*moved)
            | u64::from(*attacked) << 1
            | u64::from(*attacked_this_turn) << 2
            | u64::from(*defended) << 3
            | u64::from(*advanced) << 4
            | u64::from(*displaced) << 5;
        let mp = u64::from(mp_spent.0);
        // Bits 0-2 the location, 3-18 its hex, 19-26 steps, 27-32 flags, 33-63 MP.
        let w = tag | hex << 3 | u64::from(*steps) << 19 | flags << 27 | (mp & 0x7fff_ffff) << 33;
        (w, (mp >> 31 != 0).then_some(mp >> 31))
    }
}

impl State {
    /// The state before any event: units where the scenario puts them, no phase begun
    /// (use [`crate::new_game`] to start play).
    pub fn initial(scenario: &Scenario) -> State {
        let units = scenario
            .units
            .iter()
            .map(|u| UnitState {
                loc: match &u.data.start {
                    StartData::Hex(h) => Location::Map(*h),
                    StartData::Zone(_) => Location::ToPlace,
                    StartData::Reinforcement { .. } => Location::Scheduled,
                    StartData::OffMap => Location::OffMap,
                },
                steps: u.max_steps() - u.data.start_depleted,
                moved: false,
                mp_spent: Mp::ZERO,
                attacked: false,
                attacked_this_turn: false,
                defended: false,
                advanced: false,
                displaced: false,
            })
            .collect::<Vec<_>>();
        let units = UnitList::new(scenario.unit_ids(), units);
        let mut control = BTreeMap::new();
        for h in scenario.objective_hexes() {
            if let Some(u) = units.iter().position(|u| u.loc == Location::Map(h)) {
                control.insert(h, scenario.units[u].data.side);
            }
        }
        let mut ex = ExclusiveState::default();
        scenario.rules().initial(scenario, &mut control, &mut ex);
        State {
            turn: scenario.data.start.turn,
            phase: Phase::Setup,
            active: scenario.data.first_player,
            units,
            support: Shared::default(),
            bombarded: BTreeMap::new(),
            control,
            combat: None,
            outcome: None,
            ex: Shared::new(ex),
        }
    }

    /// A 64-bit hash of the whole state, identical on every platform and build; for
    /// transposition tables and replay verification. It covers every hidden value
    /// (face-down markers, secret allotments, Suez pools), so it is referee material:
    /// a side that sees it can test guesses of what it may not know. Give players
    /// [`crate::View::hash`] instead.
    ///
    /// The units' ids are not hashed: they are the scenario's, in its order. Words,
    /// not bytes: a Meuse Argonne state hashes in a fraction of a microsecond. Save
    /// format 4 records it; formats 2 and 3 recorded [`State::legacy_hash`].
    pub fn hash(&self) -> u64 {
        // Every field, by name: a field added to `State` must be added here.
        let State {
            turn,
            phase,
            active,
            units,
            support,
            bombarded,
            control,
            combat,
            outcome,
            ex,
        } = self;
        let mut h = WordHasher::new();
        // Four units at a time, one to a lane, the lanes in registers.
        let [mut a, mut b, mut c, mut d] = h.lanes;
        let mut high = 0u64;
        let mut chunks = units.chunks_exact(4);
        for q in &mut chunks {
            let (w0, h0) = q[0].words();
            let (w1, h1) = q[1].words();
            let (w2, h2) = q[2].words();
            let (w3, h3) = q[3].words();
            a = word_mix(a, w0);
            b = word_mix(b, w1);
            c = word_mix(c, w2);
            d = word_mix(d, w3);
            high |= h0.or(h1).or(h2).or(h3).map_or(0, |_| 1);
        }
        h.lanes = [a, b, c, d];
        h.words += 4 * (units.len() / 4) as u64;
        for (k, u) in chunks.remainder().iter().enumerate() {
            let (w, x) = u.words();
            h.lane(k, w);
            high |= x.map_or(0, |_| 1);
        }
        // MP beyond 31 bits (never in play): every unit's high word, in order.
        if high != 0 {
            for (i, u) in units.iter().enumerate() {
                if let (_, Some(x)) = u.words() {
                    h.lane(i, x ^ (i as u64) << 40);
                }
            }
        }
        h.write_usize(units.len());
        turn.hash(&mut h);
        phase.hash(&mut h);
        active.hash(&mut h);
        support.hash(&mut h);
        bombarded.hash(&mut h);
        control.hash(&mut h);
        combat.hash(&mut h);
        outcome.hash(&mut h);
        ex.hash(&mut h);
        h.finish()
    }

    /// The state hash of save formats 2 and 3: FNV-1a over every byte `Hash` writes,
    /// unit ids included (about ten times slower than [`State::hash`]). Loading such a
    /// save verifies its recorded hashes with it; the golden tests pin it.
    pub fn legacy_hash(&self) -> u64 {
        let mut h = StableHasher::new();
        Hash::hash(self, &mut h);
        h.finish()
    }

    /// The decision the game waits for.
    pub fn pending(&self) -> Pending {
        if let Some(o) = &self.outcome {
            return Pending::GameOver { winner: o.winner };
        }
        if let Some(c) = &self.combat {
            let attacker = self.active;
            return match &c.stage {
                CombatStage::Support { step } => Pending::SupportFire {
                    side: if step % 2 == 0 {
                        attacker
                    } else {
                        attacker.other()
                    },
                    step: *step,
                },
                CombatStage::ChooseLoss {
                    side,
                    candidates,
                    reason,
                } => Pending::ChooseLoss {
                    side: *side,
                    candidates: candidates.clone(),
                    reason: *reason,
                },
                CombatStage::Retreat { side, units, hexes } => Pending::Retreat {
                    side: *side,
                    units: units.clone(),
                    hexes: *hexes,
                },
                CombatStage::LostBattalion => Pending::LostBattalion {
                    side: attacker.other(),
                },
                CombatStage::ArtilleryRetreat {
                    unit,
                    hits,
                    stacked,
                } => Pending::ArtilleryRetreat {
                    side: attacker.other(),
                    unit: unit.clone(),
                    hits: *hits,
                    stacked: stacked.clone(),
                },
                CombatStage::Advance { path, units } => Pending::Advance {
                    side: attacker,
                    path: path.clone(),
                    units: units.clone(),
                },
            };
        }
        if self.phase == Phase::Setup {
            return Pending::Setup { side: self.active };
        }
        if let Some(side) = self.ex.fire_stage {
            return Pending::FireSupport { side };
        }
        Pending::Phase {
            side: self.active,
            phase: self.phase,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Index of the (first) unit on a hex, if any (one unit per hex, 5.3, except
    /// where exclusive rules allow stacks).
    pub fn unit_at(&self, h: Hex) -> Option<usize> {
        self.units.iter().position(|u| u.loc == Location::Map(h))
    }

    /// Indices of every unit on a hex.
    pub fn units_at(&self, h: Hex) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&i| self.units[i].loc == Location::Map(h))
            .collect()
    }
}
