//! The performance issue's rows as deterministic workloads, timed in CPU time (min and
//! median of interleaved rounds), and the cost curves of its scaling mode. Every row goes
//! through the public API.
//!
//! ```text
//! cargo bench --bench costs -- --list              # the rows
//! cargo bench --bench costs -- --rounds 7          # every row, 7 interleaved rounds
//! cargo bench --bench costs -- --round             # one round, JSON (bench.sh interleaves)
//! cargo bench --bench costs -- --work ROW --reps 1 # the workload alone (for a profiler)
//! cargo bench --bench costs -- --scaling           # Huzzah! cost curves, 5 to 40 a side
//! cargo bench --bench costs -- --scaling --big     # and the 200-a-side battle and its save
//! cargo bench --bench costs -- --scenario 40       # print the generated 40-a-side scenario
//! ./scripts/bench.sh --rows                        # the rows beside OpenSpiel's chess
//! ```
//!
//! Rows (positions from the seeded random games of `benches/engine.rs`: match seed 1,
//! agent seed 1000, each command `GameMatch::random_command`):
//!
//! - `game/meuse-argonne`, `game/suez-1916`, `game/huzzah-encounter`: a whole seeded
//!   random game, from `GameMatch::new` to its end.
//! - `game/vimy-ridge`: the mean of the games of match seeds 3 to 10.
//! - `replay/meuse-argonne`, `replay/huzzah-encounter`: the same game's commands applied
//!   again to a new match (`GameMatch::apply`, no listing): what the game costs without
//!   its random agent; per command.
//! - `load/meuse-argonne`: `Match::load` of the finished Meuse game's save (every command
//!   replayed and checked).
//! - `legal_indices/meuse_after_move`: `Match::legal_indices` at the first Movement Phase
//!   after the match listed once and applied the longest move (what Python's
//!   `legal_actions` asks of the engine), each call on a fresh copy (copy not timed).
//! - `observation/meuse_after_move`: `DynMatch::observation` of the moving side into a
//!   reused buffer, same position (Python's `observation(side, out=)`).
//! - `apply_index/meuse_move`: `Match::apply_index` of the longest move at the first
//!   Movement Phase, on a fresh copy (Python's `apply_action`).
//! - `apply_index/huzzah_order`: `GameMatch::<Huzzah>::apply_index` of the first order
//!   command listed at the first Orders decision of the seeded huzzah-encounter game, on a
//!   fresh copy.
//! - `think/meuse_b`: `Match::best_command`, 400 iterations, at the Germans' (side b)
//!   first Movement Phase; the figure is per iteration.
//!
//! CPU time is the calling thread's (`CLOCK_THREAD_CPUTIME_ID`): other processes on the
//! machine slow it through caches, memory bandwidth and frequency, not by taking turns on
//! its core. Each sample repeats a row's operation until it has run for at least
//! `--sample-ms` (20 ms) and divides. Nothing asserts a timing.
//!
//! The scaling mode's battles are generated here ([`scaling::tiled_encounter`]): the
//! huzzah-encounter table, armies, terrain and objectives, repeated side by side up to
//! five tables wide and then in further lines behind each army. They are benchmark
//! fixtures, not scenarios: their provenance says so.

use fm_core::any::DynMatch;
use fm_core::huzzah::Huzzah;
use fm_core::search::SearchConfig;
use fm_core::*;
use std::hint::black_box;
use std::sync::OnceLock;

/// The calling thread's CPU time, in nanoseconds.
fn cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call, and
    // CLOCK_THREAD_CPUTIME_ID is a clock every Linux kernel since 2.6.12 has.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// A whole seeded random game: match seed `seed`, agent seed 1000.
fn random_game<G: Game>(name: &str, seed: u64) -> GameMatch<G> {
    let m = GameMatch::<G>::new_builtin(name, seed).expect("built-in scenario");
    play_out(m)
}

/// The match played to its end by the random agent (agent seed 1000).
fn play_out<G: Game>(mut m: GameMatch<G>) -> GameMatch<G> {
    let mut rng = rng_from_seed(1000);
    while let Some(c) = m.random_command(&mut rng) {
        m.apply(&c).expect("a legal command");
    }
    m
}

fn is_movement(m: &Match) -> bool {
    matches!(
        m.pending(),
        Pending::Phase {
            phase: Phase::Movement,
            ..
        }
    )
}

/// The longest move listed.
fn longest_move(m: &Match) -> Option<Command> {
    m.legal_commands()
        .into_iter()
        .filter(|c| matches!(c, Command::Move { .. }))
        .max_by_key(|c| match c {
            Command::Move { path, .. } => path.len(),
            _ => 0,
        })
}

/// The positions of the seeded Meuse game the rows use.
struct Meuse {
    /// The first Movement Phase, before any move.
    start: Match,
    /// The longest move there, and its index.
    mv: Command,
    mv_index: usize,
    /// The first Movement Phase of the Germans (side b).
    german: Match,
    /// The finished game's commands and save.
    commands: Vec<Command>,
    save: String,
}

fn meuse() -> &'static Meuse {
    static M: OnceLock<Meuse> = OnceLock::new();
    M.get_or_init(|| {
        let mut m = Match::new_builtin("meuse-argonne", 1).expect("built-in scenario");
        let mut rng = rng_from_seed(1000);
        let (mut start, mut german) = (None, None);
        let mut commands = Vec::new();
        while let Some(c) = m.random_command(&mut rng) {
            if is_movement(&m) && longest_move(&m).is_some() {
                if start.is_none() {
                    start = Some(m.clone());
                }
                if german.is_none() && m.state().active == Side::B {
                    german = Some(m.clone());
                }
            }
            m.apply(&c).expect("a legal command");
            commands.push(c);
        }
        let start = start.expect("a movement phase");
        let mv = longest_move(&start).expect("a move");
        let mv_index = Fm::command_to_index(start.scenario(), start.state(), &mv).expect("index");
        Meuse {
            start,
            mv,
            mv_index,
            german: german.expect("a German movement phase"),
            commands,
            save: m.save(),
        }
    })
}

/// The seeded huzzah-encounter game: its commands, and the first Orders decision with the
/// index of its first order command.
struct Encounter {
    commands: Vec<<Huzzah as Game>::Command>,
    orders: GameMatch<Huzzah>,
    order_index: usize,
}

fn encounter() -> &'static Encounter {
    static E: OnceLock<Encounter> = OnceLock::new();
    E.get_or_init(|| {
        let mut m =
            GameMatch::<Huzzah>::new_builtin("huzzah-encounter", 1).expect("built-in scenario");
        let mut rng = rng_from_seed(1000);
        let mut commands = Vec::new();
        let mut orders = None;
        while let Some(c) = m.random_command(&mut rng) {
            if orders.is_none() {
                let order = m.legal_indices().into_iter().find(|&i| {
                    matches!(
                        m.index_to_command(i),
                        Some(fm_core::huzzah::command::Command::Order { .. })
                    )
                });
                if let Some(i) = order {
                    orders = Some((m.clone(), i));
                }
            }
            m.apply(&c).expect("a legal command");
            commands.push(c);
        }
        let (orders, order_index) = orders.expect("an order listed");
        Encounter {
            commands,
            orders,
            order_index,
        }
    })
}

/// The match after one listing and the longest move, still in the Movement Phase.
fn after_move() -> Match {
    let z = meuse();
    let mut x = z.start.clone();
    let _ = x.legal_indices();
    x.apply(&z.mv).expect("legal move");
    assert!(is_movement(&x), "still the Movement Phase");
    x
}

/// The timed part of a row: a function of its own, so that a profiler or an instruction
/// counter can pick it out (`valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='costs::measured*'`).
#[inline(never)]
fn measured<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs a row's operation `reps` times; returns the CPU nanoseconds the timed parts
/// took and the number of operations.
type Runner = fn(usize) -> (u64, u64);

fn timed_loop<T>(
    reps: usize,
    setup: impl Fn() -> T,
    mut op: impl FnMut(&mut T) -> u64,
) -> (u64, u64) {
    let mut total = 0;
    let mut keep = 0;
    for _ in 0..reps {
        let mut x = setup();
        let t0 = cpu_ns();
        keep ^= measured(|| op(&mut x));
        total += cpu_ns() - t0;
        drop(black_box(x));
    }
    black_box(keep);
    (total, reps as u64)
}

/// Replays `commands` on a new match of `name` (seed 1); the number applied.
fn replay<G: Game>(name: &str, commands: &[G::Command]) -> u64 {
    let mut m = GameMatch::<G>::new_builtin(name, 1).expect("built-in scenario");
    for c in commands {
        m.apply(c).expect("a legal command");
    }
    m.log().len() as u64
}

/// (row, what one operation is, runner)
fn rows() -> Vec<(&'static str, &'static str, Runner)> {
    vec![
        ("game/meuse-argonne", "game", |reps| {
            timed_loop(
                reps,
                || (),
                |_| random_game::<Fm>("meuse-argonne", 1).log().len() as u64,
            )
        }),
        ("game/suez-1916", "game", |reps| {
            timed_loop(
                reps,
                || (),
                |_| random_game::<Fm>("suez-1916", 1).log().len() as u64,
            )
        }),
        ("game/vimy-ridge", "game (mean of seeds 3-10)", |reps| {
            let (t, _) = timed_loop(
                reps,
                || (),
                |_| {
                    (3..=10)
                        .map(|seed| random_game::<Fm>("vimy-ridge", seed).log().len() as u64)
                        .sum()
                },
            );
            (t, 8 * reps as u64)
        }),
        ("game/huzzah-encounter", "game", |reps| {
            timed_loop(
                reps,
                || (),
                |_| random_game::<Huzzah>("huzzah-encounter", 1).log().len() as u64,
            )
        }),
        ("replay/meuse-argonne", "command", |reps| {
            let cmds = &meuse().commands;
            let (t, _) = timed_loop(reps, || (), |_| replay::<Fm>("meuse-argonne", cmds));
            (t, (reps * cmds.len()) as u64)
        }),
        ("replay/huzzah-encounter", "command", |reps| {
            let cmds = &encounter().commands;
            let (t, _) = timed_loop(reps, || (), |_| replay::<Huzzah>("huzzah-encounter", cmds));
            (t, (reps * cmds.len()) as u64)
        }),
        ("load/meuse-argonne", "load", |reps| {
            let save = &meuse().save;
            timed_loop(
                reps,
                || (),
                |_| {
                    Match::load(black_box(save))
                        .expect("a valid save")
                        .log()
                        .len() as u64
                },
            )
        }),
        ("legal_indices/meuse_after_move", "call", |reps| {
            timed_loop(reps, after_move, |x| x.legal_indices().len() as u64)
        }),
        ("observation/meuse_after_move", "call", |reps| {
            let x = after_move();
            let side = x.state().active;
            let n = DynMatch::observation_spec(&x).expect("spec").size();
            let mut buf = vec![0f32; n];
            timed_loop(
                reps,
                || (),
                |_| DynMatch::observation(&x, side, &mut buf).expect("observation") as u64,
            )
        }),
        ("apply_index/meuse_move", "call", |reps| {
            let z = meuse();
            timed_loop(
                reps,
                || z.start.clone(),
                |x| x.apply_index(z.mv_index).expect("legal").len() as u64,
            )
        }),
        ("apply_index/huzzah_order", "call", |reps| {
            let e = encounter();
            timed_loop(
                reps,
                || e.orders.clone(),
                |x| x.apply_index(e.order_index).expect("legal").len() as u64,
            )
        }),
        ("think/meuse_b", "iteration", |reps| {
            let z = meuse();
            let iterations = 400;
            let (t, _) = timed_loop(
                reps,
                || (),
                |_| {
                    let cfg = SearchConfig {
                        iterations,
                        seed: 7,
                        ..SearchConfig::default()
                    };
                    let r = z.german.best_command(&cfg, &mut || false).expect("search");
                    u64::from(r.iterations)
                },
            );
            (t, reps as u64 * u64::from(iterations))
        }),
    ]
}

// --- the command line

struct Args {
    list: bool,
    work: Option<String>,
    reps: usize,
    rounds: usize,
    round: bool,
    json: bool,
    sample_ms: u64,
    filter: Vec<String>,
    scaling: bool,
    big: bool,
    scenario: Option<usize>,
    smoke: bool,
}

fn usage(msg: &str) -> ! {
    eprintln!("costs: {msg}");
    eprintln!(
        "usage: costs [--list] [--work ROW [--reps N]] [--rounds K] [--round] [--json] \
         [--sample-ms MS] [--scaling [--big]] [--scenario N] [ROW-FILTER...]"
    );
    std::process::exit(2)
}

fn parse() -> Args {
    let mut a = Args {
        list: false,
        work: None,
        reps: 1,
        rounds: 7,
        round: false,
        json: false,
        sample_ms: 20,
        filter: Vec::new(),
        scaling: false,
        big: false,
        scenario: None,
        smoke: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut num = |name: &str| -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage(&format!("{name} takes a number")))
        };
        match x.as_str() {
            "--list" => a.list = true,
            "--work" => a.work = Some(it.next().unwrap_or_else(|| usage("--work ROW"))),
            "--reps" => a.reps = num("--reps") as usize,
            "--rounds" => a.rounds = num("--rounds") as usize,
            "--sample-ms" => a.sample_ms = num("--sample-ms"),
            "--scenario" => a.scenario = Some(num("--scenario") as usize),
            "--round" => a.round = true,
            "--json" => a.json = true,
            "--scaling" => a.scaling = true,
            "--big" => a.big = true,
            // `cargo bench` passes --bench.
            "--bench" => {}
            // `cargo bench --bench costs -- --test` (scripts/test.sh): every row once and
            // every generated scenario built, timing nothing.
            "--test" => a.smoke = true,
            f if f.starts_with("--") => usage(&format!("unknown option {f}")),
            f => a.filter.push(f.to_string()),
        }
    }
    a
}

/// One sample of a row: repeated until `min_ns` of CPU time; ns per operation.
fn sample(run: Runner, min_ns: u64) -> f64 {
    let (mut t, mut n) = (0u64, 0u64);
    let mut reps = 1;
    while t < min_ns {
        let (dt, dn) = run(reps);
        t += dt;
        n += dn;
        reps = (reps * 2).min(1 << 16);
    }
    t as f64 / n as f64
}

fn fmt_ns(ns: f64) -> String {
    let (v, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else if ns >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    if v < 100.0 {
        format!("{v:.3} {unit}")
    } else {
        format!("{v:.0} {unit}")
    }
}

fn main() {
    let a = parse();
    if let Some(n) = a.scenario {
        match scaling::tiled_encounter(n) {
            Ok(v) => println!("{v:#}"),
            Err(e) => usage(&e),
        }
        return;
    }
    if a.scaling {
        scaling::run(a.big);
        return;
    }
    let all = rows();
    if a.smoke {
        for n in [1, 5, 10, 40, 200] {
            scaling::check(n);
        }
        for (name, _, run) in &all {
            let (_, ops) = run(1);
            assert!(ops > 0, "{name}");
        }
        eprintln!(
            "costs: {} rows ran once, the generated scenarios built",
            all.len()
        );
        return;
    }
    let chosen: Vec<_> = all
        .iter()
        .filter(|(n, _, _)| a.filter.is_empty() || a.filter.iter().any(|f| n.contains(f.as_str())))
        .collect();
    if a.list {
        for (n, unit, _) in &chosen {
            println!("{n}\t(per {unit})");
        }
        return;
    }
    if let Some(w) = &a.work {
        let (_, _, run) = all
            .iter()
            .find(|(n, _, _)| n == w)
            .unwrap_or_else(|| usage(&format!("no row {w} (see --list)")));
        // Once untimed first: the positions, the scenarios and what they fill on first
        // use are then made, and a profile of `measured` is the workload's alone.
        let _ = (meuse(), encounter());
        let _ = run(1);
        let (t, n) = run(a.reps);
        eprintln!("{w}: {n} operations, {}", fmt_ns(t as f64 / n as f64));
        return;
    }
    // Positions and scenarios before timing.
    let _ = (meuse(), encounter());
    let rounds = if a.round { 1 } else { a.rounds.max(1) };
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); chosen.len()];
    for _ in 0..rounds {
        for (k, (_, _, run)) in chosen.iter().enumerate() {
            samples[k].push(sample(*run, a.sample_ms * 1_000_000));
        }
    }
    if a.json || a.round {
        let obj: serde_json::Map<String, serde_json::Value> = chosen
            .iter()
            .zip(&samples)
            .map(|((n, unit, _), v)| {
                (
                    n.to_string(),
                    serde_json::json!({"unit": unit, "samples_ns": v}),
                )
            })
            .collect();
        println!("{}", serde_json::Value::Object(obj));
        return;
    }
    println!("| row | min | median | per |");
    println!("|---|---|---|---|");
    for ((n, unit, _), v) in chosen.iter().zip(samples.iter_mut()) {
        v.sort_by(f64::total_cmp);
        println!(
            "| `{n}` | {} | {} | {unit} |",
            fmt_ns(v[0]),
            fmt_ns(v[v.len() / 2])
        );
    }
}

mod scaling {
    //! Huzzah!'s cost curves: a seeded random battle (match seed 1, agent seed 1000) at
    //! 5, 10, 20 and 40 units a side, its CPU time and commands, and the exponents of a
    //! least-squares fit of log cost on log units (per game and per command); with
    //! `--big`, the battle at 200 units a side and `GameMatch::load` of its save.

    use super::{cpu_ns, fmt_ns, play_out};
    use fm_core::huzzah::Huzzah;
    use fm_core::{Game, GameMatch, Side};
    use serde_json::{json, Value};
    use std::sync::Arc;

    const TEMPLATE: &str = include_str!("../fm-core/scenarios/huzzah-encounter.json");
    /// Tables side by side before further lines are added behind.
    const MAX_WIDE: usize = 5;
    /// How far behind the line before it each further line stands, in mm.
    const LINE_GAP_MM: i64 = 200;

    fn shift(p: &Value, dx: i64, dy: i64) -> Value {
        json!([
            p[0].as_i64().unwrap_or(0) + dx,
            p[1].as_i64().unwrap_or(0) + dy
        ])
    }

    fn shift_all(points: &Value, dx: i64, dy: i64) -> Value {
        Value::Array(
            points
                .as_array()
                .into_iter()
                .flatten()
                .map(|q| shift(q, dx, dy))
                .collect(),
        )
    }

    fn suffixed(v: &Value, tag: &str) -> Value {
        json!(format!("{}-{tag}", v.as_str().unwrap_or("")))
    }

    /// huzzah-encounter with `n` units a side (1 to 200): its ten units a side repeated,
    /// table after table side by side (up to five), then in further lines 200 mm behind
    /// each army, the table deepened to match; a table's terrain and objectives come with
    /// its first line. Each table-line has its two division generals; the first keeps the
    /// commanders in chief. With fewer than ten units a side, the first `n` of each army.
    pub fn tiled_encounter(n: usize) -> Result<Value, String> {
        if !(1..=200).contains(&n) {
            return Err(format!("{n} units a side: between 1 and 200"));
        }
        let t: Value = serde_json::from_str(TEMPLATE).map_err(|e| e.to_string())?;
        let per = t["sides"]["a"]["units"].as_array().map_or(0, Vec::len);
        let wide = n.div_ceil(per).clamp(1, MAX_WIDE);
        let lines = n.div_ceil(per * wide);
        let back = LINE_GAP_MM * (lines as i64 - 1);
        let (w, d) = (
            t["table"]["width_mm"].as_i64().unwrap_or(0),
            t["table"]["depth_mm"].as_i64().unwrap_or(0),
        );
        let mut out = t.clone();
        out["id"] = json!(format!("huzzah-tiled-{n}"));
        out["name"] = json!(format!(
            "huzzah-encounter tiled, {n} units a side (benchmark)"
        ));
        out["provenance"] = json!(format!(
            "generated by benches/costs.rs for the scaling benchmarks, not a scenario: \
             huzzah-encounter (itself a stand-in) repeated {wide} table(s) wide and {lines} \
             line(s) deep, {n} units a side"
        ));
        out["table"] = json!({"width_mm": w * wide as i64, "depth_mm": d + 2 * back});
        let mut terrain = Vec::new();
        let mut objectives = Vec::new();
        for tile in 0..wide {
            let dx = w * tile as i64;
            let tag = format!("t{tile}");
            for piece in t["terrain"].as_array().into_iter().flatten() {
                let mut p = piece.clone();
                p["id"] = suffixed(&piece["id"], &tag);
                p["polygon"] = shift_all(&piece["polygon"], dx, back);
                if let Some(sectors) = piece.get("sectors").and_then(Value::as_array) {
                    p["sectors"] =
                        Value::Array(sectors.iter().map(|q| shift_all(q, dx, back)).collect());
                }
                terrain.push(p);
            }
            for o in t["objectives"].as_array().into_iter().flatten() {
                let mut q = o.clone();
                q["id"] = suffixed(&o["id"], &tag);
                q["at"] = shift(&o["at"], dx, back);
                objectives.push(q);
            }
        }
        out["terrain"] = Value::Array(terrain);
        out["objectives"] = Value::Array(objectives);
        for (side, toward) in [("a", -1i64), ("b", 1i64)] {
            let s = &t["sides"][side];
            let units = s["units"].as_array().cloned().unwrap_or_default();
            let officers = s["officers"].as_array().cloned().unwrap_or_default();
            let divisions = s["divisions"].as_array().cloned().unwrap_or_default();
            let (mut us, mut os, mut ds) = (Vec::new(), Vec::new(), Vec::new());
            // The line-0 offset of side a is `back` (its lines go towards y = 0), of side
            // b `back` too (its lines go towards the far edge).
            for k in 0..n {
                let (line, j) = (k / (per * wide), k % (per * wide));
                let (tile, u) = (j / per, j % per);
                let tag = format!("t{tile}l{line}");
                let dy = back + toward * LINE_GAP_MM * line as i64;
                let mut v = units[u].clone();
                v["id"] = suffixed(&units[u]["id"], &tag);
                v["division"] = suffixed(&units[u]["division"], &tag);
                v["position"] = shift(&units[u]["position"], w * tile as i64, dy);
                us.push(v);
            }
            // The divisions (with their generals) that have units.
            let used: std::collections::BTreeSet<String> = us
                .iter()
                .filter_map(|v| v["division"].as_str().map(str::to_string))
                .collect();
            for line in 0..lines {
                for tile in 0..wide {
                    let tag = format!("t{tile}l{line}");
                    let dy = back + toward * LINE_GAP_MM * line as i64;
                    for dv in &divisions {
                        let id = suffixed(&dv["id"], &tag);
                        if !used.contains(id.as_str().unwrap_or("")) {
                            continue;
                        }
                        let gen = officers
                            .iter()
                            .find(|o| o["id"] == dv["officer"])
                            .cloned()
                            .ok_or("a division without its officer")?;
                        let mut g = gen.clone();
                        g["id"] = suffixed(&gen["id"], &tag);
                        g["position"] = shift(&gen["position"], w * tile as i64, dy);
                        os.push(g);
                        ds.push(json!({"id": id, "officer": suffixed(&dv["officer"], &tag)}));
                    }
                }
            }
            for o in &officers {
                if o["rank"] == "cinc" {
                    let mut c = o.clone();
                    c["position"] = shift(&o["position"], 0, back + toward * back);
                    os.insert(0, c);
                }
            }
            let side_out = &mut out["sides"][side];
            side_out["units"] = Value::Array(us);
            side_out["officers"] = Value::Array(os);
            side_out["divisions"] = Value::Array(ds);
        }
        Ok(out)
    }

    fn scenario(n: usize) -> Arc<<Huzzah as Game>::Scenario> {
        let mut v = tiled_encounter(n).expect("a size in range");
        // The system's own reader takes the scenario without the neutral layer's tag.
        if let Some(o) = v.as_object_mut() {
            o.remove("system");
        }
        let data = Huzzah::scenario_data_from_value(v).expect("a valid generated scenario");
        Arc::new(Huzzah::scenario(data).expect("a valid generated scenario"))
    }

    /// Builds the generated scenario of `n` units a side and checks its size (the smoke
    /// test of `--test`).
    pub fn check(n: usize) {
        let sc = scenario(n);
        let count = |side| sc.unit_ixs(side).count();
        assert_eq!((count(Side::A), count(Side::B)), (n, n), "{n} a side");
        let m = GameMatch::<Huzzah>::new(sc, 1);
        assert!(
            !m.legal_indices().is_empty(),
            "{n} a side: a first decision"
        );
    }

    /// Least-squares slope of ln y on ln x.
    fn exponent(xs: &[f64], ys: &[f64]) -> f64 {
        let lx: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
        let ly: Vec<f64> = ys.iter().map(|y| y.ln()).collect();
        let k = lx.len() as f64;
        let (mx, my) = (lx.iter().sum::<f64>() / k, ly.iter().sum::<f64>() / k);
        let cov: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
        let var: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
        cov / var
    }

    /// A random battle's CPU time (agent seed 1000) and its match.
    fn timed_game(sc: &Arc<<Huzzah as Game>::Scenario>) -> (f64, GameMatch<Huzzah>) {
        let t0 = cpu_ns();
        let m = play_out(GameMatch::<Huzzah>::new(sc.clone(), 1));
        ((cpu_ns() - t0) as f64, m)
    }

    /// Rounds of every size in turn (a slow spell of the machine hits each alike); a
    /// size's figure is its fastest round.
    const ROUNDS: usize = 5;

    pub fn run(big: bool) {
        let sizes = [5usize, 10, 20, 40];
        let scenarios: Vec<_> = sizes.iter().map(|&n| scenario(n)).collect();
        let mut best = vec![f64::INFINITY; sizes.len()];
        let mut commands = vec![0usize; sizes.len()];
        for _ in 0..ROUNDS {
            for (k, sc) in scenarios.iter().enumerate() {
                let (t, m) = timed_game(sc);
                best[k] = best[k].min(t);
                commands[k] = m.log().len();
            }
        }
        println!("| units a side | commands | game (CPU, min of {ROUNDS}) | per command |");
        println!("|---|---|---|---|");
        let per: Vec<f64> = best
            .iter()
            .zip(&commands)
            .map(|(t, c)| t / *c as f64)
            .collect();
        for (k, &n) in sizes.iter().enumerate() {
            println!(
                "| {n} | {} | {} | {} |",
                commands[k],
                fmt_ns(best[k]),
                fmt_ns(per[k])
            );
        }
        let xs: Vec<f64> = sizes.iter().map(|&n| n as f64).collect();
        println!();
        println!(
            "fit over 5-40 a side: a game grows as n^{:.2}, a command as n^{:.2}",
            exponent(&xs, &best),
            exponent(&xs, &per)
        );
        if big {
            let sc = scenario(200);
            let mut game = f64::INFINITY;
            let mut last = None;
            for _ in 0..3 {
                let (t, m) = timed_game(&sc);
                game = game.min(t);
                last = Some(m);
            }
            let m = last.expect("a game");
            let save = m.save();
            println!(
                "200 a side: a random game of {} commands in {} ({} a command; min of 3); its save {:.0} KiB",
                m.log().len(),
                fmt_ns(game),
                fmt_ns(game / m.log().len() as f64),
                save.len() as f64 / 1024.0
            );
            let mut load = f64::INFINITY;
            for _ in 0..3 {
                let t0 = cpu_ns();
                let loaded = GameMatch::<Huzzah>::load(&save).expect("its own save loads");
                load = load.min((cpu_ns() - t0) as f64);
                assert_eq!(loaded.log().len(), m.log().len());
            }
            println!(
                "200 a side: GameMatch::load of that save in {} (min of 3)",
                fmt_ns(load)
            );
        }
    }
}
