"""A million-player leaderboard: Redis memory per player, and the latency of the rank,
around-me and top queries as the board grows (1k, 100k, 1M players by default).

    .venv/bin/python -m bench.leaderboard
    .venv/bin/python -m bench.leaderboard --sizes 1000,100000 --queries 500   # shorter

Starts an embedded Redis of its own (127.0.0.1, a free port, a temporary directory)
and fills one board (Alien, standard rules) through the ratings store's own write
(shared/ratings/store.py, the projector's: each player's rating in the game's ratings
hash and its displayed rating in the board's sorted set), in batches of random
players (ids as new_player_id draws them, mu and sigma spread as after some rated
games). At each size it reads `INFO memory`'s used_memory against the empty server
(bytes per player) and MEMORY USAGE of the two keys, then times `--queries` of each
query through RatingStore, for random players, bounded by `--seconds` a kind:

- rank: `rank` (ZREVRANK), a player's place;
- around: `rank` then `board` of the 50 around it (ZREVRANGE from there), what
  `GET /v1/leaderboards/{game}?around=me` reads before its names;
- top: `board` of the first 50.

Latencies are the client's round trips (median, p99, µs); the server's own time per
call comes from INFO commandstats (reset before each size). A rated player also has a
history list (one entry a rated game): its bytes per entry are measured apart, on
`--history-players` players with 10 entries each.
"""

import argparse
import random
import tempfile
import time

import redis

from bench import stats
from services import embedded_redis
from shared.keys import Keys
from shared.players.store import new_player_id
from shared.ratings import STANDARD, Ratings
from shared.ratings.store import RatingStore

GAME = "alien"
BATCH = 10_000
WINDOW = 50  # the leaderboard route's default limit: the window around a player
HISTORY_GAMES = 10


def synthetic_rating(rng):
    """A rating as after some rated games (the store keeps mu, sigma, games)."""
    games = rng.randint(1, 200)
    sigma = max(0.8, 8.333 / (1 + games / 10))
    return {"mu": rng.gauss(25, 4), "sigma": sigma, "games": games}


def fill(store, rng, players, count):
    """Add `count` new players to the board, in batches, through the store's write."""
    while count > 0:
        batch = min(BATCH, count)
        ratings = Ratings()
        board = ratings.boards.setdefault((GAME, STANDARD), {})
        for _ in range(batch):
            player = new_player_id()
            board[player] = synthetic_rating(rng)
            players.append(player)
        # The projector's write (RatingStore._write): the ratings hash and the board.
        store._write(GAME, ratings, {}, (len(players), "bench"))
        count -= batch


def timed(call, queries, seconds):
    """Microseconds of each call, at most `queries` and `seconds`."""
    took, deadline = [], time.monotonic() + seconds
    for _ in range(queries):
        start = time.perf_counter()
        call()
        took.append((time.perf_counter() - start) * 1e6)
        if time.monotonic() > deadline:
            break
    return took


def measure(client, store, rng, players, queries, seconds):
    """The query latencies of a board of len(players): {kind: (n, p50, p99, server µs)}."""
    client.config_resetstat()

    def rank():
        store.rank(rng.choice(players), GAME, STANDARD)

    def around():
        at = store.rank(rng.choice(players), GAME, STANDARD)
        store.board(GAME, STANDARD, max(0, at - WINDOW // 2), WINDOW)

    def top():
        store.board(GAME, STANDARD, 0, WINDOW)

    found = {}
    for name, call in (("rank", rank), ("around", around), ("top", top)):
        took = timed(call, queries, seconds)
        found[name] = [len(took), stats.median(took), stats.percentile(took, 0.99)]
    server = client.info("commandstats")
    for name, command in (("rank", "zrevrank"), ("top", "zrevrange")):
        found[name].append(server.get(f"cmdstat_{command}", {}).get("usec_per_call"))
    found["around"].append(None)  # one ZREVRANK and one ZREVRANGE: the two above
    return found


def history_bytes(client, store, rng, players, keys):
    """Bytes per history entry: `players` players' lists of HISTORY_GAMES entries each,
    written as the projector writes them (used_memory before and after)."""
    before = client.info("memory")["used_memory"]
    ids = [new_player_id() for _ in range(players)]
    for start in range(0, players, BATCH // HISTORY_GAMES):
        history = {}
        for player in ids[start : start + BATCH // HISTORY_GAMES]:
            history[player] = [
                {
                    "game_id": new_player_id(),
                    "game": GAME,
                    "variant": STANDARD,
                    "ended_at": 1_780_000_000_000 + g,
                    "place": rng.randint(1, 4),
                    "players": 4,
                    "before": 1000 + g,
                    "after": 1001 + g,
                    "mu": 25.0 + rng.random(),
                    "sigma": 8.0 - rng.random(),
                }
                for g in range(HISTORY_GAMES)
            ]
        store._write(GAME, Ratings(), history, (0, "bench"))
    used = client.info("memory")["used_memory"] - before
    for player in ids:
        client.delete(keys.rating_history(GAME, player))
    return used / (players * HISTORY_GAMES), used / players


def run(client, sizes, queries, seconds, history_players, seed):
    keys = Keys()  # the default prefix: the key names a deployment has
    store = RatingStore(client, keys)
    rng = random.Random(seed)
    per_entry, per_list = history_bytes(client, store, rng, history_players, keys)
    empty = client.info("memory")["used_memory"]
    players, rows = [], []
    for size in sizes:
        started = time.monotonic()
        fill(store, rng, players, size - len(players))
        filled = time.monotonic() - started
        used = client.info("memory")["used_memory"] - empty
        board = client.memory_usage(keys.leaderboard(GAME, STANDARD), samples=0)
        hashed = client.memory_usage(keys.ratings(GAME, STANDARD), samples=0)
        found = measure(client, store, rng, players, queries, seconds)
        rows.append((size, used / size, board / size, hashed / size, filled, found))
        print_row(rows[-1], flush=True)
    return rows, per_entry, per_list


def print_row(row, flush=False):
    size, per_player, board, hashed, filled, found = row
    queries = "  ".join(
        f"{name} {_us(p50)}/{_us(p99)}" + (f" (server {_us(server)})" if server else "")
        for name, (_, p50, p99, server) in found.items()
    )
    print(
        f"{size:>9,} players: {per_player:6.1f} B/player used_memory"
        f" (board {board:5.1f} + ratings {hashed:5.1f} B by MEMORY USAGE),"
        f" filled in {filled:.1f} s; p50/p99 µs: {queries}",
        flush=flush,
    )


def _us(value):
    return "-" if value is None else f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="1000,100000,1000000", help="board sizes to measure at (ascending)"
    )
    parser.add_argument("--queries", type=int, default=2000, help="queries of each kind a size")
    parser.add_argument("--seconds", type=float, default=5.0, help="at most this long a kind")
    parser.add_argument("--history-players", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if sizes != sorted(sizes) or sizes[0] < 1:
        parser.error("--sizes: ascending, at least 1")
    print(f"load before: {stats.load_average()}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        process, url = embedded_redis.start(directory)
        try:
            client = redis.Redis.from_url(url)
            print(f"redis-server {client.info('server')['redis_version']} at {url}", flush=True)
            _, per_entry, per_list = run(
                client, sizes, args.queries, args.seconds, args.history_players, args.seed
            )
        finally:
            process.terminate()
            process.wait(10)
    print(
        f"history: {per_entry:.0f} B per rated game ({per_list:.0f} B a player with"
        f" {HISTORY_GAMES}), on {args.history_players:,} players"
    )
    print(f"load after: {stats.load_average()}")


if __name__ == "__main__":
    main()
