#!/usr/bin/env bash
# Measures the built-in AI's strength in Huzzah! (issue 30): the MCTS agent
# (`play --agent-X mcts`, scoring positions with `huzzah::ai::evaluate`) against the
# random agent, as each side of huzzah-firefight and huzzah-encounter, and prints the
# table of docs/learning.md ("The built-in AI", markdown): games, wins, draws, losses,
# the mean and the longest time per decision, and how many searches the time cap cut
# short. A benchmark, not a test: nothing is asserted.
#
#   ./scripts/strength_huzzah.sh                (from anywhere)
#   GAMES=40 ITERATIONS=300 THINK_MS=1000 JOBS=1 ./scripts/strength_huzzah.sh
#
# Every run is seeded (`--seed 1000`, one game per seed after it), and a search stops at
# ITERATIONS, so a rerun plays the same games on any machine; THINK_MS is a cap on each
# decision (the task's one second) that stops a search early only on a slow or loaded
# machine, and the table's last column counts the searches it stopped (0: the games
# are exactly reproducible). The times per decision are this machine's.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-40}
ITERATIONS=${ITERATIONS:-300}
THINK_MS=${THINK_MS:-1000}
JOBS=${JOBS:-1}
OUT=${OUT:-target/strength-huzzah}
SCENARIOS="huzzah-firefight huzzah-encounter"
mkdir -p "$OUT"
cargo build --release --example play >&2
runs=()
for s in $SCENARIOS; do
    for side in a b; do
        runs+=("$s $side")
    done
done
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 sh -c \
    'target/release/examples/play --scenario "$0" --seed 1000 --games '"$GAMES"' \
        --agent-"$1" mcts --iterations '"$ITERATIONS"' --think-ms '"$THINK_MS"' \
        --json > '"$OUT"'/"$0-$1".json'
python3 - "$OUT" "$ITERATIONS" "$THINK_MS" $SCENARIOS <<'PYEOF'
import json, sys, pathlib
out, iterations, think_ms, scenarios = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
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
print(f"\n{iterations} iterations per decision, at most {think_ms} ms, seeds 1000 on; "
      "`./scripts/strength_huzzah.sh` (GAMES, ITERATIONS, THINK_MS, JOBS).")
PYEOF
