//! The table's features: each terrain piece by its kind (woods and buildings dense,
//! held in sectors, page 19; hedges, orchards with their trees, walls, hatched
//! strongpoints), its sectors dashed and its id; the objectives with their radius and
//! points (page 7).

use super::layout::Frame;
use super::options::RenderOptions;
use super::text::text;
use super::ID;
use crate::huzzah::geometry::{self, Len, Point};
use crate::huzzah::scenario::{Scenario, TerrainKind};
use crate::svg::xml_escape;
use std::fmt::Write;

/// Draws each terrain piece into `o`, with its id when `opts.labels`.
pub(super) fn draw_terrain(
    o: &mut String,
    sc: &Scenario,
    opts: &RenderOptions,
    f: &Frame,
    halo: i64,
) {
    for t in sc.terrain() {
        let (fill, stroke, w, extra) = terrain_style(t.kind, f);
        let kind = kind_name(t.kind);
        let _ = write!(
            o,
            r#"<g class="terrain" data-terrain="{}" data-kind="{kind}"><title>{} ({kind})</title>"#,
            xml_escape(&t.id),
            xml_escape(&t.id)
        );
        let pts = f.points(&t.polygon);
        let _ = write!(
            o,
            r#"<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{}"{extra}/>"#,
            f.px(w)
        );
        if t.kind == TerrainKind::Strongpoint {
            let _ = write!(
                o,
                r##"<polygon points="{pts}" fill="url(#hz-hatch{ID})" stroke="none"/>"##
            );
        }
        if t.kind == TerrainKind::Orchard {
            // Trees: dots on a grid inside the outline.
            let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
            for p in &t.polygon {
                x0 = x0.min(p.x.0);
                x1 = x1.max(p.x.0);
                y0 = y0.min(p.y.0);
                y1 = y1.max(p.y.0);
            }
            // Every 2 cm; at most 40 by 40 dots however large the piece.
            let step = 200i64.max((x1 - x0) / 40).max((y1 - y0) / 40).max(1);
            let poly = geometry::Polygon(t.polygon.clone());
            let mut y = y0 + step / 2;
            while y < y1 && y0 < y1 {
                let mut x = x0 + step / 2;
                while x < x1 {
                    let p = Point::new(Len(x), Len(y));
                    if poly.contains_interior(p) {
                        let (cx, cy) = f.xy(p);
                        let _ = write!(
                            o,
                            r##"<circle cx="{cx}" cy="{cy}" r="40" fill="#4f8a3a"/>"##
                        );
                    }
                    x += step;
                }
                y += step;
            }
        }
        let split = t.sectors.len() > 1 || t.sectors.first().is_some_and(|s| *s != t.polygon);
        if split {
            for sector in &t.sectors {
                let _ = write!(
                    o,
                    r##"<polygon class="sector" points="{}" fill="none" stroke="#e8f2dc" stroke-width="{}" stroke-dasharray="{} {}"/>"##,
                    f.points(sector),
                    f.px(1),
                    f.px(4),
                    f.px(3)
                );
            }
        }
        if opts.labels && !t.polygon.is_empty() {
            let n = t.polygon.len() as i64;
            let cx = t.polygon.iter().map(|p| p.x.0).sum::<i64>() / n;
            let cy = t.polygon.iter().map(|p| p.y.0).sum::<i64>() / n;
            let (x, y) = f.xy(Point::new(Len(cx), Len(cy)));
            let lfs = f.px(8);
            text(
                o,
                x,
                y + lfs * 35 / 100,
                lfs,
                "middle",
                r##" fill="#1d2a14" font-style="italic""##,
                halo,
                &t.id,
            );
        }
        o.push_str("</g>");
    }
}

/// Draws the objectives into `o`: a dashed circle of their radius, a star at their
/// centre.
pub(super) fn draw_objectives(o: &mut String, sc: &Scenario, f: &Frame) {
    for ob in sc.objectives() {
        let (cx, cy) = f.xy(ob.at);
        let label = ob.name.as_deref().unwrap_or(&ob.id);
        let _ = write!(
            o,
            r##"<g class="objective" data-objective="{}"><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#b8860b" stroke-width="{}" stroke-dasharray="{} {}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="#b8860b"/><text x="{cx}" y="{}" font-size="{}" text-anchor="middle" fill="#7a5a00">{} ({} pts)</text></g>"##,
            xml_escape(&ob.id),
            ob.radius.0,
            f.px(2),
            f.px(6),
            f.px(4),
            f.px(4),
            cy + ob.radius.0 + f.px(12),
            f.px(11),
            xml_escape(label),
            ob.points
        );
    }
}

fn kind_name(k: TerrainKind) -> &'static str {
    match k {
        TerrainKind::Woods => "woods",
        TerrainKind::Buildings => "buildings",
        TerrainKind::Hedge => "hedge",
        TerrainKind::Orchard => "orchard",
        TerrainKind::Wall => "wall",
        TerrainKind::Strongpoint => "strongpoint",
    }
}

/// Fill, outline, outline width (pixels) and extra attributes of a terrain kind.
fn terrain_style(k: TerrainKind, f: &Frame) -> (&'static str, &'static str, i64, String) {
    match k {
        TerrainKind::Woods => ("#2f6b2c", "#173d15", 1, r#" fill-opacity="0.85""#.into()),
        TerrainKind::Buildings => ("#8f7b66", "#4d3f31", 1, String::new()),
        TerrainKind::Hedge => ("#3f8f2f", "#22581a", 1, String::new()),
        TerrainKind::Orchard => (
            "#b7dc97",
            "#4f8a3a",
            1,
            format!(r#" stroke-dasharray="{} {}""#, f.px(1), f.px(3)),
        ),
        TerrainKind::Wall => ("#4a4a4a", "#222222", 1, String::new()),
        TerrainKind::Strongpoint => ("#9a6a3a", "#4a2c12", 2, String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::engine::new_game;
    use crate::huzzah::render::render_svg;
    use crate::huzzah::render::testing::{check_xml, hostile, load};

    #[test]
    fn terrain_by_kind_with_sectors_and_labels() {
        let sc = load(hostile());
        let (s, _) = new_game(&sc, &mut crate::rng::rng_from_seed(1));
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(svg.matches(r#"class="terrain" data-terrain="#).count(), 6);
        for kind in [
            "woods",
            "buildings",
            "hedge",
            "orchard",
            "wall",
            "strongpoint",
        ] {
            assert!(svg.contains(&format!(r#"data-kind="{kind}""#)), "{kind}");
        }
        // The woods' two sectors, dashed; the buildings have one sector, not redrawn.
        assert_eq!(svg.matches(r#"class="sector""#).count(), 2);
        assert!(svg.contains(
            r#"<polygon class="sector" points="1000,11000 3000,11000 3000,9000 1000,9000""#
        ));
        assert!(svg.contains("url(#hz-hatch-"));
        assert!(svg.contains(r#"<pattern id="hz-hatch-"#));
        // The woods' label at the average of its corners, (300, 200) mm.
        assert!(svg.contains(r#"<text x="3000" y=""#));
        assert!(svg.contains(">w&lt;1&gt;</text>"));
        // Without labels: no ids printed.
        let bare = render_svg(
            &sc,
            &s,
            &RenderOptions {
                labels: false,
                ..RenderOptions::default()
            },
        );
        assert!(!bare.contains(">w&lt;1&gt;</text>"));
        assert!(!bare.contains(r#"class="label""#));
        check_xml(&bare).unwrap();
    }
}
