"""Type stubs of fm.huzzah.events: one class per Huzzah! event type. Units and officers
are their indices in the scenario (side A's first); lengths and positions are tenths of
a millimetre."""

from typing import Any, Literal, NotRequired, SupportsIndex, TypeAlias, TypedDict

SideName: TypeAlias = Literal["a", "b"]
Dice: TypeAlias = list[int]
"""Two dice as rolled: ``[3, 5]``."""
UnitPair: TypeAlias = list[int]
"""Two unit indices: ``[side A's, side B's]`` (or ``[charger, target]``)."""

class Point(TypedDict):
    """A point on the table, in tenths of a millimetre: ``x`` along side A's edge, ``y``
    away from it."""

    x: int
    y: int

class Shape(TypedDict):
    """A unit's geometry: the ``anchor`` (centre of the front edge of the front rank),
    ``facing`` (degrees clockwise from +y), bases per rank (front first), the ``base``
    side (tenths of a millimetre) and whether it is in ``square``."""

    anchor: Point
    facing: int
    ranks: list[int]
    base: int
    square: bool

class Modifier(TypedDict):
    """One term of a modified factor: the rule's wording and the change."""

    why: str
    by: int

class FactorTest(TypedDict):
    """A roll against a factor: the unmodified ``base``, the ``modifiers``, the
    ``factor`` used (clamped where the rule clamps it), the ``dice`` and the result."""

    base: int
    modifiers: list[Modifier]
    factor: int
    dice: Dice
    passed: bool

class Phase(TypedDict):
    """A phase: ``{"phase": "firing", "side": "a"}``; ``side`` only for the phases of
    one player."""

    phase: str
    side: NotRequired[SideName]

class Sector(TypedDict):
    """A sector of dense terrain: the piece's index and the sector's index in it."""

    terrain: int
    sector: int

class Outcome(TypedDict):
    """How the battle ended."""

    winner: SideName | None
    reason: str

class Event:
    """Something that happened in a Huzzah! battle. Attributes are the JSON fields (an
    optional field the JSON leaves out reads ``None``); ``to_dict()`` is the JSON form."""

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
    unit: int

class PlacementEnded(Event):
    side: SideName

class PlayersDecided(Event):
    player1: SideName

class OfficersToPlace(Event):
    pass

class OfficerPlaced(Event):
    officer: int
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
    unit: int
    target: int
    range: int
    short: bool
    bases: list[int] | None
    """The bases that fire when fewer than the unit's (page 12); ``None`` when all do."""

class FireHeld(Event):
    unit: int

class QualityDetermined(Event):
    unit: int
    rolls: list[Dice]
    quality: str
    gained: list[Literal["grognards", "disciplined"]]

class FireResolved(Event):
    unit: int
    target: int
    bases: int
    test: FactorTest
    hits: int

class HitsApplied(Event):
    unit: int
    hits: int

class BaseRemoved(Event):
    unit: int
    rank: int
    kind: str
    hits: int
    shape: Shape

class AbilityLost(Event):
    unit: int
    ability: str

class RemovalDone(Event):
    unit: int
    odd_hits: int

class UnitDestroyed(Event):
    unit: int

class OfficerSave(Event):
    officer: int
    needs: int
    dice: Dice | None
    survived: bool
    charmed: bool

class OfficerKilled(Event):
    officer: int
    unit: int

class MoraleTested(Event):
    unit: int
    test: FactorTest

class AbilityGained(Event):
    unit: int
    ability: Literal["grognards", "disciplined"]

class QualityImproved(Event):
    unit: int
    to: str

class StatusChanged(Event):
    unit: int
    status: Literal["formed", "disordered", "routing"]
    why: str

class UnitMoved(Event):
    unit: int
    shape: Shape
    sector: Sector | None
    distance: int
    why: str

class ExtraHit(Event):
    unit: int
    why: str

class PassedThrough(Event):
    unit: int
    by: int

class ToRoutTable(Event):
    unit: int

class UnitCaptured(Event):
    unit: int

class TargetResolved(Event):
    unit: int

class OddHitsRemoved(Event):
    units: list[int]

class TurnEnded(Event):
    turn: int

class OrderGiven(Event):
    officer: int
    group: dict[str, int]
    """``{"unit": i}``, ``{"division": i}`` or ``{"corps": i}``."""
    order: Literal["advance", "retire", "deploy", "manoeuvre"]
    units: list[int]
    test: FactorTest | None
    automatic: bool
    huzzah: bool
    rate: int

class OrdersEnded(Event):
    side: SideName
    why: str

class Acted(Event):
    unit: int

class OrderDone(Event):
    pass

class Charged(Event):
    unit: int
    target: int
    face: Literal["front", "right", "rear", "left"]

class ImpulsiveCharges(Event):
    side: SideName
    charges: list[UnitPair]

class UnitDeployed(Event):
    unit: int
    shape: Shape
    column: bool

class WaverTested(Event):
    unit: int
    test: FactorTest

class OfficerMoved(Event):
    officer: int
    at: Point
    attached: int | None
    why: str

class OfficerCaptured(Event):
    officer: int
    by: int

class MeleeResolved(Event):
    a: int
    b: int
    winner: SideName | None
    hits: list[int]
    """Hits on side A's unit and on side B's."""
    tests: list[FactorTest] | None
    stand_in: bool

class RallyDecided(Event):
    unit: int
    to: Literal["formed", "disordered", "routing"]
    test: FactorTest | None
    stand_in: bool

class SkirmishersDeployed(Event):
    unit: int
    bases: int
    shape: Shape | None
    """The unit afterwards; ``None`` when every base went into the skirmish line."""
    line: int

class OfficerRemoved(Event):
    officer: int
    why: str

class BatteryJoined(Event):
    unit: int
    battery: int
    left: bool
    shape: Shape
    quality: str | None
    grognards: bool
    disciplined: bool

class Engaged(Event):
    a: int
    b: int
    why: str

class LinesPassed(Event):
    unit: int
    with_: int
    """The JSON field ``with`` (a Python keyword)."""

class OfficerAppointed(Event):
    officer: int
    quality: Literal["excellent", "skilful", "average", "poor", "abysmal"]
    inspirational: bool
    at: Point
    stand_in: bool

class Awaiting(Event):
    decision: dict[str, Any]
    """The pending decision's JSON form (``Match.pending`` gives it typed)."""

class GameEnded(Event):
    outcome: Outcome

__all__ = [
    "Event",
    "FactorTest",
    "Modifier",
    "Outcome",
    "Phase",
    "Point",
    "Sector",
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
