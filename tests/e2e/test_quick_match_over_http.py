"""Quick match over HTTP against `make run`'s processes (the API, the projector, the
matchmaker, workers): two players are matched and play with their player tokens, the
`matched` item reaching one on its inbox stream (SSE), the other on a long-poll and
over the WebSocket;
a lone player's short table is completed by bots after `after_seconds`."""

import json
import threading
import time

import pytest

from tests.e2e.ws_client import Socket

pytestmark = pytest.mark.e2e


def guest(client, name):
    made = client.call("POST", "/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()


def open_ticket(client, player, **body):
    opened = client.call("POST", "/v1/matchmaking/tickets", player["token"], json=body)
    assert opened.status_code == 201, opened.text
    return opened.json()


def first_matched_on_the_stream(client, player, found):
    """Read the player's inbox stream (SSE) until its `matched` item."""
    with client.call("GET", "/v1/players/me/stream", player["token"], stream=True) as response:
        event = None
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                event = line[len("event: ") :]
            elif line.startswith("data: ") and event == "matched":
                found.append(json.loads(line[len("data: ") :]))
                return


def test_two_players_are_matched_and_play(stack):
    client = stack
    ana, bea = guest(client, "ana quick"), guest(client, "bea quick")
    streamed = []
    reader = threading.Thread(target=first_matched_on_the_stream, args=(client, ana, streamed))
    reader.start()
    socket = Socket(client.base, bea["token"])
    subscribed = socket.answer(socket.send("subscribe_inbox", after=0))
    assert subscribed["type"] == "inbox_subscribed"
    # A turn time of its own: no other test's tickets share this queue.
    body = {"game": "alien", "players": 2, "options": {"stack_seconds": 30}, "turn_seconds": 3599}
    a = open_ticket(client, ana, **body)
    b = open_ticket(client, bea, **body)
    # Long-poll as an app does: each answer brings what came since `after` (the game's
    # own items, game_started or your_turn, may come first); poll on until `matched`.
    polled, after = [], 0
    for _ in range(20):
        path = f"/v1/players/me/inbox?after={after}&wait=20"
        answer = client.call("GET", path, bea["token"]).json()
        polled += answer["items"]
        after = answer["version"]
        if any(i["kind"] == "matched" for i in polled):
            break
    reader.join(25)
    assert streamed and streamed[0]["ticket_id"] == a["id"]
    game_id = streamed[0]["game_id"]
    (told,) = [i for i in polled if i["kind"] == "matched"]
    assert (told["game_id"], told["ticket_id"]) == (game_id, b["id"])
    pushed = socket.next(where=lambda m: m["type"] == "inbox" and m["item"]["kind"] == "matched")
    assert pushed["item"] == told
    socket.close()
    tickets = {
        p["id"]: client.call("GET", f"/v1/matchmaking/tickets/{t['id']}", p["token"]).json()
        for p, t in ((ana, a), (bea, b))
    }
    assert {t["status"] for t in tickets.values()} == {"matched"}
    assert {t["seat"] for t in tickets.values()} == {0, 1}
    assert streamed[0]["seat"] == tickets[ana["id"]]["seat"]
    token_of = {tickets[p["id"]]["seat"]: p["token"] for p in (ana, bea)}
    for _ in range(100):  # my games: the projector's, a moment after the game opened
        mine = client.call("GET", "/v1/players/me/games", ana["token"]).json()["games"]
        if mine:
            break
        time.sleep(0.05)
    assert [(g["id"], g["status"]) for g in mine] == [(game_id, "active")]
    # They play a few moves with their player tokens only.
    played = 0
    for _ in range(200):
        if played == 4:
            break
        for token in token_of.values():
            view = client.view(game_id, token)  # a view may lag the last move a moment:
            if view["legal"]:  # sent on its version, a stale view's command is a 409
                command = {**view["legal"][0], "expected_version": view["version"]}
                moved = client.command(game_id, token, command)
                assert moved.status_code in (200, 409), moved.text
                played += moved.status_code == 200
                break
        else:
            time.sleep(0.05)
    assert played == 4
    listed = client.call("GET", "/v1/players/me/tickets", bea["token"]).json()["tickets"]
    assert [t["id"] for t in listed] == [b["id"]]


def test_bots_complete_a_short_table(stack):
    client = stack
    cho = guest(client, "cho quick")
    started = time.monotonic()
    ticket = open_ticket(
        client, cho, game="alien", players=[3, 4], bots={"after_seconds": 1, "level": "random"}
    )
    for _ in range(100):
        got = client.call("GET", f"/v1/matchmaking/tickets/{ticket['id']}", cho["token"]).json()
        if got["status"] != "waiting":
            break
        time.sleep(0.05)
    assert got["status"] == "matched"
    assert time.monotonic() - started < 1 + 2  # after_seconds, and at most 2 s more
    summary = client.call("GET", f"/v1/games/{got['game_id']}").json()
    bots = [s for s in summary["seats"] if s["bot"]]
    assert len(summary["seats"]) == 3 and len(bots) == 2
    assert {s["bot"] for s in bots} == {"random"}
