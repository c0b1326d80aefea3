//! Fire & Movement's events in words: one line per event a reader needs, indented by
//! how deep in the turn it happens (`play` prints these, and `serve`'s `log` gives them
//! with `"words": true`). A value hidden from the reader (a redacted event's) reads `?`.

use crate::fm::event::Event;
use crate::fm::scenario::Scenario;
use crate::ids::Side;

fn side_name(sc: &Scenario, s: Option<Side>) -> String {
    match s {
        Some(s) => sc.side_name(s).to_string(),
        None => "draw".into(),
    }
}

/// The event in words, as `play` prints it, or `None` for bookkeeping a reader does
/// not need.
pub fn describe(sc: &Scenario, e: &Event) -> Option<String> {
    Some(match e {
        Event::TurnStarted { turn } => format!("== {} ==", sc.data.turns[(*turn - 1) as usize].name),
        Event::PhaseStarted { side, phase } => format!("-- {}: {phase}", sc.side_name(*side)),
        Event::UnitPlaced { unit, hex } => format!("   {unit} placed at {hex}"),
        Event::ReinforcementsArrived { units, .. } => format!("   reinforcements available: {}", units.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")),
        Event::UnitMoved { unit, from, path, mp } => {
            let p: Vec<String> = path.iter().map(|h| h.to_string()).collect();
            match from {
                Some(f) => format!("   {unit} moves {f} -> {} ({mp} MP)", p.join(" ")),
                None => format!("   {unit} enters -> {} ({mp} MP)", p.join(" ")),
            }
        }
        Event::BombardmentDeclared { hex, markers, .. } => format!("   bombardment of {hex} with {markers} marker(s)"),
        Event::AttackDeclared { hex, attackers, .. } => format!(
            "   attack on {hex} by {}",
            attackers.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")
        ),
        Event::SupportRevealed { attacker, defender } => format!("   support fire revealed: attacker {attacker:?}, defender {defender:?}"),
        Event::CombatResolved { attack, defense, differential, line, column, die, result, applies, shift, .. } => format!(
            "   {attack} vs {defense}: differential {differential:+}, line {line}, column {column}{}, die {die} => {result}{}",
            if *shift != 0 { format!(" (shifted {shift:+})") } else { String::new() },
            if *applies { "" } else { " (no effect)" }
        ),
        Event::StepLost { unit, steps } => format!("   {unit} loses a step ({steps} left)"),
        Event::UnitEliminated { unit } => format!("   {unit} eliminated"),
        Event::StiffResistance { unit, held } if held.is_empty() => {
            format!("   {unit} offers stiff resistance")
        }
        Event::StiffResistance { unit, held } => format!(
            "   {unit} offers stiff resistance; {} hold with it",
            held.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")
        ),
        Event::UnitRetreated { unit, from, path } => format!(
            "   {unit} retreats {from} -> {}",
            path.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
        ),
        Event::UnitDisplaced { unit, from, to } => format!("   {unit} displaced {from} -> {to}"),
        Event::UnitAdvanced { unit, path, .. } => format!("   {unit} advances to {}", path.last()?),
        Event::GameOver { winner, reason } => format!("** game over: {} ({reason})", side_name(sc, *winner)),
        Event::ArtilleryAllotted { side, count } => format!("   {}: {count} artillery markers", sc.side_name(*side)),
        Event::AircraftPlaced { hex } => format!("   aircraft observes {hex}"),
        Event::ArtilleryDeclared { hex, markers, gas, .. } => format!(
            "   artillery on {hex}: {markers} marker(s){}",
            if *gas { ", gas" } else { "" }
        ),
        Event::ArtilleryFired { die, modifier, total, hit, .. } => format!(
            "   artillery die {die} {modifier:+} = {total}: {}",
            if *hit { "hit" } else { "no effect" }
        ),
        Event::HexBreached { hex } => format!("   works at {hex} breached"),
        Event::LostBattalionDeclared { declared: true } => "   the Lost Battalion is declared".to_string(),
        Event::UnitReplaced { unit, hex, .. } => format!("   {unit} returns as a replacement at {hex}"),
        Event::UnitRebuilt { unit, .. } => format!("   {unit} rebuilt"),
        Event::DivisionBrokenDown { unit, hex, brigades } => format!(
            "   {unit} breaks down into {}{}",
            brigades.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", "),
            if hex.is_none() { " (arriving in its place)" } else { "" }
        ),
        Event::BrigadePlaced { unit, hex } => format!("   {unit} (third step) placed at {hex}"),
        Event::ReplacementsReceived { side, count } => {
            format!("   {}: {count} replacements this night", sc.side_name(*side))
        }
        Event::AircraftLost { remaining } => {
            format!("   the Red Baron downs an aircraft ({remaining} left)")
        }
        Event::LossRequired { side, candidates, .. } => format!(
            "   {} chooses a step loss among {}",
            sc.side_name(*side),
            candidates.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")
        ),
        Event::UnitsInactive { units } => format!("   {} units start un-activated", units.len()),
        Event::ActivationRolled { unit, die, activated } => format!(
            "   {unit} {} (die {die})",
            if *activated { "activates" } else { "stays inactive" }
        ),
        Event::UnitActivated { unit } => format!("   {unit} activates"),
        Event::FireSupportAdded { side, count, .. } => {
            format!("   {}: {count} fire support marker(s) join the pool", sc.side_name(*side))
        }
        Event::FireSupportReturned { side, values } => {
            format!("   {}: {} fire support marker(s) return to the pool", sc.side_name(*side), values.len())
        }
        Event::ReinforcementRolled { die, regiment } => match regiment {
            Some(r) => format!("   reinforcement roll {die}: the {r} arrives"),
            None => format!("   reinforcement roll {die}: nothing arrives"),
        },
        Event::KressAssigned { hex } => format!("   Kress assists the attack on {hex}"),
        Event::RailMovement { unit } => format!("   {unit} moves by rail"),
        Event::FireSupportPlanning { side } => format!("   fire support: {} places markers", sc.side_name(*side)),
        Event::FireSupportPlaced { side, hex, .. } => {
            format!("   fire support: {} places a marker on {hex}", sc.side_name(*side))
        }
        Event::AirUnitPlaced { hex, observe, strength } => {
            if *observe {
                format!("   the air unit observes {hex}")
            } else {
                format!("   the air unit bombards {hex} (+{strength})")
            }
        }
        Event::AttackAnnounced { hex, units } => format!(
            "   attack on {hex} announced by {}",
            units.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")
        ),
        Event::FireSupportRevealed { markers } => format!(
            "   fire support revealed: {}",
            markers
                .iter()
                .map(|m| format!(
                    "{} +{} on {}{}",
                    m.side,
                    m.value.map_or("?".to_string(), |v| v.to_string()),
                    m.hex,
                    if m.air { " (air)" } else { "" }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::FireSupportResolved { hex, unit, strength, line, column, die, result, hit, .. } => format!(
            "   fire support +{strength} on {unit} at {hex}: line {line}, column {column}, die {die} => {result}{}",
            if *hit { " (hit)" } else { " (no effect)" }
        ),
        Event::AttackCancelled { hex } => format!("   the attack on {hex} is cancelled"),
        _ => return None,
    })
}
