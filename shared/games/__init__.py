"""The games, by wire name: Python entry points in the group `tablestream.games`, each
naming a game's package, which fulfils the contract in base.py.

The four built-in games are entry points of the tablestream distribution itself
(pyproject.toml); a game from elsewhere (a plugin, or the test game of tests/games/tiny)
is any installed distribution that declares one more:

    [project.entry-points."tablestream.games"]
    mygame = "mygame"

Everything else a game has is found in its own package, by convention (docs/design.md,
"How to add a game"): `<package>.contract` (its API schemas), optionally
`<package>.actions` (its environments' action space) and `<package>.bot` (greedy).

The entry points are read once per process, on first use (not at import), so a process
started with a game's distribution on its path serves that game everywhere: the API
and its OpenAPI document, the projector, the worker, the environments.
"""

from importlib import import_module, metadata

from shared.games.base import RuleError

GROUP = "tablestream.games"
# The order every listing has always had (the OpenAPI document's unions, the lobby's
# choices); any other game comes after these, by name.
FIRST = ("alebrijes", "alien", "alakablast", "abluxxen")

_packages = None  # {name: dotted package}, read on first use
_MODULES = {}  # name -> module: a fold asks once an event, import_module is not free


def packages():
    """{wire name: dotted package name} of every registered game, in listing order."""
    global _packages
    if _packages is None:
        found = {point.name: point.value for point in metadata.entry_points(group=GROUP)}
        missing = [name for name in FIRST if name not in found]
        if missing:
            # An install older than the registry (entry points are metadata): say so
            # loudly rather than serve no game.
            raise RuntimeError(
                f"games {', '.join(missing)} are not registered in {GROUP!r}: "
                "reinstall tablestream (pip install -e .)"
            )
        order = [*FIRST, *sorted(set(found) - set(FIRST))]
        _packages = {name: found[name] for name in order}
        # From now on NAMES is a plain attribute, and __getattr__ goes: Python does not
        # specialize reading an attribute of a module that has one, which made every
        # `games.get` (a fold calls it once an event) about 1.5x slower.
        module = globals()
        module["NAMES"] = tuple(_packages)
        module.pop("__getattr__", None)
    return _packages


def _first_read(name):
    """NAMES (the wire names, in listing order), read from the registry when first asked
    for, not when this module is imported (PEP 562)."""
    if name == "NAMES":
        packages()
        return globals()["NAMES"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__getattr__ = _first_read


def get(name):
    """The rules module of a game, or RuleError("unknown_game")."""
    module = _MODULES.get(name)
    if module is not None:
        return module
    found = packages().get(name)
    if found is None:
        names = list(packages())
        raise RuleError("unknown_game", f"no game called {name!r}; try one of {names}")
    return _MODULES.setdefault(name, import_module(found))


def part(name, part):
    """The game's own module `part` (e.g. "contract": `<package>.contract`), or None
    when the game has none."""
    package = get(name).__name__
    try:
        return import_module(f"{package}.{part}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{part}":
            raise  # the part exists and imports something missing: a real error
        return None
