"""Alebrijes: one test per rule of the rulebook and of RULINGS.md, on tiny scripted deals."""

import copy
import random
from collections import Counter

import pytest

from shared.games import alebrijes
from shared.games.alebrijes.cards import hand_size, minus_points
from shared.games.alebrijes.rounds import next_starting_seat, winners
from shared.games.base import RuleError

# --- helpers: a fixed deck puts chosen cards in chosen hands and on top of the draw pile


def deck_for(players, hands=None, pile=()):
    """A full deck: each seat's hand starts with the given cards, the draw pile's top with
    `pile`; every other card fills the gaps in the deck's own order."""
    hands = hands or {}
    given = [card for cards in hands.values() for card in cards] + list(pile)
    filler = list((Counter(alebrijes.CARDS) - Counter(given)).elements())
    deck, size = [], hand_size(players)
    for seat in range(players):
        cards = list(hands.get(seat, []))
        deck += cards + [filler.pop() for _ in range(size - len(cards))]
    return deck + list(pile) + filler


def start(players=2, hands=None, pile=(), seed="test", **options):
    """A started game (round 1 dealt, exchange phase) on a scripted deck."""
    config = {
        "players": players,
        "seed": seed,
        "deck": deck_for(players, hands, pile),
        "options": alebrijes.configure(players, options),
    }
    state, _ = act(alebrijes.initial(config), None, {"type": "start"})
    return state


def exchange_nothing(state):
    """Every seat exchanges nothing, in turn, until play begins."""
    while state["phase"] == "exchange":
        state, _ = act(state, state["turn"], {"type": "exchange", "cards": []})
    return state


def to_play(players=2, hands=None, pile=(), **options):
    """A game in round 1 with the exchanges done: seat 0 leads."""
    return exchange_nothing(start(players, hands, pile, **options))


def act(state, seat, command):
    """Decide and fold: the new state and the events."""
    events = alebrijes.decide(state, seat, command)
    for event in events:
        state = alebrijes.evolve(state, event)
    return state, events


def play(state, seat, *cards, colour=None, ollin=None, lay_aside=None):
    command = {"type": "play", "cards": list(cards)}
    for key, value in (("colour", colour), ("ollin", ollin), ("lay_aside", lay_aside)):
        if value is not None:
            command[key] = value
    return act(state, seat, command)


def pass_(state, seat, *exchange):
    return act(state, seat, {"type": "pass", "exchange": list(exchange)})


def refused(code, state, seat, command):
    """The RuleError code and message decide gives for the command."""
    with pytest.raises(RuleError) as error:
        alebrijes.decide(state, seat, command)
    assert error.value.code == code
    return error.value.message


def refused_play(state, seat, *cards, **fields):
    return refused("illegal_move", state, seat, {"type": "play", "cards": list(cards), **fields})


def types(events):
    return [event["type"] for event in events]


def with_hands(state, hands, turn=None):
    """The state with some hands replaced (and, given `turn`, that seat leading)."""
    state = copy.deepcopy(state)
    for seat, cards in hands.items():
        state["hands"][seat] = list(cards)
    if turn is not None:
        state.update(turn=turn, leader=turn)
    return state


def finish_round(state):
    """Exchange nothing, then the starting player plays out their only card (a blue 1)."""
    state = exchange_nothing(state)
    leader = state["turn"]
    state = with_hands(state, {leader: ["B1"]})
    return play(state, leader, "B1")


# --- cards, players, options


def test_the_deck_has_80_cards_three_of_each_colour_and_number_one_with_ollin():
    counts = Counter(alebrijes.CARDS)
    assert len(alebrijes.CARDS) == 80
    for colour in "BGPO":
        for number in range(1, 6):
            assert counts[f"{colour}{number}"] == 2
            assert counts[f"{colour}{number}*"] == 1


def test_the_deck_has_four_jokers_of_each_number_without_ollin():
    counts = Counter(alebrijes.CARDS)
    assert [counts[f"J{number}"] for number in range(1, 6)] == [4] * 5
    assert not any(card.startswith("J") and card.endswith("*") for card in counts)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_may_play(players):
    assert alebrijes.configure(players, {}) == {"rounds": 3, "one_turn": False}


@pytest.mark.parametrize("players", [0, 1, 7, "3", True])
def test_other_player_counts_are_refused(players):
    with pytest.raises(RuleError) as error:
        alebrijes.configure(players, {})
    assert error.value.code == "bad_options"


@pytest.mark.parametrize(
    "options",
    [{"rounds": 0}, {"rounds": "3"}, {"rounds": True}, {"one_turn": 1}, {"seed": "x"}, {"x": 1}],
)
def test_bad_or_unknown_options_are_refused(options):
    with pytest.raises(RuleError) as error:
        alebrijes.configure(3, options)
    assert error.value.code == "bad_options"


def test_options_default_to_three_rounds_and_full_tricks():
    assert alebrijes.OPTIONS == {"rounds": 3, "one_turn": False}
    assert alebrijes.configure(2, {"rounds": 1}) == {"rounds": 1, "one_turn": False}
    assert alebrijes.configure(2, {"one_turn": True}) == {"rounds": 3, "one_turn": True}


@pytest.mark.parametrize("players, size", [(2, 10), (3, 10), (4, 10), (5, 8), (6, 8)])
def test_each_player_gets_ten_cards_or_eight_with_five_or_six_players(players, size):
    state = start(players)
    assert [len(hand) for hand in state["hands"]] == [size] * players
    assert len(state["draw_pile"]) == 80 - size * players


def test_a_fixed_deck_deals_seat_by_seat_and_the_rest_is_the_draw_pile_top_first():
    deck = list(reversed(alebrijes.CARDS))
    config = {"players": 3, "seed": "s", "deck": deck, "options": alebrijes.configure(3, {})}
    (dealt,) = alebrijes.decide(alebrijes.initial(config), None, {"type": "start"})
    assert dealt["hands"] == [deck[0:10], deck[10:20], deck[20:30]]
    assert dealt["draw_pile"] == deck[30:]


@pytest.mark.parametrize(
    "deck", [alebrijes.CARDS[:-1], alebrijes.CARDS[:-1] + ["B1"], alebrijes.CARDS + ["J1"], "B1"]
)
def test_a_fixed_deck_must_be_the_80_cards_in_some_order(deck):
    with pytest.raises(RuleError) as error:
        alebrijes.check_deck(deck)
    assert error.value.code == "bad_options"
    config = {"players": 2, "seed": "s", "deck": deck, "options": alebrijes.configure(2, {})}
    with pytest.raises(RuleError):
        alebrijes.initial(config)


def test_without_a_fixed_deck_each_round_is_shuffled_from_the_seed_and_round_number():
    config = {"players": 2, "seed": "abc", "deck": None, "options": alebrijes.configure(2, {})}
    (dealt,) = alebrijes.decide(alebrijes.initial(config), None, {"type": "start"})
    expected = list(alebrijes.CARDS)
    random.Random("abc/round/1").shuffle(expected)
    assert dealt["hands"] + [dealt["draw_pile"]] == [expected[:10], expected[10:20], expected[20:]]


def test_a_fixed_deck_orders_only_round_one_later_rounds_come_from_the_seed():
    state, events = finish_round(start(2, seed="abc"))
    dealt = events[-1]
    expected = list(alebrijes.CARDS)
    random.Random("abc/round/2").shuffle(expected)
    assert dealt["type"] == "dealt" and dealt["round"] == 2
    assert dealt["hands"][0] + dealt["hands"][1] + dealt["draw_pile"] == expected


def test_different_seeds_deal_differently():
    first = start(3, seed="one")
    _, events = finish_round(first)
    _, others = finish_round(start(3, seed="two"))
    assert events[-1]["hands"] != others[-1]["hands"]


# --- starting the game and whose turn it is


def test_nothing_happens_before_the_table_starts_the_game():
    config = {"players": 2, "seed": "s", "deck": None, "options": alebrijes.configure(2, {})}
    state = alebrijes.initial(config)
    assert alebrijes.to_act(state) == []
    assert alebrijes.legal(state, 0) == []
    assert alebrijes.view(state, 0)["phase"] == "waiting"
    refused("illegal_move", state, 0, {"type": "exchange", "cards": []})


def test_start_is_the_tables_own_command_and_comes_only_once():
    state = start(2)
    refused("illegal_move", state, None, {"type": "start"})
    refused("bad_command", state, 0, {"type": "start"})
    refused("bad_command", state, None, {"type": "exchange", "cards": []})


def test_seat_zero_starts_the_first_round():
    state = start(4)
    assert state["starting_seat"] == 0
    assert alebrijes.to_act(state) == [0]


def test_a_seat_that_is_not_to_act_is_refused():
    state = start(3)
    refused("not_your_turn", state, 1, {"type": "exchange", "cards": []})
    refused("not_your_turn", state, 7, {"type": "exchange", "cards": []})
    assert alebrijes.legal(state, 1) == []


@pytest.mark.parametrize(
    "command",
    [
        None,
        [],
        {"cards": []},
        {"type": "draw"},
        {"type": "exchange"},
        {"type": "exchange", "cards": "B1"},
        {"type": "exchange", "cards": ["X9"]},
        {"type": "exchange", "cards": [], "extra": 1},
        {"type": ["play"]},
        {"type": "play", "cards": [1]},
        {"type": "play", "cards": ["B1"], "colour": "R"},
        {"type": "play", "cards": ["B1"], "ollin": "all"},
        {"type": "play", "cards": ["B1"], "lay_aside": ["B2"]},
        {"type": "pass", "exchange": "B1"},
    ],
)
def test_malformed_commands_are_refused_as_bad_commands(command):
    refused("bad_command", start(2), 0, command)


# --- the exchange at the start of a round


def test_exchange_at_round_start_goes_clockwise_from_the_starting_player():
    state = start(3)
    order = []
    while state["phase"] == "exchange":
        (seat,) = alebrijes.to_act(state)
        order.append(seat)
        state, _ = act(state, seat, {"type": "exchange", "cards": []})
    assert order == [0, 1, 2]
    assert state["phase"] == "play" and alebrijes.to_act(state) == [0]


def test_exchanged_cards_are_laid_aside_for_the_round_and_as_many_drawn_from_the_pile():
    state = start(2, hands={0: ["B1", "G2"]}, pile=["O5", "P5", "J5"])
    state, (event,) = act(state, 0, {"type": "exchange", "cards": ["G2", "B1"]})
    assert event == {
        "type": "exchanged",
        "seat": 0,
        "count": 2,
        "laid_aside": ["B1", "G2"],
        "drawn": ["O5", "P5"],
    }
    assert Counter(state["hands"][0])["O5"] >= 1 and "P5" in state["hands"][0]
    assert len(state["hands"][0]) == 10
    assert state["laid_aside"][0] == ["B1", "G2"]
    assert state["draw_pile"][0] == "J5"


def test_a_player_may_exchange_nothing_or_one_card():
    state = start(2, hands={0: ["B1"]}, pile=["O5"])
    state, (event,) = act(state, 0, {"type": "exchange", "cards": ["B1"]})
    assert event["drawn"] == ["O5"]
    state, (event,) = act(state, 1, {"type": "exchange", "cards": []})
    assert event["count"] == 0 and event["drawn"] == []


def test_at_most_two_cards_may_be_exchanged():
    state = start(2, hands={0: ["B1", "B2", "B3"]})
    refused("illegal_move", state, 0, {"type": "exchange", "cards": ["B1", "B2", "B3"]})


def test_only_cards_in_hand_may_be_exchanged():
    state = start(2, hands={0: ["B1"], 1: ["B1", "B1*"]})
    refused("illegal_move", state, 0, {"type": "exchange", "cards": ["B1", "B1"]})
    refused("illegal_move", state, 0, {"type": "exchange", "cards": ["B1*"]})


def test_no_more_cards_can_be_exchanged_than_the_draw_pile_holds():
    state = start(2, hands={0: ["B1", "B2"]})
    state = {**state, "draw_pile": state["draw_pile"][:1]}
    refused("illegal_move", state, 0, {"type": "exchange", "cards": ["B1", "B2"]})
    assert max(len(command["cards"]) for command in alebrijes.legal(state, 0)) == 1
    act(state, 0, {"type": "exchange", "cards": ["B1"]})


def test_plays_and_passes_wait_until_everyone_has_exchanged():
    state = start(2, hands={0: ["B1"]})
    refused_play(state, 0, "B1")
    refused("illegal_move", state, 0, {"type": "pass"})


def test_the_exchange_is_only_at_the_start_of_the_round():
    state = to_play(2)
    refused("illegal_move", state, 0, {"type": "exchange", "cards": []})


# --- leading, sets and jokers


def test_the_leader_may_play_any_single_card():
    state = to_play(2, hands={0: ["O3"]})
    state, (event,) = play(state, 0, "O3")
    assert event == {
        "type": "played",
        "seat": 0,
        "cards": ["O3"],
        "colour": "O",
        "number": 3,
        "count": 1,
        "ollin": "none",
    }
    assert state["table"] == {"seat": 0, "cards": ["O3"], "colour": "O", "number": 3, "count": 1}
    assert alebrijes.to_act(state) == [1]


def test_a_set_is_two_or_more_cards_of_one_number_and_one_colour():
    state = to_play(2, hands={0: ["G2", "G2", "G2*", "G3", "P2"]})
    refused_play(state, 0, "G2", "G3")
    refused_play(state, 0, "G2", "P2")
    state, (event,) = play(state, 0, "G2", "G2", "G2*")
    assert (event["colour"], event["number"], event["count"]) == ("G", 2, 3)


def test_jokers_fill_a_set_and_keep_their_number():
    state = to_play(2, hands={0: ["B3", "J3", "J4"]})
    refused_play(state, 0, "B3", "J4")
    state, (event,) = play(state, 0, "B3", "J3")
    assert (event["colour"], event["number"], event["count"]) == ("B", 3, 2)


def test_jokers_alone_name_their_colour():
    state = to_play(2, hands={0: ["J2", "J2"], 1: ["P1", "P1"]})
    refused_play(state, 0, "J2", "J2")
    state, (event,) = play(state, 0, "J2", "J2", colour="G")
    assert (event["colour"], event["number"], event["count"]) == ("G", 2, 2)
    # they keep the colour they were named: two pink cards of any number beat them
    state, _ = play(state, 1, "P1", "P1")


def test_a_colour_is_named_only_when_every_card_is_a_joker():
    state = to_play(2, hands={0: ["B3", "J3"]})
    message = refused_play(state, 0, "B3", "J3", colour="B")
    assert "joker" in message


def test_a_player_can_only_play_cards_they_hold():
    state = to_play(2, hands={0: ["B1"], 1: ["B1", "B1*"]})
    refused_play(state, 0, "B1", "B1")
    refused_play(state, 0, "B1*")
    refused_play(state, 0)


# --- beating the combination on the table


def test_a_set_is_beaten_by_the_same_count_of_a_higher_number_in_the_same_colour():
    state = to_play(2, hands={0: ["B2", "B2"], 1: ["B4", "B4", "B1", "B1"]})
    state, _ = play(state, 0, "B2", "B2")
    refused_play(state, 1, "B1", "B1")
    state, (event,) = play(state, 1, "B4", "B4")
    assert state["table"]["cards"] == ["B4", "B4"]


def test_the_same_number_in_the_same_colour_does_not_beat():
    state = to_play(2, hands={0: ["G3"], 1: ["G3"]})
    state, _ = play(state, 0, "G3")
    refused_play(state, 1, "G3")


def test_a_set_is_beaten_by_the_same_count_of_the_next_colour_whatever_its_number():
    state = to_play(2, hands={0: ["B4", "B4"], 1: ["G1", "G1"]})
    state, _ = play(state, 0, "B4", "B4")
    state, _ = play(state, 1, "G1", "G1")
    assert state["table"]["colour"] == "G"


def test_the_colour_order_is_blue_green_pink_orange():
    for lower, higher in ("BG", "GP", "PO"):
        state = to_play(2, hands={0: [f"{lower}5"], 1: [f"{higher}1"]})
        state, _ = play(state, 0, f"{lower}5")
        play(state, 1, f"{higher}1")


def test_colours_cannot_be_skipped():
    state = to_play(2, hands={0: ["G1", "G1"], 1: ["O1", "O1", "B5", "B5", "P1", "P1"]})
    state, _ = play(state, 0, "G1", "G1")
    assert "skipped" in refused_play(state, 1, "O1", "O1")
    refused_play(state, 1, "B5", "B5")
    # the rulebook's example: Bart beats Ana's two green 1s with two pink 1s
    play(state, 1, "P1", "P1")


def test_a_different_count_does_not_beat():
    state = to_play(2, hands={0: ["B2", "B2"], 1: ["B5", "G1", "G1", "G1*"]})
    state, _ = play(state, 0, "B2", "B2")
    refused_play(state, 1, "B5")
    refused_play(state, 1, "G1", "G1", "G1*")


def test_orange_is_beaten_only_by_one_more_blue_card():
    cris, neus = ["O5", "O5", "O5*"], ["B1", "B1", "B1*", "J1", "J1", "G1", "G1", "G1*"]
    state = to_play(2, hands={0: cris, 1: neus})
    state, _ = play(state, 0, *cris)
    refused_play(state, 1, "B1", "B1", "B1*")  # the same count of blue does not beat orange
    refused_play(state, 1, "B1", "B1", "B1*", "J1", "J1")  # nor two more
    refused_play(state, 1, "G1", "G1", "G1*")
    # the rulebook's example: Neus beats three orange 5s with four blue 1s
    state, _ = play(state, 1, "B1", "B1", "B1*", "J1")
    assert (state["table"]["colour"], state["table"]["count"]) == ("B", 4)


def test_orange_is_also_beaten_by_the_same_count_of_a_higher_orange():
    state = to_play(2, hands={0: ["O2"], 1: ["O4", "O1"]})
    state, _ = play(state, 0, "O2")
    refused_play(state, 1, "O1")
    play(state, 1, "O4")


def test_jokers_named_orange_are_beaten_by_one_more_blue_card():
    state = to_play(2, hands={0: ["J5"], 1: ["B2", "J2"]})
    state, _ = play(state, 0, "J5", colour="O")
    play(state, 1, "B2", "J2")


# --- passing


def test_the_leader_must_play_and_cannot_pass():
    state = to_play(2)
    message = refused("illegal_move", state, 0, {"type": "pass"})
    assert "leader must play" in message
    assert all(command["type"] == "play" for command in alebrijes.legal(state, 0))


def test_a_player_facing_a_combination_may_pass():
    state = to_play(3, hands={0: ["B1"]})
    state, _ = play(state, 0, "B1")
    state, (event,) = act(state, 1, {"type": "pass"})
    assert event == {"type": "passed", "seat": 1, "count": 0, "laid_aside": [], "drawn": []}
    assert state["passed"] == [False, True, False]
    assert alebrijes.to_act(state) == [2]


def test_pass_allows_an_exchange():
    state = to_play(3, hands={0: ["B1"], 1: ["O2", "P2"]}, pile=["J5", "J4", "J3"])
    state, _ = play(state, 0, "B1")
    state, (event,) = pass_(state, 1, "O2", "P2")
    assert event["laid_aside"] == ["P2", "O2"] and event["drawn"] == ["J5", "J4"]
    assert state["laid_aside"][1] == ["P2", "O2"]
    assert Counter(state["hands"][1])["J5"] >= 1 and len(state["hands"][1]) == 10


def test_a_pass_exchanges_at_most_two_cards():
    state = to_play(2, hands={0: ["B1"], 1: ["O2", "P2", "G2"]})
    state, _ = play(state, 0, "B1")
    refused("illegal_move", state, 1, {"type": "pass", "exchange": ["O2", "P2", "G2"]})


def test_no_exchange_when_the_draw_pile_is_empty():
    state = to_play(3, hands={0: ["B1"], 1: ["O2"]})
    state, _ = play(state, 0, "B1")
    state = {**state, "draw_pile": []}
    message = refused("illegal_move", state, 1, {"type": "pass", "exchange": ["O2"]})
    assert "draw pile is empty" in message
    assert [c for c in alebrijes.legal(state, 1) if c["type"] == "pass"] == [
        {"type": "pass", "exchange": []}
    ]
    state, _ = pass_(state, 1)
    assert state["passed"][1]


def test_a_passed_player_is_skipped_until_the_table_is_cleared():
    hands = {0: ["B1", "B4"], 1: [], 2: ["B2"], 3: ["B3"]}
    state = to_play(4, hands=hands)
    state, _ = play(state, 0, "B1")
    state, _ = pass_(state, 1)
    state, _ = play(state, 2, "B2")
    state, _ = play(state, 3, "B3")
    state, _ = play(state, 0, "B4")
    assert alebrijes.to_act(state) == [2]
    refused("not_your_turn", state, 1, {"type": "pass"})


def test_all_but_one_passed_lets_that_player_play_out_anew():
    state = to_play(3, hands={0: ["B1"], 1: ["B2"]})
    state, _ = play(state, 0, "B1")
    state, _ = play(state, 1, "B2")
    state, _ = pass_(state, 2)
    state, events = pass_(state, 0)
    assert types(events) == ["passed", "table_cleared"]
    assert events[1] == {"type": "table_cleared", "leader": 1, "reason": "all_passed"}
    assert state["table"] is None
    assert state["passed"] == [False, False, False]  # every pass is lifted
    assert alebrijes.to_act(state) == [1]
    # playing out anew is without restriction, and without an exchange: it is a lead
    assert {command["type"] for command in alebrijes.legal(state, 1)} == {"play"}


def test_with_two_players_one_pass_clears_the_table():
    state = to_play(2, hands={0: ["B1"]})
    state, _ = play(state, 0, "B1")
    state, events = pass_(state, 1)
    assert types(events) == ["passed", "table_cleared"]
    assert alebrijes.to_act(state) == [0] and state["table"] is None


# --- Ollin effects


def test_one_ollin_card_lets_all_others_draw_one_card_in_turn_order():
    state = to_play(4, hands={2: ["G4*"]}, pile=["J1", "J2", "J3", "J4"])
    state = with_hands(state, {}, turn=2)
    state, events = play(state, 2, "G4*", ollin="others_draw")
    assert types(events) == ["played", "ollin_draws"]
    assert events[0]["ollin"] == "others_draw"
    assert events[1]["draws"] == [
        {"seat": 3, "card": "J1"},
        {"seat": 0, "card": "J2"},
        {"seat": 1, "card": "J3"},
    ]
    assert state["draw_pile"][0] == "J4"
    assert [len(hand) for hand in state["hands"]] == [11, 11, 9, 11]


def test_all_others_draw_even_those_who_passed():
    state = to_play(3, hands={0: ["B1"], 2: ["B2*"]}, pile=["J1", "J2"])
    state, _ = play(state, 0, "B1")
    state, _ = pass_(state, 1)
    state, events = play(state, 2, "B2*", ollin="others_draw")
    assert [draw["seat"] for draw in events[1]["draws"]] == [0, 1]


def test_others_draw_only_while_the_draw_pile_lasts():
    state = to_play(4, hands={0: ["B2*"]})
    state = {**state, "draw_pile": ["J5"]}
    state, events = play(state, 0, "B2*", ollin="others_draw")
    assert events[1]["draws"] == [{"seat": 1, "card": "J5"}]
    assert state["draw_pile"] == []


def test_one_ollin_card_cannot_lay_aside():
    state = to_play(2, hands={0: ["B2*", "B3"]})
    refused_play(state, 0, "B2*", ollin="lay_aside", lay_aside="B3")


def test_two_cards_with_an_ollin_may_let_others_draw():
    state = to_play(3, hands={0: ["P3", "P3*"]}, pile=["J1", "J2"])
    state, events = play(state, 0, "P3", "P3*", ollin="others_draw")
    assert events[1]["draws"] == [{"seat": 1, "card": "J1"}, {"seat": 2, "card": "J2"}]


def test_two_cards_with_an_ollin_may_lay_aside_one_of_my_cards():
    state = to_play(2, hands={0: ["P3", "J3", "O1"]})
    refused_play(state, 0, "P3", "J3", ollin="lay_aside", lay_aside="O1")  # no Ollin symbol
    state = to_play(2, hands={0: ["P3*", "J3", "O1"]})
    state, events = play(state, 0, "P3*", "J3", ollin="lay_aside", lay_aside="O1")
    assert events[0]["ollin"] == "lay_aside" and "O1" not in events[0]["cards"]
    assert events[1] == {"type": "laid_aside", "seat": 0, "card": "O1"}
    assert state["laid_aside"][0] == ["O1"]
    assert len(state["hands"][0]) == 7


def test_the_card_laid_aside_must_still_be_in_hand_after_the_play():
    state = to_play(2, hands={0: ["P3*", "P3"]})
    refused_play(state, 0, "P3*", "P3", ollin="lay_aside", lay_aside="P3")
    refused_play(state, 0, "P3*", "P3", ollin="lay_aside")
    refused_play(state, 0, "P3*", "P3", ollin="others_draw", lay_aside="B1")


def test_three_or_more_cards_have_no_ollin_effect():
    state = to_play(2, hands={0: ["G5", "G5", "G5*", "B1"]})
    three = ("G5", "G5", "G5*")
    assert "no Ollin effect" in refused_play(state, 0, *three, ollin="others_draw")
    assert "no Ollin effect" in refused_play(state, 0, *three, ollin="lay_aside", lay_aside="B1")
    state, events = play(state, 0, "G5", "G5", "G5*")
    assert types(events) == ["played"]


def test_cards_without_an_ollin_symbol_have_no_effect():
    state = to_play(2, hands={0: ["G5"]})
    refused_play(state, 0, "G5", ollin="others_draw")


def test_the_ollin_effect_is_optional():
    state = to_play(2, hands={0: ["G5*"]})
    state, events = play(state, 0, "G5*", ollin="none")
    assert types(events) == ["played"] and len(state["hands"][1]) == 10


def test_a_play_that_empties_the_hand_ends_the_round_before_any_ollin_effect():
    state = with_hands(to_play(2), {0: ["G5*"]})
    assert "before any Ollin effect" in refused_play(state, 0, "G5*", ollin="others_draw")
    state, events = play(state, 0, "G5*")
    assert types(events) == ["played", "round_ended", "dealt"]
    assert len(events[1]["hands"][1]) == 10  # nobody drew


def test_laying_aside_the_last_card_ends_the_round():
    # the rulebook's example: Neus plays two green 3s, one with Ollin, and lays aside his last card
    state = with_hands(to_play(2), {0: ["G3", "G3*", "B4"]})
    state, events = play(state, 0, "G3", "G3*", ollin="lay_aside", lay_aside="B4")
    assert types(events)[:3] == ["played", "laid_aside", "round_ended"]
    assert events[2]["winner"] == 0 and events[2]["scores"][0] == 0


# --- the end of a round and minus points


def test_minus_points_count_the_highest_card_per_colour_and_jokers_as_a_fifth_colour():
    assert minus_points(["P2", "O2", "O5"]) == 7  # Adrian
    assert minus_points(["G3", "J3"]) == 6  # Neus
    assert minus_points(["B2", "B5", "B5*"]) == 5  # Cris
    assert minus_points(["B1", "G2", "P3", "O4", "J5", "J1"]) == 15
    assert minus_points([]) == 0


def test_the_round_ends_the_moment_a_hand_is_empty_and_the_others_score_their_hands():
    adrian, neus, cris = ["P2", "O2", "O5"], ["G3", "J3"], ["B2", "B5", "B5*"]
    state = with_hands(to_play(4), {0: ["B1"], 1: adrian, 2: neus, 3: cris})
    state, events = play(state, 0, "B1")
    assert types(events) == ["played", "round_ended", "dealt"]
    assert events[1] == {
        "type": "round_ended",
        "round": 1,
        "winner": 0,
        "hands": [[], adrian, neus, ["B2", "B5", "B5*"]],
        "scores": [0, -7, -6, -5],
        "totals": [0, -7, -6, -5],
        "rounds_won": [1, 0, 0, 0],
        "game_over": False,
    }
    assert state["round_scores"] == [[0, -7, -6, -5]]


def test_the_player_with_most_minus_points_starts_the_next_round():
    state = with_hands(to_play(4), {0: ["B1"], 1: ["P2", "O5"], 2: ["G3", "J3"], 3: ["B5"]})
    state, events = play(state, 0, "B1")
    assert events[-1]["starting_seat"] == 1
    assert alebrijes.to_act(state) == [1]


def test_a_tie_for_most_minus_points_goes_to_the_first_tied_player_clockwise_after_the_winner():
    assert next_starting_seat([-5, 0, -3, -5], 1) == 3
    assert next_starting_seat([-5, 0, -3, -5], 3) == 0
    # the winner themselves comes last among the tied
    assert next_starting_seat([-3, 0, 0, -3], 0) == 3
    state = with_hands(to_play(4), {0: ["B3"], 1: ["B1"], 2: ["B4"], 3: ["O4"]}, turn=2)
    state = {**state, "totals": [-2, 0, -1, -1]}
    state, events = play(state, 2, "B4")
    assert events[1]["totals"] == [-5, -1, -1, -5]
    assert events[-1]["starting_seat"] == 3


def test_every_round_begins_with_the_exchanges_again_from_its_starting_player():
    state = with_hands(to_play(3), {0: ["B1"], 1: ["B2"], 2: ["O5"]})
    state, _ = play(state, 0, "B1")
    assert state["round"] == 2 and state["phase"] == "exchange"
    order = []
    while state["phase"] == "exchange":
        order.append(state["turn"])
        state, _ = act(state, state["turn"], {"type": "exchange", "cards": []})
    assert order == [2, 0, 1]
    assert alebrijes.to_act(state) == [2]


# --- the end of the game


def test_the_game_ends_after_three_rounds_by_default():
    state = start(3)
    for round_ in (1, 2, 3):
        assert alebrijes.result(state) is None and state["round"] == round_
        state, events = finish_round(state)
    assert types(events)[-1] == "round_ended" and events[-1]["game_over"]
    assert state["phase"] == "over" and alebrijes.to_act(state) == []
    assert len(alebrijes.result(state)["round_scores"]) == 3


@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_the_rounds_option_sets_how_many_rounds_are_played(rounds):
    state = start(2, rounds=rounds)
    played = 0
    while alebrijes.result(state) is None:
        state, _ = finish_round(state)
        played += 1
    assert played == rounds


def test_the_fewest_minus_points_win_and_scores_are_negative():
    state = with_hands(to_play(3, rounds=1), {0: ["O2"], 1: ["B3"], 2: ["B1"]}, turn=2)
    state, events = play(state, 2, "B1")
    assert alebrijes.result(state) == {
        "winners": [2],
        "scores": [-2, -3, 0],
        "rounds_won": [0, 0, 1],
        "round_scores": [[-2, -3, 0]],
    }


def test_a_tie_on_minus_points_goes_to_most_rounds_won():
    assert winners([-10, -10, -12], [1, 2, 0]) == [1]
    state = with_hands(to_play(3, rounds=1), {0: ["B1"], 1: ["B4"], 2: ["G4"]})
    state = {**state, "totals": [-4, 0, 0], "rounds_won": [1, 0, 0]}
    state, _ = play(state, 0, "B1")
    assert alebrijes.result(state)["scores"] == [-4, -4, -4]
    assert alebrijes.result(state)["winners"] == [0]


def test_a_tie_on_minus_points_and_rounds_won_shares_the_victory():
    assert winners([-10, -10, -12], [1, 1, 1]) == [0, 1]
    state = with_hands(to_play(2, rounds=1), {0: ["B1"], 1: ["B3"]})
    state = {**state, "totals": [-3, 0], "rounds_won": [0, 1]}
    state, _ = play(state, 0, "B1")
    assert alebrijes.result(state)["winners"] == [0, 1]


def test_no_command_is_accepted_once_the_game_is_over():
    state = with_hands(to_play(2, rounds=1), {0: ["B1"]})
    state, _ = play(state, 0, "B1")
    assert alebrijes.to_act(state) == [] and alebrijes.legal(state, 1) == []
    assert alebrijes.timeout(state, 1) is None
    assert "over" in refused("illegal_move", state, 1, {"type": "pass"})


# --- the one-turn variant: every trick is one lap


def test_one_turn_each_player_acts_once_per_lap_then_the_last_to_play_leads():
    hands = {0: ["B1"], 1: ["B2"], 2: []}
    state = to_play(3, hands=hands, one_turn=True)
    state, _ = play(state, 0, "B1")
    state, _ = play(state, 1, "B2")
    state, events = pass_(state, 2)
    assert types(events) == ["passed", "table_cleared"]
    assert events[1] == {"type": "table_cleared", "leader": 1, "reason": "lap_over"}
    assert alebrijes.to_act(state) == [1] and state["table"] is None
    assert state["passed"] == [False, False, False]


def test_one_turn_a_lap_goes_on_after_all_but_one_passed_until_everyone_acted():
    state = to_play(4, hands={0: ["B1"], 3: ["B5"]}, one_turn=True)
    state, _ = play(state, 0, "B1")
    state, _ = pass_(state, 1)
    state, events = pass_(state, 2)
    assert types(events) == ["passed"]  # seat 3 has not had its turn yet
    assert alebrijes.to_act(state) == [3]
    state, events = play(state, 3, "B5")
    assert events[-1] == {"type": "table_cleared", "leader": 3, "reason": "lap_over"}


def test_one_turn_the_leader_leads_again_when_everyone_else_passed():
    state = to_play(3, hands={0: ["B1"]}, one_turn=True)
    state, _ = play(state, 0, "B1")
    state, _ = pass_(state, 1)
    state, events = pass_(state, 2)
    assert events[-1]["leader"] == 0 and alebrijes.to_act(state) == [0]


def test_one_turn_passing_still_allows_an_exchange():
    state = to_play(3, hands={0: ["B1"], 1: ["O1"]}, pile=["J5"], one_turn=True)
    state, _ = play(state, 0, "B1")
    state, (event,) = pass_(state, 1, "O1")
    assert event["drawn"] == ["J5"]


def test_one_turn_the_round_still_ends_only_when_a_hand_is_empty():
    state = to_play(2, hands={0: ["B1"], 1: ["B2"]}, one_turn=True)
    state, _ = play(state, 0, "B1")
    state, events = play(state, 1, "B2")
    assert types(events) == ["played", "table_cleared"] and state["round"] == 1
    state = with_hands(state, {1: ["O3"]})
    state, events = play(state, 1, "O3")
    assert types(events) == ["played", "round_ended", "dealt"]


# --- legal and timeout


def test_legal_lists_each_ollin_effect_and_each_card_that_could_be_laid_aside():
    state = with_hands(to_play(2), {0: ["B2", "B2*", "O1", "O1", "G3"]})
    plays = [c for c in alebrijes.legal(state, 0) if c["cards"] == ["B2", "B2*"]]
    assert plays == [
        {"type": "play", "cards": ["B2", "B2*"], "ollin": "none"},
        {"type": "play", "cards": ["B2", "B2*"], "ollin": "others_draw"},
        {"type": "play", "cards": ["B2", "B2*"], "ollin": "lay_aside", "lay_aside": "G3"},
        {"type": "play", "cards": ["B2", "B2*"], "ollin": "lay_aside", "lay_aside": "O1"},
    ]


def test_legal_lists_each_distinct_exchange_once():
    state = start(2, hands={0: ["B1", "B1", "B1*", "J1", "J1", "J1", "J1", "J2", "J2", "J2"]})
    exchanges = [command["cards"] for command in alebrijes.legal(state, 0)]
    assert exchanges == [
        [],
        ["B1"],
        ["B1*"],
        ["J1"],
        ["J2"],
        ["B1", "B1"],
        ["B1", "B1*"],
        ["B1", "J1"],
        ["B1", "J2"],
        ["B1*", "J1"],
        ["B1*", "J2"],
        ["J1", "J1"],
        ["J1", "J2"],
        ["J2", "J2"],
    ]


def test_legal_lists_a_joker_only_play_once_per_colour_it_could_name():
    state = with_hands(to_play(2), {0: ["J4"]})
    assert alebrijes.legal(state, 0) == [
        {"type": "play", "cards": ["J4"], "colour": colour, "ollin": "none"} for colour in "BGPO"
    ]


def test_legal_commands_are_all_accepted():
    state = to_play(3, hands={0: ["B2", "B2*", "J2", "O3*", "G1"]})
    for command in alebrijes.legal(state, 0):
        alebrijes.decide(state, 0, command)


def test_timeout_exchanges_nothing_at_the_start_of_a_round():
    assert alebrijes.timeout(start(2), 0) == {"type": "exchange", "cards": []}


def test_timeout_passes_without_an_exchange_when_facing_a_combination():
    state, _ = play(to_play(2, hands={0: ["B1"]}), 0, "B1")
    assert alebrijes.timeout(state, 1) == {"type": "pass", "exchange": []}
    assert alebrijes.timeout(state, 0) is None


def test_timeout_leads_the_lowest_single_card_without_ollin_effect():
    state = with_hands(to_play(2), {0: ["O3", "G1*", "P1", "B2"]})
    assert alebrijes.timeout(state, 0) == {"type": "play", "cards": ["G1*"], "ollin": "none"}
    state = with_hands(state, {0: ["O3", "J1"]})
    command = alebrijes.timeout(state, 0)
    assert command == {"type": "play", "cards": ["J1"], "colour": "B", "ollin": "none"}
    act(state, 0, command)
