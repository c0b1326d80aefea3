//! The compact forms of `serve` (docs/serve.md, "Compact forms"): action indices, the
//! per-unit listings and deltas.
//!
//! - Over whole games, every delta reply (`view` of each side and of each seat,
//!   `state`, `legal` in each form) rebuilds, patched onto the client's copy, exactly
//!   the value the full reply carries; the indices and per-unit forms list the same
//!   commands as the full one.
//! - The sizes of docs/serve.md are measured here (`--nocapture` prints them): a Vimy
//!   Ridge set-up listing in each form, and a whole Meuse-Argonne game's traffic with
//!   full replies and with compact ones.

use fm::protocol::Server;
use serde_json::{json, Value};

fn ask(s: &mut Server, req: &Value) -> (Value, usize) {
    let line = s.handle_line(&req.to_string()).expect("a reply").line;
    let v: Value = serde_json::from_str(&line).expect("JSON");
    assert!(v.get("error").is_none(), "{req} -> {v}");
    (v, line.len() + 1)
}

/// A client's copy of one kind of reply, kept up to date from full and delta replies.
struct Copy {
    field: &'static str,
    value: Option<Value>,
}

impl Copy {
    fn update(&mut self, reply: &Value) -> &Value {
        match reply.get("patch") {
            Some(p) => {
                let v = self
                    .value
                    .as_mut()
                    .expect("a patch comes after a full reply");
                fm::patch::apply(v, p).unwrap_or_else(|e| panic!("{e}: {p}"));
            }
            None => self.value = Some(reply[self.field].clone()),
        }
        self.value.as_ref().unwrap()
    }
}

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Plays a random game (up to `max` commands) through the protocol, checking every
/// delta against the full value after each command.
fn deltas_rebuild_full_replies(scenario: &str, seed: u64, max: usize) -> usize {
    let mut s = Server::new();
    ask(
        &mut s,
        &json!({"cmd":"new","scenario":scenario,"seed":seed}),
    );
    let seat =
        |s: &mut Server, side: &str| ask(s, &json!({"cmd":"seat","side":side})).0["seat"].clone();
    let (ta, tb) = (seat(&mut s, "a"), seat(&mut s, "b"));
    // (request, field, the full request it must equal)
    let kinds: Vec<(Value, &'static str, Value)> = vec![
        (
            json!({"cmd":"view","side":"a","delta":true}),
            "view",
            json!({"cmd":"view","side":"a"}),
        ),
        (
            json!({"cmd":"view","side":"b","delta":true}),
            "view",
            json!({"cmd":"view","side":"b"}),
        ),
        (
            json!({"cmd":"view","seat":ta,"delta":true}),
            "view",
            json!({"cmd":"view","seat":ta}),
        ),
        (
            json!({"cmd":"view","seat":tb,"delta":true}),
            "view",
            json!({"cmd":"view","seat":tb}),
        ),
        (
            json!({"cmd":"state","delta":true}),
            "state",
            json!({"cmd":"state"}),
        ),
        (
            json!({"cmd":"legal","delta":true}),
            "legal",
            json!({"cmd":"legal"}),
        ),
        (
            json!({"cmd":"legal","form":"by_unit","delta":true}),
            "legal",
            json!({"cmd":"legal","form":"by_unit"}),
        ),
        (
            json!({"cmd":"legal","form":"indices","seat":ta,"delta":true}),
            "legal",
            json!({"cmd":"legal","form":"indices","seat":ta}),
        ),
    ];
    let mut copies: Vec<Copy> = kinds
        .iter()
        .map(|(_, f, _)| Copy {
            field: f,
            value: None,
        })
        .collect();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut patches = 0;
    for step in 0..=max {
        for (k, (req, _, full)) in kinds.iter().enumerate() {
            let (reply, _) = ask(&mut s, req);
            patches += usize::from(reply.get("patch").is_some());
            let rebuilt = copies[k].update(&reply).clone();
            let (want, _) = ask(&mut s, full);
            assert_eq!(
                rebuilt, want[copies[k].field],
                "{scenario} step {step}: {req}"
            );
            // The full request became the base: the next delta starts from it.
            copies[k].value = Some(want[copies[k].field].clone());
        }
        let (legal, _) = ask(&mut s, &json!({"cmd":"legal"}));
        let list = legal["legal"].as_array().unwrap().clone();
        if list.is_empty() || step == max {
            break;
        }
        // The other forms list the same commands: the indices those of the listed
        // commands (coarser: a move's index names its hex, the cheapest path to it).
        let (idx, _) = ask(&mut s, &json!({"cmd":"legal","form":"indices"}));
        let g = s.game().unwrap();
        let mut of_list: Vec<Value> = list
            .iter()
            .filter_map(|c| g.index_of(c))
            .map(Value::from)
            .collect();
        of_list.sort_by_key(|v| v.as_u64());
        of_list.dedup();
        assert_eq!(
            idx["legal"],
            Value::Array(of_list),
            "{scenario} step {step}"
        );
        let (by, _) = ask(&mut s, &json!({"cmd":"legal","form":"by_unit"}));
        let mut regrouped = by["legal"]["other"].as_array().unwrap().len();
        for (unit, cmds) in by["legal"]["units"].as_object().unwrap() {
            regrouped += cmds.as_array().unwrap().len();
            let (one, _) = ask(&mut s, &json!({"cmd":"legal","unit":unit}));
            assert_eq!(
                one["legal"].as_array().unwrap().len(),
                cmds.as_array().unwrap().len()
            );
        }
        assert_eq!(regrouped, list.len());
        if step % 2 == 0 {
            let pick = (xorshift(&mut rng) % list.len() as u64) as usize;
            ask(&mut s, &json!({"cmd":"apply","command":list[pick]}));
        } else {
            let indices = idx["legal"].as_array().unwrap();
            let pick = (xorshift(&mut rng) % indices.len() as u64) as usize;
            ask(&mut s, &json!({"cmd":"apply","index":indices[pick]}));
        }
    }
    assert!(patches > 0);
    s.game().unwrap().log_len()
}

#[test]
fn deltas_rebuild_the_full_replies_over_whole_games() {
    // A whole game of each system's small scenario; the opening of the big ones.
    let n = deltas_rebuild_full_replies("system-demo", 3, 10_000);
    assert!(n > 10, "{n} commands");
    deltas_rebuild_full_replies("huzzah-firefight", 5, 10_000);
    deltas_rebuild_full_replies("vimy-ridge", 2, 12);
    deltas_rebuild_full_replies("suez-1916", 2, 20);
}

/// The figures of docs/serve.md, "Compact forms", for a Vimy Ridge set-up listing. The
/// assertions hold the compact forms to being much smaller; `--nocapture` prints the
/// sizes.
#[test]
fn vimy_setup_listing_sizes() {
    let mut s = Server::new();
    ask(
        &mut s,
        &json!({"cmd":"new","scenario":"vimy-ridge","seed":1}),
    );
    let (full, full_n) = ask(&mut s, &json!({"cmd":"legal"}));
    let (_, idx_n) = ask(&mut s, &json!({"cmd":"legal","form":"indices"}));
    let (by, by_n) = ask(&mut s, &json!({"cmd":"legal","form":"by_unit"}));
    let unit = by["legal"]["units"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let (_, one_n) = ask(&mut s, &json!({"cmd":"legal","unit":unit}));
    println!(
        "vimy-ridge set-up legal ({} commands): full {full_n} B, indices {idx_n} B, by_unit {by_n} B, one unit {one_n} B",
        full["legal"].as_array().unwrap().len()
    );
    assert!(idx_n * 5 < full_n && by_n < full_n && one_n * 10 < full_n);
}

/// The figures of docs/serve.md, "Compact forms", for a whole Meuse-Argonne game: about
/// a minute of CPU, so run on demand:
/// `cargo test --release -p fm-ffi --test suite compact:: -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement: a whole Meuse-Argonne game, twice"]
fn meuse_game_traffic() {
    // A whole Meuse-Argonne game, a client asking after every command for the legal
    // commands and the active side's view: full replies, then compact ones (indices,
    // apply by index, view deltas).
    let (mut naive, mut compact, mut commands) = (0usize, 0usize, 0usize);
    let mut a = Server::new();
    let mut b = Server::new();
    let mut rng = 7u64;
    let (_, n) = ask(
        &mut a,
        &json!({"cmd":"new","scenario":"meuse-argonne","seed":1}),
    );
    naive += n;
    let (_, n) = ask(
        &mut b,
        &json!({"cmd":"new","scenario":"meuse-argonne","seed":1}),
    );
    compact += n;
    loop {
        let (legal, n) = ask(&mut a, &json!({"cmd":"legal"}));
        naive += n;
        let (idx, n) = ask(&mut b, &json!({"cmd":"legal","form":"indices"}));
        compact += n;
        let indices = idx["legal"].as_array().unwrap();
        if indices.is_empty() {
            assert_eq!(legal["legal"], json!([]));
            break;
        }
        // Both clients play the same command: the full one as a command (as a client
        // of the full listing would pick it), the compact one by its index.
        let g = a.game().unwrap();
        let side = g.decider().unwrap().to_string();
        let i = indices[(xorshift(&mut rng) % indices.len() as u64) as usize].clone();
        let command = g.command_at(i.as_u64().unwrap() as usize).unwrap();
        let (_, n) = ask(&mut a, &json!({"cmd":"apply","command":command}));
        naive += n;
        let (_, n) = ask(&mut b, &json!({"cmd":"apply","index":i}));
        compact += n;
        let (_, n) = ask(&mut a, &json!({"cmd":"view","side":side}));
        naive += n;
        let (_, n) = ask(&mut b, &json!({"cmd":"view","side":side,"delta":true}));
        compact += n;
        commands += 1;
    }
    assert_eq!(
        a.game().unwrap().state_hash(),
        b.game().unwrap().state_hash(),
        "the two clients played the same game"
    );
    println!(
        "meuse-argonne whole game ({commands} commands; legal, apply, view per command): full {naive} B, compact {compact} B"
    );
    assert!(compact * 5 < naive);
}
