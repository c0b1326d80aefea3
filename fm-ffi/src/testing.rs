//! Test-only entry points (cargo feature `testing`): a deliberate panic, to check that
//! panics are caught at the boundary and poison the handle.

use crate::fm_match;
use crate::fm_status;

/// TEST ONLY (built with the cargo feature `testing`): panics inside the library.
/// With a handle, the panic happens while the handle is in use: the call returns
/// `FM_PANIC` and the handle is poisoned (every later call on it returns
/// `FM_POISONED`, `fm_match_free` still frees it). With NULL, the panic happens
/// outside any handle: the call returns `FM_PANIC` and nothing is poisoned.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn fm_testing_panic(m: *mut fm_match) -> fm_status {
    if m.is_null() {
        return crate::guard::run(|| panic!("fm_testing_panic: deliberate panic"));
    }
    // SAFETY: forwarded contract.
    unsafe { crate::guard::with_mut(m, |_| panic!("fm_testing_panic: deliberate panic")) }
}
