"""Bytes of Redis per event and per finished game, with the retention of finished games'
read models off (kept for good) and on (FINISHED_READ_MODELS_TTL: within it, run out).

    .venv/bin/python -m bench.memory --games 40

Starts an embedded Redis of its own (127.0.0.1, a temporary directory) and, three times
under three key prefixes, plays `--games` 2-seat Alebrijes games to the end through the
game service (seeded random legal commands, the bench's game) and projects them: with
the policy off; with it on; with it on and the games' clock set back past the TTL, so
that the projector's PEXPIREAT has already run out (Redis drops such keys at once).
Every game's keys are then measured with MEMORY USAGE, as bench/compare.py does, and
`INFO memory`'s used_memory is read before and after each third. Memory is deterministic
here (up to the allocator): one run is the figure, no interleaving needed.
"""

import argparse
import random
import statistics
import tempfile
import time

import redis

from services import deps as deps_module
from services import embedded_redis
from services.projector.projector import Projector
from services.projector.retention import Retention
from shared import table
from shared.config import Config
from shared.keys import Keys


def play(d, games, seed):
    """Open and finish `games` 2-seat Alebrijes games; returns their ids."""
    rng, ids = random.Random(seed), []
    for number in range(games):
        seats = [{"name": "a"}, {"name": "b"}]
        game_id = d.service.create("alebrijes", seats, {"seed": number})["id"]
        for _ in range(5000):
            _, current = d.service.load(game_id)
            if current["status"] != "active":
                break
            seat = table.to_act(current)[0]
            legal = table.rules_of(current).legal(current["rules"], seat)
            d.service.command(game_id, seat, rng.choice(legal))
        ids.append(game_id)
    return ids


def measure(client, keys, game_ids):
    """Per game: (bytes of every key, bytes of the stream, events, keys, keys with a TTL)."""
    rows = []
    for game_id in game_ids:
        found = list(client.scan_iter(match=f"{keys.prefix}g:{{{game_id}}}:*", count=1000))
        pipe = client.pipeline(transaction=False)
        for key in found:
            pipe.memory_usage(key, samples=0)
            pipe.ttl(key)
        answers = pipe.execute()
        sizes = dict(zip(found, answers[0::2], strict=True))
        expiring = sum(1 for ttl in answers[1::2] if ttl > 0)
        stream = sizes[keys.events(game_id).encode()]
        events = client.xlen(keys.events(game_id))
        rows.append((sum(sizes.values()), stream, events, len(found), expiring))
    return rows


def run(client, games, seed, ttl):
    figures = {}
    policies = (("off", 0, 0), ("on, within", ttl, 0), ("on, run out", ttl, ttl + 3600))
    for label, seconds, back in policies:
        keys = Keys(prefix=f"mem{len(figures)}:")
        config = Config(redis_url="redis://unused", queue_url="redis://unused",
                        token_secret="bench", key_prefix=keys.prefix)  # fmt: skip
        d = deps_module.build(config, client=client, queue_client=client)
        d.service.clock = lambda back=back: time.time() - back
        used_before = client.info("memory")["used_memory"]
        ids = play(d, games, seed)
        projector = Projector(d.store, retention=Retention(seconds))
        for game_id in ids:
            projector.project(game_id)
        used = client.info("memory")["used_memory"] - used_before
        rows = measure(client, keys, ids)
        events = sum(r[2] for r in rows)
        figures[label] = {
            "games": len(rows),
            "events": events,
            "stream_bytes_per_event": sum(r[1] for r in rows) / events,
            "game_bytes_median": statistics.median(r[0] for r in rows),
            "game_events_median": statistics.median(r[2] for r in rows),
            "keys_per_game_median": statistics.median(r[3] for r in rows),
            "keys_with_ttl_median": statistics.median(r[4] for r in rows),
            "game_bytes_per_event": sum(r[0] for r in rows) / events,
            "used_memory_per_event": used / events,
        }
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ttl", type=int, default=Config.finished_read_models_ttl, help="the policy's seconds"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        process, url = embedded_redis.start(directory)
        try:
            client = redis.Redis.from_url(url)
            figures = run(client, args.games, args.seed, args.ttl)
        finally:
            process.terminate()
            process.wait(10)
    columns = ("B/event (stream)", "B/game (median)", "events/game", "keys/game", "with TTL")
    widths = (17, 16, 11, 9, 8)
    head = " ".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True))
    tail = f"{'B/event (all)':>13} {'used_memory/event':>17}"
    print(f"{'policy':<14} {'games':>5} {'events':>7} {head} {tail}")
    for label, f in figures.items():
        print(
            f"{label:<14} {f['games']:>5} {f['events']:>7} {f['stream_bytes_per_event']:>17.0f} "
            f"{f['game_bytes_median']:>16,.0f} {f['game_events_median']:>11.0f} "
            f"{f['keys_per_game_median']:>9.0f} {f['keys_with_ttl_median']:>8.0f} "
            f"{f['game_bytes_per_event']:>13.0f} {f['used_memory_per_event']:>17.0f}"
        )


if __name__ == "__main__":
    main()
