"""`python -m services.projector` follows the feed; `... rebuild` regenerates every read
model from the streams and exits."""

import argparse
import logging
import signal

from services import deps as deps_module
from services.ops import health, logs, sidecar
from services.projector import build, rebuild


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m services.projector")
    parser.add_argument("command", nargs="?", default="run", choices=["run", "rebuild"])
    parser.add_argument(
        "--jobs", type=int, default=1, help="rebuild: processes that share the games"
    )
    args = parser.parse_args(argv)
    logs.setup("projector")
    d = deps_module.build()
    projector = build.projector_of(d)
    config = d.config
    # Say which Redis, and why: a rebuild deletes that server's lobby and checkpoints.
    print(f"Redis: {config.redis_url} (from {config.redis_url_from})", flush=True)
    if args.command == "rebuild":
        count = rebuild.in_parallel(build.from_config, config, args.jobs)
        print(f"rebuilt the read models of {count} games")
        return
    stopping = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopping.append(True))
    logging.info("following %d feed partitions", d.store.partitions)
    heartbeat = health.Heartbeat(d, projector.consumer)  # beats each time round the loop
    sidecar.serve(d, alive=heartbeat.alive, collectors=[health.GamesCollector(d)])
    projector.run(stop=lambda: heartbeat() or bool(stopping))


if __name__ == "__main__":
    logs.run_quietly(main)
