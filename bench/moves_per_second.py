"""Moves per second of four-bot Alebrijes games through the whole stack.

Starts `python -m services.run` (embedded Redis, gunicorn, projector, RQ worker) on a
free port, creates games of four random bots over HTTP, and waits for them to finish.
A move is one bot command (an exchange, a play or a pass: each command makes exactly
one such event). Prints the median of several runs for one game at a time (latency
bound: projector -> RQ -> worker -> game service per move) and for several games at
once (throughput).

    .venv/bin/python bench/moves_per_second.py [--runs 3] [--games 8]
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.embedded_redis import free_port  # noqa: E402

MOVES = {"exchanged", "played", "passed"}
TIME_LIMIT = 300  # seconds for one batch, at most


def start_stack(run_dir, workers):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(PORT=str(port), RUN_DIR=run_dir, WORKERS=str(workers), RATE_LIMITS="off")
    process = subprocess.Popen(
        [sys.executable, "-m", "services.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            requests.get(f"{base}/v1/games", timeout=1)
            return process, base
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("the stack did not start")


def play_batch(http, base, games, seed):
    seats = [{"bot": "random"}] * 4
    start = time.perf_counter()
    ids = [
        http.post(f"{base}/v1/games", json={"game": "alebrijes", "seats": seats,
                  "options": {"seed": seed + n}}).json()["id"]
        for n in range(games)
    ]  # fmt: skip
    pending = set(ids)
    while pending:
        if time.perf_counter() - start > TIME_LIMIT:
            raise RuntimeError(f"{len(pending)} games unfinished after {TIME_LIMIT} s")
        for game_id in list(pending):
            if http.get(f"{base}/v1/games/{game_id}").json()["status"] == "finished":
                pending.discard(game_id)
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    moves = 0
    for game_id in ids:
        log = http.get(f"{base}/v1/games/{game_id}/events", params={"limit": 1000}).json()
        moves += sum(1 for e in log["events"] if e["type"] in MOVES)
    return moves, elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1, help="RQ worker processes")
    args = parser.parse_args()
    print(f"{args.workers} RQ worker(s)")
    with tempfile.TemporaryDirectory() as run_dir:
        process, base = start_stack(run_dir, args.workers)
        http = requests.Session()
        try:
            for games in (1, args.games):
                rates = []
                for run in range(args.runs):
                    moves, elapsed = play_batch(http, base, games, seed=1000 * run)
                    rates.append(moves / elapsed)
                    print(f"  {games} game(s) at once, run {run + 1}: {moves} moves "
                          f"in {elapsed:.2f} s = {moves / elapsed:.0f} moves/s")  # fmt: skip
                print(f"{games} game(s) at once: median {statistics.median(rates):.0f} moves/s")
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(30)


if __name__ == "__main__":
    main()
