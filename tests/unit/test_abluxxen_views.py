"""Abluxxen's hidden information: what each seat's view and event feed may hold."""

import json

import pytest
from test_abluxxen_support import (
    GIVE_UP,
    act,
    attack,
    new_game,
    padded,
    play,
    random_game,
    run,
    table,
)

from shared.games import abluxxen

DISPLAY = ["9", "2", "10", "3", "11", "4"]
PILE = ["12", "1", "5", "6", "7", "8", "13", "13"]

VIEW_KEYS = {
    "published",
    "phase",
    "turn",
    "hand",
    "seats",
    "display",
    "draw_pile_count",
    "discard_pile_count",
    "attack",
    "draw",
    "hands",
    "result",
}
SEAT_KEYS = {
    "seat",
    "hand_count",
    "top_row",
    "top_row_value",
    "covered_count",
    "front_count",
    "scoring_pile_count",
    "score",
}


def dealt():
    state = new_game(3, seed="secret-seed")
    return act(state, None, {"type": "start"})


def test_the_view_has_the_documented_shape():
    state, _ = dealt()
    for seat in (None, 0, 2):
        shown = abluxxen.view(state, seat)
        assert set(shown) == VIEW_KEYS
        assert all(set(entry) == SEAT_KEYS for entry in shown["seats"])


def test_a_players_view_shows_their_own_hand_and_only_counts_of_the_others():
    state, _ = dealt()
    shown = abluxxen.view(state, 1)
    assert shown["hand"] == state["hands"][1]
    assert [entry["hand_count"] for entry in shown["seats"]] == [13, 13, 13]
    assert shown["hands"] is None


def test_a_spectators_view_shows_no_hand():
    state, _ = dealt()
    assert abluxxen.view(state, None)["hand"] is None


def test_the_view_never_holds_the_draw_pile_the_seed_or_cards_lying_face_down():
    state, _ = act(table([padded("1", "7", "7"), padded("7", "7")], DISPLAY, PILE), 0, play("1"))
    state, _ = run(state, (1, play("7", "7")), (0, play("7", "7")), (0, attack(1)), (1, GIVE_UP))
    for seat in (None, 0, 1):
        shown = abluxxen.view(state, seat)
        text = json.dumps(shown)
        assert "seed" not in text and 'draw_pile"' not in text
        assert (
            shown["seats"][0]["covered_count"] == 1 and shown["seats"][0]["scoring_pile_count"] == 2
        )
        assert shown["draw_pile_count"] == len(state["draw_pile"])


def test_rows_the_display_and_the_sizes_of_piles_and_hands_are_public():
    state, _ = act(table([padded("7", "X"), padded()], DISPLAY, PILE), 0, play("7", "X"))
    shown = abluxxen.view(state, None)
    assert shown["seats"][0]["top_row"] == ["7", "X"] and shown["seats"][0]["top_row_value"] == 7
    assert shown["display"] == DISPLAY and shown["draw_pile_count"] == len(PILE)
    assert shown["seats"][0]["score"] == 2 - 18


def test_the_view_shows_the_attack_under_way_and_the_draw_to_make():
    state = table([padded("5"), padded("5")], DISPLAY, PILE)
    state, _ = run(state, (0, play("5")), (1, play("5")), (1, attack(0)))
    assert abluxxen.view(state, None)["attack"] == {
        "seat": 1,
        "row": ["5"],
        "value": 5,
        "targets": [],
        "target": 0,
    }
    state, _ = act(table([["5"] * 13, padded()], DISPLAY, PILE), 0, play("5", "5"))
    assert abluxxen.view(state, 1)["draw"] == {
        "seat": 0,
        "count": 2,
        "source": "display_first",
        "reason": "end_of_turn",
    }


def test_the_dealt_event_shows_each_player_only_their_own_hand():
    state, events = dealt()
    for seat in (0, 1, 2):
        shown = abluxxen.redact(events[0], seat)
        assert shown["type"] == "dealt" and shown["hand"] == state["hands"][seat]
        assert "hands" not in shown and "draw_pile" not in shown
        assert shown["hand_counts"] == [13, 13, 13] and shown["draw_pile_count"] == 64
    assert abluxxen.redact(events[0], None)["hand"] is None


def test_cards_drawn_from_the_draw_pile_are_seen_only_by_their_drawer():
    state = table([["4", "4"] + ["1"] * 11, padded()], DISPLAY, PILE)
    state, _ = act(state, 0, play("4", "4"))
    _, events = act(state, 0, {"type": "draw", "display": ["9", "10"]})
    drew = events[0]
    assert abluxxen.redact(drew, 0) == drew
    for seat in (1, None):
        shown = abluxxen.redact(drew, seat)
        assert "pile" not in shown and shown["pile_count"] == 0
        assert shown["display"] == ["9", "10"] and shown["refill"] == ["12", "1"]


def test_a_loser_draws_from_the_pile_unseen_by_the_others():
    state = table([padded("5"), padded("5")], DISPLAY, PILE)
    _, events = run(state, (0, play("5")), (1, play("5")), (1, attack(0)), (0, GIVE_UP))
    drew = events[-2]
    assert drew["type"] == "drew" and drew["pile"] == ["12"]
    assert "pile" not in abluxxen.redact(drew, 1) and abluxxen.redact(drew, 1)["pile_count"] == 1


def test_public_events_are_shown_to_everyone_unchanged():
    state = table([padded("5"), padded("5")], DISPLAY, PILE)
    _, events = run(state, (0, play("5")), (1, play("5")), (1, attack(0)))
    for event in events:
        if event["type"] != "drew":
            assert abluxxen.redact(event, None) == event


def test_once_the_game_is_over_every_hand_is_shown():
    state, events = act(table([["5"], ["6", "7"]]), 0, play("5"))
    assert abluxxen.view(state, None)["hands"] == [[], ["6", "7"]]
    assert events[-1]["hands"] == [[], ["6", "7"]]


@pytest.mark.parametrize("published", [False, True])
def test_no_view_or_redacted_event_holds_another_players_hidden_cards(published):
    def hidden(state, seat, command, events, after):
        for other in (None, *range(after["players"])):
            shown = abluxxen.view(after, other)
            if after["phase"] != "over":
                assert shown["hand"] == (None if other is None else after["hands"][other])
                assert shown["hands"] is None
            for event in events:
                redacted = abluxxen.redact(event, other)
                assert redacted["type"] == event["type"]
                if event["type"] == "drew" and other != event["seat"]:
                    assert "pile" not in redacted

    random_game(4, published, "hidden", max_steps=200, on_step=hidden)
