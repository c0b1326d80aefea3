//! The built-in AI (issue 18): information-set MCTS (`fm_core::search`) and the
//! evaluation it scores positions with (`fm_core::fm::ai`). Its strength is measured
//! by `scripts/strength.sh`, not here (no timing and no strength assertion in tests);
//! here: it chooses legal commands, reproducibly, from the deciding side's knowledge
//! alone, without touching the match, and refuses bad settings.

use fm_core::any::DynMatch;
use fm_core::fm::ai;
use fm_core::search::{best_command, SearchConfig, SearchError, Stopped};
use fm_core::{
    agents, resample_hidden, rng_from_seed, ChanceMode, Fm, Game, GameMatch, Match, Side,
};

/// A quick search: few iterations and priors, so debug builds stay fast.
fn quick(seed: u64) -> SearchConfig {
    SearchConfig {
        iterations: 24,
        seed,
        max_priors: 40,
        ..SearchConfig::default()
    }
}

/// A match of `name` after `n` random commands.
fn after(name: &str, seed: u64, n: usize) -> Match {
    let mut m = Match::new_builtin(name, seed).unwrap();
    let mut agent = rng_from_seed(seed ^ 0xa11ce);
    for _ in 0..n {
        if m.is_over() {
            break;
        }
        let c = m.random_command(&mut agent).unwrap();
        m.apply(&c).unwrap();
    }
    m
}

#[test]
fn search_chooses_a_legal_command_in_every_builtin_scenario() {
    for name in Fm::builtin_names() {
        for (seed, n) in [(1, 0), (2, 60)] {
            let m = after(name, seed, n);
            if m.is_over() {
                continue;
            }
            let r = m.best_command(&quick(seed), &mut || false).unwrap();
            assert!(
                m.legal_commands().contains(&r.command),
                "{name} #{n}: {:?} is not legal",
                r.command
            );
            assert_eq!(
                Fm::command_to_index(m.scenario(), m.state(), &r.command),
                Some(r.index)
            );
            assert_eq!(Some(r.side), m.state().pending().side());
            assert!((0.0..=1.0).contains(&r.value), "{name}: value {}", r.value);
            // The chosen command is the most visited candidate.
            let top = r.candidates.iter().map(|c| c.visits).max().unwrap();
            let chosen = r.candidates.iter().find(|c| c.index == r.index).unwrap();
            assert_eq!(chosen.visits, top, "{name}");
        }
    }
}

#[test]
fn search_of_a_huzzah_battle_chooses_a_legal_command() {
    use fm_core::huzzah::Huzzah;
    for name in Huzzah::builtin_names() {
        let m = GameMatch::<Huzzah>::new_builtin(name, 3).unwrap();
        let r = m.best_command(&quick(4), &mut || false).unwrap();
        assert!(
            m.legal_commands().contains(&r.command),
            "{name}: {:?}",
            r.command
        );
    }
}

#[test]
fn search_is_reproducible_for_a_seed_and_varies_with_it() {
    let m = after("system-demo", 5, 30);
    let cfg = quick(9);
    let a = m.best_command(&cfg, &mut || false).unwrap();
    let b = m.best_command(&cfg, &mut || false).unwrap();
    assert_eq!(a, b);
    // A clone searches the same (the result is a function of the position and config).
    assert_eq!(m.clone().best_command(&cfg, &mut || false).unwrap(), a);
    let others: Vec<_> = (10..16)
        .map(|s| m.best_command(&quick(s), &mut || false).unwrap().candidates)
        .collect();
    assert!(
        others.iter().any(|c| *c != a.candidates),
        "the seed changes nothing"
    );
}

#[test]
fn search_leaves_the_match_untouched() {
    let m = after("vimy-ridge", 2, 120);
    let (hash, rng, log) = (m.state().hash(), m.rng_state(), m.log().len());
    m.best_command(&quick(1), &mut || false).unwrap();
    assert_eq!(
        (m.state().hash(), m.rng_state(), m.log().len()),
        (hash, rng, log)
    );
}

/// The search reads only what the deciding side knows: on states that differ only in
/// what that side may not know (`resample_hidden`), it gives the same result, down to
/// every candidate's visits and value.
#[test]
fn search_never_reads_what_the_deciding_side_may_not_know() {
    let mut differing = 0;
    for (name, seed) in [("vimy-ridge", 2), ("suez-1916", 4), ("system-demo", 3)] {
        let mut m = Match::new_builtin(name, seed).unwrap();
        let sc = m.scenario_arc();
        let mut agent = rng_from_seed(seed);
        let mut resample = rng_from_seed(seed + 100);
        let mut checked = 0;
        for k in 0..900 {
            if m.is_over() || checked >= 3 {
                break;
            }
            if k % 7 == 0 {
                let s = m.state();
                let side = s.pending().side().unwrap();
                let t = resample_hidden(&sc, s, side, &mut resample);
                if t != *s {
                    differing += 1;
                    checked += 1;
                    let cfg = quick(k as u64);
                    let a = best_command::<Fm>(&sc, s, &cfg, &mut || false).unwrap();
                    let b = best_command::<Fm>(&sc, &t, &cfg, &mut || false).unwrap();
                    assert_eq!(
                        a, b,
                        "{name} #{k}: the search depends on what {side} may not know"
                    );
                }
            }
            let c = m.random_command(&mut agent).unwrap();
            m.apply(&c).unwrap();
        }
    }
    assert!(
        differing >= 4,
        "only {differing} positions had hidden information"
    );
}

#[test]
fn a_single_legal_command_is_chosen_without_search() {
    // A decision with one legal command (a lone `done`, a forced loss, ...).
    let mut found = 0;
    for name in Fm::builtin_names() {
        let mut m = Match::new_builtin(name, 7).unwrap();
        let mut agent = rng_from_seed(70);
        for _ in 0..3000 {
            if m.is_over() {
                break;
            }
            if m.legal_commands().len() == 1 {
                let r = m.best_command(&quick(1), &mut || false).unwrap();
                assert_eq!(
                    (r.iterations, r.stopped, r.tree_bytes),
                    (0, Stopped::Forced, 0)
                );
                assert_eq!(vec![r.command], m.legal_commands());
                found += 1;
                break;
            }
            let c = m.random_command(&mut agent).unwrap();
            m.apply(&c).unwrap();
        }
    }
    assert!(found > 0, "no forced decision in any scenario");
}

#[test]
fn stop_ends_the_search_between_iterations() {
    let m = after("system-demo", 5, 30);
    let mut asked = 0;
    let r = m
        .best_command(
            &SearchConfig {
                iterations: 1000,
                ..quick(1)
            },
            &mut || {
                asked += 1;
                asked > 5
            },
        )
        .unwrap();
    assert_eq!((r.iterations, r.stopped), (6, Stopped::Time));
    assert!(m.legal_commands().contains(&r.command));
    let all = m.best_command(&quick(1), &mut || false).unwrap();
    assert_eq!((all.iterations, all.stopped), (24, Stopped::Iterations));
}

/// Issue 33: a search is bounded in memory. With `max_tree_bytes` it stops when its
/// tree would pass the bound (fewer iterations than asked, `Stopped::Memory`) and still
/// answers; a bound it does not reach changes nothing. (That the estimate it counts is
/// the heap the tree really holds: `tests/search_memory.rs`.)
#[test]
fn a_search_stops_at_its_memory_bound_and_answers() {
    // Meuse Argonne's set-up: hundreds of placements at every node.
    let m = Match::new_builtin("meuse-argonne", 1).unwrap();
    let budget = 1 << 20;
    let cfg = SearchConfig {
        iterations: SearchConfig::MAX_ITERATIONS,
        max_tree_bytes: Some(budget),
        ..quick(3)
    };
    let r = m.best_command(&cfg, &mut || false).unwrap();
    assert_eq!(r.stopped, Stopped::Memory);
    assert!(
        r.iterations > 10 && r.iterations < 10_000,
        "{}",
        r.iterations
    );
    assert!(
        r.tree_bytes <= budget && r.tree_bytes > budget / 2,
        "{} bytes",
        r.tree_bytes
    );
    assert!(m.legal_commands().contains(&r.command));
    // The same search within a bound it does not reach, and without one: the same.
    let few = SearchConfig {
        iterations: r.iterations / 2,
        ..quick(3)
    };
    let free = m.best_command(&few, &mut || false).unwrap();
    let bounded = m
        .best_command(
            &SearchConfig {
                max_tree_bytes: Some(budget),
                ..few
            },
            &mut || false,
        )
        .unwrap();
    assert_eq!(free, bounded);
    assert_eq!(free.stopped, Stopped::Iterations);
    assert!(free.tree_bytes < r.tree_bytes);
    // Through the JSON of every binding, with the reason.
    let j = DynMatch::think(&m, &cfg, &mut || false, 4).unwrap();
    assert_eq!(j["stopped"], "memory", "{j}");
    assert_eq!(j["tree_bytes"], r.tree_bytes, "{j}");
}

#[test]
fn search_refuses_bad_settings_a_finished_game_and_a_pending_chance() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let bad = [
        SearchConfig {
            iterations: 0,
            ..SearchConfig::default()
        },
        SearchConfig {
            exploration: f64::NAN,
            ..SearchConfig::default()
        },
        SearchConfig {
            exploration: -1.0,
            ..SearchConfig::default()
        },
        SearchConfig {
            widening: 0.0,
            ..SearchConfig::default()
        },
        SearchConfig {
            rollout: SearchConfig::MAX_ROLLOUT + 1,
            ..SearchConfig::default()
        },
        SearchConfig {
            max_priors: 0,
            ..SearchConfig::default()
        },
        SearchConfig {
            max_tree_bytes: Some(SearchConfig::MIN_TREE_BYTES - 1),
            ..SearchConfig::default()
        },
    ];
    for cfg in bad {
        let e = m.best_command(&cfg, &mut || false).unwrap_err();
        assert!(matches!(e, SearchError::Config { .. }), "{cfg:?}: {e}");
    }
    assert!(matches!(
        SearchConfig::from_json(r#"{"iterations": 5, "iterations": 6}"#),
        Err(SearchError::Json(_))
    ));
    assert!(matches!(
        SearchConfig::from_json(r#"{"depth": 5}"#),
        Err(SearchError::Json(_))
    ));
    assert!(matches!(
        SearchConfig::from_json("[1]"),
        Err(SearchError::Json(_))
    ));
    assert!(matches!(
        SearchConfig::from_json(r#"{"iterations": 0}"#),
        Err(SearchError::Config {
            field: "iterations",
            ..
        })
    ));
    assert_eq!(
        SearchConfig::from_json("{}").unwrap(),
        SearchConfig::default()
    );
    assert_eq!(
        SearchConfig::from_json(r#"{"max_tree_bytes": 65536}"#)
            .unwrap()
            .max_tree_bytes,
        Some(65536)
    );
    assert_eq!(
        SearchConfig::from_json(r#"{"max_tree_bytes": null}"#).unwrap(),
        SearchConfig::default()
    );
    assert!(matches!(
        SearchConfig::from_json(r#"{"max_tree_bytes": 1000}"#),
        Err(SearchError::Config {
            field: "max_tree_bytes",
            ..
        })
    ));

    let mut over = Match::new_builtin("system-demo", 2).unwrap();
    over.playout(&mut rng_from_seed(3), usize::MAX);
    assert_eq!(
        over.best_command(&quick(1), &mut || false),
        Err(SearchError::NoDecision)
    );

    // A command waiting for a die roll in explicit chance mode: chance decides first.
    let mut c = after("system-demo", 4, 0);
    c.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut agent = rng_from_seed(8);
    while c.chance_node().is_none() {
        let cmd = c.random_command(&mut agent).unwrap();
        c.apply(&cmd).unwrap();
    }
    assert_eq!(
        c.best_command(&quick(1), &mut || false),
        Err(SearchError::ChancePending)
    );
}

#[test]
fn the_evaluation_is_a_probability_shared_by_the_sides_and_exact_at_the_end() {
    for name in Fm::builtin_names() {
        let mut m = Match::new_builtin(name, 6).unwrap();
        let mut agent = rng_from_seed(60);
        let sc = m.scenario_arc();
        for _ in 0..400 {
            let s = m.state();
            let (a, b) = (ai::evaluate(&sc, s, Side::A), ai::evaluate(&sc, s, Side::B));
            assert!((0.0..=1.0).contains(&a), "{name}: {a}");
            assert!((a + b - 1.0).abs() < 1e-12, "{name}");
            if m.is_over() {
                break;
            }
            let c = agents::random(&sc, s, &mut agent).unwrap();
            m.apply(&c).unwrap();
        }
        m.playout(&mut agent, usize::MAX);
        let want = match m.winner() {
            Some(Side::A) => 1.0,
            Some(Side::B) => 0.0,
            None => 0.5,
        };
        assert_eq!(ai::evaluate(&sc, m.state(), Side::A), want, "{name}");
        assert_eq!(Fm::evaluate(&sc, m.state(), Side::B), 1.0 - want, "{name}");
    }
}

/// Strength is measured by scripts/strength.sh; this only checks that the search
/// prefers a position its evaluation prefers when one command decides: the objectives
/// and the strength it counts are those of the scenario's victory conditions.
#[test]
fn the_evaluation_counts_objectives_from_the_victory_conditions() {
    let sc = fm_core::Scenario::builtin("meuse-argonne").unwrap();
    let obj = ai::objectives(&sc);
    assert_eq!(obj.len(), 1);
    assert_eq!(obj[0].side, Side::A);
    assert_eq!(obj[0].hexes, vec!["1803".parse().unwrap()]);
    let vimy = fm_core::Scenario::builtin("vimy-ridge").unwrap();
    assert_eq!(
        ai::objectives(&vimy).len(),
        3,
        "supply hex, Vimy, the peaks"
    );
    let suez = fm_core::Scenario::builtin("suez-1916").unwrap();
    let p = fm_core::suez_1916::params(&suez).unwrap();
    assert_eq!(ai::objectives(&suez).len(), p.victory_hexes.len());
    let demo = fm_core::Scenario::builtin("system-demo").unwrap();
    let o = ai::objectives(&demo);
    assert_eq!((o.len(), o[0].need), (1, 2), "hold 2 of 3 at the end");
}
