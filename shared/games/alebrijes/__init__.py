"""Alebrijes: the pure rules engine (see docs/rules/alebrijes.md).

Climbing card game for 2 to 6 players: beat the combination on the table by number
or by the next colour, or pass; empty your hand first. The module fulfils the
contract of shared/games/base.py.
"""

from ..base import RuleError
from .cards import CARDS, minus_points
from .commands import COMMANDS
from .events import evolve, evolve_in_place
from .moves import legal, timeout
from .options import NAME, OPTIONS, PLAYERS, check_deck, configure, initial
from .rules import decide, to_act
from .views import redact, result, view

__all__ = [
    "CARDS",
    "COMMANDS",
    "NAME",
    "OPTIONS",
    "PLAYERS",
    "RuleError",
    "check_deck",
    "configure",
    "decide",
    "evolve",
    "evolve_in_place",
    "initial",
    "legal",
    "minus_points",
    "redact",
    "result",
    "timeout",
    "to_act",
    "view",
]
