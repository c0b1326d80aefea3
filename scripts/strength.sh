#!/usr/bin/env bash
# Measures the built-in AI's strength (issues 18 and 30): the MCTS agent against the
# random agent, as each side of every built-in scenario of both rules systems, played
# by fm.tournament (`python -m fm.tournament`, the installed fm), and prints the table of
# docs/learning.md ("The built-in AI", markdown): games, MCTS wins with their 95% Wilson
# interval, draws, and the CPU time per MCTS decision. A benchmark, not a test: nothing
# is asserted, and the full run takes hours on 2 cores (tens of minutes on a cluster).
#
#   ./scripts/strength.sh                       (from anywhere; the table on stdout)
#   GAMES=10 DEMO_GAMES=100 ITERATIONS=40 JOBS=2 ./scripts/strength.sh
#   SCENARIOS=system-demo DEMO_GAMES=2 ./scripts/strength.sh      (a quick look)
#   BACKEND=ray ADDRESS=HEAD:6379 JOBS=16 ./scripts/strength.sh   (on a Ray cluster)
#
# Knobs: SCENARIOS (default every built-in one but the toy race-to-10); Fire & Movement:
# GAMES a row (10), DEMO_GAMES for system-demo (100), ITERATIONS a decision (40);
# Huzzah!: HUZZAH_GAMES a row (40), HUZZAH_ITERATIONS (2000) or THINK_MS of wall-clock
# time (500) a decision, whichever comes first, and HUZZAH_SEARCH, the other search
# settings ('{"max_priors":100}'); SEED, the first game's seed (1000, one game per seed
# after it); JOBS, games at once (2: worker processes, or Ray tasks); BACKEND (local or
# ray) and ADDRESS (the Ray cluster's, HOST:PORT); OUT, where each row's JSON lines go
# (target/strength); PY, the Python with fm installed (default: FM_VENV's, .venv, which
# ./scripts/test_py.sh makes, else python3). DETAIL=1 prints the longer Huzzah! table of
# ./scripts/strength_huzzah.sh (losses, longest decision, iterations, searches cut short,
# the load average).
#
# Every game is seeded, so a rerun plays the same games on any machine and any backend,
# except where a time budget cut a search short (the "cut short" column of DETAIL=1):
# how far a search gets in its time depends on the machine and its load. Fire & Movement
# rows have no time budget. The times are CPU seconds in the worker, this machine's.
set -euo pipefail
cd "$(dirname "$0")/.."
SCENARIOS=${SCENARIOS:-"system-demo meuse-argonne vimy-ridge suez-1916 huzzah-firefight huzzah-encounter"}
GAMES=${GAMES:-10}
DEMO_GAMES=${DEMO_GAMES:-100}
ITERATIONS=${ITERATIONS:-40}
HUZZAH_GAMES=${HUZZAH_GAMES:-40}
HUZZAH_ITERATIONS=${HUZZAH_ITERATIONS:-2000}
THINK_MS=${THINK_MS:-500}
HUZZAH_SEARCH=${HUZZAH_SEARCH:-'{"max_priors":100}'}
SEED=${SEED:-1000}
JOBS=${JOBS:-2}
BACKEND=${BACKEND:-local}
ADDRESS=${ADDRESS:-}
OUT=${OUT:-target/strength}
DETAIL=${DETAIL:-0}
if [ -z "${PY:-}" ]; then
    VENV=${FM_VENV:-.venv}
    PY=python3
    if [ -x "$VENV/bin/python" ]; then PY="$VENV/bin/python"; fi
fi
if ! "$PY" -c 'import fm.tournament' 2>/dev/null; then
    echo "strength.sh: $PY has no fm.tournament: build and install the wheel" \
        "(./scripts/test_py.sh does, into .venv) or set PY to a Python that has it" >&2
    exit 1
fi
mkdir -p "$OUT"
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
load > "$OUT/load-before"
where=(--backend "$BACKEND" --jobs "$JOBS")
if [ -n "$ADDRESS" ]; then where+=(--address "$ADDRESS"); fi
for s in $SCENARIOS; do
    case $s in
        huzzah-*)
            n=$HUZZAH_GAMES
            budget=$(awk "BEGIN { print $THINK_MS / 1000 }")
            settings=(--iterations "$HUZZAH_ITERATIONS" --time-budget "$budget" --search "$HUZZAH_SEARCH")
            ;;
        *)
            n=$GAMES
            if [ "$s" = system-demo ]; then n=$DEMO_GAMES; fi
            settings=(--iterations "$ITERATIONS")
            ;;
    esac
    for side in a b; do
        other=b
        if [ "$side" = b ]; then other=a; fi
        echo "== $s: MCTS as side $side, $n games" >&2
        "$PY" -m fm.tournament --scenario "$s" --games "$n" --seed "$SEED" \
            --agent-"$side" mcts --agent-"$other" random "${settings[@]}" "${where[@]}" \
            --json --out "$OUT/$s-$side.jsonl" > /dev/null
    done
done
load > "$OUT/load-after"
"$PY" - "$OUT" "$DETAIL" "$ITERATIONS" "$HUZZAH_ITERATIONS" "$THINK_MS" "$HUZZAH_SEARCH" \
    "$SEED" "$JOBS" "$BACKEND" $SCENARIOS <<'PYEOF'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
detail = sys.argv[2] == "1"
iterations, h_iterations, think_ms, h_search, seed, jobs, backend = sys.argv[3:10]
scenarios = sys.argv[10:]

def pct(x):
    return f"{100 * x:.0f}%"

if detail:
    print("| scenario | MCTS plays | games | MCTS wins | 95% interval | draws | losses "
          "| ms per decision (mean, max) | iterations per search | cut short |")
    print("|---|---|---|---|---|---|---|---|---|---|")
else:
    print("| scenario | MCTS plays | games | MCTS wins | 95% interval | draws | ms per decision |")
    print("|---|---|---|---|---|---|---|")
for s in scenarios:
    for side in "ab":
        f = out / f"{s}-{side}.jsonl"
        r = json.loads(f.read_text().splitlines()[-1])["summary"]
        other = "b" if side == "a" else "a"
        assert r["agents"][side]["agent"] == "mcts" and r["agents"][other]["agent"] == "random", r["agents"]
        name = (r.get("sides") or {}).get(side, side)
        won, games = r["wins"][side], r["games"]
        rate = r["win_rate"][side]
        row = (f"| {s} | {name} ({side}) | {games} | {won} ({pct(won / games)}) "
               f"| {pct(rate['low'])}-{pct(rate['high'])} | {r['wins']['draw']} ")
        ms = 1000 * r["cpu_seconds_per_decision"][side]
        if detail:
            search = r["search"][side] or {"searches": 0, "iterations": 0, "cut_short": 0}
            per = search["iterations"] / search["searches"] if search["searches"] else 0
            row += (f"| {r['wins'][other]} | {ms:.0f}, {1000 * r['max_decision_seconds'][side]:.0f} "
                    f"| {per:.0f} | {search['cut_short']} of {search['searches']} |")
        else:
            row += f"| {ms:.0f} |"
        print(row)
load = [(out / f).read_text().strip() for f in ("load-before", "load-after")]
fm_rows = [s for s in scenarios if not s.startswith("huzzah-")]
hz_rows = [s for s in scenarios if s.startswith("huzzah-")]
notes = []
if fm_rows:
    notes.append(f"Fire & Movement: {iterations} iterations per decision")
if hz_rows:
    notes.append(f"Huzzah!: {think_ms} ms of wall-clock time or {h_iterations} iterations per "
                 f"decision, whichever comes first, search `{h_search}`")
print(f"\n{'; '.join(notes)}; seeds {seed} on; {jobs} game(s) at a time ({backend}); CPU "
      f"milliseconds per MCTS decision; load average (1, 5, 15 min) {load[0]} before, "
      f"{load[1]} after; `./scripts/strength.sh` (SCENARIOS, GAMES, DEMO_GAMES, ITERATIONS, "
      "HUZZAH_GAMES, HUZZAH_ITERATIONS, THINK_MS, HUZZAH_SEARCH, SEED, JOBS, BACKEND, ADDRESS).")
PYEOF
