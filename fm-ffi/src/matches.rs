//! Creating, copying and freeing matches, and the JSON interface: commands in, events,
//! pending decisions, legal commands, state, views and saves out. The JSON forms are
//! those of fm-core (`docs/protocol.md`).

use crate::fm_status::{self, *};
use crate::guard::{give_json, give_string, in_str, out_ptr, put, with_mut, with_ref, Fail};
use crate::{fm_match, fm_side, FM_SIDE_A, FM_SIDE_B, FM_SIDE_SPECTATOR};
use fm_core::any::{self, DynMatch};
use fm_core::{Side, Viewer};
use std::ffi::c_char;

/// The text of a scenario error: `path: message`, or the message alone when the
/// error has no JSON path.
pub(crate) fn scenario_error_text(e: &fm_core::ScenarioError) -> String {
    if e.path.is_empty() {
        e.message.clone()
    } else {
        e.to_string()
    }
}

/// A match of scenario JSON (the scenario file format of its rules system, which its
/// `"system"` names; Fire & Movement when absent), telling malformed JSON (a duplicate
/// key included) from an invalid scenario; data that claims a built-in scenario's id
/// must be that scenario.
pub(crate) fn match_from_json(json: &str, seed: u64) -> Result<Box<dyn DynMatch>, Fail> {
    let value = fm_core::json::parse_strict(json)
        .map_err(|e| Fail::new(FM_INVALID_JSON, "scenario", format!("scenario JSON: {e}")))?;
    any::new_match_value(value, seed).map_err(Fail::from_match_error)
}

/// A match of a built-in scenario of any registered rules system.
pub(crate) fn builtin_match(name: &str, seed: u64) -> Result<Box<dyn DynMatch>, Fail> {
    let names = any::builtin_scenarios();
    if !names.contains(&name) {
        return Err(Fail::new(
            FM_UNKNOWN_SCENARIO,
            "scenario",
            format!("unknown scenario '{name}' (built in: {})", names.join(", ")),
        ));
    }
    any::new_match(name, seed).map_err(Fail::from_match_error)
}

/// Parses a command strictly (a key given twice is refused); the rules system's own
/// shape is checked when it is applied.
pub(crate) fn command_from_json(json: &str) -> Result<serde_json::Value, Fail> {
    fm_core::json::parse_strict(json)
        .map_err(|e| Fail::new(FM_INVALID_JSON, "input", format!("command JSON: {e}")))
}

pub(crate) fn side_from(side: fm_side) -> Result<Side, Fail> {
    match side {
        FM_SIDE_A => Ok(Side::A),
        FM_SIDE_B => Ok(Side::B),
        other => Err(Fail::argument(format!(
            "side {other} is neither FM_SIDE_A (0) nor FM_SIDE_B (1)"
        ))),
    }
}

/// A viewer argument: a side's player (`FM_SIDE_A`, `FM_SIDE_B`) or a spectator
/// (`FM_SIDE_SPECTATOR`).
pub(crate) fn viewer_from(side: fm_side) -> Result<Viewer, Fail> {
    match side {
        FM_SIDE_A => Ok(Viewer::A),
        FM_SIDE_B => Ok(Viewer::B),
        FM_SIDE_SPECTATOR => Ok(Viewer::Spectator),
        other => Err(Fail::argument(format!(
            "side {other} is none of FM_SIDE_A (0), FM_SIDE_B (1), FM_SIDE_SPECTATOR (3)"
        ))),
    }
}

/// Starts a match of a built-in scenario (see `fm_scenario_names`) with a seed. The
/// seed fixes every die roll and marker draw: the same seed and commands give the
/// same game on every platform.
///
/// Ownership: `scenario` is borrowed for the call. On success `*out_match` is a new
/// handle owned by the caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_UNKNOWN_SCENARIO`.
///
/// # Safety
/// `scenario` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
/// writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_new(
    scenario: *const c_char,
    seed: u64,
    out_match: *mut *mut fm_match,
) -> fm_status {
    crate::guard::run(|| {
        // SAFETY: forwarded contract.
        let name = unsafe { in_str(scenario, "scenario")? };
        let out = out_ptr(out_match, "out_match")?;
        let h = fm_match::into_handle(builtin_match(name, seed)?);
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, h) };
        Ok(())
    })
}

/// `fm_match_new` with the chance mode set from the start: `explicit` false is
/// `fm_match_new`; true makes every draw a chance node (`fm_match_chance_outcomes`,
/// `fm_match_chance_node_json`) from the opening on, so Huzzah!'s roll-off and
/// placement rolls are chance nodes too and the match may start waiting for a chance
/// outcome (`fm_match_apply_chance`) before any command.
///
/// Ownership: `scenario` is borrowed for the call. On success `*out_match` is a new
/// handle owned by the caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_UNKNOWN_SCENARIO`.
///
/// # Safety
/// `scenario` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
/// writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_new_with_chance(
    scenario: *const c_char,
    seed: u64,
    explicit: bool,
    out_match: *mut *mut fm_match,
) -> fm_status {
    crate::guard::run(|| {
        // SAFETY: forwarded contract.
        let name = unsafe { in_str(scenario, "scenario")? };
        let out = out_ptr(out_match, "out_match")?;
        let mut m = builtin_match(name, seed)?;
        if explicit {
            m = m.new_with_chance(fm_core::ChanceMode::Explicit);
        }
        let h = fm_match::into_handle(m);
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, h) };
        Ok(())
    })
}

/// Starts a match of a scenario given as JSON (the scenario file format of fm-core)
/// with a seed.
///
/// Ownership: `scenario_json` is borrowed for the call. On success `*out_match` is a
/// new handle owned by the caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not JSON, or a
/// key given twice), `FM_INVALID_SCENARIO` (JSON, but not a valid scenario: the
/// message names the JSON path of the first problem; also a scenario that claims a
/// built-in scenario's id but differs from it: a modified scenario needs its own id).
///
/// # Safety
/// `scenario_json` is NULL or a NUL-terminated string; `out_match` is NULL or valid
/// for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_from_json(
    scenario_json: *const c_char,
    seed: u64,
    out_match: *mut *mut fm_match,
) -> fm_status {
    crate::guard::run(|| {
        // SAFETY: forwarded contract.
        let json = unsafe { in_str(scenario_json, "scenario_json")? };
        let out = out_ptr(out_match, "out_match")?;
        let h = fm_match::into_handle(match_from_json(json, seed)?);
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, h) };
        Ok(())
    })
}

/// Loads a match saved with `fm_match_save`, replaying every command and checking
/// each recorded event and state hash. The save must be what `fm_match_save` writes
/// (save format 6, or an older one from 2 to 5; no unknown or duplicate key, at most
/// 4 MiB and 50,000 commands: docs/protocol.md, "Save files").
///
/// Ownership: `save_json` is borrowed for the call. On success `*out_match` is a new
/// handle owned by the caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not a save
/// file of this format, or too large; the message names the JSON path),
/// `FM_INVALID_SCENARIO` (its scenario is invalid, or claims a built-in id with other
/// data), `FM_INVALID_SAVE` (the seed does not match its check, or the replay
/// diverges from the record; the message names the first such command).
///
/// # Safety
/// `save_json` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
/// writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_load(
    save_json: *const c_char,
    out_match: *mut *mut fm_match,
) -> fm_status {
    crate::guard::run(|| {
        // SAFETY: forwarded contract.
        let json = unsafe { in_str(save_json, "save_json")? };
        let out = out_ptr(out_match, "out_match")?;
        let m = any::load_match(json).map_err(Fail::from_match_error)?;
        let h = fm_match::into_handle(m);
        // SAFETY: checked non-null; valid by contract.
        unsafe { put(out, h) };
        Ok(())
    })
}

/// Copies a match: scenario (shared, immutable), state, random generator and log. The
/// copy continues exactly as the original would; the two are independent handles
/// (and may be used from different threads).
///
/// Ownership: `m` is borrowed. On success `*out_match` is a new handle owned by the
/// caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_match` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_clone(
    m: *const fm_match,
    out_match: *mut *mut fm_match,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_match, "out_match")?;
            let c = fm_match::into_handle(h.game().clone_box());
            put(out, c);
            Ok(())
        })
    }
}

/// Copies a match as `fm_match_clone` does, but with the copy's random generator
/// re-seeded with `seed`: the copy rolls its own dice from now on (a search gives each
/// simulated future its own this way; a plain clone rolls the real future's dice). The
/// copy records the re-seeding, so its save replays it.
///
/// Ownership: `m` is borrowed. On success `*out_match` is a new handle owned by the
/// caller; free it with `fm_match_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_match` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_clone_with_seed(
    m: *const fm_match,
    seed: u64,
    out_match: *mut *mut fm_match,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_match, "out_match")?;
            let c = fm_match::into_handle(h.game().clone_with_seed(seed));
            put(out, c);
            Ok(())
        })
    }
}

/// Re-seeds the match's random generator with `seed`: the dice from now on are those
/// of a generator seeded with it. The match records it (its save replays it; undoing
/// the commands before it takes it back).
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn fm_match_reseed(m: *mut fm_match, seed: u64) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            h.game_mut().reseed(seed);
            Ok(())
        })
    }
}

/// The state of the match's random generator, as 64 lowercase hex digits (its four
/// 64-bit words). Referee material: it gives every future roll.
///
/// Ownership: `*out_state` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_state` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_rng_state(
    m: *const fm_match,
    out_state: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_state, "out_state")?;
            put(out, give_string(h.game().rng_state().to_string())?);
            Ok(())
        })
    }
}

/// Sets the match's random generator to a state `fm_match_rng_state` gave (64
/// lowercase hex digits, not all zero). The match records it as `fm_match_reseed` does.
/// On error the match is unchanged.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_ARGUMENT` (not a generator
/// state), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `state` is NULL or a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn fm_match_set_rng_state(
    m: *mut fm_match,
    state: *const c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let text = in_str(state, "state")?;
            let st: fm_core::RngState = text
                .parse()
                .map_err(|e: fm_core::RngStateError| Fail::argument(e.to_string()))?;
            h.game_mut().set_rng_state(st);
            Ok(())
        })
    }
}

/// Sets how the match resolves die rolls and random draws: `explicit` false draws
/// them from its seeded generator (the default); true makes each draw a chance node
/// (`fm_match_chance_outcomes`) that `fm_match_apply_chance` resolves. A save records
/// the mode and every outcome chosen.
///
/// Errors: `FM_ILLEGAL_COMMAND` (rule "chance") while a chance outcome is pending,
/// `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread.
#[no_mangle]
pub unsafe extern "C" fn fm_match_set_chance_mode(m: *mut fm_match, explicit: bool) -> fm_status {
    let mode = if explicit {
        fm_core::ChanceMode::Explicit
    } else {
        fm_core::ChanceMode::Sampled
    };
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            h.game_mut()
                .set_chance_mode(mode)
                .map_err(|e| Fail::rule(&e))
        })
    }
}

/// The number of outcomes of the draw a command waits for (explicit chance mode):
/// outcomes `0..n`, each of probability `1/n`; `*out_outcomes` is 0 when no draw is
/// pending (then the legal commands are the player's).
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_outcomes` is NULL or valid for writing one
/// `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_chance_outcomes(
    m: *const fm_match,
    out_outcomes: *mut u32,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_outcomes, "out_outcomes")?;
            put(out, h.game().chance_node().map_or(0, |n| n.outcomes));
            Ok(())
        })
    }
}

/// The draw a command (or the opening) waits for, as JSON: `{"outcomes": n, "roll":
/// {"roll": "fire", "dice": "2d6", "die": 1, "unit": …, "target": …}}`, the number of
/// outcomes and what the draw is for; `null` when no draw is pending. Outcome `k` of a
/// die is the face `k + 1`; a `"2d6"` roll is two draws, die 1 then die 2; a `"draw"`
/// picks the `k`-th of `from` (docs/protocol.md, "Chance").
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_chance_node_json(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().chance_node())?);
            Ok(())
        })
    }
}

/// Resolves the pending draw with `outcome` (below `fm_match_chance_outcomes`) and
/// returns, as a JSON array, the command's events once its last draw is resolved
/// (`[]` before). On any error the match is unchanged.
///
/// Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_ILLEGAL_COMMAND` (rule "chance": no draw pending; rule "input": an
/// outcome out of range), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
/// or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply_chance(
    m: *mut fm_match,
    outcome: u32,
    out_events_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let out = out_ptr(out_events_json, "out_events_json")?;
            let before = h.game().clone_box();
            let events = h
                .game_mut()
                .apply_chance(outcome)
                .map_err(|e| Fail::rule(&e))?;
            match give_json(&events) {
                Ok(s) => put(out, s),
                Err(f) => {
                    // No partial success: back to before the outcome.
                    h.set_game(before);
                    return Err(f);
                }
            }
            Ok(())
        })
    }
}

/// Frees a match handle. NULL is a no-op; a poisoned handle is freed too.
///
/// Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
/// `m` is not a live handle (freed already, or not from fm); nothing is freed then.
///
/// # Safety
/// `m` is NULL or a handle returned by this library, not freed before; it must not be
/// used afterwards.
#[no_mangle]
pub unsafe extern "C" fn fm_match_free(m: *mut fm_match) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe { crate::guard::free_handle(m) }
}

/// Applies a command given as JSON (`{"type":"move","unit":"blue-1","path":["0203"]}`,
/// see docs/protocol.md) for the side whose decision is pending, and returns the
/// events it caused as a JSON array. On any error the match is unchanged.
///
/// Ownership: `command_json` is borrowed for the call. On success `*out_events_json`
/// is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not JSON, or not
/// a command), `FM_ILLEGAL_COMMAND` (refused by the rules: `fm_last_error_rule` names
/// the rule), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
/// or a NUL-terminated string; `out_events_json` is NULL or valid for writing one
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_apply(
    m: *mut fm_match,
    command_json: *const c_char,
    out_events_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let json = in_str(command_json, "command_json")?;
            let out = out_ptr(out_events_json, "out_events_json")?;
            let cmd = command_from_json(json)?;
            let game = h.game_mut();
            let events = game.apply_json(&cmd).map_err(|e| match e {
                fm_core::MatchError::Input(m) => Fail::new(FM_INVALID_JSON, "input", m),
                other => Fail::from_match_error(other),
            })?;
            match give_json(&events) {
                Ok(s) => put(out, s),
                Err(f) => {
                    // No partial success: take the command back.
                    game.undo();
                    return Err(f);
                }
            }
            Ok(())
        })
    }
}

/// The decision the game waits for, as JSON: `{"kind":"phase","side":"a",
/// "phase":"movement"}`, `{"kind":"retreat",...}`, ... or `{"kind":"game_over",
/// "winner":"b"}`.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_pending(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().pending_json())?);
            Ok(())
        })
    }
}

/// The legal commands now, as a JSON array of commands (empty once the game is over).
/// Each can be passed to `fm_match_apply` as it is. (The order is fm-core's; the fast
/// path's `fm_match_apply_legal` numbers the legal commands differently.)
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_legal_commands(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().legal_json())?);
            Ok(())
        })
    }
}

/// The full state as JSON (every unit, every marker value, face-down ones included):
/// for a referee or a local hot-seat game. Players should see `fm_match_view`.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_state(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().state_json())?);
            Ok(())
        })
    }
}

/// The state as one side may see it, as JSON (Fire & Movement: the opponent's unused
/// and face-down support fire markers hidden, rule 7.2), or as a spectator may
/// (`FM_SIDE_SPECTATOR`: both sides' secrets hidden).
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A`,
/// `FM_SIDE_B` or `FM_SIDE_SPECTATOR`), `FM_UNSUPPORTED` (a spectator's, for a system
/// without spectator views), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_view(
    m: *const fm_match,
    side: fm_side,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_from(side)?;
            let out = out_ptr(out_json, "out_json")?;
            let g = h.game();
            let view = match viewer.side() {
                Some(s) => g.view_json(s),
                None => g.spectator_view_json().map_err(Fail::from_match_error)?,
            };
            put(out, give_json(&view)?);
            Ok(())
        })
    }
}

/// The text `f` makes of the match for one side, written to `*out_json`: the one body
/// of the per-side queries (`fm_match_export`, `fm_match_information_state`).
///
/// # Safety
/// As those functions.
unsafe fn side_text(
    m: *const fm_match,
    side: fm_side,
    out_json: *mut *mut c_char,
    f: impl FnOnce(&dyn DynMatch, Side) -> Result<*mut c_char, Fail>,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let side = side_from(side)?;
            let out = out_ptr(out_json, "out_json")?;
            put(out, f(h.game(), side)?);
            Ok(())
        })
    }
}

/// The match as one side may know it, as JSON (`fm_core::SideRecord`: the scenario,
/// every command with its events redacted for the side and the side's view hash after
/// it, and the side's current view). It holds no seed and no hidden value: the form to
/// give a player (play by e-mail), where `fm_match_save` is referee material.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
/// `FM_SIDE_B`), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_export(
    m: *const fm_match,
    side: fm_side,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe { side_text(m, side, out_json, |g, side| give_json(&g.export_json(side))) }
}

/// One side's perfect-recall information state, as compact JSON text: the opening's
/// events and every command with its events, as that side sees them, and nothing
/// else. Two histories the side cannot tell apart give the same text (what an
/// information-set search keys its nodes by). It grows with the log.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
/// `FM_SIDE_B`), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_information_state(
    m: *const fm_match,
    side: fm_side,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        side_text(m, side, out_json, |g, side| {
            give_string(g.information_state(side))
        })
    }
}

/// The built-in AI's choice for the pending decision: information-set Monte Carlo
/// tree search from the deciding side's knowledge alone (it never reads what that side
/// may not know), with its own dice, so the match is unchanged. `config_json` is a
/// JSON object of search settings, any of `iterations` (default 200), `seed`,
/// `exploration`, `rollout`, `widening`, `max_priors` (docs/protocol.md, "Search");
/// `"{}"` takes the defaults. `time_budget_ms` > 0 also stops the search after that
/// many milliseconds (then the result depends on the machine's speed; 0: iterations
/// alone, and the same config gives the same choice on every platform).
///
/// `*out_json` is `{"command": {...}, "index": n, "side": "a", "iterations": n,
/// "value": v, "candidates": [{"index", "visits", "value", "prior"}, ...]}` (at most
/// 16 candidates, most visited first); apply `command` with `fm_match_apply` or
/// `index` with `fm_match_apply_index`.
///
/// Ownership: `config_json` is borrowed; `*out_json` is owned by the caller; free it
/// with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (config not such an
/// object), `FM_INVALID_ARGUMENT` (a setting out of range: the message names it),
/// `FM_ILLEGAL_COMMAND` (no decision to search: the game is over, or a chance outcome
/// is pending; rule `"search"`), `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `config_json` is NULL or
/// a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_best_command(
    m: *const fm_match,
    config_json: *const c_char,
    time_budget_ms: u64,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let text = in_str(config_json, "config_json")?;
            let out = out_ptr(out_json, "out_json")?;
            let cfg = fm_core::search::SearchConfig::from_json(text).map_err(search_fail)?;
            let began = std::time::Instant::now();
            let budget = std::time::Duration::from_millis(time_budget_ms);
            let mut stop = || time_budget_ms > 0 && began.elapsed() >= budget;
            let r = h.game().think(&cfg, &mut stop, 16).map_err(search_fail)?;
            put(out, give_json(&r)?);
            Ok(())
        })
    }
}

/// The status of a search that could not run.
pub(crate) fn search_fail(e: fm_core::search::SearchError) -> Fail {
    use fm_core::search::SearchError as E;
    match e {
        E::Json(_) => Fail::new(FM_INVALID_JSON, "input", e.to_string()),
        E::Config { .. } => Fail::argument(e.to_string()),
        E::NoDecision | E::ChancePending => Fail::new(FM_ILLEGAL_COMMAND, "search", e.to_string()),
    }
}

/// The events that opened the game (turn start, marker allotment, first phase), as a
/// JSON array.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_opening_events(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().opening_events_json())?);
            Ok(())
        })
    }
}

/// Saves the match as JSON: the scenario, the seed and the log of every command with
/// its events and state hash. `fm_match_load` restores it.
///
/// Referee material: the seed gives every future roll and the events every hidden
/// value. Give a player `fm_match_export` instead.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_save(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_string(h.game().save())?);
            Ok(())
        })
    }
}

/// Takes back the last command. `*out_undone` is false (and nothing changes) when no
/// command has been applied yet.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_undone` is NULL or
/// valid for writing one `bool`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_undo(m: *mut fm_match, out_undone: *mut bool) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_mut(m, |h| {
            let out = out_ptr(out_undone, "out_undone")?;
            let undone = if h.game().log_len() == 0 {
                false
            } else {
                h.game_mut().undo()
            };
            put(out, undone);
            Ok(())
        })
    }
}
