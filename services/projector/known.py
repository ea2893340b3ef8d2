"""What one projector remembers of the games it projected last: each game's checkpoint
(version and table), the status it last put in the lobby and live indexes, and when it
last told the sweep to look at the game next.

It only saves round trips: every use is checked against the stored checkpoint's version
first (a cheap HGET in the same round trip as the stream's tail), so a game another
projector, a rebuild or an expiry moved since is read afresh. A projector that restarts
remembers nothing, which is why the indexes are touched again on its first projection of
each game (a crash between the write and the indexes is repaired that way).
"""

from collections import OrderedDict
from dataclasses import dataclass

GAMES = 1000  # the games remembered; the least recently projected are forgotten first


@dataclass(frozen=True)
class Known:
    """A game's checkpoint as this projector last wrote or read it."""

    version: int
    table: dict | None
    indexed: str | None = None  # the status the indexes hold, as this projector left them
    next_look: int = 0  # when (ms) this projector last set the sweep to look at it next


class KnownGames:
    """A bounded, least-recently-used map game id -> Known."""

    def __init__(self, size=GAMES):
        self.size = size
        self._games = OrderedDict()

    def get(self, game_id):
        known = self._games.get(game_id)
        if known is not None:
            self._games.move_to_end(game_id)
        return known

    def put(self, game_id, known):
        self._games[game_id] = known
        self._games.move_to_end(game_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def forget(self, game_id):
        self._games.pop(game_id, None)

    def clear(self):
        self._games.clear()

    def __len__(self):
        return len(self._games)
