//! Vimy Ridge: Arras Diversion — the scenario data (fm-core/scenarios/vimy-ridge.json,
//! written by scripts/gen_vimy_ridge.py) against the printed exclusive rules
//! (../shared/rules/vimy-ridge.txt 10.0-21.0, Integrated CRT, bombardment charts).
//! The map and every counter value are stand-in; these tests check that the schematic
//! carries every hex, line and feature the rules name, and that what is printed is kept.

use fm_core::vimy_ridge::VimyRidgeParams;
use fm_core::*;
use std::collections::{BTreeMap, BTreeSet};

use crate::common;
use common::geo::Geo;

const JSON: &str = include_str!("../fm-core/scenarios/vimy-ridge.json");

fn load() -> Scenario {
    Scenario::from_json(JSON).unwrap_or_else(|e| panic!("vimy-ridge.json does not load: {e}"))
}

fn params(sc: &Scenario) -> &VimyRidgeParams {
    match &sc.data.rules {
        RuleSet::VimyRidge(p) => p,
        other => panic!("expected the vimy-ridge rule set, got {other:?}"),
    }
}

fn hex(s: &str) -> Hex {
    s.parse().unwrap()
}

/// The Vimy Ridge geography the data tests ask about.
trait VimyGeo {
    fn north_of_river(&self) -> BTreeSet<Hex>;
}

impl VimyGeo for Geo {
    /// Hexes north of the Souchez: reachable from the north edge without crossing it.
    fn north_of_river(&self) -> BTreeSet<Hex> {
        let north: Vec<Hex> = (1..=self.cols).map(|c| Hex::new(c, 1)).collect();
        self.fill(&north, None, &["river"])
    }
}

fn zone(sc: &Scenario, name: &str) -> BTreeSet<Hex> {
    let z = &sc.data.setup.zones[name];
    let set: BTreeSet<Hex> = z.iter().copied().collect();
    assert_eq!(set.len(), z.len(), "zone {name} lists a hex twice");
    set
}

#[test]
fn loads_validates_and_round_trips() {
    let sc = load();
    assert_eq!(sc.data.id, "vimy-ridge");
    assert_eq!(sc.data.name, "Vimy Ridge: Arras Diversion");
    let again = Scenario::from_json(&sc.to_json()).unwrap();
    assert_eq!(sc.data, again.data);
    let g = Geo::new(&sc);
    assert_eq!((g.cols, g.rows), (32, 40));
    assert_eq!(sc.data.map.hexes.len(), 32 * 40, "every hex present");
    assert_eq!(sc.layout(), Layout::OddColumnsDown);
    assert_eq!(sc.data.sides.a.name, "Allies (Canadian Corps)");
    assert_eq!(sc.data.sides.b.name, "Germans");
}

#[test]
fn rule_12_1_thirteen_peaks_on_the_ridge() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.peak_terrain, "peak");
    let listed: BTreeSet<Hex> = p.peaks.iter().copied().collect();
    assert_eq!(p.peaks.len(), 13, "12.1: 13 peak hexes in all");
    assert_eq!(listed.len(), 13, "no peak listed twice");
    assert_eq!(listed, g.hexes_of("peak"), "every peak hex, and only those");
    let hills = g.hexes_of("hill");
    let (lo, hi) = (
        hills.iter().map(|h| h.col).min().unwrap(),
        hills.iter().map(|h| h.col).max().unwrap(),
    );
    for h in &p.peaks {
        assert!(g.is(*h, "peak"), "{h}");
        let hill_neighbours = g.neighbors(*h).iter().filter(|n| hills.contains(n)).count();
        assert!(hill_neighbours >= 2, "{h} is not on the ridge");
        assert!(
            (lo..=hi).contains(&h.col),
            "{h} outside the ridge's columns"
        );
    }
    // The ridge runs north-south: its peaks span most of the map from the river down.
    let rows: BTreeSet<u8> = p.peaks.iter().map(|h| h.row).collect();
    assert!(*rows.first().unwrap() <= 10 && *rows.last().unwrap() >= 30);
    for n in ["The Pimple", "Hill 145", "Hill 135"] {
        assert!(g.is(g.named(n), "peak"), "{n}");
    }
    assert!(g.named("The Pimple").row < g.named("Hill 145").row);
    assert!(g.named("Hill 145").row < g.named("Hill 135").row);
}

#[test]
fn rule_12_1_petit_vimy_two_town_hexes_and_supply_hex_1534() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(
        p.supply_hex,
        hex("1534"),
        "12.1: the German supply hex (1534)"
    );
    assert_eq!(
        p.petit_vimy.len(),
        2,
        "12.1: neither town hex of Petit Vimy"
    );
    assert_eq!(p.petit_vimy[0], p.supply_hex);
    assert!(sc.layout().adjacent(p.petit_vimy[0], p.petit_vimy[1]));
    for h in &p.petit_vimy {
        assert!(g.is(*h, "town"), "{h}");
    }
    assert_eq!(g.names[&p.supply_hex], "Petit Vimy (German supply hex)");
    // Petit Vimy is a town of its own: no other town hex touches it.
    for h in &p.petit_vimy {
        for n in g.neighbors(*h) {
            assert!(
                !g.is(n, "town") || p.petit_vimy.contains(&n),
                "{n} touches {h}"
            );
        }
    }
    assert!(zone(&sc, "german").is_superset(&p.petit_vimy.iter().copied().collect()));
}

#[test]
fn rule_12_1_twelve_vimy_town_hexes_east_of_the_ridge() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    let vimy: BTreeSet<Hex> = p.vimy.iter().copied().collect();
    assert_eq!(p.vimy.len(), 12, "12.1: the 12 Vimy town hexes");
    assert_eq!(vimy.len(), 12);
    for h in &vimy {
        assert!(g.is(*h, "town"), "{h}");
        assert!(!p.petit_vimy.contains(h), "{h} is in Petit Vimy");
    }
    // Contiguous, and exactly one town: the town hexes connected to it are its own 12.
    let towns = g.hexes_of("town");
    let connected = g.fill(&[p.vimy[0]], Some(&towns), &[]);
    assert_eq!(connected, vimy, "Vimy is one town of 12 hexes");
    let east_peak = p.peaks.iter().map(|h| h.col).max().unwrap();
    let east_pv = p.petit_vimy.iter().map(|h| h.col).max().unwrap();
    for h in &vimy {
        assert!(h.col > east_peak, "{h} is not east of every peak");
        assert!(h.col > east_pv, "{h} is not east of Petit Vimy");
    }
    assert!(zone(&sc, "german").is_superset(&vimy));
    // The other towns are named and are not part of Vimy.
    for n in [
        "Thélus",
        "Farbus",
        "Givenchy-en-Gohelle",
        "Neuville-St-Vaast",
        "Souchez",
    ] {
        let h = g.named(n);
        assert!(g.is(h, "town") && !vimy.contains(&h), "{n}");
    }
}

#[test]
fn rule_18_2_la_folie_woods_within_seven_hexes_of_petit_vimy() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.woods_terrain, "woods");
    assert_eq!(
        p.la_folie_range, 7,
        "18.2: within seven hexes of Petit Vimy"
    );
    let dist = |h: Hex| {
        p.petit_vimy
            .iter()
            .map(|v| sc.layout().distance(h, *v))
            .min()
            .unwrap()
    };
    let woods = g.hexes_of("woods");
    let (la_folie, others): (BTreeSet<Hex>, BTreeSet<Hex>) = woods
        .iter()
        .partition(|h| dist(**h) <= u32::from(p.la_folie_range));
    assert!(la_folie.len() >= 3, "La Folie Woods: {la_folie:?}");
    assert!(others.len() >= 3, "woods elsewhere: {others:?}");
    // One wood, north and north-west of Petit Vimy, on the ridge's east slope.
    let first = *la_folie.iter().next().unwrap();
    assert_eq!(g.fill(&[first], Some(&la_folie), &[]), la_folie);
    let crest = p.peaks.iter().map(|h| h.col).min().unwrap();
    for h in &la_folie {
        assert!(h.row < p.supply_hex.row, "{h} is not north of Petit Vimy");
        assert!(h.col <= p.petit_vimy[1].col && h.col > crest, "{h}");
    }
    assert!(g.is(g.named("La Folie Wood"), "woods"));
    assert!(dist(g.named("Bois de Givenchy")) > 7 && dist(g.named("Farbus Wood")) > 7);
}

#[test]
fn rule_11_2_the_river_hex_line_spans_the_map_west_to_east() {
    let sc = load();
    let g = Geo::new(&sc);
    let river: Vec<(Hex, Hex)> = g
        .sides
        .iter()
        .filter(|(_, f)| f.iter().any(|x| x == "river"))
        .map(|(k, _)| *k)
        .collect();
    let cols: BTreeSet<u8> = river.iter().flat_map(|(a, b)| [a.col, b.col]).collect();
    assert_eq!(
        cols,
        (1..=g.cols).collect(),
        "the river crosses every column"
    );
    for (a, b) in &river {
        assert!(
            (4..=7).contains(&a.row) && (4..=7).contains(&b.row),
            "{a}-{b}"
        );
    }
    // It cuts the map in two: the north edge cannot reach the south edge without crossing it.
    let north = g.north_of_river();
    assert!(north.iter().all(|h| h.row <= 6));
    assert!((1..=g.cols).all(|c| north.contains(&Hex::new(c, 1))));
    // Every river hexside separates the north from the south.
    for (a, b) in &river {
        assert_ne!(north.contains(a), north.contains(b), "{a}-{b}");
    }
    // 11.2, 11.5, 19.1, 20.2: no set-up hex north of it.
    for name in ["allied", "german"] {
        assert!(zone(&sc, name).is_disjoint(&north), "{name}");
    }
    assert!(g.named("Bois en Hache").row < 5 && north.contains(&g.named("Bois en Hache")));
}

#[test]
fn rule_11_2_11_5_set_up_either_side_of_the_allied_trench_line() {
    let sc = load();
    let g = Geo::new(&sc);
    let north = g.north_of_river();
    let allied = zone(&sc, "allied");
    let german = zone(&sc, "german");
    // West of the Allied trench line: the south of the river reachable from the west
    // edge without crossing a trench hexside.
    let west_edge: Vec<Hex> = (1..=g.rows)
        .map(|r| Hex::new(1, r))
        .filter(|h| !north.contains(h))
        .collect();
    let west = g.fill(&west_edge, None, &["river", "trench"]);
    assert!(west.is_disjoint(&north));
    assert_eq!(
        allied, west,
        "11.2, 20.2: every hex west of the Allied trench line"
    );
    let south: BTreeSet<Hex> = g
        .terrain
        .keys()
        .filter(|h| !north.contains(h))
        .copied()
        .collect();
    let east: BTreeSet<Hex> = south.difference(&west).copied().collect();
    assert_eq!(
        german, east,
        "11.5, 19.1: every hex east of the Allied trench line"
    );
    assert!(
        german.iter().any(|h| h.col == g.cols),
        "the line does not leak east"
    );
    // The line: trench hexsides from the river to the south edge, around columns 6/7.
    let mut line_rows = BTreeSet::new();
    for a in &allied {
        assert!(
            (1..=7).contains(&a.col),
            "{a}: the Allied line wends around column 6/7"
        );
        for n in g.neighbors(*a) {
            if german.contains(&n) {
                assert!(
                    g.side_has(*a, n, "trench"),
                    "{a}-{n} is not a trench hexside"
                );
                line_rows.insert(a.row);
                line_rows.insert(n.row);
            }
        }
    }
    let top = *line_rows.first().unwrap();
    assert!(
        g.neighbors(Hex::new(7, top))
            .iter()
            .chain(g.neighbors(Hex::new(6, top)).iter())
            .any(|n| north.contains(n)),
        "the line starts at the river"
    );
    assert_eq!(
        *line_rows.last().unwrap(),
        g.rows,
        "it reaches the south edge"
    );
    assert_eq!(
        line_rows,
        (top..=g.rows).collect(),
        "it runs unbroken from the river to the south edge"
    );
    for c in 1..=5u8 {
        for r in 8..=g.rows {
            assert!(allied.contains(&Hex::new(c, r)), "{c} {r}");
        }
    }
}

#[test]
fn rule_14_1_no_mans_land_between_the_allied_and_german_trench_lines() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    assert_eq!(p.no_mans_land_terrain, "no-mans-land");
    assert_eq!(p.trench_hexside, "trench");
    let north = g.north_of_river();
    let allied = zone(&sc, "allied");
    let german = zone(&sc, "german");
    let nml = g.hexes_of("no-mans-land");
    assert!(
        german.is_superset(&nml),
        "the German zone includes No Man's Land"
    );
    // The band: entered from the Allied zone across the Allied trench line, bounded by
    // trench hexsides (and the river) on every side.
    let seeds: Vec<Hex> = german
        .iter()
        .filter(|h| g.neighbors(**h).iter().any(|n| allied.contains(n)))
        .copied()
        .collect();
    let band = g.fill(&seeds, Some(&german), &["trench", "river"]);
    assert_eq!(
        band, nml,
        "No Man's Land is every hex between the two lines"
    );
    let (mut west_rows, mut east_rows) = (BTreeSet::new(), BTreeSet::new());
    for h in &nml {
        for n in g.neighbors(*h) {
            if nml.contains(&n) || north.contains(&n) {
                continue;
            }
            assert!(
                g.side_has(*h, n, "trench"),
                "{h}-{n}: No Man's Land ends at a trench line"
            );
            if allied.contains(&n) {
                west_rows.insert(h.row);
            } else {
                east_rows.insert(h.row);
            }
        }
    }
    // Both edges of the band are trench lines running from the river to the south edge.
    let top = nml.iter().map(|h| h.row).min().unwrap();
    assert!(west_rows == (top..=g.rows).collect(), "{west_rows:?}");
    assert!(east_rows.len() >= usize::from(g.rows - top) && east_rows.contains(&g.rows));
    // 1-3 hexes wide in every row, west of the ridge.
    for r in top..=g.rows {
        let width = nml.iter().filter(|h| h.row == r).count();
        assert!((1..=3).contains(&width), "row {r}: {width} hexes");
    }
    assert!(nml.iter().all(|h| (6..=10).contains(&h.col)));
    // Behind the front line, a second and a third German line, each crossing the map.
    for (lo, hi) in [(10u8, 13u8), (15, 19)] {
        for r in (top + 2)..=g.rows {
            let crossed = (lo..hi).any(|c| {
                let h = Hex::new(c, r);
                g.neighbors(h)
                    .iter()
                    .any(|n| n.col == c + 1 && g.side_has(h, *n, "trench"))
            });
            assert!(
                crossed,
                "no German trench between columns {lo} and {hi} in row {r}"
            );
        }
    }
}

#[test]
fn rule_11_3_allied_trench_hexes() {
    let sc = load();
    let p = params(&sc);
    let g = Geo::new(&sc);
    let allied = zone(&sc, "allied");
    let german = zone(&sc, "german");
    let listed: BTreeSet<Hex> = p.allied_trench_hexes.iter().copied().collect();
    assert_eq!(listed.len(), p.allied_trench_hexes.len());
    let expected: BTreeSet<Hex> = allied
        .iter()
        .filter(|h| {
            g.neighbors(**h)
                .iter()
                .any(|n| german.contains(n) && g.side_has(**h, *n, "trench"))
        })
        .copied()
        .collect();
    assert_eq!(
        listed, expected,
        "the hexes on the Allied side of the Allied trench line"
    );
    assert!(listed.len() >= 36);
    for h in &listed {
        assert!(allied.contains(h), "{h}");
    }
}

#[test]
fn rule_11_1_20_1_eleven_turns_with_three_nights() {
    let sc = load();
    let names: Vec<&str> = sc.data.turns.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), 11, "20.1: 11 turns");
    assert_eq!(names[0], "9 April (Morning)", "11.1, 15.2");
    assert_eq!(
        names,
        [
            "9 April (Morning)",
            "9 April (Day)",
            "9 April (Evening)",
            "10 April (Morning)",
            "10 April (Day)",
            "10 April (Evening)",
            "11 April (Morning)",
            "11 April (Day)",
            "11 April (Evening)",
            "12 April (Morning)",
            "12 April (Day)",
        ],
        "10.3: Morning, Day and Evening turns"
    );
    let nights: Vec<usize> = sc
        .data
        .turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.night)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        nights,
        [3, 6, 9],
        "13.1: the moon turns are the Evening turns"
    );
    for t in &sc.data.turns {
        let (a, b) = (t.support.a, t.support.b);
        if t.night {
            assert_eq!((a, b), (1, 1), "{}: reduced allotments", t.name);
        } else {
            assert_eq!((a, b), (3, 2), "{}", t.name);
        }
    }
    // 15.1, 15.2, 11.1, 19.1, 20.2.
    assert_eq!(sc.data.first_player, Side::A);
    assert_eq!(sc.data.start.turn, 1);
    assert_eq!(sc.data.start.phase, Phase::Bombardment);
    assert_eq!(sc.data.setup.order, vec![Side::B, Side::A]);
    assert!(sc.data.skip_phases.is_empty());
}

#[test]
fn rule_17_1_artillery_track() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(
        p.bombardment_markers, 13,
        "11.1: all 13 bombardment markers"
    );
    assert_eq!(p.artillery.len(), sc.data.turns.len());
    assert_eq!(
        (p.artillery[1].a, p.artillery[1].b),
        (8, 5),
        "17.1: the second turn reads 8/5"
    );
    for (i, e) in p.artillery.iter().enumerate() {
        assert!(e.a + e.b <= p.bombardment_markers, "turn {}: {e:?}", i + 1);
    }
    // Night turns get reduced allotments (13.1).
    for (i, t) in sc.data.turns.iter().enumerate() {
        if t.night {
            assert!(p.artillery[i].a < p.artillery[i - 1].a, "turn {}", i + 1);
        }
    }
    assert!(p.artillery_provenance.contains("8/5"));
    assert!(p.artillery_provenance.contains("stand-in"));
    // 11.1, 17.3, 18.1: aircraft markers, one lost each night.
    let nights = sc.data.turns.iter().filter(|t| t.night).count();
    assert!(usize::from(p.aircraft) > nights);
    assert_eq!(p.aircraft, 4);
}

#[test]
fn rule_19_1_20_0_order_of_battle() {
    let sc = load();
    let mut by_div: BTreeMap<(Side, &str), usize> = BTreeMap::new();
    for u in &sc.data.units {
        *by_div.entry((u.side, u.formation.as_str())).or_default() += 1;
        assert_eq!(u.kind, UnitKind::Leg, "{}: 10.3 leg units", u.id);
        assert_eq!(
            (u.size.as_str(), u.unit_type.as_str()),
            ("II", "infantry"),
            "{}",
            u.id
        );
        assert_eq!(u.steps.len(), 2, "{}", u.id);
        assert_eq!(u.start_depleted, 0, "{}", u.id);
        let z = if u.side == Side::A {
            "allied"
        } else {
            "german"
        };
        assert_eq!(
            u.start,
            StartData::Zone(z.into()),
            "{}: 19.2, 20.3 no reinforcements",
            u.id
        );
    }
    let expected: BTreeMap<(Side, &str), usize> = [
        ((Side::A, "1st Canadian Division"), 12),
        ((Side::A, "2nd Canadian Division"), 12),
        ((Side::A, "3rd Canadian Division"), 12),
        ((Side::A, "4th Canadian Division"), 12),
        ((Side::B, "16th Bavarian Division"), 9),
        ((Side::B, "79th Reserve Division"), 9),
        ((Side::B, "1st Bavarian Reserve Division"), 9),
    ]
    .into_iter()
    .collect();
    assert_eq!(by_div, expected);
    let find = |id: &str| {
        let u = &sc
            .unit(
                sc.unit_index(&UnitId::from(id))
                    .unwrap_or_else(|| panic!("{id}")),
            )
            .data;
        (u.name.as_str(), u.formation.as_str())
    };
    assert_eq!(find("cdn-1d-1bn"), ("1st Bn", "1st Canadian Division"));
    assert_eq!(find("cdn-3d-rcr"), ("RCR", "3rd Canadian Division"));
    assert_eq!(find("cdn-3d-ppcli"), ("PPCLI", "3rd Canadian Division"));
    assert_eq!(find("cdn-3d-1cmr"), ("1st CMR", "3rd Canadian Division"));
    assert_eq!(find("cdn-4d-102bn"), ("102nd Bn", "4th Canadian Division"));
    assert_eq!(find("ger-16b-11-i"), ("I/11 BIR", "16th Bavarian Division"));
    assert_eq!(
        find("ger-79r-261-ii"),
        ("II/261 RIR", "79th Reserve Division")
    );
    assert_eq!(
        find("ger-1br-3-iii"),
        ("III/3 BRIR", "1st Bavarian Reserve Division")
    );
    // Stand-in values: Canadians 3-2-4 / 2-1-4, Germans 2-3-4 / 1-2-4.
    for u in &sc.data.units {
        let v: Vec<(u8, u8, u8)> = u
            .steps
            .iter()
            .map(|s| (s.attack, s.defense, s.movement))
            .collect();
        let want = if u.side == Side::A {
            [(3, 2, 4), (2, 1, 4)]
        } else {
            [(2, 3, 4), (1, 2, 4)]
        };
        assert_eq!(v, want, "{}", u.id);
    }
}

#[test]
fn rule_18_3_every_unit_in_a_coloured_division() {
    let sc = load();
    let p = params(&sc);
    let divs: BTreeMap<&str, (Side, &str)> = p
        .divisions
        .iter()
        .map(|d| (d.formation.as_str(), (d.side, d.colour.as_str())))
        .collect();
    assert_eq!(divs.len(), 7);
    let colours: BTreeSet<&str> = divs.values().map(|(_, c)| *c).collect();
    assert_eq!(colours.len(), 7, "18.3: each division a unique colour");
    for u in &sc.data.units {
        let (side, _) = divs
            .get(u.formation.as_str())
            .unwrap_or_else(|| panic!("{}: {} is not a listed division", u.id, u.formation));
        assert_eq!(*side, u.side, "{}", u.id);
    }
    assert_eq!(
        p.german_setup_order,
        [
            "16th Bavarian Division",
            "79th Reserve Division",
            "1st Bavarian Reserve Division"
        ],
        "19.1: north to south"
    );
}

#[test]
fn rule_19_1_20_2_the_zones_hold_each_side() {
    let sc = load();
    let p = params(&sc);
    let count = |s: Side| sc.data.units.iter().filter(|u| u.side == s).count();
    assert!(zone(&sc, "allied").len() >= count(Side::A));
    let german = zone(&sc, "german");
    assert!(german.len() >= count(Side::B));
    // 19.1: the three German divisions in north-to-south bands of whole rows, one unit a hex.
    let mut per_row: BTreeMap<u8, usize> = BTreeMap::new();
    for h in &german {
        *per_row.entry(h.row).or_default() += 1;
    }
    let mut rows = per_row.into_iter();
    for div in &p.german_setup_order {
        let need = sc.data.units.iter().filter(|u| &u.formation == div).count();
        let mut room = 0;
        for (_, n) in rows.by_ref() {
            room += n;
            if room >= need {
                break;
            }
        }
        assert!(
            room >= need,
            "no room for the {div} south of the divisions before it"
        );
    }
}

#[test]
fn every_stand_in_value_says_stand_in() {
    let sc = load();
    let p = params(&sc);
    for u in &sc.data.units {
        let prov = u.provenance.as_deref().unwrap_or("");
        assert!(prov.contains("stand-in"), "{}: {prov}", u.id);
    }
    assert!(sc.data.map.provenance.starts_with("stand-in"));
    assert!(sc.data.provenance.contains("Printed") && sc.data.provenance.contains("Stand-in"));
    assert!(sc.data.crt.provenance.contains("stand-in"));
    assert!(sc.data.support_provenance.contains("stand-in"));
    assert!(p.artillery_provenance.contains("stand-in"));
    assert!(p.aircraft_provenance.starts_with("stand-in"));
}

#[test]
fn integrated_crt_lines_and_grid() {
    let sc = load();
    let lines: BTreeMap<&str, (&str, i32)> = sc
        .data
        .crt
        .lines
        .iter()
        .map(|l| (l.id.as_str(), (l.name.as_str(), l.first_differential)))
        .collect();
    let expected: BTreeMap<&str, (&str, i32)> = [
        ("peak", ("Peak", -1)),
        ("trench-woods", ("Trench hexside, Woods", -2)),
        ("town", ("Town", -3)),
        ("hill", ("Hill", -4)),
        ("clear", ("Clear, No Man's Land", -5)),
    ]
    .into_iter()
    .collect();
    assert_eq!(lines, expected);
    // "Each terrain row lists its combat differentials ... from left to right": the
    // Peak line's labels stand over grid columns 1-8.
    let peak = &sc.crt.lines[sc.crt.line_index("peak").unwrap()];
    let labels: Vec<String> = peak.labels.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        labels,
        ["-1", "0", "+1", "+2,+3", "+4,+5", "+6,+7", "+8,+9", "+10"]
    );
    assert_eq!(peak.columns(), 0..8);
    assert_eq!(sc.data.crt.grid[0].len(), 12);
    for l in &sc.data.crt.lines {
        assert_eq!(l.first_column, 1, "{}", l.id);
        let stand_in = l
            .provenance
            .as_deref()
            .unwrap_or("")
            .starts_with("stand-in");
        assert_eq!(
            stand_in,
            !["peak", "trench-woods"].contains(&l.id.as_str()),
            "{}",
            l.id
        );
    }
    let row = |r: usize| -> Vec<String> {
        sc.data.crt.grid[r]
            .iter()
            .map(|c| {
                serde_json::to_value(c)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let printed1 = [
        "(A)", "A3", "A2", "•", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De",
    ];
    let printed2 = ["(A)", "(A)", "A3", "A2", "•"];
    assert_eq!(row(0), printed1);
    assert_eq!(row(1)[..5], printed2);
    let meuse: serde_json::Value =
        serde_json::from_str(include_str!("../fm-core/scenarios/meuse-argonne.json")).unwrap();
    let here: serde_json::Value = serde_json::from_str(JSON).unwrap();
    assert_eq!(
        here["crt"]["grid"], meuse["crt"]["grid"],
        "the same system grid"
    );
    assert_eq!(here["crt"]["columns"], meuse["crt"]["columns"]);
}

#[test]
fn terrain_effects_and_bombardment_chart() {
    let sc = load();
    let p = params(&sc);
    let hex: BTreeMap<&str, (MoveCost, Option<&str>)> = sc
        .data
        .terrain
        .hex
        .iter()
        .map(|t| (t.id.as_str(), (t.cost, t.crt_line.as_deref())))
        .collect();
    let c = |n| MoveCost::Cost(Mp::whole(n));
    let expected: BTreeMap<&str, (MoveCost, Option<&str>)> = [
        ("clear", (c(1), Some("clear"))),
        ("no-mans-land", (c(2), Some("clear"))),
        ("hill", (c(2), Some("hill"))),
        ("peak", (c(2), Some("peak"))),
        ("woods", (c(2), Some("trench-woods"))),
        ("town", (c(1), Some("town"))),
    ]
    .into_iter()
    .collect();
    assert_eq!(hex, expected);
    let side = |id: &str| sc.data.terrain.hexside.iter().find(|t| t.id == id).unwrap();
    let trench = side("trench");
    assert_eq!(
        trench.cost,
        MoveCost::Plus(Mp::ZERO),
        "14.3: no movement effect"
    );
    assert_eq!(trench.crt_line.as_deref(), Some("trench-woods"), "14.2");
    assert!(trench.all_attackers);
    let river = side("river");
    assert_eq!(river.cost, MoveCost::Plus(Mp::whole(1)));
    assert_eq!(river.crt_line, None);
    assert_eq!(sc.data.terrain.hexside.len(), 2);
    for s in &sc.data.map.hexsides {
        assert_eq!(
            s.features.len(),
            1,
            "{:?}: trench or river, not both",
            s.hexes
        );
    }
    // Artillery Bombardment Modifiers and the WWI Bombardment Results Table.
    let m: BTreeMap<&str, i8> = p
        .bombardment_modifiers
        .iter()
        .map(|t| (t.terrain.as_str(), t.modifier))
        .collect();
    let printed = [("clear", 0), ("no-mans-land", 1), ("town", 2), ("woods", 2)];
    assert_eq!(m, printed.into_iter().collect());
    assert_eq!(p.trench_modifier, 3);
    assert_eq!(p.bombardment_hit_max, 2);
    // 17.3: every non-clear hex terrain blocks a line of sight, up to 10 hexes.
    let blocking: BTreeSet<&str> = p.los_blocking_terrains.iter().map(|s| s.as_str()).collect();
    let non_clear: BTreeSet<&str> = hex.keys().copied().filter(|t| *t != "clear").collect();
    assert_eq!(blocking, non_clear);
    assert_eq!(p.observation_range, 10);
}

#[test]
fn rule_12_1_victory_and_replacements() {
    let sc = load();
    let p = params(&sc);
    assert_eq!(p.victory_points_to_win, 2);
    assert_eq!(p.easternmost_units, 3);
    assert_eq!(p.replacements_per_night, 2, "11.3, 11.6");
    assert_eq!(
        sc.data.victory.conditions,
        vec![VictoryCondition::Annihilation { side: Side::A }]
    );
    assert_eq!(sc.data.victory.otherwise, Some(Side::B), "12.2");
    // The easternmost map edge (11.6, 12.1) is column 32; the Allies' is the west edge.
    let edges = &sc.data.map.friendly_edges;
    assert_eq!(
        edges.a,
        (1..=40).map(|r| Hex::new(1, r)).collect::<Vec<_>>()
    );
    assert_eq!(
        edges.b,
        (1..=40).map(|r| Hex::new(32, r)).collect::<Vec<_>>()
    );
}
