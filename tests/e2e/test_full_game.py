"""A scripted human and three random bots play a whole game of Alebrijes over HTTP
against the real processes: gunicorn, projector, RQ worker and an embedded Redis."""

import threading
import time
from importlib.util import find_spec

import pytest
import requests

from shared import replay
from tests.e2e.conftest import process_tree, start_stack

pytestmark = pytest.mark.e2e


def wait_for_turn(client, game_id, token, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.view(game_id, token)
        if view["status"] == "finished" or view["seat"] in view["to_act"]:
            return view
        time.sleep(0.02)
    raise AssertionError("the bots did not move")


def test_a_human_and_three_bots_play_a_whole_game(stack):
    client = stack
    game = client.create([{"name": "ana"}] + [{"bot": "random"}] * 3, seed=2026, rounds=1)
    token = game["seats"][0]["token"]
    seen_hands = set()
    for _ in range(500):
        view = wait_for_turn(client, game["id"], token)
        if view["status"] == "finished":
            break
        seen_hands.add(tuple(view["state"]["hand"]))
        # The scripted human: always the first legal command, with the version it saw.
        command = {**view["legal"][0], "expected_version": view["version"]}
        response = client.command(game["id"], token, command)
        assert response.status_code in (200, 409), response.text
    assert view["status"] == "finished"
    result = view["result"]
    assert len(result["scores"]) == 4 and result["winners"]
    assert all(score <= 0 for score in result["scores"])
    log = client.call("GET", f"/v1/games/{game['id']}/events?limit=1000").json()["events"]
    assert log[0]["type"] == "game_created" and log[-1]["type"] == "game_ended"
    assert log[0]["seed"] == 2026 and log[-1]["result"] == result
    assert replay.check(log) == []  # anyone can check the finished log on their own


def test_the_lobby_and_claiming_a_seat_over_http(stack):
    client = stack
    game = client.create([{"name": "ana"}, {"open": True}], seed=1)
    deadline = time.monotonic() + 10
    while game["id"] not in [g["id"] for g in client.call("GET", "/v1/games").json()["games"]]:
        assert time.monotonic() < deadline, "the game never reached the lobby"
        time.sleep(0.05)
    claimed = client.call("POST", f"/v1/games/{game['id']}/seats/1", json={"name": "bo"}).json()
    # Views follow the log a moment later: a client waits for the version it caused.
    path = f"/v1/games/{game['id']}/view?after={claimed['version'] - 1}&wait=10"
    view = client.call("GET", path, claimed["token"]).json()
    assert view["status"] == "active" and view["seat"] == 1


def test_ctrl_c_stops_every_process(tmp_path_factory):
    client, run = start_stack(tmp_path_factory)
    assert client.call("GET", "/v1/games").status_code == 200
    children = process_tree(run.pid)
    assert len(children) >= 4  # redis, gunicorn (+ its workers), projector, worker
    run.send_signal(2)  # SIGINT, as Ctrl-C sends
    run.wait(30)
    deadline = time.monotonic() + 15
    while any(c.is_running() and c.status() != "zombie" for c in children):
        assert time.monotonic() < deadline, "a child outlived services.run"
        time.sleep(0.1)


def test_a_human_who_never_moves_is_timed_out_taken_over_and_the_game_finishes(stack):
    client = stack
    # The default takeover level (greedy) once Alebrijes has its bot module.
    level = "greedy" if find_spec("shared.bots.games.alebrijes") else "random"
    game = client.create(
        [{"name": "ana"}] + [{"bot": "random"}] * 3,
        seed=7,
        rounds=1,
        turn_seconds=2,
        takeover_bot=level,
    )
    deadline = time.monotonic() + 120
    while client.view(game["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.2)
    log = client.call("GET", f"/v1/games/{game['id']}/events?limit=1000").json()["events"]
    kinds = [e["type"] for e in log]
    assert kinds.count("timed_out") >= 2
    takeover = kinds.index("seat_taken_over")
    assert log[takeover] == {**log[takeover], "seat": 0, "reason": "timeouts", "bot": level}
    assert [e["seat"] for e in log[:takeover] if e["type"] == "timed_out"] == [0, 0]
    played_by_bot = [
        e
        for e in log[takeover:]
        if e.get("seat") == 0 and e["type"] in ("played", "passed", "exchanged")
    ]
    assert played_by_bot, "the bot never played the seat it took over"


def test_a_long_poll_is_woken_by_a_move_sent_on_another_connection(stack):
    """The wake-up crosses processes: the API process that appended the move tells
    nobody; the projector process publishes, and the waiting request's process hears."""
    client = stack
    game = client.create([{"name": "ana"}, {"name": "bo"}], seed=8)
    token = game["seats"][0]["token"]
    view = wait_for_turn(client, game["id"], token)
    url = f"{client.base}/v1/games/{game['id']}/view?after={view['version']}&wait=20"
    answers = []
    poller = threading.Thread(target=lambda: answers.append(requests.get(url, timeout=30)))
    poller.start()
    time.sleep(0.3)  # let the long-poll start waiting
    moved = client.command(game["id"], token, view["legal"][0]).json()
    poller.join(25)
    assert answers[0].status_code == 200
    assert answers[0].json()["version"] >= moved["version"] > view["version"]


def test_the_event_stream_follows_a_live_game_to_its_end_over_http(stack):
    client = stack
    game = client.create([{"bot": "random"}] * 4, seed=9, rounds=1)
    url = f"{client.base}/v1/games/{game['id']}/stream"
    ids, kinds = [], []
    with requests.get(url, stream=True, timeout=60) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        for line in response.iter_lines(decode_unicode=True):  # ends when the game does
            if line.startswith("id: "):
                ids.append(int(line[4:]))
            elif line.startswith("event: "):
                kinds.append(line[7:])
    assert ids == list(range(1, len(ids) + 1)) and kinds[-1] == "game_ended"
