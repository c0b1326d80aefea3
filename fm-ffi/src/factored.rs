//! The factored action space (fm-core's `fm_core::factored`): a command chosen in a
//! few small steps instead of one index among the whole flat action space. A sequence
//! `seq[0], seq[1], …` has at most `fm_match_factored_sizes` steps, value `seq[k]` below
//! the size of step `k`; `fm_match_factored_options` lists what may follow a prefix now
//! (each option leads to at least one legal command), `fm_match_factored_complete` tells
//! when a sequence stands for a whole command, and its flat index
//! (`fm_match_factored_to_flat`) is the stable action index of `fm_match_apply_index`.

use crate::fm_match;
use crate::fm_status::{self, *};
use crate::guard::{out_ptr, put, with_mut, with_ref, Fail};
use fm_core::FactoredError;

/// A factored sequence or prefix that the engine refuses.
fn factored_fail(e: &FactoredError) -> Fail {
    Fail::new(FM_INVALID_ARGUMENT, "input", e.to_string())
}

/// Borrows an input sequence of `len` values (NULL allowed when `len` is 0) of a
/// match whose sequences have at most `steps` values: a longer one is refused before
/// it is read.
///
/// # Safety
/// `p` is NULL or valid for reading `len` `size_t`s.
unsafe fn in_values<'a>(
    p: *const usize,
    len: usize,
    steps: usize,
    what: &str,
) -> Result<&'a [usize], Fail> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Fail::null(what));
    }
    if len > steps {
        return Err(Fail::new(
            FM_INVALID_ARGUMENT,
            "input",
            format!("{what} has {len} values: a factored sequence has at most {steps}"),
        ));
    }
    // SAFETY: non-null and valid for `len` reads by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// Checks an output array and its length out-parameter for NULL (before any work).
fn check_out<T>(out: *mut T, capacity: usize, out_len: *mut usize, what: &str) -> Result<(), Fail> {
    out_ptr(out_len, "out_len")?;
    if capacity > 0 {
        out_ptr(out, what)?;
    }
    Ok(())
}

/// Writes `v` to an output array of `capacity` values and its length to `*out_len`;
/// a `v` longer than `capacity` writes the length alone and fails with
/// `FM_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `out` is NULL or valid for writing `capacity` values; `out_len` is NULL or valid for
/// writing one `size_t`.
unsafe fn out_values<T: Copy>(
    v: &[T],
    out: *mut T,
    capacity: usize,
    out_len: *mut usize,
    what: &str,
) -> Result<(), Fail> {
    let len_out = out_ptr(out_len, "out_len")?;
    if capacity > 0 {
        out_ptr(out, what)?;
    }
    // SAFETY: checked by `out_ptr`; valid by the caller's contract.
    unsafe { put(len_out, v.len()) };
    if v.len() > capacity {
        return Err(Fail::new(
            FM_BUFFER_TOO_SMALL,
            "argument",
            format!("{} values, buffer holds {capacity}", v.len()),
        ));
    }
    if !v.is_empty() {
        // SAFETY: `out` holds `capacity >= v.len()` values.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), out, v.len()) };
    }
    Ok(())
}

/// The number of values of each step of the factored action space, fixed for the
/// scenario (so a policy's heads have fixed sizes): `*out_len` steps, step `k` taking
/// values `0 <= v < out_sizes[k]`. Fire & Movement: 3 steps, `11 + 8U`, `max(H, U)`
/// and 64 for `U` units and `H` hexes; another system: 2 (docs/protocol.md).
///
/// `*out_len` is always written; if it exceeds `capacity` the call returns
/// `FM_BUFFER_TOO_SMALL` and writes nothing else. `out_sizes` may be NULL when
/// `capacity` is 0.
///
/// Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_sizes` is NULL or
/// valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_factored_sizes(
    m: *const fm_match,
    out_sizes: *mut usize,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            check_out(out_sizes, capacity, out_len, "out_sizes")?;
            out_values(
                &h.game().factored_sizes(),
                out_sizes,
                capacity,
                out_len,
                "out_sizes",
            )
        })
    }
}

/// The options of step `prefix_len` after the prefix `prefix[0..prefix_len]` now,
/// ascending: exactly the values that continue it towards at least one legal command
/// (walking every option of every step reaches the legal action indices, each once).
/// The empty prefix (`prefix_len` 0, `prefix` may be NULL) gives the first step's
/// options, none once the game is over.
///
/// `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
/// else is); a buffer of the step's size (`fm_match_factored_sizes`) is always enough.
///
/// Errors: `FM_INVALID_ARGUMENT` (rule "input": a value that is no option of its step,
/// a complete sequence, a prefix no legal command starts with; the message names it),
/// `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `prefix` is NULL or valid
/// for reading `prefix_len` `size_t`s; `out_options` is NULL or valid for writing
/// `capacity` `size_t`s; `out_len` is NULL or valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_factored_options(
    m: *const fm_match,
    prefix: *const usize,
    prefix_len: usize,
    out_options: *mut usize,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let prefix = in_values(
                prefix,
                prefix_len,
                h.game().factored_sizes().len(),
                "prefix",
            )?;
            check_out(out_options, capacity, out_len, "out_options")?;
            let opts = h
                .game()
                .factored_options(prefix)
                .map_err(|e| factored_fail(&e))?;
            out_values(&opts, out_options, capacity, out_len, "out_options")
        })
    }
}

/// `fm_match_factored_options` as a mask: `*out_len` is the size of step `prefix_len`
/// and `out_mask[v]` is 1 for each option `v`, 0 for every other value.
///
/// `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
/// else is).
///
/// Errors: as `fm_match_factored_options`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `prefix` is NULL or valid
/// for reading `prefix_len` `size_t`s; `out_mask` is NULL or valid for writing
/// `capacity` bytes; `out_len` is NULL or valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_factored_mask(
    m: *const fm_match,
    prefix: *const usize,
    prefix_len: usize,
    out_mask: *mut u8,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let prefix = in_values(
                prefix,
                prefix_len,
                h.game().factored_sizes().len(),
                "prefix",
            )?;
            check_out(out_mask, capacity, out_len, "out_mask")?;
            let game = h.game();
            let opts = game
                .factored_options(prefix)
                .map_err(|e| factored_fail(&e))?;
            let size = game
                .factored_sizes()
                .get(prefix.len())
                .copied()
                .unwrap_or(0);
            let len_out = out_ptr(out_len, "out_len")?;
            if capacity > 0 {
                out_ptr(out_mask, "out_mask")?;
            }
            put(len_out, size);
            if size > capacity {
                return Err(Fail::new(
                    FM_BUFFER_TOO_SMALL,
                    "argument",
                    format!("a mask of {size} values, buffer holds {capacity}"),
                ));
            }
            if size > 0 {
                // SAFETY: `out_mask` holds `capacity >= size` bytes.
                let mask = std::slice::from_raw_parts_mut(out_mask, size);
                mask.fill(0);
                for &v in &opts {
                    if let Some(b) = mask.get_mut(v) {
                        *b = 1;
                    }
                }
            }
            Ok(())
        })
    }
}

/// Whether `seq[0..len]` is a complete sequence (it stands for a command: convert it
/// with `fm_match_factored_to_flat`, apply it with `fm_match_apply_factored`) or a
/// proper prefix (its next step is `len`). A function of the scenario alone.
///
/// Errors: `FM_INVALID_ARGUMENT` (a value that is no option of its step, a sequence
/// longer than its command), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
/// for reading `len` `size_t`s; `out_complete` is NULL or valid for writing one `bool`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_factored_complete(
    m: *const fm_match,
    seq: *const usize,
    len: usize,
    out_complete: *mut bool,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let seq = in_values(seq, len, h.game().factored_sizes().len(), "seq")?;
            let out = out_ptr(out_complete, "out_complete")?;
            let complete = h
                .game()
                .factored_complete(seq)
                .map_err(|e| factored_fail(&e))?;
            put(out, complete);
            Ok(())
        })
    }
}

/// The stable action index (`fm_match_apply_index`, `fm_match_legal_indices`) of a
/// complete factored sequence. A function of the scenario alone.
///
/// Errors: `FM_INVALID_ARGUMENT` (a value that is no option of its step, a sequence
/// too short or too long), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
/// for reading `len` `size_t`s; `out_index` is NULL or valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_factored_to_flat(
    m: *const fm_match,
    seq: *const usize,
    len: usize,
    out_index: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let seq = in_values(seq, len, h.game().factored_sizes().len(), "seq")?;
            let out = out_ptr(out_index, "out_index")?;
            let flat = h
                .game()
                .factored_to_flat(seq)
                .map_err(|e| factored_fail(&e))?;
            put(out, flat);
            Ok(())
        })
    }
}

/// The factored sequence of a stable action index (the inverse of
/// `fm_match_factored_to_flat`): `*out_len` values into `out_seq`. A function of the
/// scenario alone.
///
/// `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
/// else is); a buffer of as many values as there are steps is always enough.
///
/// Errors: `FM_INVALID_ARGUMENT` (an index outside the action space or standing for no
/// command), `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_seq` is NULL or
/// valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_flat_to_factored(
    m: *const fm_match,
    index: usize,
    out_seq: *mut usize,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            check_out(out_seq, capacity, out_len, "out_seq")?;
            let seq = h
                .game()
                .flat_to_factored(index)
                .map_err(|e| factored_fail(&e))?;
            out_values(&seq, out_seq, capacity, out_len, "out_seq")
        })
    }
}

/// Applies the command of a complete factored sequence (`fm_match_apply_index` of its
/// flat index). The events are logged but not returned (see `fm_match_save`).
///
/// Errors: `FM_ILLEGAL_COMMAND` (rule "input": a malformed or incomplete sequence; or
/// the command is refused, with its rule), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
/// for reading `len` `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_factored(
    m: *mut fm_match,
    seq: *const usize,
    len: usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let seq = in_values(seq, len, h.game().factored_sizes().len(), "seq")?;
            h.game_mut()
                .apply_factored(seq)
                .map_err(|e| Fail::rule(&e))?;
            Ok(())
        })
    }
}
