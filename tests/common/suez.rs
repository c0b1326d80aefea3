//! A tiny Suez 1916 scenario builder for the rule tests: a `Tiny` map with the built-in
//! scenario's Terrain Effects Chart, Suez CRT and exclusive-rule parameters. Side `a` is
//! the Central Powers (first player), side `b` the British; west is column 01 (the canal
//! side), east the last column.
//!
//! Defaults, chosen so each test switches on only the rule it exercises: nine day turns
//! (no night, so turn 1 is not Zero Hour unless `zero_hour()`), no mobile or bombardment
//! phases, empty fire support pools and reserves (the air unit is available by day), no
//! victory hexes, Pelusium Station at 0101 (so British units set up in column 01 start
//! inactive, 11.3: keep British units east of it unless testing activation), no rail
//! hexes, no regiments, Zero Hour off (turn 0), the canal crossing between 0101 and 0201.

use super::*;
use fm_core::suez_1916::{FireSupportMarker, Suez1916Params};

/// A tiny Suez 1916 scenario under construction.
pub struct Suez {
    pub tiny: Tiny,
    pub p: Suez1916Params,
}

/// A fire support marker of strength `n` (test data).
pub fn marker(n: u8) -> FireSupportMarker {
    FireSupportMarker {
        name: "test".into(),
        strength: n,
        provenance: "test".into(),
    }
}

/// A `cols` x `rows` all-open Suez map with the defaults above.
pub fn suez(cols: u8, rows: u8) -> Suez {
    let builtin = Scenario::builtin("suez-1916").unwrap().data;
    let mut tiny = Tiny::new(cols, rows);
    for h in &mut tiny.data.map.hexes {
        h.terrain = vec!["open".into()];
    }
    tiny.data.terrain = builtin.terrain.clone();
    tiny.data.crt = builtin.crt.clone();
    tiny.data.sides = builtin.sides.clone();
    tiny.data.skip_phases = builtin.skip_phases.clone();
    tiny.data.turns = (1..=9)
        .map(|t| TurnData {
            name: format!("Turn {t}"),
            support: SidePair::new(0, 0),
            night: false,
        })
        .collect();
    let RuleSet::Suez1916(p) = builtin.rules else {
        panic!("the built-in scenario uses the Suez 1916 rules")
    };
    let mut p = *p;
    p.victory_hexes = Vec::new();
    p.pelusium_station = Hex::new(1, 1);
    p.canal_crossing = [Hex::new(1, 1), Hex::new(2, 1)];
    p.rail_hexes = Vec::new();
    p.reinforcement_regiments = Vec::new();
    p.reinforcement_entry = Vec::new();
    p.zero_hour_turn = 0;
    p.british_pool = Vec::new();
    p.british_set_aside = Vec::new();
    p.central_powers_pool = Vec::new();
    p.central_powers_reinforcement_markers = Vec::new();
    p.marker_return_turns = vec![2, 5, 8];
    Suez { tiny, p }
}

impl Suez {
    pub fn terrain(mut self, hex: &str, terrain: &[&str]) -> Suez {
        self.tiny = self.tiny.terrain(hex, terrain);
        self
    }

    /// Hexside features between two adjacent hexes ("trench", "track", "railroad",
    /// "canal", "water").
    pub fn side(mut self, a: &str, b: &str, features: &[&str]) -> Suez {
        self.tiny = self.tiny.side(a, b, features);
        self
    }

    /// A railroad along `hexes` (consecutive hexes adjacent): railroad hexsides between
    /// them, and every hex listed as a rail hex.
    pub fn rail(mut self, hexes: &[&str]) -> Suez {
        for w in hexes.windows(2) {
            self.tiny = self.tiny.side(w[0], w[1], &["railroad"]);
        }
        for x in hexes {
            let hx = h(x);
            if !self.p.rail_hexes.contains(&hx) {
                self.p.rail_hexes.push(hx);
            }
        }
        self
    }

    /// A Central Powers battalion: 3-3-6 / 1-2-6, leg, formation "3rd Division".
    pub fn cp(mut self, id: &str, hex: &str) -> Suez {
        self.tiny = self
            .tiny
            .unit(id, Side::A, UnitKind::Leg, &[(3, 3, 6), (1, 2, 6)], hex)
            .with_last(|d| d.formation = "3rd Division".into());
        self
    }

    /// A Central Powers cavalry unit: 2-2-10 / 1-1-10, mobile (movement allowance 10),
    /// formation "3rd Division".
    pub fn cp_cavalry(mut self, id: &str, hex: &str) -> Suez {
        self.tiny = self
            .tiny
            .unit(
                id,
                Side::A,
                UnitKind::Mobile,
                &[(2, 2, 10), (1, 1, 10)],
                hex,
            )
            .with_last(|d| d.formation = "3rd Division".into());
        self
    }

    /// A British half-brigade group (13.2, three steps): 6-6-5 / 4-4-5 / 2-2-5, leg,
    /// tags british-foot and brigade-group, formation `formation` ("52nd Division").
    pub fn br(mut self, id: &str, formation: &str, hex: &str) -> Suez {
        let f = formation.to_string();
        self.tiny = self
            .tiny
            .unit(
                id,
                Side::B,
                UnitKind::Leg,
                &[(6, 6, 5), (4, 4, 5), (2, 2, 5)],
                hex,
            )
            .with_last(|d| {
                d.formation = f;
                d.tags = vec!["british-foot".into(), "brigade-group".into()];
            });
        self
    }

    /// A British mounted brigade: 4-4-8 / 2-2-8, mobile, formation `formation`.
    pub fn horse(mut self, id: &str, formation: &str, hex: &str) -> Suez {
        let f = formation.to_string();
        self.tiny = self
            .tiny
            .unit(id, Side::B, UnitKind::Mobile, &[(4, 4, 8), (2, 2, 8)], hex)
            .with_last(|d| d.formation = f);
        self
    }

    /// The British armored train (13.3): 2-2-6, one step, tag armored-train.
    pub fn train(mut self, id: &str, hex: &str) -> Suez {
        self.tiny = self
            .tiny
            .unit(id, Side::B, UnitKind::Leg, &[(2, 2, 6)], hex)
            .with_last(|d| {
                d.formation = "Armored Train".into();
                d.tags = vec!["armored-train".into()];
            });
        self
    }

    /// A Central Powers engineer (12.1): 2-2-6 / 1-1-6, tag engineer.
    pub fn engineer(mut self, id: &str, hex: &str) -> Suez {
        self.tiny = self
            .tiny
            .unit(id, Side::A, UnitKind::Leg, &[(2, 2, 6), (1, 1, 6)], hex)
            .with_last(|d| {
                d.formation = "1st Expeditionary Corps".into();
                d.tags = vec!["engineer".into()];
            });
        self
    }

    /// Edits the last unit added.
    pub fn with_last(mut self, f: impl FnOnce(&mut UnitData)) -> Suez {
        self.tiny = self.tiny.with_last(f);
        self
    }

    /// Marks turn `t` (1-based) as a night turn.
    pub fn night(mut self, t: usize) -> Suez {
        self.tiny.data.turns[t - 1].night = true;
        self
    }

    /// Makes turn 1 the Zero Hour turn (15.0) and a night turn (19.0), as printed.
    pub fn zero_hour(mut self) -> Suez {
        self.p.zero_hour_turn = 1;
        self.tiny.data.turns[0].night = true;
        self
    }

    /// Fire support pools (18.3): Central Powers `a`, British `b`.
    pub fn pools(mut self, a: &[u8], b: &[u8]) -> Suez {
        self.p.central_powers_pool = a.iter().map(|&n| marker(n)).collect();
        self.p.british_pool = b.iter().map(|&n| marker(n)).collect();
        self
    }

    pub fn start(mut self, phase: Phase) -> Suez {
        self.tiny = self.tiny.start(phase);
        self
    }

    pub fn start_turn(mut self, turn: u16) -> Suez {
        self.tiny.data.start.turn = turn;
        self
    }

    pub fn params(mut self, f: impl FnOnce(&mut Suez1916Params)) -> Suez {
        f(&mut self.p);
        self
    }

    pub fn build(self) -> Scenario {
        let mut data = self.tiny.data;
        data.rules = RuleSet::Suez1916(Box::new(self.p));
        Scenario::from_data(data).expect("valid tiny Suez scenario")
    }
}
