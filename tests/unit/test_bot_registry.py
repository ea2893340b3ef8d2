"""The registry of bot levels: entry points of the group tablestream.bots, the built-in
ones registered exactly as a plugin is; the tournament finds a plugin there too."""

import random
from importlib import metadata

import pytest

from services import tournament
from shared import bots, games
from shared.bots import registry
from tests import bot_plugins


def test_the_built_in_levels_are_entry_points_of_tablestream():
    points = {p.name: p for p in metadata.entry_points(group=registry.GROUP)}
    owners = {n: points[n].dist.name for n in bots.LEVELS}
    assert owners == dict.fromkeys(bots.LEVELS, "tablestream")
    assert registry.names() == ("random", "greedy", "ismcts") and registry.problems() == {}
    assert [registry.get(n).games for n in bots.LEVELS] == [tuple(sorted(games.NAMES))] * 3


def test_a_plugin_is_found_through_its_distributions_metadata(tmp_path):
    with bot_plugins.installed(tmp_path, bot_plugins.ENTRIES):
        assert registry.names()[:4] == ("random", "greedy", "ismcts", "first")
        assert registry.get("first") is bot_plugins.FIRST
        assert "alien_only" not in registry.names("alebrijes")
    assert "first" not in registry.names()  # gone with its distribution


def test_two_entry_points_of_one_name_are_neither_served(tmp_path):
    with bot_plugins.installed(tmp_path, {"greedy": "tests.bot_plugins:FIRST"}):
        assert "greedy" not in registry.names()
        assert registry.problems()["greedy"] == "two entry points share this name"
        with pytest.raises(bots.UnknownLevel, match="greedy.*two entry points"):
            registry.check()


def test_a_plugin_without_reflexes_reacts_as_greedy_does(tmp_path):
    view = {"game": "alien", "legal": [{"type": "stack"}, {"type": "end_turn"}]}
    with bot_plugins.installed(tmp_path, bot_plugins.ENTRIES):
        assert bots.react("first", view, [], random.Random(1)) == {"type": "stack"}


def test_the_tournament_seats_a_plugin(tmp_path):
    with bot_plugins.installed(tmp_path, bot_plugins.ENTRIES):
        argv = ["--game", "alien", "--levels", "first,random", "--games", "2", "--quiet"]
        (summary,) = tournament.play(argv)
    assert summary["levels"]["first"]["decisions"] > 0
