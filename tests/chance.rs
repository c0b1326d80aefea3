//! Explicit chance mode (issue 18): every draw of a command becomes a chance node with
//! its outcomes, a chance command picks each, and the result is exactly the engine's
//! with those dice; saves, loads and undos keep it.

use fm_core::{any, apply, ChanceMode, Command, Event, Match, RuleError};
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn agent(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Plays random commands, resolving chance nodes with outcomes from `dice`, until `n`
/// commands were logged or the game ends.
fn play_explicit(
    m: &mut Match,
    a: &mut Xoshiro256PlusPlus,
    dice: &mut Xoshiro256PlusPlus,
    n: usize,
) {
    let target = m.log().len() + n;
    while m.log().len() < target && !m.is_over() {
        if let Some(node) = m.chance_node() {
            let k = dice.next_u32() % node.outcomes;
            m.apply_chance(k).expect("an outcome in range is accepted");
            continue;
        }
        let c = m.random_command(a).expect("a legal command");
        m.apply(&c).expect("a listed command is accepted");
    }
}

/// A generator whose `next_u32` gives the chosen outcomes in order: the engine's
/// rejection draw returns an outcome `k < n` for the value `k`, so applying with it is
/// applying with those dice.
struct Dice(std::vec::IntoIter<u32>);

impl RngCore for Dice {
    fn next_u32(&mut self) -> u32 {
        self.0.next().expect("no more scripted outcomes")
    }
    fn next_u64(&mut self) -> u64 {
        u64::from(self.next_u32())
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        unreachable!("the engine draws by next_u32")
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand_core::Error> {
        unreachable!("the engine draws by next_u32")
    }
}

#[test]
fn explicit_outcomes_are_the_engines_dice() {
    for name in ["system-demo", "meuse-argonne", "vimy-ridge", "suez-1916"] {
        let mut m = Match::new_builtin(name, 4).unwrap();
        m.set_chance_mode(ChanceMode::Explicit).unwrap();
        let before = m.clone();
        play_explicit(&mut m, &mut agent(1), &mut agent(2), 400);
        let sc = m.scenario().clone();
        let mut s = before.state().clone();
        let mut drew = 0;
        for (k, e) in m.log().iter().enumerate() {
            let outcomes = e.chance.clone().unwrap_or_default();
            drew += outcomes.len();
            let mut dice = Dice(outcomes.into_iter());
            let events = apply(&sc, &s, &e.command, &mut dice).expect("accepted");
            assert_eq!(
                events, e.events,
                "{name} #{k}: the same events with the same dice"
            );
            assert!(dice.0.next().is_none(), "{name} #{k}: every outcome drawn");
            s.apply_events(&sc, &events);
        }
        assert_eq!(&s, m.state(), "{name}");
        assert!(drew > 0, "{name}: the game drew");
        // The generator was never used.
        assert_eq!(m.rng_state(), before.rng_state(), "{name}");
        // The save replays it exactly.
        let text = m.save();
        let back = Match::load(&text).expect("an explicit-mode save loads");
        assert_eq!(back.state(), m.state());
        assert_eq!(back.save(), text);
        assert_eq!(back.chance_mode(), ChanceMode::Explicit);
    }
}

/// A match waiting at its first chance node, and the match before that command.
fn at_chance() -> (Match, Match) {
    let mut m = Match::new_builtin("system-demo", 2).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut a = agent(3);
    loop {
        let c = m.random_command(&mut a).expect("a command");
        let before = m.clone();
        let events = m.apply(&c).unwrap().to_vec();
        if m.chance_node().is_some() {
            assert!(events.is_empty(), "nothing happens before the dice");
            assert_eq!(m.log().len(), before.log().len(), "nothing logged yet");
            assert_eq!(m.state(), before.state());
            return (m, before);
        }
    }
}

#[test]
fn a_pending_chance_node_refuses_everything_else_and_undo_takes_it_back() {
    let (mut m, before) = at_chance();
    let node = m.chance_node().unwrap();
    assert!(node.outcomes >= 2);
    assert!((node.probability() * f64::from(node.outcomes) - 1.0).abs() < 1e-12);
    assert!(m.legal_commands().is_empty() && m.legal_indices().is_empty());
    let refused: RuleError = m.apply(&Command::Done).unwrap_err();
    assert_eq!(refused.rule, "chance");
    let out = m.apply_chance(node.outcomes).unwrap_err();
    assert_eq!(out.rule, "input");
    assert_eq!(
        m.chance_node(),
        Some(node.clone()),
        "a refused outcome changes nothing"
    );
    assert_eq!(
        m.set_chance_mode(ChanceMode::Sampled).unwrap_err().rule,
        "chance"
    );
    // A save keeps the waiting command; a load waits at the same node.
    let back = Match::load(&m.save()).expect("a save waiting for chance loads");
    assert_eq!(back.chance_node(), Some(node));
    assert_eq!(back.save(), m.save());
    assert!(m.undo());
    assert_eq!(m.chance_node(), None);
    assert_eq!(m.save(), before.save());
    // No node: no chance command.
    assert_eq!(m.apply_chance(0).unwrap_err().rule, "chance");
}

#[test]
fn each_outcome_of_a_node_leads_somewhere_and_the_same_outcome_to_the_same_place() {
    let (m, _) = at_chance();
    let node = m.chance_node().unwrap();
    let finish = |k: u32| -> (Vec<Event>, u64) {
        let mut c = m.clone();
        let mut events = c.apply_chance(k).unwrap().to_vec();
        // Later draws of the command: always the first outcome.
        while c.chance_node().is_some() {
            events = c.apply_chance(0).unwrap().to_vec();
        }
        (events, c.state().hash())
    };
    let results: Vec<_> = (0..node.outcomes).map(finish).collect();
    assert_eq!(results, (0..node.outcomes).map(finish).collect::<Vec<_>>());
    let mut distinct: Vec<u64> = results.iter().map(|r| r.1).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 1, "the outcomes of a draw differ");
}

#[test]
fn sampled_mode_logs_are_unchanged_and_commands_without_draws_match() {
    let mut a = Match::new_builtin("system-demo", 6).unwrap();
    let mut b = a.clone();
    b.set_chance_mode(ChanceMode::Explicit).unwrap();
    let (mut ra, mut rb) = (agent(5), agent(5));
    // Set-up draws nothing: both modes log the same entries, without `chance`.
    for _ in 0..6 {
        let c = a.random_command(&mut ra).unwrap();
        assert_eq!(b.random_command(&mut rb).unwrap(), c);
        a.apply(&c).unwrap();
        b.apply(&c).unwrap();
    }
    assert_eq!(a.log().to_vec(), b.log().to_vec());
    assert!(!a.save().contains("\"chance"));
}

#[test]
fn malformed_outcomes_in_a_save_are_refused() {
    let mut m = Match::new_builtin("system-demo", 4).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    play_explicit(&mut m, &mut agent(1), &mut agent(2), 200);
    let good: serde_json::Value = serde_json::from_str(&m.save()).unwrap();
    let k = good["log"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e.get("chance").is_some())
        .expect("a command with chance outcomes");
    let mut cases = Vec::new();
    let mut extra = good.clone();
    extra["log"][k]["chance"]
        .as_array_mut()
        .unwrap()
        .push(0.into());
    cases.push(("an outcome too many", extra));
    let mut fewer = good.clone();
    fewer["log"][k]["chance"].as_array_mut().unwrap().pop();
    cases.push(("an outcome too few", fewer));
    let mut big = good.clone();
    big["log"][k]["chance"][0] = 1000.into();
    cases.push(("an outcome out of range", big));
    let mut pending = good.clone();
    pending["chance_mode"] = serde_json::Value::Null;
    cases.push(("a mode that is not one", pending));
    for (what, bad) in cases {
        assert!(Match::load(&bad.to_string()).is_err(), "{what}");
    }
}

#[test]
fn huzzah_dice_are_chance_nodes_too_and_playouts_resolve_them() {
    let mut m = any::new_match("huzzah-encounter", 3).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let before_rng = m.rng_state();
    let n = m.playout(&mut agent(4), 300);
    assert!(n > 0);
    let save = m.save();
    assert!(
        save.contains("\"chance\""),
        "Huzzah! rolled its 2D6 as chance nodes"
    );
    let back = any::load_match(&save).expect("loads");
    assert_eq!(back.save(), save);
    assert_eq!(m.rng_state(), before_rng, "the generator was never used");
    // A chance node of Huzzah! is one die.
    let mut c = any::new_match("huzzah-encounter", 3).unwrap();
    c.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut a = agent(9);
    for _ in 0..2000 {
        if let Some(node) = c.chance_node() {
            assert_eq!(node.outcomes, 6);
            return;
        }
        if c.playout(&mut a, 1) == 0 {
            break;
        }
    }
    panic!("no die rolled");
}

// ---------------------------------------------------------------- issue 30: named rolls

type HzMatch = fm_core::GameMatch<fm_core::huzzah::Huzzah>;

/// Plays `m` (explicit mode) for up to `commands` commands with random commands and
/// outcomes, calling `check` with each completed command's events (as JSON) and the
/// labels and outcomes of its nodes, in order.
fn walk_labelled<G: fm_core::Game>(
    m: &mut fm_core::GameMatch<G>,
    seed: u64,
    commands: usize,
    mut check: impl FnMut(&[serde_json::Value], &[(fm_core::ChanceRoll, u32)]),
) {
    let (mut a, mut dice) = (agent(seed), agent(seed + 1));
    let mut nodes = Vec::new();
    let mut done = 0;
    while done < commands && !m.is_over() {
        if let Some(node) = m.chance_node() {
            let roll = node.roll.expect("every draw names its roll");
            let k = dice.next_u32() % node.outcomes;
            nodes.push((roll, k));
            let events = m.apply_chance(k).expect("an outcome in range");
            if !events.is_empty() {
                let ev: Vec<_> = events
                    .iter()
                    .map(|e| serde_json::to_value(e).unwrap())
                    .collect();
                check(&ev, &nodes);
                nodes.clear();
            }
            continue;
        }
        assert!(nodes.is_empty(), "a command's nodes end with its events");
        let c = m.random_command(&mut a).expect("a legal command");
        let events = m.apply(&c).expect("a listed command");
        if !events.is_empty() {
            let ev: Vec<_> = events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap())
                .collect();
            check(&ev, &[]);
        }
        done += 1;
    }
}

/// Two draws per 2D6 roll, die 1 then die 2 of the same roll.
fn check_dice(nodes: &[(fm_core::ChanceRoll, u32)]) {
    let mut k = 0;
    while k < nodes.len() {
        let r = &nodes[k].0;
        match r.dice.as_str() {
            "2d6" => {
                assert_eq!(r.die, 1, "{r:?}");
                let second = &nodes[k + 1].0;
                assert_eq!(second.die, 2);
                assert_eq!((&second.roll, &second.about), (&r.roll, &r.about));
                k += 2;
            }
            _ => {
                assert_eq!(r.die, 1, "{r:?}");
                k += 1;
            }
        }
    }
}

#[test]
fn explicit_from_the_start_makes_the_huzzah_opening_chance_nodes() {
    let mut m =
        HzMatch::new_builtin_with_chance("huzzah-encounter", 5, ChanceMode::Explicit).unwrap();
    assert_eq!(m.chance_mode(), ChanceMode::Explicit);
    assert!(m.opening_events().is_empty());
    assert!(m.legal_commands().is_empty());
    // Before the opening no side decides, and the battle is not over.
    assert_eq!(m.pending(), fm_core::huzzah::state::Pending::Opening);
    assert_eq!(fm_core::any::DynMatch::pending_kind(&m), "opening");
    assert!(!m.is_over());
    let node = m.chance_node().expect("the roll-off waits");
    let roll = node.roll.clone().unwrap();
    assert_eq!(
        (roll.roll.as_str(), roll.dice.as_str(), roll.die),
        ("roll_off", "2d6", 1)
    );
    assert_eq!(roll.about["side"], "a");
    assert_eq!(node.outcomes, 6);
    assert!(!m.undo(), "an opening waiting is no command to take back");
    assert_eq!(m.chance_node(), Some(node));
    // A save of the waiting opening loads waiting at the same draw.
    m.apply_chance(2).unwrap();
    let save = m.save();
    assert!(
        save.contains("\"chance_pending\":{\"outcomes\":[2]}"),
        "{save}"
    );
    let back = HzMatch::load(&save).unwrap();
    assert_eq!(back.chance_node(), m.chance_node());
    assert_eq!(back.save(), save);
    assert_eq!(m.chance_node().unwrap().roll.unwrap().die, 2);
    // Resolve the roll-off and the placement rolls (ties roll again).
    let mut outcomes = vec![2];
    let mut dice = agent(6);
    let mut labels = vec![roll];
    while let Some(node) = m.chance_node() {
        labels.push(node.roll.unwrap());
        let k = dice.next_u32() % node.outcomes;
        outcomes.push(k);
        let events = m.apply_chance(k).unwrap().to_vec();
        if m.chance_node().is_none() {
            assert_eq!(
                events,
                m.opening_events(),
                "the last outcome gives the opening"
            );
        }
    }
    let opening: Vec<_> = m
        .opening_events()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(opening[0]["type"], "rolled_off");
    let face = |k: usize| outcomes[k] + 1;
    assert_eq!(opening[0]["a"], serde_json::json!([face(0), face(1)]));
    assert_eq!(opening[0]["b"], serde_json::json!([face(2), face(3)]));
    assert_eq!(labels[2].about["side"], "b");
    // Every roll of the opening is a roll-off or a placement roll, named with its side.
    let placements = opening
        .iter()
        .filter(|e| e["type"] == "placement_rolled")
        .count();
    let named = labels.iter().filter(|l| l.roll == "placement").count();
    assert_eq!(named, 2 * placements);
    assert!(labels
        .iter()
        .all(|l| l.roll == "roll_off" || l.roll == "placement"));
    check_dice(&labels.iter().map(|l| (l.clone(), 0)).collect::<Vec<_>>());
    // The generator drew nothing; the save records the opening's outcomes.
    assert_eq!(m.rng_state(), fm_core::RngState::of_seed(5));
    let save = m.save();
    assert!(save.contains("\"opening_chance\""));
    let back = HzMatch::load(&save).unwrap();
    assert_eq!(back.state(), m.state());
    assert_eq!(back.save(), save);
    // Outcomes that do not fit the opening's draws are refused: out of range, one too
    // many, or none.
    let edit = |f: &dyn Fn(&mut Vec<serde_json::Value>)| {
        let mut v: serde_json::Value = serde_json::from_str(&save).unwrap();
        f(v["opening_chance"].as_array_mut().unwrap());
        v.to_string()
    };
    assert!(HzMatch::load(&edit(&|o| o[0] = 6.into())).is_err());
    assert!(HzMatch::load(&edit(&|o| o.push(0.into()))).is_err());
    assert!(HzMatch::load(&edit(&|o| o.clear())).is_err());
    // Sampled from the start is `new`.
    let s = HzMatch::new_builtin_with_chance("huzzah-encounter", 5, ChanceMode::Sampled).unwrap();
    assert_eq!(
        s.save(),
        HzMatch::new_builtin("huzzah-encounter", 5).unwrap().save()
    );
}

#[test]
fn every_huzzah_node_names_its_roll_and_fire_names_firer_and_target() {
    let mut m =
        HzMatch::new_builtin_with_chance("huzzah-encounter", 11, ChanceMode::Explicit).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut fires = 0;
    walk_labelled(&mut m, 12, 400, |events, nodes| {
        check_dice(nodes);
        for (r, _) in nodes {
            seen.insert(r.roll.clone());
        }
        for e in events {
            if e["type"] == "fire_resolved" {
                fires += 1;
                assert!(
                    nodes.iter().any(|(r, _)| r.roll.starts_with("fire")
                        && r.about["unit"] == e["unit"]
                        && r.about["target"] == e["target"]),
                    "a fire roll names {e}: {nodes:?}"
                );
            }
        }
        // The last two outcomes of a fire roll are its dice.
        let last_fire = events.iter().rev().find(|e| e["type"] == "fire_resolved");
        if let (Some(e), Some(n)) = (last_fire, nodes.len().checked_sub(2)) {
            if nodes[n].0.roll.starts_with("fire") && nodes[n].0.about["unit"] == e["unit"] {
                let dice = serde_json::json!([nodes[n].1 + 1, nodes[n + 1].1 + 1]);
                assert_eq!(e["test"]["dice"], dice);
            }
        }
    });
    assert!(fires > 0, "the walk fired");
    assert!(seen.contains("fire"), "{seen:?}");
    assert!(
        seen.contains("quality") && seen.contains("order"),
        "{seen:?}"
    );
    let save = m.save();
    assert_eq!(HzMatch::load(&save).unwrap().save(), save);
}

#[test]
fn fm_combat_die_is_named_with_the_attack() {
    let mut m = Match::new_builtin("system-demo", 3).unwrap();
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut combats = 0;
    walk_labelled(&mut m, 4, 400, |events, nodes| {
        check_dice(nodes);
        for e in events.iter().filter(|e| e["type"] == "combat_resolved") {
            combats += 1;
            let want = if e["kind"] == "ground" {
                "combat"
            } else {
                "bombardment"
            };
            let (r, k) = nodes
                .iter()
                .rev()
                .find(|(r, _)| r.roll == want)
                .unwrap_or_else(|| panic!("a {want} roll for {e}: {nodes:?}"));
            assert_eq!(r.dice, "1d6");
            assert!(r.about.contains_key("hex") && r.about.contains_key("defenders"));
            assert_eq!(e["die"], k + 1, "outcome k is face k + 1");
        }
        for (r, _) in nodes {
            assert!(
                ["combat", "bombardment", "marker_draw", "marker_allotment"]
                    .contains(&r.roll.as_str()),
                "{r:?}"
            );
        }
    });
    assert!(combats > 0, "the walk fought");
}

#[test]
fn a_waiting_command_is_in_the_information_state_and_a_determinization_waits_too() {
    use fm_core::Side;
    // The Huzzah! roll-off: the opening waits for 2d6 a side, thrown on the table.
    let fresh =
        HzMatch::new_builtin_with_chance("huzzah-encounter", 5, ChanceMode::Explicit).unwrap();
    let info = |m: &HzMatch, s: Side| m.information_state(s);
    assert!(
        info(&fresh, Side::A).ends_with(r#""pending":{"command":null,"drawn":[]}}"#),
        "{}",
        info(&fresh, Side::A)
    );
    let (mut two, mut four) = (fresh.clone(), fresh.clone());
    two.apply_chance(2).unwrap();
    four.apply_chance(4).unwrap();
    assert_eq!(two.chance_drawn(), Some(&[2][..]));
    assert_eq!(two.state(), four.state(), "the state waits unchanged");
    let size = fm_core::information_state_tensor_size(4);
    let tensor = |m: &HzMatch, s: Side| {
        let mut t = vec![0f32; size];
        m.information_state_tensor(s, &mut t).unwrap();
        t
    };
    for s in Side::BOTH {
        assert!(info(&two, s).ends_with(r#""pending":{"command":null,"drawn":[2]}}"#));
        assert_ne!(info(&two, s), info(&four, s), "dice are seen by both sides");
        assert_ne!(tensor(&two, s), tensor(&four, s));
        assert_ne!(tensor(&two, s), tensor(&fresh, s));
        assert_eq!(tensor(&two, s)[fm_core::infostate::INFO_TENSOR_HEADER], 0.5);
        // A determinization waits at the same draw, with the same record.
        let d = two.determinized(s, 9).unwrap();
        assert_eq!(d.chance_node(), two.chance_node());
        assert_eq!(d.chance_drawn(), Some(&[2][..]));
        assert_eq!(info(&d, s), info(&two, s));
        assert_eq!(tensor(&d, s), tensor(&two, s));
        let back = HzMatch::load(&d.save()).expect("a waiting determinization loads");
        assert_eq!(back.save(), d.save());
    }
    // Fire & Movement: a command waiting for its die (system-demo's first: a
    // bombardment of 0906).
    let (m, before) = at_chance();
    let side = m.state().active;
    let text = m.information_state(side);
    let (_, cmd) = text
        .rsplit_once(r#""pending":{"command":"#)
        .expect("the waiting command");
    assert_eq!(
        cmd,
        r#"{"type":"bombard","hex":"0906","markers":1},"drawn":[]}}"#
    );
    assert_ne!(text, before.information_state(side));
    for s in Side::BOTH {
        let d = m.determinized(s, 3).unwrap();
        assert_eq!(d.chance_node(), m.chance_node());
        assert_eq!(d.information_state(s), m.information_state(s));
        let back = Match::load(&d.save()).expect("a waiting determinization loads");
        assert_eq!(back.save(), d.save());
        let mut d2 = d.clone();
        while d2.chance_node().is_some() {
            d2.apply_chance(0).unwrap();
        }
        assert_eq!(d2.log().len(), 1, "the bombardment, resolved");
        let back = Match::load(&d2.save()).expect("its resolution loads");
        assert_eq!(back.save(), d2.save());
    }
}

/// The log's entries' `chance` lists.
fn chance_lists(save: &serde_json::Value) -> Vec<Option<serde_json::Value>> {
    save["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.get("chance").cloned())
        .collect()
}

fn refused(save: &serde_json::Value) -> String {
    match Match::load(&save.to_string()) {
        Ok(_) => panic!("loaded, but should be refused"),
        Err(e) => e.to_string(),
    }
}

/// Issue 33, finding 7: a save records when the chance mode changed (`chance_modes`,
/// save format 6) and is replayed in the mode of each command, so a mode edited after
/// the fact, outcomes dropped from an explicit-mode command or added to a sampled-mode
/// one are refused, each naming the field.
#[test]
fn a_save_edited_to_explicit_or_with_its_outcomes_dropped_is_refused() {
    // A sampled game whose commands drew from the generator.
    let mut s = Match::new_builtin("system-demo", 4).unwrap();
    play_explicit(&mut s, &mut agent(1), &mut agent(2), 200);
    let sampled: serde_json::Value = serde_json::from_str(&s.save()).unwrap();
    assert!(sampled.get("chance_modes").is_none());
    assert!(chance_lists(&sampled).iter().all(Option::is_none));
    let mut edited = sampled.clone();
    edited["chance_mode"] = "explicit".into();
    let e = refused(&edited);
    assert!(e.contains("chance_mode") && e.contains("explicit"), "{e}");
    // Claiming explicit mode from the start: the first command that drew has no
    // outcomes.
    edited["chance_modes"] = serde_json::json!([{"at": 0, "mode": "explicit"}]);
    let e = refused(&edited);
    assert!(
        e.contains(".chance") && e.contains("records no outcomes"),
        "{e}"
    );
    // A sampled match's save with a change to sampled, or one past the log.
    let mut same = sampled.clone();
    same["chance_modes"] = serde_json::json!([{"at": 0, "mode": "sampled"}]);
    assert!(refused(&same).contains("chance_modes[0].mode"));
    let n = sampled["log"].as_array().unwrap().len();
    let mut late = sampled.clone();
    late["chance_mode"] = "explicit".into();
    late["chance_modes"] = serde_json::json!([{"at": n + 1, "mode": "explicit"}]);
    assert!(refused(&late).contains("chance_modes[0].at"));
    late["chance_modes"] = serde_json::json!([{"at": n, "mode": "explicit", "by": 1}]);
    assert!(refused(&late).contains("chance_modes"));
    // The same at the end of the log is a real match's save: it loads.
    late["chance_modes"] = serde_json::json!([{"at": n, "mode": "explicit"}]);
    let m = Match::load(&late.to_string()).unwrap();
    assert_eq!(m.chance_mode(), ChanceMode::Explicit);

    // An explicit game: its record, then its outcomes dropped or its record dropped.
    let mut x = Match::new_builtin("system-demo", 4).unwrap();
    x.set_chance_mode(ChanceMode::Explicit).unwrap();
    play_explicit(&mut x, &mut agent(1), &mut agent(2), 200);
    let explicit: serde_json::Value = serde_json::from_str(&x.save()).unwrap();
    assert_eq!(
        explicit["chance_modes"],
        serde_json::json!([{"at": 0, "mode": "explicit"}])
    );
    let k = chance_lists(&explicit)
        .iter()
        .position(Option::is_some)
        .expect("a command with chance outcomes");
    let mut dropped = explicit.clone();
    dropped["log"][k].as_object_mut().unwrap().remove("chance");
    let e = refused(&dropped);
    assert!(
        e.contains(&format!("log[{k}].chance")) && e.contains("records no outcomes"),
        "{e}"
    );
    let mut no_record = explicit.clone();
    no_record.as_object_mut().unwrap().remove("chance_modes");
    let e = refused(&no_record);
    assert!(e.contains("chance_mode"), "{e}");
    no_record["chance_mode"] = serde_json::Value::Null;
    no_record.as_object_mut().unwrap().remove("chance_mode");
    let e = refused(&no_record);
    assert!(
        e.contains(&format!("log[{k}].chance")) && e.contains("sampled"),
        "{e}"
    );
    let mut empty = explicit.clone();
    let quiet = chance_lists(&explicit)
        .iter()
        .position(Option::is_none)
        .unwrap();
    empty["log"][quiet]["chance"] = serde_json::json!([]);
    assert!(refused(&empty).contains(&format!("log[{quiet}].chance")));
    // The unedited saves load, and save again the same.
    for good in [&sampled, &explicit] {
        let text = good.to_string();
        assert_eq!(Match::load(&text).unwrap().save(), text);
    }
}

/// A match's recorded changes of chance mode, as (command index, mode).
fn mode_changes(m: &Match) -> Vec<(usize, ChanceMode)> {
    m.chance_mode_changes()
        .iter()
        .map(|c| (c.at, c.mode))
        .collect()
}

/// A match that changes its chance mode mid-game saves the changes where they were
/// made, and loads exactly: the same log, state, hash, mode and changes, and the same
/// save. An undo past a change takes it back but keeps the mode, from then on.
#[test]
fn a_match_that_switches_chance_modes_saves_and_loads_exactly() {
    let mut m = Match::new_builtin("system-demo", 9).unwrap();
    let (mut a, mut dice) = (agent(3), agent(4));
    let mut at = Vec::new();
    for mode in [
        ChanceMode::Explicit,
        ChanceMode::Sampled,
        ChanceMode::Explicit,
    ] {
        play_explicit(&mut m, &mut a, &mut dice, 25);
        // A change back and forth between two commands is no change.
        m.set_chance_mode(ChanceMode::Explicit).unwrap();
        m.set_chance_mode(ChanceMode::Sampled).unwrap();
        m.set_chance_mode(mode).unwrap();
        at.push(m.log().len());
    }
    play_explicit(&mut m, &mut a, &mut dice, 25);
    assert!(
        !m.is_over(),
        "the test plays within the game: {at:?} {}",
        m.log().len()
    );
    assert_eq!(
        mode_changes(&m),
        vec![
            (at[0], ChanceMode::Explicit),
            (at[1], ChanceMode::Sampled),
            (at[2], ChanceMode::Explicit)
        ]
    );
    let lists = chance_lists(&serde_json::from_str(&m.save()).unwrap());
    assert!(lists[at[0]..at[1]].iter().any(Option::is_some));
    assert!(lists[at[1]..at[2]].iter().all(Option::is_none));
    assert!(lists[at[2]..].iter().any(Option::is_some));
    let text = m.save();
    let back = Match::load(&text).unwrap();
    assert_eq!(back.save(), text);
    assert_eq!(back.state().hash(), m.state().hash());
    assert_eq!(back.log().to_vec(), m.log().to_vec());
    assert_eq!(back.chance_mode(), ChanceMode::Explicit);
    assert_eq!(back.chance_mode_changes(), m.chance_mode_changes());
    assert_eq!(back.rng_state(), m.rng_state());
    // Waiting for an outcome, it saves and loads too.
    let mut w = m.clone();
    while w.chance_node().is_none() {
        let c = w.random_command(&mut a).unwrap();
        w.apply(&c).unwrap();
    }
    assert_eq!(Match::load(&w.save()).unwrap().save(), w.save());
    // Undo back before the last change: the mode stays explicit, from there on.
    let mut u = m.clone();
    while u.log().len() > at[2] - 5 {
        assert!(u.undo());
    }
    assert_eq!(u.chance_mode(), ChanceMode::Explicit);
    assert_eq!(
        mode_changes(&u),
        vec![
            (at[0], ChanceMode::Explicit),
            (at[1], ChanceMode::Sampled),
            (at[2] - 5, ChanceMode::Explicit)
        ]
    );
    assert_eq!(Match::load(&u.save()).unwrap().save(), u.save());
    // Back before the second change: explicit since the first, as recorded.
    while u.log().len() > at[1] - 1 {
        assert!(u.undo());
    }
    let changes: Vec<_> = u
        .chance_mode_changes()
        .iter()
        .map(|c| (c.at, c.mode))
        .collect();
    assert_eq!(changes, vec![(at[0], ChanceMode::Explicit)]);
    assert_eq!(Match::load(&u.save()).unwrap().save(), u.save());
}

/// A format 5 save (no record of the mode's changes) loads as it did, each command
/// replayed by its outcomes alone, even one edited to explicit mode with no outcomes;
/// it saves again as format 6 with the changes its log shows, which load strictly.
#[test]
fn a_format_5_save_without_mode_changes_loads_as_before() {
    let mut m = Match::new_builtin("system-demo", 9).unwrap();
    let (mut a, mut dice) = (agent(3), agent(4));
    play_explicit(&mut m, &mut a, &mut dice, 60);
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    play_explicit(&mut m, &mut a, &mut dice, 60);
    m.set_chance_mode(ChanceMode::Sampled).unwrap();
    play_explicit(&mut m, &mut a, &mut dice, 60);
    m.set_chance_mode(ChanceMode::Explicit).unwrap();
    let mut old: serde_json::Value = serde_json::from_str(&m.save()).unwrap();
    assert_eq!(old["format"], 6);
    old["format"] = 5.into();
    let with_record = old.clone();
    old.as_object_mut().unwrap().remove("chance_modes");
    let back = Match::load(&old.to_string()).unwrap();
    assert_eq!(back.log().to_vec(), m.log().to_vec());
    assert_eq!(back.state(), m.state());
    assert_eq!(back.chance_mode(), ChanceMode::Explicit);
    let again = back.save();
    assert_eq!(Match::load(&again).unwrap().save(), again);
    // A format 5 save has no record.
    assert!(refused(&with_record).contains("chance_modes: a format 5 save"));
    // A sampled format 5 save edited to explicit loads as before, and saves strictly.
    let mut s = Match::new_builtin("system-demo", 4).unwrap();
    play_explicit(&mut s, &mut agent(1), &mut agent(2), 100);
    let mut edited: serde_json::Value = serde_json::from_str(&s.save()).unwrap();
    edited["format"] = 5.into();
    edited["chance_mode"] = "explicit".into();
    let loaded = Match::load(&edited.to_string()).unwrap();
    assert_eq!(loaded.chance_mode(), ChanceMode::Explicit);
    let n = s.log().len();
    let changes: Vec<_> = loaded
        .chance_mode_changes()
        .iter()
        .map(|c| (c.at, c.mode))
        .collect();
    assert_eq!(changes, vec![(n, ChanceMode::Explicit)]);
    assert_eq!(Match::load(&loaded.save()).unwrap().save(), loaded.save());
}
