//! Huzzah! Glorious Empires rules, each test named after its page (`rule_p12_…`), on
#![allow(dead_code, unused_imports)]
//! small hand-built tables, with loaded dice so each asserts the exact events.

use fm_core::huzzah::command::Command;
use fm_core::huzzah::engine;
use fm_core::huzzah::event::{Event, Test};

use fm_core::huzzah::scenario::{self, Scenario, UnitIx};
use fm_core::huzzah::state::{Dice, Pending, Phase, State, Status, Whereabouts};
use fm_core::Side;
use rand_core::RngCore;
use serde_json::{json, Value};

/// Dice that come up as scripted (each value 1-6), then panic: a test states every
/// roll it expects.
struct Loaded(std::collections::VecDeque<u8>);

impl Loaded {
    fn new(dice: &[u8]) -> Loaded {
        Loaded(dice.iter().copied().collect())
    }
}

impl RngCore for Loaded {
    fn next_u32(&mut self) -> u32 {
        let d = self
            .0
            .pop_front()
            .expect("the test scripted fewer dice than rolled");
        (d - 1) as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.next_u32() as u64
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next_u32() as u8;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

fn unit(id: &str, division: &str, bases: Value, ranks: Value, at: [i64; 2], facing: u16) -> Value {
    json!({
        "id": id, "division": division, "bases": bases, "expected": "regulars_b",
        "formation": "line", "ranks": ranks, "position": at, "facing": facing
    })
}

fn side(name: &str, prefix: &str, units: Vec<Value>) -> Value {
    json!({
        "name": name, "skirmish_factor": 8, "artillery_factor": 8,
        "officers": [
            {"id": format!("{prefix}-cinc"), "rank": "cinc", "quality": "average", "position": [100, 100]},
            {"id": format!("{prefix}-d1"), "rank": "division", "quality": "average", "position": [200, 100]}
        ],
        "divisions": [{"id": format!("{prefix}-div"), "officer": format!("{prefix}-d1")}],
        "units": units
    })
}

/// A 1200 × 1200 mm table, 40 mm bases, fair weather, placed set-up, side a first.
fn table(a: Vec<Value>, b: Vec<Value>) -> Value {
    json!({
        "id": "test-table", "name": "test", "provenance": "stand-in: a test table",
        "table": {"width_mm": 1200, "depth_mm": 1200}, "base_mm": 40, "turns": 2,
        "battle": "encounter", "setup": "placed", "first": "a",
        "conditions": [{"turn": 1, "ground": "normal", "weather": "fair"}],
        "terrain": [],
        "sides": {"a": side("French", "fr", a), "b": side("British", "br", b)}
    })
}

fn load(v: Value) -> Scenario {
    scenario::validate(scenario::from_json_value(v).expect("parses")).expect("valid")
}

fn ix(sc: &Scenario, id: &str) -> UnitIx {
    sc.unit_index(id).expect("unit")
}

fn play(sc: &Scenario, s: &mut State, cmd: Command, dice: &[u8]) -> Vec<Event> {
    let mut rng = Loaded::new(dice);
    let ev = engine::apply(sc, s, &cmd, &mut rng).expect("accepted");
    s.apply_events(sc, &ev);
    assert!(rng.0.is_empty(), "dice left over: {:?}", rng.0);
    ev
}

fn tests_of(ev: &[Event]) -> Vec<Test> {
    ev.iter()
        .filter_map(|e| match e {
            Event::FireResolved { test, .. } | Event::MoraleTested { test, .. } => {
                Some(test.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_built_in_firefight_plays_to_the_end() {
    use fm_core::huzzah::Huzzah;
    use fm_core::{Game, GameMatch};
    use rand_core::SeedableRng;
    for seed in 0..20 {
        let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", seed).unwrap();
        let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed + 100);
        let mut n = 0;
        while !m.state().is_over() {
            let legal = Huzzah::legal_commands(m.scenario(), m.state());
            assert!(
                !legal.is_empty(),
                "seed {seed}: no legal command at {:?}",
                m.state().pending
            );
            let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
            m.apply(&c)
                .unwrap_or_else(|e| panic!("seed {seed}: {c:?} refused: {e}"));
            n += 1;
            assert!(n < 5000, "seed {seed}: too long");
        }
        let _ = m.state().outcome.clone().unwrap();
    }
}

#[test]
#[ignore]
fn show_a_game() {
    use fm_core::huzzah::Huzzah;
    use fm_core::{Game, GameMatch};
    use rand_core::SeedableRng;
    let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 3).unwrap();
    let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    while !m.state().is_over() {
        let legal = Huzzah::legal_commands(m.scenario(), m.state());
        let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
        println!("> {}", serde_json::to_string(&c).unwrap());
        for e in m.apply(&c).unwrap() {
            let t = serde_json::to_string(&e).unwrap();
            if !t.contains("\"awaiting\"") && !t.contains("phase_started") {
                println!("  {}", &t[..t.len().min(300)]);
            }
        }
    }
}
