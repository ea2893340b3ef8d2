"""`Projector.rebuild()` against a raw XRANGE + orjson parse of the same streams, on
one dataset of finished games: how close the rebuild comes to reading the events.

    .venv/bin/python -m bench.rebuild --games 300 [--mix] [--jobs 2]
    .venv/bin/python -m bench.ab /tmp/base . --reps 2 -- rebuild --games 300   # A/B

The first run plays --games two-seat Alebrijes games to their end (random legal
commands, seeded) into an embedded Redis kept in --data; later runs reuse it, so every
checkout rebuilds the same streams. --mix makes it more like what bench/compare.py
rebuilds (the load runs' games): one game in six is left under way after a few moves,
and three four-seat 20-round games run to ~2,000 events. Prints wall seconds and CPU
seconds (this process plus the Redis server) of both passes as one JSON line.
"""

import argparse
import json
import random
import time
from pathlib import Path

import orjson
import psutil
import redis

from bench import systems
from services import embedded_redis
from services.deps import build
from services.projector import rebuild
from services.projector.build import from_config, projector_of
from shared import games as rulebooks
from shared.config import Config

DATA = Path(__file__).resolve().parent / "results" / "rebuild-data"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--data", default=str(DATA), help="where the dataset's Redis lives")
    parser.add_argument("--mix", action="store_true", help="games under way too (see above)")
    parser.add_argument("--jobs", type=int, default=1, help="also time `rebuild --jobs N`")
    args = parser.parse_args()
    process, url = dataset(Path(args.data).resolve(), args.games, args.mix)
    try:
        print(json.dumps(measure(url, args.jobs)))
    finally:
        process.kill()
        process.wait(10)


def dataset(directory, games, mix=False):
    """The embedded Redis holding the games (played now unless kept): (process, url)."""
    directory.mkdir(parents=True, exist_ok=True)
    process, url = embedded_redis.start(directory, appendfsync="no")
    client = redis.Redis.from_url(url)
    made = f"{games}{' mix' if mix else ''}"
    if client.get("rebuild-ab:games") == made.encode():
        return process, url
    client.flushdb()
    d = build(Config(redis_url=url, queue_url=url, token_secret="x"), client, client)
    rng = random.Random(1)
    for seed in range(games):
        seats = [{"name": "a"}, {"name": "b"}]
        game_id = d.service.create("alebrijes", seats, {"seed": seed})["id"]
        under_way = mix and seed % 6 == 5
        systems.play_to_end(d, game_id, rng.choice, rng.randrange(1, 100) if under_way else 2000)
    for seed in range(3 if mix else 0):  # compare.py's flat-cost games
        seats = [{"name": name} for name in "abcd"]
        options = {"seed": games + seed, "rounds": 20}
        systems.play_to_end(d, d.service.create("alebrijes", seats, options)["id"], rng.choice, 700)
    client.set("rebuild-ab:games", made)
    return process, url


def measure(url, jobs=1):
    """Both passes over the streams at `url`, timed; with jobs > 1, `rebuild --jobs`."""
    client = redis.Redis.from_url(url)
    d = build(Config(redis_url=url, queue_url=url, token_secret="x"), client, client)
    server = psutil.Process(client.info("server")["process_id"])

    def cpu():
        times = server.cpu_times()
        return time.process_time() + times.user + times.system

    # Each pass's code is imported before its clock starts, as orjson and redis-py are
    # for the raw pass: a rate, not a start-up.
    projector = projector_of(d)
    for name in rulebooks.NAMES:
        rulebooks.get(name)
    ids = d.store.game_ids()
    cpu0, start = cpu(), time.perf_counter()
    events = 0
    for game_id in ids:
        for _, fields in client.xrange(d.keys.events(game_id)):
            orjson.loads(fields[b"e"])
            events += 1
    raw_s, cpu1 = time.perf_counter() - start, cpu()
    start = time.perf_counter()
    projector.rebuild()
    rebuild_s, cpu2 = time.perf_counter() - start, cpu()
    parallel = {}
    if jobs > 1:
        start = time.perf_counter()
        rebuild.in_parallel(from_config, d.config, jobs)
        parallel = {"parallel_s": time.perf_counter() - start}
    return {
        **parallel,
        "games": len(ids),
        "events": events,
        "raw_s": raw_s,
        "rebuild_s": rebuild_s,
        "raw_cpu_s": cpu1 - cpu0,
        "rebuild_cpu_s": cpu2 - cpu1,
        "wall_ratio": raw_s / rebuild_s,
        "cpu_ratio": (cpu1 - cpu0) / (cpu2 - cpu1),
    }


if __name__ == "__main__":
    main()
