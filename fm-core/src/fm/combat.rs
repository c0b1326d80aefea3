//! Ground combat (rules 8.0, 8.2-8.2.4): declaring attacks, totals, the defender's
//! terrain line (8.2.2, rivers and bridges), fortifications (8.2.3), the die roll and
//! the results, with owner choices for step losses.

use crate::error::{refuse, RuleError};
use crate::fm::crt::CrtResult;
use crate::fm::engine::Ctx;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::scenario::{MoveCost, Phase, Scenario, UnitKind};
use crate::fm::state::{CombatKind, CombatStage, Location, LossReason, State};
use crate::ids::UnitId;

/// The CRT line used against a defender in hex `hex` (8.2.2): the in-hex terrain
/// lines, plus hexside lines that apply to this attack (river-type lines only if every
/// attacker crosses such a hexside; a bridge's line if any of them crosses a bridge),
/// choosing the one most beneficial to the defender: the leftmost grid column at this
/// `differential` once the attack's column `shift` is applied, then the lowest cap (the
/// line whose last column is leftmost), then scenario order.
/// `attackers` is `None` for bombardment, which ignores hexsides (8.1.2).
/// Exclusive rules filter the candidates (Meuse Argonne 14.2: works count only for
/// German defenders and only while intact; Vimy Ridge 14.1 and Suez 1916 14.2: trench
/// hexsides denied in No Man's Land and to non-owners); forced lines are applied by
/// [`crt_reading`].
pub fn defender_line(
    sc: &Scenario,
    s: &State,
    hex: u16,
    attackers: Option<&[u16]>,
    differential: i32,
    shift: i8,
) -> usize {
    let defender = s
        .unit_at(sc.hex_at(hex))
        .map(|i| sc.units[i].data.side)
        .unwrap_or(s.active.other());
    let rules = sc.rules();
    let mut cands: Vec<usize> = Vec::new();
    let info = &sc.hexes[hex as usize];
    let mut m = info.terrain;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        if let Some(l) = sc.hex_line[i] {
            if rules.terrain_counts(sc, s, hex, i, defender) {
                cands.push(l);
            }
        }
    }
    if let Some(att) = attackers.filter(|a| !a.is_empty()) {
        let masks: Vec<u64> = att
            .iter()
            .filter_map(|a| sc.direction(hex, *a).map(|d| info.sides[d]))
            .collect();
        let feats = &sc.data.terrain.hexside;
        // River-type features (and the bridges over them) count together for the
        // every-attacker test: "across a non-bridged river or ditch hexside".
        let mut group = 0u64;
        for (f, feat) in feats.iter().enumerate() {
            let over = sc.bridge_of[f]
                .map(|b| feats[b].all_attackers)
                .unwrap_or(false);
            if feat.all_attackers || over {
                group |= 1 << f;
            }
        }
        let every =
            !masks.is_empty() && masks.len() == att.len() && masks.iter().all(|m| m & group != 0);
        let crossed = masks.iter().fold(0u64, |acc, m| acc | m);
        let mut suppressed = 0u64;
        for f in 0..feats.len() {
            if crossed & (1 << f) != 0 {
                if let Some(b) = sc.bridge_of[f] {
                    suppressed |= 1 << b;
                }
            }
        }
        for (f, feat) in feats.iter().enumerate() {
            let Some(line) = sc.side_line[f] else {
                continue;
            };
            if crossed & (1 << f) == 0 || suppressed & (1 << f) != 0 {
                continue;
            }
            if rules.hexside_line_denied(sc, hex, f, defender) {
                continue;
            }
            let river_type = group & (1 << f) != 0;
            if (river_type && every) || (!river_type && !feat.all_attackers) {
                cands.push(line);
            }
        }
    }
    let crt = &sc.crt;
    cands
        .into_iter()
        .min_by_key(|&l| {
            (
                crt.shifted(l, crt.column(l, differential), shift),
                crt.lines[l].columns().end,
                l,
            )
        })
        .unwrap_or(0)
}

/// Where an attack on hex `hex` reads the CRT: the line (a line an exclusive rule
/// forces, e.g. Meuse Argonne 18.1's Lost Battalion, else [`defender_line`]) and the
/// grid column after the `shift`.
pub(crate) fn crt_reading(
    sc: &Scenario,
    s: &State,
    hex: u16,
    attackers: Option<&[u16]>,
    differential: i32,
    shift: i8,
) -> (usize, usize) {
    let line = attackers
        .and_then(|_| sc.rules().forced_line(sc, s))
        .unwrap_or_else(|| defender_line(sc, s, hex, attackers, differential, shift));
    let col = sc
        .crt
        .shifted(line, sc.crt.column(line, differential), shift);
    (line, col)
}

/// Where the combat in progress reads the CRT: its terrain line and grid column, with
/// the differential and column shift that give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrtReading {
    /// The terrain line, an index into `sc.crt.lines` (8.2.2).
    pub line: usize,
    /// The grid column (0-based) read, after the column shift: the line's labels read
    /// from the left (8.2.1(d), the CRT notes at either end).
    pub column: usize,
    /// Attack total minus defense total, with the markers counted (8.2.1).
    pub differential: i32,
    /// The column shift of exclusive rules (Suez 1916 13.1, 15.1, 19.0).
    pub shift: i8,
}

/// Where the combat in progress in `s` would read the CRT now, counting the support
/// fire markers whose index in `combat.markers` `counted` accepts (a picture for one
/// side counts only those that side knows): the same totals, line and column as the
/// resolution (ground combat 8.2.1-8.2.2, bombardment 8.1.2). `None` without a combat,
/// and past the roll (its result known, or a later stage: retreat, losses, advance),
/// when units have moved or lost steps and the totals no longer tell the column read.
pub fn combat_reading(
    sc: &Scenario,
    s: &State,
    counted: &dyn Fn(usize) -> bool,
) -> Option<CrtReading> {
    let c = s.combat.as_ref()?;
    let before_roll = matches!(
        c.stage,
        CombatStage::Support { .. } | CombatStage::LostBattalion
    );
    if c.result.is_some() || !before_roll {
        return None;
    }
    let hi = sc.hex_index(c.hex)?;
    let fort = sc.is_fortification(hi);
    let values = |side: Option<crate::ids::Side>| -> Vec<u8> {
        c.markers
            .iter()
            .enumerate()
            .filter(|(k, m)| side.map_or(true, |sd| m.side == sd) && counted(*k))
            .filter_map(|(_, m)| m.value)
            .collect()
    };
    let index = |ids: &[UnitId]| -> Vec<usize> {
        ids.iter()
            .filter_map(|u| sc.unit_index(u).map(|i| i as usize))
            .collect()
    };
    let def = index(&c.defenders);
    if c.kind == CombatKind::Bombardment {
        // As `bombardment::resolve` totals it.
        let a: i32 = values(None)
            .iter()
            .map(|&v| if fort { v as i32 / 2 } else { v as i32 })
            .sum();
        let d: i32 = def
            .iter()
            .map(|&i| {
                sc.units[i].values(s.units[i].steps).defense as i32 * if fort { 2 } else { 1 }
            })
            .sum();
        let (line, column) = crt_reading(sc, s, hi, None, a - d, 0);
        return Some(CrtReading {
            line,
            column,
            differential: a - d,
            shift: 0,
        });
    }
    let att = index(&c.attackers);
    let (a, d) = ground_totals(
        sc,
        s,
        hi,
        &att,
        &def,
        &values(Some(s.active)),
        &values(Some(s.active.other())),
    );
    let att_hexes: Vec<u16> = att
        .iter()
        .filter_map(|&i| s.units[i].hex().and_then(|h| sc.hex_index(h)))
        .collect();
    let shift = sc.rules().column_shift(sc, s, c.hex);
    let (line, column) = crt_reading(sc, s, hi, Some(&att_hexes), a - d, shift);
    Some(CrtReading {
        line,
        column,
        differential: a - d,
        shift,
    })
}

/// Whether an attack from hex `from` into hex `to` is possible at all (8.2: not across
/// a prohibited hexside, not into a hex prohibited to the attacker).
pub(crate) fn can_attack_across(sc: &Scenario, from: u16, to: u16) -> bool {
    let Some(d) = sc.direction(from, to) else {
        return false;
    };
    let side = sc.hexes[from as usize].sides[d];
    let t = &sc.data.terrain;
    let side_ok = (0..t.hexside.len())
        .all(|i| side & (1 << i) == 0 || t.hexside[i].cost != MoveCost::Prohibited);
    let hex_ok = (0..t.hex.len()).all(|i| {
        sc.hexes[to as usize].terrain & (1 << i) == 0 || t.hex[i].cost != MoveCost::Prohibited
    });
    side_ok && hex_ok
}

/// Why `unit` may not attack now, if it may not.
pub(crate) fn may_attack(sc: &Scenario, s: &State, i: usize) -> Result<(), RuleError> {
    let u = &s.units[i];
    let d = &sc.units[i].data;
    if d.side != s.active {
        return refuse(
            "8.0",
            format!("{} belongs to the defending side", s.units.id(i)),
        );
    }
    if !matches!(u.loc, Location::Map(_)) {
        return refuse("8.2", format!("{} is not on the map", s.units.id(i)));
    }
    if u.attacked {
        return refuse(
            "8.2",
            format!("{} has already attacked this phase", s.units.id(i)),
        );
    }
    sc.rules().activity_refusal(sc, s, "attack")?;
    if s.phase == Phase::MobileCombat {
        if d.kind != UnitKind::Mobile {
            return refuse(
                "4.1",
                format!(
                    "{} is a leg unit: only mobile units attack in the Mobile Combat Phase",
                    s.units.id(i)
                ),
            );
        }
        if u.attacked_this_turn {
            return refuse(
                "8.2",
                format!(
                    "{} attacked in the Combat Phase and cannot attack again this player turn",
                    s.units.id(i)
                ),
            );
        }
    }
    if u.advanced {
        return refuse(
            "8.5",
            format!(
                "{} advanced after combat and may do nothing else this player turn",
                s.units.id(i)
            ),
        );
    }
    if u.displaced {
        return refuse(
            "8.3.1",
            format!(
                "{} was displaced and may not attack for the rest of this turn",
                s.units.id(i)
            ),
        );
    }
    Ok(())
}

/// The defenders and attackers (scenario indices) of an attack on `hex` by `units`,
/// or why the attack is not allowed (8.0, 8.2, stacks attacking together).
pub(crate) fn check_attack_units(
    sc: &Scenario,
    s: &State,
    hex: Hex,
    units: &[UnitId],
) -> Result<(Vec<usize>, Vec<usize>), RuleError> {
    let Some(hi) = sc.hex_index(hex) else {
        return refuse("input", format!("{hex} is off the map"));
    };
    let defenders: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].loc == Location::Map(hex))
        .collect();
    if defenders.is_empty() || defenders.iter().any(|&d| sc.units[d].data.side == s.active) {
        return refuse("8.2", format!("{hex} holds no enemy unit"));
    }
    // Exclusive rules may allow a second attack (Vimy Ridge 18.3: by another division).
    let again = sc.rules().repeat_attacks();
    for &d in &defenders {
        if s.units[d].defended && !again {
            return refuse(
                "8.0",
                format!("{} has already been attacked this phase", s.units.id(d)),
            );
        }
    }
    if units.is_empty() {
        return refuse("8.2.1(a)", "an attack needs at least one attacking unit");
    }
    let mut idx = Vec::new();
    for u in units {
        let Some(i) = sc.unit_index(u).map(|i| i as usize) else {
            return refuse("input", format!("unknown unit '{u}'"));
        };
        if idx.contains(&i) {
            return refuse("input", format!("{u} is listed twice"));
        }
        may_attack(sc, s, i)?;
        let Location::Map(ah) = s.units[i].loc else {
            unreachable!()
        };
        let ai = sc.hex_index(ah).expect("on map");
        if !sc.layout().adjacent(ah, hex) {
            return refuse("8.2", format!("{u} at {ah} is not adjacent to {hex}"));
        }
        if !can_attack_across(sc, ai, hi) {
            return refuse(
                "8.2",
                format!("{u} cannot attack across the prohibited hexside {ah}-{hex}"),
            );
        }
        idx.push(i);
    }
    sc.rules().check_attack(sc, s, &defenders, &idx)?;
    // A stack attacks as one unit (Meuse Argonne 13.2: stacked brigades; Suez 1916
    // 17.3: stacked units attack together).
    let rule = sc.rules().stack_attack_rule();
    for &i in &idx {
        let h = s.units[i].hex().expect("on map");
        for o in s.units_at(h) {
            if !idx.contains(&o) {
                return refuse(
                    rule,
                    format!(
                        "{} is stacked with {} and they attack together",
                        s.units.id(o),
                        s.units.id(i)
                    ),
                );
            }
        }
    }
    Ok((defenders, idx))
}

/// 8.2.1(a): declare a ground attack.
pub(crate) fn declare(ctx: &mut Ctx, hex: Hex, units: &[UnitId]) -> Result<(), RuleError> {
    let sc = ctx.sc;
    if !matches!(ctx.s.phase, Phase::Combat | Phase::MobileCombat) {
        return refuse(
            "8.2",
            format!(
                "attacks are made in a combat phase, not the {}",
                ctx.s.phase
            ),
        );
    }
    let (defenders, _) = check_attack_units(sc, &ctx.s, hex, units)?;
    sc.rules().check_free_attack(sc, &ctx.s, hex)?;
    ctx.emit(Event::AttackDeclared {
        hex,
        defenders: defenders
            .iter()
            .map(|&d| ctx.s.units.id(d).clone())
            .collect(),
        attackers: units.to_vec(),
    });
    proceed(ctx);
    Ok(())
}

/// Resolves the combat once the commitment steps are over.
pub(crate) fn proceed(ctx: &mut Ctx) {
    let Some(c) = &ctx.s.combat else { return };
    if c.result.is_some() || c.stage != (CombatStage::Support { step: 4 }) {
        return;
    }
    let kind = c.kind;
    if ctx.sc.rules().before_roll(ctx) {
        return;
    }
    match kind {
        CombatKind::Ground => resolve_ground(ctx),
        CombatKind::Bombardment => crate::fm::bombardment::resolve(ctx),
    }
}

pub(crate) fn reveal(ctx: &mut Ctx) {
    let c = ctx.s.combat.as_ref().expect("combat");
    if c.markers.is_empty() {
        return;
    }
    let att = ctx.s.active;
    let pick = |side| -> Vec<u8> {
        c.markers
            .iter()
            .filter(|m| m.side == side)
            .filter_map(|m| m.value)
            .collect()
    };
    let (a, d) = (pick(att), pick(att.other()));
    ctx.emit(Event::SupportRevealed {
        attacker: a,
        defender: d,
    });
}

/// Strength totals of a ground combat (8.2.1(c), 8.2.3).
pub(crate) fn ground_totals(
    sc: &Scenario,
    s: &State,
    hex: u16,
    attackers: &[usize],
    defenders: &[usize],
    att_markers: &[u8],
    def_markers: &[u8],
) -> (i32, i32) {
    let fort = sc.is_fortification(hex);
    let mut a: i32 = attackers
        .iter()
        .map(|&i| sc.units[i].values(s.units[i].steps).attack as i32)
        .sum();
    a += att_markers
        .iter()
        .map(|&v| if fort { v as i32 / 2 } else { v as i32 })
        .sum::<i32>();
    // Vimy Ridge 14.1: halved in No Man's Land.
    let mut d: i32 = defenders
        .iter()
        .map(|&i| {
            let printed = sc.units[i].values(s.units[i].steps).defense as i32;
            sc.rules().defense(sc, hex, printed) * if fort { 2 } else { 1 }
        })
        .sum();
    d += def_markers.iter().map(|&v| v as i32).sum::<i32>();
    (a, d)
}

fn resolve_ground(ctx: &mut Ctx) {
    reveal(ctx);
    let sc = ctx.sc;
    let c = ctx.s.combat.clone().expect("combat");
    let hi = sc.hex_index(c.hex).expect("on map");
    let att: Vec<usize> = c
        .attackers
        .iter()
        .filter_map(|u| sc.unit_index(u).map(|i| i as usize))
        .collect();
    let def: Vec<usize> = c
        .defenders
        .iter()
        .filter_map(|u| sc.unit_index(u).map(|i| i as usize))
        .collect();
    let side_vals = |side| -> Vec<u8> {
        c.markers
            .iter()
            .filter(|m| m.side == side)
            .filter_map(|m| m.value)
            .collect()
    };
    let (a, d) = ground_totals(
        sc,
        &ctx.s,
        hi,
        &att,
        &def,
        &side_vals(ctx.s.active),
        &side_vals(ctx.s.active.other()),
    );
    let diff = a - d;
    let att_hexes: Vec<u16> = att
        .iter()
        .filter_map(|&i| ctx.s.units[i].hex().and_then(|h| sc.hex_index(h)))
        .collect();
    let shift = sc.rules().column_shift(sc, &ctx.s, c.hex);
    let (line, col) = crt_reading(sc, &ctx.s, hi, Some(&att_hexes), diff, shift);
    crate::chance::roll_for(1, || {
        crate::chance::ChanceRoll::new("combat", "1d6")
            .with("hex", c.hex)
            .with("attackers", &c.attackers)
            .with("defenders", &c.defenders)
    });
    let die = ctx.d6();
    let result = sc.crt.result(col, die);
    ctx.emit(Event::CombatResolved {
        kind: CombatKind::Ground,
        attack: a,
        defense: d,
        differential: diff,
        line: sc.crt.lines[line].id.clone(),
        column: sc.crt.column_label(line, col),
        die,
        result,
        applies: true,
        shift,
    });
    let attackers = c.attackers.clone();
    let defenders = c.defenders.clone();
    let att_side = ctx.s.active;
    match result {
        // Suez 1916 CRT key: "the owning player always chooses which units will be
        // depleted", the defender first.
        CrtResult::Ex if sc.rules().owners_choose_exchange() && defenders.len() > 1 => {
            ctx.emit(Event::LossRequired {
                side: att_side.other(),
                candidates: defenders,
                reason: LossReason::ExchangeDefender,
            });
        }
        CrtResult::De => {
            for d in &defenders {
                eliminate(ctx, d);
            }
            end(ctx);
        }
        CrtResult::D1 | CrtResult::D2 | CrtResult::D3 => {
            ctx.emit(Event::RetreatRequired {
                side: att_side.other(),
                units: defenders,
                hexes: result.defender_retreat().unwrap_or(1),
            });
        }
        CrtResult::Ex => {
            // One defending unit: a brigade stack (Meuse Argonne 13.2) acts as one
            // unit of identical chits, so its first chit takes the loss.
            if let Some(d) = defenders.first() {
                lose_step(ctx, d);
            }
            attacker_loss(ctx, attackers, LossReason::Exchange);
        }
        CrtResult::AStep => attacker_loss(ctx, attackers, LossReason::AttackerStep),
        CrtResult::A1 | CrtResult::A2 | CrtResult::A3 => {
            ctx.emit(Event::RetreatRequired {
                side: att_side,
                units: attackers,
                hexes: result.attacker_retreat().unwrap_or(1),
            });
        }
        CrtResult::Ae => {
            for a in &attackers {
                eliminate(ctx, a);
            }
            end(ctx);
        }
        CrtResult::NoEffect => end(ctx),
    }
}

/// The units of `units` still on the map.
pub(crate) fn on_map(sc: &Scenario, s: &State, units: &[UnitId]) -> Vec<UnitId> {
    units
        .iter()
        .filter(|u| {
            sc.unit_index(u)
                .is_some_and(|i| matches!(s.units[i as usize].loc, Location::Map(_)))
        })
        .cloned()
        .collect()
}

/// One of `candidates` loses a step: at once if there is only one, else the owner
/// (the phasing side) chooses.
pub(crate) fn attacker_loss(ctx: &mut Ctx, candidates: Vec<UnitId>, reason: LossReason) {
    let alive = on_map(ctx.sc, &ctx.s, &candidates);
    match alive.len() {
        0 => end(ctx),
        1 => {
            lose_step(ctx, &alive[0]);
            end(ctx);
        }
        _ => ctx.emit(Event::LossRequired {
            side: ctx.s.active,
            candidates: alive,
            reason,
        }),
    }
}

/// A unit loses a step, or is eliminated on its last step.
pub(crate) fn lose_step(ctx: &mut Ctx, unit: &UnitId) {
    let Some(i) = ctx.sc.unit_index(unit) else {
        return;
    };
    let steps = ctx.s.units[i as usize].steps;
    if steps > 1 {
        ctx.emit(Event::StepLost {
            unit: unit.clone(),
            steps: steps - 1,
        });
    } else {
        eliminate(ctx, unit);
    }
}

/// Replacements that rebuild (Meuse Argonne and Vimy Ridge 11.3 / 11.6): each of
/// `units` must be a distinct depleted unit of the phasing side on the map and pass the
/// game's own test `also` (its index and hex); then each regains one step.
pub(crate) fn rebuild_units(
    ctx: &mut Ctx,
    units: &[UnitId],
    rule: &str,
    also: impl Fn(&Ctx, usize, Hex) -> Result<(), RuleError>,
) -> Result<(), RuleError> {
    let side = ctx.s.active;
    let mut seen = Vec::new();
    for u in units {
        let i = ctx.unit(u)?;
        if seen.contains(&i) {
            return refuse("input", format!("{u} is listed twice"));
        }
        seen.push(i);
        let st = &ctx.s.units[i];
        if ctx.sc.units[i].data.side != side {
            return refuse(rule, format!("{u} belongs to the other side"));
        }
        let Some(h) = st.hex() else {
            return refuse(rule, format!("{u} is not on the map"));
        };
        if st.steps >= ctx.sc.units[i].max_steps() {
            return refuse(rule, format!("{u} is not depleted"));
        }
        also(ctx, i, h)?;
    }
    for &i in &seen {
        let steps = ctx.s.units[i].steps + 1;
        let id = ctx.s.units.id(i).clone();
        ctx.emit(Event::UnitRebuilt { unit: id, steps });
    }
    Ok(())
}

/// Eliminates a unit, then applies what exclusive rules attach to that (Meuse
/// Argonne 13.1: a three-step division leaves a brigade chit).
pub(crate) fn eliminate(ctx: &mut Ctx, unit: &UnitId) {
    let Some(i) = ctx.sc.unit_index(unit) else {
        return;
    };
    let hex = ctx.s.units[i as usize].hex();
    ctx.emit(Event::UnitEliminated { unit: unit.clone() });
    ctx.sc.rules().after_elimination(ctx, i as usize, hex);
}

pub(crate) fn end(ctx: &mut Ctx) {
    if let Some(c) = &ctx.s.combat {
        let hex = c.hex;
        ctx.emit(Event::CombatEnded { hex });
    }
}

/// Ex / (A) (Suez 1916: also the defender's Ex loss and the A3 / D3 loss): the owner
/// picks the unit that loses the step.
pub(crate) fn choose_loss(ctx: &mut Ctx, unit: &UnitId) -> Result<(), RuleError> {
    let Some(c) = &ctx.s.combat else {
        return refuse("8.2.4", "no loss to choose");
    };
    let CombatStage::ChooseLoss {
        candidates, reason, ..
    } = &c.stage
    else {
        return refuse("8.2.4", "no loss to choose");
    };
    if !candidates.contains(unit) {
        return refuse(
            "8.2.4",
            format!(
                "{unit} cannot take this loss (candidates: {})",
                join(candidates)
            ),
        );
    }
    let reason = *reason;
    let attackers = c.attackers.clone();
    lose_step(ctx, unit);
    match reason {
        LossReason::ExchangeDefender => attacker_loss(ctx, attackers, LossReason::Exchange),
        LossReason::AfterRetreat => crate::fm::retreat::finish_retreat(ctx),
        LossReason::Exchange | LossReason::AttackerStep => end(ctx),
    }
    Ok(())
}

pub(crate) fn join(v: &[UnitId]) -> String {
    v.iter().map(|u| u.as_str()).collect::<Vec<_>>().join(", ")
}
