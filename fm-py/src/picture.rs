//! SVG pictures as pixels: `fm.svg_to_png`, `fm.svg_to_rgb` and `fm.render_fonts`,
//! drawn by the workspace's one rasteriser, the `fm-picture` crate (resvg, pure Rust)
//! with the system's fonts, so that the PettingZoo environment's `rgb_array` mode needs no browser, no
//! cairo and no Python imaging library. The engine's own pictures (`Match.svg`) are
//! the usual input; any SVG text is accepted, read with no access to files or the
//! network (an `<image>` is left out).

use crate::convert::{max_input_text, type_name, MAX_INPUT_BYTES};
use crate::errors::protocol_error;
use fm_picture::PictureError;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyString};

/// `fm_picture`'s errors as Python exceptions: `fm.ProtocolError` for text that is not
/// SVG, `ValueError` for a scale or a picture size out of range.
fn py_err(e: PictureError) -> PyErr {
    match e {
        PictureError::NotSvg(m) => protocol_error(m),
        PictureError::BadScale(m) | PictureError::TooLarge(m) => PyValueError::new_err(m),
    }
}

/// Reads the `svg` and `scale` arguments: a str of at most `fm.MAX_INPUT_BYTES`, a
/// number (not a bool) above 0 and at most 16.
fn read_args(svg: &Bound<'_, PyAny>, scale: Option<&Bound<'_, PyAny>>) -> PyResult<(String, f64)> {
    let svg: String = svg
        .cast::<PyString>()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "svg must be a str (SVG text), not {}",
                type_name(svg)
            ))
        })?
        .to_str()?
        .to_owned();
    let scale = match scale {
        None => 1.0,
        Some(s)
            if s.is_instance_of::<PyBool>()
                || !(s.is_instance_of::<PyFloat>() || s.is_instance_of::<PyInt>()) =>
        {
            return Err(PyTypeError::new_err(format!(
                "scale must be a number, not {}",
                type_name(s)
            )))
        }
        Some(s) => s.extract::<f64>()?,
    };
    if svg.len() > MAX_INPUT_BYTES {
        return Err(protocol_error(format!(
            "svg: larger than fm.MAX_INPUT_BYTES ({})",
            max_input_text()
        )));
    }
    fm_picture::check_scale(scale).map_err(py_err)?;
    Ok((svg, scale))
}

/// The picture `svg` (SVG text, such as `Match.svg()`) as PNG bytes, `scale` pixels per
/// SVG unit, drawn on a white ground with the system's fonts (`fm.render_fonts()`
/// names them; text in a family the system lacks is drawn in DejaVu Sans or the first
/// family found, and left out if the system has no font at all). Files and URLs the
/// SVG names are not read. `fm.ProtocolError` for text that is not SVG, `ValueError`
/// for a scale outside (0, 16] or a picture over 8192 pixels on a side. The GIL is
/// released while it is drawn.
#[pyfunction]
#[pyo3(signature = (svg, scale = None), text_signature = "(svg, scale=1.0)")]
pub fn svg_to_png<'py>(
    py: Python<'py>,
    svg: &Bound<'py, PyAny>,
    scale: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (svg, scale) = read_args(svg, scale)?;
    let png = py
        .detach(|| fm_picture::svg_to_png(&svg, scale))
        .map_err(py_err)?;
    Ok(PyBytes::new(py, &png))
}

/// The picture `svg` as RGB pixels: `(height, width, data)`, `data` a `bytearray` of
/// `height * width * 3` bytes, rows top to bottom, each pixel red, green, blue (what
/// `numpy.frombuffer(data, numpy.uint8).reshape(height, width, 3)` reads as a writable
/// image, the `rgb_array` of Gymnasium and PettingZoo). Drawn as `svg_to_png` draws
/// it, with the same arguments and errors.
#[pyfunction]
#[pyo3(signature = (svg, scale = None), text_signature = "(svg, scale=1.0)")]
pub fn svg_to_rgb<'py>(
    py: Python<'py>,
    svg: &Bound<'py, PyAny>,
    scale: Option<&Bound<'py, PyAny>>,
) -> PyResult<(u32, u32, Bound<'py, PyByteArray>)> {
    let (svg, scale) = read_args(svg, scale)?;
    let p = py
        .detach(|| fm_picture::svg_to_rgb(&svg, scale))
        .map_err(py_err)?;
    Ok((p.height, p.width, PyByteArray::new(py, &p.rgb)))
}

/// The font families `svg_to_png` and `svg_to_rgb` draw text with: the system's fonts,
/// sorted (empty on a system without fonts, where text is left out of the pictures;
/// on Debian, `apt-get install fonts-dejavu-core` gives the family the board pictures
/// name first).
#[pyfunction]
pub fn render_fonts() -> Vec<String> {
    fm_picture::font_families()
}
