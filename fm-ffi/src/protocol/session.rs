//! [`Session`], what one client keeps for itself: what its connection is bound to,
//! whether it wants notifications, and the bases of its deltas ([`Session::deltable`]:
//! a reply field as a patch of the last one this client was sent).

use super::reply::{Body, Result};
use super::seats::Binding;
use serde_json::Value;

/// The most delta bases one session keeps (the least recently used goes first): more
/// than the kinds there are (the owner's two views, state and three listings, each
/// seat's view and three listings), so that none is forgotten in practice.
const MAX_BASES: usize = 16;

/// One client's own part of a session: what its connection is bound to, whether it
/// wants notifications, and the last value of each kind of reply it was sent (the
/// bases of its deltas, `docs/serve.md` "Deltas").
#[derive(Default)]
pub struct Session {
    pub(super) socket: bool,
    pub(super) bound: Option<Binding>,
    pub(super) notify: bool,
    /// Set by a socket server while its connections bound as spectators are as many
    /// as it takes (that many): a spectator's `bind` is then refused (rule `"limit"`).
    pub(super) spectators_full: Option<usize>,
    /// (who asked, what) → the value last sent; most recently used last.
    bases: Vec<(String, Value)>,
}

impl Session {
    /// The session of a socket connection: unbound until it sends `bind`.
    pub fn socket() -> Session {
        Session {
            socket: true,
            ..Session::default()
        }
    }

    /// What the connection is bound to (`bind`), if anything.
    pub fn binding(&self) -> Option<&Binding> {
        self.bound.as_ref()
    }

    /// Tells the session whether the server is full of spectators (`Some(most)`): a
    /// spectator's `bind` is then refused, so that spectators can never take the slots
    /// the owner and the seats need to connect.
    pub fn set_spectators_full(&mut self, full: Option<usize>) {
        self.spectators_full = full;
    }

    /// Whether the connection is bound to the owner or a seat (`bind`).
    pub fn is_bound(&self) -> bool {
        self.bound.is_some()
    }

    /// What the connection is bound to, if it wants notifications of other clients'
    /// changes (`bind` with `"notify": true`).
    pub fn notified(&self) -> Option<&Binding> {
        if self.notify {
            self.bound.as_ref()
        } else {
            None
        }
    }

    /// The reply field of a value that deltas may abbreviate: the value itself under
    /// `field`, or under `"patch"` the RFC 6902 operations from the value this session
    /// was last sent under the same key (when `delta` is asked and there is one).
    pub(super) fn deltable(
        &mut self,
        body: Body,
        key: String,
        field: &'static str,
        value: Value,
        delta: bool,
    ) -> Result<Body> {
        let old = self
            .bases
            .iter()
            .position(|(k, _)| *k == key)
            .map(|i| self.bases.remove(i).1);
        let body = match old {
            Some(old) if delta => body.with("patch", &crate::patch::diff(&old, &value))?,
            _ => body.with(field, &value)?,
        };
        if self.bases.len() >= MAX_BASES {
            self.bases.remove(0);
        }
        self.bases.push((key, value));
        Ok(body)
    }
}
