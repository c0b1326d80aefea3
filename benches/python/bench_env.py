"""Steps per second of fm's reinforcement-learning environments (fm.env), per scenario.

Each environment plays whole games with a random agent that reads the action mask of
each observation (``np.flatnonzero`` of the mask read as bool, then one uniform
choice), the usual loop of a training run without the learner:

- ``aec dict`` / ``aec flat``: the PettingZoo AEC environment (``fm.env.env``, with
  PettingZoo's wrappers) with dict and flat observations (``env.last()`` then
  ``env.step``), ``turns="decision"``: a step is one decision (the default cycles add
  a wait step of the other side to each);
- ``parallel``: ``fm.env.parallel_env`` (dict observations of both sides every step,
  the waiting side's wait action);
- ``gym``: ``fm.env.gym_env`` (flat), side a against the built-in random opponent,
  whose moves are inside each step: steps/s counts the agent's steps, decisions/s
  both sides';
- ``match``: the same random play on ``fm.Match`` alone (``legal_actions``, then
  ``apply_action``), what the environment adds to.

``steps/s`` is the whole loop's (the agent's choice included: reading a mask of up to
485k actions is a large part of it on the real maps), ``env steps/s`` the steps over
the time spent inside the environment's calls alone (for ``match``, inside
``legal_actions`` and ``apply_action``). It also times one ``rgb_array`` frame (``render()``: the SVG board drawn by resvg) per
scenario. Needs the fm wheel with numpy, gymnasium and pettingzoo (``./scripts/test_py.sh``
installs them into .venv):

    .venv/bin/python benches/python/bench_env.py               # 2 games each, about a minute
    .venv/bin/python benches/python/bench_env.py --games 5 --scenario meuse-argonne
    .venv/bin/python benches/python/bench_env.py --smoke       # a few steps each, seconds
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Dict, List

import numpy as np

import fm
from fm.env import env, gym_env, parallel_env


def pick(mask: Any, rng: np.random.Generator) -> int:
    """The random agent: a uniform choice among the mask's legal actions (the int8
    mask read as bool, ten times faster for numpy than int8 on a 470k-action space)."""
    return int(rng.choice(np.flatnonzero(mask.view(np.bool_))))


class Clock:
    """Time spent inside the environment's calls (the rest is the agent's)."""

    def __init__(self) -> None:
        self.inside = 0.0
        self._t = 0.0

    def __enter__(self) -> None:
        self._t = time.perf_counter()

    def __exit__(self, *_: Any) -> None:
        self.inside += time.perf_counter() - self._t


def aec(scenario: str, observation: str, seed: int, limit: int, clock: Clock) -> tuple[int, int]:
    with clock:
        e: Any = env(scenario=scenario, observation=observation, turns="decision")
        e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    agents = iter(e.agent_iter())
    while True:
        with clock:
            agent = next(agents, None)
            if agent is None:
                break
            obs, _, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
        action = pick(info["action_mask"] if observation == "flat" else obs["action_mask"], rng)
        with clock:
            e.step(action)
        steps += 1
        if steps >= limit:
            break
    return steps, steps


def parallel(scenario: str, seed: int, limit: int, clock: Clock) -> tuple[int, int]:
    with clock:
        p = parallel_env(scenario=scenario)
        obs, _ = p.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while p.agents and steps < limit:
        actions = {a: pick(o["action_mask"], rng) for a, o in obs.items() if isinstance(o, dict)}
        with clock:
            obs, *_ = p.step(actions)
        steps += 1
    return steps, steps


def gym(scenario: str, seed: int, limit: int, clock: Clock) -> tuple[int, int]:
    with clock:
        g = gym_env(scenario=scenario, side="a")
        _, info = g.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    done = False
    while not done and steps < limit:
        action = pick(info["action_mask"], rng)
        with clock:
            _, _, terminated, truncated, info = g.step(action)
        done = terminated or truncated
        steps += 1
    assert g.match is not None
    return steps, len(g.match.log)


def match(scenario: str, seed: int, limit: int, clock: Clock) -> tuple[int, int]:
    with clock:
        m = fm.Match(scenario, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not m.is_over and steps < limit:
        with clock:
            legal = m.legal_actions()
        action = int(rng.choice(legal))
        with clock:
            m.apply_action(action)
        steps += 1
    return steps, steps


def frame_ms(scenario: str) -> float:
    e: Any = env(scenario=scenario, render_mode="rgb_array")
    e.reset(seed=0)
    e.render()  # the system's fonts are loaded once per process
    t = time.perf_counter()
    frame = e.render()
    ms = (time.perf_counter() - t) * 1000
    assert frame.ndim == 3
    return ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games per scenario and environment")
    parser.add_argument("--scenario", action="append", help="a scenario (repeatable; default: every F&M one)")
    parser.add_argument("--smoke", action="store_true", help="20 steps each: checks the script runs")
    args = parser.parse_args()
    scenarios: List[str] = args.scenario or fm.scenarios("fm")
    limit = 20 if args.smoke else 10**9
    games = 1 if args.smoke else args.games
    runs: Dict[str, Callable[[str, int, int, Clock], tuple[int, int]]] = {
        "match": match,
        "aec dict": lambda s, g, n, c: aec(s, "dict", g, n, c),
        "aec flat": lambda s, g, n, c: aec(s, "flat", g, n, c),
        "parallel": parallel,
        "gym": gym,
    }
    print(
        f"{'scenario':<14} {'environment':<11} {'steps/s':>8} {'env steps/s':>12}"
        f" {'decisions/s':>12} {'steps/game':>11}"
    )
    for scenario in scenarios:
        for name, run in runs.items():
            steps = decisions = 0
            clock = Clock()
            t = time.perf_counter()
            for g in range(games):
                s, d = run(scenario, g, limit, clock)
                steps += s
                decisions += d
            secs = time.perf_counter() - t
            print(
                f"{scenario:<14} {name:<11} {steps / secs:>8.0f} {steps / clock.inside:>12.0f}"
                f" {decisions / secs:>12.0f} {steps / games:>11.0f}"
            )
        print(f"{scenario:<14} rgb_array frame: {frame_ms(scenario):.1f} ms")


if __name__ == "__main__":
    main()
