//! Parity: the same seed and commands played through the Rust API (`fm_core::Match`),
//! through the C ABI (the `extern "C"` functions, called from Rust exactly as C calls
//! them) and through the `serve` JSON-lines protocol (a subprocess) give the same
//! event log, the same state hash and the same save file.

use crate::support;

use fm::*;
use fm_core::{agents, Command, Match};
use serde_json::{json, Value};
use std::ffi::{c_char, CStr, CString};
use support::{fold_events, Serve, FNV_START};

/// Whole games of system-demo: (game seed, agent seed).
const GAMES: &[(u64, u64)] = &[(1, 7), (2026, 11), (42, 200)];
/// At most this many commands per system-demo game (its games end well before).
const MAX_COMMANDS: usize = 5_000;
/// Commands played in each of the other built-in scenarios (bigger maps, longer games).
const OTHER_SCENARIO_COMMANDS: usize = 200;

/// What each interface must agree on.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    event_log_hash: u64,
    state_hash: u64,
    commands: usize,
    save: Value,
}

fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("serializes")
}

/// Plays a game of system-demo to its end with the random agent through `Match`;
/// returns the command sequence and the outcome.
fn through_rust(seed: u64, agent_seed: u64) -> (Vec<Command>, Outcome) {
    let (cmds, out, over) = play_rust("system-demo", seed, agent_seed, MAX_COMMANDS);
    assert!(over, "the game ends within {MAX_COMMANDS} commands");
    (cmds, out)
}

/// Plays up to `max` commands (or to the end) of a built-in scenario with the random
/// agent through `Match`; returns the commands, the outcome and whether it is over.
fn play_rust(
    scenario: &str,
    seed: u64,
    agent_seed: u64,
    max: usize,
) -> (Vec<Command>, Outcome, bool) {
    let mut m = Match::new_builtin(scenario, seed).expect("built-in scenario");
    let mut rng = fm_core::rng_from_seed(agent_seed);
    let mut h = fold_events(FNV_START, &to_value(&m.opening_events()));
    let mut cmds = Vec::new();
    while !m.is_over() && cmds.len() < max {
        let cmd = agents::random(m.scenario(), m.state(), &mut rng).expect("a legal command");
        let events = m.apply(&cmd).expect("a legal command applies");
        h = fold_events(h, &to_value(&events));
        cmds.push(cmd);
    }
    let out = Outcome {
        event_log_hash: h,
        state_hash: m.state().hash(),
        commands: cmds.len(),
        save: serde_json::from_str(&m.save()).expect("save is JSON"),
    };
    (cmds, out, m.is_over())
}

/// Takes a library string: copies it and frees it with `fm_string_free`.
fn take(p: *mut c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: a NUL-terminated string returned by fm.
    let s = unsafe { CStr::from_ptr(p) }
        .to_str()
        .expect("UTF-8")
        .to_string();
    // SAFETY: returned by fm, freed once.
    assert_eq!(unsafe { fm_string_free(p) }, fm_status::FM_OK);
    s
}

fn through_c(scenario: &str, seed: u64, cmds: &[Command]) -> Outcome {
    let name = CString::new(scenario).unwrap();
    // SAFETY: the C API used as documented: valid pointers, each string freed once.
    unsafe {
        let mut m: *mut fm_match = std::ptr::null_mut();
        assert_eq!(fm_match_new(name.as_ptr(), seed, &mut m), fm_status::FM_OK);
        let mut out: *mut c_char = std::ptr::null_mut();
        assert_eq!(fm_match_opening_events(m, &mut out), fm_status::FM_OK);
        let mut h = fold_events(FNV_START, &serde_json::from_str(&take(out)).unwrap());
        for c in cmds {
            let json = CString::new(serde_json::to_string(c).unwrap()).unwrap();
            let mut events: *mut c_char = std::ptr::null_mut();
            assert_eq!(
                fm_match_apply(m, json.as_ptr(), &mut events),
                fm_status::FM_OK
            );
            h = fold_events(h, &serde_json::from_str(&take(events)).unwrap());
        }
        let mut hash = 0u64;
        assert_eq!(fm_match_state_hash(m, &mut hash), fm_status::FM_OK);
        let mut n = 0usize;
        assert_eq!(fm_match_command_count(m, &mut n), fm_status::FM_OK);
        let mut save: *mut c_char = std::ptr::null_mut();
        assert_eq!(fm_match_save(m, &mut save), fm_status::FM_OK);
        let save = serde_json::from_str(&take(save)).unwrap();
        assert_eq!(fm_match_free(m), fm_status::FM_OK);
        Outcome {
            event_log_hash: h,
            state_hash: hash,
            commands: n,
            save,
        }
    }
}

fn through_serve(s: &mut Serve, scenario: &str, seed: u64, cmds: &[Command]) -> Outcome {
    let v = s.request(&json!({"cmd": "new", "scenario": scenario, "seed": seed}));
    let mut h = fold_events(FNV_START, &v["events"]);
    let mut hash = v["hash"].clone();
    for c in cmds {
        let v = s.request(&json!({"cmd": "apply", "command": c}));
        assert!(v["events"].is_array(), "{v}");
        h = fold_events(h, &v["events"]);
        hash = v["hash"].clone();
    }
    let save = s.ask(r#"{"cmd":"save"}"#)["save"].clone();
    let state_hash =
        u64::from_str_radix(hash.as_str().expect("hash is a string"), 16).expect("hex hash");
    Outcome {
        event_log_hash: h,
        state_hash,
        commands: save["log"].as_array().expect("log").len(),
        save,
    }
}

#[test]
fn rust_c_and_serve_agree_on_the_event_log() {
    let mut serve = Serve::start();
    for &(seed, agent_seed) in GAMES {
        let (cmds, rust) = through_rust(seed, agent_seed);
        assert!(
            rust.commands > 50,
            "a real game: {} commands",
            rust.commands
        );
        let c = through_c("system-demo", seed, &cmds);
        assert_eq!(c, rust, "C ABI differs from Rust (seed {seed})");
        let served = through_serve(&mut serve, "system-demo", seed, &cmds);
        assert_eq!(served, rust, "serve differs from Rust (seed {seed})");
        eprintln!(
            "seed {seed}: {} commands, event log hash {:016x}, state hash {:016x}: same in Rust, C and serve",
            rust.commands, rust.event_log_hash, rust.state_hash
        );
    }
    serve.ask(r#"{"cmd":"quit"}"#);
    assert_eq!(serve.finish(), Some(0));
}

#[test]
fn every_built_in_scenario_agrees() {
    let mut serve = Serve::start();
    for name in fm_core::Scenario::builtin_names() {
        let (cmds, rust, _) = play_rust(name, 3, 5, OTHER_SCENARIO_COMMANDS);
        assert!(!cmds.is_empty(), "{name}: no command played");
        assert_eq!(
            through_c(name, 3, &cmds),
            rust,
            "{name}: C ABI differs from Rust"
        );
        assert_eq!(
            through_serve(&mut serve, name, 3, &cmds),
            rust,
            "{name}: serve differs from Rust"
        );
    }
    serve.ask(r#"{"cmd":"quit"}"#);
    assert_eq!(serve.finish(), Some(0));
}

#[test]
fn fast_path_matches_apply_index() {
    for &(seed, agent_seed) in GAMES {
        // Rust: the i-th legal index, i drawn from a seeded generator.
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let mut rng = fm_core::rng_from_seed(agent_seed);
        let mut picks = Vec::new();
        while !m.is_over() {
            let legal = fm_core::legal_indices(m.scenario(), m.state());
            let i = (rand_core::RngCore::next_u64(&mut rng) % legal.len() as u64) as usize;
            m.apply_index(legal[i]).unwrap();
            picks.push(i);
        }
        // C: the same picks through fm_match_legal_count / fm_match_apply_legal.
        // SAFETY: the C API used as documented.
        unsafe {
            let mut h: *mut fm_match = std::ptr::null_mut();
            assert_eq!(
                fm_match_new(c"system-demo".as_ptr(), seed, &mut h),
                fm_status::FM_OK
            );
            for &i in &picks {
                let mut n = 0;
                assert_eq!(fm_match_legal_count(h, &mut n), fm_status::FM_OK);
                assert!(i < n);
                assert_eq!(fm_match_apply_legal(h, i), fm_status::FM_OK);
            }
            let mut over = false;
            assert_eq!(fm_match_is_over(h, &mut over), fm_status::FM_OK);
            assert!(over);
            let mut hash = 0;
            assert_eq!(fm_match_state_hash(h, &mut hash), fm_status::FM_OK);
            assert_eq!(hash, m.state().hash());
            let mut w = fm_winner::FM_WINNER_NONE;
            assert_eq!(fm_match_winner(h, &mut w), fm_status::FM_OK);
            let want = match m.winner() {
                None => fm_winner::FM_WINNER_NONE,
                Some(fm_core::Side::A) => fm_winner::FM_WINNER_A,
                Some(fm_core::Side::B) => fm_winner::FM_WINNER_B,
            };
            assert_eq!(w, want);
            assert_eq!(fm_match_free(h), fm_status::FM_OK);
        }
    }
}

#[test]
fn playout_matches_the_random_agent() {
    for &(seed, agent_seed) in GAMES {
        let (cmds, rust) = through_rust(seed, agent_seed);
        // SAFETY: the C API used as documented.
        unsafe {
            let mut h: *mut fm_match = std::ptr::null_mut();
            assert_eq!(
                fm_match_new(c"system-demo".as_ptr(), seed, &mut h),
                fm_status::FM_OK
            );
            let mut n = 0;
            assert_eq!(fm_match_playout(h, agent_seed, &mut n), fm_status::FM_OK);
            assert_eq!(n, cmds.len());
            let mut hash = 0;
            assert_eq!(fm_match_state_hash(h, &mut hash), fm_status::FM_OK);
            assert_eq!(hash, rust.state_hash);
            assert_eq!(fm_match_free(h), fm_status::FM_OK);
        }
    }
}
