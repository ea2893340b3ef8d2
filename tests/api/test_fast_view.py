"""The view GET answered before Flask (services/api/fast_path.py) answers exactly what
Flask answers, and leaves every other request to Flask."""

import json

import pytest
from werkzeug.test import Client

from services.api import create_app
from services.api.fast_path import FastPath


@pytest.fixture
def game(client, projector):
    """An Alebrijes game of 2 seats, projected, after one move: (id, seat tokens,
    creator token)."""
    created = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
    ).json
    tokens = [s["token"] for s in created["seats"]]
    projector.project(created["id"])
    view = client.get(f"/v1/games/{created['id']}/view", headers=_auth(tokens[0])).json
    seat = view["to_act"][0]
    moved = client.post(
        f"/v1/games/{created['id']}/commands",
        json=client.get(f"/v1/games/{created['id']}/view", headers=_auth(tokens[seat])).json[
            "legal"
        ][0],
        headers=_auth(tokens[seat]),
    )
    assert moved.status_code == 200
    projector.project(created["id"])
    return created["id"], tokens, created["creator_token"]


@pytest.fixture
def counted(app):
    """How many requests reached Flask (the app behind FastPath)."""
    fast = app.wsgi_app
    assert isinstance(fast, FastPath)
    calls = []
    inner = fast.wsgi_app

    def flask(environ, start_response):
        calls.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    flask.alone = inner  # for both(): Flask's own answer, not counted
    fast.wsgi_app = flask
    return calls


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def both(app, path, headers):
    """The answer of the whole app and of Flask alone: (status, headers, body) each."""
    headers = {"X-Request-ID": "same-id", **headers}
    answers = []
    flask = app.wsgi_app.wsgi_app
    for wsgi in (app.wsgi_app, getattr(flask, "alone", flask)):
        answer = Client(wsgi).get(path, headers=headers)
        answers.append((answer.status, answer.headers.to_wsgi_list(), answer.get_data()))
    return answers


def common_cases(game_id, tokens, creator):
    seat = {"Authorization": f"Bearer {tokens[1]}"}
    for prefix in ("/v1/games", "/v1/alebrijes"):
        for query in ("", "?after=0", "?after=0&wait=5", "?after=1&wait=30"):
            for headers in (seat, {}, _auth(tokens[0]), _auth(creator)):
                yield f"{prefix}/{game_id}/view{query}", headers


def test_the_common_case_skips_flask_and_answers_the_same(app, game, counted):
    game_id, tokens, creator = game
    cases = list(common_cases(game_id, tokens, creator))
    for path, headers in cases:
        fast, flask = both(app, path, headers)
        assert fast == flask, path
        assert fast[0] == "200 OK"
    assert counted == []


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/v1/alien/{id}/view", {}),  # a game of another kind: 404
        ("/v1/games/{id}/view?after=99&wait=0", {}),  # nothing newer: 304
        ("/v1/games/{id}/view?wait=31&after=0", {}),  # the query's order, a bad wait
        ("/v1/games/{id}/view?after=0&wait=31", {}),  # wait over 30: 400
        ("/v1/games/{id}/view?after=-1", {}),
        ("/v1/games/{id}/view?after=0&after=1", {}),
        ("/v1/games/{id}/view?after=0&x=1", {}),
        ("/v1/games/{id}/view", {"If-None-Match": '"1"'}),
        ("/v1/games/{id}/view", {"If-None-Match": '"2"'}),
        ("/v1/games/{id}/view", {"Origin": "https://example.com"}),
        ("/v1/games/{id}/view", {"Authorization": "Bearer nonsense"}),  # 401
        ("/v1/games/{id}/view", {"Authorization": "Basic {seat}"}),  # 401
        ("/v1/games/{id}/view", {"Authorization": "Bearer {other}"}),  # 403
        ("/v1/games/nosuchgame/view", {}),  # 404, not stored
        ("/v1/games/{id}/view/", {}),
        ("/v1/games/{id}/commands", {}),  # 405
    ],
)
def test_everything_else_goes_to_flask(app, client, game, counted, path, headers):
    game_id, tokens, _ = game
    other = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "c"}, {"name": "d"}]}
    ).json
    fill = {"seat": tokens[0], "other": other["seats"][0]["token"]}
    headers = {k: v.format(**fill) for k, v in headers.items()}
    counted.clear()
    fast, flask = both(app, path.format(id=game_id), headers)
    if "X-Request-ID" not in headers:  # each made an id up: compare the rest
        fast = (fast[0], _without_id(fast[1]), fast[2])
        flask = (flask[0], _without_id(flask[1]), flask[2])
    assert fast == flask
    assert len(counted) == 1


@pytest.mark.parametrize("spelling", ["bearer {seat}", "Bearer  {seat}", ""])
def test_a_token_is_read_as_the_routes_read_it(app, game, counted, spelling):
    """One reading of a token (auth.seat): any spelling the routes take, it takes (an
    empty header is no token: the spectator's view)."""
    game_id, tokens, _ = game
    headers = {"Authorization": spelling.format(seat=tokens[0])}
    fast, flask = both(app, f"/v1/games/{game_id}/view", headers)
    assert fast == flask
    assert fast[0] == "200 OK"
    assert counted == []


def _without_id(headers):
    return [(k, v) for k, v in headers if k != "X-Request-ID"]


def test_a_given_request_id_is_answered_and_a_new_one_made_otherwise(app, game, counted):
    game_id, tokens, _ = game
    path = f"/v1/games/{game_id}/view"
    given = Client(app).get(path, headers={"X-Request-ID": "abc-123"})
    made = Client(app).get(path)
    refused = Client(app).get(path, headers={"X-Request-ID": "not one"})
    assert given.headers["X-Request-ID"] == "abc-123"
    assert len(made.headers["X-Request-ID"]) == 32
    assert len(refused.headers["X-Request-ID"]) == 32
    assert made.headers["X-Request-ID"] != refused.headers["X-Request-ID"]
    assert counted == []


def test_its_access_lines_and_metrics_are_flasks(app, game, counted, answers_seen):
    game_id, tokens, _ = game
    observed, stream = answers_seen
    path = f"/v1/alebrijes/{game_id}/view?after=0&wait=5"
    both(app, path, _auth(tokens[0]))
    fast, flask = (json.loads(line) for line in stream.getvalue().splitlines()[-2:])
    for line in (fast, flask):
        line.pop("time")
        line.pop("duration_ms")
        line["message"] = line["message"].rsplit(" ", 1)[0]  # its duration
    assert fast == flask
    assert fast["route"] == "/v1/alebrijes/<game_id>/view"
    assert fast["message"] == f"GET {path} 200"
    route = "/v1/alebrijes/<game_id>/view"
    assert observed == [("GET", route, 200), ("GET", route, 200)]  # fast, then Flask
    assert counted == []


def test_an_empty_origin_is_flasks_to_answer_when_cors_is_on(deps, game, monkeypatch):
    monkeypatch.setenv("CORS_ORIGINS", "*")  # any origin, "" too: Flask adds CORS headers
    app = create_app(deps)
    game_id, tokens, _ = game
    fast, flask = both(app, f"/v1/games/{game_id}/view", {"Origin": ""})
    assert fast == flask
    assert ("Access-Control-Allow-Origin", "*") in fast[1]
