"""``fm.GameLength``: the bound on a game's length that :func:`fm.max_game_length` and
:meth:`fm.Match.max_game_length` give (fm-core's ``Game::max_game_length``)."""

from __future__ import annotations

from typing import NamedTuple


class GameLength(NamedTuple):
    """The most commands and the most chance outcomes any game of a scenario has, from
    its first decision to its end, derived from its rules: no game, whatever its
    commands and dice, goes beyond either. ``total`` is their sum, the moves OpenSpiel
    counts (``fm.openspiel``'s default ``max_game_length``).

    >>> import fm
    >>> bound = fm.max_game_length("system-demo")
    >>> bound.total == bound.commands + bound.chance
    True
    """

    commands: int
    """The most commands (decisions, by either side)."""
    chance: int
    """The most chance outcomes (die rolls and random draws, one per chance node in
    explicit chance mode)."""

    @property
    def total(self) -> int:
        """Commands and chance outcomes together."""
        return self.commands + self.chance
