"""shared/link.py: a batch of commands on a connection of the process's own, answered as
a pipeline with no response callbacks would answer them (real Redis and fakeredis)."""

import time

import pytest
import redis
from redis.exceptions import ConnectionError, NoScriptError, ResponseError, TimeoutError

from shared.link import Batch, Link, pooled_call, stream_reads


def test_a_batch_answers_each_command_in_order(any_redis, keys):
    stream, counter = keys.events("g1"), keys.checkpoint("g1")
    batch = Batch(Link(any_redis))
    batch.hset(counter, "version", 3)
    batch.xadd(stream, {"g": "g1"}, id="1-0")
    batch.hget(counter, "version")
    batch.xrange(stream, "1-0", "+")
    assert len(batch) == 4
    assert batch.execute() == [1, b"1-0", b"3", [[b"1-0", [b"g", b"g1"]]]]
    assert len(batch) == 0  # sent: the next batch starts empty


def test_an_error_reply_is_answered_not_raised_and_the_others_still_run(any_redis, keys):
    counter = keys.checkpoint("g2")
    batch = Batch(Link(any_redis))
    batch.set(counter, "x")
    batch.evalsha("0" * 40, 0)  # no such script
    batch.hget(counter, "version")  # the wrong type
    batch.get(counter)
    answers = batch.execute(raise_on_error=False)
    assert answers[0] in (True, b"OK")
    assert isinstance(answers[1], NoScriptError)
    assert isinstance(answers[2], ResponseError)
    assert answers[3] == b"x"
    batch.evalsha("0" * 40, 0)
    with pytest.raises(NoScriptError):
        batch.execute()


def test_a_stream_read_reads_as_redis_pys_callback_gives_it(any_redis, keys):
    feed = keys.feed(0)
    any_redis.xadd(feed, {"g": "g3"}, id="5-0")
    any_redis.xgroup_create(feed, "group", id="0")
    batch = Batch(Link(any_redis))
    batch.xreadgroup("group", "me", {feed: ">"}, count=10)
    assert stream_reads(batch.execute()[0]) == [(feed.encode(), [(b"5-0", {b"g": b"g3"})])]
    batch.xreadgroup("group", "me", {feed: ">"}, count=10)
    assert stream_reads(batch.execute()[0]) == []
    parsed = [(feed.encode(), [(b"5-0", {b"g": b"g3"}), (b"6-0", None)])]
    assert stream_reads(parsed) == parsed  # parsed already (redis-py's), or trimmed: as is


def test_a_link_whose_connection_broke_raises_then_connects_again(real_redis, keys):
    link = Link(real_redis)
    counter = keys.checkpoint("g4")
    assert link.run([("SET", counter, "1")]) == [b"OK"]
    [client_id] = link.run([("CLIENT", "ID")])
    real_redis.client_kill_filter(_id=client_id)
    with pytest.raises(ConnectionError):
        link.run([("GET", counter)])
    assert link.run([("GET", counter)]) == [b"1"]


def test_a_last_answer_left_waiting_is_read_by_pending_answer(real_redis, keys):
    link = Link(real_redis)
    feed = keys.feed(1)
    real_redis.xadd(feed, {"g": "old"}, id="1-0")
    waiting = ("XREAD", "BLOCK", 5000, "STREAMS", feed, "1-0")
    assert link.run([("PING",), waiting], leave_last=True) == [b"PONG"]
    assert link.pending
    with pytest.raises(RuntimeError):
        link.run([("PING",)])  # its answer would be taken for the read's
    real_redis.xadd(feed, {"g": "new"}, id="2-0")
    assert stream_reads(link.pending_answer()) == [(feed.encode(), [(b"2-0", {b"g": b"new"})])]
    assert not link.pending
    assert link.run([("PING",)]) == [b"PONG"]


def test_a_pooled_call_answers_as_redis_sends_it_on_the_pools_connections(any_redis, keys):
    counter = keys.checkpoint("g5")
    assert pooled_call(any_redis, "SET", counter, 7) == b"OK"
    assert pooled_call(any_redis, "EVAL", "return {1, tonumber(ARGV[1])}", 0, 9) == [1, 9]
    with pytest.raises(NoScriptError):
        pooled_call(any_redis, "EVALSHA", "0" * 40, 0)
    with pytest.raises(ResponseError):
        pooled_call(any_redis, "HGET", counter, "version")  # the wrong type
    assert pooled_call(any_redis, "GET", counter) == b"7"  # an error reply spoils nothing
    assert any_redis.get(counter) == b"7"  # the client's own calls share the pool


def test_a_pooled_call_that_failed_leaves_no_answer_for_the_next(redis_url, keys):
    client = redis.Redis.from_url(redis_url, socket_timeout=0.2)
    with pytest.raises(TimeoutError):
        pooled_call(client, "BLPOP", keys.checkpoint("g6"), 1)  # Redis answers after 1 s
    time.sleep(1.2)  # its late answer (nil) has come
    assert pooled_call(client, "PING") == b"PONG"  # not the BLPOP's answer
    client.close()
