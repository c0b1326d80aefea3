//! Chance, the owner's requests: `chance` (the draw a command waits for in explicit
//! chance mode) and `apply_chance` (its outcome), and the `chance` field that the owner's
//! replies carry while a draw waits. A match is in explicit mode when `new` asked for
//! `"chance_mode":"explicit"` (or its save was): then every die roll and draw, the
//! opening's too, waits for the owner, who rolls the table's dice or picks the outcome
//! of a scripted test. Seats never see a draw: its `"from"` list may name what their
//! side may not know (a face-down marker in a cup); they see the decision of the side
//! whose command waits, as ever.

use super::dispatch::Core;
use super::reply::{hash_hex, no_match, Body, ProtoError, Result};
use fm_core::any::DynMatch;
use fm_core::ChanceMode;
use serde_json::{Map, Value};

/// What an `apply_chance` completed, for the notifications of the other clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A draw of several: the command (or the opening) still waits for another.
    Draw,
    /// The last draw of the opening: the match starts.
    Opening,
    /// The last draw of a command: the command is applied and logged.
    Command,
}

/// The `chance_mode` field of `new`: `"sampled"` (the default) or `"explicit"`.
pub(super) fn chance_mode_field(obj: &Map<String, Value>) -> Result<ChanceMode> {
    match obj.get("chance_mode") {
        None => Ok(ChanceMode::Sampled),
        Some(v) => v.as_str().and_then(ChanceMode::from_name).ok_or_else(|| {
            ProtoError::protocol("\"chance_mode\" must be \"sampled\" or \"explicit\"")
        }),
    }
}

/// `body` with `"chance"`: the pending draw, when one waits (never in sampled mode).
/// For the owner's replies only.
pub(super) fn with_chance(body: Body, g: &dyn DynMatch) -> Result<Body> {
    match g.chance_node() {
        Some(node) => body.with("chance", &node),
        None => Ok(body),
    }
}

/// The events of the last command as `side` knows them (all of them for the
/// owner), or none while a command waits for a draw: it is not logged yet, and the
/// log's last entry is the command before it.
pub(super) fn settled_events(g: &dyn DynMatch, side: Option<fm_core::Side>) -> Value {
    match g.chance_node() {
        Some(_) => Value::Array(Vec::new()),
        None => g.last_events_json(side),
    }
}

impl Core {
    /// `chance`: the match's chance mode and the draw it waits for (`null`: none).
    pub(super) fn chance(&self) -> Result<Body> {
        let g = self.current()?;
        Body::new()
            .with("mode", g.chance_mode().name())?
            .with("chance", &g.chance_node())
    }

    /// `apply_chance`: resolves the pending draw with `outcome` (`0` to the node's
    /// `outcomes - 1`). The reply carries the events of what the draw completed (the
    /// command's, or the opening's), `[]` while another draw waits, and then that
    /// draw as `chance`.
    pub(super) fn apply_chance(&mut self, obj: &Map<String, Value>) -> Result<(Body, Resolved)> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        let Some(node) = g.chance_node() else {
            return Err(ProtoError::new(
                "chance",
                match g.chance_mode() {
                    ChanceMode::Sampled => {
                        "no chance outcome is pending: the match draws its own (start it with \
                         \"chance_mode\":\"explicit\" to roll them yourself)"
                    }
                    ChanceMode::Explicit => "no chance outcome is pending",
                },
            ));
        };
        let outcome = match obj.get("outcome") {
            Some(v) => v
                .as_u64()
                .filter(|&k| k < u64::from(node.outcomes))
                .ok_or_else(|| {
                    ProtoError::new(
                        "input",
                        format!(
                            "\"outcome\" must be an integer from 0 to {}",
                            node.outcomes.saturating_sub(1)
                        ),
                    )
                })?,
            None => return Err(ProtoError::protocol("apply_chance needs \"outcome\"")),
        };
        let logged = g.log_len();
        let events = g.apply_chance(outcome as u32)?;
        let resolved = if g.log_len() > logged {
            Resolved::Command
        } else if g.chance_node().is_some() {
            Resolved::Draw
        } else {
            Resolved::Opening
        };
        let events = match resolved {
            Resolved::Opening => g.opening_events_json(),
            _ => events,
        };
        let body = Body::new()
            .with("events", &events)?
            .with("pending", &g.pending_json())?
            .with("hash", &hash_hex(g.state_hash()))?;
        Ok((with_chance(body, &**g)?, resolved))
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, Server};
    use serde_json::{json, Value};

    /// Resolves every draw `s`'s match waits for with outcomes that cycle through the
    /// faces (a roll-off re-rolls ties, page 7: one face for ever would never end).
    fn resolve_all(s: &mut Server, mut r: Value) -> Value {
        let mut k = 0u64;
        while let Some(node) = r.get("chance").filter(|c| !c.is_null()).cloned() {
            let n = node["outcomes"].as_u64().unwrap();
            r = ask(
                s,
                &json!({"cmd":"apply_chance","outcome": k % n}).to_string(),
            );
            assert!(r.get("error").is_none(), "{r}");
            k += 1;
        }
        r
    }

    /// Issue 30, friction 3 through serve: a Huzzah! match started in explicit mode
    /// waits for its opening roll-off, named, before any command; the owner rolls it.
    #[test]
    fn an_explicit_opening_waits_for_the_owner() {
        let mut s = Server::new();
        let r = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"huzzah-encounter","seed":1,"chance_mode":"explicit"}"#,
        );
        assert_eq!(r["events"], json!([]), "{r}");
        assert_eq!(r["chance"]["roll"]["roll"], "roll_off", "{r}");
        assert_eq!(r["chance"]["outcomes"], 6, "{r}");
        let q = ask(&mut s, r#"{"cmd":"chance"}"#);
        assert_eq!(q["mode"], "explicit");
        assert_eq!(q["chance"], r["chance"]);
        // No command while the opening waits.
        let e = ask(&mut s, r#"{"cmd":"think","time_ms":10}"#);
        assert!(e.get("error").is_some(), "{e}");
        let done = resolve_all(&mut s, r);
        assert!(done.get("chance").is_none(), "{done}");
        assert!(
            done["events"].as_array().is_some_and(|e| !e.is_empty()),
            "the opening's events come with its last draw: {done}"
        );
        assert_eq!(ask(&mut s, r#"{"cmd":"chance"}"#)["chance"], Value::Null);
    }

    /// A command in explicit mode waits for its dice; the reply says which, and the
    /// last outcome applies it. A seat sees neither the draw nor the request.
    #[test]
    fn a_command_waits_for_its_dice() {
        let mut s = Server::new();
        let r = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"system-demo","seed":2,"chance_mode":"explicit"}"#,
        );
        let mut r = resolve_all(&mut s, r);
        let seat = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"]
            .as_str()
            .unwrap()
            .to_string();
        let e = ask(&mut s, &json!({"cmd":"chance","seat":seat}).to_string());
        assert_eq!(e["error"]["rule"], "seat", "{e}");
        let e = ask(
            &mut s,
            &json!({"cmd":"apply_chance","outcome":0,"seat":seat}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat", "{e}");
        // Play the first legal command until one waits for a draw.
        let mut waited = false;
        for step in 0..400usize {
            if r["pending"].is_null() {
                break;
            }
            let legal = ask(&mut s, r#"{"cmd":"legal"}"#);
            let legal = legal["legal"].as_array().unwrap();
            // A fixed spread over the listing, so that the game moves on to combat.
            let c = legal[(step * 7919) % legal.len()].clone();
            let before = ask(&mut s, r#"{"cmd":"log"}"#)["count"].as_u64().unwrap();
            r = ask(&mut s, &json!({"cmd":"apply","command":c}).to_string());
            assert!(r.get("error").is_none(), "{r}");
            if let Some(node) = r.get("chance") {
                waited = true;
                assert_eq!(r["events"], json!([]), "{r}");
                assert!(node["outcomes"].as_u64().unwrap() >= 2, "{r}");
                let e = ask(&mut s, r#"{"cmd":"apply","command":{"type":"done"}}"#);
                assert_eq!(e["error"]["rule"], "chance", "{e}");
                let e = ask(
                    &mut s,
                    &json!({"cmd":"apply_chance","outcome":node["outcomes"]}).to_string(),
                );
                assert_eq!(e["error"]["rule"], "input", "{e}");
                r = resolve_all(&mut s, r);
                let after = ask(&mut s, r#"{"cmd":"log"}"#)["count"].as_u64().unwrap();
                assert_eq!(after, before + 1, "{r}");
                assert!(r["events"].as_array().is_some_and(|e| !e.is_empty()), "{r}");
                break;
            }
        }
        assert!(waited, "no command drew in 400 commands");
    }

    /// Bad input changes nothing: no draw pending, a bad mode, a missing outcome.
    #[test]
    fn chance_requests_refused() {
        let mut s = Server::new();
        let e = ask(&mut s, r#"{"cmd":"chance"}"#);
        assert_eq!(e["error"]["rule"], "protocol", "{e}");
        let e = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"system-demo","chance_mode":"dice"}"#,
        );
        assert_eq!(e["error"]["rule"], "protocol", "{e}");
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo"}"#);
        let q = ask(&mut s, r#"{"cmd":"chance"}"#);
        assert_eq!(q, json!({"mode":"sampled","chance":null}));
        let e = ask(&mut s, r#"{"cmd":"apply_chance","outcome":0}"#);
        assert_eq!(e["error"]["rule"], "chance", "{e}");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("explicit"),
            "{e}"
        );
        let r = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"huzzah-encounter","chance_mode":"explicit"}"#,
        );
        let hash = r["hash"].clone();
        let e = ask(&mut s, r#"{"cmd":"apply_chance"}"#);
        assert_eq!(e["error"]["rule"], "protocol", "{e}");
        let e = ask(&mut s, r#"{"cmd":"apply_chance","outcome":-1}"#);
        assert_eq!(e["error"]["rule"], "input", "{e}");
        let e = ask(&mut s, r#"{"cmd":"apply_chance","outcome":"1"}"#);
        assert_eq!(e["error"]["rule"], "input", "{e}");
        let q = ask(&mut s, r#"{"cmd":"pending"}"#);
        assert!(q.get("error").is_none(), "{q}");
        assert_eq!(ask(&mut s, r#"{"cmd":"state"}"#)["hash"], hash);
    }

    /// What the other clients hear: a draw that leaves the command waiting tells the
    /// seats of no events; the last one tells them the command's, redacted for them.
    #[test]
    fn seats_hear_the_command_with_its_last_draw() {
        use crate::protocol::{Binding, Change, Core, Resolved, Session, Step};
        let mut core = Core::default();
        let mut owner = Session::default();
        let mut ask = |core: &mut Core, line: &str| -> (Value, Option<Change>) {
            match core.handle_deferred(&mut owner, line).expect("a reply") {
                Step::Done(r, c) => (serde_json::from_str(&r.line).unwrap(), c),
                Step::Think(_) | Step::Load(_) => panic!("no think or load here"),
            }
        };
        let (mut r, _) = ask(
            &mut core,
            r#"{"cmd":"new","scenario":"system-demo","seed":2,"chance_mode":"explicit"}"#,
        );
        let (seat, _) = ask(&mut core, r#"{"cmd":"seat","side":"b"}"#);
        let seat = Binding::Seat(seat["seat"].as_str().unwrap().to_string());
        let mut heard = Vec::new();
        for step in 0..400usize {
            if r["pending"].is_null() || heard.len() >= 2 {
                break;
            }
            let (legal, _) = ask(&mut core, r#"{"cmd":"legal"}"#);
            let legal = legal["legal"].as_array().unwrap();
            let c = legal[(step * 7919) % legal.len()].clone();
            let (after, change) = ask(&mut core, &json!({"cmd":"apply","command":c}).to_string());
            r = after;
            if r.get("chance").is_none() {
                continue;
            }
            let n: Value =
                serde_json::from_str(&core.notification(&seat, change.unwrap())).unwrap();
            assert_eq!(n["notify"]["change"], "apply");
            assert_eq!(n["notify"]["events"], json!([]), "{n}");
            while let Some(node) = r.get("chance").cloned() {
                let (after, change) = ask(
                    &mut core,
                    &json!({"cmd":"apply_chance","outcome": node["outcomes"].as_u64().unwrap() - 1})
                        .to_string(),
                );
                r = after;
                let change = change.expect("a draw changes the match");
                let n: Value = serde_json::from_str(&core.notification(&seat, change)).unwrap();
                assert_eq!(n["notify"]["change"], "chance", "{n}");
                match change {
                    Change::Chance(Resolved::Command) => {
                        assert!(!n["notify"]["events"].as_array().unwrap().is_empty(), "{n}");
                        heard.push(n);
                    }
                    Change::Chance(Resolved::Draw) => {
                        assert!(n["notify"].get("events").is_none(), "{n}")
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
        assert_eq!(heard.len(), 2, "two commands that drew in 400 commands");
    }

    /// A save of an explicit match keeps its mode and its pending draw.
    #[test]
    fn an_explicit_match_saves_and_loads_waiting() {
        let mut s = Server::new();
        let r = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"huzzah-encounter","seed":4,"chance_mode":"explicit"}"#,
        );
        let node = r["chance"].clone();
        let save = ask(&mut s, r#"{"cmd":"save"}"#)["save"].clone();
        let l = ask(&mut s, &json!({"cmd":"load","save":save}).to_string());
        assert!(l.get("error").is_none(), "{l}");
        assert_eq!(l["chance"], node, "{l}");
        assert_eq!(l["hash"], r["hash"]);
    }
}
