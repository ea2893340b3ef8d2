"""services/projector in batches: many games a round trip, each game once per batch, the
checkpoints it remembers checked against the stored ones; on fakeredis and a real Redis."""

from services.projector.build import projector_of
from services.projector.projector import Projector
from services.webhooks.subscriptions import Subscriptions
from tests.fixtures import build_deps
from tests.helpers import humans
from tests.integration.helpers import all_read_models, move, published, stored

OPEN = [{"name": "a"}, {"open": True}]


class CountingProjector(Projector):
    """A projector that notes each game it folds."""

    def __init__(self, store):
        super().__init__(store, consumer="counting")
        self.folded = []

    def _fold(self, game_id, was, tail, hooks):
        self.folded.append(game_id)
        return super()._fold(game_id, was, tail, hooks)


def some_games(deps):
    waiting = deps.service.create("alebrijes", OPEN, {})["id"]
    playing = [
        deps.service.create("alebrijes", humans("a", "b", "c"), {"seed": seed})["id"]
        for seed in (3, 4)
    ]
    return [waiting, *playing]


def test_a_batch_gives_the_read_models_of_projecting_after_every_move(deps):
    one_by_one = Projector(deps.store, consumer="one")
    ids = some_games(deps)
    for game_id in ids:
        one_by_one.project(game_id)
    for _ in range(4):
        for game_id in ids[1:]:
            move(deps, game_id)
            one_by_one.project(game_id)
    deps.service.claim(ids[0], 1, "b")
    one_by_one.project(ids[0])
    expected = all_read_models(deps)
    deps.redis.delete(*(deps.keys.checkpoint(g) for g in ids), *(deps.keys.view(g, 0) for g in ids))
    deps.redis.delete(deps.keys.lobby, deps.keys.live)
    batch = Projector(deps.store, consumer="batch")
    assert batch.project_many(ids) == {g: deps.store.version(g) for g in ids}
    assert all_read_models(deps) == expected


def test_a_game_named_many_times_in_a_read_of_the_feed_is_folded_once(deps):
    projector = CountingProjector(deps.store)
    projector.join_group()
    ids = some_games(deps)
    for game_id in ids[1:]:
        move(deps, game_id, 3)  # four notifications each
    handled = projector.poll(block_ms=10)
    assert handled == 1 + 2 * 4
    assert sorted(projector.folded) == sorted(ids)
    for game_id in ids:
        assert stored(deps, deps.keys.summary(game_id))["version"] == deps.store.version(game_id)
    assert projector.poll(pending=True) == 0


def test_a_checkpoint_moved_by_another_projector_is_read_afresh(deps):
    ours = Projector(deps.store, consumer="ours")
    theirs = Projector(deps.store, consumer="theirs")
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 5})["id"]
    ours.project(game_id)
    move(deps, game_id, 2)
    theirs.project(game_id)
    move(deps, game_id)
    assert ours.project(game_id) == deps.store.version(game_id)
    assert (
        deps.redis.hget(deps.keys.checkpoint(game_id), "version")
        == str(deps.store.version(game_id)).encode()
    )
    assert stored(deps, deps.keys.view(game_id, 0))["version"] == deps.store.version(game_id)


def test_read_models_thrown_away_under_a_projector_are_written_again(deps):
    """What it remembers is checked against the stored checkpoint: a checkpoint and views
    deleted (an operator's rebuild, an expiry) are rebuilt even with nothing new."""
    projector = Projector(deps.store, consumer="p")
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 6})["id"]
    move(deps, game_id, 2)
    projector.project(game_id)
    expected = all_read_models(deps)
    deps.redis.delete(deps.keys.checkpoint(game_id), deps.keys.view(game_id, 1))
    assert projector.project(game_id) == deps.store.version(game_id)
    assert all_read_models(deps) == expected


def test_a_restarted_projector_repairs_the_lobby_a_crash_left_behind(deps):
    """A crash between the write and the lobby: the write is done, the lobby still
    lists the game. The restarted projector remembers nothing, so it touches the lobby."""
    projector = Projector(deps.store, consumer="p")
    game_id = deps.service.create("alebrijes", OPEN, {})["id"]
    projector.project(game_id)
    deps.service.claim(game_id, 1, "b")  # the game starts
    version, current = deps.service.load(game_id)
    assert projector._save(game_id, current, version)  # ... and the projector dies here
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == [game_id.encode()]
    move(deps, game_id)
    Projector(deps.store, consumer="p").project(game_id)
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == []


def test_batched_writes_survive_a_flushed_script_cache(deps):
    projector = Projector(deps.store, consumer="p")
    ids = some_games(deps)
    deps.redis.script_flush()  # as after a Redis restart
    versions = projector.project_many(ids)
    assert versions == {g: deps.store.version(g) for g in ids}
    for game_id in ids:
        assert stored(deps, deps.keys.view(game_id, 0))["version"] == versions[game_id]


def test_a_game_over_is_forgotten_and_leaves_the_lobby(deps):
    projector = Projector(deps.store, consumer="p")
    game_id = deps.service.create("alebrijes", OPEN, {})["id"]
    projector.project(game_id)
    assert projector.known.get(game_id) is not None
    deps.service.cancel(game_id)
    projector.project(game_id)
    assert projector.known.get(game_id) is None
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == []
    assert stored(deps, deps.keys.summary(game_id))["status"] == "cancelled"


def test_the_active_webhooks_of_many_games_in_one_round_trip(deps):
    subscriptions = Subscriptions(deps.redis, deps.keys)
    ids = [deps.service.create("alebrijes", humans("a", "b"), {"seed": 1})["id"] for _ in "ab"]
    subscriptions.register(ids[0], "game", "https://example.test/a", ["game_started"])
    subscriptions.register(ids[0], "seat-1", "https://example.test/b", ["your_turn"])
    subscriptions.dead_lettered(ids[0], "seat-1", pause_after=1)
    many = subscriptions.active_many(ids)
    assert many == {g: subscriptions.active(g) for g in ids}
    assert list(many[ids[0]]) == ["game"] and many[ids[1]] == {}


def test_the_write_tells_the_api_processes_only_when_it_writes(deps):
    projector = Projector(deps.store, consumer="p")
    pubsub = deps.redis.pubsub()
    pubsub.subscribe(deps.keys.changes)
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 7})["id"]
    old_version, old_table = deps.service.load(game_id)
    move(deps, game_id)
    projector.project(game_id)
    assert published(pubsub) == [(game_id, deps.store.version(game_id))]
    assert projector._save(game_id, old_table, old_version) is False  # refused: older
    projector.project(game_id)  # nothing new
    assert published(pubsub) == []
    pubsub.close()


def test_notifications_with_nothing_to_write_are_acknowledged_too(deps):
    projector = Projector(deps.store, consumer="p")
    projector.join_group()
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 8})["id"]
    move(deps, game_id, 2)
    projector.project(game_id)  # the three notifications now name nothing new
    assert projector.poll(block_ms=None) == 3
    assert projector.poll(pending=True) == 0


def test_a_webhook_read_that_fails_does_not_hold_up_the_views(deps):
    projector = projector_of(deps, consumer="p")
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 9})["id"]
    deps.redis.set(deps.keys.webhooks(game_id), "not a hash")  # HGETALL answers WRONGTYPE
    move(deps, game_id)
    assert projector.project(game_id) == deps.store.version(game_id)
    assert stored(deps, deps.keys.view(game_id, 0))["version"] == deps.store.version(game_id)


def test_the_sweeps_next_look_is_pushed_out_only_once_half_of_it_is_gone(deps, monkeypatch):
    now = [1_000_000]
    monkeypatch.setattr("services.projector.indexes.now_ms", lambda: now[0])
    projector = Projector(deps.store, consumer="p")
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 10})["id"]
    projector.project(game_id)
    first = now[0] + projector.sweep_ms
    assert deps.redis.zscore(deps.keys.live, game_id) == first
    now[0] += projector.sweep_ms // 2 - 1
    move(deps, game_id)
    projector.project(game_id)
    assert deps.redis.zscore(deps.keys.live, game_id) == first  # no ZADD for this move
    now[0] += 2
    move(deps, game_id)
    projector.project(game_id)
    assert deps.redis.zscore(deps.keys.live, game_id) == now[0] + projector.sweep_ms


class SweepCounter(Projector):
    def __init__(self, store, stop_after):
        super().__init__(store, consumer="sweeps")
        self.sweeps = 0
        self.polls = 0
        self.stop_after = stop_after

    def poll(self, block_ms=1000, count=200, pending=False):
        self.polls += not pending
        return super().poll(block_ms=block_ms, count=count, pending=pending)

    def sweep_due(self):
        self.sweeps += 1
        return super().sweep_due()

    def stop(self):
        return self.polls >= self.stop_after


def test_a_sweep_step_follows_a_read_of_the_feed_at_most_every_step_interval(deps):
    rare = SweepCounter(deps.store, stop_after=5)
    rare.sweep_step_seconds = 3600
    rare.run(stop=rare.stop, block_ms=1)
    assert (rare.polls, rare.sweeps) == (5, 1)
    every = SweepCounter(deps.store, stop_after=5)
    every.sweep_step_seconds = 0
    every.run(stop=every.stop, block_ms=1)
    assert (every.polls, every.sweeps) == (5, 5)


def real_projector(real_redis, keys):
    """Deps on a real Redis server (the round trips are counted on its connections) and
    a projector of them that has joined the feed's group."""
    d = build_deps(real_redis, keys)
    projector = projector_of(d, consumer="p")
    projector.join_group()
    return d, projector


def test_a_batch_costs_three_round_trips_and_two_while_the_feed_keeps_coming(
    real_redis, keys, monkeypatch
):
    """A read of the feed, the tails (with the stored versions and the webhooks), and
    the writes (with the PUBLISH, the XACK and a read of the feed's next batch): when a
    move came in meanwhile, that read ahead is the next batch's read."""
    from redis.connection import AbstractConnection

    d, projector = real_projector(real_redis, keys)
    first, second = (
        d.service.create("alebrijes", humans("a", "b"), {"seed": s})["id"] for s in (11, 12)
    )
    projector.poll(block_ms=None)
    fold = projector._fold

    moving = []

    def fold_while_the_other_game_moves(game_id, *args):
        if game_id == first:
            moving.append(True)  # the move's own round trips are not the projector's
            move(d, second)  # between this batch's read and its writes
            moving.clear()
        return fold(game_id, *args)

    monkeypatch.setattr(projector, "_fold", fold_while_the_other_game_moves)
    move(d, first)
    trips = []
    send = AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        if not moving:
            trips.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    assert projector.poll(block_ms=None) == 1  # the first game's move
    assert len(trips) == 3
    del trips[:]
    assert projector.poll(block_ms=None) == 1  # the second's, read ahead
    assert len(trips) == 2
    monkeypatch.undo()
    assert projector.poll(pending=True) == 0
    for game_id in (first, second):
        assert stored(d, d.keys.view(game_id, 1))["version"] == d.store.version(game_id)


def test_a_projector_that_stops_projects_what_it_read_ahead_first(deps):
    """Read ahead is read: pending on this consumer, whose name dies with the process.
    Left there, it would wait for another projector's claim (30 s) or the sweep."""
    projector = Projector(deps.store, consumer="p")
    projector.join_group()
    first, second = (
        deps.service.create("alebrijes", humans("a", "b"), {"seed": s})["id"] for s in (13, 14)
    )
    fold = projector._fold
    moves = [second, first]  # a move of each made during the first read's folds

    def fold_while_another_game_moves(game_id, *args):
        if moves:
            move(deps, moves.pop())
        return fold(game_id, *args)

    projector._fold = fold_while_another_game_moves
    loops = []

    def stop():
        loops.append(True)
        return len(loops) > 1  # one time round the loop: it ends holding a read ahead

    projector.run(stop=stop, block_ms=1)
    assert projector.poll(pending=True) == 0
    for game_id in (first, second):
        assert stored(deps, deps.keys.view(game_id, 0))["version"] == deps.store.version(game_id)


def test_while_the_feed_is_quiet_the_writes_round_trip_waits_for_the_next_batch(
    real_redis, keys, monkeypatch
):
    """poll with a wait: the writes' read ahead waits for the feed (at most a sweep
    step) and the next poll takes its answer, so a batch costs two round trips; a
    projection in between (a sweep step, a claim) goes on a spare link."""
    from redis.connection import AbstractConnection

    d, projector = real_projector(real_redis, keys)
    first, second = (
        d.service.create("alebrijes", humans("a", "b"), {"seed": s})["id"] for s in (15, 16)
    )
    projector.poll(block_ms=None)
    projector.sweep_step_seconds = 5  # the read ahead waits up to 5 s
    move(d, first)
    assert projector.poll(block_ms=1000) == 1
    assert projector.link.pending  # the read of the next batch waits on the link
    move(d, second)
    trips = []
    send = AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        trips.append(command)
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    assert projector.poll(block_ms=1000) == 1  # the second game's move, waited for
    assert len(trips) == 2  # the tails, the writes (and the next wait)
    monkeypatch.undo()
    assert stored(d, d.keys.view(second, 1))["version"] == d.store.version(second)
    assert projector.link.pending
    move(d, first)
    assert projector.project(first) == d.store.version(first)  # on the spare link
    assert stored(d, d.keys.view(first, 1))["version"] == d.store.version(first)
    assert projector.link.pending  # its notification waits there, read
    projector.run(stop=lambda: True)  # takes it first: nothing left pending
    assert not projector.link.pending
    assert projector.poll(pending=True) == 0


def test_a_wait_that_ran_out_does_not_hide_what_the_feed_holds_now(real_redis, keys):
    """The writes' read ahead waited 1 ms and got nothing; a move comes after: the next
    poll reads the feed as it is now, not the empty answer alone (callers take 0 for
    "the feed is empty": a test's run until quiet, a stopping projector)."""
    import time

    d, projector = real_projector(real_redis, keys)
    game_id = d.service.create("alebrijes", humans("a", "b"), {"seed": 17})["id"]
    assert projector.poll(block_ms=1) == 1  # its creation; the read ahead waits 1 ms
    assert projector.link.pending
    time.sleep(0.05)  # the wait runs out with nothing
    move(d, game_id)
    assert projector.poll(block_ms=None) == 1
    assert stored(d, d.keys.view(game_id, 0))["version"] == d.store.version(game_id)
