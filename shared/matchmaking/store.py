"""A matchmaking queue in Redis: its stream of ticket events and the read model the
same scripts write beside it (every key under the queue's hash tag, keys.py).

The read model: every ticket by id (`tickets`), the waiting ones by opening time
(`waiting`), and which waiting ticket each player holds (`holders`). A ticket is
waiting exactly while it is in `waiting`, so the one script that ends tickets (a
match, a cancel, an expiry) checks each is still there and refuses, writing nothing,
when one is not: a ticket is matched once, or cancelled, or expired, whoever asks at
once, on one server or a cluster, from any number of matchmakers and API processes.
`rebuild` folds the stream again (tickets.fold) and writes the same read model.

A player's side (its hash tag): the tickets it holds open, at most MAX_OPEN and one a
queue, reserved by a script before the queue's open; the history of its tickets for
listing. The queue's scripts cannot touch the player's keys on a cluster, so a ticket
ended by a matchmaker is dropped from the player's open tickets by a second command,
and a crash between the two is repaired (`settle`) when the player next opens one.
"""

from shared import jsonutil
from shared.matchmaking import tickets as t

HISTORY = 100  # tickets kept in a player's listing
SETTLE_MS = 30_000  # a reservation with no ticket this old was a crash between steps

# KEYS: events, tickets, waiting, holders, queue. ARGV: at, event, ticket id, player,
# ticket, opened at, queue description.
_OPEN = """
local held = redis.call('HGET', KEYS[4], ARGV[4])
if held then return {0, held} end
redis.call('XADD', KEYS[1], '*', 'e', ARGV[2], 't', ARGV[1])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[3])
redis.call('SET', KEYS[5], ARGV[7])
return {1, ARGV[3]}
"""
# KEYS: events, tickets, waiting, holders, unopened. ARGV: at, event, n, then n times
# (ticket id, player, ticket after), then optionally a game id and its match to keep
# until the game is open.
_END = """
local n = tonumber(ARGV[3])
for i = 0, n - 1 do
  local id = ARGV[4 + 3 * i]
  if not redis.call('ZSCORE', KEYS[3], id) then return {0, id} end
end
redis.call('XADD', KEYS[1], '*', 'e', ARGV[2], 't', ARGV[1])
for i = 0, n - 1 do
  local id, player = ARGV[4 + 3 * i], ARGV[5 + 3 * i]
  redis.call('HSET', KEYS[2], id, ARGV[6 + 3 * i])
  redis.call('ZREM', KEYS[3], id)
  if redis.call('HGET', KEYS[4], player) == id then redis.call('HDEL', KEYS[4], player) end
end
local rest = 4 + 3 * n
if ARGV[rest] then redis.call('HSET', KEYS[5], ARGV[rest], ARGV[rest + 1]) end
return {1, ''}
"""
# KEYS: the player's open tickets, its history. ARGV: ticket id, queue id, the most
# open, at, history length.
_RESERVE = """
local open = redis.call('HGETALL', KEYS[1])
for i = 2, #open, 2 do
  if open[i] == ARGV[2] then return {0, open[i - 1]} end
end
if #open / 2 >= tonumber(ARGV[3]) then return {0, ''} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[5]))
return {1, ''}
"""

# KEYS: events, tickets, waiting, holders. ARGV: the stream's last entry id when it was
# folded ("" for none), the count of tickets, (id, ticket) each, the count of waiting
# ones, (id, opened at, player) each. Writes only when the stream has not moved since
# the fold, so a rebuild beside a running matchmaker never drops a claim.
_REBUILD = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local id = ''
if last[1] then id = last[1][1] end
if id ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
local i = 3
for _ = 1, tonumber(ARGV[2]) do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
local waiting = tonumber(ARGV[i])
i = i + 1
for _ = 1, waiting do
  redis.call('ZADD', KEYS[3], ARGV[i + 1], ARGV[i])
  redis.call('HSET', KEYS[4], ARGV[i + 2], ARGV[i])
  i = i + 3
end
return 1
"""
REBUILD_TRIES = 20


class Refused(Exception):
    """A ticket not opened: `code` too_many_tickets or duplicate_ticket (`ticket`: the
    one the player holds in that queue)."""

    def __init__(self, code, ticket=None):
        super().__init__(code)
        self.code = code
        self.ticket = ticket


class Gone(Exception):
    """A ticket that is no longer waiting (`ticket`: as it is now)."""

    def __init__(self, ticket):
        super().__init__(ticket["status"] if ticket else "unknown")
        self.ticket = ticket


class QueueStore:
    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys
        self._open = redis.register_script(_OPEN)
        self._end = redis.register_script(_END)
        self._reserve = redis.register_script(_RESERVE)
        self._rebuild = redis.register_script(_REBUILD)

    # --- reading ---

    def ticket(self, ticket_id):
        """The ticket (a dict), or None."""
        queue_id = t.queue_id_of(ticket_id)
        if queue_id is None:
            return None
        raw = self.redis.hget(self.keys.queue_tickets(queue_id), ticket_id)
        return None if raw is None else jsonutil.loads(raw)

    def tickets_of(self, ticket_ids):
        """{ticket id: ticket or None}."""
        pipe = self.redis.pipeline(transaction=False)
        for ticket_id in ticket_ids:
            pipe.hget(self.keys.queue_tickets(t.queue_id_of(ticket_id)), ticket_id)
        return {
            i: None if raw is None else jsonutil.loads(raw)
            for i, raw in zip(ticket_ids, pipe.execute() if ticket_ids else [], strict=True)
        }

    def history(self, player_id, limit=HISTORY):
        """The player's tickets, newest first."""
        ids = [
            i.decode()
            for i in self.redis.zrevrange(self.keys.player_ticket_history(player_id), 0, limit - 1)
        ]
        found = self.tickets_of(ids)
        return [found[i] for i in ids if found[i] is not None]

    def queue_ids(self):
        return sorted(q.decode() for q in self.redis.smembers(self.keys.queues))

    def queue(self, queue_id):
        raw = self.redis.get(self.keys.queue(queue_id))
        return None if raw is None else jsonutil.loads(raw)

    def waiting(self, queue_id, limit=5000):
        """The queue's waiting tickets, the longest-waiting first (at most `limit`)."""
        ids = self.redis.zrange(self.keys.queue_waiting(queue_id), 0, limit - 1)
        if not ids:
            return []
        found = self.redis.hmget(self.keys.queue_tickets(queue_id), ids)
        return [jsonutil.loads(raw) for raw in found if raw is not None]

    def waiting_count(self, queue_id):
        return self.redis.zcard(self.keys.queue_waiting(queue_id))

    # --- a player's side ---

    def open(self, doc, queue, at):
        """Open the ticket `doc` (tickets.ticket) for its player. Raises Refused,
        writing nothing, for a sixth open ticket or a second one in a queue."""
        player = doc["player"]
        try:
            self._reserved(doc, at)
        except Refused:
            self.settle(player, at)  # drop what ended or never opened, then once more
            self._reserved(doc, at)
        queue_id = doc["queue"]
        keys = [
            self.keys.queue_events(queue_id),
            self.keys.queue_tickets(queue_id),
            self.keys.queue_waiting(queue_id),
            self.keys.queue_holders(queue_id),
            self.keys.queue(queue_id),
        ]
        args = [at, jsonutil.dumps(t.opened(doc)), doc["id"], player, jsonutil.dumps(doc)]
        args += [doc["opened_at"], jsonutil.dumps(queue)]
        ok, held = self._open(keys=keys, args=args)
        if not ok:
            self.release(player, doc["id"])
            raise Refused("duplicate_ticket", held.decode())
        self.redis.sadd(self.keys.queues, queue_id)
        return doc

    def _reserved(self, doc, at):
        keys = [
            self.keys.player_tickets(doc["player"]),
            self.keys.player_ticket_history(doc["player"]),
        ]
        ok, held = self._reserve(keys=keys, args=[doc["id"], doc["queue"], t.MAX_OPEN, at, HISTORY])
        if not ok:
            if held:
                raise Refused("duplicate_ticket", held.decode())
            raise Refused("too_many_tickets")

    def release(self, player_id, ticket_id):
        """The ticket no longer counts among the player's open ones."""
        self.redis.hdel(self.keys.player_tickets(player_id), ticket_id)

    def settle(self, player_id, at):
        """Drop from the player's open tickets those that ended, and reservations whose
        ticket never opened (a crash between the two steps of `open`)."""
        held = [i.decode() for i in self.redis.hkeys(self.keys.player_tickets(player_id))]
        found = self.tickets_of(held)
        history = self.keys.player_ticket_history(player_id)
        for ticket_id, doc in found.items():
            if doc is not None and doc["status"] != t.WAITING:
                self.release(player_id, ticket_id)
            elif doc is None:
                reserved_at = self.redis.zscore(history, ticket_id)
                if reserved_at is None or at - reserved_at > SETTLE_MS:
                    self.release(player_id, ticket_id)

    # --- ending tickets ---

    def _ended(self, queue_id, event, docs, at, unopened=None):
        keys = [
            self.keys.queue_events(queue_id),
            self.keys.queue_tickets(queue_id),
            self.keys.queue_waiting(queue_id),
            self.keys.queue_holders(queue_id),
            self.keys.queue_unopened(queue_id),
        ]
        args = [at, jsonutil.dumps(event), len(docs)]
        for doc in docs:
            args += [doc["id"], doc["player"], jsonutil.dumps(doc)]
        if unopened is not None:
            args += [unopened[0], jsonutil.dumps(unopened[1])]
        ok, gone = self._end(keys=keys, args=args)
        return None if ok else gone.decode()

    def cancel(self, ticket_id, at):
        """Cancel a waiting ticket; returns it. Raises Gone (with the ticket as it is)
        when it is not waiting: matched (with its game), cancelled or expired."""
        return self._finish(ticket_id, t.CANCELLED, t.cancelled(ticket_id), at)

    def cancel_all(self, player_id, at):
        """Cancel every waiting ticket of the player (its erasure); returns how many."""
        count = 0
        for doc in self.history(player_id):
            if doc["status"] == t.WAITING:
                try:
                    self.cancel(doc["id"], at)
                    count += 1
                except Gone:
                    pass  # matched or ended meanwhile
        return count

    def expire(self, ticket_id, at):
        return self._finish(ticket_id, t.EXPIRED, t.expired(ticket_id), at)

    def _finish(self, ticket_id, status, event, at):
        doc = self.ticket(ticket_id)
        if doc is None or doc["status"] != t.WAITING:
            raise Gone(doc)
        after = t.ended(doc, status, at)
        if self._ended(doc["queue"], event, [after], at) is not None:
            raise Gone(self.ticket(ticket_id))
        self.release(doc["player"], ticket_id)
        return after

    def claim(self, queue_id, group, game_id, seats, bots, at, spec):
        """Claim the tickets of `group` (waiting tickets) for the game `game_id`,
        {ticket id: seat}, all or none, keeping `spec` (what the game is opened with)
        until `opened`. Returns the ticket ids now matched, or raises Gone naming the
        first ticket no longer waiting (nothing written)."""
        docs = [t.ended(d, t.MATCHED, at, game_id, seats[d["id"]]) for d in group]
        event = t.matched(game_id, seats, bots)
        gone = self._ended(queue_id, event, docs, at, (game_id, {**spec, "at": at}))
        if gone is not None:
            raise Gone({"id": gone, "status": "gone"})
        return docs

    def unopened(self, queue_id):
        """{game id: spec} of matches whose game is not known to be open."""
        found = self.redis.hgetall(self.keys.queue_unopened(queue_id))
        return {g.decode(): jsonutil.loads(s) for g, s in found.items()}

    def opened(self, queue_id, game_id):
        self.redis.hdel(self.keys.queue_unopened(queue_id), game_id)

    # --- the read model again ---

    def events(self, queue_id):
        """Every (event, at) of the queue's stream, oldest first."""
        entries = self.redis.xrange(self.keys.queue_events(queue_id))
        return [(jsonutil.loads(f[b"e"]), int(f[b"t"])) for _, f in entries]

    def read_model(self, queue_id):
        """(tickets, {waiting id: opened at}, {player: ticket id}) as stored."""
        tickets = self.redis.hgetall(self.keys.queue_tickets(queue_id))
        waiting = self.redis.zrange(self.keys.queue_waiting(queue_id), 0, -1, withscores=True)
        holders = self.redis.hgetall(self.keys.queue_holders(queue_id))
        return (
            {k.decode(): jsonutil.loads(v) for k, v in tickets.items()},
            {k.decode(): int(s) for k, s in waiting},
            {k.decode(): v.decode() for k, v in holders.items()},
        )

    def rebuild(self, queue_id):
        """Fold the queue's stream again and write its read model, unless the stream
        moved meanwhile (then fold again); returns the tickets."""
        keys = self.keys
        script_keys = [
            keys.queue_events(queue_id),
            keys.queue_tickets(queue_id),
            keys.queue_waiting(queue_id),
            keys.queue_holders(queue_id),
        ]
        for _ in range(REBUILD_TRIES):
            entries = self.redis.xrange(keys.queue_events(queue_id))
            tickets = t.fold((jsonutil.loads(f[b"e"]), int(f[b"t"])) for _, f in entries)
            args = [entries[-1][0] if entries else "", len(tickets)]
            for ticket_id, doc in tickets.items():
                args += [ticket_id, jsonutil.dumps(doc)]
            waiting = [d for d in tickets.values() if d["status"] == t.WAITING]
            args.append(len(waiting))
            for doc in waiting:
                args += [doc["id"], doc["opened_at"], doc["player"]]
            if self._rebuild(keys=script_keys, args=args):
                return tickets
        raise RuntimeError(f"queue {queue_id} kept moving during its rebuild")

    def rebuild_all(self):
        """Every queue's read model again from its stream; returns how many queues."""
        queue_ids = self.queue_ids()
        for queue_id in queue_ids:
            self.rebuild(queue_id)
        return len(queue_ids)
