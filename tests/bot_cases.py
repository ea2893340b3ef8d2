"""What the bot tests share: the bot modules to test, decision points of real tables,
a second world that differs only in what a seat cannot see, and a fake clock.

CASES holds one case per game whose bot module (shared.bots.games.<game>) exists, plus
always the Alebrijes stand-in of tests/standin_bots.py, so the generic tests run whether
or not the per-game modules have landed, and never skip.
"""

import random
from contextlib import nullcontext
from importlib.util import find_spec

import pytest

from services.tournament import Game
from shared import bots, games, table
from tests import standin_bots


class Case:
    """A game and how to have its bot module in place while a test runs."""

    def __init__(self, game, standin=False):
        self.game = game
        self.standin = standin
        self.id = f"{game}-standin" if standin else game
        self.options = {"rounds": 1} if game == "alebrijes" else {}

    def installed(self):
        return standin_bots.installed_standin() if self.standin else nullcontext()

    def module(self):
        return bots.game_module(self.game)


def _cases():
    real = [Case(g) for g in games.NAMES if find_spec(f"shared.bots.games.{g}") is not None]
    return [*real, Case(standin_bots.GAME, standin=True)]


CASES = _cases()
CASE_PARAMS = [pytest.param(case, id=case.id) for case in CASES]
PLAYERS = 3


class TickClock:
    """A fake clock: every reading is `tick` seconds after the one before."""

    def __init__(self, tick=0.001):
        self.now = 0.0
        self.tick = tick
        self.readings = 0

    def __call__(self):
        self.readings += 1
        self.now += self.tick
        return self.now


def _hidden_choice_made(game, view):
    """Alakablast: the seat must choose its duel card after its rival chose in secret."""
    duel = (view["state"] or {}).get("duel") if game == "alakablast" else None
    return bool(duel and duel["chosen"] and view["seat"] not in duel["chosen"])


def decision_points(case, seed, count=3, every=5):
    """Up to `count` moments of a real table (random bots playing) where a seat must
    move: (table, version, seat, view, feed), every `every` turns; in Alakablast also
    one where the rival already chose its duel card in secret, when play reaches one."""
    played = Game(case.game, ["random"] * PLAYERS, seed, options=case.options)
    points, turns, hidden = [], 0, False
    for _ in range(5000):
        seat = played.turn_seat()
        if seat is not None:
            view, feed = played.view(seat), list(played.feeds[seat])
            point = (played.table, played.version, seat, view, feed)
            if not hidden and _hidden_choice_made(case.game, view):
                points.append(point)
                hidden = True
            elif turns % every == 0 and len(view["legal"]) > 1:
                points.append(point)
            turns += 1
        if len(points) >= count + (case.game == "alakablast") or not played.step():
            break
    return points


def other_world(case, current, version, seat, view, feed, salt):
    """A second table the seat cannot tell from `current`: the rules state drawn by the
    game's sample() (others' cards, the draw pile, hidden choices), another seed.
    Checks first that the seat's view is the same, and that the world does differ."""
    rules = games.get(case.game)
    world = case.module().sample(view, feed, random.Random(f"other-{salt}"))
    assert rules.view(world, seat) == view["state"]
    assert world != current["rules"], "the sampled world is the real one: nothing to hide"
    other = {**current, "rules": world, "seed": f"another seed {salt}"}
    assert table.view(other, version, seat) == view
    return other
