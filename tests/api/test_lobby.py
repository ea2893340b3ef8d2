"""The lobby: newest first, never hidden by a flood of older tables, and each
game's own list complete, on fakeredis and on a real Redis."""

import time

import pytest

from tests.api.helpers import auth


@pytest.fixture
def deps_redis(any_redis):
    return any_redis


def open_table(deps, projector, game="alebrijes"):
    seats = [{"name": "ana"}, {"open": True}]
    if game == "alien":
        seats.append({"bot": "random"})
    created = deps.service.create(game, seats, {})
    projector.project(created["id"])
    time.sleep(0.002)  # lobbies order by creation time, in ms
    return created


def lobby(client, query=""):
    response = client.get(f"/v1/games{query}")
    assert response.status_code == 200, response.get_json()
    return [g["id"] for g in response.get_json()["games"]]


def test_the_lobby_lists_the_newest_first_or_the_oldest_when_asked(client, deps, projector):
    ids = [open_table(deps, projector)["id"] for _ in range(3)]
    assert lobby(client) == ids[::-1]
    assert lobby(client, "?order=oldest") == ids
    assert lobby(client, "?limit=2") == ids[:0:-1]


def test_a_flood_of_older_tables_hides_neither_a_new_one_nor_another_game(client, deps, projector):
    alien = open_table(deps, projector, "alien")["id"]
    flood = [open_table(deps, projector)["id"] for _ in range(250)]
    newest = open_table(deps, projector)["id"]
    first_page = lobby(client, "?limit=200")
    assert first_page[0] == newest and len(first_page) == 200
    assert alien not in first_page  # 251 newer tables: on no first page of all games
    assert lobby(client, "?game=alien") == [alien]
    assert lobby(client, "?game=alebrijes&order=oldest&limit=3") == flood[:3]


def test_a_table_leaves_both_lobbies_when_it_starts(client, deps, projector):
    game = open_table(deps, projector, "alien")
    claimed = client.post(f"/v1/games/{game['id']}/seats/1", json={"name": "bo"})
    assert claimed.status_code == 200
    projector.project(game["id"])
    assert lobby(client) == [] and lobby(client, "?game=alien") == []


def test_a_cancelled_table_leaves_both_lobbies(client, deps, projector):
    game = open_table(deps, projector, "alien")
    response = client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["creator_token"]))
    assert response.status_code == 200
    projector.project(game["id"])
    assert lobby(client) == [] and lobby(client, "?game=alien") == []


def test_a_rebuild_restores_each_games_lobby(client, deps, projector):
    alien, alebrijes = open_table(deps, projector, "alien"), open_table(deps, projector)
    deps.redis.delete(deps.keys.lobby_of("alien"))
    projector.rebuild()
    assert lobby(client, "?game=alien") == [alien["id"]]
    assert lobby(client) == [alebrijes["id"], alien["id"]]


@pytest.mark.parametrize("query", ["?order=random", "?limit=201", "?limit=0", "?game=chess"])
def test_a_bad_lobby_query_is_a_bad_request(client, query):
    response = client.get(f"/v1/games{query}")
    assert response.status_code == 400 and response.get_json()["code"] == "bad_request"
