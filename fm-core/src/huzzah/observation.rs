//! The learning observation of a Huzzah! battle: what one side sees of the open table,
//! as a fixed-size tensor for learning agents (`Game::observation`, served by `fm.env`
//! and `fm.openspiel`), computed from that side's view alone ([`crate::game::Game::view`]).
//!
//! It reflects the pages of our copy that make a position: the table, its terrain and
//! cover (pages 2, 12, 14, 19), units of square bases with their anchor, facing,
//! ranks and formation (pages 2-3, 20-22), bases and hits (pages 2, 12), formed,
//! disordered and routing units and the Rout Table (pages 13-15, 18), unit quality,
//! expected and rolled, and the abilities (pages 4-6), officers, their rank, quality,
//! command radius and attachment (pages 15-16), skirmisher superiority and artillery
//! effectiveness (pages 9-10), the turn's phases (page 7), the orders in progress
//! (pages 16-22), and the scenario's objectives and their holders (pages 7-8; the
//! stand-in reading of docs/huzzah.md, "Objectives and victory").
//!
//! **The side's frame.** Everything is seen from the side's own table edge: for side A
//! the table's own coordinates; for side B the table turned half round (x measured
//! from the far right corner, y from side B's edge, facings turned 180 degrees). Both
//! sides see their own edge at y = 0 and their enemy ahead, so one policy can play
//! either side. Own units come first, then the enemy's.
//!
//! **Layout** (`ObservationSpec`): planes `[channels, rows, cols]` over a raster of the
//! table in square cells of [`Layout::cell`] (a base's side, coarser on a table more
//! than 64 bases long), row 0 along the side's own edge, column 0 at its left; then
//! the features: the global block, the unit slots (own then enemy, each side
//! `unit_slots` of them: the larger army's unit count, in scenario order), the officer
//! slots (likewise), and the objectives (in scenario order). Every value lies in
//! [0, 1]; lengths are fractions of the table's longer side. The names
//! ([`Layout::channels`], [`Layout::features`]) and `docs/learning.md` give every
//! entry.
//!
//! **Nothing hidden reaches it.** Huzzah! hides nothing on the table in pages 1-22: a
//! unit's quality is unknown to both sides until it is rolled (`None` in the view,
//! `quality_unknown` here) and the dice are the match's generator, which no view holds.
//! The observation reads only the side's view and the scenario, so whatever a future
//! view hides stays hidden here.

use crate::huzzah::engine::{bases_lost, holds};
use crate::huzzah::geometry::{in_contact, sin_cos, Facing, Len, Point, TRIG_ONE};
use crate::huzzah::orders::OrderKind;
use crate::huzzah::quality::Quality;
use crate::huzzah::scenario::{
    Arm, Ground, MissingRules, OfficerIx, OfficerRank, Scenario, TerrainKind, UnitIx, UnitOrder,
    Weather, MAX_BASES_PER_UNIT, OBJECTIVE_POINTS,
};
use crate::huzzah::state::{Pending, Phase, State, Status, Whereabouts};
use crate::ids::{Side, UnitId};
use crate::query::ObservationSpec;

/// The most cells along the table's longer edge: a coarse raster, whatever the table.
pub const MAX_CELLS: i64 = 64;

/// The board planes, in order.
const CHANNELS: [&str; 14] = [
    "on_table",
    "terrain:woods",
    "terrain:buildings",
    "terrain:hedge",
    "terrain:orchard",
    "terrain:wall",
    "terrain:strongpoint",
    "objective",
    "own:bases",
    "enemy:bases",
    "own:front",
    "enemy:front",
    "own:officers",
    "enemy:officers",
];
const CH_ON_TABLE: usize = 0;
const CH_TERRAIN: usize = 1;
const CH_OBJECTIVE: usize = 7;
const CH_BASES: usize = 8;
const CH_FRONT: usize = 10;
const CH_OFFICERS: usize = 12;

const PHASES: [&str; 10] = [
    "setup",
    "skirmisher_superiority",
    "artillery_effectiveness",
    "firing",
    "orders",
    "fire_at_chargers",
    "combat",
    "move_officers",
    "rally",
    "turn_ends",
];

const PENDING: [&str; 11] = [
    "place_units",
    "place_officer",
    "declare_fire",
    "remove_base",
    "fire_at_charger",
    "orders",
    "act",
    "melee",
    "rally",
    "move_officers",
    "game_over",
];

const ORDERS: [&str; 4] = ["advance", "retire", "deploy", "manoeuvre"];

/// Each army's standing (pages 9-10), own then enemy, and its forces.
const ARMY: [&str; 14] = [
    "skirmish_factor",
    "skirmish_passed",
    "skirmish_failed",
    "skirmish_won",
    "skirmish_line",
    "artillery_factor",
    "artillery_passed",
    "artillery_failed",
    "artillery_effective",
    "artillery_huzzah_against",
    "units_on_table",
    "bases_on_table",
    "bases_lost",
    "objective_points",
];

/// One unit slot's fields, in order.
pub const UNIT_FIELDS: [&str; 65] = [
    "exists",
    "unplaced",
    "on_table",
    "rout_table",
    "destroyed",
    "captured",
    "skirmish_line",
    "joined",
    "x",
    "y",
    "facing_sin",
    "facing_cos",
    "width",
    "depth",
    "front",
    "ranks",
    "line",
    "column",
    "square",
    "bases",
    "bases_left",
    "hits",
    "lost_this_turn",
    "formed",
    "disordered",
    "routing",
    "quality_unknown",
    "veteran",
    "experienced",
    "trained",
    "green",
    "raw",
    "unreliable",
    "expected",
    "infantry",
    "cavalry",
    "artillery",
    "grand_battery",
    "divisional_artillery",
    "heavy_artillery",
    "close",
    "irregular",
    "skirmish",
    "skirmish_limited",
    "limited_ability",
    "renowned",
    "hesitant",
    "impulsive",
    "grognards",
    "disciplined",
    "fired",
    "fired_at_enemy",
    "charger",
    "removing",
    "passed_through",
    "in_sector",
    "in_contact",
    "in_combat",
    "sector_engaged",
    "officer_attached",
    "ordered",
    "declared",
    "targeted",
    "pending",
    "range",
];

/// One officer slot's fields, in order.
pub const OFFICER_FIELDS: [&str; 17] = [
    "exists",
    "placed",
    "lost",
    "x",
    "y",
    "attached",
    "cinc",
    "corps",
    "division",
    "command_factor",
    "radius",
    "inspirational",
    "charmed",
    "appointed",
    "ordering",
    "done",
    "moved",
];

/// One objective's fields, in order.
pub const OBJECTIVE_FIELDS: [&str; 6] = ["x", "y", "radius", "points", "held_own", "held_enemy"];

/// The number of global features: [`global_names`]'s, without naming them.
const GLOBALS: usize =
    2 + PHASES.len() + 4 + PENDING.len() + 6 + ORDERS.len() + 9 + 2 * ARMY.len() + 4;

/// The names of the global block's features, in order.
fn global_names() -> Vec<String> {
    let mut v: Vec<String> = vec!["turn".into(), "turns_left".into()];
    v.extend(PHASES.iter().map(|p| format!("phase:{p}")));
    v.extend(
        [
            "phase_side_is_own",
            "phase_side_is_enemy",
            "player1_is_own",
            "player1_is_enemy",
        ]
        .map(String::from),
    );
    v.extend(PENDING.iter().map(|p| format!("pending:{p}")));
    v.extend(
        [
            "pending_is_own",
            "pending_is_enemy",
            "place:min",
            "place:max",
            "place:placed",
            "remove_base:hits",
        ]
        .map(String::from),
    );
    v.extend(ORDERS.iter().map(|o| format!("order:{o}")));
    v.extend(
        [
            "orders:free",
            "orders:group_orders",
            "ground:normal",
            "ground:soft",
            "ground:hard",
            "weather:fair",
            "weather:foul",
            "superiority:own",
            "superiority:enemy",
        ]
        .map(String::from),
    );
    for who in ["own", "enemy"] {
        v.extend(ARMY.iter().map(|f| format!("{who}:{f}")));
    }
    v.extend(["missing_rules:stand_in", "game_over", "won", "lost"].map(String::from));
    v
}

/// A scenario's observation layout: the raster and the slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// A cell's side.
    pub cell: Len,
    /// Cells across the table (along the side's own edge).
    pub cols: usize,
    /// Cells from the side's own edge to the enemy's.
    pub rows: usize,
    /// Unit slots a side: the larger army's unit count.
    pub unit_slots: usize,
    /// Officer slots a side: the larger army's officer count.
    pub officer_slots: usize,
    /// The scenario's objectives.
    pub objectives: usize,
    /// The number of global features (before the unit slots).
    pub globals: usize,
}

impl Layout {
    /// The layout of a scenario's observations (the same for both sides).
    pub fn new(sc: &Scenario) -> Layout {
        let (w, d) = sc.table_size();
        let longest = w.0.max(d.0).max(1);
        let cell = sc
            .base()
            .0
            .max((longest + MAX_CELLS - 1) / MAX_CELLS)
            .max(1);
        let count = |n: i64| usize::try_from(((n + cell - 1) / cell).max(1)).unwrap_or(1);
        let most = |a: usize, b: usize| a.max(b);
        Layout {
            cell: Len(cell),
            cols: count(w.0),
            rows: count(d.0),
            unit_slots: most(sc.units_of(Side::A).len(), sc.units_of(Side::B).len()),
            officer_slots: most(sc.officers_of(Side::A).len(), sc.officers_of(Side::B).len()),
            objectives: sc.objectives().len(),
            globals: GLOBALS,
        }
    }

    /// The planes' names, in order.
    pub fn channels(&self) -> Vec<String> {
        CHANNELS.iter().map(|c| c.to_string()).collect()
    }

    /// The features' names, in order: the global block, the unit slots
    /// (`own:unit0:x` … `enemy:unit{n-1}:range`), the officer slots
    /// (`own:officer0:exists` …), the objectives (`objective0:x` …).
    pub fn features(&self) -> Vec<String> {
        let mut v = global_names();
        for who in ["own", "enemy"] {
            for k in 0..self.unit_slots {
                v.extend(UNIT_FIELDS.iter().map(|f| format!("{who}:unit{k}:{f}")));
            }
        }
        for who in ["own", "enemy"] {
            for k in 0..self.officer_slots {
                v.extend(
                    OFFICER_FIELDS
                        .iter()
                        .map(|f| format!("{who}:officer{k}:{f}")),
                );
            }
        }
        for k in 0..self.objectives {
            v.extend(OBJECTIVE_FIELDS.iter().map(|f| format!("objective{k}:{f}")));
        }
        v
    }

    /// The number of plane values.
    pub fn plane_size(&self) -> usize {
        CHANNELS.len() * self.rows * self.cols
    }

    /// The number of feature values.
    pub fn feature_size(&self) -> usize {
        self.globals
            + 2 * self.unit_slots * UNIT_FIELDS.len()
            + 2 * self.officer_slots * OFFICER_FIELDS.len()
            + self.objectives * OBJECTIVE_FIELDS.len()
    }

    /// The observation's whole size: planes, then features.
    pub fn size(&self) -> usize {
        self.plane_size() + self.feature_size()
    }
}

/// The observation's layout as the match layer gives it.
pub fn spec(sc: &Scenario) -> ObservationSpec {
    let l = Layout::new(sc);
    ObservationSpec {
        shape: [CHANNELS.len(), l.rows, l.cols],
        channels: l.channels(),
        features: l.features(),
    }
}

/// `a / b` in [0, 1] (0 when `b` is not positive).
fn frac(a: f64, b: f64) -> f32 {
    if b <= 0.0 {
        0.0
    } else {
        (a / b).clamp(0.0, 1.0) as f32
    }
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// The side's frame: the table as seen from the side's own edge.
struct Frame {
    side: Side,
    w: i64,
    d: i64,
}

impl Frame {
    /// A table point in the side's frame.
    fn point(&self, p: Point) -> (i64, i64) {
        match self.side {
            Side::A => (p.x.0, p.y.0),
            Side::B => (self.w - p.x.0, self.d - p.y.0),
        }
    }
    /// A table facing in the side's frame.
    fn facing(&self, f: Facing) -> Facing {
        match self.side {
            Side::A => f,
            Side::B => f.turned(180),
        }
    }
    /// `(x, y)` of a table point as fractions of the table.
    fn xy(&self, p: Point) -> (f32, f32) {
        let (x, y) = self.point(p);
        (frac(x as f64, self.w as f64), frac(y as f64, self.d as f64))
    }
}

/// The planes being written: `CHANNELS.len() × rows × cols`, row-major.
struct Planes<'a> {
    out: &'a mut [f32],
    l: &'a Layout,
    f: &'a Frame,
}

impl Planes<'_> {
    fn set(&mut self, ch: usize, r: usize, c: usize, v: f32) {
        let i = (ch * self.l.rows + r) * self.l.cols + c;
        if let Some(x) = self.out.get_mut(i) {
            *x = v;
        }
    }
    /// The cells (an inclusive range) whose closed extent may meet the closed frame
    /// coordinate range `lo..=hi`, if any: a cell more each way, for the exact tests
    /// to decide the boundaries the same way on both sides' rasters.
    fn span(lo: i64, hi: i64, cell: i64, n: usize) -> Option<(usize, usize)> {
        let n = i64::try_from(n).ok()?;
        let (a, b) = (lo.div_euclid(cell) - 1, hi.div_euclid(cell) + 1);
        if b < 0 || a >= n {
            return None;
        }
        Some((a.max(0) as usize, b.min(n - 1) as usize))
    }
    /// Marks with `v` every cell whose interior meets the interior of a simple polygon
    /// of the table (touching cells are not marked), exactly: a cell is marked when an
    /// edge passes through its open square, or else when its centre lies inside (the
    /// crossing number along the cells' centre line, row by row).
    fn polygon(&mut self, ch: usize, table_points: &[Point], v: f32) {
        let pts: Vec<(i64, i64)> = table_points.iter().map(|p| self.f.point(*p)).collect();
        let n = pts.len();
        if n < 3 {
            return;
        }
        let s = self.l.cell.0;
        let bx = pts
            .iter()
            .fold([i64::MAX, i64::MAX, i64::MIN, i64::MIN], |b, p| {
                [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)]
            });
        let (Some((c0, c1)), Some((r0, r1))) = (
            Self::span(bx[0], bx[2], s, self.l.cols),
            Self::span(bx[1], bx[3], s, self.l.rows),
        ) else {
            return;
        };
        let width = c1 - c0 + 1;
        let mut marked = vec![false; width * (r1 - r0 + 1)];
        for i in 0..n {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let (Some((ec0, ec1)), Some((er0, er1))) = (
                Self::span(a.0.min(b.0), a.0.max(b.0), s, self.l.cols),
                Self::span(a.1.min(b.1), a.1.max(b.1), s, self.l.rows),
            ) else {
                continue;
            };
            for r in er0.max(r0)..=er1.min(r1) {
                for c in ec0.max(c0)..=ec1.min(c1) {
                    let (x0, y0) = (c as i64 * s, r as i64 * s);
                    if seg_meets_open_rect(a, b, [x0, y0, x0 + s, y0 + s]) {
                        marked[(r - r0) * width + (c - c0)] = true;
                    }
                }
            }
        }
        // The rest lies inside or outside whole. Doubled coordinates keep the centres
        // exact.
        let mut crossings: Vec<(i128, i128)> = Vec::new();
        for r in r0..=r1 {
            let cy2 = i128::from((2 * r as i64 + 1) * s);
            crossings.clear();
            for i in 0..n {
                let (a, b) = (pts[i], pts[(i + 1) % n]);
                let (ay2, by2) = (2 * i128::from(a.1), 2 * i128::from(b.1));
                if (ay2 > cy2) == (by2 > cy2) {
                    continue;
                }
                // x at the centre line, doubled: the rational `num / den`, `den` > 0.
                let (num, den) = (
                    2 * i128::from(a.0) * (by2 - ay2) + (cy2 - ay2) * 2 * i128::from(b.0 - a.0),
                    by2 - ay2,
                );
                crossings.push(if den < 0 { (-num, -den) } else { (num, den) });
            }
            for c in c0..=c1 {
                let cx2 = i128::from((2 * c as i64 + 1) * s);
                let right = crossings
                    .iter()
                    .filter(|(num, den)| *num > cx2 * *den)
                    .count();
                if marked[(r - r0) * width + (c - c0)] || right % 2 == 1 {
                    self.set(ch, r, c, v);
                }
            }
        }
    }
    /// Marks the cells holding a table point: each whose closed square holds it (two
    /// or four for a point on cell boundaries, so both sides' rasters agree).
    fn point(&mut self, ch: usize, p: Point) {
        self.disc(ch, p, Len::ZERO);
    }
    /// Marks every cell that meets the closed disc of radius `r` round `p`.
    fn disc(&mut self, ch: usize, p: Point, radius: Len) {
        let (x, y) = self.f.point(p);
        let s = self.l.cell.0;
        let rr = radius.0.max(0);
        let (Some((c0, c1)), Some((r0, r1))) = (
            Self::span(x - rr, x + rr, s, self.l.cols),
            Self::span(y - rr, y + rr, s, self.l.rows),
        ) else {
            return;
        };
        for r in r0..=r1 {
            for c in c0..=c1 {
                let (lx, ly) = (c as i64 * s, r as i64 * s);
                let dx = i128::from((lx - x).max(x - (lx + s)).max(0));
                let dy = i128::from((ly - y).max(y - (ly + s)).max(0));
                if dx * dx + dy * dy <= i128::from(rr) * i128::from(rr) {
                    self.set(ch, r, c, 1.0);
                }
            }
        }
    }
}

/// A rational `num / den` with `den > 0`.
type Ratio = (i128, i128);

fn less(a: Ratio, b: Ratio) -> bool {
    a.0 * b.1 < b.0 * a.1
}

/// Some point of the closed segment `a`-`b` lies in the open rectangle `[x0, y0, x1,
/// y1]` (exact: Liang-Barsky clipping on rationals).
fn seg_meets_open_rect(a: (i64, i64), b: (i64, i64), rect: [i64; 4]) -> bool {
    // The segment is `a + t (b - a)`, t in [0, 1]; each axis keeps t in an open range.
    let (mut lo, mut hi): (Ratio, Ratio) = ((0, 1), (1, 1));
    let mut lo_open = false;
    let mut hi_open = false;
    for (p, d, min, max) in [
        (a.0, b.0 - a.0, rect[0], rect[2]),
        (a.1, b.1 - a.1, rect[1], rect[3]),
    ] {
        let (p, d, min, max) = (
            i128::from(p),
            i128::from(d),
            i128::from(min),
            i128::from(max),
        );
        if d == 0 {
            if p <= min || p >= max {
                return false;
            }
            continue;
        }
        // min < p + t d < max: t in the open range (enter, leave).
        let (enter, leave) = if d > 0 {
            ((min - p, d), (max - p, d))
        } else {
            ((p - max, -d), (p - min, -d))
        };
        if !less(enter, lo) {
            (lo, lo_open) = (enter, true);
        }
        if !less(hi, leave) {
            (hi, hi_open) = (leave, true);
        }
    }
    // Some t with lo <(=) t <(=) hi: closed ends only where [0, 1] itself bounds it.
    if lo_open || hi_open {
        less(lo, hi)
    } else {
        !less(hi, lo)
    }
}

/// The units named by the pending decision (by id there, as its JSON names them).
fn pending_units(sc: &Scenario, p: &Pending) -> Vec<UnitIx> {
    let ids: Vec<&UnitId> = match p {
        Pending::DeclareFire { units, .. }
        | Pending::Act { units, .. }
        | Pending::Rally { units, .. } => units.iter().collect(),
        Pending::RemoveBase { unit, .. } => vec![unit],
        Pending::FireAtCharger { unit, chargers, .. } => {
            std::iter::once(unit).chain(chargers).collect()
        }
        Pending::Melee { a, b, .. } => vec![a, b],
        _ => Vec::new(),
    };
    ids.into_iter().filter_map(|id| sc.unit_ix_of(id)).collect()
}

fn phase_index(p: Phase) -> (usize, Option<Side>) {
    match p {
        Phase::Setup => (0, None),
        Phase::SkirmisherSuperiority => (1, None),
        Phase::ArtilleryEffectiveness => (2, None),
        Phase::Firing { side } => (3, Some(side)),
        Phase::Orders { side } => (4, Some(side)),
        Phase::FireAtChargers { side } => (5, Some(side)),
        Phase::Combat { side } => (6, Some(side)),
        Phase::MoveOfficers { side } => (7, Some(side)),
        Phase::Rally { side } => (8, Some(side)),
        Phase::TurnEnds => (9, None),
    }
}

/// The pending kind's one-hot slot; none before the battle opens (a match explicit
/// from the start, its opening rolls waiting: no decision of either side).
fn pending_index(p: &Pending) -> Option<usize> {
    Some(match p {
        Pending::PlaceUnits { .. } => 0,
        Pending::PlaceOfficer { .. } => 1,
        Pending::DeclareFire { .. } => 2,
        Pending::RemoveBase { .. } => 3,
        Pending::FireAtCharger { .. } => 4,
        Pending::Orders { .. } => 5,
        Pending::Act { .. } => 6,
        Pending::Melee { .. } => 7,
        Pending::Rally { .. } => 8,
        Pending::MoveOfficers { .. } => 9,
        Pending::GameOver { .. } => 10,
        Pending::Opening => return None,
    })
}

fn order_index(o: OrderKind) -> usize {
    match o {
        OrderKind::Advance => 0,
        OrderKind::Retire => 1,
        OrderKind::Deploy => 2,
        OrderKind::Manoeuvre => 3,
    }
}

fn terrain_index(k: TerrainKind) -> usize {
    match k {
        TerrainKind::Woods => 0,
        TerrainKind::Buildings => 1,
        TerrainKind::Hedge => 2,
        TerrainKind::Orchard => 3,
        TerrainKind::Wall => 4,
        TerrainKind::Strongpoint => 5,
    }
}

/// Writes `side`'s observation of the view `v` into `out` (planes, then features; the
/// first [`Layout::size`] values, fewer if `out` is shorter). `v` is the side's view
/// ([`crate::game::Game::view`]); nothing else of the match is read.
pub fn write(sc: &Scenario, v: &State, side: Side, out: &mut [f32]) {
    let l = Layout::new(sc);
    let n = l.size().min(out.len());
    let out = &mut out[..n];
    out.fill(0.0);
    let (planes, features) = out.split_at_mut(l.plane_size().min(n));
    let (w, d) = sc.table_size();
    let frame = Frame {
        side,
        w: w.0,
        d: d.0,
    };
    write_planes(sc, v, &l, &frame, planes);
    let f = encode_features(sc, v, side, &l, &frame);
    let k = f.len().min(features.len());
    features[..k].copy_from_slice(&f[..k]);
}

fn write_planes(sc: &Scenario, v: &State, l: &Layout, frame: &Frame, out: &mut [f32]) {
    let mut p = Planes { out, l, f: frame };
    let s = l.cell.0;
    for r in 0..l.rows {
        for c in 0..l.cols {
            // The cell's centre lies on the table.
            let (cx, cy) = (c as i64 * s + s / 2, r as i64 * s + s / 2);
            if cx <= frame.w && cy <= frame.d {
                p.set(CH_ON_TABLE, r, c, 1.0);
            }
        }
    }
    for t in sc.terrain() {
        p.polygon(CH_TERRAIN + terrain_index(t.kind), &t.polygon, 1.0);
    }
    for o in sc.objectives() {
        p.disc(CH_OBJECTIVE, o.at, o.radius);
    }
    for (def, u) in sc.units().iter().zip(&v.units) {
        if u.at != Whereabouts::Table {
            continue;
        }
        let who = usize::from(def.side != frame.side);
        for q in u.shape.bases() {
            p.polygon(CH_BASES + who, &q.0, 1.0);
        }
        p.point(CH_FRONT + who, u.shape.anchor);
    }
    for (def, o) in sc.officers().iter().zip(&v.officers) {
        if let (Some(at), false) = (o.at, o.lost) {
            p.point(CH_OFFICERS + usize::from(def.side != frame.side), at);
        }
    }
}

/// What the features need of the whole view, computed once.
struct Context<'a> {
    sc: &'a Scenario,
    v: &'a State,
    me: Side,
    frame: &'a Frame,
    /// The table's longer side: the scale of lengths.
    scale: f64,
    pending: Vec<UnitIx>,
    in_contact: Vec<bool>,
    /// Each objective's holder alone, if any (docs/huzzah.md, "Objectives and
    /// victory").
    held: Vec<Option<Side>>,
    /// Each unit: the target of a fire declaration this phase.
    targeted: Vec<bool>,
    /// Each officer: giving orders now.
    ordering: Vec<bool>,
    /// Each unit: an officer (not lost) is attached to it.
    attached: Vec<bool>,
}

/// A flag for each of `n` entries, set at the indices given. Marked through a guarded
/// store rather than compared (`Option<UnitIx> == Some(u)`): optimized code compares an
/// index option's payload before its tag, and on a `None` whose payload was never
/// written (a cloned state's) valgrind's memcheck reports the branch as reading
/// uninitialised memory (the C tests run under memcheck).
fn marks(n: usize, at: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut v = vec![false; n];
    for i in at {
        if let Some(x) = v.get_mut(i) {
            *x = true;
        }
    }
    v
}

fn encode_features(sc: &Scenario, v: &State, me: Side, l: &Layout, frame: &Frame) -> Vec<f32> {
    let on_table = |u: UnitIx| v.units.get(u.index()).map(|s| s.at) == Some(Whereabouts::Table);
    let mut contact = vec![false; v.units.len()];
    for a in sc.unit_ixs(Side::A).filter(|u| on_table(*u)) {
        for b in sc.unit_ixs(Side::B).filter(|u| on_table(*u)) {
            if in_contact(&v.unit(a).shape, &v.unit(b).shape) {
                contact[a.index()] = true;
                contact[b.index()] = true;
            }
        }
    }
    let cx = Context {
        sc,
        v,
        me,
        frame,
        scale: frame.w.max(frame.d).max(1) as f64,
        pending: pending_units(sc, &v.pending),
        in_contact: contact,
        held: sc
            .objectives()
            .iter()
            .map(|o| {
                match (
                    holds(sc, v, Side::A, o.at, o.radius),
                    holds(sc, v, Side::B, o.at, o.radius),
                ) {
                    (true, false) => Some(Side::A),
                    (false, true) => Some(Side::B),
                    _ => None,
                }
            })
            .collect(),
        targeted: marks(
            v.units.len(),
            v.firing
                .declarations
                .iter()
                .filter_map(|d| d.target.map(UnitIx::index)),
        ),
        ordering: marks(v.officers.len(), v.orders.officer.map(OfficerIx::index)),
        attached: marks(
            v.units.len(),
            v.officers
                .iter()
                .filter(|o| !o.lost)
                .filter_map(|o| o.attached.map(UnitIx::index)),
        ),
    };
    let mut f = Vec::with_capacity(l.feature_size());
    globals(&cx, &mut f);
    for side in [me, me.other()] {
        let units = sc.units_of(side);
        for k in 0..l.unit_slots {
            match units.get(k) {
                Some(u) => f.extend(unit_slot(&cx, u.ix)),
                None => f.extend([0.0; UNIT_FIELDS.len()]),
            }
        }
    }
    for side in [me, me.other()] {
        let officers = sc.officers_of(side);
        for k in 0..l.officer_slots {
            match officers.get(k) {
                Some(o) => f.extend(officer_slot(&cx, o.ix)),
                None => f.extend([0.0; OFFICER_FIELDS.len()]),
            }
        }
    }
    for (o, held) in sc.objectives().iter().zip(&cx.held) {
        let (x, y) = frame.xy(o.at);
        f.extend([
            x,
            y,
            frac(o.radius.0 as f64, cx.scale),
            frac(f64::from(o.points), f64::from(*OBJECTIVE_POINTS.end())),
            flag(*held == Some(me)),
            flag(*held == Some(me.other())),
        ]);
    }
    debug_assert_eq!(f.len(), l.feature_size());
    f
}

fn globals(cx: &Context<'_>, f: &mut Vec<f32>) {
    let (sc, v, me) = (cx.sc, cx.v, cx.me);
    let turns = f64::from(sc.turns());
    f.push(frac(f64::from(v.turn), turns));
    f.push(frac(turns - f64::from(v.turn), turns));
    let (ph, ph_side) = phase_index(v.phase);
    let mut one = [0.0; PHASES.len()];
    one[ph] = 1.0;
    f.extend(one);
    f.push(flag(ph_side == Some(me)));
    f.push(flag(ph_side == Some(me.other())));
    f.push(flag(v.player1 == Some(me)));
    f.push(flag(v.player1 == Some(me.other())));
    let mut pk = [0.0; PENDING.len()];
    if let Some(i) = pending_index(&v.pending) {
        pk[i] = 1.0;
    }
    f.extend(pk);
    f.push(flag(v.pending.side() == Some(me)));
    f.push(flag(v.pending.side() == Some(me.other())));
    let most_units = sc.units_of(Side::A).len().max(sc.units_of(Side::B).len()) as f64;
    match &v.pending {
        Pending::PlaceUnits {
            min, max, placed, ..
        } => f.extend([
            frac(f64::from(*min), most_units),
            frac(f64::from(*max), most_units),
            frac(f64::from(*placed), most_units),
        ]),
        _ => f.extend([0.0; 3]),
    }
    f.push(match &v.pending {
        Pending::RemoveBase { hits, .. } => frac(f64::from(*hits), 12.0),
        _ => 0.0,
    });
    let order = match &v.pending {
        Pending::Act { order, .. } => Some(*order),
        _ => v.orders.active.as_ref().map(|a| a.kind),
    };
    let mut ok = [0.0; ORDERS.len()];
    if let Some(o) = order {
        ok[order_index(o)] = 1.0;
    }
    f.extend(ok);
    f.push(flag(v.orders.free));
    f.push(v.orders.group.map_or(0.0, |(_, n)| {
        frac(
            f64::from(n),
            f64::from(10 + crate::huzzah::orders::MAX_ORDER_BONUS),
        )
    }));
    let (ground, weather) = sc.conditions_on(v.turn.max(1));
    f.extend([
        flag(ground == Ground::Normal),
        flag(ground == Ground::Soft),
        flag(ground == Ground::Hard),
        flag(weather == Weather::Fair),
        flag(weather == Weather::Foul),
    ]);
    f.push(flag(v.superiority == Some(me)));
    f.push(flag(v.superiority == Some(me.other())));
    let total_points: f64 = sc.objectives().iter().map(|o| f64::from(o.points)).sum();
    for side in [me, me.other()] {
        let a = v.armies.get(side);
        let units = sc.units_of(side);
        let start_bases: usize = units.iter().map(|u| u.bases.len()).sum();
        let (mut on, mut bases_on) = (0usize, 0usize);
        for u in units {
            if let Some(st) = v.units.get(u.ix.index()) {
                if st.at == Whereabouts::Table {
                    on += 1;
                    bases_on += st.bases.len();
                }
            }
        }
        let held: f64 = sc
            .objectives()
            .iter()
            .zip(&cx.held)
            .filter(|(_, h)| **h == Some(side))
            .map(|(o, _)| f64::from(o.points))
            .sum();
        f.extend([
            frac(f64::from(a.skirmish_factor), 10.0),
            flag(a.skirmish_passed == Some(true)),
            flag(a.skirmish_passed == Some(false)),
            flag(a.skirmish_won),
            frac(f64::from(a.skirmish_line), start_bases as f64),
            frac(f64::from(a.artillery_factor), 10.0),
            flag(a.artillery_passed == Some(true)),
            flag(a.artillery_passed == Some(false)),
            flag(a.artillery_effective),
            flag(*v.artillery_huzzah_against.get(side)),
            frac(on as f64, units.len() as f64),
            frac(bases_on as f64, start_bases as f64),
            frac(bases_lost(sc, v, side) as f64, start_bases as f64),
            frac(held, total_points),
        ]);
    }
    f.push(flag(sc.missing_rules() == MissingRules::StandIn));
    let (over, won, lost) = match &v.outcome {
        None => (false, false, false),
        Some(o) => (true, o.winner == Some(me), o.winner == Some(me.other())),
    };
    f.extend([flag(over), flag(won), flag(lost)]);
}

fn unit_slot(cx: &Context<'_>, ix: UnitIx) -> [f32; UNIT_FIELDS.len()] {
    let (sc, v) = (cx.sc, cx.v);
    let def = sc.unit(ix);
    let Some(u) = v.units.get(ix.index()) else {
        return [0.0; UNIT_FIELDS.len()];
    };
    let max_bases = MAX_BASES_PER_UNIT as f64;
    let start = def.bases.len() as f64;
    let placed = matches!(u.at, Whereabouts::Table | Whereabouts::Unplaced);
    // Where it stands, for a unit on the table or waiting to be placed (its position
    // is the scenario's, known to both).
    let (x, y, fs, fc, width, depth) = if placed {
        let (x, y) = cx.frame.xy(u.shape.centre());
        let (s, c) = sin_cos(cx.frame.facing(u.shape.facing));
        let half = |t: i64| ((1.0 + t as f64 / TRIG_ONE as f64) / 2.0).clamp(0.0, 1.0) as f32;
        (
            x,
            y,
            half(s),
            half(c),
            frac(u.shape.width().0 as f64, cx.scale),
            frac(u.shape.depth().0 as f64, cx.scale),
        )
    } else {
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    };
    let quality = |q: Quality| flag(u.quality == Some(q));
    let named = |list: &[UnitIx]| list.contains(&ix);
    let in_pair = |pairs: &[(UnitIx, UnitIx)]| pairs.iter().any(|(a, b)| *a == ix || *b == ix);
    let declarations = &v.firing.declarations;
    [
        1.0,
        flag(u.at == Whereabouts::Unplaced),
        flag(u.at == Whereabouts::Table),
        flag(u.at == Whereabouts::RoutTable),
        flag(u.at == Whereabouts::Destroyed),
        flag(u.at == Whereabouts::Captured),
        flag(u.at == Whereabouts::SkirmishLine),
        flag(u.at == Whereabouts::Joined),
        x,
        y,
        fs,
        fc,
        width,
        depth,
        frac(
            f64::from(u.shape.ranks.first().copied().unwrap_or(0)),
            max_bases,
        ),
        frac(u.shape.ranks.len() as f64, max_bases),
        flag(!u.column && !u.shape.square),
        flag(u.column),
        flag(u.shape.square),
        frac(u.bases.len() as f64, max_bases),
        frac(u.bases.len() as f64, start),
        frac(f64::from(u.hits), 12.0),
        frac(f64::from(u.lost_this_turn), start),
        flag(u.status == Status::Formed),
        flag(u.status == Status::Disordered),
        flag(u.status == Status::Routing),
        flag(u.quality.is_none()),
        quality(Quality::Veteran),
        quality(Quality::Experienced),
        quality(Quality::Trained),
        quality(Quality::Green),
        quality(Quality::Raw),
        quality(Quality::Unreliable),
        1.0 - frac(def.effective_expected().index() as f64, 11.0),
        flag(def.arm == Arm::Infantry),
        flag(def.arm == Arm::Cavalry),
        flag(def.arm == Arm::Artillery),
        flag(def.is_grand_battery()),
        flag(def.has_divisional_artillery()),
        flag(def.has_heavy_artillery()),
        flag(def.order == UnitOrder::Close),
        flag(def.order == UnitOrder::Irregular),
        flag(def.order == UnitOrder::Skirmish),
        flag(def.order == UnitOrder::SkirmishLimited),
        flag(u.skirmish_limited),
        flag(def.flags.renowned),
        flag(def.flags.hesitant),
        flag(def.flags.impulsive),
        flag(u.grognards),
        flag(u.disciplined),
        flag(u.fired),
        flag(u.fired_at_enemy),
        flag(u.charger),
        flag(u.removing),
        flag(u.passed_through),
        flag(u.sector.is_some()),
        flag(cx.in_contact.get(ix.index()).copied().unwrap_or(false)),
        flag(in_pair(&v.in_combat)),
        flag(in_pair(&v.sector_engaged)),
        flag(cx.attached.get(ix.index()).copied().unwrap_or(false)),
        flag(v.orders.ordered.iter().any(|(u, _)| *u == ix)),
        flag(declarations.iter().any(|d| d.unit == ix)),
        flag(cx.targeted.get(ix.index()).copied().unwrap_or(false)),
        flag(named(&cx.pending)),
        def.fire_range().map_or(0.0, |r| frac(r.0 as f64, cx.scale)),
    ]
}

fn officer_slot(cx: &Context<'_>, ix: OfficerIx) -> [f32; OFFICER_FIELDS.len()] {
    let (sc, v) = (cx.sc, cx.v);
    let def = sc.officer(ix);
    let Some(o) = v.officers.get(ix.index()) else {
        return [0.0; OFFICER_FIELDS.len()];
    };
    let (x, y) = match (o.at, o.lost) {
        (Some(at), false) => cx.frame.xy(at),
        _ => (0.0, 0.0),
    };
    let quality = v.officer_quality(sc, ix.index());
    let i = u16::try_from(ix.index()).unwrap_or(u16::MAX);
    [
        1.0,
        flag(o.at.is_some()),
        flag(o.lost),
        x,
        y,
        flag(!o.lost && o.attached.is_some()),
        flag(def.rank == OfficerRank::Cinc),
        flag(def.rank == OfficerRank::Corps),
        flag(def.rank == OfficerRank::Division),
        frac(f64::from(quality.command_factor()), 10.0),
        frac(quality.radius().0 as f64, cx.scale),
        flag(v.officer_inspirational(sc, ix.index())),
        flag(o.charmed),
        flag(o.appointed.is_some()),
        flag(cx.ordering.get(ix.index()).copied().unwrap_or(false)),
        flag(v.orders.done.contains(&ix)),
        flag(v.officers_moved.contains(&i)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameMatch};
    use crate::huzzah::scenario::{from_json_value, validate};
    use crate::huzzah::Huzzah;
    use serde_json::{json, Value};

    /// The observation of `side` in `m`, through the match layer.
    fn observe(m: &GameMatch<Huzzah>, side: Side) -> Vec<f32> {
        let n = spec(m.scenario()).size();
        let mut out = vec![0f32; n];
        Huzzah::observation(m.scenario(), m.state(), side, &mut out).unwrap();
        out
    }

    /// Each `every`-th position of a random game of `name`, as a match.
    fn positions(name: &str, seed: u64, every: usize, most: usize) -> Vec<GameMatch<Huzzah>> {
        let mut m = GameMatch::<Huzzah>::new_builtin(name, seed).unwrap();
        let mut rng = crate::rng::rng_from_seed(seed ^ 0xfeed);
        let mut out = Vec::new();
        for k in 0..most {
            if k % every == 0 || m.is_over() {
                out.push(m.clone());
            }
            if m.is_over() {
                break;
            }
            let c = m.random_command(&mut rng).unwrap();
            m.apply(&c).unwrap();
        }
        out
    }

    #[test]
    fn spec_sizes_what_is_written_and_values_lie_in_0_1() {
        assert_eq!(global_names().len(), GLOBALS);
        for name in crate::huzzah::scenario::BUILTIN {
            let probe = GameMatch::<Huzzah>::new_builtin(name, 1).unwrap();
            let sp = spec(probe.scenario());
            let l = Layout::new(probe.scenario());
            assert_eq!(sp.channels.len(), sp.shape[0], "{name}");
            assert_eq!(sp.size(), l.size(), "{name}");
            assert_eq!(sp.features.len(), l.feature_size(), "{name}");
            let mut names: Vec<&String> = sp.channels.iter().chain(&sp.features).collect();
            names.sort();
            names.dedup();
            assert_eq!(
                names.len(),
                sp.channels.len() + sp.features.len(),
                "{name}: unique names"
            );
            let mut seen_over = false;
            for m in positions(name, 3, 7, 2000) {
                seen_over |= m.is_over();
                for side in Side::BOTH {
                    // A longer buffer: the observation, then what was there.
                    let mut out = vec![-1f32; sp.size() + 3];
                    let n = crate::dynmatch::DynMatch::observation(&m, side, &mut out).unwrap();
                    assert_eq!(n, sp.size());
                    assert_eq!(&out[sp.size()..], &[-1.0; 3]);
                    for (i, x) in out[..n].iter().enumerate() {
                        assert!(
                            x.is_finite() && (0.0..=1.0).contains(x),
                            "{name} {side}: value {x} at {i}"
                        );
                    }
                    // A shorter buffer is written as far as it goes, without a panic.
                    let mut short = vec![0f32; 10];
                    write(m.scenario(), m.state(), side, &mut short);
                    assert_eq!(&short[..], &out[..10]);
                }
            }
            assert!(seen_over, "{name}: a game played to its end");
        }
    }

    /// The observation is a function of the side's view alone: computed from the view
    /// (`Game::view`) it is the same, and a match the side cannot tell from this one (its
    /// determinization: what it may not know drawn anew; another generator: the dice to
    /// come, which decide the qualities not yet rolled) gives the same observation.
    #[test]
    fn equal_views_give_equal_observations() {
        let mut checks = 0;
        for name in crate::huzzah::scenario::BUILTIN {
            for m in positions(name, 5, 11, 600) {
                for side in Side::BOTH {
                    let mine = observe(&m, side);
                    let v = Huzzah::view(m.scenario(), m.state(), side);
                    let mut from_view = vec![0f32; mine.len()];
                    write(m.scenario(), &v, side, &mut from_view);
                    assert_eq!(mine, from_view, "{name}: from the view");
                    let d = m.determinized(side, 99).unwrap();
                    assert_eq!(d.view(side), m.view(side));
                    assert_eq!(observe(&d, side), mine, "{name}: determinized");
                    let other_dice = m.clone_with_seed(12345);
                    assert_eq!(observe(&other_dice, side), mine, "{name}: other dice");
                    checks += 1;
                }
            }
        }
        assert!(checks > 40, "{checks} checks");
    }

    /// The two sides' observations of one position: the same table turned half round.
    #[test]
    fn each_side_sees_the_table_from_its_own_edge() {
        for m in positions("huzzah-encounter", 2, 13, 400) {
            let sc = m.scenario();
            let sp = spec(sc);
            let (a, b) = (observe(&m, Side::A), observe(&m, Side::B));
            let [ch, rows, cols] = sp.shape;
            let at = |o: &[f32], c: usize, r: usize, k: usize| o[(c * rows + r) * cols + k];
            // Terrain and objectives: cell (r, c) for side A is (rows-1-r, cols-1-c) for
            // side B (the table is a whole number of cells each way).
            assert_eq!((rows, cols), (30, 45));
            for c in 0..8 {
                for r in 0..rows {
                    for k in 0..cols {
                        assert_eq!(
                            at(&a, c, r, k),
                            at(&b, c, rows - 1 - r, cols - 1 - k),
                            "{} ({r}, {k})",
                            sp.channels[c]
                        );
                    }
                }
            }
            // Units: own and enemy swap.
            for (own, enemy) in [(8, 9), (10, 11), (12, 13)] {
                for r in 0..rows {
                    for k in 0..cols {
                        let (x, y) = (at(&a, own, r, k), at(&b, enemy, rows - 1 - r, cols - 1 - k));
                        assert_eq!(x, y, "{} ({r}, {k})", sp.channels[own]);
                    }
                }
            }
            assert_eq!(ch, CHANNELS.len());
        }
    }

    /// The raster's exact cell test is the geometry module's (`Polygon::
    /// interior_meets_quad`): on every terrain piece of the built-in scenarios, every
    /// base of their units as random battles move them, and segments on cell lines.
    #[test]
    fn the_raster_agrees_with_the_geometry() {
        use crate::huzzah::geometry::{Polygon, Quad};
        let check = |sc: &Scenario, side: Side, shape: &[Point], what: &str| {
            let l = Layout::new(sc);
            let (w, d) = sc.table_size();
            let frame = Frame {
                side,
                w: w.0,
                d: d.0,
            };
            let mut out = vec![0f32; l.plane_size()];
            let mut p = Planes {
                out: &mut out,
                l: &l,
                f: &frame,
            };
            p.polygon(0, shape, 1.0);
            let poly = Polygon(shape.to_vec());
            let s = l.cell.0;
            let table = |x: i64, y: i64| match side {
                Side::A => Point::new(Len(x), Len(y)),
                Side::B => Point::new(Len(w.0 - x), Len(d.0 - y)),
            };
            for r in 0..l.rows {
                for c in 0..l.cols {
                    let (x0, y0) = (c as i64 * s, r as i64 * s);
                    let cell = Quad([
                        table(x0, y0 + s),
                        table(x0 + s, y0 + s),
                        table(x0 + s, y0),
                        table(x0, y0),
                    ]);
                    let want = poly.interior_meets_quad(&cell);
                    assert_eq!(
                        out[r * l.cols + c] == 1.0,
                        want,
                        "{what} {side}: cell ({r}, {c})"
                    );
                }
            }
        };
        for name in crate::huzzah::scenario::BUILTIN {
            let probe = GameMatch::<Huzzah>::new_builtin(name, 1).unwrap();
            let sc = probe.scenario();
            for t in sc.terrain() {
                for side in Side::BOTH {
                    check(sc, side, &t.polygon, &t.id);
                }
            }
            for m in positions(name, 7, 37, 400) {
                for (def, u) in sc.units().iter().zip(&m.state().units) {
                    if u.at == Whereabouts::Table {
                        for q in u.shape.bases() {
                            check(sc, Side::B, &q.0, def.id.as_str());
                        }
                    }
                }
            }
        }
        // Edges along and across cell lines of a 40 mm raster (400 in tenths of a mm).
        let sc = hand_built().0;
        let tri = [
            Point::mm(400, 400),
            Point::mm(480, 400),
            Point::mm(400, 520),
        ];
        let thin = [
            Point::mm(600, 0),
            Point::mm(601, 0),
            Point::mm(601, 800),
            Point::mm(600, 800),
        ];
        let on_line = [
            Point::mm(640, 0),
            Point::mm(680, 0),
            Point::mm(680, 800),
            Point::mm(640, 800),
        ];
        for (what, shape) in [
            ("triangle", &tri[..]),
            ("thin", &thin[..]),
            ("on lines", &on_line[..]),
        ] {
            for side in Side::BOTH {
                check(&sc, side, shape, what);
            }
        }
        assert!(seg_meets_open_rect((0, 5), (20, 5), [10, 0, 30, 10]));
        assert!(
            !seg_meets_open_rect((0, 10), (20, 10), [10, 0, 30, 10]),
            "along an edge"
        );
        assert!(
            !seg_meets_open_rect((0, 0), (10, 10), [10, 0, 30, 10]),
            "to a corner"
        );
        assert!(
            seg_meets_open_rect((15, 5), (15, 5), [10, 0, 30, 10]),
            "a point inside"
        );
        assert!(
            seg_meets_open_rect((9, 20), (31, -1), [10, 0, 30, 10]),
            "across a corner"
        );
        assert!(
            seg_meets_open_rect((30, 10), (10, 0), [10, 0, 30, 10]),
            "a diagonal"
        );
    }

    fn unit(
        id: &str,
        division: &str,
        bases: &[&str],
        ranks: &[u8],
        at: [i64; 2],
        facing: u16,
    ) -> Value {
        json!({
            "id": id, "division": division, "bases": bases, "expected": "regulars_b",
            "formation": "line", "ranks": ranks, "position": at, "facing": facing
        })
    }

    fn army(prefix: &str, units: Vec<Value>) -> Value {
        json!({
            "name": prefix, "skirmish_factor": 8, "artillery_factor": 8,
            "officers": [
                {"id": format!("{prefix}-cinc"), "rank": "cinc", "quality": "average", "position": [100, 100]},
                {"id": format!("{prefix}-d1"), "rank": "division", "quality": "excellent", "position": [200, 700]}
            ],
            "divisions": [{"id": format!("{prefix}-div"), "officer": format!("{prefix}-d1")}],
            "units": units
        })
    }

    /// A 1200 × 800 mm table of 40 mm bases (a raster of 30 × 20 cells): a French line
    /// of three trained infantry bases anchored at (300, 200) mm facing side B, two
    /// Austrian cavalry bases one behind the other anchored at (900, 600) facing side A
    /// (quality not yet rolled), a square wood from (400, 400) to (480, 480), an
    /// objective of 3 points and radius 50 mm at (600, 400).
    fn hand_built() -> (Scenario, State) {
        let mut fr = unit("fr", "a-div", &["infantry"; 3], &[3], [300, 200], 0);
        fr["quality"] = json!("trained");
        let au = unit(
            "au",
            "b-div",
            &["battle_cavalry"; 2],
            &[1, 1],
            [900, 600],
            180,
        );
        let v = json!({
            "id": "obs-table", "name": "test", "provenance": "stand-in: a test table",
            "table": {"width_mm": 1200, "depth_mm": 800}, "base_mm": 40, "turns": 4,
            "battle": "encounter", "setup": "placed", "first": "a",
            "terrain": [{"id": "w", "kind": "woods", "polygon": [[400, 400], [480, 400], [480, 480], [400, 480]]}],
            "objectives": [{"id": "o", "at": [600, 400], "radius_mm": 50, "points": 3}],
            "sides": {"a": army("a", vec![fr]), "b": army("b", vec![au])}
        });
        let sc = validate(from_json_value(v).unwrap()).unwrap();
        let mut rng = crate::rng::rng_from_seed(4);
        let (mut s, _) = crate::huzzah::engine::new_game(&sc, &mut rng);
        // Page 8: the officers are placed (at the scenario's positions), then turn 1.
        while let Pending::PlaceOfficer { side } = s.pending {
            let o = sc
                .officers_of(side)
                .iter()
                .find(|o| s.officers[o.ix.index()].at.is_none())
                .unwrap();
            let c = crate::huzzah::command::Command::PlaceOfficer {
                officer: o.id.clone(),
                at: None,
            };
            s = crate::huzzah::engine::apply_with_state(&sc, &s, &c, &mut rng)
                .unwrap()
                .1;
        }
        (sc, s)
    }

    fn feature(sc: &Scenario, obs: &[f32], name: &str) -> f32 {
        let sp = spec(sc);
        let i = sp
            .features
            .iter()
            .position(|f| f == name)
            .unwrap_or_else(|| panic!("no feature {name}"));
        obs[sp.shape.iter().product::<usize>() + i]
    }

    fn cell(sc: &Scenario, obs: &[f32], channel: &str, r: usize, c: usize) -> f32 {
        let sp = spec(sc);
        let ch = sp.channels.iter().position(|x| x == channel).unwrap();
        obs[(ch * sp.shape[1] + r) * sp.shape[2] + c]
    }

    fn obs_of(sc: &Scenario, s: &State, side: Side) -> Vec<f32> {
        let mut out = vec![0f32; spec(sc).size()];
        write(sc, s, side, &mut out);
        out
    }

    #[test]
    fn exact_values_on_a_hand_built_table() {
        let (sc, s) = hand_built();
        assert_eq!(spec(&sc).shape, [14, 20, 30]);
        let l = Layout::new(&sc);
        assert_eq!((l.unit_slots, l.officer_slots, l.objectives), (1, 2, 1));
        assert_eq!(
            s.unit(UnitIx(1)).quality,
            None,
            "the cavalry's quality is not rolled"
        );
        let close = |a: f32, b: f64| (f64::from(a) - b).abs() < 1e-6;
        let a = obs_of(&sc, &s, Side::A);
        let b = obs_of(&sc, &s, Side::B);
        let f = |o: &[f32], n: &str| feature(&sc, o, n);
        // The French line: centre (300, 180) mm, facing +y (ahead of side A).
        for (name, want) in [
            ("own:unit0:exists", 1.0),
            ("own:unit0:on_table", 1.0),
            ("own:unit0:x", 0.25),
            ("own:unit0:y", 180.0 / 800.0),
            ("own:unit0:facing_sin", 0.5),
            ("own:unit0:facing_cos", 1.0),
            ("own:unit0:width", 120.0 / 1200.0),
            ("own:unit0:depth", 40.0 / 1200.0),
            ("own:unit0:front", 3.0 / 24.0),
            ("own:unit0:ranks", 1.0 / 24.0),
            ("own:unit0:line", 1.0),
            ("own:unit0:column", 0.0),
            ("own:unit0:bases", 3.0 / 24.0),
            ("own:unit0:bases_left", 1.0),
            ("own:unit0:formed", 1.0),
            ("own:unit0:quality_unknown", 0.0),
            ("own:unit0:trained", 1.0),
            ("own:unit0:expected", 1.0 - 5.0 / 11.0),
            ("own:unit0:infantry", 1.0),
            ("own:unit0:close", 1.0),
            ("own:unit0:range", 200.0 / 1200.0),
            ("own:unit0:in_contact", 0.0),
            // The Austrian cavalry from side A: centre (900, 640), facing -y.
            ("enemy:unit0:x", 0.75),
            ("enemy:unit0:y", 640.0 / 800.0),
            ("enemy:unit0:facing_sin", 0.5),
            ("enemy:unit0:facing_cos", 0.0),
            ("enemy:unit0:ranks", 2.0 / 24.0),
            ("enemy:unit0:quality_unknown", 1.0),
            ("enemy:unit0:cavalry", 1.0),
            ("enemy:unit0:range", 0.0),
            // Officers: the CinC at (100, 100), an excellent division officer.
            ("own:officer0:placed", 1.0),
            ("own:officer0:x", 100.0 / 1200.0),
            ("own:officer0:y", 100.0 / 800.0),
            ("own:officer0:cinc", 1.0),
            ("own:officer0:command_factor", 0.8),
            ("own:officer0:radius", 400.0 / 1200.0),
            ("own:officer1:division", 1.0),
            ("own:officer1:command_factor", 1.0),
            ("enemy:officer0:x", 100.0 / 1200.0),
            ("enemy:officer0:y", 100.0 / 800.0),
            // The objective, held by nobody.
            ("objective0:x", 0.5),
            ("objective0:y", 0.5),
            ("objective0:radius", 50.0 / 1200.0),
            ("objective0:points", 3.0 / 20.0),
            ("objective0:held_own", 0.0),
            ("turn", 0.25),
            ("turns_left", 0.75),
            ("own:units_on_table", 1.0),
            ("own:bases_lost", 0.0),
            ("own:skirmish_factor", 0.8),
        ] {
            assert!(
                close(f(&a, name), want),
                "side a: {name} = {}, not {want}",
                f(&a, name)
            );
        }
        // Side B sees the same from its own edge: its cavalry at (300, 160), facing ahead.
        for (name, want) in [
            ("own:unit0:x", 0.25),
            ("own:unit0:y", 160.0 / 800.0),
            ("own:unit0:facing_sin", 0.5),
            ("own:unit0:facing_cos", 1.0),
            ("own:unit0:cavalry", 1.0),
            ("enemy:unit0:x", 0.75),
            ("enemy:unit0:y", 620.0 / 800.0),
            ("enemy:unit0:facing_cos", 0.0),
            ("enemy:unit0:trained", 1.0),
            ("own:officer0:x", 1100.0 / 1200.0),
            ("own:officer0:y", 700.0 / 800.0),
            ("own:officer1:x", 1000.0 / 1200.0),
            ("own:officer1:y", 100.0 / 800.0),
            ("objective0:x", 0.5),
            ("objective0:y", 0.5),
        ] {
            assert!(
                close(f(&b, name), want),
                "side b: {name} = {}, not {want}",
                f(&b, name)
            );
        }
        // Whose decision: side A fires or orders first.
        assert_eq!(s.pending.side(), Some(Side::A));
        assert_eq!(
            (f(&a, "pending_is_own"), f(&b, "pending_is_enemy")),
            (1.0, 1.0)
        );
        assert_eq!(
            (f(&a, "player1_is_own"), f(&b, "player1_is_enemy")),
            (1.0, 1.0)
        );
        let pk = crate::huzzah::query::pending_kind(&s.pending);
        assert_eq!(f(&a, &format!("pending:{pk}")), 1.0);
        // Planes: the line covers row 4, columns 6-8 (its right edge on column 9's
        // boundary does not count); its front centre (300, 200) is on the line between
        // rows 4 and 5 (both cells).
        for c in 0..30 {
            let want = if (6..=8).contains(&c) { 1.0 } else { 0.0 };
            assert_eq!(cell(&sc, &a, "own:bases", 4, c), want, "column {c}");
        }
        assert_eq!(cell(&sc, &a, "own:bases", 3, 7), 0.0);
        assert_eq!(cell(&sc, &a, "own:front", 4, 7), 1.0);
        assert_eq!(cell(&sc, &a, "own:front", 5, 7), 1.0);
        assert_eq!(cell(&sc, &a, "own:front", 5, 8), 0.0);
        // From side B the line is at x' 840-960, y' 600-640: row 15, columns 21-23.
        for c in 20..25 {
            let want = if (21..=23).contains(&c) { 1.0 } else { 0.0 };
            assert_eq!(cell(&sc, &b, "enemy:bases", 15, c), want, "column {c}");
        }
        // The cavalry, two bases deep: x 880-920, y 600-680 → rows 15-16, columns 22.
        assert_eq!(cell(&sc, &a, "enemy:bases", 15, 22), 1.0);
        assert_eq!(cell(&sc, &a, "enemy:bases", 16, 22), 1.0);
        assert_eq!(cell(&sc, &a, "enemy:bases", 17, 22), 0.0);
        // The wood: cells 10-11 each way; the cells it only touches are not marked.
        for (r, c, want) in [(10, 10, 1.0), (11, 11, 1.0), (9, 10, 0.0), (10, 12, 0.0)] {
            assert_eq!(cell(&sc, &a, "terrain:woods", r, c), want, "({r}, {c})");
            assert_eq!(
                cell(&sc, &b, "terrain:woods", 19 - r, 29 - c),
                want,
                "b ({r}, {c})"
            );
        }
        assert_eq!(cell(&sc, &a, "terrain:hedge", 10, 10), 0.0);
        // The objective's disc (radius 50 mm round (600, 400)) meets cell (10, 15) but
        // not the corner cell (8, 13), whose nearest point is 56.6 mm away.
        assert_eq!(cell(&sc, &a, "objective", 10, 15), 1.0);
        assert_eq!(cell(&sc, &a, "objective", 9, 14), 1.0);
        assert_eq!(cell(&sc, &a, "objective", 8, 13), 0.0);
        // Officers: each side's CinC at (100, 100) mm, its division officer at (200, 700)
        // (on the line between columns 4 and 5: both cells).
        assert_eq!(cell(&sc, &a, "own:officers", 2, 2), 1.0);
        assert_eq!(cell(&sc, &a, "enemy:officers", 2, 2), 1.0);
        assert_eq!(cell(&sc, &a, "own:officers", 17, 4), 1.0);
        assert_eq!(cell(&sc, &a, "own:officers", 17, 5), 1.0);
        assert_eq!(cell(&sc, &a, "own:officers", 17, 6), 0.0);
        assert_eq!(cell(&sc, &b, "own:officers", 17, 27), 1.0);
        assert_eq!(cell(&sc, &b, "enemy:officers", 2, 24), 1.0);
        assert!((0..20).all(|r| (0..30).all(|c| cell(&sc, &a, "on_table", r, c) == 1.0)));
    }

    /// Slots of a smaller army are empty (all zero), a unit that left the table keeps
    /// no position, and the two kinds of "fired" are apart.
    #[test]
    fn empty_slots_and_units_off_the_table() {
        let m = GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 1).unwrap();
        let sc = m.scenario();
        let l = Layout::new(sc);
        assert_eq!(
            (
                sc.units_of(Side::A).len(),
                sc.units_of(Side::B).len(),
                l.unit_slots
            ),
            (4, 3, 4)
        );
        let b = observe(&m, Side::B);
        let base = spec(sc).shape.iter().product::<usize>() + l.globals;
        let slot3 = &b[base + 3 * UNIT_FIELDS.len()..base + 4 * UNIT_FIELDS.len()];
        assert!(
            slot3.iter().all(|x| *x == 0.0),
            "side b's fourth own slot is empty"
        );
        let mut s = m.state().clone();
        s.units[0].at = Whereabouts::RoutTable;
        let a = obs_of(sc, &s, Side::A);
        assert_eq!(feature(sc, &a, "own:unit0:rout_table"), 1.0);
        assert_eq!(feature(sc, &a, "own:unit0:x"), 0.0);
        assert_eq!(feature(sc, &a, "own:units_on_table"), 0.75);
        assert!(feature(sc, &a, "own:bases_lost") > 0.0);
        // Page 18's "fired at the enemy" (the Firing phase's fire) apart from page 17's
        // "fired" (any phase's).
        let mut s = m.state().clone();
        s.units[1].fired_at_enemy = true;
        let a = obs_of(sc, &s, Side::A);
        assert_eq!(feature(sc, &a, "own:unit1:fired_at_enemy"), 1.0);
        assert_eq!(feature(sc, &a, "own:unit1:fired"), 0.0);
        assert_eq!(feature(sc, &a, "own:unit0:fired_at_enemy"), 0.0);
    }
}
