"""fm: Python bindings of the Fire & Movement wargame rules engine (fm-core).

>>> import fm
>>> m = fm.Match("system-demo", seed=1)
>>> m.pending
Pending(kind='setup', side='b')
>>> events = m.apply(m.legal_commands()[0])

See ``help(fm.Match)``; the JSON forms of commands and events are documented in
docs/protocol.md. ``fm.Match`` plays any registered rules system (``fm.systems()``;
a scenario names its system): the generic methods work for all of them. Commands,
events and decisions are typed objects for Fire & Movement (``fm.Move``,
``fm.events.UnitMoved``) and Huzzah! Glorious Empires (``fm.huzzah.Fire``,
``fm.huzzah.events.FireResolved``), dicts for another system; the picture
(``Match.svg``) is Fire & Movement's and Huzzah!'s; odds and observations are Fire &
Movement's and raise ``fm.UnsupportedError`` for another. ``fm.env`` holds the
PettingZoo environment (needs numpy, gymnasium and pettingzoo:
``pip install "fm-py[env]"``).
"""

from __future__ import annotations

from typing import Any

from fm._errors import ProtocolError, RuleError, SaveError, ScenarioError, UnsupportedError
from fm._fm import (
    FEATURE_NAMES,
    MAX_INPUT_BYTES,
    MAX_JSON_DEPTH,
    Advance,
    AirUnit,
    Artillery,
    Attack,
    Bombard,
    BreakDown,
    ChooseLoss,
    Command,
    Done,
    Kress,
    LogEntry,
    LostBattalion,
    Match,
    Move,
    Pending,
    Place,
    PlaceAircraft,
    Rebuild,
    Replace,
    Retreat,
    Scenario,
    StiffResistance,
    SupportFire,
    __version__,
    command,
    information_state_tensor_size,
    play_random,
    render_fonts,
    rust_playthrough_hash,
    scenarios,
    svg_to_png,
    svg_to_rgb,
    systems,
)
from fm import _field_docs, _fields, _fm, agents, events, huzzah
from fm._length import GameLength
from fm.events import Event

# Each command class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_fm, _field_docs.FM_COMMANDS)


def max_game_length(scenario: Any) -> GameLength | None:
    """The bound on the length of every game of ``scenario`` (anything :class:`Match`
    takes: a built-in name, a path, scenario JSON or data), derived from its rules:
    :meth:`Match.max_game_length` of a match of it."""
    return Match(scenario).max_game_length()

__all__ = [
    "FEATURE_NAMES",
    "Advance",
    "AirUnit",
    "Artillery",
    "Attack",
    "Bombard",
    "BreakDown",
    "ChooseLoss",
    "Command",
    "Done",
    "Event",
    "GameLength",
    "Kress",
    "LogEntry",
    "LostBattalion",
    "MAX_INPUT_BYTES",
    "MAX_JSON_DEPTH",
    "Match",
    "Move",
    "Pending",
    "Place",
    "PlaceAircraft",
    "ProtocolError",
    "Rebuild",
    "Replace",
    "Retreat",
    "RuleError",
    "SaveError",
    "Scenario",
    "ScenarioError",
    "StiffResistance",
    "SupportFire",
    "UnsupportedError",
    "__version__",
    "agents",
    "command",
    "events",
    "huzzah",
    "information_state_tensor_size",
    "max_game_length",
    "play_random",
    "render_fonts",
    "rust_playthrough_hash",
    "scenarios",
    "svg_to_png",
    "svg_to_rgb",
    "systems",
]

# `gymnasium.make("fm:fm/SystemDemo-v0")` imports fm after Gymnasium: register the ids
# then (fm.gym_ids), without importing Gymnasium when it is not already loaded.
if "gymnasium" in __import__("sys").modules:
    from fm import gym_ids as _gym_ids

    _gym_ids.register_envs()
