"""Where a command POST's time goes under load: as the client saw it, and inside the
API (its own `tablestream_http_request_duration_seconds` histogram, from the request's
arrival in the app to its answer). The difference is outside the app: the HTTP server,
the kernel and the load generator, all waiting for the same cores.

Starts tablestream as `make run` does, drives --games human games (bench/load.py) at
--rate moves/s (none: flat out) for --seconds, --reps times, and prints per run the
client's POST p50/p99 and the share of POSTs the API answered within each bucket.

    .venv/bin/python -m bench.post_tail --rate 428        # half load, as bench-compare's
    .venv/bin/python -m bench.post_tail                   # saturated
"""

import argparse
import os
import tempfile
from pathlib import Path

import requests
from prometheus_client.parser import text_string_to_metric_families

from bench import load, systems

SECONDS = "tablestream_http_request_duration_seconds_bucket"
SHOWN = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)  # the histogram's own bounds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rate", type=float, default=None, help="moves/s (none: flat out)")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as run_dir:
        ts = systems.Tablestream(run_dir, Path(run_dir) / "tablestream.log").start()
        try:
            for rep in range(args.reps):
                before = command_buckets(ts.base)
                summary, _ = load.run(
                    "tablestream", ts.base, args.games, args.seconds, rate=args.rate
                )
                inside = shares(before, command_buckets(ts.base))
                shown = ", ".join(f"<= {1000 * b:g} ms {inside[b]:.1%}" for b in SHOWN)
                print(
                    f"run {rep + 1}: {summary['moves_per_s']:.0f} moves/s; the client's POST "
                    f"p50 {summary['post_p50_ms']:.1f} ms, p99 {summary['post_p99_ms']:.1f} ms; "
                    f"inside the API: {shown}",
                    flush=True,
                )
        finally:
            ts.stop()
    print(f"load after: {os.getloadavg()}")


def command_buckets(base):
    """{bucket upper bound (s): cumulative count} of the API's POST .../commands answers,
    summed over its routes (the generic and each game's)."""
    found = {}
    for family in text_string_to_metric_families(requests.get(f"{base}/metrics").text):
        for sample in family.samples:
            labels = sample.labels
            if sample.name == SECONDS and labels["method"] == "POST":
                if labels["route"].endswith("/commands"):
                    bound = float(labels["le"])
                    found[bound] = found.get(bound, 0) + sample.value
    return found


def shares(before, after):
    """{bound: share of the window's answers within it} between two readings."""
    window = {b: after[b] - before.get(b, 0) for b in after}
    total = window.get(float("inf"), 0) or 1
    return {b: window.get(b, 0) / total for b in SHOWN}


if __name__ == "__main__":
    main()
