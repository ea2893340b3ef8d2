"""Live updates: the long-poll view and the Server-Sent Events stream, and the seat
lifecycle endpoints, through the Flask app."""

import threading
import time

from shared import jsonutil
from tests.api.helpers import auth, card_codes, create, view_of


def move_first_legal(client, game, projector):
    view = view_of(client, game)
    seat = view["to_act"][0]
    command = view_of(client, game, seat)["legal"][0]
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=command, headers=auth(game["seats"][seat]["token"])
    )
    assert response.status_code == 200
    projector.project(game["id"])


def in_background(target):
    answers = []
    thread = threading.Thread(target=lambda: answers.append(target()))
    thread.start()
    return thread, answers


def test_a_long_poll_answers_once_a_move_passes_its_version(app, projector):
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    url = f"/v1/games/{game['id']}/view?after={version}&wait=20"
    thread, answers = in_background(lambda: app.test_client().get(url))
    move_first_legal(client, game, projector)
    thread.join(25)
    response = answers[0]
    assert response.status_code == 200  # not the 304 of a wait that ran out
    assert response.get_json()["version"] > version


def test_a_long_poll_that_waits_asks_no_projected_version_its_view_holds_it(
    app, deps, projector, monkeypatch
):
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    watcher = app.extensions["tablestream.watcher"]
    watcher._start()  # subscribed first: subscribing wakes every waiter to look again
    deadline = time.monotonic() + 10
    while deps.redis.pubsub_numsub(deps.keys.changes)[0][1] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    asked = []  # versions asked of Redis on their own, a round trip each
    hget = deps.redis.hget
    monkeypatch.setattr(deps.redis, "hget", lambda *a: asked.append(a) or hget(*a))
    url = f"/v1/games/{game['id']}/view?after={version}&wait=20"
    thread, answers = in_background(lambda: app.test_client().get(url))
    while game["id"] not in watcher._waiters:  # the poll waits by now
        assert time.monotonic() < deadline
        time.sleep(0.01)
    move_first_legal(client, game, projector)
    thread.join(25)
    assert answers[0].status_code == 200 and answers[0].get_json()["version"] > version
    assert (deps.keys.checkpoint(game["id"]), "version") not in asked


def test_a_long_poll_whose_version_has_passed_answers_at_once(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    response = client.get(f"/v1/games/{game['id']}/view?after={version - 1}&wait=30")
    assert response.status_code == 200 and response.get_json()["version"] == version


def test_a_long_poll_with_nothing_new_ends_with_304(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    response = client.get(f"/v1/games/{game['id']}/view?after={version}&wait=0.2")
    assert response.status_code == 304 and response.get_data() == b""


def read_sse(response, count):
    """The first `count` events of a stream, as (id, type, data)."""
    events, buffer = [], b""
    chunks = iter(response.response)
    while len(events) < count:
        buffer += next(chunks)
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields = dict(
                line.split(": ", 1)
                for line in block.decode().splitlines()
                if ": " in line and not line.startswith(":")
            )
            if "id" in fields:
                events.append((int(fields["id"]), fields["event"], jsonutil.loads(fields["data"])))
    response.close()
    return events


def test_the_stream_delivers_each_seat_only_what_it_may_see(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}, {"name": "c"}], seed=2)
    version = projector.project(game["id"])
    for seat in (0, 1):
        response = client.get(
            f"/v1/games/{game['id']}/stream", headers=auth(game["seats"][seat]["token"])
        )
        assert response.mimetype == "text/event-stream"
        events = read_sse(response, version)
        assert [e[0] for e in events] == list(range(1, version + 1))
        hand = view_of(client, game, seat)["state"]["hand"]
        assert card_codes([e[2] for e in events]) == sorted(hand)
    spectator = read_sse(client.get(f"/v1/games/{game['id']}/stream"), version)
    assert card_codes([e[2] for e in spectator]) == []


def test_the_stream_resumes_after_last_event_id_and_follows_new_moves(app, projector):
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=3)
    version = projector.project(game["id"])
    token = game["seats"][1]["token"]
    headers = {**auth(token), "Last-Event-ID": str(version)}
    thread, answers = in_background(
        lambda: read_sse(
            app.test_client().get(f"/v1/games/{game['id']}/stream", headers=headers), 2
        )
    )
    move_first_legal(client, game, projector)
    thread.join(25)
    commanded, exchanged = answers[0]
    assert commanded[:2] == (version + 1, "commanded") and "command" not in commanded[2]
    event_id, kind, data = exchanged
    assert event_id == version + 2 and kind == "exchanged" and data["seat"] == 0
    assert data["laid_aside"] is None  # seat 0's exchange, as seat 1 sees it


def test_the_stream_of_a_finished_game_is_the_whole_log_and_ends(client, deps, projector):
    from tests.api.helpers import play_to_the_end

    game = create(client, [{"name": "a"}, {"name": "b"}], seed=6, rounds=1)
    play_to_the_end(client, game, projector, 2)
    body = client.get(f"/v1/games/{game['id']}/stream").get_data(as_text=True)
    ids = [int(line[4:]) for line in body.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, deps.store.version(game["id"]) + 1))


def test_resign_and_return_need_the_seats_own_token(client):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1, turn_seconds=5)
    path = f"/v1/games/{game['id']}/seats/0"
    assert client.post(f"{path}/resign", headers=auth(game["seats"][1]["token"])).status_code == 403
    assert client.post(f"{path}/resign").status_code == 401
    response = client.post(f"{path}/return", headers=auth(game["seats"][0]["token"]))
    assert response.status_code == 409 and response.get_json()["code"] == "seat_not_away"
    response = client.post(f"{path}/resign", headers=auth(game["seats"][0]["token"]))
    assert response.status_code == 200
    mine = view_of(client, game, 0)
    assert mine["seats"][0]["resigned"] and mine["seats"][0]["bot"] == "greedy"  # takeover_bot


def test_only_the_creator_cancels_a_waiting_game(client):
    game = create(client, [{"name": "a"}, {"open": True}])
    url = f"/v1/games/{game['id']}/cancel"
    assert client.post(url, headers=auth(game["seats"][0]["token"])).status_code == 403
    response = client.post(url, headers=auth(game["creator_token"]))
    assert response.status_code == 200
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "cancelled"
