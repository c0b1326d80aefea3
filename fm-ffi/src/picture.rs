//! Pictures as PNG: `fm_svg_to_png` draws SVG text (such as a board from
//! `fm_match_svg`) with the workspace's one rasteriser, the `fm-picture` crate
//! (resvg), which the Python module's `fm.svg_to_png` uses too; `fm_bytes_free` frees
//! the bytes.

use crate::fm_status::{self, *};
use crate::guard::{in_str, out_ptr, put, registry, run, Fail};
use fm_picture::PictureError;
use std::ffi::c_char;

/// Bytes before the data of a buffer from [`give_bytes`]: its length, so that
/// `fm_bytes_free` needs only the pointer (as `fm_string_free` does).
const HEADER: usize = std::mem::size_of::<u64>();

/// Hands `data` to the caller: a pointer to its first byte, owned by the caller until
/// `fm_bytes_free`.
fn give_bytes(data: &[u8]) -> *mut u8 {
    let mut buf = Vec::with_capacity(HEADER + data.len());
    buf.extend_from_slice(&(data.len() as u64).to_ne_bytes());
    buf.extend_from_slice(data);
    let raw = Box::into_raw(buf.into_boxed_slice()) as *mut u8;
    // SAFETY: the allocation holds HEADER + len bytes.
    let p = unsafe { raw.add(HEADER) };
    registry::BYTES.add(p as usize);
    p
}

/// Draws SVG text as a PNG image: `scale` pixels per SVG unit (1 draws a board at its
/// SVG `width` x `height`), on a white ground, text in the system's fonts (DejaVu Sans
/// first). Files and URLs the SVG names are never read (an `<image>` is left out).
///
/// On success `*out_png` points to `*out_len` bytes of PNG (they start with the PNG
/// signature `\x89PNG\r\n\x1a\n`).
///
/// Ownership: `*out_png` is owned by the caller; free it with `fm_bytes_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`; `FM_INVALID_JSON` (category
/// "input") for text that is not SVG or longer than 64 MiB; `FM_INVALID_ARGUMENT` for
/// a scale that is not above 0 and at most 16, or a picture that would be more than
/// 8192 pixels on a side.
///
/// # Safety
/// `svg` is NULL or a NUL-terminated string; `out_png` is NULL or valid for writing one
/// pointer; `out_len` is NULL or valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_svg_to_png(
    svg: *const c_char,
    scale: f64,
    out_png: *mut *mut u8,
    out_len: *mut usize,
) -> fm_status {
    run(|| {
        // SAFETY: forwarded contract.
        let svg = unsafe { in_str(svg, "svg") }?;
        let out = out_ptr(out_png, "out_png")?;
        let len_out = out_ptr(out_len, "out_len")?;
        let png = fm_picture::svg_to_png(svg, scale).map_err(|e| match e {
            PictureError::NotSvg(m) => Fail::new(FM_INVALID_JSON, "input", m),
            PictureError::BadScale(m) | PictureError::TooLarge(m) => Fail::argument(m),
        })?;
        let p = give_bytes(&png);
        // SAFETY: checked non-null; valid by contract.
        unsafe {
            put(out, p);
            put(len_out, png.len());
        }
        Ok(())
    })
}

/// Frees bytes returned by this library (`fm_svg_to_png`). NULL is a no-op.
///
/// Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
/// `bytes` is not a live buffer of its own (freed already, or not from fm).
///
/// # Safety
/// `bytes` is NULL or a pointer written by an `fm_` function that returns bytes, not
/// freed before; it must not be used afterwards. Never pass it to `free()`.
#[no_mangle]
pub unsafe extern "C" fn fm_bytes_free(bytes: *mut u8) -> fm_status {
    run(|| {
        if bytes.is_null() {
            return Ok(());
        }
        if !registry::BYTES.remove(bytes as usize) {
            return Err(Fail::new(
                FM_INVALID_HANDLE,
                "handle",
                "the bytes are not a live buffer returned by fm (freed already?)",
            ));
        }
        // SAFETY: a pointer from `give_bytes` (by the registry in debug builds, by the
        // caller's contract in release builds): HEADER bytes before it hold the length
        // of the data after it, and the whole is one boxed slice.
        unsafe {
            let raw = bytes.sub(HEADER);
            let mut len = [0u8; HEADER];
            std::ptr::copy_nonoverlapping(raw, len.as_mut_ptr(), HEADER);
            let len = u64::from_ne_bytes(len) as usize;
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                raw,
                HEADER + len,
            )));
        }
        Ok(())
    })
}
