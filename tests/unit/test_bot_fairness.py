"""Fair by construction: a bot decides the same whatever it cannot see.

For every level and every game with a bot module (and the stand-in): at real decision
points, a second table that differs only in what the seat cannot see (the others'
cards, the draw pile's order, a rival's secret duel card, the seed), drawn with the
game's own sample() and checked to give the seat the same view and feed, must get the
same decision from the same rng.
"""

import random

import pytest

from shared import bots, table
from shared.bots import ismcts
from tests.bot_cases import CASE_PARAMS, TickClock, decision_points, other_world


@pytest.fixture
def fake_clock(monkeypatch):
    """ismcts on a fake clock: its number of play-outs no longer depends on the
    machine, so two searches from the same view, feed and rng are comparable."""
    monkeypatch.setattr(ismcts, "DEFAULT_CLOCK", TickClock(tick=0.0005))


def _decide(level, view, feed, salt):
    ismcts.DEFAULT_CLOCK.now = 0.0
    return bots.choose(level, view, feed, random.Random(f"decide-{salt}"), think_ms=40)


@pytest.mark.parametrize("level", ["random", "greedy", "ismcts"])
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_a_decision_does_not_change_with_what_the_seat_cannot_see(case, level, fake_clock):
    with case.installed():
        points = decision_points(case, f"fair-{level}", count=3)
        assert points
        for n, (current, version, seat, view, feed) in enumerate(points):
            other = other_world(case, current, version, seat, view, feed, salt=n)
            seen_there = table.view(other, version, seat)
            mine = _decide(level, view, feed, n)
            assert mine in view["legal"]
            assert _decide(level, seen_there, list(feed), n) == mine


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_neither_view_nor_feed_holds_the_seed_that_made_the_hidden_cards(case):
    with case.installed():
        for _, _, _, view, feed in decision_points(case, "no seed", count=2):
            assert view["seed"] is None
            assert all(event.get("seed") is None and event.get("deck") is None for event in feed)
