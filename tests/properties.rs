use fm_core::*;
use std::time::Instant;
#[test]
fn probe() {
    let sc = Scenario::builtin("system-demo").unwrap();
    for seed in 0..3u64 {
        let t = Instant::now();
        let mut m = Match::new(std::sync::Arc::new(sc.clone()), seed);
        let mut rng = rng_from_seed(seed + 100);
        let mut n = 0;
        let mut nlegal = 0;
        let mut qual = 0;
        while !m.is_over() {
            let s = m.state().clone();
            let cmds = legal_commands(&sc, &s);
            nlegal += cmds.len();
            if let Some(c) = &s.combat {
                if c.markers.iter().any(|mk| {
                    !mk.revealed
                        && !s
                            .support
                            .get(mk.side)
                            .available
                            .iter()
                            .all(|v| Some(*v) == mk.value)
                }) {
                    qual += 1;
                }
            }
            let c = agents::random(&sc, &s, &mut rng).unwrap();
            m.apply(&c).unwrap();
            n += 1;
        }
        let t1 = t.elapsed();
        println!(
            "seed {seed}: {n} cmds, {nlegal} legal total, qual {qual}, {:?}",
            t1
        );
        let t = Instant::now();
        let s = m.state().clone();
        let mut m2 = Match::new(std::sync::Arc::new(sc.clone()), seed);
        let mut tot = 0;
        for e in m.log() {
            let cmds = legal_commands(&sc, m2.state());
            for c in &cmds {
                let mut r = rng_from_seed(0);
                apply(&sc, m2.state(), c, &mut r).unwrap();
                tot += 1;
            }
            m2.apply(&e.command).unwrap();
        }
        assert_eq!(&s, m2.state());
        println!("  all-legal apply {tot}: {:?}", t.elapsed());
    }
}
