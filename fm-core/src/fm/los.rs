//! Line of sight (Vimy Ridge 17.3; reusable by any game): geometric corner-to-corner
//! LOS between two hexes over a hex grid, blocked by intervening hexes a caller-supplied
//! predicate marks as blocking.
//!
//! Geometry: flat-topped hexes of circumradius 1 in vertical columns, so column `q` has
//! its centres at `x = 1.5 q` and row `r` at `y = √3 r`, plus `√3 / 2` when the layout
//! shifts that column down (y grows south, as printed maps read). Corner `i` sits at
//! angle `240° + 60° i` from the centre (on screen, clockwise from the west end of the
//! north hexside), so hexside `i`, shared with `Layout::neighbors(h)[i]`, joins corners
//! `i` and `i + 1`.
//!
//! The blocking rule (R-VR-17.3a): a segment from a corner of the observer's hex to a
//! corner of the target's is blocked by every intervening blocking hex it meets
//! anywhere between its two ends: through its inside, along one of its hexsides, or at
//! one of its corners. Hexes are closed, so a line that grazes a corner or runs along a
//! hexside has blocking terrain beside it if either hex there blocks. Its two ends do
//! not count (they are corners of the observer's and the target's hexes, which 17.3
//! disregards, and a neighbour sharing only that corner is not between the two units).
//! The line of sight exists when at least one of the 36 segments is unblocked.
//!
//! Consequence worth knowing: a blocking hex directly in line blocks. A hex whose
//! hexagon spans the whole strip between the observer and the target (any hex of the
//! same column between them, or along any of the six hex directions) meets every
//! corner-to-corner segment, which is 17.3's own example (a hill observer "cannot
//! observe past any woods hex"); a hex off to one side leaves the segments on the other
//! side clear, and two hexes whose common hexside the centre line runs along block only
//! together.
//!
//! The centre-to-centre segment is no test of its own: a hex flanking it can block it
//! and leave a corner line clear. (The other way, a clear centre line always leaves a
//! clear corner line, which the tests check up to range 10.) The shortcut taken is that
//! with no blocking hex near the line at all, nothing is tried.
//!
//! Range, night, which terrain blocks and exceptions such as peaks are the caller's: it
//! passes `blocks`. Everything here is `f64` with small tolerances: a corner is shared
//! by three hexes, and a segment that only starts or ends there must not count as
//! meeting the other two.

use crate::fm::hex::{Hex, Layout};

const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Centre-to-hexside distance of a hex of circumradius 1.
const APOTHEM: f64 = SQRT3 / 2.0;
/// Tolerance in map units. Corners lie on a lattice of half-units and multiples of
/// `√3 / 2`, so genuine crossings of a hex interior are many orders of magnitude deeper
/// than this, while rounding on a 100 x 100 map stays far below it.
const EPS: f64 = 1e-9;

/// A point in map coordinates (hex centre spacing: see `center`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// East coordinate.
    pub x: f64,
    /// South coordinate.
    pub y: f64,
}

impl Point {
    /// Builds a point from its coordinates.
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }

    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }

    fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }

    fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }
}

/// Corner offsets from the centre, in the order documented at the top of the module.
const CORNER_OFFSETS: [Point; 6] = [
    Point::new(-0.5, -APOTHEM),
    Point::new(0.5, -APOTHEM),
    Point::new(1.0, 0.0),
    Point::new(0.5, APOTHEM),
    Point::new(-0.5, APOTHEM),
    Point::new(-1.0, 0.0),
];

/// Unit normals of the three pairs of parallel hexsides: a point is inside a hex when
/// its offset from the centre projects to less than the apothem on each of them.
const SLAB_NORMALS: [Point; 3] = [
    Point::new(0.0, 1.0),
    Point::new(APOTHEM, 0.5),
    Point::new(APOTHEM, -0.5),
];

/// Valid printed columns and rows, as `Layout::neighbors` treats them.
const GRID: std::ops::Range<i32> = 0..100;

fn shifted(layout: Layout, col: i32) -> bool {
    layout.shifted(col)
}

fn center_of(layout: Layout, col: i32, row: i32) -> Point {
    let half = if shifted(layout, col) { 0.5 } else { 0.0 };
    Point::new(1.5 * col as f64, SQRT3 * (row as f64 + half))
}

/// Centre of a hex in map coordinates (flat-topped hexes of circumradius 1; x grows east
/// with the column, y grows south with the row, shifted columns half a hex lower).
///
/// Neighbouring centres are `√3` apart.
///
/// ```
/// use fm_core::{los, Hex, Layout};
/// let c = los::center(Layout::OddColumnsDown, Hex::new(1, 2));
/// assert_eq!(c.x, 1.5);
/// assert!((c.y - 2.5 * 3f64.sqrt()).abs() < 1e-12);
/// ```
pub fn center(layout: Layout, h: Hex) -> Point {
    center_of(layout, h.col as i32, h.row as i32)
}

/// The six corners of a hex: corner `i` at angle `240° + 60° i` from the centre (y
/// pointing south), so corners 0 and 1 end the north hexside and hexside `i`, shared
/// with `layout.neighbors(h)[i]`, joins corners `i` and `(i + 1) % 6`.
pub fn corners(layout: Layout, h: Hex) -> [Point; 6] {
    let c = center(layout, h);
    CORNER_OFFSETS.map(|o| c.add(o))
}

/// The parameter range `(t0, t1)` of `a + t d`, `t` in `[0, 1]`, strictly inside the hex
/// centred at `c`, or `None`. The hex is shrunk by `EPS` so that touching a corner or
/// running along a hexside yields `None`.
fn interior_span(c: Point, a: Point, d: Point) -> Option<(f64, f64)> {
    let limit = APOTHEM - EPS;
    let rel = a.sub(c);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for n in SLAB_NORMALS {
        let p0 = n.dot(rel);
        let dp = n.dot(d);
        if dp == 0.0 {
            if p0.abs() >= limit {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((-limit - p0) / dp, (limit - p0) / dp);
        t0 = t0.max(ta.min(tb));
        t1 = t1.min(ta.max(tb));
        if t0 >= t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// How near a segment's ends meeting a hex does not count (R-VR-17.3a): the ends are
/// corners of the observer's and the target's hexes, each shared with two neighbours
/// only; every other hex is at least a hexside (1) away from them.
const END: f64 = 1e-6;

/// Whether the closed hex centred at `c` (its inside, hexsides and corners, grown by
/// `EPS` against rounding) meets the segment `a + t d` somewhere more than `END` from
/// both of its ends: the test of a blocking hex (R-VR-17.3a).
fn meets_between(c: Point, a: Point, d: Point) -> bool {
    let len = d.dot(d).sqrt();
    if len <= 2.0 * END {
        return false;
    }
    let limit = APOTHEM + EPS;
    let rel = a.sub(c);
    let (mut t0, mut t1) = (END / len, 1.0 - END / len);
    for n in SLAB_NORMALS {
        let p0 = n.dot(rel);
        let dp = n.dot(d);
        if dp == 0.0 {
            if p0.abs() > limit {
                return false;
            }
            continue;
        }
        let (ta, tb) = ((-limit - p0) / dp, (limit - p0) / dp);
        t0 = t0.max(ta.min(tb));
        t1 = t1.min(ta.max(tb));
        if t0 > t1 {
            return false;
        }
    }
    true
}

fn distance_to_segment(p: Point, a: Point, d: Point) -> f64 {
    let len2 = d.dot(d);
    let t = if len2 == 0.0 {
        0.0
    } else {
        (p.sub(a).dot(d) / len2).clamp(0.0, 1.0)
    };
    let foot = Point::new(a.x + t * d.x, a.y + t * d.y);
    let off = p.sub(foot);
    off.dot(off).sqrt()
}

/// Calls `f` for every hex on the 00-99 grid whose centre is within `reach` of segment
/// `a`–`b` (a few extra beyond that are filtered here, never passed on). Walks the
/// columns the widened segment spans and, in each, only the rows near the part of the
/// segment over that column, so the cost follows the segment's length, not the map's.
fn for_each_hex_near(
    layout: Layout,
    a: Point,
    b: Point,
    reach: f64,
    mut f: impl FnMut(Hex, Point),
) {
    let d = b.sub(a);
    let (min_x, max_x) = (a.x.min(b.x), a.x.max(b.x));
    let q_lo = (((min_x - reach) / 1.5).floor() as i32).max(GRID.start);
    let q_hi = (((max_x + reach) / 1.5).ceil() as i32).min(GRID.end - 1);
    for q in q_lo..=q_hi {
        let cx = 1.5 * q as f64;
        // The y extent of the part of the segment within `reach` of this column's x.
        let (y_lo, y_hi) = if d.x.abs() <= EPS {
            (a.y.min(b.y), a.y.max(b.y))
        } else {
            let ta = ((cx - reach - a.x) / d.x).clamp(0.0, 1.0);
            let tb = ((cx + reach - a.x) / d.x).clamp(0.0, 1.0);
            let (ya, yb) = (a.y + ta * d.y, a.y + tb * d.y);
            (ya.min(yb), ya.max(yb))
        };
        let half = if shifted(layout, q) { 0.5 } else { 0.0 };
        let r_lo = (((y_lo - reach) / SQRT3 - half).floor() as i32).max(GRID.start);
        let r_hi = (((y_hi + reach) / SQRT3 - half).ceil() as i32).min(GRID.end - 1);
        for r in r_lo..=r_hi {
            let c = center_of(layout, q, r);
            if distance_to_segment(c, a, d) < reach + EPS {
                f(Hex::new(q as u8, r as u8), c);
            }
        }
    }
}

/// Hexes whose interior the segment a→b passes through, in the order the segment
/// enters them (candidates are found by search near the segment; `exists` says whether
/// a hex is on the map). Touching only a corner or running along an edge does not
/// count as passing through the interior. Only columns and rows 00-99 are considered,
/// as in `Layout::neighbors`.
pub fn hexes_crossed(layout: Layout, a: Point, b: Point, exists: &dyn Fn(Hex) -> bool) -> Vec<Hex> {
    let d = b.sub(a);
    let mut found: Vec<(f64, Hex)> = Vec::new();
    // A hex interior lies within distance 1 (the circumradius) of its centre.
    for_each_hex_near(layout, a, b, 1.0, |h, c| {
        if let Some((t0, _)) = interior_span(c, a, d) {
            if exists(h) {
                found.push((t0, h));
            }
        }
    });
    found.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    found.into_iter().map(|(_, h)| h).collect()
}

/// The intervening blocking terrain near a LOS, gathered once so that each of the up to
/// 36 trial segments is only tested against it.
struct Obstacles {
    /// Centres of the intervening, on-map, blocking hexes, nearest the centre line
    /// first.
    hexes: Vec<Point>,
}

impl Obstacles {
    /// Blocking terrain among hexes with centres within `reach` of segment `a`–`b`.
    fn gather(
        layout: Layout,
        a: Point,
        b: Point,
        reach: f64,
        (from, to): (Hex, Hex),
        exists: &dyn Fn(Hex) -> bool,
        blocks: &dyn Fn(Hex) -> bool,
    ) -> Obstacles {
        let mut hexes: Vec<Point> = Vec::new();
        for_each_hex_near(layout, a, b, reach, |h, c| {
            if h != from && h != to && exists(h) && blocks(h) {
                hexes.push(c);
            }
        });
        // Hexes nearest the centre line stop the most trial segments: test them first.
        let d = b.sub(a);
        hexes.sort_by(|p, q| d.cross(p.sub(a)).abs().total_cmp(&d.cross(q.sub(a)).abs()));
        Obstacles { hexes }
    }

    fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    fn clear(&self, a: Point, b: Point) -> bool {
        let d = b.sub(a);
        let len = d.dot(d).sqrt();
        // A hex whose centre is more than 1 (its circumradius) from the segment's line
        // cannot meet it: one cross product spares the clipping for most of them.
        let far = len * (1.0 + END);
        self.hexes
            .iter()
            .all(|&c| d.cross(c.sub(a)).abs() > far || !meets_between(c, a, d))
    }
}

/// Whether the single segment a→b, drawn from hex `from` to hex `to`, is clear: it
/// meets no intervening (neither `from` nor `to`), on-map hex for which `blocks` is
/// true anywhere between its ends (inside, along a hexside or at a corner; see the
/// module docs). Useful to draw or explain one sight line; `line_of_sight` tries many.
pub fn segment_clear(
    layout: Layout,
    a: Point,
    b: Point,
    from: Hex,
    to: Hex,
    exists: &dyn Fn(Hex) -> bool,
    blocks: &dyn Fn(Hex) -> bool,
) -> bool {
    // Every hex the segment meets has its centre within 1 of it.
    Obstacles::gather(layout, a, b, 1.0 + END, (from, to), exists, blocks).clear(a, b)
}

/// A clear sight line from `from` to `to`, if there is one: the first clear segment
/// found among the 36 corner-to-corner ones (see `line_of_sight` for the blocking
/// rule). For the same or adjacent hexes, which always see each other, and whenever
/// nothing blocks near the line, the centre-to-centre segment is returned.
pub fn sight_line(
    layout: Layout,
    from: Hex,
    to: Hex,
    exists: &dyn Fn(Hex) -> bool,
    blocks: &dyn Fn(Hex) -> bool,
) -> Option<(Point, Point)> {
    let (ca, cb) = (center(layout, from), center(layout, to));
    if from == to || layout.adjacent(from, to) {
        return Some((ca, cb));
    }
    // Every corner-to-corner segment lies in the convex hull of the two hexes, hence
    // within 1 of the centre line, and any hex that meets it has its centre within a
    // further 1.
    let obstacles = Obstacles::gather(layout, ca, cb, 2.0 + END, (from, to), exists, blocks);
    if obstacles.is_empty() {
        return Some((ca, cb));
    }
    let (ka, kb) = (corners(layout, from), corners(layout, to));
    // Same-index corners first: those segments are the centre line shifted sideways,
    // the likeliest to slip past terrain beside it.
    let pairs = (0..6)
        .map(|i| (i, i))
        .chain((0..6).flat_map(|i| (0..6).filter(move |&j| j != i).map(move |j| (i, j))));
    pairs
        .map(|(i, j)| (ka[i], kb[j]))
        .find(|&(a, b)| obstacles.clear(a, b))
}

/// Whether `from` sees `to`: true if at least one of the 36 corner-to-corner segments
/// is clear. A segment is blocked if it meets an intervening hex (not `from`, not
/// `to`) for which `blocks` is true anywhere between its ends: through its inside,
/// along a hexside or at a corner (module docs, R-VR-17.3a). Adjacent hexes and the
/// same hex always see each other. `exists` says whether a hex is on the map (off-map
/// hexes never block).
///
/// Cost: `blocks` is called once for each on-map hex near the line (centre within 2 of
/// the centre-to-centre segment); segments are then tried against the blocking ones
/// only, returning at the first clear one.
pub fn line_of_sight(
    layout: Layout,
    from: Hex,
    to: Hex,
    exists: &dyn Fn(Hex) -> bool,
    blocks: &dyn Fn(Hex) -> bool,
) -> bool {
    sight_line(layout, from, to, exists, blocks).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `a + t d` runs along the hexside `p`–`q` for a positive length.
    fn runs_along(a: Point, d: Point, p: Point, q: Point) -> bool {
        let len2 = d.dot(d);
        if len2 == 0.0 {
            return false;
        }
        let len = len2.sqrt();
        let (ap, aq) = (p.sub(a), q.sub(a));
        if d.cross(ap).abs() > EPS * len || d.cross(aq).abs() > EPS * len {
            return false;
        }
        let (tp, tq) = (d.dot(ap) / len2, d.dot(aq) / len2);
        let lo = tp.min(tq).max(0.0);
        let hi = tp.max(tq).min(1.0);
        (hi - lo) * len > EPS
    }

    // Sketches below use OddColumnsDown unless they say otherwise: odd columns sit
    // half a hex lower, so "row 5" zig-zags down and up as it crosses the columns.
    const ODD: Layout = Layout::OddColumnsDown;
    const EVEN: Layout = Layout::EvenColumnsDown;

    fn hx(s: &str) -> Hex {
        s.parse().unwrap()
    }

    fn hexes(ids: &[&str]) -> Vec<Hex> {
        ids.iter().map(|s| hx(s)).collect()
    }

    fn ids(hexes: &[Hex]) -> Vec<String> {
        hexes.iter().map(Hex::to_string).collect()
    }

    fn on_map(_: Hex) -> bool {
        true
    }

    /// LOS on a map where every hex exists and exactly `blocking` block.
    fn sees(layout: Layout, from: &str, to: &str, blocking: &[&str]) -> bool {
        let blocking = hexes(blocking);
        line_of_sight(layout, hx(from), hx(to), &on_map, &|h| {
            blocking.contains(&h)
        })
    }

    fn close(p: Point, q: Point) -> bool {
        (p.x - q.x).abs() < 1e-9 && (p.y - q.y).abs() < 1e-9
    }

    fn dist(p: Point, q: Point) -> f64 {
        ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt()
    }

    /// Deterministic pseudo-random numbers (splitmix64), so property cases replay.
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A terrain map where each hex blocks with probability `percent`, as a pure
    /// function of the hex so it can be re-queried and shifted between layouts.
    fn random_terrain(seed: u64, percent: u64) -> impl Fn(i32, i32) -> bool {
        move |c, r| {
            let mut m =
                Mix(seed ^ ((c as u64) << 32 | r as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
            m.below(100) < percent
        }
    }

    /// Slow restatement of the rule, sharing none of the clipping under test: a hex
    /// meets a segment between its ends when the segment passes through its interior
    /// (`hexes_crossed`), runs along one of its hexsides (`runs_along`), or passes
    /// through one of its corners away from the segment's ends. All 36 segments are
    /// tried against every hex of the rectangle around the two hexes.
    fn reference_los(layout: Layout, from: Hex, to: Hex, blocks: &dyn Fn(Hex) -> bool) -> bool {
        if from == to || layout.adjacent(from, to) {
            return true;
        }
        let blocker = |h: Hex| h != from && h != to && blocks(h);
        let segment_clear = |a: Point, b: Point| {
            let d = b.sub(a);
            let crossed = hexes_crossed(layout, a, b, &on_map);
            let (lo_c, hi_c) = (
                from.col.min(to.col).saturating_sub(2),
                from.col.max(to.col) + 2,
            );
            let (lo_r, hi_r) = (
                from.row.min(to.row).saturating_sub(2),
                from.row.max(to.row) + 2,
            );
            for c in lo_c..=hi_c {
                for r in lo_r..=hi_r {
                    let h = Hex::new(c, r);
                    if !blocker(h) {
                        continue;
                    }
                    if crossed.contains(&h) {
                        return false;
                    }
                    let k = corners(layout, h);
                    for i in 0..6 {
                        let (p, q) = (k[i], k[(i + 1) % 6]);
                        if runs_along(a, d, p, q) {
                            return false;
                        }
                        let on_segment = distance_to_segment(p, a, d) < 1e-9;
                        if on_segment && dist(p, a) > 1e-6 && dist(p, b) > 1e-6 {
                            return false;
                        }
                    }
                }
            }
            true
        };
        let (ka, kb) = (corners(layout, from), corners(layout, to));
        ka.iter().any(|&a| kb.iter().any(|&b| segment_clear(a, b)))
    }

    #[test]
    fn centres_and_corners_of_origin_hexes() {
        let a = APOTHEM;
        assert_eq!(center(ODD, hx("0000")), Point::new(0.0, 0.0));
        // Odd column 01 sits half a hex (one apothem) lower than column 00.
        assert!(close(center(ODD, hx("0100")), Point::new(1.5, a)));
        assert!(close(center(ODD, hx("0201")), Point::new(3.0, 2.0 * a)));
        assert!(close(center(EVEN, hx("0000")), Point::new(0.0, a)));
        assert!(close(center(EVEN, hx("0100")), Point::new(1.5, 0.0)));
        let expected = [
            (-0.5, -a),
            (0.5, -a),
            (1.0, 0.0),
            (0.5, a),
            (-0.5, a),
            (-1.0, 0.0),
        ];
        for (k, (x, y)) in corners(ODD, hx("0000")).into_iter().zip(expected) {
            assert!(close(k, Point::new(x, y)), "{k:?} vs ({x}, {y})");
        }
    }

    #[test]
    fn neighbour_centres_are_sqrt3_apart_in_the_neighbors_directions() {
        for layout in [ODD, EVEN] {
            for c in 0..8 {
                for r in 0..8 {
                    let h = Hex::new(c, r);
                    let ch = center(layout, h);
                    for (i, n) in layout.neighbors(h).into_iter().enumerate() {
                        let Some(n) = n else { continue };
                        let cn = center(layout, n);
                        assert!((dist(ch, cn) - SQRT3).abs() < 1e-9, "{layout:?} {h} {n}");
                        // neighbors() lists N first, then clockwise: 270° + 60° i, y south.
                        let angle = (270.0 + 60.0 * i as f64).to_radians();
                        let want =
                            Point::new(ch.x + SQRT3 * angle.cos(), ch.y + SQRT3 * angle.sin());
                        assert!(close(cn, want), "{layout:?} {h} neighbour {i} = {n}");
                    }
                    // And nothing else is that close: geometry and adjacency agree.
                    for c2 in 0..8 {
                        for r2 in 0..8 {
                            let o = Hex::new(c2, r2);
                            if o != h && !layout.adjacent(h, o) {
                                assert!(dist(ch, center(layout, o)) > 2.9, "{layout:?} {h} {o}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_share_exactly_the_two_corners_of_their_hexside() {
        for layout in [ODD, EVEN] {
            for c in 1..7 {
                for r in 1..7 {
                    let h = Hex::new(c, r);
                    let mine = corners(layout, h);
                    for c2 in 0..8 {
                        for r2 in 0..8 {
                            let o = Hex::new(c2, r2);
                            if o == h {
                                continue;
                            }
                            let theirs = corners(layout, o);
                            let shared: Vec<usize> = (0..6)
                                .filter(|&i| theirs.iter().any(|&q| close(mine[i], q)))
                                .collect();
                            match layout.neighbors(h).iter().position(|&n| n == Some(o)) {
                                Some(i) => assert_eq!(shared, {
                                    let mut v = vec![i, (i + 1) % 6];
                                    v.sort();
                                    v
                                }),
                                None => assert!(shared.is_empty(), "{layout:?} {h} {o} {shared:?}"),
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn hexes_crossed_down_a_column_centre_line() {
        // 0302 to 0306 centre to centre: straight down column 03, crossing each hexside
        // at its midpoint; columns 02 and 04 reach only to x = 4.0 and 5.0, not 4.5.
        let v = hexes_crossed(
            ODD,
            center(ODD, hx("0302")),
            center(ODD, hx("0306")),
            &on_map,
        );
        assert_eq!(ids(&v), ["0302", "0303", "0304", "0305", "0306"]);
    }

    #[test]
    fn hexes_crossed_ignores_corner_touches_and_hexside_runs() {
        // The line x = 1 from the east corner of 0000 to the east corner of 0002 touches
        // the east corners of column 00 but cuts through the shifted column 01.
        let a = corners(ODD, hx("0000"))[2];
        let b = corners(ODD, hx("0002"))[2];
        assert_eq!(ids(&hexes_crossed(ODD, a, b, &on_map)), ["0100", "0101"]);
        // A segment that is exactly a hexside crosses nothing.
        let k = corners(ODD, hx("0202"));
        assert!(hexes_crossed(ODD, k[0], k[1], &on_map).is_empty());
        // 0201 to 0401 runs along the hexside between 0300 and 0301:
        //   0201 | 0300/0301 spine | 0401
        let v = hexes_crossed(
            ODD,
            center(ODD, hx("0201")),
            center(ODD, hx("0401")),
            &on_map,
        );
        assert_eq!(ids(&v), ["0201", "0401"]);
    }

    #[test]
    fn hexes_crossed_long_line_is_a_connected_chain_in_order() {
        // 0102 (1.5, 2.5√3) to 0908 (13.5, 8.5√3): distance 10 through no corner, so
        // exactly 11 hexes, each sharing a hexside with the next.
        let (from, to) = (hx("0102"), hx("0908"));
        let v = hexes_crossed(ODD, center(ODD, from), center(ODD, to), &on_map);
        assert_eq!(
            ids(&v),
            [
                "0102", "0203", "0303", "0304", "0405", "0505", "0606", "0706", "0707", "0808",
                "0908"
            ]
        );
        assert_eq!(v.len() as u32, ODD.distance(from, to) + 1);
        for w in v.windows(2) {
            assert!(ODD.adjacent(w[0], w[1]), "{} {}", w[0], w[1]);
        }
        // The chain leaves `from` through one of its neighbours and reaches `to` from one.
        assert!(ODD.adjacent(from, v[1]) && ODD.adjacent(to, v[v.len() - 2]));
        // Reversed, the same hexes in reverse order.
        let mut back = hexes_crossed(ODD, center(ODD, to), center(ODD, from), &on_map);
        back.reverse();
        assert_eq!(back, v);
    }

    #[test]
    fn hexes_crossed_leaves_out_hexes_off_the_map() {
        let (a, b) = (center(ODD, hx("0102")), center(ODD, hx("0908")));
        let v = hexes_crossed(ODD, a, b, &|h| h.col != 3);
        assert_eq!(
            ids(&v),
            ["0102", "0203", "0405", "0505", "0606", "0706", "0707", "0808", "0908"]
        );
        // West of column 00 there are no hexes at all: only 0000 and 0100 remain.
        let v = hexes_crossed(ODD, Point::new(-5.0, 0.5), Point::new(1.5, 0.5), &on_map);
        assert_eq!(ids(&v), ["0000", "0100"]);
    }

    #[test]
    fn same_and_adjacent_hexes_always_see() {
        let everything = |_| true;
        let h = hx("0505");
        assert!(line_of_sight(ODD, h, h, &on_map, &everything));
        for n in ODD.neighbors(h).into_iter().flatten() {
            assert!(line_of_sight(ODD, h, n, &on_map, &everything), "{n}");
        }
        // The same predicate does block at distance 2, so it was not ignored.
        assert!(!line_of_sight(ODD, h, hx("0507"), &on_map, &everything));
    }

    #[test]
    fn column_line_blocked_by_a_single_hex_in_line() {
        //   0402 observer    x = 5 . . x = 7
        //   0403             |   0403   |
        //   0404 woods       |   0404   |    at its middle row 0404 spans x = 5..7, the
        //   0405             |   0405   |    whole strip the corner lines run in: the
        //   0406 target                      outermost ones graze its corners
        for between in ["0403", "0404", "0405"] {
            assert!(!sees(ODD, "0402", "0406", &[between]), "{between}");
        }
        // Vimy Ridge 17.3's example, further down a column: 1004 to 1009 past 1006.
        assert!(!sees(ODD, "1004", "1009", &["1006"]));
        // Beside the line, the corner lines on the other side stay clear.
        assert!(sees(ODD, "1004", "1009", &["1106"]));
        assert!(sees(ODD, "1004", "1009", &["0906"]));
    }

    #[test]
    fn column_line_blocked_by_a_wall_across_it_and_not_by_any_gap() {
        //        0303  0403  0503
        //   0304       0404       0504     <- wall 0304-0404-0504 (odd columns lower)
        //        0305  0405  0505
        let wall = ["0304", "0404", "0504"];
        assert!(!sees(ODD, "0402", "0406", &wall));
        assert!(!sees(ODD, "0406", "0402", &wall));
        // Without 0404 (the hex in line) a corner line crosses the column inside its
        // strip, clear of 0304 and 0504; without either flank 0404 still blocks.
        assert!(sees(ODD, "0402", "0406", &["0304", "0504"]));
        assert!(!sees(ODD, "0402", "0406", &["0404", "0504"]));
        assert!(!sees(ODD, "0402", "0406", &["0304", "0404"]));
    }

    #[test]
    fn column_line_clear_when_blockers_are_off_the_line() {
        // Columns 02 and 06 are wholly blocked; every 0402-0406 line keeps to x in 5..7.
        let far: Vec<String> = (0..10)
            .flat_map(|r| [format!("02{r:02}"), format!("06{r:02}")])
            .collect();
        let far: Vec<&str> = far.iter().map(String::as_str).collect();
        assert!(sees(ODD, "0402", "0406", &far));
        let mut with_wall = far.clone();
        with_wall.extend(["0304", "0404", "0504"]);
        assert!(!sees(ODD, "0402", "0406", &with_wall));
    }

    #[test]
    fn row_zigzag_line_needs_both_hexes_of_a_column_to_block() {
        // Row 05 from 0205 to 0605 zig-zags: 0305 and 0505 lie half a hex lower.
        //        0304        0504
        //   0205       0405        0605    the centre line runs along the 0304/0305 and
        //        0305        0505          0504/0505 hexsides and through 0405
        assert!(!sees(ODD, "0205", "0605", &["0304", "0305"]));
        assert!(!sees(ODD, "0205", "0605", &["0504", "0505"]));
        // One of each pair: the centre line, along both pairs' hexsides, is blocked,
        // but a corner line passes on the open side of each.
        assert!(sees(ODD, "0205", "0605", &["0304", "0505"]));
        assert!(sees(ODD, "0205", "0605", &["0305", "0505"]));
        // Both upper ones: the line along the bottom corners passes under them.
        assert!(sees(ODD, "0205", "0605", &["0304", "0504"]));
        // 0405 is in line (the centre line runs through its centre): it blocks alone.
        assert!(!sees(ODD, "0205", "0605", &["0405"]));
    }

    #[test]
    fn hexside_run_is_blocked_by_either_hex_and_lines_pass_the_other_side() {
        //   0201  [0300 / 0301]  0401   distance 2, two intervening hexes
        let (from, to) = (hx("0201"), hx("0401"));
        assert!(sees(ODD, "0201", "0401", &["0300"]));
        assert!(sees(ODD, "0201", "0401", &["0301"]));
        assert!(!sees(ODD, "0201", "0401", &["0300", "0301"]));
        // The centre line enters neither interior (see hexes_crossed) but runs along
        // their common hexside: blocking terrain on either side of it blocks it.
        let (a, b) = (center(ODD, from), center(ODD, to));
        assert!(hexes_crossed(ODD, a, b, &on_map) == hexes(&["0201", "0401"]));
        assert!(!segment_clear(ODD, a, b, from, to, &on_map, &|h| h == hx("0300")));
        assert!(!segment_clear(ODD, a, b, from, to, &on_map, &|h| h == hx("0301")));
        assert!(segment_clear(ODD, a, b, from, to, &on_map, &|h| h == hx("0200")));
    }

    #[test]
    fn distance_two_the_hex_in_line_blocks_and_its_flanks_do_not() {
        //   0402            observer
        //   0302 0403 0502   0403 is in line; 0302 and 0502 only flank it
        //   0404            target
        assert!(!sees(ODD, "0402", "0404", &["0403"]));
        // Along a hex direction too: 0402 -> 0502 -> 0603 (south-east).
        assert!(!sees(ODD, "0402", "0603", &["0502"]));
        // The flanks touch only the lines from the observer's corners they share.
        assert!(sees(ODD, "0402", "0404", &["0302", "0502"]));
    }

    #[test]
    fn a_single_blocking_hex_blocks_exactly_what_lies_behind_it_in_line() {
        // Every target up to 10 hexes from 1010, every single blocking hex: a hex
        // centred on the centre line between them blocks; a hex that blocks lies
        // between them (on a shortest hex path) and meets the centre line.
        let from = hx("1010");
        let (ca, mut blocked, mut in_line) = (center(ODD, from), 0, 0);
        for c in 0..21 {
            for r in 0..21 {
                let to = Hex::new(c, r);
                let range = ODD.distance(from, to);
                if !(2..=10).contains(&range) {
                    continue;
                }
                let d = center(ODD, to).sub(ca);
                for c2 in 0..21 {
                    for r2 in 0..21 {
                        let w = Hex::new(c2, r2);
                        if w == from || w == to {
                            continue;
                        }
                        let between = ODD.distance(from, w) + ODD.distance(w, to) == range;
                        let centred = d.cross(center(ODD, w).sub(ca)).abs() < 1e-9 && between;
                        let sees = line_of_sight(ODD, from, to, &on_map, &|h| h == w);
                        if centred {
                            in_line += 1;
                            assert!(!sees, "{to}: {w} is in line");
                        }
                        if !sees {
                            blocked += 1;
                            assert!(between && meets_between(center(ODD, w), ca, d), "{to} {w}");
                        }
                    }
                }
            }
        }
        assert!(
            in_line > 100 && blocked >= in_line,
            "{in_line} in line, {blocked} blocked"
        );
        // Two off the line can block together: the pair flanking a hexside run.
        assert!(sees(ODD, "1010", "1210", &["1109"]));
        assert!(!sees(ODD, "1010", "1210", &["1109", "1110"]));
    }

    #[test]
    fn blockers_adjacent_to_observer_or_target_off_every_line_do_not_block() {
        // Behind the observer (N, NE, NW of 0402) and behind the target (S, SE, SW of
        // 0406): every corner line leaves 0402 southwards and enters 0406 from the north.
        let behind = ["0401", "0501", "0301", "0407", "0506", "0306"];
        assert!(sees(ODD, "0402", "0406", &behind));
        // Beside the line they do count: 0502 and 0302 flank the first step.
        let mut flanked = behind.to_vec();
        flanked.extend(["0302", "0403", "0502"]);
        assert!(!sees(ODD, "0402", "0406", &flanked));
    }

    #[test]
    fn observer_and_target_hexes_never_block() {
        let (from, to) = (hx("0402"), hx("0406"));
        let ends = |h: Hex| h == from || h == to;
        assert!(line_of_sight(ODD, from, to, &on_map, &ends));
        // From the observer's north-west corner to the target's south-east corner the
        // segment crosses both their interiors, yet only other hexes can block it.
        let (a, b) = (corners(ODD, from)[0], corners(ODD, to)[3]);
        let crossed = hexes_crossed(ODD, a, b, &on_map);
        assert_eq!(crossed.first(), Some(&from));
        assert_eq!(crossed.last(), Some(&to));
        assert!(segment_clear(ODD, a, b, from, to, &on_map, &ends));
        // The same segment, charged to other end hexes, is blocked by 0402 and 0406.
        assert!(!segment_clear(
            ODD,
            a,
            b,
            hx("0401"),
            hx("0407"),
            &on_map,
            &ends
        ));
        // Everything but the ends and the corridor between them blocks: still seen.
        let open = hexes(&["0403", "0404", "0405"]);
        let walls = |h: Hex| !open.contains(&h);
        assert!(line_of_sight(ODD, from, to, &on_map, &walls));
        assert!(!line_of_sight(ODD, from, to, &on_map, &|h| walls(h) || h == hx("0404")));
    }

    #[test]
    fn off_map_hexes_never_block() {
        let wall = hexes(&["0304", "0404", "0504"]);
        let blocks = |h: Hex| wall.contains(&h);
        let (from, to) = (hx("0402"), hx("0406"));
        assert!(!line_of_sight(ODD, from, to, &on_map, &blocks));
        assert!(line_of_sight(ODD, from, to, &|h| h != hx("0404"), &blocks));
    }

    #[test]
    fn even_columns_down_mirrors_odd_columns_down_one_column_over() {
        // Shifting every column by one swaps which columns sit lower, so each
        // OddColumnsDown case reappears in EvenColumnsDown one column to the east.
        assert!(!sees(EVEN, "0305", "0705", &["0404", "0405"]));
        assert!(sees(EVEN, "0305", "0705", &["0404", "0605"]));
        assert!(!sees(EVEN, "0502", "0506", &["0404", "0504", "0604"]));
        assert!(sees(EVEN, "0502", "0506", &["0404", "0604"]));
        let mut rng = Mix(17);
        let (mut seen, mut blocked) = (0, 0);
        for _ in 0..400 {
            let terrain = random_terrain(rng.next(), rng.below(60));
            let from = Hex::new(5 + rng.below(6) as u8, 5 + rng.below(6) as u8);
            let to = Hex::new(3 + rng.below(10) as u8, 3 + rng.below(10) as u8);
            let odd = line_of_sight(ODD, from, to, &on_map, &|h| {
                terrain(h.col as i32, h.row as i32)
            });
            let east = |h: Hex| Hex::new(h.col + 1, h.row);
            let even = line_of_sight(EVEN, east(from), east(to), &on_map, &|h| {
                terrain(h.col as i32 - 1, h.row as i32)
            });
            assert_eq!(odd, even, "{from} {to}");
            if odd {
                seen += 1;
            } else {
                blocked += 1;
            }
        }
        assert!(seen > 50 && blocked > 50, "{seen} seen, {blocked} blocked");
    }

    #[test]
    fn matches_slow_reference_and_is_symmetric() {
        let mut rng = Mix(2024);
        let (mut seen, mut blocked) = (0, 0);
        for i in 0..600 {
            let layout = if i % 2 == 0 { ODD } else { EVEN };
            let terrain = random_terrain(rng.next(), rng.below(70));
            let blocks = |h: Hex| terrain(h.col as i32, h.row as i32);
            let from = Hex::new(4 + rng.below(8) as u8, 4 + rng.below(8) as u8);
            let to = Hex::new(2 + rng.below(12) as u8, 2 + rng.below(12) as u8);
            let fast = line_of_sight(layout, from, to, &on_map, &blocks);
            assert_eq!(
                fast,
                reference_los(layout, from, to, &blocks),
                "{layout:?} {from} {to}"
            );
            assert_eq!(
                fast,
                line_of_sight(layout, to, from, &on_map, &blocks),
                "{from} {to}"
            );
            if fast {
                seen += 1;
            } else {
                blocked += 1;
            }
        }
        assert!(
            seen > 100 && blocked > 100,
            "{seen} seen, {blocked} blocked"
        );
    }

    #[test]
    fn a_clear_centre_line_leaves_a_clear_corner_line() {
        // With hexes closed, the corner lines need no more room than the centre line:
        // wall in everything the centre line does not meet, for every target up to 10
        // hexes from an observer of either column parity in either layout, and a
        // corner line still gets through. (Not the other way round: a hex flanking the
        // centre line blocks it but not every corner line; see the zig-zag row.)
        for layout in [ODD, EVEN] {
            for from in [hx("2020"), hx("2120")] {
                let a = center(layout, from);
                for c in 10..32 {
                    for r in 10..31 {
                        let to = Hex::new(c, r);
                        if !(2..=10).contains(&layout.distance(from, to)) {
                            continue;
                        }
                        let b = center(layout, to);
                        let mut corridor = vec![from, to];
                        for_each_hex_near(layout, a, b, 1.0 + END, |h, c| {
                            if meets_between(c, a, b.sub(a)) && !corridor.contains(&h) {
                                corridor.push(h);
                            }
                        });
                        let outside = |h: Hex| !corridor.contains(&h);
                        assert!(segment_clear(layout, a, b, from, to, &on_map, &outside));
                        assert!(
                            line_of_sight(layout, from, to, &on_map, &outside),
                            "{from} {to}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sight_line_is_a_clear_corner_pair() {
        let (from, to) = (hx("0205"), hx("0605"));
        // 0304 flanks the centre line (which runs along its south hexside): a corner
        // line below it is found.
        let woods = hexes(&["0304"]);
        let blocks = |h: Hex| woods.contains(&h);
        let (a, b) = sight_line(ODD, from, to, &on_map, &blocks).unwrap();
        assert!(corners(ODD, from).contains(&a) && corners(ODD, to).contains(&b));
        assert!(segment_clear(ODD, a, b, from, to, &on_map, &blocks));
        assert!(!segment_clear(
            ODD,
            center(ODD, from),
            center(ODD, to),
            from,
            to,
            &on_map,
            &blocks
        ));
        let wall = hexes(&["0304", "0305"]);
        assert_eq!(
            sight_line(ODD, from, to, &on_map, &|h| wall.contains(&h)),
            None
        );
        // Nothing in the way: the centre line itself.
        let open = sight_line(ODD, from, to, &on_map, &|_| false);
        assert_eq!(open, Some((center(ODD, from), center(ODD, to))));
    }
}

/// Lines of sight depend on the map alone, so a scenario keeps what each observer hex
/// sees once it has been asked (Vimy Ridge 17.3 observation asks for the same lines at
/// every artillery listing): per observer, the hexes seen as a bit set, computed on
/// first use. Reads after that take no lock.
#[derive(Clone, Debug, Default)]
pub(crate) struct SightCache {
    from: Vec<std::sync::OnceLock<Vec<u64>>>,
}

impl SightCache {
    /// A cache for a map of `hexes` hexes.
    pub(crate) fn new(hexes: usize) -> SightCache {
        SightCache {
            from: (0..hexes).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// Whether observer hex index `o` sees hex index `t`: bit `t` of the set
    /// `compute` returns for `o` (every hex it sees, as bits by hex index), computed
    /// the first time `o` is asked about. `None` for an index off the map.
    pub(crate) fn sees(&self, o: u16, t: u16, compute: impl FnOnce() -> Vec<u64>) -> Option<bool> {
        let bits = self.from.get(o as usize)?.get_or_init(compute);
        Some(
            bits.get(t as usize / 64)
                .is_some_and(|w| w & (1 << (t % 64)) != 0),
        )
    }
}
