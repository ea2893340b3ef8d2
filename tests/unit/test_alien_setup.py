"""Alien: the deck, the options, the deal and the first table card."""

from collections import Counter

import pytest

from shared.games import alien
from shared.games.alien.scenarios import arrange_deck, new_game, replay, started
from shared.games.base import RuleError

HANDS = [
    ["C38", "C48", "A3", "H1", "H2"],
    ["C01", "C02", "A5", "A7", "C12"],
]


def start(state):
    return replay(state, alien.decide(state, None, {"type": "start"}))


def refused(code, call, *args):
    with pytest.raises(RuleError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value.message
    return caught.value


# The deck


def test_the_deck_has_70_cards_45_clue_10_captured_and_5_of_each_bounty_hunter():
    kinds = Counter(card[0] for card in alien.CARDS)
    assert len(alien.CARDS) == 70
    assert kinds == {"C": 45, "A": 10, "H": 15}
    assert Counter(c for c in alien.CARDS if c[0] == "H") == {"H1": 5, "H2": 5, "H3": 5}


def test_clue_cards_show_each_pair_of_aliens_once_in_rising_order():
    clues = [card for card in alien.CARDS if card[0] == "C"]
    assert len(set(clues)) == 45
    assert all(int(card[1]) < int(card[2]) for card in clues)
    assert "C07" in clues and "C38" in clues and "C83" not in clues


def test_captured_cards_are_a0_to_a9():
    assert [c for c in alien.CARDS if c[0] == "A"] == [f"A{k}" for k in range(10)]


def test_check_deck_accepts_any_order_of_the_70_cards():
    alien.check_deck(list(reversed(alien.CARDS)))


@pytest.mark.parametrize(
    "deck",
    [alien.CARDS[:-1], alien.CARDS + ["C01"], alien.CARDS[:-1] + ["C01"], "C01", [1] * 70],
)
def test_check_deck_refuses_anything_but_the_70_cards(deck):
    refused("bad_options", alien.check_deck, deck)


def test_initial_refuses_a_bad_custom_deck():
    config = {"players": 2, "seed": "s", "deck": ["C01"], "options": alien.configure(2, {})}
    refused("bad_options", alien.initial, config)


# The options


def test_configure_fills_in_the_defaults():
    assert alien.configure(4, {}) == {"stack_seconds": 5, "no_math": False}
    assert alien.configure(4, None) == {"stack_seconds": 5, "no_math": False}


def test_configure_keeps_chosen_options():
    chosen = {"stack_seconds": 2.5, "no_math": True}
    assert alien.configure(2, chosen) == chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_alien_is_for_two_to_eight_players(players):
    alien.configure(players, {})


@pytest.mark.parametrize("players", [0, 1, 9, True, "4", None])
def test_other_player_counts_are_refused(players):
    refused("bad_options", alien.configure, players, {})


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 3},
        {"stack_seconds": 0},
        {"stack_seconds": 61},
        {"stack_seconds": "5"},
        {"stack_seconds": True},
        {"no_math": "yes"},
        {"no_math": 1},
        ["no_math"],
    ],
)
def test_unknown_options_and_bad_values_are_refused(options):
    refused("bad_options", alien.configure, 3, options)


# The deal


def test_nothing_is_dealt_before_the_start():
    state = new_game(3)
    assert state["phase"] == "setup"
    assert state["hands"] == [[], [], []]
    assert alien.to_act(state) == []
    assert all(alien.legal(state, seat) == [] for seat in range(3))
    assert alien.result(state) is None


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_start_deals_five_cards_to_each_player(players):
    state = start(new_game(players))
    assert [len(hand) for hand in state["hands"]] == [5] * players
    assert len(state["draw_pile"]) == 70 - 5 * players - 1


def test_a_custom_deck_deals_seat_by_seat_then_the_table_card_then_the_draw_pile():
    deck = arrange_deck(HANDS, "C35", ["C46", "C57"])
    state = start(new_game(2, deck=deck))
    assert state["hands"] == HANDS
    assert state["table"] == "C35"
    assert state["draw_pile"][:2] == ["C46", "C57"]
    assert state["draw_pile"] == deck[11:]


def test_the_first_table_card_is_a_clue_card():
    for seed in range(20):
        state = start(new_game(4, seed=str(seed)))
        assert state["table"][0] == "C"


def test_a_first_card_that_is_not_a_clue_card_goes_back_into_the_draw_pile():
    deck = arrange_deck(HANDS, "H3", ["A9", "C46"])
    state = new_game(2, deck=deck)
    events = alien.decide(state, None, {"type": "start"})
    turned = [e for e in events if e["type"] == "turned_over"]
    assert [e["card"] for e in turned] == ["H3", "A9", "C46"]
    assert all(e["returned_to"] >= 1 for e in turned[:2])  # never back on top
    assert turned[2]["returned_to"] is None
    state = replay(state, events)
    assert state["table"] == "C46"
    assert {"H3", "A9"} <= set(state["draw_pile"])
    assert len(state["draw_pile"]) == 70 - 10 - 1


def test_seat_0_has_the_first_turn():
    state = started(HANDS, "C35")
    assert state["turn"] == 0
    assert alien.to_act(state) == [0]
    assert state["began_with"] == 5


def test_the_shuffle_comes_from_the_seed():
    deal = [start(new_game(4, seed=seed))["hands"] for seed in ("a", "a", "b")]
    assert deal[0] == deal[1]
    assert deal[0] != deal[2]


def test_the_game_cannot_start_twice():
    refused("illegal_move", alien.decide, started(HANDS, "C35"), None, {"type": "start"})


def test_start_is_the_tables_command_not_a_seats():
    refused("bad_command", alien.decide, new_game(2), 0, {"type": "start"})


def test_seat_commands_before_the_start_are_not_your_turn():
    refused("not_your_turn", alien.decide, new_game(2), 0, {"type": "pass"})


def test_unknown_table_commands_are_bad_commands():
    refused("bad_command", alien.decide, new_game(2), None, {"type": "shuffle"})
