"""The games' rules modules, by wire name. Each fulfils the contract in base.py."""

from importlib import import_module

from shared.games.base import RuleError

NAMES = ("alebrijes", "alien", "alakablast", "abluxxen")


_MODULES = {}  # name -> module: a fold asks once an event, import_module is not free


def get(name):
    """The rules module of a game, or RuleError("unknown_game")."""
    module = _MODULES.get(name)
    if module is not None:
        return module
    if name not in NAMES:
        raise RuleError("unknown_game", f"no game called {name!r}; try one of {list(NAMES)}")
    return _MODULES.setdefault(name, import_module(f"shared.games.{name}"))
