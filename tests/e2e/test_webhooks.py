"""Webhooks through the real processes: `python -m services.run` (gunicorn, projector,
bot worker, embedded Redis) plus `python -m services.webhooks worker`, delivering over
HTTP to a receiver on 127.0.0.1 while a human plays three bots."""

import os
import signal
import subprocess
import sys
import time

import pytest

from shared import webhooks
from tests.e2e.conftest import ROOT, start_stack
from tests.webhook_receiver import Receiver

pytestmark = pytest.mark.e2e

LOCAL = {"WEBHOOK_ALLOW_HTTP": "1", "WEBHOOK_ALLOW_PRIVATE": "1"}


@pytest.fixture(scope="module")
def webhook_stack(tmp_path_factory):
    """A stack that lets webhooks reach 127.0.0.1, and a webhook worker beside it."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in LOCAL.items():
            patch.setenv(name, value)
        client, run = start_stack(tmp_path_factory)
    worker = None
    try:
        # services.run writes its embedded Redis' URL into its run dir.
        redis_url = (run.run_dir / "redis.url").read_text().strip()
        env = {**os.environ, **LOCAL, "REDIS_URL": redis_url}
        worker = subprocess.Popen(
            [sys.executable, "-m", "services.webhooks", "worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        yield client
    finally:
        if worker is not None:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()
        run.send_signal(signal.SIGINT)
        run.wait(30)


def wait_until(condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def test_a_players_server_hears_every_turn_of_a_game_against_bots(webhook_stack):
    client = webhook_stack
    receiver = Receiver()
    try:
        game = client.create(
            [{"name": "ana"}] + [{"bot": "random"}] * 3,
            seed=16,
            rounds=1,
            webhook={"url": receiver.url},
        )
        game_id, token = game["id"], game["seats"][0]["token"]
        secret = game["webhook"]["secret"]
        acted = 0
        for _ in range(500):
            view = wait_until(lambda since=acted: _my_turn_or_end(client, game_id, token, since))
            if view["status"] == "finished":
                break
            told = wait_until(lambda since=acted: _turns_after(receiver, since))
            assert told[-1]["seat"] == 0  # ana heard it was her turn
            command = {**view["legal"][0], "expected_version": view["version"]}
            answer = client.command(game_id, token, command)
            assert answer.status_code == 200, answer.text
            acted = answer.json()["version"]
        assert view["status"] == "finished"
        wait_until(lambda: any(b["kind"] == "game_ended" for b in receiver.acknowledged()))
        bodies = receiver.acknowledged()
        assert bodies[0]["kind"] == "game_started"
        assert {b["seat"] for b in bodies if b["kind"] == "your_turn"} == {0}  # bots: none
        assert len({b["id"] for b in bodies}) == len(bodies)
        for _, headers, _, raw in receiver.requests:
            assert webhooks.verify(secret, headers[webhooks.SIGNATURE_HEADER], raw, time.time())
    finally:
        receiver.stop()


def _turns_after(receiver, version):
    turns = [b for b in receiver.acknowledged() if b["kind"] == "your_turn"]
    return [b for b in turns if b["version"] > version]


def _my_turn_or_end(client, game_id, token, since):
    """The seat's view once it shows the seat's last move and it must act again (or
    the game is over)."""
    view = client.view(game_id, token)
    if view["version"] < since:
        return None
    if view["status"] == "finished" or view["seat"] in view["to_act"]:
        return view
    return None
