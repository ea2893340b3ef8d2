"""Alakablast: the rules engine (the contract of shared/games/base.py).

Each seat holds hidden cards only it sees and open cards everyone else sees; the server
keeps what each player has been told about their own open cards. On a turn a player asks
for a clue about one of their open cards, or duels a rival: both choose a card in secret,
revealed together. Rules: docs/rules/alakablast.md.

    cards.py      static facts: the 49 spell cards, hand sizes, targets, who beats whom
    knowledge.py  what a player has been told; clues and claims
    deal.py       options, the initial state, the shuffle and the deal
    commands.py   the shape of a command (bad_command)
    table.py      questions about the table shared by the referee and legal()
    decide.py     the referee: commands into events
    duel.py       the showdown: reveal, tie, win, refill, end of the game
    evolve.py     folding events into the state
    turns.py      to_act, legal, timeout
    views.py      view, redact, result
"""

from shared.games.alakablast.cards import CARDS, COMMANDS, NAME, OPTIONS, PLAYERS
from shared.games.alakablast.deal import check_deck, configure, initial
from shared.games.alakablast.decide import decide
from shared.games.alakablast.evolve import evolve, evolve_in_place
from shared.games.alakablast.turns import legal, timeout, to_act
from shared.games.alakablast.views import redact, result, view
from shared.games.base import RuleError

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
    "redact",
    "result",
    "timeout",
    "to_act",
    "view",
]
