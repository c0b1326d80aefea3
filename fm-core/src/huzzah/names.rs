//! How Huzzah!'s JSON names things, and how the engine finds them: commands, events,
//! pending decisions, log entries and odds all name units and officers by their scenario
//! ids (`"fr-1"`, `"fr-cinc"`), sectors of dense terrain as `"<terrain id>/<n>"` and
//! order groups as `{"division": "fr-div"}`; the engine's tables hold indices
//! ([`UnitIx`], [`OfficerIx`], [`SectorRef`], [`GroupRef`]). These are the two ways
//! between them, on the validated [`Scenario`]: ids for what a user sees, indices
//! resolved wherever the rules or the fold need one.

use crate::huzzah::command::GroupArg;
use crate::huzzah::scenario::{OfficerIx, Scenario, SectorRef, TerrainIx, UnitIx};
use crate::huzzah::state::GroupRef;
use crate::ids::{OfficerId, UnitId};

impl Scenario {
    /// The id of unit `u` (a cheap clone of the scenario's).
    ///
    /// # Panics
    /// If `u` is not an index of this scenario.
    pub fn unit_id(&self, u: UnitIx) -> UnitId {
        self.unit(u).id.clone()
    }

    /// The ids of units `us`, in order.
    ///
    /// # Panics
    /// If one is not an index of this scenario.
    pub fn unit_ids(&self, us: &[UnitIx]) -> Vec<UnitId> {
        us.iter().map(|u| self.unit_id(*u)).collect()
    }

    /// The index of the unit with this id; `None` for an id the scenario lacks.
    pub fn unit_ix_of(&self, id: &UnitId) -> Option<UnitIx> {
        self.unit_index(id.as_str())
    }

    /// The id of officer `o`.
    ///
    /// # Panics
    /// If `o` is not an index of this scenario.
    pub fn officer_id(&self, o: OfficerIx) -> OfficerId {
        OfficerId::new(&self.officer(o).id)
    }

    /// The index of the officer with this id; `None` for an id the scenario lacks.
    pub fn officer_ix_of(&self, id: &OfficerId) -> Option<OfficerIx> {
        self.officer_index(id.as_str())
    }

    /// A sector's name, `"<terrain id>/<n>"` (`"w1/0"`), as commands and events give it.
    ///
    /// # Panics
    /// If `s` is not a sector of this scenario.
    pub fn sector_name(&self, s: SectorRef) -> String {
        format!("{}/{}", self.terrain_piece(s.terrain).id, s.sector)
    }

    /// The sector named `"<terrain id>/<n>"`: a sector of a dense terrain piece;
    /// `None` for any other name.
    pub fn sector_of(&self, name: &str) -> Option<SectorRef> {
        let (tid, n) = name.rsplit_once('/')?;
        let ti = self
            .terrain()
            .iter()
            .position(|t| t.id == tid && t.kind.is_dense())?;
        let k = n
            .parse::<usize>()
            .ok()
            .filter(|k| *k < self.terrain()[ti].sectors.len())?;
        Some(SectorRef {
            terrain: TerrainIx(u16::try_from(ti).ok()?),
            sector: u16::try_from(k).ok()?,
        })
    }

    /// An order's group by id, as commands and events give it.
    ///
    /// # Panics
    /// If `g` is not a group of this scenario.
    pub fn group_arg(&self, g: GroupRef) -> GroupArg {
        match g {
            GroupRef::Unit(u) => GroupArg::Unit(self.unit(u).id.to_string()),
            GroupRef::Division(d) => GroupArg::Division(self.division(d).id.clone()),
            GroupRef::Corps(c) => GroupArg::Corps(self.corps(c).id.clone()),
        }
    }

    /// The group an order names by id; `None` for an id the scenario lacks.
    pub fn group_of(&self, g: &GroupArg) -> Option<GroupRef> {
        match g {
            GroupArg::Unit(id) => self.unit_index(id).map(GroupRef::Unit),
            GroupArg::Division(id) => self
                .divisions()
                .iter()
                .find(|d| d.id == *id)
                .map(|d| GroupRef::Division(d.ix)),
            GroupArg::Corps(id) => self
                .corps_list()
                .iter()
                .find(|c| c.id == *id)
                .map(|c| GroupRef::Corps(c.ix)),
        }
    }
}
