"""The projector's ratings read model: each rated game that ends is folded into its
players' ratings (shared/ratings), and a rebuild folds every game's ratings again from
the outcomes its batches kept (in any process of it), in the fold's order (end time,
then game id)."""

from shared import games, table
from shared.ratings import outcome
from shared.ratings.store import RatingStore


class RatingModels:
    """The ratings one projector writes; `rate_bots` is the operator's RATE_BOT_GAMES."""

    def __init__(self, redis, keys, rate_bots=False):
        self.store = RatingStore(redis, keys)
        self.rate_bots = rate_bots

    def after_save(self, saved, rebuilding=False):
        """Fold in the rated games among those just saved that ended in their tail
        (a rebuild's batches only keep them, for `rebuilt`)."""
        ended = []
        for _, (was, tail, current, _) in saved.items():
            if current["status"] != "finished" or (was.table or {}).get("status") == "finished":
                continue
            at = next((at for event, at in tail.pairs if event["type"] == table.ENDED), None)
            result = outcome(current, at if at is not None else tail.last_at, self.rate_bots)
            if result is not None:
                ended.append(result)
        if ended and rebuilding:
            self.store.keep(ended)
        elif ended:
            self.store.record(ended)

    def forget_read_models(self):
        """A rebuild's first step: every rating key goes, outcomes included."""
        for game in games.NAMES:
            self.store.forget(game)

    def rebuilt(self):
        """A rebuild's last step: fold each game's kept outcomes, in order."""
        for game in games.NAMES:
            self.store.refold(game)
