"""Huzzah! event classes: one per event ``type`` of the system's JSON form, all
subclasses of :class:`Event`. A huzzah match's ``apply()`` returns them; use
``isinstance`` or ``e.type``. Attributes are the JSON fields: units and officers by their
index in the scenario (side A's first), lengths and positions in tenths of a millimetre.
An event these bindings have no class for yet comes back as the base class."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from fm import _field_docs, _fields
from fm._fm import huzzah as _hz


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
    dice: list[int]
    passed: bool


class Phase(TypedDict):
    """A phase: ``{"phase": "firing", "side": "a"}``; ``side`` only for the phases of
    one player."""

    phase: str
    side: NotRequired[Literal["a", "b"]]


class Sector(TypedDict):
    """A sector of dense terrain: the piece's index and the sector's index in it."""

    terrain: int
    sector: int


class Outcome(TypedDict):
    """How the battle ended."""

    winner: Literal["a", "b"] | None
    reason: str

_ev = _hz.events
# Each class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_ev, _field_docs.HUZZAH_EVENTS)

Event = _ev.Event
RolledOff = _ev.RolledOff
FirstDecided = _ev.FirstDecided
PlacementRolled = _ev.PlacementRolled
UnitPlaced = _ev.UnitPlaced
PlacementEnded = _ev.PlacementEnded
PlayersDecided = _ev.PlayersDecided
OfficersToPlace = _ev.OfficersToPlace
OfficerPlaced = _ev.OfficerPlaced
TurnStarted = _ev.TurnStarted
InCombat = _ev.InCombat
PhaseStarted = _ev.PhaseStarted
SkirmishTested = _ev.SkirmishTested
SkirmishFactorReduced = _ev.SkirmishFactorReduced
SkirmisherWar = _ev.SkirmisherWar
ArtilleryTested = _ev.ArtilleryTested
ArtilleryFactorReduced = _ev.ArtilleryFactorReduced
FireDeclared = _ev.FireDeclared
FireHeld = _ev.FireHeld
QualityDetermined = _ev.QualityDetermined
FireResolved = _ev.FireResolved
HitsApplied = _ev.HitsApplied
BaseRemoved = _ev.BaseRemoved
AbilityLost = _ev.AbilityLost
RemovalDone = _ev.RemovalDone
UnitDestroyed = _ev.UnitDestroyed
OfficerSave = _ev.OfficerSave
OfficerKilled = _ev.OfficerKilled
MoraleTested = _ev.MoraleTested
AbilityGained = _ev.AbilityGained
QualityImproved = _ev.QualityImproved
StatusChanged = _ev.StatusChanged
UnitMoved = _ev.UnitMoved
ExtraHit = _ev.ExtraHit
PassedThrough = _ev.PassedThrough
ToRoutTable = _ev.ToRoutTable
UnitCaptured = _ev.UnitCaptured
TargetResolved = _ev.TargetResolved
OddHitsRemoved = _ev.OddHitsRemoved
TurnEnded = _ev.TurnEnded
OrderGiven = _ev.OrderGiven
OrdersEnded = _ev.OrdersEnded
Acted = _ev.Acted
OrderDone = _ev.OrderDone
Charged = _ev.Charged
ImpulsiveCharges = _ev.ImpulsiveCharges
UnitDeployed = _ev.UnitDeployed
WaverTested = _ev.WaverTested
OfficerMoved = _ev.OfficerMoved
OfficerCaptured = _ev.OfficerCaptured
MeleeResolved = _ev.MeleeResolved
RallyDecided = _ev.RallyDecided
SkirmishersDeployed = _ev.SkirmishersDeployed
OfficerRemoved = _ev.OfficerRemoved
BatteryJoined = _ev.BatteryJoined
Engaged = _ev.Engaged
LinesPassed = _ev.LinesPassed
OfficerAppointed = _ev.OfficerAppointed
Awaiting = _ev.Awaiting
GameEnded = _ev.GameEnded

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
