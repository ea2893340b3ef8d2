"""Fair by construction: a bot decides the same whatever it cannot see.

For every level and every game with a bot module (and the stand-in): at real decision
points, a second table that differs only in what the seat cannot see (the others'
cards, the draw pile's order, a rival's secret duel card, the seed), drawn with the
game's own sample() and checked to give the seat the same view and feed, must get the
same decision from the same rng.
"""

import random

import pytest
from click.testing import CliRunner

from services import cli, fairness
from shared import bots, games, table
from shared.bots import ismcts
from tests import bot_plugins
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


# --- `tablestream bots check LEVEL` (services/fairness.py), on a few positions


@pytest.mark.parametrize("level", ["random", "greedy", "ismcts"])
def test_the_built_in_levels_pass_the_check(level, fake_clock):
    report = fairness.check(level, positions=2, worlds=1, think_ms=40)
    assert set(report.positions) == set(games.NAMES)
    assert all(report.positions.values()), report.positions  # every game judged
    assert report.changed == [] and report.unsteady == 0 and report.late == 0
    assert report.passed and report.percentile(0.5) <= report.percentile(0.99)
    assert "PASS" in report.text()


@pytest.fixture
def side_door(monkeypatch):
    """What a careless host might leave open: every table a view is built from, kept
    where a plugin can read it (tests.bot_plugins.SIDE_DOOR)."""
    real_view = table.view

    def view(current, version, seat, *args, **kwargs):
        bot_plugins.SIDE_DOOR["table"] = current
        return real_view(current, version, seat, *args, **kwargs)

    monkeypatch.setattr(table, "view", view)
    yield bot_plugins.SIDE_DOOR
    bot_plugins.SIDE_DOOR.clear()


def test_a_plugin_that_peeks_through_a_side_door_is_caught(tmp_path, side_door):
    with bot_plugins.installed(tmp_path):
        report = fairness.check("peeking", positions=3, worlds=2)
        assert "table" in side_door  # the door was open
        assert report.changed and not report.passed
        assert {c["game"] for c in report.changed} == set(games.NAMES)
        assert "FAIL" in report.text() and "on the real table" in report.text()
        runner = CliRunner()
        caught = runner.invoke(cli.cli, ["bots", "check", "peeking", "--positions", "2"])
        passed = runner.invoke(cli.cli, ["bots", "check", "first", "--positions", "2"])
    assert caught.exit_code == 1 and "changed decisions: 0" not in caught.output
    assert passed.exit_code == 0 and "changed decisions: 0" in passed.output
    assert "p50" in passed.output and "budget 300 ms" in passed.output


def test_the_check_refuses_a_level_it_cannot_find():
    result = CliRunner().invoke(cli.cli, ["bots", "check", "genius"])
    assert result.exit_code == 2 and "the levels are random, greedy, ismcts" in result.output
