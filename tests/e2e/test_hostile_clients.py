"""Issue 13 through gunicorn's gevent workers: a finished game's event stream stops a
reconnecting EventSource (204), and hostile input is a 400, never a 5xx."""

import json

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
