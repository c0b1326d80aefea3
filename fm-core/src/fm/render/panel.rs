//! The side panel beside the map: the turn and its name, the phase, the decision
//! awaited (or the result), and for each side its support fire markers (7.1, 7.2: a
//! view shows the other side's as a count), artillery markers and units off the map by
//! where they are; the legend under them.

use super::board::Snap;
use super::legend::draw_legend;
use super::pieces::SIDE_COLOURS;
use super::terrain::SideStyle;
use super::text::{text, wrap};
use crate::fm::scenario::{Scenario, StartData};
use crate::fm::state::{Location, Pending};
use crate::ids::{Side, UnitId};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Draws the panel at `x`, from `top` down, `w` wide, into `o`. Returns its height.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_panel(
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
    y = draw_legend(o, sc, px, y, lh, used_terrain, used_side, styles);
    y += 10.0;
    let h = y - top;
    let _ = write!(o, "</g>");
    let out = o.replace("PANEL_H", &format!("{h:.1}"));
    *o = out;
    h
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
