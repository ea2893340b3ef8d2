"""Waiting for a game to move, across processes.

The projector publishes "<game_id> <version>" on one Redis channel once a game's read
models are current. Each API process holds one subscription to it (a background
thread, a greenlet under gevent) and wakes the requests of that process that wait on
the game: a long-poll or an event stream. Whichever process took the move, every
process hears of it; no process keeps state another must see.
"""

import logging
import threading
import time

log = logging.getLogger(__name__)


class Watcher:
    def __init__(self, redis, channel):
        self.redis = redis
        self.channel = channel
        self._waiters = {}  # game_id -> {threading.Event: version to pass}
        self._lock = threading.Lock()
        self._started = False

    def _start(self):
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._listen, name="watcher", daemon=True).start()

    def wait(self, game_id, after, timeout, version_now):
        """Block until `version_now()` passes `after` (True) or `timeout` seconds pass
        (False). The version is read after registering, and again after every wake-up,
        so neither a move in between nor a spurious wake-up can fool the caller."""
        self._start()
        event = threading.Event()
        with self._lock:
            self._waiters.setdefault(game_id, {})[event] = after
        deadline = time.monotonic() + timeout
        try:
            while version_now() <= after:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                event.wait(remaining)
                event.clear()
            return True
        finally:
            with self._lock:
                waiting = self._waiters.get(game_id, {})
                waiting.pop(event, None)
                if not waiting:
                    self._waiters.pop(game_id, None)

    def _wake(self, game_id, version):
        with self._lock:
            for event, after in self._waiters.get(game_id, {}).items():
                if version is None or version > after:
                    event.set()

    def _wake_everyone(self):
        with self._lock:
            games = list(self._waiters)
        for game_id in games:
            self._wake(game_id, None)

    def _listen(self):
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                # Moves made while we were not subscribed: let every waiter look again.
                self._wake_everyone()
                for message in pubsub.listen():
                    if message["type"] == "message":
                        game_id, _, version = message["data"].decode().partition(" ")
                        self._wake(game_id, int(version))
            except Exception:
                log.exception("lost the change subscription; subscribing again")
                time.sleep(1)
