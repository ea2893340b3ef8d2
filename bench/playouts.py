"""Play-outs per second of the ismcts search, per game: how many whole games its
play-outs (every seat greedy, from a sampled world) finish in a second.

    .venv/bin/python -m bench.playouts --players 2 --positions 12 --seconds 0.5
    .venv/bin/python -m bench.playouts --game alebrijes,abluxxen --players 3 --compare

Positions are taken from greedy-against-greedy games (every few turn decisions of the
tournament's in-process table), so the views and feeds are real. At each position the
search's own code samples a world and plays it out from greedy's command, for
--seconds of wall time. Prints, per game, the median over positions of play-outs per
second and of ms per play-out. A bot module with `evaluate` cuts its play-outs short
after HORIZON commands (or at `cut`: Alien), as the search does; --full plays them to
the end. With
--compare, each position is measured with the search's folds on its own copy
(ismcts.FOLD_IN_PLACE) and with evolve (a copy of the state per event), interleaved
(A,B then B,A), and the ratio's median is printed too.
With --worlds MS, each position is searched as ismcts does (its candidates, its
rank), on the process's CPU clock rather than the wall clock, for MS milliseconds of
CPU time: the worlds a decision draws, median over positions, which other work on
the machine changes far less than the wall clock's play-outs a second.
Bounded: --positions positions of --seconds (or --worlds ms) each per game and mode.
"""

import argparse
import gc
import random
import statistics
import time

from services.tournament import Game
from shared import games
from shared.bots import ismcts

MAX_TURNS = 400  # turn decisions read per game to find positions


def positions(game, players, count, seed):
    """Up to `count` (view, feed) pairs of the seat to act, from greedy games."""
    found, index = [], 0
    while len(found) < count and index < 20:
        options = {"rounds": 1} if game == "alebrijes" else {}
        played = Game(game, ["greedy"] * players, f"{seed}-{index}", None, options)
        for turn in range(MAX_TURNS):
            seat = played.turn_seat()
            if seat is None:
                break
            if turn % 5 == 2:
                view = played.view(seat)
                if len(view["legal"]) > 1:
                    found.append((view, list(played.feeds[seat])))
                    if len(found) >= count:
                        break
            if not played.step():
                break
        index += 1
    return found


def measure(view, feed, seconds, in_place, seed, full=False):
    """Play-outs finished in `seconds` from this position, and their mean seconds;
    `full`: every play-out to the game's end, even where the bot module would cut it
    short (evaluate, HORIZON)."""
    ismcts.FOLD_IN_PLACE = in_place
    rng = random.Random(seed)
    budget = ismcts.Budget(time.perf_counter, 10_000_000)
    search = ismcts.Search(view, rng, "greedy", budget)
    if full:
        search.evaluate, search.horizon = None, ismcts.MAX_STEPS
    command = search.bots.greedy(view, feed, rng)
    gc.disable()  # as the search does
    try:
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            world = search.bots.sample(view, feed, rng)
            search.play_out(world, command)
            done += 1
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return done / elapsed, elapsed / done


def worlds(view, feed, think_ms, seed):
    """Worlds the search draws for this decision in `think_ms` ms of process time."""
    module = ismcts.import_module(f"shared.bots.games.{view['game']}")
    real_sample, drawn = module.sample, []

    def counted(v, f, rng):
        drawn.append(1)
        return real_sample(v, f, rng)

    module.sample = counted
    try:
        ismcts.search(view, feed, random.Random(seed), think_ms, clock=time.process_time)
    finally:
        module.sample = real_sample
    return len(drawn)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=",".join(games.NAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--compare", action="store_true", help="in-place folds against evolve")
    parser.add_argument("--full", action="store_true", help="play every play-out to the end")
    parser.add_argument("--worlds", type=int, metavar="MS", help="worlds a search draws")
    args = parser.parse_args()
    if args.worlds:
        print(f"{'game':<11} {'positions':>9} {'worlds (median)':>15} {'per position':>12}")
        for game in args.game.split(","):
            found = positions(game, args.players, args.positions, args.seed)
            counts = [worlds(view, feed, args.worlds, i) for i, (view, feed) in enumerate(found)]
            print(f"{game:<11} {len(found):>9} {statistics.median(counts):>15} {counts}")
        return
    modes = [True, False] if args.compare else [getattr(ismcts, "FOLD_IN_PLACE", False)]
    print(f"{'game':<11} {'mode':<9} {'positions':>9} {'playouts/s':>10} {'ms/playout':>10}")
    for game in args.game.split(","):
        found = positions(game, args.players, args.positions, args.seed)
        rates = {mode: [] for mode in modes}
        for i, (view, feed) in enumerate(found):
            order = modes if i % 2 == 0 else modes[::-1]  # interleaved: A, B, B, A, ...
            for mode in order:
                rates[mode].append(measure(view, feed, args.seconds, mode, i, args.full))
        for mode in modes:
            per_s = statistics.median(r for r, _ in rates[mode])
            ms = statistics.median(t for _, t in rates[mode]) * 1000
            name = "in-place" if mode else "evolve"
            print(f"{game:<11} {name:<9} {len(found):>9} {per_s:>10.1f} {ms:>10.2f}")
        if args.compare:
            ratios = [a[0] / b[0] for a, b in zip(rates[True], rates[False], strict=True)]
            print(f"{game:<11} in-place / evolve: x{statistics.median(ratios):.2f} (median)")


if __name__ == "__main__":
    main()
