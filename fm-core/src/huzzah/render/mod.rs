//! The table as a picture: an SVG of a Huzzah! state with every base at true scale and
//! orientation, unit labels, disorder and rout badges, odd hits, officers and their
//! command radius, terrain by kind, a legend of the units off the table, and
//! optionally one unit's arc of fire and ranges.
//!
//! Plain text, no dependencies, no floating point: every coordinate is an integer in
//! tenths of a millimetre (the engine's [`Len`]), and the `viewBox` is in the same
//! units, so a base corner at table point (x, y) is written `x,depth−y` (y grows away
//! from side A's edge on the table, downwards in SVG: side A's edge is at the bottom of
//! the picture). The margin, title and legend lie outside the table, at negative
//! coordinates or beyond its width. The same state and options give byte-identical
//! output.
//!
//! [`Len`]: crate::huzzah::geometry::Len
//!
//! ```
//! use fm_core::huzzah::{engine, render, scenario::Scenario};
//! let sc = Scenario::builtin("huzzah-firefight").unwrap();
//! let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
//! let svg = render::render_svg(&sc, &s, &render::RenderOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"unit\"").count(), 7); // 7 units on the table
//! ```
//!
//! Elements carry classes and data attributes for tools, tests and clients mapping a
//! click (docs/protocol.md, "Hit-testing the pictures"): `g.unit[data-unit]` (with
//! `data-side`, `data-status`, `data-hits`), `polygon.base[data-kind]`, `line.front`,
//! `g.badge[data-badge]`, `g.hits`, `g.officer[data-officer]`, `circle.radius`,
//! `g.terrain[data-terrain][data-kind]`, `g.objective[data-objective]`,
//! `g.arc[data-unit]` (taking no clicks), `g.legend`, `g.key[data-key]`,
//! `g.offtable[data-unit]`; the root `<svg>` carries the mapping from the picture to
//! table centimetres (`data-table-transform`, `data-region`, `data-table`,
//! `data-units-per-cm`, `data-px-per-cm`).
//!
//! One file a concern:
//!
//! - `mod.rs`: [`render_svg`]: the page, its title (page 7), the layers in order.
//! - `options.rs`: what to draw: [`RenderOptions`], [`TableRegion`]; read and checked.
//! - `layout.rs`: table to picture coordinates, pixel sizes, boxes on the page.
//! - `terrain.rs`: terrain pieces by kind, sectors (page 19), ids; objectives (page 7).
//! - `units.rs`: bases, guns, front edges, squares (page 22), badges, hits, labels.
//! - `officers.rs`: officers' markers, attached ones at their unit's rear; radii (page 19).
//! - `arc.rs`: one unit's arc of fire, weapon range and short range (page 11).
//! - `legend.rs`: the key; the units and officers off the table (Rout Table, page 15).
//! - `text.rs`: text with or without a halo, attributes, clipping.
//! - `testing.rs` (tests only): the fixtures the files' tests share.

mod arc;
mod layout;
mod legend;
mod officers;
mod options;
mod terrain;
#[cfg(test)]
mod testing;
mod text;
mod units;

pub use officers::OFFICER_RADIUS;
pub use options::{RenderOptions, TableRegion};
pub use units::{SIDE_DARK, SIDE_FILL, SIDE_ROUTING};

use crate::huzzah::scenario::Scenario;
use crate::huzzah::state::{Phase, State, Whereabouts};
use crate::ids::Side;
use crate::svg::xml_escape;
use arc::draw_arc;
use layout::Frame;
use legend::draw_legend;
use officers::{draw_officers, draw_radii};
use std::fmt::Write;
use terrain::{draw_objectives, draw_terrain};
use text::text;
use units::draw_units;

const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// The phase in words, with its page 7 number.
fn phase_text(sc: &Scenario, s: &State) -> String {
    let n = s.phase.number(s.player1.unwrap_or(Side::A));
    let name = |side: Side| sc.side(side).name.clone();
    let what = match s.phase {
        Phase::Setup => return "set-up".to_string(),
        Phase::SkirmisherSuperiority => "skirmisher superiority".to_string(),
        Phase::ArtilleryEffectiveness => "artillery effectiveness".to_string(),
        Phase::Firing { side } => format!("{} firing", name(side)),
        Phase::Orders { side } => format!("{} orders and movement", name(side)),
        Phase::FireAtChargers { side } => format!("{} fire at chargers", name(side)),
        Phase::Combat { side } => format!("{} combat", name(side)),
        Phase::MoveOfficers { side } => format!("{} move officers", name(side)),
        Phase::Rally { side } => format!("{} rally", name(side)),
        Phase::TurnEnds => "turn ends".to_string(),
    };
    format!("phase {n}, {what}")
}

/// The title line: scenario name, turn, phase (and the result once over).
fn title_text(sc: &Scenario, s: &State) -> String {
    let mut t = format!(
        "{} — turn {} of {}, {}",
        sc.data().name,
        s.turn,
        sc.turns(),
        phase_text(sc, s)
    );
    if let Some(out) = &s.outcome {
        match out.winner {
            Some(w) => {
                let _ = write!(t, " — {} win", sc.side(w).name);
            }
            None => t.push_str(" — a draw"),
        }
    }
    t
}

/// Renders a state as an SVG document (see the module documentation).
pub fn render_svg(sc: &Scenario, s: &State, opts: &RenderOptions) -> String {
    let scale = match opts.scale_px_per_cm {
        0 => 5,
        n => i64::from(n.min(100)),
    };
    let table = sc.table();
    let (width, depth) = (table.width.0, table.depth.0);
    let f = Frame {
        depth,
        width,
        scale,
    };

    let margin = f.px(12);
    let title_fs = f.px(15);
    let top = f.px(34);
    let fs = f.px(10);
    let label_fs = f.px(9);
    let halo = f.px(3);
    let legend_w = f.px(240);
    // The part drawn, in picture coordinates (y down from the far edge): the region,
    // or the whole table.
    let view = match opts.region.and_then(|r| r.bounds(width, depth)) {
        Some((x0, y0, x1, y1)) => (x0, depth - y1, x1, depth - y0),
        None => (0, 0, width, depth),
    };
    let legend_x = view.2 + f.px(14);

    let mut body = String::with_capacity(32 * 1024);
    let o = &mut body;

    // ---- the table
    let _ = write!(
        o,
        r##"<rect class="table" x="0" y="0" width="{width}" height="{depth}" fill="#dcebc4" stroke="#5d6b4a" stroke-width="{}"/>"##,
        f.px(2)
    );

    // ---- terrain, then the objectives
    draw_terrain(o, sc, opts, &f, halo);
    draw_objectives(o, sc, &f);

    // ---- the arc of fire (under the units), its rays and ranges, and the command
    // radii, clipped to the table
    let _ = write!(o, r#"<g clip-path="url(#hz-table{ID})">"#);
    let mut arc_over = String::new();
    if let Some(u) = opts.arc_of.as_deref().and_then(|id| sc.unit_index(id)) {
        if let Some(st) = s.units.get(u.index()) {
            if st.at == Whereabouts::Table && u.index() < sc.units().len() {
                draw_arc(o, &mut arc_over, sc, s, u, &f, fs, halo);
            }
        }
    }

    // ---- command radii (under the units)
    if opts.radii {
        draw_radii(o, sc, s, &f);
    }
    o.push_str("</g>");

    // ---- units on the table
    draw_units(o, sc, s, opts, &f, label_fs, halo);

    // ---- officers
    draw_officers(o, sc, s, &f);
    if !arc_over.is_empty() {
        let _ = write!(o, r#"<g clip-path="url(#hz-table{ID})">{arc_over}</g>"#);
    }

    // ---- the legend: key and units off the table
    let mut legend = String::new();
    let lh = f.px(15);
    let legend_h = draw_legend(&mut legend, sc, s, &f, legend_x, legend_w, lh, fs);

    // ---- the document
    let (px0, py0, px1, py1) = view;
    let total_w = margin + (px1 - px0) + f.px(14) + legend_w + margin;
    let total_h = top + (py1 - py0).max(legend_h) + margin;
    let (vx, vy) = (px0 - margin, py0 - top);
    let px_w = (total_w * scale + 99) / 100;
    let px_h = (total_h * scale + 99) / 100;
    let title = title_text(sc, s);
    let mut defs = String::new();
    let hatch = f.px(6);
    let _ = write!(
        defs,
        r##"<defs><pattern id="hz-hatch{ID}" patternUnits="userSpaceOnUse" width="{hatch}" height="{hatch}" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="{hatch}" stroke="#3b2410" stroke-width="{}"/></pattern></defs>"##,
        f.px(2)
    );
    let _ = write!(
        defs,
        r##"<defs><clipPath id="hz-table{ID}"><rect x="0" y="0" width="{width}" height="{depth}"/></clipPath>"##
    );
    if opts.region.is_some() {
        let _ = write!(
            defs,
            r##"<clipPath id="hz-region{ID}"><rect x="{px0}" y="{py0}" width="{}" height="{}"/></clipPath>"##,
            px1 - px0,
            py1 - py0
        );
    }
    defs.push_str("</defs>");
    let mut out = String::with_capacity(body.len() + legend.len() + 2048);
    // What a client needs to turn a point of the picture into table centimetres (see
    // `table_mapping`).
    let mapping = table_mapping(&f, view, scale);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{px_w}" height="{px_h}" viewBox="{vx} {vy} {total_w} {total_h}"{mapping} font-family="{FONT}"><title>{}</title>{defs}<rect x="{vx}" y="{vy}" width="{total_w}" height="{total_h}" fill="#fbfaf5"/>"##,
        xml_escape(&title)
    );
    text(
        &mut out,
        px0,
        py0 - top + title_fs * 3 / 2,
        title_fs,
        "start",
        r##" class="title" font-weight="bold" fill="#222222""##,
        0,
        &title,
    );
    if opts.region.is_some() {
        let _ = write!(out, r#"<g clip-path="url(#hz-region{ID})">{body}</g>"#);
        let _ = write!(out, r#"<g transform="translate(0,{py0})">{legend}</g>"#);
    } else {
        out.push_str(&body);
        out.push_str(&legend);
    }
    out.push_str("</svg>\n");
    // The ids' suffix: a hash of the definitions (the only thing the ids name), so
    // that two pictures in one HTML page (a notebook) never take each other's.
    let mut h: u32 = 2166136261;
    for b in defs.bytes() {
        h = (h ^ b as u32).wrapping_mul(16777619);
    }
    out.replace(ID, &format!("-{h:08x}"))
}

/// The root's attributes that map the picture to the table: `data-system="huzzah"`,
/// `data-px-per-cm` (the scale of `width` and `height`), `data-units-per-cm` (100:
/// picture units are tenths of a millimetre), `data-table` (the table's width and
/// depth in cm), `data-region` (the part drawn, `x0 y0 x1 y1` in table cm) and
/// `data-table-transform`, the matrix `a b c d e f` taking a point (u, v) of the
/// picture's user space to table cm: x = a u + c v + e, y = b u + d v + f (y grows
/// away from side A's edge, up the picture: d is negative).
fn table_mapping(f: &Frame, view: (i64, i64, i64, i64), scale: i64) -> String {
    let cm = |v: i64| {
        crate::huzzah::geometry::Len(v)
            .to_string()
            .trim_end_matches(" cm")
            .to_string()
    };
    let (px0, py0, px1, py1) = view;
    format!(
        r#" data-system="huzzah" data-px-per-cm="{scale}" data-units-per-cm="100" data-table="{} {}" data-region="{} {} {} {}" data-table-transform="0.01 0 0 -0.01 0 {}""#,
        cm(f.width),
        cm(f.depth),
        cm(px0),
        cm(f.depth - py1),
        cm(px1),
        cm(f.depth - py0),
        cm(f.depth)
    )
}

/// The placeholder of the ids' suffix in `id` and `url(#…)` values: a control
/// character, which `xml_escape` never lets through from text.
const ID: char = '\u{1}';

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::engine::new_game;
    use crate::huzzah::render::testing::{check_xml, firefight, hostile, ix, load};

    #[test]
    fn the_firefight_start_is_well_formed_and_complete() {
        let (sc, s) = firefight();
        let opts = RenderOptions {
            radii: true,
            arc_of: Some("fr-1".into()),
            ..RenderOptions::default()
        };
        let svg = render_svg(&sc, &s, &opts);
        check_xml(&svg).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        let on_table: usize = s
            .units
            .iter()
            .filter(|u| u.at == Whereabouts::Table)
            .map(|u| u.shape.base_count())
            .sum();
        assert_eq!(on_table, 25);
        assert_eq!(svg.matches(r#"class="base""#).count(), on_table);
        assert_eq!(svg.matches(r#"class="unit""#).count(), 7);
        assert_eq!(svg.matches(r#"class="front""#).count(), 7);
        // The French divisional artillery base, the foot battery.
        assert_eq!(
            svg.matches(r#"class="gun" data-kind="divisional_artillery""#)
                .count(),
            1
        );
        assert_eq!(
            svg.matches(r#"class="gun" data-kind="foot_artillery""#)
                .count(),
            1
        );
        let placed = s.officers.iter().filter(|o| o.at.is_some()).count();
        assert_eq!(svg.matches(r#"class="officer""#).count(), placed);
        assert_eq!(svg.matches(r#"class="radius""#).count(), placed);
        // Table 180 x 120 cm, at 5 px a cm plus margins, title and legend.
        assert!(svg.contains(r#"<rect class="table" x="0" y="0" width="18000" height="12000""#));
        assert_eq!(placed, 4);
        assert!(svg.contains("A firefight — turn 1 of 6, phase "), "{svg}");
        assert!(svg.contains(r#"class="legend""#));
        // Side colours differ.
        assert!(svg.contains(&format!(r#"fill="{}""#, SIDE_FILL.a)));
        assert!(svg.contains(&format!(r#"fill="{}""#, SIDE_FILL.b)));
    }

    #[test]
    fn the_scale_sets_the_pixel_size_only() {
        let (sc, s) = firefight();
        let at = |scale| {
            render_svg(
                &sc,
                &s,
                &RenderOptions {
                    scale_px_per_cm: scale,
                    ..RenderOptions::default()
                },
            )
        };
        let (five, ten) = (at(5), at(10));
        assert_eq!(at(0), five);
        let size = |svg: &str| {
            let w: i64 = svg
                .split("width=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let vb = svg
                .split("viewBox=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_string();
            (w, vb)
        };
        let (w5, vb5) = size(&five);
        let (w10, vb10) = size(&ten);
        let vw5: i64 = vb5.split(' ').nth(2).unwrap().parse().unwrap();
        let vw10: i64 = vb10.split(' ').nth(2).unwrap().parse().unwrap();
        assert_eq!(w5, (vw5 * 5 + 99) / 100);
        assert_eq!(w10, (vw10 * 10 + 99) / 100);
        // The table is 900 px wide at 5 px a cm, and its bases keep their coordinates.
        assert!(w5 > 900 && w10 > 1800);
        let bases = |svg: &str| {
            svg.split(r#"class="base""#)
                .skip(1)
                .map(|p| p.split("/>").next().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            bases(&five)
                .iter()
                .map(|b| b.split("stroke-width").next().unwrap().to_string())
                .collect::<Vec<_>>(),
            bases(&ten)
                .iter()
                .map(|b| b.split("stroke-width").next().unwrap().to_string())
                .collect::<Vec<_>>()
        );
        check_xml(&at(1)).unwrap();
        check_xml(&at(u32::MAX)).unwrap();
    }

    #[test]
    fn every_text_is_escaped() {
        let sc = load(hostile());
        let (s, _) = new_game(&sc, &mut crate::rng::rng_from_seed(1));
        let u = ix(&sc, "<script>&");
        let opts = RenderOptions {
            radii: true,
            arc_of: Some("<script>&".into()),
            ..RenderOptions::default()
        };
        let mut s2 = s.clone();
        s2.unit_mut(u).at = Whereabouts::RoutTable;
        for s in [&s, &s2] {
            let svg = render_svg(&sc, s, &opts);
            check_xml(&svg).unwrap();
            assert!(!svg.contains("<script"), "{svg}");
            assert!(!svg.contains("<b>"));
            assert!(!svg.contains("<Les"));
            assert!(!svg.contains("w<1>"));
            assert!(svg.contains("&lt;script&gt;&amp;"));
            assert!(svg.contains("O&apos;Brien&apos;s &lt;French&gt;"));
            assert!(svg.contains("fr&quot;cinc&apos;"));
            assert!(svg.contains("&lt;Les &quot;Quatre&quot; Bras&gt; &amp; &apos;Co&apos;"));
            assert!(svg.contains("hedge&amp;"));
        }
        let svg = render_svg(&sc, &s2, &opts);
        assert!(svg.contains(r#"class="offtable" data-unit="&lt;script&gt;&amp;""#));
    }

    #[test]
    fn the_same_state_gives_the_same_bytes() {
        let sc = load(hostile());
        let (s, _) = new_game(&sc, &mut crate::rng::rng_from_seed(3));
        let opts = RenderOptions {
            radii: true,
            arc_of: Some(sc.units()[3].id.to_string()),
            scale_px_per_cm: 7,
            labels: true,
            region: None,
        };
        let a = render_svg(&sc, &s, &opts);
        let b = render_svg(&sc, &s.clone(), &opts);
        assert_eq!(a, b);
        let (s2, _) = new_game(&sc, &mut crate::rng::rng_from_seed(3));
        assert_eq!(a, render_svg(&sc, &s2, &opts));
    }

    /// The picture in docs/ (shown by docs/huzzah.md) is the firefight's start with the
    /// radii and fr-1's arc. `FM_WRITE_DOCS=1 cargo test -p fm-core --lib
    /// huzzah::render` rewrites it.
    #[test]
    fn the_docs_picture_is_current() {
        let (sc, s) = firefight();
        let opts = RenderOptions {
            radii: true,
            arc_of: Some("fr-1".into()),
            ..RenderOptions::default()
        };
        let svg = render_svg(&sc, &s, &opts);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("docs")
            .join("huzzah-firefight.svg");
        if std::env::var_os("FM_WRITE_DOCS").is_some() {
            std::fs::write(&path, &svg).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == svg,
            "docs/huzzah-firefight.svg is out of date: FM_WRITE_DOCS=1 cargo test -p fm-core --lib huzzah::render"
        );
    }
}
