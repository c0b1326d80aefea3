//! Architecture invariants that a test can check (ARCHITECTURE.md).
//!
//! **The layers.** fm-core's modules are in three layers: the system-neutral match
//! layer and its helpers (`NEUTRAL`), the rules systems (`fm/`, `huzzah/`), and the
//! registry of systems (`any`, with the crate root's re-exports), the one place that
//! names the systems. A neutral module reaches only neutral modules, and a system only
//! the neutral modules and itself, each by its module path (`crate::game::Game`, not
//! the root's `crate::Game`, which could be any layer's).
//!
//! **No system-rule module names a game module.** The F&M system rules
//! (`fm-core/src/fm/*.rs`) and the system-agnostic layer (`fm-core/src/*.rs`) reach a
//! game's exclusive rules only through the `ExclusiveRules` trait
//! (`fm-core/src/fm/exclusive.rs`); the one place that names the games is the registry,
//! `fm-core/src/fm/games/mod.rs`, which system modules may use for `RuleSet`,
//! `rules_for` and `Rules` (the dispatch over the games) alone.
//!
//! **The Python bindings are layered likewise.** fm-py's modules (`fm-py/src`) are
//! system-neutral (`PY_NEUTRAL`) or one rules system's (`PY_SYSTEMS`); the crate root
//! (`lib.rs`) is the registry, the one place that names the systems. The graph of
//! `crate::<module>` paths between its modules has no circle, a neutral module names
//! only neutral modules, and a system only the neutral modules and itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The game modules (`fm-core/src/fm/games/*.rs` besides the registry).
fn game_modules(src: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(src.join("fm/games"))
        .expect("fm/games")
        .filter_map(|e| {
            let p = e.ok()?.path();
            let stem = p.file_stem()?.to_str()?.to_string();
            (p.extension()? == "rs" && stem != "mod").then_some(stem)
        })
        .collect();
    out.sort();
    out
}

/// The `.rs` files under `dir`, its subfolders included, but those under `skip`.
fn rs_files(dir: &Path, skip: &[&Path], out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("source dir") {
        let p = e.expect("entry").path();
        if skip.iter().any(|s| p == *s) {
            continue;
        }
        if p.is_dir() {
            rs_files(&p, skip, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The F&M system rules and the system-agnostic layer: every file of fm-core's
/// sources but the games' (`fm/games/`) and the other system's (`huzzah/`).
fn system_files(src: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    rs_files(src, &[&src.join("fm/games"), &src.join("huzzah")], &mut out);
    out.sort();
    out
}

#[test]
fn no_system_rule_module_names_a_game_module() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let games = game_modules(&src);
    assert!(
        games.len() >= 4 && games.iter().any(|g| g == "suez_1916"),
        "the game modules were not found: {games:?}"
    );
    let files = system_files(&src);
    assert!(files.len() > 20, "the system modules were not found");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        // lib.rs re-exports the game modules (and `observed`) at their public paths.
        let lib = f.file_name().is_some_and(|n| n == "lib.rs");
        for (k, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if lib && code.trim_start().starts_with("pub use fm::games::") {
                continue;
            }
            for g in &games {
                // A module is named as a path into it (`g::`), a path to it (`::g`) or
                // its declaration (`mod g`).
                let named = [format!("{g}::"), format!("::{g}"), format!("mod {g}")]
                    .iter()
                    .any(|p| {
                        code.match_indices(p.as_str()).any(|(i, _)| {
                            let before = code[..i].chars().next_back();
                            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                                || p.starts_with("::")
                        })
                    });
                if named {
                    found.push(format!("{}:{}: {}", f.display(), k + 1, line.trim()));
                }
            }
            for (i, _) in code.match_indices("games::") {
                let rest = &code[i + "games::".len()..];
                if !["RuleSet", "rules_for", "Rules"]
                    .iter()
                    .any(|r| rest.starts_with(r))
                {
                    found.push(format!("{}:{}: {}", f.display(), k + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "system-rule modules name game modules (use the ExclusiveRules trait):\n{}",
        found.join("\n")
    );
}

/// The names of the functions declared at one indentation level of the block that
/// starts with the line `opening` (up to its closing `}` line).
fn fns_of_block(text: &str, opening: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with(opening))
        .skip(1)
        .take_while(|l| *l != "}")
        .filter_map(|l| l.strip_prefix("    fn "))
        .map(|l| l.split(['(', '<']).next().unwrap_or("").to_string())
        .collect();
    out.sort();
    out
}

/// **The dispatch over the games forwards every hook.** `Rules` (the registry's enum
/// over the games) implements `ExclusiveRules` by forwarding each method to the game;
/// a method it does not forward would silently run the trait's default (the system
/// rules) for every game, whatever the game overrides.
#[test]
fn the_game_dispatch_forwards_every_exclusive_rule() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |p: &str| std::fs::read_to_string(src.join(p)).expect("source file");
    let declared = fns_of_block(&read("fm/exclusive.rs"), "pub(crate) trait ExclusiveRules");
    let forwarded = fns_of_block(&read("fm/games/mod.rs"), "impl ExclusiveRules for Rules");
    assert!(
        declared.len() > 40,
        "the trait's methods are found: {declared:?}"
    );
    assert_eq!(
        declared, forwarded,
        "every ExclusiveRules method is forwarded by Rules"
    );
}

/// The system-neutral modules of fm-core (`src/<name>.rs` or `src/<name>/`): the match
/// layer and the helpers every system shares.
const NEUTRAL: &[&str] = &[
    "chance",
    "dynmatch",
    "error",
    "factored",
    "game",
    "ids",
    "infostate",
    "json",
    "query",
    "rng",
    "search",
    "svg",
];

/// The rules systems' folders.
const SYSTEMS: &[&str] = &["fm", "huzzah"];

/// The registry: the one module besides the crate root that names the systems.
const REGISTRY: &str = "any";

/// Source text without its comments (line comments, doc comments included, and block
/// comments), so that prose may name anything. Strings are kept, and a `//` inside one
/// ends the line's code early, which can only hide a path, never invent one.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segments of the paths a file's code takes from the crate root:
/// `crate::game::Game` gives `game`; `use crate::{error::RuleError, ids::Side}` gives
/// `error` and `ids`; `super::x` in a top-level module counts as `crate::x`.
fn root_paths(code: &str, top_level: bool) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut prefixes = vec!["crate::"];
    if top_level {
        prefixes.push("super::");
    }
    for prefix in prefixes {
        for (i, _) in code.match_indices(prefix) {
            if code[..i].chars().next_back().is_some_and(ident) {
                continue;
            }
            let rest = code[i + prefix.len()..].trim_start();
            if let Some(group) = rest.strip_prefix('{') {
                // The group's top-level items, up to its closing brace.
                let (mut depth, mut item, mut end) = (0usize, String::new(), false);
                for c in group.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => end = true,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push(item.trim().split("::").next().unwrap_or("").to_string());
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    if end {
                        break;
                    }
                    if depth == 0 {
                        item.push(c);
                    }
                }
                let last = item.trim().split("::").next().unwrap_or("").to_string();
                if !last.is_empty() {
                    out.push(last);
                }
            } else {
                let name: String = rest.chars().take_while(|c| ident(*c)).collect();
                out.push(name);
            }
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// The top-level module a file of `src` belongs to (`game` for `src/game/log.rs`).
fn top_module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component");
    let name = first.as_os_str().to_str().expect("utf-8");
    name.strip_suffix(".rs").unwrap_or(name).to_string()
}

/// Every path from a file to the crate root that its layer does not allow, as
/// `file:line-less path` findings: `allowed` are the first segments it may take.
fn disallowed(src: &Path, files: &[PathBuf], allowed: &dyn Fn(&str, &str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).expect("readable source");
        let module = top_module(src, f);
        // `super::` of a top-level file, or of a top-level folder's mod.rs, is the root.
        let top_level = f.parent() == Some(src)
            || (f.file_name().is_some_and(|n| n == "mod.rs")
                && f.parent().and_then(Path::parent) == Some(src));
        for name in root_paths(&code_of(&text), top_level) {
            if !allowed(&module, &name) {
                found.push(format!("{}: crate::{name}", f.display()));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_module_of_fm_core_is_in_one_layer() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut declared: Vec<String> = code_of(&lib)
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub ")
                .or_else(|| l.strip_prefix("pub(crate) "))
                .unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect();
    declared.sort();
    let mut layered: Vec<String> = NEUTRAL
        .iter()
        .chain(SYSTEMS)
        .chain([&REGISTRY])
        .map(|s| s.to_string())
        .collect();
    layered.sort();
    assert_eq!(
        declared, layered,
        "each module of lib.rs is neutral, a system or the registry (tests/architecture.rs)"
    );
}

#[test]
fn no_system_neutral_module_names_a_system() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for m in NEUTRAL {
        let (file, dir) = (src.join(format!("{m}.rs")), src.join(m));
        if file.exists() {
            files.push(file);
        }
        if dir.is_dir() {
            rs_files(&dir, &[], &mut files);
        }
    }
    assert!(
        files.len() >= 11,
        "the neutral modules were not found: {files:?}"
    );
    let found = disallowed(&src, &files, &|_, name| NEUTRAL.contains(&name));
    assert!(
        found.is_empty(),
        "system-neutral modules reach beyond the neutral layer (name a neutral module's \
         path, never a system's or the crate root's re-export):\n{}",
        found.join("\n")
    );
    // The test sees what it must: a path to a system is found.
    let probe = "use crate::{game::Game, fm::Fm};\nlet x = crate::huzzah::Huzzah;";
    assert_eq!(root_paths(probe, false), ["game", "fm", "huzzah"]);
}

#[test]
fn neither_system_names_the_other() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    for system in SYSTEMS {
        let mut files = Vec::new();
        rs_files(&src.join(system), &[], &mut files);
        assert!(files.len() > 10, "the {system} files were not found");
        let found = disallowed(&src, &files, &|module, name| {
            NEUTRAL.contains(&name) || name == module
        });
        assert!(
            found.is_empty(),
            "{system} reaches beyond its own modules and the neutral layer (the crate \
             root's re-exports included):\n{}",
            found.join("\n")
        );
        // `super::` from the system's mod.rs reaches the root too.
        for f in &files {
            let code = code_of(&std::fs::read_to_string(f).expect("readable source"));
            for other in SYSTEMS.iter().filter(|o| *o != system) {
                assert!(
                    !code.contains(&format!("super::{other}")),
                    "{} names {other}",
                    f.display()
                );
            }
        }
    }
}

/// fm-py's system-neutral modules (`fm-py/src/<name>.rs` or `fm-py/src/<name>/`): the
/// `fm.Match` class and everything that works through the match layer for any system,
/// their helpers, and the interface the systems implement (`system`).
const PY_NEUTRAL: &[&str] = &[
    "args",
    "convert",
    "errors",
    "functions",
    "match_",
    "picture",
    "source",
    "system",
    "typed",
];

/// fm-py's rules systems: each one's typed objects and extras.
const PY_SYSTEMS: &[&str] = &["fm", "huzzah"];

/// Modules fm-py's root declares from outside `fm-py/src`: the toy rules system of these
/// tests (`tests/support/race.rs`, compiled in by the feature `toy-system`).
const PY_EXTERNAL: &[&str] = &["race"];

/// fm-py's sources.
fn py_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fm-py/src")
}

/// The modules a crate root declares (`mod x;`, `pub mod x;`, ...).
fn declared_modules(lib: &str) -> Vec<String> {
    let mut declared: Vec<String> = code_of(lib)
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub ")
                .or_else(|| l.strip_prefix("pub(crate) "))
                .unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect();
    declared.sort();
    declared
}

/// The module graph of a crate's sources `src`: each top-level module (`src/<name>.rs`
/// or `src/<name>/`; the crate root `lib.rs` left out) and the first segments of the
/// paths from the crate root its files' code takes (`crate::x`, `use crate::{x, y}`,
/// `super::x` in a top-level file), itself left out.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rs_files(src, &[], &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        if *f == src.join("lib.rs") {
            continue;
        }
        let module = top_module(src, f);
        // `super::` of a top-level file, or of a top-level folder's mod.rs, is the root.
        let top_level = f.parent() == Some(src)
            || (f.file_name().is_some_and(|n| n == "mod.rs")
                && f.parent().and_then(Path::parent) == Some(src));
        let text = std::fs::read_to_string(f).expect("readable source");
        let names = graph.entry(module.clone()).or_default();
        for name in root_paths(&code_of(&text), top_level) {
            if name != module {
                names.insert(name);
            }
        }
    }
    graph
}

/// A circle of `graph`, as the modules along it with the first repeated at the end
/// (`["a", "b", "a"]`), if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit<'g>(
        node: &'g str,
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'g str>,
        done: &mut BTreeSet<&'g str>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == node) {
            let mut cycle: Vec<String> = path[i..].iter().map(|p| p.to_string()).collect();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node);
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn fm_py_modules_are_layered_without_a_circle() {
    let src = py_src();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("fm-py/src/lib.rs");
    let declared = declared_modules(&lib);
    let mut layered: Vec<String> = PY_NEUTRAL
        .iter()
        .chain(PY_SYSTEMS)
        .chain(PY_EXTERNAL)
        .map(|s| s.to_string())
        .collect();
    layered.sort();
    assert_eq!(
        declared, layered,
        "each module of fm-py's lib.rs is neutral or a system (tests/architecture.rs)"
    );
    let graph = module_graph(&src);
    for m in PY_NEUTRAL.iter().chain(PY_SYSTEMS) {
        assert!(graph.contains_key(*m), "fm-py's module {m} was not found");
    }
    // Every path from the root names a module: a path to an item of the root (a
    // re-export) would hide which module it reaches.
    let mut found = Vec::new();
    for (module, names) in &graph {
        for name in names {
            if !declared.contains(name) {
                found.push(format!("{module}: crate::{name} (not a module of fm-py)"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "fm-py's modules take paths into the crate root itself (name the module):\n{}",
        found.join("\n")
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "fm-py's modules form a circle: {} (the systems use the neutral modules, \
             which reach them only through the crate::system interface)",
            cycle.join(" -> ")
        );
    }
    let mut found = Vec::new();
    for (module, names) in &graph {
        let neutral = PY_NEUTRAL.contains(&module.as_str());
        for name in names {
            if !PY_NEUTRAL.contains(&name.as_str()) {
                let what = if neutral { "neutral module" } else { "system" };
                found.push(format!("{what} {module} names crate::{name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a neutral module of fm-py names only neutral modules, a system only the neutral \
         modules and itself (only the crate root, the registry, names the systems):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_module_graph_check_sees_circles_and_paths() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(
        find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(
        find_cycle(&graph(&[
            ("match_", "system"),
            ("fm", "system"),
            ("fm", "match_")
        ])),
        None
    );
    assert_eq!(
        find_cycle(&graph(&[("match_", "fm"), ("fm", "match_")])),
        Some(vec!["fm".into(), "match_".into(), "fm".into()])
    );
    // The paths of fm-py's own forms: a group with nested groups, a path in code, and a
    // `super::` from a top-level file; comments are not code.
    let probe = "use crate::system::{self, Play};\nuse crate::{fm::SYSTEM, huzzah::{a, b}};\n\
                 let x = crate::match_::PyMatch::new();\nuse super::typed;\n\
                 // crate::source is in a comment\n/* and crate::args in a block */";
    assert_eq!(
        root_paths(&code_of(probe), true),
        ["system", "fm", "huzzah", "match_", "typed"]
    );
}
