#!/usr/bin/env bash
# The one command that runs everything: format, lint, Rust tests and doctests (the fuzz
# harness fm-ffi/tests/fuzz.rs included: FM_FUZZ_CASES cases per target, 256 by
# default), the examples, a quick pass over the benchmarks, the C ABI (C/C++ examples
# under valgrind), the Python module (venv, wheel, mypy, pytest) and the reference page
# of `serve --listen` in headless Chromium (scripts/test_web.sh). Works from a fresh
# clone.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== rustfmt, clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
echo "== Rust tests"
# The libraries' unit tests, the bins' and the integration tests (two binaries per
# package: tests/suite.rs, fm-ffi/tests/suite.rs). Not fm-py: its extension module has no
# Rust tests (its suite is Python, below); not the benches and examples, which clippy
# checked and the release steps below build and run. The doctests with the same
# packages: another selection would unify other features and build everything again.
cargo test --workspace --exclude fm-py --lib --bins --tests
cargo test --workspace --exclude fm-py --doc
echo "== the socket server's load test, again to show its figures (a debug build's: the README's are --release)"
cargo test --workspace --exclude fm-py --tests hosting::issue_33_load_test -- --nocapture 2>&1 |
    grep "^load test"
echo "== examples"
# Every example built in release (scripts/release_build.sh, the build test_ffi.sh and
# test_web.sh reuse), then play run on each scenario: the binary itself, since `cargo
# run` would select other packages and build again.
./scripts/release_build.sh
PLAY=${CARGO_TARGET_DIR:-target}/release/examples/play
"$PLAY" --scenario system-demo --seed 1 > /dev/null
"$PLAY" --scenario meuse-argonne --seed 1 > /dev/null
"$PLAY" --scenario vimy-ridge --seed 1 > /dev/null
"$PLAY" --scenario suez-1916 --seed 1 > /dev/null
"$PLAY" --scenario system-demo --seed 1 --games 20 --json
echo "== benchmarks (one quick pass each; timings are in docs/performance.md, not asserted)"
# With fm-ffi selected too: the selection of scripts/release_build.sh, whose engine the
# bench profile (release's settings) then reuses.
cargo bench -p fm-core -p fm-ffi --bench engine -- --test
cargo bench -p fm-core -p fm-ffi --bench memory
cargo bench -p fm-core -p fm-ffi --bench costs -- --test
echo "== C ABI"
./scripts/test_ffi.sh
echo "== Python"
./scripts/test_py.sh
echo "== the reference page (headless Chromium)"
./scripts/test_web.sh
echo "test.sh: all checks passed"
