//! Conformance suite: the engine-level contract every scenario must keep, run on every
//! built-in scenario and on the scenario files listed in `FM_SCENARIOS`
//! (colon-separated paths), e.g.
//!
//! ```text
//! FM_SCENARIOS=my.json:other.json cargo test --test conformance
//! ```
//!
//! Several full random games per scenario are played to the end; at every step:
//! `legal_commands` is non-empty until the game is over (and empty after), the chosen
//! command is accepted, the state equals the fold of every event so far from
//! `State::initial`, State/Event/Command survive a JSON round trip, and `Match::undo`
//! restores the previous state. The scenario itself must survive `Scenario::to_json`.
//!
//! Also a golden test (`golden_system_demo_seed1`): system-demo, match seed 1, random
//! agent on `rng_from_seed(1000)`; the number of commands and a hash of the full event
//! log are compared with `tests/golden/system-demo-seed1.json`. If that file is missing
//! it is written; to accept an intended change of engine behaviour, re-bless it with
//!
//! ```text
//! FM_BLESS=1 cargo test --test conformance golden
//! ```
//!
//! and commit the new file.

use fm_core::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Random games per scenario.
const GAMES: u64 = 3;
/// A game longer than this is reported as not terminating.
const MAX_COMMANDS: usize = 20_000;
/// Undo replays the whole log, so it is checked at every step for the first
/// `UNDO_EVERY_STEP` commands, then at every `UNDO_STRIDE`-th step (and at the end).
const UNDO_EVERY_STEP: usize = 400;
const UNDO_STRIDE: usize = 25;

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

/// Plays one random game to the end, checking the contract at every step.
fn play_checked(name: &str, sc: &Arc<Scenario>, seed: u64, agent_seed: u64) {
    let mut m = Match::new(sc.clone(), seed);
    let mut rng = rng_from_seed(agent_seed);
    let mut all_events: Vec<Event> = m.opening_events().to_vec();
    let game = format!("{name} seed {seed} agent seed {agent_seed}");

    let check_fold = |m: &Match, all: &[Event], ctx: &str| {
        let mut folded = State::initial(sc);
        folded.apply_events(sc, all);
        assert_eq!(
            &folded,
            m.state(),
            "{ctx}: the state differs from the fold of all events from State::initial"
        );
        assert_eq!(folded.hash(), m.state().hash(), "{ctx}");
    };
    check_fold(&m, &all_events, &format!("{game}, opening"));
    for e in &all_events {
        round_trip(e, "opening event", &game);
    }

    loop {
        let k = m.log().len();
        let ctx = format!("{game}, command #{k}");
        let legal = m.legal_commands();
        round_trip(m.state(), "state", &ctx);
        if m.is_over() {
            assert!(
                legal.is_empty(),
                "{ctx}: the game is over but commands are listed"
            );
            assert!(matches!(m.pending(), Pending::GameOver { .. }), "{ctx}");
            break;
        }
        assert!(
            !legal.is_empty(),
            "{ctx}: no legal command but the game is not over ({:?})",
            m.pending()
        );
        assert!(
            k < MAX_COMMANDS,
            "{ctx}: no end after {MAX_COMMANDS} commands"
        );
        for c in &legal {
            round_trip(c, "command", &ctx);
        }
        let cmd = agents::random(sc, m.state(), &mut rng).expect("a legal command");
        assert!(
            legal.contains(&cmd),
            "{ctx}: agent chose an unlisted command"
        );
        let before = m.state().clone();
        let events = match m.apply(&cmd) {
            Ok(ev) => ev.to_vec(),
            Err(e) => panic!("{ctx}: listed command {cmd:?} refused: {e}"),
        };
        let ctx = format!("{ctx} {}", serde_json::to_string(&cmd).unwrap());
        for e in &events {
            round_trip(e, "event", &ctx);
        }
        all_events.extend(events);
        check_fold(&m, &all_events, &ctx);
        if k < UNDO_EVERY_STEP || k % UNDO_STRIDE == 0 || m.is_over() {
            let mut u = m.clone();
            assert!(u.undo(), "{ctx}: nothing to undo");
            assert_eq!(u.state(), &before, "{ctx}: undo does not restore the state");
            assert_eq!(
                u.log(),
                &m.log()[..k],
                "{ctx}: undo does not restore the log"
            );
        }
    }
    // Undo all the way back to the opening.
    let opening = {
        let mut s = State::initial(sc);
        s.apply_events(sc, m.opening_events());
        s
    };
    let mut u = m.clone();
    while u.undo() {}
    assert_eq!(u.state(), &opening, "{game}: undoing everything");
    assert!(u.log().is_empty());
}

#[test]
fn conformance_suite() {
    for (name, sc) in subjects() {
        check_scenario_json(&name, &sc);
        for g in 0..GAMES {
            play_checked(&name, &sc, g + 1, 0x5eed_0000 + g);
        }
    }
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
    /// For information only (not compared): how the game ended.
    outcome: Option<Outcome>,
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/system-demo-seed1.json")
}

/// system-demo, match seed 1, random agent on `rng_from_seed(1000)`: compared with
/// `tests/golden/system-demo-seed1.json`, which is written when missing or when
/// `FM_BLESS=1` is set (see the top of this file).
#[test]
fn golden_system_demo_seed1() {
    let (seed, agent_seed) = (1, 1000);
    let mut m = Match::new_builtin("system-demo", seed).expect("built-in scenario");
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
        scenario: "system-demo".into(),
        seed,
        agent_seed,
        commands: m.log().len(),
        events: events.len(),
        event_log_fnv1a64: format!("{:016x}", fnv1a64(&bytes)),
        outcome: m.state().outcome.clone(),
    };
    let path = golden_path();
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
                FM_BLESS=1 cargo test --test conformance golden";
    assert_eq!(
        (want.scenario.as_str(), want.seed, want.agent_seed),
        ("system-demo", seed, agent_seed),
        "{}: golden record is for another game",
        path.display()
    );
    assert_eq!(
        got.commands, want.commands,
        "system-demo seed 1: number of commands differs from the golden record; {hint}"
    );
    assert_eq!(
        got.events, want.events,
        "system-demo seed 1: number of events differs from the golden record; {hint}"
    );
    assert_eq!(
        got.event_log_fnv1a64, want.event_log_fnv1a64,
        "system-demo seed 1: event log hash differs from the golden record; {hint}"
    );
}
