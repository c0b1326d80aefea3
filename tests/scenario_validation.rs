//! Scenario loading: every invalid scenario is refused with the JSON path of the
//! problem, never a panic.
mod common;
use common::*;
use fm_core::*;

fn demo_json() -> serde_json::Value {
    serde_json::from_str(&Scenario::builtin("system-demo").unwrap().to_json()).unwrap()
}

fn load(v: &serde_json::Value) -> Result<Scenario, ScenarioError> {
    Scenario::from_json(&v.to_string())
}

#[test]
fn builtin_scenarios_load_and_round_trip() {
    for name in Scenario::builtin_names() {
        let sc = Scenario::builtin(name).unwrap();
        let again = Scenario::from_json(&sc.to_json()).unwrap();
        assert_eq!(sc.data, again.data);
    }
    let e = Scenario::builtin("no-such").unwrap_err();
    assert!(e.message.contains("unknown scenario 'no-such'"), "{e}");
}

#[test]
fn unknown_terrain_names_the_hex_path() {
    let mut v = demo_json();
    v["map"]["hexes"][41]["terrain"] = serde_json::json!(["swmap"]);
    let e = load(&v).unwrap_err();
    assert_eq!(
        e.to_string(),
        "map.hexes[41].terrain: unknown terrain 'swmap'"
    );
}

#[test]
fn malformed_json_reports_line_and_column() {
    let e = Scenario::from_json("{\"id\": \"x\",").unwrap_err();
    assert!(e.message.contains("line 1 column"), "{e}");
    let e = Scenario::from_json("[]").unwrap_err();
    assert!(e.message.contains("line 1 column"), "{e}");
    let e = Scenario::from_json("{\"id\": 3}").unwrap_err();
    assert_eq!(e.path, "id");
    assert!(e.message.contains("invalid type"), "{e}");
    let e = Scenario::from_json(r#"{"id": "x""#).unwrap_err();
    assert!(!e.path.contains('?'), "{e}");
    assert!(e.message.contains("line 1 column"), "{e}");
    let e = Scenario::from_json(r#"{"id": "x", "map": {"hexes": [{"id": "0101", "#).unwrap_err();
    assert_eq!(e.path, "map.hexes[0]", "{e}");
    let e = Scenario::from_json(&format!("{} []", demo_json())).unwrap_err();
    assert!(e.message.contains("trailing characters"), "{e}");
}

/// Errors from deserializing carry the JSON path, not a column of a one-line file
/// (what `json.dumps` writes).
#[test]
fn deserialize_errors_name_the_json_path() {
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| {
                v["units"][3].as_object_mut().unwrap().remove("side");
            }),
            "units[3].side",
        ),
        (
            Box::new(|v| v["units"][3]["steps"][0]["attack"] = serde_json::json!(-1)),
            "units[3].steps[0].attack",
        ),
        (
            Box::new(|v| v["crt"]["lines"][2]["first_differential"] = serde_json::json!("-3")),
            "crt.lines[2].first_differential",
        ),
        (
            Box::new(|v| {
                v["crt"]["lines"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("first_differential");
            }),
            "crt.lines[1].first_differential",
        ),
        (
            Box::new(|v| v["map"]["hexes"][7]["terrain"] = serde_json::json!("clear")),
            "map.hexes[7].terrain",
        ),
        (
            Box::new(|v| v["crt"]["lines"][0]["min_differential"] = serde_json::json!(0)),
            "crt.lines[0].min_differential",
        ),
    ];
    for (edit, want) in cases {
        let mut v = demo_json();
        edit(&mut v);
        let one_line = serde_json::to_string(&v).unwrap();
        let e = Scenario::from_json(&one_line).unwrap_err();
        assert_eq!(e.path, want, "{e}");
        let e = ScenarioData::from_value(v).unwrap_err();
        assert_eq!(e.path, want, "{e}");
    }
}

/// `steps` are objects; the positional form serde would otherwise accept is refused.
#[test]
fn steps_must_be_objects() {
    let mut v = demo_json();
    v["units"][0]["steps"] = serde_json::json!([[3, 3, 3]]);
    let e = load(&v).unwrap_err();
    assert_eq!(e.path, "units[0].steps[0]");
    assert!(
        e.message
            .contains(r#"a step as an object {"attack", "defense", "move"}"#),
        "{e}"
    );
    let mut v = demo_json();
    v["units"][0]["steps"] =
        serde_json::json!([{"attack": 3, "defense": 3, "move": 3, "range": 2}]);
    assert!(load(&v)
        .unwrap_err()
        .message
        .contains("unknown field `range`"));
}

/// Provenance may be left out of a private scenario ("unspecified"); the built-in
/// scenarios always give it, at the top, on the map and on the CRT.
#[test]
fn provenance_is_optional_except_in_builtin_scenarios() {
    let mut v = demo_json();
    v.as_object_mut().unwrap().remove("provenance");
    v["crt"].as_object_mut().unwrap().remove("provenance");
    v["map"].as_object_mut().unwrap().remove("provenance");
    for u in v["units"].as_array_mut().unwrap() {
        u.as_object_mut().unwrap().remove("provenance");
    }
    let sc = load(&v).unwrap();
    assert_eq!(sc.data.provenance, "unspecified");
    assert_eq!(sc.crt.provenance, "unspecified");
    for name in Scenario::builtin_names() {
        let raw: serde_json::Value =
            serde_json::from_str(&Scenario::builtin(name).unwrap().to_json()).unwrap();
        for key in [
            &raw["provenance"],
            &raw["crt"]["provenance"],
            &raw["map"]["provenance"],
        ] {
            let p = key.as_str().unwrap_or("");
            assert!(!p.is_empty() && p != "unspecified", "{name}: {key}");
        }
    }
}

/// CRT lines: labels derived from the first differential (or written out), read
/// from `first_column`; a line that does not fit the grid is refused by path.
#[test]
fn crt_lines_are_checked_against_the_grid() {
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["crt"]["lines"][0]["first_column"] = serde_json::json!(7)), "crt.lines[0]: line 'mountain' runs off the grid: 7 labels from column 7 need 13 columns, the grid has 12"),
        (Box::new(|v| v["crt"]["lines"][4]["first_column"] = serde_json::json!(2)), "crt.lines[4]: line 'clear-desert-stream' runs off the grid: 12 labels from column 2 need 13 columns, the grid has 12"),
        (Box::new(|v| v["crt"]["lines"][4]["first_differential"] = serde_json::json!(-6)), "crt.lines[4]: line 'clear-desert-stream' runs off the grid: 13 labels from column 1 need 13 columns, the grid has 12"),
        (Box::new(|v| v["crt"]["lines"][0]["first_column"] = serde_json::json!(0)), "crt.lines[0].first_column: grid columns are numbered from 1"),
        (Box::new(|v| v["crt"]["lines"][0]["first_differential"] = serde_json::json!(3)), "crt.lines[0].first_differential: 3 is not the first differential of a standard line (-50 to +1, or +2, +4, +6, +8, +10); write the line's labels out"),
        (Box::new(|v| v["crt"]["lines"][0]["first_differential"] = serde_json::json!(-2_000_000_000)), "crt.lines[0].first_differential: -2000000000 is not the first differential of a standard line (-50 to +1, or +2, +4, +6, +8, +10); write the line's labels out"),
        (Box::new(|v| v["crt"]["lines"][0]["labels"] = serde_json::json!(["0", "+2,+3"])), "crt.lines[0].labels[1]: '+2,+3' does not follow '0': labels must be contiguous and ascending"),
        (Box::new(|v| v["crt"]["lines"][0]["labels"] = serde_json::json!(["0", "+1", "two"])), "crt.lines[0].labels[2]: 'two' is not a column label (\"-3\", \"+1\", \"+2,+3\")"),
        (Box::new(|v| v["crt"]["lines"][0]["labels"] = serde_json::json!(["-1", "0"])), "crt.lines[0].first_differential: 0 differs from the first label '-1'"),
        (Box::new(|v| v["crt"]["lines"][1]["id"] = serde_json::json!("mountain")), "crt.lines[1].id: duplicate line id 'mountain'"),
        (Box::new(|v| { v["crt"]["grid"][3].as_array_mut().unwrap().pop(); }), "crt.grid[3]: 11 cells, expected 12 (as row 1)"),
        (Box::new(|v| v["crt"]["lines"] = serde_json::json!([])), "crt.lines: no terrain lines"),
    ];
    for (edit, want) in cases {
        let mut v = demo_json();
        edit(&mut v);
        assert_eq!(load(&v).unwrap_err().to_string(), want);
    }
    // Written-out labels: a Mountain line printed over grid columns 2-6 only.
    let mut v = demo_json();
    v["crt"]["lines"][0]["first_column"] = serde_json::json!(2);
    v["crt"]["lines"][0]["labels"] = serde_json::json!(["0", "+1", "+2,+3", "+4,+5", "+6,+7,"]);
    assert_eq!(
        load(&v).unwrap_err().to_string(),
        "crt.lines[0].labels[4]: '+6,+7,' is not a column label (\"-3\", \"+1\", \"+2,+3\")"
    );
    v["crt"]["lines"][0]["labels"] = serde_json::json!(["0", "+1", "+2,+3", "+4,+5", "+6,+10"]);
    let sc = load(&v).unwrap();
    let m = sc.crt.line_index("mountain").unwrap();
    assert_eq!(sc.crt.lines[m].columns(), 1..6);
    assert_eq!(sc.crt.column(m, -4), 1);
    assert_eq!(sc.crt.column(m, 3), 3);
    assert_eq!(sc.crt.column(m, 12), 5);
    assert_eq!(sc.crt.column_label(m, 5), "+6,+10");
    assert_eq!(sc.crt.shifted(m, 5, 1), 5);
    assert_eq!(sc.crt.shifted(m, 1, -1), 1);
    // The written-out form survives the round trip.
    let again = Scenario::from_json(&sc.to_json()).unwrap();
    assert_eq!(again.crt, sc.crt);
}

#[test]
fn unknown_fields_are_refused() {
    let mut v = demo_json();
    v["colour"] = serde_json::json!("red");
    let e = load(&v).unwrap_err();
    assert!(e.message.contains("unknown field `colour`"), "{e}");
}

#[test]
fn bad_hex_ids_mp_and_results_are_refused() {
    let mut v = demo_json();
    v["map"]["hexes"][0]["id"] = serde_json::json!("12x4");
    assert!(load(&v)
        .unwrap_err()
        .message
        .contains("not a four-digit hex id"));
    let mut v = demo_json();
    v["terrain"]["hex"][0]["move"] = serde_json::json!("1/4");
    assert!(load(&v)
        .unwrap_err()
        .message
        .contains("not a movement-point value"));
    let mut v = demo_json();
    v["crt"]["grid"][0][0] = serde_json::json!("D9");
    assert!(load(&v).is_err());
}

#[test]
fn cross_references_are_checked_with_paths() {
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["units"][1]["id"] = v["units"][0]["id"].clone()), "units[1].id: duplicate unit id 'blue-1-inf-div'"),
        (Box::new(|v| v["units"][1]["start"] = serde_json::json!({"hex": "0304"})), "units[1].start.hex: hex 0304 already holds 'blue-1-inf-div' (5.3: units cannot stack)"),
        (Box::new(|v| v["units"][0]["start"] = serde_json::json!({"hex": "2020"})), "units[0].start.hex: hex 2020 is not on the map"),
        (Box::new(|v| v["units"][0]["start"] = serde_json::json!({"zone": "moon"})), "units[0].start.zone: unknown set-up zone 'moon'"),
        (Box::new(|v| v["units"][0]["steps"] = serde_json::json!([])), "units[0].steps: 0 steps; a unit has 1 to 3"),
        (Box::new(|v| v["units"][0]["start_depleted"] = serde_json::json!(3)), "units[0].start_depleted: 3 steps lost leaves nothing of a 3-step unit"),
        (Box::new(|v| v["terrain"]["hex"][0]["crt_line"] = serde_json::json!("lava")), "terrain.hex[0].crt_line: unknown CRT line 'lava'"),
        (Box::new(|v| v["map"]["hexsides"][0]["features"] = serde_json::json!(["moat"])), "map.hexsides[0].features[0]: unknown hexside feature 'moat'"),
        (Box::new(|v| v["map"]["hexsides"][0]["hexes"] = serde_json::json!(["0101", "0505"])), "map.hexsides[0].hexes: 0101 and 0505 are not adjacent"),
        (Box::new(|v| v["crt"]["grid"].as_array_mut().unwrap().pop().map(|_| ()).unwrap()), "crt.grid: 5 die rows, expected 6"),
        (Box::new(|v| v["start"]["turn"] = serde_json::json!(9)), "start.turn: turn 9 is not on the turn track"),
        (Box::new(|v| v["skip_phases"] = serde_json::json!(["movement"])), "skip_phases[0]: the movement phase cannot be skipped"),
        (Box::new(|v| v["victory"]["conditions"][2]["count"] = serde_json::json!(4)), "victory.conditions[2].count: 4 of 3 hexes"),
        (Box::new(|v| v["map"]["hexes"][0]["terrain"] = serde_json::json!(["village"])), "map.hexes[0].terrain: only additive (\"+N\") terrain: a hex needs a base terrain (5.4)"),
    ];
    for (edit, want) in cases {
        let mut v = demo_json();
        edit(&mut v);
        assert_eq!(load(&v).unwrap_err().to_string(), want);
    }
}

#[test]
fn tiny_builder_scenarios_validate() {
    let sc = Tiny::new(3, 3).leg("a1", Side::A, 1, 1, 1, "0101").build();
    assert_eq!(sc.hexes.len(), 9);
    assert_eq!(sc.unit_index(&u("a1")), Some(0));
}
