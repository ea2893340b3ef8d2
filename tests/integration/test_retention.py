"""Read models of games that are over expire (services/projector/retention.py), on a real
Redis; the API then answers from the stream, exactly as the projector had answered."""

import time

import pytest

from services.api import create_app
from services.projector.projector import Projector
from services.projector.retention import Retention
from services.webhooks.subscriptions import Subscriptions
from shared import jsonutil, table
from tests.api.helpers import auth, finish
from tests.fixtures import build_deps
from tests.helpers import RecordingScheduler

DAY_MS = 24 * 3600 * 1000


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


@pytest.fixture
def client(deps):
    return create_app(deps).test_client()


def projector(deps, seconds=Retention.seconds):
    return Projector(deps.store, RecordingScheduler(), retention=Retention(seconds))


def create(client, seats=2, open_seats=0):
    names = [{"name": f"p{i}"} for i in range(seats - open_seats)] + [{"open": True}] * open_seats
    body = {"game": "alebrijes", "seats": names, "options": {"seed": 5, "rounds": 1}}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def read_model_keys(deps, game_id, seats=2):
    current = {"seats": [{}] * seats}
    return Retention().read_model_keys(deps.keys, game_id, current)


def answers(client, game):
    """Every read answer of a game: each seat's view, the spectator's, the summary and
    each seat's event log, as JSON."""
    game_id, seats = game["id"], game["seats"]
    got = {"summary": client.get(f"/v1/games/{game_id}")}
    got["spectator"] = client.get(f"/v1/games/{game_id}/view")
    for seat in seats:
        headers = auth(seat["token"])
        got[f"view {seat['seat']}"] = client.get(f"/v1/games/{game_id}/view", headers=headers)
        events = client.get(f"/v1/games/{game_id}/events", headers=headers)
        got[f"events {seat['seat']}"] = events
    assert {name: r.status_code for name, r in got.items()} == dict.fromkeys(got, 200)
    return {name: r.get_json() for name, r in got.items()}


def test_finishing_a_game_sets_its_read_models_to_expire_a_week_after_its_last_event(deps, client):
    game = create(client)
    deps.service.clock = lambda: time.time() - 3 * 24 * 3600  # it ended 3 days ago
    current = finish(deps, game["id"])
    projector(deps).project(game["id"])
    for key in read_model_keys(deps, game["id"]):  # 4 days left, not 7 (an hour's slack)
        assert 4 * DAY_MS - 3600_000 < deps.redis.pttl(key) <= 4 * DAY_MS, key
    assert deps.redis.ttl(deps.keys.events(game["id"])) == -1  # the truth is kept
    assert current["status"] == "finished"
    assert deps.redis.zscore(deps.keys.live, game["id"]) is None


def test_a_finished_games_webhooks_expire_with_its_read_models(deps, client):
    game = create(client)
    subscriptions = Subscriptions(deps.redis, deps.keys)
    subscriptions.register(game["id"], "game", "https://example.test/a", ["game_ended"])
    subscriptions.dead_lettered(game["id"], "game", pause_after=5)  # a health entry
    deps.service.clock = lambda: time.time() - 3 * 24 * 3600  # it ended 3 days ago
    finish(deps, game["id"])
    projector(deps).project(game["id"])
    for key in (deps.keys.webhooks(game["id"]), deps.keys.webhook_health(game["id"])):
        assert 4 * DAY_MS - 3600_000 < deps.redis.pttl(key) <= 4 * DAY_MS, key


def test_a_game_still_being_played_keeps_its_read_models(deps, client):
    game = create(client)
    projector(deps).project(game["id"])
    for key in read_model_keys(deps, game["id"]):
        assert deps.redis.ttl(key) == -1, key


def test_with_the_policy_off_a_finished_game_keeps_its_read_models_for_good(deps, client):
    game = create(client)
    finish(deps, game["id"])
    projector(deps, seconds=0).project(game["id"])
    for key in read_model_keys(deps, game["id"]):
        assert deps.redis.exists(key) and deps.redis.ttl(key) == -1, key


def test_an_expired_finished_game_is_answered_from_its_stream_as_it_was(deps, client):
    game = create(client)
    deps.service.clock = lambda: time.time() - 8 * 24 * 3600  # it ended 8 days ago
    finish(deps, game["id"])
    projector(deps, seconds=0).project(game["id"])
    before = answers(client, game)
    exported = client.get(f"/v1/games/{game['id']}/export").get_json()

    projector(deps).rebuild()  # a week after its end: written anew, dropped at once
    assert not any(deps.redis.exists(k) for k in read_model_keys(deps, game["id"]))
    deps.service._cache.clear()  # another API process: nothing of the game in hand
    assert answers(client, game) == before
    assert client.get(f"/v1/games/{game['id']}/export").get_json() == exported
    assert before["view 0"]["status"] == "finished"


def test_an_api_process_that_saw_the_game_mid_way_answers_its_end_once_expired(
    deps, real_redis, keys, client
):
    game = create(client)
    other = build_deps(real_redis, keys)  # a second API process
    other.service.load(game["id"])  # holds the game at its start in its cache
    deps.service.clock = lambda: time.time() - 8 * 24 * 3600
    finish(deps, game["id"])
    projector(deps).project(game["id"])  # over a week ago: its read models are gone at once
    assert not deps.redis.exists(deps.keys.view(game["id"], 0))
    headers = auth(game["seats"][0]["token"])
    answer = create_app(other).test_client().get(f"/v1/games/{game['id']}/view", headers=headers)
    assert answer.get_json()["status"] == "finished"
    assert answer.get_json()["version"] == deps.store.version(game["id"])


def test_an_expired_cancelled_game_shows_each_seat_only_its_own_hand(deps, client):
    game = create(client, seats=3)
    deps.service.clock = lambda: time.time() - 8 * 24 * 3600
    for _ in range(3):
        _, current = deps.service.load(game["id"], fresh=True)
        seat = table.to_act(current)[0]
        deps.service.command(
            game["id"], seat, table.rules_of(current).legal(current["rules"], seat)[0]
        )
    version, current = deps.service.load(game["id"], fresh=True)
    deps.service.expire(game["id"], version, "idle")  # called off mid-game: hands stay secret
    projector(deps, seconds=0).project(game["id"])
    before = answers(client, game)

    projector(deps).rebuild()
    assert not any(deps.redis.exists(k) for k in read_model_keys(deps, game["id"], seats=3))
    deps.service._cache.clear()
    after = answers(client, game)
    assert after == before and after["view 0"]["status"] == "cancelled"
    version, current = deps.service.load(game["id"], fresh=True)
    for seat in range(3):  # each seat's own redaction, no more
        own = jsonutil.loads(jsonutil.dumps(table.view(current, version, seat)))
        assert after[f"view {seat}"] == own and own["state"]["hand"]
        theirs = [e for e in after[f"events {seat}"]["events"] if e["type"] == "commanded"]
        assert all(("command" in e) == (e["seat"] == seat) for e in theirs)
    assert after["spectator"]["state"]["hand"] is None


def test_a_cancelled_game_leaves_the_lobby_and_expires(deps, client):
    game = create(client, open_seats=1)
    first = projector(deps)
    first.project(game["id"])
    assert deps.redis.zscore(deps.keys.lobby, game["id"]) is not None
    for key in read_model_keys(deps, game["id"]):
        assert deps.redis.ttl(key) == -1, key  # waiting: listed, kept

    response = client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["creator_token"]))
    assert response.status_code == 200, response.get_json()
    first.project(game["id"])
    for lobby in (deps.keys.lobby, deps.keys.lobby_of("alebrijes"), deps.keys.live):
        assert deps.redis.zscore(lobby, game["id"]) is None, lobby
    for key in read_model_keys(deps, game["id"]):
        assert deps.redis.ttl(key) > 0, key
    assert client.get("/v1/games?game=alebrijes").get_json()["games"] == []


def test_the_sweep_sets_the_clock_of_a_game_whose_projector_died_before_it_could(deps, client):
    game = create(client)
    finish(deps, game["id"])
    crashed = projector(deps)
    version, current = deps.service.load(game["id"], fresh=True)
    crashed._save(game["id"], current, version)  # then died before its indexes and expiry
    assert deps.redis.zscore(deps.keys.live, game["id"]) is not None
    assert deps.redis.ttl(deps.keys.view(game["id"], 0)) == -1

    projector(deps).sweep()
    assert deps.redis.zscore(deps.keys.live, game["id"]) is None
    for key in read_model_keys(deps, game["id"]):
        assert deps.redis.ttl(key) > 0, key
