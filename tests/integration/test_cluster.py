"""The service on a real three-node Redis Cluster (RQ on a plain Redis beside it, as
it must be): every game's keys share a slot, cross-game keys are touched one by one."""

import threading

import pytest

from services import deps as deps_module
from services.api import create_app
from services.projector.build import projector_of
from shared import jsonutil
from tests.integration.helpers import FOUR_BOTS, all_read_models, run_until_quiet


@pytest.fixture
def deps_redis(cluster_redis):
    return cluster_redis


@pytest.fixture
def deps_queue_redis(real_redis):
    return real_redis


def test_bots_play_a_whole_game_with_the_event_store_on_a_cluster(deps):
    projector = projector_of(deps, consumer="cluster")
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 3, "rounds": 1})["id"]
    run_until_quiet(deps, projector)
    summary = jsonutil.loads(deps.redis.get(deps.keys.summary(game_id)))
    assert summary["status"] == "finished" and summary["result"]["winners"]


def test_rebuild_on_a_cluster_gives_the_same_read_models(deps):
    projector = projector_of(deps, consumer="cluster")
    waiting = deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
    playing = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 4, "rounds": 1})["id"]
    run_until_quiet(deps, projector)
    live = all_read_models(deps)
    assert deps.keys.summary(waiting).encode() in live
    assert deps.keys.view(playing, 3).encode() in live
    assert projector.rebuild() == 2
    assert all_read_models(deps) == live


def test_a_long_poll_is_woken_through_the_clusters_pub_sub(deps):
    app = create_app(deps)
    projector = projector_of(deps, consumer="cluster")
    game = deps.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 5})
    version = projector.project(game["id"])
    answers = []
    url = f"/v1/games/{game['id']}/view?after={version}&wait=20"
    poll = threading.Thread(target=lambda: answers.append(app.test_client().get(url)))
    poll.start()
    deps.service.command(game["id"], 0, {"type": "exchange", "cards": []})
    projector.project(game["id"])
    poll.join(25)
    assert answers[0].status_code == 200 and answers[0].get_json()["version"] > version


def test_the_lobby_reads_summaries_from_every_node(deps):
    app = create_app(deps)
    projector = projector_of(deps, consumer="cluster")
    ids = [
        deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
        for _ in range(6)
    ]
    for game_id in ids:
        projector.project(game_id)
    listed = app.test_client().get("/v1/games").get_json()["games"]
    assert sorted(g["id"] for g in listed) == sorted(ids)


def test_the_cluster_client_bounds_a_connect_to_every_node(cluster_url):
    client = deps_module.connect(cluster_url, cluster=True)
    try:
        nodes = client.get_nodes()
        assert len(nodes) == 3
        for node in nodes:
            settings = node.redis_connection.connection_pool.connection_kwargs
            assert settings["socket_connect_timeout"] == deps_module.CONNECT_TIMEOUT
            assert settings["socket_timeout"] is None
    finally:
        client.close()


def test_a_players_webhook_hears_its_inbox_on_a_cluster(deps, monkeypatch):
    """The inbox script reads the registration on the player's own slot; the delivery
    finds it, and its claims, there too."""
    from tests.integration.test_webhook_delivery import deliver_all
    from tests.webhook_receiver import Receiver

    monkeypatch.setenv("WEBHOOK_ALLOW_HTTP", "1")
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    client = create_app(deps).test_client()
    projector = projector_of(deps, consumer="cluster")
    ana, bea = (client.post("/v1/players", json={"name": n}).get_json() for n in ("ana", "bea"))
    receiver = Receiver()
    try:
        hook = client.post(
            "/v1/players/me/webhook",
            json={"url": receiver.url, "events": ["invited"]},
            headers={"Authorization": f"Bearer {bea['token']}"},
        )
        assert hook.status_code == 201, hook.get_json()
        body = {"game": "alebrijes", "seats": [{"player": "me"}, {"player": bea["id"]}]}
        game = client.post(
            "/v1/games", json=body, headers={"Authorization": f"Bearer {ana['token']}"}
        ).get_json()
        run_until_quiet(deps, projector)
        deliver_all(deps)
        (told,) = receiver.acknowledged()
        assert (told["kind"], told["game_id"], told["player_id"]) == (
            "invited", game["id"], bea["id"]
        )  # fmt: skip
    finally:
        receiver.stop()
