"""The games' rules modules, by wire name. Each fulfils the contract in base.py."""

from importlib import import_module

from shared.games.base import RuleError

NAMES = ("alebrijes", "alien", "alakablast", "abluxxen")


def get(name):
    """The rules module of a game, or RuleError("unknown_game")."""
    if name not in NAMES:
        raise RuleError("unknown_game", f"no game called {name!r}; try one of {list(NAMES)}")
    return import_module(f"shared.games.{name}")
