//! Keeps `docs/protocol.md` honest: every ```` ```json ```` block must be what the engine
//! reads and writes, and every command, event and pending-decision variant must have an
//! example there.
//!
//! A block (or any object nested in it) tagged with a known command or event `"type"`
//! must deserialize as [`Command`] / [`Event`] and serialize back to the same JSON; one
//! tagged with a known pending `"kind"` must do the same as [`Pending`]; an object of
//! exactly `rule` and `message` must be a [`RuleError`]. Anything else (scenario
//! excerpts, views, odds) must at least be valid JSON. ```` ```jsonc ```` blocks are
//! intentionally partial and not checked.
//!
//! The `*_type` functions below match exhaustively, so adding a variant to the engine
//! fails to compile here until its tag is added to the lists, and then fails the test
//! until the document shows an example of it.

use fm_core::{Command, Event, Pending, RuleError};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Every command variant: Rust name and JSON `"type"`.
const COMMANDS: &[(&str, &str)] = &[
    ("Place", "place"),
    ("Move", "move"),
    ("Bombard", "bombard"),
    ("Attack", "attack"),
    ("SupportFire", "support_fire"),
    ("ChooseLoss", "choose_loss"),
    ("Retreat", "retreat"),
    ("StiffResistance", "stiff_resistance"),
    ("Advance", "advance"),
    ("Replace", "replace"),
    ("Rebuild", "rebuild"),
    ("BreakDown", "break_down"),
    ("PlaceAircraft", "place_aircraft"),
    ("Artillery", "artillery"),
    ("LostBattalion", "lost_battalion"),
    ("AirUnit", "air_unit"),
    ("Kress", "kress"),
    ("Done", "done"),
];

/// Every event variant: Rust name and JSON `"type"`.
const EVENTS: &[(&str, &str)] = &[
    ("TurnStarted", "turn_started"),
    ("SupportAllotted", "support_allotted"),
    ("PhaseStarted", "phase_started"),
    ("UnitPlaced", "unit_placed"),
    ("ReinforcementsArrived", "reinforcements_arrived"),
    ("UnitMoved", "unit_moved"),
    ("BombardmentDeclared", "bombardment_declared"),
    ("AttackDeclared", "attack_declared"),
    ("SupportCommitted", "support_committed"),
    ("SupportPassed", "support_passed"),
    ("SupportRevealed", "support_revealed"),
    ("CombatResolved", "combat_resolved"),
    ("StepLost", "step_lost"),
    ("UnitEliminated", "unit_eliminated"),
    ("LossRequired", "loss_required"),
    ("RetreatRequired", "retreat_required"),
    ("StiffResistance", "stiff_resistance"),
    ("UnitDisplaced", "unit_displaced"),
    ("UnitRetreated", "unit_retreated"),
    ("AdvanceOffered", "advance_offered"),
    ("UnitAdvanced", "unit_advanced"),
    ("CombatEnded", "combat_ended"),
    ("ArtilleryAllotted", "artillery_allotted"),
    ("AircraftPlaced", "aircraft_placed"),
    ("ArtilleryDeclared", "artillery_declared"),
    ("ArtilleryFiring", "artillery_firing"),
    ("ArtilleryFired", "artillery_fired"),
    ("HexBreached", "hex_breached"),
    ("ArtilleryRetreatOffered", "artillery_retreat_offered"),
    ("LostBattalionOffered", "lost_battalion_offered"),
    ("LostBattalionDeclared", "lost_battalion_declared"),
    ("ReplacementsReceived", "replacements_received"),
    ("AircraftLost", "aircraft_lost"),
    ("ReplacementAvailable", "replacement_available"),
    ("UnitReplaced", "unit_replaced"),
    ("UnitRebuilt", "unit_rebuilt"),
    ("DivisionBrokenDown", "division_broken_down"),
    ("BrigadePlaced", "brigade_placed"),
    ("UnitsInactive", "units_inactive"),
    ("ActivationRolled", "activation_rolled"),
    ("UnitActivated", "unit_activated"),
    ("FireSupportAdded", "fire_support_added"),
    ("FireSupportReturned", "fire_support_returned"),
    ("ReinforcementRolled", "reinforcement_rolled"),
    ("KressAssigned", "kress_assigned"),
    ("RailMovement", "rail_movement"),
    ("FireSupportPlanning", "fire_support_planning"),
    ("FireSupportPlaced", "fire_support_placed"),
    ("AirUnitPlaced", "air_unit_placed"),
    ("AttackAnnounced", "attack_announced"),
    ("FireSupportRevealed", "fire_support_revealed"),
    ("FireSupportResolved", "fire_support_resolved"),
    ("AttackCancelled", "attack_cancelled"),
    ("GameOver", "game_over"),
];

/// Every pending-decision variant: Rust name and JSON `"kind"`.
const PENDINGS: &[(&str, &str)] = &[
    ("Setup", "setup"),
    ("Phase", "phase"),
    ("SupportFire", "support_fire"),
    ("ChooseLoss", "choose_loss"),
    ("Retreat", "retreat"),
    ("Advance", "advance"),
    ("LostBattalion", "lost_battalion"),
    ("ArtilleryRetreat", "artillery_retreat"),
    ("FireSupport", "fire_support"),
    ("GameOver", "game_over"),
];

fn command_type(c: &Command) -> &'static str {
    match c {
        Command::Place { .. } => "place",
        Command::Move { .. } => "move",
        Command::Bombard { .. } => "bombard",
        Command::Attack { .. } => "attack",
        Command::SupportFire { .. } => "support_fire",
        Command::ChooseLoss { .. } => "choose_loss",
        Command::Retreat { .. } => "retreat",
        Command::StiffResistance { .. } => "stiff_resistance",
        Command::Advance { .. } => "advance",
        Command::Replace { .. } => "replace",
        Command::Rebuild { .. } => "rebuild",
        Command::BreakDown { .. } => "break_down",
        Command::PlaceAircraft { .. } => "place_aircraft",
        Command::Artillery { .. } => "artillery",
        Command::LostBattalion { .. } => "lost_battalion",
        Command::AirUnit { .. } => "air_unit",
        Command::Kress { .. } => "kress",
        Command::Done => "done",
    }
}

fn event_type(e: &Event) -> &'static str {
    match e {
        Event::TurnStarted { .. } => "turn_started",
        Event::SupportAllotted { .. } => "support_allotted",
        Event::PhaseStarted { .. } => "phase_started",
        Event::UnitPlaced { .. } => "unit_placed",
        Event::ReinforcementsArrived { .. } => "reinforcements_arrived",
        Event::UnitMoved { .. } => "unit_moved",
        Event::BombardmentDeclared { .. } => "bombardment_declared",
        Event::AttackDeclared { .. } => "attack_declared",
        Event::SupportCommitted { .. } => "support_committed",
        Event::SupportPassed { .. } => "support_passed",
        Event::SupportRevealed { .. } => "support_revealed",
        Event::CombatResolved { .. } => "combat_resolved",
        Event::StepLost { .. } => "step_lost",
        Event::UnitEliminated { .. } => "unit_eliminated",
        Event::LossRequired { .. } => "loss_required",
        Event::RetreatRequired { .. } => "retreat_required",
        Event::StiffResistance { .. } => "stiff_resistance",
        Event::UnitDisplaced { .. } => "unit_displaced",
        Event::UnitRetreated { .. } => "unit_retreated",
        Event::AdvanceOffered { .. } => "advance_offered",
        Event::UnitAdvanced { .. } => "unit_advanced",
        Event::CombatEnded { .. } => "combat_ended",
        Event::ArtilleryAllotted { .. } => "artillery_allotted",
        Event::AircraftPlaced { .. } => "aircraft_placed",
        Event::ArtilleryDeclared { .. } => "artillery_declared",
        Event::ArtilleryFiring { .. } => "artillery_firing",
        Event::ArtilleryFired { .. } => "artillery_fired",
        Event::HexBreached { .. } => "hex_breached",
        Event::ArtilleryRetreatOffered { .. } => "artillery_retreat_offered",
        Event::LostBattalionOffered => "lost_battalion_offered",
        Event::LostBattalionDeclared { .. } => "lost_battalion_declared",
        Event::ReplacementsReceived { .. } => "replacements_received",
        Event::AircraftLost { .. } => "aircraft_lost",
        Event::ReplacementAvailable { .. } => "replacement_available",
        Event::UnitReplaced { .. } => "unit_replaced",
        Event::UnitRebuilt { .. } => "unit_rebuilt",
        Event::DivisionBrokenDown { .. } => "division_broken_down",
        Event::BrigadePlaced { .. } => "brigade_placed",
        Event::UnitsInactive { .. } => "units_inactive",
        Event::ActivationRolled { .. } => "activation_rolled",
        Event::UnitActivated { .. } => "unit_activated",
        Event::FireSupportAdded { .. } => "fire_support_added",
        Event::FireSupportReturned { .. } => "fire_support_returned",
        Event::ReinforcementRolled { .. } => "reinforcement_rolled",
        Event::KressAssigned { .. } => "kress_assigned",
        Event::RailMovement { .. } => "rail_movement",
        Event::FireSupportPlanning { .. } => "fire_support_planning",
        Event::FireSupportPlaced { .. } => "fire_support_placed",
        Event::AirUnitPlaced { .. } => "air_unit_placed",
        Event::AttackAnnounced { .. } => "attack_announced",
        Event::FireSupportRevealed { .. } => "fire_support_revealed",
        Event::FireSupportResolved { .. } => "fire_support_resolved",
        Event::AttackCancelled { .. } => "attack_cancelled",
        Event::GameOver { .. } => "game_over",
    }
}

fn pending_kind(p: &Pending) -> &'static str {
    match p {
        Pending::Setup { .. } => "setup",
        Pending::Phase { .. } => "phase",
        Pending::SupportFire { .. } => "support_fire",
        Pending::ChooseLoss { .. } => "choose_loss",
        Pending::Retreat { .. } => "retreat",
        Pending::Advance { .. } => "advance",
        Pending::LostBattalion { .. } => "lost_battalion",
        Pending::ArtilleryRetreat { .. } => "artillery_retreat",
        Pending::FireSupport { .. } => "fire_support",
        Pending::GameOver { .. } => "game_over",
    }
}

fn tags(list: &'static [(&'static str, &'static str)]) -> impl Iterator<Item = &'static str> {
    list.iter().map(|(_, t)| *t)
}

fn is_tag(list: &[(&str, &str)], t: &str) -> bool {
    list.iter().any(|(_, x)| *x == t)
}

fn document() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A fenced block: its info string, first line number (1-based) and text.
struct Block {
    info: String,
    line: usize,
    text: String,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        let t = line.trim_start();
        match open.as_mut() {
            None => {
                if let Some(info) = t.strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        line: i + 1,
                        text: String::new(),
                    });
                }
            }
            Some(b) => {
                if t.starts_with("```") {
                    out.push(open.take().expect("open block"));
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "unterminated code block in docs/protocol.md"
    );
    out
}

/// What the checked examples contain.
#[derive(Default)]
struct Seen {
    commands: BTreeSet<&'static str>,
    events: BTreeSet<&'static str>,
    pendings: BTreeSet<&'static str>,
    errors: usize,
    json_blocks: usize,
}

/// Parses `v` as `T` and checks that it serializes back to the same JSON value.
fn round_trip<T>(v: &Value) -> Result<T, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    let parsed: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    let back = serde_json::to_value(&parsed).map_err(|e| e.to_string())?;
    if &back != v {
        return Err(format!("serializes back as {back}"));
    }
    Ok(parsed)
}

/// Checks one JSON value and everything nested in it.
fn check(v: &Value, seen: &mut Seen) -> Result<(), String> {
    match v {
        Value::Array(items) => items.iter().try_for_each(|x| check(x, seen)),
        Value::Object(map) => {
            if let Some(t) = map.get("type").and_then(Value::as_str) {
                let (is_cmd, is_ev) = (is_tag(COMMANDS, t), is_tag(EVENTS, t));
                if is_cmd || is_ev {
                    let mut problems = Vec::new();
                    let mut ok = false;
                    if is_cmd {
                        match round_trip::<Command>(v) {
                            Ok(c) => {
                                assert_eq!(command_type(&c), t, "command tag of {v}");
                                seen.commands.insert(command_type(&c));
                                ok = true;
                            }
                            Err(e) => problems.push(format!("as a command: {e}")),
                        }
                    }
                    if is_ev {
                        match round_trip::<Event>(v) {
                            Ok(e) => {
                                assert_eq!(event_type(&e), t, "event tag of {v}");
                                seen.events.insert(event_type(&e));
                                ok = true;
                            }
                            Err(e) => problems.push(format!("as an event: {e}")),
                        }
                    }
                    return if ok {
                        Ok(())
                    } else {
                        Err(format!("{v}: {}", problems.join("; ")))
                    };
                }
            }
            if let Some(k) = map.get("kind").and_then(Value::as_str) {
                if is_tag(PENDINGS, k) && !map.contains_key("type") {
                    let p =
                        round_trip::<Pending>(v).map_err(|e| format!("{v}: as pending: {e}"))?;
                    assert_eq!(pending_kind(&p), k, "pending kind of {v}");
                    seen.pendings.insert(pending_kind(&p));
                    return Ok(());
                }
            }
            if map.len() == 2 && map.contains_key("rule") && map.contains_key("message") {
                round_trip::<RuleError>(v).map_err(|e| format!("{v}: as a rule error: {e}"))?;
                seen.errors += 1;
                return Ok(());
            }
            map.values().try_for_each(|x| check(x, seen))
        }
        _ => Ok(()),
    }
}

/// Checks every `json` block of the document.
fn check_document(doc: &str) -> Seen {
    let mut seen = Seen::default();
    let mut failures = Vec::new();
    for b in blocks(doc).iter().filter(|b| b.info == "json") {
        seen.json_blocks += 1;
        match serde_json::from_str::<Value>(&b.text) {
            Err(e) => failures.push(format!("line {}: invalid JSON: {e}", b.line)),
            Ok(v) => {
                if let Err(e) = check(&v, &mut seen) {
                    failures.push(format!("line {}: {e}", b.line));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "docs/protocol.md has json blocks the engine does not accept:\n{}",
        failures.join("\n")
    );
    seen
}

#[test]
fn every_json_block_parses_and_round_trips() {
    let seen = check_document(&document());
    assert!(seen.json_blocks > 0, "no json blocks found");
    assert!(seen.errors > 0, "no RuleError example");
}

#[test]
fn every_variant_has_a_json_example() {
    let seen = check_document(&document());
    let missing: Vec<String> = tags(COMMANDS)
        .filter(|t| !seen.commands.contains(t))
        .map(|t| format!("command {t}"))
        .chain(
            tags(EVENTS)
                .filter(|t| !seen.events.contains(t))
                .map(|t| format!("event {t}")),
        )
        .chain(
            tags(PENDINGS)
                .filter(|t| !seen.pendings.contains(t))
                .map(|t| format!("pending {t}")),
        )
        .collect();
    assert!(
        missing.is_empty(),
        "docs/protocol.md has no json example of: {}",
        missing.join(", ")
    );
}

#[test]
fn every_variant_is_named() {
    let doc = document();
    let mut missing = Vec::new();
    for (enum_name, list) in [
        ("Command", COMMANDS),
        ("Event", EVENTS),
        ("Pending", PENDINGS),
    ] {
        for (name, tag) in list {
            let rust = format!("{enum_name}::{name}");
            if !doc.contains(&rust) {
                missing.push(rust);
            }
            let heading = format!("### `{tag}` (`{enum_name}::{name}`)");
            if !doc.lines().any(|l| l.trim_end() == heading) {
                missing.push(heading);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/protocol.md does not document: {}",
        missing.join(", ")
    );
}

#[test]
fn variant_lists_are_consistent() {
    // The lists are hand-written: no duplicates, and each tag is the variant name as
    // `rename_all = "snake_case"` writes it.
    for list in [COMMANDS, EVENTS, PENDINGS] {
        let names: BTreeSet<_> = list.iter().map(|(n, _)| n).collect();
        let tags: BTreeSet<_> = list.iter().map(|(_, t)| t).collect();
        assert_eq!(names.len(), list.len(), "duplicate variant name");
        assert_eq!(tags.len(), list.len(), "duplicate tag");
        for (name, tag) in list {
            assert_eq!(snake(name), *tag, "tag of {name}");
        }
    }
}

/// `rename_all = "snake_case"` as serde applies it to a variant name.
fn snake(name: &str) -> String {
    let mut s = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.extend(ch.to_lowercase());
        } else {
            s.push(ch);
        }
    }
    s
}

/// The CRT example of the scenario section deserializes as `CrtData` (the form of
/// `crt` in a scenario file).
#[test]
fn crt_example_is_scenario_crt_data() {
    let doc = document();
    let mut found = 0;
    for b in blocks(&doc).into_iter().filter(|b| b.info == "json") {
        let Ok(value) = serde_json::from_str::<Value>(&b.text) else {
            continue;
        };
        if let Value::Object(m) = &value {
            if m.contains_key("grid") && m.contains_key("lines") {
                let c: fm_core::CrtData = serde_json::from_value(value.clone())
                    .unwrap_or_else(|e| panic!("CRT example: {e}"));
                assert!(c.lines.iter().any(|l| l.labels.is_some()));
                found += 1;
            }
        }
    }
    assert_eq!(found, 1, "one CRT example in docs/protocol.md");
}
