"""Alien's real-time parts, on fakeredis and on a real Redis with a real RQ scheduler:
bots that claim and stack after a reaction delay, and the stacking window's timer."""

import time

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services.projector import Projector
from services.projector.build import projector_of
from shared import jsonutil
from shared.games.alien.scenarios import arrange_deck
from tests.helpers import RecordingScheduler

# On C15 the sum is 6 (seat 1 holds A6) and the difference 4 (seat 2 holds A4).
HANDS = [
    ["C12", "C38", "A5", "H1", "C57"],
    ["A6", "A7", "C02", "C03", "C04"],
    ["A4", "A9", "C06", "C07", "C08"],
]
SUM = {"type": "claim", "card": "A6", "table": "C15"}


def alien_game(deps, seats, **options):
    deck = arrange_deck(HANDS, "C15")
    return deps.service.create("alien", seats, {"seed": 1, "deck": deck, **options})["id"]


def kinds(deps, game_id):
    return [(r.event["type"], r.event.get("seat")) for r in deps.store.read(game_id)]


def run_due_jobs(deps, until, timeout=10.0):
    """Run the worker, with its scheduler, until `until()` holds."""
    worker = SimpleWorker(deps.queues, connection=deps.queue.connection, serializer=JSONSerializer)
    projector = projector_of(deps)
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.1)
        worker.work(burst=True, with_scheduler=True, logging_level="ERROR")
        for game_id in deps.store.game_ids():
            projector.project(game_id)


def test_a_bot_reacts_to_a_new_chance_after_its_delay_and_only_once(deps):
    scheduler = RecordingScheduler()
    projector = Projector(deps.store, scheduler)
    seats = [{"name": "a"}, {"name": "b"}, {"bot": "random", "reaction_seconds": 2}]
    game_id = alien_game(deps, seats)
    version = projector.project(game_id)
    at = deps.store.read(game_id)[-1].at
    assert scheduler.reactions == [(game_id, 2, version, at + 2000)]  # it may claim A4
    assert scheduler.bot_turns == []  # not its turn
    deps.service.command(game_id, 0, {"type": "play", "card": "C12"})  # a new table card
    projector.project(game_id)
    assert len(scheduler.reactions) == 1  # C12 offers seat 2 nothing to claim


def test_a_human_who_claims_before_the_bots_delay_wins_the_capture(deps):
    seats = [{"name": "a"}, {"name": "b"}, {"bot": "random", "reaction_seconds": 0.5}]
    game_id = alien_game(deps, seats)
    projector_of(deps).project(game_id)
    deps.service.command(game_id, 1, SUM)  # at once, well inside the bot's 0.5 s
    run_due_jobs(deps, lambda: ("stacked", 2) in kinds(deps, game_id))
    claims = [seat for kind, seat in kinds(deps, game_id) if kind == "claimed"]
    assert claims == [1]  # the bot's own claim (A4) came too late and was not sent


def test_a_bot_claims_when_the_human_is_slower_than_its_delay(deps):
    seats = [{"name": "a"}, {"name": "b"}, {"bot": "random", "reaction_seconds": 0.2}]
    game_id = alien_game(deps, seats)
    projector_of(deps).project(game_id)
    run_due_jobs(deps, lambda: ("claimed", 2) in kinds(deps, game_id))
    late = deps.service.load(game_id, fresh=True)[1]
    assert late["rules"]["window"]["claimant"] == 2


def test_the_stacking_window_closes_on_its_timer_when_a_seat_never_stacks(deps):
    seats = [{"name": "a"}, {"name": "b"}, {"bot": "random", "reaction_seconds": 0}]
    game_id = alien_game(deps, seats, stack_seconds=1)
    projector_of(deps).project(game_id)
    run_due_jobs(deps, lambda: ("claimed", 2) in kinds(deps, game_id))
    view = jsonutil.loads(deps.redis.get(deps.keys.view(game_id, 0)))
    assert [t["key"] for t in view["timers"]] == ["window-1"]  # its deadline, for all to see
    run_due_jobs(deps, lambda: ("window_closed", None) in kinds(deps, game_id))
    closed = [r.event for r in deps.store.read(game_id) if r.event["type"] == "window_closed"]
    assert closed[0]["late"] == [0, 1]  # neither human stacked
