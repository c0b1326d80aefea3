//! A unit on the table (page 2: a unit is a formation of bases): [`Shape`], its anchor,
//! facing and ranks, from which come its bases, faces ([`Face`]; page 22: a square has
//! no flank or rear), centre and bounding box, and how it moves and turns.

use super::exact::{sat64, V};
use super::polygon::{Polygon, Quad};
use super::position::{Facing, Len, Point};
use super::reach::swept_back;
use super::segment::Seg;
use super::trig::{local2, rotate};
use serde::{Deserialize, Serialize};

/// A face of a unit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// The front edge of the front rank.
    Front,
    /// The unit's right side (full depth).
    Right,
    /// The rear edge of the rear rank.
    Rear,
    /// The unit's left side (full depth).
    Left,
}

impl Face {
    /// All four, in the tie-break order used by [`closest_visible_face`].
    ///
    /// [`closest_visible_face`]: super::closest_visible_face
    pub const ALL: [Face; 4] = [Face::Front, Face::Right, Face::Rear, Face::Left];
}

/// A unit's geometry on the table: where it stands and how its bases are arranged.
///
/// `ranks` holds the number of bases in each rank, front first; each rank is centred on
/// the unit's axis behind the `anchor` (the centre of the front edge of rank 0). A unit
/// in `square` keeps the same footprint but has only fronts (p.22) and cannot move.
///
/// JSON: `{"anchor": {"x": 900, "y": 300}, "facing": 0, "ranks": [4], "base_mm": 40,
/// "square": false}`, lengths in millimetres.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, Hash)]
pub struct Shape {
    /// The centre of the front edge of the front rank (millimetres).
    pub anchor: Point,
    /// Where the unit looks: whole degrees clockwise from +y (0 faces side B).
    pub facing: Facing,
    /// Bases per rank, front rank first.
    pub ranks: Vec<u8>,
    /// The side of every (square) base (JSON `base_mm`, millimetres).
    #[serde(rename = "base_mm")]
    pub base: Len,
    /// The unit is in square: every face is a front.
    pub square: bool,
}

impl Shape {
    /// A unit (not in square) with the given anchor, facing, ranks and base size.
    pub fn new(anchor: Point, facing: Facing, ranks: Vec<u8>, base: Len) -> Shape {
        Shape {
            anchor,
            facing,
            ranks,
            base,
            square: false,
        }
    }

    pub(super) fn b(&self) -> i128 {
        i128::from(self.base.0.max(0))
    }

    pub(super) fn front_n(&self) -> i128 {
        i128::from(self.ranks.first().copied().unwrap_or(0))
    }

    fn rear_n(&self) -> i128 {
        i128::from(self.ranks.last().copied().unwrap_or(0))
    }

    /// Doubled half-width (= width) and doubled depth, in local units.
    fn w2(&self) -> i128 {
        i128::from(self.ranks.iter().copied().max().unwrap_or(0)) * self.b()
    }

    fn d2(&self) -> i128 {
        2 * self.ranks.len() as i128 * self.b()
    }

    pub(super) fn at(&self, r2: i128, f2: i128) -> Point {
        local2(self.anchor, self.facing, r2, f2)
    }

    /// Doubled local centre of base j of rank k with n bases.
    fn base_centre2(&self, k: usize, j: i128, n: i128) -> (i128, i128) {
        let b = self.b();
        ((2 * j - (n - 1)) * b, -(2 * k as i128 + 1) * b)
    }

    /// The bases, rank by rank from the front, each rank left to right (the unit's own
    /// left). Base j of a rank of n has its centre `(j − (n−1)/2)·base` to the right of
    /// the axis and `(k + ½)·base` behind the anchor for rank k.
    ///
    /// ```
    /// use fm_core::huzzah::geometry::{Facing, Len, Point, Quad, Shape};
    /// let s = Shape::new(Point::cm(0, 0), Facing(0), vec![2, 2], Len::cm(4));
    /// let b = s.bases();
    /// assert_eq!(b.len(), 4);
    /// // Front-left base: corners front-left, front-right, rear-right, rear-left.
    /// assert_eq!(b[0], Quad([Point::cm(-4, 0), Point::cm(0, 0), Point::cm(0, -4), Point::cm(-4, -4)]));
    /// assert_eq!(s.centre(), Point::cm(0, -4));
    /// ```
    pub fn bases(&self) -> Vec<Quad> {
        let b = self.b();
        let mut out = Vec::with_capacity(self.base_count());
        for (k, &n) in self.ranks.iter().enumerate() {
            let n = i128::from(n);
            for j in 0..n {
                let (cx, cy) = self.base_centre2(k, j, n);
                out.push(Quad([
                    self.at(cx - b, cy + b),
                    self.at(cx + b, cy + b),
                    self.at(cx + b, cy - b),
                    self.at(cx - b, cy - b),
                ]));
            }
        }
        out
    }

    /// The number of bases.
    pub fn base_count(&self) -> usize {
        self.ranks.iter().map(|&n| usize::from(n)).sum()
    }

    /// The midpoint of the front edge of base `i` (in [`Shape::bases`] order), computed
    /// from the local coordinates (so it coincides with any corner or seam end there).
    pub fn base_front_mid(&self, i: usize) -> Option<Point> {
        let mut rest = i;
        for (k, &n) in self.ranks.iter().enumerate() {
            let nu = usize::from(n);
            if rest < nu {
                let (cx, cy) = self.base_centre2(k, rest as i128, i128::from(n));
                return Some(self.at(cx, cy + self.b()));
            }
            rest -= nu;
        }
        None
    }

    /// The width: the widest rank times the base.
    pub fn width(&self) -> Len {
        Len(sat64(self.w2()))
    }

    /// The depth: the number of ranks times the base.
    pub fn depth(&self) -> Len {
        Len(sat64(self.d2() / 2))
    }

    /// The centre of the bounding box: the anchor moved back half the depth.
    pub fn centre(&self) -> Point {
        self.at(0, -self.d2() / 2)
    }

    /// The bounding box (full width by full depth, centred on the axis), corners
    /// front-left, front-right, rear-right, rear-left.
    pub fn bounding_box(&self) -> Quad {
        let (w, d) = (self.w2(), self.d2());
        Quad([
            self.at(-w, 0),
            self.at(w, 0),
            self.at(w, -d),
            self.at(-w, -d),
        ])
    }

    /// One face. Front: the front edge of rank 0; rear: the rear edge of the last rank;
    /// right and left: the sides of the bounding box, full depth. Each runs clockwise
    /// round the unit (front left→right, right front→back, rear right→left, left
    /// back→front), so the unit is on the segment's right and the outside on its left.
    pub fn face(&self, f: Face) -> Seg {
        let (w, d) = (self.w2(), self.d2());
        let b = self.b();
        match f {
            Face::Front => {
                let h = self.front_n() * b;
                Seg::new(self.at(-h, 0), self.at(h, 0))
            }
            Face::Right => Seg::new(self.at(w, 0), self.at(w, -d)),
            Face::Rear => {
                let h = self.rear_n() * b;
                Seg::new(self.at(h, -d), self.at(-h, -d))
            }
            Face::Left => Seg::new(self.at(-w, -d), self.at(-w, 0)),
        }
    }

    /// All four faces, in the order front, right, rear, left.
    pub fn faces(&self) -> [(Face, Seg); 4] {
        Face::ALL.map(|f| (f, self.face(f)))
    }

    /// The unit moved `forward` ahead and `right` to its right, keeping its facing.
    pub fn translated(&self, forward: Len, right: Len) -> Shape {
        self.with_anchor(rotate(self.anchor, self.facing, right, forward))
    }

    /// The unit turned about (facing + 180) about its centre, so the footprint stays
    /// put: the new anchor is the centre of the old bounding box's rear edge. The ranks
    /// stay front-first relative to the new facing and centred on the same centre: a
    /// rectangular formation keeps its rectangle (exactly at multiples of 90°; otherwise
    /// corners within 0.15 mm and the centre within 0.1 mm, from rounding); uneven ranks
    /// are mirrored front to back (3 then 2 becomes 3 at the new front, 2 behind).
    /// Turning about twice gives back exactly the same shape.
    pub fn turned_about(&self) -> Shape {
        Shape {
            anchor: self.at(0, -self.d2()),
            facing: self.facing.opposite(),
            ..self.clone()
        }
    }

    /// The same unit with its anchor at `anchor`.
    pub fn with_anchor(&self, anchor: Point) -> Shape {
        Shape {
            anchor,
            ..self.clone()
        }
    }

    /// The same unit with facing `facing`, pivoted about its anchor.
    pub fn with_facing(&self, facing: Facing) -> Shape {
        Shape {
            facing,
            ..self.clone()
        }
    }

    /// The axis-aligned box `[x_min, y_min, x_max, y_max]` round the footprint, widened
    /// by 2 units against the rounding of rotated corners: every base lies inside it.
    ///
    /// Worked out from the centre and the rotated half extents (one rotation, not
    /// four): each corner is its exact point rounded by at most half a unit, and so is
    /// the centre, so the half extents rounded up and widened by 2 hold every corner.
    pub fn aabb(&self) -> [i64; 4] {
        let (s, c) = super::trig::sin_cos(self.facing);
        // Doubled width and depth in the unit's frame: half extents are w/2 and d/4.
        let (w, d) = (self.w2(), self.d2());
        // Every unit on a table (under 2^30 units, 100 km): the products stay under
        // 2^52, so `i64` gives the very quotient of the `i128` path.
        let (hx, hy) = if w < 1 << 30 && d < 1 << 30 {
            let (s, c) = (s.abs(), c.abs());
            let (w, d) = (w as i64, d as i64);
            let den = 4 * super::trig::TRIG_ONE;
            let half = |a: i64, b: i64| (2 * w * a + d * b + den - 1) / den + 2;
            (half(c, s), half(s, c))
        } else {
            self.half_extents_wide((s, c), w, d)
        };
        let o = self.centre();
        [
            o.x.0.saturating_sub(hx),
            o.y.0.saturating_sub(hy),
            o.x.0.saturating_add(hx),
            o.y.0.saturating_add(hy),
        ]
    }

    /// [`Shape::aabb`]'s half extents (widened by 2) in `i128`, saturating: any size.
    fn half_extents_wide(&self, (s, c): (i64, i64), w: i128, d: i128) -> (i64, i64) {
        let (s, c) = (i128::from(s.unsigned_abs()), i128::from(c.unsigned_abs()));
        let den = 4 * i128::from(super::trig::TRIG_ONE);
        let half = |a: i128, b: i128| {
            let n = (2 * w)
                .saturating_mul(a)
                .saturating_add(d.saturating_mul(b));
            sat64(n.saturating_add(den - 1) / den).saturating_add(2)
        };
        (half(c, s), half(s, c))
    }

    /// Every corner of every base, four per base in [`Shape::bases`] order.
    pub fn footprint_corners(&self) -> Vec<Point> {
        self.bases().iter().flat_map(|q| q.0).collect()
    }

    /// The outline of the footprint (the union of the bases) as one polygon:
    /// [`swept_back`] by zero.
    pub fn outline(&self) -> Polygon {
        swept_back(self, Len::ZERO)
    }
}

pub(super) fn quads_v(s: &Shape) -> Vec<[V; 4]> {
    s.bases().iter().map(Quad::v).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::dist;
    use crate::huzzah::geometry::fixtures::{p, q, unit};

    #[test]
    fn the_box_holds_every_corner_at_every_facing() {
        for facing in 0..360u16 {
            for ranks in [vec![1], vec![4], vec![2, 2], vec![3, 1], vec![1, 1, 1, 1]] {
                for (x, y, base) in [(0, 0, 400), (9001, -333, 400), (1234, 5678, 257)] {
                    let s = Shape::new(
                        Point::new(Len(x), Len(y)),
                        Facing(facing),
                        ranks.clone(),
                        Len(base),
                    );
                    let [x0, y0, x1, y1] = s.aabb();
                    for p in s.footprint_corners().into_iter().chain(s.bounding_box().0) {
                        assert!(
                            x0 <= p.x.0 && p.x.0 <= x1 && y0 <= p.y.0 && p.y.0 <= y1,
                            "{facing} {ranks:?}: {p:?} outside {:?}",
                            [x0, y0, x1, y1]
                        );
                    }
                    // And not loose: within 3 units of the corners' own box.
                    let q = s.bounding_box().0;
                    let lo = q.iter().map(|p| p.x.0).min().unwrap();
                    assert!(lo - x0 <= 3, "{facing} {ranks:?}");
                }
            }
        }
    }

    #[test]
    fn the_small_box_path_agrees_with_the_wide_one() {
        for facing in 0..360u16 {
            for ranks in [
                vec![1],
                vec![4],
                vec![2, 2],
                vec![3, 1],
                vec![24],
                vec![1; 24],
            ] {
                for base in [1, 257, 400, 1000, 40_000] {
                    let s = Shape::new(Point::cm(3, -7), Facing(facing), ranks.clone(), Len(base));
                    let (sn, cs) = super::super::trig::sin_cos(s.facing);
                    let (w, d) = (s.w2(), s.d2());
                    assert!(w < 1 << 30 && d < 1 << 30);
                    let [x0, y0, x1, y1] = s.aabb();
                    let o = s.centre();
                    let (hx, hy) = s.half_extents_wide((sn, cs), w, d);
                    assert_eq!(
                        [x0, y0, x1, y1],
                        [o.x.0 - hx, o.y.0 - hy, o.x.0 + hx, o.y.0 + hy],
                        "{facing} {ranks:?} {base}"
                    );
                }
            }
        }
    }

    #[test]
    fn two_by_two_at_facing_0() {
        let s = unit(0, 0, 0, &[2, 2], 400);
        assert_eq!(
            s.bases(),
            vec![
                q([(-400, 0), (0, 0), (0, -400), (-400, -400)]),
                q([(0, 0), (400, 0), (400, -400), (0, -400)]),
                q([(-400, -400), (0, -400), (0, -800), (-400, -800)]),
                q([(0, -400), (400, -400), (400, -800), (0, -800)]),
            ]
        );
        assert_eq!((s.width(), s.depth()), (Len(800), Len(800)));
        assert_eq!(s.centre(), p(0, -400));
        assert_eq!(s.base_count(), 4);
        assert_eq!(s.face(Face::Front), Seg::new(p(-400, 0), p(400, 0)));
        assert_eq!(s.face(Face::Right), Seg::new(p(400, 0), p(400, -800)));
        assert_eq!(s.face(Face::Rear), Seg::new(p(400, -800), p(-400, -800)));
        assert_eq!(s.face(Face::Left), Seg::new(p(-400, -800), p(-400, 0)));
        assert_eq!(s.faces()[2], (Face::Rear, s.face(Face::Rear)));
        assert_eq!(s.base_front_mid(0), Some(p(-200, 0)));
        assert_eq!(s.base_front_mid(3), Some(p(200, -400)));
        assert_eq!(s.base_front_mid(4), None);
        assert_eq!(s.footprint_corners().len(), 16);
        assert!(s.bases().iter().all(|b| b.area2() < 0)); // clockwise
    }

    #[test]
    fn two_by_two_at_facing_90() {
        // Facing +x: local (right, forward) maps to table (x + forward, y - right).
        let s = unit(1000, 1000, 90, &[2, 2], 400);
        let b = s.bases();
        assert_eq!(
            b[0],
            q([(1000, 1400), (1000, 1000), (600, 1000), (600, 1400)])
        );
        assert_eq!(
            b[1],
            q([(1000, 1000), (1000, 600), (600, 600), (600, 1000)])
        );
        assert_eq!(b[3], q([(600, 1000), (600, 600), (200, 600), (200, 1000)]));
        assert_eq!(s.centre(), p(600, 1000));
        assert_eq!(s.face(Face::Front), Seg::new(p(1000, 1400), p(1000, 600)));
        assert_eq!(s.face(Face::Rear), Seg::new(p(200, 600), p(200, 1400)));
        assert_eq!(s.face(Face::Right), Seg::new(p(1000, 600), p(200, 600)));
    }

    #[test]
    fn three_and_two_at_facing_0_and_90() {
        let s = unit(0, 0, 0, &[3, 2], 400);
        assert_eq!(
            s.bases(),
            vec![
                q([(-600, 0), (-200, 0), (-200, -400), (-600, -400)]),
                q([(-200, 0), (200, 0), (200, -400), (-200, -400)]),
                q([(200, 0), (600, 0), (600, -400), (200, -400)]),
                q([(-400, -400), (0, -400), (0, -800), (-400, -800)]),
                q([(0, -400), (400, -400), (400, -800), (0, -800)]),
            ]
        );
        assert_eq!((s.width(), s.depth()), (Len(1200), Len(800)));
        assert_eq!(s.centre(), p(0, -400));
        assert_eq!(s.face(Face::Front), Seg::new(p(-600, 0), p(600, 0)));
        assert_eq!(s.face(Face::Rear), Seg::new(p(400, -800), p(-400, -800)));
        assert_eq!(s.face(Face::Right), Seg::new(p(600, 0), p(600, -800)));
        assert_eq!(s.face(Face::Left), Seg::new(p(-600, -800), p(-600, 0)));
        let t = unit(0, 0, 90, &[3, 2], 400);
        assert_eq!(
            t.bases()[0],
            q([(0, 600), (0, 200), (-400, 200), (-400, 600)])
        );
        assert_eq!(
            t.bases()[4],
            q([(-400, 0), (-400, -400), (-800, -400), (-800, 0)])
        );
        assert_eq!(t.centre(), p(-400, 0));
        assert_eq!(t.face(Face::Rear), Seg::new(p(-800, -400), p(-800, 400)));
        // An odd base size still keeps the layout symmetric (half units rounded away).
        let o = unit(0, 0, 0, &[3], 401);
        assert_eq!(o.face(Face::Front), Seg::new(p(-602, 0), p(602, 0)));
        assert_eq!(o.bases()[1].0[0], p(-201, 0));
    }

    #[test]
    fn moving_and_turning() {
        let s = unit(0, 0, 90, &[2, 2], 400);
        assert_eq!(s.translated(Len(100), Len(50)).anchor, p(100, -50));
        assert_eq!(s.translated(Len(100), Len(50)).facing, Facing(90));
        let t = s.turned_about();
        assert_eq!(t.facing, Facing(270));
        assert_eq!(t.anchor, p(-800, 0));
        assert_eq!(t.centre(), s.centre());
        let mut a: Vec<Point> = s.footprint_corners();
        let mut b: Vec<Point> = t.footprint_corners();
        a.sort_by_key(|p| (p.x, p.y));
        b.sort_by_key(|p| (p.x, p.y));
        a.dedup();
        b.dedup();
        assert_eq!(a, b);
        assert_eq!(t.turned_about(), s);
        // Uneven ranks are mirrored: the wide rank is at the new front.
        let u = unit(0, 0, 0, &[3, 2], 400).turned_about();
        assert_eq!(u.anchor, p(0, -800));
        assert_eq!(u.face(Face::Front), Seg::new(p(600, -800), p(-600, -800)));
        assert_eq!(u.face(Face::Rear), Seg::new(p(-400, 0), p(400, 0)));
        // At an odd angle, rounding: corners within 1.5 units, the centre within 1.
        for f in [1u16, 30, 37, 45, 123, 301] {
            let s = unit(12_345, -678, f, &[4, 4], 400);
            let t = s.turned_about();
            assert!(dist(t.centre(), s.centre()) <= Len(1), "{f}");
            for c in t.footprint_corners() {
                let near = s
                    .footprint_corners()
                    .iter()
                    .map(|&d| dist(c, d))
                    .min()
                    .unwrap();
                assert!(near <= Len(2), "{f}: {c:?}");
            }
            assert_eq!(t.turned_about(), s, "{f}");
        }
        let w = s.with_anchor(p(7, 7)).with_facing(Facing(0));
        assert_eq!(
            (w.anchor, w.facing, w.ranks.clone()),
            (p(7, 7), Facing(0), vec![2, 2])
        );
    }
}
