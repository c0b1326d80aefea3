//! Notifications: what a change one client made ([`Change`]) tells each other client
//! that asked to hear of changes, as that client may know it ([`Core::notification`]).

use super::chance::{settled_events, Resolved};
use super::dispatch::Core;
use super::reply::{hash_hex, Body, Result};
use super::seats::{Asker, Binding};

/// What a request changed in the match, for the notifications of the other clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A command was applied.
    Apply,
    /// The last command was undone.
    Undo,
    /// A new match was started (every seat of the previous one ended).
    New,
    /// A saved match was loaded (every seat of the previous one ended).
    Load,
    /// The owner resolved a chance draw (explicit chance mode): with the command's
    /// events when it was the command's last draw.
    Chance(Resolved),
}

impl Change {
    fn name(self) -> &'static str {
        match self {
            Change::Apply => "apply",
            Change::Undo => "undo",
            Change::New => "new",
            Change::Load => "load",
            Change::Chance(_) => "chance",
        }
    }
}

impl Core {
    /// The line that tells a client bound as `binding` of a change another client
    /// made: `{"notify":{"change":…,"count":…,"pending":…,"hash":…}}`, with the
    /// command's `events` after an `apply` (and after the `apply_chance` that
    /// completed a command: `"change":"chance"`), all as that client may know them (a
    /// seat's redacted events and view hash; a spectator's, redacted of both sides'
    /// secrets, and its view hash). A seat or spectator that a `new` or `load` ended
    /// is told so (`"seat":"ended"`).
    pub fn notification(&self, binding: &Binding, change: Change) -> String {
        let asker = match binding {
            Binding::Owner => Some(Asker::Owner),
            Binding::Seat(t) => self.seat_side(t).map(Asker::Seat),
            Binding::Spectator(t) => self.is_spectator(t).then_some(Asker::Spectator),
        };
        let Some(asker) = asker else {
            return format!(
                r#"{{"notify":{{"change":"{}","seat":"ended"}}}}"#,
                change.name()
            );
        };
        let body = (|| -> Result<Body> {
            let mut b = Body::new().with("change", change.name())?;
            let Some(g) = self.game() else {
                return Ok(b);
            };
            b = b
                .with("count", &g.log_len())?
                .with("pending", &g.pending_json())?;
            let hash = match asker {
                Asker::Seat(s) => g.view_hash(s),
                Asker::Spectator => g.spectator_view_hash()?,
                Asker::Owner | Asker::Unbound => g.state_hash(),
            };
            b = b.with("hash", &hash_hex(hash))?;
            if matches!(change, Change::Apply | Change::Chance(Resolved::Command)) {
                let events = match asker {
                    Asker::Seat(s) => settled_events(g, Some(s)),
                    // As `settled_events`: none while the command waits for a draw.
                    Asker::Spectator if g.chance_node().is_some() => serde_json::json!([]),
                    Asker::Spectator => g.spectator_last_events_json(),
                    Asker::Owner | Asker::Unbound => settled_events(g, None),
                };
                b = b.with("events", &events)?;
            }
            Ok(b)
        })();
        match body {
            Ok(b) => Body::new().with_raw("notify", b.render(None)).render(None),
            Err(_) => format!(r#"{{"notify":{{"change":"{}"}}}}"#, change.name()),
        }
    }
}
