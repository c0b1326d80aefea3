//! Chance made explicit. Every die roll and random draw of every rules system is one
//! call of [`roll_index`]: a uniform choice among `n` outcomes. Normally it draws from
//! the generator passed to `apply` (by rejection, so every platform agrees). A match in
//! explicit chance mode ([`crate::GameMatch::set_chance_mode`]) instead runs the
//! command with a script of outcomes chosen so far: where the script runs out, the
//! command stops counting and the match reports a chance node with the number of
//! outcomes of the next draw, each of probability `1/n`; a chance command picks one
//! and the command runs again with the longer script. `apply` stays a pure function
//! of the state, the command and its dice: the engine never knows which mode it is in.
//!
//! The script is installed for one `apply` on the calling thread ([`with_script`]) and
//! removed when it returns (or unwinds).
//!
//! Each node names its roll ([`ChanceRoll`]): before its draws, the rules say what they
//! are for ([`roll_for`]). The label is built only when a script is installed, so a
//! sampled match (the default) pays one thread-local check per roll and nothing more.
//!
//! How an outcome maps to the dice: outcome `k` of a die (`"1d6"`, or either die of a
//! `"2d6"`) is the face `k + 1`; a 2D6 roll is two draws, die 1 then die 2
//! ([`ChanceRoll::die`]); a draw of one of `n` things (`"draw"`) picks the `k`-th in
//! the order the label's `from` lists (what is left, in the listed order).

use rand_core::RngCore;
use std::cell::RefCell;

/// A chance node: the next draw has `outcomes` equally likely outcomes `0..outcomes`,
/// and is a draw of the roll `roll` names.
///
/// ```
/// use fm_core::{ChanceMode, ChanceNode, Command, Match};
/// let mut m = Match::new_builtin("system-demo", 1).unwrap();
/// m.set_chance_mode(ChanceMode::Explicit);
/// assert_eq!(m.chance_node(), None);
/// let _ = ChanceNode { outcomes: 6, roll: None }.probability();
/// ```
#[derive(Clone, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChanceNode {
    /// How many outcomes the draw has (each as likely).
    pub outcomes: u32,
    /// What the draw is for; absent only for a draw the rules did not name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<ChanceRoll>,
}

impl ChanceNode {
    /// The probability of each outcome.
    pub fn probability(&self) -> f64 {
        1.0 / f64::from(self.outcomes.max(1))
    }
}

/// What a draw is for (JSON: `{"roll": "fire", "dice": "2d6", "die": 1, "unit": "fr-1",
/// "target": "br-2"}`): the roll's name, its dice, which of its draws this is, and
/// what it concerns (units and officers by id, sides as `"a"`/`"b"`, hexes as F&M
/// writes them).
///
/// Outcome `k` of a die is the face `k + 1`; a `"2d6"` roll is two draws, die 1 then
/// die 2; a `"draw"` picks the `k`-th of the things `from` lists, in that order.
#[derive(Clone, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChanceRoll {
    /// What the roll is for: `"roll_off"`, `"fire"`, `"combat"`, `"marker_draw"`, ...
    pub roll: String,
    /// The dice: `"1d6"`, `"2d6"` or `"draw"` (one of a list of things).
    pub dice: String,
    /// Which draw of the roll this is, from 1 (die 1 or 2 of a `"2d6"`; the n-th die of
    /// a roll of several; the n-th draw of several).
    pub die: u32,
    /// What the roll concerns (`"unit"`, `"target"`, `"side"`, `"officer"`, `"hex"`,
    /// `"from"`, ...).
    #[serde(flatten)]
    pub about: serde_json::Map<String, serde_json::Value>,
}

impl ChanceRoll {
    /// A roll named `roll` of `dice`, concerning nothing yet ([`ChanceRoll::with`]).
    pub fn new(roll: &str, dice: &str) -> ChanceRoll {
        ChanceRoll {
            roll: roll.to_string(),
            dice: dice.to_string(),
            die: 1,
            about: serde_json::Map::new(),
        }
    }

    /// The roll, also concerning `key`: `value` (as JSON).
    pub fn with(mut self, key: &str, value: impl serde::Serialize) -> ChanceRoll {
        let v = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self.about.insert(key.to_string(), v);
        self
    }
}

/// How a match resolves chance.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ChanceMode {
    /// Draws come from the match's seeded generator (the default).
    #[default]
    Sampled,
    /// Each draw is a chance node a chance command resolves.
    Explicit,
}

/// A change of a match's chance mode ([`crate::GameMatch::set_chance_mode`]), as
/// the match and its save record it (`chance_modes`, save format 6 on): the mode from
/// command `at` on (`at` = the number of commands before it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChanceModeChange {
    /// The number of commands before it.
    pub at: usize,
    /// The mode from then on.
    pub mode: ChanceMode,
}

impl ChanceMode {
    /// The mode's name, as saves and the bindings write it: `"sampled"` or `"explicit"`.
    ///
    /// ```
    /// use fm_core::ChanceMode;
    /// assert_eq!(ChanceMode::from_name(ChanceMode::Explicit.name()), Some(ChanceMode::Explicit));
    /// assert_eq!(ChanceMode::from_name("dice"), None);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ChanceMode::Sampled => "sampled",
            ChanceMode::Explicit => "explicit",
        }
    }

    /// The mode of a name ([`ChanceMode::name`]), `None` for any other text.
    pub fn from_name(name: &str) -> Option<ChanceMode> {
        [ChanceMode::Sampled, ChanceMode::Explicit]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

#[derive(Default)]
struct Script {
    given: Vec<u32>,
    used: usize,
    /// The first draw past the script: its number of outcomes and its roll.
    missing: Option<(u32, Option<ChanceRoll>)>,
    /// The roll in progress ([`roll_for`]) and how many of its draws are left.
    label: Option<(ChanceRoll, u32)>,
    /// How many draws came past the script.
    past: u32,
    /// A scripted outcome out of range: (draw index, outcome, outcomes).
    bad: Option<(usize, u32, u32)>,
}

thread_local! {
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

/// What a scripted run of one command found.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Scripted {
    /// Every draw came from the script, which was used up exactly.
    Complete,
    /// The script ran out: the next draw has this many outcomes, for this roll.
    Needs(u32, Option<ChanceRoll>),
    /// The script has more outcomes than the command drew.
    Unused,
    /// Scripted outcome `1` of draw `0` is not below its number of outcomes `2`.
    OutOfRange(usize, u32, u32),
}

/// Runs `f` with every draw on this thread taken from `given` in order.
pub(crate) fn with_script<T>(given: &[u32], f: impl FnOnce() -> T) -> (T, Scripted) {
    struct Remove;
    impl Drop for Remove {
        fn drop(&mut self) {
            SCRIPT.with(|s| s.borrow_mut().take());
        }
    }
    SCRIPT.with(|s| {
        *s.borrow_mut() = Some(Script {
            given: given.to_vec(),
            ..Script::default()
        })
    });
    let guard = Remove;
    let out = f();
    let script = SCRIPT.with(|s| s.borrow_mut().take()).unwrap_or_default();
    drop(guard);
    let found = match (script.bad, script.missing) {
        (Some((k, o, n)), _) => Scripted::OutOfRange(k, o, n),
        (None, Some((n, roll))) => Scripted::Needs(n, roll),
        (None, None) if script.used < script.given.len() => Scripted::Unused,
        (None, None) => Scripted::Complete,
    };
    (out, found)
}

/// Names the roll whose `draws` draws come next: the label `f` builds is what a
/// chance node at any of them reports ([`ChanceNode::roll`], its `die` counting the
/// draws from 1). `f` runs only when a script is installed (explicit chance mode), so
/// a sampled run pays one thread-local check. The label lapses after `draws` draws,
/// so that a draw the rules did not name is reported unnamed, not as a stale roll.
pub(crate) fn roll_for(draws: u32, f: impl FnOnce() -> ChanceRoll) {
    SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        if let Some(sc) = s.as_mut() {
            if sc.missing.is_none() {
                sc.label = Some((f(), draws));
            }
        }
    });
}

/// A uniform index in `0..n` (n ≥ 1): the script's next outcome when one is installed,
/// else from `rng` by rejection (no modulo bias, the same on every platform).
pub(crate) fn roll_index(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u32;
    let scripted = SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        let sc = s.as_mut()?;
        // This draw's roll: the label in progress, at its next die.
        let roll = match sc.label.take() {
            Some((mut r, left)) if left > 0 => {
                let this = r.clone();
                r.die += 1;
                if left > 1 {
                    sc.label = Some((r, left - 1));
                }
                Some(this)
            }
            _ => None,
        };
        let k = sc.used;
        if let Some(&o) = sc.given.get(k) {
            sc.used += 1;
            if o >= n && sc.bad.is_none() {
                sc.bad = Some((k, o, n));
            }
            Some(o.min(n - 1))
        } else {
            // Past the script: the rest of this run is discarded; draw anything, but not
            // always the same, so that a rule that rolls until the dice differ (a tied
            // roll-off) ends.
            sc.missing.get_or_insert((n, roll));
            sc.past += 1;
            Some(sc.past % n)
        }
    });
    match scripted {
        Some(k) => k as usize,
        None => uniform(rng, n as usize),
    }
}

/// A uniform index in `0..n` (n ≥ 1) from `rng`, by rejection (no modulo bias, the same
/// on every platform): the generator's half of [`roll_index`], for draws no script
/// resolves (resampling hidden values).
pub(crate) fn uniform(rng: &mut dyn RngCore, n: usize) -> usize {
    let n = n.max(1) as u32;
    let zone = u32::MAX - (u32::MAX % n);
    loop {
        let x = rng.next_u32();
        if x < zone {
            return (x % n) as usize;
        }
    }
}
