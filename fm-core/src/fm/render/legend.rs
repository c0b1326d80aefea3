//! The side panel's legend: the hex terrains and hexside features the part drawn uses,
//! each with its sample, then the markings of the map and the counters (objectives
//! and their control, set-up zones, the hex attacked and the attackers' arrows,
//! bombardment and support fire markers, stacks, steps, values, depleted counters).

use super::pieces::{chip, lighten, objective_star, BOMBARD_CHIP, SIDE_COLOURS};
use super::terrain::{side_sample, terrain_colour, terrain_symbol, SideStyle};
use super::text::{text, wrap};
use crate::fm::scenario::{MoveCost, Scenario};
use crate::ids::Side;
use std::fmt::Write;

/// Draws the legend into the panel at `px`, from `y` down, `lh` a line, listing the
/// terrains and hexside features marked in `used_terrain` and `used_side`. Returns the
/// y below it.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_legend(
    o: &mut String,
    sc: &Scenario,
    px: f64,
    mut y: f64,
    lh: f64,
    used_terrain: &[bool],
    used_side: &[bool],
    styles: &[SideStyle],
) -> f64 {
    let line = |o: &mut String, y: &mut f64, s: &str, attrs: &str| {
        *y += lh;
        text(o, px, *y, 11.0, attrs, s);
    };
    let bold = r##" font-weight="bold" fill="#222""##;
    let plain = r##" fill="#333""##;
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
    y
}
