"""Prometheus metrics, and the small functions the rest of the code calls to count.

Other modules never touch a metric object: they call `command_appended(game, type)`,
`command_refused(code)`, `projected(lag_seconds)`, `bot_deciding(bot)`... so the names,
labels and buckets live here, in one place.

Under gunicorn the API runs in several processes: prometheus_client's multiprocess mode
(`PROMETHEUS_MULTIPROC_DIR`, set before the first import of prometheus_client;
deploy/gunicorn.conf.py makes and empties one) sums their files on each scrape. The
projector and the worker are one process each and serve their own registry.
"""

import time
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from shared.config import Config

# Request latency: most answers take milliseconds, a long-poll up to 30 s.
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
# From a job's due time to its start; from an event's append to its read models.
DELAY_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)

REQUESTS = Counter(
    "tablestream_http_requests", "HTTP requests answered", ["method", "route", "status"]
)
REQUEST_SECONDS = Histogram(
    "tablestream_http_request_duration_seconds",
    "Time to answer an HTTP request (to its first byte for a stream)",
    ["method", "route"],
    buckets=REQUEST_BUCKETS,
)
LONG_POLLS = Gauge(
    "tablestream_open_long_polls", "Long-polls waiting for a move", multiprocess_mode="livesum"
)
STREAMS = Gauge(
    "tablestream_open_streams", "Server-Sent Event streams open", multiprocess_mode="livesum"
)
COMMANDS = Counter("tablestream_commands", "Commands appended", ["game", "type"])
REFUSED = Counter("tablestream_commands_refused", "Commands refused", ["code"])
PROJECTION_LAG = Histogram(
    "tablestream_projection_lag_seconds",
    "From an event's append to its read models being written",
    buckets=DELAY_BUCKETS,
)
JOB_LATENCY = Histogram(
    "tablestream_job_latency_seconds",
    "From an RQ job being due (enqueued, or scheduled for) to a worker starting it",
    ["job"],
    buckets=DELAY_BUCKETS,
)
JOB_SECONDS = Histogram(
    "tablestream_job_duration_seconds", "Time an RQ job ran", ["job", "outcome"]
)
BOT_SECONDS = Histogram(
    "tablestream_bot_decision_seconds",
    "Time a bot took to choose its command",
    ["bot"],
    buckets=(0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
)

MATCH_SECONDS = Histogram(
    "tablestream_matchmaking_time_to_match_seconds",
    "From a quick-match ticket's opening to its match",
    ["game", "queue"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86400),
)
MATCHED = Counter(
    "tablestream_matchmaking_games",
    "Games a quick match opened, with bots filling seats or humans only",
    ["game", "queue", "seated"],
)
MATCH_LOST = Counter(
    "tablestream_matchmaking_claims_lost",
    "Groups not claimed: a ticket was cancelled or claimed by another matchmaker first",
)


def tickets_matched(game, queue, waited_seconds, bots):
    """A quick match opened a game: each ticket's time to match, bots or humans only."""
    series = MATCH_SECONDS.labels(game, queue)
    for seconds in waited_seconds:
        series.observe(max(0.0, seconds))
    MATCHED.labels(game, queue, "bots" if bots else "humans").inc()


def claim_lost():
    MATCH_LOST.inc()


def command_appended(game, command_type):
    """A command was decided and its events appended."""
    series = _APPENDED.get((game, command_type))
    if series is None:  # labels() takes a lock and builds a key: once per series
        series = _APPENDED[game, command_type] = COMMANDS.labels(game, command_type)
    series.inc()


_APPENDED = {}  # (game, command type) -> its counter; the rules' command types bound it


def command_refused(code):
    """A command was refused (a rule's code, or version_conflict)."""
    REFUSED.labels(code).inc()


def projected(lag_seconds):
    """The projector wrote read models `lag_seconds` after the oldest event they show."""
    PROJECTION_LAG.observe(max(0.0, lag_seconds))


def request_answered(method, route, status, seconds):
    """The API answered a request; `route` is the URL rule, not the raw path."""
    series = _ANSWERED.get((method, route, status))
    if series is None:  # labels() takes a lock and builds a key: once per series
        series = (
            REQUESTS.labels(method, route, str(status)),
            REQUEST_SECONDS.labels(method, route),
        )
        _ANSWERED[method, route, status] = series
    series[0].inc()
    series[1].observe(seconds)


_ANSWERED = {}  # (method, route, status) -> its counter and histogram


def job_started(job, latency_seconds):
    JOB_LATENCY.labels(job).observe(max(0.0, latency_seconds))


def job_finished(job, outcome, seconds):
    JOB_SECONDS.labels(job, outcome).observe(seconds)


@contextmanager
def bot_deciding(bot):
    """Times a bot's choice: `with metrics.bot_deciding(name): command = choose(...)`."""
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_SECONDS.labels(str(bot)).observe(time.perf_counter() - started)


def multiprocess_dir():
    """The folder the API's processes share their metrics in, or None (one process)."""
    return Config.from_env().metrics_dir


def exposition(*collectors):
    """(body, content type) of this process's metrics, plus `collectors` (gauges read
    from Redis at scrape time); every process's under gunicorn's multiprocess mode."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    elif collectors:
        registry = CollectorRegistry()
        registry.register(_Everything(REGISTRY))
    else:
        registry = REGISTRY
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry), CONTENT_TYPE_LATEST


class _Everything:
    """The default registry as one collector, to add scrape-time gauges beside it."""

    def __init__(self, registry):
        self.registry = registry

    def collect(self):
        return self.registry.collect()


def mark_dead(pid):
    """gunicorn's child_exit: a dead API process's live gauges stop counting."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)
