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
//! [`State`]: crate::fm::state::State
//! [`View`]: crate::fm::view::View
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
//!
//! [`Layout`]: crate::fm::hex::Layout
//!
//! One file a concern:
//!
//! - `mod.rs`: [`render_svg`]: the page, its map, panel beside, charts wrapped below.
//! - `options.rs`: what to draw: [`RenderOptions`] and its parts, read and checked.
//! - `board.rs`: what is drawn: [`Board`], what the renderer reads of it.
//! - `layout.rs`: where: hex size, the columns and rows drawn, hexes in pixels (2.1).
//! - `map.rs`: the ground: hexes, hexsides, set-up zones (3.0), ids, names, objectives.
//! - `terrain.rs`: terrain fills and symbols, hexside feature styles and samples.
//! - `pieces.rs`: the combat in progress, counters and stacks, markers (7.2, 8.1).
//! - `charts.rs`: CRT (8.2.1(d), 8.2.2, 8.2.4), terrain chart (5.4), turn track, boxes.
//! - `panel.rs`: the side panel: turn, phase, decision, support fire, units off the map.
//! - `legend.rs`: the panel's legend: terrain and hexsides in use, the markings.
//! - `text.rs`: plain and haloed text, clipping and wrapping.

mod board;
mod charts;
mod layout;
mod legend;
mod map;
mod options;
mod panel;
mod pieces;
mod terrain;
mod text;

// `xml_escape` moved to the neutral `crate::svg`; its old path stays.
pub use crate::svg::xml_escape;
pub use board::{units_on_map, Board};
pub use options::{
    MapMarker, Region, RenderOptions, UnitLabels, HEX_ID_MIN_SIZE, MAX_HEX_SIZE, MIN_HEX_SIZE,
};
pub use pieces::SIDE_COLOURS;

use crate::fm::hex::Hex;
use crate::fm::scenario::Scenario;
use board::Snap;
use charts::{crt_chart, crt_reading_of, terrain_chart, turn_track, unit_boxes};
use layout::{drawn, hex_size, Geo};
use map::draw_map;
use panel::draw_panel;
use pieces::draw_pieces;
use std::fmt::Write;
use text::text;

/// The placeholder for the picture's id prefix in `id` and `href` values: a control
/// character, which `xml_escape` never lets through from text, replaced at the end.
const ID: char = '\u{1}';

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
/// Each unit on the map is one `<g class="unit" data-unit="…" data-hex="…"
/// data-stack="…" data-stack-size="…">` element, each hex of the part drawn one
/// `<use class="hex" data-hex="…">` of a shared terrain definition, covering the whole
/// hex (the ids, names and hexsides over it take no clicks); docs/protocol.md lists
/// every data attribute ("Hit-testing the pictures").
/// Below the map (each behind an option): the CRT (`g.crt`), the terrain effects chart
/// (`g.terrain-chart`), the turn track (`g.turn-track`) and the reinforcement and
/// eliminated boxes (`g.boxes`).
///
/// [`State`]: crate::fm::state::State
/// [`View`]: crate::fm::view::View
pub fn render_svg<'a>(sc: &Scenario, board: impl Into<Board<'a>>, opts: &RenderOptions) -> String {
    let board = board.into();
    let snap = Snap::of(board);
    let s = hex_size(opts);
    let hh = s * 3f64.sqrt() / 2.0;
    let (cmin, cmax, rmin, rmax) = drawn(sc, opts);
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

    // ---- the map: its ground, then the pieces on it
    let _ = write!(
        o,
        r#"<g class="map" transform="translate(0,{header})" clip-path="url(#{ID}map)">"#
    );
    let (used_terrain, used_side, styles) = draw_map(o, &mut defs, sc, &snap, opts, &geo, &shown);
    draw_pieces(o, sc, &snap, opts, &geo, &shown);
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
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" data-system="fm" data-hex-size="{s}" font-family="DejaVu Sans, Verdana, Arial, sans-serif"><title>{}</title><defs><clipPath id="{ID}map"><rect x="0" y="0" width="{map_w:.1}" height="{map_h:.1}"/></clipPath>{defs}</defs><rect width="100%" height="100%" fill="#fbfaf5"/>"##,
        xml_escape(&title)
    );
    let subtitle = match snap.viewer.map(|v| v.side()) {
        Some(Some(v)) => format!("  (as seen by {})", sc.side_name(v)),
        Some(None) => "  (as seen by a spectator)".to_string(),
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
