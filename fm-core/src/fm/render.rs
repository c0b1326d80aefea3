//! SVG rendering of a board: the map (terrain fills and symbols, hexside features,
//! hex ids and names, objectives and their control), unit counters (side colours,
//! size, type symbol, attack-defense-move of the current step, depleted steps), the
//! combat in progress with its support fire markers, bombardments, extra markers, and
//! a side panel (turn, phase, pending decision, support markers, units off the map,
//! legend).
//!
//! Plain text output, no dependencies: the string is a complete SVG 1.1 document.
//! Render the full [`State`] or a per-side [`View`] (face-down markers of the other
//! side show as "?").
//!
//! ```
//! use fm_core::{render_svg, Match, RenderOptions};
//! let m = Match::new_builtin("system-demo", 1).unwrap();
//! let svg = render_svg(m.scenario(), m.state(), &RenderOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"unit\"").count(), 10); // 10 units start on the map
//! ```
//!
//! Geometry: flat-topped hexes in vertical columns, hex "CCRR" at column CC and row RR;
//! the scenario's [`Layout`] says which columns sit half a hex lower.

use crate::fm::hex::{Hex, Layout};
use crate::fm::scenario::{HexsideTerrain, MoveCost, Phase, Scenario, StartData, NO_HEX};
use crate::fm::state::{Combat, CombatStage, Location, Outcome, Pending, State, UnitState};
use crate::fm::view::View;
use crate::ids::{Side, SidePair, UnitId};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What to render: the full state, or one side's view of it.
#[derive(Clone, Copy, Debug)]
pub enum Board<'a> {
    /// Everything, including face-down marker values.
    State(&'a State),
    /// As one side sees it.
    View(&'a View),
}

impl<'a> From<&'a State> for Board<'a> {
    fn from(s: &'a State) -> Board<'a> {
        Board::State(s)
    }
}

impl<'a> From<&'a View> for Board<'a> {
    fn from(v: &'a View) -> Board<'a> {
        Board::View(v)
    }
}

/// An extra marker drawn on a hex: for exclusive-rule markers the state does not hold
/// (breach, aircraft, ...) or for annotations.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MapMarker {
    /// Where.
    pub hex: Hex,
    /// Kind: `"breach"`, `"aircraft"`, `"support"` get their own colours; anything else
    /// is drawn grey.
    pub kind: String,
    /// Short text printed on the marker (a few characters).
    pub label: String,
}

/// The smallest [`RenderOptions::hex_size`]: a smaller size is drawn at this one.
pub const MIN_HEX_SIZE: f64 = 10.0;
/// The largest [`RenderOptions::hex_size`]: a larger size is drawn at this one.
pub const MAX_HEX_SIZE: f64 = 200.0;

/// Rendering options. `RenderOptions::default()` is what the Python `Match` and the
/// `play` example use.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Hex size: centre to corner, in pixels (default 40), [`MIN_HEX_SIZE`] to
    /// [`MAX_HEX_SIZE`] (clamped; NaN is the default).
    pub hex_size: f64,
    /// Print each hex's id (default true).
    pub hex_ids: bool,
    /// Draw the side panel with turn, phase, pending decision, markers, off-map units
    /// and legend (default true).
    pub panel: bool,
    /// Title above the panel (default: the scenario's name).
    pub title: Option<String>,
    /// Extra markers.
    pub markers: Vec<MapMarker>,
    /// Hexes to outline (e.g. a unit's reachable hexes).
    pub highlight: Vec<Hex>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            hex_size: 40.0,
            hex_ids: true,
            panel: true,
            title: None,
            markers: Vec::new(),
            highlight: Vec::new(),
        }
    }
}

/// Fill colours of the two sides' counters.
pub const SIDE_COLOURS: SidePair<&str> = SidePair {
    a: "#7ea7d8",
    b: "#e07f67",
};

/// What the renderer needs from a state or a view.
struct Snap<'a> {
    turn: u16,
    phase: Phase,
    active: Side,
    units: &'a crate::fm::state::UnitList,
    control: &'a BTreeMap<Hex, Side>,
    bombarded: &'a BTreeMap<Hex, u8>,
    combat: Option<&'a Combat>,
    outcome: Option<&'a Outcome>,
    pending: Pending,
    /// Per side: available values if visible, available count, used values.
    support: [(Option<Vec<u8>>, usize, Vec<u8>); 2],
    viewer: Option<Side>,
    /// Exclusive-rule markers (full state only: views do not carry them yet).
    ex: Option<&'a crate::fm::state::ExclusiveState>,
}

impl<'a> Snap<'a> {
    fn of(b: Board<'a>) -> Snap<'a> {
        match b {
            Board::State(s) => Snap {
                turn: s.turn,
                phase: s.phase,
                active: s.active,
                units: &s.units,
                control: &s.control,
                bombarded: &s.bombarded,
                combat: s.combat.as_ref(),
                outcome: s.outcome.as_ref(),
                pending: s.pending(),
                support: Side::BOTH.map(|side| {
                    let sp = s.support.get(side);
                    (
                        Some(sp.available.clone()),
                        sp.available.len(),
                        sp.used.clone(),
                    )
                }),
                viewer: None,
                ex: Some(&s.ex),
            },
            Board::View(v) => Snap {
                turn: v.turn,
                phase: v.phase,
                active: v.active,
                units: &v.units,
                control: &v.control,
                bombarded: &v.bombarded,
                combat: v.combat.as_ref(),
                outcome: v.outcome.as_ref(),
                pending: v.pending.clone(),
                support: Side::BOTH.map(|side| {
                    let sp = v.support.get(side);
                    (
                        sp.available.clone(),
                        sp.available_count as usize,
                        sp.used.clone(),
                    )
                }),
                viewer: Some(v.side),
                ex: None,
            },
        }
    }
}

/// Escapes text for XML content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// Pixel geometry of the map.
struct Geo {
    s: f64,
    hh: f64,
    cmin: i32,
    rmin: i32,
    layout: Layout,
    margin: f64,
}

impl Geo {
    fn shifted(&self, col: i32) -> bool {
        match self.layout {
            Layout::OddColumnsDown => col.rem_euclid(2) == 1,
            Layout::EvenColumnsDown => col.rem_euclid(2) == 0,
        }
    }
    fn centre(&self, h: Hex) -> (f64, f64) {
        let c = h.col as i32;
        let r = h.row as i32;
        let x = self.margin + self.s + 1.5 * self.s * (c - self.cmin) as f64;
        let mut y = self.margin + self.hh + 2.0 * self.hh * (r - self.rmin) as f64;
        if self.shifted(c) {
            y += self.hh;
        }
        (x, y)
    }
    /// Corner k (0 = east, then clockwise on screen: 1 lower right, ... 5 upper right).
    fn corner(&self, (x, y): (f64, f64), k: usize, scale: f64) -> (f64, f64) {
        let a = std::f64::consts::PI / 3.0 * k as f64;
        (x + self.s * scale * a.cos(), y + self.s * scale * a.sin())
    }
    fn polygon(&self, c: (f64, f64), scale: f64) -> String {
        let mut p = String::new();
        for k in 0..6 {
            let (x, y) = self.corner(c, k, scale);
            let _ = write!(p, "{}{:.1},{:.1}", if k > 0 { " " } else { "" }, x, y);
        }
        p
    }
    /// The two corners of the hexside in direction `d` (north, north-east, south-east,
    /// south, south-west, north-west: the order of [`Layout::neighbors`]).
    fn side(&self, c: (f64, f64), d: usize) -> ((f64, f64), (f64, f64)) {
        (
            self.corner(c, (d + 4) % 6, 1.0),
            self.corner(c, (d + 5) % 6, 1.0),
        )
    }
}

fn terrain_colour(id: &str) -> String {
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
enum SideStyle {
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

fn side_style(f: &HexsideTerrain) -> SideStyle {
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
    } else if has("stellung") || has("trench") && has("line") || has("tier") {
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
fn side_sample(o: &mut String, st: SideStyle, x: f64, y: f64) {
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

fn side_line(o: &mut String, st: SideStyle, a: (f64, f64), b: (f64, f64)) {
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

fn road_line(o: &mut String, st: SideStyle, a: (f64, f64), b: (f64, f64)) {
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
fn bridge(o: &mut String, a: (f64, f64), b: (f64, f64)) {
    let _ = write!(
        o,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3b2a1a" stroke-width="7"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d8b98a" stroke-width="4"/>"##,
        a.0, a.1, b.0, b.1, a.0, a.1, b.0, b.1
    );
}

fn text(o: &mut String, x: f64, y: f64, size: f64, attrs: &str, s: &str) {
    let _ = write!(
        o,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}"{attrs}>{}</text>"#,
        xml_escape(s)
    );
}

/// A terrain symbol for additive or special terrain drawn over the fill.
fn terrain_symbol(o: &mut String, id: &str, (x, y): (f64, f64), s: f64) {
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

/// NATO-style unit type symbol inside the box (x, y, w, h).
fn type_symbol(o: &mut String, unit_type: &str, x: f64, y: f64, w: f64, h: f64) {
    let t = unit_type.to_ascii_lowercase();
    let stroke = r##" stroke="#111" stroke-width="1.2" fill="none""##;
    let cross = |o: &mut String| {
        let _ = write!(
            o,
            r#"<path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}"{stroke}/>"#,
            x,
            y,
            x + w,
            y + h,
            x,
            y + h,
            x + w,
            y
        );
    };
    let ellipse = |o: &mut String| {
        let _ = write!(
            o,
            r#"<ellipse cx="{:.1}" cy="{:.1}" rx="{:.1}" ry="{:.1}"{stroke}/>"#,
            x + w / 2.0,
            y + h / 2.0,
            w * 0.32,
            h * 0.3
        );
    };
    let label = |o: &mut String, s: &str| {
        let _ = write!(
            o,
            r##"<text x="{:.1}" y="{:.1}" font-size="{:.1}" text-anchor="middle" font-weight="bold" fill="#111">{}</text>"##,
            x + w / 2.0,
            y + h * 0.78,
            h * 0.75,
            xml_escape(s)
        );
    };
    if t.contains("armor") || t.contains("armour") || t.contains("tank") {
        ellipse(o);
        if t.contains("inf") || t.contains("mech") {
            cross(o);
        }
    } else if t.contains("mech") {
        cross(o);
        ellipse(o);
    } else if t.contains("recon") || t.contains("cav") {
        let _ = write!(
            o,
            r#"<path d="M{:.1},{:.1} L{:.1},{:.1}"{stroke}/>"#,
            x,
            y + h,
            x + w,
            y
        );
    } else if t.contains("art") {
        let _ = write!(
            o,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#111"/>"##,
            x + w / 2.0,
            y + h / 2.0,
            h * 0.2
        );
    } else if t.contains("militia") {
        cross(o);
        label(o, "M");
    } else if t.contains("commando") || t.contains("ranger") || t.contains("special") {
        cross(o);
        let _ = write!(
            o,
            r#"<path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1}"{stroke}/>"#,
            x + w * 0.2,
            y + h,
            x + w / 2.0,
            y + h * 0.55,
            x + w * 0.8,
            y + h
        );
    } else if t.contains("engineer") {
        let _ = write!(
            o,
            r#"<path d="M{:.1},{:.1} v-{:.1} h{:.1} v{:.1} M{:.1},{:.1} v-{:.1}"{stroke}/>"#,
            x + w * 0.25,
            y + h * 0.7,
            h * 0.35,
            w * 0.5,
            h * 0.35,
            x + w / 2.0,
            y + h * 0.7,
            h * 0.35
        );
    } else if t.contains("inf") || t.is_empty() {
        cross(o);
    } else if t.contains("hq") || t.contains("head") {
        label(o, "HQ");
    } else {
        let abbrev: String = unit_type.chars().take(3).collect();
        label(o, &abbrev.to_uppercase());
    }
}

fn lighten(hex: &str, f: f64) -> String {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0x888888);
    let ch = |sh: u32| {
        let c = ((v >> sh) & 0xff) as f64;
        (c + (255.0 - c) * f).round() as u32
    };
    format!("#{:02x}{:02x}{:02x}", ch(16), ch(8), ch(0))
}

fn describe_pending(sc: &Scenario, p: &Pending) -> String {
    let name = |s: &Side| sc.side_name(*s).to_string();
    #[allow(unreachable_patterns)]
    match p {
        Pending::Setup { side } => format!("{} places units", name(side)),
        Pending::Phase { side, phase } => format!("{}: {phase}", name(side)),
        Pending::SupportFire { side, step } => {
            format!(
                "{}: commit or pass support fire (step {})",
                name(side),
                step + 1
            )
        }
        Pending::ChooseLoss { side, .. } => format!("{} chooses a step loss", name(side)),
        Pending::Retreat { side, hexes, .. } => {
            format!("{} retreats {hexes} hex(es) or holds", name(side))
        }
        Pending::Advance { side, .. } => format!("{} may advance after combat", name(side)),
        Pending::LostBattalion { side } => {
            format!("{} may declare the Lost Battalion", name(side))
        }
        Pending::ArtilleryRetreat { side, .. } => {
            format!(
                "{} retreats one hex or takes the artillery hits",
                name(side)
            )
        }
        Pending::GameOver { winner } => match winner {
            Some(w) => format!("game over: {} wins", name(w)),
            None => "game over: a draw".to_string(),
        },
        // Decisions of exclusive rules: their JSON kind, in words.
        other => {
            let kind = serde_json::to_value(other)
                .ok()
                .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
                .unwrap_or_default()
                .replace('_', " ");
            match other.side() {
                Some(s) => format!("{}: {kind}", name(&s)),
                None => kind,
            }
        }
    }
}

/// Renders a board as an SVG document.
///
/// `board` is a [`State`] (everything) or a [`View`] (one side's view: the other side's
/// face-down support fire markers show as "?", its unused allotment as a count).
/// Each unit on the map is one `<g class="unit" data-unit="…">` element.
pub fn render_svg<'a>(sc: &Scenario, board: impl Into<Board<'a>>, opts: &RenderOptions) -> String {
    let snap = Snap::of(board.into());
    // NaN (which `clamp` keeps) is the default size.
    let s = if opts.hex_size.is_nan() {
        RenderOptions::default().hex_size
    } else {
        opts.hex_size.clamp(MIN_HEX_SIZE, MAX_HEX_SIZE)
    };
    let hh = s * 3f64.sqrt() / 2.0;
    let (mut cmin, mut cmax, mut rmin, mut rmax) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for h in &sc.hexes {
        cmin = cmin.min(h.hex.col as i32);
        cmax = cmax.max(h.hex.col as i32);
        rmin = rmin.min(h.hex.row as i32);
        rmax = rmax.max(h.hex.row as i32);
    }
    if sc.hexes.is_empty() {
        (cmin, cmax, rmin, rmax) = (0, 0, 0, 0);
    }
    let margin = 8.0;
    let header = 30.0;
    let geo = Geo {
        s,
        hh,
        cmin,
        rmin,
        layout: sc.layout(),
        margin,
    };
    let map_w = 2.0 * margin + 2.0 * s + 1.5 * s * (cmax - cmin) as f64;
    let map_h = 2.0 * margin + 2.0 * hh * (rmax - rmin + 1) as f64 + hh;
    let panel_w = if opts.panel { 250.0 } else { 0.0 };

    let mut body = String::with_capacity(64 * 1024);
    let o = &mut body;

    // ---- hexes: fills
    let _ = write!(o, r#"<g class="map" transform="translate(0,{header})">"#);
    let th = &sc.data.terrain.hex;
    let base_of = |mask: u64| -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (k, t) in th.iter().enumerate() {
            if mask & (1 << k) == 0 {
                continue;
            }
            let rank = match t.cost {
                MoveCost::Prohibited => u32::MAX,
                MoveCost::Cost(m) => m.sixths(),
                MoveCost::Plus(_) => continue,
            };
            if best.map_or(true, |(_, r)| rank > r) {
                best = Some((k, rank));
            }
        }
        best.map(|b| b.0)
    };
    let mut used_terrain = vec![false; th.len()];
    for h in &sc.hexes {
        let c = geo.centre(h.hex);
        let base = base_of(h.terrain);
        let fill = base.map_or("#eeeeee".to_string(), |k| terrain_colour(&th[k].id));
        let title = th
            .iter()
            .enumerate()
            .filter(|(k, _)| h.terrain & (1 << k) != 0)
            .map(|(_, t)| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            o,
            r##"<polygon class="hex" data-hex="{}" points="{}" fill="{fill}" stroke="#8a8a7a" stroke-width="0.8"><title>{} {}</title></polygon>"##,
            h.hex,
            geo.polygon(c, 1.0),
            h.hex,
            xml_escape(&title)
        );
        for (k, t) in th.iter().enumerate() {
            if h.terrain & (1 << k) != 0 {
                used_terrain[k] = true;
                terrain_symbol(o, &t.id, c, s);
            }
        }
    }

    // ---- hexside features (each side drawn once, from the lower hex index)
    let ts = &sc.data.terrain.hexside;
    let styles: Vec<SideStyle> = ts.iter().map(side_style).collect();
    let mut used_side = vec![false; ts.len()];
    let mut roads = String::new();
    let mut bridges = String::new();
    for (i, h) in sc.hexes.iter().enumerate() {
        let c = geo.centre(h.hex);
        for d in 0..6 {
            let m = h.sides[d];
            if m == 0 {
                continue;
            }
            let n = h.neighbors[d];
            let (a, b) = geo.side(c, d);
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            for (k, st) in styles.iter().enumerate() {
                if m & (1 << k) == 0 {
                    continue;
                }
                used_side[k] = true;
                match st {
                    SideStyle::Road | SideStyle::Trail | SideStyle::Rail => {
                        // Half a road from each side's centre to the hexside.
                        road_line(&mut roads, *st, c, mid);
                    }
                    SideStyle::Bridge => {
                        if n != NO_HEX && (n as usize) > i {
                            let nc = geo.centre(sc.hex_at(n));
                            let (dx, dy) = (nc.0 - c.0, nc.1 - c.1);
                            let p = (mid.0 - dx * 0.18, mid.1 - dy * 0.18);
                            let q = (mid.0 + dx * 0.18, mid.1 + dy * 0.18);
                            bridge(&mut bridges, p, q);
                        }
                    }
                    _ => {
                        if n == NO_HEX || (n as usize) > i {
                            side_line(o, *st, a, b);
                        }
                    }
                }
            }
            // A bridge crosses a river even when only the bridge is listed.
            let bridged = styles
                .iter()
                .enumerate()
                .any(|(k, st)| m & (1 << k) != 0 && *st == SideStyle::Bridge);
            let watered = styles.iter().enumerate().any(|(k, st)| {
                m & (1 << k) != 0
                    && matches!(
                        st,
                        SideStyle::River | SideStyle::Stream | SideStyle::Canal | SideStyle::Ditch
                    )
            });
            if bridged && !watered && (n == NO_HEX || (n as usize) > i) {
                side_line(o, SideStyle::River, a, b);
            }
        }
    }
    o.push_str(&roads);
    o.push_str(&bridges);

    // ---- set-up zones of the side placing
    if let Pending::Setup { side } = snap.pending {
        let mut zone_hexes: Vec<u16> = Vec::new();
        for (i, u) in snap.units.iter().enumerate() {
            let d = &sc.units[i].data;
            if d.side != side || u.loc != Location::ToPlace {
                continue;
            }
            if let StartData::Zone(z) = &d.start {
                if let Some(hs) = sc.zones.get(z) {
                    zone_hexes.extend(hs.iter().copied());
                }
            }
        }
        zone_hexes.sort_unstable();
        zone_hexes.dedup();
        for h in zone_hexes {
            let _ = write!(
                o,
                r#"<polygon class="zone" points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="5,3"/>"#,
                geo.polygon(geo.centre(sc.hex_at(h)), 0.86),
                SIDE_COLOURS.get(side)
            );
        }
    }
    for h in &opts.highlight {
        if sc.hex_index(*h).is_some() {
            let _ = write!(
                o,
                r##"<polygon class="highlight" points="{}" fill="#ffe24a" fill-opacity="0.25" stroke="#e0b000" stroke-width="2"/>"##,
                geo.polygon(geo.centre(*h), 0.9)
            );
        }
    }

    // ---- hex ids and names
    if opts.hex_ids {
        let fs = (s * 0.19).max(6.0);
        for h in &sc.hexes {
            let (x, y) = geo.centre(h.hex);
            text(
                o,
                x,
                y - hh + fs + 1.5,
                fs,
                r##" text-anchor="middle" fill="#555""##,
                &h.hex.to_string(),
            );
        }
    }
    for h in &sc.hexes {
        if let Some(name) = &h.name {
            let (x, y) = geo.centre(h.hex);
            let fs = (s * 0.22).max(6.0);
            text(
                o,
                x,
                y + hh - 4.0,
                fs,
                r##" text-anchor="middle" font-weight="bold" font-style="italic" fill="#222" stroke="#fff" stroke-width="2.5" paint-order="stroke""##,
                name,
            );
        }
    }

    // ---- objectives and their control
    for h in sc.objective_hexes() {
        let (x, y) = geo.centre(h);
        let (fill, who) = match snap.control.get(&h) {
            Some(side) => (SIDE_COLOURS.get(*side).to_string(), sc.side_name(*side)),
            None => ("#ffffff".to_string(), "nobody"),
        };
        let (ox, oy) = (x - 0.78 * s, y);
        let mut star = String::new();
        for i in 0..10 {
            let a = std::f64::consts::PI / 5.0 * i as f64 - std::f64::consts::PI / 2.0;
            let r = if i % 2 == 0 { 0.17 * s } else { 0.075 * s };
            let _ = write!(
                star,
                "{}{:.1},{:.1}",
                if i > 0 { " " } else { "" },
                ox + r * a.cos(),
                oy + r * a.sin()
            );
        }
        let _ = write!(
            o,
            r##"<g class="objective" data-hex="{h}"><title>objective {h}: last held by {}</title><circle cx="{ox:.1}" cy="{oy:.1}" r="{:.1}" fill="{fill}" stroke="#222" stroke-width="1"/><polygon points="{star}" fill="#222"/></g>"##,
            xml_escape(who),
            0.2 * s
        );
    }

    // ---- combat in progress: defending hex, attack arrows, retreat / advance path
    if let Some(cb) = snap.combat {
        let dc = geo.centre(cb.hex);
        let _ = write!(
            o,
            r##"<polygon class="combat" points="{}" fill="none" stroke="#ff7a00" stroke-width="3.5"/>"##,
            geo.polygon(dc, 0.95)
        );
        let path: &[Hex] = match &cb.stage {
            CombatStage::Advance { path, .. } => path,
            _ => &cb.retreat_path,
        };
        if path.len() > 1 {
            let pts: Vec<String> = path
                .iter()
                .map(|h| {
                    let (x, y) = geo.centre(*h);
                    format!("{x:.1},{y:.1}")
                })
                .collect();
            let _ = write!(
                o,
                r##"<polyline class="retreat-path" points="{}" fill="none" stroke="#ff7a00" stroke-width="2.5" stroke-dasharray="6,4"/>"##,
                pts.join(" ")
            );
        }
    }
    let mut arrows = String::new();
    if let Some(cb) = snap.combat {
        let dc = geo.centre(cb.hex);
        for a in &cb.attackers {
            let Some(ui) = sc.unit_index(a) else { continue };
            let Some(ah) = snap.units[ui as usize].hex() else {
                continue;
            };
            let ac = geo.centre(ah);
            let (dx, dy) = (dc.0 - ac.0, dc.1 - ac.1);
            let p = (ac.0 + dx * 0.35, ac.1 + dy * 0.35);
            let q = (ac.0 + dx * 0.72, ac.1 + dy * 0.72);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            let head = 7.0;
            let _ = write!(
                arrows,
                r##"<g class="attack-arrow"><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d35400" stroke-width="3"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#d35400"/></g>"##,
                p.0,
                p.1,
                q.0,
                q.1,
                q.0 + ux * head,
                q.1 + uy * head,
                q.0 - uy * head * 0.6,
                q.1 + ux * head * 0.6,
                q.0 + uy * head * 0.6,
                q.1 - ux * head * 0.6
            );
        }
    }

    // ---- unit counters
    let k = 1.15 * s;
    let mut stacked: BTreeMap<Hex, usize> = BTreeMap::new();
    for u in snap.units {
        if let Location::Map(h) = u.loc {
            *stacked.entry(h).or_default() += 1;
        }
    }
    let mut drawn: BTreeMap<Hex, usize> = BTreeMap::new();
    for (i, u) in snap.units.iter().enumerate() {
        let Location::Map(h) = u.loc else { continue };
        if sc.hex_index(h).is_none() {
            continue;
        }
        // Exclusive rules may stack units: each counter a little up and to the right of
        // the one below it, the stack centred on the hex.
        let n = stacked.get(&h).copied().unwrap_or(1);
        let j = drawn.entry(h).or_default();
        let step = 0.12 * s;
        let off = (*j as f64 - (n as f64 - 1.0) / 2.0) * step;
        *j += 1;
        let (cx, cy) = geo.centre(h);
        let kk = if n > 1 { k * 0.9 } else { k };
        counter(o, sc, i, u, (cx + off, cy - off), kk);
    }
    o.push_str(&arrows);

    // ---- chips: support fire markers of the combat, bombardments, extra markers
    let mut chips: BTreeMap<Hex, Vec<(String, String, String)>> = BTreeMap::new();
    if let Some(cb) = snap.combat {
        for m in &cb.markers {
            let label = match m.value {
                Some(v) if m.revealed || snap.viewer.map_or(true, |w| w == m.side) => {
                    format!("+{v}")
                }
                _ => "?".to_string(),
            };
            let fill = if m.revealed {
                lighten(SIDE_COLOURS.get(m.side), 0.45)
            } else {
                "#555555".to_string()
            };
            let what = format!(
                "{} support fire marker, {}",
                sc.side_name(m.side),
                if m.revealed { "revealed" } else { "face down" }
            );
            chips.entry(cb.hex).or_default().push((label, fill, what));
        }
    }
    for (h, n) in snap.bombarded {
        chips.entry(*h).or_default().push((
            format!("B{n}"),
            "#bbbbbb".into(),
            format!("{n} marker(s) bombarded this hex this player turn"),
        ));
    }
    if let Some(ex) = snap.ex {
        for h in &ex.breached {
            chips.entry(*h).or_default().push((
                "BR".into(),
                "#ffd23f".into(),
                "breach: trench works breached".into(),
            ));
        }
        for h in &ex.aircraft {
            chips.entry(*h).or_default().push((
                "AIR".into(),
                "#b8cde6".into(),
                "aircraft observing this hex and its neighbours".into(),
            ));
        }
        for p in &ex.artillery_plan {
            chips.entry(p.hex).or_default().push((
                format!("A{}{}", p.markers, if p.gas { "G" } else { "" }),
                "#d7bde2".into(),
                format!(
                    "{} artillery marker(s) placed{}",
                    p.markers,
                    if p.gas { ", gas" } else { "" }
                ),
            ));
        }
    }
    for m in &opts.markers {
        let fill = match m.kind.as_str() {
            "breach" => "#ffd23f",
            "aircraft" => "#b8cde6",
            "support" => "#cccccc",
            _ => "#e6e6e6",
        };
        chips
            .entry(m.hex)
            .or_default()
            .push((m.label.clone(), fill.into(), m.kind.clone()));
    }
    for (h, list) in &chips {
        if sc.hex_index(*h).is_none() {
            continue;
        }
        let (x, y) = geo.centre(*h);
        let cw = 0.36 * s;
        let n = list.len() as f64;
        let x0 = x + 0.6 * s - cw / 2.0 + 0.1 * s;
        let y0 = y - (n * (cw + 2.0)) / 2.0;
        for (j, (label, fill, what)) in list.iter().enumerate() {
            let yy = y0 + j as f64 * (cw + 2.0);
            let _ = write!(
                o,
                r##"<g class="marker" data-hex="{h}" data-value="{}"><title>{}</title><rect x="{x0:.1}" y="{yy:.1}" width="{cw:.1}" height="{cw:.1}" rx="2" fill="{fill}" stroke="#111" stroke-width="0.8"/>"##,
                xml_escape(label),
                xml_escape(what)
            );
            let light = fill == "#555555";
            text(
                o,
                x0 + cw / 2.0,
                yy + cw * 0.72,
                cw * 0.6,
                if light {
                    r##" text-anchor="middle" font-weight="bold" fill="#fff""##
                } else {
                    r##" text-anchor="middle" font-weight="bold" fill="#111""##
                },
                label,
            );
            o.push_str("</g>");
        }
    }
    o.push_str("</g>");

    // ---- panel
    let mut panel = String::new();
    let mut panel_h = 0.0;
    if opts.panel {
        panel_h = draw_panel(
            &mut panel,
            sc,
            &snap,
            map_w + 6.0,
            header,
            panel_w - 12.0,
            &used_terrain,
            &used_side,
            &styles,
        );
    }

    let width = map_w + panel_w;
    let height = (map_h + header).max(panel_h + header + 10.0);
    let title = opts.title.clone().unwrap_or_else(|| sc.data.name.clone());
    let mut out = String::with_capacity(body.len() + panel.len() + 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif"><title>{}</title><rect width="100%" height="100%" fill="#fbfaf5"/>"##,
        xml_escape(&title)
    );
    let subtitle = match snap.viewer {
        Some(v) => format!("  (as seen by {})", sc.side_name(v)),
        None => String::new(),
    };
    text(
        &mut out,
        margin,
        20.0,
        15.0,
        r##" font-weight="bold" fill="#222""##,
        &format!("{title}{subtitle}"),
    );
    out.push_str(&body);
    out.push_str(&panel);
    out.push_str("</svg>\n");
    out
}

/// One unit counter centred at `c`, `k` pixels square.
fn counter(o: &mut String, sc: &Scenario, i: usize, u: &UnitState, c: (f64, f64), k: f64) {
    let def = &sc.units[i];
    let d = &def.data;
    let max = def.max_steps();
    let depleted = u.steps < max;
    let v = def.values(u.steps.max(1));
    let base = SIDE_COLOURS.get(d.side);
    let fill = if depleted {
        lighten(base, 0.35)
    } else {
        base.to_string()
    };
    let (x, y) = (c.0 - k / 2.0, c.1 - k / 2.0);
    let _ = write!(
        o,
        r#"<g class="unit" data-unit="{}" data-side="{}" data-steps="{}"><title>{} ({}), {} {}: {}-{}-{}, {} of {} step(s){}</title>"#,
        xml_escape(d.id.as_str()),
        d.side,
        u.steps,
        xml_escape(&d.name),
        xml_escape(d.id.as_str()),
        xml_escape(&d.size),
        xml_escape(&d.unit_type),
        v.attack,
        v.defense,
        v.movement,
        u.steps,
        max,
        if depleted { ", depleted" } else { "" }
    );
    // Shadow, body.
    let _ = write!(
        o,
        r##"<rect x="{:.1}" y="{:.1}" width="{k:.1}" height="{k:.1}" rx="3" fill="#000" opacity="0.3"/><rect x="{x:.1}" y="{y:.1}" width="{k:.1}" height="{k:.1}" rx="3" fill="{fill}" stroke="#1a1a1a" stroke-width="1"/>"##,
        x + 1.5,
        y + 1.5
    );
    if depleted {
        // A white band across the top-right corner marks a depleted (flipped) counter.
        let _ = write!(
            o,
            r##"<polygon class="depleted" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#ffffff" opacity="0.85"/>"##,
            x + k * 0.62,
            y + 0.5,
            x + k - 0.5,
            y + 0.5,
            x + k - 0.5,
            y + k * 0.38
        );
    }
    let fs_small = k * 0.17;
    // Unit size above the box.
    if !d.size.is_empty() {
        text(
            o,
            c.0,
            y + fs_small + 1.0,
            fs_small,
            r##" text-anchor="middle" font-weight="bold" fill="#111""##,
            &d.size,
        );
    }
    // Type box.
    let (bw, bh) = (k * 0.56, k * 0.3);
    let (bx, by) = (c.0 - bw / 2.0, y + fs_small + 3.0);
    let _ = write!(
        o,
        r##"<rect x="{bx:.1}" y="{by:.1}" width="{bw:.1}" height="{bh:.1}" fill="#f7f4ea" stroke="#111" stroke-width="1"/>"##
    );
    type_symbol(o, &d.unit_type, bx, by, bw, bh);
    // Name.
    text(
        o,
        c.0,
        by + bh + fs_small + 0.5,
        fs_small,
        r##" text-anchor="middle" fill="#111""##,
        &d.name,
    );
    // Values: attack-defense-move; a mobile unit's movement allowance is boxed.
    let fs = k * 0.25;
    let vy = y + k - 3.0;
    let vals = format!("{}-{}-{}", v.attack, v.defense, v.movement);
    text(
        o,
        c.0,
        vy,
        fs,
        r##" text-anchor="middle" font-weight="bold" fill="#111""##,
        &vals,
    );
    if d.kind == crate::fm::scenario::UnitKind::Mobile {
        // Advance widths of DejaVu Sans Bold: digits 0.696 em, hyphen 0.415 em.
        let width = |s: &str| {
            s.chars()
                .map(|ch| if ch == '-' { 0.415 } else { 0.696 })
                .sum::<f64>()
                * fs
        };
        let total = width(&vals);
        let mw = width(&v.movement.to_string());
        let _ = write!(
            o,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#111" stroke-width="0.8"/>"##,
            c.0 + total / 2.0 - mw - 1.0,
            vy - fs * 0.82,
            mw + 2.0,
            fs * 0.98
        );
    }
    // Step pips on the right edge (multi-step units).
    if max > 1 {
        for j in 0..max {
            let py = y + k * 0.36 + j as f64 * k * 0.12;
            let filled = j < u.steps;
            let _ = write!(
                o,
                r##"<circle cx="{:.1}" cy="{py:.1}" r="{:.1}" fill="{}" stroke="#111" stroke-width="0.6"/>"##,
                x + k - k * 0.08,
                k * 0.04,
                if filled { "#111" } else { "#fff" }
            );
        }
    }
    o.push_str("</g>");
}

#[allow(clippy::too_many_arguments)]
fn draw_panel(
    o: &mut String,
    sc: &Scenario,
    snap: &Snap,
    x: f64,
    top: f64,
    w: f64,
    used_terrain: &[bool],
    used_side: &[bool],
    styles: &[SideStyle],
) -> f64 {
    let mut y = top + 6.0;
    let lh = 14.0;
    let _ = write!(
        o,
        r##"<g class="panel"><rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="PANEL_H" rx="4" fill="#ffffff" stroke="#bbbbaa"/>"##,
        top
    );
    let px = x + 8.0;
    let line = |o: &mut String, y: &mut f64, s: &str, attrs: &str| {
        *y += lh;
        text(o, px, *y, 11.0, attrs, s);
    };
    let bold = r##" font-weight="bold" fill="#222""##;
    let plain = r##" fill="#333""##;
    let turn_name = sc
        .data
        .turns
        .get(snap.turn.saturating_sub(1) as usize)
        .map(|t| t.name.clone())
        .unwrap_or_default();
    line(
        o,
        &mut y,
        &format!("Turn {} of {} — {turn_name}", snap.turn, sc.turn_count()),
        bold,
    );
    line(
        o,
        &mut y,
        &format!("{}: {}", sc.side_name(snap.active), snap.phase),
        plain,
    );
    match snap.outcome {
        Some(out) => {
            let who = match out.winner {
                Some(w) => format!("{} wins", sc.side_name(w)),
                None => "draw".into(),
            };
            line(o, &mut y, &format!("Game over: {who}"), bold);
            for chunk in wrap(&out.reason, 38) {
                line(o, &mut y, &chunk, plain);
            }
        }
        None => {
            for chunk in wrap(
                &format!("Waiting for: {}", describe_pending(sc, &snap.pending)),
                38,
            ) {
                line(o, &mut y, &chunk, plain);
            }
        }
    }
    y += 6.0;
    // Sides and support fire markers.
    for side in Side::BOTH {
        y += lh;
        let _ = write!(
            o,
            r##"<rect x="{px:.1}" y="{:.1}" width="12" height="12" fill="{}" stroke="#111"/>"##,
            y - 10.0,
            SIDE_COLOURS.get(side)
        );
        text(
            o,
            px + 17.0,
            y,
            11.0,
            bold,
            &format!("{} (side {side})", sc.side_name(side)),
        );
        let (avail, count, used) = &snap.support[side.index()];
        let avail_s = match avail {
            Some(v) if v.is_empty() => "none".to_string(),
            Some(v) => v
                .iter()
                .map(|x| format!("+{x}"))
                .collect::<Vec<_>>()
                .join(" "),
            None => format!("{count} face down"),
        };
        let used_s = if used.is_empty() {
            String::new()
        } else {
            format!(
                "; used {}",
                used.iter()
                    .map(|x| format!("+{x}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        line(
            o,
            &mut y,
            &format!("  support fire: {avail_s}{used_s}"),
            plain,
        );
        if let Some(ex) = snap.ex {
            let n = *ex.artillery.get(side);
            if n > 0 {
                line(o, &mut y, &format!("  artillery markers: {n}"), plain);
            }
        }
        // Units off the map.
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (i, u) in snap.units.iter().enumerate() {
            let d = &sc.units[i].data;
            if d.side != side {
                continue;
            }
            #[allow(unreachable_patterns)]
            let key = match u.loc {
                Location::Map(_) => continue,
                Location::ToPlace => "to place".to_string(),
                Location::Arriving => "arriving now".to_string(),
                Location::Scheduled => match &d.start {
                    StartData::Reinforcement { turn, .. } => format!("arrives turn {turn}"),
                    _ => "scheduled".to_string(),
                },
                Location::Eliminated => "eliminated".to_string(),
                Location::OffMap => "off map".to_string(),
                _ => "elsewhere".to_string(),
            };
            groups.entry(key).or_default().push(d.name.clone());
        }
        for (k, names) in groups {
            for chunk in wrap(&format!("  {k}: {}", names.join(", ")), 38) {
                line(o, &mut y, &chunk, plain);
            }
        }
        y += 4.0;
    }
    // Legend: terrain in use.
    y += 6.0;
    line(o, &mut y, "Terrain", bold);
    for (k, t) in sc.data.terrain.hex.iter().enumerate() {
        if !used_terrain.get(k).copied().unwrap_or(false) {
            continue;
        }
        y += lh;
        let additive = matches!(t.cost, MoveCost::Plus(_));
        let _ = write!(
            o,
            r##"<rect x="{px:.1}" y="{:.1}" width="24" height="12" fill="{}" stroke="#888"/>"##,
            y - 10.0,
            if additive {
                "#f2eed6".to_string()
            } else {
                terrain_colour(&t.id)
            }
        );
        if additive {
            let mut sym = String::new();
            terrain_symbol(&mut sym, &t.id, (px + 12.0, y - 4.0), 14.0);
            o.push_str(&sym);
        }
        text(o, px + 30.0, y, 10.0, plain, &t.name);
    }
    let mut any_side = false;
    for (k, f) in sc.data.terrain.hexside.iter().enumerate() {
        if !used_side.get(k).copied().unwrap_or(false) {
            continue;
        }
        if !any_side {
            y += 4.0;
            line(o, &mut y, "Hexsides", bold);
            any_side = true;
        }
        y += lh;
        side_sample(o, styles[k], px, y - 4.0);
        text(o, px + 30.0, y, 10.0, plain, &f.name);
    }
    y += 10.0;
    let h = y - top;
    let _ = write!(o, "</g>");
    let out = o.replace("PANEL_H", &format!("{h:.1}"));
    *o = out;
    h
}

/// Splits text into lines of at most `n` characters at spaces.
fn wrap(s: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for w in s.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > n {
            out.push(std::mem::take(&mut cur));
            cur.push_str("    ");
        }
        if !cur.is_empty() && !cur.ends_with("    ") {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The units on the map in a board, by id (what [`render_svg`] draws as counters).
pub fn units_on_map<'a>(board: impl Into<Board<'a>>) -> Vec<UnitId> {
    let snap = Snap::of(board.into());
    snap.units
        .iter()
        .enumerate()
        .filter(|(_, u)| matches!(u.loc, Location::Map(_)))
        .map(|(i, _)| snap.units.id(i).clone())
        .collect()
}
