"""Reinforcement-learning environments over any scenario of a rules system with a
learning observation (Fire & Movement, Huzzah!; another system raises
``fm.UnsupportedError``), one agent per side:

- :func:`env` / :class:`FmEnv`: the PettingZoo AEC environment. By default
  (``turns="cycle"``) the sides take turns ``a``, ``b``, ``a``, ... and each cycle is
  one decision: the side deciding as the cycle begins acts, the other plays the wait
  action, so PettingZoo's cycles (``max_cycles``, ``aec_to_parallel``) hold; with
  ``turns="decision"`` only the side that decides acts, sometimes many times in a
  row;
- :func:`parallel_env` / :class:`FmParallelEnv`: a PettingZoo parallel environment in
  which both sides act every step and only the deciding side's action counts (the
  other's only legal action is the wait action);
- :func:`gym_env` / :class:`FmGymEnv`: a Gymnasium environment playing one side
  against a fixed opponent (random, or any policy), with ``action_masks()`` for
  sb3-contrib's ``MaskablePPO``.

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

Agents are the sides, ``"a"`` and ``"b"``; whose turn it is follows the game's
pending decision (Fire & Movement: set-up, phases, support fire steps, losses,
retreats, advances, Suez 1916 fire support placement; Huzzah!: placement, fire
declarations, base removals, orders and the units acting on them, the missing rules'
decisions), so an agent may act several times in a row.

- **Actions** (``actions=``): ``"flat"`` (the default), ``Discrete(action_space_size)``,
  the engine's stable integer command encoding (docs/protocol.md, "Integer command
  encoding"): the same index means the same command throughout a game.
  ``"factored"``: ``Discrete(K)``, ``K = max(factored_sizes)``, each step one option
  of the current stage of the factored action space (``Match.factored_options``:
  Fire & Movement's command kind with its unit, then a hex or unit, then a last
  argument; Huzzah!'s two stages), the mask over the ``K`` options; the command is
  applied when its last stage is chosen, and until then the same side acts again
  (reward 0, no opponent move). The observation's features then end with the stage
  being chosen and the options chosen so far (one-hot, ``factored_stage_i`` and
  ``factored_choice_i_v``), the deciding side's only. The parallel environment and
  the AEC one in cycles add one action, the wait action (``wait_action``, the last
  index: ``action_space_size`` or ``K``). The AEC and parallel
  environments' action spaces sample among the agent's legal actions when
  ``sample()`` is given no mask (:class:`LegalActions`), so that samplers that do not
  read the mask (PettingZoo's ``parallel_seed_test`` and ``max_cycles_test``) play
  legal games; a policy's own illegal action is still handled by ``illegal_action``.
- **Observations**, computed from the agent's own view only (so the other side's
  face-down support fire markers, secret allotments and pools stay hidden), laid out
  by the match's ``observation_spec`` (the environment's ``observation_shape``,
  ``observation_channels``, ``feature_names``, ``observation_size``), in one of two
  forms (``observation=``):

  - ``"dict"`` (the AEC and parallel default): ``"observation"``, the float32 planes
    ``(channels, rows, columns)``; ``"features"``, a float32 vector; ``"action_mask"``,
    int8, 1 for the legal actions of the agent (for the agent not deciding: its one
    legal action, the wait action, where there is one; else all zero). Every value
    lies in [0, 1]. Huzzah! (docs/learning.md, "The Huzzah! observation"): the planes
    are a raster of the table seen from the agent's own edge (on the table, the six
    kinds of terrain, objectives, own and enemy bases, fronts and officers); the
    features are the global block (turn, phase, pending decision, the armies'
    skirmish and artillery standing, ground and weather, losses and objectives held,
    outcome), then one slot of 65 values for each unit (own army first, each side
    as many slots as the larger army has units), one of 17 for each officer, and 6
    for each objective. Fire & Movement: ``"observation"``, board planes over the
    map's bounding box:
    on-map mask, terrain types, hexside features (north, north-east and south-east
    side of each hex), objectives and their control, set-up zone, entry hexes, and for
    own and enemy units: presence, attack, defense and movement of the current step
    (scaled by the scenario's maximum), steps left, depleted, mobile, exerts ZOC,
    moved, attacked, defended; bombardments, the combat in progress and the units and
    path of the pending decision; exclusive rules: breached works, aircraft and placed
    artillery (Meuse Argonne, Vimy Ridge), fire support markers placed by each side,
    announced attacks, Kress, the air unit's observed hex and un-activated units (Suez
    1916) (``scenario.observation_channels`` names them); ``"features"``, a float32
    vector in [0, 1]: turn, phase, pending decision, support fire markers of both
    sides (the enemy's as the public multiset), the combat in progress, unit counts,
    outcome, artillery markers and fire support pools (``scenario.feature_names``).
  - ``"flat"`` (the Gymnasium default): one float32 ``Box`` vector in [0, 1] of
    ``observation_size`` values, the planes (C order) then the features, what
    SuperSuit's wrappers, Stable-Baselines3 and Tianshou take as they are (the
    PettingZoo tutorials' wrappers, which read ``obs["observation"]`` of a dict and
    drop the rest, would lose the features). The action mask is then
    ``info["action_mask"]`` (int8), and :meth:`FmEnv.action_mask`.

  Each observation is a new array (filled in place by ``Match.observation``), so
  replay buffers may keep it.
- **Rewards**: 0 until the game ends, then +1 to the winner and -1 to the loser (0
  each for a draw).
- **Truncation**: ``max_cycles=n`` truncates the game (reward 0) after ``n``
  cycles: in the AEC environment a cycle of ``a`` then ``b`` (``turns="decision"``:
  one ``step()`` of the deciding agent), one ``step()`` of the parallel environment,
  one of the agent's own ``step()`` calls in the Gymnasium environment (the
  opponent's replies are not counted); with factored actions each stage is a step. ``max_steps`` is its old name, deprecated (a ``DeprecationWarning``).
- **Illegal actions** (``illegal_action=``): ``"raise"`` (the AEC and parallel
  default) raises ``fm.RuleError`` and changes nothing; ``"lose"`` (the Gymnasium
  default, so that Stable-Baselines3's ``check_env``, which plays unmasked random
  actions, ends episodes rather than raising) ends the game, -1 to the agent that
  played it and +1 to the other; ``"penalty"`` refuses the action, gives the agent
  ``illegal_reward`` (default -0.1) and leaves the decision with it (the step counts
  towards ``max_cycles``). An action outside the action space is always an error.
- **State**: ``state()`` / ``state_space`` (the referee's, for centralized critics):
  both sides' flat observations one after the other, side ``"a"``'s first, a float32
  ``Box`` of ``2 * observation_size`` values. It holds what either side knows,
  so each side's hidden values (its own face-down markers, its secret allotment): never
  give it to a policy that plays one side.
- **Rendering** (``render_mode=``): ``"ansi"``, a text summary (the match, the last
  command and its events); ``"rgb_array"``, the board (Fire & Movement) or the table
  (Huzzah!) as an RGB ``uint8`` array
  ``(height, width, 3)``, drawn from the engine's SVG by resvg in Rust
  (``fm.svg_to_rgb``; text with the system's fonts, ``fm.render_fonts()``);
  ``"svg"``, the SVG text; ``"human"``, the board shown after every step: in a Jupyter
  notebook (IPython) as an inline picture updated in place, elsewhere the ``"ansi"``
  text printed to standard output, and with ``render_path="board.png"`` also written
  to that PNG file each time (``render()`` returns None). The picture is the referee's
  (the full state) unless ``render_side`` names a side, whose view it then shows.

Determinism: ``reset(seed=s)`` seeds the environment's generator, which draws the
match seed (and the random opponent's choices): the same seed and actions give the
same game. ``reset(options={"match_seed": n})`` sets the match seed directly.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import fm

Observation = Union[Dict[str, npt.NDArray[Any]], npt.NDArray[np.float32]]
"""A ``"dict"`` observation (board, features, mask) or a ``"flat"`` one (a vector)."""

Action = Union[int, np.integer[Any]]

OpponentMove = Union[int, np.integer[Any], fm.Command, Mapping[str, Any], str]
"""What an opponent policy returns: an action index, or a command (typed, a dict in
the documented JSON form, or JSON text)."""

Opponent = Union[str, Callable[[fm.Match], OpponentMove]]
"""``"random"`` (the built-in random agent), ``"mcts"`` (the built-in AI) or a callable ``(match) -> command or
action`` (such as an agent of ``fm.agents``)."""

RENDER_MODES = ["human", "ansi", "rgb_array", "svg"]
OBSERVATION_MODES = ("dict", "flat")
ACTION_MODES = ("flat", "factored")
TURN_MODES = ("cycle", "decision")
ILLEGAL_ACTIONS = ("raise", "lose", "penalty")
SIDES = ("a", "b")

__all__ = [
    "FmEnv",
    "FmGymEnv",
    "FmParallelEnv",
    "LegalActions",
    "env",
    "gym_env",
    "parallel_env",
    "raw_env",
]


def _max_cycles_arg(max_cycles: Optional[int], max_steps: Optional[int]) -> Optional[int]:
    """``max_cycles``, or its deprecated alias ``max_steps``, checked."""
    if max_steps is not None:
        warnings.warn(
            "max_steps is deprecated: use max_cycles (PettingZoo's name)",
            DeprecationWarning,
            stacklevel=3,
        )
        if max_cycles is not None and max_cycles != max_steps:
            raise ValueError(f"max_cycles={max_cycles} and max_steps={max_steps} disagree")
        max_cycles = max_steps
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)):
        raise TypeError(f"max_cycles must be an int or None, not {type(max_cycles).__name__}")
    if max_cycles < 1:
        raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
    return int(max_cycles)


def _choice(name: str, value: Any, allowed: Any) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, not {value!r}")


class LegalActions(spaces.Discrete):
    """The action space of an agent of the AEC or parallel environment: the
    ``Discrete`` of every action index, whose ``sample()`` without a mask (nor
    probabilities) draws among the agent's legal actions now (its own generator,
    seeded by ``seed()``), and uniformly over the space before ``reset()``. With a
    mask it is ``Discrete.sample``. It compares, copies and pickles as the plain
    ``Discrete`` of its size.

    PettingZoo's ``parallel_seed_test`` and ``max_cycles_test`` sample every agent's
    action with a bare ``sample()``; in a game whose legal actions are a few among
    thousands, that is an illegal action nearly every time."""

    def __init__(self, n: int, legal: Callable[[], Optional[npt.NDArray[np.int8]]]) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(
        self,
        mask: Optional[npt.NDArray[np.int8]] = None,
        probability: Any = None,
    ) -> np.int64:
        if mask is None and probability is None:
            mask = self._legal()
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> Any:
        return (spaces.Discrete, (int(self.n), int(self.start)))


class _Common:
    """What the three environments share: the scenario and its spaces, the match,
    observations, masks, the referee's state, pictures."""

    metadata: Dict[str, Any]
    render_mode: Optional[str]
    match: Optional[fm.Match]

    def _setup(
        self,
        scenario: Union[str, fm.Scenario],
        observation: str,
        illegal_action: str,
        illegal_reward: float,
        max_cycles: Optional[int],
        render_mode: Optional[str],
        render_side: Optional[str],
        render_path: Optional[str],
        wait_action: bool,
        actions: str = "flat",
    ) -> None:
        _choice("observation", observation, OBSERVATION_MODES)
        _choice("actions", actions, ACTION_MODES)
        _choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        if render_mode is not None:
            _choice("render_mode", render_mode, self.metadata["render_modes"])
        if render_side is not None:
            _choice("render_side", render_side, SIDES)
        if isinstance(illegal_reward, bool) or not isinstance(
            illegal_reward, (int, float, np.integer, np.floating)
        ):
            raise TypeError(f"illegal_reward must be a number, not {type(illegal_reward).__name__}")
        if not np.isfinite(illegal_reward):
            raise ValueError(f"illegal_reward must be finite, not {illegal_reward}")
        # A match of the scenario, opened once: it validates the scenario, names its
        # system and gives the observation's layout (fm.UnsupportedError for a system
        # without one) and the action space.
        probe = fm.Match(scenario)
        spec = probe.observation_spec
        self.system: str = probe.system
        # Fire & Movement's scenario is validated once and shared by every match
        # (fm.Scenario); another system's is opened from what was given.
        self._source: Any = probe.scenario if self.system == "fm" else scenario
        self.scenario: Any = self._source
        """The scenario: an ``fm.Scenario`` for Fire & Movement, else as given (a
        built-in name, a path, JSON text or a dict)."""
        self.observation_mode = observation
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.render_side = render_side
        self.render_path = render_path
        c, h, w = (int(x) for x in spec["shape"])
        self._shape = (c, h, w)
        self._board_size = c * h * w
        self.observation_shape: Tuple[int, int, int] = self._shape
        """The planes' ``(channels, rows, columns)``."""
        self.observation_channels: List[str] = list(spec["channels"])
        """The planes' names."""
        self.feature_names: List[str] = list(spec["features"])
        """The features' names, in order."""
        self._engine_size = self._board_size + len(self.feature_names)
        self.action_mode = actions
        self.action_space_size: int = probe.action_space_size
        """The number of command indices (the flat action space)."""
        self.factored_sizes: Tuple[int, ...] = tuple(int(n) for n in probe.factored_sizes)
        """The number of options of each stage of the factored action space."""
        self._factored = actions == "factored"
        if self._factored:
            # The stage being chosen, then each chosen option but the last stage's (the
            # last one completes the command): the policy's own choices so far.
            stages = len(self.factored_sizes)
            self.feature_names += [f"factored_stage_{i}" for i in range(stages)]
            for i, n in enumerate(self.factored_sizes[:-1]):
                self.feature_names += [f"factored_choice_{i}_{v}" for v in range(n)]
            self._n_choices = max(self.factored_sizes)
        else:
            self._n_choices = self.action_space_size
        self.num_choices: int = self._n_choices
        """The actions that choose something: ``action_space_size`` with flat actions,
        ``max(factored_sizes)`` (K) with factored ones; a wait action is one more."""
        self._obs_size = self._board_size + len(self.feature_names)
        self.observation_size: int = self._obs_size
        """The length of a flat observation: the planes, then the features."""
        self._n_actions = self._n_choices + (1 if wait_action else 0)
        # The stages chosen so far of the command being built (factored actions).
        self._prefix: List[int] = []
        self._completed = False
        self.match = None
        self.num_steps = 0
        # The last command applied, for the text rendering: (side, what it played,
        # events); kept only with a render mode that shows it.
        self._last: Optional[Tuple[str, str, List[Any]]] = None
        self._display: Any = None
        self.state_space = spaces.Box(0.0, 1.0, (2 * self._obs_size,), np.float32)

    @property
    def max_steps(self) -> Optional[int]:
        """Deprecated: ``max_cycles``."""
        return self.max_cycles

    def _make_observation_space(self) -> spaces.Space[Any]:
        if self.observation_mode == "flat":
            return spaces.Box(0.0, 1.0, (self._obs_size,), np.float32)
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self._shape, np.float32),
                "features": spaces.Box(
                    0.0, 1.0, (self._obs_size - self._board_size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self._n_actions,), np.int8),
            }
        )

    def _game(self) -> fm.Match:
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _new_match(self, match_seed: int, options: Optional[Dict[str, Any]]) -> fm.Match:
        if options and "match_seed" in options:
            match_seed = int(options["match_seed"])
        self.match = fm.Match(self._source, seed=match_seed)
        self.num_steps = 0
        self._last = None
        self._prefix = []
        return self.match

    def _flat(self, agent: str) -> npt.NDArray[np.float32]:
        """A new flat observation of ``agent``, filled in place by the engine (and, with
        factored actions, the agent's own stages chosen so far)."""
        m = self._game()
        if not self._factored:
            buf = np.empty(self._obs_size, dtype=np.float32)
            m.observation(agent, out=buf)
            return buf
        buf = np.zeros(self._obs_size, dtype=np.float32)
        m.observation(agent, out=buf[: self._engine_size])
        if agent == self._deciding() and not m.is_over:
            # Only the deciding side's own choices: the other side sees zeros (a
            # command half chosen may be a secret one, such as a face-down marker).
            at = self._engine_size
            buf[at + len(self._prefix)] = 1.0
            at += len(self.factored_sizes)
            for stage, n in enumerate(self.factored_sizes[:-1]):
                if stage < len(self._prefix):
                    buf[at + self._prefix[stage]] = 1.0
                at += n
        return buf

    def _legal(self, agent: str, live: bool = True) -> npt.NDArray[np.int8]:
        """A new mask of ``agent``'s legal actions (all zero unless it decides and
        ``live``; with a wait action, that one alone for a live agent not deciding)."""
        m = self._game()
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if not live or (m.is_over and not self._waiting_out()):
            return mask
        if agent == self._deciding():
            # Filled in place: no bytes object, no copy.
            if self._factored:
                n = self.factored_sizes[len(self._prefix)]
                m.factored_mask(self._prefix, out=mask[:n])
            else:
                m.legal_action_mask(out=mask[: self._n_choices])
        elif self._n_actions > self._n_choices:
            mask[self._n_choices] = 1
        return mask

    def _deciding(self) -> Optional[str]:
        """The side whose action counts now (the others wait)."""
        return self._game().to_move

    def _waiting_out(self) -> bool:
        """Whether the game has ended and the agents wait out the cycle
        (:class:`FmEnv` with cycles)."""
        return False

    def _observation(self, agent: str, live: bool = True) -> Observation:
        flat = self._flat(agent)
        if self.observation_mode == "flat":
            return flat
        return {
            "observation": flat[: self._board_size].reshape(self._shape),
            "features": flat[self._board_size :],
            "action_mask": self._legal(agent, live),
        }

    def _info(self) -> Dict[str, Any]:
        """Turn and phase (Huzzah!: turn 0 and phase ``"setup"`` before turn 1), the
        pending decision's kind and the side to move."""
        m = self._game()
        return {"turn": m.turn, "phase": m.phase, "pending": m.pending_kind, "to_move": m.to_move}

    def _action_spaces(self) -> Dict[str, spaces.Discrete]:
        """Each agent's :class:`LegalActions`, sampling from its mask now."""

        def legal(agent: str) -> Callable[[], Optional[npt.NDArray[np.int8]]]:
            def mask() -> Optional[npt.NDArray[np.int8]]:
                if self.match is None:
                    return None
                return self._legal(agent, self._agent_live(agent))

            return mask

        return {a: LegalActions(self._n_actions, legal(a)) for a in SIDES}

    def _agent_live(self, agent: str) -> bool:
        """The agent is still in the game (each environment says how)."""
        return True

    def _apply(self, agent: str, action: int) -> Optional[fm.RuleError]:
        """Applies ``agent``'s ``action`` (a command index, or with factored actions
        one stage's option, the command applied when its last stage is chosen); the
        refusal under ``"lose"`` and ``"penalty"`` (under ``"raise"`` it is raised), None
        if accepted. ``self._completed`` says whether a command was applied."""
        m = self._game()
        self._completed = False
        if self._n_actions > self._n_choices and action == self._n_choices:
            # The wait action, played by the deciding agent (an index outside the action
            # space is refused by the environments before this).
            err = fm.RuleError(
                "4.1",
                f"{agent} decides now: the wait action {action} is only for the side not deciding",
            )
        else:
            try:
                if self._factored:
                    seq = self._prefix + [action]
                    if not m.factored_complete(seq):
                        # RuleError ("input") unless some legal command starts so.
                        m.factored_options(seq)
                        self._prefix = seq
                        return None
                    self._record(agent, f"factored {seq}", m.factored_to_action, seq)
                    self._prefix = []
                else:
                    self._record(agent, f"action {action}", lambda a: a, action)
                self._completed = True
                return None
            except fm.RuleError as e:
                err = e
        if self.illegal_action == "raise":
            raise err
        return err

    def _record(self, agent: str, what: str, to_action: Callable[[Any], int], arg: Any) -> None:
        """Applies the command of ``to_action(arg)`` (raising ``fm.RuleError`` if it
        is refused), kept for the text rendering when it shows it."""
        m = self._game()
        action = to_action(arg)
        if self.render_mode in ("ansi", "human"):
            played = f"{what}: {m.command_of(action)!r}"
            self._last = (agent, played, m.apply_action(action))
        else:
            m.apply_action(action)

    def state(self) -> npt.NDArray[np.float32]:
        """The referee's state: side a's flat observation, then side b's (both from
        their own views, so together they hold each side's hidden values). For
        centralized critics; never a policy's input."""
        out = np.empty(2 * self._obs_size, dtype=np.float32)
        m = self._game()
        m.observation("a", out=out[: self._obs_size])
        m.observation("b", out=out[self._obs_size :])
        return out

    def _ansi(self) -> str:
        m = self._game()
        lines = [repr(m)]
        if self._last is not None:
            agent, played, events = self._last
            lines.append(f"last: {agent} played {played}")
            lines.extend(f"  {e!r}" for e in events)
        return "\n".join(lines)

    def _svg(self) -> str:
        return self._game().svg(self.render_side)

    def _rgb(self) -> npt.NDArray[np.uint8]:
        h, w, data = fm.svg_to_rgb(self._svg())
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)

    def _show(self) -> None:
        """``"human"``: the board in a Jupyter notebook, else the text on stdout; and
        the PNG file ``render_path``."""
        svg = self._svg()
        if self.render_path is not None:
            with open(self.render_path, "wb") as f:
                f.write(fm.svg_to_png(svg))
        shell = None
        if "IPython" in sys.modules:
            shell = sys.modules["IPython"].get_ipython()
        if shell is not None and hasattr(shell, "kernel"):
            display: Any = importlib.import_module("IPython.display")
            if self._display is None:
                self._display = display.display(display.SVG(svg), display_id=True)
            else:
                self._display.update(display.SVG(svg))
        else:
            print(self._ansi(), flush=True)

    def render(self) -> Any:
        """The picture of ``render_mode`` (see the module's docstring); None without a
        render mode, in ``"human"`` mode (which shows it instead) and before reset."""
        if self.render_mode is None or self.match is None:
            return None
        if self.render_mode == "ansi":
            return self._ansi()
        if self.render_mode == "svg":
            return self._svg()
        if self.render_mode == "rgb_array":
            return self._rgb()
        self._show()
        return None

    def close(self) -> None:
        self.match = None
        self._display = None


class _NpRandom:
    """``np_random`` for the PettingZoo environments (Gymnasium's has its own): the
    environment's generator, seeded by ``reset(seed=...)``, which draws each game's
    match seed; wrappers such as SuperSuit's ``frame_skip_v0`` draw from it."""

    _rng: np.random.Generator

    @property
    def np_random(self) -> np.random.Generator:
        return self._rng

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._rng = value


class FmEnv(_NpRandom, _Common, AECEnv):  # type: ignore[misc]
    """The raw AEC environment. Prefer :func:`env`, which adds PettingZoo's
    order-enforcing and bounds-checking wrappers.

    ``turns="cycle"`` (the default): the agents take turns ``a``, ``b``, ``a``, ... as
    in PettingZoo's cycles, and each cycle is one decision, as a step of
    :class:`FmParallelEnv`: the side deciding when the cycle begins plays, the other
    plays the wait action (``wait_action``, the last index of the action space; its
    mask then holds that action alone), so that ``max_cycles`` counts cycles in
    which every agent acts once and PettingZoo's ``aec_to_parallel`` and
    ``parallel_to_aec`` convert between the two environments. ``turns="decision"``: only the
    deciding side acts (``agent_selection`` follows the game, one side often acting
    many times in a row), there is no wait action and ``max_cycles`` counts
    decisions: half the steps or fewer, for learners that read the mask.

    With cycles, agents leave only at the end of a cycle, as ``aec_to_parallel``
    requires: a game that ends on ``a``'s step (its decision, or its illegal action
    under ``illegal_action="lose"``) has ``b`` wait out the cycle (its mask the wait
    action alone), and the result's rewards and terminations come with ``b``'s step."""

    metadata: Dict[str, Any] = {
        "name": "fm_v0",
        "render_modes": RENDER_MODES,
        "is_parallelizable": True,
        "render_fps": 2,
    }

    def __init__(
        self,
        scenario: Union[str, fm.Scenario] = "system-demo",
        seed: Optional[int] = None,
        max_cycles: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "raise",
        observation: str = "dict",
        illegal_reward: float = -0.1,
        render_side: Optional[str] = None,
        render_path: Optional[str] = None,
        max_steps: Optional[int] = None,
        actions: str = "flat",
        turns: str = "cycle",
    ) -> None:
        AECEnv.__init__(self)
        _choice("turns", turns, TURN_MODES)
        self.turns = turns
        self._setup(
            scenario,
            observation,
            illegal_action,
            illegal_reward,
            _max_cycles_arg(max_cycles, max_steps),
            render_mode,
            render_side,
            render_path,
            wait_action=turns == "cycle",
            actions=actions,
        )
        # Only cycles are what PettingZoo's aec_to_parallel converts.
        self.metadata = dict(self.metadata, is_parallelizable=turns == "cycle")
        self.wait_action: Optional[int] = self._n_choices if turns == "cycle" else None
        """The action of the side not deciding (``turns="cycle"``); None otherwise."""
        self.possible_agents: List[str] = list(SIDES)
        self.agents: List[str] = []
        space = self._make_observation_space()
        self.observation_spaces: Dict[str, spaces.Space[Any]] = {
            a: space for a in self.possible_agents
        }
        self.action_spaces: Dict[str, spaces.Discrete] = self._action_spaces()
        self._rng = np.random.default_rng(seed)
        self.num_cycles = 0
        # turns="cycle": the side deciding when the cycle began (None while a game
        # that ended this cycle waits for the cycle's end).
        self._cycle_decider: Optional[str] = None
        # turns="cycle": the rewards of a game that ended before its cycle did, paid
        # with the terminations at the cycle's end.
        self._ending: Optional[Dict[str, float]] = None
        self.rewards: Dict[str, float] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.infos: Dict[str, Dict[str, Any]] = {}
        self.agent_selection: str = "a"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new game. ``seed`` seeds the environment's generator, which draws the
        match seed; ``options={"match_seed": n}`` sets the match seed directly."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        m = self._new_match(int(self._rng.integers(0, 2**62)), options)
        self.num_cycles = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._cycle_decider = m.to_move
        self._ending = None
        if self.turns == "cycle":
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = m.to_move or "a"
        self._update_infos()
        if self.render_mode == "human":
            self._show()

    def _deciding(self) -> Optional[str]:
        if self.turns == "cycle":
            return self._cycle_decider
        return self._game().to_move

    def _live(self, agent: str) -> bool:
        return not self.terminations.get(agent, True) and not self.truncations.get(agent, True)

    def _waiting_out(self) -> bool:
        return self._ending is not None

    def _agent_live(self, agent: str) -> bool:
        return self._live(agent)

    def _update_infos(self) -> None:
        info = self._info()
        for a in self.agents:
            self.infos[a] = dict(info)
            if self.observation_mode == "flat":
                self.infos[a]["action_mask"] = self._legal(a, self._live(a))

    def observe(self, agent: str) -> Observation:
        return self._observation(agent, self._live(agent))

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The legal actions of ``agent``: with ``turns="cycle"`` the wait action alone
        while the other side decides; with ``turns="decision"`` all zero then."""
        return self._legal(agent, self._live(agent))

    def step(self, action: Optional[Action]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act: action is None")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        if not self.action_spaces[agent].contains(int(action)):
            raise ValueError(f"action {action} is outside {self.action_spaces[agent]}")
        m = self._game()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        decider = self._deciding()
        refused: Optional[fm.RuleError] = None
        if agent != decider:
            # Only with turns="cycle": the side not deciding waits.
            if int(action) != self.wait_action:
                refused = fm.RuleError(
                    "4.1",
                    f"{agent} acted with {int(action)} but {decider} decides now: "
                    f"{agent}'s one legal action is the wait action {self.wait_action}",
                )
                if self.illegal_action == "raise":
                    raise refused
        else:
            refused = self._apply(agent, int(action))
        self.num_steps += 1
        if self.turns == "decision":
            self.num_cycles = self.num_steps
        elif agent == self.possible_agents[-1]:
            self.num_cycles += 1
        ending: Optional[Dict[str, float]] = None
        if refused is not None and self.illegal_action == "lose" and self._ending is None:
            ending = {a: -1.0 if a == agent else 1.0 for a in self.agents}
        else:
            if refused is not None:
                self.rewards[agent] = self.illegal_reward
            if m.is_over and self._ending is None:
                returns = m.returns()
                ending = {a: float(returns[a]) for a in self.agents}
        cycle_ends = self.turns != "cycle" or agent == self.possible_agents[-1]
        if ending is not None and not cycle_ends:
            # PettingZoo's cycles: agents leave at the cycle's end alone, so the
            # agents after this one wait it out first.
            self._ending = ending
            self._cycle_decider = None
        elif cycle_ends and self._ending is not None:
            ending, self._ending = self._ending, None
        if ending is not None and cycle_ends:
            for a in self.agents:
                self.rewards[a] += ending[a]
                self.terminations[a] = True
        elif (
            cycle_ends
            and self._ending is None
            and not m.is_over
            and self.max_cycles is not None
            and self.num_cycles >= self.max_cycles
        ):
            for a in self.agents:
                self.truncations[a] = True
        if self.turns == "cycle":
            i = (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[i]
            if i == 0 and self._ending is None:
                self._cycle_decider = m.to_move
        else:
            self.agent_selection = m.to_move or agent
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self._show()


raw_env = FmEnv


def env(**kwargs: Any) -> Any:
    """The wrapped AEC environment: ``FmEnv(**kwargs)`` inside PettingZoo's
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``."""
    e: Any = FmEnv(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class FmParallelEnv(_NpRandom, _Common, ParallelEnv):  # type: ignore[misc]
    """The PettingZoo parallel environment: every step both sides act, and only the
    deciding side's action counts.

    Both systems are sequential: one side decides at a time, sometimes many times in a row, so
    PettingZoo's ``aec_to_parallel`` (which needs ``is_parallelizable``, every agent
    acting once per cycle) cannot convert :class:`FmEnv`. Here each step is one
    decision: the deciding side (``info["to_move"]``) plays one of its legal actions,
    and the other side's one legal action is the wait action
    (``wait_action = action_space_size``, the last index of
    ``Discrete(action_space_size + 1)``), which the deciding side may not play. An
    action dict may leave out the waiting side (it waits); the deciding side must
    act. Anything else is an illegal action, handled by ``illegal_action`` (under
    ``"raise"``, ``fm.RuleError`` and nothing changes; under ``"lose"`` every agent
    that played one loses and no command is applied). When the game ends every agent
    leaves ``agents``. Observations, rewards, ``max_cycles`` (steps), state and
    rendering are :class:`FmEnv`'s."""

    metadata: Dict[str, Any] = {
        "name": "fm_parallel_v0",
        "render_modes": RENDER_MODES,
        "render_fps": 2,
    }

    def __init__(
        self,
        scenario: Union[str, fm.Scenario] = "system-demo",
        seed: Optional[int] = None,
        max_cycles: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal_action: str = "raise",
        observation: str = "dict",
        illegal_reward: float = -0.1,
        render_side: Optional[str] = None,
        render_path: Optional[str] = None,
        actions: str = "flat",
    ) -> None:
        self._setup(
            scenario,
            observation,
            illegal_action,
            illegal_reward,
            _max_cycles_arg(max_cycles, None),
            render_mode,
            render_side,
            render_path,
            wait_action=True,
            actions=actions,
        )
        self.wait_action: int = self._n_choices
        self.possible_agents: List[str] = list(SIDES)
        self.agents: List[str] = []
        space = self._make_observation_space()
        self.observation_spaces: Dict[str, spaces.Space[Any]] = {
            a: space for a in self.possible_agents
        }
        self.action_spaces: Dict[str, spaces.Discrete] = self._action_spaces()
        self._rng = np.random.default_rng(seed)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _agent_live(self, agent: str) -> bool:
        return agent in self.agents

    def _all(self) -> Tuple[Dict[str, Observation], Dict[str, Dict[str, Any]]]:
        info = self._info()
        live = bool(self.agents)
        obs: Dict[str, Observation] = {}
        infos: Dict[str, Dict[str, Any]] = {}
        for a in self.possible_agents:
            obs[a] = self._observation(a, live)
            infos[a] = dict(info)
            if self.observation_mode == "flat":
                infos[a]["action_mask"] = self._legal(a, live)
        return obs, infos

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Observation], Dict[str, Dict[str, Any]]]:
        """Starts a new game (seeds as :meth:`FmEnv.reset`); ``(observations, infos)``."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._new_match(int(self._rng.integers(0, 2**62)), options)
        self.agents = list(self.possible_agents)
        if self.render_mode == "human":
            self._show()
        return self._all()

    def step(
        self, actions: Mapping[str, Action]
    ) -> Tuple[
        Dict[str, Observation],
        Dict[str, float],
        Dict[str, bool],
        Dict[str, bool],
        Dict[str, Dict[str, Any]],
    ]:
        """One decision: the deciding side's action is applied, the other waits."""
        m = self._game()
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(f"actions for agents not in the game: {unknown}")
        decider = m.to_move
        if decider is None or decider not in actions:
            raise ValueError(f"{decider} decides this step: actions has no action for it")
        checked: Dict[str, int] = {}
        for a, act in actions.items():
            if isinstance(act, bool) or not isinstance(act, (int, np.integer)):
                raise TypeError(f"actions[{a!r}] must be an int, not {type(act).__name__}")
            if not self.action_spaces[a].contains(int(act)):
                raise ValueError(f"actions[{a!r}] = {act} is outside {self.action_spaces[a]}")
            checked[a] = int(act)
        refused: Dict[str, fm.RuleError] = {}
        for a in self.agents:
            if a != decider and checked.get(a, self.wait_action) != self.wait_action:
                err = fm.RuleError(
                    "4.1",
                    f"{a} acted with {checked[a]} but {decider} decides now: "
                    f"{a}'s one legal action is the wait action {self.wait_action}",
                )
                if self.illegal_action == "raise":
                    raise err
                refused[a] = err
        if not (refused and self.illegal_action == "lose"):
            err_d = self._apply(decider, checked[decider])
            if err_d is not None:
                refused[decider] = err_d
        self.num_steps += 1
        rewards = {a: 0.0 for a in self.agents}
        terminations = {a: False for a in self.agents}
        truncations = {a: False for a in self.agents}
        if refused and self.illegal_action == "lose":
            for a in self.agents:
                rewards[a] = -1.0 if a in refused else 1.0
                terminations[a] = True
        else:
            for a in refused:
                rewards[a] = self.illegal_reward
            if m.is_over:
                returns = m.returns()
                for a in self.agents:
                    rewards[a] += float(returns[a])
                    terminations[a] = True
            elif self.max_cycles is not None and self.num_steps >= self.max_cycles:
                for a in self.agents:
                    truncations[a] = True
        if all(terminations.values()) or all(truncations.values()):
            self.agents = []
        obs, infos = self._all()
        if self.render_mode == "human":
            self._show()
        return obs, rewards, terminations, truncations, infos


def parallel_env(**kwargs: Any) -> FmParallelEnv:
    """The parallel environment: ``FmParallelEnv(**kwargs)``."""
    return FmParallelEnv(**kwargs)


class FmGymEnv(_Common, gymnasium.Env[Observation, Action]):
    """A single-agent Gymnasium environment: the agent plays ``side`` against a fixed
    ``opponent``, whose decisions are played inside ``reset()`` and ``step()`` until
    the agent decides again.

    ``opponent``: ``"random"`` (the built-in random agent, ``Match.sample_legal_action``,
    its seeds drawn from the environment's generator), ``"mcts"`` (the built-in AI,
    ``Match.think`` with ``mcts_iterations`` iterations a decision, its seeds drawn the
    same way; it searches from its own side's view only) or a callable ``(match) ->
    action or command``, called with a copy of the match (``Match.clone()``: changing
    it changes nothing here) whenever the other side decides; it returns an action
    index or a command (typed, a dict or JSON text), such as an agent of ``fm.agents``.
    The copy is the referee's match (its state and dice): a fair opponent reads only
    its side's view (``match.view(side)``, ``match.information_state_string(side)``).
    A refused command of the opponent raises ``fm.RuleError``.

    Observations are ``side``'s (``"flat"`` by default, the Box that Stable-Baselines3
    takes), ``info["action_mask"]`` and :meth:`action_masks` (bool) its legal actions;
    the reward is the game's result for ``side`` (see the module's docstring),
    ``illegal_action`` defaults to ``"lose"`` and ``max_cycles`` counts the agent's
    steps."""

    metadata: Dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}

    def __init__(
        self,
        scenario: Union[str, fm.Scenario] = "system-demo",
        side: str = "a",
        opponent: Opponent = "random",
        mcts_iterations: int = 100,
        observation: str = "flat",
        illegal_action: str = "lose",
        illegal_reward: float = -0.1,
        max_cycles: Optional[int] = None,
        render_mode: Optional[str] = None,
        render_side: Optional[str] = None,
        render_path: Optional[str] = None,
        actions: str = "flat",
    ) -> None:
        self._setup(
            scenario,
            observation,
            illegal_action,
            illegal_reward,
            _max_cycles_arg(max_cycles, None),
            render_mode,
            render_side,
            render_path,
            wait_action=False,
            actions=actions,
        )
        _choice("side", side, SIDES)
        if not (opponent in ("random", "mcts") or callable(opponent)):
            raise ValueError(
                f'opponent must be "random", "mcts" or a callable (match) -> action, not {opponent!r}'
            )
        if not isinstance(mcts_iterations, int) or not 1 <= mcts_iterations <= 10_000_000:
            raise ValueError(f"mcts_iterations must be an integer from 1 to 10000000, not {mcts_iterations!r}")
        self.mcts_iterations = mcts_iterations
        self.side = side
        self.other = "b" if side == "a" else "a"
        self.opponent = opponent
        self.observation_space = self._make_observation_space()
        self.action_space = spaces.Discrete(self._n_actions)
        self._mask = np.zeros(self._n_actions, dtype=np.int8)
        self._done = True

    def _opponent_plays(self) -> None:
        """Plays the opponent's decisions until ``side`` decides or the game ends."""
        m = self._game()
        while not m.is_over and m.to_move == self.other:
            if self.opponent in ("random", "mcts"):
                seed = int(self.np_random.integers(0, 2**63))
                action = (
                    m.sample_legal_action(seed)
                    if self.opponent == "random"
                    else int(m.think(iterations=self.mcts_iterations, seed=seed)["index"])
                )
                if action is None:
                    # The random agent drew a legal command without an action index
                    # (Huzzah!'s encoding does not yet number every one): a uniform
                    # choice among the legal actions instead.
                    legal = m.legal_actions()
                    if not legal:
                        raise RuntimeError(
                            "the opponent has no legal action although the game is not over"
                        )
                    action = legal[int(self.np_random.integers(len(legal)))]
                # A legal action refused would be a bug: raised, never ignored.
                self._record(self.other, f"action {action}", int, action)
                continue
            assert callable(self.opponent)
            move = self.opponent(m.clone())
            try:
                if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
                    move = int(move)
                    played = f"action {move}: {m.command_of(move)!r}"
                    events = m.apply_action(move)
                else:
                    played = repr(move)
                    events = m.apply(move)  # type: ignore[arg-type]
                self._last = (self.other, played, events)
            except fm.RuleError as e:
                raise fm.RuleError(e.rule, f"the opponent's move {move!r} was refused: {e.message}") from e

    def _after(self) -> Tuple[Observation, Dict[str, Any]]:
        self._mask = self._legal(self.side, not self._done)
        info = self._info()
        info["action_mask"] = self._mask.copy()
        obs = self._observation(self.side, not self._done)
        if self.render_mode == "human":
            self._show()
        return obs, info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Starts a new game and plays the opponent's first decisions. ``seed`` seeds the
        environment's generator (``np_random``), which draws the match seed and the
        random opponent's choices; ``options={"match_seed": n}`` sets the match seed."""
        super().reset(seed=seed)
        m = self._new_match(int(self.np_random.integers(0, 2**62)), options)
        self._done = False
        self._opponent_plays()
        if m.is_over:
            raise RuntimeError(f"the game ended before side {self.side} decided anything")
        return self._after()

    def step(self, action: Action) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
        m = self._game()
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        if not self.action_space.contains(int(action)):
            raise ValueError(f"action {action} is outside {self.action_space}")
        refused = self._apply(self.side, int(action))
        self.num_steps += 1
        reward = 0.0
        terminated = truncated = False
        if refused is not None and self.illegal_action == "lose":
            reward, terminated = -1.0, True
        else:
            if refused is not None:
                reward = self.illegal_reward
            elif self._completed:
                self._opponent_plays()
            if m.is_over:
                reward += float(m.returns()[self.side])
                terminated = True
            elif self.max_cycles is not None and self.num_steps >= self.max_cycles:
                truncated = True
        self._done = terminated or truncated
        obs, info = self._after()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The agent's legal actions (sb3-contrib's ``MaskablePPO`` reads this): all
        False once the episode is over."""
        return self._mask.astype(bool)


def gym_env(**kwargs: Any) -> FmGymEnv:
    """The single-agent Gymnasium environment: ``FmGymEnv(**kwargs)``."""
    return FmGymEnv(**kwargs)


# The Gymnasium ids of the built-in scenarios (fm.gym_ids): "fm/SystemDemo-v0", ...
from fm import gym_ids as _gym_ids  # noqa: E402

_gym_ids.register_envs()
