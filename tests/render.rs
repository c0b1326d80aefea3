//! The SVG renderer: every built-in scenario's opening renders as well-formed XML with
//! one counter per unit on the map; views hide face-down markers; depleted counters,
//! options and escaping.

use fm_core::{
    agents, render_svg, view, Event, Location, MapMarker, Match, RenderOptions, Scenario, Side,
    State,
};
use std::sync::Arc;

/// A small well-formedness check: balanced tags, quoted attributes, known entities,
/// exactly one root element. Returns the element names in document order.
fn check_xml(doc: &str) -> Result<Vec<String>, String> {
    let b = doc.as_bytes();
    let mut i = 0;
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut roots = 0;
    let check_text = |t: &str| -> Result<(), String> {
        let mut rest = t;
        while let Some(p) = rest.find('&') {
            let after = &rest[p + 1..];
            let end = after.find(';').ok_or_else(|| format!("bare & in {t:?}"))?;
            let ent = &after[..end];
            let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos")
                || (ent.starts_with('#') && ent.len() > 1);
            if !ok {
                return Err(format!("unknown entity &{ent};"));
            }
            rest = &after[end + 1..];
        }
        if t.contains('>') {
            return Err(format!("raw > in text {t:?}"));
        }
        Ok(())
    };
    while i < b.len() {
        if b[i] != b'<' {
            let next = doc[i..].find('<').map_or(b.len(), |p| i + p);
            let t = &doc[i..next];
            if stack.is_empty() && !t.trim().is_empty() {
                return Err(format!("text outside the root: {t:?}"));
            }
            check_text(t)?;
            i = next;
            continue;
        }
        if doc[i..].starts_with("<!--") {
            i += doc[i..].find("-->").ok_or("unclosed comment")? + 3;
            continue;
        }
        if doc[i..].starts_with("<?") {
            i += doc[i..].find("?>").ok_or("unclosed declaration")? + 2;
            continue;
        }
        // A tag: find its end, outside quotes.
        let mut j = i + 1;
        let mut quote: Option<u8> = None;
        while j < b.len() {
            match (quote, b[j]) {
                (None, b'"') | (None, b'\'') => quote = Some(b[j]),
                (Some(q), c) if c == q => quote = None,
                (Some(_), b'<') => return Err(format!("< inside an attribute at {j}")),
                (None, b'>') => break,
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() {
            return Err("unclosed tag".into());
        }
        let inner = &doc[i + 1..j];
        i = j + 1;
        if let Some(name) = inner.strip_prefix('/') {
            let open = stack.pop().ok_or("close tag without open")?;
            if open != name.trim() {
                return Err(format!("</{name}> closes <{open}>"));
            }
            continue;
        }
        let self_closing = inner.ends_with('/');
        let inner = inner.trim_end_matches('/');
        let name_end = inner
            .find(|c: char| c.is_whitespace())
            .unwrap_or(inner.len());
        let name = &inner[..name_end];
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad element name {name:?}"));
        }
        // Attributes: name="value" pairs, each name once.
        let mut rest = inner[name_end..].trim();
        let mut seen = Vec::new();
        while !rest.is_empty() {
            let eq = rest
                .find('=')
                .ok_or_else(|| format!("attribute without value in <{name}>"))?;
            let an = rest[..eq].trim();
            if an.is_empty() || an.contains(char::is_whitespace) {
                return Err(format!("bad attribute name {an:?} in <{name}>"));
            }
            if seen.contains(&an) {
                return Err(format!("duplicate attribute {an} in <{name}>"));
            }
            seen.push(an);
            let v = rest[eq + 1..].trim_start();
            let q = v.chars().next().ok_or("missing attribute value")?;
            if q != '"' && q != '\'' {
                return Err(format!("unquoted attribute {an} in <{name}>"));
            }
            let close = v[1..].find(q).ok_or("unterminated attribute")?;
            check_text(&v[1..1 + close]).map_err(|e| format!("attribute {an}: {e}"))?;
            rest = v[close + 2..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        names.push(name.to_string());
        if !self_closing {
            stack.push(name.to_string());
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(names)
}

fn on_map(s: &State) -> usize {
    s.units
        .iter()
        .filter(|u| matches!(u.loc, Location::Map(_)))
        .count()
}

/// The map's group of a picture: what comes before the panel and the charts below it
/// (whose legend, CRT and unit boxes draw counters and markers of their own).
fn map_part(svg: &str) -> &str {
    let start = svg.find(r#"<g class="map""#).expect("a map group");
    let end = [
        r#"<g class="panel">"#,
        r#"<g class="crt""#,
        r#"<g class="terrain-chart""#,
        r#"<g class="turn-track">"#,
        r#"<g class="box "#,
    ]
    .iter()
    .filter_map(|m| svg[start..].find(m))
    .min()
    .map_or(svg.len(), |e| start + e);
    &svg[start..end]
}

/// The counters drawn on the map.
fn counters(svg: &str) -> usize {
    map_part(svg).matches("<g class=\"unit\"").count()
}

/// The value of attribute `name` in the element text `elem` (`<tag a="1" ...`).
fn attr<'a>(elem: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let at = elem
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {elem}"))
        + key.len();
    &elem[at..at + elem[at..].find('"').unwrap()]
}

/// The start tag of the first element whose text contains `needle`.
fn element<'a>(svg: &'a str, needle: &str) -> Option<&'a str> {
    let at = svg.find(needle)?;
    let start = svg[..=at].rfind('<')?;
    Some(&svg[start..at + svg[at..].find('>')?])
}

#[test]
fn the_xml_checker_rejects_broken_documents() {
    assert!(check_xml("<svg><g></g></svg>").is_ok());
    assert!(check_xml("<svg><g></svg>").is_err());
    assert!(check_xml("<svg a=\"1\" a=\"2\"/>").is_err());
    assert!(check_xml("<svg>a & b</svg>").is_err());
    assert!(check_xml("<svg a=1/>").is_err());
    assert!(check_xml("<svg/><svg/>").is_err());
}

#[test]
fn every_builtin_opening_renders_one_counter_per_unit_on_the_map() {
    for name in Scenario::builtin_names() {
        let m = Match::new_builtin(name, 1).unwrap();
        let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
        let elems = check_xml(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(elems[0], "svg", "{name}");
        assert_eq!(counters(&svg), on_map(m.state()), "{name}");
        // Every unit on the map has its own counter.
        for (u, id) in m.state().units.iter().zip(m.state().units.ids.iter()) {
            let tag = format!("data-unit=\"{}\"", id);
            let expect = usize::from(matches!(u.loc, Location::Map(_)));
            assert_eq!(
                map_part(&svg).matches(&tag).count(),
                expect,
                "{name}: {}",
                id
            );
        }
        // One polygon per hex.
        assert_eq!(
            svg.matches("class=\"hex\"").count(),
            m.scenario().hexes.len(),
            "{name}"
        );
        for side in Side::BOTH {
            let v = m.view(side);
            let svg = render_svg(m.scenario(), &v, &RenderOptions::default());
            check_xml(&svg).unwrap_or_else(|e| panic!("{name} view {side}: {e}"));
            assert_eq!(counters(&svg), on_map(m.state()), "{name} view {side}");
            assert!(svg.contains("as seen by"), "{name}");
        }
        // And once set-up is over (some scenarios place every unit in set-up).
        let mut m = m;
        while matches!(m.pending(), fm_core::Pending::Setup { .. }) {
            let c = m.legal_commands()[0].clone();
            m.apply(&c).unwrap();
        }
        let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
        check_xml(&svg).unwrap_or_else(|e| panic!("{name} after set-up: {e}"));
        assert!(
            on_map(m.state()) > 0,
            "{name}: nothing on the map after set-up"
        );
        assert_eq!(counters(&svg), on_map(m.state()), "{name} after set-up");
    }
}

#[test]
fn boards_render_through_whole_random_games() {
    for name in Scenario::builtin_names() {
        let mut m = Match::new_builtin(name, 5).unwrap();
        let mut rng = fm_core::rng_from_seed(11);
        let mut k = 0;
        while !m.is_over() && k < 400 {
            let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
            m.apply(&c).unwrap();
            if k % 25 == 0 {
                let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
                check_xml(&svg).unwrap_or_else(|e| panic!("{name} step {k}: {e}"));
                assert_eq!(counters(&svg), on_map(m.state()), "{name} step {k}");
            }
            k += 1;
        }
        let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(counters(&svg), on_map(m.state()));
        if m.is_over() {
            assert!(svg.contains("Game over"), "{name}");
        }
    }
}

/// Plays random games until a ground combat holds a face-down marker of `side`.
fn with_face_down_marker(side: Side) -> Match {
    for seed in 0..400 {
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let mut rng = fm_core::rng_from_seed(seed + 1000);
        while !m.is_over() {
            if let Some(c) = &m.state().combat {
                if c.markers.iter().any(|mk| mk.side == side && !mk.revealed) {
                    return m;
                }
            }
            let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
            m.apply(&c).unwrap();
        }
    }
    panic!("no face-down marker found");
}

#[test]
fn views_hide_the_other_sides_face_down_markers() {
    let m = with_face_down_marker(Side::B);
    let c = m.state().combat.clone().unwrap();
    let hidden = c
        .markers
        .iter()
        .filter(|mk| mk.side == Side::B && !mk.revealed)
        .count();
    let opts = RenderOptions::default();
    let full = render_svg(m.scenario(), m.state(), &opts);
    let as_a = render_svg(m.scenario(), &view(m.scenario(), m.state(), Side::A), &opts);
    let as_b = render_svg(m.scenario(), &view(m.scenario(), m.state(), Side::B), &opts);
    for svg in [&full, &as_a, &as_b] {
        check_xml(svg).unwrap();
        assert!(svg.contains("class=\"combat\""));
    }
    let q = "data-value=\"?\"";
    // A sees B's face-down markers as "?"; B and the full state show their values.
    let own_hidden_a = c
        .markers
        .iter()
        .filter(|mk| mk.side == Side::A && !mk.revealed)
        .count();
    assert_eq!(map_part(&as_a).matches(q).count(), hidden);
    assert_eq!(map_part(&as_b).matches(q).count(), own_hidden_a);
    assert_eq!(map_part(&full).matches(q).count(), 0);
    // B's unused allotment shows as a count to A.
    assert!(as_a.contains("face down"));
    // Attack arrows, one per attacker.
    assert_eq!(
        full.matches("class=\"attack-arrow\"").count(),
        c.attackers.len()
    );
}

#[test]
fn depleted_units_are_marked() {
    for seed in 0..200 {
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let mut rng = fm_core::rng_from_seed(seed);
        while !m.is_over() {
            let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
            let ev = m.apply(&c).unwrap().to_vec();
            if ev.iter().any(|e| matches!(e, Event::StepLost { .. })) {
                let sc = m.scenario();
                let depleted = m
                    .state()
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(i, u)| {
                        matches!(u.loc, Location::Map(_)) && u.steps < sc.units[*i].max_steps()
                    })
                    .count();
                if depleted == 0 {
                    continue;
                }
                let svg = render_svg(sc, m.state(), &RenderOptions::default());
                check_xml(&svg).unwrap();
                assert_eq!(
                    map_part(&svg).matches("class=\"depleted\"").count(),
                    depleted
                );
                return;
            }
        }
    }
    panic!("no depleted unit found");
}

#[test]
fn options_and_escaping() {
    let mut data = Scenario::builtin("system-demo").unwrap().data;
    data.name = "Tricky <&> \"quotes\" 'n' stuff".into();
    data.units[0].name = "<b>&".into();
    data.map.hexes[5].name = Some("Café & <Bar>".into());
    let sc = Arc::new(Scenario::from_data(data).unwrap());
    let m = Match::new(sc, 3);
    let opts = RenderOptions {
        hex_size: 25.0,
        hex_ids: false,
        panel: false,
        title: Some("A & B".into()),
        markers: vec![
            MapMarker {
                hex: "0505".parse().unwrap(),
                kind: "breach".into(),
                label: "BR".into(),
            },
            MapMarker {
                hex: "0606".parse().unwrap(),
                kind: "aircraft".into(),
                label: "<air>".into(),
            },
        ],
        highlight: vec!["0404".parse().unwrap()],
        ..RenderOptions::default()
    };
    let svg = render_svg(m.scenario(), m.state(), &opts);
    check_xml(&svg).unwrap();
    assert!(svg.contains("A &amp; B"));
    assert!(svg.contains("&lt;b&gt;&amp;"));
    assert!(svg.contains("Café &amp; &lt;Bar&gt;"));
    assert!(svg.contains("data-value=\"BR\""));
    assert!(svg.contains("data-value=\"&lt;air&gt;\""));
    assert_eq!(svg.matches("class=\"highlight\"").count(), 1);
    assert!(!svg.contains("class=\"panel\""));
    assert!(!svg.contains(">0101<"));
    assert_eq!(counters(&svg), on_map(m.state()));
    // Default options print hex ids and the panel.
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    assert!(svg.contains(">0101<") && svg.contains("class=\"panel\""));
}

#[test]
fn hex_sizes_are_clamped_and_nan_is_the_default() {
    let m = Match::new(Arc::new(Scenario::builtin("system-demo").unwrap()), 1);
    let at = |hex_size: f64| {
        let opts = RenderOptions {
            hex_size,
            ..RenderOptions::default()
        };
        render_svg(m.scenario(), m.state(), &opts)
    };
    assert_eq!(at(f64::NAN), at(RenderOptions::default().hex_size));
    assert!(!at(f64::NAN).contains("NaN"));
    assert_eq!(at(1.0), at(fm_core::render::MIN_HEX_SIZE));
    assert_eq!(at(f64::INFINITY), at(fm_core::render::MAX_HEX_SIZE));
}

#[test]
fn hexes_tile_with_odd_columns_half_a_hex_lower() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    // Centre of a hex: where its `<use>` places the shared hexagon (drawn about 0,0).
    let centre = |id: &str| -> (f64, f64) {
        let tag = format!("<use class=\"hex\" data-hex=\"{id}\"");
        let at = svg.find(&tag).unwrap();
        let elem = &svg[at..at + svg[at..].find('>').unwrap()];
        (
            attr(elem, "x").parse().unwrap(),
            attr(elem, "y").parse().unwrap(),
        )
    };
    let s = 40.0;
    let hh = s * 3f64.sqrt() / 2.0;
    let (a, b, c) = (centre("0101"), centre("0201"), centre("0102"));
    assert!((b.0 - a.0 - 1.5 * s).abs() < 0.2, "column spacing");
    assert!(
        (a.1 - b.1 - hh).abs() < 0.2,
        "odd column sits half a hex lower"
    );
    assert!((c.1 - a.1 - 2.0 * hh).abs() < 0.2, "row spacing");
    // Every pair of neighbours is exactly one hex apart (the grid tiles).
    let sc = m.scenario();
    for h in &sc.hexes {
        let p = centre(&h.hex.to_string());
        for n in h.neighbors.iter().filter(|n| **n != fm_core::NO_HEX) {
            let q = centre(&sc.hex_at(*n).to_string());
            let d = ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
            assert!((d - 2.0 * hh).abs() < 0.3, "{} to {}", h.hex, sc.hex_at(*n));
        }
    }
}

#[test]
fn place_names_have_a_halo_element_under_the_text_not_paint_order() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    check_xml(&svg).unwrap();
    assert!(!svg.contains("paint-order"));
    // Each named hex: the halo (white, thick stroke) first, then the same text over it.
    for (hex, name) in [
        ("0805", "Ostdorf"),
        ("0906", "Hauptstadt"),
        ("1005", "Fort Kessel"),
    ] {
        let open = format!(r#"<g class="place" data-hex="{hex}" pointer-events="none">"#);
        let at = svg.find(&open).unwrap_or_else(|| panic!("{hex}")) + open.len();
        let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
        let texts: Vec<&str> = group.split("<text").skip(1).collect();
        assert_eq!(texts.len(), 2, "{group}");
        assert!(texts[0].starts_with(r#" class="halo""#), "{group}");
        assert!(texts[0].contains(r##"stroke="#fff""##) && texts[0].contains("stroke-width="));
        assert!(texts[0].ends_with(&format!(">{name}</text>")));
        assert!(!texts[1].contains("stroke="), "{group}");
        assert!(texts[1].ends_with(&format!(">{name}</text>")));
        assert_eq!(attr(texts[0], "x"), attr(texts[1], "x"));
        assert_eq!(attr(texts[0], "y"), attr(texts[1], "y"));
    }
}

#[test]
fn a_stack_shows_every_counter_and_its_count() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let mut s = m.state().clone();
    let hex = s.units[0].hex().unwrap();
    s.units[1].loc = Location::Map(hex);
    s.units[2].loc = Location::Map(hex);
    let svg = render_svg(m.scenario(), &s, &RenderOptions::default());
    check_xml(&svg).unwrap();
    assert_eq!(svg.matches(r#"class="stack""#).count(), 1);
    assert!(svg.contains(&format!(
        r#"<g class="stack" data-hex="{hex}" data-count="3">"#
    )));
    assert!(svg.contains(&format!(">3 units in {hex}</title>")));
    for i in 0..3 {
        assert!(svg.contains(&format!(r#"data-unit="{}""#, s.units.id(i))));
    }
    // Fanned out: three different counter positions.
    let xs: std::collections::BTreeSet<String> = (0..3)
        .map(|i| {
            let tag = format!(r#"<g class="unit" data-unit="{}""#, s.units.id(i));
            let at = svg.find(&tag).unwrap();
            let rect = &svg[at..][svg[at..].find("<rect").unwrap()..];
            attr(&rect[..rect.find('>').unwrap()], "x").to_string()
        })
        .collect();
    assert_eq!(xs.len(), 3);
    // Alone, no badge.
    let plain = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    assert!(!plain.contains(r#"class="stack""#));
}

#[test]
fn counters_are_labelled_by_id_when_asked() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let sc = m.scenario();
    let by_id = RenderOptions {
        unit_labels: fm_core::UnitLabels::Id,
        ..RenderOptions::map_only()
    };
    let ids = render_svg(sc, m.state(), &by_id);
    let names = render_svg(sc, m.state(), &RenderOptions::map_only());
    for (i, u) in m.state().units.iter().enumerate() {
        if !matches!(u.loc, Location::Map(_)) {
            continue;
        }
        let d = &sc.units[i].data;
        let label = |svg: &str| {
            let tag = format!(r#"<g class="unit" data-unit="{}""#, d.id);
            let at = svg.find(&tag).unwrap();
            let l = &svg[at..][svg[at..].find(r#"<text class="label""#).unwrap()..];
            l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()].to_string()
        };
        assert_eq!(label(&ids), d.id.to_string());
        assert_eq!(label(&names), d.name);
    }
}

/// Every ground attack and bombardment of random games: the board drawn just before
/// the command that resolves it highlights the terrain line and grid column that the
/// resolution then reads (8.2.1(d): the line's labels read from the left; 8.2.2 the
/// defender's line; 8.2.4 the result), whenever that command adds no marker (the same
/// differential).
#[test]
fn the_crt_panel_highlights_the_line_and_column_the_attack_reads_8_2_1_d_8_2_4() {
    let mut checked = [0usize; 2];
    for name in ["system-demo", "meuse-argonne", "suez-1916"] {
        for seed in 0..6u64 {
            let mut m = Match::new_builtin(name, seed).unwrap();
            let mut rng = fm_core::rng_from_seed(seed + 40);
            for _ in 0..1500 {
                if m.is_over() {
                    break;
                }
                let before = m.state().clone();
                let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
                let events = m.apply(&c).unwrap().to_vec();
                let Some(Event::CombatResolved {
                    kind,
                    differential,
                    line,
                    column,
                    ..
                }) = events
                    .iter()
                    .find(|e| matches!(e, Event::CombatResolved { .. }))
                else {
                    continue;
                };
                let sc = m.scenario();
                let svg = render_svg(sc, &before, &RenderOptions::default());
                let g = element(&svg, r#"<g class="crt""#).unwrap();
                // No reading without a combat before the command (declared and resolved
                // by it) or past the roll (`combat_reading`).
                if !g.contains(" data-differential=")
                    || attr(g, "data-differential") != differential.to_string()
                {
                    continue; // a marker came with the resolving command
                }
                assert_eq!(attr(g, "data-line"), line, "{name} {seed}");
                let li = sc.crt.line_index(line).unwrap();
                let col: usize = attr(g, "data-column").parse().unwrap();
                assert_eq!(&sc.crt.column_label(li, col - 1), column, "{name} {seed}");
                // The highlighted column, and the line's label over it.
                let hl = element(&svg, r#"class="crt-column""#).unwrap();
                assert_eq!(attr(hl, "data-column"), col.to_string());
                let lab = element(&svg, r#"class="crt-line""#).unwrap();
                assert_eq!(attr(lab, "data-line"), line);
                assert_eq!(attr(lab, "data-column"), col.to_string());
                assert!(svg.contains(&format!("differential {differential:+} on the")));
                checked[usize::from(*kind == fm_core::CombatKind::Ground)] += 1;
            }
        }
    }
    // A bombardment is declared and resolved by one command (8.1: no commitment
    // steps), so no picture shows one before its roll: only ground combats are read.
    assert_eq!(checked[0], 0, "{checked:?}");
    assert!(checked[1] >= 10, "{checked:?}");
}

#[test]
fn a_sides_view_counts_only_the_markers_it_can_see() {
    let m = with_face_down_marker(Side::B);
    let sc = m.scenario();
    let full = render_svg(sc, m.state(), &RenderOptions::default());
    let as_a = render_svg(sc, &view(sc, m.state(), Side::A), &RenderOptions::default());
    check_xml(&as_a).unwrap();
    let diff = |svg: &str| -> i32 {
        attr(
            element(svg, r#"<g class="crt""#).unwrap(),
            "data-differential",
        )
        .parse()
        .unwrap()
    };
    let c = m.state().combat.as_ref().unwrap();
    // B attacks (or bombards) or defends: its face-down markers add to its side of the
    // difference, an attacker's halved against a fortification (8.2.3).
    let attacking = m.state().active == Side::B;
    let fort = sc.is_fortification(sc.hex_index(c.hex).unwrap());
    let hidden: i32 = c
        .markers
        .iter()
        .filter(|mk| mk.side == Side::B && !mk.revealed)
        .map(|mk| {
            let v = i32::from(mk.value.unwrap());
            if attacking && fort {
                v / 2
            } else {
                v
            }
        })
        .sum();
    let sign = if attacking { 1 } else { -1 };
    assert_eq!(diff(&full), diff(&as_a) + sign * hidden);
    assert!(as_a.contains("face-down marker(s) not counted"));
    assert!(!full.contains("not counted"));
}

#[test]
fn the_region_crop_draws_its_rectangle_of_hexes_and_sizes_the_viewbox() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let sc = m.scenario();
    let opts = RenderOptions {
        region: Some(fm_core::Region::Rect {
            from: "0606".parse().unwrap(),
            to: "0303".parse().unwrap(),
        }),
        ..RenderOptions::map_only()
    };
    let svg = render_svg(sc, m.state(), &opts);
    check_xml(&svg).unwrap();
    // Columns 3-6 and rows 3-6: 16 hexes.
    assert_eq!(svg.matches(r#"<use class="hex""#).count(), 16);
    assert!(svg.contains(r#"data-hex="0303""#) && svg.contains(r#"data-hex="0606""#));
    assert!(!svg.contains(r#"data-hex="0202""#) && !svg.contains(r#"data-hex="0707""#));
    // Width: margins, one hex, three column steps; height: the title, margins, four
    // rows and half a hex.
    let (s, hh) = (40.0, 40.0 * 3f64.sqrt() / 2.0);
    let w = (16.0 + 2.0 * s + 1.5 * s * 3.0_f64).round();
    let h = (30.0 + 16.0 + 2.0 * hh * 4.0 + hh).round();
    assert!(
        svg.contains(&format!(r#"viewBox="0 0 {w} {h}""#)),
        "{}",
        &svg[..300]
    );
    // The same rectangle from a list of hexes.
    let list = RenderOptions {
        region: Some(fm_core::Region::Hexes(vec![
            "0405".parse().unwrap(),
            "0303".parse().unwrap(),
            "0606".parse().unwrap(),
        ])),
        ..RenderOptions::map_only()
    };
    assert_eq!(render_svg(sc, m.state(), &list), svg);
    // Units outside are not drawn.
    let inside = m
        .state()
        .units
        .iter()
        .filter(|u| {
            u.hex()
                .is_some_and(|h| (3..=6).contains(&h.col) && (3..=6).contains(&h.row))
        })
        .count();
    assert_eq!(counters(&svg), inside);
}

#[test]
fn render_options_from_json_read_every_field_and_refuse_bad_values() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let sc = m.scenario();
    let read = |v: serde_json::Value| RenderOptions::from_json(sc, &v);
    let o = read(serde_json::json!({
        "hex_size": 25, "hex_ids": false, "panel": false, "title": "T",
        "markers": [{"hex": "0505", "kind": "breach", "label": "BR"}],
        "highlight": ["0404"], "region": {"from": "0101", "to": "0505"},
        "unit_labels": "id", "crt": false, "terrain_chart": false, "turn_track": false,
        "boxes": false
    }))
    .unwrap();
    assert_eq!(o.hex_size, 25.0);
    assert!(!o.hex_ids && !o.panel && !o.crt && !o.terrain_chart && !o.turn_track && !o.boxes);
    assert_eq!(o.unit_labels, fm_core::UnitLabels::Id);
    assert_eq!(o.markers.len(), 1);
    assert_eq!(
        read(serde_json::json!({})).unwrap(),
        RenderOptions::default()
    );
    assert_eq!(
        read(serde_json::Value::Null).unwrap(),
        RenderOptions::default()
    );
    let region = read(serde_json::json!({"region": ["0202", "0404"]})).unwrap();
    assert!(matches!(region.region, Some(fm_core::Region::Hexes(ref v)) if v.len() == 2));
    for (bad, says) in [
        (
            serde_json::json!({"hex_size": 5}),
            "hex_size must be a number of pixels from 10 to 200, not 5",
        ),
        (serde_json::json!({"hex_size": 1e9}), "hex_size"),
        (serde_json::json!({"hex_size": "big"}), "at hex_size"),
        (
            serde_json::json!({"colour": true}),
            "unknown field `colour`",
        ),
        (
            serde_json::json!({"region": {"from": "0101", "to": "9999"}}),
            "region: 9999 is off the map",
        ),
        (
            serde_json::json!({"region": {"from": "0101"}}),
            "missing field `to`",
        ),
        (
            serde_json::json!({"region": {"from": "0101", "to": "0202", "by": 1}}),
            "unknown field `by`",
        ),
        (serde_json::json!({"region": []}), "an empty list of hexes"),
        (
            serde_json::json!({"highlight": ["0101", "4040"]}),
            "highlight[1]: 4040 is off the map",
        ),
        (
            serde_json::json!({"markers": [{"hex": "4040", "kind": "x"}]}),
            "markers[0]: 4040 is off the map",
        ),
        (serde_json::json!({"unit_labels": "both"}), "at unit_labels"),
        (serde_json::json!([1, 2]), "render options"),
    ] {
        let Err(e) = read(bad.clone()) else {
            panic!("{bad} was accepted")
        };
        assert_eq!(e.rule, "input");
        assert!(e.message.contains(says), "{bad}: {}", e.message);
    }
}

#[test]
fn suez_and_vimy_trench_hexsides_are_drawn_as_works_not_water() {
    for name in ["suez-1916", "vimy-ridge"] {
        let m = Match::new_builtin(name, 1).unwrap();
        let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
        // Neither game has a river: no river-blue line anywhere.
        if name == "suez-1916" {
            assert!(!svg.contains(r##"stroke="#2f6fc4""##), "{name}");
        }
        // The trench line's red, with its ticks, on the map and in the legend.
        let red = svg.matches(r##"<path d="M"##).count();
        assert!(red > 10, "{name}: {red}");
        assert!(
            svg.contains(r##"stroke="#a5281b" stroke-width="2.2""##),
            "{name}"
        );
    }
}

#[test]
fn the_legend_explains_every_marking_of_the_map() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    check_xml(&svg).unwrap();
    for what in [
        "objective, not yet held",
        "objective held by",
        "set-up zone of",
        "hex attacked (combat in progress)",
        "bombarded this turn (markers)",
        "support fire marker, revealed",
        "support fire marker, face down",
        "units stacked in the hex",
        "steps: left (black), lost (white)",
        "movement boxed: a mobile unit",
        "depleted (flipped): pale, corner cut",
    ] {
        assert!(svg.contains(what), "{what}");
    }
    assert_eq!(svg.matches(r#"class="legend-zone""#).count(), 2);
    assert_eq!(svg.matches(r#"class="legend-combat""#).count(), 1);
}

#[test]
fn the_waiting_line_names_the_units_that_must_retreat() {
    for seed in 0..200 {
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let mut rng = fm_core::rng_from_seed(seed);
        while !m.is_over() {
            if let fm_core::Pending::Retreat { units, hexes, .. } = m.pending() {
                let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
                let u = &units[0];
                let name = &m.scenario().units[m.scenario().unit_index(u).unwrap() as usize]
                    .data
                    .name;
                // "Waiting for: Blue retreats 1st Bn (blue-1) 2 hex(es) or holds",
                // perhaps wrapped.
                let panel: String = svg
                    .split("<text")
                    .filter(|t| t.contains(r##"fill="#333""##))
                    .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim())
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(
                    panel.contains(&format!("{name} ({u})"))
                        && panel.contains(&format!("{hexes} hex(es)")),
                    "{panel}"
                );
                return;
            }
            let c = agents::random(m.scenario(), m.state(), &mut rng).unwrap();
            m.apply(&c).unwrap();
        }
    }
    panic!("no retreat reached");
}

#[test]
fn long_turn_names_wrap_in_the_panel() {
    let m = Match::new_builtin("suez-1916", 1).unwrap();
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    let panel = &svg[svg.find(r#"<g class="panel">"#).unwrap()..];
    assert!(
        panel.contains(">Turn 1 of 9 — Zero Hour (night of</text>"),
        "{}",
        &panel[..600]
    );
    assert!(panel.contains(">    3/4 August)</text>"));
}

#[test]
fn the_turn_track_and_boxes_follow_the_state() {
    let m = Match::new_builtin("meuse-argonne", 3).unwrap();
    let mut s = m.state().clone();
    let sc = m.scenario();
    let svg = render_svg(sc, &s, &RenderOptions::default());
    check_xml(&svg).unwrap();
    assert_eq!(
        svg.matches(r#"<g class="turn" "#).count()
            + svg.matches(r#"<g class="turn current" "#).count(),
        sc.data.turns.len()
    );
    assert!(svg.contains(&format!(
        r#"<g class="turn current" data-turn="{}">"#,
        s.turn
    )));
    // Every scheduled unit counted once on the track and drawn in its side's box.
    let scheduled = |side: Side| {
        s.units
            .iter()
            .enumerate()
            .filter(|(i, u)| u.loc == Location::Scheduled && sc.units[*i].data.side == side)
            .count()
    };
    for side in Side::BOTH {
        let due: usize = svg
            .split(&format!(r#"class="due" data-side="{side}" data-count=""#))
            .skip(1)
            .map(|t| t[..t.find('"').unwrap()].parse::<usize>().unwrap())
            .sum();
        assert_eq!(due, scheduled(side), "{side}");
        assert!(svg.contains(&format!(
            r#"<g class="box reinforcements" data-side="{side}" data-count="{}">"#,
            scheduled(side)
        )));
    }
    // An eliminated unit moves to its side's eliminated box.
    let i = (0..s.units.len())
        .find(|&i| s.units[i].loc != Location::Scheduled)
        .unwrap();
    s.units[i].loc = Location::Eliminated;
    let side = sc.units[i].data.side;
    let svg = render_svg(sc, &s, &RenderOptions::default());
    let open = format!(r#"<g class="box eliminated" data-side="{side}" data-count="1">"#);
    let at = svg.find(&open).unwrap();
    assert!(svg[at..]
        .split("</g></g>")
        .next()
        .unwrap()
        .contains(&format!(r#"data-unit="{}""#, s.units.id(i))));
}

#[test]
fn the_suez_board_stays_small_and_its_ids_are_its_own() {
    let m = Match::new_builtin("suez-1916", 1).unwrap();
    let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
    // 913 KB before shared definitions (issue 19).
    assert!(svg.len() < 500_000, "{} bytes", svg.len());
    // Every use names a definition of this picture, under its own prefix.
    let defs = &svg[svg.find("<defs>").unwrap()..svg.find("</defs>").unwrap()];
    let prefix = attr(element(defs, "<clipPath").unwrap(), "id")
        .strip_suffix("map")
        .unwrap()
        .to_string();
    assert!(prefix.starts_with("fm") && prefix.len() == 11, "{prefix}");
    for href in svg.split(r##"xlink:href="#"##).skip(1) {
        let id = &href[..href.find('"').unwrap()];
        assert!(
            id.starts_with(&prefix) && defs.contains(&format!(r#"id="{id}""#)),
            "{id}"
        );
    }
    // Another hex size: other definitions, another prefix.
    let small = RenderOptions {
        hex_size: 20.0,
        ..RenderOptions::default()
    };
    assert!(!render_svg(m.scenario(), m.state(), &small).contains(&prefix));
}

#[test]
fn a_huzzah_region_crops_the_table_in_centimetres() {
    use fm_core::huzzah::{engine, render as hz, scenario::Scenario as HzScenario};
    let sc = HzScenario::builtin("huzzah-firefight").unwrap();
    let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
    let read = |v: serde_json::Value| hz::RenderOptions::from_json(&sc, &v);
    let opts = read(serde_json::json!({"region": {"from": [60, 40], "to": [0, 0]}})).unwrap();
    let svg = hz::render_svg(&sc, &s, &opts);
    check_xml(&svg).unwrap();
    // 60 x 40 cm at the near left corner (y up from side A's edge, down in the picture):
    // the margin (12 px = 240 tenths of a mm at 5 px a cm), the title band (34 px),
    // the region's width, the gap (14 px) and the legend (240 px).
    let depth = sc.table().depth.0;
    let vb = attr(element(&svg, "<svg").unwrap(), "viewBox").to_string();
    assert!(
        vb.starts_with(&format!("-240 {} 11560 ", depth - 4000 - 680)),
        "{vb}"
    );
    assert!(svg.contains(&format!(
        r#"<rect x="0" y="{}" width="6000" height="4000"/>"#,
        depth - 4000
    )));
    let whole = hz::render_svg(&sc, &s, &hz::RenderOptions::default());
    assert!(!whole.contains("clipPath id=\"hz-region"));
    // Two pictures of different tables or scales never share an id.
    let id = |svg: &str| {
        let at = svg.find(r#" id="hz-"#).unwrap() + r#" id=""#.len();
        svg[at..at + svg[at..].find('"').unwrap()].to_string()
    };
    let bigger = hz::render_svg(
        &sc,
        &s,
        &hz::RenderOptions {
            scale_px_per_cm: 8,
            ..hz::RenderOptions::default()
        },
    );
    assert_ne!(id(&whole), id(&bigger));
    for (bad, says) in [
        (
            serde_json::json!({"arc_of": "nobody"}),
            "arc_of: unknown unit 'nobody'",
        ),
        (
            serde_json::json!({"scale": 0}),
            "scale must be a number of pixels per centimetre from 1 to 100, not 0",
        ),
        (serde_json::json!({"scale": 101}), "not 101"),
        (serde_json::json!({"scale": -3}), "at scale"),
        (
            serde_json::json!({"region": {"from": [0, 0], "to": [9999, 10]}}),
            "off the table",
        ),
        (
            serde_json::json!({"region": {"from": [5, 5], "to": [5, 30]}}),
            "enclose no area",
        ),
        (
            serde_json::json!({"region": {"from": [0, 0]}}),
            "missing field `to`",
        ),
        (
            serde_json::json!({"hex_size": 40}),
            "unknown field `hex_size`",
        ),
    ] {
        let Err(e) = read(bad.clone()) else {
            panic!("{bad} was accepted")
        };
        assert_eq!(e.rule, "input");
        assert!(e.message.contains(says), "{bad}: {}", e.message);
    }
    let ok =
        read(serde_json::json!({"arc_of": "fr-1", "radii": true, "scale": 7, "labels": false}))
            .unwrap();
    assert_eq!(ok.arc_of.as_deref(), Some("fr-1"));
    assert!(ok.radii && !ok.labels && ok.scale_px_per_cm == 7);
    assert_eq!(
        read(serde_json::Value::Null).unwrap(),
        hz::RenderOptions::default()
    );
}

/// The start tags (`<tag ...`, without the `>`) of the elements of `svg` whose start
/// tag begins with `open`, in document order.
fn tags<'a>(svg: &'a str, open: &str) -> Vec<&'a str> {
    svg.match_indices(open)
        .map(|(at, _)| &svg[at..at + svg[at..].find('>').unwrap()])
        .collect()
}

/// Every built-in Fire & Movement scenario's opening and its position once set-up is
/// over (some place every unit in set-up).
fn openings_and_after_setup() -> Vec<(String, Match, State)> {
    let mut out = Vec::new();
    for name in Scenario::builtin_names() {
        let mut m = Match::new_builtin(name, 1).unwrap();
        let opening = m.state().clone();
        while matches!(m.pending(), fm_core::Pending::Setup { .. }) {
            let c = m.legal_commands()[0].clone();
            m.apply(&c).unwrap();
        }
        let set_up = m.state().clone();
        out.push((format!("{name} opening"), m.clone(), opening));
        out.push((format!("{name} after set-up"), m, set_up));
    }
    out
}

#[test]
fn issue_34_fm_every_hex_has_exactly_one_data_hex_shape_under_the_rest() {
    for (name, m, s) in openings_and_after_setup() {
        let sc = m.scenario();
        let svg = render_svg(sc, &s, &RenderOptions::default());
        let map = map_part(&svg);
        let shapes = tags(map, r#"<use class="hex""#);
        assert_eq!(shapes.len(), sc.hexes.len(), "{name}");
        let mut seen = std::collections::BTreeSet::new();
        for t in &shapes {
            assert!(seen.insert(attr(t, "data-hex").to_string()), "{name}: {t}");
            // The shape is the whole hex: a definition whose outline is a full hex.
            assert!(attr(t, "xlink:href").starts_with('#'), "{t}");
        }
        for h in &sc.hexes {
            assert!(seen.contains(&h.hex.to_string()), "{name}: {}", h.hex);
        }
        // What lies over the hexes without naming them takes no clicks.
        for open in [
            r#"<g class="hex-ids""#,
            r#"<g class="hexsides""#,
            r#"<g class="place""#,
        ] {
            for t in tags(map, open) {
                assert_eq!(attr(t, "pointer-events"), "none", "{name}: {t}");
            }
        }
        assert_eq!(tags(map, r#"<g class="hexsides""#).len(), 1, "{name}");
    }
}

#[test]
fn issue_34_fm_counters_carry_hex_and_stack_position() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let mut stacked = m.state().clone();
    let hex = stacked.units[0].hex().unwrap();
    stacked.units[1].loc = Location::Map(hex);
    stacked.units[2].loc = Location::Map(hex);
    let mut cases = openings_and_after_setup();
    cases.push(("system-demo with a stack of 3".into(), m, stacked));
    for (name, m, s) in cases {
        let s = &s;
        let svg = render_svg(m.scenario(), s, &RenderOptions::default());
        let map = map_part(&svg);
        let counters = tags(map, r#"<g class="unit""#);
        assert_eq!(counters.len(), on_map(s), "{name}");
        let mut in_hex: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for (u, id) in s.units.iter().zip(s.units.ids.iter()) {
            let Location::Map(h) = u.loc else { continue };
            let mine: Vec<&&str> = counters
                .iter()
                .filter(|t| attr(t, "data-unit") == id.as_str())
                .collect();
            assert_eq!(mine.len(), 1, "{name}: {id}");
            assert_eq!(attr(mine[0], "data-hex"), h.to_string(), "{name}: {id}");
            let n = s.units.iter().filter(|v| v.loc == Location::Map(h)).count();
            assert_eq!(
                attr(mine[0], "data-stack-size"),
                n.to_string(),
                "{name}: {id}"
            );
            in_hex
                .entry(h.to_string())
                .or_default()
                .push(attr(mine[0], "data-stack").parse().unwrap());
        }
        // Each hex's counters are 0, 1, ... from the bottom, drawn in that order.
        for (h, stack) in &in_hex {
            assert_eq!(*stack, (0..stack.len()).collect::<Vec<_>>(), "{name}: {h}");
        }
    }
}

/// A box on the picture: (x0, y0, x1, y1).
type Area = (f64, f64, f64, f64);

fn meets(a: Area, b: Area) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Each map counter of a picture in the order drawn: its unit, its rectangles (the
/// shadow and the body) and the box of its factors (attack-defense-move, bold DejaVu
/// Sans: digits 0.696 em wide and 0.73 em high, the hyphen 0.415 em).
fn counter_layout(svg: &str) -> Vec<(String, Vec<Area>, Area)> {
    let map = map_part(svg);
    let num = |t: &str, a: &str| attr(t, a).parse::<f64>().unwrap();
    map.match_indices(r#"<g class="unit""#)
        .map(|(at, _)| {
            let g = &map[at..at + map[at..].find("</g>").unwrap()];
            let unit = attr(g, "data-unit").to_string();
            let rects = tags(g, "<rect ")
                .into_iter()
                .take(2)
                .map(|r| {
                    let (x, y) = (num(r, "x"), num(r, "y"));
                    (x, y, x + num(r, "width"), y + num(r, "height"))
                })
                .collect();
            let f = tags(g, r#"<text x=""#)
                .into_iter()
                .find(|t| t.contains(r#"class="factors""#))
                .expect("factors");
            let at = g.find(f).unwrap() + f.len() + 1;
            let vals = &g[at..at + g[at..].find('<').unwrap()];
            let fs = num(f, "font-size");
            let w: f64 = vals
                .chars()
                .map(|c| if c == '-' { 0.415 } else { 0.696 })
                .sum::<f64>()
                * fs;
            let (x, y) = (num(f, "x"), num(f, "y"));
            (unit, rects, (x - w / 2.0, y - 0.73 * fs, x + w / 2.0, y))
        })
        .collect()
}

#[test]
fn issue_34_suez_0937_stack_keeps_every_counters_factors_in_sight() {
    let m = Match::new_builtin("suez-1916", 1).unwrap();
    let hill_70: fm_core::Hex = "0937".parse().unwrap();
    for n in 2..=5 {
        let mut s = m.state().clone();
        for i in 0..n {
            s.units[i].loc = Location::Map(hill_70);
        }
        for size in [40.0, 30.0, 20.0] {
            let opts = RenderOptions {
                hex_size: size,
                ..RenderOptions::map_only()
            };
            let svg = render_svg(m.scenario(), &s, &opts);
            let layout: Vec<_> = counter_layout(&svg)
                .into_iter()
                .filter(|(u, _, _)| s.units.ids[..n].iter().any(|id| id.as_str() == u.as_str()))
                .collect();
            assert_eq!(layout.len(), n);
            // No counter drawn later (above) covers a counter's factors, nor its
            // shadow; each counter's factors lie on the counter.
            for (j, (unit, rects, factors)) in layout.iter().enumerate() {
                let body = rects[1];
                assert!(
                    factors.0 >= body.0 && factors.2 <= body.2 && factors.3 <= body.3,
                    "n {n} size {size}: {unit}'s factors {factors:?} off {body:?}"
                );
                for (other, above, _) in &layout[j + 1..] {
                    for r in above {
                        assert!(
                            !meets(*factors, *r),
                            "n {n} size {size}: {other} {r:?} covers {unit}'s factors {factors:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn issue_34_fm_hex_ids_are_drawn_only_where_they_can_be_read() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let sc = m.scenario();
    let at = |size: f64| {
        let svg = render_svg(
            sc,
            m.state(),
            &RenderOptions {
                hex_size: size,
                ..RenderOptions::map_only()
            },
        );
        svg.find(r#"<g class="hex-ids""#).map(|at| {
            let g = &svg[at..at + svg[at..].find("</g>").unwrap()];
            g.matches("<text").count()
        })
    };
    let threshold = fm_core::render::HEX_ID_MIN_SIZE;
    // Scale 1 (the default size) and 0.5.
    assert_eq!(at(40.0), Some(sc.hexes.len()));
    assert_eq!(at(20.0), None);
    assert_eq!(at(threshold), Some(sc.hexes.len()));
    assert_eq!(at(threshold - 0.1), None);
    // Never asked for, never drawn.
    let off = RenderOptions {
        hex_ids: false,
        ..RenderOptions::map_only()
    };
    assert!(!render_svg(sc, m.state(), &off).contains(r#"class="hex-ids""#));
}

#[test]
fn issue_34_fm_every_objective_carries_data_objective() {
    for (name, m, s) in openings_and_after_setup() {
        let sc = m.scenario();
        let svg = render_svg(sc, &s, &RenderOptions::default());
        let stars = tags(map_part(&svg), r#"<g class="objective""#);
        let hexes = sc.objective_hexes();
        assert_eq!(stars.len(), hexes.len(), "{name}");
        for h in hexes {
            let h = h.to_string();
            let mine: Vec<_> = stars
                .iter()
                .filter(|t| attr(t, "data-objective") == h)
                .collect();
            assert_eq!(mine.len(), 1, "{name}: {h}");
            assert_eq!(attr(mine[0], "data-hex"), h);
        }
    }
    // Built-in scenarios have objectives to test.
    let suez = Match::new_builtin("suez-1916", 1).unwrap();
    assert!(!suez.scenario().objective_hexes().is_empty());
}

#[test]
fn issue_34_fm_markers_name_their_kind_and_hex() {
    let m = Match::new_builtin("system-demo", 1).unwrap();
    let mut s = m.state().clone();
    let (a, b, c): (fm_core::Hex, fm_core::Hex, fm_core::Hex) = (
        "0505".parse().unwrap(),
        "0606".parse().unwrap(),
        "0303".parse().unwrap(),
    );
    s.bombarded.insert(a, 2);
    s.ex.aircraft.push(b);
    s.ex.breached.insert(b);
    s.ex.artillery_plan.push(fm_core::ArtilleryPlan {
        hex: c,
        markers: 2,
        gas: true,
    });
    let opts = RenderOptions {
        markers: vec![MapMarker {
            hex: c,
            kind: "note".into(),
            label: "N".into(),
        }],
        ..RenderOptions::default()
    };
    let svg = render_svg(m.scenario(), &s, &opts);
    check_xml(&svg).unwrap();
    let chips: Vec<(String, String, String)> = tags(map_part(&svg), r#"<g class="marker""#)
        .iter()
        .map(|t| {
            (
                attr(t, "data-marker").to_string(),
                attr(t, "data-hex").to_string(),
                attr(t, "data-value").to_string(),
            )
        })
        .collect();
    let want = |k: &str, h: &str, v: &str| (k.to_string(), h.to_string(), v.to_string());
    assert_eq!(
        chips,
        vec![
            want("artillery", "0303", "A2G"),
            want("note", "0303", "N"),
            want("bombardment", "0505", "B2"),
            want("breach", "0606", "BR"),
            want("aircraft", "0606", "AIR"),
        ]
    );
}

#[test]
fn issue_34_fm_hex_ids_and_place_names_lie_under_every_counter() {
    let m = Match::new_builtin("suez-1916", 1).unwrap();
    let mut s = m.state().clone();
    // Counters on named hexes (Hill 70, Romani) and on ordinary ones.
    let named: Vec<fm_core::Hex> = ["0937", "2031"]
        .iter()
        .map(|h| h.parse().unwrap())
        .collect();
    for i in 0..6 {
        s.units[i].loc = Location::Map(named[i % 2]);
    }
    let svg = render_svg(m.scenario(), &s, &RenderOptions::default());
    let map = map_part(&svg);
    let first_counter = map.find(r#"<g class="unit""#).unwrap();
    let last_label = [r#"<g class="hex-ids""#, r#"<g class="place""#]
        .iter()
        .filter_map(|t| map.rfind(t))
        .max()
        .unwrap();
    assert!(last_label < first_counter);
    for h in &named {
        assert!(
            map.contains(&format!(
                r#"<g class="place" data-hex="{h}" pointer-events="none">"#
            )),
            "{h}"
        );
    }
}

#[test]
fn issue_34_huzzah_terrain_and_objectives_carry_their_ids() {
    use fm_core::huzzah::{engine, render as hz, scenario::Scenario as HzScenario};
    let mut pieces = 0;
    for name in fm_core::huzzah::scenario::BUILTIN {
        let sc = HzScenario::builtin(name).unwrap();
        let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
        let svg = hz::render_svg(&sc, &s, &hz::RenderOptions::default());
        // One group of `class` per id, carrying it in `key`.
        let once_each = |class: &str, key: &str, ids: Vec<&str>| {
            let groups = tags(&svg, &format!(r#"<g class="{class}""#));
            assert_eq!(groups.len(), ids.len(), "{name}: {class}");
            for id in ids {
                let n = groups.iter().filter(|g| attr(g, key) == id).count();
                assert_eq!(n, 1, "{name}: {class} {id}");
            }
        };
        once_each(
            "terrain",
            "data-terrain",
            sc.terrain().iter().map(|t| t.id.as_str()).collect(),
        );
        once_each(
            "objective",
            "data-objective",
            sc.objectives().iter().map(|o| o.id.as_str()).collect(),
        );
        pieces += sc.terrain().len() + sc.objectives().len();
    }
    assert!(pieces > 0);
}

/// The root's `data-table-transform`: a point of the picture's user space to table cm.
fn table_transform(svg: &str) -> impl Fn(f64, f64) -> (f64, f64) {
    let m: Vec<f64> = attr(element(svg, "<svg").unwrap(), "data-table-transform")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(m.len(), 6);
    move |u, v| (m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5])
}

#[test]
fn issue_34_huzzah_root_maps_the_picture_to_table_centimetres() {
    use fm_core::huzzah::geometry::Face;
    use fm_core::huzzah::state::Whereabouts;
    use fm_core::huzzah::{engine, render as hz, scenario::Scenario as HzScenario};
    let sc = HzScenario::builtin("huzzah-firefight").unwrap();
    let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
    let cm = |l: fm_core::huzzah::geometry::Len| l.0 as f64 / 100.0;
    for (opts, region) in [
        (hz::RenderOptions::default(), "0 0 180 120"),
        (
            hz::RenderOptions {
                scale_px_per_cm: 8,
                region: Some(hz::TableRegion {
                    from: [120.5, 90.0],
                    to: [10.0, 20.25],
                }),
                ..hz::RenderOptions::default()
            },
            "10 20.25 120.5 90",
        ),
    ] {
        let svg = hz::render_svg(&sc, &s, &opts);
        let root = element(&svg, "<svg").unwrap();
        assert_eq!(attr(root, "data-system"), "huzzah");
        assert_eq!(attr(root, "data-table"), "180 120");
        assert_eq!(attr(root, "data-units-per-cm"), "100");
        assert_eq!(
            attr(root, "data-px-per-cm"),
            opts.scale_px_per_cm.to_string()
        );
        assert_eq!(attr(root, "data-region"), region);
        let to_table = table_transform(&svg);
        let mut checked = 0;
        for (i, st) in s.units.iter().enumerate() {
            if st.at != Whereabouts::Table {
                continue;
            }
            let id = sc.units()[i].id.to_string();
            let g = &svg[svg
                .find(&format!(r#"<g class="unit" data-unit="{id}""#))
                .unwrap()..];
            let front = element(g, r#"<line class="front""#).unwrap();
            let num = |a: &str| attr(front, a).parse::<f64>().unwrap();
            let want = st.shape.face(Face::Front);
            for ((u, v), p) in [
                ((num("x1"), num("y1")), want.a),
                ((num("x2"), num("y2")), want.b),
            ] {
                let (x, y) = to_table(u, v);
                assert!(
                    (x - cm(p.x)).abs() < 1e-9 && (y - cm(p.y)).abs() < 1e-9,
                    "{id}: ({u}, {v}) maps to ({x}, {y}), not {p:?}"
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 7);
    }
}
