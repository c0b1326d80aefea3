//! The officers: each placed officer's marker with his rank's letter, an attached one
//! touching his unit's rear face, several side by side; and, when asked, each one's
//! command radius (page 19) from his quality.

use super::layout::Frame;
use super::text::text;
use super::units::{SIDE_DARK, SIDE_FILL};
use crate::huzzah::geometry::{self, Face, Len};
use crate::huzzah::scenario::{OfficerRank, Scenario};
use crate::huzzah::state::{State, Whereabouts};
use crate::svg::xml_escape;
use std::fmt::Write;

/// The radius of an officer's marker, in tenths of a millimetre (12 mm).
pub const OFFICER_RADIUS: Len = Len(120);

/// Draws each placed officer's command radius into `o`, faint and dashed.
pub(super) fn draw_radii(o: &mut String, sc: &Scenario, s: &State, f: &Frame) {
    for (i, os) in s.officers.iter().enumerate() {
        let (Some(at), false, Some(def)) = (os.at, os.lost, sc.officers().get(i)) else {
            continue;
        };
        let (cx, cy) = f.xy(at);
        let _ = write!(
            o,
            r#"<circle class="radius" data-officer="{}" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{}" stroke-opacity="0.6" stroke-width="{}" stroke-dasharray="{} {}"/>"#,
            xml_escape(&def.id),
            s.officer_quality(sc, i).radius().0,
            SIDE_DARK.get(def.side),
            f.px(1),
            f.px(6),
            f.px(4)
        );
    }
}

/// Draws each placed officer's marker into `o`.
pub(super) fn draw_officers(o: &mut String, sc: &Scenario, s: &State, f: &Frame) {
    // Attached officers touch their unit's rear face, side by side when several.
    let mut attached_n = vec![0i64; s.units.len()];
    for os in &s.officers {
        if let (false, Some(u)) = (os.lost, os.attached) {
            if let Some(n) = attached_n.get_mut(u.index()) {
                *n += 1;
            }
        }
    }
    let mut attached_k = vec![0i64; s.units.len()];
    for (i, os) in s.officers.iter().enumerate() {
        let (Some(at), false, Some(def)) = (os.at, os.lost, sc.officers().get(i)) else {
            continue;
        };
        let mut pos = at;
        if let Some(u) = os.attached {
            if let Some(us) = s
                .units
                .get(u.index())
                .filter(|us| us.at == Whereabouts::Table)
            {
                let n = attached_n[u.index()];
                let k = attached_k[u.index()];
                attached_k[u.index()] += 1;
                let r = OFFICER_RADIUS.0;
                let rear = us.shape.face(Face::Rear).mid();
                pos = geometry::rotate(rear, us.shape.facing, Len((2 * k - (n - 1)) * r), Len(-r));
            }
        }
        let (cx, cy) = f.xy(pos);
        let side = def.side;
        let rank = match def.rank {
            OfficerRank::Cinc => "cinc",
            OfficerRank::Corps => "corps",
            OfficerRank::Division => "division",
        };
        let _ = write!(
            o,
            r#"<g class="officer" data-officer="{}" data-rank="{rank}"{}><title>{}{}: {rank}, command radius {}{}</title><circle cx="{cx}" cy="{cy}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>"#,
            xml_escape(&def.id),
            match os.attached.and_then(|u| sc.units().get(u.index())) {
                Some(u) => format!(r#" data-attached="{}""#, xml_escape(&u.id.to_string())),
                None => String::new(),
            },
            xml_escape(&def.id),
            def.name
                .as_deref()
                .map(|n| format!(" ({})", xml_escape(n)))
                .unwrap_or_default(),
            s.officer_quality(sc, i).radius(),
            match os.attached.and_then(|u| sc.units().get(u.index())) {
                Some(u) => format!(", attached to {}", xml_escape(&u.id.to_string())),
                None => String::new(),
            },
            OFFICER_RADIUS.0,
            SIDE_FILL.get(side),
            SIDE_DARK.get(side),
            f.px(1) * 3 / 2
        );
        let lfs = OFFICER_RADIUS.0 * 3 / 2;
        text(
            o,
            cx,
            cy + lfs * 36 / 100,
            lfs,
            "middle",
            r##" font-weight="bold" fill="#ffffff""##,
            0,
            rank_letter(def.rank),
        );
        o.push_str("</g>");
    }
}

fn rank_letter(r: OfficerRank) -> &'static str {
    match r {
        OfficerRank::Cinc => "C",
        OfficerRank::Corps => "K",
        OfficerRank::Division => "D",
    }
}

#[cfg(test)]
mod tests {
    use crate::huzzah::geometry::Point;
    use crate::huzzah::render::testing::{check_xml, firefight, ix};
    use crate::huzzah::render::{render_svg, RenderOptions};

    #[test]
    fn officers_their_letters_radii_and_attachment() {
        let (sc, mut s) = firefight();
        for o in &mut s.officers {
            o.at = o.at.or(Some(Point::mm(900, 100)));
        }
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        assert!(!svg.contains(r#"class="radius""#));
        assert_eq!(svg.matches(r#"class="officer""#).count(), 4);
        assert!(svg.contains(r#"data-officer="fr-cinc" data-rank="cinc""#));
        assert!(svg.contains(r#"data-officer="br-div-gen" data-rank="division""#));
        assert!(svg.contains(">C</text>") && svg.contains(">D</text>"));
        let radii = render_svg(
            &sc,
            &s,
            &RenderOptions {
                radii: true,
                ..RenderOptions::default()
            },
        );
        // Skilful 50 cm, average 40, excellent 60, skilful 50.
        for (id, r) in [
            ("fr-cinc", 5000),
            ("fr-div-gen", 4000),
            ("br-cinc", 6000),
            ("br-div-gen", 5000),
        ] {
            let at = s.officers[sc.officer_index(id).unwrap().index()]
                .at
                .unwrap();
            assert!(
                radii.contains(&format!(
                    r#"class="radius" data-officer="{id}" cx="{}" cy="{}" r="{r}""#,
                    at.x.0,
                    12000 - at.y.0
                )),
                "{id}"
            );
        }
        // An attached officer touches his unit's rear face: fr-1 faces 0, its rear
        // edge at y = 525 - 40 = 485 mm, centre x 500 mm.
        let o = sc.officer_index("fr-div-gen").unwrap().index();
        s.officers[o].attached = Some(ix(&sc, "fr-1"));
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert!(svg.contains(&format!(
            r#"<circle cx="5000" cy="{}" r="120""#,
            12000 - (4850 - 120)
        )));
        assert!(
            svg.contains(r#"data-officer="fr-div-gen" data-rank="division" data-attached="fr-1""#)
        );
    }
}
