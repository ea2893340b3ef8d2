"""Quick match under a steady arrival of tickets: time to match and the matchmaker's
CPU per match. Tickets for 2-player Alien (or `--players 3,4 --bots 30`: 3-4 player
tables completed by bots after 30 s), one player each, arrive at `--rate` a second
on a private Redis; one matchmaker process (`python -m services.matchmaker`) seats
them. Every loop is bounded: arrivals by `--tickets`, the wait for the last matches by
`--settle` seconds.

    .venv/bin/python -m bench.matchmaking [--tickets 10000] [--rate 200]

Prints the tickets matched, time to match p50/p99 (from the ticket's opening to its
claim), the matchmaker's CPU per game opened, and the load average.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import psutil

from bench.systems import private_redis


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tickets", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200.0, help="tickets a second")
    parser.add_argument("--players", default="2", help="a count, or min,max")
    parser.add_argument("--bots", type=int, default=None, help="after_seconds for bots")
    parser.add_argument("--settle", type=float, default=40.0, help="seconds, at most")
    args = parser.parse_args()
    counts = [int(n) for n in args.players.split(",")]
    counts = counts * 2 if len(counts) == 1 else counts
    with private_redis() as url:
        run(url, args.tickets, args.rate, counts, args.bots, args.settle)


def run(url, count, rate, counts, bots_after, settle):
    from services import deps as deps_module
    from shared.config import Config
    from shared.matchmaking import tickets as t

    d = deps_module.build(Config.from_env({"REDIS_URL": url, "DURABILITY": "everysec"}))
    env = {**os.environ, "REDIS_URL": url, "METRICS_PORT": "0", "DURABILITY": "everysec"}
    matchmaker = subprocess.Popen([sys.executable, "-m", "services.matchmaker"], env=env)
    try:
        at = int(time.time() * 1000)
        players = [d.players.create(f"p{n}", at)["id"] for n in range(count)]
        queue_id, queue = t.queue_of("alien", {}, False, None)
        bots = None if bots_after is None else {"after_seconds": bots_after, "level": "random"}
        process = psutil.Process(matchmaker.pid)
        cpu_before = sum(process.cpu_times()[:2])
        started = time.monotonic()
        opened = []
        for n, player in enumerate(players):
            due = started + n / rate
            time.sleep(max(0.0, due - time.monotonic()))
            now = int(time.time() * 1000)
            doc = t.ticket(t.new_ticket_id(queue_id), queue_id, queue, player, counts, bots,
                           now, 3600)  # fmt: skip
            opened.append(d.matchmaking.open(doc, queue, now)["id"])
        deadline = time.monotonic() + settle
        while d.matchmaking.waiting_count(queue_id) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # the last games open
        cpu = sum(process.cpu_times()[:2]) - cpu_before
    finally:
        matchmaker.terminate()
        matchmaker.wait(10)
    found = d.matchmaking.tickets_of(opened)
    waits = sorted(
        (doc["ended_at"] - doc["opened_at"]) / 1000
        for doc in found.values()
        if doc["status"] == "matched"
    )
    games = {doc["game_id"] for doc in found.values() if doc["status"] == "matched"}
    print(f"tickets {count} at {rate:g}/s, players {counts}, bots after {bots_after}")
    print(f"matched {len(waits)} of {count} into {len(games)} games")
    if waits:
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        p50 = statistics.median(waits) * 1000
        print(f"time to match p50 {p50:.0f} ms, p99 {p99 * 1000:.0f} ms, max {waits[-1]:.2f} s")
        tables = [d.service.load(g, fresh=True)[1]["seats"] for g in games]
        bots = sum(1 for seats in tables if any(s["bot"] for s in seats))
        print(f"games with bots {bots} of {len(games)}")
        print(f"matchmaker CPU {cpu * 1000 / max(1, len(games)):.2f} ms per game ({cpu:.1f} s)")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
