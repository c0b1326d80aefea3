//! The built-in AI: `think`, checked at once ([`think_job`]) and run later, on a copy
//! of the match, as a [`ThinkJob`], so that a socket server need not hold the match's
//! lock during the search; and a server's bounds on it ([`ThinkLimits`]: its time, the
//! memory of its tree, how many run at once).

use super::dispatch::Core;
use super::reply::{reply_error, Body, ProtoError, Reply, Result};
use fm_core::any::DynMatch;
use fm_core::Side;
use serde_json::{Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A `think` request, checked and ready: a copy of the match and the search settings.
pub struct ThinkJob {
    game: Box<dyn DynMatch>,
    cfg: fm_core::search::SearchConfig,
    ms: u64,
    pub(super) id: Option<String>,
    /// Its place among the thinks running at once, given back when it is dropped.
    _slot: Slot,
}

/// Gives the memory a finished search freed (its tree) back to the system. glibc's
/// malloc keeps what a thread frees in that thread's arena, for that thread: a socket
/// server, whose connections each think on their own thread, held every tree it had
/// grown, one per connection that had thought (37 MB more for each, measured with
/// 32 MiB trees, though one ran at a time), well past its think memory.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::os::raw::c_int;
        }
        // SAFETY: malloc_trim (glibc 2.8 and later) only returns the free memory of
        // every arena to the system, taking each arena's lock; any thread may call it
        // at any time.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// A server's bounds on `think` (`serve`'s `--max-think-ms`, `--think-memory` and
/// `--max-thinks`, `docs/serve.md`); the default bounds nothing but a request's
/// `time_ms`, to the protocol's 600000.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkLimits {
    /// The longest `time_ms` a request may ask for (1 to 600000); a longer one is
    /// refused with rule `"limit"`.
    pub max_ms: u64,
    /// The memory the search trees of all the thinks running at once may hold, in
    /// bytes (`None`: no bound). Each think's tree may hold `memory / max_thinks`
    /// (`SearchConfig::max_tree_bytes`, lowered to it if a request asks for more).
    pub memory: Option<u64>,
    /// The most thinks running at once; one more is refused with rule `"limit"`.
    pub max_thinks: usize,
}

impl Default for ThinkLimits {
    fn default() -> Self {
        ThinkLimits {
            max_ms: MAX_THINK_MS,
            memory: None,
            max_thinks: usize::MAX,
        }
    }
}

impl ThinkLimits {
    /// The memory one think's tree may hold, if bounded (at least the search's least,
    /// `SearchConfig::MIN_TREE_BYTES`).
    fn share(&self) -> Option<u64> {
        let each = self.memory? / self.max_thinks.max(1) as u64;
        Some(each.max(fm_core::search::SearchConfig::MIN_TREE_BYTES))
    }
}

/// A [`Core`]'s bounds on `think` and the count of thinks running (the jobs it handed
/// out not yet dropped).
#[derive(Default)]
pub(super) struct Thinks {
    limits: ThinkLimits,
    running: Arc<AtomicUsize>,
}

/// One running think's place in [`Thinks::running`].
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A byte count as `serve`'s flags take it: an integer, or one with a suffix `K`, `M`,
/// `G` or `T` (powers of 1024; `KiB`, `MB` and the like too); `None` for anything
/// else, or more than `u64::MAX`.
///
/// ```
/// use fm::protocol::parse_bytes;
/// assert_eq!(parse_bytes("268435456"), Some(256 << 20));
/// assert_eq!(parse_bytes("256M"), Some(256 << 20));
/// assert_eq!(parse_bytes("1GiB"), Some(1 << 30));
/// assert_eq!(parse_bytes("1.5G"), None);
/// ```
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    if digits == 0 {
        return None;
    }
    let n: u64 = t[..digits].parse().ok()?;
    let shift = match t[digits..].to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return None,
    };
    n.checked_mul(1 << shift)
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
        give_back_freed_memory();
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
    /// Bounds every `think` from now on (a socket server's, or `serve`'s flags on
    /// stdin); the thinks already running keep theirs.
    pub fn limit_thinks(&mut self, limits: ThinkLimits) {
        self.thinks.limits = limits;
    }

    /// `think`: a seat may ask only about its own decision; within the server's
    /// [`ThinkLimits`].
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
        think_job(g, obj, &self.thinks)
    }
}

/// The longest `think` a request may ask for.
const MAX_THINK_MS: u64 = 600_000;

/// `think`: the built-in AI's choice for the pending decision, within `time_ms`
/// (default 1000) and the `config`'s iterations, checked now and run later on a copy
/// of the match. The search reads only the deciding side's view, so a seat may ask it
/// about its own decision. Past the server's bounds (`thinks`) it is refused with rule
/// `"limit"`: a `time_ms` above its longest, or as many thinks running as it allows;
/// its tree is bounded by its share of the server's think memory.
fn think_job(g: &dyn DynMatch, obj: &Map<String, Value>, thinks: &Thinks) -> Result<ThinkJob> {
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
    let limits = &thinks.limits;
    if ms > limits.max_ms {
        return Err(ProtoError::new(
            "limit",
            format!(
                "\"time_ms\" {ms} is more than this server allows a think: {} ms (--max-think-ms)",
                limits.max_ms
            ),
        ));
    }
    let mut cfg = cfg;
    if let Some(share) = limits.share() {
        cfg.max_tree_bytes = Some(cfg.max_tree_bytes.map_or(share, |b| b.min(share)));
    }
    let max = limits.max_thinks;
    if thinks
        .running
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        })
        .is_err()
    {
        return Err(ProtoError::new(
            "limit",
            format!(
                "the server's think memory is in use: {max} thinks are running, the most it \
                 runs at once (--max-thinks); try again when one has answered"
            ),
        ));
    }
    Ok(ThinkJob {
        game: g.clone_box(),
        cfg,
        ms,
        id: None,
        _slot: Slot(Arc::clone(&thinks.running)),
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

    /// Issue 33: a server's bounds on `think`. A `time_ms` above its longest is refused
    /// naming the bound; each think's tree holds at most its share of the think memory
    /// (a request asking for more is lowered to it, one asking for less keeps its
    /// own); and past the most thinks at once one more is refused until one is done.
    #[test]
    fn think_is_held_to_the_servers_limits() {
        use crate::protocol::{Core, Session, Step, ThinkLimits};
        let mut s = Server::new();
        s.limit_thinks(ThinkLimits {
            max_ms: 2000,
            memory: Some(4 << 20),
            max_thinks: 2,
        });
        ask(
            &mut s,
            r#"{"cmd":"new","scenario":"meuse-argonne","seed":1}"#,
        );
        let e = ask(&mut s, r#"{"cmd":"think","time_ms":2001}"#);
        assert_eq!(e["error"]["rule"], "limit", "{e}");
        let m = e["error"]["message"].as_str().unwrap();
        assert!(m.contains("2000 ms (--max-think-ms)"), "{m}");
        let e = ask(&mut s, r#"{"cmd":"think","time_ms":600001}"#);
        assert_eq!(e["error"]["rule"], "protocol", "{e}");
        // Meuse Argonne's set-up fills 2 MiB in a fraction of the 2 s.
        let t = ask(&mut s, r#"{"cmd":"think","time_ms":2000}"#);
        assert_eq!(t["think"]["stopped"], "memory", "{t}");
        assert!(t["think"]["tree_bytes"].as_u64().unwrap() <= 2 << 20, "{t}");
        let cfg = r#""config":{"iterations":10000000,"max_tree_bytes":1000000000}"#;
        let t = ask(
            &mut s,
            &format!(r#"{{"cmd":"think","time_ms":2000,{cfg}}}"#),
        );
        assert_eq!(t["think"]["stopped"], "memory", "{t}");
        assert!(t["think"]["tree_bytes"].as_u64().unwrap() <= 2 << 20, "{t}");
        let cfg = r#""config":{"iterations":10000000,"max_tree_bytes":200000}"#;
        let t = ask(
            &mut s,
            &format!(r#"{{"cmd":"think","time_ms":2000,{cfg}}}"#),
        );
        assert_eq!(t["think"]["stopped"], "memory", "{t}");
        assert!(t["think"]["tree_bytes"].as_u64().unwrap() <= 200_000, "{t}");

        // Two thinks checked and not yet run hold both places: a third is refused, and
        // one place is free again once a think is done (or dropped).
        let mut core = Core::default();
        core.limit_thinks(ThinkLimits {
            max_thinks: 2,
            ..ThinkLimits::default()
        });
        let mut me = Session::default();
        let new = r#"{"cmd":"new","scenario":"system-demo","seed":1}"#;
        core.handle(&mut me, new).unwrap();
        let think = r#"{"cmd":"think","time_ms":10,"config":{"iterations":5}}"#;
        let mut job = || match core.handle_deferred(&mut me, think).unwrap() {
            Step::Think(job) => Ok(job),
            Step::Done(r, _) => Err(r.line),
            Step::Load(_) => unreachable!("a think"),
        };
        let (first, second) = (job().unwrap(), job().unwrap());
        let refused = job().err().unwrap();
        assert!(
            refused.contains(r#""rule":"limit""#)
                && refused.contains("2 thinks are running, the most it runs at once"),
            "{refused}"
        );
        let done: serde_json::Value = serde_json::from_str(&first.run().line).unwrap();
        assert_eq!(done["think"]["stopped"], "iterations", "{done}");
        let third = job().unwrap();
        assert!(job().is_err());
        drop((second, third));
        assert!(job().is_ok());
    }
}
