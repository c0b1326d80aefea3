//! Unit quality (pages 4-6).
