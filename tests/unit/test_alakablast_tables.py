"""The Alakablast test tables (tests/alakablast_tables.py) deal and fold as they say."""

from collections import Counter

import shared.games.alakablast as game
from tests.alakablast_tables import cards_on_table, spells, started


def test_a_fixed_deck_deals_the_hands_named():
    state = started(3, [(["W1", "F1"], ["P1", "L0"])] * 3)
    assert spells(state, 0) == spells(state, 2) == ["W1", "F1", "P1", "L0"]
    assert cards_on_table(state) == Counter(game.CARDS)
