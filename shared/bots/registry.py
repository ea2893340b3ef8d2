"""The bot levels: Python entry points in the group `tablestream.bots`, each a `Level`.

The built-in `random`, `greedy` and `ismcts` are entry points of the tablestream
distribution itself (pyproject.toml); a plugin is any installed distribution that
declares one more, for example in its own pyproject.toml:

    [project.entry-points."tablestream.bots"]
    mybot = "mybot:LEVEL"

The worker, the timers' takeover (shared.table checks the level a seat is given) and
the tournament all find a level here, and a decision goes through `decide`: a level
that raises, answers after its deadline or answers a command not in the view's legal
ones is logged, and that one decision is the fallback level's (the table's
takeover_bot), so the game goes on. The interface is in docs/bots.md.

Entry points are read once per process (`reload` reads them again). One that fails to
import, is not a Level, names a game that does not exist, or shares its name with
another, is not a level: `problems` says why, and `check` (at worker start) refuses
to start with it.
"""

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata

from shared import games as rules
from shared.bots.ismcts import MAX_THINK_MS, MIN_THINK_MS, THINK_MS

log = logging.getLogger(__name__)

GROUP = "tablestream.bots"
BUILT_IN = ("random", "greedy", "ismcts")
# A decision may overrun its budget this much before it is thrown away: room for a slow
# machine (the search's p99 stays within 1.5x its budget) and a garbage collection.
LATE_FACTOR, LATE_GRACE_MS = 2, 250


@dataclass(frozen=True)
class Level:
    """A bot level: per game, how it plays a turn and (optionally) how it reacts.

    - `plays`: {game: choose(view, feed, rng, think_ms) -> command}, one of
      view["legal"]; `view` is the seat's view as the API gives it, `feed` its events
      redacted as the events endpoint redacts them, `rng` a random.Random seeded for
      this decision, `think_ms` the budget in ms. Pure: nothing else may be read.
      The games it plays are the keys.
    - `reacts`: {game: react(view, feed, rng) -> command or None}, the out-of-turn
      commands (the game's REFLEXES: Alien's claims and stacks); a game left out reacts
      as `greedy` does.
    - `min_ms`, `max_ms`, `default_ms`: the budgets a seat may ask for (within
      MIN_THINK_MS..MAX_THINK_MS) and the one it gets when it names none.
    - `reads_feed`: False for a level that reads nothing but view["legal"], so the
      worker need not build its feed (it is given []).
    """

    plays: Mapping[str, Callable]
    reacts: Mapping[str, Callable] = field(default_factory=dict)
    min_ms: int = MIN_THINK_MS
    max_ms: int = MAX_THINK_MS
    default_ms: int = THINK_MS
    reads_feed: bool = True
    description: str = ""

    @property
    def games(self):
        """The games this level plays, sorted."""
        return tuple(sorted(self.plays))

    def budget(self, think_ms=None):
        """The budget of one decision in ms: `think_ms`, else the level's default."""
        return self.default_ms if think_ms is None else think_ms

    def deadline_ms(self, think_ms=None):
        """How long a decision may take before its answer is thrown away."""
        return LATE_FACTOR * self.budget(think_ms) + LATE_GRACE_MS


class UnknownLevel(ValueError):
    """A level that is not installed, did not load, or does not play the game."""


_loaded = None  # (levels, problems), read on first use


def reload():
    """Read the entry points again (after a distribution was installed or removed)."""
    global _loaded
    _loaded = _load()
    return _loaded


def levels():
    """{name: Level} of every level that loaded, built-in first."""
    return (_loaded or reload())[0]


def problems():
    """{name: why} of every entry point in the group that is not a level."""
    return (_loaded or reload())[1]


def names(game=None):
    """The names of the levels that loaded (that play `game`, if given), built-in first."""
    return tuple(n for n, level in levels().items() if game is None or game in level.plays)


def get(name, game=None):
    """The Level called `name` (that plays `game`, if given), else UnknownLevel whose
    message names the levels there are."""
    found = levels().get(name)
    if found is not None and (game is None or game in found.plays):
        return found
    if name in problems():
        why = f"bot level {name!r} did not load ({problems()[name]})"
    elif found is not None:
        why = f"bot level {name!r} does not play {game} (it plays {', '.join(found.games)})"
    else:
        why = f"unknown bot {name!r}"
    return _refuse(f"{why}; the levels are {', '.join(names(game))}")


def _refuse(message):
    raise UnknownLevel(message)


def check(required=()):
    """Raise UnknownLevel when an entry point of the group is not a level, or a level
    `required` (names) is missing: what a worker checks before it serves."""
    trouble = [f"{name}: {why}" for name, why in problems().items()]
    trouble += [f"{name}: not installed" for name in required if name not in levels()]
    if trouble:
        raise UnknownLevel(
            "bot levels that cannot be served: " + "; ".join(trouble) + f" (group {GROUP})"
        )
    return names()


def decide(name, view, feed, rng, think_ms=None, fallback="random", clock=time.perf_counter):
    """The command level `name` sends on the seat's turn, checked: if the level raises,
    answers after its deadline or answers a command not in view["legal"], that is
    logged and the `fallback` level decides instead, with the same rng (`random` when
    the fallback fails too)."""
    game = view["game"]
    start = clock()
    try:
        level = get(name, game)
        command = level.plays[game](view, feed, rng, level.budget(think_ms))
    except Exception:
        log.exception("bot %s failed on %s; %s decides instead", name, game, fallback)
    else:
        took_ms = (clock() - start) * 1000
        if took_ms > level.deadline_ms(think_ms):
            log.error(
                "bot %s took %.0f ms on %s (budget %s ms); %s decides instead",
                *(name, took_ms, game, level.budget(think_ms), fallback),
            )
        elif command not in view["legal"]:
            log.error("bot %s answered %r, not legal; %s decides instead", name, command, fallback)
        else:
            return command
    if name == fallback:
        fallback = "random"
    return decide(fallback, view, feed, rng, think_ms=None, fallback="random", clock=clock)


def react(name, view, feed, rng):
    """The out-of-turn command level `name` sends, or None. A level that does not say
    how it reacts to this game reacts as greedy does; one that fails, or answers a
    command that is not legal, sends nothing (logged)."""
    game = view["game"]
    try:
        level = get(name, game)
        how = level.reacts.get(game) or get("greedy", game).reacts[game]
        command = how(view, feed, rng)
    except Exception:
        log.exception("bot %s failed to react on %s; it sends nothing", name, game)
        return None
    if command is not None and command not in view["legal"]:
        log.error("bot %s reacted %r, not legal; it sends nothing", name, command)
        return None
    return command


def _load():
    found, broken = {}, {}
    points = sorted(
        metadata.entry_points(group=GROUP),
        key=lambda p: (p.name not in BUILT_IN, BUILT_IN.index(p.name) if p.name in BUILT_IN else 0),
    )
    for point in points:
        if point.name in found or point.name in broken:
            broken[point.name] = "two entry points share this name"
            found.pop(point.name, None)
            continue
        try:
            level = point.load()
        except Exception as error:  # a plugin's bug: say which, serve the others
            broken[point.name] = f"{point.value} failed to import: {error!r}"
            continue
        why = _invalid(level)
        if why:
            broken[point.name] = f"{point.value}: {why}"
        else:
            found[point.name] = level
    missing = [name for name in BUILT_IN if name not in found and name not in broken]
    if missing:
        broken.update(
            (name, "the built-in level is not registered: reinstall tablestream (pip install -e .)")
            for name in missing
        )
    for name, why in broken.items():
        log.error("bot level %s is not served: %s", name, why)
    return found, broken


def _invalid(level):
    """Why `level` is not a usable Level, or None."""
    if not isinstance(level, Level):
        return f"not a shared.bots.registry.Level but {type(level).__name__}"
    unknown = sorted(set(level.plays) - set(rules.NAMES))
    if unknown:
        return f"plays {', '.join(unknown)}, not a game here ({', '.join(rules.NAMES)})"
    if not level.plays:
        return "plays no game"
    if not MIN_THINK_MS <= level.min_ms <= level.default_ms <= level.max_ms <= MAX_THINK_MS:
        return f"budgets must be {MIN_THINK_MS} <= min_ms <= default_ms <= max_ms <= {MAX_THINK_MS}"
    return None
