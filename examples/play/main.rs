//! Plays games of a scenario with random agents and prints what happens.
//!
//! ```text
//! cargo run --release --example play -- --scenario system-demo --seed 1
//! cargo run --release --example play -- --scenario my.json --seed 1 --games 100 --json
//! cargo run --release --example play -- --scenario huzzah-encounter --seed 1
//! ```
//!
//! Options: `--scenario <name|file.json>` (default `system-demo`), `--seed N`,
//! `--games K`, `--agent random|mcts` (both sides), `--agent-a`/`--agent-b random|mcts`
//! (one side), `--iterations N` (the MCTS agent's iterations per decision, default 200),
//! `--think-ms MS` (and its time budget per decision), `--search JSON` (the other search
//! settings, as `fm_core::search::SearchConfig` JSON), `--log FILE.jsonl` (one JSON line per command with its
//! events), `--json` (print the summary as one JSON object), `--svg FILE.svg` (write the
//! final board of the first game as SVG), `--svg-every-turn` (with `--svg`: also write the
//! board at the start of every game turn, as `FILE-turnNN.svg`).

mod huzzah;

use fm_core::search::SearchConfig;
use fm_core::{Command, Event, Match, Scenario, Side};
use rand_core::RngCore;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Agent {
    Random,
    Mcts,
}

fn agent(v: &str) -> Agent {
    match v {
        "random" => Agent::Random,
        "mcts" => Agent::Mcts,
        _ => usage(&format!("unknown agent '{v}' (available: random, mcts)")),
    }
}

struct Args {
    agents: [Agent; 2],
    iterations: u32,
    think_ms: Option<u64>,
    search: SearchConfig,
    scenario: String,
    seed: u64,
    games: u64,
    json: bool,
    log: Option<String>,
    svg: Option<String>,
    svg_every_turn: bool,
}

impl Agent {
    fn name(self) -> &'static str {
        match self {
            Agent::Random => "random",
            Agent::Mcts => "mcts",
        }
    }
}

fn side_slot(s: Side) -> usize {
    match s {
        Side::A => 0,
        Side::B => 1,
    }
}

fn usage(msg: &str) -> ! {
    eprintln!("error: {msg}");
    eprintln!("usage: play [--scenario <name|file.json>] [--seed N] [--games K] [--agent random|mcts] [--agent-a A] [--agent-b B] [--iterations N] [--think-ms MS] [--search JSON] [--log FILE.jsonl] [--json] [--svg FILE.svg [--svg-every-turn]]");
    std::process::exit(2);
}

fn parse() -> Args {
    let mut a = Args {
        agents: [Agent::Random; 2],
        iterations: 200,
        think_ms: None,
        search: SearchConfig::default(),
        scenario: "system-demo".into(),
        seed: 1,
        games: 1,
        json: false,
        log: None,
        svg: None,
        svg_every_turn: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = |name: &str| {
            it.next()
                .unwrap_or_else(|| usage(&format!("{name} needs a value")))
        };
        match x.as_str() {
            "--scenario" => a.scenario = val("--scenario"),
            "--seed" => {
                a.seed = val("--seed")
                    .parse()
                    .unwrap_or_else(|_| usage("--seed takes an integer"))
            }
            "--games" => {
                a.games = val("--games")
                    .parse()
                    .unwrap_or_else(|_| usage("--games takes an integer"))
            }
            "--agent" => a.agents = [agent(&val("--agent")); 2],
            "--agent-a" => a.agents[0] = agent(&val("--agent-a")),
            "--agent-b" => a.agents[1] = agent(&val("--agent-b")),
            "--iterations" => {
                a.iterations = val("--iterations")
                    .parse()
                    .unwrap_or_else(|_| usage("--iterations takes an integer"))
            }
            "--search" => {
                a.search = SearchConfig::from_json(&val("--search"))
                    .unwrap_or_else(|e| usage(&e.to_string()))
            }
            "--think-ms" => {
                a.think_ms = Some(
                    val("--think-ms")
                        .parse()
                        .unwrap_or_else(|_| usage("--think-ms takes an integer")),
                )
            }
            "--log" => a.log = Some(val("--log")),
            "--json" => a.json = true,
            "--svg" => a.svg = Some(val("--svg")),
            "--svg-every-turn" => a.svg_every_turn = true,
            "-h" | "--help" => usage("help"),
            other => usage(&format!("unknown option '{other}'")),
        }
    }
    if a.svg_every_turn && a.svg.is_none() {
        usage("--svg-every-turn needs --svg FILE");
    }
    a
}

/// `board.svg`, 3 -> `board-turn03.svg`.
fn turn_file(path: &str, turn: u16) -> String {
    let p = std::path::Path::new(path);
    let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("board");
    let name = format!("{stem}-turn{turn:02}.svg");
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(name).to_string_lossy().into_owned(),
        _ => name,
    }
}

fn write_svg(path: &str, m: &Match) {
    let svg = fm_core::render_svg(m.scenario(), m.state(), &fm_core::RenderOptions::default());
    std::fs::write(path, svg).unwrap_or_else(|e| usage(&format!("cannot write {path}: {e}")));
}

fn load(name: &str) -> Scenario {
    let r = if name.ends_with(".json") {
        match std::fs::read_to_string(name) {
            Ok(s) => Scenario::from_json(&s),
            Err(e) => usage(&format!("cannot read {name}: {e}")),
        }
    } else {
        Scenario::builtin(name)
    };
    r.unwrap_or_else(|e| usage(&format!("scenario: {e}")))
}

fn main() {
    let args = parse();
    if let Some(sc) = huzzah::load(&args.scenario) {
        let sc = sc.unwrap_or_else(|e| usage(&format!("scenario: {e}")));
        if args.svg_every_turn {
            usage("--svg-every-turn draws Fire & Movement boards only");
        }
        let agents = [args.agents[0] == Agent::Mcts, args.agents[1] == Agent::Mcts];
        huzzah::run(
            sc,
            &huzzah::Play {
                seed: args.seed,
                games: args.games,
                json: args.json,
                log: args.log.as_deref(),
                svg: args.svg.as_deref(),
                mcts: agents,
                search: SearchConfig {
                    iterations: args.iterations,
                    ..args.search
                },
                think_ms: args.think_ms,
            },
        );
        return;
    }
    let sc = Arc::new(load(&args.scenario));
    let mut log = args.log.as_ref().map(|p| {
        std::io::BufWriter::new(
            std::fs::File::create(p).unwrap_or_else(|e| usage(&format!("cannot write {p}: {e}"))),
        )
    });
    let start = Instant::now();
    let mut wins = [0u64; 3];
    let mut commands = 0u64;
    let (mut decisions, mut think) = (0u64, 0.0f64);
    let single = args.games == 1 && !args.json;
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(g);
        let mut m = Match::new(sc.clone(), seed);
        let mut agent_rng = fm_core::rng_from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
        if single {
            println!("{} (seed {seed})", sc.data.name);
            for e in m.opening_events() {
                if let Some(s) = fm_core::words::describe(&sc, e) {
                    println!("{s}");
                }
            }
        }
        while !m.is_over() {
            let side = m.state().pending().side().expect("a side decides");
            let cmd: Command = match args.agents[side_slot(side)] {
                // The random agent's draw (`agents::random`), reusing the match's searches.
                Agent::Random => m.random_command(&mut agent_rng).expect("a legal command"),
                Agent::Mcts => {
                    let cfg = SearchConfig {
                        iterations: args.iterations,
                        seed: agent_rng.next_u64(),
                        ..args.search
                    };
                    let began = Instant::now();
                    let budget = args.think_ms.map(std::time::Duration::from_millis);
                    let r = m
                        .best_command(&cfg, &mut || budget.is_some_and(|b| began.elapsed() >= b))
                        .unwrap_or_else(|e| usage(&format!("search: {e}")));
                    decisions += 1;
                    think += began.elapsed().as_secs_f64();
                    r.command
                }
            };
            let events = m.apply(&cmd).expect("legal commands are accepted").to_vec();
            commands += 1;
            if g == 0 && args.svg_every_turn {
                for e in &events {
                    if let Event::TurnStarted { turn } = e {
                        write_svg(
                            &turn_file(args.svg.as_deref().unwrap_or("board.svg"), *turn),
                            &m,
                        );
                    }
                }
            }
            if let Some(w) = log.as_mut() {
                let line =
                    serde_json::json!({"game": g, "seed": seed, "command": cmd, "events": events});
                writeln!(w, "{line}").expect("log write");
            }
            if single {
                for e in &events {
                    if let Some(s) = fm_core::words::describe(&sc, e) {
                        println!("{s}");
                    }
                }
            }
        }
        if g == 0 {
            if let Some(p) = &args.svg {
                write_svg(p, &m);
            }
        }
        match m.winner() {
            Some(Side::A) => wins[0] += 1,
            Some(Side::B) => wins[1] += 1,
            None => wins[2] += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let summary = serde_json::json!({
        "scenario": sc.data.id,
        "games": args.games,
        "seed": args.seed,
        "wins": {sc.side_name(Side::A): wins[0], sc.side_name(Side::B): wins[1], "draw": wins[2]},
        "agents": {sc.side_name(Side::A): args.agents[0].name(), sc.side_name(Side::B): args.agents[1].name()},
        "commands_per_game": commands as f64 / args.games.max(1) as f64,
        "mcts_decisions": decisions,
        "mcts_ms_per_decision": if decisions > 0 { 1000.0 * think / decisions as f64 } else { 0.0 },
        "games_per_second": args.games as f64 / secs.max(1e-9),
    });
    if args.json {
        println!("{summary}");
    } else if !single {
        println!(
            "{} games of {}: {} {} , {} {}, draws {}; {:.1} commands/game; {:.1} games/s",
            args.games,
            sc.data.id,
            sc.side_name(Side::A),
            wins[0],
            sc.side_name(Side::B),
            wins[1],
            wins[2],
            commands as f64 / args.games.max(1) as f64,
            args.games as f64 / secs.max(1e-9)
        );
    }
}
