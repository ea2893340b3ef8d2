"""The event store: one Redis stream per game, appended with an expected version.

An event's version is its position in the game's stream (1, 2, ...) and is also its
stream entry id (`<version>-0`), so reading from a version is a plain XRANGE and no
clock leaks into ids. Appends are one Lua script: the version check and every XADD
happen atomically, so two writers racing for the same version cannot both win. A
script sent again after its answer was lost finds its own events there (same bytes,
same time) and answers their version: the append happened once, not a conflict.

Each append also notifies a feed stream (partitioned by game) that the projectors
follow. On one Redis server the same script does it, so a move is one round trip and
a notification is written exactly when events are. On a Redis Cluster the feed and the
game live on different slots (and a cluster pipeline runs no scripts), so there it is
a second command after the script; the feed is only a wake-up, so a notification lost
in a crash between the two is repaired by the projectors' sweep, and a repeated one is
harmless.
"""

import zlib
from dataclasses import dataclass

from redis import RedisCluster
from redis.exceptions import ConnectionError, NoScriptError, TimeoutError

from shared import jsonutil, upcast
from shared.keys import Keys
from shared.link import pooled_call

FEED_MAXLEN = 100_000

# KEYS[1] the game's stream, KEYS[2] (on one server) the feed to notify; ARGV: the
# expected version, the append time, the game id, the feed's approximate length cap,
# the events' schema (shared/upcast.py), then the events.
_APPEND = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
if version ~= tonumber(ARGV[1]) then return {0, version} end
for i = 6, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i], 't', ARGV[2], 's', ARGV[5])
end
if KEYS[2] then redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'g', ARGV[3]) end
return {1, version}
"""


class NotReplicated(Exception):
    """The events were appended on the primary, but fewer replicas than asked for had
    them within the timeout: the append is not acknowledged. Sending it again with the
    same expected version finds it there (see `append`) and waits for the replicas
    again."""

    def __init__(self, version, replicas, acknowledged):
        super().__init__(f"version {version} reached {acknowledged} of {replicas} replicas in time")
        self.version = version


class VersionConflict(Exception):
    """The stream was not at the expected version."""

    def __init__(self, expected, actual):
        super().__init__(f"expected version {expected}, the game is at {actual}")
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Record:
    """One stored event with its version and append time (ms since the epoch)."""

    version: int
    at: int
    event: dict


@dataclass(frozen=True)
class Tail:
    """A game's records after some version, as a fold takes them: (event, at) pairs,
    oldest first, and the version of the last one. No Record is made per event (a
    rebuild reads every stream whole); `records` makes them when asked. A tail read
    with `skip` holds only what a fold needs (`whole` False) and makes no records."""

    pairs: list
    version: int  # the last pair's
    whole: bool = True  # every entry is in pairs

    @classmethod
    def of(cls, entries, skip=()):
        """The tail an XRANGE answer (`queue_read`) holds: each entry's fields as a
        dict, or as Redis sends them ([b"e", event, b"t", at], `tails_pipeline`).

        `skip`: event types the caller's fold passes over (table.RECORDS, in a fold
        from nothing), left out without being parsed where Redis' answer shows the
        type: jsonutil sorts keys, so it is the last one of such an event. The first
        and last entries are always kept (the tail's times)."""
        if not entries:
            return cls([], 0)
        if isinstance(entries[0][1], dict):
            pairs = [(_event(fields), int(_field(fields, "t"))) for _, fields in entries]
        elif skip and len(entries) > 2:
            ends = tuple(b'"type":"%s"}' % kind.encode() for kind in skip)
            pairs = [_pair(entries[0][1])]
            pairs += [_pair(f) for _, f in entries[1:-1] if not f[1].endswith(ends)]
            pairs.append(_pair(entries[-1][1]))
        else:
            pairs = [_pair(f) for _, f in entries]
        first, version = _version(entries[0][0]), _version(entries[-1][0])
        if version - first + 1 != len(entries):  # versions are positions: no gaps
            raise ValueError(f"versions {first} to {version} in {len(entries)} entries")
        return cls(pairs, version, len(pairs) == len(entries))

    def __len__(self):
        return len(self.pairs)

    @property
    def first_at(self):
        return self.pairs[0][1]

    @property
    def last_at(self):
        return self.pairs[-1][1]

    def records(self):
        if not self.whole:
            raise ValueError("this tail left events out: it makes no records")
        first = self.version - len(self.pairs) + 1
        return [Record(first + i, at, event) for i, (event, at) in enumerate(self.pairs)]


class EventStore:
    def __init__(self, redis, keys=None, partitions=4, replicas=0, replica_timeout_ms=1000):
        """`replicas`: acknowledge an append only once that many replicas have it
        (Redis' WAIT, on the append's own connection; one server, not a cluster)."""
        self.redis = redis
        self.keys = keys or Keys()
        self.partitions = partitions
        self.replicas = replicas
        self.replica_timeout_ms = replica_timeout_ms
        self._append = redis.register_script(_APPEND)
        # One server: the script notifies the feed too. A cluster: a second command.
        self._notifies = not isinstance(redis, RedisCluster)

    def partition(self, game_id):
        """The feed partition a game's notifications go to (stable across processes)."""
        return zlib.crc32(game_id.encode()) % self.partitions

    def append(self, game_id, expected_version, events, at_ms):
        """Append events after `expected_version`; return the new version.

        Raises VersionConflict, writing nothing, when the stream has moved on.
        """
        if not events:
            return expected_version
        feed = self.keys.feed(self.partition(game_id))
        keys = [self.keys.events(game_id), feed] if self._notifies else [self.keys.events(game_id)]
        payloads = [jsonutil.dumps(event) for event in events]
        args = [expected_version, at_ms, game_id, FEED_MAXLEN, upcast.SCHEMA, *payloads]
        if self.replicas:
            ok, version, acknowledged = self._append_and_wait(keys, args)
        else:
            ok, version = self._run_append(keys, args)
        if not ok and not self._landed(game_id, expected_version, payloads, at_ms, version):
            raise VersionConflict(expected_version, version)
        if self.replicas and acknowledged < self.replicas:
            raise NotReplicated(version, self.replicas, acknowledged)
        if not self._notifies:
            self.redis.xadd(feed, {"g": game_id}, maxlen=FEED_MAXLEN, approximate=True)
        return version

    def _run_append(self, keys, args):
        """The append script's answer. On one server, sent on a pooled connection
        without redis-py's layers (link.pooled_call: a command's one Redis call in the
        API, ~10% of its CPU); redis-py's Script, which loads the script and retries,
        when that fails (a Redis restarted without it, a dropped connection) or on a
        cluster."""
        if self._notifies:
            try:
                return pooled_call(self.redis, "EVALSHA", self._append.sha, len(keys), *keys, *args)
            except (NoScriptError, ConnectionError, TimeoutError):
                pass
        return self._append(keys=keys, args=args)

    def _append_and_wait(self, keys, args):
        """(ok, version, replicas that have it): the append script, then WAIT on the
        same connection (WAIT counts the writes of the connection it is sent on)."""
        pipe = self.redis.pipeline(transaction=False)
        self._append(keys=keys, args=args, client=pipe)
        pipe.execute_command("WAIT", self.replicas, self.replica_timeout_ms)
        (ok, version), acknowledged = pipe.execute()
        return ok, version, acknowledged

    def _landed(self, game_id, expected_version, payloads, at_ms, version):
        """Whether a refused append's events are in the stream already, as they were
        sent: its first call ran and its answer was lost (a dropped connection), and the
        call sent again found the stream moved by its own events. Then the append
        succeeded once, and saying "conflict" would have the caller decide again."""
        if version != expected_version + len(payloads):
            return False
        entries = self.redis.xrange(self.keys.events(game_id), f"{expected_version + 1}-0", "+")
        stamp = str(at_ms).encode()
        return [(_field(f, "e"), _field(f, "t")) for _, f in entries] == [
            (payload, stamp) for payload in payloads
        ]

    def read(self, game_id, after=0, limit=None):
        """The records after version `after`, oldest first, at most `limit` of them."""
        entries = self.redis.xrange(self.keys.events(game_id), f"{after + 1}-0", "+", count=limit)
        return self.records(entries)

    def queue_read(self, pipe, game_id, after=0, limit=None):
        """Queue `read(game_id, after, limit)` on a pipeline; `records` turns its answer
        into records, `Tail.of` into a tail (many games' tails in one round trip)."""
        pipe.xrange(self.keys.events(game_id), f"{after + 1}-0", "+", count=limit)

    def tails_pipeline(self):
        """A pipeline for many `queue_read`s whose answers go to `Tail.of`: on one
        server it hands over Redis' answers as they come, without redis-py's parse of
        each entry into a dict (a third of a rebuild's read). A cluster's pipeline
        parses as usual; Tail.of reads both."""
        pipe = self.redis.pipeline(transaction=False)
        if self._notifies:  # one server, not a cluster
            pipe.response_callbacks = {}
        return pipe

    @staticmethod
    def records(entries):
        """Records from an XRANGE answer."""
        return [_record(entry_id, fields) for entry_id, fields in entries]

    def version(self, game_id):
        """The game's current version (0 when it has no events)."""
        last = self.redis.xrevrange(self.keys.events(game_id), count=1)
        return _version(last[0][0]) if last else 0

    def game_ids(self):
        """Every game with a stream (a full scan: for rebuilds, not for requests)."""
        return sorted(
            self.keys.game_id_of(key)
            for key in self.redis.scan_iter(match=self.keys.events_pattern(), count=500)
        )


def _version(entry_id):
    entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(entry_id.split("-", 1)[0])


def _record(entry_id, fields):
    return Record(_version(entry_id), int(_field(fields, "t")), _event(fields))


def _field(fields, name):
    return fields.get(name.encode(), fields.get(name))


_SCHEMA = str(upcast.SCHEMA).encode()


def _event(fields):
    """An entry's event as this release reads it (upcast from the schema it was
    stored in; none stored: schema 0)."""
    event = jsonutil.loads(_field(fields, "e"))
    schema = _field(fields, "s")
    if schema != _SCHEMA:
        event = upcast.current(event, int(schema) if schema else 0)
    return event


def _pair(flat):
    """(event, at) of an entry's fields as Redis sends them ([b"e", event, b"t", at,
    b"s", schema], or in any order)."""
    if flat[0] == b"e" and len(flat) == 6 and flat[5] == _SCHEMA:
        return jsonutil.loads(flat[1]), int(flat[3])
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    return _event(fields), int(_field(fields, "t"))
