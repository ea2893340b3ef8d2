"""`python -m services.worker`: an RQ worker for bot turns (and timers, with its
scheduler). Non-forking: a bot turn is a few milliseconds, a fork would cost more."""

from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.ops import health, logs, sidecar
from services.ops.worker import MeasuredWorker


def main():
    logs.setup("worker")
    d = deps_module.build()
    deps_module.install(d)
    worker = MeasuredWorker([d.queue], connection=d.queue.connection, serializer=JSONSerializer)
    sidecar.serve(d, alive=worker.alive, collectors=[health.QueueCollector(d)])
    worker.work(with_scheduler=True, logging_level="WARNING")


if __name__ == "__main__":
    logs.run_quietly(main)
