//! fm-core's integration tests, one module per file of `tests/`, built as one test
//! binary: some thirty binaries, each linking the engine, made building them most of
//! the suite's time. Run one file's tests with its module name as the filter, e.g.
//! `cargo test -p fm-core --test suite rules_combat::`.

mod common;
#[path = "support/race.rs"]
mod race;

mod action_indices;
mod architecture;
mod chance;
mod conformance;
mod conformance_any;
mod determinized;
mod factored;
mod huzzah_ai;
mod huzzah_golden;
mod huzzah_json;
mod huzzah_orders;
mod huzzah_play;
mod huzzah_rules;
mod huzzah_start;
mod length;
mod meuse_data;
mod no_leak;
mod properties;
mod protocol_doc;
mod queries;
mod render;
mod reseed;
mod rules_combat;
mod rules_meuse;
mod rules_movement;
mod rules_suez;
mod rules_suez_combat;
mod rules_vimy;
mod rules_vimy_artillery;
mod save_files;
mod scenario_validation;
mod search;
mod suez_data;
mod vimy_data;

/// The built-in scenarios of every registered rules system except the toy race: the
/// tests of `conformance_any` and `factored` register it (`race::register`), and a
/// registration lasts for the whole process, so the other tests, which cover the
/// systems fm-core ships, leave it out whenever it was registered.
pub fn builtin_scenarios() -> Vec<&'static str> {
    let race = <race::Race as fm_core::Game>::builtin_names();
    fm_core::any::builtin_scenarios()
        .into_iter()
        .filter(|n| !race.contains(n))
        .collect()
}
