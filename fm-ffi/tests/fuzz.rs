//! Fuzz harness (issue 13, "Tests that keep it so"): mutated inputs, on the stable
//! toolchain with proptest, against every untrusted-input entry point:
//!
//! - `serve` request lines (`Server::serve_with_limit` over a whole session);
//! - scenario JSON (`Scenario::from_json`, and `fm_match_from_json` of the C ABI);
//! - save files (`Match::load`, and `fm_match_load`);
//! - command JSON (`fm_match_apply`).
//!
//! The corpora are seeded from the built-in scenarios, saves of short games of each and
//! of a whole system-demo game, their commands, and a serve session using every
//! request. Each case applies one to four mutations: byte flips, truncation, deletion,
//! splicing in a piece of another corpus entry, JSON tokens, a duplicated key, deep
//! nesting, huge or odd numbers, and unicode (escapes, lone surrogates, a BOM, NUL,
//! invalid UTF-8).
//!
//! Every case asserts: no panic (a C call never returns `FM_PANIC` or `FM_POISONED`), no
//! hang (each case runs on a worker thread with a deadline, `FM_FUZZ_CASE_SECS`,
//! default 20 s), well-formed errors (a status the function documents, a non-empty
//! last error and untouched out-parameters; for serve, `{"error":{"rule","message"}}`
//! with non-empty strings, and never rule `"panic"`), nothing changed by a refusal, and
//! for serve exactly one reply per line that is not blank (up to `quit`). Whatever is
//! accepted must round-trip: a scenario that loads gives a match whose save loads; a
//! save that loads saves to a text that loads to the same state.
//!
//! By default each target runs `FM_FUZZ_CASES` = 256 cases (about a second) from a fixed
//! seed, so CI runs are reproducible. Run longer, or from another seed, with
//!
//! ```text
//! FM_FUZZ_CASES=100000 PROPTEST_RNG_SEED=7 cargo test --release -p fm-ffi --test suite fuzz::
//! ```
//!
//! A failure prints the shrunk case (corpus entry and mutations) and the input.

use fm::protocol::{ServeEnd, Server, MAX_LINE_BYTES};
use fm::*;
use fm_core::{agents, Match, Scenario};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{json, Value};
use std::ffi::{c_char, CStr, CString};
use std::ptr::null_mut;
use std::sync::OnceLock;
use std::time::Duration;

/// Cases per target: `FM_FUZZ_CASES`, default 256.
fn cases() -> u32 {
    std::env::var("FM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Deadline of one case: `FM_FUZZ_CASE_SECS`, default 20 s (a debug build on a busy
/// machine; a case normally takes milliseconds).
fn case_deadline() -> Duration {
    let secs = std::env::var("FM_FUZZ_CASE_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    Duration::from_secs(secs)
}

/// A fixed generator seed unless `PROPTEST_RNG_SEED` is set; no regression files (pin
/// a failing input as an explicit test instead).
fn runner(salt: u64) -> TestRunner {
    let base = Config::default();
    let rng_seed = match base.rng_seed {
        RngSeed::Random if std::env::var_os("PROPTEST_RNG_SEED").is_none() => {
            RngSeed::Fixed(0x00f1_f022_0000_0000 ^ salt)
        }
        s => s,
    };
    TestRunner::new(Config {
        cases: cases(),
        rng_seed,
        failure_persistence: None,
        max_shrink_iters: 256,
        ..base
    })
}

/// Runs `f` on a worker thread and fails if it takes longer than the case deadline
/// (the thread is left behind: the test fails anyway). A panic in `f` is a failure.
fn within<T: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> Result<T, TestCaseError> + Send + 'static,
) -> Result<T, TestCaseError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(case_deadline()) {
        Ok(Ok(r)) => r,
        Ok(Err(p)) => {
            let m = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(TestCaseError::fail(format!("{what}: panicked: {m}")))
        }
        Err(_) => Err(TestCaseError::fail(format!(
            "{what}: no answer within {:?} (a hang?)",
            case_deadline()
        ))),
    }
}

// ---------------------------------------------------------------------------------------
// Corpora

struct Corpus {
    scenarios: Vec<Vec<u8>>,
    saves: Vec<Vec<u8>>,
    commands: Vec<Vec<u8>>,
    /// Serve requests, one line each.
    requests: Vec<Vec<u8>>,
    /// A mid-game system-demo match for command fuzzing, as a save.
    mid_game: String,
}

/// A match after `n` random commands (or to its end).
fn played(name: &str, seed: u64, n: usize) -> Match {
    let mut m = Match::new_builtin(name, seed).unwrap();
    let mut rng = fm_core::rng_from_seed(seed + 1000);
    for _ in 0..n {
        let Some(c) = agents::random(m.scenario(), m.state(), &mut rng) else {
            break;
        };
        m.apply(&c).unwrap();
    }
    m
}

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let mut scenarios = Vec::new();
        let mut saves = Vec::new();
        let mut commands = Vec::new();
        for name in Scenario::builtin_names() {
            let sc = Scenario::builtin(name).unwrap();
            scenarios.push(sc.to_json().into_bytes());
            scenarios.push(serde_json::to_vec(&sc.data).unwrap());
            for (seed, n) in [(1, 0), (2, 6), (3, 40)] {
                let m = played(name, seed, n);
                saves.push(m.save().into_bytes());
                for e in m.log().iter().take(12) {
                    commands.push(serde_json::to_vec(&e.command).unwrap());
                }
            }
        }
        saves.push(played("system-demo", 4, usize::MAX).save().into_bytes());
        let mid = played("system-demo", 5, 30);
        for c in mid.legal_commands().iter().take(20) {
            commands.push(serde_json::to_vec(c).unwrap());
        }
        commands.push(br#"{"type":"done"}"#.to_vec());
        let small_save: Value = serde_json::from_str(&played("system-demo", 6, 5).save()).unwrap();
        let demo = serde_json::to_value(&Scenario::builtin("system-demo").unwrap().data).unwrap();
        let first = serde_json::to_value(&mid.legal_commands()[0]).unwrap();
        let requests: Vec<Vec<u8>> = [
            json!({"cmd":"hello","id":1}),
            json!({"cmd":"scenarios"}),
            json!({"cmd":"new","scenario":"system-demo","seed":3,"id":"n"}),
            json!({"cmd":"new","scenario":"vimy-ridge","seed":"18446744073709551615"}),
            json!({"cmd":"new","scenario_json":demo,"seed":1}),
            json!({"cmd":"legal","id":[1,2]}),
            json!({"cmd":"pending"}),
            json!({"cmd":"state"}),
            json!({"cmd":"view","side":"a"}),
            json!({"cmd":"seat","side":"b"}),
            json!({"cmd":"export","side":"b"}),
            json!({"cmd":"log","since":0}),
            json!({"cmd":"save"}),
            json!({"cmd":"load","save":small_save}),
            json!({"cmd":"load","save":small_save.to_string()}),
            json!({"cmd":"undo"}),
            json!({"cmd":"apply","command":first}),
            json!({"cmd":"apply","command":first.to_string()}),
            json!({"cmd":"apply","command":{"type":"done"},"id":{"k":"v"}}),
            json!({"cmd":"view","seat":"a-0000","side":"a"}),
            json!({"cmd":"legal","form":"indices"}),
            json!({"cmd":"legal","form":"by_unit","delta":true}),
            json!({"cmd":"legal","unit":"red-militia-bn"}),
            json!({"cmd":"view","side":"b","delta":true}),
            json!({"cmd":"state","delta":true}),
            json!({"cmd":"apply","index":3}),
            json!({"cmd":"bind","token":"a-0000","notify":true}),
            json!({"cmd":"think","time_ms":5,"config":{"iterations":2}}),
            json!({"cmd":"scenario"}),
            json!({"cmd":"svg","side":"a","options":{"hex_size":12,"highlight":["1104"]}}),
            json!({"cmd":"reachable","unit":"red-militia-bn"}),
            json!({"cmd":"odds","side":"b","proposal":{"hex":"1104","units":[]}}),
            json!({"cmd":"explain","command":first}),
            json!({"cmd":"quit"}),
        ]
        .iter()
        .map(|v| serde_json::to_vec(v).unwrap())
        .collect();
        Corpus {
            scenarios,
            saves,
            commands,
            requests,
            mid_game: mid.save(),
        }
    })
}

// ---------------------------------------------------------------------------------------
// Mutations

/// JSON tokens and fragments to insert.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "null",
    "true",
    "-",
    "0",
    ".",
    "e",
    " ",
    "\t",
    "\r",
    "\n",
    "{}",
    "[]",
    "\"\":",
    ",,",
    "\"cmd\":\"quit\",",
    "\"id\":",
    "\"seat\":\"x\",",
    "\"type\":\"done\",",
    "\"format\":1,",
];

/// Numbers to put in place of a number of the input.
const NUMBERS: &[&str] = &[
    "1e999999",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "18446744073709551616",
    "18446744073709551615",
    "0.0000000000000000000000001",
    "1E400",
    "-0",
    "1.5",
    "-1",
    "4294967296",
    "65536",
    "256",
];

/// Unicode and byte oddities to insert.
const UNICODE: &[&[u8]] = &[
    "é".as_bytes(),
    "\u{2022}".as_bytes(),
    "\u{FEFF}".as_bytes(),
    "\u{10FFFF}".as_bytes(),
    "\u{2028}".as_bytes(),
    "\u{3000}".as_bytes(),
    br"\ud800",
    br"\udfff\ud800",
    br"\u0000",
    br"\u00",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
];

/// A position or a choice: taken modulo the number of choices (shrinks toward the
/// first).
#[derive(Clone, Copy, Debug)]
struct At(u32);

impl At {
    fn index(&self, n: usize) -> usize {
        self.0 as usize % n
    }
}

fn at() -> impl Strategy<Value = At> {
    any::<u32>().prop_map(At)
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(At, u8),
    Truncate(At),
    Delete(At, u16),
    /// Inserts a piece of another entry of the same corpus.
    Splice {
        other: At,
        from: At,
        len: u16,
        to: At,
    },
    Token(At, At),
    /// Repeats the first key of an object before it (`{"a":1}` → `{"a":0,"a":1}`).
    DuplicateKey(At),
    /// Nests arrays `depth` deep at a member (`{"a":1}` → `{"a":[[…]],"fuzz":1}`).
    DeepNest(At, usize),
    Number(At, At),
    Unicode(At, At),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (at(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        at().prop_map(Mutation::Truncate),
        (at(), 1u16..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (at(), at(), 1u16..256, at()).prop_map(|(other, from, len, to)| Mutation::Splice {
            other,
            from,
            len,
            to
        }),
        (at(), at()).prop_map(|(i, t)| Mutation::Token(i, t)),
        at().prop_map(Mutation::DuplicateKey),
        (
            at(),
            prop_oneof![
                Just(10usize),
                Just(127),
                Just(128),
                Just(129),
                Just(5000),
                Just(200_000)
            ]
        )
            .prop_map(|(i, d)| Mutation::DeepNest(i, d)),
        (at(), at()).prop_map(|(i, n)| Mutation::Number(i, n)),
        (at(), at()).prop_map(|(i, u)| Mutation::Unicode(i, u)),
    ]
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..=4)
}

/// Positions in `data` where `pred(data, i)` holds.
fn positions(data: &[u8], pred: impl Fn(&[u8], usize) -> bool) -> Vec<usize> {
    (0..data.len()).filter(|&i| pred(data, i)).collect()
}

/// The end (exclusive) of the JSON string starting at `data[start] == b'"'`.
fn string_end(data: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < data.len() {
        match data[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn apply(data: &mut Vec<u8>, m: &Mutation, others: &[Vec<u8>]) {
    let at = |i: &At, d: &Vec<u8>| i.index(d.len() + 1);
    match m {
        Mutation::Flip(i, bit) => {
            if !data.is_empty() {
                let p = i.index(data.len());
                data[p] ^= 1 << bit;
            }
        }
        Mutation::Truncate(i) => {
            let p = at(i, data);
            data.truncate(p);
        }
        Mutation::Delete(i, n) => {
            let p = at(i, data);
            let end = (p + *n as usize).min(data.len());
            data.drain(p..end);
        }
        Mutation::Splice {
            other,
            from,
            len,
            to,
        } => {
            let src = &others[other.index(others.len())];
            let s = from.index(src.len() + 1);
            let e = (s + *len as usize).min(src.len());
            let p = at(to, data);
            data.splice(p..p, src[s..e].iter().copied());
        }
        Mutation::Token(i, t) => {
            let p = at(i, data);
            let tok = TOKENS[t.index(TOKENS.len())].as_bytes();
            data.splice(p..p, tok.iter().copied());
        }
        Mutation::DuplicateKey(i) => {
            let objs = positions(data, |d, k| d[k] == b'{' && d.get(k + 1) == Some(&b'"'));
            if objs.is_empty() {
                return;
            }
            let p = objs[i.index(objs.len())];
            if let Some(end) = string_end(data, p + 1) {
                let mut ins = data[p + 1..end].to_vec();
                ins.extend_from_slice(b":0,");
                data.splice(p + 1..p + 1, ins);
            }
        }
        Mutation::DeepNest(i, depth) => {
            let members = positions(data, |d, k| d[k] == b'"' && d.get(k + 1) == Some(&b':'));
            if members.is_empty() {
                return;
            }
            let p = members[i.index(members.len())] + 2;
            let mut ins = vec![b'['; *depth];
            ins.extend(vec![b']'; *depth]);
            ins.extend_from_slice(b",\"fuzz\":");
            data.splice(p..p, ins);
        }
        Mutation::Number(i, n) => {
            let starts = positions(data, |d, k| {
                d[k].is_ascii_digit() && (k == 0 || !d[k - 1].is_ascii_alphanumeric())
            });
            if starts.is_empty() {
                return;
            }
            let s = starts[i.index(starts.len())];
            let mut e = s;
            while e < data.len() && (data[e].is_ascii_digit() || b".eE+-".contains(&data[e])) {
                e += 1;
            }
            let num = NUMBERS[n.index(NUMBERS.len())].as_bytes();
            data.splice(s..e, num.iter().copied());
        }
        Mutation::Unicode(i, u) => {
            let p = at(i, data);
            let bytes = UNICODE[u.index(UNICODE.len())];
            data.splice(p..p, bytes.iter().copied());
        }
    }
}

/// An entry of `corpus` with `muts` applied.
fn mutated(corpus: &[Vec<u8>], pick: &At, muts: &[Mutation]) -> Vec<u8> {
    let mut data = corpus[pick.index(corpus.len())].clone();
    for m in muts {
        apply(&mut data, m, corpus);
    }
    data
}

/// The input abridged for a failure message.
fn shown(data: &[u8]) -> String {
    let s = String::from_utf8_lossy(data);
    if s.chars().count() > 400 {
        format!(
            "{}… ({} bytes)",
            s.chars().take(400).collect::<String>(),
            data.len()
        )
    } else {
        s.into_owned()
    }
}

// ---------------------------------------------------------------------------------------
// The C ABI, called as C would

/// A C string of the input: up to its first NUL (C cannot pass more).
fn c_string(data: &[u8]) -> CString {
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    CString::new(&data[..end]).unwrap()
}

fn take(p: *mut c_char) -> String {
    // SAFETY: a string returned by fm, freed once here.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    // SAFETY: as above.
    assert_eq!(unsafe { fm_string_free(p) }, fm_status::FM_OK);
    s
}

/// The last error of this thread: (message, rule).
fn last_error() -> (String, String) {
    let (mut m, mut r) = (null_mut(), null_mut());
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(fm_last_error_message(&mut m), fm_status::FM_OK);
        assert_eq!(fm_last_error_rule(&mut r), fm_status::FM_OK);
    }
    (take(m), take(r))
}

/// Checks a failed C call: a documented status, a last error with a message and a
/// rule.
fn check_failure(st: fm_status, allowed: &[fm_status], input: &[u8]) -> Result<(), TestCaseError> {
    prop_assert!(
        allowed.contains(&st),
        "status {st:?} (allowed {allowed:?}) for {}",
        shown(input)
    );
    let (msg, rule) = last_error();
    prop_assert!(
        !msg.is_empty() && !rule.is_empty(),
        "empty last error for {st:?}"
    );
    Ok(())
}

fn save_of(m: *const fm_match) -> String {
    let mut out = null_mut();
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { fm_match_save(m, &mut out) }, fm_status::FM_OK);
    take(out)
}

// ---------------------------------------------------------------------------------------
// Targets

/// What a reply line must look like; returns whether it is `{"bye":true}`.
fn check_reply(line: &str) -> Result<bool, TestCaseError> {
    prop_assert!(!line.contains('\r'), "a reply holds a CR: {line}");
    let v: Value = serde_json::from_str(line)
        .map_err(|e| TestCaseError::fail(format!("reply is not JSON ({e}): {line}")))?;
    let obj = v
        .as_object()
        .ok_or_else(|| TestCaseError::fail(format!("reply is not an object: {line}")))?;
    if let Some(err) = obj.get("error") {
        let rule = err["rule"].as_str().unwrap_or("");
        let message = err["message"].as_str().unwrap_or("");
        prop_assert!(!rule.is_empty() && !message.is_empty(), "bad error: {line}");
        prop_assert!(rule != "panic", "the engine panicked: {line}");
        prop_assert!(
            obj.keys().all(|k| k == "error" || k == "id"),
            "an error reply with other fields: {line}"
        );
        prop_assert_eq!(err.as_object().map(|o| o.len()), Some(2), "{}", line);
    }
    Ok(v == json!({"bye": true}))
}

/// Whether the server ignores a line (blank, after its CR).
fn blank(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|s| s.trim().is_empty())
}

#[test]
fn fuzz_serve_lines() {
    let c = corpus();
    let strategy = (
        prop::option::of(2usize..5),
        prop::collection::vec((at(), mutations(), any::<bool>()), 1..6),
        prop_oneof![Just(MAX_LINE_BYTES), Just(4096usize)],
    );
    runner(1)
        .run(&strategy, |(start, lines, limit)| {
            // A session: perhaps a `new` first, then mutated requests (some left intact).
            let mut input = Vec::new();
            if let Some(k) = start {
                input.extend_from_slice(&c.requests[k]);
                input.push(b'\n');
            }
            for (pick, muts, keep) in &lines {
                let line = if *keep {
                    c.requests[pick.index(c.requests.len())].clone()
                } else {
                    mutated(&c.requests, pick, muts)
                };
                input.extend_from_slice(&line);
                input.push(b'\n');
            }
            let shown_input = shown(&input);
            let (end, out) = within("serve", {
                let input = input.clone();
                move || {
                    let mut out = Vec::new();
                    let end = Server::new()
                        .serve_with_limit(&input[..], &mut out, limit)
                        .expect("reading a slice cannot fail");
                    Ok((end, out))
                }
            })?;
            let replies = std::str::from_utf8(&out).expect("replies are UTF-8");
            let replies: Vec<&str> = replies.lines().collect();
            // The lines the server answers: split at LF, CR stripped, blanks skipped.
            let expected: Vec<&[u8]> = input
                .split(|&b| b == b'\n')
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
                .filter(|l| !blank(l))
                .collect();
            let mut quit = false;
            for r in &replies {
                prop_assert!(!quit, "a reply after quit");
                quit = check_reply(r)?;
            }
            if quit {
                prop_assert_eq!(end, ServeEnd::Quit);
                prop_assert!(replies.len() <= expected.len());
            } else {
                prop_assert_eq!(end, ServeEnd::EndOfInput);
                prop_assert_eq!(
                    replies.len(),
                    expected.len(),
                    "one reply per line for {}",
                    shown_input
                );
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn fuzz_scenario_json() {
    let c = corpus();
    runner(2)
        .run(&(at(), mutations()), |(pick, muts)| {
            let data = mutated(&c.scenarios, &pick, &muts);
            within("scenario", move || {
                let text = String::from_utf8_lossy(&data).into_owned();
                match Scenario::from_json(&text) {
                    Err(e) => prop_assert!(!e.message.is_empty(), "empty scenario error"),
                    Ok(sc) => {
                        // Accepted: a match of it saves and loads (when its id is a
                        // built-in's, only if it is that built-in).
                        if sc.data.check_builtin_id().is_ok() {
                            let m = Match::new(std::sync::Arc::new(sc), 1);
                            let back = Match::load(&m.save());
                            prop_assert!(back.is_ok(), "its save does not load: {:?}", back.err());
                        }
                    }
                }
                let json = c_string(&data);
                let mut out = null_mut();
                // SAFETY: a C string and a valid out-pointer.
                let st = unsafe { fm_match_from_json(json.as_ptr(), 1, &mut out) };
                if st == fm_status::FM_OK {
                    let save = CString::new(save_of(out)).unwrap();
                    let mut again = null_mut();
                    // SAFETY: as above.
                    let st2 = unsafe { fm_match_load(save.as_ptr(), &mut again) };
                    prop_assert_eq!(st2, fm_status::FM_OK, "{:?}", last_error());
                    // SAFETY: live handles, freed once.
                    unsafe {
                        fm_match_free(again);
                        fm_match_free(out);
                    }
                } else {
                    prop_assert!(out.is_null());
                    use fm_status::*;
                    check_failure(
                        st,
                        &[FM_INVALID_JSON, FM_INVALID_SCENARIO, FM_INVALID_UTF8],
                        &data,
                    )?;
                }
                Ok(())
            })
        })
        .unwrap();
}

#[test]
fn fuzz_save_files() {
    let c = corpus();
    runner(3)
        .run(&(at(), mutations()), |(pick, muts)| {
            let data = mutated(&c.saves, &pick, &muts);
            within("save", move || {
                let text = String::from_utf8_lossy(&data).into_owned();
                match Match::load(&text) {
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                    Ok(m) => {
                        // Accepted: it saves to a text that loads to the same state.
                        let again = Match::load(&m.save()).map_err(|e| {
                            TestCaseError::fail(format!("its save does not load: {e}"))
                        })?;
                        prop_assert_eq!(again.state(), m.state());
                    }
                }
                let json = c_string(&data);
                let mut out = null_mut();
                // SAFETY: a C string and a valid out-pointer.
                let st = unsafe { fm_match_load(json.as_ptr(), &mut out) };
                if st == fm_status::FM_OK {
                    // SAFETY: a live handle, freed once.
                    unsafe { fm_match_free(out) };
                } else {
                    prop_assert!(out.is_null());
                    use fm_status::*;
                    check_failure(
                        st,
                        &[
                            FM_INVALID_JSON,
                            FM_INVALID_SCENARIO,
                            FM_INVALID_SAVE,
                            FM_INVALID_UTF8,
                        ],
                        &data,
                    )?;
                }
                Ok(())
            })
        })
        .unwrap();
}

#[test]
fn fuzz_c_commands() {
    let c = corpus();
    let mid = CString::new(c.mid_game.clone()).unwrap();
    let mut m = null_mut();
    // SAFETY: a C string and a valid out-pointer.
    assert_eq!(
        unsafe { fm_match_load(mid.as_ptr(), &mut m) },
        fm_status::FM_OK
    );
    struct Handle(*mut fm_match);
    // SAFETY (test): each case's worker thread uses its own clone, one at a time.
    unsafe impl Send for Handle {}
    unsafe impl Sync for Handle {}
    let base = std::sync::Arc::new(Handle(m));
    runner(4)
        .run(&(at(), mutations()), |(pick, muts)| {
            let data = mutated(&c.commands, &pick, &muts);
            let base = base.clone();
            within("command", move || {
                let mut h = null_mut();
                // SAFETY: a live handle and a valid out-pointer.
                prop_assert_eq!(unsafe { fm_match_clone(base.0, &mut h) }, fm_status::FM_OK);
                let before = save_of(h);
                let json = c_string(&data);
                let mut events = null_mut();
                // SAFETY: a live handle, a C string and a valid out-pointer.
                let st = unsafe { fm_match_apply(h, json.as_ptr(), &mut events) };
                if st == fm_status::FM_OK {
                    let ev: Value = serde_json::from_str(&take(events)).unwrap();
                    prop_assert!(ev.is_array());
                } else {
                    prop_assert!(events.is_null());
                    use fm_status::*;
                    check_failure(
                        st,
                        &[FM_INVALID_JSON, FM_ILLEGAL_COMMAND, FM_INVALID_UTF8],
                        &data,
                    )?;
                    prop_assert_eq!(save_of(h), before, "a refused command changed the match");
                }
                // SAFETY: a live handle, freed once.
                unsafe { fm_match_free(h) };
                Ok(())
            })
        })
        .unwrap();
    // SAFETY: the base handle, freed once, after every case.
    unsafe { fm_match_free(base.0) };
}

/// The mutators themselves do what they say.
#[test]
fn the_mutators() {
    let mut d = br#"{"a":1,"b":[2]}"#.to_vec();
    apply(&mut d, &Mutation::DuplicateKey(At(0)), &[]);
    assert_eq!(d, br#"{"a":0,"a":1,"b":[2]}"#);
    let mut d = br#"{"a":1}"#.to_vec();
    apply(&mut d, &Mutation::DeepNest(At(0), 2), &[]);
    assert_eq!(d, br#"{"a":[[]],"fuzz":1}"#);
    let mut d = br#"{"a":12.5e3}"#.to_vec();
    apply(&mut d, &Mutation::Number(At(0), At(0)), &[]);
    assert_eq!(d, br#"{"a":1e999999}"#);
}
