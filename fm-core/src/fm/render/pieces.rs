//! What stands on the map: the combat in progress (the defending hex, the attackers'
//! arrows, the path of retreat or advance), unit counters (side colour, size, type
//! symbol, attack-defense-movement of the current step, step pips, depleted steps),
//! several units in a hex fanned into a stack with its count, and the markers on hexes
//! as chips: the combat's support fire markers, face down or revealed (7.2, 8.2.1(b)),
//! bombardments (8.1), exclusive rules' markers and the options' extra markers; the
//! objective star.

use super::board::Snap;
use super::layout::Geo;
use super::options::{RenderOptions, UnitLabels};
use super::text::text;
use crate::fm::hex::Hex;
use crate::fm::scenario::Scenario;
use crate::fm::state::{CombatStage, Location, UnitState};
use crate::ids::{Side, SidePair};
use crate::svg::xml_escape;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Fill colours of the two sides' counters.
pub const SIDE_COLOURS: SidePair<&str> = SidePair {
    a: "#7ea7d8",
    b: "#e07f67",
};

/// Draws the pieces on the hexes `shown` into `o`: the combat in progress, the counters
/// and their stacks, then the chips over them.
pub(super) fn draw_pieces(
    o: &mut String,
    sc: &Scenario,
    snap: &Snap,
    opts: &RenderOptions,
    geo: &Geo,
    shown: &dyn Fn(Hex) -> bool,
) {
    let s = geo.s;
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
                r##"<polyline class="retreat-path" pointer-events="none" points="{}" fill="none" stroke="#ff7a00" stroke-width="2.5" stroke-dasharray="6,4"/>"##,
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
                r##"<g class="attack-arrow" data-attacker="{}" data-from="{ah}" data-to="{}" pointer-events="none"><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d35400" stroke-width="3"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#d35400"/></g>"##,
                xml_escape(a.as_str()),
                cb.hex,
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
        // below it, far enough up that the factors along the bottom of every counter
        // below stay in sight, the stack centred on the hex.
        let n = stacked.get(&h).copied().unwrap_or(1);
        let j = drawn.entry(h).or_default();
        let (cx, cy) = geo.centre(h);
        let (kk, (dx, dy)) = stack_slot(k, s, n, *j);
        let place = format!(r#" data-hex="{h}" data-stack="{j}" data-stack-size="{n}""#);
        *j += 1;
        counter(
            o,
            sc,
            i,
            u,
            (cx + dx, cy + dy),
            kk,
            opts.unit_labels,
            &place,
        );
        if n > 1 && *j == n {
            // The top counter's upper-left corner.
            let (bx, by) = (cx + dx - kk / 2.0, cy + dy - kk / 2.0);
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
    // (kind, label, fill, what it is) on each hex.
    let mut chips: BTreeMap<Hex, Vec<(String, String, String, String)>> = BTreeMap::new();
    if let Some(cb) = snap.combat {
        for m in &cb.markers {
            let label = match m.value {
                Some(v) if m.revealed || snap.viewer.map_or(true, |w| w.is(m.side)) => {
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
            chips
                .entry(cb.hex)
                .or_default()
                .push(("support".into(), label, fill, what));
        }
    }
    for (h, n) in snap.bombarded {
        chips.entry(*h).or_default().push((
            "bombardment".into(),
            format!("B{n}"),
            BOMBARD_CHIP.into(),
            format!("{n} marker(s) bombarded this hex this player turn"),
        ));
    }
    if let Some(ex) = snap.ex {
        for h in &ex.breached {
            chips.entry(*h).or_default().push((
                "breach".into(),
                "BR".into(),
                "#ffd23f".into(),
                "breach: trench works breached".into(),
            ));
        }
        for h in &ex.aircraft {
            chips.entry(*h).or_default().push((
                "aircraft".into(),
                "AIR".into(),
                "#b8cde6".into(),
                "aircraft observing this hex and its neighbours".into(),
            ));
        }
        for p in &ex.artillery_plan {
            chips.entry(p.hex).or_default().push((
                "artillery".into(),
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
        chips.entry(m.hex).or_default().push((
            m.kind.clone(),
            m.label.clone(),
            fill.into(),
            m.kind.clone(),
        ));
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
        for (j, (kind, label, fill, what)) in list.iter().enumerate() {
            chip(
                o,
                Some((*h, kind)),
                x0,
                y0 + j as f64 * (cw + 2.0),
                cw,
                label,
                fill,
                what,
            );
        }
    }
}

/// How far up each counter of a stack stands above the one below it, in pixels, for
/// counters `kk` pixels square: the height of the band of factors along a counter's
/// bottom (see [`counter`]: their baseline 3 pixels above the bottom, digits 0.25 `kk`
/// high, about 0.75 of that above the baseline) and two pixels more (the shadow of the
/// counter above reaches 1.5 below it), so that every counter's factors stay in sight
/// under the counter above.
pub(super) fn stack_rise(kk: f64) -> f64 {
    0.19 * kk + 5.0
}

/// Where counter `j` (0 the bottom) of a stack of `n` in one hex stands: its size and
/// its centre's offset from the hex centre. One counter is `k` pixels square at the
/// centre; a stack's counters are smaller (at most 0.86 `k`, and small enough that
/// the stack stays within about 1.9 hex sizes `s` from top to bottom), each
/// [`stack_rise`] above and half that to the right of the one below, the stack
/// centred on the hex.
pub(super) fn stack_slot(k: f64, s: f64, n: usize, j: usize) -> (f64, (f64, f64)) {
    if n <= 1 {
        return (k, (0.0, 0.0));
    }
    let steps = (n - 1) as f64;
    // kk + steps * (0.19 kk + 5) <= 1.9 s
    let kk = (k * 0.86)
        .min((1.9 * s - 5.0 * steps) / (1.0 + 0.19 * steps))
        .max(k * 0.3);
    let rise = stack_rise(kk);
    let t = j as f64 - steps / 2.0;
    (kk, (t * rise / 2.0, -t * rise))
}

/// The fill of a bombardment chip.
pub(super) const BOMBARD_CHIP: &str = "#bbbbbb";

/// An objective's star on a disc of its controller's colour (white: nobody yet) at
/// `(x, y)`.
pub(super) fn objective_star(o: &mut String, x: f64, y: f64, s: f64, who: Option<Side>) {
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

/// One chip: a small square with a short label; on the map, `at` is its hex and its
/// kind (`data-hex`, `data-marker`); `None` in the legend.
#[allow(clippy::too_many_arguments)]
pub(super) fn chip(
    o: &mut String,
    at: Option<(Hex, &str)>,
    x0: f64,
    yy: f64,
    cw: f64,
    label: &str,
    fill: &str,
    what: &str,
) {
    let (class, at) = match at {
        Some((h, kind)) => (
            "marker",
            format!(r#" data-marker="{}" data-hex="{h}""#, xml_escape(kind)),
        ),
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

/// One unit counter centred at `c`, `k` pixels square; `place` (attributes, such as
/// a map counter's `data-hex`, `data-stack` and `data-stack-size`) goes on its group
/// after `data-unit`, `data-side` and `data-steps`.
#[allow(clippy::too_many_arguments)]
pub(super) fn counter(
    o: &mut String,
    sc: &Scenario,
    i: usize,
    u: &UnitState,
    c: (f64, f64),
    k: f64,
    labels: UnitLabels,
    place: &str,
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
        r#"<g class="unit" data-unit="{}" data-side="{}" data-steps="{}"{place}><title>{} ({}), {} {}: {}-{}-{}, {} of {} step(s){}</title>"#,
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
        r##" class="factors" text-anchor="middle" font-weight="bold" fill="#111""##,
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

pub(super) fn lighten(hex: &str, f: f64) -> String {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0x888888);
    let ch = |sh: u32| {
        let c = ((v >> sh) & 0xff) as f64;
        (c + (255.0 - c) * f).round() as u32
    };
    format!("#{:02x}{:02x}{:02x}", ch(16), ch(8), ch(0))
}
