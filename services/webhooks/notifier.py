"""From projected events to delivery jobs: the projector's side of webhooks.

The projector calls `notify` with the table before a batch and the batch, before it
writes the read models: a crash after this leaves jobs whose notifications the next
projection derives again with the same ids, and delivery drops those duplicates. A
game with no webhook costs one HGETALL (a projector batch reads every game's in one
round trip: `hooks`, or with its tails: `queue_hooks`). Nothing here may stop a
projection.
"""

import logging
import secrets
import time

from services.webhooks.schedule import enqueue
from services.webhooks.settings import Settings
from services.webhooks.subscriptions import Subscriptions
from shared import webhooks

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, redis, keys, queue, clock=time.time):
        self.subscriptions = Subscriptions(redis, keys)
        self.queue = queue
        self.clock = clock

    def hooks(self, game_ids):
        """The active webhooks of several games, in one round trip, for `notify`'s
        `hooks`; {} for a game whose webhooks could not be read."""
        try:
            return self.subscriptions.active_many(game_ids)
        except Exception:  # a webhook problem must never hold up the game's views
            log.exception("could not read the webhooks of %d games", len(game_ids))
            return {}

    def queue_hooks(self, pipe, game_ids):
        """`hooks` queued on the caller's pipeline (the projector reads them with the
        games' tails); returns the function that reads them from that pipeline's answers
        (executed with raise_on_error=False), {} when they could not be read."""
        read = self.subscriptions.queue_active(pipe, game_ids)

        def read_hooks(answers):
            try:
                for answer in answers:
                    if isinstance(answer, Exception):
                        raise answer
                return read(answers)
            except Exception:  # a webhook problem must never hold up the game's views
                log.exception("could not read the webhooks of %d games", len(answers) // 2)
                return {}

        return read_hooks

    def notify(self, game_id, before, records, hooks=None):
        """Enqueue a delivery per (webhook, notification) of the stored `records`
        folded onto `before`. `hooks`: the game's active webhooks when already read
        (see `hooks`). Returns how many were enqueued."""
        try:
            return self._notify(game_id, before, records, hooks)
        except Exception:  # a webhook problem must never hold up the game's views
            log.exception("could not enqueue the webhooks of game %s", game_id)
            return 0

    def _notify(self, game_id, before, records, hooks):
        if hooks is None:
            hooks = self.subscriptions.active(game_id)
        if not hooks:
            return 0
        triples = [(r.version, r.event, r.at) for r in records]
        notes, current = webhooks.notifications(game_id, before, triples)
        # A rebuild or a long outage must not push turns long gone.
        oldest = (self.clock() - Settings.from_env().max_age_seconds) * 1000
        at = {r.version: r.at for r in records}
        enqueued = 0
        for note in notes:
            if at[note["version"]] < oldest:
                continue
            for subscriber, hook in hooks.items():
                if note["kind"] not in hook["events"]:
                    continue
                body = webhooks.for_subscriber(note, subscriber, current)
                if body is None:
                    continue
                nonce = secrets.token_hex(8)
                enqueue(self.queue, game_id, subscriber, body, nonce)
                enqueued += 1
        return enqueued

    def notify_player(self, player_id, hook, items, at):
        """Enqueue a delivery to a player's webhook (`hook`, {url, events, secret}) per
        item just written to its inbox (each with its inbox version) of the kinds it
        wants; `at`: the time (ms) of the game event that told them. Returns how many."""
        try:
            return self._notify_player(player_id, hook, items, at)
        except Exception:  # a webhook problem must never hold up the inboxes
            log.exception("could not enqueue the webhook of player %s", player_id)
            return 0

    def _notify_player(self, player_id, hook, items, at):
        if at is not None and at < (self.clock() - Settings.from_env().max_age_seconds) * 1000:
            return 0  # a long outage must not push turns long gone
        subscriber = webhooks.player_subscriber(player_id)
        enqueued = 0
        for item in items:
            if item["kind"] not in hook["events"]:
                continue
            body = webhooks.player_note(player_id, item)
            enqueue(self.queue, item.get("game_id", "-"), subscriber, body, secrets.token_hex(8))
            enqueued += 1
        return enqueued
