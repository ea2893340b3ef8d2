"""The projector's figures of issue 12, for two versions of the code in one run.

For each --reps, for each tree in --roots (A, B, A, B..., each rep starting one tree
further on): start tablestream from that tree
(`python -m services.run`, its own embedded Redis), drive --games human games flat out
for --seconds (projection lag saturated), then paced at --half-rate moves/s (half load;
default: half of the first tree's first saturated rate, so every tree gets the same
rate), optionally 8 bot games, then time that tree's `Projector.rebuild()` against a raw
XRANGE + orjson parse of the same streams. With --profile, py-spy records the projector
during each saturated run. Prints one line per run and the medians per tree.

Besides the client's lag (command answered -> the next seat's long-poll answers: one
request round trip included, so when saturated never less than a request's own time,
shown as the POST's and as --games / requests/s), it reads the projectors' own
histogram (append -> read models written, from their metrics port) over the saturated
window: `own_p50`/`own_p99` are the upper bounds of the buckets holding those
quantiles, `own_le_25ms` the share written within 25 ms. A root may carry settings for
its run: `--roots /tmp/base .:PROJECTORS=2` runs the same tree twice.

    .venv/bin/python bench/projector_ab.py --roots /tmp/base . --reps 2 --seconds 10
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
import moves_per_second  # noqa: E402
import pyspy as spy  # noqa: E402
import rebuild_ab  # noqa: E402
import systems  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--roots", nargs="+", required=True, help="source trees to compare")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--half-rate", type=float, default=None)
    parser.add_argument("--bots", action="store_true", help="also 8 bot games per run")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--out", default="bench/results/projector_ab")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    runs = []
    for rep in range(args.reps):
        # Each rep starts one tree further on (A,B,C then B,C,A...): on a shared machine
        # the first run of a rep came out ahead whichever tree it was.
        order = [(rep + i) % len(args.roots) for i in range(len(args.roots))]
        for index, root in ((i, args.roots[i]) for i in order):
            label = f"{'ABCDEFGH'[index]} rep {rep + 1}"
            runs.append({"tree": root, **one_run(args, root, label, out)})
            print(f"{label} ({root}): {json.dumps(runs[-1]['brief'])}", flush=True)
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")
    (out / "runs.json").write_text(json.dumps(runs, indent=1, default=str))
    for index, root in enumerate(args.roots):
        mine = [r["brief"] for r in runs if r["tree"] == root]
        medians = {k: round(statistics.median(m[k] for m in mine), 2) for k in mine[0]}
        print(f"median {'ABCDEFGH'[index]} ({root}): {json.dumps(medians)}")


def one_run(args, root, label, out):
    tree, *settings = root.split(":")  # /path:NAME=value:NAME=value
    env = dict(setting.split("=", 1) for setting in settings)
    with tempfile.TemporaryDirectory() as run_dir:
        ts = systems.Tablestream(
            Path(run_dir) / "ts",
            out / f"tablestream-{label.replace(' ', '-')}.log",
            root=tree,
            env=env,
        )
        ts.start()
        try:
            return measure(args, ts, tree, label, out)
        finally:
            ts.stop()


def measure(args, ts, root, label, out):
    roles = ts.processes()
    projector = roles["projector"]
    cpu = systems.cpu_seconds(projector)
    others = {role: systems.cpu_seconds(roles[role]) for role in ("API", "Redis")}
    own = systems.projection_lag(projector)
    handles = None
    if args.profile:
        name = f"projector-{label.replace(' ', '-')}"
        handles = spy.record([p.pid for p in projector], args.seconds, out, name)
    saturated, _ = load.run("tablestream", ts.base, args.games, args.seconds, args.warmup)
    cpu_ms = 1000 * (systems.cpu_seconds(projector) - cpu) / max(1, saturated["all_moves"])
    brief = {
        "sat_moves_s": saturated["moves_per_s"],
        "sat_lag_p50": saturated["lag_p50_ms"],
        "sat_lag_p99": saturated["lag_p99_ms"],
        # A POST's own time, and the mean a request must take with --games clients
        # always waiting on one (Little's law): the lag's GET pays it too.
        "sat_post_p50": saturated["post_p50_ms"],
        "sat_post_p99": saturated["post_p99_ms"],
        "little_ms": 1000 * args.games / max(1e-9, saturated["requests_per_s"]),
        "projector_cpu_ms_move": cpu_ms,
        **systems.lag_quantiles(own, systems.projection_lag(projector)),
    }
    for role, before in others.items():
        spent = systems.cpu_seconds(roles[role]) - before
        brief[f"{role.lower()}_cpu_ms_move"] = 1000 * spent / max(1, saturated["all_moves"])
    if handles:
        print(spy.render(f"projector, {label}", spy.summary(spy.finish(handles))), flush=True)
    if args.half_rate is None:
        args.half_rate = saturated["moves_per_s"] / 2
    half, _ = load.run(
        "tablestream", ts.base, args.games, args.seconds, args.warmup, rate=args.half_rate
    )
    brief.update(
        half_rate=args.half_rate,
        half_lag_p50=half["lag_p50_ms"],
        half_lag_p99=half["lag_p99_ms"],
    )
    if args.bots:
        batch = moves_per_second.play_batch(requests.Session(), ts.base, 8, seed=77)
        brief["bots8_moves_s"] = batch.rate
    time.sleep(1)  # let the projector catch up before the rebuild reads the streams
    # rebuild_ab's measure, run in the tree under test (its own services/ and shared/).
    done = subprocess.run(
        [sys.executable, rebuild_ab.__file__, "--measure", ts.redis_url],
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(done.stderr)
    rebuild = json.loads(done.stdout.strip().splitlines()[-1])
    brief.update(
        rebuild_events=rebuild["events"],
        rebuild_s=rebuild["rebuild_s"],
        raw_s=rebuild["raw_s"],
        rebuild_vs_raw=rebuild["raw_s"] / rebuild["rebuild_s"],
    )
    return {"brief": brief, "saturated": _trim(saturated), "half": _trim(half)}


def _env():
    import os

    return {k: v for k, v in os.environ.items() if k not in ("QUEUE_URL", "KEY_PREFIX")}


def _trim(summary):
    return {k: v for k, v in summary.items() if not isinstance(v, list)}


if __name__ == "__main__":
    main()
