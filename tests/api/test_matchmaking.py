"""Quick match over the API (in-process, fakeredis) with a matchmaker run by hand:
tickets opened, read, listed and cancelled; every bad request a stable 4xx that
writes nothing; a match puts the game in both players' games and `matched` in their
inboxes; a cancel racing a match has one winner."""

import pytest

from services.matchmaker.matchmaker import Matchmaker
from shared.matchmaking import matching
from shared.matchmaking import tickets as t
from tests.api.helpers import assert_problem


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def guest(client, name="ana"):
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201
    return response.get_json()


def open_ticket(client, player, **body):
    body = {"game": "alien", "players": 2, **body}
    return client.post("/v1/matchmaking/tickets", json=body, headers=bearer(player["token"]))


def stored(deps):
    """Every key the deployment holds (what a refusal must leave alone)."""
    return sorted(deps.redis.scan_iter(match=f"{deps.keys.prefix}*"))


@pytest.fixture
def ana(client):
    return guest(client, "ana")


@pytest.fixture
def bea(client):
    return guest(client, "bea")


def test_a_ticket_is_opened_read_listed_and_cancelled(client, ana):
    opened = open_ticket(client, ana, players=[2, 4], options={"no_math": True})
    assert opened.status_code == 201, opened.get_json()
    ticket = opened.get_json()
    assert ticket["status"] == "waiting" and ticket["players"] == [2, 4]
    assert ticket["player"] == ana["id"] and ticket["options"] == {"no_math": True}
    assert ticket["expires_at"] - ticket["opened_at"] == t.DEFAULT_EXPIRES * 1000
    assert "abandoner" not in ticket
    got = client.get(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(ana["token"]))
    assert got.status_code == 200 and got.get_json() == ticket
    listed = client.get("/v1/players/me/tickets", headers=bearer(ana["token"])).get_json()
    assert [x["id"] for x in listed["tickets"]] == [ticket["id"]]
    gone = client.delete(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(ana["token"]))
    assert gone.status_code == 200 and gone.get_json()["status"] == "cancelled"
    again = client.delete(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(ana["token"]))
    assert_problem(again, 409, "ticket_cancelled")
    assert again.get_json()["errors"]["ticket"]["status"] == "cancelled"
    # Cancelled, it no longer counts: the same queue takes a new ticket.
    assert open_ticket(client, ana, players=[2, 4], options={"no_math": True}).status_code == 201


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"game": "chess"}, 400, "bad_request"),
        ({"players": 9}, 400, "bad_player_count"),
        ({"players": 1}, 400, "bad_player_count"),
        ({"players": [4, 3]}, 400, "bad_player_count"),
        ({"game": "abluxxen", "players": [2, 6]}, 400, "bad_player_count"),
        ({"players": [2, 3, 4]}, 400, "bad_request"),
        ({"players": "two"}, 400, "bad_request"),
        ({"options": {"rounds": 3}}, 400, "bad_options"),
        ({"options": {"seed": 7}}, 400, "bad_options"),
        ({"options": {"variant": "nonsense"}}, 400, "bad_options"),
        ({"bots": {"after_seconds": -1}}, 400, "bad_request"),
        ({"bots": {"after_seconds": 5, "level": "grandmaster"}}, 400, "bad_request"),
        ({"expires_seconds": 5}, 400, "bad_request"),
        ({"rated": "yes"}, 400, "bad_request"),
    ],
)
def test_bad_tickets_are_refused_and_write_nothing(client, deps, ana, body, status, code):
    before = stored(deps)
    assert_problem(open_ticket(client, ana, **body), status, code)
    assert stored(deps) == before


def test_a_ticket_needs_a_player_token(client, ana):
    response = client.post("/v1/matchmaking/tickets", json={"game": "alien", "players": 2})
    assert_problem(response, 401, "unauthorized")
    assert_problem(client.get("/v1/players/me/tickets"), 401, "unauthorized")


def test_another_players_ticket_is_unknown_to_me(client, deps, ana, bea):
    ticket = open_ticket(client, ana).get_json()
    for method in (client.get, client.delete):
        response = method(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(bea["token"]))
        assert_problem(response, 404, "unknown_ticket")
    assert deps.matchmaking.ticket(ticket["id"])["status"] == "waiting"
    theirs = client.get("/v1/players/me/tickets", headers=bearer(bea["token"])).get_json()
    assert theirs == {"tickets": []}
    bad = client.get("/v1/matchmaking/tickets/nonsense", headers=bearer(ana["token"]))
    assert_problem(bad, 404, "unknown_ticket")


def test_one_ticket_a_queue_and_five_at_most(client, deps, ana):
    assert open_ticket(client, ana).status_code == 201
    before = stored(deps)
    second = open_ticket(client, ana)
    assert_problem(second, 409, "duplicate_ticket")
    assert stored(deps) == before
    # Another count is the same queue (counts are matched within a queue): refused.
    assert_problem(open_ticket(client, ana, players=[3, 4]), 409, "duplicate_ticket")
    for n in range(1, 5):  # four more queues (each turn time its own): five in all
        assert open_ticket(client, ana, turn_seconds=n * 10).status_code == 201
    before = stored(deps)
    assert_problem(open_ticket(client, ana, turn_seconds=60), 409, "too_many_tickets")
    assert stored(deps) == before


def test_two_players_are_matched_into_one_game(client, deps, projector, ana, bea):
    first = open_ticket(client, ana).get_json()
    second = open_ticket(client, bea).get_json()
    assert Matchmaker(deps).round() == 1
    a = client.get(f"/v1/matchmaking/tickets/{first['id']}", headers=bearer(ana["token"]))
    b = client.get(f"/v1/matchmaking/tickets/{second['id']}", headers=bearer(bea["token"]))
    a, b = a.get_json(), b.get_json()
    assert a["status"] == b["status"] == "matched"
    assert a["game_id"] == b["game_id"] and {a["seat"], b["seat"]} == {0, 1}
    game_id = a["game_id"]
    projector.project(game_id)
    for player, ticket in ((ana, a), (bea, b)):
        games = client.get("/v1/players/me/games", headers=bearer(player["token"])).get_json()
        assert [(g["id"], g["seat"], g["status"]) for g in games["games"]] == [
            (game_id, ticket["seat"], "active")
        ]
        inbox = client.get("/v1/players/me/inbox", headers=bearer(player["token"])).get_json()
        matched = [i for i in inbox["items"] if i["kind"] == "matched"]
        assert matched == [
            {**matched[0], "game_id": game_id, "seat": ticket["seat"], "ticket_id": ticket["id"]}
        ]
        # The player's token plays its seat.
        view = client.get(f"/v1/games/{game_id}/view", headers=bearer(player["token"]))
        assert view.status_code == 200 and view.get_json()["seat"] == ticket["seat"]
    # A matched ticket cannot be cancelled; the answer names its game and seat.
    late = client.delete(f"/v1/matchmaking/tickets/{first['id']}", headers=bearer(ana["token"]))
    assert_problem(late, 409, "ticket_matched")
    assert late.get_json()["errors"]["ticket"]["game_id"] == game_id
    # Matched, it no longer counts: ana may queue again.
    assert open_ticket(client, ana).status_code == 201


def test_a_cancel_that_loses_to_a_match_says_so(client, deps, ana, bea, monkeypatch):
    first = open_ticket(client, ana).get_json()
    open_ticket(client, bea)
    store = deps.matchmaking
    real = store.ticket

    def matched_meanwhile(ticket_id):  # the cancel reads "waiting", then the match lands
        doc = real(ticket_id)
        monkeypatch.setattr(store, "ticket", real)
        assert Matchmaker(deps).round() == 1
        return doc

    monkeypatch.setattr(store, "ticket", matched_meanwhile)
    cancel = client.delete(f"/v1/matchmaking/tickets/{first['id']}", headers=bearer(ana["token"]))
    assert_problem(cancel, 409, "ticket_matched")
    assert real(first["id"])["status"] == "matched"


def test_bots_complete_a_short_table_after_their_time(client, deps, projector, ana):
    ticket = open_ticket(client, ana, players=[3, 4], bots={"after_seconds": 30}).get_json()
    clock = [ticket["opened_at"] / 1000 + 10]
    assert Matchmaker(deps, clock=lambda: clock[0]).round() == 0
    clock[0] += 21
    assert Matchmaker(deps, clock=lambda: clock[0]).round() == 1
    matched = deps.matchmaking.ticket(ticket["id"])
    assert matched["status"] == "matched"
    _, game = deps.service.load(matched["game_id"], fresh=True)
    assert game["status"] == "active" and len(game["seats"]) == 3
    assert sorted(bool(s["bot"]) for s in game["seats"]) == [False, True, True]
    assert game["seats"][matched["seat"]]["player"] == ana["id"]
    # Ana is unrated: the beginner's level, not the calibrated level nearest 1000.
    expected = matching.UNRATED_LEVEL
    assert [s["bot"] for s in game["seats"] if s["bot"]] == [expected, expected]


def test_a_ticket_expires(client, deps, ana):
    ticket = open_ticket(client, ana, expires_seconds=60).get_json()
    later = ticket["expires_at"] / 1000 + 1
    Matchmaker(deps, clock=lambda: later).round()
    got = client.get(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(ana["token"]))
    assert got.get_json()["status"] == "expired"
    assert_problem(
        client.delete(f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(ana["token"])),
        409,
        "ticket_expired",
    )


def test_an_erased_players_tickets_are_cancelled(client, deps, ana, bea):
    ticket = open_ticket(client, ana).get_json()
    assert client.delete("/v1/players/me", headers=bearer(ana["token"])).status_code == 204
    assert deps.matchmaking.ticket(ticket["id"])["status"] == "cancelled"
    open_ticket(client, bea)
    assert Matchmaker(deps).round() == 0  # bea is not seated with a deleted player
