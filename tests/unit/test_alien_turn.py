"""Alien: a turn. PLAY (clue cards, capture by matching, bounty hunters, the empty-hand
take) then end the turn and draw, or PASS; the draw pile and the win."""

import pytest

from shared.games import alien
from shared.games.alien.scenarios import apply, replay, run, started
from shared.games.base import RuleError

# Seat 0 may lay C38 on C35 and then C48 on C38; C48 does not fit C35.
HANDS = [
    ["C38", "C48", "A3", "H1", "H2"],
    ["C01", "C02", "A5", "A7", "C12"],
]
PILE = ["C46", "C57", "C68", "C79", "C09"]


def game(hands=HANDS, table="C35", pile=PILE, **options):
    return started(hands, table, pile, **options)


def refused(code, state, seat, command):
    with pytest.raises(RuleError) as caught:
        alien.decide(state, seat, command)
    assert caught.value.code == code, caught.value.message
    return caught.value


def give(state, giver, to, cards):
    """Handmade events: `giver` hands `cards` to `to` (to arrange a situation)."""
    for card in cards:
        state = alien.evolve(state, {"type": "handed_over", "seat": giver, "to": to, "card": card})
    return state


def cards_in(state):
    zones = state["hands"] + state["prisons"] + [state["draw_pile"], state["played"]]
    return sorted(sum(zones, [state["table"]]) + state["hunters"])


PLAY = {"type": "play", "card": "C38"}
PASS = {"type": "pass"}
END = {"type": "end_turn"}


# PLAY: clue cards


def test_a_clue_card_sharing_an_alien_with_the_table_card_becomes_the_table_card():
    state, events = apply(game(), 0, PLAY)
    assert events == [{"type": "played", "seat": 0, "card": "C38"}]
    assert state["table"] == "C38"
    assert state["played"] == ["C35"]  # the old table card lies under the new one


def test_several_cards_may_be_played_one_on_top_of_the_other():
    state = run(game(), (0, PLAY), (0, {"type": "play", "card": "C48"}))
    assert state["table"] == "C48"
    assert state["played"] == ["C35", "C38"]


def test_a_clue_card_sharing_no_alien_with_the_table_card_is_refused():
    error = refused("illegal_move", game(), 0, {"type": "play", "card": "C48"})
    assert "C35" in error.message


def test_a_card_you_do_not_hold_cannot_be_played():
    refused("illegal_move", game(), 0, {"type": "play", "card": "C56"})


def test_only_the_player_whose_turn_it_is_may_play():
    refused("not_your_turn", game(), 1, {"type": "play", "card": "C01"})


# PLAY: capture by matching


def test_a_captured_card_whose_alien_is_on_the_table_card_captures_it():
    state, events = apply(game(), 0, {"type": "capture", "card": "A3"})
    assert events == [{"type": "captured", "seat": 0, "card": "A3"}]
    assert state["prisons"][0] == ["A3"]
    assert "A3" not in state["hands"][0]


def test_play_continues_with_the_same_table_card_after_a_capture():
    state = run(game(), (0, {"type": "capture", "card": "A3"}))
    assert state["table"] == "C35"
    assert {"type": "play", "card": "C38"} in alien.legal(state, 0)


def test_capturing_an_alien_not_on_the_table_card_is_refused():
    state = run(game(), (0, PLAY), (0, {"type": "play", "card": "C48"}))
    refused("illegal_move", state, 0, {"type": "capture", "card": "A3"})


# Ending the turn and passing


def test_end_turn_draws_up_to_five_cards_and_passes_the_turn_to_the_left():
    state = run(game(), (0, PLAY), (0, {"type": "capture", "card": "A3"}))
    state, events = apply(state, 0, END)
    assert [e["type"] for e in events] == ["ended_turn", "drew", "turn_began"]
    assert events[1] == {"type": "drew", "seat": 0, "cards": ["C46", "C57"]}
    assert len(state["hands"][0]) == 5
    assert state["turn"] == 1 and alien.to_act(state) == [1]


def test_end_turn_needs_something_played_first():
    refused("illegal_move", game(), 0, END)


def test_end_turn_with_five_or_more_cards_draws_nothing():
    state = run(game(), (0, {"type": "hunt", "card": "H1", "target": 1}))
    state, events = apply(state, 0, END)
    assert [e["type"] for e in events] == ["ended_turn", "turn_began"]


def test_pass_with_five_cards_draws_one_card():
    state, events = apply(game(), 0, PASS)
    assert events == [
        {"type": "passed", "seat": 0},
        {"type": "drew", "seat": 0, "cards": ["C46"]},
        {"type": "turn_began", "seat": 1},
    ]
    assert len(state["hands"][0]) == 6


def test_pass_with_fewer_than_five_cards_draws_up_to_five():
    state = run(game(), (0, PASS))
    state = give(state, 1, 0, ["C01", "C02"])
    state, events = apply(state, 1, PASS)
    assert events[1] == {"type": "drew", "seat": 1, "cards": ["C57", "C68"]}
    assert len(state["hands"][1]) == 5


def test_pass_is_refused_once_you_have_played():
    refused("illegal_move", run(game(), (0, PLAY)), 0, PASS)


def test_the_turn_goes_clockwise_and_round_the_table():
    hands = [HANDS[0], HANDS[1], ["C13", "C14", "C15", "C16", "C17"]]
    state = run(game(hands), (0, PASS), (1, PASS))
    assert state["turn"] == 2
    assert run(state, (2, PASS))["turn"] == 0


def test_the_timeout_of_a_turn_is_pass_or_end_turn_once_played():
    state = game()
    assert alien.timeout(state, 0) == PASS
    assert alien.timeout(run(state, (0, PLAY)), 0) == END
    assert alien.timeout(state, 1) is None


# Bounty hunters


def test_h1_takes_a_random_card_from_the_chosen_players_hand():
    state, events = apply(game(), 0, {"type": "hunt", "card": "H1", "target": 1})
    taken = events[0]["taken"]
    assert events == [
        {"type": "hunted", "seat": 0, "card": "H1", "target": 1, "alien": None, "taken": taken}
    ]
    assert taken in HANDS[1]
    assert taken in state["hands"][0] and taken not in state["hands"][1]
    assert state["hunters"] == ["H1"]


def test_the_card_h1_takes_comes_from_the_seed():
    takes = [
        apply(game(seed=seed), 0, {"type": "hunt", "card": "H1", "target": 1})[1][0]["taken"]
        for seed in ("a", "a", "b", "c", "d", "e")
    ]
    assert takes[0] == takes[1]
    assert len(set(takes)) > 1


def test_h1_needs_a_player_with_cards_in_hand():
    state = give(game(), 1, 0, HANDS[1])
    refused("illegal_move", state, 0, {"type": "hunt", "card": "H1", "target": 1})


def test_a_bounty_hunter_cannot_target_yourself():
    state = captured_by_seat_1()
    refused("illegal_move", state, 0, {"type": "hunt", "card": "H1", "target": 0})
    state = run(state, (0, {"type": "capture", "card": "A3"}))
    refused("illegal_move", state, 0, {"type": "hunt", "card": "H2", "target": 0, "alien": 3})


def test_bounty_hunters_are_used_only_on_your_turn():
    refused("not_your_turn", game(), 1, {"type": "hunt", "card": "H1", "target": 0})


def captured_by_seat_1(hands=HANDS):
    """Seat 0 passes, seat 1 captures A5 on C35 and ends the turn: seat 0 to play."""
    return run(game(hands), (0, PASS), (1, {"type": "capture", "card": "A5"}), (1, END))


def test_h2_brings_an_alien_from_a_prison_into_your_hand():
    state, events = apply(
        captured_by_seat_1(), 0, {"type": "hunt", "card": "H2", "target": 1, "alien": 5}
    )
    assert events[0]["alien"] == 5 and events[0]["taken"] is None
    assert state["prisons"][1] == []
    assert "A5" in state["hands"][0]


def test_an_alien_brought_by_h2_must_still_be_captured():
    state = run(captured_by_seat_1(), (0, {"type": "hunt", "card": "H2", "target": 1, "alien": 5}))
    assert state["prisons"][0] == []
    state = run(state, (0, {"type": "capture", "card": "A5"}))
    assert state["prisons"][0] == ["A5"]


def test_h3_moves_an_alien_from_a_prison_straight_into_yours():
    hands = [["C38", "C48", "A3", "H3", "H2"], HANDS[1]]
    state = run(
        captured_by_seat_1(hands), (0, {"type": "hunt", "card": "H3", "target": 1, "alien": 5})
    )
    assert state["prisons"] == [["A5"], []]


def test_hunting_an_alien_that_is_not_in_that_prison_is_refused():
    state = captured_by_seat_1()
    refused("illegal_move", state, 0, {"type": "hunt", "card": "H2", "target": 1, "alien": 7})


def test_used_bounty_hunters_go_to_their_own_pile():
    state = run(game(), (0, {"type": "hunt", "card": "H1", "target": 1}))
    assert state["hunters"] == ["H1"] and state["played"] == []


# Alien 0


def zero_in_prison_of_seat_1():
    hands = [["C38", "C48", "A3", "H3", "H2"], ["A0", "C02", "A5", "A7", "C12"]]
    state = run(game(hands, table="C05"), (0, PASS), (1, {"type": "capture", "card": "A0"}))
    return run(state, (1, {"type": "capture", "card": "A5"}), (1, END))


@pytest.mark.parametrize("hunter", ["H2", "H3"])
def test_alien_0_once_in_a_prison_cannot_be_hunted(hunter):
    state = zero_in_prison_of_seat_1()
    refused("illegal_move", state, 0, {"type": "hunt", "card": hunter, "target": 1, "alien": 0})
    hunts = [c for c in alien.legal(state, 0) if c["type"] == "hunt"]
    assert hunts and all(c["alien"] == 5 for c in hunts)


# The empty-hand take

TAKER = [["C12", "C23", "C34", "C45", "A5"], ["A1", "A0", "C02", "A7", "C13"]]


def emptied_hand(hands=TAKER):
    """Seat 0 passes (draws C56), seat 1 jails A1 and A0; seat 0 then plays all 6 cards."""
    state = started(hands, "C01", ["C56"])
    state = run(state, (0, PASS), (1, {"type": "capture", "card": "A1"}))
    state = run(state, (1, {"type": "capture", "card": "A0"}), (1, END))
    for card in ["C12", "C23", "C34", "C45", "C56"]:
        state = run(state, (0, {"type": "play", "card": card}))
    return run(state, (0, {"type": "capture", "card": "A5"}))


def test_emptying_your_hand_lets_you_take_an_alien_from_any_prison_into_yours():
    state = emptied_hand()
    assert state["hands"][0] == [] and state["began_with"] == 6
    assert alien.legal(state, 0)[0] == {"type": "take", "target": 1, "alien": 1}
    state, events = apply(state, 0, {"type": "take", "target": 1, "alien": 1})
    assert events == [{"type": "took_alien", "seat": 0, "target": 1, "alien": 1}]
    assert state["prisons"] == [["A5", "A1"], ["A0"]]


def test_the_empty_hand_take_is_allowed_once_per_turn():
    state = emptied_hand()
    state = run(state, (0, {"type": "take", "target": 1, "alien": 1}))
    refused("illegal_move", state, 0, {"type": "take", "target": 1, "alien": 1})


def test_alien_0_cannot_be_taken_with_an_empty_hand():
    refused("illegal_move", emptied_hand(), 0, {"type": "take", "target": 1, "alien": 0})


def test_taking_needs_an_empty_hand():
    state = captured_by_seat_1()
    refused("illegal_move", state, 0, {"type": "take", "target": 1, "alien": 5})


def test_taking_needs_a_turn_begun_with_four_or_more_cards():
    state = started([["C12", "C23", "C34", "C45", "C56"], TAKER[1]], "C01", ["C03"])
    state = run(state, (0, PASS), (1, {"type": "capture", "card": "A1"}))
    state = give(state, 0, 1, ["C34", "C45", "C56"])  # seat 0 keeps C12, C23 and C03
    state = run(state, (1, END))
    assert state["began_with"] == 3
    for card in list(state["hands"][0]):
        state = run(state, (0, {"type": "play", "card": card}))
    assert state["hands"][0] == []
    error = refused("illegal_move", state, 0, {"type": "take", "target": 1, "alien": 1})
    assert "3 cards" in error.message
    assert all(c["type"] != "take" for c in alien.legal(state, 0))


# The draw pile


def nearly_empty_pile(state, left):
    """Handmade draws by seat 1 leave `left` cards in the draw pile."""
    cards = state["draw_pile"][: len(state["draw_pile"]) - left]
    return alien.evolve(state, {"type": "drew", "seat": 1, "cards": cards})


def test_an_empty_draw_pile_is_rebuilt_from_the_played_cards_and_used_hunters():
    state = nearly_empty_pile(game(), 1)
    state = run(state, (0, PLAY), (0, {"type": "play", "card": "C48"}))
    state = run(state, (0, {"type": "hunt", "card": "H1", "target": 1}))
    state, events = apply(state, 0, END)
    kinds = [e["type"] for e in events]
    assert kinds == ["ended_turn", "drew", "reshuffled", "drew", "turn_began"]
    rebuilt = events[2]["draw_pile"]
    assert sorted(rebuilt) == ["C35", "C38", "H1"]
    assert events[3]["cards"] == rebuilt[:1]
    assert state["draw_pile"] == rebuilt[1:]
    assert state["table"] == "C48"  # the table card stays
    assert state["played"] == [] and state["hunters"] == []
    assert len(state["hands"][0]) == 5


def test_the_rebuilt_draw_pile_is_shuffled_from_the_seed():
    orders = set()
    for seed in "abcdef":
        state = nearly_empty_pile(game(seed=seed), 0)
        state = run(state, (0, PLAY), (0, {"type": "play", "card": "C48"}))
        state = run(state, (0, {"type": "hunt", "card": "H1", "target": 1}))
        events = alien.decide(state, 0, END)
        orders.add(next(tuple(e["draw_pile"]) for e in events if e["type"] == "reshuffled"))
    assert len(orders) > 1


def test_drawing_stops_when_there_is_nothing_to_shuffle():
    state, events = apply(nearly_empty_pile(game(), 0), 0, PASS)
    assert [e["type"] for e in events] == ["passed", "turn_began"]
    assert len(state["hands"][0]) == 5


# The win


def test_the_game_ends_the_moment_a_prison_holds_four_aliens():
    hands = [["A0", "A1", "A2", "C12", "A3"], ["C45", "C46", "C47", "C48", "C49"]]
    state = run(started(hands, "C01", ["C23"]), (0, PASS), (1, PASS))
    for command in ["A0", "A1", ("C12",), "A2", ("C23",)]:
        kind = "play" if isinstance(command, tuple) else "capture"
        card = command[0] if isinstance(command, tuple) else command
        state = run(state, (0, {"type": kind, "card": card}))
    assert alien.result(state) is None
    state, events = apply(state, 0, {"type": "capture", "card": "A3"})
    assert events == [{"type": "captured", "seat": 0, "card": "A3"}]
    assert state["phase"] == "over" and state["winner"] == 0
    assert alien.result(state) == {
        "winners": [0],
        "scores": [4, 0],
        "prisons": [["A0", "A1", "A2", "A3"], []],
    }
    assert alien.to_act(state) == [] and alien.legal(state, 0) == []
    assert alien.timeout(state, 0) is None
    refused("not_your_turn", state, 0, END)


def test_every_move_keeps_all_70_cards():
    state = emptied_hand()
    assert cards_in(state) == sorted(alien.CARDS)
    assert cards_in(replay(state, [])) == sorted(alien.CARDS)


# Malformed commands


@pytest.mark.parametrize(
    "command",
    [
        None,
        "pass",
        {"type": "dance"},
        {"type": "play"},
        {"type": "play", "card": "C83"},
        {"type": "play", "card": "A3"},
        {"type": "play", "card": ["C38"]},
        {"type": "capture", "card": "C38"},
        {"type": "pass", "card": "C38"},
        {"type": "hunt", "card": "H1"},
        {"type": "hunt", "card": "H1", "target": 1, "alien": 5},
        {"type": "hunt", "card": "H2", "target": 1},
        {"type": "hunt", "card": "C38", "target": 1, "alien": 5},
        {"type": "hunt", "card": "H1", "target": 2},
        {"type": "hunt", "card": "H1", "target": "1"},
        {"type": "hunt", "card": "H1", "target": True},
        {"type": "take", "target": 1, "alien": 10},
        {"type": "take", "target": 1},
    ],
)
def test_malformed_commands_are_bad_commands(command):
    refused("bad_command", game(), 0, command)


def test_a_seat_that_does_not_exist_may_not_act():
    # The same code in every game (tests/unit/test_seats_and_seeds.py).
    refused("not_your_turn", game(), 2, PASS)
