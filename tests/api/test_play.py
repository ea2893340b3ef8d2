"""The REST contract, in-process: create, claim, view, command, events, lobby."""

import pytest

from shared import jsonutil
from shared.games import alebrijes
from tests.api.helpers import auth, card_codes, create, play_to_the_end, view_of
from tests.helpers import humans


def test_created_game_answers_views_before_and_after_projection(client, projector):
    game = create(client, humans("ana", "bo"), seed=1)
    before = view_of(client, game, 0)
    projector.project(game["id"])
    assert view_of(client, game, 0) == before
    assert before["seat"] == 0 and before["status"] == "active" and before["to_act"] == [0]
    assert before["legal"] and all("type" in c for c in before["legal"])


def test_a_seat_sees_its_own_hand_and_no_other_card(client, projector):
    game = create(client, humans("ana", "bo", "cy"), seed=1)
    projector.project(game["id"])
    for seat in range(3):
        view = view_of(client, game, seat)
        # Before anyone has played, the only cards a seat may see are its own.
        assert card_codes(view["state"]) == sorted(view["state"]["hand"])
        assert len(view["state"]["hand"]) == 10
        log = client.get(
            f"/v1/games/{game['id']}/events", headers=auth(game["seats"][seat]["token"])
        )
        assert card_codes(log.get_json()["events"]) == sorted(view["state"]["hand"])
    spectator = view_of(client, game)
    assert spectator["legal"] == [] and card_codes(spectator["state"]) == []
    assert card_codes(client.get(f"/v1/games/{game['id']}/events").get_json()) == []


def test_an_exchange_shows_its_cards_to_the_exchanging_seat_only(client):
    game = create(client, humans("ana", "bo"), seed=3)
    hand = view_of(client, game, 0)["state"]["hand"]
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "exchange", "cards": hand[:2]},
        headers=auth(game["seats"][0]["token"]),
    )
    command, mine = response.get_json()["events"]
    assert command["type"] == "commanded" and command["command"]["cards"] == hand[:2]
    assert mine["type"] == "exchanged" and sorted(mine["laid_aside"]) == sorted(hand[:2])
    assert len(mine["drawn"]) == 2
    theirs = client.get(
        f"/v1/games/{game['id']}/events?after={game['version']}",
        headers=auth(game["seats"][1]["token"]),
    ).get_json()["events"]
    assert [e["type"] for e in theirs] == ["commanded", "exchanged"]
    assert "command" not in theirs[0]  # what another seat sent is private
    assert theirs[1]["count"] == 2
    assert card_codes(theirs) == []


def test_a_command_returns_the_new_version_and_the_events_as_the_seat_sees_them(client):
    game = create(client, humans("ana", "bo"), seed=4)
    command = view_of(client, game, 0)["legal"][0]
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=command, headers=auth(game["seats"][0]["token"])
    )
    moved = response.get_json()
    assert response.status_code == 200
    assert moved["version"] > game["version"]
    assert [e["version"] for e in moved["events"]] == list(
        range(game["version"] + 1, moved["version"] + 1)
    )


def test_an_open_seat_is_claimed_and_the_game_starts(client, projector):
    game = create(client, [{"name": "ana"}, {"open": True}])
    projector.project(game["id"])
    lobby = client.get("/v1/games").get_json()["games"]
    assert [g["id"] for g in lobby] == [game["id"]]
    assert view_of(client, game)["status"] == "waiting"
    response = client.post(f"/v1/games/{game['id']}/seats/1", json={"name": "bo"})
    assert response.status_code == 200
    token = response.get_json()["token"]
    projector.project(game["id"])
    assert client.get("/v1/games").get_json()["games"] == []
    mine = client.get(f"/v1/games/{game['id']}/view", headers=auth(token)).get_json()
    assert mine["seat"] == 1 and mine["status"] == "active"


def test_the_log_is_redacted_while_running_and_whole_once_finished(client, deps, projector):
    game = create(client, humans("ana", "bo"), seed=6, rounds=1)
    running = client.get(f"/v1/games/{game['id']}/events", headers=auth(game["seats"][0]["token"]))
    redacted = running.get_json()["events"]
    whole = [r.event for r in deps.store.read(game["id"])]
    assert "seed" not in redacted[0] and "deck" not in redacted[0]
    assert jsonutil.dumps(redacted) != jsonutil.dumps(whole)
    final = play_to_the_end(client, game, projector, 2)
    assert final["result"]["winners"] and len(final["result"]["scores"]) == 2
    assert final["seed"] == 6  # a number, as it was chosen
    finished = client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert [{k: v for k, v in e.items() if k not in ("version", "at")} for e in finished] == [
        r.event for r in deps.store.read(game["id"])
    ]


def test_events_are_paged_by_version(client):
    game = create(client, humans("ana", "bo"), seed=6)
    page = client.get(f"/v1/games/{game['id']}/events?after=1&limit=1").get_json()
    assert [e["version"] for e in page["events"]] == [2] and page["version"] == game["version"]


def test_the_summary_is_public_and_marks_a_custom_deck(client, projector):

    game = create(client, humans("ana", "bo"), deck=list(alebrijes.CARDS))
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["custom_deck"] is True and summary["seed"] is None
    assert "deck" not in summary and "seed_sha256" in summary


def test_the_interactive_documentation_is_served(client):
    assert client.get("/docs").status_code == 200
    assert client.get("/openapi.json").get_json()["info"]["title"] == "tablestream"


def test_a_command_body_is_parsed_once(client, monkeypatch):
    game = create(client, humans("ana", "bo"), seed=4)
    command = view_of(client, game, 0)["legal"][0]
    body = jsonutil.dumps(command)
    parsed = []
    loads = jsonutil.loads
    monkeypatch.setattr(jsonutil, "loads", lambda raw: parsed.append(raw) or loads(raw))
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        data=body,
        content_type="application/json",
        headers=auth(game["seats"][0]["token"]),
    )
    assert response.status_code == 200, response.get_json()
    assert parsed.count(body) == 1


QUERIES = [
    "",
    "?after=3",
    "?after=3&wait=5",
    "?wait=30&after=0",
    "?wait=0",
    "?after=007",
    "?after=9223372036854775807",  # the largest version: 19 digits, through webargs
    "?after=9223372036854775808",
    "?after=" + "9" * 5000,
    "?after=-1",
    "?after=",
    "?after=1.5",
    "?after=%C2%B2",  # a digit, but not an ASCII one
    "?wait=31",
    "?wait=2.5",
    "?wait=" + "9" * 5000,
    "?after=1&after=2",
    "?other=1",
    "?after=x",
]


@pytest.mark.parametrize("query", QUERIES)
def test_the_view_query_is_read_as_webargs_reads_it(app, query):
    """play.view_query reads plain numbers itself: the same query, or the same 400."""
    from werkzeug.exceptions import HTTPException

    from services.api import play

    def outcome(read):
        with app.test_request_context(f"/v1/games/g/view{query}"):
            try:
                return read()
            except HTTPException as error:
                return error.code, getattr(error, "data", None)

    assert outcome(play.view_query) == outcome(lambda: play._parsed(play.VIEW_QUERY))
