"""Webhook subscriptions of a game, kept in Redis under the game's hash tag.

A game has at most one webhook of its own ("game": what a spectator may see) and one
per seat ("seat-<n>": what that seat may see). Each is {url, events, secret}; the
secret signs every delivery and is shown once, when the webhook is registered. A
subscriber's health (dead letters in a row, paused) is kept apart, so a delivery never
rewrites the subscription itself.
"""

import secrets

from shared import jsonutil, webhooks


def new_secret():
    """A webhook's signing secret (shown once, when it is registered)."""
    return secrets.token_urlsafe(32)


class Subscriptions:
    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys

    def register(self, game_id, subscriber, url, events):
        """Store (or replace) a subscriber's webhook; returns its new secret."""
        secret = new_secret()
        hook = {"url": url, "events": list(events), "secret": secret}
        self.redis.hset(self.keys.webhooks(game_id), subscriber, jsonutil.dumps(hook))
        self.resume(game_id, subscriber)
        return secret

    def remove(self, game_id, subscriber):
        """Forget a subscriber's webhook. True when there was one."""
        removed = self.redis.hdel(self.keys.webhooks(game_id), subscriber)
        self.resume(game_id, subscriber)
        return bool(removed)

    def get(self, game_id, subscriber):
        raw = self.redis.hget(self.keys.webhooks(game_id), subscriber)
        return jsonutil.loads(raw) if raw else None

    def active(self, game_id):
        """{subscriber: webhook} of the game's webhooks that are not paused. One round
        trip when the game has none (the projector asks on every batch)."""
        raw = self.redis.hgetall(self.keys.webhooks(game_id))
        if not raw:
            return {}
        return _unpaused(raw, self.redis.hgetall(self.keys.webhook_health(game_id)))

    def active_many(self, game_ids):
        """{game_id: active(game_id)} of several games in one round trip (a projector
        batch's games)."""
        pipe = self.redis.pipeline(transaction=False)
        read = self.queue_active(pipe, game_ids)
        return read(pipe.execute())

    def queue_active(self, pipe, game_ids):
        """Queue `active_many(game_ids)` on a pipeline that also carries other commands;
        returns the function that turns the answers of these commands into its result."""
        game_ids = list(game_ids)
        for game_id in game_ids:
            pipe.hgetall(self.keys.webhooks(game_id))
            pipe.hgetall(self.keys.webhook_health(game_id))

        def read(answers):
            hashes = [_hash(answer) for answer in answers]
            return {
                game_id: _unpaused(hashes[2 * i], hashes[2 * i + 1])
                for i, game_id in enumerate(game_ids)
            }

        return read

    def claim_key(self, game_id, subscriber, event_id):
        return self.keys.webhook_claim(game_id, subscriber, event_id)

    def paused(self, game_id, subscriber):
        return bool(self.redis.hexists(self.keys.webhook_health(game_id), f"paused:{subscriber}"))

    def delivered(self, game_id, subscriber):
        """A delivery went through: the run of dead letters is broken."""
        self.redis.hdel(self.keys.webhook_health(game_id), f"failures:{subscriber}")

    def dead_lettered(self, game_id, subscriber, pause_after):
        """One more dead letter in a row. True when this one pauses the subscriber."""
        health = self.keys.webhook_health(game_id)
        failures = self.redis.hincrby(health, f"failures:{subscriber}", 1)
        if failures < pause_after:
            return False
        return bool(self.redis.hsetnx(health, f"paused:{subscriber}", failures))

    def resume(self, game_id, subscriber):
        """Deliver to the subscriber again, its run of failures forgotten."""
        health = self.keys.webhook_health(game_id)
        self.redis.hdel(health, f"failures:{subscriber}", f"paused:{subscriber}")


class PlayerSubscriptions:
    """A player's webhook (one for every game it is seated in), with the interface of
    Subscriptions that delivery uses (game_id names the game a notification is about,
    kept for the dead letters). The registration itself is a read model of the
    player's events (shared/players/store.py writes it); its health and delivery claims
    live under the player's hash tag, apart from it."""

    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys

    def get(self, game_id, subscriber):
        raw = self.redis.get(self.keys.player_webhook(webhooks.player_of_subscriber(subscriber)))
        return jsonutil.loads(raw) if raw else None

    def claim_key(self, game_id, subscriber, event_id):
        player_id = webhooks.player_of_subscriber(subscriber)
        return self.keys.player_webhook_claim(player_id, event_id)

    def _health(self, subscriber):
        return self.keys.player_webhook_health(webhooks.player_of_subscriber(subscriber))

    def paused(self, game_id, subscriber):
        return bool(self.redis.hexists(self._health(subscriber), "paused"))

    def delivered(self, game_id, subscriber):
        self.redis.hdel(self._health(subscriber), "failures")

    def dead_lettered(self, game_id, subscriber, pause_after):
        health = self._health(subscriber)
        failures = self.redis.hincrby(health, "failures", 1)
        if failures < pause_after:
            return False
        return bool(self.redis.hsetnx(health, "paused", failures))

    def resume(self, game_id=None, subscriber=None, player_id=None):
        """Deliver to the player's webhook again (by its subscriber id or player id)."""
        if player_id is not None:
            subscriber = webhooks.player_subscriber(player_id)
        self.redis.hdel(self._health(subscriber), "failures", "paused")


def of_subscriber(redis, keys, subscriber):
    """The subscriptions a subscriber id belongs to: a player's webhook, or a game's
    (the game's own and its seats')."""
    if webhooks.player_of_subscriber(subscriber) is not None:
        return PlayerSubscriptions(redis, keys)
    return Subscriptions(redis, keys)


def _unpaused(raw, health):
    return {
        name.decode(): jsonutil.loads(hook)
        for name, hook in raw.items()
        if f"paused:{name.decode()}".encode() not in health
    }


def _hash(answer):
    """An HGETALL's answer as a dict, also from a pipeline that leaves Redis' answers
    unparsed (the projector's tails pipeline: [field, value, ...])."""
    if isinstance(answer, dict):
        return answer
    return dict(zip(answer[::2], answer[1::2], strict=True))
