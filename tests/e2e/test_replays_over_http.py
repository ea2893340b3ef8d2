"""Replays through the real process tree: a bots-only game played by the worker,
exported as JSON Lines, uploaded back through gunicorn, and a body over the upload
limit refused."""

import time

import pytest

pytestmark = pytest.mark.e2e

NDJSON = "application/x-ndjson"


def http(stack, method, path, **kwargs):
    return stack.http.request(method, stack.base + path, timeout=30, **kwargs)


def finished_game(stack):
    bots = [{"bot": "random", "reaction_seconds": 0.1}] * 3
    game = stack.create(bots, game="alien", stack_seconds=1)
    deadline = time.monotonic() + 120
    while stack.view(game["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    return game["id"]


def test_a_log_exported_as_json_lines_comes_back_through_the_server(stack):
    game_id = finished_game(stack)
    lines = http(stack, "GET", f"/v1/games/{game_id}/export", headers={"Accept": NDJSON})
    assert lines.status_code == 200 and lines.headers["Content-Type"] == NDJSON
    sent = http(stack, "POST", "/v1/replays", data=lines.content, headers={"Content-Type": NDJSON})
    assert sent.status_code == 201, sent.text
    copy = sent.json()["id"]
    deadline = time.monotonic() + 10
    while stack.call("GET", f"/v1/games/{copy}").json().get("status") != "finished":
        assert time.monotonic() < deadline, "the imported game was not projected"
        time.sleep(0.1)
    replayed = stack.call("GET", f"/v1/games/{copy}/replay?everyone=true").json()
    assert replayed["view"]["result"] == stack.view(game_id)["result"]


def test_a_body_over_the_upload_limit_is_a_413_problem(stack):
    huge = b'{"events": [' + b" " * (9 * 1024 * 1024) + b"]}"
    response = http(
        stack, "POST", "/v1/replays", data=huge, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "payload_too_large"
