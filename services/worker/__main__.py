"""`python -m services.worker`: an RQ worker for bot turns and timers. Non-forking: a
bot turn is a few milliseconds, a fork would cost more. Due timers are moved onto the
queue by this process's own clock thread (services/worker/clock.py), not by RQ's
forked scheduler, so a killed worker leaves no orphan and holds no long lock."""

import logging

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.worker.clock import Clock


def main():
    logging.basicConfig(level=logging.INFO, format="worker %(levelname)s %(message)s")
    d = deps_module.build()
    deps_module.install(d)
    queues = [d.queue]
    worker = SimpleWorker(queues, connection=d.queue.connection, serializer=JSONSerializer)
    stop_clock = Clock(queues).start()
    try:
        worker.work(with_scheduler=False, logging_level="WARNING")
    finally:
        stop_clock()


if __name__ == "__main__":
    main()
