//! The C API called from Rust exactly as C calls it: ownership, copies, JSON round
//! trips, per-thread errors and independent handles on several threads. The error paths
//! are covered from C by `fm-ffi/tests/c/error_paths.c` (run by scripts/test_ffi.sh).

use fm::*;
use std::ffi::{c_char, CStr, CString};
use std::ptr::null_mut;

const OK: fm_status = fm_status::FM_OK;

fn take(p: *mut c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: a string returned by fm, freed once below.
    let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
    // SAFETY: as above.
    assert_eq!(unsafe { fm_string_free(p) }, OK);
    s
}

fn new_match(seed: u64) -> *mut fm_match {
    let mut m = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { fm_match_new(c"system-demo".as_ptr(), seed, &mut m) },
        OK
    );
    m
}

fn json_of(
    m: *const fm_match,
    f: unsafe extern "C" fn(*const fm_match, *mut *mut c_char) -> fm_status,
) -> String {
    let mut out = null_mut();
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { f(m, &mut out) }, OK);
    take(out)
}

fn hash(m: *const fm_match) -> u64 {
    let mut h = 0;
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { fm_match_state_hash(m, &mut h) }, OK);
    h
}

fn last_error() -> (String, String) {
    let (mut msg, mut rule) = (null_mut(), null_mut());
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(fm_last_error_message(&mut msg), OK);
        assert_eq!(fm_last_error_rule(&mut rule), OK);
    }
    (take(msg), take(rule))
}

fn free(m: *mut fm_match) {
    // SAFETY: a live handle, freed once.
    assert_eq!(unsafe { fm_match_free(m) }, OK);
}

#[test]
fn a_clone_is_independent() {
    let m = new_match(3);
    let mut c = null_mut();
    // SAFETY: the C API used as documented.
    unsafe {
        assert_eq!(fm_match_clone(m, &mut c), OK);
        let mut n = 0;
        assert_eq!(fm_match_playout(c, 1, &mut n), OK);
        assert!(n > 0);
    }
    assert_ne!(hash(m), hash(c));
    let mut count = 0;
    // SAFETY: as above.
    unsafe { assert_eq!(fm_match_command_count(m, &mut count), OK) };
    assert_eq!(count, 0);
    free(c);
    free(m);
}

#[test]
fn save_load_and_undo() {
    let m = new_match(5);
    // SAFETY: the C API used as documented.
    unsafe {
        for _ in 0..30 {
            assert_eq!(fm_match_apply_legal(m, 0), OK);
        }
        let save = CString::new(json_of(m, fm_match_save)).unwrap();
        let mut l = null_mut();
        assert_eq!(fm_match_load(save.as_ptr(), &mut l), OK);
        assert_eq!(json_of(m, fm_match_state), json_of(l, fm_match_state));
        let before = hash(l);
        let mut undone = false;
        assert_eq!(fm_match_undo(l, &mut undone), OK);
        assert!(undone);
        assert_ne!(hash(l), before);
        assert_eq!(fm_match_apply_legal(l, 0), OK);
        assert_eq!(
            hash(l),
            before,
            "undo then the same command: the same state"
        );
        free(l);
    }
    free(m);
}

#[test]
fn from_json_equals_the_builtin() {
    let json = fm_core::Scenario::builtin("system-demo").unwrap().to_json();
    let json = CString::new(json).unwrap();
    let mut a = null_mut();
    // SAFETY: the C API used as documented.
    unsafe { assert_eq!(fm_match_from_json(json.as_ptr(), 9, &mut a), OK) };
    let b = new_match(9);
    assert_eq!(hash(a), hash(b));
    assert_eq!(
        json_of(a, fm_match_legal_commands),
        json_of(b, fm_match_legal_commands)
    );
    free(a);
    free(b);
}

#[test]
fn views_pending_and_names() {
    let m = new_match(2);
    let pending: serde_json::Value = serde_json::from_str(&json_of(m, fm_match_pending)).unwrap();
    assert!(pending["kind"].is_string());
    for (side, name) in [(FM_SIDE_A, "a"), (FM_SIDE_B, "b")] {
        let mut out = null_mut();
        // SAFETY: the C API used as documented.
        assert_eq!(unsafe { fm_match_view(m, side, &mut out) }, OK);
        let v: serde_json::Value = serde_json::from_str(&take(out)).unwrap();
        assert_eq!(v["side"], name);
    }
    let mut out = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { fm_scenario_names(&mut out) }, OK);
    let names: Vec<String> = serde_json::from_str(&take(out)).unwrap();
    assert!(names.contains(&"system-demo".to_string()));
    let mut checks = false;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { fm_has_handle_checks(&mut checks) }, OK);
    assert_eq!(checks, cfg!(debug_assertions));
    free(m);
}

#[test]
fn legal_indices_number_the_fast_path() {
    let m = new_match(4);
    let mut n = 0;
    // SAFETY: the C API used as documented.
    unsafe {
        assert_eq!(fm_match_legal_count(m, &mut n), OK);
        let mut v = vec![0usize; n];
        let mut len = 0;
        assert_eq!(
            fm_match_legal_indices(m, v.as_mut_ptr(), v.len(), &mut len),
            OK
        );
        assert_eq!(len, n);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        let mut c = null_mut();
        assert_eq!(fm_match_clone(m, &mut c), OK);
        assert_eq!(fm_match_apply_legal(m, n - 1), OK);
        assert_eq!(fm_match_apply_index(c, v[n - 1]), OK);
        assert_eq!(hash(m), hash(c));
        free(c);
    }
    free(m);
}

#[test]
fn independent_handles_on_many_threads() {
    let seeds = [1u64, 2, 3, 4];
    let play = |seed: u64| -> u64 {
        let m = new_match(seed);
        let mut n = 0;
        // SAFETY: the C API used as documented; this thread owns the handle.
        unsafe { assert_eq!(fm_match_playout(m, seed * 10, &mut n), OK) };
        let h = hash(m);
        free(m);
        h
    };
    let alone: Vec<u64> = seeds.iter().map(|&s| play(s)).collect();
    let threads: Vec<_> = seeds
        .iter()
        .map(|&s| std::thread::spawn(move || play(s)))
        .collect();
    let together: Vec<u64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(alone, together);
}

#[test]
fn the_last_error_is_per_thread() {
    let mut m = null_mut();
    // SAFETY: valid pointers.
    let st = unsafe { fm_match_new(c"here".as_ptr(), 1, &mut m) };
    assert_eq!(st, fm_status::FM_UNKNOWN_SCENARIO);
    std::thread::spawn(|| {
        let (msg, _) = last_error();
        assert_eq!(msg, "", "a new thread has no last error");
        let mut m = null_mut();
        // SAFETY: valid pointers.
        let st = unsafe { fm_match_new(c"there".as_ptr(), 1, &mut m) };
        assert_eq!(st, fm_status::FM_UNKNOWN_SCENARIO);
        assert!(last_error().0.contains("there"));
    })
    .join()
    .unwrap();
    let (msg, rule) = last_error();
    assert!(msg.contains("'here'"), "{msg}");
    assert_eq!(rule, "scenario");
}

#[test]
fn a_refused_command_names_the_rule_and_changes_nothing() {
    let m = new_match(1);
    let before = json_of(m, fm_match_save);
    let mut out = null_mut();
    // SAFETY: the C API used as documented.
    let st = unsafe {
        fm_match_apply(
            m,
            c"{\"type\":\"bombard\",\"hex\":\"0101\",\"markers\":1}".as_ptr(),
            &mut out,
        )
    };
    assert_eq!(st, fm_status::FM_ILLEGAL_COMMAND);
    assert!(out.is_null());
    let (msg, rule) = last_error();
    assert!(msg.starts_with(&format!("{rule}: ")), "{rule} / {msg}");
    assert_eq!(json_of(m, fm_match_save), before);
    free(m);
}

/// A message quoting a NUL of the input (`\u0000` in JSON) can still be read: the NUL
/// shows as `\0`. (Found by the fuzz harness: the last error could not be copied out.)
#[test]
fn an_error_quoting_a_nul_can_be_read() {
    let m = new_match(1);
    let mut out = null_mut();
    // SAFETY: the C API used as documented.
    let st = unsafe { fm_match_apply(m, c"{\"type\":\"fl\\u0000y\"}".as_ptr(), &mut out) };
    assert_eq!(st, fm_status::FM_INVALID_JSON);
    let (msg, _) = last_error();
    assert!(msg.contains("fl\\0y"), "{msg}");
    free(m);
}

#[cfg(debug_assertions)]
#[test]
fn debug_builds_refuse_freed_handles() {
    let m = new_match(1);
    free(m);
    let mut n = 0;
    // SAFETY: debug builds check the registry before touching the pointer.
    unsafe {
        assert_eq!(
            fm_match_legal_count(m, &mut n),
            fm_status::FM_INVALID_HANDLE
        );
        assert_eq!(fm_match_free(m), fm_status::FM_INVALID_HANDLE);
    }
}

/// Hidden information through the C API: the view hash is the side's, the state hash
/// the referee's; an export carries no seed and the side's redacted events.
#[test]
fn view_hash_and_export_are_per_side() {
    let mut m = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { fm_match_new(c"vimy-ridge".as_ptr(), 5, &mut m) },
        OK
    );
    let rust = fm_core::Match::new_builtin("vimy-ridge", 5).unwrap();
    for (side, s) in [(FM_SIDE_A, fm_core::Side::A), (FM_SIDE_B, fm_core::Side::B)] {
        let mut h = 0u64;
        // SAFETY: a live handle and a valid out-pointer.
        assert_eq!(unsafe { fm_match_view_hash(m, side, &mut h) }, OK);
        assert_eq!(h, rust.view_hash(s));
        assert_ne!(h, hash(m), "the view hash is not the state hash");
        let mut out = null_mut();
        // SAFETY: as above.
        assert_eq!(unsafe { fm_match_export(m, side, &mut out) }, OK);
        let text = take(out);
        let r: fm_core::SideRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(r, rust.export(s));
        assert!(!text.contains("\"seed\""));
    }
    let mut h = 0u64;
    // SAFETY: a live handle; an out-of-range side is refused.
    assert_eq!(
        unsafe { fm_match_view_hash(m, 7, &mut h) },
        fm_status::FM_INVALID_ARGUMENT
    );
    free(m);
}

/// The statuses a call may return while two threads share one handle (against the
/// rules): success, FM_BUSY, and the ordinary refusals of the calls used.
const HAMMER_OK: [fm_status; 4] = [
    OK,
    fm_status::FM_BUSY,
    fm_status::FM_INDEX_OUT_OF_RANGE,
    fm_status::FM_BUFFER_TOO_SMALL,
];

/// One handle hammered by two threads (issue 13, finding 11). Run in a child process
/// (see the test below) so that its stderr can be checked.
fn hammer() {
    struct Shared(*mut fm_match);
    // SAFETY (test): sharing the handle is exactly the misuse under test; the library
    // must turn it into FM_BUSY.
    unsafe impl Send for Shared {}
    unsafe impl Sync for Shared {}
    let m = new_match(1);
    let shared = std::sync::Arc::new(Shared(m));
    let busy = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let threads: Vec<_> = (0..2usize)
        .map(|t| {
            let shared = shared.clone();
            let busy = busy.clone();
            std::thread::spawn(move || {
                let p = shared.0;
                let mut i = 0usize;
                let mut buf = [0usize; 8];
                while i < 3000
                    || (busy.load(std::sync::atomic::Ordering::Relaxed) == 0
                        && std::time::Instant::now() < deadline)
                {
                    let (mut n, mut h, mut len, mut undone) = (0usize, 0u64, 0usize, false);
                    let mut s = null_mut();
                    // SAFETY: a live handle (freed only after both threads end) and
                    // valid out-pointers.
                    let st = unsafe {
                        match (i + t) % 6 {
                            0 => fm_match_legal_count(p, &mut n),
                            1 => fm_match_apply_legal(p, i % 3),
                            2 => fm_match_state_hash(p, &mut h),
                            3 => fm_match_pending(p, &mut s),
                            4 => fm_match_legal_indices(p, buf.as_mut_ptr(), buf.len(), &mut len),
                            _ => fm_match_undo(p, &mut undone),
                        }
                    };
                    if st == OK && !s.is_null() {
                        take(s);
                    }
                    assert!(HAMMER_OK.contains(&st), "thread {t}, call {i}: {st:?}");
                    if st == fm_status::FM_BUSY {
                        let (msg, rule) = last_error();
                        assert_eq!(rule, "handle");
                        assert!(msg.contains("another thread"), "{msg}");
                        busy.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    i += 1;
                }
                i
            })
        })
        .collect();
    let calls: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    let busy = busy.load(std::sync::atomic::Ordering::Relaxed);
    println!("hammer: {calls} calls, {busy} FM_BUSY");
    assert!(busy > 0, "the two threads never met on the handle");
    // The handle is intact and its cache agrees with the match.
    let save = json_of(m, fm_match_save);
    let fresh = fm_core::Match::load(&save).unwrap();
    let mut n = 0;
    // SAFETY: a live handle, now used by this thread alone.
    assert_eq!(unsafe { fm_match_legal_count(m, &mut n) }, OK);
    assert_eq!(
        n,
        fm_core::legal_indices(fresh.scenario(), fresh.state()).len()
    );
    assert_eq!(hash(m), fresh.state().hash());
    free(m);
}

/// Two threads on one handle get statuses (FM_BUSY), never a panic, and nothing is
/// written to the host's stderr.
#[test]
fn one_handle_on_two_threads_is_busy_not_a_crash() {
    if std::env::var_os("FM_HAMMER_CHILD").is_some() {
        hammer();
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "c_api::one_handle_on_two_threads_is_busy_not_a_crash",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("FM_HAMMER_CHILD", "1")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("FM_BUSY"), "{stdout}");
    assert!(stderr.is_empty(), "the library wrote to stderr:\n{stderr}");
}

/// Plays the same random commands (agent seed 7) on `m` and returns its hash.
fn playout_hash(m: *mut fm_match) -> u64 {
    let mut n = 0;
    // SAFETY: a live handle owned by this thread.
    assert_eq!(unsafe { fm_match_playout(m, 7, &mut n) }, OK);
    assert!(n > 0);
    hash(m)
}

#[test]
fn reseeded_copies_roll_their_own_dice_and_states_round_trip() {
    let m = new_match(3);
    let base = json_of(m, fm_match_rng_state);
    assert_eq!(base.len(), 64);
    // Plain copies share the future; re-seeded ones have their own.
    let mut futures = Vec::new();
    for seed in 0..6u64 {
        let mut c = null_mut();
        // SAFETY: valid pointers.
        assert_eq!(unsafe { fm_match_clone_with_seed(m, seed, &mut c) }, OK);
        futures.push(playout_hash(c));
        free(c);
    }
    futures.sort();
    futures.dedup();
    assert!(futures.len() > 1, "re-seeded copies differ");
    assert_eq!(
        json_of(m, fm_match_rng_state),
        base,
        "the original keeps its dice"
    );

    // Reading a state and setting it back gives the same future.
    let (a, b) = (new_match(3), new_match(3));
    // SAFETY: live handles, valid strings.
    unsafe {
        assert_eq!(fm_match_reseed(a, 99), OK);
        let s = CString::new(json_of(a, fm_match_rng_state)).unwrap();
        assert_eq!(fm_match_set_rng_state(b, s.as_ptr()), OK);
    }
    assert_eq!(
        json_of(a, fm_match_rng_state),
        json_of(b, fm_match_rng_state)
    );
    assert_eq!(playout_hash(a), playout_hash(b));
    // The save records the reset, and a load replays it.
    let save = json_of(a, fm_match_save);
    assert!(save.contains("rng_resets"));
    let text = CString::new(save).unwrap();
    let mut back = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_load(text.as_ptr(), &mut back) }, OK);
    assert_eq!(hash(back), hash(a));
    assert_eq!(
        json_of(back, fm_match_rng_state),
        json_of(a, fm_match_rng_state)
    );
    free(back);
    free(a);
    free(b);

    // A bad state is refused, naming the problem, and changes nothing.
    for bad in [
        c"",
        c"zz",
        c"0000000000000000000000000000000000000000000000000000000000000000",
    ] {
        // SAFETY: a live handle and a valid string.
        let st = unsafe { fm_match_set_rng_state(m, bad.as_ptr()) };
        assert_eq!(st, fm_status::FM_INVALID_ARGUMENT);
        assert!(last_error().0.contains("generator state"));
        assert_eq!(json_of(m, fm_match_rng_state), base);
    }
    // SAFETY: NULL arguments are refused, not dereferenced.
    unsafe {
        assert_eq!(
            fm_match_set_rng_state(m, std::ptr::null()),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(fm_match_reseed(null_mut(), 1), fm_status::FM_NULL_ARGUMENT);
        assert_eq!(
            fm_match_clone_with_seed(m, 1, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_match_rng_state(m, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
    }
    free(m);
}

#[test]
fn explicit_chance_from_c() {
    let m = new_match(5);
    let hash_before = hash(m);
    // SAFETY: the C API used as documented, single-threaded.
    unsafe {
        assert_eq!(fm_match_set_chance_mode(m, true), OK);
        let mut n = 7u32;
        assert_eq!(fm_match_chance_outcomes(m, &mut n), OK);
        assert_eq!(n, 0, "no draw pending at the start");
        // Play legal commands until one waits for a draw.
        let mut guard = 0;
        while n == 0 {
            let mut count = 0;
            assert_eq!(fm_match_legal_count(m, &mut count), OK);
            assert!(count > 0, "the game goes on until a draw");
            assert_eq!(fm_match_apply_legal(m, (guard * 7919) % count), OK);
            assert_eq!(fm_match_chance_outcomes(m, &mut n), OK);
            guard += 1;
            assert!(guard < 5000, "a draw comes");
        }
        let logged = {
            let mut c = 0;
            assert_eq!(fm_match_command_count(m, &mut c), OK);
            c
        };
        // While it waits: no legal command, the mode cannot change, a bad outcome is
        // refused and changes nothing.
        let mut count = 9;
        assert_eq!(fm_match_legal_count(m, &mut count), OK);
        assert_eq!(count, 0);
        assert_eq!(
            fm_match_set_chance_mode(m, false),
            fm_status::FM_ILLEGAL_COMMAND
        );
        let mut ev = null_mut();
        assert_eq!(
            fm_match_apply_chance(m, n, &mut ev),
            fm_status::FM_ILLEGAL_COMMAND
        );
        assert_eq!(last_error().1, "input");
        // Resolve every draw of the command with its first outcome.
        let mut events = String::new();
        while n > 0 {
            let mut ev = null_mut();
            assert_eq!(fm_match_apply_chance(m, 0, &mut ev), OK);
            events = take(ev);
            assert_eq!(fm_match_chance_outcomes(m, &mut n), OK);
        }
        assert!(events.starts_with('[') && events.len() > 2, "{events}");
        let mut c = 0;
        assert_eq!(fm_match_command_count(m, &mut c), OK);
        assert_eq!(c, logged + 1);
        // The save replays the chosen outcomes.
        let save = CString::new(json_of(m, fm_match_save)).unwrap();
        let mut back = null_mut();
        assert_eq!(fm_match_load(save.as_ptr(), &mut back), OK);
        assert_eq!(hash(back), hash(m));
        free(back);
    }
    assert_ne!(hash(m), hash_before);
    free(m);
}

#[test]
fn explicit_chance_from_construction_and_named_nodes_from_c() {
    // SAFETY: the C API used as documented, single-threaded.
    unsafe {
        let name = CString::new("huzzah-encounter").unwrap();
        let mut m = null_mut();
        assert_eq!(fm_match_new_with_chance(name.as_ptr(), 5, true, &mut m), OK);
        // The opening's roll-off waits before any command.
        let mut n = 0u32;
        assert_eq!(fm_match_chance_outcomes(m, &mut n), OK);
        assert_eq!(n, 6);
        let node: serde_json::Value =
            serde_json::from_str(&json_of(m, fm_match_chance_node_json)).unwrap();
        assert_eq!(node["outcomes"], 6);
        assert_eq!(node["roll"]["roll"], "roll_off");
        assert_eq!(node["roll"]["dice"], "2d6");
        assert_eq!(node["roll"]["die"], 1);
        assert_eq!(node["roll"]["side"], "a");
        let mut opening = String::new();
        // Faces 1, 2, 3, 4, …: a roll-off that cannot tie for ever.
        let mut k = 0;
        while n > 0 {
            let mut ev = null_mut();
            assert_eq!(fm_match_apply_chance(m, k % n, &mut ev), OK);
            k += 1;
            opening = take(ev);
            assert_eq!(fm_match_chance_outcomes(m, &mut n), OK);
        }
        assert!(opening.contains("rolled_off"), "{opening}");
        assert_eq!(json_of(m, fm_match_chance_node_json), "null");
        let save = CString::new(json_of(m, fm_match_save)).unwrap();
        let mut back = null_mut();
        assert_eq!(fm_match_load(save.as_ptr(), &mut back), OK);
        assert_eq!(hash(back), hash(m));
        free(back);
        free(m);
        // Sampled: fm_match_new; errors as fm_match_new's.
        let mut s = null_mut();
        assert_eq!(
            fm_match_new_with_chance(name.as_ptr(), 5, false, &mut s),
            OK
        );
        assert_eq!(json_of(s, fm_match_chance_node_json), "null");
        free(s);
        let bad = CString::new("no-such").unwrap();
        assert_eq!(
            fm_match_new_with_chance(bad.as_ptr(), 5, true, &mut s),
            fm_status::FM_UNKNOWN_SCENARIO
        );
        assert_eq!(
            fm_match_new_with_chance(name.as_ptr(), 5, true, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_match_chance_node_json(null_mut(), null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
    }
}

#[test]
fn information_state_from_c() {
    let m = new_match(5);
    let info = |side: fm_side| {
        let mut out = null_mut();
        // SAFETY: a live handle and a valid out-pointer.
        assert_eq!(unsafe { fm_match_information_state(m, side, &mut out) }, OK);
        take(out)
    };
    let (a, b) = (info(FM_SIDE_A), info(FM_SIDE_B));
    assert!(a.starts_with(r#"{"side":"a""#), "{a}");
    assert!(b.starts_with(r#"{"side":"b""#), "{b}");
    // SAFETY: a live handle.
    assert_eq!(unsafe { fm_match_apply_legal(m, 0) }, OK);
    assert_ne!(info(FM_SIDE_A), a, "it grows with the log");
    let mut out = null_mut();
    // SAFETY: an invalid side and a NULL out-pointer are refused.
    unsafe {
        assert_eq!(
            fm_match_information_state(m, 7, &mut out),
            fm_status::FM_INVALID_ARGUMENT
        );
        assert_eq!(
            fm_match_information_state(m, FM_SIDE_A, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
    }
    free(m);
}

/// The tensor from C is the engine's for the same match (loaded from the C save), sized
/// by `fm_information_state_tensor_size`; every error leaves the buffer as it was.
#[test]
fn information_state_tensor_from_c() {
    assert_eq!(fm_information_state_tensor_size(0), 9);
    assert_eq!(fm_information_state_tensor_size(10), 49);
    assert_eq!(fm_information_state_tensor_size(usize::MAX / 2), usize::MAX);
    let m = new_match(5);
    for _ in 0..3 {
        // SAFETY: a live handle.
        assert_eq!(unsafe { fm_match_apply_legal(m, 0) }, OK);
    }
    let mut save = null_mut();
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { fm_match_save(m, &mut save) }, OK);
    let rust = fm_core::any::load_match(&take(save)).unwrap();
    for side in [FM_SIDE_A, FM_SIDE_B] {
        let mut out = vec![f32::NAN; 49];
        let mut len = 0;
        // SAFETY: a live handle, a buffer of out.len() floats, a valid out-pointer.
        let st = unsafe {
            fm_match_information_state_tensor(m, side, 10, out.as_mut_ptr(), out.len(), &mut len)
        };
        assert_eq!((st, len), (OK, 49));
        let mut want = vec![0.0; 49];
        let s = if side == FM_SIDE_A {
            fm_core::Side::A
        } else {
            fm_core::Side::B
        };
        rust.information_state_tensor(s, &mut want).unwrap();
        assert_eq!(out, want);
        assert_eq!((out[9], out[13], out[17], out[21]), (1.0, 1.0, 1.0, 0.0));
    }
    // Errors: a short buffer (the size still written), a record longer than the room, a
    // bad side, NULL pointers; the buffer untouched each time.
    let mut out = vec![7.0f32; 49];
    let mut len = 0;
    // SAFETY: as above; NULL pointers and bad sides are refused.
    unsafe {
        let st =
            fm_match_information_state_tensor(m, FM_SIDE_A, 10, out.as_mut_ptr(), 48, &mut len);
        fails(st, fm_status::FM_BUFFER_TOO_SMALL, "argument");
        assert_eq!(len, 49);
        let st = fm_match_information_state_tensor(m, FM_SIDE_A, 2, out.as_mut_ptr(), 49, &mut len);
        fails(st, fm_status::FM_INVALID_ARGUMENT, "input");
        assert_eq!(len, 17);
        let st =
            fm_match_information_state_tensor(m, FM_SIDE_NONE, 10, out.as_mut_ptr(), 49, &mut len);
        fails(st, fm_status::FM_INVALID_ARGUMENT, "argument");
        let st = fm_match_information_state_tensor(m, FM_SIDE_A, 10, null_mut(), 49, &mut len);
        fails(st, fm_status::FM_NULL_ARGUMENT, "argument");
        let st =
            fm_match_information_state_tensor(m, FM_SIDE_A, 10, out.as_mut_ptr(), 49, null_mut());
        fails(st, fm_status::FM_NULL_ARGUMENT, "argument");
        let st = fm_match_information_state_tensor(
            m,
            FM_SIDE_A,
            usize::MAX,
            out.as_mut_ptr(),
            49,
            &mut len,
        );
        fails(st, fm_status::FM_INVALID_ARGUMENT, "argument");
    }
    assert!(out.iter().all(|&x| x == 7.0));
    free(m);
}

#[test]
fn best_command_from_c() {
    let m = new_match(5);
    let think = |cfg: &str, ms: u64| -> (fm_status, String) {
        let cfg = CString::new(cfg).unwrap();
        let mut out = null_mut();
        // SAFETY: a live handle, a NUL-terminated string and a valid out-pointer.
        let st = unsafe { fm_match_best_command(m, cfg.as_ptr(), ms, &mut out) };
        (st, if st == OK { take(out) } else { String::new() })
    };
    let before = hash(m);
    let (st, a) = think(r#"{"iterations": 30, "seed": 4, "max_priors": 40}"#, 0);
    assert_eq!(st, OK, "{a}");
    assert_eq!(hash(m), before, "the search changes nothing");
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["side"], "b", "Red sets up first");
    assert_eq!(v["iterations"], 30);
    // The same settings choose the same; the chosen index applies.
    assert_eq!(
        think(r#"{"iterations": 30, "seed": 4, "max_priors": 40}"#, 0).1,
        a
    );
    let index = v["index"].as_u64().unwrap() as usize;
    let mut legal = vec![0usize; 4096];
    let mut n = 0usize;
    // SAFETY: a live handle and a buffer of the length given.
    assert_eq!(
        unsafe { fm_match_legal_indices(m, legal.as_mut_ptr(), legal.len(), &mut n) },
        OK
    );
    assert!(legal[..n].contains(&index));
    // A time budget stops it (the iterations are then the machine's).
    let (st, _) = think(r#"{"iterations": 10000000}"#, 20);
    assert_eq!(st, OK);
    // Bad settings, bad JSON and NULLs are refused and change nothing.
    assert_eq!(
        think(r#"{"iterations": 0}"#, 0).0,
        fm_status::FM_INVALID_ARGUMENT
    );
    assert!(last_error().0.contains("iterations"), "{:?}", last_error());
    assert_eq!(
        think(r#"{"iterations": 5, "iterations": 6}"#, 0).0,
        fm_status::FM_INVALID_JSON
    );
    assert_eq!(think(r#"{"depth": 2}"#, 0).0, fm_status::FM_INVALID_JSON);
    assert_eq!(think("[]", 0).0, fm_status::FM_INVALID_JSON);
    let mut out = null_mut();
    // SAFETY: NULL arguments are refused.
    unsafe {
        assert_eq!(
            fm_match_best_command(m, std::ptr::null(), 0, &mut out),
            fm_status::FM_NULL_ARGUMENT
        );
        let cfg = CString::new("{}").unwrap();
        assert_eq!(
            fm_match_best_command(m, cfg.as_ptr(), 0, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
    }
    assert_eq!(hash(m), before);
    // A finished game has no decision to search.
    // SAFETY: a live handle and a valid out-pointer.
    let mut played = 0usize;
    assert_eq!(unsafe { fm_match_playout(m, 9, &mut played) }, OK);
    let (st, _) = think("{}", 0);
    assert_eq!(st, fm_status::FM_ILLEGAL_COMMAND);
    assert_eq!(last_error().1, "search");
    free(m);
}

/// The factored action space through C, as a C program uses it: a whole game of
/// `scenario` played by masks (every step a random option of its mask), with at each
/// decision the options agreeing with the mask, the sequence's flat index legal and
/// the conversions round-tripping; the error statuses of bad input.
fn factored_game_from_c(scenario: &std::ffi::CStr, seed: u64) -> usize {
    let mut m = null_mut();
    let mut commands = 0;
    // SAFETY: the C API used as documented, single-threaded.
    unsafe {
        assert_eq!(fm_match_new(scenario.as_ptr(), seed, &mut m), OK);
        let mut steps = 0;
        assert_eq!(
            fm_match_factored_sizes(m, null_mut(), 0, &mut steps),
            fm_status::FM_BUFFER_TOO_SMALL
        );
        let mut sizes = vec![0usize; steps];
        assert_eq!(
            fm_match_factored_sizes(m, sizes.as_mut_ptr(), steps, &mut steps),
            OK
        );
        let mut masks: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0; n]).collect();
        let mut opts = vec![0usize; *sizes.iter().max().unwrap()];
        let mut picker = seed;
        loop {
            let mut over = false;
            assert_eq!(fm_match_is_over(m, &mut over), OK);
            if over {
                break;
            }
            let mut seq: Vec<usize> = Vec::new();
            loop {
                let k = seq.len();
                let mut n = 0;
                assert_eq!(
                    fm_match_factored_mask(
                        m,
                        seq.as_ptr(),
                        k,
                        masks[k].as_mut_ptr(),
                        sizes[k],
                        &mut n
                    ),
                    OK
                );
                assert_eq!(n, sizes[k]);
                let mut len = 0;
                assert_eq!(
                    fm_match_factored_options(
                        m,
                        seq.as_ptr(),
                        k,
                        opts.as_mut_ptr(),
                        opts.len(),
                        &mut len
                    ),
                    OK
                );
                let from_mask: Vec<usize> = (0..n).filter(|&v| masks[k][v] == 1).collect();
                assert_eq!(&opts[..len], from_mask.as_slice(), "{seq:?}");
                assert!(len > 0, "a decision has an option at every step");
                picker = picker
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                seq.push(opts[(picker >> 33) as usize % len]);
                let mut complete = false;
                assert_eq!(
                    fm_match_factored_complete(m, seq.as_ptr(), seq.len(), &mut complete),
                    OK
                );
                if complete {
                    break;
                }
            }
            let mut flat = 0;
            assert_eq!(
                fm_match_factored_to_flat(m, seq.as_ptr(), seq.len(), &mut flat),
                OK
            );
            let mut back = [0usize; 8];
            let mut len = 0;
            assert_eq!(
                fm_match_flat_to_factored(m, flat, back.as_mut_ptr(), back.len(), &mut len),
                OK
            );
            assert_eq!(&back[..len], seq.as_slice());
            let mut count = 0;
            assert_eq!(fm_match_legal_count(m, &mut count), OK);
            let mut legal = vec![0usize; count];
            assert_eq!(
                fm_match_legal_indices(m, legal.as_mut_ptr(), count, &mut count),
                OK
            );
            assert!(legal.contains(&flat), "{seq:?} = {flat}: legal");
            assert_eq!(fm_match_apply_factored(m, seq.as_ptr(), seq.len()), OK);
            commands += 1;
            assert!(commands < 20_000, "the game ends");
        }
        // Over: the first step has no option.
        let mut len = 9;
        assert_eq!(
            fm_match_factored_options(m, null_mut(), 0, opts.as_mut_ptr(), opts.len(), &mut len),
            OK
        );
        assert_eq!(len, 0);
        free(m);
    }
    commands
}

#[test]
fn factored_action_space_from_c() {
    assert!(factored_game_from_c(c"system-demo", 3) > 0);
    assert!(factored_game_from_c(c"huzzah-firefight", 3) > 0);
}

#[test]
fn factored_errors_from_c() {
    let m = new_match(6);
    let before = hash(m);
    // SAFETY: the C API used as documented (bad values, NULLs and small buffers).
    unsafe {
        let mut sizes = [0usize; 3];
        let mut n = 0;
        assert_eq!(
            fm_match_factored_sizes(m, sizes.as_mut_ptr(), 3, &mut n),
            OK
        );
        assert_eq!(n, 3);
        let mut out = vec![0usize; sizes[0]];
        // A head past the first step's size, a sequence longer than any, an incomplete
        // sequence, an index past the action space: FM_INVALID_ARGUMENT, rule "input".
        let bad = [sizes[0]];
        assert_eq!(
            fm_match_factored_options(m, bad.as_ptr(), 1, out.as_mut_ptr(), out.len(), &mut n),
            fm_status::FM_INVALID_ARGUMENT
        );
        let (msg, rule) = last_error();
        assert_eq!(rule, "input");
        assert!(msg.contains("step 0"), "{msg}");
        let long = [0usize; 9];
        let mut flat = 0;
        assert_eq!(
            fm_match_factored_to_flat(m, long.as_ptr(), long.len(), &mut flat),
            fm_status::FM_INVALID_ARGUMENT
        );
        assert!(last_error().0.contains("at most 3"));
        let head = [11usize];
        assert_eq!(
            fm_match_factored_to_flat(m, head.as_ptr(), 1, &mut flat),
            fm_status::FM_INVALID_ARGUMENT
        );
        assert!(last_error().0.contains("incomplete"));
        let mut space = 0;
        assert_eq!(fm_match_action_space_size(m, &mut space), OK);
        let mut seq = [0usize; 3];
        assert_eq!(
            fm_match_flat_to_factored(m, space, seq.as_mut_ptr(), 3, &mut n),
            fm_status::FM_INVALID_ARGUMENT
        );
        // A prefix nobody can play now (set-up: no attack).
        let attack = [6usize];
        assert_eq!(
            fm_match_factored_options(m, attack.as_ptr(), 1, out.as_mut_ptr(), out.len(), &mut n),
            fm_status::FM_INVALID_ARGUMENT
        );
        assert!(last_error().0.contains("no legal command"));
        // Too small a buffer: the length alone is written.
        let mut mask = [7u8; 4];
        n = 0;
        assert_eq!(
            fm_match_factored_mask(m, null_mut(), 0, mask.as_mut_ptr(), mask.len(), &mut n),
            fm_status::FM_BUFFER_TOO_SMALL
        );
        assert_eq!((n, mask), (sizes[0], [7; 4]));
        // NULLs: the handle, a prefix with a length, an out-parameter.
        assert_eq!(
            fm_match_factored_sizes(null_mut(), null_mut(), 0, &mut n),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_match_factored_options(m, null_mut(), 1, out.as_mut_ptr(), out.len(), &mut n),
            fm_status::FM_NULL_ARGUMENT
        );
        let mut complete = false;
        assert_eq!(
            fm_match_factored_complete(m, head.as_ptr(), 1, null_mut()),
            fm_status::FM_NULL_ARGUMENT
        );
        assert_eq!(
            fm_match_factored_complete(m, head.as_ptr(), 1, &mut complete),
            OK
        );
        assert!(!complete);
        // Applying a bad sequence is a refused command (rule "input") and changes
        // nothing; `done` is well formed and refused by the rules at set-up.
        assert_eq!(
            fm_match_apply_factored(m, head.as_ptr(), 1),
            fm_status::FM_ILLEGAL_COMMAND
        );
        assert_eq!(last_error().1, "input");
        let done = [0usize];
        assert_eq!(
            fm_match_apply_factored(m, done.as_ptr(), 1),
            fm_status::FM_ILLEGAL_COMMAND
        );
        assert_eq!(
            fm_match_apply_factored(null_mut(), done.as_ptr(), 1),
            fm_status::FM_NULL_ARGUMENT
        );
    }
    assert_eq!(hash(m), before);
    free(m);
}

// ---------------------------------------------------------------- queries (issue 19)

/// Calls a function writing one string, returning its status and (on success) the text.
fn text_of(f: impl FnOnce(*mut *mut c_char) -> fm_status) -> (fm_status, Option<String>) {
    let mut out = null_mut();
    let st = f(&mut out);
    if st == OK {
        (st, Some(take(out)))
    } else {
        assert!(out.is_null(), "no output on failure");
        (st, None)
    }
}

/// The status of a failing call and its last error's rule.
fn fails(st: fm_status, want: fm_status, rule: &str) {
    assert_eq!(st, want);
    assert_eq!(last_error().1, rule);
}

fn new_named(name: &std::ffi::CStr, seed: u64) -> *mut fm_match {
    let mut m = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_new(name.as_ptr(), seed, &mut m) }, OK);
    m
}

fn count(m: *const fm_match) -> usize {
    let mut n = 0;
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { fm_match_command_count(m, &mut n) }, OK);
    n
}

/// The fast path's apply-with-events variants give the events `fm_match_apply` gives
/// for the same command, and refuse without change.
#[test]
fn apply_with_events_returns_what_apply_returns() {
    let m = new_match(21);
    for step in 0..30 {
        let mut n = 0;
        // SAFETY: the C API used as documented, on live handles.
        unsafe {
            assert_eq!(fm_match_legal_count(m, &mut n), OK);
            let i = (step * 7) % n;
            let (_, cmd) = text_of(|o| fm_match_command_json_at(m, i, o));
            let cmd = CString::new(cmd.unwrap()).unwrap();
            let mut c = null_mut();
            assert_eq!(fm_match_clone(m, &mut c), OK);
            let (_, want) = text_of(|o| fm_match_apply(c, cmd.as_ptr(), o));
            let (st, got) = if step % 2 == 0 {
                text_of(|o| fm_match_apply_legal_events(m, i, o))
            } else {
                let mut idx = vec![0usize; n];
                let mut len = 0;
                assert_eq!(fm_match_legal_indices(m, idx.as_mut_ptr(), n, &mut len), OK);
                text_of(|o| fm_match_apply_index_events(m, idx[i], o))
            };
            assert_eq!(st, OK);
            assert_eq!(got, want, "step {step}");
            assert_eq!(hash(m), hash(c));
            let (_, last) = text_of(|o| fm_match_last_events(m, FM_SIDE_NONE, o));
            assert_eq!(last, got);
            free(c);
        }
    }
    // Refusals change nothing (and a NULL out-parameter applies nothing).
    let (h, k) = (hash(m), count(m));
    // SAFETY: as above.
    unsafe {
        let mut n = 0;
        assert_eq!(fm_match_legal_count(m, &mut n), OK);
        fails(
            text_of(|o| fm_match_apply_legal_events(m, n, o)).0,
            fm_status::FM_INDEX_OUT_OF_RANGE,
            "argument",
        );
        fails(
            fm_match_apply_legal_events(m, 0, null_mut()),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        fails(
            fm_match_apply_index_events(m, 0, null_mut()),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        fails(
            text_of(|o| fm_match_apply_index_events(m, usize::MAX, o)).0,
            fm_status::FM_ILLEGAL_COMMAND,
            "input",
        );
        fails(
            text_of(|o| fm_match_apply_legal_events(null_mut(), 0, o)).0,
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
    }
    assert_eq!((hash(m), count(m)), (h, k));
    free(m);
}

/// Commands and indices map both ways: the i-th legal command's JSON, an index's
/// command, and a command's index.
#[test]
fn commands_and_indices_map_both_ways() {
    for (name, seed) in [(c"system-demo", 4), (c"huzzah-encounter", 4)] {
        let m = new_named(name, seed);
        // SAFETY: the C API used as documented.
        unsafe {
            let mut n = 0;
            assert_eq!(fm_match_legal_count(m, &mut n), OK);
            let mut idx = vec![0usize; n];
            let mut len = 0;
            assert_eq!(fm_match_legal_indices(m, idx.as_mut_ptr(), n, &mut len), OK);
            let legal: serde_json::Value =
                serde_json::from_str(&json_of(m, fm_match_legal_commands)).unwrap();
            for (i, index) in idx.iter().enumerate() {
                let (_, at) = text_of(|o| fm_match_command_json_at(m, i, o));
                let (_, of_index) = text_of(|o| fm_match_index_command(m, *index, o));
                assert_eq!(at, of_index, "{name:?} {i}");
                let cmd: serde_json::Value = serde_json::from_str(at.as_ref().unwrap()).unwrap();
                assert!(legal.as_array().unwrap().contains(&cmd), "{cmd}");
                let c = CString::new(at.unwrap()).unwrap();
                let (mut found, mut back) = (false, 0usize);
                assert_eq!(fm_match_index_of(m, c.as_ptr(), &mut found, &mut back), OK);
                assert!(found);
                assert_eq!(back, *index);
            }
            fails(
                text_of(|o| fm_match_command_json_at(m, n, o)).0,
                fm_status::FM_INDEX_OUT_OF_RANGE,
                "argument",
            );
            fails(
                text_of(|o| fm_match_index_command(m, usize::MAX, o)).0,
                fm_status::FM_INVALID_ARGUMENT,
                "input",
            );
            let (mut found, mut back) = (true, 7usize);
            for bad in [c"{", c"{\"type\":\"no-such\"}", c"{\"a\":1,\"a\":2}"] {
                fails(
                    fm_match_index_of(m, bad.as_ptr(), &mut found, &mut back),
                    fm_status::FM_INVALID_JSON,
                    "input",
                );
            }
            assert!(found && back == 7, "no output on failure");
            fails(
                fm_match_index_of(m, c"{}".as_ptr(), null_mut(), &mut back),
                fm_status::FM_NULL_ARGUMENT,
                "argument",
            );
        }
        free(m);
    }
    // A command of the system that has no index here: found is false.
    let m = new_match(4);
    let (mut found, mut back) = (true, 7usize);
    // SAFETY: as above.
    unsafe {
        let c = c"{\"type\":\"move\",\"unit\":\"nobody\",\"path\":[\"0101\"]}";
        assert_eq!(fm_match_index_of(m, c.as_ptr(), &mut found, &mut back), OK);
    }
    assert!(!found);
    assert_eq!(back, 0);
    free(m);
}

/// The typed answers: result, decider, the decision's kind in a caller's buffer.
#[test]
fn result_decider_and_kind_without_json() {
    for (name, seed) in [(c"system-demo", 8), (c"huzzah-firefight", 8)] {
        let m = new_named(name, seed);
        // SAFETY: the C API used as documented.
        unsafe {
            for phase in 0..2 {
                let pending: serde_json::Value =
                    serde_json::from_str(&json_of(m, fm_match_pending)).unwrap();
                let mut buf = [0x55u8; 32];
                let mut len = 0;
                assert_eq!(
                    fm_match_decision_kind(m, buf.as_mut_ptr().cast(), buf.len(), &mut len),
                    OK
                );
                let kind = CStr::from_bytes_with_nul(&buf[..len])
                    .unwrap()
                    .to_str()
                    .unwrap();
                assert_eq!(pending["kind"], kind);
                assert_eq!(buf[len], 0x55, "nothing written past the NUL");
                // Too small: the length alone; capacity 0 takes NULL.
                let mut small = [0x55u8; 2];
                let mut need = 0;
                fails(
                    fm_match_decision_kind(m, small.as_mut_ptr().cast(), 2, &mut need),
                    fm_status::FM_BUFFER_TOO_SMALL,
                    "argument",
                );
                assert_eq!((need, small), (len, [0x55; 2]));
                fails(
                    fm_match_decision_kind(m, null_mut(), 0, &mut need),
                    fm_status::FM_BUFFER_TOO_SMALL,
                    "argument",
                );
                fails(
                    fm_match_decision_kind(m, null_mut(), 8, &mut need),
                    fm_status::FM_NULL_ARGUMENT,
                    "argument",
                );
                let mut side = 99;
                assert_eq!(fm_match_decider(m, &mut side), OK);
                let mut result = fm_result::FM_RESULT_DRAW;
                assert_eq!(fm_match_result(m, &mut result), OK);
                let mut winner = fm_winner::FM_WINNER_NONE;
                assert_eq!(fm_match_winner(m, &mut winner), OK);
                if phase == 0 {
                    assert_eq!(result, fm_result::FM_RESULT_ONGOING);
                    let want = if pending["side"] == "a" {
                        FM_SIDE_A
                    } else {
                        FM_SIDE_B
                    };
                    assert_eq!(side, want, "{pending}");
                    let mut n = 0;
                    assert_eq!(fm_match_playout(m, seed, &mut n), OK);
                } else {
                    assert_eq!(kind, "game_over");
                    assert_eq!(side, FM_SIDE_NONE);
                    let want = match winner {
                        fm_winner::FM_WINNER_A => fm_result::FM_RESULT_A_WON,
                        fm_winner::FM_WINNER_B => fm_result::FM_RESULT_B_WON,
                        fm_winner::FM_WINNER_NONE => fm_result::FM_RESULT_DRAW,
                    };
                    assert_eq!(result, want);
                }
            }
            fails(
                fm_match_result(m, null_mut()),
                fm_status::FM_NULL_ARGUMENT,
                "argument",
            );
            fails(
                fm_match_decider(m, null_mut()),
                fm_status::FM_NULL_ARGUMENT,
                "argument",
            );
        }
        free(m);
    }
}

/// explain, reachable, odds, svg, last events and the observation answer as fm-core's
/// match layer does, and each error has its status.
#[test]
fn queries_answer_as_the_match_layer() {
    let m = new_match(6);
    let mut r = fm_core::any::new_match("system-demo", 6).unwrap();
    // SAFETY: the C API used as documented.
    unsafe {
        let mut played = 0;
        while played < 40 {
            let idx = r.legal_indices();
            let i = (played * 5) % idx.len();
            assert_eq!(fm_match_apply_legal(m, i), OK);
            r.apply_index(idx[i]).unwrap();
            played += 1;
        }
        assert_eq!(hash(m), r.state_hash());
        let v =
            |s: Option<String>| -> serde_json::Value { serde_json::from_str(&s.unwrap()).unwrap() };
        // explain
        let legal = r.legal_json()[0].to_string();
        let c = CString::new(legal).unwrap();
        assert_eq!(
            text_of(|o| fm_match_explain(m, c.as_ptr(), o)).1.unwrap(),
            "null"
        );
        let bad = c"{\"type\":\"move\",\"unit\":\"nobody\",\"path\":[\"0101\"]}";
        let why = v(text_of(|o| fm_match_explain(m, bad.as_ptr(), o)).1);
        assert_eq!(why["rule"], "input");
        assert!(why["message"].as_str().unwrap().contains("nobody"));
        fails(
            text_of(|o| fm_match_explain(m, c"{\"type\":1}".as_ptr(), o)).0,
            fm_status::FM_INVALID_JSON,
            "input",
        );
        fails(
            text_of(|o| fm_match_explain(m, null_mut(), o)).0,
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        // reachable
        let unit = r.scenario_json()["units"][0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let cu = CString::new(unit.clone()).unwrap();
        assert_eq!(
            v(text_of(|o| fm_match_reachable(m, cu.as_ptr(), o)).1),
            r.reachable(&unit).unwrap()
        );
        fails(
            text_of(|o| fm_match_reachable(m, c"nobody".as_ptr(), o)).0,
            fm_status::FM_ILLEGAL_COMMAND,
            "input",
        );
        // odds, as each side knows them
        let fm = r.as_any().downcast_ref::<fm_core::Match>().unwrap();
        let hex = fm
            .state()
            .units
            .iter()
            .find_map(|u| u.hex())
            .expect("a unit on the map")
            .to_string();
        let proposal = serde_json::json!({"hex": hex, "attacker_markers": 1});
        let cp = CString::new(proposal.to_string()).unwrap();
        for (side, s) in [(FM_SIDE_A, fm_core::Side::A), (FM_SIDE_B, fm_core::Side::B)] {
            let (st, got) = text_of(|o| fm_match_odds(m, side, cp.as_ptr(), o));
            match r.odds(s, &proposal) {
                Ok(want) => assert_eq!((st, v(got)), (OK, want)),
                Err(e) => panic!("{e}"),
            }
        }
        fails(
            text_of(|o| fm_match_odds(m, FM_SIDE_NONE, cp.as_ptr(), o)).0,
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
        fails(
            text_of(|o| fm_match_odds(m, FM_SIDE_A, c"{\"hex\":\"0101\",\"x\":1}".as_ptr(), o)).0,
            fm_status::FM_INVALID_JSON,
            "input",
        );
        fails(
            text_of(|o| fm_match_odds(m, FM_SIDE_A, c"[".as_ptr(), o)).0,
            fm_status::FM_INVALID_JSON,
            "input",
        );
        // svg: the referee's and a side's
        for (side, s) in [(FM_SIDE_NONE, None), (FM_SIDE_A, Some(fm_core::Side::A))] {
            let (st, svg) = text_of(|o| fm_match_svg(m, side, c"{\"hex_size\":20}".as_ptr(), o));
            assert_eq!(st, OK);
            assert_eq!(
                svg.unwrap(),
                r.svg(s, &serde_json::json!({"hex_size": 20})).unwrap()
            );
        }
        for bad in [c"{\"scale\":2}", c"{\"hex_size\":1}", c"[]", c"{"] {
            fails(
                text_of(|o| fm_match_svg(m, FM_SIDE_NONE, bad.as_ptr(), o)).0,
                fm_status::FM_INVALID_JSON,
                "input",
            );
        }
        fails(
            text_of(|o| fm_match_svg(m, 4, c"{}".as_ptr(), o)).0,
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
        // last events, per side
        for (side, s) in [
            (FM_SIDE_A, Some(fm_core::Side::A)),
            (FM_SIDE_B, Some(fm_core::Side::B)),
            (FM_SIDE_NONE, None),
        ] {
            assert_eq!(
                v(text_of(|o| fm_match_last_events(m, side, o)).1),
                r.last_events_json(s)
            );
        }
        fails(
            text_of(|o| fm_match_last_events(m, 7, o)).0,
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
        // observation: size, spec, the values, a buffer too small
        let mut size = 0;
        assert_eq!(fm_match_observation_size(m, &mut size), OK);
        let spec = v(text_of(|o| fm_match_observation_spec(m, o)).1);
        assert_eq!(
            spec,
            serde_json::to_value(r.observation_spec().unwrap()).unwrap()
        );
        assert_eq!(size, r.observation_spec().unwrap().size());
        for (side, s) in [(FM_SIDE_A, fm_core::Side::A), (FM_SIDE_B, fm_core::Side::B)] {
            let mut out = vec![9f32; size + 1];
            let mut len = 0;
            assert_eq!(
                fm_match_observation(m, side, out.as_mut_ptr(), out.len(), &mut len),
                OK
            );
            assert_eq!(len, size);
            let mut want = vec![0f32; size];
            r.observation(s, &mut want).unwrap();
            assert_eq!(&out[..size], &want[..]);
            assert_eq!(out[size], 9.0);
        }
        let mut small = vec![9f32; size - 1];
        let mut len = 0;
        fails(
            fm_match_observation(m, FM_SIDE_A, small.as_mut_ptr(), small.len(), &mut len),
            fm_status::FM_BUFFER_TOO_SMALL,
            "argument",
        );
        assert_eq!(len, size);
        assert!(small.iter().all(|x| *x == 9.0));
        fails(
            fm_match_observation(m, FM_SIDE_A, null_mut(), 0, &mut len),
            fm_status::FM_BUFFER_TOO_SMALL,
            "argument",
        );
        fails(
            fm_match_observation(m, FM_SIDE_A, null_mut(), 4, &mut len),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        fails(
            fm_match_observation(m, FM_SIDE_NONE, small.as_mut_ptr(), small.len(), &mut len),
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
    }
    assert_eq!(hash(m), r.state_hash(), "queries change nothing");
    free(m);
}

/// A system that does not answer a query says so: FM_UNSUPPORTED, rule "unsupported",
/// naming the query and the system; Huzzah! answers odds, pictures and observations.
#[test]
fn huzzah_queries_and_unsupported_ones() {
    let m = new_named(c"huzzah-firefight", 2);
    // SAFETY: the C API used as documented.
    unsafe {
        let (st, _) = text_of(|o| fm_match_reachable(m, c"x".as_ptr(), o));
        fails(st, fm_status::FM_UNSUPPORTED, "unsupported");
        assert_eq!(
            last_error().0,
            "reachable is not supported by the \"huzzah\" rules system"
        );
        // Huzzah!'s observation: its own layout, the values fm-core writes.
        let mut size = 0;
        assert_eq!(fm_match_observation_size(m, &mut size), OK);
        let r = fm_core::any::new_match("huzzah-firefight", 2).unwrap();
        let spec = text_of(|o| fm_match_observation_spec(m, o)).1.unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&spec).unwrap(),
            serde_json::to_value(r.observation_spec().unwrap()).unwrap()
        );
        assert_eq!(size, r.observation_spec().unwrap().size());
        let mut buf = vec![0f32; size];
        let mut len = 0;
        assert_eq!(
            fm_match_observation(m, FM_SIDE_B, buf.as_mut_ptr(), size, &mut len),
            OK
        );
        let mut want = vec![0f32; size];
        r.observation(fm_core::Side::B, &mut want).unwrap();
        assert_eq!((len, buf), (size, want));
        let mut name = std::ptr::null();
        assert_eq!(fm_status_name(16, &mut name), OK);
        assert_eq!(CStr::from_ptr(name).to_str().unwrap(), "FM_UNSUPPORTED");
        // The table picture, and the odds of a morale test.
        let (st, svg) = text_of(|o| fm_match_svg(m, FM_SIDE_B, c"{\"scale\":3}".as_ptr(), o));
        assert_eq!(st, OK);
        assert!(svg.unwrap().starts_with("<svg"));
        fails(
            text_of(|o| fm_match_svg(m, FM_SIDE_B, c"{\"hex_size\":30}".as_ptr(), o)).0,
            fm_status::FM_INVALID_JSON,
            "input",
        );
        let r = fm_core::any::new_match("huzzah-firefight", 2).unwrap();
        let hz = r
            .as_any()
            .downcast_ref::<fm_core::GameMatch<fm_core::huzzah::Huzzah>>()
            .unwrap();
        let unit = hz.scenario().units()[0].id.to_string();
        let p = CString::new(format!("{{\"morale\":{{\"unit\":\"{unit}\"}}}}")).unwrap();
        let (st, odds) = text_of(|o| fm_match_odds(m, FM_SIDE_A, p.as_ptr(), o));
        assert_eq!(st, OK, "{:?}", last_error());
        let odds: serde_json::Value = serde_json::from_str(&odds.unwrap()).unwrap();
        assert_eq!(
            odds,
            r.odds(
                fm_core::Side::A,
                &serde_json::json!({"morale": {"unit": unit}})
            )
            .unwrap()
        );
        assert!(odds["pass"]["den"].as_u64().unwrap() > 0);
        fails(
            text_of(|o| {
                fm_match_odds(
                    m,
                    FM_SIDE_A,
                    c"{\"morale\":{\"unit\":\"nobody\"}}".as_ptr(),
                    o,
                )
            })
            .0,
            fm_status::FM_ILLEGAL_COMMAND,
            "input",
        );
    }
    free(m);
}

/// A determinized match keeps the side's view, has its own handle, and its save loads.
#[test]
fn determinized_from_c() {
    let m = new_named(c"vimy-ridge", 3);
    // SAFETY: the C API used as documented.
    unsafe {
        let mut n = 0;
        for k in 0..30 {
            assert_eq!(fm_match_legal_count(m, &mut n), OK);
            assert_eq!(fm_match_apply_legal(m, (k * 5) % n), OK);
        }
        for side in [FM_SIDE_A, FM_SIDE_B] {
            let mut d = null_mut();
            assert_eq!(fm_match_determinized(m, side, 11, &mut d), OK);
            let (mut a, mut b) = (0, 0);
            assert_eq!(fm_match_view_hash(m, side, &mut a), OK);
            assert_eq!(fm_match_view_hash(d, side, &mut b), OK);
            assert_eq!(a, b);
            let save = json_of(d, fm_match_save);
            let c = CString::new(save).unwrap();
            let mut back = null_mut();
            assert_eq!(fm_match_load(c.as_ptr(), &mut back), OK);
            assert_eq!(hash(back), hash(d));
            free(back);
            free(d);
        }
        let mut d = null_mut();
        fails(
            fm_match_determinized(m, FM_SIDE_NONE, 1, &mut d),
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
        fails(
            fm_match_determinized(m, FM_SIDE_A, 1, null_mut()),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        assert!(d.is_null());
        // In explicit chance mode with a draw waiting: the drawn match waits for the
        // same draw.
        let mut c = null_mut();
        assert_eq!(fm_match_clone(m, &mut c), OK);
        assert_eq!(fm_match_set_chance_mode(c, true), OK);
        let mut waiting = 0;
        for _ in 0..400 {
            assert_eq!(fm_match_chance_outcomes(c, &mut waiting), OK);
            if waiting > 0 {
                break;
            }
            assert_eq!(fm_match_legal_count(c, &mut n), OK);
            let (st, _) = text_of(|o| fm_match_apply_legal_events(c, n - 1, o));
            assert_eq!(st, OK);
        }
        assert!(waiting > 0, "a draw waits at some point");
        assert_eq!(fm_match_determinized(c, FM_SIDE_A, 1, &mut d), OK);
        let mut drawn_waiting = 0;
        assert_eq!(fm_match_chance_outcomes(d, &mut drawn_waiting), OK);
        assert_eq!(drawn_waiting, waiting);
        free(d);
        free(c);
    }
    free(m);
}

/// The header's version macros are the library's version.
#[test]
fn version_macros_are_the_librarys() {
    let mut v = std::ptr::null();
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { fm_version(&mut v) }, OK);
    // SAFETY: a static string of the library.
    let v = unsafe { CStr::from_ptr(v) }.to_str().unwrap();
    assert_eq!(v, FM_VERSION_STRING);
    assert_eq!(
        v,
        format!("{FM_VERSION_MAJOR}.{FM_VERSION_MINOR}.{FM_VERSION_PATCH}")
    );
}

/// The match layer's remaining queries: system, scenario, seed, outcome, log.
#[test]
fn system_scenario_seed_outcome_and_log() {
    let m = new_named(c"huzzah-encounter", 12);
    let mut r = fm_core::any::new_match("huzzah-encounter", 12).unwrap();
    // SAFETY: the C API used as documented.
    unsafe {
        let v =
            |s: Option<String>| -> serde_json::Value { serde_json::from_str(&s.unwrap()).unwrap() };
        assert_eq!(text_of(|o| fm_match_system(m, o)).1.unwrap(), "huzzah");
        assert_eq!(v(text_of(|o| fm_match_scenario(m, o)).1), r.scenario_json());
        let mut seed = 0;
        assert_eq!(fm_match_seed(m, &mut seed), OK);
        assert_eq!(seed, 12);
        assert_eq!(text_of(|o| fm_match_outcome(m, o)).1.unwrap(), "null");
        for k in 0..12 {
            let idx = r.legal_indices();
            let i = (k * 3) % idx.len();
            assert_eq!(fm_match_apply_legal(m, i), OK);
            r.apply_index(idx[i]).unwrap();
        }
        for from in [0, 5, 12, 99] {
            assert_eq!(
                v(text_of(|o| fm_match_log(m, FM_SIDE_NONE, from, o)).1),
                r.log_json(from)
            );
            assert_eq!(
                v(text_of(|o| fm_match_log(m, FM_SIDE_B, from, o)).1),
                r.side_log_json(fm_core::Side::B, from)
            );
        }
        assert_eq!(
            v(text_of(|o| fm_match_log(m, FM_SIDE_NONE, 5, o)).1)
                .as_array()
                .unwrap()
                .len(),
            7
        );
        fails(
            text_of(|o| fm_match_log(m, 9, 0, o)).0,
            fm_status::FM_INVALID_ARGUMENT,
            "argument",
        );
        let mut n = 0;
        assert_eq!(fm_match_playout(m, 3, &mut n), OK);
        let out = v(text_of(|o| fm_match_outcome(m, o)).1);
        let mut w = fm_winner::FM_WINNER_NONE;
        assert_eq!(fm_match_winner(m, &mut w), OK);
        let want = match w {
            fm_winner::FM_WINNER_A => serde_json::json!("a"),
            fm_winner::FM_WINNER_B => serde_json::json!("b"),
            fm_winner::FM_WINNER_NONE => serde_json::Value::Null,
        };
        assert_eq!(out["winner"], want);
        assert!(!out["reason"].as_str().unwrap().is_empty());
        fails(
            fm_match_seed(m, null_mut()),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
        fails(
            fm_match_system(null_mut(), null_mut()),
            fm_status::FM_NULL_ARGUMENT,
            "argument",
        );
    }
    free(m);
}

/// A spectator through the C ABI (`FM_SIDE_SPECTATOR`): the view, its hash, the last
/// events, the log and the picture are the match layer's spectator answers (those
/// `serve` gives its spectators), never a side's or the referee's; and the log in words
/// for every viewer is `DynMatch::log_words`'s.
#[test]
fn spectators_and_words_through_the_c_abi() {
    use fm_core::Viewer;
    let v = |s: Option<String>| -> serde_json::Value { serde_json::from_str(&s.unwrap()).unwrap() };
    for (name, seed) in [(c"system-demo", 3), (c"huzzah-firefight", 5)] {
        let m = new_named(name, seed);
        let mut r = fm_core::any::new_match(name.to_str().unwrap(), seed).unwrap();
        let (mut hid_from_a, mut hid_from_b) = (false, false);
        // SAFETY: the C API used as documented.
        unsafe {
            for k in 0..60 {
                if r.is_over() {
                    break;
                }
                let idx = r.legal_indices();
                let i = (k * 7 + 3) % idx.len();
                assert_eq!(fm_match_apply_legal(m, i), OK);
                r.apply_index(idx[i]).unwrap();
                let view = v(text_of(|o| fm_match_view(m, FM_SIDE_SPECTATOR, o)).1);
                assert_eq!(view, r.spectator_view_json().unwrap());
                // The views name their viewer (`side`): compare what they show.
                let shown = |mut x: serde_json::Value| {
                    x.as_object_mut().map(|o| o.remove("side"));
                    x
                };
                hid_from_a |= shown(view.clone()) != shown(r.view_json(fm_core::Side::A));
                hid_from_b |= shown(view.clone()) != shown(r.view_json(fm_core::Side::B));
                let mut h = 0;
                assert_eq!(fm_match_view_hash(m, FM_SIDE_SPECTATOR, &mut h), OK);
                assert_eq!(h, r.spectator_view_hash().unwrap());
                assert_eq!(
                    v(text_of(|o| fm_match_last_events(m, FM_SIDE_SPECTATOR, o)).1),
                    r.spectator_last_events_json()
                );
            }
            for from in [0, 5, 99] {
                assert_eq!(
                    v(text_of(|o| fm_match_log(m, FM_SIDE_SPECTATOR, from, o)).1),
                    r.spectator_log_json(from).unwrap()
                );
                for (side, viewer) in [
                    (FM_SIDE_NONE, None),
                    (FM_SIDE_A, Some(Viewer::A)),
                    (FM_SIDE_B, Some(Viewer::B)),
                    (FM_SIDE_SPECTATOR, Some(Viewer::Spectator)),
                ] {
                    let got = v(text_of(|o| fm_match_log_words(m, side, from, o)).1);
                    let want = r.log_words(viewer, from).unwrap();
                    assert_eq!(got["opening"], serde_json::json!(want.opening));
                    assert_eq!(got["commands"], serde_json::json!(want.commands));
                    assert_eq!(
                        got["commands"].as_array().unwrap().len(),
                        r.log_len().saturating_sub(from)
                    );
                    if from == 0 {
                        assert!(!want.opening.is_empty(), "{name:?}: no words");
                    }
                }
            }
            let svg = text_of(|o| fm_match_svg(m, FM_SIDE_SPECTATOR, c"{}".as_ptr(), o)).1;
            assert_eq!(
                svg.unwrap(),
                r.spectator_svg(&serde_json::json!({})).unwrap()
            );
            fails(
                text_of(|o| fm_match_log_words(m, 4, 0, o)).0,
                fm_status::FM_INVALID_ARGUMENT,
                "argument",
            );
            fails(
                fm_match_log_words(m, FM_SIDE_NONE, 0, null_mut()),
                fm_status::FM_NULL_ARGUMENT,
                "argument",
            );
            // A spectator is no player: the view is a viewer's, not the referee's.
            fails(
                text_of(|o| fm_match_view(m, FM_SIDE_NONE, o)).0,
                fm_status::FM_INVALID_ARGUMENT,
                "argument",
            );
            fails(
                text_of(|o| fm_match_export(m, FM_SIDE_SPECTATOR, o)).0,
                fm_status::FM_INVALID_ARGUMENT,
                "argument",
            );
        }
        if name == c"system-demo" {
            // Each side's unused markers are its secret (rule 7.2): a spectator sees
            // neither side's, so its view differs from each side's own.
            assert!(
                hid_from_a && hid_from_b,
                "the spectator saw a side's secrets"
            );
        }
        free(m);
    }
}
