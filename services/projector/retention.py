"""How long a game that is over keeps its read models.

A finished or cancelled game never changes again, and its read models (the seats' and
the spectator's views, the summary, the checkpoint) are a pure function of its stream.
So once it is over they expire after `seconds` (FINISHED_READ_MODELS_TTL), and its
webhook subscriptions with them; the stream itself is the truth and is kept. After they
expire the API answers a view or summary from the stream, as it does for a game not yet
projected (services/api/play.py).
"""

from dataclasses import dataclass

from shared.config import Config

OVER = ("finished", "cancelled")


@dataclass(frozen=True)
class Retention:
    """`seconds` 0: the read models of games that are over are kept for good."""

    seconds: int = Config.finished_read_models_ttl

    def read_model_keys(self, keys, game_id, current):
        """Every read model key of one game: checkpoint, summary, spectator and seats."""
        seats = [None, *range(len(current["seats"]))]
        return [
            keys.checkpoint(game_id),
            keys.summary(game_id),
            *(keys.view(game_id, seat) for seat in seats),
        ]

    def webhook_keys(self, keys, game_id):
        """The game's webhook subscriptions and their health: of no use once it is over
        and its last deliveries are long done (they give up after an hour), so they go
        with the read models. Unlike those, they cannot be made again from the stream."""
        return [keys.webhooks(game_id), keys.webhook_health(game_id)]

    def expires_at(self, current, ended_at):
        """When (ms) a game's read models and webhook keys expire: `seconds` after its
        last event (`ended_at`, ms) if it is over, else None. Counted from the end, not
        from the save: a rebuild writes a game long over anew, and Redis drops it again
        at once."""
        if self.seconds <= 0 or current["status"] not in OVER:
            return None
        return ended_at + self.seconds * 1000

    def expire_if_over(self, pipe, keys, game_id, current, ended_at):
        """Queue on `pipe` the expiry (`expires_at`) of the game's read models and
        webhook keys if it is over (the projector's write expires them itself)."""
        at_ms = self.expires_at(current, ended_at)
        if at_ms is None:
            return
        for key in self.read_model_keys(keys, game_id, current):
            pipe.pexpireat(key, at_ms)
        for key in self.webhook_keys(keys, game_id):
            pipe.pexpireat(key, at_ms)  # no-op for a game without webhooks
