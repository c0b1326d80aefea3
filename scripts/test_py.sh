#!/usr/bin/env bash
# Tests the Python module (fm-py) as users get it: creates the virtual environment .venv
# if it is missing and installs the build and test tools into it; checks that the
# generated field table (fm-py/python/fm/_field_docs.py) is current; builds the abi3
# manylinux wheel with maturin (release, with the toy second rules system: feature
# toy-system) into target/wheels-py/, audited by maturin against its manylinux tag;
# installs it alone into a fresh virtual environment of each CPython found (3.11, and
# a newer one if the machine has one) and plays there; installs it into .venv,
# type-checks the examples and the package with `mypy --strict`; checks that a source
# build without cargo fails at once with its message; runs the random-agents example
# and smoke passes of benches/python/bench_vs_openspiel.py, rows_python.py, bench_gil.py and bench_env.py (seconds;
# no timing checked); and runs the pytest suite fm-py/tests against the installed
# wheel (its summary is the last line). Exits non-zero on any failure.
#
#   ./scripts/test_py.sh                 (from anywhere; works from a fresh clone)
#   FM_VENV=/path/to/venv ./scripts/test_py.sh
#
# Needs python3 (3.11 or later) with venv, a Rust toolchain, and PyPI for the tools
# (maturin, ziglang, pytest, numpy, gymnasium, pettingzoo, supersuit, mypy, open_spiel
# for fm-py/tests/test_openspiel.py; stable-baselines3 with torch and sb3-contrib for
# the environment's check_env and MaskablePPO tests; Ray for fm-py/tests/test_tournament.py,
# which starts a two-node Ray cluster on this machine).
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
# ziglang: zig as the linker (maturin --zig, below), to link against an older glibc
# than this machine's; a PyPI wheel holding zig, nothing downloaded at build time.
"$PY" -m pip install -q --disable-pip-version-check \
    "maturin>=1.7,<2" "ziglang<1" pytest numpy gymnasium pettingzoo supersuit mypy open_spiel
# Stable-Baselines3 needs torch, whose PyPI wheels for Linux bring CUDA: about 5.3 GB
# in the venv and about 65-125 s to download and unpack on the 2-core machine (measured
# in a fresh venv; --no-compile saves a third of its CPU: Python compiles only what is
# imported). Ray (fm.tournament's backend="ray", fm-py's extra "ray") adds about 300 MB
# and 23 s (with --no-compile; 37 s without) to a fresh venv on the same machine. Both are
# installed in the background, in one pip run, while the wheel builds, and waited for
# before anything else touches the venv.
BG_LOG="$VENV/background-install.log"
"$PY" -m pip install -q --disable-pip-version-check --no-compile \
    stable-baselines3 sb3-contrib "ray[default]>=2.9" > "$BG_LOG" 2>&1 &
BG_PID=$!
# If the build fails, the install does not outlive the script.
trap 'if [ -n "$BG_PID" ]; then kill "$BG_PID" 2>/dev/null || true; fi' EXIT

echo "== field table (scripts/gen_py_fields.py --check)"
"$PY" scripts/gen_py_fields.py --check

echo "== building the wheel (maturin, release, abi3, manylinux_2_17, with the toy rules system)"
rm -rf target/wheels-py
# Feature toy-system compiles in the toy second rules system of the Rust tests
# ("race-to-10"), which fm-py/tests/test_systems.py plays through fm.Match; a plain
# `pip install ./fm-py` is built without it.
# --compatibility manylinux_2_17 --zig: linked by zig against glibc 2.17's symbols, so
# that the one wheel installs on any x86_64 Linux with glibc 2.17 or later; a plain
# build on this machine (glibc 2.36) is tagged manylinux_2_35 (it needs glibc 2.35).
# maturin audits the wheel (its auditwheel check of every glibc symbol version and
# linked library against the manylinux policy) and fails if the tag does not hold.
# The venv first on PATH: maturin runs zig as `python3 -m ziglang`.
PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --release -m fm-py/Cargo.toml \
    --features toy-system --compatibility manylinux_2_17 --zig -o target/wheels-py 2>&1 | tail -n 3
WHEELS=(target/wheels-py/*.whl)
WHEEL=${WHEELS[0]}
case $(basename "$WHEEL") in
    # maturin writes the two equivalent platform tags in either order, by version.
    fm_py-*-cp311-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl | \
    fm_py-*-cp311-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl) echo "wheel: $WHEEL" ;;
    *) echo "test_py.sh: unexpected wheel: $WHEEL (want cp311-abi3-manylinux_2_17_x86_64)" >&2
       exit 1 ;;
esac

echo "== the wheel alone, in a fresh venv of each CPython found"
# abi3: one wheel for CPython 3.11 and later. Each interpreter gets a new venv holding
# only the wheel (fm's core needs nothing else). A newer CPython is tried when the
# machine has one (pyenv's builds on the development image); none is downloaded.
SMOKE=$(mktemp -d)
declare -A SEEN=()
for cand in "$PY" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[1-9]*/bin/python3 \
        /usr/bin/python3.1[1-9] /usr/local/bin/python3.1[1-9]; do
    [ -x "$cand" ] || continue
    ver=$("$cand" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
    [ -z "${SEEN[$ver]:-}" ] || continue
    SEEN[$ver]=1
    "$cand" -m venv "$SMOKE/$ver"
    "$SMOKE/$ver/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$WHEEL"
    (cd "$SMOKE" && "$SMOKE/$ver/bin/python" "$OLDPWD/fm-py/tests/wheel_smoke.py")
done
rm -rf "$SMOKE"
if [ "${#SEEN[@]}" -lt 2 ]; then
    echo "(only CPython ${!SEEN[*]} on this machine: the wheel was tried on that one alone)"
fi

if ! wait "$BG_PID"; then
    cat "$BG_LOG"
    echo "test_py.sh: installing stable-baselines3, sb3-contrib and ray failed" >&2
    BG_PID=""
    exit 1
fi
BG_PID=""
"$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEEL"

echo "== mypy --strict"
# Run from fm-py/ so the installed package (with its stubs) is what is checked. The
# stubs' signatures are checked against the module by fm-py/tests/test_packaging.py.
(cd fm-py && "$VENV/bin/mypy" --strict --cache-dir=/dev/null examples python/fm tests)

echo "== a source build without cargo fails at once, downloading nothing"
# maturin's own backend would fetch a Rust toolchain (puccinialin) when cargo is not
# on PATH; fm-py's (fm-py/build_backend/fm_build_backend.py) stops with a message.
NOCARGO=$(tr ':' '\n' <<< "$PATH" | while read -r d; do
    if [ -n "$d" ] && [ ! -x "$d/cargo" ]; then echo "$d"; fi; done | paste -sd:)
NOWHEEL=$(mktemp -d)
# `pip wheel`, not install: were the check ever to pass, .venv keeps the tested wheel.
if OUT=$(PATH="$VENV/bin:$NOCARGO" "$PY" -m pip wheel --disable-pip-version-check \
        --no-build-isolation --no-deps -w "$NOWHEEL" ./fm-py 2>&1); then
    echo "$OUT"; echo "test_py.sh: the source build without cargo did not fail" >&2; exit 1
fi
if ! grep -q 'cannot build from source: `cargo` (Rust) is not on PATH' <<< "$OUT"; then
    echo "$OUT"; echo "test_py.sh: the source build without cargo failed without its message" >&2
    exit 1
fi
rm -rf "$NOWHEEL"

echo "== example: random agents through the PettingZoo environment"
"$PY" fm-py/examples/random_env.py --games 1

echo "== benchmark script, smoke pass (the timings: scripts/bench.sh --python)"
"$PY" benches/python/bench_vs_openspiel.py --smoke > /dev/null
"$PY" benches/python/bench_env.py --smoke > /dev/null
"$PY" benches/python/rows_python.py --smoke > /dev/null
"$PY" benches/python/bench_gil.py --smoke > /dev/null
FM_VENV="$VENV" ./scripts/bench.sh --rows -- --smoke > /dev/null

echo "== pytest"
cd fm-py
# Every tool is installed: a test that needs one fails rather than skips without it.
export FM_TEST_NEEDS_ALL=1
# The suite checks that it runs against the installed wheel (test_packaging.py).
export FM_TEST_INSTALLED_WHEEL=1
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests
