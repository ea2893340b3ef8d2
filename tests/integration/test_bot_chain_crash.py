"""A worker SIGKILLed in the middle of a bot chain (services/worker/chain.py): no
appended move is lost, no move is made twice, and the game goes on to its end once the
chain's lease has expired and the projector's sweep wakes the game again.

Slow (the sweep looks at a game every 30 s): `make test-slow`."""

import pytest

from services.projector.build import projector_of
from services.worker import chain
from shared import table
from tests import processes
from tests.integration.helpers import all_finished, all_read_models, deps_of, projected

pytestmark = pytest.mark.slow

FOUR_BOTS = [{"bot": "random"}] * 4


def test_a_worker_killed_mid_chain_loses_no_move_and_the_game_goes_on(tmp_path, keys):
    stack = processes.Stack(tmp_path, keys, workers=1)
    try:
        d = deps_of(stack)
        game_id = d.service.create("alebrijes", FOUR_BOTS, {"rounds": 40})["id"]
        lease = d.scheduler.chain_lease(game_id)
        # Mid-game, while a chain holds the game (the only worker is playing it).
        processes.wait_for(lambda: d.store.version(game_id) > 100, timeout=60, every=0.01)
        processes.wait_for(lambda: d.queue.connection.exists(lease), timeout=10, every=0.001)
        stack.kill_workers()
        acknowledged = [r.event for r in d.store.read(game_id)]
        assert table.fold(acknowledged)["status"] == "active"

        # The lease runs out; the sweep (every 30 s) wakes the game; it plays to its end.
        waited = processes.wait_for(lambda: all_finished(d, [game_id]), timeout=150, every=0.5)
        print(f"the game went on and finished {waited:.1f} s after the kill")
        processes.wait_for(lambda: projected(d, [game_id]), timeout=30, every=0.2)
        for process in [stack.projector, *stack.workers]:
            processes.stop(process)

        events = [r.event for r in d.store.read(game_id)]
        assert events[: len(acknowledged)] == acknowledged  # nothing appended was lost
        # The whole log folds to the finished game: every move was legal when it was
        # appended (each append names its version, so no turn was played twice).
        assert table.fold(events)["status"] == "finished"
        assert d.queue.connection.exists(lease) == 0
        live = all_read_models(d)
        projector_of(d, consumer="check").rebuild()
        assert all_read_models(d) == live
        assert chain.LEASE_MS < 30_000  # the lease never outlasts the sweep's look
    finally:
        stack.stop()
