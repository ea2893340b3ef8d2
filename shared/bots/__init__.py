"""Bots: pure functions from a seat's view (and a seeded rng) to a command."""

# Not `games`: importing shared.bots.games (the bot modules) binds that name here.
from shared import games as rules
from shared.bots import random_bot

BOTS = {"random": random_bot}


def choose(bot, view, rng):
    """The command bot `bot` sends on its turn, seeing only `view`."""
    return BOTS[bot].choose(view, rng)


def react(bot, view, rng):
    """The out-of-turn command (a claim, a stack: the game's REFLEXES) bot `bot` sends
    once its reaction delay has passed, or None when there is none to send."""
    return BOTS[bot].react(view, reflexes(view["game"]), rng)


def reflexes(game):
    """The command types of `game` a bot sends after its reaction delay."""
    return getattr(rules.get(game), "REFLEXES", ())
