"""Bots: pure functions of what a seat may know (its view, its own redacted feed) and a
seeded rng, to a command. Never of the table itself: this package reads no table, store
or queue (a test checks its imports).

Levels, weakest first (docs/bots.md):
- `random`: any legal command;
- `greedy`: the game's rule-based heuristic (`shared.bots.games.<game>.greedy`);
- `ismcts`: information-set Monte Carlo tree search (`shared.bots.ismcts`) within
  `think_ms` milliseconds.
"""

from importlib import import_module

# Not `games`: importing shared.bots.games (the bot modules) binds that name here.
from shared import games as rules
from shared.bots import ismcts, random_bot
from shared.bots.ismcts import MAX_THINK_MS, MIN_THINK_MS, THINK_MS

LEVELS = ("random", "greedy", "ismcts")
# Levels whose choice reads nothing but the order of the view's legal commands: no
# feed, and no other field, so a caller may give them no feed (docs/operations.md).
LEGAL_ONLY = ("random",)
__all__ = [
    "LEGAL_ONLY",
    "LEVELS",
    "MAX_THINK_MS",
    "MIN_THINK_MS",
    "THINK_MS",
    "choose",
    "game_module",
    "react",
]


def game_module(game):
    """The game's bot module, `shared.bots.games.<game>` (greedy, reflex, sample),
    imported on first use so a level that does not need it never loads it."""
    return import_module(f"shared.bots.games.{rules.get(game).NAME}")


def choose(level, view, feed, rng, think_ms=None):
    """The command a bot of `level` sends on its turn, seeing only its seat's `view` and
    `feed`; `think_ms` is the search's budget (ismcts; default THINK_MS)."""
    if level == "random":
        return random_bot.choose(view, rng)
    if level == "greedy":
        return game_module(view["game"]).greedy(view, feed, rng)
    if level == "ismcts":
        return ismcts.search(view, feed, rng, think_ms=think_ms)
    raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")


def react(level, view, feed, rng):
    """The out-of-turn command (a claim, a stack: the game's REFLEXES) a bot of `level`
    sends once its reaction delay has passed, or None when there is none to send.
    The search does not think about reflexes: ismcts reacts as greedy does."""
    if level == "random":
        return random_bot.react(view, reflexes(view["game"]), rng)
    if level in ("greedy", "ismcts"):
        return game_module(view["game"]).reflex(view, feed, rng)
    raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")


def reflexes(game):
    """The command types of `game` a bot sends after its reaction delay."""
    return getattr(rules.get(game), "REFLEXES", ())
