//! Tests of the geometry as a whole: random shapes against a floating-point reference,
//! and no panics at the edges of the exact domain.

use super::fixtures::{p, unit};
use super::*;

/// A small deterministic generator (no dependency, same numbers everywhere).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as i64
    }
}

fn seg_dist_f64(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let f = |p: Point| (p.x.0 as f64, p.y.0 as f64);
    let pt_seg = |p: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let l2 = dx * dx + dy * dy;
        let t = if l2 == 0.0 {
            0.0
        } else {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
        };
        ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
    };
    if segs_intersect(Seg::new(a, b), Seg::new(c, d)) {
        return 0.0;
    }
    let (a, b, c, d) = (f(a), f(b), f(c), f(d));
    pt_seg(a, c, d)
        .min(pt_seg(b, c, d))
        .min(pt_seg(c, a, b))
        .min(pt_seg(d, a, b))
}

#[test]
fn random_shapes_agree_with_f64() {
    let mut g = Lcg(15);
    let ranks = [
        vec![1u8],
        vec![2],
        vec![2, 2],
        vec![3, 2],
        vec![1, 1, 1],
        vec![4],
    ];
    for _ in 0..400 {
        let a = unit(
            g.next(4000),
            g.next(4000),
            g.next(360) as u16,
            &ranks[g.next(6) as usize],
            400,
        );
        let b = unit(
            g.next(4000),
            g.next(4000),
            g.next(360) as u16,
            &ranks[g.next(6) as usize],
            400,
        );
        // min_distance against an f64 minimum over base edges (and containment).
        let md = min_distance(&a, &b);
        let mut want = f64::MAX;
        for qa in a.bases() {
            for qb in b.bases() {
                if qa.0.iter().any(|&c| qb.contains(c)) || qb.0.iter().any(|&c| qa.contains(c)) {
                    want = 0.0;
                }
                for ea in qa.edges() {
                    for eb in qb.edges() {
                        want = want.min(seg_dist_f64(ea.a, ea.b, eb.a, eb.b));
                    }
                }
            }
        }
        assert!(
            (md.0 as f64 - want.floor()).abs() <= 1.0,
            "{a:?} {b:?}: {md:?} vs {want}"
        );
        if overlaps(&a, &b) {
            assert_eq!(md, Len(0));
            assert!(!in_contact(&a, &b));
        }
        assert_eq!(overlaps(&a, &b), overlaps(&b, &a));
        assert_eq!(min_distance(&a, &b), min_distance(&b, &a));
        // in_arc: any sampled footprint point strictly inside the arc implies true.
        let front = a.face(Face::Front);
        let r = f64::from(a.facing.0).to_radians();
        let (fx, fy) = (r.sin(), r.cos());
        let (rx, ry) = ry_of(r);
        let fl = (front.a.x.0 as f64, front.a.y.0 as f64);
        let fr = (front.b.x.0 as f64, front.b.y.0 as f64);
        let inside = |x: f64, y: f64| {
            let ahead = (x - fl.0) * fx + (y - fl.1) * fy > 1e-6;
            // Left ray from fl along (f - r), right ray from fr along (f + r).
            let (lx, ly) = (fx - rx, fy - ry);
            let (qx, qy) = (fx + rx, fy + ry);
            let left_ok = lx * (y - fl.1) - ly * (x - fl.0) < -1e-6;
            let right_ok = qx * (y - fr.1) - qy * (x - fr.0) > 1e-6;
            ahead && left_ok && right_ok
        };
        let sampled = b.bases().iter().any(|q| {
            let c = q.0;
            (0..=8).any(|i| {
                (0..=8).any(|j| {
                    let (u, v) = (f64::from(i) / 8.0, f64::from(j) / 8.0);
                    let top = (
                        c[0].x.0 as f64 * (1.0 - u) + c[1].x.0 as f64 * u,
                        c[0].y.0 as f64 * (1.0 - u) + c[1].y.0 as f64 * u,
                    );
                    let bot = (
                        c[3].x.0 as f64 * (1.0 - u) + c[2].x.0 as f64 * u,
                        c[3].y.0 as f64 * (1.0 - u) + c[2].y.0 as f64 * u,
                    );
                    inside(top.0 * (1.0 - v) + bot.0 * v, top.1 * (1.0 - v) + bot.1 * v)
                })
            })
        });
        if sampled {
            assert!(in_arc(&a, &b), "{a:?} {b:?}");
        }
    }
}

/// The unit's right for facing r (radians): (cos, -sin).
fn ry_of(r: f64) -> (f64, f64) {
    (r.cos(), -r.sin())
}

// ---- robustness ---------------------------------------------------------------

#[test]
fn no_panics_at_the_domain_edges() {
    let e = 100_000_000;
    let shapes = [
        unit(e, e, 37, &[255, 255, 1], 400),
        unit(-e, e, 181, &[3, 2], 1),
        unit(e, -e, 359, &[], 400),
        unit(0, 0, 0, &[0, 2, 0], 400),
        unit(-e, -e, 90, &[1], 0),
        unit(e, 0, 45, &[2], -400),
        Shape::new(
            p(i64::MAX, i64::MIN),
            Facing(u16::MAX),
            vec![255; 3],
            Len(i64::MAX),
        ),
    ];
    let wood = Polygon(vec![p(-e, -e), p(e, -e), p(e, e)]);
    let weird = Polygon(vec![
        p(i64::MIN, i64::MAX),
        p(i64::MAX, i64::MIN),
        p(0, 0),
        p(0, 0),
    ]);
    for a in &shapes {
        let _ = (
            a.bases(),
            a.faces(),
            a.centre(),
            a.width(),
            a.depth(),
            a.outline(),
        );
        let _ = (
            a.turned_about(),
            a.translated(Len(e), Len(-e)),
            swept_back(a, Len(e)),
        );
        let _ = visible_faces(a, p(0, 0));
        let _ = closest_visible_face(a, p(i64::MIN, i64::MAX));
        let _ = all_within_radius(p(0, 0), Len(e), a);
        for b in &shapes {
            let _ = (
                fire_range(a, b),
                min_distance(a, b),
                overlaps(a, b),
                in_contact(a, b),
            );
            let _ = (
                in_arc(a, b),
                blocks(a, b, a),
                could_reach(a, b, Len(e), Len(e)),
            );
            let _ = base_has_los(a, 0, b, &[a, b], &[&wood, &weird]);
            let _ = within_one_move(a, Len(i64::MAX), b, Len(i64::MIN), Len(i64::MAX));
        }
        for q in a.bases().iter().take(3) {
            let _ = (
                wood.intersects_quad(q),
                wood.interior_meets_quad(q),
                weird.interior_meets_quad(q),
            );
        }
    }
    let big = Seg::new(p(i64::MIN, i64::MIN), p(i64::MAX, i64::MAX));
    let _ = (
        dist(big.a, big.b),
        big.mid(),
        dist_point_seg(p(0, 1), big),
        dist_seg_seg(big, big),
    );
    let _ = (
        segs_intersect(big, big),
        weird.seg_enters_interior(big),
        weird.contains(p(1, 1)),
    );
    let _ = rotate(
        p(i64::MAX, i64::MIN),
        Facing(45),
        Len(i64::MAX),
        Len(i64::MIN),
    );
    let _ = nearest_point_on_seg(p(i64::MAX, 0), big);
    assert_eq!(dist(p(-e, -e), p(e, e)), Len(282_842_712));
}
