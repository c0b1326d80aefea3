//! The owner, the seats and the spectators: who a request comes from (its `"seat"`, or
//! what the connection is bound to), which requests are the owner's (the referee's)
//! alone, what a spectator may ask (it only watches), `bind`, handing out seats and
//! spectators' tokens, and what a seat's queries may read (its own side only, and a
//! match drawn from its view where a state is read).

use super::dispatch::Core;
use super::reply::{Body, ProtoError, Result};
use super::requests::{flag, side_field};
use super::session::Session;
use fm_core::any::DynMatch;
use fm_core::Side;
use serde_json::{Map, Value};

/// Who a socket connection speaks for once it has sent `bind`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Binding {
    /// The owner (the referee).
    Owner,
    /// The seat with this token.
    Seat(String),
    /// The spectator with this token: it sees what both sides may know.
    Spectator(String),
}

/// Who is asking: the owner (the referee), the seat of one side, a spectator, or a
/// socket connection not bound yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Asker {
    Owner,
    Seat(Side),
    Spectator,
    Unbound,
}

impl Asker {
    /// The key of this asker's delta bases.
    pub(super) fn key(self) -> &'static str {
        match self {
            Asker::Owner | Asker::Unbound => "owner",
            Asker::Seat(Side::A) => "a",
            Asker::Seat(Side::B) => "b",
            Asker::Spectator => "spectator",
        }
    }
}

/// What a spectator may ask: what changes nothing and reads only what both sides may
/// know (its view, its picture, its log, the pending decision, the scenario).
fn spectator_may_ask(cmd: &str) -> bool {
    matches!(
        cmd,
        "hello" | "scenarios" | "bind" | "pending" | "scenario" | "view" | "svg" | "log"
    )
}

impl Core {
    /// Who asks `cmd`, and whether they may: a seat's token comes with the request or
    /// with the connection's binding, a socket connection not bound yet may only say
    /// `hello`, ask for the `scenarios` and `bind`, and a seat may not ask what only the
    /// owner may.
    pub(super) fn asker(
        &self,
        session: &Session,
        obj: &Map<String, Value>,
        cmd: &str,
    ) -> Result<Asker> {
        let unknown_token = || {
            ProtoError::new(
                "seat",
                "unknown seat token (seats end when the owner starts or loads a match)",
            )
        };
        let asker = match (obj.get("seat"), &session.bound) {
            (Some(Value::String(t)), _) => self.token_asker(t).ok_or_else(unknown_token)?,
            (Some(_), _) => return Err(ProtoError::protocol("\"seat\" must be a string")),
            (None, Some(Binding::Owner)) => Asker::Owner,
            (None, Some(Binding::Seat(t) | Binding::Spectator(t))) => {
                self.token_asker(t).ok_or_else(unknown_token)?
            }
            (None, None) if session.socket => Asker::Unbound,
            (None, None) => Asker::Owner,
        };
        if asker == Asker::Unbound && !matches!(cmd, "hello" | "scenarios" | "bind") {
            return Err(ProtoError::new(
                "seat",
                "this connection is not bound: send {\"cmd\":\"bind\",\"token\":…} with the \
                 owner's token, a seat's or a spectator's first",
            ));
        }
        if asker == Asker::Spectator && !spectator_may_ask(cmd) {
            return Err(ProtoError::new("seat", spectator_refusal(cmd)));
        }
        if matches!(asker, Asker::Seat(_)) {
            let what = match cmd {
                "new" | "load" => "start or load a match",
                "state" => "see the full state",
                "save" => "save (a save holds the seed and every hidden value)",
                "undo" => "undo",
                "chance" | "apply_chance" => {
                    "see or resolve a chance draw (the referee rolls the dice, and a draw \
                     may name what the side may not know)"
                }
                "seat" => "hand out seats",
                "seats" => "see the seats' tokens",
                "quit" => "stop the server",
                _ => "",
            };
            if !what.is_empty() {
                return Err(ProtoError::new(
                    "seat",
                    format!("a seat may not {what}: that is the owner's (the referee's) request"),
                ));
            }
        }
        Ok(asker)
    }

    /// `seats`: the tokens handed out for the current match, by side, oldest first (the
    /// owner's: a lobby shows the links it made before, rather than making more).
    pub(super) fn seats(&self) -> Result<Body> {
        self.current()?;
        let of = |side: Side| -> Vec<&str> {
            self.seats
                .iter()
                .filter(|(_, s)| *s == side)
                .map(|(t, _)| t.as_str())
                .collect()
        };
        let seats =
            serde_json::json!({"a": of(Side::A), "b": of(Side::B), "spectator": self.spectators});
        Body::new().with("seats", &seats)
    }

    pub(super) fn seat_side(&self, token: &str) -> Option<Side> {
        self.seats.iter().find(|(t, _)| t == token).map(|(_, s)| *s)
    }

    /// Whether `token` is a spectator's of the current match.
    pub(super) fn is_spectator(&self, token: &str) -> bool {
        self.spectators.iter().any(|t| t == token)
    }

    /// Who a seat's or a spectator's token speaks for (`None`: neither's).
    fn token_asker(&self, token: &str) -> Option<Asker> {
        match self.seat_side(token) {
            Some(side) => Some(Asker::Seat(side)),
            None if self.is_spectator(token) => Some(Asker::Spectator),
            None => None,
        }
    }

    /// `bind`: a socket connection speaks for the owner, a seat or a spectator from now
    /// on.
    pub(super) fn bind(&self, session: &mut Session, obj: &Map<String, Value>) -> Result<Body> {
        if !session.socket {
            return Err(ProtoError::protocol(
                "bind is for socket connections (serve --listen); on stdin the client is the \
                 owner and speaks for a seat with \"seat\" in a request",
            ));
        }
        let Some(Value::String(token)) = obj.get("token") else {
            return Err(ProtoError::protocol("bind needs \"token\": a token string"));
        };
        let notify = flag(obj, "notify")?;
        let (binding, who) = if self.owner_token.as_deref() == Some(token.as_str()) {
            (Binding::Owner, "owner".to_string())
        } else if let Some(side) = self.seat_side(token) {
            (Binding::Seat(token.clone()), side.to_string())
        } else if self.is_spectator(token) {
            let already = matches!(session.bound, Some(Binding::Spectator(_)));
            if let Some(most) = session.spectators_full.filter(|_| !already) {
                return Err(ProtoError::new(
                    "limit",
                    format!(
                        "the server holds {most} spectators' connections, the most it takes \
                         (--max-clients less the slots kept for the owner and the seats): \
                         try again later"
                    ),
                ));
            }
            (Binding::Spectator(token.clone()), "spectator".to_string())
        } else {
            return Err(ProtoError::new(
                "seat",
                "unknown token: not the owner's, nor a seat's or a spectator's of the current \
                 match",
            ));
        };
        session.bound = Some(binding);
        session.notify = notify;
        Body::new().with("bound", &who)?.with("notify", &notify)
    }

    /// `seat`: a new seat's token for `side`, or (`"side":"spectator"`) a new
    /// spectator's, any number of them (the owner's request).
    pub(super) fn seat(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        if is_spectator_side(obj) {
            // A system that cannot say what a spectator may know has none.
            self.current()?.spectator_view_hash()?;
            let token = self.random_token("spectator");
            self.spectators.push(token.clone());
            return Body::new().with("seat", &token)?.with("side", "spectator");
        }
        let side = side_field(obj, "seat").map_err(|_| {
            ProtoError::protocol("seat needs \"side\": \"a\", \"b\" or \"spectator\"")
        })?;
        self.current()?;
        let token = self.new_token(side);
        self.seats.push((token.clone(), side));
        Body::new().with("seat", &token)?.with("side", &side)
    }

    /// A token: 128 bits from the process's hash keys (randomly keyed by the
    /// standard library) and a counter, so tokens cannot be guessed from one another.
    pub fn random_token(&mut self, prefix: &str) -> String {
        use std::hash::{BuildHasher, Hasher};
        self.issued += 1;
        let word = |salt: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(self.issued);
            h.write_u64(salt);
            h.finish()
        };
        let (x, y) = (word(1), word(2));
        format!("{prefix}-{x:016x}{y:016x}")
    }

    fn new_token(&mut self, side: Side) -> String {
        self.random_token(&side.to_string())
    }
}

/// Whether a request's `side` is `"spectator"` (`seat`, and the owner's or a
/// spectator's `view` and `svg`).
pub(super) fn is_spectator_side(obj: &Map<String, Value>) -> bool {
    obj.get("side").and_then(Value::as_str) == Some("spectator")
}

/// Why a spectator may not ask `cmd`: it only watches, and sees only what both sides
/// may know.
fn spectator_refusal(cmd: &str) -> String {
    let what = match cmd {
        "apply" => "apply a command",
        "legal" => "list the legal commands (they are the deciding side's)",
        "think" => "ask the built-in AI (it searches from the deciding side's knowledge)",
        "odds" => "ask odds (a side's, from what that side knows)",
        "reachable" | "explain" => {
            "ask where a unit may move or why a command would be refused (a player's \
             questions, answered from the referee's state)"
        }
        "export" => "export a side's record (it holds that side's secrets)",
        "state" => "see the full state",
        "save" => "save (a save holds the seed and every hidden value)",
        "new" | "load" => "start or load a match",
        "undo" => "undo",
        "chance" | "apply_chance" => "see or resolve a chance draw",
        "seat" => "hand out seats",
        "seats" => "see the seats' tokens",
        "quit" => "stop the server",
        _ => "ask this",
    };
    format!("a spectator only watches: it may not {what}")
}

/// A spectator's request names no side (`side` may be left out, or `"spectator"`).
pub(super) fn spectator_only(obj: &Map<String, Value>, what: &str) -> Result<()> {
    match obj.get("side") {
        Some(v) if !is_spectator_side(obj) => Err(ProtoError::new(
            "seat",
            format!(
                "a spectator sees what both sides may know, never a side's own; it may not \
                 {what} {v}"
            ),
        )),
        _ => Ok(()),
    }
}

/// A seat's request names no side but its own (`side` may be left out).
pub(super) fn own_side(obj: &Map<String, Value>, seat: Side, what: &str) -> Result<()> {
    match obj.get("side") {
        Some(v) if side_field(obj, what)? != seat => Err(ProtoError::new(
            "seat",
            format!("this seat is side {seat}'s; it may not {what} {v}"),
        )),
        _ => Ok(()),
    }
}

/// The match as a seat of `side` may know it: one drawn from that side's view alone
/// (`DynMatch::determinized`, a fixed seed so that the answer is repeatable), for the
/// queries that read a state (`reachable`, `explain`). Whatever the side cannot know is
/// made up there, so no answer can carry it; what it can know is exactly as in the
/// match.
pub(super) fn as_seat(g: &dyn DynMatch, side: Side) -> Result<Box<dyn DynMatch>> {
    Ok(g.determinized(side, 0)?)
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, random_step, Binding, Server};
    use fm_core::Side;
    use serde_json::json;

    /// The server's match, as the Fire & Movement match it is.
    fn fm_match_of(s: &Server) -> fm_core::Match {
        s.game()
            .and_then(|g| g.as_any().downcast_ref::<fm_core::Match>())
            .expect("an F&M match")
            .clone()
    }

    /// Seats (issue 13: hidden information): a seat sees only its side's view, its
    /// redacted events and view hashes, and may act only on its own decisions.
    #[test]
    fn seats_see_only_their_side() {
        let mut s = Server::new();
        let owner = ask(&mut s, r#"{"cmd":"new","scenario":"vimy-ridge","seed":5}"#);
        let owner_hash = owner["hash"].as_str().unwrap().to_string();
        let a = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"]
            .as_str()
            .unwrap()
            .to_string();
        let b = ask(&mut s, r#"{"cmd":"seat","side":"b"}"#)["seat"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(a.starts_with("a-") && b.starts_with("b-") && a != b);
        let g = fm_match_of(&s);
        // Views and hashes: the seat's own, never the referee's.
        let va = ask(&mut s, &json!({"cmd":"view","seat":a}).to_string());
        assert_eq!(va["view"], serde_json::to_value(g.view(Side::A)).unwrap());
        assert_eq!(va["hash"], format!("{:016x}", g.view_hash(Side::A)));
        assert_ne!(va["hash"], owner_hash);
        let e = ask(
            &mut s,
            &json!({"cmd":"view","side":"b","seat":a}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        for cmd in ["state", "save", "undo", "quit"] {
            let e = ask(&mut s, &json!({"cmd":cmd,"seat":a}).to_string());
            assert_eq!(e["error"]["rule"], "seat", "{cmd}: {e}");
        }
        let e = ask(
            &mut s,
            &json!({"cmd":"seat","side":"b","seat":a}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let e = ask(&mut s, r#"{"cmd":"view","seat":"b-0000"}"#);
        assert_eq!(e["error"]["rule"], "seat");
        // The opening allotments: each seat's log shows only its own values.
        let pending = g.pending();
        let (mine, theirs) = match pending.side() {
            Some(Side::A) => (a.clone(), b.clone()),
            _ => (b.clone(), a.clone()),
        };
        let l = ask(&mut s, &json!({"cmd":"legal","seat":theirs}).to_string());
        assert_eq!(l["legal"], json!([]));
        let l = ask(&mut s, &json!({"cmd":"legal","seat":mine}).to_string());
        let first = l["legal"][0].clone();
        let e = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"seat":theirs}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let v = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"seat":mine}).to_string(),
        );
        let side = if mine == a { Side::A } else { Side::B };
        let g = fm_match_of(&s);
        assert_eq!(v["hash"], format!("{:016x}", g.view_hash(side)));
        let redacted: Vec<fm_core::Event> = g.log()[0]
            .events
            .iter()
            .map(|e| e.redacted_for(side))
            .collect();
        assert_eq!(v["events"], serde_json::to_value(&redacted).unwrap());
        let log = ask(
            &mut s,
            &json!({"cmd":"log","since":0,"seat":theirs}).to_string(),
        );
        assert_eq!(log["count"], 1);
        let other = side.other();
        assert_eq!(
            log["log"],
            serde_json::to_value(&g.export(other).log).unwrap()
        );
        let ex = ask(&mut s, &json!({"cmd":"export","seat":theirs}).to_string());
        assert_eq!(ex["export"], serde_json::to_value(g.export(other)).unwrap());
        assert!(!ex.to_string().contains("\"seed\""));
        // A new match ends the seats.
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo"}"#);
        let e = ask(&mut s, &json!({"cmd":"pending","seat":a}).to_string());
        assert_eq!(e["error"]["rule"], "seat");
    }

    /// A client of a core, as a socket connection (`Session::socket`) or the owner on
    /// stdin: its replies as JSON, with what each request changed.
    fn client(
        core: &mut crate::protocol::Core,
        session: &mut crate::protocol::Session,
        line: &str,
    ) -> (serde_json::Value, Option<crate::protocol::Change>) {
        match core.handle_deferred(session, line).expect("a reply") {
            crate::protocol::Step::Done(r, c) => (serde_json::from_str(&r.line).unwrap(), c),
            crate::protocol::Step::Load(job) => {
                let (r, c) = core.finish_load(job.run());
                (serde_json::from_str(&r.line).unwrap(), c)
            }
            crate::protocol::Step::Think(_) => panic!("no think here"),
        }
    }

    /// Plays the owner's random commands (by index) until `stop` holds of the F&M
    /// match; false if it never did within `max` commands.
    fn play_until(s: &mut Server, max: usize, stop: impl Fn(&fm_core::Match) -> bool) -> bool {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..max {
            if stop(&fm_match_of(s)) {
                return true;
            }
            if !random_step(s, &mut rng) {
                return false;
            }
        }
        stop(&fm_match_of(s))
    }

    /// Whether a combat in progress has face-down markers of both sides.
    fn both_face_down(g: &fm_core::Match) -> bool {
        let down = |side: Side| {
            g.state().combat.as_ref().is_some_and(|c| {
                c.markers
                    .iter()
                    .any(|m| m.side == side && !m.revealed && m.value.is_some())
            })
        };
        down(Side::A) && down(Side::B)
    }

    /// Issue 33, spectators: the owner hands out any number of spectator tokens
    /// (`{"cmd":"seat","side":"spectator"}`), each binds a socket connection (with
    /// notifications) and then asks as a spectator without `"seat"`; on stdin a
    /// spectator's token goes in the request, like a seat's.
    #[test]
    fn issue_33_spectator_seats_and_binds() {
        use crate::protocol::{Core, Session};
        let mut core = Core::with_owner_token("owner-1".into());
        let mut owner = Session::socket();
        let (r, _) = client(&mut core, &mut owner, r#"{"cmd":"bind","token":"owner-1"}"#);
        assert_eq!(r["bound"], "owner");
        // No match, no spectator.
        let (e, _) = client(
            &mut core,
            &mut owner,
            r#"{"cmd":"seat","side":"spectator"}"#,
        );
        assert!(e["error"].is_object(), "{e}");
        client(
            &mut core,
            &mut owner,
            r#"{"cmd":"new","scenario":"system-demo","seed":4}"#,
        );
        let mut tokens = Vec::new();
        for _ in 0..5 {
            let (r, _) = client(
                &mut core,
                &mut owner,
                r#"{"cmd":"seat","side":"spectator"}"#,
            );
            assert_eq!(r["side"], "spectator", "{r}");
            let t = r["seat"].as_str().unwrap().to_string();
            assert!(t.starts_with("spectator-"), "{t}");
            tokens.push(t);
        }
        let mut distinct = tokens.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), tokens.len(), "every token its own");
        let (e, _) = client(&mut core, &mut owner, r#"{"cmd":"seat","side":"c"}"#);
        assert_eq!(e["error"]["rule"], "protocol");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("spectator"),
            "{e}"
        );
        // Each binds its own connection, with notifications.
        let mut watchers: Vec<Session> = Vec::new();
        for t in &tokens {
            let mut w = Session::socket();
            let (unbound, _) = client(&mut core, &mut w, r#"{"cmd":"view"}"#);
            assert_eq!(unbound["error"]["rule"], "seat", "{unbound}");
            let bind = json!({"cmd":"bind","token":t,"notify":true}).to_string();
            let (r, _) = client(&mut core, &mut w, &bind);
            assert_eq!(r, json!({"bound":"spectator","notify":true}));
            assert_eq!(w.notified(), Some(&Binding::Spectator(t.clone())));
            watchers.push(w);
        }
        let g = core.game().unwrap();
        let want = g.spectator_view_json().unwrap();
        let hash = format!("{:016x}", g.spectator_view_hash().unwrap());
        for w in &mut watchers {
            let (v, _) = client(&mut core, w, r#"{"cmd":"view"}"#);
            assert_eq!(v["view"], want);
            assert_eq!(v["hash"], hash);
            assert_eq!(v["view"]["side"], "spectator");
            // Deltas as for any view: nothing changed, an empty patch.
            let (d, _) = client(&mut core, w, r#"{"cmd":"view","delta":true}"#);
            assert_eq!(d["patch"], json!([]), "{d}");
            assert_eq!(d["hash"], hash);
            let (v, _) = client(&mut core, w, r#"{"cmd":"view","side":"spectator"}"#);
            assert_eq!(v["view"], want);
        }
        // The owner may look through a spectator's eyes.
        let (v, _) = client(
            &mut core,
            &mut owner,
            r#"{"cmd":"view","side":"spectator"}"#,
        );
        assert_eq!(
            (v["view"].clone(), v["hash"].clone()),
            (want.clone(), json!(hash))
        );
        // On stdin, the token in the request.
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":4}"#);
        let t = ask(&mut s, r#"{"cmd":"seat","side":"spectator"}"#)["seat"].clone();
        let v = ask(&mut s, &json!({"cmd":"view","seat":t}).to_string());
        assert_eq!(v["view"], want);
        let e = ask(
            &mut s,
            &json!({"cmd":"bind","token":t,"seat":t}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "protocol", "bind is for sockets: {e}");
    }

    /// Issue 33: a spectator only watches. It may say hello, list the scenarios, bind,
    /// and see the pending decision, the scenario, its view, its picture and its log;
    /// every other request (acting, a side's knowledge, the referee's) is refused with
    /// rule "seat", and the match does not change.
    #[test]
    fn issue_33_a_spectator_only_watches() {
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":6}"#);
        let t = ask(&mut s, r#"{"cmd":"seat","side":"spectator"}"#)["seat"].clone();
        let before = ask(&mut s, r#"{"cmd":"state"}"#)["hash"].clone();
        let first = ask(&mut s, r#"{"cmd":"legal"}"#)["legal"][0].clone();
        let refused = [
            json!({"cmd":"apply","command":first}),
            json!({"cmd":"apply","index":0}),
            json!({"cmd":"legal"}),
            json!({"cmd":"think","time_ms":10}),
            json!({"cmd":"odds","proposal":{"hex":"0101"}}),
            json!({"cmd":"reachable","unit":"x"}),
            json!({"cmd":"explain","command":first}),
            json!({"cmd":"export"}),
            json!({"cmd":"export","side":"a"}),
            json!({"cmd":"state"}),
            json!({"cmd":"save"}),
            json!({"cmd":"load","save":"{}"}),
            json!({"cmd":"new","scenario":"system-demo"}),
            json!({"cmd":"undo"}),
            json!({"cmd":"chance"}),
            json!({"cmd":"apply_chance","outcome":0}),
            json!({"cmd":"seat","side":"a"}),
            json!({"cmd":"seat","side":"spectator"}),
            json!({"cmd":"quit"}),
            // A side's own view or picture.
            json!({"cmd":"view","side":"a"}),
            json!({"cmd":"svg","side":"b"}),
        ];
        for mut req in refused {
            req["seat"] = t.clone();
            let r = s.handle_line(&req.to_string()).expect("a reply");
            assert!(!r.quit, "{req}");
            let e: serde_json::Value = serde_json::from_str(&r.line).unwrap();
            assert_eq!(e["error"]["rule"], "seat", "{req}: {e}");
            let message = e["error"]["message"].as_str().unwrap();
            assert!(message.starts_with("a spectator "), "{req}: {message}");
        }
        assert_eq!(ask(&mut s, r#"{"cmd":"state"}"#)["hash"], before);
        for req in [
            json!({"cmd":"hello"}),
            json!({"cmd":"scenarios"}),
            json!({"cmd":"pending"}),
            json!({"cmd":"scenario"}),
            json!({"cmd":"view"}),
            json!({"cmd":"svg","options":{"hex_size":12}}),
            json!({"cmd":"svg","side":"spectator"}),
            json!({"cmd":"log","since":0}),
        ] {
            let mut req = req;
            req["seat"] = t.clone();
            let r = ask(&mut s, &req.to_string());
            assert!(r.get("error").is_none(), "{req}: {r}");
        }
    }

    /// Issue 33: in a system-demo position with face-down markers of both sides (7.2),
    /// a spectator's view is neither side's: it holds no face-down value and no
    /// allotted value of either side, where each side's own view holds its own; its
    /// picture and its log are the layer's spectator answers.
    #[test]
    fn issue_33_spectator_sees_what_both_sides_may_know() {
        let mut s = Server::new();
        let mut found = false;
        for seed in 1..40 {
            ask(
                &mut s,
                &json!({"cmd":"new","scenario":"system-demo","seed":seed}).to_string(),
            );
            if play_until(&mut s, 400, both_face_down) {
                found = true;
                break;
            }
        }
        assert!(found, "a position with face-down markers of both sides");
        let t = ask(&mut s, r#"{"cmd":"seat","side":"spectator"}"#)["seat"].clone();
        let a = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"].clone();
        let b = ask(&mut s, r#"{"cmd":"seat","side":"b"}"#)["seat"].clone();
        let asks = |s: &mut Server, token: &serde_json::Value| {
            ask(s, &json!({"cmd":"view","seat":token}).to_string())
        };
        let (vs, va, vb) = (asks(&mut s, &t), asks(&mut s, &a), asks(&mut s, &b));
        assert_ne!(vs["view"], va["view"]);
        assert_ne!(vs["view"], vb["view"]);
        assert_ne!(vs["hash"], va["hash"]);
        assert_ne!(vs["hash"], vb["hash"]);
        let g = fm_match_of(&s);
        let want = fm_core::view(g.scenario(), g.state(), fm_core::Viewer::Spectator);
        assert_eq!(vs["view"], serde_json::to_value(&want).unwrap());
        assert_eq!(vs["hash"], format!("{:016x}", want.hash()));
        let markers = g.state().combat.as_ref().unwrap().markers.clone();
        let mut hidden = 0;
        for (k, m) in markers.iter().enumerate() {
            if m.revealed {
                continue;
            }
            hidden += 1;
            let value = |v: &serde_json::Value| v["view"]["combat"]["markers"][k]["value"].clone();
            assert!(value(&vs).is_null(), "marker {k} face down to a spectator");
            let (own, other) = match m.side {
                Side::A => (&va, &vb),
                Side::B => (&vb, &va),
            };
            assert!(value(own).is_u64(), "marker {k}: its side's own");
            assert!(value(other).is_null(), "marker {k}: not the opponent's");
        }
        assert!(hidden >= 2);
        for side in ["a", "b"] {
            assert!(vs["view"]["support"][side]["available"].is_null());
        }
        assert!(va["view"]["support"]["a"]["available"].is_array());
        assert!(vb["view"]["support"]["b"]["available"].is_array());
        let opts = json!({"hex_size": 14});
        let pic = ask(
            &mut s,
            &json!({"cmd":"svg","options":opts,"seat":t}).to_string(),
        );
        let dynm = s.game().unwrap().clone_box();
        assert_eq!(pic["svg"], dynm.spectator_svg(&opts).unwrap());
        assert_ne!(pic["svg"], dynm.svg(Some(Side::A), &opts).unwrap());
        let owner_pic = ask(
            &mut s,
            &json!({"cmd":"svg","side":"spectator","options":opts}).to_string(),
        );
        assert_eq!(owner_pic["svg"], pic["svg"]);
        let log = ask(&mut s, &json!({"cmd":"log","since":1,"seat":t}).to_string());
        assert_eq!(log["log"], dynm.spectator_log_json(1).unwrap());
        assert_eq!(log["count"], dynm.log_len());
        assert!(!log["log"].to_string().contains("\"seed\""));
    }

    /// Issue 33: a spectator bound with notifications hears each change with its own
    /// view hash and the command's events redacted for a spectator (no drawn value of
    /// either side), and a `new` or `load` ends it.
    #[test]
    fn issue_33_spectators_hear_their_hash_and_redacted_events_and_end_on_new() {
        use crate::protocol::{Change, Core, Session};
        let mut core = Core::default();
        let mut owner = Session::default();
        client(
            &mut core,
            &mut owner,
            r#"{"cmd":"new","scenario":"system-demo","seed":3}"#,
        );
        let (r, _) = client(
            &mut core,
            &mut owner,
            r#"{"cmd":"seat","side":"spectator"}"#,
        );
        let token = r["seat"].as_str().unwrap().to_string();
        let watcher = Binding::Spectator(token.clone());
        let (mut heard, mut secret) = (0, 0);
        for step in 0..300usize {
            let (legal, _) = client(&mut core, &mut owner, r#"{"cmd":"legal"}"#);
            let Some(list) = legal["legal"].as_array().filter(|l| !l.is_empty()) else {
                break;
            };
            let c = list[(step * 7919) % list.len()].clone();
            let apply = json!({"cmd":"apply","command":c}).to_string();
            let (r, change) = client(&mut core, &mut owner, &apply);
            assert_eq!(change, Some(Change::Apply));
            let n: serde_json::Value =
                serde_json::from_str(&core.notification(&watcher, Change::Apply)).unwrap();
            let g = core.game().unwrap();
            let m = g.as_any().downcast_ref::<fm_core::Match>().unwrap();
            let redacted: Vec<fm_core::Event> = m
                .log()
                .last()
                .unwrap()
                .events
                .iter()
                .map(|e| e.redacted_for(fm_core::Viewer::Spectator))
                .collect();
            assert_eq!(n["notify"]["change"], "apply");
            assert_eq!(n["notify"]["count"], g.log_len());
            assert_eq!(n["notify"]["pending"], g.pending_json());
            assert_eq!(
                n["notify"]["hash"],
                format!("{:016x}", g.spectator_view_hash().unwrap())
            );
            assert_eq!(
                n["notify"]["events"],
                serde_json::to_value(&redacted).unwrap()
            );
            if r["events"] != n["notify"]["events"] {
                secret += 1;
            }
            heard += 1;
        }
        assert!(
            heard > 50 && secret > 0,
            "{heard} heard, {secret} with a secret"
        );
        let n = core.notification(&watcher, Change::Undo);
        assert!(n.contains("\"hash\"") && !n.contains("\"events\""), "{n}");
        // A new match ends it: told so, and its token is unknown.
        let (_, change) = client(
            &mut core,
            &mut owner,
            r#"{"cmd":"new","scenario":"system-demo"}"#,
        );
        let n: serde_json::Value =
            serde_json::from_str(&core.notification(&watcher, change.unwrap())).unwrap();
        assert_eq!(n, json!({"notify":{"change":"new","seat":"ended"}}));
        let view = json!({"cmd":"view","seat":token}).to_string();
        let (e, _) = client(&mut core, &mut owner, &view);
        assert_eq!(e["error"]["rule"], "seat", "{e}");
        // So does a load.
        let (r, _) = client(
            &mut core,
            &mut owner,
            r#"{"cmd":"seat","side":"spectator"}"#,
        );
        let token = r["seat"].as_str().unwrap().to_string();
        let (save, _) = client(&mut core, &mut owner, r#"{"cmd":"save"}"#);
        let load = json!({"cmd":"load","save":save["save"]}).to_string();
        client(&mut core, &mut owner, &load);
        let view = json!({"cmd":"view","seat":token}).to_string();
        let (e, _) = client(&mut core, &mut owner, &view);
        assert_eq!(e["error"]["rule"], "seat", "{e}");
    }

    /// Issue 34 (getting in): `seats` gives the owner every token handed out for the
    /// current match, by side, oldest first, so that a lobby shows the links it made
    /// rather than making more; a seat and a spectator are refused, and `new` ends them.
    #[test]
    fn issue_34_seats_lists_the_tokens_for_the_owner_alone() {
        let mut s = Server::new();
        let none = ask(&mut s, r#"{"cmd":"seats"}"#);
        assert_eq!(none["error"]["rule"], "protocol", "no match yet: {none}");
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":1}"#);
        assert_eq!(
            ask(&mut s, r#"{"cmd":"seats"}"#)["seats"],
            json!({"a": [], "b": [], "spectator": []})
        );
        let token = |s: &mut Server, side: &str| {
            ask(s, &json!({"cmd":"seat","side":side}).to_string())["seat"].clone()
        };
        let (a1, b1, w1, a2) = (
            token(&mut s, "a"),
            token(&mut s, "b"),
            token(&mut s, "spectator"),
            token(&mut s, "a"),
        );
        assert_eq!(
            ask(&mut s, r#"{"cmd":"seats"}"#)["seats"],
            json!({"a": [a1, a2], "b": [b1], "spectator": [w1]})
        );
        for t in [&a1, &w1] {
            let e = ask(&mut s, &json!({"cmd":"seats","seat":t}).to_string());
            assert_eq!(e["error"]["rule"], "seat", "{e}");
        }
        let e = ask(&mut s, r#"{"cmd":"seats","side":"a"}"#);
        assert_eq!(e["error"]["rule"], "protocol", "{e}");
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":2}"#);
        assert_eq!(
            ask(&mut s, r#"{"cmd":"seats"}"#)["seats"],
            json!({"a": [], "b": [], "spectator": []})
        );
    }
}
