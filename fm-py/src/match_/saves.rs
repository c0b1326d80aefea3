//! Saves of a match of any system: `Match.save` (JSON text, also written to a file) and
//! `Match.load` (JSON text, bytes or a path; read within the input bound, replayed and
//! verified by the match layer without the GIL).

use crate::args::{os_error, read_text_file, ReadError};
use crate::convert::{check_text_size, strip_bom, type_name};
use crate::errors::{match_error, protocol_error};
use fm_core::any::{self, DynMatch};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// `m`'s save (built without the GIL), also written to `path` if given.
pub fn save(
    py: Python<'_>,
    m: &dyn DynMatch,
    path: Option<std::path::PathBuf>,
) -> PyResult<String> {
    let s = py.detach(|| m.save());
    if let Some(p) = path {
        std::fs::write(&p, &s).map_err(|e| os_error(&e, &p))?;
    }
    Ok(s)
}

/// The match a save gives: `source` is save JSON text (a str starting with `{`, or
/// bytes) or a path (a str or an `os.PathLike`).
pub fn load(source: &Bound<'_, PyAny>) -> PyResult<Box<dyn DynMatch>> {
    let read = |p: &std::path::Path| -> PyResult<String> {
        read_text_file(p).map_err(|e| match &e {
            ReadError::Io(io) => os_error(io, p),
            other => protocol_error(format!("save file: {}", other.message(p))),
        })
    };
    let text: String = if let Ok(s) = source.cast::<PyString>() {
        let s = s.to_str()?;
        let body = strip_bom(s);
        if body.trim_start().starts_with('{') {
            check_text_size(body.len(), "save file").map_err(protocol_error)?;
            body.to_string()
        } else {
            read(std::path::Path::new(s))?
        }
    } else if let Ok(b) = source.cast::<PyBytes>() {
        let b = b.as_bytes();
        check_text_size(b.len(), "save file").map_err(protocol_error)?;
        let b = b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b);
        String::from_utf8(b.to_vec()).map_err(|e| protocol_error(format!("save file: {e}")))?
    } else if source.hasattr("__fspath__")? {
        let p: std::path::PathBuf = source.extract()?;
        read(&p)?
    } else {
        return Err(PyTypeError::new_err(format!(
            "Match.load takes save JSON text (str or bytes) or a path (str or os.PathLike), not {}",
            type_name(source)
        )));
    };
    // The replay that verifies the save runs without the GIL.
    let m = source
        .py()
        .detach(|| any::load_match(&text))
        .map_err(|e| match &e {
            // An unknown or malformed `"system"`: a save-file problem like the others.
            fm_core::MatchError::Input(m) => protocol_error(format!("save file: {m}")),
            other => match_error(other),
        })?;
    Ok(m)
}
