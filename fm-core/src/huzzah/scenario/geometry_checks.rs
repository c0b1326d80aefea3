//! Where things lie, checked exactly in whole millimetres: points and polygons on the
//! table, terrain pieces and their sectors (dense terrain only, page 19; each sector
//! inside its piece, page 22), and the units' footprints: on the table, apart, and for
//! the placement rolls no closer than the set-up distance (page 7).

use super::format::{MmPoint, ScenarioData, Setup, TableData};
use super::model::{Battle, Terrain, TerrainIx, UnitDef};
use super::start::Start;
use super::validation::{err, json_name, nonempty};
use crate::error::ScenarioError;
use crate::huzzah::geometry::{min_distance, overlaps, Len, Point, Shape};
use std::collections::BTreeMap;

/// A point checked to be on the table, in mm.
pub(super) fn table_point(
    p: MmPoint,
    t: &TableData,
    path: impl Into<String>,
) -> Result<[i64; 2], ScenarioError> {
    let (x, y) = (i64::from(p[0]), i64::from(p[1]));
    let (w, d) = (i64::from(t.width_mm), i64::from(t.depth_mm));
    if !(0..=w).contains(&x) || !(0..=d).contains(&y) {
        return err(
            path,
            format!("[{x}, {y}] is off the table: x runs from 0 to {w} mm and y from 0 to {d} mm"),
        );
    }
    Ok([x, y])
}

pub(super) fn to_point(p: [i64; 2]) -> Point {
    Point {
        x: Len::mm(p[0]),
        y: Len::mm(p[1]),
    }
}

/// A polygon checked: at least 3 points, all on the table, non-zero area. In mm.
fn table_polygon(
    ps: &[MmPoint],
    t: &TableData,
    path: &str,
) -> Result<Vec<[i64; 2]>, ScenarioError> {
    if ps.len() < 3 {
        return err(
            path,
            format!("{} points: a polygon has at least 3", ps.len()),
        );
    }
    let mut out = Vec::with_capacity(ps.len());
    for (k, p) in ps.iter().enumerate() {
        out.push(table_point(*p, t, format!("{path}[{k}]"))?);
    }
    if twice_area(&out) == 0 {
        return err(
            path,
            "a polygon of zero area (its points are collinear, or it folds back over itself)",
        );
    }
    Ok(out)
}

// Small exact plane helpers for validation, in whole millimetres with i64 arithmetic
// (coordinates are at most 10,000, so every product fits with room to spare). The
// engine's geometry module (`crate::huzzah::geometry`) has the general versions.

/// Twice the signed area of a polygon (shoelace formula).
fn twice_area(ps: &[[i64; 2]]) -> i64 {
    let n = ps.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ps[i], ps[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// The cross product of `a - o` and `b - o`: positive if `o, a, b` turn left.
fn cross(o: [i64; 2], a: [i64; 2], b: [i64; 2]) -> i64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// `p` lies on the closed segment `a`-`b`.
fn on_segment(p: [i64; 2], a: [i64; 2], b: [i64; 2]) -> bool {
    cross(a, b, p) == 0
        && p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// `p` lies inside the polygon or on its boundary (even-odd rule, exact).
fn inside_or_on(p: [i64; 2], poly: &[[i64; 2]]) -> bool {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if on_segment(p, a, b) {
            return true;
        }
        if (a[1] > p[1]) != (b[1] > p[1]) {
            // Does the edge cross the ray from p towards +x? Compare p's x with the
            // crossing's, multiplied through by (b.y - a.y) and its sign.
            let lhs = (p[0] - a[0]) * (b[1] - a[1]);
            let rhs = (p[1] - a[1]) * (b[0] - a[0]);
            if (b[1] > a[1] && lhs < rhs) || (b[1] < a[1] && lhs > rhs) {
                inside = !inside;
            }
        }
    }
    inside
}

/// The segments `p1`-`p2` and `q1`-`q2` cross at a point interior to both.
fn properly_cross(p1: [i64; 2], p2: [i64; 2], q1: [i64; 2], q2: [i64; 2]) -> bool {
    let d1 = cross(q1, q2, p1).signum();
    let d2 = cross(q1, q2, p2).signum();
    let d3 = cross(p1, p2, q1).signum();
    let d4 = cross(p1, p2, q2).signum();
    d1 * d2 < 0 && d3 * d4 < 0
}

fn fmt_point(p: [i64; 2]) -> String {
    format!("[{}, {}]", p[0], p[1])
}

pub(super) fn validate_terrain(
    d: &ScenarioData,
) -> Result<(Vec<Terrain>, BTreeMap<String, TerrainIx>), ScenarioError> {
    let mut out = Vec::with_capacity(d.terrain.len());
    let mut ids = BTreeMap::new();
    for (i, t) in d.terrain.iter().enumerate() {
        let tp = format!("terrain[{i}]");
        nonempty(&t.id, format!("{tp}.id"))?;
        if t.id.contains('/') {
            return err(
                format!("{tp}.id"),
                format!("'{}' contains '/', which separates a terrain id from a sector number (\"w1/0\")", t.id),
            );
        }
        let ix = TerrainIx(i as u16);
        if ids.insert(t.id.clone(), ix).is_some() {
            return err(
                format!("{tp}.id"),
                format!("duplicate terrain id '{}'", t.id),
            );
        }
        let kind = json_name(&t.kind);
        let polygon = table_polygon(&t.polygon, &d.table, &format!("{tp}.polygon"))?;
        let sectors = match &t.sectors {
            None if t.kind.is_dense() => vec![polygon.clone()],
            None => Vec::new(),
            Some(_) if !t.kind.is_dense() => {
                return err(
                    format!("{tp}.sectors"),
                    format!("sectors on {kind} '{}': only dense terrain (woods and buildings, page 19) is held in sectors", t.id),
                );
            }
            Some(s) if s.is_empty() => {
                return err(
                    format!("{tp}.sectors"),
                    "no sectors: dense terrain has at least one (leave sectors out for a single sector, the whole outline)",
                );
            }
            Some(s) => {
                let mut v = Vec::with_capacity(s.len());
                for (k, sec) in s.iter().enumerate() {
                    let sp = format!("{tp}.sectors[{k}]");
                    let sq = table_polygon(sec, &d.table, &sp)?;
                    check_sector_inside(&sq, &polygon, &sp, &t.id)?;
                    v.push(sq);
                }
                v
            }
        };
        out.push(Terrain {
            ix,
            id: t.id.clone(),
            kind: t.kind,
            polygon: polygon.iter().copied().map(to_point).collect(),
            sectors: sectors
                .iter()
                .map(|s| s.iter().copied().map(to_point).collect())
                .collect(),
        });
    }
    Ok((out, ids))
}

/// A sector lies inside its piece: every vertex inside or on the outline, and no edge
/// crossing an edge of the outline.
fn check_sector_inside(
    sq: &[[i64; 2]],
    poly: &[[i64; 2]],
    sp: &str,
    id: &str,
) -> Result<(), ScenarioError> {
    for (m, &p) in sq.iter().enumerate() {
        if !inside_or_on(p, poly) {
            return err(
                format!("{sp}[{m}]"),
                format!(
                    "{} is outside the outline of '{id}': a sector lies inside its terrain piece",
                    fmt_point(p)
                ),
            );
        }
    }
    let (n, k) = (sq.len(), poly.len());
    for m in 0..n {
        let (a, b) = (sq[m], sq[(m + 1) % n]);
        for j in 0..k {
            let (c, e) = (poly[j], poly[(j + 1) % k]);
            if properly_cross(a, b, c, e) {
                return err(
                    format!("{sp}[{m}]"),
                    format!(
                        "the sector's edge from {} to {} crosses the outline of '{id}' (its edge from {} to {}): a sector lies inside its terrain piece",
                        fmt_point(a),
                        fmt_point(b),
                        fmt_point(c),
                        fmt_point(e)
                    ),
                );
            }
        }
    }
    Ok(())
}

/// The units' footprints: on the table, not on top of one another, and for the
/// placement rolls the armies' set-up distance (page 7; a placed scenario's positions
/// are the designer's, "A scenario should specify …"). `unit_paths[i]` is the JSON path
/// of `units[i]`; side A's units are `units[..a_units]`.
pub(super) fn check_footprints(
    data: &ScenarioData,
    battle: Battle,
    units: &[UnitDef],
    unit_paths: &[String],
    a_units: usize,
    start: Option<&Start>,
) -> Result<(), ScenarioError> {
    let t = data.table;
    let base = Len::mm(i64::from(data.base_mm));
    let (w, d) = (
        Len::mm(i64::from(t.width_mm)),
        Len::mm(i64::from(t.depth_mm)),
    );
    // A battle that starts mid-way: the units on the table then, in the ranks they have
    // left.
    let shapes: Vec<Option<Shape>> = units
        .iter()
        .map(|u| match start {
            Some(st) => st.shape(u, base),
            None => Some(u.shape(base)),
        })
        .collect();
    for (u, sh) in units.iter().zip(&shapes) {
        let Some(sh) = sh else { continue };
        if let Some(p) = sh
            .footprint_corners()
            .into_iter()
            .find(|p| p.x < Len::ZERO || p.y < Len::ZERO || p.x > w || p.y > d)
        {
            return err(
                format!("{}.position", unit_paths[u.ix.index()]),
                format!(
                    "'{}' does not fit on the table: a corner of its bases is at {} (the table is {} by {} mm)",
                    u.id,
                    fmt_point([p.x.0 / 10, p.y.0 / 10]),
                    t.width_mm,
                    t.depth_mm
                ),
            );
        }
    }
    for i in 0..units.len() {
        for j in 0..i {
            let (Some(a), Some(b)) = (&shapes[i], &shapes[j]) else {
                continue;
            };
            if overlaps(a, b) {
                return err(
                    format!("{}.position", unit_paths[i]),
                    format!(
                        "'{}' overlaps '{}': two units cannot stand on the same ground",
                        units[i].id, units[j].id
                    ),
                );
            }
        }
    }
    if data.setup == Setup::Alternate {
        let min = battle.min_setup_distance();
        for ib in a_units..units.len() {
            for ia in 0..a_units {
                let (Some(b), Some(a)) = (&shapes[ib], &shapes[ia]) else {
                    continue;
                };
                let gap = min_distance(b, a);
                if gap < min {
                    return err(
                        format!("{}.position", unit_paths[ib]),
                        format!(
                            "'{}' stands {} mm from side a's '{}': in {} the armies set up no closer than {} mm (page 7; nearest bases)",
                            units[ib].id,
                            gap.0 / 10,
                            units[ia].id,
                            match battle {
                                Battle::Encounter => "an encounter",
                                Battle::Defended { .. } => "a battle with a designated defender",
                            },
                            min.0 / 10
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_for_point_in_polygon() {
        let sq = [[0, 0], [10, 0], [10, 10], [0, 10]];
        assert!(inside_or_on([5, 5], &sq));
        assert!(inside_or_on([0, 5], &sq));
        assert!(inside_or_on([10, 10], &sq));
        assert!(!inside_or_on([11, 5], &sq));
        assert!(!inside_or_on([5, -1], &sq));
        let tri = [[0, 0], [10, 0], [0, 10]];
        assert!(inside_or_on([5, 5], &tri));
        assert!(!inside_or_on([6, 5], &tri));
        assert!(properly_cross([0, 0], [10, 10], [0, 10], [10, 0]));
        assert!(!properly_cross([0, 0], [10, 0], [5, 0], [15, 0]));
        assert!(!properly_cross([0, 0], [10, 0], [10, 0], [10, 10]));
        assert_eq!(twice_area(&sq), 200);
    }
}
