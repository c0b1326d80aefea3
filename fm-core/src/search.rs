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
//!
//! Its memory may be bounded too ([`SearchConfig::max_tree_bytes`]): the tree counts
//! the heap it holds as it grows (a node keeps its commands as bare indices in prior
//! order and statistics only for those it opened), and when its next growth would
//! pass the bound the search stops and answers with what it found
//! ([`Stopped::Memory`]; [`SearchResult::stopped`] says why every search ended).

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
    /// The most memory the search tree may hold, in bytes, or `None` (the default):
    /// no bound. The tree's heap is counted as it grows (its nodes, each node's
    /// commands and the statistics of those it opened, as the allocator holds them,
    /// a vector's old and new buffers both while it grows; [`SearchResult::tree_bytes`]);
    /// when the next growth would pass the bound, the search ends that iteration where
    /// it is and answers with what it found ([`Stopped::Memory`]). The root's commands
    /// are always held, even past the bound: there is no answer without them. At
    /// least [`SearchConfig::MIN_TREE_BYTES`]. The working positions of an iteration,
    /// the memo and the result are not counted (they do not grow with the tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tree_bytes: Option<u64>,
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
            max_tree_bytes: None,
        }
    }
}

impl SearchConfig {
    /// The most iterations one search may run.
    pub const MAX_ITERATIONS: u32 = 10_000_000;
    /// The longest rollout.
    pub const MAX_ROLLOUT: u32 = 100_000;
    /// The smallest [`SearchConfig::max_tree_bytes`]: 64 KiB.
    pub const MIN_TREE_BYTES: u64 = 64 << 10;

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
        if let Some(n) = self.max_tree_bytes {
            if n < Self::MIN_TREE_BYTES {
                return bad("max_tree_bytes", n.to_string(), "65536 or more, or null");
            }
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
    /// Why the search ended.
    pub stopped: Stopped,
    /// The memory the search tree held at the end, in bytes (the estimate
    /// [`SearchConfig::max_tree_bytes`] bounds).
    pub tree_bytes: u64,
    /// The root's mean value for `side`, in [0, 1].
    pub value: f64,
    /// The root's children, most visited first.
    pub candidates: Vec<Candidate>,
}

/// Why a search ended ([`SearchResult::stopped`]; in JSON `"iterations"`, `"time"`,
/// `"memory"` or `"forced"`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Stopped {
    /// It ran all of [`SearchConfig::iterations`].
    Iterations,
    /// The caller's `stop` callback ended it (the bindings' time budgets).
    Time,
    /// The tree reached [`SearchConfig::max_tree_bytes`].
    Memory,
    /// A single legal command, chosen without search.
    Forced,
}

const NONE: u32 = u32::MAX;

/// What the search learned of one of a node's commands, once it was opened.
#[derive(Clone, Copy)]
struct Stat {
    /// The child node, or [`NONE`] until an iteration went through it.
    child: u32,
    visits: u32,
    /// How often it was legal when its node was visited (ISMCTS availability).
    available: u32,
    /// Sum of the values for side A of the iterations through it.
    value_a: f64,
}

const NO_STAT: Stat = Stat {
    child: NONE,
    visits: 0,
    available: 0,
    value_a: 0.0,
};

/// A node. Of its hundreds of commands progressive widening opens a few (about
/// `widening · √visits`), so a node keeps each command's index alone (8 bytes, in
/// prior order) and statistics (24 bytes) only for the first ones, up to the last it
/// opened: a sixth of a full record per command.
#[derive(Default)]
struct Node {
    /// The commands met here (action indices): in prior order (best first for the side
    /// deciding here), then those met later in other determinizations.
    actions: Vec<usize>,
    /// The statistics of the first `stats.len()` commands (the others never opened).
    stats: Vec<Stat>,
    /// Whether `actions` was filled (the node's first visit as an inner node).
    ordered: bool,
    visits: u32,
}

impl Node {
    /// The heap its vectors hold, as [`heap_bytes`] counts it.
    fn heap(&self) -> usize {
        heap_bytes::<usize>(self.actions.capacity()) + heap_bytes::<Stat>(self.stats.capacity())
    }
}

/// The bytes an allocator holds for a buffer of `capacity` values of `T`, a bound from
/// above for the common ones: the size rounded up to 16 bytes with 16 bytes of
/// bookkeeping (glibc's malloc takes 8 and rounds to 16); none for no buffer.
fn heap_bytes<T>(capacity: usize) -> usize {
    match capacity.saturating_mul(std::mem::size_of::<T>()) {
        0 => 0,
        n => n.saturating_add(31) & !15,
    }
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
            stopped: Stopped::Forced,
            tree_bytes: 0,
            value: G::evaluate(sc, &first, me),
            candidates: vec![Candidate {
                index,
                visits: 0,
                value: None,
                prior: None,
            }],
        });
    }
    let nodes = vec![Node::default()];
    let mut tree = Tree::<G> {
        sc,
        cfg,
        bytes: heap_bytes::<Node>(nodes.capacity()),
        nodes,
        priors: Vec::new(),
        budget: cfg
            .max_tree_bytes
            .map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX)),
        full: false,
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
        if tree.full {
            break;
        }
    }
    let stopped = if iterations == cfg.iterations {
        Stopped::Iterations
    } else if tree.full {
        Stopped::Memory
    } else {
        Stopped::Time
    };
    let root = &tree.nodes[0];
    let mut candidates: Vec<Candidate> = root
        .actions
        .iter()
        .enumerate()
        .map(|(k, &index)| {
            let e = root.stats.get(k).unwrap_or(&NO_STAT);
            Candidate {
                index,
                visits: e.visits,
                value: (e.visits > 0).then(|| for_side(e.value_a / f64::from(e.visits), me)),
                prior: tree.priors.get(k).copied().flatten(),
            }
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
    let visits: u32 = root.stats.iter().map(|e| e.visits).sum();
    let value_a: f64 = root.stats.iter().map(|e| e.value_a).sum();
    Ok(SearchResult {
        command,
        index,
        side: me,
        iterations,
        stopped,
        tree_bytes: tree.bytes as u64,
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
    /// The root's priors, one per command of `nodes[0].actions`.
    priors: Vec<Option<f64>>,
    /// The heap the tree holds: `nodes`, their vectors and `priors` ([`heap_bytes`]).
    bytes: usize,
    /// [`SearchConfig::max_tree_bytes`] (`usize::MAX`: none).
    budget: usize,
    /// Whether the tree could not grow within its budget (the search then stops).
    full: bool,
    memo: G::Memo,
    legal: Vec<usize>,
    _g: std::marker::PhantomData<G>,
}

impl<G: Game> Tree<'_, G> {
    /// One iteration from determinization `s`. When the tree cannot grow within its
    /// budget, the iteration ends where it is (scoring the position reached) and
    /// `full` is set.
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
            if !self.nodes[node as usize].ordered && !self.order(node, &s, side, rng) {
                break G::evaluate(self.sc, &s, Side::A);
            }
            let Some(e) = self.select(node, side) else {
                break G::evaluate(self.sc, &s, Side::A);
            };
            let n = &self.nodes[node as usize];
            let (action, fresh) = (n.actions[e as usize], n.stats[e as usize].child == NONE);
            match self.step(&s, action, rng) {
                Some(next) => s = next,
                None => break G::evaluate(self.sc, &s, Side::A),
            }
            path.push((node, e));
            if fresh {
                // Past the budget the new position is still scored, without a node.
                if self.room_for_a_node() {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    self.nodes[node as usize].stats[e as usize].child = child;
                } else {
                    self.full = true;
                }
                break self.rollout(s, rng);
            }
            node = self.nodes[node as usize].stats[e as usize].child;
        };
        for (n, e) in path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            let e = &mut n.stats[e as usize];
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

    /// Whether `more` bytes fit the budget.
    fn fits(&self, more: usize) -> bool {
        self.bytes.saturating_add(more) <= self.budget
    }

    /// Makes room in `nodes` for one more node if it has none: doubles it, or grows it
    /// by what the budget still allows; false if that is nothing. (Like every growth of
    /// the tree's vectors, the new buffer must fit beside the old one: both are held
    /// while it is copied.)
    fn room_for_a_node(&mut self) -> bool {
        let (len, cap) = (self.nodes.len(), self.nodes.capacity());
        if len < cap {
            return true;
        }
        let old = heap_bytes::<Node>(cap);
        let mut more = cap.max(4);
        while more > 0 && !self.fits(heap_bytes::<Node>(cap + more)) {
            more /= 2;
        }
        if more == 0 {
            return false;
        }
        self.nodes.reserve_exact(more);
        self.bytes = self.bytes - old + heap_bytes::<Node>(self.nodes.capacity());
        true
    }

    /// Gives the node its commands, ordered by prior for `side` (the first `max_priors`
    /// legal commands in a random order get one; the rest follow, in a random order).
    /// False, with `full` set, if they do not fit the budget (the root's always do).
    fn order(&mut self, node: u32, s: &G::State, side: Side, rng: &mut dyn RngCore) -> bool {
        let root = node == 0;
        if !root && !self.fits(heap_bytes::<usize>(self.legal.len())) {
            self.full = true;
            return false;
        }
        let mut actions = std::mem::take(&mut self.legal);
        shuffle(&mut actions, rng);
        let limit = self.cfg.max_priors as usize;
        let mut ranked: Vec<(usize, Option<f64>)> = Vec::with_capacity(actions.len());
        for (k, &action) in actions.iter().enumerate() {
            let prior = if k < limit && actions.len() > 1 {
                self.step(s, action, rng)
                    .map(|next| G::evaluate(self.sc, &next, side))
            } else {
                None
            };
            ranked.push((action, prior));
        }
        // A stable sort keeps the random order among equal priors.
        ranked.sort_by(|a, b| b.1.unwrap_or(-1.0).total_cmp(&a.1.unwrap_or(-1.0)));
        actions.sort_unstable();
        self.legal = actions;
        let mut order = Vec::with_capacity(ranked.len());
        order.extend(ranked.iter().map(|r| r.0));
        if root {
            let mut priors = Vec::with_capacity(ranked.len());
            priors.extend(ranked.iter().map(|r| r.1));
            self.bytes += heap_bytes::<Option<f64>>(priors.capacity());
            self.priors = priors;
        }
        let n = &mut self.nodes[node as usize];
        let before = n.heap();
        n.actions = order;
        n.ordered = true;
        self.bytes = self.bytes - before + n.heap();
        true
    }

    /// The command to follow (its position in the node's): among the node's first
    /// `1 + widening·√visits` commands legal here, the first never tried, else the best
    /// by UCB1 with availability counts. `None`, with `full` set, when the commands
    /// met here for the first time or the statistics of one opened for the first time
    /// do not fit the budget.
    fn select(&mut self, node: u32, side: Side) -> Option<u32> {
        let Tree {
            nodes,
            priors,
            legal,
            cfg,
            bytes,
            budget,
            full,
            ..
        } = self;
        let n = &mut nodes[node as usize];
        let mut before = n.heap();
        // Commands this determinization allows that the node has not met yet go last.
        if n.actions.len() < legal.len()
            || n.actions.iter().any(|a| legal.binary_search(a).is_err())
        {
            let mut have = n.actions.clone();
            have.sort_unstable();
            let new: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|a| have.binary_search(a).is_err())
                .collect();
            if !new.is_empty() {
                let len = n.actions.len() + new.len();
                let mut more = heap_bytes::<usize>(len);
                if node == 0 {
                    more += heap_bytes::<Option<f64>>(len);
                }
                if bytes.saturating_add(more) > *budget {
                    *full = true;
                    return None;
                }
                n.actions.reserve_exact(new.len());
                n.actions.extend_from_slice(&new);
                *bytes = *bytes - before + n.heap();
                before = n.heap();
                if node == 0 {
                    let old = heap_bytes::<Option<f64>>(priors.capacity());
                    priors.reserve_exact(new.len());
                    priors.resize(len, None);
                    *bytes = *bytes - old + heap_bytes::<Option<f64>>(priors.capacity());
                }
            }
        }
        let width = 1 + (cfg.widening * f64::from(n.visits).sqrt()) as usize;
        let mut best: Option<(u32, f64)> = None;
        let mut opened = 0usize;
        for (k, a) in n.actions.iter().enumerate() {
            if opened >= width {
                break;
            }
            if legal.binary_search(a).is_err() {
                continue;
            }
            opened += 1;
            if k >= n.stats.len() {
                // Opened for the first time (as are any skipped before it).
                if bytes.saturating_add(heap_bytes::<Stat>(k + 1)) > *budget {
                    *bytes = *bytes - before + n.heap();
                    *full = true;
                    return None;
                }
                n.stats.reserve_exact(k + 1 - n.stats.len());
                n.stats.resize(k + 1, NO_STAT);
            }
            let e = &mut n.stats[k];
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
                + cfg.exploration
                    * (f64::from(e.available.max(1)).ln() / f64::from(e.visits)).sqrt();
            if best.map_or(true, |(_, b)| score > b) {
                best = Some((k as u32, score));
            }
        }
        *bytes = *bytes - before + n.heap();
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
