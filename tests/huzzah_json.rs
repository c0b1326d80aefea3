//! Huzzah!'s JSON forms: lengths in millimetres with at most one decimal, read back
//! exactly; commands refusing a finer length by its field; events, pending decisions and
//! errors naming units and officers by scenario id; and a whole battle's save written,
//! loaded, replayed and written again byte for byte.

use fm_core::huzzah::command::Command;
use fm_core::huzzah::event::Event;
use fm_core::huzzah::geometry::{Len, Point};
use fm_core::huzzah::scenario::Scenario;
use fm_core::huzzah::state::State;
use fm_core::huzzah::Huzzah;
use fm_core::{Game, GameMatch, MatchError, UnitId};
use rand_core::{RngCore, SeedableRng};
use serde_json::{json, Value};

#[test]
fn a_length_is_millimetres_with_one_decimal_at_most() {
    for (len, text) in [
        (Len(503), "50.3"),
        (Len(500), "50"),
        (Len(0), "0"),
        (Len(-5), "-0.5"),
        (Len(-1234), "-123.4"),
        (Len(10_000_001), "1000000.1"),
    ] {
        assert_eq!(serde_json::to_string(&len).unwrap(), text);
        assert_eq!(serde_json::from_str::<Len>(text).unwrap(), len, "{text}");
    }
    // Every tenth written reads back exactly, and whole millimetres stay integers.
    for t in (-2_000_000i64..2_000_000).step_by(997) {
        let text = serde_json::to_string(&Len(t)).unwrap();
        assert_eq!(
            serde_json::from_str::<Len>(&text).unwrap(),
            Len(t),
            "{text}"
        );
        assert_eq!(text.contains('.'), t % 10 != 0, "{text}");
    }
    assert_eq!(serde_json::from_str::<Len>("50.0").unwrap(), Len(500));
    assert_eq!(serde_json::from_str::<Len>("1e3").unwrap(), Len(10_000));
    for bad in ["50.25", "0.05", "\"50\"", "null", "[50]"] {
        assert!(serde_json::from_str::<Len>(bad).is_err(), "{bad}");
    }
    let e = serde_json::from_str::<Len>("50.25")
        .unwrap_err()
        .to_string();
    assert!(e.contains("50.25 mm has more than one decimal"), "{e}");
    assert_eq!(
        serde_json::to_value(Point::new(Len(8705), Len(9200))).unwrap(),
        json!({"x": 870.5, "y": 920})
    );
}

fn command(v: Value) -> Result<Command, String> {
    fm_core::any::command_from_json::<Huzzah>(&v).map_err(|e| match e {
        MatchError::Input(m) => m,
        other => other.to_string(),
    })
}

#[test]
fn commands_take_whole_millimetres_or_one_decimal() {
    let whole = command(json!({"type": "advance", "unit": "fr-1", "distance_mm": 100})).unwrap();
    assert_eq!(
        whole,
        Command::Advance {
            unit: "fr-1".into(),
            distance_mm: Len(1000),
            drift_mm: Len::ZERO,
        }
    );
    // Written back as it was given: whole millimetres as integers.
    assert_eq!(
        serde_json::to_value(&whole).unwrap(),
        json!({"type": "advance", "unit": "fr-1", "distance_mm": 100, "drift_mm": 0})
    );
    let tenth = command(json!({"type": "move_officer", "officer": "fr-cinc", "at": [870.5, 92]}));
    assert_eq!(
        tenth.unwrap(),
        Command::MoveOfficer {
            officer: "fr-cinc".into(),
            at: [Len(8705), Len(920)],
            attach: None,
        }
    );
    for (v, field) in [
        (
            json!({"type": "advance", "unit": "fr-1", "distance_mm": 100.25}),
            "`distance_mm`: 100.25 mm has more than one decimal",
        ),
        (
            json!({"type": "advance", "unit": "fr-1", "distance_mm": 100, "drift_mm": 0.01}),
            "`drift_mm`: 0.01 mm",
        ),
        (
            json!({"type": "charge", "unit": "fr-1", "target": "br-1", "offset_mm": 2.55}),
            "`offset_mm`: 2.55 mm",
        ),
        (
            json!({"type": "retire", "unit": "fr-1", "distance_mm": "far"}),
            "`distance_mm`: invalid type: string \"far\"",
        ),
        (
            json!({"type": "place_officer", "officer": "fr-cinc", "at": [1, 2.123]}),
            "`at`: 2.123 mm",
        ),
        (
            json!({"type": "manoeuvre", "unit": "fr-1", "anchor": [1.11, 2], "facing": 0}),
            "`anchor`: 1.11 mm",
        ),
        (
            json!({"type": "melee_result", "a": "x", "b": "y", "winner": null, "hits_a": 0,
                   "hits_b": 0, "loser_falls_back_mm": 0.55}),
            "`loser_falls_back_mm`: 0.55 mm",
        ),
    ] {
        let e = command(v.clone()).unwrap_err();
        assert!(e.contains(field), "{v}: {e}");
    }
}

fn battle(name: &str, seed: u64) -> GameMatch<Huzzah> {
    let mut m = GameMatch::<Huzzah>::new_builtin(name, seed).unwrap();
    let mut pick = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x1d5);
    while !m.state().is_over() {
        let legal = Huzzah::legal_commands(m.scenario(), m.state());
        let c = legal[(pick.next_u32() as usize) % legal.len()].clone();
        m.apply(&c).unwrap();
    }
    m
}

/// Every place a JSON value holds a unit or an officer: the value of a key that names
/// one (`unit`, `officer`, `units`, ...; `a` and `b` of a melee or an engagement; pairs).
fn names(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(xs) => xs.iter().for_each(|x| names(x, out)),
        Value::Object(m) => {
            let t = m.get("type").and_then(Value::as_str).unwrap_or("");
            for (k, x) in m {
                let named = matches!(
                    k.as_str(),
                    "unit" | "target" | "battery" | "with" | "attached" | "officer" | "chargers"
                ) || (k == "by" && matches!(t, "passed_through" | "officer_captured"))
                    || (matches!(k.as_str(), "a" | "b") && t != "rolled_off")
                    || matches!(k.as_str(), "units" | "pairs" | "charges");
                if named {
                    match x {
                        Value::Array(xs) => xs.iter().for_each(|y| match y {
                            Value::Array(pair) => out.extend(pair.iter().cloned()),
                            other => out.push(other.clone()),
                        }),
                        Value::Null => {}
                        other => out.push(other.clone()),
                    }
                } else {
                    names(x, out);
                }
            }
        }
        _ => {}
    }
}

fn ids(sc: &Scenario) -> Vec<String> {
    sc.units()
        .iter()
        .map(|u| u.id.to_string())
        .chain(sc.officers().iter().map(|o| o.id.clone()))
        .collect()
}

#[test]
fn events_and_decisions_name_units_and_officers_by_id_and_lengths_in_millimetres() {
    for name in fm_core::huzzah::scenario::BUILTIN {
        let m = battle(name, 11);
        let known = ids(m.scenario());
        let events: Vec<&Event> = m
            .opening_events()
            .iter()
            .chain(m.log().iter().flat_map(|e| e.events.iter()))
            .collect();
        let mut found = Vec::new();
        let mut lengths = 0;
        for e in &events {
            let v = serde_json::to_value(e).unwrap();
            names(&v, &mut found);
            let o = v.as_object().unwrap();
            for old in ["range", "distance", "rate"] {
                assert!(!o.contains_key(old), "{v}");
            }
            for k in ["range_mm", "distance_mm", "rate_mm"] {
                if let Some(x) = o.get(k) {
                    assert!(x.is_number(), "{v}");
                    lengths += 1;
                }
            }
        }
        assert!(found.len() > 100 && lengths > 10, "{name}");
        for x in &found {
            let id = x
                .as_str()
                .unwrap_or_else(|| panic!("{name}: {x} is not an id"));
            assert!(known.iter().any(|k| k == id), "{name}: unknown id {id}");
        }
        // The state's pending decision is the last `awaiting`'s (or `game_over`).
        let p = serde_json::to_value(&m.state().pending).unwrap();
        assert!(p["kind"].is_string());
    }
}

#[test]
fn a_whole_battles_save_round_trips_byte_for_byte() {
    for (name, seed) in [("huzzah-encounter", 4), ("huzzah-firefight", 9)] {
        let m = battle(name, seed);
        let text = m.save();
        // Lengths with a decimal are there to be read back.
        assert!(text.contains(".5") || text.contains(".1"), "{name}");
        let back = GameMatch::<Huzzah>::load(&text).unwrap();
        assert_eq!(back.save(), text, "{name}: load and save again");
        assert_eq!(back.state(), m.state());
        // Every logged event reads back to itself and is written again the same.
        for entry in m.log() {
            for e in &entry.events {
                let json = serde_json::to_string(e).unwrap();
                let again: Event = serde_json::from_str(&json).unwrap();
                assert_eq!(&again, e);
                assert_eq!(serde_json::to_string(&again).unwrap(), json);
            }
            let c = serde_json::to_string(&entry.command).unwrap();
            assert_eq!(
                serde_json::to_string(&serde_json::from_str::<Command>(&c).unwrap()).unwrap(),
                c
            );
        }
        // A replay from the save's commands is the same battle.
        let mut replay = GameMatch::<Huzzah>::new_builtin(name, seed).unwrap();
        for entry in m.log() {
            let c: Command =
                serde_json::from_str(&serde_json::to_string(&entry.command).unwrap()).unwrap();
            replay.apply(&c).unwrap();
        }
        assert_eq!(replay.save(), text, "{name}: replayed");
        // The state, with its lengths in millimetres, reads back exactly too.
        let s: State = serde_json::from_str(&serde_json::to_string(m.state()).unwrap()).unwrap();
        assert_eq!(&s, m.state());
    }
}

#[test]
fn the_fold_resolves_ids_and_ignores_an_unknown_one() {
    let m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 1).unwrap();
    let sc = m.scenario();
    let mut s = m.state().clone();
    let before = s.clone();
    let strays = [
        Event::UnitDestroyed {
            unit: UnitId::from("nobody"),
        },
        Event::OfficerPlaced {
            officer: "nobody".into(),
            at: Point::mm(10, 10),
        },
        Event::InCombat {
            pairs: vec![(UnitId::from("fr-1"), UnitId::from("nobody"))],
        },
    ];
    s.apply_events(sc, &strays);
    assert_eq!(s, before, "nothing changes for an unknown id");
    s.apply_event(
        sc,
        &Event::UnitDestroyed {
            unit: UnitId::from("fr-2"),
        },
    );
    let u = sc.unit_index("fr-2").unwrap();
    assert_eq!(s.unit(u).at, fm_core::huzzah::state::Whereabouts::Destroyed);
}

#[test]
fn a_command_for_another_decision_is_refused_in_words() {
    let mut m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 0).unwrap();
    let e = m.apply(&Command::EndPhase).unwrap_err();
    // The decision in words, with the commands that answer it, under its page.
    assert_eq!(e.rule, "p8");
    assert_eq!(
        e.message,
        "end_phase does not answer the decision now: side b places an officer (place_officer)"
    );
    let far = Command::PlaceOfficer {
        officer: "br-cinc".into(),
        at: Some([Len(1_000_000_005), Len::ZERO]),
    };
    let e = m.apply(&far).unwrap_err();
    assert_eq!(e.rule, "input");
    assert_eq!(e.message, "[100000000.5, 0] mm is off the table");
}
