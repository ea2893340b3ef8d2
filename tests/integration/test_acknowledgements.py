"""DURABILITY=replica: an append is acknowledged once a replica has it (Redis' WAIT on
the append's own connection), refused as not replicated otherwise, and sent again it
finds its own events and is acknowledged once, not twice."""

import pytest
import redis

from services import embedded_redis
from shared.store import EventStore, NotReplicated

MOVE = {"type": "commanded", "seat": 0, "command": {"type": "pass"}, "by": "human"}


@pytest.fixture
def primary(tmp_path):
    (tmp_path / "primary").mkdir()
    process, url = embedded_redis.start(tmp_path / "primary")
    client = redis.Redis.from_url(url)
    yield client, url
    client.close()
    process.kill()
    process.wait()


def replica_of(tmp_path, url, name="replica"):
    (tmp_path / name).mkdir()
    return embedded_redis.start_replica(tmp_path / name, url)


def test_an_append_is_acknowledged_once_its_replica_has_it(tmp_path, primary):
    client, url = primary
    process, replica_url = replica_of(tmp_path, url)
    replica = redis.Redis.from_url(replica_url)
    try:
        store = EventStore(client, replicas=1, replica_timeout_ms=5000)
        for version in range(20):
            assert store.append("g1", version, [MOVE], 1000) == version + 1
            # Acknowledged: the replica holds it already, no waiting.
            assert replica.xlen(store.keys.events("g1")) == version + 1
    finally:
        replica.close()
        process.kill()
        process.wait()


def test_without_a_replica_an_append_is_not_acknowledged_and_sent_again_lands_once(
    tmp_path, primary
):
    client, url = primary
    store = EventStore(client, replicas=1, replica_timeout_ms=100)
    with pytest.raises(NotReplicated) as refused:
        store.append("g2", 0, [MOVE, MOVE], 1000)
    assert refused.value.version == 2
    assert client.xlen(store.keys.events("g2")) == 2  # on the primary: not acknowledged
    process, _ = replica_of(tmp_path, url)
    try:
        assert store.append("g2", 0, [MOVE, MOVE], 1000) == 2  # its own events: found
        assert client.xlen(store.keys.events("g2")) == 2
    finally:
        process.kill()
        process.wait()


def test_a_store_without_replicas_sends_no_wait(primary):
    client, _ = primary
    before = client.info("commandstats").get("cmdstat_wait", {}).get("calls", 0)
    assert EventStore(client).append("g3", 0, [MOVE], 1000) == 1
    assert client.info("commandstats").get("cmdstat_wait", {}).get("calls", 0) == before
