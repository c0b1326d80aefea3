//! Save files are read strictly (issue 13, finding 8): exactly the form `Match::save`
//! writes, format `SAVE_FORMAT`, hashes in one spelling, no unknown or duplicate key,
//! a built-in id only with the built-in's data, a seed that matches its check, and a
//! bounded size. Each refusal names what is wrong. The format is in docs/protocol.md
//! ("Save files and replay verification").

use fm_core::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A system-demo match after `n` commands (the first legal one each time).
fn demo(seed: u64, n: usize) -> Match {
    let mut m = Match::new_builtin("system-demo", seed).unwrap();
    for _ in 0..n {
        let c = m.legal_commands()[0].clone();
        m.apply(&c).unwrap();
    }
    m
}

fn save_value(m: &Match) -> Value {
    serde_json::from_str(&m.save()).unwrap()
}

/// A save of `m` with its scenario's data embedded (the form of every format-2 save,
/// and of a custom scenario's), rather than naming its built-in.
fn embedded(m: &Match) -> Value {
    let mut v = save_value(m);
    v["scenario"] = serde_json::to_value(&m.scenario().data).unwrap();
    v.as_object_mut().unwrap().remove("scenario_hash");
    v
}

/// Loads a save given as JSON and returns the error text.
fn refused(save: &Value) -> String {
    match Match::load(&save.to_string()) {
        Ok(_) => panic!("loaded, but should be refused: {}", abridged(save)),
        Err(e) => e.to_string(),
    }
}

fn abridged(v: &Value) -> String {
    let s = v.to_string();
    s.chars().take(300).collect()
}

/// `m`'s save as an older format wrote it: the scenario embedded (format 2) or named
/// (format 3), and every state hash the legacy one (`State::legacy_hash`, FNV-1a over
/// the state's bytes), computed by replaying the log.
fn as_old_format(m: &Match, format: u32) -> Value {
    let mut v = if format == 2 {
        embedded(m)
    } else {
        save_value(m)
    };
    v["format"] = json!(format);
    let mut again = Match::new(m.scenario_arc(), m.seed());
    let hex = |h: u64| json!(format!("{h:016x}"));
    v["opening_hash"] = hex(again.state().legacy_hash());
    for (k, e) in m.log().iter().enumerate() {
        again.apply(&e.command).unwrap();
        v["log"][k]["hash"] = hex(again.state().legacy_hash());
    }
    v
}

#[test]
fn a_save_round_trips_in_format_6_with_its_seed_check() {
    let m = demo(3, 12);
    let text = m.save();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], SAVE_FORMAT);
    assert_eq!(SAVE_FORMAT, 6);
    let check = v["seed_check"].as_str().unwrap();
    assert_eq!(check.len(), 16);
    // The check is the first output of the generator the seed gives.
    let first = rand_core::RngCore::next_u64(&mut rng_from_seed(3));
    assert_eq!(check, format!("{first:016x}"));
    let again = Match::load(&text).unwrap();
    assert_eq!(again.save(), text);
    // Layout and key order do not matter.
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    assert_eq!(Match::load(&pretty).unwrap().state(), m.state());
}

#[test]
fn only_the_current_format_loads() {
    let v = save_value(&demo(1, 3));
    for f in [
        json!(0),
        json!(2.5),
        json!(7),
        json!(99),
        json!("6"),
        json!(null),
        json!(-2),
    ] {
        let mut bad = v.clone();
        bad["format"] = f.clone();
        let e = refused(&bad);
        assert!(e.contains("format"), "{f}: {e}");
    }
    let mut old = v.clone();
    old["format"] = json!(1);
    let e = refused(&old);
    assert!(e.contains("save format 1 is no longer read"), "{e}");
    assert!(
        e.contains("start a new match"),
        "the error says what to do: {e}"
    );
    let mut none = v.clone();
    none.as_object_mut().unwrap().remove("format");
    assert!(refused(&none).contains("missing field `format`"));
    assert!(Match::load("[]")
        .unwrap_err()
        .to_string()
        .contains("JSON object"));
}

#[test]
fn hashes_have_exactly_one_spelling() {
    let v = save_value(&demo(1, 3));
    let h = v["opening_hash"].as_str().unwrap().to_string();
    let variants = [
        h.to_uppercase(),
        format!("+{}", &h[1..]),
        format!("0000{h}"),
        h[1..].to_string(),
        format!("0x{}", &h[2..]),
        format!(" {}", &h[1..]),
        String::new(),
    ];
    for bad_hash in &variants {
        if *bad_hash == h {
            continue; // an all-digit hash has no uppercase form
        }
        for field in ["opening_hash", "seed_check"] {
            let mut bad = v.clone();
            bad[field] = json!(bad_hash);
            let e = refused(&bad);
            assert!(
                e.contains(field) && e.contains("16 lowercase hex digits"),
                "{e}"
            );
        }
        let mut bad = v.clone();
        bad["log"][1]["hash"] = json!(bad_hash);
        let e = refused(&bad);
        assert!(e.contains("log[1].hash"), "{e}");
    }
    let mut bad = v.clone();
    bad["opening_hash"] = json!(42);
    assert!(refused(&bad).contains("opening_hash"));
}

#[test]
fn unknown_fields_are_refused_wherever_they_are() {
    let m = demo(2, 3);
    let v = embedded(&m);
    let mut cases: Vec<(Value, &str)> = Vec::new();
    let mut top = v.clone();
    top["comment"] = json!("hi");
    cases.push((top, "unknown field `comment`"));
    let mut entry = v.clone();
    entry["log"][0]["note"] = json!(1);
    cases.push((entry, "log[0].note: unknown field `note`"));
    let mut event = v.clone();
    event["log"][0]["events"][0]["extra"] = json!(true);
    cases.push((event, "log[0].events[0]: unknown field \"extra\""));
    let mut scenario = v.clone();
    scenario["scenario"]["units"][0]["colour"] = json!("red");
    cases.push((scenario, "unknown field `colour`"));
    for (bad, want) in cases {
        let e = refused(&bad);
        assert!(e.contains(want), "wanted {want:?} in: {e}");
    }
    // An accepted alternative spelling is still not the form save writes: an `mp` of
    // "6/2" for "3" is refused, where a client's command or a scenario may use it.
    let mut m = Match::new_builtin("system-demo", 2).unwrap();
    let mut rng = rng_from_seed(2);
    for _ in 0..60 {
        let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
        m.apply(&c).unwrap();
    }
    let mut v = save_value(&m);
    let spot = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find_map(|(k, e)| {
            e["events"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .find_map(|(j, ev)| {
                    let mp = ev["mp"].as_str()?;
                    mp.parse::<u32>().ok().map(|n| (k, j, n))
                })
        });
    let (k, j, n) = spot.expect("a unit moved a whole number of MP");
    v["log"][k]["events"][j]["mp"] = json!(format!("{}/2", 2 * n));
    let e = refused(&v);
    assert!(
        e.contains(&format!(
            "log[{k}].events[{j}].mp: \"{}/2\" where \"{n}\" is expected",
            2 * n
        )),
        "{e}"
    );
    // A field-less command (`done`) cannot refuse fields by itself: the comparison with
    // the form save writes does.
    let mut m = Match::new_builtin("system-demo", 1).unwrap();
    while m.apply(&Command::Done).is_err() {
        let c = m.legal_commands()[0].clone();
        m.apply(&c).unwrap();
    }
    let mut v = save_value(&m);
    let last = v["log"].as_array().unwrap().len() - 1;
    assert_eq!(v["log"][last]["command"], json!({"type": "done"}));
    v["log"][last]["command"]["force"] = json!(true);
    let e = refused(&v);
    assert!(
        e.contains(&format!("log[{last}].command: unknown field")),
        "{e}"
    );
}

#[test]
fn duplicate_keys_are_refused() {
    let text = demo(1, 3).save();
    let twice = text.replacen("\"seed\":", "\"seed\":5,\"seed\":", 1);
    let e = Match::load(&twice).unwrap_err().to_string();
    assert!(e.contains("duplicate key \"seed\""), "{e}");
    // Inside a map of the scenario, where serde would keep the last one silently.
    let v = embedded(&demo(1, 0));
    let zones = v["scenario"]["setup"]["zones"].as_object().unwrap();
    let (k, z) = zones.iter().next().unwrap();
    let pair = format!("{}:{}", Value::String(k.clone()), z);
    let inner = format!("{{{pair},{pair}}}");
    let mut w = v.clone();
    w["scenario"]["setup"]["zones"] = json!("HOLE");
    let text = w.to_string().replace("\"HOLE\"", &inner);
    let e = Match::load(&text).unwrap_err().to_string();
    assert!(e.contains("duplicate key"), "{e}");
}

#[test]
fn a_builtin_id_needs_the_builtin_data() {
    let m = demo(4, 3);
    let v = embedded(&m);
    let mut bad = v.clone();
    bad["scenario"]["units"][0]["steps"][0] = json!({"attack": 99, "defense": 99, "move": 20});
    let e = Match::load(&bad.to_string()).unwrap_err();
    let MatchError::Scenario(s) = &e else {
        panic!("a scenario error expected: {e}");
    };
    assert_eq!(s.path, "id");
    assert!(s.message.contains("units[0].steps[0].attack"), "{e}");
    assert!(s.message.contains("an id of its own"), "{e}");
    // The same data under its own id is a scenario like any other: it saves and loads.
    let mut data = m.scenario().data.clone();
    data.id = "demo-heroes".into();
    data.units[0].steps[0] = StepValues {
        attack: 99,
        defense: 99,
        movement: 20,
    };
    let sc = std::sync::Arc::new(Scenario::from_data(data).unwrap());
    let mut own = Match::new(sc, 4);
    let c = own.legal_commands()[0].clone();
    own.apply(&c).unwrap();
    let again = Match::load(&own.save()).unwrap();
    assert_eq!(again.state(), own.state());
}

#[test]
fn a_seed_changed_before_the_first_random_event_is_detected() {
    // After one set-up placement nothing random has happened yet: the replay alone
    // cannot tell the seed was changed; the seed check can.
    let m = demo(7, 1);
    assert!(m
        .log()
        .iter()
        .flat_map(|e| &e.events)
        .all(|e| !matches!(e, Event::SupportAllotted { .. })));
    let mut v = save_value(&m);
    v["seed"] = json!(8);
    let e = Match::load(&v.to_string()).unwrap_err();
    assert!(matches!(e, MatchError::Diverged { index: None, .. }), "{e}");
    assert!(e.to_string().contains("seed"), "{e}");
}

/// Every refusal below must come quickly: the bounds are checked before any replay.
fn quickly(what: &str, f: impl FnOnce() -> String) -> String {
    let t = Instant::now();
    let e = f();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "{what}: took {:?}",
        t.elapsed()
    );
    e
}

#[test]
fn size_and_log_length_are_bounded() {
    let v = save_value(&demo(1, 3));
    // Too many bytes: refused before parsing.
    let big = format!("{}{}", v, " ".repeat(MAX_SAVE_BYTES));
    let e = quickly("bytes", || Match::load(&big).unwrap_err().to_string());
    assert!(e.contains("too large"), "{e}");
    // A million-entry log fits in 3 MB as `{}` entries, and is refused by the cost
    // budget of the strict parser; 50,001 entries by the log limit, before replay.
    for n in [1_000_000usize, MAX_LOG_ENTRIES + 1] {
        let mut w = v.clone();
        w["log"] = json!("HOLE");
        let entries = vec!["{}"; n].join(",");
        let text = w.to_string().replace("\"HOLE\"", &format!("[{entries}]"));
        assert!(text.len() <= MAX_SAVE_BYTES);
        let e = quickly("log", || Match::load(&text).unwrap_err().to_string());
        assert!(
            e.contains("too large once parsed") || e.contains("the limit is 50000"),
            "{n}: {e}"
        );
    }
    // A huge event (a 3 MB unit id): read, then refused by the replay of its command.
    let mut w = v.clone();
    w["log"][0]["events"][0]["unit"] = json!("x".repeat(3 << 20));
    let e = quickly("event", || {
        Match::load(&w.to_string()).unwrap_err().to_string()
    });
    assert!(e.contains("diverges at command 0"), "{e}");
    // Deep nesting stops at serde_json's limit.
    let deep = format!(
        "{{\"format\":3,\"x\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = quickly("deep", || Match::load(&deep).unwrap_err().to_string());
    assert!(e.contains("recursion limit"), "{e}");
}

#[test]
fn a_refused_save_names_the_command_that_diverges() {
    let mut v = save_value(&demo(5, 6));
    v["log"][4]["hash"] = json!("0123456789abcdef");
    let e = Match::load(&v.to_string()).unwrap_err();
    assert!(
        matches!(e, MatchError::Diverged { index: Some(4), .. }),
        "{e}"
    );
}

#[test]
fn a_save_names_its_builtin_scenario_with_its_hash() {
    let m = demo(3, 12);
    let v = save_value(&m);
    assert_eq!(v["scenario"], json!("system-demo"));
    let builtin = Scenario::builtin("system-demo").unwrap();
    assert_eq!(
        v["scenario_hash"],
        json!(format!("{:016x}", scenario_hash::<Fm>(&builtin)))
    );
    // Far smaller than the embedded form, and it round-trips exactly.
    assert!(m.save().len() * 2 < embedded(&m).to_string().len());
    let again = Match::load(&m.save()).unwrap();
    assert_eq!(again.save(), m.save());
    assert_eq!(again.state(), m.state());
    // A match of the built-in made from its data saves the same way.
    let own = Match::new(std::sync::Arc::new(builtin), 3);
    assert_eq!(save_value(&own)["scenario"], json!("system-demo"));
}

#[test]
fn a_changed_builtin_is_refused_by_its_hash() {
    let v = save_value(&demo(3, 4));
    let mut bad = v.clone();
    bad["scenario_hash"] = json!("0123456789abcdef");
    let e = Match::load(&bad.to_string()).unwrap_err();
    let MatchError::Scenario(s) = &e else {
        panic!("a scenario error expected: {e}");
    };
    assert_eq!(s.path, "scenario_hash");
    assert!(s.message.contains("differs from this engine's"), "{e}");
    let mut spelled = v.clone();
    spelled["scenario_hash"] = json!("ABC");
    assert!(refused(&spelled).contains("16 lowercase hex digits"));
    let mut unknown = v.clone();
    unknown["scenario"] = json!("no-such-scenario");
    assert!(refused(&unknown).contains("unknown scenario"));
    let mut no_hash = v.clone();
    no_hash.as_object_mut().unwrap().remove("scenario_hash");
    assert!(refused(&no_hash).contains("scenario_hash"));
    let mut both = embedded(&demo(3, 4));
    both["scenario_hash"] = v["scenario_hash"].clone();
    assert!(refused(&both).contains("scenario_hash"));
    let mut old_named = v.clone();
    old_named["format"] = json!(2);
    assert!(refused(&old_named).contains("embeds"));
}

#[test]
fn old_saves_with_the_scenario_embedded_still_load() {
    let mut rng = rng_from_seed(9);
    let mut m = Match::new_builtin("meuse-argonne", 9).unwrap();
    for _ in 0..150 {
        let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
        m.apply(&c).unwrap();
    }
    for format in [2, 3] {
        // What `save` wrote before format 3 (scenario embedded) and before format 4
        // (legacy state hashes), also with the scenario embedded.
        let mut olds = vec![as_old_format(&m, format)];
        if format == 3 {
            let mut embedded3 = as_old_format(&m, 3);
            embedded3["scenario"] = serde_json::to_value(&m.scenario().data).unwrap();
            embedded3.as_object_mut().unwrap().remove("scenario_hash");
            olds.push(embedded3);
        }
        for old in olds {
            let back = Match::load(&old.to_string()).unwrap();
            assert_eq!(back.state(), m.state());
            // The loaded match's own log records today's hashes.
            assert_eq!(back.log(), m.log());
            // Saved again, it is today's format and names the built-in.
            assert_eq!(back.save(), m.save());
        }
    }
}

/// The format decides the hash a save is checked with: a format-3 save with today's
/// hashes, or a format-4 save with the legacy ones, diverges at the opening.
#[test]
fn rule_save_format_4_checks_word_hashes_and_formats_2_and_3_legacy_ones() {
    let m = demo(5, 10);
    let mut new_as_3 = save_value(&m);
    new_as_3["format"] = json!(3);
    assert!(refused(&new_as_3).contains("opening state differs"));
    let mut legacy_as_4 = as_old_format(&m, 3);
    legacy_as_4["format"] = json!(4);
    assert!(refused(&legacy_as_4).contains("opening state differs"));
    // A legacy hash changed in the log is found at its command.
    let mut tampered = as_old_format(&m, 3);
    tampered["log"][4]["hash"] = json!("0123456789abcdef");
    let e = refused(&tampered);
    assert!(e.contains("state hash differs"), "{e}");
    assert!(e.contains('4'), "the command is named: {e}");
    assert_eq!(
        Match::load(&as_old_format(&m, 3).to_string())
            .unwrap()
            .save(),
        m.save()
    );
}

/// Save format 5 records Huzzah!'s state hashes by words; a format-4 save of a battle
/// (its hashes FNV-1a over the state's JSON, `State::json_hash`) still loads, checked
/// with those, and saves again in today's format (6); relabelled, either is refused at the
/// opening. Fire & Movement's hashes are the same in formats 4 and 5.
#[test]
fn rule_save_format_5_checks_huzzah_word_hashes_and_format_4_json_ones() {
    use fm_core::huzzah::Huzzah;
    let new = || GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 4).unwrap();
    let mut m = new();
    let mut rng = rng_from_seed(11);
    for _ in 0..40 {
        let c = m
            .random_command(&mut rng)
            .expect("a battle of more than 40 commands");
        m.apply(&c).unwrap();
    }
    let v: Value = serde_json::from_str(&m.save()).unwrap();
    assert_eq!(v["format"], SAVE_FORMAT);
    let hex = |h: u64| json!(format!("{h:016x}"));
    let mut old = v.clone();
    old["format"] = json!(4);
    let mut again = new();
    old["opening_hash"] = hex(again.state().json_hash());
    for (k, e) in m.log().iter().enumerate() {
        again.apply(&e.command).unwrap();
        old["log"][k]["hash"] = hex(again.state().json_hash());
    }
    assert_ne!(old["log"][3]["hash"], v["log"][3]["hash"]);
    let back = GameMatch::<Huzzah>::load(&old.to_string()).unwrap();
    assert_eq!(back.state(), m.state());
    assert_eq!(back.save(), m.save());
    let refused = |save: &Value| match GameMatch::<Huzzah>::load(&save.to_string()) {
        Ok(_) => panic!("loaded, but should be refused"),
        Err(e) => e.to_string(),
    };
    let mut new_as_4 = v.clone();
    new_as_4["format"] = json!(4);
    assert!(refused(&new_as_4).contains("opening state differs"));
    let mut old_as_5 = old.clone();
    old_as_5["format"] = json!(5);
    assert!(refused(&old_as_5).contains("opening state differs"));
    // A Fire & Movement save relabelled format 4 loads as it is.
    let f = demo(5, 10);
    let mut as_4 = save_value(&f);
    as_4["format"] = json!(4);
    assert_eq!(Match::load(&as_4.to_string()).unwrap().save(), f.save());
}
