//! The factored action space (issue 18, `fm_core::factored`), on random games of every
//! built-in scenario of every registered system (Fire & Movement's four with their
//! semantic factorization, Huzzah!'s two and the toy race of `tests/support/race.rs`
//! with the default one): at each decision, walking every option of every step
//! reaches exactly the legal flat indices, each by one sequence; every listed option
//! leads to a legal command (no dead ends); the conversions round-trip; the step sizes
//! stay fixed. Fire & Movement's step listings are also compared with the free
//! functions (which list without the match's memo), and every kind of bad input is a
//! typed error.

use crate::race;

use fm_core::any::{self, DynMatch};
use fm_core::{rng_from_seed, ChanceMode, FactoredError, Match};
use proptest::prelude::*;
use rand_core::RngCore;
use std::collections::BTreeSet;

/// Walks every sequence from `prefix`, checking each step's options; pushes the flat
/// index of each complete sequence onto `reached`.
fn walk(m: &dyn DynMatch, sizes: &[usize], prefix: &mut Vec<usize>, reached: &mut Vec<usize>) {
    let step = prefix.len();
    assert!(step < sizes.len(), "{prefix:?}: longer than the steps");
    let opts = m
        .factored_options(prefix)
        .unwrap_or_else(|e| panic!("options after {prefix:?}: {e}"));
    if !prefix.is_empty() {
        assert!(!opts.is_empty(), "{prefix:?}: listed, but leads nowhere");
    }
    assert!(
        opts.windows(2).all(|w| w[0] < w[1]),
        "{prefix:?}: options ascending and distinct: {opts:?}"
    );
    for &v in &opts {
        assert!(
            v < sizes[step],
            "{prefix:?}: option {v} of a step of {}",
            sizes[step]
        );
        prefix.push(v);
        let complete = m
            .factored_complete(prefix)
            .unwrap_or_else(|e| panic!("{prefix:?}: {e}"));
        if complete {
            let flat = m
                .factored_to_flat(prefix)
                .unwrap_or_else(|e| panic!("{prefix:?}: {e}"));
            assert_eq!(
                m.flat_to_factored(flat).as_deref(),
                Ok(prefix.as_slice()),
                "flat {flat}"
            );
            // A complete sequence has no next step.
            assert!(matches!(
                m.factored_options(prefix),
                Err(FactoredError::Complete { .. })
            ));
            reached.push(flat);
        } else {
            assert!(
                m.factored_to_flat(prefix).is_err(),
                "{prefix:?}: incomplete"
            );
            walk(m, sizes, prefix, reached);
        }
        prefix.pop();
    }
}

/// The checks at one decision.
fn check_decision(m: &dyn DynMatch, sizes: &[usize], ctx: &str) {
    assert_eq!(m.factored_sizes(), sizes, "{ctx}: the step sizes are fixed");
    let legal = m.legal_indices();
    let mut reached = Vec::new();
    walk(m, sizes, &mut Vec::new(), &mut reached);
    let n = reached.len();
    reached.sort_unstable();
    reached.dedup();
    assert_eq!(reached.len(), n, "{ctx}: a flat index reached twice");
    assert_eq!(
        reached, legal,
        "{ctx}: the sequences reach the legal indices"
    );
    for &i in &legal {
        let seq = m
            .flat_to_factored(i)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(m.factored_to_flat(&seq), Ok(i), "{ctx}: {seq:?}");
    }
}

/// Fire & Movement: the free functions (each unit's search run now, no memo) give the
/// match's options at the root and after each head.
fn check_free_functions(m: &Match, ctx: &str) {
    let (sc, s) = (m.scenario(), m.state());
    let root = fm_core::factored_options(sc, s, &[]).unwrap();
    assert_eq!(Ok(&root), m.factored_options(&[]).as_ref(), "{ctx}");
    for &h in &root {
        if !fm_core::factored_complete(sc, &[h]).unwrap() {
            assert_eq!(
                fm_core::factored_options(sc, s, &[h]),
                m.factored_options(&[h]),
                "{ctx}: after head {h}"
            );
        }
    }
}

/// One random game of `name`: every decision checked (every `every`-th in the long
/// games), the free functions every seventh. Returns the kinds of decision checked
/// (`"setup"`, `"phase movement"`, …).
fn game(name: &str, seed: u64, every: usize) -> BTreeSet<String> {
    let mut m = any::new_match(name, seed).unwrap_or_else(|e| panic!("{name}: {e}"));
    let sizes = m.factored_sizes();
    let total = m.action_space_size();
    assert!(
        sizes.iter().product::<usize>() >= total,
        "{name}: {sizes:?} cannot number {total} indices"
    );
    let mut rng = rng_from_seed(seed ^ 0xfac7);
    let (mut n, mut checked) = (0, BTreeSet::new());
    while !m.is_over() {
        assert!(n < 20_000, "{name}: no end");
        let ctx = format!("{name} seed {seed} #{n}");
        if n % every == 0 {
            check_decision(m.as_ref(), &sizes, &ctx);
            let p = m.pending_json();
            let kind = p["kind"].as_str().unwrap_or("?");
            checked.insert(match p["phase"].as_str() {
                Some(phase) => format!("{kind} {phase}"),
                None => kind.to_string(),
            });
        }
        if let Some(f) = m.as_any().downcast_ref::<Match>() {
            if n % (7 * every) == 0 {
                check_free_functions(f, &ctx);
            }
        }
        // Play along a random factored sequence: each step a random option.
        let mut seq = Vec::new();
        while !m.factored_complete(&seq).unwrap() {
            let opts = m.factored_options(&seq).unwrap();
            seq.push(opts[(rng.next_u64() % opts.len() as u64) as usize]);
        }
        m.apply_factored(&seq)
            .unwrap_or_else(|e| panic!("{ctx}: {seq:?}: {e}"));
        n += 1;
    }
    // Over: nothing at the root, and any head leads nowhere.
    assert_eq!(m.factored_options(&[]), Ok(Vec::new()), "{name}: over");
    assert!(matches!(
        m.factored_options(&[0]),
        Err(FactoredError::NotLegal { .. }) | Err(FactoredError::Complete { .. })
    ));
    checked
}

#[test]
fn every_scenario_walks_to_the_legal_indices() {
    race::register();
    for name in any::builtin_scenarios() {
        let checked = game(name, 5, 1);
        // Fire & Movement's own listings (set-up, movement, combat) and the filtered
        // flat one (the rest) were all met.
        if fm_core::Scenario::builtin_names().contains(&name) {
            let own = ["setup", "phase movement", "phase combat"];
            for kind in own {
                assert!(
                    checked.contains(kind),
                    "{name}: no {kind} decision in {checked:?}"
                );
            }
            assert!(
                checked.iter().any(|k| !own.contains(&k.as_str())),
                "{name}: no other decision in {checked:?}"
            );
        }
        assert!(!checked.is_empty(), "{name}");
    }
}

fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(4))]

    /// More seeds of the scenarios whose games are short.
    #[test]
    fn short_games_walk_to_the_legal_indices(which in 0usize..3, seed in any::<u64>()) {
        let name = ["system-demo", "huzzah-firefight", "huzzah-encounter"][which];
        game(name, seed, if which == 0 { 1 } else { 5 });
    }
}

#[test]
fn fire_and_movement_step_sizes() {
    for name in fm_core::Scenario::builtin_names() {
        let m = Match::new_builtin(name, 1).unwrap();
        let sc = m.scenario();
        let (u, h) = (sc.units.len(), sc.hexes.len());
        assert_eq!(m.factored_sizes(), vec![11 + 8 * u, h.max(u), 64], "{name}");
    }
}

#[test]
fn bad_sequences_and_indices_are_typed_errors() {
    let mut m = Match::new_builtin("system-demo", 1).unwrap();
    let sizes = m.factored_sizes();
    let u = m.scenario().units.len();
    let h = m.scenario().hexes.len();
    let n = fm_core::action_space_size(m.scenario());
    // Out of the head's range.
    assert!(matches!(
        m.factored_options(&[sizes[0]]),
        Err(FactoredError::Invalid { step: 0, .. })
    ));
    // A hex past the map.
    assert!(matches!(
        m.factored_to_flat(&[11, h]),
        Err(FactoredError::Invalid { step: 1, .. })
    ));
    // Incomplete, and too long.
    assert!(matches!(
        m.factored_to_flat(&[11]),
        Err(FactoredError::Incomplete { needed: 2, .. })
    ));
    assert!(matches!(
        m.factored_to_flat(&[0, 0]),
        Err(FactoredError::Complete { len: 1, .. })
    ));
    assert!(matches!(
        m.factored_options(&[0]),
        Err(FactoredError::Complete { .. })
    ));
    // An attack from no direction; a bombardment with three markers.
    assert!(matches!(
        m.factored_to_flat(&[6, 0, 0]),
        Err(FactoredError::Invalid {
            step: 2,
            value: 0,
            ..
        })
    ));
    assert!(matches!(
        m.factored_to_flat(&[5, 0, 2]),
        Err(FactoredError::Invalid {
            step: 2,
            value: 2,
            ..
        })
    ));
    // Two units rebuilt out of order.
    let rebuild = 11 + 6 * u;
    assert!(matches!(
        m.factored_to_flat(&[rebuild + 3, 1]),
        Err(FactoredError::Invalid {
            step: 1,
            value: 1,
            ..
        })
    ));
    assert!(m.factored_to_flat(&[rebuild + 1, 3]).is_ok());
    // Flat indices: past the space, and standing for nothing.
    assert!(matches!(
        m.flat_to_factored(n),
        Err(FactoredError::Index { index, .. }) if index == n
    ));
    assert!(matches!(
        m.flat_to_factored(usize::MAX),
        Err(FactoredError::Index { .. })
    ));
    let attack_block = fm_core::command_to_index(
        m.scenario(),
        m.state(),
        &fm_core::Command::Bombard {
            hex: m.scenario().hexes[0].hex,
            markers: 1,
        },
    )
    .unwrap()
        + 2 * h;
    assert!(matches!(
        m.flat_to_factored(attack_block),
        Err(FactoredError::Index { .. })
    ));
    // A well-formed head nobody can play now (set-up: no `done`, no attack).
    let e = m.factored_options(&[6]).unwrap_err();
    assert!(matches!(e, FactoredError::NotLegal { .. }), "{e:?}");
    assert!(e.to_string().contains("[6]"), "{e}");
    // Applying a bad sequence is refused with rule "input" and changes nothing.
    let before = m.state().hash();
    let err = m.apply_factored(&[11]).unwrap_err();
    assert_eq!(err.rule, "input");
    assert!(err.message.contains("incomplete"), "{err}");
    assert!(m.apply_factored(&[0]).is_err()); // done: well formed, refused by the rules
    assert_eq!(m.state().hash(), before);
    // Messages name the problem.
    let msg = m.factored_to_flat(&[5, 0, 2]).unwrap_err().to_string();
    assert!(msg.contains("bombard") && msg.contains("step 2"), "{msg}");

    // The default factorization (Huzzah!) has its errors too.
    let hz = any::new_match("huzzah-firefight", 1).unwrap();
    let hs = hz.factored_sizes();
    assert_eq!(hs.len(), 2);
    assert!(hz.factored_options(&[hs[0]]).is_err());
    assert!(matches!(
        hz.factored_to_flat(&[0]),
        Err(FactoredError::Incomplete { .. })
    ));
    assert!(hz.flat_to_factored(hz.action_space_size()).is_err());
}

#[test]
fn a_pending_chance_outcome_has_no_options() {
    let mut m = Match::new_builtin("system-demo", 1).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut agent = rng_from_seed(2);
    while m.chance_node().is_none() {
        let c = m.random_command(&mut agent).unwrap();
        m.apply(&c).unwrap();
    }
    assert_eq!(m.factored_options(&[]), Ok(Vec::new()));
    assert!(matches!(
        m.factored_options(&[11]),
        Err(FactoredError::NotLegal { .. })
    ));
}

/// The system-demo examples of docs/protocol.md ("Factored action space").
#[test]
fn the_documented_examples() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let sc = m.scenario();
    assert_eq!(m.factored_sizes(), vec![123, 120, 64]);
    let unit = |id: &str| sc.unit_index(&id.into()).unwrap() as usize;
    let hex = |h: &str| sc.hex_index(h.parse().unwrap()).unwrap() as usize;
    assert_eq!((unit("red-militia-bn"), hex("1105")), (12, 104));
    assert_eq!((unit("blue-2-inf-bde"), hex("0603")), (1, 52));
    assert_eq!((unit("red-20-tank-rgt"), hex("0203")), (11, 12));
    assert_eq!((unit("blue-3-inf-bde"), hex("0503")), (2, 42));
    assert_eq!(unit("red-12-gds-rgt"), 10);
    assert_eq!((hex("0302"), hex("0505"), hex("0703")), (21, 44, 62));
    for (flat, seq) in [
        (0, vec![0]),
        (1, vec![1]),
        (1547, vec![23, 104]),
        (175, vec![12, 52]),
        (1335, vec![22, 12]),
        (1965, vec![27, 42]),
        (3375, vec![51]),
        (3387, vec![63]),
        (3434, vec![5, 21, 1]),
        (6449, vec![6, 44, 2]),
        (7639, vec![6, 62, 40]),
    ] {
        assert_eq!(m.flat_to_factored(flat), Ok(seq.clone()), "{flat}");
        assert_eq!(m.factored_to_flat(&seq), Ok(flat), "{seq:?}");
    }
}
