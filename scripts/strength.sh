#!/usr/bin/env bash
# Measures the built-in AI's strength (issue 18): the MCTS agent (`play --agent-X mcts`)
# against the random agent, as each side of every Fire & Movement scenario, and prints
# the table of docs/learning.md ("The built-in AI", markdown) with the games played, the
# wins and the mean time per decision. A benchmark, not a test: nothing is asserted,
# and it takes a while (about an hour on 2 cores with the defaults).
#
#   ./scripts/strength.sh                       (from anywhere)
#   GAMES=10 DEMO_GAMES=100 ITERATIONS=40 JOBS=2 ./scripts/strength.sh
#
# Every run is seeded (`--seed 1000`, one game per seed after it), so a rerun plays the
# same games on any machine; the times per decision are this machine's.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-10}
DEMO_GAMES=${DEMO_GAMES:-100}
ITERATIONS=${ITERATIONS:-40}
JOBS=${JOBS:-2}
OUT=${OUT:-target/strength}
mkdir -p "$OUT"
cargo build --release --example play >&2
runs=()
for s in system-demo meuse-argonne vimy-ridge suez-1916; do
    n=$GAMES
    [ "$s" = system-demo ] && n=$DEMO_GAMES
    for side in a b; do
        runs+=("$s $side $n")
    done
done
printf '%s\n' "${runs[@]}" | xargs -P "$JOBS" -L 1 sh -c \
    'target/release/examples/play --scenario "$0" --seed 1000 --games "$2" \
        --agent-"$1" mcts --iterations '"$ITERATIONS"' --json > '"$OUT"'/"$0-$1".json'
python3 - "$OUT" "$ITERATIONS" <<'PYEOF'
import json, sys, pathlib
out, iterations = pathlib.Path(sys.argv[1]), sys.argv[2]
print(f"| scenario | MCTS plays | games | MCTS wins | draws | ms per decision |")
print("|---|---|---|---|---|---|")
for s in ["system-demo", "meuse-argonne", "vimy-ridge", "suez-1916"]:
    for side in "ab":
        r = json.loads((out / f"{s}-{side}.json").read_text())
        names = list(r["agents"])
        mine = names[0] if side == "a" else names[1]
        won = r["wins"][mine]
        print(f"| {s} | {mine} ({side}) | {r['games']} | {won} ({100 * won / r['games']:.0f}%) "
              f"| {r['wins']['draw']} | {r['mcts_ms_per_decision']:.0f} |")
print(f"\n{iterations} iterations per decision, seeds 1000 on; "
      "`./scripts/strength.sh` (GAMES, DEMO_GAMES, ITERATIONS, JOBS).")
PYEOF
