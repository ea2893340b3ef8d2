"""Seats held by players (in-process, fakeredis): a seat of the creator's player, an
invitation accepted or declined, an open seat claimed as a player; the player's token
acting for its seat exactly as the seat's token; names resolved from the players; the
player's games and inbox."""

import pytest

from tests.api.test_players import bearer, guest

ALEBRIJES = {"seed": 3, "rounds": 1}


def open_game(client, host, seats, status=201):
    body = {"game": "alebrijes", "seats": seats, "options": ALEBRIJES}
    response = client.post("/v1/games", json=body, headers=bearer(host["token"]))
    assert response.status_code == status, response.get_json()
    return response.get_json()


@pytest.fixture
def ana(client):
    return guest(client, "ana")


@pytest.fixture
def bea(client):
    return guest(client, "bea")


def invited_game(client, ana, bea):
    return open_game(client, ana, [{"player": "me"}, {"player": bea["id"]}])


def test_an_invitation_holds_the_game_until_it_is_accepted(client, projector, ana, bea):
    game = invited_game(client, ana, bea)
    seats = game["seats"]
    assert seats[0]["player"] == ana["id"] and seats[0]["token"] is not None
    assert seats[1]["player"] == bea["id"] and seats[1]["invited"]
    assert seats[1]["token"] is None  # the invitee's seat token is the invitee's
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["status"] == "waiting"
    assert [s["name"] for s in summary["seats"]] == ["ana", "bea"]
    # Only the invitee accepts: not the host, not another player.
    other = guest(client, "cy")
    for who in (ana, other):
        refused = client.post(
            f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(who["token"])
        )
        assert refused.status_code == 409 and refused.get_json()["code"] == "not_invited"
    seat_token = client.post(
        f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(seats[0]["token"])
    )
    assert seat_token.status_code == 401
    accepted = client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["seat"] == 1 and accepted.get_json()["token"]
    projector.project(game["id"])
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "active"


def test_a_players_token_acts_for_its_seat_as_the_seat_token(client, projector, ana, bea):
    game = invited_game(client, ana, bea)
    client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    projector.project(game["id"])
    path = f"/v1/games/{game['id']}"
    by_player = client.get(f"{path}/view", headers=bearer(ana["token"]))
    by_seat = client.get(f"{path}/view", headers=bearer(game["seats"][0]["token"]))
    assert by_player.status_code == 200 and by_player.data == by_seat.data
    assert by_player.get_json()["seat"] == 0
    bea_view = client.get(f"{path}/view", headers=bearer(bea["token"])).get_json()
    assert bea_view["seat"] == 1 and bea_view["state"] != by_player.get_json()["state"]
    # A player with no seat here: refused as another game's seat token is.
    stranger = guest(client, "cy")
    for route in ("view", "events"):
        refused = client.get(f"{path}/{route}", headers=bearer(stranger["token"]))
        assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    acting = by_player.get_json()["to_act"][0]
    mover = (ana, bea)[acting]
    command = client.get(f"{path}/view", headers=bearer(mover["token"])).get_json()["legal"][0]
    moved = client.post(f"{path}/commands", json=command, headers=bearer(mover["token"]))
    assert moved.status_code == 200, moved.get_json()
    assert [s["name"] for s in moved.get_json()["view"]["seats"]] == ["ana", "bea"]
    idle = (ana, bea)[1 - acting]
    events = client.get(f"{path}/events", headers=bearer(mover["token"])).get_json()["events"]
    assert events[0]["type"] == "game_created"
    assert "bea" not in str(events) and "ana" not in str(events)  # no names in the log
    resigned = client.post(f"{path}/seats/{1 - acting}/resign", headers=bearer(idle["token"]))
    assert resigned.status_code == 200
    wrong_seat = client.post(f"{path}/seats/{1 - acting}/resign", headers=bearer(mover["token"]))
    assert wrong_seat.status_code == 403


def test_a_declined_invitation_opens_the_seat(client, projector, ana, bea):
    game = invited_game(client, ana, bea)
    projector.project(game["id"])
    declined = client.post(f"/v1/games/{game['id']}/seats/1/decline", headers=bearer(bea["token"]))
    assert declined.status_code == 200
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["seats"][1]["open"] and "player" not in summary["seats"][1]
    assert (
        client.get(f"/v1/games/{game['id']}/view", headers=bearer(bea["token"])).status_code == 403
    )
    cy = guest(client, "cy")
    claimed = client.post(f"/v1/games/{game['id']}/seats/1", json={}, headers=bearer(cy["token"]))
    assert claimed.status_code == 200, claimed.get_json()
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["status"] == "active" and summary["seats"][1]["name"] == "cy"
    assert summary["seats"][1]["player"] == cy["id"]


def test_bad_player_seats_are_refused_and_nothing_is_written(client, deps, ana, bea):
    before = deps.redis.dbsize()
    body = {"game": "alebrijes", "seats": [{"player": "me"}, {"bot": "random"}]}
    assert client.post("/v1/games", json=body).status_code == 401  # "me" needs a player
    seat_token = open_game(client, ana, [{"name": "x"}, {"bot": "random"}])["seats"][0]["token"]
    assert client.post("/v1/games", json=body, headers=bearer(seat_token)).status_code == 401
    after_one = deps.redis.dbsize()
    for seats, code in [
        ([{"player": "me"}, {"player": "0123456789abcdef"}], "unknown_player"),
        ([{"player": "me"}, {"player": "not an id"}], "unknown_player"),
        ([{"player": "me"}, {"player": "me"}], "bad_request"),
        ([{"player": "me"}, {"player": ana["id"]}], "bad_request"),
        ([{"player": "me", "name": "x"}, {"bot": "random"}], "bad_request"),
    ]:
        refused = open_game(client, ana, seats, status=refused_status(code))
        assert refused["code"] == code, seats
    assert deps.redis.dbsize() == after_one and after_one > before


def refused_status(code):
    return {"unknown_player": 404, "bad_request": 400}[code]


def test_names_follow_the_player_and_erasure_leaves_a_placeholder(
    client, deps, projector, ana, bea
):
    game = invited_game(client, ana, bea)
    client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    projector.project(game["id"])
    client.patch("/v1/players/me", json={"name": "bea b."}, headers=bearer(bea["token"]))
    deps.player_names.forget(bea["id"])  # this process's memory: GENERATION_TTL otherwise
    moved = _move(client, game, ana, bea)
    assert [s["name"] for s in moved["view"]["seats"]] == ["ana", "bea b."]
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert [s["name"] for s in summary["seats"]] == ["ana", "bea b."]


def _move(client, game, ana, bea):
    path = f"/v1/games/{game['id']}"
    view = client.get(f"{path}/view", headers=bearer(ana["token"])).get_json()
    mover = (ana, bea)[view["to_act"][0]]
    command = client.get(f"{path}/view", headers=bearer(mover["token"])).get_json()["legal"][0]
    moved = client.post(f"{path}/commands", json=command, headers=bearer(mover["token"]))
    assert moved.status_code == 200, moved.get_json()
    return moved.get_json()


def test_my_games_and_inbox_follow_the_game(client, projector, ana, bea):
    game = invited_game(client, ana, bea)
    projector.project(game["id"])
    games = client.get("/v1/players/me/games", headers=bearer(bea["token"])).get_json()
    (entry,) = games["games"]
    assert entry["id"] == game["id"] and entry["invited"] and entry["status"] == "waiting"
    assert entry["others"] == [
        {"seat": 0, "name": "ana", "player": ana["id"], "bot": None, "open": False}
    ]
    inbox = client.get("/v1/players/me/inbox", headers=bearer(bea["token"])).get_json()
    assert [i["kind"] for i in inbox["items"]] == ["invited"]
    assert inbox["version"] == inbox["items"][-1]["version"] == games["inbox_version"]
    client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    projector.project(game["id"])
    after = client.get(
        f"/v1/players/me/inbox?after={inbox['version']}", headers=bearer(bea["token"])
    ).get_json()
    kinds = [i["kind"] for i in after["items"]]
    assert kinds[0] == "game_started"
    mine = client.get("/v1/players/me/games?turn=mine", headers=bearer(ana["token"])).get_json()[
        "games"
    ]
    theirs = client.get("/v1/players/me/games?turn=mine", headers=bearer(bea["token"])).get_json()[
        "games"
    ]
    assert len(mine) + len(theirs) >= 1  # whoever must act sees it
    acting = mine or theirs
    assert acting[0]["my_turn"] and acting[0]["status"] == "active"
    # Nobody else's: a third player sees no game and no item.
    cy = guest(client, "cy")
    assert client.get("/v1/players/me/games", headers=bearer(cy["token"])).get_json()["games"] == []
    assert client.get("/v1/players/me/inbox", headers=bearer(cy["token"])).get_json()["items"] == []


def test_my_games_pages_with_a_cursor_and_refuses_a_bad_one(client, projector, ana):
    ids = [open_game(client, ana, [{"player": "me"}, {"open": True}])["id"] for _ in range(5)]
    for game_id in ids:
        projector.project(game_id)
    seen, cursor = [], None
    for _ in range(5):
        query = "?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"/v1/players/me/games{query}", headers=bearer(ana["token"])).get_json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted(ids) and len(seen) == 5
    for bad in ["!!", "bm9wZQ", "x" * 65]:
        refused = client.get(f"/v1/players/me/games?cursor={bad}", headers=bearer(ana["token"]))
        assert refused.status_code == 400, bad
    too_big = client.get("/v1/players/me/games?limit=1000", headers=bearer(ana["token"]))
    assert too_big.status_code == 400
