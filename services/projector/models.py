"""The fold and the write of one game's read models.

Folding is `shared.table`'s: the tail of the stream over the table at the checkpoint.
What it gives is written with the checkpoint in one Lua call that refuses to go
backwards, so a duplicate notification, a crash half-way or two projectors racing on
one game leave the read models as one clean pass would. The same call tells the API
processes (PUBLISH) and, for a game over, sets the expiry of its keys
(`Retention.expires_at`).
"""

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from shared import checkpoint, jsonutil, table
from shared.link import Batch
from shared.players import naming

# KEYS[1] the checkpoint, KEYS[2..] read models, then (a game over) the keys that only
# expire; ARGV[1] version, ARGV[2] the table, ARGV[3] the channel that tells the API
# processes, ARGV[4] what to tell them, ARGV[5] when every key expires (ms; 0: never),
# ARGV[6..] the read models' documents in KEYS order. Publishing here, only when written,
# spares a command after the write and keeps "views changed" from going out before the
# views; expiring here spares a command a key and leaves no moment without the expiry.
WRITE_IF_NEWER = f"""
local current = tonumber(redis.call('HGET', KEYS[1], '{checkpoint.VERSION}') or '0')
if current >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], '{checkpoint.VERSION}', ARGV[1], '{checkpoint.TABLE}', ARGV[2])
for i = 2, #ARGV - 4 do redis.call('SET', KEYS[i], ARGV[i + 4]) end
if ARGV[5] ~= '0' then
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], ARGV[5]) end
end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
"""


def read_models(current, version):
    """Every read model of one game at one version, as {name: document}: the public
    summary, the spectator's view and one view per seat."""
    seats = [None, *range(len(current["seats"]))]
    return {"summary": table.summary(current, version), **table.views(current, version, seats)}


def documents(current, version, names=None):
    """The checkpoint's table and each read model, as the JSON the write stores; the
    read models show the players seated as `names` names them ({player id: name}),
    the checkpoint's table only their ids."""
    shown = current if names is None else naming.named(current, names)
    docs = {name: jsonutil.dumps(doc) for name, doc in read_models(shown, version).items()}
    return jsonutil.dumps(current), docs


def fold(tail, was_table):
    """(the table after `tail`, its documents): the tail's events are read by nobody
    after this, so the fold may keep them. A table that seats players has no documents
    yet (None): they are made once the batch's players' names are read (players.py)."""
    current = table.fold(tail.pairs, was_table, copy_events=False)
    if naming.player_ids(current):
        return current, None
    return current, documents(current, tail.version)


class Writer:
    """Writes read models and checkpoints with `WRITE_IF_NEWER`: a batch of games in
    one round trip (one a game on a Redis Cluster, whose pipelines run no scripts)."""

    def __init__(self, redis, keys, retention):
        self.redis = redis
        self.keys = keys
        self.retention = retention
        self.script = redis.register_script(WRITE_IF_NEWER)

    def args(self, game_id, version, docs, current=None, ended_at=None):
        """The write script's keys and arguments; with the game over at `ended_at` (ms),
        the expiry of its read models and webhook keys (`Retention.expires_at`)."""
        checkpoint_table, models = docs
        keys = [self.keys.checkpoint(game_id)] + [
            self.keys.summary(game_id) if n == "summary" else self.keys.view(game_id, n)
            for n in models
        ]
        expires_at = None if current is None else self.retention.expires_at(current, ended_at)
        if expires_at is not None:
            keys += self.retention.webhook_keys(self.keys, game_id)
        told = f"{game_id} {version}"  # what the API processes' watchers hear
        args = [version, checkpoint_table, self.keys.changes, told, expires_at or 0]
        return keys, [*args, *models.values()]

    def save(self, game_id, current, version, names=None):
        """Write one game's read models and checkpoint, unless the stored checkpoint is
        as new already (no expiry: it does not know when the game ended). True when
        written."""
        keys, args = self.args(game_id, version, documents(current, version, names))
        return self.script(keys=keys, args=args) == 1

    def write(self, writes, link=None, acks=None, waits_on=None):
        """{game_id: the script's answer (1 written, 0 refused) or its error} for
        `writes` ({game_id: (keys, args)}), on `link`. `acks` (feed.Acks) go in the same
        pipeline, after the writes (Redis runs a pipeline in order); their read ahead
        may wait for the feed only on `waits_on`, the link the feed reads."""
        if isinstance(self.redis, RedisCluster):
            return {g: _answer(self.script, keys, args) for g, (keys, args) in writes.items()}
        if not writes and not acks:
            return {}
        pipe = Batch(link)
        for keys, args in writes.values():
            pipe.evalsha(self.script.sha, len(keys), *keys, *args)
        if acks:
            acks.queue(pipe, ahead=bool(writes), wait=link is waits_on)
        answered = pipe.execute(raise_on_error=False, leave_last=bool(acks and acks.waits))
        answers = dict(zip(writes, answered, strict=False))
        if acks:
            acks.sent = True
            acks.take(answered[len(writes) :])
        for game_id, answer in answers.items():
            if isinstance(answer, NoScriptError):  # Redis restarted: load it and go on
                answers[game_id] = _answer(self.script, *writes[game_id])
        return answers


def _answer(script, keys, args):
    """A script's answer, or the error it raised (one game's write among a batch's)."""
    try:
        return script(keys=keys, args=args)
    except Exception as error:
        return error
