"""Abuse limits through gunicorn's gevent workers and the embedded Redis, on a stack of
its own started with low limits (the shared stack keeps the defaults)."""

import signal
import socket
import time

import pytest
import requests

from tests.e2e.conftest import start_stack

pytestmark = pytest.mark.e2e

LIMITS = {"RATE_LIMIT_CREATE": "3/minute", "RATE_LIMIT_STREAMS": "2"}


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    client, run = start_stack(tmp_path_factory, **LIMITS)
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


def assert_rate_limited(response):
    assert response.status_code == 429, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


def test_a_fourth_table_in_a_minute_is_refused_and_not_created(limited):
    client = limited
    seats = [{"name": "ana"}, {"open": True}]
    made = [client.create(seats, seed=n)["id"] for n in range(3)]
    assert_rate_limited(
        client.call("POST", "/v1/games", json={"game": "alebrijes", "seats": seats})
    )
    time.sleep(1)  # the projector has put every created table in the lobby by now
    lobby = client.call("GET", "/v1/games").json()["games"]
    assert sorted(g["id"] for g in lobby) == sorted(made)


def test_a_stream_closed_by_its_client_gives_its_place_back(limited):
    client = limited
    waiting = client.call("GET", "/v1/games").json()["games"]  # run alone: none yet
    game = waiting[0] if waiting else client.create([{"name": "ana"}, {"open": True}])
    url = f"{client.base}/v1/games/{game['id']}/stream"
    streams = [requests.get(url, stream=True, timeout=30) for _ in range(2)]
    assert [s.status_code for s in streams] == [200, 200]
    assert_rate_limited(requests.get(url, stream=True, timeout=30))
    streams[0].close()
    # The server notices when a write fails: the kernel may take the first one after the
    # close, not the next. Claiming the open seat starts the game: events to write now,
    # rather than keep-alives every 15 s.
    claimed = client.call("POST", f"/v1/games/{game['id']}/seats/1", json={"name": "bo"})
    assert claimed.status_code == 200
    deadline = time.monotonic() + 2 * 15 + 10
    while True:
        again = requests.get(url, stream=True, timeout=30)
        if again.status_code == 200:
            break
        assert again.status_code == 429 and time.monotonic() < deadline
        time.sleep(1)
    for stream in (again, streams[1]):
        stream.close()


def raw_get(base, path):
    """A GET on a socket of its own, its answer left unread: a client that then goes
    away by closing the socket."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock


def places_free(url, deadline):
    """Wait until a stream from our address is admitted again (True), or `deadline`."""
    while time.monotonic() < deadline:
        again = requests.get(url, stream=True, timeout=30)
        again.close()
        if again.status_code == 200:
            return True
        assert again.status_code == 429
        time.sleep(0.25)
    return False


@pytest.mark.parametrize("kind", ["long-poll", "stream"])
def test_a_wait_whose_client_went_away_gives_its_place_back_within_seconds(limited, kind):
    """Nothing is written to the closed connections (no move, no keep-alive yet): the
    server notices the client left by itself, not at a write or the wait's end."""
    client = limited
    waiting = client.call("GET", "/v1/games").json()["games"]  # creations are limited here
    game = waiting[0] if waiting else client.create([{"name": "ana"}, {"open": True}])
    stream = f"{client.base}/v1/games/{game['id']}/stream"
    assert places_free(stream, time.monotonic() + 40)  # what other tests held is back
    time.sleep(2)  # and the place of that last look too
    version = client.view(game["id"])["version"]
    path = f"/v1/games/{game['id']}/view?after={version}&wait=30"
    if kind == "stream":
        path = f"/v1/games/{game['id']}/stream"
    held = [raw_get(client.base, path) for _ in range(2)]
    time.sleep(1)
    assert_rate_limited(requests.get(stream, stream=True, timeout=30))
    for sock in held:
        sock.close()
    assert places_free(stream, time.monotonic() + 5)
