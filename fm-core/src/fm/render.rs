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
//! // 10 units start on the map, 2 more in the reinforcement boxes below it.
//! assert_eq!(svg.matches("class=\"unit\"").count(), 12);
//! let map_only = render_svg(m.scenario(), m.state(), &RenderOptions::map_only());
//! assert_eq!(map_only.matches("class=\"unit\"").count(), 10);
//! ```
//!
//! Geometry: flat-topped hexes in vertical columns, hex "CCRR" at column CC and row RR;
//! the scenario's [`Layout`] says which columns sit half a hex lower.

use crate::error::RuleError;
use crate::fm::combat::{combat_reading, CrtReading};
use crate::fm::hex::{Hex, Layout};
use crate::fm::hidden::sample_consistent;
use crate::fm::scenario::{HexsideTerrain, MoveCost, Phase, Scenario, StartData, NO_HEX};
use crate::fm::state::{Combat, CombatStage, Location, Outcome, Pending, State, UnitState};
use crate::fm::view::View;
use crate::ids::{Side, SidePair, UnitId};
use serde::{Deserialize, Serialize};
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
/// (breach, aircraft, ...) or for annotations. In JSON: `{"hex": "0505", "kind":
/// "breach", "label": "BR"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapMarker {
    /// Where.
    pub hex: Hex,
    /// Kind: `"breach"`, `"aircraft"`, `"support"` get their own colours; anything else
    /// is drawn grey.
    pub kind: String,
    /// Short text printed on the marker (a few characters).
    #[serde(default)]
    pub label: String,
}

/// The smallest [`RenderOptions::hex_size`]: `from_json` refuses a smaller one, `render_svg` draws it at this one.
pub const MIN_HEX_SIZE: f64 = 10.0;
/// The largest [`RenderOptions::hex_size`]: `from_json` refuses a larger one, `render_svg` draws it at this one.
pub const MAX_HEX_SIZE: f64 = 200.0;

/// What each counter prints under its type box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitLabels {
    /// The unit's printed name ("1st Bn").
    #[default]
    Name,
    /// The unit's id, the name commands use ("red-1").
    Id,
}

/// The part of the map drawn: the rectangle of columns and rows that `from` and `to`
/// span (in either order), or the smallest such rectangle holding every hex of a list.
/// In JSON: `{"from": "0101", "to": "1010"}` or `["0604", "0907", "0805"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Region {
    /// The rectangle with these two hexes at opposite corners.
    Rect {
        /// One corner.
        from: Hex,
        /// The opposite corner.
        to: Hex,
    },
    /// The bounding rectangle of these hexes (at least one).
    Hexes(Vec<Hex>),
}

impl Region {
    /// The hexes that fix the rectangle.
    fn corners(&self) -> Vec<Hex> {
        match self {
            Region::Rect { from, to } => vec![*from, *to],
            Region::Hexes(v) => v.clone(),
        }
    }

    /// Columns and rows drawn: (first column, last column, first row, last row).
    fn bounds(&self) -> Option<(i32, i32, i32, i32)> {
        let c = self.corners();
        let cols = c.iter().map(|h| h.col as i32);
        let rows = c.iter().map(|h| h.row as i32);
        Some((
            cols.clone().min()?,
            cols.max()?,
            rows.clone().min()?,
            rows.max()?,
        ))
    }
}

impl<'de> Deserialize<'de> for Region {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Region, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Region;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(r#"{"from": hex, "to": hex} or a list of hexes"#)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Region, A::Error> {
                let mut v = Vec::new();
                while let Some(h) = a.next_element::<Hex>()? {
                    if v.len() >= 100_000 {
                        return Err(serde::de::Error::custom("more than 100000 hexes"));
                    }
                    v.push(h);
                }
                if v.is_empty() {
                    return Err(serde::de::Error::custom("an empty list of hexes"));
                }
                Ok(Region::Hexes(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Region, A::Error> {
                let (mut from, mut to) = (None, None);
                while let Some(k) = a.next_key::<String>()? {
                    let slot = match k.as_str() {
                        "from" => &mut from,
                        "to" => &mut to,
                        other => {
                            return Err(serde::de::Error::unknown_field(other, &["from", "to"]))
                        }
                    };
                    if slot.is_some() {
                        return Err(serde::de::Error::custom(format!("duplicate field `{k}`")));
                    }
                    *slot = Some(a.next_value::<Hex>()?);
                }
                match (from, to) {
                    (Some(from), Some(to)) => Ok(Region::Rect { from, to }),
                    (None, _) => Err(serde::de::Error::missing_field("from")),
                    (_, None) => Err(serde::de::Error::missing_field("to")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Rendering options. `RenderOptions::default()` is what the Python `Match` and the
/// `play` example use.
///
/// Read from JSON with [`RenderOptions::from_json`] (what the C ABI and `serve` pass):
/// every field is optional, an unknown field is an error.
///
/// ```
/// use fm_core::{render_svg, Match, RenderOptions};
/// let m = Match::new_builtin("system-demo", 1).unwrap();
/// let opts = RenderOptions::from_json(
///     m.scenario(),
///     &serde_json::json!({"region": {"from": "0303", "to": "0606"}, "unit_labels": "id"}),
/// )
/// .unwrap();
/// let svg = render_svg(m.scenario(), m.state(), &opts);
/// assert!(svg.contains(r#"data-hex="0404""#) && !svg.contains(r#"data-hex="0101""#));
/// assert!(RenderOptions::from_json(m.scenario(), &serde_json::json!({"hex_size": 5})).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    /// Hex size: centre to corner, in pixels (default 40), [`MIN_HEX_SIZE`] to
    /// [`MAX_HEX_SIZE`] (clamped by `render_svg`; NaN is the default; an error from
    /// `from_json`).
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
    /// Draw only this part of the map (default: all of it). The panel and charts are
    /// laid out beside and below the part drawn.
    pub region: Option<Region>,
    /// What counters print: names (default) or ids.
    pub unit_labels: UnitLabels,
    /// The Combat Results Table below the map, the attack in progress's line and column
    /// highlighted (default true).
    pub crt: bool,
    /// The terrain effects chart: each terrain's movement cost and CRT line (default
    /// true).
    pub terrain_chart: bool,
    /// The turn track, the current turn marked and each turn's reinforcements counted
    /// (default true).
    pub turn_track: bool,
    /// Each side's reinforcement and eliminated boxes, with small counters (default
    /// true).
    pub boxes: bool,
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
            region: None,
            unit_labels: UnitLabels::Name,
            crt: true,
            terrain_chart: true,
            turn_track: true,
            boxes: true,
        }
    }
}

impl RenderOptions {
    /// The map, and nothing else: no panel, no charts.
    pub fn map_only() -> RenderOptions {
        RenderOptions {
            panel: false,
            crt: false,
            terrain_chart: false,
            turn_track: false,
            boxes: false,
            ..RenderOptions::default()
        }
    }

    /// Reads options from JSON (`null` is the defaults) and checks them against the
    /// scenario with [`RenderOptions::validate`].
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the field: not an object, an unknown
    /// field, a value of the wrong type, or what `validate` refuses.
    pub fn from_json(sc: &Scenario, v: &serde_json::Value) -> Result<RenderOptions, RuleError> {
        let o: RenderOptions = crate::query::render_options_from_json(v)?;
        o.validate(sc)?;
        Ok(o)
    }

    /// Checks options against a scenario: `hex_size` a number from [`MIN_HEX_SIZE`] to
    /// [`MAX_HEX_SIZE`], every hex named (markers, highlight, region) on the map.
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the first problem.
    pub fn validate(&self, sc: &Scenario) -> Result<(), RuleError> {
        if !(MIN_HEX_SIZE..=MAX_HEX_SIZE).contains(&self.hex_size) {
            return Err(RuleError::new(
                "input",
                format!(
                    "render options: hex_size must be a number of pixels from {MIN_HEX_SIZE} \
                     to {MAX_HEX_SIZE}, not {}",
                    self.hex_size
                ),
            ));
        }
        let on_map = |h: &Hex, what: &str| -> Result<(), RuleError> {
            match sc.hex_index(*h) {
                Some(_) => Ok(()),
                None => Err(RuleError::new(
                    "input",
                    format!("render options: {what}: {h} is off the map"),
                )),
            }
        };
        for (i, m) in self.markers.iter().enumerate() {
            on_map(&m.hex, &format!("markers[{i}]"))?;
        }
        for (i, h) in self.highlight.iter().enumerate() {
            on_map(h, &format!("highlight[{i}]"))?;
        }
        if let Some(r) = &self.region {
            let c = r.corners();
            if c.is_empty() {
                return Err(RuleError::new(
                    "input",
                    "render options: region: an empty list of hexes",
                ));
            }
            for h in &c {
                on_map(h, "region")?;
            }
        }
        Ok(())
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

pub use crate::svg::xml_escape;

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

/// Units as a reader finds them on the board and names them in a command: "1st Bn
/// (red-1)".
fn unit_list(sc: &Scenario, ids: &[UnitId]) -> String {
    ids.iter()
        .map(|id| match sc.unit_index(id) {
            Some(i) => format!("{} ({id})", sc.units[i as usize].data.name),
            None => id.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
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
        Pending::ChooseLoss {
            side, candidates, ..
        } => format!(
            "{} chooses a step loss among {}",
            name(side),
            unit_list(sc, candidates)
        ),
        Pending::Retreat { side, hexes, units } => {
            format!(
                "{} retreats {} {hexes} hex(es) or holds",
                name(side),
                unit_list(sc, units)
            )
        }
        Pending::Advance { side, units, .. } => format!(
            "{} may advance after combat with {}",
            name(side),
            unit_list(sc, units)
        ),
        Pending::LostBattalion { side } => {
            format!("{} may declare the Lost Battalion", name(side))
        }
        Pending::ArtilleryRetreat { side, unit, .. } => {
            format!(
                "{} retreats {} one hex or takes the artillery hits",
                name(side),
                unit_list(sc, std::slice::from_ref(unit))
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

/// The placeholder for the picture's id prefix in `id` and `href` values: a control
/// character, which `xml_escape` never lets through from text, replaced at the end.
const ID: char = '\u{1}';

/// Text with a white halo, so that it reads over any terrain in every renderer: the
/// same text drawn first with a thick white stroke (`class="halo"`), then plainly over
/// it (`paint-order`, which draws a halo in one element, is ignored by cairo and
/// others, whose pictures then show the stroke over the letters).
fn halo_text(o: &mut String, x: f64, y: f64, size: f64, attrs: &str, s: &str, halo: f64) {
    let s = xml_escape(s);
    let _ = write!(
        o,
        r##"<text class="halo" x="{x:.1}" y="{y:.1}" font-size="{size:.1}"{attrs} fill="#fff" stroke="#fff" stroke-width="{halo:.1}" stroke-linejoin="round">{s}</text><text x="{x:.1}" y="{y:.1}" font-size="{size:.1}"{attrs} fill="#222">{s}</text>"##
    );
}

/// A 32-bit FNV-1a hash: the picture's id prefix from its shared definitions, so that
/// two boards in one HTML page (a notebook) never take each other's definitions.
fn fnv(s: &str) -> u32 {
    let mut h: u32 = 2166136261;
    for b in s.bytes() {
        h = (h ^ b as u32).wrapping_mul(16777619);
    }
    h
}

/// Renders a board as an SVG document.
///
/// `board` is a [`State`] (everything) or a [`View`] (one side's view: the other side's
/// face-down support fire markers show as "?", its unused allotment as a count).
/// Each unit on the map is one `<g class="unit" data-unit="…">` element, each hex of
/// the part drawn one `<use class="hex" data-hex="…">` of a shared terrain definition.
/// Below the map (each behind an option): the CRT (`g.crt`), the terrain effects chart
/// (`g.terrain-chart`), the turn track (`g.turn-track`) and the reinforcement and
/// eliminated boxes (`g.boxes`).
pub fn render_svg<'a>(sc: &Scenario, board: impl Into<Board<'a>>, opts: &RenderOptions) -> String {
    let board = board.into();
    let snap = Snap::of(board);
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
    // The region: its rectangle within the map's (a region off the map draws the
    // whole map; `RenderOptions::validate` refuses one).
    if let Some((c0, c1, r0, r1)) = opts.region.as_ref().and_then(Region::bounds) {
        let (c0, c1) = (c0.max(cmin), c1.min(cmax));
        let (r0, r1) = (r0.max(rmin), r1.min(rmax));
        if c0 <= c1 && r0 <= r1 {
            (cmin, cmax, rmin, rmax) = (c0, c1, r0, r1);
        }
    }
    let shown = |h: Hex| {
        let (c, r) = (h.col as i32, h.row as i32);
        (cmin..=cmax).contains(&c) && (rmin..=rmax).contains(&r)
    };
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

    let mut defs = String::new();
    let mut body = String::with_capacity(64 * 1024);
    let o = &mut body;

    // ---- hexes: one shared definition per terrain mix (fill, outline, symbols),
    // each hex a `<use>` of it
    let _ = write!(
        o,
        r#"<g class="map" transform="translate(0,{header})" clip-path="url(#{ID}map)">"#
    );
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
    let mut kinds: BTreeMap<u64, usize> = BTreeMap::new();
    for h in sc.hexes.iter().filter(|h| shown(h.hex)) {
        let next = kinds.len();
        let kind = *kinds.entry(h.terrain).or_insert_with(|| {
            let fill = base_of(h.terrain).map_or("#eeeeee".to_string(), |k| terrain_colour(&th[k].id));
            let _ = write!(
                defs,
                r##"<g id="{ID}h{next}"><polygon points="{}" fill="{fill}" stroke="#8a8a7a" stroke-width="0.8"/>"##,
                geo.polygon((0.0, 0.0), 1.0)
            );
            for (k, t) in th.iter().enumerate() {
                if h.terrain & (1 << k) != 0 {
                    terrain_symbol(&mut defs, &t.id, (0.0, 0.0), s);
                }
            }
            defs.push_str("</g>");
            next
        });
        for (k, u) in used_terrain.iter_mut().enumerate() {
            *u |= h.terrain & (1 << k) != 0;
        }
        let (x, y) = geo.centre(h.hex);
        let title = th
            .iter()
            .enumerate()
            .filter(|(k, _)| h.terrain & (1 << k) != 0)
            .map(|(_, t)| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let _ = write!(
            o,
            r##"<use class="hex" data-hex="{}" xlink:href="#{ID}h{kind}" x="{x:.1}" y="{y:.1}"><title>{} {}</title></use>"##,
            h.hex,
            h.hex,
            xml_escape(&title)
        );
    }

    // ---- hexside features (each side drawn once, from the lower hex index)
    let ts = &sc.data.terrain.hexside;
    let styles: Vec<SideStyle> = ts.iter().map(side_style).collect();
    let mut used_side = vec![false; ts.len()];
    let mut roads = String::new();
    let mut bridges = String::new();
    for (i, h) in sc.hexes.iter().enumerate() {
        if !shown(h.hex) {
            continue;
        }
        let c = geo.centre(h.hex);
        for d in 0..6 {
            let m = h.sides[d];
            if m == 0 {
                continue;
            }
            let n = h.neighbors[d];
            // A side toward a hex outside the region is drawn from this side.
            let first = n == NO_HEX || (n as usize) > i || !shown(sc.hex_at(n));
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
                        if n != NO_HEX && first {
                            let nc = geo.centre(sc.hex_at(n));
                            let (dx, dy) = (nc.0 - c.0, nc.1 - c.1);
                            let p = (mid.0 - dx * 0.18, mid.1 - dy * 0.18);
                            let q = (mid.0 + dx * 0.18, mid.1 + dy * 0.18);
                            bridge(&mut bridges, p, q);
                        }
                    }
                    _ => {
                        if first {
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
            if bridged && !watered && first {
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
            let hex = sc.hex_at(h);
            if !shown(hex) {
                continue;
            }
            let _ = write!(
                o,
                r#"<polygon class="zone" points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="5,3"/>"#,
                geo.polygon(geo.centre(hex), 0.86),
                SIDE_COLOURS.get(side)
            );
        }
    }
    for h in &opts.highlight {
        if sc.hex_index(*h).is_some() && shown(*h) {
            let _ = write!(
                o,
                r##"<polygon class="highlight" points="{}" fill="#ffe24a" fill-opacity="0.25" stroke="#e0b000" stroke-width="2"/>"##,
                geo.polygon(geo.centre(*h), 0.9)
            );
        }
    }

    // ---- hex ids and names (the names with a halo)
    if opts.hex_ids {
        let fs = (s * 0.19).max(6.0);
        let _ = write!(
            o,
            r##"<g class="hex-ids" font-size="{fs:.1}" text-anchor="middle" fill="#555">"##
        );
        for h in sc.hexes.iter().filter(|h| shown(h.hex)) {
            let (x, y) = geo.centre(h.hex);
            let _ = write!(
                o,
                r#"<text x="{x:.1}" y="{:.1}">{}</text>"#,
                y - hh + fs + 1.5,
                h.hex
            );
        }
        o.push_str("</g>");
    }
    for h in sc.hexes.iter().filter(|h| shown(h.hex)) {
        if let Some(name) = &h.name {
            let (x, y) = geo.centre(h.hex);
            let fs = (s * 0.22).max(6.0);
            let _ = write!(o, r#"<g class="place" data-hex="{}">"#, h.hex);
            halo_text(
                o,
                x,
                y + hh - 4.0,
                fs,
                r#" text-anchor="middle" font-weight="bold" font-style="italic""#,
                name,
                (fs * 0.3).max(2.5),
            );
            o.push_str("</g>");
        }
    }

    // ---- objectives and their control
    for h in sc.objective_hexes() {
        if !shown(h) {
            continue;
        }
        let (x, y) = geo.centre(h);
        let who = snap.control.get(&h).copied();
        let name = who.map_or("nobody", |w| sc.side_name(w));
        let _ = write!(
            o,
            r##"<g class="objective" data-hex="{h}" data-control="{}"><title>objective {h}: last held by {}</title>"##,
            who.map_or("none".to_string(), |w| w.to_string()),
            xml_escape(name)
        );
        objective_star(o, x - 0.78 * s, y, s, who);
        o.push_str("</g>");
    }

    // ---- combat in progress: defending hex, attack arrows, retreat / advance path
    if let Some(cb) = snap.combat {
        let dc = geo.centre(cb.hex);
        let _ = write!(
            o,
            r##"<polygon class="combat" data-hex="{}" points="{}" fill="none" stroke="#ff7a00" stroke-width="3.5"/>"##,
            cb.hex,
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

    // ---- unit counters: a stack fanned up and to the right, its size on a badge
    let k = 1.15 * s;
    let mut stacked: BTreeMap<Hex, usize> = BTreeMap::new();
    for u in snap.units {
        if let Location::Map(h) = u.loc {
            *stacked.entry(h).or_default() += 1;
        }
    }
    let mut drawn: BTreeMap<Hex, usize> = BTreeMap::new();
    let mut badges = String::new();
    for (i, u) in snap.units.iter().enumerate() {
        let Location::Map(h) = u.loc else { continue };
        if sc.hex_index(h).is_none() || !shown(h) {
            continue;
        }
        // Exclusive rules may stack units: each counter up and to the right of the one
        // below it, the stack centred on the hex.
        let n = stacked.get(&h).copied().unwrap_or(1);
        let j = drawn.entry(h).or_default();
        let step = 0.16 * s;
        let off = (*j as f64 - (n as f64 - 1.0) / 2.0) * step;
        *j += 1;
        let (cx, cy) = geo.centre(h);
        let kk = if n > 1 { k * 0.86 } else { k };
        counter(o, sc, i, u, (cx + off, cy - off), kk, opts.unit_labels);
        if n > 1 && *j == n {
            // The top counter's upper-left corner.
            let (bx, by) = (cx + off - kk / 2.0, cy - off - kk / 2.0);
            let r = (0.16 * s).max(5.0);
            let _ = write!(
                badges,
                r##"<g class="stack" data-hex="{h}" data-count="{n}"><title>{n} units in {h}</title><circle cx="{bx:.1}" cy="{by:.1}" r="{r:.1}" fill="#222" stroke="#fff" stroke-width="1.2"/>"##
            );
            text(
                &mut badges,
                bx,
                by + r * 0.42,
                r * 1.2,
                r##" text-anchor="middle" font-weight="bold" fill="#fff""##,
                &n.to_string(),
            );
            badges.push_str("</g>");
        }
    }
    o.push_str(&badges);
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
            BOMBARD_CHIP.into(),
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
        if sc.hex_index(*h).is_none() || !shown(*h) {
            continue;
        }
        let (x, y) = geo.centre(*h);
        let cw = 0.36 * s;
        let n = list.len() as f64;
        let x0 = x + 0.6 * s - cw / 2.0 + 0.1 * s;
        let y0 = y - (n * (cw + 2.0)) / 2.0;
        for (j, (label, fill, what)) in list.iter().enumerate() {
            chip(
                o,
                Some(*h),
                x0,
                y0 + j as f64 * (cw + 2.0),
                cw,
                label,
                fill,
                what,
            );
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

    // ---- charts below the map and panel, left to right, wrapping
    let mut charts: Vec<(String, f64, f64)> = Vec::new();
    if opts.crt && !sc.crt.lines.is_empty() {
        let reading = crt_reading_of(sc, board);
        charts.push(crt_chart(sc, &snap, reading));
    }
    if opts.terrain_chart {
        charts.push(terrain_chart(sc, &styles));
    }
    let top_w = map_w + panel_w;
    let width = charts
        .iter()
        .map(|c| c.1 + 2.0 * margin)
        .fold(top_w, f64::max);
    if opts.turn_track {
        charts.push(turn_track(sc, &snap, width - 2.0 * margin));
    }
    if opts.boxes {
        charts.extend(unit_boxes(
            sc,
            &snap,
            width - 2.0 * margin,
            opts.unit_labels,
        ));
    }
    let charts_top = header + map_h.max(panel_h + 10.0) + 4.0;
    let (mut cx, mut cy, mut row_h) = (margin, charts_top, 0.0f64);
    let mut chart_svg = String::new();
    for (svg, w, h) in &charts {
        if cx > margin && cx + w > width - margin {
            cx = margin;
            cy += row_h + 10.0;
            row_h = 0.0;
        }
        let _ = write!(
            chart_svg,
            r#"<g transform="translate({cx:.1},{cy:.1})">{svg}</g>"#
        );
        cx += w + 10.0;
        row_h = row_h.max(*h);
    }
    let height = if charts.is_empty() {
        (map_h + header).max(panel_h + header + 10.0)
    } else {
        cy + row_h + margin
    };

    let title = opts.title.clone().unwrap_or_else(|| sc.data.name.clone());
    let mut out = String::with_capacity(body.len() + panel.len() + chart_svg.len() + 4096);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif"><title>{}</title><defs><clipPath id="{ID}map"><rect x="0" y="0" width="{map_w:.1}" height="{map_h:.1}"/></clipPath>{defs}</defs><rect width="100%" height="100%" fill="#fbfaf5"/>"##,
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
    out.push_str(&chart_svg);
    out.push_str("</svg>\n");
    // The id prefix: a hash of the shared definitions (the only thing ids name).
    let prefix = format!("fm{:08x}-", fnv(&defs));
    out.replace(ID, &prefix)
}

/// The fill of a bombardment chip.
const BOMBARD_CHIP: &str = "#bbbbbb";

/// An objective's star on a disc of its controller's colour (white: nobody yet) at
/// `(x, y)`.
fn objective_star(o: &mut String, x: f64, y: f64, s: f64, who: Option<Side>) {
    let fill = who.map_or("#ffffff", |w| SIDE_COLOURS.get(w));
    let mut star = String::new();
    for i in 0..10 {
        let a = std::f64::consts::PI / 5.0 * i as f64 - std::f64::consts::PI / 2.0;
        let r = if i % 2 == 0 { 0.17 * s } else { 0.075 * s };
        let _ = write!(
            star,
            "{}{:.1},{:.1}",
            if i > 0 { " " } else { "" },
            x + r * a.cos(),
            y + r * a.sin()
        );
    }
    let _ = write!(
        o,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{fill}" stroke="#222" stroke-width="1"/><polygon points="{star}" fill="#222"/>"##,
        0.2 * s
    );
}

/// One chip (a marker on a hex): a small square with a short label.
#[allow(clippy::too_many_arguments)]
fn chip(
    o: &mut String,
    h: Option<Hex>,
    x0: f64,
    yy: f64,
    cw: f64,
    label: &str,
    fill: &str,
    what: &str,
) {
    let (class, at) = match h {
        Some(h) => ("marker", format!(r#" data-hex="{h}""#)),
        None => ("legend-marker", String::new()),
    };
    let _ = write!(
        o,
        r##"<g class="{class}"{at} data-value="{}"><title>{}</title><rect x="{x0:.1}" y="{yy:.1}" width="{cw:.1}" height="{cw:.1}" rx="2" fill="{fill}" stroke="#111" stroke-width="0.8"/>"##,
        xml_escape(label),
        xml_escape(what)
    );
    let light = fill == "#555555";
    // Longer labels in a smaller font, so that they stay on the chip.
    let n = label.chars().count().max(2) as f64;
    let fs = (cw * 0.6).min(cw * 1.5 / n);
    text(
        o,
        x0 + cw / 2.0,
        yy + cw / 2.0 + fs * 0.36,
        fs,
        if light {
            r##" text-anchor="middle" font-weight="bold" fill="#fff""##
        } else {
            r##" text-anchor="middle" font-weight="bold" fill="#111""##
        },
        label,
    );
    o.push_str("</g>");
}

/// Where the attack in progress reads the CRT, and how many committed markers the
/// board's viewer cannot see (not counted). For a side's view the totals come from a
/// state consistent with the view (`sample_consistent`): only what the view shows
/// counts.
fn crt_reading_of(sc: &Scenario, board: Board<'_>) -> Option<(CrtReading, usize)> {
    match board {
        Board::State(s) => combat_reading(sc, s, &|_| true).map(|r| (r, 0)),
        Board::View(v) => {
            let c = v.combat.as_ref()?;
            let known: Vec<bool> = c.markers.iter().map(|m| m.value.is_some()).collect();
            let unknown = known.iter().filter(|k| !**k).count();
            let s = sample_consistent(sc, v, &mut crate::rng::rng_from_seed(0));
            combat_reading(sc, &s, &|k| known.get(k).copied().unwrap_or(false))
                .map(|r| (r, unknown))
        }
    }
}

/// The CRT (8.2.4): one row of labels per terrain line over the grid's columns, the
/// results by die roll; for an attack in progress its line and column highlighted
/// (`rect.crt-column`, `rect.crt-line`), a line below saying why.
fn crt_chart(
    sc: &Scenario,
    snap: &Snap,
    reading: Option<(CrtReading, usize)>,
) -> (String, f64, f64) {
    let crt = &sc.crt;
    let ncols = crt.grid.first().map_or(0, Vec::len);
    let (lw, cw, rh) = (150.0, 34.0, 14.0);
    let w = lw + cw * ncols as f64 + 12.0;
    let mut o = String::new();
    let top = 18.0;
    let lines_h = rh * crt.lines.len() as f64;
    let grid_top = top + lines_h + 4.0;
    let rows = crt.grid.len();
    let mut h = grid_top + rh * rows as f64 + 8.0;
    let highlight = reading.map(|(r, _)| r);
    let _ = write!(
        o,
        r##"<g class="crt"{}>"##,
        match highlight {
            Some(r) => format!(
                r#" data-line="{}" data-column="{}" data-differential="{}""#,
                xml_escape(&crt.lines[r.line].id),
                r.column + 1,
                r.differential
            ),
            None => String::new(),
        }
    );
    let bold = r##" font-weight="bold" fill="#222""##;
    let plain = r##" fill="#333""##;
    text(&mut o, 6.0, 13.0, 11.0, bold, "Combat Results Table");
    let x0 = 6.0 + lw;
    // The highlighted column under everything else.
    if let Some(r) = highlight {
        let _ = write!(
            o,
            r##"<rect class="crt-column" data-column="{}" x="{:.1}" y="{:.1}" width="{cw:.1}" height="{:.1}" fill="#ffe24a" stroke="#e07b00" stroke-width="2"/>"##,
            r.column + 1,
            x0 + cw * r.column as f64,
            grid_top - 2.0,
            rh * rows as f64 + 4.0
        );
    }
    for (li, line) in crt.lines.iter().enumerate() {
        let y = top + rh * li as f64;
        let hl = highlight.is_some_and(|r| r.line == li);
        if hl {
            let _ = write!(
                o,
                r##"<rect class="crt-line-row" x="4" y="{:.1}" width="{:.1}" height="{rh:.1}" fill="#fff3b0"/>"##,
                y + 1.0,
                w - 8.0
            );
        }
        text(
            &mut o,
            8.0,
            y + rh - 3.0,
            9.0,
            if hl { bold } else { plain },
            &clip_chars(&line.name, 28),
        );
        for (k, lab) in line.labels.iter().enumerate() {
            let col = line.first_column + k;
            let x = x0 + cw * col as f64;
            if highlight.is_some_and(|r| r.line == li && r.column == col) {
                let _ = write!(
                    o,
                    r##"<rect class="crt-line" data-line="{}" data-column="{}" x="{x:.1}" y="{:.1}" width="{cw:.1}" height="{rh:.1}" fill="#ffe24a" stroke="#e07b00" stroke-width="2"/>"##,
                    xml_escape(&line.id),
                    col + 1,
                    y + 1.0
                );
            }
            text(
                &mut o,
                x + cw / 2.0,
                y + rh - 3.0,
                8.5,
                r##" text-anchor="middle" fill="#333""##,
                &lab.to_string(),
            );
        }
    }
    let _ = write!(
        o,
        r##"<line x1="{x0:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-width="0.8"/>"##,
        grid_top - 2.0,
        x0 + cw * ncols as f64,
        grid_top - 2.0
    );
    for (row, results) in crt.grid.iter().enumerate() {
        let y = grid_top + rh * row as f64;
        text(
            &mut o,
            x0 - 6.0,
            y + rh - 3.0,
            9.0,
            r##" text-anchor="end" font-weight="bold" fill="#333""##,
            &format!("die {}", row + 1),
        );
        for (col, r) in results.iter().enumerate() {
            text(
                &mut o,
                x0 + cw * col as f64 + cw / 2.0,
                y + rh - 3.0,
                9.0,
                r##" text-anchor="middle" fill="#111""##,
                &r.to_string(),
            );
        }
    }
    // What is highlighted, and why.
    let mut notes: Vec<String> = Vec::new();
    if let Some(cb) = snap.combat {
        match (reading, cb.result) {
            (_, Some(res)) => notes.push(format!("Attack on {}: result {res}", cb.hex)),
            (Some((r, unknown)), None) => {
                let line = &crt.lines[r.line];
                let mut n = format!(
                    "Attack on {}: differential {:+} on the {} line, column {} ({})",
                    cb.hex,
                    r.differential,
                    line.name,
                    r.column + 1,
                    crt.column_label(r.line, r.column)
                );
                if r.shift != 0 {
                    let _ = write!(n, ", shifted {:+}", r.shift);
                }
                notes.push(n);
                if unknown > 0 {
                    notes.push(format!("({unknown} face-down marker(s) not counted)"));
                }
            }
            (None, None) => {}
        }
    }
    for chunk in notes
        .iter()
        .flat_map(|n| wrap(n, ((w - 12.0) / 5.6) as usize))
    {
        text(
            &mut o,
            8.0,
            h + 4.0,
            9.5,
            r##" class="crt-note" fill="#222""##,
            &chunk,
        );
        h += 13.0;
    }
    h += if notes.is_empty() { 0.0 } else { 4.0 };
    let _ = write!(
        o,
        r##"<rect x="0" y="0" width="{w:.1}" height="{h:.1}" rx="4" fill="none" stroke="#bbbbaa"/></g>"##
    );
    (o, w, h)
}

/// A terrain's movement cost (5.4) in words.
fn cost_text(c: MoveCost) -> String {
    match c {
        MoveCost::Prohibited => "prohibited".into(),
        MoveCost::Cost(m) => format!("{m} MP"),
        MoveCost::Plus(m) => format!("+{m} MP"),
    }
}

/// The terrain effects chart: every terrain and hexside feature of the scenario with
/// its sample, movement cost (5.4) and CRT line (8.2.2).
fn terrain_chart(sc: &Scenario, styles: &[SideStyle]) -> (String, f64, f64) {
    let (w, rh) = (470.0, 15.0);
    let mut o = String::from(r#"<g class="terrain-chart">"#);
    let bold = r##" font-weight="bold" fill="#222""##;
    let plain = r##" fill="#333""##;
    text(&mut o, 6.0, 13.0, 11.0, bold, "Terrain Effects Chart");
    let mut y = 18.0 + rh;
    for (x, head) in [(38.0, "terrain"), (190.0, "movement"), (280.0, "CRT line")] {
        text(&mut o, x, y - 3.0, 9.0, bold, head);
    }
    let crt_line = |id: &Option<String>| -> String {
        id.as_ref()
            .and_then(|l| sc.crt.line_index(l))
            .map_or("—".to_string(), |l| clip_chars(&sc.crt.lines[l].name, 32))
    };
    for t in &sc.data.terrain.hex {
        y += rh;
        let additive = matches!(t.cost, MoveCost::Plus(_));
        let _ = write!(
            o,
            r##"<g class="tec-row" data-terrain="{}"><rect x="6" y="{:.1}" width="24" height="12" fill="{}" stroke="#888"/>"##,
            xml_escape(&t.id),
            y - 11.0,
            if additive {
                "#f2eed6".to_string()
            } else {
                terrain_colour(&t.id)
            }
        );
        terrain_symbol(&mut o, &t.id, (18.0, y - 5.0), 14.0);
        let mut name = clip_chars(&t.name, 26);
        if t.fortification {
            name.push_str(" (fort.)");
        }
        text(&mut o, 38.0, y - 2.0, 9.5, plain, &name);
        text(&mut o, 190.0, y - 2.0, 9.5, plain, &cost_text(t.cost));
        text(&mut o, 280.0, y - 2.0, 9.5, plain, &crt_line(&t.crt_line));
        o.push_str("</g>");
    }
    for (k, f) in sc.data.terrain.hexside.iter().enumerate() {
        y += rh;
        let _ = write!(
            o,
            r#"<g class="tec-row" data-hexside="{}">"#,
            xml_escape(&f.id)
        );
        side_sample(&mut o, styles[k], 6.0, y - 5.0);
        text(&mut o, 38.0, y - 2.0, 9.5, plain, &clip_chars(&f.name, 26));
        let cost = match (f.road, f.cost) {
            (Some(r), _) => format!("road {r} MP"),
            (None, c) => cost_text(c),
        };
        text(&mut o, 190.0, y - 2.0, 9.5, plain, &cost);
        let mut line = crt_line(&f.crt_line);
        if f.all_attackers && f.crt_line.is_some() {
            line.push_str(" (all attackers)");
        }
        text(&mut o, 280.0, y - 2.0, 9.5, plain, &line);
        o.push_str("</g>");
    }
    let h = y + 8.0;
    let _ = write!(
        o,
        r##"<rect x="0" y="0" width="{w:.1}" height="{h:.1}" rx="4" fill="none" stroke="#bbbbaa"/></g>"##
    );
    (o, w, h)
}

/// The turn track: one box a game turn, the current one marked (`g.turn.current`),
/// each box counting the units due to arrive that turn, by side.
fn turn_track(sc: &Scenario, snap: &Snap, max_w: f64) -> (String, f64, f64) {
    let n = sc.data.turns.len().max(1);
    let (bw, bh, gap) = (64.0, 44.0, 4.0);
    let per_row = (((max_w - 12.0 + gap) / (bw + gap)).floor() as usize).clamp(1, n);
    let rows = n.div_ceil(per_row);
    let w = 12.0 + per_row as f64 * (bw + gap) - gap;
    let h = 22.0 + rows as f64 * (bh + gap) + 4.0;
    let mut o = String::from(r#"<g class="turn-track">"#);
    text(
        &mut o,
        6.0,
        13.0,
        11.0,
        r##" font-weight="bold" fill="#222""##,
        "Turn Track",
    );
    // Units due to arrive by turn and side (as the board shows them: scheduled).
    let mut due: BTreeMap<u16, [usize; 2]> = BTreeMap::new();
    for (i, u) in snap.units.iter().enumerate() {
        let d = &sc.units[i].data;
        if u.loc == Location::Scheduled {
            if let StartData::Reinforcement { turn, .. } = &d.start {
                due.entry(*turn).or_default()[d.side.index()] += 1;
            }
        }
    }
    for (t, turn) in sc.data.turns.iter().enumerate() {
        let number = t as u16 + 1;
        let (col, row) = (t % per_row, t / per_row);
        let x = 6.0 + col as f64 * (bw + gap);
        let y = 20.0 + row as f64 * (bh + gap);
        let current = number == snap.turn;
        let _ = write!(
            o,
            r##"<g class="turn{}" data-turn="{number}"><title>turn {number}: {}{}</title><rect x="{x:.1}" y="{y:.1}" width="{bw:.1}" height="{bh:.1}" rx="3" fill="{}" stroke="{}" stroke-width="{}"/>"##,
            if current { " current" } else { "" },
            xml_escape(&turn.name),
            if turn.night { " (night)" } else { "" },
            if current {
                "#ffe24a"
            } else if turn.night {
                "#d9dde8"
            } else {
                "#ffffff"
            },
            if current { "#e07b00" } else { "#999988" },
            if current { 2.0 } else { 0.8 }
        );
        text(
            &mut o,
            x + 4.0,
            y + 12.0,
            10.0,
            r##" font-weight="bold" fill="#222""##,
            &number.to_string(),
        );
        text(
            &mut o,
            x + 4.0,
            y + 24.0,
            7.5,
            r##" fill="#444""##,
            &clip_chars(&turn.name, 15),
        );
        if let Some(counts) = due.get(&number) {
            let mut xx = x + 4.0;
            for side in Side::BOTH {
                let c = counts[side.index()];
                if c == 0 {
                    continue;
                }
                let _ = write!(
                    o,
                    r##"<rect class="due" data-side="{side}" data-count="{c}" x="{xx:.1}" y="{:.1}" width="22" height="11" rx="2" fill="{}" stroke="#111" stroke-width="0.6"/>"##,
                    y + bh - 15.0,
                    SIDE_COLOURS.get(side)
                );
                text(
                    &mut o,
                    xx + 11.0,
                    y + bh - 6.5,
                    8.5,
                    r##" text-anchor="middle" font-weight="bold" fill="#111""##,
                    &format!("+{c}"),
                );
                xx += 26.0;
            }
        }
        o.push_str("</g>");
    }
    let _ = write!(
        o,
        r##"<rect x="0" y="0" width="{w:.1}" height="{h:.1}" rx="4" fill="none" stroke="#bbbbaa"/></g>"##
    );
    (o, w, h)
}

/// Each side's reinforcement box (units still to arrive, by turn) and eliminated box,
/// as small counters: four charts, each as wide as its counters need (at most
/// `max_w`).
fn unit_boxes(
    sc: &Scenario,
    snap: &Snap,
    max_w: f64,
    labels: UnitLabels,
) -> Vec<(String, f64, f64)> {
    let k = 38.0;
    let gap = 4.0;
    let fits = (((max_w - 16.0 + gap) / (k + gap)).floor() as usize).max(1);
    let mut out = Vec::new();
    for side in Side::BOTH {
        for (what, class) in [
            ("reinforcements", "reinforcements"),
            ("eliminated", "eliminated"),
        ] {
            let mut units: Vec<(usize, Option<u16>)> = Vec::new();
            for (i, u) in snap.units.iter().enumerate() {
                let d = &sc.units[i].data;
                if d.side != side {
                    continue;
                }
                let turn = match &d.start {
                    StartData::Reinforcement { turn, .. } => Some(*turn),
                    _ => None,
                };
                let wanted = match class {
                    "reinforcements" => {
                        matches!(u.loc, Location::Scheduled | Location::Arriving)
                    }
                    _ => u.loc == Location::Eliminated,
                };
                if wanted {
                    units.push((i, turn));
                }
            }
            units.sort_by_key(|&(i, t)| (t, i));
            let title = format!("{}: {what}", sc.side_name(side));
            let per_row = fits.min(units.len().max(1));
            let rows = units.len().div_ceil(per_row).max(1);
            let w = (16.0 + per_row as f64 * (k + gap))
                .max(12.0 + 6.5 * title.chars().count() as f64)
                .min(max_w.max(60.0));
            let h = 20.0 + rows as f64 * (k + 12.0 + gap);
            let mut o = String::new();
            let _ = write!(
                o,
                r##"<g class="box {class}" data-side="{side}" data-count="{}"><rect x="0" y="0" width="{w:.1}" height="{h:.1}" rx="4" fill="#ffffff" stroke="#bbbbaa"/>"##,
                units.len()
            );
            text(
                &mut o,
                6.0,
                14.0,
                11.0,
                r##" font-weight="bold" fill="#222""##,
                &title,
            );
            if units.is_empty() {
                text(&mut o, 8.0, 32.0, 9.5, r##" fill="#777""##, "none");
            }
            for (j, (i, turn)) in units.iter().enumerate() {
                let (col, row) = (j % per_row, j / per_row);
                let cx = 8.0 + k / 2.0 + col as f64 * (k + gap);
                let cy = 20.0 + k / 2.0 + row as f64 * (k + 12.0 + gap);
                counter(&mut o, sc, *i, &snap.units[*i], (cx, cy), k, labels);
                if let (Some(t), "reinforcements") = (turn, class) {
                    text(
                        &mut o,
                        cx,
                        cy + k / 2.0 + 9.0,
                        8.0,
                        r##" text-anchor="middle" fill="#444""##,
                        &format!("turn {t}"),
                    );
                }
            }
            o.push_str("</g>");
            out.push((o, w, h));
        }
    }
    out
}

/// The first `n` characters of `s`, with an ellipsis when cut.
fn clip_chars(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(n.saturating_sub(1)).collect();
        c.push('…');
        c
    }
}

/// One unit counter centred at `c`, `k` pixels square.
fn counter(
    o: &mut String,
    sc: &Scenario,
    i: usize,
    u: &UnitState,
    c: (f64, f64),
    k: f64,
    labels: UnitLabels,
) {
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
    // Name or id, in a smaller font when long, to stay on the counter (DejaVu Sans
    // averages about 0.6 em a character).
    let label = match labels {
        UnitLabels::Name => d.name.as_str(),
        UnitLabels::Id => d.id.as_str(),
    };
    let fit = (k * 0.94) / (0.6 * label.chars().count().max(1) as f64);
    let lfs = fs_small.min(fit).max(k * 0.09);
    let _ = write!(
        o,
        r##"<text class="label" x="{:.1}" y="{:.1}" font-size="{lfs:.1}" text-anchor="middle" fill="#111">{}</text>"##,
        c.0,
        by + bh + fs_small + 0.5,
        xml_escape(label)
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
    for chunk in wrap(
        &format!("Turn {} of {} — {turn_name}", snap.turn, sc.turn_count()),
        36,
    ) {
        line(o, &mut y, &chunk, bold);
    }
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
    // Legend: the markings of the map and the counters.
    y += 4.0;
    line(o, &mut y, "Markings", bold);
    let ls = 26.0; // the hex size the samples are drawn at
    let item = |o: &mut String, y: &mut f64, what: &str, draw: &dyn Fn(&mut String, f64, f64)| {
        *y += lh + 3.0;
        let _ = write!(o, r#"<g class="legend-item">"#);
        draw(o, px + 12.0, *y - 4.0);
        // A long side name wraps under the text's start.
        for (j, chunk) in wrap(what, 36).iter().enumerate() {
            if j > 0 {
                *y += lh;
            }
            text(o, px + 30.0, *y, 10.0, plain, chunk.trim_start());
        }
        o.push_str("</g>");
    };
    item(o, &mut y, "objective, not yet held", &|o, x, y| {
        objective_star(o, x, y, ls * 1.6, None)
    });
    for side in Side::BOTH {
        item(
            o,
            &mut y,
            &format!("objective held by {}", sc.side_name(side)),
            &|o, x, y| objective_star(o, x, y, ls * 1.6, Some(side)),
        );
    }
    let mini_hex = |o: &mut String, x: f64, y: f64, class: &str, stroke: &str, extra: &str| {
        let mut p = String::new();
        for k in 0..6 {
            let a = std::f64::consts::PI / 3.0 * k as f64;
            let _ = write!(
                p,
                "{}{:.1},{:.1}",
                if k > 0 { " " } else { "" },
                x + 8.0 * a.cos(),
                y + 8.0 * a.sin()
            );
        }
        let _ = write!(
            o,
            r#"<polygon class="{class}" points="{p}" fill="none" stroke="{stroke}"{extra}/>"#
        );
    };
    for side in Side::BOTH {
        item(
            o,
            &mut y,
            &format!("set-up zone of {}", sc.side_name(side)),
            &|o, x, y| {
                mini_hex(
                    o,
                    x,
                    y,
                    "legend-zone",
                    SIDE_COLOURS.get(side),
                    r#" stroke-width="2" stroke-dasharray="3,2""#,
                )
            },
        );
    }
    item(
        o,
        &mut y,
        "hex attacked (combat in progress)",
        &|o, x, y| {
            mini_hex(
                o,
                x,
                y,
                "legend-combat",
                "#ff7a00",
                r#" stroke-width="2.5""#,
            )
        },
    );
    item(o, &mut y, "attacker's arrow", &|o, x, y| {
        let _ = write!(
            o,
            r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#d35400" stroke-width="3"/><polygon points="{:.1},{y:.1} {:.1},{:.1} {:.1},{:.1}" fill="#d35400"/>"##,
            x - 10.0,
            x + 4.0,
            x + 11.0,
            x + 4.0,
            y - 4.5,
            x + 4.0,
            y + 4.5
        );
    });
    let chip_at = |o: &mut String, x: f64, y: f64, label: &str, fill: &str| {
        chip(o, None, x - 7.0, y - 7.0, 14.0, label, fill, label);
    };
    item(o, &mut y, "bombarded this turn (markers)", &|o, x, y| {
        chip_at(o, x, y, "B1", BOMBARD_CHIP)
    });
    item(o, &mut y, "support fire marker, revealed", &|o, x, y| {
        chip_at(o, x, y, "+2", &lighten(SIDE_COLOURS.a, 0.45))
    });
    item(o, &mut y, "support fire marker, face down", &|o, x, y| {
        chip_at(o, x, y, "?", "#555555")
    });
    item(o, &mut y, "units stacked in the hex", &|o, x, y| {
        let _ = write!(
            o,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="6" fill="#222" stroke="#fff" stroke-width="1.2"/>"##
        );
        text(
            o,
            x,
            y + 2.6,
            7.5,
            r##" text-anchor="middle" font-weight="bold" fill="#fff""##,
            "2",
        );
    });
    item(
        o,
        &mut y,
        "steps: left (black), lost (white)",
        &|o, x, y| {
            for (j, fill) in ["#111", "#111", "#fff"].iter().enumerate() {
                let _ = write!(
                    o,
                    r##"<circle cx="{:.1}" cy="{y:.1}" r="2.6" fill="{fill}" stroke="#111" stroke-width="0.6"/>"##,
                    x - 7.0 + 7.0 * j as f64
                );
            }
        },
    );
    item(o, &mut y, "attack-defense-movement;", &|o, x, y| {
        text(
            o,
            x,
            y + 3.5,
            9.0,
            r##" text-anchor="middle" font-weight="bold" fill="#111""##,
            "4-3-5",
        );
        let _ = write!(
            o,
            r##"<rect x="{:.1}" y="{:.1}" width="7.6" height="9.4" fill="none" stroke="#111" stroke-width="0.8"/>"##,
            x + 6.5,
            y - 4.5
        );
    });
    line(o, &mut y, "      movement boxed: a mobile unit", plain);
    item(
        o,
        &mut y,
        "depleted (flipped): pale, corner cut",
        &|o, x, y| {
            let fill = lighten(SIDE_COLOURS.a, 0.35);
            let _ = write!(
                o,
                r##"<rect x="{:.1}" y="{:.1}" width="16" height="16" rx="2" fill="{fill}" stroke="#1a1a1a"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#ffffff" opacity="0.85"/>"##,
                x - 8.0,
                y - 8.0,
                x + 2.0,
                y - 7.5,
                x + 7.5,
                y - 7.5,
                x + 7.5,
                y - 2.0
            );
        },
    );
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
