//! Library-wide functions: strings, the last error, status names, the built-in
//! scenarios, version and build information.

use crate::fm_status;
use crate::guard::{give_json, give_string, out_ptr, put, registry, run, Fail};
use std::ffi::c_char;

/// Frees a string returned by this library. NULL is a no-op.
///
/// Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
/// `s` is not a live string of its own (freed already, or not from fm).
///
/// # Safety
/// `s` is NULL or a string returned by an `fm_` function and not freed before; it must
/// not be used afterwards. Never pass it to `free()`, and never pass memory from
/// `malloc()` here.
#[no_mangle]
pub unsafe extern "C" fn fm_string_free(s: *mut c_char) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe { crate::guard::free_string(s) }
}

/// Copies the message of the last error on the calling thread into a new string:
/// what went wrong, naming the rule for a refused command ("5.2(d): 1107 holds an
/// enemy unit"). An empty string if no call on this thread has failed yet.
///
/// The last error is thread-local: each thread sees only its own failures. It is set
/// by every call that returns a status other than `FM_OK` and is left unchanged by
/// successful calls, so read it right after the failing call. Reading it does not
/// clear it.
///
/// Ownership: `*out_message` is owned by the caller; free it with `fm_string_free`.
///
/// # Safety
/// `out_message` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_last_error_message(out_message: *mut *mut c_char) -> fm_status {
    let saved = crate::guard::last_error();
    run(|| {
        let out = out_ptr(out_message, "out_message")?;
        let s = give_string(saved.clone().map(|f| f.message).unwrap_or_default())?;
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, s) };
        Ok(())
    })
}

/// Copies the rule of the last error on the calling thread into a new string: the
/// rule number for `FM_ILLEGAL_COMMAND` ("5.2(d)", "4.1", "input"), otherwise a
/// category: "argument", "input" (bad command JSON or UTF-8), "scenario", "save",
/// "handle" (also for `FM_BUSY` and `FM_POISONED`), "panic", "internal". Empty if no
/// call on this thread has failed yet.
///
/// Ownership: `*out_rule` is owned by the caller; free it with `fm_string_free`.
///
/// # Safety
/// `out_rule` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_last_error_rule(out_rule: *mut *mut c_char) -> fm_status {
    let saved = crate::guard::last_error();
    run(|| {
        let out = out_ptr(out_rule, "out_rule")?;
        let s = give_string(saved.clone().map(|f| f.rule).unwrap_or_default())?;
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, s) };
        Ok(())
    })
}

/// The name of a status code ("FM_ILLEGAL_COMMAND").
///
/// Ownership: `*out_name` points to a static string owned by the library: do not free
/// it; it stays valid for the life of the process.
///
/// Returns `FM_INVALID_ARGUMENT` for a value that is not a status code.
///
/// # Safety
/// `out_name` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_status_name(status: u32, out_name: *mut *const c_char) -> fm_status {
    run(|| {
        let out = out_ptr(out_name, "out_name")?;
        let name: &'static std::ffi::CStr = match status {
            0 => c"FM_OK",
            1 => c"FM_NULL_ARGUMENT",
            2 => c"FM_INVALID_UTF8",
            3 => c"FM_INVALID_JSON",
            4 => c"FM_UNKNOWN_SCENARIO",
            5 => c"FM_INVALID_SCENARIO",
            6 => c"FM_ILLEGAL_COMMAND",
            7 => c"FM_INVALID_SAVE",
            8 => c"FM_INDEX_OUT_OF_RANGE",
            9 => c"FM_INVALID_ARGUMENT",
            10 => c"FM_BUFFER_TOO_SMALL",
            11 => c"FM_INVALID_HANDLE",
            12 => c"FM_POISONED",
            13 => c"FM_PANIC",
            14 => c"FM_INTERNAL_ERROR",
            15 => c"FM_BUSY",
            16 => c"FM_UNSUPPORTED",
            other => return Err(Fail::argument(format!("{other} is not an fm_status"))),
        };
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, name.as_ptr()) };
        Ok(())
    })
}

/// The ids of the built-in scenarios, as a JSON array of strings
/// (`["system-demo"]`), for `fm_match_new`.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// # Safety
/// `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_scenario_names(out_json: *mut *mut c_char) -> fm_status {
    run(|| {
        let out = out_ptr(out_json, "out_json")?;
        let s = give_json(&fm_core::any::builtin_scenarios())?;
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, s) };
        Ok(())
    })
}

/// The library version ("0.1.0").
///
/// Ownership: `*out_version` points to a static string owned by the library: do not
/// free it.
///
/// # Safety
/// `out_version` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_version(out_version: *mut *const c_char) -> fm_status {
    run(|| {
        let out = out_ptr(out_version, "out_version")?;
        let v: &'static std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
            concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
        ) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, v.as_ptr()) };
        Ok(())
    })
}

/// Whether this build of the library tracks its live handles and strings, so that a
/// freed or foreign pointer passed to any function is refused with
/// `FM_INVALID_HANDLE` (true in debug builds). In release builds (false) passing a
/// freed handle or string is undefined behaviour, caught on a best-effort basis only.
///
/// # Safety
/// `out_enabled` is NULL or valid for writing one `bool`.
#[no_mangle]
pub unsafe extern "C" fn fm_has_handle_checks(out_enabled: *mut bool) -> fm_status {
    run(|| {
        let out = out_ptr(out_enabled, "out_enabled")?;
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, registry::ENABLED) };
        Ok(())
    })
}
