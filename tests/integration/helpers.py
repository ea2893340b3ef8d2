"""What the integration tests share: playing games through the service, running the
projector and a worker until a game settles, and reading back what they wrote. Not a
test module: pytest collects nothing here."""

import time

import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.ops.clock import Clock
from shared import jsonutil, table
from shared.config import Config

FOUR_BOTS = [{"bot": "random"}] * 4


def stored(deps, key):
    raw = deps.redis.get(key)
    return None if raw is None else jsonutil.loads(raw)


def move(deps, game_id, times=1):
    for _ in range(times):
        _, current = deps.service.load(game_id)
        rules = table.rules_of(current)
        seat = rules.to_act(current["rules"])[0]
        deps.service.command(game_id, seat, rules.legal(current["rules"], seat)[0])


def expires_at(client, key):
    """When `key` expires (ms since the epoch; -1: never). A Redis before 7 (no
    PEXPIRETIME) tells only whether it does (True, or -1)."""
    try:
        return client.pexpiretime(key)
    except redis.RedisError:  # unknown to the server (or to a cluster client)
        ttl = client.pttl(key)
        return ttl > 0 or ttl


def all_read_models(deps):
    """Every key: its value and when it expires (`expires_at`)."""
    found = {}
    for key in deps.redis.scan_iter(match=f"{deps.keys.prefix}*"):
        kind = deps.redis.type(key)
        if kind == b"string":
            found[key] = deps.redis.get(key)
        elif kind == b"hash":
            found[key] = deps.redis.hgetall(key)
        elif key == deps.keys.live.encode():  # scored by when the sweep next looks
            found[key] = set(deps.redis.zrange(key, 0, -1))
        elif kind == b"zset":
            found[key] = deps.redis.zrange(key, 0, -1)
        elif kind == b"set":
            found[key] = deps.redis.smembers(key)
        if key in found:
            found[key] = (found[key], expires_at(deps.redis, key))
    return found


def run_until_quiet(deps, projector, max_rounds=5000):
    """Alternate projector and worker (with the worker's clock moving the jobs that
    fall due, such as the bots' reactions) until the game is over or nothing is left
    to do now."""
    rq = deps.queue.connection
    worker = SimpleWorker(deps.queues, connection=rq, serializer=JSONSerializer)
    clock = Clock(deps.queues)
    projector.join_group()
    for _ in range(max_rounds):
        handled = projector.poll(block_ms=1)
        due = sum(rq.zcount(q.scheduled_job_registry.key, 0, time.time()) for q in deps.queues)
        if not handled and not any(q.count for q in deps.queues) and not due:
            return
        if due:
            clock.tick()
        worker.work(burst=True, logging_level="ERROR")
    raise AssertionError("the game did not settle")


def published(pubsub):
    """The "views changed" messages a subscriber heard so far, as (game_id, version)."""
    heard = []
    while (message := pubsub.get_message(timeout=0.2)) is not None:
        if message["type"] == "message":
            game_id, version = message["data"].decode().split()
            heard.append((game_id, int(version)))
    return heard


def deps_of(stack):
    config = Config(
        redis_url=stack.url,
        queue_url=stack.url,
        token_secret="test-secret",
        key_prefix=stack.keys.prefix,
    )
    # Fail fast while Redis is down: the humans' client retries on its own.
    client = redis.Redis.from_url(stack.url, socket_timeout=2, socket_connect_timeout=2)
    return deps_module.build(config, client=client)


def all_finished(d, game_ids):
    return all(d.service.load(g, fresh=True)[1]["status"] == "finished" for g in game_ids)


def projected(d, game_ids):
    versions = [d.redis.hget(d.keys.checkpoint(g), "version") for g in game_ids]
    return all(
        v is not None and int(v) == d.store.version(g)
        for g, v in zip(game_ids, versions, strict=True)
    )
