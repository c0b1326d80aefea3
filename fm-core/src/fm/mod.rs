//! The Fire & Movement system rules, Version 8 (Decision Games, 2023): one module per
//! rule area, each opening with the rule sections it covers, and the games built on
//! them in [`games`].
//!
//! - Data: [`hex`] (2.1), [`mp`] (5.2, 5.4), [`scenario`] (2.0, 3.0), [`crt`] (8.2.4,
//!   the CRT), [`state`] (4.1), [`command`] and [`event`] (the vocabulary and the fold).
//! - Rules: [`sequence`] (3.0, 4.0-4.1), [`movement`] (5.0-5.5), [`zoc`] (6.0),
//!   [`support_fire`] (7.0-7.2), [`bombardment`] (8.1), [`combat`] (8.0, 8.2),
//!   [`retreat`] (8.3-8.5), [`victory`].
//! - Entry points and queries: [`engine`] (`apply`), [`legal`], [`encoding`], [`odds`],
//!   [`view`] and [`hidden`] (what each side may know), [`playable`] (set-up room),
//!   [`los`], [`render`], [`agents`].
//! - [`exclusive`]: the one trait through which the system rules reach a game's
//!   exclusive rules; [`games`]: the games and the registry that picks one.

pub mod agents;
pub(crate) mod bombardment;
pub(crate) mod combat;
pub(crate) mod command;
pub(crate) mod crt;
pub(crate) mod encoding;
pub(crate) mod engine;
pub(crate) mod event;
pub(crate) mod exclusive;
pub mod games;
pub(crate) mod hex;
pub(crate) mod hidden;
pub(crate) mod legal;
pub mod los;
pub(crate) mod movement;
pub(crate) mod mp;
pub(crate) mod odds;
pub(crate) mod playable;
pub mod render;
pub(crate) mod retreat;
pub(crate) mod scenario;
pub(crate) mod sequence;
pub(crate) mod state;
pub(crate) mod support_fire;
pub(crate) mod victory;
pub(crate) mod view;
pub mod zoc;
