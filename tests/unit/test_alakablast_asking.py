"""Alakablast: requesting information (A), claims, clues and what each player has been told."""

import pytest

import shared.games.alakablast as game
from tests.alakablast_tables import after, given, play, refused, started, types

# Seat 0 (Loretto) has an open plant 2 and water 2, seat 1 (Victor) an open light and
# shadow, seat 2 an open fire 4 and fire 5.
DEAL = [
    (["W1", "F1"], ["P2", "W2"]),
    (["W3", "F3"], ["L0", "S7"]),
    (["P3", "P4"], ["F4", "F5"]),
]
NOTHING = {"element": None, "power": None, "special": False}


def table():
    return started(3, DEAL)


def told(state, seat, position):
    return state["hands"][seat][position]["told"]


def ask(card, informant, claim=None):
    command = {"type": "ask", "card": card, "informant": informant}
    if claim:
        command["claim"] = claim
    return command


def inform(dimension):
    return {"type": "inform", "dimension": dimension}


def test_a_player_asks_about_an_open_card_and_the_informant_must_answer():
    state, events = play(table(), (0, ask(2, 1)))
    assert events == [
        {"type": "asked", "seat": 0, "card": 2, "informant": 1, "claim": None},
    ]
    assert game.to_act(state) == [1]
    assert game.legal(state, 1) == [inform("element"), inform("power")]
    assert game.legal(state, 0) == []


def test_the_informant_chooses_element_or_power_when_there_is_no_claim():
    asked = after(table(), (0, ask(2, 1)))
    _, by_element = play(asked, (1, inform("element")))
    _, by_power = play(asked, (1, inform("power")))
    assert by_element[0]["clue"] == {"element": "P"}
    assert by_power[0]["clue"] == {"power": 2}


def test_the_clue_is_truthful_and_recorded_as_what_the_asker_was_told():
    state = after(table(), (0, ask(2, 1)), (1, inform("element")))
    assert told(state, 0, 2) == {"element": "P", "power": None, "special": False}


def test_a_clue_names_every_matching_open_card_of_the_asker():
    # The rulebook's example: Loretto claims her third card is a plant; Victor must say
    # that both her third and fourth cards are a 2. The claim itself is not recorded.
    state, events = play(table(), (0, ask(2, 1, {"element": "P"})), (1, inform("power")))
    assert events[1]["clue"] == {"power": 2}
    assert events[1]["cards"] == [2, 3]
    assert told(state, 0, 2) == {"element": None, "power": 2, "special": False}
    assert told(state, 0, 3) == {"element": None, "power": 2, "special": False}


def test_a_clue_says_nothing_about_hidden_cards():
    # Seat 0 holds a hidden water 1; a water clue marks only the open water 2.
    state, events = play(table(), (0, ask(3, 1)), (1, inform("element")))
    assert events[1]["cards"] == [3]
    assert told(state, 0, 0) is None


def test_a_light_or_shadow_card_is_only_told_as_special():
    state = after(table(), (0, ask(2, 1)), (1, inform("power")), (1, ask(2, 2)))
    for dimension in ("element", "power"):
        _, events = play(state, (2, inform(dimension)))
        assert events[0]["clue"] == {"special": True}


def test_a_special_clue_names_every_special_open_card_light_and_shadow_alike():
    state = after(table(), (0, ask(2, 1)), (1, inform("power")), (1, ask(2, 2)))
    state, events = play(state, (2, inform("element")))
    assert events[0]["cards"] == [2, 3]
    special = {"element": None, "power": None, "special": True}
    assert told(state, 1, 2) == told(state, 1, 3) == special


def test_a_special_card_once_told_can_no_longer_be_asked_about():
    state = after(table(), (0, ask(2, 1)), (1, inform("power")), (1, ask(2, 2)))
    state = after(state, (2, inform("element")), (2, ask(2, 0)), (0, inform("power")))
    state = after(state, (0, ask(3, 2)), (2, inform("element")))
    assert state["turn"] == 1
    assert refused(state, 1, ask(2, 0)) == "illegal_move"
    assert all(command["type"] == "duel" for command in game.legal(state, 1))


def test_a_correct_claim_obliges_the_informant_to_give_the_other_dimension():
    state = after(table(), (0, ask(2, 1, {"element": "P"})))
    assert game.legal(state, 1) == [inform("power")]
    assert refused(state, 1, inform("element")) == "illegal_move"


def test_ruling_a_correct_claim_is_never_recorded_only_the_clue_is():
    state, events = play(table(), (0, ask(2, 1, {"power": 2})), (1, inform("element")))
    assert "confirmed_claim" not in events[1]
    assert told(state, 0, 2) == {"element": "P", "power": None, "special": False}
    # The power stays to be told: the card is not fully known, so it may be asked about.
    state = after(state, (1, ask(2, 2)), (2, inform("power")), (2, ask(2, 0)))
    state = after(state, (0, inform("power")), (0, ask(2, 1)))
    assert game.legal(state, 1) == [inform("power")]


def test_a_wrong_claim_leaves_the_informant_free_to_correct_it_or_not():
    state = after(table(), (0, ask(2, 1, {"element": "W"})))
    assert game.legal(state, 1) == [inform("element"), inform("power")]
    _, corrected = play(state, (1, inform("element")))
    assert corrected[0]["clue"] == {"element": "P"}


def test_a_wrong_claim_is_not_recorded():
    state, events = play(table(), (0, ask(2, 1, {"element": "W"})), (1, inform("power")))
    assert "confirmed_claim" not in events[1]
    assert told(state, 0, 2) == {"element": None, "power": 2, "special": False}


def test_a_claim_about_a_special_card_is_always_wrong_and_the_clue_is_special():
    state = after(table(), (0, ask(2, 1)), (1, inform("power")), (1, ask(2, 2, {"element": "W"})))
    assert game.legal(state, 2) == [inform("element"), inform("power")]
    _, events = play(state, (2, inform("element")))
    assert events[0]["clue"] == {"special": True}


@pytest.mark.parametrize("claim", [{"element": "L"}, {"element": "S"}, {"power": 0}, {"power": 7}])
def test_a_claim_cannot_name_light_shadow_or_their_powers(claim):
    assert refused(table(), 0, ask(2, 1, claim)) == "illegal_move"


def test_a_claim_about_a_card_with_known_information_is_refused():
    state = after(table(), (0, ask(2, 1)), (1, inform("element")), (1, ask(2, 0)))
    state = after(state, (0, inform("element")), (2, ask(2, 0)), (0, inform("element")))
    assert state["turn"] == 0 and told(state, 0, 2)["element"] == "P"
    assert refused(state, 0, ask(2, 1, {"power": 2})) == "illegal_move"
    assert game.decide(state, 0, ask(2, 1))


def test_asking_about_a_card_already_fully_known_is_refused():
    state = after(table(), (0, ask(2, 1)), (1, inform("element")))
    state = after(state, (1, ask(2, 0)), (0, inform("power")), (2, ask(2, 0)), (0, inform("power")))
    # What seat 1 would have said of the power, folded in by hand: card 2 is now a plant 2.
    clue = {"type": "informed", "seat": 1, "target": 0, "card": 2, "clue": {"power": 2}}
    state = game.evolve(state, {**clue, "cards": [2, 3]})
    assert state["turn"] == 0
    assert told(state, 0, 2) == {"element": "P", "power": 2, "special": False}
    assert refused(state, 0, ask(2, 1)) == "illegal_move"
    assert {
        command.get("card") for command in game.legal(state, 0) if command["type"] == "ask"
    } == {3}


def test_a_clue_that_adds_nothing_is_refused():
    # Card 3 was told "power 2" with card 2; now only its element can be given.
    state = after(table(), (0, ask(2, 1, {"element": "P"})), (1, inform("power")))
    state = after(state, (1, ask(2, 0)), (0, inform("power")), (2, ask(2, 0)), (0, inform("power")))
    state = after(state, (0, ask(3, 2)))
    assert game.legal(state, 2) == [inform("element")]
    assert refused(state, 2, inform("power")) == "illegal_move"


def test_an_ask_about_a_hidden_card_is_refused():
    assert refused(table(), 0, ask(0, 1)) == "illegal_move"


@pytest.mark.parametrize("card", [4, -1, 99])
def test_an_ask_about_a_card_not_in_the_hand_is_refused(card):
    assert refused(table(), 0, ask(card, 1)) == "illegal_move"


@pytest.mark.parametrize("informant", [0, 3, -1])
def test_the_informant_must_be_another_seat_at_the_table(informant):
    assert refused(table(), 0, ask(2, informant)) == "illegal_move"


def test_a_player_without_open_cards_must_duel():
    hands = [{"hidden": ["W1", "F1", "P1", "W2"], "open": []}]
    hands += [
        {"hidden": ["W3", "F3"], "open": ["L0", "S7"]},
        {"hidden": ["P3", "P4"], "open": ["F4", "F5"]},
    ]
    state = given(3, [{"type": "dealt", "hands": hands, "discard_zone": [], "draw_pile": []}])
    state = game.evolve(state, {"type": "turn_began", "turn": 0})
    assert {command["type"] for command in game.legal(state, 0)} == {"duel"}
    assert refused(state, 0, ask(0, 1)) == "illegal_move"


def test_the_turn_passes_clockwise_after_an_answer():
    state, events = play(table(), (0, ask(2, 1)), (1, inform("power")))
    assert types(events) == ["asked", "informed", "turn_began"]
    assert events[-1] == {"type": "turn_began", "turn": 1}
    state = after(state, (1, ask(2, 2)), (2, inform("power")), (2, ask(2, 0)), (0, inform("power")))
    assert state["turn"] == 0


def test_only_the_informant_may_answer():
    state = after(table(), (0, ask(2, 1)))
    assert refused(state, 0, inform("power")) == "not_your_turn"
    assert refused(state, 2, inform("power")) == "not_your_turn"


def test_only_the_player_whose_turn_it_is_may_ask():
    assert refused(table(), 1, ask(2, 0)) == "not_your_turn"
    assert refused(after(table(), (0, ask(2, 1))), 0, ask(3, 1)) == "not_your_turn"


def test_nobody_answers_when_no_question_was_asked():
    assert refused(table(), 1, inform("element")) == "not_your_turn"


def test_an_informed_event_names_the_informant_the_asker_and_the_card():
    _, events = play(table(), (0, ask(2, 2)), (2, inform("element")))
    assert events[1] == {
        "type": "informed",
        "seat": 2,
        "target": 0,
        "card": 2,
        "clue": {"element": "P"},
        "cards": [2],
    }
    assert told(table(), 0, 2) == NOTHING


# Ruling: a claim is never confirmed. The issue's reproduction: seat 0's open card 2 is a
# water 3; seat 0 asks seat 1 about it claiming water (right), or fire (wrong), and seat 1
# answers with its power. Nothing seat 0 sees may tell the two apart.
REPRODUCTION = [
    (["F1", "P1"], ["W3", "P4"]),
    (["W1", "F2"], ["P3", "F5"]),
    (["P5", "W5"], ["F4", "W6"]),
]


def claimed(element):
    """The table after seat 0's claim of `element` was answered with the power; the events."""
    return play(
        started(3, REPRODUCTION), (0, ask(2, 1, {"element": element})), (1, inform("power"))
    )


def test_ruling_a_right_and_a_wrong_claim_look_the_same_to_the_asker():
    (right, right_log), (wrong, wrong_log) = claimed("W"), claimed("F")
    assert right_log[0]["claim"] != wrong_log[0]["claim"]  # only the asker's own words differ
    assert [game.redact(e, 0) for e in right_log[1:]] == [game.redact(e, 0) for e in wrong_log[1:]]
    assert right_log[1:] == wrong_log[1:]
    assert right == wrong  # not even the server keeps the claim once it is answered
    assert game.view(right, 0) == game.view(wrong, 0)
    assert told(right, 0, 2) == {"element": None, "power": 3, "special": False}


def test_ruling_asking_again_after_a_right_claim_is_accepted_as_after_a_wrong_one():
    states = []
    for element in ("W", "F"):
        state, _ = claimed(element)
        state = after(state, (1, ask(2, 2)), (2, inform("element")), (2, ask(2, 0)))
        state = after(state, (0, inform("element")))
        assert state["turn"] == 0
        assert any(command == ask(2, 1) for command in game.legal(state, 0))
        reclaim = refusal(state, 0, ask(2, 1, {"element": "W"}))
        states.append((game.view(state, 0), game.legal(state, 0), reclaim))
        state, events = play(state, (0, ask(2, 1)))
        assert game.legal(state, 1) == [inform("element")]
        states.append((game.view(state, 0), game.redact(events[0], 0)))
    assert states[0] == states[2] and states[1] == states[3]


def test_ruling_an_informant_who_times_out_answers_the_same_to_a_right_or_a_wrong_claim():
    for claim, answer in [({"element": "W"}, "power"), ({"power": 3}, "element")]:
        right = after(started(3, REPRODUCTION), (0, ask(2, 1, claim)))
        wrong_claim = {"element": "F"} if "element" in claim else {"power": 5}
        wrong = after(started(3, REPRODUCTION), (0, ask(2, 1, wrong_claim)))
        assert game.timeout(right, 1) == game.timeout(wrong, 1) == inform(answer)


def refusal(state, seat, command):
    """The code and message of a refused command."""
    with pytest.raises(game.RuleError) as caught:
        game.decide(state, seat, command)
    return caught.value.code, caught.value.message
