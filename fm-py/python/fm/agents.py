"""Agents that choose the pending decision of a match, for any rules system.

An agent is a callable ``agent(match) -> int`` returning the action index of its
choice (apply it with ``match.apply_action``); ``agent.think(match)`` tells more.

>>> import fm
>>> from fm import agents
>>> m = fm.Match("system-demo", seed=1)
>>> ai = agents.mcts(iterations=50, seed=7)
>>> m.apply_action(ai(m))
>>> rnd = agents.random(seed=3)
>>> m.apply_action(rnd(m)) if not m.is_over else None

- :func:`mcts` is the built-in AI: information-set Monte Carlo tree search
  (``Match.think``), which searches from the deciding side's knowledge alone and rolls
  its own dice. Each decision gets its own seed, drawn from the agent's ``seed`` and
  the number of decisions it has taken, so a game between seeded agents replays
  exactly (unless a ``time_budget`` cuts a search short: then the machine's speed
  matters).
- :func:`random` is the built-in random agent (``Match.sample_legal_action``).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import fm

__all__ = ["Mcts", "Random", "mcts", "random"]

_MASK = (1 << 64) - 1


def _decision_seed(seed: int, k: int) -> int:
    # SplitMix64's finaliser: distinct, well-mixed seeds for the decisions of one agent.
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Mcts:
    """The built-in AI (see :func:`mcts`)."""

    def __init__(
        self,
        iterations: int = 200,
        seed: int = 0,
        time_budget: Optional[float] = None,
        **settings: Any,
    ) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
            raise fm.ProtocolError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        unknown = set(settings) - {"exploration", "rollout", "widening", "max_priors"}
        if unknown:
            raise fm.ProtocolError(f"unknown search setting(s): {', '.join(sorted(unknown))}")
        self.iterations = iterations
        self.seed = seed
        self.time_budget = time_budget
        self.settings: Dict[str, Any] = dict(settings)
        self.decisions = 0

    def think(self, match: fm.Match) -> Dict[str, Any]:
        """The search's result for the match's pending decision (``Match.think``)."""
        r: Dict[str, Any] = match.think(
            iterations=self.iterations,
            seed=_decision_seed(self.seed, self.decisions),
            time_budget=self.time_budget,
            **self.settings,
        )
        self.decisions += 1
        return r

    def __call__(self, match: fm.Match) -> int:
        index: int = self.think(match)["index"]
        return index

    def __repr__(self) -> str:
        return f"fm.agents.mcts(iterations={self.iterations}, seed={self.seed}, time_budget={self.time_budget})"


class Random:
    """The built-in random agent (see :func:`random`)."""

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
            raise fm.ProtocolError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
        self.seed = seed
        self.decisions = 0

    def __call__(self, match: fm.Match) -> int:
        seed = _decision_seed(self.seed, self.decisions)
        action = match.sample_legal_action(seed)
        self.decisions += 1
        if action is None:
            legal = match.legal_actions()
            if not legal:
                raise fm.RuleError("search", "no decision to take: the game is over")
            # The draw was a legal command without an action index (Huzzah!'s encoding
            # does not number every one yet): a seeded uniform choice among the
            # commands that have one, as the Gymnasium environment's random opponent.
            return int(legal[_decision_seed(seed, 0) % len(legal)])
        return int(action)

    def __repr__(self) -> str:
        return f"fm.agents.random(seed={self.seed})"


def mcts(
    iterations: int = 200,
    seed: int = 0,
    time_budget: Optional[float] = None,
    **settings: Any,
) -> Mcts:
    """The built-in AI: ``iterations`` per decision (and at most ``time_budget``
    seconds, if given), from ``seed``; ``settings`` are the other search settings of
    ``Match.think`` (``exploration``, ``rollout``, ``widening``, ``max_priors``)."""
    return Mcts(iterations=iterations, seed=seed, time_budget=time_budget, **settings)


def random(seed: int = 0) -> Random:
    """The built-in random agent, its draws from ``seed``."""
    return Random(seed=seed)
