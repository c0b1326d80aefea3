//! The exact integer primitives the rest of the geometry is built on (private to it):
//! vectors as `i128` pairs, orientation, segment and polygon predicates decided exactly,
//! separating axes, the convex hull, and rounding division; every intermediate saturates
//! instead of overflowing.

use super::position::{Len, Point};

/// `n / d` rounded to nearest, ties away from zero (`d > 0`).
pub(super) fn round_div(n: i128, d: i128) -> i128 {
    let h = d / 2;
    if n >= 0 {
        n.saturating_add(h) / d
    } else {
        -(n.saturating_neg().saturating_add(h) / d)
    }
}

pub(super) fn sat64(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

pub(super) type V = (i128, i128);

pub(super) fn pv(p: Point) -> V {
    (i128::from(p.x.0), i128::from(p.y.0))
}

pub(super) fn vp(v: V) -> Point {
    Point::new(Len(sat64(v.0)), Len(sat64(v.1)))
}

pub(super) fn vsub(a: V, b: V) -> V {
    (a.0.saturating_sub(b.0), a.1.saturating_sub(b.1))
}

pub(super) fn cross(a: V, b: V) -> i128 {
    a.0.saturating_mul(b.1)
        .saturating_sub(a.1.saturating_mul(b.0))
}

pub(super) fn dot(a: V, b: V) -> i128 {
    a.0.saturating_mul(b.0)
        .saturating_add(a.1.saturating_mul(b.1))
}

/// Twice the signed area of the triangle a, b, c: > 0 when c is left of a→b.
pub(super) fn orient(a: V, b: V, c: V) -> i128 {
    // Table coordinates are millimetres: under 2^30 the differences stay under 2^31
    // and the products under 2^62, exact in `i64` (the saturating path never
    // saturates there, so both give the same value).
    const LIMIT: u128 = 1 << 30;
    let small = |v: V| v.0.unsigned_abs() < LIMIT && v.1.unsigned_abs() < LIMIT;
    if small(a) && small(b) && small(c) {
        let (ax, ay) = (a.0 as i64, a.1 as i64);
        let (ux, uy) = (b.0 as i64 - ax, b.1 as i64 - ay);
        let (vx, vy) = (c.0 as i64 - ax, c.1 as i64 - ay);
        return i128::from(ux * vy - uy * vx);
    }
    cross(vsub(b, a), vsub(c, a))
}

pub(super) fn perp(a: V) -> V {
    (a.1.saturating_neg(), a.0)
}

fn sq(x: i128) -> u128 {
    let a = x.unsigned_abs();
    a.saturating_mul(a)
}

pub(super) fn norm2(a: V) -> u128 {
    sq(a.0).saturating_add(sq(a.1))
}

pub(super) fn u2i(x: u128) -> i128 {
    i128::try_from(x).unwrap_or(i128::MAX)
}

pub(super) fn len_of(x: u64) -> Len {
    Len(i64::try_from(x).unwrap_or(i64::MAX))
}

/// p lies on the closed segment a-b.
fn on_seg(a: V, b: V, p: V) -> bool {
    orient(a, b, p) == 0
        && a.0.min(b.0) <= p.0
        && p.0 <= a.0.max(b.0)
        && a.1.min(b.1) <= p.1
        && p.1 <= a.1.max(b.1)
}

/// The closed segments a-b and c-d share a point.
pub(super) fn segs_meet(a: V, b: V, c: V, d: V) -> bool {
    let d1 = orient(c, d, a).signum();
    let d2 = orient(c, d, b).signum();
    let d3 = orient(a, b, c).signum();
    let d4 = orient(a, b, d).signum();
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && on_seg(c, d, a))
        || (d2 == 0 && on_seg(c, d, b))
        || (d3 == 0 && on_seg(a, b, c))
        || (d4 == 0 && on_seg(a, b, d))
}

/// Floor of the squared distance from p to the closed segment a-b (exact).
pub(super) fn floor_sq_point_seg(p: V, a: V, b: V) -> u128 {
    let ab = vsub(b, a);
    let ap = vsub(p, a);
    let l2 = norm2(ab);
    if l2 == 0 {
        return norm2(ap);
    }
    let t = dot(ap, ab);
    if t <= 0 {
        return norm2(ap);
    }
    if t.unsigned_abs() >= l2 {
        return norm2(vsub(p, b));
    }
    // Perpendicular foot inside the segment: |cross|² / |ab|² (in `u64` where it
    // fits: the same quotient, without a 128-bit division).
    let c = cross(ab, ap).unsigned_abs();
    if c < 1 << 32 && l2 <= u128::from(u64::MAX) {
        return u128::from((c as u64 * c as u64) / l2 as u64);
    }
    c.saturating_mul(c) / l2
}

/// Floor of the squared distance between two closed segments.
pub(super) fn floor_sq_seg_seg(a: V, b: V, c: V, d: V) -> u128 {
    if segs_meet(a, b, c, d) {
        return 0;
    }
    floor_sq_point_seg(a, c, d)
        .min(floor_sq_point_seg(b, c, d))
        .min(floor_sq_point_seg(c, a, b))
        .min(floor_sq_point_seg(d, a, b))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Loc {
    Outside,
    Boundary,
    Inside,
}

/// Where p is relative to the closed polygon `poly` (crossing number, exact).
pub(super) fn classify(poly: &[V], p: V) -> Loc {
    let n = poly.len();
    if n == 0 {
        return Loc::Outside;
    }
    let mut inside = false;
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        if on_seg(a, b, p) {
            return Loc::Boundary;
        }
        if (a.1 > p.1) != (b.1 > p.1) {
            // The edge crosses the horizontal through p; it does so right of p iff the
            // orientation agrees with the edge's vertical direction.
            let c = orient(a, b, p);
            if (c > 0) == (b.1 > a.1) {
                inside = !inside;
            }
        }
    }
    if inside {
        Loc::Inside
    } else {
        Loc::Outside
    }
}

pub(super) fn area2_v(poly: &[V]) -> i128 {
    let n = poly.len();
    let mut s: i128 = 0;
    for i in 0..n {
        s = s.saturating_add(cross(poly[i], poly[(i + 1) % n]));
    }
    s
}

/// The polygon without repeated consecutive vertices (cyclically).
pub(super) fn clean(pts: impl IntoIterator<Item = V>) -> Vec<V> {
    let mut out: Vec<V> = Vec::new();
    for p in pts {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// Direction d leaving vertex v (between edges u→v and v→w) points into the interior
/// of a polygon of orientation sign `o` (+1 anticlockwise, −1 clockwise).
fn enters_at_vertex(u: V, v: V, w: V, d: V, o: i128) -> bool {
    let e1 = vsub(v, u);
    let e2 = vsub(w, v);
    let c1 = cross(e1, d).signum() * o > 0;
    let c2 = cross(e2, d).signum() * o > 0;
    let turn = cross(e1, e2).signum() * o;
    if turn > 0 {
        c1 && c2
    } else if turn < 0 {
        c1 || c2
    } else if dot(e1, e2) > 0 {
        c2
    } else {
        false
    }
}

/// The closed segment a-b meets the open interior of the simple polygon `poly`
/// (cleaned, orientation sign `o` ≠ 0). Exact: an endpoint strictly inside, a proper
/// crossing of an edge, or the segment entering the interior at a vertex or at an
/// endpoint lying on the boundary.
pub(super) fn seg_meets_interior(poly: &[V], o: i128, a: V, b: V) -> bool {
    if poly.len() < 3 || o == 0 {
        return false;
    }
    if classify(poly, a) == Loc::Inside || classify(poly, b) == Loc::Inside {
        return true;
    }
    if a == b {
        return false;
    }
    let n = poly.len();
    let d = vsub(b, a);
    let nd = (d.0.saturating_neg(), d.1.saturating_neg());
    for i in 0..n {
        let u = poly[i];
        let w = poly[(i + 1) % n];
        let prev = poly[(i + n - 1) % n];
        let d1 = orient(a, b, u).signum();
        let d2 = orient(a, b, w).signum();
        let d3 = orient(u, w, a).signum();
        let d4 = orient(u, w, b).signum();
        if d1 * d2 < 0 && d3 * d4 < 0 {
            return true;
        }
        // The segment passes through (or starts or ends at) vertex u.
        if u == a {
            if enters_at_vertex(prev, u, w, d, o) {
                return true;
            }
        } else if u == b {
            if enters_at_vertex(prev, u, w, nd, o) {
                return true;
            }
        } else if d1 == 0
            && on_seg(a, b, u)
            && (enters_at_vertex(prev, u, w, d, o) || enters_at_vertex(prev, u, w, nd, o))
        {
            return true;
        }
        // An endpoint of the segment lies inside edge u-w (not at a vertex).
        for (p, dir) in [(a, d), (b, nd)] {
            if p != u && p != w && on_seg(u, w, p) && cross(vsub(w, u), dir).signum() * o > 0 {
                return true;
            }
        }
    }
    false
}

pub(super) fn proj(pts: &[V], n: V) -> (i128, i128) {
    let mut lo = i128::MAX;
    let mut hi = i128::MIN;
    for &p in pts {
        let t = dot(n, p);
        lo = lo.min(t);
        hi = hi.max(t);
    }
    (lo, hi)
}

/// Separating-axis test for two convex polygons: `strict` — their interiors meet
/// (overlap > 0 on every axis); otherwise the closed sets meet (overlap ≥ 0). The
/// axes are both polygons' edge normals plus the coordinate axes (which make
/// degenerate polygons — points, segments — exact too).
pub(super) fn convex_meet(p: &[V], q: &[V], strict: bool) -> bool {
    if p.is_empty() || q.is_empty() {
        return false;
    }
    let mut axes: Vec<V> = vec![(1, 0), (0, 1)];
    for poly in [p, q] {
        for i in 0..poly.len() {
            let n = perp(vsub(poly[(i + 1) % poly.len()], poly[i]));
            if n != (0, 0) {
                axes.push(n);
            }
        }
    }
    axes.iter().all(|&n| {
        let (plo, phi) = proj(p, n);
        let (qlo, qhi) = proj(q, n);
        let ov = phi.min(qhi).saturating_sub(plo.max(qlo));
        if strict {
            ov > 0
        } else {
            ov >= 0
        }
    })
}

/// Two convex quads interpenetrate deeper than `tol`: on every edge normal n of
/// either, the projections overlap by more than `tol·|n|` (compared squared, exact).
/// The minimum over those axes is the penetration depth.
pub(super) fn penetrates(p: &[V; 4], q: &[V; 4], tol: i128) -> bool {
    let tol2 = sq(tol.max(0));
    let mut tested = false;
    for poly in [p, q] {
        for i in 0..4 {
            let n = perp(vsub(poly[(i + 1) % 4], poly[i]));
            if n == (0, 0) {
                continue;
            }
            tested = true;
            let (plo, phi) = proj(p, n);
            let (qlo, qhi) = proj(q, n);
            let ov = phi.min(qhi).saturating_sub(plo.max(qlo));
            if ov <= 0 || sq(ov) <= tol2.saturating_mul(norm2(n)) {
                return false;
            }
        }
    }
    tested
}

/// Convex hull, anticlockwise, without collinear points (monotone chain).
pub(super) fn hull(mut pts: Vec<V>) -> Vec<V> {
    pts.sort_unstable();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut lower: Vec<V> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && orient(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<V> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2 && orient(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Squared gap between the axis-aligned bounding boxes of two point sets (a lower
/// bound on their squared distance).
pub(super) fn bbox_gap2(p: &[V], q: &[V]) -> u128 {
    let (pxl, pxh) = proj(p, (1, 0));
    let (pyl, pyh) = proj(p, (0, 1));
    let (qxl, qxh) = proj(q, (1, 0));
    let (qyl, qyh) = proj(q, (0, 1));
    let gx = (qxl.saturating_sub(pxh))
        .max(pxl.saturating_sub(qxh))
        .max(0);
    let gy = (qyl.saturating_sub(pyh))
        .max(pyl.saturating_sub(qyh))
        .max(0);
    sq(gx).saturating_add(sq(gy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_paths_agree_with_the_wide_ones() {
        // `orient` and `floor_sq_point_seg` take `i64`/`u64` shortcuts for table-sized
        // coordinates: the same values as the saturating `i128` arithmetic, here on
        // coordinates of every size round the shortcut's limit (2^30).
        let mut x = 12345u64;
        let mut next = |bits: u32| -> i128 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = i128::from((x >> 11) % (1u64 << bits));
            if x >> 63 == 1 {
                -m
            } else {
                m
            }
        };
        for k in 0..200_000 {
            let bits = [8, 16, 29, 30, 31, 40][k % 6];
            let mut p = || (next(bits), next(bits));
            let (a, b, c) = (p(), p(), p());
            assert_eq!(
                orient(a, b, c),
                cross(vsub(b, a), vsub(c, a)),
                "{a:?} {b:?} {c:?}"
            );
            let wide = {
                let (ab, ap) = (vsub(b, a), vsub(c, a));
                let (l2, t) = (norm2(ab), dot(ap, ab));
                if l2 == 0 || t <= 0 {
                    norm2(ap)
                } else if t.unsigned_abs() >= l2 {
                    norm2(vsub(c, b))
                } else {
                    let cr = cross(ab, ap).unsigned_abs();
                    cr.saturating_mul(cr) / l2
                }
            };
            assert_eq!(floor_sq_point_seg(c, a, b), wide, "{a:?} {b:?} {c:?}");
        }
    }

    /// Reference for seg_enters_interior: split the segment at every parameter where it
    /// meets an edge line (exact rationals) and test the middle of each piece, at scale.
    fn reference_enters(poly: &[V], a: V, b: V) -> bool {
        let d = vsub(b, a);
        let n = poly.len();
        let mut ts: Vec<(i128, i128)> = vec![(0, 1), (1, 1)];
        for i in 0..n {
            let (u, w) = (poly[i], poly[(i + 1) % n]);
            let e = vsub(w, u);
            let den = cross(d, e);
            if den != 0 {
                let num = cross(vsub(u, a), e);
                let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
                if num >= 0 && num <= den {
                    ts.push((num, den));
                }
            } else if dot(d, d) > 0 {
                for v in [u, w] {
                    if cross(d, vsub(v, a)) == 0 {
                        let num = dot(d, vsub(v, a));
                        let den = dot(d, d);
                        if num >= 0 && num <= den {
                            ts.push((num, den));
                        }
                    }
                }
            }
        }
        ts.sort_by(|x, y| (x.0 * y.1).cmp(&(y.0 * x.1)));
        ts.dedup_by(|x, y| x.0 * y.1 == y.0 * x.1);
        if dot(d, d) == 0 {
            return classify(poly, a) == Loc::Inside;
        }
        ts.windows(2).any(|w| {
            // Midpoint t = (n1/d1 + n2/d2) / 2 = (n1 d2 + n2 d1) / (2 d1 d2).
            let (n1, d1) = w[0];
            let (n2, d2) = w[1];
            let num = n1 * d2 + n2 * d1;
            let den = 2 * d1 * d2;
            let pt = (a.0 * den + num * d.0, a.1 * den + num * d.1);
            let scaled: Vec<V> = poly.iter().map(|v| (v.0 * den, v.1 * den)).collect();
            classify(&scaled, pt) == Loc::Inside
        })
    }

    #[test]
    fn seg_interior_matches_reference_exhaustively() {
        let polys: Vec<Vec<V>> = vec![
            vec![
                (0, 0),
                (3, 0),
                (3, 3),
                (2, 3),
                (2, 1),
                (1, 1),
                (1, 3),
                (0, 3),
            ],
            vec![(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)],
            vec![(0, 0), (0, 4), (2, 2), (4, 4), (4, 0)], // clockwise, reflex top
            vec![(0, 0), (2, 0), (4, 0), (4, 2), (0, 2)], // a straight vertex
            // An I-beam: four reflex corners; (1,1)-(3,3) and (1,1)-(3,1) run inside.
            vec![
                (0, 0),
                (4, 0),
                (4, 1),
                (3, 1),
                (3, 3),
                (4, 3),
                (4, 4),
                (0, 4),
                (0, 3),
                (1, 3),
                (1, 1),
                (0, 1),
            ],
        ];
        for poly in &polys {
            let o = area2_v(poly).signum();
            let mut pts = Vec::new();
            for x in -1..=5 {
                for y in -1..=5 {
                    pts.push((x, y));
                }
            }
            for &a in &pts {
                for &b in &pts {
                    let got = seg_meets_interior(poly, o, a, b);
                    let want = reference_enters(poly, a, b);
                    assert_eq!(got, want, "{poly:?} {a:?}->{b:?}");
                }
            }
        }
    }
}
