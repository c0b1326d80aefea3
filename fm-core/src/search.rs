//! The built-in AI: information-set Monte Carlo tree search (single-observer ISMCTS,
//! after Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
//! 2012), over any rules system ([`Game`]).
//!
//! Each iteration draws a *determinization*: a full state consistent with what the
//! searching side knows ([`Game::determinize`], Fire & Movement's
//! [`crate::sample_consistent`] of the side's view), so the search never reads what
//! the side may not know. It then walks one tree of command sequences (children keyed
//! by the stable action index, so the same command is the same child in every
//! determinization) choosing by UCB1 among the children legal in this determinization
//! (each counts how often it was available, the ISMCTS correction), draws every die
//! roll from the search's own generator (chance by sampling: each iteration sees other
//! dice), adds one node, plays up to [`SearchConfig::rollout`] random commands, and
//! scores the position with [`Game::evaluate`] (a finished game by its outcome).
//!
//! Branching is wide (hundreds of moves in a movement phase), so a node orders its
//! children by a one-command look-ahead (each child's position evaluated once, from the
//! first determinization that reached the node: a *prior*) and opens them one at a
//! time, best first, as its visits grow (progressive widening: about
//! `widening · √visits` children).
//!
//! The search reads no clock: it runs [`SearchConfig::iterations`] iterations unless
//! the caller's `stop` callback says to stop sooner (the bindings' time budgets). With
//! a given seed and no early stop its result is exactly reproducible.

use crate::game::Game;
use crate::ids::Side;
use rand_core::RngCore;

/// How hard and how the search looks.
#[derive(Clone, Copy, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Iterations (each adds one node), at most; 1 to [`SearchConfig::MAX_ITERATIONS`].
    pub iterations: u32,
    /// The seed of the search's own generator (determinizations, dice, rollouts).
    pub seed: u64,
    /// The UCB1 exploration constant (values are in [0, 1]); 0 to 10.
    pub exploration: f64,
    /// Random commands played after the new node before it is evaluated; at most
    /// [`SearchConfig::MAX_ROLLOUT`].
    pub rollout: u32,
    /// Progressive widening: a node with `n` visits considers its best
    /// `1 + widening · √n` children by prior; 0.1 to 100.
    pub widening: f64,
    /// At most this many children of a node get a prior (the rest are opened after
    /// them, in a random order); 1 to 1,000,000.
    pub max_priors: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            iterations: 200,
            seed: 0,
            exploration: 0.4,
            rollout: 0,
            widening: 2.0,
            max_priors: 400,
        }
    }
}

impl SearchConfig {
    /// The most iterations one search may run.
    pub const MAX_ITERATIONS: u32 = 10_000_000;
    /// The longest rollout.
    pub const MAX_ROLLOUT: u32 = 100_000;

    /// Reads a config from JSON text: an object of any of its fields (the others keep
    /// their defaults), strictly (unknown or repeated keys refused), then validated.
    ///
    /// # Errors
    /// [`SearchError::Json`] for text that is not such an object,
    /// [`SearchError::Config`] for a value out of range.
    ///
    /// ```
    /// use fm_core::search::SearchConfig;
    /// let c = SearchConfig::from_json(r#"{"iterations": 500, "seed": 3}"#).unwrap();
    /// assert_eq!((c.iterations, c.seed, c.rollout), (500, 3, 0));
    /// assert!(SearchConfig::from_json(r#"{"iteration": 5}"#).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<SearchConfig, SearchError> {
        let v = crate::json::parse_strict(text).map_err(|e| SearchError::Json(e.to_string()))?;
        if !v.is_object() {
            return Err(SearchError::Json(
                "expected an object of search settings".into(),
            ));
        }
        let c: SearchConfig =
            serde_json::from_value(v).map_err(|e| SearchError::Json(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// Checks every field's range.
    ///
    /// # Errors
    /// [`SearchError::Config`] naming the field and its value.
    pub fn validate(&self) -> Result<(), SearchError> {
        let bad = |field: &'static str, value: String, range: &'static str| {
            Err(SearchError::Config {
                field,
                value,
                range,
            })
        };
        if !(1..=Self::MAX_ITERATIONS).contains(&self.iterations) {
            return bad("iterations", self.iterations.to_string(), "1 to 10000000");
        }
        if !(self.exploration.is_finite() && (0.0..=10.0).contains(&self.exploration)) {
            return bad("exploration", self.exploration.to_string(), "0 to 10");
        }
        if self.rollout > Self::MAX_ROLLOUT {
            return bad("rollout", self.rollout.to_string(), "0 to 100000");
        }
        if !(self.widening.is_finite() && (0.1..=100.0).contains(&self.widening)) {
            return bad("widening", self.widening.to_string(), "0.1 to 100");
        }
        if !(1..=1_000_000).contains(&self.max_priors) {
            return bad("max_priors", self.max_priors.to_string(), "1 to 1000000");
        }
        Ok(())
    }
}

/// Why a search could not run.
#[derive(Clone, PartialEq, Debug, thiserror::Error)]
pub enum SearchError {
    /// A configuration value out of range.
    #[error("search config: {field} = {value} is out of range ({range})")]
    Config {
        /// The field.
        field: &'static str,
        /// Its value.
        value: String,
        /// The allowed range.
        range: &'static str,
    },
    /// Config JSON that is not an object of the config's fields.
    #[error("search config JSON: {0}")]
    Json(String),
    /// The game is over (or no side has a decision).
    #[error("no decision to search: the game is over")]
    NoDecision,
    /// A chance outcome is pending (explicit chance mode): it is not a side's decision.
    #[error("a chance outcome is pending: resolve it with apply_chance first")]
    ChancePending,
}

/// One root child: a candidate command and what the search found about it.
#[derive(Clone, PartialEq, Debug, serde::Serialize)]
pub struct Candidate {
    /// Its action index ([`Game::command_to_index`]).
    pub index: usize,
    /// Iterations through it.
    pub visits: u32,
    /// Its mean value for the searching side, in [0, 1] (`None` if never visited).
    pub value: Option<f64>,
    /// Its one-command look-ahead value (the prior), if it got one.
    pub prior: Option<f64>,
}

/// What a search chose.
#[derive(Clone, PartialEq, Debug, serde::Serialize)]
#[serde(bound = "")]
pub struct SearchResult<G: Game> {
    /// The chosen command (the most visited root child; a single legal command is
    /// chosen without search).
    pub command: G::Command,
    /// Its action index.
    pub index: usize,
    /// The side that decides.
    pub side: Side,
    /// Iterations run.
    pub iterations: u32,
    /// The root's mean value for `side`, in [0, 1].
    pub value: f64,
    /// The root's children, most visited first.
    pub candidates: Vec<Candidate>,
}

const NONE: u32 = u32::MAX;

struct Edge {
    action: usize,
    child: u32,
    visits: u32,
    /// How often it was legal when its node was visited (ISMCTS availability).
    available: u32,
    /// Sum of the values for side A of the iterations through it.
    value_a: f64,
    prior: Option<f64>,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
    /// Edges are in prior order (best first for the side deciding there).
    ordered: bool,
    visits: u32,
}

/// Searches the decision of `state` (its decider's) and returns the command chosen.
///
/// `stop` is asked before each iteration after the first; `true` ends the search (a
/// time budget: the caller reads the clock, fm-core does not).
///
/// # Errors
/// A config value out of range; [`SearchError::NoDecision`] when the game is over.
///
/// ```
/// use fm_core::search::{best_command, SearchConfig};
/// use fm_core::{Fm, Match};
/// let m = Match::new_builtin("system-demo", 1).unwrap();
/// let cfg = SearchConfig { iterations: 50, seed: 7, ..SearchConfig::default() };
/// let r = best_command::<Fm>(m.scenario(), m.state(), &cfg, &mut || false).unwrap();
/// assert!(m.legal_commands().contains(&r.command));
/// ```
pub fn best_command<G: Game>(
    sc: &G::Scenario,
    state: &G::State,
    cfg: &SearchConfig,
    stop: &mut dyn FnMut() -> bool,
) -> Result<SearchResult<G>, SearchError> {
    cfg.validate()?;
    let me = match (G::outcome(state), G::decider(&G::pending(state))) {
        (None, Some(side)) => side,
        _ => return Err(SearchError::NoDecision),
    };
    let mut rng = crate::rng::rng_from_seed(cfg.seed);
    let mut memo = G::Memo::default();
    // The root's legal commands depend only on what `me` knows: list them from a
    // determinization, never from the true state.
    let first = G::determinize(sc, state, me, &mut rng);
    let root_legal = G::legal_indices_memo(sc, &first, &mut memo);
    if root_legal.is_empty() {
        return Err(SearchError::NoDecision);
    }
    if root_legal.len() == 1 {
        let index = root_legal[0];
        let command = G::index_to_command_memo(sc, &first, &mut memo, index)
            .ok_or(SearchError::NoDecision)?;
        return Ok(SearchResult {
            command,
            index,
            side: me,
            iterations: 0,
            value: G::evaluate(sc, &first, me),
            candidates: vec![Candidate {
                index,
                visits: 0,
                value: None,
                prior: None,
            }],
        });
    }
    let mut tree = Tree::<G> {
        sc,
        cfg,
        nodes: vec![Node::default()],
        memo,
        legal: Vec::new(),
        _g: std::marker::PhantomData,
    };
    let mut iterations = 0u32;
    // The chosen index is turned into a command in the first determinization (every
    // determinization lists the same root commands): keep it rather than draw another.
    let root_state = first.clone();
    let mut det = Some(first);
    while iterations < cfg.iterations {
        if iterations > 0 && stop() {
            break;
        }
        let s = match det.take() {
            Some(s) => s,
            None => G::determinize(sc, state, me, &mut rng),
        };
        tree.iterate(s, &mut rng);
        iterations += 1;
    }
    let root = &tree.nodes[0];
    let mut candidates: Vec<Candidate> = root
        .edges
        .iter()
        .map(|e| Candidate {
            index: e.action,
            visits: e.visits,
            value: (e.visits > 0).then(|| for_side(e.value_a / f64::from(e.visits), me)),
            prior: e.prior,
        })
        .collect();
    // Most visited first; ties by value, then by prior, then by index (deterministic).
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.value.unwrap_or(-1.0).total_cmp(&a.value.unwrap_or(-1.0)))
            .then(b.prior.unwrap_or(-1.0).total_cmp(&a.prior.unwrap_or(-1.0)))
            .then(a.index.cmp(&b.index))
    });
    let best = candidates
        .iter()
        .find(|c| root_legal.binary_search(&c.index).is_ok())
        .ok_or(SearchError::NoDecision)?;
    let index = best.index;
    let command = G::index_to_command_memo(sc, &root_state, &mut tree.memo, index)
        .ok_or(SearchError::NoDecision)?;
    let visits: u32 = root.edges.iter().map(|e| e.visits).sum();
    let value_a: f64 = root.edges.iter().map(|e| e.value_a).sum();
    Ok(SearchResult {
        command,
        index,
        side: me,
        iterations,
        value: if visits > 0 {
            for_side(value_a / f64::from(visits), me)
        } else {
            0.5
        },
        candidates,
    })
}

fn for_side(value_a: f64, side: Side) -> f64 {
    match side {
        Side::A => value_a,
        Side::B => 1.0 - value_a,
    }
}

struct Tree<'a, G: Game> {
    sc: &'a G::Scenario,
    cfg: &'a SearchConfig,
    nodes: Vec<Node>,
    memo: G::Memo,
    legal: Vec<usize>,
    _g: std::marker::PhantomData<G>,
}

impl<G: Game> Tree<'_, G> {
    /// One iteration from determinization `s`.
    fn iterate(&mut self, mut s: G::State, rng: &mut dyn RngCore) {
        let mut path: Vec<(u32, u32)> = Vec::new();
        let mut node = 0u32;
        let value_a = loop {
            let Some(side) = self.decider(&s) else {
                break G::evaluate(self.sc, &s, Side::A);
            };
            self.legal = G::legal_indices_memo(self.sc, &s, &mut self.memo);
            if self.legal.is_empty() {
                break G::evaluate(self.sc, &s, Side::A);
            }
            if !self.nodes[node as usize].ordered {
                self.order(node, &s, side, rng);
            }
            let Some(e) = self.select(node, side) else {
                break G::evaluate(self.sc, &s, Side::A);
            };
            let edge = &self.nodes[node as usize].edges[e as usize];
            let (action, fresh) = (edge.action, edge.child == NONE);
            match self.step(&s, action, rng) {
                Some(next) => s = next,
                None => break G::evaluate(self.sc, &s, Side::A),
            }
            path.push((node, e));
            if fresh {
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::default());
                self.nodes[node as usize].edges[e as usize].child = child;
                break self.rollout(s, rng);
            }
            node = self.nodes[node as usize].edges[e as usize].child;
        };
        for (n, e) in path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            let e = &mut n.edges[e as usize];
            e.visits += 1;
            e.value_a += value_a;
        }
    }

    fn decider(&self, s: &G::State) -> Option<Side> {
        if G::outcome(s).is_some() {
            return None;
        }
        G::decider(&G::pending(s))
    }

    fn step(&mut self, s: &G::State, action: usize, rng: &mut dyn RngCore) -> Option<G::State> {
        let cmd = G::index_to_command_memo(self.sc, s, &mut self.memo, action)?;
        G::apply_with_state(self.sc, s, &cmd, rng)
            .ok()
            .map(|(_, next)| next)
    }

    /// Gives the node its edges, ordered by prior for `side` (the first `max_priors`
    /// legal commands in a random order get one; the rest follow, in a random order).
    fn order(&mut self, node: u32, s: &G::State, side: Side, rng: &mut dyn RngCore) {
        let mut actions = std::mem::take(&mut self.legal);
        shuffle(&mut actions, rng);
        let limit = self.cfg.max_priors as usize;
        let mut edges: Vec<Edge> = Vec::with_capacity(actions.len());
        for (k, &action) in actions.iter().enumerate() {
            let prior = if k < limit && actions.len() > 1 {
                self.step(s, action, rng)
                    .map(|next| G::evaluate(self.sc, &next, side))
            } else {
                None
            };
            edges.push(Edge {
                action,
                child: NONE,
                visits: 0,
                available: 0,
                value_a: 0.0,
                prior,
            });
        }
        // A stable sort keeps the random order among equal priors.
        edges.sort_by(|a, b| b.prior.unwrap_or(-1.0).total_cmp(&a.prior.unwrap_or(-1.0)));
        actions.sort_unstable();
        self.legal = actions;
        let n = &mut self.nodes[node as usize];
        n.edges = edges;
        n.ordered = true;
    }

    /// The edge to follow: among the node's first `1 + widening·√visits` edges legal
    /// here, the first never tried, else the best by UCB1 with availability counts.
    fn select(&mut self, node: u32, side: Side) -> Option<u32> {
        let n = &mut self.nodes[node as usize];
        // Commands this determinization allows that the node has not met yet go last.
        let known = n.edges.len();
        if known < self.legal.len()
            || n.edges
                .iter()
                .any(|e| self.legal.binary_search(&e.action).is_err())
        {
            let mut have: Vec<usize> = n.edges.iter().map(|e| e.action).collect();
            have.sort_unstable();
            for &a in &self.legal {
                if have.binary_search(&a).is_err() {
                    n.edges.push(Edge {
                        action: a,
                        child: NONE,
                        visits: 0,
                        available: 0,
                        value_a: 0.0,
                        prior: None,
                    });
                }
            }
        }
        let width = 1 + (self.cfg.widening * f64::from(n.visits).sqrt()) as usize;
        let mut best: Option<(u32, f64)> = None;
        let mut opened = 0usize;
        for (k, e) in n.edges.iter_mut().enumerate() {
            if opened >= width {
                break;
            }
            if self.legal.binary_search(&e.action).is_err() {
                continue;
            }
            opened += 1;
            e.available += 1;
            if e.visits == 0 {
                // The best untried child in prior order: take it now.
                if best.map_or(true, |(_, score)| score < f64::INFINITY) {
                    best = Some((k as u32, f64::INFINITY));
                }
                continue;
            }
            let mean = for_side(e.value_a / f64::from(e.visits), side);
            let score = mean
                + self.cfg.exploration
                    * (f64::from(e.available.max(1)).ln() / f64::from(e.visits)).sqrt();
            if best.map_or(true, |(_, b)| score > b) {
                best = Some((k as u32, score));
            }
        }
        best.map(|(k, _)| k)
    }

    /// Plays up to `rollout` random commands from `s`, then scores it for side A.
    fn rollout(&mut self, mut s: G::State, rng: &mut dyn RngCore) -> f64 {
        for _ in 0..self.cfg.rollout {
            if self.decider(&s).is_none() {
                break;
            }
            let Some(cmd) = G::random_command_memo(self.sc, &s, &mut self.memo, rng) else {
                break;
            };
            match G::apply_with_state(self.sc, &s, &cmd, rng) {
                Ok((_, next)) => s = next,
                Err(_) => break,
            }
        }
        G::evaluate(self.sc, &s, Side::A)
    }
}

fn shuffle(v: &mut [usize], rng: &mut dyn RngCore) {
    for i in (1..v.len()).rev() {
        let j = crate::chance::uniform(rng, i + 1);
        v.swap(i, j);
    }
}
