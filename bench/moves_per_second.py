"""Moves per second of four-bot Alebrijes games through the whole stack.

Starts `python -m services.run` (embedded Redis, gunicorn, projector, RQ workers) on a
free port, creates games of four random bots over HTTP, and waits for them to finish.
A move is one bot command (an exchange, a play or a pass: each command makes exactly
one such event). Prints the median of several runs for one game at a time and for
several games at once (throughput), the two interleaved (1, 8, 1, 8...) so both see the
same noise. A batch is timed from the first POST until every game is seen finished
(projected), so each line also gives a game's median phases: from its POST to its first
move (the projector, RQ and a free worker), its moves (one bot chain), and from its last
move until the bench saw it finished (projection and the bench's 50 ms polling).
For each batch it also prints Redis commands per move (INFO's
total_commands_processed, the bench's own polling included) and CPU milliseconds per
move of each process (psutil, from `RUN_DIR/children.json`); and the load average.
With --profile, py-spy records the RQ worker and the projector during one more batch of
--games games and prints where their time went (bench/pyspy.py).

    .venv/bin/python -m bench.moves_per_second [--runs 3] [--games 8] [--workers 2] [--profile]
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import psutil
import redis
import requests

from bench import pyspy, systems
from bench.systems import ROOT
from services.embedded_redis import free_port

MOVES = {"exchanged", "played", "passed"}
TIME_LIMIT = 300  # seconds for one batch, at most
SINGLES = 3  # one-game batches in a "1 game" figure


def start_stack(run_dir, workers):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(PORT=str(port), RUN_DIR=run_dir, WORKERS=str(workers), RATE_LIMITS="off")
    log = open(Path(run_dir) / "stack.log", "ab")  # not over the figures
    process = subprocess.Popen(
        [sys.executable, "-m", "services.run"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a machine shared with test suites starts slowly
    while time.monotonic() < deadline:
        try:
            requests.get(f"{base}/v1/games", timeout=5)
            return process, base
        except requests.RequestException:
            time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    process.wait(30)
    raise RuntimeError("the stack did not start")


class Batch(NamedTuple):
    """A batch of games played to the end: its moves, its wall seconds from the first POST
    until every game was seen finished, and its seconds in play (from the batch's first
    move to its last, by the events' append times: no start, no waiting to see the end)."""

    moves: int
    seconds: float
    in_play: float

    @property
    def rate(self):
        return self.moves / self.seconds

    @property
    def rate_in_play(self):
        return self.moves / self.in_play


def play_batch(http, base, games, seed, phases=None):
    """Create `games` four-random-bot games and wait, long-polling each game's spectator
    view, until each is seen finished; answer a Batch. `phases`, a list: one (ms from
    the POST to the first move, ms from the first move to the last, ms from the last move
    until seen finished) per game is appended to it, from the events' append times (the
    service's clock is this one's)."""
    seats = [{"bot": "random"}] * 4
    start = time.perf_counter()
    posted, ids = [], []
    for n in range(games):
        posted.append(time.time())
        ids.append(http.post(f"{base}/v1/games", json={"game": "alebrijes", "seats": seats,
                             "options": {"seed": seed + n}}).json()["id"])  # fmt: skip
    with ThreadPoolExecutor(games) as pool:
        seen = dict(zip(ids, pool.map(lambda g: _seen_finished(base, g, start), ids), strict=True))
    elapsed = time.perf_counter() - start
    moves, firsts, lasts = 0, [], []
    for game_id, sent in zip(ids, posted, strict=True):
        log = http.get(f"{base}/v1/games/{game_id}/events", params={"limit": 1000}).json()
        times = [e["at"] / 1000 for e in log["events"] if e["type"] in MOVES]
        moves += len(times)
        if not times:
            continue
        firsts.append(times[0])
        lasts.append(times[-1])
        if phases is not None:
            phases.append(
                (1000 * (times[0] - sent), 1000 * (times[-1] - times[0]),
                 1000 * (seen[game_id] - times[-1]))
            )  # fmt: skip
    # Append times are whole milliseconds: a floor of 1 ms keeps a tiny game finite.
    in_play = max(max(lasts) - min(firsts), 0.001) if firsts else elapsed
    return Batch(moves, elapsed, in_play)


def _seen_finished(base, game_id, start):
    """Long-poll the game's spectator view until it is finished; when it was seen so
    (time.time())."""
    http, version = requests.Session(), 0
    while time.perf_counter() - start < TIME_LIMIT:
        answer = http.get(f"{base}/v1/games/{game_id}/view", params={"after": version, "wait": 10})
        if answer.status_code == 200:
            view = answer.json()
            if view["status"] == "finished":
                return time.time()
            version = view["version"]
    raise RuntimeError(f"game {game_id} unfinished after {TIME_LIMIT} s")


def _phases_text(phases):
    """Medians of play_batch's phases, in ms."""
    medians = [statistics.median(p[i] for p in phases) for i in range(3)]
    return "POST to first move {:.0f}, moves {:.0f}, last move to seen finished {:.0f}".format(
        *medians
    )


class Meter:
    """Redis commands and each process's CPU seconds, read before and after a batch."""

    def __init__(self, run_dir):
        url = (Path(run_dir) / "redis.url").read_text().strip()
        self.redis = redis.Redis.from_url(url)
        children = json.loads((Path(run_dir) / "children.json").read_text())
        self.roles = {}
        for name, child in children.items():
            role = "worker" if name.startswith("worker") else name
            process = psutil.Process(child["pid"])
            family = [process, *process.children(recursive=True)]  # gunicorn's workers
            self.roles.setdefault(role, []).extend(family)

    def read(self):
        cpu = {role: systems.cpu_seconds(ps) for role, ps in self.roles.items()}
        return self.redis.info("stats")["total_commands_processed"], cpu

    def per_move(self, before, after, moves):
        """(Redis commands a move, {role: CPU ms a move})."""
        commands = (after[0] - before[0]) / moves
        cpu = {r: 1000 * (after[1][r] - before[1][r]) / moves for r in before[1]}
        return commands, cpu


def _load():
    return Path("/proc/loadavg").read_text().split()[:3]


def play(http, base, games, seed, phases=None):
    """One figure's games: a batch of `games`, or for one game SINGLES one-game batches
    back to back (one alone lasts ~0.15 s, too short to time once); summed as one Batch."""
    rounds = SINGLES if games == 1 else 1
    batches = [play_batch(http, base, games, seed + 10 * n, phases) for n in range(rounds)]
    return Batch(*(sum(field) for field in zip(*batches, strict=True)))


def ceiling(cpu_ms_per_move):
    """Moves/s the machine's cores allow at `cpu_ms_per_move` of CPU (every process's)
    a move: what 8 games can reach at most, however well they scale."""
    return os.cpu_count() * 1000 / cpu_ms_per_move


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="RQ bot workers (make run's 2)")
    parser.add_argument("--profile", action="store_true", help="py-spy the worker and projector")
    args = parser.parse_args()
    print(f"{args.workers} RQ worker(s); load average before: {' '.join(_load())}")
    with tempfile.TemporaryDirectory() as run_dir:
        process, base = start_stack(run_dir, args.workers)
        http = requests.Session()
        meter = Meter(run_dir)
        batches = {1: [], args.games: []}
        commands = {1: [], args.games: []}
        cpu_ms = {1: [], args.games: []}
        try:
            for run in range(args.runs):
                for games in batches:
                    before, phases = meter.read(), []
                    batch = play(http, base, games, seed=1000 * run, phases=phases)
                    per_move, cpu = meter.per_move(before, meter.read(), batch.moves)
                    batches[games].append(batch)
                    commands[games].append(per_move)
                    cpu_ms[games].append(sum(cpu.values()))
                    cpu_text = ", ".join(f"{r} {ms:.2f}" for r, ms in sorted(cpu.items()))
                    print(f"  {games} game(s) at once, run {run + 1}: {batch.moves} moves "
                          f"in {batch.seconds:.2f} s = {batch.rate:.0f} moves/s "
                          f"({batch.rate_in_play:.0f} in play); "
                          f"{per_move:.1f} Redis commands a move; "
                          f"CPU ms a move: {cpu_text}; median ms a game: "
                          f"{_phases_text(phases)}")  # fmt: skip
            for games, found in batches.items():
                rates = [b.rate for b in found]
                in_play = statistics.median(b.rate_in_play for b in found)
                median = statistics.median(commands[games])
                print(f"{games} game(s) at once: median {statistics.median(rates):.0f} moves/s "
                      f"({min(rates):.0f}-{max(rates):.0f}), {in_play:.0f} in play, "
                      f"{median:.1f} Redis commands a move")  # fmt: skip
            one, many = (batches[1], batches[args.games])
            ratio = statistics.median(m.rate / o.rate for o, m in zip(one, many, strict=True))
            in_play = statistics.median(
                m.rate_in_play / o.rate_in_play for o, m in zip(one, many, strict=True)
            )
            top = ceiling(statistics.median(cpu_ms[args.games]))
            best = statistics.median(o.rate_in_play for o in one)
            print(f"{args.games} games / 1 game: {ratio:.2f}x ({in_play:.2f}x in play); "
                  f"the {os.cpu_count()} cores allow {args.games} games {top:.0f} moves/s "
                  f"at their CPU a move, {top / best:.2f}x one game in play")  # fmt: skip
            if args.profile:
                profile(meter, http, base, args.games, run_dir)
        finally:
            print(f"load average after: {' '.join(_load())}")
            process.send_signal(signal.SIGINT)
            process.wait(30)


def profile(meter, http, base, games, folder, seconds=4):
    """py-spy the worker(s) and the projector through one batch of `games` games."""
    pids = {role: [p.pid for p in meter.roles[role]] for role in ("worker", "projector")}
    handles = {role: pyspy.record(ps, seconds, folder, role) for role, ps in pids.items()}
    batch = play_batch(http, base, games, seed=77)
    print(f"profiled batch: {batch.rate:.0f} moves/s")
    for role, started in handles.items():
        print(pyspy.render(role, pyspy.summary(pyspy.finish(started)), top=12))


if __name__ == "__main__":
    main()
