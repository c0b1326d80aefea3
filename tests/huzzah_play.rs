//! Whole Huzzah! battles by random legal commands: with the missing rules decided by
//! command (the menu) and answered by the stand-ins. Every game ends, every legal
//! command is accepted, and the battles reach charges, melees and rallies, and the
//! deploy order's skirmish line, grand batteries and passages of lines.

use fm_core::huzzah::scenario::{self, Scenario};
use fm_core::huzzah::Huzzah;
use fm_core::{Game, GameMatch};
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

fn firefight(missing: &str) -> Scenario {
    let text = include_str!("../fm-core/scenarios/huzzah-firefight.json");
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("system");
    o.insert("id".into(), format!("firefight-{missing}").into());
    o.insert("missing_rules".into(), missing.into());
    scenario::validate(scenario::from_json_value(v).unwrap()).unwrap()
}

fn play(sc: &Arc<Scenario>, seed: u64, kinds: &mut BTreeMap<String, usize>) {
    let mut m = GameMatch::<Huzzah>::new(sc.clone(), seed);
    let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    let mut n = 0;
    while !m.state().is_over() {
        let legal = Huzzah::legal_commands(m.scenario(), m.state());
        assert!(
            !legal.is_empty(),
            "seed {seed}: nothing to do at {:?}",
            m.state().pending
        );
        let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
        let cv = serde_json::to_value(&c).unwrap();
        *kinds
            .entry(format!("command {}", cv["type"].as_str().unwrap()))
            .or_default() += 1;
        let events = m
            .apply(&c)
            .unwrap_or_else(|e| panic!("seed {seed}: the legal {c:?} was refused: {e}"));
        for e in events {
            let v = serde_json::to_value(e).unwrap();
            *kinds
                .entry(v["type"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
        n += 1;
        assert!(n < 20_000, "seed {seed}: no end");
    }
}

#[test]
fn battles_with_the_missing_rules_decided_end() {
    let sc = Arc::new(firefight("decide"));
    let mut kinds = BTreeMap::new();
    for seed in 0..30 {
        play(&sc, seed, &mut kinds);
    }
    for k in [
        "order_given",
        "unit_moved",
        "charged",
        "melee_resolved",
        "game_ended",
    ] {
        assert!(kinds.contains_key(k), "no {k} in 30 games: {kinds:?}");
    }
}

#[test]
fn battles_with_the_stand_in_rules_end() {
    let sc = Arc::new(firefight("stand_in"));
    let mut kinds = BTreeMap::new();
    for seed in 0..30 {
        play(&sc, seed, &mut kinds);
    }
    for k in ["charged", "melee_resolved", "game_ended"] {
        assert!(kinds.contains_key(k), "no {k} in 30 games: {kinds:?}");
    }
}

#[test]
fn the_built_in_encounter_plays_to_a_scored_result() {
    let sc = Arc::new(Scenario::builtin("huzzah-encounter").unwrap());
    let mut kinds = BTreeMap::new();
    for seed in 0..10 {
        play(&sc, seed, &mut kinds);
    }
    for k in [
        "placement_rolled",
        "players_decided",
        "order_given",
        "fire_resolved",
        "game_ended",
    ] {
        assert!(kinds.contains_key(k), "no {k} in 10 games: {kinds:?}");
    }
    // The menu reaches the orders of page 22 and the (decided) manoeuvre.
    for k in [
        "command manoeuvre",
        "command skirmish_line",
        "command join_battery",
        "command passage_of_lines",
        "battery_joined",
        "skirmishers_deployed",
        "lines_passed",
    ] {
        assert!(kinds.contains_key(k), "no {k} in 10 games: {kinds:?}");
    }
}

#[test]
fn rule_p21_deploy_keeps_the_anchor_base_and_the_facing() {
    use fm_core::huzzah::command::Command;
    use fm_core::huzzah::deploy::FormationKind;
    use fm_core::huzzah::engine;
    use fm_core::huzzah::event::Event;
    use fm_core::huzzah::geometry::Len;
    use fm_core::huzzah::orders::OrderKind;
    use fm_core::huzzah::state::{ActiveOrder, GroupRef, Pending};
    use fm_core::Side;
    let sc = Scenario::builtin("huzzah-firefight").unwrap();
    let (mut s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
    let u = sc.unit_index("fr-2").unwrap();
    let before = s.unit(u).shape.clone();
    // A deploy order already given to fr-2 (its roll is tested elsewhere).
    s.orders.active = Some(ActiveOrder {
        officer: sc.officer_index("fr-div-gen").unwrap(),
        group: GroupRef::Unit(u),
        kind: OrderKind::Deploy,
        units: vec![u],
        rate: Len::cm(20),
    });
    s.pending = Pending::Act {
        side: Side::A,
        order: OrderKind::Deploy,
        units: vec![sc.unit_id(u)],
    };
    let square = Command::Deploy {
        unit: "fr-2".into(),
        formation: FormationKind::Square,
        ranks: vec![2, 2],
        anchor: 1,
        anchor_to: 0,
    };
    let mut rng = fm_core::rng_from_seed(2);
    let ev = engine::apply(&sc, &s, &square, &mut rng).unwrap();
    let Event::UnitDeployed { shape, column, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    assert!(!column && shape.square && shape.ranks == vec![2, 2]);
    assert_eq!(shape.facing, before.facing);
    // Base 1 of the line is base 0 of the square, in the same place.
    assert_eq!(shape.bases()[0].centre(), before.bases()[1].centre());
    // Cavalry-only and impossible formations are refused, naming the page.
    let bad = Command::Deploy {
        unit: "fr-2".into(),
        formation: FormationKind::Column,
        ranks: vec![2, 2],
        anchor: 0,
        anchor_to: 0,
    };
    assert_eq!(
        engine::apply(&sc, &s, &bad, &mut rng).unwrap_err().rule,
        "p21"
    );
    // A square cannot advance (page 22).
    s.apply_events(&sc, &ev);
    assert!(s.unit(u).shape.square);
}

#[test]
fn rule_p20_an_impulsive_unit_within_one_advance_charges_without_orders() {
    use fm_core::huzzah::event::Event;
    let text = include_str!("../fm-core/scenarios/huzzah-firefight.json");
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("system");
    o.insert("id".into(), "firefight-impulsive".into());
    // fr-2 faces br-2 15 cm away; infantry advances 20 cm (stand-in).
    v["sides"]["a"]["units"][1]["impulsive"] = true.into();
    let sc = Arc::new(scenario::validate(scenario::from_json_value(v).unwrap()).unwrap());
    let (fr2, br2) = (
        sc.unit_index("fr-2").unwrap(),
        sc.unit_index("br-2").unwrap(),
    );
    let mut m = GameMatch::<Huzzah>::new(sc.clone(), 4);
    let mut seen = Vec::new();
    // Officers placed, then side a holds all its fire: the Orders phase begins.
    while !m.state().is_over()
        && !seen
            .iter()
            .any(|e| matches!(e, Event::ImpulsiveCharges { .. }))
    {
        let legal = Huzzah::legal_commands(m.scenario(), m.state());
        let c = legal
            .iter()
            .find(|c| matches!(c, fm_core::huzzah::command::Command::HoldFire { .. }))
            .unwrap_or(&legal[0])
            .clone();
        seen.extend(m.apply(&c).unwrap().iter().cloned());
    }
    let charged = seen
        .iter()
        .position(
            |e| matches!(e, Event::Charged { unit, target, .. } if *unit == sc.unit_id(fr2) && *target == sc.unit_id(br2)),
        )
        .expect("fr-2 charged br-2");
    let done = seen
        .iter()
        .position(|e| matches!(e, Event::ImpulsiveCharges { charges, .. } if charges == &vec![(sc.unit_id(fr2), sc.unit_id(br2))]))
        .expect("the impulsive charges are recorded");
    assert!(charged < done);
    // No order was needed, and fr-2 takes no orders this phase.
    assert!(!seen.iter().any(|e| matches!(e, Event::OrderGiven { .. })));
    assert!(m.state().unit(fr2).charger);
}
