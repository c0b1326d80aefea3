//! Hidden information stays hidden (7.2, Vimy Ridge 16.0, Suez 1916 18.3;
//! `docs/protocol.md` "What is hidden from whom").
//!
//! For every built-in scenario, random games are played; at sampled positions, for each
//! side, everything that side may not know is redrawn (`resample_hidden`), and every
//! query the side can reach must answer the same on the real and the resampled state:
//! its view and view hash, the legal commands and their indices when it decides, the
//! refusal of illegal commands (`explain`, the `RuleError` text), `reachable`, the
//! learning observation (`observation::encode`),
//! per-unit listings, `combat_odds` for the combat in progress and for attacks it could
//! propose, and the events it would see (redacted for it) until the next reveal.
use crate::common;
use common::*;
use fm_core::*;
use rand_core::RngCore;

/// The side whose decision it is.
fn decider(p: &Pending) -> Option<Side> {
    match p {
        Pending::GameOver { .. } => None,
        Pending::Setup { side }
        | Pending::Phase { side, .. }
        | Pending::SupportFire { side, .. }
        | Pending::ChooseLoss { side, .. }
        | Pending::Retreat { side, .. }
        | Pending::LostBattalion { side }
        | Pending::ArtilleryRetreat { side, .. }
        | Pending::Advance { side, .. }
        | Pending::FireSupport { side } => Some(*side),
    }
}

/// Proposals `side` could ask odds for: the combat in progress with every marker
/// count, and ground attacks on enemy hexes next to its units.
fn proposals(sc: &Scenario, s: &State, side: Side) -> Vec<AttackProposal> {
    let mut out = Vec::new();
    if let Some(c) = &s.combat {
        for am in 0..3 {
            for dm in 0..3 {
                out.push(AttackProposal {
                    hex: c.hex,
                    units: c.attackers.clone(),
                    attacker_markers: am,
                    defender_markers: dm,
                });
            }
        }
    }
    let l = sc.layout();
    for (i, u) in s.units.iter().enumerate().take(40) {
        let Some(h) = u.hex() else { continue };
        if sc.units[i].data.side != side {
            continue;
        }
        for (j, e) in s.units.iter().enumerate() {
            if sc.units[j].data.side == side {
                continue;
            }
            if let Some(eh) = e.hex() {
                if l.adjacent(h, eh) {
                    for (am, dm) in [(0, 0), (1, 1), (2, 2), (2, 0)] {
                        out.push(AttackProposal {
                            hex: eh,
                            units: vec![s.units.id(i).clone()],
                            attacker_markers: am,
                            defender_markers: dm,
                        });
                    }
                    break;
                }
            }
        }
        if out.len() > 60 {
            break;
        }
    }
    out
}

/// Commands to test refusals with: every command legal for anyone at this point
/// (asked as `side`), plus some that are malformed.
fn probes(sc: &Scenario, s: &State) -> Vec<Command> {
    let mut v: Vec<Command> = legal_commands(sc, s).into_iter().take(30).collect();
    v.push(Command::SupportFire { commit: true });
    v.push(Command::SupportFire { commit: false });
    v.push(Command::Done);
    v
}

/// Everything `side` can learn at `s` by asking, as comparable text.
fn answers(sc: &Scenario, s: &State, side: Side) -> Vec<String> {
    let v = view(sc, s, side);
    let mut out = vec![
        serde_json::to_string(&v).unwrap(),
        format!("{:016x}", v.hash()),
        // The learning observation (board planes and features), bit for bit.
        format!("{:?}", observation::encode(sc, &v)),
    ];
    let pending = s.pending();
    if decider(&pending) == Some(side) {
        out.push(format!("{:?}", legal_commands(sc, s)));
        out.push(format!("{:?}", legal_indices(sc, s)));
        for id in s.units.ids.iter().take(12) {
            out.push(format!("{:?}", legal_commands_for(sc, s, id)));
        }
        for c in probes(sc, s) {
            out.push(format!("{:?}", explain(sc, s, &c)));
        }
    }
    for id in s.units.ids.iter().take(6) {
        out.push(format!("{:?}", reachable(sc, s, id)));
    }
    for p in proposals(sc, s, side) {
        out.push(format!("{p:?} {:?}", combat_odds(sc, s, side, &p)));
    }
    out
}

/// Events up to (not including) the next reveal of hidden values, as `side` (or a
/// spectator) sees them.
fn until_reveal(events: &[Event], side: impl Into<Viewer> + Copy) -> (Vec<Event>, bool) {
    let mut out = Vec::new();
    for e in events {
        if matches!(
            e,
            Event::SupportRevealed { .. } | Event::FireSupportRevealed { .. }
        ) {
            return (out, true);
        }
        out.push(e.redacted_for(side));
    }
    (out, false)
}

/// Plays on from `s` and `t` (a state `viewer` cannot tell from it) with the game's own
/// next commands and one generator seeded `seed`: `viewer`'s event stream is the same
/// on both until the next reveal, and so are its `answers` after each command.
#[allow(clippy::too_many_arguments)]
fn play_on_until_reveal(
    sc: &Scenario,
    s: &State,
    t: State,
    viewer: Viewer,
    agent: &mut impl RngCore,
    seed: u64,
    answers: impl Fn(&State) -> Vec<String>,
    ctx: &str,
) {
    let (mut sa, mut sb) = (s.clone(), t);
    let (mut ra, mut rb) = (rng_from_seed(seed), rng_from_seed(seed));
    for _ in 0..6 {
        let Some(cmd) = agents::random(sc, &sa, agent) else {
            break;
        };
        let (Ok(ea), Ok(eb)) = (apply(sc, &sa, &cmd, &mut ra), apply(sc, &sb, &cmd, &mut rb))
        else {
            panic!("{ctx}: {cmd:?} accepted in one state only");
        };
        let (va, reveal_a) = until_reveal(&ea, viewer);
        let (vb, reveal_b) = until_reveal(&eb, viewer);
        assert_eq!(va, vb, "{ctx}: {viewer}'s events after {cmd:?}");
        assert_eq!(reveal_a, reveal_b, "{ctx}");
        if reveal_a {
            break;
        }
        sa.apply_events(sc, &ea);
        sb.apply_events(sc, &eb);
        assert_eq!(answers(&sa), answers(&sb), "{ctx}: after {cmd:?}");
    }
}

/// Plays a random game of `name` and checks every `every`-th position; returns the
/// number of checks in which resampling changed the state (the test is not vacuous).
fn check_game(name: &str, seed: u64, every: usize, max_commands: usize) -> (usize, usize) {
    let mut m = Match::new_builtin(name, seed).unwrap();
    let sc = m.scenario().clone();
    let mut agent = rng_from_seed(seed ^ 0x5eed);
    let mut resample_rng = rng_from_seed(seed.wrapping_mul(31) + 7);
    let mut sample_rng = rng_from_seed(seed.wrapping_mul(57) + 3);
    let (mut checks, mut changed) = (0, 0);
    for k in 0..max_commands {
        if m.is_over() {
            break;
        }
        let s = m.state().clone();
        if k % every == 0 || s.combat.is_some() {
            for side in Side::BOTH {
                let t = resample_hidden(&sc, &s, side, &mut resample_rng);
                if t != s {
                    changed += 1;
                }
                let ctx = format!("{name} seed {seed} #{k}, as {side}");
                // A state drawn from the view alone (determinized search) is one the
                // side cannot tell from the real one either.
                let v = view(&sc, &s, side);
                let u = sample_consistent(&sc, &v, &mut sample_rng);
                assert_eq!(view(&sc, &u, side), v, "{ctx}: sample_consistent");
                assert_eq!(
                    answers(&sc, &u, side),
                    answers(&sc, &s, side),
                    "{ctx}: an answer differs on a state sampled from the view"
                );
                let (a, b) = (answers(&sc, &s, side), answers(&sc, &t, side));
                for (x, y) in a.iter().zip(&b) {
                    assert_eq!(x, y, "{ctx}: an answer depends on what {side} may not know");
                }
                assert_eq!(a.len(), b.len(), "{ctx}");
                let seed2 = resample_rng.next_u64();
                let answers_of = |u: &State| answers(&sc, u, side);
                play_on_until_reveal(&sc, &s, t, side.into(), &mut agent, seed2, answers_of, &ctx);
                checks += 1;
            }
        }
        let cmd = agents::random(&sc, m.state(), &mut agent).expect("a legal command");
        m.apply(&cmd).unwrap();
    }
    (checks, changed)
}

#[test]
fn no_leak_system_demo() {
    let mut changed = 0;
    for seed in 1..=24 {
        changed += check_game("system-demo", seed, 4, 400).1;
    }
    assert!(changed >= 4, "resampling changed only {changed} states");
}

#[test]
fn no_leak_meuse_argonne() {
    let (checks, _) = check_game("meuse-argonne", 3, 25, 500);
    assert!(checks > 20);
}

#[test]
fn no_leak_vimy_ridge() {
    let mut changed = 0;
    for seed in [2, 5] {
        changed += check_game("vimy-ridge", seed, 15, 900).1;
    }
    assert!(changed > 10, "resampling changed only {changed} states");
}

#[test]
fn no_leak_suez_1916() {
    let mut changed = 0;
    for seed in [4, 8] {
        changed += check_game("suez-1916", seed, 10, 500).1;
    }
    assert!(changed > 10, "resampling changed only {changed} states");
}

/// A tiny Vimy Ridge battle in the Combat Phase whose sides are allotted three of
/// 1,1,2,2,3,3 at random (R-VR-16.0a: a secret draw).
fn secret_allotment_scenario() -> Scenario {
    vimy::vimy(6, 6)
        .start(Phase::Combat)
        .cdn("c1", 1, "0302")
        .ger("g1", 79, "0303")
        .support(&[1, 1, 2, 2, 3, 3], &[1, 1, 2, 2, 3, 3], 3, 3)
        .build()
}

/// R-VR-16.0a: the opponent's view of a secret random allotment is the mix less what
/// has been revealed, never the draw itself; the view hash and `combat_odds` follow.
#[test]
fn rule_vr_16_0_random_allotment_is_hidden_from_the_opponent() {
    let sc = secret_allotment_scenario();
    for seed in 0..40 {
        let (s, _) = new_game(&sc, &mut rng_from_seed(seed));
        let secret = s.support.b.available.clone();
        assert_eq!(secret.len(), 3);
        let va = view(&sc, &s, Side::A);
        assert_eq!(va.support.b.available, None);
        assert_eq!(va.support.b.unrevealed, vec![1, 1, 2, 2, 3, 3]);
        assert_eq!(va.support.b.unrevealed_count, 3);
        assert_eq!(view(&sc, &s, Side::B).support.b.unrevealed, secret);
        // Every draw gives A the same view, hash and odds.
        let mut other = s.clone();
        other.support.b.available = vec![1, 1, 2];
        assert_eq!(view(&sc, &other, Side::A), va);
        assert_eq!(view(&sc, &other, Side::A).hash(), va.hash());
        let p = AttackProposal {
            hex: h("0303"),
            units: vec![u("c1")],
            attacker_markers: 0,
            defender_markers: 2,
        };
        assert_eq!(
            combat_odds(&sc, &s, Side::A, &p).unwrap(),
            combat_odds(&sc, &other, Side::A, &p).unwrap()
        );
    }
}

/// R-VR-16.0a with `sample_consistent`: a state drawn from A's view gives B an
/// allotment drawn from the mix as the rules draw it (three of 1,1,2,2,3,3 without
/// replacement: each of the 20 draws of three positions equally likely), whatever B
/// really holds, and keeps everything A sees.
#[test]
fn rule_vr_16_0_sample_consistent_draws_the_secret_allotment_from_the_mix() {
    let sc = secret_allotment_scenario();
    let (s, _) = new_game(&sc, &mut rng_from_seed(5));
    let va = view(&sc, &s, Side::A);
    let mut counts = std::collections::BTreeMap::<Vec<u8>, u32>::new();
    let mut rng = rng_from_seed(8);
    let n = 4000;
    for _ in 0..n {
        let t = sample_consistent(&sc, &va, &mut rng);
        assert_eq!(view(&sc, &t, Side::A), va);
        assert_eq!(t.support.a, s.support.a, "A's own markers are A's");
        *counts.entry(t.support.b.available.clone()).or_default() += 1;
    }
    // Multisets of three from 1,1,2,2,3,3: {1,2,3} in 8 of the 20 position draws,
    // each of the six with a pair in 2.
    let expect = |m: &[u8]| if m == [1, 2, 3] { 8.0 } else { 2.0 } / 20.0;
    assert_eq!(counts.len(), 7, "{counts:?}");
    for (m, c) in &counts {
        let p = f64::from(*c) / f64::from(n);
        assert!(
            (p - expect(m)).abs() < 0.03,
            "{m:?} drawn with frequency {p}, expected {}",
            expect(m)
        );
    }
}

/// R-VR-16.0a: a side's information state does not carry the opponent's secret
/// allotment. Matches of the secret-allotment battle with the same allotment for A
/// (its own, which it sees) give A the same information state whatever B drew, and
/// B's draws do differ among them.
#[test]
fn rule_vr_16_0_information_state_hides_the_opponents_allotment() {
    let sc = std::sync::Arc::new(secret_allotment_scenario());
    let mut by_own = std::collections::BTreeMap::<Vec<u8>, (String, Vec<Vec<u8>>)>::new();
    let mut by_tensor = std::collections::BTreeMap::<String, Vec<f32>>::new();
    for seed in 0..60 {
        let m = Match::new(sc.clone(), seed);
        let own = m.state().support.a.available.clone();
        let theirs = m.state().support.b.available.clone();
        let info = m.information_state(Side::A);
        let e = by_own
            .entry(own)
            .or_insert_with(|| (info.clone(), Vec::new()));
        assert_eq!(
            e.0, info,
            "A's information state depends only on what A sees"
        );
        e.1.push(theirs);
        // The tensor form follows the text: equal exactly when the texts are.
        let t = info_tensor(&m, Side::A);
        let e = by_tensor.entry(info).or_insert_with(|| t.clone());
        assert_eq!(
            *e, t,
            "A's information-state tensor depends only on what A sees"
        );
    }
    let tensors: std::collections::BTreeSet<Vec<u32>> = by_tensor
        .values()
        .map(|t| t.iter().map(|x| x.to_bits()).collect())
        .collect();
    assert_eq!(
        tensors.len(),
        by_tensor.len(),
        "different information states give different tensors"
    );
    let varied = by_own.values().any(|(_, theirs)| {
        let mut t = theirs.clone();
        t.sort();
        t.dedup();
        t.len() > 1
    });
    assert!(
        varied,
        "B's secret draws differ within a group (the test is not vacuous)"
    );
    let infos: std::collections::BTreeSet<&String> = by_own.values().map(|(i, _)| i).collect();
    assert!(
        infos.len() > 1,
        "A's own allotment is in A's information state"
    );
    // B's own information state does see B's allotment.
    let (a, b) = (Match::new(sc.clone(), 1), Match::new(sc.clone(), 2));
    if a.state().support.b.available != b.state().support.b.available {
        assert_ne!(a.information_state(Side::B), b.information_state(Side::B));
        assert_ne!(info_tensor(&a, Side::B), info_tensor(&b, Side::B));
    }
}

/// `side`'s information-state tensor with room for the match's commands and ten more.
fn info_tensor(m: &Match, side: Side) -> Vec<f32> {
    let mut t = vec![f32::NAN; fm_core::information_state_tensor_size(m.log().len() + 10)];
    m.information_state_tensor(side, &mut t).unwrap();
    t
}

/// A side record (`Match::export`) carries the side's redacted stream and view hashes,
/// never the seed or the opponent's hidden values (issue 13: saves are referee
/// material; records are a player's).
#[test]
fn export_is_the_sides_own_record() {
    let mut m = Match::new_builtin("vimy-ridge", 11).unwrap();
    let sc = m.scenario().clone();
    let mut agent = rng_from_seed(4);
    for _ in 0..120 {
        let Some(c) = agents::random(&sc, m.state(), &mut agent) else {
            break;
        };
        m.apply(&c).unwrap();
    }
    for side in Side::BOTH {
        let r = m.export(side);
        let text = serde_json::to_string(&r).unwrap();
        assert!(!text.contains("\"seed\""));
        let back: SideRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
        assert_eq!(r.view, m.view(side));
        assert_eq!(r.view_hash, m.view_hash(side));
        assert_ne!(r.view_hash, m.state().hash());
        let mut s = State::initial(&sc);
        s.apply_events(&sc, m.opening_events());
        for (e, full) in r.log.iter().zip(m.log()) {
            s.apply_events(&sc, &full.events);
            assert_eq!(e.command, full.command);
            let redacted: Vec<Event> = full.events.iter().map(|x| x.redacted_for(side)).collect();
            assert_eq!(e.events, redacted);
            assert_eq!(e.view_hash, view(&sc, &s, side).hash());
        }
        let hidden_allotments = r
            .opening
            .iter()
            .chain(r.log.iter().flat_map(|e| &e.events))
            .filter(|e| matches!(e, Event::SupportAllotted { side: o, values: Some(_), .. } if *o != side))
            .count();
        assert_eq!(hidden_allotments, 0);
    }
}

/// Everything a spectator can learn at `s`, as comparable text: its view, view hash,
/// the observation of its view and (`picture`) its picture.
fn spectator_answers(sc: &Scenario, s: &State, picture: bool) -> Vec<String> {
    let v = view(sc, s, Viewer::Spectator);
    let mut out = vec![
        serde_json::to_string(&v).unwrap(),
        format!("{:016x}", v.hash()),
        format!("{:?}", observation::encode(sc, &v)),
    ];
    if picture {
        let options = serde_json::json!({"hex_size": 12});
        out.push(<Fm as Game>::spectator_svg(sc, s, &options).unwrap());
    }
    out
}

/// Plays a random game of `name` and, at every `every`-th position (and every one with
/// a combat in progress), redraws b's secrets (`resample_hidden` for a), a's (for b),
/// and both (for a, then for b): a spectator's answers must not change, nor the events
/// it sees until the next reveal. Returns the checks and how many of them the
/// resampling of both sides changed the state in (the test is not vacuous).
fn check_spectator_game(
    name: &str,
    seed: u64,
    every: usize,
    max_commands: usize,
) -> (usize, usize) {
    let mut m = Match::new_builtin(name, seed).unwrap();
    let sc = m.scenario().clone();
    let mut agent = rng_from_seed(seed ^ 0x5bec);
    let mut resample_rng = rng_from_seed(seed.wrapping_mul(37) + 11);
    let mut sample_rng = rng_from_seed(seed.wrapping_mul(59) + 5);
    let (mut checks, mut changed) = (0, 0);
    for k in 0..max_commands {
        if m.is_over() {
            break;
        }
        let s = m.state().clone();
        if k % every == 0 || s.combat.is_some() {
            let ctx = format!("{name} seed {seed} #{k}, as a spectator");
            let want = spectator_answers(&sc, &s, true);
            let b_redrawn = resample_hidden(&sc, &s, Side::A, &mut resample_rng);
            let a_redrawn = resample_hidden(&sc, &s, Side::B, &mut resample_rng);
            let both = resample_hidden(&sc, &b_redrawn, Side::B, &mut resample_rng);
            if both != s {
                changed += 1;
            }
            for (what, t) in [
                ("b's", &b_redrawn),
                ("a's", &a_redrawn),
                ("both sides'", &both),
            ] {
                let got = spectator_answers(&sc, t, true);
                for (x, y) in want.iter().zip(&got) {
                    assert_eq!(x, y, "{ctx}: an answer depends on {what} secrets");
                }
            }
            // A state drawn from the spectator's view alone is one it cannot tell from
            // the real one.
            let v = view(&sc, &s, Viewer::Spectator);
            let u = sample_consistent(&sc, &v, &mut sample_rng);
            assert_eq!(
                view(&sc, &u, Viewer::Spectator),
                v,
                "{ctx}: sample_consistent"
            );
            let seed2 = resample_rng.next_u64();
            let answers_of = |u: &State| spectator_answers(&sc, u, false);
            play_on_until_reveal(
                &sc,
                &s,
                both,
                Viewer::Spectator,
                &mut agent,
                seed2,
                answers_of,
                &ctx,
            );
            checks += 1;
        }
        let cmd = agents::random(&sc, m.state(), &mut agent).expect("a legal command");
        m.apply(&cmd).unwrap();
    }
    (checks, changed)
}

/// Issue 33, spectators: a spectator's view, view hash, observation, picture and
/// redacted events are the same on every state that differs only in what either side
/// may not know (7.2, Vimy Ridge 16.0, Suez 1916 18.3), in every built-in scenario.
#[test]
fn spectator_view_leaks_nothing() {
    let mut changed = 0;
    for seed in 1..=8 {
        changed += check_spectator_game("system-demo", seed, 4, 400).1;
    }
    assert!(
        changed >= 4,
        "system-demo: resampling changed only {changed} states"
    );
    let (checks, _) = check_spectator_game("meuse-argonne", 3, 25, 500);
    assert!(checks > 20);
    let (_, changed) = check_spectator_game("vimy-ridge", 2, 15, 900);
    assert!(
        changed > 10,
        "vimy-ridge: resampling changed only {changed} states"
    );
    let (_, changed) = check_spectator_game("suez-1916", 4, 10, 500);
    assert!(
        changed > 10,
        "suez-1916: resampling changed only {changed} states"
    );
}

/// A system-demo match played at random until a combat in progress has face-down
/// markers of both sides.
fn both_sides_face_down() -> Match {
    for seed in 1..200 {
        let mut m = Match::new_builtin("system-demo", seed).unwrap();
        let sc = m.scenario().clone();
        let mut agent = rng_from_seed(seed);
        for _ in 0..400 {
            let face_down = |side: Side| {
                m.state().combat.as_ref().is_some_and(|c| {
                    c.markers
                        .iter()
                        .any(|mk| mk.side == side && !mk.revealed && mk.value.is_some())
                })
            };
            if face_down(Side::A) && face_down(Side::B) {
                return m;
            }
            let Some(cmd) = agents::random(&sc, m.state(), &mut agent) else {
                break;
            };
            m.apply(&cmd).unwrap();
        }
    }
    panic!("no system-demo game reached face-down markers of both sides");
}

/// Issue 33: a spectator sees what both sides may know. Where each side's view shows
/// its own face-down markers and allotted values (7.2), the spectator's shows neither
/// side's; it sees each side's markers as that side's opponent does, and its view
/// hash is neither side's. The events it is given carry no drawn value of either side.
#[test]
fn spectator_view_hides_both_sides_face_down_values() {
    let m = both_sides_face_down();
    let (sc, s) = (m.scenario(), m.state());
    let (va, vb) = (view(sc, s, Side::A), view(sc, s, Side::B));
    let vs = view(sc, s, Viewer::Spectator);
    assert_eq!(vs.side, Viewer::Spectator);
    let json = serde_json::to_value(&vs).unwrap();
    assert_eq!(json["side"], "spectator");
    assert_eq!(serde_json::to_value(&va).unwrap()["side"], "a");
    let c = s.combat.as_ref().unwrap();
    for (k, mk) in c.markers.iter().enumerate() {
        if mk.revealed {
            continue;
        }
        assert!(mk.value.is_some());
        assert_eq!(
            vs.combat.as_ref().unwrap().markers[k].value,
            None,
            "marker {k}"
        );
        let own = |v: &View| v.combat.as_ref().unwrap().markers[k].value;
        assert_eq!(
            own(&va).is_some(),
            mk.side == Side::A,
            "marker {k} in a's view"
        );
        assert_eq!(
            own(&vb).is_some(),
            mk.side == Side::B,
            "marker {k} in b's view"
        );
    }
    assert!(va.support.a.available.is_some() && vb.support.b.available.is_some());
    assert_eq!(vs.support.a.available, None);
    assert_eq!(vs.support.b.available, None);
    // Each side's markers as its opponent sees them.
    assert_eq!(vs.support.a, vb.support.a);
    assert_eq!(vs.support.b, va.support.b);
    let hashes = [va.hash(), vb.hash(), vs.hash()];
    assert!(
        hashes[2] != hashes[0] && hashes[2] != hashes[1],
        "{hashes:x?}"
    );
    assert_eq!(m.spectator_view().unwrap(), vs);
    assert_eq!(m.spectator_view_hash().unwrap(), vs.hash());
    // The events: every drawn value face down to the spectator, each side's own to it.
    let mut committed = 0;
    for e in m.log().iter().flat_map(|e| e.events.iter()) {
        let Event::SupportCommitted {
            side,
            step: Some(_),
            value: Some(_),
        } = e
        else {
            continue;
        };
        committed += 1;
        assert!(matches!(
            e.redacted_for(Viewer::Spectator),
            Event::SupportCommitted { value: None, .. }
        ));
        assert!(matches!(
            e.redacted_for(*side),
            Event::SupportCommitted { value: Some(_), .. }
        ));
    }
    assert!(committed >= 2);
    let allotted = m
        .opening_events()
        .iter()
        .chain(m.log().iter().flat_map(|e| e.events.iter()))
        .filter(|e| matches!(e, Event::SupportAllotted { .. }))
        .map(|e| e.redacted_for(Viewer::Spectator))
        .collect::<Vec<_>>();
    assert!(!allotted.is_empty());
    assert!(allotted
        .iter()
        .all(|e| matches!(e, Event::SupportAllotted { values: None, .. })));
    // The spectator's log: the layer's redaction and its view hashes.
    let log = m.spectator_log(0).unwrap();
    assert_eq!(log.len(), m.log().len());
    assert_eq!(log.last().unwrap().view_hash, vs.hash());
    for (mine, full) in log.iter().zip(m.log()) {
        assert_eq!(mine.command, full.command);
        let redacted: Vec<Event> = full
            .events
            .iter()
            .map(|e| e.redacted_for(Viewer::Spectator))
            .collect();
        assert_eq!(mine.events, redacted);
    }
    assert_eq!(
        m.spectator_log(log.len() - 1).unwrap(),
        log[log.len() - 1..]
    );
    // The spectator's picture shows no face-down value: the layer's, from its view.
    let svg = <Fm as Game>::spectator_svg(sc, s, &serde_json::json!({})).unwrap();
    assert!(svg.contains("(as seen by a spectator)"));
    assert_eq!(svg, render_svg(sc, &vs, &RenderOptions::default()));
}

/// R-VR-16.0a: a secret random allotment is secret from a spectator too, whichever
/// side drew it: it sees each side's mix, never the draw.
#[test]
fn rule_vr_16_0_random_allotment_is_hidden_from_a_spectator() {
    let sc = secret_allotment_scenario();
    for seed in 0..20 {
        let (s, _) = new_game(&sc, &mut rng_from_seed(seed));
        let vs = view(&sc, &s, Viewer::Spectator);
        for side in Side::BOTH {
            let sv = vs.support.get(side);
            assert_eq!(sv.available, None);
            assert_eq!(sv.unrevealed, vec![1, 1, 2, 2, 3, 3]);
            assert_eq!(sv.unrevealed_count, 3);
        }
        let mut other = s.clone();
        other.support.a.available = vec![1, 1, 2];
        other.support.b.available = vec![3, 3, 2];
        assert_eq!(view(&sc, &other, Viewer::Spectator), vs);
        assert_eq!(view(&sc, &other, Viewer::Spectator).hash(), vs.hash());
    }
}

/// A side's viewer hashes and serializes as the side itself: every side's view JSON
/// and hash is what it was before views could be a spectator's.
#[test]
fn a_sides_viewer_hashes_and_reads_as_the_side() {
    use std::hash::{Hash, Hasher};
    for side in Side::BOTH {
        let mut x = std::collections::hash_map::DefaultHasher::new();
        let mut y = std::collections::hash_map::DefaultHasher::new();
        side.hash(&mut x);
        Viewer::from(side).hash(&mut y);
        assert_eq!(x.finish(), y.finish());
        let text = serde_json::to_string(&side).unwrap();
        assert_eq!(serde_json::to_string(&Viewer::from(side)).unwrap(), text);
        assert_eq!(
            serde_json::from_str::<Viewer>(&text).unwrap(),
            Viewer::from(side)
        );
    }
    assert_eq!(
        serde_json::to_string(&Viewer::Spectator).unwrap(),
        "\"spectator\""
    );
}
