"""Finished games as logs: reading one whole, storing an uploaded one, forking one.

An uploaded log is stored as a game of its own, under a new id, only once it checks out
(shared.replay): its stream is written in one script with each event's own time, so no
reader ever sees it half-written, and the game is finished from its first read, so no
bot or timer is ever scheduled for it.

What the server cannot check in a log it does not take from it: a log naming a game of
this server must be exactly that game's log (then `imported_from` says so, `verified`);
a log from elsewhere is marked `dealt_by_creator`, since whoever wrote it may have
chosen every card. The same log uploaded twice is stored once.
"""

import hashlib
import secrets
import time

from services.game.service import new_game_id
from shared import jsonutil, replay, table, upcast
from shared.games.base import RuleError
from shared.store import FEED_MAXLEN

# KEYS[1] the new game's stream; ARGV pairs: an event's JSON, its time; last, the
# events' schema (shared/upcast.py). Writes nothing when the stream exists.
_WRITE_LOG = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local schema = ARGV[#ARGV]
for i = 1, #ARGV - 1, 2 do
  redis.call('XADD', KEYS[1], ((i + 1) / 2) .. '-0', 'e', ARGV[i], 't', ARGV[i + 1], 's', schema)
end
return 1
"""


def whole_log(service, game_id):
    """(version, table, records) of a finished game, its records as the API shows them
    (every event whole). Raises RuleError: unknown_game, game_not_finished."""
    version, current = service.load(game_id, fresh=True)
    if current["status"] != "finished":
        status = current["status"]
        raise RuleError("game_not_finished", f"the game is {status}: replays wait for its end")
    records = [{**r.event, "version": r.version, "at": r.at} for r in service.store.read(game_id)]
    return version, current, records


# How long a second upload of a log waits for the first one's write to finish.
_WRITING = 2.0

# KEYS[1] the log's digest key; ARGV: the id it held, the new one. Takes the digest
# over from an upload that died before writing its game.
_TAKE_OVER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end
return 0
"""


def import_log(service, records, before_storing=lambda: None):
    """Check an uploaded log and store it as a new game; returns (id, game, version,
    new): `new` is False when the same log was stored already, and the id is then that
    game's. Raises RuleError("bad_log") with the first problem found, storing nothing.
    `before_storing` runs only when the log is new, just before it is stored (a quota:
    what it raises stores nothing)."""
    problems = replay.problems_of_upload(records)
    if problems:
        raise RuleError("bad_log", problems[0])
    created = records[0]
    origin = _origin(service.store, records)
    store, redis = service.store, service.store.redis
    digest_key = store.keys.imported(hashlib.sha256(jsonutil.dumps(records)).hexdigest())
    game_id = new_game_id()
    while not redis.set(digest_key, game_id, nx=True):
        stored = _stored_as(store, digest_key)
        if stored is not None:
            return stored, created["game"], len(records), False
        # The upload that took the digest died before writing its game: take it over.
        held = redis.get(digest_key)
        if held is not None and redis.eval(_TAKE_OVER, 1, digest_key, held, game_id):
            break
    first = {
        **replay.bare(created),
        "id": game_id,
        "imported_from": {"game": created["id"], "verified": origin is not None},
        # This server dealt its own games; a log from elsewhere, anyone may have written.
        "dealt_by_creator": origin["dealt_by_creator"] if origin else True,
    }
    events = [first, *(replay.bare(r) for r in records[1:])]
    try:
        before_storing()
        _write(store, game_id, events, [r["at"] for r in records])
    except BaseException:
        redis.delete(digest_key)
        raise
    return game_id, created["game"], len(records), True


def _origin(store, records):
    """The table of the game of this server the log names, when the log is exactly its
    log; None when no game of this server has that id. A log that names one of this
    server's games but is not its log (renamed seats, another seed...) is refused."""
    claimed = records[0]["id"]
    if not isinstance(claimed, str) or not store.version(claimed):
        return None
    stored = [{**r.event, "version": r.version, "at": r.at} for r in store.read(claimed)]
    if stored != records:
        raise RuleError(
            "bad_log", f"the log names the game {claimed} of this server but is not its log"
        )
    return table.evolve(None, stored[0])


def _stored_as(store, digest_key):
    """The id of the game stored under a log's digest once its stream is written
    (waiting briefly for an upload writing it now); None when nothing was written."""
    deadline = time.monotonic() + _WRITING
    while True:
        held = store.redis.get(digest_key)
        if held is None:
            return None
        held = held.decode() if isinstance(held, bytes) else held
        if store.version(held):
            return held
        if time.monotonic() > deadline:
            return None
        time.sleep(0.02)


def _write(store, game_id, events, times):
    args = []
    for event, at in zip(events, times, strict=True):
        args += [jsonutil.dumps(event), at]
    args.append(upcast.SCHEMA)
    script = store.redis.register_script(_WRITE_LOG)
    if not script(keys=[store.keys.events(game_id)], args=args):
        raise RuleError("bad_log", "a game with this id exists; send the log again")
    feed = store.keys.feed(store.partition(game_id))  # wakes the projectors, as append does
    store.redis.xadd(feed, {"g": game_id}, maxlen=FEED_MAXLEN, approximate=True)


def fork(service, game_id, version, seats):
    """Open a new game from a finished game's position at `version` with new `seats`
    and a fresh seed (and salt). Returns the creation answer plus `forked_from`."""
    _, _, records = whole_log(service, game_id)
    new_id = new_game_id()
    seed, salt = secrets.token_hex(16), secrets.token_hex(16)  # as for any new game
    events = replay.fork(records, version, new_id, seats, seed, salt)
    opened = service.open(new_id, events)
    return {**opened, "forked_from": events[0]["forked_from"]}
