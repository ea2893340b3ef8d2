"""Alien: what each seat sees. Hands are secret; prisons, the table card and the stacking
window are public; nobody sees the draw pile's order or the seed."""

import json

import pytest

from shared.games import alien
from shared.games.alien.scenarios import apply, new_game, started

HANDS = [
    ["C12", "C38", "A5", "H1", "C57"],
    ["A6", "A7", "C02", "C03", "C04"],
    ["A4", "A9", "C06", "C07", "C08"],
]
SUM = {"type": "claim", "card": "A6", "table": "C15"}


def game(seed="secret-seed"):
    return started(HANDS, "C15", seed=seed)


def codes_in(value):
    """Every card code anywhere in a JSON value."""
    text = json.dumps(value)
    return {code for code in alien.CARDS if f'"{code}"' in text}


def test_a_players_view_shows_their_own_hand_and_only_the_sizes_of_others():
    view = alien.view(game(), 1)
    assert view["hand"] == HANDS[1]
    assert view["hand_counts"] == [5, 5, 5]
    assert codes_in(view) == set(HANDS[1]) | {"C15"}


def test_a_spectator_sees_no_hand():
    view = alien.view(game(), None)
    assert view["hand"] is None
    assert codes_in(view) == {"C15"}


def test_the_view_has_this_shape():
    view = alien.view(game(), 0)
    assert view == {
        "phase": "play",
        "players": 3,
        "options": {"stack_seconds": 5, "no_math": False},
        "turn": 0,
        "began_with": 5,
        "acted": False,
        "took": False,
        "table": "C15",
        "table_claimed": False,
        "hand": HANDS[0],
        "hand_counts": [5, 5, 5],
        "prisons": [[], [], []],
        "draw_pile_count": 54,
        "played_count": 0,
        "used_hunter_count": 0,
        "window": None,
        "winner": None,
    }


def test_prisons_and_the_table_card_are_public():
    state = apply(game(), 0, {"type": "capture", "card": "A5"})[0]
    for seat in (None, 0, 1, 2):
        view = alien.view(state, seat)
        assert view["prisons"] == [["A5"], [], []]
        assert view["table"] == "C15"


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_the_window_and_who_has_stacked_are_in_every_view(seat):
    state = apply(apply(game(), 1, SUM)[0], 2, {"type": "stack"})[0]
    assert alien.view(state, seat)["window"] == {
        "claimant": 1,
        "alien": "A6",
        "table": "C15",
        "stacked": [2],
        "waiting": [0],
        "seconds": 5,
    }


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_no_view_shows_the_seed_the_draw_pile_or_other_hands(seat):
    state = game()
    text = json.dumps(alien.view(state, seat))
    assert "secret-seed" not in text
    own = state["hands"][seat] if seat is not None else []
    assert codes_in(alien.view(state, seat)) <= {state["table"], *own}


def test_views_round_trip_through_json():
    view = alien.view(apply(game(), 1, SUM)[0], 0)
    assert json.loads(json.dumps(view)) == view


# Redacted events


def deal_events(seed="secret-seed"):
    state = new_game(3, seed)
    return alien.decide(state, None, {"type": "start"})


def test_the_deal_shows_each_seat_only_its_own_hand():
    dealt = deal_events()[0]
    seen = alien.redact(dealt, 1)
    assert seen["type"] == "dealt"
    assert seen["hands"] == [5, dealt["hands"][1], 5]
    assert seen["draw_pile"] == 55
    assert alien.redact(dealt, None)["hands"] == [5, 5, 5]


def test_a_card_put_back_at_setup_hides_where_it_went():
    events = [{"type": "turned_over", "card": "H1", "returned_to": 17}]
    for seat in (None, 0):
        assert alien.redact(events[0], seat) == {
            "type": "turned_over",
            "card": "H1",
            "returned_to": None,
        }


def test_drawn_cards_are_seen_by_the_drawer_only():
    drew = {"type": "drew", "seat": 0, "cards": ["C46", "C57"]}
    assert alien.redact(drew, 0) == drew
    assert alien.redact(drew, 1) == {"type": "drew", "seat": 0, "cards": 2}
    assert alien.redact(drew, None) == {"type": "drew", "seat": 0, "cards": 2}


def test_nobody_sees_the_order_of_a_rebuilt_draw_pile():
    event = {"type": "reshuffled", "draw_pile": ["C35", "H1", "C38"]}
    for seat in (None, 0, 1):
        assert alien.redact(event, seat) == {"type": "reshuffled", "draw_pile": 3}


@pytest.mark.parametrize(
    "event, field, parties",
    [
        (
            {"type": "hunted", "seat": 0, "card": "H1", "target": 2, "alien": None, "taken": "A9"},
            "taken",
            (0, 2),
        ),
        (
            {
                "type": "wrong_claim",
                "seat": 1,
                "card": "A7",
                "table": "C15",
                "taker": 0,
                "taken": "C02",
            },
            "taken",
            (1, 0),
        ),
        ({"type": "handed_over", "seat": 2, "to": 1, "card": "C06"}, "card", (2, 1)),
    ],
)
def test_a_card_taken_blind_is_seen_only_by_who_gave_and_who_got_it(event, field, parties):
    for seat in (None, 0, 1, 2, 3):
        seen = alien.redact(event, seat)
        assert seen["type"] == event["type"]
        assert seen[field] == (event[field] if seat in parties else None)
        assert {k: v for k, v in seen.items() if k != field} == {
            k: v for k, v in event.items() if k != field
        }


def test_public_events_are_shown_to_everyone_unchanged():
    state = game()
    events = apply(state, 0, {"type": "play", "card": "C12"})[1]
    events += apply(state, 1, SUM)[1]
    for event in events:
        assert alien.redact(event, None) == event


def test_redact_does_not_change_the_event():
    dealt = deal_events()[0]
    before = json.dumps(dealt)
    alien.redact(dealt, 0)
    assert json.dumps(dealt) == before
