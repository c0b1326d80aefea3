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
//! ```
//! use fm_core::huzzah::{engine, render, scenario::Scenario};
//! let sc = Scenario::builtin("huzzah-firefight").unwrap();
//! let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
//! let svg = render::render_svg(&sc, &s, &render::RenderOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"unit\"").count(), 7); // 7 units on the table
//! ```
//!
//! Elements carry classes and data attributes for tools and tests: `g.unit[data-unit]`
//! (with `data-side`, `data-status`, `data-hits`), `polygon.base[data-kind]`,
//! `line.front`, `g.badge[data-badge]`, `g.hits`, `g.officer[data-officer]`,
//! `circle.radius`, `g.terrain[data-terrain][data-kind]`, `g.arc[data-unit]`,
//! `g.legend`, `g.offtable[data-unit]`.

use crate::error::RuleError;
use crate::huzzah::firing::weapon_range;
use crate::huzzah::geometry::{self, Face, Facing, Len, Point, Shape, TRIG_ONE};
use crate::huzzah::scenario::{BaseKind, OfficerRank, Scenario, TerrainKind, UnitIx};
use crate::huzzah::state::{Phase, State, Status, Whereabouts};
use crate::ids::{Side, SidePair};
use crate::svg::xml_escape;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What to draw. Read from JSON with [`RenderOptions::from_json`] (what the C ABI and
/// `serve` pass): every field optional, an unknown field an error, the keys those of
/// Python's `Match.svg` (`arc_of`, `radii`, `scale`, `labels`, `region`).
///
/// ```
/// use fm_core::huzzah::{engine, render::{render_svg, RenderOptions}, scenario::Scenario};
/// let sc = Scenario::builtin("huzzah-firefight").unwrap();
/// let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let json = serde_json::json!({"arc_of": "fr-1", "region": {"from": [0, 0], "to": [60, 40]}});
/// let opts = RenderOptions::from_json(&sc, &json).unwrap();
/// let svg = render_svg(&sc, &s, &opts);
/// assert!(svg.contains(r#"class="arc" data-unit="fr-1""#));
/// assert!(RenderOptions::from_json(&sc, &serde_json::json!({"arc_of": "nobody"})).is_err());
/// ```
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    /// Draw each placed officer's command radius as a faint dashed circle (default
    /// false).
    pub radii: bool,
    /// Draw the arc of fire, weapon range and short range of the unit with this id
    /// (default none; nothing for an id the scenario lacks or a unit off the table,
    /// an error from `from_json`).
    pub arc_of: Option<String>,
    /// Pixels per centimetre of table for the SVG's `width` and `height` (default 5;
    /// 0 is the default, more than 100 is 100; from JSON, `"scale"`, 1 to 100 or an
    /// error). Bases, officers' markers and guns are drawn at table scale; labels,
    /// badges and strokes keep their size in pixels.
    #[serde(rename = "scale")]
    pub scale_px_per_cm: u32,
    /// Print unit and terrain ids (default true).
    pub labels: bool,
    /// Draw only this rectangle of the table (default: all of it); the legend stands
    /// beside it.
    pub region: Option<TableRegion>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            radii: false,
            arc_of: None,
            scale_px_per_cm: 5,
            labels: true,
            region: None,
        }
    }
}

/// A rectangle of the table in centimetres, in table coordinates: x from side A's
/// left, y from side A's edge (`{"from": [0, 0], "to": [60, 40]}`); the corners in
/// either order.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRegion {
    /// One corner, `[x, y]` in cm.
    pub from: [f64; 2],
    /// The opposite corner, `[x, y]` in cm.
    pub to: [f64; 2],
}

impl TableRegion {
    /// The rectangle in tenths of a millimetre: (x0, y0, x1, y1), x0 < x1, y0 < y1,
    /// within the table; `None` for a rectangle with no area on it.
    fn bounds(&self, width: i64, depth: i64) -> Option<(i64, i64, i64, i64)> {
        let l = |cm: f64| -> Option<i64> {
            cm.is_finite()
                .then(|| (cm * 100.0).round().clamp(-1e12, 1e12) as i64)
        };
        let (ax, ay, bx, by) = (
            l(self.from[0])?,
            l(self.from[1])?,
            l(self.to[0])?,
            l(self.to[1])?,
        );
        let (x0, x1) = (ax.min(bx).max(0), ax.max(bx).min(width));
        let (y0, y1) = (ay.min(by).max(0), ay.max(by).min(depth));
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }
}

impl RenderOptions {
    /// Reads options from JSON (`null` is the defaults) and checks them against the
    /// scenario: `arc_of` a unit id of the scenario, `scale` 1 to 100, the region's
    /// corners on the table with an area between them.
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the field and the problem.
    pub fn from_json(sc: &Scenario, v: &serde_json::Value) -> Result<RenderOptions, RuleError> {
        let o: RenderOptions = crate::query::render_options_from_json(v)?;
        let bad = |m: String| Err(RuleError::new("input", format!("render options: {m}")));
        if let Some(id) = &o.arc_of {
            if sc.unit_index(id).is_none() {
                return bad(format!("arc_of: unknown unit '{id}'"));
            }
        }
        if !(1..=100).contains(&o.scale_px_per_cm) {
            return bad(format!(
                "scale must be a number of pixels per centimetre from 1 to 100, not {}",
                o.scale_px_per_cm
            ));
        }
        if let Some(r) = &o.region {
            let t = sc.table();
            let (w, d) = (t.width.0 as f64 / 100.0, t.depth.0 as f64 / 100.0);
            for [x, y] in [r.from, r.to] {
                if !(x.is_finite()
                    && y.is_finite()
                    && (0.0..=w).contains(&x)
                    && (0.0..=d).contains(&y))
                {
                    return bad(format!(
                        "region: [{x}, {y}] is off the table, which is {w} x {d} cm"
                    ));
                }
            }
            if r.bounds(t.width.0, t.depth.0).is_none() {
                return bad("region: the two corners enclose no area".to_string());
            }
        }
        Ok(o)
    }
}

/// Fill colours of the two sides' bases (side A blue, side B red).
pub const SIDE_FILL: SidePair<&str> = SidePair {
    a: "#3d6fc4",
    b: "#c8403a",
};

/// The darker colour of each side: front edges, officers' outlines, radii.
pub const SIDE_DARK: SidePair<&str> = SidePair {
    a: "#12285c",
    b: "#5e120e",
};

/// The lighter fill of routing units.
pub const SIDE_ROUTING: SidePair<&str> = SidePair {
    a: "#b3c8ea",
    b: "#eeb6b2",
};

/// The radius of an officer's marker, in tenths of a millimetre (12 mm).
pub const OFFICER_RADIUS: Len = Len(120);

const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
/// The most characters of an id or name printed in the legend.
const LEGEND_CHARS: usize = 30;

/// Table to picture coordinates, and pixel sizes in picture units.
struct Frame {
    depth: i64,
    /// The table's width.
    width: i64,
    /// Pixels per centimetre (a pixel is 100 / scale picture units).
    scale: i64,
}

impl Frame {
    /// `n` pixels in picture units.
    fn px(&self, n: i64) -> i64 {
        n * 100 / self.scale
    }
    /// A table point in picture coordinates.
    fn xy(&self, p: Point) -> (i64, i64) {
        (p.x.0, self.depth - p.y.0)
    }
    fn points(&self, pts: &[Point]) -> String {
        let mut s = String::new();
        for (i, p) in pts.iter().enumerate() {
            let (x, y) = self.xy(*p);
            let _ = write!(s, "{}{x},{y}", if i > 0 { " " } else { "" });
        }
        s
    }
}

/// A box on the page, in picture coordinates (y down).
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Rect {
    /// Whether the two boxes overlap (touching edges do not).
    fn meets(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// The box round a unit's footprint on the page.
fn page_box(f: &Frame, shape: &Shape) -> Rect {
    let mut r = Rect {
        x0: i64::MAX,
        y0: i64::MAX,
        x1: i64::MIN,
        y1: i64::MIN,
    };
    for p in shape.footprint_corners() {
        let (x, y) = f.xy(p);
        r.x0 = r.x0.min(x);
        r.y0 = r.y0.min(y);
        r.x1 = r.x1.max(x);
        r.y1 = r.y1.max(y);
    }
    r
}

/// The width of a label in picture units, at font size `fs` (bold DejaVu Sans
/// averages 0.64 em a character).
fn label_width(s: &str, fs: i64) -> i64 {
    s.chars().count() as i64 * fs * 64 / 100
}

/// The box a label of width `w` and font size `fs` covers, set at `(x, y)` (the
/// baseline) with `anchor` ("start", "end" or "middle").
fn label_box(x: i64, y: i64, anchor: &str, w: i64, fs: i64) -> Rect {
    let x0 = match anchor {
        "start" => x,
        "end" => x - w,
        _ => x - w / 2,
    };
    Rect {
        x0,
        y0: y - fs * 80 / 100,
        x1: x0 + w,
        y1: y + fs * 20 / 100,
    }
}

/// Text with a white halo (drawn twice: the halo under the letters), centred on
/// `(x, y)` when `anchor` is `"middle"`.
#[allow(clippy::too_many_arguments)]
fn text(o: &mut String, x: i64, y: i64, size: i64, anchor: &str, attrs: &str, halo: i64, s: &str) {
    let s = xml_escape(s);
    if halo > 0 {
        let plain = without(&without(attrs, "fill"), "class");
        let _ = write!(
            o,
            r##"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{plain} fill="none" stroke="#ffffff" stroke-width="{halo}" stroke-linejoin="round" stroke-opacity="0.85">{s}</text>"##
        );
    }
    let _ = write!(
        o,
        r#"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{attrs}>{s}</text>"#
    );
}

/// `attrs` (` name="value"` pairs) without the attribute `name`.
fn without(attrs: &str, name: &str) -> String {
    let key = format!(" {name}=\"");
    match attrs.find(&key) {
        Some(i) => {
            let rest = &attrs[i + key.len()..];
            let end = rest.find('"').map_or(rest.len(), |e| e + 1);
            format!("{}{}", &attrs[..i], &rest[end..])
        }
        None => attrs.to_string(),
    }
}

/// The first `n` characters of `s`, with an ellipsis when cut.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(n.saturating_sub(1)).collect();
        c.push('…');
        c
    }
}

/// `n / d` rounded to nearest, ties away from zero (`d > 0`).
fn round_div(n: i128, d: i128) -> i128 {
    if n >= 0 {
        (n + d / 2) / d
    } else {
        -((-n + d / 2) / d)
    }
}

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

fn status_text(st: Status) -> &'static str {
    match st {
        Status::Formed => "formed",
        Status::Disordered => "disordered",
        Status::Routing => "routing",
    }
}

fn rank_letter(r: OfficerRank) -> &'static str {
    match r {
        OfficerRank::Cinc => "C",
        OfficerRank::Corps => "K",
        OfficerRank::Division => "D",
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

fn base_kind_name(k: BaseKind) -> &'static str {
    match k {
        BaseKind::Infantry => "infantry",
        BaseKind::IrregularInfantry => "irregular_infantry",
        BaseKind::BattleCavalry => "battle_cavalry",
        BaseKind::OtherCavalry => "other_cavalry",
        BaseKind::DivisionalArtillery => "divisional_artillery",
        BaseKind::FootArtillery => "foot_artillery",
        BaseKind::HorseArtillery => "horse_artillery",
        BaseKind::HeavyArtillery => "heavy_artillery",
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
    let base = sc.base().0.max(1);

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

    // ---- terrain
    for t in sc.terrain() {
        let (fill, stroke, w, extra) = terrain_style(t.kind, &f);
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

    // ---- objectives: a dashed circle of their radius, a star at their centre
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
    o.push_str("</g>");

    // ---- units on the table
    // Every unit's box on the page, so that a label set beside its unit keeps off the
    // others (and off the labels set before it).
    let unit_boxes: Vec<Option<Rect>> = s
        .units
        .iter()
        .map(|st| (st.at == Whereabouts::Table).then(|| page_box(&f, &st.shape)))
        .collect();
    let mut labels_set: Vec<Rect> = Vec::new();
    for (i, st) in s.units.iter().enumerate() {
        let Some(def) = sc.units().get(i) else {
            continue;
        };
        if st.at != Whereabouts::Table {
            continue;
        }
        let side = def.side;
        let shape = &st.shape;
        let fill = match st.status {
            Status::Routing => *SIDE_ROUTING.get(side),
            _ => *SIDE_FILL.get(side),
        };
        let id = def.id.to_string();
        let _ = write!(
            o,
            r#"<g class="unit" data-unit="{}" data-side="{side}" data-status="{}" data-hits="{}"><title>{}{}: {}, {} base(s){}</title>"#,
            xml_escape(&id),
            status_text(st.status),
            st.hits,
            xml_escape(&id),
            def.name
                .as_deref()
                .map(|n| format!(" ({})", xml_escape(n)))
                .unwrap_or_default(),
            status_text(st.status),
            shape.base_count(),
            if st.hits > 0 {
                format!(", {} hit(s)", st.hits)
            } else {
                String::new()
            }
        );
        let dash = if st.status == Status::Disordered {
            format!(r#" stroke-dasharray="{} {}""#, f.px(3), f.px(2))
        } else {
            String::new()
        };
        let quads = shape.bases();
        for (k, q) in quads.iter().enumerate() {
            let kind = st.bases.get(k).copied().unwrap_or(BaseKind::Infantry);
            let _ = write!(
                o,
                r##"<polygon class="base" data-kind="{}" points="{}" fill="{fill}" stroke="#161616" stroke-width="{}"{dash}/>"##,
                base_kind_name(kind),
                f.points(&q.0),
                f.px(1)
            );
        }
        // Guns: a small circle behind the base's front edge, its barrel to the edge
        // (filled: reserve artillery; hollow: divisional artillery).
        for (k, _) in quads.iter().enumerate() {
            let kind = st.bases.get(k).copied().unwrap_or(BaseKind::Infantry);
            let reserve = kind.is_reserve_artillery();
            if !reserve && kind != BaseKind::DivisionalArtillery {
                continue;
            }
            let Some(mid) = shape.base_front_mid(k) else {
                continue;
            };
            let c = geometry::rotate(mid, shape.facing, Len::ZERO, Len(-base * 30 / 100));
            let (mx, my) = f.xy(mid);
            let (cx, cy) = f.xy(c);
            let (gf, gs) = if reserve {
                ("#111111", "#ffffff")
            } else {
                ("#ffffff", "#111111")
            };
            let _ = write!(
                o,
                r##"<g class="gun" data-kind="{}"><line x1="{cx}" y1="{cy}" x2="{mx}" y2="{my}" stroke="#111111" stroke-width="{}"/><circle cx="{cx}" cy="{cy}" r="{}" fill="{gf}" stroke="{gs}" stroke-width="{}"/></g>"##,
                base_kind_name(kind),
                base * 8 / 100,
                base * 13 / 100,
                base * 4 / 100
            );
        }
        // The front edge of the front rank, dark, so the facing shows.
        let front = shape.face(Face::Front);
        let (x1, y1) = f.xy(front.a);
        let (x2, y2) = f.xy(front.b);
        let _ = write!(
            o,
            r#"<line class="front" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="{}" stroke-linecap="butt"/>"#,
            SIDE_DARK.get(side),
            f.px(3)
        );
        // A square faces every way (page 22: "alternating bases of the unit face the
        // rear"): its other faces are dark too.
        if shape.square {
            for face in [Face::Right, Face::Rear, Face::Left] {
                let e = shape.face(face);
                let (x1, y1) = f.xy(e.a);
                let (x2, y2) = f.xy(e.b);
                let _ = write!(
                    o,
                    r#"<line class="square-face" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="{}" stroke-linecap="butt"/>"#,
                    SIDE_DARK.get(side),
                    f.px(3)
                );
            }
        }
        // Badges and hits at the corners of the footprint's box on the page.
        let own = page_box(&f, shape);
        let (bx0, by0, bx1) = (own.x0, own.y0, own.x1);
        let badge = match st.status {
            Status::Formed => None,
            Status::Disordered => Some(("D", "#ffd23f", "#111111")),
            Status::Routing => Some(("R", "#2a2a2a", "#ffffff")),
        };
        if let Some((letter, bg, fg)) = badge {
            let h = f.px(12);
            let _ = write!(
                o,
                r#"<g class="badge" data-badge="{letter}"><rect x="{}" y="{}" width="{h}" height="{h}" rx="{}" fill="{bg}" stroke="{fg}" stroke-width="{}"/>"#,
                bx1 - h / 2,
                by0 - h / 2,
                f.px(2),
                f.px(1)
            );
            text(
                o,
                bx1,
                by0 + f.px(4),
                f.px(10),
                "middle",
                &format!(r#" font-weight="bold" fill="{fg}""#),
                0,
                letter,
            );
            o.push_str("</g>");
        }
        if st.hits > 0 {
            let r = f.px(3);
            let _ = write!(o, r#"<g class="hits" data-hits="{}">"#, st.hits);
            if st.hits <= 3 {
                for j in 0..i64::from(st.hits) {
                    let _ = write!(
                        o,
                        r##"<circle cx="{}" cy="{by0}" r="{r}" fill="#111111" stroke="#ffffff" stroke-width="{}"/>"##,
                        bx0 + r + j * r * 5 / 2,
                        f.px(1)
                    );
                }
            } else {
                let h = f.px(12);
                let _ = write!(
                    o,
                    r##"<circle cx="{}" cy="{by0}" r="{}" fill="#111111"/>"##,
                    bx0 + h / 2,
                    h / 2
                );
                text(
                    o,
                    bx0 + h / 2,
                    by0 + f.px(3),
                    f.px(8),
                    "middle",
                    r##" font-weight="bold" fill="#ffffff""##,
                    0,
                    &st.hits.to_string(),
                );
            }
            o.push_str("</g>");
        }
        if opts.labels {
            let (cx, cy) = f.xy(shape.centre());
            let text_w = label_width(&id, label_fs);
            let gap = f.px(3);
            let mid = cy + label_fs * 35 / 100;
            // At the centre when the id fits on the unit; else beside it: right, left,
            // above or below (kept on the table), the first place clear of the table's
            // edges, the other units and the labels already set; failing that, the
            // first on the table.
            // The box spans x - text_w / 2 to x + (text_w - text_w / 2).
            let over = cx.clamp(
                text_w / 2,
                (f.width - (text_w - text_w / 2)).max(text_w / 2),
            );
            let candidates: Vec<(i64, i64, &str)> = if text_w <= shape.width().0 {
                vec![(cx, mid, "middle")]
            } else {
                vec![
                    (own.x1 + gap, mid, "start"),
                    (own.x0 - gap, mid, "end"),
                    (over, own.y0 - f.px(8), "middle"),
                    (over, own.y1 + label_fs + gap, "middle"),
                ]
            };
            let text_box =
                |(x, y, anchor): (i64, i64, &str)| label_box(x, y, anchor, text_w, label_fs);
            let on_table = |r: &Rect| r.x0 >= 0 && r.x1 <= f.width && r.y0 >= 0 && r.y1 <= f.depth;
            let clear = |r: &Rect| {
                on_table(r)
                    && !labels_set.iter().any(|l| l.meets(r))
                    && !unit_boxes
                        .iter()
                        .enumerate()
                        .any(|(j, b)| j != i && b.as_ref().is_some_and(|b| b.meets(r)))
            };
            let at = candidates
                .iter()
                .copied()
                .find(|c| clear(&text_box(*c)))
                .or_else(|| candidates.iter().copied().find(|c| on_table(&text_box(*c))))
                .unwrap_or(candidates[0]);
            labels_set.push(text_box(at));
            text(
                o,
                at.0,
                at.1,
                label_fs,
                at.2,
                r##" class="label" font-weight="bold" fill="#111111""##,
                halo,
                &id,
            );
        }
        o.push_str("</g>");
    }

    // ---- officers
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
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{px_w}" height="{px_h}" viewBox="{vx} {vy} {total_w} {total_h}" font-family="{FONT}"><title>{}</title>{defs}<rect x="{vx}" y="{vy}" width="{total_w}" height="{total_h}" fill="#fbfaf5"/>"##,
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

/// The placeholder of the ids' suffix in `id` and `url(#…)` values: a control
/// character, which `xml_escape` never lets through from text.
const ID: char = '\u{1}';

/// The arc of fire of `u`: the translucent wedge within its weapon range into `o`
/// (under the units), the rays, range circles and their labels into `over`.
#[allow(clippy::too_many_arguments)]
fn draw_arc(
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
        r#"<g class="arc" data-unit="{id}" data-range="{}">"#,
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
                r#"<path class="arc-area" d="M{ax},{ay} L{lx},{ly} A{r},{r} 0 0,1 {rx},{ry} L{bx},{by} Z" fill="{colour}" fill-opacity="0.16" stroke="none"/>"#,
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

/// The legend box right of the table: a key, then the units and officers off the
/// table. Returns its height.
#[allow(clippy::too_many_arguments)]
fn draw_legend(
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
    for (fill, stroke, what) in [
        ("#111111", "#ffffff", "reserve artillery base"),
        ("#ffffff", "#111111", "divisional artillery base"),
    ] {
        y += lh;
        let _ = write!(
            b,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"##,
            px + sw / 2,
            y - f.px(4),
            f.px(4),
            f.px(1)
        );
        text(b, tx, y, fs, "start", plain, 0, what);
    }
    y += lh;
    let _ = write!(
        b,
        r##"<circle cx="{}" cy="{}" r="{}" fill="#111111"/>"##,
        px + sw / 2,
        y - f.px(4),
        f.px(3)
    );
    text(
        b,
        tx,
        y,
        fs,
        "start",
        plain,
        0,
        "odd hits (a number past 3)",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::engine::new_game;
    use crate::huzzah::scenario::{from_json_value, validate};
    use serde_json::{json, Value};

    /// The built-in firefight once its set-up is over.
    fn firefight() -> (Scenario, State) {
        let sc = Scenario::builtin("huzzah-firefight").unwrap();
        let s = after_setup(&sc, 1);
        (sc, s)
    }

    /// The state once the set-up is over: every officer placed at his scenario
    /// position (the firefight's units start placed).
    fn after_setup(sc: &Scenario, seed: u64) -> State {
        let mut rng = crate::rng::rng_from_seed(seed);
        let (mut s, _) = new_game(sc, &mut rng);
        while let crate::huzzah::state::Pending::PlaceOfficer { .. } = s.pending {
            let cmd = crate::huzzah::legal::legal_commands(sc, &s)
                .into_iter()
                .find(|c| {
                    matches!(
                        c,
                        crate::huzzah::command::Command::PlaceOfficer { at: None, .. }
                    )
                })
                .unwrap();
            let ev = crate::huzzah::engine::apply(sc, &s, &cmd, &mut rng).unwrap();
            s.apply_events(sc, &ev);
        }
        s
    }

    fn ix(sc: &Scenario, id: &str) -> UnitIx {
        sc.unit_index(id).unwrap()
    }

    /// A tiny XML well-formedness check: every tag closed in order, attributes
    /// quoted, no stray `<`, `>` or `&` in text or attribute values, one root.
    fn check_xml(svg: &str) -> Result<(), String> {
        let mut stack: Vec<String> = Vec::new();
        let mut roots = 0;
        let mut rest = svg;
        let check_text = |t: &str| -> Result<(), String> {
            if t.contains('>') {
                return Err(format!("a stray > in {t:?}"));
            }
            let mut r = t;
            while let Some(i) = r.find('&') {
                let tail = &r[i..];
                let ok = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| tail.starts_with(e));
                if !ok {
                    return Err(format!("a bare & in {t:?}"));
                }
                r = &r[i + 1..];
            }
            Ok(())
        };
        while let Some(i) = rest.find('<') {
            let before = &rest[..i];
            if stack.is_empty() && !before.trim().is_empty() {
                return Err(format!("text outside the root: {before:?}"));
            }
            check_text(before)?;
            let after = &rest[i + 1..];
            // The tag ends at the first '>' outside quotes.
            let mut in_q = false;
            let mut end = None;
            for (k, ch) in after.char_indices() {
                match ch {
                    '"' => in_q = !in_q,
                    '<' if in_q => return Err("a < inside an attribute".into()),
                    '>' if !in_q => {
                        end = Some(k);
                        break;
                    }
                    _ => {}
                }
            }
            let end = end.ok_or("an unclosed tag")?;
            let tag = &after[..end];
            rest = &after[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(open) if open == name.trim() => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
                continue;
            }
            let self_closing = tag.ends_with('/');
            let inner = tag.trim_end_matches('/');
            let name: String = inner.chars().take_while(|c| !c.is_whitespace()).collect();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!("a bad tag name in <{tag}>"));
            }
            // Attributes: name="value" pairs.
            let mut attrs = inner[name.len()..].trim();
            let mut seen: Vec<&str> = Vec::new();
            while !attrs.is_empty() {
                let eq = attrs
                    .find("=\"")
                    .ok_or(format!("an unquoted attribute in <{tag}>"))?;
                let an = &attrs[..eq];
                if an.is_empty() || !an.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    return Err(format!("a bad attribute name {an:?}"));
                }
                if seen.contains(&an) {
                    return Err(format!("a duplicate attribute {an} in <{tag}>"));
                }
                seen.push(an);
                let v = &attrs[eq + 2..];
                let close = v.find('"').ok_or("an unterminated attribute")?;
                check_text(&v[..close])?;
                attrs = v[close + 1..].trim_start();
            }
            if stack.is_empty() {
                roots += 1;
            }
            if !self_closing {
                stack.push(name);
            }
        }
        if !rest.trim().is_empty() {
            return Err(format!("text after the root: {rest:?}"));
        }
        if !stack.is_empty() {
            return Err(format!("unclosed: {stack:?}"));
        }
        if roots != 1 {
            return Err(format!("{roots} roots"));
        }
        Ok(())
    }

    #[test]
    fn the_checker_catches_broken_documents() {
        assert!(check_xml("<svg><g></g></svg>").is_ok());
        assert!(check_xml("<svg><g></svg>").is_err());
        assert!(check_xml("<svg><g/></svg><svg/>").is_err());
        assert!(check_xml("<svg>a & b</svg>").is_err());
        assert!(check_xml(r#"<svg a="<b>"/>"#).is_err());
        assert!(check_xml("<svg a=b/>").is_err());
        assert!(check_xml("<svg><text>&lt;ok&gt;</text></svg>").is_ok());
        assert!(check_xml(r#"<svg a="1" a="2"/>"#).is_err());
        assert_eq!(
            without(r##" class="x" fill="#fff" y="1""##, "fill"),
            r#" class="x" y="1""#
        );
    }

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
    fn bases_at_their_exact_corners_facing_0_and_90() {
        let (sc, mut s) = firefight();
        let (a, b) = (ix(&sc, "fr-2"), ix(&sc, "fr-3"));
        // fr-2: two bases abreast, anchor (500 mm, 300 mm), facing 0 (up the page).
        s.unit_mut(a).shape = Shape::new(Point::mm(500, 300), Facing(0), vec![2], Len(400));
        // fr-3: two bases abreast, anchor (1000 mm, 300 mm), facing 90 (right).
        s.unit_mut(b).shape = Shape::new(Point::mm(1000, 300), Facing(90), vec![2], Len(400));
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        // Table depth 12000: y on the page is 12000 - y.
        for pts in [
            // Facing 0: front-left, front-right, rear-right, rear-left.
            "4600,9000 5000,9000 5000,9400 4600,9400",
            "5000,9000 5400,9000 5400,9400 5000,9400",
            // Facing 90: its left is +y (up the page), its rear -x.
            "10000,8600 10000,9000 9600,9000 9600,8600",
            "10000,9000 10000,9400 9600,9400 9600,9000",
        ] {
            assert_eq!(
                svg.matches(&format!(r#"points="{pts}""#)).count(),
                1,
                "{pts}"
            );
        }
        // The front edges.
        assert!(svg.contains(r#"class="front" x1="4600" y1="9000" x2="5400" y2="9000""#));
        assert!(svg.contains(r#"class="front" x1="10000" y1="8600" x2="10000" y2="9400""#));
        // The labels at the centres: (500, 280) and (980, 300) mm.
        let fs = 9 * 100 / 5;
        assert!(svg.contains(&format!(
            r#"<text x="5000" y="{}" font-size="{fs}" text-anchor="middle" class="label""#,
            9200 + fs * 35 / 100
        )));
        assert!(svg.contains(&format!(
            r#"<text x="9800" y="{}" font-size="{fs}" text-anchor="middle" class="label""#,
            9000 + fs * 35 / 100
        )));
    }

    /// Where a unit's label is printed: its x, y and text-anchor.
    fn label_of(svg: &str, id: &str) -> (i64, i64, String) {
        let end = svg
            .find(&format!(
                r##"class="label" font-weight="bold" fill="#111111">{id}</text>"##
            ))
            .unwrap_or_else(|| panic!("no label for {id}"));
        let start = svg[..end].rfind("<text ").unwrap();
        let attr = |name: &str| {
            let t = &svg[start..end];
            let i = t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            t[i..i + t[i..].find('"').unwrap()].to_string()
        };
        (
            attr("x").parse().unwrap(),
            attr("y").parse().unwrap(),
            attr("text-anchor"),
        )
    }

    #[test]
    fn a_label_beside_its_unit_keeps_off_the_next_unit() {
        let (sc, mut s) = firefight();
        let (guns, b) = (ix(&sc, "fr-guns"), ix(&sc, "fr-2"));
        // fr-guns: one base (40 mm) at (500, 300) mm, narrower than its id, so its label
        // goes beside it: x 4800-5200 on the page.
        s.unit_mut(guns).shape = Shape::new(Point::mm(500, 300), Facing(0), vec![1], Len(400));
        // fr-2 far away: the label is right of the unit.
        s.unit_mut(b).shape = Shape::new(Point::mm(1500, 900), Facing(0), vec![2], Len(400));
        let f = Frame {
            depth: sc.table().depth.0,
            width: sc.table().width.0,
            scale: 5,
        };
        let gap = f.px(3);
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        let (x, _, anchor) = label_of(&svg, "fr-guns");
        assert_eq!((x, anchor.as_str()), (5200 + gap, "start"));
        // fr-2 just right of it (x 5400-6200): the label goes left of fr-guns, and its
        // box meets no unit.
        s.unit_mut(b).shape = Shape::new(Point::mm(580, 300), Facing(0), vec![2], Len(400));
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        let (x, y, anchor) = label_of(&svg, "fr-guns");
        assert_eq!((x, anchor.as_str()), (4800 - gap, "end"));
        let label = label_box(x, y, "end", label_width("fr-guns", f.px(9)), f.px(9));
        for (i, st) in s.units.iter().enumerate() {
            if st.at == Whereabouts::Table {
                let unit = page_box(&f, &st.shape);
                assert!(!label.meets(&unit), "the label covers unit {i}: {unit:?}");
            }
        }
        // At the table's right edge, fr-2 on its left, the far edge above: below it,
        // still on the table, at 5 px a cm and at 7 (where the label's width in
        // picture units is odd: 573).
        let right = sc.table().width.0 / 10 - 20;
        let top = sc.table().depth.0 / 10 - 20;
        s.unit_mut(guns).shape = Shape::new(Point::mm(right, top), Facing(0), vec![1], Len(400));
        s.unit_mut(b).shape = Shape::new(Point::mm(right - 80, top), Facing(0), vec![2], Len(400));
        for scale in [5, 7] {
            let f = Frame { scale, ..f };
            let fs = f.px(9);
            let text_w = label_width("fr-guns", fs);
            let opts = RenderOptions {
                scale_px_per_cm: scale as u32,
                ..RenderOptions::default()
            };
            let svg = render_svg(&sc, &s, &opts);
            let (x, y, anchor) = label_of(&svg, "fr-guns");
            assert_eq!(anchor, "middle", "scale {scale}");
            assert!(x - text_w / 2 + text_w <= f.width, "scale {scale}: {x}");
            let unit = page_box(&f, &s.unit(guns).shape);
            assert!(y - fs > unit.y1, "below the unit: {y} vs {unit:?}");
        }
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

    /// The firefight with hostile ids and every kind of terrain.
    fn hostile() -> Value {
        let mut v: Value =
            serde_json::from_str(include_str!("../../scenarios/huzzah-firefight.json")).unwrap();
        v.as_object_mut().unwrap().remove("system");
        v["name"] = json!("Fight at <Les \"Quatre\" Bras> & 'Co'");
        v["sides"]["a"]["name"] = json!("O'Brien's <French>");
        v["sides"]["a"]["units"][0]["id"] = json!("<script>&");
        v["sides"]["a"]["units"][0]["name"] = json!("</title><b>bold</b>");
        v["sides"]["a"]["officers"][0]["id"] = json!("fr\"cinc'");
        v["terrain"] = json!([
            {"id": "w<1>", "kind": "woods",
             "polygon": [[100, 100], [500, 100], [500, 300], [100, 300]],
             "sectors": [
                 [[100, 100], [300, 100], [300, 300], [100, 300]],
                 [[300, 100], [500, 100], [500, 300], [300, 300]]
             ]},
            {"id": "village", "kind": "buildings",
             "polygon": [[1500, 100], [1700, 100], [1700, 250], [1500, 250]]},
            {"id": "hedge&", "kind": "hedge",
             "polygon": [[600, 1050], [900, 1050], [900, 1065], [600, 1065]]},
            {"id": "orchard", "kind": "orchard",
             "polygon": [[1450, 950], [1700, 950], [1700, 1150], [1450, 1150]]},
            {"id": "wall", "kind": "wall",
             "polygon": [[100, 1050], [400, 1050], [400, 1062], [100, 1062]]},
            {"id": "redoubt", "kind": "strongpoint",
             "polygon": [[150, 700], [350, 700], [350, 900], [150, 900]]}
        ]);
        v
    }

    fn load(v: Value) -> Scenario {
        validate(from_json_value(v).unwrap()).unwrap()
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

    #[test]
    fn disorder_rout_and_hits_are_marked() {
        let (sc, mut s) = firefight();
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        assert!(!svg.contains(r#"class="badge""#));
        assert!(!svg.contains(r#"class="hits""#));
        assert!(!svg.contains("stroke-dasharray=\"60 40\""));
        let (d, r, h, many) = (
            ix(&sc, "fr-1"),
            ix(&sc, "br-2"),
            ix(&sc, "fr-3"),
            ix(&sc, "br-3"),
        );
        s.unit_mut(d).status = Status::Disordered;
        s.unit_mut(r).status = Status::Routing;
        s.unit_mut(h).hits = 2;
        s.unit_mut(many).hits = 5;
        let svg = render_svg(&sc, &s, &RenderOptions::default());
        check_xml(&svg).unwrap();
        assert_eq!(svg.matches(r#"data-badge="D""#).count(), 1);
        assert_eq!(svg.matches(r#"data-badge="R""#).count(), 1);
        assert!(svg.contains(r#"data-unit="fr-1" data-side="a" data-status="disordered""#));
        assert!(svg.contains(r#"data-unit="br-2" data-side="b" data-status="routing""#));
        // Disordered bases dashed (3 px, 2 px at 5 px a cm), routing ones lighter.
        assert_eq!(svg.matches("stroke-dasharray=\"60 40\"").count(), 4);
        assert_eq!(
            svg.matches(&format!(r#"fill="{}""#, SIDE_ROUTING.b))
                .count(),
            4
        );
        // Two pips for fr-3, a number for br-3.
        assert!(svg.contains(r#"<g class="hits" data-hits="2">"#));
        let pips = svg
            .split(r#"<g class="hits" data-hits="2">"#)
            .nth(1)
            .unwrap();
        let pips = pips.split("</g>").next().unwrap();
        assert_eq!(pips.matches("<circle").count(), 2);
        assert!(svg.contains(r#"<g class="hits" data-hits="5">"#));
        assert!(svg.contains(">5</text>"));
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
        assert!(svg.contains(r#"<g class="arc" data-unit="fr-2" data-range="2000">"#));
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
        assert!(svg.contains(r#"<g class="arc" data-unit="fr-guns" data-range="6000">"#));
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

    /// The picture in docs/ (shown by the README) is the firefight's start with the
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
