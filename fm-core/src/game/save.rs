//! Saves: the format ([`SavedGame`], [`SAVE_FORMAT`], the limits on what a load reads),
//! built-in scenarios named by id and guarded by [`scenario_hash`] (validated once per
//! process and shared), [`GameMatch::save`], and [`GameMatch::load`], which replays the
//! log and checks every command's events and hash against the record.

use super::log::{hex_u64, hex_u64_opt};
use super::{Game, GameMatch, LogEntryOf, MatchError};
use crate::chance::{ChanceMode, ChanceModeChange};
use crate::error::ScenarioError;
use crate::ids::Side;
use crate::rng::RngReset;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The save format [`GameMatch::save`] writes. Format 6 records when the chance mode
/// changed ([`SavedGame::chance_modes`]) and replays each command in the mode it was
/// played in, refusing a log entry whose outcomes (`chance`) contradict it and a
/// `chance_mode` that is not the last one recorded (formats 2 to 5, which have no such
/// record, replay each entry by its outcomes alone). Format 5 records Huzzah! state hashes
/// by words (`huzzah::state::State::hash`; formats 2 to 4 recorded its `json_hash`,
/// which loading them still checks). Format 4 records Fire & Movement state hashes by
/// words (`State::hash`; formats 2 and 3 recorded `State::legacy_hash`, which loading
/// them still checks), and brought determinized saves. Format 3 lets a save name a built-in
/// scenario ([`SavedScenario::Builtin`], guarded by [`SavedGame::scenario_hash`])
/// instead of embedding its data; [`GameMatch::load`] also reads format 2 (the
/// scenario always embedded). Format 2 added [`SavedGame::seed_check`]; format 1 saves
/// (which lack it) are refused with a message saying how to recover them.
pub const SAVE_FORMAT: u32 = 6;

/// The oldest save format [`GameMatch::load`] reads.
const OLDEST_SAVE_FORMAT: u32 = 2;

/// The longest save text [`GameMatch::load`] reads, in bytes: 4 MiB. The longest
/// legitimate save we know of, a whole random game of Meuse Argonne (1,662 commands),
/// is about 500 KB; the limit is eight times that, and bounds the time and memory a
/// load can take whatever the file holds (with [`crate::json::MAX_JSON_COST`], which a
/// save of this size and the usual content just fits).
pub const MAX_SAVE_BYTES: usize = 4 << 20;

/// The most commands a save's log may hold: 50,000, thirty times the 1,662 of the
/// longest random game of a built-in scenario. A longer log is refused before any
/// replay.
pub const MAX_LOG_ENTRIES: usize = 50_000;

/// A saved match: the scenario, the seed and the log.
///
/// **A save is referee material.** It holds the generator's seed (so every future die
/// roll and draw) and the unredacted events (every face-down marker, every secret
/// allotment): whoever holds it knows everything either side may not. Give a player
/// [`GameMatch::export`] instead.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SavedGame<G: Game> {
    /// Save format version ([`SAVE_FORMAT`]).
    pub format: u32,
    /// The rules system, left out for Fire & Movement (`"fm"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The scenario: a built-in's id, or its data.
    pub scenario: SavedScenario<G>,
    /// With a built-in's id: [`scenario_hash`] of the built-in the save was written with
    /// (16 hex digits), so that a save is refused rather than replayed on a built-in
    /// that has changed since. Absent with embedded data.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex_u64_opt")]
    pub scenario_hash: Option<u64>,
    /// Seed of the match's generator.
    pub seed: u64,
    /// The first output of a generator seeded with `seed` (16 hex digits): checked on
    /// load, so that a seed edited before the first random event (which the replay
    /// alone cannot notice) is refused. It detects edits, not forgery: anyone with fm
    /// can compute it for another seed.
    #[serde(with = "hex_u64")]
    pub seed_check: u64,
    /// State hash after the opening events (16 hex digits).
    #[serde(with = "hex_u64")]
    pub opening_hash: u64,
    /// Where the generator was set since the seed ([`GameMatch::reseed`],
    /// [`GameMatch::set_rng_state`]), in order of `at`; absent when it never was. A
    /// replay sets the generator at each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rng_resets: Vec<RngReset>,
    /// How the match resolves draws; absent for [`ChanceMode::Sampled`]. From format 6,
    /// the mode of the last of `chance_modes` (or the mode before any).
    #[serde(default, skip_serializing_if = "is_sampled")]
    pub chance_mode: ChanceMode,
    /// Format 6 on: where the chance mode changed
    /// ([`GameMatch::chance_mode_changes`]), in order of `at`, each to another mode than
    /// the one before it (before the first: [`ChanceMode::Sampled`], or for a
    /// determinized save its source's `chance_mode`); absent when it never did. A
    /// replay plays each command in the mode in force: a command of explicit mode
    /// replays with its recorded outcomes (none recorded: it must draw nothing), one of
    /// sampled mode records none and draws from the generator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance_modes: Vec<ChanceModeChange>,
    /// In explicit chance mode, the command waiting for a chance outcome and the
    /// outcomes chosen so far; absent when none waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_pending: Option<SavedChance<G>>,
    /// For a match created in explicit chance mode
    /// ([`GameMatch::new_with_chance`]) whose opening drew: the outcomes chosen for
    /// the opening's draws (the generator drew none of them). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_chance: Option<Vec<u32>>,
    /// For a match made by [`GameMatch::determinized`]: the match it was drawn from
    /// and the side; absent otherwise. The generator's `seed` is the determinization's
    /// seed, `opening_hash` the drawn state's hash, and the log the commands since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub determinized: Option<SavedDeterminized>,
    /// Commands and their events.
    pub log: Vec<LogEntryOf<G>>,
}

/// Where a determinized match's opening came from ([`SavedGame::determinized`]): the
/// save of the match it was drawn from and the side it was drawn for. Loading it loads
/// (and so verifies) that save, draws the determinization again from `side`'s view
/// with the save's seed, checks the drawn state against `opening_hash`, then replays
/// the log.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedDeterminized {
    /// The side whose view the opening state was drawn from.
    pub side: Side,
    /// The save of the match it was drawn from (itself possibly determinized, at most
    /// [`MAX_DETERMINIZED_DEPTH`] deep).
    pub source: Box<serde_json::Value>,
}

/// How many determinizations deep a match may be: a determinized match's source may
/// itself be determinized, up to this many levels ([`GameMatch::determinized`] refuses
/// a deeper one, and [`GameMatch::load`] a save of one).
pub const MAX_DETERMINIZED_DEPTH: usize = 8;

/// Checks that the points of a save's list `field` (`rng_resets`, `chance_modes`) come
/// in order, each after the one before and within the log's `len` commands.
fn check_points(
    field: &str,
    what: &str,
    ats: impl Iterator<Item = usize>,
    len: usize,
) -> Result<(), MatchError> {
    let mut last_at = None;
    for (k, at) in ats.enumerate() {
        if at > len || last_at.is_some_and(|a| at <= a) {
            return Err(MatchError::Json(format!(
                "{field}[{k}].at: {at} is not after the previous {what} and within the log's \
                 {len} commands"
            )));
        }
        last_at = Some(at);
    }
    Ok(())
}

fn is_sampled(m: &ChanceMode) -> bool {
    *m == ChanceMode::Sampled
}

/// A command of a save waiting for a chance outcome ([`SavedGame::chance_pending`]).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SavedChance<G: Game> {
    /// The command; absent for the opening of a match created in explicit chance mode
    /// ([`GameMatch::new_with_chance`]), which waits before any command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<G::Command>,
    /// The outcomes chosen for its draws so far.
    pub outcomes: Vec<u32>,
}

/// The scenario of a save: a built-in scenario's id (JSON: a string), or the scenario's
/// data (JSON: an object), which [`GameMatch::save`] writes for a scenario that is not
/// exactly a built-in one.
#[derive(Clone, PartialEq, Debug)]
pub enum SavedScenario<G: Game> {
    /// A built-in scenario, by id.
    Builtin(String),
    /// The scenario data.
    Data(G::ScenarioData),
}

impl<G: Game> Serialize for SavedScenario<G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            SavedScenario::Builtin(name) => s.serialize_str(name),
            SavedScenario::Data(d) => d.serialize(s),
        }
    }
}

impl<'de, G: Game> Deserialize<'de> for SavedScenario<G> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<G>(std::marker::PhantomData<G>);
        impl<'de, G: Game> serde::de::Visitor<'de> for V<G> {
            type Value = SavedScenario<G>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a built-in scenario's id or scenario data")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(SavedScenario::Builtin(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                // Through the same map access, so that an error keeps its JSON path.
                G::ScenarioData::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(SavedScenario::Data)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The hash of a scenario that a save naming it records: FNV-1a (64 bits) over its
/// data's compact JSON (the engine's field order), the same on every platform.
pub fn scenario_hash<G: Game>(sc: &G::Scenario) -> u64 {
    let text = serde_json::to_string(G::scenario_data(sc)).expect("scenario data serializes");
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A built-in scenario, validated once per process and shared, with its
/// [`scenario_hash`].
struct CachedBuiltin {
    system: std::any::TypeId,
    name: &'static str,
    scenario: Arc<dyn std::any::Any + Send + Sync>,
    hash: u64,
}

static BUILTINS: std::sync::Mutex<Vec<CachedBuiltin>> = std::sync::Mutex::new(Vec::new());

/// The built-in scenario `name` of `G` and its hash (built on first use).
pub(super) fn cached_builtin<G: Game>(
    name: &str,
) -> Result<(Arc<G::Scenario>, u64), ScenarioError> {
    let system = std::any::TypeId::of::<G>();
    let mut cache = BUILTINS.lock().unwrap_or_else(|e| e.into_inner());
    let found = cache
        .iter()
        .find(|c| c.system == system && c.name == name)
        .map(|c| (c.scenario.clone(), c.hash));
    let (any, hash) = match found {
        Some(f) => f,
        None => {
            let sc = Arc::new(G::builtin(name)?);
            let hash = scenario_hash::<G>(&sc);
            // The built-in's own name, with the static lifetime the cache keeps.
            let name = G::builtin_names()
                .into_iter()
                .find(|n| *n == name)
                .unwrap_or("?");
            cache.push(CachedBuiltin {
                system,
                name,
                scenario: sc.clone(),
                hash,
            });
            (sc as Arc<dyn std::any::Any + Send + Sync>, hash)
        }
    };
    let sc = any.downcast::<G::Scenario>().map_err(|_| ScenarioError {
        path: String::new(),
        message: "built-in scenario cache: wrong type".into(),
    })?;
    Ok((sc, hash))
}

impl<G: Game> GameMatch<G> {
    /// Serializes the match (scenario, seed and log) as JSON, in save format
    /// [`SAVE_FORMAT`].
    ///
    /// A scenario equal to one of the system's built-ins is saved by its id and
    /// [`scenario_hash`]; any other scenario's data is embedded.
    pub fn save(&self) -> String {
        let (scenario, scenario_hash) = match self.builtin_id() {
            Some((name, hash)) => (SavedScenario::Builtin(name.to_string()), Some(hash)),
            None => (
                SavedScenario::Data(G::scenario_data(&self.scenario).clone()),
                None,
            ),
        };
        let s = SavedGame::<G> {
            format: SAVE_FORMAT,
            system: (!G::DEFAULT_SYSTEM).then(|| G::NAME.to_string()),
            scenario,
            scenario_hash,
            seed: self.seed,
            seed_check: seed_check(self.seed),
            opening_hash: G::state_hash(&self.opening.state),
            rng_resets: self.resets.clone(),
            chance_mode: self.chance_mode,
            chance_modes: self.mode_changes.clone(),
            chance_pending: self.pending_chance.as_ref().map(|p| SavedChance {
                command: p.command.clone(),
                outcomes: p.outcomes.clone(),
            }),
            opening_chance: self.opening.chance.clone(),
            determinized: self.determinized.as_ref().map(|d| SavedDeterminized {
                side: d.side,
                source: Box::new(serde_json::from_str(&d.source.save()).expect("a save is JSON")),
            }),
            log: self.log.to_vec(),
        };
        serde_json::to_string(&s).expect("a match serializes")
    }

    /// The id and hash of the built-in scenario this match's scenario equals, if any.
    fn builtin_id(&self) -> Option<(&'static str, u64)> {
        let data = G::scenario_data(&self.scenario);
        G::builtin_names().into_iter().find_map(|name| {
            let (b, hash) = cached_builtin::<G>(name).ok()?;
            (Arc::ptr_eq(&b, &self.scenario) || G::scenario_data(&b) == data)
                .then_some((name, hash))
        })
    }

    /// Loads a saved match, replaying every command and checking each recorded event
    /// and state hash.
    ///
    /// The save must be exactly what [`GameMatch::save`] writes, up to JSON layout and
    /// key order: format [`SAVE_FORMAT`], this rules system, no unknown or duplicate key
    /// anywhere, hashes as 16 lowercase hex digits, every log entry in the form `save`
    /// writes, at most [`MAX_SAVE_BYTES`] of text and [`MAX_LOG_ENTRIES`] commands, a
    /// scenario claiming a built-in id equal to that built-in
    /// ([`Game::check_builtin_id`]), and a `seed_check` that matches the seed. A
    /// refused save changes nothing.
    ///
    /// # Errors
    /// [`MatchError::Json`] for text that is not such a save (the message names the
    /// JSON path), [`MatchError::Scenario`] for an invalid scenario or one that is not
    /// the built-in it claims to be, or [`MatchError::Diverged`] for a seed that does
    /// not match its check, or naming the first command whose replay differs from the
    /// record.
    pub fn load(json: &str) -> Result<GameMatch<G>, MatchError> {
        if json.len() > MAX_SAVE_BYTES {
            return Err(MatchError::Json(format!(
                "too large ({} bytes; the limit is {MAX_SAVE_BYTES} bytes)",
                json.len()
            )));
        }
        let value = crate::json::parse_strict(json).map_err(|e| MatchError::Json(e.to_string()))?;
        Self::load_value(value)
    }

    /// [`GameMatch::load`] for a strictly parsed save.
    ///
    /// # Errors
    /// As [`GameMatch::load`].
    pub(crate) fn load_value(value: serde_json::Value) -> Result<GameMatch<G>, MatchError> {
        Self::load_value_at(value, 0)
    }

    /// [`GameMatch::load_value`] of a save `depth` determinized sources deep.
    fn load_value_at(value: serde_json::Value, depth: usize) -> Result<GameMatch<G>, MatchError> {
        let format = check_format(&value)?;
        if format < 3 && value.get("scenario").is_some_and(|v| !v.is_object()) {
            return Err(MatchError::Json(format!(
                "scenario: a format {format} save embeds the scenario's data"
            )));
        }
        match value.get("system").and_then(|v| v.as_str()) {
            Some(system) if system != G::NAME => {
                return Err(MatchError::Json(format!(
                    "system: a save of the {system:?} rules system, not {:?}",
                    G::NAME
                )));
            }
            None if !G::DEFAULT_SYSTEM => {
                return Err(MatchError::Json(format!(
                    "system: the save names no rules system (a save of the default system), \
                     not {:?}",
                    G::NAME
                )));
            }
            _ => {}
        }
        if let Some(n) = value.get("log").and_then(|l| l.as_array()).map(Vec::len) {
            if n > MAX_LOG_ENTRIES {
                return Err(MatchError::Json(format!(
                    "log: {n} commands; the limit is {MAX_LOG_ENTRIES}"
                )));
            }
        }
        // Read untracked first (a third of a load's time went to tracking the path);
        // only a save that fails is read again to name where.
        let saved: SavedGame<G> = match SavedGame::<G>::deserialize(&value) {
            Ok(saved) => saved,
            Err(_) => serde_path_to_error::deserialize(&value).map_err(|e| {
                let path = e.path().to_string();
                if path == "." {
                    MatchError::Json(e.inner().to_string())
                } else {
                    MatchError::Json(format!("{path}: {}", e.inner()))
                }
            })?,
        };
        // Events ignore unknown fields when read (docs/protocol.md), and a field-less
        // command cannot refuse them: compare the log with the form `save` writes, so
        // that nothing in a save is silently dropped.
        let written =
            serde_json::to_value(&saved.log).map_err(|e| MatchError::Json(format!("log: {e}")))?;
        if let Some(d) = crate::json::first_difference(&written, &value["log"], "log") {
            return Err(MatchError::Json(format!("{d} (not the form save writes)")));
        }
        drop(value);
        let sc = match (saved.scenario, saved.scenario_hash) {
            (SavedScenario::Builtin(name), Some(hash)) => {
                let (sc, ours) = cached_builtin::<G>(&name)?;
                if ours != hash {
                    return Err(MatchError::Scenario(ScenarioError {
                        path: "scenario_hash".into(),
                        message: format!(
                            "the save was written with a built-in '{name}' (hash {hash:016x}) \
                             that differs from this engine's (hash {ours:016x}); load it with \
                             the engine that wrote it"
                        ),
                    }));
                }
                sc
            }
            (SavedScenario::Builtin(_), None) => {
                return Err(MatchError::Json(
                    "scenario_hash: a save naming a built-in scenario records its hash".into(),
                ))
            }
            (SavedScenario::Data(_), Some(_)) => {
                return Err(MatchError::Json(
                    "scenario_hash: only a save naming a built-in scenario has one".into(),
                ))
            }
            (SavedScenario::Data(data), None) => {
                let sc = Arc::new(G::scenario(data)?);
                G::check_builtin_id(G::scenario_data(&sc))?;
                sc
            }
        };
        if seed_check(saved.seed) != saved.seed_check {
            return Err(MatchError::Diverged {
                index: None,
                message: "`seed_check` does not match `seed`: the seed was changed after \
                          the save was written"
                    .into(),
            });
        }
        check_points(
            "rng_resets",
            "reset",
            saved.rng_resets.iter().map(|r| r.at),
            saved.log.len(),
        )?;
        // Format 6 records when the chance mode changed; older formats do not.
        let strict_modes = format >= 6;
        if !strict_modes && !saved.chance_modes.is_empty() {
            return Err(MatchError::Json(format!(
                "chance_modes: a format {format} save records none (format 6 on)"
            )));
        }
        check_points(
            "chance_modes",
            "change",
            saved.chance_modes.iter().map(|c| c.at),
            saved.log.len(),
        )?;
        for (k, e) in saved.log.iter().enumerate() {
            if strict_modes && e.chance.as_ref().is_some_and(Vec::is_empty) {
                return Err(MatchError::Json(format!(
                    "log[{k}].chance: an empty list (a command that drew nothing records none)"
                )));
            }
        }
        // The opening: drawn by the generator, or with chosen outcomes (a match created
        // in explicit chance mode), possibly still waiting for one.
        let opening_pending = saved
            .chance_pending
            .as_ref()
            .filter(|p| p.command.is_none())
            .map(|p| p.outcomes.clone());
        let opening_script =
            match (saved.opening_chance, opening_pending) {
                (Some(_), Some(_)) => return Err(MatchError::Json(
                    "opening_chance: an opening still waiting for a chance outcome records its \
                     outcomes in chance_pending"
                        .into(),
                )),
                (Some(o), None) if o.is_empty() => {
                    return Err(MatchError::Json(
                        "opening_chance: an opening that drew nothing records no outcomes".into(),
                    ))
                }
                (a, b) => a.or(b),
            };
        let pending_opening = saved
            .chance_pending
            .as_ref()
            .is_some_and(|p| p.command.is_none());
        if pending_opening && !saved.log.is_empty() {
            return Err(MatchError::Json(
                "chance_pending: only a match with no command yet waits for its opening".into(),
            ));
        }
        let mut m =
            match (saved.determinized, opening_script) {
                (None, None) => GameMatch::<G>::new(sc, saved.seed),
                (None, Some(o)) => GameMatch::<G>::with_scripted_opening(sc, saved.seed, o)
                    .map_err(|err| MatchError::Diverged {
                        index: None,
                        message: format!("opening_chance: {err}"),
                    })?,
                (Some(d), script) => {
                    let mut m = Self::load_determinized(d, &sc, saved.seed, format, depth)?;
                    // A determinization of a match waiting for its opening's draws
                    // waits for them too (or drew them, with these outcomes).
                    if let Some(o) = script {
                        m.open_scripted(o).map_err(|err| MatchError::Diverged {
                            index: None,
                            message: format!("opening_chance: {err}"),
                        })?;
                    }
                    m
                }
            };
        if m.pending_chance.is_some() != pending_opening {
            return Err(MatchError::Diverged {
                index: None,
                message: "the opening's recorded outcomes do not fit its draws".into(),
            });
        }
        // The mode before any recorded change: sampled, or a determinization's source's.
        let base_mode = m.base_chance_mode();
        if strict_modes {
            let mut before = base_mode;
            for (k, c) in saved.chance_modes.iter().enumerate() {
                if c.mode == before {
                    return Err(MatchError::Json(format!(
                        "chance_modes[{k}].mode: {:?} is the mode already in force (a change \
                         records another mode)",
                        c.mode.name()
                    )));
                }
                before = c.mode;
            }
            if saved.chance_mode != before {
                return Err(MatchError::Json(format!(
                    "chance_mode: {:?}, but the mode recorded last (chance_modes) is {:?}",
                    saved.chance_mode.name(),
                    before.name()
                )));
            }
        }
        let mut changes = saved.chance_modes.iter().peekable();
        let mut mode = base_mode;
        let mut resets = saved.rng_resets.iter().peekable();
        // For an older save: the mode each command shows it was played in, if any.
        let mut legacy_draws: Vec<Option<ChanceMode>> = Vec::new();
        // The hash the save was written with (the match's own log uses today's).
        let recorded_hash = |m: &GameMatch<G>| {
            // Formats 5 on hash every system's state as today's engine does.
            if format >= 5 {
                m.log
                    .last()
                    .map_or_else(|| G::state_hash(&m.state), |l| l.hash)
            } else {
                G::state_hash_in_format(&m.state, format)
            }
        };
        if recorded_hash(&m) != saved.opening_hash {
            return Err(MatchError::Diverged {
                index: None,
                message: "the opening state differs (different engine version?)".into(),
            });
        }
        for (k, e) in saved.log.iter().enumerate() {
            if let Some(r) = resets.next_if(|r| r.at == k) {
                m.set_rng_state(r.state);
            }
            let rng_before = m.rng_state();
            if let Some(c) = changes.next_if(|c| c.at == k) {
                mode = c.mode;
            }
            let applied = match (strict_modes, mode, &e.chance) {
                (true, ChanceMode::Sampled, Some(_)) => {
                    return Err(MatchError::Json(format!(
                        "log[{k}].chance: a command played in sampled chance mode (chance_modes) \
                         records no outcomes"
                    )))
                }
                (true, ChanceMode::Explicit, None) => m.apply_recorded(&e.command, None),
                (_, _, Some(o)) => m.apply_recorded(&e.command, Some(o)),
                (_, _, None) => m.apply_sampled(&e.command),
            };
            let events = applied.map_err(|err| MatchError::Diverged {
                index: Some(k),
                message: if err.rule == "chance" {
                    format!("log[{k}].chance: {}", err.message)
                } else {
                    format!("command refused on replay: {err}")
                },
            })?;
            if events != e.events.as_slice() {
                return Err(MatchError::Diverged {
                    index: Some(k),
                    message: "events differ from the record".into(),
                });
            }
            if recorded_hash(&m) != e.hash {
                return Err(MatchError::Diverged {
                    index: Some(k),
                    message: "state hash differs from the record".into(),
                });
            }
            if !strict_modes {
                legacy_draws.push(match &e.chance {
                    Some(_) => Some(ChanceMode::Explicit),
                    None if m.rng_state() != rng_before => Some(ChanceMode::Sampled),
                    None => None,
                });
            }
        }
        if let Some(r) = resets.next() {
            m.set_rng_state(r.state);
        }
        if strict_modes {
            m.mode_changes = saved.chance_modes;
            m.chance_mode = saved.chance_mode;
        } else {
            // An older save: the mode's changes as the log shows them (a command with
            // outcomes was played in explicit mode, one that drew from the generator in
            // sampled mode, one that drew nothing in either), then the saved mode.
            m.mode_changes = legacy_mode_changes(&legacy_draws, base_mode);
            m.chance_mode = m.mode_changes.last().map_or(base_mode, |c| c.mode);
            m.set_mode_from_now(saved.chance_mode);
        }
        if let Some(p) = saved.chance_pending {
            if m.chance_mode != ChanceMode::Explicit {
                return Err(MatchError::Json(
                    "chance_pending: only a match in explicit chance mode waits for one".into(),
                ));
            }
            let Some(command) = p.command else {
                // The opening, already drawn up to its pending draw above.
                return Ok(m);
            };
            m.apply_scripted(&command, p.outcomes)
                .map_err(|err| MatchError::Diverged {
                    index: None,
                    message: format!("chance_pending: the command is refused on replay: {err}"),
                })?;
            if m.pending_chance.is_none() {
                return Err(MatchError::Diverged {
                    index: None,
                    message: "chance_pending: the command does not wait for another outcome".into(),
                });
            }
        }
        Ok(m)
    }

    /// The opening of a determinized save ([`SavedDeterminized`]): its source loaded
    /// (and so verified), on the same scenario, determinized again for the side with
    /// the save's seed. The caller checks the drawn state against `opening_hash`.
    fn load_determinized(
        d: SavedDeterminized,
        sc: &Arc<G::Scenario>,
        seed: u64,
        format: u32,
        depth: usize,
    ) -> Result<GameMatch<G>, MatchError> {
        // Format 4 brought determinized saves.
        if format < 4 {
            return Err(MatchError::Json(format!(
                "determinized: a format {format} save is never determinized (format 4 on)"
            )));
        }
        if depth + 1 > MAX_DETERMINIZED_DEPTH {
            return Err(MatchError::Json(format!(
                "determinized: more than {MAX_DETERMINIZED_DEPTH} determinizations deep"
            )));
        }
        let source = Self::load_value_at(*d.source, depth + 1).map_err(|e| match e {
            MatchError::Json(m) => MatchError::Json(format!("determinized.source: {m}")),
            MatchError::Diverged { index, message } => MatchError::Diverged {
                index,
                message: format!("determinized.source: {message}"),
            },
            other => other,
        })?;
        if !Arc::ptr_eq(&source.scenario, sc)
            && G::scenario_data(&source.scenario) != G::scenario_data(sc)
        {
            return Err(MatchError::Json(
                "scenario: a determinized save's scenario is its source's".into(),
            ));
        }
        source
            .determinized_opening(d.side, seed)
            .map_err(|e| MatchError::Json(format!("determinized.source: {e}")))
    }
}

/// The changes of chance mode an older save's log shows (`draws`: the mode each
/// command was played in, `None` where either fits), from `base` on: each command
/// whose mode differs from the one in force starts a change.
fn legacy_mode_changes(draws: &[Option<ChanceMode>], base: ChanceMode) -> Vec<ChanceModeChange> {
    let mut changes = Vec::new();
    let mut mode = base;
    for (at, d) in draws.iter().enumerate() {
        if let Some(d) = *d {
            if d != mode {
                changes.push(ChanceModeChange { at, mode: d });
                mode = d;
            }
        }
    }
    changes
}

/// The check value of a seed: the first output of the generator it seeds.
fn seed_check(seed: u64) -> u64 {
    rand_core::RngCore::next_u64(&mut crate::rng::rng_from_seed(seed))
}

/// Refuses a save of another format before its shape is read, so that an old save
/// gets a message about its format rather than about a missing field.
fn check_format(v: &serde_json::Value) -> Result<u32, MatchError> {
    let Some(obj) = v.as_object() else {
        return Err(MatchError::Json("a save file is a JSON object".into()));
    };
    match obj.get("format").map(|f| (f, f.as_u64())) {
        None => Err(MatchError::Json("missing field `format`".into())),
        Some((_, Some(f)))
            if (u64::from(OLDEST_SAVE_FORMAT)..=u64::from(SAVE_FORMAT)).contains(&f) =>
        {
            Ok(f as u32)
        }
        Some((_, Some(1))) => Err(MatchError::Json(format!(
            "format: save format 1 is no longer read (this engine reads formats \
             {OLDEST_SAVE_FORMAT} to {SAVE_FORMAT}; format 2 added `seed_check`); to recover \
             the game, start a new match with the save's scenario and seed, apply the \
             commands of its log in order and save it again"
        ))),
        Some((f, _)) => Err(MatchError::Json(format!(
            "format: {f} is not a save format this engine reads (it reads formats \
             {OLDEST_SAVE_FORMAT} to {SAVE_FORMAT})"
        ))),
    }
}
