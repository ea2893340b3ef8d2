"""A player's stream and its fold, kept together.

Each player has a stream `p:{<id>}:events` appended with an expected version, like a
game's; the same script stores the fold of the whole stream beside it (`p:{<id>}:player`,
with its version) and the player's token generation (`p:{<id>}:generation`, the one
small key the token check reads). All three share the hash tag `{<id>}`, so one script
writes them atomically on a Redis Cluster too. A player's facts are rare (made, renamed,
linked, erased) and read on every profile, so the fold is written with them rather than
by the projector; `rebuild` folds the stream again and must give the same fold.

An identity (an issuer's subject) names one player through `identity:{<digest>}`,
set once with SET NX, so two first sights of one identity on two processes make one
player.
"""

import hashlib
import secrets

from shared import jsonutil
from shared.games.base import RuleError
from shared.players import events as player_events
from shared.store import VersionConflict

# KEYS: the stream, the fold, the generation, the webhook registration. ARGV: the
# expected version, the append time, the fold after the events (JSON, its version
# filled in here), the generation, the webhook registration after the events (JSON;
# "": none; "=": unchanged), then the events.
_APPEND = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
if version ~= tonumber(ARGV[1]) then return {0, version} end
if ARGV[5] == '' then
  redis.call('DEL', KEYS[4])
elseif ARGV[5] ~= '=' then
  redis.call('SET', KEYS[4], ARGV[5])
end
for i = 6, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[i], 't', ARGV[2])
end
redis.call('SET', KEYS[2], string.format('{"player":%s,"version":%d}', ARGV[3], version))
redis.call('SET', KEYS[3], ARGV[4])
return {1, version}
"""
# Erasure: KEYS the stream, the fold, the generation, then the player's read models to
# drop (games, inbox, webhook and its health). ARGV: the expected version, the append
# time, the fold, the tombstone. The stream is replaced by the tombstone alone, at the next version.
_ERASE = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
if version ~= tonumber(ARGV[1]) then return {0, version} end
for i = 4, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[1])
version = version + 1
redis.call('XADD', KEYS[1], version .. '-0', 'e', ARGV[4], 't', ARGV[2])
redis.call('SET', KEYS[2], string.format('{"player":%s,"version":%d}', ARGV[3], version))
redis.call('SET', KEYS[3], '-1')
return {1, version}
"""
# A rebuilt fold: KEYS the stream, the fold, the generation, the webhook registration;
# ARGV the version folded, the fold (JSON with its version), the generation, the
# registration ("": none). Written only while the stream is still at that version (a
# rebuild racing a live append never writes an older fold over a newer one).
_STORE_FOLD = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[3], ARGV[3])
if ARGV[4] == '' then redis.call('DEL', KEYS[4]) else redis.call('SET', KEYS[4], ARGV[4]) end
return 1
"""
RETRIES = 5
UNCHANGED = object()  # `append`'s webhook: the registration stays as it is
DEFAULT_NAME = "player"  # an identity's player until it renames itself


WEBHOOK_EVENTS = (player_events.WEBHOOK_REGISTERED, player_events.WEBHOOK_REMOVED)


def new_player_id():
    return secrets.token_hex(8)


def identity_digest(issuer, subject):
    """The key part naming one identity: a digest, so no issuer's subject (an email,
    perhaps) is a key name."""
    return hashlib.sha256(f"{issuer}\0{subject}".encode()).hexdigest()[:32]


class PlayerStore:
    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys
        self._append = redis.register_script(_APPEND)
        self._erase = redis.register_script(_ERASE)
        self._store_fold = redis.register_script(_STORE_FOLD)

    def load(self, player_id):
        """(version, player) from the stored fold; (0, None) for no such player."""
        raw = self.redis.get(self.keys.player(player_id))
        if raw is None:
            return 0, None
        stored = jsonutil.loads(raw)
        return stored["version"], stored["player"]

    def loaded_many(self, player_ids):
        """{player_id: player or None} in one round trip."""
        ids = list(dict.fromkeys(player_ids))
        if not ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for player_id in ids:
            pipe.get(self.keys.player(player_id))
        found = pipe.execute()
        return {
            p: None if raw is None else jsonutil.loads(raw)["player"]
            for p, raw in zip(ids, found, strict=True)
        }

    def generation(self, player_id):
        """The player's token generation; None for no such player."""
        raw = self.redis.get(self.keys.player_generation(player_id))
        return None if raw is None else int(raw)

    def append(self, player_id, expected_version, events, at, player, webhook=UNCHANGED):
        """Append `events` after `expected_version` with `player`, their fold, and
        `webhook`, the webhook registration after them (None: none; UNCHANGED). Raises
        VersionConflict, writing nothing, when the stream has moved on."""
        if not events:
            return expected_version
        keys = [
            self.keys.player_events(player_id),
            self.keys.player(player_id),
            self.keys.player_generation(player_id),
            self.keys.player_webhook(player_id),
        ]
        state = "-1" if player["erased"] else str(player["generation"])
        if webhook is UNCHANGED:
            hook = "="
        else:
            hook = "" if webhook is None else jsonutil.dumps(webhook).decode()
        args = [expected_version, at, jsonutil.dumps(player).decode(), state, hook]
        args += [jsonutil.dumps(e) for e in events]
        ok, version = self._append(keys=keys, args=args)
        if not ok:
            raise VersionConflict(expected_version, version)
        return version

    def create(self, name, at, identity=None):
        """Make a player; returns it."""
        player_id = new_player_id()
        made = player_events.create(player_id, name, identity)
        player = player_events.fold((e, at) for e in made)
        self.append(player_id, 0, made, at, player)
        return player

    def create_for_identity(self, identity, at, name=DEFAULT_NAME):
        """Make the player an identity (issuer, subject) names, on its first sight;
        returns it. Two processes seeing it first at once make one player: the identity
        names whichever claimed it first, and the other's player is never made."""
        player_id = self.claim_identity(*identity, new_player_id())
        _, player = self.load(player_id)
        if player is not None:
            return player
        made = player_events.create(player_id, name, identity)
        player = player_events.fold((e, at) for e in made)
        try:
            self.append(player_id, 0, made, at, player)
        except VersionConflict:  # the claimer made it meanwhile
            return self.load(player_id)[1]
        return player

    def change(self, player_id, decide, at):
        """Decide on the player and append what it decided; returns the player after.
        Raises RuleError("unknown_player")."""
        for _ in range(RETRIES):
            version, player = self.load(player_id)
            decided = decide(player)
            after = player_events.fold(((e, at) for e in decided), player)
            hook = UNCHANGED
            if any(e["type"] in WEBHOOK_EVENTS for e in decided):  # the last one decides
                hook = player_events.webhook_of((e, at) for e in decided)
            try:
                self.append(player_id, version, decided, at, after, hook)
            except VersionConflict:
                continue
            return after
        raise RuleError("version_conflict", "the player changed under us; try again")

    def erase(self, player_id, at):
        """Erase the player: its stream becomes one tombstone, its identities name
        nobody, its games, inbox and webhook are dropped. Returns the erased fold.
        Raises RuleError("unknown_player")."""
        for _ in range(RETRIES):
            version, player = self.load(player_id)
            (tombstone,) = player_events.erase(player)
            erased = player_events.evolve(None, tombstone, at)
            keys = [
                self.keys.player_events(player_id),
                self.keys.player(player_id),
                self.keys.player_generation(player_id),
                self.keys.player_games(player_id),
                self.keys.player_inbox(player_id),
                self.keys.player_webhook(player_id),
                self.keys.player_webhook_health(player_id),
            ]
            args = [version, at, jsonutil.dumps(erased).decode(), jsonutil.dumps(tombstone)]
            ok, _ = self._erase(keys=keys, args=args)
            if ok:
                for identity in player["identities"]:
                    self.forget_identity(identity["issuer"], identity["subject"], player_id)
                return erased
        raise RuleError("version_conflict", "the player changed under us; try again")

    def player_of_identity(self, issuer, subject):
        """The id of the player an identity names, or None."""
        raw = self.redis.get(self.keys.identity(identity_digest(issuer, subject)))
        return None if raw is None else raw.decode()

    def claim_identity(self, issuer, subject, player_id):
        """Make `identity` name `player_id` unless it names a player already; returns
        the id it names."""
        key = self.keys.identity(identity_digest(issuer, subject))
        if self.redis.set(key, player_id, nx=True):
            return player_id
        return self.redis.get(key).decode()

    def forget_identity(self, issuer, subject, player_id):
        """Drop the identity's link when it names `player_id` (erasure)."""
        key = self.keys.identity(identity_digest(issuer, subject))
        if self.redis.get(key) == player_id.encode():
            self.redis.delete(key)

    def read(self, player_id):
        """Every (event, at) of the player's stream, oldest first."""
        entries = self.redis.xrange(self.keys.player_events(player_id))
        return [(jsonutil.loads(fields[b"e"]), int(fields[b"t"])) for _, fields in entries]

    def rebuild(self, player_id):
        """Fold the player's stream again and store the fold, the generation and the
        webhook registration; returns (version, player). Safe beside live appends: the
        fold is stored only while the stream is still at the version folded."""
        key = self.keys.player_events(player_id)
        for _ in range(RETRIES):
            entries = self.redis.xrange(key)
            if not entries:
                return 0, None
            items = [(jsonutil.loads(f[b"e"]), int(f[b"t"])) for _, f in entries]
            player = player_events.fold(items)
            webhook = player_events.webhook_of(items)
            version = int(entries[-1][0].split(b"-")[0])
            keys = [
                key,
                self.keys.player(player_id),
                self.keys.player_generation(player_id),
                self.keys.player_webhook(player_id),
            ]
            args = [
                version,
                jsonutil.dumps({"version": version, "player": player}),
                -1 if player["erased"] else player["generation"],
                "" if webhook is None else jsonutil.dumps(webhook),
            ]
            if self._store_fold(keys=keys, args=args):
                return version, player
        raise RuleError("version_conflict", "the player changed under the rebuild; try again")

    def player_ids(self):
        """Every player with a stream (a full scan: for rebuilds, not for requests)."""
        pattern = self.keys.player_events_pattern()
        return sorted(
            self.keys.player_id_of(k) for k in self.redis.scan_iter(match=pattern, count=500)
        )


# KEYS: the player's inbox, its webhook registration and the webhook's health. ARGV:
# its channel, the stream's length cap, the items. Answers as the projector's inbox
# script does (services/projector/players.py), which numbers items the same way: the
# inbox version after them, the webhook registration ("": none), whether it is paused.
_TELL = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
for i = 3, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], version .. '-0', 'i', ARGV[i])
end
redis.call('PUBLISH', ARGV[1], tostring(version))
local hook = redis.call('GET', KEYS[2]) or ''
return {version, hook, redis.call('HEXISTS', KEYS[3], 'paused')}
"""
INBOX_MAXLEN = 1000  # items kept per player (the newest)


class Inbox:
    """Reading a player's games and inbox (the projector writes them:
    services/projector/players.py); `tell` adds items that come from outside a game's
    log (a quick match's `matched`)."""

    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys

    def tell(self, player_id, items):
        """Add `items` to the player's inbox and publish its new version, as the
        projector does. Returns (the items numbered with their inbox versions, the
        player's webhook registration or None when it has none or it is paused)."""
        script = self.redis.register_script(_TELL)
        keys = [
            self.keys.player_inbox(player_id),
            self.keys.player_webhook(player_id),
            self.keys.player_webhook_health(player_id),
        ]
        args = [self.keys.player_channel(player_id), INBOX_MAXLEN]
        args += [jsonutil.dumps(item) for item in items]
        version, hook, paused = script(keys=keys, args=args)
        first = int(version) - len(items) + 1
        numbered = [{**item, "version": first + i} for i, item in enumerate(items)]
        return numbered, (jsonutil.loads(hook) if hook and not paused else None)

    def games(self, player_id):
        """Every entry of the player's games."""
        return [jsonutil.loads(raw) for raw in self.redis.hvals(self.keys.player_games(player_id))]

    def items(self, player_id, after, limit):
        """(the inbox version now, the items after `after`, oldest first, at most
        `limit`), each item with its version (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        key = self.keys.player_inbox(player_id)
        pipe.xrevrange(key, count=1)
        pipe.xrange(key, f"{after + 1}-0", "+", count=limit)
        last, entries = pipe.execute()
        version = _entry_version(last[0][0]) if last else 0
        items = [
            {**jsonutil.loads(fields[b"i"]), "version": _entry_version(entry_id)}
            for entry_id, fields in entries
        ]
        return version, items

    def version(self, player_id):
        last = self.redis.xrevrange(self.keys.player_inbox(player_id), count=1)
        return _entry_version(last[0][0]) if last else 0


def _entry_version(entry_id):
    entry_id = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(entry_id.split("-", 1)[0])
