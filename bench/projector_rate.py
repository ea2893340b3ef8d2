"""The projector alone: projection lag and CPU per event at a paced event rate, with
no API in the way.

Plays --games 4-seat, 8-round Alebrijes games once (first legal command, in this
process) and keeps their events. Then, per rate, on a fresh embedded Redis: starts
`python -m services.projector`, appends the recorded events one at a time,
round robin over the games, paced at --rates events/s for --seconds each (one process,
EventStore.append as the API does it: script + feed XADD), and listens on the `changes`
channel. An event's lag is from its append until a "<game> <version>" at or past it is
published (the read models are written by then). Prints p50/p99 lag, the rate reached,
the projector's CPU per event and Redis' (INFO cpu: the appends' share included, the
same for every checkout), and last the medians per rate as one JSON line. --seats 2
plays the bench's human games' size.

    .venv/bin/python -m bench.projector_rate --rates 250 500 1000
    .venv/bin/python -m bench.ab /tmp/base . --reps 1 -- projector_rate --rates 500   # A/B
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import redis

from bench import systems
from bench.stats import load_average, median, percentile
from services import embedded_redis
from services.deps import build
from shared.config import Config
from shared.store import EventStore

SEATS = [{"name": n} for n in "abcd"]  # --seats of them
ROUNDS = 8  # ~1,000 events a game
FIGURES = ("reached", "lag_p50_ms", "lag_p99_ms", "cpu_ms_per_event", "redis_cpu_ms_per_event")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4, help="seats a game (2 to 4)")
    args = parser.parse_args()
    print(f"load before: {load_average()}", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        games = record_games(Path(scratch) / "record", args.games, args.seats)
        print(f"recorded {sum(map(len, games))} events of {len(games)} games", flush=True)
        rows = []
        for rep in range(args.reps):
            for rate in args.rates:
                row = one_run(Path(scratch) / f"r{rep}-{rate}", systems.ROOT, games, rate, args)
                rows.append({**row, "rep": rep + 1})
                print(json.dumps(rows[-1]), flush=True)
    print(f"load after: {load_average()}")
    figures = {}
    for rate in args.rates:
        mine = [r for r in rows if r["rate"] == rate]
        for key in FIGURES:
            figures[f"{key}@{rate}"] = median(r[key] for r in mine)
    print(json.dumps(figures))  # last: the medians, for bench.ab


def record_games(directory, count, seats=4):
    """The events of `count` games played to their end, as lists of event dicts."""
    directory.mkdir(parents=True)
    process, url = embedded_redis.start(directory, appendfsync="no")
    try:
        client = redis.Redis.from_url(url)
        config = Config(redis_url=url, queue_url=url, token_secret="x")
        d = build(config, client=client, queue_client=client)
        games = []
        for seed in range(count):
            game_id = d.service.create(
                "alebrijes", SEATS[:seats], {"seed": seed, "rounds": ROUNDS}
            )["id"]
            systems.play_to_end(d, game_id, lambda legal: legal[0], 20_000)
            games.append([r.event for r in d.store.read(game_id)])
        return games
    finally:
        process.kill()
        process.wait(10)


def one_run(directory, root, games, rate, args):
    directory.mkdir(parents=True)
    redis_process, url = embedded_redis.start(directory, appendfsync="no")
    env = {k: v for k, v in os.environ.items() if k not in ("QUEUE_URL", "KEY_PREFIX")}
    env.update(REDIS_URL=url, TOKEN_SECRET="x", METRICS_PORT="0")
    projector = subprocess.Popen(
        [sys.executable, "-m", "services.projector"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis.from_url(url)
        store = EventStore(client)
        published = Listener(client, store.keys.changes)
        deadline = time.monotonic() + 60
        while not client.zcard(store.keys.projectors):  # its first heartbeat: it follows
            if time.monotonic() > deadline or projector.poll() is not None:
                raise RuntimeError(f"the projector of {root} did not start")
            time.sleep(0.1)
        time.sleep(0.5)
        cpu, redis_cpu = _cpu(projector.pid), _redis_cpu(client)
        appended, reached = drive(store, games, rate, args.seconds)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not published.caught_up(appended):
            time.sleep(0.05)
        cpu, redis_cpu = _cpu(projector.pid) - cpu, _redis_cpu(client) - redis_cpu
        lags = published.lags(appended)
        published.stop()
        return {
            "rate": rate,
            "reached": reached,
            "events": len(appended),
            "lag_p50_ms": percentile(lags, 0.5),
            "lag_p99_ms": percentile(lags, 0.99),
            "unprojected": len(appended) - len(lags),
            "cpu_ms_per_event": 1000 * cpu / max(1, len(appended)),
            "redis_cpu_ms_per_event": 1000 * redis_cpu / max(1, len(appended)),
        }
    finally:
        projector.terminate()
        projector.wait(20)
        redis_process.kill()
        redis_process.wait(10)


def drive(store, games, rate, seconds):
    """Append the games' events round robin at `rate` a second for `seconds` (bounded by
    the events there are). Returns [(game_id, version, appended_at)] and the rate reached."""
    ids = [f"bench{index:02d}" for index in range(len(games))]
    positions = [0] * len(games)
    appended = []
    start = time.perf_counter()
    total = min(int(rate * seconds), sum(map(len, games)))
    for n in range(total):
        game = n % len(games)
        while positions[game] >= len(games[game]):
            game = (game + 1) % len(games)
        due = start + n / rate
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        event = games[game][positions[game]]
        version = store.append(ids[game], positions[game], [event], int(time.time() * 1000))
        appended.append((ids[game], version, time.perf_counter()))
        positions[game] += 1
    return appended, total / (time.perf_counter() - start)


class Listener:
    """Notes when each "<game> <version>" is published on the changes channel."""

    def __init__(self, client, channel):
        self.seen = {}  # game -> [(version, at)]
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(channel)
        self.running = True
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self):
        while self.running:
            message = self.pubsub.get_message(timeout=0.1)
            if message:
                game, version = message["data"].decode().split()
                self.seen.setdefault(game, []).append((int(version), time.perf_counter()))

    def caught_up(self, appended):
        last = {}
        for game, version, _ in appended:
            last[game] = version
        return all(
            self.seen.get(game) and max(v for v, _ in self.seen[game]) >= version
            for game, version in last.items()
        )

    def lags(self, appended):
        lags = []
        for game, version, at in appended:
            when = [t for v, t in self.seen.get(game, []) if v >= version]
            if when:
                lags.append((min(when) - at) * 1000)
        return lags

    def stop(self):
        self.running = False
        self.thread.join(2)
        self.pubsub.close()


def _cpu(pid):
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def _redis_cpu(client):
    """Seconds of CPU the Redis server has used (its appends of the events and the
    listener's messages included: the same for every tree)."""
    cpu = client.info("cpu")
    return cpu["used_cpu_sys"] + cpu["used_cpu_user"]


if __name__ == "__main__":
    main()
