"""`python -m services.worker [--queues timers,bots]`: an RQ worker for the queues
named, most urgent first.

Three queues: `timers` (turn timers, Alien's stacking windows), `bots` (bot turns and
reactions; a search bot may think for its whole think_ms) and `background` (the bot
turns of games where every seat is a bot). By default a worker serves all three in that
order; a worker for `timers` alone is never busy thinking when a timer falls due
(docs/operations.md). It starts only when every bot level installed (and every one
named in $BOT_LEVELS) loads (docs/bots.md). Non-forking: a bot turn is a few
milliseconds (a search's think_ms), a fork would cost more. Due jobs are moved onto
the queues by this process's own clock thread (services/ops/clock.py), not by RQ's
forked scheduler, so a killed worker leaves no orphan and holds no long lock."""

import argparse

from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.ops import health, logs, sidecar
from services.ops.clock import Clock
from services.ops.worker import MeasuredWorker
from shared import bots
from shared.config import Config

QUEUES = "timers,bots,background"


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
    logs.setup("worker")
    try:  # a plugin that would fail every decision: refuse to serve, and say which
        bots.registry.check(required=Config.from_env().bot_levels)
    except bots.UnknownLevel as error:
        parser.exit(2, f"python -m services.worker: {error}\n")
    d = deps_module.build()
    deps_module.install(d)
    queues = d.queues_named(names)
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
