"""The delivery job the worker runs for one notification to one subscriber.

Each job carries a nonce made when the notification was enqueued. The first delivery
of a notification to a subscriber claims it (a SET NX of the nonce); a duplicate (a
second projector, a re-projection) holds another nonce and stops there, and a
delivery that went through marks the claim "delivered". Retries and a replay from the
dead letters carry the same nonce, so they pass. Retries wait `backoff_seconds`,
doubling, each with jitter, for `attempts` tries in all; then the notification goes to
the dead-letter list, and `pause_after` dead letters in a row pause the subscriber
(a `webhook_paused` event in the game's log).
"""

import logging
import random
import time

from services import deps as deps_module
from services.webhooks import dead_letters, delivery
from services.webhooks.schedule import enqueue
from services.webhooks.settings import DEDUPE_SECONDS, Settings
from services.webhooks.subscriptions import of_subscriber
from shared import jsonutil, webhooks
from shared.games.base import RuleError

log = logging.getLogger(__name__)

DELIVERED = b"delivered"
USER_AGENT = "tablestream-webhooks/1"


def backoff(attempt, settings, rng=random):
    """Seconds to wait after failed attempt number `attempt` (1, 2, ...): doubling
    from backoff_seconds, capped, times a jitter between 0.5 and 1.5 so that many
    deliveries failing together do not come back together."""
    base = min(settings.backoff_seconds * 2 ** (attempt - 1), settings.max_backoff_seconds)
    return base * rng.uniform(0.5, 1.5)


def deliver(game_id, subscriber, body, nonce, attempt=1):
    """Try to deliver `body` to the subscriber's webhook once; schedule the next try,
    or write the dead letter. Returns what happened, in a word or two."""
    d = deps_module.current()
    settings = Settings.from_env()
    hooks = of_subscriber(d.redis, d.keys, subscriber)
    hook = hooks.get(game_id, subscriber)
    if hook is None:
        return "unsubscribed"
    claim = hooks.claim_key(game_id, subscriber, body["id"])
    if not _claimed(d.redis, claim, nonce):
        return "duplicate"
    letter = {"game_id": game_id, "subscriber": subscriber, "body": body, "nonce": nonce}
    if hooks.paused(game_id, subscriber):
        dead_letters.add(d.redis, d.keys, {**letter, "attempts": 0, "error": "paused"})
        return "paused"
    raw = jsonutil.dumps(body)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        webhooks.EVENT_ID_HEADER: body["id"],
        webhooks.SIGNATURE_HEADER: webhooks.sign(hook["secret"], raw, int(time.time())),
    }
    outcome = delivery.post(hook["url"], raw, headers, settings)
    if outcome.delivered:
        d.redis.set(claim, DELIVERED, ex=DEDUPE_SECONDS)
        hooks.delivered(game_id, subscriber)
        return "delivered"
    if outcome.retry and attempt < settings.attempts:
        delay = backoff(attempt, settings)
        enqueue(d.webhook_queue, game_id, subscriber, body, nonce, attempt + 1, delay)
        return f"retrying in {delay:.2f}s: {outcome.detail}"
    dead_letters.add(d.redis, d.keys, {**letter, "attempts": attempt, "error": outcome.detail})
    log.warning("webhook %s of game %s gave up: %s", subscriber, game_id, outcome.detail)
    if hooks.dead_lettered(game_id, subscriber, settings.pause_after):
        _note_paused(d, game_id, subscriber)
    return f"dead letter: {outcome.detail}"


def _claimed(redis, claim, nonce):
    """True when this delivery (by its nonce) owns the notification."""
    if redis.set(claim, nonce, nx=True, ex=DEDUPE_SECONDS):
        return True
    return redis.get(claim) == nonce.encode()


def _note_paused(d, game_id, subscriber):
    """The webhook_paused event, so the players see it in the log; a game that is over
    takes no more events, and then the pause is only in Redis. A player's webhook is
    the player's own business, not the game's: no event (registering again resumes)."""
    if webhooks.player_of_subscriber(subscriber) is not None:
        return
    try:
        d.service.pause_webhook(game_id, webhooks.seat_of_subscriber(subscriber))
    except RuleError:
        pass
