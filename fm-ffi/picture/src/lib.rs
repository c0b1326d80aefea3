//! # fm-picture
//!
//! The engine's SVG pictures (`fm_core::render_svg`, `fm_core::huzzah::render`) as PNG
//! bytes or RGB pixels, drawn by resvg (pure Rust: usvg parses, tiny-skia rasterises,
//! rustybuzz shapes text) with the system's fonts. One rasteriser for every binding:
//! the C library (`fm_svg_to_png`), `serve` and the Python module (`fm.svg_to_png`,
//! `fm.svg_to_rgb`, the environments' `rgb_array`) all call this crate, so a picture
//! is drawn the same way everywhere.
//!
//! It is a crate of its own rather than a part of fm-core, which does no I/O and loads
//! no fonts, and rather than a module of fm-ffi, whose `#[no_mangle]` C functions
//! would otherwise be linked into (and exported from) the Python extension too.
//!
//! Any SVG text is accepted, read with no access to files or the network: an
//! `<image>` is left out, whatever it names.
//!
//! ```
//! let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="2" height="2" fill="#ff0000"/></svg>"##;
//! let png = fm_picture::svg_to_png(svg, 1.0).unwrap();
//! assert!(png.starts_with(&fm_picture::PNG_SIGNATURE));
//! let p = fm_picture::svg_to_rgb(svg, 2.0).unwrap();
//! assert_eq!((p.width, p.height), (8, 4));
//! assert_eq!(&p.rgb[..3], &[255, 0, 0]); // the red square
//! assert_eq!(&p.rgb[p.rgb.len() - 3..], &[255, 255, 255]); // on a white ground
//! ```

#![deny(missing_docs)]

use resvg::{tiny_skia, usvg};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The largest picture drawn, in pixels on a side (about 256 MiB of RGBA at most).
pub const MAX_SIDE: u32 = 8192;

/// The largest scale: pixels per SVG unit.
pub const MAX_SCALE: f64 = 16.0;

/// The longest SVG text read, in bytes (64 MiB; a Suez 1916 board is about 0.5 MB).
pub const MAX_SVG_BYTES: usize = 64 << 20;

/// The eight bytes every PNG file starts with.
pub const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// Why a picture could not be drawn. Nothing is drawn on any error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// The text is not SVG resvg can read (or longer than [`MAX_SVG_BYTES`]).
    NotSvg(String),
    /// The scale is not a number above 0 and at most [`MAX_SCALE`].
    BadScale(String),
    /// The picture would be empty or larger than [`MAX_SIDE`] pixels on a side.
    TooLarge(String),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::NotSvg(m) | PictureError::BadScale(m) | PictureError::TooLarge(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for PictureError {}

/// RGB pixels: `height` rows of `width` pixels, top to bottom, each pixel red, green,
/// blue (`rgb.len() == width * height * 3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    /// Pixels on a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The bytes, row by row.
    pub rgb: Vec<u8>,
}

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

/// The font families pictures are drawn with: the system's fonts, sorted (empty on a
/// system without fonts, where text is left out of the pictures; on Debian,
/// `apt-get install fonts-dejavu-core` gives the family the board pictures name
/// first). Loaded once per process.
pub fn font_families() -> Vec<String> {
    family_names(&fonts().db)
}

/// Checks `scale` (pixels per SVG unit): a finite number above 0 and at most
/// [`MAX_SCALE`].
///
/// # Errors
/// [`PictureError::BadScale`] otherwise.
pub fn check_scale(scale: f64) -> Result<f32, PictureError> {
    if scale.is_finite() && scale > 0.0 && scale <= MAX_SCALE {
        Ok(scale as f32)
    } else {
        Err(PictureError::BadScale(format!(
            "scale must be a number above 0 and at most {MAX_SCALE}, not {scale}"
        )))
    }
}

/// Parses `svg` and draws it at `scale` on an opaque white ground: the pixmap, whose
/// premultiplied pixels are then plain RGBA, all opaque.
fn draw(svg: &str, scale: f64) -> Result<tiny_skia::Pixmap, PictureError> {
    let scale = check_scale(scale)?;
    if svg.len() > MAX_SVG_BYTES {
        return Err(PictureError::NotSvg(format!(
            "svg: {} bytes, more than the {} MiB read",
            svg.len(),
            MAX_SVG_BYTES >> 20
        )));
    }
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
        .map_err(|e| PictureError::NotSvg(format!("svg: not a picture resvg can read: {e}")))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil(),
        (size.height() * scale).ceil(),
    );
    let max = MAX_SIDE as f32;
    if !(w >= 1.0 && h >= 1.0 && w <= max && h <= max) {
        return Err(PictureError::TooLarge(format!(
            "the picture would be {w} x {h} pixels; each side must be 1 to {MAX_SIDE} \
             (the SVG is {} x {} at scale {scale})",
            size.width(),
            size.height()
        )));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32)
        .ok_or_else(|| PictureError::TooLarge(format!("no {w} x {h} picture")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The picture `svg` (SVG text, such as a board from `fm_core::render_svg`) as PNG
/// bytes, `scale` pixels per SVG unit, drawn on a white ground with the system's fonts
/// ([`font_families`]; text in a family the system lacks is drawn in DejaVu Sans or
/// the first family found). Files and URLs the SVG names are not read.
///
/// # Errors
/// [`PictureError::NotSvg`] for text resvg cannot read, [`PictureError::BadScale`] for
/// a scale outside (0, 16], [`PictureError::TooLarge`] for a picture over
/// [`MAX_SIDE`] pixels on a side.
pub fn svg_to_png(svg: &str, scale: f64) -> Result<Vec<u8>, PictureError> {
    draw(svg, scale)?
        .encode_png()
        .map_err(|e| PictureError::TooLarge(format!("PNG encoding failed: {e}")))
}

/// The picture `svg` as RGB pixels, drawn as [`svg_to_png`] draws it.
///
/// # Errors
/// Those of [`svg_to_png`].
pub fn svg_to_rgb(svg: &str, scale: f64) -> Result<Rgb, PictureError> {
    let p = draw(svg, scale)?;
    // Every pixel is opaque (drawn on white), so premultiplied is plain RGB.
    let rgb: Vec<u8> = p
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    Ok(Rgb {
        width: p.width(),
        height: p.height(),
        rgb,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="6"><rect x="0" y="0" width="5" height="6" fill="#0000ff"/></svg>"##;

    #[test]
    fn png_has_the_signature_and_the_scaled_size() {
        let png = svg_to_png(SQUARE, 3.0).unwrap();
        assert_eq!(png[..8], PNG_SIGNATURE);
        // IHDR: width and height, big-endian, at bytes 16..24.
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((w, h), (30, 18));
    }

    #[test]
    fn rgb_rows_hold_the_drawing_on_white() {
        let p = svg_to_rgb(SQUARE, 1.0).unwrap();
        assert_eq!((p.width, p.height, p.rgb.len()), (10, 6, 10 * 6 * 3));
        assert_eq!(&p.rgb[0..3], &[0, 0, 255]);
        assert_eq!(&p.rgb[9 * 3..10 * 3], &[255, 255, 255]);
    }

    #[test]
    fn bad_input_is_an_error_not_a_picture() {
        assert!(matches!(
            svg_to_png("not svg", 1.0),
            Err(PictureError::NotSvg(_))
        ));
        for s in [0.0, -1.0, f64::NAN, f64::INFINITY, 16.5] {
            assert!(
                matches!(svg_to_png(SQUARE, s), Err(PictureError::BadScale(_))),
                "{s}"
            );
        }
        let huge = SQUARE.replace("width=\"10\"", "width=\"9000\"");
        assert!(matches!(
            svg_to_png(&huge, 1.0),
            Err(PictureError::TooLarge(_))
        ));
        let long = format!("{SQUARE}{}", " ".repeat(MAX_SVG_BYTES));
        assert!(matches!(
            svg_to_png(&long, 1.0),
            Err(PictureError::NotSvg(_))
        ));
    }

    #[test]
    fn images_are_not_read() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="4" height="4"><image width="4" height="4" xlink:href="/etc/passwd"/></svg>"#;
        let p = svg_to_rgb(svg, 1.0).unwrap();
        assert!(p.rgb.iter().all(|&b| b == 255));
    }
}
