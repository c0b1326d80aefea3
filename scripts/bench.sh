#!/usr/bin/env bash
# Runs the engine benchmarks (criterion, benches/engine.rs) and prints the performance
# issue's table: operation | today's median | target (and the figure the issue
# reported), read from criterion's target/criterion/<group>/<bench>/new/estimates.json.
#
#   ./scripts/bench.sh              full measurement (a few minutes after the build)
#   ./scripts/bench.sh --quick      short measurements (FM_BENCH_QUICK=1), rough figures
#   ./scripts/bench.sh --table      no run: the table from the last run's estimates
#   ./scripts/bench.sh --python     also time the Python bindings next to OpenSpiel
#                                   (benches/python/bench_vs_openspiel.py, in the venv
#                                   FM_VENV, .venv by default, with the fm wheel:
#                                   ./scripts/test_py.sh builds it) and add its rows
#   ./scripts/bench.sh --rows       the performance issue's rows (benches/costs.rs) beside
#                                   a random chess game in OpenSpiel's C++, interleaved,
#                                   CPU time, min and median of ROUNDS (7) rounds
#                                   (benches/python/rows_vs_chess.py; pyspiel from FM_VENV,
#                                   .venv by default, else no anchor); nothing else runs
#   ./scripts/bench.sh --scaling    Huzzah!'s cost curves (generated battles, 5-40 a side);
#                                   --scaling --big adds 200 a side and its save's load
#   ./scripts/bench.sh -- legal/    pass the rest to criterion (a filter)
#
# The medians are measurements, not checks: nothing here fails on a slow figure. Other
# builds sharing the machine's cores move them; run it on an idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
QUICK=0
RUN=1
PYTHON_ROWS=0
ROWS=0
SCALING=0
BIG=0
ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) QUICK=1 ;;
        --table) RUN=0 ;;
        --python) PYTHON_ROWS=1 ;;
        --) shift; ARGS=("$@"); break ;;
        --rows) ROWS=1 ;;
        --scaling) SCALING=1 ;;
        --big) BIG=1 ;;
        -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

TARGET=${CARGO_TARGET_DIR:-target}
if [ "$ROWS" = 1 ] || [ "$SCALING" = 1 ]; then
    # The same packages as scripts/test.sh builds the bench with: one build of fm-core
    # serves both (feature unification differs with fm-ffi in the set).
    COSTS=$(cargo bench -p fm-core -p fm-ffi --bench costs --no-run --message-format=json |
        python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "costs" and m.get("executable"):
        print(m["executable"])')
    if [ "$SCALING" = 1 ]; then
        if [ "$BIG" = 1 ]; then "$COSTS" --scaling --big; else "$COSTS" --scaling; fi
    fi
    if [ "$ROWS" = 1 ]; then
        VENV=${FM_VENV:-.venv}
        PY=python3
        if [ -x "$VENV/bin/python" ]; then PY="$VENV/bin/python"; fi
        "$PY" benches/python/rows_vs_chess.py "$COSTS" --rounds "${ROUNDS:-7}" ${ARGS[@]+"${ARGS[@]}"}
    fi
    exit 0
fi
if [ "$RUN" = 1 ]; then
    if [ "$QUICK" = 1 ]; then export FM_BENCH_QUICK=1; fi
    # criterion's own report goes to stderr, so stdout is the table alone
    cargo bench --bench engine -- ${ARGS[@]+"${ARGS[@]}"} >&2
fi
# The memory of a finished match (benches/memory.rs): printed after the table.
MEMORY=""
if [ "$RUN" = 1 ]; then
    MEMORY=$(cargo bench --bench memory 2>/dev/null | grep -v '^$' || true)
fi

PY_JSON=""
if [ "$PYTHON_ROWS" = 1 ]; then
    VENV=${FM_VENV:-.venv}
    PY_JSON=$(mktemp)
    trap 'rm -f "$PY_JSON"' EXIT
    QUICK_PY=()
    if [ "$QUICK" = 1 ]; then QUICK_PY=(--quick); fi
    "$VENV/bin/python" benches/python/bench_vs_openspiel.py --json ${QUICK_PY[@]+"${QUICK_PY[@]}"} > "$PY_JSON"
fi

python3 - "$TARGET/criterion" "$PY_JSON" <<'EOF'
import json
import os
import sys

crit, py_json = sys.argv[1], sys.argv[2]
US, MS = 1e3, 1e6
# (operation, criterion benchmark or ("python", scenario, op), issue's figure, target; ns)
ROWS = [
    ("Meuse Argonne: a whole seeded random game", "game/meuse-argonne", 362 * MS, 10 * MS),
    ("Vimy Ridge: a whole seeded random game", "game/vimy-ridge", 204 * MS, 10 * MS),
    ("Suez 1916: a whole seeded random game", "game/suez-1916", 135 * MS, 10 * MS),
    ("system-demo: a whole seeded random game", "game/system-demo", None, None),
    ("Huzzah! huzzah-encounter: a whole seeded random game", "game/huzzah-encounter", None, None),
    ("Meuse Argonne: the same game, every command drawn from the whole listing", "game_listing/meuse-argonne", None, None),
    ("Vimy Ridge: the same, from the whole listing", "game_listing/vimy-ridge", None, None),
    ("Suez 1916: the same, from the whole listing", "game_listing/suez-1916", None, None),
    ("`legal_commands`, Meuse movement start", "legal/meuse_movement_start", 360 * US, 40 * US),
    ("`legal_commands` again after one move (same phase)", "legal/meuse_after_one_move", 240 * US, 5 * US),
    ("`Match::legal_indices` after that move (same phase)", "legal/meuse_indices_after_one_move", None, None),
    ("legal moves of one unit (`legal_commands_for`, Meuse, mean over its units)", "legal/meuse_one_unit", 15.7 * US, 1.5 * US),
    ("`apply` of a move, Meuse mid-game (`Fm::apply`)", "apply/meuse_move_midgame", 10.6 * US, 1 * US),
    ("`Match::apply` of that move (fold, hash, log)", "match_apply/meuse_move_midgame", None, None),
    ("`apply` of `done`, Vimy movement phase", "apply/vimy_done_movement", 241 * US, 10 * US),
    ("`State::clone`, Meuse mid-game", "state/clone_meuse", 1.12 * US, 0.1 * US),
    ("`State::hash`, Meuse mid-game", "state/hash_meuse", 2.36 * US, 0.2 * US),
    ("`Match::clone`, Meuse mid-game", "match/clone_meuse_midgame", 123 * US, 2 * US),
    ("`Match::index_to_command` of a move, Meuse mid-game", "match/index_to_command_midgame", 11 * US, None),
    ("`undo` at the end of a Meuse game", "match/undo_meuse_end", 33 * MS, 50 * US),
    ("`Match::load` of a finished Meuse game", "match/load_meuse_finished", 43 * MS, 5 * MS),
    ("Huzzah! `legal_commands`, huzzah-encounter, its longest menu", "legal/huzzah_encounter", None, None),
    ("Python `apply_action` (a move, Meuse movement start)", ("python", "meuse-argonne", "apply_action"), 43.6 * US, 3 * US),
    ("Python `legal_action_mask(out=array)` (Meuse movement start)", ("python", "meuse-argonne", "legal_action_mask"), 494 * US, 50 * US),
    ("Python `sample_legal_action` (Meuse movement start)", ("python", "meuse-argonne", "sample_legal_action"), None, None),
    ("Python `clone` (Meuse movement start)", ("python", "meuse-argonne", "clone"), None, None),
    ("Python: a whole random Meuse game (`sample_legal_action` + `apply_action`)", ("python", "meuse-argonne", "random_game"), None, None),
]


def fmt(ns):
    if ns is None:
        return "—"
    for unit, scale in (("ms", MS), ("µs", US)):
        if ns >= scale:
            v = ns / scale
            break
    else:
        unit, v = "ns", ns
    return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"


def criterion_median(name):
    group, bench = name.split("/", 1)
    path = os.path.join(crit, group, bench, "new", "estimates.json")
    try:
        with open(path) as f:
            return json.load(f)["median"]["point_estimate"]
    except (OSError, KeyError, ValueError):
        return None


py = None
if py_json:
    with open(py_json) as f:
        py = json.load(f)

print("| operation | today's median | target | issue's figure | benchmark |")
print("|---|---|---|---|---|")
for op, bench, issue, target in ROWS:
    if isinstance(bench, tuple):
        if py is None:
            continue
        _, scenario, what = bench
        today = py["medians_ns"].get(scenario, {}).get(what)
        bench = f"bench_vs_openspiel.py: {scenario} {what}"
    else:
        today = criterion_median(bench)
    print(f"| {op} | {fmt(today)} | {'≤ ' + fmt(target) if target else '—'} | {fmt(issue)} | `{bench}` |")
if py is not None:
    print()
    print(py["markdown"])
EOF
if [ -n "$MEMORY" ]; then
    echo
    echo '```text'
    echo "$MEMORY"
    echo '```'
fi
