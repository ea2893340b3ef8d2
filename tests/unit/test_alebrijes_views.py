"""Alebrijes: what each seat may see, in its view and in its event feed."""

import re

import orjson

from shared.games import alebrijes

CARD = re.compile(r"\b[BGPOJ][1-5]\*?")


def game(players=3, seed="views", **options):
    """A started game with a fixed deck: seat 0 holds CARDS[0:10], seat 1 the next 10..."""
    config = {
        "players": players,
        "seed": seed,
        "deck": list(alebrijes.CARDS),
        "options": alebrijes.configure(players, options),
    }
    state = alebrijes.initial(config)
    events = alebrijes.decide(state, None, {"type": "start"})
    return fold(state, events), events


def fold(state, events):
    for event in events:
        state = alebrijes.evolve(state, event)
    return state


def act(state, seat, command):
    events = alebrijes.decide(state, seat, command)
    return fold(state, events), events


def cards_in(value):
    """Every card code in a JSON value."""
    return CARD.findall(orjson.dumps(value).decode())


def test_a_view_shows_the_own_hand_sorted_and_of_others_only_counts():
    state, _ = game(3)
    view = alebrijes.view(state, 1)
    assert view["hand"] == alebrijes.CARDS[10:20]
    assert view["hand_sizes"] == [10, 10, 10]
    assert view["draw_pile_size"] == 50
    rest = {key: value for key, value in view.items() if key != "hand"}
    assert cards_in(rest) == []


def test_the_view_has_the_documented_shape():
    state, _ = game(3, one_turn=True)
    assert alebrijes.view(state, 0) == {
        "game": "alebrijes",
        "seat": 0,
        "players": 3,
        "options": {"rounds": 3, "one_turn": True},
        "phase": "exchange",
        "round": 1,
        "rounds": 3,
        "starting_seat": 0,
        "turn": 0,
        "to_act": [0],
        "leader": None,
        "hand": alebrijes.CARDS[0:10],
        "laid_aside": [],
        "hand_sizes": [10, 10, 10],
        "laid_aside_counts": [0, 0, 0],
        "draw_pile_size": 50,
        "table": None,
        "passed": [False, False, False],
        "round_scores": [],
        "totals": [0, 0, 0],
        "rounds_won": [0, 0, 0],
        "round_winner": None,
        "result": None,
    }


def test_the_spectator_sees_no_hand():
    state, _ = game(3)
    view = alebrijes.view(state, None)
    assert view["hand"] is None and view["laid_aside"] is None
    assert cards_in(view) == []


def test_a_view_never_shows_the_draw_pile_order_or_the_seed():
    state, _ = game(2, seed="a-very-secret-seed")
    for seat in (0, 1, None):
        text = orjson.dumps(alebrijes.view(state, seat)).decode()
        assert "a-very-secret-seed" not in text
        assert not set(alebrijes.view(state, seat)) & {"draw_pile", "seed", "deck", "hands"}


def test_a_seat_sees_the_cards_it_laid_aside_and_others_only_their_count():
    state, _ = game(2)
    state, _ = act(state, 0, {"type": "exchange", "cards": ["B1", "B2*"]})
    assert alebrijes.view(state, 0)["laid_aside"] == ["B1", "B2*"]
    assert alebrijes.view(state, 1)["laid_aside"] == []
    assert alebrijes.view(state, 1)["laid_aside_counts"] == [2, 0]


def test_a_deal_shows_each_seat_only_its_own_hand_and_nobody_the_draw_pile():
    _, (dealt,) = game(3)
    for seat in (0, 1, 2):
        seen = alebrijes.redact(dealt, seat)
        assert seen["hands"] == [
            alebrijes.CARDS[10 * s : 10 * s + 10] if s == seat else None for s in range(3)
        ]
        assert seen["draw_pile"] is None
        assert seen["hand_sizes"] == [10, 10, 10] and seen["draw_pile_size"] == 50
    spectator = alebrijes.redact(dealt, None)
    assert spectator["hands"] == [None, None, None] and cards_in(spectator) == []


def test_an_exchange_shows_the_cards_only_to_the_exchanging_seat():
    state, _ = game(2)
    _, (event,) = act(state, 0, {"type": "exchange", "cards": ["B1"]})
    assert alebrijes.redact(event, 0) == event
    for seat in (1, None):
        assert alebrijes.redact(event, seat) == {
            "type": "exchanged",
            "seat": 0,
            "count": 1,
            "laid_aside": None,
            "drawn": None,
        }


def test_a_pass_with_an_exchange_shows_the_cards_only_to_the_passing_seat():
    state, _ = game(2)
    state, _ = act(state, 0, {"type": "exchange", "cards": []})
    state, _ = act(state, 1, {"type": "exchange", "cards": []})
    state, _ = act(state, 0, {"type": "play", "cards": ["B1"]})
    _, (passed, _cleared) = act(state, 1, {"type": "pass", "exchange": ["B4"]})
    assert alebrijes.redact(passed, 1)["laid_aside"] == ["B4"]
    assert alebrijes.redact(passed, 0)["laid_aside"] is None
    assert alebrijes.redact(passed, 0)["count"] == 1


def test_ollin_draws_show_each_seat_only_its_own_card():
    event = {
        "type": "ollin_draws",
        "seat": 0,
        "draws": [{"seat": 1, "card": "J1"}, {"seat": 2, "card": "O4"}],
    }
    assert alebrijes.redact(event, 1)["draws"] == [
        {"seat": 1, "card": "J1"},
        {"seat": 2, "card": None},
    ]
    assert alebrijes.redact(event, 0)["draws"] == [
        {"seat": 1, "card": None},
        {"seat": 2, "card": None},
    ]
    assert cards_in(alebrijes.redact(event, None)) == []


def test_a_card_laid_aside_by_ollin_is_seen_only_by_its_owner():
    event = {"type": "laid_aside", "seat": 2, "card": "P5"}
    assert alebrijes.redact(event, 2) == event
    assert alebrijes.redact(event, 0) == {"type": "laid_aside", "seat": 2, "card": None}
    assert alebrijes.redact(event, None)["card"] is None


def test_plays_and_passes_without_exchange_and_cleared_tables_are_public():
    played = {
        "type": "played",
        "seat": 0,
        "cards": ["B2", "B2*"],
        "colour": "B",
        "number": 2,
        "count": 2,
        "ollin": "lay_aside",
    }
    cleared = {"type": "table_cleared", "leader": 1, "reason": "all_passed"}
    for event in (played, cleared):
        for seat in (0, 1, None):
            assert alebrijes.redact(event, seat) == event


def test_the_round_end_reveals_the_remaining_hands_to_everyone():
    event = {
        "type": "round_ended",
        "round": 1,
        "winner": 0,
        "hands": [[], ["P2"]],
        "scores": [0, -2],
        "totals": [0, -2],
        "rounds_won": [1, 0],
        "game_over": False,
    }
    assert alebrijes.redact(event, None) == event


def test_redact_does_not_change_the_event_nor_share_its_lists():
    _, (dealt,) = game(2)
    before = orjson.dumps(dealt)
    seen = alebrijes.redact(dealt, 0)
    seen["hands"][0].append("J1")
    assert orjson.dumps(dealt) == before
