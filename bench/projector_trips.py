"""Round trips and Redis commands the projector spends per move, counted (not timed), for
the source tree in the current directory: 8 two-seat Alebrijes games on a fresh embedded
Redis; one move then one poll of the feed (a batch of one game), 20 times; then every game
moves once before each poll (a batch of 8 games), 10 times.

    cd <tree> && /path/to/.venv/bin/python /path/to/bench/projector_trips.py
"""

import collections
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the tree under test, not this file's

import redis  # noqa: E402
from redis.connection import AbstractConnection  # noqa: E402

from services import embedded_redis  # noqa: E402
from services.deps import build  # noqa: E402
from shared import table  # noqa: E402
from shared.config import Config  # noqa: E402

TRIPS = [0]
_send = AbstractConnection.send_packed_command


def _counted(self, command, check_health=True):
    TRIPS[0] += 1  # one write to the socket: a command or a whole pipeline
    return _send(self, command, check_health)


def main():
    AbstractConnection.send_packed_command = _counted
    with tempfile.TemporaryDirectory() as directory:
        process, url = embedded_redis.start(Path(directory), appendfsync="no")
        try:
            client = redis.Redis.from_url(url)
            config = Config(redis_url=url, queue_url=url, token_secret="x")
            d = build(config, client=client, queue_client=client)
            try:  # the tree's own projector (a tree before services/projector/build.py: Deps')
                from services.projector.build import projector_of
            except ImportError:
                projector_of = type(d).projector
            projector = projector_of(d, consumer="trips")
            projector.join_group()
            seats = [{"name": "a"}, {"name": "b"}]
            ids = [d.service.create("alebrijes", seats, {"seed": s})["id"] for s in range(8)]
            while projector.poll(block_ms=None):
                pass
            for label, rounds, games in (("1 game a batch", 20, 1), ("8 games a batch", 10, 8)):
                trips = commands = moves = 0
                by_name = collections.Counter()
                for _ in range(rounds):
                    for game_id in ids[:games]:
                        _move(d, game_id)
                    before = client.info("stats")["total_commands_processed"]
                    stats = _commandstats(client)
                    TRIPS[0] = 0
                    projector.poll(block_ms=None)
                    trips += TRIPS[0]
                    after = client.info("stats")["total_commands_processed"]
                    by_name.update(_commandstats(client) - stats)
                    commands += after - before - 2  # the two INFOs before the poll
                    moves += games
                print(
                    f"{os.getcwd()}: {label}: {trips / moves:.2f} round trips, "
                    f"{commands / moves:.2f} commands a move"
                )
                by_name.pop("info", None)
                detail = ", ".join(f"{n} {c / moves:.2f}" for n, c in sorted(by_name.items()))
                print(f"    by command (a script's own inside it): {detail}")
        finally:
            process.kill()
            process.wait(10)


def _commandstats(client):
    """Counter {command: calls so far}; a script's own commands counted by name too."""
    stats = client.info("commandstats")
    return collections.Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()})


def _move(d, game_id):
    _, current = d.service.load(game_id)
    rules = table.rules_of(current)
    seat = rules.to_act(current["rules"])[0]
    d.service.command(game_id, seat, rules.legal(current["rules"], seat)[0])


if __name__ == "__main__":
    main()
