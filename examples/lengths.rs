//! Each built-in scenario's bound on the length of a game (`Game::max_game_length`:
//! commands, chance outcomes and their total, the moves OpenSpiel counts) beside the
//! longest of `--games` random games (20 by default): the table of docs/learning.md.
//!
//! ```text
//! cargo run --release -p fm-core --example lengths               # the table of docs/learning.md
//! cargo run --release -p fm-core --example lengths -- --games 5  # fewer games
//! ```
//!
//! Game `g` of a scenario is match seed `g` in explicit chance mode, played by
//! uniformly random legal commands (agent seed `g`) with each chance outcome drawn
//! uniformly: what `fm.openspiel`'s random simulations play. Its length is its
//! commands plus its chance outcomes.

use fm_core::any::{self, DynMatch};
use fm_core::{ChanceMode, GameLength};

/// The commands and chance outcomes of one random game in explicit chance mode.
fn random_game(m: &mut dyn DynMatch, agent: &mut dyn rand_core::RngCore) -> GameLength {
    let mut played = GameLength::ZERO;
    while !m.is_over() {
        if let Some(node) = m.chance_node() {
            let k = any::uniform_index(agent, node.outcomes as usize) as u32;
            m.apply_chance(k).expect("an outcome in range");
            played += GameLength::chance(1);
            continue;
        }
        let Some(i) = m.random_action(agent) else {
            break;
        };
        m.apply_index(i).expect("a legal command");
        played += GameLength::commands(1);
    }
    played
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("--games N"))
        .unwrap_or(20);
    println!(
        "| scenario | commands | chance outcomes | total | longest of {games} random games (commands + chance) | bound / longest |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for name in any::builtin_scenarios() {
        let bound = any::max_game_length(name)
            .expect("a built-in scenario")
            .expect("every built-in system bounds its games");
        let mut longest = GameLength::ZERO;
        for g in 0..games {
            let mut m = any::new_match(name, g).expect("a built-in scenario");
            m.set_chance_mode(ChanceMode::Explicit)
                .expect("no draw pending");
            let mut agent = fm_core::rng_from_seed(g);
            let played = random_game(m.as_mut(), &mut agent);
            assert!(
                played.commands <= bound.commands && played.chance <= bound.chance,
                "{name} seed {g}: {played:?} beyond the bound {bound:?}"
            );
            if played.total() > longest.total() {
                longest = played;
            }
        }
        println!(
            "| {name} | {} | {} | {} | {} ({} + {}) | {:.1} |",
            bound.commands,
            bound.chance,
            bound.total(),
            longest.total(),
            longest.commands,
            longest.chance,
            bound.total() as f64 / longest.total().max(1) as f64
        );
    }
}
