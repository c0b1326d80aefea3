//! [`validate`]: scenario data to a [`Scenario`], checking the rules docs/huzzah.md lists
//! ("Scenario format") in a fixed order and naming the JSON path of the first problem
//! (`sides.b.units[0].bases[2]`), the offending value and the page of the rules. Here:
//! the size limits, the top-level values (pages 2 and 7), ground and weather (page 10),
//! the movement table (page 20), objectives and the stand-in victory (pages 7-8), the
//! army factors (pages 9-10) and the command hierarchy of officers, corps and divisions
//! (page 16); a unit's own checks are in `unit_checks.rs`, where things lie on the table
//! in `geometry_checks.rs`, a battle that starts mid-way in `start.rs`.

use super::format::{BattleKind, MovementData, ScenarioData};
use super::geometry_checks::{check_footprints, table_point, to_point, validate_terrain};
use super::kinds::OfficerRank;
use super::limits::{
    ARMY_FACTOR, BASE_MM, BASE_POINTS, MAX_BASES_PER_UNIT, MAX_OBJECTIVES, MAX_OFFICERS_PER_SIDE,
    MAX_POLYGON_POINTS, MAX_SECTORS, MAX_TERRAIN, MAX_UNITS_PER_SIDE, MOVE_RATE_MM,
    OBJECTIVE_POINTS, OBJECTIVE_RADIUS_MM, TABLE_MM, TURNS,
};
use super::model::{
    Battle, CommandGroup, CorpsDef, CorpsIx, DivisionDef, DivisionIx, MovementTable, Objective,
    OfficerDef, OfficerIx, Scenario, SectorRef, SideDef, TableSize, UnitDef, UnitIx,
};
use super::start::{check_state, validate_start, StartCtx};
use super::unit_checks::{validate_unit, UnitCtx};
use crate::error::ScenarioError;
use crate::huzzah::geometry::Len;
use crate::huzzah::quality::QualityTable;
use crate::ids::{Side, SidePair};
use serde::Serialize;
use std::collections::BTreeMap;

pub(super) fn err<T>(
    path: impl Into<String>,
    message: impl Into<String>,
) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        path: path.into(),
        message: message.into(),
    })
}

pub(super) fn nonempty(s: &str, path: impl Into<String>) -> Result<(), ScenarioError> {
    if s.trim().is_empty() {
        return err(path, "an empty string");
    }
    Ok(())
}

/// The JSON name of a serializable enum value (for messages).
pub(super) fn json_name<T: Serialize>(t: &T) -> String {
    match serde_json::to_value(t) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => "?".to_string(),
    }
}

fn over_limit<T>(
    path: impl Into<String>,
    n: usize,
    what: &str,
    max: usize,
    of: &str,
) -> Result<T, ScenarioError> {
    err(
        path,
        format!("{n} {what}, more than the {max} {of} may have"),
    )
}

/// Refuses a scenario beyond the size limits before anything else is checked.
fn check_limits(d: &ScenarioData) -> Result<(), ScenarioError> {
    if d.terrain.len() > MAX_TERRAIN {
        return over_limit(
            "terrain",
            d.terrain.len(),
            "terrain pieces",
            MAX_TERRAIN,
            "a scenario",
        );
    }
    for (i, t) in d.terrain.iter().enumerate() {
        if t.polygon.len() > MAX_POLYGON_POINTS {
            let p = format!("terrain[{i}].polygon");
            return over_limit(
                p,
                t.polygon.len(),
                "points",
                MAX_POLYGON_POINTS,
                "a polygon",
            );
        }
        let sectors = t.sectors.as_deref().unwrap_or(&[]);
        if sectors.len() > MAX_SECTORS {
            let p = format!("terrain[{i}].sectors");
            return over_limit(p, sectors.len(), "sectors", MAX_SECTORS, "a terrain piece");
        }
        for (k, s) in sectors.iter().enumerate() {
            if s.len() > MAX_POLYGON_POINTS {
                let p = format!("terrain[{i}].sectors[{k}]");
                return over_limit(p, s.len(), "points", MAX_POLYGON_POINTS, "a polygon");
            }
        }
    }
    if d.objectives.len() > MAX_OBJECTIVES {
        let n = d.objectives.len();
        return over_limit("objectives", n, "objectives", MAX_OBJECTIVES, "a scenario");
    }
    if d.conditions.len() > usize::from(*TURNS.end()) {
        let n = d.conditions.len();
        return over_limit(
            "conditions",
            n,
            "entries",
            usize::from(*TURNS.end()),
            "a scenario",
        );
    }
    for side in Side::BOTH {
        let s = d.sides.get(side);
        let sp = format!("sides.{side}");
        let m = MAX_OFFICERS_PER_SIDE;
        if s.officers.len() > m {
            return over_limit(
                format!("{sp}.officers"),
                s.officers.len(),
                "officers",
                m,
                "a side",
            );
        }
        if s.corps.len() > m {
            return over_limit(format!("{sp}.corps"), s.corps.len(), "corps", m, "a side");
        }
        if s.divisions.len() > m {
            return over_limit(
                format!("{sp}.divisions"),
                s.divisions.len(),
                "divisions",
                m,
                "a side",
            );
        }
        if s.units.len() > MAX_UNITS_PER_SIDE {
            let n = s.units.len();
            return over_limit(
                format!("{sp}.units"),
                n,
                "units",
                MAX_UNITS_PER_SIDE,
                "a side",
            );
        }
        for (i, u) in s.units.iter().enumerate() {
            let up = format!("{sp}.units[{i}]");
            let b = MAX_BASES_PER_UNIT;
            if u.bases.len() > b {
                return over_limit(format!("{up}.bases"), u.bases.len(), "bases", b, "a unit");
            }
            if u.ranks.len() > b {
                return over_limit(format!("{up}.ranks"), u.ranks.len(), "ranks", b, "a unit");
            }
        }
    }
    Ok(())
}

impl MovementData {
    pub(super) fn validate(&self, path: &str) -> Result<MovementTable, ScenarioError> {
        nonempty(&self.provenance, format!("{path}.provenance"))?;
        let rows = [
            ("infantry", self.infantry),
            ("cavalry", self.cavalry),
            ("reserve_artillery", self.reserve_artillery),
            ("reserve_heavy_artillery", self.reserve_heavy_artillery),
            ("reserve_horse_artillery", self.reserve_horse_artillery),
        ];
        let mut rates = [[Len::ZERO; 3]; 5];
        for (i, (name, r)) in rows.iter().enumerate() {
            for (j, (col, v)) in [("line", r.line), ("open", r.open), ("column", r.column)]
                .into_iter()
                .enumerate()
            {
                rates[i][j] = move_rate(v, format!("{path}.{name}.{col}"))?;
            }
        }
        Ok(MovementTable {
            rates,
            officers: move_rate(self.officers, format!("{path}.officers"))?,
            provenance: self.provenance.clone(),
        })
    }
}

fn move_rate(v: u32, path: String) -> Result<Len, ScenarioError> {
    if !MOVE_RATE_MM.contains(&v) {
        return err(
            path,
            format!(
                "{v} mm: a movement rate is {} to {} mm a move",
                MOVE_RATE_MM.start(),
                MOVE_RATE_MM.end()
            ),
        );
    }
    Ok(Len::mm(i64::from(v)))
}

/// The objectives: ids unique and without `/`, centres on the table, radius and points
/// in range.
fn validate_objectives(d: &ScenarioData) -> Result<Vec<Objective>, ScenarioError> {
    let mut out: Vec<Objective> = Vec::with_capacity(d.objectives.len());
    for (i, o) in d.objectives.iter().enumerate() {
        let op = format!("objectives[{i}]");
        nonempty(&o.id, format!("{op}.id"))?;
        if o.id.contains('/') {
            return err(
                format!("{op}.id"),
                format!("'{}' contains '/': an objective's id is a plain name", o.id),
            );
        }
        if let Some(j) = out.iter().position(|p| p.id == o.id) {
            return err(
                format!("{op}.id"),
                format!("duplicate objective id '{}' (objectives[{j}] has it)", o.id),
            );
        }
        if let Some(name) = &o.name {
            nonempty(name, format!("{op}.name"))?;
        }
        let at = to_point(table_point(o.at, &d.table, format!("{op}.at"))?);
        if !OBJECTIVE_RADIUS_MM.contains(&o.radius_mm) {
            return err(
                format!("{op}.radius_mm"),
                format!(
                    "{} mm: an objective's radius is {} to {} mm",
                    o.radius_mm,
                    OBJECTIVE_RADIUS_MM.start(),
                    OBJECTIVE_RADIUS_MM.end()
                ),
            );
        }
        if !OBJECTIVE_POINTS.contains(&o.points) {
            return err(
                format!("{op}.points"),
                format!(
                    "{} points: an objective scores {} to {} points",
                    o.points,
                    OBJECTIVE_POINTS.start(),
                    OBJECTIVE_POINTS.end()
                ),
            );
        }
        out.push(Objective {
            id: o.id.clone(),
            name: o.name.clone(),
            at,
            radius: Len::mm(i64::from(o.radius_mm)),
            points: o.points,
        });
    }
    Ok(out)
}

/// The stand-in victory: a provenance, a base score in range, and something to score.
fn validate_victory(d: &ScenarioData) -> Result<(), ScenarioError> {
    let Some(v) = &d.victory else {
        return Ok(());
    };
    if v.provenance.trim().is_empty() {
        return err(
            "victory.provenance",
            "an empty provenance: pages 1-22 print no victory rules, so say what is invented (\"stand-in: …\") and what the printed scenario would replace",
        );
    }
    if !BASE_POINTS.contains(&v.base_points) {
        return err(
            "victory.base_points",
            format!(
                "{} points: a lost base scores {} to {} points",
                v.base_points,
                BASE_POINTS.start(),
                BASE_POINTS.end()
            ),
        );
    }
    if v.objective_points && d.objectives.is_empty() {
        return err(
            "victory.objective_points",
            "true, but the scenario has no objectives to score",
        );
    }
    if !v.objective_points && v.base_points == 0 {
        return err(
            "victory",
            "nothing scores: objective_points is false and base_points is 0",
        );
    }
    Ok(())
}

/// Looks up the officer commanding a corps or division.
fn commander(
    id: &str,
    path: String,
    side: Side,
    rank: OfficerRank,
    group: &str,
    ids: &BTreeMap<String, OfficerIx>,
    officers: &[OfficerDef],
) -> Result<OfficerIx, ScenarioError> {
    let Some(&ix) = ids.get(id) else {
        return err(path, format!("unknown officer '{id}'"));
    };
    let o = &officers[ix.index()];
    if o.side != side {
        return err(
            path,
            format!("officer '{id}' is side {}'s, not side {side}'s", o.side),
        );
    }
    if o.rank != rank {
        return err(
            path,
            format!(
                "officer '{id}' is of rank {}: a {group} is commanded by an officer of rank {} (page 16)",
                json_name(&o.rank),
                json_name(&rank)
            ),
        );
    }
    if let Some(c) = o.commands {
        let what = match c {
            CommandGroup::Army => "the army".to_string(),
            CommandGroup::Corps(_) => "another corps".to_string(),
            CommandGroup::Division(_) => "another division".to_string(),
        };
        return err(path, format!("officer '{id}' already commands {what}: an officer commands one command group (page 16)"));
    }
    Ok(ix)
}

/// Validates scenario data into a [`Scenario`]. docs/huzzah.md lists every check.
///
/// # Errors
/// A [`ScenarioError`] naming the JSON path of the first invalid value, the value and
/// the rule it breaks.
pub fn validate(data: ScenarioData) -> Result<Scenario, ScenarioError> {
    check_limits(&data)?;
    nonempty(&data.id, "id")?;
    nonempty(&data.name, "name")?;
    if data.provenance.trim().is_empty() {
        return err(
            "provenance",
            "an empty provenance: say what is invented and what the printed game would replace",
        );
    }
    let t = data.table;
    for (v, p) in [
        (t.width_mm, "table.width_mm"),
        (t.depth_mm, "table.depth_mm"),
    ] {
        if !TABLE_MM.contains(&v) {
            return err(
                p,
                format!(
                    "{v} mm: a table is {} to {} mm each way",
                    TABLE_MM.start(),
                    TABLE_MM.end()
                ),
            );
        }
    }
    if !BASE_MM.contains(&data.base_mm) {
        return err(
            "base_mm",
            format!(
                "{} mm: a base's side is {} to {} mm (page 2 recommends 40 mm for 15mm figures)",
                data.base_mm,
                BASE_MM.start(),
                BASE_MM.end()
            ),
        );
    }
    if !TURNS.contains(&data.turns) {
        return err(
            "turns",
            format!(
                "{}: a scenario has {} to {} turns",
                data.turns,
                TURNS.start(),
                TURNS.end()
            ),
        );
    }
    let battle = match (data.battle, data.defender) {
        (BattleKind::Encounter, None) => Battle::Encounter,
        (BattleKind::Defended, Some(defender)) => Battle::Defended { defender },
        (BattleKind::Encounter, Some(s)) => {
            return err(
                "defender",
                format!("defender \"{s}\" in an encounter: only a battle with a designated defender names one (page 7)"),
            );
        }
        (BattleKind::Defended, None) => {
            return err(
                "defender",
                "a defended battle names its defender, \"a\" or \"b\" (page 7)",
            );
        }
    };
    let mut last = 0;
    for (i, c) in data.conditions.iter().enumerate() {
        let p = format!("conditions[{i}].turn");
        if i == 0 && c.turn != 1 {
            return err(
                p,
                format!("turn {}: the first conditions hold from turn 1", c.turn),
            );
        }
        if i > 0 && c.turn <= last {
            return err(
                p,
                format!(
                    "turn {} after turn {last}: conditions are listed by strictly increasing turn",
                    c.turn
                ),
            );
        }
        if c.turn > data.turns {
            return err(
                p,
                format!("turn {}, but the scenario has {} turns", c.turn, data.turns),
            );
        }
        last = c.turn;
    }
    let movement = match &data.movement {
        Some(m) => m.validate("movement")?,
        None => MovementData::stand_in().validate("movement")?,
    };
    let quality_table = match &data.quality_table {
        Some(q) => q.validate("quality_table")?,
        None => QualityTable::stand_in(),
    };
    let (terrain, terrain_ids) = validate_terrain(&data)?;
    let objectives = validate_objectives(&data)?;
    validate_victory(&data)?;

    // Officers (both sides first: their ids are unique across the two).
    let mut officers: Vec<OfficerDef> = Vec::new();
    let mut officer_ids: BTreeMap<String, OfficerIx> = BTreeMap::new();
    let mut cincs = [OfficerIx(0); 2];
    let mut a_officers = 0;
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        nonempty(&sd.name, format!("{sp}.name"))?;
        if !ARMY_FACTOR.contains(&sd.skirmish_factor) {
            return err(
                format!("{sp}.skirmish_factor"),
                format!(
                    "{}: a Skirmish Factor is 6 to 10 (page 9)",
                    sd.skirmish_factor
                ),
            );
        }
        if !ARMY_FACTOR.contains(&sd.artillery_factor) {
            return err(
                format!("{sp}.artillery_factor"),
                format!(
                    "{}: an Artillery Factor is 6 to 10 (page 10)",
                    sd.artillery_factor
                ),
            );
        }
        let mut cinc: Option<(usize, OfficerIx)> = None;
        for (i, o) in sd.officers.iter().enumerate() {
            let op = format!("{sp}.officers[{i}]");
            nonempty(&o.id, format!("{op}.id"))?;
            let ix = OfficerIx(officers.len() as u16);
            if officer_ids.insert(o.id.clone(), ix).is_some() {
                return err(
                    format!("{op}.id"),
                    format!(
                        "duplicate officer id '{}': officer ids are unique across both sides",
                        o.id
                    ),
                );
            }
            let position = match o.position {
                Some(p) => Some(to_point(table_point(
                    p,
                    &data.table,
                    format!("{op}.position"),
                )?)),
                None => None,
            };
            if o.rank == OfficerRank::Cinc {
                if let Some((j, _)) = cinc {
                    return err(
                        format!("{op}.rank"),
                        format!("'{}' is a second cinc (officers[{j}] is the first): an army has exactly one CinC (page 16)", o.id),
                    );
                }
                cinc = Some((i, ix));
            }
            officers.push(OfficerDef {
                ix,
                side,
                id: o.id.clone(),
                name: o.name.clone(),
                rank: o.rank,
                quality: o.quality,
                inspirational: o.inspirational,
                charmed: o.charmed,
                position,
                commands: (o.rank == OfficerRank::Cinc).then_some(CommandGroup::Army),
            });
        }
        let Some((_, cinc)) = cinc else {
            return err(
                format!("{sp}.officers"),
                "no officer of rank cinc: an army has exactly one CinC (page 16)",
            );
        };
        cincs[side.index()] = cinc;
        if side == Side::A {
            a_officers = officers.len();
        }
    }

    // Corps and divisions.
    let mut corps: Vec<CorpsDef> = Vec::new();
    let mut corps_ids: BTreeMap<String, CorpsIx> = BTreeMap::new();
    let mut divisions: Vec<DivisionDef> = Vec::new();
    let mut division_ids: BTreeMap<String, DivisionIx> = BTreeMap::new();
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        if sd.corps.len() == 1 {
            return err(
                format!("{sp}.corps"),
                format!("a single corps ('{}'): in an army of one corps the CinC is in effect its corps officer and no separate corps officer is used (page 16); leave corps out", sd.corps[0].id),
            );
        }
        let multi = !sd.corps.is_empty();
        if !multi {
            if let Some(i) = sd
                .officers
                .iter()
                .position(|o| o.rank == OfficerRank::Corps)
            {
                return err(
                    format!("{sp}.officers[{i}].rank"),
                    format!("'{}' is of rank corps in an army of a single corps: the CinC is in effect the corps officer, a separate one is not used (page 16)", sd.officers[i].id),
                );
            }
        }
        for (i, c) in sd.corps.iter().enumerate() {
            let cp = format!("{sp}.corps[{i}]");
            nonempty(&c.id, format!("{cp}.id"))?;
            let ix = CorpsIx(corps.len() as u16);
            if corps_ids.insert(c.id.clone(), ix).is_some() {
                return err(
                    format!("{cp}.id"),
                    format!(
                        "duplicate corps id '{}': corps ids are unique across both sides",
                        c.id
                    ),
                );
            }
            let officer = commander(
                &c.officer,
                format!("{cp}.officer"),
                side,
                OfficerRank::Corps,
                "corps",
                &officer_ids,
                &officers,
            )?;
            officers[officer.index()].commands = Some(CommandGroup::Corps(ix));
            corps.push(CorpsDef {
                ix,
                side,
                id: c.id.clone(),
                officer,
                divisions: Vec::new(),
            });
        }
        for (i, d) in sd.divisions.iter().enumerate() {
            let dp = format!("{sp}.divisions[{i}]");
            nonempty(&d.id, format!("{dp}.id"))?;
            let ix = DivisionIx(divisions.len() as u16);
            if division_ids.insert(d.id.clone(), ix).is_some() {
                return err(
                    format!("{dp}.id"),
                    format!(
                        "duplicate division id '{}': division ids are unique across both sides",
                        d.id
                    ),
                );
            }
            let officer = commander(
                &d.officer,
                format!("{dp}.officer"),
                side,
                OfficerRank::Division,
                "division",
                &officer_ids,
                &officers,
            )?;
            officers[officer.index()].commands = Some(CommandGroup::Division(ix));
            let corps_ix = match (&d.corps, multi) {
                (None, false) => None,
                (Some(c), false) => {
                    return err(
                        format!("{dp}.corps"),
                        format!("corps '{c}', but side {side} lists no corps: an army of a single corps needs none (page 16)"),
                    );
                }
                (None, true) => {
                    return err(
                        format!("{dp}.corps"),
                        format!("division '{}' names no corps: in an army of several corps every division belongs to one (page 16)", d.id),
                    );
                }
                (Some(c), true) => match corps_ids.get(c) {
                    Some(&cx) if corps[cx.index()].side == side => Some(cx),
                    Some(_) => {
                        return err(
                            format!("{dp}.corps"),
                            format!("corps '{c}' is the other side's"),
                        );
                    }
                    None => return err(format!("{dp}.corps"), format!("unknown corps '{c}'")),
                },
            };
            if let Some(cx) = corps_ix {
                corps[cx.index()].divisions.push(ix);
            }
            divisions.push(DivisionDef {
                ix,
                side,
                id: d.id.clone(),
                officer,
                corps: corps_ix,
                units: Vec::new(),
            });
        }
    }

    // Units.
    let ctx = UnitCtx {
        table: &data.table,
        terrain: &terrain,
        terrain_ids: &terrain_ids,
    };
    let mut units: Vec<UnitDef> = Vec::new();
    let mut unit_ids: BTreeMap<String, UnitIx> = BTreeMap::new();
    let mut unit_paths: Vec<String> = Vec::new();
    let mut sectors: BTreeMap<SectorRef, UnitIx> = BTreeMap::new();
    let mut a_units = 0;
    for side in Side::BOTH {
        let sd = data.sides.get(side);
        let sp = format!("sides.{side}");
        for (i, u) in sd.units.iter().enumerate() {
            let up = format!("{sp}.units[{i}]");
            nonempty(u.id.as_str(), format!("{up}.id"))?;
            let ix = UnitIx(units.len() as u16);
            if unit_ids.insert(u.id.as_str().to_string(), ix).is_some() {
                return err(
                    format!("{up}.id"),
                    format!(
                        "duplicate unit id '{}': unit ids are unique across both sides",
                        u.id
                    ),
                );
            }
            let division = match division_ids.get(&u.division) {
                Some(&dx) if divisions[dx.index()].side == side => dx,
                Some(_) => {
                    return err(
                        format!("{up}.division"),
                        format!("division '{}' is the other side's", u.division),
                    );
                }
                None => {
                    return err(
                        format!("{up}.division"),
                        format!("unknown division '{}'", u.division),
                    )
                }
            };
            let def = validate_unit(u, &up, ix, side, division, &ctx)?;
            if let Some(s) = def.sector {
                if let Some(other) = sectors.insert(s, ix) {
                    return err(
                        format!("{up}.sector"),
                        format!(
                            "'{}' is already held by '{}': a sector of dense terrain can contain only one unit (page 22)",
                            u.sector.as_deref().unwrap_or_default(),
                            units[other.index()].id
                        ),
                    );
                }
            }
            divisions[division.index()].units.push(ix);
            units.push(def);
            unit_paths.push(up);
        }
        if side == Side::A {
            a_units = units.len();
        }
    }

    let start = validate_start(&StartCtx {
        data: &data,
        units: &units,
        unit_ids: &unit_ids,
        officers: &officers,
        officer_ids: &officer_ids,
    })?;
    check_footprints(&data, battle, &units, &unit_paths, a_units, start.as_ref())?;

    let side_def = |side: Side| {
        let sd = data.sides.get(side);
        SideDef {
            name: sd.name.clone(),
            skirmish_factor: sd.skirmish_factor,
            artillery_factor: sd.artillery_factor,
            cinc: cincs[side.index()],
        }
    };
    let sides = SidePair::new(side_def(Side::A), side_def(Side::B));
    let sc = Scenario {
        table: TableSize {
            width: Len::mm(i64::from(t.width_mm)),
            depth: Len::mm(i64::from(t.depth_mm)),
        },
        base: Len::mm(i64::from(data.base_mm)),
        turns: data.turns,
        battle,
        setup: data.setup,
        first: data.first,
        conditions: data.conditions.clone(),
        movement,
        quality_table,
        terrain,
        objectives,
        sides,
        officers,
        corps,
        divisions,
        units,
        unit_ids,
        officer_ids,
        a_units,
        a_officers,
        start,
        data,
    };
    check_state(&sc)?;
    Ok(sc)
}
