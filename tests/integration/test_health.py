"""Readiness figures read from Redis (feed lag, queue, heartbeats), the worker's job
metrics and the projector's and worker's own small HTTP server, on both backends."""

import time
from datetime import UTC, datetime, timedelta

import pytest
import requests
from prometheus_client import REGISTRY
from rq.serializers import JSONSerializer

from services.embedded_redis import free_port
from services.ops import health, sidecar
from services.ops.worker import MeasuredWorker
from services.projector.build import projector_of
from services.worker import chain
from tests.fixtures import build_deps

BOTS = [{"bot": "random"}] * 3


def test_the_feed_lags_until_a_projector_handles_it(deps, projector):
    projector.join_group()
    assert health.feed_lag_seconds(deps) == 0.0
    deps.service.create("alebrijes", BOTS, {"seed": 5, "rounds": 1})
    later = int(time.time() * 1000) + 30_000
    assert health.feed_lag_seconds(deps, now_ms=later) >= 29.0  # not delivered yet
    projector.poll(block_ms=1)
    assert health.feed_lag_seconds(deps, now_ms=later) == 0.0


def test_a_projector_heartbeat_ages_and_readiness_follows_it(deps, monkeypatch):
    assert health.projector_age_seconds(deps) is None
    health.beat(deps, "p1", now_ms=int(time.time() * 1000) - 90_000)
    assert 89 < health.projector_age_seconds(deps) < 100
    assert health.readiness(deps)["checks"]["projector"]["ok"] is False
    health.beat(deps, "p2")
    assert health.readiness(deps)["checks"]["projector"]["ok"] is True
    monkeypatch.setenv("READY_HEARTBEAT_AGE", "0.000001")
    assert health.readiness(deps)["checks"]["projector"]["ok"] is False


def test_the_worker_reports_job_latency_duration_and_bot_decisions(deps, projector, monkeypatch):
    # One job plays the whole game (a bot chain, no time slice): one job, every decision.
    monkeypatch.setattr(chain, "SLICE_SECONDS", 3600)

    def count(name, **labels):
        return REGISTRY.get_sample_value(name, labels) or 0.0

    before = (
        count("tablestream_job_latency_seconds_count", job="play_bot_turn"),
        count("tablestream_job_duration_seconds_count", job="play_bot_turn", outcome="ok"),
        count("tablestream_bot_decision_seconds_count", bot="random"),
    )
    game_id = deps.service.create("alebrijes", BOTS, {"seed": 6, "rounds": 1})["id"]
    projector.join_group()
    projector.poll(block_ms=1)
    assert deps.queue.count == 1  # the first bot's turn
    worker = MeasuredWorker([deps.queue], connection=deps.redis, serializer=JSONSerializer)
    worker.work(burst=True, logging_level="ERROR")
    after = (
        count("tablestream_job_latency_seconds_count", job="play_bot_turn"),
        count("tablestream_job_duration_seconds_count", job="play_bot_turn", outcome="ok"),
        count("tablestream_bot_decision_seconds_count", bot="random"),
    )
    decisions = sum(1 for r in deps.store.read(game_id) if r.event["type"] == "commanded")
    assert decisions < chain.MAX_MOVES
    assert after == (before[0] + 1, before[1] + 1, before[2] + decisions)
    assert worker.worker_ttl == 30  # beats every 15 s while idle: readiness sees it
    assert worker.alive()  # its /healthz
    worker.last_beat -= 61
    assert not worker.alive()


def test_the_sidecar_serves_metrics_health_and_readiness(deps, projector):
    deps.service.create("alebrijes", [{"name": "ana"}, {"open": True}], {"seed": 1})
    projector.join_group()
    projector.poll(block_ms=1)
    alive = [True]
    server = sidecar.serve(
        deps,
        alive=lambda: alive[0],
        collectors=[health.GamesCollector(deps), health.QueueCollector(deps)],
        port=free_port(),
    )
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        scraped = requests.get(f"{base}/metrics", timeout=5).text
        assert 'tablestream_games{status="waiting"} 1.0' in scraped
        assert "tablestream_feed_lag_seconds 0.0" in scraped
        assert f'tablestream_queue_jobs{{queue="{deps.queue.name}"}} 0.0' in scraped
        assert "tablestream_projection_lag_seconds_count" in scraped
        assert requests.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
        alive[0] = False
        stuck = requests.get(f"{base}/healthz", timeout=5)
        assert stuck.status_code == 503 and stuck.json()["code"] == "not_alive"
        not_ready = requests.get(f"{base}/readyz", timeout=5)
        assert not_ready.status_code == 503
        assert not_ready.headers["Content-Type"] == "application/problem+json"
        assert not_ready.json()["checks"]["workers"]["ok"] is False
        health.beat(deps, "p1")
        MeasuredWorker([deps.queue], connection=deps.redis).register_birth()
        assert requests.get(f"{base}/readyz", timeout=5).json()["ready"] is True
    finally:
        server.shutdown()
        server.server_close()


def test_no_port_no_server(deps, monkeypatch):
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert sidecar.serve(deps) is None
    monkeypatch.setenv("METRICS_PORT", "0")
    assert sidecar.serve(deps) is None


@pytest.fixture
def cluster_deps(cluster_redis, real_redis, keys):
    """The event store on a three-node Redis Cluster, RQ on a plain Redis."""
    return build_deps(cluster_redis, keys, queue_client=real_redis)


def test_readiness_and_the_games_gauge_on_a_redis_cluster(cluster_deps):
    d = cluster_deps
    projector = projector_of(d, consumer="cluster")
    projector.join_group()
    d.service.create("alebrijes", [{"name": "ana"}, {"open": True}], {"seed": 2})
    later = int(time.time() * 1000) + 30_000
    assert health.feed_lag_seconds(d, now_ms=later) >= 29.0
    projector.poll(block_ms=1)
    assert health.feed_lag_seconds(d, now_ms=later) == 0.0
    health.beat(d, "cluster")
    MeasuredWorker([d.queue], connection=d.queue.connection).register_birth()
    report = health.readiness(d)
    assert report["ready"], report
    games = next(f for f in health.GamesCollector(d).collect() if f.name == "tablestream_games")
    assert {s.labels["status"]: s.value for s in games.samples} == {"waiting": 1, "active": 0}


def test_a_timer_overdue_for_enqueueing_means_the_scheduler_stopped(deps):
    health.beat(deps, "p1")
    MeasuredWorker([deps.queue], connection=deps.queue.connection).register_birth()
    assert health.readiness(deps)["checks"]["queue"]["ok"] is True
    due = datetime.now(UTC) - timedelta(seconds=120)
    deps.queue.enqueue_at(due, "services.worker.jobs.fire_table_timer", "g", "window-1")
    waiting, oldest, overdue = health.queue_age_seconds(deps)
    assert (waiting, oldest) == (0, 0.0) and 115 < overdue < 130
    assert health.readiness(deps)["checks"]["queue"]["ok"] is False
