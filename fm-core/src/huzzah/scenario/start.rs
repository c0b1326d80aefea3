//! A battle that starts mid-way: the scenario's `start` section (docs/huzzah.md,
//! "Starting mid-battle"), in the spirit of Fire & Movement's `start`. It names the turn
//! and phase play begins in and Player 1, and for the units, officers and armies what
//! the order of battle cannot say: where a unit is (on the table, on the Rout Table,
//! destroyed, captured), its status, the bases it has lost, its odd hits, the markers
//! of this turn (fired, charged); an officer's attachment or loss; each army's factors
//! after Huzzah! reductions and its last skirmish and artillery tests. A unit's
//! position, facing, formation, sector and quality are its own fields, read as where it
//! stands when play begins; an officer's position is his `position`.
//!
//! Everything is data: the engine invents nothing and changes no rule. [`validate_start`]
//! refuses a start that no battle could reach (a routing unit in square, odd hits at
//! the start of a firing phase, a smoke marker before its side has fired, an officer
//! attached to an enemy unit …), naming the JSON path; [`Start::place`] writes the
//! start into the state before its opening events.

use super::format::{ScenarioData, Setup};
use super::kinds::{BaseKind, Formation};
use super::model::{OfficerDef, OfficerIx, Scenario, UnitDef, UnitIx};
use super::validation::{err, json_name};
use crate::error::ScenarioError;
use crate::huzzah::geometry::{self, Len, Point, Shape};
use crate::huzzah::state::{Phase, State, Status, Whereabouts};
use crate::ids::{Side, SidePair};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A scenario's `start` as written in JSON: where a battle that starts mid-way begins.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartData {
    /// The turn play begins in, 1 to the scenario's last.
    pub turn: u16,
    /// The phase play begins with, as events write it (`{"phase": "firing", "side":
    /// "a"}`); not the set-up, nor the end of a turn.
    pub phase: Phase,
    /// Player 1, who phases first each turn; absent: the scenario's `first`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player1: Option<Side>,
    /// The units that are not simply formed at full strength on the table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<UnitStartData>,
    /// The officers attached to a unit, or lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub officers: Vec<OfficerStartData>,
    /// Each army's standing, `{"a": …, "b": …}` (either may be left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armies: Option<ArmiesStartData>,
}

/// One unit's situation when play begins.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitStartData {
    /// The unit's id.
    pub unit: String,
    /// Where it is: `table` (the default), `rout_table`, `destroyed` or `captured`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Whereabouts>,
    /// `formed` (the default), `disordered` or `routing` (the default on the Rout
    /// Table, the only status there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The bases it has lost, by their number in the unit's `bases`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<u8>,
    /// How many of those it lost this turn (page 14: −1 to its morale for each).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost_this_turn: u8,
    /// Bases per rank, front first, of the bases it has left; absent: the unit's
    /// `ranks` (so required once a base is lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<Vec<u8>>,
    /// Odd hits (page 12: fewer than a base's, kept until the end of the Rally phase).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u8,
    /// Has fired this turn: the puff of smoke (pages 12-13).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fired: bool,
    /// Has charged this turn: advanced into contact (page 20).
    #[serde(default, skip_serializing_if = "is_false")]
    pub charger: bool,
}

/// One officer's situation when play begins.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfficerStartData {
    /// The officer's id.
    pub officer: String,
    /// The friendly unit he is attached to (touching it: within 50 mm of one of its
    /// bases, as an officer attaches in the Move Officers phase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached: Option<String>,
    /// The turn he was killed, captured or removed; the CinC may appoint his successor
    /// from the next turn (page 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_turn: Option<u16>,
}

/// The two armies' standing when play begins.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmiesStartData {
    /// Side A's.
    #[serde(default)]
    pub a: ArmyStartData,
    /// Side B's.
    #[serde(default)]
    pub b: ArmyStartData,
}

/// An army's standing when play begins.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyStartData {
    /// Its Skirmish Factor after the enemy's Huzzah! reductions (page 9); absent: the
    /// side's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skirmish_factor: Option<u8>,
    /// Its Artillery Factor after the enemy's Huzzah! reductions (page 10); absent:
    /// the side's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_factor: Option<u8>,
    /// Its last skirmisher superiority test passed (page 9): this turn's when play
    /// begins after the Skirmisher Superiority phase, else the previous turn's;
    /// absent: none yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skirmish_passed: Option<bool>,
    /// It won that test's skirmisher war (this turn's: it has skirmisher superiority).
    #[serde(default, skip_serializing_if = "is_false")]
    pub skirmish_won: bool,
    /// Its last artillery effectiveness test passed (page 10): this turn's (its guns
    /// are effective) when play begins after the Artillery Effectiveness phase, else the
    /// previous turn's; absent: none yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artillery_passed: Option<bool>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A validated start: the turn and phase, Player 1, and every unit's, officer's and
/// army's situation (those the section leaves out at their defaults).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Start {
    /// The turn play begins in.
    pub turn: u16,
    /// The phase play begins with.
    pub phase: Phase,
    /// Player 1.
    pub player1: Side,
    /// Each unit's situation, in [`Scenario::units`] order.
    pub units: Vec<UnitStart>,
    /// Each officer's situation, in [`Scenario::officers`] order.
    pub officers: Vec<OfficerStart>,
    /// Each army's standing.
    pub armies: SidePair<ArmyStart>,
    /// The side with skirmisher superiority this turn (after the Skirmisher Superiority
    /// phase: the winner of its war).
    pub superiority: Option<Side>,
}

/// A unit's situation when play begins.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnitStart {
    /// Where it is.
    pub at: Whereabouts,
    /// Its status.
    pub status: Status,
    /// The bases it has left, in the unit's order.
    pub bases: Vec<BaseKind>,
    /// Bases per rank, front first.
    pub ranks: Vec<u8>,
    /// Odd hits.
    pub hits: u8,
    /// Bases lost this turn.
    pub lost_this_turn: u8,
    /// Fired this turn.
    pub fired: bool,
    /// Charged this turn.
    pub charger: bool,
}

/// An officer's situation when play begins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OfficerStart {
    /// The unit he is attached to.
    pub attached: Option<UnitIx>,
    /// The turn he was lost, if he was.
    pub lost_turn: Option<u16>,
}

/// An army's standing when play begins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ArmyStart {
    /// The Skirmish Factor.
    pub skirmish_factor: i8,
    /// The Artillery Factor.
    pub artillery_factor: i8,
    /// The last skirmisher superiority test passed.
    pub skirmish_passed: Option<bool>,
    /// Won the last skirmisher war.
    pub skirmish_won: bool,
    /// The last artillery effectiveness test passed.
    pub artillery_passed: Option<bool>,
}

impl Start {
    /// Unit `def`'s shape when play begins (`None` off the table): its scenario
    /// position, facing and formation, in the ranks it has left.
    pub fn shape(&self, def: &UnitDef, base: Len) -> Option<Shape> {
        let st = &self.units[def.ix.index()];
        (st.at == Whereabouts::Table).then(|| Shape {
            ranks: st.ranks.clone(),
            ..def.shape(base)
        })
    }

    /// Writes the start into `s`, the state [`State::initial`] builds before the
    /// opening events: the turn and phase, Player 1, the units, officers and armies, the
    /// skirmisher superiority, and the pairs in combat (those in contact when play
    /// begins, but a charger and what it charged: it advanced into contact this turn).
    pub fn place(&self, sc: &Scenario, s: &mut State) {
        s.turn = self.turn;
        s.phase = self.phase;
        s.player1 = Some(self.player1);
        s.superiority = self.superiority;
        for def in sc.units() {
            let st = &self.units[def.ix.index()];
            let u = s.unit_mut(def.ix);
            u.at = st.at;
            u.status = st.status;
            u.bases = st.bases.clone();
            u.shape.ranks = st.ranks.clone();
            u.hits = st.hits;
            u.lost_this_turn = st.lost_this_turn;
            u.fired = st.fired;
            u.charger = st.charger;
            if st.at != Whereabouts::Table {
                u.sector = None;
            }
        }
        for (o, def) in sc.officers().iter().enumerate() {
            let st = self.officers[o];
            let off = &mut s.officers[o];
            off.attached = st.attached;
            off.lost = st.lost_turn.is_some();
            off.lost_turn = st.lost_turn;
            off.at = if off.lost { None } else { def.position };
        }
        for side in Side::BOTH {
            let a = self.armies.get(side);
            let army = s.armies.get_mut(side);
            army.skirmish_factor = a.skirmish_factor;
            army.artillery_factor = a.artillery_factor;
            army.skirmish_passed = a.skirmish_passed;
            army.skirmish_won = a.skirmish_won;
            army.artillery_passed = a.artillery_passed;
            army.artillery_effective = a.artillery_passed == Some(true);
        }
        let on = |s: &State, u: UnitIx| s.unit(u).at == Whereabouts::Table;
        s.in_combat = sc
            .unit_ixs(Side::A)
            .flat_map(|a| sc.unit_ixs(Side::B).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                on(s, a)
                    && on(s, b)
                    && !s.unit(a).charger
                    && !s.unit(b).charger
                    && geometry::in_contact(&s.unit(a).shape, &s.unit(b).shape)
            })
            .collect();
    }
}

/// The JSON path of a side's officer `def` (`sides.b.officers[1]`).
fn officer_path(officers: &[OfficerDef], def: &OfficerDef) -> String {
    let k = officers[..def.ix.index()]
        .iter()
        .filter(|o| o.side == def.side)
        .count();
    format!("sides.{}.officers[{k}]", def.side)
}

/// What [`validate_start`] reads of the scenario being validated.
pub(super) struct StartCtx<'a> {
    pub(super) data: &'a ScenarioData,
    pub(super) units: &'a [UnitDef],
    pub(super) unit_ids: &'a BTreeMap<String, UnitIx>,
    pub(super) officers: &'a [OfficerDef],
    pub(super) officer_ids: &'a BTreeMap<String, OfficerIx>,
}

/// Validates the scenario's `start`, if it has one (docs/huzzah.md lists every check):
/// each value in range, and nothing a battle could not have reached.
///
/// # Errors
/// A [`ScenarioError`] naming the JSON path of the first problem (`start.units[2].hits`)
/// and what it contradicts.
pub(super) fn validate_start(c: &StartCtx<'_>) -> Result<Option<Start>, ScenarioError> {
    let Some(d) = &c.data.start else {
        return Ok(None);
    };
    if c.data.setup == Setup::Alternate {
        return err(
            "setup",
            "alternate, but the scenario has a start: a battle that starts mid-way skips the set-up, placement rolls included (page 7); use placed",
        );
    }
    if !(1..=c.data.turns).contains(&d.turn) {
        return err(
            "start.turn",
            format!(
                "turn {}: play begins in a turn from 1 to the scenario's {}",
                d.turn, c.data.turns
            ),
        );
    }
    if matches!(d.phase, Phase::Setup | Phase::TurnEnds) {
        return err(
            "start.phase",
            format!(
                "{}: play begins with one of the turn's phases 1 to 14 (page 7), not the set-up nor the end of a turn",
                serde_json::to_string(&d.phase).unwrap_or_default()
            ),
        );
    }
    let player1 = match (d.player1, c.data.first) {
        (Some(p), Some(f)) if p != f => {
            return err(
                "start.player1",
                format!("\"{p}\", but the scenario's first is \"{f}\": Player 1 is the side that goes first (page 7)"),
            );
        }
        (Some(p), _) | (None, Some(p)) => p,
        (None, None) => {
            return err(
                "start.player1",
                "missing: a battle that starts mid-way has no roll-off; name Player 1 (or the scenario's first)",
            );
        }
    };
    // The phase's number in the turn (page 7): what the turn has seen before play begins.
    let now = d.phase.number(player1);
    let units = start_units(c, d, player1, now)?;
    let officers = start_officers(c, d, &units, now)?;
    let (armies, superiority) = start_armies(c, d, now)?;
    for side in Side::BOTH {
        if !c
            .units
            .iter()
            .any(|u| u.side == side && units[u.ix.index()].at == Whereabouts::Table)
        {
            return err(
                "start.units",
                format!("side {side} has no unit on the table: the battle would be over before it begins"),
            );
        }
    }
    Ok(Some(Start {
        turn: d.turn,
        phase: d.phase,
        player1,
        units,
        officers,
        armies,
        superiority,
    }))
}

fn start_units(
    c: &StartCtx<'_>,
    d: &StartData,
    player1: Side,
    now: u8,
) -> Result<Vec<UnitStart>, ScenarioError> {
    let mut out: Vec<Option<UnitStart>> = vec![None; c.units.len()];
    for (i, e) in d.units.iter().enumerate() {
        let p = format!("start.units[{i}]");
        let Some(&ix) = c.unit_ids.get(&e.unit) else {
            return err(format!("{p}.unit"), format!("unknown unit '{}'", e.unit));
        };
        if out[ix.index()].is_some() {
            return err(
                format!("{p}.unit"),
                format!("'{}' is listed twice: one entry a unit", e.unit),
            );
        }
        out[ix.index()] = Some(unit_start(&c.units[ix.index()], e, &p, player1, now)?);
    }
    Ok(out
        .into_iter()
        .zip(c.units)
        .map(|(st, def)| {
            st.unwrap_or_else(|| UnitStart {
                at: Whereabouts::Table,
                status: Status::Formed,
                bases: def.bases.iter().map(|b| b.kind).collect(),
                ranks: def.ranks.clone(),
                hits: 0,
                lost_this_turn: 0,
                fired: false,
                charger: false,
            })
        })
        .collect())
}

/// One unit's entry: `p` its path, `now` the number of the phase play begins with.
fn unit_start(
    def: &UnitDef,
    e: &UnitStartData,
    p: &str,
    player1: Side,
    now: u8,
) -> Result<UnitStart, ScenarioError> {
    let id = &e.unit;
    let at = e.at.unwrap_or(Whereabouts::Table);
    match at {
        Whereabouts::Table
        | Whereabouts::RoutTable
        | Whereabouts::Destroyed
        | Whereabouts::Captured => {}
        other => {
            return err(
                format!("{p}.at"),
                format!("{}: a unit starts on the table, on the Rout Table, destroyed or captured (a skirmish line or a joined grand battery is written as the units it leaves)", json_name(&other)),
            );
        }
    }
    if at != Whereabouts::Table {
        if def.sector.is_some() {
            return err(
                format!("{p}.at"),
                format!(
                    "{}, but '{id}' is deployed in a sector of dense terrain (its sector)",
                    json_name(&at)
                ),
            );
        }
        let given = [
            ("hits", e.hits > 0),
            ("lost_this_turn", e.lost_this_turn > 0),
            ("fired", e.fired),
            ("charger", e.charger),
        ];
        if let Some((field, _)) = given.iter().find(|(_, g)| *g) {
            return err(
                format!("{p}.{field}"),
                format!(
                    "given for '{id}', which is not on the table ({})",
                    json_name(&at)
                ),
            );
        }
    }
    let status = match (at, e.status) {
        (Whereabouts::RoutTable, None | Some(Status::Routing)) => Status::Routing,
        (Whereabouts::RoutTable, Some(s)) => {
            return err(
                format!("{p}.status"),
                format!(
                    "{} on the Rout Table: a unit there is routing (page 15)",
                    json_name(&s)
                ),
            );
        }
        (Whereabouts::Destroyed | Whereabouts::Captured, Some(_)) => {
            return err(
                format!("{p}.status"),
                format!("given for '{id}', which is {}", json_name(&at)),
            );
        }
        (_, s) => s.unwrap_or(Status::Formed),
    };
    if status == Status::Routing && def.formation == Formation::Square && at == Whereabouts::Table {
        return err(
            format!("{p}.status"),
            format!("routing, but '{id}' is in square: a routing unit flees, facing away from the enemy (page 14), and holds no square"),
        );
    }
    // The bases left.
    let n = def.bases.len();
    let mut lost = vec![false; n];
    for (k, &b) in e.lost.iter().enumerate() {
        let lp = format!("{p}.lost[{k}]");
        if usize::from(b) >= n {
            return err(
                lp,
                format!("base {b}, but '{id}' has {n} bases, numbered from 0"),
            );
        }
        if lost[usize::from(b)] {
            return err(lp, format!("base {b} is listed twice"));
        }
        lost[usize::from(b)] = true;
    }
    if at == Whereabouts::Destroyed {
        if !e.lost.is_empty() || e.ranks.is_some() {
            let f = if e.lost.is_empty() { "ranks" } else { "lost" };
            return err(
                format!("{p}.{f}"),
                format!("given for '{id}', which is destroyed: every base is lost"),
            );
        }
        return Ok(UnitStart {
            at,
            status,
            bases: Vec::new(),
            ranks: Vec::new(),
            hits: 0,
            lost_this_turn: 0,
            fired: false,
            charger: false,
        });
    }
    let bases: Vec<BaseKind> = def
        .bases
        .iter()
        .zip(&lost)
        .filter(|(_, l)| !**l)
        .map(|(b, _)| b.kind)
        .collect();
    if bases.is_empty() {
        return err(
            format!("{p}.lost"),
            format!("every base of '{id}': a unit that lost them all is destroyed (at: destroyed)"),
        );
    }
    if bases.iter().all(|b| *b == BaseKind::DivisionalArtillery) {
        return err(
            format!("{p}.lost"),
            format!("'{id}' would be only its divisional artillery: a unit cannot comprise only marker bases (page 12)"),
        );
    }
    if usize::from(e.lost_this_turn) > e.lost.len() {
        return err(
            format!("{p}.lost_this_turn"),
            format!(
                "{}, but '{id}' lists {} lost bases",
                e.lost_this_turn,
                e.lost.len()
            ),
        );
    }
    let ranks = match &e.ranks {
        Some(r) => r.clone(),
        None if bases.len() == n => def.ranks.clone(),
        None => {
            return err(
                format!("{p}.ranks"),
                format!(
                    "missing: '{id}' has {} of its {n} bases left; give their ranks",
                    bases.len()
                ),
            );
        }
    };
    check_ranks(def, &ranks, bases.len(), &format!("{p}.ranks"))?;
    // What this turn has seen before play begins (page 7's sequence).
    let side = def.side;
    if e.lost_this_turn > 0 && now <= 3 {
        return err(
            format!("{p}.lost_this_turn"),
            format!("{}, but play begins before the turn's first firing: bases lost in earlier turns are not lost this turn", e.lost_this_turn),
        );
    }
    if e.hits > 0 && matches!(now, 1..=3 | 9) {
        return err(
            format!("{p}.hits"),
            format!("{}, but play begins with {}: odd hits are removed at the end of every Rally phase (page 12)", e.hits, phase_name(now)),
        );
    }
    if e.fired {
        if def.fire_range().is_none() {
            return err(
                format!("{p}.fired"),
                format!("true, but '{id}' is cavalry, which does not fire (page 11)"),
            );
        }
        let fires = [Phase::Firing { side }, Phase::FireAtChargers { side }];
        if !fires.iter().any(|f| f.number(player1) < now) {
            return err(
                format!("{p}.fired"),
                format!("true, but play begins before side {side} has had a phase to fire in this turn (its Firing, or Fire at Chargers)"),
            );
        }
    }
    if e.charger && (Phase::Orders { side }).number(player1) >= now {
        return err(
            format!("{p}.charger"),
            format!("true, but play begins before side {side}'s Orders phase this turn, when its units charge (page 20)"),
        );
    }
    Ok(UnitStart {
        at,
        status,
        bases,
        ranks,
        hits: e.hits,
        lost_this_turn: e.lost_this_turn,
        fired: e.fired,
        charger: e.charger,
    })
}

/// Words for the phase of number `n` (Player 1's or Player 2's alike).
fn phase_name(n: u8) -> &'static str {
    match n {
        1 => "the Skirmisher Superiority phase",
        2 => "the Artillery Effectiveness phase",
        _ => "a Firing phase",
    }
}

/// A start's ranks for the bases left: each rank at least one base, `left` in all, and
/// the unit's formation kept (pages 21-22, R-HZ-21a).
fn check_ranks(def: &UnitDef, ranks: &[u8], left: usize, p: &str) -> Result<(), ScenarioError> {
    if ranks.is_empty() || ranks.len() > left {
        return err(
            p,
            format!("{ranks:?}: {left} bases stand in 1 to {left} ranks"),
        );
    }
    if let Some(k) = ranks.iter().position(|r| *r == 0) {
        return err(
            format!("{p}[{k}]"),
            "a rank of 0 bases: every rank holds at least one",
        );
    }
    let sum: usize = ranks.iter().map(|r| usize::from(*r)).sum();
    if sum != left {
        return err(
            p,
            format!(
                "the ranks {ranks:?} hold {sum} bases, but '{}' has {left} left",
                def.id
            ),
        );
    }
    match def.formation {
        Formation::Line => {}
        Formation::Column => {
            if let Some(k) = ranks.iter().position(|r| *r != 1) {
                return err(
                    format!("{p}[{k}]"),
                    format!(
                        "a rank of {} bases in road column: a column is one base wide (R-HZ-21a)",
                        ranks[k]
                    ),
                );
            }
        }
        Formation::Square => {
            if ranks.len() < 2 {
                return err(
                    p,
                    "a square in one rank: a square has at least two ranks (page 22, R-HZ-21a)",
                );
            }
        }
    }
    Ok(())
}

fn start_officers(
    c: &StartCtx<'_>,
    d: &StartData,
    units: &[UnitStart],
    now: u8,
) -> Result<Vec<OfficerStart>, ScenarioError> {
    let mut out: Vec<Option<(OfficerStart, String)>> = vec![None; c.officers.len()];
    for (i, e) in d.officers.iter().enumerate() {
        let p = format!("start.officers[{i}]");
        let Some(&ix) = c.officer_ids.get(&e.officer) else {
            return err(
                format!("{p}.officer"),
                format!("unknown officer '{}'", e.officer),
            );
        };
        if out[ix.index()].is_some() {
            return err(
                format!("{p}.officer"),
                format!("'{}' is listed twice: one entry an officer", e.officer),
            );
        }
        let def = &c.officers[ix.index()];
        if let Some(t) = e.lost_turn {
            if t == 0 || t > d.turn || (t == d.turn && now <= 3) {
                return err(
                    format!("{p}.lost_turn"),
                    format!("turn {t}: an officer is lost in a turn of the battle before play begins (turn {}, before its first firing: an earlier turn)", d.turn),
                );
            }
            if e.attached.is_some() {
                return err(
                    format!("{p}.attached"),
                    format!(
                        "'{}' is lost (lost_turn): a lost officer is attached to no unit",
                        def.id
                    ),
                );
            }
            if def.position.is_some() {
                return err(
                    format!("{}.position", officer_path(c.officers, def)),
                    format!(
                        "given, but '{}' is lost ({p}.lost_turn): a lost officer is off the table",
                        def.id
                    ),
                );
            }
        }
        let attached = match &e.attached {
            None => None,
            Some(uid) => {
                let ap = format!("{p}.attached");
                let Some(&u) = c.unit_ids.get(uid) else {
                    return err(ap, format!("unknown unit '{uid}'"));
                };
                let udef = &c.units[u.index()];
                if udef.side != def.side {
                    return err(
                        ap,
                        format!("'{uid}' is side {}'s: an officer attaches to a unit of his own side (page 14)", udef.side),
                    );
                }
                if units[u.index()].at != Whereabouts::Table {
                    return err(
                        ap,
                        format!(
                            "'{uid}' is not on the table ({})",
                            json_name(&units[u.index()].at)
                        ),
                    );
                }
                Some(u)
            }
        };
        out[ix.index()] = Some((
            OfficerStart {
                attached,
                lost_turn: e.lost_turn,
            },
            p,
        ));
    }
    let base = Len::mm(i64::from(c.data.base_mm));
    let mut result = Vec::with_capacity(out.len());
    for (def, st) in c.officers.iter().zip(out) {
        let (st, p) = st.unwrap_or((
            OfficerStart {
                attached: None,
                lost_turn: None,
            },
            String::new(),
        ));
        if st.lost_turn.is_none() {
            let Some(at) = def.position else {
                return err(
                    format!("{}.position", officer_path(c.officers, def)),
                    format!("missing: '{}' must stand on the table when play begins mid-battle (no set-up places him, page 8); or give his lost_turn", def.id),
                );
            };
            if let Some(u) = st.attached {
                let udef = &c.units[u.index()];
                let shape = Shape {
                    ranks: units[u.index()].ranks.clone(),
                    ..udef.shape(base)
                };
                if !touches(&shape, at) {
                    return err(
                        format!("{p}.attached"),
                        format!("'{}' stands at [{}, {}] mm, not touching '{}' (an attached officer is within 50 mm of one of its bases)", def.id, at.x.0 / 10, at.y.0 / 10, udef.id),
                    );
                }
            }
        }
        result.push(st);
    }
    Ok(result)
}

/// Whether a point is on, in or within 5 cm of one of the shape's bases: where an
/// officer attached to the unit stands (the Move Officers phase's reading).
fn touches(shape: &Shape, at: Point) -> bool {
    shape.bases().iter().any(|q| {
        q.contains(at)
            || q.edges()
                .iter()
                .any(|e| geometry::dist_point_seg(at, *e) <= Len::cm(5))
    })
}

fn start_armies(
    c: &StartCtx<'_>,
    d: &StartData,
    now: u8,
) -> Result<(SidePair<ArmyStart>, Option<Side>), ScenarioError> {
    let given = d.armies.clone().unwrap_or_default();
    let a = army_start(c, d, now, Side::A, &given.a)?;
    let b = army_start(c, d, now, Side::B, &given.b)?;
    if a.skirmish_won && b.skirmish_won {
        return err(
            "start.armies.b.skirmish_won",
            "true, and side a's too: one side at most wins the skirmisher war (page 9)",
        );
    }
    // After phase 1 the winner of this turn's war has skirmisher superiority.
    let superiority = match (now > 1, a.skirmish_won, b.skirmish_won) {
        (true, true, _) => Some(Side::A),
        (true, _, true) => Some(Side::B),
        _ => None,
    };
    Ok((SidePair::new(a, b), superiority))
}

/// One army's standing: `e` as given, `now` the number of the phase play begins with.
fn army_start(
    c: &StartCtx<'_>,
    d: &StartData,
    now: u8,
    side: Side,
    e: &ArmyStartData,
) -> Result<ArmyStart, ScenarioError> {
    let p = format!("start.armies.{side}");
    let sd = c.data.sides.get(side);
    let factor = |v: Option<u8>, printed: u8, name: &str, page: u8| {
        let v = v.unwrap_or(printed);
        if v > printed {
            return err(
                format!("{p}.{name}"),
                format!("{v}, above the side's {printed}: the enemy's Huzzah! results only lower it (page {page})"),
            );
        }
        Ok(v as i8)
    };
    let skirmish_factor = factor(e.skirmish_factor, sd.skirmish_factor, "skirmish_factor", 9)?;
    let artillery_factor = factor(
        e.artillery_factor,
        sd.artillery_factor,
        "artillery_factor",
        10,
    )?;
    let first = d.turn == 1;
    match (now > 1, e.skirmish_passed) {
        (true, None) => {
            return err(
                format!("{p}.skirmish_passed"),
                "missing: play begins after this turn's Skirmisher Superiority phase, in which both armies tested (page 9)",
            );
        }
        (false, Some(_)) if first => {
            return err(
                format!("{p}.skirmish_passed"),
                "given, but play begins at the start of the first turn: there was no earlier test",
            );
        }
        _ => {}
    }
    if e.skirmish_won && e.skirmish_passed != Some(true) {
        return err(
            format!("{p}.skirmish_won"),
            "true, but the army's test did not pass: a side wins the skirmisher war only by passing (page 9)",
        );
    }
    match (now > 2, e.artillery_passed) {
        (true, None) => {
            return err(
                format!("{p}.artillery_passed"),
                "missing: play begins after this turn's Artillery Effectiveness phase, in which both armies tested (page 10)",
            );
        }
        (false, Some(_)) if first => {
            return err(
                format!("{p}.artillery_passed"),
                "given, but play begins before the first turn's Artillery Effectiveness phase: there was no earlier test",
            );
        }
        _ => {}
    }
    Ok(ArmyStart {
        skirmish_factor,
        artillery_factor,
        skirmish_passed: e.skirmish_passed,
        skirmish_won: e.skirmish_won,
        artillery_passed: e.artillery_passed,
    })
}

/// The start's checks on the state it builds, with the engine's own rules: odd hits
/// fewer than any base the unit could lose to them (page 12).
///
/// # Errors
/// The first unit whose hits would remove a base at once, with its JSON path.
pub(super) fn check_state(sc: &Scenario) -> Result<(), ScenarioError> {
    let (Some(start), Some(d)) = (sc.start(), &sc.data().start) else {
        return Ok(());
    };
    let s = State::initial(sc);
    for (i, e) in d.units.iter().enumerate() {
        let Some(u) = sc.unit_index(&e.unit) else {
            continue;
        };
        if e.hits == 0 || start.units[u.index()].at != Whereabouts::Table {
            continue;
        }
        let cands = crate::huzzah::firing::removal_candidates(sc, &s, u);
        if let Some(c) = cands.first() {
            return err(
                format!("start.units[{i}].hits"),
                format!(
                    "{} hits would remove a base of '{}' at once ({}: {} hits a base): odd hits are fewer than a base's hits (page 12)",
                    e.hits,
                    e.unit,
                    json_name(&c.kind),
                    c.kind.hits()
                ),
            );
        }
    }
    Ok(())
}
