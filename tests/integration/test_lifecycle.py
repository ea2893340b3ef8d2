"""Turn timers, seats taken over by a bot and returned, resigning and cancelling, on
fakeredis and on a real Redis server."""

import time

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services.game import GameService
from services.projector import Projector
from services.projector.build import projector_of
from services.worker import jobs
from shared import jsonutil, table
from shared.games.base import RuleError
from tests.helpers import RecordingScheduler

HUMAN_AND_BOT = [{"name": "ana"}, {"bot": "random"}]


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clock(deps):
    """The game service's clock, under the test's control."""
    deps.service.clock = Clock()
    return deps.service.clock


def kinds(deps, game_id, after=0):
    return [r.event["type"] for r in deps.store.read(game_id, after=after)]


def stored_view(deps, game_id, seat):
    return jsonutil.loads(deps.redis.get(deps.keys.view(game_id, seat)))


def test_a_seats_deadline_is_in_every_view_and_its_timer_is_scheduled_for_it(deps, clock):
    scheduler = RecordingScheduler()
    timers = scheduler.turn_timers
    projector = Projector(deps.store, scheduler)
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 1, "turn_seconds": 5}
    )["id"]
    version = projector.project(game_id)
    assert timers == [(game_id, 0, version, 1_000_000_000 + 5000)]
    for seat in (0, 1, None):
        assert stored_view(deps, game_id, seat)["deadlines"] == [1_000_005_000, None]
    clock.now += 3
    deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
    version = projector.project(game_id)
    assert timers[-1] == (game_id, 1, version, 1_000_003_000 + 5000)
    assert stored_view(deps, game_id, None)["deadlines"] == [None, 1_000_008_000]


def test_without_turn_seconds_there_is_no_deadline_and_no_timer(deps):
    scheduler = RecordingScheduler()
    timers = scheduler.turn_timers
    projector = Projector(deps.store, scheduler)
    game_id = deps.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {})["id"]
    projector.project(game_id)
    assert timers == [] and stored_view(deps, game_id, 0)["deadlines"] == [None, None]


def test_a_timer_takes_the_rules_default_action_for_the_seat(deps):
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 1, "turn_seconds": 5}
    )["id"]
    version = deps.store.version(game_id)
    assert jobs.fire_turn_timer(game_id, 0, version) == "timed out"
    assert kinds(deps, game_id, after=version) == ["timed_out", "exchanged"]
    exchanged = deps.store.read(game_id, after=version)[1].event
    assert exchanged["seat"] == 0 and exchanged["laid_aside"] == []


def test_a_timer_for_a_version_that_has_passed_does_nothing(deps):
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 1, "turn_seconds": 5}
    )["id"]
    version = deps.store.version(game_id)
    deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
    after = deps.store.version(game_id)
    assert jobs.fire_turn_timer(game_id, 0, version) == "stale"
    assert jobs.fire_turn_timer(game_id, 1, version) == "stale"
    assert deps.store.version(game_id) == after


def test_after_two_timeouts_in_a_row_a_bot_takes_the_seat_until_its_holder_returns(deps):
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 1, "turn_seconds": 5, "rounds": 1}
    )["id"]
    deps.service.timeout(game_id, 0, deps.store.version(game_id))
    deps.service.timeout(game_id, 1, deps.store.version(game_id))
    start = deps.store.version(game_id)
    _, _, after = deps.service.timeout(game_id, 0, start)  # seat 0's second timeout
    assert kinds(deps, game_id, after=start)[:2] == ["timed_out", "seat_taken_over"]
    assert after["seats"][0]["bot"] == "greedy" and after["seats"][0]["away"]  # takeover_bot
    assert not after["seats"][1]["bot"]  # one timeout only
    deps.service.return_seat(game_id, 0)
    _, back = deps.service.load(game_id)
    assert back["seats"][0]["bot"] is None and not back["seats"][0]["away"]
    assert kinds(deps, game_id)[-1] == "seat_returned"


def test_acting_in_time_clears_the_count_of_timeouts(deps):
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 2, "turn_seconds": 5}
    )["id"]
    deps.service.timeout(game_id, 0, deps.store.version(game_id))
    deps.service.command(game_id, 1, {"type": "exchange", "cards": []})
    _, current = deps.service.load(game_id)
    seat = table.to_act(current)[0]
    command = table.rules_of(current).legal(current["rules"], seat)[0]
    deps.service.command(game_id, seat, command)  # seat 0 acts itself
    assert kinds(deps, game_id)[-2:][0] == "seat_returned"
    _, current = deps.service.load(game_id)
    assert current["timeouts"] == [0, 0]


def test_a_holder_sending_a_command_takes_the_seat_back_from_its_bot(deps):
    game_id = deps.service.create(
        "alebrijes",
        [{"name": "a"}, {"name": "b"}],
        {"seed": 3, "turn_seconds": 5, "zombie_after": 1, "takeover_bot": "random"},
    )["id"]
    deps.service.timeout(game_id, 0, deps.store.version(game_id))
    assert deps.service.load(game_id)[1]["seats"][0]["away"]
    deps.service.timeout(game_id, 1, deps.store.version(game_id))
    _, current = deps.service.load(game_id)
    seat = table.to_act(current)[0]
    assert seat == 0
    command = table.rules_of(current).legal(current["rules"], 0)[0]
    _, records, after = deps.service.command(game_id, 0, command)
    assert [r.event["type"] for r in records[:2]] == ["commanded", "seat_returned"]
    assert records[1].event == {"type": "seat_returned", "seat": 0}
    assert after["seats"][0]["bot"] is None


def test_a_bot_plays_a_seat_taken_over_and_only_then(deps):
    game_id = deps.service.create(
        "alebrijes",
        [{"name": "a"}, {"name": "b"}],
        {"seed": 3, "zombie_after": 1, "turn_seconds": 5, "takeover_bot": "random"},
    )["id"]
    version = deps.store.version(game_id)
    with pytest.raises(RuleError):  # no bot plays seat 0 yet
        deps.service.command(game_id, 0, {"type": "exchange", "cards": []}, by="bot")
    deps.service.timeout(game_id, 0, version)
    deps.service.command(game_id, 1, {"type": "exchange", "cards": []})
    version = projector_of(deps).project(game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"


def test_resigning_hands_the_seat_to_a_bot_for_good(deps):
    game_id = deps.service.create(
        "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 4, "takeover_bot": "random"}
    )["id"]
    _, records, after = deps.service.resign(game_id, 0)
    assert records[0].event == {
        "type": "seat_taken_over",
        "seat": 0,
        "bot": "random",
        "reason": "resigned",
    }
    assert after["seats"][0]["resigned"] and after["seats"][0]["bot"] == "random"
    with pytest.raises(RuleError) as refused:
        deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
    assert refused.value.code == "seat_resigned"
    version = projector_of(deps).project(game_id)
    assert jobs.play_bot_turn(game_id, 0, version) == "moved"


def test_a_waiting_game_can_be_cancelled_and_then_leaves_the_lobby(deps):
    projector = projector_of(deps)
    game_id = deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
    projector.project(game_id)
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == [game_id.encode()]
    deps.service.cancel(game_id)
    projector.project(game_id)
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == []
    assert stored_view(deps, game_id, None)["status"] == "cancelled"
    with pytest.raises(RuleError) as refused:
        deps.service.claim(game_id, 1, "bo")
    assert refused.value.code == "game_not_waiting"


def test_a_started_game_cannot_be_cancelled(deps):
    game_id = deps.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {})["id"]
    with pytest.raises(RuleError) as refused:
        deps.service.cancel(game_id)
    assert refused.value.code == "game_not_waiting"


def test_the_real_scheduler_fires_a_short_timer(deps):
    game_id = deps.service.create("alebrijes", HUMAN_AND_BOT, {"seed": 5, "turn_seconds": 1})["id"]
    version = projector_of(deps).project(game_id)
    worker = SimpleWorker(deps.queues, connection=deps.queue.connection, serializer=JSONSerializer)
    deadline = time.monotonic() + 10
    while "timed_out" not in kinds(deps, game_id):
        assert time.monotonic() < deadline, "the timer never fired"
        time.sleep(0.3)
        worker.work(burst=True, with_scheduler=True, logging_level="ERROR")
    assert kinds(deps, game_id, after=version)[:2] == ["timed_out", "exchanged"]


def test_a_second_writer_sees_timeouts_and_takeovers_from_the_stream(deps):
    game_id = deps.service.create(
        "alebrijes",
        [{"name": "a"}, {"name": "b"}],
        {"seed": 6, "zombie_after": 1, "turn_seconds": 3},
    )["id"]
    deps.service.timeout(game_id, 0, deps.store.version(game_id))
    other = GameService(deps.store, "test-secret")
    assert other.load(game_id) == deps.service.load(game_id)


@pytest.mark.parametrize("game", ["alebrijes", "alien", "alakablast", "abluxxen"])
def test_every_game_has_a_default_action_for_a_seat_that_runs_out_of_time(deps, game):
    seats = [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    game_id = deps.service.create(game, seats, {"seed": 8, "turn_seconds": 30})["id"]
    for _ in range(6):  # a few timeouts in a row, whoever must act
        version, current = deps.service.load(game_id)
        seat = table.to_act(current)[0]
        assert jobs.fire_turn_timer(game_id, seat, version) == "timed out"
        assert deps.store.read(game_id, after=version)[0].event == {
            "type": "timed_out",
            "seat": seat,
        }
