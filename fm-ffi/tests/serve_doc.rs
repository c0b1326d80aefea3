//! Keeps `docs/serve.md` honest: every ```` ```jsonl ```` transcript in it (`> ` request
//! lines, `< ` reply lines) is replayed against a fresh protocol server, and each reply
//! must match the documented one. A `…` in a documented reply stands for any text.
//!
//! A ```` ```jsonl socket ```` transcript is a socket server's: `NAME> ` is a request on
//! connection NAME and `NAME< ` a line that connection receives, its reply first and
//! then the notifications of the other connections in the order they first spoke. In
//! it `"$NAME"` in a reply takes the string there (a token) and in a request gives it
//! back; `$OWNER` is the owner's token.

use fm::protocol::{Core, Server, Session, Step};
use std::collections::HashMap;
use std::path::Path;

/// Whether `actual` matches `pattern`, where each `…` in the pattern matches any text.
fn matches(pattern: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('…').collect();
    if pieces.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for p in &pieces[1..pieces.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

/// The transcripts of the document: for each, its (request, reply) pairs.
fn transcripts(doc: &str) -> Vec<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<(String, String)>> = None;
    let mut request: Option<String> = None;
    for (n, line) in doc.lines().enumerate() {
        let n = n + 1;
        match (&mut current, line.trim_end()) {
            (None, "```jsonl") => current = Some(Vec::new()),
            (None, _) => {}
            (Some(_), l) if l.starts_with("```") && l != "```" => {
                panic!("line {n}: a block inside a transcript")
            }
            (Some(_), "```") => {
                assert!(request.is_none(), "line {n}: a request without a reply");
                out.push(current.take().expect("in a block"));
            }
            (Some(pairs), l) => {
                if let Some(r) = l.strip_prefix("> ") {
                    assert!(request.is_none(), "line {n}: two requests in a row");
                    request = Some(r.to_string());
                } else if let Some(r) = l.strip_prefix("< ") {
                    let q = request
                        .take()
                        .unwrap_or_else(|| panic!("line {n}: a reply without a request"));
                    pairs.push((q, r.to_string()));
                } else {
                    panic!("line {n}: a transcript line starts with '> ' or '< ': {l}");
                }
            }
        }
    }
    assert!(current.is_none(), "an unterminated jsonl block");
    out
}

#[test]
fn every_transcript_in_serve_md_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/serve.md");
    let doc = std::fs::read_to_string(&path).expect("docs/serve.md");
    let blocks = transcripts(&doc);
    assert!(blocks.len() >= 3, "docs/serve.md has its transcripts");
    let mut checked = 0;
    for block in blocks {
        let mut server = Server::new();
        for (request, documented) in block {
            let reply = server
                .handle_line(&request)
                .unwrap_or_else(|| panic!("no reply to {request}"));
            assert!(
                matches(&documented, &reply.line),
                "docs/serve.md is out of date.\n request:    {request}\n documented: {documented}\n actual:     {}",
                reply.line
            );
            checked += 1;
        }
    }
    assert!(checked >= 20);
}

/// One line of a socket transcript: the connection, whether it is a request, the text.
type SocketLine = (String, bool, String);

/// The socket transcripts of the document.
fn socket_transcripts(doc: &str) -> Vec<Vec<SocketLine>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<SocketLine>> = None;
    for (n, line) in doc.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```jsonl socket") => current = Some(Vec::new()),
            (None, _) => {}
            (Some(_), "```") => out.push(current.take().expect("in a block")),
            (Some(lines), l) => {
                let (name, rest) = l
                    .split_once(['>', '<'])
                    .unwrap_or_else(|| panic!("line {}: NAME> or NAME<: {l}", n + 1));
                let request = l.as_bytes()[name.len()] == b'>';
                let text = rest.strip_prefix(' ').expect("a space after > or <");
                lines.push((name.to_string(), request, text.to_string()));
            }
        }
    }
    out
}

/// Matches `actual` against `pattern` after putting the known `"$NAME"`s in, taking the
/// unknown ones from `actual` (each stands for one JSON string's contents).
fn matches_capturing(pattern: &str, actual: &str, vars: &mut HashMap<String, String>) -> bool {
    let mut p = pattern.to_string();
    for (k, v) in vars.iter() {
        p = p.replace(&format!("\"${k}\""), &format!("\"{v}\""));
    }
    let Some(start) = p.find("\"$") else {
        return matches(&p, actual);
    };
    let end = start + 2 + p[start + 2..].find('"').expect("a closing quote");
    let name = p[start + 2..end].to_string();
    // The text of actual before the capture must match the pattern's prefix; the
    // capture is the string that follows.
    let prefix = &p[..start + 1];
    for (i, _) in actual.match_indices('"') {
        if matches(prefix, &actual[..i + 1]) {
            let rest = &actual[i + 1..];
            let Some(close) = rest.find('"') else {
                continue;
            };
            let mut with = vars.clone();
            with.insert(name.clone(), rest[..close].to_string());
            if matches_capturing(pattern, actual, &mut with) {
                *vars = with;
                return true;
            }
        }
    }
    false
}

#[test]
fn every_socket_transcript_in_serve_md_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/serve.md");
    let doc = std::fs::read_to_string(&path).expect("docs/serve.md");
    let blocks = socket_transcripts(&doc);
    assert!(!blocks.is_empty(), "docs/serve.md has a socket transcript");
    for block in blocks {
        let mut core = Core::with_owner_token("owner-doc".into());
        let mut vars = HashMap::from([("OWNER".to_string(), "owner-doc".to_string())]);
        let mut sessions: Vec<(String, Session)> = Vec::new();
        let mut expected: std::collections::VecDeque<(String, String)> = Default::default();
        for (name, request, text) in block {
            if !request {
                let (who, got) = expected
                    .pop_front()
                    .unwrap_or_else(|| panic!("documented but not sent: {name}< {text}"));
                assert!(
                    who == name && matches_capturing(&text, &got, &mut vars),
                    "docs/serve.md is out of date.\n documented: {name}< {text}\n actual:     {who}< {got}"
                );
                continue;
            }
            assert!(expected.is_empty(), "not documented: {expected:?}");
            if !sessions.iter().any(|(n, _)| *n == name) {
                sessions.push((name.clone(), Session::socket()));
            }
            let mut line = text.clone();
            for (k, v) in &vars {
                line = line.replace(&format!("\"${k}\""), &format!("\"{v}\""));
            }
            let me = sessions.iter().position(|(n, _)| *n == name).unwrap();
            let step = core
                .handle_deferred(&mut sessions[me].1, &line)
                .expect("a reply");
            let (reply, change) = match step {
                Step::Done(r, c) => (r, c),
                Step::Think(job) => (job.run(), None),
                Step::Load(job) => core.finish_load(job.run()),
            };
            expected.push_back((name.clone(), reply.line));
            if let Some(change) = change {
                for (other, s) in &sessions {
                    if *other != name {
                        if let Some(b) = s.notified() {
                            expected.push_back((other.clone(), core.notification(b, change)));
                        }
                    }
                }
            }
        }
        assert!(expected.is_empty(), "not documented: {expected:?}");
    }
}

#[test]
fn the_matcher() {
    assert!(matches("abc", "abc"));
    assert!(!matches("abc", "abcd"));
    assert!(matches("a…d", "abcd"));
    assert!(matches("a…c…e", "abcde"));
    assert!(!matches("a…c…e", "aedc"));
    assert!(matches("…", "anything"));
}
