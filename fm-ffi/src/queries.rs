//! The queries beyond play, for any rules system through the match layer's
//! (`fm_core::any::DynMatch`): the JSON of a legal command or an action index and back,
//! the last command's events, why a command would be refused, where a unit can move,
//! the odds of a proposal, the picture, the learning observation, and a match drawn
//! from one side's knowledge. A system that does not answer a query gives
//! `FM_UNSUPPORTED`.

use crate::fast::legal_at;
use crate::fm_status::{self, *};
use crate::guard::{give_json, give_string, in_str, out_ptr, put, with_ref, Fail};
use crate::matches::{command_from_json, side_from, viewer_from};
use crate::{fm_match, fm_side, FM_SIDE_NONE};
use fm_core::{Side, Viewer};
use std::ffi::c_char;

/// A viewer argument that may also be `FM_SIDE_NONE` (the referee's, `None`).
fn viewer_or_referee(side: fm_side) -> Result<Option<Viewer>, Fail> {
    if side == FM_SIDE_NONE {
        return Ok(None);
    }
    viewer_from(side).map(Some).map_err(|_| {
        Fail::argument(format!(
            "side {side} is none of FM_SIDE_A (0), FM_SIDE_B (1), FM_SIDE_NONE (2), \
             FM_SIDE_SPECTATOR (3)"
        ))
    })
}

/// Parses a JSON argument strictly (a key given twice is refused).
fn json_arg(text: &str, what: &str) -> Result<serde_json::Value, Fail> {
    fm_core::json::parse_strict(text)
        .map_err(|e| Fail::new(FM_INVALID_JSON, "input", format!("{what}: {e}")))
}

/// The JSON of the i-th legal command (`0 <= i < fm_match_legal_count`): the command
/// `fm_match_apply_legal(m, i)` applies, in the form `fm_match_apply` takes.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_command_json_at(
    m: *const fm_match,
    i: usize,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            let index = legal_at(h, i)?;
            let cmd = h.game().command_at(index).ok_or_else(|| {
                Fail::new(
                    FM_INTERNAL_ERROR,
                    "internal",
                    format!("legal action index {index} stands for no command (a bug in fm)"),
                )
            })?;
            put(out, give_json(&cmd)?);
            Ok(())
        })
    }
}

/// The JSON of the command a stable action index stands for now (see
/// `fm_match_legal_indices`; it may be a command the rules would refuse).
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_ARGUMENT` (rule "input": the index stands for no command here),
/// `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_index_command(
    m: *const fm_match,
    index: usize,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            let cmd = h.game().command_at(index).ok_or_else(|| {
                Fail::new(
                    FM_INVALID_ARGUMENT,
                    "input",
                    format!("action index {index} stands for no command here"),
                )
            })?;
            put(out, give_json(&cmd)?);
            Ok(())
        })
    }
}

/// The stable action index of a command given as JSON (read as strictly as
/// `fm_match_apply` reads it). `*out_found` is false, and `*out_index` 0, for a command
/// of this system that has no index now (a unit or hex the scenario lacks).
///
/// Errors: `FM_INVALID_JSON` (not JSON, or not a command of this system),
/// `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
/// or a NUL-terminated string; `out_found` is NULL or valid for writing one `bool`;
/// `out_index` is NULL or valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_index_of(
    m: *const fm_match,
    command_json: *const c_char,
    out_found: *mut bool,
    out_index: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let text = in_str(command_json, "command_json")?;
            let found = out_ptr(out_found, "out_found")?;
            let index = out_ptr(out_index, "out_index")?;
            let cmd = command_from_json(text)?;
            let i = h
                .game()
                .try_index_of(&cmd)
                .map_err(Fail::from_match_error)?;
            put(found, i.is_some());
            put(index, i.unwrap_or(0));
            Ok(())
        })
    }
}

/// The events of the last command applied, as a JSON array (`[]` before the first):
/// as `side` may see them (`FM_SIDE_A`, `FM_SIDE_B`: hidden values redacted), as a
/// spectator may (`FM_SIDE_SPECTATOR`: both sides' hidden values redacted), or all of
/// them, the referee's (`FM_SIDE_NONE`). For a host that applied a command through the
/// fast path and now shows it to a player.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a spectator's,
/// for a system without spectator views), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_last_events(
    m: *const fm_match,
    side: fm_side,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_or_referee(side)?;
            let out = out_ptr(out_json, "out_json")?;
            let g = h.game();
            let events = match viewer {
                Some(Viewer::Spectator) => {
                    // Asked first, so that a system without spectator views is refused
                    // rather than answered with a list.
                    g.spectator_view_hash().map_err(Fail::from_match_error)?;
                    g.spectator_last_events_json()
                }
                v => g.last_events_json(v.and_then(Viewer::side)),
            };
            put(out, give_json(&events)?);
            Ok(())
        })
    }
}

/// Why the rules would refuse a command given as JSON now: `*out_json` is `null` if
/// the command is legal, else `{"rule": "5.2(d)", "message": "..."}` (the error
/// `fm_match_apply` would give). The match is unchanged.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_JSON` (not JSON, or not a command of this system: that is not
/// an explanation), `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
/// or a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_explain(
    m: *const fm_match,
    command_json: *const c_char,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let text = in_str(command_json, "command_json")?;
            let out = out_ptr(out_json, "out_json")?;
            let cmd = command_from_json(text)?;
            let why = h.game().explain(&cmd).map_err(Fail::from_match_error)?;
            put(out, give_json(&why)?);
            Ok(())
        })
    }
}

/// Where a unit can move now, as a JSON array (Fire & Movement: `[{"hex", "cost",
/// "path", "stop", "occupied"}]`, empty if it may not move now).
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_ILLEGAL_COMMAND` (rule "input": a unit the scenario does not have),
/// `FM_UNSUPPORTED` (Huzzah!: units move on an open table), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `unit` is NULL or a
/// NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_reachable(
    m: *const fm_match,
    unit: *const c_char,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let unit = in_str(unit, "unit")?;
            let out = out_ptr(out_json, "out_json")?;
            let r = h.game().reachable(unit).map_err(Fail::from_match_error)?;
            put(out, give_json(&r)?);
            Ok(())
        })
    }
}

/// The exact odds of a proposal as `side` knows them (from its knowledge alone:
/// nothing it may not know changes the answer), as JSON. Fire & Movement: an attack,
/// `{"hex": "0507", "units": ["a-1"], "attacker_markers": 1, "defender_markers": 0}`
/// (`units` empty or absent: a bombardment), giving every result's probability.
/// Huzzah!: `{"fire": {"unit", "target"}}` (with `"bases"` for some of the unit's
/// bases) or `{"morale": {"unit"}}`, giving exact fractions. docs/protocol.md has the
/// answers' forms.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_JSON` (not JSON, or not a proposal of this system: unknown or
/// missing fields included), `FM_ILLEGAL_COMMAND` (the rules cannot evaluate it: rule
/// "input" for an unknown unit or hex, else the rule it breaks), `FM_UNSUPPORTED`,
/// `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `proposal_json` is NULL
/// or a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_odds(
    m: *const fm_match,
    side: fm_side,
    proposal_json: *const c_char,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let side = side_from(side)?;
            let text = in_str(proposal_json, "proposal_json")?;
            let out = out_ptr(out_json, "out_json")?;
            let p = json_arg(text, "odds JSON")?;
            let o = h.game().odds(side, &p).map_err(Fail::from_match_error)?;
            put(out, give_json(&o)?);
            Ok(())
        })
    }
}

/// The picture of the game as SVG text: of `side`'s view (`FM_SIDE_A`, `FM_SIDE_B`:
/// nothing it may not know is drawn), of a spectator's (`FM_SIDE_SPECTATOR`: neither
/// side's secrets drawn) or of the whole state (`FM_SIDE_NONE`, the referee's).
/// `options_json` is a JSON object of the system's options (`"{}"`: the defaults).
/// Fire & Movement: `hex_size` (10 to 200), `hex_ids`, `panel`, `title`,
/// `highlight` (hex ids), `markers` (`{"hex", "kind", "label"}` objects). Huzzah!:
/// `radii`, `arc_of` (a unit id), `scale` (1 to 100), `labels`.
///
/// Ownership: `*out_svg` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_JSON` (not an object of this system's options, or a bad value:
/// the message names it), `FM_ILLEGAL_COMMAND` (rule "input": `arc_of` names an unknown
/// unit), `FM_UNSUPPORTED` (a system without a picture), `FM_INVALID_ARGUMENT` (another
/// side value), `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `options_json` is NULL
/// or a NUL-terminated string; `out_svg` is NULL or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_svg(
    m: *const fm_match,
    side: fm_side,
    options_json: *const c_char,
    out_svg: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_or_referee(side)?;
            let text = in_str(options_json, "options_json")?;
            let out = out_ptr(out_svg, "out_svg")?;
            let options = json_arg(text, "svg options")?;
            let g = h.game();
            let svg = match viewer {
                Some(Viewer::Spectator) => g.spectator_svg(&options),
                v => g.svg(v.and_then(Viewer::side), &options),
            }
            .map_err(Fail::from_match_error)?;
            put(out, give_string(svg)?);
            Ok(())
        })
    }
}

/// The layout of the learning observation, fixed for the scenario, as JSON:
/// `{"shape": [channels, rows, columns], "channels": [names], "features": [names]}`.
/// An observation (`fm_match_observation`) is the board planes (`shape`, row-major)
/// then the features: `fm_match_observation_size` floats.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_UNSUPPORTED` (a system without observations),
/// `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_observation_spec(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            let spec = h
                .game()
                .observation_spec()
                .map_err(Fail::from_match_error)?;
            put(out, give_json(&spec)?);
            Ok(())
        })
    }
}

/// The number of floats of an observation (`channels * rows * columns + features`,
/// see `fm_match_observation_spec`), fixed for the scenario.
///
/// Errors: `FM_UNSUPPORTED`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_size` is NULL or
/// valid for writing one `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_observation_size(
    m: *const fm_match,
    out_size: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_size, "out_size")?;
            let n = h
                .game()
                .observation_size()
                .map_err(Fail::from_match_error)?;
            put(out, n);
            Ok(())
        })
    }
}

/// Writes `side`'s observation for learning agents into the caller's float buffer:
/// the board planes then the features (`fm_match_observation_spec`), all in [0, 1],
/// computed from that side's view alone (so it holds nothing the side may not know).
/// No allocation is handed to the caller: a search or training loop reuses one buffer.
///
/// `*out_len` receives the observation's size. If it exceeds `capacity`, the call
/// returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_values` and still writes
/// `*out_len`; values past it in a larger buffer are left as they were.
///
/// Errors: `FM_BUFFER_TOO_SMALL`, `FM_UNSUPPORTED`, `FM_INVALID_ARGUMENT` (side not
/// `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_values` is NULL or
/// valid for writing `capacity` floats; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_observation(
    m: *const fm_match,
    side: fm_side,
    out_values: *mut f32,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let side = side_from(side)?;
            let len_out = out_ptr(out_len, "out_len")?;
            if capacity > 0 {
                out_ptr(out_values, "out_values")?;
            }
            let n = h
                .game()
                .observation_size()
                .map_err(Fail::from_match_error)?;
            put(len_out, n);
            if n > capacity {
                return Err(Fail::new(
                    FM_BUFFER_TOO_SMALL,
                    "argument",
                    format!("the observation has {n} values, buffer holds {capacity}"),
                ));
            }
            if n == 0 {
                return Ok(());
            }
            let dest = std::slice::from_raw_parts_mut(out_values, n);
            h.game()
                .observation(side, dest)
                .map_err(Fail::from_match_error)?;
            Ok(())
        })
    }
}

/// The number of floats of an information-state tensor with room for `max_commands`
/// commands: 9 + 4 × `max_commands` (`SIZE_MAX` if that overflows, so that no buffer
/// is large enough).
#[no_mangle]
pub extern "C" fn fm_information_state_tensor_size(max_commands: usize) -> usize {
    tensor_size(max_commands).unwrap_or(usize::MAX)
}

fn tensor_size(max_commands: usize) -> Option<usize> {
    max_commands
        .checked_mul(fm_core::infostate::INFO_TENSOR_SLOT)?
        .checked_add(fm_core::infostate::INFO_TENSOR_HEADER)
}

/// Writes `side`'s perfect-recall information state as a float tensor into the
/// caller's buffer (OpenSpiel's `InformationStateTensor`; the text form is
/// `fm_match_information_state`): `fm_information_state_tensor_size(max_commands)`
/// floats, room for a record of at most `max_commands` commands. The layout (which
/// side, a drawn view's hash, then a digest of the opening and of each command with its
/// events as the side saw them) is docs/protocol.md's "Information-state tensor"; two records give the
/// same tensor exactly when their texts are the same. A search keys its nodes by it; a
/// learner puts the side's observation beside it (the digests carry no meaning).
///
/// `*out_len` receives the tensor's size. If it exceeds `capacity`, the call returns
/// `FM_BUFFER_TOO_SMALL` and writes nothing to `out_values`. Values past it in a larger
/// buffer are left as they were.
///
/// Errors: `FM_BUFFER_TOO_SMALL`; `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
/// `FM_SIDE_B`; the side's record holds more than `max_commands` commands, rule
/// `"input"`; nothing is written); `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_values` is NULL or
/// valid for writing `capacity` floats; `out_len` is NULL or valid for writing one
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_information_state_tensor(
    m: *const fm_match,
    side: fm_side,
    max_commands: usize,
    out_values: *mut f32,
    capacity: usize,
    out_len: *mut usize,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let side = side_from(side)?;
            let len_out = out_ptr(out_len, "out_len")?;
            if capacity > 0 {
                out_ptr(out_values, "out_values")?;
            }
            let n = tensor_size(max_commands).ok_or_else(|| {
                Fail::argument(format!("max_commands {max_commands} is too large"))
            })?;
            put(len_out, n);
            if n > capacity {
                return Err(Fail::new(
                    FM_BUFFER_TOO_SMALL,
                    "argument",
                    format!("the tensor has {n} values, buffer holds {capacity}"),
                ));
            }
            // The engine checks the record's length before writing: a refused call
            // leaves the caller's buffer as it was.
            let dest = std::slice::from_raw_parts_mut(out_values, n);
            h.game()
                .information_state_tensor(side, dest)
                .map_err(|e| Fail::new(FM_INVALID_ARGUMENT, &e.rule, e.to_string()))
        })
    }
}

/// A new match drawn from `side`'s knowledge of this one: the same view for that side,
/// what it may not know (the other side's face-down markers, secret allotments) drawn
/// anew with `seed` with its true probabilities, and its own generator seeded with
/// `seed` (OpenSpiel's `resample_from_infostate`; what each iteration of a determinized
/// search plays on). The match is unchanged. The new match's save records its source
/// and side, and loads only with it. While a command waits for its draws (explicit
/// chance mode), the new match waits for the same draw: the command applied to the
/// drawn state with the dice thrown so far (and any pick from a list drawn anew).
///
/// Ownership: on success `*out_match` is a new handle owned by the caller; free it with
/// `fm_match_free`.
///
/// Errors: `FM_ILLEGAL_COMMAND` (rule "input": the match is already 8 determinizations
/// deep; the waiting command's rule if the drawn state refuses it, rule "chance" if it
/// draws differently there), `FM_INVALID_ARGUMENT` (side
/// not `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
/// `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_match` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_determinized(
    m: *const fm_match,
    side: fm_side,
    seed: u64,
    out_match: *mut *mut fm_match,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let side = side_from(side)?;
            let out = out_ptr(out_match, "out_match")?;
            let d = h
                .game()
                .determinized(side, seed)
                .map_err(|e| Fail::rule(&e))?;
            put(out, fm_match::into_handle(d));
            Ok(())
        })
    }
}

/// The name of the match's rules system (`"fm"` for Fire & Movement, `"huzzah"`), as
/// a scenario's or a save's `"system"` names it: what a host that serves several
/// systems dispatches on.
///
/// Ownership: `*out_name` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_name` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_system(
    m: *const fm_match,
    out_name: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_name, "out_name")?;
            put(out, give_string(h.game().system().to_string())?);
            Ok(())
        })
    }
}

/// The scenario's data, as JSON (the scenario file format of its rules system: what
/// `fm_match_from_json` reads). Public: both sides may see it.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_scenario(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            put(out, give_json(&h.game().scenario_json())?);
            Ok(())
        })
    }
}

/// The seed of the match's generator. Referee material: with the commands it gives
/// every die roll.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_seed` is NULL or
/// valid for writing one `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn fm_match_seed(m: *const fm_match, out_seed: *mut u64) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_seed, "out_seed")?;
            put(out, h.game().seed());
            Ok(())
        })
    }
}

/// How and why the game ended, as JSON: `null` while it goes on, else
/// `{"winner": "a", "reason": "..."}` (`"winner": null` for a draw; the reason in
/// words, such as which victory condition was met).
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_outcome(
    m: *const fm_match,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let out = out_ptr(out_json, "out_json")?;
            let v = h
                .game()
                .outcome()
                .map(|(winner, reason)| serde_json::json!({"winner": winner, "reason": reason}));
            put(out, give_json(&v)?);
            Ok(())
        })
    }
}

/// The log from command `from` on (`from` past the end gives `[]`), as a JSON array:
/// with `FM_SIDE_NONE` the referee's (each command with its events, unredacted, and the
/// state hash after it), with `FM_SIDE_A` or `FM_SIDE_B` as that side may know it (the
/// events redacted for it and its view hash after each command), with
/// `FM_SIDE_SPECTATOR` as a spectator may (both sides' secrets redacted, the
/// spectator's view hash). Read it in pieces (`from` = the count already read,
/// `fm_match_command_count`) to get only the new commands.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a
/// spectator's, for a system without spectator views), `FM_NULL_ARGUMENT`,
/// `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_log(
    m: *const fm_match,
    side: fm_side,
    from: usize,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_or_referee(side)?;
            let out = out_ptr(out_json, "out_json")?;
            let g = h.game();
            let log = match viewer {
                None => g.log_json(from),
                Some(Viewer::Spectator) => {
                    g.spectator_log_json(from).map_err(Fail::from_match_error)?
                }
                Some(Viewer::A) => g.side_log_json(Side::A, from),
                Some(Viewer::B) => g.side_log_json(Side::B, from),
            };
            put(out, give_json(&log)?);
            Ok(())
        })
    }
}

/// The events in words, one line each as the `play` example prints them:
/// `{"opening": [lines], "commands": [[lines], ...]}`, the opening's lines and each
/// command's from command `from` on (`from` past the end gives no commands), as the
/// viewer may know them: the referee's with `FM_SIDE_NONE` (every value), a side's
/// (`FM_SIDE_A`, `FM_SIDE_B`) or a spectator's (`FM_SIDE_SPECTATOR`) from the events
/// redacted for it, a hidden value reading `?`. The words `serve`'s `log` gives with
/// `"words": true`, and Python's `Match.log_words`; a system without words gives
/// empty lists.
///
/// Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
///
/// Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a
/// spectator's, for a system without spectator views),
/// `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
///
/// # Safety
/// `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
/// valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn fm_match_log_words(
    m: *const fm_match,
    side: fm_side,
    from: usize,
    out_json: *mut *mut c_char,
) -> fm_status {
    // SAFETY: forwarded contract.
    unsafe {
        with_ref(m, |h| {
            let viewer = viewer_or_referee(side)?;
            let out = out_ptr(out_json, "out_json")?;
            let w = h
                .game()
                .log_words(viewer, from)
                .map_err(Fail::from_match_error)?;
            let json = serde_json::json!({"opening": w.opening, "commands": w.commands});
            put(out, give_json(&json)?);
            Ok(())
        })
    }
}
