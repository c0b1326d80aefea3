#!/usr/bin/env python3
"""Measures the length of random games of every built-in scenario as OpenSpiel counts
it (commands and chance outcomes) through the Python package, beside the bound that
``fm.openspiel`` takes as its default ``max_game_length`` (``fm.max_game_length``, proved
from the rules): each game is ``Match.playout`` in explicit chance mode (uniformly
random legal commands, each draw's outcome uniform), its moves counted from the save's
log. The Rust example ``cargo run --release -p fm-core --example lengths`` prints the
same table (docs/learning.md's) without Python.

    python scripts/openspiel_lengths.py [--games 20]
"""

from __future__ import annotations

import argparse
import json

import fm


def moves(scenario: str, seed: int) -> tuple[int, int]:
    """The commands and chance outcomes of one random game."""
    m = fm.Match(scenario, seed=seed)
    m.set_chance_mode("explicit")
    m.playout(seed=seed)
    log = json.loads(m.save())["log"]
    return len(log), sum(len(e.get("chance", [])) for e in log)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    for name in fm.scenarios():
        bound = fm.max_game_length(name)
        games = [moves(name, s) for s in range(args.games)]
        longest = max(c + k for c, k in games)
        mean = sum(c + k for c, k in games) / len(games)
        if bound is None:
            print(f"{name}: no bound; longest {longest}, mean {mean:.0f}")
            continue
        assert all(c <= bound.commands and k <= bound.chance for c, k in games), name
        print(
            f"{name}: bound {bound.total} ({bound.commands} commands + {bound.chance} "
            f"chance), longest {longest}, mean {mean:.0f}"
        )


if __name__ == "__main__":
    main()
