//! The legend right of the table: a key (the sides' colours, the disorder and rout
//! badges, the guns, odd hits, officers' letters, front edges and squares), then the
//! units off the table with where they are (the Rout Table, page 15; destroyed,
//! captured, not yet placed) and the officers lost or not yet placed.

use super::layout::Frame;
use super::text::{clip, text};
use super::units::{SIDE_DARK, SIDE_FILL};
use crate::huzzah::scenario::Scenario;
use crate::huzzah::state::{State, Whereabouts};
use crate::ids::Side;
use crate::svg::xml_escape;
use std::fmt::Write;

/// The most characters of an id or name printed in the legend.
const LEGEND_CHARS: usize = 30;

/// The legend box right of the table: a key, then the units and officers off the
/// table. Returns its height.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_legend(
    o: &mut String,
    sc: &Scenario,
    s: &State,
    f: &Frame,
    x: i64,
    w: i64,
    lh: i64,
    fs: i64,
) -> i64 {
    let mut body = String::new();
    let b = &mut body;
    let px = x + f.px(8);
    let tx = px + f.px(20);
    let sw = f.px(12);
    let mut y = f.px(6);
    let bold = r##" font-weight="bold" fill="#222222""##;
    let plain = r##" fill="#333333""##;
    let line = |b: &mut String, y: &mut i64, x: i64, attrs: &str, s: &str| {
        *y += lh;
        text(b, x, *y, fs, "start", attrs, 0, s);
    };
    line(b, &mut y, px, bold, "Key");
    for side in Side::BOTH {
        y += lh;
        let _ = write!(
            b,
            r##"<rect x="{px}" y="{}" width="{sw}" height="{sw}" fill="{}" stroke="{}" stroke-width="{}"/>"##,
            y - sw + f.px(2),
            SIDE_FILL.get(side),
            SIDE_DARK.get(side),
            f.px(1)
        );
        text(
            b,
            tx,
            y,
            fs,
            "start",
            plain,
            0,
            &format!("{} (side {side})", clip(&sc.side(side).name, LEGEND_CHARS)),
        );
    }
    let keys: [(&str, &str, &str, &str); 2] = [
        ("D", "#ffd23f", "#111111", "disordered (dashed bases)"),
        ("R", "#2a2a2a", "#ffffff", "routing (light fill)"),
    ];
    for (letter, bg, fg, what) in keys {
        y += lh;
        let _ = write!(
            b,
            r#"<rect x="{px}" y="{}" width="{sw}" height="{sw}" rx="{}" fill="{bg}" stroke="{fg}" stroke-width="{}"/>"#,
            y - sw + f.px(2),
            f.px(2),
            f.px(1)
        );
        text(
            b,
            px + sw / 2,
            y - f.px(1),
            fs,
            "middle",
            &format!(r#" font-weight="bold" fill="{fg}""#),
            0,
            letter,
        );
        text(b, tx, y, fs, "start", plain, 0, what);
    }
    // Each key's symbol drawn as the map draws it (units.rs), in a `g.key[data-key]`:
    // a gun is a disc with its barrel to the front edge (up here), odd hits are pips
    // (white-edged dots, one a hit) or, past 3, a larger disc with their number.
    for (key, fill, stroke, what) in [
        (
            "reserve-artillery",
            "#111111",
            "#ffffff",
            "reserve artillery base (gun)",
        ),
        (
            "divisional-artillery",
            "#ffffff",
            "#111111",
            "divisional artillery base (gun)",
        ),
    ] {
        y += lh;
        let (gx, gy) = (px + sw / 2, y - f.px(3));
        let _ = write!(
            b,
            r##"<g class="key" data-key="{key}"><line x1="{gx}" y1="{gy}" x2="{gx}" y2="{}" stroke="#111111" stroke-width="{}"/><circle cx="{gx}" cy="{gy}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/></g>"##,
            gy - f.px(8),
            f.px(2),
            f.px(4),
            f.px(1)
        );
        text(b, tx, y, fs, "start", plain, 0, what);
    }
    y += lh;
    let r = f.px(3);
    let _ = write!(b, r#"<g class="key" data-key="odd-hits">"#);
    for j in 0..2 {
        let _ = write!(
            b,
            r##"<circle cx="{}" cy="{}" r="{r}" fill="#111111" stroke="#ffffff" stroke-width="{}"/>"##,
            px + r + j * r * 5 / 2,
            y - f.px(4),
            f.px(1)
        );
    }
    b.push_str("</g>");
    text(b, tx, y, fs, "start", plain, 0, "odd hits (a dot each)");
    y += lh;
    let h = f.px(12);
    let _ = write!(
        b,
        r##"<g class="key" data-key="odd-hits-past-3"><circle cx="{}" cy="{}" r="{}" fill="#111111"/>"##,
        px + h / 2,
        y - f.px(4),
        h / 2
    );
    text(
        b,
        px + h / 2,
        y - f.px(1),
        f.px(8),
        "middle",
        r##" font-weight="bold" fill="#ffffff""##,
        0,
        "5",
    );
    b.push_str("</g>");
    text(
        b,
        tx,
        y,
        fs,
        "start",
        plain,
        0,
        "odd hits past 3 (their number)",
    );
    line(
        b,
        &mut y,
        px,
        plain,
        "Officers: C CinC, K corps, D division",
    );
    line(b, &mut y, px, plain, "dark edge: the front of a unit");
    line(b, &mut y, px, plain, "dark all round: a square");

    // Units off the table.
    y += lh / 2;
    line(b, &mut y, px, bold, "Off the table");
    let mut any = false;
    for (i, st) in s.units.iter().enumerate() {
        let Some(def) = sc.units().get(i) else {
            continue;
        };
        if st.at == Whereabouts::Table {
            continue;
        }
        any = true;
        y += lh;
        let id = def.id.to_string();
        let _ = write!(
            b,
            r##"<g class="offtable" data-unit="{}" data-at="{}"><rect x="{px}" y="{}" width="{sw}" height="{sw}" fill="{}" stroke="#161616" stroke-width="{}"/>"##,
            xml_escape(&id),
            whereabouts_text(st.at),
            y - sw + f.px(2),
            SIDE_FILL.get(def.side),
            f.px(1)
        );
        text(
            b,
            tx,
            y,
            fs,
            "start",
            plain,
            0,
            &format!(
                "{}: {}",
                clip(&id, LEGEND_CHARS - 18),
                whereabouts_text(st.at)
            ),
        );
        b.push_str("</g>");
    }
    for (i, os) in s.officers.iter().enumerate() {
        let Some(def) = sc.officers().get(i) else {
            continue;
        };
        if os.at.is_some() && !os.lost {
            continue;
        }
        any = true;
        y += lh;
        let _ = write!(
            b,
            r#"<g class="offtable" data-officer="{}"><circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>"#,
            xml_escape(&def.id),
            px + sw / 2,
            y - f.px(4),
            f.px(5),
            SIDE_FILL.get(def.side),
            SIDE_DARK.get(def.side),
            f.px(1)
        );
        text(
            b,
            tx,
            y,
            fs,
            "start",
            plain,
            0,
            &format!(
                "{}: {}",
                clip(&def.id, LEGEND_CHARS - 14),
                if os.lost { "lost" } else { "not yet placed" }
            ),
        );
        b.push_str("</g>");
    }
    if !any {
        line(b, &mut y, px, plain, "none");
    }
    y += lh / 2;
    let _ = write!(
        o,
        r##"<g class="legend"><rect x="{x}" y="0" width="{w}" height="{y}" rx="{}" fill="#ffffff" stroke="#bbbbaa" stroke-width="{}"/>"##,
        f.px(4),
        f.px(1)
    );
    o.push_str(&body);
    o.push_str("</g>");
    y
}

fn whereabouts_text(w: Whereabouts) -> &'static str {
    match w {
        Whereabouts::Unplaced => "not yet placed",
        Whereabouts::Table => "on the table",
        Whereabouts::RoutTable => "on the Rout Table",
        Whereabouts::Destroyed => "destroyed",
        Whereabouts::Captured => "captured",
        Whereabouts::SkirmishLine => "in the skirmish line",
        Whereabouts::Joined => "joined a grand battery",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::engine::new_game;
    use crate::huzzah::render::testing::{check_xml, firefight, ix};
    use crate::huzzah::render::{render_svg, RenderOptions};

    /// The shape of a symbol: each element's name, fill and stroke (and text), in
    /// order, without its coordinates.
    fn signature(markup: &str) -> Vec<String> {
        let attr = |t: &str, a: &str| {
            t.find(&format!(" {a}=\"")).map_or(String::new(), |i| {
                let v = &t[i + a.len() + 3..];
                v[..v.find('"').unwrap()].to_string()
            })
        };
        markup
            .split('<')
            .skip(1)
            .filter(|t| !t.starts_with('/') && !t.starts_with("g "))
            .map(|t| {
                let name: String = t.chars().take_while(|c| c.is_alphanumeric()).collect();
                let text = t.split_once('>').map_or("", |x| x.1);
                format!("{name} {} {} {text}", attr(t, "fill"), attr(t, "stroke"))
            })
            .collect()
    }

    /// The markup of the first group opened by `open`.
    fn group<'a>(svg: &'a str, open: &str) -> &'a str {
        let at = svg.find(open).unwrap_or_else(|| panic!("no {open}"));
        &svg[at..at + svg[at..].find("</g>").unwrap()]
    }

    /// Issue 34: the key drew one black dot for both a reserve artillery base and odd
    /// hits. Each key's symbol differs from the others and is the one the map draws.
    #[test]
    fn issue_34_huzzah_key_symbols_are_distinct_and_match_the_map() {
        let (sc, mut s) = firefight();
        s.unit_mut(ix(&sc, "fr-3")).hits = 2;
        s.unit_mut(ix(&sc, "br-3")).hits = 5;
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        let keys = [
            "reserve-artillery",
            "divisional-artillery",
            "odd-hits",
            "odd-hits-past-3",
        ];
        let sig: Vec<Vec<String>> = keys
            .iter()
            .map(|k| signature(group(&svg, &format!(r#"<g class="key" data-key="{k}">"#))))
            .collect();
        for i in 0..keys.len() {
            for j in i + 1..keys.len() {
                assert_ne!(sig[i], sig[j], "{} and {}", keys[i], keys[j]);
            }
        }
        // The map's symbols: the guns (the firefight's foot battery is reserve
        // artillery, its divisional artillery base), two hits' pips, five hits' number.
        let map = &svg[..svg.find(r#"<g class="legend""#).unwrap()];
        assert_eq!(
            signature(group(map, r#"<g class="gun" data-kind="foot_artillery">"#)),
            sig[0]
        );
        assert_eq!(
            signature(group(
                map,
                r#"<g class="gun" data-kind="divisional_artillery">"#
            )),
            sig[1]
        );
        assert_eq!(
            signature(group(map, r#"<g class="hits" data-hits="2">"#)),
            sig[2]
        );
        assert_eq!(
            signature(group(map, r#"<g class="hits" data-hits="5">"#)),
            sig[3]
        );
    }

    #[test]
    fn units_off_the_table_are_listed_not_drawn() {
        let (sc, mut s) = firefight();
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        assert!(!svg.contains(r#"class="offtable""#));
        let (rt, gone, took) = (ix(&sc, "fr-3"), ix(&sc, "br-1"), ix(&sc, "fr-guns"));
        s.unit_mut(rt).at = Whereabouts::RoutTable;
        s.unit_mut(gone).at = Whereabouts::Destroyed;
        s.unit_mut(took).at = Whereabouts::Captured;
        s.officers[1].lost = true;
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(svg.matches(r#"class="unit""#).count(), 4);
        assert_eq!(svg.matches(r#"class="base""#).count(), 25 - 9);
        assert!(!svg.contains(r#"class="unit" data-unit="fr-3""#));
        assert!(svg.contains(r#"class="offtable" data-unit="fr-3" data-at="on the Rout Table""#));
        assert!(svg.contains(r#"class="offtable" data-unit="br-1" data-at="destroyed""#));
        assert!(svg.contains(r#"class="offtable" data-unit="fr-guns" data-at="captured""#));
        assert!(svg.contains("fr-3: on the Rout Table"));
        let lost = &sc.officers()[1].id;
        assert!(svg.contains(&format!(r#"class="offtable" data-officer="{lost}""#)));
        assert!(!svg.contains(&format!(r#"class="officer" data-officer="{lost}""#)));
        // During the set-up: officers not yet placed.
        let (s1, _) = new_game(&sc, &mut crate::rng::rng_from_seed(1));
        let svg = render_svg(&sc, &s1, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(svg.matches(r#"class="officer""#).count(), 0);
        assert_eq!(svg.matches("not yet placed</text>").count(), 4);
        // Unplaced units (the alternate set-up) too.
        let mut s0 = State::initial(&sc);
        for u in &mut s0.units {
            u.at = Whereabouts::Unplaced;
        }
        let svg = render_svg(&sc, &s0, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(svg.matches(r#"class="base""#).count(), 0);
        assert_eq!(svg.matches(r#"data-at="not yet placed""#).count(), 7);
        assert!(svg.contains("set-up"));
    }
}
