"""The projector's CPU a move, in-process, for source trees interleaved (A, B, A, B).

Per tree and rep, a subprocess in that tree: a fresh embedded Redis, 8 two-seat Alebrijes
games (the bench's human games), then --moves times one move (the game service, as the
API makes it) and one poll of the feed (a batch of one game, as at half load); or, with
--batch 8, every game moves once before each poll; --block-ms 1000 polls as the run
loop does (a poll may wait for the feed, which the moves answer at once). Measures the poll's CPU
(`time.process_time`: waiting for Redis is not counted, other processes' load hardly
moves it) and Redis' CPU over the polls (INFO cpu, its two INFO calls a poll included:
the same for every tree). Prints the medians per tree.

    .venv/bin/python bench/projector_cpu.py --roots /tmp/base . --reps 3
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--roots", nargs="+", default=["."])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--batch", type=int, default=1, help="games moved before each poll")
    parser.add_argument(
        "--block-ms",
        type=int,
        default=0,
        help="poll(block_ms=...) as the run loop does (1000): a poll may wait for the feed",
    )
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.moves, args.batch, args.block_ms or None)))
        return
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    rows = {root: [] for root in args.roots}
    for rep in range(args.reps):
        for root in args.roots:
            command = [sys.executable, str(Path(__file__).resolve()), "--one"]
            command += ["--moves", str(args.moves), "--batch", str(args.batch)]
            command += ["--block-ms", str(args.block_ms)]
            out = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True)
            row = json.loads(out.stdout.strip().splitlines()[-1])
            rows[root].append(row)
            print(f"rep {rep + 1} {root}: {json.dumps(row)}", flush=True)
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")
    for index, (root, mine) in enumerate(rows.items()):
        medians = {k: round(statistics.median(r[k] for r in mine)) for k in mine[0]}
        print(f"median {'ABCDEFGH'[index]} ({root}): {json.dumps(medians)}")


def one(moves, batch, block_ms=None):
    sys.path.insert(0, os.getcwd())  # the tree under test
    import redis

    from services import embedded_redis
    from services.deps import build
    from shared import table
    from shared.config import Config

    def move(d, game_id):
        _, current = d.service.load(game_id)
        rules = table.rules_of(current)
        seat = rules.to_act(current["rules"])[0]
        d.service.command(game_id, seat, rules.legal(current["rules"], seat)[0])

    def redis_cpu(client):
        cpu = client.info("cpu")
        return cpu["used_cpu_sys"] + cpu["used_cpu_user"]

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
            projector = projector_of(d, consumer="cpu")
            projector.join_group()
            seats = [{"name": "a"}, {"name": "b"}]
            options = [{"seed": s, "rounds": 20} for s in range(8)]
            ids = [d.service.create("alebrijes", seats, o)["id"] for o in options]
            while projector.poll(block_ms=None):
                pass
            polls, redis_total, played = [], 0.0, 0
            for n in range(moves // batch):
                for k in range(batch):
                    move(d, ids[(n + k) % len(ids)])
                before = redis_cpu(client)
                start = time.process_time()
                projector.poll(block_ms=block_ms)
                polls.append(time.process_time() - start)
                redis_total += redis_cpu(client) - before
                played += batch
            return {
                "projector_us_a_move": 1e6 * sum(polls) / played,
                "projector_us_a_poll_p50": 1e6 * statistics.median(polls),
                "redis_us_a_move": 1e6 * redis_total / played,
            }
        finally:
            process.kill()
            process.wait(10)


if __name__ == "__main__":
    main()
