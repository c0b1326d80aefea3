//! Conformance suite: the engine-level contract every scenario must keep, run on every
//! built-in scenario and on the scenario files listed in `FM_SCENARIOS`
//! (colon-separated paths), e.g.
//!
//! ```text
//! FM_SCENARIOS=my.json:other.json cargo test -p fm-core --test suite conformance::
//! ```
//!
//! Several full random games per scenario are played to the end (see `GAMES` and
//! `SCENARIO_BUDGET`: long scenarios play fewer games in debug builds); at every step:
//! `legal_commands` is non-empty until the game is over (and empty after), the chosen
//! command is accepted, the state equals the fold of the events so far from
//! `State::initial`, State/Event/Command survive a JSON round trip, and `Match::undo`
//! restores the previous state (see `UNDO_EVERY_STEP` for long games). The scenario
//! itself must survive `Scenario::to_json`.
//!
//! Also a golden test (`golden_system_demo_seed1`): system-demo, match seed 1, random
//! agent on `rng_from_seed(1000)`; the number of commands and a hash of the full event
//! log are compared with `tests/golden/system-demo-seed1.json`. If that file is missing
//! it is written; to accept an intended change of engine behaviour, re-bless it with
//!
//! ```text
//! FM_BLESS=1 cargo test -p fm-core --test suite conformance::golden
//! ```
//!
//! and commit the new file.

use fm_core::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Random games per scenario (override with `FM_CONFORMANCE_GAMES`)...
const GAMES: u64 = 3;
/// ...but no new game of a scenario is started once its games have taken this long
/// (a long scenario in a debug build plays one game; `--release` plays all of them).
const SCENARIO_BUDGET: Duration = Duration::from_secs(20);
/// A game longer than this is reported as not terminating.
const MAX_COMMANDS: usize = 50_000;
/// `Match::undo` replays the whole log, so checking it after every command is
/// quadratic in the game's length: it is checked after each of the first
/// `UNDO_EVERY_STEP` commands (all of a system-demo game), then after every
/// `UNDO_STRIDE`-th command and after the last. The full re-fold of every event from
/// `State::initial` follows the same schedule; in between, the state is compared with
/// the incremental fold of the events (after their JSON round trip), which is the same
/// function of the same events.
const UNDO_EVERY_STEP: usize = 128;
const UNDO_STRIDE: usize = 256;

/// The scenarios under test: every built-in one, then every file in `FM_SCENARIOS`.
fn subjects() -> Vec<(String, Arc<Scenario>)> {
    let mut out: Vec<(String, Arc<Scenario>)> = Scenario::builtin_names()
        .into_iter()
        .map(|n| {
            let sc = Scenario::builtin(n).unwrap_or_else(|e| panic!("built-in {n}: {e}"));
            (format!("builtin:{n}"), Arc::new(sc))
        })
        .collect();
    if let Ok(list) = std::env::var("FM_SCENARIOS") {
        for path in list.split(':').filter(|p| !p.trim().is_empty()) {
            let json = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("FM_SCENARIOS: cannot read {path}: {e}"));
            let sc = Scenario::from_json(&json)
                .unwrap_or_else(|e| panic!("FM_SCENARIOS: {path} is not a valid scenario: {e}"));
            out.push((format!("file:{path}"), Arc::new(sc)));
        }
    }
    assert!(!out.is_empty(), "no scenario to test");
    out
}

/// `x` survives serde_json to a string and back.
fn round_trip<T>(x: &T, what: &str, ctx: &str)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let s = serde_json::to_string(x).unwrap_or_else(|e| panic!("{ctx}: {what} to JSON: {e}"));
    let back: T =
        serde_json::from_str(&s).unwrap_or_else(|e| panic!("{ctx}: {what} from JSON: {e}\n{s}"));
    assert_eq!(&back, x, "{ctx}: {what} changes in a JSON round trip: {s}");
}

/// `Scenario::to_json` gives back the same scenario.
fn check_scenario_json(name: &str, sc: &Scenario) {
    let json = sc.to_json();
    let back = Scenario::from_json(&json)
        .unwrap_or_else(|e| panic!("{name}: to_json output does not load: {e}"));
    assert_eq!(
        back.data, sc.data,
        "{name}: scenario data changes in to_json"
    );
    assert_eq!(back.to_json(), json, "{name}: to_json is not stable");
    assert_eq!(back.hexes.len(), sc.hexes.len(), "{name}");
    assert_eq!(back.units.len(), sc.units.len(), "{name}");
    round_trip(&sc.data, "scenario data", name);
}

/// `x` through JSON and back (checked equal).
fn through_json<T>(x: &T, what: &str, ctx: &str) -> T
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    round_trip(x, what, ctx);
    serde_json::from_str(&serde_json::to_string(x).expect("serializes")).expect("deserializes")
}

/// The state from folding `events` into `State::initial`.
fn refold(sc: &Scenario, events: &[Event]) -> State {
    let mut s = State::initial(sc);
    s.apply_events(sc, events);
    s
}

/// Plays one random game to the end, checking the contract at every step.
fn play_checked(name: &str, sc: &Arc<Scenario>, seed: u64, agent_seed: u64) {
    let mut m = Match::new(sc.clone(), seed);
    let mut rng = rng_from_seed(agent_seed);
    let game = format!("{name} seed {seed} agent seed {agent_seed}");
    let mut all_events: Vec<Event> = m
        .opening_events()
        .iter()
        .map(|e| through_json(e, "opening event", &game))
        .collect();
    let mut folded = refold(sc, &all_events);
    assert_eq!(
        &folded,
        m.state(),
        "{game}: the opening state differs from the fold of the opening events"
    );

    loop {
        let k = m.log().len();
        let ctx = format!("{game}, command #{k}");
        round_trip(m.state(), "state", &ctx);
        // `agents::random` picks uniformly from `legal_commands`: `None` means none.
        let Some(cmd) = agents::random(sc, m.state(), &mut rng) else {
            assert!(
                m.is_over(),
                "{ctx}: no legal command but the game is not over ({:?})",
                m.pending()
            );
            break;
        };
        assert!(
            !m.is_over(),
            "{ctx}: the game is over but {cmd:?} is listed"
        );
        assert!(
            k < MAX_COMMANDS,
            "{ctx}: no end after {MAX_COMMANDS} commands"
        );
        let ctx = format!("{ctx} {}", serde_json::to_string(&cmd).unwrap());
        let cmd = through_json(&cmd, "command", &ctx);
        let before = m.state().clone();
        let events = match m.apply(&cmd) {
            Ok(ev) => ev.to_vec(),
            Err(e) => panic!("{ctx}: listed command refused: {e}"),
        };
        for e in &events {
            let e = through_json(e, "event", &ctx);
            folded.apply_event(sc, &e);
            all_events.push(e);
        }
        assert_eq!(
            &folded,
            m.state(),
            "{ctx}: the state differs from the fold of the events"
        );
        if k < UNDO_EVERY_STEP || k % UNDO_STRIDE == 0 || m.is_over() {
            assert_eq!(
                &refold(sc, &all_events),
                m.state(),
                "{ctx}: the state differs from the fold of all events from State::initial"
            );
            let mut u = m.clone();
            assert!(u.undo(), "{ctx}: nothing to undo");
            assert_eq!(u.state(), &before, "{ctx}: undo does not restore the state");
            assert_eq!(
                u.log().to_vec(),
                m.log().to_vec()[..k],
                "{ctx}: undo does not restore the log"
            );
        }
    }
    assert!(
        m.legal_commands().is_empty(),
        "{game}: commands after the end"
    );
    assert!(matches!(m.pending(), Pending::GameOver { .. }), "{game}");
}

/// Plays the scenario's games (see [`GAMES`] and [`SCENARIO_BUDGET`]).
fn conformance(name: &str, sc: &Arc<Scenario>) {
    check_scenario_json(name, sc);
    let forced: Option<u64> = std::env::var("FM_CONFORMANCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok());
    let start = Instant::now();
    for g in 0..forced.unwrap_or(GAMES) {
        if forced.is_none() && g > 0 && start.elapsed() > SCENARIO_BUDGET {
            eprintln!("{name}: {g} game(s) played within the time budget");
            break;
        }
        play_checked(name, sc, g + 1, 0x5eed_0000 + g);
    }
}

/// Every scenario in its own thread (they are independent); failures are reported
/// by scenario name.
#[test]
fn conformance_suite() {
    let subjects = subjects();
    let failed: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = subjects
            .iter()
            .map(|(name, sc)| (name, scope.spawn(move || conformance(name, sc))))
            .collect();
        handles
            .into_iter()
            .filter_map(|(name, h)| h.join().is_err().then(|| name.clone()))
            .collect()
    });
    assert!(
        failed.is_empty(),
        "conformance failed for: {}",
        failed.join(", ")
    );
}

/// The golden record of one game.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Golden {
    scenario: String,
    seed: u64,
    agent_seed: u64,
    /// Number of commands to the end of the game.
    commands: usize,
    /// Number of events, opening included.
    events: usize,
    /// FNV-1a 64 of the serde_json serialization of the full event list (opening
    /// events, then every command's events), as 16 hex digits.
    event_log_fnv1a64: String,
    /// `State::legacy_hash` at the end (the state hash up to save format 3, FNV-1a
    /// over the state's bytes: unchanged since the file was written, it shows that the
    /// final state is too), 16 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    final_state_hash: Option<String>,
    /// `State::hash` at the end (the word hash of save format 4), 16 hex digits: pins
    /// its value on every platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    final_state_word_hash: Option<String>,
    /// For information only (not compared): how the game ended.
    outcome: Option<Outcome>,
}

pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn golden_path(scenario: &str, seed: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../tests/golden/{scenario}-seed{seed}.json"))
}

/// system-demo, match seed 1, random agent on `rng_from_seed(1000)`: compared with
/// `tests/golden/system-demo-seed1.json`, which is written when missing or when
/// `FM_BLESS=1` is set (see the top of this file).
#[test]
fn golden_system_demo_seed1() {
    golden("system-demo", 1, 1000);
}

/// Meuse Argonne, match seed 1, agent seed 1000 (`tests/golden/meuse-argonne-seed1.json`).
#[test]
fn golden_meuse_argonne_seed1() {
    golden("meuse-argonne", 1, 1000);
}

/// Vimy Ridge, match seed 1, agent seed 1000 (`tests/golden/vimy-ridge-seed1.json`).
#[test]
fn golden_vimy_ridge_seed1() {
    golden("vimy-ridge", 1, 1000);
}

/// Suez 1916, match seed 1, agent seed 1000 (`tests/golden/suez-1916-seed1.json`).
#[test]
fn golden_suez_1916_seed1() {
    golden("suez-1916", 1, 1000);
}

/// Plays `scenario` with the random agent and compares the whole event log (and the
/// final state hash) with its golden record.
fn golden(scenario: &str, seed: u64, agent_seed: u64) {
    let mut m = Match::new_builtin(scenario, seed).expect("built-in scenario");
    let mut rng = rng_from_seed(agent_seed);
    while !m.is_over() {
        assert!(m.log().len() < MAX_COMMANDS, "no end");
        let cmd = agents::random(m.scenario(), m.state(), &mut rng).expect("a legal command");
        m.apply(&cmd).expect("legal command accepted");
    }
    let events: Vec<&Event> = m
        .opening_events()
        .iter()
        .chain(m.log().iter().flat_map(|e| &e.events))
        .collect();
    let bytes = serde_json::to_vec(&events).expect("events serialize");
    let got = Golden {
        scenario: scenario.into(),
        seed,
        agent_seed,
        commands: m.log().len(),
        events: events.len(),
        event_log_fnv1a64: format!("{:016x}", fnv1a64(&bytes)),
        final_state_hash: Some(format!("{:016x}", m.state().legacy_hash())),
        final_state_word_hash: Some(format!("{:016x}", m.state().hash())),
        outcome: m.state().outcome.clone(),
    };
    let path = golden_path(scenario, seed);
    let bless = std::env::var("FM_BLESS").is_ok_and(|v| v == "1");
    if bless || !path.exists() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create tests/golden");
        let text = serde_json::to_string_pretty(&got).expect("golden serializes") + "\n";
        std::fs::write(&path, text).expect("write golden file");
        eprintln!("golden: wrote {}", path.display());
        return;
    }
    let text = std::fs::read_to_string(&path).expect("read golden file");
    let want: Golden = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a golden record: {e}", path.display()));
    let hint = "if the engine's behaviour changed on purpose, re-bless with \
                FM_BLESS=1 cargo test -p fm-core --test suite conformance::golden";
    assert_eq!(
        (want.scenario.as_str(), want.seed, want.agent_seed),
        (scenario, seed, agent_seed),
        "{}: golden record is for another game",
        path.display()
    );
    assert_eq!(
        got.commands, want.commands,
        "{scenario} seed {seed}: number of commands differs from the golden record; {hint}"
    );
    assert_eq!(
        got.events, want.events,
        "{scenario} seed {seed}: number of events differs from the golden record; {hint}"
    );
    assert_eq!(
        got.event_log_fnv1a64, want.event_log_fnv1a64,
        "{scenario} seed {seed}: event log hash differs from the golden record; {hint}"
    );
    if want.final_state_hash.is_some() {
        assert_eq!(
            got.final_state_hash, want.final_state_hash,
            "{scenario} seed {seed}: final state hash differs from the golden record; {hint}"
        );
    }
    if want.final_state_word_hash.is_some() {
        assert_eq!(
            got.final_state_word_hash, want.final_state_word_hash,
            "{scenario} seed {seed}: final state (word) hash differs from the golden record; {hint}"
        );
    }
}
