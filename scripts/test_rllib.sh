#!/usr/bin/env bash
# Opt-in test of the RLlib self-play example (fm-py/examples/rllib_selfplay.py): PPO
# trained on Fire & Movement self-play, both sides, on a real two-node Ray cluster
# started on 127.0.0.1 and stopped by the test. Not part of scripts/test_py.sh: RLlib
# pins its own Gymnasium (ray 2.60: gymnasium 1.2.2) and needs torch, so it gets a
# virtual environment of its own, .venv-rllib, created if missing; the fm wheel is
# built into target/wheels-rllib/ (maturin, release; cargo rebuilds only what changed)
# unless FM_WHEEL names one, and installed there with ray[rllib], torch, pettingzoo,
# numpy, pytest and mypy. Then the example and its test are type-checked
# (`mypy --strict`) and the test fm-py/rllib_tests/ runs (its summary is the last line).
#
#   ./scripts/test_rllib.sh                       (from anywhere)
#   FM_WHEEL=target/wheels-py/fm_py-...whl ./scripts/test_rllib.sh
#   FM_RLLIB_VENV=/path/to/venv ./scripts/test_rllib.sh
#
# (relative paths in FM_WHEEL and FM_RLLIB_VENV are from the repository root).
#
# Measured on the 2-core machine with another process training on one core: the
# installs into a new venv about 70 s without a pip cache (5.9 GB: torch's PyPI wheels
# bring CUDA libraries), the wheel about 5 minutes from an empty target/ (seconds when
# cargo has built it before), mypy 25 s, the test 50-100 s. From a fresh clone about 8
# minutes; with target/ built, 2.5 minutes; with the venv too, the test and mypy alone.
# Needs python3.11 (or PYTHON=...) with venv, a Rust toolchain, and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${FM_RLLIB_VENV:-.venv-rllib}
case $VENV in /*) ;; *) VENV="$PWD/$VENV" ;; esac
PYTHON=${PYTHON:-python3.11}
START=$SECONDS
lap() { echo "   ($(( SECONDS - START )) s so far)"; }

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"

echo "== tools: ray[rllib], torch, pettingzoo, pytest, mypy, maturin"
# RLlib's API changes between releases: the example is written against this one.
# --no-compile: Python compiles only what is imported (torch's CUDA wheels are large).
"$PY" -m pip install -q --disable-pip-version-check --no-compile \
    "maturin>=1.7,<2" "ray[rllib]==2.60.0" torch pettingzoo numpy pytest mypy
lap

if [ -n "${FM_WHEEL:-}" ]; then
    WHEEL=$FM_WHEEL
else
    echo "== building the wheel (maturin, release) into target/wheels-rllib"
    rm -rf target/wheels-rllib
    PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --release -m fm-py/Cargo.toml \
        -o target/wheels-rllib 2>&1 | tail -n 2
    WHEELS=(target/wheels-rllib/*.whl)
    WHEEL=${WHEELS[0]}
fi
echo "wheel: $WHEEL"
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEEL"
lap

echo "== mypy --strict (the example and its test)"
(cd fm-py && "$VENV/bin/mypy" --strict --cache-dir=/dev/null \
    examples/rllib_selfplay.py rllib_tests)
lap

echo "== pytest fm-py/rllib_tests (a two-node Ray cluster on 127.0.0.1)"
cd fm-py
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider rllib_tests
