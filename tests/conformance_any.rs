//! The conformance suite of the system-agnostic match layer (`fm_core::any`), run on
//! every built-in scenario of every registered rules system: Fire & Movement's four and
//! the toy race of `tests/support/race.rs`, which proves the layer generic (issue 14).
//!
//! For each: a random game through the action indices, with at checkpoints the JSON
//! and index forms of each legal command agreeing, save/load verified by replay, undo,
//! clones independent, per-side views and records consistent (no seed in a record);
//! and a match started from the scenario's own JSON equals one started by name.

use crate::race;

use fm_core::any::{self, DynMatch};
use fm_core::{rng_from_seed, Side};
use rand_core::RngCore;

const MAX_COMMANDS: usize = 20_000;

fn checkpoint(m: &dyn DynMatch, ctx: &str) {
    // Every legal command's index stands for it, and the JSON and index forms agree.
    let legal = m.legal_json();
    assert_eq!(
        legal.is_empty(),
        m.is_over(),
        "{ctx}: legal commands iff not over"
    );
    assert_eq!(
        m.decider().is_none(),
        m.is_over(),
        "{ctx}: a decider iff not over"
    );
    // The typed answers agree with the JSON ones (`pending_kind`, `result`).
    assert_eq!(
        m.pending_json()["kind"].as_str(),
        Some(m.pending_kind().as_ref()),
        "{ctx}: pending_kind"
    );
    let result = match m.outcome() {
        None => fm_core::MatchResult::Ongoing,
        Some((Some(w), _)) => fm_core::MatchResult::Won(w),
        Some((None, _)) => fm_core::MatchResult::Draw,
    };
    assert_eq!(m.result(), result, "{ctx}: result");
    for c in legal.iter().take(8) {
        if let Some(i) = m.index_of(c) {
            assert_eq!(m.command_at(i).as_ref(), Some(c), "{ctx}: index {i}");
            let (mut a, mut b) = (m.clone_box(), m.clone_box());
            let ea = a.apply_json(c).expect("a legal command is accepted");
            b.apply_index(i).expect("its index is accepted");
            let eb = b.last_events_json(None);
            assert_eq!(ea, eb, "{ctx}: JSON and index forms differ");
            assert_eq!(a.state_hash(), b.state_hash(), "{ctx}");
        }
    }
    // Save, load (verified by replay), undo.
    let saved = m.save();
    let back = any::load_match(&saved).expect("a save loads");
    assert_eq!(back.system(), m.system(), "{ctx}");
    assert_eq!(back.state_hash(), m.state_hash(), "{ctx}: load");
    assert_eq!(back.log_len(), m.log_len(), "{ctx}");
    assert_eq!(back.save(), saved, "{ctx}: save round trip");
    if m.log_len() > 0 {
        let mut u = m.clone_box();
        let last = m.log_json(m.log_len() - 1)[0]["command"].clone();
        assert!(u.undo());
        assert_eq!(u.log_len(), m.log_len() - 1);
        u.apply_json(&last).expect("the undone command replays");
        assert_eq!(u.state_hash(), m.state_hash(), "{ctx}: undo and redo");
    }
    // Per-side views and records.
    for side in Side::BOTH {
        assert_eq!(m.view_json(side), m.view_json(side), "{ctx}");
        let rec = m.export_json(side);
        assert!(
            !rec.to_string().contains("\"seed\""),
            "{ctx}: a record holds no seed"
        );
        assert_eq!(rec["view"], m.view_json(side), "{ctx}");
        assert_eq!(
            rec["view_hash"],
            format!("{:016x}", m.view_hash(side)),
            "{ctx}"
        );
        assert_eq!(
            m.side_log_json(side, 0).as_array().map(Vec::len),
            Some(m.log_len()),
            "{ctx}"
        );
    }
}

fn suite(name: &str, seed: u64) {
    let mut m = any::new_match(name, seed).unwrap_or_else(|e| panic!("{name}: {e}"));
    // The same match from the scenario's JSON (naming its system).
    let mut json = m.scenario_json();
    json["system"] = serde_json::Value::String(m.system().to_string());
    let again = any::new_match(&json.to_string(), seed).expect("the scenario JSON opens");
    assert_eq!(
        again.state_hash(),
        m.state_hash(),
        "{name}: by JSON and by name"
    );
    let mut rng = rng_from_seed(seed ^ 0xc0ffee);
    let mut n = 0;
    while !m.is_over() {
        assert!(n < MAX_COMMANDS, "{name}: no end");
        if n % 97 == 0 {
            checkpoint(m.as_ref(), &format!("{name} seed {seed} #{n}"));
        } else {
            // The system's own naming of every kind it reaches equals its JSON's.
            assert_eq!(
                m.pending_json()["kind"].as_str(),
                Some(m.pending_kind().as_ref()),
                "{name} #{n}: pending_kind"
            );
        }
        let idx = m.legal_indices();
        assert!(!idx.is_empty(), "{name} #{n}: no legal index");
        let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
        m.apply_index(i)
            .unwrap_or_else(|e| panic!("{name} #{n}: {e}"));
        n += 1;
    }
    checkpoint(m.as_ref(), &format!("{name} seed {seed} end"));
    assert!(
        m.apply_index(0).is_err(),
        "{name}: nothing is accepted once over"
    );
    let mut p = any::new_match(name, seed).unwrap();
    let played = p.playout(&mut rng_from_seed(seed), MAX_COMMANDS);
    assert!(p.is_over() && played > 0, "{name}: a playout ends");
}

#[test]
fn every_system_passes_the_suite() {
    race::register();
    let names = any::builtin_scenarios();
    assert!(
        names.contains(&"race-to-10") && names.contains(&"system-demo"),
        "{names:?}"
    );
    assert_eq!(any::systems(), vec!["fm", "huzzah", "race"]);
    assert!(names.contains(&"huzzah-firefight"), "{names:?}");
    for name in names {
        suite(name, 3);
    }
}

#[test]
fn registration_refuses_a_second_system_of_the_same_name() {
    race::register();
    assert!(!any::register(any::SystemEntry::of::<race::Race>()));
    let e = any::new_match("no-such", 1)
        .err()
        .expect("unknown")
        .to_string();
    assert!(e.contains("race-to-10") && e.contains("system-demo"), "{e}");
    let e = any::new_match(r#"{"system":"chess"}"#, 1)
        .err()
        .expect("unknown system")
        .to_string();
    assert!(e.contains("unknown rules system \"chess\""), "{e}");
    let mut m = any::new_match("race-to-10", 1).unwrap();
    assert!(m.save().contains("\"system\":\"race\""));
    let e = m
        .apply_json(&serde_json::json!({"type": "roll", "twice": true}))
        .unwrap_err();
    assert_eq!(e.to_string(), "command JSON: unknown field `twice`");
    let mut f = any::new_match("system-demo", 1).unwrap();
    let e = f
        .apply_json(&serde_json::json!({"type": "done", "now": 1}))
        .unwrap_err();
    assert!(e.to_string().contains("unknown field `now`"), "{e}");
    let fm: serde_json::Value =
        serde_json::from_str(&any::new_match("system-demo", 1).unwrap().save()).unwrap();
    assert!(fm.get("system").is_none(), "F&M saves are unchanged");
}

/// Plays `m` with random legal commands to the end (or `max` commands), keeping each
/// state and generator-dependent check; then undoes every command, checking that each
/// undo gives exactly the state it had (the replay of the shorter log), that the
/// generator is restored (the undone command gives the same events again), and that a
/// clone taken before an undo keeps its own log.
fn undo_all_the_way<G: fm_core::Game>(mut m: fm_core::GameMatch<G>, seed: u64, max: usize) {
    let mut rng = rng_from_seed(seed);
    let mut states = vec![m.state().clone()];
    while !m.is_over() && m.log().len() < max {
        let legal = m.legal_commands();
        let c = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
        m.apply(&c).expect("a legal command is accepted");
        states.push(m.state().clone());
    }
    let full = m.clone();
    let n = m.log().len();
    for k in (0..n).rev() {
        let entry = m.log()[k].clone();
        let before = m.clone();
        assert!(m.undo());
        assert_eq!(m.log().len(), k);
        assert!(m.state() == &states[k], "{}: undo to {k}", G::NAME);
        assert_eq!(before.log().len(), k + 1, "a clone keeps its log");
        if k % 13 == 0 || k + 1 == n {
            let mut redo = m.clone();
            let events = redo
                .apply(&entry.command)
                .expect("the undone command replays");
            assert_eq!(
                events,
                entry.events.as_slice(),
                "{}: generator restored at {k}",
                G::NAME
            );
            assert_eq!(redo.log().last().map(|e| e.hash), Some(entry.hash));
        }
        if k % 97 == 0 {
            let replayed = fm_core::GameMatch::<G>::load(&m.save()).expect("loads");
            assert!(replayed.state() == m.state());
            assert_eq!(replayed.log(), m.log());
        }
    }
    assert!(!m.undo());
    assert!(m.state() == &states[0]);
    // The clone taken at the end was not touched by all that.
    assert_eq!(full.log().len(), n);
    assert!(full.state() == &states[n]);
    let again = fm_core::GameMatch::<G>::load(&full.save()).expect("loads");
    assert_eq!(again.log(), full.log());
    assert_eq!(
        again.log().to_vec(),
        full.log().iter().cloned().collect::<Vec<_>>()
    );
}

#[test]
fn undo_at_every_point_equals_the_replayed_state() {
    for name in fm_core::Scenario::builtin_names() {
        let m = fm_core::Match::new_builtin(name, 5).unwrap();
        undo_all_the_way(m, 11, 2_000);
    }
    for name in fm_core::huzzah::scenario::BUILTIN {
        let m = fm_core::GameMatch::<fm_core::huzzah::Huzzah>::new_builtin(name, 5).unwrap();
        undo_all_the_way(m, 11, 2_000);
    }
}
