//! Issue 33, a server that can be hosted: a match that survives its process (finding
//! 8), no request holding the others up (finding 5).

use crate::support;
use fm_core::any::{self, DynMatch};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A JSON-lines connection that reports a closed socket as an error (the server was
/// killed) instead of failing the test.
struct Conn {
    r: BufReader<TcpStream>,
    w: TcpStream,
}

impl Conn {
    fn connect(addr: SocketAddr) -> Conn {
        let w = TcpStream::connect(addr).expect("connect");
        w.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        // A request goes in one segment, not held back for the last one's ACK.
        w.set_nodelay(true).unwrap();
        Conn {
            r: BufReader::new(w.try_clone().unwrap()),
            w,
        }
    }

    fn ask(&mut self, req: &Value) -> io::Result<Value> {
        writeln!(self.w, "{req}")?;
        let mut line = String::new();
        if self.r.read_line(&mut line)? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}")))
    }
}

/// `serve --listen` on a Meuse Argonne match, with the extra arguments (its stderr,
/// a resumed journal's notes, silenced).
fn start_with(extra: &[&std::ffi::OsStr]) -> (Child, SocketAddr, Value) {
    let mut args: Vec<&std::ffi::OsStr> = ["--scenario", "meuse-argonne", "--seed", "9"]
        .map(AsRef::as_ref)
        .to_vec();
    args.extend(extra);
    support::start_listening(args, Stdio::null())
}

fn start(journal: &Path) -> (Child, SocketAddr, Value) {
    start_with(&["--journal".as_ref(), journal.as_os_str()])
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

/// SplitMix64: the test's own choices, seeded.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A request of the owner's and what it does to the match played alongside.
enum Request {
    Apply(usize),
    Undo,
    New(u64),
}

impl Request {
    fn json(&self) -> Value {
        match self {
            Request::Apply(i) => json!({"cmd":"apply","index":i}),
            Request::Undo => json!({"cmd":"undo"}),
            Request::New(seed) => json!({"cmd":"new","scenario":"meuse-argonne","seed":seed}),
        }
    }

    fn play(&self, m: &mut Box<dyn DynMatch>) {
        match self {
            Request::Apply(i) => {
                let c = m.command_at(*i).expect("a command");
                m.apply_json(&c).expect("legal");
            }
            Request::Undo => assert!(m.undo()),
            Request::New(seed) => *m = any::new_match("meuse-argonne", *seed).unwrap(),
        }
    }
}

/// Finding 8: a `serve --listen --journal` process playing a Meuse Argonne match is
/// killed with SIGKILL at random moments and started again on its journal; every
/// request a client saw answered must be there, and the state must be the one the
/// client last saw (or that one with the request in flight at the kill, journaled but
/// never answered), checked against a match played in this process alongside.
#[test]
fn issue_33_a_journaled_match_survives_sigkill_at_random_moments() {
    const KILLS: usize = 20;
    let path = std::env::temp_dir().join(format!("fm-kill-test-{}.journal", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut rng = 0x0005_eed0_u64;
    let mut mirror = any::new_match("meuse-argonne", 9).unwrap();
    let (mut owner, mut seats, mut in_flight) = (None::<Value>, None::<Value>, None::<Request>);
    let (mut answered, mut resumed_ahead, mut games) = (0usize, 0usize, 1u64);
    let mut playing = Duration::ZERO;
    for kill in 0..=KILLS {
        let (child, addr, hello) = start(&path);
        // The same owner and seats on every start: the clients' tokens still hold.
        match &owner {
            None => owner = Some(hello["owner"].clone()),
            Some(o) => assert_eq!(&hello["owner"], o, "{hello}"),
        }
        if kill > 0 {
            assert!(
                hello["journal"]["resumed"]["records"].as_u64() > Some(0),
                "{hello}"
            );
        }
        let mut c = Conn::connect(addr);
        let bound = c.ask(&json!({"cmd":"bind","token":owner})).unwrap();
        assert_eq!(bound["bound"], "owner", "{bound}");
        // What the server resumed: what the client last saw, or that and the request
        // in flight when the process died (journaled, never answered).
        let save = c.ask(&json!({"cmd":"save"})).unwrap()["save"].to_string();
        let resumed = any::load_match(&save).expect("the resumed match saves");
        if resumed.state_hash() != mirror.state_hash() {
            let r = in_flight.take().unwrap_or_else(|| {
                panic!("start {kill}: a state no client saw, with nothing in flight")
            });
            if let Request::New(_) = r {
                seats = None;
            }
            r.play(&mut mirror);
            resumed_ahead += 1;
        }
        assert_eq!(
            hex(resumed.state_hash()),
            hex(mirror.state_hash()),
            "start {kill}"
        );
        assert_eq!(resumed.log_len(), mirror.log_len());
        // The seats of the first match (a new match ends them).
        match &seats {
            None if kill == 0 => seats = Some(hello["seats"].clone()),
            None => assert!(hello.get("seats").is_none(), "{hello}"),
            Some(s) => assert_eq!(&hello["seats"], s, "{hello}"),
        }
        if let Some(s) = &seats {
            let mut seat = Conn::connect(addr);
            let bound = seat.ask(&json!({"cmd":"bind","token":s["b"]})).unwrap();
            assert_eq!(
                bound["bound"], "b",
                "the seat's token holds after start {kill}"
            );
        }
        if kill == KILLS {
            let bye = c.ask(&json!({"cmd":"quit"})).unwrap();
            assert_eq!(bye["bye"], true);
            let mut child = child;
            assert!(child.wait().unwrap().success());
            break;
        }
        // Play until a killer kills the process at a random moment.
        let after = Duration::from_millis(50 + next(&mut rng) % 350);
        let killer = std::thread::spawn(move || {
            let mut child = child;
            std::thread::sleep(after);
            child.kill().expect("SIGKILL");
            child.wait().unwrap()
        });
        let began = std::time::Instant::now();
        loop {
            let r = if mirror.is_over() {
                games += 1;
                Request::New(games)
            } else if mirror.log_len() > 0 && next(&mut rng) % 20 == 0 {
                Request::Undo
            } else {
                let legal = mirror.legal_indices();
                Request::Apply(legal[(next(&mut rng) % legal.len() as u64) as usize])
            };
            let req = r.json();
            in_flight = Some(r);
            let Ok(reply) = c.ask(&req) else { break };
            assert!(reply.get("error").is_none(), "{req} -> {reply}");
            let r = in_flight.take().unwrap();
            if let Request::New(_) = r {
                seats = None;
            }
            r.play(&mut mirror);
            assert_eq!(reply["hash"], hex(mirror.state_hash()), "{req}");
            answered += 1;
        }
        playing += began.elapsed();
        let status = killer.join().unwrap();
        assert!(!status.success(), "killed, not ended: {status}");
    }
    eprintln!(
        "kill test: {KILLS} kills, {answered} answered requests, {} commands in the last \
         match, {games} matches, {resumed_ahead} starts resumed the request in flight; \
         {:.0} answered requests a second while playing",
        mirror.log_len(),
        answered as f64 / playing.as_secs_f64()
    );
    assert!(
        answered > KILLS,
        "the clients played between the kills: {answered}"
    );
    let _ = std::fs::remove_file(&path);
}

/// Finding 5: a long `load` (a whole Meuse Argonne game's save, about 400 KB and a
/// tenth of a second to replay) no longer holds the match's lock: another client's
/// requests sent after it are answered before it is.
#[test]
fn issue_33_a_long_load_holds_no_one_up() {
    let mut m = any::new_match("meuse-argonne", 3).unwrap();
    m.playout(&mut fm_core::rng_from_seed(5), 5000);
    assert!(m.log_len() > 1000, "a long game: {}", m.log_len());
    let save = m.save();
    let (mut child, addr, hello) = start_with(&[]);
    let mut owner = Conn::connect(addr);
    owner
        .ask(&json!({"cmd":"bind","token":hello["owner"]}))
        .unwrap();
    let mut seat = Conn::connect(addr);
    seat.ask(&json!({"cmd":"bind","token":hello["seats"]["a"]}))
        .unwrap();
    let mut other = Conn::connect(addr);
    other.ask(&json!({"cmd":"hello"})).unwrap();
    writeln!(owner.w, r#"{{"cmd":"load","save":{save}}}"#).unwrap();
    std::thread::sleep(Duration::from_millis(15));
    for _ in 0..5 {
        let v = other.ask(&json!({"cmd":"hello"})).unwrap();
        assert_eq!(v["engine"], "fm");
    }
    // The load's reply is not in yet: nothing to read on the owner's connection.
    owner.w.set_nonblocking(true).unwrap();
    let mut byte = [0u8; 1];
    let early = owner.w.peek(&mut byte);
    assert!(
        matches!(&early, Err(e) if e.kind() == io::ErrorKind::WouldBlock),
        "the load was answered before the other client's five hellos: {early:?}"
    );
    owner.w.set_nonblocking(false).unwrap();
    let mut line = String::new();
    owner.r.read_line(&mut line).unwrap();
    let loaded: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(loaded["loaded"], m.log_len(), "{line:.200}");
    assert_eq!(loaded["hash"], hex(m.state_hash()));
    // The load ended the seats, as it does.
    let v = seat.ask(&json!({"cmd":"pending"})).unwrap();
    assert_eq!(v["error"]["rule"], "seat", "{v}");
    assert_eq!(owner.ask(&json!({"cmd":"quit"})).unwrap()["bye"], true);
    assert!(child.wait().unwrap().success());
}

/// The percentile `q` (0 to 1) of sorted durations.
fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The load test: two seats play a Meuse Argonne match as fast as they can over
/// WebSocket (each asks for its legal action indices and applies one at random on its
/// decisions, and learns of the other's from notifications) for three seconds (or to
/// the end of the game), while
/// twelve spectators follow every change through their notifications. It prints the
/// seats' requests a second and their replies' latency (p50, p99, max), and checks that
/// every spectator heard of every command, in order, and ended on the same view hash.
/// Bounded in time, on loopback only; nothing about speed is asserted.
#[test]
fn issue_33_load_test_two_seats_and_twelve_spectators() {
    use crate::listen::Ws;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    const SPECTATORS: usize = 12;
    const PLAY: Duration = Duration::from_secs(3);
    let (mut child, addr, hello) = start_with(&[]);
    let mut owner = Conn::connect(addr);
    owner
        .ask(&json!({"cmd":"bind","token":hello["owner"]}))
        .unwrap();
    let watchers: Vec<_> = (0..SPECTATORS)
        .map(|_| {
            let seat = owner
                .ask(&json!({"cmd":"seat","side":"spectator"}))
                .unwrap();
            assert_eq!(seat["side"], "spectator", "{seat}");
            let token = seat["seat"].clone();
            let mut ws = Ws::connect(addr);
            let bound = ws.ask(json!({"cmd":"bind","token":token,"notify":true}));
            assert_eq!(bound["bound"], "spectator", "{bound}");
            // Each follows until a `new` ends its token: (notifications, last hash).
            std::thread::spawn(move || {
                let (mut count, mut hash) = (0u64, Value::Null);
                while let Some((1, payload)) = ws.frame() {
                    let note: Value = serde_json::from_slice(&payload).unwrap();
                    let n = &note["notify"];
                    if n["seat"] == "ended" {
                        break;
                    }
                    assert_eq!(n["change"], "apply", "{note}");
                    count += 1;
                    assert_eq!(n["count"], count, "in order, none missed");
                    hash = n["hash"].clone();
                }
                (count, hash)
            })
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let began = std::time::Instant::now();
    let seats: Vec<_> = ["a", "b"]
        .into_iter()
        .enumerate()
        .map(|(k, side)| {
            let token = hello["seats"][side].clone();
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut ws = Ws::connect(addr);
                let bound = ws.ask(json!({"cmd":"bind","token":token,"notify":true}));
                assert_eq!(bound["bound"], side, "{bound}");
                let mut rng = 77 + k as u64;
                let mut latencies = Vec::new();
                let mut last = std::time::Instant::now();
                let mut applied = 0u64;
                let mut next_id = 0u64;
                // Asks and times a request; notifications that come first are kept.
                let mut ask = |ws: &mut Ws, mut req: Value, notes: &mut Vec<Value>| {
                    next_id += 1;
                    req["id"] = json!(next_id);
                    let sent = std::time::Instant::now();
                    ws.send(&req);
                    loop {
                        let (op, payload) = ws.frame().expect("a reply");
                        assert_eq!(op, 1);
                        let v: Value = serde_json::from_slice(&payload).unwrap();
                        if v["id"] == json!(next_id) {
                            last = std::time::Instant::now();
                            latencies.push(last - sent);
                            assert!(v.get("error").is_none(), "{req} -> {v}");
                            return v;
                        }
                        notes.push(v);
                    }
                };
                let mut notes = Vec::new();
                let mut pending =
                    ask(&mut ws, json!({"cmd":"pending"}), &mut notes)["pending"].clone();
                loop {
                    for n in notes.drain(..) {
                        if n["notify"]["seat"] == "ended" {
                            return (applied, latencies, last);
                        }
                        pending = n["notify"]["pending"].clone();
                    }
                    if pending["side"] != side {
                        if pending["side"].is_null() {
                            stop.store(true, Ordering::SeqCst); // the game is over
                        }
                        let (_, payload) = ws.frame().expect("a notification");
                        notes.push(serde_json::from_slice(&payload).unwrap());
                        continue;
                    }
                    if stop.load(Ordering::SeqCst) {
                        // Its turn, and time is up: it waits for the owner's `new`.
                        while let Some((_, payload)) = ws.frame() {
                            let n: Value = serde_json::from_slice(&payload).unwrap();
                            if n["notify"]["seat"] == "ended" {
                                break;
                            }
                        }
                        return (applied, latencies, last);
                    }
                    let legal = ask(&mut ws, json!({"cmd":"legal","form":"indices"}), &mut notes);
                    let legal = legal["legal"].as_array().unwrap().clone();
                    let pick = legal[(next(&mut rng) % legal.len() as u64) as usize].clone();
                    let r = ask(&mut ws, json!({"cmd":"apply","index":pick}), &mut notes);
                    pending = r["pending"].clone();
                    applied += 1;
                }
            })
        })
        .collect();
    std::thread::sleep(PLAY);
    stop.store(true, Ordering::SeqCst);
    // Once the seat on move has stopped, the owner's `new` ends every seat.
    let mut applied_total = 0;
    let mut latencies = Vec::new();
    // From the start to the seats' last reply (the game may end before PLAY is up).
    let mut played = Duration::ZERO;
    let save = loop {
        let save = owner.ask(&json!({"cmd":"save"})).unwrap()["save"].to_string();
        std::thread::sleep(Duration::from_millis(50));
        let again = owner.ask(&json!({"cmd":"save"})).unwrap()["save"].to_string();
        if save == again {
            break save;
        }
    };
    let m = any::load_match(&save).unwrap();
    owner
        .ask(&json!({"cmd":"new","scenario":"meuse-argonne","seed":1}))
        .unwrap();
    for s in seats {
        let (applied, l, last) = s.join().unwrap();
        played = played.max(last - began);
        assert!(applied > 0);
        applied_total += applied;
        latencies.extend(l);
    }
    assert_eq!(
        applied_total,
        m.log_len() as u64,
        "every command came from a seat"
    );
    let followed: Vec<_> = watchers.into_iter().map(|w| w.join().unwrap()).collect();
    for (count, hash) in &followed {
        assert_eq!(*count, applied_total, "a spectator heard of every command");
        assert_eq!(
            hash, &followed[0].1,
            "every spectator ends on the same view"
        );
    }
    latencies.sort();
    eprintln!(
        "load test ({} build): 2 seats and {SPECTATORS} spectators over WebSocket, \
         meuse-argonne: {} \
         requests ({} commands) in {:.2} s, {:.0} requests/s; reply latency p50 {:.2} ms, \
         p99 {:.2} ms, max {:.2} ms; {} notifications to the spectators",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        latencies.len(),
        applied_total,
        played.as_secs_f64(),
        latencies.len() as f64 / played.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
        applied_total * SPECTATORS as u64,
    );
    assert_eq!(owner.ask(&json!({"cmd":"quit"})).unwrap()["bye"], true);
    assert!(child.wait().unwrap().success());
}

/// A journal that does not replay is refused at start, naming the record, and left as
/// it is; `--journal` without `--listen` is refused too.
#[test]
fn issue_33_a_journal_that_does_not_replay_stops_the_start() {
    let path = std::env::temp_dir().join(format!("fm-bad-{}.journal", std::process::id()));
    let text = "{\"op\":\"owner\",\"format\":1,\"token\":\"owner-x\"}\n\
                {\"op\":\"undo\",\"hash\":null}\n";
    std::fs::write(&path, text).unwrap();
    let out = Command::new(support::serve_binary())
        .args(["--listen", "127.0.0.1:0", "--journal"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("record 2: a change without a match"), "{err}");
    assert!(out.stdout.is_empty(), "no first line");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "left as it was"
    );
    let out = Command::new(support::serve_binary())
        .arg("--journal")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--journal is for --listen"));
    let _ = std::fs::remove_file(&path);
}
