//! Architecture invariants that a test can check (ARCHITECTURE.md).
//!
//! **No system-rule module names a game module.** The F&M system rules
//! (`fm-core/src/fm/*.rs`) and the system-agnostic layer (`fm-core/src/*.rs`) reach a
//! game's exclusive rules only through the `ExclusiveRules` trait
//! (`fm-core/src/fm/exclusive.rs`); the one place that names the games is the registry,
//! `fm-core/src/fm/games/mod.rs`, which system modules may use for `RuleSet`,
//! `rules_for` and `Rules` (the dispatch over the games) alone.

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

fn system_files(src: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [src.to_path_buf(), src.join("fm")] {
        for e in std::fs::read_dir(&dir).expect("source dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
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
