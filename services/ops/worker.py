"""An RQ worker that reports: each job's latency (from being enqueued to starting) and
duration, and a heartbeat often enough for readiness checks."""

import time
from datetime import UTC, datetime

from rq import SimpleWorker

from services.ops import metrics

# RQ beats at least every (ttl - 15) s while idle: 30 gives a beat every 15 s, well
# inside readiness's READY_HEARTBEAT_AGE (60 s).
WORKER_TTL = 30


class MeasuredWorker(SimpleWorker):
    """SimpleWorker (no fork: a bot turn is a few milliseconds) with job metrics."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("worker_ttl", WORKER_TTL)
        super().__init__(*args, **kwargs)
        self.last_beat = time.monotonic()

    def heartbeat(self, *args, **kwargs):
        super().heartbeat(*args, **kwargs)
        self.last_beat = time.monotonic()

    def alive(self):
        """The work loop beat within four heartbeats (its /healthz)."""
        return time.monotonic() - self.last_beat < 4 * (self.worker_ttl - 15)

    def perform_job(self, job, queue, execution):
        name = (job.func_name or "unknown").rsplit(".", 1)[-1]
        if job.enqueued_at is not None:
            enqueued = job.enqueued_at
            enqueued = enqueued if enqueued.tzinfo else enqueued.replace(tzinfo=UTC)
            metrics.job_started(name, (datetime.now(UTC) - enqueued).total_seconds())
        started = time.perf_counter()
        succeeded = super().perform_job(job, queue, execution)
        metrics.job_finished(name, "ok" if succeeded else "failed", time.perf_counter() - started)
        return succeeded
