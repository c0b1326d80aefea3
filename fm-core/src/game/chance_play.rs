//! Explicit chance mode ([`crate::chance`]) in a match: a command that draws stops at
//! each draw until [`GameMatch::apply_chance`] picks its outcome; a logged command with
//! recorded outcomes replays with them.

use super::matches::PendingChance;
use super::{Game, GameMatch};
use crate::chance::{ChanceMode, ChanceModeChange, ChanceNode};
use crate::error::RuleError;

/// A command waiting for its draws, as a player sees it
/// ([`GameMatch::pending_seen`]).
#[derive(serde::Serialize)]
#[serde(bound = "")]
pub(crate) struct PendingSeen<'a, G: Game> {
    /// The command; `None` for an opening that waits for its draws.
    pub(crate) command: Option<&'a G::Command>,
    /// Each draw so far: a die's face, or `None` where the outcome is not shown.
    pub(crate) drawn: Vec<Option<u32>>,
}

/// A command run with scripted draws: its events, the state after them, and how the
/// script fitted its draws.
type ScriptedRun<G> = (
    Vec<<G as Game>::Event>,
    <G as Game>::State,
    crate::chance::Scripted,
);

/// Outcomes that do not fit a command's draws (a replayed record).
fn misfit(found: crate::chance::Scripted) -> RuleError {
    RuleError::new(
        "chance",
        format!("the recorded outcomes do not fit the command's draws ({found:?})"),
    )
}

impl<G: Game> GameMatch<G> {
    /// How the match resolves draws ([`ChanceMode::Sampled`] unless set).
    pub fn chance_mode(&self) -> ChanceMode {
        self.chance_mode
    }

    /// Sets how the match resolves draws from the next command on (the opening's
    /// draws, made when the match was created, came from its seed unless it was
    /// created in explicit mode: [`GameMatch::new_with_chance`]). A save records the
    /// mode and every outcome chosen.
    ///
    /// # Errors
    /// Rule `"chance"` while a chance outcome is pending.
    pub fn set_chance_mode(&mut self, mode: ChanceMode) -> Result<(), RuleError> {
        if self.pending_chance.is_some() {
            return Err(RuleError::new(
                "chance",
                "a chance outcome is pending: resolve it (apply_chance) or take the command back (undo)",
            ));
        }
        self.set_mode_from_now(mode);
        Ok(())
    }

    /// Where the chance mode changed, in order of `at` (the number of commands before
    /// each): the mode each command of the log was played in, and the mode now. Before
    /// the first change the mode is [`ChanceMode::Sampled`] (for a match made by
    /// [`GameMatch::determinized`], the mode of the match it was drawn from). A change
    /// that gives back the mode in force before it is no change; two between the same
    /// two commands are one. A save records them (`chance_modes`), and a load replays
    /// each command in the mode it was played in.
    pub fn chance_mode_changes(&self) -> &[ChanceModeChange] {
        &self.mode_changes
    }

    /// The mode before any recorded change.
    pub(super) fn base_chance_mode(&self) -> ChanceMode {
        self.determinized
            .as_ref()
            .map_or(ChanceMode::Sampled, |d| d.source.chance_mode)
    }

    /// Sets the mode from the next command on, recording the change (one change per
    /// index, none that changes nothing).
    pub(super) fn set_mode_from_now(&mut self, mode: ChanceMode) {
        self.set_mode_at(self.log.len(), mode);
    }

    /// Sets the mode, recording that it changed before command `at` (not before the
    /// last change).
    pub(super) fn set_mode_at(&mut self, at: usize, mode: ChanceMode) {
        if self.mode_changes.last().is_some_and(|c| c.at == at) {
            self.mode_changes.pop();
        }
        let before = self
            .mode_changes
            .last()
            .map_or_else(|| self.base_chance_mode(), |c| c.mode);
        if before != mode {
            self.mode_changes.push(ChanceModeChange { at, mode });
        }
        self.chance_mode = mode;
    }

    /// The draw a command waits for, in explicit chance mode: its outcomes `0..n`,
    /// each of probability `1/n`.
    ///
    /// ```
    /// use fm_core::{ChanceMode, Match};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// m.set_chance_mode(ChanceMode::Explicit).unwrap();
    /// let mut agent = fm_core::rng_from_seed(2);
    /// // Play until a command stops at a die roll, then choose a six.
    /// while m.chance_node().is_none() {
    ///     let c = m.random_command(&mut agent).unwrap();
    ///     m.apply(&c).unwrap();
    /// }
    /// let node = m.chance_node().unwrap();
    /// assert!(node.outcomes > 1);
    /// let n = m.log().len();
    /// while let Some(node) = m.chance_node() {
    ///     m.apply_chance(node.outcomes - 1).unwrap();
    /// }
    /// assert_eq!(m.log().len(), n + 1);
    /// assert!(m.log().last().unwrap().chance.is_some());
    /// ```
    pub fn chance_node(&self) -> Option<ChanceNode> {
        self.pending_chance.as_ref().map(|p| ChanceNode {
            outcomes: p.next,
            roll: p.roll.clone(),
        })
    }

    /// Resolves the pending draw with `outcome` (in `0..n`, [`GameMatch::chance_node`]).
    /// Returns the command's events once its last draw is resolved, none before.
    ///
    /// # Errors
    /// Rule `"chance"` when no draw is pending; rule `"input"` for an outcome out of
    /// range (nothing changes).
    pub fn apply_chance(&mut self, outcome: u32) -> Result<&[G::Event], RuleError> {
        let Some(p) = &self.pending_chance else {
            return Err(RuleError::new("chance", "no chance outcome is pending"));
        };
        if outcome >= p.next {
            return Err(RuleError::new(
                "input",
                format!("chance outcome {outcome} is not one of 0 to {}", p.next - 1),
            ));
        }
        let p = self.pending_chance.take().expect("checked");
        let mut outcomes = p.outcomes.clone();
        outcomes.push(outcome);
        let Some(command) = &p.command else {
            // The opening of a match created in explicit mode.
            return match self.open_scripted(outcomes) {
                Ok(()) if self.pending_chance.is_some() => Ok(&[]),
                Ok(()) => Ok(&self.opening.events),
                Err(e) => {
                    self.pending_chance = Some(p);
                    Err(e)
                }
            };
        };
        match self.apply_scripted(command, outcomes) {
            Ok(_) => Ok(self.last_events()),
            Err(e) => {
                self.pending_chance = Some(p);
                Err(e)
            }
        }
    }

    /// The outcomes chosen so far for the draws of the pending command (or opening),
    /// in order; `None` when no draw is pending.
    pub fn chance_drawn(&self) -> Option<&[u32]> {
        self.pending_chance.as_ref().map(|p| p.outcomes.as_slice())
    }

    /// The pending command (`None` for a waiting opening) and its draws so far as any
    /// player sees them: a die's face (rolls of `"1d6"` or `"2d6"`, thrown on the
    /// table), `None` for a pick from a list (`"draw"`, which may be of hidden
    /// markers) or a draw the rules did not name. What the information state shows of
    /// a command waiting for its dice ([`GameMatch::information_state`]).
    pub(crate) fn pending_seen(&self) -> Option<PendingSeen<'_, G>> {
        let p = self.pending_chance.as_ref()?;
        let drawn = (0..p.outcomes.len())
            .map(|k| {
                let public = self
                    .roll_at(p.command.as_ref(), &p.outcomes[..k])
                    .is_some_and(|(_, roll)| roll.is_some_and(|r| r.dice != "draw"));
                public.then_some(p.outcomes[k])
            })
            .collect();
        Some(PendingSeen {
            command: p.command.as_ref(),
            drawn,
        })
    }

    /// The number of outcomes and the roll of the draw that comes after `prefix` in
    /// `command` (`None`: the opening), if one does.
    pub(super) fn roll_at(
        &self,
        command: Option<&G::Command>,
        prefix: &[u32],
    ) -> Option<(u32, Option<crate::chance::ChanceRoll>)> {
        let found = match command {
            Some(cmd) => self.run_scripted(cmd, prefix).ok()?.2,
            None => {
                let mut rng = self.rng.clone();
                crate::chance::with_script(prefix, || G::new_game(&self.scenario, &mut rng)).1
            }
        };
        match found {
            crate::chance::Scripted::Needs(n, roll) => Some((n, roll)),
            _ => None,
        }
    }

    fn last_events(&self) -> &[G::Event] {
        if self.pending_chance.is_some() {
            return &[];
        }
        self.log.last().map_or(&[], |l| &l.events)
    }

    /// Draws the opening of a match with no log yet with `outcomes` for its draws:
    /// opens it when they were all it drew (the generator untouched), or leaves it
    /// waiting at its first draw past them.
    pub(super) fn open_scripted(&mut self, outcomes: Vec<u32>) -> Result<(), RuleError> {
        let mut rng = self.rng.clone();
        let ((state, events), found) =
            crate::chance::with_script(&outcomes, || G::new_game(&self.scenario, &mut rng));
        match found {
            crate::chance::Scripted::Needs(n, roll) => {
                self.pending_chance = Some(PendingChance {
                    command: None,
                    outcomes,
                    next: n,
                    roll,
                });
            }
            crate::chance::Scripted::Complete => {
                self.opening = std::sync::Arc::new(super::matches::Opening {
                    events,
                    state: state.clone(),
                    chance: (!outcomes.is_empty()).then_some(outcomes),
                });
                self.state = state;
                self.memo = Default::default();
            }
            other => return Err(misfit(other)),
        }
        Ok(())
    }

    /// Runs `cmd` with its draws taken from `outcomes`: logs it when they were all it
    /// drew, or leaves it pending at the first draw past them.
    pub(super) fn apply_scripted(
        &mut self,
        cmd: &G::Command,
        outcomes: Vec<u32>,
    ) -> Result<&[G::Event], RuleError> {
        let (events, state, found) = self.run_scripted(cmd, &outcomes)?;
        match found {
            crate::chance::Scripted::Needs(n, roll) => {
                self.pending_chance = Some(PendingChance {
                    command: Some(cmd.clone()),
                    outcomes,
                    next: n,
                    roll,
                });
                Ok(&[])
            }
            crate::chance::Scripted::Complete => {
                let chance = (!outcomes.is_empty()).then_some(outcomes);
                let rng = self.rng.clone();
                Ok(self.commit(cmd, events, state, rng, chance))
            }
            _ => Err(misfit(found)),
        }
    }

    /// Replays a logged command with the outcomes recorded for its draws (`None`: a
    /// command played in explicit mode that drew nothing, so recorded none).
    ///
    /// # Errors
    /// The command's [`RuleError`], or rule `"chance"` when the outcomes do not fit its
    /// draws (with `None`: the command draws).
    pub(super) fn apply_recorded(
        &mut self,
        cmd: &G::Command,
        outcomes: Option<&[u32]>,
    ) -> Result<&[G::Event], RuleError> {
        let (events, state, found) = self.run_scripted(cmd, outcomes.unwrap_or(&[]))?;
        if found != crate::chance::Scripted::Complete {
            return Err(match (outcomes, found) {
                (None, crate::chance::Scripted::Needs(n, _)) => RuleError::new(
                    "chance",
                    format!(
                        "played in explicit chance mode, the command draws (a draw of {n} \
                         outcomes) but records no outcomes"
                    ),
                ),
                (_, found) => misfit(found),
            });
        }
        let rng = self.rng.clone();
        Ok(self.commit(cmd, events, state, rng, outcomes.map(<[u32]>::to_vec)))
    }

    /// `cmd` applied with its draws taken from `outcomes` (the generator untouched),
    /// and how the outcomes fitted its draws.
    fn run_scripted(
        &self,
        cmd: &G::Command,
        outcomes: &[u32],
    ) -> Result<ScriptedRun<G>, RuleError> {
        let mut rng = self.rng.clone();
        let (res, found) = crate::chance::with_script(outcomes, || {
            G::apply_with_state(&self.scenario, &self.state, cmd, &mut rng)
        });
        res.map(|(events, state)| (events, state, found))
    }

    pub(super) fn apply_sampled(&mut self, cmd: &G::Command) -> Result<&[G::Event], RuleError> {
        let mut rng = self.rng.clone();
        let (events, state) = G::apply_with_state(&self.scenario, &self.state, cmd, &mut rng)?;
        Ok(self.commit(cmd, events, state, rng, None))
    }
}
