//! Trigonometry without floating point: the fixed sine table scaled by [`TRIG_ONE`]
//! (`scripts/gen_trig.py`), [`sin_cos`] for any whole-degree facing, and [`rotate`], which
//! maps a position in a unit's own frame to the table with one exact rounding.

use super::exact::{round_div, sat64};
use super::position::{Facing, Len, Point};

/// The scale of [`sin_cos`]: 1.0 is `TRIG_ONE`.
pub const TRIG_ONE: i64 = 1 << 20;

/// `round(sin(d°) * 2^20)` for d = 0..=90, from `scripts/gen_trig.py`.
const SIN_TABLE: [i64; 91] = [
    0, 18300, 36595, 54878, 73145, 91389, 109606, 127789, 145934, 164033, 182083, 200078, 218011,
    235878, 253673, 271391, 289027, 306574, 324028, 341383, 358634, 375776, 392803, 409711, 426494,
    443147, 459665, 476044, 492277, 508360, 524288, 540057, 555661, 571095, 586356, 601438, 616338,
    631049, 645568, 659890, 674012, 687928, 701634, 715127, 728402, 741455, 754282, 766880, 779244,
    791370, 803256, 814897, 826289, 837430, 848316, 858943, 869309, 879410, 889243, 898805, 908093,
    917105, 925838, 934288, 942454, 950333, 957922, 965219, 972223, 978930, 985339, 991448, 997255,
    1002758, 1007956, 1012847, 1017429, 1021701, 1025662, 1029311, 1032646, 1035666, 1038371,
    1040760, 1042832, 1044586, 1046022, 1047139, 1047937, 1048416, 1048576,
];

/// `(sin f, cos f)` scaled by [`TRIG_ONE`], from a fixed table for 0..=90 degrees and
/// symmetry for the rest: exact 0 and ±`TRIG_ONE` at multiples of 90, and exactly
/// `sin_cos(f.opposite()) == (-sin, -cos)`. The unit vector *ahead* for facing `f` is
/// `(sin, cos)`; the unit's right is `(cos, -sin)`.
///
/// ```
/// use fm_core::huzzah::geometry::{sin_cos, Facing, TRIG_ONE};
/// assert_eq!(sin_cos(Facing(0)), (0, TRIG_ONE));
/// assert_eq!(sin_cos(Facing(90)), (TRIG_ONE, 0));
/// assert_eq!(sin_cos(Facing(210)), (-TRIG_ONE / 2, -908093));
/// ```
pub fn sin_cos(f: Facing) -> (i64, i64) {
    let d = usize::from(f.0 % 360);
    match d {
        0..=90 => (SIN_TABLE[d], SIN_TABLE[90 - d]),
        91..=180 => (SIN_TABLE[180 - d], -SIN_TABLE[d - 90]),
        181..=270 => (-SIN_TABLE[d - 180], -SIN_TABLE[270 - d]),
        _ => (-SIN_TABLE[360 - d], SIN_TABLE[d - 270]),
    }
}

/// The table point at `r2 / 2` to the right and `f2 / 2` ahead of `origin` for facing
/// `facing` (doubled local coordinates keep half-base offsets exact until this one
/// rounding).
pub(super) fn local2(origin: Point, facing: Facing, r2: i128, f2: i128) -> Point {
    let (s, c) = sin_cos(facing);
    // Every footprint on a table: offsets under 2^40 mm keep the products under 2^60,
    // so `i64` and a shift give the very rounding of the exact path below, which the
    // geometry's every query reaches through here (`Shape::bases`, its box, faces).
    const LIMIT: u128 = 1 << 40;
    if r2.unsigned_abs() < LIMIT && f2.unsigned_abs() < LIMIT {
        let (r2, f2) = (r2 as i64, f2 as i64);
        let dx = round_half_trig(r2 * c + f2 * s);
        let dy = round_half_trig(f2 * c - r2 * s);
        if let (Some(x), Some(y)) = (origin.x.0.checked_add(dx), origin.y.0.checked_add(dy)) {
            return Point::new(Len(x), Len(y));
        }
    }
    local2_exact(origin, (s, c), r2, f2)
}

/// [`local2`] in `i128` throughout, saturating: any offsets.
fn local2_exact(origin: Point, (s, c): (i64, i64), r2: i128, f2: i128) -> Point {
    let (s, c) = (i128::from(s), i128::from(c));
    let den = 2 * i128::from(TRIG_ONE);
    let dx = round_div(
        r2.saturating_mul(c).saturating_add(f2.saturating_mul(s)),
        den,
    );
    let dy = round_div(
        f2.saturating_mul(c).saturating_sub(r2.saturating_mul(s)),
        den,
    );
    Point::new(
        Len(sat64(i128::from(origin.x.0).saturating_add(dx))),
        Len(sat64(i128::from(origin.y.0).saturating_add(dy))),
    )
}

/// `n / (2·TRIG_ONE)` rounded to nearest, ties away from zero: `round_div` by a power
/// of two, for `|n| < 2^62`.
fn round_half_trig(n: i64) -> i64 {
    const SHIFT: u32 = TRIG_ONE.trailing_zeros() + 1;
    const HALF: i64 = TRIG_ONE;
    const _: () = assert!(TRIG_ONE.count_ones() == 1 && 2 * TRIG_ONE == 1 << SHIFT);
    if n >= 0 {
        (n + HALF) >> SHIFT
    } else {
        -((-n + HALF) >> SHIFT)
    }
}

/// The table point `right` to the right of and `forward` ahead of `origin`, for a unit
/// with facing `facing`: `origin + right·(cos, −sin) + forward·(sin, cos)`, each
/// coordinate rounded to nearest (ties away from zero) from exact `i128` intermediates.
///
/// ```
/// use fm_core::huzzah::geometry::{rotate, Facing, Len, Point};
/// let o = Point::cm(10, 20);
/// // Facing 90 looks along +x; the unit's right is then -y.
/// assert_eq!(rotate(o, Facing(90), Len::cm(3), Len::cm(4)), Point::cm(14, 17));
/// // 45 degrees: 10 cm ahead is 7.07 cm along each axis.
/// assert_eq!(rotate(Point::cm(0, 0), Facing(45), Len(0), Len::cm(10)), Point::new(Len(707), Len(707)));
/// ```
pub fn rotate(origin: Point, facing: Facing, right: Len, forward: Len) -> Point {
    local2(
        origin,
        facing,
        2 * i128::from(right.0),
        2 * i128::from(forward.0),
    )
}

/// `p` rotated `deg` degrees clockwise about `pivot` (one rounding). Repeated small
/// rotations accumulate rounding (up to a few tenths of a millimetre per step): keep
/// positions as anchor and facing and rotate once by the total angle instead.
pub fn rotate_about(p: Point, pivot: Point, deg: i32) -> Point {
    rotate(
        pivot,
        Facing::new(deg),
        Len(p.x.0.saturating_sub(pivot.x.0)),
        Len(p.y.0.saturating_sub(pivot.y.0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::geometry::dist;
    use crate::huzzah::geometry::fixtures::{p, unit};

    /// A fixed sequence of values (splitmix64), no generator dependency in a unit test.
    fn values(seed: u64) -> impl Iterator<Item = u64> {
        let mut x = seed;
        std::iter::repeat_with(move || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
    }

    #[test]
    fn the_fast_rotation_rounds_as_the_exact_one() {
        // Offsets of every size the fast path takes, up to its limit, and beyond it;
        // half-unit ties (offsets that are multiples of the table's 2^20) included.
        let mut v = values(7);
        let mut next = |bits: u32| {
            let x = v.next().unwrap();
            let m = (x >> 1) % (1u64 << bits);
            if x & 1 == 1 {
                -(m as i128)
            } else {
                m as i128
            }
        };
        for k in 0..200_000 {
            let bits = [12, 20, 30, 39, 40, 41, 50][k % 7];
            let (r2, f2) = (next(bits), next(bits));
            let (r2, f2) = if k % 11 == 0 {
                (r2 << 20, f2 << 20)
            } else {
                (r2, f2)
            };
            let facing = Facing((next(9).unsigned_abs() % 360) as u16);
            let origin = Point::new(Len(next(30) as i64), Len(next(30) as i64));
            let sc = sin_cos(facing);
            assert_eq!(
                local2(origin, facing, r2, f2),
                local2_exact(origin, sc, r2, f2),
                "{origin:?} {facing:?} {r2} {f2}"
            );
        }
        // Near the ends of i64, the sums fall back to the saturating path.
        let far = Point::new(Len(i64::MAX - 3), Len(i64::MIN + 3));
        assert_eq!(
            local2(far, Facing(0), 1000, -1000),
            local2_exact(far, sin_cos(Facing(0)), 1000, -1000)
        );
    }

    #[test]
    fn table_matches_f64_sine() {
        let one = TRIG_ONE as f64;
        for (d, &v) in SIN_TABLE.iter().enumerate() {
            let exact = (d as f64).to_radians().sin() * one;
            assert!(
                (v as f64 - exact).abs() <= 0.5 + 1e-6,
                "sin {d}: {v} vs {exact}"
            );
        }
        for d in 0..360u16 {
            let (s, c) = sin_cos(Facing(d));
            let r = f64::from(d).to_radians();
            assert!((s as f64 - r.sin() * one).abs() <= 0.5 + 1e-6, "sin {d}");
            assert!((c as f64 - r.cos() * one).abs() <= 0.5 + 1e-6, "cos {d}");
            let (so, co) = sin_cos(Facing(d).opposite());
            assert_eq!((so, co), (-s, -c), "symmetry at {d}");
        }
    }

    #[test]
    fn sin_cos_exact_at_right_angles() {
        assert_eq!(sin_cos(Facing(0)), (0, TRIG_ONE));
        assert_eq!(sin_cos(Facing(90)), (TRIG_ONE, 0));
        assert_eq!(sin_cos(Facing(180)), (0, -TRIG_ONE));
        assert_eq!(sin_cos(Facing(270)), (-TRIG_ONE, 0));
        assert_eq!(sin_cos(Facing(30)).0, TRIG_ONE / 2);
        assert_eq!(sin_cos(Facing(450)), sin_cos(Facing(90)));
    }

    #[test]
    fn rotation_at_right_angles() {
        let o = p(100, 200);
        let (r, f) = (Len(30), Len(40));
        assert_eq!(rotate(o, Facing(0), r, f), p(130, 240));
        assert_eq!(rotate(o, Facing(90), r, f), p(140, 170));
        assert_eq!(rotate(o, Facing(180), r, f), p(70, 160));
        assert_eq!(rotate(o, Facing(270), r, f), p(60, 230));
    }

    #[test]
    fn rotation_at_30_and_45() {
        let o = p(0, 0);
        // sin 30 = 0.5 exactly; cos 30 = 0.8660254 -> 866.03.
        assert_eq!(rotate(o, Facing(30), Len(0), Len(1000)), p(500, 866));
        // Right at 30: (cos, -sin) -> (866, -500).
        assert_eq!(rotate(o, Facing(30), Len(1000), Len(0)), p(866, -500));
        assert_eq!(rotate(o, Facing(45), Len(0), Len(1000)), p(707, 707));
        assert_eq!(rotate(o, Facing(45), Len(1000), Len(0)), p(707, -707));
        assert_eq!(rotate(o, Facing(315), Len(0), Len(1000)), p(-707, 707));
        // Ties round away from zero: 0.5 -> 1, -0.5 -> -1.
        assert_eq!(rotate(o, Facing(30), Len(0), Len(1)), p(1, 1));
        assert_eq!(rotate(o, Facing(30), Len(0), Len(-1)), p(-1, -1));
    }

    #[test]
    fn rotation_within_a_unit_of_f64_everywhere() {
        let o = p(12_345, -6_789);
        for d in 0..360u16 {
            for &(r, f) in &[(0i64, 1000i64), (4000, -2500), (-123_456, 98_765), (7, 3)] {
                let got = rotate(o, Facing(d), Len(r), Len(f));
                let a = f64::from(d).to_radians();
                let ex = 12_345.0 + r as f64 * a.cos() + f as f64 * a.sin();
                let ey = -6_789.0 - r as f64 * a.sin() + f as f64 * a.cos();
                // Table error (2^-21 relative) plus one rounding.
                let tol = 0.5 + (r.abs() + f.abs()) as f64 / (1u64 << 20) as f64 + 1e-9;
                assert!((got.x.0 as f64 - ex).abs() <= tol, "x at {d}: {got:?}");
                assert!((got.y.0 as f64 - ey).abs() <= tol, "y at {d}: {got:?}");
            }
        }
    }

    #[test]
    fn turning_360_in_one_degree_steps_returns_exactly() {
        // Positions are kept as anchor + facing: turning a unit one degree at a time
        // round the full circle gives back the same footprint, and every intermediate
        // corner is within a unit of the exact (f64) position.
        let start = unit(5_000, 7_000, 0, &[3, 2], 400);
        let corners0 = start.footprint_corners();
        let mut s = start.clone();
        for step in 1..=360 {
            s = s.with_facing(s.facing.turned(1));
            let a = f64::from(step % 360).to_radians();
            for (c, c0) in s.footprint_corners().iter().zip(&corners0) {
                let (lr, lf) = ((c0.x.0 - 5_000) as f64, (c0.y.0 - 7_000) as f64);
                let ex = 5_000.0 + lr * a.cos() + lf * a.sin();
                let ey = 7_000.0 - lr * a.sin() + lf * a.cos();
                assert!((c.x.0 as f64 - ex).abs() <= 1.0 && (c.y.0 as f64 - ey).abs() <= 1.0);
            }
        }
        assert_eq!(s, start);
        assert_eq!(s.footprint_corners(), corners0);
        // The same for a single point rotated about a pivot by the total angle.
        let pt = p(1_234, -567);
        for deg in 0..=360 {
            let back = rotate_about(rotate_about(pt, p(10, 20), deg), p(10, 20), -deg);
            assert!(dist(back, pt) <= Len(1), "{deg}: {back:?}");
        }
        assert_eq!(rotate_about(pt, p(10, 20), 360), pt);
    }
}
