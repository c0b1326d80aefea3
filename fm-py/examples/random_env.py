"""Two random agents play through the PettingZoo environment (no training).

    python fm-py/examples/random_env.py [--games 3] [--scenario system-demo]
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from fm.env import env


def play(scenario: str, seed: int) -> dict[str, float]:
    e: Any = env(scenario=scenario)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {agent: 0.0 for agent in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(rng.choice(legal))
            steps += 1
        e.step(action)
    board_shape = e.observation_space("a")["observation"].shape
    print(f"game {seed}: {steps} actions, board {board_shape}, rewards {totals}")
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--scenario", default="system-demo")
    args = parser.parse_args()
    wins = {"a": 0, "b": 0, "draw": 0}
    for g in range(args.games):
        totals = play(args.scenario, g)
        if totals["a"] > 0:
            wins["a"] += 1
        elif totals["b"] > 0:
            wins["b"] += 1
        else:
            wins["draw"] += 1
    print("wins:", wins)


if __name__ == "__main__":
    main()
