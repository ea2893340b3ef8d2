"""A soak: `make run`'s stack under a mixed load for --minutes while a chaos loop
SIGKILLs one of its processes every --chaos-seconds (the supervisor starts it again),
each kind of process in turn, in a random order.

    .venv/bin/python -m bench.soak                    # 30 minutes
    .venv/bin/python -m bench.soak --minutes 5 --json # the slow test's run

The load: --humans REST players (two seats of a game each, every move a POST read back
from its answer), --sockets WebSocket players (two seats of a game each, each seat its
own socket, every move a `command` read back from its `answer`; a dropped socket
reconnects and subscribes again after the last version it holds), pairs of players
asking for quick matches (2-player Alien, bots after a second; both resign once
seated, and bots finish the game), a game of random bots opened every 10 s, and a table
with a 2 s turn timer that nobody plays (its timers fire on the workers). The victims:
Redis, the projector, a bot worker, the background worker, the timers worker, an API
worker, the matchmaker.

At the end it checks every acknowledged move (a 200 to a command, an `answer` on a
socket) against the stored streams: each is there, in order; and every acknowledged
ticket (a 201) opened before the last 30 s: each ended matched, in a game that exists,
no two in one seat. Prints per minute the POST p99 and the processes' memory (RSS,
summed, and by kind of process, with Redis's dataset apart), then the verdict:
acknowledged moves and tickets lost, 5xx answers (apart: connection errors, the price
of a killed API worker, and 503s with Retry-After, the price of a killed Redis, which
a client sends again), memory growth after the first minute, the processes' own memory
growth after --warmup-minutes (every RSS less Redis's dataset: the stored games grow
by design), the last minute's p99 against the first's, and the load average.
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
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from bench.bot_fairness import start, stop
from shared.keys import Keys

ROOT = Path(__file__).resolve().parents[1]
VICTIMS = ("redis", "projector", "worker", "background", "timers", "api worker", "matchmaker")
QUICK = {"game": "alien", "players": 2, "bots": {"after_seconds": 1, "level": "random"}}
DRAIN = 30  # seconds: a ticket opened this close to the end need not be matched yet


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
        self.tickets = []  # (player, ticket id, opened at): acknowledged tickets
        self.socket_moves = 0  # of the acknowledged moves, those answered on a socket

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

    def two_seats(self):
        """A new one-round Alebrijes game of two people (the creation's answer), or None."""
        body = {"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
        created = self.call("POST", "/v1/games", json={**body, "options": {"rounds": 1}})
        return created.json() if created is not None and created.status_code == 201 else None

    def human_pair(self, seed):
        """Two seats of one game played by REST, game after game."""
        rng = random.Random(seed)
        while time.monotonic() < self.stop_at:
            created = self.two_seats()
            if created is None:
                continue
            game_id = created["id"]
            tokens = [s["token"] for s in created["seats"]]
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

    def socket_pair(self, seed):
        """Two seats of one game played over GET /v1/ws, game after game."""
        rng = random.Random(seed)
        while time.monotonic() < self.stop_at:
            created = self.two_seats()
            if created is None:
                continue
            game_id = created["id"]
            seats = [
                threading.Thread(target=self.socket_seat, args=(game_id, n, s["token"], rng))
                for n, s in enumerate(created["seats"])
            ]
            for seat in seats:
                seat.start()
            for seat in seats:
                seat.join()

    def socket_seat(self, game_id, seat, token, rng):
        """One seat on its own socket until its game ends: acts on each pushed view that
        says so; a dropped socket (an API worker killed) reconnects and resumes after
        the last version held; an error (Redis restarting) is sent again."""
        url = self.base.replace("http://", "ws://") + "/v1/ws"
        headers = {"Authorization": f"Bearer {token}"}
        held, acted_at, sent = 0, -1, {}  # last version; version acted on; ref -> (command, t)
        while time.monotonic() < self.stop_at:
            try:
                with connect(url, additional_headers=headers, open_timeout=10) as ws:
                    ws.send(json.dumps({"type": "subscribe", "game_id": game_id, "after": held}))
                    latest, acted_at = None, -1  # an answer lost with the old socket: act again
                    while time.monotonic() < self.stop_at:
                        message = json.loads(ws.recv(timeout=15))
                        kind = message["type"]
                        if kind == "answer" and message.get("ref") in sent:
                            command, at = sent.pop(message["ref"])
                            version = message["body"]["version"]
                            with self.lock:
                                self.latencies.setdefault(self.minute(), []).append(
                                    time.monotonic() - at
                                )
                                self.acked.append((game_id, version, seat, command))
                                self.socket_moves += 1
                        elif kind == "error" and message.get("ref") in sent:
                            sent.pop(message["ref"])
                            code = message["problem"]["code"]
                            if code in ("store_unavailable", "rate_limited"):
                                with self.lock:
                                    self.unavailable += code == "store_unavailable"
                                time.sleep(message.get("retry_after", 1))
                                acted_at = -1  # send again on the view held
                            # else the other seat moved first: the next view says more
                        elif kind == "view":
                            latest = message["view"]
                            held = max(held, latest["version"])
                            if latest["status"] != "active":
                                return
                        mine = latest and seat in latest["to_act"] and latest["legal"]
                        if mine and not sent and latest["version"] > acted_at:
                            acted_at = latest["version"]
                            command = rng.choice(latest["legal"])
                            ref = f"{seat}:{latest['version']}"
                            sent[ref] = (command, time.monotonic())
                            ws.send(json.dumps({
                                "type": "command", "game_id": game_id, "ref": ref,
                                "command": command, "expected_version": latest["version"],
                            }))  # fmt: skip
            except InvalidStatus as refused:  # the upgrade refused: 503 while Redis restarts
                status = refused.response.status_code
                with self.lock:
                    if status == 503:
                        self.unavailable += 1
                    else:
                        self.fivexx += status >= 500
                        print(f"socket upgrade refused: {status}", file=sys.stderr)
                sent.clear()
                time.sleep(1)
            except (ConnectionClosed, OSError, TimeoutError):
                with self.lock:
                    self.connection_errors += 1
                sent.clear()
                time.sleep(0.5)

    def quick_matches(self):
        """Two players asking for a 2-player Alien table again and again; once seated
        both resign (the takeover bots finish the game)."""
        made = [self.call("POST", "/v1/players", json={"name": f"quick {n}"}) for n in (0, 1)]
        players = [m.json() for m in made if m is not None and m.status_code == 201]
        while time.monotonic() < self.stop_at - DRAIN:
            for player in players:
                headers = {"Authorization": f"Bearer {player['token']}"}
                opened = self.call("POST", "/v1/matchmaking/tickets", json=QUICK, headers=headers)
                if opened is not None and opened.status_code == 201:
                    with self.lock:
                        self.tickets.append((player, opened.json()["id"], time.monotonic()))
            deadline = time.monotonic() + 20
            for player, ticket_id, _ in self.tickets[-len(players) :]:
                headers = {"Authorization": f"Bearer {player['token']}"}
                while time.monotonic() < deadline:
                    got = self.call("GET", f"/v1/matchmaking/tickets/{ticket_id}", headers=headers)
                    if got is not None and got.status_code == 200 and got.json()["game_id"]:
                        game_id, seat = got.json()["game_id"], got.json()["seat"]
                        path = f"/v1/games/{game_id}/seats/{seat}/resign"
                        self.call("POST", path, headers=headers)
                        break
                    time.sleep(0.5)
            time.sleep(5)

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
        elif "services.matchmaker" in line:
            roles["matchmaker"].append(child)
    return roles


def memory(stack, redis_url):
    """{role: RSS in bytes, summed over its processes}, and "redis data": Redis's
    `used_memory_dataset`, the stored games themselves (None while Redis restarts).
    Per role, so growth can be told apart: a cache filling, data stored, a leak."""
    by_role = {}
    for role, group in processes(stack).items():
        by_role[role] = 0
        for process in group:
            try:
                by_role[role] += process.memory_info().rss
            except psutil.Error:
                pass
    try:
        info = redis.Redis.from_url(redis_url, socket_timeout=2).info("memory")
        by_role["redis data"] = info["used_memory_dataset"]
    except redis.RedisError:
        by_role["redis data"] = None
    return by_role


def total(by_role):
    """The RSS of every process (Redis's included; its dataset is inside it)."""
    return sum(v for role, v in by_role.items() if role != "redis data" and v)


def less_data(by_role):
    """The processes' own memory: every RSS less Redis's dataset, the games stored,
    which grows with each game by design (kept for good; docs/operations.md). None
    for a minute Redis was restarting in, whose dataset could not be read."""
    data = by_role["redis data"]
    return None if data is None else total(by_role) - data


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
        # In version order: a game's two sockets acknowledge from two threads.
        for version, seat, command in sorted(moves, key=lambda move: move[0]):
            while at < len(stored) and stored[at] != (seat, command):
                at += 1  # a move sent again after a lost answer landed without an ack
            if at == len(stored) or version > length:
                lost += 1
            else:
                at += 1
    client.close()
    return lost


def lost_tickets(base, tickets):
    """(lost, doubled): acknowledged tickets opened before the drain that did not end
    matched in a game that exists, and seats given to two tickets."""
    lost, seats = 0, {}
    for player, ticket_id, _ in tickets:
        headers = {"Authorization": f"Bearer {player['token']}"}
        got = requests.get(
            f"{base}/v1/matchmaking/tickets/{ticket_id}", headers=headers, timeout=15
        )
        ticket = got.json() if got.status_code == 200 else {}
        game = ticket.get("game_id")
        if ticket.get("status") != "matched" or game is None:
            lost += 1
            continue
        if requests.get(f"{base}/v1/games/{game}", timeout=15).status_code != 200:
            lost += 1
        seats.setdefault((game, ticket["seat"]), []).append(ticket_id)
    return lost, sum(1 for ids in seats.values() if len(ids) > 1)


def mib(value):
    return None if value is None else round(value / 2**20)


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--humans", type=int, default=8, help="REST games played at once")
    parser.add_argument("--sockets", type=int, default=4, help="WebSocket games at once")
    parser.add_argument("--chaos-seconds", type=float, default=60)
    parser.add_argument("--json", action="store_true", help="the verdict as one JSON line")
    parser.add_argument(
        "--warmup-minutes",
        type=float,
        default=10,
        help="memory_growth_after_warmup counts from this minute on (the caches' fill)",
    )
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
            threads += [
                threading.Thread(target=soak.socket_pair, args=(1000 + n,))
                for n in range(args.sockets)
            ]
            threads.append(threading.Thread(target=soak.bots_and_timers))
            threads.append(threading.Thread(target=soak.quick_matches))
            for thread in threads:
                thread.start()
            rng, kills, rss, cycle = random.Random(1), [], {}, []
            next_kill = time.monotonic() + args.chaos_seconds
            try:
                while time.monotonic() < soak.stop_at:
                    time.sleep(1)
                    minute = soak.minute()
                    if minute not in rss:
                        rss[minute] = memory(stack, redis_url)
                        figures = soak.latencies.get(minute - 1, [])
                        if minute:
                            roles = ", ".join(f"{role} {mib(v)}" for role, v in rss[minute].items())
                            print(
                                f"minute {minute}: {len(figures)} moves, POST p99 "
                                f"{(p99(figures) or 0) * 1000:.1f} ms, RSS "
                                f"{mib(total(rss[minute]))} MiB ({roles})",
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
                tickets_lost, tickets_doubled = lost_tickets(base, soak.tickets)
            finally:
                stop(stack)
    minutes = sorted(soak.latencies)
    first, last = soak.latencies[minutes[0]], soak.latencies[minutes[-1]]
    first_minute, last_minute = (1 if 1 in rss else min(rss)), max(rss)
    warm = total(rss[first_minute])
    after_warmup = [less_data(r) for m, r in sorted(rss.items()) if m >= args.warmup_minutes] or [
        less_data(r) for _, r in sorted(rss.items())
    ]
    after_warmup = [v for v in after_warmup if v is not None]
    verdict = {
        "minutes": args.minutes,
        "acknowledged_moves": len(soak.acked),
        "socket_moves": soak.socket_moves,
        "lost": lost,
        "tickets": len(soak.tickets),
        "tickets_lost": tickets_lost,
        "tickets_doubled": tickets_doubled,
        "5xx": soak.fivexx,
        "connection_errors": soak.connection_errors,
        "unavailable": soak.unavailable,
        "kills": kills,
        "memory_growth": round(total(rss[last_minute]) / warm - 1, 3),
        # From the end of warm-up on, the processes' own memory (less the stored games):
        # the largest minute against the first, so a rise that falls back (a killed
        # process starting empty) is not hidden.
        "memory_growth_after_warmup": round(max(after_warmup) / after_warmup[0] - 1, 3),
        "memory_mib_by_role": {
            role: [mib(rss[first_minute][role]), mib(rss[last_minute][role])]
            for role in rss[last_minute]
        },
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
