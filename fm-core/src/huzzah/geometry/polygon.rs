//! Quads and polygons: [`Quad`], one base on the table (page 2: all bases square), and
//! [`Polygon`], a simple polygon of any shape, for terrain; containment and intersection
//! decided exactly; axis-aligned boxes.

use super::exact::{
    area2_v, classify, clean, pv, round_div, seg_meets_interior, segs_meet, vp, Loc, V,
};
use super::position::{Len, Point};
use super::segment::Seg;
use serde::{Deserialize, Serialize};

/// One base on the table: corners front-left, front-right, rear-right, rear-left
/// (clockwise seen from above). Convex for bases of a millimetre or more.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Quad(pub [Point; 4]);

impl Quad {
    /// The edges front, right, rear, left, each from one corner to the next (clockwise:
    /// the base's interior is on the right of each).
    pub fn edges(&self) -> [Seg; 4] {
        let c = self.0;
        [
            Seg::new(c[0], c[1]),
            Seg::new(c[1], c[2]),
            Seg::new(c[2], c[3]),
            Seg::new(c[3], c[0]),
        ]
    }

    /// `p` lies in the base or on its boundary (exact).
    pub fn contains(&self, p: Point) -> bool {
        classify(&self.v(), pv(p)) != Loc::Outside
    }

    /// The average of the four corners, rounded to nearest.
    pub fn centre(&self) -> Point {
        let v = self.v();
        let sx = v.iter().fold(0i128, |s, p| s.saturating_add(p.0));
        let sy = v.iter().fold(0i128, |s, p| s.saturating_add(p.1));
        vp((round_div(sx, 4), round_div(sy, 4)))
    }

    /// Twice the signed area (negative for a base: its corners run clockwise).
    pub fn area2(&self) -> i128 {
        area2_v(&self.v())
    }

    pub(super) fn v(&self) -> [V; 4] {
        self.0.map(pv)
    }
}

/// A simple polygon (its edges do not cross), possibly non-convex, in either
/// orientation; the last vertex joins the first. Used for terrain.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Polygon(pub Vec<Point>);

impl Polygon {
    pub(super) fn cleaned(&self) -> Vec<V> {
        clean(self.0.iter().copied().map(pv))
    }

    /// The axis-aligned box `[x_min, y_min, x_max, y_max]` round the vertices.
    pub fn aabb(&self) -> [i64; 4] {
        points_box(&self.0)
    }

    /// `p` lies in the closed box round the vertices: outside it, `p` is outside the
    /// polygon, and so is anything whose own box misses it (the tests below start here:
    /// most terrain is far from most units).
    fn box_holds(&self, p: Point) -> bool {
        boxes_meet(self.aabb(), [p.x.0, p.y.0, p.x.0, p.y.0])
    }

    /// The edges, vertex i to vertex i+1 (and the last back to the first).
    pub fn edges(&self) -> Vec<Seg> {
        let n = self.0.len();
        (0..n)
            .map(|i| Seg::new(self.0[i], self.0[(i + 1) % n]))
            .collect()
    }

    /// Twice the signed area: positive if the vertices run anticlockwise (seen from
    /// above, x right and y up), negative if clockwise.
    pub fn area2(&self) -> i128 {
        area2_v(&self.cleaned())
    }

    /// `p` lies inside the polygon or on its boundary (exact crossing number).
    ///
    /// ```
    /// use fm_core::huzzah::geometry::{Point, Polygon};
    /// // An L: the notch at top right is outside.
    /// let l = Polygon(vec![Point::cm(0, 0), Point::cm(4, 0), Point::cm(4, 2),
    ///                      Point::cm(2, 2), Point::cm(2, 4), Point::cm(0, 4)]);
    /// assert!(l.contains(Point::cm(1, 3)));
    /// assert!(!l.contains(Point::cm(3, 3)));
    /// assert!(l.contains(Point::cm(2, 3))); // on the boundary
    /// ```
    pub fn contains(&self, p: Point) -> bool {
        self.box_holds(p) && classify(&self.cleaned(), pv(p)) != Loc::Outside
    }

    /// `p` lies strictly inside the polygon (not on its boundary).
    pub fn contains_interior(&self, p: Point) -> bool {
        self.box_holds(p) && classify(&self.cleaned(), pv(p)) == Loc::Inside
    }

    /// The closed segment crosses, enters, touches or lies in the closed polygon.
    pub fn intersects_seg(&self, s: Seg) -> bool {
        if !boxes_meet(self.aabb(), points_box(&[s.a, s.b])) {
            return false;
        }
        let poly = self.cleaned();
        let (a, b) = (pv(s.a), pv(s.b));
        if classify(&poly, a) != Loc::Outside || classify(&poly, b) != Loc::Outside {
            return true;
        }
        let n = poly.len();
        (0..n).any(|i| segs_meet(a, b, poly[i], poly[(i + 1) % n]))
    }

    /// Some point of the segment lies strictly inside the polygon: it passes through the
    /// interior, not merely along or touching the boundary (exact).
    pub fn seg_enters_interior(&self, s: Seg) -> bool {
        if !boxes_meet(self.aabb(), points_box(&[s.a, s.b])) {
            return false;
        }
        let poly = self.cleaned();
        seg_meets_interior(&poly, area2_v(&poly).signum(), pv(s.a), pv(s.b))
    }

    /// The base and the polygon share a point (closed sets: touching counts).
    pub fn intersects_quad(&self, q: &Quad) -> bool {
        if !boxes_meet(self.aabb(), points_box(&q.0)) {
            return false;
        }
        let poly = self.cleaned();
        let qv = q.v();
        if qv.iter().any(|&c| classify(&poly, c) != Loc::Outside)
            || poly.iter().any(|&p| classify(&qv, p) != Loc::Outside)
        {
            return true;
        }
        let n = poly.len();
        (0..n)
            .any(|i| (0..4).any(|j| segs_meet(poly[i], poly[(i + 1) % n], qv[j], qv[(j + 1) % 4])))
    }

    /// The interiors of the base and the polygon intersect (touching does not count).
    pub fn interior_meets_quad(&self, q: &Quad) -> bool {
        if !boxes_meet(self.aabb(), points_box(&q.0)) {
            return false;
        }
        let poly = self.cleaned();
        let op = area2_v(&poly).signum();
        let qv = clean(q.v());
        let oq = area2_v(&qv).signum();
        if op == 0 || oq == 0 || poly.len() < 3 || qv.len() < 3 {
            return false;
        }
        let qn = qv.len();
        let pn = poly.len();
        if (0..qn).any(|j| seg_meets_interior(&poly, op, qv[j], qv[(j + 1) % qn]))
            || (0..pn).any(|i| seg_meets_interior(&qv, oq, poly[i], poly[(i + 1) % pn]))
        {
            return true;
        }
        // No boundary enters the other's interior: either disjoint or the same region.
        // Test the quad's centre exactly, at four times the scale.
        let c = qv.iter().fold((0i128, 0i128), |s, p| {
            (s.0.saturating_add(p.0), s.1.saturating_add(p.1))
        });
        let c = (
            c.0.saturating_mul(4) / qn as i128,
            c.1.saturating_mul(4) / qn as i128,
        );
        let scaled: Vec<V> = poly
            .iter()
            .map(|p| (p.0.saturating_mul(4), p.1.saturating_mul(4)))
            .collect();
        classify(&scaled, c) == Loc::Inside
    }
}

/// Two closed axis-aligned boxes (`[x_min, y_min, x_max, y_max]`) share a point.
pub fn boxes_meet(a: [i64; 4], b: [i64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// The axis-aligned box `[x_min, y_min, x_max, y_max]` round some points (an empty
/// box, min above max, for none).
pub fn points_box(points: &[Point]) -> [i64; 4] {
    points.iter().fold(
        [i64::MAX, i64::MAX, i64::MIN, i64::MIN],
        |[a, b, c, d], p| [a.min(p.x.0), b.min(p.y.0), c.max(p.x.0), d.max(p.y.0)],
    )
}

/// The squared gap between two boxes (0 where they meet): never more than the squared
/// distance between any point of one and any point of the other, so a cheap way to
/// rule a distance out. A point is the box `[x, y, x, y]`.
pub fn box_gap2(a: [i64; 4], b: [i64; 4]) -> i128 {
    let gap = |lo1: i64, hi1: i64, lo2: i64, hi2: i64| {
        i128::from(lo2.saturating_sub(hi1).max(lo1.saturating_sub(hi2)).max(0))
    };
    let (dx, dy) = (gap(a[0], a[2], b[0], b[2]), gap(a[1], a[3], b[1], b[3]));
    dx * dx + dy * dy
}

/// Whether two boxes are more than `d` apart, by a whole unit (distances are rounded
/// down to whole units): then nothing in one is within `d` of anything in the other.
pub fn boxes_beyond(a: [i64; 4], b: [i64; 4], d: Len) -> bool {
    let far = i128::from(d.0.max(0)) + 1;
    box_gap2(a, b) >= far * far
}

/// The smallest box holding both.
pub fn box_union(a: [i64; 4], b: [i64; 4]) -> [i64; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::fixtures::{p, q};

    #[test]
    fn quad_basics() {
        let b = q([(0, 0), (400, 0), (400, -400), (0, -400)]);
        assert!(b.contains(p(200, -200)));
        assert!(b.contains(p(400, -100))); // boundary
        assert!(b.contains(p(0, 0))); // corner
        assert!(!b.contains(p(401, -100)));
        assert_eq!(b.centre(), p(200, -200));
        assert_eq!(b.area2(), -2 * 400 * 400);
        assert_eq!(b.edges()[1], Seg::new(p(400, 0), p(400, -400)));
    }

    /// A U: the notch between x = 1000 and 2000 above y = 1000 is outside.
    fn u_shape() -> Polygon {
        Polygon(vec![
            p(0, 0),
            p(3000, 0),
            p(3000, 3000),
            p(2000, 3000),
            p(2000, 1000),
            p(1000, 1000),
            p(1000, 3000),
            p(0, 3000),
        ])
    }

    #[test]
    fn polygon_contains_non_convex() {
        let u = u_shape();
        assert!(u.area2() > 0);
        assert_eq!(u.area2(), 2 * (3000 * 3000 - 1000 * 2000));
        assert!(u.contains(p(500, 500)));
        assert!(u.contains(p(500, 2500)));
        assert!(u.contains(p(2500, 2500)));
        assert!(!u.contains(p(1500, 2000))); // in the notch
        assert!(u.contains(p(1500, 1000))); // notch floor: boundary
        assert!(!u.contains_interior(p(1500, 1000)));
        assert!(u.contains(p(2000, 2000))); // notch wall
        assert!(u.contains(p(3000, 3000))); // vertex
        assert!(!u.contains(p(3500, 0)));
        assert!(!u.contains(p(-1, 1000)));
        // Points level with vertices (the crossing rule's awkward cases).
        assert!(u.contains(p(500, 1000)) && u.contains(p(2500, 1000)));
        assert!(!u.contains(p(-500, 1000)) && !u.contains(p(3500, 3000)));
        // Orientation does not matter.
        let mut rev = u.0.clone();
        rev.reverse();
        let rev = Polygon(rev);
        assert!(rev.area2() < 0);
        assert!(rev.contains(p(500, 500)) && !rev.contains(p(1500, 2000)));
        assert_eq!(u.edges().len(), 8);
        // Degenerate polygons contain nothing but their points.
        assert!(!Polygon(vec![]).contains(p(0, 0)));
        assert!(Polygon(vec![p(1, 1)]).contains(p(1, 1)));
    }

    #[test]
    fn polygon_segments_non_convex() {
        let u = u_shape();
        let seg = |a: (i64, i64), b: (i64, i64)| Seg::new(p(a.0, a.1), p(b.0, b.1));
        // Inside the notch: outside the polygon altogether.
        let s = seg((1500, 2000), (1500, 2500));
        assert!(!u.intersects_seg(s) && !u.seg_enters_interior(s));
        // From the notch down through its floor.
        let s = seg((1500, 2000), (1500, 500));
        assert!(u.intersects_seg(s) && u.seg_enters_interior(s));
        // Above the U.
        assert!(!u.intersects_seg(seg((500, 3500), (2500, 3500))));
        // Across the top of the notch: enters both arms.
        let s = seg((500, 2500), (2500, 2500));
        assert!(u.seg_enters_interior(s));
        // Across the notch, wall to wall: touches only.
        let s = seg((1000, 2000), (2000, 2000));
        assert!(u.intersects_seg(s) && !u.seg_enters_interior(s));
        // Along the notch floor: boundary only.
        let s = seg((1000, 1000), (2000, 1000));
        assert!(u.intersects_seg(s) && !u.seg_enters_interior(s));
        // Along the floor and beyond into the arm: enters.
        assert!(u.seg_enters_interior(seg((1500, 1000), (2500, 1000))));
        // From the notch's inner corner into the left arm / into the notch.
        assert!(u.seg_enters_interior(seg((1000, 1000), (0, 2000))));
        assert!(!u.seg_enters_interior(seg((1000, 1000), (2000, 2000))));
        // Vertex to vertex across the notch (diagonal, outside).
        assert!(!u.seg_enters_interior(seg((1000, 3000), (2000, 1000))));
        // From outside through the top of the left arm corner only.
        assert!(!u.seg_enters_interior(seg((-1000, 2000), (0, 3000))));
        assert!(u.seg_enters_interior(seg((-100, 1500), (500, 1500))));
        // Along the tops of both arms and across the notch's mouth: boundary only.
        let s = seg((-500, 3000), (3500, 3000));
        assert!(u.intersects_seg(s) && !u.seg_enters_interior(s));
        // Reflex corner to reflex corner through the interior of an I-beam.
        let beam = Polygon(
            [
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
            ]
            .iter()
            .map(|&(x, y)| p(x * 1000, y * 1000))
            .collect(),
        );
        assert!(beam.seg_enters_interior(seg((1000, 1000), (3000, 3000))));
        assert!(beam.seg_enters_interior(seg((1000, 1000), (3000, 1000))));
        assert!(!beam.seg_enters_interior(seg((0, 1000), (1000, 1000))));
    }

    #[test]
    fn polygon_and_quads() {
        let u = u_shape();
        let in_notch = q([(1200, 2800), (1800, 2800), (1800, 1200), (1200, 1200)]);
        assert!(!u.intersects_quad(&in_notch) && !u.interior_meets_quad(&in_notch));
        let on_arm = q([(500, 3200), (1500, 3200), (1500, 2200), (500, 2200)]);
        assert!(u.intersects_quad(&on_arm) && u.interior_meets_quad(&on_arm));
        let touching_wall = q([(1000, 2800), (1500, 2800), (1500, 1500), (1000, 1500)]);
        assert!(u.intersects_quad(&touching_wall) && !u.interior_meets_quad(&touching_wall));
        let inside = q([(100, 900), (900, 900), (900, 100), (100, 100)]);
        assert!(u.intersects_quad(&inside) && u.interior_meets_quad(&inside));
        let around = q([(-10, 4000), (4000, 4000), (4000, -10), (-10, -10)]);
        assert!(u.intersects_quad(&around) && u.interior_meets_quad(&around));
        // A polygon equal to the quad.
        let sq = Polygon(inside.0.to_vec());
        assert!(sq.interior_meets_quad(&inside));
    }
}
