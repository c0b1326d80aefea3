"""Type stubs of fm.huzzah.pending: one class per kind of Huzzah! pending decision, all
subclasses of :class:`fm.huzzah.Pending`. Units are named by their scenario ids."""

from typing import Literal, TypeAlias

from fm.huzzah import Pending as Pending

SideName: TypeAlias = Literal["a", "b"]
OrderKind: TypeAlias = Literal["advance", "retire", "deploy", "manoeuvre"]

class PlaceUnits(Pending):
    """``place_units``: place from ``min`` to ``max`` units on this placement roll
    (page 7); answered by ``place_unit`` and ``end_placement``."""

    side: SideName
    min: int
    max: int
    placed: int

class PlaceOfficer(Pending):
    """``place_officer``: place an officer (page 8); answered by ``place_officer``."""

    side: SideName

class DeclareFire(Pending):
    """``declare_fire``: declare a target, or hold fire, for each of ``units`` (page 11);
    answered by ``fire`` and ``hold_fire``."""

    side: SideName
    units: list[str]

class RemoveBase(Pending):
    """``remove_base``: the owner chooses which base ``unit`` loses (page 12); answered
    by ``remove_base``."""

    side: SideName
    unit: str
    hits: int

class FireAtCharger(Pending):
    """``fire_at_charger``: ``unit``, charged by several ``chargers``, chooses the one it
    fires at (page 13); answered by ``fire``."""

    side: SideName
    unit: str
    chargers: list[str]

class Orders(Pending):
    """``orders``: give an order or end the phase (pages 16-18); answered by ``order``,
    ``appoint`` and ``end_phase``."""

    side: SideName

class Act(Pending):
    """``act``: ``units`` act on the successful ``order``, one at a time (pages 19-22);
    answered by the order's actions and ``end_order``."""

    side: SideName
    order: OrderKind
    units: list[str]

class Melee(Pending):
    """``melee``: the melee of ``a`` (side A's unit) and ``b`` (side B's), the rules being
    missing; answered by ``melee_result``."""

    side: SideName
    a: str
    b: str

class Rally(Pending):
    """``rally``: which of ``units`` rally, the rules being missing; answered by ``rally``
    and ``end_phase``."""

    side: SideName
    units: list[str]

class MoveOfficers(Pending):
    """``move_officers``: move officers, the rules being missing; answered by
    ``move_officer`` and ``end_phase``."""

    side: SideName

class Opening(Pending):
    """``opening``: the battle has not opened; its opening rolls (page 7) wait for their
    chance outcomes (explicit chance mode only); nothing is accepted."""

class GameOver(Pending):
    """``game_over``: the battle is over; nothing is accepted."""

    winner: SideName | None

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
