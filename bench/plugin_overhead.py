"""What a bot level's decision costs the worker beyond the level's own time: the
registry's lookup, its clock readings and its check that the answer is legal
(shared.bots.registry.decide), against calling the level's function directly on the
same views, feeds and seeds.

    .venv/bin/python -m bench.plugin_overhead [--positions 400] [--reps 5]

The levels measured are the built-in `random` and `greedy`, entry points like any
plugin's. Goal: at most 1 ms a decision (the least of the reps, and the medians, in us).
"""

import argparse
import random
import time

from bench.stats import load_average, median
from services import fairness
from shared import bots, games
from shared.bots import registry


def points(count):
    """(game, view, feed) of `count` positions per game, random play."""
    found = []
    for game in games.NAMES:
        options = {"rounds": 1} if game == "alebrijes" else {}
        for _, _, _, view, feed in fairness.decision_points(
            game, "overhead", count=count, every=1, options=options
        ):
            found.append((game, view, feed))
    return found


def timed(decide, positions):
    start = time.perf_counter()
    for n, (game, view, feed) in enumerate(positions):
        decide(game, view, feed, random.Random(n))
    return (time.perf_counter() - start) / len(positions) * 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.plugin_overhead", description=__doc__)
    parser.add_argument("--positions", type=int, default=400, help="per game (400)")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args(argv)
    positions = points(args.positions)
    print(f"load average before: {load_average()}; {len(positions)} positions")
    for name in ("random", "greedy"):
        level = registry.get(name)

        def direct(game, view, feed, rng, level=level):
            return level.plays[game](view, feed, rng, level.budget())

        def checked(game, view, feed, rng, name=name):
            return bots.choose(name, view, feed, rng, fallback="random")

        direct_runs, checked_runs = [], []
        for _ in range(args.reps):  # interleaved, so both see the same noise
            direct_runs.append(timed(direct, positions))
            checked_runs.append(timed(checked, positions))
        # A micro cost on a shared machine: the least of the reps has the least noise.
        own, through = min(direct_runs), min(checked_runs)
        print(
            f"  {name:7} own {own:8.1f} us a decision, through the registry {through:8.1f} us:"
            f" it adds {through - own:6.1f} us (the least of {args.reps} reps each;"
            f" medians {median(direct_runs):.1f} and {median(checked_runs):.1f}); goal <= 1000 us"
        )
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
