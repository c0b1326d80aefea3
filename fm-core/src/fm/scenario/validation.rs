//! Validation: [`Scenario::from_data`] checks every cross-reference of the data in
//! order (limits, terrain, the CRT's lines and columns of 8.2.1(d) and 8.2.4, the map,
//! units and their set-up (3.0), turns, victory, each game's parameters) and builds the
//! validated tables, naming the JSON path of the first problem.

use super::*;
use crate::fm::crt::{ColumnLabel, Crt, CrtLine};
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::hex::Hex;
use crate::fm::mp::Mp;
use crate::ids::{Side, SidePair};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Checks the grid's shape and derives each line's labels, naming a line that runs
/// off the grid.
fn validate_crt(c: &CrtData) -> Result<Vec<CrtLine>, ScenarioError> {
    if c.grid.len() != 6 {
        return err("crt.grid", format!("{} die rows, expected 6", c.grid.len()));
    }
    let width = c.grid[0].len();
    if width == 0 || width > MAX_CRT_COLUMNS {
        return err(
            "crt.grid[0]",
            format!("{width} cells, expected 1 to {MAX_CRT_COLUMNS}"),
        );
    }
    for (i, row) in c.grid.iter().enumerate() {
        if row.len() != width {
            return err(
                format!("crt.grid[{i}]"),
                format!("{} cells, expected {width} (as row 1)", row.len()),
            );
        }
    }
    if c.lines.is_empty() {
        return err("crt.lines", "no terrain lines");
    }
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(c.lines.len());
    for (i, l) in c.lines.iter().enumerate() {
        if !seen.insert(l.id.as_str()) {
            return err(
                format!("crt.lines[{i}].id"),
                format!("duplicate line id '{}'", l.id),
            );
        }
        let labels = match &l.labels {
            None => ColumnLabel::standard(l.first_differential).ok_or_else(|| ScenarioError {
                path: format!("crt.lines[{i}].first_differential"),
                message: format!(
                    "{} is not the first differential of a standard line (-50 to +1, or \
                     +2, +4, +6, +8, +10); write the line's labels out",
                    l.first_differential
                ),
            })?,
            Some(ls) => {
                if ls.is_empty() || ls.len() > MAX_CRT_COLUMNS {
                    return err(
                        format!("crt.lines[{i}].labels"),
                        format!("{} labels, expected 1 to {MAX_CRT_COLUMNS}", ls.len()),
                    );
                }
                let mut v: Vec<ColumnLabel> = Vec::with_capacity(ls.len());
                for (k, t) in ls.iter().enumerate() {
                    let Some(lab) = ColumnLabel::parse(t) else {
                        return err(
                            format!("crt.lines[{i}].labels[{k}]"),
                            format!("'{t}' is not a column label (\"-3\", \"+1\", \"+2,+3\")"),
                        );
                    };
                    if let Some(prev) = v.last() {
                        if prev.hi.checked_add(1) != Some(lab.lo) {
                            return err(
                                format!("crt.lines[{i}].labels[{k}]"),
                                format!("'{t}' does not follow '{prev}': labels must be contiguous and ascending"),
                            );
                        }
                    }
                    v.push(lab);
                }
                if v[0].lo != l.first_differential {
                    return err(
                        format!("crt.lines[{i}].first_differential"),
                        format!(
                            "{} differs from the first label '{}'",
                            l.first_differential, v[0]
                        ),
                    );
                }
                v
            }
        };
        if l.first_column == 0 {
            return err(
                format!("crt.lines[{i}].first_column"),
                "grid columns are numbered from 1",
            );
        }
        let first = l.first_column as usize - 1;
        if first.saturating_add(labels.len()) > width {
            return err(
                format!("crt.lines[{i}]"),
                format!(
                    "line '{}' runs off the grid: {} labels from column {} need {} columns, the grid has {width}",
                    l.id,
                    labels.len(),
                    l.first_column,
                    first.saturating_add(labels.len())
                ),
            );
        }
        out.push(CrtLine {
            id: l.id.clone(),
            name: l.name.clone(),
            first_column: first,
            labels,
        });
    }
    Ok(out)
}

/// 3.0(a): the exclusive rules say who sets up first. When units set up in zones,
/// `setup.order` lists every side that has such units, each once; a side with none may
/// be listed too (it is skipped). Without zone units the order is not used.
fn check_setup_order(data: &ScenarioData) -> Result<(), ScenarioError> {
    let order = &data.setup.order;
    for (i, side) in order.iter().enumerate() {
        if order[..i].contains(side) {
            return err(
                format!("setup.order[{i}]"),
                format!("side {side} is listed twice"),
            );
        }
    }
    for side in Side::BOTH {
        let first = data
            .units
            .iter()
            .position(|u| u.side == side && matches!(u.start, StartData::Zone(_)));
        if let (Some(k), false) = (first, order.contains(&side)) {
            return err(
                "setup.order",
                format!(
                    "side {side} has units to set up (units[{k}], '{}') but is not in the \
                     set-up order (3.0(a))",
                    data.units[k].id
                ),
            );
        }
    }
    Ok(())
}

impl Scenario {
    /// Validates scenario data.
    ///
    /// # Errors
    /// A [`ScenarioError`] naming the JSON path of the first invalid value.
    pub fn from_data(data: ScenarioData) -> Result<Scenario, ScenarioError> {
        check_limits(&data)?;
        let t = &data.terrain;
        // CRT.
        let c = &data.crt;
        let crt_lines = validate_crt(c)?;
        let line_idx: HashMap<&str, usize> = c
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| (l.id.as_str(), i))
            .collect();
        let lookup_line =
            |path: String, l: &Option<String>| -> Result<Option<usize>, ScenarioError> {
                match l {
                    None => Ok(None),
                    Some(id) => match line_idx.get(id.as_str()) {
                        Some(i) => Ok(Some(*i)),
                        None => err(path, format!("unknown CRT line '{id}'")),
                    },
                }
            };
        let mut hex_line = Vec::new();
        let mut hex_terrain_idx = HashMap::new();
        for (i, h) in t.hex.iter().enumerate() {
            if hex_terrain_idx.insert(h.id.as_str(), i).is_some() {
                return err(
                    format!("terrain.hex[{i}].id"),
                    format!("duplicate terrain '{}'", h.id),
                );
            }
            // 5.4: a base cost of 0 would let a unit enter hex after hex for nothing,
            // without end; additive features write "+0".
            if h.cost == MoveCost::Cost(Mp::ZERO) {
                return err(
                    format!("terrain.hex[{i}].move"),
                    "a hex costs at least some MP to enter (5.4): a cost of 0 would let \
                     a unit move without limit (an additive feature writes \"+0\")",
                );
            }
            hex_line.push(lookup_line(
                format!("terrain.hex[{i}].crt_line"),
                &h.crt_line,
            )?);
        }
        let mut side_line = Vec::new();
        let mut side_idx = HashMap::new();
        for (i, h) in t.hexside.iter().enumerate() {
            if side_idx.insert(h.id.as_str(), i).is_some() {
                return err(
                    format!("terrain.hexside[{i}].id"),
                    format!("duplicate hexside feature '{}'", h.id),
                );
            }
            side_line.push(lookup_line(
                format!("terrain.hexside[{i}].crt_line"),
                &h.crt_line,
            )?);
            // 5.4.1: a road replaces every other cost, so a road of 0 MP would be
            // free movement without end.
            if h.road == Some(Mp::ZERO) {
                return err(
                    format!("terrain.hexside[{i}].road"),
                    "a road costs at least some MP to cross (5.4.1): 0 would let a unit \
                     move without limit",
                );
            }
            if let Some((tag, _)) = h.road_for_tags.iter().find(|(_, c)| **c == Mp::ZERO) {
                return err(
                    format!("terrain.hexside[{i}].road_for_tags.{tag}"),
                    "a road costs at least some MP to cross (5.4.1): 0 would let a unit \
                     move without limit",
                );
            }
        }
        // 8.2.2: a bridge counts as the river-type feature it crosses. One level only:
        // a bridge over itself, over another bridge, or over a feature with no
        // every-attacker test would never apply as the rules mean.
        let mut bridge_of = Vec::new();
        for (i, h) in t.hexside.iter().enumerate() {
            let Some(b) = &h.bridge_over else {
                bridge_of.push(None);
                continue;
            };
            let path = format!("terrain.hexside[{i}].bridge_over");
            let Some(&j) = side_idx.get(b.as_str()) else {
                return err(path, format!("unknown hexside feature '{b}'"));
            };
            if j == i {
                return err(path, format!("'{b}' cannot bridge itself"));
            }
            if t.hexside[j].bridge_over.is_some() {
                return err(
                    path,
                    format!("'{b}' is itself a bridge: a bridge crosses a river-type feature, not another bridge (8.2.2)"),
                );
            }
            if !t.hexside[j].all_attackers {
                return err(
                    path,
                    format!("'{b}' is not a river-type feature (`all_attackers`): a bridge crosses a river or ditch (8.2.2)"),
                );
            }
            bridge_of.push(Some(j));
        }
        // Tags.
        let mut tag_names: Vec<String> = Vec::new();
        let tag_bit = |name: &str, tag_names: &mut Vec<String>| -> Option<usize> {
            if let Some(p) = tag_names.iter().position(|t| t == name) {
                return Some(p);
            }
            if tag_names.len() >= 64 {
                return None;
            }
            tag_names.push(name.to_string());
            Some(tag_names.len() - 1)
        };
        let mut road_tag_costs = Vec::new();
        for (i, h) in t.hexside.iter().enumerate() {
            for (tag, cost) in &h.road_for_tags {
                let Some(b) = tag_bit(tag, &mut tag_names) else {
                    return err(
                        format!("terrain.hexside[{i}].road_for_tags"),
                        "more than 64 tags",
                    );
                };
                road_tag_costs.push((i, b, *cost));
            }
        }
        // Map.
        let m = &data.map;
        let layout = m.layout;
        let mut grid = vec![NO_HEX; 100 * 100];
        if m.hexes.len() >= NO_HEX as usize {
            return err("map.hexes", "too many hexes");
        }
        let mut hexes = Vec::with_capacity(m.hexes.len());
        for (i, h) in m.hexes.iter().enumerate() {
            let g = &mut grid[h.id.col as usize * 100 + h.id.row as usize];
            if *g != NO_HEX {
                return err(
                    format!("map.hexes[{i}].id"),
                    format!("duplicate hex {}", h.id),
                );
            }
            *g = i as u16;
            if h.terrain.is_empty() {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "a hex needs at least one terrain type",
                );
            }
            let mut mask = 0u64;
            let (mut has_cost, mut has_line) = (false, false);
            for name in h.terrain.iter() {
                match hex_terrain_idx.get(name.as_str()) {
                    Some(k) => {
                        mask |= 1 << k;
                        has_cost |= !matches!(t.hex[*k].cost, MoveCost::Plus(_));
                        has_line |= hex_line[*k].is_some();
                    }
                    None => {
                        return err(
                            format!("map.hexes[{i}].terrain"),
                            format!("unknown terrain '{name}'"),
                        );
                    }
                }
            }
            if !has_cost {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "only additive (\"+N\") terrain: a hex needs a base terrain (5.4)",
                );
            }
            if !has_line {
                return err(
                    format!("map.hexes[{i}].terrain"),
                    "no terrain with a CRT line (8.2.2)",
                );
            }
            hexes.push(HexInfo {
                hex: h.id,
                terrain: mask,
                neighbors: [NO_HEX; 6],
                sides: [0; 6],
                name: h.name.clone(),
            });
        }
        let idx_of = |h: Hex| -> u16 { grid[h.col as usize * 100 + h.row as usize] };
        for hi in hexes.iter_mut() {
            for (d, n) in layout.neighbors(hi.hex).iter().enumerate() {
                if let Some(n) = n {
                    hi.neighbors[d] = idx_of(*n);
                }
            }
        }
        for (i, s) in m.hexsides.iter().enumerate() {
            let [a, b] = s.hexes;
            let (ia, ib) = (idx_of(a), idx_of(b));
            if ia == NO_HEX || ib == NO_HEX {
                let missing = if ia == NO_HEX { a } else { b };
                return err(
                    format!("map.hexsides[{i}].hexes"),
                    format!("hex {missing} is not on the map"),
                );
            }
            let Some(da) = layout.neighbors(a).iter().position(|n| *n == Some(b)) else {
                return err(
                    format!("map.hexsides[{i}].hexes"),
                    format!("{a} and {b} are not adjacent"),
                );
            };
            let db = layout
                .neighbors(b)
                .iter()
                .position(|n| *n == Some(a))
                .unwrap_or(0);
            let mut mask = 0u64;
            for (j, f) in s.features.iter().enumerate() {
                match side_idx.get(f.as_str()) {
                    Some(k) => mask |= 1 << k,
                    None => {
                        return err(
                            format!("map.hexsides[{i}].features[{j}]"),
                            format!("unknown hexside feature '{f}'"),
                        )
                    }
                }
            }
            hexes[ia as usize].sides[da] |= mask;
            hexes[ib as usize].sides[db] |= mask;
        }
        let mut edge_distance = SidePair::new(Vec::new(), Vec::new());
        for side in Side::BOTH {
            let edge = m.friendly_edges.get(side);
            for (j, h) in edge.iter().enumerate() {
                if idx_of(*h) == NO_HEX {
                    return err(
                        format!("map.friendly_edges.{side}[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
            }
            let d: Vec<u32> = hexes
                .iter()
                .map(|hi| {
                    edge.iter()
                        .map(|e| layout.distance(hi.hex, *e))
                        .min()
                        .unwrap_or(0)
                })
                .collect();
            *edge_distance.get_mut(side) = d;
        }
        // Set-up zones.
        let mut zones = BTreeMap::new();
        for (name, hs) in &data.setup.zones {
            // 3.0(b): units are placed in a zone's hexes, so an empty zone, or one
            // that lists a hex twice (counting it twice in `playable`'s room check),
            // is a mistake.
            if hs.is_empty() {
                return err(format!("setup.zones.{name}"), "the zone has no hexes");
            }
            let mut v = Vec::new();
            let mut listed = HashSet::new();
            for (j, h) in hs.iter().enumerate() {
                let i = idx_of(*h);
                if i == NO_HEX {
                    return err(
                        format!("setup.zones.{name}[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
                if !listed.insert(i) {
                    return err(
                        format!("setup.zones.{name}[{j}]"),
                        format!("hex {h} is listed twice"),
                    );
                }
                v.push(i);
            }
            zones.insert(name.clone(), v);
        }
        // Units.
        let mut unit_ids = HashMap::new();
        let mut units = Vec::new();
        if data.units.len() >= u16::MAX as usize {
            return err("units", "too many units");
        }
        let mut placed: HashMap<Hex, usize> = HashMap::new();
        for (i, u) in data.units.iter().enumerate() {
            let p = format!("units[{i}]");
            if u.id.as_str().is_empty() {
                return err(format!("{p}.id"), "empty id");
            }
            if unit_ids.insert(u.id.clone(), i as u16).is_some() {
                return err(format!("{p}.id"), format!("duplicate unit id '{}'", u.id));
            }
            if u.steps.is_empty() || u.steps.len() > 3 {
                return err(
                    format!("{p}.steps"),
                    format!("{} steps; a unit has 1 to 3", u.steps.len()),
                );
            }
            if u.start_depleted as usize >= u.steps.len() {
                return err(
                    format!("{p}.start_depleted"),
                    format!(
                        "{} steps lost leaves nothing of a {}-step unit",
                        u.start_depleted,
                        u.steps.len()
                    ),
                );
            }
            let mut tags = 0u64;
            for (j, tg) in u.tags.iter().enumerate() {
                match tag_bit(tg, &mut tag_names) {
                    Some(b) => tags |= 1 << b,
                    None => return err(format!("{p}.tags[{j}]"), "more than 64 distinct tags"),
                }
            }
            match &u.start {
                StartData::Hex(h) => {
                    if idx_of(*h) == NO_HEX {
                        return err(
                            format!("{p}.start.hex"),
                            format!("hex {h} is not on the map"),
                        );
                    }
                    // Suez 1916 17.1: friendly stacks (the limits bind at the end of
                    // each phase of play).
                    let stacks = matches!(data.rules, RuleSet::Suez1916(_));
                    if let Some(o) = placed
                        .insert(*h, i)
                        .filter(|&o| !stacks || data.units[o].side != u.side)
                    {
                        return err(
                            format!("{p}.start.hex"),
                            format!(
                                "hex {h} already holds '{}' (5.3: units cannot stack)",
                                data.units[o].id
                            ),
                        );
                    }
                }
                StartData::Zone(z) => {
                    if !zones.contains_key(z) {
                        return err(
                            format!("{p}.start.zone"),
                            format!("unknown set-up zone '{z}'"),
                        );
                    }
                }
                StartData::Reinforcement { turn, entry } => {
                    if *turn == 0 || *turn as usize > data.turns.len() {
                        return err(
                            format!("{p}.start.reinforcement.turn"),
                            format!("turn {turn} is not on the turn track"),
                        );
                    }
                    if entry.is_empty() {
                        return err(format!("{p}.start.reinforcement.entry"), "no entry hexes");
                    }
                    for (j, h) in entry.iter().enumerate() {
                        if idx_of(*h) == NO_HEX {
                            return err(
                                format!("{p}.start.reinforcement.entry[{j}]"),
                                format!("hex {h} is not on the map"),
                            );
                        }
                    }
                }
                StartData::OffMap => {}
            }
            let commando = u.tags.iter().any(|t| t == "commando");
            units.push(UnitDef {
                data: u.clone(),
                tags,
                commando,
            });
        }
        check_setup_order(&data)?;
        // Turn track and start.
        if data.turns.is_empty() {
            return err("turns", "the turn track is empty");
        }
        if data.start.turn == 0 || data.start.turn as usize > data.turns.len() {
            return err(
                "start.turn",
                format!("turn {} is not on the turn track", data.start.turn),
            );
        }
        if !Phase::PLAYER_TURN.contains(&data.start.phase) {
            return err(
                "start.phase",
                format!("play cannot start in the {}", data.start.phase),
            );
        }
        for (i, p) in data.skip_phases.iter().enumerate() {
            if !Phase::PLAYER_TURN.contains(p) || *p == Phase::Movement {
                return err(
                    format!("skip_phases[{i}]"),
                    format!("the {p} cannot be skipped"),
                );
            }
        }
        for (i, cnd) in data.victory.conditions.iter().enumerate() {
            let hs: &[Hex] = match cnd {
                VictoryCondition::HoldAtEnd { hexes, count, .. } => {
                    if *count as usize > hexes.len() || *count == 0 {
                        return err(
                            format!("victory.conditions[{i}].count"),
                            format!("{count} of {} hexes", hexes.len()),
                        );
                    }
                    hexes
                }
                VictoryCondition::EnterHex { hexes, .. } => hexes,
                VictoryCondition::Annihilation { .. } => &[],
            };
            for (j, h) in hs.iter().enumerate() {
                if idx_of(*h) == NO_HEX {
                    return err(
                        format!("victory.conditions[{i}].hexes[{j}]"),
                        format!("hex {h} is not on the map"),
                    );
                }
            }
        }
        let crt = Crt {
            provenance: c.provenance.clone(),
            grid: c.grid.clone(),
            lines: crt_lines,
        };
        let id_list = units.iter().map(|u| u.data.id.clone()).collect();
        let mut sc = Scenario {
            hexes,
            units,
            crt,
            hex_line,
            side_line,
            bridge_of,
            tag_names,
            road_tag_costs,
            edge_distance,
            zones,
            grid,
            id_list,
            unit_ids,
            data,
            objectives: Vec::new(),
            rules: crate::fm::games::Rules::System(crate::fm::exclusive::SystemRules),
            masks: TerrainMasks::default(),
            max_path: 0,
            move_table: Default::default(),
            zone_sorted: BTreeMap::new(),
            hex_zones: Vec::new(),
            unit_zone: Vec::new(),
            sight: Default::default(),
            observation: Default::default(),
        };
        let bits = |f: &dyn Fn(usize) -> bool, n: usize| {
            (0..n).filter(|i| f(*i)).fold(0u64, |m, i| m | 1 << i)
        };
        let th = &sc.data.terrain.hex;
        let ts = &sc.data.terrain.hexside;
        sc.masks = TerrainMasks {
            fortification: bits(&|i| th[i].fortification, th.len()),
            zoc_block_hex: bits(&|i| th[i].blocks_zoc, th.len()),
            zoc_block_side: bits(&|i| ts[i].blocks_zoc, ts.len()),
            minefield: bits(&|i| ts[i].minefield, ts.len()),
            ..TerrainMasks::default()
        };
        // The game's exclusive rules: their parameters and terrain sets.
        sc.rules = crate::fm::games::rules_for(&sc.data.rules);
        let rules = sc.rules;
        rules.prepare(&mut sc)?;
        sc.objectives = sc.objective_hexes();
        sc.max_path = sc.longest_move();
        sc.move_table = crate::fm::movement::MoveTable::build(&sc);
        sc.sight = crate::fm::los::SightCache::new(sc.hexes.len());
        sc.zone_sorted = sc
            .zones
            .iter()
            .map(|(z, v)| {
                let mut v = v.clone();
                v.sort_unstable();
                (z.clone(), v)
            })
            .collect();
        if sc.zones.len() <= 64 {
            let mut hz = vec![0u64; sc.hexes.len()];
            for (k, hexes) in sc.zones.values().enumerate() {
                for &h in hexes {
                    hz[h as usize] |= 1 << k;
                }
            }
            sc.hex_zones = hz;
            let bits: BTreeMap<&str, u64> = sc
                .zones
                .keys()
                .enumerate()
                .map(|(k, z)| (z.as_str(), 1u64 << k))
                .collect();
            sc.unit_zone = sc
                .units
                .iter()
                .map(|u| match &u.data.start {
                    StartData::Zone(z) => bits.get(z.as_str()).copied().unwrap_or(0),
                    _ => 0,
                })
                .collect();
        }
        crate::fm::playable::check(&sc)?;
        Ok(sc)
    }
}
