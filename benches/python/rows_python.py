#!/usr/bin/env python3
"""The performance issue's Python rows that `bench_vs_openspiel.py` does not time:
calls made right after a move, and `fm.openspiel`'s cost over the `fm.Match` under it.

    .venv/bin/python benches/python/rows_python.py [--rounds 7] [--reps 300] [--json]
    .venv/bin/python benches/python/rows_python.py --smoke     # runs it all, briefly

Rows:

- ``legal_actions`` and ``observation(side, out=array)`` of Meuse Argonne after a move
  in the same Movement Phase (the first Movement Phase of the seeded random game, after
  the longest move listed there: the position of ``benches/costs.rs``'s
  ``legal_indices/meuse_after_move``), each call on a fresh ``clone()`` of that
  position (not timed), as a learner sees it after its own step;
- ``fm.openspiel`` over ``fm.Match`` at the first Movement Phase of Meuse Argonne:
  ``legal_actions()``, ``apply_action`` (the longest move, on a fresh clone) and
  ``clone()`` of the OpenSpiel state, beside the same calls of its match; the ratio is
  the issue's "≤ 1.5× the Match call".

Each call is timed alone with ``time.perf_counter_ns`` (the median cost of an empty
timer pair subtracted); rows are interleaved in rounds; the figure is the median of
every call. Nothing asserts a timing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any, Callable, Dict, List

import fm
from bench_vs_openspiel import timer_overhead  # the same directory: the script's


def first_movement(m: fm.Match, rng: random.Random) -> None:
    """Plays the seeded random game on until the side to move has a move listed."""
    while True:
        if m.phase == "movement" and any(
            type(m.command_of(a)).__name__ == "Move" for a in m.legal_actions()
        ):
            return
        m.apply_action(m.sample_legal_action(rng.getrandbits(63)))


def longest_move(m: fm.Match) -> int:
    best, length = -1, -1
    for a in m.legal_actions():
        c = m.command_of(a)
        if type(c).__name__ == "Move" and len(c.path) > length:
            best, length = a, len(c.path)
    return best


def positions() -> Dict[str, Any]:
    m = fm.Match("meuse-argonne", seed=1)
    first_movement(m, random.Random(1000))
    start = m.clone()
    move = longest_move(start)
    after = start.clone()
    after.legal_actions()
    after.apply_action(move)
    assert after.phase == "movement", "still the Movement Phase"
    return {"start": start, "move": move, "after": after}


def rows(p: Dict[str, Any]) -> Dict[str, Callable[[], Callable[[], Any]]]:
    """Each row: a setup (untimed) returning the timed call."""
    import numpy as np

    size = p["after"].observation_spec
    n = 1
    for k in size["shape"]:
        n *= k
    out = np.zeros(n + len(size["features"]), dtype=np.float32)
    side = p["after"].to_move
    out_rows: Dict[str, Callable[[], Callable[[], Any]]] = {
        "match legal_actions after a move": lambda: p["after"].clone().legal_actions,
        "match observation(out=) after a move": lambda: (
            lambda x=p["after"].clone(): x.observation(side, out=out)
        ),
    }
    try:
        import fm.openspiel as fos

        game = fos.load_game("meuse-argonne", seed=1)
        st = game.new_initial_state()
        st._match = p["start"].clone()  # the same position as the Match rows
        move = p["move"]
        out_rows.update(
            {
                "openspiel legal_actions": lambda: st.clone().legal_actions,
                "match legal_actions": lambda: p["start"].clone().legal_actions,
                "openspiel apply_action": lambda: (lambda s=st.clone(): s.apply_action(move)),
                "match apply_action": lambda: (
                    lambda x=p["start"].clone(): x.apply_action(move)
                ),
                "openspiel clone": lambda: st.clone,
                "match clone": lambda: p["start"].clone,
            }
        )
    except ImportError:
        pass
    return out_rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.rounds, a.reps = 1, 3
    over = timer_overhead()
    p = positions()
    rs = rows(p)
    times: Dict[str, List[float]] = {k: [] for k in rs}
    for _ in range(a.rounds):
        for k, setup in rs.items():
            for _ in range(a.reps):
                f = setup()
                t0 = time.perf_counter_ns()
                f()
                t1 = time.perf_counter_ns()
                times[k].append(t1 - t0 - over)
    med = {k: statistics.median(v) for k, v in times.items()}
    if a.json:
        print(json.dumps({k: v / 1000 for k, v in med.items()}))
        return
    print(f"fm {fm.__version__}; {a.rounds} rounds of {a.reps} calls; timer overhead {over:.0f} ns subtracted")
    print()
    print("| call | median |")
    print("|---|---|")
    for k, v in med.items():
        print(f"| {k} | {v / 1000:.2f} µs |")
    for op in ("legal_actions", "apply_action", "clone"):
        o, m = med.get(f"openspiel {op}"), med.get(f"match {op}")
        if o and m:
            print(f"\nfm.openspiel {op}: {o / m:.2f}× the Match call", end="")
    print()


if __name__ == "__main__":
    main()
