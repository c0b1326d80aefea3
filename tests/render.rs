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

fn counters(svg: &str) -> usize {
    svg.matches("<g class=\"unit\"").count()
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
            assert_eq!(svg.matches(&tag).count(), expect, "{name}: {}", id);
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
    assert_eq!(as_a.matches(q).count(), hidden);
    assert_eq!(as_b.matches(q).count(), own_hidden_a);
    assert_eq!(full.matches(q).count(), 0);
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
                assert_eq!(svg.matches("class=\"depleted\"").count(), depleted);
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
    // Centre of a hex: mean of its polygon's corners.
    let centre = |id: &str| -> (f64, f64) {
        let tag = format!("data-hex=\"{id}\" points=\"");
        let at = svg.find(&tag).unwrap() + tag.len();
        let pts = &svg[at..at + svg[at..].find('"').unwrap()];
        let xy: Vec<(f64, f64)> = pts
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let n = xy.len() as f64;
        (
            xy.iter().map(|p| p.0).sum::<f64>() / n,
            xy.iter().map(|p| p.1).sum::<f64>() / n,
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
