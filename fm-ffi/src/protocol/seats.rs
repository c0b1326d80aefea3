//! The owner and the seats: who a request comes from (its `"seat"`, or what the
//! connection is bound to), which requests are the owner's (the referee's) alone,
//! `bind`, handing out seats and making their tokens, and what a seat's queries may read
//! (its own side only, and a match drawn from its view where a state is read).

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
}

/// Who is asking: the owner (the referee), the seat of one side, or a socket
/// connection not bound yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Asker {
    Owner,
    Seat(Side),
    Unbound,
}

impl Asker {
    /// The key of this asker's delta bases.
    pub(super) fn key(self) -> &'static str {
        match self {
            Asker::Owner | Asker::Unbound => "owner",
            Asker::Seat(Side::A) => "a",
            Asker::Seat(Side::B) => "b",
        }
    }
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
            (Some(Value::String(t)), _) => {
                Asker::Seat(self.seat_side(t).ok_or_else(unknown_token)?)
            }
            (Some(_), _) => return Err(ProtoError::protocol("\"seat\" must be a string")),
            (None, Some(Binding::Owner)) => Asker::Owner,
            (None, Some(Binding::Seat(t))) => {
                Asker::Seat(self.seat_side(t).ok_or_else(unknown_token)?)
            }
            (None, None) if session.socket => Asker::Unbound,
            (None, None) => Asker::Owner,
        };
        if asker == Asker::Unbound && !matches!(cmd, "hello" | "scenarios" | "bind") {
            return Err(ProtoError::new(
                "seat",
                "this connection is not bound: send {\"cmd\":\"bind\",\"token\":…} with the \
                 owner's token or a seat's first",
            ));
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

    pub(super) fn seat_side(&self, token: &str) -> Option<Side> {
        self.seats.iter().find(|(t, _)| t == token).map(|(_, s)| *s)
    }

    /// `bind`: a socket connection speaks for the owner or a seat from now on.
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
        } else {
            return Err(ProtoError::new(
                "seat",
                "unknown token: neither the owner's nor a seat's of the current match",
            ));
        };
        session.bound = Some(binding);
        session.notify = notify;
        Body::new().with("bound", &who)?.with("notify", &notify)
    }

    /// `seat`: a new seat's token for `side` (the owner's request).
    pub(super) fn seat(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let side = side_field(obj, "seat")?;
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
    use crate::protocol::{ask, Server};
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
}
