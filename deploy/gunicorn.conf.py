"""gunicorn settings for the API.

gevent workers: a long-poll or an event stream mostly waits, and a greenlet waits for
almost nothing, so one process holds thousands of them (bench/long_poll.py measures
how many). One process per core.
"""

import multiprocessing
import os

workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
# gevent, answering gunicorn's own errors (414, 431, bad requests) as problem+json.
worker_class = "services.api.gunicorn_worker.ProblemWorker"
worker_connections = 10_000
accesslog = None
errorlog = "-"
loglevel = "warning"
graceful_timeout = 10
timeout = 60
