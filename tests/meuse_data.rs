//! Meuse Argonne: The Final Offensive — the scenario data (fm-core/scenarios/meuse-argonne.json,
//! written by scripts/gen_meuse_argonne.py) against the printed exclusive rules
//! (../shared/rules/meuse-argonne.txt 11.0-19.0, Integrated CRT, bombardment charts).
//! The rules themselves are not implemented yet; this checks the data only.

use fm_core::meuse_argonne::MeuseArgonneParams;
use fm_core::*;
use std::collections::{BTreeMap, BTreeSet};

const JSON: &str = include_str!("../fm-core/scenarios/meuse-argonne.json");

fn load() -> Scenario {
    Scenario::from_json(JSON).unwrap_or_else(|e| panic!("meuse-argonne.json does not load: {e}"))
}

fn params(sc: &Scenario) -> &MeuseArgonneParams {
    match &sc.data.rules {
        RuleSet::MeuseArgonne(p) => p,
        other => panic!("expected the meuse-argonne rule set, got {other:?}"),
    }
}

fn hex(s: &str) -> Hex {
    s.parse().unwrap()
}

/// Turn number (1-based) of a printed "Oct 2-3" label.
fn turn_of(sc: &Scenario, printed: &str) -> u16 {
    let name = printed.replace('-', "/");
    let i = sc
        .data
        .turns
        .iter()
        .position(|t| t.name == name)
        .unwrap_or_else(|| panic!("no turn named {name}"));
    i as u16 + 1
}

fn unit<'a>(sc: &'a Scenario, side: Side, name: &str, formation: &str) -> &'a UnitData {
    let found: Vec<&UnitData> = sc
        .data
        .units
        .iter()
        .filter(|u| u.side == side && u.name == name && u.formation.contains(formation))
        .collect();
    assert_eq!(found.len(), 1, "{side:?} {name} ({formation}): {found:?}");
    found[0]
}

fn terrain_of(sc: &Scenario, h: Hex) -> &HexData {
    sc.data
        .map
        .hexes
        .iter()
        .find(|d| d.id == h)
        .unwrap_or_else(|| panic!("hex {h} is not on the map"))
}

/// Rows of the southernmost Stellung line in each column (min, max).
fn stellung_rows(p: &MeuseArgonneParams) -> BTreeMap<u8, (u8, u8)> {
    let mut m: BTreeMap<u8, (u8, u8)> = BTreeMap::new();
    for h in &p.stellung_line {
        let e = m.entry(h.col).or_insert((h.row, h.row));
        e.0 = e.0.min(h.row);
        e.1 = e.1.max(h.row);
    }
    m
}

fn south_of_line(line: &BTreeMap<u8, (u8, u8)>, h: Hex) -> bool {
    h.row > line[&h.col].1
}

fn north_of_line(line: &BTreeMap<u8, (u8, u8)>, h: Hex) -> bool {
    h.row < line[&h.col].0
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Where {
    Stellung,
    Reserve,
    Arrives(&'static str),
}

/// 19.4-19.6 as printed: name, attack-defense-MA of the full-strength side, depleted flag.
const GERMANS: &[(&str, [u8; 3], bool, Where)] = &[
    ("1st [A]", [4, 5, 4], false, Where::Stellung),
    ("1st [G]", [8, 9, 4], false, Where::Stellung),
    ("2nd [L]", [4, 6, 4], false, Where::Stellung),
    ("3rd [G]", [10, 6, 4], false, Where::Stellung),
    ("5th [BR]", [7, 6, 4], false, Where::Stellung),
    ("5th [G]", [6, 8, 4], false, Where::Stellung),
    ("5th [L]", [2, 6, 4], false, Where::Stellung),
    ("7th [R]", [7, 5, 4], true, Where::Stellung),
    ("8th [L]", [4, 4, 4], false, Where::Stellung),
    ("9th [L]", [4, 5, 4], false, Where::Stellung),
    ("13th [L]", [2, 3, 4], false, Where::Stellung),
    ("15th", [7, 8, 4], false, Where::Stellung),
    ("33rd", [7, 9, 3], true, Where::Stellung),
    ("35th [A]", [4, 4, 4], false, Where::Stellung),
    ("37th", [9, 9, 5], false, Where::Stellung),
    ("76th [R]", [6, 8, 4], false, Where::Stellung),
    ("115th", [5, 6, 4], false, Where::Stellung),
    ("123rd", [6, 7, 4], false, Where::Stellung),
    ("255th", [6, 6, 4], false, Where::Stellung),
    ("[AR]", [4, 4, 4], false, Where::Stellung),
    ("15th [A]", [4, 4, 4], false, Where::Reserve),
    ("106th [A]", [4, 4, 4], false, Where::Reserve),
    ("108th", [6, 5, 4], false, Where::Reserve),
    ("236th", [6, 6, 4], false, Where::Reserve),
    ("52nd [R]", [11, 11, 4], false, Where::Arrives("Sep 28-29")),
    ("53rd [R]", [4, 5, 2], false, Where::Arrives("Sep 28-29")),
    ("28th [R]", [10, 10, 5], false, Where::Arrives("Oct 2-3")),
    ("37th [A]", [2, 3, 4], false, Where::Arrives("Oct 2-3")),
    ("195th", [9, 9, 4], false, Where::Arrives("Oct 4-5")),
    ("38th [A]", [3, 4, 4], false, Where::Arrives("Oct 4-5")),
    ("228th", [5, 6, 4], false, Where::Arrives("Oct 6-7")),
    ("41st", [6, 8, 4], false, Where::Arrives("Oct 6-7")),
    ("204th", [3, 5, 4], false, Where::Arrives("Oct 6-7")),
    ("45th [R]", [6, 5, 3], true, Where::Arrives("Oct 8-9")),
    ("192nd", [5, 5, 4], false, Where::Arrives("Oct 8-9")),
    ("32nd", [4, 5, 3], false, Where::Arrives("Oct 8-9")),
    ("199th", [8, 8, 4], false, Where::Arrives("Oct 8-9")),
    ("107th", [5, 5, 8], false, Where::Arrives("Oct 12-13")),
    ("1st [L]", [5, 5, 4], false, Where::Arrives("Oct 14-15")),
    ("88th", [6, 6, 4], false, Where::Arrives("Oct 20-21")),
    ("31st", [5, 6, 4], false, Where::Arrives("Oct 30-31")),
    ("25th", [8, 5, 3], false, Where::Arrives("Nov 1-2")),
    ("117th", [7, 6, 3], true, Where::Arrives("Nov 1-2")),
    ("10th", [4, 3, 3], false, Where::Arrives("Nov 3-4")),
];

/// 19.2-19.3 as printed: name, nationality, `None` for starting units or the arrival turn.
const ALLIES: &[(&str, &str, Option<&str>)] = &[
    ("3rd", "US", None),
    ("4th", "US", None),
    ("5th", "US", None),
    ("28th", "US", None),
    ("32nd", "US", None),
    ("33rd", "US", None),
    ("35th", "US", None),
    ("37th", "US", None),
    ("77th", "US", None),
    ("78th", "US", None),
    ("80th", "US", None),
    ("91st", "US", None),
    ("92nd", "US", None),
    ("Belrupt", "French", None),
    ("1st", "US", Some("Oct 2-3")),
    ("42nd", "US", Some("Oct 4-5")),
    ("29th", "French", Some("Oct 6-7")),
    ("33rd", "French", Some("Oct 6-7")),
    ("82nd", "US", Some("Oct 6-7")),
    ("26th", "US", Some("Oct 14-15")),
    ("89th", "US", Some("Oct 18-19")),
    ("79th", "US", Some("Oct 20-21")),
    ("90th", "US", Some("Oct 20-21")),
    ("81st", "US", Some("Nov 1-2")),
    ("2nd", "US", Some("Nov 1-2")),
];

#[test]
fn loads_validates_and_round_trips() {
    let sc = load();
    assert_eq!(sc.data.id, "meuse-argonne");
    let again = Scenario::from_json(&sc.to_json()).unwrap();
    assert_eq!(sc.data, again.data);
    // Not a built-in yet: its rules are not implemented.
    assert!(Scenario::builtin_names().contains(&"meuse-argonne"));
}

#[test]
fn turn_track_is_24_two_day_turns_to_the_armistice() {
    let sc = load();
    let names: Vec<&str> = sc.data.turns.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 24);
    assert_eq!(names[0], "Sep 26/27");
    assert_eq!(names[2], "Sep 30/Oct 1");
    assert_eq!(names[18], "Nov 1/2");
    assert_eq!(names[23], "Nov 11");
    // 15.1-15.2: the Allies move first; play begins at H-Hour, the end of their turn-1
    // movement phase (artillery, docs/rulings.md R-MA-15.2), then their combat phase.
    assert_eq!(sc.data.first_player, Side::A);
    assert_eq!(sc.data.start.turn, 1);
    assert_eq!(sc.data.start.phase, Phase::Bombardment);
    // 11.1: the Allies set up first.
    assert_eq!(sc.data.setup.order, vec![Side::A, Side::B]);
}

#[test]
fn german_order_of_battle_is_as_printed() {
    let sc = load();
    let p = params(&sc);
    let germans: Vec<&UnitData> = sc.data.units.iter().filter(|u| u.side == Side::B).collect();
    assert_eq!(germans.len(), GERMANS.len());
    for (name, [a, d, m], depleted, at) in GERMANS {
        let u = unit(&sc, Side::B, name, "");
        let full = u.steps[0];
        assert_eq!(
            (full.attack, full.defense, full.movement),
            (*a, *d, *m),
            "{name} printed values"
        );
        assert_eq!(u.steps.len(), 2, "{name}: a two-step counter (13.3)");
        assert_eq!(
            u.steps[1].movement, *m,
            "{name}: depleted side keeps its MA"
        );
        assert_eq!(
            u.start_depleted,
            u8::from(*depleted),
            "{name} depleted flag"
        );
        assert_eq!(u.kind, UnitKind::Leg, "{name}: 10.3");
        let prov = u.provenance.as_deref().unwrap_or("");
        assert!(
            prov.contains("printed") && prov.contains("stand-in"),
            "{name}: {prov}"
        );
        match (at, &u.start) {
            (Where::Stellung, StartData::Zone(z)) => {
                assert!(sc.data.setup.zones[z]
                    .iter()
                    .all(|h| p.stellung_line.contains(h)));
            }
            (Where::Reserve, StartData::Zone(z)) => {
                let line = stellung_rows(p);
                assert!(sc.data.setup.zones[z]
                    .iter()
                    .all(|h| north_of_line(&line, *h)));
            }
            (Where::Arrives(label), StartData::Reinforcement { turn, .. }) => {
                assert_eq!(*turn, turn_of(&sc, label), "{name} arrives {label}");
            }
            (at, start) => panic!("{name}: expected {at:?}, got {start:?}"),
        }
    }
    // The handful the issue names.
    let g1 = unit(&sc, Side::B, "1st [G]", "");
    assert_eq!(
        (
            g1.steps[0].attack,
            g1.steps[0].defense,
            g1.steps[0].movement
        ),
        (8, 9, 4)
    );
    assert_eq!(unit(&sc, Side::B, "7th [R]", "").start_depleted, 1);
    let r52 = unit(&sc, Side::B, "52nd [R]", "");
    assert_eq!(
        (
            r52.steps[0].attack,
            r52.steps[0].defense,
            r52.steps[0].movement
        ),
        (11, 11, 4)
    );
    assert!(matches!(
        r52.start,
        StartData::Reinforcement { turn: 2, .. }
    ));
    let d117 = unit(&sc, Side::B, "117th", "");
    assert_eq!(d117.start_depleted, 1);
    let StartData::Reinforcement { turn, .. } = d117.start else {
        panic!("117th is a reinforcement")
    };
    assert_eq!(sc.data.turns[turn as usize - 1].name, "Nov 1/2");
}

#[test]
fn allied_order_of_battle_is_as_printed_with_stand_in_values() {
    let sc = load();
    let p = params(&sc);
    for (name, nation, arrives) in ALLIES {
        let u = unit(&sc, Side::A, name, nation);
        assert_eq!(u.steps.len(), 2, "{name} ({nation})");
        assert_eq!(u.kind, UnitKind::Leg);
        assert_eq!(u.size, "XX");
        assert!(
            u.provenance
                .as_deref()
                .unwrap_or("")
                .starts_with("stand-in"),
            "{name}: Allied values are not printed"
        );
        match (arrives, &u.start) {
            (None, StartData::Zone(z)) => assert_eq!(z, "allied-setup"),
            (Some(label), StartData::Reinforcement { turn, entry }) => {
                assert_eq!(*turn, turn_of(&sc, label), "{name} arrives {label}");
                // 19.3: any hex of the south edge.
                let south = sc.data.map.hexes.iter().map(|h| h.id.row).max().unwrap();
                assert!(entry.iter().all(|h| h.row == south));
                assert_eq!(entry.len(), sc.data.map.friendly_edges.a.len());
            }
            (a, s) => panic!("{name}: expected {a:?}, got {s:?}"),
        }
    }
    let divisions = sc
        .data
        .units
        .iter()
        .filter(|u| u.side == Side::A && u.size == "XX")
        .count();
    assert_eq!(divisions, ALLIES.len());
    // 13.1: the three-step divisions.
    let three: Vec<&str> = p.three_step_divisions.iter().map(|u| u.as_str()).collect();
    assert_eq!(three, ["us-4-div", "us-32-div", "us-33-div", "us-79-div"]);
    for id in &p.three_step_divisions {
        let i = sc
            .unit_index(id)
            .expect("three-step division in the roster");
        let u = &sc.unit(i).data;
        assert_eq!((u.side, u.formation.as_str()), (Side::A, "US Army"));
    }
    // 13.1-13.2: brigade chits, all in the roster, none listed twice.
    let in_roster: BTreeSet<&str> = sc
        .data
        .units
        .iter()
        .filter(|u| u.tags.iter().any(|t| t == "brigade"))
        .map(|u| u.id.as_str())
        .collect();
    let listed: BTreeSet<&str> = p.brigades.iter().map(|u| u.as_str()).collect();
    assert_eq!(listed.len(), p.brigades.len());
    assert_eq!(listed, in_roster);
    assert!(!p.brigades.is_empty() && p.brigade_provenance.starts_with("stand-in"));
    for id in &p.brigades {
        let u = &sc.unit(sc.unit_index(id).unwrap()).data;
        assert_eq!((u.side, u.steps.len()), (Side::A, 1), "{id}: one step");
        assert_eq!(u.start, StartData::OffMap, "{id}");
    }
}

#[test]
fn tracks_markers_and_charts() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(p.artillery.len(), 24);
    assert_eq!((p.artillery[0].a, p.artillery[0].b), (8, 4));
    assert!(p
        .artillery
        .iter()
        .all(|e| e.a + e.b <= p.bombardment_markers));
    assert_eq!(p.bombardment_markers, 12);
    assert!(p.aircraft >= 1);
    assert!(p.artillery_provenance.contains("8/4") && p.artillery_provenance.contains("stand-in"));
    assert_eq!(p.bombardment_hit_max, 3);
    let m: BTreeMap<&str, i8> = p
        .bombardment_modifiers
        .iter()
        .map(|t| (t.terrain.as_str(), t.modifier))
        .collect();
    let printed = [
        ("clear", 0),
        ("woods", 1),
        ("rise", 1),
        ("second-tier", 1),
        ("town", 2),
        ("stellung", 2),
        ("fortification", 3),
        ("fortress", 3),
    ];
    assert_eq!(m, printed.into_iter().collect());
    // Integrated CRT: every printed line with its first differential.
    let lines: BTreeMap<&str, i32> = sc
        .data
        .crt
        .lines
        .iter()
        .map(|l| (l.id.as_str(), l.first_differential))
        .collect();
    for (id, first) in [
        ("fortress", -1),
        ("woods-lost-battalion", -1),
        ("fortification", -2),
        ("meuse-river", -2),
        ("stellung", -3),
        ("town", -3),
        ("trench-town", -3),
        ("woods", -3),
        ("trench-woods", -3),
        ("second-tier", -4),
        ("river", -4),
        ("rise", -4),
        ("clear", -5),
        ("bridge", -5),
    ] {
        assert_eq!(lines.get(id), Some(&first), "CRT line {id}");
    }
    assert_eq!(p.lost_battalion_line, "woods-lost-battalion");
    // 14.2 Fortifications are a trench type, not the system's 8.2.3 fortification.
    let fort = sc
        .data
        .terrain
        .hex
        .iter()
        .find(|t| t.id == p.fortification_terrain)
        .unwrap();
    assert!(!fort.fortification);
    for t in p
        .trench_terrains
        .iter()
        .chain(&p.fortress_terrains)
        .chain(&p.forest_terrains)
        .chain(std::iter::once(&p.woods_terrain))
    {
        assert!(
            sc.data.terrain.hex.iter().any(|h| &h.id == t),
            "terrain {t}"
        );
    }
    assert!(!sc.data.support_provenance.is_empty());
}

#[test]
fn map_carries_every_feature_and_the_set_up_areas() {
    let sc = load();
    let p = params(&sc);
    let map = &sc.data.map;
    assert!(map.provenance.starts_with("stand-in"));
    let cols = map.hexes.iter().map(|h| h.id.col).max().unwrap();
    let rows = map.hexes.iter().map(|h| h.id.row).max().unwrap();
    assert_eq!((cols, rows), (30, 40));
    // Every hex terrain and hexside feature the rules use appears on the map.
    let used: BTreeSet<&str> = map
        .hexes
        .iter()
        .flat_map(|h| h.terrain.iter().map(|t| t.as_str()))
        .collect();
    for t in [
        "clear",
        "woods",
        "rise",
        "town",
        "fortress",
        "stellung",
        "second-tier",
        "fortification",
    ] {
        assert!(used.contains(t), "no {t} hex");
    }
    let features: BTreeSet<&str> = map
        .hexsides
        .iter()
        .flat_map(|s| s.features.iter().map(|f| f.as_str()))
        .collect();
    for f in [
        "meuse",
        "meuse-bridge",
        "river",
        "bridge",
        "road",
        "stellung-line",
    ] {
        assert!(features.contains(f), "no {f} hexside");
    }
    let named = |n: &str| {
        map.hexes
            .iter()
            .find(|h| h.name.as_deref() == Some(n))
            .unwrap_or_else(|| panic!("no hex named {n}"))
    };
    for town in [
        "Montfaucon",
        "Romagne",
        "Grandpré",
        "Buzancy",
        "Stenay",
        "Dun-sur-Meuse",
    ] {
        assert!(named(town).terrain.iter().any(|t| t == "town"), "{town}");
    }
    assert!(named("Verdun").terrain.iter().any(|t| t == "fortress"));

    // The southernmost Stellung line crosses the whole map, one run of hexes per column.
    let line = stellung_rows(p);
    assert_eq!(line.len(), cols as usize);
    for h in &p.stellung_line {
        assert!(terrain_of(&sc, *h).terrain.iter().any(|t| t == "stellung"));
    }
    for w in p.stellung_line.windows(2) {
        assert!(sc.layout().adjacent(w[0], w[1]), "{} {}", w[0], w[1]);
    }
    // No Stellung hex south of it (it is the southernmost).
    for h in &map.hexes {
        if h.terrain.iter().any(|t| t == "stellung") {
            assert!(!south_of_line(&line, h.id), "{}", h.id);
        }
    }

    // 12.1: Sedan is a fortress north of the line, and entering it wins.
    let sedan = terrain_of(&sc, p.sedan);
    assert_eq!(sedan.name.as_deref(), Some("Sedan"));
    assert!(sedan.terrain.iter().any(|t| t == "fortress"));
    assert!(north_of_line(&line, p.sedan));
    assert_eq!(
        sc.data.victory.conditions,
        vec![VictoryCondition::EnterHex {
            side: Side::A,
            hexes: vec![p.sedan]
        }]
    );
    assert_eq!(sc.data.victory.otherwise, Some(Side::B));

    // 11.2, 11.5, 19.4-19.5: set-up zones.
    let zones = &sc.data.setup.zones;
    let allied = &zones["allied-setup"];
    assert!(allied.iter().all(|h| south_of_line(&line, *h)));
    let south_count = map
        .hexes
        .iter()
        .filter(|h| south_of_line(&line, h.id))
        .count();
    assert_eq!(allied.len(), south_count, "every hex south of the line");
    let stellung = &zones["german-stellung"];
    assert!(stellung.len() >= 20);
    assert!(stellung
        .iter()
        .all(|h| terrain_of(&sc, *h).terrain.iter().any(|t| t == "stellung")));
    assert!(zones["german-reserve"]
        .iter()
        .all(|h| north_of_line(&line, *h)));

    // 19.6: German reinforcements enter by towns on the north or east edge.
    let on_ne_edge = |h: Hex| h.row == 1 || h.col == cols;
    let mut entries = BTreeSet::new();
    for u in sc.data.units.iter().filter(|u| u.side == Side::B) {
        if let StartData::Reinforcement { entry, .. } = &u.start {
            for h in entry {
                assert!(
                    on_ne_edge(*h),
                    "{}: {h} is not on the north/east edge",
                    u.id
                );
                assert!(
                    terrain_of(&sc, *h).terrain.iter().any(|t| t == "town"),
                    "{}: {h} is not a town",
                    u.id
                );
                entries.insert(*h);
            }
        }
    }
    let edge_towns: BTreeSet<Hex> = map
        .hexes
        .iter()
        .filter(|h| on_ne_edge(h.id) && h.terrain.iter().any(|t| t == "town"))
        .map(|h| h.id)
        .collect();
    assert_eq!(
        entries, edge_towns,
        "every north/east edge town is an entry"
    );
    assert!(entries.iter().any(|h| h.row == 1) && entries.iter().any(|h| h.col == cols));

    // 11.3, 11.6: replacement entry edges.
    for h in &p.allied_replacement_entry {
        assert!(h.row == rows || h.col == 1 || h.col == cols, "{h}");
        assert!(south_of_line(&line, *h), "{h}");
    }
    assert!(p.allied_replacement_entry.contains(&hex("0140")));
    for h in &p.german_replacement_entry {
        assert!(on_ne_edge(*h), "{h}");
    }
    assert_eq!(
        map.friendly_edges.a.len(),
        cols as usize,
        "Allied edge is the south edge"
    );
    assert!(map.friendly_edges.b.iter().all(|h| h.row == 1));
}

#[test]
fn every_unit_and_the_map_say_where_their_values_come_from() {
    let sc = load();
    for u in &sc.data.units {
        assert!(
            u.provenance.as_deref().is_some_and(|p| !p.is_empty()),
            "{} has no provenance",
            u.id
        );
    }
    assert!(!sc.data.map.provenance.is_empty());
    assert!(!sc.data.provenance.is_empty());
    assert!(!sc.data.crt.provenance.is_empty());
}
