"""Backup and restore: what a deployment cannot rebuild, copied out as JSON Lines and
back into a fresh Redis, then everything else rebuilt and every game verified.

    tablestream backup FILE          the streams (games, players, quick match), webhooks,
                                     the token secret
    tablestream restore FILE         into a Redis holding no game or player: rebuild, verify
    tablestream export-finished FILE every finished game's log, one game a line

The events are the state; the read models, lobby, live index, ratings and queued jobs
are made from them (the rebuild, then the projectors' sweep schedules each live game's
bot turns and timers again). Besides the games' streams, a backup holds what cannot be
made again: the seat-token secret (without it no issued token verifies), each game's
webhook subscriptions and their health, each player's stream (its name, identities and
webhook), inbox (items told once) and tickets, and each quick-match queue's
description and stream. One JSON object a line:

    {"secret": "..."}
    {"game": "<id>", "entries": [["1-0", {"e": "...", "t": "...", "s": "1"}], ...]}
    {"game": "<id>", "webhooks": {...}, "webhook_health": {...}}
    {"player": "<id>", "entries": [...], "inbox": [...], "tickets": {...}, "ticket_history": [...]}
    {"queue": "<id>", "description": "...", "entries": [...]}

Each stream is read whole in one XRANGE, so it is copied at one version; what moved
meanwhile is copied as it stood when read. Restored entries keep their ids and fields
byte for byte. An identity's link to its player is not copied: the restore makes it
again from the player's identities.
"""

import json

from services.projector.rebuild import rebuild
from shared import jsonutil, replay

SECRET, GAME, PLAYER, QUEUE = "secret", "game", "player", "queue"


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _hash(redis, key):
    return {_text(k): _text(v) for k, v in redis.hgetall(key).items()}


def _entries(redis, key):
    """A stream's entries as [[id, {field: value}], ...], read whole in one XRANGE."""
    return [[_text(i), {_text(k): _text(v) for k, v in f.items()}] for i, f in redis.xrange(key)]


def _append(pipe, key, entries):
    for entry_id, fields in entries:
        pipe.xadd(key, fields, id=entry_id)


def backup(d, out):
    """Write deployment `d`'s backup to the text file `out`; returns how many games."""
    secret = d.redis.get(d.keys.secret)
    out.write(json.dumps({SECRET: _text(secret) if secret else d.service.secret}) + "\n")
    game_ids = d.store.game_ids()
    for game_id in game_ids:
        out.write(json.dumps({GAME: game_id, "entries": _entries(d.redis, d.keys.events(game_id))}))
        out.write("\n")
        hooks = _hash(d.redis, d.keys.webhooks(game_id))
        health = _hash(d.redis, d.keys.webhook_health(game_id))
        if hooks or health:
            out.write(json.dumps({GAME: game_id, "webhooks": hooks, "webhook_health": health}))
            out.write("\n")
    for player_id in d.players.player_ids():
        history = d.redis.zrange(d.keys.player_ticket_history(player_id), 0, -1, withscores=True)
        line = {
            PLAYER: player_id,
            "entries": _entries(d.redis, d.keys.player_events(player_id)),
            "inbox": _entries(d.redis, d.keys.player_inbox(player_id)),
            "tickets": _hash(d.redis, d.keys.player_tickets(player_id)),
            "ticket_history": [[_text(t), score] for t, score in history],
        }
        out.write(json.dumps(line) + "\n")
    for queue_id in d.matchmaking.queue_ids():
        description = d.redis.get(d.keys.queue(queue_id))
        entries = _entries(d.redis, d.keys.queue_events(queue_id))
        line = {QUEUE: queue_id, "description": _text(description), "entries": entries}
        out.write(json.dumps(line) + "\n")
    return len(game_ids)


class NotEmpty(Exception):
    """A restore goes into a Redis that holds no game of the deployment."""


def restore(d, lines, projector):
    """Restore a backup (its lines) into deployment `d`, whose Redis holds no game or
    player; then rebuild every read model with `projector`, link each identity to its
    player, and verify every game. Returns the verify's answer (see verify)."""
    if d.store.game_ids() or d.players.player_ids():
        raise NotEmpty("this Redis holds games or players already: restore into a fresh one")
    for line in lines:
        if not line.strip():
            continue
        item = json.loads(line)
        if SECRET in item:
            d.redis.set(d.keys.secret, item[SECRET])
        elif PLAYER in item:
            _restore_player(d, item)
        elif QUEUE in item:
            _restore_queue(d, item)
        elif "entries" in item:
            pipe = d.redis.pipeline(transaction=False)
            _append(pipe, d.keys.events(item[GAME]), item["entries"])
            pipe.execute()
        else:
            for key, values in (
                (d.keys.webhooks(item[GAME]), item["webhooks"]),
                (d.keys.webhook_health(item[GAME]), item["webhook_health"]),
            ):
                if values:
                    d.redis.hset(key, mapping=values)
    rebuild(projector)  # the games', players', ratings' and queues' read models
    for player_id in d.players.player_ids():
        _, player = d.players.load(player_id)
        for identity in (player or {}).get("identities", []):
            d.players.claim_identity(identity["issuer"], identity["subject"], player_id)
    return verify(d)


def _restore_player(d, item):
    player_id, keys = item[PLAYER], d.keys
    pipe = d.redis.pipeline(transaction=False)  # one player's keys: one hash tag
    _append(pipe, keys.player_events(player_id), item["entries"])
    _append(pipe, keys.player_inbox(player_id), item["inbox"])
    if item["tickets"]:
        pipe.hset(keys.player_tickets(player_id), mapping=item["tickets"])
    if item["ticket_history"]:
        pipe.zadd(keys.player_ticket_history(player_id), dict(item["ticket_history"]))
    pipe.execute()


def _restore_queue(d, item):
    queue_id, keys = item[QUEUE], d.keys
    pipe = d.redis.pipeline(transaction=False)  # one queue's keys: one hash tag
    if item["description"] is not None:
        pipe.set(keys.queue(queue_id), item["description"])
    _append(pipe, keys.queue_events(queue_id), item["entries"])
    pipe.execute()
    d.redis.sadd(keys.queues, queue_id)


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
