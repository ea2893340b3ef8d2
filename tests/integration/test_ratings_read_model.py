"""The ratings read model on a real Redis: rated games played through the API move
their players' ratings exactly as openskill computes them, and a rebuild from the
streams after deleting every rating key gives the same keys back."""

import pytest
from openskill.models import PlackettLuce

from services.projector.build import projector_of
from shared.ratings.store import RatingStore, rating_of
from tests.integration.helpers import run_until_quiet


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


def rated_game(client, projector, players, seed, resign=None, deps=None):
    """A rated one-round Alebrijes game of `players`, played to the end by each seat's
    first legal command (`resign`: that seat resigns at once); its final spectator view."""
    body = {
        "game": "alebrijes",
        "seats": [{"player": "me"}, *({"player": p["id"]} for p in players[1:])],
        "options": {"seed": seed, "rounds": 1, "rated": True},
    }
    game = client.post("/v1/games", json=body, headers=bearer(players[0]["token"]))
    assert game.status_code == 201, game.get_json()
    path = f"/v1/games/{game.get_json()['id']}"
    for seat, p in enumerate(players[1:], start=1):
        accepted = client.post(f"{path}/seats/{seat}/accept", headers=bearer(p["token"]))
        assert accepted.status_code == 200
    if resign is not None:
        left = client.post(
            f"{path}/seats/{resign}/resign", headers=bearer(players[resign]["token"])
        )
        assert left.status_code == 200, left.get_json()
    project(projector)
    for _ in range(3000):
        spectator = client.get(f"{path}/view").get_json()
        if spectator["status"] == "finished":
            return spectator
        if spectator["to_act"][0] == resign:  # a bot plays the resigned seat: a worker
            run_until_quiet(deps, projector)
            continue
        mover = players[spectator["to_act"][0]]
        view = client.get(f"{path}/view", headers=bearer(mover["token"])).get_json()
        moved = client.post(
            f"{path}/commands", json=view["legal"][0], headers=bearer(mover["token"])
        )
        assert moved.status_code == 200, moved.get_json()
        project(projector)
    raise AssertionError("the game did not end")


def rating_keys(deps):
    """Every rating key of the deployment and its whole value."""
    r, found = deps.redis, {}
    for key in r.scan_iter(match=f"{deps.keys.prefix}r:*"):
        kind = r.type(key).decode()
        if kind == "hash":
            found[key] = r.hgetall(key)
        elif kind == "zset":
            found[key] = r.zrange(key, 0, -1, withscores=True)
        elif kind == "list":
            found[key] = r.lrange(key, 0, -1)
        elif kind == "set":
            found[key] = r.smembers(key)
        else:
            found[key] = r.get(key)
    return found


def test_rated_games_move_ratings_as_openskill_does_and_a_rebuild_gives_them_back(
    client, projector, deps
):
    ana, bea, cy = (guest(client, n) for n in ("ana", "bea", "cy"))
    tables = [[ana, bea], [bea, cy, ana], [cy, ana]]
    ended = [rated_game(client, projector, players, seed) for seed, players in enumerate(tables)]
    unrated = client.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"name": "x"}, {"name": "y"}]},
        headers=bearer(ana["token"]),
    )
    assert unrated.status_code == 201
    project(projector)

    model = PlackettLuce()
    expected = {p["id"]: model.rating() for p in (ana, bea, cy)}
    for players, view in zip(tables, ended, strict=True):
        scores = view["result"]["scores"]
        ranks = [sorted(set(scores), reverse=True).index(s) + 1 for s in scores]
        assert set(view["result"]["winners"]) == {i for i, r in enumerate(ranks) if r == 1}
        teams = [[expected[p["id"]]] for p in players]
        for p, [now] in zip(players, model.rate(teams, ranks=ranks), strict=True):
            expected[p["id"]] = now
    for player_id, want in expected.items():
        mine = rating_of(deps.redis, deps.keys, player_id, "alebrijes")
        assert (mine["mu"], mine["sigma"]) == (want.mu, want.sigma)
    assert rating_of(deps.redis, deps.keys, ana["id"], "alebrijes")["games"] == 3
    assert rating_of(deps.redis, deps.keys, ana["id"], "alien") is None
    store = RatingStore(deps.redis, deps.keys)
    history = store.history(ana["id"], "alebrijes")
    assert [h["players"] for h in history] == [2, 3, 2]
    assert history[1]["before"] == history[0]["after"]
    board = store.board("alebrijes", "standard")
    assert sorted(p for p, _, _ in board) == sorted(expected)
    assert [s for _, s, _ in board] == sorted((s for _, s, _ in board), reverse=True)

    before = rating_keys(deps)
    for key in before:
        deps.redis.delete(key)
    assert rating_keys(deps) == {}
    projector_of(deps, consumer="rebuilder").rebuild()
    assert rating_keys(deps) == before


def test_a_leaver_is_last_and_a_named_seat_refused(client, projector, deps):
    ana, bea, cy = (guest(client, n) for n in ("ana", "bea", "cy"))
    rated_game(client, projector, [ana, bea, cy], 7, resign=0, deps=deps)
    store = RatingStore(deps.redis, deps.keys)
    stayed = [store.history(p["id"], "alebrijes")[0]["place"] for p in (bea, cy)]
    assert store.history(ana["id"], "alebrijes")[0]["place"] == max(stayed) + 1
    refused = client.post(
        "/v1/games",
        json={
            "game": "alebrijes",
            "seats": [{"player": "me"}, {"name": "anon"}],
            "options": {"rated": True},
        },
        headers=bearer(ana["token"]),
    )
    assert refused.status_code == 400
    assert refused.get_json()["code"] == "rated_needs_players"


def test_the_routes_show_ratings_history_and_boards(client, projector, deps):
    ana, bea, cy = (guest(client, n) for n in ("ana", "bea", "cy"))
    rated_game(client, projector, [ana, bea, cy], 3)
    mine = client.get(f"/v1/players/{ana['id']}/ratings").get_json()
    assert [(r["game"], r["variant"], r["games"], r["provisional"]) for r in mine["ratings"]] == [
        ("alebrijes", "standard", 1, True)
    ]
    history = client.get(f"/v1/players/{ana['id']}/ratings/alebrijes/history").get_json()
    assert history["history"][0]["before"] == 1000
    assert history["history"][0]["after"] == mine["ratings"][0]["rating"]

    board = client.get("/v1/leaderboards/alebrijes?limit=2").get_json()
    assert [e["rank"] for e in board["entries"]] == [1, 2] and board["players"] == 3
    rest = client.get(f"/v1/leaderboards/alebrijes?limit=2&cursor={board['next_cursor']}")
    assert [e["rank"] for e in rest.get_json()["entries"]] == [3]
    assert rest.get_json()["next_cursor"] is None
    ranks = {e["player"]: e["rank"] for e in [*board["entries"], *rest.get_json()["entries"]]}
    around = client.get(
        "/v1/leaderboards/alebrijes?around=me&limit=1", headers=bearer(cy["token"])
    ).get_json()
    assert [e["player"] for e in around["entries"]] == [cy["id"]]
    assert around["entries"][0]["rank"] == ranks[cy["id"]]

    for path, status, code in [
        ("/v1/leaderboards/chess", 404, "unknown_game"),
        ("/v1/leaderboards/alebrijes?variant=nope", 404, "unknown_variant"),
        ("/v1/leaderboards/alebrijes?limit=0", 400, "bad_request"),
        ("/v1/leaderboards/alebrijes?limit=201", 400, "bad_request"),
        ("/v1/leaderboards/alebrijes?cursor=%21%21", 400, "bad_cursor"),
        ("/v1/leaderboards/alebrijes?around=me", 401, "unauthorized"),
        (f"/v1/players/{ana['id']}/ratings/chess/history", 404, "unknown_game"),
    ]:
        refused = client.get(path)
        assert (refused.status_code, refused.get_json()["code"]) == (status, code), path

    erased = client.delete("/v1/players/me", headers=bearer(bea["token"]))
    assert erased.status_code == 204
    left = client.get("/v1/leaderboards/alebrijes").get_json()["entries"]
    assert bea["id"] not in {e["player"] for e in left} and len(left) == 2
