"""Finished games as logs: reading one whole, storing an uploaded one, forking one.

An uploaded log is stored as a game of its own, under a new id, only once it checks out
(shared.replay): its stream is written in one script with each event's own time, so no
reader ever sees it half-written, and the game is finished from its first read, so no
bot or timer is ever scheduled for it.
"""

import secrets

from services.game.service import new_game_id
from shared import jsonutil, replay
from shared.games.base import RuleError
from shared.store import FEED_MAXLEN

# KEYS[1] the new game's stream; ARGV pairs: an event's JSON, its time. Writes nothing
# when the stream exists.
_WRITE_LOG = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 1, #ARGV, 2 do
  redis.call('XADD', KEYS[1], ((i + 1) / 2) .. '-0', 'e', ARGV[i], 't', ARGV[i + 1])
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


def import_log(service, records):
    """Check an uploaded log and store it as a new game; returns (id, game, version).
    Raises RuleError("bad_log") with the first problem found, storing nothing."""
    problems = replay.problems_of_upload(records)
    if problems:
        raise RuleError("bad_log", problems[0])
    game_id = new_game_id()
    created = records[0]
    first = {
        **replay.bare(created),
        "id": game_id,
        "imported_from": {"game": created["id"]},
    }
    events = [first, *(replay.bare(r) for r in records[1:])]
    _write(service.store, game_id, events, [r["at"] for r in records])
    return game_id, created["game"], len(records)


def _write(store, game_id, events, times):
    args = []
    for event, at in zip(events, times, strict=True):
        args += [jsonutil.dumps(event), at]
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
