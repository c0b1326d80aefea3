//! A second rules system through the same C functions and the same serve requests
//! (issue 14): the toy race of `tests/support/race.rs`, registered with the match layer,
//! is created by `fm_match_new("race-to-10")` and `{"cmd":"new","scenario":"race-to-10"}`
//! and played, saved, loaded, cloned and undone through them; no C function or serve
//! request knows which system it is.

#[path = "../../tests/support/race.rs"]
mod race;

use fm::protocol::Server;
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

fn json(
    m: *const fm_match,
    f: unsafe extern "C" fn(*const fm_match, *mut *mut c_char) -> fm_status,
) -> serde_json::Value {
    let mut out = null_mut();
    // SAFETY: a live handle and a valid out-pointer.
    assert_eq!(unsafe { f(m, &mut out) }, OK);
    serde_json::from_str(&take(out)).unwrap()
}

#[test]
fn the_race_through_the_c_abi() {
    race::register();
    let mut names = null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { fm_scenario_names(&mut names) }, OK);
    let names: Vec<String> = serde_json::from_str(&take(names)).unwrap();
    assert!(names.contains(&"race-to-10".to_string()), "{names:?}");
    let mut m = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { fm_match_new(c"race-to-10".as_ptr(), 7, &mut m) },
        OK
    );
    assert_eq!(json(m, fm_match_pending)["kind"], "turn");
    // Half the game through JSON commands, the rest through the fast path.
    let mut over = false;
    let mut n = 0;
    while !over {
        if n < 6 {
            let legal = json(m, fm_match_legal_commands);
            let cmd = CString::new(legal[n % legal.as_array().unwrap().len()].to_string()).unwrap();
            let mut ev = null_mut();
            // SAFETY: valid pointers.
            assert_eq!(unsafe { fm_match_apply(m, cmd.as_ptr(), &mut ev) }, OK);
            assert!(take(ev).starts_with('['));
        } else {
            let mut count = 0;
            // SAFETY: valid pointers.
            assert_eq!(unsafe { fm_match_legal_count(m, &mut count) }, OK);
            // SAFETY: a live handle.
            assert_eq!(unsafe { fm_match_apply_legal(m, n % count) }, OK);
        }
        n += 1;
        // SAFETY: valid pointers.
        assert_eq!(unsafe { fm_match_is_over(m, &mut over) }, OK);
    }
    let mut w = fm_winner::FM_WINNER_NONE;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_winner(m, &mut w) }, OK);
    assert_ne!(w, fm_winner::FM_WINNER_NONE);
    // Save, load, compare; a command the race does not have is refused.
    let save = json(m, fm_match_save);
    assert_eq!(save["system"], "race");
    let text = CString::new(save.to_string()).unwrap();
    let mut back = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_load(text.as_ptr(), &mut back) }, OK);
    let (mut h1, mut h2) = (0u64, 0u64);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(fm_match_state_hash(m, &mut h1), OK);
        assert_eq!(fm_match_state_hash(back, &mut h2), OK);
    }
    assert_eq!(h1, h2);
    let mut undone = false;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_undo(back, &mut undone) }, OK);
    assert!(undone);
    let bad = CString::new(r#"{"type":"move","unit":"x","path":[]}"#).unwrap();
    let mut ev = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { fm_match_apply(back, bad.as_ptr(), &mut ev) },
        fm_status::FM_INVALID_JSON
    );
    let mut copy = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_clone(back, &mut copy) }, OK);
    let rec = {
        let mut out = null_mut();
        // SAFETY: valid pointers.
        assert_eq!(unsafe { fm_match_export(copy, FM_SIDE_A, &mut out) }, OK);
        take(out)
    };
    assert!(!rec.contains("\"seed\""));
    // From scenario JSON naming its system.
    let sc = CString::new(r#"{"system":"race","id":"race-to-6","target":6}"#).unwrap();
    let mut six = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_from_json(sc.as_ptr(), 1, &mut six) }, OK);
    let mut played = 0;
    // SAFETY: valid pointers.
    assert_eq!(unsafe { fm_match_playout(six, 3, &mut played) }, OK);
    assert!(played > 0);
    // The queries: the race keeps the trait's defaults (explain answers; no picture,
    // no odds, no reachable hexes, no observation: FM_UNSUPPORTED naming the query).
    // SAFETY: valid pointers.
    unsafe {
        let mut out = null_mut();
        assert_eq!(
            fm_match_explain(copy, c"{\"type\":\"roll\"}".as_ptr(), &mut out),
            OK
        );
        assert_eq!(take(out), "null");
        let mut kind = [0u8; 32];
        let mut len = 0;
        assert_eq!(
            fm_match_decision_kind(copy, kind.as_mut_ptr().cast(), 32, &mut len),
            OK
        );
        assert_eq!(&kind[..len], b"turn\0");
        out = null_mut();
        for st in [
            fm_match_svg(copy, FM_SIDE_NONE, c"{}".as_ptr(), &mut out),
            fm_match_odds(copy, FM_SIDE_A, c"{}".as_ptr(), &mut out),
            fm_match_reachable(copy, c"x".as_ptr(), &mut out),
            fm_match_observation_spec(copy, &mut out),
        ] {
            assert_eq!(st, fm_status::FM_UNSUPPORTED);
        }
        assert!(out.is_null());
        let mut msg = null_mut();
        assert_eq!(fm_last_error_message(&mut msg), OK);
        assert_eq!(
            take(msg),
            "observation is not supported by the \"race\" rules system"
        );
        // No spectator views: every spectator's query says so, even an empty log's.
        let mut h = 0;
        for st in [
            fm_match_view(six, FM_SIDE_SPECTATOR, &mut out),
            fm_match_view_hash(six, FM_SIDE_SPECTATOR, &mut h),
            fm_match_last_events(six, FM_SIDE_SPECTATOR, &mut out),
            fm_match_log(six, FM_SIDE_SPECTATOR, 1000, &mut out),
            fm_match_log_words(six, FM_SIDE_SPECTATOR, 0, &mut out),
            fm_match_svg(six, FM_SIDE_SPECTATOR, c"{}".as_ptr(), &mut out),
        ] {
            assert_eq!(st, fm_status::FM_UNSUPPORTED);
        }
        assert!(out.is_null());
        // Words: the race has none, so each command's list is empty.
        assert_eq!(fm_match_log_words(six, FM_SIDE_A, 0, &mut out), OK);
        let words: serde_json::Value = serde_json::from_str(&take(out)).unwrap();
        let commands = words["commands"].as_array().unwrap();
        assert_eq!(commands.len(), played);
        assert!(commands.iter().all(|c| c.as_array().unwrap().is_empty()));
    }
    for h in [m, back, copy, six] {
        // SAFETY: live handles, freed once.
        assert_eq!(unsafe { fm_match_free(h) }, OK);
    }
}

#[test]
fn the_race_through_serve() {
    race::register();
    let mut s = Server::new();
    let mut ask = |line: &str| -> serde_json::Value {
        serde_json::from_str(&s.handle_line(line).expect("a reply").line).unwrap()
    };
    let v = ask(r#"{"cmd":"new","scenario":"race-to-10","seed":2}"#);
    assert_eq!(v["pending"]["kind"], "turn", "{v}");
    let seat = ask(r#"{"cmd":"seat","side":"a"}"#)["seat"]
        .as_str()
        .unwrap()
        .to_string();
    let mut n = 0;
    loop {
        let p = ask(r#"{"cmd":"pending"}"#);
        if p["pending"]["kind"] == "game_over" {
            break;
        }
        let legal = ask(r#"{"cmd":"legal"}"#)["legal"].clone();
        let cmd = legal[n % legal.as_array().unwrap().len()].clone();
        let req = if p["pending"]["side"] == "a" {
            serde_json::json!({"cmd": "apply", "command": cmd, "seat": seat})
        } else {
            serde_json::json!({"cmd": "apply", "command": cmd})
        };
        let r = ask(&req.to_string());
        assert!(r["events"].is_array(), "{r}");
        n += 1;
        assert!(n < 10_000);
    }
    let save = ask(r#"{"cmd":"save"}"#);
    assert_eq!(save["save"]["system"], "race");
    let r = ask(&serde_json::json!({"cmd": "load", "save": save["save"]}).to_string());
    assert_eq!(r["loaded"], n);
    let log = ask(r#"{"cmd":"log","since":0}"#);
    assert_eq!(log["count"], n);
    let r = ask(r#"{"cmd":"new","scenario_json":{"system":"race","id":"r","target":3}}"#);
    assert!(r["hash"].is_string(), "{r}");
}
