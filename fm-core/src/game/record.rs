//! What one side may know of a match: [`SideRecordOf`] (the scenario, the side's
//! redacted events and its view, for play by e-mail and a player's client), the side's
//! perfect-recall information state, and its view hash; and what a spectator may know
//! (what both sides may), its log and view hash. Every function here reads the true
//! state only through [`Game::view`], [`Game::redacted`], [`Game::spectator_view`] and
//! [`Game::redacted_for_spectator`].

use super::log::{hex_u64, hex_u64_opt};
use super::{Game, GameMatch, MatchError};
use crate::ids::Side;
use serde::{Deserialize, Serialize};

/// One command of an information state ([`GameMatch::information_state`]).
#[derive(Serialize)]
#[serde(bound = "")]
pub(crate) struct InfoEntry<'a, G: Game> {
    command: &'a G::Command,
    events: Vec<G::Event>,
}

/// An information state's parts: the hash of a drawn view, the opening's events, the
/// commands.
pub(crate) type InfoRecord<'a, G> = (Option<u64>, Vec<<G as Game>::Event>, Vec<InfoEntry<'a, G>>);

/// One command of a [`SideRecordOf`]: the command (commands are public in F&M), its
/// events as the side sees them, and the side's view hash after it. (Also one command
/// of a spectator's log, [`GameMatch::spectator_log`]: its events and view hash a
/// spectator's.)
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SideEntryOf<G: Game> {
    /// The command.
    pub command: G::Command,
    /// Its events, redacted for the side ([`Game::redacted`]).
    pub events: Vec<G::Event>,
    /// [`Game::view_hash`] of the side's view after the events (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

/// A match as one side may know it, for play by e-mail and for a player's client: the
/// scenario, the side's redacted event stream and its current view. It holds no seed
/// and no hidden value, so it can be handed to that side's player.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SideRecordOf<G: Game> {
    /// Record format version (1).
    pub format: u32,
    /// The side it is for.
    pub side: Side,
    /// The scenario data (public).
    pub scenario: G::ScenarioData,
    /// The opening events, redacted for the side.
    pub opening: Vec<G::Event>,
    /// Every command so far, its redacted events and the view hash after it.
    pub log: Vec<SideEntryOf<G>>,
    /// The side's view now.
    pub view: G::View,
    /// Its hash (16 hex digits).
    #[serde(with = "hex_u64")]
    pub view_hash: u64,
}

impl<G: Game> GameMatch<G> {
    /// The match as `side` may know it ([`SideRecordOf`]): what to give that side's
    /// player instead of a save.
    ///
    /// ```
    /// use fm_core::{Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// let r = m.export(Side::A);
    /// assert_eq!(r.log.len(), 1);
    /// assert_eq!(r.view_hash, m.view_hash(Side::A));
    /// let text = serde_json::to_string(&r).unwrap();
    /// assert!(!text.contains("seed"));
    /// ```
    pub fn export(&self, side: Side) -> SideRecordOf<G> {
        let sc = &self.scenario;
        let mut s = self.opening.state.clone();
        let log = self
            .log
            .iter()
            .map(|e| {
                G::fold(sc, &mut s, &e.events);
                SideEntryOf {
                    command: e.command.clone(),
                    events: e.events.iter().map(|x| G::redacted(x, side)).collect(),
                    view_hash: G::view_hash(&G::view(sc, &s, side)),
                }
            })
            .collect();
        let v = self.view(side);
        SideRecordOf {
            format: 1,
            side,
            scenario: G::scenario_data(sc).clone(),
            opening: self
                .opening
                .events
                .iter()
                .map(|x| G::redacted(x, side))
                .collect(),
            log,
            view_hash: G::view_hash(&v),
            view: v,
        }
    }

    /// `side`'s perfect-recall information state, as compact JSON text: everything the
    /// side has observed, in order — the opening's events and every command with its
    /// events, as the side sees them ([`Game::redacted`]), and, while a command (or the
    /// opening) waits for its draws in explicit chance mode, `"pending"`: the command
    /// and the dice thrown for it so far (a pick from a list shown as `null`) — and
    /// nothing else (no seed, no hidden value). Two histories the side cannot tell apart
    /// give the same text; what a search over information sets keys its nodes by
    /// (OpenSpiel's `InformationStateString`). It grows with the log.
    ///
    /// A determinized match ([`GameMatch::determinized`]) gives the side it was drawn
    /// for the source's information state continued with its own commands (so the two
    /// are equal until one of them moves on), and the other side, whose history the
    /// draw does not make, `"drawn"` (the hash of its view of the drawn state, 16 hex
    /// digits) and its commands since.
    ///
    /// ```
    /// use fm_core::{Match, Side};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let before = m.information_state(Side::A);
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// assert_ne!(m.information_state(Side::A), before);
    /// assert!(m.information_state(Side::B).starts_with(r#"{"side":"b","#));
    /// ```
    pub fn information_state(&self, side: Side) -> String {
        #[derive(Serialize)]
        #[serde(bound = "")]
        struct Info<'a, G: Game> {
            side: Side,
            #[serde(skip_serializing_if = "Option::is_none", with = "hex_u64_opt")]
            drawn: Option<u64>,
            opening: Vec<G::Event>,
            log: Vec<InfoEntry<'a, G>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pending: Option<super::chance_play::PendingSeen<'a, G>>,
        }
        let (drawn, opening, log) = self.information_record(side);
        let info = Info::<G> {
            side,
            drawn,
            opening,
            log,
            pending: self.pending_seen(),
        };
        serde_json::to_string(&info).expect("a record serializes")
    }

    /// The parts of [`GameMatch::information_state`]: for a determinized match, the
    /// drawn view's hash when it was drawn for the other side, and otherwise its
    /// source's record continued.
    pub(crate) fn information_record(&self, side: Side) -> InfoRecord<'_, G> {
        let redact = |es: &[G::Event]| es.iter().map(|e| G::redacted(e, side)).collect();
        let own = self.log.iter().map(|e| InfoEntry {
            command: &e.command,
            events: redact(&e.events),
        });
        match &self.determinized {
            None => (None, redact(&self.opening.events), own.collect()),
            Some(d) if d.side == side => {
                let (drawn, opening, mut log) = d.source.information_record(side);
                log.extend(own);
                (drawn, opening, log)
            }
            Some(_) => {
                let v = G::view(&self.scenario, &self.opening.state, side);
                (Some(G::view_hash(&v)), Vec::new(), own.collect())
            }
        }
    }

    /// The hash of `side`'s view: what a player's client may be shown. The state hash
    /// ([`Game::state_hash`], also in every [`LogEntryOf`]) covers hidden values and
    /// is the referee's.
    pub fn view_hash(&self, side: Side) -> u64 {
        G::view_hash(&self.view(side))
    }

    /// The hash of a spectator's view ([`GameMatch::spectator_view`]): what a
    /// spectator's client may be shown.
    ///
    /// # Errors
    /// As [`Game::spectator_view`].
    pub fn spectator_view_hash(&self) -> Result<u64, MatchError> {
        Ok(G::view_hash(&self.spectator_view()?))
    }

    /// The log from command `from` on as a spectator may know it: each command, its
    /// events redacted for a spectator ([`Game::redacted_for_spectator`]) and the hash
    /// of the spectator's view after it.
    ///
    /// ```
    /// use fm_core::{Match, Viewer};
    /// let mut m = Match::new_builtin("system-demo", 1).unwrap();
    /// let first = m.legal_commands()[0].clone();
    /// m.apply(&first).unwrap();
    /// let log = m.spectator_log(0).unwrap();
    /// assert_eq!(log.len(), 1);
    /// assert_eq!(log[0].view_hash, m.spectator_view_hash().unwrap());
    /// let events = &m.log()[0].events;
    /// let redacted: Vec<_> = events.iter().map(|e| e.redacted_for(Viewer::Spectator)).collect();
    /// assert_eq!(log[0].events, redacted);
    /// ```
    ///
    /// # Errors
    /// As [`Game::spectator_view`], whatever the log holds (an empty log of a system
    /// without spectator views is refused too, not answered with an empty list).
    pub fn spectator_log(&self, from: usize) -> Result<Vec<SideEntryOf<G>>, MatchError> {
        let sc = &self.scenario;
        let mut s = self.opening.state.clone();
        G::spectator_view(sc, &s)?;
        let mut log = Vec::new();
        for (k, e) in self.log.iter().enumerate() {
            G::fold(sc, &mut s, &e.events);
            if k < from {
                continue;
            }
            log.push(SideEntryOf {
                command: e.command.clone(),
                events: e.events.iter().map(G::redacted_for_spectator).collect(),
                view_hash: G::view_hash(&G::spectator_view(sc, &s)?),
            });
        }
        Ok(log)
    }
}
