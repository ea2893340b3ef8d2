"""services/projector: read models from the streams, on fakeredis and on a real Redis."""

import os
import random
import subprocess
import sys

import redis

from services import deps as deps_module
from services import embedded_redis
from services.ops import metrics
from services.projector import build, rebuild
from services.projector.build import projector_of
from services.projector.projector import Projector
from shared import games, table
from shared.config import Config
from tests.fixtures import build_deps
from tests.helpers import RecordingScheduler, humans, legal_choices
from tests.integration.helpers import all_read_models, move, stored


def test_each_seat_gets_a_view_with_only_its_own_hand(deps, projector):
    game_id = deps.service.create("alebrijes", humans("a", "b", "c"), {"seed": 2})["id"]
    version = projector.project(game_id)
    _, current = deps.service.load(game_id)
    for seat in range(3):
        view = stored(deps, deps.keys.view(game_id, seat))
        assert view == table.view(current, version, seat)
        assert view["seat"] == seat and view["version"] == version
    spectator = stored(deps, deps.keys.view(game_id, None))
    assert spectator["seat"] is None and spectator["legal"] == []
    assert stored(deps, deps.keys.summary(game_id)) == table.summary(current, version)


def test_projecting_twice_changes_nothing(deps, projector):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 2})["id"]
    projector.project(game_id)
    before = all_read_models(deps)
    assert projector.project(game_id) == deps.store.version(game_id)
    assert all_read_models(deps) == before


def test_an_older_projection_never_overwrites_a_newer_one(deps, projector):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 2})["id"]
    old_version, old_table = deps.service.load(game_id)
    move(deps, game_id, 2)
    projector.project(game_id)
    newer = stored(deps, deps.keys.view(game_id, 0))
    assert projector._save(game_id, old_table, old_version) is False  # a slow racing projector
    assert stored(deps, deps.keys.view(game_id, 0)) == newer


def test_the_lobby_lists_waiting_games_and_drops_them_once_started(deps, projector):
    game_id = deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
    projector.project(game_id)
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == [game_id.encode()]
    deps.service.claim(game_id, 1, "b")
    projector.project(game_id)
    assert deps.redis.zrange(deps.keys.lobby, 0, -1) == []


def test_the_feed_wakes_the_projector_and_is_acknowledged(deps, projector):
    projector.join_group()
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 4})["id"]
    move(deps, game_id, 3)
    handled = projector.poll(block_ms=10)
    assert handled >= 1
    assert stored(deps, deps.keys.view(game_id, 0))["version"] == deps.store.version(game_id)
    assert projector.poll(block_ms=10) == 0
    assert projector.poll(pending=True) == 0  # nothing left unacknowledged


def test_a_notification_left_unacknowledged_by_a_crash_is_handled_on_restart(deps):
    crashed = Projector(deps.store, consumer="crashed")
    crashed.join_group()
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 4})["id"]
    # The crashed projector read the notification but died before projecting it.
    deps.redis.xreadgroup(
        "projectors", "crashed", {deps.keys.feed(deps.store.partition(game_id)): ">"}
    )
    assert deps.redis.get(deps.keys.view(game_id, 0)) is None
    restarted = Projector(deps.store, consumer="crashed")
    assert restarted.poll(pending=True) == 1
    assert stored(deps, deps.keys.view(game_id, 0))["version"] == deps.store.version(game_id)


def test_the_sweep_repairs_a_lost_notification(deps, projector):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 4})["id"]
    deps.redis.delete(*(deps.keys.feed(p) for p in range(deps.store.partitions)))
    projector.sweep()
    assert stored(deps, deps.keys.view(game_id, 1))["version"] == deps.store.version(game_id)


def test_rebuild_regenerates_the_same_read_models(deps, projector):
    waiting = deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
    playing = deps.service.create("alebrijes", humans("a", "b", "c"), {"seed": 8})["id"]
    move(deps, playing, 5)
    for game_id in (waiting, playing):
        projector.project(game_id)
    live = all_read_models(deps)
    deps.redis.delete(deps.keys.view(playing, 1), deps.keys.lobby)  # damage them
    assert projector.rebuild() == 2
    assert all_read_models(deps) == live


def test_a_rebuild_observes_no_projection_lag_but_live_projection_does(deps, projector):
    # A rebuild's "lag" would be each game's age (days, in production): not a delay.
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 3})["id"]
    move(deps, game_id, 2)

    def observed():
        return next(s.value for s in metrics.PROJECTION_LAG.collect()[0].samples
                    if s.name.endswith("_count"))  # fmt: skip

    before = observed()
    projector.project(game_id)
    assert observed() == before + 1
    projector.rebuild()
    assert observed() == before + 1


def play_randomly(deps, game_id, rng, moves):
    """Up to `moves` random legal commands of the seats to act (a table timer when none
    can act), until the game is over."""
    for _ in range(moves):
        _, current = deps.service.load(game_id)
        if current["status"] != "active":
            return
        choices = legal_choices(current)
        if choices:
            deps.service.command(game_id, *rng.choice(choices))
        elif table.rules_timers(current):
            deps.service.table_timer(game_id, table.rules_timers(current)[0]["key"])
        else:
            return


def test_a_rebuild_writes_byte_for_byte_what_projecting_live_wrote(deps, projector, monkeypatch):
    """Every game, under way with a turn clock and finished (with and without one),
    and games waiting and cancelled, projected live after every few moves; then rebuilt
    from the streams alone, in batches of two: the same keys, bytes and expiry times."""
    rng = random.Random(5)
    waiting, cancelled = (
        deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {})["id"]
        for _ in range(2)
    )
    deps.service.cancel(cancelled)
    playing, ending = [], []
    for number, game in enumerate(games.NAMES):
        seats = humans(*"abcd"[: 4 if game == "alien" else 3])
        for clock, to in ((60, playing), (60, ending), (None, ending)):
            options = {"seed": number, "turn_seconds": clock} if clock else {"seed": number}
            to.append(deps.service.create(game, seats, options)["id"])
    for _ in range(8):
        for game_id in [waiting, cancelled, *playing, *ending]:
            play_randomly(deps, game_id, rng, 4 if game_id in playing else 300)
            projector.project(game_id)
    status = {game_id: deps.service.load(game_id)[1]["status"] for game_id in deps.store.game_ids()}
    assert [status[g] for g in (waiting, cancelled)] == ["waiting", "cancelled"]
    assert {status[g] for g in playing} == {"active"}
    assert {status[g] for g in ending} == {"finished"}
    assert all(deps.service.load(g)[1]["acting_since"] for g in playing)  # clocks run
    live = all_read_models(deps)
    assert all(live[deps.keys.summary(g).encode()][1] > 0 for g in [cancelled, *ending])
    monkeypatch.setattr(rebuild, "REBUILD_BATCH", 2)
    assert Projector(deps.store, consumer="rebuilder").rebuild() == len(status)
    assert all_read_models(deps) == live


def test_a_rebuild_shared_by_processes_writes_what_one_process_writes(real_redis, redis_url, keys):
    config = Config(redis_url, redis_url, token_secret="x", key_prefix=keys.prefix)
    d = deps_module.build(config)
    rng = random.Random(2)
    ids = [
        d.service.create(game, humans(*"abcd"[: 4 if game == "alien" else 3]), {"seed": n})["id"]
        for n, game in enumerate(games.NAMES)
    ]
    for game_id in ids:
        play_randomly(d, game_id, rng, 20)
    assert projector_of(d).rebuild() == len(ids)
    one_process = all_read_models(d)
    d.redis.delete(d.keys.view(ids[0], 1))
    assert rebuild.in_parallel(build.from_config, config, jobs=2, batch=1) == len(ids)
    assert all_read_models(d) == one_process


def test_a_bot_to_act_is_scheduled_once_per_version(deps):
    scheduler = RecordingScheduler()
    projector = Projector(deps.store, scheduler)
    seats = [{"bot": "random"}, {"name": "b"}]
    game_id = deps.service.create("alebrijes", seats, {"seed": 1})["id"]
    version = projector.project(game_id)
    assert scheduler.bot_turns == [(game_id, 0, version)]
    projector.project(game_id)
    assert scheduler.bot_turns == [(game_id, 0, version)]
    assert scheduler.reactions == [] and scheduler.turn_timers == []


def test_the_sweep_wakes_a_bot_whose_job_was_lost(deps):
    lost = Projector(deps.store)  # its jobs never reached RQ
    game_id = deps.service.create("alebrijes", [{"bot": "random"}, {"name": "b"}], {"seed": 1})[
        "id"
    ]
    version = lost.project(game_id)
    assert deps.queue.count == 0
    projector_of(deps).sweep()
    assert deps.queue.job_ids == [f"bot-{game_id}-0-{version}"]


def test_the_rebuild_command_rebuilds_every_game(real_redis, redis_url, keys):
    """`python -m services.projector rebuild`, as an operator runs it, in its own process
    against the same Redis server."""
    deps = build_deps(real_redis, keys)
    projector = projector_of(deps, consumer="test")
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 3})["id"]
    projector.project(game_id)
    live = all_read_models(deps)
    deps.redis.delete(deps.keys.view(game_id, 0))
    env = {**os.environ, "REDIS_URL": redis_url, "KEY_PREFIX": keys.prefix, "TOKEN_SECRET": "x"}
    command = [sys.executable, "-m", "services.projector", "rebuild"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert "rebuilt the read models of 1 games" in done.stdout, done.stderr
    assert all_read_models(deps) == live


def test_a_game_that_cannot_be_projected_does_not_hold_up_the_others(deps, projector):
    projector.join_group()
    broken = deps.service.create("alebrijes", humans("a", "b"), {"seed": 1})["id"]
    deps.store.append(broken, deps.store.version(broken), [{"type": "no_such_event"}], at_ms=1)
    healthy = deps.service.create("alebrijes", humans("a", "b"), {"seed": 2})["id"]
    assert projector.poll(block_ms=10) >= 2
    assert stored(deps, deps.keys.view(healthy, 0))["version"] == deps.store.version(healthy)
    assert projector.poll(pending=True) == 0  # acknowledged: the sweep retries the game
    projector.sweep()  # and keeps going past it


def test_rebuild_without_redis_url_finds_the_embedded_redis_of_the_run(tmp_path, keys):
    """`make run`'s embedded Redis writes its URL in the run directory,
    and the rebuild command, run with no REDIS_URL, rebuilds that Redis and says so."""
    process, url = embedded_redis.start_for_run(tmp_path)
    try:
        assert (tmp_path / "redis.url").read_text().strip() == url
        deps = build_deps(redis.Redis.from_url(url), keys)
        game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 3})["id"]
        projector_of(deps, consumer="test").project(game_id)
        live = all_read_models(deps)
        deps.redis.delete(deps.keys.view(game_id, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
        env.update(RUN_DIR=str(tmp_path), KEY_PREFIX=keys.prefix, TOKEN_SECRET="x")
        command = [sys.executable, "-m", "services.projector", "rebuild"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert f"Redis: {url} (from {tmp_path / 'redis.url'})" in done.stdout, done.stderr
        assert "rebuilt the read models of 1 games" in done.stdout
        assert all_read_models(deps) == live
    finally:
        process.kill()
        process.wait(10)
        embedded_redis.forget(tmp_path, url)
    assert not (tmp_path / "redis.url").exists()
