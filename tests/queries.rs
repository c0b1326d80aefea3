//! The match layer's queries beyond play (`fm_core::query`, issue 19): `explain`,
//! `svg`, `reachable`, `odds`, the observation, `pending_kind`, `result` and
//! `try_index_of`, through `DynMatch` on Fire & Movement, Huzzah! and the toy race of
//! `tests/support/race.rs` (which keeps the trait's defaults): each answer against the
//! system's own function, each error typed, and the per-side queries (odds, a side's
//! picture, the observation) equal on a match the side cannot tell from the real one.

use crate::race;

use fm_core::any::{self, DynMatch};
use fm_core::{rng_from_seed, GameMatch, MatchError, MatchResult, Side};
use rand_core::RngCore;
use serde_json::{json, Value};

/// Plays `n` random commands (fewer if the game ends).
fn play(m: &mut dyn DynMatch, n: usize, seed: u64) {
    let mut rng = rng_from_seed(seed);
    for _ in 0..n {
        let idx = m.legal_indices();
        if idx.is_empty() {
            break;
        }
        let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
        m.apply_index(i).unwrap();
    }
}

/// Plays random commands until `stop` holds (at most `max`); false if it never did.
fn play_until(
    m: &mut dyn DynMatch,
    max: usize,
    seed: u64,
    stop: impl Fn(&dyn DynMatch) -> bool,
) -> bool {
    let mut rng = rng_from_seed(seed);
    for _ in 0..max {
        if stop(m) {
            return true;
        }
        let idx = m.legal_indices();
        if idx.is_empty() {
            return false;
        }
        let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
        m.apply_index(i).unwrap();
    }
    stop(m)
}

fn race() -> Box<dyn DynMatch> {
    Box::new(GameMatch::<race::Race>::new_builtin("race-to-10", 5).unwrap())
}

fn input(e: MatchError) -> String {
    match e {
        MatchError::Input(m) => m,
        other => panic!("expected an input error, got {other:?}"),
    }
}

fn rule(e: MatchError) -> fm_core::RuleError {
    match e {
        MatchError::Rule(r) => r,
        other => panic!("expected a rule error, got {other:?}"),
    }
}

fn unsupported(e: MatchError, query: &str, system: &str) {
    assert_eq!(
        e,
        MatchError::Unsupported {
            query: query.into(),
            system: system.into()
        }
    );
    assert_eq!(
        MatchError::Unsupported {
            query: query.into(),
            system: system.into()
        }
        .to_string(),
        format!("{query} is not supported by the {system:?} rules system")
    );
}

#[test]
fn explain_is_none_for_legal_commands_and_the_rule_otherwise() {
    for name in ["system-demo", "huzzah-firefight"] {
        let mut m = any::new_match(name, 3).unwrap();
        play(m.as_mut(), 15, 1);
        let hash = m.state_hash();
        for c in m.legal_json().iter().take(20) {
            assert_eq!(m.explain(c).unwrap(), None, "{name}: {c}");
        }
        assert_eq!(m.state_hash(), hash, "{name}: explain changes nothing");
        // A command the rules refuse: the same error `apply_json` gives.
        let bad = if name == "system-demo" {
            json!({"type": "move", "unit": "no-such-unit", "path": ["0101"]})
        } else {
            json!({"type": "hold_fire", "unit": "no-such-unit"})
        };
        let why = m.explain(&bad).unwrap().expect("refused");
        let mut c = m.clone_box();
        match c.apply_json(&bad) {
            Err(MatchError::Rule(r)) => assert_eq!(r, why, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        // JSON that is no command at all is an input error, not an explanation.
        let e = input(m.explain(&json!({"type": "no-such-command"})).unwrap_err());
        assert!(e.starts_with("command JSON: "), "{e}");
        let extra = if name == "system-demo" {
            json!({"type": "done", "extra": 1})
        } else {
            json!({"type": "end_phase", "extra": 1})
        };
        let e = input(m.explain(&extra).unwrap_err());
        assert!(e.contains("unknown field `extra`"), "{e}");
    }
    // The toy race keeps the default (apply on a copy with a fixed generator).
    let mut r = race();
    assert_eq!(r.explain(&json!({"type": "roll"})).unwrap(), None);
    r.playout(&mut rng_from_seed(1), 10_000);
    let why = r.explain(&json!({"type": "hold"})).unwrap().expect("over");
    assert!(!why.rule.is_empty());
    assert!(r.explain(&json!({"type": "fly"})).is_err());
}

#[test]
fn try_index_of_reads_strictly() {
    for name in ["system-demo", "huzzah-encounter", "race-to-10"] {
        let m: Box<dyn DynMatch> = if name == "race-to-10" {
            race()
        } else {
            any::new_match(name, 2).unwrap()
        };
        for c in m.legal_json().iter().take(10) {
            let i = m.try_index_of(c).unwrap();
            assert_eq!(i, m.index_of(c), "{name}: {c}");
            assert!(i.is_some(), "{name}: a legal command has an index");
        }
        let e = input(m.try_index_of(&json!({"type": "nonsense"})).unwrap_err());
        assert!(e.starts_with("command JSON"), "{e}");
    }
}

#[test]
fn pending_kind_and_result_tell_the_states_apart() {
    for name in ["system-demo", "huzzah-firefight"] {
        let mut m = any::new_match(name, 7).unwrap();
        assert_eq!(m.result(), MatchResult::Ongoing, "{name}");
        assert_eq!(m.pending_kind(), m.pending_json()["kind"].as_str().unwrap());
        m.playout(&mut rng_from_seed(7), 100_000);
        assert!(m.is_over(), "{name}");
        assert_eq!(m.pending_kind(), "game_over", "{name}");
        let expected = match m.outcome().unwrap().0 {
            Some(w) => MatchResult::Won(w),
            None => MatchResult::Draw,
        };
        assert_eq!(m.result(), expected, "{name}");
    }
    let mut r = race();
    assert_eq!(r.pending_kind(), "turn");
    r.playout(&mut rng_from_seed(2), 10_000);
    assert!(matches!(r.result(), MatchResult::Won(_)));
    assert_eq!(r.pending_kind(), "game_over");
    // The JSON forms.
    assert_eq!(
        serde_json::to_value(MatchResult::Ongoing).unwrap(),
        json!("ongoing")
    );
    assert_eq!(
        serde_json::to_value(MatchResult::Draw).unwrap(),
        json!("draw")
    );
    assert_eq!(
        serde_json::to_value(MatchResult::Won(Side::B)).unwrap(),
        json!({"won": "b"})
    );
}

/// A draw is told from a game going on: system-demo with no side winning by default
/// and only its annihilation conditions ends drawn when both sides survive.
#[test]
fn a_draw_is_not_a_game_going_on() {
    let mut sc = any::new_match("system-demo", 1).unwrap().scenario_json();
    sc["id"] = json!("system-demo-draw");
    sc["victory"] = json!({"conditions": [{"type": "annihilation", "side": "a"},
                                          {"type": "annihilation", "side": "b"}]});
    for seed in 1..20 {
        let mut m = any::new_match(&sc.to_string(), seed).unwrap();
        m.playout(&mut rng_from_seed(seed), 100_000);
        assert!(m.is_over());
        if m.outcome().unwrap().0.is_none() {
            assert_eq!(m.result(), MatchResult::Draw);
            assert_eq!(m.pending_kind(), "game_over");
            return;
        }
    }
    panic!("no draw in 19 random games without a default winner");
}

#[test]
fn svg_draws_each_system_with_its_own_options() {
    let mut m = any::new_match("system-demo", 1).unwrap();
    play(m.as_mut(), 10, 1);
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    // The defaults are the renderer's, for the referee's state and for a side's view.
    let referee = m.svg(None, &json!({})).unwrap();
    assert_eq!(
        referee,
        fm_core::render_svg(
            fm.scenario(),
            fm.state(),
            &fm_core::RenderOptions::default()
        )
    );
    assert_eq!(
        m.svg(Some(Side::A), &json!({})).unwrap(),
        fm_core::render_svg(
            fm.scenario(),
            &fm.view(Side::A),
            &fm_core::RenderOptions::default()
        )
    );
    // Every option is read.
    let opts = json!({
        "hex_size": 25, "hex_ids": false, "panel": false, "title": "T<&>",
        "highlight": ["0101", "0202"],
        "markers": [{"hex": "0303", "kind": "breach", "label": "B"}]
    });
    let want = fm_core::RenderOptions {
        hex_size: 25.0,
        hex_ids: false,
        panel: false,
        title: Some("T<&>".into()),
        highlight: vec!["0101".parse().unwrap(), "0202".parse().unwrap()],
        markers: vec![fm_core::MapMarker {
            hex: "0303".parse().unwrap(),
            kind: "breach".into(),
            label: "B".into(),
        }],
        ..Default::default()
    };
    assert_eq!(
        m.svg(None, &opts).unwrap(),
        fm_core::render_svg(fm.scenario(), fm.state(), &want)
    );
    // Errors: not an object, an unknown option (another system's included), bad values;
    // each names the option (`null` is the defaults).
    assert_eq!(m.svg(None, &json!(null)).unwrap(), referee);
    for (bad, says) in [
        (json!([]), "an object expected"),
        (json!([25, false]), "an object expected"),
        (json!({"scale": 3}), "unknown field `scale`"),
        (
            json!({"hex_size": 5}),
            "hex_size must be a number of pixels from 10 to 200",
        ),
        (json!({"hex_size": "big"}), "at hex_size"),
        (json!({"hex_ids": 1}), "at hex_ids"),
        (json!({"title": 3}), "at title"),
        (json!({"highlight": "0101"}), "at highlight"),
        (json!({"highlight": ["zz"]}), "at highlight[0]"),
        (
            json!({"highlight": ["9999"]}),
            "highlight[0]: 9999 is off the map",
        ),
        (
            json!({"markers": [["0101", "breach", "B"]]}),
            "at markers[0]",
        ),
        (
            json!({"markers": [{"kind": "k", "label": "B"}]}),
            "missing field `hex`",
        ),
        (
            json!({"markers": [{"hex": "0101", "kind": "k", "label": 2}]}),
            "at markers[0].label",
        ),
    ] {
        let e = input(
            m.svg(None, &bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted")),
        );
        assert!(
            e.starts_with("render options") && e.contains(says),
            "{bad}: {e}"
        );
    }

    let mut h = any::new_match("huzzah-firefight", 1).unwrap();
    play(h.as_mut(), 10, 1);
    let hz = h
        .as_any()
        .downcast_ref::<GameMatch<fm_core::huzzah::Huzzah>>()
        .unwrap();
    let render = fm_core::huzzah::render::render_svg;
    use fm_core::huzzah::render::RenderOptions as HzOptions;
    assert_eq!(
        h.svg(None, &json!({})).unwrap(),
        render(hz.scenario(), hz.state(), &HzOptions::default())
    );
    assert_eq!(
        h.svg(Some(Side::B), &json!({})).unwrap(),
        render(hz.scenario(), &hz.view(Side::B), &HzOptions::default())
    );
    let unit = hz
        .scenario()
        .unit(fm_core::huzzah::scenario::UnitIx(0))
        .id
        .clone();
    let want = HzOptions {
        radii: true,
        arc_of: Some(unit.to_string()),
        scale_px_per_cm: 7,
        labels: false,
        ..Default::default()
    };
    assert_eq!(
        h.svg(
            None,
            &json!({"radii": true, "arc_of": unit, "scale": 7, "labels": false})
        )
        .unwrap(),
        render(hz.scenario(), hz.state(), &want)
    );
    assert_eq!(
        h.svg(None, &json!(null)).unwrap(),
        h.svg(None, &json!({})).unwrap()
    );
    for (bad, says) in [
        (json!({"hex_size": 40}), "unknown field `hex_size`"),
        (
            json!({"scale": 0}),
            "scale must be a number of pixels per centimetre from 1 to 100",
        ),
        (json!({"scale": 101}), "scale"),
        (json!({"scale": 2.5}), "at scale"),
        (json!({"radii": "yes"}), "at radii"),
        (json!("radii"), "an object expected"),
        (json!({"arc_of": "nobody"}), "arc_of: unknown unit 'nobody'"),
    ] {
        let e = input(
            h.svg(None, &bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted")),
        );
        assert!(
            e.starts_with("render options") && e.contains(says),
            "{bad}: {e}"
        );
    }

    unsupported(race().svg(None, &json!({})).unwrap_err(), "svg", "race");
}

#[test]
fn reachable_is_fire_and_movements() {
    let mut m = any::new_match("system-demo", 4).unwrap();
    assert!(play_until(m.as_mut(), 400, 4, |m| {
        m.pending_json()["phase"] == "movement"
    }));
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    let mut some = false;
    for id in fm.state().units.ids.iter() {
        let got = m.reachable(id.as_str()).unwrap();
        let want = serde_json::to_value(fm_core::reachable(fm.scenario(), fm.state(), id)).unwrap();
        assert_eq!(got, want);
        some |= got.as_array().is_some_and(|a| !a.is_empty());
    }
    assert!(some, "a unit can move in the movement phase");
    let e = rule(m.reachable("nobody").unwrap_err());
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("input", "unknown unit 'nobody'")
    );
    unsupported(
        any::new_match("huzzah-encounter", 1)
            .unwrap()
            .reachable("x")
            .unwrap_err(),
        "reachable",
        "huzzah",
    );
    unsupported(race().reachable("x").unwrap_err(), "reachable", "race");
}

#[test]
fn odds_of_an_attack_and_of_a_fire_or_a_morale_test() {
    // Fire & Movement: a combat in progress.
    let mut m = any::new_match("system-demo", 6).unwrap();
    assert!(play_until(m.as_mut(), 3000, 6, |m| {
        m.as_any()
            .downcast_ref::<fm_core::Match>()
            .unwrap()
            .state()
            .combat
            .is_some()
    }));
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    let c = fm.state().combat.clone().unwrap();
    let p = fm_core::AttackProposal {
        hex: c.hex,
        units: c.attackers.clone(),
        attacker_markers: 0,
        defender_markers: 0,
    };
    for side in Side::BOTH {
        let got = m
            .odds(
                side,
                &json!({"hex": c.hex.to_string(), "units": c.attackers}),
            )
            .unwrap();
        let want = fm_core::combat_odds(fm.scenario(), fm.state(), side, &p).unwrap();
        assert_eq!(got, serde_json::to_value(want).unwrap(), "{side}");
    }
    for (bad, says) in [
        (json!({"units": []}), "missing field `hex`"),
        (json!({"hex": "0101", "dice": 2}), "unknown field `dice`"),
        (json!({"hex": "zz"}), "odds JSON: "),
        (
            json!({"hex": "0101", "attacker_markers": -1}),
            "odds JSON: ",
        ),
        (json!("0101"), "odds JSON: "),
    ] {
        let e = input(m.odds(Side::A, &bad).unwrap_err());
        assert!(
            e.starts_with("odds JSON: ") && e.contains(says),
            "{bad}: {e}"
        );
    }
    let e = rule(
        m.odds(
            Side::A,
            &json!({"hex": c.hex.to_string(), "units": ["nobody"]}),
        )
        .unwrap_err(),
    );
    assert_eq!(e.rule, "input");

    // Huzzah!: a fire that may be declared now, and a morale test.
    let mut h = any::new_match("huzzah-firefight", 2).unwrap();
    assert!(play_until(h.as_mut(), 3000, 2, |m| {
        m.legal_json().iter().any(|c| c["type"] == "fire")
    }));
    let fire = h
        .legal_json()
        .into_iter()
        .find(|c| c["type"] == "fire")
        .unwrap();
    let hz = h
        .as_any()
        .downcast_ref::<GameMatch<fm_core::huzzah::Huzzah>>()
        .unwrap();
    let ix = |v: &Value| hz.scenario().unit_index(v.as_str().unwrap()).unwrap();
    let (u, t) = (ix(&fire["unit"]), ix(&fire["target"]));
    let request = json!({"fire": {"unit": fire["unit"], "target": fire["target"]}});
    let want = fm_core::huzzah::odds::fire_odds(hz.scenario(), hz.state(), u, t).unwrap();
    for side in Side::BOTH {
        assert_eq!(
            h.odds(side, &request).unwrap(),
            serde_json::to_value(&want).unwrap()
        );
    }
    let morale = h
        .odds(Side::A, &json!({"morale": {"unit": fire["target"]}}))
        .unwrap();
    let want = fm_core::huzzah::odds::morale_odds(hz.scenario(), hz.state(), t);
    assert_eq!(morale, serde_json::to_value(want).unwrap());
    // A fire the rules would not allow (at itself) is refused with its rule.
    let e = rule(
        h.odds(
            Side::A,
            &json!({"fire": {"unit": fire["unit"], "target": fire["unit"]}}),
        )
        .unwrap_err(),
    );
    assert_ne!(e.rule, "input");
    for bad in [
        json!({"fire": {"unit": fire["unit"]}}),
        json!({"morale": {"unit": fire["unit"], "extra": 1}}),
        json!({"charge": {"unit": fire["unit"]}}),
        json!({"fire": {"unit": fire["unit"], "target": fire["target"]}, "morale": {"unit": "x"}}),
    ] {
        let e = input(h.odds(Side::A, &bad).unwrap_err());
        assert!(e.starts_with("odds JSON: "), "{bad}: {e}");
    }
    let e = rule(
        h.odds(Side::A, &json!({"morale": {"unit": "nobody"}}))
            .unwrap_err(),
    );
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("input", "unknown unit 'nobody'")
    );
    // Every unit's morale odds, wherever it is, are an answer (no panic).
    for i in 0..hz.scenario().units().len() {
        let id = hz
            .scenario()
            .unit(fm_core::huzzah::scenario::UnitIx(i as u16))
            .id
            .clone();
        h.odds(Side::B, &json!({"morale": {"unit": id}})).unwrap();
    }

    unsupported(
        race().odds(Side::A, &json!({})).unwrap_err(),
        "odds",
        "race",
    );
}

#[test]
fn observations_fill_the_callers_buffer() {
    let mut m = any::new_match("vimy-ridge", 3).unwrap();
    play(m.as_mut(), 40, 3);
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    let spec = m.observation_spec().unwrap();
    let meta = fm_core::observation::Meta::new(fm.scenario());
    assert_eq!(spec.shape, [meta.channels, meta.rows, meta.cols]);
    assert_eq!(spec.channels, meta.channel_names);
    assert_eq!(spec.features, fm_core::observation::feature_names());
    for side in Side::BOTH {
        let (mut want, feats) = fm_core::observation::encode(fm.scenario(), &fm.view(side));
        want.extend_from_slice(&feats);
        assert_eq!(want.len(), spec.size());
        // A longer buffer: the observation, then what was there.
        let mut out = vec![-1.0f32; spec.size() + 3];
        assert_eq!(m.observation(side, &mut out).unwrap(), spec.size());
        assert_eq!(&out[..spec.size()], &want[..]);
        assert_eq!(&out[spec.size()..], &[-1.0; 3]);
        // The map planes (copied from the scenario's): plane 0 marks every hex once.
        let plane = meta.rows * meta.cols;
        let on_map = out[..plane].iter().filter(|x| **x == 1.0).count();
        assert_eq!(on_map, fm.scenario().hexes.len());
    }
    // The same buffer again, after more commands: every value is the new state's.
    let mut out = vec![0.5f32; spec.size()];
    m.observation(Side::A, &mut out).unwrap();
    play(m.as_mut(), 40, 4);
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    let (mut want, feats) = fm_core::observation::encode(fm.scenario(), &fm.view(Side::A));
    want.extend_from_slice(&feats);
    m.observation(Side::A, &mut out).unwrap();
    assert_eq!(out, want);
    let mut short = vec![7.0f32; spec.size() - 1];
    let e = input(m.observation(Side::A, &mut short).unwrap_err());
    assert!(
        e.contains(&format!("observation has {}", spec.size())),
        "{e}"
    );
    assert!(short.iter().all(|x| *x == 7.0), "nothing written");
    // Huzzah!: its own layout (`huzzah::observation`), the same through the layer.
    let mut h = any::new_match("huzzah-encounter", 1).unwrap();
    play(h.as_mut(), 60, 1);
    let hz = h
        .as_any()
        .downcast_ref::<GameMatch<fm_core::huzzah::Huzzah>>()
        .unwrap();
    let spec = h.observation_spec().unwrap();
    assert_eq!(spec, fm_core::huzzah::observation::spec(hz.scenario()));
    assert_eq!(
        spec.size(),
        fm_core::huzzah::observation::Layout::new(hz.scenario()).size()
    );
    for side in Side::BOTH {
        let mut want = vec![0f32; spec.size()];
        fm_core::huzzah::observation::write(hz.scenario(), &hz.view(side), side, &mut want);
        let mut out = vec![-1.0f32; spec.size() + 2];
        assert_eq!(h.observation(side, &mut out).unwrap(), spec.size());
        assert_eq!(&out[..spec.size()], &want[..]);
        assert_eq!(&out[spec.size()..], &[-1.0; 2]);
    }
    let mut short = vec![7.0f32; spec.size() - 1];
    let e = input(h.observation(Side::B, &mut short).unwrap_err());
    assert!(
        e.contains(&format!("observation has {}", spec.size())),
        "{e}"
    );
    assert!(short.iter().all(|x| *x == 7.0), "nothing written");
    unsupported(
        race().observation_spec().unwrap_err(),
        "observation",
        "race",
    );
}

/// Everything a side may ask (its picture, its observation, the odds of attacks as it
/// knows them) is the same on a match drawn from its view (`determinized`: what it may
/// not know drawn anew), while the referee's picture may differ.
#[test]
fn per_side_queries_leak_nothing() {
    let (mut checks, mut changed) = (0, 0);
    for (name, seed) in [("vimy-ridge", 2), ("suez-1916", 4), ("system-demo", 9)] {
        let mut m = any::new_match(name, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        for k in 0..600 {
            if m.is_over() {
                break;
            }
            let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
            if k % 40 == 0 || (fm.state().combat.is_some() && k % 5 == 0) {
                // Attacks to ask about: the one in progress, and each enemy-held hex.
                let mut proposals: Vec<Value> = Vec::new();
                if let Some(c) = &fm.state().combat {
                    for am in 0..3 {
                        proposals.push(json!({"hex": c.hex.to_string(), "units": c.attackers,
                            "attacker_markers": am, "defender_markers": 2 - am}));
                    }
                }
                for u in fm.state().units.iter().take(12) {
                    if let Some(h) = u.hex() {
                        proposals.push(json!({"hex": h.to_string(), "attacker_markers": 1}));
                    }
                }
                for side in Side::BOTH {
                    let d = m.determinized(side, rng.next_u64()).unwrap();
                    if d.state_hash() != m.state_hash() {
                        changed += 1;
                    }
                    let ctx = format!("{name} #{k} as {side}");
                    assert_eq!(
                        d.svg(Some(side), &json!({})).unwrap(),
                        m.svg(Some(side), &json!({})).unwrap(),
                        "{ctx}: svg"
                    );
                    let n = m.observation_spec().unwrap().size();
                    let (mut a, mut b) = (vec![0f32; n], vec![0f32; n]);
                    m.observation(side, &mut a).unwrap();
                    d.observation(side, &mut b).unwrap();
                    assert_eq!(a, b, "{ctx}: observation");
                    for p in &proposals {
                        let (x, y) = (m.odds(side, p), d.odds(side, p));
                        assert_eq!(x, y, "{ctx}: odds of {p}");
                    }
                    checks += 1;
                }
            }
            let idx = m.legal_indices();
            let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
            m.apply_index(i).unwrap();
        }
    }
    assert!(checks > 40, "{checks} checks");
    assert!(
        changed > 5,
        "the drawn states differed only {changed} times"
    );
}

/// Huzzah!'s per-side queries (its picture, its observation) are the same on a match
/// drawn from the side's view and on one with other dice to come (the generator, which
/// decides the qualities not yet rolled: no view holds it).
/// Pages 16-17 (issue 34: the odds of the roll shown before it is made): the odds of an
/// order are those of the roll `Command::Order` makes. For every order offered in
/// random huzzah-firefight and huzzah-encounter games, the odds' base, modifiers and
/// factor are the rolled test's, the chance of passing is the factor's count of 36, and
/// an automatic order (a Huzzah! earned it) passes for certain with no roll.
#[test]
fn rule_p17_order_odds_are_the_rolls() {
    let (mut rolled, mut automatic) = (0, 0);
    for (scenario, seed) in [
        ("huzzah-firefight", 1),
        ("huzzah-encounter", 2),
        ("huzzah-firefight", 3),
    ] {
        let mut h = any::new_match(scenario, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        for _ in 0..1500 {
            let legal = h.legal_json();
            if legal.is_empty() {
                break;
            }
            let side = if h.pending_json()["side"] == "b" {
                Side::B
            } else {
                Side::A
            };
            for c in legal.iter().filter(|c| c["type"] == "order").take(6) {
                let req = json!({"order": {"officer": c["officer"], "group": c["group"], "order": c["order"]}});
                let odds = h.odds(side, &req).unwrap();
                let mut after = h.clone_box();
                let events = after.apply_json(c).unwrap();
                let given = events
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["type"] == "order_given")
                    .unwrap_or_else(|| panic!("{c}: {events}"));
                match given["test"].as_object() {
                    Some(t) => {
                        assert_eq!(odds["automatic"], false, "{c}");
                        for k in ["base", "modifiers", "factor"] {
                            assert_eq!(odds[k], t[k], "{c}: {k}");
                        }
                        let f = t["factor"].as_i64().unwrap() as i32;
                        let pass = fm_core::huzzah::quality::pass_count(f) as u64;
                        let want = fm_core::huzzah::odds::Chance::new(pass, 36);
                        assert_eq!(odds["pass"], serde_json::to_value(want).unwrap(), "{c}");
                        rolled += 1;
                    }
                    None => {
                        assert_eq!(given["automatic"], true, "{c}");
                        assert_eq!(odds["automatic"], true, "{c}");
                        assert_eq!(odds["pass"], json!({"num": 1, "den": 1}), "{c}");
                        automatic += 1;
                    }
                }
            }
            let idx = h.legal_indices();
            let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
            h.apply_index(i).unwrap();
        }
    }
    assert!(
        rolled > 50 && automatic > 0,
        "{rolled} rolled, {automatic} automatic"
    );
    // Unknown names are input errors; a group none of whose units can act is refused.
    let h = any::new_match("huzzah-firefight", 1).unwrap();
    let e = rule(
        h.odds(
            Side::A,
            &json!({"order": {"officer": "nobody", "group": {"unit": "fr-1"}, "order": "advance"}}),
        )
        .unwrap_err(),
    );
    assert_eq!(
        (e.rule.as_str(), e.message.as_str()),
        ("input", "unknown officer 'nobody'")
    );
    let bad = json!({"order": {"officer": "x", "group": {"unit": "fr-1"}, "order": "charge"}});
    let e = input(h.odds(Side::A, &bad).unwrap_err());
    assert!(e.starts_with("odds JSON: "), "{e}");
}

#[test]
fn huzzah_per_side_queries_leak_nothing() {
    let mut checks = 0;
    for (name, seed) in [("huzzah-encounter", 3), ("huzzah-firefight", 8)] {
        let mut m = any::new_match(name, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        let n = m.observation_spec().unwrap().size();
        for k in 0..400 {
            if m.is_over() {
                break;
            }
            if k % 25 == 0 {
                for side in Side::BOTH {
                    let ctx = format!("{name} #{k} as {side}");
                    let mut want = vec![0f32; n];
                    m.observation(side, &mut want).unwrap();
                    let picture = m.svg(Some(side), &json!({})).unwrap();
                    let d = m.determinized(side, rng.next_u64()).unwrap();
                    let other_dice = m.clone_with_seed(rng.next_u64());
                    for (what, o) in [("determinized", &d), ("other dice", &other_dice)] {
                        let mut got = vec![0f32; n];
                        o.observation(side, &mut got).unwrap();
                        assert_eq!(got, want, "{ctx}: observation, {what}");
                        assert_eq!(
                            o.svg(Some(side), &json!({})).unwrap(),
                            picture,
                            "{ctx}: svg"
                        );
                    }
                    checks += 1;
                }
            }
            let idx = m.legal_indices();
            let i = idx[(rng.next_u64() % idx.len() as u64) as usize];
            m.apply_index(i).unwrap();
        }
    }
    assert!(checks > 10, "{checks} checks");
}

/// docs/protocol.md's observation-spec example is system-demo's: its shape exactly, and
/// each channel and feature it lists (abridged) in the spec, in the same order.
#[test]
fn protocol_doc_observation_spec_is_system_demos() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md"))
        .unwrap();
    let at = doc
        .find("The observation (Fire & Movement)")
        .expect("the observation paragraph");
    let block = &doc[at..];
    let start = block.find("```json\n").unwrap() + "```json\n".len();
    let end = start + block[start..].find("```").unwrap();
    let shown: Value = serde_json::from_str(&block[start..end]).unwrap();
    let spec = any::new_match("system-demo", 1)
        .unwrap()
        .observation_spec()
        .unwrap();
    assert_eq!(shown["shape"], json!(spec.shape), "{}", json!(spec));
    let in_order = |shown: &Value, all: &[String]| {
        let mut rest = all.iter();
        shown
            .as_array()
            .unwrap()
            .iter()
            .all(|n| rest.any(|a| Some(a.as_str()) == n.as_str()))
    };
    assert!(
        in_order(&shown["channels"], &spec.channels),
        "{}",
        json!(spec)
    );
    assert!(
        in_order(&shown["features"], &spec.features),
        "{}",
        json!(spec)
    );
}

/// docs/learning.md's "The Huzzah! observation" is the layout `huzzah::observation`
/// gives: each scenario's row of its size table (planes, the features' terms, the
/// whole), the sizes of the global block and of each slot in its prose, and every
/// channel and feature field named there (a feature by its last part: `phase:setup` as `setup`, `own:unit0:x` as
/// `x`).
#[test]
fn learning_doc_gives_the_huzzah_observation_layout() {
    use fm_core::huzzah::observation::{Layout, OBJECTIVE_FIELDS, OFFICER_FIELDS, UNIT_FIELDS};
    use fm_core::huzzah::Huzzah;
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/learning.md"))
        .unwrap();
    let at = doc
        .find("### The Huzzah! observation")
        .expect("the Huzzah! section");
    let section = &doc[at..];
    let section = &section[..section[4..].find("\n## ").map_or(section.len(), |e| e + 4)];
    // Numbers as the doc writes them: thousands with commas.
    let n = |x: usize| {
        let s = x.to_string();
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        out
    };
    for name in ["huzzah-firefight", "huzzah-encounter"] {
        let m = GameMatch::<Huzzah>::new_builtin(name, 1).unwrap();
        let l = Layout::new(m.scenario());
        let spec = fm_core::huzzah::observation::spec(m.scenario());
        assert_eq!(spec.size(), l.size());
        let [c, r, w] = spec.shape;
        let objectives = if l.objectives == 0 {
            "0".to_string()
        } else {
            format!("{}·{}", l.objectives, OBJECTIVE_FIELDS.len())
        };
        let row = format!(
            "| {name} | {c} × {r} × {w} = {} | {} + 2·{}·{} + 2·{}·{} + {objectives} = {} | {} |",
            n(l.plane_size()),
            l.globals,
            l.unit_slots,
            UNIT_FIELDS.len(),
            l.officer_slots,
            OFFICER_FIELDS.len(),
            n(l.feature_size()),
            n(l.size()),
        );
        assert!(
            section.contains(&row),
            "docs/learning.md lacks the row\n{row}"
        );
    }
    let globals = Layout::new(
        GameMatch::<Huzzah>::new_builtin("huzzah-firefight", 1)
            .unwrap()
            .scenario(),
    )
    .globals;
    assert!(section.contains(&format!("The global block, {globals} values")));
    // The slots' sizes in the prose, lines joined.
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let (u, o, j) = (
        UNIT_FIELDS.len(),
        OFFICER_FIELDS.len(),
        OBJECTIVE_FIELDS.len(),
    );
    for said in [
        format!("then `enemy:unit0:…`, each {u} values"),
        format!("`features[{globals} : {globals} + 2 * N * {u}]` reshapes to `(2 * N, {u})`"),
        format!("the larger army's officer count, {o} values"),
        format!("The objectives, in scenario order, {j} values"),
    ] {
        assert!(
            flat.contains(&said),
            "docs/learning.md does not say: {said}"
        );
    }
    let spec = fm_core::huzzah::observation::spec(
        GameMatch::<Huzzah>::new_builtin("huzzah-encounter", 1)
            .unwrap()
            .scenario(),
    );
    for name in spec.channels.iter().chain(&spec.features) {
        let last = name.rsplit(':').next().unwrap();
        assert!(
            section.contains(&format!("`{name}`")) || section.contains(&format!("`{last}`")),
            "docs/learning.md does not name {name}"
        );
    }
}

/// Issue 33, spectators, through the layer: a spectator's view, view hash, log, last
/// events and picture are Fire & Movement's own spectator answers, the same on a
/// match drawn from either side's view (a spectator knows no more than either side);
/// Huzzah! hides nothing, so its spectator sees what each side sees; the toy race
/// keeps the trait's defaults (no spectator view or picture; events redacted for each
/// side in turn).
#[test]
fn spectator_queries_on_every_system() {
    use fm_core::Viewer;
    let mut m = any::new_match("vimy-ridge", 2).unwrap();
    let mut rng = rng_from_seed(2);
    play(&mut *m, 80, 2);
    let found = play_until(&mut *m, 400, 3, |g| {
        let fm = g.as_any().downcast_ref::<fm_core::Match>().unwrap();
        fm.state()
            .combat
            .as_ref()
            .is_some_and(|c| !c.markers.is_empty())
    });
    assert!(found, "a combat with markers");
    let fm = m.as_any().downcast_ref::<fm_core::Match>().unwrap();
    let (sc, s) = (fm.scenario(), fm.state());
    let v = fm_core::view(sc, s, Viewer::Spectator);
    assert_eq!(
        m.spectator_view_json().unwrap(),
        serde_json::to_value(&v).unwrap()
    );
    assert_eq!(m.spectator_view_json().unwrap()["side"], "spectator");
    assert_eq!(m.spectator_view_hash().unwrap(), v.hash());
    for side in Side::BOTH {
        assert_ne!(m.spectator_view_hash().unwrap(), m.view_hash(side));
    }
    let last: Vec<fm_core::Event> = fm
        .log()
        .last()
        .unwrap()
        .events
        .iter()
        .map(|e| e.redacted_for(Viewer::Spectator))
        .collect();
    assert_eq!(
        m.spectator_last_events_json(),
        serde_json::to_value(&last).unwrap()
    );
    let log = m.spectator_log_json(0).unwrap();
    assert_eq!(log.as_array().unwrap().len(), m.log_len());
    assert_eq!(
        log,
        serde_json::to_value(fm.spectator_log(0).unwrap()).unwrap()
    );
    let tail = m.spectator_log_json(m.log_len() - 1).unwrap();
    assert_eq!(tail[0]["view_hash"], format!("{:016x}", v.hash()));
    assert_eq!(tail[0]["events"], m.spectator_last_events_json());
    let picture = m.spectator_svg(&json!({})).unwrap();
    assert!(picture.contains("(as seen by a spectator)"));
    for side in Side::BOTH {
        let d = m.determinized(side, rng.next_u64()).unwrap();
        assert_eq!(
            d.spectator_view_hash(),
            m.spectator_view_hash(),
            "drawn for {side}"
        );
        assert_eq!(
            d.spectator_svg(&json!({})).unwrap(),
            picture,
            "drawn for {side}"
        );
    }
    let bad = m.spectator_svg(&json!({"hex_size": "big"})).unwrap_err();
    assert!(!input(bad).is_empty());
    // Huzzah!: nothing hidden.
    let mut h = any::new_match("huzzah-encounter", 3).unwrap();
    play(&mut *h, 30, 3);
    assert_eq!(h.spectator_view_json().unwrap(), h.view_json(Side::A));
    assert_eq!(h.spectator_view_hash().unwrap(), h.view_hash(Side::B));
    assert_eq!(h.spectator_last_events_json(), h.last_events_json(None));
    assert_eq!(
        h.spectator_svg(&json!({})).unwrap(),
        h.svg(Some(Side::A), &json!({})).unwrap()
    );
    // The toy race: the defaults.
    let mut r = race();
    play(&mut *r, 5, 1);
    unsupported(
        r.spectator_view_json().unwrap_err(),
        "spectator view",
        "race",
    );
    unsupported(
        r.spectator_view_hash().unwrap_err(),
        "spectator view",
        "race",
    );
    unsupported(
        r.spectator_log_json(0).unwrap_err(),
        "spectator view",
        "race",
    );
    unsupported(
        r.spectator_svg(&json!({})).unwrap_err(),
        "spectator svg",
        "race",
    );
    assert_eq!(r.spectator_last_events_json(), r.last_events_json(None));
}
