//! Reading Python arguments with clear errors: integers (indices, seeds, counts), sides,
//! lists of strings, files. pyo3's own extraction errors (`OverflowError` for a
//! negative seed, "Can't extract `str` to `Vec`") name Rust types; these name the
//! parameter and what it accepts.

use crate::convert::{max_input_text, type_name, MAX_INPUT_BYTES};
use crate::errors::protocol_error;
use fm_core::{Side, Viewer};
use pyo3::exceptions::{PyOSError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyString, PyTuple};
use std::io::Read;
use std::path::Path;

/// An integer argument as a Python int: an `int` (not a `bool`) or an object with
/// `__index__` (a numpy integer). `None` for anything else.
pub fn as_int<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyInt>> {
    if obj.is_instance_of::<PyBool>() {
        return None;
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Some(i.clone());
    }
    let py = obj.py();
    // SAFETY: PyNumber_Index returns a new reference or NULL with an exception set.
    let r = unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyNumber_Index(obj.as_ptr())) };
    match r {
        Ok(i) => i.cast_into::<PyInt>().ok(),
        Err(_) => None,
    }
}

/// The `TypeError` for an argument that should be an int.
pub fn not_an_int(obj: &Bound<'_, PyAny>, what: &str) -> PyErr {
    PyTypeError::new_err(format!("{what} must be an int, not {}", describe(obj)))
}

/// The decimal text of a Python int, for messages.
pub fn int_text(i: &Bound<'_, PyInt>) -> String {
    i.str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A seed: an int in 0..=2**64-1 (`ValueError` naming the range otherwise; `TypeError`
/// for a bool or a non-int). `None` is `default`.
pub fn seed_arg(obj: Option<&Bound<'_, PyAny>>, default: u64) -> PyResult<u64> {
    let Some(obj) = obj else {
        return Ok(default);
    };
    if obj.is_none() {
        return Ok(default);
    }
    let i = as_int(obj).ok_or_else(|| not_an_int(obj, "seed"))?;
    i.extract::<u64>().map_err(|_| {
        PyValueError::new_err(format!(
            "seed must be in 0..2**64-1 (0 to {}), not {}",
            u64::MAX,
            int_text(&i)
        ))
    })
}

/// A count or size: an int in `0..=max` (`ValueError` naming the range otherwise).
pub fn count_arg(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    let i = as_int(obj).ok_or_else(|| not_an_int(obj, what))?;
    match i.extract::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ if max == u64::MAX => Err(PyValueError::new_err(format!(
            "{what} must be a non-negative int, not {}",
            int_text(&i)
        ))),
        _ => Err(PyValueError::new_err(format!(
            "{what} must be in 0..={max}, not {}",
            int_text(&i)
        ))),
    }
}

/// An int setting of the search (`Match.think`): `default` for `None`, else an int in
/// `lo..=hi`; out of that range (negative, too large for its type, or past the engine's
/// limit) `fm.ProtocolError` naming the setting and its range, in the words of the
/// search's own check (`SearchConfig::validate`); `TypeError` for a non-int.
pub fn setting_int(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    default: u64,
    (lo, hi): (u64, u64),
) -> PyResult<u64> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(default);
    };
    let i = as_int(obj).ok_or_else(|| not_an_int(obj, what))?;
    match i.extract::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(protocol_error(format!(
            "search config: {what} = {} is out of range ({lo} to {hi})",
            int_text(&i)
        ))),
    }
}

/// A float setting of the search: `default` for `None`, else a number; one too large
/// for a float (an int past about 1.8e308) is `fm.ProtocolError` naming the setting and
/// `range` (the search checks the range of the others).
pub fn setting_float(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    default: f64,
    range: &str,
) -> PyResult<f64> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(default);
    };
    obj.extract::<f64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(obj.py()) {
            let text = obj.str().map(|s| s.to_string()).unwrap_or_default();
            protocol_error(format!(
                "search config: {what} = {text} is out of range ({range})"
            ))
        } else {
            e
        }
    })
}

/// How an unexpected argument is named in a message: `None`, `a bool (True)`, `a float`.
pub fn describe(obj: &Bound<'_, PyAny>) -> String {
    if obj.is_none() {
        "None".into()
    } else if obj.is_instance_of::<PyBool>() {
        format!(
            "a bool ({})",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    } else {
        format!("a {}", type_name(obj))
    }
}

/// What a side argument accepts, for messages.
const SIDE_FORMS: &str = "\"a\" or \"b\", 0 or 1, or a side's name in the scenario";

/// `"a"` / `"b"` (either case).
pub fn side_arg(s: &str) -> PyResult<Side> {
    match s {
        "a" | "A" => Ok(Side::A),
        "b" | "B" => Ok(Side::B),
        _ => Err(PyValueError::new_err(format!(
            "a side is \"a\" or \"b\", not {s:?}"
        ))),
    }
}

/// Reads a viewer: `"spectator"` (any case: what both sides may know, every secret of
/// either side hidden) or a side's player, the side read as [`side_from_py`] reads it
/// (its errors then name the spectator too).
pub fn viewer_from_py(names: Option<[&str; 2]>, obj: &Bound<'_, PyAny>) -> PyResult<Viewer> {
    if let Ok(s) = obj.cast::<PyString>() {
        if s.to_str()?.eq_ignore_ascii_case("spectator") {
            return Ok(Viewer::Spectator);
        }
    }
    side_from_py(names, obj).map(Viewer::from).map_err(|e| {
        let py = obj.py();
        let msg = format!("{}, or \"spectator\"", e.value(py));
        if e.is_instance_of::<PyTypeError>(py) {
            PyTypeError::new_err(msg)
        } else {
            PyValueError::new_err(msg)
        }
    })
}

/// Reads a side: a str (`"a"`, `"b"`, or with the scenario's `names` of sides a and b
/// a side's name, any case) or an int (`0`, `1`; also a numpy integer). A bool (`True`
/// is an int in Python, and would silently mean side b) or any other type is a
/// `TypeError` naming the accepted forms.
pub fn side_from_py(names: Option<[&str; 2]>, obj: &Bound<'_, PyAny>) -> PyResult<Side> {
    let forms = if names.is_some() {
        SIDE_FORMS
    } else {
        "\"a\" or \"b\", or 0 or 1"
    };
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_str()?;
        if let Ok(side) = side_arg(s) {
            return Ok(side);
        }
        if let Some([a, b]) = names {
            for (side, name) in [(Side::A, a), (Side::B, b)] {
                if name.eq_ignore_ascii_case(s) {
                    return Ok(side);
                }
            }
            return Err(PyValueError::new_err(format!(
                "unknown side {s:?} (sides: \"a\" = {a}, \"b\" = {b})"
            )));
        }
        return Err(PyValueError::new_err(format!(
            "unknown side {s:?} (a side is {forms})"
        )));
    }
    let Some(i) = as_int(obj) else {
        return Err(PyTypeError::new_err(format!(
            "a side is {forms}, not {}",
            describe(obj)
        )));
    };
    match i.extract::<i64>() {
        Ok(0) => Ok(Side::A),
        Ok(1) => Ok(Side::B),
        _ => Err(PyValueError::new_err(format!(
            "side index {} is not 0 or 1",
            int_text(&i)
        ))),
    }
}

/// A list of strings: a `list` or `tuple` (or another sequence) of `str`. A bare `str`
/// (a sequence of characters), `bytes` or anything else is a `TypeError` naming the
/// parameter `what` and the items expected (`item`: "hex id", "unit id").
pub fn str_list(obj: &Bound<'_, PyAny>, what: &str, item: &str) -> PyResult<Vec<String>> {
    let wanted = || format!("{what} must be a list of {item}s (str)");
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(PyTypeError::new_err(format!(
            "{}, not a single {}: write [{}]",
            wanted(),
            type_name(obj),
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        )));
    }
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(s) = obj.cast::<pyo3::types::PySequence>() {
        s.try_iter()?.collect::<PyResult<_>>()?
    } else {
        return Err(PyTypeError::new_err(format!(
            "{}, not {}",
            wanted(),
            type_name(obj)
        )));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, x)| match x.cast::<PyString>() {
            Ok(s) => Ok(s.to_str()?.to_string()),
            Err(_) => Err(PyTypeError::new_err(format!(
                "{what}[{i}] must be a {item} (str), not {}",
                type_name(x)
            ))),
        })
        .collect()
}

/// An optional list of strings (`None`: empty).
pub fn opt_str_list(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    item: &str,
) -> PyResult<Vec<String>> {
    match obj {
        Some(o) if !o.is_none() => str_list(o, what, item),
        _ => Ok(Vec::new()),
    }
}

/// Why a file could not be read.
pub enum ReadError {
    Io(std::io::Error),
    /// Larger than [`MAX_INPUT_BYTES`].
    TooLarge,
    NotUtf8(std::string::FromUtf8Error),
}

impl ReadError {
    /// A message naming the file.
    pub fn message(&self, p: &Path) -> String {
        match self {
            ReadError::Io(e) => format!("cannot read {}: {e}", p.display()),
            ReadError::TooLarge => format!(
                "{} is larger than {} (the limit of a save or scenario file)",
                p.display(),
                max_input_text()
            ),
            ReadError::NotUtf8(e) => format!("{} is not UTF-8 text: {e}", p.display()),
        }
    }
}

/// Reads a text file of at most [`MAX_INPUT_BYTES`] (reading no more than one byte
/// past the limit, so that an endless file such as `/dev/zero` is refused, not read
/// until memory runs out), without a leading byte-order mark.
pub fn read_text_file(p: &Path) -> Result<String, ReadError> {
    let f = std::fs::File::open(p).map_err(ReadError::Io)?;
    let mut buf = Vec::new();
    f.take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(ReadError::Io)?;
    if buf.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge);
    }
    if buf.starts_with(b"\xef\xbb\xbf") {
        buf.drain(..3);
    }
    String::from_utf8(buf).map_err(ReadError::NotUtf8)
}

/// A Python `OSError` for an I/O error on `p` (`FileNotFoundError` etc. by errno), with
/// `filename` set, so that the message names the file.
pub fn os_error(e: &std::io::Error, p: &Path) -> PyErr {
    let name = p.to_string_lossy().into_owned();
    match e.raw_os_error() {
        Some(code) => {
            let text = e.to_string();
            let suffix = format!(" (os error {code})");
            let strerror = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
            // OSError(errno, strerror, filename) builds the errno's subclass.
            PyOSError::new_err((code, strerror, name))
        }
        None => PyOSError::new_err(format!("{name}: {e}")),
    }
}
