//! Whether a validated scenario can be played at all, checked by
//! [`crate::Scenario::from_data`] once its tables are built: the two sides' set-up
//! zones are apart, every zone has room for the units that set up in it (3.0(b)), and
//! the game reaches a first decision with a legal command. Without these a game could
//! wait at set-up with nothing any player may do. During set-up, [`strands_others`]
//! keeps the room: a placement that would leave a unit still to be placed no hex is
//! refused.

use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::{Scenario, ScenarioError, StartData};
use crate::fm::state::{Location, Pending, State};
use crate::ids::Side;
use std::collections::BTreeMap;

pub(crate) fn check(sc: &Scenario) -> Result<(), ScenarioError> {
    zones_apart(sc)?;
    for side in Side::BOTH {
        room(sc, side)?;
    }
    first_decision(sc)
}

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError {
        path: path.into(),
        message: message.into(),
    })
}

/// The side whose units set up in each zone (a zone no unit uses has none).
fn zone_sides(sc: &Scenario) -> Result<BTreeMap<&str, Side>, ScenarioError> {
    let mut by_zone: BTreeMap<&str, (Side, usize)> = BTreeMap::new();
    for (i, u) in sc.units.iter().enumerate() {
        let StartData::Zone(z) = &u.data.start else {
            continue;
        };
        match by_zone.get(z.as_str()) {
            Some(&(side, first)) if side != u.data.side => {
                return fail(
                    format!("units[{i}].start.zone"),
                    format!(
                        "zone '{z}' is where side {side} sets up ('{}'): a side setting up \
                         first could fill the other's hexes, so the sides' zones are apart",
                        sc.units[first].data.id
                    ),
                );
            }
            Some(_) => {}
            None => {
                by_zone.insert(z, (u.data.side, i));
            }
        }
    }
    Ok(by_zone.into_iter().map(|(z, (s, _))| (z, s)).collect())
}

/// 3.0: the side that sets up first may take any hex of its zones, so a hex in zones
/// of both sides could be filled before the second side's turn. Zones of one side may
/// overlap (Suez 1916 11.2), which [`room`] and [`strands_others`] account for.
fn zones_apart(sc: &Scenario) -> Result<(), ScenarioError> {
    let sides = zone_sides(sc)?;
    let mut owner: Vec<Option<(Side, &str)>> = vec![None; sc.hexes.len()];
    for (name, hexes) in &sc.zones {
        let Some(&side) = sides.get(name.as_str()) else {
            continue;
        };
        for (j, &h) in hexes.iter().enumerate() {
            match owner[h as usize] {
                Some((other, z)) if other != side => {
                    return fail(
                        format!("setup.zones.{name}[{j}]"),
                        format!(
                            "hex {} is also in zone '{z}', where side {other} sets up: a side \
                             setting up first could fill the other's hexes, so the sides' \
                             zones are apart",
                            sc.hex_at(h)
                        ),
                    );
                }
                Some(_) => {}
                None => owner[h as usize] = Some((side, name)),
            }
        }
    }
    Ok(())
}

/// How many more of `side`'s units the hex can take at set-up: none if prohibited
/// (5.2(e)) or held by the other side; else one (5.3), or the exclusive stacking limit
/// (Suez 1916 17.1), less the side's units already there.
fn hex_room(sc: &Scenario, side: Side, h: u16, held: &[Vec<Side>]) -> i64 {
    if crate::fm::movement::enter_cost(sc, 0, 0, h).is_none() {
        return 0;
    }
    let here = &held[h as usize];
    if here.iter().any(|s| *s != side) {
        return 0;
    }
    let room = sc.rules().setup_room(sc, side, h).unwrap_or(1) as i64;
    (room - here.len() as i64).max(0)
}

/// The units still to set up share their zones' room by (zone, train) group: the
/// Suez 1916 armored train takes only railroad hexes (13.3).
fn group(sc: &Scenario, unit: usize) -> Option<(&str, bool)> {
    match &sc.units[unit].data.start {
        StartData::Zone(z) => Some((z.as_str(), sc.rules().rail_bound(sc, unit))),
        _ => None,
    }
}

/// Units of `side` that could not all be placed, if any: how many, in which zones, and
/// the room those zones have.
struct Shortfall<'a> {
    units: i64,
    zones: Vec<&'a str>,
    room: i64,
}

/// 3.0(b): whether every unit of `side` still to set up in state `s` can get a hex of
/// its zone. Units of one zone compete for its hexes, and overlapping zones for the
/// shared ones, so this is a matching of units to hex room: a maximum flow from each
/// group's units to the room of the hexes it may take. If it falls short, the groups
/// still reachable from the source are the ones whose zones' room is exhausted
/// (Hall's condition fails for them).
///
/// Stacking rules that depend on the units (Suez 1916 17.1: British stacks of one
/// division) and exclusive placement rules (Meuse Argonne 19.5, Vimy Ridge 19.1) are
/// left to the placement checks: this counts the room the hexes have at most.
fn shortfall<'a>(sc: &'a Scenario, s: &State, side: Side) -> Option<Shortfall<'a>> {
    let mut groups: BTreeMap<(&str, bool), i64> = BTreeMap::new();
    for (i, u) in s.units.iter().enumerate() {
        if u.loc == Location::ToPlace && sc.units[i].data.side == side {
            if let Some(g) = group(sc, i) {
                *groups.entry(g).or_default() += 1;
            }
        }
    }
    if groups.is_empty() {
        return None;
    }
    let mut held: Vec<Vec<Side>> = vec![Vec::new(); sc.hexes.len()];
    for (i, u) in s.units.iter().enumerate() {
        if let Some(h) = u.hex().and_then(|h| sc.hex_index(h)) {
            held[h as usize].push(sc.units[i].data.side);
        }
    }
    // Nodes: 0 source, 1 sink, then the groups, then each hex of their zones.
    let mut flow = Flow::new(2 + groups.len());
    let mut hex_node: Vec<usize> = vec![usize::MAX; sc.hexes.len()];
    let mut total = 0;
    let keys: Vec<(&str, bool)> = groups.keys().copied().collect();
    for (g, (&(zone, train), &n)) in groups.iter().enumerate() {
        total += n;
        flow.edge(0, 2 + g, n);
        for &h in &sc.zones[zone] {
            if train && !sc.rules().rail_hex(sc, sc.hex_at(h)) {
                continue;
            }
            if hex_node[h as usize] == usize::MAX {
                hex_node[h as usize] = flow.node();
                let r = hex_room(sc, side, h, &held);
                flow.edge(hex_node[h as usize], 1, r);
            }
            flow.edge(2 + g, hex_node[h as usize], n);
        }
    }
    if flow.max_flow(0, 1) == total {
        return None;
    }
    let reach = flow.reachable(0);
    let short: Vec<usize> = (0..keys.len()).filter(|&g| reach[2 + g]).collect();
    let mut zones: Vec<&str> = short.iter().map(|&g| keys[g].0).collect();
    zones.dedup();
    let room = (0..sc.hexes.len())
        .filter(|&h| hex_node[h] != usize::MAX && reach[hex_node[h]])
        .map(|h| hex_room(sc, side, h as u16, &held))
        .sum();
    Some(Shortfall {
        units: short.iter().map(|&g| groups[&keys[g]]).sum(),
        zones,
        room,
    })
}

/// 3.0(b) at validation: the zones have room for the units that set up in them.
fn room(sc: &Scenario, side: Side) -> Result<(), ScenarioError> {
    let Some(Shortfall { units, zones, room }) = shortfall(sc, &State::initial(sc), side) else {
        return Ok(());
    };
    let why = "an open hex takes one unit (more where stacking is allowed); prohibited \
               hexes and hexes held at the start take none (3.0(b), 5.3)";
    let units = plural(units, "unit");
    if let [zone] = zones[..] {
        fail(
            format!("setup.zones.{zone}"),
            format!(
                "{units} of side {side} set up in this zone but it has room for only {room}: \
                 {why}"
            ),
        )
    } else {
        fail(
            "setup.zones",
            format!(
                "{units} of side {side} set up in zones {}, which share hexes, but they have \
                 room for only {room}: {why}",
                quoted(&zones)
            ),
        )
    }
}

fn quoted(zones: &[&str]) -> String {
    let names: Vec<String> = zones.iter().map(|z| format!("'{z}'")).collect();
    names.join(", ")
}

/// 3.0(b) during set-up: placing `unit` on hex index `h` must leave room for the units
/// of its side still to set up, or set-up would dead-end. Validation made the zones
/// roomy enough at the start and every placement keeps that, so only a hex that
/// another group of waiting units may also take can break it (a hex only the placing
/// unit's group may take is as good for the placed unit as for the one the matching
/// had there); the flow is computed for those alone.
pub(crate) fn strands_others(sc: &Scenario, s: &State, unit: usize, h: u16) -> Option<String> {
    strands_others_listed(sc, s, unit, h, &mut Default::default())
}

/// [`strands_others`] in a listing, whose `cache` keeps the groups of waiting units
/// between its placements.
pub(crate) fn strands_others_listed(
    sc: &Scenario,
    s: &State,
    unit: usize,
    h: u16,
    cache: &mut crate::fm::exclusive::PlacementCache,
) -> Option<String> {
    let side = sc.units[unit].data.side;
    let own = group(sc, unit)?;
    let Some((zones_of_h, own_bit)) = sc.zone_bits(unit, h) else {
        return strands_others_reference(sc, s, unit, h);
    };
    // Listings ask this for every unit and hex of a zone: a hex in no other zone can
    // be shared only between the train and the rest of its zone, on the railroad.
    let other_zone = zones_of_h & !own_bit != 0;
    let rail = || sc.rules().rail_hex(sc, sc.hex_at(h));
    if !other_zone && !own.1 && !rail() {
        return None;
    }
    // Another group of waiting units of the side (zone and rail binding) that may
    // take `h`. The listing's units are all of the side setting up.
    let groups = cache.groups.get_or_insert_with(|| {
        let mut g: Vec<(u64, bool)> = (0..s.units.len())
            .filter(|&v| s.units[v].loc == Location::ToPlace && sc.units[v].data.side == side)
            .filter_map(|v| {
                let (_, train) = group(sc, v)?;
                Some((sc.unit_zone_bit(v), train))
            })
            .collect();
        g.sort_unstable();
        g.dedup();
        g
    });
    let own_group = (own_bit, own.1);
    let shared = groups.iter().any(|&(bit, train)| {
        (bit, train) != own_group && zones_of_h & bit != 0 && (!train || rail())
    });
    if !shared {
        return None;
    }
    shortfall_after(sc, s, unit, h, side)
}

/// [`strands_others`] for a scenario of more than 64 zones (no zone bits), and the
/// straightforward form `fm::reference` checks the listed one against.
pub(crate) fn strands_others_reference(
    sc: &Scenario,
    s: &State,
    unit: usize,
    h: u16,
) -> Option<String> {
    let side = sc.units[unit].data.side;
    let own = group(sc, unit)?;
    let other_zone = sc.zones.keys().any(|z| z != own.0 && sc.in_zone(z, h));
    if !other_zone && !own.1 && !sc.rules().rail_hex(sc, sc.hex_at(h)) {
        return None;
    }
    let own = Some(own);
    let shared = (0..s.units.len()).any(|v| {
        v != unit
            && s.units[v].loc == Location::ToPlace
            && sc.units[v].data.side == side
            && group(sc, v).is_some_and(|(z, train)| {
                Some((z, train)) != own
                    && sc.in_zone(z, h)
                    && (!train || sc.rules().rail_hex(sc, sc.hex_at(h)))
            })
    });
    if !shared {
        return None;
    }
    shortfall_after(sc, s, unit, h, side)
}

/// The refusal of [`strands_others`] once `h` may be shared: the flow after placing.
fn shortfall_after(
    sc: &Scenario,
    s: &State,
    unit: usize,
    h: u16,
    side: crate::ids::Side,
) -> Option<String> {
    let mut after = s.clone();
    after.units[unit].loc = Location::Map(sc.hex_at(h));
    shortfall(sc, &after, side).map(|f| {
        format!(
            "placing {} in {} would leave {} of zone{} {} without room",
            s.units.id(unit),
            sc.hex_at(h),
            plural(f.units, "unit"),
            if f.zones.len() == 1 { "" } else { "s" },
            quoted(&f.zones)
        )
    })
}

fn plural(n: i64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The game must reach a first decision that has a legal command (or be over). The
/// real opening is played with a fixed generator: its randomness cannot matter, since
/// set-up comes before any roll and every other opening decision (a phase, Suez 1916
/// fire support) can at least be finished with `done`; so this in effect checks that
/// the first side to set up can place a unit under every placement rule, exclusive
/// ones included, which [`room`] does not model.
fn first_decision(sc: &Scenario) -> Result<(), ScenarioError> {
    let mut rng = crate::rng::rng_from_seed(0);
    let (s, _) = crate::fm::engine::new_game(sc, &mut rng);
    if s.outcome.is_some() || crate::fm::legal::has_legal_command(sc, &s) {
        return Ok(());
    }
    match s.pending() {
        Pending::Setup { side } => {
            let waiting: Vec<(&str, &str)> = sc
                .units
                .iter()
                .zip(&s.units)
                .filter(|(d, u)| {
                    d.data.side == side && u.loc == crate::fm::state::Location::ToPlace
                })
                .filter_map(|(d, _)| match &d.data.start {
                    StartData::Zone(z) => Some((d.data.id.as_str(), z.as_str())),
                    _ => None,
                })
                .collect();
            let (unit, zone) = waiting.first().copied().unwrap_or(("?", "?"));
            fail(
                "setup",
                format!(
                    "side {side} sets up first but may place none of its {} in any hex of \
                     its zones (first: '{unit}' in '{zone}'), so the game could not start",
                    plural(waiting.len() as i64, "unit")
                ),
            )
        }
        p => fail(
            "start",
            format!(
                "the game opens waiting for {} with no legal command",
                crate::fm::engine::describe(&p)
            ),
        ),
    }
}

/// A maximum-flow network (Dinic's algorithm) over small integer capacities.
struct Flow {
    /// Per node, the indices of its edges in `to` / `cap`.
    adj: Vec<Vec<usize>>,
    to: Vec<usize>,
    cap: Vec<i64>,
}

impl Flow {
    fn new(nodes: usize) -> Flow {
        Flow {
            adj: vec![Vec::new(); nodes],
            to: Vec::new(),
            cap: Vec::new(),
        }
    }

    fn node(&mut self) -> usize {
        self.adj.push(Vec::new());
        self.adj.len() - 1
    }

    /// An edge and its residual twin (edge `e ^ 1`).
    fn edge(&mut self, a: usize, b: usize, cap: i64) {
        self.adj[a].push(self.to.len());
        self.to.push(b);
        self.cap.push(cap);
        self.adj[b].push(self.to.len());
        self.to.push(a);
        self.cap.push(0);
    }

    fn levels(&self, s: usize) -> Vec<u32> {
        let mut level = vec![u32::MAX; self.adj.len()];
        level[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for &e in &self.adj[u] {
                let v = self.to[e];
                if self.cap[e] > 0 && level[v] == u32::MAX {
                    level[v] = level[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        level
    }

    /// Nodes reachable from `s` over edges with capacity left.
    fn reachable(&self, s: usize) -> Vec<bool> {
        self.levels(s).iter().map(|l| *l != u32::MAX).collect()
    }

    fn max_flow(&mut self, s: usize, t: usize) -> i64 {
        let mut total = 0;
        loop {
            let level = self.levels(s);
            if level[t] == u32::MAX {
                return total;
            }
            let mut next = vec![0usize; self.adj.len()];
            loop {
                let f = self.push(s, t, i64::MAX, &level, &mut next);
                if f == 0 {
                    break;
                }
                total += f;
            }
        }
    }

    /// One augmenting path along the level graph. A level path alternates groups and
    /// hexes, so its depth is at most twice the number of groups (set-up zones are
    /// bounded by `MAX_ZONES`) and the recursion stays shallow.
    fn push(&mut self, u: usize, t: usize, limit: i64, level: &[u32], next: &mut [usize]) -> i64 {
        if u == t {
            return limit;
        }
        while next[u] < self.adj[u].len() {
            let e = self.adj[u][next[u]];
            let v = self.to[e];
            if self.cap[e] > 0 && level[v] == level[u] + 1 {
                let f = self.push(v, t, limit.min(self.cap[e]), level, next);
                if f > 0 {
                    self.cap[e] -= f;
                    self.cap[e ^ 1] += f;
                    return f;
                }
            }
            next[u] += 1;
        }
        0
    }
}
