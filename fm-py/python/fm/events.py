"""Event classes: one per event ``type`` of the JSON protocol, all subclasses of
:class:`Event`. ``Match.apply`` returns them; use ``isinstance`` or ``e.type``."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from fm import _field_docs, _fields
from fm._fm import events as _ev

# Each class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_ev, _field_docs.FM_EVENTS)


class FirePlacement(TypedDict):
    """A marker of ``FireSupportRevealed.markers`` (Suez 1916 18.1); ``air`` is present
    (``True``) only for the air unit."""

    side: Literal["a", "b"]
    hex: str
    value: int | None
    air: NotRequired[bool]


Event = _ev.Event
TurnStarted = _ev.TurnStarted
SupportAllotted = _ev.SupportAllotted
PhaseStarted = _ev.PhaseStarted
UnitPlaced = _ev.UnitPlaced
ReinforcementsArrived = _ev.ReinforcementsArrived
UnitMoved = _ev.UnitMoved
BombardmentDeclared = _ev.BombardmentDeclared
AttackDeclared = _ev.AttackDeclared
SupportCommitted = _ev.SupportCommitted
SupportPassed = _ev.SupportPassed
SupportRevealed = _ev.SupportRevealed
CombatResolved = _ev.CombatResolved
StepLost = _ev.StepLost
UnitEliminated = _ev.UnitEliminated
LossRequired = _ev.LossRequired
RetreatRequired = _ev.RetreatRequired
StiffResistance = _ev.StiffResistance
UnitDisplaced = _ev.UnitDisplaced
UnitRetreated = _ev.UnitRetreated
AdvanceOffered = _ev.AdvanceOffered
UnitAdvanced = _ev.UnitAdvanced
CombatEnded = _ev.CombatEnded
ArtilleryAllotted = _ev.ArtilleryAllotted
AircraftPlaced = _ev.AircraftPlaced
ArtilleryFiring = _ev.ArtilleryFiring
ArtilleryDeclared = _ev.ArtilleryDeclared
ArtilleryFired = _ev.ArtilleryFired
HexBreached = _ev.HexBreached
ArtilleryRetreatOffered = _ev.ArtilleryRetreatOffered
LostBattalionOffered = _ev.LostBattalionOffered
LostBattalionDeclared = _ev.LostBattalionDeclared
ReplacementsReceived = _ev.ReplacementsReceived
AircraftLost = _ev.AircraftLost
ReplacementAvailable = _ev.ReplacementAvailable
UnitReplaced = _ev.UnitReplaced
UnitRebuilt = _ev.UnitRebuilt
DivisionBrokenDown = _ev.DivisionBrokenDown
BrigadePlaced = _ev.BrigadePlaced
UnitsInactive = _ev.UnitsInactive
ActivationRolled = _ev.ActivationRolled
UnitActivated = _ev.UnitActivated
FireSupportAdded = _ev.FireSupportAdded
FireSupportReturned = _ev.FireSupportReturned
ReinforcementRolled = _ev.ReinforcementRolled
KressAssigned = _ev.KressAssigned
RailMovement = _ev.RailMovement
FireSupportPlanning = _ev.FireSupportPlanning
FireSupportPlaced = _ev.FireSupportPlaced
AirUnitPlaced = _ev.AirUnitPlaced
AttackAnnounced = _ev.AttackAnnounced
FireSupportRevealed = _ev.FireSupportRevealed
FireSupportResolved = _ev.FireSupportResolved
AttackCancelled = _ev.AttackCancelled
GameOver = _ev.GameOver

__all__ = [
    "Event",
    "FirePlacement",
    "TurnStarted",
    "SupportAllotted",
    "PhaseStarted",
    "UnitPlaced",
    "ReinforcementsArrived",
    "UnitMoved",
    "BombardmentDeclared",
    "AttackDeclared",
    "SupportCommitted",
    "SupportPassed",
    "SupportRevealed",
    "CombatResolved",
    "StepLost",
    "UnitEliminated",
    "LossRequired",
    "RetreatRequired",
    "StiffResistance",
    "UnitDisplaced",
    "UnitRetreated",
    "AdvanceOffered",
    "UnitAdvanced",
    "CombatEnded",
    "ArtilleryAllotted",
    "AircraftPlaced",
    "ArtilleryFiring",
    "ArtilleryDeclared",
    "ArtilleryFired",
    "HexBreached",
    "ArtilleryRetreatOffered",
    "LostBattalionOffered",
    "LostBattalionDeclared",
    "ReplacementsReceived",
    "AircraftLost",
    "ReplacementAvailable",
    "UnitReplaced",
    "UnitRebuilt",
    "DivisionBrokenDown",
    "BrigadePlaced",
    "UnitsInactive",
    "ActivationRolled",
    "UnitActivated",
    "FireSupportAdded",
    "FireSupportReturned",
    "ReinforcementRolled",
    "KressAssigned",
    "RailMovement",
    "FireSupportPlanning",
    "FireSupportPlaced",
    "AirUnitPlaced",
    "AttackAnnounced",
    "FireSupportRevealed",
    "FireSupportResolved",
    "AttackCancelled",
    "GameOver",
]
