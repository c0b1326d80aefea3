#!/usr/bin/env bash
# The one command that runs everything: format, lint, tests, doctests, examples.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --all-targets
cargo test --workspace --doc
cargo run --release --example play -- --scenario system-demo --seed 1 > /dev/null
cargo run --release --example play -- --scenario system-demo --seed 1 --games 20 --json
# Benchmarks compile and run once each (timings are reported in the README, not asserted).
cargo bench --bench engine -- --test
echo "test.sh: all checks passed"
