//! The built-in AI in Huzzah! (issue 30): `huzzah::ai::evaluate`, the judgment that
//! `Game::evaluate` gives the search (`fm_core::search`) for Huzzah!, and short searches
//! with it. Strength is measured by `scripts/strength_huzzah.sh`, not here (no timing
//! and no strength assertion): here, what the evaluation prefers (bases, quality,
//! morale, objectives), that it favours neither side for its own sake (a position and
//! its mirror image are worth the same to the side they favour), that it is a finite
//! value in [0, 1] shared by the sides on random positions of both built-in battles,
//! and that a short search (few iterations, fixed seeds) takes a base or an objective
//! when one decision wins it.
//!
//! Tables as in `huzzah_start`: 1200 × 1200 mm, 40 mm bases, side A facing 0 (towards
//! +y) from low y, side B facing 180. The positions are battles that start mid-way (the
//! scenario's `start`, docs/huzzah.md), so each is a position the engine validated.
//! A position's mirror image swaps the sides: side A's unit anchored at `[x, y]` stands
//! where side B's anchored at `[x, 1200 − y]` would.

use fm_core::huzzah::command::{Command, GroupArg};
use fm_core::huzzah::orders::OrderKind;
use fm_core::huzzah::scenario::{self, Scenario};
use fm_core::huzzah::state::State;
use fm_core::huzzah::{ai, engine, legal, Huzzah};
use fm_core::search::SearchConfig;
use fm_core::{rng_from_seed, Game, Side};
use rand_core::RngCore;
use serde_json::{json, Value};

// ------------------------------------------------------------------------- helpers

/// A line of `n` infantry bases of `quality`, anchored at `[x, y]` for side A or at
/// `[x, 1200 − y]` for side B (the mirror image).
fn line_of(id: &str, side: Side, n: usize, quality: &str, [x, y]: [i64; 2]) -> Value {
    let (division, facing, y) = match side {
        Side::A => ("a-div", 0, y),
        Side::B => ("b-div", 180, 1200 - y),
    };
    json!({
        "id": id, "division": division, "bases": vec!["infantry"; n],
        "expected": "regulars_b", "quality": quality, "formation": "line",
        "ranks": [n], "position": [x, y], "facing": facing
    })
}

/// A trained line of four.
fn line(id: &str, side: Side, at: [i64; 2]) -> Value {
    line_of(id, side, 4, "trained", at)
}

/// A side with a CinC and a division officer near its own table edge.
fn army(side: Side, units: Vec<Value>) -> Value {
    let (p, y) = match side {
        Side::A => ("a", 100),
        Side::B => ("b", 1100),
    };
    json!({
        "name": p, "skirmish_factor": 8, "artillery_factor": 8,
        "officers": [
            {"id": format!("{p}-cinc"), "rank": "cinc", "quality": "average", "position": [100, y]},
            {"id": format!("{p}-d1"), "rank": "division", "quality": "average", "position": [200, y]}
        ],
        "divisions": [{"id": format!("{p}-div"), "officer": format!("{p}-d1")}],
        "units": units
    })
}

/// Both armies' tests of this turn passed, as a start after phase 2 must say.
fn tested() -> Value {
    let t = json!({"skirmish_passed": true, "artillery_passed": true});
    json!({"a": t, "b": t})
}

/// A battle of `turns` turns that starts with `start` (side A Player 1); `objective`:
/// a 2-point objective of radius 50 mm at the table's centre, and the stand-in victory
/// with a point a base (else the side that lost fewer bases wins).
fn battle(a: Vec<Value>, b: Vec<Value>, turns: u16, objective: bool, start: Value) -> Scenario {
    let v = battle_json(a, b, turns, objective, start);
    scenario::validate(scenario::from_json_value(v).expect("parses")).expect("valid")
}

/// [`battle`]'s scenario JSON (without the `"system"` that names Huzzah!).
fn battle_json(a: Vec<Value>, b: Vec<Value>, turns: u16, objective: bool, start: Value) -> Value {
    let mut v = json!({
        "id": "ai-test", "name": "test", "provenance": "stand-in: a test table",
        "table": {"width_mm": 1200, "depth_mm": 1200}, "base_mm": 40, "turns": turns,
        "battle": "encounter", "setup": "placed", "first": "a",
        "sides": {"a": army(Side::A, a), "b": army(Side::B, b)},
        "start": start
    });
    if objective {
        v["objectives"] = json!([{"id": "centre", "at": [600, 600], "radius_mm": 50, "points": 2}]);
        v["victory"] =
            json!({"provenance": "stand-in: a test", "objective_points": true, "base_points": 1});
    }
    v
}

/// The start of side A's Firing phase in the first of three turns (nobody in range:
/// play goes on to side A's Orders), with these unit entries.
fn early(units: Value) -> Value {
    json!({"turn": 1, "phase": {"phase": "firing", "side": "a"}, "armies": tested(), "units": units})
}

/// The mirror image of a `start`'s unit entries: each unit of one side named as the
/// other side's unit of the same number.
fn mirrored(units: &Value) -> Value {
    let mut v = units.clone();
    for e in v.as_array_mut().expect("entries") {
        let id = e["unit"].as_str().expect("a unit id");
        let other = match id.as_bytes()[0] {
            b'a' => format!("b{}", &id[1..]),
            _ => format!("a{}", &id[1..]),
        };
        e["unit"] = json!(other);
    }
    v
}

/// Two lines a side, 40 cm apart, the objective between them: `a1` and `b1` at x = 300,
/// `a2` and `b2` at x = 900. `moved`: units standing elsewhere (by id; side A's
/// position, mirrored for side B's).
fn armies(moved: &[(&str, [i64; 2])]) -> (Vec<Value>, Vec<Value>) {
    let at = |id: &str, default: [i64; 2]| {
        moved
            .iter()
            .find(|(m, _)| *m == id)
            .map_or(default, |(_, p)| *p)
    };
    let a = vec![
        line("a1", Side::A, at("a1", [300, 400])),
        line("a2", Side::A, at("a2", [900, 400])),
    ];
    let b = vec![
        line("b1", Side::B, at("b1", [300, 400])),
        line("b2", Side::B, at("b2", [900, 400])),
    ];
    (a, b)
}

/// The position where play begins: the first decision after the start.
fn opening(sc: &Scenario) -> State {
    engine::new_game(sc, &mut rng_from_seed(1)).0
}

/// Side `side`'s value of the symmetric battle with these units moved and these
/// `start` unit entries.
fn value(side: Side, moved: &[(&str, [i64; 2])], units: Value) -> f64 {
    value_from(early(units), side, moved)
}

/// Side `side`'s value of the symmetric battle with these units moved, from `start`.
fn value_from(start: Value, side: Side, moved: &[(&str, [i64; 2])]) -> f64 {
    let (a, b) = armies(moved);
    let sc = battle(a, b, 3, true, start);
    let s = opening(&sc);
    let v = ai::evaluate(&sc, &s, side);
    // The search reaches it through the Game trait.
    assert_eq!(v.to_bits(), Huzzah::evaluate(&sc, &s, side).to_bits());
    v
}

/// Side A's value with `units` (entries naming side B's units) and side B's with their
/// mirror image: equal, since the evaluation favours neither side for its own sake.
fn for_a_and_mirrored(moved: &[(&'static str, [i64; 2])], units: Value) -> f64 {
    let for_a = value(Side::A, moved, units.clone());
    let for_b = value(Side::B, &mirror_moves(moved), mirrored(&units));
    assert!(
        (for_a - for_b).abs() < 1e-12,
        "side A {for_a}, side B in the mirror image {for_b}: {units}"
    );
    for_a
}

/// The mirror image of `armies`' moves: each unit's move given to the other side's
/// unit of the same number.
fn mirror_moves(moved: &[(&'static str, [i64; 2])]) -> Vec<(&'static str, [i64; 2])> {
    moved
        .iter()
        .map(|(id, p)| {
            let other = match *id {
                "a1" => "b1",
                "a2" => "b2",
                "b1" => "a1",
                "b2" => "a2",
                _ => panic!("no such unit {id}"),
            };
            (other, *p)
        })
        .collect()
}

/// States of random battles of a built-in scenario, every `step`th, `n` of them.
fn random_positions(name: &str, n: usize, step: usize) -> (Scenario, Vec<State>) {
    let sc = Scenario::builtin(name).expect("a built-in battle");
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let mut rng = rng_from_seed(seed);
        let (mut s, _) = engine::new_game(&sc, &mut rng);
        let mut k = 0usize;
        loop {
            if k % step == 0 && out.len() < n {
                out.push(s.clone());
            }
            if s.is_over() {
                break;
            }
            let cmds = legal::legal_commands(&sc, &s);
            let c = &cmds[(rng.next_u32() as usize) % cmds.len()];
            s = engine::apply_with_state(&sc, &s, c, &mut rng)
                .expect("a legal command")
                .1;
            k += 1;
        }
        seed += 1;
    }
    (sc, out)
}

/// A short search: few iterations and priors, so that debug builds stay fast.
fn quick(seed: u64) -> SearchConfig {
    SearchConfig {
        iterations: 60,
        seed,
        max_priors: 40,
        ..SearchConfig::default()
    }
}

/// Plays a battle to its end with the search deciding for both sides (the dice from
/// `seed`); returns the commands side `side` gave, and the final state.
fn searched_battle(sc: &Scenario, seed: u64, side: Side) -> (Vec<Command>, State) {
    let mut rng = rng_from_seed(seed);
    let (mut s, _) = engine::new_game(sc, &mut rng);
    let mut given = Vec::new();
    for k in 0.. {
        if s.is_over() {
            break;
        }
        assert!(k < 100, "the battle does not end");
        let r = fm_core::search::best_command::<Huzzah>(sc, &s, &quick(k), &mut || false)
            .expect("a decision");
        if r.side == side {
            given.push(r.command.clone());
        }
        s = engine::apply_with_state(sc, &s, &r.command, &mut rng)
            .expect("the search chooses legal commands")
            .1;
    }
    (given, s)
}

// ------------------------------------------------------------ bounds and symmetry

#[test]
fn the_evaluation_is_finite_in_bounds_and_shared_by_the_sides_on_200_random_positions() {
    for name in Huzzah::builtin_names() {
        let (sc, states) = random_positions(name, 200, 3);
        assert_eq!(states.len(), 200);
        for s in &states {
            let (a, b) = (ai::evaluate(&sc, s, Side::A), ai::evaluate(&sc, s, Side::B));
            assert!(a.is_finite() && (0.0..=1.0).contains(&a), "{name}: {a}");
            assert!((a + b - 1.0).abs() < 1e-12, "{name}: {a} + {b}");
            let t = ai::terms(&sc, s);
            for x in [t.outlook, t.material, t.presence.unwrap_or(0.0)] {
                assert!(x.is_finite() && (-1.0..=1.0).contains(&x), "{name}: {t:?}");
            }
            assert_eq!(t.presence.is_some(), !sc.objectives().is_empty(), "{name}");
            if let Some(o) = &s.outcome {
                let want = match o.winner {
                    Some(Side::A) => 1.0,
                    Some(Side::B) => 0.0,
                    None => 0.5,
                };
                assert_eq!(a, want, "{name}: a finished battle is worth its outcome");
            }
        }
    }
}

#[test]
fn a_position_that_is_its_own_mirror_image_is_worth_a_half() {
    assert_eq!(value(Side::A, &[], json!([])), 0.5);
    assert_eq!(value(Side::B, &[], json!([])), 0.5);
    // Both sides on the objective (neither holds it), both a base down, both disordered.
    let both = [("a1", [600, 560]), ("b1", [600, 560])];
    let units = json!([
        {"unit": "a2", "status": "disordered", "lost": [3], "ranks": [3]},
        {"unit": "b2", "status": "disordered", "lost": [3], "ranks": [3]}
    ]);
    let a = value(Side::A, &both, units.clone());
    assert!((a - 0.5).abs() < 1e-12, "{a}");
    assert!((value(Side::B, &both, units) - 0.5).abs() < 1e-12);
}

// ------------------------------------------------- what the evaluation prefers

#[test]
fn each_enemy_base_lost_is_worth_more_and_the_mirror_image_the_same() {
    let even = for_a_and_mirrored(&[], json!([]));
    let one = for_a_and_mirrored(&[], json!([{"unit": "b1", "lost": [3], "ranks": [3]}]));
    let two = for_a_and_mirrored(&[], json!([{"unit": "b1", "lost": [2, 3], "ranks": [2]}]));
    let spread = for_a_and_mirrored(
        &[],
        json!([
            {"unit": "b1", "lost": [3], "ranks": [3]},
            {"unit": "b2", "lost": [3], "ranks": [3]}
        ]),
    );
    assert!(even < one && one < two, "{even} {one} {two}");
    assert!(one < spread, "{one} {spread}");
    // A base lost on each side cancels out.
    let traded = value(
        Side::A,
        &[],
        json!([
            {"unit": "a1", "lost": [3], "ranks": [3]},
            {"unit": "b1", "lost": [3], "ranks": [3]}
        ]),
    );
    assert!((traded - 0.5).abs() < 1e-12, "{traded}");
}

#[test]
fn odd_hits_count_towards_the_next_base() {
    // Page 12: odd hits stay on a unit until the end of the Rally phase, so a start
    // after side A's Firing phase may have them (side A's Orders phase here).
    let after_fire = |units: Value| {
        let start = json!({"turn": 1, "phase": {"phase": "orders", "side": "a"},
                           "armies": tested(), "units": units});
        let mut mirror_start = start.clone();
        mirror_start["units"] = mirrored(&start["units"]);
        let for_a = value_from(start, Side::A, &[]);
        let for_b = value_from(mirror_start, Side::B, &[]);
        assert!((for_a - for_b).abs() < 1e-12, "{for_a} {for_b}");
        for_a
    };
    let even = after_fire(json!([]));
    let hit = after_fire(json!([{"unit": "b1", "hits": 2}]));
    let base = after_fire(json!([{"unit": "b1", "lost": [3], "ranks": [3], "lost_this_turn": 1}]));
    assert!(even < hit && hit < base, "{even} {hit} {base}");
}

#[test]
fn a_base_of_a_better_unit_is_worth_more() {
    // Pages 13 and 21: a Veteran's Morale Factor is 10, a Raw unit's 6.
    let with = |lost: &str| {
        let a = vec![
            line("a1", Side::A, [300, 400]),
            line("a2", Side::A, [900, 400]),
        ];
        let b = vec![
            line_of("b1", Side::B, 4, "veteran", [300, 400]),
            line_of("b2", Side::B, 4, "raw", [900, 400]),
        ];
        let units = json!([{"unit": lost, "lost": [3], "ranks": [3]}]);
        let sc = battle(a, b, 3, true, early(units));
        ai::evaluate(&sc, &opening(&sc), Side::A)
    };
    assert!(with("b1") > with("b2"), "{} {}", with("b1"), with("b2"));
}

#[test]
fn disorder_rout_and_the_rout_table_are_each_worth_less_to_their_side() {
    let even = for_a_and_mirrored(&[], json!([]));
    let status = |st: &str| for_a_and_mirrored(&[], json!([{"unit": "b1", "status": st}]));
    let (disordered, routing) = (status("disordered"), status("routing"));
    let fled = for_a_and_mirrored(&[], json!([{"unit": "b1", "at": "rout_table"}]));
    let destroyed = for_a_and_mirrored(&[], json!([{"unit": "b1", "at": "destroyed"}]));
    assert!(
        even < disordered && disordered < routing && routing < fled,
        "{even} {disordered} {routing} {fled}"
    );
    // Page 15: a unit on the Rout Table counts as lost (the stand-in victory, R-HZ-vic),
    // as a destroyed one does.
    assert!((fled - destroyed).abs() < 1e-12, "{fled} {destroyed}");
}

#[test]
fn holding_an_objective_is_worth_more_than_nearing_or_contesting_it() {
    let even = for_a_and_mirrored(&[], json!([]));
    // a1's front 50 mm short of the objective's radius, then holding it (a base within
    // 50 mm of the centre).
    let near = for_a_and_mirrored(&[("a1", [600, 500])], json!([]));
    let on = for_a_and_mirrored(&[("a1", [600, 560])], json!([]));
    assert!(even < near && near < on, "{even} {near} {on}");
    // b1 contests it: neither side holds it.
    let contested = value(
        Side::A,
        &[("a1", [600, 560]), ("b1", [600, 560])],
        json!([]),
    );
    assert!(contested < on, "{contested} {on}");
    // A routing unit holds nothing (R-HZ-vic).
    let routing = for_a_and_mirrored(
        &[("a1", [600, 560])],
        json!([{"unit": "a1", "status": "routing"}]),
    );
    assert!(routing < even, "{routing} {even}");
}

#[test]
fn near_the_end_the_victory_terms_outweigh_the_rest() {
    // The last turn's last phase: holding the 2-point objective beats the enemy's
    // one base more, as the victory terms say (2 points to 1); in the first turn the
    // same position is judged on more than the points.
    let units = json!([{"unit": "a2", "lost": [3], "ranks": [3]}]);
    let at = |turn: u16, side: &str, phase: &str| {
        let (a, b) = armies(&[("a1", [600, 560])]);
        let start = json!({"turn": turn, "phase": {"phase": phase, "side": side},
                           "armies": tested(), "units": units.clone()});
        let sc = battle(a, b, 3, true, start);
        let s = opening(&sc);
        assert!(!s.is_over());
        ai::evaluate(&sc, &s, Side::A)
    };
    let last = at(3, "b", "move_officers");
    assert!(last > 0.5, "{last}");
    let first = at(1, "a", "firing");
    assert!(last > first, "{first} {last}");
}

// ---------------------------------------------------------------- short searches

#[test]
fn a_short_search_takes_the_objective_that_wins_the_battle() {
    // The last turn, side B's Orders phase (Player 2, so nothing moves after it): b1
    // stands 110 mm short of the objective's radius, a full advance (20 cm) ahead; side
    // A is far away. Advancing wins 2 points to 0; anything else is a draw.
    let a = vec![line("a1", Side::A, [600, 100])];
    let b = vec![line("b1", Side::B, [600, 440])];
    let start = json!({"turn": 1, "phase": {"phase": "orders", "side": "b"}, "armies": tested()});
    let sc = battle(a, b, 1, true, start);
    let s = opening(&sc);
    assert!(!engine::holds(
        &sc,
        &s,
        Side::B,
        sc.objectives()[0].at,
        sc.objectives()[0].radius
    ));
    let first = fm_core::search::best_command::<Huzzah>(&sc, &s, &quick(1), &mut || false)
        .expect("side B's orders");
    assert_eq!(first.side, Side::B);
    match &first.command {
        Command::Order {
            group,
            order: OrderKind::Advance,
            ..
        } => assert!(
            matches!(group, GroupArg::Unit(u) if u == "b1")
                || matches!(group, GroupArg::Division(d) if d == "b-div"),
            "{group:?}"
        ),
        c => panic!("side B does not order b1 forward: {c:?}"),
    }
    let (given, end) = searched_battle(&sc, 5, Side::B);
    let o = end.outcome.as_ref().expect("the battle ends");
    assert_eq!(
        o.winner,
        Some(Side::B),
        "{}: side B gave {given:?}",
        o.reason
    );
    assert!(given
        .iter()
        .any(|c| matches!(c, Command::Advance { unit, .. } if unit == "b1")));
}

/// The last turn, side B's Combat phase: a1 and b1 in contact since the turn began.
/// The built-in "decide" rules leave the melee's outcome to the phasing player
/// (docs/huzzah.md, "The missing rules"): side B winning with 3 hits takes one of a1's
/// bases, which wins the battle (fewer bases lost).
fn melee_battle() -> Value {
    let a = vec![line("a1", Side::A, [600, 500])];
    let b = vec![line("b1", Side::B, [600, 700])];
    let start = json!({"turn": 1, "phase": {"phase": "combat", "side": "b"}, "armies": tested()});
    battle_json(a, b, 1, false, start)
}

#[test]
fn a_short_search_gives_its_melee_the_outcome_that_takes_a_base() {
    let sc = scenario::validate(scenario::from_json_value(melee_battle()).expect("parses"))
        .expect("valid");
    let s = opening(&sc);
    let r = fm_core::search::best_command::<Huzzah>(&sc, &s, &quick(2), &mut || false)
        .expect("side B's melee");
    assert_eq!(r.side, Side::B);
    match &r.command {
        Command::MeleeResult {
            winner,
            hits_a,
            hits_b,
            ..
        } => assert_eq!((*winner, *hits_a, *hits_b), (Some(Side::B), 3, 0)),
        c => panic!("not a melee outcome: {c:?}"),
    }
    let (_, end) = searched_battle(&sc, 7, Side::B);
    assert_eq!(end.outcome.as_ref().and_then(|o| o.winner), Some(Side::B));
}

#[test]
fn think_through_the_json_layer_scores_huzzah_with_its_evaluation() {
    // Every binding's search (C `fm_match_best_command`, serve's `think`, Python's
    // `Match.think`) is `DynMatch::think`, the search over `Game::evaluate`: each
    // candidate's prior is `huzzah::ai::evaluate` of the position it leads to (the
    // default evaluation would give them all ½ before the battle's end).
    let mut v = melee_battle();
    v["system"] = json!("huzzah");
    let m = fm_core::any::new_match(&v.to_string(), 3).expect("a Huzzah! match");
    let cfg = SearchConfig {
        iterations: 30,
        seed: 4,
        ..SearchConfig::default()
    };
    let r = m.think(&cfg, &mut || false, 16).expect("side B's melee");
    assert_eq!(r["side"], json!("b"), "{r}");
    assert_eq!(r["command"]["type"], json!("melee_result"), "{r}");
    let sc = scenario::validate(scenario::from_json_value(melee_battle()).expect("parses"))
        .expect("valid");
    let s = opening(&sc);
    let mut priors = Vec::new();
    for c in r["candidates"].as_array().expect("candidates") {
        let i = c["index"].as_u64().expect("an index") as usize;
        let cmd = Huzzah::index_to_command(&sc, &s, i).expect("a legal index");
        let next = engine::apply_with_state(&sc, &s, &cmd, &mut rng_from_seed(9))
            .expect("legal")
            .1;
        let want = ai::evaluate(&sc, &next, Side::B);
        assert_eq!(c["prior"].as_f64(), Some(want), "{cmd:?}");
        priors.push(want);
    }
    assert!(priors.iter().any(|p| (p - 0.5).abs() > 0.01), "{priors:?}");
}
