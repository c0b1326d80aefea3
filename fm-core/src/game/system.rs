//! The [`Game`] trait: a rules system as the match layer sees it. Every query beyond
//! play has a default here (`MatchError::Unsupported`, or the flat action space in two
//! digits for the factored one), so a system overrides only what it answers.

use super::MatchError;
use crate::error::{RuleError, ScenarioError};
use crate::ids::Side;
use rand_core::RngCore;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

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
    /// The state as a spectator may know it: what both sides may know, every secret of
    /// either side hidden. Its [`Game::view_hash`] is equal for every two states that
    /// differ only in what either side may not know.
    ///
    /// # Errors
    /// [`MatchError::Unsupported`] (the default, query `"spectator view"`): a system
    /// shows a spectator nothing until it says what a spectator may know.
    fn spectator_view(_sc: &Self::Scenario, _s: &Self::State) -> Result<Self::View, MatchError> {
        Err(crate::query::unsupported("spectator view", Self::NAME))
    }
    /// An event as a spectator may see it: every secret of either side removed. The
    /// default redacts it for each side in turn (side a's redaction removes b's
    /// secrets, b's then a's).
    fn redacted_for_spectator(e: &Self::Event) -> Self::Event {
        Self::redacted(&Self::redacted(e, Side::A), Side::B)
    }
    /// An event in words, one line as the `play` example prints it (a redacted event's
    /// hidden values read `?`), or `None` for bookkeeping a reader does not need. The
    /// default says nothing: a system without words gives none.
    fn describe_event(_sc: &Self::Scenario, _e: &Self::Event) -> Option<String> {
        None
    }
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
    /// A picture of a spectator's view ([`Game::spectator_view`]) as SVG: nothing either
    /// side may keep from the other. `options` as for [`Game::svg`].
    ///
    /// # Errors
    /// As [`Game::svg`]; [`MatchError::Unsupported`] (the default, query
    /// `"spectator svg"`).
    fn spectator_svg(
        _sc: &Self::Scenario,
        _s: &Self::State,
        _options: &serde_json::Value,
    ) -> Result<String, MatchError> {
        Err(crate::query::unsupported("spectator svg", Self::NAME))
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
    /// The number of values of an observation: [`Game::observation_spec`]'s size,
    /// which a system may give without naming every entry (the match asks it at every
    /// observation).
    ///
    /// # Errors
    /// [`MatchError::Unsupported`] (the default's, for a system without an
    /// observation).
    fn observation_size(sc: &Self::Scenario) -> Result<usize, MatchError> {
        Ok(Self::observation_spec(sc)?.size())
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
