"""Through gunicorn's gevent workers: a finished game's event stream stops a
reconnecting EventSource (204), and hostile input is a 400, never a 5xx."""

import json
import time

import pytest
import requests

pytestmark = pytest.mark.e2e


def follow_to_the_end(client, game_id, headers=None):
    """Every event id the stream sends until it ends by itself."""
    url = f"{client.base}/v1/games/{game_id}/stream"
    with requests.get(url, headers=headers, stream=True, timeout=60) as response:
        assert response.status_code == 200
        return [
            int(line[4:])
            for line in response.iter_lines(decode_unicode=True)
            if line.startswith("id: ")
        ]


def test_a_finished_games_stream_resumed_at_its_end_answers_204(stack):
    client = stack
    game = client.create([{"bot": "random"}] * 4, seed=21, rounds=1)
    ids = follow_to_the_end(client, game["id"])  # ends when the game does
    last = ids[-1]
    url = f"{client.base}/v1/games/{game['id']}/stream"
    for headers, query in [({"Last-Event-ID": str(last)}, ""), ({}, f"?after={last + 50}")]:
        response = requests.get(url + query, headers=headers, timeout=10)
        assert response.status_code == 204 and response.content == b""
    rest = follow_to_the_end(client, game["id"], {"Last-Event-ID": str(last - 1)})
    assert rest == [last]


def test_a_seats_view_is_private_over_http(stack):
    client = stack
    game = client.create([{"name": "ana"}, {"bot": "random"}], seed=3)
    response = client.call("GET", f"/v1/games/{game['id']}/view", game["seats"][0]["token"])
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Authorization" in response.headers["Vary"]


@pytest.mark.parametrize(
    "method, path, body, headers",
    [
        ("POST", "/v1/games", "[" * 5000 + "]" * 5000, {}),
        ("POST", "/v1/games", json.dumps({"game": "alien", "seats": [{"name": "\ud800"}]}), {}),
        ("POST", "/v1/games", '{"game": "alien", "seats": [{"name": "a"}], "options": '
         '{"seed": ' + "7" * 5000 + "}}", {}),
        ("GET", "/v1/games/{id}/events?after=" + str(2**64), None, {}),
        ("GET", "/v1/games/{id}/stream", None, {"Last-Event-ID": str(2**64)}),
    ],
)  # fmt: skip
def test_hostile_input_is_a_400_problem_over_http(stack, method, path, body, headers):
    client = stack
    game = client.create([{"name": "ana"}, {"open": True}], seed=5)
    headers = {**headers, "Content-Type": "application/json"} if body else headers
    response = requests.request(
        method,
        client.base + path.format(id=game["id"]),
        data=body,
        headers=headers,
        timeout=10,
    )
    assert response.status_code == 400, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "bad_request"


HUGE = str(2**64)


def _body(name="ana", **options):
    return {"game": "alebrijes", "seats": [{"name": name}, {"open": True}], "options": options}


def _nested(depth):
    return ("[" * depth + "]" * depth).encode()


def _bad_requests(game):
    """(what, method, path, body bytes or None, headers) of input no client should send."""
    gid, seat = game["id"], {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    raw = lambda value: json.dumps(value).encode()  # noqa: E731 (a lone surrogate stays escaped)
    return [
        ("create: body nested 5,000 deep", "POST", "/v1/games", _nested(5000), {}),
        ("create: options nested 5,000 deep", "POST", "/v1/games",
         raw(_body())[:-2] + b', "x": ' + _nested(5000) + b"}}", {}),
        ("create: name is a lone surrogate", "POST", "/v1/games", raw(_body("\ud800")), {}),
        ("create: seed is a lone surrogate", "POST", "/v1/games", raw(_body(seed="\ud800")), {}),
        ("create: seed of 5,000 digits", "POST", "/v1/games",
         raw(_body())[:-2] + b', "seed": ' + b"7" * 5000 + b"}}", {}),
        ("create: rounds '3'", "POST", "/v1/games", raw(_body(rounds="3")), {}),
        ("create: rounds 2.5", "POST", "/v1/games", raw(_body(rounds=2.5)), {}),
        ("create: turn_seconds 1.5", "POST", "/v1/games", raw(_body(turn_seconds=1.5)), {}),
        ("create: NUL in a name", "POST", "/v1/games", raw(_body("a\u0000b")), {}),
        ("create: newline in a name", "POST", "/v1/games", raw(_body("a\nb")), {}),
        ("claim: name is a lone surrogate", "POST", f"/v1/games/{gid}/seats/1",
         raw({"name": "\ud800"}), {}),
        ("claim: NUL in a name", "POST", f"/v1/games/{gid}/seats/1", raw({"name": "\u0000"}), {}),
        ("command: nested 5,000 deep", "POST", f"/v1/games/{gid}/commands", _nested(5000), seat),
        ("events: after=2^64", "GET", f"/v1/games/{gid}/events?after={HUGE}", None, {}),
        ("events: after of 1,000 digits", "GET", f"/v1/games/{gid}/events?after={'9' * 1000}",
         None, {}),
        ("stream: after=2^64", "GET", f"/v1/games/{gid}/stream?after={HUGE}", None, {}),
        ("stream: Last-Event-ID 2^64", "GET", f"/v1/games/{gid}/stream", None,
         {"Last-Event-ID": HUGE}),
        ("view: after=2^64", "GET", f"/v1/games/{gid}/view?after={HUGE}&wait=1", None, {}),
    ]  # fmt: skip


def _lobby_and_version(client, game_id):
    lobby = client.call("GET", "/v1/games?limit=200").json()["games"]
    return sorted(g["id"] for g in lobby), client.call("GET", f"/v1/games/{game_id}").json()


def test_bad_input_through_the_whole_stack_is_a_4xx_problem_and_writes_nothing(stack):
    client = stack
    game = client.create([{"name": "ana"}, {"open": True}], seed=7)
    deadline = time.monotonic() + 10
    while game["id"] not in _lobby_and_version(client, game["id"])[0]:  # projected
        assert time.monotonic() < deadline, "the game never reached the lobby"
        time.sleep(0.05)
    before = _lobby_and_version(client, game["id"])
    wrong = []
    for what, method, path, body, headers in _bad_requests(game):
        if body is not None:
            headers = {**headers, "Content-Type": "application/json"}
        response = requests.request(
            method, client.base + path, data=body, headers=headers, timeout=5
        )
        kind = response.headers.get("Content-Type", "")
        if not (400 <= response.status_code < 500 and kind == "application/problem+json"):
            wrong.append(f"{what}: {response.status_code} {kind}")
    assert wrong == []
    time.sleep(0.3)  # a write the projector had yet to show would show by now
    assert _lobby_and_version(client, game["id"]) == before
