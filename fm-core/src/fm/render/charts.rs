//! The charts below the map, each a self-contained group laid out by the page: the
//! Combat Results Table (8.2.4) with the attack in progress's terrain line (8.2.2) and
//! column (8.2.1(d)) highlighted and a note saying why, counting only the support fire
//! markers the viewer can see (7.2); the terrain effects chart, each terrain's and
//! hexside feature's movement cost (5.4) and CRT line (8.2.2); the turn track with the
//! reinforcements due each turn (3.0(c)); each side's reinforcement and eliminated
//! boxes.

use super::board::{Board, Snap};
use super::options::UnitLabels;
use super::pieces::{counter, SIDE_COLOURS};
use super::terrain::{side_sample, terrain_colour, terrain_symbol, SideStyle};
use super::text::{clip_chars, text, wrap};
use crate::fm::combat::{combat_reading, CrtReading};
use crate::fm::hidden::sample_consistent;
use crate::fm::scenario::{MoveCost, Scenario, StartData};
use crate::fm::state::Location;
use crate::ids::Side;
use crate::svg::xml_escape;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Where the attack in progress reads the CRT, and how many committed markers the
/// board's viewer cannot see (not counted). For a side's view the totals come from a
/// state consistent with the view (`sample_consistent`): only what the view shows
/// counts.
pub(super) fn crt_reading_of(sc: &Scenario, board: Board<'_>) -> Option<(CrtReading, usize)> {
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
pub(super) fn crt_chart(
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
pub(super) fn terrain_chart(sc: &Scenario, styles: &[SideStyle]) -> (String, f64, f64) {
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
pub(super) fn turn_track(sc: &Scenario, snap: &Snap, max_w: f64) -> (String, f64, f64) {
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
pub(super) fn unit_boxes(
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
                counter(&mut o, sc, *i, &snap.units[*i], (cx, cy), k, labels, "");
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
