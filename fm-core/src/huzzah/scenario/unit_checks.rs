//! One unit's checks: the composition of its bases (page 3; irregular troops, page 6),
//! its troop type (pages 6, 9, 20 and 22), its ranks and formation (pages 21-22), its
//! traits and abilities (pages 5, 17 and 20), its position and facing, and the sector of
//! dense terrain it holds (page 22).

use super::format::{TableData, UnitData};
use super::geometry_checks::{table_point, to_point};
use super::kinds::{Arm, BaseKind, Formation, UnitOrder};
use super::model::{Base, DivisionIx, SectorRef, Terrain, TerrainIx, UnitDef, UnitFlags, UnitIx};
use super::validation::{err, json_name};
use crate::error::ScenarioError;
use crate::huzzah::geometry::Facing;
use crate::ids::Side;
use std::collections::BTreeMap;

/// Context for validating units.
pub(super) struct UnitCtx<'a> {
    pub(super) table: &'a TableData,
    pub(super) terrain: &'a [Terrain],
    pub(super) terrain_ids: &'a BTreeMap<String, TerrainIx>,
}

/// A base's class for the composition rules (page 3).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Infantry,
    DivisionalArtillery,
    Cavalry,
    ReserveArtillery,
}

fn class(k: BaseKind) -> Class {
    match k {
        BaseKind::Infantry | BaseKind::IrregularInfantry => Class::Infantry,
        BaseKind::DivisionalArtillery => Class::DivisionalArtillery,
        BaseKind::BattleCavalry | BaseKind::OtherCavalry => Class::Cavalry,
        _ => Class::ReserveArtillery,
    }
}

/// The composition rules of page 3 (and page 6 for irregular troops): the unit's arm.
fn unit_arm(u: &UnitData, up: &str) -> Result<Arm, ScenarioError> {
    if u.bases.is_empty() {
        return err(
            format!("{up}.bases"),
            "no bases: a unit is one or more bases (page 2)",
        );
    }
    let Some(lead) = u
        .bases
        .iter()
        .position(|b| b.kind != BaseKind::DivisionalArtillery)
    else {
        return err(
            format!("{up}.bases[0]"),
            "divisional_artillery with no infantry: divisional artillery is always attached to a unit of infantry (page 3)",
        );
    };
    let lead_kind = u.bases[lead].kind;
    let arm = lead_kind.arm();
    let lead_name = json_name(&lead_kind);
    let mut divisional = 0;
    for (i, b) in u.bases.iter().enumerate() {
        let bp = format!("{up}.bases[{i}]");
        let kind = json_name(&b.kind);
        let why = match (arm, class(b.kind)) {
            (Arm::Infantry, Class::Infantry)
            | (Arm::Cavalry, Class::Cavalry)
            | (Arm::Artillery, Class::ReserveArtillery) => None,
            (Arm::Infantry, Class::DivisionalArtillery) => {
                divisional += 1;
                (divisional > 1).then_some(
                    "a unit can include a maximum of one base of divisional artillery (page 3)",
                )
            }
            (Arm::Infantry, Class::Cavalry) | (Arm::Cavalry, Class::Infantry) => {
                Some("infantry and cavalry cannot be brigaded together in the same unit (page 3)")
            }
            (Arm::Cavalry, Class::DivisionalArtillery | Class::ReserveArtillery)
            | (Arm::Artillery, Class::Cavalry) => {
                Some("cavalry and artillery cannot be brigaded together in the same unit (page 3)")
            }
            (Arm::Infantry, Class::ReserveArtillery) => Some(
                "reserve artillery can attach only to other reserve artillery (page 3); guns attached to infantry are divisional_artillery",
            ),
            (Arm::Artillery, Class::Infantry) => {
                Some("reserve artillery can attach only to other reserve artillery (page 3)")
            }
            (Arm::Artillery, Class::DivisionalArtillery) => Some(
                "divisional artillery is attached only to infantry (page 3); reserve guns are foot_artillery, horse_artillery or heavy_artillery",
            ),
        };
        if let Some(why) = why {
            return err(
                bp,
                format!("{kind} in a unit whose bases[{lead}] is {lead_name}: {why}"),
            );
        }
        if b.expected.is_some() && !b.kind.is_reserve_artillery() {
            return err(
                format!("{bp}.expected"),
                format!("a per-base expected quality on a {kind} base: only reserve artillery bases carry their own (grand batteries of mixed quality, page 6)"),
            );
        }
    }
    // Irregular infantry: the whole unit (page 6).
    if let Some(irr) = u
        .bases
        .iter()
        .position(|b| b.kind == BaseKind::IrregularInfantry)
    {
        if let Some(reg) = u.bases.iter().position(|b| b.kind == BaseKind::Infantry) {
            return err(
                format!("{up}.bases[{reg}]"),
                format!("infantry in a unit with irregular_infantry (bases[{irr}]): a unit consists entirely of irregular troops to be irregular (page 6)"),
            );
        }
        if u.order != UnitOrder::Irregular {
            return err(
                format!("{up}.order"),
                format!("order {} for a unit of irregular_infantry: irregular troops are always in open order (order irregular; pages 6 and 20)", json_name(&u.order)),
            );
        }
    }
    match u.order {
        UnitOrder::Close => {}
        UnitOrder::Irregular => {
            let fits = |k: BaseKind| match arm {
                Arm::Infantry => {
                    k == BaseKind::IrregularInfantry || k == BaseKind::DivisionalArtillery
                }
                Arm::Cavalry => k == BaseKind::OtherCavalry,
                Arm::Artillery => false,
            };
            if let Some(i) = u.bases.iter().position(|b| !fits(b.kind)) {
                return err(
                    format!("{up}.order"),
                    format!(
                        "order irregular, but bases[{i}] is {}: irregular troops (Cossacks and Ottoman infantry, page 20) are units entirely of irregular_infantry or other_cavalry (page 6)",
                        json_name(&u.bases[i].kind)
                    ),
                );
            }
        }
        UnitOrder::Skirmish | UnitOrder::SkirmishLimited => {
            if arm != Arm::Infantry {
                return err(
                    format!("{up}.order"),
                    format!(
                        "order {} for a unit of {lead_name}: the skirmish abilities are for infantry (pages 6, 9 and 22)",
                        json_name(&u.order)
                    ),
                );
            }
        }
    }
    Ok(arm)
}

fn check_formation(u: &UnitData, up: &str, arm: Arm) -> Result<(), ScenarioError> {
    if u.ranks.is_empty() {
        return err(
            format!("{up}.ranks"),
            "no ranks: list the bases in each rank, front rank first",
        );
    }
    for (k, &r) in u.ranks.iter().enumerate() {
        if r == 0 {
            return err(
                format!("{up}.ranks[{k}]"),
                "a rank of 0 bases: every rank holds at least one",
            );
        }
    }
    let sum: usize = u.ranks.iter().map(|&r| usize::from(r)).sum();
    if sum != u.bases.len() {
        return err(
            format!("{up}.ranks"),
            format!(
                "the ranks {:?} hold {sum} bases, but the unit has {}",
                u.ranks,
                u.bases.len()
            ),
        );
    }
    match u.formation {
        Formation::Line => {}
        Formation::Column => {
            if let Some(k) = u.ranks.iter().position(|&r| r != 1) {
                return err(
                    format!("{up}.ranks[{k}]"),
                    format!("a rank of {} bases in road column: a column is one base wide (page 21: road columns never have the two-base front rank of a support rank)", u.ranks[k]),
                );
            }
        }
        Formation::Square => {
            if arm != Arm::Infantry {
                return err(
                    format!("{up}.formation"),
                    format!("square for a unit of {}: only infantry, with or without divisional artillery, can form square (page 22)", json_name(&arm)),
                );
            }
            if u.ranks.len() < 2 {
                return err(
                    format!("{up}.ranks"),
                    format!("a square in {} rank: a square has at least two ranks, alternate bases facing the rear (page 22)", u.ranks.len()),
                );
            }
        }
    }
    Ok(())
}

fn parse_sector(
    u: &UnitData,
    up: &str,
    arm: Arm,
    ctx: &UnitCtx<'_>,
) -> Result<Option<SectorRef>, ScenarioError> {
    let Some(s) = &u.sector else {
        return Ok(None);
    };
    let sp = format!("{up}.sector");
    let Some((tid, n)) = s.rsplit_once('/') else {
        return err(
            sp,
            format!("'{s}': a sector is named \"<terrain id>/<sector number>\" (\"w1/0\")"),
        );
    };
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
        return err(
            sp,
            format!("'{s}': the sector number '{n}' is not a whole number"),
        );
    }
    let Some(&ix) = ctx.terrain_ids.get(tid) else {
        return err(sp, format!("'{s}': no terrain piece '{tid}'"));
    };
    let t = &ctx.terrain[ix.index()];
    if !t.kind.is_dense() {
        return err(
            sp,
            format!("'{s}': '{tid}' is {}, not dense terrain (woods or buildings, page 19), and has no sectors", json_name(&t.kind)),
        );
    }
    let k = n.parse::<usize>().ok().filter(|&k| k < t.sectors.len());
    let Some(k) = k else {
        return err(
            sp,
            format!(
                "'{s}': '{tid}' has {} sectors, numbered from 0",
                t.sectors.len()
            ),
        );
    };
    let eligible = arm == Arm::Infantry || (arm == Arm::Cavalry && u.order == UnitOrder::Irregular);
    if !eligible {
        let what = if arm == Arm::Cavalry {
            "cavalry that is not irregular".to_string()
        } else {
            json_name(&arm)
        };
        return err(
            sp,
            format!("'{s}' for a unit of {what}: only infantry, infantry with divisional artillery and irregular cavalry deploy in dense terrain (page 22)"),
        );
    }
    Ok(Some(SectorRef {
        terrain: ix,
        sector: k as u16,
    }))
}

pub(super) fn validate_unit(
    u: &UnitData,
    up: &str,
    ix: UnitIx,
    side: Side,
    division: DivisionIx,
    ctx: &UnitCtx<'_>,
) -> Result<UnitDef, ScenarioError> {
    let arm = unit_arm(u, up)?;
    check_formation(u, up, arm)?;
    if u.hesitant && u.impulsive {
        return err(
            format!("{up}.impulsive"),
            "impulsive and also hesitant: a unit has at most one of the two traits (impulsive units charge without orders, page 20; hesitant ones are slow to order near the enemy, page 17)",
        );
    }
    if u.disciplined && !u.grognards {
        return err(
            format!("{up}.disciplined"),
            "disciplined without grognards: a unit gains Disciplined only once it has Grognards (pages 5, 14 and 21)",
        );
    }
    let position = to_point(table_point(
        u.position,
        ctx.table,
        format!("{up}.position"),
    )?);
    if u.facing > 359 {
        return err(
            format!("{up}.facing"),
            format!("{}: a facing is 0 to 359 degrees", u.facing),
        );
    }
    let sector = parse_sector(u, up, arm, ctx)?;
    Ok(UnitDef {
        ix,
        side,
        id: u.id.clone(),
        name: u.name.clone(),
        division,
        arm,
        bases: u
            .bases
            .iter()
            .map(|b| Base {
                kind: b.kind,
                expected: b.expected,
            })
            .collect(),
        expected: u.expected,
        quality: u.quality,
        order: u.order,
        flags: UnitFlags {
            renowned: u.renowned,
            hesitant: u.hesitant,
            impulsive: u.impulsive,
            grognards: u.grognards,
            disciplined: u.disciplined,
        },
        formation: u.formation,
        ranks: u.ranks.clone(),
        position,
        facing: Facing(u.facing),
        sector,
    })
}
