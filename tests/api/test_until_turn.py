"""What happened since I looked: a long-poll with `until=turn` waits until the seat
must act (or the game is over), and an answer to `until` carries the seat's events
since `after`. The typed per-game view always answers a view (no 304)."""

import time

from tests.api.test_live import in_background
from tests.api.test_play import auth, create, view_of


def send(client, game, seat, command):
    token = game["seats"][seat]["token"]
    answer = client.post(f"/v1/games/{game['id']}/commands", json=command, headers=auth(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_until_turn_waits_past_other_seats_moves_until_the_seat_must_act(app, projector):
    client = app.test_client()
    game = create(client, [{"name": n} for n in "abc"], seed=1)
    version = projector.project(game["id"])
    watcher = app.extensions["tablestream.watcher"]
    # A seat that is not to act now, and what it will have seen before its turn.
    waiting = next(s for s in range(3) if s not in view_of(client, game)["to_act"])
    url = f"/v1/games/{game['id']}/view?after={version}&wait=25&until=turn"
    headers = auth(game["seats"][waiting]["token"])
    thread, answers = in_background(lambda: app.test_client().get(url, headers=headers))
    moves = 0
    for _ in range(50):
        deadline = time.monotonic() + 10
        while game["id"] not in watcher._waiters and not answers:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        view = view_of(client, game)
        if waiting in view["to_act"] or view["status"] == "finished":
            break
        assert not answers, "answered before the seat's turn"
        seat = view["to_act"][0]
        send(client, game, seat, view_of(client, game, seat)["legal"][0])
        moves += 1
        projector.project(game["id"])
    thread.join(25)
    (answer,) = answers
    assert answer.status_code == 200 and moves >= 1
    seen = answer.get_json()
    assert waiting in seen["to_act"] and seen["seat"] == waiting
    # Every event after `after`, as this seat may see them: the others' moves included.
    events = seen["events"]
    assert [e["version"] for e in events] == list(range(version + 1, seen["version"] + 1))
    assert sum(e["type"] == "commanded" for e in events) >= moves
    log = client.get(f"/v1/games/{game['id']}/events?after={version}", headers=headers)
    assert events == log.get_json()["events"]


def test_until_turn_answers_at_once_when_the_seat_already_must_act(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    seat = view_of(client, game)["to_act"][0]
    started = time.monotonic()
    answer = client.get(
        f"/v1/games/{game['id']}/view?after=0&wait=20&until=turn",
        headers=auth(game["seats"][seat]["token"]),
    )
    assert answer.status_code == 200 and time.monotonic() - started < 5
    body = answer.get_json()
    assert body["version"] == version and [e["version"] for e in body["events"]][0] == 1
    assert body["events"][0]["type"] == "game_created"


def test_events_are_as_the_seat_sees_them_no_other_hand(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    projector.project(game["id"])
    seat = view_of(client, game)["to_act"][0]
    headers = auth(game["seats"][seat]["token"])
    url = f"/v1/games/{game['id']}/view?after=0&until=change"
    body = client.get(url, headers=headers).get_json()
    spectator = client.get(url).get_json()
    assert body["events"] != spectator["events"]  # the deal: this seat's hand only
    mine = client.get(f"/v1/games/{game['id']}/events?after=0", headers=headers).get_json()
    theirs = client.get(f"/v1/games/{game['id']}/events?after=0").get_json()
    assert body["events"] == mine["events"] and spectator["events"] == theirs["events"]


def test_until_turn_needs_a_seat(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    answer = client.get(f"/v1/games/{game['id']}/view?after=0&until=turn")
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad_request"
    answer = client.get(f"/v1/games/{game['id']}/view?until=soon")
    assert answer.status_code == 400


def test_without_until_a_view_has_no_events(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    assert "events" not in client.get(f"/v1/games/{game['id']}/view?after=0").get_json()
    assert "events" not in view_of(client, game)
    assert version > 1


def test_the_typed_view_answers_a_view_when_the_wait_runs_out(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    typed = client.get(f"/v1/alebrijes/{game['id']}/view?after={version}&wait=0.2")
    assert typed.status_code == 200 and typed.get_json()["version"] == version
    etag = typed.headers["ETag"]
    again = client.get(f"/v1/alebrijes/{game['id']}/view", headers={"If-None-Match": etag})
    assert again.status_code == 200
    generic = client.get(f"/v1/games/{game['id']}/view?after={version}&wait=0.2")
    assert generic.status_code == 304
