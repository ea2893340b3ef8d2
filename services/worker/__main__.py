"""`python -m services.worker [--queues timers,bots]`: an RQ worker (with its scheduler,
which enqueues the jobs that fall due) for the queues named, most urgent first.

Two queues: `timers` (turn timers, Alien's stacking windows) and `bots` (bot turns and
reactions; a search bot may think for its whole think_ms). By default a worker serves
both, timers first; a worker for `timers` alone is never busy thinking when a timer
falls due (docs/operations.md). Non-forking: a job is a few milliseconds of Python, a
fork would cost more.
"""

import argparse
import logging

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services import deps as deps_module

QUEUES = "timers,bots"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m services.worker", description=__doc__)
    parser.add_argument(
        "--queues",
        default=QUEUES,
        help=f"comma-separated queues to serve, most urgent first (default {QUEUES})",
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.queues.split(",") if n.strip()]
    if not names or not set(names) <= set(deps_module.QUEUES):
        parser.error(f"--queues names some of {', '.join(deps_module.QUEUES)}")
    logging.basicConfig(level=logging.INFO, format="worker %(levelname)s %(message)s")
    d = deps_module.build()
    queues = d.queues_named(names)
    deps_module.install(d)
    worker = SimpleWorker(queues, connection=d.queue.connection, serializer=JSONSerializer)
    worker.work(with_scheduler=True, logging_level="WARNING")


if __name__ == "__main__":
    main()
