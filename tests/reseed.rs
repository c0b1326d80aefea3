//! Re-seeding a match's generator and reading or setting its state (issue 18, chance):
//! copies for search get their own dice, and saves, loads and undos keep the generator
//! exactly.

use fm_core::{any, Match, RngState};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `n` random commands drawn from `agent` (fewer if the game ends).
fn play(m: &mut Match, agent: &mut Xoshiro256PlusPlus, n: usize) {
    for _ in 0..n {
        let Some(c) = m.random_command(agent) else {
            return;
        };
        m.apply(&c).expect("a listed command is accepted");
    }
}

/// A system-demo match after set-up and a few moves.
fn midgame() -> Match {
    let mut m = Match::new_builtin("system-demo", 11).unwrap();
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(5), 40);
    m
}

/// The events after the match's current log length, as JSON text.
fn events_after(m: &Match, from: usize) -> String {
    let v: Vec<_> = m.log().iter().skip(from).map(|e| &e.events).collect();
    serde_json::to_string(&v).unwrap()
}

#[test]
fn clones_roll_the_same_dice_and_reseeded_clones_their_own() {
    let m = midgame();
    let n = m.log().len();
    let futures = |f: &dyn Fn(u64) -> Match| -> Vec<String> {
        (0..12)
            .map(|k| {
                let mut c = f(k);
                // The same commands' draws for every copy: only the dice may differ.
                play(&mut c, &mut Xoshiro256PlusPlus::seed_from_u64(9), 60);
                events_after(&c, n)
            })
            .collect()
    };
    let same = futures(&|_| m.clone());
    assert!(
        same.iter().all(|e| *e == same[0]),
        "plain clones share the future"
    );
    let own = futures(&|k| m.clone_with_seed(k));
    let mut distinct = own.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 1, "re-seeded clones roll their own dice");
    // The same seed gives the same future (determinism).
    assert_eq!(futures(&|k| m.clone_with_seed(k)), own);
    // The original keeps its dice.
    assert_eq!(m.rng_resets(), &[]);
}

#[test]
fn reseed_is_the_state_of_a_generator_with_that_seed() {
    let mut m = midgame();
    m.reseed(77);
    assert_eq!(m.rng_state(), RngState::of_seed(77));
    assert_eq!(m.rng_resets().len(), 1);
    assert_eq!(m.rng_resets()[0].at, m.log().len());
}

#[test]
fn a_save_records_the_resets_and_a_load_replays_them() {
    let mut m = midgame();
    let plain = m.save();
    assert!(!plain.contains("rng_resets"), "no resets, no key");
    m.reseed(3);
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(1), 30);
    m.reseed(4);
    m.reseed(5); // replaces the reset just made
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(2), 30);
    m.reseed(6); // after the last command
    assert_eq!(m.rng_resets().len(), 3);
    let text = m.save();
    let back = Match::load(&text).expect("a save with resets loads");
    assert_eq!(back.state(), m.state());
    assert_eq!(back.rng_state(), m.rng_state());
    assert_eq!(back.rng_resets(), m.rng_resets());
    assert_eq!(back.save(), text);
    // The loaded match rolls what the original rolls.
    let (mut a, mut b) = (m.clone(), back);
    play(&mut a, &mut Xoshiro256PlusPlus::seed_from_u64(8), 40);
    play(&mut b, &mut Xoshiro256PlusPlus::seed_from_u64(8), 40);
    assert_eq!(a.save(), b.save());
}

#[test]
fn undo_takes_back_the_resets_after_the_commands_it_takes_back() {
    let mut m = midgame();
    let before = m.clone();
    let n = m.log().len();
    m.reseed(21);
    let reseeded = m.rng_state();
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(4), 1);
    assert_eq!(m.log().len(), n + 1);
    m.undo();
    // Back to just after the reset: the reseeded generator, the reset kept.
    assert_eq!(m.rng_state(), reseeded);
    assert_eq!(m.rng_resets().len(), 1);
    m.undo();
    // Back before it: the original generator, the reset gone.
    let mut b = before.clone();
    b.undo();
    assert_eq!(m.rng_state(), b.rng_state());
    assert_eq!(m.rng_resets(), &[]);
    assert_eq!(m.save(), b.save());
}

#[test]
fn set_rng_state_restores_a_state_read_earlier() {
    let mut m = midgame();
    let k = m.log().len();
    let s = m.rng_state();
    let mut a = m.clone();
    play(&mut a, &mut Xoshiro256PlusPlus::seed_from_u64(6), 30);
    m.reseed(1);
    m.set_rng_state(s); // what OpenSpiel's SetRNGState does
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(6), 30);
    assert_eq!(events_after(&m, k), events_after(&a, k));
    assert!(a.log().len() > k, "the futures have commands to compare");
}

#[test]
fn malformed_resets_are_refused_and_change_nothing() {
    let mut m = midgame();
    m.reseed(3);
    play(&mut m, &mut Xoshiro256PlusPlus::seed_from_u64(1), 5);
    let good: serde_json::Value = serde_json::from_str(&m.save()).unwrap();
    let n = m.log().len();
    let cases: Vec<(&str, serde_json::Value)> = vec![
        (
            "beyond the log",
            serde_json::json!([{"at": n + 1, "state": RngState::of_seed(1)}]),
        ),
        (
            "not ascending",
            serde_json::json!([
                {"at": 3, "state": RngState::of_seed(1)},
                {"at": 3, "state": RngState::of_seed(2)}
            ]),
        ),
        (
            "all-zero state",
            serde_json::json!([{"at": 1, "state": "0".repeat(64)}]),
        ),
        (
            "short state",
            serde_json::json!([{"at": 1, "state": "abc"}]),
        ),
        (
            "upper-case state",
            serde_json::json!([{"at": 1, "state": "A".repeat(64)}]),
        ),
        (
            "unknown field",
            serde_json::json!([{"at": 1, "state": RngState::of_seed(1), "x": 1}]),
        ),
        ("not a list", serde_json::json!({"at": 1})),
    ];
    for (what, resets) in cases {
        let mut bad = good.clone();
        bad["rng_resets"] = resets;
        let err = Match::load(&bad.to_string()).expect_err(what);
        assert!(
            err.to_string().contains("rng_resets"),
            "{what}: the error names the field: {err}"
        );
    }
    // A reset moved to another command: the replay's dice differ from the record.
    let mut moved = good.clone();
    moved["rng_resets"][0]["at"] = serde_json::json!(0);
    assert!(Match::load(&moved.to_string()).is_err());
}

#[test]
fn the_any_layer_reseeds_and_reads_the_state() {
    let m = any::new_match("system-demo", 2).unwrap();
    let c = m.clone_with_seed(9);
    assert_eq!(c.rng_state(), RngState::of_seed(9));
    assert_eq!(
        m.rng_state(),
        Match::new_builtin("system-demo", 2).unwrap().rng_state()
    );
    let mut d = m.clone_box();
    d.set_rng_state(RngState::of_seed(4));
    assert_eq!(d.rng_state(), RngState::of_seed(4));
    assert!(d.save().contains("rng_resets"));
}
