"""Liveness and readiness, the same for every process.

Alive (`/healthz`): the process answers (a projector: its loop went round lately).
Ready (`/readyz`): the deployment can play a game end to end right now:
- redis: the event store answers PING;
- projector: a projector beat lately, and the oldest notification no projector has
  handled yet is younger than READY_PROJECTOR_LAG seconds;
- queue: the oldest job waiting on the queues of games people play (timers, bots), and
  the oldest timer overdue for enqueueing, are younger than READY_QUEUE_AGE seconds
  (the games of bots only wait on `background` by design: its age is shown, not judged);
- workers: an RQ worker listening on the queues beat within READY_HEARTBEAT_AGE seconds.
Each threshold is an environment variable (seconds); see docs/operations.md.
"""

import time
from datetime import UTC, datetime

from prometheus_client.core import GaugeMetricFamily
from rq import Queue, Worker
from rq.registry import ScheduledJobRegistry

from shared.config import Config
from shared.keys import GROUP

BEAT_EVERY = 5.0  # seconds between a projector's heartbeats


def threshold(name, env=None):
    """One of /readyz's thresholds (READY_PROJECTOR_LAG...), seconds, as configured now."""
    return getattr(Config.from_env(env), name.lower())


def _now_ms():
    return int(time.time() * 1000)


def queues(d):
    """Every RQ queue of the deployment: each Queue the composition root built."""
    return [value for value in vars(d).values() if isinstance(value, Queue)]


# The projector's side: its heartbeat and the feed's backlog.


def beat(d, consumer, now_ms=None):
    """Record that the projector `consumer` is going round its loop."""
    now_ms = now_ms or _now_ms()
    key = d.keys.projectors
    pipe = d.redis.pipeline(transaction=False)
    pipe.zadd(key, {consumer: now_ms})
    pipe.zremrangebyscore(key, 0, now_ms - 3600_000)  # projectors gone for an hour
    pipe.execute()


class Heartbeat:
    """Calls `beat` at most every BEAT_EVERY seconds; `alive()` says whether the loop
    calling it went round within `stale` seconds."""

    def __init__(self, d, consumer, stale=60.0):
        self.d, self.consumer, self.stale = d, consumer, stale
        self.last = 0.0

    def __call__(self):
        if time.monotonic() - self.last >= BEAT_EVERY:
            try:
                beat(self.d, self.consumer)
            except Exception:  # Redis away: the loop logs it; readiness will show it
                return
            self.last = time.monotonic()

    def alive(self):
        return time.monotonic() - self.last < self.stale


def feed_lag_seconds(d, now_ms=None):
    """Age of the oldest feed notification no projector has finished with (pending in
    the consumer group, or not delivered yet); 0 when there is none."""
    now_ms = now_ms or _now_ms()
    oldest = None
    for partition in range(d.store.partitions):
        feed = d.keys.feed(partition)
        groups = {g["name"].decode(): g for g in _groups(d.redis, feed)}
        group = groups.get(GROUP)
        start = "-" if group is None else "(" + group["last-delivered-id"].decode()
        first = d.redis.xrange(feed, min=start, max="+", count=1)
        ids = [first[0][0]] if first else []
        if group is not None and group["pending"]:
            ids.append(d.redis.xpending(feed, GROUP)["min"])
        for entry_id in ids:
            at = int(entry_id.decode().split("-")[0])
            oldest = at if oldest is None else min(oldest, at)
    return 0.0 if oldest is None else max(0.0, (now_ms - oldest) / 1000)


def _groups(client, feed):
    try:
        return client.xinfo_groups(feed)
    except Exception:  # no such stream yet
        return []


def projector_age_seconds(d, now_ms=None):
    """Seconds since the last projector heartbeat; None when none ever beat."""
    newest = d.redis.zrevrange(d.keys.projectors, 0, 0, withscores=True)
    return None if not newest else ((now_ms or _now_ms()) - newest[0][1]) / 1000


# The queue's side.


def queue_age_seconds(d, now=None, among=None):
    """(jobs waiting, age of the oldest waiting job, age of the oldest timer overdue
    for enqueueing) over the queues `among` (default: every queue)."""
    now = now or datetime.now(UTC)
    waiting, oldest, overdue = 0, 0.0, 0.0
    for queue in queues(d) if among is None else among:
        waiting += queue.count
        oldest = max(oldest, oldest_job_seconds(queue, now))
        scheduled = ScheduledJobRegistry(queue=queue)  # scored by when each job is due
        due = queue.connection.zrange(scheduled.key, 0, 0, withscores=True)
        if due:
            overdue = max(overdue, now.timestamp() - due[0][1])
    return waiting, oldest, overdue


def oldest_job_seconds(queue, now):
    """Age of the job at the head of `queue` (0 when it is empty)."""
    first = queue.get_job_ids(0, 1)
    job = queue.fetch_job(first[0]) if first else None
    if job is None or job.enqueued_at is None:
        return 0.0
    return max(0.0, (now - _aware(job.enqueued_at)).total_seconds())


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def worker_age_seconds(d, now=None):
    """(workers, seconds since the most recent worker heartbeat or None)."""
    now = now or datetime.now(UTC)
    workers = {w.name: w for q in queues(d) for w in Worker.all(queue=q)}
    beats = [_aware(w.last_heartbeat) for w in workers.values() if w.last_heartbeat]
    age = (now - max(beats)).total_seconds() if beats else None
    return len(workers), age


# Readiness.


def readiness(d, env=None):
    """{"ready": bool, "checks": {name: {"ok": bool, ...figures}}}."""
    checks = {}
    for name, check in (
        ("redis", _redis),
        ("projector", _projector),
        ("queue", _queue),
        ("workers", _workers),
    ):
        try:
            checks[name] = check(d, env)
        except Exception as error:  # a check that fails is a "not ready", never a 500
            checks[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return {"ready": all(c["ok"] for c in checks.values()), "checks": checks}


def _redis(d, env):
    started = time.perf_counter()
    d.redis.ping()
    return {"ok": True, "ping_ms": round((time.perf_counter() - started) * 1000, 2)}


def _projector(d, env):
    lag, age = feed_lag_seconds(d), projector_age_seconds(d)
    ok = (
        age is not None
        and age < threshold("READY_HEARTBEAT_AGE", env)
        and lag < threshold("READY_PROJECTOR_LAG", env)
    )
    return {"ok": ok, "lag_seconds": round(lag, 3), "heartbeat_age_seconds": _round(age)}


def _queue(d, env):
    people = [q for q in queues(d) if q is not getattr(d, "background", None)]
    waiting, oldest, overdue = queue_age_seconds(d, among=people)
    limit = threshold("READY_QUEUE_AGE", env)
    ok = oldest < limit and overdue < limit
    answer = {
        "ok": ok,
        "jobs": waiting,
        "oldest_seconds": round(oldest, 3),
        "overdue_seconds": round(overdue, 3),
    }
    if getattr(d, "background", None) is not None:
        answer["background_oldest_seconds"] = round(oldest_job_seconds(d.background, _utc()), 3)
    return answer


def _utc():
    return datetime.now(UTC)


def _workers(d, env):
    count, age = worker_age_seconds(d)
    ok = age is not None and age < threshold("READY_HEARTBEAT_AGE", env)
    return {"ok": ok, "workers": count, "heartbeat_age_seconds": _round(age)}


def _round(value):
    return None if value is None else round(value, 3)


def not_ready(report, request_id=None):
    """The problem+json body of a 503 from /readyz."""
    failed = sorted(name for name, check in report["checks"].items() if not check["ok"])
    body = {
        "type": "about:blank#not_ready",
        "title": "not ready",
        "status": 503,
        "code": "not_ready",
        "detail": f"not ready: {', '.join(failed)}",
        "checks": report["checks"],
    }
    if request_id:
        body["request_id"] = request_id
    return body


# Gauges read from Redis when scraped.


class GamesCollector:
    """tablestream_games{status}: games waiting for players and games being played."""

    def __init__(self, d):
        self.d = d

    def collect(self):
        waiting = self.d.redis.zcard(self.d.keys.lobby)
        live = self.d.redis.zcard(self.d.keys.live)
        family = GaugeMetricFamily("tablestream_games", "Games by status", labels=["status"])
        family.add_metric(["waiting"], waiting)
        family.add_metric(["active"], max(0, live - waiting))
        yield family
        yield GaugeMetricFamily(
            "tablestream_feed_lag_seconds",
            "Age of the oldest feed notification no projector has handled",
            value=feed_lag_seconds(self.d),
        )


class QueueCollector:
    """tablestream_queue_jobs{queue} and tablestream_queue_oldest_job_seconds{queue}."""

    def __init__(self, d):
        self.d = d

    def collect(self):
        depth = GaugeMetricFamily("tablestream_queue_jobs", "RQ jobs waiting", labels=["queue"])
        scheduled = GaugeMetricFamily(
            "tablestream_queue_scheduled_jobs", "RQ jobs scheduled for later", labels=["queue"]
        )
        now = datetime.now(UTC)
        age = GaugeMetricFamily(
            "tablestream_queue_oldest_job_seconds",
            "Age of the oldest RQ job waiting",
            labels=["queue"],
        )
        for queue in queues(self.d):
            depth.add_metric([queue.name], queue.count)
            scheduled.add_metric([queue.name], ScheduledJobRegistry(queue=queue).count)
            age.add_metric([queue.name], oldest_job_seconds(queue, now))
        yield depth
        yield scheduled
        yield age
