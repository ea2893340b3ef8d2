"""CPU a bot chain spends a move outside Redis, in-process: for whole seeded four-bot
Alebrijes games, what services/worker/chain.py does for each move (the next bot, its
feed, its seat's view, its choice, table.play, the fold), for several source trees in
one run (A, B, A, B...). No Redis, no RQ: the rules, the view and the bot only.

Each measurement runs in a subprocess whose current directory is the tree under test,
and prints the best of --reps passes over --games games (CPU microseconds a move). A
tree whose shared.bots has LEGAL_ONLY gives those levels no feed and their view
unparsed, as its chain does.

    .venv/bin/python bench/bot_move_cpu.py --trees /tmp/base . [--level random] [--rounds 3]
"""

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--rounds", type=int, default=3, help="A, B, A, B... rounds")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--level", default="random")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # internal
    args = parser.parse_args()
    if args.measure:
        return measure(args.games, args.reps, args.level)
    script = Path(__file__).resolve()
    for round_ in range(1, args.rounds + 1):
        for tree in args.trees:
            command = [sys.executable, str(script), "--measure", "--games", str(args.games)]
            command += ["--reps", str(args.reps), "--level", args.level]
            out = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True)
            print(f"round {round_}, {tree}: {out.stdout.strip()}", flush=True)
    return None


def measure(games, reps, level):
    sys.path.insert(0, ".")  # the tree under test, not this script's
    from shared import bots

    best = None
    for _ in range(reps):
        started = time.process_time()
        moves = sum(play(seed, level, getattr(bots, "LEGAL_ONLY", ())) for seed in range(games))
        spent = (time.process_time() - started) / moves
        best = spent if best is None else min(best, spent)
    tree = Path(bots.__file__).resolve().parents[2]
    print(f"{moves} moves, best of {reps}: {best * 1e6:.0f} us CPU a move ({level} bots; {tree})")


def play(seed, level, legal_only):
    """One game as a chain plays it; answers its number of moves."""
    from services.worker import chain
    from shared import bots, table
    from shared.store import Record

    seats = [{"bot": level}] * 4
    events = table.create(f"g{seed}", "alebrijes", seats, {"seed": seed}, "salt")
    records = [Record(i + 1, 0, e) for i, e in enumerate(events)]
    current, version, feeds, moves = table.fold(events), len(records), {}, 0
    while (seat := chain.next_bot(current)) is not None:
        if level in legal_only:
            feed, view = [], chain.seat_view(current, version, seat, parsed=False)
        else:
            if seat not in feeds:
                feeds[seat] = [table.event_as_seen(current, r, seat) for r in records]
            feed, view = list(feeds[seat]), chain.seat_view(current, version, seat)
        rng = random.Random(f"bot-g{seed}-{seat}-{version}")
        command = bots.choose(level, view, feed, rng)
        new = [
            Record(version + i + 1, 0, e)
            for i, e in enumerate(table.play(current, seat, command, by="bot"))
        ]
        records += new
        current = table.fold(((r.event, r.at) for r in new), current)
        for known, seen in feeds.items():
            seen.extend(table.event_as_seen(current, r, known) for r in new)
        version, moves = new[-1].version, moves + 1
    return moves


if __name__ == "__main__":
    main()
