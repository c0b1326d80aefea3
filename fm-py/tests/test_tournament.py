"""fm.tournament: seeded games between agents, the same records on every backend (this
process, worker processes, a real two-node Ray cluster started here), replayable, with
a summary checked by hand; and its command line."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, Iterator, List, Optional

import pytest

import fm
from fm import agents, tournament
from fm.tournament import GameRecord

# Few iterations: the agents' strength is not what is tested here.
QUICK: Dict[str, Any] = {"iterations": 12}


def _outcomes(r: tournament.Results) -> List[Dict[str, Any]]:
    return [g.outcome() for g in r.games]


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fm.tournament", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_module_doctest() -> None:
    assert doctest.testmod(tournament, raise_on_error=True).attempted >= 5


@pytest.fixture(scope="module")
def demo() -> tournament.Results:
    """mcts against random on system-demo, in this process."""
    return tournament.run("system-demo", 4, "mcts", "random", seed=11, jobs=1, **QUICK)


@pytest.fixture(scope="module")
def firefight() -> tournament.Results:
    """random against mcts on huzzah-firefight, in this process."""
    return tournament.run("huzzah-firefight", 3, "random", "mcts", seed=5, **QUICK)


def test_worker_processes_give_the_same_records(
    demo: tournament.Results, firefight: tournament.Results
) -> None:
    two = tournament.run("system-demo", 4, "mcts", "random", seed=11, jobs=2, **QUICK)
    assert _outcomes(two) == _outcomes(demo)
    assert [g.game for g in two.games] == [0, 1, 2, 3]
    assert len({g.worker["pid"] for g in two.games}) == 2  # both workers played
    assert os.getpid() not in {g.worker["pid"] for g in two.games}
    assert {g.worker["pid"] for g in demo.games} == {os.getpid()}
    # The summary too, but for the times and how it ran.
    machine = {"cpu_seconds_per_game", "cpu_seconds_per_decision", "max_decision_seconds",
               "backend", "jobs", "wall_seconds"}

    def strip(s: tournament.Summary) -> Dict[str, Any]:
        return {k: v for k, v in s.to_dict().items() if k not in machine}

    assert strip(two.summary) == strip(demo.summary)
    h2 = tournament.run("huzzah-firefight", 3, "random", "mcts", seed=5, jobs=2, **QUICK)
    assert _outcomes(h2) == _outcomes(firefight)


def test_seeds_come_from_the_seed_and_the_game_number(demo: tournament.Results) -> None:
    assert [g.seed for g in demo.games] == [11, 12, 13, 14]
    # Game 2 alone, from seed 13: the same game as game 2 of the run from seed 11.
    alone = tournament.run("system-demo", 1, "mcts", "random", seed=13, **QUICK).games[0]
    assert {k: v for k, v in alone.outcome().items() if k != "game"} == {
        k: v for k, v in demo.games[2].outcome().items() if k != "game"
    }
    a, b = demo.games[0].agents["a"], demo.games[0].agents["b"]
    assert a == {"agent": "mcts", "iterations": 12, "time_budget": None, "search": {},
                 "seed": a["seed"]}
    assert b == {"agent": "random", "seed": b["seed"]}
    seeds = {g.agents[side]["seed"] for g in demo.games for side in "ab"}
    assert len(seeds) == 8
    # Other seeds, other games.
    other = tournament.run("system-demo", 1, "mcts", "random", seed=99, **QUICK).games[0]
    assert other.commands != demo.games[0].commands


def test_records_replay(demo: tournament.Results, firefight: tournament.Results) -> None:
    for g in demo.games + firefight.games:
        m = tournament.replay(g)
        assert m.is_over
        assert (m.winner or "draw") == g.winner
        assert m.hash == g.hash
        assert len(m.log) == g.length == len(g.commands)
        assert g.decisions["a"] + g.decisions["b"] == g.length
        assert g.reason == (m.result["reason"] if m.result is not None else None)
        assert not g.truncated
        # Through JSON and back.
        again = GameRecord.from_dict(json.loads(json.dumps(g.to_dict())))
        assert again == g
    assert firefight.games[0].scenario == "huzzah-firefight"
    assert all(g.search["a"] is None and g.search["b"] is not None for g in firefight.games)
    s = firefight.games[0].search["b"]
    assert s is not None and s["iterations"] == 12 * s["searches"] and s["cut_short"] == 0


def test_mcts_beats_random(demo: tournament.Results) -> None:
    assert demo.summary.wins == {"a": 4, "b": 0, "draw": 0}


def _record(game: int, winner: str, *, truncated: bool = False,
            cpu: tuple[float, float] = (1.0, 0.5),
            decisions: tuple[int, int] = (10, 5)) -> GameRecord:
    return GameRecord(
        game=game, scenario="system-demo", seed=100 + game,
        agents={"a": {"agent": "mcts", "iterations": 40, "time_budget": None, "search": {},
                      "seed": 1},
                "b": {"agent": "random", "seed": 2}},
        winner=winner, reason=None, truncated=truncated, commands=[0] * sum(decisions),
        length=sum(decisions), hash=0,
        decisions={"a": decisions[0], "b": decisions[1]},
        cpu_seconds={"a": cpu[0], "b": cpu[1], "game": cpu[0] + cpu[1] + 0.25},
        max_decision_seconds={"a": cpu[0] / 2, "b": cpu[1] / 2},
        search={"a": {"searches": 8, "iterations": 320, "cut_short": 1}, "b": None},
        worker={"host": "h", "pid": 1, "node": None},
    )


def test_summary_by_hand() -> None:
    # 10 games: a wins 7, b 2, one truncated draw. a: 1 CPU second a game over 10
    # decisions, except the last game's 3 s over 20; b: 0.5 s over 5.
    records = [_record(i, "a") for i in range(7)] + [_record(7, "b"), _record(8, "b")]
    records.append(_record(9, "draw", truncated=True, cpu=(3.0, 0.5), decisions=(20, 5)))
    s = tournament.summarize(records)
    assert s.games == 10 and s.seeds == (100, 109)
    assert s.wins == {"a": 7, "b": 2, "draw": 1} and s.truncated == 1
    assert s.agents["a"] == {"agent": "mcts", "iterations": 40, "time_budget": None, "search": {}}
    # Wilson 95%: 7 of 10 is 0.3968-0.8922, 2 of 10 is 0.0567-0.5098 (tables).
    a, b = s.win_rate["a"], s.win_rate["b"]
    assert a["rate"] == 0.7 and b["rate"] == 0.2
    assert (round(a["low"], 4), round(a["high"], 4)) == (0.3968, 0.8922)
    assert (round(b["low"], 4), round(b["high"], 4)) == (0.0567, 0.5098)
    assert s.decisions == {"a": 110, "b": 50}
    assert s.mean_length == 16.0
    assert s.cpu_seconds_per_game["a"] == pytest.approx(1.2)  # (9 + 3) / 10
    assert s.cpu_seconds_per_game["b"] == pytest.approx(0.5)
    assert s.cpu_seconds_per_game["game"] == pytest.approx(1.95)
    assert s.cpu_seconds_per_decision["a"] == pytest.approx(12 / 110)
    assert s.cpu_seconds_per_decision["b"] == pytest.approx(0.1)
    assert s.max_decision_seconds == {"a": 1.5, "b": 0.25}
    assert s.search == {"a": {"searches": 80, "iterations": 3200, "cut_short": 10}, "b": None}
    assert s.backend is None and s.wall_seconds is None
    with pytest.raises(ValueError, match="no games"):
        tournament.summarize([])


def test_wilson_bounds() -> None:
    low, high = tournament.wilson(0, 10)
    assert (low, round(high, 4)) == (0.0, 0.2775)
    low, high = tournament.wilson(10, 10)
    assert (round(low, 4), high) == (0.7225, 1.0)
    low, high = tournament.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_truncated_games_are_draws() -> None:
    r = tournament.run("system-demo", 2, "random", "random", seed=3, max_commands=15)
    for g in r.games:
        assert g.truncated and g.winner == "draw" and g.length == 15
        assert g.reason == "truncated after 15 commands (max_commands)"
        m = tournament.replay(g)
        assert not m.is_over and m.hash == g.hash
    assert r.summary.truncated == 2 and r.summary.wins["draw"] == 2


def first_legal(m: fm.Match) -> int:
    """A callable agent: the first legal action (module-level: worker processes can
    import it)."""
    return m.legal_actions()[0]


def first_command(m: fm.Match) -> Any:
    """A callable agent that answers with a command."""
    return m.legal_commands()[0]


def test_callables_and_agent_objects() -> None:
    r = tournament.run("huzzah-firefight", 2, first_legal, first_command, seed=1)
    r2 = tournament.run("huzzah-firefight", 2, first_legal, first_command, seed=1, jobs=2)
    assert _outcomes(r) == _outcomes(r2)
    g = r.games[0]
    assert g.agents["a"]["agent"] == "first_legal" and g.agents["b"]["agent"] == "first_command"
    assert all(isinstance(c, int) for c in g.commands)  # commands with an index recorded as one
    assert tournament.replay(g).hash == g.hash
    # fm.agents objects: their settings (not their seeds or counters) are used.
    objs = tournament.run("system-demo", 1, agents.mcts(iterations=12, seed=99),
                          agents.random(seed=5), seed=11)
    spec = tournament.run("system-demo", 1, tournament.AgentSpec("mcts", iterations=12),
                          "random", seed=11)
    assert _outcomes(objs) == _outcomes(spec)
    assert objs.games[0].outcome() == tournament.run(
        "system-demo", 1, "mcts", "random", seed=11, **QUICK).games[0].outcome()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="games"):
        tournament.run("system-demo", 0)
    with pytest.raises(ValueError, match="seed"):
        tournament.run("system-demo", 1, seed=-1)
    with pytest.raises(ValueError, match="2\\*\\*64"):
        tournament.run("system-demo", 2, seed=2**64 - 1)
    with pytest.raises(ValueError, match="unknown agent 'alpha'"):
        tournament.run("system-demo", 1, "alpha")
    with pytest.raises(ValueError, match="backend"):
        tournament.run("system-demo", 1, backend="mpi")
    with pytest.raises(ValueError, match="jobs"):
        tournament.run("system-demo", 1, jobs=0)
    with pytest.raises(ValueError, match="address"):
        tournament.run("system-demo", 1, address="127.0.0.1:6379")
    with pytest.raises(ValueError, match="iterations"):
        tournament.run("system-demo", 1, iterations=0)
    with pytest.raises(fm.ProtocolError, match="unknown search setting"):
        tournament.run("system-demo", 1, search={"depth": 3})
    with pytest.raises(fm.ScenarioError, match="neither a built-in scenario"):
        tournament.run("no-such-scenario", 1)


def test_ray_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(ImportError, match=r'pip install "fm-py\[ray\]"'):
        tournament.run("system-demo", 1, "random", "random", backend="ray")


def test_ray_address_where_no_cluster_answers() -> None:
    _ray_cli()
    [port] = _free_ports(1)
    p = _cli("--games", "1", "--backend", "ray", "--address", f"127.0.0.1:{port}")
    assert p.returncode == 1
    assert f"error: no Ray cluster answers at 127.0.0.1:{port}" in p.stderr


def test_ray_slots_follow_each_nodes_cpus() -> None:
    def node(i: str, cpus: int, alive: bool = True) -> Dict[str, Any]:
        return {"NodeID": i, "Alive": alive, "Resources": {"CPU": float(cpus)}}

    nodes = [node("h", 0), node("x", 3), node("y", 2), node("dead", 8, alive=False)]
    # a head of no CPUs (as clusters often run it) and a dead node take no game
    assert tournament._node_slots(nodes, None) == ["x", "y", "x", "y", "x"]
    assert tournament._node_slots(nodes, 2) == ["x", "y"]
    assert tournament._node_slots(nodes, 0) == ["x"]
    with pytest.raises(ConnectionError, match="no live node with a CPU"):
        tournament._node_slots([node("h", 0)], None)


def test_import_fm_imports_no_ray() -> None:
    code = "import sys, fm, fm.tournament; assert 'ray' not in sys.modules, 'ray imported'"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# ------------------------------------------------------------------------- CLI


def test_cli_json(tmp_path: pathlib.Path, firefight: tournament.Results) -> None:
    out = tmp_path / "games.jsonl"
    p = _cli("--scenario", "huzzah-firefight", "--games", "3", "--agent-a", "random",
             "--agent-b", "mcts", "--iterations", "12", "--seed", "5", "--json",
             "--out", str(out))
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 4 and "summary" in lines[-1]
    records = [GameRecord.from_dict(x) for x in lines[:-1]]
    assert [g.outcome() for g in records] == _outcomes(firefight)
    assert lines[-1]["summary"]["wins"] == firefight.summary.wins
    assert lines[-1]["summary"]["backend"] == "local"
    assert [json.loads(x) for x in out.read_text().splitlines()] == lines


def test_cli_table() -> None:
    p = _cli("--scenario", "system-demo", "--games", "2", "--iterations", "12", "--seed", "11")
    assert p.returncode == 0, p.stderr
    head, columns, a, b, tail = p.stdout.splitlines()
    assert head.startswith("system-demo: 2 games, seeds 11-12; local backend")
    assert "95% interval" in columns
    assert a.split()[:5] == ["Blue", "(a)", "mcts(12)", "2", "100%"]
    assert b.split()[:5] == ["Red", "(b)", "random", "0", "0%"]
    assert tail.startswith("draws 0 (0 truncated)")


@pytest.mark.parametrize(
    "args,message",
    [
        (["--games", "0"], "--games: must be at least 1"),
        (["--games", "many"], "--games: not an integer"),
        (["--agent-a", "alpha"], "--agent-a: invalid choice: 'alpha'"),
        (["--backend", "mpi"], "--backend: invalid choice"),
        (["--seed", "-3"], "--seed: not a seed"),
        (["--time-budget", "0"], "--time-budget: must be in (0, 86400]"),
        (["--search", "{"], "--search: not JSON"),
        (["--address", "127.0.0.1:6379"], "--address needs --backend ray"),
        (["--scenario", "no-such-scenario"],
         "--scenario: 'no-such-scenario' is neither a built-in"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_cli_bad_arguments(args: List[str], message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        tournament.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err, err


def test_cli_unknown_search_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament.main(["--games", "1", "--search", '{"depth": 2}']) == 2
    assert "unknown search setting(s): depth" in capsys.readouterr().err


# ---------------------------------------------------------- a real Ray cluster
#
# Every Ray process here, the drivers included, runs in a subprocess with one
# environment: token authentication (RAY_AUTH_MODE=token, the cluster's own token), as
# Ray 2.59+ turns on for local clusters by default and Ray reads once per process; so
# this process never imports Ray and keeps no state of it.


def _ray_cli() -> str:
    """The `ray` command of this Python's Ray, or a skip without Ray; under
    scripts/test_py.sh (FM_TEST_NEEDS_ALL=1), which installs it, a failure instead."""
    if importlib.util.find_spec("ray") is None:  # found, not imported
        missing = 'Ray is not installed (pip install "fm-py[ray]")'
        if os.environ.get("FM_TEST_NEEDS_ALL") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    exe = pathlib.Path(sys.executable).parent / "ray"
    found = str(exe) if exe.exists() else shutil.which("ray")
    if found is None:
        pytest.fail("Ray is installed but its `ray` command is not found")
    return found


def _free_ports(n: int) -> List[int]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _processes_under(root: str) -> List[int]:
    """Live processes whose command line names ``root`` (Ray's daemons name their
    session directory), and their descendants (Ray's workers and agents)."""
    parents: Dict[int, int] = {}
    found = set()
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            if state == "Z":  # exited, waiting for its parent: nothing to stop
                continue
            parents[int(entry.name)] = int(ppid)
            if f"{root}/".encode() in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
        except (OSError, ValueError):
            continue
    grew = True
    while grew:
        more = {pid for pid, ppid in parents.items() if ppid in found} - found
        found |= more
        grew = bool(more)
    return sorted(found)


def _stop_cluster(groups: List[int], root: str) -> None:
    """Stops the cluster's processes, and only them: the process groups of its `ray
    start` commands (each started in a session of its own), then anything left that
    names its temporary directory. Not `ray stop`, which would stop every Ray of this
    user on the machine."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for g in groups:
            try:
                os.killpg(g, sig)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in _processes_under(root):
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        # Ray's daemons shut down in a few seconds on SIGTERM; then SIGKILL.
        deadline = time.monotonic() + (3 if sig == signal.SIGTERM else 10)
        while time.monotonic() < deadline and _processes_under(root):
            time.sleep(0.2)
        if not _processes_under(root):
            return


class Cluster:
    def __init__(self, address: str, env: Dict[str, str]) -> None:
        self.address = address
        self.env = env

    def python(self, code: str, *args: str) -> str:
        """Runs ``code`` in a Python of the cluster's environment; its stdout."""
        p = subprocess.run([sys.executable, "-c", code, *args], env=self.env,
                           capture_output=True, text=True, timeout=180)
        assert p.returncode == 0, p.stderr
        return p.stdout


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A Ray cluster of two nodes of one CPU each on this machine (the head and a
    worker node, each `ray start` with its own temporary directory and ports), once
    both have joined. Always stopped afterwards, and its directory removed."""
    ray_cli = _ray_cli()
    # Short: a Unix socket's path is limited to 107 bytes, and Ray's sit deep in it.
    root = tempfile.mkdtemp(prefix="fmray", dir="/tmp")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    env.pop("RAY_ADDRESS", None)
    env.pop("RAY_AUTH_TOKEN_PATH", None)
    ports = _free_ports(14)  # the head's 8, the second node's 6
    address = f"127.0.0.1:{ports[0]}"
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--object-store-memory=100000000",
              "--disable-usage-stats"]

    def node_ports(p: List[int]) -> List[str]:
        return [f"--dashboard-agent-listen-port={p[0]}", f"--dashboard-agent-grpc-port={p[1]}",
                f"--runtime-env-agent-port={p[2]}", f"--metrics-export-port={p[3]}",
                f"--node-manager-port={p[4]}", f"--object-manager-port={p[5]}"]

    nodes = [
        ["start", "--head", f"--port={ports[0]}", "--include-dashboard=false",
         f"--ray-client-server-port={ports[1]}", *node_ports(ports[2:8]),
         f"--temp-dir={root}/head"],
        ["start", f"--address={address}", *node_ports(ports[8:14]), f"--temp-dir={root}/node"],
    ]
    groups: List[int] = []
    try:
        for args in nodes:
            p = subprocess.Popen([ray_cli, *args, *common], env=env, start_new_session=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            groups.append(p.pid)
            out, _ = p.communicate(timeout=120)
            if p.returncode != 0:
                pytest.fail(f"ray {' '.join(args)} failed ({p.returncode}):\n{out}")
        c = Cluster(address, env)
        c.python(WAIT_FOR_NODES, address)
        yield c
    finally:
        _stop_cluster(groups, root)
        for _ in range(10):  # a daemon's last log lines may land while it is removed
            shutil.rmtree(root, ignore_errors=True)
            if not os.path.exists(root):
                break
            time.sleep(0.5)


WAIT_FOR_NODES = """
import sys, time, ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
deadline = time.monotonic() + 60
while sum(n["Alive"] for n in ray.nodes()) < 2:
    assert time.monotonic() < deadline, "the second node never joined"
    time.sleep(0.5)
ray.shutdown()
"""

RUN_ON_RAY = """
import json, sys
from fm import tournament
address, scenario, games, a, b, seed, jobs = sys.argv[1:]
r = tournament.run(scenario, int(games), a, b, int(seed), backend="ray", address=address,
                   jobs=int(jobs) if jobs != "-" else None, iterations=12)
import ray
assert not ray.is_initialized()  # run() disconnects what it connected
print(json.dumps(r.to_dict()))
"""


def test_ray_cluster_gives_the_same_records(cluster: Cluster) -> None:
    local = tournament.run("system-demo", 6, "mcts", "random", seed=21, **QUICK)
    out = json.loads(cluster.python(RUN_ON_RAY, cluster.address, "system-demo", "6", "mcts",
                                    "random", "21", "-"))
    remote = [GameRecord.from_dict(g) for g in out["games"]]
    assert [g.outcome() for g in remote] == _outcomes(local)
    assert out["summary"]["backend"] == "ray" and out["summary"]["wins"] == local.summary.wins
    nodes = {g.worker["node"] for g in remote}
    assert None not in nodes and len(nodes) == 2, nodes  # both nodes played
    # Huzzah! too, one task at a time.
    h_local = tournament.run("huzzah-firefight", 2, "random", "mcts", seed=4, **QUICK)
    out = json.loads(cluster.python(RUN_ON_RAY, cluster.address, "huzzah-firefight", "2",
                                    "random", "mcts", "4", "1"))
    assert [GameRecord.from_dict(g).outcome() for g in out["games"]] == _outcomes(h_local)


def test_ray_cluster_from_the_command_line(cluster: Cluster,
                                           firefight: tournament.Results) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "fm.tournament", "--scenario", "huzzah-firefight", "--games",
         "3", "--agent-a", "random", "--agent-b", "mcts", "--iterations", "12", "--seed", "5",
         "--json", "--backend", "ray", "--address", cluster.address],
        env=cluster.env, capture_output=True, text=True, timeout=180,
    )
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [GameRecord.from_dict(x).outcome() for x in lines[:-1]] == _outcomes(firefight)
    assert lines[-1]["summary"]["backend"] == "ray"
    assert all(x["worker"]["node"] for x in lines[:-1])
