"""The standing fault suite: Redis, a projector and two RQ workers run as
real processes while bots, humans and turn timers play; each process is SIGKILLed in
turn (Redis too, restarted from its append-only file), and a supervisor restarts what
died. Afterwards every acknowledged move is in the log, every game has finished, the
read models equal a rebuild from the streams, and a turn timer pending when every
worker was killed fired within 10 s of their restart.

Slow (about a minute): `make test-slow`."""

import threading
import time

import pytest
import redis

from services.projector.build import projector_of
from shared import table
from tests import processes
from tests.helpers import humans
from tests.integration.helpers import FOUR_BOTS, all_finished, all_read_models, deps_of, projected

pytestmark = pytest.mark.slow

QUICK_BOTS = [{"bot": "random", "reaction_seconds": 0.2}] * 3
# Nobody plays these seats: each turn times out after a second, and after three
# timeouts in a row a bot takes the seat over.
ABSENT = {"turn_seconds": 1, "zombie_after": 3}


class Humans:
    """Two people playing their games through the game service, retrying what fails
    (Redis down, a version conflict); every move the service acknowledged is kept."""

    def __init__(self, d, game_ids):
        self.d, self.game_ids = d, game_ids
        self.acknowledged = []  # (game id, version, event)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.play)

    def play(self):
        while not self.stopping.is_set():
            playing = False
            for game_id in self.game_ids:
                try:
                    playing |= self.move(game_id)
                except Exception:  # Redis is down or the game moved: look again
                    time.sleep(0.1)
                    playing = True
            if not playing:
                return
            time.sleep(0.02)

    def move(self, game_id):
        _, current = self.d.service.load(game_id, fresh=True)
        if current["status"] != "active":
            return False
        seat = table.to_act(current)[0]
        command = table.rules_of(current).legal(current["rules"], seat)[0]
        _, records, _ = self.d.service.command(game_id, seat, command)
        self.acknowledged += [(game_id, r.version, r.event) for r in records]
        return True


def test_sigkill_each_process_while_bots_humans_and_timers_play(tmp_path, keys):
    stack = processes.Stack(tmp_path, keys)
    try:
        d = deps_of(stack)
        create = d.service.create
        bots = [create("alebrijes", FOUR_BOTS, {"rounds": 2})["id"] for _ in range(3)]
        bots += [create("alien", QUICK_BOTS, {})["id"]]
        people = [create("alebrijes", humans("ana", "bo"), {"rounds": 1})["id"] for _ in range(2)]
        absent = [create("alebrijes", humans("cy", "di"), ABSENT)["id"] for _ in range(2)]
        players = Humans(d, people)
        players.thread.start()

        time.sleep(3)
        stack.kill_projector()
        time.sleep(3)
        stack.kill_workers(0)
        time.sleep(3)
        stack.kill_redis()
        processes.wait_for(lambda: _answers(d), timeout=20)
        stack.revive()
        time.sleep(3)

        # A turn timer pending while every worker is killed fires within 10 s of
        # their restart.
        waiting = create("alebrijes", humans("ed", "flo"), {"turn_seconds": 2})["id"]
        processes.wait_for(lambda: d.timers.scheduled_job_registry.get_job_ids(), timeout=10)
        stack.kill_workers()
        restarted = time.monotonic()
        processes.wait_for(lambda: _timed_out(d, waiting), timeout=10, every=0.1)
        print(f"a timer fired {time.monotonic() - restarted:.1f} s after the workers restarted")
        d.service.resign(waiting, 0)
        d.service.resign(waiting, 1)

        games = [*bots, *people, *absent, waiting]
        processes.wait_for(lambda: all_finished(d, games), timeout=180, every=0.5)
        players.stopping.set()
        players.thread.join(30)
        processes.wait_for(lambda: projected(d, games), timeout=30, every=0.2)
        for process in [stack.projector, *stack.workers]:
            processes.stop(process)

        lost = [
            (game_id, version)
            for game_id, version, event in players.acknowledged
            if d.store.read(game_id, after=version - 1, limit=1)[0].event != event
        ]
        print(f"{len(players.acknowledged)} acknowledged human events, {len(lost)} lost")
        assert players.acknowledged and lost == []
        live = all_read_models(d)
        projector_of(d, consumer="check").rebuild()
        assert all_read_models(d) == live
    finally:
        stack.stop()


def _answers(d):
    try:
        return d.redis.ping()
    except redis.ConnectionError:
        return False


def _timed_out(d, game_id):
    return any(r.event["type"] == "timed_out" for r in d.store.read(game_id))
