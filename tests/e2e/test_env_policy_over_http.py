"""A policy written for the environments (shared/envs/example.py's `eager`), wrapped
with shared.envs.policy.as_level and registered by a distribution's entry point, is
seated on a real server with no other code: it plays a whole game there, and it plays
a human's seat through `tablestream bot run` too."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests import bot_plugins
from tests.e2e.conftest import ROOT, start_stack

pytestmark = pytest.mark.e2e

WALL_CLOCK = 180
ENTRY = {"eager": "shared.envs.example:LEVEL"}


@pytest.fixture(scope="module")
def plugin_stack(tmp_path_factory):
    """The whole service, its processes finding the distribution that registers eager."""
    where = bot_plugins.write_distribution(tmp_path_factory.mktemp("plugins"), ENTRY)
    client, run = start_stack(tmp_path_factory, PYTHONPATH=bot_plugins.python_path(where))
    client.plugins = where
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


def finished(client, game_id):
    deadline = time.monotonic() + WALL_CLOCK
    while (summary := client.call("GET", f"/v1/games/{game_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, f"{game_id} still {summary['status']}"
        time.sleep(0.2)
    return summary


def test_an_environment_policy_plays_a_whole_game_as_a_server_bot(plugin_stack):
    seats = [{"bot": "eager", "reaction_seconds": 0}, {"bot": "greedy", "reaction_seconds": 0}]
    created = plugin_stack.create(seats, game="alien", seed=21)
    summary = finished(plugin_stack, created["id"])
    assert [s["bot"] for s in summary["seats"]] == ["eager", "greedy"]
    events, _ = plugin_stack.events(created["id"])
    movers = {e["seat"] for e in events if e["type"] == "commanded" and e["by"] == "bot"}
    assert movers == {0, 1}
    assert not [e for e in events if e["type"] == "seat_taken_over"]


def test_an_environment_policy_plays_a_seat_through_the_runner(plugin_stack):
    created = plugin_stack.create([{"name": "ana"}, {"bot": "greedy"}], game="alebrijes", rounds=1)
    env = {**os.environ, "PYTHONPATH": bot_plugins.python_path(plugin_stack.plugins)}
    command = [sys.executable, "-m", "services.cli", "bot", "run", "--url", plugin_stack.base]
    command += ["--token", created["seats"][0]["token"], "--level", "eager"]
    runner = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=WALL_CLOCK
    )
    assert runner.returncode == 0, runner.stderr
    assert finished(plugin_stack, created["id"])["seats"][0]["bot"] is None
    events, _ = plugin_stack.events(created["id"])
    assert {e["seat"] for e in events if e["type"] == "commanded" and e["by"] == "holder"} == {0}
