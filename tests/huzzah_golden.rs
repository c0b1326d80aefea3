//! Huzzah!'s golden games: huzzah-firefight and huzzah-encounter, match seeds 1 to 5,
//! the random agent (`GameMatch::random_command`) on `rng_from_seed(1000)`. The number
//! of commands and events, a hash of the full event log and the final `State::hash` are
//! compared with `tests/golden/huzzah.json`, so that a change meant to be only faster
//! (the geometry's fast paths, boxes ruling pairs out) shows it plays the same games.
//! To accept an intended change of the rules' behaviour, re-bless it with
//!
//! ```text
//! FM_BLESS=1 cargo test -p fm-core --test suite huzzah_golden
//! ```
//!
//! and commit the new file, saying in the commit which rule changed.

use crate::conformance::fnv1a64;
use fm_core::huzzah::Huzzah;
use fm_core::{rng_from_seed, GameMatch};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

const SCENARIOS: [&str; 2] = ["huzzah-firefight", "huzzah-encounter"];
const SEEDS: std::ops::RangeInclusive<u64> = 1..=5;
const AGENT_SEED: u64 = 1000;

/// The golden record of one game.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Golden {
    scenario: String,
    seed: u64,
    agent_seed: u64,
    /// Commands to the end of the battle.
    commands: usize,
    /// Events, the opening's included.
    events: usize,
    /// FNV-1a 64 of the JSON of the whole event list (the opening's, then every
    /// command's), 16 hex digits.
    event_log_fnv1a64: String,
    /// `State::hash` at the end, 16 hex digits.
    final_state_hash: String,
}

fn play(scenario: &str, seed: u64) -> Golden {
    let mut m = GameMatch::<Huzzah>::new_builtin(scenario, seed).expect("built-in scenario");
    let mut rng = rng_from_seed(AGENT_SEED);
    while let Some(c) = m.random_command(&mut rng) {
        assert!(m.log().len() < 20_000, "{scenario} {seed}: no end");
        m.apply(&c).expect("a listed command is legal");
    }
    let events: Vec<_> = m
        .opening_events()
        .iter()
        .chain(m.log().iter().flat_map(|e| &e.events))
        .collect();
    let bytes = serde_json::to_vec(&events).expect("events serialize");
    Golden {
        scenario: scenario.into(),
        seed,
        agent_seed: AGENT_SEED,
        commands: m.log().len(),
        events: events.len(),
        event_log_fnv1a64: format!("{:016x}", fnv1a64(&bytes)),
        final_state_hash: format!("{:016x}", m.state().hash()),
    }
}

#[test]
fn huzzah_random_games_play_as_recorded() {
    let got: Vec<Golden> = SCENARIOS
        .iter()
        .flat_map(|sc| SEEDS.map(move |seed| play(sc, seed)))
        .collect();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/huzzah.json");
    if std::env::var("FM_BLESS").is_ok_and(|v| v == "1") {
        let text = serde_json::to_string_pretty(&got).expect("golden serializes") + "\n";
        std::fs::write(&path, text).expect("write tests/golden/huzzah.json");
        eprintln!("golden: wrote {}", path.display());
        return;
    }
    let text =
        std::fs::read_to_string(&path).expect("tests/golden/huzzah.json (FM_BLESS=1 writes it)");
    let want: Vec<Golden> = serde_json::from_str(&text).expect("golden parses");
    assert_eq!(got.len(), want.len(), "games");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(
            g, w,
            "{} seed {}: not the recorded game",
            w.scenario, w.seed
        );
    }
}
