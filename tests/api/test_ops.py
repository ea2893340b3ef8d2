"""The API's operations surface, in-process: request ids, the access line, a 500's one
JSON record, /healthz, /readyz and /metrics."""

import io
import json
import logging
import threading
import time

import pytest
from prometheus_client import REGISTRY
from rq.serializers import JSONSerializer

from services.ops import health, logs
from services.ops.worker import MeasuredWorker

PROBLEM = "application/problem+json"


@pytest.fixture
def json_lines():
    """Every log record of the test, as the API process writes it (JSON lines)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.formatter("api", "json"))
    handler.addFilter(logs.RequestContext())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(level)


def test_a_request_id_is_echoed_or_made(client):
    sent = client.get("/v1/games", headers={"X-Request-ID": "abc-123"})
    assert sent.headers["X-Request-ID"] == "abc-123"
    made = client.get("/v1/games")
    assert len(made.headers["X-Request-ID"]) == 32
    hostile = client.get("/v1/games", headers={"X-Request-ID": "x" * 500})
    assert hostile.headers["X-Request-ID"] != "x" * 500


def test_every_problem_carries_the_request_id(client):
    response = client.get("/v1/games/nope/view", headers={"X-Request-ID": "req-42"})
    assert response.status_code == 404 and response.mimetype == PROBLEM
    assert response.get_json()["request_id"] == "req-42"
    unknown_route = client.get("/nowhere")
    body = unknown_route.get_json()
    assert body["code"] == "not_found"
    assert body["request_id"] == unknown_route.headers["X-Request-ID"]


@pytest.fixture(params=["full records", "lean records"])
def records(request, monkeypatch):
    """Log records as the logging module makes them by default, or lean (as every
    process of ours makes them: logs.lean_records)."""
    for switch in ("logThreads", "logProcesses", "logMultiprocessing", "_srcfile"):
        monkeypatch.setattr(logging, switch, getattr(logging, switch))
    if request.param == "lean records":
        logs.lean_records()


def test_one_json_access_line_per_request(client, json_lines, records):
    created = client.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bo"}]},
        headers={"X-Request-ID": "line-1"},
    ).get_json()
    client.get(f"/v1/games/{created['id']}/view?after=0", headers={"X-Request-ID": "line-2"})
    client.get("/healthz")  # probes are not access lines
    access = [r for r in json_lines() if r["logger"] == logs.ACCESS]
    assert [r["request_id"] for r in access] == ["line-1", "line-2"]
    line = access[1]
    assert line["method"] == "GET" and line["path"] == f"/v1/games/{created['id']}/view"
    assert line["status"] == 200 and line["game_id"] == created["id"]
    assert line["duration_ms"] >= 0 and line["process"] == "api" and line["level"] == "INFO"
    assert line["route"] == "/v1/games/<game_id>/view" and "time" in line


def test_a_500_is_one_json_record_with_the_request_and_its_traceback(app, json_lines):
    def boom():
        raise RuntimeError("the table fell over")

    app.add_url_rule("/boom", view_func=boom)
    response = app.test_client().get("/boom", headers={"X-Request-ID": "oops-1"})
    assert response.status_code == 500 and response.get_json()["request_id"] == "oops-1"
    errors = [r for r in json_lines() if r["level"] == "ERROR"]
    assert len(errors) == 1
    error = errors[0]
    assert error["method"] == "GET" and error["path"] == "/boom"
    assert error["request_id"] == "oops-1"
    assert "Traceback" in error["exc_info"] and "the table fell over" in error["exc_info"]


def test_healthz_answers_while_readyz_says_what_is_missing(client, deps):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    response = client.get("/readyz", headers={"X-Request-ID": "ready-1"})
    assert response.status_code == 503 and response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == "not_ready" and body["request_id"] == "ready-1"
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["projector"]["ok"] is False  # no projector ever beat
    assert body["checks"]["workers"]["ok"] is False
    assert body["detail"] == "not ready: projector, workers"


def test_readyz_is_ready_once_a_projector_and_a_worker_beat(client, deps):
    health.beat(deps, "projector-1")
    worker = MeasuredWorker([deps.queue], connection=deps.redis, serializer=JSONSerializer)
    worker.register_birth()
    response = client.get("/readyz")
    assert response.status_code == 200, response.get_json()
    checks = response.get_json()["checks"]
    assert checks["workers"]["workers"] == 1
    assert checks["projector"]["heartbeat_age_seconds"] < 5


def test_readyz_refuses_a_queue_older_than_its_threshold(client, deps, monkeypatch):
    health.beat(deps, "projector-1")
    MeasuredWorker([deps.queue], connection=deps.redis).register_birth()
    deps.queue.enqueue("services.worker.jobs.play_bot_turn", "g", 0, 1)
    monkeypatch.setenv("READY_QUEUE_AGE", "0.000001")
    body = client.get("/readyz").get_json()
    assert body["code"] == "not_ready" and body["checks"]["queue"]["jobs"] == 1
    monkeypatch.setenv("READY_QUEUE_AGE", "60")
    assert client.get("/readyz").status_code == 200


def sample(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_count_requests_by_route_and_commands_by_game_and_type(client):
    route = "/v1/games/<game_id>/commands"
    game = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bo"}]}
    ).get_json()
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    view = client.get(f"/v1/games/{game['id']}/view", headers=auth(tokens[0])).get_json()
    seat = view["to_act"][0]
    view = client.get(f"/v1/games/{game['id']}/view", headers=auth(tokens[seat])).get_json()
    command = view["legal"][0]
    counted = {"game": "alebrijes", "type": command["type"]}
    before = (
        sample("tablestream_http_requests_total", method="POST", route=route, status="200"),
        sample("tablestream_commands_total", **counted),
        sample("tablestream_commands_refused_total", code="version_conflict"),
    )
    url = f"/v1/games/{game['id']}/commands"
    stale = client.post(url, json={**command, "expected_version": 1}, headers=auth(tokens[seat]))
    assert stale.status_code == 409
    moved = client.post(url, json=command, headers=auth(tokens[seat]))
    assert moved.status_code == 200, moved.get_json()
    after = (
        sample("tablestream_http_requests_total", method="POST", route=route, status="200"),
        sample("tablestream_commands_total", **counted),
        sample("tablestream_commands_refused_total", code="version_conflict"),
    )
    # One series for every game (the URL rule, not the path); one count per command.
    assert after == (before[0] + 1, before[1] + 1, before[2] + 1)
    again = client.post(url, json={**command, "expected_version": 1}, headers=auth(tokens[seat]))
    assert again.status_code == 409
    refused = sample("tablestream_http_requests_total", method="POST", route=route, status="409")
    assert refused >= 2  # each answer counts, in its own series
    assert (
        sample("tablestream_http_requests_total", method="POST", route=route, status="200")
        == (after[0])
    )
    scraped = client.get("/metrics").get_data(as_text=True)
    for family in (
        "tablestream_http_requests_total",
        "tablestream_http_request_duration_seconds_bucket",
        "tablestream_commands_total",
        "tablestream_commands_refused_total",
        "tablestream_open_long_polls",
        "tablestream_open_streams",
    ):
        assert family in scraped
    assert f'route="{route}"' in scraped and game["id"] not in scraped


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_open_long_polls_and_streams_are_counted_while_they_last(app, projector):
    client = app.test_client()
    game = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
    ).get_json()
    version = projector.project(game["id"])
    polls, streams = sample("tablestream_open_long_polls"), sample("tablestream_open_streams")
    url = f"/v1/games/{game['id']}/view?after={version}&wait=1"
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(app.test_client().get(url)))
    waiting.start()
    deadline = time.monotonic() + 5
    while sample("tablestream_open_long_polls") == polls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sample("tablestream_open_long_polls") == polls + 1
    waiting.join(10)
    assert answers[0].status_code == 304
    assert sample("tablestream_open_long_polls") == polls
    stream = client.get(f"/v1/games/{game['id']}/stream", buffered=False)
    assert stream.mimetype == "text/event-stream"
    assert sample("tablestream_open_streams") == streams + 1
    stream.close()
    assert sample("tablestream_open_streams") == streams
