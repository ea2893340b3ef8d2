"""Alakablast: how good a world looks to a seat before the game's end, for the search's
play-outs cut short (ismcts `evaluate`, HORIZON).

A play-out to the end is a few dozen commands, each a greedy decision that weighs the
unseen cards; the search plays HORIZON of them and then reads the gems (half a duel's
stake to each duelist when it stops in a duel): each seat's chance to win grows with its
gems (GEM_SCALE gems make it e times likelier), shared out among the seats, so equal gems
give each its fair share, as a finished game's reward would on average.
"""

import math

HORIZON = 6  # commands of a play-out (a duel is three, an ask two) before the evaluation
GEM_SCALE = 1.5


def evaluate(state, seat):
    """The seat's expected reward in this world (a full rules state of the search)."""
    gems = list(state["gems"])
    duel = state["duel"]
    if duel is not None:  # cut short in a duel: each duelist as likely to take the stake
        for role in ("attacker", "rival"):
            gems[duel[role]] += duel["stake"] / 2
    weights = [math.exp(count / GEM_SCALE) for count in gems]
    return weights[seat] / sum(weights)
