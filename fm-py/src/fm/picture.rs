//! Fire & Movement's picture, `Match.svg` and `_repr_svg_` of a Fire & Movement match:
//! the board as SVG (`fm_core::render_svg`) with the options read from Python.

use super::side_names;
use crate::args::{opt_str_list, str_list, viewer_from_py};
use crate::convert::type_name;
use crate::errors::{match_error, protocol_error, rule_error};
use crate::system::{region_json, SvgArgs};
use fm_core::{Hex, MapMarker, RenderOptions, Scenario};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// The options Fire & Movement's picture takes, as its messages list them.
pub const SVG_OPTIONS: &[&str] = &[
    "side",
    "hex_size",
    "hex_ids",
    "panel",
    "highlight",
    "markers",
    "title",
    "region",
    "unit_labels",
    "crt",
    "terrain_chart",
    "turn_track",
    "boxes",
];

/// The bounds of `svg(hex_size=...)`: the renderer's own (`fm_core::render`), which
/// would otherwise clamp a value outside them silently (and let NaN through).
const HEX_SIZE_RANGE: (f64, f64) = (fm_core::render::MIN_HEX_SIZE, fm_core::render::MAX_HEX_SIZE);

/// The F&M picture's options beyond the first six: the region, the counters' labels
/// and the charts below the map.
struct FmExtras<'a, 'py> {
    region: Option<&'a Bound<'py, PyAny>>,
    unit_labels: Option<String>,
    crt: Option<bool>,
    terrain_chart: Option<bool>,
    turn_track: Option<bool>,
    boxes: Option<bool>,
}

#[allow(clippy::too_many_arguments)]
fn render_options(
    sc: &Scenario,
    hex_size: f64,
    hex_ids: bool,
    panel: bool,
    highlight: Option<&Bound<'_, PyAny>>,
    markers: Option<&Bound<'_, PyAny>>,
    title: Option<String>,
    extras: FmExtras<'_, '_>,
) -> PyResult<RenderOptions> {
    let (lo, hi) = HEX_SIZE_RANGE;
    if !(lo..=hi).contains(&hex_size) {
        return Err(PyValueError::new_err(format!(
            "hex_size must be a number of pixels from {lo} to {hi}, not {hex_size}"
        )));
    }
    let hex =
        |s: &str| -> PyResult<Hex> { s.parse::<Hex>().map_err(|e| protocol_error(e.to_string())) };
    let mut marks = Vec::new();
    if let Some(ms) = markers.filter(|m| !m.is_none()) {
        let wanted = "markers must be a list of (hex, kind, label) tuples of str";
        if ms.is_instance_of::<PyString>() || ms.is_instance_of::<PyDict>() {
            return Err(PyTypeError::new_err(format!(
                "{wanted}, not a {}",
                type_name(ms)
            )));
        }
        let items: Vec<Bound<'_, PyAny>> = ms
            .try_iter()
            .map_err(|_| PyTypeError::new_err(format!("{wanted}, not a {}", type_name(ms))))?
            .collect::<PyResult<_>>()?;
        for (i, m) in items.iter().enumerate() {
            let parts = str_list(m, &format!("markers[{i}]"), "str")
                .ok()
                .filter(|p| p.len() == 3)
                .ok_or_else(|| {
                    PyTypeError::new_err(format!(
                        "markers[{i}] must be a (hex, kind, label) tuple of three str, not {}",
                        m.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
            let [h, kind, label]: [String; 3] = parts
                .try_into()
                .map_err(|_| PyTypeError::new_err(format!("markers[{i}] must have three items")))?;
            marks.push(MapMarker {
                hex: hex(&h)?,
                kind,
                label,
            });
        }
    }
    let region = match extras.region.filter(|r| !r.is_none()) {
        Some(r) => {
            RenderOptions::from_json(sc, &region_json(r)?)
                .map_err(|e| rule_error(&e))?
                .region
        }
        None => None,
    };
    let unit_labels = match extras.unit_labels.as_deref() {
        None | Some("name") => fm_core::UnitLabels::Name,
        Some("id") => fm_core::UnitLabels::Id,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unit_labels must be \"name\" or \"id\", not {other:?}"
            )))
        }
    };
    let d = RenderOptions::default();
    Ok(RenderOptions {
        hex_size,
        hex_ids,
        panel,
        title,
        highlight: opt_str_list(highlight, "highlight", "hex id")?
            .iter()
            .map(|s| hex(s))
            .collect::<PyResult<_>>()?,
        markers: marks,
        region,
        unit_labels,
        crt: extras.crt.unwrap_or(d.crt),
        terrain_chart: extras.terrain_chart.unwrap_or(d.terrain_chart),
        turn_track: extras.turn_track.unwrap_or(d.turn_track),
        boxes: extras.boxes.unwrap_or(d.boxes),
    })
}

/// The board of `m` as SVG: the full state, or a side's or a spectator's view of it.
pub fn svg(py: Python<'_>, m: &fm_core::Match, args: SvgArgs<'_, '_>) -> PyResult<String> {
    let opts = render_options(
        m.scenario(),
        args.hex_size.unwrap_or(40.0),
        args.hex_ids.unwrap_or(true),
        args.panel.unwrap_or(true),
        args.highlight,
        args.markers,
        args.title,
        FmExtras {
            region: args.region,
            unit_labels: args.unit_labels,
            crt: args.crt,
            terrain_chart: args.terrain_chart,
            turn_track: args.turn_track,
            boxes: args.boxes,
        },
    )?;
    let viewer = args
        .side
        .map(|s| viewer_from_py(Some(side_names(m.scenario())), s))
        .transpose()?;
    // A board picture takes milliseconds: drawn without the GIL.
    let drawn = py.detach(|| -> Result<String, fm_core::MatchError> {
        Ok(match viewer.map(|v| v.side()) {
            None => fm_core::render_svg(m.scenario(), m.state(), &opts),
            Some(Some(s)) => fm_core::render_svg(m.scenario(), &m.view(s), &opts),
            Some(None) => fm_core::render_svg(m.scenario(), &m.spectator_view()?, &opts),
        })
    });
    drawn.map_err(|e| match_error(&e))
}

/// The board of `m` with the default options (Jupyter's `_repr_svg_`).
pub fn repr_svg(m: &fm_core::Match) -> String {
    fm_core::render_svg(m.scenario(), m.state(), &RenderOptions::default())
}
