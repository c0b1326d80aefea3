//! Keeps `docs/serve.md` honest: every ```` ```jsonl ```` transcript in it (`> ` request
//! lines, `< ` reply lines) is replayed against a fresh protocol server, and each reply
//! must match the documented one. A `…` in a documented reply stands for any text.

use fm::protocol::Server;
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

#[test]
fn the_matcher() {
    assert!(matches("abc", "abc"));
    assert!(!matches("abc", "abcd"));
    assert!(matches("a…d", "abcd"));
    assert!(matches("a…c…e", "abcde"));
    assert!(!matches("a…c…e", "aedc"));
    assert!(matches("…", "anything"));
}
