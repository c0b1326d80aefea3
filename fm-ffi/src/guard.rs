//! The boundary machinery every entry point goes through: failures and the
//! thread-local last error, the panic guard (with a panic hook that keeps caught
//! panics off the host's stderr), handle validation (magic number, in-use lock, poison
//! flag, and in debug builds a registry of live pointers), and input/output helpers.

use crate::fm_match;
use crate::fm_status::{self, *};
use fm_core::any::DynMatch;
use std::any::Any;
use std::cell::{Cell, OnceCell, RefCell};
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{MutexGuard, TryLockError};

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
            E::Scenario(_) | E::ScenarioJson(_) => {
                Fail::new(FM_INVALID_SCENARIO, "scenario", e.to_string())
            }
            E::Rule(r) => Fail::rule(r),
            E::Json(_) => Fail::new(FM_INVALID_JSON, "save", e.to_string()),
            E::Input(_) => Fail::new(FM_INVALID_JSON, "input", e.to_string()),
            E::Diverged { .. } => Fail::new(FM_INVALID_SAVE, "save", e.to_string()),
            E::Unsupported { .. } => Fail::new(FM_UNSUPPORTED, "unsupported", e.to_string()),
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
        // Where it happened, noted by the quiet hook: the message is all a host sees of
        // the panic, so it carries what the hook would have printed.
        let at = PANIC_LOCATION
            .try_with(Cell::take)
            .ok()
            .flatten()
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        let tail = if poisoned {
            "; the match handle is now poisoned"
        } else {
            ""
        };
        Fail::new(
            FM_PANIC,
            "panic",
            format!("internal error (panic in fm{at}): {what}{tail}"),
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

fn set_last_error(mut f: Fail) {
    // Messages quote the input, which may hold NUL (`"\u0000"` in a JSON string): a C
    // string cannot, so the last error shows it as `\0` rather than fail to be read.
    // (Found by the fuzz harness.)
    for s in [&mut f.message, &mut f.rule] {
        if s.contains('\0') {
            *s = s.replace('\0', "\\0");
        }
    }
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

thread_local! {
    /// How many boundary calls this thread is inside (they nest: `with_ref` runs inside
    /// `run`). While above zero, the quiet hook keeps panics off stderr.
    static AT_BOUNDARY: Cell<u32> = const { Cell::new(0) };
    /// Where the last quiet panic happened, for its error message.
    static PANIC_LOCATION: Cell<Option<String>> = const { Cell::new(None) };
}

/// Installs, once per process, a panic hook that stays silent for panics inside a
/// boundary call on the current thread (they are caught and reported through the
/// status and the last error, so printing them would only put noise on the host's
/// stderr) and hands every other panic to the hook that was installed before, so a
/// Rust host's own hook keeps working. A host that installs its own hook later replaces
/// this one: caught panics then print again, and nothing else changes.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = AT_BOUNDARY.try_with(|d| d.get() > 0).unwrap_or(false);
            if quiet {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                let _ = PANIC_LOCATION.try_with(|slot| slot.set(at));
            } else {
                previous(info);
            }
        }));
    });
}

/// Marks the current thread as inside a boundary call until dropped.
struct AtBoundary;

impl AtBoundary {
    fn enter() -> AtBoundary {
        let _ = AT_BOUNDARY.try_with(|d| d.set(d.get() + 1));
        AtBoundary
    }
}

impl Drop for AtBoundary {
    fn drop(&mut self) {
        let _ = AT_BOUNDARY.try_with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Runs `f` behind the panic guard: a panic becomes `FM_PANIC` (its message goes into
/// the last error, not to stderr), a failure becomes its status; either is stored as
/// the thread's last error. Success leaves the last error as it was.
pub(crate) fn run(f: impl FnOnce() -> Result<(), Fail>) -> fm_status {
    install_quiet_hook();
    let _quiet = AtBoundary::enter();
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

/// What a handle holds behind its lock: the match, the poison flag and the cache of
/// legal action indices.
pub(crate) struct Handle {
    poisoned: bool,
    /// The match, of any rules system, behind the system-agnostic layer
    /// (`fm_core::any`): no C function knows which system it is.
    game: Box<dyn DynMatch>,
    /// The legal action indices of the current state, computed on first use. Dropped by
    /// every change of the match and by every failed or panicking call, so that it can
    /// never answer for another state.
    legal: OnceCell<Vec<usize>>,
}

impl fm_match {
    /// Boxes a match and returns the handle the caller will own.
    pub(crate) fn into_handle(game: Box<dyn DynMatch>) -> *mut fm_match {
        let p = Box::into_raw(Box::new(fm_match {
            magic: MAGIC,
            inner: std::sync::Mutex::new(Handle {
                poisoned: false,
                game,
                legal: OnceCell::new(),
            }),
        }));
        registry::HANDLES.add(p as usize);
        p
    }
}

impl Handle {
    pub(crate) fn game(&self) -> &dyn DynMatch {
        self.game.as_ref()
    }

    /// The match, for a change; drops the cached legal indices.
    pub(crate) fn game_mut(&mut self) -> &mut dyn DynMatch {
        self.legal = OnceCell::new();
        self.game.as_mut()
    }

    /// Replaces the match (to restore a copy taken before a change that failed).
    pub(crate) fn set_game(&mut self, game: Box<dyn DynMatch>) {
        self.legal = OnceCell::new();
        self.game = game;
    }

    /// The legal action indices of the current state, computed once per state.
    pub(crate) fn with_legal<R>(&self, f: impl FnOnce(&[usize]) -> R) -> R {
        let v = self.legal.get_or_init(|| self.game.legal_indices());
        f(v)
    }
}

fn busy() -> Fail {
    Fail::new(
        FM_BUSY,
        "handle",
        "the match handle is in use by another thread right now; nothing was done \
         (use one handle from one thread at a time: share it behind a lock, or \
         fm_match_clone it)",
    )
}

fn poisoned() -> Fail {
    Fail::new(
        FM_POISONED,
        "handle",
        "the match handle is poisoned: an earlier call on it panicked; free it",
    )
}

/// Validates a handle pointer (not NULL, live in debug builds, carrying the magic
/// number) and takes its lock: held by another thread gives `FM_BUSY`, a poisoned
/// handle `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a pointer returned by this library (in release builds: not freed).
unsafe fn lock<'a>(m: *const fm_match) -> Result<MutexGuard<'a, Handle>, Fail> {
    if m.is_null() {
        return Err(Fail::null("the match handle"));
    }
    if !registry::HANDLES.contains(m as usize) {
        return Err(Fail::invalid_handle("the match handle"));
    }
    // SAFETY: non-null and, by the caller's contract (checked in debug builds), a live
    // handle of ours. Only shared references to it are ever made: everything mutable
    // is behind its mutex.
    let h = unsafe { &*m };
    if h.magic != MAGIC {
        return Err(Fail::invalid_handle("the match handle"));
    }
    let g = match h.inner.try_lock() {
        Ok(g) => g,
        Err(TryLockError::WouldBlock) => return Err(busy()),
        // A panic is caught inside the lock, so std's poisoning cannot happen; if it
        // did, the handle is as good as poisoned.
        Err(TryLockError::Poisoned(_)) => return Err(poisoned()),
    };
    if g.poisoned {
        return Err(poisoned());
    }
    Ok(g)
}

/// Runs `f` on a locked handle behind the panic guard. A failure drops the cached
/// legal indices; a panic poisons the handle.
///
/// # Safety
/// As [`lock`].
unsafe fn with_lock(
    m: *const fm_match,
    f: impl FnOnce(&mut Handle) -> Result<(), Fail>,
) -> fm_status {
    run(|| {
        // SAFETY: forwarded contract.
        let mut g = unsafe { lock(m)? };
        match catch_unwind(AssertUnwindSafe(|| f(&mut g))) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                g.legal = OnceCell::new();
                Err(e)
            }
            Err(p) => {
                g.poisoned = true;
                g.legal = OnceCell::new();
                Err(Fail::panic(p, true))
            }
        }
    })
}

/// Runs a query on a validated handle behind the panic guard (see [`with_lock`]).
///
/// # Safety
/// As [`lock`].
pub(crate) unsafe fn with_ref(
    m: *const fm_match,
    f: impl FnOnce(&Handle) -> Result<(), Fail>,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe { with_lock(m, |h| f(h)) }
}

/// Runs a change on a validated handle behind the panic guard (see [`with_lock`]).
///
/// # Safety
/// As [`lock`].
pub(crate) unsafe fn with_mut(
    m: *mut fm_match,
    f: impl FnOnce(&mut Handle) -> Result<(), Fail>,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe { with_lock(m, f) }
}

/// Frees a handle: NULL is a no-op; a poisoned handle is freed too; a handle another
/// thread is using at this moment is not freed (`FM_BUSY`, best effort: freeing a
/// handle in use is the caller's error).
///
/// # Safety
/// `m` is NULL or a handle returned by this library, not used again afterwards.
pub(crate) unsafe fn free_handle(m: *mut fm_match) -> fm_status {
    run(|| {
        if m.is_null() {
            return Ok(());
        }
        if !registry::HANDLES.contains(m as usize) {
            return Err(Fail::invalid_handle("the match handle"));
        }
        // SAFETY: a live handle of ours (checked in debug builds, by contract in
        // release builds).
        unsafe {
            if (*m).magic != MAGIC {
                return Err(Fail::invalid_handle("the match handle"));
            }
            if matches!((*m).inner.try_lock(), Err(TryLockError::WouldBlock)) {
                return Err(busy());
            }
            if !registry::HANDLES.remove(m as usize) {
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
    #[cfg(debug_assertions)]
    pub(crate) static BYTES: Registry =
        Registry(std::sync::Mutex::new(std::collections::BTreeSet::new()));
    #[cfg(not(debug_assertions))]
    pub(crate) static HANDLES: Registry = Registry;
    #[cfg(not(debug_assertions))]
    pub(crate) static BYTES: Registry = Registry;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// Re-runs one test of this binary in a child process (with `FM_GUARD_CHILD` set)
    /// and returns its stderr: what a host would see on its own stderr.
    fn child_stderr(test: &str) -> String {
        let out = Command::new(std::env::current_exe().expect("the test binary"))
            .args([test, "--exact", "--nocapture", "--test-threads=1"])
            .env("FM_GUARD_CHILD", "1")
            .env("RUST_BACKTRACE", "1")
            .output()
            .expect("run the child");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            out.status.success(),
            "child failed:\n{}\n{stderr}",
            String::from_utf8_lossy(&out.stdout)
        );
        stderr
    }

    /// Issue 13, finding 11: a panic caught at the boundary prints nothing (its message
    /// and location go into the last error), and a host's own panic hook still sees
    /// every other panic.
    #[test]
    fn caught_panics_are_quiet_and_the_host_hook_still_runs() {
        if std::env::var_os("FM_GUARD_CHILD").is_none() {
            let stderr =
                child_stderr("guard::tests::caught_panics_are_quiet_and_the_host_hook_still_runs");
            assert_eq!(stderr, "host hook: outside fm\n");
            return;
        }
        // The host's hook, installed before the library's first call.
        std::panic::set_hook(Box::new(|info| {
            let what = info
                .payload()
                .downcast_ref::<&str>()
                .copied()
                .unwrap_or("?");
            eprintln!("host hook: {what}");
        }));
        assert_eq!(run(|| panic!("inside fm")), FM_PANIC);
        let e = last_error().expect("a last error");
        assert!(e.message.contains("inside fm"), "{}", e.message);
        assert!(
            e.message.contains("guard.rs:"),
            "the location: {}",
            e.message
        );
        // Nested boundary calls stay quiet too, and the depth returns to zero.
        assert_eq!(run(|| Err(Fail::argument("x"))), FM_INVALID_ARGUMENT);
        assert_eq!(
            run(|| {
                assert_eq!(run(|| panic!("nested")), FM_PANIC);
                Ok(())
            }),
            FM_OK
        );
        assert_eq!(AT_BOUNDARY.with(Cell::get), 0);
        // A panic of the host's own: its hook prints it.
        let _ = catch_unwind(|| panic!("outside fm"));
    }

    /// A handle another thread holds is refused with FM_BUSY, untouched, and usable
    /// once released; freeing it meanwhile is refused too.
    #[test]
    fn a_handle_in_use_elsewhere_is_busy() {
        let m = fm_match::into_handle(Box::new(
            fm_core::Match::new_builtin("system-demo", 1).unwrap(),
        ));
        struct Ptr(*mut fm_match);
        // SAFETY (test): the pointer is only used through the library's own locking.
        unsafe impl Send for Ptr {}
        let p = Ptr(m);
        // SAFETY: a live handle.
        let guard = unsafe { (*m).inner.lock().unwrap() };
        let st = std::thread::spawn(move || {
            let p = p;
            let mut n = 0usize;
            // SAFETY: a live handle and valid out-pointers.
            let a = unsafe { crate::fm_match_legal_count(p.0, &mut n) };
            let e = last_error().expect("a last error");
            // SAFETY: as above.
            let b = unsafe { crate::fm_match_apply_legal(p.0, 0) };
            // SAFETY: as above.
            let c = unsafe { crate::fm_match_free(p.0) };
            (a, b, c, n, e)
        })
        .join()
        .unwrap();
        drop(guard);
        assert_eq!((st.0, st.1, st.2, st.3), (FM_BUSY, FM_BUSY, FM_BUSY, 0));
        assert_eq!(st.4.rule, "handle");
        assert!(st.4.message.contains("another thread"), "{}", st.4.message);
        let mut n = 0usize;
        // SAFETY: the handle is live (the busy free did nothing).
        unsafe {
            assert_eq!(crate::fm_match_legal_count(m, &mut n), FM_OK);
            assert!(n > 0);
            assert_eq!(crate::fm_match_free(m), FM_OK);
        }
    }

    /// A failed call drops the cached legal indices (they are recomputed from the
    /// match, never answered from an older state).
    #[test]
    fn a_failed_call_drops_the_cache() {
        let m = fm_match::into_handle(Box::new(
            fm_core::Match::new_builtin("system-demo", 1).unwrap(),
        ));
        let mut n = 0usize;
        // SAFETY: a live handle and valid out-pointers.
        unsafe {
            assert_eq!(crate::fm_match_legal_count(m, &mut n), FM_OK);
            assert!((*m).inner.lock().unwrap().legal.get().is_some());
            assert_eq!(crate::fm_match_apply_legal(m, n), FM_INDEX_OUT_OF_RANGE);
            assert!((*m).inner.lock().unwrap().legal.get().is_none());
            assert_eq!(crate::fm_match_free(m), FM_OK);
        }
    }
}
