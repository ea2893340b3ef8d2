"""services.run as an operator meets it: each child killed outright (projector, RQ
worker, an API worker, redis-server) is started again while bots play, and every game
finishes; Ctrl-C then stops everything without a traceback; a supervisor killed
outright takes every child with it. Scraped metrics from each process."""

import json
import os
import signal
import threading
import time

import psutil
import pytest
import requests

from tests.e2e.conftest import process_tree, start_stack

pytestmark = pytest.mark.e2e

FOUR_BOTS = [{"bot": "random"}] * 4


def children(run):
    return json.loads((run.run_dir / "children.json").read_text())


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return
        except (requests.RequestException, OSError, ValueError, KeyError):
            pass  # a child being restarted: ask again
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def ready(client):
    return client.call("GET", "/readyz").status_code == 200


def finished(client, game_id):
    return client.call("GET", f"/v1/games/{game_id}").json()["status"] == "finished"


def api_workers(run):
    return {p.pid for p in psutil.Process(children(run)["api"]["pid"]).children()}


def kill_api_worker(run):
    before = api_workers(run)
    os.kill(min(before), signal.SIGKILL)
    wait_until(lambda: len(api_workers(run) - before) == 1, 30, "gunicorn to replace its worker")


def kill_child(run, name):
    pid = children(run)[name]["pid"]
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: children(run)[name]["pid"] != pid, 30, f"{name} to be started again")


def play_as_a_human(client, game_id, token, outcome):
    """Send seat 0's first legal command whenever it is its turn, until the game ends;
    note the answers (refusals and failures included: a child may be down)."""
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        try:
            view = client.view(game_id, token)
            if view["status"] == "finished":
                outcome["finished"] = True
                return
            if view["seat"] in view["to_act"]:
                command = {**view["legal"][0], "expected_version": view["version"]}
                status = client.command(game_id, token, command).status_code
                outcome[status] = outcome.get(status, 0) + 1
        except (requests.RequestException, AssertionError):
            outcome["failed"] = outcome.get("failed", 0) + 1
        time.sleep(0.05)


def test_each_child_killed_in_turn_is_started_again_and_every_game_finishes(tmp_path_factory):
    client, run = start_stack(tmp_path_factory, LOG_FORMAT="json")
    try:
        human = client.create([{"name": "ana"}, *FOUR_BOTS[:3]], seed=39, rounds=2)
        outcome = {}
        player = threading.Thread(
            target=play_as_a_human,
            args=(client, human["id"], human["seats"][0]["token"], outcome),
        )
        player.start()
        games, answered, asked = [human["id"]], 0, 0
        for victim in ("redis", "projector", "worker-1", "api worker"):
            game = client.create(FOUR_BOTS, seed=len(games) + 40, rounds=2)
            games.append(game["id"])
            time.sleep(0.3)  # the bots are playing
            if victim == "api worker":
                kill_api_worker(run)
            else:
                kill_child(run, victim)
            wait_until(lambda: ready(client), 60, f"readiness after killing {victim}")
            for game_id in games:  # the stack answers for every game, old and new
                asked += 1
                answered += client.call("GET", f"/v1/games/{game_id}").status_code == 200
        for game_id in games:
            wait_until(lambda game_id=game_id: finished(client, game_id), 90, f"{game_id} to end")
        player.join(60)
        assert outcome.get("finished") and outcome.get(200), outcome
        restarts = {name: child["restarts"] for name, child in children(run).items()}
        print(f"\nfault test: restarts {restarts}; answered {answered}/{asked}; human {outcome}")
        # An RQ worker may also quit when Redis goes, and is started again for that too.
        assert restarts["redis"] == 1 and restarts["api"] == 0 and restarts["projector"] >= 1
        assert restarts["worker-1"] >= 1
        assert answered == asked
        scraped = {
            name: requests.get(f"http://127.0.0.1:{child['metrics_port']}/metrics", timeout=5).text
            for name, child in children(run).items()
            if child["metrics_port"]
        }
        scraped["api"] = client.call("GET", "/metrics").text
        # Bot turns go to whichever bot worker is free (make run starts two).
        bot_workers = [text for name, text in scraped.items() if name.startswith("worker-")]
        assert len(bot_workers) == 2
        scraped["bot workers"] = "\n".join(bot_workers)
        assert_families(scraped)
    finally:
        run.log.seek(0, os.SEEK_END)
        stopped_at = run.log.tell()
        run.send_signal(signal.SIGINT)  # Ctrl-C
        run.wait(30)
    run.log.seek(0)
    lines = run.log.read().splitlines()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    supervisor = [r["message"] for r in records if r["logger"] == "tablestream.run"]
    assert sum("started again" in m for m in supervisor) == sum(restarts.values()), supervisor
    access = [r for r in records if r["logger"] == "tablestream.access"]
    line = next(r for r in access if r["game_id"] in games)
    for field in ("method", "path", "status", "duration_ms", "game_id", "request_id", "time"):
        assert field in line, line
    print(f"one access line: {json.dumps(line)}")
    run.log.seek(stopped_at)
    after_ctrl_c = run.log.read()
    assert "Traceback" not in after_ctrl_c and "exc_info" not in after_ctrl_c, after_ctrl_c
    counted = ", ".join(f"{name} {count}" for name, count in restarts.items())
    assert f"stopped; restarts: {counted}" in after_ctrl_c


def assert_families(scraped):
    """The metric families each process serves."""
    expected = {
        "api": [
            "tablestream_http_requests_total",
            "tablestream_http_request_duration_seconds_bucket",
            "tablestream_commands_total",
            "tablestream_open_long_polls",
            "tablestream_open_streams",
        ],
        "projector": [
            "tablestream_projection_lag_seconds_bucket",
            'tablestream_games{status="active"}',
            "tablestream_feed_lag_seconds",
        ],
        "bot workers": [
            'tablestream_commands_total{game="alebrijes"',
            "tablestream_queue_jobs",
            "tablestream_queue_oldest_job_seconds",
            'tablestream_job_latency_seconds_count{job="play_bot_turn"}',
            'tablestream_bot_decision_seconds_count{bot="random"}',
        ],
    }
    for process, families in expected.items():
        for family in families:
            assert family in scraped[process], f"{family} missing from {process}'s /metrics"


def test_a_supervisor_killed_outright_takes_every_child_with_it(tmp_path_factory):
    client, run = start_stack(tmp_path_factory, WORKERS="2")
    assert ready(client)
    descendants = process_tree(run.pid)
    names = {p.name() for p in descendants}
    assert "redis-server" in names and len(descendants) >= 6  # + gunicorn's, RQ's scheduler
    run.send_signal(signal.SIGKILL)
    run.wait(10)
    deadline = time.monotonic() + 20
    while any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in descendants):
        left = [p for p in descendants if p.is_running()]
        assert time.monotonic() < deadline, f"outlived the supervisor: {left}"
        time.sleep(0.2)


def test_the_start_up_log_is_clean_and_says_where_redis_came_from(stack):
    """No gevent MonkeyPatchWarning (the API's workers patch before the app's modules
    import ssl), and with no REDIS_URL set nothing claims one was."""
    wait_until(lambda: "Redis: " in _log_of(stack.run), 30, "the projector to name its Redis")
    text = _log_of(stack.run)
    assert "MonkeyPatchWarning" not in text
    assert "(from REDIS_URL)" not in text
    assert f"(from {stack.run.run_dir.resolve() / 'redis.url'})" in text


def _log_of(run):
    run.log.seek(0)
    return run.log.read()
