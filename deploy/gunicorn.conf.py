"""gunicorn settings for the API (and bench/floor.py).

gevent workers: a long-poll or an event stream mostly waits, and a greenlet waits for
almost nothing, so one process holds thousands of them (bench/long_poll.py measures
how many). One process per core (1, 3 or 4 on 2 cores measured no faster).

Logs: JSON lines (LOG_FORMAT=text for a terminal) through services.ops.logs; the
access line is the app's own (services.ops.web), with the request id and game id.
Metrics: the worker processes share PROMETHEUS_MULTIPROC_DIR (made here when unset,
emptied when gunicorn starts, removed when it exits if made here); a dead worker's live
gauges are dropped.
"""

import gc
import multiprocessing
import os
import shutil
import tempfile
from pathlib import Path

from services.ops import files, logs
from shared.config import Config

# Before any worker imports prometheus_client, which reads it once.
_metrics_dir_made_here = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="tablestream-metrics-"))

workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
# gevent, answering gunicorn's own errors (414, 431, bad requests) as problem+json.
worker_class = "services.gunicorn_worker.ProblemWorker"
# A worker serves at most worker_connections requests at once, a WebSocket among them
# for as long as it is open: the sockets are capped below that (WS_MAX_SOCKETS, and
# the process's file limit, raised here to the hard one and inherited by the workers;
# refused 503 sockets_full beyond), so a process full of sockets still answers plain
# requests (and its health check) instead of leaving them in the listen queue.
files.raise_limit()
worker_connections = sum(files.connections(Config.from_env().ws_max_sockets))
accesslog = None
logger_class = "services.gunicorn_worker.NoAccessLog"  # the access line is the app's
errorlog = "-"
loglevel = "warning"
logconfig_dict = logs.dict_config("api")
logs.lean_records()  # forked workers inherit it
graceful_timeout = 10
timeout = 60


def on_starting(server):
    """The metrics files of an earlier run are not this one's."""
    directory = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()


def on_exit(server):
    """A metrics directory this file made goes with the server (one per start would
    otherwise pile up in /tmp); one the operator named is theirs to keep."""
    if _metrics_dir_made_here:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def post_worker_init(worker):
    """The app's own objects (modules, schemas, the rules' tables) live as long as the
    worker: freezing them keeps the collector from walking them in every full
    collection, which stopped a worker for ~19 ms at a time (74,000 objects), the
    POST p99's tail at half load."""
    gc.collect()
    gc.freeze()


def child_exit(server, worker):
    from services.ops import metrics

    metrics.mark_dead(worker.pid)
