"""The exceptions of the fm module. Every one is a ``ValueError``."""

from __future__ import annotations

from typing import Optional


class RuleError(ValueError):
    """The rules refuse a command; nothing changed.

    ``rule`` is the rule number it breaks (``"5.2(d)"``, ``"8.2.1(b)"``); ``"4.1"`` marks
    a command out of sequence (or any command once the game is over) and ``"input"`` a
    command naming an unknown unit, a hex off the map or an action index that means
    nothing here (any int: negative and huge ones too), and a per-unit query
    (``Match.reachable``, ``Match.legal_commands_for``, ``Match.odds``) naming a unit
    the scenario does not have. ``message`` says what is wrong, with the offending
    values.
    """

    rule: str
    message: str

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(rule, message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class ScenarioError(ValueError):
    """A scenario failed to load: unknown name, unreadable file (or one larger than
    ``fm.MAX_INPUT_BYTES``), malformed JSON, or data that breaks the scenario schema. ``path`` is the JSON path of the first problem
    (``"units[3].start.hex"``; empty when it concerns the whole input)."""

    path: str
    message: str

    def __init__(self, path: str, message: str) -> None:
        super().__init__(path, message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ProtocolError(ValueError):
    """Malformed input: a command that is not in the documented JSON form (missing or
    unknown ``type``, unknown field, wrong value type, bad hex id), a save file that is
    not valid JSON of the save format, or Python data that cannot be JSON: nested
    deeper than ``fm.MAX_JSON_DEPTH``, containing itself, or larger than
    ``fm.MAX_INPUT_BYTES`` (as are JSON text and save files)."""

    message: str

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class SaveError(ProtocolError):
    """A save file parsed but does not replay as recorded (another engine version, or an
    edited file). ``index`` is the first logged command that diverges (``None``: the
    opening)."""

    index: Optional[int]

    def __init__(self, message: str, index: Optional[int] = None) -> None:
        ValueError.__init__(self, message, index)
        self.message = message
        self.index = index

    def __str__(self) -> str:
        return self.message


class UnsupportedError(ProtocolError, NotImplementedError):
    """A Fire & Movement feature asked of a match (or scenario) of another rules system,
    which has no such feature: typed commands and events, ``Match.scenario`` and
    ``fm.Scenario``, ``turn``/``phase``/``active``, ``reachable``, ``legal_commands_for``,
    ``explain``, ``odds``, ``svg`` and the observations of ``fm.env``. ``system`` names
    the match's rules system. Nothing changed.

    A :class:`ProtocolError` (so a ``ValueError``, like every fm exception) and a
    ``NotImplementedError`` (so Jupyter quietly skips ``_repr_svg_``), as
    ``io.UnsupportedOperation`` is both an ``OSError`` and a ``ValueError``."""

    system: str

    def __init__(self, message: str, system: str = "") -> None:
        ValueError.__init__(self, message, system)
        self.message = message
        self.system = system

    def __str__(self) -> str:
        return self.message


# Shown (and pickled) as fm.RuleError etc., where users import them from.
for _cls in (RuleError, ScenarioError, ProtocolError, SaveError, UnsupportedError):
    _cls.__module__ = "fm"
