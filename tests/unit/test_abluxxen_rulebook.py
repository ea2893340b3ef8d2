"""Abluxxen under the rulebook's rules (the default): one test per rule and ruling."""

from test_abluxxen_support import (
    GIVE_UP,
    STOP,
    TAKE_BACK,
    act,
    attack,
    draw,
    padded,
    play,
    refused,
    run,
    table,
    types,
)

from shared.games import abluxxen


def three_rows():
    """Seat 1 lies 7 7 in front, seat 2 lies 6 6; seat 0 has played 1 and is to play."""
    state = table(
        [padded("1", "7", "7"), padded("7", "7"), padded("6", "6")],
        display=["2", "3", "4", "5", "8", "9"],
        draw_pile=["10", "11", "12", "10", "11", "12"],
    )
    state, _ = run(state, (0, play("1")), (1, play("7", "7")), (2, play("6", "6")))
    return state


# Rows


def test_a_row_is_one_or_more_cards_of_one_number():
    state = table([padded("4", "4", "4"), padded()])
    state, events = act(state, 0, play("4", "4", "4"))
    assert events[0] == {
        "type": "played",
        "seat": 0,
        "cards": ["4", "4", "4"],
        "value": 4,
        "targets": [],
    }
    assert state["top_rows"][0] == ["4", "4", "4"]
    assert state["hands"][0].count("4") == 0


def test_a_row_of_two_numbers_is_refused():
    state = table([padded("4", "5"), padded()])
    assert refused(state, 0, play("4", "5")) == "illegal_move"


def test_an_empty_row_is_refused():
    assert refused(table([padded(), padded()]), 0, play()) == "illegal_move"


def test_only_cards_in_hand_may_be_played():
    state = table([padded("4"), padded()])
    assert refused(state, 0, play("4", "4")) == "illegal_move"


def test_jokers_take_the_value_of_the_row():
    state = table([padded("X", "7", "X"), padded()])
    _, events = act(state, 0, play("X", "7", "X"))
    assert events[0]["cards"] == ["7", "X", "X"] and events[0]["value"] == 7


def test_a_row_of_jokers_alone_is_worth_14():
    state = table([padded("X", "X"), padded()])
    _, events = act(state, 0, play("X", "X"))
    assert events[0]["value"] == 14


def test_a_row_of_jokers_alone_may_attack_a_row_of_thirteens():
    state = table([padded("1", "X", "X"), padded("13", "13")])
    state, _ = run(state, (0, play("1")), (1, play("13", "13")))
    state, events = act(state, 0, play("X", "X"))
    assert events[0]["targets"] == [1]


def test_a_new_row_covers_the_earlier_rows_which_still_lie_in_front():
    state = table([padded("1", "7", "7"), padded()])
    state, _ = run(state, (0, play("1")), (1, play("13")), (1, STOP), (0, play("7", "7")))
    assert state["covered"][0] == ["1"] and state["top_rows"][0] == ["7", "7"]
    seat = abluxxen.view(state, None)["seats"][0]
    assert (seat["covered_count"], seat["front_count"], seat["top_row"]) == (1, 3, ["7", "7"])


# Attacks (abluxx)


def test_a_row_of_as_many_cards_and_an_equal_value_may_be_attacked():
    state, events = act(three_rows(), 0, play("7", "7"))
    assert events[0]["targets"] == [1, 2]
    assert state["phase"] == "attack" and abluxxen.to_act(state) == [0]


def test_a_row_of_a_higher_value_may_not_be_attacked():
    state = table([padded("1"), padded("7", "7"), padded("6", "6")])
    _, log = run(state, (0, play("1")), (1, play("7", "7")), (2, play("6", "6")))
    assert log[-2]["type"] == "played" and log[-2]["targets"] == []


def test_a_row_of_another_number_of_cards_may_not_be_attacked():
    state = table([padded("1"), padded("7", "7")])
    _, log = run(state, (0, play("1")), (1, play("7", "7")))
    assert log[-2]["targets"] == []


def test_a_players_own_row_is_never_a_target():
    state = table([padded("5", "5"), padded("9")])
    state, _ = run(state, (0, play("5")), (1, play("9")), (1, STOP))
    _, events = act(state, 0, play("5"))
    assert events[0]["targets"] == []


def test_attacking_is_optional_and_stop_ends_the_attacks():
    state, _ = act(three_rows(), 0, play("7", "7"))
    state, events = act(state, 0, STOP)
    assert types(events) == ["stopped", "turn"]
    assert state["top_rows"][1] == ["7", "7"] and state["top_rows"][2] == ["6", "6"]


def test_attacks_go_clockwise_and_a_row_passed_over_stays_safe():
    state, _ = act(three_rows(), 0, play("7", "7"))
    state, events = run(state, (0, attack(2)), (2, TAKE_BACK))
    assert events[-1] == {"type": "turn", "seat": 1}  # seat 1's row was passed over
    assert state["top_rows"][1] == ["7", "7"]


def test_several_rows_may_be_attacked_in_one_turn():
    state, _ = act(three_rows(), 0, play("7", "7"))
    state, log = run(state, (0, attack(1)), (1, GIVE_UP), (0, attack(2)), (2, GIVE_UP))
    assert sorted(state["scoring_piles"][0]) == ["6", "6", "7", "7"]
    assert types(log).count("attacked") == 2


def test_a_row_passed_over_or_not_among_the_targets_may_not_be_attacked():
    hands = [padded("1", "7", "7"), padded("7", "7"), padded("6", "6"), padded("5", "5")]
    state, _ = run(
        table(hands), (0, play("1")), (1, play("7", "7")), (2, play("6", "6")), (3, play("5", "5"))
    )
    state, events = act(state, 0, play("7", "7"))
    assert events[0]["targets"] == [1, 2, 3]
    assert refused(state, 0, attack(0)) == "illegal_move"  # its own row
    state, _ = run(state, (0, attack(2)), (2, TAKE_BACK))
    assert refused(state, 0, attack(1)) == "illegal_move"  # passed over
    assert refused(state, 0, attack(2)) == "illegal_move"  # no row any more
    assert abluxxen.legal(state, 0) == [{"type": "attack", "target": 3}, STOP]


def test_the_attacked_player_answers_and_nobody_else_may():
    state, events = act(three_rows(), 0, play("7", "7"))
    state, events = act(state, 0, attack(1))
    assert events == [{"type": "attacked", "seat": 0, "target": 1, "cards": ["7", "7"], "value": 7}]
    assert abluxxen.to_act(state) == [1]
    assert abluxxen.legal(state, 1) == [
        {"type": "answer", "choice": "take_back"},
        {"type": "answer", "choice": "give_up"},
    ]
    assert refused(state, 0, TAKE_BACK) == "not_your_turn"


def test_taking_the_row_back_puts_it_into_the_attacked_players_hand():
    state, _ = act(three_rows(), 0, play("7", "7"))
    before = len(state["hands"][1])
    state, events = run(state, (0, attack(1)), (1, TAKE_BACK))
    assert events[1] == {"type": "taken_back", "seat": 1, "cards": ["7", "7"]}
    assert len(state["hands"][1]) == before + 2 and state["top_rows"][1] is None


def test_giving_up_puts_the_row_on_the_attackers_scoring_pile_and_the_loser_draws_as_many():
    state, _ = act(three_rows(), 0, play("7", "7"))
    before = len(state["hands"][1])
    state, events = run(state, (0, attack(1)), (1, GIVE_UP))
    assert events[1] == {"type": "given_up", "seat": 1, "to": 0, "cards": ["7", "7"]}
    assert events[2]["type"] == "drew" and events[2]["seat"] == 1
    assert events[2]["pile"] == ["10", "11"] and events[2]["display"] == []
    assert state["scoring_piles"][0] == ["7", "7"]
    assert len(state["hands"][1]) == before + 2 and state["top_rows"][1] is None


def test_a_loser_draws_only_what_is_left_in_the_draw_pile():
    state = table([padded("1", "7"), padded("7")], draw_pile=["3"])
    state, _ = run(state, (0, play("1")), (1, play("7")), (1, STOP))
    state, events = run(state, (0, play("7")), (0, attack(1)), (1, GIVE_UP))
    assert [e for e in events if e["type"] == "drew"][0]["pile"] == ["3"]
    assert state["draw_pile"] == []


def test_after_an_attack_that_player_has_no_top_row_until_they_play_again():
    state = table([padded("2", "1"), padded("9", "5"), padded("3", "4")])
    state, _ = run(
        state,
        (0, play("2")),
        (1, play("9")),
        (1, STOP),
        (2, play("3")),
        (2, STOP),
        (0, play("1")),
        (1, play("5")),
    )
    assert state["attack"]["targets"] == [2, 0]
    state, _ = run(state, (1, attack(0)), (0, TAKE_BACK))
    assert state["top_rows"][0] is None and state["covered"][0] == ["2"]
    _, events = act(state, 2, play("4"))
    assert events[0]["targets"] == []  # the covered 2 is safe


def test_only_the_top_row_may_be_attacked():
    state = table([padded("1", "7", "7"), padded("5", "5")])
    state, _ = run(state, (0, play("1")), (1, play("5")), (1, STOP), (0, play("7", "7")))
    _, events = act(state, 1, play("5"))
    assert events[0]["targets"] == []


# Drawing and the display


def test_the_active_player_draws_back_to_13_from_the_display_first_choosing_which():
    hand = ["4", "4", "1", "1", "2", "2", "3", "3", "5", "5", "6", "6", "8"]
    state = table([hand, padded()], display=["9", "10", "11", "12", "9", "10"], draw_pile=["7"] * 8)
    state, events = act(state, 0, play("4", "4"))
    assert types(events) == ["played"] and state["phase"] == "draw"
    assert state["draw"] == {
        "seat": 0,
        "count": 2,
        "source": "display_first",
        "reason": "end_of_turn",
    }
    assert {"type": "draw", "display": ["9", "12"]} in abluxxen.legal(state, 0)
    assert all(len(command["display"]) == 2 for command in abluxxen.legal(state, 0))
    state, events = act(state, 0, draw("12", "9"))
    assert events[0] == {
        "type": "drew",
        "seat": 0,
        "display": ["9", "12"],
        "pile": [],
        "pile_count": 0,
        "refill": ["7", "7"],
    }
    assert len(state["hands"][0]) == 13 and "12" in state["hands"][0]


def test_taking_fewer_display_cards_than_the_draw_needs_is_refused():
    hand = ["4", "4"] + ["1"] * 11
    state = table([hand, padded()], display=["9", "10", "11", "12", "9", "10"], draw_pile=["7"] * 8)
    state, _ = act(state, 0, play("4", "4"))
    assert refused(state, 0, draw("9")) == "illegal_move"
    assert refused(state, 0, draw()) == "illegal_move"
    assert refused(state, 0, draw("13", "13")) == "illegal_move"


def test_the_draw_pile_gives_what_the_display_cannot_and_the_display_is_refilled_to_6():
    state = table(
        [["4", "1", "1", "2", "2"], padded()],
        display=["9", "10", "11", "12", "9", "10"],
        draw_pile=["3", "5", "6", "7", "8", "13", "13", "13", "13", "13"],
    )
    state, events = act(state, 0, play("4"))
    drew = events[1]
    assert drew["display"] == ["9", "9", "10", "10", "11", "12"]  # forced: made for the player
    assert drew["pile"] == ["3", "5", "6"] and drew["refill"] == ["7", "8", "13", "13", "13", "13"]
    assert len(state["hands"][0]) == 13 and len(state["display"]) == 6
    assert state["draw_pile"] == ["13"]


def test_a_draw_that_can_be_made_only_one_way_is_made_by_the_server():
    hand = ["4", "4"] + ["1"] * 11
    state = table([hand, padded()], display=["9"] * 6, draw_pile=["7"] * 4)
    state, events = act(state, 0, play("4", "4"))
    assert types(events) == ["played", "drew", "turn"]
    assert events[1]["display"] == ["9", "9"] and events[1]["refill"] == ["7", "7"]


def test_a_player_holding_13_or_more_cards_after_playing_does_not_draw():
    state = table([padded("4", size=14), padded()], display=["9"] * 6, draw_pile=["7"] * 4)
    _, events = act(state, 0, play("4"))
    assert types(events) == ["played", "turn"]


def test_with_the_draw_pile_empty_the_player_draws_from_the_display_only():
    state = table([["4", "5", "5"], padded()], display=["9", "10"])
    state, events = act(state, 0, play("4"))
    assert events[1]["display"] == ["9", "10"] and events[1]["refill"] == []
    assert state["display"] == [] and len(state["hands"][0]) == 4


def test_the_turn_passes_clockwise_and_seat_0_starts():
    state = table([padded(), padded(), padded()])
    assert abluxxen.to_act(state) == [0]
    state, events = act(state, 0, play("13"))
    assert events[-1] == {"type": "turn", "seat": 1}
    state, _ = run(state, (1, play("13")), (1, STOP))
    state, _ = run(state, (2, play("13")), (2, attack(0)), (0, TAKE_BACK), (2, STOP))
    assert abluxxen.to_act(state) == [0]


# The end and the score


def test_the_game_ends_when_the_draw_pile_is_empty_and_a_player_has_no_cards_in_hand():
    state = table([["5"], padded()], display=["9"])
    state, events = act(state, 0, play("5"))
    assert types(events) == ["played", "game_over"]
    assert events[-1]["reason"] == "hand_empty"
    assert abluxxen.to_act(state) == [] and abluxxen.legal(state, 1) == []


def test_an_empty_hand_does_not_end_the_game_while_the_draw_pile_has_cards():
    state = table([["5"], padded()], display=["9"] * 6, draw_pile=["8"] * 20)
    state, events = act(state, 0, play("5"))
    assert "game_over" not in types(events) and len(state["hands"][0]) == 13


def test_the_game_ends_at_once_even_before_the_attacks():
    state = table([["1", "5"], padded("5")])
    state, _ = run(state, (0, play("1")), (1, play("5")), (1, STOP))
    state, events = act(state, 0, play("5"))
    assert types(events) == ["played", "game_over"] and events[0]["targets"] == [1]


def test_the_game_ends_the_moment_a_loser_draws_the_last_card_while_a_hand_is_empty():
    state = table([padded("5"), ["5"]], display=["9"], draw_pile=["3"])
    state, _ = act(state, 0, play("5"))
    state, events = run(state, (1, play("5")), (1, attack(0)), (0, GIVE_UP))
    assert types(events)[-2:] == ["drew", "game_over"]
    assert state["hands"][1] == []  # the display's 9 was never drawn


def test_cards_in_front_and_in_the_scoring_pile_score_plus_one_and_cards_in_hand_minus_one():
    state = table([["1", "7", "7", "2"], ["7", "7", "4", "4", "4", "8"]])
    state, _ = run(state, (0, play("1")), (1, play("7", "7")), (0, play("7", "7")))
    state, events = run(state, (0, attack(1)), (1, GIVE_UP), (1, play("4", "4", "4")))
    state, events = act(state, 0, play("2"))
    assert events[-1]["type"] == "game_over"
    # seat 0: 1, 7 7, 2 in front, 7 7 scored, hand empty; seat 1: 4 4 4 in front, 8 in hand
    assert abluxxen.result(state) == {"winners": [0], "scores": [6, 2], "reason": "hand_empty"}


def test_tied_players_share_the_victory():
    state = table([["1", "2"], ["3", "3", "3", "4"]])
    state, _ = run(state, (0, play("1")), (1, play("3", "3", "3")))
    assert abluxxen.result(state) is None
    state, _ = act(state, 0, play("2"))
    assert abluxxen.result(state) == {"winners": [0, 1], "scores": [2, 2], "reason": "hand_empty"}


# The rulebook's answers only


def test_discarding_and_keeping_belong_to_the_published_rules():
    state, _ = act(three_rows(), 0, play("7", "7"))
    assert refused(state, 0, {"type": "keep", "take": True}) == "illegal_move"
    state, _ = act(state, 0, attack(1))
    assert refused(state, 1, {"type": "answer", "choice": "discard"}) == "illegal_move"
