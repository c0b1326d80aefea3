#!/usr/bin/env python3
"""The two-thread ratio: two Python threads, each calling on its own match, against the
same calls made one thread after the other. 1.0 means the threads did not overlap at
all (the GIL held throughout); 0.5 is the most two cores allow.

    .venv/bin/python benches/python/bench_gil.py [--seconds 0.5] [--json]
    .venv/bin/python benches/python/bench_gil.py --smoke

Each row runs a call on two copies of one position (Meuse Argonne after 60 commands
of its seeded random game; huzzah-encounter after 40) for about ``--seconds`` per
thread, first one thread after the other, then both at once, in wall-clock time, and
prints the ratio. Nothing asserts it (``fm-py/tests/test_gil.py`` checks the releases
themselves, without timing); it needs at least two idle cores to mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from typing import Any, Callable, Dict

import fm


def played(scenario: str, commands: int) -> fm.Match:
    m = fm.Match(scenario, seed=1)
    r = random.Random(1000)
    for _ in range(commands):
        if m.is_over:
            break
        action = m.sample_legal_action(r.getrandbits(63))
        assert action is not None
        m.apply_action(action)
    return m


_BUFFERS: Dict[int, Any] = {}


def _buffer(m: fm.Match) -> Any:
    """A float32 array of the observation's size, one per match (so per thread)."""
    import numpy as np

    if id(m) not in _BUFFERS:
        spec = m.observation_spec
        shape = spec["shape"]
        _BUFFERS[id(m)] = np.zeros(shape[0] * shape[1] * shape[2] + len(spec["features"]), np.float32)
    return _BUFFERS[id(m)]


def calls() -> Dict[str, Callable[[fm.Match], Any]]:
    return {
        "meuse think (200 iterations)": lambda m: m.think(iterations=200, seed=1),
        "meuse legal_actions": lambda m: m.legal_actions(),
        "meuse observation (bytes)": lambda m: m.observation(m.to_move or "a"),
        "meuse observation(out=array)": lambda m: m.observation(m.to_move or "a", out=_buffer(m)),
        "meuse information_state_string": lambda m: m.information_state_string(m.to_move or "a"),
        "meuse svg": lambda m: m.svg(),
        "huzzah legal_commands": lambda m: m.legal_commands(),
        "huzzah observation": lambda m: m.observation(m.to_move or "a"),
    }


def ratio(call: Callable[[fm.Match], Any], base: fm.Match, seconds: float) -> float:
    t0 = time.perf_counter()
    call(base.clone())
    reps = max(1, int(seconds / max(time.perf_counter() - t0, 1e-6)))

    def work(m: fm.Match) -> None:
        for _ in range(reps):
            call(m)

    a, b = base.clone(), base.clone()
    t0 = time.perf_counter()
    work(a)
    work(b)
    serial = time.perf_counter() - t0
    a, b = base.clone(), base.clone()
    threads = [threading.Thread(target=work, args=(x,)) for x in (a, b)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    both = time.perf_counter() - t0
    return both / serial


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    if a.smoke:
        a.seconds = 0.01
    meuse, huzzah = played("meuse-argonne", 60), played("huzzah-encounter", 40)
    out = {}
    for name, call in calls().items():
        out[name] = ratio(call, huzzah if name.startswith("huzzah") else meuse, a.seconds)
    if a.json:
        print(json.dumps(out))
        return
    print(f"fm {fm.__version__}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    print()
    print("| call | two threads / one after the other |")
    print("|---|---|")
    for k, v in out.items():
        print(f"| {k} | {v:.2f} |")


if __name__ == "__main__":
    main()
