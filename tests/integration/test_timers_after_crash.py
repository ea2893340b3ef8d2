"""Turn timers survive a SIGKILLed RQ worker: the restarted worker's clock takes the
lease over within seconds and the pending timer fires. Real
redis-server, real worker processes."""

import time

import pytest
from rq import Worker

from services.ops.clock import LEASE_SECONDS, Clock
from services.projector.build import projector_of
from tests import processes
from tests.helpers import humans


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def timed_out(deps, game_id):
    return any(r.event["type"] == "timed_out" for r in deps.store.read(game_id))


def test_a_pending_turn_timer_fires_within_10_s_of_a_restarted_worker(
    deps, redis_url, keys, tmp_path
):
    d = deps
    env = processes.service_env(redis_url, keys)
    first = processes.start("worker", env, tmp_path / "worker.log")
    try:
        processes.wait_for(lambda: Worker.count(queue=d.queue) == 1, timeout=20)
        time.sleep(1)  # its clock (or scheduler) is up and holds the queue
        game_id = d.service.create("alebrijes", humans("ana", "bo"), {"turn_seconds": 2})["id"]
        projector_of(d, consumer="test").project(game_id)  # schedules the seat's timer
        assert d.timers.scheduled_job_registry.count == 1  # timers have their own queue
    finally:
        processes.kill_tree(first)  # the worker and anything it forked, mid-wait
    second = processes.start("worker", env, tmp_path / "worker.log")
    try:
        restarted = time.monotonic()
        processes.wait_for(lambda: timed_out(d, game_id), timeout=10, every=0.1)
        print(f"timer fired {time.monotonic() - restarted:.1f} s after the restart")
    finally:
        processes.stop(second)


def test_one_clock_holds_a_queue_and_another_takes_over_when_its_lease_lapses(deps):
    queue = deps.queue
    first, second = Clock([queue], lease=1), Clock([queue], lease=1)
    assert first.tick() == [queue.name]
    assert second.tick() == []  # held: the due jobs are moved by one clock only
    assert first.tick() == [queue.name]  # renewed
    time.sleep(1.2)  # the first clock died: its lease runs out
    assert second.tick() == [queue.name]
    assert LEASE_SECONDS < 10


def test_a_clock_stopped_cleanly_gives_its_lease_up_at_once(deps):
    queue = deps.queue
    first, second = Clock([queue]), Clock([queue])
    stop = first.start()
    # The first clock takes the lease (asking the second first could let it win the race
    # with the first's thread, and then keep the lease by renewing it on every ask).
    processes.wait_for(lambda: first.tick() == [queue.name], timeout=5)
    assert second.tick() == []
    stop()
    assert second.tick() == [queue.name]


def test_the_clock_moves_a_due_job_onto_its_queue(deps):
    queue = deps.timers
    deps.scheduler.turn_timer("g1", 0, 5, int(time.time() * 1000) - 1)
    assert queue.count == 0 and queue.scheduled_job_registry.count == 1
    Clock([queue]).tick()
    assert queue.count == 1 and queue.scheduled_job_registry.count == 0
