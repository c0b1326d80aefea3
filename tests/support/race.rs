//! A toy second rules system, to prove the match layer is generic (issue 14): a race to
//! 10 with a die. On his turn a player rolls as often as he likes, adding each roll to
//! his turn's total; a 1 loses the total and ends the turn; holding banks it. The first
//! to reach the target wins. It is created through the same C function, Python class
//! and serve request as Fire & Movement, and passes the same conformance suite.
#![allow(dead_code)]

use fm_core::{Game, RuleError, ScenarioError, Side, SidePair};
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Race;

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceScenario {
    pub id: String,
    pub target: u32,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, Hash)]
pub struct RaceState {
    pub scores: SidePair<u32>,
    pub total: u32,
    pub active: Side,
    pub winner: Option<Side>,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RaceCommand {
    Roll,
    Hold,
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RaceEvent {
    Rolled { side: Side, die: u8 },
    Held { side: Side, score: u32 },
    Won { side: Side },
}

#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RacePending {
    Turn { side: Side },
    GameOver { winner: Side },
}

fn fnv(s: &RaceState) -> u64 {
    serde_json::to_vec(s)
        .unwrap()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
        })
}

impl Game for Race {
    const NAME: &'static str = "race";
    type Scenario = RaceScenario;
    type ScenarioData = RaceScenario;
    type State = RaceState;
    type Command = RaceCommand;
    type Event = RaceEvent;
    type Pending = RacePending;
    type View = RaceState;

    fn builtin_names() -> Vec<&'static str> {
        vec!["race-to-10"]
    }
    fn builtin(name: &str) -> Result<RaceScenario, ScenarioError> {
        match name {
            "race-to-10" => Ok(RaceScenario {
                id: name.into(),
                target: 10,
            }),
            _ => Err(ScenarioError {
                path: String::new(),
                message: format!("unknown scenario '{name}'"),
            }),
        }
    }
    fn scenario_data_from_value(v: serde_json::Value) -> Result<RaceScenario, ScenarioError> {
        serde_json::from_value(v).map_err(|e| ScenarioError {
            path: String::new(),
            message: e.to_string(),
        })
    }
    fn scenario(data: RaceScenario) -> Result<RaceScenario, ScenarioError> {
        match data.target {
            1..=1000 => Ok(data),
            t => Err(ScenarioError {
                path: "target".into(),
                message: format!("{t}: 1 to 1000"),
            }),
        }
    }
    fn scenario_data(sc: &RaceScenario) -> &RaceScenario {
        sc
    }
    fn initial(_: &RaceScenario) -> RaceState {
        RaceState {
            scores: SidePair::new(0, 0),
            total: 0,
            active: Side::A,
            winner: None,
        }
    }
    fn new_game(sc: &RaceScenario, _: &mut dyn RngCore) -> (RaceState, Vec<RaceEvent>) {
        (Self::initial(sc), Vec::new())
    }
    fn apply(
        sc: &RaceScenario,
        s: &RaceState,
        c: &RaceCommand,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<RaceEvent>, RuleError> {
        let side = s.active;
        if s.winner.is_some() {
            return Err(RuleError::new("over", "the race is over"));
        }
        Ok(match c {
            RaceCommand::Hold if s.total == 0 => {
                return Err(RuleError::new("hold", "nothing to hold yet: roll"))
            }
            RaceCommand::Hold => {
                let score = s.scores.get(side) + s.total;
                let mut v = vec![RaceEvent::Held { side, score }];
                if score >= sc.target {
                    v.push(RaceEvent::Won { side });
                }
                v
            }
            RaceCommand::Roll => vec![RaceEvent::Rolled {
                side,
                die: (rng.next_u32() % 6) as u8 + 1,
            }],
        })
    }
    fn fold(_: &RaceScenario, s: &mut RaceState, events: &[RaceEvent]) {
        for e in events {
            match e {
                RaceEvent::Rolled { die: 1, side } => {
                    s.total = 0;
                    s.active = side.other();
                }
                RaceEvent::Rolled { die, .. } => s.total += *die as u32,
                RaceEvent::Held { side, score } => {
                    *s.scores.get_mut(*side) = *score;
                    s.total = 0;
                    s.active = side.other();
                }
                RaceEvent::Won { side } => s.winner = Some(*side),
            }
        }
    }
    fn pending(s: &RaceState) -> RacePending {
        match s.winner {
            Some(w) => RacePending::GameOver { winner: w },
            None => RacePending::Turn { side: s.active },
        }
    }
    fn decider(p: &RacePending) -> Option<Side> {
        match p {
            RacePending::Turn { side } => Some(*side),
            RacePending::GameOver { .. } => None,
        }
    }
    fn outcome(s: &RaceState) -> Option<(Option<Side>, String)> {
        s.winner
            .map(|w| (Some(w), format!("side {w} reached the target")))
    }
    type Memo = ();
    fn legal_commands(_: &RaceScenario, s: &RaceState) -> Vec<RaceCommand> {
        match (s.winner, s.total) {
            (Some(_), _) => vec![],
            (None, 0) => vec![RaceCommand::Roll],
            (None, _) => vec![RaceCommand::Roll, RaceCommand::Hold],
        }
    }
    fn view(_: &RaceScenario, s: &RaceState, _: Side) -> RaceState {
        s.clone()
    }
    fn view_hash(v: &RaceState) -> u64 {
        fnv(v)
    }
    fn redacted(e: &RaceEvent, _: Side) -> RaceEvent {
        e.clone()
    }
    fn state_hash(s: &RaceState) -> u64 {
        fnv(s)
    }
    fn action_space_size(_: &RaceScenario) -> usize {
        2
    }
    fn command_to_index(_: &RaceScenario, _: &RaceState, c: &RaceCommand) -> Option<usize> {
        Some(match c {
            RaceCommand::Roll => 0,
            RaceCommand::Hold => 1,
        })
    }
    fn index_to_command(_: &RaceScenario, _: &RaceState, i: usize) -> Option<RaceCommand> {
        [RaceCommand::Roll, RaceCommand::Hold].get(i).cloned()
    }
}

/// Registers the race with the match layer (idempotent).
pub fn register() {
    let _ = fm_core::any::register(fm_core::any::SystemEntry::of::<Race>());
}
