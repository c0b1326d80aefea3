//! Distances and segments: the integer square root, the floor of exact distances between
//! points and segments, [`Seg`], and exact segment intersection.

use super::exact::{
    dot, floor_sq_point_seg, floor_sq_seg_seg, len_of, norm2, pv, round_div, segs_meet, u2i, vp,
    vsub,
};
use super::position::{Len, Point};
use serde::{Deserialize, Serialize};

/// The integer square root: the largest `r` with `r² <= n`.
///
/// ```
/// use fm_core::huzzah::geometry::isqrt;
/// assert_eq!(isqrt(24), 4);
/// assert_eq!(isqrt(25), 5);
/// assert_eq!(isqrt(u128::MAX), u64::MAX);
/// ```
pub fn isqrt(n: u128) -> u64 {
    if n < 2 {
        return n as u64;
    }
    // Digit-by-digit (base 4): no floating point, no overflow.
    let mut x = n;
    let mut res: u128 = 0;
    let mut bit: u128 = 1 << 126;
    while bit > x {
        bit >>= 2;
    }
    while bit != 0 {
        if x >= res + bit {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    res as u64
}

/// The distance between two points: the floor of the exact Euclidean distance.
///
/// ```
/// use fm_core::huzzah::geometry::{dist, Len, Point};
/// assert_eq!(dist(Point::cm(0, 0), Point::cm(3, 4)), Len::cm(5));
/// assert_eq!(dist(Point::new(Len(0), Len(0)), Point::new(Len(1), Len(1))), Len(1));
/// ```
pub fn dist(a: Point, b: Point) -> Len {
    len_of(isqrt(norm2(vsub(pv(a), pv(b)))))
}

/// A directed line segment from `a` to `b` (closed: both ends belong to it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Seg {
    /// Start.
    pub a: Point,
    /// End.
    pub b: Point,
}

impl Seg {
    /// The segment from `a` to `b`.
    pub const fn new(a: Point, b: Point) -> Seg {
        Seg { a, b }
    }

    /// The midpoint, each coordinate rounded to nearest (ties away from zero).
    pub fn mid(&self) -> Point {
        let (a, b) = (pv(self.a), pv(self.b));
        vp((
            round_div(a.0.saturating_add(b.0), 2),
            round_div(a.1.saturating_add(b.1), 2),
        ))
    }

    /// The length (floor of the exact length).
    pub fn len(&self) -> Len {
        dist(self.a, self.b)
    }

    /// True if the segment is a single point (`a == b`).
    pub fn is_empty(&self) -> bool {
        self.a == self.b
    }

    /// The same segment traversed from `b` to `a`.
    pub fn reversed(&self) -> Seg {
        Seg::new(self.b, self.a)
    }
}

/// The distance from `p` to the nearest point of segment `s` (floor of the exact value).
pub fn dist_point_seg(p: Point, s: Seg) -> Len {
    len_of(isqrt(floor_sq_point_seg(pv(p), pv(s.a), pv(s.b))))
}

/// The distance between the nearest points of two segments (floor of the exact value);
/// 0 if they intersect or touch.
pub fn dist_seg_seg(s: Seg, t: Seg) -> Len {
    len_of(isqrt(floor_sq_seg_seg(pv(s.a), pv(s.b), pv(t.a), pv(t.b))))
}

/// The two closed segments share at least one point (exact orientation tests; touching
/// at an end, or overlapping collinearly, counts).
///
/// ```
/// use fm_core::huzzah::geometry::{segs_intersect, Point, Seg};
/// let s = Seg::new(Point::cm(0, 0), Point::cm(4, 4));
/// assert!(segs_intersect(s, Seg::new(Point::cm(0, 4), Point::cm(4, 0))));
/// assert!(segs_intersect(s, Seg::new(Point::cm(4, 4), Point::cm(9, 0)))); // touching
/// assert!(!segs_intersect(s, Seg::new(Point::cm(1, 0), Point::cm(5, 4)))); // parallel
/// ```
pub fn segs_intersect(s: Seg, t: Seg) -> bool {
    segs_meet(pv(s.a), pv(s.b), pv(t.a), pv(t.b))
}

/// The point of `s` nearest `p`, rounded to nearest (ties away from zero).
pub fn nearest_point_on_seg(p: Point, s: Seg) -> Point {
    let (a, b, p) = (pv(s.a), pv(s.b), pv(p));
    let ab = vsub(b, a);
    let l2 = u2i(norm2(ab));
    if l2 == 0 {
        return s.a;
    }
    let t = dot(vsub(p, a), ab);
    if t <= 0 {
        return s.a;
    }
    if t >= l2 {
        return s.b;
    }
    vp((
        a.0.saturating_add(round_div(t.saturating_mul(ab.0), l2)),
        a.1.saturating_add(round_div(t.saturating_mul(ab.1), l2)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::fixtures::p;

    #[test]
    fn isqrt_is_the_floor() {
        for n in 0u128..2000 {
            let r = u128::from(isqrt(n));
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
        for &n in &[
            u128::MAX,
            u128::MAX - 1,
            1u128 << 127,
            (1u128 << 64) - 1,
            1u128 << 64,
            10u128.pow(34),
            10u128.pow(34) - 1,
        ] {
            let r = u128::from(isqrt(n));
            assert!(r.checked_mul(r).is_some_and(|s| s <= n), "{n}");
            assert!((r + 1).checked_mul(r + 1).map_or(true, |s| s > n), "{n}");
        }
        assert_eq!(isqrt(u128::MAX), u64::MAX);
    }

    #[test]
    fn distances_are_floors() {
        assert_eq!(dist(p(0, 0), p(300, 400)), Len(500));
        assert_eq!(dist(p(0, 0), p(1, 1)), Len(1));
        assert_eq!(dist(p(0, 0), p(2, 2)), Len(2)); // 2.83
        assert_eq!(dist(p(-5, -5), p(-5, -5)), Len(0));
        let s = Seg::new(p(0, 0), p(1000, 0));
        assert_eq!(dist_point_seg(p(500, 300), s), Len(300));
        assert_eq!(dist_point_seg(p(-300, 400), s), Len(500));
        assert_eq!(dist_point_seg(p(1300, -400), s), Len(500));
        // Oblique: distance from (0, 10) to the line x = y is 7.07.
        assert_eq!(
            dist_point_seg(p(0, 10), Seg::new(p(-100, -100), p(100, 100))),
            Len(7)
        );
        assert_eq!(dist_point_seg(p(7, 7), Seg::new(p(7, 7), p(7, 7))), Len(0));
        let t = Seg::new(p(0, 200), p(1000, 200));
        assert_eq!(dist_seg_seg(s, t), Len(200));
        assert_eq!(dist_seg_seg(s, Seg::new(p(500, -10), p(500, 10))), Len(0));
        assert_eq!(
            dist_seg_seg(s, Seg::new(p(1300, 400), p(2000, 400))),
            Len(500)
        );
        assert_eq!(s.mid(), p(500, 0));
        assert_eq!(Seg::new(p(0, 0), p(3, -3)).mid(), p(2, -2)); // 1.5, -1.5 away from 0
        assert_eq!(s.len(), Len(1000));
        assert!(!s.is_empty() && Seg::new(p(1, 1), p(1, 1)).is_empty());
        assert_eq!(s.reversed(), Seg::new(p(1000, 0), p(0, 0)));
    }

    #[test]
    fn segment_intersection_is_exact() {
        let s = Seg::new(p(0, 0), p(10, 10));
        assert!(segs_intersect(s, Seg::new(p(0, 10), p(10, 0))));
        assert!(segs_intersect(s, Seg::new(p(10, 10), p(20, 0)))); // end to end
        assert!(segs_intersect(s, Seg::new(p(5, 5), p(20, 0)))); // end on interior
        assert!(segs_intersect(s, Seg::new(p(5, 5), p(20, 20)))); // collinear overlap
        assert!(!segs_intersect(s, Seg::new(p(11, 11), p(20, 20)))); // collinear apart
        assert!(!segs_intersect(s, Seg::new(p(1, 0), p(11, 10)))); // parallel
        assert!(!segs_intersect(s, Seg::new(p(6, 5), p(20, 0))));
        // Nearly parallel long segments (a difference no float would see reliably).
        let big = Seg::new(p(-100_000_000, -100_000_000), p(100_000_000, 100_000_001));
        assert!(!segs_intersect(
            big,
            Seg::new(p(-100_000_000, -99_999_999), p(100_000_000, 100_000_002))
        ));
        assert!(segs_intersect(
            big,
            Seg::new(p(-100_000_000, -99_999_999), p(100_000_000, 100_000_000))
        ));
        // Degenerate segments.
        assert!(segs_intersect(Seg::new(p(5, 5), p(5, 5)), s));
        assert!(!segs_intersect(Seg::new(p(5, 6), p(5, 6)), s));
        assert_eq!(nearest_point_on_seg(p(3, 0), s), p(2, 2)); // (1.5, 1.5) rounded away
        assert_eq!(nearest_point_on_seg(p(-3, 0), s), p(0, 0));
        assert_eq!(nearest_point_on_seg(p(30, 30), s), p(10, 10));
    }
}
