//! The map's ground, under the pieces: each hex a `<use>` of one shared definition per
//! terrain mix (fill, outline, symbols), the hexside features (rivers, roads, bridges,
//! works), the set-up zones of the side placing (3.0), highlighted hexes, hex ids and
//! place names, and the objectives with the side that last held each.

use super::board::Snap;
use super::layout::Geo;
use super::options::{RenderOptions, HEX_ID_MIN_SIZE};
use super::pieces::{objective_star, SIDE_COLOURS};
use super::terrain::{
    bridge, road_line, side_line, side_style, terrain_colour, terrain_symbol, SideStyle,
};
use super::text::halo_text;
use super::ID;
use crate::fm::hex::Hex;
use crate::fm::scenario::{MoveCost, Scenario, StartData, NO_HEX};
use crate::fm::state::{Location, Pending};
use crate::svg::xml_escape;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Draws the map's ground into `o`, its shared hex definitions into `defs`, for the
/// hexes `shown`. Returns which hex terrains and which hexside features the part drawn
/// uses (the legend lists those) and each hexside feature's style.
pub(super) fn draw_map(
    o: &mut String,
    defs: &mut String,
    sc: &Scenario,
    snap: &Snap,
    opts: &RenderOptions,
    geo: &Geo,
    shown: &dyn Fn(Hex) -> bool,
) -> (Vec<bool>, Vec<bool>, Vec<SideStyle>) {
    let (s, hh) = (geo.s, geo.hh);
    // ---- hexes: one shared definition per terrain mix (fill, outline, symbols),
    // each hex a `<use>` of it
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
                    terrain_symbol(defs, &t.id, (0.0, 0.0), s);
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
    // Hexsides lie on the hexes' edges: they take no clicks (a click there goes to the
    // hex under it).
    o.push_str(r#"<g class="hexsides" pointer-events="none">"#);
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
    o.push_str("</g>");

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
                r#"<polygon class="zone" data-hex="{hex}" points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="5,3"/>"#,
                geo.polygon(geo.centre(hex), 0.86),
                SIDE_COLOURS.get(side)
            );
        }
    }
    for h in &opts.highlight {
        if sc.hex_index(*h).is_some() && shown(*h) {
            let _ = write!(
                o,
                r##"<polygon class="highlight" data-hex="{h}" points="{}" fill="#ffe24a" fill-opacity="0.25" stroke="#e0b000" stroke-width="2"/>"##,
                geo.polygon(geo.centre(*h), 0.9)
            );
        }
    }

    // ---- hex ids and names (the names with a halo), under the pieces and taking no
    // clicks (a click on them goes to the hex under them); the ids only where they can
    // be read
    if opts.hex_ids && s >= HEX_ID_MIN_SIZE {
        let fs = s * 0.19;
        let _ = write!(
            o,
            r##"<g class="hex-ids" pointer-events="none" font-size="{fs:.1}" text-anchor="middle" fill="#555">"##
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
            let _ = write!(
                o,
                r#"<g class="place" data-hex="{}" pointer-events="none">"#,
                h.hex
            );
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
            r##"<g class="objective" data-objective="{h}" data-hex="{h}" data-control="{}"><title>objective {h}: last held by {}</title>"##,
            who.map_or("none".to_string(), |w| w.to_string()),
            xml_escape(name)
        );
        objective_star(o, x - 0.78 * s, y, s, who);
        o.push_str("</g>");
    }
    (used_terrain, used_side, styles)
}
