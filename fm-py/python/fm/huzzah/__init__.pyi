"""Type stubs of fm.huzzah: Huzzah! Glorious Empires commands (one class per command
type), the pending decision (one subclass a kind in :mod:`fm.huzzah.pending`) and log
entries. Constructors take the JSON fields as keyword arguments; units and officers are
named by their scenario ids, lengths are millimetres (a whole number, or one decimal:
the engine's resolution is 0.1 mm)."""

from typing import Any, Iterator, Literal, Mapping, Sequence, TypeAlias

from fm.huzzah import events as events
from fm.huzzah import pending as pending
from fm.huzzah.events import Event as Event

SideName: TypeAlias = Literal["a", "b"]
JsonDict: TypeAlias = dict[str, Any]

CommandLike: TypeAlias = "Command | Mapping[str, Any] | str"
"""A typed Huzzah! command, a dict in its JSON form, or JSON text."""

BaseKind: TypeAlias = Literal[
    "infantry",
    "irregular_infantry",
    "battle_cavalry",
    "other_cavalry",
    "divisional_artillery",
    "foot_artillery",
    "horse_artillery",
    "heavy_artillery",
]
OrderKind: TypeAlias = Literal["advance", "retire", "deploy", "manoeuvre"]
Formation: TypeAlias = Literal["line", "column", "square"]
Group: TypeAlias = Mapping[Literal["unit", "division", "corps"], str]
"""The group an order names: ``{"unit": id}``, ``{"division": id}`` or
``{"corps": id}``."""

class Command:
    """A Huzzah! player's decision; see the subclasses. Attributes are the JSON fields
    (an optional field the JSON leaves out reads ``None``). Not an :class:`fm.Command`
    (those are Fire & Movement's)."""

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

class PlaceUnit(Command):
    """``place_unit``: place a unit, at its scenario position (page 7)."""

    unit: str
    def __init__(self, *, unit: str) -> None: ...

class EndPlacement(Command):
    """``end_placement``: end this placement roll's placing (page 7)."""

    def __init__(self) -> None: ...

class PlaceOfficer(Command):
    """``place_officer``: place an officer at ``at`` (``[x_mm, y_mm]``; ``None``: his
    scenario or default position) (page 8)."""

    officer: str
    at: list[float] | None
    def __init__(self, *, officer: str, at: Sequence[float] | None = None) -> None: ...

class Fire(Command):
    """``fire``: declare a unit's target; ``bases``: fire with only these (indices rank
    by rank from the front, left to right) (pages 11-12)."""

    unit: str
    target: str
    bases: list[int] | None
    def __init__(
        self, *, unit: str, target: str, bases: Sequence[int] | None = None
    ) -> None: ...

class HoldFire(Command):
    """``hold_fire``: a unit that could fire does not (page 11)."""

    unit: str
    def __init__(self, *, unit: str) -> None: ...

class RemoveBase(Command):
    """``remove_base``: remove a base of ``kind`` from ``rank`` (0 = front) (page 12)."""

    unit: str
    rank: int
    kind: BaseKind
    def __init__(self, *, unit: str, rank: int, kind: BaseKind) -> None: ...

class Order(Command):
    """``order``: an officer orders a group to advance, retire, deploy or manoeuvre
    (pages 16-18)."""

    officer: str
    group: dict[str, str]
    order: OrderKind
    def __init__(self, *, officer: str, group: Group, order: OrderKind) -> None: ...

class Advance(Command):
    """``advance``: a unit of the order advances ``distance_mm`` straight ahead, then
    drifts ``drift_mm`` to its right (negative: left), at most 50 (page 19)."""

    unit: str
    distance_mm: float
    drift_mm: float
    def __init__(self, *, unit: str, distance_mm: float, drift_mm: float = 0) -> None: ...

class Charge(Command):
    """``charge``: a unit of an advance order charges ``target``; ``offset_mm``: where
    the overlap goes along the face charged (page 20)."""

    unit: str
    target: str
    offset_mm: float | None
    def __init__(self, *, unit: str, target: str, offset_mm: float | None = None) -> None: ...

class Deploy(Command):
    """``deploy``: a unit of a deploy order changes ``formation`` to ``ranks``; base
    ``anchor`` (as numbered now) stays and becomes base ``anchor_to`` (page 21)."""

    unit: str
    formation: Formation
    ranks: list[int]
    anchor: int
    anchor_to: int
    def __init__(
        self,
        *,
        unit: str,
        formation: Formation,
        ranks: Sequence[int],
        anchor: int = 0,
        anchor_to: int = 0,
    ) -> None: ...

class Retire(Command):
    """``retire``: a unit of the order retires ``distance_mm`` straight back (page 20)."""

    unit: str
    distance_mm: float
    def __init__(self, *, unit: str, distance_mm: float) -> None: ...

class MeleeResult(Command):
    """``melee_result``: a melee's outcome (the rules are missing): the ``winner``
    (``None``: drawn), hits on side A's and side B's unit, the loser's fall back and
    whether it routs."""

    a: str
    b: str
    winner: SideName | None
    hits_a: int
    hits_b: int
    loser_falls_back_mm: float
    loser_routs: bool
    def __init__(
        self,
        *,
        a: str,
        b: str,
        winner: SideName | None = None,
        hits_a: int,
        hits_b: int,
        loser_falls_back_mm: float = 0,
        loser_routs: bool = False,
    ) -> None: ...

class Rally(Command):
    """``rally``: whether a disordered or routing unit rallies one step (the rules are
    missing)."""

    unit: str
    rallies: bool
    def __init__(self, *, unit: str, rallies: bool) -> None: ...

class MoveOfficer(Command):
    """``move_officer``: an officer moves to ``at`` (``[x_mm, y_mm]``), up to his move,
    and may ``attach`` to a unit he ends touching."""

    officer: str
    at: list[float]
    attach: str | None
    def __init__(
        self, *, officer: str, at: Sequence[float], attach: str | None = None
    ) -> None: ...

Direction: TypeAlias = Literal["ahead", "back", "left", "right"]
OfficerQuality: TypeAlias = Literal["excellent", "skilful", "average", "poor", "abysmal"]

class SkirmishLine(Command):
    """``skirmish_line``: a unit with a Skirmish ability, on a deploy order, deploys
    ``bases`` of its infantry bases into the skirmish line (page 22)."""

    unit: str
    bases: int
    def __init__(self, *, unit: str, bases: int) -> None: ...

class JoinBattery(Command):
    """``join_battery``: reserve artillery on a deploy order joins ``battery``, at its
    ``left`` end or its right (page 22)."""

    unit: str
    battery: str
    left: bool
    def __init__(self, *, unit: str, battery: str, left: bool = False) -> None: ...

class EnterSector(Command):
    """``enter_sector``: a unit on a deploy order deploys into a sector of dense
    terrain it touches (``"<terrain id>/<n>"``), its centre at ``at`` (mm) or the
    sector's centre (page 22)."""

    unit: str
    sector: str
    at: list[float] | None
    def __init__(
        self, *, unit: str, sector: str, at: Sequence[float] | None = None
    ) -> None: ...

class LeaveSector(Command):
    """``leave_sector``: a unit on a deploy order deploys out of its sector of dense
    terrain, moving ``direction`` until just clear of it (page 22)."""

    unit: str
    direction: Direction
    def __init__(self, *, unit: str, direction: Direction) -> None: ...

class AdvanceSector(Command):
    """``advance_sector``: a unit deployed in dense terrain, on an advance order,
    advances into an adjacent ``sector``, or engages the enemy holding it (page 19)."""

    unit: str
    sector: str
    def __init__(self, *, unit: str, sector: str) -> None: ...

class PassageOfLines(Command):
    """``passage_of_lines``: ``unit`` and ``with``, both on the deploy order, exchange
    places (page 22). ``with`` is a Python keyword: the argument and attribute are
    ``with_``."""

    unit: str
    with_: str
    def __init__(self, *, unit: str, with_: str) -> None: ...

class Manoeuvre(Command):
    """``manoeuvre``: a unit of a manoeuvre order takes a new ``anchor`` (mm, the centre
    of its front edge) and ``facing`` (degrees), formation kept; the rules are missing,
    the written limits apply (and a stand-in distance limit under ``stand_in``)."""

    unit: str
    anchor: list[float]
    facing: int
    def __init__(self, *, unit: str, anchor: Sequence[float], facing: int) -> None: ...

class Appoint(Command):
    """``appoint``: the CinC appoints a successor to ``officer``, a corps or division
    officer lost in an earlier turn (page 16); his ``quality`` and whether he is
    ``inspirational`` are stated under ``"decide"`` and left out under ``"stand_in"``;
    placed at ``at`` (mm) or beside the CinC."""

    officer: str
    quality: OfficerQuality | None
    inspirational: bool
    at: list[float] | None
    def __init__(
        self,
        *,
        officer: str,
        quality: OfficerQuality | None = None,
        inspirational: bool = False,
        at: Sequence[float] | None = None,
    ) -> None: ...

class EndOrder(Command):
    """``end_order``: end the order being acted on; units that have not acted stay."""

    def __init__(self) -> None: ...

class EndPhase(Command):
    """``end_phase``: end the phase (Orders, Rally, Move Officers)."""

    def __init__(self) -> None: ...

class Pending:
    """The decision a Huzzah! battle waits for: one of the classes of
    :mod:`fm.huzzah.pending`, a kind each, whose attributes are typed (``min``, ``max``
    and ``placed`` of ``PlaceUnits``, ``units`` of ``DeclareFire``, ...; units by their
    scenario ids)."""

    @property
    def kind(self) -> str: ...
    @property
    def side(self) -> SideName | None: ...
    def to_dict(self) -> JsonDict: ...
    def to_json(self) -> str: ...
    def fields(self) -> list[str]: ...
    def __getattr__(self, name: str) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class LogEntry:
    """One applied Huzzah! command, its events and the state hash after them.
    Immutable: entries are equal when command, events and hash are, and hashable."""

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

__all__ = [
    "Command",
    "Event",
    "LogEntry",
    "Pending",
    "events",
    "pending",
    "PlaceUnit",
    "EndPlacement",
    "PlaceOfficer",
    "Fire",
    "HoldFire",
    "RemoveBase",
    "Order",
    "Advance",
    "Charge",
    "Deploy",
    "Retire",
    "MeleeResult",
    "Rally",
    "MoveOfficer",
    "EndOrder",
    "EndPhase",
]
