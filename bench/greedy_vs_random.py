"""Greedy against random, in-process on shared/table: the greedy seat's win share.

    .venv/bin/python -m bench.greedy_vs_random alebrijes --players 2 --games 200
    .venv/bin/python -m bench.greedy_vs_random abluxxen --players 3 --option published=true

One seat plays `greedy` (shared.bots.games.<game>), the others pick uniformly among the
legal commands; the greedy seat rotates so it holds every seat equally often. A shared
victory counts as a share of a win. Prints the win share with a 95% confidence interval
(normal approximation), the fair share, and greedy's decision time (mean and p99).
Bounded: --games games of at most --max-steps commands each.
"""

import argparse
import importlib
import json
import math
import random
import statistics
import time

from bench.stats import percentile
from shared import table as tables


def play_one(game, players, options, seed, greedy_seat, bot, max_steps):
    """Play one game; return (the greedy seat's share of the win, its decision times)."""
    seats = [{"name": f"p{seat}"} for seat in range(players)]
    events = tables.create(f"g{seed}", game, seats, {**options, "seed": str(seed)}, str(seed))
    table, feeds = None, [[] for _ in range(players)]

    def fold(new_events):
        nonlocal table
        for event in new_events:
            table = tables.evolve(table, event)
            for seat in range(players):
                feeds[seat].append(tables.redact(table, event, seat))

    fold(events)
    rng, times = random.Random(seed), []
    for _ in range(max_steps):
        if table["status"] != "active":
            break
        (seat,) = tables.to_act(table)
        view = tables.view(table, 0, seat)
        if seat == greedy_seat:
            start = time.perf_counter()
            command = bot.greedy(view, feeds[seat], rng)
            times.append(time.perf_counter() - start)
            assert command in view["legal"], command
        else:
            command = rng.choice(view["legal"])
        fold(tables.play(table, seat, command))
    else:
        raise AssertionError(f"game {seed} did not end in {max_steps} steps")
    winners = table["result"]["winners"]
    return (1 / len(winners) if greedy_seat in winners else 0.0), times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=5000)
    parser.add_argument("--option", action="append", default=[], help="name=json value")
    args = parser.parse_args()
    options = {}
    for item in args.option:
        name, value = item.split("=", 1)
        options[name] = json.loads(value)
    bot = importlib.import_module(f"shared.bots.games.{args.game}")
    shares, times = [], []
    for number in range(args.games):
        seed = args.seed * 100_000 + number
        share, spent = play_one(
            args.game, args.players, options, seed, number % args.players, bot, args.max_steps
        )
        shares.append(share)
        times += spent
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.pstdev(shares) / math.sqrt(len(shares))
    print(
        f"{args.game} players={args.players} options={options} games={args.games}: "
        f"greedy win share {mean:.3f} [{mean - half:.3f}, {mean + half:.3f}] "
        f"(fair {1 / args.players:.3f}); decision mean {statistics.fmean(times) * 1e3:.3f} ms, "
        f"p99 {percentile(times, 0.99) * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
