//! Huzzah!'s events in words: one line per event a reader needs, each roll with its
//! factor, modifiers and result (`play` prints these, and `serve`'s `log` gives them
//! with `"words": true`). Stand-in outcomes say so (`[stand-in]`).

use crate::huzzah::event::{Event, Test};
use crate::huzzah::scenario::Scenario;
use crate::ids::{OfficerId, Side, UnitId};

fn test(t: &Test) -> String {
    let mods: Vec<String> = t
        .modifiers
        .iter()
        .map(|m| format!("{:+} {}", m.by, m.why))
        .collect();
    format!(
        "{}{} = {}; rolled {}+{}={} {}",
        t.base,
        if mods.is_empty() {
            String::new()
        } else {
            format!(" ({})", mods.join(", "))
        },
        t.factor,
        t.dice.0,
        t.dice.1,
        t.dice.total(),
        if t.passed { "passes" } else { "fails" }
    )
}

/// The event in words, as `play` prints it (indented by how deep in the turn it happens),
/// or `None` for bookkeeping a reader does not need.
pub fn describe(sc: &Scenario, e: &Event) -> Option<String> {
    let u = |x: &UnitId| x.to_string();
    let side = |s: &Side| sc.side(*s).name.clone();
    let officer = |o: &OfficerId| o.to_string();
    Some(match e {
        Event::FirstDecided { side: s, by } => format!("{} place first ({by})", side(s)),
        Event::PlayersDecided { player1 } => format!("{} is Player 1", side(player1)),
        Event::TurnStarted {
            turn,
            ground,
            weather,
        } => format!("== turn {turn} ({ground:?} ground, {weather:?} weather) =="),
        Event::SkirmishTested { side: s, test: t } => {
            format!("  skirmishers of {}: {}", side(s), test(t))
        }
        Event::SkirmisherWar { winner } => match winner {
            Some(w) => format!("  {} win the skirmisher war", side(w)),
            None => "  nobody wins the skirmisher war".into(),
        },
        Event::ArtilleryTested { side: s, test: t } => {
            format!("  artillery of {}: {}", side(s), test(t))
        }
        Event::FireResolved {
            unit,
            target,
            test: t,
            hits,
            bases,
        } => format!(
            "  {} fires at {} with {bases} bases: {}; {hits} hits",
            u(unit),
            u(target),
            test(t)
        ),
        Event::BaseRemoved { unit, kind, .. } => format!("    {} loses a {kind:?} base", u(unit)),
        Event::UnitDestroyed { unit } => format!("    {} is destroyed", u(unit)),
        Event::MoraleTested { unit, test: t } => format!("    {} morale: {}", u(unit), test(t)),
        Event::WaverTested { unit, test: t } => format!("    {} waver test: {}", u(unit), test(t)),
        Event::StatusChanged { unit, status, why } => {
            format!("    {} is now {status:?} ({why})", u(unit))
        }
        Event::UnitMoved {
            unit,
            distance_mm,
            why,
            ..
        } => format!(
            "    {} moves {:.1} cm ({why})",
            u(unit),
            distance_mm.as_mm() / 10.0
        ),
        Event::ToRoutTable { unit } => format!("    {} goes to the Rout Table", u(unit)),
        Event::UnitCaptured { unit } => format!("    {} is captured", u(unit)),
        Event::OrderGiven {
            officer: o,
            order,
            units,
            test: t,
            automatic,
            ..
        } => format!(
            "  {} orders {} to {order:?}: {}",
            officer(o),
            units.iter().map(u).collect::<Vec<_>>().join(", "),
            match t {
                Some(t) => test(t),
                None if *automatic => "automatic (Huzzah!)".into(),
                None => String::new(),
            }
        ),
        Event::OrdersEnded { why, .. } => format!("  orders end: {why}"),
        Event::Charged { unit, target, face } => {
            format!("    {} charges {} in the {face:?}", u(unit), u(target))
        }
        Event::MeleeResolved {
            a,
            b,
            winner,
            hits,
            stand_in,
            ..
        } => format!(
            "  melee {} v {}: {} (hits {}/{}){}",
            u(a),
            u(b),
            match winner {
                Some(w) => format!("{} win", side(w)),
                None => "drawn".into(),
            },
            hits.0,
            hits.1,
            if *stand_in { " [stand-in]" } else { "" }
        ),
        Event::OfficerKilled { officer: o, unit } => {
            format!("    {} is killed with {}", officer(o), u(unit))
        }
        Event::OfficerCaptured { officer: o, .. } => format!("    {} is captured", officer(o)),
        Event::UnitDeployed {
            unit,
            shape,
            column,
        } => format!(
            "    {} deploys into {} {:?}",
            u(unit),
            if *column {
                "road column"
            } else if shape.square {
                "square"
            } else {
                "line"
            },
            shape.ranks
        ),
        Event::SkirmishersDeployed {
            unit, bases, line, ..
        } => format!(
            "    {} sends {bases} base(s) into the skirmish line ({line} there now)",
            u(unit)
        ),
        Event::OfficerRemoved { officer: o, why } => {
            format!("    {} leaves the field ({why})", officer(o))
        }
        Event::BatteryJoined {
            unit,
            battery,
            quality,
            ..
        } => format!(
            "    {} joins the grand battery {}{}",
            u(unit),
            u(battery),
            quality.map_or(String::new(), |q| format!(", rated {q:?}"))
        ),
        Event::Engaged { a, b, why } => format!("    {} and {} are engaged ({why})", u(a), u(b)),
        Event::LinesPassed { unit, with } => {
            format!(
                "    {} and {} pass through each other's lines",
                u(unit),
                u(with)
            )
        }
        Event::RallyDecided {
            unit,
            to,
            test: t,
            stand_in,
        } => format!(
            "    {} is {to:?} after the rally{}{}",
            u(unit),
            t.as_ref()
                .map_or(String::new(), |t| format!(": {}", test(t))),
            if *stand_in { " [stand-in]" } else { "" }
        ),
        Event::GameEnded { outcome } => format!(
            "== {}: {} ==",
            match outcome.winner {
                Some(w) => format!("{} win", side(&w)),
                None => "a draw".into(),
            },
            outcome.reason
        ),
        _ => return None,
    })
}
