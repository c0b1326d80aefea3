//! Fixtures for the geometry tests: points, units and bases from bare numbers (tenths of
//! a millimetre).

use super::{Facing, Len, Point, Quad, Shape};

pub(super) fn p(x: i64, y: i64) -> Point {
    Point::new(Len(x), Len(y))
}

pub(super) fn unit(ax: i64, ay: i64, facing: u16, ranks: &[u8], base: i64) -> Shape {
    Shape::new(p(ax, ay), Facing(facing), ranks.to_vec(), Len(base))
}

pub(super) fn q(c: [(i64, i64); 4]) -> Quad {
    Quad(c.map(|(x, y)| p(x, y)))
}
