"""Each bot level's rating per game on the players' scale, as the tournament measured
it (`python -m services.tournament --write-calibration shared/bots/calibration.json`,
docs/bots.md "Calibration"), and the level nearest a rating: what matchmaking's bot
fill seats when a ticket names no level.

The table is package data (calibration.json beside this module), read once by `load`:

    {"games": {game: {"levels": {level: {"rating", "ci95": [low, high]}},
                      "players", "games", "think_ms", "seed", "date", "command", "load"}}}

Pure: no Redis, no clock; `nearest` is a function of the table it is given.
"""

import functools
import json
from importlib import resources

FILE = "calibration.json"
FALLBACK = "greedy"  # a game the table does not have: the rule-based bot


@functools.cache
def load():
    """The calibration table shipped with tablestream (calibration.json), read once."""
    return json.loads(resources.files(__package__).joinpath(FILE).read_text())


def nearest(table, game, rating):
    """(level, reason): the level whose calibrated rating of `game` is nearest `rating`
    (a tie: the weaker of the two, the gentler opponent); FALLBACK when the table has
    no rated level of that game."""
    levels = {
        name: row["rating"]
        for name, row in ((table or {}).get("games", {}).get(game, {}).get("levels", {})).items()
        if row.get("rating") is not None
    }
    if not levels:
        return FALLBACK, f"no calibration of {game}: {FALLBACK}"
    level = min(levels, key=lambda name: (abs(levels[name] - rating), levels[name], name))
    return level, f"{level} ({levels[level]}): the calibrated level of {game} nearest {rating:.0f}"


def merged(table, entries):
    """`table` with the games of `entries` ({game: entry}) replaced, the others kept:
    a calibration of one game does not drop the rest."""
    games = dict((table or {}).get("games", {}))
    games.update(entries)
    return {"games": {name: games[name] for name in sorted(games)}}
