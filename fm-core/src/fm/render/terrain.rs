//! Terrain drawing, by the terrain's id: each hex terrain's fill colour and its symbol
//! over the fill (woods, towns, hills, marsh, works, forts), and each hexside
//! feature's style (roads, rivers, bridges, trench lines, minefields, shores) with its
//! line on the map and its sample in the legend and the terrain effects chart.

use crate::fm::scenario::{HexsideTerrain, MoveCost};
use std::fmt::Write;

pub(super) fn terrain_colour(id: &str) -> String {
    let known = [
        ("clear", "#f2eed6"),
        ("open", "#f2eed6"),
        ("mixed", "#dfe6b4"),
        ("desert", "#eed9a3"),
        ("sand", "#eed9a3"),
        ("woods", "#96c47e"),
        ("forest", "#7fb56a"),
        ("rough", "#cdb48c"),
        ("broken", "#d8c69e"),
        ("hill", "#d9c48f"),
        ("rise", "#dcc896"),
        ("fortress", "#bdb1a4"),
        ("mountain", "#a9967f"),
        ("marsh", "#bfdcce"),
        ("swamp", "#a3c8ad"),
        ("town", "#ddd3c8"),
        ("city", "#c4b8ad"),
        ("village", "#e9e0cf"),
        ("sea", "#8dbbe0"),
        ("lake", "#8dbbe0"),
        ("water", "#8dbbe0"),
    ];
    let lower = id.to_ascii_lowercase();
    for (k, c) in known {
        if lower == k || lower.starts_with(k) || lower.ends_with(k) {
            return c.to_string();
        }
    }
    // A stable pastel for anything else.
    let mut h: u32 = 2166136261;
    for b in id.bytes() {
        h = (h ^ b as u32).wrapping_mul(16777619);
    }
    let r = 170 + (h & 0x3f) as u8;
    let g = 170 + ((h >> 8) & 0x3f) as u8;
    let b = 150 + ((h >> 16) & 0x3f) as u8;
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum SideStyle {
    /// Trench lines and other drawn works: a line with ticks, in its own colour.
    Works(&'static str),
    Road,
    Trail,
    Rail,
    Bridge,
    River,
    Stream,
    Canal,
    Ditch,
    Minefield,
    Shore,
    Other,
}

pub(super) fn side_style(f: &HexsideTerrain) -> SideStyle {
    let id = f.id.to_ascii_lowercase();
    let has = |k: &str| id.contains(k);
    if f.bridge_over.is_some() || has("bridge") {
        SideStyle::Bridge
    } else if f.road.is_some() || !f.road_for_tags.is_empty() {
        if has("trail") || has("track") || has("path") {
            SideStyle::Trail
        } else if has("rail") {
            SideStyle::Rail
        } else {
            SideStyle::Road
        }
    } else if f.minefield || has("mine") || has("wire") {
        SideStyle::Minefield
    } else if has("stellung") || has("trench") || has("tier") {
        SideStyle::Works(if has("second") || has("tier") {
            "#c0701c"
        } else {
            "#a5281b"
        })
    } else if has("fort") && has("line") || has("works") {
        SideStyle::Works("#6c3483")
    } else if has("canal") {
        SideStyle::Canal
    } else if has("river")
        || has("meuse")
        || (f.all_attackers && f.crt_line.is_some() && !has("stream") && !has("ditch"))
    {
        SideStyle::River
    } else if has("stream") || has("creek") || has("brook") {
        SideStyle::Stream
    } else if has("ditch") || has("trench") || has("wadi") || has("escarp") {
        SideStyle::Ditch
    } else if has("water")
        || has("lake")
        || has("shore")
        || has("sea")
        || f.cost == MoveCost::Prohibited
    {
        SideStyle::Shore
    } else {
        SideStyle::Other
    }
}

/// Draws the legend sample of a hexside style at (x, y), 24 px long.
pub(super) fn side_sample(o: &mut String, st: SideStyle, x: f64, y: f64) {
    let (a, b) = ((x, y), (x + 24.0, y));
    match st {
        SideStyle::Road | SideStyle::Trail | SideStyle::Rail => {
            road_line(o, st, a, b);
        }
        SideStyle::Bridge => {
            side_line(o, SideStyle::River, a, b);
            bridge(o, (x + 12.0, y - 6.0), (x + 12.0, y + 6.0));
        }
        _ => side_line(o, st, a, b),
    }
}

pub(super) fn side_line(o: &mut String, st: SideStyle, a: (f64, f64), b: (f64, f64)) {
    let line = |o: &mut String, colour: &str, w: f64, extra: &str| {
        let _ = write!(
            o,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{w}" stroke-linecap="round"{extra}/>"#,
            a.0, a.1, b.0, b.1
        );
    };
    match st {
        SideStyle::River => line(o, "#2f6fc4", 4.5, ""),
        SideStyle::Stream => line(o, "#4f93d9", 2.5, ""),
        SideStyle::Canal => {
            line(o, "#1f4f8f", 6.0, "");
            line(o, "#9cc8ef", 2.5, "");
        }
        SideStyle::Shore => line(o, "#173f78", 5.5, ""),
        SideStyle::Minefield => {
            line(o, "#c0392b", 2.5, r#" stroke-dasharray="2,3""#);
        }
        SideStyle::Ditch => {
            // A zigzag along the side.
            let n = 8;
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (px, py) = (-dy / len * 2.5, dx / len * 2.5);
            let mut pts = String::new();
            for i in 0..=n {
                let t = i as f64 / n as f64;
                let k = if i % 2 == 0 { 1.0 } else { -1.0 };
                let _ = write!(
                    pts,
                    "{}{:.1},{:.1}",
                    if i > 0 { " " } else { "" },
                    a.0 + dx * t + px * k,
                    a.1 + dy * t + py * k
                );
            }
            let _ = write!(
                o,
                r##"<polyline points="{pts}" fill="none" stroke="#5b3a1a" stroke-width="1.8" stroke-linejoin="round"/>"##
            );
        }
        SideStyle::Works(colour) => {
            // The line, with short ticks on one side (the usual trench symbol).
            line(o, colour, 2.2, "");
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (px, py) = (-dy / len * 3.5, dx / len * 3.5);
            let mut d = String::new();
            for i in 1..5 {
                let t = i as f64 / 5.0;
                let (x, y) = (a.0 + dx * t, a.1 + dy * t);
                let _ = write!(d, "M{x:.1},{y:.1} l{px:.1},{py:.1} ");
            }
            let _ = write!(
                o,
                r#"<path d="{}" stroke="{colour}" stroke-width="1.6" fill="none"/>"#,
                d.trim_end()
            );
        }
        _ => line(o, "#7a6a8a", 3.0, r#" stroke-dasharray="5,2""#),
    }
}

pub(super) fn road_line(o: &mut String, st: SideStyle, a: (f64, f64), b: (f64, f64)) {
    let (colour, w, extra) = match st {
        SideStyle::Trail => ("#8b5a2b", 1.8, r#" stroke-dasharray="4,3""#),
        SideStyle::Rail => ("#222", 2.0, r#" stroke-dasharray="6,2""#),
        _ => ("#9c4a1e", 3.0, ""),
    };
    let _ = write!(
        o,
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{w}" stroke-linecap="round"{extra}/>"#,
        a.0, a.1, b.0, b.1
    );
}

/// A bridge drawn across a hexside: a short deck from `a` to `b` (centre to centre
/// direction).
pub(super) fn bridge(o: &mut String, a: (f64, f64), b: (f64, f64)) {
    let _ = write!(
        o,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3b2a1a" stroke-width="7"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d8b98a" stroke-width="4"/>"##,
        a.0, a.1, b.0, b.1, a.0, a.1, b.0, b.1
    );
}

/// A terrain symbol for additive or special terrain drawn over the fill.
pub(super) fn terrain_symbol(o: &mut String, id: &str, (x, y): (f64, f64), s: f64) {
    let lower = id.to_ascii_lowercase();
    let k = s / 40.0;
    if lower.contains("stellung") || lower.contains("tier") || lower.contains("trench") {
        // Trench works in the hex: a zigzag across it.
        let colour = if lower.contains("second") || lower.contains("tier") {
            "#c0701c"
        } else {
            "#a5281b"
        };
        let mut pts = String::new();
        for i in 0..=8 {
            let t = i as f64 / 8.0;
            let dy = if i % 2 == 0 { -0.08 } else { 0.08 } * s;
            let _ = write!(
                pts,
                "{}{:.1},{:.1}",
                if i > 0 { " " } else { "" },
                x - 0.8 * s + 1.6 * s * t,
                y + 0.62 * s + dy
            );
        }
        let _ = write!(
            o,
            r#"<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{:.1}" opacity="0.85"/>"#,
            1.6 * k
        );
    } else if lower.contains("fort") {
        // A bastioned outline around the counter area.
        let mut pts = String::new();
        for i in 0..10 {
            let a = std::f64::consts::PI / 5.0 * i as f64 - std::f64::consts::PI / 2.0;
            let r = if i % 2 == 0 { 0.84 * s } else { 0.7 * s };
            let _ = write!(
                pts,
                "{}{:.1},{:.1}",
                if i > 0 { " " } else { "" },
                x + r * a.cos(),
                y + r * a.sin()
            );
        }
        let _ = write!(
            o,
            r##"<polygon points="{pts}" fill="none" stroke="#4a3b2a" stroke-width="{:.1}" stroke-dasharray="3,1.5"/>"##,
            2.0 * k
        );
    } else if lower.contains("village") || lower.contains("town") || lower.contains("city") {
        let n = if lower.contains("city") {
            5
        } else if lower.contains("town") {
            3
        } else {
            2
        };
        let spots = [
            (-0.55, -0.4),
            (0.42, -0.45),
            (-0.5, 0.38),
            (0.45, 0.36),
            (0.0, -0.62),
        ];
        for (dx, dy) in spots.iter().take(n) {
            let _ = write!(
                o,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#6b5a4a" opacity="0.75"/>"##,
                x + dx * s - 3.5 * k,
                y + dy * s - 3.0 * k,
                7.0 * k,
                6.0 * k
            );
        }
    } else if lower.contains("woods") || lower.contains("forest") {
        for (dx, dy) in [(-0.6, -0.35), (0.6, -0.35), (-0.6, 0.4), (0.62, 0.42)] {
            let _ = write!(
                o,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#4f8a3c" opacity="0.8"/>"##,
                x + dx * s,
                y + dy * s,
                4.0 * k
            );
        }
    } else if lower.contains("mountain")
        || lower.contains("hill")
        || lower.contains("rough")
        || lower.contains("rise")
    {
        let h = if lower.contains("mountain") { 9.0 } else { 6.0 } * k;
        for (dx, dy) in [(-0.6, -0.3), (0.6, -0.3), (-0.62, 0.45), (0.62, 0.45)] {
            let (cx, cy) = (x + dx * s, y + dy * s);
            let _ = write!(
                o,
                r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#7a6652" opacity="0.7"/>"##,
                cx - h * 0.7,
                cy + h * 0.4,
                cx,
                cy - h * 0.6,
                cx + h * 0.7,
                cy + h * 0.4
            );
        }
    } else if lower.contains("marsh") || lower.contains("swamp") {
        for (dx, dy) in [(-0.6, -0.3), (0.6, -0.3), (-0.6, 0.45), (0.6, 0.45)] {
            let (cx, cy) = (x + dx * s, y + dy * s);
            let _ = write!(
                o,
                r##"<path d="M{:.1},{:.1} h{:.1} M{:.1},{:.1} v-{:.1} M{:.1},{:.1} l-{:.1},-{:.1} M{:.1},{:.1} l{:.1},-{:.1}" stroke="#3d6b5a" stroke-width="1.2" fill="none"/>"##,
                cx - 5.0 * k,
                cy,
                10.0 * k,
                cx,
                cy,
                5.0 * k,
                cx,
                cy,
                3.0 * k,
                4.0 * k,
                cx,
                cy,
                3.0 * k,
                4.0 * k
            );
        }
    } else if lower.contains("desert") || lower.contains("sand") {
        for (dx, dy) in [(-0.6, -0.3), (0.6, -0.3), (-0.6, 0.45), (0.6, 0.45)] {
            let _ = write!(
                o,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#b8955a"/>"##,
                x + dx * s,
                y + dy * s,
                1.3 * k
            );
        }
    }
}
