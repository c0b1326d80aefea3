//! Play: `apply` (a command, or an action's index), `legal` in its compact forms,
//! `pending` and `undo`. A seat applies and lists commands only on its own decision.

use super::chance::{settled_events, with_chance};
use super::dispatch::Core;
use super::reply::{hash_hex, no_match, Body, ProtoError, Result};
use super::requests::{flag, parse_command};
use super::seats::Asker;
use super::session::Session;
use fm_core::Side;
use serde_json::{json, Map, Value};

impl Core {
    /// `apply`, of a `command` or of an action `index`; a seat's only on its own
    /// decision, answered with its redacted events and its view hash.
    pub(super) fn apply(&mut self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        if let Some(side) = seat {
            let deciding_side = g.decider();
            if deciding_side != Some(side) {
                return Err(ProtoError::new(
                    "seat",
                    match deciding_side {
                        Some(o) => format!("it is side {o}'s decision, not side {side}'s"),
                        None => "the game is over".to_string(),
                    },
                ));
            }
        }
        let cmd = match (obj.get("command"), obj.get("index")) {
            (Some(_), None) => parse_command(obj)?,
            (None, Some(v)) => {
                let size = g.action_space_size();
                let i = v.as_u64().filter(|&i| i < size as u64).ok_or_else(|| {
                    ProtoError::new(
                        "input",
                        format!("\"index\" must be an action index from 0 to {}", size - 1),
                    )
                })?;
                g.command_at(i as usize).ok_or_else(|| {
                    ProtoError::new("input", format!("action {i} names no command here"))
                })?
            }
            _ => {
                return Err(ProtoError::protocol(
                    "apply needs either \"command\" or \"index\"",
                ))
            }
        };
        let events = g.apply_json(&cmd)?;
        match seat {
            Some(side) => Body::new()
                .with("events", &settled_events(&**g, Some(side)))?
                .with("pending", &g.pending_json())?
                .with("hash", &hash_hex(g.view_hash(side))),
            None => with_chance(
                Body::new()
                    .with("events", &events)?
                    .with("pending", &g.pending_json())?
                    .with("hash", &hash_hex(g.state_hash()))?,
                &**g,
            ),
        }
    }

    /// `legal` in its forms (`docs/serve.md`, "Compact forms"): the commands, their
    /// action indices, or the commands grouped by unit; all, or one unit's; whole, or
    /// as a patch of the last such reply. A seat gets them only on its own decision.
    pub(super) fn legal(
        &self,
        session: &mut Session,
        obj: &Map<String, Value>,
        asker: Asker,
    ) -> Result<Body> {
        let g = self.current()?;
        let form = match obj.get("form") {
            None => "full",
            Some(Value::String(f)) if matches!(f.as_str(), "full" | "indices" | "by_unit") => {
                f.as_str()
            }
            Some(_) => {
                return Err(ProtoError::protocol(
                    "\"form\" must be \"full\", \"indices\" or \"by_unit\"",
                ))
            }
        };
        let unit = match obj.get("unit") {
            None => None,
            Some(Value::String(u)) => Some(u.as_str()),
            Some(_) => return Err(ProtoError::protocol("\"unit\" must be a unit's id")),
        };
        let delta = flag(obj, "delta")?;
        if unit.is_some() && obj.contains_key("delta") {
            return Err(ProtoError::protocol(
                "\"delta\" is for whole listings; one unit's listing is always whole",
            ));
        }
        let visible = match asker {
            Asker::Seat(s) => g.decider() == Some(s),
            // Refused before (a spectator decides nothing); never its listing.
            Asker::Spectator => false,
            Asker::Owner | Asker::Unbound => true,
        };
        let of_unit = |c: &Value| match unit {
            None => true,
            Some(u) => c.get("unit").and_then(Value::as_str) == Some(u),
        };
        let value = match form {
            _ if !visible && form == "by_unit" => json!({"units":{},"other":[]}),
            _ if !visible => json!([]),
            "indices" => Value::Array(
                g.legal_indices()
                    .into_iter()
                    .filter(|&i| unit.is_none() || g.command_at(i).is_some_and(|c| of_unit(&c)))
                    .map(Value::from)
                    .collect(),
            ),
            "by_unit" => {
                let (mut units, mut other) = (Map::new(), Vec::new());
                for mut c in g.legal_json().into_iter().filter(|c| of_unit(c)) {
                    let id = match c.as_object_mut().and_then(|o| o.shift_remove("unit")) {
                        Some(Value::String(id)) => id,
                        Some(v) => {
                            // A "unit" that is not an id stays in its command.
                            if let Some(o) = c.as_object_mut() {
                                o.insert("unit".into(), v);
                            }
                            other.push(c);
                            continue;
                        }
                        None => {
                            other.push(c);
                            continue;
                        }
                    };
                    match units.entry(id).or_insert_with(|| Value::Array(Vec::new())) {
                        Value::Array(list) => list.push(c),
                        _ => unreachable!("every group is an array"),
                    }
                }
                json!({"units": units, "other": other})
            }
            _ => Value::Array(g.legal_json().into_iter().filter(|c| of_unit(c)).collect()),
        };
        let body = match unit {
            // One unit's listing is small: never a base, always whole.
            Some(_) => Body::new().with("legal", &value)?,
            None => {
                let key = format!("{}/legal/{form}", asker.key());
                session.deltable(Body::new(), key, "legal", value, delta)?
            }
        };
        if form == "indices" {
            body.with("size", &g.action_space_size())
        } else {
            Ok(body)
        }
    }

    /// `pending`: the decision the match waits for.
    pub(super) fn pending(&self) -> Result<Body> {
        Body::new().with("pending", &self.current()?.pending_json())
    }

    /// `undo`: the reply, and whether a command was undone (only then did the match
    /// change).
    pub(super) fn undo(&mut self) -> Result<(Body, bool)> {
        let g = self.game.as_mut().ok_or_else(no_match)?;
        let undone = g.undo();
        let body = Body::new()
            .with("undone", &undone)?
            .with("pending", &g.pending_json())?
            .with("hash", &hash_hex(g.state_hash()))?;
        Ok((with_chance(body, &**g)?, undone))
    }
}
