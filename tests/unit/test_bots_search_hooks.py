"""The search hooks of the Alebrijes and Abluxxen bot modules: `rank` orders every
legal command with greedy's choice first, and `evaluate` reads a world's standing as a
reward from 0 to 1 that grows with the seat's lead."""

import random

import pytest

from shared import bots
from tests.bot_cases import Case, decision_points

GAMES = ["alebrijes", "abluxxen"]


def _points(game, seed="hooks"):
    return decision_points(Case(game), seed, count=4)


@pytest.mark.parametrize("game", GAMES)
def test_rank_is_every_legal_command_once_greedys_first(game):
    module = bots.game_module(game)
    for _, _, _, view, feed in _points(game):
        ranked = module.rank(view, feed, random.Random(3))
        assert ranked[0] == module.greedy(view, feed, random.Random(3))
        assert len(ranked) == len(view["legal"])
        assert all(c in view["legal"] for c in ranked)
        assert all(c in ranked for c in view["legal"])


def _lead(game, world, seat):
    """The same world with the seat's standing improved by one card."""
    if game == "abluxxen":  # a card from its hand to its scoring pile
        card = world["hands"][seat].pop()
        world["scoring_piles"][seat].append(card)
    else:  # its highest card leaves its hand
        hand = world["hands"][seat]
        hand.remove(max(hand, key=lambda c: int(c[1])))
    return world


@pytest.mark.parametrize("game", GAMES)
def test_evaluate_is_a_reward_that_grows_with_the_seats_lead(game):
    module = bots.game_module(game)
    for _, _, seat, view, feed in _points(game):
        world = module.sample(view, feed, random.Random(4))
        value = module.evaluate(world, seat)
        assert 0.0 < value < 1.0
        if len(world["hands"][seat]) > 1:
            assert module.evaluate(_lead(game, world, seat), seat) > value
    assert module.HORIZON >= 1
