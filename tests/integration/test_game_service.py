"""services/game: the single writer, on fakeredis and on a real Redis server."""

import pytest

from services.game import GameService
from shared import table, tokens
from shared.games.base import RuleError
from shared.store import VersionConflict
from tests.helpers import humans

BOTS2 = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]


def first_legal(service, game_id):
    version, current = service.load(game_id)
    seat = table.rules_of(current).to_act(current["rules"])[0]
    return seat, table.rules_of(current).legal(current["rules"], seat)[0]


def test_create_gives_human_seats_a_token_and_bots_none(deps):
    created = deps.service.create("alebrijes", BOTS2, {"seed": 7})
    ana, bot1, _ = created["seats"]
    assert tokens.verify("test-secret", ana["token"]) == (created["id"], 0)
    assert bot1["token"] is None and bot1["bot"] == "random"
    version, current = deps.service.load(created["id"])
    assert version == created["version"] and current["status"] == "active"


def test_a_game_waits_until_every_open_seat_is_claimed(deps):
    created = deps.service.create("alebrijes", [{"name": "ana"}, {"open": True}], {})
    assert deps.service.load(created["id"])[1]["status"] == "waiting"
    claimed = deps.service.claim(created["id"], 1, "bo")
    assert tokens.verify("test-secret", claimed["token"]) == (created["id"], 1)
    assert deps.service.load(created["id"])[1]["status"] == "active"
    with pytest.raises(RuleError) as refused:
        deps.service.claim(created["id"], 1, "cy")
    assert refused.value.code == "game_not_waiting"


def test_a_taken_seat_cannot_be_claimed(deps):
    created = deps.service.create(
        "alebrijes", [{"name": "ana"}, {"open": True}, {"open": True}], {}
    )
    with pytest.raises(RuleError) as refused:
        deps.service.claim(created["id"], 0, "bo")
    assert refused.value.code == "seat_taken"


def test_the_same_seed_and_commands_give_the_same_events(deps):
    logs = []
    for _ in range(2):
        game_id = deps.service.create("alebrijes", humans("a", "b", "c"), {"seed": "same"})["id"]
        for _ in range(12):
            seat, command = first_legal(deps.service, game_id)
            deps.service.command(game_id, seat, command)
        events = [r.event for r in deps.store.read(game_id)]
        for drawn in ("id", "seed_salt", "seed_sha256"):  # each game's own, from the OS
            del events[0][drawn]
        logs.append(events)
    assert logs[0] == logs[1]


def test_shuffles_and_deals_are_recorded_so_the_log_replays_without_randomness(deps):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 3})["id"]
    seat, command = first_legal(deps.service, game_id)
    deps.service.command(game_id, seat, command)
    records = deps.store.read(game_id)
    replayed = table.fold((r.event, r.at) for r in records)
    assert replayed == deps.service.load(game_id, fresh=True)[1]
    created = records[0].event
    assert created["seed"] == 3 and len(created["seed_sha256"]) == 64


def test_a_refused_command_appends_nothing(deps):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {})["id"]
    before = deps.store.version(game_id)
    with pytest.raises(RuleError) as refused:
        deps.service.command(game_id, 1, {"type": "pass", "exchange": []})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(RuleError):
        deps.service.command(game_id, 0, {"type": "play", "cards": ["Z9"]})
    assert deps.store.version(game_id) == before


def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(deps):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {})["id"]
    version = deps.store.version(game_id)
    seat, command = first_legal(deps.service, game_id)
    with pytest.raises(VersionConflict):
        deps.service.command(game_id, seat, command, expected_version=version - 1)
    assert deps.store.version(game_id) == version
    new_version, records, _ = deps.service.command(game_id, seat, command, version)
    assert new_version == version + len(records) and records[0].version == version + 1


def test_a_writer_with_a_stale_cache_reads_the_tail_and_retries(deps):
    other = GameService(deps.store, "test-secret")
    game_id = deps.service.create("alebrijes", humans("a", "b", "c"), {"seed": 5})["id"]
    other.load(game_id)  # other's cache now holds the first version
    seat, command = first_legal(deps.service, game_id)
    deps.service.command(game_id, seat, command)
    seat, command = first_legal(deps.service, game_id)
    version, _, after = other.command(game_id, seat, command)
    assert version == deps.store.version(game_id)
    assert after == table.fold((r.event, r.at) for r in deps.store.read(game_id))


def test_an_unknown_game_is_refused(deps):
    with pytest.raises(RuleError) as refused:
        deps.service.command("nope", 0, {"type": "pass"})
    assert refused.value.code == "unknown_game"


def test_the_writer_loads_from_the_projectors_checkpoint_plus_the_tail(deps, projector):
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 1})["id"]
    projector.project(game_id)
    seat, command = first_legal(deps.service, game_id)
    deps.service.command(game_id, seat, command)
    fresh = GameService(deps.store, "test-secret")
    assert fresh.load(game_id) == deps.service.load(game_id, fresh=True)


def test_a_cached_table_is_advanced_by_records_already_read(deps):
    """advance() folds records a caller read (a push, with the view) onto the cache, the
    same table a fresh load gives; records that start past the cache are not used."""
    game_id = deps.service.create("alebrijes", humans("a", "b"), {"seed": 3})["id"]
    other = GameService(deps.store, "test-secret")  # another process: its own cache
    cached_at, _ = other.load(game_id)
    for _ in range(4):
        seat, command = first_legal(deps.service, game_id)
        deps.service.command(game_id, seat, command)
    records = deps.store.read(game_id, after=cached_at)
    assert len(records) >= 4
    assert other.advance(game_id, records[1:]) is None  # a gap: not folded
    assert other.cached(game_id)[0] == cached_at
    assert other.advance(game_id, []) == other.cached(game_id)
    version, advanced = other.advance(game_id, records)
    assert version == records[-1].version == deps.service.load(game_id)[0]
    assert advanced == GameService(deps.store, "test-secret").load(game_id)[1]
    assert other.advance(game_id, records[:2]) == (version, advanced)  # older: the cache
    assert GameService(deps.store, "test-secret").advance(game_id, records) is None
