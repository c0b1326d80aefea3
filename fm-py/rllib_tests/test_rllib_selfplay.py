"""The RLlib self-play example (examples/rllib_selfplay.py) on a real two-node Ray
cluster: a head node and a second node joining it, both on 127.0.0.1 with one CPU each,
started here with ``ray start --block`` and stopped in a finalizer. PPO trains for
three iterations with two env runners (one on each node, as the CPUs force) and the
test checks what it printed: both nodes sampled, both sides' games and rewards, the
env steps and a finite loss for each side's policy.

Opt-in: ``./scripts/test_rllib.sh`` makes the virtual environment it needs
(ray[rllib] pins its own Gymnasium, and torch); without ray.rllib the test skips.
About 100 s on the 2-core machine (with another process training on one core), most
of it starting the two nodes (about 20 s), the driver and its env runners (torch
imported in each, about 20 s more); the three iterations take about a second each.

The cluster is this test's alone: its own temporary directory, free ports (GCS, the
client server, each node's dashboard agent), its own token (``RAY_AUTH_MODE=token``
and ``RAY_AUTH_TOKEN`` in the environment of every process it starts), and it is
stopped by killing the process groups of its two ``ray start --block`` commands and
then any process left that names its temporary directory, never with ``ray stop``
(which stops every Ray process on the machine, another cluster's too).
"""

from __future__ import annotations

import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")
# After ray: `import ray` puts its own copy of psutil on sys.path.
import psutil  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: E402
from ray._private.utils import get_ray_client_dependency_error  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rllib_selfplay.py"
RAY = Path(sys.executable).with_name("ray")
ITERATIONS = 3
STARTED = "Ray runtime started."


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A head node and one more node on 127.0.0.1, each a ``ray start --block``
    process leading its own process group."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.env.update(
            RAY_AUTH_MODE="token",
            RAY_AUTH_TOKEN=secrets.token_hex(32),
            RAY_USAGE_STATS_ENABLED="0",
        )
        self.env.pop("RAY_ADDRESS", None)
        self._fresh()

    def _fresh(self) -> None:
        # Short: Ray's unix sockets live under it (a path is at most 107 bytes).
        self.temp_dir = tempfile.mkdtemp(prefix="fmray-")
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: List[subprocess.Popen[bytes]] = []
        self.logs: List[Path] = []

    def _start(self, name: str, args: List[str], timeout: float = 90.0) -> None:
        log = Path(self.temp_dir) / f"{name}.log"
        self.logs.append(log)
        with open(log, "wb") as out:
            p = subprocess.Popen(
                [str(RAY), "start", "--block", "--num-cpus=1", f"--temp-dir={self.temp_dir}",
                 "--object-store-memory=100000000", "--disable-usage-stats",
                 # Its default, 52365, is every node's: two nodes on one machine clash.
                 f"--dashboard-agent-listen-port={free_port()}", *args],
                stdout=out, stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
            )
        self.nodes.append(p)
        deadline = time.monotonic() + timeout
        while STARTED not in log.read_text(errors="replace"):
            if p.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start ({name}) failed:\n{log.read_text(errors='replace')}")
            time.sleep(0.5)

    def start(self) -> None:
        head = ["--head", "--node-ip-address=127.0.0.1", f"--port={self.port}",
                "--include-dashboard=false"]
        if get_ray_client_dependency_error() is None:
            # With ray[client], the head's client server (default port 10001).
            head.append(f"--ray-client-server-port={free_port()}")
        self._start("head", head)
        self._start("node", [f"--address={self.address}", "--node-ip-address=127.0.0.1"])

    def restart(self) -> None:
        self.stop()
        self._fresh()
        self.start()

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.nodes)

    def _own_processes(self) -> List[psutil.Process]:
        """The processes of this cluster: the ray start commands, their descendants,
        and any process whose command line names the cluster's temporary directory."""
        procs: Dict[int, psutil.Process] = {}
        for p in self.nodes:
            try:
                root = psutil.Process(p.pid)
                for q in [root, *root.children(recursive=True)]:
                    procs[q.pid] = q
            except psutil.Error:
                pass
        for q in psutil.process_iter(["cmdline"]):
            try:
                if any(self.temp_dir in arg for arg in (q.info["cmdline"] or [])):
                    procs[q.pid] = q
            except psutil.Error:
                pass
        procs.pop(os.getpid(), None)
        return list(procs.values())

    def stop(self) -> None:
        """Stops this cluster alone: SIGTERM to the process group of each node (the
        second node first) and to each of its processes, SIGKILL to whatever is left
        after 3 s (raylet and the GCS take 10 s and more to stop gracefully, which a
        throwaway cluster does not need)."""
        procs = self._own_processes()
        for p in reversed(self.nodes):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        for q in procs:
            try:
                q.terminate()
            except psutil.Error:
                pass
        _, alive = psutil.wait_procs(procs, timeout=3)
        for q in alive + self._own_processes():
            try:
                q.kill()
            except psutil.Error:
                pass
        for p in self.nodes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        shutil.rmtree(self.temp_dir, ignore_errors=True)

    def tail(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
                         for log in self.logs if log.exists())


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    c = Cluster()
    try:
        c.start()
        yield c
    finally:
        c.stop()


def run_example(c: Cluster) -> List[Dict[str, Any]]:
    """Runs the example on the cluster; its JSON lines."""
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--address", c.address, "--iterations", str(ITERATIONS),
         "--num-env-runners", "2", "--json"],
        capture_output=True, text=True, env=c.env, timeout=300,
    )
    if out.returncode != 0:
        raise RuntimeError(f"the example failed ({out.returncode}):\n{out.stderr[-6000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def finite(x: Optional[float]) -> bool:
    return x is not None and math.isfinite(x)


def test_ppo_self_play_on_a_two_node_cluster(cluster: Cluster) -> None:
    try:
        lines = run_example(cluster)
    except (RuntimeError, subprocess.TimeoutExpired):
        if cluster.alive():
            raise
        # A node died under the run (a machine short of memory, or someone's `ray
        # stop`): once more on a new cluster.
        cluster.restart()
        lines = run_example(cluster)
    setup, iterations = lines[0], lines[1:]

    # Two nodes in the cluster, and one env runner on each.
    assert setup["cluster_nodes"] == 2, cluster.tail()
    assert len(setup["env_runner_nodes"]) == 2
    assert len(set(setup["env_runner_nodes"])) == 2

    assert [it["iteration"] for it in iterations] == list(range(1, ITERATIONS + 1))
    lifetime = 0
    for it in iterations:
        assert it["env_steps_sampled"] > 0
        assert it["env_steps_sampled_lifetime"] > lifetime
        lifetime = it["env_steps_sampled_lifetime"]
        # Both sides decided in the steps sampled, and both policies learned.
        assert it["agent_steps_sampled"]["a"] > 0 and it["agent_steps_sampled"]["b"] > 0
        assert finite(it["loss"]["a"]) and finite(it["loss"]["b"]), it
        assert finite(it["time_s"])

    # Games ended, and each side got its result: a zero-sum game, so over the same
    # games side a's mean return is minus side b's (an iteration in which no game
    # ended has no mean).
    assert iterations[-1]["episodes_lifetime"] > 0
    means = [it["return_mean"] for it in iterations if it["episodes"] > 0]
    assert means, iterations
    for r in means:
        assert finite(r["a"]) and finite(r["b"]), r
        assert -1.0 <= r["a"] <= 1.0 and abs(r["a"] + r["b"]) < 1e-6, r
