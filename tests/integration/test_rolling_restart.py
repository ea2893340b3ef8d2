"""A rolling restart of the API during play loses nothing: two API processes (gunicorn
as deployed) serve people playing over REST while each process in turn is stopped
(SIGTERM, as a deploy does) and started again. A client whose process goes away sends
the same request, with the same Idempotency-Key, to the other one. Afterwards every
acknowledged move is in the log at its version, once, no answer was a 5xx, and the
games went on being played after the last restart.

Slow (about a minute): `make test-slow`."""

import threading
import time
import uuid

import pytest
import requests

from services.embedded_redis import free_port
from tests import processes
from tests.integration.helpers import deps_of

pytestmark = pytest.mark.slow

TABLES = 4
NEW_GAME = {"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bo"}], "options": {}}


class Table:
    """Two people playing game after game, from one thread, through whichever API
    process answers, until told to stop; every acknowledged command's answer is kept."""

    def __init__(self, bases):
        self.bases = bases
        self.acknowledged = []  # (time, game id, answer)
        self.games = []  # the ids of the games played
        self.server_errors = []  # (status, body): must stay empty
        self.switches = 0  # times the client went to the other process
        self.base = 0
        self.http = requests.Session()

    def call(self, method, path, token=None, key=None, **kwargs):
        """Send to the current process; on a dropped connection (a process stopping)
        or a 503, send the same request, with the same Idempotency-Key, to the other."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if key:
            headers["Idempotency-Key"] = key
        for _ in range(50):
            try:
                response = self.http.request(
                    method, self.bases[self.base] + path, headers=headers, timeout=10, **kwargs
                )
            except requests.ConnectionError:
                response = None
            if response is not None and response.status_code != 503:
                if response.status_code >= 500:
                    self.server_errors.append((response.status_code, response.text))
                return response
            self.base, self.switches = 1 - self.base, self.switches + 1
            time.sleep(0.05)
        raise AssertionError(f"no API process answered {method} {path}")

    def play(self, stopping):
        while not stopping.is_set():
            created = self.call("POST", "/v1/games", key=uuid.uuid4().hex, json=NEW_GAME)
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            self.games.append(game_id)
            self.play_game(game_id, [s["token"] for s in created.json()["seats"]], stopping)

    def play_game(self, game_id, tokens, stopping):
        view_path, path = f"/v1/games/{game_id}/view", f"/v1/games/{game_id}/commands"
        while not stopping.is_set():
            view = self.call("GET", view_path, tokens[0]).json()
            if view["status"] != "active":
                return
            seat = view["to_act"][0]
            mine = self.call("GET", view_path, tokens[seat]).json()
            if mine["version"] != view["version"] or not mine["legal"]:
                continue
            body = {**mine["legal"][0], "expected_version": mine["version"]}
            answer = self.call("POST", path, tokens[seat], uuid.uuid4().hex, json=body)
            if answer.status_code == 200:
                self.acknowledged.append((time.monotonic(), game_id, answer.json()))
            else:
                assert answer.json()["code"] in ("version_conflict", "not_your_turn"), answer.text
            time.sleep(0.01)


def test_a_rolling_restart_of_the_api_loses_no_acknowledged_move(tmp_path, keys):
    stack = processes.Stack(tmp_path, keys)
    ports = [free_port(), free_port()]
    apis = [processes.start_api(stack.env, stack.log, port) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        tables = [Table(bases) for _ in range(TABLES)]
        stopping = threading.Event()
        threads = [threading.Thread(target=t.play, args=(stopping,)) for t in tables]
        for thread in threads:
            thread.start()

        time.sleep(2)
        for _ in range(2):  # two rounds of a rolling deploy
            for index, port in enumerate(ports):
                processes.stop(apis[index])  # SIGTERM: gunicorn's graceful stop
                apis[index] = processes.start_api(stack.env, stack.log, port)
                time.sleep(1)
        last_restart = time.monotonic()
        time.sleep(3)
        stopping.set()
        for thread in threads:
            thread.join(60)
        assert not any(thread.is_alive() for thread in threads)

        d = deps_of(stack)
        for t in tables:
            assert t.server_errors == [], t.server_errors
            for game_id in t.games:
                stored = {r.version: r.event for r in d.store.read(game_id)}
                answers = [a for _, g, a in t.acknowledged if g == game_id]
                for answer in answers:
                    for event in answer["events"]:
                        held = stored[event["version"]]
                        shown = (event["type"], event.get("seat"))
                        assert (held["type"], held.get("seat")) == shown
                # Each acknowledged command is in the log once: a retry was not doubled.
                versions = [a["version"] for a in answers]
                assert len(versions) == len(set(versions))
                commanded = [e for e in stored.values() if e["type"] == "commanded"]
                assert len(commanded) >= len(answers)
        acknowledged = sum(len(t.acknowledged) for t in tables)
        after = sum(1 for t in tables for at, _, _ in t.acknowledged if at > last_restart)
        switches = sum(t.switches for t in tables)
        games = sum(len(t.games) for t in tables)
        print(
            f"{acknowledged} acknowledged moves in {games} games, {after} after the last "
            f"restart, {switches} switches to the other process"
        )
        assert acknowledged > 50 and after > 0 and switches > 0
    finally:
        for api in apis:
            processes.stop(api)
        stack.stop()
