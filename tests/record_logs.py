"""Record the logs of tests/logs/: one finished game of each game, as this release stores
it, replayed to its end by every later release (tests/integration/test_upgrades.py).

    .venv/bin/python -m tests.record_logs        # writes tests/logs/<game>.jsonl

Run it once per release that changes an event's shape (with a step in shared/upcast.py),
under a new name, keeping the old files: they are what games started on that release
hold. Each line is one stream entry as Redis holds it: its id and its fields."""

import random
from pathlib import Path

import fakeredis

from shared import table
from shared.keys import Keys
from tests.fixtures import build_deps

LOGS = Path(__file__).resolve().parent / "logs"
GAMES = {
    "alebrijes": ({"rounds": 1}, 3),
    "alien": ({}, 3),
    "alakablast": ({}, 3),
    "abluxxen": ({}, 3),
}


def play_to_end(d, game_id, seed):
    rng = random.Random(seed)
    for _ in range(5000):
        _, current = d.service.load(game_id, fresh=True)
        if current["status"] == "finished":
            return
        seat = table.to_act(current)[0]
        command = rng.choice(table.rules_of(current).legal(current["rules"], seat))
        d.service.command(game_id, seat, command)
    raise AssertionError(f"{game_id} did not end")


def record(game, options, seats, seed=1):
    """The stream entries of one finished game of `game`, as JSON lines."""
    client, keys = fakeredis.FakeRedis(), Keys("record:")
    d = build_deps(client, keys)
    players = [{"name": f"p{n}"} for n in range(seats)]
    game_id = d.service.create(game, players, {"seed": f"{game}-{seed}", **options})["id"]
    play_to_end(d, game_id, seed)
    lines = []
    for entry_id, fields in client.xrange(keys.events(game_id)):
        decoded = {k.decode(): v.decode() for k, v in fields.items()}
        lines.append({"id": entry_id.decode(), **decoded})
    return lines


def unversioned(lines):
    """The same log as stored before events carried a schema (shared/upcast.py's
    schema 0), in its oldest shape: no `s` field, a game_created without a salt (its
    seed's hash unsalted), `dealt_by_creator` or `takeover_bot`, and no salt revealed
    at the end."""
    import hashlib
    import json

    created = json.loads(lines[0]["e"])
    for name in ("seed_salt", "dealt_by_creator", "takeover_bot"):
        created.pop(name)
    created["seed_sha256"] = hashlib.sha256(created["seed"].encode()).hexdigest()
    first = {"id": lines[0]["id"], "e": json.dumps(created, sort_keys=True), "t": lines[0]["t"]}
    rest = []
    for line in lines[1:]:
        event = json.loads(line["e"])
        event.pop("seed_salt", None)  # game_ended revealed no salt either
        rest.append({"id": line["id"], "e": json.dumps(event, sort_keys=True), "t": line["t"]})
    return [first, *rest]


def main():
    import json

    LOGS.mkdir(exist_ok=True)
    for game, (options, seats) in GAMES.items():
        logs = {game: record(game, options, seats)}
        if game == "alebrijes":
            logs["alebrijes-unversioned"] = unversioned(logs[game])
        for name, lines in logs.items():
            path = LOGS / f"{name}.jsonl"
            path.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
            print(f"{path}: {len(lines)} entries")


if __name__ == "__main__":
    main()
