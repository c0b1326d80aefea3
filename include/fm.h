/*
 * fm.h — the C API of fm, a rules engine for the Fire & Movement wargame system.
 *
 * Link with -lfm: `scripts/install_ffi.sh PREFIX` installs libfm.so (its SONAME
 * libfm.so.0.MINOR before 1.0, libfm.so.MAJOR after), libfm.a, this header and the
 * pkg-config modules fm (the shared library, with an rpath) and fm-static (docs/c.md).
 * A static link of the build's own target/release/libfm.a also needs -lpthread -ldl -lm.
 *
 * CALLING CONVENTIONS (the contract every function follows)
 *
 *  1. Status. Every function returns an fm_status. FM_OK (0) is success; anything else
 *     is a failure, after which nothing was changed and no out-parameter was written
 *     (one documented exception: a function filling a caller's buffer,
 *     fm_match_legal_indices, the fm_match_factored_* ones, fm_match_observation and
 *     fm_match_decision_kind, writes the needed length on FM_BUFFER_TOO_SMALL).
 *     There is no partial success. A query the match's rules system does not answer
 *     gives FM_UNSUPPORTED.
 *
 *  2. Arguments. Inputs come first, out-parameters last. Every pointer argument is
 *     required: NULL gives FM_NULL_ARGUMENT (the free functions accept NULL as a no-op;
 *     an array given with length or capacity 0 may be NULL).
 *     Input strings are NUL-terminated UTF-8 (else FM_INVALID_UTF8), borrowed for the
 *     duration of the call only; JSON inputs that do not parse give FM_INVALID_JSON. JSON
 *     is read strictly: a key given twice in any object is an error (never "the last one
 *     wins"), nesting stops at 128 levels and a parsed document at about 64 MB. A save
 *     (fm_match_load) must be what fm_match_save writes (format 6; formats 2 to 5 are
 *     read too), no unknown field, at most 4 MiB and 50,000 commands (docs/protocol.md,
 *     "Save files").
 *
 *  3. Ownership. A `char *` written to an out-parameter is a new string owned by the
 *     caller: free it with fm_string_free (never free()). A `const char *` written to an
 *     out-parameter is static: never free it. An fm_match handle written to an
 *     out-parameter is owned by the caller: free it with fm_match_free. Freeing NULL is a
 *     no-op. Each function's comment repeats who owns what.
 *
 *  4. Errors. A failing call records a message in thread-local storage: read it with
 *     fm_last_error_message (the RuleError text for a refused command, naming the rule:
 *     "5.2(d): 1107 holds an enemy unit") and fm_last_error_rule ("5.2(d)"). Both return
 *     copies the caller frees with fm_string_free. Successful calls leave the last error
 *     unchanged, so read it right after the failing call.
 *
 *  5. Panics. Every entry point catches Rust panics: none crosses into C. A panic gives
 *     FM_PANIC; if it happened while a handle was in use, that handle is poisoned and
 *     every later call on it returns FM_POISONED, except fm_match_free, which frees it.
 *     (The library must be built with panic=unwind, Cargo's default.) A caught panic
 *     prints nothing: its message and location go into the last error. To do so the
 *     library installs, on its first call, a Rust panic hook that is silent only for
 *     panics inside its own calls on that thread and hands any other panic to the hook
 *     installed before it (this matters only to a Rust host sharing the library's
 *     standard library; a hook the host installs later replaces it, and caught panics
 *     then print again). A failed or panicking call also drops the handle's cache of
 *     legal commands, so no later call can answer from a stale one.
 *
 *  6. Freed handles. A debug build of the library tracks its live handles and strings:
 *     passing one that was freed (or never came from fm) gives FM_INVALID_HANDLE, with no
 *     memory touched. A release build checks a magic number only: there, using a freed
 *     handle is undefined behaviour, caught on a best-effort basis. fm_has_handle_checks
 *     tells which build is loaded.
 *
 *  7. Threads. The library has no global mutable state apart from the per-thread last
 *     error, the panic hook of rule 5 (and, in debug builds, a locked registry of live
 *     pointers). Distinct handles are independent and may be used from different threads
 *     at the same time. A single handle must not be used by two threads at once, not even
 *     for const queries (they fill a cache): share one only behind a lock (fm.hpp's
 *     fm::Match has one: every method of it locks). fm_match_clone gives a thread its own. If a call finds the handle in use by another thread anyway,
 *     it does nothing and returns FM_BUSY (fm_match_free too: the handle is not freed);
 *     the handle stays usable. FM_BUSY reports a bug in the caller's locking, it is not a
 *     way to synchronise: using a handle after (or while) another thread frees it is
 *     still undefined behaviour.
 *
 *  8. Determinism. A match is its scenario, its seed and its commands: the same three give
 *     the same events and state hashes on every platform and through every interface (this
 *     C API, the Rust crate fm-core and the `serve` JSON-lines protocol).
 *
 *  9. Versions. FM_VERSION_MAJOR, _MINOR, _PATCH and FM_VERSION_STRING are the header's
 *     version; fm_version gives the loaded library's. scripts/install_ffi.sh PREFIX
 *     installs the library, the headers, fm.pc (pkg-config) and the CMake package fm
 *     (find_package(fm CONFIG), targets fm::fm and fm::fm_static).
 *
 * THE API (each function's comment below gives its errors and who owns what)
 *
 *  Matches      fm_match_new, fm_match_from_json, fm_match_load, fm_match_clone,
 *               fm_match_clone_with_seed, fm_match_determinized (drawn from one side's
 *               knowledge), fm_match_free
 *  Generator    fm_match_reseed, fm_match_rng_state, fm_match_set_rng_state
 *  Chance       fm_match_set_chance_mode, fm_match_chance_outcomes, fm_match_apply_chance
 *  JSON play    fm_match_apply (a command in, its events out), fm_match_pending,
 *               fm_match_legal_commands, fm_match_state, fm_match_opening_events,
 *               fm_match_save, fm_match_undo, fm_match_best_command (the built-in AI)
 *  Match data   fm_match_system, fm_match_scenario, fm_match_seed, fm_match_outcome (the
 *               winner and why), fm_match_log (the referee's, or a side's, from a command)
 *  Per side     fm_match_view, fm_match_view_hash, fm_match_export,
 *               fm_match_information_state, fm_match_last_events
 *  Fast path    fm_match_legal_count, fm_match_apply_legal, fm_match_apply_legal_events,
 *               fm_match_legal_indices, fm_match_apply_index, fm_match_apply_index_events,
 *               fm_match_action_space_size, fm_match_is_over, fm_match_winner,
 *               fm_match_result (ongoing, A or B won, draw), fm_match_decider,
 *               fm_match_decision_kind (into a caller's buffer), fm_match_playout,
 *               fm_match_state_hash, fm_match_command_count
 *  Factored     fm_match_factored_sizes, fm_match_factored_options, fm_match_factored_mask,
 *               fm_match_factored_complete, fm_match_factored_to_flat,
 *               fm_match_flat_to_factored, fm_match_apply_factored
 *  Encoding     fm_match_command_json_at (the i-th legal command's JSON),
 *               fm_match_index_command (an action index's), fm_match_index_of (JSON to
 *               index)
 *  Queries      fm_match_explain (why a command would be refused), fm_match_reachable,
 *               fm_match_odds (as one side knows them), fm_match_svg (a side's view or
 *               the referee's), fm_match_observation_spec, fm_match_observation_size,
 *               fm_match_observation (into a caller's float buffer)
 *  Library      fm_string_free, fm_last_error_message, fm_last_error_rule, fm_status_name,
 *               fm_scenario_names, fm_version, fm_has_handle_checks
 *
 * JSON forms of commands, events, pending decisions, states, views and saves are those
 * of fm-core, documented in docs/protocol.md.
 */

#ifndef FM_H
#define FM_H

/* Generated by cbindgen from fm-ffi (see fm-ffi/cbindgen.toml). Do not edit by hand. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * The library's version, "MAJOR.MINOR.PATCH": the version of this header (compare it
 * with fm_version to detect a different library at run time).
 */
#define FM_VERSION_STRING "0.1.0"

/**
 * The library's major version (`FM_VERSION_STRING` is the whole of it; at run time,
 * `fm_version` gives the loaded library's).
 */
#define FM_VERSION_MAJOR 0

/**
 * The library's minor version.
 */
#define FM_VERSION_MINOR 1

/**
 * The library's patch version.
 */
#define FM_VERSION_PATCH 0

/**
 * The longest request line the server reads, in bytes, not counting its line end:
 * 8 MiB. The longest legitimate request we know of is a `load` of the save of a whole
 * random game of Meuse Argonne (1,662 commands) sent as a string: about 620 KB (510 KB
 * as an object; the largest `new`, Meuse Argonne's scenario as a pretty-printed
 * string, is under 400 KB). The limit is thirteen times that, and twice fm-core's
 * `MAX_SAVE_BYTES`, so every save the engine loads fits in one line, as an object or
 * as a string. A longer line is read to its end in bounded chunks and discarded,
 * never held whole ([`read_line`]), and gets one error reply.
 */
#define MAX_LINE_BYTES (8 << 20)

/**
 * The result of every function. `FM_OK` is 0; any other value is a failure, after
 * which nothing was changed and no out-parameter was written, and
 * `fm_last_error_message` describes what went wrong.
 */
enum fm_status
#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L
  : uint32_t
#endif // defined(__cplusplus) || __STDC_VERSION__ >= 202311L
 {
    /**
     * Success.
     */
    FM_OK = 0,
    /**
     * A required pointer argument (a handle, an input string or an out-parameter) was
     * NULL.
     */
    FM_NULL_ARGUMENT = 1,
    /**
     * An input string is not valid UTF-8.
     */
    FM_INVALID_UTF8 = 2,
    /**
     * An input string is not valid JSON, or not JSON of the expected shape (a command
     * of an unknown type, a save file without a log or of another format, a key given
     * twice in any object, ...).
     */
    FM_INVALID_JSON = 3,
    /**
     * No built-in scenario has that name (see `fm_scenario_names`).
     */
    FM_UNKNOWN_SCENARIO = 4,
    /**
     * The scenario JSON is well formed but not a valid scenario; the message names
     * the JSON path of the first problem.
     */
    FM_INVALID_SCENARIO = 5,
    /**
     * The rules refuse the command; the match is unchanged. `fm_last_error_rule`
     * gives the rule it breaks ("5.2(d)"; "4.1": out of sequence or game over;
     * "input": unknown unit, hex off the map, action index meaning nothing here).
     */
    FM_ILLEGAL_COMMAND = 6,
    /**
     * The save file parsed, but replaying it does not give the recorded events (a
     * different engine version, or an edited file; also a seed that does not match
     * its `seed_check`); the message names the command.
     */
    FM_INVALID_SAVE = 7,
    /**
     * An index is past the end (`fm_match_apply_legal` with `i >= count`).
     */
    FM_INDEX_OUT_OF_RANGE = 8,
    /**
     * An argument has a value outside its domain (a side other than `FM_SIDE_A` or
     * `FM_SIDE_B`, an unknown status code).
     */
    FM_INVALID_ARGUMENT = 9,
    /**
     * A caller-supplied buffer is too small; the required length was written.
     */
    FM_BUFFER_TOO_SMALL = 10,
    /**
     * The pointer is not a live handle (or string) of this library: freed already,
     * or never returned by it. Detected reliably only in debug builds of the library
     * (see `fm_has_handle_checks`); in release builds a freed handle is undefined
     * behaviour, caught on a best-effort basis only.
     */
    FM_INVALID_HANDLE = 11,
    /**
     * An earlier call on this handle panicked; the handle refuses further use. Free
     * it (`fm_match_free` works on a poisoned handle).
     */
    FM_POISONED = 12,
    /**
     * A bug in the library: a Rust panic was caught at the boundary. If a handle was
     * involved it is now poisoned.
     */
    FM_PANIC = 13,
    /**
     * The engine reached a state it should not (no legal command although the game
     * is not over). A bug in the engine or the scenario; please report it.
     */
    FM_INTERNAL_ERROR = 14,
    /**
     * The handle is in use by another thread at this moment: the call did nothing (the
     * handle is fine). One handle must be used by one thread at a time; share it behind
     * a lock, or give each thread its own with `fm_match_clone`. Detection is a
     * courtesy, not a synchronisation: do not retry in a loop instead of locking.
     */
    FM_BUSY = 15,
    /**
     * The match's rules system does not answer this query (`fm_match_reachable` of a
     * Huzzah! match, a picture of a system without one); `fm_last_error_message` names
     * the query and the system, and the rule is "unsupported".
     */
    FM_UNSUPPORTED = 16,
};
#ifndef __cplusplus
#if __STDC_VERSION__ >= 202311L
typedef enum fm_status fm_status;
#else
typedef uint32_t fm_status;
#endif // __STDC_VERSION__ >= 202311L
#endif // __cplusplus

/**
 * The winner of a match, written by `fm_match_winner`.
 */
enum fm_winner
#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L
  : uint32_t
#endif // defined(__cplusplus) || __STDC_VERSION__ >= 202311L
 {
    /**
     * Nobody: the game is not over, or it ended in a draw (see `fm_match_is_over`).
     */
    FM_WINNER_NONE = 0,
    /**
     * Side A won.
     */
    FM_WINNER_A = 1,
    /**
     * Side B won.
     */
    FM_WINNER_B = 2,
};
#ifndef __cplusplus
#if __STDC_VERSION__ >= 202311L
typedef enum fm_winner fm_winner;
#else
typedef uint32_t fm_winner;
#endif // __STDC_VERSION__ >= 202311L
#endif // __cplusplus

/**
 * How a match stands, written by `fm_match_result`: going on, won by a side, or drawn
 * (`fm_match_winner` says `FM_WINNER_NONE` both while it goes on and after a draw).
 */
enum fm_result
#if defined(__cplusplus) || __STDC_VERSION__ >= 202311L
  : uint32_t
#endif // defined(__cplusplus) || __STDC_VERSION__ >= 202311L
 {
    /**
     * The game goes on.
     */
    FM_RESULT_ONGOING = 0,
    /**
     * Side A won.
     */
    FM_RESULT_A_WON = 1,
    /**
     * Side B won.
     */
    FM_RESULT_B_WON = 2,
    /**
     * The game is over without a winner.
     */
    FM_RESULT_DRAW = 3,
};
#ifndef __cplusplus
#if __STDC_VERSION__ >= 202311L
typedef enum fm_result fm_result;
#else
typedef uint32_t fm_result;
#endif // __STDC_VERSION__ >= 202311L
#endif // __cplusplus

/**
 * A running match: a scenario, its state, a seeded random generator (xoshiro256++)
 * and the log of commands and events. Opaque; create it with `fm_match_new`,
 * `fm_match_from_json`, `fm_match_load` or `fm_match_clone`, and free it with
 * `fm_match_free`.
 *
 * Thread safety: distinct handles are fully independent and may be used from
 * different threads at the same time. One handle must not be used by two threads at
 * once (not even for the `const` queries, which fill an internal cache); share it
 * only behind a lock. A call that finds the handle in use by another thread returns
 * `FM_BUSY` without touching it.
 */
typedef struct fm_match fm_match;

/**
 * A side of the game: `FM_SIDE_A` (listed first in the scenario) or `FM_SIDE_B`.
 */
typedef uint32_t fm_side;

/**
 * Side A, the side listed first in the scenario.
 */
#define FM_SIDE_A 0

/**
 * Side B, the side listed second in the scenario.
 */
#define FM_SIDE_B 1

/**
 * No side: as an argument (`fm_match_svg`, `fm_match_last_events`, `fm_match_log`,
 * `fm_match_log_words`), the whole state or the unredacted events, the referee's; as
 * a result (`fm_match_decider`), nobody is to decide (the game is over). Functions
 * that need a player's side refuse it (`FM_INVALID_ARGUMENT`).
 */
#define FM_SIDE_NONE 2

/**
 * A spectator, as an argument where a viewer is asked for (`fm_match_view`,
 * `fm_match_view_hash`, `fm_match_last_events`, `fm_match_log`, `fm_match_log_words`,
 * `fm_match_svg`): what both sides may know, every secret of either side hidden (the
 * view `serve` gives its spectators). A system without spectator views gives
 * `FM_UNSUPPORTED`; functions that need a player's side refuse it
 * (`FM_INVALID_ARGUMENT`).
 */
#define FM_SIDE_SPECTATOR 3

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * Starts a match of a built-in scenario (see `fm_scenario_names`) with a seed. The
 * seed fixes every die roll and marker draw: the same seed and commands give the
 * same game on every platform.
 *
 * Ownership: `scenario` is borrowed for the call. On success `*out_match` is a new
 * handle owned by the caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_UNKNOWN_SCENARIO`.
 *
 * # Safety
 * `scenario` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
 * writing one pointer.
 */
fm_status fm_match_new(const char *scenario,
                       uint64_t seed,
                       fm_match **out_match);

/**
 * `fm_match_new` with the chance mode set from the start: `explicit` false is
 * `fm_match_new`; true makes every draw a chance node (`fm_match_chance_outcomes`,
 * `fm_match_chance_node_json`) from the opening on, so Huzzah!'s roll-off and
 * placement rolls are chance nodes too and the match may start waiting for a chance
 * outcome (`fm_match_apply_chance`) before any command.
 *
 * Ownership: `scenario` is borrowed for the call. On success `*out_match` is a new
 * handle owned by the caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_UNKNOWN_SCENARIO`.
 *
 * # Safety
 * `scenario` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
 * writing one pointer.
 */
fm_status fm_match_new_with_chance(const char *scenario,
                                   uint64_t seed,
                                   bool explicit_,
                                   fm_match **out_match);

/**
 * Starts a match of a scenario given as JSON (the scenario file format of fm-core)
 * with a seed.
 *
 * Ownership: `scenario_json` is borrowed for the call. On success `*out_match` is a
 * new handle owned by the caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not JSON, or a
 * key given twice), `FM_INVALID_SCENARIO` (JSON, but not a valid scenario: the
 * message names the JSON path of the first problem; also a scenario that claims a
 * built-in scenario's id but differs from it: a modified scenario needs its own id).
 *
 * # Safety
 * `scenario_json` is NULL or a NUL-terminated string; `out_match` is NULL or valid
 * for writing one pointer.
 */
fm_status fm_match_from_json(const char *scenario_json,
                             uint64_t seed,
                             fm_match **out_match);

/**
 * Loads a match saved with `fm_match_save`, replaying every command and checking
 * each recorded event and state hash. The save must be what `fm_match_save` writes
 * (save format 6, or an older one from 2 to 5; no unknown or duplicate key, at most
 * 4 MiB and 50,000 commands: docs/protocol.md, "Save files").
 *
 * Ownership: `save_json` is borrowed for the call. On success `*out_match` is a new
 * handle owned by the caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not a save
 * file of this format, or too large; the message names the JSON path),
 * `FM_INVALID_SCENARIO` (its scenario is invalid, or claims a built-in id with other
 * data), `FM_INVALID_SAVE` (the seed does not match its check, or the replay
 * diverges from the record; the message names the first such command).
 *
 * # Safety
 * `save_json` is NULL or a NUL-terminated string; `out_match` is NULL or valid for
 * writing one pointer.
 */
fm_status fm_match_load(const char *save_json,
                        fm_match **out_match);

/**
 * Copies a match: scenario (shared, immutable), state, random generator and log. The
 * copy continues exactly as the original would; the two are independent handles
 * (and may be used from different threads).
 *
 * Ownership: `m` is borrowed. On success `*out_match` is a new handle owned by the
 * caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_match` is NULL or valid for writing one pointer.
 */
fm_status fm_match_clone(const fm_match *m,
                         fm_match **out_match);

/**
 * Copies a match as `fm_match_clone` does, but with the copy's random generator
 * re-seeded with `seed`: the copy rolls its own dice from now on (a search gives each
 * simulated future its own this way; a plain clone rolls the real future's dice). The
 * copy records the re-seeding, so its save replays it.
 *
 * Ownership: `m` is borrowed. On success `*out_match` is a new handle owned by the
 * caller; free it with `fm_match_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_match` is NULL or valid for writing one pointer.
 */
fm_status fm_match_clone_with_seed(const fm_match *m,
                                   uint64_t seed,
                                   fm_match **out_match);

/**
 * Re-seeds the match's random generator with `seed`: the dice from now on are those
 * of a generator seeded with it. The match records it (its save replays it; undoing
 * the commands before it takes it back).
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread.
 */
fm_status fm_match_reseed(fm_match *m,
                          uint64_t seed);

/**
 * The state of the match's random generator, as 64 lowercase hex digits (its four
 * 64-bit words). Referee material: it gives every future roll.
 *
 * Ownership: `*out_state` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_state` is NULL or valid for writing one pointer.
 */
fm_status fm_match_rng_state(const fm_match *m,
                             char **out_state);

/**
 * Sets the match's random generator to a state `fm_match_rng_state` gave (64
 * lowercase hex digits, not all zero). The match records it as `fm_match_reseed` does.
 * On error the match is unchanged.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_ARGUMENT` (not a generator
 * state), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `state` is NULL or a
 * NUL-terminated string.
 */
fm_status fm_match_set_rng_state(fm_match *m,
                                 const char *state);

/**
 * Sets how the match resolves die rolls and random draws: `explicit` false draws
 * them from its seeded generator (the default); true makes each draw a chance node
 * (`fm_match_chance_outcomes`) that `fm_match_apply_chance` resolves. A save records
 * the mode and every outcome chosen.
 *
 * Errors: `FM_ILLEGAL_COMMAND` (rule "chance") while a chance outcome is pending,
 * `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread.
 */
fm_status fm_match_set_chance_mode(fm_match *m,
                                   bool explicit_);

/**
 * The number of outcomes of the draw a command waits for (explicit chance mode):
 * outcomes `0..n`, each of probability `1/n`; `*out_outcomes` is 0 when no draw is
 * pending (then the legal commands are the player's).
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_outcomes` is NULL or valid for writing one
 * `uint32_t`.
 */
fm_status fm_match_chance_outcomes(const fm_match *m,
                                   uint32_t *out_outcomes);

/**
 * The draw a command (or the opening) waits for, as JSON: `{"outcomes": n, "roll":
 * {"roll": "fire", "dice": "2d6", "die": 1, "unit": …, "target": …}}`, the number of
 * outcomes and what the draw is for; `null` when no draw is pending. Outcome `k` of a
 * die is the face `k + 1`; a `"2d6"` roll is two draws, die 1 then die 2; a `"draw"`
 * picks the `k`-th of `from` (docs/protocol.md, "Chance").
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_chance_node_json(const fm_match *m,
                                    char **out_json);

/**
 * Resolves the pending draw with `outcome` (below `fm_match_chance_outcomes`) and
 * returns, as a JSON array, the command's events once its last draw is resolved
 * (`[]` before). On any error the match is unchanged.
 *
 * Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_ILLEGAL_COMMAND` (rule "chance": no draw pending; rule "input": an
 * outcome out of range), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
 * or valid for writing one pointer.
 */
fm_status fm_match_apply_chance(fm_match *m,
                                uint32_t outcome,
                                char **out_events_json);

/**
 * Frees a match handle. NULL is a no-op; a poisoned handle is freed too.
 *
 * Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
 * `m` is not a live handle (freed already, or not from fm); nothing is freed then.
 *
 * # Safety
 * `m` is NULL or a handle returned by this library, not freed before; it must not be
 * used afterwards.
 */
fm_status fm_match_free(fm_match *m);

/**
 * Applies a command given as JSON (`{"type":"move","unit":"blue-1","path":["0203"]}`,
 * see docs/protocol.md) for the side whose decision is pending, and returns the
 * events it caused as a JSON array. On any error the match is unchanged.
 *
 * Ownership: `command_json` is borrowed for the call. On success `*out_events_json`
 * is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (not JSON, or not
 * a command), `FM_ILLEGAL_COMMAND` (refused by the rules: `fm_last_error_rule` names
 * the rule), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
 * or a NUL-terminated string; `out_events_json` is NULL or valid for writing one
 * pointer.
 */
fm_status fm_match_apply(fm_match *m,
                         const char *command_json,
                         char **out_events_json);

/**
 * The decision the game waits for, as JSON: `{"kind":"phase","side":"a",
 * "phase":"movement"}`, `{"kind":"retreat",...}`, ... or `{"kind":"game_over",
 * "winner":"b"}`.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_pending(const fm_match *m,
                           char **out_json);

/**
 * The legal commands now, as a JSON array of commands (empty once the game is over).
 * Each can be passed to `fm_match_apply` as it is. (The order is fm-core's; the fast
 * path's `fm_match_apply_legal` numbers the legal commands differently.)
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_legal_commands(const fm_match *m,
                                  char **out_json);

/**
 * The full state as JSON (every unit, every marker value, face-down ones included):
 * for a referee or a local hot-seat game. Players should see `fm_match_view`.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_state(const fm_match *m,
                         char **out_json);

/**
 * The state as one side may see it, as JSON (Fire & Movement: the opponent's unused
 * and face-down support fire markers hidden, rule 7.2), or as a spectator may
 * (`FM_SIDE_SPECTATOR`: both sides' secrets hidden).
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A`,
 * `FM_SIDE_B` or `FM_SIDE_SPECTATOR`), `FM_UNSUPPORTED` (a spectator's, for a system
 * without spectator views), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_view(const fm_match *m,
                        fm_side side,
                        char **out_json);

/**
 * The match as one side may know it, as JSON (`fm_core::SideRecord`: the scenario,
 * every command with its events redacted for the side and the side's view hash after
 * it, and the side's current view). It holds no seed and no hidden value: the form to
 * give a player (play by e-mail), where `fm_match_save` is referee material.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
 * `FM_SIDE_B`), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_export(const fm_match *m,
                          fm_side side,
                          char **out_json);

/**
 * One side's perfect-recall information state, as compact JSON text: the opening's
 * events and every command with its events, as that side sees them, and nothing
 * else. Two histories the side cannot tell apart give the same text (what an
 * information-set search keys its nodes by). It grows with the log.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
 * `FM_SIDE_B`), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_information_state(const fm_match *m,
                                     fm_side side,
                                     char **out_json);

/**
 * The built-in AI's choice for the pending decision: information-set Monte Carlo
 * tree search from the deciding side's knowledge alone (it never reads what that side
 * may not know), with its own dice, so the match is unchanged. `config_json` is a
 * JSON object of search settings, any of `iterations` (default 200), `seed`,
 * `exploration`, `rollout`, `widening`, `max_priors` (docs/protocol.md, "Search");
 * `"{}"` takes the defaults. `time_budget_ms` > 0 also stops the search after that
 * many milliseconds (then the result depends on the machine's speed; 0: iterations
 * alone, and the same config gives the same choice on every platform).
 *
 * `*out_json` is `{"command": {...}, "index": n, "side": "a", "iterations": n,
 * "value": v, "candidates": [{"index", "visits", "value", "prior"}, ...]}` (at most
 * 16 candidates, most visited first); apply `command` with `fm_match_apply` or
 * `index` with `fm_match_apply_index`.
 *
 * Ownership: `config_json` is borrowed; `*out_json` is owned by the caller; free it
 * with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_JSON` (config not such an
 * object), `FM_INVALID_ARGUMENT` (a setting out of range: the message names it),
 * `FM_ILLEGAL_COMMAND` (no decision to search: the game is over, or a chance outcome
 * is pending; rule `"search"`), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `config_json` is NULL or
 * a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_best_command(const fm_match *m,
                                const char *config_json,
                                uint64_t time_budget_ms,
                                char **out_json);

/**
 * The events that opened the game (turn start, marker allotment, first phase), as a
 * JSON array.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_opening_events(const fm_match *m,
                                  char **out_json);

/**
 * Saves the match as JSON: the scenario, the seed and the log of every command with
 * its events and state hash. `fm_match_load` restores it.
 *
 * Referee material: the seed gives every future roll and the events every hidden
 * value. Give a player `fm_match_export` instead.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_save(const fm_match *m,
                        char **out_json);

/**
 * Takes back the last command. `*out_undone` is false (and nothing changes) when no
 * command has been applied yet.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_undone` is NULL or
 * valid for writing one `bool`.
 */
fm_status fm_match_undo(fm_match *m,
                        bool *out_undone);

/**
 * The number of legal commands now (0 once the game is over), numbered
 * `0..count` for `fm_match_apply_legal`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_count` is NULL or
 * valid for writing one `size_t`.
 */
fm_status fm_match_legal_count(const fm_match *m,
                               size_t *out_count);

/**
 * Applies the i-th legal command (`0 <= i < fm_match_legal_count`): the command
 * whose stable action index is the i-th smallest legal one (a move takes the
 * cheapest path to its hex). The events are logged but not returned: see
 * `fm_match_apply_legal_events` for the variant that returns them, and
 * `fm_match_last_events` to read them afterwards.
 *
 * Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`, including any `i` once the game is
 * over), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread.
 */
fm_status fm_match_apply_legal(fm_match *m,
                               size_t i);

/**
 * `fm_match_apply_legal`, also returning the command's events as a JSON array (the
 * referee's, unredacted, as `fm_match_apply` returns them; `[]` while the command
 * waits for a chance outcome in explicit chance mode): what a host needs to animate
 * an AI's move in one call. On any error the match is unchanged.
 *
 * Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
 * or valid for writing one pointer.
 */
fm_status fm_match_apply_legal_events(fm_match *m,
                                      size_t i,
                                      char **out_events_json);

/**
 * The stable action indices of the legal commands, ascending (fm-core's encoding:
 * fixed for a scenario, `0 <= index < fm_match_action_space_size`; for search and
 * reinforcement learning). `out_indices[i]` is the command `fm_match_apply_legal(m, i)`
 * applies.
 *
 * `*out_len` receives the number of legal commands. If it exceeds `capacity`, the
 * call returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_indices` and still
 * writes `*out_len` (the one exception to "no output on failure"), so a caller can
 * size a buffer and call again. `out_indices` may be NULL when `capacity` is 0.
 *
 * Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_indices` is NULL or
 * valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_legal_indices(const fm_match *m,
                                 size_t *out_indices,
                                 size_t capacity,
                                 size_t *out_len);

/**
 * Applies the command with a stable action index (see `fm_match_legal_indices`).
 *
 * Errors: `FM_ILLEGAL_COMMAND` (the index means nothing here, rule "input", or the
 * command is refused), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread.
 */
fm_status fm_match_apply_index(fm_match *m,
                               size_t index);

/**
 * `fm_match_apply_index`, also returning the command's events as a JSON array (the
 * referee's; `[]` while the command waits for a chance outcome). On any error the match
 * is unchanged.
 *
 * Ownership: `*out_events_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_ILLEGAL_COMMAND` (the index means nothing here, rule "input", or the
 * command is refused), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_events_json` is NULL
 * or valid for writing one pointer.
 */
fm_status fm_match_apply_index_events(fm_match *m,
                                      size_t index,
                                      char **out_events_json);

/**
 * The size of the scenario's action space: every stable action index is below it.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_size` is NULL or
 * valid for writing one `size_t`.
 */
fm_status fm_match_action_space_size(const fm_match *m,
                                     size_t *out_size);

/**
 * Whether the game is over.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_over` is NULL or
 * valid for writing one `bool`.
 */
fm_status fm_match_is_over(const fm_match *m,
                           bool *out_over);

/**
 * The winner: `FM_WINNER_A`, `FM_WINNER_B`, or `FM_WINNER_NONE` while the game goes on
 * and after a draw (tell them apart with `fm_match_result`, or `fm_match_is_over`).
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_winner` is NULL or
 * valid for writing one `fm_winner`.
 */
fm_status fm_match_winner(const fm_match *m,
                          fm_winner *out_winner);

/**
 * How the game stands: `FM_RESULT_ONGOING`, `FM_RESULT_A_WON`, `FM_RESULT_B_WON` or
 * `FM_RESULT_DRAW`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_result` is NULL or
 * valid for writing one `fm_result`.
 */
fm_status fm_match_result(const fm_match *m,
                          fm_result *out_result);

/**
 * Whose decision it is: `FM_SIDE_A`, `FM_SIDE_B`, or `FM_SIDE_NONE` once the game is
 * over. (In explicit chance mode, while a draw waits, the side whose command waits.)
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_side` is NULL or
 * valid for writing one `fm_side`.
 */
fm_status fm_match_decider(const fm_match *m,
                           fm_side *out_side);

/**
 * The kind of the pending decision, the `"kind"` of `fm_match_pending`'s JSON
 * (`"phase"`, `"retreat"`, `"declare_fire"`, `"game_over"`, ...), copied into the
 * caller's buffer as a NUL-terminated string: no JSON, nothing to free. 32 bytes hold
 * every kind of the built-in systems.
 *
 * `*out_len` receives the bytes the kind takes with its NUL. If that exceeds
 * `capacity`, the call returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_kind` and
 * still writes `*out_len`. `out_kind` may be NULL when `capacity` is 0.
 *
 * Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_kind` is NULL or
 * valid for writing `capacity` bytes; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_decision_kind(const fm_match *m,
                                 char *out_kind,
                                 size_t capacity,
                                 size_t *out_len);

/**
 * Plays the game to its end with uniformly random legal commands
 * (`fm_core::agents::random` driven by a xoshiro256++ generator seeded with `seed`),
 * and writes the number of commands applied (0 if it was already over). The same
 * match state and seed always give the same playout. To keep the position, playout a
 * `fm_match_clone`.
 *
 * Errors: `FM_INTERNAL_ERROR` (the engine offered no legal command although the game
 * was not over: a bug; the commands applied so far stay applied), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_commands` is NULL or
 * valid for writing one `size_t`.
 */
fm_status fm_match_playout(fm_match *m,
                           uint64_t seed,
                           size_t *out_commands);

/**
 * The 64-bit hash of the state (`fm_core::State::hash`): identical on every platform
 * and build, for transposition tables and to check that two engines agree.
 *
 * Referee material: it covers every hidden value (face-down markers, secret
 * allotments), so a player who sees it can test guesses of them. Show a player
 * `fm_match_view_hash` instead.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_hash` is NULL or
 * valid for writing one `uint64_t`.
 */
fm_status fm_match_state_hash(const fm_match *m,
                              uint64_t *out_hash);

/**
 * The number of commands applied so far (the length of the log).
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_count` is NULL or
 * valid for writing one `size_t`.
 */
fm_status fm_match_command_count(const fm_match *m,
                                 size_t *out_count);

/**
 * The 64-bit hash of one side's view (`fm_core::View::hash`): what that side may know,
 * hashed; the same for every state the side cannot tell apart. This is the hash to
 * show a player (`fm_match_state_hash` is the referee's); `FM_SIDE_SPECTATOR` gives a
 * spectator's, safe to show anyone.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A`,
 * `FM_SIDE_B` or `FM_SIDE_SPECTATOR`), `FM_UNSUPPORTED` (a spectator's, for a system
 * without spectator views), `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_hash` is NULL or
 * valid for writing one `uint64_t`.
 */
fm_status fm_match_view_hash(const fm_match *m,
                             fm_side side,
                             uint64_t *out_hash);

/**
 * The number of values of each step of the factored action space, fixed for the
 * scenario (so a policy's heads have fixed sizes): `*out_len` steps, step `k` taking
 * values `0 <= v < out_sizes[k]`. Fire & Movement: 3 steps, `11 + 8U`, `max(H, U)`
 * and 64 for `U` units and `H` hexes; another system: 2 (docs/protocol.md).
 *
 * `*out_len` is always written; if it exceeds `capacity` the call returns
 * `FM_BUFFER_TOO_SMALL` and writes nothing else. `out_sizes` may be NULL when
 * `capacity` is 0.
 *
 * Errors: `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_sizes` is NULL or
 * valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_factored_sizes(const fm_match *m,
                                  size_t *out_sizes,
                                  size_t capacity,
                                  size_t *out_len);

/**
 * The options of step `prefix_len` after the prefix `prefix[0..prefix_len]` now,
 * ascending: exactly the values that continue it towards at least one legal command
 * (walking every option of every step reaches the legal action indices, each once).
 * The empty prefix (`prefix_len` 0, `prefix` may be NULL) gives the first step's
 * options, none once the game is over.
 *
 * `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
 * else is); a buffer of the step's size (`fm_match_factored_sizes`) is always enough.
 *
 * Errors: `FM_INVALID_ARGUMENT` (rule "input": a value that is no option of its step,
 * a complete sequence, a prefix no legal command starts with; the message names it),
 * `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `prefix` is NULL or valid
 * for reading `prefix_len` `size_t`s; `out_options` is NULL or valid for writing
 * `capacity` `size_t`s; `out_len` is NULL or valid for writing one `size_t`.
 */
fm_status fm_match_factored_options(const fm_match *m,
                                    const size_t *prefix,
                                    size_t prefix_len,
                                    size_t *out_options,
                                    size_t capacity,
                                    size_t *out_len);

/**
 * `fm_match_factored_options` as a mask: `*out_len` is the size of step `prefix_len`
 * and `out_mask[v]` is 1 for each option `v`, 0 for every other value.
 *
 * `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
 * else is).
 *
 * Errors: as `fm_match_factored_options`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `prefix` is NULL or valid
 * for reading `prefix_len` `size_t`s; `out_mask` is NULL or valid for writing
 * `capacity` bytes; `out_len` is NULL or valid for writing one `size_t`.
 */
fm_status fm_match_factored_mask(const fm_match *m,
                                 const size_t *prefix,
                                 size_t prefix_len,
                                 uint8_t *out_mask,
                                 size_t capacity,
                                 size_t *out_len);

/**
 * Whether `seq[0..len]` is a complete sequence (it stands for a command: convert it
 * with `fm_match_factored_to_flat`, apply it with `fm_match_apply_factored`) or a
 * proper prefix (its next step is `len`). A function of the scenario alone.
 *
 * Errors: `FM_INVALID_ARGUMENT` (a value that is no option of its step, a sequence
 * longer than its command), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
 * for reading `len` `size_t`s; `out_complete` is NULL or valid for writing one `bool`.
 */
fm_status fm_match_factored_complete(const fm_match *m,
                                     const size_t *seq,
                                     size_t len,
                                     bool *out_complete);

/**
 * The stable action index (`fm_match_apply_index`, `fm_match_legal_indices`) of a
 * complete factored sequence. A function of the scenario alone.
 *
 * Errors: `FM_INVALID_ARGUMENT` (a value that is no option of its step, a sequence
 * too short or too long), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
 * for reading `len` `size_t`s; `out_index` is NULL or valid for writing one `size_t`.
 */
fm_status fm_match_factored_to_flat(const fm_match *m,
                                    const size_t *seq,
                                    size_t len,
                                    size_t *out_index);

/**
 * The factored sequence of a stable action index (the inverse of
 * `fm_match_factored_to_flat`): `*out_len` values into `out_seq`. A function of the
 * scenario alone.
 *
 * `*out_len` is always written on success and on `FM_BUFFER_TOO_SMALL` (then nothing
 * else is); a buffer of as many values as there are steps is always enough.
 *
 * Errors: `FM_INVALID_ARGUMENT` (an index outside the action space or standing for no
 * command), `FM_BUFFER_TOO_SMALL`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_seq` is NULL or
 * valid for writing `capacity` `size_t`s; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_flat_to_factored(const fm_match *m,
                                    size_t index,
                                    size_t *out_seq,
                                    size_t capacity,
                                    size_t *out_len);

/**
 * Applies the command of a complete factored sequence (`fm_match_apply_index` of its
 * flat index). The events are logged but not returned (see `fm_match_save`).
 *
 * Errors: `FM_ILLEGAL_COMMAND` (rule "input": a malformed or incomplete sequence; or
 * the command is refused, with its rule), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `seq` is NULL or valid
 * for reading `len` `size_t`s.
 */
fm_status fm_match_apply_factored(fm_match *m,
                                  const size_t *seq,
                                  size_t len);

/**
 * The JSON of the i-th legal command (`0 <= i < fm_match_legal_count`): the command
 * `fm_match_apply_legal(m, i)` applies, in the form `fm_match_apply` takes.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INDEX_OUT_OF_RANGE` (`i >= count`), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_command_json_at(const fm_match *m,
                                   size_t i,
                                   char **out_json);

/**
 * The JSON of the command a stable action index stands for now (see
 * `fm_match_legal_indices`; it may be a command the rules would refuse).
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_ARGUMENT` (rule "input": the index stands for no command here),
 * `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_index_command(const fm_match *m,
                                 size_t index,
                                 char **out_json);

/**
 * The stable action index of a command given as JSON (read as strictly as
 * `fm_match_apply` reads it). `*out_found` is false, and `*out_index` 0, for a command
 * of this system that has no index now (a unit or hex the scenario lacks).
 *
 * Errors: `FM_INVALID_JSON` (not JSON, or not a command of this system),
 * `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
 * or a NUL-terminated string; `out_found` is NULL or valid for writing one `bool`;
 * `out_index` is NULL or valid for writing one `size_t`.
 */
fm_status fm_match_index_of(const fm_match *m,
                            const char *command_json,
                            bool *out_found,
                            size_t *out_index);

/**
 * The events of the last command applied, as a JSON array (`[]` before the first):
 * as `side` may see them (`FM_SIDE_A`, `FM_SIDE_B`: hidden values redacted), as a
 * spectator may (`FM_SIDE_SPECTATOR`: both sides' hidden values redacted), or all of
 * them, the referee's (`FM_SIDE_NONE`). For a host that applied a command through the
 * fast path and now shows it to a player.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a spectator's,
 * for a system without spectator views), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_last_events(const fm_match *m,
                               fm_side side,
                               char **out_json);

/**
 * Why the rules would refuse a command given as JSON now: `*out_json` is `null` if
 * the command is legal, else `{"rule": "5.2(d)", "message": "..."}` (the error
 * `fm_match_apply` would give). The match is unchanged.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_JSON` (not JSON, or not a command of this system: that is not
 * an explanation), `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `command_json` is NULL
 * or a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_explain(const fm_match *m,
                           const char *command_json,
                           char **out_json);

/**
 * Where a unit can move now, as a JSON array (Fire & Movement: `[{"hex", "cost",
 * "path", "stop", "occupied"}]`, empty if it may not move now).
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_ILLEGAL_COMMAND` (rule "input": a unit the scenario does not have),
 * `FM_UNSUPPORTED` (Huzzah!: units move on an open table), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `unit` is NULL or a
 * NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_reachable(const fm_match *m,
                             const char *unit,
                             char **out_json);

/**
 * The exact odds of a proposal as `side` knows them (from its knowledge alone:
 * nothing it may not know changes the answer), as JSON. Fire & Movement: an attack,
 * `{"hex": "0507", "units": ["a-1"], "attacker_markers": 1, "defender_markers": 0}`
 * (`units` empty or absent: a bombardment), giving every result's probability.
 * Huzzah!: `{"fire": {"unit", "target"}}` (with `"bases"` for some of the unit's
 * bases) or `{"morale": {"unit"}}`, giving exact fractions. docs/protocol.md has the
 * answers' forms.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_JSON` (not JSON, or not a proposal of this system: unknown or
 * missing fields included), `FM_ILLEGAL_COMMAND` (the rules cannot evaluate it: rule
 * "input" for an unknown unit or hex, else the rule it breaks), `FM_UNSUPPORTED`,
 * `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `proposal_json` is NULL
 * or a NUL-terminated string; `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_match_odds(const fm_match *m,
                        fm_side side,
                        const char *proposal_json,
                        char **out_json);

/**
 * The picture of the game as SVG text: of `side`'s view (`FM_SIDE_A`, `FM_SIDE_B`:
 * nothing it may not know is drawn), of a spectator's (`FM_SIDE_SPECTATOR`: neither
 * side's secrets drawn) or of the whole state (`FM_SIDE_NONE`, the referee's).
 * `options_json` is a JSON object of the system's options (`"{}"`: the defaults).
 * Fire & Movement: `hex_size` (10 to 200), `hex_ids`, `panel`, `title`,
 * `highlight` (hex ids), `markers` (`{"hex", "kind", "label"}` objects). Huzzah!:
 * `radii`, `arc_of` (a unit id), `scale` (1 to 100), `labels`.
 *
 * Ownership: `*out_svg` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_JSON` (not an object of this system's options, or a bad value:
 * the message names it), `FM_ILLEGAL_COMMAND` (rule "input": `arc_of` names an unknown
 * unit), `FM_UNSUPPORTED` (a system without a picture), `FM_INVALID_ARGUMENT` (another
 * side value), `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `options_json` is NULL
 * or a NUL-terminated string; `out_svg` is NULL or valid for writing one pointer.
 */
fm_status fm_match_svg(const fm_match *m,
                       fm_side side,
                       const char *options_json,
                       char **out_svg);

/**
 * The layout of the learning observation, fixed for the scenario, as JSON:
 * `{"shape": [channels, rows, columns], "channels": [names], "features": [names]}`.
 * An observation (`fm_match_observation`) is the board planes (`shape`, row-major)
 * then the features: `fm_match_observation_size` floats.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_UNSUPPORTED` (a system without observations),
 * `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_observation_spec(const fm_match *m,
                                    char **out_json);

/**
 * The number of floats of an observation (`channels * rows * columns + features`,
 * see `fm_match_observation_spec`), fixed for the scenario.
 *
 * Errors: `FM_UNSUPPORTED`, `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_size` is NULL or
 * valid for writing one `size_t`.
 */
fm_status fm_match_observation_size(const fm_match *m,
                                    size_t *out_size);

/**
 * Writes `side`'s observation for learning agents into the caller's float buffer:
 * the board planes then the features (`fm_match_observation_spec`), all in [0, 1],
 * computed from that side's view alone (so it holds nothing the side may not know).
 * No allocation is handed to the caller: a search or training loop reuses one buffer.
 *
 * `*out_len` receives the observation's size. If it exceeds `capacity`, the call
 * returns `FM_BUFFER_TOO_SMALL`, writes nothing to `out_values` and still writes
 * `*out_len`; values past it in a larger buffer are left as they were.
 *
 * Errors: `FM_BUFFER_TOO_SMALL`, `FM_UNSUPPORTED`, `FM_INVALID_ARGUMENT` (side not
 * `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_values` is NULL or
 * valid for writing `capacity` floats; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_observation(const fm_match *m,
                               fm_side side,
                               float *out_values,
                               size_t capacity,
                               size_t *out_len);

/**
 * The number of floats of an information-state tensor with room for `max_commands`
 * commands: 9 + 4 × `max_commands` (`SIZE_MAX` if that overflows, so that no buffer
 * is large enough).
 */
size_t fm_information_state_tensor_size(size_t max_commands);

/**
 * Writes `side`'s perfect-recall information state as a float tensor into the
 * caller's buffer (OpenSpiel's `InformationStateTensor`; the text form is
 * `fm_match_information_state`): `fm_information_state_tensor_size(max_commands)`
 * floats, room for a record of at most `max_commands` commands. The layout (which
 * side, a drawn view's hash, then a digest of the opening and of each command with its
 * events as the side saw them) is docs/protocol.md's "Information-state tensor"; two records give the
 * same tensor exactly when their texts are the same. A search keys its nodes by it; a
 * learner puts the side's observation beside it (the digests carry no meaning).
 *
 * `*out_len` receives the tensor's size. If it exceeds `capacity`, the call returns
 * `FM_BUFFER_TOO_SMALL` and writes nothing to `out_values`. Values past it in a larger
 * buffer are left as they were.
 *
 * Errors: `FM_BUFFER_TOO_SMALL`; `FM_INVALID_ARGUMENT` (side not `FM_SIDE_A` or
 * `FM_SIDE_B`; the side's record holds more than `max_commands` commands, rule
 * `"input"`; nothing is written); `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_values` is NULL or
 * valid for writing `capacity` floats; `out_len` is NULL or valid for writing one
 * `size_t`.
 */
fm_status fm_match_information_state_tensor(const fm_match *m,
                                            fm_side side,
                                            size_t max_commands,
                                            float *out_values,
                                            size_t capacity,
                                            size_t *out_len);

/**
 * A new match drawn from `side`'s knowledge of this one: the same view for that side,
 * what it may not know (the other side's face-down markers, secret allotments) drawn
 * anew with `seed` with its true probabilities, and its own generator seeded with
 * `seed` (OpenSpiel's `resample_from_infostate`; what each iteration of a determinized
 * search plays on). The match is unchanged. The new match's save records its source
 * and side, and loads only with it. While a command waits for its draws (explicit
 * chance mode), the new match waits for the same draw: the command applied to the
 * drawn state with the dice thrown so far (and any pick from a list drawn anew).
 *
 * Ownership: on success `*out_match` is a new handle owned by the caller; free it with
 * `fm_match_free`.
 *
 * Errors: `FM_ILLEGAL_COMMAND` (rule "input": the match is already 8 determinizations
 * deep; the waiting command's rule if the drawn state refuses it, rule "chance" if it
 * draws differently there), `FM_INVALID_ARGUMENT` (side
 * not `FM_SIDE_A` or `FM_SIDE_B`), `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`,
 * `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_match` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_determinized(const fm_match *m,
                                fm_side side,
                                uint64_t seed,
                                fm_match **out_match);

/**
 * The name of the match's rules system (`"fm"` for Fire & Movement, `"huzzah"`), as
 * a scenario's or a save's `"system"` names it: what a host that serves several
 * systems dispatches on.
 *
 * Ownership: `*out_name` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_name` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_system(const fm_match *m,
                          char **out_name);

/**
 * The scenario's data, as JSON (the scenario file format of its rules system: what
 * `fm_match_from_json` reads). Public: both sides may see it.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_scenario(const fm_match *m,
                            char **out_json);

/**
 * The seed of the match's generator. Referee material: with the commands it gives
 * every die roll.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_seed` is NULL or
 * valid for writing one `uint64_t`.
 */
fm_status fm_match_seed(const fm_match *m,
                        uint64_t *out_seed);

/**
 * How and why the game ended, as JSON: `null` while it goes on, else
 * `{"winner": "a", "reason": "..."}` (`"winner": null` for a draw; the reason in
 * words, such as which victory condition was met).
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_outcome(const fm_match *m,
                           char **out_json);

/**
 * The log from command `from` on (`from` past the end gives `[]`), as a JSON array:
 * with `FM_SIDE_NONE` the referee's (each command with its events, unredacted, and the
 * state hash after it), with `FM_SIDE_A` or `FM_SIDE_B` as that side may know it (the
 * events redacted for it and its view hash after each command), with
 * `FM_SIDE_SPECTATOR` as a spectator may (both sides' secrets redacted, the
 * spectator's view hash). Read it in pieces (`from` = the count already read,
 * `fm_match_command_count`) to get only the new commands.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a
 * spectator's, for a system without spectator views), `FM_NULL_ARGUMENT`,
 * `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_log(const fm_match *m,
                       fm_side side,
                       size_t from,
                       char **out_json);

/**
 * The events in words, one line each as the `play` example prints them:
 * `{"opening": [lines], "commands": [[lines], ...]}`, the opening's lines and each
 * command's from command `from` on (`from` past the end gives no commands), as the
 * viewer may know them: the referee's with `FM_SIDE_NONE` (every value), a side's
 * (`FM_SIDE_A`, `FM_SIDE_B`) or a spectator's (`FM_SIDE_SPECTATOR`) from the events
 * redacted for it, a hidden value reading `?`. The words `serve`'s `log` gives with
 * `"words": true`, and Python's `Match.log_words`; a system without words gives
 * empty lists.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * Errors: `FM_INVALID_ARGUMENT` (another side value), `FM_UNSUPPORTED` (a
 * spectator's, for a system without spectator views),
 * `FM_NULL_ARGUMENT`, `FM_INVALID_HANDLE`, `FM_POISONED`.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread; `out_json` is NULL or
 * valid for writing one pointer.
 */
fm_status fm_match_log_words(const fm_match *m,
                             fm_side side,
                             size_t from,
                             char **out_json);

/**
 * Frees a string returned by this library. NULL is a no-op.
 *
 * Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
 * `s` is not a live string of its own (freed already, or not from fm).
 *
 * # Safety
 * `s` is NULL or a string returned by an `fm_` function and not freed before; it must
 * not be used afterwards. Never pass it to `free()`, and never pass memory from
 * `malloc()` here.
 */
fm_status fm_string_free(char *s);

/**
 * Copies the message of the last error on the calling thread into a new string:
 * what went wrong, naming the rule for a refused command ("5.2(d): 1107 holds an
 * enemy unit"). An empty string if no call on this thread has failed yet.
 *
 * The last error is thread-local: each thread sees only its own failures. It is set
 * by every call that returns a status other than `FM_OK` and is left unchanged by
 * successful calls, so read it right after the failing call. Reading it does not
 * clear it.
 *
 * Ownership: `*out_message` is owned by the caller; free it with `fm_string_free`.
 *
 * # Safety
 * `out_message` is NULL or valid for writing one pointer.
 */
fm_status fm_last_error_message(char **out_message);

/**
 * Copies the rule of the last error on the calling thread into a new string: the
 * rule number for `FM_ILLEGAL_COMMAND` ("5.2(d)", "4.1", "input"), otherwise a
 * category: "argument", "input" (bad command JSON or UTF-8), "scenario", "save",
 * "handle" (also for `FM_BUSY` and `FM_POISONED`), "panic", "internal". Empty if no
 * call on this thread has failed yet.
 *
 * Ownership: `*out_rule` is owned by the caller; free it with `fm_string_free`.
 *
 * # Safety
 * `out_rule` is NULL or valid for writing one pointer.
 */
fm_status fm_last_error_rule(char **out_rule);

/**
 * The name of a status code ("FM_ILLEGAL_COMMAND").
 *
 * Ownership: `*out_name` points to a static string owned by the library: do not free
 * it; it stays valid for the life of the process.
 *
 * Returns `FM_INVALID_ARGUMENT` for a value that is not a status code.
 *
 * # Safety
 * `out_name` is NULL or valid for writing one pointer.
 */
fm_status fm_status_name(uint32_t status,
                         const char **out_name);

/**
 * The ids of the built-in scenarios, as a JSON array of strings
 * (`["system-demo"]`), for `fm_match_new`.
 *
 * Ownership: `*out_json` is owned by the caller; free it with `fm_string_free`.
 *
 * # Safety
 * `out_json` is NULL or valid for writing one pointer.
 */
fm_status fm_scenario_names(char **out_json);

/**
 * The library version ("0.1.0").
 *
 * Ownership: `*out_version` points to a static string owned by the library: do not
 * free it.
 *
 * # Safety
 * `out_version` is NULL or valid for writing one pointer.
 */
fm_status fm_version(const char **out_version);

/**
 * Whether this build of the library tracks its live handles and strings, so that a
 * freed or foreign pointer passed to any function is refused with
 * `FM_INVALID_HANDLE` (true in debug builds). In release builds (false) passing a
 * freed handle or string is undefined behaviour, caught on a best-effort basis only.
 *
 * # Safety
 * `out_enabled` is NULL or valid for writing one `bool`.
 */
fm_status fm_has_handle_checks(bool *out_enabled);

/**
 * Draws SVG text as a PNG image: `scale` pixels per SVG unit (1 draws a board at its
 * SVG `width` x `height`), on a white ground, text in the system's fonts (DejaVu Sans
 * first). Files and URLs the SVG names are never read (an `<image>` is left out).
 *
 * On success `*out_png` points to `*out_len` bytes of PNG (they start with the PNG
 * signature `\x89PNG\r\n\x1a\n`).
 *
 * Ownership: `*out_png` is owned by the caller; free it with `fm_bytes_free`.
 *
 * Errors: `FM_NULL_ARGUMENT`, `FM_INVALID_UTF8`; `FM_INVALID_JSON` (category
 * "input") for text that is not SVG or longer than 64 MiB; `FM_INVALID_ARGUMENT` for
 * a scale that is not above 0 and at most 16, or a picture that would be more than
 * 8192 pixels on a side.
 *
 * # Safety
 * `svg` is NULL or a NUL-terminated string; `out_png` is NULL or valid for writing one
 * pointer; `out_len` is NULL or valid for writing one `size_t`.
 */
fm_status fm_svg_to_png(const char *svg,
                        double scale,
                        uint8_t **out_png,
                        size_t *out_len);

/**
 * Frees bytes returned by this library (`fm_svg_to_png`). NULL is a no-op.
 *
 * Returns `FM_OK`, or `FM_INVALID_HANDLE` if a debug build of the library sees that
 * `bytes` is not a live buffer of its own (freed already, or not from fm).
 *
 * # Safety
 * `bytes` is NULL or a pointer written by an `fm_` function that returns bytes, not
 * freed before; it must not be used afterwards. Never pass it to `free()`.
 */
fm_status fm_bytes_free(uint8_t *bytes);

#if defined(FM_TESTING)
/**
 * TEST ONLY (built with the cargo feature `testing`): panics inside the library.
 * With a handle, the panic happens while the handle is in use: the call returns
 * `FM_PANIC` and the handle is poisoned (every later call on it returns
 * `FM_POISONED`, `fm_match_free` still frees it). With NULL, the panic happens
 * outside any handle: the call returns `FM_PANIC` and nothing is poisoned.
 *
 * # Safety
 * `m` is NULL or a live handle not in use by another thread.
 */
fm_status fm_testing_panic(fm_match *m);
#endif

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* FM_H */
