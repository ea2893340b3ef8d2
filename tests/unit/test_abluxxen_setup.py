"""Abluxxen: the cards, the options, a fixed deck and the deal."""

from collections import Counter

import pytest
from test_abluxxen_support import act, full_deck, new_game

from shared.games import abluxxen
from shared.games.base import RuleError

START = {"type": "start"}


def started(players=2, published=False, deck=None, seed="seed"):
    state = new_game(players, published, deck, seed)
    state, events = act(state, None, START)
    return state, events


def test_the_game_has_the_contracts_facts():
    assert abluxxen.NAME == "abluxxen" and list(abluxxen.PLAYERS) == [2, 3, 4, 5]
    assert abluxxen.OPTIONS == {"published": False}
    assert abluxxen.COMMANDS == ("play", "attack", "stop", "answer", "keep", "draw")


def test_the_deck_is_eight_of_each_number_from_1_to_13_and_five_jokers_without_the_marker():
    counts = Counter(abluxxen.CARDS)
    assert len(abluxxen.CARDS) == 109
    assert counts == {**{str(n): 8 for n in range(1, 14)}, "X": 5}


def test_configure_defaults_to_the_rulebooks_rules():
    assert abluxxen.configure(3, {}) == {"published": False}
    assert abluxxen.configure(3, None) == {"published": False}
    assert abluxxen.configure(5, {"published": True}) == {"published": True}


@pytest.mark.parametrize("players", [1, 6, 0, "3", True, None])
def test_configure_refuses_player_counts_outside_2_to_5(players):
    with pytest.raises(RuleError) as refusal:
        abluxxen.configure(players, {})
    assert refusal.value.code == "bad_options"


@pytest.mark.parametrize("options", [{"rounds": 2}, {"published": "yes"}, {"published": 1}, []])
def test_configure_refuses_unknown_options_and_bad_values(options):
    with pytest.raises(RuleError) as refusal:
        abluxxen.configure(2, options)
    assert refusal.value.code == "bad_options"


@pytest.mark.parametrize(
    "deck",
    [
        abluxxen.CARDS[:-1],
        abluxxen.CARDS + ["X"],
        abluxxen.CARDS[:-1] + ["14"],
        abluxxen.CARDS[:-1] + [7],
        "1 2 3",
        None,
    ],
)
def test_check_deck_refuses_anything_but_the_109_cards_in_some_order(deck):
    with pytest.raises(RuleError) as refusal:
        abluxxen.check_deck(deck)
    assert refusal.value.code == "bad_options"


def test_initial_checks_a_given_deck():
    with pytest.raises(RuleError):
        new_game(2, deck=abluxxen.CARDS[:100])
    abluxxen.check_deck(list(reversed(abluxxen.CARDS)))


def test_nothing_is_dealt_before_the_tables_start_command():
    state = new_game(3)
    assert state["phase"] == "setup"
    assert abluxxen.to_act(state) == [] and abluxxen.legal(state, 0) == []
    assert abluxxen.legal(state, None) == [START]
    assert abluxxen.result(state) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_start_deals_13_cards_to_each_player_6_to_the_display_and_the_rest_to_the_draw_pile(
    players,
):
    state, events = started(players)
    assert [event["type"] for event in events] == ["dealt"]
    assert [len(hand) for hand in state["hands"]] == [13] * players
    assert len(state["display"]) == 6
    assert len(state["draw_pile"]) == 109 - 13 * players - 6
    assert events[0]["draw_pile_count"] == len(state["draw_pile"])


def test_a_fixed_deck_deals_seat_by_seat_then_the_display_then_the_draw_pile():
    deck = list(abluxxen.CARDS)  # 1 1 1 1 1 1 1 1 2 2 ... 13, then X X X X X
    state, _ = started(3, deck=deck)
    assert state["hands"][0] == deck[:13]
    assert state["hands"][1] == deck[13:26]
    assert state["hands"][2] == deck[26:39]
    assert state["display"] == deck[39:45]
    assert state["draw_pile"] == deck[45:]


def test_a_fixed_deck_helper_puts_the_chosen_cards_where_they_are_dealt():
    deck = full_deck([["X", "X"], ["1"]], display=["2"], draw_pile=["3", "4"])
    state, _ = started(2, deck=deck)
    assert state["hands"][0].count("X") == 2 and "1" in state["hands"][1]
    assert state["display"][0] == "2" and state["draw_pile"][:2] == ["3", "4"]


def test_the_shuffle_comes_from_the_seed_alone():
    assert started(4, seed="a")[1] == started(4, seed="a")[1]
    assert started(4, seed="a")[1] != started(4, seed="b")[1]


def test_seat_0_plays_first():
    state, _ = started(4)
    assert state["phase"] == "play" and abluxxen.to_act(state) == [0]


def test_only_the_table_starts_the_game_and_only_once():
    state = new_game(2)
    for seat, command, code in [
        (0, START, "bad_command"),
        (None, {"type": "play", "cards": ["1"]}, "bad_command"),
        (None, {"type": "start", "now": True}, "bad_command"),
    ]:
        with pytest.raises(RuleError) as refusal:
            abluxxen.decide(state, seat, command)
        assert refusal.value.code == code
    state, _ = started(2)
    with pytest.raises(RuleError) as refusal:
        abluxxen.decide(state, None, START)
    assert refusal.value.code == "illegal_move"
