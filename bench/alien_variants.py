"""Screen rule-based variants of Alien's greedy against unchanged `greedy` (cheap games).

    .venv/bin/python bench/alien_variants.py --variants base,safe1,safe2 --games 3000 --players 3

For each variant, plays --games tournament games (services/tournament.py's in-memory
tables, views and feeds; seats rotate) of the variant in one seat against `greedy` in
the others, on the same game seeds for every variant (so they meet the same deals), and
prints its win share with the 95% Wilson interval. `base` is greedy itself (fair share
by construction, a check of the harness). Variants are named settings of
shared/bots/games/alien/play.py's `Policy`.
"""

import argparse
import time
from multiprocessing import get_context

from services import tournament
from shared import bots
from shared.bots.games.alien import play

VARIANTS = {
    "base": play.Policy(),
    # Lay a chain while each laid card's claim danger costs `claim_cost` of a card laid.
    "safe05": play.Policy(claim_cost=0.5),
    "safe1": play.Policy(claim_cost=1.0),
    "safe2": play.Policy(claim_cost=2.0),
    "safe4": play.Policy(claim_cost=4.0),
    "deep5": play.Policy(plan_depth=5),
    "deep1": play.Policy(plan_depth=1),
    "h1last": play.Policy(h1_last=True),
    "h1lead": play.Policy(h1_leader=True),
    "claimfirst": play.Policy(claim_over_match=True),
    "h2now": play.Policy(h2_now_only=True),
}


def _choose(level, view, feed, rng, think_ms=None, _choose=bots.choose):
    if level in VARIANTS:
        return VARIANTS[level].greedy(view, feed, rng)
    return _choose(level, view, feed, rng, think_ms=think_ms)


def _react(level, view, feed, rng, _react=bots.react):
    return _react("greedy" if level in VARIANTS else level, view, feed, rng)


def _install():
    bots.choose, bots.react = _choose, _react


def play_one(task):
    """tournament.play_one for a variant: the table's seats say `greedy` (the levels it
    knows), the game asks the variant for that seat's turns."""
    game, levels, index, seed, _, options = task
    rotated = tournament.seat_levels(levels, index)
    played = tournament.Game(
        game, ["greedy"] * len(levels), f"{seed}-{game}-{index}", None, options
    )
    played.levels = rotated
    result = played.play()
    if result is None:
        return [(level, None) for level in rotated]
    winners = result["winners"]
    return [(level, 1 / len(winners) if s in winners else 0.0) for s, level in enumerate(rotated)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variants", default="base,safe1")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", default="v1")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    _install()
    names = args.variants.split(",")
    tasks = []
    for name in names:
        levels = [name] + ["greedy"] * (args.players - 1)
        tasks += [("alien", levels, i, args.seed, None, {}) for i in range(args.games)]
    start = time.time()
    with get_context("spawn").Pool(args.jobs, initializer=_install) as pool:
        outcomes = pool.map(play_one, tasks, chunksize=50)
    print(
        f"players {args.players} games {args.games} seed {args.seed} ({time.time() - start:.0f} s)"
    )
    for name in names:
        shares = [
            share for o in outcomes for level, share in o if level == name and share is not None
        ]
        won, n = sum(shares), len(shares)
        low, high = tournament.wilson(won, n)
        print(f"{name:<10} {n:>6} {won / n:.3f} [{low:.3f}, {high:.3f}]")


if __name__ == "__main__":
    main()
