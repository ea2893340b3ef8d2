"""Can games of bots only keep a person's bot opponent waiting? `make run`'s stack
(services.run: two bot workers, one background worker), twelve anonymous creations of
Alakablast tables with an `ismcts` bot thinking 5 s in every seat, and meanwhile one
person playing an unrelated game against a bot: how long each of their turns waits for
the bot (from the person's move answered to their turn again, seen by a long-poll).

    .venv/bin/python -m bench.bot_fairness                          # this checkout
    .venv/bin/python -m bench.ab /tmp/old . --reps 1 -- bot_fairness   # before and after

Prints the wait's median, p99 and max before and during the attack, with the load
average. Bounded: --turns person turns or --seconds, whichever comes first.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from bench.stats import percentile
from bench.systems import ROOT
from services import embedded_redis

ATTACK = {
    "game": "alakablast",
    "seats": [{"bot": "ismcts", "think_ms": 5000}] * 4,
}
PERSON = {"game": "alakablast", "seats": [{"name": "ana"}, {"bot": "ismcts", "think_ms": 100}]}


def start(root, run_dir, log):
    """Redis (embedded) and `python -m services.run` from `root`; (processes, base URL,
    Redis URL)."""
    redis_process, redis_url = embedded_redis.start(run_dir / "redis")
    port = embedded_redis.free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("QUEUE_URL", "RATE_LIMITS")}
    env.update(PORT=str(port), RUN_DIR=str(run_dir), REDIS_URL=redis_url)
    stack = subprocess.Popen(
        [sys.executable, "-m", "services.run"], cwd=root, env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/readyz", timeout=2).status_code == 200:
                return (stack, redis_process), base, redis_url
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the stack did not get ready; see {log.name}")


def stop(processes):
    for process in processes:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def person_turns(base, turns, seconds):
    """Play `turns` of the person's turns (new games as they end); each turn's wait in
    seconds, the first turn of each game left out (no bot moved before it)."""
    waits, deadline = [], time.monotonic() + seconds
    session = requests.Session()
    game = None
    while len(waits) < turns and time.monotonic() < deadline:
        if game is None:
            created = session.post(f"{base}/v1/games", json=PERSON, timeout=10).json()
            game, token, moved_at = created["id"], created["seats"][0]["token"], None
            headers = {"Authorization": f"Bearer {token}"}
            version, view = 0, None
        if view is None:
            answer = session.get(
                f"{base}/v1/games/{game}/view",
                params={"after": version, "wait": 30},
                headers=headers,
                timeout=40,
            )
            if answer.status_code == 304:  # 30 s and no bot move: the wait goes on
                continue
            view = answer.json()
        version = view["version"]
        if view["status"] != "active":
            if view["status"] in ("finished", "cancelled", "expired"):
                game = None
            view = None
            continue
        if 0 not in view["to_act"] or not view["legal"]:
            view = None
            continue
        if moved_at is not None:
            waits.append(time.monotonic() - moved_at)
        answer = session.post(
            f"{base}/v1/games/{game}/commands", json=view["legal"][0], headers=headers, timeout=10
        )
        view, moved_at = None, None
        if answer.status_code == 200:
            moved = answer.json()
            version = moved["version"]
            mine = moved["view"]
            if mine["status"] == "active" and 0 in mine["to_act"] and mine["legal"]:
                view = mine  # the person acts again: no bot to wait for
            else:
                moved_at = time.monotonic()
    return waits


def figures(waits):
    if not waits:
        return "no turns"
    return (
        f"{len(waits)} turns: median {statistics.median(waits):.3f} s, "
        f"p99 {percentile(waits, 0.99):.3f} s, max {max(waits):.3f} s"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=12)
    parser.add_argument("--turns", type=int, default=30, help="person turns under attack")
    parser.add_argument("--baseline-turns", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=240, help="at most, under attack")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        run_dir = Path(directory)
        (run_dir / "redis").mkdir()
        with open(run_dir / "stack.log", "ab") as log:
            processes, base = start(ROOT, run_dir, log)
            try:
                quiet = person_turns(base, args.baseline_turns, 60)
                print(f"quiet: {figures(quiet)}", flush=True)
                for _ in range(args.attackers):
                    answer = requests.post(f"{base}/v1/games", json=ATTACK, timeout=10)
                    assert answer.status_code == 201, answer.text
                time.sleep(1)
                attacked = person_turns(base, args.turns, args.seconds)
                print(f"{args.attackers} games of bots only: {figures(attacked)}", flush=True)
                ready = requests.get(f"{base}/readyz", timeout=5).json()
                print(f"readyz during the attack: {ready['checks']['queue']}")
            finally:
                stop(processes)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
