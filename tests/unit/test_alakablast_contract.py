"""Alakablast: the Decider contract (determinism, replay, purity, errors, timeouts)."""

import json

import pytest

import shared.games.alakablast as game
from tests.alakablast_tables import (
    after,
    as_json,
    fixed_deck,
    fold,
    given,
    new_table,
    play,
    refused,
    started,
)

DEAL = [
    (["W1", "F1"], ["P2", "W2"]),
    (["W3", "F3"], ["L0", "S7"]),
    (["P3", "P4"], ["F4", "F5"]),
]
SCRIPT = [
    (0, {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "P"}}),
    (1, {"type": "inform", "dimension": "power"}),
    (1, {"type": "duel", "rival": 2, "kind": "element", "card": 2, "dimension": "power"}),
    (2, {"type": "choose", "card": 3}),
    (1, {"type": "choose", "card": 2}),
    (2, {"type": "duel", "rival": 0, "kind": "power", "card": 3, "dimension": "element"}),
    (0, {"type": "choose", "card": 0}),
    (2, {"type": "choose", "card": 1}),
]


def scripted_log(seed="script"):
    state = new_table(3, fixed_deck(3, DEAL), seed=seed)
    log = game.decide(state, None, {"type": "start"})
    state = fold(state, log)
    state, events = play(state, *SCRIPT)
    return log + events, state


def test_the_same_seed_and_commands_give_the_same_events_byte_for_byte():
    first, _ = scripted_log()
    second, _ = scripted_log()
    assert json.dumps(first) == json.dumps(second)


def test_folding_the_events_rebuilds_the_same_state():
    log, state = scripted_log()
    assert fold(new_table(3, fixed_deck(3, DEAL), seed="script"), log) == state


def test_the_events_replay_after_a_trip_through_json():
    log, state = scripted_log()
    assert fold(new_table(3, fixed_deck(3, DEAL), seed="script"), as_json(log)) == state


def test_decide_never_mutates_the_state():
    state = started(3, DEAL)
    for seat, command in SCRIPT:
        before = json.dumps(state)
        events = game.decide(state, seat, command)
        assert json.dumps(state) == before
        state = fold(state, events)


def test_evolve_never_mutates_the_state_or_the_event():
    log, _ = scripted_log()
    state = new_table(3, fixed_deck(3, DEAL), seed="script")
    for event in log:
        state_before, event_before = json.dumps(state), json.dumps(event)
        new_state = game.evolve(state, event)
        assert json.dumps(state) == state_before and json.dumps(event) == event_before
        state = new_state


def test_state_and_events_are_plain_json():
    log, state = scripted_log()
    assert as_json(log) == log and as_json(state) == state


def test_to_act_is_defined_between_the_events_of_one_command():
    # The table folds a command's events one at a time and asks who acts after each.
    log, _ = scripted_log()
    state = new_table(3, fixed_deck(3, DEAL), seed="script")
    for event in log:
        state = game.evolve(state, event)
        acting = game.to_act(state)  # never raises
        answered = event["type"] == "informed" and state["phase"] == "answer"
        if answered or event["type"] in ("cards_discarded", "cards_drawn"):
            assert acting == []  # resolved: nobody acts until the next turn begins


def test_result_is_none_until_the_game_is_over():
    _, state = scripted_log()
    assert game.result(state) is None
    state = game.evolve(
        state, {"type": "game_over", "winners": [1], "scores": [0, 6, 0], "reason": "gem_target"}
    )
    assert game.result(state) == {"winners": [1], "scores": [0, 6, 0], "reason": "gem_target"}


@pytest.mark.parametrize(
    "command",
    [
        None,
        "ask",
        {},
        {"type": "fly"},
        {"type": 3},
        {"type": "ask", "card": 2},
        {"type": "ask", "card": "2", "informant": 1},
        {"type": "ask", "card": 2, "informant": True},
        {"type": "ask", "card": 2, "informant": 1, "claim": "W"},
        {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "X"}},
        {"type": "ask", "card": 2, "informant": 1, "claim": {"power": 8}},
        {"type": "ask", "card": 2, "informant": 1, "claim": {"power": "3"}},
        {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "W", "power": 3}},
        {"type": "ask", "card": 2, "informant": 1, "informer": 1},
        {"type": "inform", "dimension": "colour"},
        {"type": "inform"},
        {"type": "duel", "rival": 1, "kind": "colour", "card": 2, "dimension": "power"},
        {"type": "duel", "rival": 1, "kind": "power", "card": 2},
        {"type": "duel", "rival": 1, "kind": "power", "dimension": "power"},
        {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "special"},
        {"type": "choose", "card": 1.0},
        {"type": "choose"},
    ],
)
def test_a_malformed_command_is_a_bad_command(command):
    assert refused(started(3, DEAL), 0, command) == "bad_command"


@pytest.mark.parametrize("seat", [3, -1, "0"])
def test_a_seat_not_at_the_table_may_not_act(seat):
    assert refused(started(3, DEAL), seat, {"type": "ask", "card": 2, "informant": 1}) == (
        "not_your_turn"
    )


def test_nobody_acts_once_the_game_is_over():
    state = game.evolve(
        started(3, DEAL),
        {"type": "game_over", "winners": [0], "scores": [6, 0, 0], "reason": "gem_target"},
    )
    assert refused(state, 0, {"type": "ask", "card": 2, "informant": 1}) == "not_your_turn"
    assert game.timeout(state, 0) is None


def test_legal_lists_each_command_once_in_a_stable_order():
    state = started(3, DEAL)
    commands = game.legal(state, 0)
    assert len({json.dumps(c, sort_keys=True) for c in commands}) == len(commands)
    assert commands == game.legal(started(3, DEAL), 0)
    assert commands[:2] == [
        {"type": "ask", "card": 2, "informant": 1},
        {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "W"}},
    ]
    for command in commands:
        game.decide(state, 0, command)


def test_a_seat_that_need_not_act_has_no_legal_command_and_no_timeout():
    state = started(3, DEAL)
    assert game.legal(state, 1) == [] and game.timeout(state, 1) is None


def test_on_timeout_the_turn_player_asks_the_next_seat_about_the_first_open_card():
    assert game.timeout(started(3, DEAL), 0) == {"type": "ask", "card": 2, "informant": 1}
    state = after(started(3, DEAL), (0, {"type": "ask", "card": 2, "informant": 1}))
    state = after(state, (1, {"type": "inform", "dimension": "power"}))
    assert game.timeout(state, 1) == {"type": "ask", "card": 2, "informant": 2}


def test_on_timeout_the_first_open_card_still_to_learn_about_is_asked_about():
    state = after(
        started(3, DEAL),
        (0, {"type": "ask", "card": 2, "informant": 1}),
        (1, {"type": "inform", "dimension": "element"}),
        (1, {"type": "ask", "card": 2, "informant": 2}),
        (2, {"type": "inform", "dimension": "power"}),
        (2, {"type": "ask", "card": 2, "informant": 0}),
        (0, {"type": "inform", "dimension": "power"}),
    )
    # Seat 0's plant 2 (card 2) told its power too, by hand: it is fully known.
    clue = {"type": "informed", "seat": 1, "target": 0, "card": 2, "clue": {"power": 2}}
    state = game.evolve(state, {**clue, "cards": [2, 3]})
    assert game.timeout(state, 0) == {"type": "ask", "card": 3, "informant": 1}


def test_on_timeout_a_player_with_nothing_to_ask_duels_the_next_seat():
    hands = [
        {"hidden": ["W1", "F1", "P1", "W2"], "open": []},
        {"hidden": ["W3", "F3"], "open": ["L0", "S7"]},
        {"hidden": ["P3", "P4"], "open": ["F4", "F5"]},
    ]
    state = given(3, [{"type": "dealt", "hands": hands, "discard_zone": [], "draw_pile": []}])
    state = game.evolve(state, {"type": "turn_began", "turn": 0})
    assert game.timeout(state, 0) == {
        "type": "duel",
        "rival": 1,
        "kind": "element",
        "card": 2,
        "dimension": "element",
    }


def test_on_timeout_the_informant_gives_the_first_legal_answer_when_there_is_no_claim():
    state = after(started(3, DEAL), (0, {"type": "ask", "card": 2, "informant": 1}))
    assert game.timeout(state, 1) == {"type": "inform", "dimension": "element"}


def test_on_timeout_the_informant_answers_in_the_dimension_a_claim_did_not_name():
    for claim, answer in [({"element": "W"}, "power"), ({"power": 2}, "element")]:
        state = after(
            started(3, DEAL), (0, {"type": "ask", "card": 2, "informant": 1, "claim": claim})
        )
        assert game.timeout(state, 1) == {"type": "inform", "dimension": answer}


def test_on_timeout_a_duelist_plays_a_random_card_drawn_from_the_seed():
    duel = {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "power"}
    picks = set()
    for seed in ["a", "b", "c", "d", "e", "f", "g", "h"]:
        state = after(started(3, DEAL, seed=seed), (0, duel))
        pick = game.timeout(state, 1)
        assert pick == game.timeout(state, 1)
        assert pick in game.legal(state, 1)
        picks.add(pick["card"])
    assert len(picks) > 1


def test_the_api_envelope_field_expected_version_is_ignored():
    command = {"type": "ask", "card": 2, "informant": 1, "expected_version": 7}
    assert game.decide(started(3, DEAL), 0, command)[0]["card"] == 2
