//! The learning observation of `fm.Match` for any rules system that has one (the match
//! layer's `DynMatch::observation_spec` and `observation`: Fire & Movement's board
//! planes and features, Huzzah!'s table raster and slots): its layout as a dict, and
//! the values as bytes or written into a caller's float32 buffer (in place when it is
//! C-contiguous and aligned, else through a vector). A system without an observation
//! raises `fm.UnsupportedError`.

use crate::convert::{f32_le_bytes, to_py, type_name};
use crate::errors::match_error;
use fm_core::any::DynMatch;
use fm_core::Side;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// `Match.observation_spec`: `{"shape": [channels, rows, columns], "channels": [...],
/// "features": [...]}`, the layer's JSON form.
pub fn spec<'py>(py: Python<'py>, m: &dyn DynMatch) -> PyResult<Bound<'py, PyAny>> {
    let spec = m.observation_spec().map_err(|e| match_error(&e))?;
    to_py(py, &spec)
}

/// `side`'s flat observation (planes, then features), computed without the GIL.
fn flat(py: Python<'_>, m: &dyn DynMatch, side: Side) -> PyResult<Vec<f32>> {
    let n = m.observation_size().map_err(|e| match_error(&e))?;
    let mut out = vec![0f32; n];
    py.detach(|| m.observation(side, &mut out))
        .map_err(|e| match_error(&e))?;
    Ok(out)
}

/// `Match.observation_bytes(side)`: `(planes, features)` as little-endian float32
/// bytes.
pub fn observation_bytes<'py>(
    py: Python<'py>,
    m: &dyn DynMatch,
    side: Side,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let planes = m
        .observation_spec()
        .map_err(|e| match_error(&e))?
        .shape
        .iter()
        .product::<usize>();
    let v = flat(py, m, side)?;
    let (a, b) = v.split_at(planes.min(v.len()));
    Ok((f32_le_bytes(py, a), f32_le_bytes(py, b)))
}

/// `Match.observation(side, out)`: one flat float32 vector, as bytes or written into
/// `out` (checked before the observation is computed); `keep_gil`: written in place
/// without releasing the GIL (the system's `PySystem::observation_keeps_gil`).
pub fn observation<'py>(
    py: Python<'py>,
    m: &dyn DynMatch,
    side: Side,
    out: Option<Bound<'py, PyAny>>,
    keep_gil: bool,
) -> PyResult<Bound<'py, PyAny>> {
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
        let n = m.observation_size().map_err(|e| match_error(&e))?;
        if buf.item_count() != n {
            return Err(PyValueError::new_err(format!(
                "out holds {} items; the observation has observation_size = {n}",
                buf.item_count()
            )));
        }
        if buf.readonly() {
            return Err(PyValueError::new_err("out must be writable"));
        }
    }
    if let (Some(out), Some(buf)) = (&out, &buf) {
        let ptr = buf.buf_ptr() as *mut f32;
        if buf.is_c_contiguous() && ptr.is_aligned() {
            // Written in place: no vector of the observation's size to fill and copy.
            let dst = Dest(ptr, buf.item_count());
            if keep_gil {
                // Too short to give the GIL away (`PySystem::observation_keeps_gil`):
                // released and taken back at every call, Fire & Movement's made two
                // threads observing their own matches 13 times slower than one after
                // the other, each handover a wake-up of the other.
                let Dest(ptr, n) = dst;
                // SAFETY: as below, with the GIL held throughout.
                let dst = unsafe { std::slice::from_raw_parts_mut(ptr, n) };
                m.observation(side, dst).map_err(|e| match_error(&e))?;
                return Ok(out.clone());
            }
            py.detach(move || {
                // The whole `Dest` moves in (a field alone would be captured apart).
                let whole = dst;
                let Dest(ptr, n) = whole;
                // SAFETY: `buf` holds the exporter's buffer (and `out`) alive and
                // unmoved until it is dropped after this call; it was checked writable,
                // C-contiguous, of `n` float32 items, and `ptr` aligned for f32. Another
                // Python thread writing the same array meanwhile would race with this
                // write as with any native code that releases the GIL (numpy's own).
                let dst = unsafe { std::slice::from_raw_parts_mut(ptr, n) };
                m.observation(side, dst)
            })
            .map_err(|e| match_error(&e))?;
            return Ok(out.clone());
        }
    }
    let v = flat(py, m, side)?;
    match (out, buf) {
        (Some(out), Some(buf)) => {
            buf.copy_from_slice(py, &v)?;
            Ok(out)
        }
        _ => Ok(f32_le_bytes(py, &v).into_any()),
    }
}

/// A caller's float32 buffer, handed to the computation that runs without the GIL.
#[derive(Clone, Copy)]
struct Dest(*mut f32, usize);

// SAFETY: the pointer is only dereferenced inside the `detach` call of `observation`,
// while the `PyBuffer` that owns the export lives on the calling thread's stack.
unsafe impl Send for Dest {}
