"""`python -m services.tournament`: bots against bots, in-process on the pure engines.

No Redis, no worker: each game is a table (shared/table/) folded in memory, every seat
a bot that sees only its view and its own redacted feed, exactly as in the worker. For
operators choosing a level, and for tuning the bots:

    python -m services.tournament --game alebrijes --levels ismcts,greedy,random \\
        --games 200 --seed 1 --jobs 2 --think-ms 300 --json results.json

Seats rotate from game to game (game i puts level k in seat (k + i) mod n), so no level
keeps the first seat. Per game it prints each level's win share (a shared victory
counts 1/len(winners)) with a 95% Wilson interval, the fair share (1/players), the mean
score, the time of its decisions (p50, p99), and (when every seat is a different level)
its rating on the players' scale (shared.ratings) with a bootstrap 95% interval; then
whether the built-in levels rate in their order of strength (ismcts > greedy > random)
and whether each one's interval lies above the next weaker one's.

`--write-calibration FILE` writes those ratings as the bots' calibration table
(shared/bots/calibration.py: what matchmaking's bot fill reads), replacing the games
played and keeping the others; `--from-json FILE` prints (and with
--write-calibration, writes) a saved run's tables again without playing:

    python -m services.tournament --from-json results.json \
        --write-calibration shared/bots/calibration.json

Alien's reflexes are simulated simply: after each command, every bot whose `react`
returns a command sends it, the quickest `reaction_seconds` first (ties in a random
order), before the next turn command; a stacking window that nobody closes is closed
by its table timer when nothing else is left to do. No wall clock is involved, so a
bot's think time never makes it late.
"""

import argparse
import datetime
import itertools
import json
import math
import os
import random
import shlex
import sys
import time
from multiprocessing import get_context

from shared import bots, games, ratings, table
from shared.games.base import RuleError
from shared.table import offline

MAX_COMMANDS = 20000  # per game: a game longer than this is a bug, reported as such
Z95 = 1.959964
BOOTSTRAPS = 200  # resamples of the games for a level rating's 95% interval


def seat_levels(levels, index):
    """The level of each seat in game `index`: the list rotated by `index`."""
    n = len(levels)
    return [levels[(seat - index) % n] for seat in range(n)]


class Game:
    """One in-memory table and every seat's feed (its events, redacted for it)."""

    def __init__(self, game, levels, seed, think_ms=None, options=None):
        self.levels = levels
        self.think_ms = think_ms
        self.rng = random.Random(f"{seed}/bots")
        seats = [{"bot": level} for level in levels]
        created = table.create(f"tournament-{seed}", game, seats, {**(options or {})}, str(seed))
        self.table, self.version = None, 0
        self.feeds = [[] for _ in levels]
        self.decisions = []  # (level, seconds) of every turn decision
        self._record(created)

    def _record(self, events):
        self.table, self.version = offline.record(self.table, self.version, events, self.feeds)

    def view(self, seat):
        return table.view(self.table, self.version, seat)

    def play(self):
        """Play to the end; returns the result (None if it did not end)."""
        for _ in range(MAX_COMMANDS):
            if not self.step():
                break
        return self.table["result"]

    def step(self):
        """One command: a reflex if a bot sends one, else a turn or a table timer.
        False once the game is over (or stuck)."""
        if self.table["status"] != "active":
            return False
        return self._reflex() or self._turn()

    def turn_seat(self):
        """The seat whose turn it is now (a move to make, not only a reflex), or None."""
        if self.table["status"] != "active":
            return None
        turn = [s for s in table.to_act(self.table) if table.bot_chances(self.table, s)[0]]
        return turn[0] if turn else None

    def _send(self, seat, command):
        self._record(table.play(self.table, seat, command, by="bot"))

    def _reflex(self):
        """The quickest bot with a reflex to send sends it. True if one did."""
        order = list(range(len(self.levels)))
        self.rng.shuffle(order)  # ties in reaction time: a random order
        order.sort(key=lambda s: table.reaction_seconds(self.table["seats"][s]))
        for seat in order:
            if not table.bot_chances(self.table, seat)[1]:
                continue
            command = bots.react(self.levels[seat], self.view(seat), self.feeds[seat], self.rng)
            if command is None:
                continue
            try:
                self._send(seat, command)
            except RuleError:
                continue
            return True
        return False

    def _turn(self):
        """The first seat whose turn it is moves; else a table timer fires; else a seat
        that could only react (and did not) is asked to choose. False when stuck."""
        seat = self.turn_seat()
        if seat is not None:
            self._decide(seat)
            return True
        timers = table.rules_timers(self.table)
        if timers:
            self._record(table.fire(self.table, timers[0]["key"]))
            return True
        acting = table.to_act(self.table)
        if acting:
            self._decide(acting[0])
            return True
        return False

    def _decide(self, seat):
        level = self.levels[seat]
        view, feed = self.view(seat), self.feeds[seat]
        start = time.perf_counter()
        fallback = table.takeover_bot(self.table)
        command = bots.choose(level, view, feed, self.rng, self.think_ms, fallback=fallback)
        self.decisions.append((level, time.perf_counter() - start))
        self._send(seat, command)


def play_one(task):
    """One game of the tournament: (game, levels, index, seed, think_ms, options) in, a
    summary out (per seat: level, share, score; decision times per level)."""
    game, levels, index, seed, think_ms, options = task
    rotated = seat_levels(levels, index)
    played = Game(game, rotated, f"{seed}-{game}-{index}", think_ms, options)
    result = played.play()
    seats = []
    # Places as the players' ratings count them (1 first; ties share a place).
    placed = None if result is None else ratings.places(result, len(rotated))
    for seat, level in enumerate(rotated):
        if result is None:
            seats.append({"level": level, "share": None, "score": None, "place": None})
            continue
        winners = result["winners"]
        share = 1 / len(winners) if seat in winners else 0.0
        score = result["scores"][seat]
        seats.append({"level": level, "share": share, "score": score, "place": placed[seat]})
    return {"game": game, "index": index, "seats": seats, "decisions": played.decisions}


def wilson(successes, n, z=Z95):
    """The 95% Wilson score interval of a proportion (successes may be fractional:
    shared victories)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values, q):
    """The q-th percentile (0..100) of `values`, nearest rank; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def level_ratings(game, finished, seed, boots=BOOTSTRAPS):
    """Each level's rating on the players' scale (shared.ratings: the same openskill
    Plackett-Luce fold and displayed rating, 1000 + 40 * (mu - 3 sigma), as a player
    new to the game starting at 1000), the games folded in the tournament's order;
    with a 95% interval from `boots` resamples of the games (with replacement, folded
    again in the order drawn). {level: {"rating", "ci95"}}."""

    def fold(chosen):
        folded = ratings.Ratings()
        folded.fold(
            {
                "game_id": f"{i:08d}",  # the fold's order: the order given
                "game": game,
                "variant": ratings.STANDARD,
                "ended_at": i,
                "seats": [_rated_seat(seat) for seat in o["seats"]],
            }
            for i, o in enumerate(chosen)
        )
        levels = {s["level"] for o in chosen for s in o["seats"]}
        return {lv: _displayed(folded.rating(lv, game)) for lv in levels}

    measured = fold(finished)
    rng = random.Random(f"{seed}/{game}/ratings")
    drawn = [fold(rng.choices(finished, k=len(finished))) for _ in range(boots)]
    return {
        level: {
            "rating": rating,
            "ci95": [
                percentile([d[level] for d in drawn], 2.5),
                percentile([d[level] for d in drawn], 97.5),
            ],
        }
        for level, rating in measured.items()
    }


def _rated_seat(seat):
    return {"id": seat["level"], "place": seat["place"], "bot": False}


def _displayed(rating):
    return ratings.displayed(rating["mu"], rating["sigma"])


def summarise(game, levels, outcomes, seed="1"):
    """Per level: seat-games, win share and its interval, fair share, mean score,
    decision time p50/p99 (ms), and its rating with a 95% interval (when every seat is
    a different level: a level twice at one table would be one player in two seats)."""
    players = len(levels)
    finished = [o for o in outcomes if all(s["share"] is not None for s in o["seats"])]
    rated = level_ratings(game, finished, seed) if finished and len(set(levels)) == players else {}
    by_level = {}
    for level in dict.fromkeys(levels):
        seats = [s for o in finished for s in o["seats"] if s["level"] == level]
        times = [t for o in outcomes for lv, t in o["decisions"] if lv == level]
        shares = sum(s["share"] for s in seats)
        low, high = wilson(shares, len(seats))
        by_level[level] = {
            "seat_games": len(seats),
            "win_share": shares / len(seats) if seats else None,
            "ci95": [low, high],
            "fair_share": 1 / players,
            "mean_score": sum(s["score"] for s in seats) / len(seats) if seats else None,
            "decisions": len(times),
            "p50_ms": _ms(percentile(times, 50)),
            "p99_ms": _ms(percentile(times, 99)),
            "rating": rated.get(level, {}).get("rating"),
            "rating_ci95": rated.get(level, {}).get("ci95"),
        }
    summary = {
        "game": game,
        "players": players,
        "games": len(outcomes),
        "unfinished": len(outcomes) - len(finished),
        "levels": by_level,
    }
    summary["order"] = order(summary)
    return summary


def order(summary):
    """Whether the built-in levels of a summary rate in their order of strength
    (bots.LEVELS, weakest first): {"expected": strongest first, "holds": every rating
    above the next weaker one's, "apart": [[stronger, weaker, its interval's low end
    above the weaker's high end]]}; None with fewer than two rated built-in levels."""
    rows = summary["levels"]
    ranked = [lv for lv in reversed(bots.LEVELS) if (rows.get(lv) or {}).get("rating") is not None]
    if len(ranked) < 2:
        return None
    pairs = list(itertools.pairwise(ranked))
    return {
        "expected": ranked,
        "holds": all(rows[a]["rating"] > rows[b]["rating"] for a, b in pairs),
        "apart": [[a, b, rows[a]["rating_ci95"][0] > rows[b]["rating_ci95"][1]] for a, b in pairs],
    }


def order_text(found):
    """One line: is the order of strength met, are the intervals apart."""
    if found is None:
        return "order: - (fewer than two rated built-in levels)"
    expected = " > ".join(found["expected"])
    apart = ", ".join(f"{a}/{b} {'yes' if ok else 'no'}" for a, b, ok in found["apart"])
    return f"order {expected}: {'yes' if found['holds'] else 'NO'}; intervals apart: {apart}"


def _ms(seconds):
    return None if seconds is None else round(seconds * 1000, 2)


def table_text(summary):
    """The printed table of one game's summary."""
    head = f"{summary['game']}: {summary['games']} games, {summary['players']} players"
    head += " (seats rotate)"
    if summary["unfinished"]:
        head += f"; {summary['unfinished']} did not finish"
    lines = [
        head,
        f"{'level':<8} {'seat-games':>10} {'win share':>9} {'95% CI':>15} {'fair':>5}"
        f" {'mean score':>10} {'p50 ms':>8} {'p99 ms':>8} {'rating':>6} {'95% CI':>13}",
    ]
    for level, row in summary["levels"].items():
        share = "-" if row["win_share"] is None else f"{row['win_share']:.3f}"
        score = "-" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
        ci = f"[{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}]"
        lines.append(
            f"{level:<8} {row['seat_games']:>10} {share:>9} {ci:>15} {row['fair_share']:>5.2f}"
            f" {score:>10} {_num(row['p50_ms']):>8} {_num(row['p99_ms']):>8}"
            f" {_rating(row):>6} {_rating_ci(row):>13}"
        )
    lines.append(order_text(order(summary)))
    return "\n".join(lines)


def _rating(row):
    return "-" if row["rating"] is None else str(row["rating"])


def _rating_ci(row):
    return "-" if row["rating_ci95"] is None else "[{}, {}]".format(*row["rating_ci95"])


def _num(value):
    return "-" if value is None else f"{value:.1f}"


def run(game_names, levels, games_per, seed, jobs, think_ms, rounds, progress=True):
    """Play `games_per` games of each game and summarise them, one summary a game."""
    tasks = []
    for game in game_names:
        options = {"rounds": rounds} if game == "alebrijes" and rounds else {}
        tasks += [(game, levels, i, seed, think_ms, options) for i in range(games_per)]
    outcomes = []
    bar = _progress(len(tasks), progress)
    if jobs > 1:
        # Spawned, not forked: a fork of a process with threads (a test runner, a
        # Redis client's) may copy a lock some thread held, and hang.
        with get_context("spawn").Pool(jobs) as pool:
            for outcome in pool.imap_unordered(play_one, tasks):
                outcomes.append(outcome)
                bar.update(1)
    else:
        for task in tasks:
            outcomes.append(play_one(task))
            bar.update(1)
    bar.close()
    outcomes.sort(key=lambda o: (game_names.index(o["game"]), o["index"]))
    return [summarise(g, levels, [o for o in outcomes if o["game"] == g], seed) for g in game_names]


def _progress(total, enabled):
    from tqdm import tqdm

    return tqdm(total=total, file=sys.stderr, unit="game", disable=not enabled)


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m services.tournament",
        description="Bots against bots, in-process on the pure rules engines (docs/bots.md).",
    )
    parser.add_argument(
        "--game", default=",".join(games.NAMES), help="game(s), comma-separated (default: all)"
    )
    parser.add_argument(
        "--levels",
        default="ismcts,greedy,random",
        help="one level per seat, comma-separated: random, greedy, ismcts or an installed"
        " plugin's (shared.bots.registry)",
    )
    parser.add_argument("--games", type=int, default=100, help="games of each game (100)")
    parser.add_argument("--seed", default="1", help="the tournament's seed (1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (1)")
    parser.add_argument(
        "--think-ms",
        type=int,
        default=bots.THINK_MS,
        help=f"ismcts's budget per decision, {bots.MIN_THINK_MS}..{bots.MAX_THINK_MS}"
        f" (default {bots.THINK_MS})",
    )
    parser.add_argument("--rounds", type=int, default=1, help="Alebrijes: rounds a game (1)")
    parser.add_argument("--json", metavar="FILE", help="also write the summaries as JSON here")
    parser.add_argument(
        "--write-calibration",
        metavar="FILE",
        help="write the levels' ratings as the bots' calibration table here (its games"
        " replaced, the others kept): shared/bots/calibration.json is matchmaking's",
    )
    parser.add_argument(
        "--from-json",
        metavar="FILE",
        help="play nothing: print (and --write-calibration) a saved run's --json again",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    args.game = [g.strip() for g in args.game.split(",") if g.strip()]
    args.levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for name in args.game:
        if name not in games.NAMES:
            parser.error(f"no game {name!r}; games: {', '.join(games.NAMES)}")
        players = games.get(name).PLAYERS
        if len(args.levels) not in players:
            parser.error(f"{name} is for {players.start} to {players.stop - 1} players")
    for level in args.levels:
        for name in args.game:
            try:
                bots.registry.get(level, name)
            except bots.UnknownLevel as error:
                parser.error(str(error))
    if not bots.MIN_THINK_MS <= args.think_ms <= bots.MAX_THINK_MS:
        parser.error(f"--think-ms is from {bots.MIN_THINK_MS} to {bots.MAX_THINK_MS}")
    if args.games < 1 or args.jobs < 1 or args.rounds < 1:
        parser.error("--games, --jobs and --rounds are at least 1")
    return args


def play(argv=None):
    """Run a tournament from command-line arguments (or read a saved one, --from-json):
    prints one table a game (and writes them as JSON with --json, the calibration with
    --write-calibration), returns the summaries."""
    args = parse(argv)
    if args.from_json:
        with open(args.from_json) as saved:
            found = json.load(saved)
        run_args = parse(found["arguments"])
        summaries, arguments = found["summaries"], found["arguments"]
        # A run saved before runs recorded their date: the file's time, its end.
        mtime = os.path.getmtime(args.from_json)
        date = found.get("date") or _utc(datetime.datetime.fromtimestamp(mtime, datetime.UTC))
        load = found.get("load")
    else:
        run_args, arguments = args, sys.argv[1:] if argv is None else list(argv)
        before = _load_average()
        summaries = run(
            args.game,
            args.levels,
            args.games,
            args.seed,
            args.jobs,
            args.think_ms,
            args.rounds,
            progress=not args.quiet,
        )
        date, load = _utc(datetime.datetime.now(datetime.UTC)), [before, _load_average()]
    print("\n\n".join(table_text(s) for s in summaries))
    if args.json and not args.from_json:
        with open(args.json, "w") as out:
            saved = {"arguments": arguments, "date": date, "load": load, "summaries": summaries}
            json.dump(saved, out, indent=2)
    if args.write_calibration:
        command = shlex.join(["python", "-m", "services.tournament", *arguments])
        entries = {}
        for summary in summaries:
            entry = calibration_entry(summary, run_args, date, load, command)
            if entry is None:
                print(f"{summary['game']}: no level rated, not calibrated", file=sys.stderr)
            else:
                entries[summary["game"]] = entry
        write_calibration(args.write_calibration, entries)
    return summaries


def calibration_entry(summary, run_args, date, load, command):
    """One game's entry of the calibration table (shared/bots/calibration.py) from its
    summary and the run's arguments; None when no level was rated."""
    levels = {
        level: {"rating": row["rating"], "ci95": row["rating_ci95"]}
        for level, row in summary["levels"].items()
        if row["rating"] is not None
    }
    if not levels:
        return None
    return {
        "levels": levels,
        "order": order(summary),
        "players": summary["players"],
        "games": summary["games"],
        "unfinished": summary["unfinished"],
        "think_ms": run_args.think_ms,
        "seed": run_args.seed,
        "date": date,
        "load": load,
        "command": command,
    }


def write_calibration(path, entries):
    """Write the calibration table at `path`: its games in `entries` replaced, the
    others kept (calibration.merged)."""
    from shared.bots import calibration

    try:
        with open(path) as old:
            table = json.load(old)
    except FileNotFoundError:
        table = None
    with open(path, "w") as out:
        json.dump(calibration.merged(table, entries), out, indent=2)
        out.write("\n")


def _utc(moment):
    return moment.strftime("%Y-%m-%dT%H:%MZ")


def _load_average():
    return round(os.getloadavg()[0], 2)


def main(argv=None):
    """`python -m services.tournament` (and `tablestream tournament`): the exit status."""
    play(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
