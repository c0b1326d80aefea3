//! Writes the pictures of every built-in scenario into a folder, as SVG and as PNG
//! (drawn by `fm-picture`, the rasteriser of the C library and the Python module), to
//! look at them: the opening, the start of turn 1, a position mid-game (an attack in progress where random
//! play reaches one), a stack where one forms, and a side's view.
//!
//! ```text
//! cargo run --release -p fm-ffi --example pictures -- /tmp/pictures
//! ```

use fm_core::huzzah::{render as hz_render, Huzzah};
use fm_core::{agents, render_svg, GameMatch, Location, Match, RenderOptions, Scenario, Side};
use rand_core::RngCore;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

fn write(dir: &Path, name: &str, svg: &str) {
    std::fs::write(dir.join(format!("{name}.svg")), svg).expect("write the SVG");
    let t = Instant::now();
    let png = fm_picture::svg_to_png(svg, 1.0).expect("draw the PNG");
    std::fs::write(dir.join(format!("{name}.png")), &png).expect("write the PNG");
    println!(
        "{name}: SVG {} bytes, PNG {} bytes, drawn in {} ms",
        svg.len(),
        png.len(),
        t.elapsed().as_millis()
    );
}

/// Whether some hex holds two units or more.
fn has_stack(m: &Match) -> bool {
    let mut n: BTreeMap<fm_core::Hex, usize> = BTreeMap::new();
    for u in m.state().units.iter() {
        if let Location::Map(h) = u.loc {
            *n.entry(h).or_default() += 1;
        }
    }
    n.values().any(|&c| c > 1)
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "pictures".into());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("create the folder");
    let opts = RenderOptions::default();
    for name in Scenario::builtin_names() {
        let m = Match::new_builtin(name, 1).expect("a built-in scenario");
        let t = Instant::now();
        let svg = render_svg(m.scenario(), m.state(), &opts);
        println!("{name}: opening rendered in {} ms", t.elapsed().as_millis());
        write(dir, &format!("{name}-opening"), &svg);
        // The start of turn 1, past the set-up (the README's picture of system-demo).
        let mut t1 = m.clone();
        while matches!(t1.pending(), fm_core::Pending::Setup { .. }) {
            let c = t1.legal_commands()[0].clone();
            t1.apply(&c).expect("a legal command");
        }
        write(
            dir,
            &format!("{name}-turn1"),
            &render_svg(t1.scenario(), t1.state(), &opts),
        );
        // Mid-game: random play past the set-up, stopping at an attack in progress.
        let mut found_attack = None;
        let mut found_stack = None;
        'seeds: for seed in 0..40u64 {
            let mut m = Match::new_builtin(name, seed).expect("a built-in scenario");
            let mut rng = fm_core::rng_from_seed(seed);
            for k in 0..3000 {
                if m.is_over() {
                    break;
                }
                let c = agents::random(m.scenario(), m.state(), &mut rng).expect("a command");
                m.apply(&c).expect("a legal command");
                if found_stack.is_none() && has_stack(&m) {
                    found_stack = Some(m.clone());
                }
                let attack = m
                    .state()
                    .combat
                    .as_ref()
                    .is_some_and(|c| c.result.is_none() && !c.attackers.is_empty());
                if found_attack.is_none() && k > 60 && attack && rng.next_u32() % 3 == 0 {
                    found_attack = Some(m.clone());
                }
                if found_attack.is_some() && found_stack.is_some() {
                    break 'seeds;
                }
            }
        }
        if let Some(m) = &found_attack {
            write(
                dir,
                &format!("{name}-attack"),
                &render_svg(m.scenario(), m.state(), &opts),
            );
            let v = m.view(Side::B);
            write(
                dir,
                &format!("{name}-attack-view-b"),
                &render_svg(m.scenario(), &v, &opts),
            );
        } else {
            println!("{name}: no attack in progress reached");
        }
        if let Some(m) = &found_stack {
            let ids = RenderOptions {
                unit_labels: fm_core::UnitLabels::Id,
                ..RenderOptions::default()
            };
            write(
                dir,
                &format!("{name}-stack"),
                &render_svg(m.scenario(), m.state(), &ids),
            );
        } else {
            println!("{name}: no stack formed");
        }
    }
    for name in ["huzzah-encounter", "huzzah-firefight"] {
        let m = GameMatch::<Huzzah>::new_builtin(name, 1).expect("a built-in scenario");
        let opts = hz_render::RenderOptions {
            radii: true,
            ..hz_render::RenderOptions::default()
        };
        write(
            dir,
            &format!("{name}-opening"),
            &hz_render::render_svg(m.scenario(), m.state(), &opts),
        );
        let mut m = m;
        let mut rng = fm_core::rng_from_seed(7);
        for _ in 0..120 {
            let legal = m.legal_commands();
            if legal.is_empty() {
                break;
            }
            let c = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
            m.apply(&c).expect("a legal command");
        }
        write(
            dir,
            &format!("{name}-mid"),
            &hz_render::render_svg(m.scenario(), m.state(), &opts),
        );
    }
}
