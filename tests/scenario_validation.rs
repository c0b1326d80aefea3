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
    assert!(e.path.starts_with("line 1 column"), "{e}");
    let e = Scenario::from_json("[]").unwrap_err();
    assert!(e.path.starts_with("line"), "{e}");
    let e = Scenario::from_json("{\"id\": 3}").unwrap_err();
    assert!(e.message.contains("invalid type"), "{e}");
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
