//! Shared helpers for the rule tests: tiny hand-built maps, units, and a scripted
//! random number generator that yields chosen die rolls and marker draws.
#![allow(dead_code)]

pub mod geo;
pub mod suez;
pub mod vimy;

use fm_core::*;

/// A scenario builder over a small all-clear map (odd columns shifted down), using
/// the system-demo terrain chart and CRT. Side A's friendly edge is column 01, side
/// B's the last column.
pub struct Tiny {
    pub data: ScenarioData,
}

impl Tiny {
    /// A `cols` x `rows` clear map, no units, three turns with no support fire.
    pub fn new(cols: u8, rows: u8) -> Tiny {
        let demo = Scenario::builtin("system-demo").unwrap().data;
        let mut hexes = Vec::new();
        for c in 1..=cols {
            for r in 1..=rows {
                hexes.push(HexData {
                    id: Hex::new(c, r),
                    terrain: vec!["clear".into()],
                    name: None,
                });
            }
        }
        let data = ScenarioData {
            id: "tiny".into(),
            name: "tiny test map".into(),
            provenance: "test".into(),
            rules: RuleSet::System,
            sides: demo.sides.clone(),
            map: MapData {
                layout: Layout::OddColumnsDown,
                provenance: "test".into(),
                hexes,
                hexsides: Vec::new(),
                friendly_edges: SidePair::new(
                    (1..=rows).map(|r| Hex::new(1, r)).collect(),
                    (1..=rows).map(|r| Hex::new(cols, r)).collect(),
                ),
            },
            terrain: demo.terrain.clone(),
            crt: demo.crt.clone(),
            units: Vec::new(),
            setup: SetupData::default(),
            turns: (1..=3)
                .map(|t| TurnData {
                    name: format!("Turn {t}"),
                    support: SidePair::new(0, 0),
                    night: false,
                })
                .collect(),
            support_markers: SidePair::new(Vec::new(), Vec::new()),
            support_provenance: String::new(),
            first_player: Side::A,
            start: StartPoint {
                turn: 1,
                phase: Phase::Movement,
            },
            skip_phases: Vec::new(),
            victory: VictoryData {
                conditions: Vec::new(),
                otherwise: None,
            },
        };
        Tiny { data }
    }

    /// Sets the terrain of a hex ("woods", or several: ["clear", "village"]).
    pub fn terrain(mut self, hex: &str, terrain: &[&str]) -> Tiny {
        let h: Hex = hex.parse().unwrap();
        let e = self
            .data
            .map
            .hexes
            .iter_mut()
            .find(|x| x.id == h)
            .expect("hex on tiny map");
        e.terrain = terrain.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Adds hexside features between two adjacent hexes ("river", "road", "bridge"…).
    pub fn side(mut self, a: &str, b: &str, features: &[&str]) -> Tiny {
        self.data.map.hexsides.push(HexsideData {
            hexes: [a.parse().unwrap(), b.parse().unwrap()],
            features: features.iter().map(|s| s.to_string()).collect(),
        });
        self
    }

    /// Adds a unit. `steps` lists (attack, defense, move) from full strength down.
    pub fn unit(
        mut self,
        id: &str,
        side: Side,
        kind: UnitKind,
        steps: &[(u8, u8, u8)],
        hex: &str,
    ) -> Tiny {
        self.data.units.push(UnitData {
            id: UnitId::new(id),
            side,
            name: id.into(),
            formation: String::new(),
            size: String::new(),
            unit_type: String::new(),
            kind,
            zoc: true,
            tags: Vec::new(),
            steps: steps
                .iter()
                .map(|&(attack, defense, movement)| StepValues {
                    attack,
                    defense,
                    movement,
                })
                .collect(),
            start_depleted: 0,
            start: StartData::Hex(hex.parse().unwrap()),
            provenance: None,
        });
        self
    }

    /// A leg unit with one step.
    pub fn leg(self, id: &str, side: Side, a: u8, d: u8, m: u8, hex: &str) -> Tiny {
        self.unit(id, side, UnitKind::Leg, &[(a, d, m)], hex)
    }

    /// A mobile unit with one step.
    pub fn mobile(self, id: &str, side: Side, a: u8, d: u8, m: u8, hex: &str) -> Tiny {
        self.unit(id, side, UnitKind::Mobile, &[(a, d, m)], hex)
    }

    /// Edits the last unit added.
    pub fn with_last(mut self, f: impl FnOnce(&mut UnitData)) -> Tiny {
        f(self.data.units.last_mut().expect("a unit"));
        self
    }

    /// Support markers per side and the allotment for every turn.
    pub fn support(mut self, a: &[u8], b: &[u8], allot_a: u8, allot_b: u8) -> Tiny {
        self.data.support_markers = SidePair::new(a.to_vec(), b.to_vec());
        for t in &mut self.data.turns {
            t.support = SidePair::new(allot_a, allot_b);
        }
        self
    }

    /// Where play starts.
    pub fn start(mut self, phase: Phase) -> Tiny {
        self.data.start.phase = phase;
        self
    }

    /// Validates into a scenario.
    pub fn build(self) -> Scenario {
        Scenario::from_data(self.data).expect("valid tiny scenario")
    }
}

/// A generator that returns the scripted values from `next_u32` in order (then 0).
/// The engine maps a value `v` to die `v % 6 + 1` and a marker draw to index `v % n`,
/// so `Script::dice(&[4])` makes the next die roll a 4.
pub struct Script {
    pub values: Vec<u32>,
    pub pos: usize,
}

impl Script {
    /// Raw values.
    pub fn new(values: &[u32]) -> Script {
        Script {
            values: values.to_vec(),
            pos: 0,
        }
    }
    /// Die rolls (1-6) in order.
    pub fn dice(rolls: &[u8]) -> Script {
        Script::new(&rolls.iter().map(|r| *r as u32 - 1).collect::<Vec<_>>())
    }
}

impl rand_core::RngCore for Script {
    fn next_u32(&mut self) -> u32 {
        let v = self.values.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v
    }
    fn next_u64(&mut self) -> u64 {
        self.next_u32() as u64
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next_u32() as u8;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// Starts a game on a scenario (no randomness is used at the start).
pub fn start(sc: &Scenario) -> State {
    new_game(sc, &mut Script::new(&[])).0
}

/// Applies a command with a scripted generator, folds the events, returns them.
pub fn play(sc: &Scenario, s: &mut State, cmd: Command, rng: &mut Script) -> Vec<Event> {
    let ev = apply(sc, s, &cmd, rng).unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"));
    s.apply_events(sc, &ev);
    ev
}

/// Applies a command expecting a refusal; checks the rule and that nothing changed.
pub fn refused(sc: &Scenario, s: &State, cmd: Command) -> RuleError {
    let before = s.clone();
    let e = apply(sc, s, &cmd, &mut Script::new(&[])).expect_err("command should be refused");
    assert_eq!(*s, before);
    e
}

pub fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

pub fn u(s: &str) -> UnitId {
    UnitId::new(s)
}

pub fn mv(unit: &str, path: &[&str]) -> Command {
    Command::Move {
        unit: u(unit),
        path: path.iter().map(|x| h(x)).collect(),
    }
}
