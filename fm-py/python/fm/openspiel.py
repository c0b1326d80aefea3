"""fm's scenarios as an OpenSpiel game (``pip install fm-py[openspiel]``).

Importing this module registers the Python game ``python_fm`` with ``pyspiel`` when
``open_spiel`` is installed::

    import pyspiel
    import fm.openspiel

    game = pyspiel.load_game("python_fm", {"scenario": "system-demo", "seed": 1})

Parameters: ``scenario`` (any built-in scenario of any system, :func:`fm.scenarios`;
default ``"system-demo"``), ``seed`` (the match's seed, 0 to 2**31-1: it draws the
opening; default 0) and ``max_game_length`` (0, the default: the scenario's bound,
:func:`default_max_game_length`).

The game is sequential, explicitly stochastic and of imperfect information: player 0
is side ``"a"``, player 1 side ``"b"``; the match runs in explicit chance mode, so each
die roll and random draw of the engine is a chance node with its exact outcomes (each
equally likely); the returns are +1, -1 (or 0 for a draw) at the end. A state's
information state string is the match's ``information_state_string(side)``, its
information state tensor the side's observation tensor followed by
``information_state_tensor(side, max_game_length)`` (the record), its
observation string the side's view (JSON), its observation tensor the side's learning
observation (:attr:`fm.Match.observation_spec`: Fire & Movement's board planes and
features, Huzzah!'s table raster, global features and unit, officer and objective
slots; docs/learning.md). A scenario of a system without an observation gives the
record alone, and its game type says ``provides_observation_tensor=False``.
``resample_from_infostate`` draws a
state from the player's view alone (:meth:`fm.Match.determinized`), for OpenSpiel's
ISMCTS; ``serialize`` goes through the match's save (the generator, the chance mode and
a pending draw included).

**Length.** OpenSpiel needs a bound on a game's length (moves, chance outcomes
included), and the rules give one: a scenario's default ``max_game_length`` is
:func:`fm.max_game_length`'s ``total``, the most commands plus the most chance outcomes
any game of it can have, proved term by term from the rules (fm-core's
``Game::max_game_length``: the turn record, set-up, movement, combat, support fire,
each game's exclusive rules; Huzzah!'s turns, orders, fire and morale). No game reaches
it; a random game is a small fraction of it (docs/learning.md, "Length of a game"). A smaller
``max_game_length`` may be given: a state that reaches it before the battle ends is
terminal, a draw (returns 0 and 0). A scenario of a rules system that gives no bound
(:func:`fm.max_game_length` is ``None``) defaults to :data:`UNBOUNDED_MAX_GAME_LENGTH`,
enforced the same way. The information state tensor has room for a record of
``max_game_length`` commands (4 floats each), so a shorter limit makes it smaller.

Without ``open_spiel`` the module imports, and using it raises ``ImportError``.
"""

from __future__ import annotations

import json
from typing import Any

import fm

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    _HAVE_PYSPIEL = True
    _Game: Any = pyspiel.Game
    _State: Any = pyspiel.State
except ImportError:  # pragma: no cover - exercised without open_spiel
    _HAVE_PYSPIEL = False
    _Game = object
    _State = object

__all__ = [
    "GAME_NAME",
    "UNBOUNDED_MAX_GAME_LENGTH",
    "FmGame",
    "FmState",
    "default_max_game_length",
    "load_game",
    "max_chance_outcomes",
]

#: The short name the game is registered under.
GAME_NAME = "python_fm"

#: The default ``max_game_length`` of a scenario whose rules system gives no bound on
#: a game's length (:func:`fm.max_game_length` is ``None``): such a game is cut short
#: there, a draw.
UNBOUNDED_MAX_GAME_LENGTH = 100_000

_DEFAULTS: dict[str, Any] = {"scenario": "system-demo", "seed": 0, "max_game_length": 0}


def _need_pyspiel() -> None:
    if not _HAVE_PYSPIEL:
        raise ImportError(
            "fm.openspiel needs OpenSpiel: pip install 'fm-py[openspiel]' (or open_spiel)"
        )


def default_max_game_length(scenario: str) -> int:
    """The default ``max_game_length`` of a scenario (see the module's "Length"): the
    total of :func:`fm.max_game_length`, or :data:`UNBOUNDED_MAX_GAME_LENGTH` for a
    system that gives no bound."""
    return _length_of(fm.Match(scenario))


def _length_of(match: fm.Match) -> int:
    bound = match.max_game_length()
    return UNBOUNDED_MAX_GAME_LENGTH if bound is None else bound.total


def max_chance_outcomes(scenario_data: dict[str, Any]) -> int:
    """An upper bound on the outcomes of any chance node of a scenario: 6 (a die) or
    every support marker the scenario defines (both sides' ``support_markers`` and
    every list of markers in its exclusive rules), since a draw picks from a pool of
    those."""
    n = 0
    for markers in (scenario_data.get("support_markers") or {}).values():
        if isinstance(markers, list):
            n += len(markers)
    rules = scenario_data.get("rules")
    if isinstance(rules, dict):
        for params in rules.values():
            if isinstance(params, dict):
                for v in params.values():
                    if isinstance(v, list) and all(
                        isinstance(x, dict) and "strength" in x for x in v
                    ):
                        n += len(v)
    return max(6, n)


def _side(player: int) -> str:
    if player == 0:
        return "a"
    if player == 1:
        return "b"
    raise ValueError(f"player must be 0 or 1, not {player}")


def _game_type(observation_tensor: bool) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="fm: Fire & Movement and Huzzah! scenarios",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=observation_tensor,
        parameter_specification=_DEFAULTS,
    )


def _outcome_string(node: dict[str, Any] | None, outcome: int) -> str:
    """A chance outcome in words: ``"combat die 1 of 1d6 (hex 0805): 4"`` (a die's
    face is the outcome plus one), ``"marker_draw draw 1 (side a): #2 (1)"`` for the
    third thing of a draw's list (a marker of 1), or ``"outcome k"`` for a draw the
    rules do not name."""
    roll = (node or {}).get("roll")
    if not roll:
        return f"outcome {outcome}"
    about = ", ".join(
        f"{k} {v}" for k, v in roll.items() if k not in ("roll", "dice", "die", "from")
    )
    about = f" ({about})" if about else ""
    if roll.get("dice") == "draw":
        # The outcome's number first: a list may hold equal things (two markers of 1),
        # and OpenSpiel wants each outcome's string distinct.
        listed = roll.get("from")
        picked = listed[outcome] if isinstance(listed, list) and outcome < len(listed) else "?"
        return f"{roll['roll']} draw {roll.get('die', 1)}{about}: #{outcome} ({picked})"
    return f"{roll['roll']} die {roll.get('die', 1)} of {roll.get('dice')}{about}: {outcome + 1}"


class FmGame(_Game):  # type: ignore[misc]
    """The OpenSpiel game of one scenario (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        _need_pyspiel()
        p = {**_DEFAULTS, **(params or {})}
        self.scenario_name = str(p["scenario"])
        seed = int(p["seed"])
        # The opening's draws (Huzzah!'s roll-off, page 7) come from the game's seed,
        # so that every game starts from one initial state whose length the rules bound
        # (a tied roll-off re-rolls without end); every later draw is a chance node.
        initial = fm.Match(self.scenario_name, seed=seed)
        initial.set_chance_mode("explicit")
        self.initial_match = initial
        # The observation's layout, or None for a system without one.
        self.observation_spec: dict[str, Any] | None
        try:
            self.observation_spec = initial.observation_spec
        except fm.UnsupportedError:
            self.observation_spec = None
        limit = int(p["max_game_length"])
        if limit < 0:
            raise ValueError(f"max_game_length must be 0 (the default) or more, not {limit}")
        self.max_length = limit or _length_of(initial)
        info = pyspiel.GameInfo(
            num_distinct_actions=initial.action_space_size,
            max_chance_outcomes=max_chance_outcomes(initial.scenario_data),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(_game_type(self.observation_spec is not None), info, params or {})

    def new_initial_state(self) -> FmState:
        """The opening: the match right after its set-up draws."""
        return FmState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The information state observer (perfect recall) or the observation one."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self, perfect_recall)


class FmState(_State):  # type: ignore[misc]
    """A position of the game: an :class:`fm.Match` in explicit chance mode and the
    number of moves played (chance outcomes included)."""

    def __init__(self, game: FmGame) -> None:
        super().__init__(game)
        self._match: fm.Match = game.initial_match.clone()
        self._moves = 0
        self._max_length = game.max_length

    @property
    def match(self) -> fm.Match:
        """The match (the referee's: every hidden value)."""
        return self._match

    def _truncated(self) -> bool:
        return self._moves >= self._max_length and not self._match.is_over

    def current_player(self) -> int:
        """0 or 1, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._match.is_chance_node:
            return int(pyspiel.PlayerId.CHANCE)
        return 0 if self._match.to_move == "a" else 1

    def _legal_actions(self, player: int) -> list[int]:
        # Already ascending, as OpenSpiel wants them (`Match.legal_actions`).
        return self._match.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending draw's outcomes, each ``1/n``."""
        return self._match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._match.is_chance_node:
            self._match.apply_chance(int(action))
        else:
            self._match.apply_action(int(action))
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return _outcome_string(self._match.chance_node(), action)
        command = self._match.command_of(action)
        return f"action {action}" if command is None else str(command)

    def is_terminal(self) -> bool:
        """The battle is over, no side has a decision, or the game reached its
        ``max_game_length`` (a draw)."""
        m = self._match
        if m.is_over or self._truncated():
            return True
        return not m.is_chance_node and m.to_move is None

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 and 0 for a draw, a cut-short game
        or a game not over."""
        if not self._match.is_over:
            return [0.0, 0.0]
        r = self._match.returns()
        return [float(r["a"]), float(r["b"])]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> FmState:
        """A state ``player`` cannot tell from this one, drawn from its view alone
        (:meth:`fm.Match.determinized`, seeded by ``probability_sampler``). Its
        information state string for ``player`` is this state's; its OpenSpiel history
        starts at the draw."""
        seed = int(probability_sampler() * 2**62) % 2**62
        game = self.get_game()
        state = FmState(game)
        state._match = self._match.determinized(_side(player), seed)
        state._moves = self._moves
        return state

    def __str__(self) -> str:
        m = self._match
        pending = "chance" if m.is_chance_node else (m.to_move or "-")
        # While a command waits for its draws the state is the one before it: the
        # outcomes chosen so far tell two such positions apart.
        drawn = m.chance_drawn
        waiting = "" if drawn is None else f", drawn {drawn}"
        return (
            f"{self.get_game().scenario_name}: {len(m.log)} commands, "
            f"{self._moves} moves, to move {pending}{waiting}, state {m.hash:016x}, "
            f"generator {m.rng_state}"
        )


class _Observer:
    """OpenSpiel's observer: the information state (perfect recall) or the
    observation (the side's view: JSON text, and its learning observation as the
    tensor).

    The information state tensor is the side's observation tensor (its planes,
    ``"board"``: Fire & Movement's board, Huzzah!'s table raster; then its
    ``"features"``; nothing for a system without an observation) followed by
    :meth:`fm.Match.information_state_tensor` with room for ``max_game_length``
    commands (``"record"``): what the side sees now, then its whole record, so two
    states give the same tensor exactly when they give the same information state
    string."""

    def __init__(self, game: FmGame, perfect_recall: bool) -> None:
        self._perfect_recall = perfect_recall
        self._n_board = 0
        self._n_obs = 0
        self._max_commands = game.max_length
        n_record = fm.information_state_tensor_size(game.max_length) if perfect_recall else 0
        spec = game.observation_spec
        shape: tuple[int, ...] = ()
        if spec is not None:
            shape = tuple(int(x) for x in spec["shape"])
            self._n_board = shape[0] * shape[1] * shape[2]
            self._n_obs = self._n_board + len(spec["features"])
        self.tensor: Any = np.zeros(self._n_obs + n_record, np.float32)
        self.dict: dict[str, Any] = {}
        if spec is not None:
            self.dict["board"] = self.tensor[: self._n_board].reshape(shape)
            self.dict["features"] = self.tensor[self._n_board : self._n_obs]
        if perfect_recall:
            self.dict["record"] = self.tensor[self._n_obs :]

    def set_from(self, state: FmState, player: int) -> None:
        side = _side(player)
        if self._n_obs:
            state.match.observation(side, out=self.tensor[: self._n_obs])
        if self._perfect_recall:
            state.match.information_state_tensor(
                side, self._max_commands, out=self.tensor[self._n_obs :]
            )

    def string_from(self, state: FmState, player: int) -> str:
        side = _side(player)
        if self._perfect_recall:
            return state.match.information_state_string(side)
        return json.dumps(state.match.view(side), sort_keys=True, separators=(",", ":"))


def load_game(scenario: str = "system-demo", seed: int = 0, max_game_length: int = 0) -> Any:
    """``pyspiel.load_game("python_fm", {...})`` with these parameters."""
    _need_pyspiel()
    return pyspiel.load_game(
        GAME_NAME,
        {"scenario": scenario, "seed": seed, "max_game_length": max_game_length},
    )


if _HAVE_PYSPIEL:
    pyspiel.register_game(_game_type(True), FmGame)
