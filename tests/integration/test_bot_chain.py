"""services/worker/chain.py: one bot job plays a game's bot turns one after another,
bounded, on fakeredis and on a real Redis server."""

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services.game.service import GameService
from services.projector.models import read_models
from services.worker import chain, jobs
from shared import bots, jsonutil, table
from tests.integration.helpers import run_until_quiet

FOUR_BOTS = [{"bot": "random"}] * 4
ONE_HUMAN = [{"name": "ana"}, *[{"bot": "random"}] * 3]
MIXED = [{"bot": "random"}, {"bot": "greedy"}] * 2  # greedy reads its feed, random not


def expected_feed(level, projected, records, seat):
    """What the events endpoint shows `seat` (none for a bot that reads no feed)."""
    if level in bots.LEGAL_ONLY:
        return []
    return [table.event_as_seen(projected, r, seat) for r in records]


@pytest.fixture
def unhurried(monkeypatch):
    """No time slice: a chain is bounded by its moves only (no timing in tests)."""
    monkeypatch.setattr(chain, "SLICE_SECONDS", 3600)


def commanded(deps, game_id, after=0):
    return [
        r.event for r in deps.store.read(game_id, after=after) if r.event["type"] == "commanded"
    ]


def lease_of(deps, game_id):
    return deps.queue.connection.get(deps.scheduler.chain_lease(game_id))


def play(game_id, seat, version):
    """A bot turn of a game of bots only, as a worker serving `background` plays it."""
    return jobs.play_bot_turn(game_id, seat, version, None, True)


def first_bot_turn(deps, projector, game_id):
    """Project the game; answer (seat, version) of the bot turn the projector enqueued,
    taken off the queue for the test to play."""
    version = projector.project(game_id)
    _, current = deps.service.load(game_id)
    seat = table.to_act(current)[0]
    assert deps.queue.job_ids == [f"bot-{game_id}-{seat}-{version}"]
    deps.queue.empty()
    return seat, version


def test_a_chain_plays_max_moves_then_enqueues_its_continuation(
    deps, projector, unhurried, monkeypatch
):
    monkeypatch.setattr(chain, "MAX_MOVES", 5)
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)

    assert play(game_id, seat, version) == "moved"

    assert len(commanded(deps, game_id, after=version)) == 5
    now, current = deps.service.load(game_id, fresh=True)
    (next_seat,) = table.to_act(current)
    (job,) = deps.background.get_jobs()  # a game of bots only: on background
    assert job.id == f"background-{game_id}-{next_seat}-{now}"
    # The continuation carries the lease, which the chain keeps for it.
    token = job.args[3]
    assert job.args[:3] == [game_id, next_seat, now] and lease_of(deps, game_id) == token.encode()


def test_a_time_slice_of_nothing_still_plays_the_move_the_job_was_for(deps, projector, monkeypatch):
    """... and the moves decided with it for one append (chain.BATCH), no more."""
    monkeypatch.setattr(chain, "SLICE_SECONDS", 0)
    monkeypatch.setattr(chain, "BATCH", 3)
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    assert play(game_id, seat, version) == "moved"
    assert len(commanded(deps, game_id, after=version)) == 3
    assert len(deps.background.get_jobs()) == 1


def test_a_chain_stops_at_a_humans_turn_and_gives_the_lease_back(deps, projector, unhurried):
    game_id = deps.service.create("alebrijes", ONE_HUMAN, {"seed": 3})["id"]
    projector.project(game_id)
    deps.service.command(game_id, 0, {"type": "exchange", "cards": []})
    seat, version = first_bot_turn(deps, projector, game_id)
    assert seat == 1

    assert jobs.play_bot_turn(game_id, seat, version) == "moved"

    moves = commanded(deps, game_id, after=version)
    assert len(moves) >= 3 and all(m["by"] == "bot" and m["seat"] != 0 for m in moves)
    _, current = deps.service.load(game_id, fresh=True)
    assert table.to_act(current) == [0]
    assert deps.queue.get_jobs() == [] and lease_of(deps, game_id) is None
    # The projector wakes the game as before: no bot to move, the human's turn.
    projector.project(game_id)
    assert deps.queue.get_jobs() == []


def test_a_chain_stops_at_the_games_end(deps, projector, unhurried, monkeypatch):
    monkeypatch.setattr(chain, "MAX_MOVES", 100_000)
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 5, "rounds": 1})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)

    assert play(game_id, seat, version) == "moved"

    _, current = deps.service.load(game_id, fresh=True)
    assert current["status"] == "finished"
    assert deps.queue.get_jobs() == [] and lease_of(deps, game_id) is None
    projector.project(game_id)  # every event projected: the read models show the end
    summary = jsonutil.loads(deps.redis.get(deps.keys.summary(game_id)))
    assert summary["status"] == "finished" and summary["version"] == deps.store.version(game_id)


def test_each_bot_of_a_chain_sees_exactly_its_read_model_and_its_feed(
    deps, projector, unhurried, monkeypatch
):
    """One move an append: before every decision, project the game; the view handed to
    the bot is its seat's read model, byte for byte, and its feed is what the events
    endpoint shows that seat (random bots read none, and get none). Meanwhile the
    projector enqueues no job: the chain holds the game."""
    monkeypatch.setattr(chain, "MAX_MOVES", 100_000)
    monkeypatch.setattr(chain, "BATCH", 1)
    real_choose = bots.choose
    checked = []

    def spy(level, view, feed, rng, think_ms=None, **kwargs):
        version = projector.project(game_id)
        seat = view["seat"]
        stored = deps.redis.get(deps.keys.view(game_id, seat))
        assert jsonutil.dumps(view) == stored and view["version"] == version
        assert view == jsonutil.loads(stored)
        _, projected = deps.service.load(game_id)
        records = deps.store.read(game_id, limit=version)
        assert feed == expected_feed(level, projected, records, seat)
        assert deps.queue.get_jobs() == []
        checked.append(seat)
        return real_choose(level, view, feed, rng, think_ms, **kwargs)

    monkeypatch.setattr(bots, "choose", spy)
    game_id = deps.service.create("alebrijes", MIXED, {"seed": 7, "rounds": 1})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    assert play(game_id, seat, version) == "moved"
    assert set(checked) == {0, 1, 2, 3}
    assert len(checked) == len(commanded(deps, game_id))


def test_moves_decided_before_one_append_see_what_the_read_models_show_at_their_version(
    deps, projector, unhurried, monkeypatch
):
    """Several moves an append (chain.BATCH): each bot decided from the view and feed
    that the projector builds from the stored log at that version."""
    monkeypatch.setattr(chain, "MAX_MOVES", 100_000)
    real_choose = bots.choose
    decided = []

    def spy(level, view, feed, rng, think_ms=None, **kwargs):
        decided.append((level, view, list(feed)))
        return real_choose(level, view, feed, rng, think_ms, **kwargs)

    monkeypatch.setattr(bots, "choose", spy)
    # Three rounds: one round of four bots can end within one batch (16 commands).
    game_id = deps.service.create("alebrijes", MIXED, {"seed": 9, "rounds": 3})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    assert play(game_id, seat, version) == "moved"
    records = deps.store.read(game_id)
    assert len(decided) == len(commanded(deps, game_id)) > chain.BATCH
    for level, view, feed in decided:
        at = view["version"]
        then = table.fold((r.event, r.at) for r in records[:at])
        models = read_models(then, at)
        assert jsonutil.dumps(view) == jsonutil.dumps(models[view["seat"]])
        assert view == jsonutil.loads(jsonutil.dumps(models[view["seat"]]))
        assert feed == expected_feed(level, then, records[:at], view["seat"])
    assert {level for level, _, _ in decided} == {"random", "greedy"}


def test_a_chain_beaten_to_a_move_stops_without_moving_twice_and_wakes_the_next_bot(
    deps, projector, unhurried
):
    """Another worker (its own game service) plays the chain's seat first, and the
    projector, seeing the chain's lease, enqueues nothing for it. The chain's append
    is refused (expected version); it gives the lease back and enqueues the next turn."""
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    other = GameService(deps.store, "test-secret")
    real_choose = bots.choose

    def beaten(level, view, feed, rng, think_ms=None, **kwargs):
        command = real_choose(level, view, feed, rng, think_ms, **kwargs)
        if view["version"] == version:  # the chain's first decision only
            other.command(game_id, view["seat"], command, expected_version=version, by="bot")
            projector.project(game_id)
        return command

    bots.choose = beaten
    try:
        assert play(game_id, seat, version) == "stale"
    finally:
        bots.choose = real_choose
    assert [m["seat"] for m in commanded(deps, game_id, after=version)] == [seat]
    now, current = deps.service.load(game_id, fresh=True)
    (next_seat,) = table.to_act(current)
    assert [j.id for j in deps.queue.get_jobs()] == [f"bot-{game_id}-{next_seat}-{now}"]
    assert lease_of(deps, game_id) is None


def test_a_chain_stops_at_a_reflex_chance_so_the_reaction_keeps_its_delay(
    deps, projector, unhurried
):
    """Alien: a chance to claim or stack ends the chain; the projector schedules the
    reaction after its delay."""
    seats = [{"bot": "random", "reaction_seconds": 1}] * 4
    game_id = deps.service.create("alien", seats, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    for _ in range(200):
        if play(game_id, seat, version) != "moved":
            break
        now, current = deps.service.load(game_id, fresh=True)
        reflexes = table.rules_of(current).REFLEXES
        chances = [
            c for s in range(4) for c in table.rules_of(current).legal(current["rules"], s)
            if c["type"] in reflexes
        ]  # fmt: skip
        if chances or table.table_timers(current):
            assert chain.next_bot(current) is None
            projector.project(game_id)
            assert deps.queue.scheduled_job_registry.get_job_ids()  # the delayed reaction
            return
        deps.queue.empty()
        deps.background.empty()
        seat, version = table.to_act(current)[0], now
    pytest.fail("no reflex chance came up")


def test_chains_that_hand_on_finish_the_game_through_rq(deps, projector, monkeypatch):
    monkeypatch.setattr(chain, "MAX_MOVES", 7)
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 13, "rounds": 1})["id"]
    run_until_quiet(deps, projector)
    _, current = deps.service.load(game_id, fresh=True)
    assert current["status"] == "finished"
    assert lease_of(deps, game_id) is None


def test_a_refused_bot_ends_the_chain_and_is_not_enqueued_again_at_once(
    deps, projector, monkeypatch
):
    """A bot that sends what the rules refuse would be refused again: the chain gives
    its lease back without waking the game (the sweep retries it, as before chains)."""
    monkeypatch.setattr(bots, "choose", lambda *args, **kwargs: {"type": "no such move"})
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    assert play(game_id, seat, version).startswith("refused: ")
    assert deps.store.version(game_id) == version
    assert deps.queue.get_jobs() == [] and lease_of(deps, game_id) is None


def test_a_games_bots_only_chain_goes_to_background_before_deciding_anything(
    deps, projector, unhurried, monkeypatch
):
    monkeypatch.setattr(bots, "choose", lambda *args, **kwargs: pytest.fail("decided on bots"))
    game_id = deps.service.create("alebrijes", FOUR_BOTS, {"seed": 11})["id"]
    seat, version = first_bot_turn(deps, projector, game_id)
    assert jobs.play_bot_turn(game_id, seat, version) == "to background"
    assert deps.store.version(game_id) == version
    (job,) = deps.background.get_jobs()
    assert job.args[:3] == [game_id, seat, version] and job.args[4] is True
    assert lease_of(deps, game_id) == job.args[3].encode()  # held for it meanwhile
    projector.project(game_id)
    assert deps.queue.get_jobs() == []  # the projector leaves the game to the chain


def test_bots_workers_serve_people_while_games_of_bots_only_wait_on_background(
    deps, projector, unhurried
):
    """However many games of bots only are opened, a worker serving `bots` plays a
    person's bot opponents and none of theirs."""
    many = [deps.service.create("alebrijes", FOUR_BOTS, {"seed": n})["id"] for n in range(12)]
    person = deps.service.create("alebrijes", ONE_HUMAN, {"seed": 3})["id"]
    projector.project(person)
    deps.service.command(person, 0, {"type": "exchange", "cards": []})
    projector.join_group()
    while projector.poll(block_ms=1):
        pass
    versions = {g: deps.store.version(g) for g in many}
    bots_worker = SimpleWorker(
        [deps.timers, deps.queue], connection=deps.queue.connection, serializer=JSONSerializer
    )
    bots_worker.work(burst=True, logging_level="ERROR")
    _, current = deps.service.load(person, fresh=True)
    assert table.to_act(current) == [0]  # the person's bots have all moved
    assert {g: deps.store.version(g) for g in many} == versions  # theirs have not
    assert {j.args[0] for j in deps.background.get_jobs()} == set(many)
