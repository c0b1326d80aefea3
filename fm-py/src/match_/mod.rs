//! `fm.Match`: a match of any registered rules system, through the system-agnostic
//! layer `fm_core::any` ([`DynMatch`]). Every method works for every system through
//! the layer's JSON forms; where the match's system has bindings of its own
//! (`crate::system::PySystem`, found once when the match is made), their hooks give the
//! typed objects (commands, events, the pending decision, log entries), the picture and
//! the system's own features, and a feature that the system lacks raises
//! `fm.UnsupportedError`. This file holds the class and its methods (one `#[pymethods]`
//! block, as pyo3 wants); the generic work of each concern is in the submodules.

mod actions;
mod generic;
mod infostate;
mod observation;
mod picture;
mod saves;
mod search;

use crate::args::{count_arg, seed_arg, setting_float, setting_int, side_from_py, viewer_from_py};
use crate::convert::{to_json_value, to_py, type_name};
use crate::errors::{fm_only, match_error, protocol_error, rule_error, systems_only};
use crate::source::{default_source, source_from_py};
use crate::system::{self, OddsArgs, Play, PySystem, Records, StateOf, SvgArgs};
use actions::{action_arg, factored_error, mask_of};
use fm_core::any::DynMatch;
use fm_core::{Side, Viewer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

// The match is a `fm_core::any::DynMatch`: the generic methods go through it, and its
// system's bindings (`sys`) downcast it to the system's `GameMatch` for the typed
// objects, the picture and the system's own features (Fire & Movement's to
// `fm_core::Match`, with the typed fast paths; Huzzah!'s to `GameMatch<Huzzah>`).
/// A running game of any registered rules system (`fm.systems()`): scenario, state,
/// seeded generator (xoshiro256++) and the log.
///
/// Every system: `system`, `scenario_data`, `seed`, `pending`, `to_move`,
/// `legal_commands()`, `apply()`, `legal_actions()`, `apply_action()`,
/// `legal_action_mask()`, `action_space_size`, `action_of()`, `command_of()`, the
/// factored action space (`factored_sizes`, `factored_options()`, `factored_mask()`,
/// `factored_complete()`, `factored_to_action()`, `action_to_factored()`,
/// `apply_factored()`), `state`,
/// `view()`, `hash`, `view_hash()`, `export()`, `is_over`, `winner`, `result`,
/// `returns()`, `max_game_length()`, `log`, `opening_events`, `events()`, `playout()`,
/// `clone()` (copy and pickle), `undo()`, `save()`, `load()`, `pending_kind`; the
/// learning observation (`observation_spec`, `observation()`, `observation_bytes()`)
/// of a system that has one (Fire & Movement and Huzzah!). Commands, events, the
/// pending decision and log
/// entries are typed for Fire & Movement (`fm.Move`, `fm.events.UnitMoved`,
/// `fm.Pending`, `fm.LogEntry`) and Huzzah! (`fm.huzzah.Fire`,
/// `fm.huzzah.events.FireResolved`, `fm.huzzah.Pending`, `fm.huzzah.LogEntry`), dicts in
/// the system's JSON form for another; commands may always be given as dicts or JSON
/// text.
///
/// Fire & Movement and Huzzah!: `turn`, `phase`, `active`, `svg()`, `_repr_svg_()`, the
/// learning observation (`observation_spec`, `observation()`, `observation_bytes()`).
/// Fire & Movement only (`fm.UnsupportedError` for another system): `scenario` (an
/// `fm.Scenario`), `legal_commands_for()`, `explain()`, `reachable()`, `odds()`.
#[pyclass(module = "fm", name = "Match")]
pub struct PyMatch {
    pub m: Box<dyn DynMatch>,
    /// The bindings of `m`'s system (`system::of`).
    sys: &'static dyn PySystem,
    /// Nanoseconds spent inside the Rust `apply` by the last `_apply_timed`.
    last_apply_ns: u64,
}

impl PyMatch {
    /// A match object for `m`, with its system's bindings.
    pub fn new_boxed(m: Box<dyn DynMatch>) -> PyMatch {
        PyMatch {
            sys: system::of(&*m),
            m,
            last_apply_ns: 0,
        }
    }

    /// A side argument: with a scenario that names its sides (Fire & Movement's) also a
    /// side's name.
    fn side(&self, obj: &Bound<'_, PyAny>) -> PyResult<Side> {
        side_from_py(self.sys.side_names(&*self.m), obj)
    }

    /// A viewer argument: a side as [`Self::side`] reads it, or `"spectator"`.
    fn viewer(&self, obj: &Bound<'_, PyAny>) -> PyResult<Viewer> {
        viewer_from_py(self.sys.side_names(&*self.m), obj)
    }

    /// A `since` argument: a command count from 0 to the log's length (`None`: 0).
    fn since(&self, since: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        match since {
            Some(n) if !n.is_none() => Ok(count_arg(n, "since", self.m.log_len() as u64)? as usize),
            _ => Ok(0),
        }
    }

    /// The `fm.UnsupportedError` of a feature (`what`: `"Match.turn"`) that this match's
    /// system lacks.
    fn lacks(&self, what: &str) -> PyErr {
        fm_only(what, self.m.system())
    }

    /// The `fm.UnsupportedError` of `Match.turn`, `phase` or `active` (`what`) for a
    /// system without turns and phases.
    fn lacks_turns(&self, what: &str) -> PyErr {
        systems_only(
            what,
            &system::feature_of(|s| s.has_turns()),
            self.m.system(),
        )
    }

    /// Plays a command, an action index or a chance outcome: typed events where the
    /// system has them, dicts otherwise.
    fn play<'py>(&mut self, py: Python<'py>, play: Play<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(r) = self.sys.play(py, &mut *self.m, play) {
            return r;
        }
        match play {
            Play::Command(c) => generic::apply(py, &mut *self.m, c),
            Play::Index(i) => generic::apply_index(py, &mut *self.m, i),
            Play::Chance(k) => generic::apply_chance(py, &mut *self.m, k),
        }
    }

    /// The log, the opening events or every event: typed where the system has them,
    /// dicts otherwise.
    fn records<'py>(&self, py: Python<'py>, which: Records) -> PyResult<Bound<'py, PyList>> {
        match self.sys.records(py, &*self.m, which) {
            Some(r) => r,
            None => generic::records(py, &*self.m, which),
        }
    }

    /// A factored prefix or sequence argument of this match (`None`: empty).
    fn factored_of(&self, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
        match obj.filter(|o| !o.is_none()) {
            Some(o) => actions::factored_arg(o, self.m.factored_sizes().len()),
            None => Ok(Vec::new()),
        }
    }
}

#[pymethods]
impl PyMatch {
    /// Starts a match of any registered rules system. `scenario`: a built-in name
    /// (`fm.scenarios()`, every system's), a path to a scenario file, scenario JSON
    /// text, a dict (JSON naming its system in `"system"`; Fire & Movement when absent),
    /// or an `fm.Scenario`. `seed`: an int in 0..2**64-1 (`ValueError` outside it).
    #[new]
    #[pyo3(
        signature = (scenario = None, seed = None, chance_mode = "sampled"),
        text_signature = "(scenario=None, seed=0, chance_mode='sampled')"
    )]
    fn new(
        scenario: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        chance_mode: &str,
    ) -> PyResult<Self> {
        let seed = seed_arg(seed, 0)?;
        let mode = chance_mode_arg(chance_mode)?;
        let src = match scenario {
            Some(s) => source_from_py(s)?,
            None => default_source()?,
        };
        let mut m = src.open(seed).map_err(|e| match_error(&e))?;
        // Explicit from the start: the opening's draws are chance nodes too.
        if mode == fm_core::ChanceMode::Explicit {
            m = m.new_with_chance(mode);
        }
        Ok(PyMatch::new_boxed(m))
    }

    /// The rules system: `"fm"` (Fire & Movement) or another registered one
    /// (`fm.systems()`).
    #[getter]
    fn system(&self) -> &'static str {
        self.m.system()
    }

    /// The scenario (Fire & Movement only: `fm.UnsupportedError` for another system;
    /// `scenario_data` works for every system).
    #[getter(scenario)]
    fn scenario_obj<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.sys
            .scenario(py, &*self.m)
            .unwrap_or_else(|| Err(self.lacks("Match.scenario")))
    }

    /// The scenario's data as a dict (its JSON form; any system).
    #[getter]
    fn scenario_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.sys.scenario_data(py, &*self.m) {
            Some(r) => r,
            None => to_py(py, &self.m.scenario_json()),
        }
    }

    /// The seed of the match's generator.
    #[getter]
    fn seed(&self) -> u64 {
        self.m.seed()
    }

    /// The decision the game waits for: an `fm.Pending` (Fire & Movement), an
    /// `fm.huzzah.Pending` (Huzzah!), or the system's JSON form as a dict.
    #[getter]
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.sys.pending(py, &*self.m) {
            Some(r) => r,
            None => to_py(py, &self.m.pending_json()),
        }
    }

    /// The game turn (1-based; Huzzah!: 0 during the set-up).
    #[getter]
    fn turn(&self) -> PyResult<u16> {
        self.sys
            .turn(&*self.m)
            .ok_or_else(|| self.lacks_turns("Match.turn"))
    }

    /// The current phase's name (Fire & Movement: `"movement"`, ...; Huzzah!:
    /// `"firing"`, `"orders"`, ..., `"setup"` before turn 1).
    #[getter]
    fn phase(&self) -> PyResult<String> {
        self.sys
            .phase(&*self.m)
            .ok_or_else(|| self.lacks_turns("Match.phase"))
    }

    /// The phasing side (`"a"` or `"b"`); `None` in a phase of both sides (Huzzah!'s
    /// set-up, skirmisher superiority, artillery effectiveness and turn end).
    #[getter]
    fn active(&self) -> PyResult<Option<String>> {
        self.sys
            .active(&*self.m)
            .ok_or_else(|| self.lacks_turns("Match.active"))
    }

    /// The side whose decision it is, `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.m.decider().map(|s| s.to_string())
    }

    /// The `kind` of the pending decision, as its JSON names it (Fire & Movement's
    /// `"phase"`, Huzzah!'s `"declare_fire"`, any system's `"game_over"`): what to
    /// dispatch on without building the pending decision.
    #[getter]
    fn pending_kind(&self) -> String {
        self.m.pending_kind().into_owned()
    }

    /// Every legal command now, in the system's stable order: typed `fm.Command`s
    /// (Fire & Movement, `done` first where legal), `fm.huzzah.Command`s (Huzzah!), or
    /// dicts in the system's JSON form.
    fn legal_commands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match self.sys.legal_commands(py, &*self.m) {
            Some(r) => r,
            None => PyList::new(
                py,
                self.m
                    .legal_json()
                    .iter()
                    .map(|c| to_py(py, c))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
        }
    }

    /// The legal commands that concern one unit (Fire & Movement only). Raises
    /// `fm.RuleError` (rule `"input"`) for a unit the scenario does not have.
    fn legal_commands_for<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyList>> {
        self.sys
            .legal_commands_for(py, &*self.m, unit)
            .unwrap_or_else(|| Err(self.lacks("Match.legal_commands_for")))
    }

    /// Applies a command and returns its events. Fire & Movement: an `fm.Command`, a
    /// dict in the documented JSON form, or JSON text; typed events. Huzzah!: an
    /// `fm.huzzah.Command`, a dict or JSON text; `fm.huzzah.events` objects. Another
    /// system: a dict or JSON text in its JSON form; events as dicts. Raises
    /// `fm.RuleError` (nothing changes) if the rules refuse it, `fm.ProtocolError` if it
    /// is malformed (an unknown field included).
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.play(py, Play::Command(command))
    }

    /// Benchmark helper: `apply`, also recording in `_last_apply_ns` the time spent in
    /// the Rust call itself, so that the bindings' overhead can be measured call by
    /// call (`benches/python/bench_bindings.py`).
    fn _apply_timed<'py>(
        &mut self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(r) = self
            .sys
            .apply_timed(py, &mut *self.m, command, &mut self.last_apply_ns)
        {
            return r;
        }
        let v = generic::command_value(command)?;
        let t = std::time::Instant::now();
        let r = self.m.apply_json(&v);
        self.last_apply_ns = t.elapsed().as_nanos() as u64;
        to_py(py, &r.map_err(|e| match_error(&e))?)
    }

    /// Nanoseconds spent in the Rust call by the last `_apply_timed`.
    #[getter]
    fn _last_apply_ns(&self) -> u64 {
        self.last_apply_ns
    }

    /// Applies the command with this action index (see `legal_actions`) and returns its
    /// events (typed for Fire & Movement and Huzzah!, dicts otherwise). Raises
    /// `fm.RuleError` (rule `"input"`) for any int that is no command here, negative or
    /// huge included; `TypeError` for a bool or a non-int.
    fn apply_action<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (index, text) = action_arg(action)?;
        let Some(action) = index else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("action index {text} has no command here"),
            )));
        };
        self.play(py, Play::Index(action))
    }

    /// The indices of the legal commands in the fixed action space, ascending (the GIL
    /// is released while they are listed).
    fn legal_actions(&self, py: Python<'_>) -> Vec<usize> {
        let m = &self.m;
        py.detach(|| m.legal_indices())
    }

    /// The legal actions as a mask of length `action_space_size`, 1 for legal, 0 for
    /// not. Without `out`, a new `bytes`. With `out`, a writable C-contiguous buffer of
    /// that many bytes (a `numpy.uint8` or `int8` array, a `bytearray`): it is filled in
    /// place and returned, so a training loop reuses one array and nothing is
    /// allocated per step. The GIL is released while the legal actions are listed.
    #[pyo3(signature = (out = None))]
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.m.action_space_size();
        let m = &self.m;
        let legal = py.detach(|| m.legal_indices());
        mask_of(py, n, &legal, out, &format!("action_space_size = {n}"))
    }

    /// The action index of the built-in random agent's choice: a uniformly random
    /// legal command drawn from a generator seeded with `seed` (the draw of
    /// `playout` and `fm_core::agents::random`; the same state and seed give the same
    /// action), counted without listing every command. `None` once no command is
    /// legal.
    #[pyo3(signature = (seed = None), text_signature = "($self, seed=0)")]
    fn sample_legal_action(
        &self,
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<usize>> {
        let mut rng = fm_core::rng_from_seed(seed_arg(seed, 0)?);
        let m = &self.m;
        Ok(py.detach(move || m.random_action(&mut rng)))
    }

    /// The size of the fixed integer action space (any system; for Fire & Movement also
    /// `scenario.action_space_size`).
    #[getter]
    fn action_space_size(&self) -> usize {
        self.m.action_space_size()
    }

    /// The action index of a command, or `None` if it has none here (Fire & Movement:
    /// it names unknown units or hexes; another system: it is not one of its commands).
    fn action_of(&self, command: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        match self.sys.action_of(&*self.m, command) {
            Some(r) => r,
            None => Ok(self.m.index_of(&generic::command_value(command)?)),
        }
    }

    /// The command an action index stands for here (typed for Fire & Movement and
    /// Huzzah!, a dict otherwise), or `None` (for any int that is no command here,
    /// negative or huge included; `TypeError` for a bool or a non-int).
    fn command_of<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let (Some(action), _) = action_arg(action)? else {
            return Ok(None);
        };
        if let Some(r) = self.sys.command_of(py, &*self.m, action) {
            return r;
        }
        match self.m.command_at(action) {
            Some(c) => Ok(Some(to_py(py, &c)?)),
            None => Ok(None),
        }
    }

    // --- The factored action space (fm_core::factored): a command in a few small
    // steps; the flat action indices are kept.

    /// The number of values of each step of the factored action space, fixed for the
    /// scenario (a policy's heads): Fire & Movement `(11 + 8U, max(H, U), 64)` for `U`
    /// units and `H` hexes, another system two steps of about √`action_space_size`.
    #[getter]
    fn factored_sizes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.m.factored_sizes())
    }

    /// The options of the next step after `prefix` (a list of ints; default: none, the
    /// first step), ascending: exactly the values that continue it towards at least
    /// one legal command (walking them all reaches `legal_actions()`). Empty for the
    /// empty prefix when no command is legal. Raises `fm.RuleError` (rule `"input"`)
    /// for a value that is no option of its step, a complete sequence, or a prefix no
    /// legal command starts with. The GIL is released while they are listed.
    #[pyo3(signature = (prefix = None))]
    fn factored_options(
        &self,
        py: Python<'_>,
        prefix: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<usize>> {
        let prefix = self.factored_of(prefix)?;
        let m = &self.m;
        py.detach(|| m.factored_options(&prefix))
            .map_err(|e| factored_error(&e))
    }

    /// `factored_options(prefix)` as a mask of the step's size
    /// (`factored_sizes[len(prefix)]`): 1 for an option, 0 for every other value.
    /// Without `out`, a new `bytes`; with `out`, a writable C-contiguous buffer of
    /// that many bytes (a `numpy.uint8` or `int8` array, a `bytearray`), filled in
    /// place and returned (one array per step, reused every decision). Errors as
    /// `factored_options`. The GIL is released while the options are listed.
    #[pyo3(signature = (prefix = None, out = None))]
    fn factored_mask<'py>(
        &self,
        py: Python<'py>,
        prefix: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let prefix = self.factored_of(prefix)?;
        let m = &self.m;
        let opts = py
            .detach(|| m.factored_options(&prefix))
            .map_err(|e| factored_error(&e))?;
        let n = self
            .m
            .factored_sizes()
            .get(prefix.len())
            .copied()
            .unwrap_or(0);
        let what = format!("factored_sizes[{}] = {n}", prefix.len());
        mask_of(py, n, &opts, out, &what)
    }

    /// Whether a factored sequence is complete: it stands for a command (convert it
    /// with `factored_to_action`, play it with `apply_factored`); `False` for a proper
    /// prefix. Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for a
    /// value that is no option of its step or a sequence longer than its command.
    fn factored_complete(&self, seq: &Bound<'_, PyAny>) -> PyResult<bool> {
        let seq = self.factored_of(Some(seq))?;
        self.m
            .factored_complete(&seq)
            .map_err(|e| factored_error(&e))
    }

    /// The action index (`legal_actions`, `apply_action`) of a complete factored
    /// sequence. Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for a
    /// malformed or incomplete sequence.
    fn factored_to_action(&self, seq: &Bound<'_, PyAny>) -> PyResult<usize> {
        let seq = self.factored_of(Some(seq))?;
        self.m
            .factored_to_flat(&seq)
            .map_err(|e| factored_error(&e))
    }

    /// The factored sequence of an action index (the inverse of `factored_to_action`).
    /// Depends on the scenario alone. `fm.RuleError` (rule `"input"`) for any int that
    /// is no command's index (negative or huge too); `TypeError` for a non-int.
    fn action_to_factored(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let (index, text) = action_arg(action)?;
        let Some(index) = index else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("action index {text} has no command"),
            )));
        };
        self.m
            .flat_to_factored(index)
            .map_err(|e| factored_error(&e))
    }

    /// Applies the command of a complete factored sequence and returns its events (as
    /// `apply_action`). `fm.RuleError`: rule `"input"` for a malformed or incomplete
    /// sequence, else the rule the command breaks.
    fn apply_factored<'py>(
        &mut self,
        py: Python<'py>,
        seq: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seq = self.factored_of(Some(seq))?;
        let flat = self
            .m
            .factored_to_flat(&seq)
            .map_err(|e| factored_error(&e))?;
        self.play(py, Play::Index(flat))
    }

    /// Why the rules would refuse a command (an `fm.RuleError`, not raised), or `None`
    /// if it is legal (Fire & Movement only).
    fn explain<'py>(
        &self,
        py: Python<'py>,
        command: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        self.sys
            .explain(py, &*self.m, command)
            .unwrap_or_else(|| Err(self.lacks("Match.explain")))
    }

    /// Where a unit can move this phase: `[{"hex", "cost", "path", "stop", "occupied"}]`
    /// (Fire & Movement only). Raises `fm.RuleError` (rule `"input"`) for a unit the
    /// scenario does not have.
    fn reachable<'py>(&self, py: Python<'py>, unit: &str) -> PyResult<Bound<'py, PyAny>> {
        self.sys
            .reachable(py, &*self.m, unit)
            .unwrap_or_else(|| Err(self.lacks("Match.reachable")))
    }

    /// Exact probabilities of what a proposal may give, as `side` (default: the side to
    /// decide) knows them. Fire & Movement: an attack on `hex` by `units` (non-empty) or a
    /// bombardment (`units` empty) with the given markers. Any system: the proposal as a
    /// dict, the JSON of the match layer's `odds` (Fire & Movement `{"hex", "units",
    /// "attacker_markers", "defender_markers"}`; Huzzah! `{"fire": {"unit", "target",
    /// "bases"?}}` or `{"morale": {"unit"}}`), then no other argument but `side`.
    /// Raises `fm.RuleError` for a proposal the rules refuse (an unknown unit, rule
    /// `"input"`), `fm.ProtocolError` for a malformed one, `fm.UnsupportedError` for a
    /// system without odds.
    #[pyo3(
        signature = (hex, units = None, attacker_markers = None, defender_markers = None, side = None),
        text_signature = "($self, hex, units=None, attacker_markers=0, defender_markers=0, side=None)"
    )]
    fn odds<'py>(
        &self,
        py: Python<'py>,
        hex: &Bound<'py, PyAny>,
        units: Option<&Bound<'py, PyAny>>,
        attacker_markers: Option<&Bound<'py, PyAny>>,
        defender_markers: Option<&Bound<'py, PyAny>>,
        side: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if hex.is_instance_of::<PyDict>() {
            if units.is_some() || attacker_markers.is_some() || defender_markers.is_some() {
                return Err(PyTypeError::new_err(
                    "odds: with a proposal dict, pass no units or markers (they are in the dict)",
                ));
            }
            let proposal = to_json_value(hex, "proposal").map_err(protocol_error)?;
            let side = match side {
                Some(s) if !s.is_none() => self.side(s)?,
                _ => self.m.decider().unwrap_or(Side::A),
            };
            let m = &*self.m;
            let v = py
                .detach(|| m.odds(side, &proposal))
                .map_err(|e| match_error(&e))?;
            return to_py(py, &v);
        }
        let hex: &str = &hex.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!(
                "odds: hex must be a hex id (str) or a proposal dict, not {}",
                type_name(hex)
            ))
        })?;
        let args = OddsArgs {
            hex,
            units,
            attacker_markers,
            defender_markers,
            side,
        };
        self.sys
            .odds(py, &*self.m, args)
            .unwrap_or_else(|| Err(self.lacks("Match.odds")))
    }

    /// The full state as a dict (the documented JSON form; carries hidden information:
    /// give players `view(side)`).
    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.sys.state(py, &*self.m, StateOf::Full) {
            Some(r) => r,
            None => {
                let m = &*self.m;
                to_py(py, &py.detach(|| m.state_json()))
            }
        }
    }

    /// The state as one side may see it, as a dict (Fire & Movement: face-down markers
    /// of the other side hidden); `"spectator"`: as a spectator may, both sides'
    /// secrets hidden (`fm.UnsupportedError` for a system without spectator views).
    fn view<'py>(&self, py: Python<'py>, side: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let Some(s) = self.viewer(side)?.side() else {
            let m = &*self.m;
            let v = py
                .detach(|| m.spectator_view_json())
                .map_err(|e| match_error(&e))?;
            return to_py(py, &v);
        };
        match self.sys.state(py, &*self.m, StateOf::View(s)) {
            Some(r) => r,
            None => {
                let m = &*self.m;
                to_py(py, &py.detach(|| m.view_json(s)))
            }
        }
    }

    /// A 64-bit hash of the whole state, the same on every platform (Fire & Movement:
    /// `State.hash()`). Referee material: it covers every hidden value, so a player who
    /// sees it can test guesses of them; show a player `view_hash(side)`.
    #[getter]
    fn hash(&self) -> u64 {
        self.m.state_hash()
    }

    /// The 64-bit hash of one side's view: the same for every state that side cannot
    /// tell apart; the hash to show a player (`"spectator"`: a spectator's, safe to
    /// show anyone).
    fn view_hash(&self, side: &Bound<'_, PyAny>) -> PyResult<u64> {
        match self.viewer(side)?.side() {
            Some(s) => Ok(self.m.view_hash(s)),
            None => self.m.spectator_view_hash().map_err(|e| match_error(&e)),
        }
    }

    /// The log from command `since` on as a spectator may know it: dicts `{"command",
    /// "events", "view_hash"}`, the events redacted of both sides' secrets and the
    /// spectator's view hash after each command (16 hex digits), as `serve` gives its
    /// spectators (`fm.UnsupportedError` for a system without spectator views).
    #[pyo3(signature = (since = None), text_signature = "($self, since=0)")]
    fn spectator_log<'py>(
        &self,
        py: Python<'py>,
        since: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let from = self.since(since)?;
        let m = &*self.m;
        let log = py
            .detach(|| m.spectator_log_json(from))
            .map_err(|e| match_error(&e))?;
        to_py(py, &log)
    }

    /// The match as one side may know it, as a dict (no seed, no hidden value: the
    /// scenario, every command with its events redacted for the side and the side's
    /// view hash after it, and its current view). Give this, not `save()`, to a player.
    fn export<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let s = self.side(side)?;
        match self.sys.state(py, &*self.m, StateOf::Export(s)) {
            Some(r) => r,
            None => {
                let m = &*self.m;
                to_py(py, &py.detach(|| m.export_json(s)))
            }
        }
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.m.is_over()
    }

    /// The winner (`"a"` or `"b"`), `None` while playing or for a draw.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.m.outcome().and_then(|o| o.0).map(|s| s.to_string())
    }

    /// `None` while playing; then `{"winner": "a" | "b" | None, "reason": str}`.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.sys.result(py, &*self.m) {
            Some(r) => r,
            None => generic::result(py, &*self.m),
        }
    }

    /// The score of each side: `{"a": 1, "b": -1}` for a win by a, zeros for a draw or
    /// while playing.
    fn returns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let winner = self.m.outcome().and_then(|o| o.0);
        for s in Side::BOTH {
            let r = match winner {
                Some(w) if w == s => 1,
                Some(_) => -1,
                None => 0,
            };
            d.set_item(s.to_string(), r)?;
        }
        Ok(d)
    }

    /// Commands and events so far: `fm.LogEntry`s (Fire & Movement),
    /// `fm.huzzah.LogEntry`s (Huzzah!), or dicts `{"command", "events", "hash"}` as in a
    /// save file (the hash as 16 hex digits).
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.records(py, Records::Log)
    }

    /// The events that opened the game (typed for Fire & Movement and Huzzah!, dicts
    /// otherwise).
    #[getter]
    fn opening_events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.records(py, Records::Opening)
    }

    /// Every event so far: the opening, then each command's (typed for Fire & Movement
    /// and Huzzah!, dicts otherwise).
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.records(py, Records::All)
    }

    /// The events in words, one line each as the `play` example prints them (any
    /// system that has words): `(opening, commands)`, the opening's lines and each
    /// command's from `since` on, as `side` may know them (a redacted event's hidden
    /// values read `?`; `"spectator"`: as a spectator may; `None`: the referee's,
    /// every value).
    #[pyo3(signature = (side = None, since = None), text_signature = "($self, side=None, since=0)")]
    fn log_words(
        &self,
        py: Python<'_>,
        side: Option<&Bound<'_, PyAny>>,
        since: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Vec<String>, Vec<Vec<String>>)> {
        let viewer = match side {
            Some(s) if !s.is_none() => Some(self.viewer(s)?),
            _ => None,
        };
        let from = self.since(since)?;
        let m = &*self.m;
        let w = py
            .detach(|| m.log_words(viewer, from))
            .map_err(|e| match_error(&e))?;
        Ok((w.opening, w.commands))
    }

    /// Plays uniformly random legal commands, drawn from a generator seeded with `seed`,
    /// until the game ends or `max_commands` were applied (any system; the GIL is
    /// released meanwhile). Returns how many were applied.
    #[pyo3(signature = (max_commands = None, seed = None), text_signature = "($self, max_commands=None, seed=0)")]
    fn playout(
        &mut self,
        py: Python<'_>,
        max_commands: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let max = match max_commands {
            Some(n) if !n.is_none() => count_arg(n, "max_commands", usize::MAX as u64)? as usize,
            _ => usize::MAX,
        };
        let mut rng = fm_core::rng_from_seed(seed_arg(seed, 0)?);
        let m = &mut self.m;
        Ok(py.detach(move || m.playout(&mut rng, max)))
    }

    /// An independent copy (same state, generator and log). With `seed`, the copy's
    /// generator is re-seeded (`reseed`): it rolls its own dice from now on, as each
    /// simulated future of a search should (a plain copy rolls the real future's dice).
    #[pyo3(name = "clone", signature = (seed = None))]
    fn clone_match(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyMatch> {
        Ok(match seed.filter(|s| !s.is_none()) {
            None => PyMatch::new_boxed(self.m.clone_box()),
            Some(s) => PyMatch::new_boxed(self.m.clone_with_seed(seed_arg(Some(s), 0)?)),
        })
    }

    /// How the match resolves die rolls and random draws: `"sampled"` (from its seeded
    /// generator, the default) or `"explicit"` (each draw a chance node that
    /// `apply_chance` resolves).
    #[getter]
    fn chance_mode(&self) -> &'static str {
        self.m.chance_mode().name()
    }

    /// Sets `chance_mode` (`"sampled"` or `"explicit"`; `ValueError` otherwise;
    /// `fm.RuleError` while a chance outcome is pending).
    fn set_chance_mode(&mut self, mode: &str) -> PyResult<()> {
        let mode = chance_mode_arg(mode)?;
        self.m.set_chance_mode(mode).map_err(|e| rule_error(&e))
    }

    /// `side`'s perfect-recall information state, as compact JSON text: the opening's
    /// events and every command with its events as that side sees them, nothing else
    /// (OpenSpiel's `information_state_string`).
    fn information_state_string(
        &self,
        py: Python<'_>,
        side: &Bound<'_, PyAny>,
    ) -> PyResult<String> {
        let side = self.side(side)?;
        let m = &*self.m;
        Ok(py.detach(|| m.information_state(side)))
    }

    /// `side`'s perfect-recall information state as a float32 tensor (OpenSpiel's
    /// `information_state_tensor`) with room for `max_commands` commands:
    /// `fm.information_state_tensor_size(max_commands)` values (9 + 4 per command; the
    /// layout is fm-core's `infostate` module's: which side, a drawn view's hash, then a
    /// digest of the opening and of each command with its events as the side saw them).
    /// Equal exactly when `information_state_string` is. Without `out`, little-endian
    /// float32 `bytes`; with `out`, a writable float32 buffer of that size, filled in
    /// place and returned. `fm.RuleError` (rule `"input"`) when the record holds more
    /// commands than `max_commands`.
    #[pyo3(signature = (side, max_commands, out = None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
        max_commands: &Bound<'py, PyAny>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let side = self.side(side)?;
        let max_commands = count_arg(max_commands, "max_commands", usize::MAX as u64)? as usize;
        infostate::tensor(py, &*self.m, side, max_commands, out)
    }

    /// A new match drawn from `side`'s view of this one (OpenSpiel's
    /// `resample_from_infostate`): everything `side` may not know drawn anew from what
    /// it knows alone, with its own generator seeded with `seed`; an empty log, this
    /// match's chance mode, and `side`'s `information_state_string` continued. Its save
    /// records this match's save and `side`, and `load` verifies it by drawing again.
    /// While a command waits for its draws, the new match waits for the same draw (the
    /// dice thrown so far kept, any pick from a list drawn anew). `fm.RuleError` (rule
    /// `"input"`) for a match already 8 determinizations deep; the waiting command's
    /// rule if the drawn state refuses it.
    #[pyo3(signature = (side, seed = None), text_signature = "($self, side, seed=0)")]
    fn determinized(
        &self,
        py: Python<'_>,
        side: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMatch> {
        let side = self.side(side)?;
        let seed = seed_arg(seed, 0)?;
        let m = &*self.m;
        let m = py
            .detach(|| m.determinized(side, seed))
            .map_err(|e| rule_error(&e))?;
        Ok(PyMatch::new_boxed(m))
    }

    /// The built-in AI's choice for the pending decision: information-set Monte Carlo
    /// tree search from the deciding side's knowledge alone (each iteration a
    /// determinization of its view; it never reads what that side may not know), with
    /// its own dice (`seed`), so the match is unchanged. Returns a dict:
    /// ``{"command": {...}, "index": int, "side": "a", "iterations": int, "stopped":
    /// "iterations", "tree_bytes": int, "value": float, "candidates": [{"index",
    /// "visits", "value", "prior"}, ...]}`` (at most ``max_candidates``, most visited
    /// first; ``stopped`` is ``"iterations"``, ``"time"`` or ``"forced"``, a single
    /// legal command; ``tree_bytes`` the memory the search tree held); apply
    /// ``command`` with ``apply`` or ``index`` with ``apply_action``.
    ///
    /// ``iterations`` bounds the work (1 to 10,000,000); ``time_budget`` (seconds) also
    /// stops it after that long (the result then depends on the machine's speed;
    /// without it the same arguments give the same choice everywhere). The other
    /// settings are the search's (docs/protocol.md, "Search"). Raises
    /// ``fm.ProtocolError`` for a setting out of range and ``fm.RuleError`` (rule
    /// ``"search"``) when there is no decision (the game is over, or a chance outcome
    /// is pending). The GIL is released while it searches.
    ///
    /// Each int setting out of its range (negative, or past what the search takes:
    /// ``iterations`` 1 to 10,000,000, ``seed`` 0 to 2**64 - 1, ``rollout`` 0 to 100,000,
    /// ``max_priors`` 1 to 1,000,000, ``max_candidates`` 0 to 2**64 - 1) raises
    /// ``fm.ProtocolError`` naming it and its range, as does a float setting too large
    /// for a float.
    #[pyo3(
        signature = (*, iterations = None, seed = None, time_budget = None, exploration = None, rollout = None, widening = None, max_priors = None, max_candidates = None),
        text_signature = "($self, *, iterations=200, seed=0, time_budget=None, exploration=0.4, rollout=0, widening=2.0, max_priors=400, max_candidates=16)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn think<'py>(
        &self,
        py: Python<'py>,
        iterations: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
        time_budget: Option<&Bound<'py, PyAny>>,
        exploration: Option<&Bound<'py, PyAny>>,
        rollout: Option<&Bound<'py, PyAny>>,
        widening: Option<&Bound<'py, PyAny>>,
        max_priors: Option<&Bound<'py, PyAny>>,
        max_candidates: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        use fm_core::search::SearchConfig;
        let int = |obj, what, default: u32, hi: u32, lo| {
            setting_int(obj, what, u64::from(default), (lo, u64::from(hi)))
                .map(|n| u32::try_from(n).expect("within the range"))
        };
        let cfg = SearchConfig {
            iterations: int(
                iterations,
                "iterations",
                200,
                SearchConfig::MAX_ITERATIONS,
                1,
            )?,
            seed: setting_int(seed, "seed", 0, (0, u64::MAX))?,
            exploration: setting_float(exploration, "exploration", 0.4, "0 to 10")?,
            rollout: int(rollout, "rollout", 0, SearchConfig::MAX_ROLLOUT, 0)?,
            widening: setting_float(widening, "widening", 2.0, "0.1 to 100")?,
            max_priors: int(max_priors, "max_priors", 400, 1_000_000, 1)?,
            ..SearchConfig::default()
        };
        let max_candidates =
            setting_int(max_candidates, "max_candidates", 16, (0, usize::MAX as u64))?;
        let time_budget = match time_budget.filter(|t| !t.is_none()) {
            None => None,
            t => Some(setting_float(
                t,
                "time_budget",
                0.0,
                "more than 0 and at most 86400 seconds",
            )?),
        };
        search::think(py, &*self.m, cfg, time_budget, max_candidates as usize)
    }

    /// Whether a command waits for a chance outcome (explicit chance mode).
    #[getter]
    fn is_chance_node(&self) -> bool {
        self.m.chance_node().is_some()
    }

    /// The pending draw, or `None`: a dict `{"outcomes": n, "roll": {"roll": "fire",
    /// "dice": "2d6", "die": 1, "unit": ..., "target": ...}}`, its number of outcomes and
    /// what it is for. Outcome `k` of a die is the face `k + 1`; a `"2d6"` roll is two
    /// draws, die 1 then die 2; a `"draw"` picks the `k`-th of `roll["from"]`.
    fn chance_node<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.m.chance_node() {
            Some(node) => {
                let v = serde_json::to_value(&node)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                to_py(py, &v).map(Some)
            }
            None => Ok(None),
        }
    }

    /// The outcomes chosen so far for the draws of the command (or opening) waiting for
    /// one, in order, or `None` when no draw is pending: two matches waiting at the same
    /// command after different dice differ here (their state is the one before the
    /// command until its last draw).
    #[getter]
    fn chance_drawn(&self) -> Option<Vec<u32>> {
        self.m.chance_drawn()
    }

    /// The outcomes of the pending draw with their probabilities, `[(outcome, p), ...]`
    /// (OpenSpiel's `chance_outcomes()`); empty when no draw is pending.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        match self.m.chance_node() {
            Some(node) => (0..node.outcomes)
                .map(|k| (k, node.probability()))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The bound on the length of every game of this match's scenario, derived from its
    /// rules: an `fm.GameLength` (`commands`, `chance` outcomes, and `total`, their sum:
    /// the moves OpenSpiel counts), or `None` for a rules system that cannot bound its
    /// games.
    fn max_game_length<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(l) = self.m.max_game_length() else {
            return Ok(None);
        };
        let cls = py.import("fm._length")?.getattr("GameLength")?;
        cls.call1((l.commands, l.chance)).map(Some)
    }

    /// Resolves the pending draw with `outcome` (one of `chance_outcomes()`); returns
    /// the command's events once its last draw is resolved (an empty list before).
    /// Raises `fm.RuleError` (rule `"chance"` with no draw pending, `"input"` for an
    /// outcome out of range; nothing changes).
    fn apply_chance<'py>(
        &mut self,
        py: Python<'py>,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (index, text) = action_arg(outcome)?;
        let Some(k) = index.and_then(|i| u32::try_from(i).ok()) else {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("{text} is not a chance outcome here"),
            )));
        };
        self.play(py, Play::Chance(k))
    }

    /// Re-seeds the generator: the dice from now on are those of a generator seeded
    /// with `seed`. The match records it, so a save replays it and an undo of the
    /// commands before it takes it back.
    fn reseed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = seed_arg(Some(seed), 0)?;
        self.m.reseed(seed);
        Ok(())
    }

    /// The generator's state now, 64 lowercase hex digits (the referee's: it gives
    /// every future roll); `set_rng_state` restores it.
    #[getter]
    fn rng_state(&self) -> String {
        self.m.rng_state().to_string()
    }

    /// Sets the generator to a state `rng_state` gave (`ValueError` for anything else;
    /// the match is then unchanged). Recorded as `reseed` is.
    fn set_rng_state(&mut self, state: &str) -> PyResult<()> {
        let st: fm_core::RngState = state
            .parse()
            .map_err(|e: fm_core::RngStateError| PyValueError::new_err(e.to_string()))?;
        self.m.set_rng_state(st);
        Ok(())
    }

    fn __copy__(&self) -> PyMatch {
        PyMatch::new_boxed(self.m.clone_box())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        PyMatch::new_boxed(self.m.clone_box())
    }

    /// Takes back the last command. Returns False if there was nothing to undo.
    fn undo(&mut self) -> bool {
        self.m.undo()
    }

    /// The match as JSON (scenario, seed and log; another system's save names it in
    /// `"system"`); also written to `path` if given (an `OSError` naming the path if it
    /// cannot be written).
    #[pyo3(signature = (path = None))]
    fn save(&self, py: Python<'_>, path: Option<std::path::PathBuf>) -> PyResult<String> {
        saves::save(py, &*self.m, path)
    }

    /// Loads a saved match of any registered system (named by the save's `"system"`,
    /// Fire & Movement when absent) from JSON text (a str starting with `{`, or bytes;
    /// a leading UTF-8 byte-order mark is ignored) or a path (str or `os.PathLike`),
    /// replaying and verifying every command. Raises `fm.SaveError` naming the first
    /// command that diverges (or a seed that does not match its check),
    /// `fm.ProtocolError` for malformed JSON, a save not exactly in the form `save`
    /// writes (format 2, no unknown or duplicate key), of an unknown system, or larger
    /// than fm-core's 4 MiB save limit (a file is read no further than 64 MiB),
    /// `fm.ScenarioError` for a scenario that is invalid or claims a built-in id with
    /// other data, `OSError` naming the path of a file that cannot be read.
    #[staticmethod]
    fn load(source: &Bound<'_, PyAny>) -> PyResult<PyMatch> {
        Ok(PyMatch::new_boxed(saves::load(source)?))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("Match")?.getattr("load")?;
        PyTuple::new(py, [f, PyTuple::new(py, [self.m.save()])?.into_any()])
    }

    /// The board (Fire & Movement) or the table (Huzzah!) as SVG: the full state, or
    /// `side`'s view of it (`"spectator"`: a spectator's). Each system takes its own
    /// options (`TypeError` for the other's); defaults in brackets.
    ///
    /// Fire & Movement: `hex_size` pixels from a hex's centre to a corner, 10 to 200
    /// (`ValueError` outside, NaN included) [40]; `hex_ids` [True]; `panel` [True];
    /// `highlight`: a list of hex ids; `markers`: a list of `(hex, kind, label)` tuples;
    /// `title`; `region`: the part of the map drawn, `{"from": "0101", "to": "1010"}`
    /// or a list of hex ids whose bounding rectangle is drawn (`fm.RuleError`, rule
    /// `"input"`, for a hex off the map) [the whole map]; `unit_labels`: what counters
    /// print, `"name"` or `"id"` (the name commands use) ["name"]; `crt`: the Combat
    /// Results Table below the map, the attack in progress's line and column
    /// highlighted [True]; `terrain_chart`: the terrain effects chart [True];
    /// `turn_track` [True]; `boxes`: each side's reinforcement and eliminated boxes
    /// [True].
    ///
    /// Huzzah!: `arc_of`: a unit id, whose arc of fire, weapon range and short range are
    /// drawn (nothing for a unit off the table; `fm.RuleError`, rule `"input"`, for an
    /// id the scenario does not have); `radii`: the officers' command radii [False];
    /// `scale`: pixels per centimetre of table, an int from 1 to 100 [5]; `labels`:
    /// unit and terrain ids [True]; `region`: the rectangle of table drawn,
    /// `{"from": [x, y], "to": [x, y]}` in cm from side A's left corner (`fm.RuleError`
    /// for a corner off the table) [the whole table].
    // `None` is every option's default: each system's own is in brackets above.
    #[pyo3(signature = (side = None, *, hex_size = None, hex_ids = None, panel = None, highlight = None, markers = None, title = None, arc_of = None, radii = None, scale = None, labels = None, region = None, unit_labels = None, crt = None, terrain_chart = None, turn_track = None, boxes = None))]
    #[allow(clippy::too_many_arguments)]
    fn svg(
        &self,
        py: Python<'_>,
        side: Option<&Bound<'_, PyAny>>,
        hex_size: Option<f64>,
        hex_ids: Option<bool>,
        panel: Option<bool>,
        highlight: Option<&Bound<'_, PyAny>>,
        markers: Option<&Bound<'_, PyAny>>,
        title: Option<String>,
        arc_of: Option<String>,
        radii: Option<bool>,
        scale: Option<&Bound<'_, PyAny>>,
        labels: Option<bool>,
        region: Option<&Bound<'_, PyAny>>,
        unit_labels: Option<String>,
        crt: Option<bool>,
        terrain_chart: Option<bool>,
        turn_track: Option<bool>,
        boxes: Option<bool>,
    ) -> PyResult<String> {
        let args = SvgArgs {
            side: side.filter(|s| !s.is_none()),
            hex_size,
            hex_ids,
            panel,
            highlight,
            markers,
            title,
            arc_of,
            radii,
            scale,
            labels,
            region,
            unit_labels,
            crt,
            terrain_chart,
            turn_track,
            boxes,
        };
        picture::svg(py, self.sys, &*self.m, args)
    }

    /// Jupyter shows the board (Fire & Movement) or the table (Huzzah!) inline with the
    /// default options (for another system the `fm.UnsupportedError`, a
    /// `NotImplementedError`, tells Jupyter to show the repr).
    fn _repr_svg_(&self) -> PyResult<String> {
        picture::repr_svg(self.sys, &*self.m)
    }

    /// The layout of the learning observation, fixed for the scenario: `{"shape":
    /// [channels, rows, columns], "channels": [names], "features": [names]}` (the
    /// planes, row-major, then the features: `channels * rows * columns +
    /// len(features)` float32 values). Fire & Movement: board planes over the map;
    /// Huzzah!: a raster of the table from the side's edge, then global features and
    /// the unit, officer and objective slots (docs/learning.md). `fm.UnsupportedError`
    /// for a system without an observation.
    #[getter]
    fn observation_spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        observation::spec(py, &*self.m)
    }

    /// The observation of `side` for learning agents, as raw little-endian float32
    /// bytes: `(planes, features)`, the planes shaped `observation_spec["shape"]`.
    /// Computed from `side`'s view, so it holds no hidden information.
    /// `fm.UnsupportedError` for a system without an observation.
    fn observation_bytes<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        observation::observation_bytes(py, &*self.m, self.side(side)?)
    }

    /// The observation of `side` as one flat float32 vector: the planes (C order) then
    /// the features (`observation_spec`; for Fire & Movement also
    /// `scenario.observation_shape` and `scenario.feature_names`), computed from
    /// `side`'s view (so it holds no hidden information). Without `out`, little-endian
    /// float32 `bytes`. With `out`, a writable buffer of exactly that many float32
    /// items (a `numpy.float32` array, an `array.array("f")`): it is filled in place
    /// and returned, with no bytes object. The GIL is released while it is computed.
    /// `fm.env` and `fm.openspiel` serve it; `fm.UnsupportedError` for a system without
    /// an observation.
    #[pyo3(signature = (side, out = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'py, PyAny>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let keep_gil = self.sys.observation_keeps_gil();
        observation::observation(py, &*self.m, self.side(side)?, out, keep_gil)
    }

    fn __repr__(&self) -> String {
        self.sys
            .repr(&*self.m)
            .unwrap_or_else(|| generic::repr(&*self.m))
    }
}

/// A chance mode by name (`"sampled"` or `"explicit"`; `ValueError` otherwise).
fn chance_mode_arg(mode: &str) -> PyResult<fm_core::ChanceMode> {
    fm_core::ChanceMode::from_name(mode).ok_or_else(|| {
        PyValueError::new_err(format!(
            "chance mode must be 'sampled' or 'explicit', not {mode:?}"
        ))
    })
}
