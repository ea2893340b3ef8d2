"""Tiny's rules (tests/games/tiny), checked directly: the test game is a real game with
real hidden information, before the API serves it (tests/e2e/test_a_fifth_game.py)."""

import pytest

from shared.games.base import RuleError
from tests.games import tiny


def dealt(deck=("2", "5", "1", "3", "4"), **options):
    state = tiny.initial({"players": 2, "seed": "7", "deck": list(deck), "options": options})
    for event in tiny.decide(state, None, {"type": "start"}):
        state = tiny.evolve(state, event)
    return state


def play(state, seat, command):
    events = tiny.decide(state, seat, command)
    for event in events:
        state = tiny.evolve(state, event)
    return state, events


def test_the_deal_gives_one_card_each_and_the_rest_is_the_pile():
    state = dealt()
    assert state["hands"] == ["2", "5"] and state["pile"] == ["1", "3", "4"]
    assert tiny.to_act(state) == [0] and tiny.legal(state, 1) == []
    assert tiny.legal(state, 0) == [{"type": "keep"}, {"type": "swap"}]


def test_a_seed_shuffles_the_same_way_every_time():
    config = {"players": 2, "seed": "s", "deck": None, "options": {}}
    first = tiny.decide(tiny.initial(config), None, {"type": "start"})
    assert first == tiny.decide(tiny.initial(config), None, {"type": "start"})
    assert sorted(first[0]["hands"] + first[0]["pile"]) == tiny.CARDS


def test_a_swap_discards_face_up_and_draws_the_top_card_then_the_higher_card_wins():
    state, _ = play(dealt(), 0, {"type": "swap"})
    assert state["hands"][0] == "1" and state["discards"] == ["2"] and state["pile"] == ["3", "4"]
    state, events = play(state, 1, {"type": "keep"})
    assert events[-1] == {"type": "shown", "hands": ["1", "5"], "winner": 1}
    assert tiny.result(state) == {"winners": [1], "scores": [1, 5]}
    assert tiny.to_act(state) == [] and state["phase"] == "over"


def test_with_low_wins_the_lower_card_wins():
    state, _ = play(dealt(low_wins=True), 0, {"type": "keep"})
    state, events = play(state, 1, {"type": "keep"})
    assert events[-1]["winner"] == 0 and tiny.result(state)["winners"] == [0]


def test_a_seat_sees_its_own_card_only_until_the_cards_are_shown():
    state = dealt()
    assert tiny.view(state, 0)["hand"] == "2" and tiny.view(state, 0)["hands"] is None
    assert tiny.view(state, 1)["hand"] == "5" and tiny.view(state, None)["hand"] is None
    (deal,) = tiny.decide(
        tiny.initial({"players": 2, "seed": "7", "options": {}}), None, {"type": "start"}
    )
    assert tiny.redact(deal, 0)["hands"][1] is None and tiny.redact(deal, 0)["pile"] is None
    state, (swapped,) = play(state, 0, {"type": "swap"})
    assert tiny.redact(swapped, 1)["card"] is None and tiny.redact(swapped, 0)["card"] == "1"
    assert tiny.redact(swapped, 1)["discarded"] == "2"  # face up
    state, _ = play(state, 1, {"type": "swap"})
    assert tiny.view(state, 0)["hands"] == ["1", "3"]


@pytest.mark.parametrize(
    ("seat", "command", "code"),
    [
        (1, {"type": "keep"}, "not_your_turn"),
        (0, {"type": "fold"}, "bad_command"),
        (0, {"type": "keep", "card": "1"}, "bad_command"),
        (2, {"type": "keep"}, "not_your_turn"),
        (None, {"type": "start"}, "illegal_move"),
    ],
)
def test_refusals_have_stable_codes(seat, command, code):
    with pytest.raises(RuleError) as refused:
        tiny.decide(dealt(), seat, command)
    assert refused.value.code == code


def test_options_and_decks_are_checked():
    with pytest.raises(RuleError, match="2 to 2 players"):
        tiny.configure(3, {})
    with pytest.raises(RuleError, match="the options are low_wins"):
        tiny.configure(2, {"rounds": 2})
    with pytest.raises(RuleError, match="true or false"):
        tiny.configure(2, {"low_wins": "yes"})
    with pytest.raises(RuleError, match="cards 1 to 5"):
        tiny.check_deck(["1", "1", "2", "3", "4"])


@pytest.mark.parametrize(
    "moves", [("keep", "keep"), ("keep", "swap"), ("swap", "keep"), ("swap", "swap")]
)
def test_the_contract_declares_every_view_command_and_event_the_rules_make(moves):
    from tests.games.tiny import contract

    state = tiny.initial({"players": 2, "seed": "c", "options": {}})
    events = tiny.decide(state, None, {"type": "start"})
    for event in events:
        state = tiny.evolve(state, event)
    for seat, kind in enumerate(moves):
        for who in (0, 1, None):
            assert contract.STATE().validate(tiny.view(state, who)) == {}
            for command in tiny.legal(state, who):
                assert contract.COMMANDS[command["type"]]().load(command) == command
        state, made = play(state, seat, {"type": kind})
        events += made
    assert contract.STATE().validate(tiny.view(state, None)) == {}
    for event in events:
        for who in (0, 1, None):
            seen = {**tiny.redact(event, who), "version": 1, "at": 0}
            assert contract.EVENTS[event["type"]]().validate(seen) == {}, seen
