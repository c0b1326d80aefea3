//! Distance between units and contact: the least distance between two footprints
//! (page 15: "in or partly within 20cm"), and contact against overlap within
//! [`CONTACT_TOLERANCE`].

use super::exact::{bbox_gap2, convex_meet, floor_sq_seg_seg, len_of, penetrates};
use super::polygon::boxes_beyond;
use super::position::Len;
use super::segment::isqrt;
use super::shape::{quads_v, Shape};

/// The distance between two footprints: the least distance between any base of `a` and
/// any base of `b` (floor of the exact value); 0 if they touch or overlap. "Within
/// 20cm" (p.15) is `min_distance(a, b) <= Len::cm(20)`. `Len(i64::MAX)` if either
/// has no bases.
///
/// ```
/// use fm_core::huzzah::geometry::{min_distance, Facing, Len, Point, Shape};
/// let a = Shape::new(Point::cm(0, 0), Facing(0), vec![1], Len::cm(4));
/// let b = Shape::new(Point::cm(0, 10), Facing(180), vec![1], Len::cm(4));
/// assert_eq!(min_distance(&a, &b), Len::cm(10));
/// ```
pub fn min_distance(a: &Shape, b: &Shape) -> Len {
    let (qa, qb) = (quads_v(a), quads_v(b));
    let mut best: Option<u128> = None;
    for p in &qa {
        for q in &qb {
            if best.is_some_and(|bd| bbox_gap2(p, q) >= bd) {
                continue;
            }
            if convex_meet(p, q, false) {
                return Len::ZERO;
            }
            for i in 0..4 {
                for j in 0..4 {
                    let d = floor_sq_seg_seg(p[i], p[(i + 1) % 4], q[j], q[(j + 1) % 4]);
                    if best.map_or(true, |bd| d < bd) {
                        best = Some(d);
                    }
                }
            }
        }
    }
    best.map_or(Len(i64::MAX), |d| len_of(isqrt(d)))
}

/// Whether the footprints are at most `d` apart: `min_distance(a, b) <= d`, answered
/// without the bases' geometry when their boxes are farther apart than that (most
/// pairs on a table: the rules ask it of every unit against every other).
///
/// ```
/// use fm_core::huzzah::geometry::{within, Facing, Len, Point, Shape};
/// let a = Shape::new(Point::cm(0, 0), Facing(0), vec![1], Len::cm(4));
/// let b = Shape::new(Point::cm(0, 10), Facing(180), vec![1], Len::cm(4));
/// assert!(within(&a, &b, Len::cm(10)));
/// assert!(!within(&a, &b, Len(99)));
/// ```
pub fn within(a: &Shape, b: &Shape, d: Len) -> bool {
    // The boxes' gap is never more than the footprints' least distance, and
    // `min_distance` is rounded down to whole units.
    if boxes_beyond(a.aabb(), b.aabb(), d) {
        return false;
    }
    min_distance(a, b) <= d
}

/// How far two footprints may interpenetrate and still count as touching, not
/// overlapping: 1 mm (absorbs the rounding of rotated positions).
pub const CONTACT_TOLERANCE: Len = Len(10);

/// Some base of `a` and some base of `b` interpenetrate by more than
/// [`CONTACT_TOLERANCE`]: their penetration depth (the least overlap over the
/// separating axes of the two convex quads, exact integer comparison) exceeds it.
pub fn overlaps(a: &Shape, b: &Shape) -> bool {
    // Apart by more than the rounding of rotated corners: no overlap.
    if box_gap2(a, b) > 0 {
        return false;
    }
    let tol = i128::from(CONTACT_TOLERANCE.0);
    let (qa, qb) = (quads_v(a), quads_v(b));
    qa.iter().any(|p| qb.iter().any(|q| penetrates(p, q, tol)))
}

/// The two units are in contact: their footprints are within [`CONTACT_TOLERANCE`] of
/// each other and do not overlap (see [`overlaps`]).
///
/// ```
/// use fm_core::huzzah::geometry::{in_contact, overlaps, Facing, Len, Point, Shape};
/// let a = Shape::new(Point::cm(0, 0), Facing(0), vec![1], Len::cm(4));
/// let face_to_face = Shape::new(Point::cm(0, 0), Facing(180), vec![1], Len::cm(4));
/// assert!(in_contact(&a, &face_to_face) && !overlaps(&a, &face_to_face));
/// let on_top = a.translated(Len::cm(-1), Len::ZERO);
/// assert!(overlaps(&a, &on_top) && !in_contact(&a, &on_top));
/// ```
pub fn in_contact(a: &Shape, b: &Shape) -> bool {
    let tol = i128::from(CONTACT_TOLERANCE.0);
    if box_gap2(a, b) > tol * tol {
        return false;
    }
    within(a, b, CONTACT_TOLERANCE) && !overlaps(a, b)
}

/// The footprints touch or overlap: `in_contact(a, b) || overlaps(a, b)`, which is
/// `within(a, b, CONTACT_TOLERANCE)` (an overlap is a distance of 0), so one test
/// with one box each.
///
/// ```
/// use fm_core::huzzah::geometry::{in_contact, overlaps, touches, Facing, Len, Point, Shape};
/// let a = Shape::new(Point::cm(0, 0), Facing(0), vec![1], Len::cm(4));
/// let face_to_face = Shape::new(Point::cm(0, 0), Facing(180), vec![1], Len::cm(4));
/// let on_top = a.translated(Len::cm(-1), Len::ZERO);
/// let apart = a.translated(Len::cm(-5), Len::ZERO);
/// for b in [&face_to_face, &on_top, &apart] {
///     assert_eq!(touches(&a, b), in_contact(&a, b) || overlaps(&a, b));
/// }
/// assert!(!touches(&a, &apart));
/// ```
pub fn touches(a: &Shape, b: &Shape) -> bool {
    within(a, b, CONTACT_TOLERANCE)
}

/// [`touches`] with `a`'s box already worked out (`a.aabb()`), for one shape tested
/// against many.
pub(crate) fn touches_boxed(a: &Shape, a_box: [i64; 4], b: &Shape) -> bool {
    !boxes_beyond(a_box, b.aabb(), CONTACT_TOLERANCE) && min_distance(a, b) <= CONTACT_TOLERANCE
}

/// The squared gap between the axis-aligned boxes round two footprints, each box
/// widened by 2 units against the rounding of rotated corners: never more than the
/// squared least distance between the footprints, so a cheap way to rule contact and
/// overlap out.
fn box_gap2(a: &Shape, b: &Shape) -> i128 {
    super::polygon::box_gap2(a.aabb(), b.aabb())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::fixtures::{p, unit};
    use crate::huzzah::geometry::Facing;

    #[test]
    fn min_distance_cases() {
        let a = unit(0, 0, 0, &[1], 400); // x -200..200, y -400..0
        assert_eq!(min_distance(&a, &unit(0, 1000, 180, &[1], 400)), Len(1000));
        assert_eq!(min_distance(&a, &unit(0, 100, 180, &[1], 400)), Len(100));
        assert_eq!(min_distance(&a, &unit(0, 0, 180, &[1], 400)), Len(0)); // touching
        assert_eq!(min_distance(&a, &unit(0, -100, 180, &[1], 400)), Len(0)); // overlap
        assert_eq!(min_distance(&a, &unit(700, 800, 0, &[1], 400)), Len(500)); // corners
        assert_eq!(min_distance(&a, &unit(0, -100, 0, &[1], 100)), Len(0)); // contained
        assert_eq!(min_distance(&unit(0, -100, 0, &[1], 100), &a), Len(0));
        // Multi-base units: nearest bases.
        let line = unit(0, 0, 0, &[4], 400); // x -800..800
        let col = unit(1500, -2000, 0, &[1, 1, 1], 400); // x 1300..1700, y -3200..-2000
        assert_eq!(min_distance(&line, &col), Len(1676)); // (800,-400) to (1300,-2000)
    }

    #[test]
    fn overlap_against_contact_at_the_tolerance() {
        let a = unit(0, 0, 0, &[1], 400);
        let face = |y: i64| unit(0, y, 180, &[1], 400);
        // Penetration 10 (= tolerance): contact, not overlap.
        assert!(!overlaps(&a, &face(-10)) && in_contact(&a, &face(-10)));
        // Penetration 11: overlap.
        assert!(overlaps(&a, &face(-11)) && !in_contact(&a, &face(-11)));
        // Gap of 10: contact; 11: neither.
        assert!(in_contact(&a, &face(10)) && !overlaps(&a, &face(10)));
        assert!(!in_contact(&a, &face(11)) && !overlaps(&a, &face(11)));
        assert!(in_contact(&a, &face(0)));
        // Shallow overlap along x although deep along y: depth is the least axis.
        let side = unit(395, -200, 0, &[1], 400);
        assert!(!overlaps(&a, &side) && in_contact(&a, &side));
        let side = unit(389, -200, 0, &[1], 400);
        assert!(overlaps(&a, &side));
        // Rotated: a 45° base whose lowest corner pokes 1 unit (0.1 mm) into a's front
        // edge (y = 0): contact, not overlap.
        let tilt = Shape::new(p(0, 0), Facing(225), vec![1], Len(400));
        let low = *tilt.footprint_corners().iter().min_by_key(|c| c.y).unwrap();
        let tilt = tilt.with_anchor(p(-low.x.0, -low.y.0 - 1));
        assert!(tilt.bases()[0].0.contains(&p(0, -1)));
        assert_eq!(
            tilt.footprint_corners()
                .iter()
                .filter(|c| c.y.0 < 0)
                .count(),
            1
        );
        assert!(in_contact(&a, &tilt) && !overlaps(&a, &tilt));
        let deep = tilt.with_anchor(p(tilt.anchor.x.0, tilt.anchor.y.0 - 100));
        assert!(overlaps(&a, &deep));
        // Corner to corner diagonal touch: contact.
        assert!(in_contact(&a, &unit(400, 400, 0, &[1], 400)));
    }

    #[test]
    fn touching_is_contact_or_overlap() {
        // Round a 4-base line: every facing in 15° steps, at gaps from deep overlap to
        // just beyond the tolerance, along both axes and the diagonal.
        let a = unit(0, 0, 30, &[2, 2], 400);
        let mut seen = [0usize; 3];
        for facing in (0..360).step_by(15) {
            for k in -12..=12 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                    for reach in [600, 780, 800, 810, 820, 1200] {
                        let b = unit(dx * (reach + k), dy * (reach + k), facing, &[3], 400);
                        let want = in_contact(&a, &b) || overlaps(&a, &b);
                        assert_eq!(touches(&a, &b), want, "{facing} {k} {dx},{dy} {reach}");
                        assert_eq!(touches_boxed(&a, a.aabb(), &b), want);
                        seen[usize::from(in_contact(&a, &b))
                            + 2 * usize::from(overlaps(&a, &b))] += 1;
                    }
                }
            }
        }
        // Each case met: apart, in contact, overlapping.
        assert!(seen.iter().all(|n| *n > 0), "{seen:?}");
    }
}
