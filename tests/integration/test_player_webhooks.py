"""A player's webhook on a real Redis: the API registers it (a player event), the
projector enqueues one signed delivery per inbox item of that player, a real RQ
SimpleWorker delivers them to a receiver on 127.0.0.1; another player's seats never
reach it; a rebuild of the player's stream gives the same registration; erasure
removes it."""

import time

import pytest

from services.api.webhook_schemas import PlayerNotification
from services.projector.build import projector_of
from shared import webhooks
from tests.integration.test_players_read_models import (
    guest,
    play_to_the_end,
    project,
    two_players_game,
)
from tests.integration.test_webhook_delivery import deliver_all
from tests.webhook_receiver import Receiver


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


@pytest.fixture
def receiver():
    started = Receiver()
    yield started
    started.stop()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def register(client, player, url, **spec):
    answer = client.post(
        "/v1/players/me/webhook", json={"url": url, **spec}, headers=bearer(player["token"])
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def inbox(client, player):
    return client.get("/v1/players/me/inbox?limit=200", headers=bearer(player["token"])).json


def test_a_player_hears_every_item_of_its_inbox_and_nothing_of_others(
    hook_env, client, projector, deps, receiver
):
    ana, bea, cy = guest(client, "ana"), guest(client, "bea"), guest(client, "cy")
    registered = register(client, bea, receiver.url)
    assert registered["url"] == receiver.url and "your_turn" in registered["events"]
    shared = two_players_game(client, projector, ana, bea)  # bea is seat 1, invited
    other = two_players_game(client, projector, ana, cy)  # bea has no seat here
    play_to_the_end(client, projector, shared, [ana, bea])
    deliver_all(deps)
    bodies = receiver.acknowledged()
    items = inbox(client, bea)["items"]
    # One delivery per item of bea's inbox, the item itself: the inbox is the one source.
    assert [b["version"] for b in bodies] == [i["version"] for i in items]
    assert [{k: v for k, v in b.items() if k not in ("id", "player_id")} for b in bodies] == items
    kinds = [b["kind"] for b in bodies]
    assert kinds[:2] == ["invited", "game_started"] and kinds[-1] == "game_ended"
    assert "your_turn" in kinds
    # Hidden information: only bea's seat, only bea's games.
    assert {b["game_id"] for b in bodies} == {shared["id"]}
    assert {b["seat"] for b in bodies} == {1}
    assert {b["player_id"] for b in bodies} == {bea["id"]}
    assert other["id"].encode() not in b"".join(raw for _, _, _, raw in receiver.requests)
    assert len({b["id"] for b in bodies}) == len(bodies)
    for _, headers, body, raw in receiver.requests:
        assert webhooks.verify(
            registered["secret"], headers[webhooks.SIGNATURE_HEADER], raw, time.time()
        )
        assert headers[webhooks.EVENT_ID_HEADER] == body["id"]
        assert PlayerNotification().validate(body) == {}


def test_only_the_kinds_asked_for_and_none_once_removed(
    hook_env, client, projector, deps, receiver
):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    register(client, bea, receiver.url, events=["invited"])
    two_players_game(client, projector, ana, bea)
    deliver_all(deps)
    assert [b["kind"] for b in receiver.acknowledged()] == ["invited"]
    removed = client.delete("/v1/players/me/webhook", headers=bearer(bea["token"]))
    assert removed.status_code == 204
    two_players_game(client, projector, ana, bea)
    deliver_all(deps)
    assert len(receiver.acknowledged()) == 1


def test_a_failing_receiver_is_retried_then_paused_until_registered_again(
    hook_env, client, projector, deps
):
    hook_env.setenv("WEBHOOK_ATTEMPTS", "2")
    hook_env.setenv("WEBHOOK_PAUSE_AFTER", "1")
    failing = Receiver(answer=lambda body, seen: 503)
    try:
        ana, bea = guest(client, "ana"), guest(client, "bea")
        register(client, bea, failing.url, events=["invited"])
        game = two_players_game(client, projector, ana, bea)
        deliver_all(deps)
        assert [s for s, _, _, _ in failing.requests] == [503, 503]  # retried once
        letters = deps.redis.lrange(deps.keys.webhook_dead_letters, 0, -1)
        assert len(letters) == 1 and bea["id"].encode() in letters[0]
        # Paused: the player's webhook is the player's business, not the game's log.
        log = client.get(f"/v1/games/{game['id']}/events").get_json()["events"]
        assert "webhook_paused" not in {e["type"] for e in log}
        two_players_game(client, projector, ana, bea)
        deliver_all(deps)
        assert len(failing.requests) == 2  # paused: the second invitation is not sent
    finally:
        failing.stop()
    working = Receiver()
    try:
        register(client, bea, working.url, events=["invited"])  # resumes
        two_players_game(client, projector, ana, bea)
        deliver_all(deps)
        assert [b["kind"] for b in working.acknowledged()] == ["invited"]
    finally:
        working.stop()


def test_the_registration_rebuilds_equal_and_erasure_removes_it(
    hook_env, client, projector, deps, receiver
):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    register(client, bea, "http://127.0.0.1:9/old")
    register(client, bea, receiver.url, events=["your_turn", "game_ended"])
    key = deps.keys.player_webhook(bea["id"])
    stored = deps.redis.get(key)
    assert receiver.url.encode() in stored
    deps.redis.delete(key)
    deps.players.rebuild(bea["id"])
    assert deps.redis.get(key) == stored
    # The projector's rebuild (`python -m services.projector rebuild`) folds it again too.
    deps.redis.delete(key, deps.keys.player(bea["id"]))
    fold = deps.players.load(bea["id"])
    projector_of(deps, consumer="rebuilder").rebuild()
    assert deps.redis.get(key) == stored
    assert deps.players.load(bea["id"])[1]["name"] == "bea" and fold == (0, None)
    client.delete("/v1/players/me/webhook", headers=bearer(bea["token"]))
    assert deps.redis.get(key) is None
    deps.players.rebuild(bea["id"])
    assert deps.redis.get(key) is None
    register(client, bea, receiver.url)
    assert client.delete("/v1/players/me", headers=bearer(bea["token"])).status_code == 204
    assert deps.redis.get(key) is None
    assert not deps.redis.exists(deps.keys.player_webhook_health(bea["id"]))
    deps.players.rebuild(bea["id"])
    assert deps.redis.get(key) is None
    # Nothing is sent for an erased player's games.
    body = {"game": "alebrijes", "seats": [{"player": "me"}, {"bot": "random"}]}
    client.post("/v1/games", json=body, headers=bearer(ana["token"]))
    project(projector)
    deliver_all(deps)
    assert receiver.requests == []


def test_a_rebuild_never_writes_an_older_fold_over_a_newer_one(client, deps):
    bea = guest(client, "bea")
    store = deps.players
    entries = deps.redis.xrange(deps.keys.player_events(bea["id"]))
    real_xrange = deps.redis.xrange
    calls = []

    def racing_xrange(key, *args, **kwargs):
        """The rebuild's first read, then a rename lands before it stores its fold."""
        calls.append(key)
        if len(calls) == 1:
            client.patch("/v1/players/me", json={"name": "bea b."}, headers=bearer(bea["token"]))
            return entries
        return real_xrange(key, *args, **kwargs)

    deps.redis.xrange = racing_xrange
    try:
        version, player = store.rebuild(bea["id"])
    finally:
        deps.redis.xrange = real_xrange
    assert len(calls) == 2 and player["name"] == "bea b."
    assert store.load(bea["id"]) == (version, player)
