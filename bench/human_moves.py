"""The human move path under load: tablestream as `make run` starts it (its own
embedded Redis), driven by bench/load.py's human games, flat out or paced.

    .venv/bin/python -m bench.human_moves --games 10 50 --seconds 10 [--rate 400] [--floor]
    .venv/bin/python -m bench.ab /tmp/base . -- human_moves --games 50   # A/B

Prints one line per game count (moves/s, requests/s, POST p50/p99, projection lag p99,
each process's CPU and the Redis commands per move) and, last, one JSON line of the figures
(`moves_per_s@50`, ...) for bench.ab. `--floor` runs bench/floor.py with the same load
just before each run and adds tablestream's requests/s and POST p99 against it (the
ratios `make bench-compare` judges, without the whole comparison).
"""

import argparse
import json
import tempfile
from pathlib import Path

import redis

from bench import load, systems
from bench.stats import load_average

FIGURES = ("moves_per_s", "requests_per_s", "post_p50_ms", "post_p99_ms", "lag_p99_ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--rate", type=float, help="pace at this many moves/s (total)")
    parser.add_argument("--floor", action="store_true", help="the floor too, before each run")
    args = parser.parse_args()
    print(f"load before: {load_average()}", flush=True)
    figures = {}
    with tempfile.TemporaryDirectory() as directory:
        ts = systems.Tablestream(Path(directory) / "ts", Path(directory) / "ts.log")
        floor = systems.Floor() if args.floor else None
        try:
            ts.start()
            if floor:
                floor.start()
            for games in args.games:
                if floor:
                    summary, _ = load.run(
                        "floor", floor.base, games, args.seconds, args.warmup, rate=args.rate
                    )
                    figures[f"floor_requests_per_s@{games}"] = summary["requests_per_s"]
                    figures[f"floor_post_p99_ms@{games}"] = summary["post_p99_ms"]
                found = one_run(ts, games, args)
                print(f"{games} games: {brief(found)}", flush=True)
                figures.update({f"{k}@{games}": v for k, v in found.items()})
                if floor:
                    rate = figures[f"floor_requests_per_s@{games}"]
                    p99 = figures[f"floor_post_p99_ms@{games}"]
                    figures[f"requests_vs_floor@{games}"] = found["requests_per_s"] / rate
                    figures[f"post_p99_vs_floor@{games}"] = (found["post_p99_ms"] or 0) / (p99 or 1)
        finally:
            ts.stop()
            if floor:
                floor.stop()
    print(f"load after: {load_average()}")
    print(json.dumps(figures))


def one_run(ts, games, args):
    """One load run against `ts`: the FIGURES, each process role's CPU ms a move
    (`api_cpu_ms`, `projector_cpu_ms`, `worker_cpu_ms`, `redis_cpu_ms`, `other_cpu_ms`)
    and the Redis commands a move."""
    client = redis.Redis.from_url(ts.redis_url)
    roles = ts.processes()
    cpu = {role: systems.cpu_seconds(processes) for role, processes in roles.items()}
    commands = total_commands(client)
    summary, _ = load.run("tablestream", ts.base, games, args.seconds, args.warmup, rate=args.rate)
    moves = max(1, summary["all_moves"])
    found = {f: summary[f] for f in FIGURES}
    for role, processes in roles.items():
        spent = systems.cpu_seconds(processes) - cpu[role]
        found[f"{role.lower()}_cpu_ms"] = 1000 * spent / moves
    found["commands"] = (total_commands(client) - commands) / moves
    client.close()
    return found


def total_commands(client):
    """Every command the Redis server has run since it started."""
    return sum(v["calls"] for v in client.info("commandstats").values())


def brief(r):
    return (
        f"{r['moves_per_s']:.0f} moves/s, {r['requests_per_s']:.0f} req/s, "
        f"POST p50 {r['post_p50_ms'] or 0:.1f} p99 {r['post_p99_ms'] or 0:.1f} ms, "
        f"lag p99 {r['lag_p99_ms'] or 0:.1f} ms, CPU ms/move: API {r['api_cpu_ms']:.2f} "
        f"projector {r['projector_cpu_ms']:.2f} worker {r['worker_cpu_ms']:.2f} "
        f"Redis {r['redis_cpu_ms']:.2f} other {r['other_cpu_ms']:.2f}, "
        f"{r['commands']:.1f} Redis commands/move"
    )


if __name__ == "__main__":
    main()
