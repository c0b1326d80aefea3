//! The built-in AI's judgment of a Huzzah! position: the cheap evaluation the tree
//! search ([`crate::search`]) scores its leaves with and orders its candidates by.
//!
//! This is no rule and decides nothing in a battle: it is one player's estimate of how
//! well a side stands, in [0, 1]. A finished battle is worth 1, 0 or ½ by its outcome.
//! Before that, three terms, each in [−1, 1] for side A (side B's value is one less
//! side A's, so the two always sum to 1):
//!
//! - **The outlook**: the battle's victory terms read as if it ended now. The built-in
//!   battles use the engine's stand-in victory ([`crate::huzzah::engine::end_of_battle`],
//!   docs/huzzah.md "Objectives and victory"): the objectives each side holds alone
//!   ([`crate::huzzah::engine::holds`]; page 7: "Scenarios will also have specific
//!   objectives", page 8: objectives "that score points") and the points for each enemy
//!   base lost ([`crate::huzzah::engine::bases_lost`]: destroyed, captured or on the
//!   Rout Table, page 15; bases in the skirmish line "do not count as lost points",
//!   page 22), or, without victory terms, which side lost fewer bases. A routing unit's
//!   bases count up to half lost: a router that does not rally runs to the Rout Table
//!   (pages 14-15). The objectives held count in proportion to the battle's progress
//!   (held in the first turn, an objective says little of who holds it after the
//!   last, while a base lost stays lost). Its weight grows as the last turn nears, and
//!   at the end it is all that counts, so the evaluation agrees with the victory terms
//!   there.
//! - **The material**: the strength each side has lost. A base counts its hits (page
//!   2: infantry and battle cavalry 3, other cavalry and irregular infantry 2, reserve
//!   artillery 4), less the hits it has taken that have not yet removed a base (page
//!   12), scaled by the unit's Morale Factor (pages 13 and 21: Veteran 10 to
//!   Unreliable 5; before its quality is rolled, the mean over its row of the Unit
//!   Quality Table, page 5), and by its order on the field: a disordered unit is
//!   harder to order and fails its tests more often (page 18), a routing one may be
//!   lost (pages 14-15). An officer lost (page 15) counts as a base or two: orders come
//!   from officers (pages 16-18). Fire declared but not yet rolled (page 11) counts a
//!   part of what it is expected to do, and fire rolled but not yet applied its hits,
//!   so that the search sees a declaration's worth before the whole phase is declared.
//!   Half of **the fire each side stands under** ([`fire_threat`]) counts as lost
//!   too: for each unit that may fire, the hits one test at its best target in arc and
//!   range is expected to score (pages 11-12), so that a unit left under the enemy's
//!   guns, out of reach of its own, is seen losing before its bases go.
//! - **The presence**: where the scenario's victory scores objectives, how near each
//!   side's nearest formed or disordered unit stands to each, weighted by its points
//!   (an objective is held from within its radius, so the side that gets there first
//!   and stays scores it), and how much of each side's strength stands near them (the
//!   rest of the army has to come up to take an objective or keep it).
//!
//! - **What is in hand**: an advance or retire order passed and not yet carried out
//!   is worth the better, for the side acting on it, of the table now and the table
//!   with its units moved, those whose advance meets an enemy charging it (pages
//!   19-20, `order_in_hand`); a melee about to be fought where the scenario leaves its
//!   outcome to the players (`"missing_rules": "decide"`, the built-in battles) is
//!   expected to go the way of the player who gives it ([`imminent`]).
//!
//! The pages it draws on: 2 (hits per base), 4-5 (expected and actual quality, the Unit
//! Quality Table), 7-8 (the turn's fifteen phases; scenarios' objectives), 11-13
//! (firing: who may fire, arcs, ranges, Fire Factors and their modifiers, hits and odd
//! hits, fire declared before it is rolled), 13-15 (morale:
//! disorder, routs, the Rout Table, officers lost), 16-20 (officers give the orders;
//! the advance and the retire), 21 (the Morale Factors) and 22 (skirmish bases are not
//! lost points); the victory terms are the scenario's or the stand-in of
//! docs/rulings.md R-HZ-vic, read through [`crate::huzzah::engine::end_of_battle`]'s
//! own [`holds`] and [`bases_lost`], so the two cannot disagree.
//!
//! What it leaves out, on purpose: this turn's puffs of smoke (`fired`,
//! `fired_at_enemy`: page 18's −1 to an order, page 17's battery that fired and cannot
//! move) and the skirmish and artillery tests. They last until the turn ends, and the
//! search plays that turn's orders and fire itself, drawing their dice; a standing
//! penalty would count twice what the search already sees.
//!
//! **It reads nothing a side may not know.** The search calls it on determinizations
//! drawn from the decider's view ([`crate::game::Game::determinize`]), and in Huzzah!
//! that view is the whole table (`Huzzah::view`): pages 1-22 hide nothing from a
//! player. A unit's quality is rolled in the open when first needed (page 4); before
//! that the evaluation uses the mean of the row its expected quality gives, which both
//! players know, never a roll still to come (the state holds none, and the evaluation
//! reads no generator). It is a pure function of the scenario and the state, a few
//! passes over the units and officers; its only geometry beyond a point's distance to
//! a base is the fire threat's arc and range, for pairs of units near enough to be in
//! range.
//!
//! **Where it is used.** [`crate::huzzah::Huzzah`]'s `Game::evaluate` is this function,
//! and [`crate::search::best_command`] scores its leaves and priors with
//! `Game::evaluate`; every binding's search (the C `fm_match_best_command`, serve's
//! `think`, Python's `Match.think` and `fm.agents.mcts`) reaches it through
//! `DynMatch::think`. `tests/huzzah_ai.rs` checks the preferences, the symmetry
//! between the sides and short searches; `scripts/strength_huzzah.sh` measures the
//! AI against the random agent (docs/learning.md, "The built-in AI").

use crate::huzzah::engine::{bases_lost, holds};
use crate::huzzah::geometry::{self, Len, Point};
use crate::huzzah::movement;
use crate::huzzah::orders::OrderKind;
use crate::huzzah::quality::{ExpectedQuality, Quality};
use crate::huzzah::scenario::{Cover, MissingRules, OfficerRank, Scenario, UnitIx};
use crate::huzzah::state::{Pending, Phase, State, Status, TargetStage, Whereabouts};
use crate::ids::Side;

/// How many hits of material one unit of the material term's `tanh` stands for: about
/// three infantry bases.
const MATERIAL_SCALE: f64 = 9.0;
/// How many victory points one unit of the outlook's `tanh` stands for.
const OUTLOOK_SCALE: f64 = 2.0;
/// The hits a declared fire is expected to be worth before it is rolled: a Trained
/// unit's fire (factor 6 on 2D6, page 11) scores 0.56 hits on average, and forces a
/// morale test five times in twelve (page 12).
const DECLARED_FIRE: f64 = 0.8;
/// The share of the fire a side stands under ([`fire_threat`]) that the material term
/// counts as lost already: one Firing phase's worth is not a loss yet (the target may
/// move off, the firer may be ordered away), but a unit left under the enemy's guns
/// without answering them loses bases every turn.
const THREAT_SHARE: f64 = 0.5;
/// The presence's share of the whole at the start (falling to nothing at the end).
const PRESENCE_WEIGHT: f64 = 0.3;
/// The distance over which an objective's pull halves, beyond its radius.
const PRESENCE_HALF: Len = Len::cm(30);
/// How far ahead of a unit's centre the force near the objectives is measured from
/// ([`force_near`]): half an infantry line's stand-in move.
const FACING_LEAD: Len = Len::cm(10);

/// How well `side` stands, in [0, 1]: 1 or 0 once it has won or lost, ½ for a draw.
///
/// ```
/// use fm_core::huzzah::{ai, scenario::Scenario, engine};
/// use fm_core::Side;
/// let sc = Scenario::builtin("huzzah-firefight").unwrap();
/// let (s, _) = engine::new_game(&sc, &mut fm_core::rng_from_seed(1));
/// let a = ai::evaluate(&sc, &s, Side::A);
/// assert!((a + ai::evaluate(&sc, &s, Side::B) - 1.0).abs() < 1e-9);
/// ```
pub fn evaluate(sc: &Scenario, s: &State, side: Side) -> f64 {
    let for_a = match &s.outcome {
        Some(o) => match o.winner {
            Some(Side::A) => 1.0,
            Some(Side::B) => 0.0,
            None => 0.5,
        },
        None => {
            let now = unfinished(sc, s);
            match order_in_hand(sc, s) {
                Some((acting, moved, answered)) => {
                    let then = unfinished_with(sc, &moved, answered);
                    if acting == Side::A {
                        now.max(then)
                    } else {
                        now.min(then)
                    }
                }
                None => now,
            }
        }
    };
    match side {
        Side::A => for_a,
        Side::B => 1.0 - for_a,
    }
}

/// Side A's value of an unfinished battle: its terms weighed at its progress.
fn unfinished(sc: &Scenario, s: &State) -> f64 {
    unfinished_with(sc, s, [0.0; 2])
}

/// [`unfinished`] with `extra` quality-weighted hits lost by each side (index 0 side A).
fn unfinished_with(sc: &Scenario, s: &State, extra: [f64; 2]) -> f64 {
    (0.5 + 0.5 * terms_with(sc, s, extra).combined(progress(sc, s))).clamp(0.0, 1.0)
}

/// An advance or retire order passed and not yet carried out (pages 19-20): the side
/// acting on it, and the table as it would be if every unit still to act moved its
/// whole distance straight ahead (the group's full move) or back (half of it); a unit
/// that would meet an enemy on the way charges it instead (page 20: "An advance move
/// made to contact the enemy is a charge"), ending squared up in contact, so that the
/// melee it brings counts ([`imminent`]). The acting side may move or stay, so the
/// evaluation takes the better of the two for it: an order in hand is worth what it can
/// do, which is what ranks one order above another before its units have moved. Only
/// the charge is planned by the rules (`movement::plan_charge_within`); the rest is a
/// judgment, not a move.
fn order_in_hand(sc: &Scenario, s: &State) -> Option<(Side, State, [f64; 2])> {
    let Pending::Act { side, order, units } = &s.pending else {
        return None;
    };
    let rate = s.orders.active.as_ref()?.rate;
    let forward = match order {
        OrderKind::Advance => rate,
        OrderKind::Retire => Len(-rate.0 / 2),
        OrderKind::Deploy | OrderKind::Manoeuvre => return None,
    };
    let mut moved = s.clone();
    let mut answered = [0.0; 2];
    for u in units.iter().filter_map(|id| sc.unit_ix_of(id)) {
        let st = s.unit(u);
        if st.at != Whereabouts::Table || st.shape.square {
            continue;
        }
        let charge = match order {
            OrderKind::Advance => movement::first_met(sc, s, u, rate)
                .into_iter()
                .find_map(|t| {
                    movement::plan_charge_within(sc, s, u, t, None, rate)
                        .ok()
                        .map(|p| (t, p))
                }),
            _ => None,
        };
        moved.unit_mut(u).shape = match charge {
            Some((target, plan)) => {
                // Page 13: the charged unit may fire at its charger first, at short
                // range, before any melee.
                let hits = fire_at_charger(sc, s, target, &plan.end) * morale(sc, s, u) / 8.0;
                answered[usize::from(*side == Side::B)] += hits;
                plan.end
            }
            None => st.shape.translated(forward, Len::ZERO),
        };
    }
    Some((*side, moved, answered))
}

/// The three terms of an unfinished battle, each in [−1, 1] for side A.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Terms {
    /// The victory terms as if the battle ended now.
    pub outlook: f64,
    /// The strength lost, the enemy's less one's own.
    pub material: f64,
    /// The nearness to the objectives; `None` when the victory terms score none.
    pub presence: Option<f64>,
}

impl Terms {
    /// The terms weighed together at `progress` (0 at the first turn's start, 1 at the
    /// last turn's end): the outlook from 0.3 of the whole to all of it, the presence
    /// (if any) from 0.3 to nothing, the material the rest. At the end the outlook
    /// alone speaks, so the evaluation agrees with the victory terms there.
    pub fn combined(&self, progress: f64) -> f64 {
        let t = progress.clamp(0.0, 1.0);
        let w_outlook = 0.3 + 0.7 * t;
        let (w_presence, presence) = match self.presence {
            Some(p) => (PRESENCE_WEIGHT * (1.0 - t), p),
            None => (0.0, 0.0),
        };
        let w_material = (1.0 - w_outlook - w_presence).max(0.0);
        w_outlook * self.outlook + w_material * self.material + w_presence * presence
    }
}

/// How far the battle has gone, in [0, 1]: the phase's place among the turns' fifteen
/// phases (page 7); 0 during the set-up.
pub fn progress(sc: &Scenario, s: &State) -> f64 {
    if s.phase == Phase::Setup || s.turn == 0 {
        return 0.0;
    }
    let player1 = s.player1.unwrap_or(Side::A);
    let done = f64::from(s.turn - 1) * 15.0 + f64::from(s.phase.number(player1));
    (done / (f64::from(sc.turns().max(1)) * 15.0)).clamp(0.0, 1.0)
}

/// The terms of a battle (finished or not).
pub fn terms(sc: &Scenario, s: &State) -> Terms {
    terms_with(sc, s, [0.0; 2])
}

/// [`terms`] with `extra` quality-weighted hits lost by each side (index 0 side A).
fn terms_with(sc: &Scenario, s: &State, extra: [f64; 2]) -> Terms {
    let t = progress(sc, s);
    let soon = imminent(sc, s);
    let threat = fire_threat(sc, s);
    let lost = [
        material_lost(sc, s, Side::A) + soon[0].hits + THREAT_SHARE * threat[0] + extra[0],
        material_lost(sc, s, Side::B) + soon[1].hits + THREAT_SHARE * threat[1] + extra[1],
    ];
    Terms {
        outlook: ((outlook_points(sc, s, t) + victory_worth(sc, soon[1].bases - soon[0].bases))
            / OUTLOOK_SCALE)
            .tanh(),
        material: ((lost[1] - lost[0]) / MATERIAL_SCALE).tanh(),
        presence: presence(sc, s),
    }
}

/// What `n` bases lost by side B (less side A's) are worth to side A in the victory
/// terms: their base points, or the bases themselves without victory terms.
fn victory_worth(sc: &Scenario, n: f64) -> f64 {
    match sc.victory() {
        Some(v) => f64::from(v.base_points) * n,
        None => n,
    }
}

/// Side A's lead in the victory terms if the battle ended now (in points; without
/// victory terms, in bases lost), a routing unit's bases counted half lost at the start
/// and less as the end nears (`progress`, as [`progress`]): at the end they are not
/// lost, and the lead is exactly the stand-in victory's. The objectives held count in
/// proportion to `progress`: a base lost stays lost, but an objective held in the
/// first turn says little of who will hold it after the last (the stand-in victory
/// scores it then), and counted in full it would send a unit to sit on it under the
/// enemy's guns for the whole battle; the presence term draws the army towards the
/// objectives meanwhile.
pub fn outlook_points(sc: &Scenario, s: &State, progress: f64) -> f64 {
    let progress = progress.clamp(0.0, 1.0);
    let routing_lost = 0.5 * (1.0 - progress);
    let lost = |side: Side| {
        let routing: usize = sc
            .unit_ixs(side)
            .filter(|u| {
                let st = s.unit(*u);
                st.at == Whereabouts::Table && st.status == Status::Routing
            })
            .map(|u| s.unit(u).bases.len())
            .sum();
        bases_lost(sc, s, side) as f64 + routing_lost * routing as f64
    };
    let (lost_a, lost_b) = (lost(Side::A), lost(Side::B));
    let mut held = 0.0;
    if sc.victory().is_some_and(|v| v.objective_points) {
        for o in sc.objectives() {
            let a = holds_now(sc, s, Side::A, o.at, o.radius);
            let b = holds_now(sc, s, Side::B, o.at, o.radius);
            held +=
                f64::from(o.points) * (f64::from(u8::from(a && !b)) - f64::from(u8::from(b && !a)));
        }
    }
    progress * held + victory_worth(sc, lost_b - lost_a)
}

/// [`holds`], the stand-in victory's test, asked only when some unit of the side
/// stands near enough to hold: no point of a unit is farther from its centre than half
/// its width and depth together, so a unit whose centre is farther than that beyond the
/// radius holds nothing (the same answer, without the bases' geometry).
fn holds_now(sc: &Scenario, s: &State, side: Side, at: Point, r: Len) -> bool {
    let near = sc.unit_ixs(side).any(|u| {
        let st = s.unit(u);
        st.at == Whereabouts::Table
            && st.status != Status::Routing
            && geometry::dist(st.shape.centre(), at).0
                <= r.0 + (st.shape.width().0 + st.shape.depth().0) / 2 + 10
    });
    near && holds(sc, s, side, at, r)
}

/// Losses a side is about to take: what the phase in progress has already decided or
/// is expected to, before the state shows it as bases gone.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Imminent {
    /// In quality-weighted hits (the material's measure).
    pub hits: f64,
    /// In bases (the victory terms' measure).
    pub bases: f64,
}

/// Each side's imminent losses (index 0 side A): fire declared and not yet rolled
/// ([`DECLARED_FIRE`] hits a declaration, page 11), fire rolled and not yet applied
/// (its hits), hits applied whose bases are still to be removed (page 12), and the
/// melees of the next Combat phase: where the scenario leaves melee outcomes to the
/// players (`"missing_rules": "decide"`, the built-in battles), the phasing player of
/// that phase gives them, and is expected to give the best the menu offers (a win
/// with three hits) in each engagement of his units; under the stand-in melee, the
/// outcome is not foreseen.
pub fn imminent(sc: &Scenario, s: &State) -> [Imminent; 2] {
    let mut out = [Imminent::default(); 2];
    let ix = |side: Side| usize::from(side == Side::B);
    let mut add = |u: UnitIx, hits: f64| {
        let per_base = base_hits(s, u);
        let o = &mut out[ix(sc.unit(u).side)];
        o.hits += hits * morale(sc, s, u) / 8.0;
        o.bases += hits / per_base;
    };
    if let Phase::Firing { .. } | Phase::FireAtChargers { .. } = s.phase {
        let f = &s.firing;
        if !f.resolving {
            for t in f.declarations.iter().filter_map(|d| d.target) {
                add(t, DECLARED_FIRE);
            }
        } else {
            for t in f.targets.iter().filter(|t| t.stage == TargetStage::Rolled) {
                add(t.unit, f64::from(t.hits));
            }
        }
    }
    if let Some(decider) = next_melee_decider(sc, s) {
        for (a, b) in crate::huzzah::missing::engagements(sc, s) {
            add(if decider == Side::A { b } else { a }, MELEE_HITS);
        }
    }
    for u in (0..s.units.len()).map(|i| UnitIx(i as u16)) {
        let st = s.unit(u);
        if st.at == Whereabouts::Table && st.hits > 0 {
            let per_base = base_hits(s, u);
            out[ix(sc.unit(u).side)].bases += (f64::from(st.hits) / per_base).floor();
        }
    }
    out
}

/// The hits the best outcome of the melee menu gives the winner (`legal`'s slots).
const MELEE_HITS: f64 = 3.0;

/// The hits a base of the unit takes to remove, on average over its bases (page 2).
fn base_hits(s: &State, u: UnitIx) -> f64 {
    let b = &s.unit(u).bases;
    if b.is_empty() {
        return 3.0;
    }
    b.iter().map(|k| f64::from(k.hits())).sum::<f64>() / b.len() as f64
}

/// Who enters the outcomes of the next Combat phase's melees (page 7's sequence: each
/// player's Combat phase follows his Orders), where the scenario leaves them to the
/// players; `None` under the stand-in melee, or when no Combat phase is left.
fn next_melee_decider(sc: &Scenario, s: &State) -> Option<Side> {
    if sc.missing_rules() != MissingRules::Decide || s.phase == Phase::Setup {
        return None;
    }
    let p1 = s.player1?;
    let n = s.phase.number(p1);
    let first = Phase::Combat { side: p1 }.number(p1);
    let second = Phase::Combat { side: p1.other() }.number(p1);
    if n <= first {
        Some(p1)
    } else if n <= second {
        Some(p1.other())
    } else if s.turn < sc.turns() {
        Some(p1)
    } else {
        None
    }
}

/// The Morale Factor a unit fights with (pages 13, 21): its own once rolled, else the
/// mean over its row of the Unit Quality Table (page 5; the Huzzah! re-rolls aside).
fn morale(sc: &Scenario, s: &State, u: UnitIx) -> f64 {
    match s.unit(u).quality {
        Some(q) => f64::from(q.morale_factor()),
        None => expected_morale(sc, crate::huzzah::quality::unit_expected(sc, s, u)),
    }
}

/// The mean Morale Factor of a row of the Unit Quality Table, over 2D6.
fn expected_morale(sc: &Scenario, e: ExpectedQuality) -> f64 {
    let row = sc.quality_table().row(e);
    row.iter()
        .zip(DICE_WAYS)
        .map(|(q, w): (&Quality, f64)| w * f64::from(q.morale_factor()))
        .sum::<f64>()
        / 36.0
}

/// What a unit's order on the field leaves of its strength.
fn order_factor(st: Status) -> f64 {
    match st {
        Status::Formed => 1.0,
        Status::Disordered => 0.8,
        Status::Routing => 0.4,
    }
}

/// An officer's worth, in hits: the CinC two infantry bases, any other one.
fn officer_worth(rank: OfficerRank) -> f64 {
    match rank {
        OfficerRank::Cinc => 6.0,
        OfficerRank::Corps | OfficerRank::Division => 3.0,
    }
}

/// The fire each side stands under (index 0 side A), in quality-weighted hits (the
/// material's measure): for every unit of the other side that may fire (page 11: not
/// cavalry, a charger, a router or in road column), what one fire test at its best
/// target is expected to score (page 12: the margin of a passed test), over the enemy
/// units in its arc and within its weapon's range (page 11), with the modifiers that
/// need no line of sight (page 12: the firer disordered or in square, foul weather,
/// short range, two front-rank bases, a target in cover or in square). Blocking and
/// line of sight are left out: this is a judgment of where the guns point, not a
/// declaration, and the search declares the real fire itself. Units that began the
/// turn in combat with each other are not counted (page 13).
///
/// Why it is in the evaluation: a unit set on an objective within the enemy
/// batteries' 60 cm and out of reach of its own guns loses a base a turn without a
/// shot fired back, which the search alone, a few hundred playouts of a turn of
/// fifteen phases, does not see coming.
pub fn fire_threat(sc: &Scenario, s: &State) -> [f64; 2] {
    let mut out = [0.0; 2];
    let foul = sc.conditions_on(s.turn.max(1)).1.is_foul();
    let mut cover: Vec<Option<Option<Cover>>> = vec![None; s.units.len()];
    for f in (0..s.units.len()).map(|i| UnitIx(i as u16)) {
        if !crate::huzzah::firing::may_fire(sc, s, f) {
            continue;
        }
        let Some(range) = crate::huzzah::firing::weapon_range(sc, s, f) else {
            continue;
        };
        let fs = s.unit(f);
        let side = sc.unit(f).side;
        let base_factor = firer_factor(sc, s, f, foul);
        let from = fs.shape.centre();
        let mut best: f64 = 0.0;
        for t in sc.unit_ixs(side.other()) {
            let ts = s.unit(t);
            if ts.at != Whereabouts::Table || s.began_in_combat(f, t) {
                continue;
            }
            if crate::huzzah::firing::beyond_range(from, &ts.shape, range) {
                continue;
            }
            let Some(r) = geometry::fire_range(&fs.shape, &ts.shape) else {
                continue;
            };
            if r > range || !geometry::in_arc(&fs.shape, &ts.shape) {
                continue;
            }
            let cover =
                *cover[t.0 as usize].get_or_insert_with(|| crate::huzzah::firing::cover(sc, s, t));
            let factor = base_factor
                + f64::from(u8::from(r.0 * 2 < range.0))
                + f64::from(u8::from(ts.shape.square))
                - match cover {
                    Some(Cover::Soft) => 1.0,
                    Some(Cover::Hard) => 2.0,
                    _ => 0.0,
                };
            best = best.max(expected_hits(factor) * morale(sc, s, t) / 8.0);
        }
        out[usize::from(side == Side::A)] += best;
    }
    out
}

/// The hits `target` is expected to score firing at a charger that ends at `end`
/// (page 13: fire at chargers, at short range), with the modifiers of
/// [`fire_threat`]; 0 if it may not fire or the charger is outside its arc.
fn fire_at_charger(sc: &Scenario, s: &State, target: UnitIx, end: &geometry::Shape) -> f64 {
    if !crate::huzzah::firing::may_fire(sc, s, target) {
        return 0.0;
    }
    let ts = s.unit(target);
    if !geometry::in_arc(&ts.shape, end) {
        return 0.0;
    }
    let foul = sc.conditions_on(s.turn.max(1)).1.is_foul();
    // Short range: +1 (page 12).
    expected_hits(firer_factor(sc, s, target, foul) + 1.0)
}

/// A firer's Fire Factor with the page 12 modifiers that depend on it alone: disordered
/// or in square −1, foul weather −1, +1 for every two front-rank bases (all taken to
/// see the target).
fn firer_factor(sc: &Scenario, s: &State, f: UnitIx, foul: bool) -> f64 {
    let fs = s.unit(f);
    fire_factor_expected(sc, s, f)
        - f64::from(u8::from(fs.status == Status::Disordered))
        - f64::from(u8::from(fs.shape.square))
        - f64::from(u8::from(foul))
        + f64::from(fs.shape.ranks.first().copied().unwrap_or(0) / 2)
}

/// The Fire Factor a unit fires with (page 11): its own once its quality is rolled,
/// else the mean over its row of the Unit Quality Table (page 5).
fn fire_factor_expected(sc: &Scenario, s: &State, u: UnitIx) -> f64 {
    let Some(arm) = sc.unit(u).arm.fire_arm() else {
        return 0.0;
    };
    match s.unit(u).quality {
        Some(q) => f64::from(q.fire_factor(arm)),
        None => {
            let e = crate::huzzah::quality::unit_expected(sc, s, u);
            let row = sc.quality_table().row(e);
            row.iter()
                .zip(DICE_WAYS)
                .map(|(q, w): (&Quality, f64)| w * f64::from(q.fire_factor(arm)))
                .sum::<f64>()
                / 36.0
        }
    }
}

/// The ways of each total of 2D6, from 2 to 12.
const DICE_WAYS: [f64; 11] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];

/// The hits one fire test at `factor` is expected to score on 2D6 (page 12: the margin
/// of a passed test), interpolated between whole factors.
fn expected_hits(factor: f64) -> f64 {
    let at = |f: i32| -> f64 {
        DICE_WAYS
            .iter()
            .enumerate()
            .map(|(i, w)| w * f64::from((f - (i as i32 + 2)).max(0)))
            .sum::<f64>()
            / 36.0
    };
    let lo = factor.floor();
    let frac = factor - lo;
    let lo = lo as i32;
    at(lo) * (1.0 - frac) + at(lo + 1) * frac
}

/// The strength `side` has lost, in quality-weighted hits (see the module's doc).
pub fn material_lost(sc: &Scenario, s: &State, side: Side) -> f64 {
    let hits = |bases: &[crate::huzzah::scenario::BaseKind]| -> f64 {
        bases.iter().map(|b| f64::from(b.hits())).sum()
    };
    let mut lost = 0.0;
    for u in sc.unit_ixs(side) {
        let st = s.unit(u);
        if st.at == Whereabouts::Joined {
            // Its bases are its battery's now, and counted there.
            continue;
        }
        let def = sc.unit(u);
        let had = def
            .bases
            .iter()
            .map(|b| f64::from(b.kind.hits()))
            .sum::<f64>()
            + st.joined
                .iter()
                .map(|j| hits(&s.unit(*j).bases))
                .sum::<f64>();
        // Bases in the skirmish line are not lost (page 22): an infantry base's hits.
        let skirmished = f64::from(st.skirmished) * 3.0;
        let kept = match st.at {
            Whereabouts::Table | Whereabouts::Unplaced => {
                (hits(&st.bases) - f64::from(st.hits)).max(0.0) * order_factor(st.status)
            }
            _ => 0.0,
        };
        let q = morale(sc, s, u) / 8.0;
        lost += q * (had - kept - skirmished).max(0.0);
    }
    for (o, def) in sc.officers().iter().enumerate() {
        if def.side == side && s.officers[o].lost {
            lost += officer_worth(def.rank);
        }
    }
    lost
}

/// Side A's lead in nearness to the objectives, in [−1, 1]: half the lead of each
/// side's nearest unit to each objective, weighted by its points, half the lead in the
/// force standing near them ([`force_near`]). `None` when the victory terms score no
/// objectives.
pub fn presence(sc: &Scenario, s: &State) -> Option<f64> {
    let v = sc.victory()?;
    if !v.objective_points || sc.objectives().is_empty() {
        return None;
    }
    let (mut lead, mut total) = (0.0, 0.0);
    for o in sc.objectives() {
        let near = |side: Side| nearness(sc, s, side, o.at, o.radius);
        lead += f64::from(o.points) * (near(Side::A) - near(Side::B));
        total += f64::from(o.points);
    }
    if total <= 0.0 {
        return None;
    }
    let force = [force_near(sc, s, Side::A), force_near(sc, s, Side::B)];
    let share = if force[0] + force[1] > 0.0 {
        (force[0] - force[1]) / (force[0] + force[1])
    } else {
        0.0
    };
    Some(0.5 * lead / total + 0.5 * share)
}

/// The strength a side has near the objectives: each formed or disordered unit on the
/// table counts what the material term says it has left, scaled down with its distance
/// beyond the nearest objective's radius. The nearest unit alone holds an objective,
/// but without this only it would be worth moving: the rest of the army has to come up
/// to take the objective or keep it. The distance is measured from [`FACING_LEAD`]
/// ahead of the unit's centre: units advance straight ahead (page 19), so a unit
/// facing an objective is nearer to it, in moves, than one facing away.
fn force_near(sc: &Scenario, s: &State, side: Side) -> f64 {
    sc.unit_ixs(side)
        .filter_map(|u| {
            let st = s.unit(u);
            if st.at != Whereabouts::Table || st.status == Status::Routing {
                return None;
            }
            let c = geometry::rotate(st.shape.centre(), st.shape.facing, Len::ZERO, FACING_LEAD);
            let beyond = sc
                .objectives()
                .iter()
                .map(|o| (geometry::dist(c, o.at).0 - o.radius.0).max(0))
                .min()?;
            let left = (st.bases.iter().map(|b| f64::from(b.hits())).sum::<f64>()
                - f64::from(st.hits))
            .max(0.0)
                * order_factor(st.status)
                * morale(sc, s, u)
                / 8.0;
            Some(left / (1.0 + beyond as f64 / PRESENCE_HALF.0 as f64))
        })
        .sum()
}

/// 1 for a side with a formed or disordered unit holding the point's radius, falling
/// with its nearest such unit's distance beyond it; 0 with none on the table.
fn nearness(sc: &Scenario, s: &State, side: Side, at: Point, radius: Len) -> f64 {
    let nearest = sc
        .unit_ixs(side)
        .filter(|u| {
            let st = s.unit(*u);
            st.at == Whereabouts::Table && st.status != Status::Routing
        })
        .map(|u| {
            let c = s.unit(u).shape.centre();
            geometry::dist(c, at)
        })
        .min();
    match nearest {
        None => 0.0,
        Some(d) => {
            let beyond = (d.0 - radius.0).max(0) as f64;
            1.0 / (1.0 + beyond / PRESENCE_HALF.0 as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::engine::{apply_with_state, end_of_battle, new_game};
    use crate::huzzah::legal::legal_commands;
    use crate::huzzah::state::Outcome;
    use rand_core::RngCore;

    fn scenario(name: &str) -> Scenario {
        Scenario::builtin(name).expect("a built-in scenario")
    }

    /// The states of a random battle, from its first decision to its end.
    fn random_battle(sc: &Scenario, seed: u64) -> Vec<State> {
        let mut rng = crate::rng::rng_from_seed(seed);
        let (mut s, _) = new_game(sc, &mut rng);
        let mut out = vec![s.clone()];
        while !s.is_over() {
            let legal = legal_commands(sc, &s);
            let c = &legal[(rng.next_u32() as usize) % legal.len()];
            let (_, next) = apply_with_state(sc, &s, c, &mut rng).expect("a legal command");
            s = next;
            out.push(s.clone());
        }
        out
    }

    /// The battle's first turn: the set-up (the officers' placing) played at random.
    fn first_turn(sc: &Scenario, seed: u64) -> State {
        let mut rng = crate::rng::rng_from_seed(seed);
        let (mut s, _) = new_game(sc, &mut rng);
        while s.phase == Phase::Setup {
            let legal = legal_commands(sc, &s);
            let c = &legal[(rng.next_u32() as usize) % legal.len()];
            s = apply_with_state(sc, &s, c, &mut rng)
                .expect("a legal command")
                .1;
        }
        s
    }

    #[test]
    fn the_sides_values_sum_to_one_and_stay_in_bounds() {
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = scenario(name);
            for s in random_battle(&sc, 3).iter().step_by(3) {
                let (a, b) = (evaluate(&sc, s, Side::A), evaluate(&sc, s, Side::B));
                assert!((0.0..=1.0).contains(&a), "{name}: {a}");
                assert!((a + b - 1.0).abs() < 1e-12, "{name}: {a} + {b}");
            }
        }
    }

    #[test]
    fn the_evaluation_is_a_function_of_the_position() {
        // The same position is worth the same, however it was reached or copied, and
        // evaluating it changes nothing (the search calls it on its own copies).
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = scenario(name);
            let (one, two) = (random_battle(&sc, 11), random_battle(&sc, 11));
            assert_eq!(one.len(), two.len());
            for (s, t) in one.iter().zip(&two).step_by(5) {
                let before = s.clone();
                let v = evaluate(&sc, s, Side::A);
                assert_eq!(v.to_bits(), evaluate(&sc, t, Side::A).to_bits(), "{name}");
                assert_eq!(v.to_bits(), evaluate(&sc, &s.clone(), Side::A).to_bits());
                assert_eq!(*s, before, "{name}: evaluating changed the state");
            }
        }
    }

    #[test]
    fn the_opening_is_close_to_even() {
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = scenario(name);
            for s in [
                new_game(&sc, &mut crate::rng::rng_from_seed(1)).0,
                first_turn(&sc, 1),
            ] {
                let a = evaluate(&sc, &s, Side::A);
                assert!((a - 0.5).abs() < 0.05, "{name}: {a}");
            }
        }
    }

    #[test]
    fn a_finished_battle_is_worth_its_outcome() {
        let sc = scenario("huzzah-firefight");
        let (mut s, _) = new_game(&sc, &mut crate::rng::rng_from_seed(1));
        for (winner, a) in [(Some(Side::A), 1.0), (Some(Side::B), 0.0), (None, 0.5)] {
            s.outcome = Some(Outcome {
                winner,
                reason: "test".into(),
            });
            assert_eq!(evaluate(&sc, &s, Side::A), a);
            assert_eq!(evaluate(&sc, &s, Side::B), 1.0 - a);
        }
    }

    /// Removes the last base of `u` as a lost one.
    fn lose_base(s: &mut State, u: UnitIx) {
        let st = s.unit_mut(u);
        st.bases.pop();
        let n = st.bases.len() as u8;
        if let Some(last) = st.shape.ranks.last_mut() {
            *last = last.saturating_sub(1);
        }
        st.shape.ranks.retain(|r| *r > 0);
        if n == 0 {
            st.at = Whereabouts::Destroyed;
        }
    }

    #[test]
    fn each_base_lost_lowers_its_side_s_value() {
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = scenario(name);
            let states = random_battle(&sc, 5);
            // Mid-battle, with units of both sides still on the table.
            let mut s = states[states.len() / 2].clone();
            s.outcome = None;
            for side in [Side::A, Side::B] {
                let mut t = s.clone();
                let mut before = evaluate(&sc, &t, side);
                for u in sc.unit_ixs(side).collect::<Vec<_>>() {
                    while t.unit(u).at == Whereabouts::Table && t.unit(u).bases.len() > 1 {
                        lose_base(&mut t, u);
                        let after = evaluate(&sc, &t, side);
                        assert!(after < before, "{name} {side:?}: {after} >= {before}");
                        assert!(
                            evaluate(&sc, &t, side.other()) > 1.0 - before,
                            "{name}: the other side gains"
                        );
                        before = after;
                    }
                }
            }
        }
    }

    #[test]
    fn a_unit_under_the_enemy_guns_is_worth_less_to_its_side() {
        // An Austrian brigade 40 cm straight ahead of the French foot battery (page 11:
        // 60 cm range, 45 degrees either side) and out of its own infantry's 20 cm: the
        // battery's fire threatens it. With the battery in road column (page 11: it
        // cannot fire) nothing else in the evaluation changes, so the difference is the
        // threat alone.
        let sc = scenario("huzzah-encounter");
        let mut s = first_turn(&sc, 1);
        let by_id = |id: &str| {
            (0..s.units.len())
                .map(|i| UnitIx(i as u16))
                .find(|u| sc.unit(*u).id.to_string() == id)
                .expect("a unit of the encounter")
        };
        let (battery, brigade) = (by_id("fr-battery"), by_id("au-2"));
        let c = s.unit(battery).shape.centre();
        let ranks = s.unit(brigade).shape.ranks.clone();
        s.unit_mut(brigade).shape = geometry::Shape::new(
            Point::new(c.x, Len(c.y.0 + 400)),
            geometry::Facing(180),
            ranks,
            sc.base(),
        );
        let threat = fire_threat(&sc, &s);
        assert!(threat[1] > 0.0, "{threat:?}");
        let mut silenced = s.clone();
        silenced.unit_mut(battery).column = true;
        let quiet = fire_threat(&sc, &silenced);
        assert!(quiet[1] < threat[1], "{quiet:?} {threat:?}");
        assert_eq!(quiet[0], threat[0]);
        assert!(evaluate(&sc, &s, Side::B) < evaluate(&sc, &silenced, Side::B));
        // The battery's expected hits: a Trained-ish battery (factor about 7) with
        // one front base, on a target in the open in foul weather: under one hit.
        assert!(threat[1] - quiet[1] < 1.0, "{threat:?} {quiet:?}");
    }

    #[test]
    fn expected_hits_are_the_mean_margin_of_2d6() {
        // Page 12: hits are the margin of a passed test. Factor 6: (4·1 + 3·2 + 2·3 +
        // 1·4) / 36; factor 2 or less never scores.
        assert!((expected_hits(6.0) - 20.0 / 36.0).abs() < 1e-12);
        assert!((expected_hits(7.0) - 35.0 / 36.0).abs() < 1e-12);
        assert_eq!(expected_hits(2.0), 0.0);
        assert!((expected_hits(6.5) - 27.5 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn disorder_rout_and_lost_officers_count_against_a_side() {
        let sc = scenario("huzzah-firefight");
        let s = first_turn(&sc, 1);
        let u = sc.unit_ixs(Side::B).next().expect("a British unit");
        let base = evaluate(&sc, &s, Side::A);
        let mut t = s.clone();
        t.unit_mut(u).status = Status::Disordered;
        let disordered = evaluate(&sc, &t, Side::A);
        t.unit_mut(u).status = Status::Routing;
        let routing = evaluate(&sc, &t, Side::A);
        assert!(base < disordered && disordered < routing);
        let mut t = s.clone();
        let o = sc.cinc(Side::B).0 as usize;
        t.officers[o].lost = true;
        assert!(evaluate(&sc, &t, Side::A) > base);
    }

    #[test]
    fn the_quick_holding_test_answers_as_the_victory_s() {
        let sc = scenario("huzzah-encounter");
        for seed in 0..2 {
            for s in &random_battle(&sc, seed) {
                for o in sc.objectives() {
                    for side in [Side::A, Side::B] {
                        assert_eq!(
                            holds_now(&sc, s, side, o.at, o.radius),
                            holds(&sc, s, side, o.at, o.radius)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_melee_is_expected_to_go_the_way_of_whoever_gives_its_outcome() {
        // The built-in battles leave melee outcomes to the phasing player.
        let sc = scenario("huzzah-firefight");
        let s = first_turn(&sc, 1);
        assert_eq!(s.player1, Some(Side::A));
        let (fr, br) = (
            sc.unit_index("fr-1").expect("fr-1"),
            sc.unit_index("br-1").expect("br-1"),
        );
        let mut touching = s.clone();
        let front = touching.unit(fr).shape.anchor;
        let shape = touching.unit(br).shape.with_anchor(front);
        touching.unit_mut(br).shape = shape;
        assert!(geometry::in_contact(
            &touching.unit(fr).shape,
            &touching.unit(br).shape
        ));
        let apart = evaluate(&sc, &s, Side::A);
        // Side A's Firing phase: side A's Combat phase comes first.
        assert!(evaluate(&sc, &touching, Side::A) > apart);
        // Side A's Rally phase: side B's Combat phase comes next.
        let (mut later, mut later_touching) = (s.clone(), touching);
        later.phase = Phase::Rally { side: Side::A };
        later_touching.phase = Phase::Rally { side: Side::A };
        assert!(evaluate(&sc, &later_touching, Side::A) < evaluate(&sc, &later, Side::A));
    }

    #[test]
    fn holding_an_objective_is_worth_more_than_nearing_it() {
        let sc = scenario("huzzah-encounter");
        let states = random_battle(&sc, 7);
        // The first state of the first turn: every unit placed.
        let s = states
            .iter()
            .find(|s| s.turn == 1 && s.phase != Phase::Setup)
            .expect("a first turn")
            .clone();
        let o = &sc.objectives()[0];
        let u = sc.unit_ixs(Side::A).next().expect("a French unit");
        let moved = |to: Point| {
            let mut t = s.clone();
            let shape = t.unit(u).shape.clone();
            let c = shape.centre();
            let d = Point::new(
                Len(to.x.0 - c.x.0 + shape.anchor.x.0),
                Len(to.y.0 - c.y.0 + shape.anchor.y.0),
            );
            t.unit_mut(u).shape = shape.with_anchor(d);
            evaluate(&sc, &t, Side::A)
        };
        let far = evaluate(&sc, &s, Side::A);
        let near = moved(Point::new(
            o.at.x,
            Len(o.at.y.0 - o.radius.0 - Len::cm(20).0),
        ));
        let on = moved(o.at);
        assert!(far < near && near < on, "{far} {near} {on}");
    }

    #[test]
    fn the_army_coming_up_counts_not_only_the_nearest_unit() {
        let sc = scenario("huzzah-encounter");
        let s = first_turn(&sc, 7);
        let beyond = |t: &State, u: UnitIx| {
            let c = t.unit(u).shape.centre();
            sc.objectives()
                .iter()
                .map(|o| geometry::dist(c, o.at).0 - o.radius.0)
                .min()
                .expect("objectives")
        };
        for side in [Side::A, Side::B] {
            // The unit farthest from the objectives: never the nearest to one.
            let u = sc
                .unit_ixs(side)
                .filter(|u| s.unit(*u).at == Whereabouts::Table)
                .max_by_key(|u| beyond(&s, *u))
                .expect("a unit on the table");
            let mut t = s.clone();
            // A quarter of the way to the nearest objective, facing unchanged.
            let o = sc
                .objectives()
                .iter()
                .min_by_key(|o| geometry::dist(s.unit(u).shape.centre(), o.at))
                .expect("an objective");
            let (c, shape) = (s.unit(u).shape.centre(), s.unit(u).shape.clone());
            let step = |a: Len, b: Len| Len((b.0 - a.0) / 4);
            let anchor = Point::new(
                Len(shape.anchor.x.0 + step(c.x, o.at.x).0),
                Len(shape.anchor.y.0 + step(c.y, o.at.y).0),
            );
            t.unit_mut(u).shape = shape.with_anchor(anchor);
            assert!(beyond(&t, u) < beyond(&s, u));
            assert_eq!(terms(&sc, &t).outlook, terms(&sc, &s).outlook);
            assert!(
                evaluate(&sc, &t, side) > evaluate(&sc, &s, side),
                "{side:?}: bringing {} up",
                sc.unit(u).id
            );
        }
    }

    #[test]
    fn a_unit_facing_the_objectives_is_nearer_to_them() {
        // Units advance straight ahead (page 19): facing the objectives is half a move
        // nearer to them than facing away.
        let sc = scenario("huzzah-encounter");
        let s = first_turn(&sc, 7);
        for side in [Side::A, Side::B] {
            let u = sc.unit_ixs(side).next().expect("a unit");
            let mut away = s.clone();
            let turned = away.unit(u).shape.turned_about();
            away.unit_mut(u).shape = turned;
            let toward = |t: &State| {
                let sh = &t.unit(u).shape;
                let (c, o) = (sh.centre(), sc.objectives()[0].at);
                let ahead = geometry::rotate(c, sh.facing, Len::ZERO, Len::cm(10));
                geometry::dist(ahead, o) < geometry::dist(c, o)
            };
            // The built-in armies start facing the enemy, and so the objectives.
            assert!(toward(&s) && !toward(&away));
            assert!(evaluate(&sc, &s, side) > evaluate(&sc, &away, side));
        }
    }

    #[test]
    fn at_the_end_the_evaluation_agrees_with_the_victory_terms() {
        for name in ["huzzah-firefight", "huzzah-encounter"] {
            let sc = scenario(name);
            for seed in 0..6 {
                let states = random_battle(&sc, seed);
                let last = states.last().expect("a state");
                let Some(outcome) = end_of_battle(&sc, last, true) else {
                    continue;
                };
                let mut open = last.clone();
                open.outcome = None;
                let a = evaluate(&sc, &open, Side::A);
                match outcome.winner {
                    Some(Side::A) => assert!(a > 0.5, "{name} {seed}: {a}"),
                    Some(Side::B) => assert!(a < 0.5, "{name} {seed}: {a}"),
                    None => assert!((a - 0.5).abs() < 1e-9, "{name} {seed}: {a}"),
                }
            }
        }
    }

    #[test]
    fn an_advance_in_hand_that_meets_the_enemy_is_a_charge_and_counts_its_melee() {
        use crate::huzzah::command::{Command, GroupArg};
        // huzzah-firefight: the lines stand 15 cm apart, within an infantry advance
        // (20 cm), so fr-2's advance meets br-2 (page 20: a charge).
        let sc = scenario("huzzah-firefight");
        let mut s = first_turn(&sc, 1);
        while !matches!(s.pending, Pending::Orders { .. }) {
            let c = legal_commands(&sc, &s)
                .into_iter()
                .find(|c| matches!(c, Command::HoldFire { .. }))
                .expect("the French hold their fire");
            s = apply_with_state(&sc, &s, &c, &mut crate::rng::rng_from_seed(1))
                .expect("legal")
                .1;
        }
        let order = Command::Order {
            officer: "fr-cinc".into(),
            group: GroupArg::Unit("fr-2".into()),
            order: OrderKind::Advance,
        };
        // The first seed whose dice pass the order.
        let acting = (0..50)
            .map(|k| {
                apply_with_state(&sc, &s, &order, &mut crate::rng::rng_from_seed(k))
                    .expect("a legal order")
                    .1
            })
            .find(|t| matches!(t.pending, Pending::Act { .. }))
            .expect("an order that passes");
        let (side, moved, answered) = order_in_hand(&sc, &acting).expect("an advance in hand");
        assert_eq!(side, Side::A);
        let (fr, br) = (
            sc.unit_index("fr-2").expect("fr-2"),
            sc.unit_index("br-2").expect("br-2"),
        );
        assert!(geometry::in_contact(
            &moved.unit(fr).shape,
            &moved.unit(br).shape
        ));
        // Page 13: br-2 faces its charger and fires at it first; only the charging side
        // pays for that fire.
        assert!(answered[0] > 0.0 && answered[1] == 0.0, "{answered:?}");
        assert!(unfinished_with(&sc, &moved, answered) < unfinished(&sc, &moved));
        // A charged unit that may not fire (here routing: "routers cannot fire", page 11) answers with nothing.
        let mut routed = acting.clone();
        routed.unit_mut(br).status = crate::huzzah::state::Status::Routing;
        let (_, _, none) = order_in_hand(&sc, &routed).expect("an advance in hand");
        assert_eq!(none, [0.0; 2]);
        // Side A fights that melee in its own Combat phase, deciding its outcome: the
        // order in hand is worth more than the table as it stands.
        assert!(evaluate(&sc, &acting, Side::A) > unfinished(&sc, &acting));
    }

    #[test]
    fn declared_fire_counts_before_it_is_rolled() {
        use crate::huzzah::command::Command;
        use crate::huzzah::state::Pending;
        let sc = scenario("huzzah-firefight");
        // The first turn opens with side A's fire: three infantry units and a gun.
        let s = first_turn(&sc, 1);
        let Pending::DeclareFire { side, units } = &s.pending else {
            panic!("the battle opens with side A's fire");
        };
        assert!(units.len() > 1);
        let legal = legal_commands(&sc, &s);
        let fire = legal
            .iter()
            .find(|c| matches!(c, Command::Fire { bases: None, .. }))
            .expect("a unit in range");
        let Command::Fire { unit, .. } = fire else {
            unreachable!()
        };
        let hold = Command::HoldFire { unit: unit.clone() };
        let after = |c: &Command| {
            apply_with_state(&sc, &s, c, &mut crate::rng::rng_from_seed(1))
                .expect("a legal command")
                .1
        };
        let (fired, held) = (after(fire), after(&hold));
        assert!(evaluate(&sc, &fired, *side) > evaluate(&sc, &held, *side));
        assert_eq!(evaluate(&sc, &held, *side), evaluate(&sc, &s, *side));
    }
}
