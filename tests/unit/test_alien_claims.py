"""Alien: CAPTURED! by sum or difference, from any seat at any moment, and the stacking
window that follows."""

import pytest

from shared.games import alien
from shared.games.alien.scenarios import apply, new_game, run, started
from shared.games.base import RuleError

# On C15 the sum is 6 (seat 1 holds A6) and the difference 4 (seat 2 holds A4).
HANDS = [
    ["C12", "C38", "A5", "H1", "C57"],
    ["A6", "A7", "C02", "C03", "C04"],
    ["A4", "A9", "C06", "C07", "C08"],
]
SUM = {"type": "claim", "card": "A6", "table": "C15"}
DIFFERENCE = {"type": "claim", "card": "A4", "table": "C15"}
STACK = {"type": "stack"}


def game(hands=HANDS, table="C15", **options):
    return started(hands, table, **options)


def refused(code, state, seat, command):
    with pytest.raises(RuleError) as caught:
        alien.decide(state, seat, command)
    assert caught.value.code == code, caught.value.message
    return caught.value


# The claim


def test_a_claim_by_the_sum_of_the_table_card_captures_the_alien():
    state, events = apply(game(), 1, SUM)
    assert events == [{"type": "claimed", "seat": 1, "card": "A6", "table": "C15"}]
    assert state["prisons"][1] == ["A6"]
    assert "A6" not in state["hands"][1]


def test_a_claim_by_the_difference_of_the_table_card_captures_the_alien():
    state = run(game(), (2, DIFFERENCE))
    assert state["prisons"][2] == ["A4"]


def test_any_seat_may_claim_even_out_of_turn():
    state = game()
    assert alien.to_act(state) == [0]
    assert alien.legal(state, 1) == [SUM]
    assert alien.legal(state, 2) == [DIFFERENCE]


def test_the_player_whose_turn_it_is_may_claim_too():
    hands = [["A6", "C38", "A5", "H1", "C57"], ["C12", "A7", "C02", "C03", "C04"], HANDS[2]]
    state = run(game(hands), (0, SUM))
    assert state["prisons"][0] == ["A6"]
    assert state["window"]["claimant"] == 0


def test_a_claim_is_listed_in_legal_only_while_it_would_win():
    state = game()
    assert not [c for c in alien.legal(state, 0) if c["type"] == "claim"]
    state = run(state, (0, {"type": "play", "card": "C12"}))  # 1+2 = 3, 2-1 = 1: nobody
    assert all(c["type"] != "claim" for seat in range(3) for c in alien.legal(state, seat))


def test_only_the_first_valid_claim_on_a_table_card_wins():
    state = run(game(), (1, SUM))
    error = refused("illegal_move", state, 2, DIFFERENCE)
    assert "already" in error.message
    state = run(state, (0, STACK), (2, STACK))
    refused("illegal_move", state, 2, DIFFERENCE)


def test_a_claim_on_a_table_card_that_has_changed_is_refused_as_stale_without_penalty():
    state = run(game(), (0, {"type": "play", "card": "C12"}))
    error = refused("illegal_move", state, 1, SUM)
    assert "stale" in error.message


def test_a_wrong_claim_costs_a_random_card_taken_by_the_player_whose_turn_it_is():
    wrong = {"type": "claim", "card": "A7", "table": "C15"}
    state, events = apply(game(), 1, wrong)
    taken = events[0]["taken"]
    assert events == [
        {"type": "wrong_claim", "seat": 1, "card": "A7", "table": "C15", "taker": 0, "taken": taken}
    ]
    assert taken in HANDS[1] and taken in state["hands"][0]
    assert len(state["hands"][1]) == 4 and state["prisons"][1] == []
    assert state["window"] is None and not state["table_claimed"]


@pytest.mark.parametrize("window_open", [True, False])
def test_ruling_a_wrong_claim_costs_a_card_even_after_the_table_card_was_captured(window_open):
    state = run(game(), (1, SUM))
    if not window_open:
        state = run(state, (0, STACK), (2, STACK))
    before = alien.view(state, None)
    wrong = {"type": "claim", "card": "A9", "table": "C15"}  # 9: neither 6 nor 4
    state, events = apply(state, 2, wrong)
    taken = events[0]["taken"]
    assert events == [{**wrong, "type": "wrong_claim", "seat": 2, "taker": 0, "taken": taken}]
    counts = before["hand_counts"]
    assert alien.view(state, None)["hand_counts"] == [counts[0] + 1, counts[1], counts[2] - 1]
    assert state["prisons"] == [[], ["A6"], []]
    assert (state["window"] is not None) == window_open
    # A claim of the sum or the difference is still refused, and costs nothing, even by a
    # seat that does not hold that alien (A6 is in seat 1's prison).
    for claim in (DIFFERENCE, SUM):
        assert "already" in refused("illegal_move", state, 2, claim).message


def test_claiming_a_card_you_do_not_hold_is_a_wrong_claim():
    state, events = apply(game(), 2, SUM)
    assert events[0]["type"] == "wrong_claim"
    assert len(state["hands"][2]) == 4 and state["prisons"] == [[], [], []]


def test_a_wrong_claim_by_the_player_whose_turn_it_is_costs_nothing():
    state, events = apply(game(), 0, SUM)
    assert events[0]["type"] == "wrong_claim"
    assert events[0]["taker"] is None and events[0]["taken"] is None
    assert state["hands"] == HANDS


def test_a_wrong_claim_leaves_the_table_card_open_to_a_right_one():
    state = run(game(), (2, SUM))
    state = run(state, (1, SUM))
    assert state["prisons"][1] == ["A6"]


def test_a_capture_by_matching_does_not_use_up_the_table_cards_claim():
    state = run(game(), (0, {"type": "capture", "card": "A5"}), (1, SUM))
    assert state["prisons"] == [["A5"], ["A6"], []]


def test_no_math_turns_off_sum_and_difference_captures():
    state = game(no_math=True)
    error = refused("illegal_move", state, 1, SUM)
    assert "no_math" in error.message
    assert alien.legal(state, 1) == []


def test_a_claim_that_brings_the_fourth_alien_wins_at_once_without_a_window():
    hands = [["A0", "A1", "C13", "A3", "A4"], HANDS[1], ["C23", "A9", "C06", "C07", "C08"]]
    state = started(hands, "C01")
    state = run(
        state, (0, {"type": "capture", "card": "A0"}), (0, {"type": "capture", "card": "A1"})
    )
    state = run(state, (0, {"type": "play", "card": "C13"}), (0, {"type": "capture", "card": "A3"}))
    state, events = apply(state, 0, {"type": "claim", "card": "A4", "table": "C13"})
    assert [e["type"] for e in events] == ["claimed"]
    assert state["window"] is None
    assert alien.result(state)["winners"] == [0]
    assert alien.to_act(state) == []


def test_claims_before_the_start_are_not_your_turn():
    refused("not_your_turn", new_game(3), 1, SUM)


@pytest.mark.parametrize(
    "command",
    [
        {"type": "claim", "card": "A6"},
        {"type": "claim", "card": "C15", "table": "C15"},
        {"type": "claim", "card": "A6", "table": "A6"},
        {"type": "claim", "card": "A10", "table": "C15"},
        {"type": "claim", "card": "A6", "table": "C51"},
    ],
)
def test_malformed_claims_are_bad_commands(command):
    refused("bad_command", game(), 1, command)


# The stacking window


def test_a_valid_claim_opens_the_stacking_window_for_every_other_player():
    state = run(game(), (1, SUM))
    window = {"number": 1, "claimant": 1, "alien": "A6", "table": "C15", "stacked": []}
    assert state["window"] == window
    assert alien.to_act(state) == [0, 2]
    assert alien.legal(state, 0) == [STACK] and alien.legal(state, 2) == [STACK]
    assert alien.legal(state, 1) == []


def test_play_is_suspended_while_the_window_is_open():
    state = run(game(), (1, SUM))
    refused("not_your_turn", state, 0, {"type": "play", "card": "C12"})
    refused("not_your_turn", state, 0, {"type": "pass"})


def test_to_act_is_the_seats_that_still_must_stack():
    state = run(game(), (1, SUM), (2, STACK))
    assert state["window"]["stacked"] == [2]
    assert alien.to_act(state) == [0]


def test_the_last_to_stack_gives_the_claimant_a_random_card():
    state = run(game(), (1, SUM), (2, STACK))
    state, events = apply(state, 0, STACK)
    card = events[1]["card"]
    assert events == [
        {"type": "stacked", "seat": 0},
        {"type": "handed_over", "seat": 0, "to": 1, "card": card},
        {"type": "window_closed", "late": []},
    ]
    assert card in HANDS[0] and card in state["hands"][1]
    assert len(state["hands"][0]) == 4 and len(state["hands"][2]) == 5


def test_the_player_whose_turn_it_is_continues_after_the_window():
    state = run(game(), (1, SUM), (2, STACK), (0, STACK))
    assert state["window"] is None
    assert state["turn"] == 0 and alien.to_act(state) == [0]
    assert {"type": "pass"} in alien.legal(state, 0)


def test_stacking_twice_by_the_claimant_or_with_no_window_is_refused():
    state = run(game(), (1, SUM), (2, STACK))
    refused("not_your_turn", state, 2, STACK)
    refused("not_your_turn", state, 1, STACK)
    refused("not_your_turn", game(), 0, STACK)


def test_when_the_window_closes_on_time_each_player_who_has_not_stacked_gives_a_card():
    state = run(game(), (1, SUM))
    state, events = apply(state, None, {"type": "close_window"})
    assert [e["type"] for e in events] == ["handed_over", "handed_over", "window_closed"]
    assert [(e["seat"], e["to"]) for e in events[:2]] == [(0, 1), (2, 1)]
    assert events[2] == {"type": "window_closed", "late": [0, 2]}
    assert len(state["hands"][1]) == 6 and state["window"] is None


def test_closing_the_window_after_some_stacked_charges_only_the_late():
    state = run(game(), (1, SUM), (2, STACK))
    state, events = apply(state, None, {"type": "close_window"})
    assert [e["seat"] for e in events if e["type"] == "handed_over"] == [0]


def test_closing_with_no_window_open_is_refused():
    refused("illegal_move", game(), None, {"type": "close_window"})


def test_the_timeout_in_a_window_is_stack():
    state = run(game(), (1, SUM))
    assert alien.timeout(state, 0) == STACK
    assert alien.timeout(state, 2) == STACK
    assert alien.timeout(state, 1) is None


def test_a_player_with_no_cards_who_stacks_last_gives_nothing():
    state = run(game(), (1, SUM))
    for card in list(state["hands"][2]):
        event = {"type": "handed_over", "seat": 2, "to": 0, "card": card}
        state = alien.evolve(state, event)
    state = run(state, (0, STACK))
    state, events = apply(state, 2, STACK)
    assert [e["type"] for e in events] == ["stacked", "window_closed"]


def test_an_open_window_closes_on_the_tables_timer_after_stack_seconds():
    state = run(game(), (1, SUM))
    assert alien.table_timers(state) == [
        {"key": "window-1", "seconds": 5, "command": {"type": "close_window"}}
    ]
    closed = run(state, (None, {"type": "close_window"}))
    assert alien.table_timers(closed) == []


def test_the_bots_reflexes_are_the_claim_and_the_stack():
    assert alien.REFLEXES == ("claim", "stack")
