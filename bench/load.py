"""The load generator: one loop per game, each iteration reads the acting seat's view and
sends one legal command, like a player's client. asyncio + aiohttp in a few processes.

Targets:
- `tablestream`: 2-player Alebrijes games, both seats human. The command's answer holds
  the sender's view; the next acting seat's view is read with `?after=<version-1>&wait=5`,
  so it is never one the projector has not caught up with. Projection lag is the time
  from a command's answer until that read answers with the command's version (one
  request round trip included).
- `floor`: bench/floor.py, one GET of a 2 KB value and one POST doing one XADD per move.
- `hello`: GET /hello only, to show the generator's own ceiling.

Bounded by --warmup + --seconds (and --max-moves). Prints one JSON line.

    .venv/bin/python -m bench.load tablestream --port 8000 --games 10 --seconds 15
"""

import argparse
import asyncio
import multiprocessing
import random
import sys
import time

import aiohttp
import orjson

from bench.stats import percentile

WAIT = 5  # seconds a long-poll for the next view may wait
MOVES_TIMEOUT = aiohttp.ClientTimeout(total=WAIT + 10)


class Tally:
    """What one process measured inside the measuring window."""

    def __init__(self):
        self.moves = 0
        self.all_moves = 0  # warm-up included: for CPU per move
        self.requests = 0
        self.errors = 0
        self.games = 0
        self.post_ms = []
        self.lag_ms = []
        self.by_version = []  # (version, POST ms): --flat

    def as_dict(self):
        return dict(vars(self))


class Window:
    """The measuring window and the pace (moves per second for this process, or None)."""

    def __init__(self, warmup, seconds, rate, max_moves, until_version=None):
        self.start = time.perf_counter() + warmup
        self.end = self.start + seconds
        self.rate = rate
        self.max_moves = max_moves
        self.until_version = until_version  # --flat: one game, played up to this version
        self.slot = 0
        self.sent = 0

    def open(self, at):
        return self.start <= at <= self.end

    def over(self):
        return time.perf_counter() > self.end or self.sent >= self.max_moves

    async def pace(self):
        self.sent += 1
        if not self.rate:
            return
        due = self.start - 1 + self.slot / self.rate
        self.slot += 1
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)


async def _json(response):
    return orjson.loads(await response.read())


async def tablestream_game(http, base, number, window, tally, rng, options):
    """Play 2-player Alebrijes games, one after another, until the window closes."""
    options = dict(options)
    seats = [{"name": f"seat{n}"} for n in range(options.pop("players", 2))]
    while not window.over():
        body = {
            "game": "alebrijes",
            "seats": seats,
            "options": {"seed": number * 7919 + rng.randrange(10**6), **options},
        }
        async with http.post(f"{base}/v1/games", json=body) as response:
            created = await _json(response)
            tally.requests += window.open(time.perf_counter())
        if response.status not in (200, 201):
            raise RuntimeError(f"creating a game answered {response.status}: {created}")
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        url = f"{base}/v1/alebrijes/{game_id}"
        seat, after = 0, 0
        while not window.over():
            await window.pace()
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            answered_at = time.perf_counter()
            query = f"?after={after - 1}&wait={WAIT}" if after else ""
            async with http.get(f"{url}/view{query}", headers=headers) as response:
                if response.status != 200:
                    tally.errors += 1
                    continue
                view = await _json(response)
            now = time.perf_counter()
            tally.requests += window.open(now)
            if after and window.open(now):
                tally.lag_ms.append((now - answered_at) * 1000)
            if view["status"] != "active":
                tally.games += window.open(now)
                if window.until_version:  # --flat: one game only
                    return
                break
            if seat not in view["to_act"]:
                seat, after = view["to_act"][0], view["version"]
                continue
            command = rng.choice(view["legal"])
            sent = time.perf_counter()
            async with http.post(f"{url}/commands", json=command, headers=headers) as response:
                answer = await _json(response)
            now = time.perf_counter()
            if response.status != 200:
                tally.errors += 1
                after = 0  # read the view again, as it is
                continue
            tally.all_moves += 1
            if window.open(now):
                tally.moves += 1
                tally.requests += 1
                tally.post_ms.append((now - sent) * 1000)
            tally.by_version.append((answer["version"], (now - sent) * 1000))
            to_act = answer["view"]["to_act"]
            if not to_act:  # over: the next read shows the result
                to_act = [seat]
            seat, after = to_act[0], answer["version"]
            if window.until_version and answer["version"] >= window.until_version:
                return


async def floor_game(http, base, number, window, tally, rng, options):
    """The floor's move: GET a 2 KB view, POST a command that is one XADD."""
    url = f"{base}/v1/floor/g{number}"
    command = orjson.dumps({"type": "play", "cards": ["G1", "G1"], "ollin": "none"})
    headers = {"Content-Type": "application/json"}
    while not window.over():
        await window.pace()
        async with http.get(f"{url}/view") as response:
            await response.read()
        tally.requests += window.open(time.perf_counter())
        sent = time.perf_counter()
        async with http.post(f"{url}/commands", data=command, headers=headers) as response:
            await response.read()
        now = time.perf_counter()
        if response.status != 200:
            tally.errors += 1
            continue
        tally.all_moves += 1
        if window.open(now):
            tally.moves += 1
            tally.requests += 1
            tally.post_ms.append((now - sent) * 1000)


async def hello_loop(http, base, number, window, tally, rng, options):
    """GET /hello in a loop: the generator's ceiling (and a small server's)."""
    while not window.over():
        async with http.get(f"{base}/hello") as response:
            await response.read()
        if window.open(time.perf_counter()):
            tally.requests += 1


LOOPS = {"tablestream": tablestream_game, "floor": floor_game, "hello": hello_loop}


async def run_games(target, base, games, window, seed, options):
    tally = Tally()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=MOVES_TIMEOUT) as http:
        loops = [
            LOOPS[target](http, base, n, window, tally, random.Random(seed + n), options)
            for n in games
        ]
        await asyncio.gather(*loops)
    return tally


def one_process(job):
    """Run this process's share of the games; answer its tally and CPU seconds."""
    target, base, games, warmup, seconds, rate, max_moves, until, seed, options = job
    window = Window(warmup, seconds, rate, max_moves, until)
    cpu = time.process_time()
    tally = asyncio.run(run_games(target, base, games, window, seed, options))
    result = tally.as_dict()
    result["cpu_s"] = time.process_time() - cpu
    return result


def run(
    target,
    base,
    games,
    seconds,
    warmup=2.0,
    rate=None,
    processes=2,
    max_moves=10**9,
    seed=1,
    options=None,
    until_version=None,
):
    """Drive `games` concurrent loops against `base`; answer the summary (a dict) and the
    raw latencies. `rate` is the total moves per second to pace at (None: flat out)."""
    processes = max(1, min(processes, games))
    shares = [list(range(p, games, processes)) for p in range(processes)]
    per_process = rate / processes if rate else None
    jobs = [
        (
            target,
            base,
            share,
            warmup,
            seconds,
            per_process,
            max_moves,
            until_version,
            seed,
            options or {},
        )
        for share in shares
    ]
    if processes == 1:
        parts = [one_process(jobs[0])]
    else:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            parts = pool.map(one_process, jobs)
    keys = ("moves", "all_moves", "requests", "errors", "games", "cpu_s")
    merged = {key: sum(part[key] for part in parts) for key in keys}
    post = [ms for part in parts for ms in part["post_ms"]]
    lag = [ms for part in parts for ms in part["lag_ms"]]
    summary = {
        "target": target,
        "games": games,
        "rate": rate,
        "seconds": seconds,
        "moves_per_s": merged["moves"] / seconds,
        "requests_per_s": merged["requests"] / seconds,
        "all_moves": merged["all_moves"],
        "errors": merged["errors"],
        "games_finished": merged["games"],
        "post_p50_ms": percentile(post, 0.5),
        "post_p99_ms": percentile(post, 0.99),
        "lag_p50_ms": percentile(lag, 0.5),
        "lag_p99_ms": percentile(lag, 0.99),
        # The generator's CPU per request: its ceiling is about 1 / this per core.
        "client_cpu_ms_per_request": 1000 * merged["cpu_s"] / max(1, merged["requests"]),
    }
    raw = {
        "post_ms": post,
        "lag_ms": lag,
        "by_version": [v for part in parts for v in part["by_version"]],
    }
    return summary, raw


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("target", choices=sorted(LOOPS))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--rate", type=float, help="total moves/s to pace at")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    summary, _ = run(
        args.target, base, args.games, args.seconds, args.warmup, args.rate, args.processes
    )
    sys.stdout.write(orjson.dumps(summary).decode() + "\n")


if __name__ == "__main__":
    main()
