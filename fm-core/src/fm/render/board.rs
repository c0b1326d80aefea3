//! What a picture is drawn from: a [`Board`], the full state or one side's view of it
//! (7.2: the other side's face-down markers unknown), read once into the fields the
//! renderer needs; and [`units_on_map`], the counters a picture draws.

use crate::fm::hex::Hex;
use crate::fm::scenario::Phase;
use crate::fm::state::{Combat, Location, Outcome, Pending, State};
use crate::fm::view::View;
use crate::ids::{Side, UnitId, Viewer};
use std::collections::BTreeMap;

/// What to render: the full state, or one side's view of it.
#[derive(Clone, Copy, Debug)]
pub enum Board<'a> {
    /// Everything, including face-down marker values.
    State(&'a State),
    /// As one side sees it.
    View(&'a View),
}

impl<'a> From<&'a State> for Board<'a> {
    fn from(s: &'a State) -> Board<'a> {
        Board::State(s)
    }
}

impl<'a> From<&'a View> for Board<'a> {
    fn from(v: &'a View) -> Board<'a> {
        Board::View(v)
    }
}

/// What the renderer needs from a state or a view.
pub(super) struct Snap<'a> {
    pub(super) turn: u16,
    pub(super) phase: Phase,
    pub(super) active: Side,
    pub(super) units: &'a crate::fm::state::UnitList,
    pub(super) control: &'a BTreeMap<Hex, Side>,
    pub(super) bombarded: &'a BTreeMap<Hex, u8>,
    pub(super) combat: Option<&'a Combat>,
    pub(super) outcome: Option<&'a Outcome>,
    pub(super) pending: Pending,
    /// Per side: available values if visible, available count, used values.
    pub(super) support: [(Option<Vec<u8>>, usize, Vec<u8>); 2],
    /// Whose view it is (`None`: the whole state, the referee's).
    pub(super) viewer: Option<Viewer>,
    /// Exclusive-rule markers (full state only: views do not carry them yet).
    pub(super) ex: Option<&'a crate::fm::state::ExclusiveState>,
}

impl<'a> Snap<'a> {
    pub(super) fn of(b: Board<'a>) -> Snap<'a> {
        match b {
            Board::State(s) => Snap {
                turn: s.turn,
                phase: s.phase,
                active: s.active,
                units: &s.units,
                control: &s.control,
                bombarded: &s.bombarded,
                combat: s.combat.as_ref(),
                outcome: s.outcome.as_ref(),
                pending: s.pending(),
                support: Side::BOTH.map(|side| {
                    let sp = s.support.get(side);
                    (
                        Some(sp.available.clone()),
                        sp.available.len(),
                        sp.used.clone(),
                    )
                }),
                viewer: None,
                ex: Some(&s.ex),
            },
            Board::View(v) => Snap {
                turn: v.turn,
                phase: v.phase,
                active: v.active,
                units: &v.units,
                control: &v.control,
                bombarded: &v.bombarded,
                combat: v.combat.as_ref(),
                outcome: v.outcome.as_ref(),
                pending: v.pending.clone(),
                support: Side::BOTH.map(|side| {
                    let sp = v.support.get(side);
                    (
                        sp.available.clone(),
                        sp.available_count as usize,
                        sp.used.clone(),
                    )
                }),
                viewer: Some(v.side),
                ex: None,
            },
        }
    }
}

/// The units on the map in a board, by id (what [`render_svg`] draws as counters).
///
/// [`render_svg`]: crate::fm::render::render_svg
pub fn units_on_map<'a>(board: impl Into<Board<'a>>) -> Vec<UnitId> {
    let snap = Snap::of(board.into());
    snap.units
        .iter()
        .enumerate()
        .filter(|(_, u)| matches!(u.loc, Location::Map(_)))
        .map(|(i, _)| snap.units.id(i).clone())
        .collect()
}
