//! Firing (pages 11-12, 15, 20 and 22): the faces of a target seen from a point and its
//! closest visible face, the fire range (page 11: centre of the firer to the centre of
//! the closest visible face), the arc of fire (page 11: 45 degrees to either side),
//! blocking by another unit (page 11) and each base's line of sight (pages 11 and 15).

use super::exact::{
    area2_v, clean, convex_meet, cross, dot, hull, len_of, norm2, orient, perp, proj, pv,
    seg_meets_interior, vsub, V,
};
use super::polygon::{boxes_meet, points_box, Polygon};
use super::position::{Len, Point};
use super::segment::{isqrt, nearest_point_on_seg, Seg};
use super::shape::{quads_v, Face, Shape};
use super::trig::sin_cos;

/// The faces of `target` seen from `from`: those whose outer side strictly contains it
/// (the point is strictly outside the line of the matching bounding-box side), in the
/// order front, right, rear, left. From outside a corner two faces are visible; from
/// inside or on the bounding box, none. A square has no flank or rear (p.22): every
/// visible face is reported as [`Face::Front`] (possibly twice).
///
/// ```
/// use fm_core::huzzah::geometry::{visible_faces, Face, Facing, Len, Point, Shape};
/// let s = Shape::new(Point::cm(0, 0), Facing(0), vec![2, 2], Len::cm(4));
/// assert_eq!(visible_faces(&s, Point::cm(0, 10)), vec![Face::Front]);
/// assert_eq!(visible_faces(&s, Point::cm(10, 10)), vec![Face::Front, Face::Right]);
/// assert!(visible_faces(&s, Point::cm(0, -4)).is_empty());
/// ```
pub fn visible_faces(target: &Shape, from: Point) -> Vec<Face> {
    visible_geometric(target, from)
        .into_iter()
        .map(|f| if target.square { Face::Front } else { f })
        .collect()
}

fn visible_geometric(target: &Shape, from: Point) -> Vec<Face> {
    let bb = target.bounding_box().v();
    let p = pv(from);
    Face::ALL
        .iter()
        .enumerate()
        .filter(|&(i, _)| orient(bb[i], bb[(i + 1) % 4], p) > 0)
        .map(|(_, &f)| f)
        .collect()
}

/// Four times the squared distance from `p` to the (rational) midpoint of `s`.
fn dist2_to_mid4(p: Point, s: Seg) -> u128 {
    let (p, a, b) = (pv(p), pv(s.a), pv(s.b));
    norm2((
        p.0.saturating_mul(2)
            .saturating_sub(a.0.saturating_add(b.0)),
        p.1.saturating_mul(2)
            .saturating_sub(a.1.saturating_add(b.1)),
    ))
}

/// The visible face of `target` whose centre is nearest `from` (exact comparison; ties
/// go front, right, rear, left), with its segment. For a square the face is reported
/// as [`Face::Front`] with the geometrically nearest side's segment. `None` if `from`
/// is inside (or on) the target's bounding box.
pub fn closest_visible_face(target: &Shape, from: Point) -> Option<(Face, Seg)> {
    let mut best: Option<(u128, Face, Seg)> = None;
    for f in visible_geometric(target, from) {
        let s = target.face(f);
        let d = dist2_to_mid4(from, s);
        if best.map_or(true, |(bd, _, _)| d < bd) {
            best = Some((d, f, s));
        }
    }
    best.map(|(_, f, s)| (if target.square { Face::Front } else { f }, s))
}

/// The target's closest visible face as seen from the firer's centre: the face fired
/// at, whose centre range is measured to (p.11) and which [`blocks`] and
/// [`base_has_los`] use.
pub fn target_face(firer: &Shape, target: &Shape) -> Option<(Face, Seg)> {
    closest_visible_face(target, firer.centre())
}

/// The fire range (p.11): from the centre of the firing unit to the centre of the
/// closest visible face of the target (floor of the exact distance to the exact face
/// centre). `None` if the firer's centre is inside the target's bounding box.
///
/// ```
/// use fm_core::huzzah::geometry::{fire_range, Facing, Len, Point, Shape};
/// let target = Shape::new(Point::cm(0, 0), Facing(0), vec![2, 2], Len::cm(4));
/// // A line of two bases 15 cm ahead, facing it: centre 17 cm from the target's front.
/// let firer = Shape::new(Point::cm(0, 15), Facing(180), vec![2], Len::cm(4));
/// assert_eq!(fire_range(&firer, &target), Some(Len::cm(17)));
/// ```
pub fn fire_range(firer: &Shape, target: &Shape) -> Option<Len> {
    let c = firer.centre();
    closest_visible_face(target, c).map(|(_, s)| len_of(isqrt(dist2_to_mid4(c, s)) / 2))
}

/// The open arc region meets the convex quad q: separating axes with the region
/// taken as the front segment fl-fr plus the cone of the rays dl, dr (unbounded).
fn arc_meets_quad(fl: V, fr: V, dl: V, dr: V, q: &[V; 4]) -> bool {
    let mut axes: Vec<V> = vec![(1, 0), (0, 1), perp(vsub(fr, fl)), perp(dl), perp(dr)];
    for i in 0..4 {
        axes.push(perp(vsub(q[(i + 1) % 4], q[i])));
    }
    axes.iter().filter(|&&n| n != (0, 0)).all(|&n| {
        let (qlo, qhi) = proj(q, n);
        let (a, b) = (dot(n, fl), dot(n, fr));
        let (nl, nr) = (dot(n, dl), dot(n, dr));
        let rlo = if nl < 0 || nr < 0 {
            i128::MIN
        } else {
            a.min(b)
        };
        let rhi = if nl > 0 || nr > 0 {
            i128::MAX
        } else {
            a.max(b)
        };
        qhi.min(rhi).saturating_sub(qlo.max(rlo)) > 0
    })
}

/// The target is in the firer's arc of fire (p.11: "45 degrees to either side of the
/// unit"). Ruling: the arc is the open region ahead of the firer's front-face line,
/// bounded by the rays from the front face's two ends at 45° outward from the facing;
/// the target is in arc if any point of its footprint lies strictly inside it
/// (touching the boundary only is out). Exact: separating axes between each base and
/// the region. A square fires all round: always true.
///
/// ```
/// use fm_core::huzzah::geometry::{in_arc, Facing, Len, Point, Shape};
/// let firer = Shape::new(Point::cm(0, 0), Facing(0), vec![2], Len::cm(4));
/// let ahead = Shape::new(Point::cm(0, 20), Facing(180), vec![1], Len::cm(4));
/// let wide = Shape::new(Point::cm(30, 10), Facing(180), vec![1], Len::cm(4));
/// assert!(in_arc(&firer, &ahead));
/// assert!(!in_arc(&firer, &wide));
/// ```
pub fn in_arc(firer: &Shape, target: &Shape) -> bool {
    if firer.square {
        return true;
    }
    let front = firer.face(Face::Front);
    let (s, c) = sin_cos(firer.facing);
    let (s, c) = (i128::from(s), i128::from(c));
    // Ahead is (s, c) and right is (c, -s): forward-left and forward-right at 45°.
    let dl = (s - c, c + s);
    let dr = (s + c, c - s);
    let (fl, fr) = (pv(front.a), pv(front.b));
    quads_v(target)
        .iter()
        .any(|q| arc_meets_quad(fl, fr, dl, dr, q))
}

/// `other` blocks the firer's view of `target` (p.11: a target "fully or partly blocked
/// by another unit" cannot be chosen). Ruling: `other` blocks if its footprint meets the
/// interior of the fire lane, the convex hull of the firer's front face and the
/// target's closest visible face ([`target_face`]); touching the lane's boundary only
/// does not block. False if the target has no visible face or the lane has no area.
/// Pass only third units as `other`.
pub fn blocks(firer: &Shape, target: &Shape, other: &Shape) -> bool {
    let Some((_, face)) = target_face(firer, target) else {
        return false;
    };
    let front = firer.face(Face::Front);
    // The lane lies in its four corners' box: a unit whose box misses it cannot block.
    if !boxes_meet(
        points_box(&[front.a, front.b, face.a, face.b]),
        other.aabb(),
    ) {
        return false;
    }
    let lane = hull(vec![pv(front.a), pv(front.b), pv(face.a), pv(face.b)]);
    if lane.len() < 3 {
        return false;
    }
    quads_v(other).iter().any(|q| convex_meet(&lane, q, true))
}

/// The segment a-b is clear of `regions` (simple polygons): it meets no region's
/// interior and does not run along a seam where two regions' edges lie on its line
/// with their interiors on opposite sides (so it cannot slip between touching bases).
fn clear_line(a: V, b: V, regions: &[Vec<V>]) -> bool {
    let d = vsub(b, a);
    let dd = dot(d, d);
    // Collinear boundary pieces: (from, to) along d, and the interior's side of d.
    let mut pieces: Vec<(i128, i128, i128)> = Vec::new();
    for r in regions {
        let r = clean(r.iter().copied());
        let o = area2_v(&r).signum();
        if o == 0 || r.len() < 3 {
            continue;
        }
        if seg_meets_interior(&r, o, a, b) {
            return false;
        }
        if dd == 0 {
            continue;
        }
        let n = r.len();
        for i in 0..n {
            let (u, w) = (r[i], r[(i + 1) % n]);
            if u == w || cross(d, vsub(u, a)) != 0 || cross(d, vsub(w, a)) != 0 {
                continue;
            }
            let (tu, tw) = (dot(d, vsub(u, a)), dot(d, vsub(w, a)));
            let lo = tu.min(tw).max(0);
            let hi = tu.max(tw).min(dd);
            if hi > lo {
                let side = if dot(d, vsub(w, u)) > 0 { o } else { -o };
                pieces.push((lo, hi, side));
            }
        }
    }
    !pieces.iter().any(|&(lo1, hi1, s1)| {
        s1 > 0
            && pieces
                .iter()
                .any(|&(lo2, hi2, s2)| s2 < 0 && hi1.min(hi2) > lo1.max(lo2))
    })
}

/// Base `base_index` of the firer (in [`Shape::bases`] order) has a clear line of sight
/// to the target (p.11: "only bases that can draw a clear line of sight to a target can
/// fire"). Ruling: the segment from the base's front-edge midpoint to the nearest point
/// (rounded) of the target's closest visible face ([`target_face`]) must not pass
/// through the interior of any blocker's base, of any *other* base of the firer (so a
/// rear rank straight behind the front rank cannot fire: p.15, two by two has two bases
/// in the firing line), or of any dense-terrain polygon in `dense` (the engine passes
/// only those that block); nor run exactly along a seam between two of them. Running
/// along an outer edge is clear. False if the base does not exist or the target has no
/// visible face.
pub fn base_has_los(
    firer: &Shape,
    base_index: usize,
    target: &Shape,
    blockers: &[&Shape],
    dense: &[&Polygon],
) -> bool {
    let Some(m) = firer.base_front_mid(base_index) else {
        return false;
    };
    let Some((_, face)) = target_face(firer, target) else {
        return false;
    };
    let n = nearest_point_on_seg(m, face);
    let mut regions: Vec<Vec<V>> = Vec::new();
    for (i, q) in firer.bases().iter().enumerate() {
        if i != base_index {
            regions.push(q.v().to_vec());
        }
    }
    // Only what comes within the line's box can touch the line (most of the table).
    let line_box = points_box(&[m, n]);
    for s in blockers.iter().filter(|s| boxes_meet(line_box, s.aabb())) {
        regions.extend(s.bases().iter().map(|q| q.v().to_vec()));
    }
    for p in dense.iter().filter(|p| boxes_meet(line_box, p.aabb())) {
        regions.push(p.cleaned());
    }
    clear_line(pv(m), pv(n), &regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::fixtures::{p, unit};

    #[test]
    fn visible_faces_from_each_side() {
        let s = unit(0, 0, 0, &[2, 2], 400);
        assert_eq!(visible_faces(&s, p(0, 1000)), vec![Face::Front]);
        assert_eq!(visible_faces(&s, p(1000, -400)), vec![Face::Right]);
        assert_eq!(visible_faces(&s, p(0, -2000)), vec![Face::Rear]);
        assert_eq!(visible_faces(&s, p(-1000, -400)), vec![Face::Left]);
        assert_eq!(
            visible_faces(&s, p(1000, 1000)),
            vec![Face::Front, Face::Right]
        );
        assert_eq!(
            visible_faces(&s, p(-1000, -1000)),
            vec![Face::Rear, Face::Left]
        );
        assert!(visible_faces(&s, p(0, -400)).is_empty());
        assert!(visible_faces(&s, p(0, 0)).is_empty()); // on the front line
        assert!(visible_faces(&s, p(400, -800)).is_empty()); // corner
        assert_eq!(visible_faces(&s, p(1000, 0)), vec![Face::Right]); // on the front line
                                                                      // Rotated: facing 90 turns the front towards +x.
        let r = unit(0, 0, 90, &[2, 2], 400);
        assert_eq!(visible_faces(&r, p(1000, 0)), vec![Face::Front]);
        assert_eq!(visible_faces(&r, p(-400, -1000)), vec![Face::Right]);
        assert_eq!(visible_faces(&r, p(-400, 1000)), vec![Face::Left]);
        assert_eq!(visible_faces(&r, p(-2000, 0)), vec![Face::Rear]);
        // A square has only fronts.
        let mut sq = s.clone();
        sq.square = true;
        assert_eq!(
            visible_faces(&sq, p(1000, 1000)),
            vec![Face::Front, Face::Front]
        );
        assert_eq!(visible_faces(&sq, p(0, -2000)), vec![Face::Front]);
    }

    #[test]
    fn closest_visible_face_by_centre() {
        let s = unit(0, 0, 0, &[2, 2], 400);
        assert_eq!(
            closest_visible_face(&s, p(1000, 1000)),
            Some((Face::Front, s.face(Face::Front)))
        );
        assert_eq!(
            closest_visible_face(&s, p(1000, 100)),
            Some((Face::Right, s.face(Face::Right)))
        );
        assert_eq!(
            closest_visible_face(&s, p(-900, -1000)).map(|f| f.0),
            Some(Face::Left)
        );
        assert_eq!(
            closest_visible_face(&s, p(-1000, -900)).map(|f| f.0),
            Some(Face::Left)
        );
        assert_eq!(
            closest_visible_face(&s, p(-100, -3000)).map(|f| f.0),
            Some(Face::Rear)
        );
        // Tie between front centre (0, 0) and right centre (400, -400): front wins.
        assert_eq!(
            closest_visible_face(&s, p(1400, 1000)).map(|f| f.0),
            Some(Face::Front)
        );
        assert_eq!(closest_visible_face(&s, p(0, -400)), None);
        assert_eq!(closest_visible_face(&s, p(-400, -100)), None);
        let mut sq = s.clone();
        sq.square = true;
        assert_eq!(
            closest_visible_face(&sq, p(1000, 100)),
            Some((Face::Front, s.face(Face::Right)))
        );
        // Uneven ranks: the rear face is the narrower rear rank's edge.
        let u = unit(0, 0, 0, &[3, 2], 400);
        assert_eq!(
            closest_visible_face(&u, p(0, -3000)),
            Some((Face::Rear, Seg::new(p(400, -800), p(-400, -800))))
        );
    }

    #[test]
    fn fire_range_centre_to_face_centre() {
        let target = unit(0, 0, 0, &[2, 2], 400);
        let ahead = unit(0, 1500, 180, &[2], 400);
        assert_eq!(ahead.centre(), p(0, 1700));
        assert_eq!(fire_range(&ahead, &target), Some(Len(1700)));
        let flank = unit(2000, -400, 270, &[2], 400);
        assert_eq!(flank.centre(), p(2200, -400));
        assert_eq!(fire_range(&flank, &target), Some(Len(1800)));
        assert_eq!(target_face(&flank, &target).map(|f| f.0), Some(Face::Right));
        // Oblique: centre (300, 800) to front centre (0, 0) = 854.4.
        let oblique = unit(300, 600, 180, &[1], 400);
        assert_eq!(fire_range(&oblique, &target), Some(Len(854)));
        // The face centre may be half a unit: target front (-601.5..601.5) at 3 x 401.
        let odd = unit(1, 0, 0, &[3], 401);
        let f = unit(0, 1000, 180, &[1], 400);
        // Front face (-601, 0)..(603, 0): centre (1, 0); firer centre (0, 1200).
        assert_eq!(odd.face(Face::Front), Seg::new(p(-601, 0), p(603, 0)));
        assert_eq!(fire_range(&f, &odd), Some(Len(1200)));
        // Firer centre inside the target: no range.
        let inside = unit(0, -200, 0, &[1], 100);
        assert_eq!(fire_range(&inside, &target), None);
    }

    #[test]
    fn arc_in_out_partly() {
        // Front face (-400, 0)..(400, 0); arc: y > 0, -400 - y < x < 400 + y.
        let firer = unit(0, 0, 0, &[2], 400);
        let t = |x: i64, y: i64| unit(x, y, 180, &[1], 400); // x-200..x+200, y..y+400
        assert!(in_arc(&firer, &t(0, 2000)));
        assert!(!in_arc(&firer, &t(3000, 1000)));
        assert!(in_arc(&firer, &t(1900, 1600))); // one corner (1700, 2000) inside
        assert!(!in_arc(&firer, &t(1800, 800))); // corner (1600, 1200) on the ray only
        assert!(in_arc(&firer, &t(1799, 800)));
        assert!(in_arc(&firer, &t(-1799, 800)));
        assert!(!in_arc(&firer, &t(-1800, 800)));
        assert!(!in_arc(&firer, &unit(0, -1000, 0, &[1], 400))); // behind
                                                                 // A big base straddling the front line with no corner inside the arc.
        let big = unit(0, 100, 0, &[1], 1000); // x -500..500, y -900..100
        assert!(in_arc(&firer, &big));
        // Beside the firer, on its front line: out.
        assert!(!in_arc(&firer, &unit(600, 0, 0, &[1], 400)));
        // Rotated firer facing 90: the arc opens towards +x.
        let r = unit(0, 0, 90, &[2], 400);
        assert!(in_arc(&r, &t(2000, -200)));
        assert!(!in_arc(&r, &t(-2000, -200)));
        // A square fires all round.
        let mut sq = firer.clone();
        sq.square = true;
        assert!(in_arc(&sq, &unit(0, -1000, 0, &[1], 400)));
    }

    #[test]
    fn blocking_in_lane_outside_touching() {
        let firer = unit(0, 0, 0, &[2], 400);
        // Target two bases wide at y 3000..3400 facing the firer: lane x -400..400.
        let target = unit(0, 3000, 180, &[2], 400);
        assert_eq!(target_face(&firer, &target).map(|f| f.0), Some(Face::Front));
        let other = |x: i64, y: i64| unit(x, y, 0, &[1], 400); // x-200..x+200, y-400..y
        assert!(blocks(&firer, &target, &other(0, 1500)));
        assert!(!blocks(&firer, &target, &other(2000, 1500)));
        assert!(!blocks(&firer, &target, &other(600, 1500))); // touches x = 400
        assert!(blocks(&firer, &target, &other(599, 1500))); // partly in
        assert!(!blocks(&firer, &target, &other(0, 3400))); // beyond the target face
                                                            // A narrower target: lane is a trapezoid to (-200..200, 3000).
        let narrow = unit(0, 3000, 180, &[1], 400);
        assert!(blocks(&firer, &narrow, &other(-350, 500)));
        assert!(!blocks(&firer, &narrow, &other(-550, 2600)));
        // No visible face: nothing blocks.
        let on_top = unit(0, 0, 0, &[4, 4], 400);
        assert!(!blocks(
            &unit(0, -400, 0, &[1], 100),
            &on_top,
            &other(0, 100)
        ));
    }

    #[test]
    fn los_front_and_rear_ranks() {
        let firer = unit(0, 0, 0, &[2, 2], 400);
        let target = unit(0, 3000, 180, &[2], 400);
        let los = |i| base_has_los(&firer, i, &target, &[], &[]);
        assert!(los(0) && los(1));
        assert!(!los(2) && !los(3));
        assert!(!los(4)); // no such base
                          // 3 + 2: the rear bases sit behind the seams of the front rank; a line along
                          // a seam between two front bases does not slip through.
        let wide = unit(0, 0, 0, &[3, 2], 400);
        let t3 = unit(0, 3000, 180, &[3], 400);
        assert_eq!(wide.base_front_mid(3), Some(p(-200, -400)));
        assert!((0..3).all(|i| base_has_los(&wide, i, &t3, &[], &[])));
        assert!(!base_has_los(&wide, 3, &t3, &[], &[]));
        assert!(!base_has_los(&wide, 4, &t3, &[], &[]));
        // 2 + 3: the outer rear bases graze the front rank's sides and can see.
        let flared = unit(0, 0, 0, &[2, 3], 400);
        assert!(base_has_los(&flared, 2, &t3, &[], &[]));
        assert!(!base_has_los(&flared, 3, &t3, &[], &[]));
        assert!(base_has_los(&flared, 4, &t3, &[], &[]));
        // A rotated 2x2 (30°): the rear rank is still blocked, the front rank clear.
        let rot = unit(0, 0, 30, &[2, 2], 400);
        let tr = rot.translated(Len(3000), Len(0)).turned_about();
        let tr = tr.translated(Len(-800), Len(0));
        assert!(base_has_los(&rot, 0, &tr, &[], &[]) && base_has_los(&rot, 1, &tr, &[], &[]));
        assert!(!base_has_los(&rot, 2, &tr, &[], &[]) && !base_has_los(&rot, 3, &tr, &[], &[]));
    }

    #[test]
    fn los_blockers_and_dense_terrain() {
        let firer = unit(0, 0, 0, &[2], 400); // mids (-200, 0), (200, 0)
        let target = unit(0, 3000, 180, &[2], 400);
        let b = unit(-200, 1500, 0, &[1], 400); // x -400..0
        assert!(!base_has_los(&firer, 0, &target, &[&b], &[]));
        assert!(base_has_los(&firer, 1, &target, &[&b], &[]));
        // Two blockers meeting exactly on base 0's line (x = -200): no gap.
        let l = unit(-400, 1500, 0, &[1], 400); // x -600..-200
        let r = unit(0, 1500, 0, &[1], 400); // x -200..200
        assert!(!base_has_los(&firer, 0, &target, &[&l, &r], &[]));
        // Only one of them: the line grazes its edge and is clear.
        assert!(base_has_los(&firer, 0, &target, &[&l], &[]));
        // Dense terrain in base 1's path.
        let wood = Polygon(vec![p(100, 1000), p(300, 1000), p(300, 2000), p(100, 2000)]);
        assert!(!base_has_los(&firer, 1, &target, &[], &[&wood]));
        assert!(base_has_los(&firer, 0, &target, &[], &[&wood]));
        // A wood whose edge lies along the line: clear.
        let edge = Polygon(vec![p(200, 1000), p(600, 1000), p(600, 2000), p(200, 2000)]);
        assert!(base_has_los(&firer, 1, &target, &[], &[&edge]));
        // A wood and a unit meeting along the line: blocked.
        let unit_left = unit(0, 2000, 0, &[1], 400); // x -200..200, y 1600..2000
        assert!(!base_has_los(&firer, 1, &target, &[&unit_left], &[&edge]));
        // Non-convex wood, an upside-down U whose notch (x -1000..600, up to y 3500)
        // holds both lines of sight: clear, though its hull would block.
        let notch_top = |top: i64| {
            Polygon(vec![
                p(-1300, 500),
                p(-1000, 500),
                p(-1000, top),
                p(600, top),
                p(600, 500),
                p(1000, 500),
                p(1000, 3800),
                p(-1300, 3800),
            ])
        };
        let u = notch_top(3500);
        assert!(base_has_los(&firer, 0, &target, &[], &[&u]));
        assert!(base_has_los(&firer, 1, &target, &[], &[&u]));
        // With the notch only up to y 2500 the bar (2500..3800) is crossed.
        let low = notch_top(2500);
        assert!(!base_has_los(&firer, 1, &target, &[], &[&low]));
    }
}
