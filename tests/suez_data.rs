//! Suez 1916: The Ottomans Strike — the scenario data (fm-core/scenarios/suez-1916.json,
//! written by scripts/gen_suez_1916.py) against the printed exclusive rules
//! (../shared/rules/suez-1916.txt Part I: 10.0-21.0, Terrain Effects Chart, Suez CRT).
//! The map and every counter value are stand-in; these tests check that the schematic
//! carries every hex, line and feature the rules name, and that what is printed is kept.

use fm_core::suez_1916::{self, FireSupportMarker, Suez1916Params, BRITISH, CENTRAL_POWERS};
use fm_core::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::common;
use common::geo::Geo;

const JSON: &str = include_str!("../fm-core/scenarios/suez-1916.json");

fn load() -> Scenario {
    Scenario::from_json(JSON).unwrap_or_else(|e| panic!("suez-1916.json does not load: {e}"))
}

fn params(sc: &Scenario) -> &Suez1916Params {
    suez_1916::params(sc).expect("the suez-1916 rule set")
}

fn hex(s: &str) -> Hex {
    s.parse().unwrap()
}

/// The Suez 1916 terrain the data tests ask about.
trait SuezGeo {
    fn water(&self, h: Hex) -> bool;
    fn land(&self) -> BTreeSet<Hex>;
}

impl SuezGeo for Geo {
    fn water(&self, h: Hex) -> bool {
        self.is(h, "all-sea-lake")
    }

    fn land(&self) -> BTreeSet<Hex> {
        self.terrain
            .keys()
            .filter(|h| !self.water(**h))
            .copied()
            .collect()
    }
}

fn zone(sc: &Scenario, name: &str) -> BTreeSet<Hex> {
    let z = sc
        .data
        .setup
        .zones
        .get(name)
        .unwrap_or_else(|| panic!("no set-up zone {name}"));
    let set: BTreeSet<Hex> = z.iter().copied().collect();
    assert_eq!(set.len(), z.len(), "zone {name} lists a hex twice");
    set
}

fn unit<'a>(sc: &'a Scenario, id: &str) -> &'a UnitData {
    &sc.unit(
        sc.unit_index(&UnitId::from(id))
            .unwrap_or_else(|| panic!("no unit {id}")),
    )
    .data
}

fn has_tag(u: &UnitData, tag: &str) -> bool {
    u.tags.iter().any(|t| t == tag)
}

fn strengths(ms: &[FireSupportMarker]) -> Vec<(&str, u8)> {
    ms.iter().map(|m| (m.name.as_str(), m.strength)).collect()
}

#[test]
fn loads_validates_and_round_trips() {
    let sc = load();
    assert_eq!(sc.data.id, "suez-1916");
    assert_eq!(sc.data.name, "Suez 1916: The Ottomans Strike");
    let again = Scenario::from_json(&sc.to_json()).unwrap();
    assert_eq!(sc.data, again.data);
    let g = Geo::new(&sc);
    assert_eq!((g.cols, g.rows), (36, 46), "10.4: ~1 km hexes");
    assert_eq!(sc.data.map.hexes.len(), 36 * 46, "every hex present");
    assert_eq!(sc.layout(), Layout::OddColumnsDown);
    assert!(sc.data.map.provenance.contains("odd-columns-down"));
    assert_eq!(sc.data.sides.get(CENTRAL_POWERS).name, "Central Powers");
    assert_eq!(sc.data.sides.get(BRITISH).name, "British");
    assert!(
        Scenario::builtin_names().contains(&"suez-1916"),
        "a built-in scenario"
    );
    let raw: serde_json::Value = serde_json::from_str(JSON).unwrap();
    assert!(
        raw["rules"]["suez-1916"].is_object(),
        "\"rules\": {{\"suez-1916\": ...}}"
    );
}

#[test]
fn rule_12_4_victory_hexes_at_printed_numbers() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    let printed = [
        ("0234", "El Kab", 2),
        ("0239", "Kantara", 4),
        ("0644", "Ballybunion", 2),
        ("0936", "Gilban Station", 1),
        ("1532", "Pelusium Station", 2),
        ("2031", "Romani", 6),
        ("2633", "Katia", 2),
        ("3331", "To Bir el Abd", 1),
    ];
    let table: Vec<(Hex, &str, u8)> = p
        .victory_hexes
        .iter()
        .map(|v| (v.hex, v.name.as_str(), v.vp))
        .collect();
    let want: Vec<(Hex, &str, u8)> = printed.iter().map(|(h, n, v)| (hex(h), *n, *v)).collect();
    assert_eq!(table, want, "12.4 exactly as printed");
    assert_eq!(p.victory_hexes.iter().map(|v| v.vp as u32).sum::<u32>(), 20);
    for (h, n, _) in printed {
        let h = hex(h);
        assert_eq!(g.names.get(&h).map(String::as_str), Some(n), "{h}");
        assert_eq!(g.named(n), h);
        assert!(
            p.town_village_terrains.contains(&g.terrain[&h]),
            "{n} is a town or village (12.4)"
        );
    }
    // The towns and villages are exactly the victory hexes; the two bases are towns.
    let tv: BTreeSet<Hex> = g
        .hexes_of("town")
        .union(&g.hexes_of("village"))
        .copied()
        .collect();
    assert_eq!(tv, want.iter().map(|w| w.0).collect());
    assert_eq!(g.hexes_of("town"), [hex("0239"), hex("2031")].into());
    assert_eq!(p.town_village_terrains, ["town", "village"]);
    // Control at the start: west of Katia (exclusive) British, Katia and east Central Powers.
    let katia = hex("2633");
    for v in &p.victory_hexes {
        let want = if v.hex.col < katia.col {
            BRITISH
        } else {
            CENTRAL_POWERS
        };
        assert_eq!(v.start_control, want, "{}", v.name);
    }
    assert_eq!(
        p.victory_hexes
            .iter()
            .filter(|v| v.start_control == CENTRAL_POWERS)
            .map(|v| v.name.as_str())
            .collect::<Vec<_>>(),
        ["Katia", "To Bir el Abd"]
    );
}

#[test]
fn rule_11_2_named_hexes_at_printed_numbers() {
    let sc = load();
    let g = Geo::new(&sc);
    for (h, n, t) in [
        ("0637", "Hill 40", "hill"),
        ("0937", "Hill 70", "hill"),
        ("1336", "Dueidar", "oasis"),
        ("1532", "Pelusium Station", "village"),
        ("0644", "Ballybunion", "village"),
        ("0239", "Kantara", "town"),
        ("2031", "Romani", "town"),
    ] {
        assert_eq!(g.named(n), hex(h), "{n}");
        assert!(g.is(hex(h), t), "{n} is {t}");
    }
    // The battle's heights and oases near Romani and Katia.
    assert!(g.is(g.named("Katib Gannit"), "hill"));
    assert!(g.is(g.named("Mount Royston"), "hill"));
    assert!(g.is(g.named("Wellington Ridge"), "ridge"));
    let romani = hex("2031");
    for n in ["Katib Gannit", "Mount Royston", "Wellington Ridge"] {
        let d = g.layout.distance(g.named(n), romani);
        assert!((1..=5).contains(&d), "{n} is {d} hexes from Romani");
    }
    for n in [
        "Oghratina",
        "Hamisah",
        "Bir Etmaler",
        "Bir el Nuss",
        "Hod el Enna",
        "Er Rabah",
    ] {
        assert!(g.is(g.named(n), "oasis"), "{n}");
    }
    assert!(g.named("Oghratina").col > hex("2633").col, "east of Katia");
    assert!(g.named("Hamisah").row > hex("2633").row, "south of Katia");
    assert!(
        g.hexes_of("ridge").len() >= 3,
        "Wellington Ridge is more than one hex"
    );
    for n in [
        "Lake Manzala",
        "Lake Ballah",
        "Mediterranean Sea",
        "Lake Bardawil",
    ] {
        assert!(g.water(g.named(n)), "{n}");
    }
    assert!(g.is(g.named("Tina Marsh"), "marsh"));
    assert!(g.is(g.named("Pelusium Marsh"), "marsh"));
    assert_eq!(g.named("Kantara West"), hex("0139"));
}

#[test]
fn rule_14_1_canal_crossing_0139_0239_only() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.canal_hexside, "canal");
    assert_eq!(p.canal_crossing, [hex("0139"), hex("0239")]);
    let [w, e] = p.canal_crossing;
    assert!(g.adjacent(w, e), "0139 and 0239 are adjacent");
    assert!(g.side_has(w, e, "canal"), "across a canal hexside");
    assert!(!g.water(w) && !g.water(e));
    let canal = sc
        .data
        .terrain
        .hexside
        .iter()
        .find(|t| t.id == p.canal_hexside)
        .unwrap();
    assert_eq!(canal.cost, MoveCost::Prohibited, "14.1: no crossing");
    assert!(canal.blocks_zoc, "14.1: ZOC do not extend across");
    assert_eq!(canal.crt_line, None, "14.1: no combat across");
    assert!(canal.road.is_none() && canal.road_for_tags.is_empty());
    // The canal is one line between columns 01 and 02, the whole height of the map, and
    // every hexside between those columns is canal.
    let sides = g.sides_with("canal");
    for (a, b) in &sides {
        assert_eq!((a.col, b.col), (1, 2), "{a}-{b}");
        assert_eq!(g.sides[&(*a, *b)], ["canal"], "{a}-{b}: canal only");
    }
    let mut expected = 0;
    for r in 1..=g.rows {
        for n in g.neighbors(Hex::new(1, r)) {
            if n.col == 2 {
                expected += 1;
                assert!(g.side_has(Hex::new(1, r), n, "canal"), "01{r:02}-{n}");
            }
        }
    }
    assert_eq!(sides.len(), expected);
    // No other way across: the land west of the canal cannot reach the east by land
    // without crossing a prohibited hexside.
    let land = g.land();
    let west: Vec<Hex> = land.iter().filter(|h| h.col == 1).copied().collect();
    assert!(west.contains(&w));
    let reach = g.fill(&west, Some(&land), &["canal", "water"]);
    assert!(reach.iter().all(|h| h.col == 1), "the canal leaks");
    // Land both sides of it.
    assert!(land.iter().filter(|h| h.col == 1).count() >= 10);
    assert!(
        g.land().iter().any(|h| h.col == 2 && h.row < 30),
        "the east bank north of Kantara"
    );
}

#[test]
fn terrain_effects_chart_water_hexsides_and_all_sea_lake() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.water_hexside, "water");
    let water = sc
        .data
        .terrain
        .hexside
        .iter()
        .find(|t| t.id == "water")
        .unwrap();
    assert_eq!(water.cost, MoveCost::Prohibited);
    assert!(water.blocks_zoc, "ZOCs blocked");
    assert_eq!(water.crt_line, None, "combat P");
    // Every land/water hexside is a water or canal hexside, and no other hexside is.
    let mut n = 0;
    for (a, b) in g.sides_with("water") {
        assert_ne!(g.water(a), g.water(b), "{a}-{b} between land and water");
        n += 1;
    }
    assert!(n > 30);
    for h in g.land() {
        for m in g.neighbors(h) {
            if g.water(m) {
                assert!(
                    g.side_has(h, m, "water") || g.side_has(h, m, "canal"),
                    "{h}-{m}"
                );
            }
        }
    }
    // Water: the Mediterranean in the north, lakes west of the canal to the north and
    // south, none south of row 30 east of the canal.
    let sea = g.hexes_of("all-sea-lake");
    assert!(sea.contains(&Hex::new(18, 1)) && sea.contains(&Hex::new(36, 1)));
    assert!(sea.iter().filter(|h| h.col >= 2).all(|h| h.row <= 25));
    assert!(sea.contains(&Hex::new(1, 10)) && sea.contains(&Hex::new(1, 46)));
    assert!(!sea.contains(&Hex::new(1, 39)));
}

#[test]
fn rule_13_3_16_0_railroad_kantara_to_romani() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.railroad_hexside, "railroad");
    let rail: BTreeSet<Hex> = p.rail_hexes.iter().copied().collect();
    assert_eq!(rail.len(), p.rail_hexes.len());
    let (kantara, gilban, pelusium, romani) = (hex("0239"), hex("0936"), hex("1532"), hex("2031"));
    assert_eq!(p.rail_hexes.first(), Some(&kantara));
    assert_eq!(p.rail_hexes.last(), Some(&romani));
    // One contiguous line, each hex joined to the next by a railroad hexside.
    for w in p.rail_hexes.windows(2) {
        assert!(g.side_has(w[0], w[1], "railroad"), "{}-{}", w[0], w[1]);
    }
    let sides = g.sides_with("railroad");
    assert_eq!(sides.len(), p.rail_hexes.len() - 1, "no branch lines");
    for (a, b) in &sides {
        assert!(rail.contains(a) && rail.contains(b), "{a}-{b}");
    }
    // Kantara east through Gilban Station and Pelusium Station to Romani.
    let pos = |h: Hex| p.rail_hexes.iter().position(|x| *x == h).unwrap();
    assert!(
        pos(kantara) < pos(gilban) && pos(gilban) < pos(pelusium) && pos(pelusium) < pos(romani)
    );
    let railway: BTreeSet<Hex> = rail.clone();
    let reach = g.fill(&[kantara], Some(&railway), &[]);
    assert!(reach.contains(&romani));
    for h in &rail {
        assert!(!g.water(*h) && h.col >= 2, "{h}");
    }
    // 11.5: the railroad hexes with a town or village on or west of column 20.
    assert_eq!(p.reinforcement_column, 20);
    let towns: Vec<Hex> = p
        .rail_hexes
        .iter()
        .filter(|h| {
            p.town_village_terrains.contains(&g.terrain[h]) && h.col <= p.reinforcement_column
        })
        .copied()
        .collect();
    assert_eq!(towns, [kantara, gilban, pelusium, romani]);
    let rr = sc
        .data
        .terrain
        .hexside
        .iter()
        .find(|t| t.id == "railroad")
        .unwrap();
    assert_eq!(rr.road, Some("1/2".parse().unwrap()), "Railroad 1/2");
    assert!(rr.road_for_tags.is_empty());
    // 13.3, 16.0: the armored train is a unit that only the rules move along it.
    let train: Vec<&UnitData> = sc
        .data
        .units
        .iter()
        .filter(|u| has_tag(u, &p.armored_train_tag))
        .collect();
    assert_eq!(train.len(), 1);
    assert_eq!(train[0].name, "Armored Train");
    assert!(zone(&sc, "kantara").contains(&kantara) && rail.contains(&kantara));
    assert_eq!(p.rail_moves_per_phase, 1);
}

#[test]
fn terrain_effects_chart_tracks() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.track_hexside, "track");
    assert_eq!(p.british_foot_tag, "british-foot");
    let track = sc
        .data
        .terrain
        .hexside
        .iter()
        .find(|t| t.id == "track")
        .unwrap();
    assert_eq!(track.road, Some("1/2".parse().unwrap()), "Track 1/2");
    assert_eq!(
        track.road_for_tags,
        [("british-foot".to_string(), "1/3".parse().unwrap())].into(),
        "1/3 for British infantry and machinegun"
    );
    // Every British infantry and machinegun unit carries the tag; no mounted or
    // Central Powers unit does.
    for u in &sc.data.units {
        let foot = u.side == BRITISH
            && (u.unit_type == "infantry"
                || u.unit_type == "machinegun"
                || u.unit_type == "dismounted cavalry");
        assert_eq!(has_tag(u, "british-foot"), foot, "{}", u.id);
    }
    // The tracks join the places the battle was fought over.
    let sides = g.sides_with("track");
    assert!(sides.len() >= 40);
    let net: BTreeSet<Hex> = sides.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let reach = |from: &str, to: &str| {
        let mut seen = BTreeSet::from([hex(from)]);
        let mut queue = VecDeque::from([hex(from)]);
        while let Some(h) = queue.pop_front() {
            for n in g.neighbors(h) {
                if g.side_has(h, n, "track") && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        seen.contains(&hex(to))
    };
    for (a, b) in [
        ("0239", "0937"), // Kantara - Hill 70
        ("0239", "1336"), // Dueidar
        ("0239", "2633"), // Katia
        ("2031", "2633"), // Romani - Katia
        ("2633", "3331"), // Katia - To Bir el Abd
        ("0239", "0234"), // El Kab
        ("0239", "0644"), // Ballybunion
    ] {
        assert!(reach(a, b), "no track {a}-{b}");
    }
    assert!(
        net.iter().any(|h| h.col == g.cols),
        "a track reaches the east edge"
    );
    for h in &net {
        assert!(!g.water(*h), "{h}");
    }
}

#[test]
fn rule_14_2_british_trenches() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.trench_hexside, "trench");
    assert_eq!(
        p.trench_owner, BRITISH,
        "14.2: trenches benefit the owning side"
    );
    let t = sc
        .data
        .terrain
        .hexside
        .iter()
        .find(|t| t.id == "trench")
        .unwrap();
    assert_eq!(t.cost, MoveCost::Plus(Mp::whole(1)), "Trench +1");
    assert_eq!(t.crt_line.as_deref(), Some("town-trench"));
    assert!(
        t.all_attackers,
        "14.2: only if all attackers cross trench hexsides"
    );
    assert!(!t.blocks_zoc && t.road.is_none());
    let sides = g.sides_with("trench");
    for (a, b) in &sides {
        assert!(!g.water(*a) && !g.water(*b), "{a}-{b}");
        assert!(a.col >= 2 && b.col >= 2, "{a}-{b} east of the canal");
    }
    let near = |c: Hex, d: u32| {
        sides
            .iter()
            .filter(|(a, b)| g.layout.distance(*a, c).min(g.layout.distance(*b, c)) <= d)
            .count()
    };
    // Rings round Hill 40, Hill 70 and Dueidar.
    for post in ["0637", "0937", "1336"] {
        let h = hex(post);
        for n in g.neighbors(h) {
            assert!(g.side_has(h, n, "trench"), "{post}-{n}");
        }
    }
    // The Kantara bridgehead: an arc from canal bank to canal bank.
    assert!(near(hex("0239"), 3) >= 8);
    let kantara_arc: Vec<Hex> = sides
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .filter(|h| g.layout.distance(*h, hex("0239")) <= 3)
        .collect();
    assert!(kantara_arc.iter().filter(|h| h.col == 2).count() >= 2);
    // The Romani line: from the sea south to Katib Gannit, east of Romani.
    let katib = g.named("Katib Gannit");
    let romani = hex("2031");
    let line: Vec<(Hex, Hex)> = sides
        .iter()
        .filter(|(a, b)| a.col >= 21 && b.col >= 21)
        .copied()
        .collect();
    assert!(line.len() >= 15);
    let rows: BTreeSet<u8> = line.iter().flat_map(|(a, b)| [a.row, b.row]).collect();
    assert!(rows.contains(&katib.row));
    let top = *rows.first().unwrap();
    let (a, _) = line
        .iter()
        .find(|(a, b)| a.row == top || b.row == top)
        .unwrap();
    assert!(
        g.neighbors(*a).iter().any(|n| g.water(*n)),
        "the line starts at the sea"
    );
    assert!(line.iter().all(|(a, b)| a.col.max(b.col) > romani.col));
    assert!(sides.iter().any(|(a, b)| *a == katib || *b == katib));
    // Between the sea and Katib Gannit the line can't be walked round: keeping north of
    // Katib Gannit's south side, Romani reaches no hex east of the line.
    let north: BTreeSet<Hex> = g
        .land()
        .into_iter()
        .filter(|h| h.row <= katib.row)
        .collect();
    let inside = g.fill(&[romani], Some(&north), &["trench", "water", "canal"]);
    assert!(inside.contains(&katib) && inside.contains(&hex("1532")));
    for h in &inside {
        assert!(h.col <= katib.col, "{h} reached round the line");
    }
    // South of Katib Gannit the flank is open (the Ottoman attack went round it).
    let all = g.fill(&[romani], Some(&g.land()), &["trench", "water", "canal"]);
    assert!(all.contains(&hex("2633")));
}

#[test]
fn rule_17_1_marsh_hills_and_oases() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.marsh_terrain, "marsh");
    assert_eq!(p.hill_terrains, ["hill", "ridge"]);
    let marsh = g.hexes_of("marsh");
    assert!(marsh.len() >= 50, "the Tina and Pelusium marshes");
    // The plain of Tina lies between the coast and the railroad.
    assert!(marsh.iter().any(|h| h.col == 2), "from the canal");
    assert!(
        marsh.iter().any(|h| (12..=17).contains(&h.col)),
        "to Pelusium"
    );
    let rail_top = |c: u8| {
        p.rail_hexes
            .iter()
            .filter(|h| h.col == c)
            .map(|h| h.row)
            .min()
    };
    for h in &marsh {
        if let Some(r) = rail_top(h.col) {
            assert!(h.row < r, "{h} is south of the railroad");
        }
    }
    assert!(g.hexes_of("hill").len() >= 6);
    assert!(g.hexes_of("oasis").len() >= 8);
    assert!(
        g.hexes_of("sand").len() > g.hexes_of("open").len(),
        "mostly dunes"
    );
    assert!(g.hexes_of("open").len() >= 30);
}

#[test]
fn terrain_effects_chart_costs_exactly_as_printed() {
    let sc = load();
    let in_hex: BTreeMap<&str, (&str, MoveCost, Option<&str>)> = sc
        .data
        .terrain
        .hex
        .iter()
        .map(|t| {
            (
                t.id.as_str(),
                (t.name.as_str(), t.cost, t.crt_line.as_deref()),
            )
        })
        .collect();
    let c = |n| MoveCost::Cost(Mp::whole(n));
    let hvo = Some("hill-village-oasis");
    let osm = Some("open-sand-marsh");
    let expected: BTreeMap<&str, (&str, MoveCost, Option<&str>)> = [
        ("open", ("Open", c(1), osm)),
        ("sand", ("Sand", c(2), osm)),
        ("hill", ("Hill", c(2), hvo)),
        ("ridge", ("Ridge", c(2), hvo)),
        ("oasis", ("Oasis", c(1), hvo)),
        ("marsh", ("Marsh", c(3), osm)),
        ("village", ("Village", c(1), hvo)),
        ("town", ("Town", c(1), Some("town-trench"))),
        ("all-sea-lake", ("All-Sea/-Lake", MoveCost::Prohibited, osm)),
    ]
    .into_iter()
    .collect();
    assert_eq!(in_hex, expected);
    for t in &sc.data.terrain.hex {
        assert!(!t.fortification, "{}", t.id);
        assert_eq!(t.blocks_zoc, t.id == "all-sea-lake", "{}", t.id);
    }
    let side: BTreeMap<&str, (MoveCost, Option<Mp>)> = sc
        .data
        .terrain
        .hexside
        .iter()
        .map(|t| (t.id.as_str(), (t.cost, t.road)))
        .collect();
    let half: Mp = "1/2".parse().unwrap();
    let zero = MoveCost::Plus(Mp::ZERO);
    let expected: BTreeMap<&str, (MoveCost, Option<Mp>)> = [
        ("canal", (MoveCost::Prohibited, None)),
        ("water", (MoveCost::Prohibited, None)),
        ("trench", (MoveCost::Plus(Mp::whole(1)), None)),
        ("railroad", (zero, Some(half))),
        ("track", (zero, Some(half))),
    ]
    .into_iter()
    .collect();
    assert_eq!(side, expected);
    // Through the engine: a British infantry unit pays 1/3 along a track, others 1/2;
    // every unit pays sand 2, and +1 across a trench.
    let g = Geo::new(&sc);
    let tags = |names: &[&str]| -> u64 {
        names
            .iter()
            .map(|n| sc.tag_names.iter().position(|t| t == n).unwrap())
            .fold(0, |m, b| m | 1 << b)
    };
    let side_mask = |a: Hex, b: Hex| -> u64 {
        let ia = sc.hex_index(a).unwrap();
        let ib = sc.hex_index(b).unwrap();
        sc.hexes[ia as usize].sides[sc.direction(ia, ib).unwrap()]
    };
    let (a, b) = g
        .sides
        .iter()
        .find(|(_, f)| *f == &vec!["track".to_string()])
        .map(|(k, _)| *k)
        .unwrap();
    let to = sc.hex_index(b).unwrap();
    assert_eq!(
        enter_cost(&sc, tags(&["british-foot"]), side_mask(a, b), to),
        Some("1/3".parse().unwrap())
    );
    assert_eq!(enter_cost(&sc, 0, side_mask(a, b), to), Some(half));
    let (a, b) = g
        .sides
        .iter()
        .find(|((a, b), f)| {
            *f == &vec!["trench".to_string()] && g.is(*b, "sand") && g.is(*a, "sand")
        })
        .map(|(k, _)| *k)
        .unwrap();
    assert_eq!(
        enter_cost(&sc, 0, side_mask(a, b), sc.hex_index(b).unwrap()),
        Some(Mp::whole(3)),
        "sand 2 + trench 1"
    );
    let canal = side_mask(hex("0139"), hex("0239"));
    assert_eq!(
        enter_cost(&sc, 0, canal, sc.hex_index(hex("0239")).unwrap()),
        None
    );
}

#[test]
fn suez_crt_lines_and_grid() {
    let sc = load();
    let lines: Vec<(&str, &str, i32)> = sc
        .data
        .crt
        .lines
        .iter()
        .map(|l| (l.id.as_str(), l.name.as_str(), l.first_differential))
        .collect();
    assert_eq!(
        lines,
        [
            ("town-trench", "Town, Trench", -3),
            ("hill-village-oasis", "Hill, Ridge, Village, Oasis", -4),
            ("open-sand-marsh", "Open, Sand, Marsh", -5),
        ]
    );
    // The printed Town, Trench line: -3, -2, -1, 0, +1, +2,+3, +4,+5, +6,+7, +8,+9, +10
    // under Col 1 to Col 10 ("lists its differential columns from the left").
    let town = &sc.crt.lines[sc.crt.line_index("town-trench").unwrap()];
    let labels: Vec<String> = town.labels.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        labels,
        ["-3", "-2", "-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]
    );
    assert_eq!(town.columns(), 0..10);
    let hill = &sc.crt.lines[sc.crt.line_index("hill-village-oasis").unwrap()];
    assert_eq!(hill.columns(), 0..11);
    assert_eq!(sc.data.crt.grid[0].len(), 12);
    let vimy: serde_json::Value =
        serde_json::from_str(include_str!("../fm-core/scenarios/vimy-ridge.json")).unwrap();
    let meuse: serde_json::Value =
        serde_json::from_str(include_str!("../fm-core/scenarios/meuse-argonne.json")).unwrap();
    let here: serde_json::Value = serde_json::from_str(JSON).unwrap();
    assert_eq!(
        here["crt"]["grid"], vimy["crt"]["grid"],
        "the same system grid"
    );
    assert_eq!(here["crt"]["grid"], meuse["crt"]["grid"]);
    let prov = &sc.data.crt.provenance;
    assert!(
        prov.contains("Open, Sand, Marsh (-5) is stand-in"),
        "{prov}"
    );
    assert!(prov.contains("D3 and A3") && prov.contains("Ridge goes with Hill"));
}

#[test]
fn rule_12_3_result_levels() {
    let sc = load();
    let p = params(&sc);
    let levels: Vec<(u8, Option<u8>, &str, Option<Side>)> = p
        .result_levels
        .iter()
        .map(|l| (l.min_vp, l.max_vp, l.result.as_str(), l.winner))
        .collect();
    let (cp, br) = (Some(CENTRAL_POWERS), Some(BRITISH));
    assert_eq!(
        levels,
        [
            (16, None, "Central Powers decisive victory", cp),
            (13, Some(15), "Central Powers operational victory", cp),
            (10, Some(12), "Central Powers tactical victory", cp),
            (7, Some(9), "Draw", None),
            (4, Some(6), "British tactical victory", br),
            (1, Some(3), "British operational victory", br),
            (0, Some(0), "British decisive victory", br),
        ]
    );
    // Every total from 0 to the 20 VP of 12.4 falls in exactly one line.
    for vp in 0..=20u8 {
        let n = p
            .result_levels
            .iter()
            .filter(|l| vp >= l.min_vp && l.max_vp.map_or(true, |m| vp <= m))
            .count();
        assert_eq!(n, 1, "{vp} VP");
    }
    // 12.1 engineers, 12.2 and 12.3 are rule parameters: no system victory conditions.
    assert!(sc.data.victory.conditions.is_empty());
    assert_eq!(sc.data.victory.otherwise, None);
    assert_eq!(p.engineer_tag, "engineer");
}

#[test]
fn rule_11_2_british_order_of_battle_counts() {
    let sc = load();
    let mut by_zone: BTreeMap<String, Vec<&UnitData>> = BTreeMap::new();
    for u in sc.data.units.iter().filter(|u| u.side == BRITISH) {
        match &u.start {
            StartData::Zone(z) => by_zone.entry(z.clone()).or_default().push(u),
            other => panic!("{}: British units all set up (11.2), not {other:?}", u.id),
        }
    }
    let counts: BTreeMap<&str, usize> =
        by_zone.iter().map(|(z, v)| (z.as_str(), v.len())).collect();
    let printed: BTreeMap<&str, usize> = [
        ("british-trench", 8),
        ("kantara", 8),
        ("hill-40", 1),
        ("pelusium-station", 2),
        ("ballybunion", 1),
        ("hill-70", 1),
        ("dueidar", 1),
        ("romani", 4),
    ]
    .into_iter()
    .collect();
    assert_eq!(counts, printed, "11.2 line by line");
    let names =
        |z: &str| -> BTreeSet<&str> { by_zone[z].iter().map(|u| u.name.as_str()).collect() };
    let forms =
        |z: &str| -> BTreeSet<&str> { by_zone[z].iter().map(|u| u.formation.as_str()).collect() };
    assert_eq!(forms("british-trench"), ["52nd Division", "Reserve"].into());
    assert!(names("british-trench").contains("160+161/R"));
    assert_eq!(forms("kantara"), ["42nd Division", "Armored Train"].into());
    assert!(names("kantara").contains("Armored Train"));
    assert_eq!(names("hill-40"), ["Yeo/R"].into());
    assert_eq!(names("pelusium-station"), ["ICC/R", "MobC/R"].into());
    assert_eq!(names("ballybunion"), ["3 LH/ANZ"].into());
    assert_eq!(names("hill-70"), ["NZMR/ANZ"].into());
    assert_eq!(names("dueidar"), ["5 LH/ANZ"].into());
    let romani = names("romani");
    assert!(romani.contains("1 LH/ANZ") && romani.contains("2 LH/ANZ"));
    assert_eq!(
        by_zone["romani"]
            .iter()
            .filter(|u| u.formation == "53rd Division")
            .count(),
        2,
        "the 53rd Division (158th Brigade only)"
    );
    // 20.2: the brigades of each division.
    for (formation, brigades) in [
        ("42nd Division", ["125", "126", "127"].as_slice()),
        ("52nd Division", &["155", "156", "157"]),
        ("53rd Division", &["158"]),
    ] {
        for b in brigades {
            let n = sc
                .data
                .units
                .iter()
                .filter(|u| {
                    u.formation == formation && u.name.starts_with(b) && u.unit_type == "infantry"
                })
                .count();
            assert_eq!(n, 2, "{formation} {b}th Brigade: two half-brigades");
        }
    }
    for (id, name) in [
        ("br-anz-1lh", "1 LH/ANZ"),
        ("br-anz-2lh", "2 LH/ANZ"),
        ("br-anz-3lh", "3 LH/ANZ"),
        ("br-anz-5lh", "5 LH/ANZ"),
        ("br-anz-nzmr", "NZMR/ANZ"),
    ] {
        assert_eq!(unit(&sc, id).name, name);
        assert_eq!(
            unit(&sc, id).formation,
            "Australia & New Zealand Mounted Division"
        );
    }
    // The printed-count gaps: one combined brigade MG counter each for the 42nd and 52nd.
    for id in ["br-42-mg", "br-52-mg"] {
        let u = unit(&sc, id);
        assert_eq!(u.unit_type, "machinegun");
        assert!(u
            .provenance
            .as_deref()
            .unwrap()
            .contains("11.2 prints 8 counters"));
    }
}

#[test]
fn rule_13_2_fourteen_three_step_brigade_groups() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(p.brigade_group_tag, "brigade-group");
    assert_eq!(p.reduction_counters, 14, "11.2: 14 reduction counters");
    let groups: Vec<&UnitData> = sc
        .data
        .units
        .iter()
        .filter(|u| has_tag(u, &p.brigade_group_tag))
        .collect();
    assert_eq!(
        groups.len(),
        usize::from(p.reduction_counters),
        "one reduction counter each"
    );
    for u in &groups {
        assert_eq!(u.side, BRITISH, "{}", u.id);
        assert_eq!(u.unit_type, "infantry", "{}: infantry brigade groups", u.id);
        assert_eq!(u.steps.len(), 3, "{}: three steps", u.id);
        assert!(u
            .steps
            .windows(2)
            .all(|w| w[0].attack > w[1].attack && w[0].defense > w[1].defense));
        assert_eq!(u.kind, UnitKind::Leg);
    }
    for u in &sc.data.units {
        if !has_tag(u, &p.brigade_group_tag) {
            assert!(
                u.steps.len() <= 2,
                "{}: only brigade groups have three steps",
                u.id
            );
        }
    }
    let per_div: BTreeMap<&str, usize> = groups.iter().fold(BTreeMap::new(), |mut m, u| {
        *m.entry(u.formation.as_str()).or_default() += 1;
        m
    });
    assert_eq!(
        per_div,
        [
            ("42nd Division", 6),
            ("52nd Division", 6),
            ("53rd Division", 2)
        ]
        .into()
    );
}

#[test]
fn rule_11_4_20_1_central_powers_order_of_battle() {
    let sc = load();
    let p = params(&sc);
    let cp: Vec<&UnitData> = sc
        .data
        .units
        .iter()
        .filter(|u| u.side == CENTRAL_POWERS)
        .collect();
    let on_map: Vec<&&UnitData> = cp
        .iter()
        .filter(|u| u.start == StartData::Zone("central-powers".into()))
        .collect();
    assert_eq!(
        on_map.len(),
        19,
        "11.4: 19 counters on or east of the 26xx column"
    );
    let by_form = |us: &[&&UnitData]| -> BTreeMap<String, usize> {
        us.iter().fold(BTreeMap::new(), |mut m, u| {
            *m.entry(u.formation.clone()).or_default() += 1;
            m
        })
    };
    assert_eq!(
        by_form(&on_map),
        [
            ("3rd Division".to_string(), 12),
            ("1st Expeditionary Corps".to_string(), 5),
            ("German Asia Corps".to_string(), 2),
        ]
        .into()
    );
    let names: BTreeSet<&str> = on_map.iter().map(|u| u.name.as_str()).collect();
    for n in [
        "Pioneers/1 Ex",
        "Comp Eng/1 Ex",
        "Comp Cav/1 Ex",
        "Arab Cav/1 Ex",
        "SCC/1 Ex",
        "AK-1",
        "AK-2",
        "I/31",
        "III/32",
        "II/39",
        "I/Comp",
    ] {
        assert!(names.contains(n), "{n}");
    }
    // 12.1: the engineers.
    let engineers: BTreeSet<&str> = cp
        .iter()
        .filter(|u| has_tag(u, &p.engineer_tag))
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(engineers, ["Comp Eng/1 Ex", "Pioneers/1 Ex"].into());
    assert!(sc
        .data
        .units
        .iter()
        .filter(|u| u.side == BRITISH)
        .all(|u| !has_tag(u, "engineer")));
    // 11.4, 11.5: the 27th Division, three regiments of three battalions, off the map.
    let box_: Vec<&&UnitData> = cp.iter().filter(|u| u.start == StartData::OffMap).collect();
    assert_eq!(box_.len(), 9, "11.4: 27th Division [9 counters]");
    assert!(box_.iter().all(|u| u.formation == "27th Division"));
    assert_eq!(cp.len(), 28);
    let regs: Vec<(&str, Vec<&str>)> = p
        .reinforcement_regiments
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.units
                    .iter()
                    .map(|u| unit(&sc, u.as_str()).name.as_str())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        regs,
        [
            ("79th Regiment", vec!["I/79", "II/79", "III/79"]),
            ("80th Regiment", vec!["I/80", "II/80", "III/80"]),
            ("81st Regiment", vec!["I/81", "II/81", "III/81"]),
        ]
    );
    for r in &p.reinforcement_regiments {
        for id in &r.units {
            assert_eq!(unit(&sc, id.as_str()).start, StartData::OffMap);
        }
    }
    assert_eq!(p.reinforcement_roll_max, 3, "11.5: 1-3");
    assert_eq!(p.reinforcement_markers_per_regiment, 2);
    let g = Geo::new(&sc);
    let east: Vec<Hex> = g.land().into_iter().filter(|h| h.col == g.cols).collect();
    assert_eq!(p.reinforcement_entry, east, "11.5: the east map edge");
    // 13.1: Kress is held off the map, not a unit.
    assert_eq!(p.kress, "Kress von Kressenstein");
    assert_eq!(p.kress_shift, 1);
    assert!(sc.data.units.iter().all(|u| !u.name.contains("Kress")));
}

#[test]
fn rule_10_3_mobile_units_are_the_mounted_ones() {
    let sc = load();
    let mobile: BTreeSet<&str> = sc
        .data
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Mobile)
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(
        mobile,
        [
            "1 LH/ANZ",
            "2 LH/ANZ",
            "3 LH/ANZ",
            "5 LH/ANZ",
            "NZMR/ANZ",
            "ICC/R",
            "MobC/R",
            "Comp Cav/1 Ex",
            "Arab Cav/1 Ex",
            "SCC/1 Ex"
        ]
        .into()
    );
    for u in &sc.data.units {
        if u.kind == UnitKind::Mobile {
            assert!(
                u.provenance
                    .as_deref()
                    .unwrap()
                    .contains("circled movement factors"),
                "{}",
                u.id
            );
        }
    }
    assert_eq!(
        unit(&sc, "br-r-yeo").kind,
        UnitKind::Leg,
        "Yeomanry, Dismounted"
    );
    assert_eq!(params(&sc).leg_advance_limit, 1, "10.3 (7.9)");
}

#[test]
fn rule_11_1_11_2_11_4_set_up_zones() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(
        sc.data.setup.order,
        vec![BRITISH, CENTRAL_POWERS],
        "11.1: British first"
    );
    let land = g.land();
    for (name, hs) in &sc.data.setup.zones {
        for h in hs {
            assert!(land.contains(h), "{name}: {h} is water");
        }
    }
    // "In hexes adjacent to any British trench": every hex bordered by a trench hexside.
    let trench = zone(&sc, "british-trench");
    let expected: BTreeSet<Hex> = g
        .sides_with("trench")
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    assert_eq!(trench, expected);
    for h in &trench {
        assert!(
            g.neighbors(*h).iter().any(|n| g.side_has(*h, *n, "trench")),
            "{h}"
        );
    }
    // "On or adjacent to": the hex and its land neighbours.
    for (z, c) in [("kantara", "0239"), ("romani", "2031")] {
        let c = hex(c);
        let mut want: BTreeSet<Hex> = g
            .neighbors(c)
            .into_iter()
            .filter(|h| land.contains(h))
            .collect();
        want.insert(c);
        assert_eq!(zone(&sc, z), want, "{z}");
    }
    for (z, h) in [
        ("hill-40", "0637"),
        ("pelusium-station", "1532"),
        ("ballybunion", "0644"),
        ("hill-70", "0937"),
        ("dueidar", "1336"),
    ] {
        assert_eq!(zone(&sc, z), [hex(h)].into(), "{z}");
    }
    // "On or east of the 26xx hex column".
    assert_eq!(p.central_powers_setup_column, 26);
    let cp = zone(&sc, "central-powers");
    let want: BTreeSet<Hex> = land.iter().filter(|h| h.col >= 26).copied().collect();
    assert_eq!(cp, want);
    assert!(cp.contains(&hex("2633")), "Katia");
    assert!(g.cols > 33, "the map extends east past column 33");
    // No British zone reaches the Central Powers' columns.
    for (name, hs) in &sc.data.setup.zones {
        if name != "central-powers" {
            assert!(hs.iter().all(|h| h.col < 26), "{name}");
        }
    }
    // Room for every counter (17.1 stacking: British 2 a hex, none in marsh).
    for (name, hs) in &sc.data.setup.zones {
        let n = sc
            .data
            .units
            .iter()
            .filter(|u| u.start == StartData::Zone(name.clone()))
            .count();
        let room: usize = hs
            .iter()
            .map(|h| if g.is(*h, "marsh") { 1 } else { 2 })
            .sum();
        assert!(room >= n, "{name}: {n} counters, room for {room}");
    }
}

#[test]
fn rule_11_2_11_4_18_fire_support_pools() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(
        strengths(&p.british_pool),
        [
            ("British", 4),
            ("British", 4),
            ("British", 3),
            ("British", 3),
            ("British", 2)
        ],
        "11.2: two +4, two +3, one +2"
    );
    assert_eq!(p.british_set_aside.len(), 6, "11.2: six set aside");
    for m in &p.british_set_aside {
        assert!((1..=4).contains(&m.strength));
    }
    let cp = strengths(&p.central_powers_pool);
    assert_eq!(cp.len(), 11, "11.4: 11 counters");
    let kinds = |k: &str| {
        cp.iter()
            .filter(|(n, _)| *n == k)
            .map(|(_, s)| *s)
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds("Ottoman").len(), 3);
    assert_eq!(kinds("Austro-Hungarian").len(), 2);
    assert_eq!(
        kinds("German"),
        [6, 6, 4, 4, 4, 4],
        "two German +6 and four +4"
    );
    assert_eq!(
        strengths(&p.central_powers_reinforcement_markers),
        [("German", 5), ("German", 5), ("German", 4)],
        "11.4: two German +5 and one German +4"
    );
    assert_eq!(p.air_unit.name, "German air unit");
    assert!(p.air_unit.strength > 0);
    // Printed values say so; the rest are stand-in.
    let printed = |m: &FireSupportMarker| m.provenance == "printed";
    assert!(p.british_pool.iter().all(printed));
    assert!(p
        .central_powers_pool
        .iter()
        .all(|m| printed(m) == (m.name == "German")));
    assert!(p.central_powers_reinforcement_markers.iter().all(printed));
    // 18.3 replaces the system allotment.
    assert!(sc
        .data
        .turns
        .iter()
        .all(|t| t.support.a == 0 && t.support.b == 0));
    assert!(sc.data.support_markers.a.is_empty() && sc.data.support_markers.b.is_empty());
    assert!(sc.data.support_provenance.contains("18.3"));
    // 18.1, 18.2.
    assert_eq!((p.markers_per_hex.a, p.markers_per_hex.b), (2, 1));
    assert_eq!((p.observation_range.a, p.observation_range.b), (4, 5));
    assert_eq!(
        (p.hill_observation_range.a, p.hill_observation_range.b),
        (6, 7)
    );
    assert_eq!(p.markers_per_hex.get(CENTRAL_POWERS), &2);
    // 18.3: markers return on the morning turns.
    for t in &p.marker_return_turns {
        assert!(sc.data.turns[usize::from(*t) - 1].name.ends_with("Morning"));
    }
    assert_eq!(p.marker_return_turns, [2, 5, 8]);
}

#[test]
fn rule_10_2_10_4_19_0_turn_track() {
    let sc = load();
    let p = params(&sc);
    let names: Vec<&str> = sc.data.turns.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Zero Hour (night of 3/4 August)",
            "4 August Morning",
            "4 August Afternoon",
            "4 August Night",
            "5 August Morning",
            "5 August Afternoon",
            "5 August Night",
            "6 August Morning",
            "6 August Afternoon",
        ]
    );
    assert_eq!(*names.last().unwrap(), "6 August Afternoon", "12.3");
    let nights: Vec<usize> = sc
        .data
        .turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.night)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(nights, [1, 4, 7], "19.0: the three night turns");
    assert_eq!(p.zero_hour_turn, 1);
    assert!(sc.data.turns[usize::from(p.zero_hour_turn) - 1]
        .name
        .starts_with("Zero Hour"));
    assert_eq!(p.activation_first_turn, 2);
    assert_eq!(
        sc.data.turns[usize::from(p.activation_first_turn) - 1].name,
        "4 August Morning",
        "11.3"
    );
    assert_eq!(sc.data.first_player, CENTRAL_POWERS, "10.2");
    assert_eq!(sc.data.start.turn, 1);
    assert_eq!(sc.data.start.phase, Phase::Movement, "10.2");
    assert_eq!(
        sc.data.skip_phases,
        vec![
            Phase::Bombardment,
            Phase::MobileMovement,
            Phase::MobileCombat
        ],
        "10.3 no mobile phases; 18.1 bombardment at the start of the combat phase"
    );
    assert!(sc.data.provenance.contains("4 August Morning") && sc.data.provenance.contains("19.0"));
}

#[test]
fn rule_11_3_13_15_16_17_19_rule_numbers() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(p.pelusium_station, hex("1532"));
    assert_eq!(p.activation_roll_max, 2, "11.3: 1-2");
    assert_eq!(p.automatic_activation_range, 4, "11.3: four hexes");
    assert_eq!(p.activation_support_formation, "42nd Division");
    assert!(sc
        .data
        .units
        .iter()
        .any(|u| u.formation == p.activation_support_formation));
    assert_eq!(p.surprise_movement_factor, 2, "15.1: doubled");
    assert_eq!(p.surprise_shift, 1);
    assert_eq!(p.night_shift, 1, "19.0");
    assert_eq!((p.stacking_limit.a, p.stacking_limit.b), (3, 2), "17.1");
    assert_eq!(p.reserve_formation, "Reserve");
    assert!(sc
        .data
        .units
        .iter()
        .any(|u| u.formation == p.reserve_formation));
    assert_eq!(p.armored_train_tag, "armored-train");
    // Every tag a rule names is on some unit, and every unit tag is one a rule names.
    let named: BTreeSet<&str> = [
        p.engineer_tag.as_str(),
        &p.british_foot_tag,
        &p.armored_train_tag,
        &p.brigade_group_tag,
    ]
    .into();
    let used: BTreeSet<&str> = sc
        .data
        .units
        .iter()
        .flat_map(|u| u.tags.iter().map(String::as_str))
        .collect();
    assert_eq!(named, used);
    // Hexside and terrain ids the rules read exist.
    let side_ids: BTreeSet<&str> = sc
        .data
        .terrain
        .hexside
        .iter()
        .map(|t| t.id.as_str())
        .collect();
    for id in [
        &p.canal_hexside,
        &p.water_hexside,
        &p.trench_hexside,
        &p.railroad_hexside,
        &p.track_hexside,
    ] {
        assert!(side_ids.contains(id.as_str()), "{id}");
    }
    let hex_ids: BTreeSet<&str> = sc.data.terrain.hex.iter().map(|t| t.id.as_str()).collect();
    for id in p
        .hill_terrains
        .iter()
        .chain(&p.town_village_terrains)
        .chain([&p.marsh_terrain])
    {
        assert!(hex_ids.contains(id.as_str()), "{id}");
    }
}

#[test]
fn every_stand_in_value_says_stand_in() {
    let sc = load();
    let p = params(&sc);
    for u in &sc.data.units {
        let prov = u.provenance.as_deref().unwrap_or("");
        assert!(prov.contains("stand-in: values"), "{}: {prov}", u.id);
    }
    assert!(sc.data.map.provenance.starts_with("stand-in"));
    assert!(sc.data.provenance.contains("Printed") && sc.data.provenance.contains("Stand-in"));
    assert!(sc.data.crt.provenance.contains("stand-in"));
    for m in p
        .british_pool
        .iter()
        .chain(&p.british_set_aside)
        .chain(&p.central_powers_pool)
        .chain(&p.central_powers_reinforcement_markers)
        .chain([&p.air_unit])
    {
        assert!(
            m.provenance == "printed" || m.provenance.starts_with("stand-in"),
            "{m:?}"
        );
    }
    assert!(p
        .british_set_aside
        .iter()
        .all(|m| m.provenance.starts_with("stand-in")));
    assert!(p.air_unit.provenance.starts_with("stand-in"));
    assert!(p
        .central_powers_pool
        .iter()
        .filter(|m| m.name != "German")
        .all(|m| m.provenance.starts_with("stand-in")));
    // The town/village choice is said to be one.
    assert!(sc.data.map.provenance.contains("a choice"));
}
