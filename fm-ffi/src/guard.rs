//! The boundary machinery every entry point goes through: failures and the
//! thread-local last error, the panic guard, handle validation (magic number, poison
//! flag, and in debug builds a registry of live pointers), and input/output helpers.

use crate::fm_match;
use crate::fm_status::{self, *};
use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a call failed: the status it returns and the (rule, message) pair stored as the
/// thread's last error.
#[derive(Clone, Debug)]
pub(crate) struct Fail {
    pub status: fm_status,
    pub rule: String,
    pub message: String,
}

impl Fail {
    pub fn new(status: fm_status, rule: &str, message: impl Into<String>) -> Fail {
        Fail {
            status,
            rule: rule.to_string(),
            message: message.into(),
        }
    }

    pub fn null(what: &str) -> Fail {
        Fail::new(FM_NULL_ARGUMENT, "argument", format!("{what} is NULL"))
    }

    pub fn argument(message: impl Into<String>) -> Fail {
        Fail::new(FM_INVALID_ARGUMENT, "argument", message)
    }

    /// A command the rules refuse: the message is the `RuleError` text, which starts
    /// with the rule number.
    pub fn rule(e: &fm_core::RuleError) -> Fail {
        Fail::new(FM_ILLEGAL_COMMAND, &e.rule, e.to_string())
    }

    pub fn from_match_error(e: fm_core::MatchError) -> Fail {
        use fm_core::MatchError as E;
        match &e {
            E::Scenario(_) => Fail::new(FM_INVALID_SCENARIO, "scenario", e.to_string()),
            E::Rule(r) => Fail::rule(r),
            E::Json(_) => Fail::new(FM_INVALID_JSON, "save", e.to_string()),
            E::Diverged { .. } => Fail::new(FM_INVALID_SAVE, "save", e.to_string()),
        }
    }

    fn panic(payload: Box<dyn Any + Send>, poisoned: bool) -> Fail {
        let what = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "unknown panic payload".to_string()
        };
        let tail = if poisoned {
            "; the match handle is now poisoned"
        } else {
            ""
        };
        Fail::new(
            FM_PANIC,
            "panic",
            format!("internal error (panic in fm): {what}{tail}"),
        )
    }

    fn invalid_handle(what: &str) -> Fail {
        Fail::new(
            FM_INVALID_HANDLE,
            "handle",
            format!("{what} is not a live pointer returned by fm (freed already?)"),
        )
    }
}

thread_local! {
    static LAST_ERROR: RefCell<Option<Fail>> = const { RefCell::new(None) };
}

fn set_last_error(f: Fail) {
    // `try_with`: during thread teardown the slot may be gone; the status still tells.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut s) = slot.try_borrow_mut() {
            *s = Some(f);
        }
    });
}

/// The calling thread's last error, if any.
pub(crate) fn last_error() -> Option<Fail> {
    LAST_ERROR
        .try_with(|slot| slot.try_borrow().ok().and_then(|s| s.clone()))
        .ok()
        .flatten()
}

/// Runs `f` behind the panic guard: a panic becomes `FM_PANIC`, a failure becomes its
/// status; either is stored as the thread's last error. Success leaves the last error
/// as it was.
pub(crate) fn run(f: impl FnOnce() -> Result<(), Fail>) -> fm_status {
    let r = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(Fail::panic(p, false)));
    match r {
        Ok(()) => FM_OK,
        Err(f) => {
            let s = f.status;
            set_last_error(f);
            s
        }
    }
}

/// Number stored in every live handle ("fm_match" in ASCII), zeroed on free.
pub(crate) const MAGIC: u64 = 0x666d_5f6d_6174_6368;

impl fm_match {
    /// Boxes a match and returns the handle the caller will own.
    pub(crate) fn into_handle(game: fm_core::Match) -> *mut fm_match {
        let p = Box::into_raw(Box::new(fm_match {
            magic: MAGIC,
            poisoned: std::cell::Cell::new(false),
            game,
            legal: std::cell::RefCell::new(None),
        }));
        registry::HANDLES.add(p as usize);
        p
    }

    pub(crate) fn game(&self) -> &fm_core::Match {
        &self.game
    }

    /// The match, for a change; drops the cached legal indices.
    pub(crate) fn game_mut(&mut self) -> &mut fm_core::Match {
        *self.legal.get_mut() = None;
        &mut self.game
    }

    /// The legal action indices of the current state (`fm_core::legal_indices`),
    /// computed once per state.
    pub(crate) fn with_legal<R>(&self, f: impl FnOnce(&[usize]) -> R) -> R {
        let mut cache = self.legal.borrow_mut();
        let v = cache
            .get_or_insert_with(|| fm_core::legal_indices(self.game.scenario(), self.game.state()));
        f(v)
    }
}

/// Validates a handle pointer: not NULL, live (debug builds), carrying the magic
/// number, not poisoned.
///
/// # Safety
/// `m` is NULL or a pointer returned by this library (in release builds: not freed).
unsafe fn check<'a>(m: *const fm_match) -> Result<&'a fm_match, Fail> {
    if m.is_null() {
        return Err(Fail::null("the match handle"));
    }
    if !registry::HANDLES.contains(m as usize) {
        return Err(Fail::invalid_handle("the match handle"));
    }
    // SAFETY: non-null and, by the caller's contract (checked in debug builds), a live
    // handle of ours.
    let h = unsafe { &*m };
    if h.magic != MAGIC {
        return Err(Fail::invalid_handle("the match handle"));
    }
    if h.poisoned.get() {
        return Err(Fail::new(
            FM_POISONED,
            "handle",
            "the match handle is poisoned: an earlier call on it panicked; free it",
        ));
    }
    Ok(h)
}

/// Runs `f` on a validated shared handle behind the panic guard; a panic in `f`
/// poisons the handle.
///
/// # Safety
/// As [`check`].
pub(crate) unsafe fn with_ref(
    m: *const fm_match,
    f: impl FnOnce(&fm_match) -> Result<(), Fail>,
) -> fm_status {
    run(|| {
        // SAFETY: forwarded contract.
        let h = unsafe { check(m)? };
        match catch_unwind(AssertUnwindSafe(|| f(h))) {
            Ok(r) => r,
            Err(p) => {
                h.poisoned.set(true);
                Err(Fail::panic(p, true))
            }
        }
    })
}

/// Runs `f` on a validated exclusive handle behind the panic guard; a panic in `f`
/// poisons the handle.
///
/// # Safety
/// As [`check`], and no other reference to the handle is in use (the caller does not
/// share one handle between threads without a lock).
pub(crate) unsafe fn with_mut(
    m: *mut fm_match,
    f: impl FnOnce(&mut fm_match) -> Result<(), Fail>,
) -> fm_status {
    run(|| {
        // SAFETY: forwarded contract.
        unsafe { check(m)? };
        // SAFETY: validated above; exclusive by the caller's contract.
        let h = unsafe { &mut *m };
        match catch_unwind(AssertUnwindSafe(|| f(&mut *h))) {
            Ok(r) => r,
            Err(p) => {
                h.poisoned.set(true);
                Err(Fail::panic(p, true))
            }
        }
    })
}

/// Frees a handle: NULL is a no-op; a poisoned handle is freed too.
///
/// # Safety
/// `m` is NULL or a handle returned by this library, not used again afterwards.
pub(crate) unsafe fn free_handle(m: *mut fm_match) -> fm_status {
    run(|| {
        if m.is_null() {
            return Ok(());
        }
        if !registry::HANDLES.remove(m as usize) {
            return Err(Fail::invalid_handle("the match handle"));
        }
        // SAFETY: a live handle of ours (checked in debug builds, by contract in
        // release builds).
        unsafe {
            if (*m).magic != MAGIC {
                return Err(Fail::invalid_handle("the match handle"));
            }
            // Volatile so the store survives the deallocation that follows: a stale
            // pointer then fails the magic check more often (best effort only).
            std::ptr::write_volatile(std::ptr::addr_of_mut!((*m).magic), 0);
            drop(Box::from_raw(m));
        }
        Ok(())
    })
}

/// Borrows an input C string as UTF-8.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for the call.
pub(crate) unsafe fn in_str<'a>(p: *const c_char, what: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(Fail::null(what));
    }
    // SAFETY: non-null, NUL-terminated by the caller's contract.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        Fail::new(
            FM_INVALID_UTF8,
            "input",
            format!("{what} is not valid UTF-8 ({e})"),
        )
    })
}

/// Checks an out-parameter for NULL.
pub(crate) fn out_ptr<T>(p: *mut T, what: &str) -> Result<*mut T, Fail> {
    if p.is_null() {
        Err(Fail::null(what))
    } else {
        Ok(p)
    }
}

/// Writes an out-parameter checked by [`out_ptr`].
///
/// # Safety
/// `p` came from [`out_ptr`] and is valid for writes.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) {
    // SAFETY: by the caller's contract.
    unsafe { p.write(v) }
}

/// Turns a string into a caller-owned C string (freed with `fm_string_free`).
pub(crate) fn give_string(s: String) -> Result<*mut c_char, Fail> {
    let c = CString::new(s).map_err(|_| {
        Fail::new(
            FM_INTERNAL_ERROR,
            "internal",
            "output contains a NUL byte (a bug in fm)",
        )
    })?;
    let p = c.into_raw();
    registry::STRINGS.add(p as usize);
    Ok(p)
}

/// Frees a string from [`give_string`]; NULL is a no-op.
///
/// # Safety
/// `p` is NULL or a string returned by this library, not freed before.
pub(crate) unsafe fn free_string(p: *mut c_char) -> fm_status {
    run(|| {
        if p.is_null() {
            return Ok(());
        }
        if !registry::STRINGS.remove(p as usize) {
            return Err(Fail::invalid_handle("the string"));
        }
        // SAFETY: a string from `CString::into_raw`, by the registry (debug) or the
        // caller's contract (release).
        drop(unsafe { CString::from_raw(p) });
        Ok(())
    })
}

/// Serializes a value to a caller-owned JSON string.
pub(crate) fn give_json<T: serde::Serialize + ?Sized>(v: &T) -> Result<*mut c_char, Fail> {
    let s = serde_json::to_string(v).map_err(|e| {
        Fail::new(
            FM_INTERNAL_ERROR,
            "internal",
            format!("cannot serialize: {e}"),
        )
    })?;
    give_string(s)
}

/// Live pointers handed out, tracked in debug builds so that a freed or foreign
/// pointer is refused with `FM_INVALID_HANDLE` without being dereferenced. In release
/// builds every check passes (no cost, no protection beyond the magic number).
pub(crate) mod registry {
    #[cfg(debug_assertions)]
    pub(crate) struct Registry(std::sync::Mutex<std::collections::BTreeSet<usize>>);
    #[cfg(not(debug_assertions))]
    pub(crate) struct Registry;

    #[cfg(debug_assertions)]
    pub(crate) static HANDLES: Registry =
        Registry(std::sync::Mutex::new(std::collections::BTreeSet::new()));
    #[cfg(debug_assertions)]
    pub(crate) static STRINGS: Registry =
        Registry(std::sync::Mutex::new(std::collections::BTreeSet::new()));
    #[cfg(not(debug_assertions))]
    pub(crate) static HANDLES: Registry = Registry;
    #[cfg(not(debug_assertions))]
    pub(crate) static STRINGS: Registry = Registry;

    /// Whether pointers are tracked (debug builds).
    pub(crate) const ENABLED: bool = cfg!(debug_assertions);

    #[cfg(debug_assertions)]
    impl Registry {
        fn set(&self) -> std::sync::MutexGuard<'_, std::collections::BTreeSet<usize>> {
            self.0.lock().unwrap_or_else(|e| e.into_inner())
        }
        pub(crate) fn add(&self, p: usize) {
            self.set().insert(p);
        }
        pub(crate) fn contains(&self, p: usize) -> bool {
            self.set().contains(&p)
        }
        pub(crate) fn remove(&self, p: usize) -> bool {
            self.set().remove(&p)
        }
    }

    #[cfg(not(debug_assertions))]
    impl Registry {
        #[inline(always)]
        pub(crate) fn add(&self, _p: usize) {}
        #[inline(always)]
        pub(crate) fn contains(&self, _p: usize) -> bool {
            true
        }
        #[inline(always)]
        pub(crate) fn remove(&self, _p: usize) -> bool {
            true
        }
    }
}
