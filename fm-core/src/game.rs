//! The system-agnostic match layer: the [`Game`] trait a rules system implements, and
//! [`GameMatch`] (a scenario, its state, a seeded generator and the log of commands and
//! events, with JSON save/load that verifies itself on replay, undo, per-side views
//! and records), generic over it. [`crate::Match`] is the match of the Fire & Movement system.
//! The object-safe JSON layer over it, which every binding uses, is [`crate::any`].

use crate::chance::{ChanceMode, ChanceNode};
use crate::error::RuleError;
use crate::error::ScenarioError;
use crate::ids::Side;
use crate::rng::{RngReset, RngState};
use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::sync::Arc;

/// A rules system, as the match layer sees it: its types and the pure functions over
/// them. Fire & Movement ([`crate::Fm`]) is one; a second system implements this trait
/// and registers with [`crate::any::register`] to be reachable from every binding.
///
/// Contracts: `apply` is pure (it returns the events, or an error and changes
/// nothing); `fold` of those events gives the next state; `new_game` and `apply` draw
/// all randomness from `rng`, so a seed and the commands replay a game exactly;
/// `legal_commands` lists exactly the commands `apply` accepts; `view` and
/// `redacted` are what one side may know, and `view_hash` is equal for every state a
/// side cannot tell apart; `state_hash` covers everything (the referee's). The
/// implementing type is a marker (a unit struct); the bounds let generic records derive.
pub trait Game: Copy + PartialEq + Debug + Send + Sync + 'static {
    /// The system's name, as a scenario or save names it in `"system"`.
    const NAME: &'static str;
    /// Whether this system is the default one: the system that scenario JSON and saves
    /// naming no `"system"` belong to, whose saves therefore leave the member out (saves
    /// of formats 2 and 3 predate it). Fire & Movement, the first system, is; the
    /// registry ([`crate::any`]) holds exactly one such system among its built-in ones and
    /// refuses to [`register`](crate::any::register) another.
    const DEFAULT_SYSTEM: bool = false;
    /// A validated scenario.
    type Scenario: Debug + Send + Sync + 'static;
    /// A scenario as written in JSON.
    type ScenarioData: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The dynamic state.
    type State: Clone + PartialEq + Debug + Serialize + Send + Sync;
    /// A command.
    type Command: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// An event.
    type Event: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The decision the game waits for.
    type Pending: Clone + PartialEq + Debug + Serialize;
    /// The state as one side may know it.
    type View: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// The ids of the system's built-in scenarios.
    fn builtin_names() -> Vec<&'static str>;
    /// A built-in scenario.
    ///
    /// # Errors
    /// An unknown name.
    fn builtin(name: &str) -> Result<Self::Scenario, ScenarioError>;
    /// Parses scenario data (not yet validated).
    ///
    /// # Errors
    /// Data that does not deserialize, with its JSON path.
    fn scenario_data_from_value(v: serde_json::Value) -> Result<Self::ScenarioData, ScenarioError>;
    /// Validates scenario data.
    ///
    /// # Errors
    /// The first invalid value, with its JSON path.
    fn scenario(data: Self::ScenarioData) -> Result<Self::Scenario, ScenarioError>;
    /// The data a scenario was built from.
    fn scenario_data(sc: &Self::Scenario) -> &Self::ScenarioData;
    /// Refuses data that claims a built-in scenario's id but differs from it (saves).
    ///
    /// # Errors
    /// The mismatch.
    fn check_builtin_id(_data: &Self::ScenarioData) -> Result<(), ScenarioError> {
        Ok(())
    }
    /// The state before the opening events.
    fn initial(sc: &Self::Scenario) -> Self::State;
    /// Starts a game: its initial state and the events that bring it to its first
    /// decision.
    fn new_game(sc: &Self::Scenario, rng: &mut dyn RngCore) -> (Self::State, Vec<Self::Event>);
    /// The events `cmd` causes, or the rule it breaks.
    ///
    /// # Errors
    /// A refused command.
    fn apply(
        sc: &Self::Scenario,
        s: &Self::State,
        cmd: &Self::Command,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Self::Event>, RuleError>;
    /// [`Game::apply`], also returning the state after the events, which must equal
    /// the [`Game::fold`] of `s` with them (the match keeps it instead of folding the
    /// events again). The default folds a copy; a system whose `apply` builds that
    /// state anyway returns it.
    ///
    /// # Errors
    /// As [`Game::apply`].
    fn apply_with_state(
        sc: &Self::Scenario,
        s: &Self::State,
        cmd: &Self::Command,
        rng: &mut dyn RngCore,
    ) -> Result<(Vec<Self::Event>, Self::State), RuleError> {
        let events = Self::apply(sc, s, cmd, rng)?;
        let mut next = s.clone();
        Self::fold(sc, &mut next, &events);
        Ok((events, next))
    }
    /// Folds events into the state.
    fn fold(sc: &Self::Scenario, s: &mut Self::State, events: &[Self::Event]);
    /// The pending decision.
    fn pending(s: &Self::State) -> Self::Pending;
    /// Whose decision it is (`None` once the game is over).
    fn decider(p: &Self::Pending) -> Option<Side>;
    /// The winner (`None` for a draw) and why, once the game is over.
    fn outcome(s: &Self::State) -> Option<(Option<Side>, String)>;
    /// The legal commands, in a stable order.
    fn legal_commands(sc: &Self::Scenario, s: &Self::State) -> Vec<Self::Command>;
    /// What a [`GameMatch`] keeps between its listings to list faster (a cache of
    /// work that still holds, such as units' movement searches); `()` for a system
    /// that keeps nothing. It never changes a result: every `*_memo` method returns
    /// exactly what its from-scratch form returns.
    type Memo: Clone + Debug + Default + Send + Sync + 'static;
    /// [`Game::legal_commands`], with the match's memo.
    fn legal_commands_memo(
        sc: &Self::Scenario,
        s: &Self::State,
        _memo: &mut Self::Memo,
    ) -> Vec<Self::Command> {
        Self::legal_commands(sc, s)
    }
    /// The action indices of the legal commands, ascending and without duplicates
    /// (with the match's memo; the default converts [`Game::legal_commands`]).
    fn legal_indices_memo(
        sc: &Self::Scenario,
        s: &Self::State,
        memo: &mut Self::Memo,
    ) -> Vec<usize> {
        let mut v: Vec<usize> = Self::legal_commands_memo(sc, s, memo)
            .iter()
            .filter_map(|c| Self::command_to_index(sc, s, c))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// The uniformly random legal command of the built-in random agent (with the
    /// match's memo): draw `k` with [`crate::dynmatch::uniform_index`] over the number of
    /// legal commands, take the `k`-th of [`Game::legal_commands`]. `None` when no
    /// command is legal. A system may count and build only the one drawn; the draw
    /// and the command are the same.
    fn random_command_memo(
        sc: &Self::Scenario,
        s: &Self::State,
        memo: &mut Self::Memo,
        rng: &mut dyn RngCore,
    ) -> Option<Self::Command> {
        let mut cmds = Self::legal_commands_memo(sc, s, memo);
        if cmds.is_empty() {
            return None;
        }
        let k = crate::dynmatch::uniform_index(rng, cmds.len());
        Some(cmds.swap_remove(k))
    }
    /// The state as `side` may know it.
    fn view(sc: &Self::Scenario, s: &Self::State, side: Side) -> Self::View;
    /// A platform-independent hash of a view.
    fn view_hash(v: &Self::View) -> u64;
    /// An event as `side` may see it.
    fn redacted(e: &Self::Event, side: Side) -> Self::Event;
    /// A platform-independent hash of the whole state (the referee's).
    fn state_hash(s: &Self::State) -> u64;
    /// The state hash a save of format `format` records: [`Game::state_hash`] unless
    /// the system changed its hash since (Fire & Movement: formats 2 and 3 recorded
    /// `State::legacy_hash`).
    fn state_hash_in_format(s: &Self::State, _format: u32) -> u64 {
        Self::state_hash(s)
    }
    /// The size of the integer action space.
    fn action_space_size(sc: &Self::Scenario) -> usize;
    /// The stable index of a command.
    fn command_to_index(sc: &Self::Scenario, s: &Self::State, c: &Self::Command) -> Option<usize>;
    /// The command an index stands for now.
    fn index_to_command(sc: &Self::Scenario, s: &Self::State, i: usize) -> Option<Self::Command>;
    /// A state `side` cannot tell from `s`, with what it may not know drawn anew with
    /// its true probabilities, built from what the side knows alone (for determinized
    /// search, [`crate::search`]). The default, for a system without hidden
    /// information, is `s` itself.
    fn determinize(
        _sc: &Self::Scenario,
        s: &Self::State,
        _side: Side,
        _rng: &mut dyn RngCore,
    ) -> Self::State {
        s.clone()
    }
    /// The built-in AI's estimate of how well `side` stands, in [0, 1]: 1 won, 0 lost,
    /// ½ a draw. No rule: what [`crate::search`] scores its leaves with. The default
    /// knows only finished games (½ until then).
    fn evaluate(_sc: &Self::Scenario, s: &Self::State, side: Side) -> f64 {
        match Self::outcome(s) {
            Some((Some(w), _)) if w == side => 1.0,
            Some((Some(_), _)) => 0.0,
            _ => 0.5,
        }
    }
    /// [`Game::index_to_command`], with the match's memo.
    fn index_to_command_memo(
        sc: &Self::Scenario,
        s: &Self::State,
        _memo: &mut Self::Memo,
        i: usize,
    ) -> Option<Self::Command> {
        Self::index_to_command(sc, s, i)
    }

    /// An upper bound on the length of every game of the scenario, derived from its
    /// rules ([`crate::query::GameLength`]): no game, whatever its commands and dice, has more
    /// commands, nor more chance outcomes, from its first decision to its end. `None`
    /// (the default) for a system that cannot bound it, such as one whose rules let a
    /// loop of decisions go on for ever.
    fn max_game_length(_sc: &Self::Scenario) -> Option<crate::query::GameLength> {
        None
    }

    // --- Queries beyond play, for every binding through `crate::any` (`crate::query`).
    // Each has a default: a system without the query answers
    // `MatchError::Unsupported`, so a new system need not have them all.

    /// The `kind` member of the pending decision's JSON form (`"phase"`,
    /// `"game_over"`): what a host dispatches on without reading the whole decision.
    /// The default reads it from the JSON (the form itself when it is a string, `""`
    /// when it has no `kind`); a system may name it without serializing.
    fn pending_kind(p: &Self::Pending) -> std::borrow::Cow<'static, str> {
        let v = serde_json::to_value(p).expect("a pending decision serializes");
        let kind = match &v {
            serde_json::Value::String(s) => s.as_str(),
            _ => v.get("kind").and_then(|k| k.as_str()).unwrap_or(""),
        };
        std::borrow::Cow::Owned(kind.to_string())
    }
    /// Why `cmd` would be refused in `s`, or `None` if it is legal. The default tries
    /// it with [`Game::apply`] on a generator of fixed seed (0) and keeps the error:
    /// whether a command is legal never depends on the dice.
    fn explain(sc: &Self::Scenario, s: &Self::State, cmd: &Self::Command) -> Option<RuleError> {
        let mut rng = crate::rng::rng_from_seed(0);
        Self::apply(sc, s, cmd, &mut rng).err()
    }
    /// A picture of the game as SVG: of `side`'s view when a side is given (nothing
    /// it may not know), of the whole state (the referee's) otherwise. `options` is a
    /// JSON object of the system's drawing options (`{}`: the defaults).
    ///
    /// # Errors
    /// [`MatchError::Input`] for options that are not an object of the system's
    /// options with valid values; [`MatchError::Unsupported`] (the default).
    fn svg(
        _sc: &Self::Scenario,
        _s: &Self::State,
        _side: Option<Side>,
        _options: &serde_json::Value,
    ) -> Result<String, MatchError> {
        Err(crate::query::unsupported("svg", Self::NAME))
    }
    /// Where a unit can move now, as JSON (Fire & Movement: `fm_core::reachable`'s
    /// list of `{"hex", "cost", "path", "stop", "occupied"}`).
    ///
    /// # Errors
    /// [`MatchError::Rule`] (rule `"input"`) for a unit the scenario does not have;
    /// [`MatchError::Unsupported`] (the default).
    fn reachable(
        _sc: &Self::Scenario,
        _s: &Self::State,
        _unit: &str,
    ) -> Result<serde_json::Value, MatchError> {
        Err(crate::query::unsupported("reachable", Self::NAME))
    }
    /// The exact odds of a proposal (`proposal`: the system's JSON form of one, e.g.
    /// a Fire & Movement attack) as `side` knows them: from that side's knowledge
    /// alone, so two states it cannot tell apart give the same answer.
    ///
    /// # Errors
    /// [`MatchError::Input`] for a proposal that is not of the system's form,
    /// [`MatchError::Rule`] for one the rules cannot evaluate (an unknown unit, a hex
    /// without a defender), [`MatchError::Unsupported`] (the default).
    fn odds(
        _sc: &Self::Scenario,
        _s: &Self::State,
        _side: Side,
        _proposal: &serde_json::Value,
    ) -> Result<serde_json::Value, MatchError> {
        Err(crate::query::unsupported("odds", Self::NAME))
    }
    /// The layout of the learning observation of a scenario (fixed for it).
    ///
    /// # Errors
    /// [`MatchError::Unsupported`] (the default).
    fn observation_spec(_sc: &Self::Scenario) -> Result<crate::query::ObservationSpec, MatchError> {
        Err(crate::query::unsupported("observation", Self::NAME))
    }
    /// Writes `side`'s observation, computed from its view alone, into `out`, which
    /// holds exactly [`Game::observation_spec`]'s size (the match checks it).
    ///
    /// # Errors
    /// [`MatchError::Unsupported`] (the default).
    fn observation(
        _sc: &Self::Scenario,
        _s: &Self::State,
        _side: Side,
        _out: &mut [f32],
    ) -> Result<(), MatchError> {
        Err(crate::query::unsupported("observation", Self::NAME))
    }

    // --- The factored action space (`crate::factored`): a decision in a few small
    // steps. The default writes the flat index in two digits of a mixed radix
    // (`crate::factored::Radix`) and finds each step's options among the legal flat
    // indices; a system overrides all five methods together.

    /// The number of values of each step of the factored action space, fixed for the
    /// scenario (a sequence has at most this many steps).
    fn factored_sizes(sc: &Self::Scenario) -> Vec<usize> {
        crate::factored::radix(Self::action_space_size(sc)).sizes()
    }
    /// The factored sequence of a flat action index (a function of the scenario
    /// alone).
    ///
    /// # Errors
    /// [`crate::factored::FactoredError::Index`] for an index outside the action space or one
    /// that stands for no command.
    fn flat_to_factored(
        sc: &Self::Scenario,
        index: usize,
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        crate::factored::radix(Self::action_space_size(sc)).to_factored(index)
    }
    /// The flat action index of a complete factored sequence (a function of the
    /// scenario alone; the inverse of [`Game::flat_to_factored`]).
    ///
    /// # Errors
    /// A value that is no option of its step, a sequence too short
    /// ([`crate::factored::FactoredError::Incomplete`]) or too long.
    fn factored_to_flat(
        sc: &Self::Scenario,
        seq: &[usize],
    ) -> Result<usize, crate::factored::FactoredError> {
        crate::factored::radix(Self::action_space_size(sc)).to_flat(seq)
    }
    /// Whether a well-formed sequence is complete (`true`: it stands for a command) or
    /// a proper prefix (`false`: its next step is `seq.len()`); a function of the
    /// scenario alone.
    ///
    /// # Errors
    /// A value that is no option of its step, or a sequence longer than its command.
    fn factored_complete(
        sc: &Self::Scenario,
        seq: &[usize],
    ) -> Result<bool, crate::factored::FactoredError> {
        crate::factored::radix(Self::action_space_size(sc)).complete(seq)
    }
    /// The options of step `prefix.len()` after `prefix`, ascending: exactly the values
    /// that continue it towards at least one legal command now (with the match's memo).
    /// Empty for the empty prefix when no command is legal.
    ///
    /// # Errors
    /// As [`Game::factored_complete`]; [`crate::factored::FactoredError::Complete`] for a
    /// complete sequence, [`crate::factored::FactoredError::NotLegal`] for a prefix no legal
    /// command starts with.
    fn factored_options_memo(
        sc: &Self::Scenario,
        s: &Self::State,
        memo: &mut Self::Memo,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        crate::factored::proper_prefix(prefix, |p| Self::factored_complete(sc, p))?;
        let legal = Self::legal_indices_memo(sc, s, memo);
        let out =
            crate::factored::options_among(&legal, prefix, |i| Self::flat_to_factored(sc, i).ok());
        if out.is_empty() && !prefix.is_empty() {
            return Err(crate::factored::FactoredError::NotLegal {
                prefix: prefix.to_vec(),
            });
        }
        Ok(out)
    }
}

/// One applied command, the events it caused (die rolls and draws included) and the
/// state hash after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct LogEntryOf<G: Game> {
    /// The command.
    pub command: G::Command,
    /// Its events.
    pub events: Vec<G::Event>,
    /// [`Game::state_hash`] after the events, written in JSON as 16 hex digits (a
    /// string, so that double-precision JSON parsers keep it exact).
    #[serde(with = "hex_u64")]
    pub hash: u64,
    /// In explicit chance mode ([`ChanceMode::Explicit`]), the outcome chosen at each
    /// of the command's draws, in order (absent for a command that drew nothing, and
    /// for every command whose draws came from the generator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<Vec<u32>>,
}

/// The save format [`GameMatch::save`] writes. Format 4 records Fire & Movement state
/// hashes by words (`State::hash`; formats 2 and 3 recorded `State::legacy_hash`,
/// which loading them still checks). Format 3 lets a save name a built-in
/// scenario ([`SavedScenario::Builtin`], guarded by [`SavedGame::scenario_hash`])
/// instead of embedding its data; [`GameMatch::load`] also reads format 2 (the
/// scenario always embedded). Format 2 added [`SavedGame::seed_check`]; format 1 saves
/// (which lack it) are refused with a message saying how to recover them.
pub const SAVE_FORMAT: u32 = 4;

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
    /// How the match resolves draws; absent for [`ChanceMode::Sampled`].
    #[serde(default, skip_serializing_if = "is_sampled")]
    pub chance_mode: ChanceMode,
    /// In explicit chance mode, the command waiting for a chance outcome and the
    /// outcomes chosen so far; absent when none waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_pending: Option<SavedChance<G>>,
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

/// A command run with scripted draws: its events, the state after them, and how the
/// script fitted its draws.
type ScriptedRun<G> = (
    Vec<<G as Game>::Event>,
    <G as Game>::State,
    crate::chance::Scripted,
);

/// One command of an information state ([`GameMatch::information_state`]).
#[derive(Serialize)]
#[serde(bound = "")]
pub(crate) struct InfoEntry<'a, G: Game> {
    command: &'a G::Command,
    events: Vec<G::Event>,
}

/// An information state's parts: the hash of a drawn view, the opening's events, the
/// commands.
pub(crate) type InfoRecord<'a, G> = (Option<u64>, Vec<<G as Game>::Event>, Vec<InfoEntry<'a, G>>);

/// Outcomes that do not fit a command's draws (a replayed record).
fn misfit(found: crate::chance::Scripted) -> RuleError {
    RuleError::new(
        "chance",
        format!("the recorded outcomes do not fit the command's draws ({found:?})"),
    )
}

fn is_sampled(m: &ChanceMode) -> bool {
    *m == ChanceMode::Sampled
}

/// A command of a save waiting for a chance outcome ([`SavedGame::chance_pending`]).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SavedChance<G: Game> {
    /// The command.
    pub command: G::Command,
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
fn cached_builtin<G: Game>(name: &str) -> Result<(Arc<G::Scenario>, u64), ScenarioError> {
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

/// One command of a [`SideRecordOf`]: the command (commands are public in F&M), its
/// events as the side sees them, and the side's view hash after it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SideEntryOf<G: Game> {
    /// The command.
    pub command: G::Command,
    /// Its events, redacted for the side ([`Game::redacted`]).
    pub events: Vec<G::Event>,
    /// [`Game::view_hash`] of the side's view after the events (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

/// A match as one side may know it, for play by e-mail and for a player's client: the
/// scenario, the side's redacted event stream and its current view. It holds no seed
/// and no hidden value, so it can be handed to that side's player.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SideRecordOf<G: Game> {
    /// Record format version (1).
    pub format: u32,
    /// The side it is for.
    pub side: Side,
    /// The scenario data (public).
    pub scenario: G::ScenarioData,
    /// The opening events, redacted for the side.
    pub opening: Vec<G::Event>,
    /// Every command so far, its redacted events and the view hash after it.
    pub log: Vec<SideEntryOf<G>>,
    /// The side's view now.
    pub view: G::View,
    /// Its hash (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

/// Errors from match operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The scenario is invalid.
    #[error("scenario: {0}")]
    Scenario(#[from] ScenarioError),
    /// Scenario JSON that does not have a scenario's shape (the error names the JSON
    /// path).
    #[error("scenario JSON: {0}")]
    ScenarioJson(ScenarioError),
    /// A command was refused.
    #[error("{0}")]
    Rule(#[from] RuleError),
    /// The save is not valid JSON of the expected shape.
    #[error("save file: {0}")]
    Json(String),
    /// A command or scenario given as JSON is malformed (`command JSON: …`), or names
    /// an unknown rules system.
    #[error("{0}")]
    Input(String),
    /// Replaying the save gave different events or state than recorded.
    #[error("replay diverges at {}: {message}", match index { Some(i) => format!("command {i}"), None => "the opening".to_string() })]
    Diverged {
        /// Index of the first command whose replay differs (`None`: the opening).
        index: Option<usize>,
        /// What differs.
        message: String,
    },
    /// A query the match's rules system does not answer (`reachable` of Huzzah!, any
    /// picture of the toy race): the query and the system, by name.
    #[error("{query} is not supported by the {system:?} rules system")]
    Unsupported {
        /// The query (`"reachable"`, `"svg"`, `"odds"`, `"observation"`).
        query: String,
        /// The rules system ([`Game::NAME`]).
        system: String,
    },
}

/// A running game of any rules system.
///
/// Cloning is O(1) in the length of the log: the scenario, the opening and the log are
/// shared (the log is a persistent list, [`MatchLog`]), and only the current state and
/// the generator are copied.
pub struct GameMatch<G: Game> {
    scenario: Arc<G::Scenario>,
    state: G::State,
    rng: Xoshiro256PlusPlus,
    seed: u64,
    /// Where the generator was set since the seed ([`GameMatch::reseed`]), in order.
    resets: Vec<RngReset>,
    /// How draws are resolved.
    chance_mode: ChanceMode,
    /// In explicit chance mode, the command waiting for a chance outcome.
    pending_chance: Option<PendingChance<G>>,
    opening: Arc<Opening<G>>,
    log: MatchLog<G>,
    /// The system's listing memo ([`Game::Memo`]); a listing that finds it in use
    /// (another thread listing the same match) works from scratch instead of waiting.
    memo: std::sync::Mutex<G::Memo>,
    /// For a match made by [`GameMatch::determinized`], what it was drawn from.
    determinized: Option<Arc<Determinization<G>>>,
}

/// The origin of a determinized match ([`GameMatch::determinized`]).
struct Determinization<G: Game> {
    /// The match it was drawn from (its save is part of this match's save).
    source: GameMatch<G>,
    /// The side whose view the opening was drawn from.
    side: Side,
    /// 1 for a determinization of an ordinary match, one more for each level.
    depth: usize,
}

/// A command stopped at a draw (explicit chance mode): the outcomes chosen so far and
/// the number of outcomes of the next draw.
#[derive(Clone)]
struct PendingChance<G: Game> {
    command: G::Command,
    outcomes: Vec<u32>,
    next: u32,
}

/// The opening events and the state they lead to (shared by clones).
struct Opening<G: Game> {
    events: Vec<G::Event>,
    state: G::State,
}

/// A state snapshot is kept after every `SNAPSHOT_EVERY`-th command, so that
/// [`GameMatch::undo`] folds at most `SNAPSHOT_EVERY - 1` commands' events. A fold is
/// a fraction of a microsecond and a Meuse Argonne state some 4 KiB, so 64 keeps an
/// undo within microseconds at about 70 bytes of snapshot per command (16 cost 280).
const SNAPSHOT_EVERY: usize = 64;

/// The log of a [`GameMatch`]: its [`LogEntryOf`]s in order, as a persistent list that
/// clones of the match share (cloning it, pushing onto it and popping from it are O(1)
/// and never copy an entry). [`MatchLog::last`] and [`MatchLog::len`] are O(1);
/// [`MatchLog::get`] (and indexing) walks back from the end, O(len − index);
/// [`MatchLog::iter`] is O(len).
pub struct MatchLog<G: Game> {
    tip: Option<Arc<LogNode<G>>>,
}

/// One command of a [`MatchLog`], with what undoing it needs: the generator before it,
/// and every [`SNAPSHOT_EVERY`]-th command the state after it.
struct LogNode<G: Game> {
    entry: LogEntryOf<G>,
    prev: Option<Arc<LogNode<G>>>,
    len: usize,
    rng_before: Xoshiro256PlusPlus,
    snapshot: Option<Box<G::State>>,
}

impl<G: Game> Drop for LogNode<G> {
    // Unlinks the list iteratively: a recursive drop of 50,000 nodes would overflow
    // the stack.
    fn drop(&mut self) {
        let mut next = self.prev.take();
        while let Some(node) = next {
            match Arc::into_inner(node) {
                Some(mut n) => next = n.prev.take(),
                None => break,
            }
        }
    }
}

impl<G: Game> Clone for MatchLog<G> {
    fn clone(&self) -> Self {
        MatchLog {
            tip: self.tip.clone(),
        }
    }
}

impl<G: Game> Default for MatchLog<G> {
    fn default() -> Self {
        MatchLog { tip: None }
    }
}

impl<G: Game> MatchLog<G> {
    /// The number of commands.
    pub fn len(&self) -> usize {
        self.tip.as_ref().map_or(0, |n| n.len)
    }
    /// Whether no command was applied.
    pub fn is_empty(&self) -> bool {
        self.tip.is_none()
    }
    /// The last entry, O(1).
    pub fn last(&self) -> Option<&LogEntryOf<G>> {
        self.tip.as_deref().map(|n| &n.entry)
    }
    /// Entry `i` (from 0), O(len − i).
    pub fn get(&self, i: usize) -> Option<&LogEntryOf<G>> {
        let mut node = self.tip.as_deref()?;
        if i >= node.len {
            return None;
        }
        while node.len > i + 1 {
            node = node.prev.as_deref().expect("a node before");
        }
        Some(&node.entry)
    }
    /// The entries in order.
    pub fn iter(&self) -> std::vec::IntoIter<&LogEntryOf<G>> {
        let mut v: Vec<&LogEntryOf<G>> = self.nodes_back().map(|n| &n.entry).collect();
        v.reverse();
        v.into_iter()
    }
    /// The entries from `from` on, in order (O(len − from)).
    pub fn iter_from(&self, from: usize) -> std::vec::IntoIter<&LogEntryOf<G>> {
        let n = self.len().saturating_sub(from);
        let mut v: Vec<&LogEntryOf<G>> = self.nodes_back().take(n).map(|n| &n.entry).collect();
        v.reverse();
        v.into_iter()
    }
    /// A copy of the entries, in order.
    pub fn to_vec(&self) -> Vec<LogEntryOf<G>> {
        self.iter().cloned().collect()
    }
    /// The nodes from the last back.
    fn nodes_back(&self) -> impl Iterator<Item = &LogNode<G>> {
        std::iter::successors(self.tip.as_deref(), |n| n.prev.as_deref())
    }
    fn push(&mut self, entry: LogEntryOf<G>, rng_before: Xoshiro256PlusPlus, state: &G::State) {
        let len = self.len() + 1;
        let snapshot = (len % SNAPSHOT_EVERY == 0).then(|| Box::new(state.clone()));
        self.tip = Some(Arc::new(LogNode {
            entry,
            prev: self.tip.take(),
            len,
            rng_before,
            snapshot,
        }));
    }
}

impl<G: Game> std::ops::Index<usize> for MatchLog<G> {
    type Output = LogEntryOf<G>;
    fn index(&self, i: usize) -> &LogEntryOf<G> {
        match self.get(i) {
            Some(e) => e,
            None => panic!("log index {i} out of range (length {})", self.len()),
        }
    }
}

impl<'a, G: Game> IntoIterator for &'a MatchLog<G> {
    type Item = &'a LogEntryOf<G>;
    type IntoIter = std::vec::IntoIter<&'a LogEntryOf<G>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<G: Game> PartialEq for MatchLog<G> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<G: Game> PartialEq<[LogEntryOf<G>]> for MatchLog<G> {
    fn eq(&self, other: &[LogEntryOf<G>]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<G: Game> Debug for MatchLog<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<G: Game> Serialize for MatchLog<G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<G: Game> Clone for GameMatch<G> {
    /// O(1) in the length of the log: see [`GameMatch`].
    fn clone(&self) -> Self {
        GameMatch {
            scenario: self.scenario.clone(),
            state: self.state.clone(),
            rng: self.rng.clone(),
            seed: self.seed,
            resets: self.resets.clone(),
            chance_mode: self.chance_mode,
            pending_chance: self.pending_chance.clone(),
            opening: self.opening.clone(),
            log: self.log.clone(),
            memo: std::sync::Mutex::new(self.with_memo(|_, _, m| m.clone())),
            determinized: self.determinized.clone(),
        }
    }
}

impl<G: Game> Debug for GameMatch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameMatch")
            .field("system", &G::NAME)
            .field("scenario", &self.scenario)
            .field("state", &self.state)
            .field("seed", &self.seed)
            .field("commands", &self.log.len())
            .finish()
    }
}

impl<G: Game> GameMatch<G> {
    /// Starts a match of `scenario` with a seed.
    pub fn new(scenario: Arc<G::Scenario>, seed: u64) -> GameMatch<G> {
        let mut rng = crate::rng::rng_from_seed(seed);
        let (state, events) = G::new_game(&scenario, &mut rng);
        GameMatch {
            scenario,
            opening: Arc::new(Opening {
                events,
                state: state.clone(),
            }),
            state,
            rng,
            seed,
            resets: Vec::new(),
            chance_mode: ChanceMode::Sampled,
            pending_chance: None,
            log: MatchLog::default(),
            memo: Default::default(),
            determinized: None,
        }
    }

    /// Starts a match of a built-in scenario.
    ///
    /// # Errors
    /// Unknown scenario name.
    pub fn new_builtin(name: &str, seed: u64) -> Result<GameMatch<G>, MatchError> {
        Ok(GameMatch::new(cached_builtin::<G>(name)?.0, seed))
    }

    /// Applies a command, logging it. On error nothing changes.
    ///
    /// In explicit chance mode a command that draws stops at its first draw: nothing is
    /// logged yet, the events returned are none, and [`GameMatch::chance_node`] tells
    /// the draw's outcomes; [`GameMatch::apply_chance`] picks each in turn until the
    /// command completes.
    ///
    /// # Errors
    /// The [`RuleError`] from [`Game::apply`]; rule `"chance"` while a chance outcome
    /// is pending.
    pub fn apply(&mut self, cmd: &G::Command) -> Result<&[G::Event], RuleError> {
        if let Some(p) = &self.pending_chance {
            return Err(RuleError::new(
                "chance",
                format!(
                    "a chance outcome (0 to {}) is pending: apply_chance first",
                    p.next - 1
                ),
            ));
        }
        match self.chance_mode {
            ChanceMode::Sampled => self.apply_sampled(cmd),
            ChanceMode::Explicit => self.apply_scripted(cmd, Vec::new()),
        }
    }

    /// How the match resolves draws ([`ChanceMode::Sampled`] unless set).
    pub fn chance_mode(&self) -> ChanceMode {
        self.chance_mode
    }

    /// Sets how the match resolves draws from the next command on (the opening's
    /// draws, made when the match was created, came from its seed). A save records
    /// the mode and every outcome chosen.
    ///
    /// # Errors
    /// Rule `"chance"` while a chance outcome is pending.
    pub fn set_chance_mode(&mut self, mode: ChanceMode) -> Result<(), RuleError> {
        if self.pending_chance.is_some() {
            return Err(RuleError::new(
                "chance",
                "a chance outcome is pending: resolve it (apply_chance) or take the command back (undo)",
            ));
        }
        self.chance_mode = mode;
        Ok(())
    }

    /// The draw a command waits for, in explicit chance mode: its outcomes `0..n`,
    /// each of probability `1/n`.
    ///
    /// ```
    /// use fm_core::{ChanceMode, Match};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// m.set_chance_mode(ChanceMode::Explicit).unwrap();
    /// let mut agent = fm_core::rng_from_seed(2);
    /// // Play until a command stops at a die roll, then choose a six.
    /// while m.chance_node().is_none() {
    ///     let c = m.random_command(&mut agent).unwrap();
    ///     m.apply(&c).unwrap();
    /// }
    /// let node = m.chance_node().unwrap();
    /// assert!(node.outcomes > 1);
    /// let n = m.log().len();
    /// while let Some(node) = m.chance_node() {
    ///     m.apply_chance(node.outcomes - 1).unwrap();
    /// }
    /// assert_eq!(m.log().len(), n + 1);
    /// assert!(m.log().last().unwrap().chance.is_some());
    /// ```
    pub fn chance_node(&self) -> Option<ChanceNode> {
        self.pending_chance
            .as_ref()
            .map(|p| ChanceNode { outcomes: p.next })
    }

    /// Resolves the pending draw with `outcome` (in `0..n`, [`GameMatch::chance_node`]).
    /// Returns the command's events once its last draw is resolved, none before.
    ///
    /// # Errors
    /// Rule `"chance"` when no draw is pending; rule `"input"` for an outcome out of
    /// range (nothing changes).
    pub fn apply_chance(&mut self, outcome: u32) -> Result<&[G::Event], RuleError> {
        let Some(p) = &self.pending_chance else {
            return Err(RuleError::new("chance", "no chance outcome is pending"));
        };
        if outcome >= p.next {
            return Err(RuleError::new(
                "input",
                format!("chance outcome {outcome} is not one of 0 to {}", p.next - 1),
            ));
        }
        let p = self.pending_chance.take().expect("checked");
        let mut outcomes = p.outcomes.clone();
        outcomes.push(outcome);
        match self.apply_scripted(&p.command, outcomes) {
            Ok(_) => Ok(self.last_events()),
            Err(e) => {
                self.pending_chance = Some(p);
                Err(e)
            }
        }
    }

    fn last_events(&self) -> &[G::Event] {
        if self.pending_chance.is_some() {
            return &[];
        }
        self.log.last().map_or(&[], |l| &l.events)
    }

    /// Runs `cmd` with its draws taken from `outcomes`: logs it when they were all it
    /// drew, or leaves it pending at the first draw past them.
    fn apply_scripted(
        &mut self,
        cmd: &G::Command,
        outcomes: Vec<u32>,
    ) -> Result<&[G::Event], RuleError> {
        let (events, state, found) = self.run_scripted(cmd, &outcomes)?;
        match found {
            crate::chance::Scripted::Needs(n) => {
                self.pending_chance = Some(PendingChance {
                    command: cmd.clone(),
                    outcomes,
                    next: n,
                });
                Ok(&[])
            }
            crate::chance::Scripted::Complete => {
                let chance = (!outcomes.is_empty()).then_some(outcomes);
                let rng = self.rng.clone();
                Ok(self.commit(cmd, events, state, rng, chance))
            }
            _ => Err(misfit(found)),
        }
    }

    /// Replays a logged command with the outcomes recorded for its draws.
    fn apply_recorded(
        &mut self,
        cmd: &G::Command,
        outcomes: &[u32],
    ) -> Result<&[G::Event], RuleError> {
        let (events, state, found) = self.run_scripted(cmd, outcomes)?;
        if found != crate::chance::Scripted::Complete {
            return Err(misfit(found));
        }
        let rng = self.rng.clone();
        Ok(self.commit(cmd, events, state, rng, Some(outcomes.to_vec())))
    }

    /// `cmd` applied with its draws taken from `outcomes` (the generator untouched),
    /// and how the outcomes fitted its draws.
    fn run_scripted(
        &self,
        cmd: &G::Command,
        outcomes: &[u32],
    ) -> Result<ScriptedRun<G>, RuleError> {
        let mut rng = self.rng.clone();
        let (res, found) = crate::chance::with_script(outcomes, || {
            G::apply_with_state(&self.scenario, &self.state, cmd, &mut rng)
        });
        res.map(|(events, state)| (events, state, found))
    }

    fn apply_sampled(&mut self, cmd: &G::Command) -> Result<&[G::Event], RuleError> {
        let mut rng = self.rng.clone();
        let (events, state) = G::apply_with_state(&self.scenario, &self.state, cmd, &mut rng)?;
        Ok(self.commit(cmd, events, state, rng, None))
    }

    /// Logs an applied command: its events, the state after them and the generator
    /// after its draws.
    fn commit(
        &mut self,
        cmd: &G::Command,
        events: Vec<G::Event>,
        state: G::State,
        rng: Xoshiro256PlusPlus,
        chance: Option<Vec<u32>>,
    ) -> &[G::Event] {
        #[cfg(debug_assertions)]
        {
            let mut folded = self.state.clone();
            G::fold(&self.scenario, &mut folded, &events);
            debug_assert!(
                folded == state,
                "Game::apply_with_state returned a state other than the fold of its events"
            );
        }
        let rng_before = std::mem::replace(&mut self.rng, rng);
        self.state = state;
        // The log keeps the events for good: no room for more (a vector that grew by
        // pushes has room for four events, most commands cause one or two).
        let mut events = events;
        events.shrink_to_fit();
        let entry = LogEntryOf {
            command: cmd.clone(),
            events,
            hash: G::state_hash(&self.state),
            chance,
        };
        self.log.push(entry, rng_before, &self.state);
        &self.log.last().expect("just pushed").events
    }

    /// Applies the command with a stable index (see [`Game::command_to_index`]).
    ///
    /// # Errors
    /// A [`RuleError`] if the index means nothing here or the command is illegal.
    pub fn apply_index(&mut self, idx: usize) -> Result<&[G::Event], RuleError> {
        match self.index_to_command(idx) {
            Some(c) => self.apply(&c),
            None => Err(RuleError::new(
                "input",
                format!("action index {idx} has no command here"),
            )),
        }
    }

    // --- The factored action space (`crate::factored`).

    /// The number of values of each step of the factored action space
    /// ([`Game::factored_sizes`]): fixed for the scenario, so a policy's heads have
    /// fixed sizes.
    pub fn factored_sizes(&self) -> Vec<usize> {
        G::factored_sizes(&self.scenario)
    }

    /// The options of step `prefix.len()` after `prefix` now, ascending
    /// ([`Game::factored_options_memo`], reusing the match's memo): each continues the
    /// prefix towards at least one legal command, and walking them all reaches exactly
    /// [`GameMatch::legal_indices`]. Empty for the empty prefix when no command is
    /// legal (the game is over, or a chance outcome is pending).
    ///
    /// ```
    /// use fm_core::Match;
    /// let m = Match::new_builtin("system-demo", 1).unwrap();
    /// let mut seq = Vec::new();
    /// while !m.factored_complete(&seq).unwrap() {
    ///     let options = m.factored_options(&seq).unwrap();
    ///     assert!(options.iter().all(|&v| v < m.factored_sizes()[seq.len()]));
    ///     seq.push(options[0]);
    /// }
    /// let flat = m.factored_to_flat(&seq).unwrap();
    /// assert!(m.legal_indices().contains(&flat));
    /// assert_eq!(m.flat_to_factored(flat).unwrap(), seq);
    /// ```
    ///
    /// # Errors
    /// A malformed or complete prefix, or one no legal command starts with
    /// ([`crate::factored::FactoredError`]).
    pub fn factored_options(
        &self,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        if self.pending_chance.is_some() {
            crate::factored::proper_prefix(prefix, |p| G::factored_complete(&self.scenario, p))?;
            if prefix.is_empty() {
                return Ok(Vec::new());
            }
            return Err(crate::factored::FactoredError::NotLegal {
                prefix: prefix.to_vec(),
            });
        }
        self.with_memo(|sc, s, m| G::factored_options_memo(sc, s, m, prefix))
    }

    /// Whether a factored sequence is complete ([`Game::factored_complete`]).
    ///
    /// # Errors
    /// A malformed sequence.
    pub fn factored_complete(&self, seq: &[usize]) -> Result<bool, crate::factored::FactoredError> {
        G::factored_complete(&self.scenario, seq)
    }

    /// The factored sequence of a flat action index ([`Game::flat_to_factored`]).
    ///
    /// # Errors
    /// An index outside the action space or standing for no command.
    pub fn flat_to_factored(
        &self,
        index: usize,
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        G::flat_to_factored(&self.scenario, index)
    }

    /// The flat action index of a complete factored sequence
    /// ([`Game::factored_to_flat`]).
    ///
    /// # Errors
    /// A malformed or incomplete sequence.
    pub fn factored_to_flat(&self, seq: &[usize]) -> Result<usize, crate::factored::FactoredError> {
        G::factored_to_flat(&self.scenario, seq)
    }

    /// Applies the command of a complete factored sequence
    /// ([`GameMatch::apply_index`] of its flat index).
    ///
    /// # Errors
    /// Rule `"input"` for a malformed or incomplete sequence (its
    /// [`crate::factored::FactoredError`] as the message); otherwise as
    /// [`GameMatch::apply_index`].
    pub fn apply_factored(&mut self, seq: &[usize]) -> Result<&[G::Event], RuleError> {
        let flat = G::factored_to_flat(&self.scenario, seq).map_err(|e| e.to_rule_error())?;
        self.apply_index(flat)
    }

    /// Takes back the last command. Returns false if there was nothing to undo.
    ///
    /// The state and the generator become exactly what they were before the command
    /// (what a replay of the remaining log from the seed gives): the generator is kept
    /// with each command, and the state is the nearest snapshot (kept every
    /// [`SNAPSHOT_EVERY`] commands) folded with the events after it, so an undo costs a
    /// state copy and at most `SNAPSHOT_EVERY - 1` folds, whatever the log's length.
    pub fn undo(&mut self) -> bool {
        // A command waiting for a chance outcome is taken back first.
        if self.pending_chance.take().is_some() {
            return true;
        }
        let Some(tip) = self.log.tip.take() else {
            return false;
        };
        self.rng = tip.rng_before.clone();
        self.log.tip = tip.prev.clone();
        drop(tip);
        // A reset after the command taken back goes with it (the generator before the
        // command already holds any reset before it).
        let len = self.log.len();
        self.resets.retain(|r| r.at <= len);
        self.state = self.rebuilt_state();
        true
    }

    /// The state after the log, from the nearest snapshot (or the opening) and the
    /// events after it.
    fn rebuilt_state(&self) -> G::State {
        let mut after: Vec<&LogNode<G>> = Vec::new();
        let mut base = &self.opening.state;
        for n in self.log.nodes_back() {
            if let Some(s) = &n.snapshot {
                base = s;
                break;
            }
            after.push(n);
        }
        let mut s = base.clone();
        for n in after.iter().rev() {
            G::fold(&self.scenario, &mut s, &n.entry.events);
        }
        s
    }

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
            chance_pending: self.pending_chance.as_ref().map(|p| SavedChance {
                command: p.command.clone(),
                outcomes: p.outcomes.clone(),
            }),
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

    /// The match as `side` may know it ([`SideRecordOf`]): what to give that side's
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
    pub fn export(&self, side: Side) -> SideRecordOf<G> {
        let sc = &self.scenario;
        let mut s = self.opening.state.clone();
        let log = self
            .log
            .iter()
            .map(|e| {
                G::fold(sc, &mut s, &e.events);
                SideEntryOf {
                    command: e.command.clone(),
                    events: e.events.iter().map(|x| G::redacted(x, side)).collect(),
                    view_hash: G::view_hash(&G::view(sc, &s, side)),
                }
            })
            .collect();
        let v = self.view(side);
        SideRecordOf {
            format: 1,
            side,
            scenario: G::scenario_data(sc).clone(),
            opening: self
                .opening
                .events
                .iter()
                .map(|x| G::redacted(x, side))
                .collect(),
            log,
            view_hash: G::view_hash(&v),
            view: v,
        }
    }

    /// `side`'s perfect-recall information state, as compact JSON text: everything the
    /// side has observed, in order — the opening's events and every command with its
    /// events, as the side sees them ([`Game::redacted`]) — and nothing else (no seed,
    /// no chance outcome, no hidden value). Two histories the side cannot tell apart
    /// give the same text; what a search over information sets keys its nodes by
    /// (OpenSpiel's `InformationStateString`). It grows with the log.
    ///
    /// A determinized match ([`GameMatch::determinized`]) gives the side it was drawn
    /// for the source's information state continued with its own commands (so the two
    /// are equal until one of them moves on), and the other side, whose history the
    /// draw does not make, `"drawn"` (the hash of its view of the drawn state, 16 hex
    /// digits) and its commands since.
    ///
    /// ```
    /// use fm_core::{Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let before = m.information_state(Side::A);
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// assert_ne!(m.information_state(Side::A), before);
    /// assert!(m.information_state(Side::B).starts_with(r#"{"side":"b","#));
    /// ```
    pub fn information_state(&self, side: Side) -> String {
        #[derive(Serialize)]
        #[serde(bound = "")]
        struct Info<'a, G: Game> {
            side: Side,
            #[serde(skip_serializing_if = "Option::is_none", with = "hex_u64_opt")]
            drawn: Option<u64>,
            opening: Vec<G::Event>,
            log: Vec<InfoEntry<'a, G>>,
        }
        let (drawn, opening, log) = self.information_record(side);
        let info = Info::<G> {
            side,
            drawn,
            opening,
            log,
        };
        serde_json::to_string(&info).expect("a record serializes")
    }

    /// The parts of [`GameMatch::information_state`]: for a determinized match, the
    /// drawn view's hash when it was drawn for the other side, and otherwise its
    /// source's record continued.
    pub(crate) fn information_record(&self, side: Side) -> InfoRecord<'_, G> {
        let redact = |es: &[G::Event]| es.iter().map(|e| G::redacted(e, side)).collect();
        let own = self.log.iter().map(|e| InfoEntry {
            command: &e.command,
            events: redact(&e.events),
        });
        match &self.determinized {
            None => (None, redact(&self.opening.events), own.collect()),
            Some(d) if d.side == side => {
                let (drawn, opening, mut log) = d.source.information_record(side);
                log.extend(own);
                (drawn, opening, log)
            }
            Some(_) => {
                let v = G::view(&self.scenario, &self.opening.state, side);
                (Some(G::view_hash(&v)), Vec::new(), own.collect())
            }
        }
    }

    /// The hash of `side`'s view: what a player's client may be shown. The state hash
    /// ([`Game::state_hash`], also in every [`LogEntryOf`]) covers hidden values and
    /// is the referee's.
    pub fn view_hash(&self, side: Side) -> u64 {
        G::view_hash(&self.view(side))
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
        let saved: SavedGame<G> = serde_path_to_error::deserialize(&value).map_err(|e| {
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
        let mut last_at = None;
        for (k, r) in saved.rng_resets.iter().enumerate() {
            if r.at > saved.log.len() || last_at.is_some_and(|a| r.at <= a) {
                return Err(MatchError::Json(format!(
                    "rng_resets[{k}].at: {} is not after the previous reset and within the \
                     log's {} commands",
                    r.at,
                    saved.log.len()
                )));
            }
            last_at = Some(r.at);
        }
        let mut m = match saved.determinized {
            None => GameMatch::<G>::new(sc, saved.seed),
            Some(d) => Self::load_determinized(d, &sc, saved.seed, format, depth)?,
        };
        let mut resets = saved.rng_resets.iter().peekable();
        // The hash the save was written with (the match's own log uses today's).
        let recorded_hash = |m: &GameMatch<G>| {
            if format == SAVE_FORMAT {
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
            let applied = match &e.chance {
                Some(o) => m.apply_recorded(&e.command, o),
                None => m.apply_sampled(&e.command),
            };
            let events = applied.map_err(|err| MatchError::Diverged {
                index: Some(k),
                message: format!("command refused on replay: {err}"),
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
        }
        if let Some(r) = resets.next() {
            m.set_rng_state(r.state);
        }
        m.chance_mode = saved.chance_mode;
        if let Some(p) = saved.chance_pending {
            if m.chance_mode != ChanceMode::Explicit {
                return Err(MatchError::Json(
                    "chance_pending: only a match in explicit chance mode waits for one".into(),
                ));
            }
            m.apply_scripted(&p.command, p.outcomes)
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
        if format != SAVE_FORMAT {
            return Err(MatchError::Json(format!(
                "determinized: only a format {SAVE_FORMAT} save is determinized"
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
            .determinized(d.side, seed)
            .map_err(|e| MatchError::Json(format!("determinized.source: {e}")))
    }

    /// The scenario.
    pub fn scenario(&self) -> &G::Scenario {
        &self.scenario
    }
    /// Shared handle to the scenario.
    pub fn scenario_arc(&self) -> Arc<G::Scenario> {
        self.scenario.clone()
    }
    /// The bound on the length of every game of this match's scenario
    /// ([`Game::max_game_length`]): the most commands and chance outcomes any game of it
    /// has, from its first decision to its end; `None` for a system that cannot bound it.
    ///
    /// ```
    /// use fm_core::Match;
    /// let m = Match::new_builtin("system-demo", 1).unwrap();
    /// let bound = m.max_game_length().unwrap();
    /// assert!(bound.commands > 0 && bound.total() >= bound.commands);
    /// ```
    pub fn max_game_length(&self) -> Option<crate::query::GameLength> {
        G::max_game_length(&self.scenario)
    }
    /// The current state, every hidden value included (the referee's; a player gets
    /// [`GameMatch::view`]).
    pub fn state(&self) -> &G::State {
        &self.state
    }
    /// The seed the match started with: with it (and [`GameMatch::rng_resets`]) every
    /// future die roll and draw is known (the referee's).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the generator was set since the seed, in order.
    pub fn rng_resets(&self) -> &[RngReset] {
        &self.resets
    }

    /// The generator's state now (the referee's: it tells every future die roll).
    pub fn rng_state(&self) -> RngState {
        RngState::of(&self.rng)
    }

    /// Sets the generator: the dice from now on are those of `state`. The match records
    /// it ([`GameMatch::rng_resets`]), so a save replays it and an undo of the commands
    /// before it takes it back; a second setting between the same two commands replaces
    /// the first.
    pub fn set_rng_state(&mut self, state: RngState) {
        let at = self.log.len();
        if self.resets.last().is_some_and(|r| r.at == at) {
            self.resets.pop();
        }
        self.resets.push(RngReset { at, state });
        self.rng = state.generator();
    }

    /// Re-seeds the generator: the dice from now on are those of a generator seeded
    /// with `seed` ([`GameMatch::set_rng_state`] of [`RngState::of_seed`]). A search
    /// gives each simulated future its own dice this way; without it every copy of a
    /// match rolls the real future's dice.
    ///
    /// ```
    /// use fm_core::{Match, RngState};
    /// let m = Match::new_builtin("system-demo", 1).unwrap();
    /// let a = m.clone_with_seed(2);
    /// let b = m.clone_with_seed(3);
    /// assert_ne!(a.rng_state(), b.rng_state());
    /// assert_eq!(a.rng_state(), RngState::of_seed(2));
    /// assert_eq!(m.rng_state(), Match::new_builtin("system-demo", 1).unwrap().rng_state());
    /// let back = Match::load(&a.save()).unwrap();
    /// assert_eq!(back.rng_state(), a.rng_state());
    /// ```
    pub fn reseed(&mut self, seed: u64) {
        self.set_rng_state(RngState::of_seed(seed));
    }

    /// A copy of the match whose generator is re-seeded with `seed`
    /// ([`GameMatch::reseed`]); the match itself keeps its dice.
    pub fn clone_with_seed(&self, seed: u64) -> GameMatch<G> {
        let mut m = self.clone();
        m.reseed(seed);
        m
    }
    /// A new match whose opening state is a determinization of this one for `side`
    /// ([`Game::determinize`]): a state `side` cannot tell from the current one, with
    /// everything it may not know drawn anew from its view alone, with a generator
    /// seeded with `seed` (which draws the determinization, then rolls the new match's
    /// dice: nothing of this match's generator or hidden values carries over). It has
    /// an empty log and this match's chance mode; its
    /// [`GameMatch::information_state`] for `side` is this match's, continued.
    ///
    /// Its save records this match's save and `side` ([`SavedDeterminized`]), so that
    /// [`GameMatch::load`] verifies it by loading that save and drawing again. Like
    /// every save it is referee material: it holds this match's.
    ///
    /// # Errors
    /// Rule `"chance"` while a chance outcome is pending (resolve it or undo first);
    /// rule `"input"` for a match already [`MAX_DETERMINIZED_DEPTH`] determinizations
    /// deep.
    ///
    /// ```
    /// use fm_core::{Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let mut agent = fm_core::rng_from_seed(2);
    /// for _ in 0..20 {
    ///     let c = m.random_command(&mut agent).unwrap();
    ///     m.apply(&c).unwrap();
    /// }
    /// let d = m.determinized(Side::A, 7).unwrap();
    /// assert_eq!(d.view(Side::A), m.view(Side::A));
    /// assert_eq!(d.information_state(Side::A), m.information_state(Side::A));
    /// assert!(d.log().is_empty());
    /// let back = Match::load(&d.save()).unwrap();
    /// assert_eq!(back.state(), d.state());
    /// ```
    pub fn determinized(&self, side: Side, seed: u64) -> Result<GameMatch<G>, RuleError> {
        if self.pending_chance.is_some() {
            return Err(RuleError::new(
                "chance",
                "a chance outcome is pending: resolve it (apply_chance) or take the command back (undo)",
            ));
        }
        let depth = self.determinized.as_ref().map_or(0, |d| d.depth) + 1;
        if depth > MAX_DETERMINIZED_DEPTH {
            return Err(RuleError::new(
                "input",
                format!("the match is already {MAX_DETERMINIZED_DEPTH} determinizations deep"),
            ));
        }
        let mut rng = crate::rng::rng_from_seed(seed);
        let state = G::determinize(&self.scenario, &self.state, side, &mut rng);
        Ok(GameMatch {
            scenario: self.scenario.clone(),
            opening: Arc::new(Opening {
                events: Vec::new(),
                state: state.clone(),
            }),
            state,
            rng,
            seed,
            resets: Vec::new(),
            chance_mode: self.chance_mode,
            pending_chance: None,
            log: MatchLog::default(),
            memo: Default::default(),
            determinized: Some(Arc::new(Determinization {
                source: self.clone(),
                side,
                depth,
            })),
        })
    }

    /// For a match made by [`GameMatch::determinized`], the side it was drawn for.
    pub fn determinized_for(&self) -> Option<Side> {
        self.determinized.as_ref().map(|d| d.side)
    }

    /// The built-in AI's choice for the pending decision: information-set Monte Carlo
    /// tree search ([`crate::search`]) from the deciding side's knowledge alone (every
    /// iteration a determinization of its view), with the dice of its own generator
    /// (`cfg.seed`), so the match's generator is untouched. `stop` is asked between
    /// iterations (a time budget); without it the result is a function of the side's
    /// view and `cfg`.
    ///
    /// # Errors
    /// [`crate::search::SearchError`]: a config value out of range, no decision (the
    /// game is over), or a chance outcome pending.
    ///
    /// ```
    /// use fm_core::search::SearchConfig;
    /// use fm_core::Match;
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let cfg = SearchConfig { iterations: 30, ..SearchConfig::default() };
    /// let r = m.best_command(&cfg, &mut || false).unwrap();
    /// m.apply(&r.command).unwrap();
    /// ```
    pub fn best_command(
        &self,
        cfg: &crate::search::SearchConfig,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<crate::search::SearchResult<G>, crate::search::SearchError> {
        if self.pending_chance.is_some() {
            return Err(crate::search::SearchError::ChancePending);
        }
        crate::search::best_command::<G>(&self.scenario, &self.state, cfg, stop)
    }

    /// The events that opened the game.
    pub fn opening_events(&self) -> &[G::Event] {
        &self.opening.events
    }
    /// Commands and events so far, unredacted, with state hashes (the referee's; a
    /// player gets [`GameMatch::export`]).
    pub fn log(&self) -> &MatchLog<G> {
        &self.log
    }
    /// Pending decision.
    pub fn pending(&self) -> G::Pending {
        G::pending(&self.state)
    }
    /// Legal commands now ([`Game::legal_commands`], reusing the match's memo).
    pub fn legal_commands(&self) -> Vec<G::Command> {
        if self.pending_chance.is_some() {
            return Vec::new(); // a chance outcome first
        }
        self.with_memo(|sc, s, m| G::legal_commands_memo(sc, s, m))
    }
    /// The action indices of the legal commands now, ascending
    /// ([`Game::legal_indices_memo`]).
    pub fn legal_indices(&self) -> Vec<usize> {
        if self.pending_chance.is_some() {
            return Vec::new();
        }
        self.with_memo(|sc, s, m| G::legal_indices_memo(sc, s, m))
    }
    /// The command an action index stands for now ([`Game::index_to_command`],
    /// reusing the match's memo).
    pub fn index_to_command(&self, idx: usize) -> Option<G::Command> {
        if self.pending_chance.is_some() {
            return None;
        }
        self.with_memo(|sc, s, m| G::index_to_command_memo(sc, s, m, idx))
    }
    /// The random agent's command now, drawn from `rng`
    /// ([`Game::random_command_memo`]); `None` when no command is legal.
    pub fn random_command(&self, rng: &mut dyn RngCore) -> Option<G::Command> {
        if self.pending_chance.is_some() {
            return None;
        }
        self.with_memo(|sc, s, m| G::random_command_memo(sc, s, m, rng))
    }
    /// Runs `f` with the scenario, the state and the memo. When another thread holds
    /// the memo, `f` gets a fresh one instead of waiting; a memo left by a panicking
    /// listing is cleared first (it may be half updated).
    fn with_memo<R>(&self, f: impl FnOnce(&G::Scenario, &G::State, &mut G::Memo) -> R) -> R {
        let (sc, s) = (&*self.scenario, &self.state);
        match self.memo.try_lock() {
            Ok(mut m) => f(sc, s, &mut m),
            Err(std::sync::TryLockError::Poisoned(p)) => {
                let mut m = p.into_inner();
                *m = G::Memo::default();
                f(sc, s, &mut m)
            }
            Err(std::sync::TryLockError::WouldBlock) => f(sc, s, &mut G::Memo::default()),
        }
    }
    /// The state as one side sees it.
    pub fn view(&self, side: Side) -> G::View {
        G::view(&self.scenario, &self.state, side)
    }
    /// Winner, once over (`None` also for a draw: see [`GameMatch::outcome`]).
    pub fn winner(&self) -> Option<Side> {
        G::outcome(&self.state).and_then(|o| o.0)
    }
    /// The winner (`None` for a draw) and why, once the game is over.
    pub fn outcome(&self) -> Option<(Option<Side>, String)> {
        G::outcome(&self.state)
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        G::outcome(&self.state).is_some()
    }
    /// How the game stands: going on, won by a side, or drawn.
    pub fn result(&self) -> crate::query::MatchResult {
        crate::query::MatchResult::of_outcome(G::outcome(&self.state).as_ref())
    }
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

/// [`hex_u64`] for an optional value.
mod hex_u64_opt {
    use serde::{Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => crate::game::hex_u64::serialize(v, s),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        crate::game::hex_u64::deserialize(d).map(Some)
    }
}
