"""Projection lag under a flood of abandoned games (issue 13, item 3).

Starts an embedded Redis and ONE projector process, creates --games waiting games as
fast as it can (nobody ever joins them), and meanwhile plays a two-human game, one move
every --every seconds for --seconds: for each move, the time from the append being
acknowledged to the mover's view showing it. The old projector swept every live game
every 30 s and projected nothing meanwhile; the incremental sweep looks at a bounded
batch between two reads of the feed.

    .venv/bin/python bench/sweep_lag.py [--games 5000] [--rate R] [--seconds 75] [--code DIR]

--code runs the projector of another checkout (e.g. `git archive <commit> | tar -x -C
DIR`) against the same flood, to compare before and after.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services import deps as deps_module  # noqa: E402
from services import embedded_redis  # noqa: E402
from shared import jsonutil, table  # noqa: E402
from shared.config import Config  # noqa: E402

OPEN = [{"name": "ana"}, {"open": True}]


def start_projector(code, url):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(REDIS_URL=url, TOKEN_SECRET="bench", PYTHONPATH=str(code))
    return subprocess.Popen(
        [sys.executable, "-m", "services.projector"],
        cwd=code,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def flood(d, games, created, rate=None):
    """Create `games` waiting games, at `rate` a second (None: as fast as we can)."""
    start = time.monotonic()
    for count in range(games):
        if rate:
            time.sleep(max(0.0, start + count / rate - time.monotonic()))
        d.service.create("alebrijes", OPEN, {})
        created.append(time.monotonic())


def move_and_wait(d, game_id, timeout=60.0):
    """Make the next move; return seconds until the mover's view shows it."""
    _, current = d.service.load(game_id)
    seat = table.to_act(current)[0]
    command = table.rules_of(current).legal(current["rules"], seat)[0]
    version, _, _ = d.service.command(game_id, seat, command)
    acknowledged = time.monotonic()
    key = d.keys.view(game_id, seat)
    while time.monotonic() - acknowledged < timeout:
        raw = d.redis.get(key)
        if raw and jsonutil.loads(raw)["version"] >= version:
            return time.monotonic() - acknowledged
        time.sleep(0.001)
    return timeout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=75.0)
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--rate", type=float, help="games created a second (default: at once)")
    parser.add_argument("--code", default=str(ROOT))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        redis_process, url = embedded_redis.start(directory)
        projector = start_projector(args.code, url)
        try:
            d = deps_module.build(Config(redis_url=url, queue_url=url, token_secret="bench"))
            game_id = d.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {"rounds": 50})[
                "id"
            ]
            move_and_wait(d, game_id)  # the projector is up
            created = []
            flooding = threading.Thread(target=flood, args=(d, args.games, created, args.rate))
            start = time.monotonic()
            flooding.start()
            lags = []
            while time.monotonic() - start < args.seconds:
                if d.service.load(game_id)[1]["status"] != "active":
                    game_id = d.service.create(
                        "alebrijes", [{"name": "a"}, {"name": "b"}], {"rounds": 50}
                    )["id"]
                lags.append((time.monotonic() - start, move_and_wait(d, game_id)))
                time.sleep(args.every)
            flooding.join()
        finally:
            projector.terminate()
            projector.wait(10)
            redis_process.terminate()
            redis_process.wait(10)
    flood_seconds = created[-1] - start if created else 0
    print(f"projector code: {args.code}")
    print(f"{len(created)} waiting games created in {flood_seconds:.1f} s")
    # While the flood's own notifications queue up in the feed, and afterwards, when
    # only the sweep still looks at the abandoned games.
    settled = flood_seconds + 10
    report("all moves", [lag for _, lag in lags])
    report(f"moves in the first {settled:.0f} s", [lag for t, lag in lags if t < settled])
    report("moves after that (the sweep)", [lag for t, lag in lags if t >= settled])


def report(name, lags):
    if not lags:
        return
    lags = sorted(lags)
    p99 = lags[max(0, int(len(lags) * 0.99) - 1)]
    print(
        f"{name}: {len(lags)}, time to view median {statistics.median(lags) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
