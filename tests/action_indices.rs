//! Every legal command of either rules system has an action index (issue 30, item 1):
//! at every decision of random games of every built-in scenario of both systems,
//! `legal_indices` is exactly the set of the legal commands' indices, each legal
//! command has one, each legal index decodes to a legal command, the random agent
//! (and so `sample_legal_action`) finds an index whenever a command is legal, and the
//! default factored action space (Huzzah!'s two-digit `Radix`) relabels exactly those
//! indices.
//!
//! Huzzah!'s encoding is exact: `index_to_command(command_to_index(c)) == c` for every
//! listed command, so there are as many legal indices as legal commands. Fire &
//! Movement's is exact too but for its retreats, whose index names the unit and the hex
//! it ends on (docs/protocol.md, "Integer command encoding"): two retreats of one unit
//! ending on one hex share an index, which decodes to the first of them listed.
//!
//! Games are driven by `Game::random_command_memo` (the random agent) with seeds from
//! proptest; a failure names the scenario, the seeds and the command number.

use fm_core::huzzah::Huzzah;
use fm_core::{Fm, Game, GameMatch};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

fn config(cases: u32) -> ProptestConfig {
    let base = ProptestConfig::default();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let rng_seed = match base.rng_seed {
        RngSeed::Random if std::env::var_os("PROPTEST_RNG_SEED").is_none() => {
            RngSeed::Fixed(0x00f1_2e00_0000_0030)
        }
        s => s,
    };
    ProptestConfig {
        cases,
        rng_seed,
        failure_persistence: None,
        max_shrink_iters: 4,
        ..base
    }
}

/// Whether two listed commands may share an index: Fire & Movement's retreats of one
/// unit ending on one hex.
trait Sharing: Game {
    fn may_share(c: &Self::Command) -> bool;
    /// Whether decoding index `i` is cheap enough to try every legal one (Fire &
    /// Movement's move indices each run the unit's search: a sample is decoded).
    fn cheap(c: &Self::Command) -> bool;
}

impl Sharing for Huzzah {
    fn may_share(_: &Self::Command) -> bool {
        false
    }
    fn cheap(_: &Self::Command) -> bool {
        true
    }
}

impl Sharing for Fm {
    fn may_share(c: &Self::Command) -> bool {
        matches!(c, fm_core::Command::Retreat { .. })
    }
    fn cheap(c: &Self::Command) -> bool {
        !matches!(c, fm_core::Command::Move { .. })
    }
}

/// The checks at one decision of `m`; `k` the command number, for messages.
fn check_decision<G: Sharing>(m: &GameMatch<G>, at: &str, probe: u64)
where
    G::Command: Hash + Eq + Debug,
{
    let (sc, s) = (m.scenario(), m.state());
    let legal = G::legal_commands(sc, s);
    let indices = G::legal_indices_memo(sc, s, &mut G::Memo::default());
    let n = G::action_space_size(sc);
    assert!(
        indices.windows(2).all(|w| w[0] < w[1]),
        "{at}: legal indices not ascending and unique"
    );
    assert!(indices.iter().all(|&i| i < n), "{at}: an index past {n}");
    let mut by_index: BTreeMap<usize, Vec<&G::Command>> = BTreeMap::new();
    for c in &legal {
        let i = G::command_to_index(sc, s, c)
            .unwrap_or_else(|| panic!("{at}: the legal {c:?} has no action index"));
        by_index.entry(i).or_default().push(c);
    }
    let of_commands: Vec<usize> = by_index.keys().copied().collect();
    assert_eq!(
        of_commands, indices,
        "{at}: legal_indices is not the set of the legal commands' indices"
    );
    let listed: HashSet<&G::Command> = legal.iter().collect();
    assert_eq!(listed.len(), legal.len(), "{at}: a command listed twice");
    for (k, (&i, cs)) in by_index.iter().enumerate() {
        if cs.len() > 1 {
            assert!(
                cs.iter().all(|c| G::may_share(c)),
                "{at}: {cs:?} share index {i}"
            );
        }
        // Every decoded legal index is the first listed command of that index.
        if cs.iter().all(|c| G::cheap(c)) || (k as u64 + probe) % 16 == 0 {
            let back = G::index_to_command(sc, s, i)
                .unwrap_or_else(|| panic!("{at}: legal index {i} decodes to nothing"));
            assert_eq!(&back, cs[0], "{at}: index {i} decodes to another command");
        }
    }
    // The random agent draws a legal command whenever one is legal, and it has an index.
    let mut rng = fm_core::rng_from_seed(probe);
    let drawn = G::random_command_memo(sc, s, &mut G::Memo::default(), &mut rng);
    assert_eq!(drawn.is_some(), !legal.is_empty(), "{at}: the random agent");
    if let Some(c) = drawn {
        let i = G::command_to_index(sc, s, &c);
        assert!(
            i.is_some_and(|i| indices.binary_search(&i).is_ok()),
            "{at}: the random agent's {c:?} has no legal index"
        );
    }
    // The factored action space relabels exactly the legal indices.
    for &i in &indices {
        let seq = G::flat_to_factored(sc, i)
            .unwrap_or_else(|e| panic!("{at}: legal index {i} has no sequence: {e}"));
        assert_eq!(G::factored_to_flat(sc, &seq), Ok(i), "{at}: {seq:?}");
    }
    let heads = G::factored_options_memo(sc, s, &mut G::Memo::default(), &[])
        .unwrap_or_else(|e| panic!("{at}: no heads: {e}"));
    assert_eq!(heads.is_empty(), indices.is_empty(), "{at}: factored heads");
}

/// Plays a random game of `sc` (match seed `seed`, agent seed `agent`), checking every
/// decision.
fn play<G: Sharing>(name: &str, sc: Arc<G::Scenario>, seed: u64, agent: u64, max: usize)
where
    G::Command: Hash + Eq + Debug,
{
    let mut m = GameMatch::<G>::new(sc, seed);
    let mut rng = fm_core::rng_from_seed(agent);
    for k in 0..max {
        let at = format!("{name} seed {seed} agent {agent}, before command #{k}");
        check_decision(&m, &at, agent ^ k as u64);
        let Some(c) = m.random_command(&mut rng) else {
            assert!(m.is_over(), "{at}: nothing legal, but the game goes on");
            return;
        };
        // Applied by its index, as `sample_legal_action` and `apply_action` do.
        let i = G::command_to_index(m.scenario(), m.state(), &c).expect("checked above");
        m.apply_index(i)
            .unwrap_or_else(|e| panic!("{at}: index {i} ({c:?}) refused: {e}"));
    }
}

/// A built-in Huzzah! scenario's JSON changed by `edit`.
fn huzzah(
    name: &str,
    edit: impl FnOnce(&mut serde_json::Value),
) -> Arc<fm_core::huzzah::scenario::Scenario> {
    let text = match name {
        "huzzah-firefight" => include_str!("../fm-core/scenarios/huzzah-firefight.json"),
        _ => include_str!("../fm-core/scenarios/huzzah-encounter.json"),
    };
    let mut v: serde_json::Value = serde_json::from_str(text).expect("JSON");
    v.as_object_mut().expect("object").remove("system");
    edit(&mut v);
    let data = fm_core::huzzah::scenario::from_json_value(v).expect("parses");
    Arc::new(fm_core::huzzah::scenario::validate(data).expect("valid"))
}

/// The built-in firefight started in side b's Orders phase of turn 3, with disordered,
/// routing, battered and smoking units, an attached officer and a lost one.
fn mid_battle() -> Arc<fm_core::huzzah::scenario::Scenario> {
    huzzah("huzzah-firefight", |v| {
        v["id"] = "firefight-mid-battle".into();
        v["sides"]["a"]["officers"][1]["position"] = serde_json::json!([800, 460]);
        v["sides"]["b"]["officers"][1]
            .as_object_mut()
            .expect("officer")
            .remove("position");
        v["start"] = serde_json::json!({
            "turn": 3,
            "phase": {"phase": "orders", "side": "b"},
            "units": [
                {"unit": "fr-1", "status": "disordered", "lost": [0], "ranks": [3],
                 "hits": 1, "lost_this_turn": 1, "fired": true},
                {"unit": "fr-3", "charger": true},
                {"unit": "fr-guns", "fired": true},
                {"unit": "br-2", "status": "routing", "lost": [3], "ranks": [2, 1]}
            ],
            "officers": [
                {"officer": "fr-div-gen", "attached": "fr-2"},
                {"officer": "br-div-gen", "lost_turn": 2}
            ],
            "armies": {
                "a": {"skirmish_passed": true, "skirmish_won": true, "artillery_passed": true,
                      "skirmish_factor": 7},
                "b": {"skirmish_passed": false, "artillery_passed": false}
            }
        });
    })
}

proptest! {
    #![proptest_config(config(2))]

    /// Whole random games of both built-in Huzzah! scenarios, each with the missing
    /// rules decided by command and answered by the stand-ins: four games a case.
    #[test]
    fn every_legal_huzzah_command_has_its_own_index(
        seed in any::<u64>(),
        agent in any::<u64>(),
    ) {
        for (name, missing) in [
            ("huzzah-firefight", "decide"),
            ("huzzah-firefight", "stand_in"),
            ("huzzah-encounter", "decide"),
            ("huzzah-encounter", "stand_in"),
        ] {
            let sc = huzzah(name, |v| {
                v["id"] = format!("{name}-{missing}").into();
                v["missing_rules"] = missing.into();
            });
            play::<Huzzah>(&format!("{name} ({missing})"), sc, seed, agent, 20_000);
        }
    }
}

proptest! {
    #![proptest_config(config(2))]

    /// Random games of every built-in Fire & Movement scenario (the first 400 commands
    /// of the long ones): four games a case.
    #[test]
    fn every_legal_fire_and_movement_command_has_an_index(
        seed in any::<u64>(),
        agent in any::<u64>(),
    ) {
        for name in fm_core::Scenario::builtin_names() {
            let sc = Arc::new(fm_core::Scenario::builtin(name).expect("built-in"));
            let max = if name == "system-demo" { 5_000 } else { 400 };
            play::<Fm>(name, sc, seed, agent, max);
        }
    }
}

/// A fire with chosen bases (page 12) is listed in random firefights, and it is played
/// by its own index: the menu's fewer-bases fire decodes to itself, and applying the
/// index applies it.
#[test]
fn a_fire_with_chosen_bases_is_played_by_its_index() {
    use fm_core::huzzah::command::Command;
    let sc = huzzah("huzzah-firefight", |_| {});
    let mut found = 0;
    for seed in 0..40u64 {
        let mut m = GameMatch::<Huzzah>::new(sc.clone(), seed);
        let mut rng = fm_core::rng_from_seed(seed);
        while !m.is_over() {
            let legal = m.legal_commands();
            let group = legal
                .iter()
                .find(|c| matches!(c, Command::Fire { bases: Some(_), .. }));
            let c = match group {
                Some(c) if found < 8 => {
                    found += 1;
                    let i = Huzzah::command_to_index(m.scenario(), m.state(), c).expect("an index");
                    assert_eq!(m.index_to_command(i).as_ref(), Some(c));
                    assert!(m.legal_indices().contains(&i));
                    let mut twin = m.clone();
                    let by_index = m.apply_index(i).expect("applied").to_vec();
                    assert_eq!(twin.apply(c).expect("applied"), by_index.as_slice());
                    continue;
                }
                _ => m.random_command(&mut rng).expect("a command"),
            };
            m.apply(&c).expect("legal");
        }
    }
    assert!(
        found >= 8,
        "only {found} fires with chosen bases in 40 firefights"
    );
}

/// Battles of [`the_sampled_action_is_never_none_while_a_command_is_legal`]: 200 by
/// default (100 of each built-in scenario, some 12 s of CPU in the test profile);
/// issue 30's done-when is 1,000, about a minute (`FM_SAMPLED_BATTLES=1000 cargo test
/// -p fm-core --test suite sampled_action`, docs/testing.md).
fn sampled_battles() -> u64 {
    std::env::var("FM_SAMPLED_BATTLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

/// The random agent as the bindings' `sample_legal_action` runs it
/// (`DynMatch::random_action`: the index of a random legal command, `None` if that
/// command had none): never `None` while a command is legal, and applied by that
/// index, in whole random battles, alternately of each built-in Huzzah! scenario (one
/// thread a scenario).
#[test]
fn the_sampled_action_is_never_none_while_a_command_is_legal() {
    let battles = sampled_battles();
    let names = fm_core::huzzah::scenario::BUILTIN;
    let played: u64 = std::thread::scope(|scope| {
        let threads: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                scope.spawn(move || {
                    let mut played = 0;
                    let mine = (0..battles).filter(|b| *b % names.len() as u64 == k as u64);
                    for seed in mine {
                        let mut m = fm_core::any::new_match(name, seed).expect("built-in");
                        let mut rng = fm_core::rng_from_seed(seed ^ 0x5a);
                        let mut n = 0;
                        while !m.is_over() {
                            let i = m.random_action(&mut rng).unwrap_or_else(|| {
                                panic!(
                                    "{name} seed {seed} #{n}: None with {:?} legal",
                                    m.legal_indices()
                                )
                            });
                            m.apply_index(i).expect("legal");
                            n += 1;
                            assert!(n < 20_000, "{name} seed {seed}: no end");
                        }
                        assert_eq!(m.random_action(&mut rng), None, "{name} seed {seed}");
                        played += 1;
                    }
                    played
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a thread"))
            .sum()
    });
    assert_eq!(played, battles);
}

/// A battle that starts mid-way keeps the encoding exact too, from its first decision.
#[test]
fn every_legal_command_of_a_battle_started_mid_way_has_its_own_index() {
    let sc = mid_battle();
    for seed in 0..4u64 {
        play::<Huzzah>(
            "huzzah-firefight (mid-battle)",
            sc.clone(),
            seed,
            seed + 1,
            20_000,
        );
    }
}

/// The sizes docs/huzzah.md ("Action indices") and docs/learning.md give.
#[test]
fn the_documented_huzzah_sizes() {
    for (name, size, steps, b) in [
        ("huzzah-firefight", 1_231, vec![35, 36], 4),
        ("huzzah-encounter", 6_776, vec![82, 83], 4),
    ] {
        let m = GameMatch::<Huzzah>::new_builtin(name, 1).expect("built-in");
        assert_eq!(Huzzah::action_space_size(m.scenario()), size, "{name}");
        assert_eq!(m.factored_sizes(), steps, "{name}");
        assert_eq!(
            fm_core::huzzah::legal::most_bases(m.scenario()),
            b,
            "{name}"
        );
    }
}
