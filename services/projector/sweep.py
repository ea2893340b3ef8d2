"""The sweep: a safety net under the feed, one bounded step at a time.

Every game not yet over is in the live set, scored by when the sweep next looks at it.
A look projects the game (repairing a lost notification), wakes what it waits for
(repairing a job lost in a crash: a duplicate job is a no-op), expires its read models
if it is over (repairing a crash between a write and its indexes), and calls it off
when it is abandoned (`Expiry`).
"""

import logging
from dataclasses import dataclass

from services.projector import indexes
from services.projector.retention import OVER
from shared import checkpoint, table
from shared.config import Config

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Expiry:
    """When an abandoned game is called off (a game_expired event): waiting with no seat
    claimed for `waiting_seconds`, active with nobody acting for `idle_seconds`."""

    waiting_seconds: int = Config.waiting_expires_after
    idle_seconds: int = Config.idle_expires_after

    def reason(self, current, last_at, now_ms):
        """Why the game expires now (table.EXPIRY_REASONS), or None."""
        limit = {"waiting": self.waiting_seconds, "active": self.idle_seconds}
        seconds = limit.get(current["status"])
        if seconds is None or now_ms - last_at < seconds * 1000:
            return None
        return table.EXPIRY_REASONS[current["status"]]


class Sweep:
    """The sweep of one `projector` (its settings `sweep_ms` and `sweep_batch`, its
    `expiry` and `retention`)."""

    def __init__(self, projector):
        self.projector = projector
        self.redis = projector.redis
        self.keys = projector.keys

    def due(self):
        """One step: look at the (at most sweep_batch) games whose next look is due.
        Returns how many it looked at; a full batch means more are due."""
        due = self.redis.zrangebyscore(
            self.keys.live, "-inf", indexes.now_ms(), start=0, num=self.projector.sweep_batch
        )
        return self._sweep([raw.decode() for raw in due])

    def everything(self):
        """Look at every game not yet over now, whenever its next look was due (for
        operators and tests; the run loop sweeps step by step)."""
        return self._sweep([raw.decode() for raw in self.redis.zrange(self.keys.live, 0, -1)])

    def _sweep(self, game_ids):
        if not game_ids:
            return 0
        now = indexes.now_ms()
        # Push their next look out first, so that another projector skips them.
        later = now + self.projector.sweep_ms
        self.redis.zadd(self.keys.live, dict.fromkeys(game_ids, later), xx=True)
        projected = self.projector.project_many(game_ids)
        for game_id in projected:
            try:
                self._look_at(game_id, now)
            except Exception:
                log.exception("could not sweep game %s; the next sweep will try again", game_id)
        return len(game_ids)

    def _look_at(self, game_id, now):
        """After projecting a game: wake what it waits for, expire its read models if
        it is over, or call it off when it is abandoned."""
        p = self.projector
        known = p.known.get(game_id)  # just checked against the stored checkpoint
        if known is not None and known.table is not None:
            version, current = known.version, known.table
        else:
            version, current = checkpoint.read(self.redis, self.keys, game_id)
        if current is None:
            return
        last = p.store.read(game_id, after=version - 1)
        if current["status"] in OVER:
            pipe = self.redis.pipeline(transaction=False)
            pipe.zrem(self.keys.live, game_id)
            ended_at = last[-1].at if last else now
            p.retention.expire_if_over(pipe, self.keys, game_id, current, ended_at)
            pipe.execute()
            return
        reason = p.expiry.reason(current, last[-1].at, now) if last else None
        if reason:
            p.waits.scheduler.expire_game(game_id, version, reason)
        else:
            p.waits.wake(game_id, current, version, now)
