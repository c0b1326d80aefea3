//! The Fire & Movement system rules, Version 8 (Decision Games, 2023): one module per
//! rule area, each opening with the rule sections it covers, and the games built on
//! them in [`games`].
//!
//! - Data: [`hex`] (2.1), [`mp`] (5.2, 5.4), [`scenario`] (2.0, 3.0), [`crt`] (8.2.4,
//!   the CRT), [`state`] (4.1), [`command`] and [`event`] (the vocabulary and the fold).
//! - Rules: [`sequence`] (3.0, 4.0-4.1), [`movement`] (5.0-5.5), [`zoc`] (6.0),
//!   [`support_fire`] (7.0-7.2), [`bombardment`] (8.1), [`combat`] (8.0, 8.2),
//!   [`retreat`] (8.3-8.5), [`victory`].
//! - Entry points and queries: [`engine`] (`apply`), [`legal`], [`encoding`] and
//!   [`factored`] (the flat and the factored action spaces), [`odds`],
//!   [`view`] and [`hidden`] (what each side may know), [`playable`] (set-up room),
//!   [`los`], [`render`], [`agents`], [`words`] (the events in words).
//! - [`length`]: the bound on a game's length, term by term from the rules (3.0-8.5
//!   and each game's exclusive rules).
//! - [`exclusive`]: the one trait through which the system rules reach a game's
//!   exclusive rules; [`games`]: the games and the registry that picks one.

pub mod agents;
pub mod ai;
pub(crate) mod bombardment;
pub(crate) mod combat;
pub(crate) mod command;
pub(crate) mod crt;
pub(crate) mod encoding;
pub(crate) mod engine;
pub(crate) mod event;
pub(crate) mod exclusive;
pub(crate) mod factored;
pub mod games;
pub(crate) mod hex;
pub(crate) mod hidden;
pub(crate) mod legal;
pub mod length;
pub mod los;
pub mod memo;
pub(crate) mod movement;
pub(crate) mod mp;
pub mod observation;
pub(crate) mod odds;
pub(crate) mod playable;
pub(crate) mod query;
#[doc(hidden)]
pub mod reference;
pub mod render;
pub(crate) mod retreat;
pub(crate) mod scenario;
pub(crate) mod sequence;
pub(crate) mod state;
pub(crate) mod support_fire;
pub(crate) mod victory;
pub(crate) mod view;
pub mod words;
pub mod zoc;

use crate::error::RuleError;
use crate::game::{Game, GameMatch, LogEntryOf, SavedGame, SideEntryOf, SideRecordOf};
use crate::ids::{Side, Viewer};
use rand_core::RngCore;

/// The Fire & Movement rules system, as the system-agnostic match layer sees it
/// ([`crate::Match`] is `GameMatch<Fm>`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Fm;

// The match layer's types for this system, re-exported at the crate root
// (`fm_core::Match`, …) as they were before the layer was generic.

/// A log entry of the Fire & Movement system.
pub type LogEntry = LogEntryOf<Fm>;

/// A saved match of the Fire & Movement system.
pub type SavedMatch = SavedGame<Fm>;

/// A side entry of the Fire & Movement system.
pub type SideEntry = SideEntryOf<Fm>;

/// A side record of the Fire & Movement system.
pub type SideRecord = SideRecordOf<Fm>;

/// A running game of the Fire & Movement system.
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
pub type Match = GameMatch<Fm>;

impl Game for Fm {
    const NAME: &'static str = "fm";
    const DEFAULT_SYSTEM: bool = true;
    type Scenario = scenario::Scenario;
    type ScenarioData = scenario::ScenarioData;
    type State = state::State;
    type Command = command::Command;
    type Event = event::Event;
    type Pending = state::Pending;
    type View = view::View;

    fn builtin_names() -> Vec<&'static str> {
        scenario::Scenario::builtin_names()
    }
    fn builtin(name: &str) -> Result<scenario::Scenario, scenario::ScenarioError> {
        scenario::Scenario::builtin(name)
    }
    fn scenario_data_from_value(
        v: serde_json::Value,
    ) -> Result<scenario::ScenarioData, scenario::ScenarioError> {
        scenario::ScenarioData::from_value(v)
    }
    fn scenario(
        data: scenario::ScenarioData,
    ) -> Result<scenario::Scenario, scenario::ScenarioError> {
        scenario::Scenario::from_data(data)
    }
    fn scenario_data(sc: &scenario::Scenario) -> &scenario::ScenarioData {
        &sc.data
    }
    fn check_builtin_id(data: &scenario::ScenarioData) -> Result<(), scenario::ScenarioError> {
        data.check_builtin_id()
    }
    fn initial(sc: &scenario::Scenario) -> state::State {
        state::State::initial(sc)
    }
    fn new_game(
        sc: &scenario::Scenario,
        rng: &mut dyn RngCore,
    ) -> (state::State, Vec<event::Event>) {
        engine::new_game(sc, rng)
    }
    fn apply(
        sc: &scenario::Scenario,
        s: &state::State,
        cmd: &command::Command,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<event::Event>, RuleError> {
        engine::apply(sc, s, cmd, rng)
    }
    fn apply_with_state(
        sc: &scenario::Scenario,
        s: &state::State,
        cmd: &command::Command,
        rng: &mut dyn RngCore,
    ) -> Result<(Vec<event::Event>, state::State), RuleError> {
        engine::apply_with_state(sc, s, cmd, rng)
    }
    fn fold(sc: &scenario::Scenario, s: &mut state::State, events: &[event::Event]) {
        s.apply_events(sc, events)
    }
    fn pending(s: &state::State) -> state::Pending {
        s.pending()
    }
    fn decider(p: &state::Pending) -> Option<Side> {
        p.side()
    }
    fn outcome(s: &state::State) -> Option<(Option<Side>, String)> {
        s.outcome.as_ref().map(|o| (o.winner, o.reason.clone()))
    }
    fn legal_commands(sc: &scenario::Scenario, s: &state::State) -> Vec<command::Command> {
        legal::legal_commands(sc, s)
    }
    type Memo = memo::ListingMemo;
    fn index_to_command_memo(
        sc: &scenario::Scenario,
        s: &state::State,
        m: &mut memo::ListingMemo,
        i: usize,
    ) -> Option<command::Command> {
        m.index_to_command(sc, s, i)
    }
    fn legal_commands_memo(
        sc: &scenario::Scenario,
        s: &state::State,
        m: &mut memo::ListingMemo,
    ) -> Vec<command::Command> {
        m.legal_commands(sc, s)
    }
    fn legal_indices_memo(
        sc: &scenario::Scenario,
        s: &state::State,
        m: &mut memo::ListingMemo,
    ) -> Vec<usize> {
        m.legal_indices(sc, s)
    }
    fn random_command_memo(
        sc: &scenario::Scenario,
        s: &state::State,
        m: &mut memo::ListingMemo,
        rng: &mut dyn RngCore,
    ) -> Option<command::Command> {
        m.random_command(sc, s, rng)
    }
    fn determinize(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Side,
        rng: &mut dyn RngCore,
    ) -> state::State {
        hidden::sample_consistent(sc, &view::view(sc, s, side), rng)
    }
    fn evaluate(sc: &scenario::Scenario, s: &state::State, side: Side) -> f64 {
        ai::evaluate(sc, s, side)
    }
    fn view(sc: &scenario::Scenario, s: &state::State, side: Side) -> view::View {
        view::view(sc, s, side)
    }
    fn view_hash(v: &view::View) -> u64 {
        v.hash()
    }
    fn redacted(e: &event::Event, side: Side) -> event::Event {
        e.redacted_for(side)
    }
    fn spectator_view(
        sc: &scenario::Scenario,
        s: &state::State,
    ) -> Result<view::View, crate::game::MatchError> {
        Ok(view::view(sc, s, Viewer::Spectator))
    }
    fn describe_event(sc: &Self::Scenario, e: &event::Event) -> Option<String> {
        words::describe(sc, e)
    }
    fn redacted_for_spectator(e: &event::Event) -> event::Event {
        e.redacted_for(Viewer::Spectator)
    }
    fn state_hash(s: &state::State) -> u64 {
        s.hash()
    }
    fn state_hash_in_format(s: &state::State, format: u32) -> u64 {
        if format <= 3 {
            s.legacy_hash()
        } else {
            s.hash()
        }
    }
    fn action_space_size(sc: &scenario::Scenario) -> usize {
        encoding::action_space_size(sc)
    }
    fn command_to_index(
        sc: &scenario::Scenario,
        s: &state::State,
        c: &command::Command,
    ) -> Option<usize> {
        encoding::command_to_index(sc, s, c)
    }
    fn index_to_command(
        sc: &scenario::Scenario,
        s: &state::State,
        i: usize,
    ) -> Option<command::Command> {
        encoding::index_to_command(sc, s, i)
    }
    fn factored_sizes(sc: &scenario::Scenario) -> Vec<usize> {
        factored::factored_sizes(sc)
    }
    fn flat_to_factored(
        sc: &scenario::Scenario,
        index: usize,
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        factored::flat_to_factored(sc, index)
    }
    fn factored_to_flat(
        sc: &scenario::Scenario,
        seq: &[usize],
    ) -> Result<usize, crate::factored::FactoredError> {
        factored::factored_to_flat(sc, seq)
    }
    fn factored_complete(
        sc: &scenario::Scenario,
        seq: &[usize],
    ) -> Result<bool, crate::factored::FactoredError> {
        factored::factored_complete(sc, seq)
    }
    fn factored_options_memo(
        sc: &scenario::Scenario,
        s: &state::State,
        m: &mut memo::ListingMemo,
        prefix: &[usize],
    ) -> Result<Vec<usize>, crate::factored::FactoredError> {
        m.factored_options(sc, s, prefix)
    }
    fn max_game_length(sc: &scenario::Scenario) -> Option<crate::query::GameLength> {
        Some(length::max_game_length(sc))
    }
    fn pending_kind(p: &state::Pending) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(query::pending_kind(p))
    }
    fn explain(
        sc: &scenario::Scenario,
        s: &state::State,
        cmd: &command::Command,
    ) -> Option<RuleError> {
        engine::explain(sc, s, cmd)
    }
    fn svg(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Option<Side>,
        options: &serde_json::Value,
    ) -> Result<String, crate::game::MatchError> {
        query::svg(sc, s, side.map(Viewer::from), options)
    }
    fn spectator_svg(
        sc: &scenario::Scenario,
        s: &state::State,
        options: &serde_json::Value,
    ) -> Result<String, crate::game::MatchError> {
        query::svg(sc, s, Some(Viewer::Spectator), options)
    }
    fn reachable(
        sc: &scenario::Scenario,
        s: &state::State,
        unit: &str,
    ) -> Result<serde_json::Value, crate::game::MatchError> {
        query::reachable(sc, s, unit)
    }
    fn odds(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Side,
        proposal: &serde_json::Value,
    ) -> Result<serde_json::Value, crate::game::MatchError> {
        query::odds(sc, s, side, proposal)
    }
    fn observation_spec(
        sc: &scenario::Scenario,
    ) -> Result<crate::query::ObservationSpec, crate::game::MatchError> {
        Ok(query::observation_spec(sc))
    }
    fn observation_size(sc: &scenario::Scenario) -> Result<usize, crate::game::MatchError> {
        Ok(observation::Static::of(sc).size())
    }
    fn observation(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Side,
        out: &mut [f32],
    ) -> Result<(), crate::game::MatchError> {
        query::observation(sc, s, side, out);
        Ok(())
    }
}
