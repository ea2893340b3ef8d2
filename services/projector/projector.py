"""The projector: game streams in, read models out.

Per game it keeps a checkpoint (shared/checkpoint.py: the version its read models were
built from, and the table at that version), so projecting is: read the stream after the
checkpoint, fold, write every read model and the new checkpoint (`models.py`).

It works a batch of games at a time (a read of the feed, a sweep step, a rebuild chunk):
each game named once, folded once over everything new in its stream, with the batch's
reads (tails, stored versions, webhooks) in one round trip and its writes in another
(one by one on a Redis Cluster, whose pipelines run no scripts). The writes' round trip
also tells the API processes (PUBLISH, from the write script), acknowledges the batch's
notifications and reads the feed's next batch. It remembers the checkpoints it wrote
(`known.py`) and checks each against the stored version in the same round trip as the
stream's tail.

Its parts, one job each: `models` (the fold and the write), `indexes` (lobbies and the
live set), `waits` (bots, timers and webhooks a game now waits for), `feed` (the
consumer group: acks, read ahead, claims, the run loop), `sweep` (the safety net and
expiry; `retention` for games over) and `rebuild`.
"""

import gc
import logging
import os
import socket
import time
from contextlib import contextmanager

from redis.cluster import RedisCluster

from services.ops import metrics
from services.projector import indexes, models
from services.projector import rebuild as rebuilding
from services.projector.feed import Feed
from services.projector.known import Known, KnownGames
from services.projector.players import PlayerModels
from services.projector.ratings import RatingModels
from services.projector.retention import OVER, Retention
from services.projector.sweep import Expiry, Sweep
from services.projector.waits import Waits
from shared import checkpoint, jsonutil, table
from shared.link import Batch, Link
from shared.players import naming
from shared.store import Tail

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30  # how long a game goes unlooked at by the sweep, at most
SWEEP_BATCH = 50  # games one sweep step looks at, between two reads of the feed
SWEEP_STEP_SECONDS = 0.1  # a busy projector's sweep steps, at most this often (unless behind)
CLAIM_IDLE_MS = 30_000  # a notification unacknowledged this long: its projector died
CONSUMER_GONE_MS = 300_000  # a consumer silent this long, with nothing pending, is gone
CLAIM_EVERY = 10.0  # seconds between two looks for what dead projectors left


class Projector:
    """Projects batches of games; `run` follows the feed and sweeps. `scheduler` (bots
    and timers) and `notifier` (webhooks) hear what each game now waits for."""

    def __init__(
        self,
        store,
        scheduler=None,
        consumer=None,
        expiry=None,
        notifier=None,
        retention=None,
        rate_bots=False,
    ):
        self.store = store
        self.redis = store.redis
        self.keys = store.keys
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.expiry = expiry or Expiry()
        self.retention = retention or Retention()
        self.sweep_ms = SWEEP_SECONDS * 1000
        self.sweep_batch = SWEEP_BATCH
        self.sweep_step_seconds = SWEEP_STEP_SECONDS
        self.claim_idle_ms = CLAIM_IDLE_MS
        self.consumer_gone_ms = CONSUMER_GONE_MS
        self.claim_every = CLAIM_EVERY
        self.writer = models.Writer(self.redis, self.keys, self.retention)
        self.players = PlayerModels(self.redis, self.keys, notifier)  # inboxes, names, hooks
        self.ratings = RatingModels(self.redis, self.keys, rate_bots)  # RATE_BOT_GAMES
        self.waits = Waits(scheduler, notifier)
        # The feed's reads, the tails and the writes: on a connection of its own, without
        # redis-py's layers (shared/link.py). A cluster keeps redis-py's path.
        self.link = None if isinstance(self.redis, RedisCluster) else Link(self.redis)
        self._spare = None  # a second link, while `link` waits for the feed (a sweep step)
        self.known = KnownGames()
        self.feed = Feed(self)
        self.sweeper = Sweep(self)

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
        notifications of the batch, acknowledged in the writes' round trip (`feed.Acks`)."""
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

    def project_known(self, known):
        """{game_id: version or the exception that stopped it} for games whose
        checkpoint the caller knows ({game_id: Known}; a rebuild: none), not read nor
        checked, and whose lag is not a projection's delay."""
        return self._project_batch(list(known), known=known)

    def _project_batch(self, game_ids, acks=None, known=None):
        """{game_id: version or the exception that stopped it}."""
        with _no_cyclic_gc():  # the batch is freed on return, before it runs again
            return self._project(game_ids, acks, known)

    def _project(self, game_ids, acks, known=None):
        results = {}
        rebuilding_, known = known, known or self._checkpoints(game_ids)
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
        # A rebuild's "lag" is the game's age, not a projection's delay: not observed.
        self.players.render_named(folded)  # the games seating players: named now
        saved = self._save_all(folded, results, acks, lagged=rebuilding_ is None)
        try:
            self.players.after_save(saved, tell=rebuilding_ is None)
        except Exception:  # the inboxes catch up at the game's next projection
            log.exception("could not update the inboxes of %d games", len(saved))
        try:
            self.ratings.after_save(saved, rebuilding=rebuilding_ is not None)
        except Exception:  # a rebuild folds them again
            log.exception("could not rate the games among %d", len(saved))
        try:
            indexes.update(self.redis, self.keys, self.known, saved, self.sweep_ms)
        except Exception:  # written, but not indexed: touch the indexes next time
            log.exception("could not update the lobby or live sets of %d games", len(saved))
            for game_id in saved:
                self.known.forget(game_id)
        for game_id, (was, tail, current, _) in saved.items():
            try:
                self.waits.wake(game_id, current, tail.version, tail.last_at, was.table)
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
                checkpoint.queue_read(pipe, self.keys, game_id)
            for game_id, answer in zip(cold, pipe.execute(), strict=True):
                known[game_id] = Known(*checkpoint.parse(answer))
        return known

    def _tails(self, known):
        """Each game's records after the version known, the games whose stored
        checkpoint is not the one this projector remembers, and each game's active
        webhooks (one round trip)."""
        pipe = Batch(self._free_link()) if self.link else self.store.tails_pipeline()
        checked = [g for g in known if self.known.get(g) is known[g]]
        for game_id in checked:
            checkpoint.queue_version(pipe, self.keys, game_id)
        for game_id, was in known.items():
            self.store.queue_read(pipe, game_id, after=was.version)
        read_hooks = self.waits.queue_hooks(pipe, known)
        answers = pipe.execute(raise_on_error=False)
        for answer in answers[: len(checked) + len(known)]:
            if isinstance(answer, Exception):  # a webhook read's error is read_hooks'
                raise answer
        reads = answers[len(checked) : len(checked) + len(known)]
        stored = answers[: len(checked)]
        stale = [
            g
            for g, v in zip(checked, stored, strict=True)
            if checkpoint.parse_version(v) != known[g].version
        ]
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
        self.waits.tell_webhooks(game_id, was.table, tail, hooks)
        current, documents = models.fold(tail, was.table)
        return was, tail, current, documents

    def _save(self, game_id, current, version):
        """Write one game's read models and checkpoint unless the stored ones are as
        new (`models.Writer.save`). True when written."""
        names = self.players.names(naming.player_ids(current))
        return self.writer.save(game_id, current, version, names)

    def _save_all(self, folded, results, acks=None, lagged=True):
        """Write every folded game (one round trip, or one a game on a cluster), and
        acknowledge `acks` after them; the games written, and each game's version (or
        error) in `results`. `lagged`: observe each write's projection lag."""
        writes = {}
        for game_id, (_, tail, current, documents) in folded.items():
            writes[game_id] = self.writer.args(
                game_id, tail.version, documents, current, tail.last_at
            )
        link = self._free_link() if self.link and (writes or acks) else None
        answers = self.writer.write(writes, link, acks, waits_on=self.link)
        saved = {}
        for game_id, answer in answers.items():
            was, tail, current, (checkpoint_table, _) = folded[game_id]
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
                    table_now = jsonutil.loads(checkpoint_table)
                    self.known.put(game_id, Known(version, table_now, was.indexed, was.next_look))
                saved[game_id] = folded[game_id]
                results[game_id] = version
            else:  # refused: another projector got as far; read afresh next time
                self.known.forget(game_id)
                results[game_id] = version
        return saved

    def _free_link(self):
        """The link, or while it waits for the feed, the spare (sweeps, claims)."""
        if not self.link.pending:
            return self.link
        if self._spare is None:
            self._spare = Link(self.redis)
        return self._spare

    # What a process runs: the feed, the sweep, a rebuild (each its own module).

    def run(self, stop=lambda: False, block_ms=1000):
        """Follow the feed until `stop()` is true: first what this consumer left
        unacknowledged and what dead projectors left, then new notifications, with
        one bounded step of the sweep after a read (at most every sweep_step_seconds
        while the feed keeps it busy), so projection never waits for more than a step
        (while steps are full, the feed is read without waiting)."""
        self.join_group()
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
        try:
            self.feed.finish()
        except Exception:  # left pending: another projector claims it, the sweep repairs
            log.exception("could not project what was read ahead before stopping")

    def join_group(self):
        """Join the feed's consumer group (`Feed.join_group`)."""
        self.feed.join_group()

    def poll(self, block_ms=1000, count=200, pending=False):
        """Read and handle one batch of the feed (`Feed.poll`)."""
        return self.feed.poll(block_ms, count, pending)

    def claim_orphans(self):
        """Take over what dead projectors left (`Feed.claim_orphans`)."""
        return self.feed.claim_orphans()

    def sweep_due(self):
        """One step of the sweep (`Sweep.due`)."""
        return self.sweeper.due()

    def sweep(self):
        """Look at every game not yet over now (`Sweep.everything`)."""
        return self.sweeper.everything()

    def rebuild(self, progress=iter):
        """Every read model again from the streams (`rebuild.rebuild`)."""
        return rebuilding.rebuild(self, progress)

    def forget_read_models(self):
        """A rebuild's first step (`rebuild.forget_read_models`)."""
        return rebuilding.forget_read_models(self)

    def rebuild_batch(self, game_ids):
        """A batch of a rebuild (`rebuild.rebuild_batch`)."""
        rebuilding.rebuild_batch(self, game_ids)


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
