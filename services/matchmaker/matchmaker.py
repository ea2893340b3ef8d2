"""One matchmaker's loop: round every queue, expire what is due, group what matches
(shared/matchmaking/matching.py), claim each group, open its game, tell its players.

Any number may run at once: a claim is one script over the queue's keys that takes
every ticket of the group or none (shared/matchmaking/store.py), so two matchmakers
seeing the same tickets seat them once; the loser's group is dropped and looked at
again next round. The game's id is drawn before the claim and the claim keeps what
the game is opened with (`unopened`), so a matchmaker killed between the claim and
the game's opening leaves the match to the next round of any matchmaker, which opens
that same game (an append at version 0: once) after REPAIR_MS.
"""

import logging
import random
import time

import redis
from prometheus_client.core import GaugeMetricFamily

from services.game.service import new_game_id
from services.ops import metrics
from services.webhooks.notifier import Notifier
from shared.games.base import RuleError
from shared.matchmaking import matching
from shared.matchmaking.store import Gone
from shared.players.store import Inbox
from shared.store import VersionConflict

log = logging.getLogger(__name__)

REPAIR_MS = 5_000  # a claim this old with no open game: its matchmaker died
IDLE_SECONDS = 0.05  # the pause between rounds that seated nobody
STUCK_SECONDS = 60  # /healthz fails when no round finished for this long
MATCHED = "matched"  # the inbox item's kind


class Matchmaker:
    def __init__(self, d, clock=time.time, rng=None):
        self.d = d
        self.queues = d.matchmaking
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.inbox = Inbox(d.redis, d.keys)
        self.notifier = Notifier(d.redis, d.keys, d.webhook_queue)  # players' webhooks
        self.last_round = time.monotonic()

    def alive(self):
        """/healthz: a round finished within STUCK_SECONDS."""
        return time.monotonic() - self.last_round < STUCK_SECONDS

    def now_ms(self):
        return int(self.clock() * 1000)

    def run(self, stop):
        """Round the queues until `stop()`; rest a moment after a round that seated
        nobody."""
        while not stop():
            try:
                opened = self.round()
            except redis.RedisError:  # Redis away a moment: what was claimed is kept
                log.warning("matchmaker: Redis refused a round; again in a second")
                time.sleep(1)
                continue
            self.last_round = time.monotonic()
            if not opened:
                time.sleep(IDLE_SECONDS)

    def round(self):
        """One pass over every queue; returns the games opened."""
        return sum(self.serve(queue_id) for queue_id in self.queues.queue_ids())

    def serve(self, queue_id):
        """Expire, group and seat one queue's waiting tickets; returns the games opened."""
        now = self.now_ms()
        self.repair(queue_id, now)
        live = []
        for doc in self.queues.waiting(queue_id):
            if doc["expires_at"] > now:
                live.append(doc)
                continue
            try:
                self.queues.expire(doc["id"], now)
            except Gone:
                pass  # cancelled or matched meanwhile
        return sum(self.seat(queue_id, group, now) for group in matching.groups(live, now))

    def seat(self, queue_id, group, now):
        """Claim one group and open its game; False when another claimed a ticket first
        or one was cancelled (the rest wait for the next round)."""
        places = [("ticket", doc) for doc in group.tickets] + [("bot", b) for b in group.bots]
        self.rng.shuffle(places)
        seats, by_ticket = [], {}
        for index, (kind, held) in enumerate(places):
            if kind == "bot":
                seats.append({"bot": held})
            else:
                seats.append({"player": held["player"]})
                by_ticket[held["id"]] = index
        first = group.tickets[0]
        spec = {
            "game": first["game"],
            "options": first["options"],
            "rated": first["rated"],
            "turn_seconds": first["turn_seconds"],
            "seats": seats,
            "players": {d["id"]: d["player"] for d in group.tickets},
            "seat_of": by_ticket,
        }
        game_id = new_game_id()
        try:
            self.queues.claim(queue_id, group.tickets, game_id, by_ticket, group.bots, now, spec)
        except Gone:
            metrics.claim_lost()
            return False
        if group.bots:
            log.info("quick match %s: bots %s (%s)", game_id, ",".join(group.bots), group.reason)
        self.open_game(queue_id, game_id, spec)
        waited = [(now - d["opened_at"]) / 1000 for d in group.tickets]
        metrics.tickets_matched(first["game"], queue_id, waited, bool(group.bots))
        return True

    def open_game(self, queue_id, game_id, spec):
        """Open the matched game (once: a second opening finds it open), tell each
        player `matched`, and let its tickets go from the players' open ones."""
        options = dict(spec["options"])
        if spec["rated"]:
            options["rated"] = True
        if spec["turn_seconds"] is not None:
            options["turn_seconds"] = spec["turn_seconds"]
        version = 1
        try:
            version = self.d.service.create(spec["game"], spec["seats"], options, game_id)[
                "version"
            ]
        except VersionConflict:
            pass  # opened already, by the matchmaker that claimed it or a repair
        except RuleError:  # the options were the game's when checked: never expected
            log.exception("quick match %s: the game refused to open", game_id)
            self.queues.opened(queue_id, game_id)  # tell nobody of a game that is not
            return
        for ticket_id, player in spec["players"].items():
            seat = spec["seat_of"][ticket_id]
            item = {
                "kind": MATCHED,
                "game_id": game_id,
                "game": spec["game"],
                "game_version": version,
                "seat": seat,
                "ticket_id": ticket_id,
            }
            numbered, hook = self.inbox.tell(player, [item])
            if hook is not None:  # the player's webhook hears it as any inbox item
                self.notifier.notify_player(player, hook, numbered, self.now_ms())
            self.queues.release(player, ticket_id)
        self.queues.opened(queue_id, game_id)

    def repair(self, queue_id, now):
        """Open the games of claims whose matchmaker died before opening them."""
        for game_id, spec in self.queues.unopened(queue_id).items():
            if now - spec["at"] > REPAIR_MS:
                log.warning("quick match %s: opening the game of an old claim", game_id)
                self.open_game(queue_id, game_id, spec)


class WaitingCollector:
    """Scrape-time gauge: tickets waiting in each queue."""

    def __init__(self, d):
        self.queues = d.matchmaking

    def collect(self):
        family = GaugeMetricFamily(
            "tablestream_matchmaking_waiting_tickets",
            "Quick-match tickets waiting, per queue",
            labels=["game", "queue"],
        )
        for queue_id in self.queues.queue_ids():
            queue = self.queues.queue(queue_id) or {"game": "?"}
            family.add_metric([queue["game"], queue_id], self.queues.waiting_count(queue_id))
        yield family
