"""Bots: pure functions from a seat's view (and a seeded rng) to a command."""

from shared.bots import random_bot

BOTS = {"random": random_bot.choose}


def choose(bot, view, rng):
    """The command bot `bot` sends, seeing only `view`."""
    return BOTS[bot](view, rng)
