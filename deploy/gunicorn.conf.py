"""gunicorn settings for the API. Threads let one worker wait on Redis for several
requests at once; one process per core."""

import multiprocessing

workers = max(2, multiprocessing.cpu_count())
worker_class = "gthread"
threads = 8
accesslog = None
errorlog = "-"
loglevel = "warning"
graceful_timeout = 10
