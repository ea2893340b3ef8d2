"""A game's checkpoint: the version its read models were built from, and the table at
that version (one hash per game, `Keys.checkpoint`).

The projector is its one writer (services/projector/models.py, in the same script as
the read models); the game service rebuilds a table from it plus the stream's tail, the
API answers "projected yet?" from it, and a bot chain looks at it when it lets go of a
game. They all read it here, so its layout is written down once.
"""

from shared import jsonutil

VERSION = "version"  # the hash's fields
TABLE = "table"


def read(redis, keys, game_id):
    """(version, table) the projector last built this game's read models from; (0, None)
    when it has not seen the game yet."""
    return parse(redis.hmget(keys.checkpoint(game_id), [VERSION, TABLE]))


def queue_read(pipe, keys, game_id):
    """Queue on `pipe` the read whose answer `parse` takes."""
    pipe.hmget(keys.checkpoint(game_id), [VERSION, TABLE])


def parse(answer):
    """(version, table) from the answer of `queue_read`."""
    version, raw = answer
    return (0, None) if version is None else (int(version), jsonutil.loads(raw))


def version(redis, keys, game_id):
    """The version the game's read models show (0 before the projector saw it)."""
    return parse_version(redis.hget(keys.checkpoint(game_id), VERSION))


def queue_version(pipe, keys, game_id):
    """Queue on `pipe` the read whose answer `parse_version` takes."""
    pipe.hget(keys.checkpoint(game_id), VERSION)


def parse_version(answer):
    return int(answer or 0)
