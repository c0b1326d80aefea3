"""Trains RLlib's PPO on Fire & Movement self-play, both sides learning, on a Ray
cluster (or a local Ray): the PettingZoo AEC environment (``fm.env.env``) behind
RLlib's PettingZoo wrapper (``PettingZooEnv``), factored actions (``Discrete(123)``
on system-demo), masked by the RLlib module that reads an action mask from the
observation.

    python fm-py/examples/rllib_selfplay.py --iterations 5              # a local Ray
    python fm-py/examples/rllib_selfplay.py --address HEAD:6379 --num-env-runners 4
    python fm-py/examples/rllib_selfplay.py --scenario huzzah-firefight   # any fm.env scenario

Each side is its own policy (module ``"a"`` and module ``"b"``, mapped by agent id):
the sides of a Fire & Movement scenario have different forces, set-up zones and
victory conditions, the first stage of a factored command names one of the side's
own units, and the observation is written from the side's own view ("own", "enemy") without
saying which side that is, so one network for both would have to tell the two roles
apart from the position alone. Two small networks cost little, and each side's
figures read apart from the other's. Every game is a self-play game: both policies
learn from it at once.

- **Environment**: ``fm.env.env(actions="factored", observation="flat",
  turns="decision")``: only the side that decides acts (no wait steps: half the
  steps of ``turns="cycle"``), one stage of a command a step; RLlib's
  ``PettingZooEnv`` returns the observation of ``agent_selection`` alone, so each step
  one policy acts, and hands each side the rewards gathered since it last acted (the
  game's result at its end: +1, -1, 0 for a draw). ``--max-cycles`` (decisions)
  truncates a game; a random game of system-demo takes about 165.
- **Masking**: :class:`MaskedObservation` gives each observation as
  ``{"action_mask": float32 mask, "observations": the flat vector}``, the layout of
  RLlib's ``ActionMaskingTorchRLModule`` (from ``ray.rllib.examples``, its new API
  stack's masking module for PPO), which adds ``log(mask)`` to the logits: a policy
  never plays an illegal action, so ``illegal_action="raise"`` (the default) holds.
- **Network**: one hidden layer of ``--hidden`` units (64) shared by the policy and
  value heads: the input is the 10,378 values of the observation, the output 123
  logits; about 0.67 M parameters a side.
- **Cost**: each env runner takes one CPU (``--num-env-runners``, 1 by default; on
  the test's cluster of two one-CPU nodes, 2 runners land one on each node),
  ``--batch`` (512) env steps an iteration, 2 epochs of minibatches of 128, the
  learner in this process on one torch thread.
- **A cluster of machines**: every machine needs the same Python environment (the fm
  wheel, ray[rllib] 2.60, torch, pettingzoo), and with Ray's token authentication the
  same token (``RAY_AUTH_MODE=token`` and ``RAY_AUTH_TOKEN``, or the head's
  ``~/.ray/auth_token`` copied) in every ``ray start`` and in this script's
  environment. This file is sent to the env runners by value: it need not be on the
  other machines.

Prints one line an iteration (``--json``: a JSON object a line) with the mean episode
return of each side over the games that ended in the iteration (``return_mean``: +1
a win, -1 a loss, so side ``a``'s is its wins less its losses, and side ``b``'s its
negative), the env steps sampled, the games finished, each side's PPO loss and the
time; first, the Ray nodes that run the env runners. Needs the fm wheel with
ray[rllib] 2.60, torch, pettingzoo and numpy (``./scripts/test_rllib.sh`` installs
them into .venv-rllib).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from typing import Any, Dict, List, Optional

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper  # type: ignore[import-untyped]

# ray ships its types (py.typed); where ray is not installed (the main test venv
# type-checks every example) the names are Any.
import ray  # type: ignore[import-not-found, unused-ignore]
from ray.rllib.algorithms.ppo import PPOConfig  # type: ignore[import-not-found, unused-ignore]
from ray.rllib.core.rl_module.multi_rl_module import (  # type: ignore[import-not-found, unused-ignore]
    MultiRLModuleSpec,
)
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # type: ignore[import-not-found, unused-ignore]
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv  # type: ignore[import-not-found, unused-ignore]
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (  # type: ignore[import-not-found, unused-ignore]
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env  # type: ignore[import-not-found, unused-ignore]

import fm.env

ENV_NAME = "fm_selfplay"
SIDES = ("a", "b")


class MaskedObservation(BaseWrapper):  # type: ignore[misc]
    """An AEC environment of :mod:`fm.env` with ``observation="flat"``, observed as
    ``{"action_mask": mask, "observations": flat}`` (the mask as float32: the module
    takes its logarithm), the observation of RLlib's action-masking module."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        raw = env.unwrapped
        if raw.observation_mode != "flat":
            raise ValueError("MaskedObservation needs observation='flat'")
        n = int(raw.action_space(SIDES[0]).n)
        self._space = spaces.Dict(
            {
                "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32),
                "observations": raw.observation_space(SIDES[0]),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._space

    def observe(self, agent: str) -> Dict[str, npt.NDArray[np.float32]]:
        mask = self.env.unwrapped.action_mask(agent).astype(np.float32)
        return {"action_mask": mask, "observations": self.env.observe(agent)}


def make_env(config: Dict[str, Any]) -> Any:
    """The RLlib environment: fm's AEC environment, masked, in ``PettingZooEnv``."""
    e = fm.env.env(
        scenario=config.get("scenario", "system-demo"),
        actions="factored",
        observation="flat",
        turns="decision",
        max_cycles=config.get("max_cycles"),
    )
    return PettingZooEnv(MaskedObservation(e))  # type: ignore[no-untyped-call, unused-ignore]


def build_config(args: argparse.Namespace) -> Any:
    """The PPO configuration: two policies, one a side, each masked."""
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={
            "fcnet_hiddens": [args.hidden],
            "fcnet_activation": "relu",
            "head_fcnet_hiddens": [],
            "vf_share_layers": True,
        },
    )
    return (
        PPOConfig()  # type: ignore[no-untyped-call, unused-ignore]
        .environment(ENV_NAME, env_config={"scenario": args.scenario, "max_cycles": args.max_cycles})
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=1,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0)
        .multi_agent(
            policies=set(SIDES),
            # Agent "a" plays with module "a", agent "b" with module "b".
            policy_mapping_fn=lambda agent_id, episode, **kwargs: agent_id,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={s: module for s in SIDES}))
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(128, args.batch),
            num_epochs=2,
            lr=args.lr,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def _number(x: Any) -> Optional[float]:
    """A metric as a float (None when RLlib has none yet, or it is not finite)."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _fmt(x: Optional[float], digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def summary(result: Dict[str, Any], iteration: int) -> Dict[str, Any]:
    """The metrics of one ``Algorithm.train()`` result that this example prints."""
    runners = result.get("env_runners", {})
    learners = result.get("learners", {})
    returns = runners.get("agent_episode_returns_mean", {})
    return {
        "iteration": iteration,
        "return_mean": {s: _number(returns.get(s)) for s in SIDES},
        "episode_len_mean": _number(runners.get("episode_len_mean")),
        "episodes": int(runners.get("num_episodes", 0)),
        "episodes_lifetime": int(runners.get("num_episodes_lifetime", 0)),
        "env_steps_sampled": int(runners.get("num_env_steps_sampled", 0)),
        "env_steps_sampled_lifetime": int(runners.get("num_env_steps_sampled_lifetime", 0)),
        "agent_steps_sampled": {
            s: int(runners.get("num_agent_steps_sampled", {}).get(s, 0)) for s in SIDES
        },
        "loss": {s: _number(learners.get(s, {}).get("total_loss")) for s in SIDES},
        "entropy": {s: _number(learners.get(s, {}).get("entropy")) for s in SIDES},
        "time_s": _number(result.get("time_this_iter_s")),
        "time_total_s": _number(result.get("time_total_s")),
    }


def env_runner_nodes(algo: Any) -> List[str]:
    """The Ray node id of each remote env runner (the local one does not sample)."""
    nodes = algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False
    )
    return [str(n) for n in nodes]


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--address", default=None,
                    help="a Ray cluster's address (HEAD:6379); default: a local Ray")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--num-env-runners", type=int, default=1)
    ap.add_argument("--scenario", default="system-demo")
    ap.add_argument("--batch", type=int, default=512, help="env steps an iteration")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--max-cycles", type=int, default=1000, help="decisions before a game is truncated")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="a JSON object a line")
    args = ap.parse_args(argv)

    import torch

    # The learner runs in this process: one thread, as the env runners (Ray gives
    # each worker OMP_NUM_THREADS=1 for its one CPU).
    torch.set_num_threads(1)
    ray.init(address=args.address, include_dashboard=False, logging_level=logging.WARNING)
    if __name__ != "__main__":
        # Imported rather than run: the env runners could not import this file by
        # its name, so its functions travel by value (as a script's do).
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call, unused-ignore]
    register_env(ENV_NAME, make_env)
    start = time.monotonic()
    algo = build_config(args).build_algo()
    try:
        nodes = env_runner_nodes(algo)
        alive = [n for n in ray.nodes() if n["Alive"]]  # type: ignore[no-untyped-call, unused-ignore]
        setup_s = time.monotonic() - start
        if args.json:
            print(json.dumps({"setup_s": round(setup_s, 2), "env_runner_nodes": nodes,
                              "cluster_nodes": len(alive)}), flush=True)
        else:
            print(f"{len(nodes)} env runners on {len(set(nodes))} of the cluster's {len(alive)} "
                  f"nodes; set up in {setup_s:.1f} s", flush=True)
        for i in range(1, args.iterations + 1):
            s = summary(algo.train(), i)
            if args.json:
                print(json.dumps(s), flush=True)
            else:
                r, loss = s["return_mean"], s["loss"]
                print(
                    f"iteration {i}: return a {_fmt(r['a'])}, b {_fmt(r['b'])} over "
                    f"{s['episodes']} games; {s['env_steps_sampled']} env steps; "
                    f"loss a {_fmt(loss['a'])}, b {_fmt(loss['b'])}; {_fmt(s['time_s'], 1)} s",
                    flush=True,
                )
    finally:
        algo.stop()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
