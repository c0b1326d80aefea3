"""Matches between two agents: many seeded games of a scenario, played in this
process, in worker processes, or on a Ray cluster, with the same results everywhere.

>>> from fm import tournament
>>> r = tournament.run("system-demo", games=2, agent_a="mcts", agent_b="random",
...                    iterations=20, seed=7)
>>> [(g.game, g.seed, g.winner) for g in r.games]
[(0, 7, 'a'), (1, 8, 'a')]
>>> r.summary.wins
{'a': 2, 'b': 0, 'draw': 0}
>>> round(r.summary.win_rate["a"]["low"], 3)      # the 95% Wilson interval's bounds
0.342
>>> m = tournament.replay(r.games[0])              # the recorded commands, played again
>>> (m.winner, m.hash) == ("a", r.games[0].hash)
True

Agent ``agent_a`` plays side ``"a"`` (the scenario's first side) and ``agent_b`` side
``"b"``. An agent is ``"random"`` (the built-in random agent), ``"mcts"`` (the built-in
AI, ``Match.think``, with ``iterations``, ``time_budget`` and the other ``search``
settings), an :class:`AgentSpec` (settings of its own), an ``fm.agents.mcts`` or
``fm.agents.random`` object (its settings are used, its seed is not), or any callable
``agent(match) -> action index or command``, called on a copy of the match.

**Seeds.** Game ``i`` (from 0) is played on ``fm.Match(scenario, seed=seed + i)``; each
side's agent draws the seed of its ``k``-th decision of the game from the game's seed,
the side and ``k`` alone (SplitMix64). So the same ``seed`` gives the same games, and
the same records, on any backend and with any number of workers, the records always
in game order; only the CPU times and the ``worker`` field differ. A ``time_budget``
breaks this (how far a search gets in its time depends on the machine and its load),
and so may a callable agent of your own.

**Backends.** ``backend="local"``: ``jobs=1`` plays in this process, ``jobs > 1`` in that
many worker processes (``multiprocessing``, started with ``spawn``; a callable agent
must then be picklable, a module-level function). ``backend="ray"``: one Ray task a
game on the cluster at ``address`` (``ray.init(address=address)``: ``None`` starts a
Ray of this machine with ``jobs`` CPUs, or connects to the cluster ``RAY_ADDRESS``
names; ``"auto"`` finds a cluster started on this machine; ``"HOST:6379"`` a cluster's
head), at most ``jobs`` of them running at once if ``jobs`` is given (otherwise as many
as the cluster has CPUs). The games go to the nodes in proportion to their CPUs, each
next game to the node whose game ended first (nodes that join during the run are not
used; one that dies passes its games to the others). Every node must have the same fm installed (and Ray, with
``pip install "fm-py[ray]"``); ``import fm`` never imports Ray.

**Records.** Each game gives a :class:`GameRecord`: the game number, its seed, both
agents with their settings and seeds, the winner (``"a"``, ``"b"`` or ``"draw"``) and
the reason, the commands played (an action index, or the command's JSON where it has
no index: :func:`replay` plays them again), their number, each side's decisions, CPU
seconds (``time.process_time`` in the worker, around each agent's choices; the whole
game's as ``"game"``), its longest decision, the MCTS searches' iterations, and the
referee's state hash at the end. A game that reaches ``max_commands`` commands (none
by default: every built-in scenario's games end, ``fm.max_game_length``) stops there
and counts as a draw with ``truncated`` set. :class:`Summary` counts the wins, gives
each agent's win rate with its 95% Wilson score interval and the mean CPU seconds per
game and per decision.

From the shell (``--json``: one JSON line per game, then ``{"summary": ...}``)::

    python -m fm.tournament --scenario system-demo --games 20 --agent-a mcts \\
        --agent-b random --iterations 40 --jobs 2
    python -m fm.tournament --scenario huzzah-firefight --games 40 --backend ray \\
        --address HEAD:6379 --json --out games.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import multiprocessing
import operator
import os
import socket
import sys
import time
from dataclasses import dataclass, field
from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    TextIO,
    Tuple,
    Union,
)

import fm
from fm import agents as _agents

__all__ = [
    "AgentSpec",
    "GameRecord",
    "Results",
    "Summary",
    "main",
    "replay",
    "run",
    "summarize",
    "wilson",
]

_MASK = (1 << 64) - 1
SIDES = ("a", "b")
# The two-sided 95% normal quantile.
_Z95 = 1.959963984540054

CommandRecord = Union[int, Dict[str, Any]]
"""One played command: its action index, or its JSON where it has none."""

AgentCallable = Callable[[fm.Match], Any]
AgentLike = Union[str, "AgentSpec", _agents.Mcts, _agents.Random, AgentCallable]
"""What :func:`run` takes as an agent (see the module's documentation)."""


def _mix(seed: int, k: int) -> int:
    # SplitMix64's finaliser: distinct, well-mixed seeds (as fm.agents draws its own).
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _agent_seed(match_seed: int, side: str) -> int:
    """The seed of ``side``'s agent in the game of ``match_seed``."""
    return _mix(match_seed, SIDES.index(side))


# ----------------------------------------------------------------------- agents


@dataclass(frozen=True)
class AgentSpec:
    """A built-in agent and its settings: ``kind`` ``"random"`` or ``"mcts"``; for
    ``"mcts"``, ``iterations`` a decision, at most ``time_budget`` seconds a decision
    if given, and ``search``, the other settings of ``Match.think`` (``exploration``,
    ``rollout``, ``widening``, ``max_priors``)."""

    kind: str
    iterations: int = 200
    time_budget: Optional[float] = None
    search: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in ("random", "mcts"):
            raise ValueError(f"unknown agent {self.kind!r}: 'random' or 'mcts'")
        if self.kind == "mcts":
            it = self.iterations
            if not isinstance(it, int) or isinstance(it, bool) or it < 1:
                raise ValueError(f"iterations must be a positive integer, not {it!r}")
            tb = self.time_budget
            if tb is not None and not (isinstance(tb, (int, float)) and 0 < tb <= 86_400):
                raise ValueError(
                    f"time_budget must be a number of seconds in (0, 86400], not {tb!r}"
                )
            # fm.agents checks the settings' names (fm.ProtocolError for an unknown one).
            _agents.Mcts(iterations=it, time_budget=tb, **dict(self.search))

    def describe(self) -> Dict[str, Any]:
        """The agent and its settings, as in the records (without its seed)."""
        if self.kind == "random":
            return {"agent": "random"}
        return {
            "agent": "mcts",
            "iterations": self.iterations,
            "time_budget": self.time_budget,
            "search": dict(self.search),
        }

    def label(self) -> str:
        """A short name for tables: ``random``, ``mcts(40)``, ``mcts(2000, 0.5 s)``."""
        if self.kind == "random":
            return "random"
        budget = f", {self.time_budget:g} s" if self.time_budget is not None else ""
        return f"mcts({self.iterations}{budget})"


@dataclass(frozen=True)
class _Custom:
    """A callable agent of the caller's."""

    agent: AgentCallable
    name: str

    def describe(self) -> Dict[str, Any]:
        return {"agent": self.name}

    def label(self) -> str:
        return self.name


_Agent = Union[AgentSpec, _Custom]


def _resolve(
    agent: AgentLike,
    iterations: int,
    time_budget: Optional[float],
    search: Mapping[str, Any],
) -> _Agent:
    if isinstance(agent, str):
        if agent == "mcts":
            return AgentSpec("mcts", iterations, time_budget, dict(search))
        if agent == "random":
            return AgentSpec("random")
        raise ValueError(f"unknown agent {agent!r}: 'random', 'mcts', an AgentSpec or a callable")
    if isinstance(agent, AgentSpec):
        return agent
    # fm.agents' objects keep a decision counter: their settings, not the objects.
    if isinstance(agent, _agents.Mcts):
        return AgentSpec("mcts", agent.iterations, agent.time_budget, dict(agent.settings))
    if isinstance(agent, _agents.Random):
        return AgentSpec("random")
    if callable(agent):
        name = getattr(agent, "__qualname__", None) or type(agent).__name__
        return _Custom(agent, str(name))
    raise TypeError(f"an agent is 'random', 'mcts', an AgentSpec or a callable, not {agent!r}")


def _command_json(command: Any) -> Dict[str, Any]:
    """A command (typed, a dict or JSON text) as its JSON form."""
    if isinstance(command, str):
        value = json.loads(command)
        if not isinstance(value, dict):
            raise fm.ProtocolError(f"a command is a JSON object, not {command!r}")
        return value
    if isinstance(command, Mapping):
        return dict(command)
    to_dict = getattr(command, "to_dict", None)
    if callable(to_dict):
        return dict(to_dict())
    raise TypeError(f"an agent returns an action index or a command, not {command!r}")


def _last_command(m: fm.Match) -> Dict[str, Any]:
    entry: Any = m.log[-1]
    return _command_json(entry["command"] if isinstance(entry, dict) else entry.command)


class _Player:
    """One side's agent during one game: chooses commands without applying them."""

    def __init__(self, agent: _Agent, seed: int) -> None:
        self.agent = agent
        self.seed = seed
        self.decisions = 0
        self.searches = 0
        self.iterations = 0
        self.cut_short = 0

    def choose(self, m: fm.Match) -> CommandRecord:
        seed = _mix(self.seed, self.decisions)
        self.decisions += 1
        a = self.agent
        if isinstance(a, _Custom):
            return self._custom(m, a)
        if a.kind == "random":
            action = m.sample_legal_action(seed)
            if action is not None:
                return int(action)
            # A legal command without an action index (Huzzah!'s encoding does not yet
            # number every one): the same draw as a command, played on a copy.
            probe = m.clone()
            if probe.playout(max_commands=1, seed=seed) != 1:
                raise RuntimeError(
                    "the random agent found no legal command although the game is not over"
                )
            return _last_command(probe)
        r = m.think(
            iterations=a.iterations,
            seed=seed,
            time_budget=a.time_budget,
            max_candidates=1,
            **dict(a.search),
        )
        done = int(r["iterations"])
        if done > 0:  # a single legal command needs no search
            self.searches += 1
            self.iterations += done
            self.cut_short += int(done < a.iterations)
        index = r["index"]
        return int(index) if index is not None else _command_json(r["command"])

    @staticmethod
    def _custom(m: fm.Match, a: _Custom) -> CommandRecord:
        move = a.agent(m.clone())
        if isinstance(move, bool):
            raise TypeError(f"agent {a.name} returned a bool, not an action index or a command")
        if not isinstance(move, (str, Mapping)) and hasattr(move, "__index__"):
            return operator.index(move)  # an int, a numpy integer
        index = m.action_of(move)
        return int(index) if index is not None else _command_json(move)


def _apply(m: fm.Match, command: CommandRecord) -> None:
    if isinstance(command, int):
        m.apply_action(command)
    else:
        m.apply(command)


# ---------------------------------------------------------------------- records


@dataclass
class GameRecord:
    """One game of a tournament (see the module's documentation). ``agents[side]``:
    the agent's settings and its ``seed``; ``cpu_seconds``: per side and ``"game"``;
    ``max_decision_seconds``: each side's longest decision in CPU seconds; ``search``:
    an MCTS side's ``{"searches", "iterations", "cut_short"}`` (searches of more than
    one legal command; cut short by the time budget), ``None`` for another agent;
    ``worker``: where it was played (``host``, ``pid``, Ray's ``node`` id)."""

    game: int
    scenario: str
    seed: int
    agents: Dict[str, Dict[str, Any]]
    winner: str
    reason: Optional[str]
    truncated: bool
    commands: List[CommandRecord]
    length: int
    hash: int
    decisions: Dict[str, int]
    cpu_seconds: Dict[str, float]
    max_decision_seconds: Dict[str, float]
    search: Dict[str, Optional[Dict[str, int]]]
    worker: Dict[str, Any]

    # What differs between two runs of the same games: where and how fast.
    MACHINE_FIELDS = ("cpu_seconds", "max_decision_seconds", "worker")

    def to_dict(self) -> Dict[str, Any]:
        """The record as JSON-ready data (one line of ``--json``)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record of :meth:`to_dict`'s data (a line of ``--json``, parsed)."""
        names = [f.name for f in dataclasses.fields(cls)]
        return cls(**{n: data[n] for n in names})

    def outcome(self) -> Dict[str, Any]:
        """The record without what depends on the machine (CPU times, the worker):
        equal for the same games on any backend."""
        d = self.to_dict()
        for k in self.MACHINE_FIELDS:
            del d[k]
        return d


def wilson(wins: int, games: int, z: float = _Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games`` (95% with the default
    ``z``): ``(low, high)``; ``(0.0, 1.0)`` for no games."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


@dataclass
class Summary:
    """What a tournament's records add up to. ``wins``: ``"a"``, ``"b"`` and
    ``"draw"`` (truncated games among the draws, also counted in ``truncated``);
    ``win_rate[side]``: ``{"rate", "low", "high"}``, the 95% Wilson interval;
    ``cpu_seconds_per_game``: each side's mean over the games (and ``"game"``, whole
    games); ``cpu_seconds_per_decision``: each side's CPU seconds over its decisions;
    ``backend``, ``jobs``, ``wall_seconds`` and ``sides`` (the sides' names in the
    scenario) when it comes from :func:`run`."""

    scenario: str
    games: int
    seeds: Tuple[int, int]
    agents: Dict[str, Dict[str, Any]]
    wins: Dict[str, int]
    truncated: int
    win_rate: Dict[str, Dict[str, float]]
    mean_length: float
    decisions: Dict[str, int]
    cpu_seconds_per_game: Dict[str, float]
    cpu_seconds_per_decision: Dict[str, float]
    max_decision_seconds: Dict[str, float]
    search: Dict[str, Optional[Dict[str, int]]]
    backend: Optional[str] = None
    jobs: Optional[int] = None
    wall_seconds: Optional[float] = None
    sides: Optional[Dict[str, str]] = None

    def to_dict(self) -> Dict[str, Any]:
        return dataclasses.asdict(self)


def summarize(records: Sequence[GameRecord]) -> Summary:
    """The :class:`Summary` of some games' records (at least one)."""
    if not records:
        raise ValueError("no games to summarize")
    n = len(records)
    wins = {"a": 0, "b": 0, "draw": 0}
    for r in records:
        wins[r.winner] += 1
    rates = {}
    for side in SIDES:
        low, high = wilson(wins[side], n)
        rates[side] = {"rate": wins[side] / n, "low": low, "high": high}
    decisions = {s: sum(r.decisions[s] for r in records) for s in SIDES}
    cpu = {s: sum(r.cpu_seconds[s] for r in records) for s in (*SIDES, "game")}
    search: Dict[str, Optional[Dict[str, int]]] = {}
    for s in SIDES:
        parts = [r.search[s] for r in records if r.search[s] is not None]
        search[s] = (
            {
                k: sum(p[k] for p in parts if p is not None)
                for k in ("searches", "iterations", "cut_short")
            }
            if parts
            else None
        )
    agents = {s: {k: v for k, v in records[0].agents[s].items() if k != "seed"} for s in SIDES}
    return Summary(
        scenario=records[0].scenario,
        games=n,
        seeds=(min(r.seed for r in records), max(r.seed for r in records)),
        agents=agents,
        wins=wins,
        truncated=sum(r.truncated for r in records),
        win_rate=rates,
        mean_length=sum(r.length for r in records) / n,
        decisions=decisions,
        cpu_seconds_per_game={k: v / n for k, v in cpu.items()},
        cpu_seconds_per_decision={s: cpu[s] / decisions[s] if decisions[s] else 0.0 for s in SIDES},
        max_decision_seconds={s: max(r.max_decision_seconds[s] for r in records) for s in SIDES},
        search=search,
    )


@dataclass
class Results:
    """A tournament's records, in game order, and their :class:`Summary`."""

    games: List[GameRecord]
    summary: Summary

    def to_dict(self) -> Dict[str, Any]:
        return {"games": [g.to_dict() for g in self.games], "summary": self.summary.to_dict()}

    def table(self) -> str:
        """The summary as a readable table."""
        return _table(self.summary)


# ------------------------------------------------------------------------- play


@dataclass(frozen=True)
class _Task:
    game: int
    scenario: Union[str, Dict[str, Any]]
    scenario_name: str
    seed: int
    agents: Tuple[_Agent, _Agent]
    max_commands: Optional[int]


def _play(task: _Task) -> GameRecord:
    """Plays one game (in whichever process runs it)."""
    began = time.process_time()
    m = fm.Match(task.scenario, seed=task.seed)
    players = {s: _Player(a, _agent_seed(task.seed, s)) for s, a in zip(SIDES, task.agents)}
    cpu = {s: 0.0 for s in SIDES}
    longest = {s: 0.0 for s in SIDES}
    commands: List[CommandRecord] = []
    truncated = False
    while not m.is_over:
        if task.max_commands is not None and len(commands) >= task.max_commands:
            truncated = True
            break
        side = m.to_move
        if side is None:
            raise RuntimeError(f"game {task.game}: no side decides although the game is not over")
        t0 = time.process_time()
        command = players[side].choose(m)
        spent = time.process_time() - t0
        cpu[side] += spent
        longest[side] = max(longest[side], spent)
        try:
            _apply(m, command)
        except fm.RuleError as e:
            agent = players[side].agent.label()
            raise fm.RuleError(
                e.rule,
                f"game {task.game}, side {side} ({agent}): {command!r} was refused: {e.message}",
            ) from e
        commands.append(command)
    winner = "draw" if truncated or m.winner is None else str(m.winner)
    if truncated:
        reason: Optional[str] = f"truncated after {len(commands)} commands (max_commands)"
    else:
        result = m.result
        reason = result["reason"] if result is not None else None
    agents = {}
    for s, p in players.items():
        agents[s] = {**p.agent.describe(), "seed": p.seed}
    search: Dict[str, Optional[Dict[str, int]]] = {
        s: (
            {"searches": p.searches, "iterations": p.iterations, "cut_short": p.cut_short}
            if isinstance(p.agent, AgentSpec) and p.agent.kind == "mcts"
            else None
        )
        for s, p in players.items()
    }
    return GameRecord(
        game=task.game,
        scenario=task.scenario_name,
        seed=task.seed,
        agents=agents,
        winner=winner,
        reason=reason,
        truncated=truncated,
        commands=commands,
        length=len(commands),
        hash=m.hash,
        decisions={s: p.decisions for s, p in players.items()},
        cpu_seconds={**cpu, "game": time.process_time() - began},
        max_decision_seconds=longest,
        search=search,
        worker={"host": socket.gethostname(), "pid": os.getpid(), "node": None},
    )


def _play_on_ray(task: _Task) -> GameRecord:
    """:func:`_play` in a Ray task, its node recorded."""
    record = _play(task)
    ray: Any = importlib.import_module("ray")
    record.worker["node"] = ray.get_runtime_context().get_node_id()
    return record


def replay(record: GameRecord, scenario: Any = None) -> fm.Match:
    """A new match of the record's scenario (or ``scenario``: a path or data, for a
    tournament of a scenario file) and seed, with the recorded commands applied: the
    game as it ended (compare ``winner`` and ``hash``)."""
    m = fm.Match(record.scenario if scenario is None else scenario, seed=record.seed)
    for c in record.commands:
        _apply(m, c)
    return m


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError as e:
        raise ImportError(
            'backend="ray" needs Ray: pip install "fm-py[ray]" (or "ray[default]")'
        ) from e


def _local(tasks: List[_Task], jobs: int) -> Iterator[GameRecord]:
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield _play(t)
        return
    # spawn: fresh interpreters on every platform, nothing inherited from this one.
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes=min(jobs, len(tasks))) as pool:
        yield from pool.imap(_play, tasks, chunksize=1)


def _check_reachable(address: str) -> None:
    """Fails at once, rather than after Ray's minutes of retries, when nothing listens
    at a ``HOST:PORT`` address."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "auto", "ray://...", or Ray's business
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as e:
        raise ConnectionError(f"no Ray cluster answers at {address}: {e}") from None


def _ray(tasks: List[_Task], address: Optional[str], jobs: Optional[int]) -> Iterator[GameRecord]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        if address is not None:
            _check_reachable(address)
        options: Dict[str, Any] = {"address": address, "logging_level": "WARNING"}
        if address is None and not os.environ.get("RAY_ADDRESS"):
            # A Ray of this machine, started here and stopped at the end.
            options.update(include_dashboard=False, num_cpus=jobs)
        ray.init(**options)
        started = True
    try:
        slots = _node_slots(ray.nodes(), jobs)
        strategies = importlib.import_module("ray.util.scheduling_strategies")
        remote = ray.remote(num_cpus=1)(_play_on_ray)

        def submit(task: _Task, node: str) -> Any:
            # soft: a node that dies (or cannot take the task) hands it to another.
            where = strategies.NodeAffinitySchedulingStrategy(node_id=node, soft=True)
            return remote.options(scheduling_strategy=where).remote(task)

        queue = iter(enumerate(tasks))
        running: Dict[Any, Tuple[int, str]] = {}
        for node in slots:
            nxt = next(queue, None)
            if nxt is None:
                break
            running[submit(nxt[1], node)] = (nxt[0], node)
        done: Dict[int, GameRecord] = {}
        wanted = 0
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            index, node = running.pop(ready[0])
            done[index] = ray.get(ready[0])
            nxt = next(queue, None)
            if nxt is not None:
                # The slot that came free takes the next game.
                running[submit(nxt[1], node)] = (nxt[0], node)
            while wanted in done:
                yield done.pop(wanted)
                wanted += 1
    finally:
        if started:
            ray.shutdown()


def _node_slots(nodes: Sequence[Mapping[str, Any]], jobs: Optional[int]) -> List[str]:
    """The games' slots on a Ray cluster: each live node's id as many times as it has
    whole CPUs, the nodes taken in turn (``a b a b a`` for 3 and 2 CPUs), the first
    ``jobs`` of them if ``jobs`` is given. The driver sends each game to a slot's node
    and the next game to the slot that comes free first. Ray's own placement (its
    default, or ``SPREAD``, best effort) could leave a node idle while another queued
    short games: the two-node test saw all six games on one node."""
    per_node = [
        (str(n["NodeID"]), int(n.get("Resources", {}).get("CPU", 0)))
        for n in nodes
        if n.get("Alive")
    ]
    slots: List[str] = []
    for turn in range(max((cpus for _, cpus in per_node), default=0)):
        slots.extend(node for node, cpus in per_node if cpus > turn)
    if not slots:
        raise ConnectionError("the Ray cluster has no live node with a CPU to play on")
    return slots if jobs is None else slots[: max(1, jobs)]


def _seed_arg(seed: int) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, not {seed!r}")
    return seed


def run(
    scenario: Any,
    games: int,
    agent_a: AgentLike = "mcts",
    agent_b: AgentLike = "random",
    seed: int = 0,
    *,
    backend: str = "local",
    address: Optional[str] = None,
    jobs: Optional[int] = None,
    iterations: int = 200,
    time_budget: Optional[float] = None,
    search: Optional[Mapping[str, Any]] = None,
    max_commands: Optional[int] = None,
    on_game: Optional[Callable[[GameRecord], None]] = None,
) -> Results:
    """Plays ``games`` games of ``scenario`` (a built-in name of any system, a path or
    scenario data), ``agent_a`` as side ``"a"`` against ``agent_b`` as side ``"b"``,
    game ``i`` on seed ``seed + i``, and returns their records in game order with
    their summary. ``iterations``, ``time_budget`` and ``search`` are the settings of an
    agent given as ``"mcts"``. ``on_game`` is called with each record, in game order,
    as soon as it and every earlier one are in. See the module's documentation for
    the backends (``"local"``, ``"ray"``), ``address``, ``jobs`` and ``max_commands``.

    ``ValueError`` for a bad argument, ``fm.ScenarioError`` for an unknown scenario,
    ``ImportError`` for ``backend="ray"`` without Ray, ``ConnectionError`` when
    nothing answers at ``address``."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    seed = _seed_arg(seed)
    if seed + games - 1 > _MASK:
        raise ValueError("seed + games - 1 must not exceed 2**64 - 1")
    if backend not in ("local", "ray"):
        raise ValueError(f"unknown backend {backend!r}: 'local' or 'ray'")
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise ValueError(f"jobs must be a positive integer, not {jobs!r}")
    if max_commands is not None and (
        not isinstance(max_commands, int) or isinstance(max_commands, bool) or max_commands < 1
    ):
        raise ValueError(f"max_commands must be a positive integer, not {max_commands!r}")
    if backend == "local" and address is not None:
        raise ValueError('address is for backend="ray"')
    pair = (
        _resolve(agent_a, iterations, time_budget, search or {}),
        _resolve(agent_b, iterations, time_budget, search or {}),
    )
    # The scenario is checked here, and a file is read once: the workers (maybe on
    # other machines) get its data.
    probe = fm.Match(scenario, seed=seed)
    if isinstance(scenario, str) and scenario in fm.scenarios():
        source: Union[str, Dict[str, Any]] = scenario
        name = scenario
    else:
        source = probe.scenario_data
        name = str(source.get("id", scenario))
    tasks = [_Task(i, source, name, seed + i, pair, max_commands) for i in range(games)]
    wall = time.perf_counter()
    stream = _local(tasks, jobs or 1) if backend == "local" else _ray(tasks, address, jobs)
    records: List[GameRecord] = []
    for record in stream:
        records.append(record)
        if on_game is not None:
            on_game(record)
    summary = summarize(records)
    summary.backend = backend
    summary.jobs = jobs
    summary.wall_seconds = time.perf_counter() - wall
    sides = probe.scenario_data.get("sides")
    if isinstance(sides, dict):
        summary.sides = {s: str(sides.get(s, {}).get("name", s)) for s in SIDES}
    return Results(records, summary)


# -------------------------------------------------------------------------- CLI


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _table(s: Summary) -> str:
    labels = {side: _label(s.agents[side]) for side in SIDES}
    rows = [
        ["side", "agent", "wins", "win rate", "95% interval", "CPU s/game", "ms/decision",
         "longest ms"]
    ]
    for side in SIDES:
        r = s.win_rate[side]
        rows.append(
            [
                f"{s.sides[side]} ({side})" if s.sides else side,
                labels[side],
                str(s.wins[side]),
                _pct(r["rate"]),
                f"{_pct(r['low'])}-{_pct(r['high'])}",
                f"{s.cpu_seconds_per_game[side]:.3f}",
                f"{1000 * s.cpu_seconds_per_decision[side]:.2f}",
                f"{1000 * s.max_decision_seconds[side]:.1f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in rows
    ]
    first, last = s.seeds
    where = f"{s.backend} backend" if s.backend else ""
    if s.jobs:
        where += f", {s.jobs} job{'s' if s.jobs > 1 else ''}"
    head = f"{s.scenario}: {s.games} game{'s' if s.games > 1 else ''}, seeds {first}-{last}"
    if where:
        head += f"; {where}"
    if s.wall_seconds is not None:
        head += f"; {s.wall_seconds:.1f} s wall"
    tail = (
        f"draws {s.wins['draw']} ({s.truncated} truncated); {s.mean_length:.0f} commands a game; "
        f"{s.cpu_seconds_per_game['game']:.3f} CPU s a game"
    )
    return "\n".join([head, *lines, tail])


def _label(desc: Mapping[str, Any]) -> str:
    if desc.get("agent") == "mcts":
        budget = desc.get("time_budget")
        extra = f", {budget:g} s" if budget is not None else ""
        return f"mcts({desc['iterations']}{extra})"
    return str(desc.get("agent"))


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _seed(text: str) -> int:
    try:
        return _seed_arg(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed (0 to 2**64 - 1): {text!r}") from None


def _seconds(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < t <= 86_400:
        raise argparse.ArgumentTypeError(f"must be in (0, 86400] seconds, not {text}")
    return t


def _search(text: str) -> Dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError(f"not JSON: {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"a JSON object of search settings, not {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m fm.tournament",
        description="Plays seeded games between two agents (side a against side b) and "
        "summarises them: wins, win rates with 95% Wilson intervals, CPU time.",
    )
    p.add_argument("--scenario", default="system-demo",
                   help="a built-in scenario or a scenario file (default system-demo)")
    p.add_argument("--games", type=_positive, default=10, help="games to play (default 10)")
    p.add_argument("--agent-a", choices=("mcts", "random"), default="mcts",
                   help="side a's agent (default mcts)")
    p.add_argument("--agent-b", choices=("mcts", "random"), default="random",
                   help="side b's agent (default random)")
    p.add_argument("--iterations", type=_positive, default=200,
                   help="MCTS iterations a decision (default 200)")
    p.add_argument("--time-budget", type=_seconds, default=None, metavar="SECONDS",
                   help="at most this many seconds a MCTS decision (results then depend on "
                   "the machine)")
    p.add_argument("--search", type=_search, default=None, metavar="JSON",
                   help='other search settings, e.g. \'{"max_priors": 100}\'')
    p.add_argument("--seed", type=_seed, default=0,
                   help="game i plays on seed SEED + i (default 0)")
    p.add_argument("--max-commands", type=_positive, default=None, metavar="N",
                   help="stop a game after N commands, as a truncated draw")
    p.add_argument("--jobs", type=_positive, default=None,
                   help="worker processes (local, default 1) or Ray tasks at once (default: "
                   "the cluster's CPUs)")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--address", default=None,
                   help="the Ray cluster (HOST:PORT, or auto); default: start a Ray on this "
                   "machine")
    p.add_argument("--json", action="store_true",
                   help='print one JSON line a game, then {"summary": ...}, instead of the table')
    p.add_argument("--out", default=None, metavar="FILE", help="also write the JSON lines to FILE")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m fm.tournament``: exit status 0; 2 for bad arguments (or Ray
    missing), 1 when no Ray cluster answers at ``--address``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.address is not None and args.backend != "ray":
        parser.error("--address needs --backend ray")
    try:
        fm.Match(args.scenario)
    except (fm.ScenarioError, OSError) as e:
        parser.error(f"--scenario: {e}")
    out: Optional[TextIO] = open(args.out, "w", encoding="utf-8") if args.out else None

    def line(data: Mapping[str, Any]) -> None:
        text = json.dumps(data, separators=(",", ":"))
        if args.json:
            print(text, flush=True)
        if out is not None:
            out.write(text + "\n")
            out.flush()

    try:
        results = run(
            args.scenario,
            args.games,
            args.agent_a,
            args.agent_b,
            args.seed,
            backend=args.backend,
            address=args.address,
            jobs=args.jobs,
            iterations=args.iterations,
            time_budget=args.time_budget,
            search=args.search,
            max_commands=args.max_commands,
            on_game=lambda g: line(g.to_dict()),
        )
        line({"summary": results.summary.to_dict()})
    except (ImportError, fm.ProtocolError) as e:
        print(f"{parser.prog}: error: {e}", file=sys.stderr)
        return 2
    except ConnectionError as e:
        print(f"{parser.prog}: error: {e}", file=sys.stderr)
        return 1
    finally:
        if out is not None:
            out.close()
    if not args.json:
        print(results.table())
    return 0


if __name__ == "__main__":
    # The module's own functions, not __main__'s copies: the workers import fm.tournament.
    from fm.tournament import main as _main

    sys.exit(_main())
