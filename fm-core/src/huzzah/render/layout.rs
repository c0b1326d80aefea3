//! Where things go on the page: table points to picture coordinates (tenths of a
//! millimetre, y turned down the page, side A's edge at the bottom), pixels in picture
//! units at the scale drawn, and boxes on the page (a unit's footprint, a label) that
//! labels keep clear of.

use crate::huzzah::geometry::{Point, Shape};
use std::fmt::Write;

/// Table to picture coordinates, and pixel sizes in picture units.
pub(super) struct Frame {
    pub(super) depth: i64,
    /// The table's width.
    pub(super) width: i64,
    /// Pixels per centimetre (a pixel is 100 / scale picture units).
    pub(super) scale: i64,
}

impl Frame {
    /// `n` pixels in picture units.
    pub(super) fn px(&self, n: i64) -> i64 {
        n * 100 / self.scale
    }
    /// A table point in picture coordinates.
    pub(super) fn xy(&self, p: Point) -> (i64, i64) {
        (p.x.0, self.depth - p.y.0)
    }
    pub(super) fn points(&self, pts: &[Point]) -> String {
        let mut s = String::new();
        for (i, p) in pts.iter().enumerate() {
            let (x, y) = self.xy(*p);
            let _ = write!(s, "{}{x},{y}", if i > 0 { " " } else { "" });
        }
        s
    }
}

/// A box on the page, in picture coordinates (y down).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) x1: i64,
    pub(super) y1: i64,
}

impl Rect {
    /// Whether the two boxes overlap (touching edges do not).
    pub(super) fn meets(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// The box round a unit's footprint on the page.
pub(super) fn page_box(f: &Frame, shape: &Shape) -> Rect {
    let mut r = Rect {
        x0: i64::MAX,
        y0: i64::MAX,
        x1: i64::MIN,
        y1: i64::MIN,
    };
    for p in shape.footprint_corners() {
        let (x, y) = f.xy(p);
        r.x0 = r.x0.min(x);
        r.y0 = r.y0.min(y);
        r.x1 = r.x1.max(x);
        r.y1 = r.y1.max(y);
    }
    r
}

/// The width of a label in picture units, at font size `fs` (bold DejaVu Sans
/// averages 0.64 em a character).
pub(super) fn label_width(s: &str, fs: i64) -> i64 {
    s.chars().count() as i64 * fs * 64 / 100
}

/// The box a label of width `w` and font size `fs` covers, set at `(x, y)` (the
/// baseline) with `anchor` ("start", "end" or "middle").
pub(super) fn label_box(x: i64, y: i64, anchor: &str, w: i64, fs: i64) -> Rect {
    let x0 = match anchor {
        "start" => x,
        "end" => x - w,
        _ => x - w / 2,
    };
    Rect {
        x0,
        y0: y - fs * 80 / 100,
        x1: x0 + w,
        y1: y + fs * 20 / 100,
    }
}
