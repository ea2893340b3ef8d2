"""The dead-letter list: deliveries that gave up, for an operator to read and replay.

A Redis list (newest first, the last DEAD_LETTERS_KEPT kept) of JSON entries:
{game_id, subscriber, body, nonce, attempts, error, at}. Replaying an entry resumes its
subscriber and enqueues the delivery again, with the same nonce (so it is not taken
for a duplicate); a replayed delivery that fails again becomes a new dead letter.
"""

import time

from services.webhooks.schedule import enqueue
from services.webhooks.settings import DEAD_LETTERS_KEPT
from services.webhooks.subscriptions import of_subscriber
from shared import jsonutil


def add(redis, keys, letter):
    """Write one dead letter."""
    entry = jsonutil.dumps({**letter, "at": int(time.time() * 1000)})
    pipe = redis.pipeline(transaction=False)
    pipe.lpush(keys.webhook_dead_letters, entry)
    pipe.ltrim(keys.webhook_dead_letters, 0, DEAD_LETTERS_KEPT - 1)
    pipe.execute()


def read(redis, keys, limit=100):
    """The newest `limit` dead letters."""
    return [jsonutil.loads(raw) for raw in redis.lrange(keys.webhook_dead_letters, 0, limit - 1)]


def replay(redis, keys, queue, limit=100):
    """Take up to `limit` dead letters (oldest first) off the list and enqueue each
    delivery again. Returns the letters replayed."""
    replayed = []
    for raw in reversed(redis.lrange(keys.webhook_dead_letters, -limit, -1)):
        if not redis.lrem(keys.webhook_dead_letters, 1, raw):
            continue  # another operator took it meanwhile
        letter = jsonutil.loads(raw)
        game_id, subscriber = letter["game_id"], letter["subscriber"]
        of_subscriber(redis, keys, subscriber).resume(game_id, subscriber)
        enqueue(queue, game_id, subscriber, letter["body"], letter["nonce"])
        replayed.append(letter)
    return replayed
