"""Waiting for a game to move, across processes.

The projector publishes "<game_id> <version>" on one Redis channel once a game's read
models are current. Each API process holds one subscription to it (a background
thread, a greenlet under gevent) and wakes the requests of that process that wait on
the game: a long-poll or an event stream. Whichever process took the move, every
process hears of it; no process keeps state another must see. The process that took
it also tells its own WebSocket subscriptions at once, with the move in hand (`tell`).
"""

import logging
import threading
import time
from contextlib import contextmanager

log = logging.getLogger(__name__)


class Move:
    """A move made through this process (a command over REST or a WebSocket): the
    version it reached, its records and the table after them (GameService.command's
    answer). `frames` holds what its followers made of it for a seat, so that the
    sockets of one seat, or the spectators, share one view and one redaction."""

    __slots__ = ("version", "records", "table", "frames")

    def __init__(self, version, records, table):
        self.version = version
        self.records = records
        self.table = table
        self.frames = {}  # seat (None: a spectator) -> what a push of this move sends


QUIET_FOR = 10.0  # seconds without Redis before a lost subscription is a warning
CHECK_EVERY = 1.0  # seconds between looks at whether a waiting client went away


class Watcher:
    """Waiters on games, woken by the projector's "<game_id> <version>" messages on
    `channel`. With `pattern` (a channel name ending in "*"), waiters on the keys the
    pattern's star stands for (players' ids), woken by "<version>" messages on each
    key's own channel: the players' inboxes (keys.player_channel)."""

    def __init__(self, redis, channel, pattern=False):
        self.redis = redis
        self.channel = channel
        self.pattern = pattern
        self._waiters = {}  # game_id -> {_Waiter}
        self._followers = {}  # game_id -> {callback(version)}: WebSocket subscriptions
        self._lock = threading.Lock()
        self._started = False

    def _start(self):
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._listen, name="watcher", daemon=True).start()

    def wait(self, game_id, after, timeout, version_now, gone=None):
        """Block until the game's version passes `after` (True) or `timeout` seconds pass
        (False). `version_now()` is read after registering, so a move in between is not
        missed, and again after a wake-up that named no version (a resubscription); a
        published version that passes `after` is trusted without another read, so a
        thousand waiters on one game cost Redis nothing more when it moves. `gone()`:
        whether the waiting client went away (then False at once)."""
        with self.watching(game_id, after) as waiter:
            return waiter.wait(timeout, version_now, gone=gone)

    @contextmanager
    def watching(self, game_id, after):
        """A waiter on the game, registered for as long as the block lasts: a read made
        inside it, before `waiter.wait`, misses no move (see wait)."""
        self._start()
        waiter = _Waiter(after)
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            with self._lock:
                waiting = self._waiters.get(game_id, set())
                waiting.discard(waiter)
                if not waiting:
                    self._waiters.pop(game_id, None)

    def follow(self, game_id, callback):
        """Call `callback(version)` each time the game moves (version None: it may have
        moved while the subscription was lost; look again), until `unfollow`; and
        `callback(version, move)` for a move made in this process (`tell`). It runs on
        the listener's thread or the mover's: it must only take note and return."""
        self._start()
        with self._lock:
            self._followers.setdefault(game_id, set()).add(callback)

    def tell(self, game_id, move, besides=None):
        """Tell the game's followers in this process, but `besides`, of a `Move` made
        here, before any projector has written it: `callback(move.version, move)`. They
        hear of it again from the projector's notification, as every process does."""
        with self._lock:
            followers = [c for c in self._followers.get(game_id, ()) if c is not besides]
        for callback in followers:
            try:
                callback(move.version, move)
            except Exception:  # as _wake: the mover's answer does not wait on a follower
                log.exception("a follower of %s failed", game_id)

    def unfollow(self, game_id, callback):
        with self._lock:
            following = self._followers.get(game_id, set())
            following.discard(callback)
            if not following:
                self._followers.pop(game_id, None)

    def _wake(self, game_id, version):
        """Wake the game's waiters: those whose version `version` passes, or all of them
        to look again when `version` is None; and tell its followers."""
        with self._lock:
            for waiter in self._waiters.get(game_id, ()):
                if version is None or version > waiter.after:
                    waiter.passed = version is not None
                    waiter.event.set()
            followers = list(self._followers.get(game_id, ()))
        for callback in followers:
            try:
                callback(version)
            except Exception:  # one broken follower must not stop the others' pushes
                log.exception("a follower of %s failed", game_id)

    def _wake_everyone(self):
        with self._lock:
            games = set(self._waiters) | set(self._followers)
        for game_id in games:
            self._wake(game_id, None)

    def _listen(self):
        import redis  # here: gunicorn's master imports this module before gevent patches

        lost_since = None  # when Redis went away, while it stays away
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                if self.pattern:
                    pubsub.psubscribe(self.channel)
                else:
                    pubsub.subscribe(self.channel)
                # Moves made while we were not subscribed: let every waiter look again.
                self._wake_everyone()
                if lost_since is not None:
                    log.info("subscribed to changes again")
                    lost_since = None
                for message in pubsub.listen():
                    if message["type"] == "message":
                        game_id, _, version = message["data"].decode().partition(" ")
                        self._wake(game_id, int(version))
                    elif message["type"] == "pmessage":
                        key = message["channel"].decode()[len(self.channel) - 1 :]
                        self._wake(key, int(message["data"]))
            except redis.ConnectionError as error:
                # Redis restarting, or this process ending: a line once it has lasted
                # QUIET_FOR seconds, not a traceback a second.
                now = time.monotonic()
                if lost_since is None:
                    log.info("lost the change subscription (%s); subscribing again", error)
                    lost_since, warned = now, False
                elif now - lost_since >= QUIET_FOR and not warned:
                    log.warning("no change subscription for %.0f s: %s", now - lost_since, error)
                    warned = True
                time.sleep(1)
            except Exception:
                log.exception("lost the change subscription; subscribing again")
                time.sleep(1)
            finally:
                pubsub.close()  # give its connection back to the pool


class _Waiter:
    """One waiting request: the version it waits to see passed, and its wake-up."""

    def __init__(self, after):
        self.after = after
        self.passed = False
        self.event = threading.Event()

    def wait(self, timeout, version_now, version=None, gone=None):
        """True once the version passes `after`, False after `timeout` seconds.
        `version`: the version read since registering, if the caller has it;
        `version_now()` is asked otherwise, and after a wake-up that named none.
        `gone()`, asked every CHECK_EVERY seconds: whether the client went away, which
        ends the wait (False) so that it gives its place back."""
        deadline = time.monotonic() + timeout
        if version is None:
            version = version_now()
        while not self.passed and version <= self.after:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (gone is not None and gone()):
                return False
            self.event.wait(remaining if gone is None else min(remaining, CHECK_EVERY))
            self.event.clear()
            if not self.passed:
                version = version_now()
        return True
