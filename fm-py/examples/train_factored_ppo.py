"""Trains sb3-contrib's MaskablePPO on factored actions (``actions="factored"``) as one
side of a scenario against the built-in random agent (or the built-in AI,
``--opponent mcts``), within a budget of CPU time, and
prints the learning curve: the win rate over a fixed set of evaluation games after
each interval, then over the final games (docs/learning.md, "Learning with factored
actions", has a run's figures).

    python fm-py/examples/train_factored_ppo.py                       # 30 CPU-minutes
    python fm-py/examples/train_factored_ppo.py --cpu-minutes 1 --eval-games 10 --final-games 20

The budget counts this process's CPU time spent learning (the environment and the
learner; torch is held to one thread), not the evaluations. The reward is the game's
alone: +1 for a win, -1 for a loss, 0 for a draw, nothing before the end. Every game
is seeded (training games from ``--seed``, evaluation games from 1,000,000 on), so a
rerun on the same machine plays the same games until the CPU budget cuts it at a
different step. Needs the fm wheel with numpy, gymnasium, stable-baselines3 and
sb3-contrib (``./scripts/test_py.sh`` installs them into .venv).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Dict, List

import numpy as np

from fm.env import FmGymEnv
from fm.tournament import wilson

EVAL_SEED = 1_000_000


def win_rate(
    model: Any, scenario: str, side: str, games: int, deterministic: bool, opponent: Dict[str, Any]
) -> Dict[str, Any]:
    """The model's results over ``games`` seeded games against the opponent."""
    e = FmGymEnv(scenario=scenario, side=side, actions="factored", **opponent)
    wins = draws = steps = 0
    for g in range(games):
        obs, _ = e.reset(seed=EVAL_SEED + g)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=e.action_masks(), deterministic=deterministic)
            obs, reward, terminated, truncated, _ = e.step(int(action))
            steps += 1
            done = terminated or truncated
        assert e.match is not None
        winner = e.match.winner  # the referee's word, not the reward's
        assert (reward > 0) == (winner == side) and (reward == 0) == (winner is None)
        wins += winner == side
        draws += winner is None
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": wins / games,
        "interval": [low, high],
        "steps_per_game": steps / games,
    }


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="system-demo")
    ap.add_argument("--side", default="a", choices=["a", "b"])
    ap.add_argument("--opponent", default="random", choices=["random", "mcts"])
    ap.add_argument("--mcts-iterations", type=int, default=40, help="the mcts opponent's, a decision")
    ap.add_argument("--cpu-minutes", type=float, default=30.0)
    ap.add_argument("--eval-every", type=float, default=3.0, help="CPU-minutes between evaluations")
    ap.add_argument("--eval-games", type=int, default=50)
    ap.add_argument("--final-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-steps", type=int, default=2048)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--learning-rate", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--net", default="128,128", help="hidden layer sizes of both heads")
    ap.add_argument("--greedy", action="store_true", help="evaluate the most likely action, not a sample")
    ap.add_argument("--out", help="also write the curve and the result here (JSON)")
    ap.add_argument("--save", help="save the trained model here (MaskablePPO.load reads it)")
    args = ap.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    opponent: Dict[str, Any] = {"opponent": args.opponent, "mcts_iterations": args.mcts_iterations}
    e = FmGymEnv(scenario=args.scenario, side=args.side, actions="factored", **opponent)
    e.reset(seed=args.seed)
    net = [int(x) for x in args.net.split(",") if x]
    model = MaskablePPO(
        "MlpPolicy",
        e,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        seed=args.seed,
        policy_kwargs={"net_arch": net},
        verbose=0,
    )
    budget = args.cpu_minutes * 60.0
    curve: List[Dict[str, Any]] = []
    deterministic = args.greedy

    def evaluate(games: int) -> Dict[str, Any]:
        r = win_rate(model, args.scenario, args.side, games, deterministic, opponent)
        return r

    class Budget(BaseCallback):
        """Stops at the CPU budget and evaluates every ``--eval-every`` CPU-minutes,
        the evaluations' CPU time left out of the budget."""

        def __init__(self) -> None:
            super().__init__()
            self.spent_outside = 0.0
            self.started = time.process_time()
            self.next_eval = args.eval_every * 60.0

        def learning_cpu(self) -> float:
            return time.process_time() - self.started - self.spent_outside

        def _on_step(self) -> bool:
            used = self.learning_cpu()
            if used >= self.next_eval:
                t0 = time.process_time()
                r = evaluate(args.eval_games)
                self.spent_outside += time.process_time() - t0
                r.update(cpu_minutes=round(used / 60.0, 2), timesteps=self.num_timesteps)
                curve.append(r)
                print(
                    f"{used / 60:6.1f} CPU-min {self.num_timesteps:>9,} steps: "
                    f"won {r['wins']}/{r['games']} ({100 * r['win_rate']:.0f}%)",
                    flush=True,
                )
                self.next_eval += args.eval_every * 60.0
            return bool(used < budget)

    cb = Budget()
    t0 = time.perf_counter()
    r0 = evaluate(args.eval_games)
    cb.spent_outside += 0.0
    r0.update(cpu_minutes=0.0, timesteps=0)
    curve.append(r0)
    cb.started = time.process_time()
    print(f"   0.0 CPU-min         0 steps: won {r0['wins']}/{r0['games']} ({100 * r0['win_rate']:.0f}%)", flush=True)
    model.learn(total_timesteps=10**9, callback=cb)
    learning = cb.learning_cpu()
    steps = model.num_timesteps
    final = evaluate(args.final_games)
    result = {
        "scenario": args.scenario,
        "side": args.side,
        "actions": "factored",
        "opponent": opponent,
        "learning_cpu_minutes": round(learning / 60.0, 2),
        "timesteps": steps,
        "learning_steps_per_cpu_second": round(steps / learning, 1),
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "settings": {k: v for k, v in vars(args).items() if k not in ("out", "save")},
        "curve": curve,
        "final": final,
    }
    lo, hi = final["interval"]
    print(
        f"final: won {final['wins']} of {final['games']} ({100 * final['win_rate']:.0f}%, "
        f"95% interval {100 * lo:.0f}-{100 * hi:.0f}%) after {learning / 60:.1f} CPU-minutes, "
        f"{steps:,} steps ({steps / learning:.0f} a CPU-second)"
    )
    if args.save:
        model.save(args.save)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
