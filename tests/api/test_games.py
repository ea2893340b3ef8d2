"""Alien, Alakablast and Abluxxen through the REST API: options, what a seat sees at
the start, and refused commands (malformed, out of turn, illegal) writing nothing."""

import pytest

from shared.games import abluxxen, alakablast, alien


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, game, players, **options):
    seats = [{"name": f"p{i}"} for i in range(players)]
    response = client.post("/v1/games", json={"game": game, "seats": seats, "options": options})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def view_of(client, game, seat=None):
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    response = client.get(f"/v1/games/{game['id']}/view", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def rules_state(deps, game):
    """The engine's whole state: the facts the views must keep hidden."""
    return deps.service.load(game["id"])[1]["rules"]


def codes_in(value, codes):
    """Every string anywhere in a JSON value that is one of `codes`, sorted (a multiset)."""
    if isinstance(value, dict):
        return sorted(c for v in value.values() for c in codes_in(v, codes))
    if isinstance(value, list):
        return sorted(c for v in value for c in codes_in(v, codes))
    return [value] if isinstance(value, str) and value in codes else []


# Options


def test_alien_takes_its_options_and_its_variant(client):
    game = create(client, "alien", 3, seed=1, stack_seconds=2.5, no_math=True)
    options = client.get(f"/v1/games/{game['id']}").get_json()["options"]
    assert options["stack_seconds"] == 2.5 and options["no_math"] is True
    game = create(client, "alien", 2, seed=1, variant="no_math")
    assert view_of(client, game)["state"]["options"] == {"stack_seconds": 5, "no_math": True}


def test_abluxxen_plays_the_published_rules_as_an_option_or_a_variant(client):
    for options in ({"published": True}, {"variant": "published"}):
        game = create(client, "abluxxen", 2, seed=1, **options)
        assert view_of(client, game)["state"]["published"] is True
    assert view_of(client, create(client, "abluxxen", 2, seed=1))["state"]["published"] is False


@pytest.mark.parametrize(
    ("game", "options", "code"),
    [
        ("alien", {"stack_seconds": 61}, "bad_request"),  # the schema's range
        ("alien", {"stack_seconds": True}, "bad_request"),
        ("alien", {"published": True}, "bad_options"),  # another game's option
        ("alakablast", {"rounds": 2}, "bad_options"),  # Alakablast has none
        ("alakablast", {"variant": "no_math"}, "bad_options"),
        ("abluxxen", {"variant": "one_turn"}, "bad_options"),
        ("abluxxen", {"published": "maybe"}, "bad_request"),
    ],
)
def test_options_a_game_does_not_take_are_refused(client, game, options, code):
    body = {"game": game, "seats": [{"name": "a"}, {"name": "b"}], "options": options}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == code


# What a seat sees at the start


def test_an_alien_seat_sees_its_own_hand_and_the_table_card_only(client, deps):
    game = create(client, "alien", 4, seed=3)
    state = rules_state(deps, game)
    codes = set(alien.CARDS)
    for seat in range(4):
        view = view_of(client, game, seat)["state"]
        assert view["hand"] == state["hands"][seat]
        assert codes_in(view, codes) == sorted([*state["hands"][seat], state["table"]])
        assert view["hand_counts"] == [5, 5, 5, 5]
    assert codes_in(view_of(client, game)["state"], codes) == [state["table"]]


def test_an_abluxxen_seat_sees_its_own_hand_and_the_display_only(client, deps):
    for options in ({}, {"published": True}):
        game = create(client, "abluxxen", 3, seed=3, **options)
        state = rules_state(deps, game)
        codes = set(abluxxen.CARDS)
        for seat in range(3):
            view = view_of(client, game, seat)["state"]
            assert view["hand"] == state["hands"][seat] and view["hands"] is None
            assert codes_in(view, codes) == sorted([*state["hands"][seat], *state["display"]])
            assert [s["hand_count"] for s in view["seats"]] == [13, 13, 13]
        assert codes_in(view_of(client, game)["state"], codes) == sorted(state["display"])


def test_an_alakablast_seat_sees_its_hidden_cards_and_the_others_open_ones_only(client, deps):
    game = create(client, "alakablast", 3, seed=3)
    hands = rules_state(deps, game)["hands"]
    discard = rules_state(deps, game)["discard_zone"]
    codes = set(alakablast.CARDS)
    for seat in range(3):
        view = view_of(client, game, seat)["state"]
        for owner, hand in enumerate(view["hands"]):
            for card, truth in zip(hand, hands[owner], strict=True):
                assert card["open"] == truth["open"]
                shown = card["open"] != (owner == seat)  # own hidden, others' open
                assert card["spell"] == (truth["spell"] if shown else None)
        # Its own open cards appear nowhere as spell codes (nor others' hidden ones).
        visible = [
            c["spell"]
            for owner, hand in enumerate(hands)
            for c in hand
            if c["open"] != (owner == seat)
        ]
        assert codes_in(view, codes) == sorted(visible + discard)
    spectator = view_of(client, game)["state"]
    assert all(c["spell"] is None for hand in spectator["hands"] for c in hand)
    assert codes_in(spectator, codes) == sorted(discard)


# Alien: CAPTURED! from any seat


def test_an_alien_claim_may_come_from_a_seat_not_on_turn_and_opens_a_window(client):
    hands = [
        ["C01", "C02", "C03", "C04", "H1"],
        ["C05", "C06", "C07", "C08", "H2"],
        ["C09", "C12", "C13", "C14", "A6"],
    ]
    deck = alien.arrange_deck(hands, "C15")
    game = create(client, "alien", 3, seed=1, deck=deck)
    path, tokens = f"/v1/games/{game['id']}", [s["token"] for s in game["seats"]]
    claim = {"type": "claim", "card": "A6", "table": "C15"}
    assert view_of(client, game)["to_act"] == [0]
    assert view_of(client, game, 2)["legal"] == [claim]
    answer = client.post(f"{path}/commands", json=claim, headers=auth(tokens[2]))
    assert answer.status_code == 200
    assert [e["type"] for e in answer.get_json()["events"][:2]] == ["commanded", "claimed"]
    spectator = view_of(client, game)
    assert spectator["to_act"] == [0, 1]
    assert spectator["state"]["window"]["waiting"] == [0, 1]
    assert view_of(client, game, 0)["legal"] == [{"type": "stack"}]
    turn = client.post(f"{path}/commands", json={"type": "pass"}, headers=auth(tokens[0]))
    assert turn.get_json()["code"] == "not_your_turn"
    again = client.post(f"{path}/commands", json=claim, headers=auth(tokens[1]))
    assert again.get_json()["code"] == "illegal_move"  # one capture per table card
    for seat in (0, 1):
        stacked = client.post(
            f"{path}/commands", json={"type": "stack"}, headers=auth(tokens[seat])
        )
        assert stacked.status_code == 200
    after = view_of(client, game)
    assert after["to_act"] == [0] and after["state"]["window"] is None
    assert after["state"]["prisons"][2] == ["A6"] and after["state"]["hand_counts"][2] == 5


# Refused commands write nothing

# (game, options, bad commands (400 bad_command), commands seat 1 may not send now (409
# not_your_turn), commands seat 0 may not send (422 illegal_move)). Seat 0 is on turn.
REFUSALS = [
    (
        "alien",
        {"seed": 5},
        [
            {"type": "fly"},
            {"type": "pass", "cards": []},
            {"type": "play"},
            {"type": "play", "card": "A3"},
            {"type": "hunt", "card": "H1", "target": 1, "alien": 2},
            {"type": "hunt", "card": "H2", "target": 1},
            {"type": "take", "target": "1", "alien": 2},
            {"type": "claim", "card": "A1", "table": "H1"},
            {"type": "stack", "expected_version": -1},
            {"type": "close_window"},  # the table's own command
        ],
        [{"type": "pass"}, {"type": "stack"}],
        [{"type": "end_turn"}, {"type": "take", "target": 1, "alien": 3}],
    ),
    (
        "alakablast",
        {"seed": 5},
        [
            {"type": "fly"},
            {"type": "inform"},
            {"type": "inform", "dimension": "colour"},
            {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "W", "power": 1}},
            {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "X"}},
            {"type": "ask", "card": "2", "informant": 1},
            {"type": "duel", "rival": 1, "kind": "element", "card": 2},
            {"type": "choose", "card": 0, "spell": "W1"},
        ],
        [{"type": "ask", "card": 2, "informant": 0}, {"type": "choose", "card": 0}],
        [
            {"type": "ask", "card": 2, "informant": 0},  # asking yourself
            {"type": "ask", "card": 0, "informant": 1},  # a hidden card
            {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "L"}},
        ],
    ),
    (
        "abluxxen",
        {"seed": 5},
        [
            {"type": "fly"},
            {"type": "play"},
            {"type": "play", "cards": ["14"]},
            {"type": "play", "cards": [7]},
            {"type": "attack", "target": True},
            {"type": "keep", "take": "yes"},
            {"type": "answer", "choice": "run"},
            {"type": "stop", "now": True},
        ],
        [{"type": "play", "cards": ["X"]}, {"type": "stop"}],
        [{"type": "play", "cards": ["1", "2"]}, {"type": "stop"}, {"type": "draw", "display": []}],
    ),
]


@pytest.mark.parametrize(
    ("game_name", "options", "bad", "not_yours", "illegal"),
    REFUSALS,
    ids=[r[0] for r in REFUSALS],
)
def test_refused_commands_get_their_code_and_write_nothing(
    client, deps, game_name, options, bad, not_yours, illegal
):
    game = create(client, game_name, 3, **options)
    version = deps.store.version(game["id"])
    assert view_of(client, game)["to_act"] == [0]
    tokens = [s["token"] for s in game["seats"]]
    cases = (
        [(0, c, 400, "bad_command") for c in bad]
        + [(1, c, 409, "not_your_turn") for c in not_yours]
        + [(0, c, 422, "illegal_move") for c in illegal]
    )
    for seat, command, status, code in cases:
        response = client.post(
            f"/v1/games/{game['id']}/commands", json=command, headers=auth(tokens[seat])
        )
        assert (response.status_code, response.get_json()["code"]) == (status, code), command
        assert deps.store.version(game["id"]) == version
    # The seat on turn may still send what its view offers.
    command = view_of(client, game, 0)["legal"][0]
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=command, headers=auth(tokens[0])
    )
    assert response.status_code == 200, response.get_json()


def test_an_alakablast_ask_may_send_its_claim_as_null(client):
    game = create(client, "alakablast", 3, seed=5)
    ask = {"type": "ask", "card": 2, "informant": 1, "claim": None}
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=ask, headers=auth(game["seats"][0]["token"])
    )
    assert response.status_code == 200, response.get_json()
    commanded, asked = response.get_json()["events"][:2]
    assert commanded["command"] == ask and asked["claim"] is None
    assert view_of(client, game)["to_act"] == [1]
