"""Bots: pure functions of what a seat may know (its view, its own redacted feed), a
seeded rng and a time budget, to a command. Never of the table itself: this package
reads no table, store or queue (a test checks its imports).

A level is an entry point in the group `tablestream.bots` (shared.bots.registry, the
interface in docs/bots.md). The built-in ones, weakest first (shared.bots.levels):
- `random`: any legal command;
- `greedy`: the game's rule-based heuristic (`shared.bots.games.<game>.greedy`);
- `ismcts`: information-set Monte Carlo tree search (`shared.bots.ismcts`) within
  `think_ms` milliseconds.
"""

from shared.bots import registry
from shared.bots.registry import (
    BUILT_IN,
    MAX_THINK_MS,
    MIN_THINK_MS,
    THINK_MS,
    Level,
    UnknownLevel,
)

LEVELS = BUILT_IN
# Built-in levels whose choice reads nothing but the order of the view's legal
# commands: no feed, and no other field (docs/operations.md).
LEGAL_ONLY = ("random",)
__all__ = [
    "LEGAL_ONLY",
    "LEVELS",
    "MAX_THINK_MS",
    "MIN_THINK_MS",
    "THINK_MS",
    "Level",
    "UnknownLevel",
    "choose",
    "game_module",
    "react",
    "reads_feed",
]


def game_module(game):
    """The game's bot module, `shared.bots.games.<game>` (greedy, reflex, sample),
    imported on first use so a level that does not need it never loads it."""
    from shared.bots.levels import game_module as module

    return module(game)


def choose(level, view, feed, rng, think_ms=None, fallback="random"):
    """The command a bot of `level` sends on its turn, seeing only its seat's `view` and
    `feed`; `think_ms` is its budget (default: the level's). A level that fails, is
    late, or answers an illegal command is replaced for this decision by `fallback`
    (the table's takeover_bot): registry.decide."""
    return registry.decide(level, view, feed, rng, think_ms=think_ms, fallback=fallback)


def react(level, view, feed, rng):
    """The out-of-turn command (a claim, a stack: the game's REFLEXES) a bot of `level`
    sends once its reaction delay has passed, or None when there is none to send."""
    return registry.react(level, view, feed, rng)


def reads_feed(level):
    """Whether the worker must build the level's feed (False: it is given [])."""
    found = registry.levels().get(level)
    return found is None or found.reads_feed


def reflexes(game):
    """The command types of `game` a bot sends after its reaction delay."""
    from shared import games as rules

    return getattr(rules.get(game), "REFLEXES", ())
