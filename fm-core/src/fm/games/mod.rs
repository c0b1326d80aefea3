//! The F&M games fm knows, one module each ([`meuse_argonne`], [`vimy_ridge`],
//! [`suez_1916`], and the WWI artillery the first two share, `artillery`), and which
//! exclusive rules a scenario's `rules` selects.
//!
//! This registry is the one place that names every game: a new game adds its
//! parameters to [`RuleSet`] and its [`ExclusiveRules`] implementation to
//! [`rules_for`] (see `docs/adding-a-game.md`). The system-rule modules reach a game
//! only through [`crate::Scenario::rules`].

pub(crate) mod artillery;
pub mod meuse_argonne;
pub mod suez_1916;
pub mod vimy_ridge;

use crate::fm::exclusive::{ExclusiveRules, SystemRules};
use serde::{Deserialize, Serialize};

/// Which exclusive-rule set applies.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSet {
    /// The system rules 1.0-9.0 only.
    #[default]
    System,
    /// Meuse Argonne exclusive rules 10.0-19.0, with their parameters.
    MeuseArgonne(Box<crate::fm::games::meuse_argonne::MeuseArgonneParams>),
    /// Vimy Ridge exclusive rules 10.0-21.0, with their parameters.
    VimyRidge(Box<crate::fm::games::vimy_ridge::VimyRidgeParams>),
    /// Suez 1916 exclusive rules 10.0-20.0, with their parameters.
    #[serde(rename = "suez-1916")]
    Suez1916(Box<crate::fm::games::suez_1916::Suez1916Params>),
}

/// The exclusive rules a rule set selects (chosen once, when a scenario loads).
pub(crate) fn rules_for(rules: &RuleSet) -> &'static dyn ExclusiveRules {
    match rules {
        RuleSet::System => &SystemRules,
        RuleSet::MeuseArgonne(_) => &crate::fm::games::meuse_argonne::MeuseArgonne,
        RuleSet::VimyRidge(_) => &crate::fm::games::vimy_ridge::VimyRidge,
        RuleSet::Suez1916(_) => &crate::fm::games::suez_1916::Suez1916,
    }
}
