"""services/worker: bot turns as RQ jobs run by a real (non-forking) RQ worker, on
fakeredis and on a real Redis server."""

import pytest

from services.worker import jobs
from shared import bots, jsonutil
from tests.integration.helpers import FOUR_BOTS, run_until_quiet

# Bots that react at once: Alien's claims and stacks are scheduled after the delay.
QUICK_BOTS = [{"bot": "random", "reaction_seconds": 0}] * 4


def test_four_random_bots_play_a_whole_game_through_rq(deps, projector):
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11, "rounds": 1})["id"]
    run_until_quiet(deps, projector)
    _, current = deps.service.load(game_id, fresh=True)
    assert current["status"] == "finished"
    summary = jsonutil.loads(deps.redis.get(deps.keys.summary(game_id)))
    assert summary["status"] == "finished" and len(summary["result"]["scores"]) == 4


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("alien", {"seed": 11}),
        ("alakablast", {"seed": 11}),
        ("abluxxen", {"seed": 11}),
        ("abluxxen", {"seed": 11, "published": True}),
    ],
    ids=["alien", "alakablast", "abluxxen", "abluxxen-published"],
)
def test_four_random_bots_finish_every_game_through_rq(deps, projector, game, options):
    game_id = deps.service.create(game, QUICK_BOTS, options)["id"]
    run_until_quiet(deps, projector)
    _, current = deps.service.load(game_id, fresh=True)
    assert current["status"] == "finished"
    summary = jsonutil.loads(deps.redis.get(deps.keys.summary(game_id)))
    assert summary["status"] == "finished" and len(summary["result"]["scores"]) == 4
    assert summary["result"]["winners"]
    if game == "alien":  # its windows were closed by the bots' stacks, with no timer
        events = [r.event for r in deps.store.read(game_id, limit=5000)]
        closed = [e for e in events if e["type"] == "window_closed"]
        assert closed and all(e["late"] == [] for e in closed)


def test_a_bot_decides_from_its_own_seats_view_only(deps, projector, monkeypatch):
    seen = []
    real_choose = bots.choose

    def spy(bot, view, feed, rng, think_ms=None, **kwargs):
        seen.append(view)
        return real_choose(bot, view, feed, rng, think_ms, **kwargs)

    monkeypatch.setattr(bots, "choose", spy)
    game_id = deps.service.create("alebrijes", [{"name": "ana"}, {"bot": "random"}], {"seed": 3})[
        "id"
    ]
    projector.project(game_id)
    # Seat 0 (the human) acts first: exchange nothing, then the bot's turn comes.
    deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
    version = projector.project(game_id)
    assert jobs.play_bot_turn(game_id, 1, version) == "moved"
    assert seen == [jsonutil.loads(deps.redis.get(deps.keys.view(game_id, 1)))]
    assert seen[0]["seat"] == 1
    human_hand = jsonutil.loads(deps.redis.get(deps.keys.view(game_id, 0)))["state"]["hand"]
    assert "hand" in seen[0]["state"] and seen[0]["state"]["hand"] != human_hand


def test_a_table_timer_of_a_game_that_is_over_is_a_no_op(deps):
    created = deps.service.create("alien", [{"name": "a"}, {"open": True}], {"seed": 1})
    deps.service.cancel(created["id"])
    after = deps.store.version(created["id"])
    assert jobs.fire_table_timer(created["id"], "window") == "stale: game_not_active"
    assert deps.store.version(created["id"]) == after


def test_a_stale_bot_job_is_a_no_op(deps, projector):
    game_id = deps.service.create("alebrijes", [{"bot": "random"}, {"name": "b"}], {"seed": 1})[
        "id"
    ]
    version = projector.project(game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"
    projector.project(game_id)
    after = deps.store.version(game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "stale"
    assert deps.store.version(game_id) == after
