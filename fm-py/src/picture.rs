//! SVG pictures as pixels: `fm.svg_to_png`, `fm.svg_to_rgb` and `fm.render_fonts`,
//! drawn by resvg (pure Rust: usvg parses, tiny-skia rasterises) with the system's
//! fonts, so that the PettingZoo environment's `rgb_array` mode needs no browser, no
//! cairo and no Python imaging library. The engine's own pictures (`Match.svg`) are
//! the usual input; any SVG text is accepted, read with no access to files or the
//! network (an `<image>` is left out).

use crate::convert::{max_input_text, type_name, MAX_INPUT_BYTES};
use crate::errors::protocol_error;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyString};
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The largest picture drawn, in pixels on a side (about 200 MiB of RGBA at most).
pub const MAX_SIDE: u32 = 8192;

/// The families used, in order of preference, for the generic `sans-serif`, `serif`
/// and `monospace` names and for text that names no family the system has.
const SANS: &[&str] = &[
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
    "Arial",
    "Verdana",
];
const SERIF: &[&str] = &[
    "DejaVu Serif",
    "Liberation Serif",
    "Noto Serif",
    "Times New Roman",
];
const MONO: &[&str] = &[
    "DejaVu Sans Mono",
    "Liberation Mono",
    "Noto Sans Mono",
    "Courier New",
];

/// The system's fonts, loaded once per process (a scan of the font folders takes tens
/// of milliseconds) with the generic families pointed at fonts that exist, and the
/// family of text that names none the system has.
struct Fonts {
    db: Arc<usvg::fontdb::Database>,
    default_family: String,
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let families = family_names(&db);
        let pick = |prefs: &[&str]| -> Option<String> {
            prefs
                .iter()
                .find(|p| families.iter().any(|f| f == *p))
                .map(|p| p.to_string())
                .or_else(|| families.first().cloned())
        };
        let sans = pick(SANS);
        if let Some(f) = &sans {
            db.set_sans_serif_family(f.clone());
        }
        if let Some(f) = pick(SERIF) {
            db.set_serif_family(f);
        }
        if let Some(f) = pick(MONO) {
            db.set_monospace_family(f);
        }
        Fonts {
            db: Arc::new(db),
            default_family: sans.unwrap_or_else(|| "sans-serif".to_string()),
        }
    })
}

/// Every font family in `db`, sorted, each once.
fn family_names(db: &usvg::fontdb::Database) -> Vec<String> {
    let mut names: Vec<String> = db
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Parses `svg` and draws it at `scale` on an opaque white ground; the pixmap (whose
/// premultiplied pixels are then plain RGBA, all opaque). Errors are messages for
/// `fm.ProtocolError` (not SVG) or `ValueError` (a picture too large).
fn draw(svg: &str, scale: f32) -> Result<tiny_skia::Pixmap, DrawError> {
    let fonts = fonts();
    let opts = usvg::Options {
        font_family: fonts.default_family.clone(),
        fontdb: fonts.db.clone(),
        // No `<image>` is read: neither a file path nor a data URL.
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opts)
        .map_err(|e| DrawError::NotSvg(format!("svg: not a picture resvg can read: {e}")))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil(),
        (size.height() * scale).ceil(),
    );
    let max = MAX_SIDE as f32;
    if !(w >= 1.0 && h >= 1.0 && w <= max && h <= max) {
        return Err(DrawError::TooLarge(format!(
            "the picture would be {w} x {h} pixels; each side must be 1 to {MAX_SIDE} \
             (the SVG is {} x {} at scale {scale})",
            size.width(),
            size.height()
        )));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32)
        .ok_or_else(|| DrawError::TooLarge(format!("no {w} x {h} picture")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

enum DrawError {
    NotSvg(String),
    TooLarge(String),
}

impl From<DrawError> for PyErr {
    fn from(e: DrawError) -> PyErr {
        match e {
            DrawError::NotSvg(m) => protocol_error(m),
            DrawError::TooLarge(m) => PyValueError::new_err(m),
        }
    }
}

/// Reads the `svg` and `scale` arguments: a str of at most `fm.MAX_INPUT_BYTES`, a
/// number (not a bool) above 0 and at most 16.
fn read_args(svg: &Bound<'_, PyAny>, scale: Option<&Bound<'_, PyAny>>) -> PyResult<(String, f32)> {
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
    if !(scale.is_finite() && scale > 0.0 && scale <= 16.0) {
        return Err(PyValueError::new_err(format!(
            "scale must be a number above 0 and at most 16, not {scale}"
        )));
    }
    Ok((svg, scale as f32))
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
    let png = py.detach(|| {
        draw(&svg, scale).and_then(|p| {
            p.encode_png()
                .map_err(|e| DrawError::TooLarge(format!("PNG encoding failed: {e}")))
        })
    })?;
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
    let (h, w, rgb) = py.detach(|| {
        draw(&svg, scale).map(|p| {
            // Every pixel is opaque (drawn on white), so premultiplied is plain RGB.
            let rgb: Vec<u8> = p
                .data()
                .chunks_exact(4)
                .flat_map(|px| [px[0], px[1], px[2]])
                .collect();
            (p.height(), p.width(), rgb)
        })
    })?;
    Ok((h, w, PyByteArray::new(py, &rgb)))
}

/// The font families `svg_to_png` and `svg_to_rgb` draw text with: the system's fonts,
/// sorted (empty on a system without fonts, where text is left out of the pictures;
/// on Debian, `apt-get install fonts-dejavu-core` gives the family the board pictures
/// name first).
#[pyfunction]
pub fn render_fonts() -> Vec<String> {
    family_names(&fonts().db)
}
