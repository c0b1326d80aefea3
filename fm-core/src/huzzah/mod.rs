//! Huzzah! Glorious Empires v6.3 (Ian Marsh; pages 1-22 of our copy): fast-play
//! grand-tactical Napoleonic miniatures rules on an open table. Distances in
//! centimetres, square bases, 2D6 for every roll, officers who give orders.
//!
//! One module per rule area:
//!
//! | module | pages | what it holds |
//! |---|---|---|
//! | `geometry` | 2, 11-15, 18-22 | the table: exact positions, facings, faces, ranges, arcs, line of sight, contact |
//! | `scenario` | 2-10 | forces, officers, terrain, conditions, validated at load; the built-in battle |
//! | `quality` | 4-6 | expected and actual quality, the (stand-in) Unit Quality Table |
//! | `state`, `command`, `event` | — | the dynamic state, the vocabularies, the fold |
//! | `names` | — | ids (what the JSON names things by) to the engine's indices and back |
//! | `engine` | 7-8 | `new_game`, `apply`; the turn sequence; set-up |
//! | `skirmish` | 9-10 | skirmisher superiority, artillery effectiveness |
//! | `firing` | 11-13 | who fires at what, the Fire Factor, hits, base removal |
//! | `morale` | 13-15 | morale tests, force backs, routs, officers' saving throws |
//! | `chargers` | 13 | fire at chargers |
//! | `movement` | 16-21 | the command hierarchy and order roll; advance, drift, charge and squaring up, retire, the Waver Test; officers met by moving units |
//! | `deploy` | 19, 21-22 | formations, squares, the skirmish line, grand batteries, sectors of dense terrain, the passage of lines |
//! | `manoeuvre` | 17-22 | the manoeuvre (its rules are missing: the outcome is stated, held to the written limits) |
//! | `missing` | — | melee, rally and officer moves (missing pages): decisions, or labelled stand-ins |
//! | `render` | — | the SVG picture of the table |
//! | `odds`, `orders` | 11-19 | exact fire, morale and order odds; the Command Factor and its modifiers |
//! | `observation` | 2-22 | the learning observation: the table from one side's view as planes and slots |
//! | `legal` | — | legal commands and the integer encoding |
//! | `length` | 7-22 | the bound on a battle's length, term by term from the rules |
//! | `ai` | 2, 4-5, 7-8, 11-22 | the built-in AI's evaluation (`Game::evaluate`; judgment, no rule): the victory terms as they stand, strength lost, nearness to the objectives |
//! | `words` | — | the events in words, as `play` prints them and `serve`'s `log` gives them (`"words": true`) |
//!
//! [`Huzzah`] implements [`crate::Game`], so every binding reaches it through
//! [`crate::any`]. Docs: `docs/huzzah.md` (table format, geometry conventions, stand-in
//! values), `docs/rulings.md` (Huzzah section).

pub mod ai;
pub mod chargers;
pub mod command;
pub mod deploy;
pub mod engine;
pub mod event;
pub mod firing;
pub mod geometry;
pub mod legal;
pub mod length;
pub mod manoeuvre;
pub mod missing;
pub mod morale;
pub mod movement;
pub mod names;
pub mod observation;
pub mod odds;
pub mod orders;
pub mod quality;
pub(crate) mod query;
pub mod render;
pub mod scenario;
pub mod skirmish;
pub mod state;
pub mod words;

pub use query::OddsRequest;

use crate::error::RuleError;
use crate::error::ScenarioError;
use crate::ids::Side;
use rand_core::RngCore;

/// The Huzzah! rules system, as the match layer sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Huzzah;

impl crate::game::Game for Huzzah {
    const NAME: &'static str = "huzzah";
    type Scenario = scenario::Scenario;
    type ScenarioData = scenario::ScenarioData;
    type State = state::State;
    type Command = command::Command;
    type Event = event::Event;
    type Pending = state::Pending;
    type View = state::State;

    fn builtin_names() -> Vec<&'static str> {
        scenario::BUILTIN.to_vec()
    }
    fn builtin(name: &str) -> Result<scenario::Scenario, ScenarioError> {
        scenario::Scenario::builtin(name)
    }
    fn scenario_data_from_value(
        v: serde_json::Value,
    ) -> Result<scenario::ScenarioData, ScenarioError> {
        scenario::from_json_value(v)
    }
    fn scenario(data: scenario::ScenarioData) -> Result<scenario::Scenario, ScenarioError> {
        scenario::validate(data)
    }
    fn scenario_data(sc: &scenario::Scenario) -> &scenario::ScenarioData {
        sc.data()
    }
    fn check_builtin_id(data: &scenario::ScenarioData) -> Result<(), ScenarioError> {
        scenario::check_builtin_id(data)
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
        s.pending.clone()
    }
    fn decider(p: &state::Pending) -> Option<Side> {
        p.side()
    }
    fn outcome(s: &state::State) -> Option<(Option<Side>, String)> {
        s.outcome.as_ref().map(|o| (o.winner, o.reason.clone()))
    }
    type Memo = ();
    fn legal_commands(sc: &scenario::Scenario, s: &state::State) -> Vec<command::Command> {
        legal::legal_commands(sc, s)
    }
    /// Nothing in pages 1-22 is hidden from a player: unrolled qualities are unknown
    /// to both, and everything on the table is in plain sight.
    fn view(_: &scenario::Scenario, s: &state::State, _: Side) -> state::State {
        s.clone()
    }
    fn view_hash(v: &state::State) -> u64 {
        v.hash()
    }
    fn describe_event(sc: &Self::Scenario, e: &event::Event) -> Option<String> {
        words::describe(sc, e)
    }
    fn redacted(e: &event::Event, _: Side) -> event::Event {
        e.clone()
    }
    /// A spectator sees what both players see: the table.
    fn spectator_view(
        _: &scenario::Scenario,
        s: &state::State,
    ) -> Result<state::State, crate::game::MatchError> {
        Ok(s.clone())
    }
    fn state_hash(s: &state::State) -> u64 {
        s.hash()
    }
    fn state_hash_in_format(s: &state::State, format: u32) -> u64 {
        if format <= 4 {
            s.json_hash()
        } else {
            s.hash()
        }
    }
    fn action_space_size(sc: &scenario::Scenario) -> usize {
        legal::action_space_size(sc)
    }
    fn command_to_index(
        sc: &scenario::Scenario,
        s: &state::State,
        c: &command::Command,
    ) -> Option<usize> {
        legal::command_to_index(sc, s, c)
    }
    fn index_to_command(
        sc: &scenario::Scenario,
        s: &state::State,
        i: usize,
    ) -> Option<command::Command> {
        legal::index_to_command(sc, s, i)
    }
    /// The built-in AI's judgment ([`ai::evaluate`]): the victory terms as they
    /// stand, the strength each side has lost and its nearness to the objectives.
    fn evaluate(sc: &scenario::Scenario, s: &state::State, side: Side) -> f64 {
        ai::evaluate(sc, s, side)
    }
    fn max_game_length(sc: &scenario::Scenario) -> Option<crate::query::GameLength> {
        Some(length::max_game_length(sc))
    }
    fn pending_kind(p: &state::Pending) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(query::pending_kind(p))
    }
    fn svg(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Option<Side>,
        options: &serde_json::Value,
    ) -> Result<String, crate::game::MatchError> {
        query::svg(sc, s, side, options)
    }
    fn spectator_svg(
        sc: &scenario::Scenario,
        s: &state::State,
        options: &serde_json::Value,
    ) -> Result<String, crate::game::MatchError> {
        // Every view is the table itself.
        query::svg(sc, s, None, options)
    }
    fn odds(
        sc: &scenario::Scenario,
        s: &state::State,
        side: Side,
        request: &serde_json::Value,
    ) -> Result<serde_json::Value, crate::game::MatchError> {
        query::odds(sc, s, side, request)
    }
    fn observation_spec(
        sc: &scenario::Scenario,
    ) -> Result<crate::query::ObservationSpec, crate::game::MatchError> {
        Ok(query::observation_spec(sc))
    }
    fn observation_size(sc: &scenario::Scenario) -> Result<usize, crate::game::MatchError> {
        Ok(observation::Layout::new(sc).size())
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
