"""Type stubs of fm.events: one class per event type of the JSON protocol."""

from typing import Any, Literal, NotRequired, SupportsIndex, TypeAlias, TypedDict

SideName: TypeAlias = Literal["a", "b"]

class FirePlacement(TypedDict):
    """A marker of ``FireSupportRevealed.markers`` (Suez 1916 18.1); ``air`` is present
    (``True``) only for the air unit."""

    side: SideName
    hex: str
    value: int | None
    air: NotRequired[bool]

class Event:
    """Something that happened. Attributes are the JSON fields (``from`` also as
    ``from_``); ``to_dict()`` is the documented JSON form."""

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

class TurnStarted(Event):
    turn: int

class SupportAllotted(Event):
    side: SideName
    count: int
    values: list[int] | None

class PhaseStarted(Event):
    side: SideName
    phase: str

class UnitPlaced(Event):
    unit: str
    hex: str

class ReinforcementsArrived(Event):
    side: SideName
    units: list[str]

class UnitMoved(Event):
    unit: str
    from_: str | None
    path: list[str]
    mp: str
    to: str
    """The hex the unit ended its move in: ``path[-1]`` (derived; not a key of the JSON
    form)."""

class BombardmentDeclared(Event):
    hex: str
    defenders: list[str]
    markers: int

class AttackDeclared(Event):
    hex: str
    defenders: list[str]
    attackers: list[str]

class SupportCommitted(Event):
    side: SideName
    step: int | None
    value: int | None

class SupportPassed(Event):
    side: SideName
    step: int

class SupportRevealed(Event):
    attacker: list[int]
    defender: list[int]

class CombatResolved(Event):
    kind: str
    attack: int
    defense: int
    differential: int
    line: str
    column: str
    die: int
    result: str
    applies: bool
    shift: int
    """Columns shifted after reading the differential (Suez 1916 13.1, 15.1, 19.0);
    0 when the JSON leaves it out."""

class StepLost(Event):
    unit: str
    steps: int

class UnitEliminated(Event):
    unit: str

class LossRequired(Event):
    side: SideName
    candidates: list[str]
    reason: str

class RetreatRequired(Event):
    side: SideName
    units: list[str]
    hexes: int

class StiffResistance(Event):
    unit: str
    held: list[str]
    """Suez 1916 CRT key: the other units whose retreat this one step also satisfies
    (empty under the other rules)."""

class UnitDisplaced(Event):
    unit: str
    from_: str
    to: str

class UnitRetreated(Event):
    unit: str
    from_: str
    path: list[str]

class AdvanceOffered(Event):
    path: list[str]
    units: list[str]

class UnitAdvanced(Event):
    unit: str
    from_: str
    path: list[str]

class CombatEnded(Event):
    hex: str

class ArtilleryAllotted(Event):
    side: SideName
    count: int

class AircraftPlaced(Event):
    hex: str

class ArtilleryFiring(Event):
    hex: str
    defenders: list[str]
    markers: int
    gas: bool

class ArtilleryDeclared(Event):
    hex: str
    defenders: list[str]
    markers: int
    gas: bool

class ArtilleryFired(Event):
    hex: str
    die: int
    modifier: int
    total: int
    hit: bool

class HexBreached(Event):
    hex: str

class ArtilleryRetreatOffered(Event):
    unit: str
    hits: int
    stacked: list[str]
    """Meuse Argonne 13.2: the other brigades of the stack ``unit`` names (empty for a
    lone unit)."""

class LostBattalionOffered(Event):
    pass

class LostBattalionDeclared(Event):
    declared: bool

class ReplacementsReceived(Event):
    side: SideName
    count: int

class AircraftLost(Event):
    remaining: int

class ReplacementAvailable(Event):
    side: SideName

class UnitReplaced(Event):
    unit: str
    hex: str
    steps: int

class UnitRebuilt(Event):
    unit: str
    steps: int

class DivisionBrokenDown(Event):
    unit: str
    hex: str | None
    """``None`` for a reinforcement broken down before it entered (its brigades arrive in
    its place)."""
    brigades: list[str]

class BrigadePlaced(Event):
    unit: str
    hex: str

class UnitsInactive(Event):
    units: list[str]

class ActivationRolled(Event):
    unit: str
    die: int
    activated: bool

class UnitActivated(Event):
    unit: str

class FireSupportAdded(Event):
    side: SideName
    count: int
    values: list[int] | None

class FireSupportReturned(Event):
    side: SideName
    values: list[int]

class ReinforcementRolled(Event):
    die: int
    regiment: str | None

class KressAssigned(Event):
    hex: str

class RailMovement(Event):
    unit: str

class FireSupportPlanning(Event):
    side: SideName

class FireSupportPlaced(Event):
    side: SideName
    hex: str
    value: int | None

class AirUnitPlaced(Event):
    hex: str
    observe: bool
    strength: int

class AttackAnnounced(Event):
    hex: str
    units: list[str]

class FireSupportRevealed(Event):
    markers: list[FirePlacement]

class FireSupportResolved(Event):
    side: SideName
    hex: str
    unit: str
    strength: int
    line: str
    column: str
    die: int
    result: str
    hit: bool

class AttackCancelled(Event):
    hex: str

class GameOver(Event):
    winner: SideName | None
    reason: str
