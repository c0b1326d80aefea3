//! The action-space arguments and results of `fm.Match`, for every system: action
//! indices, factored sequences, and the masks of legal actions and of a factored
//! step's options (a new `bytes`, or a caller's buffer filled in place).

use crate::args::{as_int, describe, int_text, not_an_int};
use crate::convert::type_name;
use crate::errors::rule_error;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// An action index: an int (or numpy integer), not a bool. `Ok(None)` for an int
/// outside the action space's type (negative, or past 2**64), which no command has.
pub fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<(Option<usize>, String)> {
    let i = as_int(action).ok_or_else(|| not_an_int(action, "an action index"))?;
    let text = int_text(&i);
    Ok((i.extract::<usize>().ok(), text))
}

/// A factored sequence or prefix: a list, tuple or other iterable of ints (numpy
/// integers and arrays too), not a `str` or bytes. At most `steps` values are read: a
/// longer sequence, and a negative or huge value, raise `fm.RuleError` (rule
/// `"input"`), as a value out of its step does.
pub fn factored_arg(obj: &Bound<'_, PyAny>, steps: usize) -> PyResult<Vec<usize>> {
    let not_a_sequence = || {
        PyTypeError::new_err(format!(
            "a factored sequence must be a list of ints, not {}",
            describe(obj)
        ))
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<pyo3::types::PyByteArray>()
    {
        return Err(not_a_sequence());
    }
    let input = |message: String| rule_error(&fm_core::RuleError::new("input", message));
    let mut out = Vec::new();
    for (k, v) in obj.try_iter().map_err(|_| not_a_sequence())?.enumerate() {
        let v = v?;
        if k >= steps {
            return Err(input(format!(
                "the factored sequence has more than {steps} values: a sequence has at most \
                 {steps} steps"
            )));
        }
        let i = as_int(&v).ok_or_else(|| not_an_int(&v, &format!("factored step {k}")))?;
        match i.extract::<usize>() {
            Ok(x) => out.push(x),
            Err(_) => {
                return Err(input(format!(
                    "factored step {k}: {} is no value of a step (they are 0 to 2**64-1)",
                    int_text(&i)
                )))
            }
        }
    }
    Ok(out)
}

/// A factored sequence refused by the engine, as `fm.RuleError` (rule `"input"`).
pub fn factored_error(e: &fm_core::FactoredError) -> PyErr {
    rule_error(&e.to_rule_error())
}

/// The mask of `legal` among `n` values (`what` names its size in messages): without
/// `out` (or with `None`), a new `bytes`; with `out`, a writable C-contiguous buffer of
/// `n` one-byte items, unsigned (numpy uint8, bytearray) or signed (numpy int8), filled
/// in place and returned.
pub fn mask_of<'py>(
    py: Python<'py>,
    n: usize,
    legal: &[usize],
    out: Option<Bound<'py, PyAny>>,
    what: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let Some(out) = out.filter(|o| !o.is_none()) else {
        let mut mask = vec![0u8; n];
        for &i in legal {
            if let Some(b) = mask.get_mut(i) {
                *b = 1;
            }
        }
        return Ok(PyBytes::new(py, &mask).into_any());
    };
    if let Ok(buf) = pyo3::buffer::PyBuffer::<u8>::get(&out) {
        fill_mask(&buf, n, legal, what)?;
    } else if let Ok(buf) = pyo3::buffer::PyBuffer::<i8>::get(&out) {
        fill_mask(&buf, n, legal, what)?;
    } else {
        return Err(PyTypeError::new_err(format!(
            "out must be a writable buffer of bytes (a numpy uint8 or int8 array, a bytearray), not {}",
            type_name(&out)
        )));
    }
    Ok(out)
}

/// Fills `buf` (one-byte items) with the mask of `legal`: 1 at each legal index, 0
/// elsewhere; the mask's size `n` is `what` (for the message).
fn fill_mask<T: pyo3::buffer::Element>(
    buf: &pyo3::buffer::PyBuffer<T>,
    n: usize,
    legal: &[usize],
    what: &str,
) -> PyResult<()> {
    if buf.item_count() != n || buf.item_size() != 1 {
        return Err(PyValueError::new_err(format!(
            "out holds {} items; the mask has {what}",
            buf.item_count()
        )));
    }
    if buf.readonly() || !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(
            "out must be writable and C-contiguous",
        ));
    }
    // SAFETY: `buf` holds the exporter's buffer in place while it lives; it is
    // writable and C-contiguous with `n` items of one byte (checked above), and with
    // the GIL held nothing else reads or writes it meanwhile.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<u8>(), n) };
    bytes.fill(0);
    for &i in legal {
        if let Some(b) = bytes.get_mut(i) {
            *b = 1;
        }
    }
    Ok(())
}
