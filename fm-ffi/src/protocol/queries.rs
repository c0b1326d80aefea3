//! The queries, which change nothing: `scenario`, `state`, `view`, `svg`, `reachable`,
//! `odds`, `explain`, `export` and `log`. A seat is answered from its own side's
//! knowledge alone: its view, its record, and a match drawn from its view where a
//! query reads a state. A spectator gets only its view, picture and log: what both
//! sides may know.

use super::dispatch::Core;
use super::reply::{hash_hex, Body, ProtoError, Result};
use super::requests::{flag, parse_command, side_field, since};
use super::seats::{as_seat, is_spectator_side, own_side, spectator_only, Asker};
use super::session::Session;
use fm_core::{Side, Viewer};
use serde_json::{json, Map, Value};

impl Core {
    /// `scenario`: the current match's system and scenario.
    pub(super) fn scenario(&self) -> Result<Body> {
        // The scenario is what both players have in the box: the map, its
        // terrain, the units, the tracks and the rules' parameters. No value
        // drawn in play is in it.
        let g = self.current()?;
        Body::new()
            .with("system", g.system())?
            .with("scenario", &g.scenario_json())
    }

    /// `state`: the full state, the owner's alone (or a patch of the last one sent).
    pub(super) fn state(
        &self,
        session: &mut Session,
        obj: &Map<String, Value>,
        asker: Asker,
    ) -> Result<Body> {
        let g = self.current()?;
        let hash = hash_hex(g.state_hash());
        let key = format!("{}/state", asker.key());
        let delta = flag(obj, "delta")?;
        let b = session.deltable(Body::new(), key, "state", g.state_json(), delta)?;
        b.with("hash", &hash)
    }

    /// `view`: a side's view (a seat's own) or a spectator's (a spectator's own), or a
    /// patch of the last one sent.
    pub(super) fn view(
        &self,
        session: &mut Session,
        obj: &Map<String, Value>,
        asker: Asker,
        seat: Option<Side>,
    ) -> Result<Body> {
        let viewer: Viewer = match (asker, seat, obj.get("side")) {
            (Asker::Spectator, _, _) => {
                spectator_only(obj, "view")?;
                Viewer::Spectator
            }
            (_, Some(s), None) => s.into(),
            (_, Some(s), Some(v)) => {
                if side_field(obj, "view")? != s {
                    return Err(ProtoError::new(
                        "seat",
                        format!("this seat is side {s}'s; it may not view {v}"),
                    ));
                }
                s.into()
            }
            (_, None, _) if is_spectator_side(obj) => Viewer::Spectator,
            (_, None, _) => side_field(obj, "view")
                .map_err(|_| {
                    ProtoError::protocol("view needs \"side\": \"a\", \"b\" or \"spectator\"")
                })?
                .into(),
        };
        let g = self.current()?;
        let (hash, view) = match viewer.side() {
            Some(side) => (g.view_hash(side), g.view_json(side)),
            None => (g.spectator_view_hash()?, g.spectator_view_json()?),
        };
        let key = format!("{}/view/{viewer}", asker.key());
        let delta = flag(obj, "delta")?;
        let b = session.deltable(Body::new(), key, "view", view, delta)?;
        b.with("hash", &hash_hex(hash))
    }

    /// `svg`: a picture of a side's view, of a spectator's, or of the whole state (the
    /// owner's).
    pub(super) fn svg(&self, obj: &Map<String, Value>, asker: Asker) -> Result<Body> {
        let g = self.current()?;
        let options = match obj.get("options") {
            None => json!({}),
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => {
                return Err(ProtoError::protocol(
                    "\"options\" must be an object of drawing options",
                ))
            }
        };
        // A seat draws its own side's view, a spectator its own; the owner any side's,
        // a spectator's, or the whole state (no `side`).
        let viewer = match asker {
            Asker::Seat(s) => {
                own_side(obj, s, "draw")?;
                Some(Viewer::from(s))
            }
            Asker::Spectator => {
                spectator_only(obj, "draw")?;
                Some(Viewer::Spectator)
            }
            _ if is_spectator_side(obj) => Some(Viewer::Spectator),
            _ if obj.contains_key("side") => Some(side_field(obj, "svg")?.into()),
            _ => None,
        };
        let svg = match viewer {
            Some(Viewer::Spectator) => g.spectator_svg(&options)?,
            v => g.svg(v.and_then(Viewer::side), &options)?,
        };
        Body::new().with("svg", &svg)
    }

    /// `reachable`: the hexes a unit could move to.
    pub(super) fn reachable(&self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let unit = match obj.get("unit") {
            Some(Value::String(u)) => u.as_str(),
            _ => {
                return Err(ProtoError::protocol(
                    "reachable needs \"unit\": a unit's id",
                ))
            }
        };
        let g = self.current()?;
        let found = match seat {
            Some(s) => as_seat(g, s)?.reachable(unit)?,
            None => g.reachable(unit)?,
        };
        Body::new().with("reachable", &found)
    }

    /// `odds`: the odds of a proposal (`docs/serve.md`), as a side knows them.
    pub(super) fn odds(&self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let proposal = match obj.get("proposal") {
            Some(v @ Value::Object(_)) => v,
            _ => {
                return Err(ProtoError::protocol(
                    "odds needs \"proposal\": an object (docs/serve.md)",
                ))
            }
        };
        let g = self.current()?;
        let side = match seat {
            Some(s) => {
                own_side(obj, s, "ask odds for")?;
                s
            }
            None if obj.contains_key("side") => side_field(obj, "odds")?,
            None => g
                .decider()
                .ok_or_else(|| ProtoError::protocol("odds needs \"side\" once the game is over"))?,
        };
        Body::new().with("odds", &g.odds(side, proposal)?)
    }

    /// `explain`: why a command would be refused (`null`: it would not).
    pub(super) fn explain(&self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let g = self.current()?;
        let command = parse_command(obj)?;
        let why = match seat {
            Some(s) => as_seat(g, s)?.explain(&command)?,
            None => g.explain(&command)?,
        };
        let why = why.map(|e| json!({"rule": e.rule, "message": e.to_string()}));
        Body::new().with("explain", &why)
    }

    /// `export`: a side's record of the match (a seat's own).
    pub(super) fn export(&self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<Body> {
        let side = match seat {
            Some(s) => {
                if obj.get("side").is_some() && side_field(obj, "export")? != s {
                    return Err(ProtoError::new(
                        "seat",
                        format!("this seat is side {s}'s; it may export only its own record"),
                    ));
                }
                s
            }
            None => side_field(obj, "export")?,
        };
        Body::new().with("export", &self.current()?.export_json(side))
    }

    /// `log`: the commands from `since` on, as the asker may know them.
    pub(super) fn log(&self, obj: &Map<String, Value>, asker: Asker) -> Result<Body> {
        let g = self.current()?;
        let from = since(obj, g.log_len())?;
        let mut log = match asker {
            Asker::Seat(s) => g.side_log_json(s, from),
            Asker::Spectator => g.spectator_log_json(from)?,
            Asker::Owner | Asker::Unbound => g.log_json(from),
        };
        if !flag(obj, "words")? {
            return Body::new().with("log", &log)?.with("count", &g.log_len());
        }
        // Each entry's events in words, as the asker may know them, beside its events.
        let viewer = match asker {
            Asker::Seat(Side::A) => Some(Viewer::A),
            Asker::Seat(Side::B) => Some(Viewer::B),
            Asker::Spectator => Some(Viewer::Spectator),
            Asker::Owner | Asker::Unbound => None,
        };
        let words = g.log_words(viewer, from)?;
        if let Value::Array(entries) = &mut log {
            for (entry, lines) in entries.iter_mut().zip(words.commands) {
                if let Value::Object(o) = entry {
                    o.insert("words".into(), json!(lines));
                }
            }
        }
        Body::new()
            .with("log", &log)?
            .with("count", &g.log_len())?
            .with("opening_words", &words.opening)
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, random_step, Server};
    use fm_core::Side;
    use serde_json::{json, Value};

    /// The queries (issue 19): a seat's answers come from its side's knowledge alone.
    /// A second server loads a match drawn from side a's view (its hidden values made
    /// up anew: another referee's state); side a's seat gets the same svg, odds,
    /// reachable hexes and explanations from both, and the owner's answers are the
    /// layer's own.
    #[test]
    fn queries_answer_a_seat_from_its_side_knowledge_alone() {
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"vimy-ridge","seed":5}"#);
        let mut rng = 99u64;
        for _ in 0..150 {
            if !random_step(&mut s, &mut rng) {
                break;
            }
        }
        let g = s.game().unwrap().clone_box();
        let drawn = g.determinized(Side::A, 1234).unwrap();
        assert_ne!(
            drawn.state_hash(),
            g.state_hash(),
            "another referee's state"
        );
        assert_eq!(drawn.view_hash(Side::A), g.view_hash(Side::A));
        let mut t = Server::new();
        let loaded = ask(
            &mut t,
            &json!({"cmd":"load","save":drawn.save()}).to_string(),
        );
        assert!(loaded.get("error").is_none(), "{loaded}");
        let seat_a = |s: &mut Server| ask(s, r#"{"cmd":"seat","side":"a"}"#)["seat"].clone();
        let (sa, ta) = (seat_a(&mut s), seat_a(&mut t));
        // Hexes with units on them, and the units, from side a's view.
        let view = ask(&mut s, &json!({"cmd":"view","seat":sa}).to_string())["view"].clone();
        let units: Vec<(String, String)> = view["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|u| Some((u["id"].as_str()?.into(), u["loc"]["map"].as_str()?.into())))
            .collect();
        assert!(units.len() > 5);
        let both = |s: &mut Server, t: &mut Server, req: Value| {
            let mut r1 = req.clone();
            r1["seat"] = sa.clone();
            let mut r2 = req;
            r2["seat"] = ta.clone();
            let (x, y) = (ask(s, &r1.to_string()), ask(t, &r2.to_string()));
            assert_eq!(x, y, "{r1}");
            x
        };
        let pic = both(
            &mut s,
            &mut t,
            json!({"cmd":"svg","options":{"hex_size":20}}),
        );
        let opts = json!({"hex_size":20});
        assert_eq!(
            pic["svg"],
            g.svg(Some(Side::A), &opts).unwrap(),
            "the layer's picture"
        );
        let e = ask(
            &mut s,
            &json!({"cmd":"svg","side":"b","seat":sa}).to_string(),
        );
        assert_eq!(e["error"]["rule"], "seat");
        let referee = ask(&mut s, r#"{"cmd":"svg"}"#);
        assert_eq!(referee["svg"], g.svg(None, &json!({})).unwrap());
        let bad = ask(&mut s, r#"{"cmd":"svg","options":{"hex_size":"big"}}"#);
        assert_eq!(bad["error"]["rule"], "input", "{bad}");
        let mut odds_seen = 0;
        for (unit, hex) in &units {
            let r = both(&mut s, &mut t, json!({"cmd":"reachable","unit":unit}));
            assert!(r["reachable"].is_array() || r["error"].is_object(), "{r}");
            let proposal = json!({"hex":hex,"units":[]});
            let o = both(&mut s, &mut t, json!({"cmd":"odds","proposal":proposal}));
            if o["odds"].is_object() {
                odds_seen += 1;
                assert_eq!(o["odds"], g.odds(Side::A, &proposal).unwrap());
            }
            let cmd = json!({"type":"move","unit":unit,"path":[hex]});
            let x = both(&mut s, &mut t, json!({"cmd":"explain","command":cmd}));
            assert!(
                x["explain"]["rule"].is_string(),
                "moving onto its own hex: {x}"
            );
        }
        assert!(odds_seen > 0, "some bombardment odds were asked");
        // The owner's answers are the match's own; a legal command explains as null.
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#)["legal"].clone();
        if let Some(c) = legal.as_array().unwrap().first() {
            let x = ask(&mut s, &json!({"cmd":"explain","command":c}).to_string());
            assert_eq!(x, json!({"explain":null}));
        }
        let (unit, _) = &units[0];
        let r = ask(&mut s, &json!({"cmd":"reachable","unit":unit}).to_string());
        if let Ok(want) = g.reachable(unit) {
            assert_eq!(r["reachable"], want);
        }
        for bad in [
            r#"{"cmd":"reachable"}"#,
            r#"{"cmd":"odds","proposal":[1]}"#,
            r#"{"cmd":"explain"}"#,
            r#"{"cmd":"svg","options":3}"#,
        ] {
            assert_eq!(ask(&mut s, bad)["error"]["rule"], "protocol", "{bad}");
        }
        let x = ask(&mut s, r#"{"cmd":"explain","command":{"type":"fly"}}"#);
        assert_eq!(x["error"]["rule"], "input", "{x}");
        let r = ask(&mut s, r#"{"cmd":"reachable","unit":"nobody"}"#);
        assert!(r["error"]["rule"].is_string(), "{r}");
    }

    /// Issue 34: `log` with `"words": true` gives each command's events in words, as
    /// the `play` example prints them, from the events the asker may know: the owner's
    /// from the full events, a seat's and a spectator's from their redacted ones (Vimy
    /// Ridge hides the allotment and support fire), and the opening's in
    /// `opening_words`.
    #[test]
    fn issue_34_log_in_words_as_play_prints_them() {
        let mut s = Server::new();
        let opening = ask(&mut s, r#"{"cmd":"new","scenario":"vimy-ridge","seed":3}"#);
        let sc = fm_core::Scenario::builtin("vimy-ridge").unwrap();
        let say = |events: &Value| -> Vec<String> {
            let events: Vec<fm_core::Event> = serde_json::from_value(events.clone()).unwrap();
            events
                .iter()
                .filter_map(|e| fm_core::words::describe(&sc, e))
                .collect()
        };
        let seats: Vec<Value> = ["a", "b", "spectator"]
            .iter()
            .map(|side| ask(&mut s, &json!({"cmd":"seat","side":side}).to_string())["seat"].clone())
            .collect();
        let mut rng = 7u64;
        for _ in 0..120 {
            if !random_step(&mut s, &mut rng) {
                break;
            }
        }
        let mut lines = 0;
        for seat in std::iter::once(Value::Null).chain(seats) {
            let mut req = json!({"cmd":"log","since":0,"words":true});
            let mut plain = json!({"cmd":"log","since":0});
            if !seat.is_null() {
                req["seat"] = seat.clone();
                plain["seat"] = seat.clone();
            }
            let r = ask(&mut s, &req.to_string());
            let p = ask(&mut s, &plain.to_string());
            assert!(p.get("opening_words").is_none(), "words only when asked");
            let (log, plain_log) = (r["log"].as_array().unwrap(), p["log"].as_array().unwrap());
            assert_eq!(log.len(), plain_log.len());
            assert!(log.len() > 50, "{seat}: {} commands", log.len());
            for (e, q) in log.iter().zip(plain_log) {
                let mut without = e.clone();
                let words = without.as_object_mut().unwrap().remove("words").unwrap();
                assert_eq!(&without, q, "the entry is unchanged but for its words");
                assert_eq!(words, json!(say(&e["events"])), "{seat}: {e}");
                lines += words.as_array().unwrap().len();
            }
            assert_eq!(r["opening_words"], json!(say(&opening["events"])));
        }
        assert!(lines > 200, "{lines} lines");
        // From `since` on, and a bad flag refused.
        let tail = ask(&mut s, r#"{"cmd":"log","since":50,"words":true}"#);
        let all = ask(&mut s, r#"{"cmd":"log","since":0,"words":true}"#);
        assert_eq!(
            tail["log"].as_array().unwrap()[..],
            all["log"].as_array().unwrap()[50..]
        );
        let bad = ask(&mut s, r#"{"cmd":"log","words":1}"#);
        assert_eq!(bad["error"]["rule"], "protocol", "{bad}");
    }
}
