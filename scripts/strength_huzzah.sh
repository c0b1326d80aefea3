#!/usr/bin/env bash
# Measures the built-in AI's strength in Huzzah! (issue 30): the MCTS agent
# (`play --agent-X mcts`, scoring positions with `huzzah::ai::evaluate`) against the
# random agent, as each side of huzzah-firefight and huzzah-encounter, and prints the
# table of docs/learning.md ("The built-in AI", markdown): games, wins, draws, losses,
# the mean and the longest time per decision, how many searches the time budget cut
# short, and the machine's load average before and after. A benchmark, not a test:
# nothing is asserted, and it takes a while (about two hours on 2 idle cores with the
# defaults and JOBS=1).
#
#   ./scripts/strength_huzzah.sh                (from anywhere)
#   GAMES=40 THINK_MS=800 ITERATIONS=2000 SEARCH='{"max_priors":100}' JOBS=1 ./scripts/strength_huzzah.sh
#
# A decision is searched until THINK_MS of wall-clock time have passed (checked between
# iterations, so one iteration may run past it: a search's longest iteration is bounded
# by SEARCH's max_priors, the one-command look-aheads a node orders its children by) or
# ITERATIONS are done. Every game is seeded (`--seed 1000`, one game per seed after it),
# but how far a search gets in its time depends on the machine and its load: a rerun
# plays the same games only where no search was cut short (the "cut short" column).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-40}
ITERATIONS=${ITERATIONS:-2000}
THINK_MS=${THINK_MS:-800}
SEARCH=${SEARCH:-'{"max_priors":100}'}
JOBS=${JOBS:-1}
OUT=${OUT:-target/strength-huzzah}
SCENARIOS="huzzah-firefight huzzah-encounter"
mkdir -p "$OUT"
cargo build --release --example play >&2
cut -d' ' -f1-3 /proc/loadavg > "$OUT/load-before" 2>/dev/null || echo "?" > "$OUT/load-before"
runs=()
for s in $SCENARIOS; do
    for side in a b; do
        runs+=("$s $side")
    done
done
printf '%s\n' "${runs[@]}" | SEARCH="$SEARCH" xargs -P "$JOBS" -L 1 sh -c \
    'target/release/examples/play --scenario "$0" --seed 1000 --games '"$GAMES"' \
        --agent-"$1" mcts --iterations '"$ITERATIONS"' --think-ms '"$THINK_MS"' \
        --search "$SEARCH" --json > '"$OUT"'/"$0-$1".json'
cut -d' ' -f1-3 /proc/loadavg > "$OUT/load-after" 2>/dev/null || echo "?" > "$OUT/load-after"
python3 - "$OUT" "$ITERATIONS" "$THINK_MS" "$SEARCH" "$JOBS" $SCENARIOS <<'PYEOF'
import json, sys, pathlib
out, iterations, think_ms, search, jobs = pathlib.Path(sys.argv[1]), *sys.argv[2:6]
scenarios = sys.argv[6:]
print("| scenario | MCTS plays | games | MCTS wins | draws | losses | ms per decision (mean, max) | cut short |")
print("|---|---|---|---|---|---|---|---|")
for s in scenarios:
    for side in "ab":
        r = json.loads((out / f"{s}-{side}.json").read_text())
        names = list(r["agents"])
        mine, theirs = (names[0], names[1]) if side == "a" else (names[1], names[0])
        won, drawn, lost = r["wins"][mine], r["wins"]["draw"], r["wins"][theirs]
        print(f"| {s} | {mine} ({side}) | {r['games']} | {won} ({100 * won / r['games']:.0f}%) "
              f"| {drawn} | {lost} | {r['mcts_ms_per_decision']:.0f}, {r['mcts_max_ms_per_decision']:.0f} "
              f"| {r['mcts_cut_short']} of {r['mcts_decisions']} |")
load = [(out / f).read_text().strip() for f in ("load-before", "load-after")]
print(f"\n{think_ms} ms or {iterations} iterations per decision, search `{search}`, seeds 1000 on, "
      f"{jobs} run(s) at a time; load average (1, 5, 15 min) {load[0]} before, {load[1]} after; "
      "`./scripts/strength_huzzah.sh` (GAMES, THINK_MS, ITERATIONS, SEARCH, JOBS).")
PYEOF
