//! The `play` example for Huzzah! Glorious Empires scenarios: random legal commands,
//! and a readable log of each roll with its factor, modifiers and result.

use fm_core::huzzah::scenario::{self, Scenario};
use fm_core::huzzah::Huzzah;
use fm_core::search::SearchConfig;
use fm_core::{Game, GameMatch, Side};
use rand_core::RngCore;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Loads a Huzzah! scenario: a built-in name, or JSON naming `"system": "huzzah"`.
pub fn load(name: &str) -> Option<Result<Scenario, String>> {
    if scenario::BUILTIN.contains(&name) {
        return Some(Scenario::builtin(name).map_err(|e| e.to_string()));
    }
    if !name.ends_with(".json") {
        return None;
    }
    let text = std::fs::read_to_string(name).ok()?;
    let mut v: serde_json::Value = serde_json::from_str(&text).ok()?;
    if v.get("system").and_then(|s| s.as_str()) != Some("huzzah") {
        return None;
    }
    v.as_object_mut()?.remove("system");
    Some(
        scenario::from_json_value(v)
            .and_then(scenario::validate)
            .map_err(|e| e.to_string()),
    )
}

/// What to play: the games, the agents and what to print.
pub struct Play<'a> {
    /// The first game's seed (one game per seed after it).
    pub seed: u64,
    /// How many games.
    pub games: u64,
    /// Print the summary as one JSON object.
    pub json: bool,
    /// A JSON-lines log of every command and its events.
    pub log: Option<&'a str>,
    /// The first game's final table, as SVG.
    pub svg: Option<&'a str>,
    /// Which sides the built-in AI plays (A, B); the random agent plays the others.
    pub mcts: [bool; 2],
    /// The AI's search settings (its seed is drawn anew for each decision).
    pub search: SearchConfig,
    /// The AI's time budget per decision, if any.
    pub think_ms: Option<u64>,
}

/// Plays the games and prints a log (one game) or a summary; `svg`: the first game's
/// final table. The random agent draws as it always has (`next_u32` modulo the legal
/// commands), so random games replay unchanged; the AI draws its search seed from the
/// same generator.
pub fn run(sc: Scenario, p: &Play) {
    let sc = Arc::new(sc);
    let mut log = p.log.map(|f| {
        std::io::BufWriter::new(std::fs::File::create(f).expect("the log file can be written"))
    });
    let (games, json) = (p.games, p.json);
    let single = games == 1 && !json;
    let start = Instant::now();
    let mut wins = [0u64; 3];
    let mut commands = 0u64;
    let (mut decisions, mut think, mut slowest) = (0u64, 0.0f64, 0.0f64);
    // Iterations of the searches that ran (a single legal command needs none).
    let (mut searched, mut iterations) = (0u64, 0u64);
    // Searches the time budget stopped before their iterations were done: with none, the
    // games replay exactly on any machine.
    let mut cut_short = 0u64;
    for g in 0..games {
        let s = p.seed.wrapping_add(g);
        let mut m = GameMatch::<Huzzah>::new(sc.clone(), s);
        let mut pick = fm_core::rng_from_seed(s ^ 0x9e37_79b9_7f4a_7c15);
        if single {
            println!("{} (seed {s})", sc.data().name);
            for e in m.opening_events() {
                if let Some(d) = fm_core::huzzah::words::describe(&sc, e) {
                    println!("{d}");
                }
            }
        }
        while !m.state().is_over() {
            let side = m.state().pending.side().expect("a side decides");
            let slot = usize::from(side == Side::B);
            let c = if p.mcts[slot] {
                let cfg = SearchConfig {
                    seed: pick.next_u64(),
                    ..p.search
                };
                let began = Instant::now();
                let budget = p.think_ms.map(std::time::Duration::from_millis);
                let r = m
                    .best_command(&cfg, &mut || budget.is_some_and(|b| began.elapsed() >= b))
                    .expect("a decision to search");
                let took = began.elapsed().as_secs_f64();
                decisions += 1;
                think += took;
                slowest = slowest.max(took);
                cut_short += u64::from(r.iterations > 0 && r.iterations < cfg.iterations);
                if r.iterations > 0 {
                    searched += 1;
                    iterations += u64::from(r.iterations);
                }
                r.command
            } else {
                let legal = Huzzah::legal_commands(m.scenario(), m.state());
                legal[(pick.next_u32() as usize) % legal.len()].clone()
            };
            let events = m.apply(&c).expect("legal commands are accepted").to_vec();
            commands += 1;
            if let Some(w) = log.as_mut() {
                let line =
                    serde_json::json!({"game": g, "seed": s, "command": c, "events": events});
                writeln!(w, "{line}").expect("log write");
            }
            if single {
                for e in &events {
                    if let Some(d) = fm_core::huzzah::words::describe(&sc, e) {
                        println!("{d}");
                    }
                }
            }
        }
        if let (0, Some(f)) = (g, p.svg) {
            let opts = fm_core::huzzah::render::RenderOptions::default();
            let pic = fm_core::huzzah::render::render_svg(m.scenario(), m.state(), &opts);
            std::fs::write(f, pic).expect("the picture can be written");
        }
        match m.state().outcome.as_ref().and_then(|o| o.winner) {
            Some(Side::A) => wins[0] += 1,
            Some(Side::B) => wins[1] += 1,
            None => wins[2] += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let (a, b) = (sc.side(Side::A).name.clone(), sc.side(Side::B).name.clone());
    let agent = |slot: usize| if p.mcts[slot] { "mcts" } else { "random" };
    if json {
        println!(
            "{}",
            serde_json::json!({
                "scenario": sc.data().id, "games": games, "seed": p.seed,
                "wins": {a.clone(): wins[0], b.clone(): wins[1], "draw": wins[2]},
                "agents": {a: agent(0), b: agent(1)},
                "commands_per_game": commands as f64 / games.max(1) as f64,
                "mcts_decisions": decisions,
                "mcts_ms_per_decision": if decisions > 0 { 1000.0 * think / decisions as f64 } else { 0.0 },
                "mcts_max_ms_per_decision": 1000.0 * slowest,
                "mcts_cut_short": cut_short,
                "mcts_searches": searched,
                "mcts_iterations_per_search": if searched > 0 { iterations as f64 / searched as f64 } else { 0.0 },
                "games_per_second": games as f64 / secs.max(1e-9),
            })
        );
    } else if !single {
        println!(
            "{games} games of {}: {a} {}, {b} {}, draws {}; {:.1} commands/game; {:.1} games/s",
            sc.data().id,
            wins[0],
            wins[1],
            wins[2],
            commands as f64 / games.max(1) as f64,
            games as f64 / secs.max(1e-9)
        );
    }
}
