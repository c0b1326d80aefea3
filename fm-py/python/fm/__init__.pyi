"""Type stubs of the fm module (Python bindings of the Fire & Movement rules engine).

The annotations of :class:`Match` give the Fire & Movement types; a Huzzah! match
returns the matching :mod:`fm.huzzah` types (``fm.huzzah.Command``,
``fm.huzzah.events.Event``, ``fm.huzzah.Pending``, ``fm.huzzah.LogEntry``), a match of
another registered rules system its JSON forms (dicts), where they say "another
system"; the members only some systems have raise :class:`UnsupportedError` for the
others."""

import os
from typing import (
    Any,
    Iterable,
    Iterator,
    Literal,
    Mapping,
    Sequence,
    SupportsIndex,
    TypeAlias,
    TypedDict,
    TypeVar,
    overload,
)

from fm import agents as agents
from fm import events as events
from fm import huzzah as huzzah
from fm._errors import ProtocolError as ProtocolError
from fm._errors import RuleError as RuleError
from fm._errors import SaveError as SaveError
from fm._errors import ScenarioError as ScenarioError
from fm._errors import UnsupportedError as UnsupportedError
from fm._length import GameLength as GameLength
from fm.events import Event as Event

# A writable buffer passed as `out` (a numpy array, a bytearray): returned as given.
_WritableBuffer = TypeVar("_WritableBuffer")

__version__: str
FEATURE_NAMES: list[str]
MAX_JSON_DEPTH: int
"""The deepest nesting of lists and dicts accepted where Python data is read as JSON
(commands, events, scenarios as dicts): 128, serde_json's bound on JSON text. Deeper
data, or a container that contains itself, raises :class:`ProtocolError`."""
MAX_INPUT_BYTES: int
"""The largest save or scenario file, JSON text or Python data read as JSON accepted,
in bytes (64 MiB; a file is read no further)."""

SideName: TypeAlias = Literal["a", "b"]
"""A side: ``"a"`` (listed first in the scenario) or ``"b"``."""

SideArg: TypeAlias = str | SupportsIndex
"""A side argument: ``"a"``/``"b"``, ``0``/``1`` (also numpy integers), or the side's
name in the scenario. A ``bool`` (an ``int`` to type checkers) raises ``TypeError`` at
run time."""

StrList: TypeAlias = list[str] | tuple[str, ...]
"""A list (or tuple) of hex or unit ids. Not a bare ``str``: ``fm.Move(u, "0405")``
raises ``TypeError`` (write ``["0405"]``)."""

JsonDict: TypeAlias = dict[str, Any]

ScenarioSource: TypeAlias = "str | os.PathLike[str] | Mapping[str, Any] | Scenario"
"""A built-in scenario name (of any registered system), a path to a scenario file,
scenario JSON text, a dict of scenario data, or a loaded :class:`Scenario`. Scenario
JSON names its rules system in ``"system"`` (Fire & Movement, ``"fm"``, when absent)."""

CommandLike: TypeAlias = "Command | huzzah.Command | Mapping[str, Any] | str"
"""A typed command (Fire & Movement's, or for a Huzzah! match :class:`fm.huzzah.Command`),
a dict in the documented JSON form, or JSON text."""

class Outcome(TypedDict):
    winner: SideName | None
    reason: str

class PlaySummary(TypedDict):
    games: int
    wins: dict[str, int]
    commands: int
    seconds: float
    winners: list[SideName | None]

def information_state_tensor_size(max_commands: int) -> int:
    """The length of an information-state tensor with room for ``max_commands``
    commands (:meth:`Match.information_state_tensor`): 9 + 4 per command."""

def max_game_length(scenario: ScenarioSource) -> GameLength | None:
    """The bound on the length of every game of ``scenario``, derived from its rules
    (:meth:`Match.max_game_length` of a match of it): the most commands and chance
    outcomes any game has; ``None`` for a rules system that cannot bound its games.
    :class:`ScenarioError` for an unknown scenario."""

def scenarios(system: str | None = None) -> list[str]:
    """Ids of the built-in scenarios of every registered rules system (Fire &
    Movement's first), or of one (``scenarios("fm")``: Fire & Movement's).
    :class:`ProtocolError` for a system that is not registered."""

def systems() -> list[str]:
    """Names of the registered rules systems: ``"fm"`` (Fire & Movement) first."""

def command(data: CommandLike) -> Command:
    """Parses a command into a typed command object."""

def play_random(
    scenario: ScenarioSource | None = None, games: int = 1, seed: int = 0, threads: int = 1
) -> PlaySummary:
    """Plays whole games of random legal commands in Rust with the GIL released (any
    system: Fire & Movement with the ``play`` example's agent, another system with the
    match layer's uniformly random play-out)."""

def rust_playthrough_hash(
    scenario: ScenarioSource, seed: int, steps: int
) -> tuple[int, int, int]:
    """Parity reference: ``(event_hash, steps_played, state_hash)`` of the playthrough
    that applies legal command ``(k * 7) % n`` at step ``k`` (any system)."""

def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """The picture ``svg`` (SVG text, such as :meth:`Match.svg`) as PNG bytes, ``scale``
    pixels per SVG unit, drawn by resvg on a white ground with the system's fonts
    (:func:`render_fonts`; text is left out on a system without fonts). Files and URLs
    the SVG names are not read. :class:`ProtocolError` for text that is not SVG,
    ``ValueError`` for a scale outside (0, 16] or a picture over 8192 pixels on a side."""

def svg_to_rgb(svg: str, scale: float = 1.0) -> tuple[int, int, bytearray]:
    """The picture ``svg`` as RGB pixels: ``(height, width, data)``, ``data`` holding
    ``height * width * 3`` bytes, rows top to bottom (``numpy.frombuffer(data,
    numpy.uint8).reshape(height, width, 3)``). Drawn, and refused, as by
    :func:`svg_to_png`."""

def render_fonts() -> list[str]:
    """The font families :func:`svg_to_png` and :func:`svg_to_rgb` draw text with (the
    system's, sorted; empty on a system without fonts)."""

class Scenario:
    """A validated, immutable Fire & Movement scenario (a scenario of another system
    raises :class:`UnsupportedError`: open it with :class:`Match`)."""

    def __init__(self, source: ScenarioSource) -> None: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def sides(self) -> dict[str, str]: ...
    @property
    def unit_ids(self) -> list[str]: ...
    @property
    def hexes(self) -> list[str]: ...
    @property
    def turn_count(self) -> int: ...
    @property
    def action_space_size(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, int, int]: ...
    @property
    def observation_size(self) -> int:
        """The length of a flat observation (:meth:`Match.observation`): board planes
        then features."""
    @property
    def observation_channels(self) -> list[str]: ...
    @property
    def feature_names(self) -> list[str]: ...
    def to_dict(self) -> JsonDict: ...
    def to_json(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Pending:
    """The decision the game waits for. Other attributes by kind: ``phase``
    (``"phase"``), ``step`` (``"support_fire"``), ``candidates`` and ``reason``
    (``"choose_loss"``), ``units`` and ``hexes`` (``"retreat"``), ``path`` and
    ``units`` (``"advance"``), ``unit``, ``hits`` and ``stacked`` (``"artillery_retreat"``;
    ``stacked``: the other brigades of a Meuse Argonne stack, empty for a lone unit),
    ``winner`` (``"game_over"``); ``"lost_battalion"`` and ``"fire_support"`` (Suez 1916
    18.1: place markers, announce attacks) have only ``side``."""

    @property
    def kind(self) -> str: ...
    @property
    def side(self) -> SideName | None: ...
    def to_dict(self) -> JsonDict: ...
    def __getattr__(self, name: str) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Command:
    """A player's decision; see the subclasses. Attributes are the JSON fields."""

    @staticmethod
    def from_dict(data: CommandLike) -> Command: ...
    @property
    def type(self) -> str: ...
    def to_dict(self) -> JsonDict: ...
    def to_json(self) -> str: ...
    def fields(self) -> list[str]: ...
    def __getattr__(self, name: str) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Place(Command):
    """``place``: put a unit in its set-up zone (3.0)."""

    unit: str
    hex: str
    def __init__(self, unit: str, hex: str) -> None: ...

class Move(Command):
    """``move``: move a unit along the hexes it enters (5.0)."""

    unit: str
    path: list[str]
    def __init__(self, unit: str, path: StrList) -> None: ...

class Bombard(Command):
    """``bombard``: bombard the enemy unit in a hex with 1 or 2 markers (8.1.2)."""

    hex: str
    markers: int
    def __init__(self, hex: str, markers: int) -> None: ...

class Attack(Command):
    """``attack``: attack the enemy unit in a hex with adjacent units (8.2.1(a))."""

    hex: str
    units: list[str]
    def __init__(self, hex: str, units: StrList) -> None: ...

class SupportFire(Command):
    """``support_fire``: commit a marker or pass (8.2.1(b))."""

    commit: bool
    def __init__(self, commit: bool) -> None: ...

class ChooseLoss(Command):
    """``choose_loss``: the unit that loses a step (8.2.4)."""

    unit: str
    def __init__(self, unit: str) -> None: ...

class Retreat(Command):
    """``retreat``: retreat a unit along a path (8.3); ``displace`` for 8.3.1."""

    unit: str
    path: list[str]
    displace: list[str]
    def __init__(
        self, unit: str, path: StrList, displace: StrList | None = None
    ) -> None: ...

class StiffResistance(Command):
    """``stiff_resistance``: hold and lose a step instead of retreating (8.4)."""

    unit: str
    def __init__(self, unit: str) -> None: ...

class Advance(Command):
    """``advance``: advance after combat to a hex of the path of retreat (8.5)."""

    unit: str
    to: str
    def __init__(self, unit: str, to: str) -> None: ...

class Replace(Command):
    """``replace``: bring an eliminated unit back (Meuse Argonne 11.3, 11.6; Vimy Ridge 11.3,
    11.6, where ``full`` brings it at full strength for two replacements)."""

    unit: str
    hex: str
    full: bool
    def __init__(self, unit: str, hex: str, full: bool = False) -> None: ...

class Rebuild(Command):
    """``rebuild``: restore a step to depleted units (Meuse Argonne 11.3, 11.6)."""

    units: list[str]
    def __init__(self, units: StrList) -> None: ...

class BreakDown(Command):
    """``break_down``: break a three-step division into brigades (Meuse Argonne 13.2)."""

    unit: str
    def __init__(self, unit: str) -> None: ...

class PlaceAircraft(Command):
    """``place_aircraft``: an aircraft observes a hex (Meuse Argonne 17.3)."""

    hex: str
    def __init__(self, hex: str) -> None: ...

class Artillery(Command):
    """``artillery``: artillery bombardment with 1 or 2 markers, optionally gas (Meuse
    Argonne 17.2-17.7)."""

    hex: str
    markers: int
    gas: bool
    def __init__(self, hex: str, markers: int, gas: bool = False) -> None: ...

class LostBattalion(Command):
    """``lost_battalion``: declare the Lost Battalion or not (Meuse Argonne 18.1)."""

    declare: bool
    def __init__(self, declare: bool) -> None: ...

class AirUnit(Command):
    """``air_unit``: place the air unit on a hex, to bombard it or (``observe``) to
    observe it and its six neighbours (Suez 1916 18.5)."""

    hex: str
    observe: bool
    def __init__(self, hex: str, observe: bool = False) -> None: ...

class Kress(Command):
    """``kress``: Kress von Kressenstein assists the attack on a hex this combat phase
    (Suez 1916 13.1)."""

    hex: str
    def __init__(self, hex: str) -> None: ...

class Done(Command):
    """``done``: end the phase, or stop advancing (4.1, 8.5)."""

    def __init__(self) -> None: ...

class LogEntry:
    """One applied command, its events and the state hash after them. Immutable:
    entries are equal when command, events and hash are, and hashable."""

    @property
    def command(self) -> Command: ...
    @property
    def events(self) -> list[Event]: ...
    @property
    def hash(self) -> int: ...
    def to_dict(self) -> JsonDict: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...

class Match:
    """A running game of any registered rules system (:func:`systems`): scenario, state,
    seeded generator and log.

    Every system: ``system``, ``scenario_data``, ``seed``, ``pending``, ``to_move``,
    ``legal_commands()``, ``apply()``, ``legal_actions()``, ``apply_action()``,
    ``legal_action_mask()``, ``action_space_size``, ``action_of()``, ``command_of()``,
    ``state``, ``view()``, ``hash``, ``view_hash()``, ``export()``, ``is_over``,
    ``winner``, ``result``, ``returns()``, ``log``, ``opening_events``, ``events()``,
    ``playout()``, ``clone()`` (and copy and pickle), ``undo()``, ``save()`` and
    ``load()``. Commands, events, the pending decision and log entries are typed: Fire &
    Movement's (the annotations here), or for a Huzzah! match :mod:`fm.huzzah`'s
    (``fm.huzzah.Fire``, ``fm.huzzah.events.FireResolved``, ``fm.huzzah.Pending``,
    ``fm.huzzah.LogEntry``); for another system they are dicts in that system's JSON
    form. Commands may always be given as dicts or JSON text too.

    Fire & Movement and Huzzah!: ``turn``, ``phase``, ``active``, ``svg()`` and
    ``_repr_svg_()`` (each system its own options), the learning observation
    (``observation_spec``, ``observation()``, ``observation_bytes()``: so also
    ``fm.env`` and ``fm.openspiel``). Fire & Movement only (:class:`UnsupportedError`
    for another system): ``scenario`` (a :class:`Scenario`), ``legal_commands_for()``,
    ``explain()``, ``reachable()`` and ``odds()``."""

    def __init__(
        self,
        scenario: ScenarioSource | None = None,
        seed: int = 0,
        chance_mode: str = "sampled",
    ) -> None:
        """``scenario``: see :data:`ScenarioSource` (default ``"system-demo"``);
        ``seed``: an int in 0..2**64-1 (``ValueError`` outside it); ``chance_mode``:
        ``"sampled"`` or ``"explicit"`` (``ValueError`` otherwise), from the opening on:
        explicit makes the opening's draws (Huzzah!'s roll-off and placement rolls)
        chance nodes too, so the match may start at one."""
    @property
    def system(self) -> str:
        """The rules system: ``"fm"`` or another of :func:`systems`."""
    @property
    def scenario(self) -> Scenario:
        """Fire & Movement only; ``scenario_data`` works for every system."""
    @property
    def scenario_data(self) -> JsonDict:
        """The scenario's data (its JSON form), for any system."""
    @property
    def seed(self) -> int: ...
    @property
    def pending(self) -> Pending:
        """The decision the game waits for (Huzzah!: an :class:`fm.huzzah.Pending`;
        another system: a dict)."""
    @property
    def turn(self) -> int:
        """The game turn, from 1 (Huzzah!: 0 during the set-up)."""
    @property
    def phase(self) -> str:
        """The current phase's name: Fire & Movement's (``"movement"``, ...) or Huzzah!'s
        (``"firing"``, ``"orders"``, ..., ``"setup"`` before turn 1; its side is
        ``active``)."""
    @property
    def active(self) -> SideName | None:
        """The phasing side; ``None`` only in Huzzah!'s phases of both sides (the
        set-up, skirmisher superiority, artillery effectiveness, turn end)."""
    @property
    def to_move(self) -> SideName | None: ...
    @property
    def pending_kind(self) -> str:
        """The pending decision's ``kind`` as its JSON names it (``"phase"``,
        ``"declare_fire"``, ``"game_over"``), without building the decision."""
    def legal_commands(self) -> list[Command]:
        """The legal commands in a stable order (Huzzah!: :class:`fm.huzzah.Command`
        objects; another system: dicts)."""
    def legal_commands_for(self, unit: str) -> list[Command]:
        """The legal commands that concern one unit; :class:`RuleError` (rule
        ``"input"``) for a unit the scenario does not have."""
    def apply(self, command: CommandLike) -> list[Event]:
        """Applies a command and returns its events (Huzzah!: an
        :class:`fm.huzzah.Command`, a dict or JSON text in, :mod:`fm.huzzah.events` out;
        another system: a dict or JSON text in, dicts out). :class:`RuleError` if
        refused (nothing changes), :class:`ProtocolError` if malformed (an unknown field
        included)."""
    def apply_action(self, action: SupportsIndex) -> list[Event]:
        """Applies the command with this action index; :class:`RuleError` (rule
        ``"input"``) for any int that is no command here (negative or huge too)."""
    def legal_actions(self) -> list[int]: ...
    @overload
    def legal_action_mask(self, out: None = None) -> bytes: ...
    @overload
    def legal_action_mask(self, out: _WritableBuffer) -> _WritableBuffer: ...
    def sample_legal_action(self, seed: int | None = 0) -> int | None: ...
    @property
    def action_space_size(self) -> int:
        """The size of the fixed integer action space (any system)."""
    def action_of(self, command: CommandLike) -> int | None: ...
    def command_of(self, action: SupportsIndex) -> Command | None:
        """The command an action index stands for here (Huzzah!: an
        :class:`fm.huzzah.Command`; another system: a dict); ``None`` for any int that is
        none (negative or huge too)."""
    # The factored action space: a command in a few small steps (docs/protocol.md,
    # "The factored action space"); the action indices are kept.
    @property
    def factored_sizes(self) -> tuple[int, ...]:
        """The number of values of each step, fixed for the scenario (Fire & Movement:
        ``(11 + 8U, max(H, U), 64)``; another system: two steps)."""
    def factored_options(self, prefix: Iterable[SupportsIndex] | None = None) -> list[int]:
        """The options of the next step after ``prefix``, ascending: the values that
        continue it towards at least one legal command; empty for the empty prefix when
        no command is legal. :class:`RuleError` (rule ``"input"``) for a value that is
        no option of its step, a complete sequence or a prefix no legal command starts
        with."""
    @overload
    def factored_mask(
        self, prefix: Iterable[SupportsIndex] | None = None, out: None = None
    ) -> bytes: ...
    @overload
    def factored_mask(
        self, prefix: Iterable[SupportsIndex] | None, out: _WritableBuffer
    ) -> _WritableBuffer: ...
    @overload
    def factored_mask(
        self, prefix: Iterable[SupportsIndex] | None = None, *, out: _WritableBuffer
    ) -> _WritableBuffer: ...
    def factored_complete(self, seq: Iterable[SupportsIndex]) -> bool:
        """Whether a sequence stands for a whole command (else its next step is
        ``len(seq)``)."""
    def factored_to_action(self, seq: Iterable[SupportsIndex]) -> int:
        """The action index of a complete sequence."""
    def action_to_factored(self, action: SupportsIndex) -> list[int]:
        """The sequence of an action index; :class:`RuleError` (rule ``"input"``) for
        any int that is no command's index."""
    def apply_factored(self, seq: Iterable[SupportsIndex]) -> list[Event]:
        """Applies the command of a complete sequence (as :meth:`apply_action`)."""
    def explain(self, command: CommandLike) -> RuleError | None: ...
    def reachable(self, unit: str) -> list[JsonDict]:
        """Where a unit can move this phase; :class:`RuleError` (rule ``"input"``) for
        a unit the scenario does not have."""
    @overload
    def odds(
        self,
        hex: str,
        units: StrList | None = None,
        attacker_markers: int = 0,
        defender_markers: int = 0,
        side: SideArg | None = None,
    ) -> JsonDict:
        """Fire & Movement: the odds of an attack on ``hex`` by ``units`` (or a
        bombardment, ``units`` empty)."""
    @overload
    def odds(self, hex: JsonDict, *, side: SideArg | None = None) -> JsonDict:
        """Any system: the proposal as the match layer's JSON (Huzzah!
        ``{"fire": {"unit", "target", "bases"?}}`` or ``{"morale": {"unit"}}``)."""
    @property
    def state(self) -> JsonDict: ...
    def view(self, side: SideArg) -> JsonDict:
        """The state as ``side`` may see it; ``"spectator"``: as a spectator may, both
        sides' secrets hidden (:class:`UnsupportedError` for a system without spectator
        views)."""
    @property
    def hash(self) -> int:
        """The referee's state hash: covers hidden values; show players view_hash()."""
    def view_hash(self, side: SideArg) -> int:
        """The hash of ``side``'s view (``"spectator"``: a spectator's, safe to show
        anyone)."""
    def spectator_log(self, since: int = 0) -> list[JsonDict]:
        """The log from command ``since`` on as a spectator may know it: dicts
        ``{"command", "events", "view_hash"}``, both sides' secrets redacted."""
    def export(self, side: SideArg) -> JsonDict: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> SideName | None: ...
    @property
    def result(self) -> Outcome | None: ...
    def returns(self) -> dict[str, int]: ...
    @property
    def log(self) -> list[LogEntry]:
        """The commands so far (Huzzah!: :class:`fm.huzzah.LogEntry` objects; another
        system: dicts ``{"command", "events", "hash"}`` as in a save file)."""
    @property
    def opening_events(self) -> list[Event]: ...
    def events(self) -> list[Event]: ...
    def log_words(
        self, side: SideArg | None = None, since: int = 0
    ) -> tuple[list[str], list[list[str]]]:
        """The events in words, one line each as the ``play`` example prints them:
        ``(opening, commands)``, the opening's lines and each command's from ``since``
        on, as ``side`` may know them (``"spectator"``: as a spectator may; ``None``:
        the referee's, every value)."""
    def playout(self, max_commands: int | None = None, seed: int = 0) -> int:
        """Plays uniformly random legal commands (a generator seeded with ``seed``)
        until the game ends or ``max_commands`` were applied; returns how many were."""
    def clone(self, seed: int | None = None) -> Match:
        """An independent copy; with ``seed``, its generator re-seeded (its own dice)."""
    @property
    def chance_mode(self) -> str:
        """``"sampled"`` (dice from the seeded generator) or ``"explicit"`` (chance nodes)."""
    def set_chance_mode(self, mode: str) -> None: ...
    def information_state_string(self, side: SideArg) -> str:
        """The side's perfect-recall information state (its redacted record), JSON text."""
    @overload
    def information_state_tensor(
        self, side: SideArg, max_commands: int, out: None = None
    ) -> bytes: ...
    @overload
    def information_state_tensor(
        self, side: SideArg, max_commands: int, out: _WritableBuffer
    ) -> _WritableBuffer:
        """``side``'s perfect-recall information state as float32 values (9 + 4 per
        command; equal exactly when :meth:`information_state_string` is): bytes, or
        filled into ``out`` and returned. :class:`RuleError` (rule ``"input"``) when the
        record holds more than ``max_commands`` commands."""
    def determinized(self, side: SideArg, seed: int | None = 0) -> Match:
        """A new match drawn from ``side``'s view of this one (OpenSpiel's
        ``resample_from_infostate``): what ``side`` may not know drawn anew, its own
        generator (``seed``), an empty log, ``side``'s information state continued.
        While a command waits for its draws, the new match waits for the same draw.
        :class:`RuleError` (rule ``"input"``) 8 determinizations deep."""
    def think(
        self,
        *,
        iterations: int = 200,
        seed: int = 0,
        time_budget: float | None = None,
        exploration: float = 0.4,
        rollout: int = 0,
        widening: float = 2.0,
        max_priors: int = 400,
        max_candidates: int = 16,
    ) -> dict[str, Any]:
        """The built-in AI's choice (information-set MCTS from the decider's view):
        ``{"command", "index", "side", "iterations", "stopped", "tree_bytes",
        "value", "candidates"}``.
        :class:`ProtocolError` naming the setting and its range for one out of range
        (``iterations`` 1 to 10,000,000, ``seed`` and ``max_candidates`` 0 to
        2**64 - 1, ``rollout`` 0 to 100,000, ``max_priors`` 1 to 1,000,000, …)."""
    @property
    def is_chance_node(self) -> bool:
        """Whether a command waits for a chance outcome (explicit chance mode)."""
    def chance_node(self) -> dict[str, Any] | None:
        """The pending draw: ``{"outcomes": n, "roll": {"roll": "fire", "dice": "2d6",
        "die": 1, "unit": ..., "target": ...}}``, or ``None``. Outcome ``k`` of a die is
        the face ``k + 1``; a ``"2d6"`` roll is two draws, die 1 then die 2; a ``"draw"``
        picks the ``k``-th of ``roll["from"]``."""
    @property
    def chance_drawn(self) -> list[int] | None:
        """The outcomes chosen so far for the waiting command's draws, in order, or
        ``None`` when no draw is pending."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending draw's outcomes and their probabilities (empty when none)."""
    def max_game_length(self) -> GameLength | None:
        """The bound on the length of every game of this match's scenario, derived from
        its rules: :class:`GameLength` (``commands``, ``chance`` outcomes, ``total`` the
        moves OpenSpiel counts), or ``None`` for a rules system that cannot bound its
        games."""
    def apply_chance(self, outcome: int) -> list[Any]:
        """Resolves the pending draw; the command's events once it completes."""
    def reseed(self, seed: int) -> None:
        """Re-seeds the generator (recorded: saves replay it, undo takes it back)."""
    @property
    def rng_state(self) -> str:
        """The generator's state, 64 lowercase hex digits (the referee's)."""
    def set_rng_state(self, state: str) -> None:
        """Sets the generator to a state ``rng_state`` gave (``ValueError`` otherwise)."""
    def __copy__(self) -> Match: ...
    def __deepcopy__(self, memo: Any) -> Match: ...
    def undo(self) -> bool: ...
    def save(self, path: str | os.PathLike[str] | None = None) -> str: ...
    @staticmethod
    def load(source: str | bytes | os.PathLike[str]) -> Match:
        """Loads a save of any registered system (its ``"system"``; Fire & Movement when
        absent): JSON text (a str starting with ``{``, or bytes; a leading byte-order
        mark is ignored) or a path. :class:`SaveError` if it does not replay,
        :class:`ProtocolError` if malformed, not exactly in the form ``save`` writes
        (format 2, no unknown or duplicate key), of an unknown system or larger than
        fm-core's 4 MiB save limit (a file is read no further than
        :data:`MAX_INPUT_BYTES`), ``OSError`` (naming the path) if unreadable."""
    def svg(
        self,
        side: SideArg | None = None,
        *,
        hex_size: float | None = None,
        hex_ids: bool | None = None,
        panel: bool | None = None,
        highlight: StrList | None = None,
        markers: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...] | None = None,
        title: str | None = None,
        arc_of: str | None = None,
        radii: bool | None = None,
        scale: SupportsIndex | None = None,
        labels: bool | None = None,
        region: Mapping[str, Any] | Sequence[str] | None = None,
        unit_labels: Literal["name", "id"] | None = None,
        crt: bool | None = None,
        terrain_chart: bool | None = None,
        turn_track: bool | None = None,
        boxes: bool | None = None,
    ) -> str:
        """The board (Fire & Movement) or the table (Huzzah!) as an SVG document: the
        full state, or ``side``'s view (``"spectator"``: a spectator's). Each system
        takes its own options; the other's
        raise ``TypeError`` (``None`` is the default).

        Fire & Movement (the other side's face-down markers as "?" in a side's view):
        ``hex_size``: pixels from a hex's centre to a corner, 10 to 200 (``ValueError``
        outside, NaN included; default 40); ``hex_ids`` (default True; drawn only
        from a hex size of 28, below which they cannot be read), ``panel``
        (default True); ``highlight``: hexes to outline; ``markers``: extra ``(hex,
        kind, label)`` chips, kind ``"breach"``, ``"aircraft"``, ``"support"`` or
        anything else; ``title``; ``region``: the part of the map drawn,
        ``{"from": "0101", "to": "1010"}`` or a list of hexes whose bounding rectangle is
        drawn (:class:`RuleError`, rule ``"input"``, for a hex off the map; default the
        whole map); ``unit_labels``: what counters print, ``"name"`` or ``"id"`` (the
        name commands use; default ``"name"``); below the map, each default True:
        ``crt`` (the Combat Results Table, the attack in progress's line and column
        highlighted), ``terrain_chart``, ``turn_track``, ``boxes`` (each side's
        reinforcement and eliminated boxes).

        Huzzah! (every base at true scale and orientation, officers, terrain, objectives,
        a legend of the units off the table): ``arc_of``: a unit id whose arc of fire,
        weapon range and short range are drawn (nothing for a unit off the table;
        :class:`RuleError`, rule ``"input"``, for an id the scenario does not have);
        ``radii``: the officers' command radii (default False); ``scale``: pixels per
        centimetre of table, an int from 1 to 100 (``ValueError`` outside; default 5);
        ``labels``: unit and terrain ids (default True); ``region``: the rectangle of
        table drawn, ``{"from": [x, y], "to": [x, y]}`` in cm from side A's left corner
        (:class:`RuleError` for a corner off the table; default the whole table)."""
    def _repr_svg_(self) -> str:
        """The picture with the default options (Jupyter shows it inline)."""
    @property
    def observation_spec(self) -> dict[str, Any]:
        """The observation's layout, fixed for the scenario: ``{"shape": [channels,
        rows, columns], "channels": [...], "features": [...]}``; a flat observation is
        the planes (C order) then the features. Fire & Movement and Huzzah!
        (:class:`UnsupportedError` for another system)."""
    def observation_bytes(self, side: SideArg) -> tuple[bytes, bytes]:
        """``side``'s observation as little-endian float32 bytes: ``(planes,
        features)``."""
    @overload
    def observation(self, side: SideArg, out: None = None) -> bytes: ...
    @overload
    def observation(self, side: SideArg, out: _WritableBuffer) -> _WritableBuffer:
        """``side``'s observation as one flat float32 vector (planes in C order, then
        the features; :attr:`observation_spec`'s size), from its view alone:
        little-endian float32 bytes, or filled into ``out`` (a writable buffer of that
        many float32 items, such as a ``numpy.float32`` array) and returned."""
