"""A PettingZoo AEC environment over any Fire & Movement scenario: one agent per side
(a scenario of another rules system raises ``fm.UnsupportedError``: the observations
are Fire & Movement's).

>>> from fm.env import env
>>> e = env(scenario="system-demo")
>>> e.reset(seed=0)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are the sides, ``"a"`` and ``"b"`` (named in ``scenario.sides``); whose turn it
is follows the game's pending decision (set-up, phases, support fire steps, losses,
retreats, advances, Suez 1916 fire support placement), so an agent may act several
times in a row.

- **Actions**: ``Discrete(scenario.action_space_size)``, the engine's stable integer
  command encoding (docs/protocol.md, "Integer command encoding"): the same index means
  the same command (kind, unit, hex) throughout a game.
- **Observations** (a dict, computed from the agent's own view, so the other side's
  face-down support fire markers stay hidden):

  - ``"observation"``: float32 board planes ``(channels, rows, columns)`` over the
    map's bounding box, values in [0, 1]: on-map mask, terrain types, hexside
    features (north, north-east and south-east side of each hex), objectives and
    their control, set-up zone, entry hexes, and for own and enemy units: presence,
    attack, defense and movement of the current step (scaled by the scenario's
    maximum), steps left, depleted, mobile, exerts ZOC, moved, attacked, defended;
    bombardments, the combat in progress and the units and path of the pending
    decision; exclusive rules: breached works, aircraft and placed artillery (Meuse
    Argonne, Vimy Ridge), fire support markers placed by each side, announced attacks,
    Kress, the air unit's observed hex and un-activated units (Suez 1916).
    ``scenario.observation_channels`` names them.
  - ``"features"``: float32 vector in [0, 1]: turn, phase, pending decision, support
    fire markers of both sides (the enemy's as the public multiset), the combat in
    progress, unit counts, outcome, artillery markers and fire support pools.
    ``scenario.feature_names`` names them.
  - ``"action_mask"``: int8, 1 for the legal actions of the agent to move (all zero
    for the other agent).

- **Rewards**: 0 until the game ends, then +1 to the winner and -1 to the loser (0
  each for a draw). ``max_steps`` truncates a game (reward 0).
- **Illegal actions** raise ``fm.RuleError`` (``illegal_action="raise"``) or lose the
  game for the agent that played them (``illegal_action="lose"``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import fm

Observation = Dict[str, npt.NDArray[Any]]

__all__ = ["FmEnv", "env", "raw_env"]


class FmEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment. Prefer :func:`env`, which adds PettingZoo's
    order-enforcing and bounds-checking wrappers."""

    metadata: Dict[str, Any] = {
        "name": "fm_v0",
        "render_modes": ["ansi", "svg"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: Union[str, fm.Scenario] = "system-demo",
        seed: Optional[int] = None,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError('illegal_action must be "raise" or "lose"')
        self.scenario: fm.Scenario = (
            scenario if isinstance(scenario, fm.Scenario) else fm.Scenario(scenario)
        )
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal_action = illegal_action
        self.possible_agents: List[str] = ["a", "b"]
        self.agents: List[str] = []
        self._shape = self.scenario.observation_shape
        self._n_features = len(self.scenario.feature_names)
        self._n_actions = self.scenario.action_space_size
        self.observation_spaces: Dict[str, spaces.Dict] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, self._shape, np.float32),
                    "features": spaces.Box(0.0, 1.0, (self._n_features,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._n_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: Dict[str, spaces.Discrete] = {
            a: spaces.Discrete(self._n_actions) for a in self.possible_agents
        }
        self._rng = np.random.default_rng(seed)
        self.match: Optional[fm.Match] = None
        self.num_steps = 0
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self.agent_selection: str = "a"

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _game(self) -> fm.Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new game. ``seed`` seeds the environment's generator, which draws the
        match seed; ``options={"match_seed": n}`` sets the match seed directly."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        match_seed = int(self._rng.integers(0, 2**62))
        if options and "match_seed" in options:
            match_seed = int(options["match_seed"])
        self.match = fm.Match(self.scenario, seed=match_seed)
        self.agents = list(self.possible_agents)
        self.num_steps = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.match.to_move or "a"
        self._update_infos()

    def _update_infos(self) -> None:
        m = self._game()
        for a in self.agents:
            self.infos[a] = {
                "turn": m.turn,
                "phase": m.phase,
                "pending": m.pending.kind,
                "to_move": m.to_move,
            }

    def observe(self, agent: str) -> Observation:
        m = self._game()
        board_bytes, feature_bytes = m.observation_bytes(agent)
        board = np.frombuffer(board_bytes, dtype="<f4").reshape(self._shape).astype(np.float32)
        features = np.frombuffer(feature_bytes, dtype="<f4").astype(np.float32)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if (
            agent == m.to_move
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        ):
            # Filled in place: no bytes object, no copy (a fresh array each observation,
            # since observations are kept by replay buffers).
            m.legal_action_mask(out=mask)
        return {"observation": board, "features": features, "action_mask": mask}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal actions of ``agent`` (all zero when it is not its turn)."""
        return self.observe(agent)["action_mask"]

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act: action is None")
        m = self._game()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        forfeit = False
        try:
            m.apply_action(int(action))
        except fm.RuleError:
            if self.illegal_action == "raise":
                raise
            forfeit = True
        self.num_steps += 1
        if forfeit:
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 1.0
                self.terminations[a] = True
        elif m.is_over:
            returns = m.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[a])
                self.terminations[a] = True
        elif self.max_steps is not None and self.num_steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = m.to_move or agent
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        """``"ansi"``: a one-line summary; ``"svg"``: the board as SVG (full state)."""
        if self.render_mode is None or self.match is None:
            return None
        if self.render_mode == "svg":
            return self.match.svg()
        return repr(self.match)

    def close(self) -> None:
        self.match = None

    def state(self) -> Dict[str, Any]:
        """The full game state (JSON form), for centralized critics and debugging."""
        return self._game().state


raw_env = FmEnv


def env(**kwargs: Any) -> Any:
    """The wrapped environment: ``FmEnv(**kwargs)`` inside PettingZoo's
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``."""
    e: Any = FmEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
