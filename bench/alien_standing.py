"""Fit the weights of Alien's standing (shared/bots/games/alien/standing.py) again.

    .venv/bin/python bench/alien_standing.py --games 3000

Plays --games greedy-against-greedy games at 2 and at 3 players (the search's own
play-outs, every seat greedy, from the deal), reads every seat's features at the start
of every turn, and fits a conditional logit of who won: each seat's chance is
exp(w . features) over the seats' sum. Prints the weights (for WEIGHTS) and the
log-loss of fresh games (--games / 2 more), against the uniform guess. Needs numpy
(installed with the bench extra's dependencies).
"""

import argparse
import random
import time

import numpy as np

from shared.bots import ismcts
from shared.bots.games.alien import standing
from shared.games import alien

NAMES = list(standing.WEIGHTS)


def turn_starts(players, games, seed):
    """(features per seat at every turn start, each seat's share of the victory)."""
    xs, ys = [], []
    view = {"game": "alien", "seat": 0, "options": dict(alien.OPTIONS)}
    for index in range(games):
        rng = random.Random(f"{seed}/{players}/{index}")
        search = ismcts.Search(view, rng, "greedy", ismcts.Budget(time.perf_counter, 10**9))
        state = alien.initial({"players": players, "seed": f"fit-{seed}-{index}"})
        state = search._fold(state, alien.decide(state, None, {"type": "start"}))
        starts = []
        for _ in range(ismcts.MAX_STEPS):
            if state is None or alien.result(state) is not None:
                break
            fresh = not starts or starts[-1][0] != state["step"]
            if fresh and standing.cut(state, state["turn"]):
                rows = [standing.features(state, s) for s in range(players)]
                starts.append((state["step"], [[float(r[n]) for n in NAMES] for r in rows]))
            state = search._step(state)
        if state is None or alien.result(state) is None:
            continue
        winners = alien.result(state)["winners"]
        shares = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
        for _, rows in starts:
            xs.append(rows)
            ys.append(shares)
    return np.array(xs), np.array(ys)


def chances(weights, xs):
    strengths = xs @ weights
    strengths -= strengths.max(axis=1, keepdims=True)
    odds = np.exp(strengths)
    return odds / odds.sum(axis=1, keepdims=True)


def fit(data, steps=4000, rate=0.3):
    """Gradient ascent on the log-likelihood of the winners, over every player count."""
    weights = np.zeros(len(NAMES))
    count = sum(len(xs) for xs, _ in data)
    for _ in range(steps):
        gradient = sum(np.einsum("gs,gsf->f", ys - chances(weights, xs), xs) for xs, ys in data)
        weights += rate * gradient / count
    return weights


def log_loss(weights, xs, ys):
    return float(-(ys * np.log(chances(weights, xs) + 1e-12)).sum() / len(xs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    train = [turn_starts(players, args.games, "fit") for players in (2, 3)]
    test = [turn_starts(players, args.games // 2, "test") for players in (2, 3)]
    weights = fit(train)
    for name, weight in zip(NAMES, weights, strict=True):
        print(f'    "{name}": {weight:.2f},')
    for players, (xs, ys) in zip((2, 3), test, strict=True):
        print(
            f"{players} players: log-loss {log_loss(weights, xs, ys):.4f} on {len(xs)} turn"
            f" starts (uniform guess {np.log(players):.4f})"
        )


if __name__ == "__main__":
    main()
