//! What to draw: [`RenderOptions`] (command radii, one unit's arc of fire, the scale,
//! labels, the part of the table) and the [`TableRegion`] drawn; read from JSON and
//! checked against the scenario.

use crate::error::RuleError;
use crate::huzzah::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// What to draw. Read from JSON with [`RenderOptions::from_json`] (what the C ABI and
/// `serve` pass): every field optional, an unknown field an error, the keys those of
/// Python's `Match.svg` (`arc_of`, `radii`, `scale`, `labels`, `region`).
///
/// ```
/// use fm_core::huzzah::{engine, render::{render_svg, RenderOptions}, scenario::Scenario};
/// let sc = Scenario::builtin("huzzah-firefight").unwrap();
/// let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let json = serde_json::json!({"arc_of": "fr-1", "region": {"from": [0, 0], "to": [60, 40]}});
/// let opts = RenderOptions::from_json(&sc, &json).unwrap();
/// let svg = render_svg(&sc, &s, &opts);
/// assert!(svg.contains(r#"class="arc" data-unit="fr-1""#));
/// assert!(RenderOptions::from_json(&sc, &serde_json::json!({"arc_of": "nobody"})).is_err());
/// ```
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    /// Draw each placed officer's command radius as a faint dashed circle (default
    /// false).
    pub radii: bool,
    /// Draw the arc of fire, weapon range and short range of the unit with this id
    /// (default none; nothing for an id the scenario lacks or a unit off the table,
    /// an error from `from_json`).
    pub arc_of: Option<String>,
    /// Pixels per centimetre of table for the SVG's `width` and `height` (default 5;
    /// 0 is the default, more than 100 is 100; from JSON, `"scale"`, 1 to 100 or an
    /// error). Bases, officers' markers and guns are drawn at table scale; labels,
    /// badges and strokes keep their size in pixels.
    #[serde(rename = "scale")]
    pub scale_px_per_cm: u32,
    /// Print unit and terrain ids (default true).
    pub labels: bool,
    /// Draw only this rectangle of the table (default: all of it); the legend stands
    /// beside it.
    pub region: Option<TableRegion>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            radii: false,
            arc_of: None,
            scale_px_per_cm: 5,
            labels: true,
            region: None,
        }
    }
}

/// A rectangle of the table in centimetres, in table coordinates: x from side A's
/// left, y from side A's edge (`{"from": [0, 0], "to": [60, 40]}`); the corners in
/// either order.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRegion {
    /// One corner, `[x, y]` in cm.
    pub from: [f64; 2],
    /// The opposite corner, `[x, y]` in cm.
    pub to: [f64; 2],
}

impl TableRegion {
    /// The rectangle in tenths of a millimetre: (x0, y0, x1, y1), x0 < x1, y0 < y1,
    /// within the table; `None` for a rectangle with no area on it.
    pub(super) fn bounds(&self, width: i64, depth: i64) -> Option<(i64, i64, i64, i64)> {
        let l = |cm: f64| -> Option<i64> {
            cm.is_finite()
                .then(|| (cm * 100.0).round().clamp(-1e12, 1e12) as i64)
        };
        let (ax, ay, bx, by) = (
            l(self.from[0])?,
            l(self.from[1])?,
            l(self.to[0])?,
            l(self.to[1])?,
        );
        let (x0, x1) = (ax.min(bx).max(0), ax.max(bx).min(width));
        let (y0, y1) = (ay.min(by).max(0), ay.max(by).min(depth));
        (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
    }
}

impl RenderOptions {
    /// Reads options from JSON (`null` is the defaults) and checks them against the
    /// scenario: `arc_of` a unit id of the scenario, `scale` 1 to 100, the region's
    /// corners on the table with an area between them.
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the field and the problem.
    pub fn from_json(sc: &Scenario, v: &serde_json::Value) -> Result<RenderOptions, RuleError> {
        let o: RenderOptions = crate::query::render_options_from_json(v)?;
        let bad = |m: String| Err(RuleError::new("input", format!("render options: {m}")));
        if let Some(id) = &o.arc_of {
            if sc.unit_index(id).is_none() {
                return bad(format!("arc_of: unknown unit '{id}'"));
            }
        }
        if !(1..=100).contains(&o.scale_px_per_cm) {
            return bad(format!(
                "scale must be a number of pixels per centimetre from 1 to 100, not {}",
                o.scale_px_per_cm
            ));
        }
        if let Some(r) = &o.region {
            let t = sc.table();
            let (w, d) = (t.width.0 as f64 / 100.0, t.depth.0 as f64 / 100.0);
            for [x, y] in [r.from, r.to] {
                if !(x.is_finite()
                    && y.is_finite()
                    && (0.0..=w).contains(&x)
                    && (0.0..=d).contains(&y))
                {
                    return bad(format!(
                        "region: [{x}, {y}] is off the table, which is {w} x {d} cm"
                    ));
                }
            }
            if r.bounds(t.width.0, t.depth.0).is_none() {
                return bad("region: the two corners enclose no area".to_string());
            }
        }
        Ok(o)
    }
}
