"""One spelling per thing: a seat's token, a query's whole number, a stream's resume
point, a body's charset and its fields each have exactly one way to be written; any
other is refused with a stable code, so no two callers (or caches, or idempotency
scopes) can disagree on what a request said."""

import pytest

from shared import tokens

ALEBRIJES = {
    "game": "alebrijes",
    "seats": [{"name": "ana"}, {"name": "bea"}],
    "options": {"seed": 7, "rounds": 1},
}


@pytest.fixture
def game(client):
    created = client.post("/v1/games", json=ALEBRIJES).get_json()
    return created["id"], [s["token"] for s in created["seats"]]


@pytest.mark.parametrize("spelling", ["01", "+1", " 1", "0001", "1 ", "١"])
def test_a_seat_token_has_one_spelling(client, deps, game, spelling):
    game_id, seat_tokens = game
    _, _, signature = seat_tokens[1].split(".")
    other = f"{game_id}.{spelling}.{signature}"
    assert tokens.verify(deps.service.secret, other) is None
    answer = client.get(f"/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {other}"})
    assert answer.status_code == 401 and answer.get_json()["code"] == "unauthorized"
    assert tokens.verify(deps.service.secret, seat_tokens[1]) == (game_id, 1)


def test_seat_zero_and_the_creator_still_verify(deps):
    for seat in (0, 10, tokens.CREATOR):
        assert tokens.verify("s", tokens.issue("s", "g", seat)) == ("g", seat)


@pytest.mark.parametrize("spelling", ["+5", "%205", "5%20", "-0", "%D9%A5", "5.0", "0x5"])
@pytest.mark.parametrize(
    "route", ["/v1/games/{id}/events?after=", "/v1/games/{id}/events?limit=", "/v1/games?limit="]
)
def test_a_query_number_is_ascii_digits_only(client, game, route, spelling):
    answer = client.get(route.format(id=game[0]) + spelling)
    assert answer.status_code == 400, (route, spelling)
    assert answer.get_json()["code"] == "bad_request"


@pytest.mark.parametrize("query", ["after=+1", "after=%201", "wait=+1", "wait=%D9%A1"])
def test_a_views_query_is_ascii_digits_only(client, game, query):
    answer = client.get(f"/v1/games/{game[0]}/view?{query}")
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad_request"
    typed = client.get(f"/v1/alebrijes/{game[0]}/view?{query}")
    assert typed.status_code == 400


def test_plain_digits_are_still_read(client, game):
    assert client.get(f"/v1/games/{game[0]}/events?after=0&limit=05").status_code == 200
    assert client.get(f"/v1/games/{game[0]}/view?after=0&wait=0.5").status_code == 200


@pytest.mark.parametrize(
    ("last_event_id", "after"),
    [("3", str(2**63)), ("3", "+1"), ("+3", None), (" 3", None), ("3", "x")],
)
def test_a_streams_resume_point_is_checked_whichever_is_sent(client, game, last_event_id, after):
    path = f"/v1/games/{game[0]}/stream" + (f"?after={after}" if after is not None else "")
    answer = client.get(path, headers={"Last-Event-ID": last_event_id})
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad_request"


@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "utf-8-sig", "ascii"])
def test_a_body_in_another_charset_is_a_415(client, deps, charset):
    data = b'{"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bea"}]}'
    answer = client.post(
        "/v1/games", data=data, content_type=f"application/json; charset={charset}"
    )
    assert answer.status_code == 415 and answer.get_json()["code"] == "unsupported_media_type"
    assert list(deps.redis.scan_iter(match=deps.keys.events_pattern())) == []
    fine = client.post("/v1/games", data=data, content_type="application/json; charset=UTF-8")
    assert fine.status_code == 201


def test_a_body_naming_a_field_twice_is_refused(client, deps, game):
    twice = b'{"game": "alebrijes", "game": "alien", "seats": [{"name": "a"}, {"name": "b"}]}'
    answer = client.post("/v1/games", data=twice, content_type="application/json")
    assert answer.status_code == 400 and "twice" in answer.get_json()["detail"]
    assert len(list(deps.redis.scan_iter(match=deps.keys.events_pattern()))) == 1  # `game`'s
    game_id, seat_tokens = game
    view = client.get(f"/v1/games/{game_id}/view").get_json()
    seat = view["to_act"][0]
    headers = {"Authorization": f"Bearer {seat_tokens[seat]}"}
    nested = b'{"type": "x", "card": {"a": 1, "a": 2}}'
    for data in (b'{"type": "x", "type": "y"}', nested):
        answer = client.post(
            f"/v1/games/{game_id}/commands",
            data=data,
            content_type="application/json",
            headers=headers,
        )
        assert answer.status_code == 400, answer.get_json()
        assert "twice" in answer.get_json()["detail"]
    assert client.get(f"/v1/games/{game_id}/view").get_json()["version"] == view["version"]
