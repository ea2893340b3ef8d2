"""Notifications a dead projector left unacknowledged are claimed by
another projector (XAUTOCLAIM), and consumers that are gone with nothing pending are
deleted. Two projectors on a real Redis; one dies between reading and acknowledging."""

import threading

from services.projector.build import projector_of
from shared.keys import GROUP
from tests import processes
from tests.fixtures import build_deps
from tests.helpers import humans


def test_a_running_projector_takes_over_what_a_dead_one_left_pending(real_redis, keys):
    d = build_deps(real_redis, keys)
    survivor = projector_of(d, consumer="survivor")
    survivor.claim_idle_ms = survivor.consumer_gone_ms = 300
    survivor.claim_every = 0.2
    survivor.join_group()
    feeds = [d.keys.feed(p) for p in range(d.store.partitions)]
    games = [d.service.create("alebrijes", humans("a", "b"), {})["id"] for _ in range(6)]
    # The other projector reads every notification, then dies before acknowledging.
    d.redis.xreadgroup(GROUP, "dead", dict.fromkeys(feeds, ">"))
    assert sum(d.redis.xpending(f, GROUP)["pending"] for f in feeds) == 6
    stopping = threading.Event()
    running = threading.Thread(target=survivor.run, kwargs={"stop": stopping.is_set})
    running.start()
    try:

        def repaired():
            pending = sum(d.redis.xpending(f, GROUP)["pending"] for f in feeds)
            consumers = {c["name"] for f in feeds for c in d.redis.xinfo_consumers(f, GROUP)}
            return pending == 0 and b"dead" not in consumers and "dead" not in consumers

        processes.wait_for(repaired, timeout=10)
    finally:
        stopping.set()
        running.join(10)
    for game_id in games:
        assert d.redis.get(d.keys.view(game_id, 0)) is not None
