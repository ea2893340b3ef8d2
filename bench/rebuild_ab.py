"""`Projector.rebuild()` against a raw XRANGE + orjson parse of the same streams, for
several source trees in one run (A, B, A, B...), on one dataset of finished games.

The first run plays --games two-seat Alebrijes games to their end (random legal commands,
seeded) into an embedded Redis kept in --data; later runs reuse it. --mix makes it more
like what bench/compare.py rebuilds (the load runs' games): one game in six is left
under way after a few moves, and three four-seat 20-round games run to ~2,000 events.
Each measurement runs in a subprocess whose current directory is the tree under test,
and prints wall seconds and CPU seconds (this client plus the Redis server) of both
passes.

    .venv/bin/python bench/rebuild_ab.py --trees /tmp/base . --reps 2 [--jobs 2]
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--data", default="bench/results/rebuild-data")
    parser.add_argument("--mix", action="store_true", help="games under way too (see above)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="also time `rebuild --jobs N` (trees that have it)"
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: a Redis URL
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.jobs)))
        return
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    process, url = dataset(Path(args.data).resolve(), args.games, args.mix)
    rows = []
    try:
        for _ in range(args.reps):
            for tree in args.trees:
                done = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--measure", url]
                    + ["--jobs", str(args.jobs)],
                    cwd=tree,
                    capture_output=True,
                    text=True,
                    timeout=1200,
                )
                if done.returncode:
                    raise RuntimeError(done.stderr)
                rows.append({"tree": tree, **json.loads(done.stdout.splitlines()[-1])})
                print(json.dumps(rows[-1]), flush=True)
    finally:
        process.kill()
        process.wait(10)
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")
    for tree in args.trees:
        mine = [r for r in rows if r["tree"] == tree]
        print(
            f"median {tree}: wall ratio {statistics.median(r['wall_ratio'] for r in mine):.2f}, "
            f"CPU ratio {statistics.median(r['cpu_ratio'] for r in mine):.2f}, "
            f"rebuild {statistics.median(r['rebuild_s'] for r in mine):.2f} s wall, "
            f"{statistics.median(r['rebuild_cpu_s'] for r in mine):.2f} s CPU"
        )
        parallel = [r["rebuild_s"] / r["parallel_s"] for r in mine if "parallel_s" in r]
        if parallel:
            print(f"  --jobs {args.jobs}: {statistics.median(parallel):.2f}x one process's wall")


def dataset(directory, games, mix=False):
    """The embedded Redis holding the games (played now unless kept)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import redis
    import systems

    from services import embedded_redis
    from services.deps import build
    from shared.config import Config

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
    """In the tree under test (the current directory): both passes, timed; and, with
    jobs > 1, `rebuild --jobs` when the tree has it."""
    sys.path.insert(0, os.getcwd())
    import orjson
    import psutil
    import redis

    from services.deps import build
    from shared import games
    from shared.config import Config

    client = redis.Redis.from_url(url)
    d = build(Config(redis_url=url, queue_url=url, token_secret="x"), client, client)
    server = psutil.Process(client.info("server")["process_id"])

    def cpu():
        times = server.cpu_times()
        return time.process_time() + times.user + times.system

    # Each pass's code is imported before its clock starts, as orjson and redis-py are
    # for the raw pass: a rate, not a start-up (with PYTHONDONTWRITEBYTECODE, importing
    # the projector and the rules compiles them: ~20 ms).
    try:  # the tree's own projector (a tree before services/projector/build.py: Deps')
        from services.projector.build import projector_of
    except ImportError:
        projector_of = type(d).projector
    projector = projector_of(d)
    for name in games.NAMES:
        games.get(name)
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
    if jobs > 1 and Path("services/projector/rebuild.py").exists():
        from services.projector import rebuild

        start = time.perf_counter()
        if hasattr(rebuild, "in_parallel"):
            from services.projector.build import from_config

            rebuild.in_parallel(from_config, d.config, jobs)
        else:  # a tree from before
            rebuild.rebuild(d, jobs)
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
