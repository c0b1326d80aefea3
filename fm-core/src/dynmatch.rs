//! The object-safe, JSON-level match: [`DynMatch`] is a [`GameMatch`] of some [`Game`]
//! behind one interface (a scenario name or JSON in, JSON commands, events, views and
//! saves out), and [`SystemEntry`] how to open the matches of one system. Independent
//! of every rules system: the registry that lists the systems, and finds one by a
//! scenario or a save, is [`crate::any`], which re-exports this module's public items.

use crate::error::RuleError;
use crate::game::{Game, GameMatch, MatchError};
use crate::ids::{Side, Viewer};
use rand_core::RngCore;
use serde_json::Value;
use std::any::Any;
use std::sync::Arc;

/// A match's events in words ([`DynMatch::log_words`]): one line per event a reader
/// needs, as the `play` example prints them.
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize)]
pub struct LogWords {
    /// The opening's events (the set-up, the first turn's start).
    pub opening: Vec<String>,
    /// Each command's events, in command order from the first asked for.
    pub commands: Vec<Vec<String>>,
}

/// A match of any rules system, at the level of JSON values. Every method's contract is
/// the matching one of [`GameMatch`]; values are the JSON forms of the system's types
/// (`docs/protocol.md` for Fire & Movement).
pub trait DynMatch: Send + Sync + 'static {
    /// The rules system's name ([`Game::NAME`]).
    fn system(&self) -> &'static str;
    /// The scenario data, as JSON.
    fn scenario_json(&self) -> Value;
    /// The generator's seed (the referee's).
    fn seed(&self) -> u64;
    /// The generator's state now ([`GameMatch::rng_state`], the referee's).
    fn rng_state(&self) -> crate::rng::RngState;
    /// Sets the generator ([`GameMatch::set_rng_state`]).
    fn set_rng_state(&mut self, state: crate::rng::RngState);
    /// How the match resolves draws ([`GameMatch::chance_mode`]).
    fn chance_mode(&self) -> crate::chance::ChanceMode;
    /// Sets it ([`GameMatch::set_chance_mode`]).
    ///
    /// # Errors
    /// As [`GameMatch::set_chance_mode`].
    fn set_chance_mode(&mut self, mode: crate::chance::ChanceMode) -> Result<(), RuleError>;
    /// A new match of the same scenario and seed whose draws, from its opening on, are
    /// resolved as `mode` says ([`GameMatch::new_with_chance`]): what
    /// [`crate::any::new_match_with_chance`] opens.
    fn new_with_chance(&self, mode: crate::chance::ChanceMode) -> Box<dyn DynMatch>;
    /// The draw a command waits for ([`GameMatch::chance_node`]).
    fn chance_node(&self) -> Option<crate::chance::ChanceNode>;
    /// The outcomes chosen so far for the waiting command's draws
    /// ([`GameMatch::chance_drawn`]).
    fn chance_drawn(&self) -> Option<Vec<u32>>;
    /// Resolves it ([`GameMatch::apply_chance`]); returns the command's events once it
    /// completes (an empty array before).
    ///
    /// # Errors
    /// As [`GameMatch::apply_chance`].
    fn apply_chance(&mut self, outcome: u32) -> Result<Value, RuleError>;
    /// Re-seeds the generator ([`GameMatch::reseed`]).
    fn reseed(&mut self, seed: u64) {
        self.set_rng_state(crate::rng::RngState::of_seed(seed));
    }
    /// Applies a command given as JSON; returns its events. On error nothing changes.
    ///
    /// # Errors
    /// [`MatchError::Input`] for JSON that is not a command of this system (`command
    /// JSON: …`), [`MatchError::Rule`] for a refused command.
    fn apply_json(&mut self, command: &Value) -> Result<Value, MatchError>;
    /// Applies the command with a stable action index (its events are logged: see
    /// [`DynMatch::last_events_json`]; the fast path of search loops converts nothing).
    ///
    /// # Errors
    /// A [`RuleError`] when the index means nothing here or the command is refused.
    fn apply_index(&mut self, index: usize) -> Result<(), RuleError>;
    /// The legal commands, as a JSON array, in the system's stable order.
    fn legal_json(&self) -> Vec<Value>;
    /// The sorted action indices of the legal commands.
    fn legal_indices(&self) -> Vec<usize>;
    /// The size of the action space.
    fn action_space_size(&self) -> usize;
    /// The command an action index stands for now, as JSON.
    fn command_at(&self, index: usize) -> Option<Value>;
    /// The action index of the random agent's command, drawn from `rng` as
    /// [`crate::agents::random`] draws it; `None` when no command is legal.
    fn random_action(&self, rng: &mut dyn RngCore) -> Option<usize>;
    /// The action index of a command given as JSON, if it has one now.
    fn index_of(&self, command: &Value) -> Option<usize>;
    /// The pending decision, as JSON.
    fn pending_json(&self) -> Value;
    /// Whose decision it is (`None` once the game is over).
    fn decider(&self) -> Option<Side>;
    /// The whole state, as JSON (the referee's).
    fn state_json(&self) -> Value;
    /// The state hash (the referee's: it covers hidden values).
    fn state_hash(&self) -> u64;
    /// The state as `side` may know it, as JSON.
    fn view_json(&self, side: Side) -> Value;
    /// The hash of `side`'s view (safe to show that side).
    fn view_hash(&self, side: Side) -> u64;
    /// The opening events, as a JSON array (unredacted: the referee's).
    fn opening_events_json(&self) -> Value;
    /// The number of commands applied.
    fn log_len(&self) -> usize;
    /// The log from command `from` on, unredacted (the referee's), as a JSON array.
    fn log_json(&self, from: usize) -> Value;
    /// The log from command `from` on as `side` may know it (redacted events and view
    /// hashes), as a JSON array.
    fn side_log_json(&self, side: Side, from: usize) -> Value;
    /// The last command's events, redacted for `side` when given.
    fn last_events_json(&self, side: Option<Side>) -> Value;
    /// The state as a spectator may know it (what both sides may know,
    /// [`Game::spectator_view`]), as JSON.
    ///
    /// # Errors
    /// As [`Game::spectator_view`] ([`MatchError::Unsupported`] for a system without
    /// spectator views).
    fn spectator_view_json(&self) -> Result<Value, MatchError>;
    /// The hash of a spectator's view (safe to show anyone).
    ///
    /// # Errors
    /// As [`DynMatch::spectator_view_json`].
    fn spectator_view_hash(&self) -> Result<u64, MatchError>;
    /// The last command's events, redacted for a spectator
    /// ([`Game::redacted_for_spectator`]).
    fn spectator_last_events_json(&self) -> Value;
    /// The log from command `from` on as a spectator may know it (events redacted for a
    /// spectator, its view hashes: [`GameMatch::spectator_log`]), as a JSON array.
    ///
    /// # Errors
    /// As [`DynMatch::spectator_view_json`].
    fn spectator_log_json(&self, from: usize) -> Result<Value, MatchError>;
    /// The match's events in words ([`Game::describe_event`], as the `play` example
    /// prints them): the opening's and each command's from command `from` on, as
    /// `viewer` may know them (`None`: the referee, unredacted).
    ///
    /// # Errors
    /// For a spectator, as [`DynMatch::spectator_view_json`].
    fn log_words(&self, viewer: Option<Viewer>, from: usize) -> Result<LogWords, MatchError>;
    /// The match as `side` may know it (its record), as JSON.
    fn export_json(&self, side: Side) -> Value;
    /// `side`'s perfect-recall information state ([`GameMatch::information_state`]).
    fn information_state(&self, side: Side) -> String;
    /// `side`'s perfect-recall information state as a tensor
    /// ([`GameMatch::information_state_tensor`], layout in [`crate::infostate`]).
    ///
    /// # Errors
    /// As [`GameMatch::information_state_tensor`].
    fn information_state_tensor(&self, side: Side, out: &mut [f32]) -> Result<(), RuleError>;
    /// The built-in AI's choice for the pending decision ([`GameMatch::best_command`]):
    /// `{"command", "index", "side", "iterations", "value", "candidates"}` (the root's
    /// children, most visited first, at most `max_candidates`). `stop` is asked between
    /// iterations.
    ///
    /// # Errors
    /// As [`GameMatch::best_command`].
    fn think(
        &self,
        cfg: &crate::search::SearchConfig,
        stop: &mut dyn FnMut() -> bool,
        max_candidates: usize,
    ) -> Result<Value, crate::search::SearchError>;
    /// The save (the referee's).
    fn save(&self) -> String;
    /// Takes back the last command; false if there was none.
    fn undo(&mut self) -> bool;
    /// The winner (`None` for a draw) and why, once the game is over.
    fn outcome(&self) -> Option<(Option<Side>, String)>;
    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
    /// An independent copy (the same generator state).
    fn clone_box(&self) -> Box<dyn DynMatch>;
    /// An independent copy with its generator re-seeded ([`GameMatch::clone_with_seed`]).
    fn clone_with_seed(&self, seed: u64) -> Box<dyn DynMatch> {
        let mut m = self.clone_box();
        m.reseed(seed);
        m
    }
    /// A new match drawn from `side`'s view of this one ([`GameMatch::determinized`]).
    ///
    /// # Errors
    /// As [`GameMatch::determinized`].
    fn determinized(&self, side: Side, seed: u64) -> Result<Box<dyn DynMatch>, RuleError>;
    /// Plays uniformly random legal commands (drawn from `rng` as
    /// [`crate::agents::random`] draws them) until the game ends, no command is legal or
    /// `max` commands were applied; returns how many were.
    fn playout(&mut self, rng: &mut dyn RngCore, max: usize) -> usize;
    // --- The factored action space (`crate::factored`).

    /// The step sizes of the factored action space ([`GameMatch::factored_sizes`]).
    fn factored_sizes(&self) -> Vec<usize>;
    /// The options after a prefix now ([`GameMatch::factored_options`]).
    ///
    /// # Errors
    /// As [`GameMatch::factored_options`].
    fn factored_options(
        &self,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError>;
    /// Whether a sequence is complete ([`GameMatch::factored_complete`]).
    ///
    /// # Errors
    /// As [`GameMatch::factored_complete`].
    fn factored_complete(&self, seq: &[usize]) -> Result<bool, crate::factored::FactoredError>;
    /// The sequence of a flat index ([`GameMatch::flat_to_factored`]).
    ///
    /// # Errors
    /// As [`GameMatch::flat_to_factored`].
    fn flat_to_factored(&self, index: usize) -> Result<Vec<usize>, crate::factored::FactoredError>;
    /// The flat index of a sequence ([`GameMatch::factored_to_flat`]).
    ///
    /// # Errors
    /// As [`GameMatch::factored_to_flat`].
    fn factored_to_flat(&self, seq: &[usize]) -> Result<usize, crate::factored::FactoredError>;
    /// Applies the command of a sequence ([`GameMatch::apply_factored`]; its events are
    /// logged, as by [`DynMatch::apply_index`]).
    ///
    /// # Errors
    /// As [`GameMatch::apply_factored`].
    fn apply_factored(&mut self, seq: &[usize]) -> Result<(), RuleError>;

    // --- Queries beyond play (`crate::query`): each system's answer, or
    // `MatchError::Unsupported` naming the query and the system.

    /// The action index of a command given as JSON, read as strictly as
    /// [`DynMatch::apply_json`] reads it: `Ok(None)` for a command of this system that
    /// has no index now.
    ///
    /// # Errors
    /// [`MatchError::Input`] for JSON that is not a command of this system.
    fn try_index_of(&self, command: &Value) -> Result<Option<usize>, MatchError>;
    /// The `kind` of the pending decision, as its JSON names it ([`Game::pending_kind`]).
    fn pending_kind(&self) -> std::borrow::Cow<'static, str>;
    /// How the game stands: going on, won by a side, or drawn.
    fn result(&self) -> crate::query::MatchResult {
        crate::query::MatchResult::of_outcome(self.outcome().as_ref())
    }
    /// Why a command given as JSON would be refused now, or `None` if it is legal
    /// ([`Game::explain`]). The match is unchanged.
    ///
    /// # Errors
    /// [`MatchError::Input`] for JSON that is not a command of this system (not an
    /// explanation: the command cannot even be read).
    fn explain(&self, command: &Value) -> Result<Option<RuleError>, MatchError>;
    /// The picture of the game as SVG, of `side`'s view or (`None`) of the whole
    /// state; `options` a JSON object of the system's options ([`Game::svg`]).
    ///
    /// # Errors
    /// As [`Game::svg`].
    fn svg(&self, side: Option<Side>, options: &Value) -> Result<String, MatchError>;
    /// The picture of a spectator's view as SVG ([`Game::spectator_svg`]).
    ///
    /// # Errors
    /// As [`Game::spectator_svg`].
    fn spectator_svg(&self, options: &Value) -> Result<String, MatchError>;
    /// Where a unit can move now ([`Game::reachable`]).
    ///
    /// # Errors
    /// As [`Game::reachable`].
    fn reachable(&self, unit: &str) -> Result<Value, MatchError>;
    /// The odds of a proposal as `side` knows them ([`Game::odds`]).
    ///
    /// # Errors
    /// As [`Game::odds`].
    fn odds(&self, side: Side, proposal: &Value) -> Result<Value, MatchError>;
    /// The layout of the learning observation ([`Game::observation_spec`]).
    ///
    /// # Errors
    /// As [`Game::observation_spec`].
    fn observation_spec(&self) -> Result<crate::query::ObservationSpec, MatchError>;
    /// The number of values of an observation ([`Game::observation_size`]: the spec's
    /// size, without building the spec).
    ///
    /// # Errors
    /// As [`Game::observation_spec`].
    fn observation_size(&self) -> Result<usize, MatchError>;
    /// Writes `side`'s observation into the first [`crate::query::ObservationSpec::size`]
    /// values of `out` and returns that size ([`Game::observation`]); the rest of `out`
    /// is untouched.
    ///
    /// # Errors
    /// [`MatchError::Input`] for an `out` shorter than the observation (nothing
    /// written); as [`Game::observation`].
    fn observation(&self, side: Side, out: &mut [f32]) -> Result<usize, MatchError>;

    /// The bound on the length of every game of the match's scenario
    /// ([`GameMatch::max_game_length`]); `None` for a system that cannot bound it.
    fn max_game_length(&self) -> Option<crate::query::GameLength>;

    /// The concrete match, for the system-specific extras of a binding
    /// (`downcast_ref::<fm_core::Match>()`).
    fn as_any(&self) -> &dyn Any;
    /// The concrete match, mutably.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A uniform index below `n` from 64-bit draws (rejection: no modulo bias).
pub fn uniform_index(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

fn to_value<T: serde::Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_value(v).expect("engine values serialize")
}

impl<G: Game> DynMatch for GameMatch<G> {
    fn system(&self) -> &'static str {
        G::NAME
    }
    fn scenario_json(&self) -> Value {
        to_value(G::scenario_data(self.scenario()))
    }
    fn seed(&self) -> u64 {
        GameMatch::seed(self)
    }
    fn rng_state(&self) -> crate::rng::RngState {
        GameMatch::rng_state(self)
    }
    fn chance_mode(&self) -> crate::chance::ChanceMode {
        GameMatch::chance_mode(self)
    }
    fn set_chance_mode(&mut self, mode: crate::chance::ChanceMode) -> Result<(), RuleError> {
        GameMatch::set_chance_mode(self, mode)
    }
    fn new_with_chance(&self, mode: crate::chance::ChanceMode) -> Box<dyn DynMatch> {
        Box::new(GameMatch::<G>::new_with_chance(
            self.scenario_arc(),
            GameMatch::seed(self),
            mode,
        ))
    }
    fn chance_node(&self) -> Option<crate::chance::ChanceNode> {
        GameMatch::chance_node(self)
    }
    fn chance_drawn(&self) -> Option<Vec<u32>> {
        GameMatch::chance_drawn(self).map(<[u32]>::to_vec)
    }
    fn apply_chance(&mut self, outcome: u32) -> Result<Value, RuleError> {
        GameMatch::apply_chance(self, outcome).map(to_value)
    }
    fn set_rng_state(&mut self, state: crate::rng::RngState) {
        GameMatch::set_rng_state(self, state)
    }
    fn apply_json(&mut self, command: &Value) -> Result<Value, MatchError> {
        let cmd = command_from_json::<G>(command)?;
        Ok(to_value(&self.apply(&cmd)?))
    }
    fn apply_index(&mut self, index: usize) -> Result<(), RuleError> {
        GameMatch::apply_index(self, index).map(|_| ())
    }
    fn legal_json(&self) -> Vec<Value> {
        self.legal_commands().iter().map(to_value).collect()
    }
    fn legal_indices(&self) -> Vec<usize> {
        GameMatch::legal_indices(self)
    }
    fn action_space_size(&self) -> usize {
        G::action_space_size(self.scenario())
    }
    fn command_at(&self, index: usize) -> Option<Value> {
        GameMatch::index_to_command(self, index).map(|c| to_value(&c))
    }
    fn random_action(&self, rng: &mut dyn RngCore) -> Option<usize> {
        let c = self.random_command(rng)?;
        G::command_to_index(self.scenario(), self.state(), &c)
    }
    fn index_of(&self, command: &Value) -> Option<usize> {
        let cmd: G::Command = serde_json::from_value(command.clone()).ok()?;
        G::command_to_index(self.scenario(), self.state(), &cmd)
    }
    fn pending_json(&self) -> Value {
        to_value(&self.pending())
    }
    fn decider(&self) -> Option<Side> {
        G::decider(&self.pending())
    }
    fn state_json(&self) -> Value {
        to_value(self.state())
    }
    fn state_hash(&self) -> u64 {
        G::state_hash(self.state())
    }
    fn view_json(&self, side: Side) -> Value {
        to_value(&self.view(side))
    }
    fn view_hash(&self, side: Side) -> u64 {
        GameMatch::view_hash(self, side)
    }
    fn opening_events_json(&self) -> Value {
        to_value(&self.opening_events())
    }
    fn log_len(&self) -> usize {
        self.log().len()
    }
    fn log_json(&self, from: usize) -> Value {
        to_value(&self.log().iter_from(from).collect::<Vec<_>>())
    }
    fn side_log_json(&self, side: Side, from: usize) -> Value {
        let mut log = self.export(side).log;
        to_value(&log.split_off(from.min(log.len())))
    }
    fn last_events_json(&self, side: Option<Side>) -> Value {
        let events: Vec<G::Event> = match self.log().last() {
            None => Vec::new(),
            Some(e) => match side {
                None => e.events.clone(),
                Some(s) => e.events.iter().map(|x| G::redacted(x, s)).collect(),
            },
        };
        to_value(&events)
    }
    fn spectator_view_json(&self) -> Result<Value, MatchError> {
        Ok(to_value(&self.spectator_view()?))
    }
    fn spectator_view_hash(&self) -> Result<u64, MatchError> {
        GameMatch::spectator_view_hash(self)
    }
    fn spectator_last_events_json(&self) -> Value {
        let events: Vec<G::Event> = match self.log().last() {
            None => Vec::new(),
            Some(e) => e.events.iter().map(G::redacted_for_spectator).collect(),
        };
        to_value(&events)
    }
    fn spectator_log_json(&self, from: usize) -> Result<Value, MatchError> {
        Ok(to_value(&self.spectator_log(from)?))
    }
    fn log_words(&self, viewer: Option<Viewer>, from: usize) -> Result<LogWords, MatchError> {
        let sc = self.scenario();
        if viewer == Some(Viewer::Spectator) {
            G::spectator_view(sc, self.state())?;
        }
        let words = |events: &[G::Event]| -> Vec<String> {
            let line = |e: &G::Event| match viewer {
                None => G::describe_event(sc, e),
                Some(Viewer::A) => G::describe_event(sc, &G::redacted(e, Side::A)),
                Some(Viewer::B) => G::describe_event(sc, &G::redacted(e, Side::B)),
                Some(Viewer::Spectator) => G::describe_event(sc, &G::redacted_for_spectator(e)),
            };
            events.iter().filter_map(line).collect()
        };
        Ok(LogWords {
            opening: words(self.opening_events()),
            commands: self
                .log()
                .iter_from(from)
                .map(|e| words(&e.events))
                .collect(),
        })
    }
    fn think(
        &self,
        cfg: &crate::search::SearchConfig,
        stop: &mut dyn FnMut() -> bool,
        max_candidates: usize,
    ) -> Result<Value, crate::search::SearchError> {
        let mut r = GameMatch::best_command(self, cfg, stop)?;
        r.candidates.truncate(max_candidates);
        Ok(to_value(&r))
    }
    fn information_state(&self, side: Side) -> String {
        GameMatch::information_state(self, side)
    }
    fn information_state_tensor(&self, side: Side, out: &mut [f32]) -> Result<(), RuleError> {
        GameMatch::information_state_tensor(self, side, out)
    }
    fn export_json(&self, side: Side) -> Value {
        to_value(&self.export(side))
    }
    fn save(&self) -> String {
        GameMatch::save(self)
    }
    fn undo(&mut self) -> bool {
        GameMatch::undo(self)
    }
    fn outcome(&self) -> Option<(Option<Side>, String)> {
        GameMatch::outcome(self)
    }
    fn clone_box(&self) -> Box<dyn DynMatch> {
        Box::new(self.clone())
    }
    fn determinized(&self, side: Side, seed: u64) -> Result<Box<dyn DynMatch>, RuleError> {
        Ok(Box::new(GameMatch::determinized(self, side, seed)?))
    }
    fn playout(&mut self, rng: &mut dyn RngCore, max: usize) -> usize {
        let mut n = 0;
        while n < max && !self.is_over() {
            // Explicit chance mode: each outcome as likely as the rules make it.
            if let Some(node) = self.chance_node() {
                let k = uniform_index(rng, node.outcomes as usize) as u32;
                if GameMatch::apply_chance(self, k).is_err() {
                    break;
                }
                continue;
            }
            // The draw of `fm_core::agents::random`, so playouts agree across bindings.
            let Some(cmd) = self.random_command(rng) else {
                break;
            };
            if self.apply(&cmd).is_err() {
                break;
            }
            n += 1;
        }
        n
    }
    fn factored_sizes(&self) -> Vec<usize> {
        GameMatch::factored_sizes(self)
    }
    fn factored_options(
        &self,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        GameMatch::factored_options(self, prefix)
    }
    fn factored_complete(&self, seq: &[usize]) -> Result<bool, crate::factored::FactoredError> {
        GameMatch::factored_complete(self, seq)
    }
    fn flat_to_factored(&self, index: usize) -> Result<Vec<usize>, crate::factored::FactoredError> {
        GameMatch::flat_to_factored(self, index)
    }
    fn factored_to_flat(&self, seq: &[usize]) -> Result<usize, crate::factored::FactoredError> {
        GameMatch::factored_to_flat(self, seq)
    }
    fn apply_factored(&mut self, seq: &[usize]) -> Result<(), RuleError> {
        GameMatch::apply_factored(self, seq).map(|_| ())
    }
    fn try_index_of(&self, command: &Value) -> Result<Option<usize>, MatchError> {
        let cmd = command_from_json::<G>(command)?;
        Ok(G::command_to_index(self.scenario(), self.state(), &cmd))
    }
    fn pending_kind(&self) -> std::borrow::Cow<'static, str> {
        G::pending_kind(&self.pending())
    }
    fn result(&self) -> crate::query::MatchResult {
        GameMatch::result(self)
    }
    fn explain(&self, command: &Value) -> Result<Option<RuleError>, MatchError> {
        let cmd = command_from_json::<G>(command)?;
        Ok(G::explain(self.scenario(), self.state(), &cmd))
    }
    fn svg(&self, side: Option<Side>, options: &Value) -> Result<String, MatchError> {
        G::svg(self.scenario(), self.state(), side, options)
    }
    fn spectator_svg(&self, options: &Value) -> Result<String, MatchError> {
        G::spectator_svg(self.scenario(), self.state(), options)
    }
    fn reachable(&self, unit: &str) -> Result<Value, MatchError> {
        G::reachable(self.scenario(), self.state(), unit)
    }
    fn odds(&self, side: Side, proposal: &Value) -> Result<Value, MatchError> {
        G::odds(self.scenario(), self.state(), side, proposal)
    }
    fn observation_spec(&self) -> Result<crate::query::ObservationSpec, MatchError> {
        G::observation_spec(self.scenario())
    }
    fn observation_size(&self) -> Result<usize, MatchError> {
        G::observation_size(self.scenario())
    }
    fn observation(&self, side: Side, out: &mut [f32]) -> Result<usize, MatchError> {
        let n = G::observation_size(self.scenario())?;
        let Some(dest) = out.get_mut(..n) else {
            return Err(MatchError::Input(format!(
                "the buffer holds {} values; the observation has {n}",
                out.len()
            )));
        };
        G::observation(self.scenario(), self.state(), side, dest)?;
        Ok(n)
    }
    fn max_game_length(&self) -> Option<crate::query::GameLength> {
        GameMatch::max_game_length(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Reads a command of `G` from its JSON form as strictly as [`DynMatch::apply_json`]
/// does (it is what `apply_json` uses): serde's reading, and then no member the command
/// does not have (serde lets extra members through on field-less variants such as F&M's
/// `done`). For a binding that applies a system's typed commands itself
/// (`GameMatch::<G>::apply`) but must read dicts and JSON text exactly as the layer does.
///
/// # Errors
/// [`MatchError::Input`] (`command JSON: …`) for JSON that is not a command of `G`.
pub fn command_from_json<G: Game>(command: &Value) -> Result<G::Command, MatchError> {
    let cmd: G::Command = serde_json::from_value(command.clone())
        .map_err(|e| MatchError::Input(format!("command JSON: {e}")))?;
    // A field the command does not have is a mistake, not something to ignore.
    if let Some(path) = unknown_field(&to_value(&cmd), command, "") {
        return Err(MatchError::Input(format!(
            "command JSON: unknown field {path}"
        )));
    }
    Ok(cmd)
}

/// The path of the first member of `given` that `expected` (the engine's own form of
/// the same value) lacks: `"x"`, `"units[2].y"`.
pub(crate) fn unknown_field(expected: &Value, given: &Value, path: &str) -> Option<String> {
    match (expected, given) {
        (Value::Object(e), Value::Object(g)) => g.iter().find_map(|(k, gv)| {
            let sub = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            match e.get(k) {
                None => Some(format!("`{sub}`")),
                Some(ev) => unknown_field(ev, gv, &sub),
            }
        }),
        (Value::Array(e), Value::Array(g)) => e
            .iter()
            .zip(g)
            .enumerate()
            .find_map(|(i, (ev, gv))| unknown_field(ev, gv, &format!("{path}[{i}]"))),
        _ => None,
    }
}

/// The path of the first place where `given` has an array and `expected` (the engine's
/// own form of the value read from it) an object: serde reads a struct from an array by
/// position, which strict readers refuse.
pub(crate) fn array_for_object(expected: &Value, given: &Value, path: &str) -> Option<String> {
    match (expected, given) {
        (Value::Object(_), Value::Array(_)) => Some(if path.is_empty() {
            ".".to_string()
        } else {
            path.to_string()
        }),
        (Value::Object(e), Value::Object(g)) => g.iter().find_map(|(k, gv)| {
            let sub = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            e.get(k).and_then(|ev| array_for_object(ev, gv, &sub))
        }),
        (Value::Array(e), Value::Array(g)) => e
            .iter()
            .zip(g)
            .enumerate()
            .find_map(|(i, (ev, gv))| array_for_object(ev, gv, &format!("{path}[{i}]"))),
        _ => None,
    }
}

/// A new or loaded match, or why not.
pub type Opened = Result<Box<dyn DynMatch>, MatchError>;

/// A rules system the layer can open matches of: its name, its built-in scenarios,
/// and how to start and load its matches.
#[derive(Clone)]
pub struct SystemEntry {
    /// The system's name ([`Game::NAME`]), as scenarios and saves name it.
    pub name: &'static str,
    /// Whether it is the default system ([`Game::DEFAULT_SYSTEM`]).
    pub(crate) default: bool,
    pub(crate) builtins: fn() -> Vec<&'static str>,
    pub(crate) new_builtin: fn(&str, u64) -> Opened,
    pub(crate) new_from: fn(Value, u64) -> Opened,
    pub(crate) load: fn(Value) -> Opened,
}

impl SystemEntry {
    /// The entry of a rules system.
    pub fn of<G: Game>() -> SystemEntry {
        SystemEntry {
            name: G::NAME,
            default: G::DEFAULT_SYSTEM,
            builtins: G::builtin_names,
            new_builtin: |name, seed| Ok(Box::new(GameMatch::<G>::new_builtin(name, seed)?)),
            new_from: |v, seed| {
                let data = G::scenario_data_from_value(v).map_err(MatchError::ScenarioJson)?;
                let sc = G::scenario(data)?;
                // Else its save could not be loaded (a save checks the same).
                G::check_builtin_id(G::scenario_data(&sc))?;
                Ok(Box::new(GameMatch::<G>::new(Arc::new(sc), seed)))
            },
            load: |v| Ok(Box::new(GameMatch::<G>::load_value(v)?)),
        }
    }
}
