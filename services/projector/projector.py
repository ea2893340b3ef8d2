"""The projector: game streams in, read models out.

Per game it keeps a checkpoint (the version its read models were built from, and the
table at that version), so projecting is: read the stream after the checkpoint, fold,
write every read model and the new checkpoint in one Lua call that refuses to go
backwards. A duplicate notification, a crash half-way or two projectors racing on one
game therefore leave the read models as one clean pass would.
"""

import logging
import os
import socket
import time
from dataclasses import dataclass

from redis.exceptions import ResponseError

from services.game.service import read_checkpoint
from services.ops import metrics
from services.projector.retention import OVER, Retention
from services.worker.schedule import Nothing
from shared import games, jsonutil, table

log = logging.getLogger(__name__)

GROUP = "projectors"
SWEEP_SECONDS = 30  # how long a game goes unlooked at by the sweep, at most
SWEEP_BATCH = 50  # games one sweep step looks at, between two reads of the feed
CLAIM_IDLE_MS = 30_000  # a notification unacknowledged this long: its projector died
CONSUMER_GONE_MS = 300_000  # a consumer silent this long, with nothing pending, is gone
CLAIM_EVERY = 10.0  # seconds between two looks for what dead projectors left


@dataclass(frozen=True)
class Expiry:
    """When an abandoned game is called off (a game_expired event): waiting with no seat
    claimed for `waiting_seconds`, active with nobody acting for `idle_seconds`."""

    waiting_seconds: int = 24 * 3600
    idle_seconds: int = 7 * 24 * 3600

    def reason(self, current, last_at, now_ms):
        """Why the game expires now (table.EXPIRY_REASONS), or None."""
        limit = {"waiting": self.waiting_seconds, "active": self.idle_seconds}
        seconds = limit.get(current["status"])
        if seconds is None or now_ms - last_at < seconds * 1000:
            return None
        return table.EXPIRY_REASONS[current["status"]]


# KEYS[1] the checkpoint, KEYS[2..] read models; ARGV[1] version, ARGV[2] the table,
# ARGV[3..] the read models' documents in KEYS order.
_WRITE_IF_NEWER = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'table', ARGV[2])
for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[i + 1]) end
return 1
"""


def read_models(current, version):
    """Every read model of one game at one version, as {name: document}: the public
    summary, the spectator's view and one view per seat."""
    seats = range(len(current["seats"]))
    models = {"summary": table.summary(current, version), None: table.view(current, version, None)}
    models.update({seat: table.view(current, version, seat) for seat in seats})
    return models


class Projector:
    def __init__(
        self, store, scheduler=None, consumer=None, expiry=None, notifier=None, retention=None
    ):
        self.store = store
        self.notifier = notifier  # webhooks: told of each batch before it is saved
        self.redis = store.redis
        self.keys = store.keys
        self.scheduler = scheduler or Nothing()
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.expiry = expiry or Expiry()
        self.retention = retention or Retention()
        self.sweep_ms = SWEEP_SECONDS * 1000
        self.sweep_batch = SWEEP_BATCH
        self.claim_idle_ms = CLAIM_IDLE_MS
        self.consumer_gone_ms = CONSUMER_GONE_MS
        self.claim_every = CLAIM_EVERY
        self._write = self.redis.register_script(_WRITE_IF_NEWER)

    def project(self, game_id):
        """Bring one game's read models up to its stream. Returns the version they show."""
        version, before = read_checkpoint(self.redis, self.keys, game_id)
        tail = self.store.read(game_id, after=version)
        if not tail:
            return version
        current = table.fold(((r.event, r.at) for r in tail), before)
        version = tail[-1].version
        if self.notifier is not None:
            self.notifier.notify(game_id, before, tail)
        if self._save(game_id, current, version):
            metrics.projected(time.time() - tail[0].at / 1000)
            self._after_save(game_id, current, version, tail[0].at, tail[-1].at)
            self.wake(game_id, current, version, tail[-1].at, before)
        return version

    def _save(self, game_id, current, version):
        models = read_models(current, version)
        names = list(models)
        keys = [self.keys.checkpoint(game_id)] + [
            self.keys.summary(game_id) if n == "summary" else self.keys.view(game_id, n)
            for n in names
        ]
        docs = [jsonutil.dumps(models[n]) for n in names]
        return self._write(keys=keys, args=[version, jsonutil.dumps(current), *docs]) == 1

    def _after_save(self, game_id, current, version, first_at, last_at):
        """Keep the cross-game indexes in step, start the clock of a game that is over,
        and tell the API processes that the game's views changed."""
        pipe = self.redis.pipeline(transaction=False)
        for lobby in (self.keys.lobby, self.keys.lobby_of(current["game"])):
            if current["status"] == "waiting":
                pipe.zadd(lobby, {game_id: first_at}, nx=True)
            else:
                pipe.zrem(lobby, game_id)
        if current["status"] in OVER:
            pipe.zrem(self.keys.live, game_id)
            self.retention.expire_if_over(pipe, self.keys, game_id, current, last_at)
        else:  # just looked at: the sweep may wait
            pipe.zadd(self.keys.live, {game_id: _now_ms() + self.sweep_ms})
        pipe.execute()
        # Not pipelined: a cluster pipeline refuses PUBLISH.
        self.redis.publish(self.keys.changes, f"{game_id} {version}")

    def wake(self, game_id, current, version, at_ms, before=None):
        """Schedule what the game now waits for: bot turns (now), bot reactions (after
        the bot's delay, once per new chance since `before`), the seats' turn timers and
        the table's own timers."""
        if current["status"] != "active":
            return
        acting = table.to_act(current)
        deadlines = table.deadlines(current)
        for seat, place in enumerate(current["seats"]):
            if place["bot"]:
                self._wake_bot(game_id, current, version, at_ms, before, seat)
            if deadlines[seat] is not None and seat in acting:
                self.scheduler.turn_timer(game_id, seat, version, deadlines[seat])
        for timer in table.table_timers(current):
            self.scheduler.table_timer(game_id, timer["key"], timer["deadline"])

    def _wake_bot(self, game_id, current, version, at_ms, before, seat):
        turn, quick = table.bot_chances(current, seat)
        if turn:
            self.scheduler.bot_turn(game_id, seat, version)
        if quick and (before is None or quick != table.bot_chances(before, seat)[1]):
            delay = current["seats"][seat]["reaction_seconds"]
            self.scheduler.bot_reaction(game_id, seat, version, at_ms + int(delay * 1000))

    # The sweep: a safety net under the feed, one bounded step at a time.

    def sweep_due(self):
        """One step of the sweep: look at the (at most sweep_batch) games whose next
        look is due. Returns how many it looked at; a full batch means more are due."""
        due = self.redis.zrangebyscore(
            self.keys.live, "-inf", _now_ms(), start=0, num=self.sweep_batch
        )
        return self._sweep([raw.decode() for raw in due])

    def sweep(self):
        """Look at every game not yet over now, whenever its next look was due (for
        operators and tests; the run loop sweeps step by step)."""
        return self._sweep([raw.decode() for raw in self.redis.zrange(self.keys.live, 0, -1)])

    def _sweep(self, game_ids):
        if not game_ids:
            return 0
        now = _now_ms()
        # Push their next look out first, so that another projector skips them.
        self.redis.zadd(self.keys.live, {g: now + self.sweep_ms for g in game_ids}, xx=True)
        for game_id in game_ids:
            try:
                self._look_at(game_id, now)
            except Exception:
                log.exception("could not sweep game %s; the next sweep will try again", game_id)
        return len(game_ids)

    def _look_at(self, game_id, now):
        """Project a game, then wake what it waits for (repairs a lost notification
        or a job lost in a crash: a duplicate job is a no-op), or call it off when it
        is abandoned."""
        self.project(game_id)
        version, current = read_checkpoint(self.redis, self.keys, game_id)
        if current is None:
            return
        last = self.store.read(game_id, after=version - 1)
        if current["status"] in OVER:  # also repairs a crash between save and indexes
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(self.keys.live, game_id)
            ended_at = last[-1].at if last else now
            self.retention.expire_if_over(pipe, self.keys, game_id, current, ended_at)
            pipe.execute()
            return
        reason = self.expiry.reason(current, last[-1].at, now) if last else None
        if reason:
            self.scheduler.expire_game(game_id, version, reason)
        else:
            self.wake(game_id, current, version, now)

    def migrate_live(self):
        """Move the games of the old plain set `live` into the sorted set, due now."""
        old = [raw.decode() for raw in self.redis.smembers(self.keys.old_live)]
        if old:
            self.redis.zadd(self.keys.live, dict.fromkeys(old, _now_ms()), nx=True)
        self.redis.delete(self.keys.old_live)

    def rebuild(self, progress=iter):
        """Throw every read model away and project every game again from its stream.
        `progress` wraps the game ids (a progress bar)."""
        game_ids = self.store.game_ids()
        pipe = self.redis.pipeline(transaction=False)
        lobbies = [self.keys.lobby, *map(self.keys.lobby_of, games.NAMES)]
        indexes = [*lobbies, self.keys.live, self.keys.old_live]
        for key in [*indexes, *map(self.keys.checkpoint, game_ids)]:
            pipe.delete(key)  # one key a command: they live on different cluster slots
        pipe.execute()
        for game_id in progress(game_ids):
            self.project(game_id)
        return len(game_ids)

    # The feed: consumer groups over the partitions, so many projectors share the work.

    def _feeds(self):
        return [self.keys.feed(p) for p in range(self.store.partitions)]

    def join_group(self):
        for feed in self._feeds():
            try:
                self.redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
            except ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def poll(self, block_ms=1000, count=200, pending=False):
        """Read one batch of notifications, project the games they name, acknowledge
        them. Returns how many notifications were handled. `block_ms` None or 0: do
        not wait for notifications."""
        start = "0" if pending else ">"
        batches = self.redis.xreadgroup(
            GROUP,
            self.consumer,
            {feed: start for feed in self._feeds()},
            count=count,
            block=None if pending or not block_ms else block_ms,
        )
        return sum(self._handle(feed, entries) for feed, entries in batches or [])

    def _handle(self, feed, entries):
        """Project the games a batch of one feed's notifications names, then
        acknowledge them. An entry trimmed from the feed comes without fields (and, from
        XAUTOCLAIM on Redis 6.2, without an id)."""
        named = (fields[b"g"].decode() for _, fields in entries if fields)
        for game_id in dict.fromkeys(named):
            self._project_safely(game_id)
        ids = [entry_id for entry_id, _ in entries if entry_id is not None]
        if ids:
            self.redis.xack(feed, GROUP, *ids)
        return len(entries)

    def claim_orphans(self):
        """Take over the notifications that projectors which died left unacknowledged
        for claim_idle_ms, project their games and acknowledge them; then forget the
        consumers that are gone with nothing pending. Returns how many it took."""
        handled = 0
        for feed in self._feeds():
            start = "0-0"
            while True:
                answer = self.redis.xautoclaim(
                    feed, GROUP, self.consumer, self.claim_idle_ms, start_id=start, count=200
                )
                handled += self._handle(feed, answer[1])
                start = answer[0]
                if start in (b"0-0", "0-0"):
                    break
            self._forget_gone_consumers(feed)
        return handled

    def _forget_gone_consumers(self, feed):
        for consumer in self.redis.xinfo_consumers(feed, GROUP):
            name = consumer["name"]
            name = name.decode() if isinstance(name, bytes) else name
            gone = consumer["pending"] == 0 and consumer["idle"] >= self.consumer_gone_ms
            if gone and name != self.consumer:
                self.redis.xgroup_delconsumer(feed, GROUP, name)

    def _project_safely(self, game_id):
        """One game failing to project must not hold up the others; its notification
        is acknowledged anyway, and the sweep tries the game again."""
        try:
            self.project(game_id)
        except Exception:
            log.exception("could not project game %s; the sweep will try again", game_id)

    def run(self, stop=lambda: False, block_ms=1000):
        """Follow the feed until `stop()` is true: first what this consumer left
        unacknowledged and what dead projectors left, then new notifications, with
        one bounded step of the sweep after each read, so projection never waits for
        more than a step (while steps are full, the feed is read without waiting)."""
        self.join_group()
        self.migrate_live()
        while self.poll(pending=True):
            pass
        self.claim_orphans()
        last_claim = time.monotonic()
        more_due = False
        while not stop():
            try:
                self.poll(block_ms=0 if more_due else block_ms)
                more_due = self.sweep_due() >= self.sweep_batch
                if time.monotonic() - last_claim > self.claim_every:
                    self.claim_orphans()
                    last_claim = time.monotonic()
            except Exception:  # one bad game must not stop every other game's views
                log.exception("projection failed; retrying")
                time.sleep(0.5)


def _now_ms():
    return int(time.time() * 1000)
