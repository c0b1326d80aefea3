//! Command and movement reach: all of a unit within a command radius (page 19), what an
//! advance could reach "within one move" (pages 18-19: straight ahead with a sideways
//! drift; page 20: squares cannot move), and the ground swept moving straight back
//! (page 20: retire moves).

use super::contact::{within, CONTACT_TOLERANCE};
use super::exact::{clean, convex_meet, pv, vp};
use super::polygon::{boxes_meet, points_box, Polygon};
use super::position::{Len, Point};
use super::segment::dist;
use super::shape::{quads_v, Shape};

/// Every corner of every base of `s` is within `r` of `centre` (p.19: "all bases of a
/// unit must be completely within the command radius"); within means `dist <= r`.
pub fn all_within_radius(centre: Point, r: Len, s: &Shape) -> bool {
    s.footprint_corners().iter().all(|&c| dist(centre, c) <= r)
}

/// The mover could reach the target on an advance order (p.18, p.19): the target's
/// footprint meets (touching counts) the rectangle swept by the mover's front face
/// moving straight ahead up to `advance`, widened by `drift` to each side (width
/// front + 2·drift, length `advance`, standing on the front face), or the two are
/// already touching or overlapping (within [`CONTACT_TOLERANCE`]). A square cannot move
/// (p.20): only contact counts. Negative `advance` or `drift` count as 0.
///
/// ```
/// use fm_core::huzzah::geometry::{could_reach, Facing, Len, Point, Shape};
/// let mover = Shape::new(Point::cm(0, 0), Facing(0), vec![2], Len::cm(4));
/// let enemy = Shape::new(Point::cm(10, 15), Facing(180), vec![1], Len::cm(4));
/// // 20 cm straight ahead misses it; a 5 cm drift brings it within one move.
/// assert!(!could_reach(&mover, &enemy, Len::cm(20), Len::ZERO));
/// assert!(could_reach(&mover, &enemy, Len::cm(20), Len::cm(5)));
/// ```
pub fn could_reach(mover: &Shape, target: &Shape, advance: Len, drift: Len) -> bool {
    if within(mover, target, CONTACT_TOLERANCE) {
        return true;
    }
    let adv = if mover.square {
        0
    } else {
        i128::from(advance.0.max(0))
    };
    if adv == 0 {
        return false;
    }
    let h = mover.front_n() * mover.b() + 2 * i128::from(drift.0.max(0));
    let f = 2 * adv;
    let corners = [
        mover.at(-h, f),
        mover.at(h, f),
        mover.at(h, 0),
        mover.at(-h, 0),
    ];
    // The region lies in its corners' box and the target in its own: apart, they
    // cannot meet (most pairs on a table; the Orders phase asks it of every pair).
    if !boxes_meet(points_box(&corners), target.aabb()) {
        return false;
    }
    let region = corners.map(pv);
    quads_v(target)
        .iter()
        .any(|q| convex_meet(&region, q, false))
}

/// The units are within one move of each other (p.18): either could reach the other on
/// an advance order ([`could_reach`] both ways, with each unit's own advance).
pub fn within_one_move(a: &Shape, a_advance: Len, b: &Shape, b_advance: Len, drift: Len) -> bool {
    could_reach(a, b, a_advance, drift) || could_reach(b, a, b_advance, drift)
}

/// The region the footprint sweeps moving straight back `d` (negative counts as 0), as
/// one polygon: each rank's rectangle stretched back by `d`, united. Vertices run
/// clockwise (negative [`Polygon::area2`]) from the front-right corner of the front
/// rank; a rectangular formation gives 4 vertices, uneven ranks a symmetric staircase.
/// Empty if the unit has no bases.
///
/// ```
/// use fm_core::huzzah::geometry::{swept_back, Facing, Len, Point, Polygon, Shape};
/// let s = Shape::new(Point::cm(0, 0), Facing(0), vec![2], Len::cm(4));
/// assert_eq!(
///     swept_back(&s, Len::cm(6)),
///     Polygon(vec![Point::cm(4, 0), Point::cm(4, -10), Point::cm(-4, -10), Point::cm(-4, 0)])
/// );
/// ```
pub fn swept_back(s: &Shape, d: Len) -> Polygon {
    let b = s.b();
    let d2 = 2 * i128::from(d.0.max(0));
    // Each rank: (top, bottom, half-width), doubled local units.
    let spans: Vec<(i128, i128, i128)> = s
        .ranks
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(k, &n)| {
            let k = k as i128;
            (-2 * k * b, -2 * (k + 1) * b - d2, i128::from(n) * b)
        })
        .collect();
    if spans.is_empty() {
        return Polygon(Vec::new());
    }
    let mut ys: Vec<i128> = spans.iter().flat_map(|&(t, bo, _)| [t, bo]).collect();
    ys.sort_unstable_by(|a, b| b.cmp(a));
    ys.dedup();
    // Half-width on each interval between breakpoints, top to bottom, merged.
    let mut steps: Vec<(i128, i128, i128)> = Vec::new();
    for w in ys.windows(2) {
        let (hi, lo) = (w[0], w[1]);
        let h = spans
            .iter()
            .filter(|&&(t, bo, _)| t >= hi && bo <= lo)
            .map(|&(_, _, h)| h)
            .max()
            .unwrap_or(0);
        match steps.last_mut() {
            Some(last) if last.2 == h => last.1 = lo,
            _ => steps.push((hi, lo, h)),
        }
    }
    let mut local: Vec<(i128, i128)> = Vec::new();
    for &(hi, lo, h) in &steps {
        local.push((h, hi));
        local.push((h, lo));
    }
    for &(hi, lo, h) in steps.iter().rev() {
        local.push((-h, lo));
        local.push((-h, hi));
    }
    let pts = clean(local.iter().map(|&(r, f)| pv(s.at(r, f))));
    Polygon(pts.into_iter().map(vp).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::fixtures::{p, unit};

    #[test]
    fn command_radius() {
        let s = unit(0, 0, 0, &[2, 2], 400);
        // Farthest corners from (0, -400) are 565.7 away.
        assert!(all_within_radius(p(0, -400), Len(565), &s));
        assert!(!all_within_radius(p(0, -400), Len(564), &s));
        assert!(!all_within_radius(p(0, -400), Len(-1), &s));
        assert!(all_within_radius(p(0, 0), Len(0), &unit(0, 0, 0, &[], 400)));
    }

    #[test]
    fn could_reach_straight_drift_behind() {
        let mover = unit(0, 0, 0, &[2], 400); // front x -400..400 at y = 0
        let at = |x: i64, y: i64| unit(x, y, 180, &[1], 400); // x-200..x+200, y..y+400
        assert!(!could_reach(&mover, &at(0, 2500), Len(2000), Len(500)));
        assert!(could_reach(&mover, &at(0, 2500), Len(2500), Len(0)));
        assert!(could_reach(&mover, &at(0, 2000), Len(2000), Len(0)));
        // Drift widens to x -900..900.
        assert!(could_reach(&mover, &at(1100, 1000), Len(2000), Len(500)));
        assert!(!could_reach(&mover, &at(1101, 1000), Len(2000), Len(500)));
        assert!(!could_reach(&mover, &at(1100, 1000), Len(2000), Len(0)));
        // Behind.
        assert!(!could_reach(
            &mover,
            &unit(0, -1000, 0, &[1], 400),
            Len(2000),
            Len(500)
        ));
        // Already in contact (even behind): reach.
        assert!(could_reach(
            &mover,
            &unit(0, -400, 0, &[1], 400),
            Len(0),
            Len(0)
        ));
        // A square cannot move; only contact counts.
        let mut sq = mover.clone();
        sq.square = true;
        assert!(!could_reach(&sq, &at(0, 1000), Len(2000), Len(500)));
        assert!(could_reach(&sq, &at(0, 5), Len(2000), Len(500)));
        // Rotated: facing 90 advances along +x.
        let r = unit(0, 0, 90, &[2], 400);
        assert!(could_reach(
            &r,
            &unit(1500, 0, 270, &[1], 400),
            Len(1500),
            Len(0)
        ));
        assert!(!could_reach(
            &r,
            &unit(1501, 0, 270, &[1], 400),
            Len(1500),
            Len(0)
        ));
        // within_one_move: either way.
        let slow = unit(0, 0, 0, &[2], 400);
        let enemy = unit(0, 3000, 180, &[2], 400);
        assert!(!within_one_move(
            &slow,
            Len(1000),
            &enemy,
            Len(2000),
            Len(500)
        ));
        assert!(within_one_move(
            &slow,
            Len(1000),
            &enemy,
            Len(3000),
            Len(500)
        ));
        assert!(within_one_move(&slow, Len(3000), &enemy, Len(0), Len(500)));
    }

    #[test]
    fn swept_back_shapes() {
        let s = unit(0, 0, 0, &[3, 2], 400);
        let poly = swept_back(&s, Len(1000));
        assert_eq!(
            poly.0,
            vec![
                p(600, 0),
                p(600, -1400),
                p(400, -1400),
                p(400, -1800),
                p(-400, -1800),
                p(-400, -1400),
                p(-600, -1400),
                p(-600, 0)
            ]
        );
        assert_eq!(poly.area2(), -2 * (1200 * 1400 + 800 * 400));
        let flared = unit(0, 0, 0, &[2, 3], 400);
        assert_eq!(
            flared.outline().0,
            vec![
                p(400, 0),
                p(400, -400),
                p(600, -400),
                p(600, -800),
                p(-600, -800),
                p(-600, -400),
                p(-400, -400),
                p(-400, 0)
            ]
        );
        let block = unit(1000, 1000, 90, &[2, 2], 400);
        assert_eq!(
            swept_back(&block, Len(500)).0,
            vec![p(1000, 600), p(-300, 600), p(-300, 1400), p(1000, 1400)]
        );
        assert_eq!(swept_back(&block, Len(-5)), block.outline());
        assert!(swept_back(&unit(0, 0, 0, &[], 400), Len(100)).0.is_empty());
        // A friend behind is crossed; one beside is not.
        let behind = unit(0, -1500, 0, &[1], 400);
        assert!(behind.bases().iter().any(|b| poly.interior_meets_quad(b)));
        let beside = unit(1000, -500, 0, &[1], 400);
        assert!(!beside.bases().iter().any(|b| poly.intersects_quad(b)));
    }
}
