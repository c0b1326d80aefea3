//! fm-ffi's integration tests, one module per file, built as one test binary (linking
//! the engine once instead of once per file). Run one file's tests with its module name
//! as the filter, e.g. `cargo test -p fm-ffi --test suite fuzz::`.
//!
//! `tests/systems.rs`, which registers the toy race system for the whole process, is
//! its own binary.

mod c_api;
mod compact;
mod fuzz;
mod header;
mod hosting;
mod listen;
mod parity;
mod picture;
mod serve_doc;
#[path = "../../tests/serve.rs"]
mod serve_stdio;
mod support;
