"""Huzzah! Glorious Empires, typed: one command class per command ``type`` of the
system's JSON form, all subclasses of :class:`Command`; the pending decision
(:class:`Pending`, one subclass a kind in :mod:`fm.huzzah.pending`) and log entries
(:class:`LogEntry`); the event classes, and the values inside events, are in
:mod:`fm.huzzah.events`. Everything names units and officers by their scenario ids and
gives lengths in millimetres.

A match of a Huzzah! scenario (``fm.Match("huzzah-encounter")``) returns these from
``legal_commands()``, ``apply()``, ``pending``, ``log`` and the other generic methods,
and takes them (or dicts, or JSON text) in ``apply()``. Constructors take the JSON
fields as keyword arguments:

>>> import fm
>>> fm.huzzah.Fire(unit="fr-1", target="br-1")
Fire(unit='fr-1', target='br-1')
>>> fm.huzzah.Command.from_dict({"type": "end_phase"})
EndPhase()

A command the engine has and these bindings have no class for yet comes back as the
base class :class:`Command` (``type`` and the fields work as for any other).
"""

from __future__ import annotations

from fm import _field_docs, _fields
from fm._fm import huzzah as _hz
from fm.huzzah import events, pending
from fm.huzzah.events import Event

Command = _hz.Command
Pending = _hz.Pending
LogEntry = _hz.LogEntry

# Each class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_hz, _field_docs.HUZZAH_COMMANDS)

PlaceUnit = _hz.PlaceUnit
EndPlacement = _hz.EndPlacement
PlaceOfficer = _hz.PlaceOfficer
Fire = _hz.Fire
HoldFire = _hz.HoldFire
RemoveBase = _hz.RemoveBase
Order = _hz.Order
Advance = _hz.Advance
Charge = _hz.Charge
Deploy = _hz.Deploy
Retire = _hz.Retire
MeleeResult = _hz.MeleeResult
Rally = _hz.Rally
MoveOfficer = _hz.MoveOfficer
SkirmishLine = _hz.SkirmishLine
JoinBattery = _hz.JoinBattery
EnterSector = _hz.EnterSector
LeaveSector = _hz.LeaveSector
AdvanceSector = _hz.AdvanceSector
PassageOfLines = _hz.PassageOfLines
Manoeuvre = _hz.Manoeuvre
Appoint = _hz.Appoint
EndOrder = _hz.EndOrder
EndPhase = _hz.EndPhase

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
    "SkirmishLine",
    "JoinBattery",
    "EnterSector",
    "LeaveSector",
    "AdvanceSector",
    "PassageOfLines",
    "Manoeuvre",
    "Appoint",
    "EndOrder",
    "EndPhase",
]
