#!/usr/bin/env bash
# Measures the built-in AI's strength in Huzzah! (issue 30): ./scripts/strength.sh on
# huzzah-firefight and huzzah-encounter with its longer table (DETAIL=1): the MCTS agent
# (scoring positions with `Game::evaluate`, that is `huzzah::ai::evaluate`) against the
# random agent as each side, played by fm.tournament; games, wins with their 95% Wilson
# interval, draws, losses, the CPU time per decision (mean and longest), the search
# iterations a decision got, how many searches the time budget cut short, and under the
# table the budget and the machine's load average before and after. A benchmark, not a
# test: nothing is asserted. The full run (40 games a row) takes over an hour on 2 idle
# cores with JOBS=1; run it on a quiet machine, since the budget is wall-clock time.
#
#   ./scripts/strength_huzzah.sh                (from anywhere; the table on stdout)
#   ./scripts/strength_huzzah.sh --smoke        (2 games a row: checks the script and the
#                                                 agents work, measures nothing)
#   GAMES=40 THINK_MS=500 ITERATIONS=2000 SEARCH='{"max_priors":100}' JOBS=1 \
#       ./scripts/strength_huzzah.sh
#   BACKEND=ray ADDRESS=HEAD:6379 JOBS=8 ./scripts/strength_huzzah.sh
#
# The budget: a decision is searched until THINK_MS of wall-clock time have passed
# (checked between iterations, so one iteration may run past it: a search's longest
# iteration is bounded by SEARCH's max_priors, the one-command look-aheads a node
# orders its children by) or ITERATIONS are done, whichever comes first. The issue's
# bound is 1 s a decision: keep THINK_MS below it with room for the last iteration
# (the table's "max" column shows the longest decision in CPU time). Every game is
# seeded (SEED, one game per seed after it), but how far a search gets in its time
# depends on the machine and its load: a rerun plays the same games only where no
# search was cut short (the "cut short" column). The JSON lines of each row are kept
# in OUT. PY, BACKEND and ADDRESS as for ./scripts/strength.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SMOKE=0
for arg in "$@"; do
    case "$arg" in
        --smoke) SMOKE=1 ;;
        -h | --help)
            sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "strength_huzzah.sh: unknown argument '$arg' (see --help)" >&2
            exit 2
            ;;
    esac
done
if [ "$SMOKE" = 1 ]; then
    GAMES=${GAMES:-2}
    OUT=${OUT:-target/strength-huzzah-smoke}
fi
SEARCH=${SEARCH:-'{"max_priors":100}'}
SCENARIOS="huzzah-firefight huzzah-encounter" DETAIL=1 \
    HUZZAH_GAMES="${GAMES:-40}" HUZZAH_ITERATIONS="${ITERATIONS:-2000}" \
    THINK_MS="${THINK_MS:-500}" HUZZAH_SEARCH="$SEARCH" \
    SEED="${SEED:-1000}" JOBS="${JOBS:-1}" OUT="${OUT:-target/strength-huzzah}" \
    ./scripts/strength.sh
if [ "$SMOKE" = 1 ]; then
    echo
    echo "A smoke run (\`--smoke\`): too few games to measure anything."
fi
