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

from redis.exceptions import ResponseError

from services.game.service import read_checkpoint
from services.worker.schedule import Nothing
from shared import games, jsonutil, table

log = logging.getLogger(__name__)

GROUP = "projectors"

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
    def __init__(self, store, scheduler=None, consumer=None, notifier=None):
        self.store = store
        self.notifier = notifier  # webhooks: told of each batch before it is saved
        self.redis = store.redis
        self.keys = store.keys
        self.scheduler = scheduler or Nothing()
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
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
            self._after_save(game_id, current, version, tail[0].at)
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

    def _after_save(self, game_id, current, version, first_at):
        """Keep the cross-game indexes in step and tell the API processes that the
        game's views changed."""
        pipe = self.redis.pipeline(transaction=False)
        for lobby in (self.keys.lobby, self.keys.lobby_of(current["game"])):
            if current["status"] == "waiting":
                pipe.zadd(lobby, {game_id: first_at}, nx=True)
            else:
                pipe.zrem(lobby, game_id)
        if current["status"] in ("finished", "cancelled"):
            pipe.srem(self.keys.live, game_id)
        else:
            pipe.sadd(self.keys.live, game_id)
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

    def sweep(self):
        """Project every unfinished game and wake its bots and timers again: repairs a
        lost notification or a job lost in a crash (a duplicate job is a no-op)."""
        for raw in self.redis.smembers(self.keys.live):
            game_id = raw.decode()
            self._project_safely(game_id)
            version, current = read_checkpoint(self.redis, self.keys, game_id)
            if current is not None:
                self.wake(game_id, current, version, int(time.time() * 1000))

    def rebuild(self):
        """Throw every read model away and project every game again from its stream."""
        game_ids = self.store.game_ids()
        pipe = self.redis.pipeline(transaction=False)
        lobbies = [self.keys.lobby, *map(self.keys.lobby_of, games.NAMES)]
        for key in [*lobbies, self.keys.live, *map(self.keys.checkpoint, game_ids)]:
            pipe.delete(key)  # one key a command: they live on different cluster slots
        pipe.execute()
        for game_id in game_ids:
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
        them. Returns how many notifications were handled."""
        start = "0" if pending else ">"
        batches = self.redis.xreadgroup(
            GROUP,
            self.consumer,
            {feed: start for feed in self._feeds()},
            count=count,
            block=None if pending else block_ms,
        )
        handled = 0
        for feed, entries in batches or []:
            for game_id in dict.fromkeys(fields[b"g"].decode() for _, fields in entries):
                self._project_safely(game_id)
            if entries:
                self.redis.xack(feed, GROUP, *(entry_id for entry_id, _ in entries))
                handled += len(entries)
        return handled

    def _project_safely(self, game_id):
        """One game failing to project must not hold up the others; its notification
        is acknowledged anyway, and the sweep tries the game again."""
        try:
            self.project(game_id)
        except Exception:
            log.exception("could not project game %s; the sweep will try again", game_id)

    def run(self, stop=lambda: False, sweep_every=30.0):
        """Follow the feed until `stop()` is true: first what this consumer left
        unacknowledged, then a sweep, then new notifications."""
        self.join_group()
        while self.poll(pending=True):
            pass
        self.sweep()
        last_sweep = time.monotonic()
        while not stop():
            try:
                self.poll()
                if time.monotonic() - last_sweep > sweep_every:
                    self.sweep()
                    last_sweep = time.monotonic()
            except Exception:  # one bad game must not stop every other game's views
                log.exception("projection failed; retrying")
                time.sleep(0.5)
