"""Two players and a bot play a whole game over HTTP against the real processes
(gunicorn, projector, RQ worker, embedded Redis) with player tokens only: a guest
invites another, who accepts; each reads its inbox (long-polled) and its games; then
one is erased and its name is gone from what the other sees."""

import threading
import time

import pytest

from shared import replay

pytestmark = pytest.mark.e2e


def guest(client, name):
    made = client.call("POST", "/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()


def test_two_players_and_a_bot_play_with_player_tokens_only(stack):
    client = stack
    ana, bea = guest(client, "ana e2e"), guest(client, "bea e2e")
    # bea waits on her inbox before anything happens: the invitation wakes the long-poll.
    woken = []
    poll = threading.Thread(
        target=lambda: woken.append(
            client.call("GET", "/v1/players/me/inbox?after=0&wait=20", bea["token"]).json()
        )
    )
    poll.start()
    seats = [{"player": "me"}, {"player": bea["id"]}, {"bot": "random"}]
    body = {"game": "alebrijes", "seats": seats, "options": {"seed": 11, "rounds": 1}}
    created = client.call("POST", "/v1/games", ana["token"], json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    poll.join(25)
    assert woken and woken[0]["items"][0]["kind"] == "invited"
    assert woken[0]["items"][0]["game_id"] == game_id
    accepted = client.call("POST", f"/v1/games/{game_id}/seats/1/accept", bea["token"])
    assert accepted.status_code == 200, accepted.text
    players = {0: ana["token"], 1: bea["token"]}
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        spectator = client.view(game_id)
        if spectator["status"] == "finished":
            break
        humans = [s for s in spectator["to_act"] if s in players]
        if not humans:
            time.sleep(0.02)  # the bot's turn
            continue
        view = client.view(game_id, players[humans[0]])
        if not view["legal"]:
            time.sleep(0.02)
            continue
        command = {**view["legal"][0], "expected_version": view["version"]}
        moved = client.command(game_id, players[humans[0]], command)
        assert moved.status_code in (200, 409), moved.text
    assert [s["name"] for s in spectator["seats"][:2]] == ["ana e2e", "bea e2e"]
    for who in (ana, bea):
        inbox = _eventually(
            lambda who=who: client.call("GET", "/v1/players/me/inbox", who["token"]).json(),
            lambda inbox: inbox["items"] and inbox["items"][-1]["kind"] == "game_ended",
        )
        kinds = [i["kind"] for i in inbox["items"]]
        assert "game_started" in kinds and "your_turn" in kinds
        games = client.call("GET", "/v1/players/me/games?status=finished", who["token"]).json()
        assert [g["id"] for g in games["games"]] == [game_id]
    log = client.call("GET", f"/v1/games/{game_id}/export").json()["events"]
    assert replay.check(log) == [] and "ana e2e" not in str(log)
    # ana is erased: bea sees the placeholder; ana's token is refused.
    assert client.call("DELETE", "/v1/players/me", ana["token"]).status_code == 204
    summary = _eventually(
        lambda: client.call("GET", f"/v1/games/{game_id}").json(),
        lambda summary: summary["seats"][0]["name"] == "deleted player",
    )
    assert "ana e2e" not in str(summary)
    assert client.call("GET", "/v1/players/me", ana["token"]).status_code == 401
    assert client.call("GET", f"/v1/players/{ana['id']}").json()["name"] == "deleted player"


def _eventually(read, done, timeout=15.0):
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            assert done(value), value
            return value
        time.sleep(0.05)
