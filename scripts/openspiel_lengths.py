#!/usr/bin/env python3
"""Measures the length of random games of every built-in scenario as OpenSpiel counts
it (commands and chance outcomes), for fm.openspiel.MAX_GAME_LENGTH: each game is
``Match.playout`` in explicit chance mode (uniformly random legal commands, each draw's
outcome uniform), its moves counted from the save's log.

    python scripts/openspiel_lengths.py [--games 20]
"""

from __future__ import annotations

import argparse
import json
import math

import fm


def moves(scenario: str, seed: int) -> int:
    m = fm.Match(scenario, seed=seed)
    m.set_chance_mode("explicit")
    m.playout(seed=seed)
    log = json.loads(m.save())["log"]
    return len(log) + sum(len(e.get("chance", [])) for e in log)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    for name in fm.scenarios():
        lengths = [moves(name, s) for s in range(args.games)]
        longest = max(lengths)
        bound = int(math.ceil(2.5 * longest / 100.0) * 100)
        print(f"{name}: longest {longest}, mean {sum(lengths) / len(lengths):.0f}, bound {bound}")


if __name__ == "__main__":
    main()
