"""Type stubs of fm.huzzah.events: one class per Huzzah! event type, and the typed values
inside events (:class:`Point`, :class:`Shape`, :class:`FactorTest`, :class:`Modifier`,
:class:`Phase`, :class:`Group`, :class:`Outcome`). Units and officers are named by their
scenario ids; lengths and positions are millimetres (a whole number, or one decimal)."""

from typing import Any, Literal, SupportsIndex, TypeAlias

from fm.huzzah import Pending

SideName: TypeAlias = Literal["a", "b"]
Dice: TypeAlias = tuple[int, int]
"""Two dice as rolled: ``(3, 5)`` (JSON ``[3, 5]``)."""
UnitPair: TypeAlias = tuple[str, str]
"""Two units' ids: ``(side A's, side B's)`` (or ``(charger, target)``)."""
Status: TypeAlias = Literal["formed", "disordered", "routing"]
Quality: TypeAlias = Literal["veteran", "experienced", "trained", "green", "raw", "unreliable"]
Ability: TypeAlias = Literal["grognards", "disciplined"]
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
PhaseName: TypeAlias = Literal[
    "setup",
    "skirmisher_superiority",
    "artillery_effectiveness",
    "firing",
    "orders",
    "fire_at_chargers",
    "combat",
    "move_officers",
    "rally",
    "turn_ends",
]
OrderKind: TypeAlias = Literal["advance", "retire", "deploy", "manoeuvre"]

class Value:
    """A value inside a Huzzah! event or pending decision (base class of :class:`Point`,
    :class:`Shape`, :class:`FactorTest`, :class:`Modifier`, :class:`Phase`,
    :class:`Group` and :class:`Outcome`). Attributes are the JSON fields, typed in turn;
    ``to_dict()`` is the JSON form; values are equal when their fields are, and hashable.
    A constructor takes the JSON fields as keyword arguments."""

    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def fields(self) -> list[str]: ...
    def __getattr__(self, name: str) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Point(Value):
    """A point on the table, in millimetres: ``x`` along side A's edge, ``y`` away from
    it (JSON ``{"x": 900, "y": 30.5}``)."""

    x: float
    y: float
    def __init__(self, *, x: float, y: float) -> None: ...

class Shape(Value):
    """A unit's geometry: its ``anchor`` (the centre of the front edge of the front rank),
    ``facing`` (degrees clockwise from +y), bases per rank (front first), the side of a
    base in millimetres and whether it is in ``square``."""

    anchor: Point
    facing: int
    ranks: list[int]
    base_mm: float
    square: bool
    def __init__(
        self, *, anchor: Point, facing: int, ranks: list[int], base_mm: float, square: bool
    ) -> None: ...

class Modifier(Value):
    """One term of a modified factor: the rule's wording and the change."""

    why: str
    by: int
    def __init__(self, *, why: str, by: int) -> None: ...

class FactorTest(Value):
    """A roll against a factor: the unmodified ``base``, the ``modifiers``, the
    ``factor`` used (clamped where the rule clamps it), the ``dice`` and the result."""

    base: int
    modifiers: list[Modifier]
    factor: int
    dice: Dice
    passed: bool
    def __init__(
        self, *, base: int, modifiers: list[Modifier], factor: int, dice: Dice, passed: bool
    ) -> None: ...

class Phase(Value):
    """A phase: its name (``phase``) and, for the phases of one player, its ``side``
    (``None`` for the others)."""

    phase: PhaseName
    side: SideName | None
    def __init__(self, *, phase: PhaseName, side: SideName | None = None) -> None: ...

class Group(Value):
    """The group an order names, by id: exactly one of ``unit``, ``division`` and
    ``corps`` is set (JSON ``{"division": "fr-div"}``)."""

    unit: str | None
    division: str | None
    corps: str | None
    def __init__(
        self, *, unit: str | None = None, division: str | None = None, corps: str | None = None
    ) -> None: ...

class Outcome(Value):
    """How the battle ended."""

    winner: SideName | None
    reason: str
    def __init__(self, *, winner: SideName | None, reason: str) -> None: ...

class Event:
    """Something that happened in a Huzzah! battle. Attributes are the JSON fields, the
    values inside typed (an optional field the JSON leaves out reads ``None``);
    ``to_dict()`` is the JSON form."""

    @staticmethod
    def from_dict(data: dict[str, Any] | str) -> Event: ...
    @property
    def type(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def fields(self) -> list[str]: ...
    def redacted_for(self, side: str | SupportsIndex) -> Event: ...
    def __getattr__(self, name: str) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class RolledOff(Event):
    a: Dice
    b: Dice
    first: SideName | None

class FirstDecided(Event):
    side: SideName
    by: str

class PlacementRolled(Event):
    side: SideName
    dice: Dice
    min: int
    max: int

class UnitPlaced(Event):
    unit: str

class PlacementEnded(Event):
    side: SideName

class PlayersDecided(Event):
    player1: SideName

class OfficersToPlace(Event):
    pass

class OfficerPlaced(Event):
    officer: str
    at: Point

class TurnStarted(Event):
    turn: int
    ground: Literal["normal", "soft", "hard"]
    weather: Literal["fair", "foul"]

class InCombat(Event):
    pairs: list[UnitPair]

class PhaseStarted(Event):
    phase: Phase

class SkirmishTested(Event):
    side: SideName
    test: FactorTest

class SkirmishFactorReduced(Event):
    side: SideName
    to: int

class SkirmisherWar(Event):
    winner: SideName | None

class ArtilleryTested(Event):
    side: SideName
    test: FactorTest

class ArtilleryFactorReduced(Event):
    side: SideName
    to: int

class FireDeclared(Event):
    unit: str
    target: str
    range_mm: float
    short: bool
    bases: list[int] | None
    """The bases that fire when fewer than the unit's (page 12); ``None`` when all do."""

class FireHeld(Event):
    unit: str

class QualityDetermined(Event):
    unit: str
    rolls: list[Dice]
    quality: Quality
    gained: list[Ability]

class FireResolved(Event):
    unit: str
    target: str
    bases: int
    test: FactorTest
    hits: int

class HitsApplied(Event):
    unit: str
    hits: int

class BaseRemoved(Event):
    unit: str
    rank: int
    kind: BaseKind
    hits: int
    shape: Shape

class AbilityLost(Event):
    unit: str
    ability: str

class RemovalDone(Event):
    unit: str
    odd_hits: int

class UnitDestroyed(Event):
    unit: str

class OfficerSave(Event):
    officer: str
    needs: int
    dice: Dice | None
    survived: bool
    charmed: bool

class OfficerKilled(Event):
    officer: str
    unit: str

class MoraleTested(Event):
    unit: str
    test: FactorTest

class AbilityGained(Event):
    unit: str
    ability: Ability

class QualityImproved(Event):
    unit: str
    to: Quality

class StatusChanged(Event):
    unit: str
    status: Status
    why: str

class UnitMoved(Event):
    unit: str
    shape: Shape
    sector: str | None
    distance_mm: float
    why: str

class ExtraHit(Event):
    unit: str
    why: str

class PassedThrough(Event):
    unit: str
    by: str

class ToRoutTable(Event):
    unit: str

class UnitCaptured(Event):
    unit: str

class TargetResolved(Event):
    unit: str

class OddHitsRemoved(Event):
    units: list[str]

class TurnEnded(Event):
    turn: int

class OrderGiven(Event):
    officer: str
    group: Group
    order: OrderKind
    units: list[str]
    test: FactorTest | None
    automatic: bool
    huzzah: bool
    rate_mm: float

class OrdersEnded(Event):
    side: SideName
    why: str

class Acted(Event):
    unit: str

class OrderDone(Event):
    pass

class Charged(Event):
    unit: str
    target: str
    face: Literal["front", "right", "rear", "left"]

class ImpulsiveCharges(Event):
    side: SideName
    charges: list[UnitPair]

class UnitDeployed(Event):
    unit: str
    shape: Shape
    column: bool

class WaverTested(Event):
    unit: str
    test: FactorTest

class OfficerMoved(Event):
    officer: str
    at: Point
    attached: str | None
    why: str

class OfficerCaptured(Event):
    officer: str
    by: str

class MeleeResolved(Event):
    a: str
    b: str
    winner: SideName | None
    hits: tuple[int, int]
    """Hits on side A's unit and on side B's."""
    tests: tuple[FactorTest, FactorTest] | None
    stand_in: bool

class RallyDecided(Event):
    unit: str
    to: Status
    test: FactorTest | None
    stand_in: bool

class SkirmishersDeployed(Event):
    unit: str
    bases: int
    shape: Shape | None
    """The unit afterwards; ``None`` when every base went into the skirmish line."""
    line: int

class OfficerRemoved(Event):
    officer: str
    why: str

class BatteryJoined(Event):
    unit: str
    battery: str
    left: bool
    shape: Shape
    quality: Quality | None
    grognards: bool
    disciplined: bool

class Engaged(Event):
    a: str
    b: str
    why: str

class LinesPassed(Event):
    unit: str
    with_: str
    """The JSON field ``with`` (a Python keyword)."""

class OfficerAppointed(Event):
    officer: str
    quality: Literal["excellent", "skilful", "average", "poor", "abysmal"]
    inspirational: bool
    at: Point
    stand_in: bool

class Awaiting(Event):
    decision: Pending
    """The decision, typed (a class of :mod:`fm.huzzah.pending`)."""

class GameEnded(Event):
    outcome: Outcome

__all__ = [
    "Event",
    "Value",
    "FactorTest",
    "Group",
    "Modifier",
    "Outcome",
    "Phase",
    "Point",
    "Shape",
    "RolledOff",
    "FirstDecided",
    "PlacementRolled",
    "UnitPlaced",
    "PlacementEnded",
    "PlayersDecided",
    "OfficersToPlace",
    "OfficerPlaced",
    "TurnStarted",
    "InCombat",
    "PhaseStarted",
    "SkirmishTested",
    "SkirmishFactorReduced",
    "SkirmisherWar",
    "ArtilleryTested",
    "ArtilleryFactorReduced",
    "FireDeclared",
    "FireHeld",
    "QualityDetermined",
    "FireResolved",
    "HitsApplied",
    "BaseRemoved",
    "AbilityLost",
    "RemovalDone",
    "UnitDestroyed",
    "OfficerSave",
    "OfficerKilled",
    "MoraleTested",
    "AbilityGained",
    "QualityImproved",
    "StatusChanged",
    "UnitMoved",
    "ExtraHit",
    "PassedThrough",
    "ToRoutTable",
    "UnitCaptured",
    "TargetResolved",
    "OddHitsRemoved",
    "TurnEnded",
    "OrderGiven",
    "OrdersEnded",
    "Acted",
    "OrderDone",
    "Charged",
    "ImpulsiveCharges",
    "UnitDeployed",
    "WaverTested",
    "OfficerMoved",
    "OfficerCaptured",
    "MeleeResolved",
    "RallyDecided",
    "SkirmishersDeployed",
    "OfficerRemoved",
    "BatteryJoined",
    "Engaged",
    "LinesPassed",
    "OfficerAppointed",
    "Awaiting",
    "GameEnded",
]
