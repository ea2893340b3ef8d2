"""The projector's figures under the human move path: projection lag saturated and at
half load, the projector's CPU a move and its own lag histogram, then the rebuild.

    .venv/bin/python -m bench.projector --games 50 --seconds 10 [--half-rate 400] [--bots]
    .venv/bin/python -m bench.ab /tmp/base . --reps 2 -- projector --half-rate 400   # A/B

Starts tablestream (`python -m services.run`, its own embedded Redis), drives --games
human games flat out for --seconds (projection lag saturated), then paced at
--half-rate moves/s (half load; by default half of this run's saturated rate: give it
explicitly in an A/B so both sides get the same rate), optionally 8 bot games, then
times `Projector.rebuild()` against a raw read of the same streams (bench/rebuild.py).
With --profile, py-spy records the projector during the saturated run.

Besides the client's lag (command answered -> the next seat's long-poll answers: one
request round trip included, so when saturated never less than a request's own time,
shown as the POST's and as --games / requests/s), it reads the projectors' own
histogram (append -> read models written, from their metrics port) over the saturated
window: `own_p50`/`own_p99` are the upper bounds of the buckets holding those
quantiles, `own_le_25ms` the share written within 25 ms. Prints one JSON line.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

import requests

from bench import load, moves_per_second, rebuild, systems
from bench import pyspy as spy
from bench.stats import load_average

OUT = Path(__file__).resolve().parent / "results" / "projector"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--half-rate", type=float, default=None)
    parser.add_argument("--bots", action="store_true", help="also 8 bot games")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--out", default=str(OUT), help="logs and profiles")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"load before: {load_average()}", flush=True)
    with tempfile.TemporaryDirectory() as run_dir:
        ts = systems.Tablestream(Path(run_dir) / "ts", out / "tablestream.log")
        ts.start()
        try:
            found = measure(args, ts, out)
        finally:
            ts.stop()
    print(f"load after: {load_average()}")
    print(json.dumps(found))


def measure(args, ts, out):
    """The saturated, half-load (and bot) runs and the rebuild: a dict of figures."""
    roles = ts.processes()
    projector = roles["projector"]
    cpu = systems.cpu_seconds(projector)
    others = {role: systems.cpu_seconds(roles[role]) for role in ("API", "Redis")}
    own = systems.projection_lag(projector)
    handles = None
    if args.profile:
        handles = spy.record([p.pid for p in projector], args.seconds, out, "projector")
    saturated, _ = load.run("tablestream", ts.base, args.games, args.seconds, args.warmup)
    moves = max(1, saturated["all_moves"])
    found = {
        "sat_moves_s": saturated["moves_per_s"],
        "sat_lag_p50": saturated["lag_p50_ms"],
        "sat_lag_p99": saturated["lag_p99_ms"],
        # A POST's own time, and the mean a request must take with --games clients
        # always waiting on one (Little's law): the lag's GET pays it too.
        "sat_post_p50": saturated["post_p50_ms"],
        "sat_post_p99": saturated["post_p99_ms"],
        "little_ms": 1000 * args.games / max(1e-9, saturated["requests_per_s"]),
        "projector_cpu_ms_move": 1000 * (systems.cpu_seconds(projector) - cpu) / moves,
        **systems.lag_quantiles(own, systems.projection_lag(projector)),
    }
    for role, before in others.items():
        spent = systems.cpu_seconds(roles[role]) - before
        found[f"{role.lower()}_cpu_ms_move"] = 1000 * spent / moves
    if handles:
        print(spy.render("projector", spy.summary(spy.finish(handles))), flush=True)
    rate = args.half_rate or saturated["moves_per_s"] / 2
    half, _ = load.run("tablestream", ts.base, args.games, args.seconds, args.warmup, rate=rate)
    found.update(half_rate=rate, half_lag_p50=half["lag_p50_ms"], half_lag_p99=half["lag_p99_ms"])
    if args.bots:
        batch = moves_per_second.play_batch(requests.Session(), ts.base, 8, seed=77)
        found["bots8_moves_s"] = batch.rate
    time.sleep(1)  # let the projector catch up before the rebuild reads the streams
    passes = rebuild.measure(ts.redis_url)
    found.update(
        rebuild_events=passes["events"],
        rebuild_s=passes["rebuild_s"],
        raw_s=passes["raw_s"],
        rebuild_vs_raw=passes["raw_s"] / passes["rebuild_s"],
    )
    return found


if __name__ == "__main__":
    main()
