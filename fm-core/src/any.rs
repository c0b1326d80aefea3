//! The registry of rules systems, and the entry points every binding uses: a scenario
//! name or JSON in, JSON commands, events, views and saves out, for any registered
//! rules system. This is the one module that names the systems.
//!
//! [`DynMatch`] (from the system-neutral `dynmatch` module, re-exported here) is a
//! [`GameMatch`](crate::GameMatch) of some [`Game`](crate::Game) behind one interface; [`new_match`]
//! finds the system by the scenario (a built-in name, or scenario JSON naming its
//! `"system"`, Fire & Movement when it names none) and [`load_match`] by the save. The C
//! ABI, the Python module and `serve` are written against this layer, so a second rules
//! system needs no new C function, Python class or serve request: [`register`] it.
//!
//! ```
//! use fm_core::any::{load_match, new_match};
//! let mut m = new_match("system-demo", 1).unwrap();
//! assert_eq!(m.system(), "fm");
//! let first = m.legal_json()[0].clone();
//! let events = m.apply_json(&first).unwrap();
//! assert!(events.as_array().is_some_and(|e| !e.is_empty()));
//! let again = load_match(&m.save()).unwrap();
//! assert_eq!(again.state_hash(), m.state_hash());
//! ```

use crate::error::ScenarioError;
use crate::game::{Game, MatchError, MAX_SAVE_BYTES};
use serde_json::Value;
use std::sync::RwLock;

pub use crate::dynmatch::{command_from_json, uniform_index, DynMatch, LogWords, SystemEntry};

static REGISTRY: RwLock<Vec<SystemEntry>> = RwLock::new(Vec::new());

/// The systems built into fm: Fire & Movement, then Huzzah! Glorious Empires.
fn builtin_systems() -> Vec<SystemEntry> {
    vec![
        SystemEntry::of::<crate::fm::Fm>(),
        SystemEntry::of::<crate::huzzah::Huzzah>(),
    ]
}

/// The default system: the one whose scenario JSON and saves need not name their
/// `"system"` ([`Game::DEFAULT_SYSTEM`]: Fire & Movement, whose saves predate the member).
/// The registry decides it: the one built-in system that claims it.
pub fn default_system() -> &'static str {
    const _: () = assert!(
        <crate::fm::Fm as Game>::DEFAULT_SYSTEM && !<crate::huzzah::Huzzah as Game>::DEFAULT_SYSTEM
    );
    <crate::fm::Fm as Game>::NAME
}

/// The registered systems: the built-in ones first, then those [`register`]ed.
fn systems_list() -> Vec<SystemEntry> {
    let mut v = builtin_systems();
    if let Ok(r) = REGISTRY.read() {
        v.extend(r.iter().cloned());
    }
    v
}

/// Registers a rules system, so that [`new_match`] and [`load_match`] (and every
/// binding) find it by its scenarios and saves. Returns false, changing nothing, if a
/// system of that name, or one that already has one of its built-in scenario names,
/// is registered, or if the system claims to be the default ([`Game::DEFAULT_SYSTEM`]).
pub fn register(system: SystemEntry) -> bool {
    let names = (system.builtins)();
    let clash =
        |s: &SystemEntry| s.name == system.name || (s.builtins)().iter().any(|b| names.contains(b));
    // The check and the insertion happen under one write lock, so two threads
    // registering the same system cannot both succeed.
    let Ok(mut r) = REGISTRY.write() else {
        return false;
    };
    // A registered system cannot be the default: saves that name no system are the
    // default system's (`default_system`).
    if system.default || builtin_systems().iter().any(clash) || r.iter().any(clash) {
        return false;
    }
    r.push(system);
    true
}

/// The names of the registered rules systems.
pub fn systems() -> Vec<&'static str> {
    systems_list().iter().map(|s| s.name).collect()
}

/// The built-in scenarios of every registered system.
pub fn builtin_scenarios() -> Vec<&'static str> {
    systems_list().iter().flat_map(|s| (s.builtins)()).collect()
}

/// Starts a match: `scenario` is a built-in scenario's name, or scenario JSON (an
/// object whose optional `"system"` names its rules system, Fire & Movement when
/// absent).
///
/// # Errors
/// [`MatchError::Scenario`] for an unknown name or an invalid scenario;
/// [`MatchError::Input`] for malformed JSON or an unknown system.
pub fn new_match(scenario: &str, seed: u64) -> Result<Box<dyn DynMatch>, MatchError> {
    if scenario.trim_start().starts_with('{') {
        let v = crate::json::parse_strict(scenario)
            .map_err(|e| MatchError::Input(format!("scenario JSON: {e}")))?;
        return new_match_value(v, seed);
    }
    let list = systems_list();
    match list.iter().find(|s| (s.builtins)().contains(&scenario)) {
        Some(s) => (s.new_builtin)(scenario, seed),
        None => Err(MatchError::Scenario(ScenarioError {
            path: String::new(),
            message: format!(
                "unknown scenario '{scenario}' (built in: {})",
                builtin_scenarios().join(", ")
            ),
        })),
    }
}

/// [`new_match`] whose draws, from its opening on, are resolved as `mode` says: in
/// [`ChanceMode::Explicit`](crate::ChanceMode::Explicit) the opening's draws (Huzzah!'s
/// roll-off and placement rolls) are chance nodes too, so the match may start waiting
/// for a chance outcome ([`GameMatch::new_with_chance`](crate::GameMatch::new_with_chance)).
///
/// ```
/// use fm_core::ChanceMode;
/// let m = fm_core::any::new_match_with_chance("huzzah-encounter", 1, ChanceMode::Explicit)
///     .unwrap();
/// let node = m.chance_node().unwrap();
/// assert_eq!(node.roll.unwrap().roll, "roll_off");
/// ```
///
/// # Errors
/// As [`new_match`].
pub fn new_match_with_chance(
    scenario: &str,
    seed: u64,
    mode: crate::ChanceMode,
) -> Result<Box<dyn DynMatch>, MatchError> {
    let m = new_match(scenario, seed)?;
    Ok(match mode {
        crate::ChanceMode::Sampled => m,
        crate::ChanceMode::Explicit => m.new_with_chance(mode),
    })
}

/// The bound on the length of every game of a scenario (a built-in name or scenario
/// JSON, as [`new_match`] takes it): [`DynMatch::max_game_length`] of a match of it.
///
/// ```
/// let bound = fm_core::any::max_game_length("huzzah-firefight").unwrap().unwrap();
/// assert!(bound.chance > 0);
/// ```
///
/// # Errors
/// As [`new_match`].
pub fn max_game_length(scenario: &str) -> Result<Option<crate::query::GameLength>, MatchError> {
    Ok(new_match(scenario, 0)?.max_game_length())
}

/// [`new_match`] for scenario JSON already parsed.
///
/// # Errors
/// As [`new_match`].
pub fn new_match_value(mut scenario: Value, seed: u64) -> Result<Box<dyn DynMatch>, MatchError> {
    let system = take_system(&mut scenario, "scenario")?;
    (find(&system)?.new_from)(scenario, seed)
}

/// Loads a save of any registered system (its `"system"`, Fire & Movement when absent),
/// verifying it by replay ([`GameMatch::load`](crate::GameMatch::load)).
///
/// # Errors
/// As [`GameMatch::load`](crate::GameMatch::load), and [`MatchError::Json`] for an unknown system.
pub fn load_match(save: &str) -> Result<Box<dyn DynMatch>, MatchError> {
    if save.len() > MAX_SAVE_BYTES {
        return Err(MatchError::Json(format!(
            "too large ({} bytes; the limit is {MAX_SAVE_BYTES} bytes)",
            save.len()
        )));
    }
    let v = crate::json::parse_strict(save).map_err(|e| MatchError::Json(e.to_string()))?;
    let system = match v.get("system") {
        None => default_system().to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(MatchError::Json("system: a string expected".into())),
    };
    (find(&system)?.load)(v)
}

fn find(system: &str) -> Result<SystemEntry, MatchError> {
    systems_list()
        .into_iter()
        .find(|s| s.name == system)
        .ok_or_else(|| {
            MatchError::Input(format!(
                "system: unknown rules system {system:?} (known: {})",
                systems().join(", ")
            ))
        })
}

/// Removes and returns the `"system"` member of a scenario object.
fn take_system(v: &mut Value, what: &str) -> Result<String, MatchError> {
    let Value::Object(obj) = v else {
        return Err(MatchError::Input(format!(
            "{what} JSON: an object expected"
        )));
    };
    match obj.remove("system") {
        None => Ok(default_system().to_string()),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(MatchError::Input("system: a string expected".into())),
    }
}
