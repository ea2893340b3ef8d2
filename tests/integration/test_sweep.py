"""The sweep looks at a bounded batch of due games per step, and
abandoned games expire as events in the log (a documented policy), on fakeredis and
on a real Redis server."""

import pytest

from services.projector.projector import Projector
from services.projector.sweep import Expiry
from services.worker import jobs
from shared import jsonutil, replay, table
from tests.helpers import RecordingScheduler, humans

HOUR, DAY = 3600 * 1000, 24 * 3600 * 1000
OPEN = [{"name": "ana"}, {"open": True}]


def make_all_due(deps):
    deps.redis.zadd(deps.keys.live, {g: 0 for g in deps.redis.zrange(deps.keys.live, 0, -1)})


def summary(deps, game_id):
    return jsonutil.loads(deps.redis.get(deps.keys.summary(game_id)))


def test_a_sweep_step_looks_at_a_bounded_batch_of_due_games_only(deps):
    projector = Projector(deps.store, RecordingScheduler())
    projector.sweep_batch = 10
    for _ in range(25):
        projector.project(deps.service.create("alebrijes", OPEN, {})["id"])
    assert projector.sweep_due() == 0  # just projected: none is due for 30 s
    make_all_due(deps)
    assert [projector.sweep_due() for _ in range(4)] == [10, 10, 5, 0]


def test_the_sweep_still_repairs_a_lost_notification_when_the_game_is_due(deps):
    projector = Projector(deps.store, RecordingScheduler())
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 4})["id"]
    deps.redis.delete(*(deps.keys.feed(p) for p in range(deps.store.partitions)))
    make_all_due(deps)
    assert projector.sweep_due() == 1
    assert summary(deps, game_id)["version"] == deps.store.version(game_id)


@pytest.mark.parametrize(
    ("status", "idle_ms", "expected"),
    [
        ("waiting", 23 * HOUR, None),
        ("waiting", 24 * HOUR, "no_players"),
        ("active", 6 * DAY, None),
        ("active", 7 * DAY, "idle"),
        ("finished", 30 * DAY, None),
    ],
)
def test_the_default_policy(status, idle_ms, expected):
    assert Expiry().reason({"status": status}, 1_000, 1_000 + idle_ms) == expected


def test_a_waiting_game_nobody_joins_expires_as_an_event(deps):
    scheduler = RecordingScheduler()
    projector = Projector(deps.store, scheduler, expiry=Expiry(waiting_seconds=0))
    game_id = deps.service.create("alebrijes", OPEN, {})["id"]
    version = projector.project(game_id)
    make_all_due(deps)
    projector.sweep_due()
    assert scheduler.expiries == [(game_id, version, "no_players")]
    assert jobs.expire_game(game_id, version, "no_players") == "expired"
    projector.project(game_id)
    assert deps.store.read(game_id)[-1].event == {"type": "game_expired", "reason": "no_players"}
    assert summary(deps, game_id)["status"] == "cancelled"
    assert deps.redis.zscore(deps.keys.lobby, game_id) is None
    assert deps.redis.zscore(deps.keys.live, game_id) is None


def test_an_idle_active_game_expires_and_its_log_still_replays(deps):
    scheduler = RecordingScheduler()
    projector = Projector(deps.store, scheduler, expiry=Expiry(idle_seconds=0))
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 5})["id"]
    version = projector.project(game_id)
    make_all_due(deps)
    projector.sweep_due()
    assert scheduler.expiries == [(game_id, version, "idle")]
    assert jobs.expire_game(game_id, version, "idle") == "expired"
    log = [{**r.event, "version": r.version, "at": r.at} for r in deps.store.read(game_id)]
    assert log[-1]["type"] == "game_expired" and replay.check(log) == []


def test_a_game_that_moved_after_the_sweep_saw_it_idle_does_not_expire(deps):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 5})["id"]
    seen = deps.store.version(game_id)
    _, current = deps.service.load(game_id)
    seat = table.to_act(current)[0]
    deps.service.command(game_id, seat, table.rules_of(current).legal(current["rules"], seat)[0])
    assert jobs.expire_game(game_id, seen, "idle") == "stale"
    assert all(r.event["type"] != "game_expired" for r in deps.store.read(game_id))
