"""Learner steps per second: sb3-contrib's MaskablePPO on fm's Gymnasium environment
(``fm.env.gym_env``, side a against the built-in random agent) with flat and factored
actions, beside the same learner on a trivial environment with the same observation
and action spaces (issue 32, point 1).

The trivial environment does no work: a constant observation, a fixed mask of a few
legal actions, no reward, 100 steps a game. What the learner does there is its own
cost for those spaces (the policy's input layer over the observation, its masked
Categorical over the actions): the ceiling the real environment can reach. A second
trivial environment keeps the observation and has 8 actions: the learner's cost when
its action space costs nothing. Each row also gives the environment alone (a random
agent reading the mask, no learner). All figures are steps per CPU second.

    .venv/bin/python benches/python/bench_maskable_ppo.py                 # both scenarios, minutes
    .venv/bin/python benches/python/bench_maskable_ppo.py --scenario system-demo --steps 1024
    .venv/bin/python benches/python/bench_maskable_ppo.py --smoke         # seconds

Times are CPU seconds of this process (``time.process_time``), torch held to one
thread; ``--steps`` learner steps a row (``n_steps`` 256, batch 64, one epoch, the
default [64, 64] networks). Needs the fm wheel with numpy, gymnasium,
stable-baselines3 and sb3-contrib (``./scripts/test_py.sh`` installs them).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from fm.env import FmGymEnv


class Trivial(gymnasium.Env[Any, Any]):
    """The same spaces as ``like``, and nothing behind them."""

    def __init__(self, like: FmGymEnv, legal: int = 8, actions: Optional[int] = None) -> None:
        self.observation_space = like.observation_space
        n = int(like.action_space.n) if actions is None else actions
        self.action_space = spaces.Discrete(n)
        self._mask = np.zeros(n, dtype=bool)
        self._mask[np.linspace(0, n - 1, num=min(legal, n)).astype(int)] = True
        self._obs = np.zeros(self.observation_space.shape or (), dtype=np.float32)
        self._t = 0

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        super().reset(seed=seed)
        self._t = 0
        return self._obs.copy(), {}

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        assert self._mask[int(action)]
        self._t += 1
        return self._obs.copy(), 0.0, self._t >= 100, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self._mask


def learner_rate(e: Any, steps: int, n_steps: int) -> Tuple[float, int, float]:
    """MaskablePPO's steps per CPU second on ``e``; the policy's parameters; the
    process's peak RSS in MB so far."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", e, n_steps=n_steps, batch_size=64, n_epochs=1, seed=0, verbose=0)
    params = sum(p.numel() for p in model.policy.parameters())
    model.learn(total_timesteps=n_steps)  # warm-up: the first rollout and update
    t0 = time.process_time()
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    cpu = time.process_time() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return steps / cpu, int(params), rss


def env_rate(e: FmGymEnv, steps: int) -> float:
    """The environment alone: a random agent reading the mask, steps per CPU second."""
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    t0 = time.process_time()
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(e.action_masks())))
        _, _, te, tr, _ = e.step(a)
        if te or tr:
            e.reset()
    return steps / (time.process_time() - t0)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", action="append", help="(repeatable) default: system-demo and suez-1916")
    ap.add_argument("--steps", type=int, default=1024, help="learner steps a row, after a warm-up rollout")
    ap.add_argument("--n-steps", type=int, default=256)
    ap.add_argument("--smoke", action="store_true", help="a few steps each (a test of the script)")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    scenarios = args.scenario or ["system-demo", "suez-1916"]
    steps, n_steps = (args.steps, args.n_steps) if not args.smoke else (64, 64)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    print(
        "| scenario | actions | action space | policy parameters | env alone | MaskablePPO "
        "| trivial env, same spaces | ratio | trivial env, Discrete(8) | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for scenario in scenarios:
        for actions in ("flat", "factored"):
            real = FmGymEnv(scenario=scenario, actions=actions)
            alone = env_rate(FmGymEnv(scenario=scenario, actions=actions), max(steps, 2000) if not args.smoke else 50)
            ppo, params, _ = learner_rate(real, steps, n_steps)
            same, _, rss = learner_rate(Trivial(real), steps, n_steps)
            small, _, _ = learner_rate(Trivial(real, actions=8), steps, n_steps)
            print(
                f"| {scenario} | {actions} | {real.action_space.n:,} | {params:,} | {alone:,.0f} "
                f"| {ppo:,.1f} | {same:,.1f} | {ppo / same:.2f} | {small:,.1f} | {ppo / small:.2f} |",
                flush=True,
            )
            print(f"  ({scenario} {actions}: peak RSS so far {rss:,.0f} MB)", file=sys.stderr)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
