//! [`GameMatch`]: a scenario, its state, a seeded generator and the log. Starting a
//! match, applying commands (by value, action index or factored sequence), undo,
//! determinized copies, the generator, the legal listings through the system's memo,
//! and the accessors. Saves, side records and explicit chance mode are the sibling
//! modules' `impl` blocks on the same type.

use super::log::LogNode;
use super::save::cached_builtin;
use super::{Game, LogEntryOf, MatchError, MatchLog, MAX_DETERMINIZED_DEPTH};
use crate::chance::{ChanceMode, ChanceModeChange};
use crate::error::RuleError;
use crate::ids::Side;
use crate::rng::{RngReset, RngState};
use rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Debug;
use std::sync::Arc;

/// A running game of any rules system.
///
/// Cloning is O(1) in the length of the log: the scenario, the opening and the log are
/// shared (the log is a persistent list, [`MatchLog`]), and only the current state and
/// the generator are copied.
pub struct GameMatch<G: Game> {
    pub(super) scenario: Arc<G::Scenario>,
    pub(super) state: G::State,
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) seed: u64,
    /// Where the generator was set since the seed ([`GameMatch::reseed`]), in order.
    pub(super) resets: Vec<RngReset>,
    /// How draws are resolved.
    pub(super) chance_mode: ChanceMode,
    /// Where the chance mode changed ([`GameMatch::chance_mode_changes`]), in order.
    pub(super) mode_changes: Vec<ChanceModeChange>,
    /// In explicit chance mode, the command waiting for a chance outcome.
    pub(super) pending_chance: Option<PendingChance<G>>,
    pub(super) opening: Arc<Opening<G>>,
    pub(super) log: MatchLog<G>,
    /// The system's listing memo ([`Game::Memo`]); a listing that finds it in use
    /// (another thread listing the same match) works from scratch instead of waiting.
    pub(super) memo: std::sync::Mutex<G::Memo>,
    /// For a match made by [`GameMatch::determinized`], what it was drawn from.
    pub(super) determinized: Option<Arc<Determinization<G>>>,
}

/// The origin of a determinized match ([`GameMatch::determinized`]).
pub(super) struct Determinization<G: Game> {
    /// The match it was drawn from (its save is part of this match's save).
    pub(super) source: GameMatch<G>,
    /// The side whose view the opening was drawn from.
    pub(super) side: Side,
    /// 1 for a determinization of an ordinary match, one more for each level.
    pub(super) depth: usize,
}

/// A command stopped at a draw (explicit chance mode): the outcomes chosen so far and
/// the number of outcomes of the next draw, and what that draw is for.
#[derive(Clone)]
pub(super) struct PendingChance<G: Game> {
    /// The command; `None` for the opening of a match created in explicit chance mode
    /// ([`GameMatch::new_with_chance`]).
    pub(super) command: Option<G::Command>,
    pub(super) outcomes: Vec<u32>,
    pub(super) next: u32,
    pub(super) roll: Option<crate::chance::ChanceRoll>,
}

/// The opening events and the state they lead to (shared by clones).
pub(super) struct Opening<G: Game> {
    pub(super) events: Vec<G::Event>,
    pub(super) state: G::State,
    /// The outcomes chosen for the opening's draws, for a match created in explicit
    /// chance mode whose opening drew (its generator then drew nothing).
    pub(super) chance: Option<Vec<u32>>,
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
            mode_changes: self.mode_changes.clone(),
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
                chance: None,
            }),
            state,
            rng,
            seed,
            resets: Vec::new(),
            chance_mode: ChanceMode::Sampled,
            mode_changes: Vec::new(),
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

    /// Starts a match of `scenario` with a seed, resolving draws as `mode` says from
    /// the start: in [`ChanceMode::Explicit`] the opening's draws (Huzzah!'s roll-off
    /// and placement rolls) are chance nodes too, so the match may start waiting for a
    /// chance outcome ([`GameMatch::chance_node`]) before any command. The opening's
    /// outcomes are then drawn by [`GameMatch::apply_chance`], not the generator.
    /// [`ChanceMode::Sampled`] is [`GameMatch::new`].
    ///
    /// ```
    /// use fm_core::{huzzah::Huzzah, ChanceMode, GameMatch};
    /// let mut m = GameMatch::<Huzzah>::new_builtin_with_chance(
    ///     "huzzah-encounter",
    ///     1,
    ///     ChanceMode::Explicit,
    /// )
    /// .unwrap();
    /// // It opens with a roll-off (faces 1, 2, 3, 4, …: no tie for ever).
    /// assert_eq!(m.chance_node().unwrap().roll.unwrap().roll, "roll_off");
    /// let mut k = 0;
    /// while let Some(node) = m.chance_node() {
    ///     assert!(node.roll.is_some());
    ///     m.apply_chance(k % node.outcomes).unwrap();
    ///     k += 1;
    /// }
    /// assert!(!m.opening_events().is_empty());
    /// ```
    pub fn new_with_chance(scenario: Arc<G::Scenario>, seed: u64, mode: ChanceMode) -> Self {
        let mut m = match mode {
            ChanceMode::Sampled => return GameMatch::new(scenario, seed),
            ChanceMode::Explicit => GameMatch::with_scripted_opening(scenario, seed, Vec::new())
                .expect("an empty script fits any opening"),
        };
        m.set_mode_from_now(mode);
        m
    }

    /// [`GameMatch::new_with_chance`] of a built-in scenario.
    ///
    /// # Errors
    /// Unknown scenario name.
    pub fn new_builtin_with_chance(
        name: &str,
        seed: u64,
        mode: ChanceMode,
    ) -> Result<GameMatch<G>, MatchError> {
        Ok(GameMatch::new_with_chance(
            cached_builtin::<G>(name)?.0,
            seed,
            mode,
        ))
    }

    /// A match whose opening draws take `outcomes`: opened when they were all its
    /// draws, or waiting at its first draw past them (in sampled mode; the caller sets
    /// the mode).
    pub(super) fn with_scripted_opening(
        scenario: Arc<G::Scenario>,
        seed: u64,
        outcomes: Vec<u32>,
    ) -> Result<GameMatch<G>, RuleError> {
        let initial = G::initial(&scenario);
        let mut m = GameMatch {
            scenario,
            opening: Arc::new(Opening {
                events: Vec::new(),
                state: initial.clone(),
                chance: None,
            }),
            state: initial,
            rng: crate::rng::rng_from_seed(seed),
            seed,
            resets: Vec::new(),
            chance_mode: ChanceMode::Sampled,
            mode_changes: Vec::new(),
            pending_chance: None,
            log: MatchLog::default(),
            memo: Default::default(),
            determinized: None,
        };
        m.open_scripted(outcomes)?;
        Ok(m)
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

    /// Logs an applied command: its events, the state after them and the generator
    /// after its draws.
    pub(super) fn commit(
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
        // A command waiting for a chance outcome is taken back first; an opening
        // waiting for one is no command, and stays.
        if let Some(p) = &self.pending_chance {
            if p.command.is_none() {
                return false;
            }
            self.pending_chance = None;
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
        // So do the mode's changes after it; the mode stays, now from `len` on.
        self.mode_changes.retain(|c| c.at <= len);
        self.set_mode_from_now(self.chance_mode);
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
    /// [`GameMatch::information_state`] for `side` is this match's, continued. While a
    /// command (or the opening) waits for its draws in explicit chance mode, the drawn
    /// match waits at the same point: the command applied to the drawn state with the
    /// dice thrown so far, and any pick from a list, which `side` did not see, drawn
    /// anew.
    ///
    /// Its save records this match's save and `side` ([`SavedDeterminized`]), so that
    /// [`GameMatch::load`] verifies it by loading that save and drawing again. Like
    /// every save it is referee material: it holds this match's.
    ///
    /// # Errors
    /// The waiting command's refusal if the drawn state refuses it, rule `"chance"` if
    /// it draws differently there; rule `"input"` for a match already [`MAX_DETERMINIZED_DEPTH`] determinizations
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
        let mut d = self.determinized_opening(side, seed)?;
        if let (Some(p), Some(seen)) = (&self.pending_chance, self.pending_seen()) {
            // A command waiting for its draws waits in the drawn match too: with the
            // dice thrown so far (everyone saw them) and the picks from a list, which
            // the side did not see, drawn anew by a generator of their own (the new
            // match's stays as a load of its save makes it).
            let mut picks = crate::rng::rng_from_seed(seed ^ 0x7069_636b_7320_616e);
            let mut outcomes = Vec::with_capacity(seen.drawn.len());
            for o in seen.drawn {
                let v = match o {
                    Some(v) => v,
                    None => {
                        let (n, _) = d.roll_at(p.command.as_ref(), &outcomes).ok_or_else(|| {
                            RuleError::new(
                                "chance",
                                "the waiting command draws differently in the drawn state",
                            )
                        })?;
                        crate::dynmatch::uniform_index(&mut picks, n as usize) as u32
                    }
                };
                outcomes.push(v);
            }
            match &p.command {
                Some(cmd) => {
                    d.apply_scripted(cmd, outcomes)?;
                }
                None => d.open_scripted(outcomes)?,
            }
        }
        Ok(d)
    }

    /// [`GameMatch::determinized`] without the command waiting for its draws: what a
    /// load of a determinized save starts from (the save records that command).
    pub(super) fn determinized_opening(
        &self,
        side: Side,
        seed: u64,
    ) -> Result<GameMatch<G>, RuleError> {
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
                chance: None,
            }),
            state,
            rng,
            seed,
            resets: Vec::new(),
            chance_mode: self.chance_mode,
            mode_changes: Vec::new(),
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
    /// The state as a spectator sees it: what both sides may know
    /// ([`Game::spectator_view`]).
    ///
    /// # Errors
    /// As [`Game::spectator_view`] (a system without spectator views).
    pub fn spectator_view(&self) -> Result<G::View, MatchError> {
        G::spectator_view(&self.scenario, &self.state)
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
