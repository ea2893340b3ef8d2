"""`python -m services.worker`: an RQ worker for bot turns (and timers, with its
scheduler). Non-forking: a bot turn is a few milliseconds, a fork would cost more."""

import logging

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services import deps as deps_module


def main():
    logging.basicConfig(level=logging.INFO, format="worker %(levelname)s %(message)s")
    d = deps_module.build()
    deps_module.install(d)
    worker = SimpleWorker([d.queue], connection=d.queue.connection, serializer=JSONSerializer)
    worker.work(with_scheduler=True, logging_level="WARNING")


if __name__ == "__main__":
    main()
