//! Where things go on the page: the hex size drawn, the columns and rows of the part of
//! the map drawn (its region), and the pixel geometry of the hexes: centres, corners,
//! outlines and hexsides of flat-topped hexes in vertical columns (2.1), the scenario's
//! [`Layout`] saying which columns sit half a hex lower.

use super::options::{Region, RenderOptions, MAX_HEX_SIZE, MIN_HEX_SIZE};
use crate::fm::hex::{Hex, Layout};
use crate::fm::scenario::Scenario;
use std::fmt::Write;

/// The hex size drawn: the options' size within [`MIN_HEX_SIZE`] and [`MAX_HEX_SIZE`].
pub(super) fn hex_size(opts: &RenderOptions) -> f64 {
    // NaN (which `clamp` keeps) is the default size.
    if opts.hex_size.is_nan() {
        RenderOptions::default().hex_size
    } else {
        opts.hex_size.clamp(MIN_HEX_SIZE, MAX_HEX_SIZE)
    }
}

/// The columns and rows drawn: (first column, last column, first row, last row) of the
/// map, or of its part in the options' region.
pub(super) fn drawn(sc: &Scenario, opts: &RenderOptions) -> (i32, i32, i32, i32) {
    let (mut cmin, mut cmax, mut rmin, mut rmax) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    for h in &sc.hexes {
        cmin = cmin.min(h.hex.col as i32);
        cmax = cmax.max(h.hex.col as i32);
        rmin = rmin.min(h.hex.row as i32);
        rmax = rmax.max(h.hex.row as i32);
    }
    if sc.hexes.is_empty() {
        (cmin, cmax, rmin, rmax) = (0, 0, 0, 0);
    }
    // The region: its rectangle within the map's (a region off the map draws the
    // whole map; `RenderOptions::validate` refuses one).
    if let Some((c0, c1, r0, r1)) = opts.region.as_ref().and_then(Region::bounds) {
        let (c0, c1) = (c0.max(cmin), c1.min(cmax));
        let (r0, r1) = (r0.max(rmin), r1.min(rmax));
        if c0 <= c1 && r0 <= r1 {
            (cmin, cmax, rmin, rmax) = (c0, c1, r0, r1);
        }
    }
    (cmin, cmax, rmin, rmax)
}

/// Pixel geometry of the map.
pub(super) struct Geo {
    pub(super) s: f64,
    pub(super) hh: f64,
    pub(super) cmin: i32,
    pub(super) rmin: i32,
    pub(super) layout: Layout,
    pub(super) margin: f64,
}

impl Geo {
    fn shifted(&self, col: i32) -> bool {
        match self.layout {
            Layout::OddColumnsDown => col.rem_euclid(2) == 1,
            Layout::EvenColumnsDown => col.rem_euclid(2) == 0,
        }
    }
    pub(super) fn centre(&self, h: Hex) -> (f64, f64) {
        let c = h.col as i32;
        let r = h.row as i32;
        let x = self.margin + self.s + 1.5 * self.s * (c - self.cmin) as f64;
        let mut y = self.margin + self.hh + 2.0 * self.hh * (r - self.rmin) as f64;
        if self.shifted(c) {
            y += self.hh;
        }
        (x, y)
    }
    /// Corner k (0 = east, then clockwise on screen: 1 lower right, ... 5 upper right).
    fn corner(&self, (x, y): (f64, f64), k: usize, scale: f64) -> (f64, f64) {
        let a = std::f64::consts::PI / 3.0 * k as f64;
        (x + self.s * scale * a.cos(), y + self.s * scale * a.sin())
    }
    pub(super) fn polygon(&self, c: (f64, f64), scale: f64) -> String {
        let mut p = String::new();
        for k in 0..6 {
            let (x, y) = self.corner(c, k, scale);
            let _ = write!(p, "{}{:.1},{:.1}", if k > 0 { " " } else { "" }, x, y);
        }
        p
    }
    /// The two corners of the hexside in direction `d` (north, north-east, south-east,
    /// south, south-west, north-west: the order of [`Layout::neighbors`]).
    pub(super) fn side(&self, c: (f64, f64), d: usize) -> ((f64, f64), (f64, f64)) {
        (
            self.corner(c, (d + 4) % 6, 1.0),
            self.corner(c, (d + 5) % 6, 1.0),
        )
    }
}
