"""The games' rules modules, by wire name. Each fulfils the contract in base.py."""

from importlib import import_module

from shared.games.base import RuleError

NAMES = ("alebrijes", "alien", "alakablast", "abluxxen")


_modules = {}  # name -> module: import_module's own lookup costs, on every fold and view


def get(name):
    """The rules module of a game, or RuleError("unknown_game")."""
    if name not in NAMES:
        raise RuleError("unknown_game", f"no game called {name!r}; try one of {list(NAMES)}")
    module = _modules.get(name)
    if module is None:
        module = _modules[name] = import_module(f"shared.games.{name}")
    return module
