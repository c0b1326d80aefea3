//! [`Match`]: a scenario, its state, a seeded generator and the log of commands and
//! events, with JSON save/load that verifies itself on replay, and undo.

use crate::error::RuleError;
use crate::fm::command::Command;
use crate::fm::engine::{apply, new_game};
use crate::fm::event::Event;
use crate::fm::legal::legal_commands;
use crate::fm::scenario::{Scenario, ScenarioData, ScenarioError};
use crate::fm::state::{Pending, State};
use crate::fm::view::{view, View};
use crate::ids::Side;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One applied command, the events it caused (die rolls and draws included) and the
/// state hash after it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogEntry {
    /// The command.
    pub command: Command,
    /// Its events.
    pub events: Vec<Event>,
    /// [`State::hash`] after the events, written in JSON as 16 hex digits (a string, so
    /// that double-precision JSON parsers keep it exact).
    #[serde(with = "hex_u64")]
    pub hash: u64,
}

/// The save format [`Match::save`] writes and [`Match::load`] reads; any other is
/// refused. Format 2 added [`SavedMatch::seed_check`]; format 1 saves (which lack it)
/// are refused with a message saying how to recover them.
pub const SAVE_FORMAT: u32 = 2;

/// The longest save text [`Match::load`] reads, in bytes: 4 MiB. The longest
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
/// [`Match::export`] instead.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedMatch {
    /// Save format version ([`SAVE_FORMAT`]).
    pub format: u32,
    /// The scenario data.
    pub scenario: ScenarioData,
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
    /// Commands and their events.
    pub log: Vec<LogEntry>,
}

/// One command of a [`SideRecord`]: the command (commands are public in F&M), its
/// events as the side sees them, and the side's view hash after it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SideEntry {
    /// The command.
    pub command: Command,
    /// Its events, redacted for the side ([`Event::redacted_for`]).
    pub events: Vec<Event>,
    /// [`View::hash`] of the side's view after the events (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

/// A match as one side may know it, for play by e-mail and for a player's client: the
/// scenario, the side's redacted event stream and its current view. It holds no seed
/// and no hidden value, so it can be handed to that side's player.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideRecord {
    /// Record format version (1).
    pub format: u32,
    /// The side it is for.
    pub side: Side,
    /// The scenario data (public).
    pub scenario: ScenarioData,
    /// The opening events, redacted for the side.
    pub opening: Vec<Event>,
    /// Every command so far, its redacted events and the view hash after it.
    pub log: Vec<SideEntry>,
    /// The side's view now.
    pub view: View,
    /// Its hash (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

/// Errors from [`Match`] operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The scenario is invalid.
    #[error("scenario: {0}")]
    Scenario(#[from] ScenarioError),
    /// A command was refused.
    #[error("{0}")]
    Rule(#[from] RuleError),
    /// The save is not valid JSON of the expected shape.
    #[error("save file: {0}")]
    Json(String),
    /// Replaying the save gave different events or state than recorded.
    #[error("replay diverges at {}: {message}", match index { Some(i) => format!("command {i}"), None => "the opening".to_string() })]
    Diverged {
        /// Index of the first command whose replay differs (`None`: the opening).
        index: Option<usize>,
        /// What differs.
        message: String,
    },
}

/// A running game.
///
/// ```
/// use fm_core::{Command, Match};
/// let mut m = Match::new_builtin("system-demo", 1).unwrap();
/// let first = m.legal_commands()[0].clone(); // a set-up placement
/// m.apply(&first).unwrap();
/// assert!(m.apply(&Command::Done).is_err()); // set-up is not finished
/// let saved = m.save();
/// let again = Match::load(&saved).unwrap();
/// assert_eq!(again.state(), m.state());
/// m.undo();
/// assert_eq!(m.log().len(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Match {
    scenario: Arc<Scenario>,
    state: State,
    rng: Xoshiro256PlusPlus,
    seed: u64,
    opening: Vec<Event>,
    log: Vec<LogEntry>,
}

impl Match {
    /// Starts a match of `scenario` with a seed.
    pub fn new(scenario: Arc<Scenario>, seed: u64) -> Match {
        let mut rng = crate::rng_from_seed(seed);
        let (state, opening) = new_game(&scenario, &mut rng);
        Match {
            scenario,
            state,
            rng,
            seed,
            opening,
            log: Vec::new(),
        }
    }

    /// Starts a match of a built-in scenario.
    ///
    /// # Errors
    /// Unknown scenario name.
    pub fn new_builtin(name: &str, seed: u64) -> Result<Match, MatchError> {
        Ok(Match::new(Arc::new(Scenario::builtin(name)?), seed))
    }

    /// Applies a command, logging it. On error nothing changes.
    ///
    /// # Errors
    /// The [`RuleError`] from [`crate::apply`].
    pub fn apply(&mut self, cmd: &Command) -> Result<&[Event], RuleError> {
        let mut rng = self.rng.clone();
        let events = apply(&self.scenario, &self.state, cmd, &mut rng)?;
        self.rng = rng;
        self.state.apply_events(&self.scenario, &events);
        self.log.push(LogEntry {
            command: cmd.clone(),
            events,
            hash: self.state.hash(),
        });
        Ok(&self.log.last().expect("just pushed").events)
    }

    /// Applies the command with a stable index (see [`crate::command_to_index`]).
    ///
    /// # Errors
    /// A [`RuleError`] if the index means nothing here or the command is illegal.
    pub fn apply_index(&mut self, idx: usize) -> Result<&[Event], RuleError> {
        match crate::fm::encoding::index_to_command(&self.scenario, &self.state, idx) {
            Some(c) => self.apply(&c),
            None => Err(RuleError::new(
                "input",
                format!("action index {idx} has no command here"),
            )),
        }
    }

    /// Takes back the last command (rebuilding the state from the log). Returns false if
    /// there was nothing to undo.
    pub fn undo(&mut self) -> bool {
        if self.log.is_empty() {
            return false;
        }
        let mut cmds: Vec<Command> = self.log.iter().map(|e| e.command.clone()).collect();
        cmds.pop();
        let mut m = Match::new(self.scenario.clone(), self.seed);
        for c in &cmds {
            m.apply(c).expect("a logged command replays");
        }
        *self = m;
        true
    }

    /// Serializes the match (scenario, seed and log) as JSON, in save format
    /// [`SAVE_FORMAT`].
    pub fn save(&self) -> String {
        let s = SavedMatch {
            format: SAVE_FORMAT,
            scenario: self.scenario.data.clone(),
            seed: self.seed,
            seed_check: seed_check(self.seed),
            opening_hash: State::hash(&self.opening_state()),
            log: self.log.clone(),
        };
        serde_json::to_string(&s).expect("a match serializes")
    }

    /// The match as `side` may know it ([`SideRecord`]): what to give that side's
    /// player instead of a save.
    ///
    /// ```
    /// use fm_core::{Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// let r = m.export(Side::A);
    /// assert_eq!(r.log.len(), 1);
    /// assert_eq!(r.view_hash, m.view_hash(Side::A));
    /// let text = serde_json::to_string(&r).unwrap();
    /// assert!(!text.contains("seed"));
    /// ```
    pub fn export(&self, side: Side) -> SideRecord {
        let sc = &self.scenario;
        let mut s = self.opening_state();
        let log = self
            .log
            .iter()
            .map(|e| {
                s.apply_events(sc, &e.events);
                SideEntry {
                    command: e.command.clone(),
                    events: e.events.iter().map(|x| x.redacted_for(side)).collect(),
                    view_hash: view(sc, &s, side).hash(),
                }
            })
            .collect();
        let v = self.view(side);
        SideRecord {
            format: 1,
            side,
            scenario: sc.data.clone(),
            opening: self.opening.iter().map(|x| x.redacted_for(side)).collect(),
            log,
            view_hash: v.hash(),
            view: v,
        }
    }

    /// The hash of `side`'s view: what a player's client may be shown. [`State::hash`]
    /// (`self.state().hash()`, also in every [`LogEntry`]) covers hidden values and is
    /// the referee's.
    pub fn view_hash(&self, side: Side) -> u64 {
        self.view(side).hash()
    }

    fn opening_state(&self) -> State {
        let mut s = State::initial(&self.scenario);
        s.apply_events(&self.scenario, &self.opening);
        s
    }

    /// Loads a saved match, replaying every command and checking each recorded event
    /// and state hash.
    ///
    /// The save must be exactly what [`Match::save`] writes, up to JSON layout and key
    /// order: format [`SAVE_FORMAT`], no unknown or duplicate key anywhere, hashes as 16
    /// lowercase hex digits, every log entry in the form `save` writes, at most
    /// [`MAX_SAVE_BYTES`] of text and [`MAX_LOG_ENTRIES`] commands, a scenario claiming
    /// a built-in id equal to that built-in ([`ScenarioData::check_builtin_id`]), and a
    /// `seed_check` that matches the seed. A refused save changes nothing.
    ///
    /// # Errors
    /// [`MatchError::Json`] for text that is not such a save (the message names the
    /// JSON path), [`MatchError::Scenario`] for an invalid scenario or one that is not
    /// the built-in it claims to be, or [`MatchError::Diverged`] for a seed that does
    /// not match its check, or naming the first command whose replay differs from the
    /// record.
    pub fn load(json: &str) -> Result<Match, MatchError> {
        if json.len() > MAX_SAVE_BYTES {
            return Err(MatchError::Json(format!(
                "too large ({} bytes; the limit is {MAX_SAVE_BYTES} bytes)",
                json.len()
            )));
        }
        let value = crate::json::parse_strict(json).map_err(|e| MatchError::Json(e.to_string()))?;
        check_format(&value)?;
        if let Some(n) = value.get("log").and_then(|l| l.as_array()).map(Vec::len) {
            if n > MAX_LOG_ENTRIES {
                return Err(MatchError::Json(format!(
                    "log: {n} commands; the limit is {MAX_LOG_ENTRIES}"
                )));
            }
        }
        let saved: SavedMatch = serde_path_to_error::deserialize(&value).map_err(|e| {
            let path = e.path().to_string();
            if path == "." {
                MatchError::Json(e.inner().to_string())
            } else {
                MatchError::Json(format!("{path}: {}", e.inner()))
            }
        })?;
        // Events ignore unknown fields when read (docs/protocol.md), and a field-less
        // command cannot refuse them: compare the log with the form `save` writes, so
        // that nothing in a save is silently dropped.
        let written =
            serde_json::to_value(&saved.log).map_err(|e| MatchError::Json(format!("log: {e}")))?;
        if let Some(d) = crate::json::first_difference(&written, &value["log"], "log") {
            return Err(MatchError::Json(format!("{d} (not the form save writes)")));
        }
        drop(value);
        let sc = Arc::new(Scenario::from_data(saved.scenario)?);
        sc.data.check_builtin_id()?;
        if seed_check(saved.seed) != saved.seed_check {
            return Err(MatchError::Diverged {
                index: None,
                message: "`seed_check` does not match `seed`: the seed was changed after \
                          the save was written"
                    .into(),
            });
        }
        let mut m = Match::new(sc, saved.seed);
        if m.state.hash() != saved.opening_hash {
            return Err(MatchError::Diverged {
                index: None,
                message: "the opening state differs (different engine version?)".into(),
            });
        }
        for (k, e) in saved.log.iter().enumerate() {
            let events = m.apply(&e.command).map_err(|err| MatchError::Diverged {
                index: Some(k),
                message: format!("command refused on replay: {err}"),
            })?;
            if events != e.events.as_slice() {
                return Err(MatchError::Diverged {
                    index: Some(k),
                    message: "events differ from the record".into(),
                });
            }
            if m.state.hash() != e.hash {
                return Err(MatchError::Diverged {
                    index: Some(k),
                    message: "state hash differs from the record".into(),
                });
            }
        }
        Ok(m)
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// Shared handle to the scenario.
    pub fn scenario_arc(&self) -> Arc<Scenario> {
        self.scenario.clone()
    }
    /// The current state, every hidden value included (the referee's; a player gets
    /// [`Match::view`]).
    pub fn state(&self) -> &State {
        &self.state
    }
    /// The seed: with it every future die roll and draw is known (the referee's).
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The events that opened the game.
    pub fn opening_events(&self) -> &[Event] {
        &self.opening
    }
    /// Commands and events so far, unredacted, with state hashes (the referee's; a
    /// player gets [`Match::export`]).
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    /// Pending decision.
    pub fn pending(&self) -> Pending {
        self.state.pending()
    }
    /// Legal commands now.
    pub fn legal_commands(&self) -> Vec<Command> {
        legal_commands(&self.scenario, &self.state)
    }
    /// The state as one side sees it.
    pub fn view(&self, side: Side) -> View {
        view(&self.scenario, &self.state, side)
    }
    /// Winner, once over (`None` also for a draw: see [`State::outcome`]).
    pub fn winner(&self) -> Option<Side> {
        self.state.outcome.as_ref().and_then(|o| o.winner)
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }
}

/// The check value of a seed: the first output of the generator it seeds.
fn seed_check(seed: u64) -> u64 {
    rand_core::RngCore::next_u64(&mut crate::rng_from_seed(seed))
}

/// Refuses a save of another format before its shape is read, so that an old save
/// gets a message about its format rather than about a missing field.
fn check_format(v: &serde_json::Value) -> Result<(), MatchError> {
    let Some(obj) = v.as_object() else {
        return Err(MatchError::Json("a save file is a JSON object".into()));
    };
    match obj.get("format") {
        None => Err(MatchError::Json("missing field `format`".into())),
        Some(f) if f.as_u64() == Some(u64::from(SAVE_FORMAT)) => Ok(()),
        Some(f) if f.as_u64() == Some(1) => Err(MatchError::Json(format!(
            "format: save format 1 is no longer read (this engine reads format \
             {SAVE_FORMAT}, which adds `seed_check`); to recover the game, start a new match \
             with the save's scenario and seed, apply the commands of its log in order and \
             save it again"
        ))),
        Some(f) => Err(MatchError::Json(format!(
            "format: {f} is not a save format this engine reads (it reads format \
             {SAVE_FORMAT} only)"
        ))),
    }
}

/// Serde helper: a `u64` as a 16-digit lowercase hex string. Reading accepts exactly
/// that form (not uppercase, a sign, or fewer or more digits), so that a hash has one
/// spelling.
mod hex_u64 {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:016x}"))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        let lower_hex = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
        if s.len() != 16 || !s.bytes().all(|b| lower_hex(&b)) {
            let shown: String = s.chars().take(24).collect();
            let more = if shown.len() < s.len() { "…" } else { "" };
            return Err(serde::de::Error::custom(format!(
                "{}{more} is not a hash: 16 lowercase hex digits expected",
                serde_json::Value::String(shown)
            )));
        }
        u64::from_str_radix(&s, 16).map_err(serde::de::Error::custom)
    }
}
