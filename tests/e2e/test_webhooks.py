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


def test_a_players_webhook_hears_its_games_through_the_real_processes(webhook_stack):
    """One registration for two games, through the projector process and the webhook
    worker: every item of bea's inbox, signed; nothing of a game bea has no seat in."""
    client = webhook_stack
    receiver = Receiver()
    try:
        ana, bea, cy = (
            client.call("POST", "/v1/players", json={"name": n}).json()
            for n in ("ana hook", "bea hook", "cy hook")
        )
        hook = client.call(
            "POST", "/v1/players/me/webhook", bea["token"], json={"url": receiver.url}
        )
        assert hook.status_code == 201, hook.text
        games = []
        for host, guest in ((ana, bea), (cy, bea), (ana, cy)):
            body = {"game": "alebrijes", "seats": [{"player": "me"}, {"player": guest["id"]}]}
            made = client.call("POST", "/v1/games", host["token"], json=body)
            assert made.status_code == 201, made.text
            games.append(made.json()["id"])
        accepted = client.call("POST", f"/v1/games/{games[0]}/seats/1/accept", bea["token"])
        assert accepted.status_code == 200, accepted.text

        def all_told():
            inbox = client.call("GET", "/v1/players/me/inbox?limit=200", bea["token"]).json()
            bodies = receiver.acknowledged()
            told = [{k: v for k, v in b.items() if k not in ("id", "player_id")} for b in bodies]
            # Until the accept's game_started is in the inbox too: on a quick machine the
            # two invitations alone were told and compared equal before it projected.
            started = any(item["kind"] == "game_started" for item in inbox["items"])
            return bodies if started and told == inbox["items"] else None

        bodies = wait_until(all_told)
        assert {b["game_id"] for b in bodies} == {games[0], games[1]}  # not ana and cy's
        assert {b["player_id"] for b in bodies} == {bea["id"]}
        assert {"invited", "game_started"} <= {b["kind"] for b in bodies}
        for _, headers, _, raw in receiver.requests:
            assert webhooks.verify(
                hook.json()["secret"], headers[webhooks.SIGNATURE_HEADER], raw, time.time()
            )
    finally:
        receiver.stop()
