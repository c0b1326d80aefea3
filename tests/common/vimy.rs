//! A tiny Vimy Ridge scenario builder for the rule tests: a `Tiny` map with the built-in
//! scenario's terrain chart, Integrated CRT and exclusive-rule parameters. Side `a` is
//! the Allies, side `b` the Germans; north is row 01, east the last column.

use super::*;
use fm_core::vimy_ridge::VimyRidgeParams;

/// A tiny Vimy Ridge scenario under construction.
pub struct Vimy {
    pub tiny: Tiny,
    pub p: VimyRidgeParams,
}

/// The Canadian divisions' formation names, by number.
pub fn cdn_div(n: u8) -> String {
    ["1st", "2nd", "3rd", "4th"][n as usize - 1].to_string() + " Canadian Division"
}

/// The German divisions' formation names: 16 (Bavarian), 79 (Reserve), 1 (Bavarian Reserve).
pub fn ger_div(n: u8) -> String {
    match n {
        16 => "16th Bavarian Division".into(),
        79 => "79th Reserve Division".into(),
        1 => "1st Bavarian Reserve Division".into(),
        _ => panic!("no German division {n}"),
    }
}

/// A `cols` x `rows` all-clear Vimy map: three day turns (artillery 8/5 each), two
/// Allied aircraft, Petit Vimy in the two south-east corner hexes (the supply hex is
/// the corner), Vimy the hex west of the corner, one peak at 0101, no La Folie Woods
/// (range 0; the 18.2 tests set it), no Allied trench hexes.
pub fn vimy(cols: u8, rows: u8) -> Vimy {
    let builtin = Scenario::builtin("vimy-ridge").unwrap().data;
    let mut tiny = Tiny::new(cols, rows);
    tiny.data.terrain = builtin.terrain.clone();
    tiny.data.crt = builtin.crt.clone();
    tiny.data.sides = builtin.sides.clone();
    tiny.data.victory = VictoryData {
        conditions: vec![VictoryCondition::Annihilation { side: Side::A }],
        otherwise: Some(Side::B),
    };
    let RuleSet::VimyRidge(p) = builtin.rules else {
        panic!("the built-in scenario uses the Vimy Ridge rules")
    };
    let mut p = *p;
    p.artillery = vec![SidePair::new(8, 5); 3];
    p.aircraft = 2;
    p.peaks = vec![h("0101")];
    p.supply_hex = Hex::new(cols, rows);
    p.petit_vimy = vec![Hex::new(cols, rows), Hex::new(cols, rows - 1)];
    p.vimy = vec![Hex::new(cols - 1, rows)];
    p.allied_trench_hexes = Vec::new();
    p.la_folie_range = 0;
    Vimy { tiny, p }
}

impl Vimy {
    pub fn terrain(mut self, hex: &str, terrain: &[&str]) -> Vimy {
        self.tiny = self.tiny.terrain(hex, terrain);
        self
    }

    /// A trench hexside between two adjacent hexes.
    pub fn trench(mut self, a: &str, b: &str) -> Vimy {
        self.tiny = self.tiny.side(a, b, &["trench"]);
        self
    }

    /// A Canadian battalion of division `div` (1-4): 3-2-4 / 2-1-4.
    pub fn cdn(mut self, id: &str, div: u8, hex: &str) -> Vimy {
        self.tiny = self
            .tiny
            .unit(id, Side::A, UnitKind::Leg, &[(3, 2, 4), (2, 1, 4)], hex)
            .with_last(|d| d.formation = cdn_div(div));
        self
    }

    /// A German battalion of division `div` (16, 79, 1): 2-3-4 / 1-2-4.
    pub fn ger(mut self, id: &str, div: u8, hex: &str) -> Vimy {
        self.tiny = self
            .tiny
            .unit(id, Side::B, UnitKind::Leg, &[(2, 3, 4), (1, 2, 4)], hex)
            .with_last(|d| d.formation = ger_div(div));
        self
    }

    /// Edits the last unit added.
    pub fn with_last(mut self, f: impl FnOnce(&mut UnitData)) -> Vimy {
        self.tiny = self.tiny.with_last(f);
        self
    }

    /// Marks turn `t` (1-based) as a night turn.
    pub fn night(mut self, t: usize) -> Vimy {
        self.tiny.data.turns[t - 1].night = true;
        self
    }

    pub fn start(mut self, phase: Phase) -> Vimy {
        self.tiny = self.tiny.start(phase);
        self
    }

    pub fn start_turn(mut self, turn: u16) -> Vimy {
        self.tiny.data.start.turn = turn;
        self
    }

    /// Support markers per side, all allotted every turn unless `allot` says fewer.
    pub fn support(mut self, a: &[u8], b: &[u8], allot_a: u8, allot_b: u8) -> Vimy {
        self.tiny = self.tiny.support(a, b, allot_a, allot_b);
        self
    }

    pub fn params(mut self, f: impl FnOnce(&mut VimyRidgeParams)) -> Vimy {
        f(&mut self.p);
        self
    }

    pub fn build(self) -> Scenario {
        let mut data = self.tiny.data;
        data.rules = RuleSet::VimyRidge(Box::new(self.p));
        Scenario::from_data(data).expect("valid tiny Vimy scenario")
    }
}

/// Index of a unit in the state.
pub fn idx(s: &State, unit: &str) -> usize {
    s.units.ids.iter().position(|x| *x == u(unit)).unwrap()
}

/// Takes a unit off the map as eliminated (as a combat would have).
pub fn kill(s: &mut State, unit: &str) {
    let i = idx(s, unit);
    s.units[i].loc = Location::Eliminated;
    s.units[i].steps = 0;
}

/// Removes one step from a unit (as a combat would have).
pub fn hurt(s: &mut State, unit: &str) {
    let i = idx(s, unit);
    s.units[i].steps -= 1;
}

pub fn ids(v: &[&str]) -> Vec<UnitId> {
    v.iter().map(|x| u(x)).collect()
}

pub fn phase(side: Side, phase: Phase) -> Event {
    Event::PhaseStarted { side, phase }
}

pub fn attack(hex: &str, units: &[&str]) -> Command {
    Command::Attack {
        hex: h(hex),
        units: ids(units),
    }
}

pub fn artillery(hex: &str, markers: u8, gas: bool) -> Command {
    Command::Artillery {
        hex: h(hex),
        markers,
        gas,
    }
}
