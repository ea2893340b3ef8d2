"""Alakablast: what each seat and a spectator may see, in views and in redacted events."""

import shared.games.alakablast as game
from tests.alakablast_tables import (
    after,
    as_json,
    fixed_deck,
    new_table,
    play,
    started,
)

DEAL = [
    (["W1", "F1"], ["P2", "W2"]),
    (["W3", "F3"], ["L0", "S7"]),
    (["P3", "P4"], ["F4", "F5"]),
]


def table():
    return started(3, DEAL, pile=["W6", "F6"])


def started_deck():
    return fixed_deck(3, DEAL, pile=["W6", "F6"])


def faces(view, owner):
    return [card["spell"] for card in view["hands"][owner]]


def test_the_view_has_the_documented_shape():
    view = game.view(table(), 1)
    assert list(view) == [
        "game",
        "players",
        "seat",
        "phase",
        "turn",
        "turn_number",
        "hand_size",
        "target",
        "gems",
        "hands",
        "discard_zone",
        "draw_pile",
        "question",
        "duel",
        "to_act",
        "result",
    ]
    assert view["game"] == "alakablast" and view["seat"] == 1 and view["players"] == 3
    assert view["phase"] == "turn" and view["turn"] == 0 and view["to_act"] == [0]
    assert view["hand_size"] == 4 and view["target"] == 6 and view["gems"] == [0, 0, 0]
    assert view["draw_pile"] == 49 - 12 - 6
    assert view["hands"][1][2] == {
        "open": True,
        "spell": None,
        "told": {"element": None, "power": None, "special": False},
    }
    assert view["hands"][1][0] == {"open": False, "spell": "W3", "told": None}


def test_a_seat_sees_its_hidden_cards_and_everyone_elses_open_cards():
    view = game.view(table(), 0)
    assert faces(view, 0) == ["W1", "F1", None, None]
    assert faces(view, 1) == [None, None, "L0", "S7"]
    assert faces(view, 2) == [None, None, "F4", "F5"]


def test_a_seat_sees_of_its_own_open_cards_only_what_it_was_told():
    ask = {"type": "ask", "card": 2, "informant": 1}
    state = after(table(), (0, ask), (1, {"type": "inform", "dimension": "power"}))
    mine = game.view(state, 0)["hands"][0]
    assert mine[2] == {
        "open": True,
        "spell": None,
        "told": {"element": None, "power": 2, "special": False},
    }
    assert mine[3]["spell"] is None and mine[3]["told"]["power"] == 2


def test_what_a_player_was_told_is_public():
    ask = {"type": "ask", "card": 2, "informant": 1}
    state = after(table(), (0, ask), (1, {"type": "inform", "dimension": "element"}))
    for seat in (0, 1, 2, None):
        assert game.view(state, seat)["hands"][0][2]["told"]["element"] == "P"


def test_a_spectator_sees_no_card_in_any_hand():
    view = game.view(table(), None)
    assert all(card["spell"] is None for hand in view["hands"] for card in hand)
    assert view["seat"] is None


def test_the_discard_zone_is_public_and_sorted():
    zones = [game.view(table(), seat)["discard_zone"] for seat in (0, 1, 2, None)]
    assert zones[0] == zones[1] == zones[2] == zones[3] == table()["discard_zone"]
    assert len(zones[0]) == 6
    assert zones[0] == sorted(zones[0], key=lambda c: ("WFPLS".index(c[0]), int(c[1])))


def test_the_view_never_shows_the_seed_or_the_draw_pile_order():
    state = started(3, DEAL, pile=["W6", "F6"], seed="a-very-secret-seed")
    for seat in (0, 1, 2, None):
        text = str(game.view(state, seat))
        assert "a-very-secret-seed" not in text
        assert game.view(state, seat)["draw_pile"] == len(state["draw_pile"])


def test_the_question_is_public_while_the_informant_answers():
    state = after(table(), (0, {"type": "ask", "card": 3, "informant": 2, "claim": {"power": 2}}))
    for seat in (0, 1, 2, None):
        assert game.view(state, seat)["question"] == {
            "asker": 0,
            "informant": 2,
            "card": 3,
            "claim": {"power": 2},
        }
        assert game.view(state, seat)["phase"] == "answer"


def test_the_dealt_event_shows_each_seat_its_hidden_cards_and_the_others_open_cards():
    dealt = game.decide(new_table(3, started_deck()), None, {"type": "start"})[0]
    seen = game.redact(dealt, 1)
    assert seen["hands"] == [
        {"hidden": 2, "open": ["P2", "W2"]},
        {"hidden": ["W3", "F3"], "open": 2},
        {"hidden": 2, "open": ["F4", "F5"]},
    ]
    assert seen["discard_zone"] == dealt["discard_zone"]
    assert seen["draw_pile"] == len(dealt["draw_pile"]) == 31


def test_a_spectator_sees_only_counts_in_the_dealt_event():
    dealt = game.decide(new_table(3, started_deck()), None, {"type": "start"})[0]
    seen = game.redact(dealt, None)
    assert seen["hands"] == [{"hidden": 2, "open": 2}] * 3
    assert seen["type"] == "dealt"


def test_drawn_cards_are_seen_by_whoever_could_see_them_at_the_table():
    opened = {"type": "cards_drawn", "seat": 0, "cards": ["W6"], "open": True}
    hidden = {"type": "cards_drawn", "seat": 0, "cards": ["F6"], "open": False}
    assert game.redact(opened, 0)["cards"] == 1
    assert game.redact(opened, 1)["cards"] == ["W6"]
    assert game.redact(opened, None)["cards"] == 1
    assert game.redact(hidden, 0)["cards"] == ["F6"]
    assert game.redact(hidden, 1)["cards"] == 1
    assert game.redact(hidden, None)["cards"] == 1
    assert game.redact(hidden, 1)["open"] is False and game.redact(hidden, 1)["seat"] == 0


def test_public_events_are_the_same_for_everyone():
    moves = [
        (0, {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "P"}}),
        (1, {"type": "inform", "dimension": "power"}),
        (1, {"type": "duel", "rival": 2, "kind": "power", "card": 2, "dimension": "element"}),
    ]
    _, events = play(table(), *moves)
    for event in events:
        assert all(game.redact(event, seat) == event for seat in (0, 1, 2, None))


def test_redact_keeps_the_type_and_never_changes_the_event():
    state = table()
    events = game.decide(new_table(3, started_deck()), None, {"type": "start"})
    events += game.decide(
        state, 0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "power"}
    )
    for event in events:
        before = as_json(event)
        for seat in (0, 1, 2, None):
            assert game.redact(event, seat)["type"] == event["type"]
        assert event == before


def test_views_and_redacted_events_are_plain_json():
    state = after(
        table(), (0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "power"})
    )
    state = after(state, (0, {"type": "choose", "card": 1}))
    for seat in (0, 1, 2, None):
        view = game.view(state, seat)
        assert as_json(view) == view


def test_every_card_is_shown_once_the_game_is_over():
    deal = [(["W1", "W2"], ["W3", "W4", "W5"]), (["F1", "F2"], ["F3", "F4", "F5"])]
    state = after(
        started(2, deal),
        (0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "power"}),
    )
    for _ in range(4):
        state = after(state, (0, {"type": "choose", "card": 0}), (1, {"type": "choose", "card": 0}))
    state = after(state, (0, {"type": "choose", "card": 0}), (1, {"type": "choose", "card": 0}))
    assert game.view(state, 0)["phase"] == "over"
    assert game.view(state, 0)["result"]["reason"] == "shared_victory"
    finished = started(3, DEAL)
    finished = game.evolve(
        finished, {"type": "game_over", "winners": [0], "scores": [6, 0, 0], "reason": "gem_target"}
    )
    view = game.view(finished, None)
    assert all(card["spell"] is not None for hand in view["hands"] for card in hand)
