//! Durable matches (`serve --listen --journal FILE`, `docs/serve.md` "The journal"):
//! every accepted change of the match (`new`, `load`, `apply`, `undo`, `apply_chance`,
//! a seat handed out, a match discarded by a panic) is appended to the journal as one
//! JSON line and flushed to disk (`fsync`) before its reply is sent, so that a reply a
//! client has seen is never lost, whatever kills the process. A server started on an
//! existing journal replays it ([`Core::open_journal`]): every record is applied as it
//! was and checked against the state hash written with it, as a `load` checks a save;
//! a last record cut short by the crash (never answered, since its write had not
//! finished) is reported and dropped.
//!
//! The records, one JSON object a line, each with the state hash after it (`null`
//! without a match):
//!
//! - `{"op":"owner","format":1,"token":T}`: the first line, the owner's token.
//! - `{"op":"match","save":S,"hash":H}`: a `new` or `load`; `S` is the match's save
//!   (its scenario, seed, chance mode and commands), as a string.
//! - `{"op":"apply","command":C,"hash":H}` or `{"op":"apply","index":I,"hash":H}`.
//! - `{"op":"undo","hash":H}`, `{"op":"chance","outcome":K,"hash":H}`.
//! - `{"op":"seat","token":T,"side":"a"|"b"|"spectator","hash":H}`.
//! - `{"op":"none","hash":null}`: the match was discarded (a panic).

use super::dispatch::Core;
use super::notify::Change;
use super::reply::hash_hex;
use fm_core::any;
use fm_core::json::parse_strict;
use fm_core::Side;
use serde_json::{json, Map, Value};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The journal's format, in its first record.
const FORMAT: u64 = 1;

/// The largest journal a server resumes from (a match's records and its saves).
pub const MAX_JOURNAL_BYTES: u64 = 1 << 30;

/// An open journal: the file appended to, and whether a write has failed (from then
/// on the server refuses changes: memory and disk would part).
pub(super) struct Journal {
    file: File,
    path: PathBuf,
    pub(super) failed: Option<String>,
}

/// What [`Core::open_journal`] found in an existing journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The records replayed (the owner's record included).
    pub records: usize,
    /// The commands of the match resumed (0 without a match).
    pub commands: usize,
    /// A torn last record that was dropped: its length in bytes.
    pub dropped_bytes: usize,
}

/// Why a journal cannot be used.
#[derive(Debug)]
pub struct JournalError {
    /// The journal's path.
    pub path: PathBuf,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "journal {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for JournalError {}

impl Journal {
    /// Appends one record and flushes it to the disk.
    fn write(&mut self, record: &Value) -> io::Result<()> {
        let mut line = record.to_string();
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.sync_data()
    }
}

impl Core {
    /// Keeps this core's match in the journal at `path` from now on. A missing or empty
    /// journal is created (readable by its owner only: it holds the tokens) and starts
    /// with this core's owner token (`Ok(None)`). An existing one is replayed into
    /// this core, its owner's token, match and seats, each record checked against its
    /// state hash, and `Ok(Some(…))` says what was found; a torn last record is
    /// dropped from the file.
    ///
    /// # Errors
    /// The file cannot be read or written, is larger than [`MAX_JOURNAL_BYTES`], is not
    /// a journal, or a record does not replay to the hash written with it.
    pub fn open_journal(&mut self, path: &Path) -> Result<Option<Resumed>, JournalError> {
        let err = |message: String| JournalError {
            path: path.to_path_buf(),
            message,
        };
        let mut options = OpenOptions::new();
        options.read(true).append(true).create(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path).map_err(|e| err(e.to_string()))?;
        let meta = file.metadata().map_err(|e| err(e.to_string()))?;
        if !meta.is_file() {
            return Err(err("not a regular file".into()));
        }
        let size = meta.len();
        if size > MAX_JOURNAL_BYTES {
            return Err(err(format!(
                "{size} bytes, more than the {MAX_JOURNAL_BYTES} a server resumes from"
            )));
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.read_to_end(&mut bytes)
            .map_err(|e| err(e.to_string()))?;
        let mut journal = Journal {
            file,
            path: path.to_path_buf(),
            failed: None,
        };
        // The lines whole (ended by a newline); what follows the last newline is a
        // record whose write the crash cut short.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let lines: Vec<&[u8]> = match whole {
            0 => Vec::new(),
            _ => bytes[..whole - 1].split(|&b| b == b'\n').collect(),
        };
        let mut kept = whole;
        let mut records = Vec::with_capacity(lines.len());
        for (n, line) in lines.iter().enumerate() {
            match serde_json::from_slice::<Map<String, Value>>(line) {
                Ok(r) => records.push(r),
                // A last line that does not parse is torn too (written, never answered).
                Err(_) if n + 1 == lines.len() => kept -= line.len() + 1,
                Err(e) => return Err(err(format!("record {}: not a record: {e}", n + 1))),
            }
        }
        let dropped_bytes = bytes.len() - kept;
        let drop_torn = |journal: &mut Journal| {
            if dropped_bytes == 0 {
                return Ok(());
            }
            journal
                .file
                .set_len(kept as u64)
                .and_then(|()| journal.file.sync_data())
                .map_err(|e| err(format!("cannot drop the torn last record: {e}")))
        };
        if records.is_empty() {
            drop_torn(&mut journal)?;
            // Nothing whole: a new journal (its first record was cut short).
            let token = self.owner_token.clone().unwrap_or_default();
            journal
                .write(&json!({"op":"owner","format":FORMAT,"token":token}))
                .map_err(|e| err(e.to_string()))?;
            self.journal = Some(journal);
            return Ok((dropped_bytes > 0).then_some(Resumed {
                records: 0,
                commands: 0,
                dropped_bytes,
            }));
        }
        let mut fresh = Core::default();
        for (n, r) in records.iter().enumerate() {
            fresh
                .replay(r, n == 0)
                .map_err(|m| err(format!("record {}: {m}", n + 1)))?;
        }
        drop_torn(&mut journal)?;
        let resumed = Resumed {
            records: records.len(),
            commands: fresh.game.as_ref().map_or(0, |g| g.log_len()),
            dropped_bytes,
        };
        fresh.issued = self.issued;
        *self = fresh;
        self.journal = Some(journal);
        Ok(Some(resumed))
    }

    /// Applies one journal record to this core and checks the hash it carries.
    fn replay(&mut self, r: &Map<String, Value>, first: bool) -> Result<(), String> {
        let op = r.get("op").and_then(Value::as_str).unwrap_or("");
        if first != (op == "owner") {
            return Err(if first {
                "a journal starts with the owner's record".into()
            } else {
                "a second owner's record".into()
            });
        }
        let string = |k: &str| {
            r.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("\"{k}\" must be a string"))
        };
        match op {
            "owner" => {
                if r.get("format").and_then(Value::as_u64) != Some(FORMAT) {
                    return Err(format!("not a journal of format {FORMAT}"));
                }
                self.owner_token = Some(string("token")?.to_string());
                return Ok(());
            }
            "match" => {
                let m = any::load_match(string("save")?).map_err(|e| e.to_string())?;
                self.seats.clear();
                self.spectators.clear();
                self.game = Some(m);
            }
            "none" => {
                self.game = None;
                self.seats.clear();
                self.spectators.clear();
            }
            "seat" => {
                self.current().map_err(|_| "a seat without a match")?;
                let token = string("token")?.to_string();
                match string("side")? {
                    "a" => self.seats.push((token, Side::A)),
                    "b" => self.seats.push((token, Side::B)),
                    "spectator" => self.spectators.push(token),
                    other => return Err(format!("unknown side {other}")),
                }
            }
            "apply" | "undo" | "chance" => {
                let g = self.game.as_mut().ok_or("a change without a match")?;
                match op {
                    "apply" => {
                        let command = match (r.get("command"), r.get("index")) {
                            (Some(c), None) => c.clone(),
                            (None, Some(i)) => i
                                .as_u64()
                                .and_then(|i| g.command_at(i as usize))
                                .ok_or("an index that names no command")?,
                            _ => return Err("an apply needs \"command\" or \"index\"".into()),
                        };
                        g.apply_json(&command).map_err(|e| e.to_string())?;
                    }
                    "undo" => {
                        if !g.undo() {
                            return Err("an undo with nothing to undo".into());
                        }
                    }
                    _ => {
                        let k = r
                            .get("outcome")
                            .and_then(Value::as_u64)
                            .and_then(|k| u32::try_from(k).ok())
                            .ok_or("\"outcome\" must be a number")?;
                        g.apply_chance(k).map_err(|e| e.to_string())?;
                    }
                }
            }
            other => return Err(format!("unknown op {other:?}")),
        }
        let now = self.game.as_ref().map(|g| hash_hex(g.state_hash()));
        let written = r.get("hash").and_then(Value::as_str).map(str::to_string);
        if now != written {
            return Err(format!(
                "it replays to the state hash {}, the journal says {} (another version of fm, \
                 or an edited journal)",
                now.as_deref().unwrap_or("null"),
                written.as_deref().unwrap_or("null"),
            ));
        }
        Ok(())
    }

    /// The journal's failure, if a write has failed: from then on changes are refused.
    pub(super) fn journal_failed(&self) -> Option<String> {
        let j = self.journal.as_ref()?;
        j.failed.as_ref().map(|why| {
            format!(
                "the journal {} could not be written ({why}): the server accepts no more \
                 changes, so that what it answers stays what is on disk",
                j.path.display()
            )
        })
    }

    /// Writes the record of a change just made (`None` when not journaling), with the
    /// state hash now; a failed write is remembered ([`Core::journal_failed`]) and
    /// given back.
    pub(super) fn journal_record(&mut self, mut record: Map<String, Value>) -> Result<(), String> {
        let hash = self.game.as_ref().map(|g| hash_hex(g.state_hash()));
        let Some(j) = self.journal.as_mut() else {
            return Ok(());
        };
        record.insert("hash".into(), json!(hash));
        j.write(&Value::Object(record)).map_err(|e| {
            let why = e.to_string();
            j.failed = Some(why.clone());
            why
        })
    }

    /// The record of what request `req` just changed (`change`; `tokens` is how many
    /// seats and spectators there were before it), if it changed anything a journal
    /// keeps.
    pub(super) fn record_of(
        &self,
        req: &Map<String, Value>,
        change: Option<Change>,
        tokens: (usize, usize),
    ) -> Option<Map<String, Value>> {
        let mut r = Map::new();
        let op = |r: &mut Map<String, Value>, op: &str| {
            r.insert("op".into(), op.into());
        };
        match change {
            Some(Change::New | Change::Load) => match &self.game {
                Some(g) => {
                    op(&mut r, "match");
                    r.insert("save".into(), Value::String(g.save()));
                }
                None => op(&mut r, "none"),
            },
            Some(Change::Apply) => {
                op(&mut r, "apply");
                match (req.get("command"), req.get("index")) {
                    // A command given inside a string was read from it strictly.
                    (Some(Value::String(s)), _) => {
                        r.insert("command".into(), parse_strict(s).ok()?);
                    }
                    (Some(c), _) => {
                        r.insert("command".into(), c.clone());
                    }
                    (None, Some(i)) => {
                        r.insert("index".into(), i.clone());
                    }
                    (None, None) => return None,
                }
            }
            Some(Change::Undo) => op(&mut r, "undo"),
            Some(Change::Chance(_)) => {
                op(&mut r, "chance");
                r.insert("outcome".into(), req.get("outcome")?.clone());
            }
            None if self.seats.len() > tokens.0 => {
                let (token, side) = self.seats.last()?;
                op(&mut r, "seat");
                r.insert("token".into(), token.as_str().into());
                r.insert("side".into(), side.to_string().into());
            }
            None if self.spectators.len() > tokens.1 => {
                op(&mut r, "seat");
                r.insert("token".into(), self.spectators.last()?.as_str().into());
                r.insert("side".into(), "spectator".into());
            }
            None => return None,
        }
        Some(r)
    }

    /// The seats of the current match: each token and its side, in the order they
    /// were handed out.
    pub fn seat_tokens(&self) -> Vec<(String, Side)> {
        self.seats.clone()
    }

    /// The spectators' tokens of the current match, in the order they were handed out.
    pub fn spectator_tokens(&self) -> Vec<String> {
        self.spectators.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Core, Session};

    fn ask(core: &mut Core, me: &mut Session, line: &str) -> Value {
        let r = core.handle(me, line).expect("a reply");
        serde_json::from_str(&r.line).expect("JSON")
    }

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("fm-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        p
    }

    /// A core with a journal at `path`, as the owner's session of a socket server.
    fn journaled(path: &Path) -> (Core, Session, Option<Resumed>) {
        let mut core = Core::socket();
        let resumed = core.open_journal(path).expect("open the journal");
        let mut me = Session::socket();
        let token = core.owner_token().unwrap().to_string();
        let bound = ask(
            &mut core,
            &mut me,
            &json!({"cmd":"bind","token":token}).to_string(),
        );
        assert_eq!(bound["bound"], "owner");
        (core, me, resumed)
    }

    fn state_hash(core: &Core) -> String {
        hash_hex(core.game().expect("a match").state_hash())
    }

    #[test]
    fn issue_33_a_journal_resumes_every_kind_of_change() {
        let path = temp("kinds");
        let (mut core, mut me, resumed) = journaled(&path);
        assert_eq!(resumed, None, "a new journal");
        let owner = core.owner_token().unwrap().to_string();
        ask(
            &mut core,
            &mut me,
            r#"{"cmd":"new","scenario":"system-demo","seed":4}"#,
        );
        // A command by index, one as JSON, one as a string of JSON, then an undo.
        let i = ask(&mut core, &mut me, r#"{"cmd":"legal","form":"indices"}"#)["legal"][0].clone();
        ask(
            &mut core,
            &mut me,
            &json!({"cmd":"apply","index":i}).to_string(),
        );
        let c = ask(&mut core, &mut me, r#"{"cmd":"legal"}"#)["legal"][0].clone();
        ask(
            &mut core,
            &mut me,
            &json!({"cmd":"apply","command":c}).to_string(),
        );
        let c = ask(&mut core, &mut me, r#"{"cmd":"legal"}"#)["legal"][0].clone();
        let r = ask(
            &mut core,
            &mut me,
            &json!({"cmd":"apply","command":c.to_string()}).to_string(),
        );
        assert!(r["events"].is_array(), "{r}");
        assert_eq!(ask(&mut core, &mut me, r#"{"cmd":"undo"}"#)["undone"], true);
        let seat = ask(&mut core, &mut me, r#"{"cmd":"seat","side":"b"}"#)["seat"].clone();
        let watcher =
            ask(&mut core, &mut me, r#"{"cmd":"seat","side":"spectator"}"#)["seat"].clone();
        let refused = ask(
            &mut core,
            &mut me,
            r#"{"cmd":"apply","command":{"type":"move","unit":"nobody","path":[]}}"#,
        );
        assert!(
            refused["error"].is_object(),
            "a refused command is not journaled"
        );
        let hash = state_hash(&core);
        let save = ask(&mut core, &mut me, r#"{"cmd":"save"}"#)["save"].to_string();
        drop(core);
        let (again, _, resumed) = journaled(&path);
        let resumed = resumed.expect("resumed");
        assert_eq!((resumed.commands, resumed.dropped_bytes), (2, 0));
        assert_eq!(
            resumed.records, 8,
            "owner, new, 3 applies, undo, seat, spectator"
        );
        assert_eq!(again.owner_token(), Some(owner.as_str()));
        assert_eq!(state_hash(&again), hash);
        assert_eq!(
            again.seat_tokens(),
            vec![(seat.as_str().unwrap().to_string(), Side::B)]
        );
        assert_eq!(
            again.spectator_tokens(),
            vec![watcher.as_str().unwrap().to_string()]
        );
        assert_eq!(again.game().unwrap().save(), save);
        // A load, and explicit chance with its outcomes, resume too.
        let (mut core, mut me, _) = journaled(&path);
        ask(
            &mut core,
            &mut me,
            &json!({"cmd":"load","save":save}).to_string(),
        );
        let mut r = ask(
            &mut core,
            &mut me,
            r#"{"cmd":"new","scenario":"huzzah-firefight","seed":2,"chance_mode":"explicit"}"#,
        );
        // Play the first legal command, and roll every draw, until a few dice are in.
        let (mut draws, mut applied) = (0, 0);
        for _ in 0..2000 {
            if let Some(node) = r.get("chance").filter(|c| !c.is_null()).cloned() {
                let k = draws % node["outcomes"].as_u64().unwrap();
                r = ask(
                    &mut core,
                    &mut me,
                    &json!({"cmd":"apply_chance","outcome":k}).to_string(),
                );
                draws += 1;
            } else if draws >= 3 {
                break;
            } else {
                let i = ask(&mut core, &mut me, r#"{"cmd":"legal","form":"indices"}"#)["legal"][0]
                    .clone();
                r = ask(
                    &mut core,
                    &mut me,
                    &json!({"cmd":"apply","index":i}).to_string(),
                );
                assert!(r["error"].is_null(), "{r}");
                applied += 1;
            }
        }
        assert!(draws >= 3, "no dice in the battle: {r}");
        let hash = state_hash(&core);
        drop(core);
        let (again, _, resumed) = journaled(&path);
        assert_eq!(state_hash(&again), hash);
        assert_eq!(again.seat_tokens(), vec![], "a new match ends the seats");
        assert!(again.spectator_tokens().is_empty(), "and the spectators");
        assert_eq!(resumed.unwrap().records, 8 + 2 + applied + draws as usize);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn issue_33_a_torn_last_record_is_dropped_and_an_edited_one_refused() {
        let path = temp("torn");
        let (mut core, mut me, _) = journaled(&path);
        ask(
            &mut core,
            &mut me,
            r#"{"cmd":"new","scenario":"system-demo","seed":4}"#,
        );
        let hash = state_hash(&core);
        let c = ask(&mut core, &mut me, r#"{"cmd":"legal"}"#)["legal"][0].clone();
        ask(
            &mut core,
            &mut me,
            &json!({"cmd":"apply","command":c}).to_string(),
        );
        drop(core);
        let whole = std::fs::read(&path).unwrap();
        // The apply's record cut short, as by a crash mid-write: it was never answered.
        let cut = whole.len() - 9;
        std::fs::write(&path, &whole[..cut]).unwrap();
        let (again, _, resumed) = journaled(&path);
        let resumed = resumed.unwrap();
        assert_eq!((resumed.records, resumed.commands), (2, 0));
        let last_line = whole[..whole.len() - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .unwrap()
            + 1;
        assert_eq!(resumed.dropped_bytes, cut - last_line);
        assert_eq!(state_hash(&again), hash);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            whole[..last_line],
            "dropped from the file"
        );
        drop(again);
        // A whole last line that is not JSON was torn too.
        let mut garbled = whole[..last_line].to_vec();
        garbled.extend_from_slice(b"{\"op\":\"app\n");
        std::fs::write(&path, &garbled).unwrap();
        let (again, _, resumed) = journaled(&path);
        assert_eq!(resumed.unwrap().dropped_bytes, 11);
        assert_eq!(state_hash(&again), hash);
        drop(again);
        // A record whose hash is not what it replays to is refused, naming it.
        let text = String::from_utf8(whole.clone()).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut second: Value = serde_json::from_str(&lines[1]).unwrap();
        assert_eq!(second["hash"], hash);
        second["hash"] = json!("0123456789abcdef");
        lines[1] = second.to_string();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let e = Core::socket().open_journal(&path).map(|_| ()).unwrap_err();
        assert!(
            e.to_string()
                .contains("record 2: it replays to the state hash"),
            "{e}"
        );
        // Not a journal at all; a second owner's record; not a regular file.
        std::fs::write(&path, "hello\nworld\n").unwrap();
        let e = Core::socket().open_journal(&path).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("record 1: not a record"), "{e}");
        let first = text.lines().next().unwrap();
        std::fs::write(&path, format!("{first}\n{first}\n")).unwrap();
        let e = Core::socket().open_journal(&path).map(|_| ()).unwrap_err();
        assert!(
            e.to_string().contains("record 2: a second owner's record"),
            "{e}"
        );
        #[cfg(unix)]
        {
            let e = Core::socket()
                .open_journal(Path::new("/dev/null"))
                .map(|_| ())
                .unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn issue_33_a_failed_write_refuses_every_later_change() {
        let path = temp("failed");
        let (mut core, mut me, _) = journaled(&path);
        ask(
            &mut core,
            &mut me,
            r#"{"cmd":"new","scenario":"system-demo","seed":4}"#,
        );
        // The journal's file swapped for one that cannot be written.
        core.journal.as_mut().unwrap().file = File::open(&path).unwrap();
        let c = ask(&mut core, &mut me, r#"{"cmd":"legal"}"#)["legal"][0].clone();
        let r = ask(
            &mut core,
            &mut me,
            &json!({"cmd":"apply","command":c}).to_string(),
        );
        assert_eq!(r["error"]["rule"], "journal", "{r}");
        let r = ask(&mut core, &mut me, r#"{"cmd":"undo"}"#);
        assert_eq!(r["error"]["rule"], "journal", "{r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("accepts no more changes"),
            "{r}"
        );
        // Reading goes on.
        assert!(ask(&mut core, &mut me, r#"{"cmd":"pending"}"#)["pending"].is_object());
        let _ = std::fs::remove_file(&path);
    }
}
