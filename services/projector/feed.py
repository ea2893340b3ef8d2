"""The feed: consumer groups over the feed's partitions, so many projectors share the
work. A batch of notifications is read, its games projected (each once, whichever
notifications name it), and the notifications acknowledged in the writes' round trip,
with the read of the next batch (read ahead): a projector kept busy by the feed spends
two round trips a batch. What a dead projector left unacknowledged is claimed.
"""

import logging

from redis.exceptions import ResponseError

from shared.keys import GROUP
from shared.link import Batch, stream_reads

log = logging.getLogger(__name__)


class Feed:
    """The feed as one `projector` follows it (its `link`, `consumer` and settings
    `sweep_step_seconds`, `claim_idle_ms`, `consumer_gone_ms`, `claim_every`)."""

    def __init__(self, projector):
        self.projector = projector
        self.redis = projector.redis
        self.feeds = [projector.keys.feed(p) for p in range(projector.store.partitions)]
        self.read_ahead = None  # the next batch, read with a batch's writes

    def join_group(self):
        for feed in self.feeds:
            try:
                self.redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
            except ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def poll(self, block_ms=1000, count=200, pending=False):
        """Read one batch of notifications, project the games they name, acknowledge
        them. Returns how many notifications were handled. `block_ms` None or 0: do not
        wait for notifications. While the feed keeps it busy, the next batch comes in
        the previous batch's writes' round trip (read ahead), not a round trip of its
        own; and while it does not, that read ahead waits for the next notification (at
        most a sweep step) and this poll takes its answer: a batch costs two round
        trips, not three."""
        link = self.projector.link
        if link is not None and link.pending:
            waited = self._waited()
            if waited:  # else its wait ran out: read the feed as now (it may hold some)
                return self.handle(waited, None if pending else count, block_ms)
        ahead, self.read_ahead = self.read_ahead, None
        if ahead and not pending:
            return self.handle(ahead, count, block_ms)
        start = "0" if pending else ">"
        read = Batch(link) if link else self.redis
        answer = read.xreadgroup(
            GROUP,
            self.projector.consumer,
            dict.fromkeys(self.feeds, start),
            count=count,
            block=None if pending or not block_ms else block_ms,
        )
        batches = stream_reads(answer.execute()[0]) if link else answer
        return self.handle(batches or [], None if pending else count, block_ms)

    def _waited(self):
        """The feed's batch the last writes' round trip waited for ([] if none came)."""
        answer = self.projector.link.pending_answer()
        if isinstance(answer, Exception):
            raise answer
        return stream_reads(answer)

    def handle(self, batches, read_ahead=None, block_ms=None):
        """Project the games that [(feed, entries)] of notifications name, then
        acknowledge them (in the writes' round trip when it goes, with a read of the
        feed's next `read_ahead` notifications if given, which waits for them up to
        `block_ms` or a sweep step, whichever is shorter). An entry trimmed from the
        feed comes without fields (and, from XAUTOCLAIM on Redis 6.2, without an id)."""
        p = self.projector
        named = [fields[b"g"].decode() for _, entries in batches for _, fields in entries if fields]
        acks = Acks(batches)
        if read_ahead:
            wait = min(block_ms, int(p.sweep_step_seconds * 1000)) if block_ms else None
            acks.read_ahead = (p.consumer, dict.fromkeys(self.feeds, ">"), read_ahead, wait or None)
        if named:
            p.project_many(named, acks)
            self.read_ahead = acks.ahead
        renamed = [
            fields[b"g"].decode()
            for _, entries in batches
            for _, fields in entries
            if fields and fields.get(b"names")
        ]
        if renamed:  # a player renamed or erased: its games' read models again
            try:
                p.players.refresh(renamed, p.writer)
            except Exception:  # the notification is acknowledged: the next move names them
                log.exception("could not name the players of %d games again", len(renamed))
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
        p = self.projector
        handled = 0
        for feed in self.feeds:
            start = "0-0"
            while True:
                answer = self.redis.xautoclaim(
                    feed, GROUP, p.consumer, p.claim_idle_ms, start_id=start, count=200
                )
                handled += self.handle([(feed, answer[1])])
                start = answer[0]
                if start in (b"0-0", "0-0"):
                    break
            self._forget_gone_consumers(feed)
        return handled

    def _forget_gone_consumers(self, feed):
        p = self.projector
        for consumer in self.redis.xinfo_consumers(feed, GROUP):
            name = consumer["name"]
            name = name.decode() if isinstance(name, bytes) else name
            gone = consumer["pending"] == 0 and consumer["idle"] >= p.consumer_gone_ms
            if gone and name != p.consumer:
                self.redis.xgroup_delconsumer(feed, GROUP, name)

    def finish(self):
        """Project what was read ahead, when the loop stops: read, so pending on this
        consumer, whose name dies with the process; left there, it would wait for
        another projector's claim or the sweep."""
        ahead, self.read_ahead = self.read_ahead, None
        if self.projector.link is not None and self.projector.link.pending:
            ahead = self._waited()
        if ahead:
            self.handle(ahead)


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
