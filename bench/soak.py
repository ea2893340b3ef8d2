"""A soak: `make run`'s stack under a mixed load for --minutes while a chaos loop
SIGKILLs one of its processes every --chaos-seconds (the supervisor starts it again),
each kind of process in turn, in a random order.

    .venv/bin/python -m bench.soak                    # 30 minutes
    .venv/bin/python -m bench.soak --minutes 5 --json # the slow test's run

The load: --humans REST players (two seats of a game each, every move a POST read back
from its answer), a game of random bots opened every 10 s, and a table with a 2 s turn
timer that nobody plays (its timers fire on the workers). The victims: Redis, the
projector, a bot worker, the background worker, the timers worker, an API worker.

At the end it checks every acknowledged move (a 200 to a command) against the stored
streams: each is there, in order. Prints per minute the POST p99 and the processes'
memory (RSS, summed), then the verdict: acknowledged moves lost, 5xx answers (apart:
connection errors, the price of a killed API worker, and 503s with Retry-After, the
price of a killed Redis, which a client sends again), memory growth after the first
minute, the last minute's p99 against the first's, and the load average.
"""

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import redis
import requests

from bench.bot_fairness import start, stop
from shared.keys import Keys

ROOT = Path(__file__).resolve().parents[1]
VICTIMS = ("redis", "projector", "worker", "background", "timers", "api worker")


class Soak:
    def __init__(self, base):
        self.base = base
        self.lock = threading.Lock()
        self.acked = []  # (game_id, version, seat, command)
        self.latencies = {}  # minute -> [seconds]
        self.fivexx = 0
        self.connection_errors = 0
        self.unavailable = 0  # 503s with Retry-After, while Redis restarts
        self.started = time.monotonic()
        self.stop_at = None

    def minute(self):
        return int((time.monotonic() - self.started) // 60)

    def call(self, method, path, **kwargs):
        """The answer, or None when the connection failed (counted)."""
        try:
            answer = requests.request(method, f"{self.base}{path}", timeout=15, **kwargs)
        except requests.RequestException:
            with self.lock:
                self.connection_errors += 1
            time.sleep(0.5)
            return None
        if answer.status_code == 503 and "Retry-After" in answer.headers:
            # Redis restarting: the documented answer to send again (errors.unexpected),
            # the price of a killed Redis as connection errors are of a killed API worker.
            with self.lock:
                self.unavailable += 1
            time.sleep(float(answer.headers["Retry-After"]))
        elif answer.status_code >= 500:
            with self.lock:
                self.fivexx += 1
            print(f"5xx: {method} {path} {answer.status_code} {answer.text[:300]}", file=sys.stderr)
        return answer

    def human_pair(self, seed):
        """Two seats of one game played by REST, game after game."""
        rng = random.Random(seed)
        while time.monotonic() < self.stop_at:
            body = {"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
            created = self.call("POST", "/v1/games", json={**body, "options": {"rounds": 1}})
            if created is None or created.status_code != 201:
                continue
            game_id = created.json()["id"]
            tokens = [s["token"] for s in created.json()["seats"]]
            while time.monotonic() < self.stop_at:
                view = self.call("GET", f"/v1/games/{game_id}/view")
                if view is None or view.status_code != 200:
                    continue
                spectator = view.json()
                if spectator["status"] != "active":
                    break
                seat = spectator["to_act"][0]
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                mine = self.call("GET", f"/v1/games/{game_id}/view", headers=headers)
                if mine is None or mine.status_code != 200 or not mine.json()["legal"]:
                    continue
                command = rng.choice(mine.json()["legal"])
                sent = time.monotonic()
                moved = self.call(
                    "POST", f"/v1/games/{game_id}/commands", json=command, headers=headers
                )
                if moved is not None and moved.status_code == 200:
                    with self.lock:
                        self.latencies.setdefault(self.minute(), []).append(time.monotonic() - sent)
                        self.acked.append((game_id, moved.json()["version"], seat, command))

    def bots_and_timers(self):
        """A game of random bots every 10 s; one table whose turn timer keeps firing."""
        timed = {"game": "alebrijes", "seats": [{"name": "idle"}, {"name": "idler"}]}
        self.call("POST", "/v1/games", json={**timed, "options": {"turn_seconds": 2}})
        while time.monotonic() < self.stop_at:
            seats = [{"bot": "random"}] * 4
            self.call("POST", "/v1/games", json={"game": "alebrijes", "seats": seats})
            time.sleep(10)


def processes(stack):
    """{role: [psutil.Process]} of `make run`'s children (and Redis, started apart)."""
    stack_process, redis_process = stack
    roles = {role: [] for role in VICTIMS}
    roles["redis"].append(psutil.Process(redis_process.pid))
    for child in psutil.Process(stack_process.pid).children(recursive=True):
        try:
            line = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "gunicorn" in line and child.ppid() != stack_process.pid:
            roles["api worker"].append(child)
        elif "services.projector" in line:
            roles["projector"].append(child)
        elif "--queues background" in line:
            roles["background"].append(child)
        elif "--queues timers" in line:
            roles["timers"].append(child)
        elif "--queues bots" in line:
            roles["worker"].append(child)
    return roles


def memory(stack):
    total = 0
    for group in processes(stack).values():
        for process in group:
            try:
                total += process.memory_info().rss
            except psutil.Error:
                pass
    return total


def lost_moves(redis_url, acked):
    """Acknowledged moves not in the streams, in the order they were acknowledged."""
    client, keys = redis.Redis.from_url(redis_url), Keys()
    by_game = {}
    for game_id, version, seat, command in acked:
        by_game.setdefault(game_id, []).append((version, seat, command))
    lost = 0
    for game_id, moves in by_game.items():
        stored = []
        for _, fields in client.xrange(keys.events(game_id)):
            event = json.loads(fields[b"e"])
            if event["type"] == "commanded":
                stored.append((event["seat"], event["command"]))
        length = client.xlen(keys.events(game_id))
        at = 0
        for version, seat, command in moves:
            while at < len(stored) and stored[at] != (seat, command):
                at += 1  # a move sent again after a lost answer landed without an ack
            if at == len(stored) or version > length:
                lost += 1
            else:
                at += 1
    client.close()
    return lost


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--humans", type=int, default=8, help="REST games played at once")
    parser.add_argument("--chaos-seconds", type=float, default=60)
    parser.add_argument("--json", action="store_true", help="the verdict as one JSON line")
    parser.add_argument("--victims", nargs="+", default=list(VICTIMS), choices=VICTIMS)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        run_dir = Path(directory)
        (run_dir / "redis").mkdir()
        with open(run_dir / "stack.log", "ab") as log:
            stack, base, redis_url = start(ROOT, run_dir, log)
            soak = Soak(base)
            soak.stop_at = time.monotonic() + args.minutes * 60
            threads = [
                threading.Thread(target=soak.human_pair, args=(n,)) for n in range(args.humans)
            ]
            threads.append(threading.Thread(target=soak.bots_and_timers))
            for thread in threads:
                thread.start()
            rng, kills, rss, cycle = random.Random(1), [], {}, []
            next_kill = time.monotonic() + args.chaos_seconds
            try:
                while time.monotonic() < soak.stop_at:
                    time.sleep(1)
                    minute = soak.minute()
                    if minute not in rss:
                        rss[minute] = memory(stack)
                        figures = soak.latencies.get(minute - 1, [])
                        if minute:
                            print(
                                f"minute {minute}: {len(figures)} moves, POST p99 "
                                f"{(p99(figures) or 0) * 1000:.1f} ms, RSS "
                                f"{rss[minute] / 2**20:.0f} MiB",
                                flush=True,
                            )
                    if time.monotonic() >= next_kill:
                        if not cycle:  # every victim in turn, in a random order
                            cycle = rng.sample(args.victims, len(args.victims))
                        role = cycle.pop()
                        found = processes(stack)[role]
                        if found:
                            victim = rng.choice(found)
                            try:
                                victim.send_signal(signal.SIGKILL)
                                kills.append(role)
                            except psutil.Error:
                                pass
                            if role == "redis":  # started apart: the supervisor's is not ours
                                stack = restart_redis(stack, run_dir, redis_url)
                        next_kill += args.chaos_seconds
                for thread in threads:
                    thread.join(30)
                lost = lost_moves(redis_url, soak.acked)
            finally:
                stop(stack)
    minutes = sorted(soak.latencies)
    first, last = soak.latencies[minutes[0]], soak.latencies[minutes[-1]]
    warm = rss.get(1) or rss[min(rss)]
    verdict = {
        "minutes": args.minutes,
        "acknowledged_moves": len(soak.acked),
        "lost": lost,
        "5xx": soak.fivexx,
        "connection_errors": soak.connection_errors,
        "unavailable": soak.unavailable,
        "kills": kills,
        "memory_growth": round(rss[max(rss)] / warm - 1, 3),
        "p99_first_ms": round(p99(first) * 1000, 1),
        "p99_last_ms": round(p99(last) * 1000, 1),
        "load_after": os.getloadavg(),
    }
    print(json.dumps(verdict) if args.json else json.dumps(verdict, indent=2))


def restart_redis(stack, run_dir, redis_url):
    """Start the killed Redis again on its port and data (as a supervisor would)."""
    from services import embedded_redis

    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    stack[1].wait()
    process, _ = embedded_redis.start(run_dir / "redis", port=port)
    return (stack[0], process)


if __name__ == "__main__":
    main()
