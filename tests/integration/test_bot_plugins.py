"""Bot plugins in the worker: a level installed as an entry point (a test distribution,
tests/bot_plugins.py) plays a seat through a real RQ job; one that raises, is late or
answers an illegal command is logged and replaced for that decision by the table's
takeover_bot, and the game goes on. A worker does not start with a plugin that fails to
load, or without a level it is told it needs."""

import random
import subprocess
import sys

import pytest

from services.projector.build import projector_of
from services.worker import jobs
from shared import bots, jsonutil, table
from tests import bot_plugins


@pytest.fixture
def deps_redis(real_redis):
    """Deps on the real Redis server only."""
    return real_redis


@pytest.fixture
def plugins(tmp_path):
    with bot_plugins.installed(tmp_path) as registry:
        yield registry


def _first_turn(d, game_id):
    """(version, seat 0's view and feed) once the bot in seat 0 must move."""
    version = projector_of(d, consumer="test").project(game_id)
    view = jsonutil.loads(d.redis.get(d.keys.view(game_id, 0)))
    _, current = d.service.load(game_id)
    feed = [table.event_as_seen(current, r, 0) for r in d.store.read(game_id, limit=version)]
    return version, view, feed


def _commands_of(d, game_id, seat):
    return [
        r.event["command"]
        for r in d.store.read(game_id)
        if r.event["type"] == "commanded" and r.event["seat"] == seat
    ]


def test_a_plugin_level_plays_a_seat_through_the_worker(deps, plugins):
    seats = [{"bot": "first"}, {"name": "bo"}]
    game_id = deps.service.create("alebrijes", seats, {"seed": 6})["id"]
    version, view, _ = _first_turn(deps, game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"
    assert _commands_of(deps, game_id, 0)[0] == view["legal"][0]


@pytest.mark.parametrize(
    ("level", "logged"),
    [("raises", "a bug in the plugin"), ("sleeps", "ms on alebrijes"), ("illegal", "not legal")],
)
def test_a_failing_plugin_is_replaced_by_the_takeover_level_for_that_decision(
    deps, plugins, caplog, level, logged
):
    seats = [{"bot": level}, {"name": "bo"}]
    options = {"seed": 6, "takeover_bot": "greedy"}
    game_id = deps.service.create("alebrijes", seats, options)["id"]
    version, view, feed = _first_turn(deps, game_id)
    rng = random.Random(f"bot-{game_id}-0-{version}")  # the chain's seed for this decision
    takeover = bots.choose("greedy", view, feed, rng)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"
    assert _commands_of(deps, game_id, 0)[0] == takeover
    assert deps.store.version(game_id) > version  # the game went on
    assert f"bot {level}" in caplog.text and logged in caplog.text
    assert "greedy decides instead" in caplog.text


def _worker(tmp_path, **env):
    """`python -m services.worker` with the test distribution in `tmp_path`. Its Redis
    is a port nothing listens on: a worker that wrongly started would touch no Redis."""
    import os

    env = {"PYTHONPATH": bot_plugins.python_path(tmp_path), **env}
    env.update(REDIS_URL="redis://127.0.0.1:9/0", QUEUE_URL="redis://127.0.0.1:9/0")
    return subprocess.run(
        [sys.executable, "-m", "services.worker"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


def test_a_worker_does_not_start_with_a_plugin_that_fails_to_load(tmp_path):
    bot_plugins.write_distribution(tmp_path, {"first": bot_plugins.ENTRIES["first"]})
    bot_plugins.write_distribution(tmp_path, bot_plugins.BROKEN)
    refused = _worker(tmp_path)
    assert refused.returncode == 2, refused.stderr
    for name in bot_plugins.BROKEN:
        assert name in refused.stderr
    assert "failed to import" in refused.stderr and "chess" in refused.stderr


def test_a_worker_does_not_start_without_a_level_it_needs(tmp_path):
    refused = _worker(tmp_path, BOT_LEVELS="first,deepbot")
    assert refused.returncode == 2
    assert "first: not installed" in refused.stderr and "deepbot: not installed" in refused.stderr


def test_a_plugin_takes_over_a_seat_whose_holder_timed_out(deps, plugins):
    """The timers' takeover loads its level through the same registry: a plugin named
    as takeover_bot takes the seat after a timeout and plays it."""
    options = {"seed": 3, "zombie_after": 1, "turn_seconds": 5, "takeover_bot": "first"}
    game_id = deps.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], options)["id"]
    assert jobs.fire_turn_timer(game_id, 0, deps.store.version(game_id)) == "timed out"
    taken = [r.event for r in deps.store.read(game_id) if r.event["type"] == "seat_taken_over"]
    assert taken == [{"type": "seat_taken_over", "seat": 0, "bot": "first", "reason": "timeouts"}]
    deps.service.command(game_id, 1, {"type": "exchange", "cards": []})
    version, view, _ = _first_turn(deps, game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"
    by_bot = [
        r.event["command"]
        for r in deps.store.read(game_id)
        if r.event["type"] == "commanded" and r.event["seat"] == 0 and r.event["by"] == "bot"
    ]
    assert by_bot[0] == view["legal"][0]  # the plugin's choice: the first legal command
