"""Alien, the real-time capture game, for 2 to 8 players: the pure rules engine.

It fulfils the contract of shared/games/base.py; docs/rules/alien.md describes the
rules as applied, the rulings, commands, events and views.

Modules, one job each: facts (cards and constants), setup (options, deck, initial
state, deal), commands (command shapes), turn (PLAY and PASS), claims (CAPTURED! and
the stacking window), decide (who acts and what they may send), chronicle (events and
seeded chance), evolve (folding events), views (what each seat sees, and the result),
scenarios (scripted games for tutorials, puzzles and tests).
"""

from ..base import RuleError
from .decide import decide, legal, reflex_commands, table_timers, timeout, to_act
from .evolve import evolve, evolve_in_place
from .facts import CARDS, COMMANDS, NAME, OPTIONS, PLAYERS, REFLEXES, TABLE_COMMANDS
from .scenarios import arrange_deck, replay
from .setup import check_deck, configure, initial
from .views import redact, result, view

__all__ = [
    "CARDS",
    "COMMANDS",
    "NAME",
    "OPTIONS",
    "PLAYERS",
    "REFLEXES",
    "TABLE_COMMANDS",
    "RuleError",
    "arrange_deck",
    "check_deck",
    "configure",
    "decide",
    "evolve",
    "evolve_in_place",
    "initial",
    "legal",
    "redact",
    "reflex_commands",
    "replay",
    "result",
    "table_timers",
    "timeout",
    "to_act",
    "view",
]
