#!/usr/bin/env python3
"""fm's Python API timed next to OpenSpiel's chess, in the same process.

    ./scripts/test_py.sh                      # builds the fm wheel into .venv (FM_VENV)
    .venv/bin/pip install open_spiel          # OpenSpiel from PyPI (optional)
    .venv/bin/python benches/python/bench_vs_openspiel.py [--rounds 7] [--reps 300]
    .venv/bin/python benches/python/bench_vs_openspiel.py --json    # figures as JSON
    .venv/bin/python benches/python/bench_vs_openspiel.py --smoke   # runs it all, briefly

Operations, on the same kind of position for each game:

- ``apply_action``: one action (fm: the longest move listed; chess: the first legal
  action), each call on a fresh ``clone()`` made before it and not timed;
- ``legal_actions``, ``legal_action_mask`` (fm: filling one reusable numpy array,
  ``legal_action_mask(out=mask)``, or a new ``bytes`` without numpy; OpenSpiel:
  ``legal_actions_mask``), ``sample_legal_action`` (fm: the built-in random agent's
  draw, ``sample_legal_action(seed)``; chess: ``random.choice(legal_actions())``, what
  OpenSpiel's Python API offers) and ``clone``: repeated on the same position;
- ``random game``: a whole game, both sides drawing uniformly among the legal actions
  (fm: ``Match(scenario, seed=1)``, each action ``sample_legal_action(seed)`` with the
  seeds drawn by ``random.Random(1000)``; chess: ``random.choice(legal_actions())``
  with ``random.Random(1000)``), from the start to the end.

Positions: fm's is the first Movement Phase of the seeded random game (system-demo:
after set-up; meuse-argonne: before any move), and for Huzzah!'s huzzah-encounter the
first decision of its seeded random game that lists an order (``apply_action`` times
the first order listed); chess's is after 20 random plies (seed 0), a middle-game
position with about 30 legal moves.

Method: the measurements are taken in rounds, and in each round every (game,
operation) pair is measured in turn, so a slow spell of the machine hits every row
alike. Each call is timed on its own with ``time.perf_counter_ns`` (the median cost of
an empty timer pair subtracted); a row's figure is the median over every call of every
round (a whole game: over the rounds). The ratio is fm's median over chess's.

OpenSpiel is optional: without ``pyspiel`` the chess rows and the ratios are left out.
Nothing here asserts a timing; the exit status is 0 unless something fails to run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import fm

FM_SCENARIOS = ("system-demo", "meuse-argonne")
# Huzzah!: positions and the action timed as `HuzzahSubject` says.
HUZZAH_SCENARIO = "huzzah-encounter"
OPS = (
    "apply_action",
    "legal_actions",
    "legal_action_mask",
    "sample_legal_action",
    "clone",
    "random_game",
)
LABELS = {
    "apply_action": "`apply_action` (one action, on a fresh clone)",
    "legal_actions": "`legal_actions()`",
    "legal_action_mask": "`legal_action_mask(out=array)` / `legal_actions_mask()`",
    "sample_legal_action": "`sample_legal_action(seed)` / `random.choice(legal_actions())`",
    "clone": "`clone()`",
    "random_game": "a whole random game",
}


def timer_overhead(n: int = 20000) -> float:
    ts = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        t1 = time.perf_counter_ns()
        ts.append(t1 - t0)
    return statistics.median(ts)


class Subject:
    """One game at one position, with the calls to time."""

    name: str
    actions: int

    def fresh(self) -> Any:
        raise NotImplementedError

    def apply(self, x: Any) -> None:
        raise NotImplementedError

    def legal_actions(self) -> Any:
        raise NotImplementedError

    def legal_action_mask(self) -> Any:
        raise NotImplementedError

    def sample_legal_action(self) -> Any:
        raise NotImplementedError

    def clone(self) -> Any:
        raise NotImplementedError

    def random_game(self) -> int:
        raise NotImplementedError


def fm_movement_start(scenario: str) -> fm.Match:
    """The first Movement Phase of the seeded random game."""
    m = fm.Match(scenario, seed=1)
    rng = random.Random(1000)
    while not (m.pending.kind == "phase" and m.pending.phase == "movement"):
        m.apply_action(rng.choice(m.legal_actions()))
        if m.is_over:
            raise RuntimeError(f"{scenario}: no movement phase")
    return m


class FmSubject(Subject):
    def __init__(self, scenario: str) -> None:
        self.name = scenario
        self.m = fm_movement_start(scenario)
        moves = [c for c in self.m.legal_commands() if c.type == "move"]
        longest = max(moves, key=lambda c: len(c.path))
        action = self.m.action_of(longest)
        assert action is not None
        self.action = action
        self.actions = len(self.m.legal_actions())
        try:
            import numpy as np

            self.mask: Any = np.zeros(self.m.action_space_size, dtype=np.uint8)
        except ImportError:  # without numpy: a new bytes object per call
            self.mask = None
        self.seed = 0

    def fresh(self) -> Any:
        return self.m.clone()

    def apply(self, x: Any) -> None:
        x.apply_action(self.action)

    def legal_actions(self) -> Any:
        return self.m.legal_actions()

    def legal_action_mask(self) -> Any:
        return self.m.legal_action_mask(out=self.mask)

    def sample_legal_action(self) -> Any:
        self.seed += 1
        return self.m.sample_legal_action(self.seed)

    def clone(self) -> Any:
        return self.m.clone()

    def random_game(self) -> int:
        m = fm.Match(self.name, seed=1)
        rng = random.Random(1000)
        n = 0
        while not m.is_over:
            a = m.sample_legal_action(rng.getrandbits(63))
            assert a is not None
            m.apply_action(a)
            n += 1
        return n


class HuzzahSubject(FmSubject):
    """Huzzah!'s huzzah-encounter at the first decision of the seeded random game that
    lists an order (the Orders phase); the action timed is the first order listed."""

    def __init__(self, scenario: str) -> None:
        self.name = scenario
        m = fm.Match(scenario, seed=1)
        rng = random.Random(1000)
        while not any(c.type == "order" for c in m.legal_commands()):
            m.apply_action(rng.choice(m.legal_actions()))
            if m.is_over:
                raise RuntimeError(f"{scenario}: no order listed")
        self.m = m
        order = next(c for c in m.legal_commands() if c.type == "order")
        action = m.action_of(order)
        assert action is not None
        self.action = action
        self.actions = len(m.legal_actions())
        try:
            import numpy as np

            self.mask = np.zeros(m.action_space_size, dtype=np.uint8)
        except ImportError:
            self.mask = None
        self.seed = 0


class ChessSubject(Subject):
    def __init__(self, pyspiel: Any) -> None:
        self.name = "chess"
        self.game = pyspiel.load_game("chess")
        rng = random.Random(0)
        s = self.game.new_initial_state()
        for _ in range(20):
            s.apply_action(rng.choice(s.legal_actions()))
        self.s = s
        self.action = s.legal_actions()[0]
        self.actions = len(s.legal_actions())
        self.rng = random.Random(1)

    def fresh(self) -> Any:
        return self.s.clone()

    def apply(self, x: Any) -> None:
        x.apply_action(self.action)

    def legal_actions(self) -> Any:
        return self.s.legal_actions()

    def legal_action_mask(self) -> Any:
        return self.s.legal_actions_mask()

    def sample_legal_action(self) -> Any:
        return self.rng.choice(self.s.legal_actions())

    def clone(self) -> Any:
        return self.s.clone()

    def random_game(self) -> int:
        s = self.game.new_initial_state()
        rng = random.Random(1000)
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        return n


def time_calls(reps: int, call: Callable[[], Any], overhead: float) -> List[float]:
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        call()
        t1 = time.perf_counter_ns()
        ts.append(max(t1 - t0 - overhead, 0.0))
    return ts


def time_on_fresh(reps: int, sub: Subject, overhead: float) -> List[float]:
    ts = []
    for _ in range(reps):
        x = sub.fresh()
        t0 = time.perf_counter_ns()
        sub.apply(x)
        t1 = time.perf_counter_ns()
        ts.append(max(t1 - t0 - overhead, 0.0))
    return ts


def measure(
    subjects: List[Subject], rounds: int, reps: int, games: bool, overhead: float
) -> Tuple[Dict[str, Dict[str, float]], Dict[str, int]]:
    samples: Dict[Tuple[str, str], List[float]] = {}
    lengths: Dict[str, int] = {}
    for _ in range(rounds):
        for op in OPS:
            for sub in subjects:
                if op == "random_game":
                    if not games:
                        continue
                    t0 = time.perf_counter_ns()
                    lengths[sub.name] = sub.random_game()
                    ts = [float(time.perf_counter_ns() - t0)]
                elif op == "apply_action":
                    ts = time_on_fresh(reps, sub, overhead)
                else:
                    ts = time_calls(reps, getattr(sub, op), overhead)
                samples.setdefault((sub.name, op), []).extend(ts)
    med: Dict[str, Dict[str, float]] = {}
    for (name, op), ts in samples.items():
        med.setdefault(name, {})[op] = statistics.median(ts)
    return med, lengths


def fmt(ns: Optional[float]) -> str:
    if ns is None:
        return "—"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            v = ns / scale
            break
    else:
        unit, v = "ns", ns
    return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"


def markdown(
    med: Dict[str, Dict[str, float]], subjects: List[Subject], lengths: Dict[str, int]
) -> str:
    names = [s.name for s in subjects]
    chess = med.get("chess")
    fm_names = [n for n in names if n != "chess"]
    head = ["operation"] + [f"fm {n}" for n in fm_names]
    if chess is not None:
        head += ["OpenSpiel chess"] + [f"{n} / chess" for n in fm_names]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for op in OPS:
        if not any(op in med[n] for n in names):
            continue
        row = [LABELS[op]] + [fmt(med[n].get(op)) for n in fm_names]
        if chess is not None:
            row.append(fmt(chess.get(op)))
            for n in fm_names:
                a, b = med[n].get(op), chess.get(op)
                row.append(f"{a / b:.1f}×" if a is not None and b else "—")
        lines.append("| " + " | ".join(row) + " |")
    sub = {s.name: s for s in subjects}
    lines.append("")
    lines.append(
        "Legal actions at the timed position: "
        + ", ".join(f"{n} {sub[n].actions}" for n in names)
        + (
            "; actions in the random game: " + ", ".join(f"{n} {lengths[n]}" for n in names)
            if lengths
            else ""
        )
        + "."
    )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (7)")
    ap.add_argument("--reps", type=int, default=300, help="calls per row per round (300)")
    ap.add_argument("--quick", action="store_true", help="3 rounds of 100 calls")
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="1 round of 3 calls, system-demo's and huzzah-encounter's games only",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    rounds, reps = args.rounds, args.reps
    if args.quick:
        rounds, reps = 3, 100
    if args.smoke:
        rounds, reps = 1, 3
    subjects: List[Subject] = [FmSubject(n) for n in FM_SCENARIOS]
    subjects.append(HuzzahSubject(HUZZAH_SCENARIO))
    if args.smoke:
        subjects = subjects[:1] + subjects[-1:]
    try:
        import pyspiel  # type: ignore[import-not-found]

        subjects.append(ChessSubject(pyspiel))
        import importlib.metadata as md

        osv = md.version("open_spiel")
    except ImportError:
        osv = None
    overhead = timer_overhead()
    med, lengths = measure(subjects, rounds, reps, True, overhead)
    table = markdown(med, subjects, lengths)
    about = (
        f"fm {fm.__version__}, open_spiel {osv or 'not installed'}; Python "
        f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; "
        f"{rounds} round{'s' if rounds != 1 else ''} of {reps} calls (a whole game: one a "
        f"round); timer overhead "
        f"{overhead:.0f} ns subtracted"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "about": about,
                    "open_spiel": osv,
                    "medians_ns": med,
                    "game_lengths": lengths,
                    "markdown": table,
                },
                indent=1,
            )
        )
    else:
        print(about + "\n")
        print(table)
        if osv is None:
            print("\nOpenSpiel not installed (pip install open_spiel): fm's rows only.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
