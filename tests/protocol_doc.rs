//! Keeps `docs/protocol.md` honest: every checked JSON block must be what the engine
//! reads and writes, and every command, event and pending-decision variant of each rules
//! system must have an example there.
//!
//! The document has one part per rules system ([`SYSTEMS`]): Fire & Movement's from the
//! top, then Huzzah! Glorious Empires' from its heading `## Huzzah! Glorious Empires` to
//! the end. The systems' tags overlap (both have an `advance` command and a `game_over`
//! pending decision), so a block names its system in its info string: ```` ```json ````
//! for Fire & Movement, ```` ```json huzzah ```` for Huzzah!. A block is checked against
//! its own system only, and a block whose info string does not match the part it stands
//! in fails the test, so no example is checked against the wrong engine.
//!
//! In a system's blocks, a block (or any object nested in it) tagged with one of the
//! system's command or event `"type"`s must deserialize as that system's `Command` /
//! `Event` and serialize back to the same JSON; one tagged with a pending `"kind"` must do
//! the same as its `Pending`; an object of exactly `rule` and `message` must be a
//! [`RuleError`]. Anything else (scenario excerpts, views, odds) must at least be valid
//! JSON. ```` ```jsonc ```` blocks are intentionally partial and not checked.
//!
//! The `*_type` functions below match exhaustively, so adding a variant to an engine
//! fails to compile here until its tag is added to the lists, and then fails the test
//! until the document shows an example of it under a heading naming it.

use fm_core::huzzah as hz;
use fm_core::{Command, Event, Pending, RuleError};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

// ------------------------------------------------------------------ Fire & Movement

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

// ---------------------------------------------------------- Huzzah! Glorious Empires

/// Every Huzzah! command variant (`fm_core::huzzah::command::Command`): Rust name and
/// JSON `"type"`.
const HZ_COMMANDS: &[(&str, &str)] = &[
    ("PlaceUnit", "place_unit"),
    ("EndPlacement", "end_placement"),
    ("PlaceOfficer", "place_officer"),
    ("Fire", "fire"),
    ("HoldFire", "hold_fire"),
    ("RemoveBase", "remove_base"),
    ("Order", "order"),
    ("Advance", "advance"),
    ("Charge", "charge"),
    ("Deploy", "deploy"),
    ("Retire", "retire"),
    ("SkirmishLine", "skirmish_line"),
    ("JoinBattery", "join_battery"),
    ("EnterSector", "enter_sector"),
    ("LeaveSector", "leave_sector"),
    ("AdvanceSector", "advance_sector"),
    ("PassageOfLines", "passage_of_lines"),
    ("Manoeuvre", "manoeuvre"),
    ("Appoint", "appoint"),
    ("MeleeResult", "melee_result"),
    ("Rally", "rally"),
    ("MoveOfficer", "move_officer"),
    ("EndOrder", "end_order"),
    ("EndPhase", "end_phase"),
];

/// Every Huzzah! event variant (`fm_core::huzzah::event::Event`): Rust name and JSON
/// `"type"`.
const HZ_EVENTS: &[(&str, &str)] = &[
    ("RolledOff", "rolled_off"),
    ("FirstDecided", "first_decided"),
    ("PlacementRolled", "placement_rolled"),
    ("UnitPlaced", "unit_placed"),
    ("PlacementEnded", "placement_ended"),
    ("PlayersDecided", "players_decided"),
    ("OfficersToPlace", "officers_to_place"),
    ("OfficerPlaced", "officer_placed"),
    ("TurnStarted", "turn_started"),
    ("InCombat", "in_combat"),
    ("PhaseStarted", "phase_started"),
    ("SkirmishTested", "skirmish_tested"),
    ("SkirmishFactorReduced", "skirmish_factor_reduced"),
    ("SkirmisherWar", "skirmisher_war"),
    ("ArtilleryTested", "artillery_tested"),
    ("ArtilleryFactorReduced", "artillery_factor_reduced"),
    ("FireDeclared", "fire_declared"),
    ("FireHeld", "fire_held"),
    ("QualityDetermined", "quality_determined"),
    ("FireResolved", "fire_resolved"),
    ("HitsApplied", "hits_applied"),
    ("BaseRemoved", "base_removed"),
    ("AbilityLost", "ability_lost"),
    ("RemovalDone", "removal_done"),
    ("UnitDestroyed", "unit_destroyed"),
    ("OfficerSave", "officer_save"),
    ("OfficerKilled", "officer_killed"),
    ("MoraleTested", "morale_tested"),
    ("AbilityGained", "ability_gained"),
    ("QualityImproved", "quality_improved"),
    ("StatusChanged", "status_changed"),
    ("UnitMoved", "unit_moved"),
    ("ExtraHit", "extra_hit"),
    ("PassedThrough", "passed_through"),
    ("ToRoutTable", "to_rout_table"),
    ("UnitCaptured", "unit_captured"),
    ("TargetResolved", "target_resolved"),
    ("OddHitsRemoved", "odd_hits_removed"),
    ("TurnEnded", "turn_ended"),
    ("OrderGiven", "order_given"),
    ("OrdersEnded", "orders_ended"),
    ("Acted", "acted"),
    ("OrderDone", "order_done"),
    ("Charged", "charged"),
    ("ImpulsiveCharges", "impulsive_charges"),
    ("UnitDeployed", "unit_deployed"),
    ("WaverTested", "waver_tested"),
    ("SkirmishersDeployed", "skirmishers_deployed"),
    ("OfficerRemoved", "officer_removed"),
    ("BatteryJoined", "battery_joined"),
    ("Engaged", "engaged"),
    ("LinesPassed", "lines_passed"),
    ("OfficerAppointed", "officer_appointed"),
    ("OfficerMoved", "officer_moved"),
    ("OfficerCaptured", "officer_captured"),
    ("MeleeResolved", "melee_resolved"),
    ("RallyDecided", "rally_decided"),
    ("Awaiting", "awaiting"),
    ("GameEnded", "game_ended"),
];

/// Every Huzzah! pending-decision variant (`fm_core::huzzah::state::Pending`): Rust
/// name and JSON `"kind"`.
const HZ_PENDINGS: &[(&str, &str)] = &[
    ("PlaceUnits", "place_units"),
    ("PlaceOfficer", "place_officer"),
    ("DeclareFire", "declare_fire"),
    ("RemoveBase", "remove_base"),
    ("FireAtCharger", "fire_at_charger"),
    ("Orders", "orders"),
    ("Act", "act"),
    ("Melee", "melee"),
    ("Rally", "rally"),
    ("MoveOfficers", "move_officers"),
    ("Opening", "opening"),
    ("GameOver", "game_over"),
];

fn hz_command_type(c: &hz::command::Command) -> &'static str {
    use hz::command::Command as C;
    match c {
        C::PlaceUnit { .. } => "place_unit",
        C::EndPlacement => "end_placement",
        C::PlaceOfficer { .. } => "place_officer",
        C::Fire { .. } => "fire",
        C::HoldFire { .. } => "hold_fire",
        C::RemoveBase { .. } => "remove_base",
        C::Order { .. } => "order",
        C::Advance { .. } => "advance",
        C::Charge { .. } => "charge",
        C::Deploy { .. } => "deploy",
        C::Retire { .. } => "retire",
        C::MeleeResult { .. } => "melee_result",
        C::Rally { .. } => "rally",
        C::MoveOfficer { .. } => "move_officer",
        C::SkirmishLine { .. } => "skirmish_line",
        C::JoinBattery { .. } => "join_battery",
        C::EnterSector { .. } => "enter_sector",
        C::LeaveSector { .. } => "leave_sector",
        C::AdvanceSector { .. } => "advance_sector",
        C::PassageOfLines { .. } => "passage_of_lines",
        C::Manoeuvre { .. } => "manoeuvre",
        C::Appoint { .. } => "appoint",
        C::EndOrder => "end_order",
        C::EndPhase => "end_phase",
    }
}

fn hz_event_type(e: &hz::event::Event) -> &'static str {
    use hz::event::Event as E;
    match e {
        E::RolledOff { .. } => "rolled_off",
        E::FirstDecided { .. } => "first_decided",
        E::PlacementRolled { .. } => "placement_rolled",
        E::UnitPlaced { .. } => "unit_placed",
        E::PlacementEnded { .. } => "placement_ended",
        E::PlayersDecided { .. } => "players_decided",
        E::OfficersToPlace => "officers_to_place",
        E::OfficerPlaced { .. } => "officer_placed",
        E::TurnStarted { .. } => "turn_started",
        E::InCombat { .. } => "in_combat",
        E::PhaseStarted { .. } => "phase_started",
        E::SkirmishTested { .. } => "skirmish_tested",
        E::SkirmishFactorReduced { .. } => "skirmish_factor_reduced",
        E::SkirmisherWar { .. } => "skirmisher_war",
        E::ArtilleryTested { .. } => "artillery_tested",
        E::ArtilleryFactorReduced { .. } => "artillery_factor_reduced",
        E::FireDeclared { .. } => "fire_declared",
        E::FireHeld { .. } => "fire_held",
        E::QualityDetermined { .. } => "quality_determined",
        E::FireResolved { .. } => "fire_resolved",
        E::HitsApplied { .. } => "hits_applied",
        E::BaseRemoved { .. } => "base_removed",
        E::AbilityLost { .. } => "ability_lost",
        E::RemovalDone { .. } => "removal_done",
        E::UnitDestroyed { .. } => "unit_destroyed",
        E::OfficerSave { .. } => "officer_save",
        E::OfficerKilled { .. } => "officer_killed",
        E::MoraleTested { .. } => "morale_tested",
        E::AbilityGained { .. } => "ability_gained",
        E::QualityImproved { .. } => "quality_improved",
        E::StatusChanged { .. } => "status_changed",
        E::UnitMoved { .. } => "unit_moved",
        E::ExtraHit { .. } => "extra_hit",
        E::PassedThrough { .. } => "passed_through",
        E::ToRoutTable { .. } => "to_rout_table",
        E::UnitCaptured { .. } => "unit_captured",
        E::TargetResolved { .. } => "target_resolved",
        E::OddHitsRemoved { .. } => "odd_hits_removed",
        E::TurnEnded { .. } => "turn_ended",
        E::OrderGiven { .. } => "order_given",
        E::OrdersEnded { .. } => "orders_ended",
        E::Acted { .. } => "acted",
        E::OrderDone => "order_done",
        E::Charged { .. } => "charged",
        E::ImpulsiveCharges { .. } => "impulsive_charges",
        E::UnitDeployed { .. } => "unit_deployed",
        E::WaverTested { .. } => "waver_tested",
        E::OfficerMoved { .. } => "officer_moved",
        E::OfficerCaptured { .. } => "officer_captured",
        E::MeleeResolved { .. } => "melee_resolved",
        E::RallyDecided { .. } => "rally_decided",
        E::SkirmishersDeployed { .. } => "skirmishers_deployed",
        E::OfficerRemoved { .. } => "officer_removed",
        E::BatteryJoined { .. } => "battery_joined",
        E::Engaged { .. } => "engaged",
        E::LinesPassed { .. } => "lines_passed",
        E::OfficerAppointed { .. } => "officer_appointed",
        E::Awaiting { .. } => "awaiting",
        E::GameEnded { .. } => "game_ended",
    }
}

fn hz_pending_kind(p: &hz::state::Pending) -> &'static str {
    use hz::state::Pending as P;
    match p {
        P::PlaceUnits { .. } => "place_units",
        P::PlaceOfficer { .. } => "place_officer",
        P::DeclareFire { .. } => "declare_fire",
        P::RemoveBase { .. } => "remove_base",
        P::FireAtCharger { .. } => "fire_at_charger",
        P::Orders { .. } => "orders",
        P::Act { .. } => "act",
        P::Melee { .. } => "melee",
        P::Rally { .. } => "rally",
        P::MoveOfficers { .. } => "move_officers",
        P::Opening => "opening",
        P::GameOver { .. } => "game_over",
    }
}

// ------------------------------------------------------------------ the two systems

/// A rules system's part of the document: where it starts, how its blocks and variant
/// headings are marked, its variant lists and its parsers.
struct System {
    /// Its name in failure messages.
    name: &'static str,
    /// The heading line its part starts at (`None`: the top of the document). Each part
    /// ends where the next system's begins.
    heading: Option<&'static str>,
    /// The info string of its checked blocks.
    info: &'static str,
    /// The heading level of a variant's entry.
    level: &'static str,
    /// The prefix of the enum's name in that heading: ``### `place` (`Command::Place`)``
    /// for Fire & Movement, ``#### `fire` (`huzzah::Command::Fire`)`` for Huzzah!.
    path: &'static str,
    commands: &'static [(&'static str, &'static str)],
    events: &'static [(&'static str, &'static str)],
    pendings: &'static [(&'static str, &'static str)],
    /// Each parses a value as the system's type, checks the round trip and returns the
    /// variant's tag.
    command: Parse,
    event: Parse,
    pending: Parse,
}

type Parse = fn(&Value) -> Result<&'static str, String>;

/// The systems, in the document's order.
const SYSTEMS: [System; 2] = [
    System {
        name: "Fire & Movement",
        heading: None,
        info: "json",
        level: "###",
        path: "",
        commands: COMMANDS,
        events: EVENTS,
        pendings: PENDINGS,
        command: |v| tagged(v, command_type),
        event: |v| tagged(v, event_type),
        pending: |v| tagged(v, pending_kind),
    },
    System {
        name: "Huzzah!",
        heading: Some("## Huzzah! Glorious Empires"),
        info: "json huzzah",
        level: "####",
        path: "huzzah::",
        commands: HZ_COMMANDS,
        events: HZ_EVENTS,
        pendings: HZ_PENDINGS,
        command: |v| tagged(v, hz_command_type),
        event: |v| tagged(v, hz_event_type),
        pending: |v| tagged(v, hz_pending_kind),
    },
];

// ------------------------------------------------------------------ the checks

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

/// The line (1-based) each system's part starts at, in [`SYSTEMS`] order. Each heading
/// must be in the document exactly once, outside code blocks, in the systems' order.
fn part_starts(doc: &str) -> Vec<usize> {
    let mut in_block = false;
    let mut found: Vec<Vec<usize>> = vec![Vec::new(); SYSTEMS.len()];
    for (i, line) in doc.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        for (k, sys) in SYSTEMS.iter().enumerate() {
            if !in_block && sys.heading == Some(line.trim_end()) {
                found[k].push(i + 1);
            }
        }
    }
    let starts: Vec<usize> = SYSTEMS
        .iter()
        .zip(&found)
        .map(|(sys, lines)| match (sys.heading, lines.as_slice()) {
            (None, _) => 1,
            (Some(_), [one]) => *one,
            (Some(h), _) => panic!("docs/protocol.md must have the heading {h:?} exactly once"),
        })
        .collect();
    assert!(
        starts.windows(2).all(|w| w[0] < w[1]),
        "docs/protocol.md's system parts are out of order: {starts:?}"
    );
    starts
}

/// The index in [`SYSTEMS`] of the system whose part holds `line`.
fn system_at(starts: &[usize], line: usize) -> usize {
    starts.iter().rposition(|s| *s <= line).unwrap_or(0)
}

/// The text of system `k`'s part.
fn part(doc: &str, k: usize) -> String {
    let starts = part_starts(doc);
    doc.lines()
        .enumerate()
        .filter(|(i, _)| system_at(&starts, i + 1) == k)
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

/// What the checked examples of one system contain.
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

/// [`round_trip`], then the variant's tag.
fn tagged<T>(v: &Value, tag: fn(&T) -> &'static str) -> Result<&'static str, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize,
{
    round_trip::<T>(v).map(|x| tag(&x))
}

/// Checks one JSON value of `sys` and everything nested in it.
fn check(sys: &System, v: &Value, seen: &mut Seen) -> Result<(), String> {
    match v {
        Value::Array(items) => items.iter().try_for_each(|x| check(sys, x, seen)),
        Value::Object(map) => {
            if let Some(t) = map.get("type").and_then(Value::as_str) {
                let (is_cmd, is_ev) = (is_tag(sys.commands, t), is_tag(sys.events, t));
                if is_cmd || is_ev {
                    let mut problems = Vec::new();
                    let mut ok = false;
                    if is_cmd {
                        match (sys.command)(v) {
                            Ok(c) => {
                                assert_eq!(c, t, "command tag of {v}");
                                seen.commands.insert(c);
                                ok = true;
                            }
                            Err(e) => problems.push(format!("as a command: {e}")),
                        }
                    }
                    if is_ev {
                        match (sys.event)(v) {
                            Ok(e) => {
                                assert_eq!(e, t, "event tag of {v}");
                                seen.events.insert(e);
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
                if is_tag(sys.pendings, k) && !map.contains_key("type") {
                    let p = (sys.pending)(v).map_err(|e| format!("{v}: as pending: {e}"))?;
                    assert_eq!(p, k, "pending kind of {v}");
                    seen.pendings.insert(p);
                    return Ok(());
                }
            }
            if map.len() == 2 && map.contains_key("rule") && map.contains_key("message") {
                round_trip::<RuleError>(v).map_err(|e| format!("{v}: as a rule error: {e}"))?;
                seen.errors += 1;
                return Ok(());
            }
            map.values().try_for_each(|x| check(sys, x, seen))
        }
        _ => Ok(()),
    }
}

/// Whether an info string marks a block some system checks (`jsonc` is unchecked).
fn is_checked_info(info: &str) -> bool {
    info == "json" || info.starts_with("json ")
}

/// Checks every block of system `k`'s part, and that each checked block is marked as
/// that system's.
fn check_document(doc: &str, k: usize) -> Seen {
    let sys = &SYSTEMS[k];
    let starts = part_starts(doc);
    let mut seen = Seen::default();
    let mut failures = Vec::new();
    let mine = blocks(doc)
        .into_iter()
        .filter(|b| system_at(&starts, b.line) == k && is_checked_info(&b.info));
    for b in mine {
        if b.info != sys.info {
            failures.push(format!(
                "line {}: a ```{} block in the {} part (its blocks are ```{})",
                b.line, b.info, sys.name, sys.info
            ));
            continue;
        }
        seen.json_blocks += 1;
        match serde_json::from_str::<Value>(&b.text) {
            Err(e) => failures.push(format!("line {}: invalid JSON: {e}", b.line)),
            Ok(v) => {
                if let Err(e) = check(sys, &v, &mut seen) {
                    failures.push(format!("line {}: {e}", b.line));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "docs/protocol.md has {} blocks the engine does not accept:\n{}",
        sys.name,
        failures.join("\n")
    );
    seen
}

#[test]
fn every_json_block_parses_and_round_trips() {
    let doc = document();
    for (k, sys) in SYSTEMS.iter().enumerate() {
        let seen = check_document(&doc, k);
        assert!(seen.json_blocks > 0, "no {} json blocks found", sys.name);
        assert!(seen.errors > 0, "no {} RuleError example", sys.name);
    }
}

#[test]
fn every_block_is_marked_with_its_system() {
    // A checked block's info string is one system's, and it stands in that system's
    // part (`check_document` reports the reverse: a block of another system's form).
    let doc = document();
    let starts = part_starts(&doc);
    let mut wrong = Vec::new();
    for b in blocks(&doc).iter().filter(|b| is_checked_info(&b.info)) {
        match SYSTEMS.iter().position(|s| s.info == b.info) {
            None => wrong.push(format!(
                "line {}: unknown info string ```{}",
                b.line, b.info
            )),
            Some(k) if k != system_at(&starts, b.line) => wrong.push(format!(
                "line {}: a {} block (```{}) in the {} part",
                b.line,
                SYSTEMS[k].name,
                b.info,
                SYSTEMS[system_at(&starts, b.line)].name
            )),
            Some(_) => {}
        }
    }
    assert!(wrong.is_empty(), "docs/protocol.md:\n{}", wrong.join("\n"));
}

#[test]
fn every_variant_has_a_json_example() {
    let doc = document();
    let mut missing = Vec::new();
    for (k, sys) in SYSTEMS.iter().enumerate() {
        let seen = check_document(&doc, k);
        missing.extend(
            tags(sys.commands)
                .filter(|t| !seen.commands.contains(t))
                .map(|t| format!("{} command {t}", sys.name))
                .chain(
                    tags(sys.events)
                        .filter(|t| !seen.events.contains(t))
                        .map(|t| format!("{} event {t}", sys.name)),
                )
                .chain(
                    tags(sys.pendings)
                        .filter(|t| !seen.pendings.contains(t))
                        .map(|t| format!("{} pending {t}", sys.name)),
                ),
        );
    }
    assert!(
        missing.is_empty(),
        "docs/protocol.md has no json example of: {}",
        missing.join(", ")
    );
}

#[test]
fn every_variant_is_named() {
    // Each system's variants are named in its own part, under a heading of its form.
    let doc = document();
    let mut missing = Vec::new();
    for (k, sys) in SYSTEMS.iter().enumerate() {
        let text = part(&doc, k);
        for (enum_name, list) in [
            ("Command", sys.commands),
            ("Event", sys.events),
            ("Pending", sys.pendings),
        ] {
            for (name, tag) in list {
                let rust = format!("{}{enum_name}::{name}", sys.path);
                if !text.contains(&rust) {
                    missing.push(rust.clone());
                }
                let heading = format!("{} `{tag}` (`{rust}`)", sys.level);
                if !text.lines().any(|l| l.trim_end() == heading) {
                    missing.push(heading);
                }
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
    for sys in &SYSTEMS {
        for list in [sys.commands, sys.events, sys.pendings] {
            let names: BTreeSet<_> = list.iter().map(|(n, _)| n).collect();
            let tags: BTreeSet<_> = list.iter().map(|(_, t)| t).collect();
            assert_eq!(
                names.len(),
                list.len(),
                "{}: duplicate variant name",
                sys.name
            );
            assert_eq!(tags.len(), list.len(), "{}: duplicate tag", sys.name);
            for (name, tag) in list {
                assert_eq!(snake(name), *tag, "{}: tag of {name}", sys.name);
            }
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
