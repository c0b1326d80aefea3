"""The calls that can take more than about 20 µs release the GIL while the engine
works, so that another Python thread runs meanwhile.

The probe: thread switching by interval is turned off (``sys.setswitchinterval``), so a
second thread, spinning on a counter and waiting for the GIL, runs only while the
calling thread releases it. The counter does not move across calls that hold the GIL
(the control below checks that the probe can tell), and moves across calls that
release it. Nothing here is a timing.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from typing import Any, Callable

import numpy as np
import pytest

import fm


def runs_meanwhile(call: Callable[[], Any], reps: int = 0) -> int:
    """How many times a second Python thread ran while ``call`` ran ``reps`` times
    (``0``: as many times as fit in about 0.2 s, at least 20; a release of a few
    microseconds is not always seen, but hundreds of them are)."""
    if reps == 0:
        t0 = time.perf_counter()
        call()
        once = max(time.perf_counter() - t0, 1e-6)
        reps = max(20, int(0.2 / once))
    count = 0
    stop = False
    go = threading.Event()

    def spin() -> None:
        nonlocal count
        go.wait()
        while not stop:
            count += 1
            time.sleep(0)  # gives the GIL back as soon as the caller wants it

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    t = threading.Thread(target=spin)
    try:
        t.start()
        go.set()
        before = count
        for _ in range(reps):
            call()
        after = count
    finally:
        stop = True
        t.join()
        sys.setswitchinterval(old)
    return after - before


def seen_running(call: Callable[[], Any]) -> bool:
    """Whether a second thread ran while ``call`` ran: over about 0.2 s of calls, then
    over ten times as many if none was seen (on a machine whose cores are all busy, a
    woken thread may get no core during a short release, but not during thousands)."""
    once = runs_meanwhile(call)
    if once > 0:
        return True
    t0 = time.perf_counter()
    call()
    reps = max(200, int(2.0 / max(time.perf_counter() - t0, 1e-6)))
    return runs_meanwhile(call, reps) > 0


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


def test_the_probe_sees_a_call_that_holds_the_gil() -> None:
    m = played("meuse-argonne", 60)
    # `clone` and `hash` hold the GIL (under a microsecond each).
    assert runs_meanwhile(lambda: (m.clone(), m.hash), 2000) == 0


def _fm_calls() -> dict[str, Callable[[], Any]]:
    # The calls whose engine work can pass 20 µs on a real map (`view`'s is a few
    # microseconds, the rest of it converting to Python objects, which needs the GIL;
    # `determinized` and a `view` still release it, too briefly to be seen every time).
    m = played("meuse-argonne", 60)
    side = m.to_move or "a"
    # The unit with the most hexes to reach: its search is the call's work.
    unit = max((u["id"] for u in m.state["units"]), key=lambda u: len(m.reachable(u)))
    move = m.legal_commands()[-1]
    return {
        "legal_actions": m.legal_actions,
        # Into a buffer (the learner's call) it keeps the GIL: 1-14 µs, too short to
        # hand the GIL over (see fm-py/src/match_/observation.rs); as bytes it releases.
        "observation": lambda: m.observation(side),
        "export": lambda: m.export(side),
        "reachable": lambda: m.reachable(unit),
        "explain": lambda: m.explain(move),
        "information_state_string": lambda: m.information_state_string(side),
        "information_state_tensor": lambda: m.information_state_tensor(side, 4000),
        "svg": m.svg,
        "save": m.save,
    }


def test_a_fire_and_movement_observation_into_a_buffer_keeps_the_gil() -> None:
    m = played("meuse-argonne", 60)
    spec = m.observation_spec
    shape = spec["shape"]
    out = np.zeros(shape[0] * shape[1] * shape[2] + len(spec["features"]), np.float32)
    assert runs_meanwhile(lambda: m.observation("a", out=out)) == 0
    assert out.tobytes() == m.observation("a")


def _huzzah_calls() -> dict[str, Callable[[], Any]]:
    m = played("huzzah-encounter", 40)
    side = m.to_move or "a"
    return {
        "legal_commands": m.legal_commands,
        "observation": lambda: m.observation(side),
        "view": lambda: m.view(side),
        "information_state_string": lambda: m.information_state_string(side),
        "svg": m.svg,
    }


@pytest.mark.parametrize("name", sorted(_fm_calls()))
def test_fire_and_movement_calls_release_the_gil(name: str) -> None:
    call = _fm_calls()[name]
    assert seen_running(call), f"{name} held the GIL throughout"


@pytest.mark.parametrize("name", sorted(_huzzah_calls()))
def test_huzzah_calls_release_the_gil(name: str) -> None:
    call = _huzzah_calls()[name]
    assert seen_running(call), f"{name} held the GIL throughout"


def test_huzzah_odds_release_the_gil() -> None:
    m = played("huzzah-encounter", 40)
    side = m.to_move or "a"
    unit = m.scenario_data["sides"][side]["units"][0]["id"]
    proposal = {"morale": {"unit": unit}}
    m.odds(proposal, side=side)  # a proposal the rules answer
    assert seen_running(lambda: m.odds(proposal, side=side))
