//! One unit's arc of fire (page 11: 45 degrees to either side of its front), its
//! weapon range and short range (page 11): the wedge under the units, the rays, the
//! range circles and their labels over them; a square's ranges all round.

use super::layout::Frame;
use super::text::text;
use crate::huzzah::firing::weapon_range;
use crate::huzzah::geometry::{self, Face, Facing, Len, Point, Shape, TRIG_ONE};
use crate::huzzah::scenario::{Scenario, UnitIx};
use crate::huzzah::state::State;
use crate::svg::xml_escape;
use std::fmt::Write;

/// The arc of fire of `u`: the translucent wedge within its weapon range into `o`
/// (under the units), the rays, range circles and their labels into `over`.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_arc(
    o: &mut String,
    over: &mut String,
    sc: &Scenario,
    s: &State,
    u: UnitIx,
    f: &Frame,
    fs: i64,
    halo: i64,
) {
    let shape: &Shape = &s.unit(u).shape;
    let range = weapon_range(sc, s, u);
    let id = xml_escape(&sc.unit(u).id.to_string());
    let centre = shape.centre();
    let (cx, cy) = f.xy(centre);
    let front = shape.face(Face::Front);
    let (left, right) = (shape.facing.turned(-45), shape.facing.turned(45));
    let colour = "#e0a100";
    let _ = write!(
        over,
        r#"<g class="arc" data-unit="{id}" data-range="{}" pointer-events="none">"#,
        range.map_or("none".to_string(), |r| r.0.to_string())
    );
    let ray_len = range.unwrap_or(Len::cm(20));
    if !shape.square {
        let (pl, pr) = match range {
            Some(r) => (
                ray_exit(front.a, left, centre, r),
                ray_exit(front.b, right, centre, r),
            ),
            None => (
                geometry::rotate(front.a, left, Len::ZERO, ray_len),
                geometry::rotate(front.b, right, Len::ZERO, ray_len),
            ),
        };
        let (ax, ay) = f.xy(front.a);
        let (bx, by) = f.xy(front.b);
        let (lx, ly) = f.xy(pl);
        let (rx, ry) = f.xy(pr);
        if let Some(r) = range {
            // The wedge: front face, left ray, the range arc, right ray.
            let _ = write!(
                o,
                r#"<path class="arc-area" data-unit="{id}" pointer-events="none" d="M{ax},{ay} L{lx},{ly} A{r},{r} 0 0,1 {rx},{ry} L{bx},{by} Z" fill="{colour}" fill-opacity="0.16" stroke="none"/>"#,
                r = r.0
            );
        }
        let _ = write!(
            over,
            r#"<line class="ray" x1="{ax}" y1="{ay}" x2="{lx}" y2="{ly}" stroke="{colour}" stroke-width="{w}"/><line class="ray" x1="{bx}" y1="{by}" x2="{rx}" y2="{ry}" stroke="{colour}" stroke-width="{w}"/>"#,
            w = f.px(2)
        );
    }
    if let Some(r) = range {
        for (class, rad, dash) in [("range", r.0, 6), ("short-range", r.0 / 2, 3)] {
            let _ = write!(
                over,
                r#"<circle class="{class}" cx="{cx}" cy="{cy}" r="{rad}" fill="none" stroke="{colour}" stroke-width="{}" stroke-dasharray="{} {}"/>"#,
                f.px(1) * 3 / 2,
                f.px(dash),
                f.px(dash)
            );
            // Labelled behind the unit, clear of the targets ahead.
            // (kept on the table, which clips the arc).
            let at = geometry::rotate(centre, shape.facing, Len::ZERO, Len(-rad));
            let (tx, ty) = f.xy(at);
            let tx = tx.clamp(f.px(40), (f.width - f.px(40)).max(f.px(40)));
            let ty = ty.clamp(fs, (f.depth - fs / 2).max(fs));
            let words = if class == "range" {
                format!("range {}", Len(rad))
            } else {
                format!("short {}", Len(rad))
            };
            text(
                over,
                tx,
                ty + fs * 35 / 100,
                fs * 9 / 10,
                "middle",
                r##" fill="#6b4d00""##,
                halo,
                &words,
            );
        }
    }
    over.push_str("</g>");
}

/// The point where the ray from `a` along facing `dir` leaves the circle of radius `r`
/// about `c` (`a` itself when `a` is outside it).
fn ray_exit(a: Point, dir: Facing, c: Point, r: Len) -> Point {
    let (s, co) = geometry::sin_cos(dir);
    let t1 = i128::from(TRIG_ONE);
    let p = (
        i128::from(a.x.0) - i128::from(c.x.0),
        i128::from(a.y.0) - i128::from(c.y.0),
    );
    // |p + t·u|² = r² with u = (s, co) / T: t·T = −p·(s, co) + √((p·(s, co))² − T²(|p|² − r²)).
    let pu = p.0 * i128::from(s) + p.1 * i128::from(co);
    let rr = i128::from(r.0);
    let disc = pu * pu - t1 * t1 * (p.0 * p.0 + p.1 * p.1 - rr * rr);
    if disc < 0 {
        return a;
    }
    let t = -pu + i128::from(geometry::isqrt(disc as u128));
    if t <= 0 {
        return a;
    }
    geometry::rotate(a, dir, Len::ZERO, Len(round_div(t, t1) as i64))
}

/// `n / d` rounded to nearest, ties away from zero (`d > 0`).
fn round_div(n: i128, d: i128) -> i128 {
    if n >= 0 {
        (n + d / 2) / d
    } else {
        -((-n + d / 2) / d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::Point;
    use crate::huzzah::render::testing::{check_xml, firefight, ix};
    use crate::huzzah::render::{render_svg, RenderOptions};
    use crate::huzzah::state::Whereabouts;

    #[test]
    fn the_arc_of_fire_and_ranges_when_asked() {
        let (sc, mut s) = firefight();
        let plain = render_svg(&sc, &s, &RenderOptions::default());
        assert!(!plain.contains(r#"class="arc""#));
        let u = ix(&sc, "fr-2");
        // A hand-built line of two bases facing 0 at (500, 300) mm: front face from
        // (460, 300) to (540, 300) mm, centre (500, 280) mm, infantry range 20 cm.
        s.unit_mut(u).shape = Shape::new(Point::mm(500, 300), Facing(0), vec![2], Len(400));
        let opts = RenderOptions {
            arc_of: Some("fr-2".into()),
            ..RenderOptions::default()
        };
        let svg = render_svg(&sc, &s, &opts);
        check_xml(&svg).unwrap();
        assert!(svg.contains(
            r#"<g class="arc" data-unit="fr-2" data-range="2000" pointer-events="none">"#
        ));
        assert!(svg.contains(r#"class="range" cx="5000" cy="9200" r="2000""#));
        assert!(svg.contains(r#"class="short-range" cx="5000" cy="9200" r="1000""#));
        assert_eq!(svg.matches(r#"class="ray""#).count(), 2);
        // The left ray from (4600, 3000) mm/10 at 315° leaves the 2000 circle about
        // (5000, 2800) where |(-400 - t/√2, 200 + t/√2)| = 2000: t = 1570.7.
        let t = -600.0 / 2f64.sqrt() + (180_000f64 - 200_000.0 + 4_000_000.0).sqrt();
        assert_eq!(t.round(), 1571.0);
        let want = Point::new(Len(3489), Len(4111));
        assert_eq!(
            geometry::rotate(
                Point::new(Len(4600), Len(3000)),
                Facing(315),
                Len(0),
                Len(1571)
            ),
            want
        );
        assert!(svg.contains(&format!(
            r#"<line class="ray" x1="4600" y1="9000" x2="{}" y2="{}""#,
            want.x.0,
            12000 - want.y.0
        )));
        // And the right ray, mirrored.
        assert!(svg.contains(&format!(
            r#"x1="5400" y1="9000" x2="{}" y2="{}""#,
            10000 - want.x.0,
            12000 - want.y.0
        )));
        assert!(svg.contains(&format!(
            "M4600,9000 L3489,{} A2000,2000 0 0,1 6511,{} L5400,9000 Z",
            12000 - 4111,
            12000 - 4111
        )));
        assert!(svg.contains(">range 20 cm</text>") && svg.contains(">short 10 cm</text>"));
        // Artillery: 60 cm.
        let svg = render_svg(
            &sc,
            &s,
            &RenderOptions {
                arc_of: Some("fr-guns".into()),
                ..RenderOptions::default()
            },
        );
        assert!(svg.contains(
            r#"<g class="arc" data-unit="fr-guns" data-range="6000" pointer-events="none">"#
        ));
        assert!(svg.contains(r#"r="3000""#));
        // A square fires all round: circles, no rays.
        s.unit_mut(u).shape.square = true;
        let svg = render_svg(&sc, &s, &opts);
        assert_eq!(svg.matches(r#"class="ray""#).count(), 0);
        assert!(svg.contains(r#"class="range""#));
        // And it is drawn dark all round (page 22: it faces every way).
        assert_eq!(svg.matches(r#"class="square-face""#).count(), 3);
        // A unit off the table, or not a unit: no arc.
        s.unit_mut(u).at = Whereabouts::RoutTable;
        assert!(!render_svg(&sc, &s, &opts).contains(r#"class="arc""#));
        let none = RenderOptions {
            arc_of: Some("nobody".into()),
            ..RenderOptions::default()
        };
        check_xml(&render_svg(&sc, &s, &none)).unwrap();
    }

    #[test]
    fn ray_exit_points() {
        let c = Point::new(Len(0), Len(0));
        // From the centre straight up: the radius.
        assert_eq!(
            ray_exit(c, Facing(0), c, Len(1000)),
            Point::new(Len(0), Len(1000))
        );
        // From outside: the start.
        let far = Point::new(Len(5000), Len(0));
        assert_eq!(ray_exit(far, Facing(90), c, Len(1000)), far);
    }
}
