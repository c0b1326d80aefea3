//! Huzzah!'s picture, `Match.svg` and `_repr_svg_` of a huzzah match: the table as SVG
//! (`fm_core::huzzah::render`) with the options read from Python.

use super::HzMatch;
use crate::args::{as_int, int_text, not_an_int, viewer_from_py};
use crate::errors::{match_error, rule_error};
use crate::system::{region_json, SvgArgs};
use fm_core::huzzah::render::{render_svg, RenderOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The options Huzzah!'s picture takes, as its messages list them.
pub const SVG_OPTIONS: &[&str] = &["side", "arc_of", "radii", "scale", "labels", "region"];

/// The Huzzah! picture's options: `arc_of` a unit id of the scenario (`fm.RuleError`,
/// rule `"input"`, otherwise), `scale` an int from 1 to 100 (`ValueError` outside,
/// `TypeError` for a bool or a non-int).
fn render_options(
    m: &HzMatch,
    arc_of: Option<String>,
    radii: Option<bool>,
    scale: Option<&Bound<'_, PyAny>>,
    labels: Option<bool>,
    region: Option<&Bound<'_, PyAny>>,
) -> PyResult<RenderOptions> {
    if let Some(id) = &arc_of {
        if m.scenario().unit_index(id).is_none() {
            return Err(rule_error(&fm_core::RuleError::new(
                "input",
                format!("unknown unit '{id}'"),
            )));
        }
    }
    let region = match region.filter(|r| !r.is_none()) {
        Some(r) => {
            RenderOptions::from_json(m.scenario(), &region_json(r)?)
                .map_err(|e| rule_error(&e))?
                .region
        }
        None => None,
    };
    let scale = match scale.filter(|s| !s.is_none()) {
        Some(s) => {
            let i = as_int(s).ok_or_else(|| not_an_int(s, "scale"))?;
            match i.extract::<u32>() {
                Ok(n) if (1..=100).contains(&n) => n,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "scale must be a number of pixels per centimetre from 1 to 100, not {}",
                        int_text(&i)
                    )))
                }
            }
        }
        None => RenderOptions::default().scale_px_per_cm,
    };
    Ok(RenderOptions {
        radii: radii.unwrap_or(false),
        arc_of,
        scale_px_per_cm: scale,
        labels: labels.unwrap_or(true),
        region,
    })
}

/// The table of `m` as SVG: the full state, or a side's or a spectator's view of it.
pub fn svg(py: Python<'_>, m: &HzMatch, args: SvgArgs<'_, '_>) -> PyResult<String> {
    let opts = render_options(
        m,
        args.arc_of,
        args.radii,
        args.scale,
        args.labels,
        args.region,
    )?;
    let viewer = args.side.map(|s| viewer_from_py(None, s)).transpose()?;
    let drawn = py.detach(|| -> Result<String, fm_core::MatchError> {
        Ok(match viewer.map(|v| v.side()) {
            None => render_svg(m.scenario(), m.state(), &opts),
            Some(Some(s)) => render_svg(m.scenario(), &m.view(s), &opts),
            Some(None) => render_svg(m.scenario(), &m.spectator_view()?, &opts),
        })
    });
    drawn.map_err(|e| match_error(&e))
}

/// The table of `m` with the default options (Jupyter's `_repr_svg_`).
pub fn repr_svg(m: &HzMatch) -> String {
    render_svg(m.scenario(), m.state(), &RenderOptions::default())
}
