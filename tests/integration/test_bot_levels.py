"""Bots of every level play through RQ: a real Redis, a real SimpleWorker. The worker
gives a bot its view, its own redacted feed and its budget; timers have a queue of
their own, so they never wait behind a bot's think time."""

import subprocess
import sys
import time

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services.projector.build import projector_of
from services.worker import jobs
from shared import bots, jsonutil, table
from shared.bots import ismcts
from tests.bot_cases import CASE_PARAMS
from tests.integration.helpers import run_until_quiet


@pytest.fixture
def deps_redis(real_redis):
    """Deps on the real Redis server only."""
    return real_redis


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_greedy_and_ismcts_seats_play_a_game_to_its_end_through_rq(case, deps):
    seats = [
        {"bot": "greedy", "reaction_seconds": 0},
        {"bot": "ismcts", "think_ms": 20, "reaction_seconds": 0},
    ]
    with case.installed():
        game_id = deps.service.create(case.game, seats, {"seed": 5, **case.options})["id"]
        run_until_quiet(deps, projector_of(deps, consumer="test"))
    _, current = deps.service.load(game_id, fresh=True)
    assert current["status"] == "finished"
    by_seat = [r.event["seat"] for r in deps.store.read(game_id) if r.event["type"] == "commanded"]
    assert {0, 1} <= set(by_seat)  # each level moved


def test_a_bot_job_gives_the_bot_its_view_its_own_feed_and_its_budget(deps, monkeypatch):
    from tests.standin_bots import installed_standin

    seen = []
    real_choose = bots.choose

    def spy(level, view, feed, rng, think_ms=None, **kwargs):
        seen.append((level, view, feed, think_ms))
        return real_choose(level, view, feed, rng, think_ms, **kwargs)

    monkeypatch.setattr(bots, "choose", spy)
    seats = [{"name": "ana"}, {"bot": "ismcts", "think_ms": 25}]
    with installed_standin():
        game_id = deps.service.create("alebrijes", seats, {"seed": 3})["id"]
        projector = projector_of(deps, consumer="test")
        projector.project(game_id)
        deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
        version = projector.project(game_id)
        assert jobs.play_bot_turn(game_id, 1, version) == "moved"
    ((level, view, feed, think_ms),) = seen
    assert (level, think_ms) == ("ismcts", 25)
    assert view == jsonutil.loads(deps.redis.get(deps.keys.view(game_id, 1)))
    _, current = deps.service.load(game_id)
    records = deps.store.read(game_id, limit=version)
    assert feed == [table.event_as_seen(current, r, 1) for r in records]
    dealt = next(e for e in feed if e["type"] == "dealt")
    assert dealt["hands"][0] is None
    assert sorted(dealt["hands"][1]) == sorted(view["state"]["hand"])
    assert all(e.get("seed") is None for e in feed)  # the seed stays hidden until the end


def test_timers_go_on_their_own_queue_and_a_timers_worker_fires_them_past_a_busy_bot(
    deps,
):
    seats = [{"name": "ana"}, {"bot": "ismcts", "think_ms": 5000}]
    game_id = deps.service.create("alebrijes", seats, {"seed": 4, "turn_seconds": 1})["id"]
    version = projector_of(deps, consumer="test").project(game_id)
    timers, bots_queue = deps.timers, deps.queue
    assert timers.name.endswith("timers") and bots_queue.name.endswith("bots")
    assert timers.scheduled_job_registry.get_job_ids() == [f"timer-{game_id}-0-{version}"]
    assert bots_queue.scheduled_job_registry.get_job_ids() == []
    # A bot job that would think for 5 s waits on the bots queue...
    bots_queue.enqueue(jobs.play_bot_turn, game_id, 1, version, job_id="slow-bot")
    worker = SimpleWorker([timers], connection=timers.connection, serializer=JSONSerializer)
    deadline = time.monotonic() + 10
    while not any(r.event["type"] == "timed_out" for r in deps.store.read(game_id)):
        assert time.monotonic() < deadline, "the timer never fired"
        time.sleep(0.3)
        worker.work(burst=True, with_scheduler=True, logging_level="ERROR")
    # ... and the timers' worker fired seat 0's timer without touching it.
    assert bots_queue.job_ids == ["slow-bot"]


def test_the_worker_serves_the_queues_it_is_told_and_refuses_others():
    refused = subprocess.run(
        [sys.executable, "-m", "services.worker", "--queues", "timers,lobby"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and "timers, bots" in refused.stderr


def test_a_bot_that_fails_plays_as_the_takeover_level_rather_than_stall_the_game(
    deps, monkeypatch, caplog
):
    def broken(view, feed, rng, think_ms=None, **kwargs):
        raise RuntimeError("a bug in the search")

    monkeypatch.setattr(ismcts, "search", broken)
    seats = [{"bot": "ismcts"}, {"name": "bo"}]
    game_id = deps.service.create("alebrijes", seats, {"seed": 6})["id"]
    version = projector_of(deps, consumer="test").project(game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"
    assert deps.store.version(game_id) > version
    assert "bot ismcts failed" in caplog.text and "a bug in the search" in caplog.text
    assert "greedy decides instead" in caplog.text  # the table's takeover_bot
