"""Two projectors on one feed (what `PROJECTORS=2` runs): the consumer group hands each
notification to one of them, but a game's notifications may go to both, so both may
project the same game at once. On a real Redis, with both running in threads while the
games are played: every event is applied once (each read model is that of one clean
fold of the whole stream), none is lost, nothing stays pending, and the API processes
hear each game's versions in order."""

import threading

from services.projector.build import projector_of
from shared import jsonutil, table
from shared.keys import GROUP
from tests import processes
from tests.fixtures import build_deps
from tests.helpers import humans
from tests.integration.helpers import move, published


def test_two_projectors_apply_every_event_once_and_tell_each_games_versions_in_order(
    real_redis, keys
):
    d = build_deps(real_redis, keys)
    feeds = [d.keys.feed(p) for p in range(d.store.partitions)]
    pubsub = d.redis.pubsub()
    pubsub.subscribe(d.keys.changes)
    pubsub.get_message(timeout=1)  # the subscription's confirmation
    projectors = [projector_of(d, consumer=name) for name in ("one", "two")]
    for projector in projectors:
        projector.join_group()
    stopping = threading.Event()
    threads = [
        threading.Thread(target=p.run, kwargs={"stop": stopping.is_set, "block_ms": 5})
        for p in projectors
    ]
    for thread in threads:
        thread.start()
    try:
        games = [
            d.service.create("alebrijes", humans("a", "b", "c"), {"seed": s})["id"]
            for s in range(6)
        ]
        for _ in range(12):
            for game_id in games:
                move(d, game_id)

        def caught_up():
            pending = sum(d.redis.xpending(f, GROUP)["pending"] for f in feeds)
            shown = [d.redis.hget(d.keys.checkpoint(g), "version") for g in games]
            versions = [str(d.store.version(g)).encode() for g in games]
            return pending == 0 and shown == versions

        processes.wait_for(caught_up, timeout=30)
    finally:
        stopping.set()
        for thread in threads:
            thread.join(10)
    heard = published(pubsub)
    pubsub.close()
    for game_id in games:
        records = d.store.read(game_id)
        version = records[-1].version
        current = table.fold((r.event, r.at) for r in records)
        checkpoint = d.redis.hgetall(d.keys.checkpoint(game_id))
        assert jsonutil.loads(checkpoint[b"table"]) == jsonutil.loads(jsonutil.dumps(current))
        for seat in (None, 0, 1, 2):
            view = jsonutil.loads(d.redis.get(d.keys.view(game_id, seat)))
            assert view == jsonutil.loads(jsonutil.dumps(table.view(current, version, seat)))
        versions = [v for g, v in heard if g == game_id]
        assert versions == sorted(set(versions)) and versions[-1] == version
