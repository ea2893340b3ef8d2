"""The RQ workers' clock (the bot and timer workers', the webhook workers'): moves
jobs whose time has come (turn timers, table timers, bot reactions, webhook retries)
from RQ's scheduled registry onto their queue.

RQ's own scheduler runs in a forked child under a lock that lives 61 s and is only
retried every 10 minutes, so a SIGKILLed worker stopped every timer for ~14 minutes.
This clock runs as a thread of the worker process (it dies with it: no orphan) under
a lease of a few seconds that it renews on every tick. When its holder dies, the lease
runs out and any other worker of the same queues, or the restarted one, takes over
within LEASE_SECONDS plus a tick.
"""

import logging
import threading
import uuid

from rq.scheduler import RQScheduler
from rq.scripts import acquire_or_refresh_lock, release_lock

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25  # how late a timer may fire at most, while a clock holds the lease
LEASE_SECONDS = 3  # how long a dead clock keeps the others from taking over


def lease_key(queue_name):
    return f"rq:clock-lease:{queue_name}"


class Clock:
    """Moves the due jobs of `queues` onto them, while it holds each queue's lease."""

    def __init__(self, queues, tick=TICK_SECONDS, lease=LEASE_SECONDS):
        self.queues = list(queues)
        self.connection = self.queues[0].connection
        self.owner = uuid.uuid4().hex
        self.tick_seconds = tick
        self.lease = lease
        self._mover = RQScheduler(
            [q.name for q in self.queues],
            connection=self.connection,
            serializer=self.queues[0].serializer,
            logging_level="WARNING",
        )

    def tick(self):
        """One pass: renew (or take) the leases, then enqueue what is due. Returns the
        names of the queues this clock holds."""
        held = [
            q.name
            for q in self.queues
            if acquire_or_refresh_lock(self.connection, lease_key(q.name), self.owner, self.lease)
            != "taken"
        ]
        if held:
            self._mover.prepare_registries(held)
            self._mover.enqueue_scheduled_jobs()
        return held

    def release(self):
        """Give the leases up (a clean stop), so another clock takes over at once."""
        for q in self.queues:
            release_lock(self.connection, lease_key(q.name), self.owner)

    def run(self, stop):
        """Tick until `stop` (a threading.Event) is set; a Redis hiccup is logged and
        retried, never the end of the clock."""
        while not stop.is_set():
            try:
                self.tick()
            except Exception:
                log.exception("the clock could not move due jobs; retrying")
            stop.wait(self.tick_seconds)

    def start(self):
        """Run in a daemon thread of this process; returns a function that stops it
        and gives its leases up."""
        stopping = threading.Event()
        thread = threading.Thread(target=self.run, args=(stopping,), name="clock", daemon=True)
        thread.start()

        def stop():
            stopping.set()
            thread.join(5)
            self.release()

        return stop
