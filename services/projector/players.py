"""The projector's read models of players, from the games they are seated in.

- Names: a game's log names a player's seat by its id; its views and summary are
  written with the player's name now (or the placeholder once erased), read from the
  players' folds in one round trip per batch of games that seat players.
- "My games": per player, a hash of its games (`p:{<id>}:games`: game id -> entry) with
  what a home screen shows: the game, its status and version, the player's seat,
  whether it must act and by when, the other seats, the last move's time, the result
  and whether the player abandoned it. Overwritten from the table at each projection,
  so a rebuild gives the same entries.
- The inbox: per player, a stream of items (`p:{<id>}:inbox`, entry ids
  `<inbox version>-0`) for what a player is told: invited, game_started, your_turn,
  game_ended, game_cancelled, invitation_gone. Each new item is PUBLISHed on the
  player's channel (keys.player_channel) as the inbox version, for the API's long-polls,
  event streams and WebSockets, and sent to the player's webhook when it has one
  (the notifier enqueues the signed deliveries: services/webhooks). Items are told
  once, as they happen; a rebuild writes the entries again but tells nothing again.

Each player's writes are one script over its own keys (one hash tag); a batch's
players go in one pipeline (one by one on a Redis Cluster, whose pipelines run no
scripts).
"""

from redis.cluster import RedisCluster

from services.projector import models
from shared import checkpoint, jsonutil, table
from shared.players import naming
from shared.players.store import PlayerStore

INBOX_MAXLEN = 1000  # items kept per player (the newest)
INVITED, STARTED, YOUR_TURN = "invited", "game_started", "your_turn"
ENDED, CANCELLED, GONE = "game_ended", "game_cancelled", "invitation_gone"
ITEM_KINDS = (INVITED, STARTED, YOUR_TURN, ENDED, CANCELLED, GONE)

# KEYS: the player's games hash, its inbox stream, its webhook registration and the
# webhook's health. ARGV: the game id, its entry (JSON; "" to drop it), the player's
# channel, the stream's length cap, then the new items. Returns 0 (no items), or the
# inbox version after them, the webhook registration ("": none) and whether it is
# paused: read here, so a player's webhook costs the projector no round trip of its own.
_WRITE = """
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
if #ARGV < 5 then return 0 end
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local version = 0
if last[1] then version = tonumber(string.match(last[1][1], '^%d+')) end
for i = 5, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], version .. '-0', 'i', ARGV[i])
end
redis.call('PUBLISH', ARGV[3], tostring(version))
local hook = redis.call('GET', KEYS[3]) or ''
return {version, hook, redis.call('HEXISTS', KEYS[4], 'paused')}
"""


# A player renamed or erased: KEYS the checkpoint, then the game's read models; ARGV as
# models.WRITE_IF_NEWER's. Each read model still there (a finished game's may have
# expired) is written again, keeping its expiry, when the checkpoint is still at that
# version (else the game moved on and its projection named the players already).
_REFRESH = f"""
local current = tonumber(redis.call('HGET', KEYS[1], '{checkpoint.VERSION}') or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('SET', KEYS[i], ARGV[i + 4], 'KEEPTTL') end
end
return 1
"""


class PlayerModels:
    """The players' read models one projector writes."""

    def __init__(self, redis, keys, notifier=None):
        self.redis = redis
        self.keys = keys
        self.notifier = notifier  # services.webhooks.notifier.Notifier: players' webhooks
        self.players = PlayerStore(redis, keys)
        self._write = redis.register_script(_WRITE)
        self._refresh = redis.register_script(_REFRESH)
        self._erased = set()  # of the players the last batch named: erased ones

    def names(self, ids):
        """{player id: the name to show} (one round trip)."""
        found = self.players.loaded_many(ids)
        return {p: naming.name_of(player) for p, player in found.items()}

    def named(self, current):
        """The table with its players' names as their folds say now."""
        ids = naming.player_ids(current)
        return naming.named(current, self.names(ids)) if ids else current

    def render_named(self, folded):
        """Render the read models of the folded games that seat players (left
        unrendered by the fold), with their players' names read in one round trip."""
        pending = [g for g, (_, _, _, documents) in folded.items() if documents is None]
        if not pending:
            return
        ids = {p for g in pending for p in naming.player_ids(folded[g][2])}
        found = self.players.loaded_many(ids)
        names = {p: naming.name_of(player) for p, player in found.items()}
        self._erased = {p for p, player in found.items() if player is None or player["erased"]}
        for game_id in pending:
            was, tail, current, _ = folded[game_id]
            folded[game_id] = (was, tail, current, models.documents(current, tail.version, names))

    def after_save(self, saved, tell=True):
        """Write the entries (and, with `tell`, the new inbox items) of every player
        seated in, invited to or gone from the games just saved."""
        writes = []  # (player id, game id, entry JSON or "", items, time of the last event)
        for game_id, (was, tail, current, _) in saved.items():
            before = was.table
            present = {p: table.seat_of_player(current, p) for p in naming.player_ids(current)}
            earlier = naming.player_ids(before) if before else []
            for player_id, seat in present.items():
                if player_id in self._erased:
                    continue  # its games went with it
                document = jsonutil.dumps(entry(current, tail.version, seat, tail.last_at))
                invited = before is None and _invited_at_creation(tail, seat)
                told = items(before, current, seat, player_id, tail.version, invited)
                told = told if tell else []
                writes.append((player_id, game_id, document, told, tail.last_at))
            for player_id in (p for p in earlier if p not in present):  # a declined seat
                item = {"game_id": game_id, "game": current["game"], "game_version": tail.version}
                gone = [{**item, "kind": GONE}] if tell else []
                writes.append((player_id, game_id, b"", gone, tail.last_at))
        if writes:
            self._run(writes)

    def _run(self, writes):
        cluster = isinstance(self.redis, RedisCluster)
        pipe = self.redis if cluster else self.redis.pipeline(transaction=False)
        answers = []
        for player_id, game_id, document, told, _ in writes:
            keys = [
                self.keys.player_games(player_id),
                self.keys.player_inbox(player_id),
                self.keys.player_webhook(player_id),
                self.keys.player_webhook_health(player_id),
            ]
            args = [game_id, document, self.keys.player_channel(player_id), INBOX_MAXLEN]
            args += [jsonutil.dumps(item) for item in told]
            answers.append(self._write(keys=keys, args=args, client=pipe))
        if not cluster:
            answers = pipe.execute()
        if self.notifier is not None:
            for (player_id, _, _, told, at), answer in zip(writes, answers, strict=True):
                if told and answer and answer[1] and not answer[2]:
                    version = int(answer[0])
                    # The items just written hold the versions up to the one answered.
                    numbered = [
                        {**item, "version": version - len(told) + 1 + i}
                        for i, item in enumerate(told)
                    ]
                    hook = jsonutil.loads(answer[1])
                    self.notifier.notify_player(player_id, hook, numbered, at)

    def refresh(self, game_ids, writer):
        """Write the read models of these games again, as they stand, with their
        players' names now (a player renamed or was erased)."""
        game_ids = list(dict.fromkeys(game_ids))
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            checkpoint.queue_read(pipe, self.keys, game_id)
        stood = {g: checkpoint.parse(a) for g, a in zip(game_ids, pipe.execute(), strict=True)}
        stood = {g: (v, t) for g, (v, t) in stood.items() if t is not None}
        ids = {p for _, current in stood.values() for p in naming.player_ids(current)}
        names = self.names(ids)
        for game_id, (version, current) in stood.items():
            docs = models.documents(current, version, names)
            keys, args = writer.args(game_id, version, docs)
            self._refresh(keys=keys, args=args)

    def forget_read_models(self):
        """A rebuild's step: drop every player's games (rebuilt with the games); the
        inbox items stay, told once. Each player's own fold and webhook registration
        are folded again from its stream."""
        player_ids = self.players.player_ids()
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.delete(self.keys.player_games(player_id))
        pipe.execute()
        for player_id in player_ids:
            self.players.rebuild(player_id)


def entry(current, version, seat, last_at):
    """A player's entry for one game, where it holds `seat`."""
    place = current["seats"][seat]
    acting = table.to_act(current)
    mine = seat in acting and not place.get("invited")
    over = current["status"] == "finished"
    return {
        "game": current["game"],
        "id": current["id"],
        "version": version,
        "status": current["status"],
        "seat": seat,
        "invited": bool(place.get("invited")),
        "my_turn": mine,
        "deadline": table.deadlines(current)[seat] if mine else None,
        "others": [
            {
                "seat": index,
                "player": other.get("player"),
                "name": None if other.get("player") else other["name"],
                "bot": other["bot"],
                "open": other["open"],
            }
            for index, other in enumerate(current["seats"])
            if index != seat
        ],
        "last_move_at": last_at,
        "result": current["result"] if over else None,
        # Resigned, or left to a bot after timeouts and never taken back.
        "abandoned": over and (place["resigned"] or place["away"]),
    }


def items(was, current, seat, player_id, version, invited_at_creation=False):
    """What the player is told about this game since `was` (None: a new game, whose
    creation invited the player when `invited_at_creation`, even if it has accepted
    since)."""
    game = {"game_id": current["id"], "game": current["game"], "game_version": version}
    place = current["seats"][seat]
    before = None if was is None else table.seat_of_player(was, player_id)
    told = []
    if (place.get("invited") and before is None) or invited_at_creation:
        told.append({**game, "kind": INVITED, "seat": seat})
    status_was = None if was is None else was["status"]
    if current["status"] != status_was:
        kind = {"active": STARTED, "finished": ENDED, "cancelled": CANCELLED}.get(current["status"])
        if kind == ENDED:
            told.append({**game, "kind": kind, "seat": seat, "result": current["result"]})
        elif kind is not None:
            told.append({**game, "kind": kind, "seat": seat})
    if seat in table.to_act(current) and not place.get("invited"):
        since = current["acting_since"].get(str(seat))
        since_was = None if was is None else was.get("acting_since", {}).get(str(seat))
        if was is None or seat not in table.to_act(was) or since != since_was:
            deadline = table.deadlines(current)[seat]
            told.append({**game, "kind": YOUR_TURN, "seat": seat, "deadline": deadline})
    return told


def _invited_at_creation(tail, seat):
    """Whether the tail opens the game (its first event game_created) with `seat` an
    invitation: the player was invited, even if it accepted within the same tail."""
    first = tail.pairs[0][0] if tail.pairs else None
    if first is None or first["type"] != table.CREATED:
        return False
    return bool(first["seats"][seat].get("invited"))
