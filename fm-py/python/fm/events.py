"""Event classes: one per event ``type`` of the JSON protocol, all subclasses of
:class:`Event`. ``Match.apply`` returns them; use ``isinstance`` or ``e.type``."""

from __future__ import annotations

from fm._fm import events as _ev

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
GameOver = _ev.GameOver

__all__ = [
    "Event",
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
    "GameOver",
]
