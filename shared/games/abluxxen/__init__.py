"""Abluxxen, the rules engine: 2 to 5 players play rows of one number and abluxx the
rows of others (see docs/rules/abluxxen.md).

The default rules follow the rulebook; option `published` plays the published rules
(RULINGS.md). This package fulfils the contract of shared/games/base.py: facts.py holds
the cards, options.py the new game, commands.py the commands' shapes, rules.py the rules'
questions about a table, decide.py and events.py the Decider, turns.py who acts and what
they may send, views.py what each seat sees.
"""

from ..base import RuleError
from .decide import decide
from .events import evolve, evolve_in_place
from .facts import CARDS, COMMANDS, NAME, OPTIONS, PLAYERS, TABLE_COMMANDS
from .options import check_deck, configure, initial
from .turns import legal, timeout, to_act
from .views import redact, result, view

__all__ = [
    "CARDS",
    "COMMANDS",
    "NAME",
    "OPTIONS",
    "PLAYERS",
    "TABLE_COMMANDS",
    "RuleError",
    "check_deck",
    "configure",
    "decide",
    "evolve",
    "evolve_in_place",
    "initial",
    "legal",
    "redact",
    "result",
    "timeout",
    "to_act",
    "view",
]
