"""The projector: game streams in, read models out.

Per game it keeps a checkpoint (the version its read models were built from, and the
table at that version), so projecting is: read the stream after the checkpoint, fold,
write every read model and the new checkpoint in one Lua call that refuses to go
backwards. A duplicate notification, a crash half-way or two projectors racing on one
game therefore leave the read models as one clean pass would.

It works a batch of games at a time (a read of the feed, a sweep step, a rebuild chunk):
each game named once, folded once over everything new in its stream, with the batch's
reads (tails, stored versions, webhooks) in one round trip and its writes in another
(one by one on a Redis Cluster, whose pipelines run no scripts). The writes' round trip
also tells the API processes (PUBLISH, from the write script), acknowledges the batch's
notifications and reads the feed's next batch, so a projector kept busy by the feed
spends two round trips a batch. It remembers the checkpoints it wrote (`known.py`) and
checks each against the stored version in the same round trip as the stream's tail.
"""

import gc
import logging
import os
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError

from services.game.service import read_checkpoint
from services.ops import metrics
from services.projector.known import Known, KnownGames
from services.projector.players import PlayerModels
from services.projector.retention import OVER, Retention
from services.worker.schedule import Nothing
from shared import games, jsonutil, table
from shared.link import Batch, Link, stream_reads
from shared.players import naming
from shared.store import Tail

log = logging.getLogger(__name__)

GROUP = "projectors"
SWEEP_SECONDS = 30  # how long a game goes unlooked at by the sweep, at most
SWEEP_BATCH = 50  # games one sweep step looks at, between two reads of the feed
SWEEP_STEP_SECONDS = 0.1  # a busy projector's sweep steps, at most this often (unless behind)
CLAIM_IDLE_MS = 30_000  # a notification unacknowledged this long: its projector died
CONSUMER_GONE_MS = 300_000  # a consumer silent this long, with nothing pending, is gone
CLAIM_EVERY = 10.0  # seconds between two looks for what dead projectors left
REBUILD_BATCH = 25  # games a rebuild reads and writes in one round trip each (more: a
# batch's parsed streams outgrow the memory Python keeps, and each batch faults it in again)


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


# KEYS[1] the checkpoint, KEYS[2..] read models, then (a game over) the keys that only
# expire; ARGV[1] version, ARGV[2] the table, ARGV[3] the channel that tells the API
# processes, ARGV[4] what to tell them, ARGV[5] when every key expires (ms; 0: never),
# ARGV[6..] the read models' documents in KEYS order. Publishing here, only when written,
# spares a command after the write and keeps "views changed" from going out before the
# views; expiring here spares a command a key and leaves no moment without the expiry.
_WRITE_IF_NEWER = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'table', ARGV[2])
for i = 2, #ARGV - 4 do redis.call('SET', KEYS[i], ARGV[i + 4]) end
if ARGV[5] ~= '0' then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], ARGV[5]) end
end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
"""
# Known.indexed of a game a rebuild took out of every index (lobbies and live).
UNINDEXED = "unindexed"


def read_models(current, version):
    """Every read model of one game at one version, as {name: document}: the public
    summary, the spectator's view and one view per seat."""
    seats = [None, *range(len(current["seats"]))]
    return {"summary": table.summary(current, version), **table.views(current, version, seats)}


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
        self.sweep_step_seconds = SWEEP_STEP_SECONDS
        self.claim_idle_ms = CLAIM_IDLE_MS
        self.consumer_gone_ms = CONSUMER_GONE_MS
        self.claim_every = CLAIM_EVERY
        self._write = self.redis.register_script(_WRITE_IF_NEWER)
        self.players = PlayerModels(self.redis, self.keys)  # inboxes, players' names
        # The feed's reads, the tails and the writes: on a connection of its own, without
        # redis-py's layers (shared/link.py). A cluster keeps redis-py's path.
        self.link = None if isinstance(self.redis, RedisCluster) else Link(self.redis)
        self._spare = None  # a second link, while `link` waits for the feed (a sweep step)
        self.known = KnownGames()
        self._read_ahead = None  # the feed's next batch, read with a batch's writes

    def project(self, game_id):
        """Bring one game's read models up to its stream. Returns the version they show."""
        result = self._project_batch([game_id])[game_id]
        if isinstance(result, Exception):
            raise result
        return result

    def project_many(self, game_ids, acks=None):
        """Bring several games' read models up to their streams, as one batch. Returns
        {game_id: version shown}; a game that fails is logged and left out (one game
        must not hold up the others; the sweep tries it again). `acks`: the feed's
        notifications of the batch, acknowledged in the writes' round trip (`Acks`)."""
        game_ids = list(dict.fromkeys(game_ids))
        try:
            results = self._project_batch(game_ids, acks)
        except Exception as error:  # e.g. Redis unreachable: the whole batch failed
            results = dict.fromkeys(game_ids, error)
        versions = {}
        for game_id, result in results.items():
            if isinstance(result, Exception):
                log.error(
                    "could not project game %s; the sweep will try again",
                    game_id,
                    exc_info=result,
                )
            else:
                versions[game_id] = result
        return versions

    def _project_batch(self, game_ids, acks=None, known=None):
        """{game_id: version or the exception that stopped it}. `known`: each game's
        checkpoint when the caller knows it (a rebuild: none), not read nor checked."""
        with _no_cyclic_gc():  # the batch is freed on return, before it runs again
            return self._project(game_ids, acks, known)

    def _project(self, game_ids, acks, known=None):
        results = {}
        rebuilding, known = known, known or self._checkpoints(game_ids)
        tails, stale, hooks = self._tails(known)
        if stale:  # moved under us: forget what we knew, read them afresh
            for game_id in stale:
                self.known.forget(game_id)
            results.update(self._project(stale, None))
        fresh = {g: k for g, k in known.items() if g not in stale}
        folded = {}
        for game_id, was in fresh.items():
            tail = tails[game_id]
            if not tail:
                if was.version:
                    self.known.put(game_id, was)
                results[game_id] = was.version
                continue
            try:
                folded[game_id] = self._fold(game_id, was, tail, hooks.get(game_id, {}))
            except Exception as error:
                self.known.forget(game_id)
                results[game_id] = error
        self.players.render_named(folded, read_models)  # games seating players: named now
        # A rebuild's "lag" is the game's age, not a projection's delay: not observed.
        saved = self._save_all(folded, results, acks, lagged=rebuilding is None)
        try:
            self.players.after_save(saved, tell=rebuilding is None)
        except Exception:  # the inboxes catch up at the game's next projection
            log.exception("could not update the inboxes of %d games", len(saved))
        try:
            self._after_save(saved)
        except Exception:  # written, but not indexed: touch the indexes next time
            log.exception("could not update the lobby or live sets of %d games", len(saved))
            for game_id in saved:
                self.known.forget(game_id)
        for game_id, (was, tail, current, _) in saved.items():
            try:
                self.wake(game_id, current, tail.version, tail.last_at, was.table)
            except Exception:  # the sweep wakes it again
                log.exception("could not schedule what game %s waits for", game_id)
        return results

    def _checkpoints(self, game_ids):
        """What this projector knows of each game; the stored checkpoint (one round trip)
        for those it does not know."""
        known = {game_id: self.known.get(game_id) for game_id in game_ids}
        cold = [g for g, k in known.items() if k is None]
        if cold:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in cold:
                pipe.hmget(self.keys.checkpoint(game_id), ["version", "table"])
            for game_id, (version, raw) in zip(cold, pipe.execute(), strict=True):
                known[game_id] = (
                    Known(0, None) if version is None else Known(int(version), jsonutil.loads(raw))
                )
        return known

    def _tails(self, known):
        """Each game's records after the version known, the games whose stored
        checkpoint is not the one this projector remembers, and each game's active
        webhooks (one round trip)."""
        pipe = Batch(self._free_link()) if self.link else self.store.tails_pipeline()
        checked = [g for g in known if self.known.get(g) is known[g]]
        for game_id in checked:
            pipe.hget(self.keys.checkpoint(game_id), "version")
        for game_id, was in known.items():
            self.store.queue_read(pipe, game_id, after=was.version)
        read_hooks = self.notifier.queue_hooks(pipe, known) if self.notifier else None
        answers = pipe.execute(raise_on_error=False)
        for answer in answers[: len(checked) + len(known)]:
            if isinstance(answer, Exception):  # a webhook read's error is read_hooks'
                raise answer
        reads = answers[len(checked) : len(checked) + len(known)]
        stored = answers[: len(checked)]
        stale = [g for g, v in zip(checked, stored, strict=True) if int(v or 0) != known[g].version]
        hooks = read_hooks(answers[len(checked) + len(known) :]) if read_hooks else {}
        tails = {}
        for game_id, entries in zip(known, reads, strict=True):
            # A fold from nothing passes over the records (a rebuild: 2 events in 5);
            # the webhooks need every event.
            only_fold = known[game_id].table is None and not hooks.get(game_id)
            tails[game_id] = Tail.of(entries, table.RECORDS if only_fold else ())
        return tails, stale, hooks

    def _fold(self, game_id, was, tail, hooks):
        """(was, tail, the table after it, the checkpoint and read models as JSON)."""
        if self.notifier is not None and hooks:
            self.notifier.notify(game_id, was.table, tail.records(), hooks)
        # The tail's events are read by nobody after this: the fold may keep them.
        current = table.fold(tail.pairs, was.table, copy_events=False)
        version = tail.version
        if naming.player_ids(current):  # rendered once its players' names are read
            return was, tail, current, None
        models = read_models(current, version)
        docs = {name: jsonutil.dumps(document) for name, document in models.items()}
        return was, tail, current, (jsonutil.dumps(current), docs)

    def _write_args(self, game_id, version, documents, current=None, ended_at=None):
        """The write script's keys and arguments; with the game over at `ended_at` (ms),
        the expiry of its read models and webhook keys (`Retention.expires_at`)."""
        checkpoint, docs = documents
        keys = [self.keys.checkpoint(game_id)] + [
            self.keys.summary(game_id) if n == "summary" else self.keys.view(game_id, n)
            for n in docs
        ]
        expires_at = None if current is None else self.retention.expires_at(current, ended_at)
        if expires_at is not None:
            keys += self.retention.webhook_keys(self.keys, game_id)
        told = f"{game_id} {version}"  # what the API processes' watchers hear
        args = [version, checkpoint, self.keys.changes, told, expires_at or 0, *docs.values()]
        return keys, args

    def _save(self, game_id, current, version):
        """Write one game's read models and checkpoint, unless the stored checkpoint is
        as new already (no expiry: it does not know when the game ended). True when
        written."""
        models = read_models(self.players.named(current), version)
        docs = {name: jsonutil.dumps(document) for name, document in models.items()}
        keys, args = self._write_args(game_id, version, (jsonutil.dumps(current), docs))
        return self._write(keys=keys, args=args) == 1

    def _save_all(self, folded, results, acks=None, lagged=True):
        """Write every folded game (one round trip, or one a game on a cluster), and
        acknowledge `acks` after them; the games written, and each game's version (or
        error) in `results`. `lagged`: observe each write's projection lag."""
        writes = {}
        for game_id, (_, tail, current, documents) in folded.items():
            writes[game_id] = self._write_args(
                game_id, tail.version, documents, current, tail.last_at
            )
        answers = self._run_writes(writes, acks)
        saved = {}
        for game_id, answer in answers.items():
            was, tail, current, (checkpoint, _) = folded[game_id]
            version = tail.version
            if isinstance(answer, Exception):
                self.known.forget(game_id)
                results[game_id] = answer
            elif answer == 1:
                if lagged:
                    metrics.projected(time.time() - tail.first_at / 1000)
                if current["status"] in OVER:
                    self.known.forget(game_id)  # nothing more to come
                else:  # the table as a cold read would give it back (JSON's types)
                    table_now = jsonutil.loads(checkpoint)
                    self.known.put(game_id, Known(version, table_now, was.indexed, was.next_look))
                saved[game_id] = folded[game_id]
                results[game_id] = version
            else:  # refused: another projector got as far; read afresh next time
                self.known.forget(game_id)
                results[game_id] = version
        return saved

    def _run_writes(self, writes, acks=None):
        """{game_id: the write script's answer or its error}. The acknowledgements go
        in the same pipeline, after the writes (Redis runs a pipeline in order)."""
        if isinstance(self.redis, RedisCluster):  # its pipelines run no scripts
            return {g: _answer(self._write, keys, args) for g, (keys, args) in writes.items()}
        if not writes and not acks:
            return {}
        link = self._free_link()
        pipe = Batch(link)
        for keys, args in writes.values():
            pipe.evalsha(self._write.sha, len(keys), *keys, *args)
        if acks:  # the read ahead may wait for the feed only on the link `poll` reads
            acks.queue(pipe, ahead=bool(writes), wait=link is self.link)
        answered = pipe.execute(raise_on_error=False, leave_last=bool(acks and acks.waits))
        answers = dict(zip(writes, answered, strict=False))
        if acks:
            acks.sent = True
            acks.take(answered[len(writes) :])
        for game_id, answer in answers.items():
            if isinstance(answer, NoScriptError):  # Redis restarted: load it and go on
                answers[game_id] = _answer(self._write, *writes[game_id])
        return answers

    def _after_save(self, saved):
        """Keep the cross-game indexes in step (the write script told the API processes
        already). The lobby and the end of a game are touched only when a game's status
        is not the one this projector last put there; the sweep's next look at a game
        is pushed out (one ZADD for the batch) only when it is less than half the
        sweep's interval away, so a move rarely costs a round trip here."""
        if not saved:
            return
        pipe = self.redis.pipeline(transaction=False)
        live = {}
        now = _now_ms()
        for game_id, (was, tail, current, _) in saved.items():
            status = current["status"]
            unindexed = was.indexed == UNINDEXED  # in no index: nothing to take out
            if status in OVER:  # (its expiry went with the write)
                if not unindexed:
                    pipe.zrem(self.keys.live, game_id)
            elif was.next_look - now < self.sweep_ms // 2:  # just looked at: the sweep may wait
                live[game_id] = now + self.sweep_ms
            if status == was.indexed or (unindexed and status != "waiting"):
                continue
            for lobby in (self.keys.lobby, self.keys.lobby_of(current["game"])):
                if status == "waiting":
                    pipe.zadd(lobby, {game_id: tail.first_at}, nx=True)
                else:
                    pipe.zrem(lobby, game_id)
        if live:
            pipe.zadd(self.keys.live, live)
        if len(pipe):
            pipe.execute()
        for game_id, (was, tail, current, _) in saved.items():
            if current["status"] in OVER:
                continue  # forgotten when written
            known = self.known.get(game_id)
            if known is not None and known.version == tail.version:
                next_look = live.get(game_id, was.next_look)
                self.known.put(
                    game_id, Known(known.version, known.table, current["status"], next_look)
                )

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
        projected = self.project_many(game_ids)
        for game_id in projected:
            try:
                self._look_at(game_id, now)
            except Exception:
                log.exception("could not sweep game %s; the next sweep will try again", game_id)
        return len(game_ids)

    def _look_at(self, game_id, now):
        """After projecting a game: wake what it waits for (repairs a lost notification
        or a job lost in a crash: a duplicate job is a no-op), or call it off when it
        is abandoned."""
        known = self.known.get(game_id)  # just checked against the stored checkpoint
        if known is not None and known.table is not None:
            version, current = known.version, known.table
        else:
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
        `progress` wraps the game ids (a progress bar). Returns how many games."""
        game_ids = self.forget_read_models()
        batch = []
        for game_id in progress(game_ids):
            batch.append(game_id)
            if len(batch) == REBUILD_BATCH:
                self.rebuild_batch(batch)
                batch = []
        self.rebuild_batch(batch)
        return len(game_ids)

    def forget_read_models(self):
        """A rebuild's first step: delete every checkpoint and the lobby and live
        indexes. Returns the ids of every game, whose read models are to be rebuilt."""
        game_ids = self.store.game_ids()
        pipe = self.redis.pipeline(transaction=False)
        lobbies = [self.keys.lobby, *map(self.keys.lobby_of, games.NAMES)]
        indexes = [*lobbies, self.keys.live, self.keys.old_live]
        for key in [*indexes, *map(self.keys.checkpoint, game_ids)]:
            pipe.delete(key)  # one key a command: they live on different cluster slots
        pipe.execute()
        self.players.forget_read_models()
        self.known.clear()
        return game_ids

    def rebuild_batch(self, game_ids):
        """Project a batch of games whose checkpoints and indexes a rebuild deleted
        (`forget_read_models`); the first game that failed stops the rebuild."""
        if not game_ids:
            return
        # No checkpoint now (none to read or check), and in no index.
        known = dict.fromkeys(game_ids, Known(0, None, UNINDEXED))
        for result in self._project_batch(game_ids, known=known).values():
            if isinstance(result, Exception):
                raise result

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
        """Read one batch of notifications, project the games they name (each once,
        whichever feeds name it), acknowledge them. Returns how many notifications were
        handled. `block_ms` None or 0: do not wait for notifications. While the feed
        keeps it busy, the next batch comes in the previous batch's writes' round trip
        (read ahead), not a round trip of its own; and while it does not, that read ahead
        waits for the next notification (at most a sweep step) and this poll takes its
        answer: a batch costs two round trips, not three."""
        if self.link is not None and self.link.pending:
            waited = self._waited()
            if waited:  # else its wait ran out: read the feed as now (it may hold some)
                return self._handle(waited, None if pending else count, block_ms)
        ahead, self._read_ahead = self._read_ahead, None
        if ahead and not pending:
            return self._handle(ahead, count, block_ms)
        start = "0" if pending else ">"
        read = Batch(self.link) if self.link else self.redis
        answer = read.xreadgroup(
            GROUP,
            self.consumer,
            {feed: start for feed in self._feeds()},
            count=count,
            block=None if pending or not block_ms else block_ms,
        )
        batches = stream_reads(answer.execute()[0]) if self.link else answer
        return self._handle(batches or [], None if pending else count, block_ms)

    def _waited(self):
        """The feed's batch the last writes' round trip waited for ([] if none came)."""
        answer = self.link.pending_answer()
        if isinstance(answer, Exception):
            raise answer
        return stream_reads(answer)

    def _free_link(self):
        """The link, or while it waits for the feed, the spare (sweeps, claims)."""
        if not self.link.pending:
            return self.link
        if self._spare is None:
            self._spare = Link(self.redis)
        return self._spare

    def _handle(self, batches, read_ahead=None, block_ms=None):
        """Project the games that [(feed, entries)] of notifications name, then
        acknowledge them (in the writes' round trip when it goes, with a read of the
        feed's next `read_ahead` notifications if given, which waits for them up to
        `block_ms` or a sweep step, whichever is shorter). An entry trimmed from the
        feed comes without fields (and, from XAUTOCLAIM on Redis 6.2, without an id)."""
        named = [fields[b"g"].decode() for _, entries in batches for _, fields in entries if fields]
        acks = Acks(batches)
        if read_ahead:
            wait = min(block_ms, int(self.sweep_step_seconds * 1000)) if block_ms else None
            streams = {feed: ">" for feed in self._feeds()}
            acks.read_ahead = (self.consumer, streams, read_ahead, wait or None)
        if named:
            self.project_many(named, acks)
            self._read_ahead = acks.ahead
        if not acks.sent:  # nothing was written, or the writes' round trip failed
            pipe = self.redis.pipeline(transaction=False)
            acks.queue(pipe)
            if len(pipe):
                pipe.execute()
            acks.sent = True
        return sum(len(entries) for _, entries in batches)

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
                handled += self._handle([(feed, answer[1])])
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

    def run(self, stop=lambda: False, block_ms=1000):
        """Follow the feed until `stop()` is true: first what this consumer left
        unacknowledged and what dead projectors left, then new notifications, with
        one bounded step of the sweep after a read (at most every sweep_step_seconds
        while the feed keeps it busy), so projection never waits for more than a step
        (while steps are full, the feed is read without waiting)."""
        self.join_group()
        self.migrate_live()
        while self.poll(pending=True):
            pass
        self.claim_orphans()
        last_claim = time.monotonic()
        more_due = False
        next_step = 0.0
        while not stop():
            try:
                self.poll(block_ms=0 if more_due else block_ms)
                if more_due or time.monotonic() >= next_step:  # not a round trip a batch
                    more_due = self.sweep_due() >= self.sweep_batch
                    next_step = time.monotonic() + self.sweep_step_seconds
                if time.monotonic() - last_claim > self.claim_every:
                    self.claim_orphans()
                    last_claim = time.monotonic()
            except Exception:  # one bad game must not stop every other game's views
                log.exception("projection failed; retrying")
                time.sleep(0.5)
        try:  # read, so pending on this consumer: project it now, not after a claim
            ahead, self._read_ahead = self._read_ahead, None
            if self.link is not None and self.link.pending:
                ahead = self._waited()
            if ahead:
                self._handle(ahead)
        except Exception:  # left pending: another projector claims it, the sweep repairs
            log.exception("could not project what was read ahead before stopping")


class Acks:
    """The feed entries of one read, to acknowledge once their games are written; and,
    when `read_ahead` is set ((consumer, streams, count, wait ms or None)), a read of
    the next batch to send along (`ahead`: its answer, None if not read; `waits`: it
    may wait, and its answer is left on the link for `poll`)."""

    def __init__(self, batches):
        self.ids = {}
        for feed, entries in batches:
            ids = [entry_id for entry_id, _ in entries if entry_id is not None]
            if ids:
                self.ids[feed] = ids
        self.sent = False
        self.read_ahead = None
        self.ahead = None
        self._reading = False
        self.waits = False

    def queue(self, pipe, ahead=False, wait=False):
        """Queue the XACKs on `pipe`, after whatever is queued there already, and the
        read ahead if asked for (`ahead`) and set; with `wait`, one that may wait."""
        for feed, ids in self.ids.items():
            pipe.xack(feed, GROUP, *ids)
        self._reading = bool(ahead and self.read_ahead)
        if self._reading:
            consumer, streams, count, block = self.read_ahead
            self.waits = bool(wait and block)
            pipe.xreadgroup(GROUP, consumer, streams, count=count, block=block if wait else None)

    def take(self, answers):
        """The answers of what `queue` queued (the read ahead's, unless it waits)."""
        if self._reading and not self.waits and not isinstance(answers[-1], Exception):
            self.ahead = stream_reads(answers[-1]) or None


@contextmanager
def _no_cyclic_gc():
    """A batch's streams, parsed, are tens of thousands of lists and dicts alive till
    the batch is done: Python's cyclic garbage collector would walk them again and again
    (half the CPU of a rebuild's reads). They hold no reference cycles: it waits."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _answer(script, keys, args):
    """A script's answer, or the error it raised (one game's write among a batch's)."""
    try:
        return script(keys=keys, args=args)
    except Exception as error:
        return error


def _now_ms():
    return int(time.time() * 1000)
