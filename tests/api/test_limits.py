"""Abuse limits: past each one a 429 problem+json `rate_limited` with
Retry-After, and nothing written; RATE_LIMITS=off lifts them all. On fakeredis, on a
real Redis and on a real Redis Cluster."""

import dataclasses
import threading
import time

import pytest

from services.api import create_app
from shared.config import Config
from tests.api.helpers import (
    app_with,
    assert_rate_limited,
    auth,
    create_app_client,
    stream_versions,
)
from tests.fixtures import build_deps

TABLE = {"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bo"}]}
WAITING = {"game": "alebrijes", "seats": [{"name": "ana"}, {"open": True}]}


@pytest.fixture
def deps_redis(any_redis):
    return any_redis


def from_address(address):
    return {"REMOTE_ADDR": address}


def test_creating_tables_past_the_limit_is_429_and_creates_nothing(deps):
    client = create_app_client(deps, rate_limit_create="3/minute")
    for _ in range(3):
        assert client.post("/v1/games", json=TABLE).status_code == 201
    assert_rate_limited(client.post("/v1/games", json=TABLE), 60)
    assert len(deps.store.game_ids()) == 3
    assert deps.redis.keys(f"LIMITS:LIMITER/{deps.keys.prefix}limits/*")  # this deployment's
    assert deps.redis.keys(f"{deps.keys.prefix}limits*") == []  # none among its data
    other = client.post("/v1/games", json=TABLE, environ_base=from_address("10.0.0.2"))
    assert other.status_code == 201  # the limit is per client address


def test_commands_past_the_limit_are_429_and_change_nothing(deps):
    client = create_app_client(deps, rate_limit_commands="2/minute")
    game = client.post("/v1/games", json=TABLE).get_json()
    path, token = f"/v1/games/{game['id']}/commands", game["seats"][0]["token"]
    wrong = {"type": "play", "cards": ["B1"], "ollin": "none"}  # not this phase's command
    for _ in range(2):
        assert client.post(path, json=wrong, headers=auth(token)).status_code in (409, 422)
    before = stream_versions(deps)
    legal = {"type": "exchange", "cards": []}
    assert_rate_limited(client.post(path, json=legal, headers=auth(token)), 60)
    assert stream_versions(deps) == before
    other = client.post(path, json=wrong, headers=auth(game["seats"][1]["token"]))
    assert other.status_code in (409, 422)  # judged by the rules: the limit is per seat
    game_id, seat, signature = token.split(".")
    same_seat = f"{game_id}.0{seat}.{signature}"  # another spelling of seat 0's token:
    # refused outright, so no spelling escapes the seat's count
    assert client.post(path, json=legal, headers=auth(same_seat)).status_code == 401
    typed = f"/v1/alebrijes/{game['id']}/commands"  # the game's typed route counts too
    assert_rate_limited(client.post(typed, json=legal, headers=auth(token)), 60)
    assert stream_versions(deps) == before


def hold_long_polls(app, game, count, seconds):
    """`count` long-polls waiting on `game` in threads; returns the threads and the
    list their statuses go to."""
    url = f"/v1/games/{game['id']}/view?after={game['version']}&wait={seconds}"
    statuses = []

    def poll():
        statuses.append(app.test_client().get(url).status_code)

    threads = [threading.Thread(target=poll) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, statuses


def open_waits(deps):
    return deps.redis.zcard(f"{deps.keys.prefix}open:127.0.0.1")


def wait_until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_long_polls_and_streams_past_the_cap_of_an_address_are_429(deps, projector):
    app = app_with(deps, rate_limit_streams=2)
    client = app.test_client()
    game = client.post("/v1/games", json=TABLE).get_json()
    projector.project(game["id"])
    polls, statuses = hold_long_polls(app, game, 2, seconds=3)
    wait_until(lambda: open_waits(deps) == 2)
    url = f"/v1/games/{game['id']}/view?after={game['version']}&wait=1"
    assert_rate_limited(client.get(url), 8)
    assert_rate_limited(client.get(f"/v1/games/{game['id']}/stream"), 8)
    assert client.get(url, environ_base=from_address("10.0.0.2")).status_code == 304
    for poll in polls:
        poll.join(10)
    assert statuses == [304, 304] and open_waits(deps) == 0  # each gave its place back
    stream = client.get(f"/v1/games/{game['id']}/stream")
    assert stream.status_code == 200 and open_waits(deps) == 1
    stream.close()
    assert open_waits(deps) == 0  # so did the stream, once closed


def test_the_places_of_a_process_that_died_free_themselves(deps, projector):
    app = app_with(deps, rate_limit_streams=2)
    game = app.test_client().post("/v1/games", json=TABLE).get_json()
    projector.project(game["id"])
    url = f"/v1/games/{game['id']}/view?after={game['version']}&wait=0.1"
    leases = app.extensions["tablestream.leases"]
    with app.test_request_context("/"):
        leases.take(1), leases.take(1)  # never given back, as after a SIGKILL
    assert_rate_limited(app.test_client().get(url), 1)
    time.sleep(1.1)
    assert app.test_client().get(url).status_code == 304


def test_rate_limits_off_lifts_every_limit(deps, projector):
    app = app_with(
        deps, rate_limits=False, rate_limit_create="1/minute", rate_limit_commands="1/minute"
    )
    assert "limiter" not in app.extensions  # none installed: nothing runs per request
    client = app.test_client()
    games = [client.post("/v1/games", json=TABLE) for _ in range(3)]
    assert [g.status_code for g in games] == [201] * 3
    game = games[0].get_json()
    path, token = f"/v1/games/{game['id']}/commands", game["seats"][0]["token"]
    wrong = {"type": "play", "cards": ["B1"], "ollin": "none"}
    assert all(
        client.post(path, json=wrong, headers=auth(token)).status_code != 429 for _ in range(3)
    )
    projector.project(game["id"])
    deps.config = dataclasses.replace(deps.config, rate_limit_streams=1)
    polls, statuses = hold_long_polls(create_app(deps), game, 3, seconds=0.5)
    for poll in polls:
        poll.join(10)
    assert statuses == [304] * 3 and open_waits(deps) == 0  # nothing was even counted


def test_the_default_limits_let_a_fast_whole_game_through(deps, projector):
    """Every command of a two-seat game as fast as the test client sends them."""
    from tests.api.helpers import play_to_the_end

    client = create_app(deps).test_client()
    game = client.post("/v1/games", json={**TABLE, "options": {"rounds": 1}}).get_json()
    assert play_to_the_end(client, game, projector, 2)["status"] == "finished"


def test_the_limits_are_read_from_the_environment():
    config = Config.from_env({})
    assert config.rate_limits and config.rate_limit_create == "120/minute"
    env = {
        "RATE_LIMITS": "off",
        "RATE_LIMIT_CREATE": "5/second",
        "RATE_LIMIT_COMMANDS": "9/minute",
        "RATE_LIMIT_STREAMS": "7",
        "TRUSTED_PROXIES": "1",
    }
    config = Config.from_env(env)
    assert not config.rate_limits and config.rate_limit_create == "5/second"
    assert config.rate_limit_commands == "9/minute" and config.rate_limit_streams == 7
    assert config.trusted_proxies == 1


def test_behind_a_trusted_proxy_the_limit_counts_the_forwarded_address(deps):
    client = create_app_client(deps, rate_limit_create="1/minute", trusted_proxies=1)
    first = {"X-Forwarded-For": "203.0.113.7"}
    assert client.post("/v1/games", json=TABLE, headers=first).status_code == 201
    assert_rate_limited(client.post("/v1/games", json=TABLE, headers=first), 60)
    other = {"X-Forwarded-For": "203.0.113.8"}
    assert client.post("/v1/games", json=TABLE, headers=other).status_code == 201


def test_limits_hold_on_a_redis_cluster(cluster_redis, real_redis, cluster_url, keys):
    deps = build_deps(cluster_redis, keys, queue_client=real_redis)
    deps.config = dataclasses.replace(deps.config, redis_url=cluster_url, redis_cluster=True)
    client = create_app_client(deps, rate_limit_create="2/minute")
    for _ in range(2):
        assert client.post("/v1/games", json=WAITING).status_code == 201
    assert_rate_limited(client.post("/v1/games", json=WAITING), 60)
    assert len(deps.store.game_ids()) == 2


def test_a_refused_creation_is_not_kept_for_its_idempotency_key(deps):
    """A retry with the same Idempotency-Key after Retry-After is carried out."""
    client = create_app_client(deps, rate_limit_create="1/2 seconds")
    assert client.post("/v1/games", json=TABLE).status_code == 201
    retry = {"Idempotency-Key": "table-2"}
    assert_rate_limited(client.post("/v1/games", json=TABLE, headers=retry), 2)
    time.sleep(2.05)
    assert client.post("/v1/games", json=TABLE, headers=retry).status_code == 201
    assert len(deps.store.game_ids()) == 2


def test_making_players_past_the_limit_is_429_and_makes_none(deps):
    client = create_app_client(deps, rate_limit_players="2/minute")
    for _ in range(2):
        assert client.post("/v1/players", json={"name": "ana"}).status_code == 201
    assert_rate_limited(client.post("/v1/players", json={"name": "ana"}), 60)
    assert len(deps.players.player_ids()) == 2
    other = client.post("/v1/players", json={"name": "bo"}, environ_base=from_address("10.0.0.2"))
    assert other.status_code == 201  # per client address


def _guest(client, name, address="10.0.0.1"):
    made = client.post("/v1/players", json={"name": name}, environ_base=from_address(address))
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def _invite(client, inviter, invited, address="10.0.0.1"):
    seats = [{"player": "me"}] + [{"player": p["id"]} for p in invited]
    body = {"game": "alebrijes", "seats": seats}
    headers = auth(inviter["token"]) if inviter else {}
    if inviter is None:
        body["seats"][0] = {"name": "anon"}
    return client.post("/v1/games", json=body, headers=headers, environ_base=from_address(address))


def test_invitations_past_the_limit_are_429_and_invite_nobody(deps):
    client = create_app_client(
        deps, rate_limit_invitations="3/minute", rate_limit_players="50/hour"
    )
    ana, bea, cy, dee = (_guest(client, n) for n in ("ana", "bea", "cy", "dee"))
    assert _invite(client, ana, [bea, cy]).status_code == 201  # two invitations
    assert _invite(client, ana, [dee]).status_code == 201  # three: the cap
    games = len(deps.store.game_ids())
    assert_rate_limited(_invite(client, ana, [bea]), 60)
    assert len(deps.store.game_ids()) == games  # nothing written
    # A game with only the player itself invites nobody: not counted.
    alone = client.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"player": "me"}, {"bot": "random"}]},
        headers=auth(ana["token"]),
    )
    assert alone.status_code == 201
    # Per inviting player, wherever it calls from; another player still may.
    assert_rate_limited(_invite(client, ana, [bea], address="10.0.0.9"), 60)
    assert _invite(client, bea, [ana]).status_code == 201
    # Without a player token the creator's address is the inviter.
    for _ in range(3):
        assert _invite(client, None, [dee], address="10.0.0.5").status_code == 201
    assert_rate_limited(_invite(client, None, [dee], address="10.0.0.5"), 60)
    assert _invite(client, None, [dee], address="10.0.0.6").status_code == 201


def test_invitations_are_not_limited_when_the_limits_are_off(deps):
    client = create_app_client(deps, rate_limits=False, rate_limit_invitations="1/minute")
    ana, bea = _guest(client, "ana"), _guest(client, "bea")
    for _ in range(3):
        assert _invite(client, ana, [bea]).status_code == 201


@pytest.mark.parametrize(
    "path, most",
    [("/v1/players/me/inbox", 200), ("/v1/players/me/games", 100)],
)
def test_an_inbox_or_games_page_is_bounded(deps, path, most):
    client = create_app_client(deps)
    ana = _guest(client, "ana")
    assert client.get(f"{path}?limit={most}", headers=auth(ana["token"])).status_code == 200
    for limit in (most + 1, 0, -1, 10**30, "x"):
        refused = client.get(f"{path}?limit={limit}", headers=auth(ana["token"]))
        assert refused.status_code == 400 and refused.get_json()["code"] == "bad_request"
