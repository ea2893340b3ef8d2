"""Games keep going across releases: the logs in tests/logs/, stored as earlier
releases stored them (one finished game of each game, and one from before events
carried a schema), are read by this release's store (shared/upcast.py), check out
decision by decision to their end, are projected, and a game cut at a decision goes on
to its end under this release's rules."""

import json
from pathlib import Path

import pytest

from services.projector.build import projector_of
from shared import replay, table, upcast
from tests.fixtures import build_deps
from tests.record_logs import play_to_end

LOGS = sorted((Path(__file__).resolve().parents[1] / "logs").glob("*.jsonl"))


def entries(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def store_as_recorded(d, lines, upto=None):
    """The entries written into the stream exactly as the release that recorded them
    stored them (its fields, its ids); the game's id."""
    game_id = json.loads(lines[0]["e"])["id"]
    key = d.keys.events(game_id)
    for line in lines[:upto]:
        d.redis.xadd(key, {k: v for k, v in line.items() if k != "id"}, id=line["id"])
    return game_id


def whole(d, game_id):
    return [{**r.event, "version": r.version, "at": r.at} for r in d.store.read(game_id)]


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_logged_game_replays_to_its_end_on_this_release(real_redis, keys, path):
    d = build_deps(real_redis, keys)
    lines = entries(path)
    game_id = store_as_recorded(d, lines)
    records = whole(d, game_id)
    assert replay.check(records) == []
    assert replay.table_at(records)["status"] == "finished"
    projector = projector_of(d, consumer="test")
    assert projector.project(game_id) == len(lines)
    summary = json.loads(d.redis.get(d.keys.summary(game_id)))
    assert summary["status"] == "finished" and summary["version"] == len(lines)
    created = records[0]
    if "s" not in lines[0]:  # stored before events carried a schema: upcast on reading
        assert created["seed_salt"] == "" and created["takeover_bot"] == table.LEGACY_TAKEOVER_BOT
        assert created["dealt_by_creator"] is False
    else:
        assert {line["s"] for line in lines} <= {str(s) for s in range(upcast.SCHEMA + 1)}


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_game_started_on_an_earlier_release_finishes_on_this_one(real_redis, keys, path):
    d = build_deps(real_redis, keys)
    lines = entries(path)
    records = [
        {**json.loads(x["e"]), "version": int(x["id"].split("-")[0]), "at": int(x["t"])}
        for x in lines
    ]
    middle = max(v for v in replay.steps(records) if v <= len(records) // 2)
    game_id = store_as_recorded(d, lines, upto=middle)
    play_to_end(d, game_id, seed=2)  # this release's rules take it from there
    after = whole(d, game_id)
    assert len(after) > middle and replay.table_at(after)["status"] == "finished"
    assert replay.check(after) == []
    assert [r["version"] for r in after] == list(range(1, len(after) + 1))
    assert d.store.read(game_id)[-1].event["type"] == table.ENDED


def test_every_step_of_the_upcasters_is_there():
    assert set(upcast.UPCASTERS) == set(range(upcast.SCHEMA))
    created = {"type": table.CREATED, "custom_deck": True, "seed": "1"}
    assert upcast.current(created, 0)["dealt_by_creator"] is True
    assert upcast.current(created, upcast.SCHEMA) is created
