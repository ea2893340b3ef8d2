"""Before/after on the HTTP server layer, against boardgame.io: the floor (bench/floor.py)
and tablestream from two checkouts (A and B, e.g. main's tree and this one), each under
its own server settings, and boardgame.io's in-memory server, driven in turn (peer, floor
A, floor B, tablestream A, tablestream B, ...) so all see the same noise.

    git -C /work/main worktree add --detach /tmp/base main
    .venv/bin/python bench/server_ab.py /tmp/base . --games 10 50 --reps 3 --seconds 10

Prints one line per run and, per game count, the medians: moves/s (the floor's as
requests/s / 2, as `make bench-compare` counts it), each against boardgame.io's run just
before it, and the servers' CPU per request (floor) or per move (tablestream's API).
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
import systems  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="checkout A (its services/, deploy/ and bench/floor.py)")
    parser.add_argument("b", help="checkout B")
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    args = parser.parse_args()
    roots = {"A": Path(args.a).resolve(), "B": Path(args.b).resolve()}
    print(f"load before: {os.getloadavg()}", flush=True)
    runs = {}  # (label, games) -> [summary]
    with tempfile.TemporaryDirectory() as directory:
        started = {"boardgame.io": systems.Peer()}
        for side, root in roots.items():
            started[f"floor {side}"] = systems.Floor(root)
            started[f"tablestream {side}"] = systems.Tablestream(
                Path(directory) / side, Path(directory) / f"{side}.log", root=root
            )
        try:
            for system in started.values():
                system.start()
            for rep in range(args.reps):
                for games in args.games:
                    for label, system in started.items():
                        summary = one_run(label, system, games, args)
                        runs.setdefault((label, games), []).append(summary)
                        print(f"{label}, {games} games #{rep + 1}: {brief(summary)}", flush=True)
        finally:
            for system in started.values():
                if getattr(system, "process", None) is not None:
                    system.stop()
    print(f"load after: {os.getloadavg()}")
    for games in args.games:
        print(f"medians, {games} games:")
        peer = runs["boardgame.io", games]
        for label in started:
            mine = runs[label, games]
            ratios = [m["moves_per_s"] / p["moves_per_s"] for m, p in zip(mine, peer, strict=True)]
            cpu = statistics.median(m["cpu_ms"] for m in mine)
            print(
                f"  {label}: {statistics.median(m['moves_per_s'] for m in mine):.0f} moves/s, "
                f"{statistics.median(ratios):.2f}x boardgame.io "
                f"({', '.join(f'{r:.2f}' for r in ratios)}), server CPU {cpu:.3f} ms/{unit(label)}"
            )


def one_run(label, system, games, args):
    if label == "boardgame.io":
        server = [psutil.Process(system.process.pid)]
        cpu = systems.cpu_seconds(server)
        seconds, warmup = int(args.seconds), int(args.warmup)
        line = system.drive("moves", "--matches", games, "--seconds", seconds, "--warmup", warmup)
        moves = line["moves_per_s"] * (seconds + warmup)  # it moves in its warm-up too
        cpu_ms = 1000 * (systems.cpu_seconds(server) - cpu) / max(1, moves)
        return {"moves_per_s": line["moves_per_s"], "requests_per_s": 0, "cpu_ms": cpu_ms}
    target = "floor" if label.startswith("floor") else "tablestream"
    if target == "floor":
        root = psutil.Process(system.process.pid)
        server = [root, *root.children(recursive=True)]
        server = [p for p in server if "redis" not in p.name()]  # the floor's own Redis
    else:
        server = system.processes()["API"]
    cpu = systems.cpu_seconds(server)
    summary, _ = load.run(target, system.base, games, args.seconds, args.warmup)
    done = max(1, summary["all_moves"] * (2 if target == "floor" else 1))
    summary["cpu_ms"] = 1000 * (systems.cpu_seconds(server) - cpu) / done
    if target == "floor":  # a floor move is a GET and a POST, as bench-compare counts it
        summary["moves_per_s"] = summary["requests_per_s"] / 2
    return summary


def unit(label):
    return "request" if label.startswith("floor") else "move"


def brief(summary):
    return (
        f"{summary['moves_per_s']:.0f} moves/s, {summary['requests_per_s']:.0f} req/s, "
        f"server CPU {summary['cpu_ms']:.3f} ms"
    )


if __name__ == "__main__":
    main()
