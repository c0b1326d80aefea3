//! Scenario loading: every invalid scenario is refused with the JSON path of the
//! problem, never a panic.
use crate::common;
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

fn builtin_json(name: &str) -> serde_json::Value {
    serde_json::from_str(&Scenario::builtin(name).unwrap().to_json()).unwrap()
}

type Edit = Box<dyn Fn(&mut serde_json::Value)>;

/// Loads each edited scenario and compares the error, path and message.
fn refused_with(base: &serde_json::Value, cases: Vec<(Edit, &str)>) {
    for (edit, want) in cases {
        let mut v = base.clone();
        edit(&mut v);
        match load(&v) {
            Ok(_) => panic!("accepted; expected {want}"),
            Err(e) => assert_eq!(e.to_string(), want),
        }
    }
}

/// Plays set-up to its end by taking the first legal placement each time.
fn set_up(sc: &Scenario) -> State {
    let mut rng = rng_from_seed(0);
    let (mut s, _) = new_game(sc, &mut rng);
    while let Pending::Setup { .. } = s.pending() {
        let c = legal_commands(sc, &s)
            .first()
            .cloned()
            .expect("set-up never dead-ends");
        let ev = apply(sc, &s, &c, &mut rng).unwrap();
        s.apply_events(sc, &ev);
    }
    s
}

/// 3.0(b): a set-up zone has hexes, each listed once, and room for the units that set
/// up in it: one unit a hex (Suez 1916 17.1: a stack), none on prohibited hexes or on
/// hexes held at the start, and zones of one side that share hexes share their room.
/// The sides' zones are apart. Before, such a scenario loaded and the game waited at
/// set-up with no legal command.
#[test]
fn setup_zones_have_room_for_their_units() {
    const WHY: &str = "an open hex takes one unit (more where stacking is allowed); \
                       prohibited hexes and hexes held at the start take none (3.0(b), 5.3)";
    let both = |v: &mut serde_json::Value| {
        v["units"][11]["start"] = serde_json::json!({"zone": "red-rear"});
    };
    let room_1 = format!(
        "setup.zones.red-rear: 2 units of side b set up in this zone but it has room for only 1: {WHY}"
    );
    let sea = format!(
        "setup.zones.red-rear: 1 unit of side b set up in this zone but it has room for only 0: {WHY}"
    );
    let held = format!(
        "setup.zones.blue-rear: 1 unit of side a set up in this zone but it has room for only 0: {WHY}"
    );
    let shared = format!(
        "setup.zones: 2 units of side b set up in zones 'red-east', 'red-rear', which share \
         hexes, but they have room for only 1: {WHY}"
    );
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["setup"]["zones"]["red-rear"] = serde_json::json!([])), "setup.zones.red-rear: the zone has no hexes"),
        (Box::new(|v| v["setup"]["zones"]["red-rear"] = serde_json::json!(["1104", "1105", "1104"])), "setup.zones.red-rear[2]: hex 1104 is listed twice"),
        (Box::new(move |v| { both(v); v["setup"]["zones"]["red-rear"] = serde_json::json!(["1104"]); }), &room_1),
        // 0110 is all-sea.
        (Box::new(|v| v["setup"]["zones"]["red-rear"] = serde_json::json!(["0110"])), &sea),
        // Blue's recon battalion and artillery start on 0204 and 0105.
        (Box::new(|v| v["setup"]["zones"]["blue-rear"] = serde_json::json!(["0204", "0105"])), &held),
        (Box::new(move |v| {
            both(v);
            v["units"][11]["start"] = serde_json::json!({"zone": "red-east"});
            v["setup"]["zones"]["red-east"] = serde_json::json!(["1104"]);
            v["setup"]["zones"]["red-rear"] = serde_json::json!(["1104"]);
        }), &shared),
        (Box::new(|v| v["units"][12]["start"] = serde_json::json!({"zone": "blue-rear"})), "units[12].start.zone: zone 'blue-rear' is where side a sets up ('blue-commando-co'): a side setting up first could fill the other's hexes, so the sides' zones are apart"),
        (Box::new(|v| v["setup"]["zones"]["blue-rear"][0] = serde_json::json!("1108")), "setup.zones.red-rear[4]: hex 1108 is also in zone 'blue-rear', where side a sets up: a side setting up first could fill the other's hexes, so the sides' zones are apart"),
    ];
    refused_with(&demo_json(), cases);
    // Exactly enough room loads, and set-up runs to its end.
    let mut v = demo_json();
    both(&mut v);
    v["setup"]["zones"]["red-rear"] = serde_json::json!(["1104", "0110", "1105"]);
    let sc = load(&v).unwrap();
    let s = set_up(&sc);
    assert_eq!(s.units[11].hex(), Some(h("1104")));
    assert_eq!(s.units[12].hex(), Some(h("1105")));
    // Suez 1916 17.1: Pelusium Station's one hex takes a British stack of two (the
    // built-in set-up), not three; the armored train needs a railroad hex of its zone
    // (13.3).
    let stack = format!(
        "setup.zones.pelusium-station: 3 units of side b set up in this zone but it has room \
         for only 2: {WHY}"
    );
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["units"][23]["start"] = serde_json::json!({"zone": "pelusium-station"})), &stack),
        (Box::new(|v| v["units"][17]["start"] = serde_json::json!({"zone": "hill-40"})), "units[17].start.zone: zone 'hill-40' has no railroad hex: the armored train sets up on the railroad (13.3)"),
        (Box::new(|v| v["units"][17]["start"] = serde_json::json!({"hex": "0644"})), "units[17].start.hex: 0644 is not a railroad hex: the armored train starts on the railroad (13.3)"),
    ];
    refused_with(&builtin_json("suez-1916"), cases);
}

/// 3.0(a): when units set up in zones, `setup.order` lists every side that has such
/// units, each once. Before, `[]` meant "a then b" and `["a", "a"]` left side b's
/// units waiting forever.
#[test]
fn setup_order_lists_each_side_with_units_to_place_once() {
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["setup"]["order"] = serde_json::json!([])), "setup.order: side a has units to set up (units[5], 'blue-commando-co') but is not in the set-up order (3.0(a))"),
        (Box::new(|v| v["setup"]["order"] = serde_json::json!(["a", "a"])), "setup.order[1]: side a is listed twice"),
        (Box::new(|v| v["setup"]["order"] = serde_json::json!(["a"])), "setup.order: side b has units to set up (units[12], 'red-militia-bn') but is not in the set-up order (3.0(a))"),
        (Box::new(|v| {
            v["units"][5]["start"] = serde_json::json!({"hex": "0101"});
            v["units"][12]["start"] = serde_json::json!({"hex": "1104"});
            v["setup"]["order"] = serde_json::json!(["b", "b"]);
        }), "setup.order[1]: side b is listed twice"),
    ];
    refused_with(&demo_json(), cases);
    // Either order of both sides is valid; a side with nothing to place may be listed.
    let mut v = demo_json();
    v["setup"]["order"] = serde_json::json!(["a", "b"]);
    let sc = load(&v).unwrap();
    assert_eq!(start(&sc).pending(), Pending::Setup { side: Side::A });
    v["units"][5]["start"] = serde_json::json!({"hex": "0101"});
    let sc = load(&v).unwrap();
    assert_eq!(start(&sc).pending(), Pending::Setup { side: Side::B });
    // Without zone units the order is not used.
    v["units"][12]["start"] = serde_json::json!({"hex": "1104"});
    v["setup"]["order"] = serde_json::json!([]);
    let sc = load(&v).unwrap();
    assert!(matches!(start(&sc).pending(), Pending::Phase { .. }));
}

/// 8.2.2: a bridge counts as the river-type feature it crosses; a bridge over itself,
/// over another bridge or over a feature with no every-attacker test is refused.
#[test]
fn bridges_cross_a_river_type_feature() {
    // terrain.hexside: 0 river, 1 bridge (over river), 2 stream, 5 road.
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["terrain"]["hexside"][1]["bridge_over"] = serde_json::json!("bridge")), "terrain.hexside[1].bridge_over: 'bridge' cannot bridge itself"),
        (Box::new(|v| v["terrain"]["hexside"][2]["bridge_over"] = serde_json::json!("bridge")), "terrain.hexside[2].bridge_over: 'bridge' is itself a bridge: a bridge crosses a river-type feature, not another bridge (8.2.2)"),
        (Box::new(|v| v["terrain"]["hexside"][1]["bridge_over"] = serde_json::json!("road")), "terrain.hexside[1].bridge_over: 'road' is not a river-type feature (`all_attackers`): a bridge crosses a river or ditch (8.2.2)"),
        (Box::new(|v| v["terrain"]["hexside"][1]["bridge_over"] = serde_json::json!("moat")), "terrain.hexside[1].bridge_over: unknown hexside feature 'moat'"),
    ];
    refused_with(&demo_json(), cases);
    let mut v = demo_json();
    v["terrain"]["hexside"][1]["bridge_over"] = serde_json::json!("stream");
    assert_eq!(load(&v).unwrap().bridge_of[1], Some(2));
}

/// 5.4, 5.4.1: no hex terrain costs 0 MP to enter and no road 0 MP to cross (a unit
/// could move without limit); "+0", an additive feature adding nothing, stays valid.
#[test]
fn zero_move_costs_are_refused_but_plus_zero_is_valid() {
    const HEX: &str = "terrain.hex[0].move: a hex costs at least some MP to enter (5.4): a \
                       cost of 0 would let a unit move without limit (an additive feature \
                       writes \"+0\")";
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["terrain"]["hex"][0]["move"] = serde_json::json!("0")), HEX),
        (Box::new(|v| v["terrain"]["hex"][0]["move"] = serde_json::json!(0)), HEX),
        (Box::new(|v| v["terrain"]["hexside"][5]["road"] = serde_json::json!("0")), "terrain.hexside[5].road: a road costs at least some MP to cross (5.4.1): 0 would let a unit move without limit"),
    ];
    refused_with(&demo_json(), cases);
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(|v| v["terrain"]["hexside"][4]["road_for_tags"]["british-foot"] = serde_json::json!("0")), "terrain.hexside[4].road_for_tags.british-foot: a road costs at least some MP to cross (5.4.1): 0 would let a unit move without limit"),
    ];
    refused_with(&builtin_json("suez-1916"), cases);
    // "+0" on hex terrain and on hexsides (the built-in bridges), and a hexside "0"
    // (hexside costs always add), load.
    let mut v = demo_json();
    v["terrain"]["hex"][11]["move"] = serde_json::json!("+0");
    v["terrain"]["hexside"][0]["move"] = serde_json::json!("0");
    let sc = load(&v).unwrap();
    assert_eq!(sc.data.terrain.hexside[1].cost, MoveCost::Plus(Mp::ZERO));
    assert_eq!(sc.data.terrain.hex[11].cost, MoveCost::Plus(Mp::ZERO));
}

/// Meuse Argonne parameters are checked like Vimy Ridge's and Suez 1916's: every hex
/// on the map, every unit in the order of battle on the right side (13.1: the
/// three-step divisions and the brigade chits are US units), each listed once, every
/// terrain and CRT line known, no more artillery entries than turns.
#[test]
fn meuse_parameters_are_checked() {
    let p = |v: &mut serde_json::Value, key: &str, x: serde_json::Value| {
        v["rules"]["meuse-argonne"][key] = x;
    };
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(move |v| p(v, "sedan", serde_json::json!("9999"))), "rules.meuse-argonne.sedan: hex 9999 is not on the map"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["stellung_line"][3] = serde_json::json!("3141")), "rules.meuse-argonne.stellung_line[3]: hex 3141 is not on the map"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["allied_replacement_entry"][0] = serde_json::json!("0041")), "rules.meuse-argonne.allied_replacement_entry[0]: hex 0041 is not on the map"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["german_replacement_entry"][68] = serde_json::json!("9901")), "rules.meuse-argonne.german_replacement_entry[68]: hex 9901 is not on the map"),
        (Box::new(move |v| p(v, "german_replacement_entry", serde_json::json!(vec!["0101"; 2501]))), "rules.meuse-argonne.german_replacement_entry: 2501 hexes, more than the 2500 a list of hexes may have"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["three_step_divisions"][1] = serde_json::json!("us-99-div")), "rules.meuse-argonne.three_step_divisions[1]: unknown unit 'us-99-div'"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["three_step_divisions"][1] = serde_json::json!("ger-1-a-div")), "rules.meuse-argonne.three_step_divisions[1]: 'ger-1-a-div' is a side b unit, not side a"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["three_step_divisions"][1] = serde_json::json!("us-4-div")), "rules.meuse-argonne.three_step_divisions[1]: 'us-4-div' is listed twice"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["brigades"][2] = serde_json::json!("ger-1-g-div")), "rules.meuse-argonne.brigades[2]: 'ger-1-g-div' is a side b unit, not side a"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["brigades"][2] = serde_json::json!("us-bde-1")), "rules.meuse-argonne.brigades[2]: 'us-bde-1' is listed twice"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["brigades"][2] = serde_json::json!("us-32-div")), "rules.meuse-argonne.brigades[2]: 'us-32-div' is also a three-step division"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["bombardment_modifiers"][1]["terrain"] = serde_json::json!("lava")), "rules.meuse-argonne.bombardment_modifiers[1].terrain: unknown terrain 'lava'"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["trench_terrains"][2] = serde_json::json!("lava")), "rules.meuse-argonne.trench_terrains[2]: unknown terrain 'lava'"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["fortress_terrains"][0] = serde_json::json!("lava")), "rules.meuse-argonne.fortress_terrains[0]: unknown terrain 'lava'"),
        (Box::new(move |v| v["rules"]["meuse-argonne"]["forest_terrains"][0] = serde_json::json!("lava")), "rules.meuse-argonne.forest_terrains[0]: unknown terrain 'lava'"),
        (Box::new(move |v| p(v, "fortification_terrain", serde_json::json!("lava"))), "rules.meuse-argonne.fortification_terrain: unknown terrain 'lava'"),
        (Box::new(move |v| p(v, "woods_terrain", serde_json::json!("lava"))), "rules.meuse-argonne.woods_terrain: unknown terrain 'lava'"),
        (Box::new(move |v| p(v, "lost_battalion_line", serde_json::json!("lava"))), "rules.meuse-argonne.lost_battalion_line: unknown CRT line 'lava'"),
        (Box::new(move |v| { let a = v["rules"]["meuse-argonne"]["artillery"][0].clone(); v["rules"]["meuse-argonne"]["artillery"].as_array_mut().unwrap().push(a); }), "rules.meuse-argonne.artillery: 25 entries for 24 turns"),
    ];
    refused_with(&builtin_json("meuse-argonne"), cases);
}

/// Validation plays the opening (with a fixed generator: nothing random comes before
/// the first decision that could change whether it has a legal command) and requires
/// a legal command there unless the game is over. Here Vimy Ridge 19.1 cannot be met:
/// the German zone is one row of hexes, but the three divisions set up north to south.
#[test]
fn the_first_decision_has_a_legal_command() {
    let mut v = builtin_json("vimy-ridge");
    let german: Vec<String> =
        serde_json::from_value(v["setup"]["zones"]["german"].clone()).unwrap();
    let mut by_row: std::collections::BTreeMap<&str, Vec<&String>> = Default::default();
    for x in &german {
        by_row.entry(&x[2..]).or_default().push(x);
    }
    let row = by_row.values().max_by_key(|r| r.len()).unwrap().clone();
    assert!(row.len() >= 6, "{row:?}");
    v["setup"]["zones"]["german"] = serde_json::json!(row);
    // Two units of each German division set up; the rest are held off the map.
    let mut kept: std::collections::BTreeMap<String, usize> = Default::default();
    let mut first = None;
    for (i, u) in v["units"].as_array_mut().unwrap().iter_mut().enumerate() {
        if u["side"] != "b" || u["start"]["zone"] != "german" {
            continue;
        }
        let n = kept
            .entry(u["formation"].as_str().unwrap().to_string())
            .or_default();
        *n += 1;
        if *n > 2 {
            u["start"] = serde_json::json!("off_map");
        } else if first.is_none() {
            first = Some(i);
        }
    }
    let first = v["units"][first.unwrap()]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let e = load(&v).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "setup: side b sets up first but may place none of its 6 units in any hex of its \
             zones (first: '{first}' in 'german'), so the game could not start"
        )
    );
    // Every built-in scenario reaches its first decision with a legal command.
    for name in Scenario::builtin_names() {
        let sc = Scenario::builtin(name).unwrap();
        assert!(!legal_commands(&sc, &start(&sc)).is_empty(), "{name}");
    }
}

/// `n` side-a leg units of MA 99 in a row of 50 every ten rows from 0101.
fn crowd(mut t: Tiny, n: usize) -> Tiny {
    for k in 0..n {
        let hex = Hex::new((k % 50) as u8 + 1, (k / 50) as u8 * 10 + 1);
        t = t.leg(&format!("a{k}"), Side::A, 1, 1, 99, &hex.to_string());
    }
    t
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = std::time::Instant::now();
    let x = f();
    let took = t.elapsed();
    eprintln!("{what}: {took:?}");
    // Measured at 0.2-0.5 s on one core of the development machine; the bound leaves
    // room for a loaded machine, while the unbounded listings took many seconds.
    assert!(took.as_secs() < 5, "{what} took {took:?}");
    x
}

/// A scenario at every size limit loads, and its worst listings stay bounded: every
/// unit of MAX_UNITS (MA 99) reaching every hex of a MAX_HEXES map (562,501 moves),
/// and a set-up of MAX_SETUP_CHOICES placements, under the system rules and under the
/// Suez 1916 set-up look-ahead (the costliest per placement).
#[test]
fn scenarios_at_the_limits_load_and_list_quickly() {
    let sc = timed("load 2500 hexes, 250 units", || {
        crowd(Tiny::new(50, 50), MAX_UNITS).build()
    });
    assert_eq!((sc.hexes.len(), sc.units.len()), (MAX_HEXES, MAX_UNITS));
    let s = start(&sc);
    let moves = timed("moves listing", || legal_commands(&sc, &s));
    assert_eq!(moves.len(), 1 + MAX_UNITS * (MAX_HEXES - MAX_UNITS));
    drop(moves);
    // MAX_SETUP_CHOICES: 40 units, each of whose zones is the whole map.
    let all: Vec<Hex> = sc.hexes.iter().map(|x| x.hex).collect();
    let n = MAX_SETUP_CHOICES / MAX_HEXES;
    let mut t = Tiny::new(50, 50);
    for k in 0..n {
        t = t
            .leg(&format!("z{k}"), Side::A, 1, 1, 4, "0101")
            .with_last(|d| d.start = StartData::Zone("all".into()));
    }
    t.data.setup.order = vec![Side::A];
    t.data.setup.zones.insert("all".into(), all.clone());
    let sc = t.build();
    let s = start(&sc);
    let placements = timed("set-up listing", || legal_commands(&sc, &s));
    assert_eq!(placements.len(), MAX_SETUP_CHOICES);
    // Suez 1916: MAX_UNITS British half-brigades of three divisions in a 400-hex zone.
    let mut b = suez::suez(20, 20);
    for k in 0..MAX_UNITS {
        b = b
            .br(&format!("b{k}"), &format!("div-{}", k % 3), "0101")
            .with_last(|d| d.start = StartData::Zone("z".into()));
    }
    b.tiny.data.setup.order = vec![Side::B];
    let zone: Vec<Hex> = all
        .into_iter()
        .filter(|x| x.col <= 20 && x.row <= 20)
        .collect();
    b.tiny.data.setup.zones.insert("z".into(), zone);
    let sc = timed("load Suez set-up", || b.build());
    let s = start(&sc);
    let placements = timed("Suez set-up listing", || legal_commands(&sc, &s));
    assert_eq!(placements.len(), MAX_SETUP_CHOICES);
}

/// One past each size limit is refused, naming the limit.
#[test]
fn scenarios_beyond_the_limits_are_refused() {
    let mut t = crowd(Tiny::new(50, 50), 1);
    t.data.map.hexes.push(HexData {
        id: h("5101"),
        terrain: vec!["clear".into()],
        name: None,
    });
    assert_eq!(
        Scenario::from_data(t.data).unwrap_err().to_string(),
        "map.hexes: 2501 hexes, more than the 2500 a scenario may have"
    );
    let t = crowd(Tiny::new(50, 50), MAX_UNITS + 1);
    assert_eq!(
        Scenario::from_data(t.data).unwrap_err().to_string(),
        "units: 251 units, more than the 250 a scenario may have"
    );
    let mut t = Tiny::new(50, 50);
    for k in 0..41 {
        t = t
            .leg(&format!("z{k}"), Side::A, 1, 1, 4, "0101")
            .with_last(|d| d.start = StartData::Zone("all".into()));
    }
    t.data.setup.order = vec![Side::A];
    let all = t.data.map.hexes.iter().map(|x| x.id).collect();
    t.data.setup.zones.insert("all".into(), all);
    assert_eq!(
        Scenario::from_data(t.data).unwrap_err().to_string(),
        "setup.zones: 102500 set-up placements (each unit that sets up in a zone times the \
         hexes of its zone), more than the 100000 a scenario may have"
    );
    let repeat = |v: &serde_json::Value, n: usize| serde_json::Value::Array(vec![v.clone(); n]);
    let cases: Vec<(Edit, &str)> = vec![
        (Box::new(move |v| v["turns"] = repeat(&v["turns"][0], 101)), "turns: 101 turns, more than the 100 a scenario may have"),
        (Box::new(move |v| {
            // system-demo has two.
            for k in 0..63 {
                v["setup"]["zones"][format!("z{k}")] = serde_json::json!(["0101"]);
            }
        }), "setup.zones: 65 set-up zones, more than the 64 a scenario may have"),
        (Box::new(move |v| v["support_markers"]["b"] = repeat(&serde_json::json!(1), 65)), "support_markers.b: 65 markers, more than the 64 a side may have"),
        (Box::new(move |v| {
            let t = v["terrain"]["hex"][0].clone();
            for k in 0..51 {
                let mut t = t.clone();
                t["id"] = serde_json::json!(format!("t{k}"));
                v["terrain"]["hex"].as_array_mut().unwrap().push(t);
            }
        }), "terrain.hex: 65 terrain types, more than the 64 a scenario may have"),
        (Box::new(move |v| v["terrain"]["hexside"] = repeat(&v["terrain"]["hexside"][0], 65)), "terrain.hexside: 65 hexside features, more than the 64 a scenario may have"),
        (Box::new(move |v| v["crt"]["lines"] = repeat(&v["crt"]["lines"][0], 65)), "crt.lines: 65 lines, more than the 64 a CRT may have"),
        (Box::new(move |v| v["victory"]["conditions"] = repeat(&v["victory"]["conditions"][0], 65)), "victory.conditions: 65 conditions, more than the 64 a scenario may have"),
        (Box::new(move |v| v["units"][0]["tags"] = repeat(&serde_json::json!("x"), 65)), "units[0].tags: 65 tags, more than the 64 a unit may have"),
        (Box::new(move |v| v["map"]["hexes"][0]["terrain"] = repeat(&serde_json::json!("clear"), 65)), "map.hexes[0].terrain: 65 terrain types, more than the 64 a hex may have"),
        (Box::new(move |v| v["map"]["hexsides"] = repeat(&v["map"]["hexsides"][0], 7501)), "map.hexsides: 7501 hexsides, more than the 7500 a scenario may have"),
        (Box::new(move |v| v["map"]["friendly_edges"]["a"] = repeat(&serde_json::json!("0101"), 2501)), "map.friendly_edges.a: 2501 hexes, more than the 2500 a list of hexes may have"),
        (Box::new(move |v| v["units"][7]["start"]["reinforcement"]["entry"] = repeat(&serde_json::json!("0104"), 2501)), "units[7].start.reinforcement.entry: 2501 hexes, more than the 2500 a list of hexes may have"),
        (Box::new(move |v| v["victory"]["conditions"][2]["hexes"] = repeat(&serde_json::json!("0805"), 2501)), "victory.conditions[2].hexes: 2501 hexes, more than the 2500 a list of hexes may have"),
    ];
    refused_with(&demo_json(), cases);
    let cases: Vec<(Edit, &str)> = vec![(
        Box::new(move |v| {
            let pool = &mut v["rules"]["suez-1916"]["central_powers_pool"];
            *pool = repeat(&pool[0], 65);
        }),
        "rules.suez-1916.central_powers_pool: 65 markers, more than the 64 a marker list may have",
    )];
    refused_with(&builtin_json("suez-1916"), cases);
}
