//! Huzzah! Glorious Empires v6.3 (Ian Marsh; pages 1-22 of our copy): fast-play
//! grand-tactical Napoleonic miniatures rules on an open table. Distances in
//! centimetres, square bases, 2D6 for every roll, officers who give orders.
//!
//! One module per rule area: `geometry` (the table: exact positions, facings, faces,
//! ranges, arcs, line of sight, contact), `scenario` (forces, officers, terrain,
//! conditions, validated at load), `quality` (unit quality, pages 4-6).
//! Docs: `docs/huzzah.md` (table format, geometry conventions, stand-in values).

pub mod geometry;
pub mod quality;
pub mod scenario;
