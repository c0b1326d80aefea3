#!/usr/bin/env python3
"""The performance issue's rows (benches/costs.rs) beside a random chess game in
OpenSpiel's C++, measured in the same run, interleaved, in CPU time.

    ./scripts/bench.sh --rows                      # builds costs, runs this in FM_VENV
    python benches/python/rows_vs_chess.py COSTS_BINARY [--rounds 7] [--json]
    python benches/python/rows_vs_chess.py COSTS_BINARY --smoke   # one short round

The anchor: a whole game of chess between OpenSpiel's uniform random bots, played by
``pyspiel.evaluate_bots`` (the game loop, the bots and the rules all in C++), over a
fixed set of 100 seeds (0-99), so every sample plays the same games; its figure is the
mean per game. The rows: one ``COSTS_BINARY --round`` process per round, each timing
every row in its own thread's CPU time.

Each round measures the anchor, then the rows, then the anchor again (the anchor's
samples are the mean of the two), so a slow spell of the machine weighs on both. A
figure is the minimum over the rounds, the median beside it; the ratio is the row's
minimum over the anchor's minimum. The machine's load average before and after is
printed under the table. Nothing asserts a timing.

OpenSpiel is optional: without ``pyspiel`` the anchor and the ratios are left out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

MS, US = 1e6, 1e3

# row -> (the issue's figure at a25747d, target), ns. The ratio target of the games is
# in the text of the issue ("≤ 4× chess, same run"); the table gives it in time.
ISSUE: Dict[str, Tuple[Optional[float], Optional[float], str]] = {
    "game/meuse-argonne": (28.2 * MS, 5 * MS, "a random Meuse Argonne game"),
    "game/suez-1916": (31.0 * MS, 5 * MS, "a random Suez 1916 game"),
    "game/vimy-ridge": (57.1 * MS, 8 * MS, "a random Vimy Ridge game (seeds 3-10)"),
    "game/huzzah-encounter": (83.1 * MS, 15 * MS, "a random huzzah-encounter game"),
    "replay/meuse-argonne": (None, None, "Meuse: its commands applied again (no listing)"),
    "replay/huzzah-encounter": (None, None, "huzzah-encounter: the same"),
    "load/meuse-argonne": (24.3 * MS, 5 * MS, "`Match::load` of the finished Meuse game"),
    "legal_indices/meuse_after_move": (25 * US, 5 * US, "`legal_indices` after a move (Meuse)"),
    "observation/meuse_after_move": (29 * US, 5 * US, "`observation` after a move (Meuse)"),
    "apply_index/meuse_move": (3.5 * US, 2 * US, "`apply_index` of a move (Meuse)"),
    "apply_index/huzzah_order": (37 * US, 5 * US, "`apply_index` of an order (Huzzah!)"),
    "think/meuse_b": (1e9 / 1600, 1e9 / 5000, "AI iteration, Meuse side b"),
}


def fmt(ns: Optional[float]) -> str:
    if ns is None:
        return "—"
    for unit, scale in (("s", 1e9), ("ms", MS), ("µs", US)):
        if ns >= scale:
            v = ns / scale
            break
    else:
        unit, v = "ns", ns
    return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"


def chess_sample(seeds: range) -> Optional[float]:
    """CPU ns per random chess game over `seeds`, or None without pyspiel."""
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    bots = [
        [pyspiel.make_uniform_random_bot(0, s), pyspiel.make_uniform_random_bot(1, s + 7919)]
        for s in seeds
    ]
    t0 = time.thread_time_ns()
    for s, pair in zip(seeds, bots):
        pyspiel.evaluate_bots(game.new_initial_state(), pair, s)
    return (time.thread_time_ns() - t0) / len(seeds)


def costs_round(binary: str, filters: List[str]) -> Dict[str, dict]:
    out = subprocess.run(
        [binary, "--round", *filters], check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("costs", help="the costs benchmark binary (cargo bench --bench costs --no-run)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="one round, a few rows: checks it runs")
    ap.add_argument("filters", nargs="*", help="row filters passed to costs")
    a = ap.parse_args()
    rounds = 1 if a.smoke else max(1, a.rounds)
    filters = a.filters or (["apply_index", "observation"] if a.smoke else [])
    seeds = range(10) if a.smoke else range(100)
    load_before = load()
    chess: List[float] = []
    rows: Dict[str, List[float]] = {}
    units: Dict[str, str] = {}
    for _ in range(rounds):
        before = chess_sample(seeds)
        got = costs_round(a.costs, filters)
        after = chess_sample(seeds)
        if before is not None and after is not None:
            chess.append((before + after) / 2)
        for name, r in got.items():
            rows.setdefault(name, []).extend(r["samples_ns"])
            units[name] = r["unit"]
    load_after = load()
    anchor = min(chess) if chess else None
    result = {
        "rounds": rounds,
        "load_before": load_before,
        "load_after": load_after,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}",
        "chess_ns": {"min": anchor, "median": statistics.median(chess) if chess else None},
        "rows": {
            n: {"min": min(v), "median": statistics.median(v), "unit": units[n]}
            for n, v in rows.items()
        },
    }
    if a.json:
        print(json.dumps(result))
        return 0
    print("| row | min | median | × chess | target | at a25747d (issue) |")
    print("|---|---|---|---|---|---|")
    if anchor is not None:
        print(
            f"| a random chess game, OpenSpiel C++ (`evaluate_bots`, uniform random bots) "
            f"| {fmt(anchor)} | {fmt(result['chess_ns']['median'])} | 1 | — | 1.37 ms |"
        )
    for n, r in result["rows"].items():
        issue, target, what = ISSUE.get(n, (None, None, n))
        # A ratio to a whole chess game means something for a whole game only.
        ratio = f"{r['min'] / anchor:.1f}" if anchor and n.startswith("game/") else "—"
        print(
            f"| {what} (`{n}`, per {r['unit']}) | {fmt(r['min'])} | {fmt(r['median'])} "
            f"| {ratio} | {'≤ ' + fmt(target) if target else '—'} | {fmt(issue)} |"
        )
    print()
    print(
        f"{rounds} interleaved rounds, CPU time of the measuring thread; {result['machine']}; "
        f"load average before {load_before}, after {load_after}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
