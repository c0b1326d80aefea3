//! [`Core`], what every client of one server shares (the match and its seats), and one
//! request's way through it: parsed strictly, its `cmd` and fields checked, its asker
//! found and held to what it may ask, then answered by its handler (in its group's
//! file), a panic anywhere caught. The requests of no group (`hello`, `scenarios`,
//! `quit`) are answered here.

use super::manage::LoadJob;
use super::notify::Change;
use super::reply::{no_match, reply_error, too_long, Body, ProtoError, Reply, Result};
use super::requests::{allowed_fields, parse_request, KNOWN};
use super::seats::Asker;
use super::session::Session;
use super::think::ThinkJob;
use super::{MAX_LINE_BYTES, PROTOCOL_VERSION};
use fm_core::any::{self, DynMatch};
use fm_core::Side;
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What every client of one server shares: at most one match, the seats bound to its
/// sides and its spectators, and in socket mode the owner's token.
#[derive(Default)]
pub struct Core {
    pub(super) game: Option<Box<dyn DynMatch>>,
    /// Seat tokens of the current match and the side each is bound to.
    pub(super) seats: Vec<(String, Side)>,
    /// Spectator tokens of the current match (each sees what both sides may know).
    pub(super) spectators: Vec<String>,
    /// Tokens handed out so far (feeds the token generator).
    pub(super) issued: u64,
    /// The owner's token (socket mode: a connection binds with it to act as the owner).
    pub(super) owner_token: Option<String>,
    /// The bounds on `think` and the thinks running now.
    pub(super) thinks: super::think::Thinks,
    /// Where every change is written before its reply (`serve --journal`).
    pub(super) journal: Option<super::journal::Journal>,
}

/// What one request came to: a reply now, or a search to run first (`think`, which a
/// socket server runs without holding the match's lock).
pub enum Step {
    /// The reply, and what the request changed in the match.
    Done(Reply, Option<Change>),
    /// A search on a copy of the match; [`ThinkJob::run`] gives the reply.
    Think(ThinkJob),
    /// A save to read and replay ([`LoadJob::run`]), then to put in place with
    /// [`Core::finish_load`], which gives the reply and the change.
    Load(LoadJob),
}

/// What [`Core::dispatch`] came to.
pub(super) enum Done {
    /// The reply's body, whether to quit, what changed.
    Reply(Body, bool, Option<Change>),
    /// A search to run.
    Think(ThinkJob),
    /// A save to load.
    Load(LoadJob),
}

impl Core {
    /// A core with no match, for the sessions of a socket server: a connection acts
    /// as the owner after `{"cmd":"bind","token":owner_token}`.
    pub fn with_owner_token(owner_token: String) -> Core {
        Core {
            owner_token: Some(owner_token),
            ..Core::default()
        }
    }

    /// A core with no match and a new random owner's token, for a socket server.
    pub fn socket() -> Core {
        let mut core = Core::default();
        core.owner_token = Some(core.random_token("owner"));
        core
    }

    /// The owner's token (socket mode), if any.
    pub fn owner_token(&self) -> Option<&str> {
        self.owner_token.as_deref()
    }

    /// The current match, if any.
    pub fn game(&self) -> Option<&dyn DynMatch> {
        self.game.as_deref()
    }

    /// Answers one line of `session`'s, running a `think` at once.
    pub fn handle(&mut self, session: &mut Session, line: &str) -> Option<Reply> {
        Some(match self.handle_deferred(session, line)? {
            Step::Done(r, _) => r,
            Step::Think(job) => job.run(),
            Step::Load(job) => self.finish_load(job.run()).0,
        })
    }

    /// Answers one line of `session`'s (`None` for a blank line), except that a
    /// `think` comes back as a job to run on a copy of the match, so that a server
    /// shared by many clients need not hold its lock during the search. Never panics.
    pub fn handle_deferred(&mut self, session: &mut Session, line: &str) -> Option<Step> {
        if line.len() > MAX_LINE_BYTES {
            return Some(Step::Done(
                too_long(line.len() as u64, MAX_LINE_BYTES),
                None,
            ));
        }
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        let (req, id) = match parse_request(line) {
            Ok(r) => r,
            Err((id, e)) => return Some(Step::Done(reply_error(id.as_deref(), &e), None)),
        };
        let idr = id.as_deref();
        if let (Some(why), Some(obj)) = (self.journal_failed(), &req) {
            let changes = ["new", "load", "apply", "undo", "apply_chance", "seat"];
            if changes.contains(&obj.get("cmd").and_then(Value::as_str).unwrap_or("")) {
                return Some(Step::Done(
                    reply_error(idr, &ProtoError::new("journal", why)),
                    None,
                ));
            }
        }
        let seats = (self.seats.len(), self.spectators.len());
        Some(
            match catch_unwind(AssertUnwindSafe(|| self.dispatch(session, &req))) {
                Ok(Ok(Done::Reply(body, quit, change))) => {
                    let (reply, change) =
                        self.finish(idr, Ok(body), quit, change, req.as_ref(), seats);
                    Step::Done(reply, change)
                }
                Ok(Ok(Done::Think(mut job))) => {
                    job.id = id;
                    Step::Think(job)
                }
                Ok(Ok(Done::Load(mut job))) => {
                    job.id = id;
                    Step::Load(job)
                }
                Ok(Err(e)) => Step::Done(reply_error(idr, &e), None),
                Err(_) => {
                    self.game = None;
                    self.seats.clear();
                    self.spectators.clear();
                    let mut none = Map::new();
                    none.insert("op".into(), "none".into());
                    let _ = self.journal_record(none);
                    let e = ProtoError::new(
                        "panic",
                        "internal error (panic in fm); the match was discarded",
                    );
                    Step::Done(reply_error(idr, &e), Some(Change::New))
                }
            },
        )
    }

    /// The reply to a request that `body` answers, after writing what it changed to
    /// the journal (on the disk before anyone is told of it); `seats` is how many
    /// seats and spectators there were before it.
    pub(super) fn finish(
        &mut self,
        id: Option<&str>,
        body: Result<Body>,
        quit: bool,
        change: Option<Change>,
        req: Option<&Map<String, Value>>,
        seats: (usize, usize),
    ) -> (Reply, Option<Change>) {
        let body = match body {
            Ok(b) => b,
            Err(e) => return (reply_error(id, &e), change),
        };
        let record = req.and_then(|r| self.record_of(r, change, seats));
        if let Some(why) = record.and_then(|r| self.journal_record(r).err()) {
            let e = ProtoError::new(
                "journal",
                format!(
                    "the change was made but could not be written to the journal ({why}); \
                     the server accepts no more changes"
                ),
            );
            return (reply_error(id, &e), change);
        }
        (
            Reply {
                line: body.render(id),
                quit,
            },
            change,
        )
    }

    pub(super) fn current(&self) -> Result<&dyn DynMatch> {
        self.game.as_deref().ok_or_else(no_match)
    }

    /// Answers one request parsed strictly (`None`: JSON, but not an object), or says
    /// why not.
    fn dispatch(
        &mut self,
        session: &mut Session,
        req: &Option<Map<String, Value>>,
    ) -> Result<Done> {
        let Some(obj) = req else {
            return Err(ProtoError::protocol(
                "a request is a JSON object with a \"cmd\" field",
            ));
        };
        let cmd = match obj.get("cmd") {
            Some(Value::String(c)) => c.as_str(),
            Some(_) => return Err(ProtoError::protocol("\"cmd\" must be a string")),
            None => {
                return Err(ProtoError::protocol(
                    "a request is a JSON object with a \"cmd\" field",
                ))
            }
        };
        let Some(allowed) = allowed_fields(cmd) else {
            return Err(ProtoError::protocol(format!(
                "unknown cmd '{cmd}' (known: {KNOWN})"
            )));
        };
        for k in obj.keys() {
            if k != "cmd" && k != "id" && k != "seat" && !allowed.contains(&k.as_str()) {
                return Err(ProtoError::protocol(format!(
                    "unknown field '{k}' for cmd '{cmd}'"
                )));
            }
        }
        let asker = self.asker(session, obj, cmd)?;
        let reply = |b: Body| Ok(Done::Reply(b, false, None));
        let changed = |b: Body, c: Change| Ok(Done::Reply(b, false, Some(c)));
        let seat = match asker {
            Asker::Seat(s) => Some(s),
            _ => None,
        };
        match cmd {
            "hello" => reply(
                Body::new()
                    .with("engine", "fm")?
                    .with("version", env!("CARGO_PKG_VERSION"))?
                    .with("protocol", &PROTOCOL_VERSION)?,
            ),
            "scenarios" => reply(Body::new().with("scenarios", &any::builtin_scenarios())?),
            "bind" => reply(self.bind(session, obj)?),
            "new" => changed(self.new_match(obj)?, Change::New),
            "apply" => changed(self.apply(obj, seat)?, Change::Apply),
            "legal" => reply(self.legal(session, obj, asker)?),
            "pending" => reply(self.pending()?),
            "scenario" => reply(self.scenario()?),
            "state" => reply(self.state(session, obj, asker)?),
            "view" => reply(self.view(session, obj, asker, seat)?),
            "svg" => reply(self.svg(obj, asker)?),
            "reachable" => reply(self.reachable(obj, seat)?),
            "odds" => reply(self.odds(obj, seat)?),
            "explain" => reply(self.explain(obj, seat)?),
            "seat" => reply(self.seat(obj)?),
            "seats" => reply(self.seats()?),
            "export" => reply(self.export(obj, seat)?),
            "log" => reply(self.log(obj, asker)?),
            "save" => reply(self.save()?),
            "load" => Ok(Done::Load(self.load_job(obj)?)),
            "undo" => {
                let (body, undone) = self.undo()?;
                if undone {
                    changed(body, Change::Undo)
                } else {
                    reply(body)
                }
            }
            "think" => Ok(Done::Think(self.think(obj, seat)?)),
            "chance" => reply(self.chance()?),
            "apply_chance" => {
                let (body, resolved) = self.apply_chance(obj)?;
                changed(body, Change::Chance(resolved))
            }
            "quit" => Ok(Done::Reply(Body::new().with("bye", &true)?, true, None)),
            _ => unreachable!("allowed_fields knows every cmd"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, Server};
    use serde_json::json;

    #[test]
    fn garbage_gets_errors_not_panics() {
        let mut s = Server::new();
        for bad in [
            "garbage",
            "[]",
            "42",
            "{}",
            r#"{"cmd":7}"#,
            r#"{"cmd":"fly"}"#,
            r#"{"cmd":"apply","command":{"type":"done"}}"#,
            r#"{"cmd":"new","scenario":"nowhere"}"#,
            r#"{"cmd":"new","scenario":"system-demo","seed":-1}"#,
            r#"{"cmd":"new","scenario_json":{"id":1}}"#,
            r#"{"cmd":"load","save":"{"}"#,
            r#"{"cmd":"legal","extra":1}"#,
        ] {
            let v = ask(&mut s, bad);
            assert!(v["error"]["rule"].is_string(), "{bad} -> {v}");
            assert!(v["error"]["message"].is_string(), "{bad} -> {v}");
        }
        assert!(s.handle_line("   ").is_none());
        let r = s.handle_bytes(b"\xff\xfe").expect("reply");
        assert!(r.line.contains("UTF-8"));
    }

    #[test]
    fn a_short_session() {
        let mut s = Server::new();
        let v = ask(
            &mut s,
            r#"{"cmd":"new","scenario":"system-demo","seed":3,"id":"n1"}"#,
        );
        assert_eq!(v["id"], "n1");
        assert!(v["events"].as_array().is_some_and(|e| !e.is_empty()));
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#);
        let first = legal["legal"][0].clone();
        let v = ask(
            &mut s,
            &json!({"cmd":"apply","command":first,"id":2}).to_string(),
        );
        assert_eq!(v["id"], 2);
        assert!(v["events"].is_array(), "{v}");
        let bad = ask(
            &mut s,
            r#"{"cmd":"apply","command":{"type":"move","unit":"nobody","path":[]}}"#,
        );
        assert_eq!(bad["error"]["rule"], "input");
        let save = ask(&mut s, r#"{"cmd":"save"}"#);
        let v = ask(
            &mut s,
            &json!({"cmd":"load","save":save["save"]}).to_string(),
        );
        assert_eq!(v["loaded"], 1);
        let v = ask(&mut s, r#"{"cmd":"undo"}"#);
        assert_eq!(v["undone"], true);
        let v = ask(&mut s, r#"{"cmd":"view","side":"b"}"#);
        assert_eq!(v["view"]["side"], "b");
        let r = s.handle_line(r#"{"cmd":"quit"}"#).expect("reply");
        assert!(r.quit);
    }
}
