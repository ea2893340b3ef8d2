"""Abluxxen with option `published`: one test per difference from the rulebook's rules."""

from test_abluxxen_support import (
    DECLINE,
    DISCARD,
    GIVE_UP,
    KEEP,
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

DISPLAY = ["2", "3", "4", "5", "9", "10"]
PILE = ["11", "12", "11", "12", "13", "13"]


def three_rows(*extra):
    """Published rules. Seat 1 lies 7 7 in front, seat 2 lies 6 6; seat 0 is to play."""
    hands = [padded("1", "7", "7", "8", "8", *extra), padded("7", "7"), padded("6", "6")]
    state = table(hands, display=DISPLAY, draw_pile=PILE, published=True)
    state, _ = run(state, (0, play("1")), (1, play("7", "7")), (2, play("6", "6")))
    return state


def test_published_only_strictly_lower_rows_may_be_attacked():
    _, events = act(three_rows(), 0, play("7", "7"))
    assert events[0]["targets"] == [2]


def test_published_a_row_of_jokers_alone_can_never_be_attacked():
    hands = [padded("1", "X", "X"), padded("X", "X")]
    state = table(hands, DISPLAY, PILE, published=True)
    state, _ = run(state, (0, play("1")), (1, play("X", "X")))
    _, events = act(state, 0, play("X", "X"))
    assert events[0]["targets"] == []


def test_published_every_lower_row_is_attacked_clockwise_without_a_command():
    state, events = act(three_rows(), 0, play("8", "8"))
    assert types(events) == ["played", "attacked"]
    assert events[1] == {
        "type": "attacked",
        "seat": 0,
        "target": 1,
        "cards": ["7", "7"],
        "value": 7,
    }
    assert refused(state, 0, STOP) == "illegal_move"
    assert refused(state, 0, attack(2)) == "illegal_move"
    state, events = run(state, (0, DECLINE), (1, TAKE_BACK))
    assert events[-1]["type"] == "attacked" and events[-1]["target"] == 2


def test_published_the_attacker_first_chooses_whether_to_keep_the_stolen_row():
    state, _ = act(three_rows(), 0, play("8", "8"))
    assert state["phase"] == "keep" and abluxxen.to_act(state) == [0]
    assert abluxxen.legal(state, 0) == [
        {"type": "keep", "take": True},
        {"type": "keep", "take": False},
    ]
    assert refused(state, 1, TAKE_BACK) == "not_your_turn"


def test_published_a_kept_row_goes_into_the_attackers_hand_and_its_owner_draws_as_many():
    state, _ = act(three_rows(), 0, play("8", "8"))
    before = len(state["hands"][0])
    state, events = act(state, 0, KEEP)
    assert events == [{"type": "kept", "seat": 0, "target": 1, "cards": ["7", "7"]}]
    assert len(state["hands"][0]) == before + 2 and state["top_rows"][1] is None
    assert state["draw"] == {"seat": 1, "count": 2, "source": "any", "reason": "lost_row"}
    assert abluxxen.to_act(state) == [1]


def test_published_a_loser_draws_from_the_display_and_the_draw_pile_in_any_mix():
    state, _ = run(three_rows(), (0, play("8", "8")), (0, KEEP))
    choices = [command["display"] for command in abluxxen.legal(state, 1)]
    assert choices[0] == [] and ["2"] in choices and ["9", "10"] in choices
    assert all(len(choice) <= 2 for choice in choices)
    state, events = act(state, 1, draw("9"))
    assert events[0] == {
        "type": "drew",
        "seat": 1,
        "display": ["9"],
        "pile": ["11"],
        "pile_count": 1,
        "refill": ["12"],
    }
    assert sorted(state["display"]) == sorted(["2", "3", "4", "5", "10", "12"])


def test_published_when_the_draw_pile_runs_short_the_display_makes_up_the_rest():
    hands = [padded("1", "8", "8"), padded("7", "7")]
    state = table(hands, display=DISPLAY, draw_pile=["11"], published=True)
    state, _ = run(state, (0, play("1")), (1, play("7", "7")), (0, play("8", "8")), (0, KEEP))
    assert refused(state, 1, draw()) == "illegal_move"
    assert {len(command["display"]) for command in abluxxen.legal(state, 1)} == {1, 2}


def test_published_when_the_attacker_declines_the_owner_may_take_the_row_back_without_drawing():
    state, _ = act(three_rows(), 0, play("8", "8"))
    before = len(state["hands"][1])
    state, events = act(state, 0, DECLINE)
    assert events == [{"type": "declined", "seat": 0, "target": 1}]
    assert abluxxen.legal(state, 1) == [
        {"type": "answer", "choice": "take_back"},
        {"type": "answer", "choice": "discard"},
    ]
    state, events = act(state, 1, TAKE_BACK)
    assert types(events) == ["taken_back", "attacked"]
    assert len(state["hands"][1]) == before + 2 and state["top_rows"][1] is None


def test_published_the_owner_may_discard_the_row_and_draw_as_many():
    state, _ = run(three_rows(), (0, play("8", "8")), (0, DECLINE))
    state, events = act(state, 1, DISCARD)
    assert events == [{"type": "discarded", "seat": 1, "cards": ["7", "7"]}]
    assert state["discard_pile"] == ["7", "7"] and state["draw"]["count"] == 2


def test_published_giving_up_to_the_attacker_is_not_an_answer():
    state, _ = run(three_rows(), (0, play("8", "8")), (0, DECLINE))
    assert refused(state, 1, GIVE_UP) == "illegal_move"


def test_published_nobody_but_a_loser_draws():
    state = table([padded("4", "4", size=13), padded()], DISPLAY, PILE, published=True)
    state, events = act(state, 0, play("4", "4"))
    assert types(events) == ["played", "turn"] and len(state["hands"][0]) == 11


def test_published_the_game_ends_when_a_player_has_no_cards_in_hand():
    state = table([["5"], padded()], DISPLAY, PILE, published=True)
    state, events = act(state, 0, play("5"))
    assert types(events) == ["played", "game_over"] and events[-1]["reason"] == "hand_empty"
    assert abluxxen.result(state)["scores"] == [1, -20]


def test_published_the_game_ends_when_display_and_draw_pile_are_both_empty():
    state = table([padded("3"), padded("5")], display=["9"], published=True)
    state, _ = act(state, 0, play("3"))
    state, events = run(state, (1, play("5")), (1, KEEP))
    assert types(events) == ["played", "attacked", "kept", "drew", "game_over"]
    assert events[-1]["reason"] == "supply_empty"
    assert abluxxen.result(state)["winners"] == [1]


def test_published_a_row_that_empties_the_hand_ends_the_game_before_its_attacks():
    state = table([["6", "5"], padded("4")], DISPLAY, PILE, published=True)
    state, _ = run(state, (0, play("6")), (1, play("4")))
    state, events = act(state, 0, play("5"))
    assert types(events) == ["played", "game_over"] and events[0]["targets"] == [1]
    assert state["top_rows"][1] == ["4"]
