"""Start and stop the three systems the comparison drives, each on 127.0.0.1 only:
tablestream (as `make run` starts it), the boardgame.io peer and the bare floor."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import psutil
import requests
from prometheus_client.parser import text_string_to_metric_families

import services
from services import embedded_redis
from services.embedded_redis import free_port
from shared import table

# The checkout under test (whose services/ this process imported: another one's under
# bench.ab) and the one holding bench/ (the floor, the peer).
ROOT = Path(services.__file__).resolve().parents[1]
CHECKOUT = Path(__file__).resolve().parents[1]
PEER = CHECKOUT / "bench" / "peer"
COLYSEUS = CHECKOUT / "bench" / "peer-colyseus"
WS_DRIVER = CHECKOUT / "bench" / "ws-driver"


def install_peer(folder=PEER):
    """`npm ci` into the peer's node_modules unless it already matches the lock file."""
    marker = folder / "node_modules" / ".package-lock.json"
    lock = folder / "package-lock.json"
    if marker.exists() and marker.stat().st_mtime >= lock.stat().st_mtime:
        return
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=600,
    )


def _node_line(arguments, folder, timeout):
    """Run `node *arguments` in `folder`: the JSON line it printed last."""
    command = ["node", *map(str, arguments)]
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=timeout, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextmanager
def private_redis(**options):
    """An embedded Redis of this benchmark's own in a temporary folder: its URL."""
    with tempfile.TemporaryDirectory(prefix="bench-redis-") as directory:
        process, url = embedded_redis.start(Path(directory), **options)
        try:
            yield url
        finally:
            process.terminate()
            process.wait(10)


def wait_for(url, process, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


class Tablestream:
    """`python -m services.run` with its own RUN_DIR and PORT, on a Redis we started
    ourselves the way `make run` does (embedded, append-only), so we can read its INFO."""

    name = "tablestream"

    def __init__(self, run_dir, log_path, workers=2, root=ROOT, env=None):
        self.run_dir = Path(run_dir)
        self.log_path = Path(log_path)
        self.workers = workers
        self.root = Path(root)
        self.env = env or {}

    def start(self):
        (self.run_dir / "redis").mkdir(parents=True, exist_ok=True)
        self.redis_process, self.redis_url = embedded_redis.start(self.run_dir / "redis")
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "QUEUE_URL"}
        env.update(
            PORT=str(self.port),
            RUN_DIR=str(self.run_dir),
            REDIS_URL=self.redis_url,
            WORKERS=str(self.workers),
            RATE_LIMITS="off",
        )
        env.update(self.env)
        # Its logs (an access line per request) go to a file, not over the progress bar.
        self.log = open(self.log_path, "ab")  # closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "services.run"],
            cwd=self.root,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        wait_for(f"{self.base}/openapi.json", self.process)
        return self

    def processes(self):
        """{"API": [...], "projector": [...], "worker": [...], "Redis": [...], "other":
        [...]}: psutil processes by role ("other": the matchmaker, the webhooks' sender,
        services.run itself)."""
        roles = {"API": [], "projector": [], "worker": [], "Redis": [], "other": []}
        roles["other"].append(psutil.Process(self.process.pid))
        roles["Redis"].append(psutil.Process(self.redis_process.pid))
        for child in psutil.Process(self.process.pid).children(recursive=True):
            line = " ".join(child.cmdline())
            if "gunicorn" in line:
                roles["API"].append(child)
            elif "services.projector" in line:
                roles["projector"].append(child)
            elif "services.worker" in line:
                roles["worker"].append(child)
            else:
                roles["other"].append(child)
        return roles

    def drive(self, *arguments, timeout=300):
        """Run bench/ws-driver/driver.mjs (node, as the peers' drivers) against this
        service's /v1/ws; answer its JSON line."""
        install_peer(WS_DRIVER)
        return _node_line(["driver.mjs", *arguments, "--port", self.port], WS_DRIVER, timeout)

    def api_workers(self):
        """gunicorn's workers (not its master): the processes that answer requests."""
        api = self.processes()["API"]
        pids = {p.pid for p in api}
        return [p for p in api if p.ppid() in pids]

    def stop(self):
        stop(self.process)
        stop(self.redis_process)
        self.log.close()


class Peer:
    """boardgame.io 0.50's in-memory server (bench/peer/server.js)."""

    name = "boardgame.io"

    def start(self):
        install_peer()
        self.port = free_port()
        env = dict(os.environ, PORT=str(self.port))
        self.process = subprocess.Popen(
            ["node", "server.js"], cwd=PEER, env=env, stdout=subprocess.DEVNULL
        )
        wait_for(f"http://127.0.0.1:{self.port}/games", self.process)
        return self

    def drive(self, *arguments, timeout=300):
        """Run bench/peer/driver.js against this server; answer its JSON line."""
        return _node_line(["driver.js", *arguments, "--port", self.port], PEER, timeout)

    def stop(self):
        stop(self.process)


class Colyseus(Peer):
    """Colyseus 0.18's in-memory room (bench/peer-colyseus/server.mjs): the same game,
    each hand a `.view()` field seen only by its owner."""

    name = "Colyseus"

    def start(self):
        install_peer(COLYSEUS)
        self.port = free_port()
        env = dict(os.environ, PORT=str(self.port))
        self.process = subprocess.Popen(
            ["node", "server.mjs"], cwd=COLYSEUS, env=env, stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # it answers no plain HTTP page: wait for the port
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the Colyseus peer did not start")

    def drive(self, *arguments, timeout=300):
        """Run bench/peer-colyseus/driver.mjs against this server; answer its JSON line."""
        return _node_line(["driver.mjs", *arguments, "--port", self.port], COLYSEUS, timeout)


class Floor:
    """bench/floor.py: Flask + gunicorn (the API's settings) + one Redis command."""

    name = "floor"

    def start(self):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.floor", "--port", str(self.port)], cwd=CHECKOUT
        )
        self.base = f"http://127.0.0.1:{self.port}"
        wait_for(f"{self.base}/hello", self.process)
        return self

    def processes(self):
        """{"floor": [...]}: bench/floor.py, its gunicorn and its Redis."""
        parent = psutil.Process(self.process.pid)
        return {"floor": [parent, *parent.children(recursive=True)]}

    def stop(self):
        stop(self.process)


def stop(process, timeout=20):
    """Stop a process we started (and, through its own handler, its children)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def cpu_seconds(processes):
    """User + system CPU seconds of these processes (and their reaped children)."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def play_to_end(d, game_id, pick, most):
    """Play `game_id` through deployment `d`'s game service until it is over, at most
    `most` commands: the first seat to act sends `pick(its legal commands)`."""
    for _ in range(most):
        _, current = d.service.load(game_id)
        if current["status"] != "active":
            return
        rules = table.rules_of(current)
        seat = rules.to_act(current["rules"])[0]
        d.service.command(game_id, seat, pick(rules.legal(current["rules"], seat)))


LAG = "tablestream_projection_lag_seconds"


def projection_lag(projectors):
    """{bucket upper bound (s): cumulative count} of the projectors' own lag histogram
    (an event's append to its read models written), summed over the processes, read
    from each one's metrics port."""
    buckets = {}
    for process in projectors:
        port = process.environ().get("METRICS_PORT", "0")
        if port == "0":
            continue
        text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == f"{LAG}_bucket":
                    bound = float(sample.labels["le"])
                    buckets[bound] = buckets.get(bound, 0) + sample.value
    return buckets


def lag_quantiles(before, after):
    """The projectors' own lag between two readings of `projection_lag`: p50 and p99 as
    the upper bounds (ms) of the buckets holding them (the histogram keeps no finer
    detail), and the shares written within 25 and 100 ms (bucket bounds, so exact)."""
    window = {bound: after[bound] - before.get(bound, 0) for bound in sorted(after)}
    total = window.get(float("inf"), 0)
    if not total:
        return {}

    def quantile(q):
        return next(1000 * b for b, count in window.items() if count >= q * total)

    return {
        "own_p50": quantile(0.5),
        "own_p99": quantile(0.99),
        "own_le_25ms": window.get(0.025, 0) / total,
        "own_le_100ms": window.get(0.1, 0) / total,
    }
