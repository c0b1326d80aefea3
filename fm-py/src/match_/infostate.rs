//! `Match.information_state_tensor`, for every system: the tensor's size checked against
//! a bound, and the tensor as little-endian float32 `bytes` or written into a caller's
//! float32 buffer.

use crate::convert::{f32_le_bytes, type_name};
use crate::errors::rule_error;
use fm_core::any::DynMatch;
use fm_core::Side;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The largest information-state tensor Python may ask for (floats): 64 Mi, 256 MiB,
/// so a typo in `max_commands` is an error rather than an allocation failure.
const MAX_INFO_TENSOR: usize = 64 << 20;

/// `side`'s information-state tensor with room for `max_commands` commands: new bytes,
/// or `out` filled in place.
pub fn tensor<'py>(
    py: Python<'py>,
    m: &dyn DynMatch,
    side: Side,
    max_commands: usize,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let size = max_commands
        .checked_mul(fm_core::infostate::INFO_TENSOR_SLOT)
        .and_then(|n| n.checked_add(fm_core::infostate::INFO_TENSOR_HEADER))
        .filter(|&n| n <= MAX_INFO_TENSOR)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "max_commands must be at most {}, not {max_commands}",
                (MAX_INFO_TENSOR - fm_core::infostate::INFO_TENSOR_HEADER)
                    / fm_core::infostate::INFO_TENSOR_SLOT
            ))
        })?;
    let out = out.filter(|o| !o.is_none());
    let buf = out
        .as_ref()
        .map(|o| {
            pyo3::buffer::PyBuffer::<f32>::get(o).map_err(|_| {
                PyTypeError::new_err(format!(
                    "out must be a writable buffer of float32 (a numpy float32 array), not {}",
                    type_name(o)
                ))
            })
        })
        .transpose()?;
    if let Some(buf) = &buf {
        if buf.item_count() != size {
            return Err(PyValueError::new_err(format!(
                "out holds {} items; the tensor for {max_commands} commands has {size}",
                buf.item_count()
            )));
        }
        if buf.readonly() {
            return Err(PyValueError::new_err("out must be writable"));
        }
    }
    let mut t = vec![0.0f32; size];
    py.detach(|| m.information_state_tensor(side, &mut t))
        .map_err(|e| rule_error(&e))?;
    let (Some(out), Some(buf)) = (out, buf) else {
        return Ok(f32_le_bytes(py, &t).into_any());
    };
    buf.copy_from_slice(py, &t)?;
    Ok(out)
}
