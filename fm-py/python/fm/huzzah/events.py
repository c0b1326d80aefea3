"""Huzzah! event classes: one per event ``type`` of the system's JSON form, all
subclasses of :class:`Event`. A huzzah match's ``apply()`` returns them; use
``isinstance`` or ``e.type``. Attributes are the JSON fields: units and officers by their
scenario ids, lengths and positions in millimetres; the values inside are typed
(:class:`Point`, :class:`Shape`, :class:`FactorTest` and its :class:`Modifier`,
:class:`Phase`, :class:`Group`, :class:`Outcome`, subclasses of :class:`Value`; pairs
and dice as tuples; an ``awaiting`` event's decision a :class:`fm.huzzah.Pending`). An
event these bindings have no class for yet comes back as the base class.

>>> import fm.huzzah.events as hev
>>> p = hev.Point(x=90, y=30.5)
>>> p
Point(x=90, y=30.5)
>>> p.to_dict()
{'x': 90, 'y': 30.5}
"""

from __future__ import annotations

from fm import _field_docs, _fields
from fm._fm import huzzah as _hz


_ev = _hz.events
# Each class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_ev, _field_docs.HUZZAH_EVENTS)
_fields.install(_ev, _field_docs.HUZZAH_VALUES)

Value = _ev.Value
Point = _ev.Point
Shape = _ev.Shape
FactorTest = _ev.FactorTest
Modifier = _ev.Modifier
Phase = _ev.Phase
Group = _ev.Group
Outcome = _ev.Outcome

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
