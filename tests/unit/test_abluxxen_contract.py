"""Abluxxen against the rules contract: purity, determinism, replay, JSON, refusals and
the timeout actions."""

import copy
import json

import pytest
from test_abluxxen_support import (
    DECLINE,
    KEEP,
    act,
    attack,
    draw,
    new_game,
    padded,
    play,
    random_game,
    refused,
    run,
    table,
)

from shared.games import abluxxen
from shared.games.abluxxen.events import working_copy

DISPLAY = ["9", "2", "10", "3", "11", "4"]
PILE = ["12"] * 8


@pytest.mark.parametrize("published", [False, True])
def test_decide_and_evolve_never_change_their_inputs(published):
    def unchanged(state, seat, command, events, after):
        frozen_state, frozen_command = copy.deepcopy(state), copy.deepcopy(command)
        again = abluxxen.decide(state, seat, command)
        assert state == frozen_state and command == frozen_command and again == events
        for event in events:
            frozen_state, frozen_event = copy.deepcopy(state), copy.deepcopy(event)
            folded = abluxxen.evolve(state, event)
            assert state == frozen_state and event == frozen_event
            state = folded

    random_game(3, published, "pure", max_steps=150, on_step=unchanged)


@pytest.mark.parametrize("published", [False, True])
def test_folding_into_a_working_copy_leaves_the_state_and_matches_evolve(published):
    def folded_apart(state, seat, command, events, after):
        frozen = copy.deepcopy(state)
        work, expected = working_copy(state), state
        for event in events:
            work = abluxxen.evolve_in_place(work, event)
            expected = abluxxen.evolve(expected, event)
        assert state == frozen and work == expected == after

    random_game(3, published, "pure", max_steps=300, on_step=folded_apart)


@pytest.mark.parametrize("published", [False, True])
def test_the_same_seed_and_commands_give_the_same_events(published):
    _, log, commands = random_game(4, published, "same")
    state, again = act(new_game(4, published, seed="game/same"), None, {"type": "start"})
    state, rest = run(state, *commands)
    assert json.dumps(again + rest) == json.dumps(log)


@pytest.mark.parametrize("published", [False, True])
def test_folding_the_events_rebuilds_the_same_state(published):
    final, log, _ = random_game(3, published, "fold")
    state = new_game(3, published, seed="game/fold")
    for event in log:
        state = abluxxen.evolve(state, event)
    assert state == final


@pytest.mark.parametrize("published", [False, True])
def test_state_events_and_views_survive_a_json_round_trip(published):
    final, log, _ = random_game(2, published, "json")
    assert json.loads(json.dumps(final)) == final
    assert json.loads(json.dumps(log)) == log
    for seat in (None, 0, 1):
        shown = abluxxen.view(final, seat)
        assert json.loads(json.dumps(shown)) == shown


@pytest.mark.parametrize(
    "command",
    [
        None,
        "play",
        {},
        {"type": "pass"},
        {"type": "start"},
        {"type": "play"},
        {"type": "play", "cards": "7"},
        {"type": "play", "cards": ["7", 7]},
        {"type": "play", "cards": ["0"]},
        {"type": "play", "cards": ["14"]},
        {"type": "play", "cards": ["7"], "value": 7},
        {"type": "attack", "target": "1"},
        {"type": "attack", "target": True},
        {"type": "answer", "choice": "maybe"},
        {"type": "keep", "take": "yes"},
        {"type": "draw", "display": ["joker"]},
        {"type": "draw"},
    ],
)
def test_malformed_commands_are_bad_commands(command):
    state = table([padded("7"), padded()], DISPLAY, PILE)
    assert refused(state, 0, command) == "bad_command"


def test_a_seat_that_may_not_act_now_is_told_not_your_turn():
    state = table([padded("7"), padded("7")], DISPLAY, PILE)
    assert refused(state, 1, play("7")) == "not_your_turn"
    assert refused(state, 5, play("7")) == "not_your_turn"


def test_a_command_that_does_not_fit_the_moment_is_an_illegal_move():
    state = table([padded("7"), padded("7")], DISPLAY, PILE)
    assert refused(state, 0, {"type": "stop"}) == "illegal_move"
    assert refused(state, 0, draw()) == "illegal_move"
    assert refused(state, 0, attack(1)) == "illegal_move"


def test_the_game_over_refuses_every_command():
    state, _ = act(table([["5"], padded()]), 0, play("5"))
    assert refused(state, 1, play("13")) == "not_your_turn"


def test_the_turns_timeout_plays_the_lowest_single_card():
    state = table([["X", "9", "3", "3", "13"], padded()], DISPLAY, PILE)
    assert abluxxen.timeout(state, 0) == {"type": "play", "cards": ["3"]}
    assert abluxxen.timeout(table([["X", "X"], padded()]), 0) == {"type": "play", "cards": ["X"]}


def test_the_attack_timeout_stops_attacking():
    state = table([padded("5", "5"), padded("5")], DISPLAY, PILE)
    state, _ = run(state, (0, play("5")), (1, play("5")))
    assert abluxxen.timeout(state, 1) == {"type": "stop"}


def test_the_answer_timeout_takes_the_row_back():
    state = table([padded("5", "5"), padded("5")], DISPLAY, PILE)
    state, _ = run(state, (0, play("5")), (1, play("5")), (1, attack(0)))
    assert abluxxen.timeout(state, 0) == {"type": "answer", "choice": "take_back"}


def test_the_keep_timeout_leaves_the_row_to_its_owner_who_takes_it_back():
    state = table([padded("4"), padded("5")], DISPLAY, PILE, published=True)
    state, _ = run(state, (0, play("4")), (1, play("5")))
    assert abluxxen.timeout(state, 1) == DECLINE
    state, _ = act(state, 1, DECLINE)
    assert abluxxen.timeout(state, 0) == {"type": "answer", "choice": "take_back"}


def test_the_published_draw_timeout_takes_nothing_from_the_display():
    state = table([padded("4"), padded("5")], DISPLAY, PILE, published=True)
    state, _ = run(state, (0, play("4")), (1, play("5")), (1, KEEP))
    assert abluxxen.timeout(state, 0) == draw()


def test_the_rulebook_draw_timeout_takes_the_lowest_display_cards_it_must_take():
    state = table([["4", "4"] + ["1"] * 11, padded()], DISPLAY, PILE)
    state, _ = act(state, 0, play("4", "4"))
    assert abluxxen.timeout(state, 0) == draw("2", "3")


def test_a_seat_that_need_not_act_has_no_timeout_and_no_legal_commands():
    state = table([padded("4"), padded("5")], DISPLAY, PILE)
    assert abluxxen.timeout(state, 1) is None and abluxxen.legal(state, 1) == []
    assert abluxxen.timeout(state, None) is None


@pytest.mark.parametrize("published", [False, True])
def test_every_timeout_is_a_legal_command(published):
    def timeout_is_legal(state, seat, command, events, after):
        for other in abluxxen.to_act(after):
            assert abluxxen.timeout(after, other) in abluxxen.legal(after, other)

    random_game(3, published, "timeouts", on_step=timeout_is_legal)
