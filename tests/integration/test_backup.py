"""Backup and restore (services/backup.py): a deployment's games copied out, restored
into a fresh Redis server, every read model rebuilt and every game verified; and the
export of finished games as JSON Lines."""

import io
import json

import pytest
import redis

from services import backup, embedded_redis
from services.projector.build import projector_of
from shared import table
from shared.keys import Keys
from shared.matchmaking import tickets as t
from tests.fixtures import build_deps
from tests.record_logs import play_to_end

HOOK = {"url": "https://example.com/hook", "events": ["your_turn"], "secret": "s"}


@pytest.fixture
def fresh_redis(tmp_path):
    process, url = embedded_redis.start(tmp_path)
    client = redis.Redis.from_url(url)
    yield client
    client.close()
    process.kill()
    process.wait()


def read_models(d, game_id, seats):
    keys = [d.keys.summary(game_id), d.keys.view(game_id, None)]
    keys += [d.keys.view(game_id, seat) for seat in range(seats)]
    return [d.redis.get(key) for key in keys]


@pytest.fixture
def deployment(real_redis, keys):
    """Three games: finished, in play (with a webhook), waiting for a player."""
    d = build_deps(real_redis, keys)
    players = [{"name": "ana"}, {"name": "bea"}, {"name": "cy"}]
    finished = d.service.create("alebrijes", players, {"seed": 1, "rounds": 1})["id"]
    play_to_end(d, finished, seed=1)
    playing = d.service.create("alien", players, {"seed": 2})["id"]
    for _ in range(5):
        _, current = d.service.load(playing, fresh=True)
        seat = table.to_act(current)[0]
        d.service.command(playing, seat, table.rules_of(current).legal(current["rules"], seat)[0])
    d.redis.hset(d.keys.webhooks(playing), "seat-1", json.dumps(HOOK))
    waiting = d.service.create("alebrijes", [{"name": "ana"}, {"open": True}], {})["id"]
    projector = projector_of(d, consumer="test")
    for game_id in (finished, playing, waiting):
        projector.project(game_id)
    return d, {"finished": finished, "playing": playing, "waiting": waiting}


def test_a_backup_restored_into_a_fresh_redis_is_the_same_deployment(deployment, fresh_redis):
    source, games = deployment
    copy = io.StringIO()
    assert backup.backup(source, copy) == 3
    target = build_deps(fresh_redis, Keys())
    answer = backup.restore(target, copy.getvalue().splitlines(), projector_of(target, "r"))
    assert answer == {"games": 3, "finished": 1, "problems": {}}
    for game_id in games.values():
        assert target.redis.xrange(target.keys.events(game_id)) == source.redis.xrange(
            source.keys.events(game_id)
        )
        assert read_models(target, game_id, 3) == read_models(source, game_id, 3)
    assert target.redis.get(target.keys.secret).decode() == source.service.secret
    hooks = target.redis.hgetall(target.keys.webhooks(games["playing"]))
    assert json.loads(hooks[b"seat-1"]) == HOOK
    assert [g.decode() for g in target.redis.zrange(target.keys.lobby, 0, -1)] == [games["waiting"]]
    assert target.redis.zscore(target.keys.live, games["playing"]) is not None
    with pytest.raises(backup.NotEmpty):
        backup.restore(target, copy.getvalue().splitlines(), projector_of(target, "r"))


def test_a_restored_game_that_does_not_check_out_is_named(deployment, fresh_redis):
    source, games = deployment
    copy = io.StringIO()
    backup.backup(source, copy)
    lines = []
    for line in copy.getvalue().splitlines():
        item = json.loads(line)
        if item.get("game") == games["finished"] and "entries" in item:
            event = json.loads(item["entries"][0][1]["e"])
            item["entries"][0][1]["e"] = json.dumps({**event, "seed": "another"})
        lines.append(json.dumps(item))
    target = build_deps(fresh_redis, Keys())
    answer = backup.restore(target, lines, projector_of(target, "r"))
    assert list(answer["problems"]) == [games["finished"]]
    assert "seed" in answer["problems"][games["finished"]][0]


def test_finished_games_export_as_one_line_each(deployment):
    source, games = deployment
    out = io.StringIO()
    assert backup.export_finished(source, out) == 1
    (line,) = [json.loads(x) for x in out.getvalue().splitlines()]
    stored = source.store.read(games["finished"])
    assert line["id"] == games["finished"] and line["version"] == len(stored)
    assert line["events"] == [{**r.event, "version": r.version, "at": r.at} for r in stored]


def test_players_and_quick_match_tickets_come_back_with_their_identities(deployment, fresh_redis):
    """A player's stream, inbox and tickets, an identity's link and a waiting ticket's
    queue survive a restore: nothing of theirs is in the games' streams."""
    source, _ = deployment
    at = 1_800_000_000_000
    dana = source.players.create("dana", at)["id"]
    linked = source.players.create_for_identity(("https://id.example", "user-7"), at)["id"]
    source.redis.xadd(source.keys.player_inbox(dana), {"i": '{"type": "invited"}'}, id="1-0")
    queue_id, queue = t.queue_of("alien", {}, False, 30)
    doc = t.ticket(t.new_ticket_id(queue_id), queue_id, queue, dana, [2, 3], None, at, 3600, None)
    source.matchmaking.open(doc, queue, at)
    copy = io.StringIO()
    backup.backup(source, copy)
    target = build_deps(fresh_redis, Keys())
    answer = backup.restore(target, copy.getvalue().splitlines(), projector_of(target, "r"))
    assert answer["problems"] == {}
    assert target.players.player_ids() == source.players.player_ids() == sorted([dana, linked])
    for player_id in (dana, linked):
        for stream in ("player_events", "player_inbox"):
            copied = target.redis.xrange(getattr(target.keys, stream)(player_id))
            assert copied == source.redis.xrange(getattr(source.keys, stream)(player_id))
        assert target.players.load(player_id) == source.players.load(player_id)
        assert target.redis.get(target.keys.player_generation(player_id)) is not None
    assert target.players.player_of_identity("https://id.example", "user-7") == linked
    tickets = [d.redis.hgetall(d.keys.player_tickets(dana)) for d in (source, target)]
    assert tickets[0] == tickets[1] != {}
    history = [
        d.redis.zrange(d.keys.player_ticket_history(dana), 0, -1, withscores=True)
        for d in (source, target)
    ]
    assert history[0] == history[1] != []
    assert target.matchmaking.queue_ids() == [queue_id]
    assert target.matchmaking.queue(queue_id) == source.matchmaking.queue(queue_id) == queue
    assert target.matchmaking.read_model(queue_id) == source.matchmaking.read_model(queue_id)
    assert [w["id"] for w in target.matchmaking.waiting(queue_id)] == [doc["id"]]
