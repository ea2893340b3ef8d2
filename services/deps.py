"""The composition root: builds the Redis clients, store, game service and queue from a
Config. Nothing connects at import time; each process builds its Deps once."""

import functools
import logging
import secrets
from dataclasses import dataclass

import redis
from redis.maint_notifications import MaintNotificationsConfig
from rq import Queue
from rq.serializers import JSONSerializer

from services.game import GameService
from shared.config import Config
from shared.keys import Keys
from shared.schedule import Scheduler
from shared.store import EventStore

# The RQ queues by name, most urgent first: games nobody plays in person (every seat a
# bot) have a queue of their own, after the bots of games people play.
QUEUES = ("timers", "bots", "background")
NAMES_TTL = 30.0  # seconds a process answers from a player's name before reading it again


@dataclass
class Deps:
    config: Config
    redis: redis.Redis
    keys: Keys
    store: EventStore
    service: GameService
    queue: Queue  # bot turns and reactions
    timers: Queue  # turn and table timers: never behind a bot's think time
    background: Queue  # the bot turns of games where every seat is a bot

    @functools.cached_property
    def players(self):
        """The players' streams and folds (shared/players/store.py)."""
        from shared.players.store import PlayerStore

        return PlayerStore(self.redis, self.keys)

    @functools.cached_property
    def matchmaking(self):
        """The quick-match queues (shared/matchmaking/store.py)."""
        from shared.matchmaking.store import QueueStore

        return QueueStore(self.redis, self.keys)

    @functools.cached_property
    def player_names(self):
        """Players' names as this process last read them (at most NAMES_TTL s old)."""
        from shared.players.naming import RecentNames

        return RecentNames(self.players, NAMES_TTL)

    @property
    def queues(self):
        """Every queue, most urgent first: what one worker serves by default."""
        return [self.timers, self.queue, self.background]

    def queues_named(self, names):
        """The queues called `names` (of QUEUES), in that order."""
        by_name = dict(zip(QUEUES, self.queues, strict=True))
        return [by_name[n] for n in names]

    @property
    def scheduler(self):
        """Puts bot turns, bot reactions and timers on this deployment's queues."""
        return Scheduler(self.queue, self.timers, self.background)

    @property
    def webhook_queue(self):
        """Webhook deliveries: a queue of their own, so a slow receiver delays no bot."""
        name = f"{self.config.key_prefix}webhooks"
        return Queue(name, connection=self.queue.connection, serializer=JSONSerializer)


def token_secret(config, client, keys):
    """TOKEN_SECRET when set; else one secret shared through Redis by every process of
    this deployment, made by whichever process asks first."""
    if config.token_secret:
        return config.token_secret
    client.set(keys.secret, secrets.token_urlsafe(32), nx=True)
    return client.get(keys.secret).decode()


CONNECT_TIMEOUT = 5  # seconds


def connect(url, cluster=False):
    """A client whose pool makes callers wait for a free connection rather than fail:
    thousands of long-polls woken by one move share a few dozen connections. With
    `cluster`, a Redis Cluster client (the URL names any one node)."""
    # No read timeout: redis-py's default (5 s) cuts RQ's blocking dequeue (15 s) and
    # an idle change subscription; keepalive and a health check find a dead peer. A
    # connect timeout: a host that drops packets would hold a connect for the kernel's
    # two minutes, where a cluster client should move on to the node's replica.
    # Maintenance notifications off: with them on ("auto", redis-py 8's default),
    # the pool hands out a connection that still holds an unread reply, and the next
    # command, maybe another seat's request, reads that reply as its own.
    sockets = dict(
        maint_notifications_config=MaintNotificationsConfig(enabled=False),
        socket_timeout=None,
        socket_connect_timeout=CONNECT_TIMEOUT,
        socket_keepalive=True,
        health_check_interval=30,
    )
    if cluster:
        return redis.RedisCluster.from_url(url, **sockets)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=20, **sockets)
    return redis.Redis(connection_pool=pool)


def build(config=None, client=None, queue_client=None):
    """Wire a process's dependencies; pass clients to use fakes or a test server."""
    config = config or Config.from_env()
    if config.redis_cluster and config.queue_url == config.redis_url and queue_client is None:
        raise ValueError("RQ does not run on a Redis Cluster: set QUEUE_URL to a plain Redis")
    client = client or connect(config.redis_url, config.redis_cluster)
    queue_client = queue_client or (
        client if config.queue_url == config.redis_url else connect(config.queue_url)
    )
    keys = Keys(config.key_prefix)
    if config.durability == "always":
        _check_fsync(client)
    replicas = config.durability_replicas if config.durability == "replica" else 0
    if replicas and config.redis_cluster:
        raise ValueError("DURABILITY=replica needs one Redis server (WAIT), not a cluster")
    store = EventStore(client, keys, config.feed_partitions, replicas, config.durability_timeout_ms)
    service = GameService(store, token_secret(config, client, keys), cache_size=config.table_cache)
    queue = Queue(f"{config.key_prefix}bots", connection=queue_client, serializer=JSONSerializer)
    timers = Queue(f"{config.key_prefix}timers", connection=queue_client, serializer=JSONSerializer)
    background = Queue(
        f"{config.key_prefix}background", connection=queue_client, serializer=JSONSerializer
    )
    return Deps(config, client, keys, store, service, queue, timers, background)


def _check_fsync(client):
    """Say so when DURABILITY=always but the Redis replies before its fsync: it is
    the operator's redis.conf (appendonly yes, appendfsync always), not ours to set."""
    try:
        settings = client.config_get("append*")
    except Exception:  # CONFIG refused (a managed Redis), or a fake: nothing to say
        return
    if settings.get("appendonly") != "yes" or settings.get("appendfsync") != "always":
        logging.getLogger("tablestream").warning(
            "DURABILITY=always, but Redis has appendonly %s, appendfsync %s: an "
            "acknowledged move may be lost in a crash (docs/operations.md)",
            settings.get("appendonly"),
            settings.get("appendfsync"),
        )


_current = None


def install(deps):
    """Make `deps` this process's dependencies (the worker's jobs use them)."""
    global _current
    _current = deps


def current():
    global _current
    if _current is None:
        _current = build()
    return _current
