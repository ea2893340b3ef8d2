"""Test bot plugins, and a tiny test distribution that registers them.

`installed(directory, entries)` writes `testbots-1.0.dist-info` (METADATA and
entry_points.txt, as pip would) into `directory`, puts `directory` on sys.path and has
the registry read the entry points again: the plugins are found through
importlib.metadata exactly as an installed distribution's are. A subprocess given
`python_path(directory)` as PYTHONPATH finds them too.

The plugins themselves live here (the entry points name `tests.bot_plugins:...`).
"""

import os
import sys
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

from shared import games
from shared.bots import Level, registry
from shared.bots.levels import game_module

ROOT = Path(__file__).resolve().parents[1]


def _first_legal(view, feed, rng, think_ms):
    return view["legal"][0]


def _raises(view, feed, rng, think_ms):
    raise RuntimeError("a bug in the plugin")


def _sleeps(view, feed, rng, think_ms):
    time.sleep((registry.LATE_FACTOR * think_ms + registry.LATE_GRACE_MS) / 1000 + 0.05)
    return view["legal"][0]


def _illegal(view, feed, rng, think_ms):
    return {"type": "win_the_game"}


# What the side door lets through: the last table a view was built from (a test
# installs it over shared.table.view). A bot must never read it; PEEKING does.
SIDE_DOOR = {}


def _peeks(view, feed, rng, think_ms):
    """Greedy, except that it plays the legal command whose index is the number of
    cards in a hidden place of the table it reads through the side door."""
    hidden = SIDE_DOOR.get("table")
    if hidden is None:
        return game_module(view["game"]).greedy(view, feed, rng)
    return view["legal"][_hidden_count(hidden["rules"]) % len(view["legal"])]


def _hidden_count(state):
    """A number that changes when the hidden cards do."""
    return zlib.crc32(repr(sorted(state.items())).encode())


def _every_game(play):
    return dict.fromkeys(games.NAMES, play)


FIRST = Level(plays=_every_game(_first_legal), description="the first legal command")
RAISES = Level(plays=_every_game(_raises), min_ms=20, default_ms=20)
SLEEPS = Level(plays=_every_game(_sleeps), min_ms=20, default_ms=20)
ILLEGAL = Level(plays=_every_game(_illegal))
PEEKING = Level(plays=_every_game(_peeks))
ALIEN_ONLY = Level(plays={"alien": _first_legal})
NOT_A_LEVEL = {"plays": "everything"}
PLAYS_CHESS = Level(plays={"chess": _first_legal})

ENTRIES = {
    "first": "tests.bot_plugins:FIRST",
    "raises": "tests.bot_plugins:RAISES",
    "sleeps": "tests.bot_plugins:SLEEPS",
    "illegal": "tests.bot_plugins:ILLEGAL",
    "peeking": "tests.bot_plugins:PEEKING",
    "alien_only": "tests.bot_plugins:ALIEN_ONLY",
}
BROKEN = {
    "missing_module": "tests.no_such_module:LEVEL",
    "not_a_level": "tests.bot_plugins:NOT_A_LEVEL",
    "plays_chess": "tests.bot_plugins:PLAYS_CHESS",
}


def write_distribution(directory, entries):
    """The metadata of a distribution `testbots` whose entry points are `entries`."""
    info = Path(directory) / "testbots-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: testbots\nVersion: 1.0\n")
    lines = [f"[{registry.GROUP}]", *(f"{name} = {value}" for name, value in entries.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return directory


@contextmanager
def installed(directory, entries=None):
    """The test distribution installed (on sys.path) while the block runs."""
    write_distribution(directory, ENTRIES if entries is None else entries)
    sys.path.insert(0, str(directory))
    try:
        registry.reload()
        yield registry
    finally:
        sys.path.remove(str(directory))
        registry.reload()


def python_path(directory):
    """PYTHONPATH for a subprocess that should find the test distribution."""
    return os.pathsep.join([str(directory), str(ROOT), os.environ.get("PYTHONPATH", "")])
