"""Shared helpers for the fm test suite."""

from __future__ import annotations

import importlib
import os
import random
from typing import Any, Callable, Optional

import pytest

import fm


def finish_setup(m: fm.Match) -> None:
    """Places every set-up unit with the first legal placement."""
    while m.pending.kind == "setup":
        m.apply(m.legal_commands()[0])


def play_random(m: fm.Match, rng: random.Random, limit: int = 10_000,
                stop: Optional[Callable[[fm.Match], bool]] = None) -> int:
    """Plays random legal commands until the game ends (or `stop` says so)."""
    n = 0
    while not m.is_over and n < limit:
        if stop is not None and stop(m):
            break
        cmds = m.legal_commands()
        assert cmds, "no legal command although the game is not over"
        m.apply(rng.choice(cmds))
        n += 1
    return n


def find_face_down(side: str = "b", seeds: int = 300) -> fm.Match:
    """A match whose combat in progress holds a face-down marker of `side`."""

    def has_face_down(m: fm.Match) -> bool:
        c = m.state["combat"]
        return c is not None and any(
            mk["side"] == side and not mk["revealed"] for mk in c["markers"]
        )

    for seed in range(seeds):
        m = fm.Match("system-demo", seed=seed)
        play_random(m, random.Random(seed), stop=has_face_down)
        if not m.is_over and has_face_down(m):
            return m
    raise AssertionError("no face-down marker found")


@pytest.fixture
def match() -> fm.Match:
    return fm.Match("system-demo", seed=1)


@pytest.fixture
def moving() -> fm.Match:
    """A match past set-up, side a to move in its movement phase."""
    m = fm.Match("system-demo", seed=1)
    finish_setup(m)
    assert m.pending.kind == "phase" and m.pending.phase == "movement"
    return m


def _need(module: str) -> Any:
    """Imports `module` (Stable-Baselines3, sb3-contrib, SuperSuit), or skips the test
    when it is not installed; under scripts/test_py.sh, which installs them and sets
    FM_TEST_NEEDS_ALL=1, a missing one fails the test instead."""
    if os.environ.get("FM_TEST_NEEDS_ALL") == "1":
        found = importlib.import_module(module)
    else:
        found = pytest.importorskip(
            module, reason=f"{module} is not installed (scripts/test_py.sh installs it)"
        )
    if module.startswith(("stable_baselines3", "sb3_contrib")):
        # One torch thread: these networks are tiny, and on a busy 2-core machine
        # torch's second thread spinning made a 128-step run 9 times slower (7.1 s
        # against 0.8 s).
        importlib.import_module("torch").set_num_threads(1)
    return found
