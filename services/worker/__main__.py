"""`python -m services.worker`: an RQ worker for bot turns and timers. Non-forking: a
bot turn is a few milliseconds, a fork would cost more. Due timers are moved onto the
queue by this process's own clock thread (services/worker/clock.py), not by RQ's
forked scheduler, so a killed worker leaves no orphan and holds no long lock."""

from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.ops import health, logs, sidecar
from services.ops.worker import MeasuredWorker
from services.worker.clock import Clock


def main():
    logs.setup("worker")
    d = deps_module.build()
    deps_module.install(d)
    queues = [d.queue]
    worker = MeasuredWorker(queues, connection=d.queue.connection, serializer=JSONSerializer)
    sidecar.serve(d, alive=worker.alive, collectors=[health.QueueCollector(d)])
    # Our clock moves due timers onto the queues (RQ's scheduler is not used).
    stop_clock = Clock(queues).start()
    try:
        worker.work(with_scheduler=False, logging_level="WARNING")
    finally:
        stop_clock()


if __name__ == "__main__":
    logs.run_quietly(main)
