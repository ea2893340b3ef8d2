"""Players' read models on a real Redis: the inbox and "my games" the projector builds,
a rebuild from the streams giving the same read models, and erasure leaving the
player's name nowhere (no key of the deployment holds it), the games still replayable
and verifiable."""

import pytest

from services.projector.build import projector_of
from shared import replay

NAME = "Qwyzzle Ana"  # found nowhere else in a deployment's data


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def project(projector):
    while projector.poll(block_ms=None):
        pass


def guest(client, name):
    made = client.post("/v1/players", json={"name": name})
    assert made.status_code == 201
    return made.get_json()


def two_players_game(client, projector, ana, bea, rounds=1):
    body = {
        "game": "alebrijes",
        "seats": [{"player": "me"}, {"player": bea["id"]}],
        "options": {"seed": 5, "rounds": rounds},
    }
    game = client.post("/v1/games", json=body, headers=bearer(ana["token"])).get_json()
    accepted = client.post(f"/v1/games/{game['id']}/seats/1/accept", headers=bearer(bea["token"]))
    assert accepted.status_code == 200
    project(projector)
    return game


def play_to_the_end(client, projector, game, players):
    path = f"/v1/games/{game['id']}"
    for _ in range(3000):
        spectator = client.get(f"{path}/view").get_json()
        if spectator["status"] == "finished":
            return spectator
        mover = players[spectator["to_act"][0]]
        command = client.get(f"{path}/view", headers=bearer(mover["token"])).get_json()["legal"][0]
        moved = client.post(f"{path}/commands", json=command, headers=bearer(mover["token"]))
        assert moved.status_code == 200, moved.get_json()
        project(projector)
    raise AssertionError("the game did not end")


def test_the_inbox_tells_each_player_its_own_games(client, projector):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    game = two_players_game(client, projector, ana, bea)
    kinds = {
        who["name"]: [
            i["kind"]
            for i in client.get("/v1/players/me/inbox", headers=bearer(who["token"])).get_json()[
                "items"
            ]
        ]
        for who in (ana, bea)
    }
    assert kinds["bea"][:2] == ["invited", "game_started"]
    assert kinds["ana"][0] == "game_started" and "invited" not in kinds["ana"]
    assert "your_turn" in kinds["ana"] + kinds["bea"]
    play_to_the_end(client, projector, game, [ana, bea])
    for who in (ana, bea):
        inbox = client.get("/v1/players/me/inbox", headers=bearer(who["token"])).get_json()
        assert inbox["items"][-1]["kind"] == "game_ended" and inbox["items"][-1]["result"]
        (entry,) = client.get(
            "/v1/players/me/games?status=finished", headers=bearer(who["token"])
        ).get_json()["games"]
        assert entry["result"] is not None and not entry["abandoned"]
        assert client.get(f"/v1/players/{who['id']}").get_json()["games_finished"] == 1


def test_a_long_poll_of_the_inbox_wakes_on_an_item(client, projector, deps):
    import threading

    ana, bea = guest(client, "ana"), guest(client, "bea")
    version = client.get("/v1/players/me/inbox", headers=bearer(bea["token"])).get_json()["version"]
    answers = []
    waiting = threading.Thread(
        target=lambda: answers.append(
            client.get(
                f"/v1/players/me/inbox?after={version}&wait=10", headers=bearer(bea["token"])
            ).get_json()
        )
    )
    waiting.start()
    body = {"game": "alebrijes", "seats": [{"player": "me"}, {"player": bea["id"]}]}
    client.post("/v1/games", json=body, headers=bearer(ana["token"]))
    project(projector)
    waiting.join(15)
    assert answers and [i["kind"] for i in answers[0]["items"]] == ["invited"]


def dump(redis, prefix):
    """Every key under `prefix` and its whole value, as bytes to search."""
    found = {}
    for key in redis.scan_iter(match=f"{prefix}*", count=500):
        kind = redis.type(key)
        if kind == b"string":
            value = redis.get(key)
        elif kind == b"hash":
            value = redis.hgetall(key)
        elif kind == b"stream":
            value = redis.xrange(key)
        elif kind == b"zset":
            value = redis.zrange(key, 0, -1)
        elif kind == b"set":
            value = redis.smembers(key)
        elif kind == b"list":
            value = redis.lrange(key, 0, -1)
        else:
            value = b""
        found[key] = repr(value).encode()
    return found


def read_models(redis, keys, game_ids, player_ids):
    """Every read model of these games and players (not the streams)."""
    names = [keys.checkpoint(g) for g in game_ids] + [keys.summary(g) for g in game_ids]
    names += [keys.view(g, s) for g in game_ids for s in (None, 0, 1)]
    names += [keys.player_games(p) for p in player_ids] + [keys.player(p) for p in player_ids]
    values = {}
    for name in names:
        kind = redis.type(name)
        values[name] = redis.hgetall(name) if kind == b"hash" else redis.get(name)
    return values


def test_a_rebuild_from_the_streams_gives_the_same_read_models(client, projector, deps):
    ana, bea, cy = guest(client, "ana"), guest(client, "bea"), guest(client, "cy")
    finished = two_players_game(client, projector, ana, bea)
    play_to_the_end(client, projector, finished, [ana, bea])
    active = two_players_game(client, projector, bea, cy)
    waiting = client.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"player": "me"}, {"player": ana["id"]}]},
        headers=bearer(cy["token"]),
    ).get_json()
    client.patch("/v1/players/me", json={"name": "cy c."}, headers=bearer(cy["token"]))
    project(projector)
    game_ids = [finished["id"], active["id"], waiting["id"]]
    player_ids = [ana["id"], bea["id"], cy["id"]]
    before = read_models(deps.redis, deps.keys, game_ids, player_ids)
    assert all(value for value in before.values())
    for player_id in player_ids:
        deps.redis.delete(deps.keys.player(player_id))
        deps.players.rebuild(player_id)
    projector_of(deps, consumer="rebuilder").rebuild()
    assert read_models(deps.redis, deps.keys, game_ids, player_ids) == before


def test_erasure_leaves_the_name_nowhere_and_the_games_verifiable(client, projector, deps):
    ana, bea = guest(client, NAME), guest(client, "bea")
    link_free = client.post("/v1/players/me/logout", headers=bearer(ana["token"])).get_json()
    ana = {**ana, "token": link_free["token"]}
    finished = two_players_game(client, projector, ana, bea)
    play_to_the_end(client, projector, finished, [ana, bea])
    active = two_players_game(client, projector, ana, bea)
    names_seen = client.get(f"/v1/games/{active['id']}").get_json()["seats"]
    assert [s["name"] for s in names_seen] == [NAME, "bea"]
    assert NAME.encode() in b"".join(dump(deps.redis, deps.keys.prefix).values())
    erased = client.delete("/v1/players/me", headers=bearer(ana["token"]))
    assert erased.status_code == 204
    project(projector)  # the feed's `names` notifications: the games' read models again
    everything = dump(deps.redis, deps.keys.prefix)
    holding = [key for key, value in everything.items() if NAME.encode() in value]
    assert holding == []
    # What every route shows: the placeholder, never the name.
    pages = [
        f"/v1/games/{active['id']}",
        f"/v1/games/{active['id']}/view",
        f"/v1/games/{finished['id']}",
        f"/v1/games/{finished['id']}/events",
        f"/v1/games/{finished['id']}/replay",
        f"/v1/games/{finished['id']}/replay?everyone=true",
        f"/v1/games/{finished['id']}/export",
        f"/v1/players/{ana['id']}",
    ]
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, (page, answer.get_json())
        assert NAME.encode() not in answer.data, page
    assert (
        client.get(f"/v1/games/{active['id']}").get_json()["seats"][0]["name"] == "deleted player"
    )
    bea_view = client.get(f"/v1/games/{active['id']}/view", headers=bearer(bea["token"])).get_json()
    assert bea_view["seats"][0]["name"] == "deleted player"
    bea_games = client.get("/v1/players/me/games", headers=bearer(bea["token"]))
    assert NAME.encode() not in bea_games.data and b"deleted player" in bea_games.data
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 401
    # The finished game still checks out, decision by decision.
    log = client.get(f"/v1/games/{finished['id']}/export").get_json()["events"]
    assert replay.check(log) == []
