"""A finished game's event stream ends for good: EventSource reconnects
after every close, with Last-Event-ID, so a game that is over answers that with 204
No Content, the one answer that stops it."""

import threading
import time

import pytest

from services.api import stream
from tests.api.helpers import auth, create, play_to_the_end


@pytest.fixture
def finished(client, deps, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=6, rounds=1)
    play_to_the_end(client, game, projector, 2)
    return game, deps.store.version(game["id"])


def test_resuming_a_finished_game_at_its_last_version_is_204(client, finished):
    game, last = finished
    for headers in ({}, auth(game["seats"][0]["token"])):
        response = client.get(
            f"/v1/games/{game['id']}/stream", headers={**headers, "Last-Event-ID": str(last)}
        )
        assert response.status_code == 204 and response.get_data() == b""


def test_resuming_a_finished_game_past_its_end_is_204(client, finished):
    game, last = finished
    for after in (last + 1, last + 1000, 2**63 - 1):
        response = client.get(f"/v1/games/{game['id']}/stream?after={after}")
        assert response.status_code == 204


def test_resuming_a_finished_game_before_its_end_sends_the_rest_and_ends(client, finished):
    game, last = finished
    response = client.get(f"/v1/games/{game['id']}/stream?after={last - 2}")
    assert response.status_code == 200
    body = response.get_data(as_text=True)  # returns: the stream ended
    ids = [int(line[4:]) for line in body.splitlines() if line.startswith("id: ")]
    assert ids == [last - 1, last] and "event: game_ended" in body


def test_a_cancelled_game_resumed_at_its_end_is_204(client, deps):
    game = create(client, [{"name": "a"}, {"open": True}], seed=1)
    cancel = client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["creator_token"]))
    assert cancel.status_code == 200
    last = deps.store.version(game["id"])
    response = client.get(f"/v1/games/{game['id']}/stream", headers={"Last-Event-ID": str(last)})
    assert response.status_code == 204


def test_a_stream_resumed_past_the_end_of_a_live_game_ends_when_the_game_does(
    app, deps, projector, monkeypatch
):
    monkeypatch.setattr(stream, "KEEPALIVE", 0.2)
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"open": True}], seed=1)
    projector.project(game["id"])
    last = deps.store.version(game["id"])
    answers = []

    def follow():
        response = app.test_client().get(f"/v1/games/{game['id']}/stream?after={last + 5}")
        answers.append((response.status_code, response.get_data(as_text=True)))

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    time.sleep(0.5)
    assert thread.is_alive(), "the stream of a live game closed at once"
    client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["creator_token"]))
    projector.project(game["id"])
    thread.join(10)
    assert not thread.is_alive(), "the stream did not end with its game"
    status, body = answers[0]
    assert status == 200 and "id: " not in body
