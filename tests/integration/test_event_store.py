"""The event store's contract, run against fakeredis and against a real Redis server."""

import threading

import pytest
import redis

from shared import store as store_module
from shared.store import EventStore, Tail, VersionConflict

BACKENDS = {"fakeredis": "fake_redis", "redis": "real_redis", "cluster": "cluster_redis"}


@pytest.fixture(params=list(BACKENDS))
def backend(request):
    """Every backend the store runs on, a Redis Cluster included."""
    return request.getfixturevalue(BACKENDS[request.param])


@pytest.fixture
def store(backend, keys):
    return EventStore(backend, keys)


def test_a_new_game_is_at_version_zero(store):
    assert store.version("g1") == 0
    assert store.read("g1") == []


def test_append_at_the_expected_version_numbers_events_from_one(store):
    assert store.append("g1", 0, [{"type": "a"}, {"type": "b"}], at_ms=5) == 2
    records = store.read("g1")
    assert [(r.version, r.at, r.event) for r in records] == [
        (1, 5, {"type": "a"}),
        (2, 5, {"type": "b"}),
    ]
    assert store.version("g1") == 2


def test_a_tail_is_a_read_as_a_fold_takes_it(store):
    store.append("g1", 0, [{"type": "a"}], at_ms=5)
    store.append("g1", 1, [{"type": "b"}, {"type": "c"}], at_ms=7)
    pipe = store.tails_pipeline()
    store.queue_read(pipe, "g1", after=1)
    store.queue_read(pipe, "g2")
    tail, nothing = map(Tail.of, pipe.execute())
    assert tail.pairs == [({"type": "b"}, 7), ({"type": "c"}, 7)]
    assert (tail.version, tail.first_at, tail.last_at, len(tail)) == (3, 7, 7, 2)
    assert tail.records() == store.read("g1", after=1)
    assert not nothing
    # An answer parsed by redis-py (a dict of fields per entry) gives the same tail.
    assert Tail.of(store.redis.xrange(store.keys.events("g1"), "2-0")) == tail


def test_a_tail_reads_fields_in_any_order_and_refuses_a_gap_in_versions():
    assert Tail.of([(b"4-0", [b"t", b"9", b"e", b'{"type": "a"}'])]).pairs == [({"type": "a"}, 9)]
    entry = [b"e", b'{"type": "a"}', b"t", b"1"]
    with pytest.raises(ValueError, match="versions 1 to 3 in 2 entries"):
        Tail.of([(b"1-0", entry), (b"3-0", entry)])


def test_a_tail_for_a_fold_leaves_out_the_skipped_types_but_its_ends(store):
    """Skipped: an event whose stored JSON ends with the type, as jsonutil writes it;
    not one whose type only a nested object or a string shows, nor the first or last."""
    commanded = {"type": "commanded", "seat": 0, "command": {"type": "commanded"}}
    nested = {"type": "x", "note": {"type": "commanded"}}
    quoted = {"type": "x", "zz": '"type":"commanded"}'}
    events = [commanded, {"type": "a"}, commanded, nested, quoted, commanded]
    store.append("g1", 0, events, at_ms=5)
    store.append("g1", 6, [commanded], at_ms=8)
    pipe = store.tails_pipeline()
    store.queue_read(pipe, "g1")
    answer = pipe.execute()[0]
    tail = Tail.of(answer, ("commanded",))
    if isinstance(answer[0][1], dict):  # a cluster's pipeline parsed it: nothing left out
        assert tail == Tail.of(answer) and tail.whole
        return
    kept = [commanded, {"type": "a"}, nested, quoted, commanded]
    assert [event for event, _ in tail.pairs] == kept
    assert (tail.version, tail.first_at, tail.last_at, tail.whole) == (7, 5, 8, False)
    with pytest.raises(ValueError, match="no records"):
        tail.records()


def test_append_at_a_stale_version_is_a_conflict_and_writes_nothing(store):
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", 0, [{"type": "b"}, {"type": "c"}], at_ms=2)
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert [r.event for r in store.read("g1")] == [{"type": "a"}]


def test_append_ahead_of_the_stream_is_a_conflict(store):
    with pytest.raises(VersionConflict):
        store.append("g1", 3, [{"type": "a"}], at_ms=1)
    assert store.version("g1") == 0


def test_read_from_a_version_returns_only_later_events_up_to_the_limit(store):
    store.append("g1", 0, [{"type": str(i)} for i in range(10)], at_ms=1)
    assert [r.version for r in store.read("g1", after=7)] == [8, 9, 10]
    assert [r.version for r in store.read("g1", after=2, limit=3)] == [3, 4, 5]
    assert store.read("g1", after=10) == []


def test_games_do_not_share_streams(store):
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    store.append("g2", 0, [{"type": "b"}], at_ms=1)
    assert [r.event for r in store.read("g2")] == [{"type": "b"}]
    assert store.game_ids() == ["g1", "g2"]


def test_every_append_notifies_the_games_feed_partition(store, backend, keys):
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    store.append("g1", 1, [{"type": "b"}], at_ms=1)
    feed = backend.xrange(keys.feed(store.partition("g1")))
    assert [fields[b"g"] for _, fields in feed] == [b"g1", b"g1"]


def test_an_empty_append_writes_nothing(store):
    assert store.append("g1", 0, [], at_ms=1) == 0
    assert store.version("g1") == 0


def test_concurrent_appends_at_one_version_let_exactly_one_win(store):
    results = []

    def writer(n):
        try:
            store.append("race", 0, [{"type": "w", "n": n}], at_ms=1)
            results.append(n)
        except VersionConflict:
            pass

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 1
    assert [r.event["n"] for r in store.read("race")] == results


class CountingConnection(redis.Connection):
    """A connection that counts the answers it reads: one a round trip (a script call is
    one), whether redis-py or link.pooled_call sent the command."""

    answers = 0

    def read_response(self, *args, **kwargs):
        CountingConnection.answers += 1
        return super().read_response(*args, **kwargs)


def test_on_one_server_an_append_and_its_notification_are_one_command(redis_url, keys):
    client = redis.Redis.from_url(redis_url, connection_class=CountingConnection)
    store = EventStore(client, keys)
    store.append("g1", 0, [{"type": "a"}], at_ms=1)  # loads the script
    CountingConnection.answers = 0
    store.append("g1", 1, [{"type": "b"}, {"type": "c"}], at_ms=2)
    assert CountingConnection.answers == 1
    feed = client.xrange(keys.feed(store.partition("g1")))
    assert [fields[b"g"] for _, fields in feed] == [b"g1", b"g1"]
    client.close()


def test_a_refused_append_notifies_no_one(store, backend, keys):
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    with pytest.raises(VersionConflict):
        store.append("g1", 0, [{"type": "b"}], at_ms=2)
    assert len(backend.xrange(keys.feed(store.partition("g1")))) == 1


def test_an_append_loads_its_script_again_after_redis_forgot_it(real_redis, keys):
    store = EventStore(real_redis, keys)
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    real_redis.script_flush()  # as a Redis restarted without its scripts
    assert store.append("g1", 1, [{"type": "b"}], at_ms=2) == 2
    with pytest.raises(VersionConflict):
        store.append("g1", 1, [{"type": "c"}], at_ms=3)
    assert [r.event["type"] for r in store.read("g1")] == ["a", "b"]


def test_an_append_whose_connection_redis_closed_lands_once(redis_url, real_redis, keys):
    client = redis.Redis.from_url(redis_url)  # one pooled connection, ours alone
    store = EventStore(client, keys)
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    real_redis.client_kill_filter(_id=client.client_id())  # the connection the pool holds
    assert store.append("g1", 1, [{"type": "b"}], at_ms=2) == 2
    assert [r.event["type"] for r in store.read("g1")] == ["a", "b"]
    client.close()


def test_an_append_whose_quick_call_fails_goes_redis_pys_way_and_lands_once(
    real_redis, keys, monkeypatch
):
    store = EventStore(real_redis, keys)
    store.append("g1", 0, [{"type": "a"}], at_ms=1)

    def dropped(*words):
        raise redis.ConnectionError("connection dropped before the command was sent")

    monkeypatch.setattr(store_module, "pooled_call", dropped)
    assert store.append("g1", 1, [{"type": "b"}], at_ms=2) == 2  # by redis-py's Script
    assert [r.event["type"] for r in store.read("g1")] == ["a", "b"]


def test_an_append_whose_answer_was_lost_lands_once_and_is_not_a_conflict(
    real_redis, keys, monkeypatch
):
    """The script ran, its answer was lost with the connection; sent again, it finds the
    stream moved by its own events: the append succeeded, once."""
    store = EventStore(real_redis, keys)
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    real_call = store_module.pooled_call

    def answer_lost(*words):
        real_call(*words)
        raise redis.ConnectionError("the connection dropped before the answer came")

    monkeypatch.setattr(store_module, "pooled_call", answer_lost)
    assert store.append("g1", 1, [{"type": "b"}, {"type": "c"}], at_ms=2) == 3
    assert [r.event["type"] for r in store.read("g1")] == ["a", "b", "c"]
    feed = real_redis.xrange(keys.feed(store.partition("g1")))
    assert len(feed) == 2  # notified once for each append that ran


def test_another_writers_events_of_the_same_count_are_still_a_conflict(store):
    store.append("g1", 0, [{"type": "a"}], at_ms=1)
    store.append("g1", 1, [{"type": "b"}], at_ms=2)  # another writer, first
    with pytest.raises(VersionConflict):
        store.append("g1", 1, [{"type": "c"}], at_ms=2)  # same count and time, not ours
    with pytest.raises(VersionConflict):
        store.append("g1", 1, [{"type": "b"}], at_ms=3)  # same event, another time
    assert [r.event["type"] for r in store.read("g1")] == ["a", "b"]
