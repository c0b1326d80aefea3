//! Observations for learning agents: board planes over the map's bounding box and a
//! feature vector, computed from one side's [`View`] alone (so nothing hidden leaks:
//! `tests/no_leak.rs` checks them like every per-side query), with "own" and "enemy"
//! relative to that side. All values lie in [0, 1]. The Python environment (`fm.env`)
//! and `fm.Match.observation_bytes` serve them.

use crate::fm::scenario::{Phase, Scenario, StartData};
use crate::fm::state::{CombatKind, Location, Pending};
use crate::fm::view::View;
use crate::ids::Side;

/// Shape and channel layout of a scenario's board planes.
#[derive(Clone, Debug)]
pub struct Meta {
    pub channels: usize,
    pub rows: usize,
    pub cols: usize,
    pub cmin: usize,
    pub rmin: usize,
    pub channel_names: Vec<String>,
    terrain: usize,
    hexside: usize,
    objective: usize,
    control: usize,
    setup_zone: usize,
    entry: usize,
    units: usize,
    bombarded: usize,
    combat: usize,
    pending: usize,
    exclusive: usize,
}

const UNIT_PLANES: [&str; 11] = [
    "unit", "attack", "defense", "move", "steps", "depleted", "mobile", "zoc", "moved", "attacked",
    "defended",
];

impl Meta {
    pub fn new(sc: &Scenario) -> Meta {
        let (mut cmin, mut cmax, mut rmin, mut rmax) = (usize::MAX, 0, usize::MAX, 0);
        for h in &sc.hexes {
            cmin = cmin.min(h.hex.col as usize);
            cmax = cmax.max(h.hex.col as usize);
            rmin = rmin.min(h.hex.row as usize);
            rmax = rmax.max(h.hex.row as usize);
        }
        if sc.hexes.is_empty() {
            (cmin, cmax, rmin, rmax) = (0, 0, 0, 0);
        }
        let mut names = vec!["on_map".to_string()];
        let terrain = names.len();
        for t in &sc.data.terrain.hex {
            names.push(format!("terrain:{}", t.id));
        }
        let hexside = names.len();
        for t in &sc.data.terrain.hexside {
            for d in ["n", "ne", "se"] {
                names.push(format!("hexside:{}:{d}", t.id));
            }
        }
        let objective = names.len();
        names.push("objective".into());
        let control = names.len();
        names.push("control:own".into());
        names.push("control:enemy".into());
        let setup_zone = names.len();
        names.push("setup_zone".into());
        let entry = names.len();
        names.push("entry".into());
        let units = names.len();
        for who in ["own", "enemy"] {
            for p in UNIT_PLANES {
                names.push(format!("{who}:{p}"));
            }
        }
        let bombarded = names.len();
        names.push("bombarded".into());
        let combat = names.len();
        names.push("combat:hex".into());
        names.push("combat:attacker".into());
        names.push("combat:defender".into());
        let pending = names.len();
        names.push("pending:unit".into());
        names.push("pending:path".into());
        let exclusive = names.len();
        names.push("breached".into());
        names.push("aircraft".into());
        names.push("artillery_planned".into());
        // Suez 1916: fire support placed this combat phase (18.1), the attacks announced
        // with it, Kress (13.1), the air unit's observation (18.5), un-activated units
        // (11.3).
        names.push("fire_support:own".into());
        names.push("fire_support:enemy".into());
        names.push("attack_announced".into());
        names.push("kress".into());
        names.push("air_observe".into());
        names.push("inactive".into());
        Meta {
            channels: names.len(),
            rows: rmax - rmin + 1,
            cols: cmax - cmin + 1,
            cmin,
            rmin,
            channel_names: names,
            terrain,
            hexside,
            objective,
            control,
            setup_zone,
            entry,
            units,
            bombarded,
            combat,
            pending,
            exclusive,
        }
    }
}

const PHASES: [&str; 8] = [
    "setup",
    "support_fire",
    "movement",
    "bombardment",
    "combat",
    "mobile_movement",
    "mobile_combat",
    "turn_end",
];

const PENDING: [&str; 9] = [
    "setup",
    "phase",
    "support_fire",
    "choose_loss",
    "retreat",
    "advance",
    "game_over",
    "fire_support",
    "other",
];

/// Names of the feature vector's entries, in order.
pub fn feature_names() -> Vec<String> {
    let mut v: Vec<String> = vec!["turn".into(), "turns_left".into()];
    v.extend(PHASES.iter().map(|p| format!("phase:{p}")));
    v.push("active_is_own".into());
    v.extend(PENDING.iter().map(|p| format!("pending:{p}")));
    v.push("pending_is_own".into());
    v.push("support_step".into());
    v.push("retreat_hexes".into());
    for who in ["own", "enemy"] {
        v.push(format!("{who}:markers_available"));
        v.push(format!("{who}:marker_values"));
        v.push(format!("{who}:markers_used"));
    }
    v.extend(
        [
            "combat:none",
            "combat:bombardment",
            "combat:ground",
            "combat:own_markers",
            "combat:own_marker_values",
            "combat:enemy_markers",
            "combat:enemy_revealed_values",
            "combat:revealed",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    for who in ["own", "enemy"] {
        v.push(format!("{who}:on_map"));
        v.push(format!("{who}:to_come"));
        v.push(format!("{who}:eliminated"));
        v.push(format!("{who}:steps"));
    }
    v.extend(["game_over", "won", "lost"].iter().map(|s| s.to_string()));
    v.push("own:artillery_markers".into());
    v.push("enemy:artillery_markers".into());
    // Suez 1916 18.3: markers in each side's pool, as a share of its markers.
    v.push("own:fire_pool".into());
    v.push("enemy:fire_pool".into());
    v
}

fn phase_index(p: Phase) -> Option<usize> {
    #[allow(unreachable_patterns)]
    match p {
        Phase::Setup => Some(0),
        Phase::SupportFire => Some(1),
        Phase::Movement => Some(2),
        Phase::Bombardment => Some(3),
        Phase::Combat => Some(4),
        Phase::MobileMovement => Some(5),
        Phase::MobileCombat => Some(6),
        Phase::TurnEnd => Some(7),
        _ => None,
    }
}

fn pending_index(p: &Pending) -> usize {
    #[allow(unreachable_patterns)]
    match p {
        Pending::Setup { .. } => 0,
        Pending::Phase { .. } => 1,
        Pending::SupportFire { .. } => 2,
        Pending::ChooseLoss { .. } => 3,
        Pending::Retreat { .. } => 4,
        Pending::Advance { .. } => 5,
        Pending::GameOver { .. } => 6,
        Pending::FireSupport { .. } => 7,
        _ => 8,
    }
}

fn frac(a: f32, b: f32) -> f32 {
    if b <= 0.0 {
        0.0
    } else {
        (a / b).clamp(0.0, 1.0)
    }
}

/// What every observation of a scenario shares: its layout, and its first planes
/// (the map, terrain, hexsides and objectives, through `control`'s first channel),
/// which no state changes. Made once per scenario ([`Static::of`]): an observation
/// copies them and writes only the planes a state sets.
#[derive(Debug)]
pub(crate) struct Static {
    pub(crate) meta: Meta,
    /// The planes before channel `meta.control`.
    map: Vec<f32>,
    /// The feature vector's length.
    pub(crate) features: usize,
}

impl Static {
    /// The scenario's, made on first use.
    pub(crate) fn of(sc: &Scenario) -> &Static {
        sc.observation.get_or_init(|| {
            let m = Meta::new(sc);
            let plane = m.rows * m.cols;
            let mut map = vec![0f32; m.control * plane];
            let at = |h: crate::fm::hex::Hex| -> usize {
                (h.row as usize - m.rmin) * m.cols + (h.col as usize - m.cmin)
            };
            let mut set = |ch: usize, h: crate::fm::hex::Hex| map[ch * plane + at(h)] = 1.0;
            for hi in &sc.hexes {
                set(0, hi.hex);
                for k in 0..sc.data.terrain.hex.len() {
                    if hi.terrain & (1 << k) != 0 {
                        set(m.terrain + k, hi.hex);
                    }
                }
                for k in 0..sc.data.terrain.hexside.len() {
                    for d in 0..3 {
                        if hi.sides[d] & (1 << k) != 0 {
                            set(m.hexside + 3 * k + d, hi.hex);
                        }
                    }
                }
            }
            for h in &sc.objective_hexes() {
                set(m.objective, *h);
            }
            std::sync::Arc::new(Static {
                meta: m,
                map,
                features: feature_names().len(),
            })
        })
    }

    /// The observation's length: planes, then features.
    pub(crate) fn size(&self) -> usize {
        self.meta.channels * self.meta.rows * self.meta.cols + self.features
    }
}

/// Board planes (`channels × rows × cols`, row-major) and the feature vector, from the
/// view alone (its exclusive-rule bookkeeping `ex` is public: Suez 1916 pools and
/// face-down values are removed from it). A spectator's view is laid out as from side
/// a's seat ("own" is side a), with what a spectator may know.
pub fn encode(sc: &Scenario, v: &View) -> (Vec<f32>, Vec<f32>) {
    let st = Static::of(sc);
    let mut out = vec![0f32; st.size()];
    encode_into(sc, v, &mut out);
    let features = out.split_off(st.size() - st.features);
    (out, features)
}

/// [`encode`] written into `out` (planes, then features), whose length is the
/// observation's ([`Static::size`]): the map planes copied, the others cleared and
/// then set, nothing allocated for the planes.
pub(crate) fn encode_into(sc: &Scenario, v: &View, out: &mut [f32]) {
    let me = v.side.side().unwrap_or(Side::A);
    let ex = &v.ex;
    let st = Static::of(sc);
    let m = &st.meta;
    let plane = m.rows * m.cols;
    let (board, features) = out.split_at_mut(m.channels * plane);
    board[..st.map.len()].copy_from_slice(&st.map);
    board[st.map.len()..].fill(0.0);
    let at = |h: crate::fm::hex::Hex| -> usize {
        (h.row as usize - m.rmin) * m.cols + (h.col as usize - m.cmin)
    };
    let set = |board: &mut [f32], ch: usize, h: crate::fm::hex::Hex, x: f32| {
        board[ch * plane + at(h)] = x;
    };
    for (h, side) in &v.control {
        if sc.hex_index(*h).is_some() {
            let ch = if *side == me {
                m.control
            } else {
                m.control + 1
            };
            set(board, ch, *h, 1.0);
        }
    }
    // Set-up zones and entry hexes of the viewer's units.
    if let Pending::Setup { side } = &v.pending {
        if *side == me {
            for (i, u) in v.units.iter().enumerate() {
                let d = &sc.units[i].data;
                if d.side != me || u.loc != Location::ToPlace {
                    continue;
                }
                if let StartData::Zone(z) = &d.start {
                    for hi in sc.zones.get(z).into_iter().flatten() {
                        set(board, m.setup_zone, sc.hex_at(*hi), 1.0);
                    }
                }
            }
        }
    }
    for (i, u) in v.units.iter().enumerate() {
        let d = &sc.units[i].data;
        if d.side == me && u.loc == Location::Arriving {
            if let StartData::Reinforcement { entry, .. } = &d.start {
                for h in entry {
                    if sc.hex_index(*h).is_some() {
                        set(board, m.entry, *h, 1.0);
                    }
                }
            }
        }
    }
    // Units.
    let (mut max_a, mut max_d, mut max_m) = (1u8, 1u8, 1u8);
    for u in &sc.units {
        for s in &u.data.steps {
            max_a = max_a.max(s.attack);
            max_d = max_d.max(s.defense);
            max_m = max_m.max(s.movement);
        }
    }
    let mut counts = [[0f32; 4]; 2]; // on map, to come, eliminated, steps
    let mut totals = [[0f32; 2]; 2]; // units, max steps
    for (i, u) in v.units.iter().enumerate() {
        let def = &sc.units[i];
        let d = &def.data;
        let who = usize::from(d.side != me);
        totals[who][0] += 1.0;
        totals[who][1] += def.max_steps() as f32;
        #[allow(unreachable_patterns)]
        match u.loc {
            Location::Map(_) => counts[who][0] += 1.0,
            Location::ToPlace | Location::Scheduled | Location::Arriving => counts[who][1] += 1.0,
            Location::Eliminated => counts[who][2] += 1.0,
            _ => {}
        }
        if !matches!(u.loc, Location::Eliminated) {
            counts[who][3] += u.steps as f32;
        }
        let Location::Map(h) = u.loc else { continue };
        if sc.hex_index(h).is_none() {
            continue;
        }
        let base = m.units + who * UNIT_PLANES.len();
        let vals = def.values(u.steps.max(1));
        let planes = [
            1.0,
            frac(vals.attack as f32, max_a as f32),
            frac(vals.defense as f32, max_d as f32),
            frac(vals.movement as f32, max_m as f32),
            frac(u.steps as f32, def.max_steps() as f32),
            f32::from(u8::from(u.steps < def.max_steps())),
            f32::from(u8::from(d.kind == crate::fm::scenario::UnitKind::Mobile)),
            f32::from(u8::from(d.zoc)),
            f32::from(u8::from(u.moved)),
            f32::from(u8::from(u.attacked || u.attacked_this_turn)),
            f32::from(u8::from(u.defended)),
        ];
        for (k, x) in planes.iter().enumerate() {
            set(board, base + k, h, *x);
        }
    }
    for (h, n) in &v.bombarded {
        if sc.hex_index(*h).is_some() {
            set(board, m.bombarded, *h, frac(*n as f32, 2.0));
        }
    }
    let unit_hex = |id: &crate::ids::UnitId| -> Option<crate::fm::hex::Hex> {
        let i = sc.unit_index(id)? as usize;
        v.units.get(i)?.hex()
    };
    if let Some(c) = &v.combat {
        if sc.hex_index(c.hex).is_some() {
            set(board, m.combat, c.hex, 1.0);
        }
        for a in &c.attackers {
            if let Some(h) = unit_hex(a) {
                set(board, m.combat + 1, h, 1.0);
            }
        }
        for d in &c.defenders {
            if let Some(h) = unit_hex(d) {
                set(board, m.combat + 2, h, 1.0);
            }
        }
        for h in &c.retreat_path {
            if sc.hex_index(*h).is_some() {
                set(board, m.pending + 1, *h, 1.0);
            }
        }
    }
    let (pend_units, pend_path): (Vec<crate::ids::UnitId>, Vec<crate::fm::hex::Hex>) =
        match &v.pending {
            Pending::ChooseLoss { candidates, .. } => (candidates.clone(), Vec::new()),
            Pending::Retreat { units, .. } => (units.clone(), Vec::new()),
            Pending::Advance { units, path, .. } => (units.clone(), path.clone()),
            _ => (Vec::new(), Vec::new()),
        };
    for u in &pend_units {
        if let Some(h) = unit_hex(u) {
            set(board, m.pending, h, 1.0);
        }
    }
    for h in &pend_path {
        if sc.hex_index(*h).is_some() {
            set(board, m.pending + 1, *h, 1.0);
        }
    }

    for h in &ex.breached {
        if sc.hex_index(*h).is_some() {
            set(board, m.exclusive, *h, 1.0);
        }
    }
    for h in &ex.aircraft {
        if sc.hex_index(*h).is_some() {
            set(board, m.exclusive + 1, *h, 1.0);
        }
    }
    for p in &ex.artillery_plan {
        if sc.hex_index(p.hex).is_some() {
            set(board, m.exclusive + 2, p.hex, frac(p.markers as f32, 2.0));
        }
    }
    // Suez 1916: markers placed on each hex (two at most per side and hex, 18.1).
    let mut placed: std::collections::BTreeMap<(crate::fm::hex::Hex, bool), f32> =
        Default::default();
    for mk in &ex.fire_plan {
        *placed.entry((mk.hex, mk.side == me)).or_default() += 1.0;
    }
    for ((h, own), n) in placed {
        if sc.hex_index(h).is_some() {
            let ch = if own {
                m.exclusive + 3
            } else {
                m.exclusive + 4
            };
            set(board, ch, h, frac(n, 2.0));
        }
    }
    for a in &ex.announced {
        if sc.hex_index(a.hex).is_some() {
            set(board, m.exclusive + 5, a.hex, 1.0);
        }
    }
    for (ch, h) in [
        (m.exclusive + 6, ex.kress),
        (m.exclusive + 7, ex.air_observe),
    ] {
        if let Some(h) = h.filter(|h| sc.hex_index(*h).is_some()) {
            set(board, ch, h, 1.0);
        }
    }
    for u in &ex.inactive {
        if let Some(h) = unit_hex(u) {
            set(board, m.exclusive + 8, h, 1.0);
        }
    }

    // Features.
    let mut f: Vec<f32> = Vec::with_capacity(64);
    let tc = sc.turn_count() as f32;
    f.push(frac(v.turn as f32, tc));
    f.push(frac(tc - v.turn as f32, tc));
    let mut ph = [0f32; 8];
    if let Some(i) = phase_index(v.phase) {
        ph[i] = 1.0;
    }
    f.extend(ph);
    f.push(f32::from(u8::from(v.active == me)));
    let mut pk = [0f32; PENDING.len()];
    pk[pending_index(&v.pending)] = 1.0;
    f.extend(pk);
    f.push(f32::from(u8::from(v.pending.side() == Some(me))));
    f.push(match &v.pending {
        Pending::SupportFire { step, .. } => frac(*step as f32, 3.0),
        _ => 0.0,
    });
    f.push(match &v.pending {
        Pending::Retreat { hexes, .. } => frac(*hexes as f32, 3.0),
        _ => 0.0,
    });
    let max_markers = sc
        .data
        .support_markers
        .a
        .len()
        .max(sc.data.support_markers.b.len())
        .max(1) as f32;
    let max_value_sum = Side::BOTH
        .iter()
        .map(|s| {
            sc.data
                .support_markers
                .get(*s)
                .iter()
                .map(|x| *x as f32)
                .sum::<f32>()
        })
        .fold(1.0, f32::max);
    for side in [me, me.other()] {
        let sv = v.support.get(side);
        f.push(frac(sv.available_count as f32, max_markers));
        // The expected total of the side's unrevealed markers, as the viewer knows it:
        // exact for its own markers and a lowest-first opponent; for a secret random
        // allotment (Vimy Ridge 16.0) the count times the mean of what they come from.
        let values: f32 = if sv.unrevealed.is_empty() {
            0.0
        } else {
            let mean =
                sv.unrevealed.iter().map(|x| *x as f32).sum::<f32>() / sv.unrevealed.len() as f32;
            mean * sv.unrevealed_count as f32
        };
        f.push(frac(values, max_value_sum));
        f.push(frac(sv.used.len() as f32, max_markers));
    }
    let mut cf = [0f32; 8];
    match &v.combat {
        None => cf[0] = 1.0,
        Some(c) => {
            cf[if c.kind == CombatKind::Bombardment {
                1
            } else {
                2
            }] = 1.0;
            let own: Vec<_> = c.markers.iter().filter(|mk| mk.side == me).collect();
            let enemy: Vec<_> = c.markers.iter().filter(|mk| mk.side != me).collect();
            cf[3] = frac(own.len() as f32, 4.0);
            cf[4] = frac(
                own.iter().filter_map(|mk| mk.value).map(|x| x as f32).sum(),
                max_value_sum,
            );
            cf[5] = frac(enemy.len() as f32, 4.0);
            cf[6] = frac(
                enemy
                    .iter()
                    .filter(|mk| mk.revealed)
                    .filter_map(|mk| mk.value)
                    .map(|x| x as f32)
                    .sum(),
                max_value_sum,
            );
            cf[7] = f32::from(u8::from(c.markers.iter().any(|mk| mk.revealed)));
        }
    }
    f.extend(cf);
    for who in 0..2 {
        f.push(frac(counts[who][0], totals[who][0]));
        f.push(frac(counts[who][1], totals[who][0]));
        f.push(frac(counts[who][2], totals[who][0]));
        f.push(frac(counts[who][3], totals[who][1]));
    }
    let (over, won, lost) = match &v.outcome {
        None => (0.0, 0.0, 0.0),
        Some(o) => (
            1.0,
            f32::from(u8::from(o.winner == Some(me))),
            f32::from(u8::from(o.winner == Some(me.other()))),
        ),
    };
    f.extend([over, won, lost]);
    // Artillery markers (Meuse Argonne 17.1): a handful a turn; scaled by 10.
    let max_art = 10.0;
    f.push(frac(*ex.artillery.get(me) as f32, max_art));
    f.push(frac(*ex.artillery.get(me.other()) as f32, max_art));
    for side in [me, me.other()] {
        f.push(match &v.pools {
            Some(p) => {
                let pv = p.get(side);
                let total = pv.unrevealed.len() + ex.spent.get(side).len();
                frac(pv.pool as f32, total as f32)
            }
            None => 0.0,
        });
    }
    debug_assert_eq!(f.len(), st.features);
    features.copy_from_slice(&f);
}
