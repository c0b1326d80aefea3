//! # fm-ffi
//!
//! The C ABI of `fm`, the Fire & Movement rules engine ([`fm_core`]), and the
//! JSON-lines engine protocol spoken by `cargo run --release --bin serve`.
//!
//! The C API is declared in `include/fm.h`, generated from this crate by cbindgen (a
//! test fails if regenerating it would change it). Its calling conventions, stated in
//! full at the top of that header:
//!
//! - Every function returns an [`fm_status`]; `FM_OK` (0) is success. Results come
//!   through out-parameters, which are always the last arguments and are written only
//!   on success (no partial success).
//! - A failing call stores a message in thread-local storage; read it with
//!   [`fm_last_error_message`] / [`fm_last_error_rule`].
//! - Strings returned by the library are owned by the caller and freed with
//!   [`fm_string_free`]; strings passed in are borrowed for the duration of the call.
//! - Every entry point catches panics, and no panic message reaches the host's stderr
//!   (it goes into the last error). A handle whose call panicked is poisoned: it
//!   answers `FM_POISONED` until freed.
//! - One handle, one thread at a time: a call on a handle that another thread is using
//!   right now does nothing and returns `FM_BUSY`.
//!
//! The Rust functions here are the C functions; Rust code should use `fm_core`
//! directly. They are `pub` so the crate's tests can call them as C would.
//! [`protocol`] is the serve protocol, used by `fm-ffi/src/bin/serve.rs`.

#![allow(non_camel_case_types)]
#![deny(unsafe_op_in_unsafe_fn)]

// The order of these modules is the order of the functions in include/fm.h.
mod matches;

mod fast;

mod factored;

mod queries;

mod misc;

mod picture;

#[cfg(feature = "testing")]
mod testing;

mod guard;
pub mod listen;
pub mod patch;
pub mod protocol;
pub mod ws;

pub use factored::*;
pub use fast::*;
pub use matches::*;
pub use misc::*;
pub use picture::*;
pub use queries::*;
#[cfg(feature = "testing")]
pub use testing::*;

#[cfg(test)]
mod version_tests {
    /// The version macros of fm.h are Cargo's version (cbindgen needs literals, so they
    /// are written out; this keeps them honest).
    #[test]
    fn version_constants_are_cargos() {
        let n = |s: &str| s.parse::<u32>().unwrap();
        assert_eq!(super::FM_VERSION_MAJOR, n(env!("CARGO_PKG_VERSION_MAJOR")));
        assert_eq!(super::FM_VERSION_MINOR, n(env!("CARGO_PKG_VERSION_MINOR")));
        assert_eq!(super::FM_VERSION_PATCH, n(env!("CARGO_PKG_VERSION_PATCH")));
        assert_eq!(super::FM_VERSION_STRING, env!("CARGO_PKG_VERSION"));
    }
}

/// The result of every function. `FM_OK` is 0; any other value is a failure, after
/// which nothing was changed and no out-parameter was written, and
/// `fm_last_error_message` describes what went wrong.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum fm_status {
    /// Success.
    FM_OK = 0,
    /// A required pointer argument (a handle, an input string or an out-parameter) was
    /// NULL.
    FM_NULL_ARGUMENT = 1,
    /// An input string is not valid UTF-8.
    FM_INVALID_UTF8 = 2,
    /// An input string is not valid JSON, or not JSON of the expected shape (a command
    /// of an unknown type, a save file without a log or of another format, a key given
    /// twice in any object, ...).
    FM_INVALID_JSON = 3,
    /// No built-in scenario has that name (see `fm_scenario_names`).
    FM_UNKNOWN_SCENARIO = 4,
    /// The scenario JSON is well formed but not a valid scenario; the message names
    /// the JSON path of the first problem.
    FM_INVALID_SCENARIO = 5,
    /// The rules refuse the command; the match is unchanged. `fm_last_error_rule`
    /// gives the rule it breaks ("5.2(d)"; "4.1": out of sequence or game over;
    /// "input": unknown unit, hex off the map, action index meaning nothing here).
    FM_ILLEGAL_COMMAND = 6,
    /// The save file parsed, but replaying it does not give the recorded events (a
    /// different engine version, or an edited file; also a seed that does not match
    /// its `seed_check`); the message names the command.
    FM_INVALID_SAVE = 7,
    /// An index is past the end (`fm_match_apply_legal` with `i >= count`).
    FM_INDEX_OUT_OF_RANGE = 8,
    /// An argument has a value outside its domain (a side other than `FM_SIDE_A` or
    /// `FM_SIDE_B`, an unknown status code).
    FM_INVALID_ARGUMENT = 9,
    /// A caller-supplied buffer is too small; the required length was written.
    FM_BUFFER_TOO_SMALL = 10,
    /// The pointer is not a live handle (or string) of this library: freed already,
    /// or never returned by it. Detected reliably only in debug builds of the library
    /// (see `fm_has_handle_checks`); in release builds a freed handle is undefined
    /// behaviour, caught on a best-effort basis only.
    FM_INVALID_HANDLE = 11,
    /// An earlier call on this handle panicked; the handle refuses further use. Free
    /// it (`fm_match_free` works on a poisoned handle).
    FM_POISONED = 12,
    /// A bug in the library: a Rust panic was caught at the boundary. If a handle was
    /// involved it is now poisoned.
    FM_PANIC = 13,
    /// The engine reached a state it should not (no legal command although the game
    /// is not over). A bug in the engine or the scenario; please report it.
    FM_INTERNAL_ERROR = 14,
    /// The handle is in use by another thread at this moment: the call did nothing (the
    /// handle is fine). One handle must be used by one thread at a time; share it behind
    /// a lock, or give each thread its own with `fm_match_clone`. Detection is a
    /// courtesy, not a synchronisation: do not retry in a loop instead of locking.
    FM_BUSY = 15,
    /// The match's rules system does not answer this query (`fm_match_reachable` of a
    /// Huzzah! match, a picture of a system without one); `fm_last_error_message` names
    /// the query and the system, and the rule is "unsupported".
    FM_UNSUPPORTED = 16,
}

/// A running match: a scenario, its state, a seeded random generator (xoshiro256++)
/// and the log of commands and events. Opaque; create it with `fm_match_new`,
/// `fm_match_from_json`, `fm_match_load` or `fm_match_clone`, and free it with
/// `fm_match_free`.
///
/// Thread safety: distinct handles are fully independent and may be used from
/// different threads at the same time. One handle must not be used by two threads at
/// once (not even for the `const` queries, which fill an internal cache); share it
/// only behind a lock. A call that finds the handle in use by another thread returns
/// `FM_BUSY` without touching it.
pub struct fm_match {
    magic: u64,
    /// Taken with `try_lock` by every call: a second thread finds it held and gets
    /// `FM_BUSY` instead of racing on the match.
    inner: std::sync::Mutex<guard::Handle>,
}

/// A side of the game: `FM_SIDE_A` (listed first in the scenario) or `FM_SIDE_B`.
pub type fm_side = u32;

/// Side A, the side listed first in the scenario.
pub const FM_SIDE_A: fm_side = 0;
/// Side B, the side listed second in the scenario.
pub const FM_SIDE_B: fm_side = 1;
/// No side: as an argument (`fm_match_svg`, `fm_match_last_events`, `fm_match_log`,
/// `fm_match_log_words`), the whole state or the unredacted events, the referee's; as
/// a result (`fm_match_decider`), nobody is to decide (the game is over). Functions
/// that need a player's side refuse it (`FM_INVALID_ARGUMENT`).
pub const FM_SIDE_NONE: fm_side = 2;
/// A spectator, as an argument where a viewer is asked for (`fm_match_view`,
/// `fm_match_view_hash`, `fm_match_last_events`, `fm_match_log`, `fm_match_log_words`,
/// `fm_match_svg`): what both sides may know, every secret of either side hidden (the
/// view `serve` gives its spectators). A system without spectator views gives
/// `FM_UNSUPPORTED`; functions that need a player's side refuse it
/// (`FM_INVALID_ARGUMENT`).
pub const FM_SIDE_SPECTATOR: fm_side = 3;

/// How a match stands, written by `fm_match_result`: going on, won by a side, or drawn
/// (`fm_match_winner` says `FM_WINNER_NONE` both while it goes on and after a draw).
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum fm_result {
    /// The game goes on.
    FM_RESULT_ONGOING = 0,
    /// Side A won.
    FM_RESULT_A_WON = 1,
    /// Side B won.
    FM_RESULT_B_WON = 2,
    /// The game is over without a winner.
    FM_RESULT_DRAW = 3,
}

/// The library's major version (`FM_VERSION_STRING` is the whole of it; at run time,
/// `fm_version` gives the loaded library's).
pub const FM_VERSION_MAJOR: u32 = 0;
/// The library's minor version.
pub const FM_VERSION_MINOR: u32 = 1;
/// The library's patch version.
pub const FM_VERSION_PATCH: u32 = 0;
/// The library's version, `"MAJOR.MINOR.PATCH"` (fm.h's `FM_VERSION_STRING`, which
/// cbindgen.toml writes since cbindgen writes no string constant).
pub const FM_VERSION_STRING: &str = "0.1.0";

/// The winner of a match, written by `fm_match_winner`.
#[repr(u32)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum fm_winner {
    /// Nobody: the game is not over, or it ended in a draw (see `fm_match_is_over`).
    FM_WINNER_NONE = 0,
    /// Side A won.
    FM_WINNER_A = 1,
    /// Side B won.
    FM_WINNER_B = 2,
}
