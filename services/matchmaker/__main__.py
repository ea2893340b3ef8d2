"""`python -m services.matchmaker`: seat quick-match tickets until stopped (SIGINT or
SIGTERM); serves /metrics beside its loop on METRICS_PORT."""

import logging
import signal

from services import deps as deps_module
from services.matchmaker.matchmaker import Matchmaker, WaitingCollector
from services.ops import logs, sidecar


def main():
    logs.setup("matchmaker")
    d = deps_module.build()
    stopping = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopping.append(True))
    matchmaker = Matchmaker(d)
    sidecar.serve(d, alive=matchmaker.alive, collectors=[WaitingCollector(d)])
    logging.info("matchmaker started")
    matchmaker.run(stop=lambda: bool(stopping))


if __name__ == "__main__":
    logs.run_quietly(main)
