//! Determinized matches (issue 18, OpenSpiel's `resample_from_infostate`): a new match
//! whose opening is drawn from one side's view of another, which that side cannot tell
//! from the original, and whose save replays exactly and is verified on load.

use fm_core::any::{self, DynMatch};
use fm_core::{ChanceMode, Match, MatchError, Side, MAX_DETERMINIZED_DEPTH};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `n` random commands drawn from `agent` (fewer if the game ends).
fn play(m: &mut dyn DynMatch, agent: &mut Xoshiro256PlusPlus, n: usize) {
    for _ in 0..n {
        let Some(i) = m.random_action(agent) else {
            return;
        };
        m.apply_index(i).expect("a listed action is accepted");
    }
}

/// `side`'s information-state tensor, with room for 400 commands.
fn tensor(m: &dyn DynMatch, side: Side) -> Vec<f32> {
    let mut t = vec![f32::NAN; fm_core::information_state_tensor_size(400)];
    m.information_state_tensor(side, &mut t)
        .expect("the record fits");
    t
}

/// Checks a determinized match against its source and its save.
fn check(src: &dyn DynMatch, side: Side, seed: u64, agent: &mut Xoshiro256PlusPlus, ctx: &str) {
    let mut d = src
        .determinized(side, seed)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(
        d.view_json(side),
        src.view_json(side),
        "{ctx}: the side's view"
    );
    assert_eq!(d.view_hash(side), src.view_hash(side), "{ctx}");
    assert_eq!(
        d.information_state(side),
        src.information_state(side),
        "{ctx}: the side's information state"
    );
    assert_eq!(d.log_len(), 0, "{ctx}");
    assert_eq!(
        d.legal_indices(),
        src.legal_indices(),
        "{ctx}: the same choices"
    );
    assert_eq!(d.chance_mode(), src.chance_mode(), "{ctx}");
    assert_ne!(d.rng_state(), src.rng_state(), "{ctx}: its own generator");
    let other = side.other();
    assert!(
        d.information_state(other).contains(r#""drawn":""#),
        "{ctx}: the other side's record starts at the draw"
    );
    // The tensor form agrees: the side's is its source's, the other side's opens on
    // the drawn view.
    assert_eq!(
        tensor(d.as_ref(), side),
        tensor(src, side),
        "{ctx}: the side's information-state tensor"
    );
    let t = tensor(d.as_ref(), other);
    assert_eq!(t[2], 1.0, "{ctx}: a drawn view");
    assert_eq!(t[9], 0.0, "{ctx}: and no command yet");
    // Its save loads to exactly the same match, before and after commands.
    let back = any::load_match(&d.save()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(back.state_json(), d.state_json(), "{ctx}");
    assert_eq!(back.rng_state(), d.rng_state(), "{ctx}");
    play(d.as_mut(), agent, 15);
    while let Some(node) = d.chance_node() {
        d.apply_chance(node.outcomes / 2).unwrap();
    }
    let back = any::load_match(&d.save()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(back.state_json(), d.state_json(), "{ctx}: replayed");
    assert_eq!(back.log_json(0), d.log_json(0), "{ctx}: the log");
    assert_eq!(back.rng_state(), d.rng_state(), "{ctx}");
    assert_eq!(
        back.information_state(side),
        d.information_state(side),
        "{ctx}"
    );
    assert_eq!(
        back.information_state(other),
        d.information_state(other),
        "{ctx}"
    );
    assert_eq!(back.save(), d.save(), "{ctx}: the same save again");
    // The side's information state goes on from the source's.
    let before = src.information_state(side);
    let after = d.information_state(side);
    assert!(
        d.log_len() == 0 || after.len() > before.len(),
        "{ctx}: the record grows"
    );
}

#[test]
fn every_builtin_scenario_determinizes_to_the_same_view() {
    for name in crate::builtin_scenarios() {
        let mut agent = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut m = any::new_match(name, 5).unwrap();
        for (round, steps) in [0, 12, 40].into_iter().enumerate() {
            play(m.as_mut(), &mut agent, steps);
            if m.is_over() {
                break;
            }
            for side in [Side::A, Side::B] {
                let ctx = format!("{name}, round {round}, side {side:?}");
                check(m.as_ref(), side, 100 + round as u64, &mut agent, &ctx);
            }
        }
    }
}

#[test]
fn explicit_chance_matches_determinize_and_a_waiting_draw_waits_in_the_drawn_match() {
    let mut m = any::new_match("system-demo", 2).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut agent = Xoshiro256PlusPlus::seed_from_u64(9);
    while m.chance_node().is_none() {
        let i = m.random_action(&mut agent).unwrap();
        m.apply_index(i).unwrap();
    }
    // Drawn while a command waits for its die (issue 32: OpenSpiel resamples at chance
    // nodes): the drawn match waits at the same draw, with the side's same record.
    for side in [Side::A, Side::B] {
        let d = m
            .determinized(side, 1)
            .expect("a waiting match determinizes");
        assert_eq!(d.chance_node(), m.chance_node());
        assert_eq!(d.information_state(side), m.information_state(side));
    }
    while let Some(node) = m.chance_node() {
        m.apply_chance(node.outcomes - 1).unwrap();
    }
    check(m.as_ref(), Side::A, 4, &mut agent, "explicit");
    check(m.as_ref(), Side::B, 4, &mut agent, "explicit");
}

/// A system-demo match in which side B holds face-down markers A cannot see.
fn with_hidden_values() -> Match {
    for seed in 0..50 {
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let mut agent = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..60 {
            let Some(c) = m.random_command(&mut agent) else {
                break;
            };
            m.apply(&c).unwrap();
            let moved = (0..8).any(|k| m.determinized(Side::A, k).unwrap().state() != m.state());
            if moved {
                return m;
            }
        }
    }
    panic!("no system-demo game of the first 50 seeds hides anything from A")
}

#[test]
fn the_draw_replaces_what_the_side_may_not_know() {
    let m = with_hidden_values();
    let states: Vec<_> = (0..16)
        .map(|k| m.determinized(Side::A, k).unwrap())
        .collect();
    assert!(states.iter().any(|d| d.state() != m.state()));
    for d in &states {
        assert_eq!(d.view(Side::A), m.view(Side::A));
    }
    // The same seed draws the same state; the draw uses only the side's view, so two
    // matches with the same view give the same draw.
    let again = m.determinized(Side::A, 3).unwrap();
    assert_eq!(again.state(), states[3].state());
    let hidden_elsewhere = states
        .iter()
        .find(|d| d.state() != m.state())
        .expect("one differs");
    let twice = hidden_elsewhere.determinized(Side::A, 3).unwrap();
    assert_eq!(
        twice.state(),
        states[3].state(),
        "a function of the view alone"
    );
}

#[test]
fn a_tampered_determinized_save_is_refused() {
    let m = with_hidden_values();
    // Two seeds whose draws differ.
    let draw = |k: u64| m.determinized(Side::A, k).unwrap();
    let (s1, s2) = (0..16u64)
        .flat_map(|a| (0..16u64).map(move |b| (a, b)))
        .find(|&(a, b)| draw(a).state() != draw(b).state())
        .expect("two draws differ");
    let d = draw(s1);
    let save: serde_json::Value = serde_json::from_str(&d.save()).unwrap();
    let refused = |v: &serde_json::Value| Match::load(&v.to_string()).expect_err("refused");

    // Drawn for the other side: another opening state, when B's draw differs.
    if m.determinized(Side::B, s1).unwrap().state() != d.state() {
        let mut v = save.clone();
        v["determinized"]["side"] = "b".into();
        assert!(matches!(
            refused(&v),
            MatchError::Diverged { index: None, .. }
        ));
    }
    // Another draw (seed and its check both changed): another opening state.
    let mut v = save.clone();
    let other: serde_json::Value = serde_json::from_str(&draw(s2).save()).unwrap();
    v["seed"] = other["seed"].clone();
    v["seed_check"] = other["seed_check"].clone();
    assert!(matches!(
        refused(&v),
        MatchError::Diverged { index: None, .. }
    ));
    // An edited source.
    let mut v = save.clone();
    v["determinized"]["source"]["seed"] = 12345.into();
    let e = refused(&v);
    assert!(e.to_string().contains("determinized.source"), "{e}");
    // A source of another scenario.
    let mut v = save.clone();
    let vimy = Match::new_builtin("vimy-ridge", 1).unwrap().save();
    v["determinized"]["source"] = serde_json::from_str(&vimy).unwrap();
    assert!(matches!(refused(&v), MatchError::Json(_)));
    // Unknown fields.
    let mut v = save.clone();
    v["determinized"]["hint"] = 1.into();
    assert!(matches!(refused(&v), MatchError::Json(_)));
    // The untouched save loads.
    assert_eq!(Match::load(&save.to_string()).unwrap().state(), d.state());
}

#[test]
fn determinizations_nest_to_a_bound() {
    let mut m = any::new_match("system-demo", 1).unwrap();
    play(m.as_mut(), &mut Xoshiro256PlusPlus::seed_from_u64(1), 10);
    for k in 0..MAX_DETERMINIZED_DEPTH {
        m = m.determinized(Side::A, k as u64).unwrap();
    }
    let e = m.determinized(Side::A, 99).err().expect("too deep");
    assert_eq!(e.rule, "input");
    let back = any::load_match(&m.save()).unwrap();
    assert_eq!(back.state_json(), m.state_json());
    // A save one level deeper than any match can be is refused.
    let mut v: serde_json::Value = serde_json::from_str(&m.save()).unwrap();
    let inner = v.clone();
    v["determinized"]["source"] = inner;
    assert!(any::load_match(&v.to_string()).is_err());
}

/// The information-state tensor refuses a buffer of no tensor's length, or one too
/// short for the record, and leaves it as it was.
#[test]
fn an_information_state_tensor_refuses_a_wrong_buffer() {
    let mut m = Match::new_builtin("system-demo", 3).unwrap();
    let mut agent = Xoshiro256PlusPlus::seed_from_u64(1);
    play(&mut m, &mut agent, 5);
    for (len, why) in [
        (0, "9 + 4 × n floats, not 0"),
        (10, "not 10"),
        (
            fm_core::information_state_tensor_size(4),
            "holds 5 commands, but the tensor has room for 4",
        ),
    ] {
        let mut t = vec![7.0f32; len];
        let e = m.information_state_tensor(Side::A, &mut t).unwrap_err();
        assert_eq!(e.rule, "input");
        assert!(e.message.contains(why), "{}", e.message);
        assert!(t.iter().all(|&x| x == 7.0), "untouched");
    }
    let mut t = vec![7.0f32; fm_core::information_state_tensor_size(5)];
    m.information_state_tensor(Side::A, &mut t).unwrap();
    assert!(
        t[9..].chunks(4).all(|s| s[0] == 1.0),
        "five commands, five slots"
    );
    assert_eq!(&t[..2], &[1.0, 0.0]);
}

/// At every step of random games of every built-in scenario, each side's tensor is
/// equal to another's exactly when their information states are (the tensor is the
/// text's, in numbers), and it grows by one slot a command.
#[test]
fn information_state_tensors_follow_the_text_forms() {
    let mut seen = std::collections::BTreeMap::<Vec<u32>, String>::new();
    for name in crate::builtin_scenarios() {
        for seed in 0..2u64 {
            let mut m = any::new_match(name, seed).unwrap();
            let mut agent = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..40 {
                for side in Side::BOTH {
                    let t = tensor(m.as_ref(), side);
                    let slots = t[9..].chunks(4).filter(|s| s[0] == 1.0).count();
                    assert_eq!(slots, m.log_len(), "{name}: one slot a command");
                    let key: Vec<u32> = t.iter().map(|x| x.to_bits()).collect();
                    let info = m.information_state(side);
                    let prev = seen.entry(key).or_insert_with(|| info.clone());
                    assert_eq!(
                        *prev, info,
                        "{name}: equal tensors, equal information states"
                    );
                }
                let Some(i) = m.random_action(&mut agent) else {
                    break;
                };
                m.apply_index(i).unwrap();
            }
        }
    }
    // Distinct texts gave distinct tensors: the map is one-to-one both ways.
    let texts: std::collections::BTreeSet<&String> = seen.values().collect();
    assert_eq!(texts.len(), seen.len());
}
