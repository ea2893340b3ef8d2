"""What each durability mode costs an append, alone and under concurrency: the event
store's append (shared/store.py) against an embedded Redis with

- `everysec`: appendfsync everysec, the reply before the fsync (a second of writes at risk);
- `always`: appendfsync always, the fsync before the reply, one fsync for every write
  of an event loop turn (Redis groups the concurrent writers' commits);
- `replica`: appendfsync everysec on the primary and a replica (everysec too), WAIT 1
  after every append: the reply once the replica has the write.

    .venv/bin/python -m bench.durability                 # 1, 8, 32 writers, 5 s each
    .venv/bin/python -m bench.durability --writers 1 16 --seconds 3 --reps 2

Each writer appends one event at a time to games of its own, as moves do. Prints, per
mode and writer count, appends a second and the append's p50 and p99 (medians over
--reps runs, the modes interleaved), with the load average. The data goes to a
temporary directory on the disk that holds /tmp.
"""

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import redis

from services import embedded_redis
from shared.store import EventStore

MODES = ("everysec", "always", "replica")


def measure(url, writers, seconds, replicas):
    """(appends a second, p50 ms, p99 ms) of `writers` threads appending for `seconds`."""
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=writers + 4)
    client = redis.Redis(connection_pool=pool)
    store = EventStore(client, replicas=replicas)
    latencies = [[] for _ in range(writers)]
    stop_at = time.monotonic() + seconds

    def write(number):
        game, version, mine = f"d{number}-{time.monotonic_ns()}", 0, latencies[number]
        event = {"type": "commanded", "seat": 0, "command": {"type": "pass"}, "by": "human"}
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            version = store.append(game, version, [event], int(time.time() * 1000))
            mine.append(time.perf_counter() - started)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    client.close()
    pool.disconnect()
    every = sorted(x for mine in latencies for x in mine)
    p99 = every[min(len(every) - 1, int(0.99 * len(every)))]
    return len(every) / seconds, statistics.median(every) * 1000, p99 * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}", flush=True)
    rows = {}
    with tempfile.TemporaryDirectory() as directory:
        for rep in range(args.reps):
            for mode in args.modes:
                base = Path(directory) / f"{mode}-{rep}"
                (base / "primary").mkdir(parents=True)
                started = []
                try:
                    fsync = "always" if mode == "always" else "everysec"
                    process, url = embedded_redis.start(base / "primary", appendfsync=fsync)
                    started.append(process)
                    replicas = 0
                    if mode == "replica":
                        (base / "replica").mkdir()
                        started.append(embedded_redis.start_replica(base / "replica", url)[0])
                        replicas = 1
                    for writers in args.writers:
                        figures = measure(url, writers, args.seconds, replicas)
                        rows.setdefault((mode, writers), []).append(figures)
                        rate, p50, p99 = figures
                        print(
                            f"{mode:8} {writers:3} writers: {rate:8.0f} appends/s, "
                            f"p50 {p50:6.2f} ms, p99 {p99:6.2f} ms",
                            flush=True,
                        )
                finally:
                    for process in started:
                        process.kill()
                        process.wait()
    print(f"load after: {os.getloadavg()}")
    print(f"\nmedians of {args.reps}:")
    print("| mode | writers | appends/s | p50 ms | p99 ms |\n|---|---|---|---|---|")
    for (mode, writers), runs in rows.items():
        rate, p50, p99 = (statistics.median(run[i] for run in runs) for i in range(3))
        print(f"| {mode} | {writers} | {rate:.0f} | {p50:.2f} | {p99:.2f} |")


if __name__ == "__main__":
    main()
