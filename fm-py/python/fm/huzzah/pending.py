"""Huzzah! pending decisions: one class per decision ``kind`` of the system's JSON form,
all subclasses of :class:`fm.huzzah.Pending`. A huzzah match's ``pending`` (and an
``awaiting`` event's ``decision``) is one of them; use ``isinstance`` or ``p.kind``.
Units are named by their scenario ids."""

from __future__ import annotations

from fm import _field_docs, _fields
from fm._fm import huzzah as _hz

_p = _hz.pending
# Each class's fields as documented properties (help(), inspect, Jupyter).
_fields.install(_p, _field_docs.HUZZAH_PENDING)

Pending = _hz.Pending
PlaceUnits = _p.PlaceUnits
PlaceOfficer = _p.PlaceOfficer
DeclareFire = _p.DeclareFire
RemoveBase = _p.RemoveBase
FireAtCharger = _p.FireAtCharger
Orders = _p.Orders
Act = _p.Act
Melee = _p.Melee
Rally = _p.Rally
MoveOfficers = _p.MoveOfficers
Opening = _p.Opening
GameOver = _p.GameOver

__all__ = [
    "Pending",
    "PlaceUnits",
    "PlaceOfficer",
    "DeclareFire",
    "RemoveBase",
    "FireAtCharger",
    "Orders",
    "Act",
    "Melee",
    "Rally",
    "MoveOfficers",
    "Opening",
    "GameOver",
]
