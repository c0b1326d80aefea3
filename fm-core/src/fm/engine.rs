//! The pure entry points: [`new_game`], [`apply`] and [`explain`].
//!
//! `apply` works on a private copy of the state: each handler validates the command
//! against the rules, then emits events, which are folded into the copy as they are
//! emitted so later checks see their effect. The caller's state is never touched; the
//! events are returned for the caller to fold (or to log, filter, replay).

use crate::error::{refuse, RuleError};
use crate::fm::command::Command;
use crate::fm::event::Event;
use crate::fm::exclusive::ExclusiveRules;
use crate::fm::scenario::Scenario;
use crate::fm::state::State;
use crate::ids::UnitId;
use rand_core::RngCore;

pub(crate) struct Ctx<'a> {
    pub sc: &'a Scenario,
    pub s: State,
    pub events: Vec<Event>,
    rng: &'a mut dyn RngCore,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(sc: &'a Scenario, s: State, rng: &'a mut dyn RngCore) -> Ctx<'a> {
        Ctx {
            sc,
            s,
            events: Vec::new(),
            rng,
        }
    }

    pub(crate) fn emit(&mut self, e: Event) {
        self.s.apply_event(self.sc, &e);
        self.events.push(e);
    }

    /// A uniform index in `0..n` (n ≥ 1), by rejection so every platform agrees.
    pub(crate) fn roll_index(&mut self, n: usize) -> usize {
        crate::chance::roll_index(self.rng, n)
    }

    /// One six-sided die.
    pub(crate) fn d6(&mut self) -> u8 {
        self.roll_index(6) as u8 + 1
    }

    pub(crate) fn unit(&self, id: &UnitId) -> Result<usize, RuleError> {
        match self.sc.unit_index(id) {
            Some(i) => Ok(i as usize),
            None => refuse("input", format!("unknown unit '{id}'")),
        }
    }
}

/// Starts a game: the initial state and the events that bring it to its first
/// decision (set-up, or the scenario's starting phase).
///
/// ```
/// use fm_core::{new_game, Pending, Scenario};
/// use rand_xoshiro::{rand_core::SeedableRng, Xoshiro256PlusPlus};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let (state, events) = new_game(&sc, &mut Xoshiro256PlusPlus::seed_from_u64(7));
/// assert!(!events.is_empty());
/// // system-demo opens with set-up: Red places its militia first.
/// assert_eq!(state.pending(), Pending::Setup { side: fm_core::Side::B });
/// ```
pub fn new_game(sc: &Scenario, rng: &mut dyn RngCore) -> (State, Vec<Event>) {
    let mut ctx = Ctx::new(sc, State::initial(sc), rng);
    crate::fm::sequence::begin(&mut ctx);
    crate::fm::sequence::settle(&mut ctx);
    (ctx.s, ctx.events)
}

/// Applies a command for the side whose decision is pending, returning the events it
/// causes. Pure: `state` is not modified; fold the events with
/// [`State::apply_events`] to get the next state. All randomness comes from `rng`, and
/// every die roll and marker draw is recorded in the events.
///
/// # Errors
/// A [`RuleError`] naming the rule the command breaks; nothing is changed.
///
/// ```
/// use fm_core::{apply, new_game, Command, Scenario};
/// use rand_xoshiro::{rand_core::SeedableRng, Xoshiro256PlusPlus};
/// let sc = Scenario::builtin("system-demo").unwrap();
/// let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
/// let (mut state, _) = new_game(&sc, &mut rng);
/// let before = state.clone();
/// let bad = Command::Move { unit: "nobody".into(), path: vec![] };
/// let err = apply(&sc, &state, &bad, &mut rng).unwrap_err();
/// assert_eq!(err.rule, "input");
/// assert_eq!(state, before);
/// // Set-up: place Red's militia in its zone.
/// let place = Command::Place { unit: "red-militia-bn".into(), hex: "1105".parse().unwrap() };
/// let events = apply(&sc, &state, &place, &mut rng).unwrap();
/// state.apply_events(&sc, &events);
/// assert_eq!(state.units[12].hex(), Some("1105".parse().unwrap()));
/// ```
pub fn apply(
    sc: &Scenario,
    state: &State,
    cmd: &Command,
    rng: &mut dyn RngCore,
) -> Result<Vec<Event>, RuleError> {
    apply_with_state(sc, state, cmd, rng).map(|(events, _)| events)
}

/// [`apply`], also returning the state after the events (the fold of `state` with
/// them, built on the way): what the match layer keeps, so that it folds nothing twice.
///
/// # Errors
/// As [`apply`].
pub fn apply_with_state(
    sc: &Scenario,
    state: &State,
    cmd: &Command,
    rng: &mut dyn RngCore,
) -> Result<(Vec<Event>, State), RuleError> {
    if let Some(o) = &state.outcome {
        return refuse("4.1", format!("the game is over ({})", o.reason));
    }
    let mut ctx = Ctx::new(sc, state.clone(), rng);
    dispatch(&mut ctx, cmd)?;
    crate::fm::sequence::settle(&mut ctx);
    Ok((ctx.events, ctx.s))
}

/// Names unknown units and off-grid hexes before any rule is considered. Lists in a
/// command are bounded first, so an over-long one is refused before it is walked:
/// a `move` path by [`Scenario::max_path`], a retreat path by the map (each hex is
/// farther from the combat), displacements and unit lists by the order of battle (a
/// unit appears once).
fn check_input(sc: &Scenario, cmd: &Command) -> Result<(), RuleError> {
    let unit = |u: &UnitId| match sc.unit_index(u) {
        Some(_) => Ok(()),
        None => refuse("input", format!("unknown unit '{u}'")),
    };
    let units_bound = |us: &[UnitId]| {
        if us.len() > sc.units.len() {
            return refuse(
                "input",
                format!(
                    "{} units listed but the scenario has {}: a unit is listed twice",
                    us.len(),
                    sc.units.len()
                ),
            );
        }
        Ok(())
    };
    match cmd {
        Command::Move { path, .. } if path.len() > sc.max_path() => {
            let rail = sc.rules().path_bound_note();
            return refuse(
                "5.2(c)",
                format!(
                    "a path of {} hexes is longer than any move in this scenario can be (at most {}: the largest movement allowance over the cheapest step cost{rail})",
                    path.len(),
                    sc.max_path()
                ),
            );
        }
        Command::Retreat { path, .. } if path.len() > sc.hexes.len() => {
            return refuse(
                "8.3",
                format!(
                    "a retreat of {} hexes is longer than the map: each hex of a retreat is farther from the combat",
                    path.len()
                ),
            );
        }
        Command::Retreat { displace, .. } if displace.len() > sc.units.len() => {
            return refuse(
                "8.3.1",
                format!(
                    "{} displacements but the scenario has {} units: each displaces one unit",
                    displace.len(),
                    sc.units.len()
                ),
            );
        }
        Command::Attack { units, .. } | Command::Rebuild { units } => units_bound(units)?,
        _ => {}
    }
    let on_map = |rule: &'static str| {
        move |h: &crate::fm::hex::Hex| match sc.hex_index(*h) {
            Some(_) => Ok(()),
            None => refuse(rule, format!("{h} is off the map")),
        }
    };
    let hex = on_map("input");
    match cmd {
        Command::Place { unit: u, hex: h } | Command::Advance { unit: u, to: h } => {
            unit(u)?;
            hex(h)
        }
        Command::Move { unit: u, path } => {
            unit(u)?;
            path.iter().try_for_each(on_map("5.2(f)"))
        }
        Command::Retreat {
            unit: u,
            path,
            displace,
        } => {
            unit(u)?;
            path.iter().chain(displace).try_for_each(on_map("8.3"))
        }
        Command::Attack { hex: h, units } => {
            units.iter().try_for_each(unit)?;
            hex(h)
        }
        Command::Bombard { hex: h, .. } => hex(h),
        Command::ChooseLoss { unit: u } | Command::StiffResistance { unit: u } => unit(u),
        Command::Replace {
            unit: u, hex: h, ..
        } => {
            unit(u)?;
            hex(h)
        }
        Command::Rebuild { units } => units.iter().try_for_each(unit),
        Command::BreakDown { unit: u } => unit(u),
        Command::PlaceAircraft { hex: h }
        | Command::Artillery { hex: h, .. }
        | Command::AirUnit { hex: h, .. }
        | Command::Kress { hex: h } => hex(h),
        Command::SupportFire { .. } | Command::LostBattalion { .. } | Command::Done => Ok(()),
    }
}

fn dispatch(ctx: &mut Ctx, cmd: &Command) -> Result<(), RuleError> {
    use crate::fm::state::Pending as P;
    check_input(ctx.sc, cmd)?;
    let rules = ctx.sc.rules();
    let pending = ctx.s.pending();
    match (cmd, &pending) {
        (Command::Place { unit, hex }, P::Setup { .. }) => {
            crate::fm::sequence::place(ctx, unit, *hex)
        }
        (Command::Bombard { hex, markers }, P::FireSupport { .. }) => {
            rules.place_fire_support(ctx, *hex, *markers)
        }
        (Command::AirUnit { hex, observe }, P::FireSupport { .. }) => {
            rules.air_unit(ctx, *hex, *observe)
        }
        (Command::Attack { hex, units }, P::FireSupport { .. }) => {
            rules.announce_attack(ctx, *hex, units)
        }
        (Command::Kress { hex }, P::FireSupport { .. } | P::Phase { .. }) => rules.kress(ctx, *hex),
        (Command::AirUnit { hex, observe }, P::Phase { .. }) => rules.air_unit(ctx, *hex, *observe),
        (Command::Move { unit, path }, P::Phase { .. }) => {
            crate::fm::movement::apply_move(ctx, unit, path)
        }
        (Command::Bombard { hex, markers }, P::Phase { .. }) => {
            crate::fm::bombardment::declare(ctx, *hex, *markers)
        }
        (Command::Attack { hex, units }, P::Phase { .. }) => {
            crate::fm::combat::declare(ctx, *hex, units)
        }
        (Command::SupportFire { commit }, P::SupportFire { .. }) => {
            crate::fm::support_fire::decide(ctx, *commit)?;
            crate::fm::combat::proceed(ctx);
            Ok(())
        }
        (Command::ChooseLoss { unit }, P::ChooseLoss { .. }) => {
            crate::fm::combat::choose_loss(ctx, unit)
        }
        (
            Command::Retreat {
                unit,
                path,
                displace,
            },
            P::Retreat { .. },
        ) => crate::fm::retreat::retreat(ctx, unit, path, displace),
        (Command::StiffResistance { unit }, P::Retreat { .. }) => {
            crate::fm::retreat::stiff_resistance(ctx, unit)
        }
        (Command::Advance { unit, to }, P::Advance { .. }) => {
            crate::fm::retreat::advance(ctx, unit, *to)
        }
        (Command::Retreat { unit, path, .. }, P::ArtilleryRetreat { .. }) => {
            rules.artillery_retreat(ctx, unit, path)
        }
        (Command::StiffResistance { unit }, P::ArtilleryRetreat { .. }) => {
            rules.accept_hits(ctx, unit)
        }
        (Command::LostBattalion { declare }, P::LostBattalion { .. }) => {
            rules.lost_battalion(ctx, *declare)
        }
        (Command::Replace { unit, hex, full }, P::Phase { .. }) => {
            rules.replace(ctx, unit, *hex, *full)
        }
        (Command::Rebuild { units }, P::Phase { .. }) => rules.rebuild(ctx, units),
        (Command::BreakDown { unit }, P::Phase { .. }) => rules.break_down(ctx, unit),
        (Command::PlaceAircraft { hex }, P::Phase { .. }) => rules.place_aircraft(ctx, *hex),
        (Command::Artillery { hex, markers, gas }, P::Phase { .. }) => {
            rules.artillery(ctx, *hex, *markers, *gas)
        }
        (Command::Done, _) => crate::fm::sequence::done(ctx),
        (_, p) => refuse(
            "4.1",
            format!("out of sequence: the game waits for {}", describe(p)),
        ),
    }
}

pub(crate) fn describe(p: &crate::fm::state::Pending) -> String {
    use crate::fm::state::Pending as P;
    match p {
        P::Setup { side } => format!("side {side} to place units"),
        P::Phase { side, phase } => format!("side {side} in the {phase}"),
        P::SupportFire { side, step } => format!(
            "side {side} to commit or pass support fire (step {})",
            step + 1
        ),
        P::ChooseLoss { side, .. } => format!("side {side} to choose which unit loses a step"),
        P::Retreat { side, .. } => format!("side {side} to retreat or declare stiff resistance"),
        P::Advance { side, .. } => format!("side {side} to advance after combat or finish"),
        P::LostBattalion { side } => format!("side {side} to declare the Lost Battalion or not"),
        P::FireSupport { side } => format!("side {side} to place fire support markers or finish"),
        P::ArtilleryRetreat { side, .. } => {
            format!("side {side} to retreat one hex or take the artillery hits")
        }
        P::GameOver { .. } => "nothing: the game is over".to_string(),
    }
}

/// Why `cmd` would be refused in `state`, or `None` if it is legal. Draws no
/// randomness that matters: the command is tried on a copy with a fixed generator.
pub fn explain(sc: &Scenario, state: &State, cmd: &Command) -> Option<RuleError> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::from_seed_u64(0);
    apply(sc, state, cmd, &mut rng).err()
}

trait SeedU64 {
    fn from_seed_u64(seed: u64) -> Self;
}
impl SeedU64 for rand_xoshiro::Xoshiro256PlusPlus {
    fn from_seed_u64(seed: u64) -> Self {
        <Self as rand_core::SeedableRng>::seed_from_u64(seed)
    }
}

impl State {
    /// Folds a batch of events (as returned by [`apply`]) into the state.
    pub fn apply_events(&mut self, sc: &Scenario, events: &[Event]) {
        for e in events {
            self.apply_event(sc, e);
        }
    }
}
