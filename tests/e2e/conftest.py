"""End-to-end: `python -m services.run` (what `make run` starts) as a real process
tree, spoken to over HTTP."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import requests

from services.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[2]


class Client:
    """The one small HTTP helper the e2e tests use."""

    def __init__(self, base):
        self.base = base
        self.http = requests.Session()

    def call(self, method, path, token=None, **kwargs):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, self.base + path, headers=headers, timeout=10, **kwargs)

    def create(self, seats, game="alebrijes", **options):
        response = self.call(
            "POST", "/v1/games", json={"game": game, "seats": seats, "options": options}
        )
        assert response.status_code == 201, response.text
        return response.json()

    def view(self, game_id, token=None):
        response = self.call("GET", f"/v1/games/{game_id}/view", token)
        assert response.status_code == 200, response.text
        return response.json()

    def command(self, game_id, token, command):
        return self.call("POST", f"/v1/games/{game_id}/commands", token, json=command)

    def events(self, game_id, token=None, after=0):
        """The event log after version `after`, every page of it, as the token's seat
        (or a spectator) may see it; and the game's version the last page reported."""
        events, limit = [], 1000
        while True:
            response = self.call(
                "GET", f"/v1/games/{game_id}/events?after={after}&limit={limit}", token
            )
            assert response.status_code == 200, response.text
            page = response.json()
            events += page["events"]
            if len(page["events"]) < limit:
                return events, page["version"]
            after = page["events"][-1]["version"]


def start_stack(tmp_path_factory, **extra_env):
    """Start `python -m services.run` with no REDIS_URL (and `extra_env`); return
    (client, process) once it says it is serving. The process's `log` is its output,
    its `run_dir` holds children.json."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    run_dir = tmp_path_factory.mktemp("run")
    env.update(PORT=str(port), RUN_DIR=str(run_dir), PYTHONUNBUFFERED="1", **extra_env)
    log = open(tmp_path_factory.mktemp("logs") / "run.log", "w+")
    run = subprocess.Popen(
        [sys.executable, "-m", "services.run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        log.seek(0)
        if "tablestream is serving" in log.read():
            run.log, run.run_dir = log, run_dir
            return Client(f"http://127.0.0.1:{port}"), run
        assert run.poll() is None, "services.run exited early:\n" + log.read()
        time.sleep(0.2)
    run.send_signal(signal.SIGINT)  # stops what it started, as Ctrl-C does
    run.wait(30)
    raise AssertionError("services.run did not start in time")


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    """The whole service as `make run` starts it, embedded Redis included."""
    client, run = start_stack(tmp_path_factory)
    client.run = run  # its output (run.log) and run_dir, for the tests of start-up
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


def process_tree(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
