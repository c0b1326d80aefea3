//! `fm._fm`: the native module of the `fm` Python package (Python bindings of
//! `fm-core`, the Fire & Movement rules engine). The public API is the pure-Python
//! package `fm` (fm-py/python/fm), which re-exports these names; this crate holds no
//! rules logic.
//!
//! - `fm.Match` is a match of any registered rules system, through the
//!   system-agnostic layer `fm_core::any` (a second system needs no new class); each
//!   system's typed objects and extras come from its own module (below), and a feature
//!   a system lacks raises `fm.UnsupportedError`.
//! - Commands in: typed `fm.Command` objects are borrowed as they are; dicts in the
//!   documented JSON form are read by direct extraction (no JSON text), with serde as
//!   the fallback that reports malformed input as `fm.ProtocolError`. JSON text is read
//!   strictly (`fm_core::json::parse_strict`: no duplicate key, bounded size).
//! - Events out: one light native object per event, its fields converted to Python
//!   only when first read (another system's: dicts).
//! - Errors: `fm.RuleError`, `fm.ScenarioError`, `fm.ProtocolError`, `fm.SaveError`,
//!   `fm.UnsupportedError` (defined in `fm/_errors.py`); a Rust panic surfaces as
//!   pyo3's `PanicException`, never as a crash.
//! - Pictures as pixels (`picture`): `fm.svg_to_png`, `fm.svg_to_rgb` draw SVG text with
//!   resvg and the system's fonts, for the environment's `rgb_array` mode.
//! - Feature `toy-system` compiles in the toy second rules system of the Rust tests
//!   (`tests/support/race.rs`, scenario `race-to-10`) and registers it, so that the
//!   Python suite can prove the bindings generic (`scripts/test_py.sh` builds with it).
//!
//! # Layout: a system-neutral part and one module per system
//!
//! The crate is layered as the engine is (`fm_core::any` over the systems), with no
//! circle between its modules (`tests/architecture.rs` checks it):
//!
//! - **Neutral**, for every system through `DynMatch`: `args`, `convert`, `errors` and
//!   `typed` (helpers), `picture` (SVG to pixels), `system` (the interface below),
//!   `source` (scenario arguments), `match_` (the `fm.Match` class: play, legal
//!   actions, indices, masks, factored actions, chance, views, saves, think, ...) and
//!   `functions` (`fm.scenarios`, `fm.play_random`, ...). No neutral module names a
//!   system.
//! - **Systems**: `fm` (Fire & Movement: `fm.Scenario`, the typed commands, events,
//!   `fm.Pending`, `fm.LogEntry`, the board picture, odds, observations) and `huzzah`
//!   (Huzzah! Glorious Empires: `fm.huzzah`, the table picture). Each may use the
//!   neutral modules, and neither names the other.
//! - **Registry**: this crate root, the one place that names the systems (as
//!   `fm_core::any` is the engine's): it declares them, adds their classes and
//!   functions to the module, and installs their bindings at import.
//!
//! **The system interface** (`system`): each system implements the trait
//! `system::PySystem` for its match type: hooks for its typed objects (pending
//! decision, commands, events, log), its picture and its own features, each
//! downcasting the `DynMatch` to the system's `GameMatch` itself; a hook it leaves at
//! its default (`None`) gives the neutral behaviour (the match layer's JSON forms, or
//! `fm.UnsupportedError`). The crate root installs the systems' bindings into
//! `system`'s table at import (`system::install`); `fm.Match` finds its system's
//! (`system::of`, by `DynMatch::system`) when it is made, and a system without
//! bindings (the toy system) gets the defaults. The dependency runs one way: the
//! systems use the neutral modules, the neutral modules reach the systems only through
//! the trait.

mod args;
mod convert;
mod errors;
mod fm;
mod functions;
mod huzzah;
mod match_;
mod picture;
#[cfg(feature = "toy-system")]
#[path = "../../tests/support/race.rs"]
mod race;
mod source;
mod system;
mod typed;

use pyo3::prelude::*;

#[pymodule]
fn _fm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The toy system registers itself with the match layer (idempotent), so that
    // `fm.Match("race-to-10")` finds it like any registered system.
    #[cfg(feature = "toy-system")]
    race::register();
    // The systems' bindings, in the match layer's order (Fire & Movement first); a
    // registered system without bindings (the toy system) has the defaults.
    system::install(vec![&fm::SYSTEM, &huzzah::SYSTEM]);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_JSON_DEPTH", convert::MAX_JSON_DEPTH)?;
    m.add("MAX_INPUT_BYTES", convert::MAX_INPUT_BYTES)?;
    functions::add_to(m)?;
    m.add_function(wrap_pyfunction!(picture::svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(picture::svg_to_rgb, m)?)?;
    m.add_function(wrap_pyfunction!(picture::render_fonts, m)?)?;
    m.add_class::<match_::PyMatch>()?;
    fm::add_to(m)?;
    huzzah::add_to(m)?;
    Ok(())
}
