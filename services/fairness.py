"""`tablestream bots check LEVEL`: does a bot level decide only from what its seat sees?

For every game the level plays, random play reaches `positions` moments where a seat
must move (in Alakablast also one where a rival already chose its duel card in
secret). At each, the level decides from the seat's view and feed with a seeded rng,
`repeats` times; then, for each of `worlds` other tables that differ only in what the
seat cannot see (the others' hands, the draw pile's order, a rival's secret duel card,
the seed: drawn by the game's own `sample`, and checked to give the seat the same view
and feed), it decides again from the same inputs and the same seed. A decision there
that the real table never got is a *changed* decision: the level read something its
seat cannot see. A point where the repeats on the real table already disagree is
*unsteady* (the level reads something else, such as the clock) and is not judged.

Each decision's time is measured against the level's budget: p50, p99, and how many
went over the deadline after which the worker throws an answer away.
"""

import random
import time
from dataclasses import dataclass, field

from services.tournament import Game
from shared import bots, games, table
from shared.bots import registry

PLAYERS = 3
POSITIONS = 20  # per game, by default
WORLDS = 2  # other tables per position
REPEATS = 2  # decisions on the real table per position


def _hidden_choice_made(game, view):
    """Alakablast: the seat must choose its duel card after its rival chose in secret."""
    duel = (view["state"] or {}).get("duel") if game == "alakablast" else None
    return bool(duel and duel["chosen"] and view["seat"] not in duel["chosen"])


def decision_points(game, seed, count=3, every=5, options=None, players=PLAYERS):
    """Up to `count` moments of a real table (random bots playing) where a seat must
    move: (table, version, seat, view, feed), every `every` turns; in Alakablast also
    one where the rival already chose its duel card in secret, when play reaches one."""
    played = Game(game, ["random"] * players, seed, options=options)
    points, turns, hidden = [], 0, False
    for _ in range(5000):
        seat = played.turn_seat()
        if seat is not None:
            view, feed = played.view(seat), list(played.feeds[seat])
            point = (played.table, played.version, seat, view, feed)
            if not hidden and _hidden_choice_made(game, view):
                points.append(point)
                hidden = True
            elif turns % every == 0 and len(view["legal"]) > 1:
                points.append(point)
            turns += 1
        if len(points) >= count + (game == "alakablast") or not played.step():
            break
    return points


def other_world(current, version, seat, view, feed, salt):
    """A second table the seat cannot tell from `current`: the rules state drawn by the
    game's sample() (others' cards, the draw pile, hidden choices), another seed. None
    when the draw gave the real table back (nothing hidden to change). ValueError when
    the seat could tell them apart (a bug in the game's sample, not in the level)."""
    game = current["game"]
    world = bots.game_module(game).sample(view, feed, random.Random(f"other-{salt}"))
    if games.get(game).view(world, seat) != view["state"]:
        raise ValueError(f"{game}'s sample gave seat {seat} another view")
    if world == current["rules"]:
        return None
    other = {**current, "rules": world, "seed": f"another seed {salt}"}
    if table.view(other, version, seat) != view:
        raise ValueError(f"{game}'s sample gave seat {seat} another table view")
    return other


@dataclass
class Report:
    """What the check found for one level."""

    level: str
    budget_ms: int
    deadline_ms: float
    positions: dict = field(default_factory=dict)  # game -> positions judged
    changed: list = field(default_factory=list)  # {game, version, seat, real, other}
    unsteady: int = 0
    times_ms: list = field(default_factory=list)

    @property
    def late(self):
        """Decisions that took longer than the worker allows."""
        return sum(1 for t in self.times_ms if t > self.deadline_ms)

    @property
    def passed(self):
        return not self.changed and not self.late and sum(self.positions.values()) > 0

    def percentile(self, q):
        ordered = sorted(self.times_ms)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def text(self):
        """The report as a few lines for a terminal."""
        judged = ", ".join(f"{g} {n}" for g, n in self.positions.items())
        lines = [
            f"{self.level}: {sum(self.positions.values())} positions judged ({judged}); "
            f"{self.unsteady} unsteady, not judged",
            f"  changed decisions: {len(self.changed)}",
        ]
        lines += [
            f"    {c['game']} version {c['version']} seat {c['seat']}: "
            f"{c['real']} on the real table, {c['other']} on another"
            for c in self.changed[:10]
        ]
        lines.append(
            f"  decision time: p50 {self.percentile(0.5):.1f} ms, p99 "
            f"{self.percentile(0.99):.1f} ms; budget {self.budget_ms} ms, "
            f"{self.late} of {len(self.times_ms)} over the {self.deadline_ms:.0f} ms deadline"
        )
        lines.append("  PASS" if self.passed else "  FAIL")
        return "\n".join(lines)


def check(
    level,
    positions=POSITIONS,
    worlds=WORLDS,
    repeats=REPEATS,
    seed="check",
    think_ms=None,
    game_names=None,
    clock=time.perf_counter,
):
    """The Report of `level` (a name in the registry) over `positions` positions of each
    game it plays (or of `game_names`)."""
    found = registry.get(level)
    report = Report(level, found.budget(think_ms), found.deadline_ms(think_ms))
    for game in game_names or found.games:
        play = registry.get(level, game).plays[game]
        options = {"rounds": 1} if game == "alebrijes" else {}
        points = decision_points(game, f"{seed}-{game}", count=positions, options=options)
        report.positions[game] = 0
        for n, point in enumerate(points):
            judge = Judge(report, play, point, f"{seed}-{game}-{n}", clock)
            report.positions[game] += judge.run(worlds, repeats)
    return report


class Judge:
    """One position: the level's decisions on the real table and on others."""

    def __init__(self, report, play, point, salt, clock):
        self.report, self.play, self.salt, self.clock = report, play, salt, clock
        self.current, self.version, self.seat, _, self.feed = point

    def decide(self, world):
        """The level's command on `world`, from the view built just before it decides
        (a level that reads a side door sees the table that view came from)."""
        view = table.view(world, self.version, self.seat)
        rng = random.Random(f"decide-{self.salt}")
        start = self.clock()
        command = self.play(view, list(self.feed), rng, self.report.budget_ms)
        self.report.times_ms.append((self.clock() - start) * 1000)
        return command

    def run(self, worlds, repeats):
        """True when the position was judged (steady, and some world differs)."""
        real = [self.decide(self.current) for _ in range(repeats)]
        if any(command != real[0] for command in real):
            self.report.unsteady += 1
            return False
        view = table.view(self.current, self.version, self.seat)
        judged = False
        for k in range(worlds):
            salt = f"{self.salt}-{k}"
            other = other_world(self.current, self.version, self.seat, view, self.feed, salt)
            if other is None:
                continue
            judged = True
            theirs = self.decide(other)
            if theirs != real[0]:
                game = self.current["game"]
                where = {"game": game, "version": self.version, "seat": self.seat}
                self.report.changed.append({**where, "real": real[0], "other": theirs})
                break
        return judged
