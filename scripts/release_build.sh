#!/usr/bin/env bash
# The one release build the test scripts share (test.sh, test_ffi.sh, test_web.sh):
# fm-core and fm-ffi, their libraries (libfm.so, libfm.a), bins (serve) and examples
# (play, pictures...). One command, one selection of packages and targets: cargo unifies
# the dependencies' features over what a command builds (the examples bring the
# dev-dependencies), so two different commands would each build the engine and its
# dependencies again.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo build --release -p fm-core -p fm-ffi --lib --bins --examples "$@"
