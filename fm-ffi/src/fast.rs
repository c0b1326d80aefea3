//! The fast path for search and self-play loops: no JSON, no allocation handed to the
//! caller. Legal commands are numbered by fm-core's stable action encoding
//! (`fm_core::legal_indices`): the i-th legal command is the i-th smallest legal
//! action index.

use crate::fm_status::{self, *};
use crate::guard::{give_json, out_ptr, put, with_mut, with_ref, Fail, Handle};
use crate::matches::viewer_from;
use crate::{fm_match, fm_result, fm_side, fm_winner, FM_SIDE_A, FM_SIDE_B, FM_SIDE_NONE};
use fm_core::Side;
use std::ffi::c_char;

/// The number of legal commands now (0 once the game is over), numbered
/// `0..count` for `fm_match_apply_legal`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_count` is NULL or
/// valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_legal_count(
    m: *const fm_match,
    out_count: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_count, "out_count")?;
            put(out, h.with_legal(|v| v.len()));
            Ok(())
        })
    }
}

/// The stable action index of the i-th legal command, or `FM_INDEX_OUT_OF_RANGE`.
pub(crate) fn legal_at(h: &Handle, i: usize) -> Result<usize, Fail> {
    h.with_legal(|v| v.get(i).copied()).ok_or_else(|| {
        let n = h.with_legal(|v| v.len());
        Fail::new(
            FM_INDEX_OUT_OF_RANGE,
            "argument",
            format!("legal command {i} requested, but there are {n}"),
        )
    })
}

/// Applies the command of a stable action index and writes its events (the referee's,
/// as a JSON array; `[]` while the command waits for a chance outcome) to `out`; on any
/// failure the match is as before.
///
/// # Safety
/// `out` came from `out_ptr` and is valid for writing one pointer.
unsafe fn apply_with_events(
    h: &mut Handle,
    index: usize,
    out: *mut *mut c_char,
) -> Result<(), Fail> {
    let before = h.game().log_len();
    let game = h.game_mut();
    game.apply_index(index).map_err(|e| Fail::rule(&e))?;
    let events = if game.log_len() > before {
        game.last_events_json(None)
    } else {
        serde_json::Value::Array(Vec::new())
    };
    match give_json(&events) {
        // SAFETY: by the caller's contract.
        Ok(p) => unsafe { put(out, p) },
        Err(f) => {
            // No partial success: take the command back (or the command that waits for
            // a chance outcome: undo takes that back too).
            game.undo();
            return Err(f);
        }
    }
    Ok(())
}

/// Applies the i-th legal command (`0 <= i < fm_match_legal_count`): the command
/// whose stable action index is the i-th smallest legal one (a move takes the
/// cheapest path to its hex). The events are logged but not returned: see
/// `fm_match_apply_legal_events` for the variant that returns them, and
/// `fm_match_last_events` to read them afterwards.
///
/// Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`, including any `i` once the game is
/// over), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_legal(m: *mut fm_match, i: usize) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let idx = legal_at(h, i)?;
            h.game_mut().apply_index(idx).map_err(|e| Fail::rule(&e))?;
            Ok(())
        })
    }
}

/// `fm_match_apply_legal`, also returning the command's events as a JSON array (the
/// referee's, unredacted, as `fm_match_apply` returns them; `[]` while the command
/// waits for a chance outcome in explicit chance mode): what a host needs to animate
/// an AI's move in one call. On any error the match is unchanged.
///
/// Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
/// or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_legal_events(
    m: *mut fm_match,
    i: usize,
    out_events_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let out = out_ptr(out_events_json, "out_events_json")?;
            let idx = legal_at(h, i)?;
            apply_with_events(h, idx, out)
        })
    }
}

/// The stable action indices of the legal commands, ascending (fm-core's encoding:
/// fixed for a scenario, `0 <= index < fm_match_action_space_size`; for search and
/// reinforcement learning). `out_indices[i]` is the command `fm_match_apply_legal(m, i)`
/// applies.
///
/// `*out_len` receives the number of legal commands. If it exceeds `capacity`, the
/// call returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_indices` and still
/// writes `*out_len` (the one exception to "no output on failure"), so a caller can
/// size a buffer and call again. `out_indices` may be NULL when `capacity` is 0.
///
/// Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_indices` is NULL or
/// valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_legal_indices(
    m: *const fm_match,
    out_indices: *mut usize,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let len_out = out_ptr(out_len, "out_len")?;
            if capacity > 0 {
                out_ptr(out_indices, "out_indices")?;
            }
            h.with_legal(|v| {
                put(len_out, v.len());
                if v.len() > capacity {
                    return Err(Fail::new(
                        FM_BUFFER_TOO_SMALL,
                        "argument",
                        format!("{} legal indices, buffer holds {capacity}", v.len()),
                    ));
                }
                if !v.is_empty() {
                    std::ptr::copy_nonoverlapping(v.as_ptr(), out_indices, v.len());
                }
                Ok(())
            })
        })
    }
}

/// Applies the command with a stable action index (see `fm_match_legal_indices`).
///
/// Errors: `FM_ILLEGAL_COMMAND` (the index means nothing here, rule "input", or the
/// command is refused), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_index(m: *mut fm_match, index: usize) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            h.game_mut()
                .apply_index(index)
                .map_err(|e| Fail::rule(&e))?;
            Ok(())
        })
    }
}

/// `fm_match_apply_index`, also returning the command's events as a JSON array (the
/// referee's; `[]` while the command waits for a chance outcome). On any error the match
/// is unchanged.
///
/// Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_ILLEGAL_COMMAND` (the index means nothing here, rule "input", or the
/// command is refused), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
/// or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_index_events(
    m: *mut fm_match,
    index: usize,
    out_events_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let out = out_ptr(out_events_json, "out_events_json")?;
            apply_with_events(h, index, out)
        })
    }
}

/// The size of the scenario's action space: every stable action index is below it.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_size` is NULL or
/// valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_action_space_size(
    m: *const fm_match,
    out_size: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_size, "out_size")?;
            put(out, h.game().action_space_size());
            Ok(())
        })
    }
}

/// Whether the game is over.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_over` is NULL or
/// valid for writing one `bool`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_is_over(m: *const fm_match, out_over: *mut bool) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_over, "out_over")?;
            put(out, h.game().is_over());
            Ok(())
        })
    }
}

/// The winner: `FM_WINNER_A`, `FM_WINNER_B`, or `FM_WINNER_NONE` while the game goes on
/// and after a draw (tell them apart with `fm_match_result`, or `fm_match_is_over`).
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_winner` is NULL or
/// valid for writing one `fm_winner`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_winner(
    m: *const fm_match,
    out_winner: *mut fm_winner,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_winner, "out_winner")?;
            put(
                out,
                match h.game().outcome().and_then(|o| o.0) {
                    None => fm_winner::FM_WINNER_NONE,
                    Some(Side::A) => fm_winner::FM_WINNER_A,
                    Some(Side::B) => fm_winner::FM_WINNER_B,
                },
            );
            Ok(())
        })
    }
}

/// How the game stands: `FM_RESULT_ONGOING`, `FM_RESULT_A_WON`, `FM_RESULT_B_WON` or
/// `FM_RESULT_DRAW`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_result` is NULL or
/// valid for writing one `fm_result`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_result(
    m: *const fm_match,
    out_result: *mut fm_result,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_result, "out_result")?;
            put(
                out,
                match h.game().result() {
                    fm_core::MatchResult::Ongoing => fm_result::FM_RESULT_ONGOING,
                    fm_core::MatchResult::Won(Side::A) => fm_result::FM_RESULT_A_WON,
                    fm_core::MatchResult::Won(Side::B) => fm_result::FM_RESULT_B_WON,
                    fm_core::MatchResult::Draw => fm_result::FM_RESULT_DRAW,
                },
            );
            Ok(())
        })
    }
}

/// Whose decision it is: `FM_SIDE_A`, `FM_SIDE_B`, or `FM_SIDE_NONE` once the game is
/// over. (In explicit chance mode, while a draw waits, the side whose command waits.)
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_side` is NULL or
/// valid for writing one `fm_side`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_decider(m: *const fm_match, out_side: *mut fm_side) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_side, "out_side")?;
            put(
                out,
                match h.game().decider() {
                    Some(Side::A) => FM_SIDE_A,
                    Some(Side::B) => FM_SIDE_B,
                    None => FM_SIDE_NONE,
                },
            );
            Ok(())
        })
    }
}

/// The kind of the pending decision, the `"kind"` of `fm_match_pending`'s JSON
/// (`"phase"`, `"retreat"`, `"declare_fire"`, `"game_over"`, ...), copied into the
/// caller's buffer as a NUL-terminated string: no JSON, nothing to free. 32 bytes hold
/// every kind of the built-in systems.
///
/// `*out_len` receives the bytes the kind takes with its NUL. If that exceeds
/// `capacity`, the call returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_kind` and
/// still writes `*out_len`. `out_kind` may be NULL when `capacity` is 0.
///
/// Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_kind` is NULL or
/// valid for writing `capacity` bytes; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_decision_kind(
    m: *const fm_match,
    out_kind: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let len_out = out_ptr(out_len, "out_len")?;
            if capacity > 0 {
                out_ptr(out_kind, "out_kind")?;
            }
            let kind = h.game().pending_kind();
            let bytes = kind.as_bytes();
            if bytes.contains(&0) {
                return Err(Fail::new(
                    FM_INTERNAL_ERROR,
                    "internal",
                    "the decision's kind contains a NUL byte (a bug in fm)",
                ));
            }
            let needed = bytes.len() + 1;
            put(len_out, needed);
            if needed > capacity {
                return Err(Fail::new(
                    FM_BUFFER_TOO_SMALL,
                    "argument",
                    format!("the kind takes {needed} bytes with its NUL, buffer holds {capacity}"),
                ));
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), out_kind.cast::<u8>(), bytes.len());
            out_kind.add(bytes.len()).write(0);
            Ok(())
        })
    }
}

/// Plays the game to its end with uniformly random legal commands
/// (`fm_core::agents::random` driven by a xoshiro256++ generator seeded with `seed`),
/// and writes the number of commands applied (0 if it was already over). The same
/// match state and seed always give the same playout. To keep the position, playout a
/// `fm_match_clone`.
///
/// Errors: `FM_INTERNAL_ERROR` (the engine offered no legal command although the game
/// was not over: a bug; the commands applied so far stay applied), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_commands` is NULL or
/// valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_playout(
    m: *mut fm_match,
    seed: u64,
    out_commands: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let out = out_ptr(out_commands, "out_commands")?;
            let game = h.game_mut();
            let mut rng = fm_core::rng_from_seed(seed);
            let n = game.playout(&mut rng, usize::MAX);
            if !game.is_over() {
                return Err(Fail::new(
                    FM_INTERNAL_ERROR,
                    "internal",
                    "no legal command (or a legal one refused) although the game is not over",
                ));
            }
            put(out, n);
            Ok(())
        })
    }
}

/// The 64-bit hash of the state (`fm_core::State::hash`): identical on every platform
/// and build, for transposition tables and to check that two engines agree.
///
/// Referee material: it covers every hidden value (face-down markers, secret
/// allotments), so a player who sees it can test guesses of them. Show a player
/// `fm_match_view_hash` instead.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_hash` is NULL or
/// valid for writing one `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_state_hash(m: *const fm_match, out_hash: *mut u64) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_hash, "out_hash")?;
            put(out, h.game().state_hash());
            Ok(())
        })
    }
}

/// The number of commands applied so far (the length of the log).
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_count` is NULL or
/// valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_command_count(
    m: *const fm_match,
    out_count: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_count, "out_count")?;
            put(out, h.game().log_len());
            Ok(())
        })
    }
}

/// The 64-bit hash of one side's view (`fm_core::View::hash`): what that side may know,
/// hashed; the same for every state the side cannot tell apart. This is the hash to
/// show a player (`fm_match_state_hash` is the referee's); `FM_SIDE_SPECTATOR` gives a
/// spectator's, safe to show anyone.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A`,
/// `FM_SIDE_B` or `FM_SIDE_SPECTATOR`), `FM_UNSUPPORTED` (a spectator's, for a system
/// without spectator views), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_hash` is NULL or
/// valid for writing one `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_view_hash(
    m: *const fm_match,
    side: fm_side,
    out_hash: *mut u64,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_from(side)?;
            let out = out_ptr(out_hash, "out_hash")?;
            let g = h.game();
            let hash = match viewer.side() {
                Some(s) => g.view_hash(s),
                None => g.spectator_view_hash().map_err(Fail::from_match_error)?,
            };
            put(out, hash);
            Ok(())
        })
    }
}
