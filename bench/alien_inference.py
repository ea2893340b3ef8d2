"""How much of the rivals' hidden hands Alien's sampling gets right.

    .venv/bin/python bench/alien_inference.py --players 3 --games 12

From positions of greedy-against-greedy games (every seventh step with a turn to
play), draws --worlds sampled worlds for the seat on turn and counts the cards each
sampled rival hand shares with the true one (known cards included), trusting what the
feed says the rivals lack and not trusting it (sampling.UNTRUSTED's world). Prints the
mean per position of each: the difference is what the reading of the rivals' play adds.
Run it in another checkout for that checkout's sampling (A/B). The true hands are read
here only to score the worlds; the sampling never sees them.
"""

import argparse
import random
import statistics
from collections import Counter

from services.tournament import Game
from shared.bots.games import alien as bot


def right_cards(view, feed, hands, trusted, worlds):
    """Mean count of the rivals' true cards a sampled world deals them."""
    seat, hits = view["seat"], 0
    for k in range(worlds):
        rng = random.Random(k)
        rng.randrange = lambda n: int(trusted)  # 0: sampling.UNTRUSTED's world
        world = bot.sample(view, feed, rng)
        for other, hand in enumerate(hands):
            if other != seat:
                hits += sum((Counter(world["hands"][other]) & Counter(hand)).values())
    return hits / worlds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--worlds", type=int, default=20)
    args = parser.parse_args()
    figures = {False: [], True: []}
    for index in range(args.games):
        game = Game("alien", ["greedy"] * args.players, f"overlap-{index}")
        for step in range(600):
            seat = game.turn_seat()
            if seat is not None and step % 7 == 0:
                view, feed = game.view(seat), game.feeds[seat]
                hands = game.table["rules"]["hands"]
                for trusted in figures:
                    figures[trusted].append(right_cards(view, feed, hands, trusted, args.worlds))
            if not game.step():
                break
    print(
        f"{args.players} players, {len(figures[True])} positions: rivals' true cards a world"
        f" deals them, {statistics.mean(figures[False]):.3f} untrusted,"
        f" {statistics.mean(figures[True]):.3f} trusted"
    )


if __name__ == "__main__":
    main()
