"""A bot chain: one RQ job plays a game's bot turns one after another, while the next
seat to act is a bot, instead of one job per move.

RQ's bookkeeping (enqueue, dequeue, heartbeat, finish: ~90 Redis commands) cost far
more than a random bot's move; a chain pays it once for up to MAX_MOVES moves. It
decides up to BATCH moves in a row and stores them with one append at their expected
version, all or none (no double move); the projector still projects every event. A
chain is bounded, so timers and other games never wait long:

- it stops at a human's turn, at the game's end, at a table timer and at any reflex
  chance (Alien's claims and stacks stay delayed jobs that the projector schedules);
- after MAX_MOVES moves, or once SLICE_SECONDS have gone (counting the next bot's
  think_ms), it enqueues its continuation at the back of the queue.

A game where every seat is a bot has nobody waiting for it: its chain runs on the
`background` queue, which workers serve after the bots of games people play (a job
for it found on `bots` hands on to `background` before deciding anything). Each job of
a thinking bot decides one move, then goes to the back of that queue, so the games of
bots only share its workers turn by turn, and a person's bot opponent never waits
behind them.

While a chain plays a game it holds the game's lease (shared/schedule.py), so
the projector does not enqueue a job for every version it projects meanwhile. A chain
that ends gives the lease back, then schedules the bot turn the projector may have
skipped at its checkpoint (see release). A worker killed mid-chain leaves the lease to
expire (LEASE_MS); the projector's sweep then wakes the game again.

The bot sees what it would see through the API: its seat's view, built by the
function that builds the read model (table.view) from the table the moves before it
lead to, and its own redacted feed (table.event_as_seen), read once per job and then
extended with the records of the moves decided since. A level that reads only the
view's legal commands (not `reads_feed`: random) gets no feed, and its view without the
JSON round trip (equal to the read model's, a test checks). A level that fails, is late
or answers an illegal command is replaced for that decision by the table's
takeover_bot (shared.bots.registry.decide)."""

import logging
import random
import time
import uuid

from services.ops import metrics
from shared import bots, checkpoint, jsonutil, table
from shared.games.base import RuleError
from shared.store import Record, VersionConflict

log = logging.getLogger(__name__)

MAX_MOVES = 256  # moves one job plays at most
SLICE_SECONDS = 0.25  # then it hands on, unless it moved only once (the clock's tick)
BATCH = 16  # moves decided before one append stores them all
LEASE_MS = 5_000  # how long the projector leaves a game to a chain that went silent

# KEYS[1] the lease, ARGV[1] our token: delete it if ours; 1 when nobody holds it now.
_RELEASE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
if holder then return 0 end
return 1
"""


class BotChain:
    """The bot turns of one game, played by one job."""

    def __init__(self, d, game_id):
        self.d = d
        self.game_id = game_id
        self.lease = d.scheduler.chain_lease(game_id)
        self.connection = d.queue.connection
        self._records = None  # the game's records so far, read on first need
        self._planned = []  # records of moves decided, not yet appended
        self._feeds = {}  # seat -> its redacted feed

    def play(self, seat, version, token=None, background=False):
        """Play `seat`'s turn at `version`, then the bot turns after it within the
        bounds. `token`: the lease handed on by the chain this job continues;
        `background`: this job runs on the queue of games of bots only."""
        version_now, current = self._load(version)
        reason = _why_not(current, seat) if version_now == version else "stale"
        if reason:
            if token is not None:
                self._release(token, version_now)
            return reason
        token = token or uuid.uuid4().hex
        self._hold(token)
        started, moves, handed_on, refused = time.monotonic(), 0, False, False
        try:
            if not background and bots_only(current):
                self.d.scheduler.continue_bots(self.game_id, seat, version, token, True)
                handed_on = True
                return "to background"
            while True:
                run = self._decide(seat, version, current, MAX_MOVES - moves)
                if run.events:
                    try:
                        records = self.d.service.append_decided(
                            self.game_id, version, run.events, run.at, run.after
                        )
                    except VersionConflict:
                        metrics.command_refused("version_conflict")
                        return "moved" if moves else "stale"
                    if self._records is not None:  # else read when a bot first needs a feed
                        self._records.extend(records)
                    self._planned = []
                    for command in run.commands:
                        metrics.command_appended(current["game"], command.get("type"))
                    moves += len(run.commands)
                    version, current = run.version, run.after
                if run.outcome is not None:
                    refused = run.outcome.startswith("refused")
                    return "moved" if moves else run.outcome
                seat = next_bot(current)
                if seat is None:
                    return "moved"
                think = (current["seats"][seat].get("think_ms") or 0) / 1000
                if moves >= MAX_MOVES or time.monotonic() - started + think > SLICE_SECONDS:
                    self._hold(token)
                    self.d.scheduler.continue_bots(
                        self.game_id, seat, version, token, bots_only(current)
                    )
                    handed_on = True
                    return "moved"
        finally:
            if not handed_on:
                # A refused bot would be refused again: the sweep retries it, as before.
                self._release(token, version, wake=not refused)

    def _load(self, version):
        """The table at `version` or later: the worker's cache, or the stream when the
        cache is behind the job."""
        found, current = self.d.service.load(self.game_id)
        if found < version:
            found, current = self.d.service.load(self.game_id, fresh=True)
        return found, current

    def _decide(self, seat, version, current, most):
        """Up to min(BATCH, most) bot moves decided one after another from `seat`'s
        turn at `version`, each bot from its own view of the table the moves before it
        lead to, none of them appended yet: one append stores them all, or none."""
        run = Run(version, current, at=int(self.d.service.clock() * 1000))
        while True:
            level = run.after["seats"][seat]["bot"]
            feed = self._feed(seat, run.after, run.version) if bots.reads_feed(level) else []
            if feed is None:
                run.outcome = "stale"
                return run
            command = self._choose(seat, run.version, run.after, feed)
            try:
                events = table.play(run.after, seat, command, by="bot")
            except RuleError as error:  # a bot bug: keep the worker alive and say so
                log.error("bot in %s seat %s refused: %s", self.game_id, seat, error.message)
                metrics.command_refused(error.code)
                run.outcome = f"refused: {error.code}"
                return run
            records = [Record(run.version + i + 1, run.at, e) for i, e in enumerate(events)]
            run.add(command, records)
            for known, seen in self._feeds.items():
                seen.extend(table.event_as_seen(run.after, r, known) for r in records)
            self._planned.extend(records)
            seat = next_bot(run.after)
            if seat is None or len(run.commands) >= min(BATCH, most):
                return run
            if (run.after["seats"][seat].get("think_ms") or 0) > 0:
                return run  # a thinking bot decides after this run is stored

    def _choose(self, seat, version, current, feed):
        """The command `seat`'s bot sends, from its view at `version` and its feed."""
        place = current["seats"][seat]
        level = place["bot"]
        view = seat_view(current, version, seat, parsed=bots.reads_feed(level))
        rng = random.Random(f"bot-{self.game_id}-{seat}-{version}")
        with metrics.bot_deciding(level):
            return bots.choose(
                level,
                *(view, feed, rng),
                think_ms=place.get("think_ms"),
                fallback=table.takeover_bot(current),
            )

    def _feed(self, seat, current, version):
        """`seat`'s feed up to `version` (a copy: the bot keeps nothing of ours), or
        None when the stream does not hold exactly `version` events."""
        if self._records is None:
            self._records = self.d.store.read(self.game_id, limit=version)
        if len(self._records) + len(self._planned) != version:
            return None
        if seat not in self._feeds:
            known = [*self._records, *self._planned]
            self._feeds[seat] = [table.event_as_seen(current, r, seat) for r in known]
        return list(self._feeds[seat])

    def _hold(self, token):
        self.connection.set(self.lease, token, px=LEASE_MS)

    def _release(self, token, version, wake=True):
        """Give the lease back; then, unless another chain holds it (or not `wake`),
        enqueue the bot turn at the projector's checkpoint: the projector may have saved
        it while we held the lease and skipped it. Any checkpoint saved after this look
        is woken by the projector itself, which finds the lease gone."""
        if not self.connection.eval(_RELEASE, 1, self.lease, token) or not wake:
            return
        seen, current = checkpoint.read(self.d.redis, self.d.keys, self.game_id)
        if current is None or seen < version or current["status"] != "active":
            return
        for seat, place in enumerate(current["seats"]):
            if place["bot"] and table.bot_chances(current, seat)[0]:
                self.d.scheduler.bot_turn(self.game_id, seat, seen)


class Run:
    """Moves decided in a row, not yet appended: their commands and events, and the
    version and table they lead to, all dated `at` (the append's time)."""

    def __init__(self, version, current, at):
        self.version, self.after, self.at = version, current, at
        self.commands, self.events = [], []
        self.outcome = None  # why the chain stops after this run ("stale", "refused: ...")

    def add(self, command, records):
        self.commands.append(command)
        self.events.extend(r.event for r in records)
        self.after = table.fold(((r.event, r.at) for r in records), self.after)
        self.version = records[-1].version


def seat_view(current, version, seat, parsed=True):
    """`seat`'s view at `version` exactly as its read model holds it (the projector
    stores table.view as JSON; a bot gets the same values, lists and all, and nothing
    of the table). Not `parsed`: as table.view builds it, for a bot that reads only its
    legal commands (not bots.reads_feed): the same values, without the JSON round trip that
    cost as much as building the view."""
    view = table.view(current, version, seat)
    return jsonutil.loads(jsonutil.dumps(view)) if parsed else view


def bots_only(current):
    """Whether every seat of the game is played by a bot: nobody waits for its moves."""
    return all(place["bot"] for place in current["seats"])


def next_bot(current):
    """The bot seat the chain may play next, or None: the game is over, a human must
    act, a table timer runs, or some seat has a reflex to send (a reaction waits for
    its delay, so the projector schedules it)."""
    acting = table.to_act(current)
    if not acting or table.table_timers(current):
        return None
    seats = current["seats"]
    if any(not seats[s]["bot"] for s in acting):
        return None
    rules = table.rules_of(current)
    reflexes = getattr(rules, "REFLEXES", ())
    if reflexes and any(
        c["type"] in reflexes for s in range(len(seats)) for c in rules.legal(current["rules"], s)
    ):
        return None
    return next((s for s in acting if table.bot_chances(current, s)[0]), None)


def _why_not(current, seat):
    """Why `seat`'s bot may not move now (None: it may)."""
    if current["status"] != "active" or seat not in table.to_act(current):
        return "stale"
    if not current["seats"][seat]["bot"]:
        return "not a bot"
    return None
