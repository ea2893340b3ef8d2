"""Backup and restore: what a deployment cannot rebuild, copied out as JSON Lines and
back into a fresh Redis, then everything else rebuilt and every game verified.

    tablestream backup FILE          every game's stream, webhooks and the token secret
    tablestream restore FILE         into a Redis holding no game: then rebuild, verify
    tablestream export-finished FILE every finished game's log, one game a line

The events are the state; the read models, lobby, live index and queued jobs are made
from them (the rebuild, then the projectors' sweep schedules each live game's bot
turns and timers again). Besides the streams only three things cannot be remade: the
seat-token secret (without it no issued token verifies), each game's webhook
subscriptions and their health. A backup holds those, one JSON object a line:

    {"secret": "..."}
    {"game": "<id>", "entries": [["1-0", {"e": "...", "t": "...", "s": "1"}], ...]}
    {"game": "<id>", "webhooks": {...}, "webhook_health": {...}}

Each game's stream is read whole in one XRANGE, so it is copied at one version;
games appended meanwhile are copied as they stood when read. Restored entries keep
their ids and fields byte for byte.
"""

import json

from services.projector.rebuild import rebuild
from shared import jsonutil, replay

SECRET, GAME = "secret", "game"


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _hash(redis, key):
    return {_text(k): _text(v) for k, v in redis.hgetall(key).items()}


def backup(d, out):
    """Write deployment `d`'s backup to the text file `out`; returns how many games."""
    secret = d.redis.get(d.keys.secret)
    out.write(json.dumps({SECRET: _text(secret) if secret else d.service.secret}) + "\n")
    game_ids = d.store.game_ids()
    for game_id in game_ids:
        entries = d.redis.xrange(d.keys.events(game_id))
        copied = [[_text(i), {_text(k): _text(v) for k, v in f.items()}] for i, f in entries]
        out.write(json.dumps({GAME: game_id, "entries": copied}) + "\n")
        hooks = _hash(d.redis, d.keys.webhooks(game_id))
        health = _hash(d.redis, d.keys.webhook_health(game_id))
        if hooks or health:
            out.write(json.dumps({GAME: game_id, "webhooks": hooks, "webhook_health": health}))
            out.write("\n")
    return len(game_ids)


class NotEmpty(Exception):
    """A restore goes into a Redis that holds no game of the deployment."""


def restore(d, lines, projector):
    """Restore a backup (its lines) into deployment `d`, whose Redis holds no game;
    then rebuild every read model with `projector` and verify every game. Returns the
    verify's answer (see verify)."""
    if d.store.game_ids():
        raise NotEmpty("this Redis holds games already: restore into a fresh one")
    for line in lines:
        if not line.strip():
            continue
        item = json.loads(line)
        if SECRET in item:
            d.redis.set(d.keys.secret, item[SECRET])
        elif "entries" in item:
            pipe = d.redis.pipeline(transaction=False)
            for entry_id, fields in item["entries"]:
                pipe.xadd(d.keys.events(item[GAME]), fields, id=entry_id)
            pipe.execute()
        else:
            for key, values in (
                (d.keys.webhooks(item[GAME]), item["webhooks"]),
                (d.keys.webhook_health(item[GAME]), item["webhook_health"]),
            ):
                if values:
                    d.redis.hset(key, mapping=values)
    rebuild(projector)
    return verify(d)


def verify(d):
    """Every game checked against its stream: its summary's version is the stream's,
    and a finished game's log checks out decision by decision (the replay check).
    Returns {"games": n, "finished": n, "problems": {game_id: [problem, ...]}}."""
    answer = {"games": 0, "finished": 0, "problems": {}}
    for game_id in d.store.game_ids():
        answer["games"] += 1
        records = [{**r.event, "version": r.version, "at": r.at} for r in d.store.read(game_id)]
        problems = []
        summary = d.redis.get(d.keys.summary(game_id))
        current = replay.table_at(records)
        if summary is None and current["status"] not in ("finished", "cancelled"):
            problems.append("no summary after the rebuild")
        elif summary is not None and jsonutil.loads(summary)["version"] != len(records):
            problems.append("its summary is not at the stream's version")
        if current["status"] == "finished":
            answer["finished"] += 1
            problems += replay.check(records)
        if problems:
            answer["problems"][game_id] = problems
    return answer


def export_finished(d, out):
    """Every finished game's whole log, one game a line ({"game", "id", "version",
    "events"}: what GET /v1/games/{id}/export answers, with its id); returns how many."""
    count = 0
    for game_id in d.store.game_ids():
        records = [{**r.event, "version": r.version, "at": r.at} for r in d.store.read(game_id)]
        if not records or replay.table_at(records)["status"] != "finished":
            continue
        line = {
            "id": game_id,
            "game": records[0]["game"],
            "version": len(records),
            "events": records,
        }
        out.write(jsonutil.dumps(line).decode() + "\n")
        count += 1
    return count
