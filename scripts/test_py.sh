#!/usr/bin/env bash
# Tests the Python module (fm-py): creates the virtual environment .venv if it is
# missing, installs the build and test tools into it, builds the abi3 wheel with
# maturin (release, with the toy second rules system: feature toy-system), installs
# it, type-checks the examples and the package with `mypy --strict`, runs the
# random-agents example and smoke passes of benches/python/bench_vs_openspiel.py and
# bench_env.py (seconds; no timing checked), and runs the pytest suite fm-py/tests (its summary is
# the last line). Exits non-zero on any failure.
#
#   ./scripts/test_py.sh                 (from anywhere; works from a fresh clone)
#   FM_VENV=/path/to/venv ./scripts/test_py.sh
#
# Needs python3 (3.11 or later) with venv, a Rust toolchain, and PyPI for the tools
# (maturin, pytest, numpy, gymnasium, pettingzoo, supersuit, mypy, open_spiel for
# fm-py/tests/test_openspiel.py; stable-baselines3 with torch and sb3-contrib for the
# environment's check_env and MaskablePPO tests).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${FM_VENV:-.venv}
# Absolute, so that it holds after the `cd fm-py` below (FM_VENV may be either).
case $VENV in /*) ;; *) VENV="$PWD/$VENV" ;; esac
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
# An absolute path, so that the steps run from fm-py/ find it too (FM_VENV may be either).
VENV=$(cd "$VENV" && pwd)
PY="$VENV/bin/python"

echo "== tools"
"$PY" -m pip install -q --disable-pip-version-check \
    "maturin>=1.7,<2" pytest numpy gymnasium pettingzoo supersuit mypy open_spiel
# Stable-Baselines3 needs torch, whose PyPI wheels for Linux bring CUDA: about 5.3 GB
# in the venv and about 65-125 s to download and unpack on the 2-core machine (measured
# in a fresh venv; --no-compile saves a third of its CPU: Python compiles only what is
# imported). It is installed in the background while the wheel builds, and waited for
# before anything else touches the venv.
SB3_LOG="$VENV/sb3-install.log"
"$PY" -m pip install -q --disable-pip-version-check --no-compile \
    stable-baselines3 sb3-contrib > "$SB3_LOG" 2>&1 &
SB3_PID=$!
# If the build fails, the install does not outlive the script.
trap 'if [ -n "$SB3_PID" ]; then kill "$SB3_PID" 2>/dev/null || true; fi' EXIT

echo "== building the wheel (maturin, release, abi3, with the toy rules system)"
rm -rf target/wheels-py
# Feature toy-system compiles in the toy second rules system of the Rust tests
# ("race-to-10"), which fm-py/tests/test_systems.py plays through fm.Match; a plain
# `pip install ./fm-py` is built without it.
"$VENV/bin/maturin" build --release -m fm-py/Cargo.toml --features toy-system \
    -o target/wheels-py 2>&1 | tail -n 3
if ! wait "$SB3_PID"; then
    cat "$SB3_LOG"
    echo "test_py.sh: installing stable-baselines3 and sb3-contrib failed" >&2
    SB3_PID=""
    exit 1
fi
SB3_PID=""
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheels-py/*.whl

echo "== mypy --strict"
# Run from fm-py/ so the installed package (with its stubs) is what is checked.
(cd fm-py && "$VENV/bin/mypy" --strict --cache-dir=/dev/null examples python/fm tests)

echo "== example: random agents through the PettingZoo environment"
"$PY" fm-py/examples/random_env.py --games 1

echo "== benchmark script, smoke pass (the timings: scripts/bench.sh --python)"
"$PY" benches/python/bench_vs_openspiel.py --smoke > /dev/null
"$PY" benches/python/bench_env.py --smoke > /dev/null

echo "== pytest"
cd fm-py
# Every tool is installed: a test that needs one fails rather than skips without it.
export FM_TEST_NEEDS_ALL=1
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests
