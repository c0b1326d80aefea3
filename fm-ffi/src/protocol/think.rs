//! The built-in AI: `think`, checked at once ([`think_job`]) and run later, on a copy
//! of the match, as a [`ThinkJob`], so that a socket server need not hold the match's
//! lock during the search.

use super::dispatch::Core;
use super::reply::{reply_error, Body, ProtoError, Reply, Result};
use fm_core::any::DynMatch;
use fm_core::Side;
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A `think` request, checked and ready: a copy of the match and the search settings.
pub struct ThinkJob {
    game: Box<dyn DynMatch>,
    cfg: fm_core::search::SearchConfig,
    ms: u64,
    pub(super) id: Option<String>,
}

impl ThinkJob {
    /// Runs the search (up to its time budget) and gives the reply.
    pub fn run(self) -> Reply {
        self.run_until(&std::sync::atomic::AtomicBool::new(false))
    }

    /// Runs the search until its time is up or `stop` is set (the server's `quit`).
    pub fn run_until(self, stop_now: &std::sync::atomic::AtomicBool) -> Reply {
        let id = self.id.as_deref();
        let began = std::time::Instant::now();
        let budget = std::time::Duration::from_millis(self.ms);
        let mut stop =
            || began.elapsed() >= budget || stop_now.load(std::sync::atomic::Ordering::Relaxed);
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.game.think(&self.cfg, &mut stop, 16)
        }));
        let body = match result {
            Ok(Ok(r)) => Body::new().with("think", &r),
            Ok(Err(e)) => Err(match e {
                fm_core::search::SearchError::Config { .. }
                | fm_core::search::SearchError::Json(_) => ProtoError::protocol(e.to_string()),
                other => ProtoError::new("search", other.to_string()),
            }),
            Err(_) => Err(ProtoError::new(
                "panic",
                "internal error (panic in the search); the match is unchanged",
            )),
        };
        match body {
            Ok(b) => Reply {
                line: b.render(id),
                quit: false,
            },
            Err(e) => reply_error(id, &e),
        }
    }
}

impl Core {
    /// `think`: a seat may ask only about its own decision.
    pub(super) fn think(&self, obj: &Map<String, Value>, seat: Option<Side>) -> Result<ThinkJob> {
        let g = self.current()?;
        if let Some(s) = seat {
            if g.decider() != Some(s) {
                return Err(ProtoError::new(
                    "seat",
                    format!("a seat thinks only about its own decisions (side {s}'s)"),
                ));
            }
        }
        think_job(g, obj)
    }
}

/// The longest `think` a request may ask for.
const MAX_THINK_MS: u64 = 600_000;

/// `think`: the built-in AI's choice for the pending decision, within `time_ms`
/// (default 1000) and the `config`'s iterations, checked now and run later on a copy
/// of the match. The search reads only the deciding side's view, so a seat may ask it
/// about its own decision.
fn think_job(g: &dyn DynMatch, obj: &Map<String, Value>) -> Result<ThinkJob> {
    let ms = match obj.get("time_ms") {
        None => 1000,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_THINK_MS).contains(&n) => n,
            _ => {
                return Err(ProtoError::protocol(format!(
                    "\"time_ms\" must be an integer from 1 to {MAX_THINK_MS}"
                )))
            }
        },
    };
    let cfg = match obj.get("config") {
        None => fm_core::search::SearchConfig {
            // A time budget alone: iterations are not the limit.
            iterations: fm_core::search::SearchConfig::MAX_ITERATIONS,
            ..Default::default()
        },
        Some(v @ Value::Object(_)) => fm_core::search::SearchConfig::from_json(&v.to_string())
            .map_err(|e| ProtoError::protocol(e.to_string()))?,
        Some(_) => {
            return Err(ProtoError::protocol(
                "\"config\" must be an object of search settings",
            ))
        }
    };
    Ok(ThinkJob {
        game: g.clone_box(),
        cfg,
        ms,
        id: None,
    })
}

#[cfg(test)]
mod tests {
    use crate::protocol::{ask, Server};

    #[test]
    fn think_chooses_for_the_decider_and_a_seat_only_for_its_own_side() {
        let mut s = Server::new();
        ask(&mut s, r#"{"cmd":"new","scenario":"system-demo","seed":3}"#);
        let hash = ask(&mut s, r#"{"cmd":"state"}"#)["hash"].clone();
        let cfg = r#""config":{"iterations":20,"seed":2,"max_priors":30}"#;
        let v = ask(
            &mut s,
            &format!(r#"{{"cmd":"think","time_ms":60000,{cfg}}}"#),
        );
        let legal = ask(&mut s, r#"{"cmd":"legal"}"#)["legal"].clone();
        assert!(
            legal.as_array().unwrap().contains(&v["think"]["command"]),
            "{v}"
        );
        assert_eq!(v["think"]["iterations"], 20);
        assert_eq!(
            ask(&mut s, r#"{"cmd":"state"}"#)["hash"],
            hash,
            "think changes nothing"
        );
        // A seat of the deciding side (Red sets up first) may think; the other may not.
        let a = ask(&mut s, r#"{"cmd":"seat","side":"a"}"#)["seat"].clone();
        let b = ask(&mut s, r#"{"cmd":"seat","side":"b"}"#)["seat"].clone();
        let vb = ask(&mut s, &format!(r#"{{"cmd":"think","seat":{b},{cfg}}}"#));
        assert_eq!(
            vb["think"], v["think"],
            "the search reads only side b's view"
        );
        let va = ask(&mut s, &format!(r#"{{"cmd":"think","seat":{a}}}"#));
        assert_eq!(va["error"]["rule"], "seat", "{va}");
        // A time budget alone bounds it; bad budgets and settings are refused.
        let t = ask(&mut s, r#"{"cmd":"think","time_ms":30}"#);
        assert!(t["think"]["index"].is_u64(), "{t}");
        for bad in [
            r#"{"cmd":"think","time_ms":0}"#,
            r#"{"cmd":"think","time_ms":"1"}"#,
            r#"{"cmd":"think","time_ms":600001}"#,
            r#"{"cmd":"think","config":{"iterations":0}}"#,
            r#"{"cmd":"think","config":{"depth":3}}"#,
            r#"{"cmd":"think","config":[1]}"#,
            r#"{"cmd":"think","budget":3}"#,
        ] {
            let e = ask(&mut s, bad);
            assert_eq!(e["error"]["rule"], "protocol", "{bad} -> {e}");
        }
    }
}
