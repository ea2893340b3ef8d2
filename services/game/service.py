"""The game service: load a table, let the rules decide, append with the expected version.

The hot path of a move is: the table from an in-process cache of its last version,
decide, one append (a Lua script) at that version. A stale cache (another process
moved the game) shows up as a version conflict: read the tail, decide again, retry.
So a move costs the same at the start and at the end of a long game.
"""

import secrets
import time
from collections import OrderedDict

from services.ops import metrics
from shared import checkpoint, table, tokens
from shared.games.base import RuleError
from shared.store import Record, VersionConflict

RETRIES = 5
FIRST_SWEEP_MS = 30_000  # when the projectors' sweep first looks at a new game


class GameService:
    def __init__(self, store, secret, clock=time.time, cache_size=2048):
        self.store = store
        self.keys = store.keys
        self.secret = secret
        self.clock = clock
        self._cache = OrderedDict()
        self._cache_size = cache_size

    def create(self, game, seats, options, game_id=None):
        """Open a table. Returns its id, version and the human seats' tokens. `game_id`
        (from new_game_id) lets a caller store something under the id first."""
        game_id = game_id or new_game_id()
        # Drawn from the OS: the seed (unless the creator chose one) and the salt that
        # keeps its public hash from giving a small chosen seed away.
        seed, salt = secrets.token_hex(16), secrets.token_hex(16)
        return self.open(game_id, table.create(game_id, game, seats, options, seed, salt))

    def open(self, game_id, events):
        """Store the events that open a new table (a creation, a fork). Returns its id,
        version and the human seats' tokens."""
        at = self._now_ms()
        version = self.store.append(game_id, 0, events, at)
        created = table.fold((e, at) for e in events)
        self._remember(game_id, version, created)
        # The sweep's safety net, should the projectors' notification be lost; they push
        # the game's next look on every projection.
        self.store.redis.zadd(self.keys.live, {game_id: at + FIRST_SWEEP_MS}, nx=True)
        return {
            "id": game_id,
            "version": version,
            "creator_token": tokens.issue(self.secret, game_id, tokens.CREATOR),
            "seats": [
                self._seat_credentials(game_id, seat) for seat in table.public_seats(created)
            ],
        }

    def _seat_credentials(self, game_id, seat):
        # An invited seat's token is the invitee's, given when it accepts.
        human = seat["bot"] is None and not seat["open"] and not seat.get("invited")
        return {
            **seat,
            "token": tokens.issue(self.secret, game_id, seat["seat"]) if human else None,
        }

    def claim(self, game_id, seat, name, player=None):
        """Take an open seat, by a name or as a player (its id); returns the version and
        the seat's token."""
        version, _, _ = self._write(game_id, lambda t: table.claim(t, seat, name, player))
        return {"version": version, "seat": seat, "token": tokens.issue(self.secret, game_id, seat)}

    def rematch(self, game_id, player=None, erased=()):
        """The rematch of a finished game, opened the first time a seat asks (the old
        game's log records `rematch_offered`), the same game every time after. Its
        seats: `player` (the one asking, if a player) seated, every other player
        invited (one in `erased` leaves an open seat), bots as bots, named seats with
        new tokens. Returns the new game as a creation answers it (tokens only for the
        named seats: players act with their own tokens)."""
        new_id = new_game_id()
        _, records, old = self._write(game_id, lambda t: table.offer_rematch(t, new_id))
        rematch_id = old["rematch"]
        if records:  # this request offered it: open it
            seats = table.rematch_seats(old, player, erased)
            self.create(old["game"], seats, table.rematch_options(old), game_id=rematch_id)
        version, current = self.load(rematch_id, fresh=not records)
        return {
            "id": rematch_id,
            "version": version,
            "creator_token": tokens.issue(self.secret, rematch_id, tokens.CREATOR),
            "seats": [
                {**seat, "token": _named_token(self.secret, rematch_id, seat)}
                for seat in table.public_seats(current)
            ],
        }

    def accept(self, game_id, seat, player):
        """An invited player takes its seat; returns the version and the seat's token."""
        version, _, _ = self._write(game_id, lambda t: table.accept(t, seat, player))
        return {"version": version, "seat": seat, "token": tokens.issue(self.secret, game_id, seat)}

    def decline(self, game_id, seat, player):
        """An invited player turns its seat down: the seat is open."""
        return self._write(game_id, lambda t: table.decline(t, seat, player))

    def command(self, game_id, seat, command, expected_version=None, by="holder"):
        """Apply one seat's command, sent by its holder or its bot. Returns (version,
        records, table after)."""
        try:
            written = self._write(
                game_id,
                lambda t, at: table.play_folded(t, seat, command, by, at),
                expected_version,
                folds=True,
            )
        except (RuleError, VersionConflict) as refusal:
            metrics.command_refused(getattr(refusal, "code", "version_conflict"))
            raise
        metrics.command_appended(written[2]["game"], command.get("type"))
        return written

    def append_decided(self, game_id, version, events, at, after):
        """Append events a caller decided from this game's table at `version` (a bot
        chain's run of moves, services/worker/chain.py), all or none, dated `at`;
        `after` is the table they lead to. Returns their records; raises
        VersionConflict, appending nothing, when the game has moved since `version`."""
        new_version = self.store.append(game_id, version, events, at)
        self._remember(game_id, new_version, after)
        return [Record(version + i + 1, at, e) for i, e in enumerate(events)]

    def timeout(self, game_id, seat, version):
        """The seat's time ran out at `version`: apply the rules' default action. A timer
        for a version that has passed does nothing (returns None)."""
        try:
            return self._write(game_id, lambda t: table.time_out(t, seat), version)
        except VersionConflict:
            return None

    def table_timer(self, game_id, key):
        """The table's own timer `key` ran out: send its command. None when the timer
        is gone by now."""
        written = self._write(game_id, lambda t: table.fire(t, key))
        return written if written[1] else None

    def resign(self, game_id, seat):
        """The holder leaves; a bot plays the seat to the end."""
        return self._write(game_id, lambda t: table.resign(t, seat))

    def return_seat(self, game_id, seat):
        """The holder takes the seat back from the bot that played it after timeouts."""
        return self._write(game_id, lambda t: table.return_seat(t, seat))

    def pause_webhook(self, game_id, seat):
        """Note in the log that a webhook (seat None: the game's) is paused."""
        return self._write(game_id, lambda t: table.webhook_paused(t, seat))

    def cancel(self, game_id):
        """The creator calls off a game still waiting for players."""
        result = self._write(game_id, table.cancel)
        self.store.redis.zrem(self.keys.live, game_id)
        return result

    def expire(self, game_id, version, reason):
        """Call off an abandoned game (see table.expire), unless it moved since
        `version`, when the sweep saw it abandoned. Returns None when it had moved."""
        try:
            result = self._write(game_id, lambda t: table.expire(t, reason), version)
        except VersionConflict:
            return None
        self.store.redis.zrem(self.keys.live, game_id)
        return result

    def _write(self, game_id, decide, expected_version=None, folds=False):
        """Decide on the game's table and append the events at its version, retrying on
        a stale cache. `folds`: `decide(table, at)` answers (events, table after them)
        rather than `decide(table)` the events alone, saving a second fold."""
        cached = True
        for _ in range(RETRIES):
            version, current = self.load(game_id, fresh=not cached)
            if expected_version is not None and expected_version != version:
                if cached:  # our cache may be behind the client: look again first
                    cached = False
                    continue
                raise VersionConflict(expected_version, version)
            at = self._now_ms()
            try:
                decided = decide(current, at) if folds else decide(current)
            except RuleError:
                if cached:  # refused by a possibly stale table: ask the stream first
                    cached = False
                    continue
                raise
            events, after = decided if folds else (decided, None)
            try:
                new_version = self.store.append(game_id, version, events, at)
            except VersionConflict:
                cached = False
                continue
            if after is None:
                after = table.fold(((e, at) for e in events), current)
            self._remember(game_id, new_version, after)
            records = [Record(version + i + 1, at, e) for i, e in enumerate(events)]
            return new_version, records, after
        raise VersionConflict(expected_version if expected_version is not None else version, -1)

    def load(self, game_id, fresh=False):
        """(version, table) of a game: from the cache, or from the projector's checkpoint
        plus the stream's tail. Raises RuleError("unknown_game")."""
        hit = self._cache.get(game_id)
        if hit is not None and not fresh:
            self._cache.move_to_end(game_id)
            return hit
        if hit is None:
            hit = checkpoint.read(self.store.redis, self.keys, game_id)
        version, current = hit
        tail = self.store.read(game_id, after=version)
        if tail:
            current = table.fold(((r.event, r.at) for r in tail), current)
            version = tail[-1].version
        if current is None:
            raise RuleError("unknown_game", f"no game {game_id!r}")
        self._remember(game_id, version, current)
        return version, current

    def advance(self, game_id, records):
        """(version, table) of a game, its cached table folded on with `records` (read
        from its stream, in order), when they reach from the cache's version on: a
        reader that has the newest records already needs no second read. None when
        the game is not cached or the records start past its cached version."""
        hit = self._cache.get(game_id)
        if hit is None:
            return None
        version, current = hit
        if not records or records[-1].version <= version:
            return hit
        if records[0].version > version + 1:
            return None
        tail = records[version + 1 - records[0].version :]
        current = table.fold(((r.event, r.at) for r in tail), current)
        self._remember(game_id, tail[-1].version, current)
        return tail[-1].version, current

    def cached(self, game_id):
        """(version, table) of a game as this process last had it, or None: no Redis."""
        return self._cache.get(game_id)

    def _remember(self, game_id, version, current):
        self._cache[game_id] = (version, current)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _now_ms(self):
        return int(self.clock() * 1000)


def _named_token(secret, game_id, seat):
    """A named seat's token (not a bot's, an open seat's or a player's)."""
    if seat["bot"] is not None or seat["open"] or seat.get("player"):
        return None
    return tokens.issue(secret, game_id, seat["seat"])


def new_game_id():
    return secrets.token_hex(6)
