//! Tests of whole scenarios: JSON read by [`from_json_value`] and checked by
//! [`validate`], the built-in battles among them.

use super::validation::json_name;
use super::*;
use crate::error::ScenarioError;
use crate::huzzah::geometry::{Facing, Len, Point};
use crate::huzzah::quality::{ExpectedQuality, FireArm, Quality, QualityTable};
use crate::ids::Side;
use serde_json::{json, Value};

fn inf(id: &str, division: &str, x: i32, y: i32, facing: u16) -> Value {
    json!({
        "id": id, "division": division,
        "bases": ["infantry", "infantry", "infantry", "infantry"],
        "expected": "regulars_b", "formation": "line", "ranks": [4],
        "position": [x, y], "facing": facing
    })
}

fn side(p: &str, y: i32, facing: u16) -> Value {
    json!({
        "name": p, "skirmish_factor": 8, "artillery_factor": 8,
        "officers": [
            {"id": format!("{p}-cinc"), "rank": "cinc", "quality": "average"},
            {"id": format!("{p}-gen"), "rank": "division", "quality": "poor"}
        ],
        "divisions": [{"id": format!("{p}-d"), "officer": format!("{p}-gen")}],
        "units": [inf(&format!("{p}-1"), &format!("{p}-d"), 900, y, facing)]
    })
}

/// A valid minimal scenario: one division and one infantry unit a side, 800 mm apart.
fn minimal() -> Value {
    json!({
        "id": "test", "name": "Test", "provenance": "stand-in: a test",
        "table": {"width_mm": 1800, "depth_mm": 1200},
        "base_mm": 40, "turns": 6, "battle": "encounter", "setup": "placed",
        "first": "a",
        "conditions": [{"turn": 1, "ground": "normal", "weather": "fair"}],
        "sides": {"a": side("fr", 200, 0), "b": side("br", 1000, 180)}
    })
}

fn woods() -> Value {
    json!({
        "id": "w1", "kind": "woods",
        "polygon": [[100, 100], [500, 100], [500, 400], [100, 400]],
        "sectors": [
            [[100, 100], [300, 100], [300, 400], [100, 400]],
            [[300, 100], [500, 100], [500, 400], [300, 400]]
        ]
    })
}

fn load(v: Value) -> Result<Scenario, ScenarioError> {
    validate(from_json_value(v)?)
}

#[track_caller]
fn refused(v: Value, path: &str, needles: &[&str]) {
    let e = match load(v) {
        Ok(_) => panic!("accepted; expected an error at {path}"),
        Err(e) => e,
    };
    assert_eq!(e.path, path, "{e}");
    for n in needles {
        assert!(e.message.contains(n), "the message lacks {n:?}: {e}");
    }
}

fn example() -> Value {
    let mut v: Value =
        serde_json::from_str(include_str!("../../../scenarios/huzzah-firefight.json")).unwrap();
    let system = v.as_object_mut().unwrap().remove("system");
    assert_eq!(system, Some(json!("huzzah")));
    v
}

fn units<'a>(v: &'a mut Value, side: &str) -> &'a mut Vec<Value> {
    v["sides"][side]["units"].as_array_mut().unwrap()
}

#[test]
fn minimal_scenario_loads() {
    let sc = load(minimal()).unwrap();
    assert_eq!(sc.data().id, "test");
    assert_eq!(
        sc.table(),
        TableSize {
            width: Len(18_000),
            depth: Len(12_000)
        }
    );
    assert_eq!(sc.base(), Len::mm(40));
    assert_eq!(sc.turns(), 6);
    assert_eq!(sc.battle(), Battle::Encounter);
    assert_eq!(sc.battle().min_setup_distance(), Len::cm(80));
    assert_eq!(sc.setup(), Setup::Placed);
    assert_eq!(sc.first(), Some(Side::A));
    assert_eq!(sc.units().len(), 2);
    let a = sc.unit_index("fr-1").unwrap();
    let b = sc.unit_index("br-1").unwrap();
    assert_eq!((a, b), (UnitIx(0), UnitIx(1)));
    assert_eq!(sc.unit_index("nobody"), None);
    assert_eq!(sc.units_of(Side::A).len(), 1);
    assert_eq!(sc.units_of(Side::B)[0].ix, b);
    let u = sc.unit(b);
    assert_eq!(u.side, Side::B);
    assert_eq!(u.id.as_str(), "br-1");
    assert_eq!(u.arm, Arm::Infantry);
    assert_eq!(
        u.position,
        Point {
            x: Len(9000),
            y: Len(10_000)
        }
    );
    assert_eq!(u.facing, Facing(180));
    assert_eq!((u.formation, u.front_rank()), (Formation::Line, 4));
    assert_eq!(u.fire_range(), Some(INFANTRY_RANGE));
    assert_eq!(u.reserve_artillery_range(), None);
    assert_eq!(u.effective_expected(), ExpectedQuality::RegularsB);
    let d = sc.division(u.division);
    assert_eq!((d.id.as_str(), d.units.as_slice()), ("br-d", &[b][..]));
    let cinc = sc.cinc(Side::B);
    assert_eq!(sc.officer(cinc).id, "br-cinc");
    assert_eq!(sc.officer(cinc).commands, Some(CommandGroup::Army));
    assert_eq!(sc.corps_officer(u.division), cinc);
    let gen = sc.officer_index("br-gen").unwrap();
    assert_eq!(d.officer, gen);
    assert_eq!(
        sc.officer(gen).commands,
        Some(CommandGroup::Division(u.division))
    );
    assert_eq!(sc.officers_of(Side::B).len(), 2);
    assert_eq!(sc.officers_of(Side::A)[0].id, "fr-cinc");
    assert_eq!(sc.side(Side::A).name, "fr");
    assert!(sc.corps_list().is_empty());
    assert_eq!(sc.quality_table(), &QualityTable::stand_in());
    assert!(sc.movement().provenance().starts_with("stand-in:"));
}

#[test]
fn example_scenario_loads() {
    let sc = load(example()).unwrap();
    assert_eq!(sc.data().id, "huzzah-firefight");
    assert!(sc.data().provenance.starts_with("stand-in:"));
    assert_eq!((sc.turns(), sc.base()), (6, Len::cm(4)));
    assert_eq!(sc.units_of(Side::A).len(), 4);
    assert_eq!(sc.units_of(Side::B).len(), 3);
    let u = |id: &str| sc.unit(sc.unit_index(id).unwrap());
    assert!(u("fr-1").has_divisional_artillery());
    assert_eq!(u("fr-2").order, UnitOrder::Skirmish);
    let guns = u("fr-guns");
    assert_eq!(guns.arm, Arm::Artillery);
    assert!(!guns.is_grand_battery());
    assert_eq!(guns.fire_range(), Some(Len::cm(60)));
    assert!(u("br-1").flags.renowned);
    assert_eq!(u("br-2").ranks, vec![2, 2]);
    // The lines face each other 150 mm apart, inside infantry range.
    let gap = u("br-2").position.y.0 - u("fr-2").position.y.0;
    assert_eq!(Len(gap), Len::mm(150));
    assert!(Len(gap) < INFANTRY_RANGE);
    assert_eq!(u("fr-1").facing, Facing(0));
    assert_eq!(u("br-1").facing, Facing(180));
    for side in Side::BOTH {
        for x in sc.units_of(side) {
            assert_eq!(sc.division(x.division).side, side);
        }
    }
}

#[test]
fn data_round_trips_through_json() {
    for v in [minimal(), example()] {
        let data = from_json_value(v).unwrap();
        let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
        assert_eq!(data, again);
    }
    let mut v = minimal();
    v["terrain"] = json!([woods()]);
    units(&mut v, "a")[0]["bases"] = json!([
        "foot_artillery",
        {"kind": "heavy_artillery", "expected": "elites_d"}
    ]);
    units(&mut v, "a")[0]["ranks"] = json!([2]);
    let data = from_json_value(v).unwrap();
    let text = serde_json::to_value(&data).unwrap();
    assert_eq!(
        text["sides"]["a"]["units"][0]["bases"],
        json!(["foot_artillery", {"kind": "heavy_artillery", "expected": "elites_d"}])
    );
    assert_eq!(from_json_value(text).unwrap(), data);
}

#[test]
fn validation_is_deterministic() {
    let a = load(example()).unwrap();
    let b = load(example()).unwrap();
    assert_eq!(a.units(), b.units());
    assert_eq!(a.officers(), b.officers());
    assert_eq!(a.divisions(), b.divisions());
}

#[test]
fn unknown_fields_refused_with_path() {
    let cases: [(&[&str], &str); 6] = [
        (&[], "colour"),
        (&["sides", "a", "units", "0"], "sides.a.units[0].colour"),
        (
            &["sides", "b", "units", "0", "bases", "1"],
            "sides.b.units[0].bases[1].colour",
        ),
        (&["table"], "table.colour"),
        (
            &["sides", "a", "officers", "0"],
            "sides.a.officers[0].colour",
        ),
        (&["terrain", "0"], "terrain[0].colour"),
    ];
    for (at, path) in cases {
        let mut v = minimal();
        v["terrain"] = json!([woods()]);
        units(&mut v, "b")[0]["bases"][1] = json!({"kind": "infantry"});
        let mut obj = &mut v;
        for k in at {
            obj = match k.parse::<usize>() {
                Ok(i) => &mut obj[i],
                Err(_) => &mut obj[*k],
            };
        }
        obj["colour"] = json!("blue");
        let e = from_json_value(v).unwrap_err();
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains("unknown field `colour`"), "{e}");
    }
    let mut v = minimal();
    v["sides"]["c"] = json!({});
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "sides.c", "{e}");
    assert!(e.message.contains("unknown field `c`"), "{e}");
}

#[test]
fn deserialize_errors_have_paths() {
    let mut v = minimal();
    v["base_mm"] = json!("40");
    assert_eq!(from_json_value(v).unwrap_err().path, "base_mm");
    let mut v = minimal();
    units(&mut v, "a")[0]["expected"] = json!("regulars_e");
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "sides.a.units[0].expected");
    assert!(e.message.contains("regulars_e"), "{e}");
    let mut v = minimal();
    units(&mut v, "b")[0]
        .as_object_mut()
        .unwrap()
        .remove("facing");
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "sides.b.units[0].facing");
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"][2] = json!("dragoons");
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "sides.b.units[0].bases[2]");
    assert!(e.message.contains("dragoons"), "{e}");
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"][2] = json!({"kind": "dragoons"});
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "sides.b.units[0].bases[2].kind");
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"][2] = json!(7);
    assert_eq!(
        from_json_value(v).unwrap_err().path,
        "sides.b.units[0].bases[2]"
    );
    let mut v = minimal();
    units(&mut v, "a")[0]["position"] = json!([1, 2, 3]);
    assert_eq!(
        from_json_value(v).unwrap_err().path,
        "sides.a.units[0].position"
    );
    let mut v = minimal();
    let mut q = serde_json::to_value(QualityTable::stand_in_data()).unwrap();
    q["rows"]["militia_a"].as_array_mut().unwrap().pop();
    v["quality_table"] = q;
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "quality_table.rows.militia_a", "{e}");
    let mut v = minimal();
    v["quality_table"] = json!({"provenance": "x", "rows": {}});
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "quality_table.rows.elites_a", "{e}");
}

#[test]
fn movement_override_and_its_limits() {
    let mut v = minimal();
    let mut m = serde_json::to_value(MovementData::stand_in()).unwrap();
    m["provenance"] = json!("printed");
    m["cavalry"]["open"] = json!(470);
    v["movement"] = m.clone();
    let sc = load(v).unwrap();
    assert_eq!(
        sc.move_rate(MoveArm::Cavalry, MoveFormation::Open),
        Len::mm(470)
    );
    assert_eq!(sc.officer_move(), Len::cm(60));
    let mut v = minimal();
    m["cavalry"]["open"] = json!(5);
    v["movement"] = m.clone();
    refused(v, "movement.cavalry.open", &["5 mm", "10 to 2000"]);
    let mut v = minimal();
    m["cavalry"]["open"] = json!(450);
    m["officers"] = json!(3000);
    v["movement"] = m.clone();
    refused(v, "movement.officers", &["3000 mm"]);
    let mut v = minimal();
    m["officers"] = json!(600);
    m["provenance"] = json!("");
    v["movement"] = m;
    refused(v, "movement.provenance", &["empty"]);
}

#[test]
fn quality_table_override() {
    let mut v = minimal();
    let mut q = QualityTable::stand_in_data();
    q.provenance = "printed".into();
    q.rows.regulars_b[10] = Quality::Raw;
    v["quality_table"] = serde_json::to_value(&q).unwrap();
    let sc = load(v).unwrap();
    assert_eq!(
        sc.quality_table().result(ExpectedQuality::RegularsB, 12),
        Quality::Raw
    );
    assert_eq!(sc.quality_table().provenance(), "printed");
    let mut v = minimal();
    q.rows.elites_a[4] = Quality::Unreliable;
    v["quality_table"] = serde_json::to_value(&q).unwrap();
    refused(
        v,
        "quality_table.rows.elites_a[5]",
        &["experienced", "page 1"],
    );
}

#[test]
fn top_level_values_checked() {
    let mut v = minimal();
    v["id"] = json!(" ");
    refused(v, "id", &["empty"]);
    let mut v = minimal();
    v["provenance"] = json!("");
    refused(v, "provenance", &["provenance"]);
    let mut v = minimal();
    v["table"]["width_mm"] = json!(50);
    refused(v, "table.width_mm", &["50 mm", "100 to 10000"]);
    let mut v = minimal();
    v["table"]["depth_mm"] = json!(20_000);
    refused(v, "table.depth_mm", &["20000 mm"]);
    let mut v = minimal();
    v["base_mm"] = json!(5);
    refused(v, "base_mm", &["5 mm", "page 2"]);
    let mut v = minimal();
    v["turns"] = json!(0);
    refused(v, "turns", &["0"]);
    let mut v = minimal();
    v["turns"] = json!(101);
    refused(v, "turns", &["101"]);
}

#[test]
fn battle_and_defender_agree() {
    let mut v = minimal();
    v["battle"] = json!("defended");
    refused(v, "defender", &["page 7"]);
    let mut v = minimal();
    v["defender"] = json!("b");
    refused(v, "defender", &["\"b\"", "encounter", "page 7"]);
    let mut v = minimal();
    v["battle"] = json!("defended");
    v["defender"] = json!("b");
    let sc = load(v).unwrap();
    assert_eq!(sc.battle(), Battle::Defended { defender: Side::B });
    assert_eq!(sc.battle().min_setup_distance(), Len::cm(60));
}

#[test]
fn conditions_from_turn_one_strictly_increasing() {
    let mut v = minimal();
    v["conditions"] = json!([
        {"turn": 1, "ground": "soft", "weather": "foul"},
        {"turn": 4, "ground": "soft", "weather": "fair"},
        {"turn": 6, "ground": "hard", "weather": "fair"}
    ]);
    let sc = load(v.clone()).unwrap();
    assert_eq!(sc.conditions_on(1), (Ground::Soft, Weather::Foul));
    assert_eq!(sc.conditions_on(3), (Ground::Soft, Weather::Foul));
    assert_eq!(sc.conditions_on(4), (Ground::Soft, Weather::Fair));
    assert_eq!(sc.conditions_on(6), (Ground::Hard, Weather::Fair));
    v["conditions"][0]["turn"] = json!(2);
    refused(v.clone(), "conditions[0].turn", &["turn 2", "turn 1"]);
    v["conditions"][0]["turn"] = json!(1);
    v["conditions"][2]["turn"] = json!(4);
    refused(v.clone(), "conditions[2].turn", &["turn 4 after turn 4"]);
    v["conditions"][2]["turn"] = json!(7);
    refused(v, "conditions[2].turn", &["turn 7", "6 turns"]);
    let mut v = minimal();
    v.as_object_mut().unwrap().remove("conditions");
    let sc = load(v).unwrap();
    assert_eq!(sc.conditions_on(3), (Ground::Normal, Weather::Fair));
}

#[test]
fn terrain_checked() {
    let mut v = minimal();
    v["terrain"] = json!([woods(), {"id": "h1", "kind": "hedge", "polygon": [[600, 600], [900, 600], [900, 620]]}]);
    let sc = load(v.clone()).unwrap();
    let w = &sc.terrain()[0];
    assert_eq!(w.sectors.len(), 2);
    assert_eq!(
        w.polygon[1],
        Point {
            x: Len(5000),
            y: Len(1000)
        }
    );
    assert!(sc.terrain()[1].sectors.is_empty());
    assert_eq!(
        sc.sector(SectorRef {
            terrain: TerrainIx(0),
            sector: 1
        })[0],
        Point {
            x: Len(3000),
            y: Len(1000)
        }
    );
    assert_eq!(sc.terrain_piece(TerrainIx(1)).kind, TerrainKind::Hedge);

    let mut d = v.clone();
    d["terrain"][1]["id"] = json!("w1");
    refused(d, "terrain[1].id", &["duplicate", "'w1'"]);
    let mut d = v.clone();
    d["terrain"][1]["id"] = json!("h/1");
    refused(d, "terrain[1].id", &["'h/1'", "'/'"]);
    let mut d = v.clone();
    d["terrain"][1]["polygon"] = json!([[600, 600], [900, 600]]);
    refused(d, "terrain[1].polygon", &["2 points", "at least 3"]);
    let mut d = v.clone();
    d["terrain"][1]["polygon"] = json!([[600, 600], [700, 600], [900, 600]]);
    refused(d, "terrain[1].polygon", &["zero area"]);
    let mut d = v.clone();
    d["terrain"][1]["polygon"][1] = json!([1900, 600]);
    refused(
        d,
        "terrain[1].polygon[1]",
        &["[1900, 600]", "off the table"],
    );
    let mut d = v.clone();
    d["terrain"][1]["sectors"] = json!([[[600, 600], [900, 600], [900, 620]]]);
    refused(d, "terrain[1].sectors", &["hedge", "page 19"]);
    let mut d = v.clone();
    d["terrain"][0]["sectors"] = json!([]);
    refused(d, "terrain[0].sectors", &["no sectors"]);
    let mut d = v.clone();
    d["terrain"][0]["sectors"][1][2] = json!([600, 400]);
    refused(
        d,
        "terrain[0].sectors[1][2]",
        &["[600, 400]", "outside", "'w1'"],
    );
    // Buildings without sectors: one sector, the outline.
    let mut d = v.clone();
    d["terrain"][0]["kind"] = json!("buildings");
    d["terrain"][0].as_object_mut().unwrap().remove("sectors");
    let sc = load(d).unwrap();
    assert_eq!(
        sc.terrain()[0].sectors,
        vec![sc.terrain()[0].polygon.clone()]
    );
}

#[test]
fn a_sector_crossing_a_notch_of_its_piece_is_refused() {
    // A U-shaped wood; the sector's vertices are all inside, but its edges cross
    // the notch.
    let mut v = minimal();
    v["terrain"] = json!([{
        "id": "u", "kind": "woods",
        "polygon": [[0, 0], [300, 0], [300, 300], [200, 300], [200, 100], [100, 100], [100, 300], [0, 300]],
        "sectors": [[[50, 250], [250, 250], [250, 280], [50, 280]]]
    }]);
    refused(
        v.clone(),
        "terrain[0].sectors[0][0]",
        &["[50, 250]", "[250, 250]", "crosses"],
    );
    v["terrain"][0]["sectors"] = json!([[[0, 0], [300, 0], [300, 100], [0, 100]]]);
    load(v).unwrap();
}

#[test]
fn size_limits() {
    let mut v = minimal();
    let u = units(&mut v, "a")[0].clone();
    *units(&mut v, "a") = (0..201)
        .map(|i| {
            let mut x = u.clone();
            x["id"] = json!(format!("u{i}"));
            x
        })
        .collect();
    refused(v, "sides.a.units", &["201 units", "200"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(vec!["infantry"; 25]);
    refused(v, "sides.b.units[0].bases", &["25 bases", "24"]);
    let mut v = minimal();
    v["terrain"] = json!(vec![woods(); 201]);
    refused(v, "terrain", &["201 terrain pieces"]);
    let mut v = minimal();
    let mut w = woods();
    w["polygon"] = json!(vec![[1, 1]; 257]);
    v["terrain"] = json!([w]);
    refused(v, "terrain[0].polygon", &["257 points", "256"]);
    let mut v = minimal();
    let o = v["sides"]["a"]["officers"][1].clone();
    let list = v["sides"]["a"]["officers"].as_array_mut().unwrap();
    for i in 0..100 {
        let mut x = o.clone();
        x["id"] = json!(format!("o{i}"));
        list.push(x);
    }
    refused(v, "sides.a.officers", &["102 officers", "100"]);
}

#[test]
fn army_factors() {
    let mut v = minimal();
    v["sides"]["a"]["skirmish_factor"] = json!(5);
    refused(v, "sides.a.skirmish_factor", &["5", "6 to 10", "page 9"]);
    let mut v = minimal();
    v["sides"]["b"]["artillery_factor"] = json!(11);
    refused(v, "sides.b.artillery_factor", &["11", "page 10"]);
}

#[test]
fn officers_checked() {
    let mut v = minimal();
    v["sides"]["b"]["officers"][1]["id"] = json!("fr-gen");
    refused(v, "sides.b.officers[1].id", &["duplicate", "'fr-gen'"]);
    let mut v = minimal();
    v["sides"]["a"]["officers"][0]["rank"] = json!("division");
    refused(
        v,
        "sides.a.officers",
        &["no officer of rank cinc", "page 16"],
    );
    let mut v = minimal();
    v["sides"]["a"]["officers"][1]["rank"] = json!("cinc");
    refused(
        v,
        "sides.a.officers[1].rank",
        &["'fr-gen'", "second cinc", "page 16"],
    );
    let mut v = minimal();
    v["sides"]["a"]["officers"][1]["position"] = json!([100, 1300]);
    refused(
        v,
        "sides.a.officers[1].position",
        &["[100, 1300]", "off the table"],
    );
    let mut v = minimal();
    v["sides"]["a"]["officers"][1]["position"] = json!([100, 300]);
    v["sides"]["a"]["officers"][1]["inspirational"] = json!(true);
    v["sides"]["a"]["officers"][1]["charmed"] = json!(true);
    let sc = load(v).unwrap();
    let o = sc.officer(sc.officer_index("fr-gen").unwrap());
    assert!(o.inspirational && o.charmed);
    assert_eq!(o.quality.command_factor(), 7);
    assert_eq!(o.quality.radius(), Len::cm(30));
    assert_eq!(
        o.position,
        Some(Point {
            x: Len(1000),
            y: Len(3000)
        })
    );
}

#[test]
fn divisions_checked() {
    let mut v = minimal();
    v["sides"]["a"]["divisions"][0]["officer"] = json!("fr-nobody");
    refused(
        v,
        "sides.a.divisions[0].officer",
        &["unknown officer 'fr-nobody'"],
    );
    let mut v = minimal();
    v["sides"]["a"]["divisions"][0]["officer"] = json!("br-gen");
    refused(v, "sides.a.divisions[0].officer", &["'br-gen'", "side b"]);
    let mut v = minimal();
    v["sides"]["a"]["divisions"][0]["officer"] = json!("fr-cinc");
    refused(
        v,
        "sides.a.divisions[0].officer",
        &["'fr-cinc'", "rank cinc", "page 16"],
    );
    let mut v = minimal();
    v["sides"]["a"]["divisions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "fr-d2", "officer": "fr-gen"}));
    refused(
        v,
        "sides.a.divisions[1].officer",
        &["'fr-gen'", "already commands", "page 16"],
    );
    let mut v = minimal();
    v["sides"]["b"]["divisions"][0]["id"] = json!("fr-d");
    units(&mut v, "b")[0]["division"] = json!("fr-d");
    refused(v, "sides.b.divisions[0].id", &["duplicate", "'fr-d'"]);
    let mut v = minimal();
    v["sides"]["a"]["divisions"][0]["corps"] = json!("c1");
    refused(
        v,
        "sides.a.divisions[0].corps",
        &["'c1'", "no corps", "page 16"],
    );
}

/// Side a with two corps of one division each.
fn two_corps() -> Value {
    let mut v = minimal();
    let a = &mut v["sides"]["a"];
    a["officers"] = json!([
        {"id": "fr-cinc", "rank": "cinc", "quality": "excellent"},
        {"id": "fr-c1-gen", "rank": "corps", "quality": "skilful"},
        {"id": "fr-c2-gen", "rank": "corps", "quality": "average"},
        {"id": "fr-gen", "rank": "division", "quality": "poor"},
        {"id": "fr-gen2", "rank": "division", "quality": "abysmal"}
    ]);
    a["corps"] = json!([
        {"id": "fr-c1", "officer": "fr-c1-gen"},
        {"id": "fr-c2", "officer": "fr-c2-gen"}
    ]);
    a["divisions"] = json!([
        {"id": "fr-d", "officer": "fr-gen", "corps": "fr-c1"},
        {"id": "fr-d2", "officer": "fr-gen2", "corps": "fr-c2"}
    ]);
    units(&mut v, "a").push(inf("fr-2", "fr-d2", 400, 200, 0));
    v
}

#[test]
fn corps_checked() {
    let sc = load(two_corps()).unwrap();
    assert_eq!(sc.corps_list().len(), 2);
    let u = sc.unit(sc.unit_index("fr-2").unwrap());
    let c2 = sc.corps(CorpsIx(1));
    assert_eq!(
        (c2.id.as_str(), c2.divisions.as_slice()),
        ("fr-c2", &[u.division][..])
    );
    assert_eq!(
        sc.corps_officer(u.division),
        sc.officer_index("fr-c2-gen").unwrap()
    );
    assert_eq!(
        sc.officer(c2.officer).commands,
        Some(CommandGroup::Corps(CorpsIx(1)))
    );
    assert_eq!(sc.division(u.division).corps, Some(CorpsIx(1)));

    let mut v = two_corps();
    v["sides"]["a"]["corps"].as_array_mut().unwrap().pop();
    refused(v, "sides.a.corps", &["single corps ('fr-c1')", "page 16"]);
    let mut v = minimal();
    v["sides"]["a"]["officers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "fr-spare", "rank": "corps", "quality": "poor"}));
    refused(
        v,
        "sides.a.officers[2].rank",
        &["'fr-spare'", "single corps", "page 16"],
    );
    let mut v = two_corps();
    v["sides"]["a"]["corps"][1]["officer"] = json!("fr-gen2");
    refused(
        v,
        "sides.a.corps[1].officer",
        &["'fr-gen2'", "rank division"],
    );
    let mut v = two_corps();
    v["sides"]["a"]["corps"][1]["officer"] = json!("fr-c1-gen");
    refused(v, "sides.a.corps[1].officer", &["already commands"]);
    let mut v = two_corps();
    v["sides"]["a"]["corps"][1]["id"] = json!("fr-c1");
    refused(v, "sides.a.corps[1].id", &["duplicate", "'fr-c1'"]);
    let mut v = two_corps();
    v["sides"]["a"]["divisions"][1]
        .as_object_mut()
        .unwrap()
        .remove("corps");
    refused(
        v,
        "sides.a.divisions[1].corps",
        &["'fr-d2'", "names no corps"],
    );
    let mut v = two_corps();
    v["sides"]["a"]["divisions"][1]["corps"] = json!("fr-c9");
    refused(v, "sides.a.divisions[1].corps", &["unknown corps 'fr-c9'"]);
}

#[test]
fn units_checked() {
    let mut v = minimal();
    units(&mut v, "b")[0]["id"] = json!("fr-1");
    refused(v, "sides.b.units[0].id", &["duplicate", "'fr-1'"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["division"] = json!("br-x");
    refused(v, "sides.b.units[0].division", &["unknown division 'br-x'"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["division"] = json!("fr-d");
    refused(v, "sides.b.units[0].division", &["'fr-d'", "other side"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["position"] = json!([-1, 200]);
    refused(
        v,
        "sides.a.units[0].position",
        &["[-1, 200]", "off the table"],
    );
    let mut v = minimal();
    units(&mut v, "a")[0]["facing"] = json!(360);
    refused(v, "sides.a.units[0].facing", &["360", "0 to 359"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["bases"] = json!([]);
    units(&mut v, "a")[0]["ranks"] = json!([]);
    refused(v, "sides.a.units[0].bases", &["no bases"]);
}

#[track_caller]
fn refused_bases(bases: Value, path: &str, needles: &[&str]) {
    let mut v = minimal();
    let n = bases.as_array().unwrap().len();
    units(&mut v, "b")[0]["bases"] = bases;
    units(&mut v, "b")[0]["ranks"] = json!([n]);
    refused(v, path, needles);
}

#[test]
fn composition_page_3() {
    refused_bases(
        json!(["infantry", "infantry", "battle_cavalry"]),
        "sides.b.units[0].bases[2]",
        &["battle_cavalry", "infantry and cavalry", "page 3"],
    );
    refused_bases(
        json!(["other_cavalry", "infantry"]),
        "sides.b.units[0].bases[1]",
        &["infantry", "infantry and cavalry", "page 3"],
    );
    refused_bases(
        json!(["battle_cavalry", "horse_artillery"]),
        "sides.b.units[0].bases[1]",
        &["horse_artillery", "cavalry and artillery", "page 3"],
    );
    refused_bases(
        json!(["foot_artillery", "battle_cavalry"]),
        "sides.b.units[0].bases[1]",
        &["battle_cavalry", "cavalry and artillery"],
    );
    refused_bases(
        json!(["divisional_artillery", "battle_cavalry"]),
        "sides.b.units[0].bases[0]",
        &["divisional_artillery", "cavalry and artillery"],
    );
    refused_bases(
        json!(["infantry", "divisional_artillery", "divisional_artillery"]),
        "sides.b.units[0].bases[2]",
        &["divisional_artillery", "maximum of one", "page 3"],
    );
    refused_bases(
        json!(["divisional_artillery"]),
        "sides.b.units[0].bases[0]",
        &["divisional_artillery", "page 3"],
    );
    refused_bases(
        json!(["foot_artillery", "divisional_artillery"]),
        "sides.b.units[0].bases[1]",
        &["divisional_artillery", "only to infantry", "page 3"],
    );
    refused_bases(
        json!(["infantry", "foot_artillery"]),
        "sides.b.units[0].bases[1]",
        &[
            "foot_artillery",
            "only to other reserve artillery",
            "page 3",
        ],
    );
    refused_bases(
        json!(["heavy_artillery", "infantry"]),
        "sides.b.units[0].bases[1]",
        &["infantry", "only to other reserve artillery"],
    );
    refused_bases(
        json!(["infantry", {"kind": "infantry", "expected": "elites_a"}]),
        "sides.b.units[0].bases[1].expected",
        &["infantry", "reserve artillery", "page 6"],
    );
}

#[test]
fn unit_kinds_that_load() {
    let mut v = minimal();
    let us = units(&mut v, "a");
    us[0]["bases"] = json!(["divisional_artillery", "infantry", "infantry"]);
    us[0]["ranks"] = json!([3]);
    let mut bat = inf("fr-gb", "fr-d", 1500, 100, 0);
    bat["bases"] = json!([
        {"kind": "foot_artillery", "expected": "elites_d"},
        "heavy_artillery",
        {"kind": "horse_artillery"}
    ]);
    bat["ranks"] = json!([3]);
    us.push(bat);
    let mut cav = inf("fr-cav", "fr-d", 300, 100, 0);
    cav["bases"] = json!(["battle_cavalry", "other_cavalry"]);
    cav["ranks"] = json!([2]);
    us.push(cav);
    let mut cossacks = inf("fr-cos", "fr-d", 100, 100, 0);
    cossacks["bases"] = json!(["other_cavalry", "other_cavalry"]);
    cossacks["ranks"] = json!([1, 1]);
    cossacks["formation"] = json!("column");
    cossacks["order"] = json!("irregular");
    us.push(cossacks);
    let mut ottomans = inf("fr-ott", "fr-d", 100, 500, 0);
    ottomans["bases"] = json!([
        "irregular_infantry",
        "irregular_infantry",
        "divisional_artillery"
    ]);
    ottomans["ranks"] = json!([3]);
    ottomans["order"] = json!("irregular");
    us.push(ottomans);
    let mut square = inf("fr-sq", "fr-d", 1700, 500, 90);
    square["formation"] = json!("square");
    square["ranks"] = json!([2, 2]);
    square["order"] = json!("skirmish_limited");
    square["grognards"] = json!(true);
    square["disciplined"] = json!(true);
    square["quality"] = json!("veteran");
    us.push(square);
    let sc = load(v).unwrap();
    let u = |id: &str| sc.unit(sc.unit_index(id).unwrap());
    assert!(u("fr-1").has_divisional_artillery());
    assert_eq!(u("fr-1").arm, Arm::Infantry);
    assert_eq!(u("fr-1").fire_range(), Some(Len::cm(20)));
    let gb = u("fr-gb");
    assert!(gb.is_grand_battery() && gb.has_heavy_artillery());
    assert_eq!(gb.arm, Arm::Artillery);
    assert_eq!(gb.arm.fire_arm(), Some(FireArm::Artillery));
    // The shortest range of its batteries (page 11).
    assert_eq!(gb.reserve_artillery_range(), Some(Len::cm(60)));
    assert_eq!(gb.base_expected(0), ExpectedQuality::ElitesD);
    assert_eq!(gb.base_expected(1), ExpectedQuality::RegularsB);
    assert_eq!(gb.effective_expected(), ExpectedQuality::RegularsB);
    // The slowest of its guns: heavy artillery.
    assert_eq!(
        sc.unit_move_rate(gb.ix, MoveFormation::Column),
        Len::mm(200)
    );
    let cav = u("fr-cav");
    assert_eq!((cav.arm, cav.fire_range()), (Arm::Cavalry, None));
    assert_eq!(cav.arm.fire_arm(), None);
    assert_eq!(sc.unit_move_rate(cav.ix, MoveFormation::Line), Len::cm(40));
    assert!(u("fr-cos").is_irregular());
    assert_eq!(u("fr-ott").arm, Arm::Infantry);
    let sq = u("fr-sq");
    assert_eq!(sq.formation, Formation::Square);
    assert!(sq.flags.grognards && sq.flags.disciplined);
    assert_eq!(sq.quality, Some(Quality::Veteran));
    assert_eq!(sq.facing, Facing(90));
    assert_eq!(sc.division(DivisionIx(0)).units.len(), 6);
}

#[test]
fn single_reserve_artillery_base_ranges() {
    let mut v = minimal();
    units(&mut v, "a")[0]["bases"] = json!(["heavy_artillery"]);
    units(&mut v, "a")[0]["ranks"] = json!([1]);
    let sc = load(v).unwrap();
    let u = sc.unit(UnitIx(0));
    assert!(!u.is_grand_battery());
    assert_eq!(u.fire_range(), Some(Len::cm(80)));
}

#[test]
fn irregular_and_skirmish_orders() {
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(["irregular_infantry", "infantry"]);
    units(&mut v, "b")[0]["ranks"] = json!([2]);
    units(&mut v, "b")[0]["order"] = json!("irregular");
    refused(
        v,
        "sides.b.units[0].bases[1]",
        &["infantry", "irregular", "page 6"],
    );
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(["irregular_infantry", "irregular_infantry"]);
    units(&mut v, "b")[0]["ranks"] = json!([2]);
    refused(
        v.clone(),
        "sides.b.units[0].order",
        &["order close", "irregular_infantry", "pages 6"],
    );
    units(&mut v, "b")[0]["order"] = json!("skirmish");
    refused(v, "sides.b.units[0].order", &["order skirmish"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["order"] = json!("irregular");
    refused(
        v,
        "sides.b.units[0].order",
        &["order irregular", "bases[0] is infantry", "page 6"],
    );
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(["other_cavalry", "battle_cavalry"]);
    units(&mut v, "b")[0]["ranks"] = json!([2]);
    units(&mut v, "b")[0]["order"] = json!("irregular");
    refused(v, "sides.b.units[0].order", &["bases[1] is battle_cavalry"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(["foot_artillery"]);
    units(&mut v, "b")[0]["ranks"] = json!([1]);
    units(&mut v, "b")[0]["order"] = json!("irregular");
    refused(v, "sides.b.units[0].order", &["foot_artillery"]);
    let mut v = minimal();
    units(&mut v, "b")[0]["bases"] = json!(["battle_cavalry"]);
    units(&mut v, "b")[0]["ranks"] = json!([1]);
    units(&mut v, "b")[0]["order"] = json!("skirmish_limited");
    refused(
        v,
        "sides.b.units[0].order",
        &["order skirmish_limited", "battle_cavalry", "infantry"],
    );
}

#[test]
fn formations_checked() {
    let mut v = minimal();
    units(&mut v, "a")[0]["ranks"] = json!([2, 1]);
    refused(v, "sides.a.units[0].ranks", &["[2, 1]", "3 bases", "has 4"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["ranks"] = json!([4, 0]);
    refused(v, "sides.a.units[0].ranks[1]", &["0 bases"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["ranks"] = json!([]);
    refused(v, "sides.a.units[0].ranks", &["no ranks"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["formation"] = json!("column");
    units(&mut v, "a")[0]["ranks"] = json!([1, 1, 2]);
    refused(
        v,
        "sides.a.units[0].ranks[2]",
        &["2 bases", "road column", "page 21"],
    );
    let mut v = minimal();
    units(&mut v, "a")[0]["formation"] = json!("square");
    refused(v, "sides.a.units[0].ranks", &["1 rank", "page 22"]);
    let mut v = minimal();
    units(&mut v, "a")[0]["bases"] = json!(["battle_cavalry", "battle_cavalry"]);
    units(&mut v, "a")[0]["formation"] = json!("square");
    units(&mut v, "a")[0]["ranks"] = json!([1, 1]);
    refused(v, "sides.a.units[0].formation", &["cavalry", "page 22"]);
}

#[test]
fn traits_checked() {
    let mut v = minimal();
    units(&mut v, "a")[0]["hesitant"] = json!(true);
    units(&mut v, "a")[0]["impulsive"] = json!(true);
    refused(
        v,
        "sides.a.units[0].impulsive",
        &["impulsive and also hesitant"],
    );
    let mut v = minimal();
    units(&mut v, "a")[0]["disciplined"] = json!(true);
    refused(
        v,
        "sides.a.units[0].disciplined",
        &["without grognards", "pages 5"],
    );
}

#[test]
fn sectors_checked() {
    let mut v = minimal();
    v["terrain"] = json!([woods(), {"id": "h1", "kind": "hedge", "polygon": [[600, 600], [900, 600], [900, 620]]}]);
    units(&mut v, "a")[0]["sector"] = json!("w1/1");
    let mut cos = inf("fr-cos", "fr-d", 200, 150, 0);
    cos["bases"] = json!(["other_cavalry", "other_cavalry"]);
    cos["ranks"] = json!([2]);
    cos["order"] = json!("irregular");
    cos["sector"] = json!("w1/0");
    units(&mut v, "a").push(cos);
    let sc = load(v.clone()).unwrap();
    assert_eq!(
        sc.unit(UnitIx(0)).sector,
        Some(SectorRef {
            terrain: TerrainIx(0),
            sector: 1
        })
    );
    let cases = [
        ("w1/0", "already held by 'fr-cos'"),
        ("w1/2", "2 sectors"),
        ("h1/0", "hedge"),
        ("zz/0", "no terrain piece 'zz'"),
        ("w1", "\"<terrain id>/<sector number>\""),
        ("w1/+1", "not a whole number"),
    ];
    for (s, needle) in cases {
        let mut d = v.clone();
        // The second unit holds w1/0 and comes first in the sector check order.
        let us = units(&mut d, "a");
        us.swap(0, 1);
        us[1]["sector"] = json!(s);
        refused(d, "sides.a.units[1].sector", &[&format!("'{s}'"), needle]);
    }
    let mut d = v.clone();
    units(&mut d, "a")[1]["order"] = json!("close");
    refused(
        d,
        "sides.a.units[1].sector",
        &["'w1/0'", "not irregular", "page 22"],
    );
    let mut d = v;
    units(&mut d, "a")[0]["bases"] = json!(["foot_artillery"]);
    units(&mut d, "a")[0]["ranks"] = json!([1]);
    refused(
        d,
        "sides.a.units[0].sector",
        &["'w1/1'", "artillery", "page 22"],
    );
}

#[test]
fn setup_distance_for_the_placement_rolls() {
    let mut v = minimal();
    v["setup"] = json!("alternate");
    load(v.clone()).unwrap(); // exactly 800 mm
    units(&mut v, "b")[0]["position"] = json!([900, 900]);
    refused(
        v.clone(),
        "sides.b.units[0].position",
        &[
            "'br-1'",
            "700 mm",
            "'fr-1'",
            "800 mm",
            "page 7",
            "nearest bases",
        ],
    );
    v["battle"] = json!("defended");
    v["defender"] = json!("a");
    load(v.clone()).unwrap(); // 700 >= 600
    units(&mut v, "b")[0]["position"] = json!([1300, 500]);
    refused(
        v.clone(),
        "sides.b.units[0].position",
        &["384 mm", "600 mm"],
    );
    // A placed scenario's positions are the designer's.
    v["setup"] = json!("placed");
    load(v).unwrap();
}

fn objective(id: &str, x: i32, y: i32) -> Value {
    json!({"id": id, "name": "A place", "at": [x, y], "radius_mm": 100, "points": 2})
}

fn with_objectives() -> Value {
    let mut v = minimal();
    v["objectives"] = json!([objective("village", 900, 600), objective("hill", 300, 600)]);
    v["victory"] = json!({
        "provenance": "stand-in: a test", "objective_points": true, "base_points": 1
    });
    v
}

#[test]
fn objectives_and_victory_load() {
    let sc = load(with_objectives()).unwrap();
    let o = sc.objectives();
    assert_eq!(o.len(), 2);
    assert_eq!(
        o[0],
        Objective {
            id: "village".into(),
            name: Some("A place".into()),
            at: Point {
                x: Len::mm(900),
                y: Len::mm(600)
            },
            radius: Len::cm(10),
            points: 2,
        }
    );
    assert_eq!(o[1].id, "hill");
    let vic = sc.victory().unwrap();
    assert!(vic.objective_points);
    assert_eq!(vic.base_points, 1);
    assert_eq!(vic.provenance, "stand-in: a test");
    // Both are optional; a name is too.
    let sc = load(minimal()).unwrap();
    assert!(sc.objectives().is_empty() && sc.victory().is_none());
    let mut v = with_objectives();
    v["objectives"][0].as_object_mut().unwrap().remove("name");
    v.as_object_mut().unwrap().remove("victory");
    let sc = load(v).unwrap();
    assert_eq!(sc.objectives()[0].name, None);
    assert!(sc.victory().is_none());
    // The limits of the ranges load.
    let mut v = with_objectives();
    v["objectives"][0]["radius_mm"] = json!(10);
    v["objectives"][0]["points"] = json!(1);
    v["objectives"][1]["radius_mm"] = json!(1000);
    v["objectives"][1]["points"] = json!(20);
    v["objectives"][1]["at"] = json!([1800, 0]);
    v["victory"]["base_points"] = json!(0);
    load(v).unwrap();
    // Round trip.
    let data = from_json_value(with_objectives()).unwrap();
    let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
    assert_eq!(data, again);
}

#[test]
fn objectives_checked() {
    let set = |k: usize, field: &str, x: Value| {
        let mut v = with_objectives();
        v["objectives"][k][field] = x;
        v
    };
    refused(set(0, "id", json!("")), "objectives[0].id", &["empty"]);
    refused(
        set(1, "id", json!("a/b")),
        "objectives[1].id",
        &["'a/b'", "'/'"],
    );
    refused(
        set(1, "id", json!("village")),
        "objectives[1].id",
        &["duplicate objective id 'village'", "objectives[0]"],
    );
    refused(set(0, "name", json!(" ")), "objectives[0].name", &["empty"]);
    refused(
        set(0, "at", json!([1801, 600])),
        "objectives[0].at",
        &["[1801, 600]", "off the table"],
    );
    refused(
        set(1, "at", json!([10, -1])),
        "objectives[1].at",
        &["[10, -1]", "off the table"],
    );
    refused(
        set(0, "radius_mm", json!(9)),
        "objectives[0].radius_mm",
        &["9 mm", "10 to 1000"],
    );
    refused(
        set(1, "radius_mm", json!(1001)),
        "objectives[1].radius_mm",
        &["1001 mm", "10 to 1000"],
    );
    refused(
        set(0, "points", json!(0)),
        "objectives[0].points",
        &["0 points", "1 to 20"],
    );
    refused(
        set(1, "points", json!(21)),
        "objectives[1].points",
        &["21 points", "1 to 20"],
    );
    // At most 32.
    let mut v = with_objectives();
    v["objectives"] = Value::Array(
        (0..=MAX_OBJECTIVES)
            .map(|i| objective(&format!("o{i}"), 10 + i as i32, 600))
            .collect(),
    );
    refused(v.clone(), "objectives", &["33 objectives", "32"]);
    v["objectives"].as_array_mut().unwrap().pop();
    assert_eq!(load(v).unwrap().objectives().len(), MAX_OBJECTIVES);
    // Unknown and missing fields, and types, name their paths.
    let e = from_json_value(set(1, "colour", json!("red"))).unwrap_err();
    assert_eq!(e.path, "objectives[1].colour", "{e}");
    let mut v = with_objectives();
    v["objectives"][0]
        .as_object_mut()
        .unwrap()
        .remove("radius_mm");
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "objectives[0].radius_mm", "{e}");
    let e = from_json_value(set(0, "points", json!(300))).unwrap_err();
    assert_eq!(e.path, "objectives[0].points", "{e}");
}

#[test]
fn victory_checked() {
    let set = |field: &str, x: Value| {
        let mut v = with_objectives();
        v["victory"][field] = x;
        v
    };
    refused(
        set("provenance", json!(" ")),
        "victory.provenance",
        &["empty provenance", "stand-in"],
    );
    refused(
        set("base_points", json!(21)),
        "victory.base_points",
        &["21 points", "0 to 20"],
    );
    let mut v = set("objective_points", json!(true));
    v.as_object_mut().unwrap().remove("objectives");
    refused(v, "victory.objective_points", &["no objectives"]);
    let mut v = set("objective_points", json!(false));
    v["victory"]["base_points"] = json!(0);
    refused(v.clone(), "victory", &["nothing scores"]);
    // Scoring lost bases alone, without objectives, is allowed.
    v["victory"]["base_points"] = json!(2);
    v.as_object_mut().unwrap().remove("objectives");
    assert_eq!(load(v).unwrap().victory().unwrap().base_points, 2);
    let e = from_json_value(set("colour", json!(1))).unwrap_err();
    assert_eq!(e.path, "victory.colour", "{e}");
    let mut v = with_objectives();
    v["victory"].as_object_mut().unwrap().remove("base_points");
    let e = from_json_value(v).unwrap_err();
    assert_eq!(e.path, "victory.base_points", "{e}");
}

fn encounter() -> Value {
    let mut v: Value =
        serde_json::from_str(include_str!("../../../scenarios/huzzah-encounter.json")).unwrap();
    let system = v.as_object_mut().unwrap().remove("system");
    assert_eq!(system, Some(json!("huzzah")));
    v
}

#[test]
fn encounter_scenario_loads() {
    use crate::huzzah::geometry::{dist_point_seg, min_distance};
    let sc = load(encounter()).unwrap();
    assert_eq!(sc.data().id, "huzzah-encounter");
    assert!(sc.data().name.contains("stand-in"));
    let prov = &sc.data().provenance;
    assert!(prov.starts_with("stand-in:"), "{prov}");
    assert!(prov.contains("Army Lists") && prov.contains("scenario book"));
    assert_eq!(
        sc.table(),
        TableSize {
            width: Len::cm(180),
            depth: Len::cm(120)
        }
    );
    assert_eq!(sc.base(), Len::cm(4));
    assert_eq!(sc.turns(), 8);
    assert_eq!(sc.battle(), Battle::Encounter);
    assert_eq!(sc.setup(), Setup::Alternate);
    assert_eq!(sc.first(), None);
    // Morning fog lifting on turn 3.
    assert_eq!(sc.conditions_on(1), (Ground::Normal, Weather::Foul));
    assert_eq!(sc.conditions_on(2), (Ground::Normal, Weather::Foul));
    assert_eq!(sc.conditions_on(3), (Ground::Normal, Weather::Fair));
    assert_eq!(sc.conditions_on(8), (Ground::Normal, Weather::Fair));

    // Terrain: a wood of two or three sectors, a village of two, hedges, an orchard.
    let kinds = |k: TerrainKind| sc.terrain().iter().filter(|t| t.kind == k).count();
    assert_eq!(kinds(TerrainKind::Woods), 1);
    assert_eq!(kinds(TerrainKind::Buildings), 1);
    assert_eq!(kinds(TerrainKind::Orchard), 1);
    assert!((2..=3).contains(&kinds(TerrainKind::Hedge)));
    let piece = |k: TerrainKind| sc.terrain().iter().find(|t| t.kind == k).unwrap();
    assert!((2..=3).contains(&piece(TerrainKind::Woods).sectors.len()));
    assert_eq!(piece(TerrainKind::Buildings).sectors.len(), 2);
    // The wood left of centre, the village right of it.
    let mid_x = |t: &Terrain| {
        let xs = t.polygon.iter().map(|p| p.x.0);
        (xs.clone().min().unwrap() + xs.max().unwrap()) / 2
    };
    assert!(mid_x(piece(TerrainKind::Woods)) < sc.table().width.0 / 2);
    assert!(mid_x(piece(TerrainKind::Buildings)) > sc.table().width.0 / 2);

    // Two objectives of 2 points: the village and the crossroads.
    let obj: Vec<_> = sc
        .objectives()
        .iter()
        .map(|o| (o.id.as_str(), o.points))
        .collect();
    assert_eq!(obj, [("village", 2), ("crossroads", 2)]);
    let village = crate::huzzah::geometry::Polygon(piece(TerrainKind::Buildings).polygon.clone());
    assert!(village.contains(sc.objectives()[0].at));
    let vic = sc.victory().unwrap();
    assert!(vic.provenance.starts_with("stand-in:") && vic.provenance.contains("page 7"));
    assert!(vic.objective_points);
    assert_eq!(vic.base_points, 1);

    for side in Side::BOTH {
        let us = sc.units_of(side);
        assert_eq!(us.len(), 10, "side {side}");
        let count = |f: &dyn Fn(&UnitDef) -> bool| us.iter().filter(|u| f(u)).count();
        // Six infantry units of 3-4 bases: two with divisional artillery, one
        // skirmish, one skirmish (limited).
        assert_eq!(count(&|u| u.arm == Arm::Infantry), 6);
        assert!(us
            .iter()
            .filter(|u| u.arm == Arm::Infantry)
            .all(|u| (3..=4).contains(&u.bases.len())));
        assert_eq!(count(&|u| u.has_divisional_artillery()), 2);
        assert_eq!(count(&|u| u.order == UnitOrder::Skirmish), 1);
        assert_eq!(count(&|u| u.order == UnitOrder::SkirmishLimited), 1);
        // Two cavalry units of 2-3 bases, battle and other cavalry.
        let cav: Vec<_> = us.iter().filter(|u| u.arm == Arm::Cavalry).collect();
        assert_eq!(cav.len(), 2);
        assert!(cav.iter().all(|u| (2..=3).contains(&u.bases.len())));
        for k in [BaseKind::BattleCavalry, BaseKind::OtherCavalry] {
            assert_eq!(count(&|u| u.bases.iter().all(|b| b.kind == k)), 1);
        }
        // One single reserve foot battery and a grand battery of 2-3 bases.
        let art: Vec<_> = us.iter().filter(|u| u.arm == Arm::Artillery).collect();
        assert_eq!(art.len(), 2);
        let single: Vec<_> = art.iter().filter(|u| !u.is_grand_battery()).collect();
        assert_eq!(single.len(), 1);
        assert_eq!(single[0].bases[0].kind, BaseKind::FootArtillery);
        let gb: Vec<_> = art.iter().filter(|u| u.is_grand_battery()).collect();
        assert_eq!(gb.len(), 1);
        assert!((2..=3).contains(&gb[0].bases.len()));
        // Heavy guns in the French grand battery only.
        assert_eq!(gb[0].has_heavy_artillery(), side == Side::A);
        assert_eq!(
            gb[0].fire_range(),
            Some(Len::cm(60)),
            "the shortest range of its batteries"
        );
        // Traits: one renowned, one hesitant, one impulsive.
        assert_eq!(count(&|u| u.flags.renowned), 1);
        assert_eq!(count(&|u| u.flags.hesitant), 1);
        assert_eq!(count(&|u| u.flags.impulsive), 1);
        // Elites, regulars and militia.
        let grade = |q: ExpectedQuality| json_name(&q)[..3].to_string();
        for g in ["eli", "reg", "mil"] {
            assert!(
                us.iter().any(|u| grade(u.effective_expected()) == g),
                "side {side} has no {g}"
            );
        }
        let sd = sc.side(side);
        assert!(ARMY_FACTOR.contains(&sd.skirmish_factor));
        assert!(ARMY_FACTOR.contains(&sd.artillery_factor));
        // A CinC and two division officers of different qualities, one of them
        // inspirational; two divisions.
        let os = sc.officers_of(side);
        assert_eq!(os.len(), 3);
        assert_eq!(sc.officer(sc.cinc(side)).rank, OfficerRank::Cinc);
        let gens: Vec<_> = os
            .iter()
            .filter(|o| o.rank == OfficerRank::Division)
            .collect();
        assert_eq!(gens.len(), 2);
        assert_ne!(gens[0].quality, gens[1].quality);
        assert_eq!(gens.iter().filter(|o| o.inspirational).count(), 1);
        let divs: Vec<_> = sc.divisions().iter().filter(|d| d.side == side).collect();
        assert_eq!(divs.len(), 2);
        // Facing the enemy; every officer placed behind the army, each division
        // officer behind his own division's rearmost base.
        let forward = if side == Side::A { 1 } else { -1 };
        let facing = if side == Side::A { 0 } else { 180 };
        assert!(us.iter().all(|u| u.facing == Facing(facing)));
        let rear_of = |units: &mut dyn Iterator<Item = &UnitDef>| {
            units
                .flat_map(|u| u.shape(sc.base()).footprint_corners())
                .map(|p| p.y.0 * forward)
                .min()
                .unwrap()
        };
        for d in &divs {
            let rear = rear_of(&mut d.units.iter().map(|&u| sc.unit(u)));
            let at = sc.officer(d.officer).position.unwrap();
            assert!(at.y.0 * forward < rear, "{}", sc.officer(d.officer).id);
        }
        let rear = rear_of(&mut us.iter());
        assert!(os.iter().all(|o| o.position.unwrap().y.0 * forward < rear));
    }

    let base = sc.base();
    let (w, d) = sc.table_size();
    let shapes: Vec<_> = sc.units().iter().map(|u| u.shape(base)).collect();
    for (u, sh) in sc.units().iter().zip(&shapes) {
        // On the table (validate checks it too).
        assert!(sh
            .footprint_corners()
            .iter()
            .all(|p| p.x >= Len::ZERO && p.y >= Len::ZERO && p.x <= w && p.y <= d));
        // Out of every terrain piece at the start.
        assert_eq!(u.sector, None);
        for t in sc.terrain() {
            let poly = crate::huzzah::geometry::Polygon(t.polygon.clone());
            assert!(
                sh.bases().iter().all(|q| !poly.intersects_quad(q)),
                "'{}' stands in '{}'",
                u.id,
                t.id
            );
        }
        // Nobody holds an objective at the start.
        for o in sc.objectives() {
            for q in sh.bases() {
                assert!(!q.contains(o.at));
                let near = q.edges().iter().map(|e| dist_point_seg(o.at, *e)).min();
                assert!(near.unwrap() > o.radius, "'{}' is at '{}'", u.id, o.id);
            }
        }
    }
    // The armies' nearest bases: at least 80 cm apart (page 7, an encounter).
    let a = sc.units_of(Side::A).len();
    let nearest = (0..a)
        .flat_map(|i| (a..shapes.len()).map(move |j| (i, j)))
        .map(|(i, j)| min_distance(&shapes[i], &shapes[j]))
        .min()
        .unwrap();
    assert!(nearest >= Len::cm(80), "{nearest:?}");
    assert_eq!(nearest, Len::mm(810));

    // The built-in is the file, and every binding lists it.
    assert!(BUILTIN.contains(&"huzzah-encounter"));
    let b = Scenario::builtin("huzzah-encounter").unwrap();
    assert_eq!(b.data(), sc.data());
    check_builtin_id(sc.data()).unwrap();
    let mut edited = sc.data().clone();
    edited.turns = 9;
    assert_eq!(check_builtin_id(&edited).unwrap_err().path, "id");
    let data = from_json_value(encounter()).unwrap();
    let again = from_json_value(serde_json::to_value(&data).unwrap()).unwrap();
    assert_eq!(data, again);
}

#[test]
fn every_builtin_loads() {
    for name in BUILTIN {
        let sc = Scenario::builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(sc.data().id, name);
        assert!(sc.data().provenance.starts_with("stand-in:"), "{name}");
    }
    let e = Scenario::builtin("huzzah-nothing").unwrap_err();
    assert!(
        e.message.contains("huzzah-encounter, huzzah-firefight"),
        "{e}"
    );
}
