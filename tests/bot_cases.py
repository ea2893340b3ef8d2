"""What the bot tests share: the bot modules to test, decision points of real tables,
a second world that differs only in what a seat cannot see, and a fake clock.

CASES holds one case per game whose bot module (shared.bots.games.<game>) exists, plus
always the Alebrijes stand-in of tests/standin_bots.py, so the generic tests run whether
or not the per-game modules have landed, and never skip.
"""

from contextlib import nullcontext
from importlib.util import find_spec

import pytest

from services import fairness
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


def decision_points(case, seed, count=3, every=5):
    """Up to `count` moments of a real table where a seat must move (services.fairness)."""
    return fairness.decision_points(
        case.game, seed, count=count, every=every, options=case.options, players=PLAYERS
    )


def other_world(case, current, version, seat, view, feed, salt):
    """A second table the seat cannot tell from `current` (services.fairness), which
    does differ from it."""
    other = fairness.other_world(current, version, seat, view, feed, salt)
    assert other is not None, "the sampled world is the real one: nothing to hide"
    assert games.get(case.game).view(other["rules"], seat) == view["state"]
    assert table.view(other, version, seat) == view
    return other
