"""Players' names in a game's read models, resolved when they are read.

A game's log names a player's seat by the player's id only; the views, summaries,
lobby entries, inboxes, replays and exports show the name the player has now, or
names.PLACEHOLDER once it is erased. Pure: the caller reads the players.
"""

import time

from shared.players.names import PLACEHOLDER


def player_ids(current):
    """The ids of the players seated (or invited) at a table."""
    return [place["player"] for place in current["seats"] if place.get("player")]


def name_of(player):
    """The name to show for a player's fold (None: unknown)."""
    if player is None or player["erased"]:
        return PLACEHOLDER
    return player["name"]


def named(current, names):
    """The table with each player's seat named from `names` ({player id: name}); the
    table itself when it seats no player. The input is not changed."""
    if not any(place.get("player") for place in current["seats"]):
        return current
    seats = [
        {**place, "name": names.get(place["player"], PLACEHOLDER)} if place.get("player") else place
        for place in current["seats"]
    ]
    return {**current, "seats": seats}


def name_seats(document, names):
    """Name the players' seats of a view or summary document in place."""
    for place in document["seats"]:
        if place.get("player"):
            place["name"] = names.get(place["player"], PLACEHOLDER)
    return document


class RecentNames:
    """Players' names as one process last read them, read again after `ttl` seconds:
    a busy table's names cost no round trip, and a rename or an erasure shows within
    `ttl` in answers made from this memory (stored read models are rewritten at once)."""

    MOST = 65_536

    def __init__(self, players, ttl, clock=time.monotonic):
        self.players = players  # shared.players.store.PlayerStore
        self.ttl = ttl
        self.clock = clock
        self._names = {}  # player id -> (name, read at)

    def of(self, current):
        """{player id: name} of a table's players."""
        return self.names(player_ids(current))

    def names(self, ids):
        """{player id: name} of these players."""
        if not ids:
            return {}
        now = self.clock()
        found, missing = {}, []
        for player_id in ids:
            known = self._names.get(player_id)
            if known is not None and now - known[1] < self.ttl:
                found[player_id] = known[0]
            else:
                missing.append(player_id)
        if missing:
            if len(self._names) >= self.MOST:
                self._names.clear()
            for player_id, player in self.players.loaded_many(missing).items():
                found[player_id] = name_of(player)
                self._names[player_id] = (found[player_id], now)
        return found

    def named(self, current):
        """The table with its players' names (see `named`)."""
        return named(current, self.of(current)) if player_ids(current) else current

    def forget(self, player_id):
        self._names.pop(player_id, None)
