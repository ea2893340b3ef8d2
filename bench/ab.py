"""Before/after on the human move path: tablestream from two checkouts (A and B, e.g.
main's tree and this one), each as `make run` starts it with its own embedded Redis,
driven by bench/load.py in turn (A, B, A, B...) so both see the same noise.

    git archive main | tar -x -C /tmp/base
    .venv/bin/python bench/ab.py /tmp/base . --games 10 50 --reps 3 --seconds 10

Prints one line per run (moves/s, requests/s, POST p50/p99, API CPU and Redis commands
per move) and the medians per side, with the load average before and after. The same
interpreter runs both sides; only the services' source differs. `--env B:NAME=VALUE`
sets an environment variable for one side (e.g. a gunicorn setting). `--floor` runs
bench/floor.py before each A, B pair too and prints each side's requests/s and POST p99
against the floor's run just before it (the issue's ratios, without the whole
`make bench-compare`).
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
import pyspy as spy  # noqa: E402
import systems  # noqa: E402

FIGURES = ("moves_per_s", "requests_per_s", "post_p50_ms", "post_p99_ms", "lag_p99_ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="checkout A (its services/ and shared/)")
    parser.add_argument("b", help="checkout B")
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--rate", type=float, help="pace at this many moves/s (total)")
    parser.add_argument("--env", action="append", default=[], help="SIDE:NAME=VALUE")
    parser.add_argument("--profile", help="py-spy both sides' API workers: raw stacks here")
    parser.add_argument(
        "--floor", action="store_true", help="run bench/floor.py too, before A and B each time"
    )
    args = parser.parse_args()
    sides = {"A": Path(args.a).resolve(), "B": Path(args.b).resolve()}
    env = {"A": {}, "B": {}}
    for item in args.env:
        side, _, setting = item.partition(":")
        name, _, value = setting.partition("=")
        env[side][name] = value
    print(f"load before: {os.getloadavg()}", flush=True)
    results = {(side, games): [] for side in sides for games in args.games}
    floor_runs = {games: [] for games in args.games}
    with tempfile.TemporaryDirectory() as directory:
        started = {}
        floor = None
        try:
            if args.floor:
                floor = systems.Floor().start()
            for side, root in sides.items():
                started[side] = systems.Tablestream(
                    Path(directory) / side,
                    Path(directory) / f"{side}.log",
                    root=root,
                    env=env[side],
                ).start()
            for rep in range(args.reps):
                for games in args.games:
                    if floor is not None:
                        floor_runs[games].append(floor_run(floor, games, args))
                        print(f"floor {games} games #{rep + 1}: {brief(floor_runs[games][-1])}")
                    for side, system in started.items():
                        results[side, games].append(one_run(system, games, args))
                        print(
                            f"{side} {games} games #{rep + 1}: {brief(results[side, games][-1])}",
                            flush=True,
                        )
            if args.profile:
                for side, system in started.items():
                    print(profile(system, side, max(args.games), args), flush=True)
        finally:
            for system in [*started.values(), *([floor] if floor else [])]:
                system.stop()
    print(f"load after: {os.getloadavg()}")
    for games in args.games:
        print(f"medians, {games} games:")
        for side in sides:
            runs = results[side, games]
            medians = {f: statistics.median(r[f] or 0 for r in runs) for f in FIGURES}
            medians["api_cpu_ms"] = statistics.median(r["api_cpu_ms"] for r in runs)
            medians["commands"] = statistics.median(r["commands"] for r in runs)
            print(f"  {side} ({sides[side]}): {brief(medians)}")
        a, b = (statistics.median(r["moves_per_s"] for r in results[s, games]) for s in "AB")
        print(f"  B/A moves/s: {b / a:.2f}x")
        if floor_runs[games]:
            rate = statistics.median(r["requests_per_s"] for r in floor_runs[games])
            p99 = statistics.median(r["post_p99_ms"] or 0 for r in floor_runs[games])
            print(f"  floor: {rate:.0f} req/s, POST p99 {p99:.1f} ms (medians)")
            for side in sides:
                runs = results[side, games]
                ratios = [
                    r["requests_per_s"] / f["requests_per_s"]
                    for r, f in zip(runs, floor_runs[games], strict=True)
                ]
                p99s = [
                    (r["post_p99_ms"] or 0) / (f["post_p99_ms"] or 1)
                    for r, f in zip(runs, floor_runs[games], strict=True)
                ]
                print(
                    f"  {side}/floor req/s {statistics.median(ratios):.2f}x "
                    f"(each run against the floor run before it: {_list(ratios)}), "
                    f"POST p99 {statistics.median(p99s):.2f}x ({_list(p99s)})"
                )


def one_run(system, games, args):
    client = redis.Redis.from_url(system.redis_url)
    api = system.processes()["API"]
    cpu = systems.cpu_seconds(api)
    commands = total_commands(client)
    summary, _ = load.run(
        "tablestream", system.base, games, args.seconds, args.warmup, rate=args.rate
    )
    moves = max(1, summary["all_moves"])
    summary["api_cpu_ms"] = 1000 * (systems.cpu_seconds(api) - cpu) / moves
    summary["commands"] = (total_commands(client) - commands) / moves
    client.close()
    return summary


def floor_run(floor, games, args):
    """One run of the floor app with the same load and settings: its summary."""
    summary, _ = load.run("floor", floor.base, games, args.seconds, args.warmup, rate=args.rate)
    summary.update(api_cpu_ms=0.0, commands=0.0)  # not measured for the floor
    return summary


def _list(ratios):
    return ", ".join(f"{r:.2f}" for r in ratios)


def profile(system, side, games, args):
    """py-spy on the API's gunicorn workers during one more run: the rendered summary."""
    folder = Path(args.profile)
    folder.mkdir(parents=True, exist_ok=True)
    pids = [p.pid for p in system.api_workers()]
    handles = spy.record(pids, args.seconds + args.warmup, folder, f"api-{side}")
    load.run("tablestream", system.base, games, args.seconds, args.warmup, rate=args.rate)
    return spy.render(f"{side}: API workers, {games} games", spy.summary(spy.finish(handles)))


def total_commands(client):
    return sum(v["calls"] for v in client.info("commandstats").values())


def brief(r):
    return (
        f"{r['moves_per_s']:.0f} moves/s, {r['requests_per_s']:.0f} req/s, "
        f"POST p50 {r['post_p50_ms'] or 0:.1f} p99 {r['post_p99_ms'] or 0:.1f} ms, "
        f"lag p99 {r['lag_p99_ms'] or 0:.1f} ms, API CPU {r['api_cpu_ms']:.2f} ms/move, "
        f"{r['commands']:.1f} Redis commands/move"
    )


if __name__ == "__main__":
    main()
