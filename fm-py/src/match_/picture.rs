//! `Match.svg` and `Match._repr_svg_` for every system: the options of another system's
//! picture refused (`TypeError` naming them and this system's own), then the picture
//! drawn by the match's system's bindings, or `fm.UnsupportedError` for a system that
//! draws none.

use crate::errors::systems_only;
use crate::system::{self, PySystem, SvgArgs};
use fm_core::any::DynMatch;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The `fm.UnsupportedError` of `what` (`"Match.svg"`) for a system without a picture.
fn no_picture(what: &str, system: &str) -> PyErr {
    systems_only(
        what,
        &system::feature_of(|s| s.svg_options().is_some()),
        system,
    )
}

/// The `TypeError` for `Match.svg` options given that are another system's: `given`
/// (theirs, in the signature's order), `own` this system's options.
fn wrong_options(given: &[&str], own: &[&str], system: &str) -> PyResult<()> {
    let Some(first) = given.first() else {
        return Ok(());
    };
    let of = system::all()
        .iter()
        .find(|s| s.svg_options().is_some_and(|o| o.contains(first)))
        .map_or("another rules system's", |s| s.title());
    Err(PyTypeError::new_err(format!(
        "Match.svg: {} {} {of} option{}; this match is of the {system:?} rules system \
         (its options: {})",
        given.join(", "),
        if given.len() == 1 { "is a" } else { "are" },
        if given.len() == 1 { "" } else { "s" },
        own.join(", "),
    )))
}

/// `Match.svg(...)` of `m`, whose system's bindings are `sys`.
pub fn svg(
    py: Python<'_>,
    sys: &dyn PySystem,
    m: &dyn DynMatch,
    args: SvgArgs<'_, '_>,
) -> PyResult<String> {
    let Some(own) = sys.svg_options() else {
        return Err(no_picture("Match.svg", m.system()));
    };
    let other: Vec<&str> = args
        .given()
        .into_iter()
        .filter(|name| !own.contains(name))
        .collect();
    wrong_options(&other, own, m.system())?;
    sys.svg(py, m, args)
        .unwrap_or_else(|| Err(no_picture("Match.svg", m.system())))
}

/// `Match._repr_svg_()` of `m`: the picture with the default options.
pub fn repr_svg(sys: &dyn PySystem, m: &dyn DynMatch) -> PyResult<String> {
    sys.repr_svg(m)
        .ok_or_else(|| no_picture("Match._repr_svg_", m.system()))
}
