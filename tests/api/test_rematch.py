"""A finished game's rematch (in-process, fakeredis): same game, options and seats,
players kept (every other player invited), named seats with new tokens, a new seed;
recorded in the old log as `rematch_offered`; asked again, the same new game."""

from shared import replay
from tests.api.test_players import bearer, guest


def finished_game(client, projector):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    seats = [{"player": "me"}, {"player": bea["id"]}, {"name": "cy"}]
    body = {"game": "alebrijes", "seats": seats, "options": {"seed": 9, "rounds": 1}}
    game = client.post("/v1/games", json=body, headers=bearer(ana["token"])).get_json()
    client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    tokens = [ana["token"], bea["token"], game["seats"][2]["token"]]
    path = f"/v1/games/{game['id']}"
    early = client.post(f"{path}/rematch", headers=bearer(ana["token"]))
    assert early.status_code == 409 and early.get_json()["code"] == "game_not_finished"
    for _ in range(3000):
        projector.project(game["id"])
        view = client.get(f"{path}/view").get_json()
        if view["status"] == "finished":
            return game, ana, bea, tokens
        seat = view["to_act"][0]
        legal = client.get(f"{path}/view", headers=bearer(tokens[seat])).get_json()["legal"]
        moved = client.post(f"{path}/commands", json=legal[0], headers=bearer(tokens[seat]))
        assert moved.status_code == 200, moved.get_json()
    raise AssertionError("the game did not end")


def test_a_rematch_keeps_the_seats_and_is_asked_once(client, projector):
    game, ana, bea, tokens = finished_game(client, projector)
    path = f"/v1/games/{game['id']}"
    stranger = guest(client, "dee")
    assert client.post(f"{path}/rematch", headers=bearer(stranger["token"])).status_code == 403
    assert client.post(f"{path}/rematch").status_code == 401
    first = client.post(f"{path}/rematch", headers=bearer(bea["token"]))
    assert first.status_code == 200, first.get_json()
    rematch = first.get_json()
    assert rematch["id"] != game["id"]
    seats = rematch["seats"]
    assert seats[0]["player"] == ana["id"] and seats[0]["invited"] and seats[0]["token"] is None
    assert seats[1]["player"] == bea["id"] and not seats[1]["invited"]
    assert seats[2]["name"] == "cy" and seats[2]["token"]
    again = client.post(f"{path}/rematch", headers=bearer(tokens[2])).get_json()  # cy's seat token
    assert again["id"] == rematch["id"] and again["seats"] == seats
    log = client.get(f"{path}/export").get_json()["events"]
    assert [e for e in log if e["type"] == "rematch_offered"] == [
        {**log[-1], "type": "rematch_offered", "game_id": rematch["id"]}
    ]
    assert replay.check(log) == []  # the rematch is a decision of the log like any
    # The new game waits for ana; its seed is new, its options the old ones.
    projector.project(rematch["id"])
    summary = client.get(f"/v1/games/{rematch['id']}").get_json()
    old = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["status"] == "waiting" and summary["options"] == old["options"]
    assert summary["seed_sha256"] != old["seed_sha256"]
    accepted = client.post(
        f"/v1/games/{rematch['id']}/seats/0/accept", headers=bearer(ana["token"])
    )
    assert accepted.status_code == 200
    projector.project(rematch["id"])
    assert client.get(f"/v1/games/{rematch['id']}").get_json()["status"] == "active"
    # Every seat of the old game sees the offer in its log.
    for token in tokens:
        events = client.get(f"{path}/events", headers=bearer(token)).get_json()["events"]
        assert events[-1]["type"] == "rematch_offered"
