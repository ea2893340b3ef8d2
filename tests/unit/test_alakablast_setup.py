"""Alakablast: components, options, the deal and the start."""

from collections import Counter

import pytest

import shared.games.alakablast as game
from shared.games.base import RuleError
from tests.alakablast_tables import fixed_deck, new_table, spells, started, types


def test_the_deck_holds_49_spell_cards_with_the_rulebook_powers():
    cards = Counter(game.CARDS)
    assert len(game.CARDS) == 49
    for element in "WFP":
        powers = sorted(int(code[1]) for code in game.CARDS if code[0] == element)
        assert powers == [1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6]
    assert cards["L0"] == 5 and cards["S7"] == 5


def test_the_contract_constants_name_the_game_and_its_commands():
    assert game.NAME == "alakablast"
    assert list(game.PLAYERS) == [2, 3, 4, 5]
    assert game.OPTIONS == {}
    assert game.COMMANDS == ("ask", "inform", "duel", "choose")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_configure_accepts_two_to_five_players(players):
    assert game.configure(players, {}) == {}


@pytest.mark.parametrize("players", [1, 6, 0, "3", True, None])
def test_configure_refuses_other_player_counts(players):
    with pytest.raises(RuleError) as refused:
        game.configure(players, {})
    assert refused.value.code == "bad_options"


@pytest.mark.parametrize("options", [{"rounds": 3}, {"target": 5}, None, []])
def test_configure_refuses_unknown_options(options):
    with pytest.raises(RuleError) as refused:
        game.configure(3, options)
    assert refused.value.code == "bad_options"


@pytest.mark.parametrize(
    "deck",
    [game.CARDS[:-1], game.CARDS + ["W1"], game.CARDS[:-1] + ["W1"], "W1", [1] * 49],
)
def test_check_deck_refuses_a_deck_that_is_not_the_49_cards(deck):
    with pytest.raises(RuleError) as refused:
        game.check_deck(deck)
    assert refused.value.code == "bad_options"


def test_check_deck_accepts_any_order_of_the_49_cards():
    game.check_deck(list(reversed(game.CARDS)))


def test_initial_refuses_a_bad_custom_deck():
    with pytest.raises(RuleError) as refused:
        new_table(3, deck=["W1"] * 49)
    assert refused.value.code == "bad_options"


def test_nothing_is_dealt_and_nobody_acts_before_the_start():
    state = new_table(3)
    assert state["hands"] == [[], [], []]
    assert game.to_act(state) == []
    assert game.legal(state, 0) == []
    assert game.result(state) is None
    with pytest.raises(RuleError) as refused:
        game.decide(state, 0, {"type": "ask", "card": 2, "informant": 1})
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_gets_two_hidden_and_two_open_cards(players):
    state = started(players, seed="deal")
    for hand in state["hands"]:
        assert [card["open"] for card in hand] == [False, False, True, True]


def test_with_two_players_each_hand_has_three_open_cards():
    state = started(2, seed="deal")
    for hand in state["hands"]:
        assert [card["open"] for card in hand] == [False, False, True, True, True]


@pytest.mark.parametrize("players, discarded", [(2, 10), (3, 6), (4, 0), (5, 0)])
def test_the_initial_discard_zone_depends_on_the_player_count(players, discarded):
    state = started(players, seed="deal")
    in_hands = sum(len(hand) for hand in state["hands"])
    assert len(state["discard_zone"]) == discarded
    assert len(state["draw_pile"]) == 49 - in_hands - discarded


def test_the_discard_zone_is_sorted_by_type_then_power():
    deal = [(["W1", "W2"], ["W3", "W4", "W5"]), (["F1", "F2"], ["F3", "F4", "F5"])]
    discard = ["S7", "P2", "L0", "F6", "W6", "P1", "S7", "L0", "P6", "F1"]
    state = started(2, deal, discard)
    assert state["discard_zone"] == ["W6", "F1", "F6", "P1", "P2", "P6", "L0", "L0", "S7", "S7"]


def test_a_custom_deck_deals_seat_by_seat_hidden_then_open_then_discard_then_pile():
    deal = [
        (["W1", "F1"], ["P1", "L0"]),
        (["W2", "F2"], ["P2", "S7"]),
        (["W3", "F3"], ["P3", "S7"]),
    ]
    deck = fixed_deck(3, deal, discard=["W6"], pile=["F6", "P6"])
    state = started(3, deal, discard=["W6"], pile=["F6", "P6"])
    assert spells(state, 0) == ["W1", "F1", "P1", "L0"]
    assert spells(state, 1) == ["W2", "F2", "P2", "S7"]
    assert spells(state, 2) == ["W3", "F3", "P3", "S7"]
    assert sorted(state["discard_zone"]) == sorted(deck[12:18])
    assert state["draw_pile"] == deck[18:]
    assert state["draw_pile"][:2] == ["F6", "P6"]


def test_the_shuffle_comes_from_the_seed():
    assert started(4, seed="one")["hands"] == started(4, seed="one")["hands"]
    assert started(4, seed="one")["draw_pile"] != started(4, seed="two")["draw_pile"]


def test_the_deal_is_a_dealt_event_then_seat_zero_takes_the_first_turn():
    state = new_table(3, seed="first")
    events = game.decide(state, None, {"type": "start"})
    assert types(events) == ["dealt", "turn_began"]
    assert events[1] == {"type": "turn_began", "turn": 0}
    state = started(3, seed="first")
    assert state["turn"] == 0 and game.to_act(state) == [0]


def test_every_card_is_somewhere_after_the_deal():
    for players in game.PLAYERS:
        state = started(players, seed="count")
        cards = state["discard_zone"] + state["draw_pile"]
        cards += [card["spell"] for hand in state["hands"] for card in hand]
        assert Counter(cards) == Counter(game.CARDS)


def test_the_game_can_only_be_started_once():
    with pytest.raises(RuleError) as refused:
        game.decide(started(3), None, {"type": "start"})
    assert refused.value.code == "illegal_move"


def test_only_the_table_starts_the_game():
    with pytest.raises(RuleError) as refused:
        game.decide(new_table(3), 0, {"type": "start"})
    assert refused.value.code == "not_your_turn"


def test_the_table_sends_no_other_command():
    with pytest.raises(RuleError) as refused:
        game.decide(started(3), None, {"type": "ask", "card": 2, "informant": 1})
    assert refused.value.code == "not_your_turn"


def test_new_open_cards_start_with_nothing_told():
    state = started(3)
    for hand in state["hands"]:
        for card in hand:
            expected = {"element": None, "power": None, "special": False} if card["open"] else None
            assert card["told"] == expected
