//! Match management, the owner's requests: `new` (a built-in scenario, or one given as
//! JSON), `load` and `save`. Starting or loading a match ends every seat and spectator
//! of the last one.

use super::chance::{chance_mode_field, with_chance};
use super::dispatch::Core;
use super::notify::Change;
use super::reply::{hash_hex, reply_error, Body, ProtoError, Reply, Result};
use super::requests::json_or_string;
use fm_core::any;
use fm_core::json::parse_strict;
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

impl Core {
    /// `new`: a match of a built-in scenario or of a scenario given as JSON, its draws
    /// made by its seeded generator or, with `"chance_mode":"explicit"`, each left to
    /// the owner (`apply_chance`) from the opening on.
    pub(super) fn new_match(&mut self, obj: &Map<String, Value>) -> Result<Body> {
        let mode = chance_mode_field(obj)?;
        let bad_seed = || ProtoError::protocol("\"seed\" must be an integer from 0 to 2^64-1");
        let seed = match obj.get("seed") {
            None => 0,
            Some(Value::Number(n)) => n.as_u64().ok_or_else(bad_seed)?,
            Some(Value::String(s)) => s.parse::<u64>().map_err(|_| bad_seed())?,
            Some(_) => return Err(bad_seed()),
        };
        let m = match (obj.get("scenario"), obj.get("scenario_json")) {
            (Some(Value::String(name)), None) => {
                let names = any::builtin_scenarios();
                if !names.contains(&name.as_str()) {
                    return Err(ProtoError::new(
                        "scenario",
                        format!("unknown scenario '{name}' (built in: {})", names.join(", ")),
                    ));
                }
                any::new_match(name, seed)?
            }
            (None, Some(v)) => {
                let value = match v {
                    // A scenario inside a string is read as strictly as the request.
                    Value::String(s) => parse_strict(s)
                        .map_err(|e| ProtoError::new("scenario", format!("scenario JSON: {e}")))?,
                    Value::Object(_) => v.clone(),
                    _ => {
                        return Err(ProtoError::protocol(
                            "expected a JSON object (or a string holding one)",
                        ))
                    }
                };
                any::new_match_value(value, seed)?
            }
            _ => {
                return Err(ProtoError::protocol(
                    "new needs either \"scenario\": a built-in name, or \"scenario_json\": \
                     a scenario",
                ))
            }
        };
        let m = match mode {
            fm_core::ChanceMode::Sampled => m,
            fm_core::ChanceMode::Explicit => m.new_with_chance(mode),
        };
        self.seats.clear();
        self.spectators.clear();
        let body = Body::new()
            .with("events", &m.opening_events_json())?
            .with("pending", &m.pending_json())?
            .with("hash", &hash_hex(m.state_hash()))?;
        let body = with_chance(body, &*m)?;
        self.game = Some(m);
        Ok(body)
    }

    /// `load`, checked at once: the save's text, to be read and replayed later without
    /// the match's lock ([`LoadJob::run`]), then put in place ([`Core::finish_load`]).
    pub(super) fn load_job(&self, obj: &Map<String, Value>) -> Result<LoadJob> {
        let save = obj
            .get("save")
            .ok_or_else(|| ProtoError::protocol("load needs \"save\""))?;
        Ok(LoadJob {
            text: json_or_string(save)?.into_owned(),
            id: None,
        })
    }

    /// Puts a loaded match in place of the current one (every seat and spectator ends)
    /// and answers
    /// the `load`, its change journaled first.
    pub fn finish_load(&mut self, loaded: Loaded) -> (Reply, Option<Change>) {
        let id = loaded.id.as_deref();
        let m = match loaded.result {
            Ok(m) => m,
            Err(e) => return (reply_error(id, &e), None),
        };
        if let Some(why) = self.journal_failed() {
            return (reply_error(id, &ProtoError::new("journal", why)), None);
        }
        let body = (|| -> Result<Body> {
            let body = Body::new()
                .with("loaded", &m.log_len())?
                .with("pending", &m.pending_json())?
                .with("hash", &hash_hex(m.state_hash()))?;
            with_chance(body, &*m)
        })();
        self.seats.clear();
        self.spectators.clear();
        self.game = Some(m);
        let mut req = Map::new();
        req.insert("cmd".into(), "load".into());
        self.finish(id, body, false, Some(Change::Load), Some(&req), (0, 0))
    }
    /// `save`: the match's save (it holds the seed and every hidden value).
    pub(super) fn save(&self) -> Result<Body> {
        Ok(Body::new().with_raw("save", self.current()?.save()))
    }
}

/// A `load` checked and ready: the save's text, read and replayed by [`LoadJob::run`]
/// without the match's lock (a long save takes a while), then put in place by
/// [`Core::finish_load`].
pub struct LoadJob {
    text: String,
    pub(super) id: Option<String>,
}

/// What [`LoadJob::run`] came to: the match, or why the save is refused.
pub struct Loaded {
    result: Result<Box<dyn fm_core::any::DynMatch>>,
    id: Option<String>,
}

impl LoadJob {
    /// Reads and replays the save (a panic in the engine is caught and reported).
    pub fn run(self) -> Loaded {
        let result = match catch_unwind(AssertUnwindSafe(|| any::load_match(&self.text))) {
            Ok(r) => r.map_err(ProtoError::from),
            Err(_) => Err(ProtoError::new(
                "panic",
                "internal error (panic in fm while loading); the match is unchanged",
            )),
        };
        Loaded {
            result,
            id: self.id,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, Server};
    use serde_json::json;

    /// Finding 8, through serve: a scenario that claims a built-in id must be it.
    #[test]
    fn a_builtin_id_needs_the_builtin_data() {
        let mut s = Server::new();
        let mut data =
            serde_json::to_value(&fm_core::Scenario::builtin("system-demo").unwrap().data).unwrap();
        let ok = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert!(ok.get("events").is_some(), "{ok}");
        data["units"][0]["steps"][0] = json!({"attack":99,"defense":99,"move":20});
        let e = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "scenario", "{e}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("an id of its own"),
            "{e}"
        );
        data["id"] = json!("demo-99");
        let ok = ask(
            &mut s,
            &json!({"cmd":"new","scenario_json":data}).to_string(),
        );
        assert!(ok.get("events").is_some(), "{ok}");
    }
}
