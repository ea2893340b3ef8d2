"""`python -m services.webhooks worker` delivers webhooks (an RQ worker on the
`webhooks` queue, apart from the bots' so a slow receiver never delays a bot);
`... dead-letters` prints the dead letters, `... dead-letters --replay` sends them again."""

import argparse
import logging

from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.ops.clock import Clock
from services.ops.worker import MeasuredWorker
from services.webhooks import dead_letters
from shared import jsonutil


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m services.webhooks")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("worker", help="deliver webhooks")
    letters = commands.add_parser("dead-letters", help="print (or replay) the dead letters")
    letters.add_argument("--replay", action="store_true", help="enqueue them again")
    letters.add_argument("--limit", type=int, default=100)
    args = parser.parse_args(argv)
    d = deps_module.build()
    deps_module.install(d)
    if args.command == "worker":
        logging.basicConfig(level=logging.INFO, format="webhooks %(levelname)s %(message)s")
        queue = d.webhook_queue
        worker = MeasuredWorker([queue], connection=queue.connection, serializer=JSONSerializer)
        # Retries wait in RQ's scheduled registry; our clock moves them when due (as
        # the bot workers' does: no forked scheduler under a long lock).
        stop_clock = Clock([queue]).start()
        try:
            worker.work(with_scheduler=False, logging_level="WARNING")
        finally:
            stop_clock()
    elif args.replay:
        replayed = dead_letters.replay(d.redis, d.keys, d.webhook_queue, args.limit)
        print(f"replayed {len(replayed)} dead letters")
    else:
        for letter in dead_letters.read(d.redis, d.keys, args.limit):
            print(jsonutil.dumps(letter).decode())


if __name__ == "__main__":
    main()
